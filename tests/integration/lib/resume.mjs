// Helpers for the reconnect and restart tests: a player coming back to
// its seat, a server that can be restarted on the same port and database,
// the game record of GET /api/games/ID, and read-only looks into the
// SQLite file with the sqlite3 command-line tool.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';

import { startServer, HOST, webRoot, freePort, scratchDb } from './server.mjs';
import { connectPlayer, DEFAULT_TIMEOUT_MS } from './client.mjs';
import { emptyContent, withStone } from './game.mjs';

import { sleep } from './time.mjs';

export { sleep };

/** The board content after moves ([{ x, y, role }]) on a size x size board. */
export function replay(moves, size) {
	let content = emptyContent(size);
	for (const { x, y, role } of moves)
		content = withStone(content, size, x, y, role);
	return content;
}

/**
 * Connects again with player's uid (and name, when it had one) and takes
 * the welcome. The new client carries the same .uid, .role and .name.
 */
export async function rejoin(server, player, { label, name = player.name } = {}) {
	const client = await connectPlayer(server, { uid: player.uid, name },
		{ label: label || `${player.label || 'player'} (back again)` });
	client.uid = player.uid;
	client.role = player.role;
	client.name = name;
	client.welcome = await client.next('welcome');
	assert.equal(client.welcome.uid, player.uid,
		`expected the welcome of a returning player to carry its own uid, got ${JSON.stringify(client.welcome)}`);
	return client;
}

/**
 * Takes the role (and, when moves were made, the board) a returning player
 * gets, and checks them against the seat it held: the same room and side,
 * and a board whose content is exactly the position after `moves`.
 * Resolves with { role, board } (board null when no move was made).
 */
export async function expectResume(client, { room, role, moves, size }) {
	const roleMessage = await client.next('role');
	assert.equal(roleMessage.room, room,
		`expected ${client.label} to resume room ${room}, got ${JSON.stringify(roleMessage)}`);
	assert.equal(roleMessage.role, role,
		`expected ${client.label} to resume as ${role}, got ${JSON.stringify(roleMessage)}`);
	assert.equal(roleMessage.size, size, `expected role.size ${size}, got ${JSON.stringify(roleMessage)}`);
	if (!moves.length)
		return { role: roleMessage, board: null };
	const board = await client.next('board');
	const last = moves[moves.length - 1];
	assert.deepEqual(board.content, replay(moves, size),
		`expected ${client.label}'s resumed board to hold exactly the ${moves.length} moves played ` +
		`${JSON.stringify(moves)}, got ${JSON.stringify(board)}`);
	assert.equal(board.moves, moves.length,
		`expected the resumed board.moves to be ${moves.length}, got ${JSON.stringify(board)}`);
	assert.deepEqual(board.move, last,
		`expected the resumed board.move to be the last move ${JSON.stringify(last)}, got ${JSON.stringify(board)}`);
	assert.equal(board.role, last.role === 'front' ? 'back' : 'front',
		`expected the resumed board.role to be the side to move next, got ${JSON.stringify(board)}`);
	return { role: roleMessage, board };
}

/**
 * GET /api/games/ID: resolves with { status, body, game } (game parsed
 * when the answer is JSON), and checks that the body holds none of the
 * uids in `secrets`.
 */
export async function getGame(server, id, { secrets = [] } = {}) {
	const res = await server.get(`/api/games/${id}`);
	for (const uid of secrets)
		assert.ok(!res.body.toLowerCase().includes(uid.toLowerCase()),
			`expected GET /api/games/${id} never to show a player's uid, got ${res.body}`);
	let game = null;
	try {
		game = JSON.parse(res.body);
	} catch {
		// not JSON: the test looks at status and body
	}
	return { status: res.status, body: res.body, headers: res.headers, game };
}

/** GET /api/games/ID, which must answer 200; resolves with the record. */
export async function gameRecord(server, id, options) {
	const res = await getGame(server, id, options);
	assert.equal(res.status, 200, `expected GET /api/games/${id} to answer 200, got ${res.status}: ${res.body}`);
	assert.ok(res.game, `expected GET /api/games/${id} to answer JSON, got ${res.body}`);
	return res.game;
}

/**
 * Polls GET /api/games/ID until its status is `status`; resolves with the
 * record, failing after timeoutMs.
 */
export async function waitForGameStatus(server, id, status, { timeoutMs = DEFAULT_TIMEOUT_MS } = {}) {
	const deadline = Date.now() + timeoutMs;
	let game;
	for (;;) {
		game = await gameRecord(server, id);
		if (game.status === status)
			return game;
		if (Date.now() > deadline)
			throw new Error(`expected game ${id} to become "${status}" within ${timeoutMs} ms, ` +
				`it stayed ${JSON.stringify(game)}`);
		await sleep(25);
	}
}

/**
 * Polls /healthz until check(health) is true; resolves with it, failing
 * after timeoutMs with the last status.
 */
export async function waitForHealth(server, check, what, { timeoutMs = DEFAULT_TIMEOUT_MS } = {}) {
	const deadline = Date.now() + timeoutMs;
	let health;
	for (;;) {
		health = await server.health();
		if (check(health))
			return health;
		if (Date.now() > deadline)
			throw new Error(`expected /healthz to show ${what} within ${timeoutMs} ms, ` +
				`last got ${JSON.stringify(health)}`);
		await sleep(20);
	}
}

// The limits of a public server lifted, as lib/server.mjs does for its
// servers (this file passes every flag itself).
const LIFTED_LIMITS = ['--max-per-ip', '0', '--rate-burst', '100000', '--rate-per-second', '100000'];

/**
 * A server that can be stopped and started again on the same port and the
 * same database: start() resolves with a running Server each time. args
 * are added after the port, host, web root, database and lifted limits;
 * they should name --reconnect-grace (the server default is 30 s).
 */
export class RestartableServer {
	constructor({ args = [], db = scratchDb(), port = null } = {}) {
		this.args = args;
		this.db = db;
		this.port = port;
		this.current = null; // the running Server, if any
		this.starts = 0;
	}

	async start({ startTimeoutMs } = {}) {
		if (!this.port)
			this.port = await freePort();
		const args = ['--port', String(this.port), '--host', HOST, '--web-root', webRoot,
			'--db', this.db, ...LIFTED_LIMITS, ...this.args];
		this.current = await startServer({ hostAndPort: false, port: this.port, args, startTimeoutMs });
		this.starts += 1;
		return this.current;
	}

	/** SIGKILL: the process gets no chance to clean up. */
	async kill() {
		if (this.current)
			await this.current.kill();
		this.current = null;
	}

	/** SIGTERM, and a clean exit (code 0) is required. */
	async stop() {
		if (this.current)
			await this.current.stop();
		this.current = null;
	}
}

/**
 * Runs an SQL query on the database file read-only with the sqlite3
 * command-line tool and resolves with the rows as objects.
 */
export function sqliteQuery(db, sql) {
	return new Promise((resolve, reject) => {
		execFile('sqlite3', ['-readonly', '-json', db, sql], { timeout: 10_000 }, (err, stdout, stderr) => {
			if (err) {
				reject(new Error(`sqlite3 ${db} "${sql}" failed: ${err.message} ${stderr}`));
				return;
			}
			const text = stdout.trim();
			resolve(text ? JSON.parse(text) : []);
		});
	});
}
