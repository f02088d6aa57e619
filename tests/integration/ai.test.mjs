// Playing the computer: mode=ai at each level, the engine's moves as
// ordinary boards within --ai-ms, the role's opponent, bad_mode, resuming
// and leaving an engine game, /metrics for the engine, --ai-fill-after,
// external engines (--ai-engine): our own pbrain-gomoku, and fake ones
// that cannot start, exit, crash or stay silent, which lose the game by
// forfeit; stopping with engine games going on, and a restart, which
// engine games do not survive.
//
// One suite per behaviour; over 600 lines because each level, each fill and
// each misbehaving engine has a test of its own.

import { describe, it, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';

import { useServer, startServer, stopAll } from './lib/server.mjs';
import {
	connectPlayer, connectWaiting, connectPair, closeAllClients, sendTogether, uuid, otherRole,
	UUID_PATTERN,
} from './lib/client.mjs';
import { playMoves, winningScript } from './lib/game.mjs';
import { sleep, rejoin, getGame, RestartableServer } from './lib/resume.mjs';
import { parseMetrics, fetchMetric, pollUntil, childPids } from './lib/observe.mjs';
import {
	LEVELS, pbrainBin, fakeEnginePath, engineOpponent, connectAi, connectAiAs, assertNoUidLeak,
	Position, naiveCell, expectEngineMove, playerMove, playToTheEnd,
} from './lib/ai.mjs';
import { testTimeout, scaled } from './lib/time.mjs';

const T = testTimeout(30_000);
const SIZE = 15;
const AI_MS = 100; // --ai-ms of every server of this file
// How long an engine move may take: --ai-ms and generous slack for a busy
// machine (scaled, like every deadline). Not a benchmark: only an engine
// that ignores --ai-ms fails it.
const BOUND_MS = AI_MS + scaled(1900);
const GRACE = 2; // --reconnect-grace of the main server, seconds

/** Checks a role against the engine at level: the fields, exactly. */
function assertEngineRole(client, level) {
	const role = client.roleMessage;
	const text = JSON.stringify(role);
	assert.deepEqual(Object.keys(role).sort(), ['opponent', 'role', 'room', 'rule', 'size', 'tc', 'type'],
		`expected a role against the engine (untimed) to have exactly type, role, room, size, rule, tc and opponent, got ${text}`);
	assert.equal(role.tc, 'none', `expected role.tc "none" (the default), got ${text}`);
	assert.ok(['front', 'back'].includes(role.role), `expected role front or back, got ${text}`);
	assert.match(role.room, UUID_PATTERN, `expected the room id to be a UUID, got ${text}`);
	assert.notEqual(role.room, client.uid, 'expected the room id not to be the player\'s uid');
	assert.equal(role.size, SIZE, `expected role.size ${SIZE}, got ${text}`);
	assert.equal(role.rule, 'freestyle', `expected role.rule "freestyle", got ${text}`);
	assert.deepEqual(role.opponent, engineOpponent(level),
		`expected role.opponent to be ${JSON.stringify(engineOpponent(level))}, got ${text}`);
}

/** Resolves once /metrics shows gomoku_ai_games at value. */
function waitForAiGames(server, value) {
	let last;
	return pollUntil(async () => {
		last = await fetchMetric(server, 'gomoku_ai_games');
		return last === value ? last : undefined;
	}, () => `/metrics to show gomoku_ai_games ${value}, it stayed at ${last}`);
}

/** Resolves once the server process has no child process left. */
function waitForNoChildren(server, timeoutMs = scaled(5000)) {
	let last;
	return pollUntil(() => {
		last = childPids(server.child.pid);
		return last.length === 0 ? last : undefined;
	}, () => `the server to have no engine process left, it still had ${JSON.stringify(last)}`,
	{ timeoutMs });
}

describe('playing the computer', () => {
	const server = useServer({ args: ['--ai-ms', String(AI_MS), '--reconnect-grace', String(GRACE)] },
		{ settleTimeoutMs: GRACE * 1000 + 5000 });

	const UPDATES = { easy: 'move', medium: undefined, hard: 'move' };
	for (const level of LEVELS) {
		const boards = UPDATES[level] ? 'compact boards (updates=move)' : 'full boards';
		it(`plays a whole game at ${level} with ${boards}: a legal engine move on an empty cell within --ai-ms each time, then the winner${level === 'hard' ? ', the engine' : ''}`, T, async () => {
			const player = await connectAi(server, { level, updates: UPDATES[level] });
			assertEngineRole(player, level);
			const position = new Position(SIZE);
			const { winner, engineBoards } = await playToTheEnd(player, position, { boundMs: BOUND_MS });
			assert.ok(engineBoards.length > 0, 'expected the engine to have moved');
			if (UPDATES[level])
				assert.ok(engineBoards.every(({ board }) => !('content' in board)),
					'expected compact engine boards (no content) for a client that asked for updates=move');
			else
				assert.ok(engineBoards.every(({ board }) => Array.isArray(board.content)),
					'expected full engine boards for a client that did not ask for updates=move');
			if (level === 'hard')
				assert.equal(winner.winner, player.engineRole,
					`expected the engine at hard to beat a player who never threatens, got ${JSON.stringify(winner)}`);
			await player.expectNothing(AI_MS * 3, 'after the winner message (the engine thinks no more)');
			const cell = naiveCell(position);
			player.move(cell.x, cell.y);
			const error = await player.next('error');
			assert.equal(error.code, 'game_over', `expected a move after the end to get game_over, got ${JSON.stringify(error)}`);
			assertNoUidLeak(player);
		});
	}

	for (const level of ['easy', 'medium']) {
		it(`does not replay the same game at ${level} when the player does: its near-equal moves are picked at random`, T, async () => {
			// The engine plays black, so each game starts from an empty board;
			// the player answers with the same naive moves every time.
			const games = [];
			for (let game = 0; game < 3; game++) {
				const player = await connectAiAs(server, 'front', { level });
				const position = new Position(SIZE);
				const engineMoves = [];
				while (!position.result() && engineMoves.length < 6) {
					if (position.toMove === player.role)
						await playerMove(player, position, naiveCell(position));
					else
						engineMoves.push((await expectEngineMove(player, position, { boundMs: BOUND_MS })).board.move);
				}
				games.push(JSON.stringify(engineMoves.map(({ x, y }) => [x, y])));
				await player.close(1000);
			}
			assert.ok(new Set(games).size > 1, `expected the ${level} engine to vary its game, it played ${games.join(' three times, and ')}`);
		});

		it(`answers a move taken back and played again the same way at ${level}: the random choice is the game's own (its seed)`, T, async () => {
			// Against the centre, easy and medium have several near-equal
			// replies: a choice made afresh for each search would differ.
			const player = await connectAiAs(server, 'back', { level });
			const position = new Position(SIZE);
			const centre = { x: 7, y: 7 };
			const replies = [];
			for (let round = 0; round < 4; round++) {
				const sentAt = await playerMove(player, position, centre);
				replies.push((await expectEngineMove(player, position, { startedAt: sentAt, boundMs: BOUND_MS })).board.move);
				player.send({ type: 'offer', what: 'takeback' });
				position.undo(await player.next('board'), 'player (the reply taken back)');
				position.undo(await player.next('board'), 'player (its move taken back)');
			}
			assert.equal(new Set(replies.map(({ x, y }) => `${x},${y}`)).size, 1,
				`expected the same reply each time, got ${JSON.stringify(replies)}`);
		});
	}

	it('plays medium when mode=ai names no level', T, async () => {
		const player = await connectAi(server);
		assertEngineRole(player, 'medium');
	});

	it('moves first as front without the player moving, within --ai-ms', T, async () => {
		const player = await connectAiAs(server, 'front', { level: 'hard' });
		assert.equal(player.role, 'back');
		const position = new Position(SIZE);
		const { board } = await expectEngineMove(player, position, { startedAt: player.roleAt, boundMs: BOUND_MS });
		assert.equal(board.moves, 1, `expected the engine's first board to count 1 move, got ${JSON.stringify(board)}`);
		assert.deepEqual(board.content.filter((cell) => cell !== ''), ['front'],
			`expected one front stone on the board, got ${JSON.stringify(board)}`);
		// The player answers and the engine replies again.
		const sentAt = await playerMove(player, position, naiveCell(position));
		await expectEngineMove(player, position, { startedAt: sentAt, boundMs: BOUND_MS });
	});

	it('waits for the player\'s first move when the player is front', T, async () => {
		const player = await connectAiAs(server, 'back', { level: 'easy' });
		assert.equal(player.role, 'front');
		await player.expectNothing(AI_MS * 4, 'before its first move (the engine is back)');
		const position = new Position(SIZE);
		const sentAt = await playerMove(player, position, { x: 7, y: 7 });
		await expectEngineMove(player, position, { startedAt: sentAt, boundMs: BOUND_MS });
	});

	it('refuses a second move while the engine is to move with not_your_turn', T, async () => {
		// At hard the engine takes its whole --ai-ms over its first answer.
		const player = await connectAiAs(server, 'back', { level: 'hard' });
		const position = new Position(SIZE);
		sendTogether(player, [{ type: 'move', x: 0, y: 0 }, { type: 'move', x: 2, y: 0 }]);
		position.play(await player.next('board'), 'front', 'player');
		const error = await player.next('error');
		assert.equal(error.code, 'not_your_turn', `expected not_your_turn, got ${JSON.stringify(error)}`);
		const board = await player.next('board', BOUND_MS);
		position.play(board, 'back', 'player (the engine\'s move)');
	});

	const BAD_QUERIES = [
		{ mode: 'robot' },
		{ mode: 'AI' },
		{ mode: '' },
		{ mode: 'ai', level: 'expert' },
		{ mode: 'ai', level: 'Hard' },
		{ mode: 'ai', level: '' },
		{ mode: 'ai', level: 'x'.repeat(40) },
		{ level: 'nightmare' },
		{ mode: 'online', level: 'impossible' },
	];
	for (const query of BAD_QUERIES) {
		it(`answers ${JSON.stringify(query)} with bad_mode as the only message, then closes with 1008`, T, async () => {
			const player = await connectPlayer(server, { uid: uuid(), ...query });
			const error = await player.next('error');
			assert.equal(error.code, 'bad_mode', `expected error bad_mode, got ${JSON.stringify(error)}`);
			const { code } = await player.waitClosed();
			assert.equal(code, 1008, `expected close code 1008 after bad_mode, got ${code}`);
			assert.equal(player.received.length, 1,
				`expected bad_mode to be the only message, got:\n    ${player.history()}`);
			const health = await server.health();
			assert.equal(health.players_waiting, 0, `expected no seat for a refused player, got ${JSON.stringify(health)}`);
			assert.equal(health.rooms, 0, `expected no room for a refused player, got ${JSON.stringify(health)}`);
		});
	}

	it('matches mode=online players with each other, as with no mode', T, async () => {
		const pair = await connectPair(server, {
			firstQuery: { mode: 'online', name: 'Ann' }, secondQuery: { mode: 'online' },
		});
		assert.deepEqual(pair.second.roleMessage.opponent, { name: 'Ann' },
			`expected a person as the opponent, got ${JSON.stringify(pair.second.roleMessage)}`);
		assert.equal(pair.first.roleMessage.opponent, undefined,
			`expected no opponent field for a nameless person, got ${JSON.stringify(pair.first.roleMessage)}`);
	});

	it('lets a lone online player wait on when --ai-fill-after is not given', T, async () => {
		const player = await connectWaiting(server);
		await player.expectNothing(1500, 'while waiting (no --ai-fill-after)');
	});

	it('resumes an engine game for a player who drops: role, the whole board with the engine\'s reply, and play goes on', T, async () => {
		const player = await connectAi(server, { level: 'medium', updates: 'move', name: 'Eve' });
		player.name = 'Eve';
		const position = new Position(SIZE);
		if (player.engineRole === 'front')
			await expectEngineMove(player, position, { boundMs: BOUND_MS });
		let sentAt = await playerMove(player, position, naiveCell(position));
		await expectEngineMove(player, position, { startedAt: sentAt, boundMs: BOUND_MS });
		// The player moves and drops at once: the engine answers while it is away.
		await playerMove(player, position, naiveCell(position));
		await player.terminate();
		await sleep(AI_MS + 400);

		const again = await rejoin(server, player);
		const role = await again.next('role');
		assert.equal(role.room, player.roleMessage.room, `expected the same room on resume, got ${JSON.stringify(role)}`);
		assert.equal(role.role, player.role, `expected the same side on resume, got ${JSON.stringify(role)}`);
		assert.deepEqual(role.opponent, engineOpponent('medium'),
			`expected the resumed role to name the engine, got ${JSON.stringify(role)}`);
		const board = await again.next('board');
		assert.ok(Array.isArray(board.content),
			`expected the resumed board to carry the whole position (even for updates=move), got ${JSON.stringify(board)}`);
		again.role = player.role;
		again.engineRole = player.engineRole;
		if (board.moves === position.moves) {
			// The engine had not answered yet: the position is the one left.
			assert.deepEqual(board.content, position.content, 'expected the resumed board to be the position left');
			await expectEngineMove(again, position, { boundMs: BOUND_MS });
		} else {
			position.play(board, player.engineRole, 'the returning player (the engine\'s reply while away)');
		}
		// Play goes on.
		const cell = naiveCell(position);
		sentAt = Date.now();
		again.move(cell.x, cell.y);
		position.play(await again.next('board'), player.role);
		await expectEngineMove(again, position, { startedAt: sentAt, boundMs: BOUND_MS });
		assertNoUidLeak(again);
	});

	// The engine is never away: a resume is welcome, role, board and
	// nothing else.
	it('sends a player who resumes an engine game no opponent_away', T, async () => {
		const player = await connectAiAs(server, 'back', { level: 'easy' });
		const position = new Position(SIZE);
		const sentAt = await playerMove(player, position, { x: 7, y: 7 });
		await expectEngineMove(player, position, { startedAt: sentAt, boundMs: BOUND_MS });
		await player.terminate();
		const again = await rejoin(server, player);
		await again.next('role');
		await again.next('board');
		await again.expectNothing(300, 'after the resumed board (the engine is never away)');
	});

	it('gives up an engine game when the dropped player does not come back within the grace', T, async () => {
		const player = await connectAi(server, { level: 'easy' });
		const health = await server.health();
		assert.equal(health.rooms, 1, `expected one room, got ${JSON.stringify(health)}`);
		assert.equal(await fetchMetric(server, 'gomoku_ai_games'), 1, 'expected gomoku_ai_games 1 during the game');
		await player.terminate();
		await waitForAiGames(server, 0);
		await server.settle({ timeoutMs: GRACE * 1000 + 3000 });
		// The uid has no seat any more: it is seated anew.
		const fresh = await connectWaiting(server, { uid: player.uid });
		await fresh.expectNothing(200, 'after waiting (the old game is gone)');
	});

	it('ends the room when the player leaves with 1000: gomoku_ai_games goes back to 0', T, async () => {
		const before = await fetchMetric(server, 'gomoku_ai_games');
		assert.equal(before, 0, 'expected no engine game before the test');
		const player = await connectAi(server, { level: 'easy' });
		const position = new Position(SIZE);
		if (player.engineRole === 'front')
			await expectEngineMove(player, position, { boundMs: BOUND_MS });
		await playerMove(player, position, naiveCell(position));
		assert.equal(await fetchMetric(server, 'gomoku_ai_games'), 1, 'expected gomoku_ai_games 1 during the game');
		await player.close(1000);
		await waitForAiGames(server, 0);
		await server.settle();
	});

	it('keeps games against the engine out of the database: /api/games/ROOM answers 404 as for an unknown id', T, async () => {
		const player = await connectAi(server, { level: 'easy' });
		const position = new Position(SIZE);
		if (player.engineRole === 'front')
			await expectEngineMove(player, position, { boundMs: BOUND_MS });
		const sentAt = await playerMove(player, position, naiveCell(position));
		await expectEngineMove(player, position, { startedAt: sentAt, boundMs: BOUND_MS });
		const res = await getGame(server, player.roleMessage.room, { secrets: [player.uid] });
		assert.equal(res.status, 404,
			`expected GET /api/games/ID of an engine game to answer 404, got ${res.status}: ${res.body}`);
	});

	it('plays two engine games at once without mixing their boards', T, async () => {
		const [one, two] = await Promise.all([
			connectAi(server, { level: 'hard', updates: 'move' }, { label: 'first player against the engine' }),
			connectAi(server, { level: 'medium' }, { label: 'second player against the engine' }),
		]);
		assert.notEqual(one.roleMessage.room, two.roleMessage.room, 'expected two rooms');
		assertEngineRole(one, 'hard');
		assertEngineRole(two, 'medium');
		const [first, second] = await Promise.all([
			playToTheEnd(one, new Position(SIZE), { boundMs: BOUND_MS * 2, startedAt: one.roleAt }),
			playToTheEnd(two, new Position(SIZE), { boundMs: BOUND_MS * 2, startedAt: two.roleAt }),
		]);
		assert.equal(first.winner.winner, one.engineRole, 'expected the engine at hard to win the first game');
		assert.ok(second.engineBoards.length > 0, 'expected the engine to move in the second game');
		assertNoUidLeak(one, [one.uid, two.uid]);
		assertNoUidLeak(two, [one.uid, two.uid]);
	});

	it('resumes an online seat whatever mode says: a waiting seat and a seat in a game', T, async () => {
		const waiting = await connectWaiting(server);
		const takeover = await connectPlayer(server, { uid: waiting.uid, mode: 'ai' }, { label: 'waiting player again, mode=ai' });
		await takeover.nextAll(['welcome', 'waiting']);
		assert.equal((await waiting.waitClosed()).code, 4001, 'expected the old connection to be replaced (4001)');
		await takeover.expectNothing(200, 'after waiting (no engine game for a seat that waits)');
		await takeover.close(1000);
		await server.settle();

		const pair = await connectPair(server, { firstQuery: { name: 'Ann' } });
		const again = await connectPlayer(server, { uid: pair.second.uid, mode: 'ai', level: 'hard' },
			{ label: 'second player again, mode=ai' });
		await again.next('welcome');
		const role = await again.next('role');
		assert.equal(role.room, pair.room, `expected the seat's room, got ${JSON.stringify(role)}`);
		assert.equal(role.role, pair.second.role, `expected the seat's side, got ${JSON.stringify(role)}`);
		assert.deepEqual(role.opponent, { name: 'Ann' }, `expected the person as the opponent, got ${JSON.stringify(role)}`);
		assert.equal(await fetchMetric(server, 'gomoku_ai_games'), 0, 'expected no engine game');
	});
});

describe('engine metrics', () => {
	const server = useServer({ args: ['--ai-ms', String(AI_MS)] });

	it('counts engine games and every engine move in the gomoku_ai_move_seconds histogram', T, async () => {
		const metrics = async () => {
			const res = await server.get('/metrics');
			assert.equal(res.status, 200, `expected GET /metrics to answer 200, got ${res.status}`);
			return res.body;
		};
		const text = await metrics();
		for (const [name, type] of [['gomoku_ai_games', 'gauge'], ['gomoku_ai_matches_total', 'counter'],
			['gomoku_ai_failures_total', 'counter'], ['gomoku_ai_move_seconds', 'histogram'],
			['gomoku_takebacks_total', 'counter']])
			assert.match(text, new RegExp(`^# TYPE ${name} ${type}$`, 'm'), `expected a # TYPE line for ${name} ${type}, got:\n${text}`);
		const before = parseMetrics(text);
		const bucketNames = [...before.keys()].filter((name) => name.startsWith('gomoku_ai_move_seconds_bucket{'));
		const bounds = bucketNames.map((name) => /le="([^"]+)"/.exec(name)[1]);
		assert.equal(bounds[bounds.length - 1], '+Inf', `expected the last bucket to be le="+Inf", got ${bounds}`);
		const finite = bounds.slice(0, -1).map(Number);
		assert.ok(finite.length > 0 && finite.every((bound, i) => Number.isFinite(bound) && (i === 0 || bound > finite[i - 1])),
			`expected the bucket bounds in ascending order, got ${bounds}`);
		assert.equal(before.get('gomoku_ai_games'), 0);
		assert.equal(before.get('gomoku_ai_move_seconds_count'), 0, 'expected no engine move yet on a fresh server');

		const player = await connectAi(server, { level: 'medium' });
		const during = parseMetrics(await metrics());
		assert.equal(during.get('gomoku_ai_games'), 1, 'expected gomoku_ai_games 1 during an engine game');
		assert.equal(during.get('gomoku_ai_matches_total'), before.get('gomoku_ai_matches_total') + 1,
			'expected gomoku_ai_matches_total to count the engine game');
		const { engineBoards } = await playToTheEnd(player, new Position(SIZE), { boundMs: BOUND_MS });

		const afterGame = parseMetrics(await metrics());
		const count = afterGame.get('gomoku_ai_move_seconds_count');
		assert.equal(count, engineBoards.length,
			`expected gomoku_ai_move_seconds_count to be the ${engineBoards.length} engine moves, got ${count}`);
		assert.equal(afterGame.get('gomoku_ai_move_seconds_bucket{le="+Inf"}'), count,
			'expected the +Inf bucket to hold every engine move');
		const counts = bucketNames.map((name) => afterGame.get(name));
		assert.ok(counts.every((value, i) => i === 0 || value >= counts[i - 1]),
			`expected cumulative bucket counts, got ${counts}`);
		const sum = afterGame.get('gomoku_ai_move_seconds_sum');
		assert.ok(sum > 0 && sum <= count * BOUND_MS / 1000,
			`expected gomoku_ai_move_seconds_sum between 0 and ${count * BOUND_MS / 1000} s, got ${sum}`);
		assert.equal(afterGame.get('gomoku_ai_failures_total'), 0, 'expected no engine failure');
		assert.equal(afterGame.get('gomoku_ai_games'), 1, 'expected the finished game to count until the player leaves');

		await player.close(1000);
		await waitForAiGames(server, 0);
	});
});

describe('--ai-fill-after', () => {
	const server = useServer({ args: ['--ai-fill-after', '1', '--ai-fill-level', 'easy', '--ai-ms', String(AI_MS)] });
	const servers = []; // started by a test

	after(async () => {
		await stopAll(servers.splice(0));
	});

	it('matches a lone waiting player with the engine after about a second', T, async () => {
		const player = await connectWaiting(server, { name: 'Solo' });
		const waitedFrom = Date.now();
		await player.expectNothing(600, 'during the first part of the second it waits');
		const role = await player.next('role', scaled(4000));
		const waitedMs = Date.now() - waitedFrom;
		assert.ok(waitedMs >= 800 && waitedMs <= scaled(3500),
			`expected the engine to take the seat about 1 s after the player started waiting, it took ${waitedMs} ms`);
		player.roleMessage = role;
		player.role = role.role;
		player.engineRole = otherRole(role.role);
		player.roleAt = Date.now();
		assertEngineRole(player, 'easy');
		// The game is played like any engine game.
		const position = new Position(SIZE);
		if (player.engineRole === 'front')
			await expectEngineMove(player, position, { startedAt: player.roleAt, boundMs: BOUND_MS });
		const sentAt = await playerMove(player, position, naiveCell(position));
		await expectEngineMove(player, position, { startedAt: sentAt, boundMs: BOUND_MS });
		assert.equal(await fetchMetric(server, 'gomoku_ai_games'), 1, 'expected gomoku_ai_games to count the filled game');
		assertNoUidLeak(player);
	});

	it('matches two players who connect together with each other, not with the engine', T, async () => {
		const pair = await connectPair(server, { firstQuery: { name: 'Ann' }, secondQuery: { name: 'Bo' } });
		assert.deepEqual(pair.first.roleMessage.opponent, { name: 'Bo' },
			`expected the first player to play Bo, got ${JSON.stringify(pair.first.roleMessage)}`);
		assert.deepEqual(pair.second.roleMessage.opponent, { name: 'Ann' },
			`expected the second player to play Ann, got ${JSON.stringify(pair.second.roleMessage)}`);
		await pair.first.expectNothing(1500, 'after being matched with a person (past the fill time)');
		await pair.second.expectNothing(0, 'after being matched with a person (past the fill time)');
		assert.equal(await fetchMetric(server, 'gomoku_ai_games'), 0, 'expected no engine game');
		await playMoves(pair, winningScript({ size: SIZE, winner: 'front', direction: 'horizontal', start: { x: 2, y: 2 } })
			.moves.slice(0, 2), { size: SIZE });
	});

	it('fills with the engine at medium when --ai-fill-level is not given', T, async () => {
		const medium = await startServer({ args: ['--ai-fill-after', '1', '--ai-ms', String(AI_MS)] });
		servers.push(medium);
		const player = await connectWaiting(medium);
		const role = await player.next('role', 4000);
		assert.deepEqual(role.opponent, engineOpponent('medium'),
			`expected the engine at medium to take the seat, got ${JSON.stringify(role)}`);
	});
});

describe('--ai-engine pbrain-gomoku', () => {
	const server = useServer({ args: ['--ai-engine', pbrainBin, '--ai-ms', String(AI_MS)] });
	// After useServer()'s afterEach: once the lobby is empty.
	afterEach(async () => {
		await waitForNoChildren(server);
	});

	it('plays a whole game through the external engine, one process for the game', T, async () => {
		const countBefore = await fetchMetric(server, 'gomoku_ai_move_seconds_count');
		const player = await connectAi(server, { level: 'hard', updates: 'move' });
		assertEngineRole(player, 'hard');
		const position = new Position(SIZE);
		if (player.engineRole === 'front')
			await expectEngineMove(player, position, { startedAt: player.roleAt, boundMs: BOUND_MS });
		const sentAt = await playerMove(player, position, naiveCell(position));
		await expectEngineMove(player, position, { startedAt: sentAt, boundMs: BOUND_MS });
		const children = childPids(server.child.pid);
		assert.equal(children.length, 1, `expected one engine process for one game, got ${JSON.stringify(children)}`);
		const { winner, engineBoards } = await playToTheEnd(player, position, { boundMs: BOUND_MS, startedAt: Date.now() });
		assert.equal(winner.winner, player.engineRole,
			`expected pbrain-gomoku to beat a player who never threatens, got ${JSON.stringify(winner)}`);
		const countAfter = await fetchMetric(server, 'gomoku_ai_move_seconds_count');
		assert.ok(countAfter >= countBefore + engineBoards.length + 1,
			`expected gomoku_ai_move_seconds_count to grow by the ${engineBoards.length + 1} or more engine moves, ` +
			`got ${countBefore} then ${countAfter}`);
		assert.equal(await fetchMetric(server, 'gomoku_ai_failures_total'), 0, 'expected no engine failure');
		await player.close(1000);
		await waitForNoChildren(server);
	});

	it('plays on after a takeback: the external engine answers the position after it', T, async () => {
		const player = await connectAiAs(server, 'back', { level: 'medium' });
		const position = new Position(SIZE);
		let sentAt = await playerMove(player, position, { x: 7, y: 7 });
		await expectEngineMove(player, position, { startedAt: sentAt, boundMs: BOUND_MS });
		player.send({ type: 'offer', what: 'takeback' });
		position.undo(await player.next('board'), 'player (the engine\'s reply taken back)');
		position.undo(await player.next('board'), 'player (its own move taken back)');
		// A move, and a takeback before the engine can answer: the answer
		// to the position taken back must not be played.
		sendTogether(player, [{ type: 'move', x: 0, y: 0 }, { type: 'offer', what: 'takeback' }]);
		position.play(await player.next('board'), 'front');
		position.undo(await player.next('board'), 'player (its move taken back while the engine thinks)');
		await player.expectNothing(AI_MS * 3, 'after taking back the move the engine was thinking about');
		sentAt = await playerMove(player, position, { x: 14, y: 14 });
		await expectEngineMove(player, position, { startedAt: sentAt, boundMs: BOUND_MS });
	});
});

// The fake engines: each one fails when it is first asked for a move,
// and a path where there is no program at all.
const FAILING_ENGINES = {
	'cannot be started': 'no-such-engine',
	'exits when asked for a move': 'engine-exits-on-board.sh',
	'dies of SIGSEGV when asked for a move': 'engine-crashes-on-board.sh',
	'never answers': 'engine-silent-on-board.sh',
};

describe('--ai-engine that fails', () => {
	const servers = {};
	for (const [how, file] of Object.entries(FAILING_ENGINES))
		servers[how] = useServer({ args: ['--ai-engine', fakeEnginePath(file), '--ai-ms', String(AI_MS)] }, { settle: false });

	// A silent engine has --ai-ms and a margin of a second to answer.
	const FORFEIT_BOUND_MS = AI_MS + 1000 + scaled(3000);

	/** One game against the failing engine: it must lose by forfeit. */
	async function expectEngineForfeit(server, label) {
		const player = await connectAi(server, { level: 'hard' }, { label });
		let askedAt = player.roleAt;
		if (player.role === 'front') {
			player.move(7, 7);
			const board = await player.next('board');
			assert.deepEqual(board.move, { x: 7, y: 7, role: 'front' }, `expected the player's own board, got ${JSON.stringify(board)}`);
			askedAt = Date.now();
		}
		const winner = await player.next('winner', FORFEIT_BOUND_MS);
		const elapsedMs = Date.now() - askedAt;
		assert.deepEqual(winner, { type: 'winner', winner: player.role, reason: 'forfeit' },
			`expected the player (${player.role}) to win by forfeit with no line, got ${JSON.stringify(winner)}`);
		assert.ok(elapsedMs <= FORFEIT_BOUND_MS, `expected the forfeit within ${FORFEIT_BOUND_MS} ms, it took ${elapsedMs} ms`);
		player.move(0, 0);
		const error = await player.next('error');
		assert.equal(error.code, 'game_over', `expected a move after the forfeit to get game_over, got ${JSON.stringify(error)}`);
		return player;
	}

	for (const how of Object.keys(FAILING_ENGINES)) {
		it(`gives the player the win by forfeit when the engine ${how}, counts the failure and serves the next games`, T, async () => {
			const server = servers[how];
			const failuresBefore = await fetchMetric(server, 'gomoku_ai_failures_total');
			const first = await expectEngineForfeit(server, 'first player against the failing engine');
			assert.equal(await fetchMetric(server, 'gomoku_ai_failures_total'), failuresBefore + 1,
				'expected gomoku_ai_failures_total to count the failed game');
			const health = await server.health();
			assert.equal(health.status, 'ok', `expected the server to stay up, got ${JSON.stringify(health)}`);
			await first.close(1000);

			// A new game gets a new engine process, which fails the same way.
			await expectEngineForfeit(server, 'second player against the failing engine');
			assert.equal(await fetchMetric(server, 'gomoku_ai_failures_total'), failuresBefore + 2,
				'expected gomoku_ai_failures_total to count both failed games');
			// Two people still play.
			const pair = await connectPair(server);
			await playMoves(pair, [{ x: 7, y: 7, role: 'front' }, { x: 8, y: 8, role: 'back' }], { size: SIZE });
			await closeAllClients();
			await server.settle();
			assert.equal(await fetchMetric(server, 'gomoku_ai_games'), 0, 'expected no engine game once the players left');
			await waitForNoChildren(server);
		});
	}
});

/** Resolves once none of pids is a live process. */
function waitForGone(pids, what) {
	return pollUntil(() => (pids.every((pid) => {
		try {
			process.kill(pid, 0);
			return false;
		} catch {
			return true; // gone
		}
	}) ? true : undefined), `${what} (${pids}) to be gone`);
}

describe('stopping with engine games going on', () => {
	afterEach(async () => {
		await closeAllClients();
	});

	it('exits with 0 on SIGTERM and leaves no engine process behind: an idle pbrain-gomoku, a silent engine that thinks', T, async () => {
		// pbrain-gomoku has answered and waits: the player is to move.
		const idle = await startServer({ args: ['--ai-engine', pbrainBin, '--ai-ms', String(AI_MS)] });
		const player = await connectAiAs(idle, 'back', { level: 'easy' });
		const position = new Position(SIZE);
		const sentAt = await playerMove(player, position, { x: 7, y: 7 });
		await expectEngineMove(player, position, { startedAt: sentAt, boundMs: BOUND_MS });
		// A silent engine is asked for a move it never gives.
		const silent = await startServer({
			args: ['--ai-engine', fakeEnginePath('engine-silent-on-board.sh'), '--ai-ms', '60000'],
		});
		const waiting = await connectAiAs(silent, 'front', { level: 'easy' });
		const engines = [];
		for (const server of [idle, silent])
			engines.push(...await pollUntil(() => {
				const pids = childPids(server.child.pid);
				return pids.length === 1 ? pids : undefined;
			}, `one engine process under the server on port ${server.port}`));

		await stopAll([idle, silent]); // fails unless both exit with 0
		for (const client of [player, waiting]) {
			const { code } = await client.waitClosed();
			assert.equal(code, 1001, `expected ${client.label} to be closed with 1001 on SIGTERM, got ${code}`);
		}
		await waitForGone(engines, 'the engine processes after the servers stopped');
	});

	// On SIGTERM the players' sessions close and keep their seats (the
	// games resume after a restart); an engine move that lands during the
	// shutdown must not be sent to a closed session.
	it('exits with 0 on SIGTERM while the engine is about to move', T, async () => {
		const rounds = [];
		for (let delayMs = 30; delayMs <= 55; delayMs += 5)
			rounds.push({ args: ['--ai-ms', '60'], delayMs, engine: 'the built-in engine' });
		for (let i = 0; i < 3; i++)
			rounds.push({ args: ['--ai-engine', pbrainBin, '--ai-ms', '3000'], delayMs: 0, engine: 'pbrain-gomoku' });
		for (const { args, delayMs, engine } of rounds) {
			const server = await startServer({ args });
			const player = await connectAiAs(server, 'back', { level: 'hard' });
			player.move(7, 7);
			await player.next('board');
			await sleep(delayMs); // SIGTERM while the engine thinks
			await assert.doesNotReject(server.stop(),
				`expected the server to exit with 0 on SIGTERM while ${engine} thinks (${delayMs} ms after the move)`);
			await closeAllClients();
		}
	});
});

describe('engine games across a restart', () => {
	let restartable;

	after(async () => {
		await closeAllClients();
		if (restartable)
			await restartable.stop();
	});

	it('does not bring an engine game back after a restart: the uid is seated anew', T, async () => {
		restartable = new RestartableServer({ args: ['--reconnect-grace', '10', '--ai-ms', String(AI_MS)] });
		let server = await restartable.start();
		const player = await connectAi(server, { level: 'easy' });
		const position = new Position(SIZE);
		if (player.engineRole === 'front')
			await expectEngineMove(player, position, { boundMs: BOUND_MS });
		const sentAt = await playerMove(player, position, naiveCell(position));
		await expectEngineMove(player, position, { startedAt: sentAt, boundMs: BOUND_MS });
		await restartable.stop();
		await player.waitClosed();
		server = await restartable.start();
		const health = await server.health();
		assert.equal(health.players_away, 0, `expected no seat kept for an engine game after the restart, got ${JSON.stringify(health)}`);
		const again = await connectWaiting(server, { uid: player.uid });
		await again.expectNothing(300, 'after waiting (no engine game to resume)');
		const res = await getGame(server, player.roleMessage.room);
		assert.equal(res.status, 404, `expected no record of the engine game, got ${res.status}: ${res.body}`);
	});
});

describe('--ai-threads', () => {
	const servers = [];
	afterEach(async () => {
		await closeAllClients();
	});
	after(async () => {
		await stopAll(servers.splice(0));
	});

	/** The threads of a running server process (/proc/PID/task). */
	function threadsOf(server) {
		return fs.readdirSync(`/proc/${server.child.pid}/task`).length;
	}

	it('starts that many search threads, and games are played on them', T, async () => {
		const one = await startServer({ args: ['--ai-ms', String(AI_MS), '--ai-threads', '1'] });
		const three = await startServer({ args: ['--ai-ms', String(AI_MS), '--ai-threads', '3'] });
		servers.push(one, three);
		assert.equal(threadsOf(three) - threadsOf(one), 2,
			`expected --ai-threads 3 to run two threads more than --ai-threads 1 (${threadsOf(three)} against ${threadsOf(one)})`);
		const players = await Promise.all([0, 1, 2].map(() => connectAiAs(three, 'back', { level: 'easy' })));
		await Promise.all(players.map(async (player) => {
			const position = new Position(SIZE);
			const sentAt = await playerMove(player, position, { x: 7, y: 7 });
			await expectEngineMove(player, position, { startedAt: sentAt, boundMs: BOUND_MS });
		}));
	});
});
