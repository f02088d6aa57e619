// Games against the server's engine (mode=ai), and a client-side model of
// a position that checks every board message a player gets: moves (full or
// compact), the boards of a takeback (undo) and those of a redo.
//
// connectAi() seats a player against the engine. Position keeps the board
// as the player should see it and asserts each board against it. The
// naive player (naiveCell) plays only cells whose coordinates are both
// even, farthest from the centre first: such stones never touch, so they
// never make five nor get in the engine's way much, and the engine is
// free to win. playToTheEnd() plays a whole game that way, checks every
// board and the winner message, and times the engine's answers.

import assert from 'node:assert/strict';
import path from 'node:path';

import { connectPlayer, otherRole, uuid, DEFAULT_TIMEOUT_MS } from './client.mjs';
import { emptyContent, findRuns, cellKeys } from './game.mjs';
import { serverBin } from './server.mjs';

export const LEVELS = ['beginner', 'easy', 'medium', 'hard', 'master'];

/**
 * Our own pbrain engine program, built next to the server binary, or
 * GOMOKU_PBRAIN_BIN (the valgrind stage runs the server through a wrapper
 * script in another directory).
 */
export const pbrainBin = process.env.GOMOKU_PBRAIN_BIN || path.join(path.dirname(serverBin), 'pbrain-gomoku');

/**
 * The fake engine programs of tests/fake-engines/ (shared with the unit
 * tests of server/pbrain_client.c), by file name.
 */
export function fakeEnginePath(name) {
	return decodeURIComponent(new URL(`../../fake-engines/${name}`, import.meta.url).pathname);
}

/** The opponent field of a role against the engine at level. */
export function engineOpponent(level) {
	return { ai: true, level };
}

/**
 * Connects a player with mode=ai (and a fresh uid unless query.uid is
 * given), takes its welcome and its role. Resolves with the client, which
 * carries .uid, .welcome, .roleMessage, .role, .engineRole and .roleAt
 * (Date.now() when the role came: the engine's clock starts then when it
 * moves first).
 */
export async function connectAi(server, query = {}, options = {}) {
	const uid = 'uid' in query ? query.uid : uuid();
	const client = await connectPlayer(server, { mode: 'ai', ...query, uid }, {
		label: `player against the engine${query.level ? ` (${query.level})` : ''}`, ...options,
	});
	client.uid = uid;
	client.welcome = await client.next('welcome');
	client.roleMessage = await client.next('role', DEFAULT_TIMEOUT_MS, { skip: ['waiting'] });
	client.roleAt = Date.now();
	client.role = client.roleMessage.role;
	client.engineRole = otherRole(client.role);
	return client;
}

/**
 * Connects against the engine until the engine has the side `engineRole`
 * (the side is random); the other connections are closed. Gives up after
 * `attempts` (the chance of that is 2^-attempts).
 */
export async function connectAiAs(server, engineRole, query = {}, { attempts = 30 } = {}) {
	const seen = [];
	for (let i = 0; i < attempts; i++) {
		const client = await connectAi(server, query);
		if (client.engineRole === engineRole)
			return client;
		seen.push(client.role);
		await client.close(1000);
	}
	throw new Error(`expected the engine to get the side ${engineRole} in one of ${attempts} ` +
		`games, the player always got ${JSON.stringify(seen)}`);
}

/** The message texts of client other than its welcome. */
function textsAfterWelcome(client) {
	return client.received.filter((entry) => entry.message.type !== 'welcome').map((entry) => entry.text);
}

/**
 * Asserts that no message client received, its welcome aside, contains
 * any of uids (case-insensitive).
 */
export function assertNoUidLeak(client, uids = [client.uid]) {
	for (const text of textsAfterWelcome(client))
		for (const uid of uids)
			assert.ok(!text.toLowerCase().includes(uid.toLowerCase()),
				`expected no message to ${client.label} but its welcome to contain the uid ${uid}, got ${text}`);
}

/** The position the players should see, checked against every board. */
export class Position {
	constructor(size, { fullBoard = 'back' } = {}) {
		this.size = size;
		this.fullBoard = fullBoard;
		this.content = emptyContent(size);
		this.played = []; // [{ x, y, role }] in order
		this.toMove = 'front';
	}

	get moves() {
		return this.played.length;
	}

	isEmpty(x, y) {
		return this.content[y * this.size + x] === '';
	}

	/** A copy, for a position to come back to. */
	snapshot() {
		return { content: this.content.slice(), played: this.played.slice(), toMove: this.toMove };
	}

	/**
	 * Checks a board that plays one move of `mover` (a move on an empty
	 * cell, the count one up, the other side to move, no undo, and the
	 * content, when it has one, equal to the model after the move) and
	 * plays it on the model.
	 */
	play(board, mover, who = 'player') {
		const text = JSON.stringify(board);
		assert.equal(board.type, 'board', `expected ${who} to get a board, got ${text}`);
		assert.equal(board.undo, undefined, `expected ${who}'s board of a move to have no undo, got ${text}`);
		assert.ok(board.move && typeof board.move === 'object',
			`expected ${who}'s board to carry the move of ${mover}, got ${text}`);
		const { x, y, role } = board.move;
		assert.equal(role, mover, `expected ${who}'s board to be a move of ${mover}, got ${text}`);
		assert.ok(Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 &&
			x < this.size && y < this.size, `expected ${who}'s board to play a cell on the board, got ${text}`);
		assert.ok(this.isEmpty(x, y), `expected ${mover}'s move (${x},${y}) to be on an empty cell, ` +
			`it holds ${this.content[y * this.size + x]}; the moves so far: ${JSON.stringify(this.played)}`);
		assert.equal(board.moves, this.moves + 1,
			`expected ${who}'s board.moves to count up to ${this.moves + 1}, got ${text}`);
		assert.equal(board.role, otherRole(mover),
			`expected ${who}'s board.role after ${mover} moved to be ${otherRole(mover)}, got ${text}`);
		this.content[y * this.size + x] = mover;
		this.played.push({ x, y, role: mover });
		this.toMove = otherRole(mover);
		if ('content' in board)
			assert.deepEqual(board.content, this.content,
				`expected ${who}'s board content to be the position after ${JSON.stringify(this.played)}`);
	}

	/**
	 * Checks a board of a takeback: it removes the last stone played
	 * (undo {x, y, role}), always carries the content (equal to the model
	 * without that stone), has no move, counts one move fewer and has the
	 * removed stone's side to move. Takes the stone off the model.
	 */
	undo(board, who = 'player') {
		const text = JSON.stringify(board);
		const last = this.played[this.played.length - 1];
		assert.equal(board.type, 'board', `expected ${who} to get a board of a takeback, got ${text}`);
		assert.ok(last, `expected no takeback board on an empty board, ${who} got ${text}`);
		assert.deepEqual(board.undo, last,
			`expected ${who}'s takeback board to remove the last stone ${JSON.stringify(last)}, got ${text}`);
		assert.equal('move' in board, false, `expected ${who}'s takeback board to have no move, got ${text}`);
		assert.equal(board.moves, this.moves - 1,
			`expected ${who}'s takeback board.moves to count down to ${this.moves - 1}, got ${text}`);
		assert.equal(board.role, last.role,
			`expected ${who}'s takeback board.role to be ${last.role} (whose stone went), got ${text}`);
		this.content[last.y * this.size + last.x] = '';
		this.played.pop();
		this.toMove = last.role;
		assert.ok(Array.isArray(board.content),
			`expected ${who}'s takeback board to carry the content, got ${text}`);
		assert.deepEqual(board.content, this.content,
			`expected ${who}'s takeback board content to be the position after ${JSON.stringify(this.played)}`);
	}

	/**
	 * The result the model calls for: { winner, reason: 'five', lines }
	 * (every run of five or more), { winner, reason: 'full' } or null.
	 */
	result() {
		const runs = findRuns(this.content, this.size);
		if (runs.length) {
			const { x, y } = runs[0][0];
			return { winner: this.content[y * this.size + x], reason: 'five', lines: runs };
		}
		if (this.content.every((cell) => cell !== ''))
			return { winner: this.fullBoard, reason: 'full' };
		return null;
	}

	/** Checks a winner message against result(). */
	assertWinner(message, who = 'player') {
		const expected = this.result();
		const text = JSON.stringify(message);
		assert.ok(expected, `expected no winner before the game is over, ${who} got ${text}`);
		assert.equal(message.type, 'winner');
		assert.equal(message.winner, expected.winner,
			`expected ${who}'s winner message to name ${expected.winner}, got ${text}`);
		assert.equal(message.reason, expected.reason,
			`expected ${who}'s winner message to say ${expected.reason}, got ${text}`);
		if (expected.reason === 'five')
			assert.ok(Array.isArray(message.line) &&
				expected.lines.some((line) => cellKeys(line).join(' ') === cellKeys(message.line).join(' ')),
			`expected ${who}'s winning line to be one of ${JSON.stringify(expected.lines)}, got ${text}`);
	}
}

// The naive player's cells: both coordinates even, farthest from the
// centre first (then top to bottom, left to right).
function naiveOrder(size) {
	const centre = (size - 1) / 2;
	const cells = [];
	for (let y = 0; y < size; y += 2)
		for (let x = 0; x < size; x += 2)
			cells.push({ x, y, far: Math.max(Math.abs(x - centre), Math.abs(y - centre)) });
	cells.sort((a, b) => b.far - a.far || a.y - b.y || a.x - b.x);
	return cells.map(({ x, y }) => ({ x, y }));
}

/** The naive player's next cell in position: see the top of the file. */
export function naiveCell(position) {
	const cell = naiveOrder(position.size).find(({ x, y }) => position.isEmpty(x, y));
	if (cell)
		return cell;
	const index = position.content.indexOf('');
	return { x: index % position.size, y: Math.floor(index / position.size) };
}

/**
 * Takes the engine's next board and checks it (position.play). startedAt
 * is when the engine's turn began; when boundMs is given, the board must
 * come within boundMs of it. Resolves with { board, elapsedMs }.
 */
export async function expectEngineMove(client, position, { startedAt = Date.now(), boundMs } = {}) {
	const timeoutMs = Math.max(DEFAULT_TIMEOUT_MS, (boundMs || 0) * 2);
	const board = await client.next('board', timeoutMs);
	const elapsedMs = Date.now() - startedAt;
	position.play(board, client.engineRole, `${client.label} (the engine's move)`);
	if (boundMs !== undefined)
		assert.ok(elapsedMs <= boundMs, `expected the engine to answer within ${boundMs} ms, ` +
			`it took ${elapsedMs} ms for ${JSON.stringify(board.move)}`);
	return { board, elapsedMs };
}

/**
 * Plays the player's move at (x, y) and checks its board. Resolves with
 * the time the move was sent (the start of the engine's turn).
 */
export async function playerMove(client, position, { x, y }) {
	const sentAt = Date.now();
	client.move(x, y);
	position.play(await client.next('board'), client.role, `${client.label} (its own move)`);
	return sentAt;
}

/**
 * Plays client's game against the engine to its end with the naive
 * player, from position (the side to move is position.toMove). Every
 * board is checked; each engine move must come within boundMs. After the
 * board that ends the game, the winner message must be the one the model
 * calls for. Resolves with { winner, engineBoards: [{ board, elapsedMs }] }.
 */
export async function playToTheEnd(client, position, { boundMs, maxMoves = position.size ** 2,
	startedAt = client.roleAt } = {}) {
	const engineBoards = [];
	let turnStartedAt = startedAt;
	while (!position.result()) {
		assert.ok(position.moves < maxMoves,
			`expected the game to end within ${maxMoves} moves, it is still on: ${JSON.stringify(position.played)}`);
		if (position.toMove === client.role)
			turnStartedAt = await playerMove(client, position, naiveCell(position));
		else
			engineBoards.push(await expectEngineMove(client, position, { startedAt: turnStartedAt, boundMs }));
	}
	const winner = await client.next('winner');
	position.assertWinner(winner, client.label);
	return { winner, engineBoards };
}
