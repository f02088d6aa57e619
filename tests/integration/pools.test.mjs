// Pools (PROTOCOL.md 10.1): the size, rule and time control a player
// asks for in its URL. Players are paired only within a pool; welcome
// carries the pool asked for and role the room's; bad values get
// bad_query and a 1008 close before any seat is looked up; GET /api/pools
// counts players waiting and games live per pool, with no uid and no
// name; mode=ai and --ai-fill-after play the engine in the pool asked for.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useServer, startServer } from './lib/server.mjs';
import { connectPlayer, uuid } from './lib/client.mjs';
import { emptyContent, withStone } from './lib/game.mjs';
import { connectAi, Position, naiveCell, expectEngineMove, playerMove } from './lib/ai.mjs';
import { pollUntil } from './lib/observe.mjs';
import {
	pairIn, waitIn, bothNext, expectRefusal, timedMove, parseTc, assertNoClockFields,
} from './lib/protocol2.mjs';
import { testTimeout, scaled } from './lib/time.mjs';

const T = testTimeout(30_000);
const DEFAULT_POOL = { size: 15, rule: 'freestyle', tc: 'none' };
const POOL_KEYS = ['games', 'rule', 'size', 'tc', 'waiting'];

/** Checks that a welcome or role names the pool { size, rule, tc }. */
function assertPool(message, pool, who) {
	const text = JSON.stringify(message);
	for (const key of ['size', 'rule', 'tc'])
		assert.equal(message[key], pool[key], `expected ${who}'s ${message.type}.${key} to be ` +
			`${JSON.stringify(pool[key])}, got ${text}`);
}

/** Checks the role of a room of pool: its settings and, when timed, full clocks. */
function assertRoomRole(role, pool, who) {
	assertPool(role, pool, who);
	if (pool.tc === 'none') {
		assertNoClockFields(role, who);
		return;
	}
	const { baseMs } = parseTc(pool.tc);
	assert.deepEqual(role.clock, { front: baseMs, back: baseMs },
		`expected ${who}'s role of a new ${pool.tc} room to carry both clocks at ${baseMs}, got ${JSON.stringify(role)}`);
	assert.ok(Number.isInteger(role.abort_in) && role.abort_in > 0 && role.abort_in <= 30_000,
		`expected ${who}'s role of a new timed room to carry abort_in within the default 30 s, got ${JSON.stringify(role)}`);
}

/** The pool list of GET /api/pools, parsed and checked for its shape. */
async function pools(server, secrets = []) {
	const res = await server.get('/api/pools');
	assert.equal(res.status, 200, `expected GET /api/pools to answer 200, got ${res.status}: ${res.body}`);
	assert.match(String(res.headers['content-type']), /application\/json/,
		`expected GET /api/pools to answer JSON, got ${res.headers['content-type']}`);
	for (const secret of secrets)
		assert.ok(!res.body.toLowerCase().includes(secret.toLowerCase()),
			`expected GET /api/pools never to show ${JSON.stringify(secret)}, got ${res.body}`);
	const body = JSON.parse(res.body);
	assert.deepEqual(Object.keys(body), ['pools'], `expected {"pools":[...]}, got ${res.body}`);
	assert.ok(Array.isArray(body.pools), `expected pools to be a list, got ${res.body}`);
	for (const entry of body.pools)
		assert.deepEqual(Object.keys(entry).sort(), POOL_KEYS,
			`expected each pool to have exactly size, rule, tc, waiting and games, got ${JSON.stringify(entry)}`);
	return body.pools;
}

function findPool(list, pool) {
	return list.find((entry) => entry.size === pool.size && entry.rule === pool.rule && entry.tc === pool.tc);
}

describe('pools', () => {
	const server = useServer();

	it('sends welcome with protocol 2 and the default pool when the URL names none', T, async () => {
		const player = await waitIn(server, {}, { label: 'player of no pool' });
		assert.equal(player.welcome.protocol, 2, `expected welcome.protocol 2, got ${JSON.stringify(player.welcome)}`);
		assertPool(player.welcome, DEFAULT_POOL, player.label);
	});

	it('sends welcome with the pool asked for', T, async () => {
		const pool = { size: 19, rule: 'standard', tc: '300+5' };
		const player = await waitIn(server, pool, { label: 'player of 19 standard 300+5' });
		assert.equal(player.welcome.protocol, 2);
		assertPool(player.welcome, pool, player.label);
	});

	it('pairs players only within their pool, and the role carries the room\'s size, rule and time control', T, async () => {
		const pools = [
			{ query: { size: 15, rule: 'freestyle', tc: 'none' }, pool: DEFAULT_POOL, partner: {} },
			{ query: { size: 19 }, pool: { size: 19, rule: 'freestyle', tc: 'none' }, partner: { size: 19, rule: 'freestyle', tc: 'none' } },
			{ query: { rule: 'standard' }, pool: { size: 15, rule: 'standard', tc: 'none' }, partner: { rule: 'standard', size: 15 } },
			{ query: { tc: '300+5' }, pool: { size: 15, rule: 'freestyle', tc: '300+5' }, partner: { tc: '300+5' } },
			{ query: { tc: '300+0' }, pool: { size: 15, rule: 'freestyle', tc: '300+0' }, partner: { tc: '300+0', size: 15 } },
		];
		// One player waits in each pool; none of them is paired with another.
		const waiting = [];
		for (const { query, pool } of pools) {
			const player = await waitIn(server, query, { label: `player waiting in ${JSON.stringify(query)}` });
			assertPool(player.welcome, pool, player.label);
			waiting.push(player);
		}
		for (const player of waiting)
			await player.expectNothing(100, 'while everyone else waits in another pool');
		const health = await server.health();
		assert.equal(health.players_waiting, pools.length,
			`expected ${pools.length} players waiting in ${pools.length} pools, got ${JSON.stringify(health)}`);

		// A partner per pool, named in its own words, is paired with the one waiting there.
		for (const [i, { partner, pool }] of pools.entries()) {
			const second = await connectPlayer(server, { uid: uuid(), ...partner }, { label: `partner in ${JSON.stringify(partner)}` });
			const welcome = await second.next('welcome');
			assertPool(welcome, pool, second.label);
			const secondRole = await second.next('role', undefined, { skip: ['waiting'] });
			const firstRole = await waiting[i].next('role');
			assert.equal(secondRole.room, firstRole.room, 'expected the partner in the room of the player of its pool');
			assertRoomRole(firstRole, pool, waiting[i].label);
			assertRoomRole(secondRole, pool, second.label);
			for (const other of waiting.slice(i + 1))
				await other.expectNothing(0, 'while a player of another pool is paired');
		}
	});

	it('plays a game of the pool\'s size: the far corner is a cell, one beyond is out_of_range, boards have size² cells', T, async () => {
		const pair = await pairIn(server, { size: 19 });
		const { board } = await timedMove(pair, { x: 18, y: 18, role: 'front' });
		assert.deepEqual(board.content, withStone(emptyContent(19), 19, 18, 18, 'front'),
			`expected a 361-cell board with front's stone at (18,18), got ${JSON.stringify(board)}`);
		await expectRefusal(pair.back, { type: 'move', x: 19, y: 0 }, 'out_of_range');
		await timedMove(pair, { x: 0, y: 18, role: 'back' });
	});

	it('plays a game of the pool\'s rule: under standard an overline does not win, an exact five does', T, async () => {
		const pair = await pairIn(server, { rule: 'standard' });
		// front: (0..2,7) and (4,5,7) then (3,7) makes six; back plays row 0 far apart.
		const moves = [
			{ x: 0, y: 7, role: 'front' }, { x: 0, y: 0, role: 'back' },
			{ x: 1, y: 7, role: 'front' }, { x: 2, y: 0, role: 'back' },
			{ x: 2, y: 7, role: 'front' }, { x: 4, y: 0, role: 'back' },
			{ x: 4, y: 7, role: 'front' }, { x: 6, y: 0, role: 'back' },
			{ x: 5, y: 7, role: 'front' }, { x: 8, y: 0, role: 'back' },
			{ x: 3, y: 7, role: 'front' }, // six in a row: no win under standard
			{ x: 10, y: 0, role: 'back' },
			{ x: 3, y: 8, role: 'front' }, { x: 12, y: 0, role: 'back' },
			{ x: 3, y: 9, role: 'front' }, { x: 14, y: 0, role: 'back' },
			{ x: 3, y: 10, role: 'front' }, { x: 14, y: 2, role: 'back' },
			{ x: 3, y: 11, role: 'front' }, // (3,7)..(3,11): exactly five
		];
		for (const move of moves)
			await timedMove(pair, move);
		const winner = await bothNext(pair, 'winner');
		assert.equal(winner.winner, 'front');
		assert.equal(winner.reason, 'five');
		assert.equal(winner.line.length, 5, `expected the exact five (3,7)..(3,11), got ${JSON.stringify(winner)}`);
		assert.ok(winner.line.every((cell) => cell.x === 3), `expected the vertical five, got ${JSON.stringify(winner)}`);
	});

	const BAD_QUERIES = [
		['size', '4'], ['size', '26'], ['size', '0'], ['size', '-15'], ['size', 'abc'], ['size', ''],
		['size', '15.5'], ['size', '15x15'], ['size', '99999999999999999999'],
		['rule', 'Renju'], ['rule', 'renju '], ['rule', 'gomoku'], ['rule', ''], ['rule', 'freestyle2'],
		['tc', '9+0'], ['tc', '0+0'], ['tc', '10801+0'], ['tc', '300+181'], ['tc', '300'], ['tc', '300+'],
		['tc', '+5'], ['tc', 'abc'], ['tc', ''], ['tc', '300-5'], ['tc', '-10+0'], ['tc', '300+5+1'],
		['tc', '300+-1'], ['tc', '300+0.5'], ['tc', '99999999999999999999+0'],
	];
	for (const [parameter, value] of BAD_QUERIES) {
		it(`answers ${parameter}=${JSON.stringify(value)} with bad_query naming ${parameter} as the only message, then closes with 1008`, T, async () => {
			const player = await connectPlayer(server, { uid: uuid(), [parameter]: value },
				{ label: `player with ${parameter}=${JSON.stringify(value)}` });
			const error = await player.next('error');
			assert.equal(error.code, 'bad_query', `expected error bad_query, got ${JSON.stringify(error)}`);
			assert.ok(typeof error.message === 'string' && error.message.includes(parameter),
				`expected the bad_query message to name the parameter ${parameter}, got ${JSON.stringify(error)}`);
			const { code } = await player.waitClosed();
			assert.equal(code, 1008, `expected close code 1008 after bad_query, got ${code}`);
			assert.equal(player.received.length, 1, `expected bad_query to be the only message, got:\n    ${player.history()}`);
			const health = await server.health();
			assert.equal(health.players_waiting, 0, `expected no seat for a refused player, got ${JSON.stringify(health)}`);
		});
	}

	for (const query of [{ size: 5 }, { size: 25 }, { tc: '10+0' }, { tc: '10800+180' }, { tc: 'none' }, { rule: 'standard' }, { rule: 'freestyle' }, { rule: 'renju' }]) {
		it(`accepts the edge value ${JSON.stringify(query)}`, T, async () => {
			const player = await waitIn(server, query, { label: `player with ${JSON.stringify(query)}` });
			assertPool(player.welcome, { ...DEFAULT_POOL, ...query }, player.label);
		});
	}

	it('checks the pool before the seat: a seated uid with a bad size gets bad_query and its game goes on', T, async () => {
		const pair = await pairIn(server);
		await timedMove(pair, { x: 7, y: 7, role: 'front' });
		const intruder = await connectPlayer(server, { uid: pair.front.uid, size: '3' }, { label: 'front\'s uid with size=3' });
		const error = await intruder.next('error');
		assert.equal(error.code, 'bad_query', `expected bad_query, got ${JSON.stringify(error)}`);
		assert.equal((await intruder.waitClosed()).code, 1008);
		assert.ok(pair.front.isOpen, 'expected front\'s own connection to stay open');
		await pair.front.expectNothing(0, 'after a refused connection with its uid');
		await timedMove(pair, { x: 8, y: 8, role: 'back' });
	});

	it('resumes a seated uid in its room whatever pool the new URL names', T, async () => {
		const pair = await pairIn(server);
		await timedMove(pair, { x: 7, y: 7, role: 'front' });
		const again = await connectPlayer(server, { uid: pair.back.uid, size: 19, rule: 'standard', tc: '300+5' },
			{ label: 'back again, naming another pool' });
		await again.next('welcome');
		const role = await again.next('role');
		assert.equal(role.room, pair.room, `expected the seat's room, got ${JSON.stringify(role)}`);
		assert.equal(role.role, 'back');
		assertPool(role, DEFAULT_POOL, again.label);
		assertNoClockFields(role, again.label);
		const board = await again.next('board');
		assert.equal(board.moves, 1);
		assert.equal((await pair.back.waitClosed()).code, 4001, 'expected the old connection replaced (4001)');
	});

	it('lists the default pool and every pool with a player waiting or a game live in GET /api/pools, with no uid and no name', T, async () => {
		const waitingPool = { size: 19, rule: 'standard', tc: '180+2' };
		const livePool = { size: 9, rule: 'freestyle', tc: 'none' };
		const aiPool = { size: 11, rule: 'standard', tc: '60+1' };
		const empty = await pools(server);
		const defaultEntry = findPool(empty, DEFAULT_POOL);
		assert.deepEqual(defaultEntry, { ...DEFAULT_POOL, waiting: 0, games: 0 },
			`expected the default pool listed, empty, on an idle server, got ${JSON.stringify(empty)}`);
		assert.equal(empty.length, 1, `expected only the default pool on an idle server, got ${JSON.stringify(empty)}`);

		const loner = await waitIn(server, { ...waitingPool, name: 'Zed' }, { label: 'Zed waiting' });
		const pair = await pairIn(server, livePool, { names: ['Ann', 'Bob'] });
		const engineGame = await connectAi(server, { ...aiPool, name: 'Cy' });
		const secrets = [loner.uid, pair.front.uid, pair.back.uid, engineGame.uid, 'Zed', 'Ann', 'Bob', '"Cy"'];
		const list = await pools(server, secrets);
		assert.deepEqual(findPool(list, DEFAULT_POOL), { ...DEFAULT_POOL, waiting: 0, games: 0 },
			`expected the default pool still listed, got ${JSON.stringify(list)}`);
		assert.deepEqual(findPool(list, waitingPool), { ...waitingPool, waiting: 1, games: 0 },
			`expected one player waiting in ${JSON.stringify(waitingPool)}, got ${JSON.stringify(list)}`);
		assert.deepEqual(findPool(list, livePool), { ...livePool, waiting: 0, games: 1 },
			`expected one live game in ${JSON.stringify(livePool)}, got ${JSON.stringify(list)}`);
		assert.deepEqual(findPool(list, aiPool), { ...aiPool, waiting: 0, games: 1 },
			`expected the engine game counted in ${JSON.stringify(aiPool)}, got ${JSON.stringify(list)}`);
		assert.equal(list.length, 4, `expected exactly 4 pools listed, got ${JSON.stringify(list)}`);

		// Once everyone left, only the default pool is listed again.
		await Promise.all([loner, pair.front, pair.back, engineGame].map((client) => client.close(1000)));
		await pollUntil(async () => {
			const now = await pools(server);
			return now.length === 1 && findPool(now, DEFAULT_POOL) ? now : undefined;
		}, 'GET /api/pools to list only the default pool once everyone left');
	});
});

describe('pools against the engine', () => {
	const server = useServer({ args: ['--ai-ms', '50'] });

	it('plays mode=ai in the pool asked for: role says size, rule and clock, the engine plays on that board', T, async () => {
		const pool = { size: 9, rule: 'standard', tc: '60+1' };
		const player = await connectAi(server, { ...pool, updates: 'move' });
		assertPool(player.welcome, pool, player.label);
		assertRoomRole(player.roleMessage, pool, player.label);
		assert.deepEqual(player.roleMessage.opponent, { ai: true, level: 'medium' });
		const position = new Position(9);
		const bound = scaled(5000);
		if (player.engineRole === 'front')
			await expectEngineMove(player, position, { startedAt: player.roleAt, boundMs: bound });
		for (let i = 0; i < 4; i++) {
			await playerMove(player, position, naiveCell(position));
			const { board } = await expectEngineMove(player, position, { boundMs: bound });
			assert.ok(board.move.x < 9 && board.move.y < 9, `expected the engine to play on the 9 x 9 board, got ${JSON.stringify(board)}`);
			assert.ok(board.clock && Number.isInteger(board.clock.front), `expected a timed engine game's board to carry clock, got ${JSON.stringify(board)}`);
		}
	});

	it('fills a pool\'s queue with the engine of that pool under --ai-fill-after', T, async () => {
		// Its own server: the fill must not take the other tests' players.
		const fill = await startServer({ args: ['--ai-fill-after', '1', '--ai-ms', '50'] });
		try {
			const pool = { size: 7, rule: 'standard', tc: '30+0' };
			const player = await waitIn(fill, pool, { label: 'player waiting in 7 standard 30+0' });
			const role = await player.next('role', scaled(5000));
			assertRoomRole(role, pool, player.label);
			assert.equal(role.opponent && role.opponent.ai, true, `expected the engine as the opponent, got ${JSON.stringify(role)}`);
			await player.close(1000);
		} finally {
			await fill.stop();
		}
	});

	it('gives an engine game of the default pool a role with no clock and no abort_in', T, async () => {
		const player = await connectAi(server, {});
		assertPool(player.roleMessage, DEFAULT_POOL, player.label);
		assertNoClockFields(player.roleMessage, player.label);
	});
});
