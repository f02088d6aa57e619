// Private games by invite link (PROTOCOL.md 8.6): ?invite=new gets, after
// welcome, {"type":"invite","code":C} (12 characters of base64url) instead
// of waiting, and again when its uid comes back while still waiting; the
// first player with ?invite=C plays it (random sides, the creator's pool;
// the joiner's size, rule, tc and mode=ai are ignored); an unknown,
// malformed or used code gets error no_such_invite as the only message and
// close 1008, unless the uid holds a seat, which it resumes; the code dies
// when its creator leaves or is matched; a creator is never paired from
// the pools' queues, never filled with the engine, not counted as
// waiting; private rooms (and their rematches) are not in /api/rooms but
// can be watched by id, unless the creator asked for listed=1 (only 1
// counts; the joiner's listed is ignored); a private game stays private
// after a restart and is left out of /api/games once finished (its record
// is still at /api/games/ID); more than --max-invites-per-ip open invite=new
// sessions from one address get rate_limited, close 1008, until one
// closes. No uid of one player ever reaches the other.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useServer } from './lib/server.mjs';
import {
	Client, connectPlayer, connectWaiting, connectPair, playerUrl, uuid, otherRole, DEFAULT_TIMEOUT_MS,
} from './lib/client.mjs';
import { winningScript } from './lib/game.mjs';
import { pollUntil } from './lib/observe.mjs';
import { RestartableServer } from './lib/resume.mjs';
import { bothNext, timedMoves, quietMoves, metricsOf, seat } from './lib/protocol2.mjs';
import { testTimeout, scaled } from './lib/time.mjs';

const T = testTimeout(30_000);
const CODE_PATTERN = /^[A-Za-z0-9_-]{12}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A random well-formed code (72 bits: never one the server made). */
function guessCode() {
	let code = '';
	for (let i = 0; i < 12; i++)
		code += ALPHABET[Math.floor(Math.random() * 64)];
	return code;
}

/**
 * Opens an invite (?invite=new plus query): takes welcome and invite,
 * checks the invite's shape; resolves with the client, carrying .uid,
 * .welcome and .code.
 */
async function createInvite(server, query = {}, label = 'creator') {
	const uid = 'uid' in query ? query.uid : uuid();
	const client = await connectPlayer(server, { ...query, uid, invite: 'new' }, { label });
	client.uid = uid;
	client.welcome = await client.next('welcome');
	assert.equal(client.welcome.uid, uid, `expected the creator's own uid in its welcome, got ${JSON.stringify(client.welcome)}`);
	const invite = await client.next('invite');
	assert.deepEqual(Object.keys(invite).sort(), ['code', 'type'],
		`expected the invite to carry exactly type and code, got ${JSON.stringify(invite)}`);
	assert.match(invite.code, CODE_PATTERN, `expected a code of 12 base64url characters, got ${JSON.stringify(invite)}`);
	client.code = invite.code;
	return client;
}

/**
 * Comes with ?invite=code (plus query): takes welcome and role; resolves
 * with the client, carrying .uid, .welcome, .roleMessage and .role.
 */
async function joinInvite(server, code, query = {}, label = 'joiner') {
	const uid = 'uid' in query ? query.uid : uuid();
	const client = await connectPlayer(server, { ...query, uid, invite: code }, { label });
	client.uid = uid;
	client.welcome = await client.next('welcome');
	client.roleMessage = await client.next('role');
	client.role = client.roleMessage.role;
	return client;
}

/**
 * A private pair: creator (creatorQuery) and joiner (joinerQuery) matched
 * by the code; checks both roles and resolves with { creator, joiner,
 * front, back, room, first, second } (first: the creator).
 */
async function privatePair(server, { creatorQuery = {}, joinerQuery = {} } = {}) {
	const creator = await createInvite(server, creatorQuery);
	const joiner = await joinInvite(server, creator.code, joinerQuery);
	creator.roleMessage = await creator.next('role');
	creator.role = creator.roleMessage.role;
	assert.equal(creator.role, otherRole(joiner.role),
		`expected opposite sides, got ${JSON.stringify(creator.roleMessage)} and ${JSON.stringify(joiner.roleMessage)}`);
	assert.ok(['front', 'back'].includes(creator.role), `expected front or back, got ${JSON.stringify(creator.roleMessage)}`);
	assert.equal(creator.roleMessage.room, joiner.roleMessage.room, 'expected both in one room');
	const front = creator.role === 'front' ? creator : joiner;
	const back = creator.role === 'front' ? joiner : creator;
	front.label = `front (${front === creator ? 'creator' : 'joiner'})`;
	back.label = `back (${back === creator ? 'creator' : 'joiner'})`;
	return { creator, joiner, front, back, first: creator, second: joiner, room: creator.roleMessage.room };
}

/**
 * Comes with query (an invite among it) and expects error code as the
 * only message, then close 1008.
 */
async function expectRefused(server, query, code, label = 'refused player') {
	const client = await connectPlayer(server, { uid: uuid(), ...query }, { label });
	const closed = await client.waitClosed();
	assert.equal(closed.code, 1008,
		`expected ${label} (${JSON.stringify(query)}) to be closed with 1008, got ${JSON.stringify(closed)}; ` +
		`it received:\n    ${client.history()}`);
	const messages = client.received.map((entry) => entry.message);
	assert.equal(messages.length, 1,
		`expected error ${code} as the only message to ${label} (${JSON.stringify(query)}), got:\n    ${client.history()}`);
	assert.equal(messages[0].type, 'error', `expected an error, got ${client.history()}`);
	assert.equal(messages[0].code, code, `expected error ${code} for ${JSON.stringify(query)}, got ${client.history()}`);
	assert.equal(typeof messages[0].message, 'string', 'expected the error to carry a message');
	return client;
}

/** Asserts that none of client's messages holds any of uids. */
function assertNoUids(client, uids) {
	for (const { text } of client.received)
		for (const uid of uids)
			assert.ok(!text.toLowerCase().includes(uid.toLowerCase()),
				`expected ${client.label} never to see another player's uid (${uid}), got ${text}`);
}

/** GET path: 200 and JSON. */
async function getJson(server, path) {
	const res = await server.get(path);
	assert.equal(res.status, 200, `expected GET ${path} to answer 200, got ${res.status}: ${res.body}`);
	return JSON.parse(res.body);
}

/** The ids /api/rooms lists now. */
async function listedRooms(server) {
	const json = await getJson(server, '/api/rooms?limit=200');
	return json.rooms.map((room) => room.id);
}

/** /api/pools' entry of size, rule and tc (undefined when not listed). */
async function poolEntry(server, size, rule, tc) {
	const json = await getJson(server, '/api/pools');
	return json.pools.find((pool) => pool.size === size && pool.rule === rule && pool.tc === tc);
}

/** Plays pair's game to a win of front by five; resolves with the winner. */
async function playToFive(pair, size = 15) {
	const script = winningScript({ size, winner: 'front', direction: 'horizontal', start: { x: 0, y: 2 } });
	await timedMoves(pair, script.moves);
	return bothNext(pair, 'winner');
}

/** Opens a spectator of room; takes welcome, spectate and board. */
async function watch(server, room, label = 'spectator') {
	const client = await Client.connect(playerUrl(server, { watch: room }), { label });
	client.welcome = await client.next('welcome');
	client.spectate = await client.next('spectate');
	assert.equal(client.spectate.room, room);
	client.board = await client.next('board');
	return client;
}

/** Waits until /healthz counts exactly n connections. */
function waitConnections(server, n) {
	let last;
	return pollUntil(async () => {
		last = await server.health();
		return last.connections === n ? last : undefined;
	}, () => `/healthz to count ${n} connections (last: ${JSON.stringify(last)})`);
}

describe('invites', () => {
	const server = useServer({ args: ['--max-invites-per-ip', '100'] });

	it('tells ?invite=new its code (12 base64url characters) instead of waiting, and nothing more', T, async () => {
		const creator = await createInvite(server, { name: 'Ann' });
		await creator.expectNothing(300, 'while its invite waits');
		assert.ok(creator.isOpen, 'expected the creator to stay connected');
		assert.equal(creator.received.filter((entry) => entry.message.type === 'waiting').length, 0);
	});

	it('makes a new code for every invite', T, async () => {
		const codes = new Set();
		for (let i = 0; i < 8; i++) {
			const creator = await createInvite(server, {}, `creator ${i}`);
			assert.ok(!codes.has(creator.code), `expected a fresh code, got ${creator.code} twice`);
			codes.add(creator.code);
		}
		// Even across closed invites.
		const again = await createInvite(server);
		assert.ok(!codes.has(again.code), `expected a fresh code, got ${again.code} again`);
	});

	it('matches the first player with the code against its creator, names shown, no uid crossing', T, async () => {
		const pair = await privatePair(server, { creatorQuery: { name: 'Ann' }, joinerQuery: { name: 'Bo' } });
		assert.deepEqual(pair.creator.roleMessage.opponent, { name: 'Bo' });
		assert.deepEqual(pair.joiner.roleMessage.opponent, { name: 'Ann' });
		assert.equal(pair.joiner.welcome.uid, pair.joiner.uid);
		const spectator = await watch(server, pair.room);
		await bothNext(pair, 'spectators');
		// The game plays as any other.
		const winner = await playToFive(pair);
		assert.equal(winner.winner, 'front');
		assert.deepEqual(await spectator.next('winner', DEFAULT_TIMEOUT_MS, { skip: ['board'] }), winner,
			'expected the spectator of the private room to see the players\' winner');
		assertNoUids(pair.creator, [pair.joiner.uid]);
		assertNoUids(pair.joiner, [pair.creator.uid]);
		assertNoUids(spectator, [pair.creator.uid, pair.joiner.uid]);
		// Nor does the code reach the joiner's messages beyond its own use.
		for (const { message } of pair.joiner.received)
			assert.notEqual(message.type, 'invite', 'expected the joiner to get no invite');
	});

	it('refuses a used code with no_such_invite and close 1008, as the only message', T, async () => {
		const pair = await privatePair(server);
		await expectRefused(server, { invite: pair.creator.code }, 'no_such_invite', 'third player');
		await expectRefused(server, { invite: pair.creator.code, name: 'Cy' }, 'no_such_invite', 'fourth player');
		// The pair plays on, untouched.
		await pair.front.expectNothing(100);
		await timedMoves(pair, quietMoves(2, 15));
	});

	it('refuses the code once its creator left, and a code whose room is over', T, async () => {
		const creator = await createInvite(server);
		await creator.close();
		await waitConnections(server, 0);
		await expectRefused(server, { invite: creator.code }, 'no_such_invite', 'late joiner');
		// Dropped without a close frame: dead too.
		const dropped = await createInvite(server);
		await dropped.terminate();
		await waitConnections(server, 0);
		await expectRefused(server, { invite: dropped.code }, 'no_such_invite', 'joiner of a dropped invite');
		// A matched code stays dead after the game and room are gone.
		const pair = await privatePair(server);
		await Promise.all([pair.creator.close(), pair.joiner.close()]);
		await server.settle();
		await expectRefused(server, { invite: pair.creator.code }, 'no_such_invite', 'joiner after the game');
	});

	it('refuses guessed and malformed codes, while a real one waits', T, async () => {
		const creator = await createInvite(server);
		for (let i = 0; i < 20; i++) {
			const guess = guessCode();
			if (guess === creator.code)
				continue;
			await expectRefused(server, { invite: guess }, 'no_such_invite', `guesser ${i}`);
		}
		const malformed = ['', 'x', 'NEW', 'New', creator.code.slice(0, 11), `${creator.code}A`,
			`${creator.code.slice(0, 11)}!`, `${creator.code.slice(0, 11)}=`, `${creator.code.slice(0, 11)}+`,
			`${creator.code.slice(0, 11)}/`, ` ${creator.code.slice(1)}`, creator.code.toLowerCase() === creator.code
				? creator.code.toUpperCase() : creator.code.toLowerCase(), 'x'.repeat(200)];
		for (const code of malformed)
			if (code !== creator.code)
				await expectRefused(server, { invite: code }, 'no_such_invite', `player with ${JSON.stringify(code)}`);
		// The real code still works, and its creator heard nothing of it all.
		await creator.expectNothing(0);
		const joiner = await joinInvite(server, creator.code);
		assert.equal((await creator.next('role')).room, joiner.roleMessage.room);
	});

	it('plays in the creator\'s pool: the joiner\'s size, rule, tc and mode=ai are ignored', T, async () => {
		const pair = await privatePair(server, {
			creatorQuery: { size: 19, rule: 'standard', tc: '60+1', name: 'Ann' },
			joinerQuery: { size: 13, rule: 'freestyle', tc: '300+5', mode: 'ai', level: 'hard', name: 'Bo' },
		});
		for (const client of [pair.creator, pair.joiner]) {
			const role = client.roleMessage;
			assert.equal(role.size, 19, `expected size 19 for ${client.label}, got ${JSON.stringify(role)}`);
			assert.equal(role.rule, 'standard', `expected rule standard for ${client.label}, got ${JSON.stringify(role)}`);
			assert.equal(role.tc, '60+1', `expected tc 60+1 for ${client.label}, got ${JSON.stringify(role)}`);
			assert.ok(role.clock && role.clock.front === 60_000 && role.clock.back === 60_000,
				`expected 60 s clocks, got ${JSON.stringify(role)}`);
			assert.equal('ai' in (role.opponent || {}), false, `expected a person as opponent, got ${JSON.stringify(role)}`);
		}
		assert.deepEqual(pair.joiner.roleMessage.opponent, { name: 'Ann' });
		// A 19 x 19 board: a move at (18, 18) is on it.
		seat(pair, 'front').move(18, 18);
		const board = await bothNext(pair, 'board');
		assert.deepEqual(board.move, { x: 18, y: 18, role: 'front' });
		assert.equal(await poolEntry(server, 13, 'freestyle', '300+5'), undefined,
			'expected no pool of the joiner\'s values to be in use');
	});

	it('ignores mode=ai with invite=new: the creator waits for a person', T, async () => {
		const creator = await createInvite(server, { mode: 'ai', level: 'easy' });
		await creator.expectNothing(300, 'while waiting on its invite with mode=ai');
		const joiner = await joinInvite(server, creator.code);
		const role = await creator.next('role');
		assert.equal(role.room, joiner.roleMessage.room);
		assert.equal('ai' in (role.opponent || {}), false, `expected a person as opponent, got ${JSON.stringify(role)}`);
	});

	it('picks the sides at random: the creator is front in some games and back in others', T, async () => {
		const seen = new Set();
		for (let i = 0; i < 40 && seen.size < 2; i++) {
			const pair = await privatePair(server);
			seen.add(pair.creator.role);
			await Promise.all([pair.creator.close(), pair.joiner.close()]);
		}
		assert.deepEqual([...seen].sort(), ['back', 'front'],
			'expected the creator on both sides within 40 games (a fair coin fails this once in 2^39)');
	});

	it('never pairs a creator from the pool\'s queue, nor counts it as waiting', T, async () => {
		const creator = await createInvite(server, { name: 'Ann' });
		let health = await server.health();
		assert.equal(health.players_waiting, 0, `expected no player waiting, got ${JSON.stringify(health)}`);
		const pool = await poolEntry(server, 15, 'freestyle', 'none');
		assert.ok(pool, 'expected the default pool in /api/pools');
		assert.equal(pool.waiting, 0, `expected the creator not counted in its pool, got ${JSON.stringify(pool)}`);
		const metrics = await metricsOf(server);
		assert.equal(metrics.samples.get('gomoku_players_waiting'), 0, 'expected gomoku_players_waiting 0');
		// A public player of the same pool waits alone.
		const lone = await connectWaiting(server, { name: 'Bo' });
		await lone.expectNothing(300, 'with only a creator beside it');
		await creator.expectNothing(0, 'while a public player waits');
		health = await server.health();
		assert.equal(health.players_waiting, 1, `expected only the public player waiting, got ${JSON.stringify(health)}`);
		// The next public player is paired with it, not with the creator.
		const next = await connectPlayer(server, { uid: uuid(), name: 'Cy' }, { label: 'next public player' });
		await next.next('welcome');
		const role = await next.next('role', DEFAULT_TIMEOUT_MS, { skip: ['waiting'] });
		assert.equal(role.room, (await lone.next('role')).room);
		await creator.expectNothing(200, 'while others were paired');
		// The code still works.
		const joiner = await joinInvite(server, creator.code);
		assert.equal((await creator.next('role')).room, joiner.roleMessage.room);
	});

	it('tells a creator that comes back while waiting its code again; the code stays the same', T, async () => {
		const creator = await createInvite(server, { name: 'Ann' });
		// The same uid without invite: the old connection is replaced.
		const again = await connectPlayer(server, { uid: creator.uid, name: 'Ann' }, { label: 'creator again' });
		assert.equal((await again.next('welcome')).uid, creator.uid);
		assert.deepEqual(await again.next('invite'), { type: 'invite', code: creator.code });
		const closed = await creator.waitClosed();
		assert.notEqual(closed.code, 1008, 'expected the replaced connection not to be refused');
		// With invite=new: still the same code, no new one.
		const third = await connectPlayer(server, { uid: creator.uid, invite: 'new' }, { label: 'creator, third time' });
		await third.next('welcome');
		assert.deepEqual(await third.next('invite'), { type: 'invite', code: creator.code });
		await again.waitClosed();
		// With an unknown code: resumes the same.
		const fourth = await connectPlayer(server, { uid: creator.uid, invite: guessCode() }, { label: 'creator, fourth time' });
		await fourth.next('welcome');
		assert.deepEqual(await fourth.next('invite'), { type: 'invite', code: creator.code });
		await third.waitClosed();
		// The joiner meets the latest connection.
		const joiner = await joinInvite(server, creator.code);
		const role = await fourth.next('role');
		assert.equal(role.room, joiner.roleMessage.room);
		assertNoUids(joiner, [creator.uid]);
	});

	it('lets a uid that holds a seat resume it whatever invite it brings', T, async () => {
		const pair = await connectPair(server);
		await timedMoves(pair, quietMoves(1, 15));
		const { uid } = pair.back;
		for (const invite of [guessCode(), 'x', '', 'new']) {
			const again = await connectPlayer(server, { uid, invite }, { label: `back with invite=${invite}` });
			const welcome = await again.next('welcome');
			assert.equal(welcome.uid, uid);
			const role = await again.next('role');
			assert.equal(role.role, 'back', `expected back's seat back, got ${JSON.stringify(role)}`);
			assert.equal(role.room, pair.room);
			await pair.back.waitClosed();
			pair.back = again;
			await again.next('board');
		}
		// A private game's seat too, with its used code.
		const priv = await privatePair(server);
		const again = await connectPlayer(server, { uid: priv.joiner.uid, invite: priv.creator.code }, { label: 'joiner again' });
		await again.next('welcome');
		const role = await again.next('role');
		assert.equal(role.room, priv.room);
		assert.equal(role.role, priv.joiner.role);
	});

	it('leaves private rooms out of /api/rooms, but lets them be watched by id', T, async () => {
		const pub = await connectPair(server);
		const priv = await privatePair(server, { creatorQuery: { name: 'Ann' }, joinerQuery: { name: 'Bo' } });
		await timedMoves(priv, quietMoves(3, 15));
		const listed = await listedRooms(server);
		assert.deepEqual(listed, [pub.room], `expected only the public room listed, got ${JSON.stringify(listed)}`);
		const spectator = await watch(server, priv.room);
		assert.equal(spectator.board.moves, 3);
		assert.deepEqual(spectator.spectate.players, { front: { name: seat(priv, 'front') === priv.creator ? 'Ann' : 'Bo' },
			back: { name: seat(priv, 'back') === priv.creator ? 'Ann' : 'Bo' } });
		assert.deepEqual(await bothNext(priv, 'spectators'), { type: 'spectators', count: 1 });
		seat(priv, 'back').move(1, 13);
		const board = await bothNext(priv, 'board');
		assert.deepEqual(await spectator.next('board'), board);
		assert.deepEqual(await listedRooms(server), [pub.room], 'expected the watched private room still unlisted');
		assertNoUids(spectator, [priv.creator.uid, priv.joiner.uid]);
		const res = await server.get('/api/rooms?limit=200');
		for (const uid of [priv.creator.uid, priv.joiner.uid])
			assert.ok(!res.body.includes(uid), 'expected no uid in /api/rooms');
	});

	it('lists the room of an invite=new with listed=1 like a public one, and only with the creator\'s listed=1', T, async () => {
		const pub = await connectPair(server);
		const shown = await privatePair(server, { creatorQuery: { listed: '1', name: 'Ann' }, joinerQuery: { name: 'Bo' } });
		const others = [];
		for (const [creatorQuery, joinerQuery] of [[{ listed: 'yes' }, {}], [{}, { listed: '1' }], [{ listed: '' }, {}]])
			others.push(await privatePair(server, { creatorQuery, joinerQuery }));
		await timedMoves(shown, quietMoves(1, 15));
		const listed = await listedRooms(server);
		assert.deepEqual([...listed].sort(), [pub.room, shown.room].sort(),
			`expected the public room and the listed invite's room only, got ${JSON.stringify(listed)}`);
		for (const pair of others)
			assert.ok(!listed.includes(pair.room), 'expected an invite without the creator\'s listed=1 unlisted');
		const res = await server.get('/api/rooms?limit=200');
		for (const uid of [shown.creator.uid, shown.joiner.uid])
			assert.ok(!res.body.includes(uid), 'expected no uid in /api/rooms');
		assert.ok(res.body.includes('"Ann"') && res.body.includes('"Bo"'), 'expected the listed room\'s names in /api/rooms');
	});

	it('makes the rematch of a private room private too', T, async () => {
		const pub = await connectPair(server);
		const priv = await privatePair(server);
		await playToFive(priv);
		const offerer = priv.front;
		offerer.send({ type: 'offer', what: 'rematch' });
		await bothNext(priv, 'offer');
		priv.back.send({ type: 'answer', what: 'rematch', accept: true });
		await bothNext(priv, 'answer');
		const [a, b] = await Promise.all([priv.front.next('role'), priv.back.next('role')]);
		assert.equal(a.room, b.room);
		assert.notEqual(a.room, priv.room, 'expected a new room');
		assert.deepEqual(await listedRooms(server), [pub.room],
			'expected the live rematch of a private room left out of /api/rooms');
		const spectator = await watch(server, a.room);
		assert.equal(spectator.board.moves, 0);
		assertNoUids(priv.creator, [priv.joiner.uid]);
		assertNoUids(priv.joiner, [priv.creator.uid]);
	});
});

describe('private games in the journal', () => {
	const server = useServer();

	it('leaves a finished private game out of /api/games, keeps its record at /api/games/ID, lists a listed one', T, async () => {
		const priv = await privatePair(server);
		const shown = await privatePair(server, { creatorQuery: { listed: '1' } });
		const pub = await connectPair(server);
		for (const pair of [priv, shown, pub])
			await playToFive(pair);
		const listed = (await getJson(server, '/api/games?limit=200')).games.map((game) => game.id);
		assert.deepEqual([...listed].sort(), [shown.room, pub.room].sort(),
			`expected the listed invite's game and the public one only, got ${JSON.stringify(listed)}`);
		const record = await getJson(server, `/api/games/${priv.room}`);
		assert.equal(record.status, 'finished', `expected the private game's record by its id, got ${JSON.stringify(record)}`);
		assert.equal(record.moves.length, 9);
	});

	it('keeps a live private game out of /api/rooms after kill -9 and a restart, and a listed one in it', T, async () => {
		const restartable = new RestartableServer({ args: ['--reconnect-grace', '60'] });
		try {
			const first = await restartable.start();
			const priv = await privatePair(first);
			const shown = await privatePair(first, { creatorQuery: { listed: '1' } });
			for (const pair of [priv, shown])
				await timedMoves(pair, quietMoves(2, 15));
			await restartable.kill();
			const second = await restartable.start();
			assert.equal((await second.health()).rooms, 2, 'expected both games restored');
			const listed = await listedRooms(second);
			assert.deepEqual(listed, [shown.room], `expected only the listed invite's room after the restart, got ${JSON.stringify(listed)}`);
		} finally {
			await restartable.stop();
		}
	});
});

describe('invites with the engine filling the queue (--ai-fill-after)', () => {
	const server = useServer({ args: ['--ai-fill-after', '1', '--ai-fill-level', 'easy', '--ai-ms', '50'] });

	it('never fills a creator with the engine, though it fills a public player who came later', T, async () => {
		const creator = await createInvite(server);
		const lone = await connectWaiting(server);
		const role = await lone.next('role', scaled(5000));
		assert.deepEqual(role.opponent, { ai: true, level: 'easy' }, `expected the engine, got ${JSON.stringify(role)}`);
		await creator.expectNothing(1500, 'while waiting on its invite past --ai-fill-after');
		const joiner = await joinInvite(server, creator.code);
		const creatorRole = await creator.next('role', DEFAULT_TIMEOUT_MS, { skip: ['board'] });
		assert.equal(creatorRole.room, joiner.roleMessage.room);
		assert.equal('ai' in (creatorRole.opponent || {}), false);
	});
});

describe('--max-invites-per-ip', () => {
	const server = useServer({ args: ['--max-invites-per-ip', '2'] });

	it('refuses a third open invite=new from one address with rate_limited and close 1008, until one closes', T, async () => {
		const first = await createInvite(server, {}, 'first creator');
		const second = await createInvite(server, {}, 'second creator');
		await expectRefused(server, { invite: 'new' }, 'rate_limited', 'third creator');
		// Neither a joiner nor a public player is limited.
		const joiner = await joinInvite(server, first.code);
		assert.equal((await first.next('role')).room, joiner.roleMessage.room);
		await connectWaiting(server);
		// The matched creator's session is still an open invite=new one.
		await expectRefused(server, { invite: 'new' }, 'rate_limited', 'creator while both are open');
		// A place frees when one closes.
		await second.close();
		await pollUntil(async () => ((await server.health()).connections === 3 ? true : undefined),
			'the server to see the second creator gone');
		const third = await createInvite(server, {}, 'creator after a close');
		assert.notEqual(third.code, second.code);
		await expectRefused(server, { invite: 'new' }, 'rate_limited', 'creator over the limit again');
		await first.close();
		// The server saw it go once its opponent is told.
		await joiner.next('winner');
		const fourth = await createInvite(server, {}, 'creator after the matched one closed');
		// At the limit, a creator reloading its invite=new page resumes
		// its seat (the same code): it is neither counted nor refused.
		const reload = await connectPlayer(server, { uid: fourth.uid, invite: 'new' }, { label: 'creator reloading' });
		await reload.next('welcome');
		assert.deepEqual(await reload.next('invite'), { type: 'invite', code: fourth.code });
	});
});

describe('--max-invites-per-ip by default', () => {
	const server = useServer();

	it('allows 5 open invites from one address and refuses the sixth', T, async () => {
		const creators = [];
		for (let i = 0; i < 5; i++)
			creators.push(await createInvite(server, {}, `creator ${i}`));
		await expectRefused(server, { invite: 'new' }, 'rate_limited', 'sixth creator');
		assert.equal(new Set(creators.map((c) => c.code)).size, 5, 'expected 5 different codes');
	});
});
