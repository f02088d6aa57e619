// The reconnect grace: a player whose socket drops during a live game
// keeps the seat for --reconnect-grace seconds. The opponent is told
// opponent_away (with the seconds left) and opponent_back; the same uid
// connecting again resumes with role and the whole board and plays on.
// Past the grace the absent player loses by forfeit, then the opponent
// gets disconnect. A close with code 1000 is leaving on purpose: forfeit
// at once. A waiting player and a finished game free the seat at once.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useServer, startServer, runServerOnce, freePort, scratchDb, HOST, webRoot } from './lib/server.mjs';
import { connectPlayer, connectWaiting, connectPair, closeAllClients } from './lib/client.mjs';
import { winningScript, playMoves, expectWinner } from './lib/game.mjs';
import {
	sleep, rejoin, expectResume, gameRecord, waitForHealth,
} from './lib/resume.mjs';
import { testTimeout, scaled } from './lib/time.mjs';

const T = testTimeout(30_000);
const SIZE = 15;
const GRACE = 3; // seconds, for the server of this file

// The ways a socket can go that keep the seat: everything but a close
// frame with code 1000.
const DROPS = {
	'the socket is dropped without a close frame': (player) => player.terminate(),
	'the client closes with 1001 (going away)': (player) => player.close(1001),
	'the client closes with 4000': (player) => player.close(4000),
	'the client closes with no status code': (player) => {
		player.ws.close();
		return player.closed;
	},
};

/** A pair in a fresh room with the first `count` moves of a script played. */
async function pairWithMoves(server, count, { winner = 'front', direction = 'horizontal',
	start = { x: 3, y: 7 }, names = ['Ann', 'Bob'] } = {}) {
	const pair = await connectPair(server, {
		firstQuery: { name: names[0] }, secondQuery: { name: names[1] },
	});
	pair.first.name = names[0];
	pair.second.name = names[1];
	const script = winningScript({ size: SIZE, winner, direction, start });
	const played = await playMoves(pair, script.moves.slice(0, count), { size: SIZE });
	return { ...pair, script, played: script.moves.slice(0, count), content: played.content };
}

/** Checks an opponent_away message: seconds must be `seconds` (or within [min, max]). */
function assertAway(message, { seconds, min, max }, who) {
	assert.equal(message.type, 'opponent_away');
	assert.ok(Number.isInteger(message.seconds),
		`expected ${who}'s opponent_away to carry whole seconds, got ${JSON.stringify(message)}`);
	if (seconds !== undefined)
		assert.equal(message.seconds, seconds,
			`expected ${who}'s opponent_away.seconds to be the whole grace ${seconds} right after the drop, ` +
			`got ${JSON.stringify(message)}`);
	else
		assert.ok(message.seconds >= min && message.seconds <= max,
			`expected ${who}'s opponent_away.seconds between ${min} and ${max}, got ${JSON.stringify(message)}`);
}

async function expectForfeit(client, winner) {
	const message = await client.next('winner');
	assert.equal(message.winner, winner, `expected ${winner} to win by forfeit, got ${JSON.stringify(message)}`);
	assert.equal(message.reason, 'forfeit', `expected reason "forfeit", got ${JSON.stringify(message)}`);
	assert.equal(message.line, undefined, `expected no line with a forfeit, got ${JSON.stringify(message)}`);
	const disconnect = await client.next('disconnect');
	assert.equal(typeof disconnect.disconnect, 'string', `expected a disconnect text, got ${JSON.stringify(disconnect)}`);
	return message;
}

describe('reconnect grace', () => {
	// A seat left away by a test is given up when its grace ends.
	const server = useServer({ args: ['--reconnect-grace', String(GRACE)] }, { settleTimeoutMs: GRACE * 1000 + 5000 });

	for (const [how, drop] of Object.entries(DROPS)) {
		it(`keeps the seat when ${how}: opponent_away with the grace, then opponent_back and the whole board on return`, T, async () => {
			const game = await pairWithMoves(server, 3);
			const { front, back, room } = game;
			await drop(back);
			assertAway(await front.next('opponent_away'), { seconds: GRACE }, 'front');
			const health = await server.health();
			assert.equal(health.players_away, 1, `expected /healthz to count one away seat, got ${JSON.stringify(health)}`);
			await front.expectNothing(300, 'while back is away (no forfeit before the grace)');

			const again = await rejoin(server, back);
			const resumed = await expectResume(again, { room, role: 'back', moves: game.played, size: SIZE });
			assert.deepEqual(resumed.role.opponent, { name: front.name },
				`expected the resumed role to name the opponent, got ${JSON.stringify(resumed.role)}`);
			await front.next('opponent_back');
			await again.expectNothing(200, 'after resuming (opponent present: no opponent_away)');
			await front.expectNothing(0, 'after opponent_back');

			// The returning player moves on.
			await playMoves({ front, back: again }, game.script.moves.slice(3, 5), {
				size: SIZE, startContent: game.content, startMoves: 3,
			});
		});
	}

	it('lets a returning player play the game on to a win, which is recorded', T, async () => {
		const game = await pairWithMoves(server, 4, { winner: 'front', direction: 'vertical', start: { x: 7, y: 2 } });
		const { front, back, room, script } = game;
		// Front is to move, and drops.
		await front.terminate();
		assertAway(await back.next('opponent_away'), { seconds: GRACE }, 'back');
		const again = await rejoin(server, front);
		await expectResume(again, { room, role: 'front', moves: game.played, size: SIZE });
		await back.next('opponent_back');
		const pair = { front: again, back };
		await playMoves(pair, script.moves.slice(4), {
			size: SIZE, startContent: game.content, startMoves: 4, lastEndsGame: true,
		});
		await expectWinner(pair, { winner: 'front', reason: 'five', line: script.line });
		const record = await gameRecord(server, room, { secrets: [front.uid, back.uid] });
		assert.equal(record.status, 'finished');
		assert.equal(record.result.winner, 'front');
		assert.equal(record.result.reason, 'five');
		assert.deepEqual(record.moves, script.moves, 'expected the record to hold every move, in order');
	});

	it('gives a second drop of the same player a fresh grace', T, async () => {
		const game = await pairWithMoves(server, 2);
		const { front, room } = game;
		await game.back.terminate();
		assertAway(await front.next('opponent_away'), { seconds: GRACE }, 'front');
		const again = await rejoin(server, game.back);
		await expectResume(again, { room, role: 'back', moves: game.played, size: SIZE });
		await front.next('opponent_back');
		await sleep(1200); // a part of the first grace passes, present
		await again.terminate();
		assertAway(await front.next('opponent_away'), { seconds: GRACE }, 'front');
		const third = await rejoin(server, game.back);
		await expectResume(third, { room, role: 'back', moves: game.played, size: SIZE });
		await front.next('opponent_back');
	});

	it('validates and keeps the moves made while the opponent is away, and shows them on return', T, async () => {
		const game = await pairWithMoves(server, 3);
		const { front, back, room, script } = game;
		// Back is to move; front drops.
		await front.terminate();
		assertAway(await back.next('opponent_away'), { seconds: GRACE }, 'back');

		const taken = game.played[0];
		back.move(taken.x, taken.y);
		assert.equal((await back.next('error')).code, 'occupied', 'expected a move onto a stone to be refused while the opponent is away');
		back.move(20, 0);
		assert.equal((await back.next('error')).code, 'out_of_range', 'expected an off-board move to be refused while the opponent is away');

		const move = script.moves[3];
		assert.equal(move.role, 'back');
		back.move(move.x, move.y);
		const board = await back.next('board');
		const played = script.moves.slice(0, 4);
		assert.equal(board.moves, 4, `expected the move to be accepted while front is away, got ${JSON.stringify(board)}`);
		assert.deepEqual(board.move, move);
		back.move(0, 14);
		assert.equal((await back.next('error')).code, 'not_your_turn',
			'expected a second move in a row to be refused while the opponent is away');

		const record = await gameRecord(server, room);
		assert.deepEqual(record.moves, played, 'expected the move made while front was away to be recorded');

		const again = await rejoin(server, front);
		await expectResume(again, { room, role: 'front', moves: played, size: SIZE });
		await back.next('opponent_back');
		await playMoves({ front: again, back }, script.moves.slice(4, 6), {
			size: SIZE, startContent: board.content, startMoves: 4,
		});
	});

	it('forfeits at once for a close with code 1000 (leaving on purpose), and the uid then starts afresh', T, async () => {
		const game = await pairWithMoves(server, 2);
		const { front, back, room } = game;
		const started = Date.now();
		await front.close(1000);
		await expectForfeit(back, 'back');
		const elapsed = Date.now() - started;
		assert.ok(elapsed < scaled(1000), `expected the forfeit at once after a close 1000, it took ${elapsed} ms (grace ${GRACE} s)`);
		const record = await gameRecord(server, room);
		assert.equal(record.status, 'finished');
		assert.deepEqual(record.result, { winner: 'back', reason: 'forfeit' });
		assert.deepEqual(record.moves, game.played);

		const again = await rejoin(server, front);
		await again.next('waiting');
		await again.expectNothing(200, 'after waiting (a fresh seat, not the old room)');
	});

	it('forfeits an absent player when the grace runs out, not before; the return after it is a fresh waiting player', T, async () => {
		const game = await pairWithMoves(server, 3);
		const { front, back, room } = game;
		const dropped = Date.now();
		await back.terminate();
		assertAway(await front.next('opponent_away'), { seconds: GRACE }, 'front');
		await front.expectNothing(GRACE * 1000 - 500, 'before the grace runs out');
		await expectForfeit(front, 'front');
		const elapsed = Date.now() - dropped;
		assert.ok(elapsed >= GRACE * 1000 - 100 && elapsed <= GRACE * 1000 + scaled(1500),
			`expected the forfeit about ${GRACE * 1000} ms after the drop, it came after ${elapsed} ms`);

		const record = await gameRecord(server, room, { secrets: [front.uid, back.uid] });
		assert.equal(record.status, 'finished');
		assert.deepEqual(record.result, { winner: 'front', reason: 'forfeit' });
		assert.deepEqual(record.moves, game.played);
		assert.equal(typeof record.finished_ms, 'number');
		assert.ok(record.finished_ms - record.started_ms >= GRACE * 1000 - 100,
			`expected finished_ms at least the grace after started_ms, got ${JSON.stringify(record)}`);

		const again = await rejoin(server, back);
		await again.next('waiting');
		await again.expectNothing(200, 'after waiting (the old seat is gone)');
	});

	it('forfeits with no move made too, and keeps no record of a game that had none', T, async () => {
		const pair = await connectPair(server);
		await pair.front.terminate();
		assertAway(await pair.back.next('opponent_away'), { seconds: GRACE }, 'back');
		await expectForfeit(pair.back, 'back');
		const res = await server.get(`/api/games/${pair.room}`);
		assert.equal(res.status, 404, `expected no record of a game with no move, got ${res.status}: ${res.body}`);
	});

	it('with both players away, tells the first to return opponent_away, and the other opponent_back', T, async () => {
		const game = await pairWithMoves(server, 4);
		const { front, back, room, script } = game;
		await front.terminate();
		assertAway(await back.next('opponent_away'), { seconds: GRACE }, 'back');
		await sleep(500);
		await back.terminate();
		const health = await waitForHealth(server, (h) => h.players_away === 2, 'two away seats');
		assert.equal(health.connections, 0);

		const frontAgain = await rejoin(server, front);
		await expectResume(frontAgain, { room, role: 'front', moves: game.played, size: SIZE });
		assertAway(await frontAgain.next('opponent_away'), { min: 1, max: GRACE }, 'front (returning first)');
		const backAgain = await rejoin(server, back);
		await expectResume(backAgain, { room, role: 'back', moves: game.played, size: SIZE });
		await frontAgain.next('opponent_back');
		await backAgain.expectNothing(200, 'after resuming with the opponent present');
		await playMoves({ front: frontAgain, back: backAgain }, script.moves.slice(4, 6), {
			size: SIZE, startContent: game.content, startMoves: 4,
		});
	});

	it('with both players away, forfeits the one whose grace ends first; the other hears the result on return', T, async () => {
		const game = await pairWithMoves(server, 2);
		const { front, back, room } = game;
		await front.terminate();
		assertAway(await back.next('opponent_away'), { seconds: GRACE }, 'back');
		await sleep(1500);
		await back.terminate();
		// Front's grace ends about 1.5 s before back's.
		const record = await waitForGameStatus(room, GRACE * 1000 + 2000);
		assert.deepEqual(record.result, { winner: 'back', reason: 'forfeit' },
			`expected front (away first) to lose by forfeit, got ${JSON.stringify(record)}`);
		const health = await server.health();
		assert.equal(health.players_away, 1, `expected back's seat still kept, got ${JSON.stringify(health)}`);

		const again = await rejoin(server, back);
		await expectResume(again, { room, role: 'back', moves: game.played, size: SIZE });
		await expectForfeit(again, 'back');
		await again.expectNothing(200, 'after disconnect');
	});

	it('tells a player away while the opponent left with 1000 that it won, when it returns', T, async () => {
		const game = await pairWithMoves(server, 3);
		const { front, back, room } = game;
		await front.terminate();
		assertAway(await back.next('opponent_away'), { seconds: GRACE }, 'back');
		await back.close(1000);
		const record = await waitForGameStatus(room, 2000);
		assert.deepEqual(record.result, { winner: 'front', reason: 'forfeit' });
		const again = await rejoin(server, front);
		await expectResume(again, { room, role: 'front', moves: game.played, size: SIZE });
		await expectForfeit(again, 'front');
	});

	it('still hands a connected seat to a newer connection with the same uid (4001), the opponent told nothing', T, async () => {
		const game = await pairWithMoves(server, 2);
		const { front, back, room, script } = game;
		const newer = await rejoin(server, front, { label: 'front (newer connection)' });
		const closed = await front.waitClosed();
		assert.equal(closed.code, 4001, `expected the older connection closed with 4001, got ${JSON.stringify(closed)}`);
		await expectResume(newer, { room, role: 'front', moves: game.played, size: SIZE });
		await back.expectNothing(500, 'when front\'s seat is taken over (no opponent_away, no forfeit)');
		await newer.expectNothing(0, 'after the takeover');
		const health = await server.health();
		assert.equal(health.players_away, 0, `expected no away seat after a takeover, got ${JSON.stringify(health)}`);
		await playMoves({ front: newer, back }, script.moves.slice(2, 4), {
			size: SIZE, startContent: game.content, startMoves: 2,
		});
	});

	it('tells a connection taking over a seat that the opponent is away', T, async () => {
		const game = await pairWithMoves(server, 2);
		const { front, back, room } = game;
		await back.terminate();
		assertAway(await front.next('opponent_away'), { seconds: GRACE }, 'front');
		const newer = await rejoin(server, front, { label: 'front (newer connection)' });
		assert.equal((await front.waitClosed()).code, 4001);
		await expectResume(newer, { room, role: 'front', moves: game.played, size: SIZE });
		assertAway(await newer.next('opponent_away'), { min: 1, max: GRACE }, 'front (newer connection)');
		const backAgain = await rejoin(server, back);
		await expectResume(backAgain, { room, role: 'back', moves: game.played, size: SIZE });
		await newer.next('opponent_back');
	});

	it('shows a player who returns after losing by five while away the final board and the winner', T, async () => {
		const game = await pairWithMoves(server, 8, { winner: 'front', direction: 'diagonal', start: { x: 2, y: 2 } });
		const { front, back, room, script } = game;
		assert.equal(script.moves.length, 9);
		await back.terminate();
		assertAway(await front.next('opponent_away'), { seconds: GRACE }, 'front');
		const last = script.moves[8];
		front.move(last.x, last.y);
		assert.equal((await front.next('board')).moves, 9);
		const won = await front.next('winner');
		assert.equal(won.reason, 'five');

		const again = await rejoin(server, back);
		await expectResume(again, { room, role: 'back', moves: script.moves, size: SIZE });
		const winner = await again.next('winner');
		assert.deepEqual(winner, won, 'expected the returning player to get the same winner message');
		await front.next('opponent_back');
		await again.expectNothing(200, 'after the winner (the opponent is present)');
	});

	it('sends only disconnect, no forfeit, when a player away from a game already won stays away', T, async () => {
		const game = await pairWithMoves(server, 8, { winner: 'front', direction: 'vertical', start: { x: 9, y: 3 } });
		const { front, back, room, script } = game;
		await back.terminate();
		assertAway(await front.next('opponent_away'), { seconds: GRACE }, 'front');
		const last = script.moves[8];
		front.move(last.x, last.y);
		await front.next('board');
		assert.equal((await front.next('winner')).reason, 'five');
		const message = await front.next(null, GRACE * 1000 + 2000);
		assert.equal(message.type, 'disconnect', `expected only disconnect once the grace ran out, got ${JSON.stringify(message)}`);
		const record = await gameRecord(server, room);
		assert.equal(record.result.reason, 'five', `expected the five to stand, got ${JSON.stringify(record)}`);
		assert.equal(record.result.winner, 'front');
	});

	it('frees the seat of a waiting player whose socket drops, at once', T, async () => {
		const waiting = await connectWaiting(server, { name: 'Wes' }, { label: 'waiting player' });
		await waiting.terminate();
		await waitForHealth(server, (h) => h.players_waiting === 0 && h.connections === 0, 'no waiting player');
		const health = await server.health();
		assert.equal(health.players_away, 0, `expected no away seat for a waiting player, got ${JSON.stringify(health)}`);
		const other = await connectWaiting(server, {}, { label: 'next player' });
		await other.expectNothing(300, 'with nobody else waiting (the dropped player must not be matched)');
		const again = await connectPlayer(server, { uid: waiting.uid }, { label: 'waiting player (back again)' });
		await again.next('welcome');
		await again.next('waiting');
		const role = await again.next('role');
		const otherRoleMessage = await other.next('role');
		assert.equal(role.room, otherRoleMessage.room, 'expected the returning player to be matched afresh');
	});

	for (const leaver of ['winner', 'loser']) {
		it(`frees the seat at once when the ${leaver} of a finished game drops`, T, async () => {
			const game = await pairWithMoves(server, 0, { winner: 'back', direction: 'diagonal', start: { x: 5, y: 5 } });
			const pair = { front: game.front, back: game.back };
			await playMoves(pair, game.script.moves, { size: SIZE, lastEndsGame: true });
			await expectWinner(pair, { winner: 'back', reason: 'five', line: game.script.line });
			const leaving = leaver === 'winner' ? pair.back : pair.front;
			const stayer = leaver === 'winner' ? pair.front : pair.back;
			const started = Date.now();
			await leaving.terminate();
			const message = await stayer.next('disconnect');
			assert.equal(typeof message.disconnect, 'string');
			assert.ok(Date.now() - started < scaled(1000), 'expected disconnect at once after a finished game');
			await stayer.expectNothing(200, 'after disconnect');
			const again = await rejoin(server, leaving);
			await again.next('waiting');
		});
	}

	async function waitForGameStatus(room, timeoutMs) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const record = await gameRecord(server, room);
			if (record.status === 'finished')
				return record;
			if (Date.now() > deadline)
				throw new Error(`expected game ${room} finished within ${timeoutMs} ms, got ${JSON.stringify(record)}`);
			await sleep(25);
		}
	}
});

describe('default reconnect grace', () => {
	it('is 30 seconds by --help', T, async () => {
		const { code, stdout } = await runServerOnce(['--help']);
		assert.equal(code, 0);
		const line = stdout.split('\n').find((l) => l.includes('--reconnect-grace'));
		assert.ok(line, `expected --help to describe --reconnect-grace, got:\n${stdout}`);
		assert.match(line, /default: 30\b/, `expected --help to give the reconnect grace default 30, got ${JSON.stringify(line)}`);
	});

	it('keeps a dropped player\'s seat 30 seconds when no --reconnect-grace is given', T, async () => {
		const port = await freePort();
		const server = await startServer({
			hostAndPort: false,
			port,
			args: ['--port', String(port), '--host', HOST, '--web-root', webRoot, '--db', scratchDb(),
				'--max-per-ip', '0', '--rate-burst', '100000', '--rate-per-second', '100000'],
		});
		try {
			assert.ok(!server.args.includes('--reconnect-grace'));
			const pair = await connectPair(server);
			await pair.front.terminate();
			assertAway(await pair.back.next('opponent_away'), { seconds: 30 }, 'back');
			const again = await rejoin(server, pair.front);
			await expectResume(again, { room: pair.room, role: 'front', moves: [], size: SIZE });
			await pair.back.next('opponent_back');
		} finally {
			await closeAllClients();
			await server.stop();
		}
	});
});
