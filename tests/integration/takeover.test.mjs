// Rooms taken over (--redis): three instances on one real redis-server
// with AOF. An instance killed with kill -9 in the middle of live timed
// games, again and again: every game resumes on an instance that is
// alive, with every accepted move (none lost, none doubled) and the
// clocks as they were after the last move. A rolling restart (SIGTERM
// one instance at a time, started again before the next) hands every
// room over, and every game is played to its end. Redis stopped for 5 s:
// the players stay connected, a move is refused meanwhile, a player
// relayed to another instance is told to connect again after (what was
// published meanwhile is lost) and resumes, and the games go on, on the
// same instances. An instance frozen past its
// lease (SIGSTOP) whose rooms were taken over cannot write when it runs
// again: the move it took is never told, and it stops.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { startServer, stopAll } from './lib/server.mjs';
import { connectPlayer, closeAllClients, uuid } from './lib/client.mjs';
import { Redis } from './lib/redis.mjs';
import { fetchMetric, pollUntil } from './lib/observe.mjs';
import { testTimeout, scaled, sleep } from './lib/time.mjs';

const T = testTimeout(600_000);
const SIZE = 15;
const TC = '600+0';
// Fewer under valgrind (tests/valgrind/run.sh sets both).
const GAMES = Number(process.env.GOMOKU_TEST_TAKEOVER_GAMES) || 100;
const KILLS = Number(process.env.GOMOKU_TEST_CRASH_CYCLES) || 10;
const ROLLING_GAMES = Math.min(GAMES, 30);
// The last move is this old when the instance is killed: a clock that
// ran through the outage would show it.
const PAUSE_BEFORE_KILL_MS = 1000;
// The server's clock and this process's differ by a few milliseconds.
const CLOCK_SLACK_MS = 50;
// A player's resume waits while the gone owner's lease lapses (1 s) and
// its rooms are claimed (within a second).
const RESUME_MS = scaled(30_000);

/** The cell of a side's k-th stone: no five ever (rows 0, 2, 4; gaps). */
function cellOf(role, k) {
	return { x: 2 * (k % 7) + (role === 'back' ? 1 : 0), y: 2 * Math.floor(k / 7) };
}

/** The board content after moves stones, front first. */
function contentAfter(moves) {
	const content = new Array(SIZE * SIZE).fill('');
	for (let i = 0; i < moves; i++) {
		const role = i % 2 ? 'back' : 'front';
		const { x, y } = cellOf(role, Math.floor(i / 2));
		content[y * SIZE + x] = role;
	}
	return content;
}

/** Runs fn over items, at most limit at once. */
async function eachLimited(items, limit, fn) {
	let next = 0;
	const worker = async () => {
		while (next < items.length)
			await fn(items[next++]);
	};
	await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

class Site {
	constructor() {
		this.redis = new Redis(['--appendonly', 'yes', '--appendfsync', 'always']);
		this.ids = ['north', 'east', 'west'];
		this.servers = new Map();
	}

	args(id) {
		return ['--redis', this.redis.url, '--instance-id', id, '--instance-lease', '1',
			'--reconnect-grace', '300'];
	}

	async start() {
		await this.redis.start();
		for (const id of this.ids)
			this.servers.set(id, await startServer({ args: this.args(id) }));
	}

	/** Starts id again: it waits (503) until its old lease lapsed, then serves. */
	async restart(id) {
		const server = await startServer({ args: this.args(id), healthyStatuses: [200, 503] });
		this.servers.set(id, server);
		const deadline = Date.now() + scaled(20_000);
		while ((await server.get('/healthz')).status !== 200) {
			assert.ok(Date.now() < deadline, `expected ${id} to hold its lease again`);
			await sleep(50);
		}
	}

	/** The rooms the live servers said they took over since marks. */
	takenOverSince(marks) {
		const rooms = new Set();
		for (const [id, server] of this.servers) {
			if (server.exited)
				continue;
			for (const line of server.linesSince(marks.get(id) || 0)) {
				const found = /took over room ([0-9a-f-]{36})/.exec(line);
				if (found)
					rooms.add(found[1]);
			}
		}
		return rooms;
	}

	/** The live instance that owns the most rooms (gomoku_cluster_rooms_owned). */
	async busiest() {
		let best = null;
		let most = -1;
		for (const [id, server] of this.servers) {
			const owned = await fetchMetric(server, 'gomoku_cluster_rooms_owned');
			if (owned > most) {
				best = id;
				most = owned;
			}
		}
		assert.ok(most > 0, 'expected an instance to own rooms');
		return best;
	}

	marks() {
		return new Map([...this.servers].map(([id, server]) => [id, server.mark()]));
	}

	async close() {
		await closeAllClients();
		await stopAll([...this.servers.values()].filter((server) => !server.exited));
		await this.redis.close();
	}
}

/** One player: its uid, side, and the connection and instance it is on now. */
class Seat {
	constructor(uid, label) {
		this.uid = uid;
		this.label = label;
		this.client = null;
		this.on = null; // instance id
	}

	async connect(site, id) {
		this.on = id;
		this.client = await connectPlayer(site.servers.get(id), { uid: this.uid, tc: TC },
			{ label: this.label });
		await this.client.next('welcome');
	}

	/**
	 * Connects to id and resolves with the role of the seat it resumes.
	 * Before the gone owner's lease has lapsed, the site still sends the
	 * player there, and the connection is closed with 1012 once it has:
	 * the page connects again then, and so does this.
	 */
	async resume(site, id) {
		const deadline = Date.now() + RESUME_MS;
		for (;;) {
			await this.connect(site, id);
			try {
				return await this.client.next('role', RESUME_MS);
			} catch (err) {
				if (this.client.closeInfo?.code !== 1012)
					throw err;
			}
			assert.ok(Date.now() < deadline, `${this.label}: resumed within ${RESUME_MS} ms`);
		}
	}
}

/** Pairs a game across two instances: its first player waits on a. */
async function openGame(site, a, b, n) {
	const first = new Seat(uuid(), `game ${n} first`);
	const second = new Seat(uuid(), `game ${n} second`);
	await first.connect(site, a);
	await first.client.next('waiting');
	await second.connect(site, b);
	const roleSecond = await second.client.next('role', RESUME_MS, { skip: ['waiting'] });
	const roleFirst = await first.client.next('role', RESUME_MS, { skip: ['waiting'] });
	assert.equal(roleFirst.room, roleSecond.room);
	first.role = roleFirst.role;
	second.role = roleSecond.role;
	const front = first.role === 'front' ? first : second;
	const back = first.role === 'front' ? second : first;
	return { n, room: roleFirst.room, owner: a, front, back, moves: 0, clock: null };
}

/**
 * One move of the side to move; both players see it. With retry, a move
 * refused with `unavailable` (Redis just came back) is sent again.
 */
async function playOne(game, { retry = false } = {}) {
	const role = game.moves % 2 ? 'back' : 'front';
	const mover = game[role];
	const other = game[role === 'front' ? 'back' : 'front'];
	const { x, y } = cellOf(role, Math.floor(game.moves / 2));
	const skip = ['opponent_back', 'opponent_away'];
	let sentAt, answer;
	for (;;) {
		sentAt = Date.now();
		mover.client.send({ type: 'move', x, y });
		answer = await mover.client.next(null, RESUME_MS, { skip });
		if (!(retry && answer.type === 'error' && answer.code === 'unavailable'))
			break;
		await sleep(200);
	}
	assert.equal(answer.type, 'board', `game ${game.n}: ${JSON.stringify(answer)}`);
	const boards = [answer, await other.client.next('board', RESUME_MS, { skip })];
	game.moves++;
	for (const board of boards) {
		assert.equal(board.moves, game.moves, `game ${game.n}: move ${game.moves} seen by both`);
		assert.deepEqual(board.move, { x, y, role });
	}
	game.clock = boards[0].clock;
	game.movedAt = sentAt; // the mover's clock started after this
}

/**
 * Every player connects again, to an instance that lives (the one it was
 * on when that one lives, spread otherwise), and resumes its seat: the
 * same room and side, every move accepted before (and no other), and the
 * clocks as they were after the last move (the side not to move:
 * exactly), less, for the side to move, at most the time since the
 * instance went when its room was taken over (the outage is charged to
 * nobody), since the last move otherwise. Returns how many rooms were
 * taken over.
 */
async function resumeAll(site, games, alive, wentAt, marks) {
	let spread = 0;
	await eachLimited(games, 16, async (game) => {
		for (const seat of [game.front, game.back]) {
			seat.client.terminate();
			const to = alive.includes(seat.on) ? seat.on : alive[spread++ % alive.length];
			const role = await seat.resume(site, to);
			assert.equal(role.room, game.room, `${seat.label} resumes its room`);
			assert.equal(role.role, seat.role);
			const board = await seat.client.next('board', RESUME_MS, { skip: ['opponent_away', 'opponent_back'] });
			assert.equal(board.moves, game.moves, `${seat.label}: no accepted move lost or doubled`);
			assert.deepEqual(board.content, contentAfter(game.moves));
			const toMove = game.moves % 2 ? 'back' : 'front';
			const waiting = toMove === 'front' ? 'back' : 'front';
			assert.equal(board.clock[waiting], game.clock[waiting],
				`${seat.label}: the clock of the side not to move is as it was`);
			const lost = game.clock[toMove] - board.clock[toMove];
			const takenOver = site.takenOverSince(marks).has(game.room);
			const since = Date.now() - (takenOver ? wentAt : game.movedAt) + CLOCK_SLACK_MS;
			assert.ok(lost >= 0 && lost <= since,
				`${seat.label}: ${toMove}'s clock lost ${lost} ms, more than the ${since} ms since ` +
				(takenOver ? 'its instance went: the outage was charged' : 'the last move') +
				` (before ${JSON.stringify(game.clock)}, after ${JSON.stringify(board.clock)})`);
		}
	});
	return site.takenOverSince(marks).size;
}

/** Both players of every game take their opponent_back and anything else pending. */
function drain(games) {
	for (const game of games)
		for (const seat of [game.front, game.back])
			seat.client.inbox = seat.client.inbox.filter((m) => m.type === 'board' || m.type === 'winner');
}

/** Every game ends: front resigns, both see back win. */
async function resignAll(games) {
	await eachLimited(games, 16, async (game) => {
		game.front.client.send({ type: 'resign' });
		for (const seat of [game.front, game.back]) {
			const winner = await seat.client.next('winner', RESUME_MS,
				{ skip: ['opponent_back', 'opponent_away'] });
			assert.equal(winner.winner, 'back');
			assert.equal(winner.reason, 'resign');
		}
	});
}

async function openGames(site, count) {
	const games = [];
	for (let n = 0; n < count; n++)
		games.push(await openGame(site, site.ids[n % 3], site.ids[(n + 1) % 3], n));
	return games;
}

describe('an instance killed with kill -9 in the middle of live games', () => {
	const site = new Site();

	before(async () => {
		await site.start();
	});

	after(async () => {
		await site.close();
	});

	it(`resumes each of ${GAMES} games on another instance, ${KILLS} times (the instance with the most rooms), with every move and the clocks`, T, async () => {
		const games = await openGames(site, GAMES);
		for (let round = 0; round < KILLS; round++) {
			await eachLimited(games, 32, async (game) => {
				await playOne(game);
				await playOne(game);
			});
			await sleep(PAUSE_BEFORE_KILL_MS);
			const victim = await site.busiest();
			const alive = site.ids.filter((id) => id !== victim);
			const marks = site.marks();
			const wentAt = Date.now();
			await site.servers.get(victim).kill();
			const taken = await resumeAll(site, games, alive, wentAt, marks);
			assert.ok(taken > 0, `round ${round}: rooms of ${victim} taken over`);
			drain(games);
			await site.restart(victim);
		}
		await resignAll(games);
	});
});

describe('a rolling restart (SIGTERM one instance at a time)', () => {
	const site = new Site();

	before(async () => {
		await site.start();
	});

	after(async () => {
		await site.close();
	});

	it(`hands the rooms over and plays every one of ${ROLLING_GAMES} games to its end`, T, async () => {
		const games = await openGames(site, ROLLING_GAMES);
		for (const victim of site.ids) {
			await eachLimited(games, 32, async (game) => {
				await playOne(game);
				await playOne(game);
			});
			const alive = site.ids.filter((id) => id !== victim);
			const marks = site.marks();
			const wentAt = Date.now();
			const stopped = await site.servers.get(victim).stop({ timeoutMs: scaled(10_000) });
			assert.equal(stopped.code, 0);
			const taken = await resumeAll(site, games, alive, wentAt, marks);
			assert.ok(taken > 0, `rooms of ${victim} handed over`);
			drain(games);
			await site.restart(victim);
		}
		await eachLimited(games, 32, async (game) => {
			await playOne(game);
		});
		await resignAll(games);
	});
});

describe('Redis stopped for 5 s and started again (AOF)', () => {
	const site = new Site();
	const OUTAGE_MS = 5000;

	before(async () => {
		await site.start();
	});

	after(async () => {
		await site.close();
	});

	it('keeps the players connected, refuses moves while it is away, resyncs relayed players after, and every game goes on to its end', T, async () => {
		const games = await openGames(site, 9);
		await eachLimited(games, 32, async (game) => {
			await playOne(game);
			await playOne(game);
		});
		const marks = site.marks();
		const wentAt = Date.now();
		await site.redis.kill();
		for (const server of site.servers.values())
			await pollUntil(async () => ((await server.get('/healthz')).status === 503 ? true : undefined),
				'/healthz to say 503 with Redis gone', { timeoutMs: scaled(10_000), intervalMs: 50 });
		// What cannot be saved is not played, wherever the room is.
		for (const game of games) {
			const { x, y } = cellOf('front', Math.floor(game.moves / 2));
			game.front.client.send({ type: 'move', x, y });
			const refused = await game.front.client.next('error', RESUME_MS);
			assert.equal(refused.code, 'unavailable', `game ${game.n}`);
		}
		await sleep(Math.max(0, OUTAGE_MS - (Date.now() - wentAt)));
		await site.redis.start();
		for (const server of site.servers.values())
			await pollUntil(async () => ((await server.get('/healthz')).status === 200 ? true : undefined),
				'/healthz to say 200 with Redis back', { timeoutMs: scaled(20_000), intervalMs: 50 });
		// A player relayed to another instance may have missed what was
		// published while Redis was away: its instance closes it with
		// 1012 once subscribed again, and it resumes the whole position.
		// The players on the rooms' own instances stay connected.
		await eachLimited(games, 16, async (game) => {
			for (const seat of [game.front, game.back]) {
				if (seat.on === game.owner)
					continue;
				const closed = await Promise.race([seat.client.closed, sleep(RESUME_MS).then(() => null)]);
				assert.ok(closed, `${seat.label}, relayed, is told to connect again`);
				assert.equal(closed.code, 1012, `${seat.label}: ${JSON.stringify(closed)}`);
				const role = await seat.resume(site, seat.on);
				assert.equal(role.room, game.room);
				const board = await seat.client.next('board', RESUME_MS, { skip: ['opponent_away', 'opponent_back'] });
				assert.equal(board.moves, game.moves, `${seat.label}: the refused move was not played`);
			}
		});
		drain(games);
		for (let i = 0; i < 4; i++)
			await eachLimited(games, 32, (game) => playOne(game, { retry: true }));
		await resignAll(games);
		assert.equal(site.takenOverSince(marks).size, 0, 'no room changed hands');
		for (const game of games)
			for (const seat of [game.front, game.back])
				assert.equal(seat.client.closeInfo, null, `${seat.label} is connected`);
		for (const [id, server] of site.servers)
			assert.equal(server.exited, null, `${id} still runs`);
	});
});

describe('an instance cut off past its lease (SIGSTOP), its rooms taken over', () => {
	const site = new Site();

	before(async () => {
		site.ids = ['north', 'east'];
		await site.start();
	});

	after(async () => {
		await site.close();
	});

	it('refuses its writes once it runs again: the move it took is never told, and it stops (exit 1)', T, async () => {
		const game = await openGame(site, 'north', 'east', 0);
		const stale = game.front.on === 'north' ? game.front : game.back;
		// Moves until the player on north is to move.
		while ((game.moves % 2 ? 'back' : 'front') !== stale.role || game.moves < 2)
			await playOne(game);
		const north = site.servers.get('north');
		const east = site.servers.get('east');
		const mark = east.mark();
		north.signal('SIGSTOP');
		await east.waitForLine(new RegExp(`took over room ${game.room}`),
			{ since: mark, timeoutMs: scaled(20_000), what: 'east taking the room over' });
		// The player on east resumes there, with the game as it was.
		const moved = stale === game.front ? game.back : game.front;
		const role = await moved.resume(site, 'east');
		assert.equal(role.room, game.room);
		const board = await moved.client.next('board', RESUME_MS, { skip: ['opponent_away', 'opponent_back'] });
		assert.equal(board.moves, game.moves);

		// North runs again, and takes a move for the room it lost.
		north.stopping = true; // its exit is expected
		north.signal('SIGCONT');
		const { x, y } = cellOf(stale.role, Math.floor(game.moves / 2));
		while (!stale.client.closeInfo) {
			stale.client.send({ type: 'move', x, y });
			const answer = await Promise.race([stale.client.next(null, RESUME_MS).catch(() => null),
				stale.client.closed]);
			if (answer && answer.type === 'board')
				assert.fail(`north told a move it could not journal: ${JSON.stringify(answer)}`);
			await sleep(100);
		}
		const exited = await north.exitPromise;
		assert.equal(exited.code, 1, 'north stops with exit status 1');
		await north.waitForLine(/the site took this instance's rooms over/);
		// The move was never played: the game on east has what it had.
		const again = await stale.resume(site, 'east');
		assert.equal(again.room, game.room);
		const after = await stale.client.next('board', RESUME_MS, { skip: ['opponent_away', 'opponent_back'] });
		assert.equal(after.moves, game.moves);
		await moved.client.next('opponent_back', RESUME_MS, { skip: ['opponent_away'] });
	});
});
