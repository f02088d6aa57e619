// Several instances of one site on a real redis-server (--redis): players
// on different instances are paired through the shared queue and play
// whole games (every message type a game has), the owner of the room
// being the waiting player's instance; a player resumes its seat from any
// instance; a spectator on a third instance watches it; an invite's
// guest on another instance plays its creator; a waiting player
// who leaves is paired with nobody; a uid that connects again elsewhere
// while waiting takes the place of its older connection; many players
// joining at once over three instances are each paired exactly once; and
// a player waiting alone is given the engine after --ai-fill-after.

import { describe, it, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';

import { startServer, stopAll } from './lib/server.mjs';
import { connectPlayer, closeAllClients, uuid, joinPlayer as join, DEFAULT_TIMEOUT_MS } from './lib/client.mjs';
import { playMoves, expectWinner, winningScript } from './lib/game.mjs';
import { fetchMetric, pollUntil } from './lib/observe.mjs';
import { Redis } from './lib/redis.mjs';
import { testTimeout, scaled } from './lib/time.mjs';

const T = testTimeout(120_000);
const SIZE = 15;

/**
 * A pair across two instances: first waits on a, second joins on b; both
 * get their role in one room. { first, second, front, back, room }.
 */
async function pairAcross(a, b, query = {}) {
	const first = await join(a, query, 'first player');
	await first.next('waiting');
	const second = await join(b, query, 'second player');
	second.roleMessage = await second.next('role', DEFAULT_TIMEOUT_MS, { skip: ['waiting'] });
	first.roleMessage = await first.next('role', DEFAULT_TIMEOUT_MS, { skip: ['waiting'] });
	assert.equal(first.roleMessage.room, second.roleMessage.room, 'expected one room for both');
	assert.notEqual(first.roleMessage.role, second.roleMessage.role);
	first.role = first.roleMessage.role;
	second.role = second.roleMessage.role;
	const front = first.role === 'front' ? first : second;
	const back = first.role === 'front' ? second : first;
	return { first, second, front, back, room: first.roleMessage.room };
}

describe('several instances on one Redis', () => {
	const redis = new Redis();
	let servers = [];

	before(async () => {
		await redis.start();
		for (const id of ['one', 'two', 'three'])
			servers.push(await startServer({ args: ['--redis', redis.url, '--instance-id', id,
				'--reconnect-grace', '30'] }));
	});

	afterEach(async () => {
		await closeAllClients();
	});

	after(async () => {
		await closeAllClients();
		await stopAll(servers);
		await redis.close();
	});

	it('pairs players on two instances and plays a whole game to a five', T, async () => {
		const pair = await pairAcross(servers[0], servers[1]);
		const { moves, line } = winningScript({ size: SIZE, winner: 'front', direction: 'horizontal',
			start: { x: 3, y: 3 } });
		await playMoves(pair, moves, { size: SIZE });
		await expectWinner(pair, { winner: 'front', reason: 'five', line });
		// The room is the waiting player's instance's.
		const owner = JSON.parse((await servers[0].get('/healthz')).body);
		assert.equal(owner.rooms, 1);
		assert.ok(await fetchMetric(servers[0], 'gomoku_cluster_remote_players') >= 1);
		assert.ok(await fetchMetric(servers[1], 'gomoku_cluster_relayed_sessions') >= 1);
	});

	it('relays offers, answers, emotes, resigns and errors both ways', T, async () => {
		const pair = await pairAcross(servers[1], servers[2]);
		pair.front.send({ type: 'move', x: 7, y: 7 });
		await pair.front.next('board');
		await pair.back.next('board');
		// An error goes to the sender only, from the owner.
		pair.back.send({ type: 'move', x: 7, y: 7 });
		const refused = await pair.back.next('error');
		assert.equal(refused.code, 'occupied');
		// A takeback offered and accepted.
		pair.front.send({ type: 'offer', what: 'takeback' });
		assert.equal((await pair.back.next('offer')).what, 'takeback');
		await pair.front.next('offer');
		pair.back.send({ type: 'answer', what: 'takeback', accept: true });
		await pair.front.next('answer');
		await pair.back.next('answer');
		const undone = await pair.back.next('board');
		assert.equal(undone.moves, 0);
		await pair.front.next('board');
		// An emote, and a resignation.
		pair.back.send({ type: 'emote', emote: 'gg' });
		const seen = await pair.front.next('emote');
		assert.equal(seen.emote, 'gg');
		pair.back.send({ type: 'resign' });
		const over = await pair.front.next('winner');
		assert.equal(over.winner, pair.front.role);
		assert.equal(over.reason, 'resign');
	});

	it('resumes a seat from another instance after the socket drops', T, async () => {
		const pair = await pairAcross(servers[0], servers[2]);
		pair.front.send({ type: 'move', x: 5, y: 5 });
		await pair.front.next('board');
		await pair.back.next('board');
		await pair.back.terminate();
		await pair.front.next('opponent_away');
		// Back comes back through the third instance, a stranger to it.
		const again = await join(servers[1], { uid: pair.back.uid }, 'back again');
		const role = await again.next('role');
		assert.equal(role.room, pair.room);
		assert.equal(role.role, 'back');
		const board = await again.next('board');
		assert.equal(board.moves, 1);
		await pair.front.next('opponent_back');
		again.send({ type: 'move', x: 6, y: 6 });
		assert.equal((await pair.front.next('board')).moves, 2);
		assert.equal((await again.next('board')).moves, 2);
	});

	it('takes the seat over from a second connection of the same uid on another instance', T, async () => {
		const pair = await pairAcross(servers[1], servers[0]);
		const newer = await join(servers[2], { uid: pair.front.uid }, 'newer front');
		assert.equal((await newer.next('role')).room, pair.room);
		const closed = await pair.front.closed;
		assert.equal(closed.code, 4001);
	});

	it('pairs nobody with a waiting player who left, and lets a uid waiting elsewhere be replaced', T, async () => {
		const gone = await join(servers[0], {}, 'leaver');
		await gone.next('waiting');
		gone.close(1000);
		await gone.closed;
		await pollUntil(async () => (Number(redis.cli(['LLEN', `gomoku:queue:${SIZE}:freestyle:none`]).trim()) === 0
			? true : undefined), 'the queue to be empty', { timeoutMs: scaled(5000) });

		const waiter = await join(servers[1], {}, 'waiter');
		await waiter.next('waiting');
		const again = await join(servers[2], { uid: waiter.uid }, 'waiter again');
		await again.next('waiting');
		assert.equal((await waiter.closed).code, 4001);
		// The queue holds the newer connection only: the next player meets it.
		const third = await join(servers[0], {}, 'third');
		const role = await third.next('role', DEFAULT_TIMEOUT_MS, { skip: ['waiting'] });
		const theirs = await again.next('role');
		assert.equal(role.room, theirs.room);
	});

	it('lets a spectator on a third instance watch a game across two, to its end', T, async () => {
		const pair = await pairAcross(servers[0], servers[1]);
		pair.front.send({ type: 'move', x: 7, y: 7 });
		await pair.front.next('board');
		await pair.back.next('board');
		const spectator = await connectPlayer(servers[2], { watch: pair.room }, { label: 'spectator' });
		const welcome = await spectator.next('welcome');
		assert.equal('uid' in welcome, false);
		assert.equal((await spectator.next('spectate')).room, pair.room);
		assert.equal((await spectator.next('board')).moves, 1);
		assert.deepEqual(await pair.front.next('spectators'), { type: 'spectators', count: 1 });
		assert.deepEqual(await pair.back.next('spectators'), { type: 'spectators', count: 1 });
		pair.back.send({ type: 'move', x: 8, y: 8 });
		assert.equal((await spectator.next('board')).moves, 2);
		pair.front.send({ type: 'resign' });
		const over = await spectator.next('winner', DEFAULT_TIMEOUT_MS, { skip: ['board'] });
		assert.equal(over.winner, 'back');
		for (const { text } of spectator.received)
			for (const uid of [pair.front.uid, pair.back.uid])
				assert.ok(!text.includes(uid), `expected the spectator never to see a uid, got ${text}`);
		// A spectator leaving is counted out by the owner.
		spectator.close(1000);
		await spectator.closed;
		assert.deepEqual(await pair.back.next('spectators', DEFAULT_TIMEOUT_MS, { skip: ['board', 'winner'] }),
			{ type: 'spectators', count: 0 });
	});

	it('refuses a spectator of a room no instance holds with no_such_room and 1008', T, async () => {
		const spectator = await connectPlayer(servers[1], { watch: uuid() }, { label: 'spectator of nothing' });
		const error = await spectator.next('error', DEFAULT_TIMEOUT_MS, { skip: ['welcome'] });
		assert.equal(error.code, 'no_such_room');
		assert.equal((await spectator.waitClosed()).code, 1008);
	});

	it('seats a friend with an invite code from another instance against its creator, and refuses a code no instance holds', T, async () => {
		const creator = await join(servers[2], { invite: 'new' }, 'creator');
		const { code } = await creator.next('invite');
		const guest = await join(servers[0], { invite: code }, 'guest');
		const guestRole = await guest.next('role');
		const creatorRole = await creator.next('role');
		assert.equal(guestRole.room, creatorRole.room);
		assert.notEqual(guestRole.role, creatorRole.role);
		const front = guestRole.role === 'front' ? guest : creator;
		const back = front === guest ? creator : guest;
		front.send({ type: 'move', x: 2, y: 2 });
		assert.equal((await back.next('board')).moves, 1);
		assert.equal((await front.next('board')).moves, 1);
		// The code is used: another guest, elsewhere, is refused.
		const late = await join(servers[1], { invite: code }, 'late guest');
		assert.equal((await late.next('error')).code, 'no_such_invite');
		assert.equal((await late.waitClosed()).code, 1008);
		const bogus = await connectPlayer(servers[1], { uid: uuid(), invite: 'AAAAAAAAAAAA' }, { label: 'bogus guest' });
		assert.equal((await bogus.next('error', DEFAULT_TIMEOUT_MS, { skip: ['welcome'] })).code, 'no_such_invite');
		assert.equal((await bogus.waitClosed()).code, 1008);
	});

	it('pairs each of many players joining at once over three instances exactly once', T, async () => {
		const count = Number(process.env.GOMOKU_TEST_CLUSTER_PLAYERS || 1000);
		const clients = await Promise.all(Array.from({ length: count }, (_, i) =>
			join(servers[i % 3], {}, `player ${i}`)));
		const roles = await Promise.all(clients.map((client) =>
			client.next('role', scaled(30_000), { skip: ['waiting'] })));
		const rooms = new Map();
		for (const [i, role] of roles.entries()) {
			const seated = rooms.get(role.room) || [];
			seated.push({ i, role: role.role });
			rooms.set(role.room, seated);
		}
		assert.equal(rooms.size, count / 2, 'expected every player in a room of two');
		for (const seated of rooms.values()) {
			assert.equal(seated.length, 2);
			assert.notEqual(seated[0].role, seated[1].role);
		}
		// Nobody is left in a queue.
		assert.equal(Number(redis.cli(['LLEN', `gomoku:queue:${SIZE}:freestyle:none`]).trim()), 0);
	});
});

describe('the engine filling in for a player waiting in the site\'s queue (--ai-fill-after)', () => {
	const redis = new Redis();
	let servers = [];

	before(async () => {
		await redis.start();
		for (const id of ['fill-one', 'fill-two'])
			servers.push(await startServer({ args: ['--redis', redis.url, '--instance-id', id,
				'--ai-fill-after', '1', '--ai-fill-level', 'beginner'] }));
	});

	after(async () => {
		await closeAllClients();
		await stopAll(servers);
		await redis.close();
	});

	it('seats a player who waited alone against the engine, and takes it out of the queue', T, async () => {
		const alone = await join(servers[1], {}, 'alone');
		await alone.next('waiting');
		const role = await alone.next('role', scaled(10_000));
		assert.equal(role.opponent && role.opponent.ai, true, 'expected the engine as the opponent');
		assert.equal(Number(redis.cli(['LLEN', `gomoku:queue:${SIZE}:freestyle:none`]).trim()), 0);
		// The next player waits: nobody is left to pair it with.
		const next = await join(servers[0], {}, 'next');
		await next.next('waiting');
		await closeAllClients();
	});
});

describe('an instance that dies (kill -9), its lease lapsing', () => {
	const redis = new Redis();
	let servers = [];

	before(async () => {
		await redis.start();
		for (const id of ['stays', 'relay-dies', 'owner-dies'])
			servers.push(await startServer({ args: ['--redis', redis.url, '--instance-id', id,
				'--instance-lease', '1', '--reconnect-grace', '30'] }));
	});

	after(async () => {
		await closeAllClients();
		await stopAll([servers[0]]);
		await redis.close();
	});

	it('tells the owner\'s player that the opponent is away when the relay dies, and closes a relayed player with 1012 when the owner dies', T, async () => {
		// The owner (the waiting player's instance) stays; the relay dies.
		const kept = await pairAcross(servers[0], servers[1]);
		await servers[1].kill();
		const away = await kept.first.next('opponent_away', scaled(15_000));
		assert.equal(away.seconds, 30);

		// The relay stays; the owner dies.
		const orphaned = await pairAcross(servers[2], servers[0]);
		await servers[2].kill();
		const closed = await orphaned.second.waitClosed(scaled(15_000));
		assert.equal(closed.code, 1012);
	});
});
