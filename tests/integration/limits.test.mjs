// Abuse limits: the per-connection message rate, the number of TCP
// connections in all and per client address (by socket, or by the last
// X-Forwarded-For entry behind a trusted proxy), slow handshakes and
// WebSockets that never answer a ping. Each limit is tested on a server of
// its own, started with that limit set explicitly.

import { describe, it, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';

import { startServer, HOST } from './lib/server.mjs';
import { Client, connectPair, connectPlayer, connectWaiting, closeAllClients, playerUrl, uuid } from './lib/client.mjs';
import { playMoves, fullBoardScript } from './lib/game.mjs';
import { RawSocket, openRawWs, encodeFrame, randomKey } from './lib/rawws.mjs';
import { gameRecord, gameState, fetchMetric, metricValue, httpGetFrom, pollUntil, sleep, residentKiB, residentMemoryIsTheServers } from './lib/observe.mjs';
import { testTimeout, scaled } from './lib/time.mjs';

const T = testTimeout(60_000);
const SIZE = 15;
const REFUSED_TOTAL = 'gomoku_connections_refused_total{limit="max_connections"}';
const REFUSED_PER_IP = 'gomoku_connections_refused_total{limit="max_per_ip"}';
const TCP_GAUGE = 'gomoku_tcp_connections';

const servers = [];
const rawClients = new Set();

/** Starts a server with extra flags; stopped after the file. */
async function serverWith(args) {
	const server = await startServer({ args });
	servers.push(server);
	return server;
}

/** Stops a server of this file now (SIGTERM, exit 0). */
async function stopServer(server) {
	servers.splice(servers.indexOf(server), 1);
	await server.stop();
}

async function dropRawClients() {
	await Promise.all([...rawClients].map((client) => client.destroy()));
	rawClients.clear();
}

function tracked(client) {
	rawClients.add(client);
	return client;
}

/** A raw WebSocket player, welcomed and waiting. */
async function rawWaiting(server, label, options = {}) {
	const client = tracked(await openRawWs(server, { label, query: { uid: uuid() }, ...options }));
	await client.next('welcome');
	await client.next('waiting');
	return client;
}

/** Two raw players matched: resolves with { front, back, room }. */
async function rawPair(server) {
	const first = await rawWaiting(server, 'first raw player');
	const second = tracked(await openRawWs(server, { label: 'second raw player', query: { uid: uuid() } }));
	await second.next('welcome');
	let secondRole = await second.next();
	if (secondRole.type === 'waiting')
		secondRole = await second.next('role');
	const firstRole = await first.next('role');
	const front = firstRole.role === 'front' ? first : second;
	const back = front === first ? second : first;
	front.label = 'front (raw)';
	back.label = 'back (raw)';
	return { front, back, room: firstRole.room };
}

/**
 * Connects a raw TCP socket (from localAddress) and resolves with
 * { accepted: false, afterMs } when the server closes it at once without a
 * byte, or { accepted: true, client } when it is still open after
 * settleMs (a refusal at accept is immediate).
 */
async function tcpAttempt(server, { localAddress, settleMs = 300, label = 'raw TCP attempt' } = {}) {
	const client = tracked(await RawSocket.connect(server.port, { localAddress, label }));
	try {
		await client.waitFor(() => (client.closedAt || client.ended ? true : undefined), 'be closed', settleMs);
	} catch {
		return { accepted: true, client };
	}
	assert.equal(client.httpBuffer.length, 0,
		`expected a refused connection to be closed without a byte, got ${JSON.stringify(client.httpBuffer.toString('latin1'))}`);
	rawClients.delete(client);
	await client.destroy();
	return { accepted: false, afterMs: (client.closedAt || client.ended.at) - client.openedAt };
}

/**
 * Sends GET path on an open keep-alive raw socket and resolves with
 * { status, body } once the whole response (Content-Length) arrived.
 */
async function keepAliveGet(client, path) {
	const start = client.httpBuffer.length;
	client.sendRaw(`GET ${path} HTTP/1.1\r\nHost: gomoku\r\n\r\n`);
	return client.waitFor(() => {
		const text = client.httpBuffer.subarray(start).toString('utf8');
		const end = text.indexOf('\r\n\r\n');
		if (end < 0)
			return undefined;
		const length = Number((/content-length: *(\d+)/i.exec(text.slice(0, end)) || [])[1]);
		const body = text.slice(end + 4);
		if (Number.isNaN(length) || Buffer.byteLength(body) < length)
			return undefined;
		return { status: Number(text.slice(9, 12)), body: body.slice(0, length) };
	}, `answer GET ${path} on its keep-alive connection`);
}

/** Opens a ws-library player and takes its welcome. */
async function wsPlayer(server, label) {
	const client = await connectPlayer(server, { uid: uuid() }, { label });
	await client.next('welcome');
	return client;
}

afterEach(async () => {
	await dropRawClients();
	await closeAllClients();
});

after(async () => {
	await dropRawClients();
	await closeAllClients();
	const results = await Promise.allSettled(servers.map((server) => server.stop()));
	const failed = results.find((result) => result.status === 'rejected');
	if (failed)
		throw failed.reason;
});

describe('the message rate of a connection', () => {
	it('answers messages past the burst with rate_limited and closes a client that goes on with 1008 "rate limited"', T, async () => {
		const server = await serverWith(['--rate-burst', '5', '--rate-per-second', '1']);
		const before = await fetchMetric(server, 'gomoku_errors_total{code="rate_limited"}');
		const client = await rawWaiting(server, 'flooding player');
		// Eleven pings in one write: the burst, one more burst refused, one over.
		const ping = encodeFrame({ payload: '{"type":"ping"}' });
		client.sendRaw(Buffer.concat(new Array(11).fill(ping)));
		const closed = await client.waitClosed();
		const answers = closed.messages.map((message) => (message.type === 'error' ? message.code : message.type));
		assert.deepEqual(answers, [...new Array(5).fill('pong'), ...new Array(5).fill('rate_limited')],
			`expected 5 pongs then 5 rate_limited errors, got ${JSON.stringify(closed.messages)}`);
		assert.deepEqual([closed.code, closed.reason], [1008, 'rate limited'],
			`expected the eleventh message to close the connection with 1008 "rate limited", got ${closed.code} ${JSON.stringify(closed.reason)}`);
		const after = await fetchMetric(server, 'gomoku_errors_total{code="rate_limited"}');
		assert.equal(after - before, 6,
			`expected gomoku_errors_total{code="rate_limited"} to count the 5 refusals and the close, it grew by ${after - before}`);
		await stopServer(server);
	});

	it('delivers the 1008 close to a client that floods without pause, 20 times out of 20 (no reset destroys it)', T, async () => {
		// A client library that goes on sending after the server closed
		// would meet a TCP reset, fail its next write and drop the close
		// frame it had not read yet (reported as 1006). The server reads
		// what still comes after its close (server/drain.c).
		const server = await serverWith(['--rate-burst', '5', '--rate-per-second', '1']);
		const codes = [];
		for (let i = 0; i < 20; i++) {
			const client = await Client.connect(playerUrl(server, { uid: uuid() }), { label: `flooding ws client #${i}` });
			const flood = setInterval(() => {
				for (let k = 0; k < 100 && client.ws.readyState === 1; k++)
					client.ws.send('{"type":"ping"}');
			}, 1);
			const closed = await client.waitClosed();
			clearInterval(flood);
			codes.push(`${closed.code} ${closed.reason}`);
		}
		assert.deepEqual(codes, new Array(20).fill('1008 rate limited'),
			'expected every flooding client to get the close frame 1008 "rate limited"');
		await stopServer(server);
	});

	it('does not play a move refused for the rate, tells the opponent nothing, and plays it once the bucket has refilled', T, async () => {
		const server = await serverWith(['--rate-burst', '5', '--rate-per-second', '1']);
		const { front, back, room } = await rawPair(server);
		const before = await gameState(server, room);
		const ping = encodeFrame({ payload: '{"type":"ping"}' });
		const moveFrame = encodeFrame({ payload: '{"type":"move","x":7,"y":7}' });
		front.sendRaw(Buffer.concat([ping, ping, ping, ping, ping, moveFrame]));
		for (let i = 0; i < 5; i++)
			await front.next('pong');
		const refused = await front.next('error');
		assert.equal(refused.code, 'rate_limited', `expected the move after the burst to be refused with rate_limited, got ${JSON.stringify(refused)}`);
		back.send({ type: 'ping' });
		await back.next('pong'); // and nothing before it
		assert.equal(await gameState(server, room), before, 'expected the game record unchanged by the refused move');
		// One token comes back per second.
		await sleep(1500);
		front.send({ type: 'move', x: 7, y: 7 });
		const [frontBoard, backBoard] = await Promise.all([front.next('board'), back.next('board')]);
		assert.deepEqual(frontBoard.move, { x: 7, y: 7, role: 'front' }, `expected the move to be played now, got ${JSON.stringify(frontBoard)}`);
		assert.deepEqual(backBoard, frontBoard, 'expected both players to get the same board');
		const record = JSON.parse(await gameRecord(server, room));
		assert.deepEqual(record.moves, [{ x: 7, y: 7, role: 'front' }], `expected exactly the one move in the record, got ${JSON.stringify(record.moves)}`);
		await dropRawClients();
		await stopServer(server);
	});

	it('never limits players who stay within the rate', T, async () => {
		const server = await serverWith(['--rate-burst', '10', '--rate-per-second', '10', '--board-size', '5']);
		const pair = await connectPair(server);
		const moves = fullBoardScript().slice(0, 16);
		// Each player sends a move or a ping every 400 ms at most: 2.5
		// messages a second against 10, with a burst of 10 for any stall.
		let content;
		for (let i = 0; i < moves.length; i++) {
			({ content } = await playMoves(pair, [moves[i]], { size: 5, startContent: content, startMoves: i }));
			pair.front.send({ type: 'ping' });
			pair.back.send({ type: 'ping' });
			await Promise.all([pair.front.next('pong'), pair.back.next('pong')]);
			await sleep(400);
		}
		assert.equal(await fetchMetric(server, 'gomoku_errors_total{code="rate_limited"}'), 0,
			'expected no rate_limited refusal for players within the rate');
		const record = JSON.parse(await gameRecord(server, pair.room));
		assert.equal(record.moves.length, moves.length, `expected all ${moves.length} moves recorded, got ${record.moves.length}`);
		await closeAllClients();
		await stopServer(server);
	});
});

describe('the number of connections', () => {
	it('closes the TCP connection over --max-connections at once and counts it in /metrics', T, async () => {
		const server = await serverWith(['--max-connections', '4']);
		// A keep-alive HTTP connection reads /metrics throughout; it counts.
		const watcher = tracked(await RawSocket.connect(server.port, { label: 'metrics watcher' }));
		const first = await keepAliveGet(watcher, '/metrics');
		const used = metricValue(first.body, TCP_GAUGE);
		const refusedBefore = metricValue(first.body, REFUSED_TOTAL);
		const free = 4 - used;
		assert.ok(free >= 1, `expected a free connection under --max-connections 4, /metrics counts ${used} open`);
		for (let i = 0; i < free; i++)
			await wsPlayer(server, `player ${i + 1}`);
		const raw = await tcpAttempt(server, { label: 'one connection too many' });
		assert.equal(raw.accepted, false, 'expected the connection over --max-connections to be closed');
		assert.ok(raw.afterMs < 1000, `expected it to be closed at once, it took ${raw.afterMs} ms`);
		await assert.rejects(Client.connect(playerUrl(server, { uid: uuid() }), { label: 'ws player too many' }),
			'expected a WebSocket connection over --max-connections to fail');
		const now = await keepAliveGet(watcher, '/metrics');
		assert.equal(metricValue(now.body, TCP_GAUGE), 4, `expected 4 open connections counted, got ${metricValue(now.body, TCP_GAUGE)}`);
		assert.equal(metricValue(now.body, REFUSED_TOTAL) - refusedBefore, 2,
			`expected ${REFUSED_TOTAL} to count the 2 refused connections, it grew by ${metricValue(now.body, REFUSED_TOTAL) - refusedBefore}`);
		await dropRawClients();
		await closeAllClients();
		await stopServer(server);
	});

	it('accepts new connections under --max-connections as long as earlier ones close', T, async () => {
		const server = await serverWith(['--max-connections', '3']);
		// Never more than one of ours open at a time; 8 in a row. A refused
		// attempt is retried for a while: the server may see a close late.
		for (let i = 1; i <= 8; i++) {
			let lastError = '';
			const player = await pollUntil(async () => {
				try {
					return await wsPlayer(server, `player ${i}`);
				} catch (err) {
					lastError = err.message;
					return undefined;
				}
			}, () => `connection ${i} to be accepted under --max-connections 3, with each of the ${i - 1} ` +
				`before it closed (are closed connections still counted?); the last attempt: ${lastError}`,
			{ timeoutMs: 2000, intervalMs: 100 });
			await player.close();
		}
		await stopServer(server);
	});

	it('counts only open connections in gomoku_tcp_connections', T, async () => {
		const server = await serverWith([]);
		for (let i = 0; i < 5; i++)
			await server.get('/healthz');
		for (let i = 0; i < 3; i++) {
			const player = await wsPlayer(server, `player ${i + 1}`);
			await player.close();
		}
		for (let i = 0; i < 3; i++) {
			const silent = tracked(await RawSocket.connect(server.port, { label: 'silent socket' }));
			rawClients.delete(silent);
			await silent.destroy();
		}
		let first = null;
		let last;
		await pollUntil(async () => {
			last = await fetchMetric(server, TCP_GAUGE);
			first ??= last;
			return last === 1 ? true : undefined;
		}, () => `${TCP_GAUGE} to fall back to 1 (the /metrics request itself) once 11 connections had ` +
			`closed; it said ${first} at first and ${last} after polling (one more per poll: closed ` +
			'connections stay counted)', { timeoutMs: 3000, intervalMs: 100 });
		await stopServer(server);
	});
});

describe('the number of connections from one address', () => {
	it('closes the third connection from an address at once under --max-per-ip 2 while other addresses connect', T, async () => {
		// Listening on every address, so that clients can come from
		// 127.0.0.2, 127.0.0.3, ...; a later --host wins over the default.
		const server = await serverWith(['--max-per-ip', '2', '--host', '0.0.0.0']);
		const metrics = () => httpGetFrom(server.port, '/metrics', { localAddress: '127.0.0.9' });
		const refusedBefore = metricValue((await metrics()).body, REFUSED_PER_IP);
		await rawWaiting(server, 'first from 127.0.0.2', { localAddress: '127.0.0.2' });
		const second = tracked(await openRawWs(server, { label: 'second from 127.0.0.2', localAddress: '127.0.0.2', query: { uid: uuid() } }));
		await second.next('welcome');
		const third = await tcpAttempt(server, { localAddress: '127.0.0.2', label: 'third from 127.0.0.2' });
		assert.equal(third.accepted, false, 'expected the third connection from 127.0.0.2 to be closed');
		assert.ok(third.afterMs < 1000, `expected it to be closed at once, it took ${third.afterMs} ms`);
		await assert.rejects(httpGetFrom(server.port, '/healthz', { localAddress: '127.0.0.2' }),
			'expected an HTTP request from 127.0.0.2 to be refused too');
		// Other addresses are not affected.
		const fromOther = tracked(await openRawWs(server, { label: 'from 127.0.0.3', localAddress: '127.0.0.3', query: { uid: uuid() } }));
		await fromOther.next('welcome');
		const fromDefault = tracked(await openRawWs(server, { label: 'from 127.0.0.1', query: { uid: uuid() } }));
		await fromDefault.next('welcome');
		const refusedAfter = metricValue((await metrics()).body, REFUSED_PER_IP);
		assert.equal(refusedAfter - refusedBefore, 2,
			`expected ${REFUSED_PER_IP} to count the 2 refused connections, it grew by ${refusedAfter - refusedBefore}`);
		assert.ok(server.output().includes('refused peer=::ffff:127.0.0.2') || server.output().includes('refused peer=127.0.0.2'),
			`expected the log to name the refused address 127.0.0.2, it wrote:\n${server.output()}`);
		await dropRawClients();
		await stopServer(server);
	});

	it('accepts new connections from an address under --max-per-ip as long as earlier ones close', T, async () => {
		const server = await serverWith(['--max-per-ip', '2', '--host', '0.0.0.0']);
		for (let i = 1; i <= 6; i++) {
			// A refused attempt is retried for a while: the server may see a
			// close late. A refusal at accept is not counted.
			const attempt = await pollUntil(async () => {
				const result = await tcpAttempt(server, { localAddress: '127.0.0.5', label: `connection ${i} from 127.0.0.5` });
				return result.accepted ? result : undefined;
			}, `connection ${i} from 127.0.0.5 to be accepted under --max-per-ip 2, with each of the ${i - 1} ` +
				'before it closed (are closed connections still counted?)', { timeoutMs: 2000, intervalMs: 100 });
			rawClients.delete(attempt.client);
			await attempt.client.destroy();
		}
		await stopServer(server);
	});
});

describe('X-Forwarded-For', () => {
	/** An upgrade with X-Forwarded-For: resolves with { client, answer }. */
	async function upgradeVia(server, forwardedFor, label, extraHeaders = {}) {
		const client = tracked(await RawSocket.connect(server.port, { label }));
		const headers = { ...extraHeaders };
		if (forwardedFor !== null)
			headers['X-Forwarded-For'] = forwardedFor;
		const answer = await client.handshake({ query: { uid: uuid() }, headers, key: randomKey() });
		return { client, answer };
	}

	it('limits connections by the last X-Forwarded-For address behind a trusted proxy, and frees them as they close', T, async () => {
		const server = await serverWith(['--trust-proxy', 'yes', '--max-per-ip', '2']);
		const refusedBefore = await fetchMetric(server, REFUSED_PER_IP);
		const first = await upgradeVia(server, '203.0.113.7', 'first via the proxy');
		const second = await upgradeVia(server, '198.51.100.1, 203.0.113.7', 'second via the proxy');
		for (const { answer } of [first, second])
			assert.equal(answer.status, 101, 'expected two upgrades for 203.0.113.7');
		for (const [forwardedFor, what] of [
			['203.0.113.7', 'a third from 203.0.113.7'],
			['192.0.2.1, 203.0.113.7', 'a third whose last entry is 203.0.113.7'],
			[' 203.0.113.7 ', 'a third with spaces around the address'],
		]) {
			// The forwarded address is known once the session opens: an
			// address over its limit gets the upgrade, no welcome, and a
			// close with 1008 "too many connections".
			const { client, answer } = await upgradeVia(server, forwardedFor, what);
			assert.equal(answer.status, 101, `expected ${what} to be upgraded, then closed`);
			const closed = await client.waitClosed();
			assert.equal(closed.code, 1008,
				`expected ${what} (X-Forwarded-For: ${JSON.stringify(forwardedFor)}) to be closed with 1008, ` +
				`got ${closed.code} ${JSON.stringify(closed.reason)}`);
			assert.equal(closed.reason, 'too many connections');
			assert.deepEqual(closed.messages, [], `expected no message before the close, got ${JSON.stringify(closed.messages)}`);
		}
		const otherLast = await upgradeVia(server, '203.0.113.7, 198.51.100.2', 'an earlier entry 203.0.113.7');
		assert.equal(otherLast.answer.status, 101, 'expected only the last X-Forwarded-For entry to count');
		// The proxy's own address (no header) is not limited.
		for (let i = 0; i < 3; i++) {
			const { answer } = await upgradeVia(server, null, `direct ${i + 1}`);
			assert.equal(answer.status, 101, `expected direct connection ${i + 1} without X-Forwarded-For to be upgraded`);
		}
		assert.equal(await fetchMetric(server, REFUSED_PER_IP) - refusedBefore, 3,
			`expected ${REFUSED_PER_IP} to count the 3 refused sessions`);
		assert.ok(/refused peer=203\.0\.113\.7: over --max-per-ip 2/.test(server.output()),
			`expected the log to name the forwarded address, it wrote:\n${server.output()}`);
		// The sessions taken are logged with the forwarded address too.
		await server.waitForLine((line) => / connect uid=\S+ peer=198\.51\.100\.2$/.test(line),
			{ what: 'a connect line naming the forwarded address 198.51.100.2' });
		// One of the two closes: 203.0.113.7 may connect again.
		rawClients.delete(first.client);
		await first.client.destroy();
		await pollUntil(async () => {
			const { client, answer } = await upgradeVia(server, '203.0.113.7', 'after one closed');
			if (answer.status === 101)
				return true;
			rawClients.delete(client);
			await client.destroy();
			return undefined;
		}, 'a new upgrade for 203.0.113.7 once one of its two connections had closed', { timeoutMs: 3000, intervalMs: 100 });
		await dropRawClients();
		await stopServer(server);
	});

	it('does not use up an address\'s quota with upgrades that fail after the proxy check', T, async () => {
		const server = await serverWith(['--trust-proxy', 'yes', '--max-per-ip', '2']);
		for (let i = 1; i <= 3; i++) {
			const { client, answer } = await upgradeVia(server, '192.0.2.9', `keyless upgrade ${i}`, { 'Sec-WebSocket-Key': null });
			assert.notEqual(answer.status, 101, 'expected an upgrade without Sec-WebSocket-Key to fail');
			rawClients.delete(client);
			await client.destroy();
		}
		const { answer } = await upgradeVia(server, '192.0.2.9', 'a proper upgrade');
		assert.equal(answer.status, 101,
			'expected a proper upgrade for 192.0.2.9 to be accepted: none of its connections is open, ' +
			`but it was refused (failed upgrades still counted?); the log:\n${server.output()}`);
		await dropRawClients();
		await stopServer(server);
	});

	it('ignores X-Forwarded-For without --trust-proxy: the socket address counts', T, async () => {
		const server = await serverWith(['--max-per-ip', '2', '--host', '0.0.0.0']);
		for (const forwardedFor of ['198.51.100.10', '198.51.100.11']) {
			const client = tracked(await RawSocket.connect(server.port, { localAddress: '127.0.0.6', label: forwardedFor }));
			const answer = await client.handshake({ query: { uid: uuid() }, headers: { 'X-Forwarded-For': forwardedFor } });
			assert.equal(answer.status, 101, `expected the upgrade with X-Forwarded-For ${forwardedFor} to be accepted`);
		}
		const third = await tcpAttempt(server, { localAddress: '127.0.0.6', label: 'third from 127.0.0.6' });
		assert.equal(third.accepted, false,
			'expected a third connection from 127.0.0.6 to be closed at once, whatever X-Forwarded-For it would send');
		assert.ok(!server.output().includes('198.51.100.'),
			`expected the forwarded addresses to play no part (not even in the log), it wrote:\n${server.output()}`);
		await dropRawClients();
		await stopServer(server);
	});
});

describe('slow and silent clients', () => {
	it('drops 500 half-sent handshakes after --handshake-timeout while a real player connects and plays', T, async () => {
		const timeoutS = 2;
		const server = await serverWith(['--handshake-timeout', String(timeoutS)]);
		const hanging = await Promise.all(Array.from({ length: 500 }, async (_, i) => {
			const client = tracked(await RawSocket.connect(server.port, { label: `slow client ${i + 1}` }));
			client.sendRaw('GET / HTTP/1.1\r\nHost: x\r\n');
			client.sentAt = Date.now();
			return client;
		}));
		const pair = await connectPair(server);
		await playMoves(pair, [{ x: 7, y: 7, role: 'front' }], { size: SIZE });
		const stillHanging = hanging.filter((client) => !client.closedAt && !client.ended).length;
		assert.ok(stillHanging >= 250,
			`expected the player to connect and play while the slow clients hang, but only ${stillHanging} of 500 still hung`);
		const marginMs = scaled(3000);
		await Promise.all(hanging.map((client) => client.waitFor(() => (client.closedAt || client.ended ? true : undefined),
			`be dropped within ${timeoutS} s + ${marginMs} ms`, timeoutS * 1000 + marginMs + 2000)));
		const waited = hanging.map((client) => (client.closedAt || client.ended.at) - client.sentAt);
		const slowest = Math.max(...waited);
		const fastest = Math.min(...waited);
		assert.ok(slowest <= timeoutS * 1000 + marginMs,
			`expected every half-sent handshake dropped within ${timeoutS * 1000 + marginMs} ms, the last took ${slowest} ms`);
		assert.ok(fastest >= 900, `expected the handshakes to be dropped by the timeout, not at once; one went after ${fastest} ms`);
		assert.ok(pair.front.isOpen && pair.back.isOpen, 'expected the players to stay connected');
		await dropRawClients();
		await closeAllClients();
		await stopServer(server);
	});

	it('drops a client that reads nothing once what waits for it holds 1 MiB, and gives its socket and memory back within 2 s', T, async () => {
		const server = await serverWith([]);
		const pid = server.child.pid;
		const measured = residentMemoryIsTheServers(pid);
		const fds = () => fs.readdirSync(`/proc/${pid}/fd`).length;
		const idle = await rawWaiting(server, 'raw client that reads nothing');
		idle.socket.pause(); // the kernel's buffers fill, then the server's queue
		const baselineRss = residentKiB(pid);
		const baselineFds = fds();
		const mark = server.mark();
		const ping = encodeFrame({ payload: '{"type":"ping"}' });
		const burst = Buffer.concat(new Array(1000).fill(ping));
		let highest = baselineRss;
		let dropLine = null;
		server.waitForLine(/dropping .*it does not read/, { since: mark, timeoutMs: scaled(60_000), what: 'the slow reader dropped' })
			.then((line) => { dropLine = line; }, () => {});
		// Pings until the server gives up on the client: each is answered
		// with a pong that the client never reads.
		while (!dropLine && idle.writable) {
			await idle.sendRawAndDrain(burst);
			highest = Math.max(highest, residentKiB(pid));
		}
		await server.waitForLine(/dropping .*it does not read/, { since: mark, timeoutMs: scaled(60_000) });
		const droppedAt = Date.now();
		await pollUntil(async () => ((await fetchMetric(server, TCP_GAUGE)) <= 1 && fds() < baselineFds ? true : undefined),
			'the server to close the dropped client\'s socket', { timeoutMs: scaled(2000), intervalMs: 20 });
		const tookMs = Date.now() - droppedAt;
		assert.ok(tookMs <= scaled(2000), `expected the socket to be gone within 2 s of the drop, it took ${tookMs} ms`);
		assert.equal(await fetchMetric(server, 'gomoku_slow_reader_drops_total'), 1, 'expected /metrics to count the drop');
		if (measured) {
			// 1 MiB of pongs counted by their payload held about 24 MiB.
			assert.ok(highest - baselineRss < 6 * 1024,
				`expected the queue of a client that reads nothing to hold about 1 MiB, the server grew by ${highest - baselineRss} KiB`);
			const after = residentKiB(pid);
			assert.ok(after - baselineRss < 2048,
				`expected the server's memory back after the drop, it is ${after - baselineRss} KiB above the baseline`);
		}
		await dropRawClients();
		await stopServer(server);
	});

	it('drops a WebSocket that never answers pings after --idle-timeout, and keeps those that answer', T, async () => {
		const server = await serverWith(['--ping-interval', '1', '--idle-timeout', '3']);
		const silent = await rawWaiting(server, 'raw client that never answers pings', { autoPong: false });
		const answering = await rawWaiting(server, 'raw client that answers pings');
		const player = await connectWaiting(server, {}, { label: 'ws player' });
		const closed = await silent.waitClosed(scaled(8000));
		const pings = silent.frames.filter((frame) => frame.name === 'ping').length;
		assert.ok(pings >= 1, `expected the silent client to be pinged before it was dropped; ${silent.summary()}`);
		assert.ok(closed.elapsedMs >= 2000 && closed.elapsedMs <= 3000 + scaled(2500),
			`expected the silent client to be dropped about 3 s after it connected, it took ${closed.elapsedMs} ms`);
		const dropped = await fetchMetric(server, 'gomoku_idle_drops_total');
		assert.equal(dropped, 1, `expected /metrics to count exactly the one silent client as dropped, it says ${dropped}`);
		// The others have been connected 5 s by now, and still are.
		const alive = Date.now() - answering.openedAt;
		if (alive < 5000)
			await sleep(5000 - alive);
		assert.ok(!answering.closedAt && !answering.ended,
			`expected the raw client that answers pings to stay connected; ${answering.summary()}`);
		assert.ok(answering.pingsAnswered >= 2, `expected it to have answered pings, it answered ${answering.pingsAnswered}`);
		assert.ok(player.isOpen, 'expected the ws player (which answers pings) to stay connected');
		player.send({ type: 'ping' });
		// It was matched with one of the raw clients; take whatever came first.
		const messages = [];
		for (;;) {
			const message = await player.next(null);
			if (message.type === 'pong')
				break;
			messages.push(message.type);
		}
		assert.ok(player.isOpen, `expected the ws player to still be served after ${messages.join(', ') || 'nothing'}`);
		await dropRawClients();
		await closeAllClients();
		await stopServer(server);
	});
});

// HOST is the address the helpers use; the per-address tests rely on it being 127.0.0.1.
assert.equal(HOST, '127.0.0.1', 'test error: lib/server.mjs no longer uses 127.0.0.1');
