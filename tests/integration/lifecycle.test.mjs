// The process: flags and environment variables, log lines, and shutting
// down on SIGTERM.

import { describe, it, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';

import {
	startServer, stopAll, runServerOnce, freePort, webRoot, HOST, scratchDb,
} from './lib/server.mjs';
import {
	connectPlayer, connectWaiting, connectPair, closeAllClients, uuid,
} from './lib/client.mjs';
import { winningScript, playMoves, expectWinner } from './lib/game.mjs';
import { testTimeout, scaled } from './lib/time.mjs';

const T = testTimeout(30_000);
const SIZE = 15;
const ALL_FLAGS = ['--host', '--port', '--web-root', '--board-size', '--rule', '--full-board',
	'--reconnect-grace', '--log-level', '--health-check', '--help', '--version'];

/** The non-empty lines of text. */
function linesOf(text) {
	return text.split('\n').filter((line) => line.trim() !== '');
}

// Servers started by the tests; stopped (and checked to exit 0) at the end.
const servers = [];
async function start(options) {
	const server = await startServer(options);
	servers.push(server);
	return server;
}

describe('lifecycle', () => {
	afterEach(async () => {
		await closeAllClients();
	});
	after(async () => {
		await closeAllClients();
		await stopAll(servers.splice(0));
	});

	describe('flags and environment', () => {
		it('prints a version and exits 0 for --version', T, async () => {
			const { code, stdout } = await runServerOnce(['--version']);
			assert.equal(code, 0, `expected --version to exit 0, got ${code}`);
			assert.match(stdout, /\d+\.\d+\.\d+/, `expected --version to print a version number, got ${JSON.stringify(stdout)}`);
		});

		it('lists every flag and exits 0 for --help', T, async () => {
			const { code, stdout, stderr } = await runServerOnce(['--help']);
			assert.equal(code, 0, `expected --help to exit 0, got ${code}`);
			for (const flag of ALL_FLAGS)
				assert.ok(stdout.includes(flag) || stderr.includes(flag),
					`expected --help to list ${flag}, got:\n${stdout}${stderr}`);
		});

		const refused = [
			[['--port', '0'], '--port'],
			[['--port', '70000'], '--port'],
			[['--port', 'abc'], '--port'],
			[['--port', '80x'], '--port'],
			[['--board-size', '4'], '--board-size'],
			[['--board-size', '26'], '--board-size'],
			[['--board-size', '15.5'], '--board-size'],
			[['--rule', 'Renju'], '--rule'],
			[['--rule', 'caro'], '--rule'],
			[['--full-board', 'maybe'], '--full-board'],
			[['--log-level', 'loud'], '--log-level'],
			[['--reconnect-grace', '-1'], '--reconnect-grace'],
			[['--frobnicate'], '--frobnicate'],
			[['--board-size'], '--board-size'],
		];
		for (const [args, flag] of refused) {
			it(`exits non-zero with one stderr line naming ${flag} for ${args.join(' ')}`, T, async () => {
				const port = await freePort();
				// A valid port and host first, so that nothing but the flag
				// under test is wrong (and a server that starts anyway stays
				// on loopback).
				const { code, signal, stderr } = await runServerOnce(['--host', HOST, '--port', String(port), ...args]);
				assert.equal(signal, null, `expected ${args.join(' ')} to exit by itself, got signal ${signal}`);
				assert.notEqual(code, 0, `expected ${args.join(' ')} to exit non-zero, got ${code}`);
				const lines = linesOf(stderr);
				assert.equal(lines.length, 1, `expected exactly one stderr line for ${args.join(' ')}, got ${JSON.stringify(lines)}`);
				assert.ok(lines[0].includes(flag), `expected the stderr line to name ${flag}, got ${JSON.stringify(lines[0])}`);
			});
		}

		it('exits non-zero with one stderr line naming the variable for a bad GOMOKU_BOARD_SIZE', T, async () => {
			const { code, stderr } = await runServerOnce(['--host', HOST, '--port', String(await freePort())],
				{ env: { GOMOKU_BOARD_SIZE: '4' } });
			assert.notEqual(code, 0, `expected GOMOKU_BOARD_SIZE=4 to make the server exit non-zero, got ${code}`);
			const lines = linesOf(stderr);
			assert.equal(lines.length, 1, `expected exactly one stderr line, got ${JSON.stringify(lines)}`);
			assert.ok(lines[0].includes('GOMOKU_BOARD_SIZE'), `expected the line to name GOMOKU_BOARD_SIZE, got ${JSON.stringify(lines[0])}`);
		});

		it('takes the board size and rule from GOMOKU_BOARD_SIZE and GOMOKU_RULE', T, async () => {
			const server = await start({ env: { GOMOKU_BOARD_SIZE: '9', GOMOKU_RULE: 'standard' } });
			const player = await connectWaiting(server);
			assert.equal(player.welcome.size, 9, `expected welcome.size 9 from GOMOKU_BOARD_SIZE, got ${JSON.stringify(player.welcome)}`);
			assert.equal(player.welcome.rule, 'standard', `expected welcome.rule "standard" from GOMOKU_RULE, got ${JSON.stringify(player.welcome)}`);
		});

		it('lets a flag override its environment variable', T, async () => {
			const server = await start({
				env: { GOMOKU_BOARD_SIZE: '9', GOMOKU_RULE: 'standard' },
				args: ['--board-size', '11', '--rule', 'freestyle'],
			});
			const player = await connectWaiting(server);
			assert.equal(player.welcome.size, 11, `expected --board-size 11 to win over GOMOKU_BOARD_SIZE=9, got ${JSON.stringify(player.welcome)}`);
			assert.equal(player.welcome.rule, 'freestyle', `expected --rule freestyle to win over GOMOKU_RULE, got ${JSON.stringify(player.welcome)}`);
		});

		it('listens where GOMOKU_HOST and GOMOKU_PORT say when no flag is given', T, async () => {
			const port = await freePort();
			const server = await start({
				hostAndPort: false,
				port,
				env: { GOMOKU_HOST: HOST, GOMOKU_PORT: String(port), GOMOKU_WEB_ROOT: webRoot,
					GOMOKU_DB: scratchDb() },
			});
			const health = await server.health();
			assert.equal(typeof health.uptime, 'number');
			await connectWaiting(server);
		});

		it('plays on the board size of --board-size, up to its edges', T, async () => {
			const server = await start({ args: ['--board-size', '7'] });
			const pair = await connectPair(server);
			assert.equal(pair.front.roleMessage.size, 7);
			pair.front.move(7, 0);
			assert.equal((await pair.front.next('error')).code, 'out_of_range', 'expected x 7 to be off a 7 x 7 board');
			// Front makes five along the bottom row; back plays every other cell of row 0.
			const moves = [
				{ x: 2, y: 6, role: 'front' }, { x: 0, y: 0, role: 'back' },
				{ x: 3, y: 6, role: 'front' }, { x: 2, y: 0, role: 'back' },
				{ x: 5, y: 6, role: 'front' }, { x: 4, y: 0, role: 'back' },
				{ x: 6, y: 6, role: 'front' }, { x: 6, y: 0, role: 'back' },
				{ x: 4, y: 6, role: 'front' },
			];
			await playMoves(pair, moves, { size: 7, lastEndsGame: true });
			await expectWinner(pair, { winner: 'front', reason: 'five', line: [2, 3, 4, 5, 6].map((x) => ({ x, y: 6 })) });
		});
	});

	describe('logs', () => {
		it('logs a line per connect, match, game end and disconnect, with no more than an 8-character uid prefix', T, async () => {
			const server = await start({ args: ['--log-level', 'info'] });
			const uids = [uuid(), uuid()];
			const prefixes = uids.map((uid) => uid.slice(0, 8));

			let mark = server.mark();
			const first = await connectWaiting(server, { uid: uids[0], name: 'Logan' });
			await server.waitForLine((line) => line.includes(prefixes[0]),
				{ since: mark, what: `a connect line with the uid prefix ${prefixes[0]}` });

			mark = server.mark();
			const second = await connectPlayer(server, { uid: uids[1] }, { label: 'second player' });
			await second.next('welcome');
			await second.next('role', undefined, { skip: ['waiting'] });
			const firstRole = await first.next('role');
			await server.waitForLine((line) => line.includes(prefixes[1]),
				{ since: mark, what: `a connect line with the uid prefix ${prefixes[1]}` });
			await server.waitForLine(() => server.linesSince(mark).length >= 2,
				{ since: mark, what: 'a connect line and a match line' });
			// A room id is no secret: the match line shows it whole (ids of
			// rooms opened in the same minute share their first characters).
			await server.waitForLine((line) => line.includes(`match room=${firstRole.room} `),
				{ since: mark, what: `a match line with the whole room id ${firstRole.room}` });
			// The address admission_accept() read for the connection.
			assert.match(server.output(),
				new RegExp(`connect uid=${prefixes[1]} peer=(::ffff:127\\.[0-9.]+|127\\.[0-9.]+|::1)\\b`),
				'expected the connect line to name the client\'s address');

			first.role = firstRole.role;
			second.role = firstRole.role === 'front' ? 'back' : 'front';
			const pair = first.role === 'front' ? { front: first, back: second } : { front: second, back: first };
			const script = winningScript({ size: SIZE, winner: 'back', direction: 'vertical', start: { x: 3, y: 3 } });
			const played = await playMoves(pair, script.moves.slice(0, -1), { size: SIZE });
			mark = server.mark();
			await playMoves(pair, script.moves.slice(-1), {
				size: SIZE, startContent: played.content, startMoves: script.moves.length - 1, lastEndsGame: true,
			});
			await expectWinner(pair, { winner: 'back', reason: 'five', line: script.line });
			await server.waitForLine(() => true, { since: mark, what: 'a line about the end of the game' });

			mark = server.mark();
			await first.close();
			await second.next('disconnect');
			await server.waitForLine((line) => line.includes(prefixes[0]),
				{ since: mark, what: `a disconnect line with the uid prefix ${prefixes[0]}` });
			await second.close();
			await server.settle();

			const output = server.output();
			for (const uid of uids) {
				assert.ok(!output.includes(uid), `expected the whole uid ${uid} never to be logged, got:\n${output}`);
				assert.ok(!output.includes(uid.slice(0, 10)),
					`expected no more than 8 characters of uid ${uid} in the log, got:\n${output}`);
				assert.ok(!output.includes(uid.slice(24)),
					`expected no part of uid ${uid} beyond its prefix in the log, got:\n${output}`);
			}
		});

		it('never logs the whole uid of any player, refused ones included', T, async () => {
			const server = await start({ args: ['--log-level', 'debug'] });
			const pair = await connectPair(server, { firstQuery: { name: 'Dee' } });
			const script = winningScript({ size: SIZE, winner: 'front', direction: 'diagonal', start: { x: 0, y: 0 } });
			await playMoves(pair, script.moves, { size: SIZE, lastEndsGame: true });
			await expectWinner(pair, { winner: 'front', reason: 'five', line: script.line });
			const replacing = await connectPlayer(server, { uid: pair.front.uid.toUpperCase() }, { label: 'front again' });
			await replacing.next('welcome');
			await pair.front.waitClosed();
			const badName = uuid();
			const refused = await connectPlayer(server, { uid: badName, name: 'x'.repeat(30) }, { label: 'bad name' });
			await refused.next('error');
			await refused.waitClosed();
			const almost = uuid();
			const malformed = await connectPlayer(server, { uid: `${almost}0` }, { label: 'malformed uid' });
			await malformed.next('error');
			await malformed.waitClosed();
			await closeAllClients();
			await server.settle();
			const output = server.output().toLowerCase();
			for (const uid of [pair.front.uid, pair.back.uid, badName, almost])
				assert.ok(!output.includes(uid) && !output.includes(uid.slice(24)),
					`expected uid ${uid} never to be logged whole, got:\n${server.output()}`);
		});

		it('logs nothing about players at --log-level error', T, async () => {
			const server = await start({ args: ['--log-level', 'error'] });
			const pair = await connectPair(server);
			await pair.front.close();
			await pair.back.next('winner');
			await pair.back.next('disconnect');
			await pair.back.close();
			await server.settle();
			const prefixes = [pair.front.uid.slice(0, 8), pair.back.uid.slice(0, 8)];
			const mentions = server.lines.filter(({ line }) => prefixes.some((prefix) => line.includes(prefix)));
			assert.deepEqual(mentions, [], 'expected no log line about players at --log-level error');
		});
	});

	describe('SIGTERM', () => {
		it('closes every client with 1001 and exits 0 within 2 s', testTimeout(60_000), async () => {
			const server = await startServer();
			try {
				const clients = [];
				// Three live games, one with moves played.
				for (let i = 0; i < 3; i++) {
					const pair = await connectPair(server);
					clients.push(pair.front, pair.back);
					if (i === 0) {
						const script = winningScript({ size: SIZE, winner: 'front', direction: 'horizontal', start: { x: 0, y: 5 } });
						await playMoves(pair, script.moves.slice(0, 4), { size: SIZE });
					}
				}
				// One finished game whose players stay.
				const done = await connectPair(server);
				const script = winningScript({ size: SIZE, winner: 'back', direction: 'vertical', start: { x: 9, y: 2 } });
				await playMoves(done, script.moves, { size: SIZE, lastEndsGame: true });
				await expectWinner(done, { winner: 'back', reason: 'five', line: script.line });
				clients.push(done.front, done.back);
				// One whose opponent left.
				const left = await connectPair(server);
				await left.back.close();
				await left.front.nextAll(['winner', 'disconnect']);
				clients.push(left.front);
				// One waiting.
				clients.push(await connectWaiting(server));
				assert.equal(clients.length, 10);
				assert.equal((await server.health()).connections, 10, 'expected the server to count 10 connections');

				server.signal('SIGTERM');
				const sent = Date.now();
				const closes = await Promise.all(clients.map((client) => client.waitClosed(scaled(5000))));
				closes.forEach(({ code }, index) => {
					assert.equal(code, 1001, `expected client ${index} (${clients[index].label}) to be closed with 1001 on SIGTERM, got ${code}`);
				});
				const exited = await Promise.race([
					server.exitPromise,
					new Promise((resolve) => setTimeout(() => resolve(null), 5000)),
				]);
				assert.ok(exited, 'expected the server to exit after SIGTERM');
				const elapsed = exited.at - sent;
				assert.equal(exited.code, 0, `expected exit code 0 after SIGTERM, got ${exited.code} (signal ${exited.signal})`);
				assert.ok(elapsed <= scaled(2000), `expected the server to exit within 2 s of SIGTERM, it took ${elapsed} ms`);
			} finally {
				await closeAllClients();
				await server.kill();
			}
		});

		it('exits 0 at once on SIGTERM with no client', T, async () => {
			const server = await startServer();
			const { elapsedMs } = await server.stop();
			assert.ok(elapsedMs <= scaled(2000), `expected the server to exit within 2 s of SIGTERM, it took ${elapsedMs} ms`);
		});
	});
});
