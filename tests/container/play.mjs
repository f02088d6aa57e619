// The container test's player: the integration-test clients against a
// gomoku-server that runs from the image (see test-image.sh).
//
//   node container/play.mjs game PORT FILE   /healthz, the web client, one
//                                            whole game (two players, to a
//                                            five), its record in the
//                                            journal; writes the game to FILE
//   node container/play.mjs stop PORT PID    players in a live game and one
//                                            waiting; SIGTERM to PID; every
//                                            client closed with 1001 and a
//                                            reason; PID gone within 2 s
//   node container/play.mjs replay PORT FILE the game in FILE is still in
//                                            the journal (after a restart)
//   node container/play.mjs site PORT FILE   through the site's balancer:
//                                            /healthz, the web client, one
//                                            whole game, and the game in
//                                            the site's /api/games; writes
//                                            the game to FILE
//
// Run from tests/ (its node_modules has ws). Prints one PASS or FAIL line
// per check and exits non-zero on any failure.

import { readFileSync, writeFileSync } from 'node:fs';

import { httpGet } from '../integration/lib/server.mjs';
import {
	connectPair, connectPlayer, connectWaiting, closeAllClients, uuid,
} from '../integration/lib/client.mjs';
import { winningScript, playMoves, expectWinner } from '../integration/lib/game.mjs';

const STOP_LIMIT_MS = 2000;
const START_TIMEOUT_MS = 15000;

const [mode, portText, extra] = process.argv.slice(2);
const port = Number(portText);
if (!['game', 'stop', 'replay', 'site'].includes(mode) || !Number.isInteger(port) || !extra ||
    (mode === 'stop' && !Number.isInteger(Number(extra)))) {
	console.error('usage: node container/play.mjs game PORT FILE | stop PORT PID | replay PORT FILE | site PORT FILE');
	process.exit(2);
}
// What the integration clients need of a server: where it is.
const server = { host: '127.0.0.1', port };

let failures = 0;

/** Runs one check: PASS with its name, or FAIL with why. */
async function check(name, body) {
	try {
		const detail = await body();
		console.log(`PASS  ${name}${detail ? ` (${detail})` : ''}`);
		return true;
	} catch (err) {
		failures++;
		console.log(`FAIL  ${name}: ${err.message}`);
		return false;
	}
}

function sleep(ms) {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** GET /healthz until it answers 200; resolves with its parsed body. */
async function waitHealthy() {
	const deadline = Date.now() + START_TIMEOUT_MS;
	let last = 'no answer';
	while (Date.now() < deadline) {
		try {
			const res = await httpGet(port, '/healthz', { timeoutMs: 1000 });
			if (res.status === 200)
				return JSON.parse(res.body);
			last = `status ${res.status}`;
		} catch (err) {
			last = err.message;
		}
		await sleep(100);
	}
	throw new Error(`expected GET /healthz on port ${port} to answer 200 within ` +
		`${START_TIMEOUT_MS} ms, last: ${last}`);
}

/** True while process pid exists and is not a zombie. */
function running(pid) {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// The state follows the parenthesised command name.
		return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
	} catch {
		return false;
	}
}

/**
 * Checks that GET /api/games/ID answers the record of the finished game
 * { room, moves, winner, line }.
 */
async function expectRecord(played) {
	const res = await httpGet(port, `/api/games/${played.room}`);
	if (res.status !== 200)
		throw new Error(`expected GET /api/games/${played.room} to answer 200, ` +
			`got ${res.status}: ${res.body}`);
	const record = JSON.parse(res.body);
	const moves = Array.isArray(record.moves) ? record.moves.length : null;
	if (record.status !== 'finished' || !record.result ||
	    record.result.winner !== played.winner || moves !== played.moves)
		throw new Error(`expected a finished game won by ${played.winner} in ` +
			`${played.moves} moves, got ${res.body}`);
	return `status ${record.status}, ${moves} moves, ${record.result.winner} won`;
}

/**
 * Checks that GET /api/games lists the finished game { room, moves,
 * winner } within START_TIMEOUT_MS (the site's lists are refreshed every
 * second).
 */
async function expectListed(played) {
	const deadline = Date.now() + START_TIMEOUT_MS;
	let last = '';
	while (Date.now() < deadline) {
		const res = await httpGet(port, '/api/games');
		last = `${res.status} ${res.body.trim().slice(0, 300)}`;
		const games = res.status === 200 ? JSON.parse(res.body).games : [];
		const listed = games.find((entry) => entry.id === played.room);
		if (listed) {
			if (listed.moves !== played.moves || listed.result.winner !== played.winner)
				throw new Error(`expected ${played.moves} moves won by ${played.winner}, ` +
					`got ${JSON.stringify(listed)}`);
			return `${listed.moves} moves, ${listed.result.winner} won`;
		}
		await sleep(200);
	}
	throw new Error(`expected GET /api/games to list ${played.room} within ` +
		`${START_TIMEOUT_MS} ms, last: ${last}`);
}

async function game(file, { site = false } = {}) {
	let size = 15;
	const healthy = await check('GET /healthz answers 200 with status "ok"', async () => {
		const health = await waitHealthy();
		if (health.status !== 'ok')
			throw new Error(`expected status "ok", got ${JSON.stringify(health)}`);
		return `version ${health.version}`;
	});
	let played = null;
	if (!healthy)
		return;
	await check('GET / serves the web client from the image', async () => {
		const res = await httpGet(port, '/');
		if (res.status !== 200 || !/text\/html/.test(res.headers['content-type'] || '') ||
		    !/<html/i.test(res.body))
			throw new Error(`expected 200 text/html with an <html> page, got ${res.status} ` +
				`${res.headers['content-type']}: ${res.body.slice(0, 200)}`);
		return `${res.body.length} bytes`;
	});
	await check('two players are matched and play a whole game to a five', async () => {
		const pair = await connectPair(server);
		size = pair.front.welcome.size;
		const script = winningScript({
			size, winner: 'front', direction: 'diagonal', start: { x: 3, y: 3 },
		});
		await playMoves(pair, script.moves, { size, lastEndsGame: true });
		await expectWinner(pair, { winner: 'front', reason: 'five', line: script.line });
		await closeAllClients();
		played = { room: pair.room, moves: script.moves.length, winner: 'front' };
		writeFileSync(file, JSON.stringify(played));
		return `${script.moves.length} moves on ${size}x${size}, front won`;
	});
	if (played && site)
		await check('GET /api/games lists the game, whichever instance answers', () =>
			expectListed(played));
	else if (played)
		await check('GET /api/games/ROOM answers the game from the journal', () =>
			expectRecord(played));
}

async function replay(file) {
	const played = JSON.parse(readFileSync(file, 'utf8'));
	await check('GET /healthz answers 200 after the restart', async () => {
		await waitHealthy();
	});
	await check(`the game played before the restart is still in the journal (${played.room})`,
		() => expectRecord(played));
}

async function stop(pid) {
	let clients = [];
	const ready = await check('two players in a live game and one waiting are connected', async () => {
		await waitHealthy();
		const pair = await connectPair(server);
		const size = pair.front.welcome.size;
		const script = winningScript({
			size, winner: 'back', direction: 'vertical', start: { x: 7, y: 2 },
		});
		await playMoves(pair, script.moves.slice(0, 3), { size });
		const waiting = await connectWaiting(server, { name: 'waiting' });
		clients = [pair.front, pair.back, waiting];
		const health = await waitHealthy();
		if (health.connections !== clients.length)
			throw new Error(`expected /healthz to count ${clients.length} connections, ` +
				`got ${JSON.stringify(health)}`);
		return '3 moves played';
	});
	if (!ready) {
		await closeAllClients();
		return;
	}

	const sent = Date.now();
	process.kill(pid, 'SIGTERM');
	await check('every client is closed with 1001 and a reason', async () => {
		const closes = await Promise.all(clients.map((client) => client.waitClosed(5000)));
		closes.forEach(({ code, reason }, index) => {
			if (code !== 1001 || !reason)
				throw new Error(`expected ${clients[index].label} to be closed with ` +
					`1001 and a reason, got ${code} ${JSON.stringify(reason)}`);
		});
		return `1001 "${closes[0].reason}", after ${Date.now() - sent} ms`;
	});
	await check(`gomoku-server (pid ${pid}) exits within ${STOP_LIMIT_MS} ms of SIGTERM`, async () => {
		while (running(pid) && Date.now() - sent < 5000)
			await sleep(10);
		const elapsed = Date.now() - sent;
		if (running(pid))
			throw new Error(`expected it to exit, it was still running after ${elapsed} ms`);
		if (elapsed > STOP_LIMIT_MS)
			throw new Error(`expected it to exit within ${STOP_LIMIT_MS} ms, it took ${elapsed} ms`);
		return `${elapsed} ms`;
	});
	await check('a new player is not served after SIGTERM', async () => {
		let client;
		try {
			client = await connectPlayer(server, { uid: uuid() }, { timeoutMs: 2000 });
		} catch {
			return 'connection refused';
		}
		const message = await client.next(null, 2000).catch(() => null);
		await closeAllClients();
		if (message && message.type === 'welcome')
			throw new Error('expected no welcome, got one');
		return 'closed without a welcome';
	});
}

try {
	if (mode === 'game' || mode === 'site')
		await game(extra, { site: mode === 'site' });
	else if (mode === 'stop')
		await stop(Number(extra));
	else
		await replay(extra);
} catch (err) {
	failures++;
	console.log(`FAIL  ${mode}: ${err.stack || err.message}`);
}
await closeAllClients();
process.exit(failures ? 1 : 0);
