// The page's state: its fields (initialState) and the guards that say
// what it allows now (a move, an undo, a redo, an answer, a resignation,
// an abort, a draw offer, a rematch, an emote). The reducer
// (game.js) refuses the actions these guards refuse, and the view
// (view.js) enables the buttons they allow: one rule for both. Pure: no
// DOM, so node --test imports it.
//
// The mode chosen on the start screen (state.mode) and the mode of the
// game shown (state.kind, set when a game starts) are keys of modes.js,
// whose table says what each one allows.
//
// Phases (data-state on the page):
//   idle       nothing going on; "Find opponent" (or the mode's own start)
//              and "Play a friend"; or a friend's invite link opened, to
//              join (state.invite, see invite.js)
//   searching  connected or connecting, waiting for a match (or for the
//              friend an invite link was sent to, or joining one); "Cancel"
//   resuming   trying to get a game's seat back after a dropped socket or a
//              reload, for as long as the page is open; the board is not
//              live
//   elsewhere  another tab or window of this browser took the game over;
//              "Continue here" takes it back
//   playing    in a room; the board is live once synced
//   over       the game ended (or was lost); "Play again"
// A game the page keeps (no server) is never searching or resuming: it
// starts playing at once.

import { gameMode } from './modes.js';
import { canUndo as canUndoLocal, canRedo as canRedoLocal } from './local.js';
import { DEFAULT_POOL } from './pool.js';
import { CLOCK_START_MOVES } from './clock.js';
import { canEmoteAt } from './emotes.js';

export const ROLES = ['front', 'back'];

/** The other side: front <-> back. */
export function otherRole(role) {
	return role === 'front' ? 'back' : 'front';
}

/** An empty board of size × size cells. */
export function emptyCells(size) {
	return new Array(size * size).fill('');
}

/** The state of a page that has just loaded. */
export function initialState(size = 15) {
	return {
		phase: 'idle',
		mode: 'online', // the mode the next game starts in (MODES of modes.js)
		level: 'medium', // the engine's level for a game against it (LEVELS)
		pool: { ...DEFAULT_POOL }, // the pool the next game is asked in (pool.js)
		emotesMuted: false, // the opponent's emotes are not shown
		kind: '', // the mode of the game shown, '' when none
		size,
		rule: 'freestyle',
		version: '',
		protocol: 1, // the server's protocol version, from welcome
		tc: 'none', // the game's time control, from role
		link: 'closed', // closed | connecting | open | retrying
		retries: 0, // reconnect attempts since the last welcome
		retryAt: null, // when (ms) the next reconnect attempt goes out, while retrying
		role: null, // 'front' | 'back' once matched
		room: null,
		opponent: '', // the opponent's name from the server ('' if none; a computer's is not shown)
		cells: emptyCells(size), // '' | 'front' | 'back', row-major
		toMove: 'front',
		moves: 0,
		lastMove: null, // {x, y, role}
		winner: null, // the server's {winner, reason, line}
		outcome: null, // over: win | loss | draw | lost
		notice: null, // idle: unreachable | refused | gone | elsewhere | invite_missing | invite_lost | invite_limited
		refusal: '', // the server's message when it refused the connection
		opponentLeft: false,
		awayUntil: null, // time (ms) the opponent's seat is held until
		resume: null, // {room, role} of the seat being taken back (resuming, elsewhere)
		synced: true, // false from a resumed role until the pong after it
		pending: false, // a move was sent and its answer has not come
		opponentLevel: '', // ai: the engine's level, from role
		history: [], // server games: the moves seen, [{x, y, role}]
		takenBack: [], // ai: moves taken back since the last new move
		offer: null, // an offer pending, 'sent' | 'received' (what: offerWhat)
		offerWhat: null, // what the offer pending is: 'takeback' | 'draw' | 'rematch'
		answer: null, // the last answer, {accept, by: 'me' | 'opponent', what}
		asking: false, // a request was sent (offer, answer, redo, resign, abort), not yet answered
		asked: '', // what the last request was about (takeback, draw, rematch, …), for its refusal
		confirm: null, // a question to the player pending: 'resign'
		clock: null, // timed games: the last figures, {front, back (ms), at (arrival, ms)}
		abortAt: null, // timed games: when (ms) the game is aborted without the next first move
		emoteAt: null, // when (ms) this player's last emote went out
		bubbles: { me: null, opponent: null }, // the last emote of each, {emote, at}
		local: null, // local: the game (local.js)
		takebackAt: null, // when (ms) a takeback may be asked again after the opponent declined one
		invite: null, // the host's invite while searching, or the friend's link opened (invite.js); else null
		listed: false, // the next invite's game is listed in the lobby (listed=1)
	};
}

/**
 * True while the board takes moves: in a game, synced, not ended (a game
 * the page keeps has no socket to wait for).
 */
export function isLive(state) {
	if (!gameMode(state).server)
		return state.phase === 'playing' && !state.winner;
	return state.phase === 'playing' && state.synced && state.link === 'open' && !state.winner;
}

/**
 * True when a click may place a stone: this player's move and no move on
 * its way; when both sides play on this page, always while it goes on.
 */
export function isMyTurn(state) {
	if (gameMode(state).hotSeat)
		return isLive(state);
	return isLive(state) && state.toMove === state.role && !state.pending;
}

/**
 * True when (x, y) is forbidden to the side to move (renju: black's
 * points, as the server's last board listed them or as the page judges a
 * local game).
 */
export function isForbidden(state, x, y) {
	return (state.forbidden || []).some((point) => point.x === x && point.y === y);
}

/**
 * True when a click on (x, y) should play there: my turn, an empty point
 * that is not forbidden.
 */
export function canPlace(state, x, y) {
	if (!isMyTurn(state) || !Number.isInteger(x) || !Number.isInteger(y))
		return false;
	if (x < 0 || y < 0 || x >= state.size || y >= state.size)
		return false;
	return state.cells[y * state.size + x] === '' && !isForbidden(state, x, y);
}

/** True when the player has a stone on the board. */
function hasOwnStone(state) {
	return state.cells.includes(state.role);
}

/** True when a server request of this player's may go out now. */
function canAsk(state) {
	return isLive(state) && !state.pending && !state.asking;
}

/**
 * True when Undo does something now, in a game that has it. A game the
 * page keeps: a move was played (also after the end). A server game: the
 * player has a stone on the board, the game goes on and no takeback offer
 * is pending (only games with offers ever have one).
 */
export function canUndo(state) {
	const mode = gameMode(state);
	if (!mode.undo)
		return false;
	if (!mode.server)
		return ['playing', 'over'].includes(state.phase) && canUndoLocal(state.local);
	return canAsk(state) && hasOwnStone(state) && state.offer === null;
}

/**
 * True when Redo does something now, in a game that has it: a move was
 * taken back and none played since (in a server game, as far as the page
 * saw; also after the end in a game the page keeps).
 */
export function canRedo(state) {
	const mode = gameMode(state);
	if (!mode.redo)
		return false;
	if (!mode.server)
		return ['playing', 'over'].includes(state.phase) && canRedoLocal(state.local);
	return canAsk(state) && state.takenBack.length > 0;
}

/** True when the server speaks protocol 2 (resign, abort, draw, rematch, emotes). */
export function speaksVersion2(state) {
	return state.protocol >= 2;
}

/** True when mode flag (modes.js) is allowed in the game shown and the server has it. */
function allows(state, flag) {
	return gameMode(state)[flag] && speaksVersion2(state);
}

/**
 * True when the opponent's offer waits for this player's answer: a
 * takeback or a draw while the game goes on, a rematch after its end with
 * the opponent still there.
 */
export function canAnswer(state) {
	if (state.offer !== 'received' || state.asking)
		return false;
	if (state.offerWhat === 'rematch')
		return afterTheEnd(state);
	if (state.offerWhat === 'draw')
		return isLive(state);
	return gameMode(state).offers && isLive(state);
}

/** True while the game is still in its first moves, which the clocks do not time: it may be aborted. */
export function inOpening(state) {
	return state.moves < CLOCK_START_MOVES;
}

/** True when Abort works now: a live game in its opening. */
export function canAbort(state) {
	return allows(state, 'abort') && canAsk(state) && inOpening(state) && state.confirm === null;
}

/** True when Resign works now: a live game past its opening (before it, Abort stands in). */
export function canResign(state) {
	return allows(state, 'resign') && canAsk(state) && state.confirm === null &&
		(!inOpening(state) || !gameMode(state).abort);
}

/** True when a draw may be offered now: a live game past its opening, no offer pending. */
export function canOfferDraw(state) {
	return allows(state, 'draw') && canAsk(state) && !inOpening(state) && state.offer === null;
}

/**
 * True after a game that ended on the board (not lost with the socket)
 * while the opponent is still in the room: a rematch can be asked.
 */
function afterTheEnd(state) {
	return state.phase === 'over' && Boolean(state.winner) && Boolean(state.room) &&
		state.link === 'open' && !state.opponentLeft;
}

/** True when a rematch may be offered now: after the end, the opponent there, no offer pending. */
export function canRematch(state) {
	return allows(state, 'rematch') && afterTheEnd(state) && state.offer === null && !state.asking;
}

/** True when the emote bar is there: in a room with a person, the opponent not gone. */
export function hasEmotes(state) {
	return allows(state, 'emotes') && Boolean(state.role) && ['playing', 'over'].includes(state.phase) &&
		!state.opponentLeft && state.link === 'open';
}

/** True when an emote may go out at now: the bar is there and the last one is 3 s old. */
export function canEmote(state, now) {
	return hasEmotes(state) && canEmoteAt(state.emoteAt, now);
}
