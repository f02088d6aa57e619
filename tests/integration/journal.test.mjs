// The journal's promises, on the real binary and a real filesystem:
//
// - nothing a player was told is lost, also when the disk is full: the
//   moves the database cannot take are not announced, the players get
//   `unavailable` and the games wait (/healthz 503, /metrics), and they go
//   on once space returns; a kill -9 during the outage leaves exactly what
//   the players were told. The full disk is a small tmpfs, mounted by the
//   test (as root, or through sudo -n; the test is skipped, loudly, when
//   neither can mount);
// - a game whose players leave before its first move leaves nothing;
// - finished games older than --keep-days are deleted, off the event loop;
// - the moves of live games go to an append-only log, whose entries of
//   finished games are pruned; a database of the first layout (every move
//   in `moves`) is moved to it at start-up, its games intact.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { startServer, scratchDb } from './lib/server.mjs';
import { connectPair, closeAllClients } from './lib/client.mjs';
import { RestartableServer, rejoin, expectResume, sqliteQuery, gameRecord } from './lib/resume.mjs';
import { fetchMetric, pollUntil } from './lib/observe.mjs';
import { testTimeout, scaled } from './lib/time.mjs';

const T = testTimeout(90_000);
const SIZE = 15;

/** Runs a command as root: directly, or through sudo -n. Throws when it cannot. */
function asRoot(command, args) {
	if (process.getuid() === 0)
		return execFileSync(command, args, { stdio: 'pipe' });
	return execFileSync('sudo', ['-n', command, ...args], { stdio: 'pipe' });
}

/** A small tmpfs on a new directory, or null when this machine will not mount one. */
function mountSmallDisk(size = '2m') {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gomoku-fulldisk-'));
	try {
		asRoot('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=1777`, 'tmpfs', dir]);
	} catch (err) {
		fs.rmdirSync(dir);
		return { skip: `cannot mount a tmpfs (${err.message.split('\n')[0]}): run the tests as root or with sudo` };
	}
	return {
		dir,
		fill() {
			// Everything left, in big pieces then byte by byte.
			const fd = fs.openSync(path.join(dir, 'filler'), 'w');
			try {
				for (const piece of [Buffer.alloc(65536), Buffer.alloc(4096), Buffer.alloc(1)]) {
					try {
						for (;;)
							fs.writeSync(fd, piece);
					} catch (err) {
						if (err.code !== 'ENOSPC')
							throw err;
					}
				}
			} finally {
				fs.closeSync(fd);
			}
		},
		free() {
			fs.rmSync(path.join(dir, 'filler'), { force: true });
		},
		release() {
			try {
				asRoot('umount', [dir]);
			} catch {
				// already gone
			}
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

/** Stones that never make five: both coordinates even, row by row. */
const QUIET_CELLS = [];
for (let y = 0; y < SIZE; y += 2)
	for (let x = 0; x < SIZE; x += 2)
		QUIET_CELLS.push({ x, y });

/**
 * Plays quiet moves with pair from move number `from` until one is
 * refused with `unavailable` (the disk is full) or `upTo` were played.
 * Resolves with { played: moves both players saw, refusedAt } .
 */
async function playUntilRefused(pair, from, upTo) {
	for (let i = from; i < upTo; i++) {
		const mover = i % 2 ? pair.back : pair.front;
		const other = i % 2 ? pair.front : pair.back;
		mover.move(QUIET_CELLS[i].x, QUIET_CELLS[i].y);
		const answer = await mover.next(null);
		if (answer.type === 'error') {
			assert.equal(answer.code, 'unavailable', `expected a move the disk cannot take to get unavailable, got ${JSON.stringify(answer)}`);
			return { played: i, refusedAt: i };
		}
		assert.equal(answer.type, 'board', `expected a board, got ${JSON.stringify(answer)}`);
		assert.equal(answer.moves, i + 1);
		assert.equal((await other.next('board')).moves, i + 1);
	}
	return { played: upTo, refusedAt: null };
}

describe('a full disk', () => {
	let disk;

	before(() => {
		disk = mountSmallDisk();
	});
	after(async () => {
		await closeAllClients();
		if (disk && !disk.skip)
			disk.release();
	});

	it('pauses the games: the move it cannot save is not announced, players get unavailable, /healthz says 503; when space returns the games go on', T, async (t) => {
		if (disk.skip) {
			t.skip(disk.skip);
			return;
		}
		const server = await startServer({ args: ['--db', path.join(disk.dir, 'pause.db')] });
		try {
			const pair = await connectPair(server);
			await playUntilRefused(pair, 0, 4);
			disk.fill();
			const { refusedAt } = await playUntilRefused(pair, 4, 40);
			assert.notEqual(refusedAt, null, 'expected a move to be refused once the disk is full');
			const unsaved = refusedAt;
			// The opponent hears of the pause, not of the move.
			const opponent = unsaved % 2 ? pair.front : pair.back;
			const mover = unsaved % 2 ? pair.back : pair.front;
			const told = await opponent.next('error');
			assert.equal(told.code, 'unavailable');
			// Every request that would change a game is refused meanwhile.
			opponent.move(QUIET_CELLS[unsaved + 1].x, QUIET_CELLS[unsaved + 1].y);
			assert.equal((await opponent.next('error')).code, 'unavailable');
			const health = await server.get('/healthz');
			assert.equal(health.status, 503, `expected /healthz to answer 503 while games wait, got ${health.status}: ${health.body}`);
			assert.equal(JSON.parse(health.body).status, 'unavailable');
			assert.equal(await fetchMetric(server, 'gomoku_store_available'), 0);
			assert.ok(await fetchMetric(server, 'gomoku_errors_total{code="unavailable"}') >= 3);
			assert.ok(await fetchMetric(server, 'gomoku_store_errors_total') >= 1);
			await mover.expectNothing(300, 'while the disk is full');

			disk.free();
			// The move is saved at the next try and then told to both.
			const [moverBoard, opponentBoard] = await Promise.all([mover.next('board', scaled(5000)), opponent.next('board', scaled(5000))]);
			assert.equal(moverBoard.moves, unsaved + 1);
			assert.deepEqual(moverBoard.move, { ...QUIET_CELLS[unsaved], role: unsaved % 2 ? 'back' : 'front' });
			assert.deepEqual(opponentBoard, moverBoard);
			await pollUntil(async () => ((await server.get('/healthz')).status === 200 ? true : undefined),
				'/healthz to answer 200 again', { timeoutMs: scaled(5000) });
			assert.equal(await fetchMetric(server, 'gomoku_store_available'), 1);
			const { played } = await playUntilRefused(pair, unsaved + 1, unsaved + 5);
			assert.equal(played, unsaved + 5, 'expected the game to go on once space returned');
			const record = await gameRecord(server, pair.room);
			assert.deepEqual(record.moves.map(({ x, y }) => ({ x, y })), QUIET_CELLS.slice(0, unsaved + 5),
				'expected the record to hold every move, the one of the outage included, once');
		} finally {
			disk.free();
			await closeAllClients();
			await server.stop();
		}
	});

	it('loses nothing a player was told when the server is killed during the outage', T, async (t) => {
		if (disk.skip) {
			t.skip(disk.skip);
			return;
		}
		const restartable = new RestartableServer({ db: path.join(disk.dir, 'kill.db'), args: ['--reconnect-grace', '30'] });
		let server = await restartable.start();
		try {
			const pair = await connectPair(server);
			await playUntilRefused(pair, 0, 5);
			disk.fill();
			const { refusedAt } = await playUntilRefused(pair, 5, 40);
			assert.notEqual(refusedAt, null, 'expected a move to be refused once the disk is full');
			await restartable.kill();
			disk.free();
			server = await restartable.start();
			const record = await gameRecord(server, pair.room);
			assert.deepEqual(record.moves.map(({ x, y }) => ({ x, y })), QUIET_CELLS.slice(0, refusedAt),
				`expected exactly the ${refusedAt} moves the players were told, got ${JSON.stringify(record.moves)}`);
			const front = await rejoin(server, pair.front);
			await expectResume(front, { room: pair.room, role: 'front', moves: record.moves, size: SIZE });
		} finally {
			disk.free();
			await closeAllClients();
			await restartable.stop();
		}
	});
});

describe('games with no move', () => {
	it('leave nothing in the database, however many are opened and left', T, async () => {
		const db = scratchDb();
		const server = await startServer({ args: ['--db', db] });
		try {
			for (let i = 0; i < 100; i++) {
				const pair = await connectPair(server);
				await pair.front.close(1000);
				await pair.back.close(1000);
			}
			const played = await connectPair(server);
			played.front.move(7, 7);
			await Promise.all([played.front.next('board'), played.back.next('board')]);
			await played.back.close(1000);
			await played.front.next('winner');
			const games = await sqliteQuery(db, 'SELECT id, finished_ms IS NOT NULL AS finished FROM games');
			assert.deepEqual(games, [{ id: played.room, finished: 1 }],
				'expected only the game with a move in the database, finished by its forfeit');
		} finally {
			await closeAllClients();
			await server.stop();
		}
	});
});

describe('--keep-days', () => {
	/** A database with games finished 40, 20 and 0 days ago and one unfinished. */
	async function agedDatabase() {
		const db = scratchDb();
		const seed = await startServer({ args: ['--db', db] }); // creates the schema
		await seed.stop();
		const day = 24 * 3600 * 1000;
		const now = Date.now();
		const rows = [['old', now - 40 * day], ['middle', now - 20 * day], ['new', now], ['live', null]];
		const sql = rows.map(([name, finished], i) => {
			const id = `00000000-0000-4000-8000-00000000000${i}`;
			return `INSERT INTO games (id, size, rule, full_board, front_uid, back_uid, front_name, back_name,
				started_ms, finished_ms, winner, reason) VALUES ('${id}', 15, 'freestyle', 'back',
				'10000000-0000-4000-8000-00000000000${i}', '20000000-0000-4000-8000-00000000000${i}', '${name}', '',
				${now - 41 * day}, ${finished ?? 'NULL'}, ${finished ? "'front'" : 'NULL'}, ${finished ? "'forfeit'" : 'NULL'});
				INSERT INTO moves (game_id, seq, x, y) VALUES ('${id}', 0, ${i}, 0);`;
		}).join('\n');
		execFileSync('sqlite3', [db, sql]);
		return db;
	}

	it('deletes finished games older than N days, with their moves, soon after the start and keeps the rest', T, async () => {
		const db = await agedDatabase();
		const server = await startServer({ args: ['--db', db, '--keep-days', '30'] });
		try {
			await server.waitForLine(/deleted 1 finished games older than 30 days/, { timeoutMs: scaled(15_000) });
			const names = await sqliteQuery(db, 'SELECT front_name AS name FROM games ORDER BY front_name');
			assert.deepEqual(names.map((row) => row.name), ['live', 'middle', 'new']);
			const moves = await sqliteQuery(db, 'SELECT COUNT(*) AS n FROM moves');
			assert.equal(moves[0].n, 3, 'expected the old game\'s moves deleted with it');
		} finally {
			await server.stop();
		}
	});

	it('keeps every game with --keep-days 0', T, async () => {
		const db = await agedDatabase();
		const server = await startServer({ args: ['--db', db, '--keep-days', '0', '--reconnect-grace', '0'] });
		try {
			// The server is up past the moment a retention run would come.
			await pollUntil(async () => ((await server.health()).uptime >= 3 ? true : undefined), 'three seconds of uptime',
				{ timeoutMs: scaled(10_000), intervalMs: 200 });
			const games = await sqliteQuery(db, 'SELECT COUNT(*) AS n FROM games');
			assert.equal(games[0].n, 4);
			assert.ok(!server.output().includes('deleted'), `expected no game deleted, the server logged:\n${server.output()}`);
		} finally {
			await server.stop();
		}
	});
});

describe('the move log', () => {
	/** A database of the first layout: a finished game and a live one, 3 moves each. */
	// liveMoves: the live game's moves (a repeated cell makes it one the
	// rules refuse to replay).
	function firstLayoutDatabase({ liveMoves = [[7, 7], [8, 8], [7, 8]] } = {}) {
		const db = scratchDb();
		const now = Date.now();
		const games = [['done', now], ['live', null]].map(([name, finished], i) => {
			const id = `00000000-0000-4000-8000-00000000001${i}`;
			const moves = (finished ? [[7, 7], [8, 8], [7, 8]] : liveMoves).map(([x, y], seq) =>
				`INSERT INTO moves (game_id, seq, x, y) VALUES ('${id}', ${seq}, ${x}, ${y});`).join('\n');
			return { id, sql: `INSERT INTO games (id, size, rule, full_board, front_uid, back_uid, front_name, back_name,
				started_ms, finished_ms, winner, reason) VALUES ('${id}', 15, 'freestyle', 'back',
				'10000000-0000-4000-8000-00000000001${i}', '20000000-0000-4000-8000-00000000001${i}', '${name}', 'b',
				${now - 60_000}, ${finished ?? 'NULL'}, ${finished ? "'front'" : 'NULL'}, ${finished ? "'forfeit'" : 'NULL'});
				${moves}` };
		});
		execFileSync('sqlite3', [db, `PRAGMA journal_mode=WAL;
			CREATE TABLE games (id TEXT PRIMARY KEY, size INTEGER NOT NULL, rule TEXT NOT NULL,
				full_board TEXT NOT NULL, front_uid TEXT NOT NULL, back_uid TEXT NOT NULL,
				front_name TEXT NOT NULL, back_name TEXT NOT NULL, started_ms INTEGER NOT NULL,
				finished_ms INTEGER, winner TEXT, reason TEXT, line TEXT);
			CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
				x INTEGER NOT NULL, y INTEGER NOT NULL, PRIMARY KEY (game_id, seq)) WITHOUT ROWID;
			${games.map((game) => game.sql).join('\n')}`]);
		return { db, done: games[0].id, live: games[1].id };
	}

	it('moves a database of the first layout at start-up: the live game resumes with its moves, the finished one keeps them', T, async () => {
		const { db, done, live } = firstLayoutDatabase();
		const server = await startServer({ args: ['--db', db, '--reconnect-grace', '60'] });
		try {
			const health = await server.health();
			assert.equal(health.rooms, 1, `expected the live game restored, got ${JSON.stringify(health)}; the server logged:\n${server.output()}`);
			const expected = [{ x: 7, y: 7 }, { x: 8, y: 8 }, { x: 7, y: 8 }];
			for (const id of [done, live]) {
				const game = await gameRecord(server, id);
				assert.deepEqual(game.moves.map(({ x, y }) => ({ x, y })), expected,
					`expected the 3 moves of game ${id} after the move to the log, got ${JSON.stringify(game.moves)}`);
			}
			const version = await sqliteQuery(db, 'PRAGMA user_version');
			assert.equal(version[0].user_version, 4);
			const logged = await sqliteQuery(db, 'SELECT game_id, COUNT(*) AS n FROM move_log GROUP BY game_id');
			assert.deepEqual(logged, [{ game_id: live, n: 3 }], 'expected only the live game\'s moves in the log');
		} finally {
			await server.stop();
		}
	});

	/**
	 * A database of the second layout (a move log; no time controls nor
	 * clocks): a finished game with its moves in `moves`, and a live one
	 * of 3 moves and a takeback in the log.
	 */
	function secondLayoutDatabase() {
		const db = scratchDb();
		const now = Date.now();
		const [done, live] = ['00000000-0000-4000-8000-000000000020', '00000000-0000-4000-8000-000000000021'];
		const game = (id, i, finished) => `INSERT INTO games (id, size, rule, full_board, front_uid, back_uid,
			front_name, back_name, started_ms, finished_ms, winner, reason, line, log_from) VALUES ('${id}', 15,
			'freestyle', 'back', '10000000-0000-4000-8000-00000000002${i}', '20000000-0000-4000-8000-00000000002${i}',
			'a', 'b', ${now - 60_000}, ${finished ? now : 'NULL'}, ${finished ? "'front'" : 'NULL'},
			${finished ? "'forfeit'" : 'NULL'}, NULL, ${finished ? 'NULL' : 1});`;
		execFileSync('sqlite3', [db, `PRAGMA journal_mode=WAL;
			CREATE TABLE games (id TEXT PRIMARY KEY, size INTEGER NOT NULL, rule TEXT NOT NULL,
				full_board TEXT NOT NULL, front_uid TEXT NOT NULL, back_uid TEXT NOT NULL,
				front_name TEXT NOT NULL, back_name TEXT NOT NULL, started_ms INTEGER NOT NULL,
				finished_ms INTEGER, winner TEXT, reason TEXT, line TEXT, log_from INTEGER);
			CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
				x INTEGER NOT NULL, y INTEGER NOT NULL, PRIMARY KEY (game_id, seq)) WITHOUT ROWID;
			CREATE TABLE move_log (n INTEGER PRIMARY KEY, game_id TEXT NOT NULL, seq INTEGER NOT NULL,
				x INTEGER NOT NULL, y INTEGER NOT NULL);
			${game(done, 0, true)}
			${game(live, 1, false)}
			INSERT INTO moves (game_id, seq, x, y) VALUES ('${done}', 0, 7, 7), ('${done}', 1, 8, 8);
			INSERT INTO move_log (game_id, seq, x, y) VALUES ('${live}', 0, 7, 7), ('${live}', 1, 8, 8),
				('${live}', 2, 7, 8), ('${live}', 2, -1, -1);
			PRAGMA user_version=2;`]);
		return { db, done, live };
	}

	it('upgrades a database of the second layout at start-up: tc none, no clocks, the live game resumed', T, async () => {
		const { db, done, live } = secondLayoutDatabase();
		const server = await startServer({ args: ['--db', db, '--reconnect-grace', '60'] });
		try {
			const health = await server.health();
			assert.equal(health.rooms, 1, `expected the live game restored, got ${JSON.stringify(health)}; the server logged:\n${server.output()}`);
			const liveRecord = await gameRecord(server, live);
			assert.equal(liveRecord.tc, 'none', `expected tc none for a game of the second layout, got ${JSON.stringify(liveRecord)}`);
			assert.equal('clock' in liveRecord, false, `expected no clock, got ${JSON.stringify(liveRecord)}`);
			assert.equal('rematch_of' in liveRecord, false, `expected no rematch_of, got ${JSON.stringify(liveRecord)}`);
			assert.deepEqual(liveRecord.moves, [{ x: 7, y: 7, role: 'front' }, { x: 8, y: 8, role: 'back' }],
				'expected the live game\'s moves less the one taken back');
			const doneRecord = await gameRecord(server, done);
			assert.equal(doneRecord.tc, 'none');
			assert.deepEqual(doneRecord.result, { winner: 'front', reason: 'forfeit' });
			assert.deepEqual(doneRecord.moves, [{ x: 7, y: 7, role: 'front' }, { x: 8, y: 8, role: 'back' }]);
			const version = await sqliteQuery(db, 'PRAGMA user_version');
			assert.equal(version[0].user_version, 4);
			const games = await sqliteQuery(db, 'SELECT tc, rematch_of, front_ms, back_ms, private FROM games ORDER BY id');
			assert.deepEqual(games, [
				{ tc: 'none', rematch_of: null, front_ms: null, back_ms: null, private: 0 },
				{ tc: 'none', rematch_of: null, front_ms: null, back_ms: null, private: 0 },
			]);
			const { json: recent } = { json: JSON.parse((await server.get('/api/games')).body) };
			assert.deepEqual(recent.games.map((game) => game.id), [done], 'expected the upgraded finished game listed');
			const clocked = await sqliteQuery(db,
				'SELECT (SELECT COUNT(*) FROM moves WHERE front_ms IS NOT NULL) + (SELECT COUNT(*) FROM move_log WHERE front_ms IS NOT NULL) AS n');
			assert.equal(clocked[0].n, 0, 'expected no clocks on the moves of untimed games');
		} finally {
			await server.stop();
		}
	});

	it('keeps the moves of a live game that cannot be resumed (a move the rules refuse) with its abandoned record', T, async () => {
		const { db, live } = firstLayoutDatabase({ liveMoves: [[7, 7], [8, 8], [7, 7]] });
		const server = await startServer({ args: ['--db', db] });
		try {
			assert.equal((await server.health()).rooms, 0, 'expected a game whose third move is on a stone not resumed');
			const game = await gameRecord(server, live);
			assert.equal(game.status, 'finished');
			assert.equal(game.result.reason, 'abandoned');
			assert.deepEqual(game.moves.map(({ x, y }) => ({ x, y })), [{ x: 7, y: 7 }, { x: 8, y: 8 }, { x: 7, y: 7 }],
				`expected the abandoned game's 3 moves kept, got ${JSON.stringify(game.moves)}`);
		} finally {
			await server.stop();
		}
	});

	it('resumes a live game of another board size than the server\'s default in its own pool', T, async () => {
		const { db, live } = firstLayoutDatabase();
		const server = await startServer({ args: ['--db', db, '--board-size', '19', '--reconnect-grace', '60'] });
		try {
			assert.equal((await server.health()).rooms, 1, 'expected the 15 x 15 game resumed on a 19 x 19 server');
			const game = await gameRecord(server, live);
			assert.equal(game.status, 'live');
			assert.equal(game.size, 15);
			const pools = await (await fetch(`${server.httpUrl}/api/pools`)).json();
			assert.deepEqual(pools.pools.map(({ size, games }) => ({ size, games })), [{ size: 19, games: 0 }, { size: 15, games: 1 }],
				`expected the default 19 x 19 pool and the restored game's 15 x 15 pool, got ${JSON.stringify(pools)}`);
		} finally {
			await server.stop();
		}
	});

	it('writes a finished game\'s moves whole to `moves` and prunes its log entries', T, async () => {
		const db = scratchDb();
		const server = await startServer({ args: ['--db', db] });
		try {
			const { front, back, room } = await connectPair(server);
			// front plays a row of five on y = 0; back on y = 1.
			for (let i = 0; i < 9; i++) {
				(i % 2 ? back : front).move(Math.floor(i / 2), i % 2);
				await front.next('board');
				await back.next('board');
			}
			await front.next('winner');
			const moves = await pollUntil(async () => {
				const rows = await sqliteQuery(db, `SELECT seq, x, y FROM moves WHERE game_id = '${room}' ORDER BY seq`);
				return rows.length === 9 ? rows : undefined;
			}, 'the finished game\'s 9 moves in `moves`', { timeoutMs: scaled(10_000), intervalMs: 100 });
			assert.deepEqual(moves.map(({ x, y }) => [x, y]),
				[[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1], [3, 0], [3, 1], [4, 0]]);
			await pollUntil(async () => ((await sqliteQuery(db, 'SELECT COUNT(*) AS n FROM move_log'))[0].n === 0 ? true : undefined),
				'the move log pruned of the finished game', { timeoutMs: scaled(10_000), intervalMs: 200 });
		} finally {
			closeAllClients();
			await server.stop();
		}
	});
});
