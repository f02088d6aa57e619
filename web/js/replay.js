// A finished game replayed move by move: the record of /api/games/ID
// (core/PROTOCOL.md 8) checked and kept, a position in it (0: the empty
// board, moves.length: the end) and the steps between positions, by the
// buttons (first, back, forward, last) or the keys. Pure: no DOM, so
// node --test steps through it.

import { ROLES, emptyCells } from './state.js';

/** The steps a replay takes, and the keys that take them. */
export const STEPS = ['first', 'back', 'forward', 'last'];

const STEP_KEYS = {
	ArrowLeft: 'back',
	ArrowRight: 'forward',
	ArrowUp: 'first',
	ArrowDown: 'last',
	Home: 'first',
	End: 'last',
};

/** The step a key (KeyboardEvent.key) takes in a replay, or null. */
export function stepOfKey(key) {
	return Object.hasOwn(STEP_KEYS, key) ? STEP_KEYS[key] : null;
}

/** A seat of the record as {name, ai}: the name given ('' when none). */
function seatOf(seat) {
	return {
		name: seat && typeof seat.name === 'string' ? seat.name : '',
		ai: Boolean(seat && seat.ai === true),
	};
}

/**
 * The replay of record (the JSON of /api/games/ID), at its end; null when
 * the record is not one: a size out of the protocol's range, or a move off
 * the board, on a taken point or of no side.
 */
export function newReplay(record) {
	if (!record || typeof record !== 'object' || !Array.isArray(record.moves))
		return null;
	const size = record.size;
	if (!Number.isInteger(size) || size < 5 || size > 25)
		return null;
	const taken = new Set();
	const moves = [];
	for (const move of record.moves) {
		if (!move || !Number.isInteger(move.x) || !Number.isInteger(move.y) || !ROLES.includes(move.role) ||
		    move.x < 0 || move.y < 0 || move.x >= size || move.y >= size || taken.has(move.y * size + move.x))
			return null;
		taken.add(move.y * size + move.x);
		moves.push({ x: move.x, y: move.y, role: move.role });
	}
	const result = record.result && typeof record.result === 'object' ? record.result : null;
	return {
		id: typeof record.id === 'string' ? record.id : '',
		size,
		rule: typeof record.rule === 'string' ? record.rule : 'freestyle',
		tc: typeof record.tc === 'string' ? record.tc : 'none',
		finished: record.status === 'finished' || result !== null,
		players: {
			front: seatOf(record.players && record.players.front),
			back: seatOf(record.players && record.players.back),
		},
		result: result ? {
			winner: ['front', 'back', 'draw', 'none'].includes(result.winner) ? result.winner : 'none',
			reason: typeof result.reason === 'string' ? result.reason : '',
			line: Array.isArray(result.line)
				? result.line.filter((cell) => cell && Number.isInteger(cell.x) && Number.isInteger(cell.y))
					.map(({ x, y }) => ({ x, y }))
				: [],
		} : null,
		moves,
		at: moves.length,
	};
}

/** The position step leads to from the replay's (clamped to the game). */
export function stepReplay(replay, step) {
	const last = replay.moves.length;
	const at = {
		first: 0,
		back: Math.max(0, replay.at - 1),
		forward: Math.min(last, replay.at + 1),
		last,
	}[step];
	return at === undefined || at === replay.at ? replay : { ...replay, at };
}

/** The replay at position at (a move number, clamped to the game). */
export function seekReplay(replay, at) {
	const clamped = Math.min(replay.moves.length, Math.max(0, Math.trunc(Number(at)) || 0));
	return clamped === replay.at ? replay : { ...replay, at: clamped };
}

/** Which steps go anywhere now: {first, back, forward, last} as booleans. */
export function replayStepsOf(replay) {
	const atStart = replay.at === 0;
	const atEnd = replay.at === replay.moves.length;
	return { first: !atStart, back: !atStart, forward: !atEnd, last: !atEnd };
}

/**
 * The board at the replay's position: its cells, the last move and, at
 * the end, the winning line.
 */
export function replayBoardOf(replay) {
	const cells = emptyCells(replay.size);
	for (const move of replay.moves.slice(0, replay.at))
		cells[move.y * replay.size + move.x] = move.role;
	const atEnd = replay.at === replay.moves.length;
	return {
		cells,
		lastMove: replay.at ? { ...replay.moves[replay.at - 1] } : null,
		line: atEnd && replay.result ? replay.result.line : [],
	};
}

/** The status of a replay as a text key and parameters: the position, or the result at the end. */
export function replayStatusOf(replay) {
	const total = replay.moves.length;
	if (replay.at === total && replay.result)
		return { key: `watch.result.${replay.result.winner}` };
	if (replay.at === 0)
		return { key: 'replay.start', params: { total } };
	return { key: 'replay.at', params: { at: replay.at, total } };
}

/** The note under a replay's status: how the game ended, at its end. */
export function replayNoteOf(replay) {
	const total = replay.moves.length;
	if (replay.at === total && replay.result && replay.result.reason)
		return { key: `reason.${replay.result.reason}` };
	return null;
}
