// Spectators and the lists of rooms and games (PROTOCOL.md 8.5):
// ?watch=ROOM gets a welcome without uid, spectate (names only), the whole
// board (with the clock when timed) and the winner of a finished game,
// then what the players get of the game (board, takeback boards, winner,
// emote, opponent_away/opponent_back with the seat's role, the rematch's
// room), never an offer or answer and never a uid; a spectator's ping gets
// pong, anything else error spectator; an unknown or malformed room is
// no_such_room, a full room too_many_spectators, both closing 1008; the
// room closing tells them "the room closed". Players hear the count at
// most once a second. A crowd (400 here) is written over several loop
// turns after the players, and still gets every board, in order. GET
// /api/rooms and GET /api/games list live rooms
// and finished games, newest first; /metrics has gomoku_spectators.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useServer, startServer } from './lib/server.mjs';
import { Client, playerUrl, uuid, otherRole, DEFAULT_TIMEOUT_MS } from './lib/client.mjs';
import { winningScript, emptyContent } from './lib/game.mjs';
import { connectAi } from './lib/ai.mjs';
import { rejoin, expectResume, replay, RestartableServer } from './lib/resume.mjs';
import { pollUntil } from './lib/observe.mjs';
import {
	EMOTES, pairIn, bothNext, timedMoves, quietMoves, metricsOf, assertClockShape, assertNoClockFields, seat,
	CLOCK_SLACK_MS,
} from './lib/protocol2.mjs';
import { testTimeout, scaled } from './lib/time.mjs';

const T = testTimeout(30_000);
const SIZE = 15;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const COUNT_INTERVAL_MS = 1000;

/** Opens a spectator's connection to room (no checks at all). */
function openWatch(server, room, label = 'spectator') {
	return Client.connect(playerUrl(server, { watch: room }), { label });
}

/** Asserts that no text client received holds any of uids. */
function assertNoUids(client, uids) {
	for (const { text } of client.received)
		for (const uid of uids)
			assert.ok(!text.toLowerCase().includes(uid.toLowerCase()),
				`expected ${client.label} never to see a player's uid, got ${text}`);
}

/**
 * A spectator of pair's room: takes its welcome (no uid), its spectate
 * (checked against the players' role messages) and its board; resolves
 * with the client, carrying .welcome, .spectate and .board.
 */
async function watch(server, room, label = 'spectator') {
	const client = await openWatch(server, room, label);
	client.welcome = await client.next('welcome');
	assert.equal('uid' in client.welcome, false,
		`expected a spectator's welcome to carry no uid, got ${JSON.stringify(client.welcome)}`);
	client.spectate = await client.next('spectate');
	assert.equal(client.spectate.room, room, `expected spectate of room ${room}, got ${JSON.stringify(client.spectate)}`);
	client.board = await client.next('board');
	return client;
}

/** count spectators of room (watch()), opened 50 at a time. */
async function watchCrowd(server, room, count) {
	const crowd = [];
	for (let i = 0; i < count; i += 50)
		crowd.push(...await Promise.all(Array.from({ length: Math.min(50, count - i) },
			(_, j) => watch(server, room, `spectator ${i + j + 1}`))));
	return crowd;
}

/** The spectate message the players' names and role messages call for. */
function expectedSpectate(pair, room = pair.room, { front = pair.front, back = pair.back } = {}) {
	const role = front.roleMessage;
	const named = (client) => (client.name ? { name: client.name } : {});
	return {
		type: 'spectate', room, size: role.size, rule: role.rule, tc: role.tc,
		players: { front: named(front), back: named(back) },
	};
}

/** Takes the next message of both players, skipping spectator counts. */
async function bothNextSkipping(pair, type) {
	const [front, back] = await Promise.all([
		pair.front.next(type, DEFAULT_TIMEOUT_MS, { skip: ['spectators'] }),
		pair.back.next(type, DEFAULT_TIMEOUT_MS, { skip: ['spectators'] }),
	]);
	assert.deepEqual(back, front, `expected front and back to get the same ${type}`);
	return front;
}

/** Move by role; both players and every spectator get the same board. */
async function moveSeen(pair, spectators, { x, y, role }) {
	seat(pair, role).move(x, y);
	const board = await bothNextSkipping(pair, 'board');
	assert.deepEqual(board.move, { x, y, role }, `expected the board of ${role}'s (${x},${y}), got ${JSON.stringify(board)}`);
	for (const spectator of spectators)
		assert.deepEqual(await spectator.next('board'), board, `expected ${spectator.label} to get the players' board`);
	return board;
}

/** A pair (names Ann and Bo) whose game front won by five; .script, .winner. */
async function finishedPair(server, query = {}) {
	const pair = await pairIn(server, query, { names: ['Ann', 'Bo'] });
	const script = winningScript({ size: SIZE, winner: 'front', direction: 'horizontal', start: { x: 0, y: 2 } });
	await timedMoves(pair, script.moves);
	pair.winner = await bothNext(pair, 'winner');
	pair.script = script;
	return pair;
}

/** Expects error code then close 1008 on a watch of room. */
async function expectWatchRefused(server, room, code) {
	const client = await openWatch(server, room, `spectator of ${JSON.stringify(room)}`);
	const error = await client.next('error', DEFAULT_TIMEOUT_MS, { skip: ['welcome'] });
	assert.equal(error.code, code, `expected watch=${room} to be refused with ${code}, got ${JSON.stringify(error)}`);
	const closed = await client.waitClosed();
	assert.equal(closed.code, 1008, `expected close 1008 after ${code}, got ${JSON.stringify(closed)}`);
	for (const { message } of client.received)
		assert.ok(['welcome', 'error'].includes(message.type),
			`expected nothing but welcome and error, got ${JSON.stringify(message)}`);
	return client;
}

/** GET path, 200 and JSON; resolves with { body, json }. */
async function getJson(server, path, secrets = []) {
	const res = await server.get(path);
	assert.equal(res.status, 200, `expected GET ${path} to answer 200, got ${res.status}: ${res.body}`);
	assert.match(res.headers['content-type'] || '', /application\/json/);
	for (const uid of secrets)
		assert.ok(!res.body.toLowerCase().includes(uid.toLowerCase()), `expected GET ${path} to show no uid, got ${res.body}`);
	return { body: res.body, json: JSON.parse(res.body) };
}

const BAD_LIMITS = ['0', '201', '-1', 'abc', '1.5', '', '1e2', '%2050', '100000', '2000000'];
// Numbers too long for the server's buffer must be refused too.
const LONG_LIMITS = ['99999999999', '1000000000000000000000', '0000000000000000007'];

describe('spectators', () => {
	const server = useServer();

	it('greets a spectator with a welcome without uid, spectate with the names only, and the whole board', T, async () => {
		const pair = await pairIn(server, {}, { names: ['Ann', 'Bo'] });
		const moves = quietMoves(3, SIZE);
		await timedMoves(pair, moves);
		const spectator = await watch(server, pair.room);
		assert.equal(spectator.welcome.type, 'welcome');
		assert.deepEqual(spectator.spectate, expectedSpectate(pair),
			`expected exactly type, room, size, rule, tc and the players' names, got ${JSON.stringify(spectator.spectate)}`);
		const board = spectator.board;
		assert.deepEqual(board.content, replay(moves, SIZE), `expected the whole position, got ${JSON.stringify(board)}`);
		assert.equal(board.moves, 3);
		assert.deepEqual(board.move, moves[2]);
		assert.equal(board.role, 'back', 'expected the side to move next');
		assertNoClockFields(board, 'the spectator');
		assert.deepEqual(await bothNext(pair, 'spectators'), { type: 'spectators', count: 1 });
		await spectator.expectNothing(100, 'after the board of a live game');
		assertNoUids(spectator, [pair.front.uid, pair.back.uid]);
	});

	it('names no player in spectate when they gave no name, and shows an empty board before the first move', T, async () => {
		const pair = await pairIn(server, {});
		const spectator = await watch(server, pair.room);
		assert.deepEqual(spectator.spectate.players, { front: {}, back: {} },
			`expected no name key for nameless players, got ${JSON.stringify(spectator.spectate)}`);
		assert.deepEqual(spectator.board.content, emptyContent(SIZE));
		assert.equal(spectator.board.moves, 0);
		assert.equal('move' in spectator.board, false, `expected no move before the first, got ${JSON.stringify(spectator.board)}`);
		assert.equal(spectator.board.role, 'front');
		assertNoUids(spectator, [pair.front.uid, pair.back.uid]);
	});

	it('shows a timed game\'s board with its clocks', T, async () => {
		const pair = await pairIn(server, { tc: '60+1' }, { names: ['Ann', 'Bo'] });
		const played = await timedMoves(pair, quietMoves(2, SIZE));
		const spectator = await watch(server, pair.room);
		assert.equal(spectator.spectate.tc, '60+1');
		assertClockShape(spectator.board, 'the spectator');
		const last = played[1].board.clock;
		// Back's clock was stopped at its move: as the players saw it. Front's runs.
		assert.equal(spectator.board.clock.back, last.back, `expected back's clock as the last board said, got ${JSON.stringify(spectator.board)}`);
		assert.ok(spectator.board.clock.front <= last.front + CLOCK_SLACK_MS && spectator.board.clock.front > 30_000,
			`expected front's running clock at most ${last.front}, got ${JSON.stringify(spectator.board)}`);
	});

	it('shows a finished game\'s board and then its winner', T, async () => {
		const pair = await finishedPair(server);
		const spectator = await watch(server, pair.room);
		assert.equal(spectator.board.moves, pair.script.moves.length);
		assert.deepEqual(spectator.board.content, replay(pair.script.moves, SIZE));
		assert.deepEqual(await spectator.next('winner'), pair.winner, 'expected the players\' winner message');
		await spectator.expectNothing(100);
		assertNoUids(spectator, [pair.front.uid, pair.back.uid]);
	});

	it('streams boards, takeback boards, emotes and the winner, but never an offer or an answer', T, async () => {
		const pair = await pairIn(server, {}, { names: ['Ann', 'Bo'] });
		const spectators = [await watch(server, pair.room, 'spectator 1'), await watch(server, pair.room, 'spectator 2')];
		const script = winningScript({ size: SIZE, winner: 'back', direction: 'vertical', start: { x: 7, y: 3 } });
		for (const move of script.moves.slice(0, 3))
			await moveSeen(pair, spectators, move);
		// A takeback: the offer and answer to the players only, the board to all.
		pair.front.send({ type: 'offer', what: 'takeback' });
		await bothNextSkipping(pair, 'offer');
		pair.back.send({ type: 'answer', what: 'takeback', accept: true });
		await bothNextSkipping(pair, 'answer');
		const undo = await bothNextSkipping(pair, 'board');
		assert.ok(undo.undo, `expected a takeback board, got ${JSON.stringify(undo)}`);
		for (const spectator of spectators)
			assert.deepEqual(await spectator.next('board'), undo, `expected ${spectator.label} to get the takeback board`);
		await moveSeen(pair, spectators, script.moves[2]);
		// A draw offer declined: nothing for the spectators.
		pair.back.send({ type: 'offer', what: 'draw' });
		await bothNextSkipping(pair, 'offer');
		pair.front.send({ type: 'answer', what: 'draw', accept: false });
		await bothNextSkipping(pair, 'answer');
		// Emotes, either side: to the spectators with the sender's side.
		pair.front.send({ type: 'emote', emote: 'hello' });
		await pair.back.next('emote', DEFAULT_TIMEOUT_MS, { skip: ['spectators'] });
		pair.back.send({ type: 'emote', emote: 'gg' });
		await pair.front.next('emote', DEFAULT_TIMEOUT_MS, { skip: ['spectators'] });
		for (const spectator of spectators) {
			assert.deepEqual(await spectator.next('emote'), { type: 'emote', by: 'front', emote: 'hello' });
			assert.deepEqual(await spectator.next('emote'), { type: 'emote', by: 'back', emote: 'gg' });
		}
		for (const move of script.moves.slice(3))
			await moveSeen(pair, spectators, move);
		const winner = await bothNextSkipping(pair, 'winner');
		assert.equal(winner.winner, 'back');
		for (const spectator of spectators) {
			assert.deepEqual(await spectator.next('winner'), winner);
			await spectator.expectNothing(50, 'after the winner');
			const types = spectator.received.map((entry) => entry.message.type);
			assert.ok(!types.includes('offer') && !types.includes('answer'),
				`expected ${spectator.label} to get no offer or answer, got ${types.join(', ')}`);
			assertNoUids(spectator, [pair.front.uid, pair.back.uid]);
		}
	});

	it('writes a crowd of 400 spectators every board and the winner, in order, as the players get them', T, async () => {
		const CROWD = 400;
		const pair = await pairIn(server, {}, { names: ['Ann', 'Bo'] });
		const crowd = await watchCrowd(server, pair.room, CROWD);
		const script = winningScript({ size: SIZE, winner: 'front', direction: 'diagonal', start: { x: 3, y: 3 } });
		const boards = [];
		for (const move of script.moves) {
			seat(pair, move.role).move(move.x, move.y);
			boards.push(await bothNextSkipping(pair, 'board'));
		}
		const winner = await bothNextSkipping(pair, 'winner');
		await Promise.all(crowd.map(async (spectator) => {
			for (const board of boards)
				assert.deepEqual(await spectator.next('board'), board, `expected ${spectator.label} to get every board in order`);
			assert.deepEqual(await spectator.next('winner'), winner, `expected ${spectator.label} to get the winner`);
		}));
		// 400 writes take longer than one turn's slice for spectators.
		const deferred = (await metricsOf(server)).samples.get('gomoku_spectator_turns_deferred_total');
		assert.ok(deferred > 0, `expected the crowd written over several turns, got ${deferred}`);
		await Promise.all(crowd.map((spectator) => spectator.close(1000)));
	});

	it('refuses every game message of a spectator with error spectator, changing nothing; a ping gets pong', T, async () => {
		const pair = await pairIn(server, {}, { names: ['Ann', 'Bo'] });
		await timedMoves(pair, quietMoves(1, SIZE));
		const spectator = await watch(server, pair.room);
		await bothNext(pair, 'spectators');
		const requests = [
			{ type: 'move', x: 0, y: 14 }, { type: 'resign' }, { type: 'abort' },
			{ type: 'offer', what: 'draw' }, { type: 'offer', what: 'takeback' }, { type: 'offer', what: 'rematch' },
			{ type: 'answer', what: 'draw', accept: true }, { type: 'emote', emote: EMOTES[0] }, { type: 'redo' },
			{ type: 'board', content: replay([{ x: 7, y: 7, role: 'back' }], SIZE), role: 'back' },
		];
		for (const request of requests) {
			spectator.send(request);
			const error = await spectator.next('error');
			assert.equal(error.code, 'spectator', `expected ${JSON.stringify(request)} to get error spectator, got ${JSON.stringify(error)}`);
			assert.equal(typeof error.message, 'string');
		}
		spectator.send({ type: 'ping' });
		assert.deepEqual(await spectator.next('pong'), { type: 'pong' });
		await pair.front.expectNothing(100, 'after a spectator\'s refused requests');
		await pair.back.expectNothing(0, 'after a spectator\'s refused requests');
		// The game is as it was: back is to move, one stone played.
		const board = await moveSeen(pair, [spectator], { x: 14, y: 14, role: 'back' });
		assert.equal(board.moves, 2, `expected the game unchanged by the spectator, got ${JSON.stringify(board)}`);
		assert.ok(spectator.isOpen, 'expected the spectator to stay connected');
	});

	it('refuses an unknown room and a malformed id with no_such_room, then close 1008', T, async () => {
		for (const room of [uuid(), 'abc', '', 'not-a-uuid-at-all-not-a-uuid-at-all1', '../../etc/passwd'])
			await expectWatchRefused(server, room, 'no_such_room');
		// A room that closed is unknown too.
		const pair = await pairIn(server, {});
		await pair.front.close(1000);
		await pair.back.close(1000);
		await expectWatchRefused(server, pair.room, 'no_such_room');
	});

	it('follows a rematch: a new spectate of the new room, sides swapped, and its board; no offer or answer', T, async () => {
		const pair = await finishedPair(server);
		const spectator = await watch(server, pair.room);
		await spectator.next('winner');
		pair.front.send({ type: 'offer', what: 'rematch' });
		await bothNextSkipping(pair, 'offer');
		pair.back.send({ type: 'answer', what: 'rematch', accept: true });
		await bothNextSkipping(pair, 'answer');
		const [frontRole, backRole] = await Promise.all([
			pair.front.next('role', DEFAULT_TIMEOUT_MS, { skip: ['spectators'] }),
			pair.back.next('role', DEFAULT_TIMEOUT_MS, { skip: ['spectators'] }),
		]);
		assert.notEqual(frontRole.room, pair.room);
		const next = { front: pair.back, back: pair.front, room: frontRole.room };
		next.front.roleMessage = backRole;
		next.back.roleMessage = frontRole;
		const spectate = await spectator.next('spectate');
		assert.deepEqual(spectate, expectedSpectate(next, next.room),
			`expected the rematch's room, sides swapped, got ${JSON.stringify(spectate)}`);
		const board = await spectator.next('board');
		assert.equal(board.moves, 0);
		assert.deepEqual(board.content, emptyContent(SIZE));
		await moveSeen(next, [spectator], { x: 7, y: 7, role: 'front' });
		const types = spectator.received.map((entry) => entry.message.type);
		assert.ok(!types.includes('offer') && !types.includes('answer') && !types.includes('role'),
			`expected no offer, answer or role to the spectator, got ${types.join(', ')}`);
		assertNoUids(spectator, [pair.front.uid, pair.back.uid]);
		// The old room is gone; the new one can be watched.
		await expectWatchRefused(server, pair.room, 'no_such_room');
		const late = await watch(server, next.room, 'late spectator');
		assert.equal(late.board.moves, 1);
	});

	it('tells the spectators "the room closed" once its last player left, and nothing after', T, async () => {
		const pair = await pairIn(server, {}, { names: ['Ann', 'Bo'] });
		await timedMoves(pair, quietMoves(2, SIZE));
		const spectator = await watch(server, pair.room);
		await pair.front.close(1000);
		const winner = await pair.back.next('winner', DEFAULT_TIMEOUT_MS, { skip: ['spectators'] });
		assert.deepEqual(await spectator.next('winner'), winner, 'expected the forfeit\'s winner');
		await pair.back.next('disconnect');
		await spectator.expectNothing(100, 'while a player is still in the room');
		await pair.back.close(1000);
		assert.deepEqual(await spectator.next('disconnect'), { type: 'disconnect', disconnect: 'the room closed' });
		spectator.send({ type: 'ping' });
		assert.deepEqual(await spectator.next('pong'), { type: 'pong' }, 'expected a ping to be answered still');
		spectator.send({ type: 'move', x: 1, y: 1 });
		assert.equal((await spectator.next('error')).code, 'spectator');
		await spectator.expectNothing(100, 'after the room closed');
		// Another game starting meanwhile is not shown to it.
		const other = await pairIn(server, {});
		await timedMoves(other, quietMoves(1, SIZE));
		await spectator.expectNothing(100, 'after the room closed, another game being played');
		assertNoUids(spectator, [pair.front.uid, pair.back.uid, other.front.uid, other.back.uid]);
	});

	it('tells the players the count at most once a second, then the latest', T, async () => {
		const pair = await pairIn(server, {});
		const arrivals = { front: [], back: [] };
		let finalSeen;
		const finalCount = new Promise((resolve) => {
			finalSeen = resolve;
		});
		const want = { count: 5 };
		for (const side of ['front', 'back']) {
			const client = seat(pair, side);
			client.ws.on('message', (data) => {
				const message = JSON.parse(data.toString());
				if (message.type !== 'spectators')
					return;
				arrivals[side].push({ at: Date.now(), count: message.count });
				if (side === 'back' && message.count === want.count)
					finalSeen();
			});
		}
		const start = Date.now();
		const spectators = await Promise.all([1, 2, 3, 4, 5].map((i) => watch(server, pair.room, `spectator ${i}`)));
		let timer;
		await Promise.race([finalCount, new Promise((resolve, reject) => {
			timer = setTimeout(() => reject(new Error('expected the players to hear the count 5 within ' +
				`${scaled(5000)} ms, they heard ${JSON.stringify(arrivals)}`)), scaled(5000));
		})]);
		clearTimeout(timer);
		for (const side of ['front', 'back']) {
			const heard = arrivals[side];
			const early = heard.filter((entry) => entry.at < start + COUNT_INTERVAL_MS);
			assert.ok(early.length <= 1, `expected ${side} to hear at most one count within the first second, ` +
				`got ${JSON.stringify(heard.map((entry) => ({ ms: entry.at - start, count: entry.count })))}`);
			assert.ok(heard.length >= 1 && heard.length <= 2, `expected one or two counts, got ${JSON.stringify(heard)}`);
			if (heard.length === 2)
				assert.ok(heard[1].at - start >= COUNT_INTERVAL_MS - CLOCK_SLACK_MS,
					`expected the second count no sooner than a second after the first spectator came, got it after ${heard[1].at - start} ms`);
			assert.ok(heard.every((entry) => entry.count >= 1 && entry.count <= 5));
		}
		// The message itself, as the inbox has it.
		const counts = pair.front.inbox.filter((message) => message.type === 'spectators');
		assert.deepEqual(counts[counts.length - 1], { type: 'spectators', count: 5 });
		// Three leave: the players hear 2 at the end, no sooner than a second after the 5.
		const fiveAt = arrivals.back[arrivals.back.length - 1].at;
		want.count = 2;
		const twoSeen = new Promise((resolve) => {
			finalSeen = resolve;
		});
		await Promise.all(spectators.slice(0, 3).map((spectator) => spectator.close(1000)));
		await Promise.race([twoSeen, new Promise((resolve, reject) => {
			timer = setTimeout(() => reject(new Error(`expected the players to hear the count 2, they heard ${JSON.stringify(arrivals)}`)), scaled(5000));
		})]);
		clearTimeout(timer);
		const after = arrivals.back.filter((entry) => entry.at > fiveAt);
		assert.ok(after[0].at - fiveAt >= COUNT_INTERVAL_MS - 2 * CLOCK_SLACK_MS - 50,
			`expected the next count a second after the last, got it ${after[0].at - fiveAt} ms later`);
		assert.deepEqual(after.map((entry) => entry.count), [2],
			`expected one message, the final count 2, got ${JSON.stringify(after)}`);
	});

	it('counts the spectators in gomoku_spectators', T, async () => {
		const pair = await pairIn(server, {});
		const before = (await metricsOf(server)).samples.get('gomoku_spectators');
		assert.equal(before, 0, 'expected no spectators at first');
		const metrics = await metricsOf(server);
		assert.match(metrics.text, /# TYPE gomoku_spectators gauge/);
		const first = await watch(server, pair.room, 'spectator 1');
		await watch(server, pair.room, 'spectator 2');
		assert.equal((await metricsOf(server)).samples.get('gomoku_spectators'), 2);
		await first.close(1000);
		await pollUntil(async () => ((await metricsOf(server)).samples.get('gomoku_spectators') === 1 ? true : undefined),
			'gomoku_spectators to be 1 once a spectator left');
	});
});

describe('spectators of a seat away', () => {
	const GRACE = 30;
	const server = useServer({ args: ['--reconnect-grace', String(GRACE)] });

	it('shows a seat away and back with its role, on arrival and live; a returning player hears the count', T, async () => {
		const pair = await pairIn(server, {}, { names: ['Ann', 'Bo'] });
		const moves = quietMoves(2, SIZE);
		await timedMoves(pair, moves);
		const spectator = await watch(server, pair.room);
		await bothNext(pair, 'spectators');
		await pair.back.terminate();
		await pair.front.next('opponent_away');
		const away = await spectator.next('opponent_away');
		assert.equal(away.role, 'back', `expected the away seat's role, got ${JSON.stringify(away)}`);
		assert.ok(Number.isInteger(away.seconds) && away.seconds > 0 && away.seconds <= GRACE,
			`expected the grace's seconds, got ${JSON.stringify(away)}`);
		// A spectator coming now sees the seat away on arrival.
		const late = await watch(server, pair.room, 'late spectator');
		const lateAway = await late.next('opponent_away');
		assert.equal(lateAway.role, 'back', `expected the away seat on arrival, got ${JSON.stringify(lateAway)}`);
		// Back returns: the count (2) with its seat.
		const again = await rejoin(server, pair.back);
		await expectResume(again, { room: pair.room, role: 'back', moves, size: SIZE });
		// The count last told (1, or 2 once its second passed), then 2.
		const told = await again.next('spectators');
		assert.ok(told.count === 1 || told.count === 2,
			`expected a returning player to hear the count right after its seat, got ${JSON.stringify(told)}`);
		if (told.count !== 2)
			assert.deepEqual(await again.next('spectators'), { type: 'spectators', count: 2 });
		for (const watcher of [spectator, late]) {
			const back = await watcher.next('opponent_back');
			assert.deepEqual(back, { type: 'opponent_back', role: 'back' });
		}
		await pair.front.next('opponent_back', DEFAULT_TIMEOUT_MS, { skip: ['spectators'] });
		// Front away then back too: its role.
		await pair.front.terminate();
		assert.equal((await spectator.next('opponent_away')).role, 'front');
		const frontAgain = await rejoin(server, pair.front);
		await expectResume(frontAgain, { room: pair.room, role: 'front', moves, size: SIZE });
		assert.deepEqual(await spectator.next('opponent_back'), { type: 'opponent_back', role: 'front' });
		assertNoUids(spectator, [pair.front.uid, pair.back.uid]);
		assertNoUids(late, [pair.front.uid, pair.back.uid]);
	});

	it('tells a returning player no count when nobody watches', T, async () => {
		const pair = await pairIn(server, {});
		await pair.back.terminate();
		await pair.front.next('opponent_away');
		const again = await rejoin(server, pair.back);
		await again.next('role');
		await again.expectNothing(200, 'after resuming a room nobody watches');
	});
});

describe('spectators with --ping-interval 1', () => {
	const server = useServer({ args: ['--ping-interval', '1'] });

	it('pings a silent crowd of 400 spectators a slice a turn, keeps every one that answers, and still writes them the game', T, async () => {
		const CROWD = 400;
		const pair = await pairIn(server, {}, { names: ['Ann', 'Bo'] });
		const crowd = await watchCrowd(server, pair.room, CROWD);
		// Spectators send nothing: each falls silent for --ping-interval at
		// about the same time, and the ws library answers every ping.
		for (const spectator of crowd) {
			spectator.pings = 0;
			spectator.ws.on('ping', () => { spectator.pings++; });
		}
		await pollUntil(() => (crowd.every((spectator) => spectator.pings >= 2) ? true : undefined),
			() => `every spectator pinged twice; ${crowd.filter((spectator) => spectator.pings < 2).length} of ${CROWD} were not`,
			{ timeoutMs: scaled(10_000) });
		const samples = (await metricsOf(server)).samples;
		const pings = samples.get('gomoku_keepalive_pings_total');
		assert.ok(pings >= 2 * CROWD, `expected /metrics to count at least ${2 * CROWD} pings, it says ${pings}`);
		// 400 pings take longer than one turn's slice.
		const deferred = samples.get('gomoku_keepalive_turns_deferred_total');
		assert.ok(deferred > 0, `expected the pings written over several turns, got ${deferred}`);
		assert.equal(samples.get('gomoku_idle_drops_total'), 0, 'expected no spectator dropped as idle');
		// Every spectator is still open and served: a move reaches them all.
		const move = quietMoves(1, SIZE)[0];
		seat(pair, move.role).move(move.x, move.y);
		const board = await bothNextSkipping(pair, 'board');
		await Promise.all(crowd.map(async (spectator) => {
			assert.ok(spectator.isOpen, `expected ${spectator.label} to stay connected`);
			assert.deepEqual(await spectator.next('board'), board, `expected ${spectator.label} to get the move`);
		}));
		await Promise.all(crowd.map((spectator) => spectator.close(1000)));
	});
});

describe('spectators with --max-spectators 2', () => {
	const server = useServer({ args: ['--max-spectators', '2'] });

	it('refuses a third spectator of a room with too_many_spectators and close 1008, takes one again once one left', T, async () => {
		const pair = await pairIn(server, {});
		const first = await watch(server, pair.room, 'spectator 1');
		await watch(server, pair.room, 'spectator 2');
		await expectWatchRefused(server, pair.room, 'too_many_spectators');
		// Another room has room for its own.
		const other = await pairIn(server, {});
		await watch(server, other.room, 'spectator of another room');
		await first.close(1000);
		await pollUntil(async () => {
			const client = await openWatch(server, pair.room, 'spectator 3');
			const message = await client.next(null, DEFAULT_TIMEOUT_MS, { skip: ['welcome'] });
			if (message.type === 'spectate')
				return true;
			await client.close();
			return undefined;
		}, 'a spectator taken again once one of two left');
	});
});

describe('spectators and --max-per-ip', () => {
	it('counts a spectator as a connection of its address', T, async () => {
		const server = await startServer({ args: ['--max-per-ip', '3'] });
		try {
			const pair = await pairIn(server, {});
			const spectator = await watch(server, pair.room);
			await assert.rejects(openWatch(server, pair.room, 'fourth connection'),
				'expected a second spectator, the fourth connection of 127.0.0.1, to be refused');
			await spectator.close(1000);
			await pollUntil(async () => {
				try {
					const again = await watch(server, pair.room, 'spectator again');
					return again;
				} catch {
					return undefined;
				}
			}, 'a spectator to be let in once the first left');
		} finally {
			const { closeAllClients } = await import('./lib/client.mjs');
			await closeAllClients();
			await server.stop();
		}
	});
});

describe('GET /api/rooms', () => {
	const server = useServer({ args: ['--ai-ms', '50'] });

	it('lists the live rooms newest first with names, moves, spectators and when they started; no uids', T, async () => {
		const before = Date.now();
		const older = await pairIn(server, { tc: '60+1' }, { names: ['Ann', 'Bo'] });
		await timedMoves(older, quietMoves(3, SIZE));
		const middle = Date.now();
		const newer = await pairIn(server, { size: 13, rule: 'standard' }, { names: ['Cy'] });
		const after = Date.now();
		await watch(server, older.room, 'spectator 1');
		await watch(server, older.room, 'spectator 2');
		await watch(server, newer.room, 'spectator 3');
		const finished = await finishedPair(server);
		const uids = [older, newer, finished].flatMap((pair) => [pair.front.uid, pair.back.uid]);
		const { json } = await getJson(server, '/api/rooms', uids);
		assert.ok(Array.isArray(json.rooms), `expected {"rooms": [...]}, got ${JSON.stringify(json)}`);
		assert.deepEqual(json.rooms.map((room) => room.id), [newer.room, older.room],
			`expected the two live rooms newest first (the finished one left out), got ${JSON.stringify(json)}`);
		const [n, o] = json.rooms;
		const named = (pair, side) => (seat(pair, side).name ? { name: seat(pair, side).name } : {});
		assert.deepEqual({ ...o, started: undefined }, {
			id: older.room, size: SIZE, rule: older.front.roleMessage.rule, tc: '60+1',
			players: { front: named(older, 'front'), back: named(older, 'back') },
			moves: 3, spectators: 2, started: undefined,
		});
		assert.deepEqual({ ...n, started: undefined }, {
			id: newer.room, size: 13, rule: 'standard', tc: 'none',
			players: { front: named(newer, 'front'), back: named(newer, 'back') },
			moves: 0, spectators: 1, started: undefined,
		});
		assert.ok(!('name' in n.players.front) || !('name' in n.players.back), 'expected the nameless player without a name key');
		for (const [room, low, high] of [[o, before, middle], [n, middle, after]]) {
			assert.match(room.started, ISO_8601, `expected started in ISO 8601, got ${room.started}`);
			const at = Date.parse(room.started);
			assert.ok(at >= low - 1000 && at <= high + 1000, `expected started between ${new Date(low).toISOString()} and ` +
				`${new Date(high).toISOString()}, got ${room.started}`);
		}
	});

	it('lists a game against the engine with {"ai": true} for its seat', T, async () => {
		const player = await connectAi(server, { level: 'easy', name: 'Dee' });
		const { json } = await getJson(server, '/api/rooms', [player.uid]);
		assert.equal(json.rooms.length, 1, `expected one room, got ${JSON.stringify(json)}`);
		const room = json.rooms[0];
		assert.equal(room.id, player.roleMessage.room);
		assert.deepEqual(room.players[player.engineRole], { ai: true });
		assert.deepEqual(room.players[otherRole(player.engineRole)], { name: 'Dee' });
	});

	it('takes limit 1 to 200 (default 50) and answers 400 to any other', T, async () => {
		const pairs = [];
		for (let i = 0; i < 51; i++)
			pairs.push(await pairIn(server, {}));
		const ids = pairs.map((pair) => pair.room).reverse();
		assert.deepEqual((await getJson(server, '/api/rooms')).json.rooms.map((room) => room.id), ids.slice(0, 50),
			'expected the 50 newest rooms by default');
		assert.deepEqual((await getJson(server, '/api/rooms?limit=200')).json.rooms.map((room) => room.id), ids);
		assert.deepEqual((await getJson(server, '/api/rooms?limit=1')).json.rooms.map((room) => room.id), ids.slice(0, 1));
		assert.deepEqual((await getJson(server, '/api/rooms?limit=7')).json.rooms.map((room) => room.id), ids.slice(0, 7));
		for (const limit of BAD_LIMITS) {
			const res = await server.get(`/api/rooms?limit=${limit}`);
			assert.equal(res.status, 400, `expected limit=${limit} to answer 400, got ${res.status}: ${res.body}`);
		}
	});

	it('answers an empty list when no game is played', T, async () => {
		assert.deepEqual((await getJson(server, '/api/rooms')).json, { rooms: [] });
	});

	it('answers 400 to a limit too long to be a number of 1 to 200', T, async () => {
		await pairIn(server, {});
		for (const limit of LONG_LIMITS) {
			const res = await server.get(`/api/rooms?limit=${limit}`);
			assert.equal(res.status, 400, `expected limit=${limit} to answer 400, got ${res.status}: ${res.body.slice(0, 200)}`);
		}
	});
});

describe('GET /api/games', () => {
	const server = useServer();

	it('lists finished games newest first with names, result, moves and when they ended; no uids, no live games', T, async () => {
		const before = Date.now();
		const first = await finishedPair(server, { tc: '60+1' });
		const middle = Date.now();
		const second = await pairIn(server, { size: 13, rule: 'standard' }, { names: ['Cy', 'Di'] });
		await timedMoves(second, quietMoves(2, 13));
		second.back.send({ type: 'resign' });
		await bothNext(second, 'winner');
		const after = Date.now();
		const live = await pairIn(server, {}, { names: ['Ed', 'Flo'] });
		const uids = [first, second, live].flatMap((pair) => [pair.front.uid, pair.back.uid]);
		const { json } = await getJson(server, '/api/games', uids);
		assert.ok(Array.isArray(json.games), `expected {"games": [...]}, got ${JSON.stringify(json)}`);
		assert.deepEqual(json.games.map((game) => game.id), [second.room, first.room],
			`expected the finished games newest first, the live one left out, got ${JSON.stringify(json)}`);
		const [s, f] = json.games;
		assert.deepEqual({ ...s, ended: undefined }, {
			id: second.room, size: 13, rule: 'standard', tc: 'none',
			players: { front: { name: second.front.name }, back: { name: second.back.name } },
			result: { winner: 'front', reason: 'resign' }, moves: 2, ended: undefined,
		});
		assert.deepEqual({ ...f, ended: undefined }, {
			id: first.room, size: SIZE, rule: first.front.roleMessage.rule, tc: '60+1',
			players: { front: { name: first.front.name }, back: { name: first.back.name } },
			result: { winner: 'front', reason: 'five' }, moves: first.script.moves.length, ended: undefined,
		});
		for (const [game, low, high] of [[f, before, middle], [s, middle, after]]) {
			assert.match(game.ended, ISO_8601, `expected ended in ISO 8601, got ${game.ended}`);
			const at = Date.parse(game.ended);
			assert.ok(at >= low - 1000 && at <= high + 1000, `expected ended between ${new Date(low).toISOString()} and ` +
				`${new Date(high).toISOString()}, got ${game.ended}`);
		}
	});

	it('takes limit 1 to 200 (default 50) and answers 400 to any other', T, async () => {
		const rooms = [];
		for (let i = 0; i < 51; i++) {
			const pair = await pairIn(server, {});
			await timedMoves(pair, quietMoves(1, SIZE)); // a game is kept from its first move
			pair.front.send({ type: 'resign' });
			await bothNext(pair, 'winner');
			rooms.push(pair.room);
			await pair.front.close(1000);
			await pair.back.close(1000);
		}
		const listed = (await getJson(server, '/api/games?limit=200')).json.games.map((game) => game.id);
		assert.deepEqual(listed.slice(0, 51), rooms.slice().reverse(), 'expected the newest first');
		assert.equal((await getJson(server, '/api/games')).json.games.length, 50, 'expected 50 by default');
		assert.deepEqual((await getJson(server, '/api/games?limit=3')).json.games.map((game) => game.id), listed.slice(0, 3));
		assert.deepEqual((await getJson(server, '/api/games?limit=1')).json.games.map((game) => game.id), listed.slice(0, 1));
		for (const limit of BAD_LIMITS) {
			const res = await server.get(`/api/games?limit=${limit}`);
			assert.equal(res.status, 400, `expected limit=${limit} to answer 400, got ${res.status}: ${res.body}`);
		}
	});

	it('answers 400 to a limit too long to be a number of 1 to 200', T, async () => {
		for (const limit of LONG_LIMITS) {
			const res = await server.get(`/api/games?limit=${limit}`);
			assert.equal(res.status, 400, `expected limit=${limit} to answer 400, got ${res.status}: ${res.body.slice(0, 200)}`);
		}
	});
});

describe('GET /api/games and abandoned games', () => {
	it('leaves out a game that could not be resumed after a restart (abandoned)', T, async () => {
		const restartable = new RestartableServer({ args: ['--reconnect-grace', '60'] });
		let server = await restartable.start();
		try {
			const done = await pairIn(server, {}, { names: ['Ann', 'Bo'] });
			await timedMoves(done, quietMoves(1, SIZE));
			done.back.send({ type: 'resign' });
			await bothNext(done, 'winner');
			const live = await pairIn(server, {}, { names: ['Cy', 'Di'] });
			await timedMoves(live, quietMoves(2, SIZE));
			const { closeAllClients } = await import('./lib/client.mjs');
			await restartable.stop();
			await closeAllClients();
			// The live game's size is one the server cannot resume.
			await sqliteWrite(restartable.db, `UPDATE games SET size = 3 WHERE id = '${live.room}'`);
			server = await restartable.start();
			const { json } = await getJson(server, '/api/games', [done.front.uid, done.back.uid, live.front.uid, live.back.uid]);
			const record = await server.get(`/api/games/${live.room}`);
			assert.match(record.body, /abandoned/, `expected the live game closed as abandoned, got ${record.body}`);
			assert.deepEqual(json.games.map((game) => game.id), [done.room],
				`expected the abandoned game left out, got ${JSON.stringify(json)}`);
		} finally {
			await restartable.stop();
		}
	});
});

/** Runs one SQL statement on db with the sqlite3 command-line tool. */
async function sqliteWrite(db, sql) {
	const { execFile } = await import('node:child_process');
	await new Promise((resolve, reject) => {
		execFile('sqlite3', [db, sql], { timeout: 10_000 }, (err, stdout, stderr) => {
			if (err)
				reject(new Error(`sqlite3 ${db} "${sql}" failed: ${err.message} ${stderr}`));
			else
				resolve();
		});
	});
}
