// Helpers for the protocol 2 suites (PROTOCOL.md section 10): pools,
// clocks, resign, abort, draw, rematch and emotes.
//
// The clock assertions are arithmetic on the figures the server sends,
// bounded by what the test measured itself: a move accepted after the
// client sent it and before the client got its board. Every wait is for
// an event; every deadline goes through scaled().

import assert from 'node:assert/strict';

import { connectPair, connectWaiting, otherRole, DEFAULT_TIMEOUT_MS } from './client.mjs';
import { parseMetrics } from './observe.mjs';

/** The emotes of section 10.5, in the order the document lists them. */
export const EMOTES = ['hello', 'hurry', 'nice', 'wow', 'oops', 'thanks', 'gg', 'smug'];

/**
 * Milliseconds of disagreement allowed between the server's clock figures
 * and the test's own measurements: both count whole milliseconds, on two
 * different clocks of the same machine.
 */
export const CLOCK_SLACK_MS = 10;

/** The fields of a clock: { front, back }. */
export const CLOCK_KEYS = ['back', 'front'];

/** `tc` as base and increment in milliseconds: '300+5' -> { baseMs, incMs }. */
export function parseTc(tc) {
	const match = /^(\d+)\+(\d+)$/.exec(tc);
	assert.ok(match, `test error: ${JSON.stringify(tc)} is no BASE+INC`);
	return { baseMs: Number(match[1]) * 1000, incMs: Number(match[2]) * 1000 };
}

/**
 * Quiet moves: stones on cells whose coordinates are both even, row by
 * row, front first and alternating. No five can form on them (every row,
 * column and diagonal has gaps), on any board of 5 x 5 or more.
 */
export function quietMoves(count, size) {
	const cells = [];
	for (let y = 0; y < size; y += 2)
		for (let x = 0; x < size; x += 2)
			cells.push({ x, y });
	assert.ok(count <= cells.length, `test error: ${count} quiet moves do not fit on ${size} x ${size}`);
	return cells.slice(0, count).map((cell, i) => ({ ...cell, role: i % 2 ? 'back' : 'front' }));
}

/**
 * Takes the next message of both players, which must be of `type` and the
 * same for both; resolves with it.
 */
export async function bothNext(pair, type, timeoutMs = DEFAULT_TIMEOUT_MS) {
	const [front, back] = await Promise.all([pair.front.next(type, timeoutMs), pair.back.next(type, timeoutMs)]);
	assert.deepEqual(back, front, `expected front and back to get the same ${type} message`);
	return front;
}

/** Sends message from client and expects `error` `code` back. */
export async function expectRefusal(client, message, code) {
	client.send(message);
	const error = await client.next('error');
	assert.equal(error.code, code,
		`expected ${JSON.stringify(message)} from ${client.label} to get ${code}, got ${JSON.stringify(error)}`);
	assert.equal(typeof error.message, 'string', `expected the error to carry a message, got ${JSON.stringify(error)}`);
	return error;
}

/**
 * Two players of one pool (the same query for both, names aside) matched
 * into a room: connectPair's result, plus .openedAfter (Date.now() just
 * before the second player connected: the room opened later) and
 * .matchedAt (Date.now() once both roles came).
 */
export async function pairIn(server, query = {}, { names = [], options = {} } = {}) {
	const firstQuery = { ...query };
	const secondQuery = { ...query };
	if (names[0])
		firstQuery.name = names[0];
	if (names[1])
		secondQuery.name = names[1];
	const openedAfter = Date.now();
	const pair = await connectPair(server, { firstQuery, secondQuery, options });
	pair.openedAfter = openedAfter;
	pair.matchedAt = Date.now();
	if (names[0])
		pair.first.name = names[0];
	if (names[1])
		pair.second.name = names[1];
	return pair;
}

/** A player of a pool, queued: connectWaiting with the pool's query. */
export function waitIn(server, query = {}, options = {}) {
	return connectWaiting(server, query, options);
}

/**
 * Plays one move of `mover` (front or back) and takes the board both get.
 * Resolves with { board, sentAt, receivedAt }: the server accepted the
 * move after sentAt and before receivedAt.
 */
export async function timedMove(pair, { x, y, role }) {
	const mover = role === 'front' ? pair.front : pair.back;
	const sentAt = Date.now();
	mover.move(x, y);
	const board = await bothNext(pair, 'board');
	const receivedAt = Date.now();
	assert.deepEqual(board.move, { x, y, role },
		`expected the board of ${role}'s move (${x},${y}), got ${JSON.stringify(board)}`);
	return { board, sentAt, receivedAt };
}

/** Plays moves one by one with timedMove; resolves with their results. */
export async function timedMoves(pair, moves) {
	const played = [];
	for (const move of moves)
		played.push(await timedMove(pair, move));
	return played;
}

/** Asserts that message carries a clock { front, back } of whole milliseconds. */
export function assertClockShape(message, who = 'the player') {
	const text = JSON.stringify(message);
	assert.ok(message.clock && typeof message.clock === 'object',
		`expected ${who}'s ${message.type} to carry clock {front, back}, got ${text}`);
	assert.deepEqual(Object.keys(message.clock).sort(), CLOCK_KEYS,
		`expected ${who}'s ${message.type}.clock to have exactly front and back, got ${text}`);
	for (const side of CLOCK_KEYS)
		assert.ok(Number.isInteger(message.clock[side]) && message.clock[side] >= 0,
			`expected ${who}'s ${message.type}.clock.${side} to be whole milliseconds, got ${text}`);
}

/** Asserts that message has none of the fields of a timed game. */
export function assertNoClockFields(message, who = 'the player') {
	for (const field of ['clock', 'abort_in'])
		assert.equal(field in message, false,
			`expected ${who}'s ${message.type} of an untimed game to have no ${field}, got ${JSON.stringify(message)}`);
}

/**
 * Asserts that a clock figure lies within [low, high] (with the slack of
 * two clocks); `what` names it for the failure message.
 */
export function assertWithin(value, low, high, what) {
	assert.ok(value >= low - CLOCK_SLACK_MS && value <= high + CLOCK_SLACK_MS,
		`expected ${what} within [${low}, ${high}] ms (give or take ${CLOCK_SLACK_MS}), got ${value}`);
}

/** GET /metrics as a Map of samples. */
export async function metricsOf(server) {
	const res = await server.get('/metrics');
	assert.equal(res.status, 200, `expected GET /metrics to answer 200, got ${res.status}`);
	return { samples: parseMetrics(res.body), text: res.body };
}

/**
 * Asserts that each sample of `grown` ({ sample: n }) grew by n between
 * the two snapshots of metricsOf() (a sample missing before counts as 0;
 * it must be reported after).
 */
export function assertMetricsGrew(before, after, grown) {
	for (const [sample, by] of Object.entries(grown)) {
		const now = after.samples.get(sample);
		assert.notEqual(now, undefined, `expected /metrics to report ${sample}, it did not:\n${after.text}`);
		const was = before.samples.get(sample) ?? 0;
		assert.equal(now - was, by, `expected ${sample} to grow by ${by}, it went from ${was} to ${now}`);
	}
}

/** Both players' clients by side: { front, back }[side]. */
export function seat(pair, side) {
	return side === 'front' ? pair.front : pair.back;
}

export { otherRole };
