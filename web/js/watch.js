// Watching a game (core/PROTOCOL.md 11.1): a reducer of the spectator's
// socket's messages into what the page shows of the room, and what it
// shows of it. The spectator plays nothing: the page sends nothing but
// ping, and a click or a key places nothing. Pure: the time comes in as
// an argument, so node --test drives it message by message.
//
// Phases (data-watch on the page):
//   connecting  the socket is opening (or opening again after a drop)
//   watching    the game goes on
//   over        the game ended (its final position stays; a rematch's
//               spectate starts watching the new room)
//   closed      the room closed: its last player left
//   missing     no such room (or one no longer open)
//   full        the room has as many spectators as it takes
//   lost        the connection could not be made again
//
// reduceWatch(watch, action, now) returns {watch, effects}; effects as
// game.js's ({kind: 'connect'}, {kind: 'reconnect', delay},
// {kind: 'disconnect'}, {kind: 'sound', name}) plus
// {kind: 'fetch-record', room, delay}: fetch /api/games/ROOM after delay
// ms for the moves played before the spectator came (action
// 'client/record').

import { ROLES, emptyCells, otherRole } from './state.js';
import { retryDelay, SEARCH_RETRIES, forbiddenOf } from './protocol.js';
import { clockOf, clockAt, runningSide, clockText, isLow, secondsUntil } from './clock.js';
import { isEmote, bubbleAt } from './emotes.js';

/** A spectator of room, before its socket opened. */
export function newWatch(room) {
	return {
		phase: 'connecting',
		room,
		size: 15,
		rule: 'freestyle',
		tc: 'none',
		link: 'connecting', // connecting | open | retrying | closed
		retries: 0,
		players: { front: {}, back: {} }, // the seats of spectate: {name} ({} for none)
		cells: emptyCells(15),
		moves: 0,
		toMove: 'front',
		history: [], // the moves seen, the last history.length of the game's
		lastMove: null,
		forbidden: [], // renju: black's forbidden points while it is to move
		winner: null, // {winner, reason, line}
		clock: null, // {front, back, at}
		bubbles: { front: null, back: null }, // {emote, at}
		away: { front: null, back: null }, // when (ms) the seat is held until
		fetches: 0, // how many times the room's record was asked for
	};
}

function validMove(move, size) {
	return Boolean(move) && Number.isInteger(move.x) && Number.isInteger(move.y) && ROLES.includes(move.role) &&
		move.x >= 0 && move.y >= 0 && move.x < size && move.y < size;
}

/** The room of a spectate message: a fresh board of its size and pool. */
function onSpectate(watch, message) {
	if (typeof message.room !== 'string')
		return { watch, effects: [] };
	const size = Number.isInteger(message.size) && message.size >= 5 && message.size <= 25 ? message.size : watch.size;
	const players = message.players && typeof message.players === 'object' ? message.players : {};
	return {
		watch: {
			...newWatch(message.room),
			phase: 'watching',
			link: 'open',
			size,
			rule: typeof message.rule === 'string' ? message.rule : 'freestyle',
			tc: typeof message.tc === 'string' ? message.tc : 'none',
			players: { front: players.front || {}, back: players.back || {} },
			cells: emptyCells(size),
		},
		effects: [],
	};
}

/**
 * A board: the whole position (content) or the move added (a compact
 * one). The history grows by the move when the position continues the one
 * shown, loses its top on a takeback, and is otherwise the move alone;
 * when it is shorter than the game, the record is asked for.
 */
function onBoard(watch, message, now) {
	if (watch.phase !== 'watching')
		return { watch, effects: [] };
	const { size } = watch;
	const move = validMove(message.move, size) ? { x: message.move.x, y: message.move.y, role: message.move.role } : null;
	let cells;
	if (message.content !== undefined) {
		if (!Array.isArray(message.content) || message.content.length !== size * size ||
		    !message.content.every((cell) => cell === '' || ROLES.includes(cell)))
			return { watch, effects: [] };
		cells = message.content.slice();
	} else {
		if (!move || watch.cells[move.y * size + move.x] !== '')
			return { watch, effects: [] };
		cells = watch.cells.slice();
		cells[move.y * size + move.x] = move.role;
	}
	const moves = Number.isInteger(message.moves) ? message.moves : cells.filter((cell) => cell !== '').length;
	const undo = message.move === undefined && validMove(message.undo, size) ? message.undo : null;
	let history;
	if (undo)
		history = watch.history.slice(0, -1);
	else if (move && moves === watch.moves + 1 && watch.cells[move.y * size + move.x] === '')
		history = [...watch.history, move];
	else if (move && moves === watch.moves && watch.history.length)
		history = watch.history; // the same position again
	else
		history = move ? [move] : [];
	const clock = clockOf(message.clock, now);
	const next = {
		...watch,
		cells,
		moves,
		toMove: ROLES.includes(message.role) ? message.role : otherRole(move ? move.role : 'back'),
		history,
		lastMove: undo ? (history.length ? history[history.length - 1] : null) : move,
		forbidden: forbiddenOf(message, size),
		clock: clock || watch.clock,
	};
	const effects = [];
	if (moves > watch.moves && watch.link === 'open' && watch.moves > 0)
		effects.push({ kind: 'sound', name: 'stone' });
	if (history.length < moves && watch.fetches === 0) {
		next.fetches = 1;
		effects.push({ kind: 'fetch-record', room: watch.room, delay: 0 });
	}
	return { watch: next, effects };
}

/** How many times a record shorter than the game is asked for, and how long after the last. */
export const RECORD_TRIES = 3;
export const RECORD_RETRY_MS = 1000;

/**
 * The record of the room (/api/games/ID): its moves fill the history
 * when they lead to the position shown. One that has not caught up with
 * the game yet (the server saves moves in batches) is asked for again.
 */
function onRecord(watch, record) {
	if (!record || record.id !== watch.room || !Array.isArray(record.moves))
		return { watch, effects: [] };
	if (record.moves.length < watch.moves) {
		if (watch.fetches >= RECORD_TRIES || watch.history.length >= watch.moves)
			return { watch, effects: [] };
		return {
			watch: { ...watch, fetches: watch.fetches + 1 },
			effects: [{ kind: 'fetch-record', room: watch.room, delay: RECORD_RETRY_MS }],
		};
	}
	const moves = record.moves.slice(0, watch.moves);
	const cells = emptyCells(watch.size);
	for (const move of moves) {
		if (!validMove(move, watch.size) || cells[move.y * watch.size + move.x] !== '')
			return { watch, effects: [] };
		cells[move.y * watch.size + move.x] = move.role;
	}
	if (cells.some((cell, index) => cell !== watch.cells[index]))
		return { watch, effects: [] };
	return { watch: { ...watch, history: moves.map(({ x, y, role }) => ({ x, y, role })) }, effects: [] };
}

function onWinner(watch, message, now) {
	if (watch.phase !== 'watching')
		return { watch, effects: [] };
	const winner = ['front', 'back', 'draw', 'none'].includes(message.winner) ? message.winner : 'draw';
	const line = Array.isArray(message.line)
		? message.line.filter((cell) => cell && Number.isInteger(cell.x) && Number.isInteger(cell.y)).map(({ x, y }) => ({ x, y }))
		: [];
	let clock = clockOf(message.clock, now);
	if (!clock && watch.clock)
		clock = { ...clockAt(watch.clock, runningSide(watch.toMove, watch.moves, true), now), at: now };
	return {
		watch: {
			...watch,
			phase: 'over',
			winner: { winner, reason: typeof message.reason === 'string' ? message.reason : '', line },
			forbidden: [],
			clock,
			away: { front: null, back: null },
		},
		effects: [],
	};
}

function onClosed(watch) {
	if (!['connecting', 'watching', 'over'].includes(watch.phase))
		return { watch: { ...watch, link: 'closed' }, effects: [] };
	const delay = retryDelay(watch.retries, SEARCH_RETRIES);
	if (delay === null)
		return { watch: { ...watch, phase: 'lost', link: 'closed' }, effects: [] };
	return {
		watch: { ...watch, link: 'retrying', retries: watch.retries + 1 },
		effects: [{ kind: 'reconnect', delay }],
	};
}

/** The next watch after action, and the effects for the page to carry out. */
export function reduceWatch(watch, action, now = 0) {
	switch (action.type) {
	case 'welcome':
		return { watch: { ...watch, link: 'open', retries: 0 }, effects: [] };
	case 'spectate':
		return onSpectate({ ...watch, retries: 0 }, action);
	case 'board':
		return onBoard(watch, action, now);
	case 'winner':
		return onWinner(watch, action, now);
	case 'client/record':
		return onRecord(watch, action.record);
	case 'emote':
		if (!ROLES.includes(action.by) || !isEmote(action.emote) || !['watching', 'over'].includes(watch.phase))
			return { watch, effects: [] };
		return { watch: { ...watch, bubbles: { ...watch.bubbles, [action.by]: { emote: action.emote, at: now } } }, effects: [] };
	case 'opponent_away': {
		if (!ROLES.includes(action.role) || watch.phase !== 'watching')
			return { watch, effects: [] };
		const seconds = Number.isFinite(action.seconds) && action.seconds > 0 ? action.seconds : 0;
		return { watch: { ...watch, away: { ...watch.away, [action.role]: now + seconds * 1000 } }, effects: [] };
	}
	case 'opponent_back':
		if (!ROLES.includes(action.role))
			return { watch, effects: [] };
		return { watch: { ...watch, away: { ...watch.away, [action.role]: null } }, effects: [] };
	case 'disconnect':
		return {
			watch: { ...watch, phase: 'closed', link: 'closed', away: { front: null, back: null } },
			effects: [{ kind: 'disconnect' }],
		};
	case 'error':
		if (action.code === 'no_such_room' || action.code === 'too_many_spectators')
			return {
				watch: { ...watch, phase: action.code === 'no_such_room' ? 'missing' : 'full', link: 'closed' },
				effects: [{ kind: 'disconnect' }],
			};
		return { watch, effects: [] }; // spectator: the page sent something it should not have; nothing changed
	case 'client/closed':
		return onClosed(watch);
	default:
		return { watch, effects: [] };
	}
}

/** True while the watched game goes on. */
export function watchLive(watch) {
	return watch.phase === 'watching' && !watch.winner;
}

/**
 * The clocks at now, {front, back} as {text, ms, low, running, flag}, or
 * null in an untimed game; counted down as a player's page does.
 */
export function watchClocksOf(watch, now) {
	if (!watch.clock)
		return null;
	const side = runningSide(watch.toMove, watch.moves, watchLive(watch));
	const left = clockAt(watch.clock, side, now);
	const winner = watch.winner;
	const flagged = winner && winner.reason === 'timeout' && ROLES.includes(winner.winner) ? otherRole(winner.winner) : '';
	const figure = (role) => ({
		text: clockText(left[role]),
		ms: left[role],
		low: isLow(left[role]),
		running: side === role,
		flag: flagged === role,
	});
	return { front: figure('front'), back: figure('back') };
}

/**
 * The status of the spectator's view as a text key and parameters: the
 * side to move, the result, or why nothing is watched.
 */
export function watchStatusOf(watch) {
	switch (watch.phase) {
	case 'connecting':
		return { key: 'watch.status.connecting' };
	case 'watching':
		return { key: watch.link === 'retrying' ? 'status.reconnecting' : `watch.status.${watch.toMove}` };
	case 'over':
		return { key: `watch.result.${watch.winner ? watch.winner.winner : 'none'}` };
	default:
		return { key: `watch.status.${watch.phase}` };
	}
}

/** The note under the status: a seat away, the moves played, or how the game ended. */
export function watchNoteOf(watch, now) {
	if (watch.phase === 'watching') {
		for (const role of ROLES)
			if (watch.away[role] !== null)
				return { key: `watch.away.${role}`, params: { seconds: secondsUntil(watch.away[role], now) } };
		return watch.moves ? { key: 'note.moves', params: { moves: watch.moves } } : { key: 'note.first' };
	}
	if (watch.phase === 'over' && watch.winner && watch.winner.reason)
		return { key: `reason.${watch.winner.reason}` };
	return null;
}

/** The bubble of role's seat at now ('' when none shows). */
export function watchBubbleOf(watch, role, now) {
	return bubbleAt(watch.bubbles[role], now);
}

/** True while something of the view counts down at now (a clock, a bubble, a seat away). */
export function watchCounting(watch, now) {
	const clocks = watchClocksOf(watch, now);
	return Boolean(clocks && (clocks.front.running || clocks.back.running)) ||
		ROLES.some((role) => watch.away[role] !== null || watchBubbleOf(watch, role, now) !== '');
}
