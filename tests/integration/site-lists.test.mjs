// The site's lists with several instances on one real redis-server
// (--redis): /api/rooms, /api/pools and /api/games of any instance show
// the whole site, not the instance's own: every live public room once
// (never a private one, never a uid), the waiting players and games of
// each pool summed over the instances, the games finished on any
// instance (never a private one) and their records (replays) from every
// instance (a private one's from its own only); and an instance killed
// with kill -9
// drops out of them while its rooms, taken over, are listed once.

import { describe, it, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';

import { startServer, stopAll } from './lib/server.mjs';
import { closeAllClients, uuid, joinPlayer as join, DEFAULT_TIMEOUT_MS } from './lib/client.mjs';
import { playMoves, expectWinner, winningScript } from './lib/game.mjs';
import { fetchMetric, pollUntil } from './lib/observe.mjs';
import { Redis } from './lib/redis.mjs';
import { testTimeout, scaled } from './lib/time.mjs';

const T = testTimeout(120_000);
// The lists are refreshed every second; an instance killed drops out of
// them after its snapshot's 5 s, its rooms being taken over after its
// 1 s lease.
const LISTED_WITHIN_MS = scaled(15_000);

/** A pair: first waits on a, second joins on b. { front, back, room, uids }. */
async function pairAcross(a, b, query = {}, names = ['', '']) {
	const first = await join(a, names[0] ? { ...query, name: names[0] } : query, 'first player');
	await first.next('waiting');
	const second = await join(b, names[1] ? { ...query, name: names[1] } : query, 'second player');
	const roles = [await first.next('role', DEFAULT_TIMEOUT_MS, { skip: ['waiting'] }),
		await second.next('role', DEFAULT_TIMEOUT_MS, { skip: ['waiting'] })];
	assert.equal(roles[0].room, roles[1].room);
	first.role = roles[0].role;
	second.role = roles[1].role;
	const front = first.role === 'front' ? first : second;
	const back = first.role === 'front' ? second : first;
	return { first, second, front, back, room: roles[0].room, uids: [first.uid, second.uid] };
}

/** A private game: creator on a, guest with its code on b. */
async function invitedAcross(a, b) {
	const creator = await join(a, { invite: 'new', name: 'Secret' }, 'creator');
	const { code } = await creator.next('invite');
	const guest = await join(b, { invite: code, name: 'Hidden' }, 'guest');
	const roles = [await creator.next('role'), await guest.next('role')];
	creator.role = roles[0].role;
	guest.role = roles[1].role;
	const front = creator.role === 'front' ? creator : guest;
	const back = creator.role === 'front' ? guest : creator;
	return { front, back, room: roles[0].room, uids: [creator.uid, guest.uid] };
}

/** GET path of server as JSON (200 expected); its text too. */
async function getJson(server, path) {
	const res = await server.get(path);
	assert.equal(res.status, 200, `${path}: ${res.body}`);
	return { json: JSON.parse(res.body), text: res.body };
}

/** Asserts that a list has every id once. */
function assertOnce(entries, what) {
	const ids = entries.map((entry) => entry.id);
	assert.equal(new Set(ids).size, ids.length, `expected each of ${what} once: ${ids.join(', ')}`);
}

/**
 * Polls path of server until accept(json) is true, checking every answer
 * with check(json, text) meanwhile; the JSON that was accepted.
 */
function listedOn(server, path, accept, what, check = () => {}) {
	let last = '(none)';
	return pollUntil(async () => {
		const { json, text } = await getJson(server, path);
		check(json, text);
		last = text.trim();
		return accept(json) ? json : undefined;
	}, () => `${what} on ${path}; last: ${last}`, { timeoutMs: LISTED_WITHIN_MS, intervalMs: 100 });
}

describe('the site\'s lists on several instances', () => {
	const redis = new Redis();
	const servers = [];
	const ids = ['one', 'two', 'three'];

	before(async () => {
		await redis.start();
		for (const id of ids)
			servers.push(await startServer({ args: ['--redis', redis.url, '--instance-id', id,
				'--instance-lease', '1', '--reconnect-grace', '60'] }));
	});

	afterEach(async () => {
		await closeAllClients();
	});

	after(async () => {
		await closeAllClients();
		await stopAll(servers.filter((server) => !server.exited));
		await redis.close();
	});

	it('lists every instance\'s live public rooms on each instance, once each, without uids', T, async () => {
		const across = await pairAcross(servers[0], servers[1], {}, ['Ann', 'Bob']);
		const alone = await pairAcross(servers[2], servers[2], { size: 19 }, ['Cy', 'Di']);
		const secret = await invitedAcross(servers[1], servers[0]);
		across.front.send({ type: 'move', x: 7, y: 7 });
		await across.back.next('board', DEFAULT_TIMEOUT_MS, { skip: ['waiting'] });
		const uids = [...across.uids, ...alone.uids, ...secret.uids];
		for (const server of servers) {
			const { rooms } = await listedOn(server, '/api/rooms', ({ rooms }) => {
				const one = rooms.find((room) => room.id === across.room);
				return one && one.moves === 1 && rooms.some((room) => room.id === alone.room);
			}, `the rooms of one and three, with the move`, (json, text) => {
				assertOnce(json.rooms, 'the rooms');
				for (const uid of uids)
					assert.ok(!text.includes(uid), 'expected no uid in /api/rooms');
				assert.ok(!json.rooms.some((room) => room.id === secret.room),
					'expected the private room never listed');
			});
			const one = rooms.find((room) => room.id === across.room);
			assert.deepEqual({ size: one.size, rule: one.rule, tc: one.tc },
				{ size: 15, rule: 'freestyle', tc: 'none' });
			assert.deepEqual(new Set([one.players.front.name, one.players.back.name]),
				new Set(['Ann', 'Bob']));
			const three = rooms.find((room) => room.id === alone.room);
			assert.equal(three.size, 19);
			assert.equal(three.moves, 0);
			assert.match(three.started, /^\d{4}-\d\d-\d\dT/);
		}
		// limit cuts the site's list as it cuts an instance's.
		assert.equal((await getJson(servers[1], '/api/rooms?limit=1')).json.rooms.length, 1);
		assert.equal((await servers[1].get('/api/rooms?limit=0')).status, 400);
		// A game that ends drops out.
		alone.back.send({ type: 'resign' });
		await alone.front.next('winner');
		await listedOn(servers[0], '/api/rooms', ({ rooms }) => !rooms.some((room) => room.id === alone.room),
			'the finished game gone');
	});

	it('sums the waiting players and games of each pool over the instances', T, async () => {
		const pool = { size: 15, rule: 'freestyle', tc: '300+5' };
		const waiter = await join(servers[0], { tc: pool.tc }, 'waiting player');
		await waiter.next('waiting');
		const nineteen = await pairAcross(servers[2], servers[1], { size: 19 });
		const match = (entry, p) => entry.size === p.size && entry.rule === p.rule && entry.tc === p.tc;
		for (const server of servers) {
			const { pools } = await listedOn(server, '/api/pools', ({ pools }) =>
				pools.some((p) => match(p, pool) && p.waiting === 1) &&
				pools.some((p) => p.size === 19 && p.games === 1),
			'one waiting for 300+5 (on one) and a game of 19 (on three)');
			// The default pool first, always.
			assert.deepEqual({ ...pools[0], waiting: 0, games: 0 },
				{ size: 15, rule: 'freestyle', tc: 'none', waiting: 0, games: 0 });
			assert.equal(pools.filter((p) => match(p, pool)).length, 1);
		}
		// A player who stops waiting is no longer counted.
		await waiter.close();
		await listedOn(servers[1], '/api/pools', ({ pools }) => !pools.some((p) => match(p, pool)),
			'the pool no one uses gone');
		assert.ok(nineteen.room);
	});

	it('lists the games finished on any instance on every instance, private ones left out', T, async () => {
		const secret = await invitedAcross(servers[0], servers[1]);
		secret.front.send({ type: 'move', x: 7, y: 7 });
		await secret.back.next('board');
		secret.back.send({ type: 'resign' });
		await secret.front.next('winner', DEFAULT_TIMEOUT_MS, { skip: ['board'] });
		const pair = await pairAcross(servers[1], servers[2], {}, ['Eve', 'Fay']);
		const { moves, line } = winningScript({ size: 15, winner: 'back', direction: 'vertical',
			start: { x: 2, y: 4 } });
		await playMoves(pair, moves, { size: 15 });
		await expectWinner(pair, { winner: 'back', reason: 'five', line });
		for (const server of servers) {
			const { games } = await listedOn(server, '/api/games',
				({ games }) => games.some((game) => game.id === pair.room),
				'the game finished on two', (json, text) => {
					assertOnce(json.games, 'the games');
					assert.ok(!json.games.some((game) => game.id === secret.room),
						'expected the private game never listed');
					for (const uid of [...pair.uids, ...secret.uids])
						assert.ok(!text.includes(uid), 'expected no uid in /api/games');
				});
			const game = games.find((g) => g.id === pair.room);
			assert.deepEqual(game.result, { winner: 'back', reason: 'five' });
			assert.equal(game.moves, moves.length);
			assert.deepEqual({ size: game.size, rule: game.rule, tc: game.tc },
				{ size: 15, rule: 'freestyle', tc: 'none' });
			assert.equal(game.players[pair.front.role].name, pair.front === pair.first ? 'Eve' : 'Fay');
			assert.match(game.ended, /^\d{4}-\d\d-\d\dT/);
			assert.equal(games[0].id, pair.room, 'expected the newest first');
		}
		assert.equal((await getJson(servers[0], '/api/games?limit=1')).json.games.length, 1);
		// Its record (a replay) from every instance, as its own instance
		// has it; the private one's from its own instance only; an unknown
		// game is still 404.
		const own = JSON.parse((await servers[1].get(`/api/games/${pair.room}`)).body);
		assert.equal(own.status, 'finished');
		assert.equal(own.result.winner, 'back');
		assert.equal(own.moves.length, moves.length);
		for (const server of servers) {
			const record = await pollUntil(async () => {
				const res = await server.get(`/api/games/${pair.room}`);
				return res.status === 200 ? JSON.parse(res.body) : undefined;
			}, `the record of ${pair.room}`, { timeoutMs: LISTED_WITHIN_MS, intervalMs: 100 });
			assert.deepEqual(record, own);
			const none = await server.get(`/api/games/${uuid()}`);
			assert.equal(none.status, 404);
			assert.deepEqual(JSON.parse(none.body), { error: 'no such game' });
		}
		assert.ok(await fetchMetric(servers[0], 'gomoku_cluster_index_records') >= 1);
		assert.equal((await servers[0].get(`/api/games/${secret.room}`)).status, 200);
		assert.equal((await servers[2].get(`/api/games/${secret.room}`)).status, 404);
	});

	it('drops a killed instance out of the lists, and lists its rooms taken over once', T, async () => {
		const pair = await pairAcross(servers[2], servers[0], {}, ['Gus', 'Hal']);
		pair.front.send({ type: 'move', x: 3, y: 3 });
		await pair.back.next('board', DEFAULT_TIMEOUT_MS, { skip: ['waiting'] });
		await listedOn(servers[1], '/api/rooms', ({ rooms }) => rooms.some((room) => room.id === pair.room),
			'the room of three');
		await pollUntil(async () => (await fetchMetric(servers[1], 'gomoku_cluster_index_instances')) === 3 ?
			true : undefined, 'three instances in the lists', { timeoutMs: LISTED_WITHIN_MS, intervalMs: 100 });
		await servers[2].kill();
		// Taken over by one or two; listed once all along, by its new owner
		// once three's snapshot lapsed.
		await listedOn(servers[1], '/api/rooms',
			({ rooms }) => rooms.some((room) => room.id === pair.room && room.moves === 1),
			'the room taken over', (json) => assertOnce(json.rooms, 'the rooms'));
		await pollUntil(async () => (await fetchMetric(servers[1], 'gomoku_cluster_index_instances')) === 2 ?
			true : undefined, 'two instances left in the lists', { timeoutMs: LISTED_WITHIN_MS, intervalMs: 100 });
		const { rooms } = await listedOn(servers[0], '/api/rooms',
			({ rooms }) => rooms.some((room) => room.id === pair.room),
			'the room taken over', (json) => assertOnce(json.rooms, 'the rooms'));
		const room = rooms.find((r) => r.id === pair.room);
		assert.deepEqual(new Set([room.players.front.name, room.players.back.name]), new Set(['Gus', 'Hal']));
		assert.ok(await fetchMetric(servers[0], 'gomoku_cluster_index_refreshes_total') > 0);
	});
});
