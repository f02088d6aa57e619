// Games in SQLite: GET /api/games/ID for live and finished games, and
// games that survive the server: a graceful stop (SIGTERM) and a crash
// (SIGKILL, 20 times, while moves are in flight) both leave every
// unfinished game resumable with the exact board, no acknowledged move
// lost and no game duplicated; an outage longer than the reconnect grace
// still gives the players the whole grace from the restart.
//
// One suite per behaviour; just over 600 lines, most of it the crash
// cycles' bookkeeping.

import { describe, it, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { useServer, startServer, scratchDb } from './lib/server.mjs';
import { connectPair, closeAllClients, uuid, otherRole } from './lib/client.mjs';
import { winningScript, fullBoardScript, playMoves, expectWinner, cellKeys } from './lib/game.mjs';
import {
	sleep, replay, rejoin, expectResume, getGame, gameRecord, waitForGameStatus,
	RestartableServer, sqliteQuery,
} from './lib/resume.mjs';
import { testTimeout, scaled } from './lib/time.mjs';

const T = testTimeout(30_000);
const SIZE = 15;

// The fields of an untimed game's record (no rematch), and those of a
// finished one besides.
const RECORD_KEYS = ['full_board', 'id', 'moves', 'players', 'result', 'rule', 'size', 'started_ms', 'status', 'tc'];

/** A pair with names, its script, and the first `count` moves played. */
async function namedPair(server, count, { names = ['Ada', 'Bo'], size = SIZE, script } = {}) {
	const pair = await connectPair(server, {
		firstQuery: { name: names[0] }, secondQuery: { name: names[1] },
	});
	pair.first.name = names[0];
	pair.second.name = names[1];
	const moves = script || winningScript({ size, winner: 'front', direction: 'horizontal', start: { x: 2, y: 5 } }).moves;
	const played = await playMoves(pair, moves.slice(0, count), { size });
	return { ...pair, moves, played: moves.slice(0, count), content: played.content };
}

/** The uids of a pair: no API answer may contain them. */
function secretsOf(pair) {
	return [pair.front.uid, pair.back.uid];
}

/** Checks the record's common fields against a pair. */
function assertRecordOf(record, pair, { status, size = SIZE }) {
	const keys = Object.keys(record).sort();
	const expected = status === 'finished' ? [...RECORD_KEYS, 'finished_ms'].sort() : RECORD_KEYS;
	assert.deepEqual(keys, expected, `expected a ${status} game record to have exactly the fields ` +
		`${expected.join(', ')}, got ${JSON.stringify(record)}`);
	assert.equal(record.id, pair.room);
	assert.equal(record.size, size);
	assert.equal(record.rule, 'freestyle');
	assert.equal(record.full_board, 'back');
	assert.equal(record.status, status);
	assert.deepEqual(record.players, { front: { name: pair.front.name }, back: { name: pair.back.name } },
		`expected the players by name, got ${JSON.stringify(record.players)}`);
	assert.ok(Number.isInteger(record.started_ms) && Math.abs(record.started_ms - Date.now()) < 600_000,
		`expected started_ms to be a Unix time in ms of about now, got ${record.started_ms}`);
	if (status === 'finished')
		assert.ok(Number.isInteger(record.finished_ms) && record.finished_ms >= record.started_ms,
			`expected finished_ms at or after started_ms, got ${JSON.stringify(record)}`);
}

describe('GET /api/games/ID', () => {
	const server = useServer({ args: ['--reconnect-grace', '3'] });

	it('shows a live game: status live, result null, the players\' names and the moves in order with roles', T, async () => {
		const pair = await namedPair(server, 3);
		const res = await getGame(server, pair.room, { secrets: secretsOf(pair) });
		assert.equal(res.status, 200, `expected 200, got ${res.status}: ${res.body}`);
		assert.match(res.headers['content-type'], /^application\/json/);
		assertRecordOf(res.game, pair, { status: 'live' });
		assert.equal(res.game.result, null);
		assert.deepEqual(res.game.moves, pair.played);
	});

	it('keeps no record of a game before its first move, and a live one from then on', T, async () => {
		const pair = await namedPair(server, 0);
		const none = await getGame(server, pair.room);
		assert.equal(none.status, 404, `expected no record of a game with no move, got ${none.status}: ${none.body}`);
		await playMoves(pair, pair.moves.slice(0, 1), { size: SIZE });
		const record = await gameRecord(server, pair.room, { secrets: secretsOf(pair) });
		assertRecordOf(record, pair, { status: 'live' });
		assert.deepEqual(record.moves, pair.moves.slice(0, 1));
	});

	it('shows a game won by five: winner, reason, the line the players were told, every move', T, async () => {
		const script = winningScript({ size: SIZE, winner: 'back', direction: 'anti-diagonal', start: { x: 10, y: 4 } });
		const pair = await namedPair(server, 0, { names: ['Cy', 'Di'], script: script.moves });
		await playMoves(pair, script.moves, { size: SIZE, lastEndsGame: true });
		const winner = await expectWinner(pair, { winner: 'back', reason: 'five', line: script.line });
		const record = await gameRecord(server, pair.room, { secrets: secretsOf(pair) });
		assertRecordOf(record, pair, { status: 'finished' });
		assert.deepEqual(Object.keys(record.result).sort(), ['line', 'reason', 'winner']);
		assert.equal(record.result.winner, 'back');
		assert.equal(record.result.reason, 'five');
		assert.deepEqual(cellKeys(record.result.line), cellKeys(script.line));
		assert.deepEqual(record.result.line, winner.line, 'expected the recorded line to be the one in the winner message');
		assert.deepEqual(record.moves, script.moves);
	});

	it('shows a game lost by forfeit, with no line', T, async () => {
		const pair = await namedPair(server, 5);
		await pair.back.close(1000);
		await pair.front.next('winner');
		const record = await gameRecord(server, pair.room, { secrets: secretsOf(pair) });
		assertRecordOf(record, pair, { status: 'finished' });
		assert.deepEqual(record.result, { winner: 'front', reason: 'forfeit' });
		assert.deepEqual(record.moves, pair.played);
	});

	it('shows a nameless player with an empty name', T, async () => {
		const pair = await connectPair(server);
		await playMoves(pair, [{ x: 7, y: 7, role: 'front' }], { size: SIZE });
		const record = await gameRecord(server, pair.room, { secrets: secretsOf(pair) });
		assert.deepEqual(record.players, { front: { name: '' }, back: { name: '' } });
	});

	it('finds a game by its id in upper case too', T, async () => {
		const pair = await namedPair(server, 1);
		const record = await gameRecord(server, pair.room.toUpperCase(), { secrets: secretsOf(pair) });
		assert.equal(record.id, pair.room);
	});

	it('answers 404 for a well-formed id of no game', T, async () => {
		const res = await getGame(server, uuid());
		assert.equal(res.status, 404, `expected 404, got ${res.status}: ${res.body}`);
	});

	for (const id of ['nope', '', '1234', '00000000000040008000000000000000', '00000000-0000-4000-8000-00000000000g',
		'00000000-0000-4000-8000-0000000000000', '00000000-0000-4000-8000-000000000000/moves']) {
		it(`answers 400 for the malformed id ${JSON.stringify(id)}`, T, async () => {
			const res = await getGame(server, id);
			assert.equal(res.status, 400, `expected 400 for GET /api/games/${id}, got ${res.status}: ${res.body}`);
		});
	}

	it('answers 400 for a malformed id longer than 52 characters', T, async () => {
		const id = `${uuid()}-${'0'.repeat(20)}`;
		const res = await getGame(server, id);
		assert.equal(res.status, 400, `expected 400 for GET /api/games/${id} (a GET with a malformed id), ` +
			`got ${res.status}: ${JSON.stringify(res.body)}`);
	});
});

describe('GET /api/games/ID of a full board', () => {
	it('shows a full-board game: winner back, reason full, no line', T, async () => {
		const server = await startServer({ args: ['--board-size', '5', '--reconnect-grace', '3'] });
		try {
			const moves = fullBoardScript();
			const pair = await namedPair(server, 0, { size: 5, script: moves });
			await playMoves(pair, moves, { size: 5, lastEndsGame: true });
			await expectWinner(pair, { winner: 'back', reason: 'full' });
			const record = await gameRecord(server, pair.room, { secrets: secretsOf(pair) });
			assertRecordOf(record, pair, { status: 'finished', size: 5 });
			assert.deepEqual(record.result, { winner: 'back', reason: 'full' });
			assert.deepEqual(record.moves, moves);
		} finally {
			await closeAllClients();
			await server.stop();
		}
	});
});

describe('the database file while the server runs', () => {
	afterEach(async () => {
		await closeAllClients();
	});

	it('holds the games within seconds, without the WAL: checkpoints run while the server serves', T, async () => {
		const db = scratchDb();
		const server = await startServer({ args: ['--db', db] });
		try {
			const pair = await namedPair(server, 5);
			// The database file alone, as a copy without its -wal: what
			// has been checkpointed into it.
			const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gomoku-ckpt-')), 'copy.db');
			let rows = [];
			for (let waited = 0; waited < 5000; waited += 250) {
				fs.copyFileSync(db, copy);
				try {
					// A live game's moves are in the append-only log.
					rows = await sqliteQuery(copy, `SELECT count(*) AS moves FROM move_log WHERE game_id = '${pair.room}' AND x >= 0`);
				} catch {
					rows = []; // no tables yet: nothing checkpointed
				}
				if (rows.length && rows[0].moves === 5)
					break;
				await sleep(250);
			}
			assert.deepEqual(rows, [{ moves: 5 }],
				'expected the database file itself (without its WAL) to hold the 5 moves within 5 s while the server runs');
		} finally {
			await closeAllClients();
			await server.stop();
		}
	});
});

describe('restart after SIGTERM', () => {
	const GRACE = 4;
	let restartable;

	after(async () => {
		await closeAllClients();
		if (restartable)
			await restartable.stop();
	});

	it('keeps every unfinished game resumable (a graceful stop forfeits nothing), and finished ones queryable', testTimeout(60_000), async () => {
		restartable = new RestartableServer({ args: ['--reconnect-grace', String(GRACE)] });
		let server = await restartable.start();

		const midGame = await namedPair(server, 3, { names: ['Mid', 'Game'] });
		const noMoves = await namedPair(server, 0, { names: ['No', 'Moves'] });
		const abandoned = await namedPair(server, 2, { names: ['Left', 'Alone'] });
		const won = await namedPair(server, 0, { names: ['Win', 'Lose'] });
		const wonScript = winningScript({ size: SIZE, winner: 'front', direction: 'vertical', start: { x: 12, y: 3 } });
		await playMoves(won, wonScript.moves, { size: SIZE, lastEndsGame: true });
		await expectWinner(won, { winner: 'front', reason: 'five', line: wonScript.line });
		const forfeited = await namedPair(server, 4, { names: ['For', 'Feit'] });
		await forfeited.front.close(1000);
		await forfeited.back.next('winner');
		await forfeited.back.next('disconnect');

		const clients = [midGame, noMoves, abandoned, won].flatMap((pair) => [pair.front, pair.back])
			.concat([forfeited.back]);
		await restartable.stop();
		for (const client of clients) {
			const closed = await client.waitClosed();
			assert.equal(closed.code, 1001, `expected ${client.label} closed with 1001 on SIGTERM, got ${JSON.stringify(closed)}`);
		}

		const restartedAt = Date.now();
		server = await restartable.start();
		const health = await server.health();
		// The game with no move was never journalled: 2 of the 3.
		assert.equal(health.rooms, 2, `expected the 2 unfinished games with moves restored, got ${JSON.stringify(health)}`);
		assert.equal(health.players_away, 4, `expected their 4 players away, got ${JSON.stringify(health)}`);
		assert.equal(health.connections, 0);
		assert.ok(server.output().includes('restored 2 unfinished games'),
			`expected a log line about the 2 restored games, got:\n${server.output()}`);
		assert.equal((await getGame(server, noMoves.room)).status, 404, 'expected no record of the game with no move');

		for (const [pair, played] of [[midGame, midGame.played], [abandoned, abandoned.played]]) {
			const record = await gameRecord(server, pair.room, { secrets: secretsOf(pair) });
			assert.equal(record.status, 'live', `expected game ${pair.room} still live after SIGTERM, got ${JSON.stringify(record)}`);
			assert.deepEqual(record.moves, played);
		}
		const wonRecord = await gameRecord(server, won.room);
		assert.equal(wonRecord.status, 'finished');
		assert.equal(wonRecord.result.reason, 'five');
		assert.deepEqual(wonRecord.moves, wonScript.moves);
		const forfeitRecord = await gameRecord(server, forfeited.room);
		assert.deepEqual(forfeitRecord.result, { winner: 'back', reason: 'forfeit' });

		// The mid-game: back returns first, then front; they play on to a win.
		const midBack = await rejoin(server, midGame.back);
		await expectResume(midBack, { room: midGame.room, role: 'back', moves: midGame.played, size: SIZE });
		const away = await midBack.next('opponent_away');
		assert.ok(away.seconds >= 1 && away.seconds <= GRACE,
			`expected opponent_away.seconds within the grace from the restart, got ${JSON.stringify(away)}`);
		const midFront = await rejoin(server, midGame.front);
		await expectResume(midFront, { room: midGame.room, role: 'front', moves: midGame.played, size: SIZE });
		await midBack.next('opponent_back');
		const midPair = { front: midFront, back: midBack };
		await playMoves(midPair, midGame.moves.slice(3), {
			size: SIZE, startContent: midGame.content, startMoves: 3, lastEndsGame: true,
		});
		await expectWinner(midPair, { winner: 'front', reason: 'five' });

		// The game with no move was not kept: its players start afresh,
		// and coming back together are paired into a new room.
		const noFront = await rejoin(server, noMoves.front);
		await noFront.next('waiting');
		const noBack = await rejoin(server, noMoves.back);
		const [frontRole, backRole] = await Promise.all([noFront.next('role'), noBack.next('role', undefined, { skip: ['waiting'] })]);
		assert.equal(frontRole.room, backRole.room);
		assert.notEqual(frontRole.room, noMoves.room, 'expected a new room for the players of the game that was not kept');
		await noFront.close(1000);
		await noBack.close(1000);

		// Nobody returns to the abandoned game: it is forfeited once the
		// grace from the restart runs out.
		const record = await waitForGameStatus(server, abandoned.room, 'finished', { timeoutMs: GRACE * 1000 + 3000 });
		assert.equal(record.result.reason, 'forfeit', `expected a forfeit, got ${JSON.stringify(record)}`);
		assert.ok(['front', 'back'].includes(record.result.winner));
		assert.ok(record.finished_ms >= restartedAt + GRACE * 1000 - 200,
			`expected the forfeit no earlier than the grace after the restart, it came ` +
			`${record.finished_ms - restartedAt} ms after it`);
		assert.deepEqual(record.moves, abandoned.played);

		// A player of a finished game starts afresh.
		const wonAgain = await rejoin(server, won.front);
		await wonAgain.next('waiting');
		await closeAllClients();
		await restartable.stop();

		const games = await sqliteQuery(restartable.db, 'SELECT id, COUNT(*) AS copies FROM games GROUP BY id');
		// 5 games, 4 with moves (the new room of the game that was not
		// kept had none either).
		assert.equal(games.length, 4, `expected exactly the 4 games with moves in the database, got ${JSON.stringify(games)}`);
		assert.ok(games.every((row) => row.copies === 1));
	});
});

// ---------------------------------------------------------------------
// 20 crashes.

// GOMOKU_TEST_CRASH_CYCLES lowers the count where the server is slow
// (tests/valgrind/run.sh); the default is the 20 of the requirement.
const CYCLES = Number(process.env.GOMOKU_TEST_CRASH_CYCLES) || 20;
const LIVE_ROOMS = 6; // rooms with a live game at the start of a cycle
const KILL_GRACE = 300; // seconds: nobody is forfeited between cycles
const KILL_AFTER_MS = [50, 300]; // the crash comes this long into a cycle
const MOVE_DELAY_MS = [4, 24]; // a player thinks this long before a move

/** A small seeded PRNG (mulberry32), so a failing run can be repeated. */
function makeRandom(seed) {
	let state = seed >>> 0;
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	next.int = (min, max) => min + Math.floor(next() * (max - min + 1));
	next.pick = (list) => list[Math.floor(next() * list.length)];
	next.shuffle = (list) => {
		const copy = list.slice();
		for (let i = copy.length - 1; i > 0; i--) {
			const j = Math.floor(next() * (i + 1));
			[copy[i], copy[j]] = [copy[j], copy[i]];
		}
		return copy;
	};
	return next;
}

/**
 * A game that never makes five, `length` moves long: front's stones on
 * the cells where (x + 2y) mod 4 < 2, back's on the others. Rows go
 * FFBB…/BBFF…, columns alternate and both diagonals cycle through all four
 * residues, so no run is longer than two anywhere, at any point.
 */
function neverWinningPlan(random, length) {
	const front = [];
	const back = [];
	for (let y = 0; y < SIZE; y++)
		for (let x = 0; x < SIZE; x++)
			((x + 2 * y) % 4 < 2 ? front : back).push({ x, y });
	const frontOrder = random.shuffle(front);
	const backOrder = random.shuffle(back);
	const plan = [];
	for (let i = 0; i < length; i++)
		plan.push(i % 2 === 0 ? { ...frontOrder[i / 2], role: 'front' } : { ...backOrder[(i - 1) / 2], role: 'back' });
	return plan;
}

/** A game that ends in a five (9 or 10 moves), somewhere on the board. */
function winningPlan(random) {
	const direction = random.pick(['horizontal', 'vertical', 'diagonal', 'anti-diagonal']);
	const start = {
		horizontal: { x: random.int(0, 10), y: random.int(2, 12) },
		vertical: { x: random.int(0, 14), y: random.int(2, 6) },
		diagonal: { x: random.int(0, 10), y: random.int(2, 6) },
		'anti-diagonal': { x: random.int(4, 14), y: random.int(2, 6) },
	}[direction];
	const winner = random.pick(['front', 'back']);
	const script = winningScript({ size: SIZE, winner, direction, start });
	return { plan: script.moves, winner, line: script.line };
}

describe('an outage longer than the reconnect grace', () => {
	// The players come back MARGIN s before the grace from the restart
	// runs out (a margin that grows on a slower machine), after an outage
	// a second longer than the grace.
	const MARGIN = Math.ceil(scaled(1500) / 1000);
	const GRACE = 2 + MARGIN;
	let restartable;

	after(async () => {
		await closeAllClients();
		if (restartable)
			await restartable.stop();
	});

	it('gives the players of a restored game the whole grace from the restart, however long the server was down', testTimeout(30_000), async () => {
		restartable = new RestartableServer({ args: ['--reconnect-grace', String(GRACE)] });
		let server = await restartable.start();
		const pair = await namedPair(server, 3, { names: ['Long', 'Gone'] });
		await restartable.kill();
		// Down for longer than the grace: counted from the crash, it would be over.
		await sleep((GRACE + 1) * 1000);
		const restartedAt = Date.now();
		server = await restartable.start();
		// Both come back most of a grace after the restart: the game waits.
		await sleep((GRACE - MARGIN) * 1000);
		const record = await gameRecord(server, pair.room, { secrets: secretsOf(pair) });
		assert.equal(record.status, 'live', `expected the game still live ${Date.now() - restartedAt} ms after the restart, ` +
			`got ${JSON.stringify(record)}`);
		const front = await rejoin(server, pair.front);
		await expectResume(front, { room: pair.room, role: 'front', moves: pair.played, size: SIZE });
		const away = await front.next('opponent_away');
		assert.ok(away.seconds >= 1 && away.seconds <= GRACE, `expected the rest of the grace from the restart, got ${JSON.stringify(away)}`);
		const back = await rejoin(server, pair.back);
		await expectResume(back, { room: pair.room, role: 'back', moves: pair.played, size: SIZE });
		await front.next('opponent_back');
		const resumed = { front, back };
		await playMoves(resumed, pair.moves.slice(3), {
			size: SIZE, startContent: pair.content, startMoves: 3, lastEndsGame: true,
		});
		await expectWinner(resumed, { winner: 'front', reason: 'five' });
	});
});

describe(`${CYCLES} crashes (SIGKILL) with moves in flight`, () => {
	let restartable;

	after(async () => {
		await closeAllClients();
		if (restartable)
			await restartable.stop();
	});

	it('restores every unfinished game with the exact board, loses no acknowledged move and duplicates no game', testTimeout(180_000), async (t) => {
		const seed = Number(process.env.GOMOKU_TEST_SEED) || (Date.now() % 2147483647);
		t.diagnostic(`seed ${seed} (set GOMOKU_TEST_SEED=${seed} to repeat the choices)`);
		if (CYCLES !== 20)
			t.diagnostic(`only ${CYCLES} crash cycles instead of 20 (GOMOKU_TEST_CRASH_CYCLES)`);
		const random = makeRandom(seed);
		restartable = new RestartableServer({ args: ['--reconnect-grace', String(KILL_GRACE), '--log-level', 'warn'] });
		const rooms = new Map(); // room id -> the test's model of it
		const stats = {
			kills: 0, created: 0, resumed: 0, droppedEmpty: 0, finishedFive: 0, finishedForfeit: 0,
			sentNotKept: 0, keptNotSeen: 0, mostMoves: 0,
		};

		const roomFail = (room, why) => {
			room.failures.push(why);
		};

		/** Opens a new room: a pair, a plan and the model. */
		async function openRoom(server) {
			const index = rooms.size;
			const names = [`P${index}a`, `P${index}b`];
			const pair = await connectPair(server, { firstQuery: { name: names[0] }, secondQuery: { name: names[1] } });
			pair.first.name = names[0];
			pair.second.name = names[1];
			pair.front.label = `room ${index} front`;
			pair.back.label = `room ${index} back`;
			const win = random() < 0.35;
			const planned = win ? winningPlan(random) : { plan: neverWinningPlan(random, random.int(20, 80)) };
			const room = {
				id: pair.room,
				kind: win ? 'win' : 'long',
				plan: planned.plan,
				winner: planned.winner,
				line: planned.line,
				players: {
					front: { uid: pair.front.uid, name: pair.front.name, role: 'front', label: `room ${index} front` },
					back: { uid: pair.back.uid, name: pair.back.name, role: 'back', label: `room ${index} back` },
				},
				clients: { front: pair.front, back: pair.back },
				known: 0, // moves in the database at the last check
				maxSeen: 0, // the most moves any client saw in a board
				sent: 0, // moves of the plan sent so far
				sawWinner: null, // a winner message a client got
				leaver: null, // the side that closed with 1000 to end it
				finished: false, // the database says so
				failures: [],
			};
			rooms.set(room.id, room);
			stats.created += 1;
			return room;
		}

		/** One player of a room during a cycle: answers boards with the plan's next move. */
		async function playerLoop(room, client) {
			for (;;) {
				let message;
				try {
					message = await client.next(null, 60_000);
				} catch (err) {
					if (client.closeInfo)
						return; // the crash (or its own close)
					roomFail(room, `${client.label}: ${err.message}`);
					return;
				}
				if (message.type === 'board') {
					room.maxSeen = Math.max(room.maxSeen, message.moves);
					const expected = replay(room.plan.slice(0, message.moves), SIZE);
					if (JSON.stringify(message.content) !== JSON.stringify(expected))
						roomFail(room, `${client.label} got a board that is not the plan's first ${message.moves} moves: ${JSON.stringify(message)}`);
					if (message.role === client.role)
						await takeTurn(room, client, message.moves);
				} else if (message.type === 'winner') {
					room.sawWinner = message;
				} else if (message.type === 'error') {
					roomFail(room, `${client.label} got ${JSON.stringify(message)}`);
				}
			}
		}

		/** Plays the plan's move number `played` (or leaves when the plan is done). */
		async function takeTurn(room, client, played) {
			if (played >= room.plan.length) {
				if (room.kind === 'long' && !room.leaver) {
					room.leaver = client.role; // ends the game by forfeit
					client.close(1000);
				}
				return;
			}
			await sleep(random.int(MOVE_DELAY_MS[0], MOVE_DELAY_MS[1]));
			if (!client.isOpen)
				return;
			const { x, y } = room.plan[played];
			client.move(x, y);
			room.sent = Math.max(room.sent, played + 1);
		}

		/** After a restart: the database, the API and both players' return. */
		async function checkRestored(server) {
			const games = await sqliteQuery(restartable.db,
				'SELECT id, finished_ms IS NULL AS unfinished FROM games ORDER BY id');
			assert.equal(new Set(games.map((row) => row.id)).size, games.length,
				`expected no game twice in the database, got ${JSON.stringify(games)}`);
			const kept = new Set(games.map((row) => row.id));
			for (const id of kept)
				assert.ok(rooms.has(id), `expected only games that were matched in the database, found ${id}`);
			// A game is journalled with its first move: one whose first
			// move was never committed is not kept, and its players (gone
			// with the crash) would start afresh.
			for (const room of [...rooms.values()]) {
				if (kept.has(room.id))
					continue;
				assert.ok(room.maxSeen === 0 && room.known === 0,
					`expected room ${room.id} in the database: a client saw ${room.maxSeen} of its moves`);
				rooms.delete(room.id);
				stats.droppedEmpty += 1;
			}
			const live = [...rooms.values()].filter((room) => !room.finished);
			// Finished games' moves, written whole when they ended.
			const seqs = await sqliteQuery(restartable.db,
				'SELECT game_id, COUNT(*) AS n, MIN(seq) AS first, MAX(seq) AS last FROM moves GROUP BY game_id');
			for (const row of seqs)
				assert.ok(row.first === 0 && row.last === row.n - 1,
					`expected the moves of game ${row.game_id} numbered 0.. without gaps, got ${JSON.stringify(row)}`);
			const unfinished = games.filter((row) => row.unfinished).length;
			const health = await server.health();
			assert.equal(health.rooms, unfinished,
				`expected every unfinished game restored once, got ${JSON.stringify(health)} for ${unfinished} unfinished games`);
			assert.equal(health.players_away, 2 * unfinished,
				`expected both players of every restored game away, got ${JSON.stringify(health)}`);
			assert.equal(health.connections, 0);

			for (const room of live) {
				const record = await gameRecord(server, room.id, { secrets: [room.players.front.uid, room.players.back.uid] });
				const count = record.moves.length;
				assert.deepEqual(record.moves, room.plan.slice(0, count),
					`expected room ${room.id}'s recorded moves to be the first ${count} moves sent, in order`);
				assert.ok(count >= room.maxSeen,
					`expected room ${room.id} to keep every move a client saw: the clients saw ${room.maxSeen}, ` +
					`the database has ${count} (${room.kind} game)`);
				assert.ok(count <= room.sent, `expected no more moves than were sent in room ${room.id}`);
				assert.ok(count >= room.known, `expected room ${room.id} to keep the ${room.known} moves it had`);
				room.known = count;
				stats.mostMoves = Math.max(stats.mostMoves, count);
				if (room.sent > count)
					stats.sentNotKept += 1; // a move was in flight at the crash
				if (count > room.maxSeen)
					stats.keptNotSeen += 1; // committed, the crash came before it was told
				if (record.status === 'finished') {
					room.finished = true;
					if (room.kind === 'win' && count === room.plan.length) {
						assert.equal(record.result.reason, 'five', `room ${room.id}: ${JSON.stringify(record)}`);
						assert.equal(record.result.winner, room.winner);
						assert.deepEqual(cellKeys(record.result.line), cellKeys(room.line));
						stats.finishedFive += 1;
					} else {
						assert.ok(room.leaver, `expected room ${room.id} finished only by its five or a close 1000, ` +
							`got ${JSON.stringify(record)}`);
						assert.deepEqual(record.result, { winner: otherRole(room.leaver), reason: 'forfeit' });
						stats.finishedForfeit += 1;
					}
					continue;
				}
				assert.equal(record.status, 'live');
				assert.equal(room.sawWinner, null,
					`expected room ${room.id} finished: a client was told ${JSON.stringify(room.sawWinner)}`);
				// Both players return, in a random order; the game is resumed once.
				const order = random() < 0.5 ? ['front', 'back'] : ['back', 'front'];
				const firstBack = await rejoin(server, room.players[order[0]], { label: room.players[order[0]].label });
				await expectResume(firstBack, { room: room.id, role: order[0], moves: record.moves, size: SIZE });
				const away = await firstBack.next('opponent_away');
				assert.ok(away.seconds >= 1 && away.seconds <= KILL_GRACE, `got ${JSON.stringify(away)}`);
				const secondBack = await rejoin(server, room.players[order[1]], { label: room.players[order[1]].label });
				await expectResume(secondBack, { room: room.id, role: order[1], moves: record.moves, size: SIZE });
				await firstBack.next('opponent_back');
				room.clients = { [order[0]]: firstBack, [order[1]]: secondBack };
				room.leaver = null;
				stats.resumed += 1;
			}
			const after = await server.health();
			assert.equal(after.players_away, 0, `expected every seat taken back, got ${JSON.stringify(after)}`);
		}

		let server = await restartable.start();
		for (let cycle = 0; cycle <= CYCLES; cycle++) {
			if (cycle > 0)
				await checkRestored(server);
			if (cycle === CYCLES)
				break;

			// New rooms up to LIVE_ROOMS live ones; one new room stays at 0 moves this cycle.
			const fresh = [];
			while ([...rooms.values()].filter((room) => !room.finished).length < LIVE_ROOMS)
				fresh.push(await openRoom(server));
			const idle = fresh.length >= 2 ? fresh[fresh.length - 1] : null;

			const loops = [];
			for (const room of rooms.values()) {
				if (room.finished)
					continue;
				room.failures = [];
				loops.push(playerLoop(room, room.clients.front), playerLoop(room, room.clients.back));
				if (room === idle)
					continue;
				// Whoever is to move starts.
				const mover = room.known % 2 === 0 ? 'front' : 'back';
				loops.push(takeTurn(room, room.clients[mover], room.known));
			}
			await sleep(random.int(KILL_AFTER_MS[0], KILL_AFTER_MS[1]));
			await restartable.kill();
			stats.kills += 1;
			await Promise.all(loops);
			for (const room of rooms.values())
				assert.deepEqual(room.failures, [], `room ${room.id} in cycle ${cycle}`);
			server = await restartable.start();
		}

		t.diagnostic(`stats ${JSON.stringify(stats)}`);
		assert.equal(stats.kills, CYCLES);
		assert.ok(stats.resumed >= CYCLES, `expected many games resumed, got ${JSON.stringify(stats)}`);
		assert.ok(stats.droppedEmpty >= 1, `expected games with no move left out of the database, got ${JSON.stringify(stats)}`);
		await closeAllClients();
		await restartable.stop();
	});
});
