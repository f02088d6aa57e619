// The game as the page sees it: a reducer of server messages and of the
// page's own actions into the page's state (state.js), plus what the page
// should do next (effects). Pure: no DOM, no socket, no clock of its own
// (the time comes in as an argument), so node --test drives it message by
// message. What the page shows of the state is view.js.
//
// The server is the referee: a stone appears only when the server's
// `board` says so, never when the player clicks. The page asks for compact
// boards (updates=move: the move and the side to move, without the whole
// position) and adds each move to the board itself; a board with content
// (the one after a resumed seat's role, and every takeback's) replaces the
// whole position. An action the state does not allow now (see the guards
// of state.js) changes nothing.
//
// reduce(state, action, now) returns { state, effects }. Actions are the
// server's messages as they came ({type: 'board', …}) and the page's own
// (type 'client/…'). Effects are plain objects for main.js to carry out:
//   {kind: 'connect'}             close any socket, then open a new one
//   {kind: 'disconnect'}          close the socket (asked for, no retry)
//   {kind: 'reconnect', delay}    open a new socket after delay ms
//   {kind: 'send', message}       send a message on the socket
//   {kind: 'save-game', room, role} / {kind: 'forget-game'}
//                                 remember (localStorage) the game in
//                                 progress, for a reload or a tab reopened
//   {kind: 'clear-link'}          drop the invite link (/#invite/CODE) from
//                                 the page's address: joined, or dead
//   {kind: 'sound', name}         stone, undo, turn, win, loss, left, emote
//   {kind: 'toast', key, params}  a short message over the board (a text
//   {kind: 'toast', code, message, what}  key, or a request the server
//                                 refused; what: the request, when known)
//
// Protocol 2 (core/PROTOCOL.md 10) adds the clocks (kept as the server's
// figures and the time they arrived; clock.js counts them down), resign,
// abort, draw and rematch offers (offered and answered like takebacks,
// state.offerWhat says which), a rematch's fresh role in the same socket,
// and emotes (the bubbles keep the time they came; emotes.js shows them).
//
// Playing a friend (invite.js): "Play a friend" searches on an invite of
// the player's own (state.invite, side host), told its code by an invite
// message; a friend's link opened (client/invited) joins it (side guest),
// at once when the page knows the player's name. Either ends in a role
// like any match. A host's code dies with its socket: a drop is not
// retried but told (notice invite_lost), and a code the server refuses
// (no_such_invite) is told as a link used or expired, never retried.
//
// Over 800 lines: one case per server message and per page action, which
// must be read together to see every way the state changes.

import { retryDelay, SEARCH_RETRIES, forbiddenOf } from './protocol.js';
import { isInviteCode } from './invite.js';
import {
	ROLES, emptyCells, canPlace, canUndo, canRedo, canAnswer, canAbort, canResign, canOfferDraw, canRematch, canEmote,
	isMyTurn, isForbidden,
} from './state.js';
import { MODES, LEVELS, gameMode, chosenMode } from './modes.js';
import { choosePool } from './pool.js';
import { clockOf, clockAt, runningSide } from './clock.js';
import { isEmote } from './emotes.js';
import {
	newLocalGame, playLocal, undoLocal, redoLocal, lastLocalMove, localForbidden, restoreLocal,
} from './local.js';

/**
 * The settings of a local game: those of a server started without flags
 * (15 × 15, freestyle, a full board goes to white), but the rule, which is
 * the one chosen on the start screen.
 */
export const LOCAL_SETTINGS = { size: 15, rule: 'freestyle', fullBoard: 'back' };

/** The fields of the game shown that start empty in every new game. */
function freshGameFields() {
	return {
		opponentLevel: '',
		history: [],
		takenBack: [],
		offer: null,
		offerWhat: null,
		answer: null,
		asking: false,
		asked: '',
		confirm: null,
		tc: 'none',
		clock: null,
		abortAt: null,
		bubbles: { me: null, opponent: null },
		local: null,
		invite: null,
		forbidden: [], // renju: the points black may not play now
		takebackAt: null, // when (ms) a takeback may be asked again after the opponent declined one
	};
}

/** What an offer or answer may be about. */
const OFFERS = ['takeback', 'draw', 'rematch'];

/** How long after a declined offer the server refuses the next of its kind (too_soon). */
export const OFFER_AGAIN_MS = 10_000;

/**
 * The clock fields of a role or board that arrived at now: its figures
 * (when timed) and the first-move deadline (abort_in, while the opening
 * lasts), each kept as it was when the message has none.
 */
function clockFields(state, message, now) {
	const fields = {};
	const clock = clockOf(message.clock, now);
	if (clock)
		fields.clock = clock;
	if (Number.isFinite(message.abort_in))
		fields.abortAt = now + Math.max(0, message.abort_in);
	else if (Number.isInteger(message.moves) && message.moves >= 2)
		fields.abortAt = null;
	return fields;
}

/** The state of a fresh game in room, with the board cleared. */
function newGame(state, { role, room, size, opponent, synced, ai, level, tc }) {
	return {
		...state,
		...freshGameFields(),
		phase: 'playing',
		kind: ai ? 'ai' : 'online', // the server's games: its engine or another player
		opponentLevel: ai ? level : '',
		tc,
		role,
		room,
		size,
		opponent,
		cells: emptyCells(size),
		toMove: 'front',
		moves: 0,
		lastMove: null,
		winner: null,
		outcome: null,
		notice: null,
		opponentLeft: false,
		awayUntil: null,
		resume: null,
		synced,
		pending: false,
	};
}

/** The game's fields cleared, for a new search. */
function cleared(state) {
	return {
		...state,
		...freshGameFields(),
		kind: '',
		role: null,
		room: null,
		opponent: '',
		cells: emptyCells(state.size),
		toMove: 'front',
		moves: 0,
		lastMove: null,
		winner: null,
		outcome: null,
		notice: null,
		refusal: '',
		opponentLeft: false,
		awayUntil: null,
		resume: null,
		synced: true,
		pending: false,
		retries: 0,
	};
}

/** The board size of a message, or fallback when it has none or a bad one. */
function sizeOf(message, fallback) {
	const size = message.size;
	return Number.isInteger(size) && size >= 5 && size <= 25 ? size : fallback;
}

/** The name of role's opponent field, '' when it has none. */
function nameOf(opponent) {
	return opponent && typeof opponent.name === 'string' ? opponent.name : '';
}

/** A game lost for good: over, outcome lost, nothing to resume. */
function lost(state) {
	return {
		...state,
		phase: 'over',
		outcome: 'lost',
		link: 'closed',
		resume: null,
		synced: true,
		pending: false,
		awayUntil: null,
	};
}

const NO_RETRY_CODES = [1007, 1008, 1009];

/**
 * 4001: another tab or window of this browser (the same uid) took the
 * socket's place. It owns the game now: this page never reconnects by
 * itself (the two would take the seat back and forth) but offers
 * "Continue here" (client/find in phase elsewhere), and keeps the game
 * remembered, which is the other tab's too.
 */
function onReplaced(state) {
	if (state.phase === 'idle' || state.phase === 'over')
		return { state: { ...state, link: 'closed' }, effects: [] };
	if (state.phase === 'searching')
		return { state: { ...cleared(state), phase: 'idle', link: 'closed', notice: 'elsewhere' }, effects: [] };
	return {
		state: {
			...state,
			phase: 'elsewhere',
			link: 'closed',
			resume: state.resume || { room: state.room, role: state.role },
			retryAt: null,
			pending: false,
			awayUntil: null,
			offer: null,
			offerWhat: null,
			confirm: null,
		},
		effects: [],
	};
}

/**
 * A socket closed that the page did not close: retry, give up or stop.
 * A game is retried as long as the page is open, never declared lost by
 * the page (the server says how it ended, once it answers); a search is
 * retried for a while after a drop, and a first connection that fails is
 * told at once.
 */
function onClosed(state, { code }, now) {
	if (code === 4001)
		return onReplaced(state);
	if (state.phase === 'idle' || state.phase === 'over' || state.phase === 'elsewhere')
		return { state: { ...state, link: 'closed', pending: false }, effects: [] };

	if (state.phase === 'searching' && state.invite) {
		const ended = inviteClosed(state);
		if (ended)
			return ended;
	}
	const retryable = !NO_RETRY_CODES.includes(code);
	if (state.phase === 'searching') {
		// link 'connecting': no welcome yet on this search's first socket.
		const delay = retryable && state.link !== 'connecting' ? retryDelay(state.retries, SEARCH_RETRIES) : null;
		if (delay === null)
			return {
				state: {
					...cleared(state),
					phase: 'idle',
					link: 'closed',
					notice: retryable ? 'unreachable' : 'refused',
					refusal: state.refusal,
				},
				effects: [],
			};
		return {
			state: { ...state, link: 'retrying', retries: state.retries + 1, retryAt: now + delay },
			effects: [{ kind: 'reconnect', delay }],
		};
	}
	// playing or resuming: try to take the seat back.
	const resume = state.resume || { room: state.room, role: state.role };
	if (!retryable)
		return { state: lost(state), effects: [{ kind: 'forget-game' }, { kind: 'sound', name: 'loss' }] };
	const delay = retryDelay(state.retries);
	return {
		state: {
			...state,
			phase: 'resuming',
			link: 'retrying',
			retries: state.retries + 1,
			retryAt: now + delay,
			resume,
			synced: false,
			pending: false,
			awayUntil: null,
		},
		effects: [{ kind: 'reconnect', delay }],
	};
}

/** The start screen after an invite's socket closed, with notice told; the link dropped. */
function inviteEnded(state, notice) {
	return {
		state: { ...cleared(state), phase: 'idle', link: 'closed', notice },
		effects: [{ kind: 'clear-link' }],
	};
}

/**
 * An invite's socket closed before a match: the end of it when the
 * server refused it (no_such_invite, rate_limited, told by the error just
 * before) or when the host's code was told (the server forgot it with the
 * socket); null when a new socket may go on (a host with no code yet, a
 * guest not refused).
 */
function inviteClosed(state) {
	const { side, code, refused } = state.invite;
	if (refused === 'no_such_invite')
		return inviteEnded(state, 'invite_missing');
	if (refused === 'rate_limited')
		return inviteEnded(state, 'invite_limited');
	if (side === 'host' && code)
		return inviteEnded(state, 'invite_lost');
	return null;
}

function onWelcome(state, message) {
	if (!['searching', 'resuming'].includes(state.phase))
		return { state, effects: [] };
	const size = sizeOf(message, state.size);
	const next = {
		...state,
		link: 'open',
		retries: 0,
		retryAt: null,
		size,
		rule: typeof message.rule === 'string' ? message.rule : state.rule,
		version: typeof message.version === 'string' ? message.version : state.version,
		protocol: Number.isInteger(message.protocol) ? message.protocol : 1,
	};
	if (size !== state.size)
		next.cells = emptyCells(size);
	return { state: next, effects: [] };
}

function onWaiting(state) {
	if (state.phase !== 'resuming')
		return { state, effects: [] };
	// The seat is gone (the game ended while this page was away): this
	// socket was queued for a new opponent instead. Leave the queue at
	// once so the player is not matched by surprise, and say only what is
	// known: the server no longer has the game.
	return gameGone(state);
}

/** The start screen after a seat could not be taken back: the game is gone. */
function gameGone(state) {
	return {
		state: { ...cleared(state), phase: 'idle', link: 'closed', notice: 'gone' },
		effects: [{ kind: 'disconnect' }, { kind: 'forget-game' }],
	};
}

function onRole(state, message, now) {
	if (!ROLES.includes(message.role) || typeof message.room !== 'string')
		return { state, effects: [] };
	// The opponent is a player ({name}, the name optional) or the
	// server's engine ({ai: true, level}, with or without a name, which
	// the page does not show: it names the engine from the level).
	const game = {
		role: message.role,
		room: message.room,
		size: sizeOf(message, state.size),
		opponent: nameOf(message.opponent),
		ai: Boolean(message.opponent && message.opponent.ai === true),
		level: message.opponent && LEVELS.includes(message.opponent.level) ? message.opponent.level : '',
		tc: typeof message.tc === 'string' ? message.tc : 'none',
	};
	const rule = typeof message.rule === 'string' ? message.rule : state.rule;
	if (state.phase === 'resuming') {
		if (!state.resume || message.room !== state.resume.room)
			return gameGone(state);
		// The seat is back. A board (when moves were made) and a winner
		// (when the game ended) follow; until the pong that answers this
		// ping, the board is not live.
		return {
			state: {
				...newGame(state, { ...game, synced: false }),
				rule,
				takenBack: state.takenBack,
				...clockFields(state, message, now),
			},
			effects: [{ kind: 'send', message: { type: 'ping' } }],
		};
	}
	// A match, or after a game's end, on the same socket, a rematch's new
	// room (the sides swapped).
	const rematch = state.phase === 'over' && state.link === 'open' && Boolean(state.room) && message.room !== state.room;
	if (state.phase !== 'searching' && !rematch)
		return { state, effects: [] };
	const effects = [{ kind: 'save-game', room: game.room, role: game.role }];
	if (state.phase === 'searching' && state.invite && state.invite.side === 'guest')
		effects.push({ kind: 'clear-link' }); // the link is used: a reload must not join it again
	if (game.role === 'front')
		effects.push({ kind: 'sound', name: 'turn' });
	const next = { ...newGame(state, { ...game, synced: true }), rule, ...clockFields(state, message, now) };
	if (rematch) {
		// The bubbles of the game before stay until they fade.
		next.bubbles = state.bubbles;
		effects.push({ kind: 'toast', key: 'toast.rematch' });
	}
	return { state: next, effects };
}

function validMove(move, size) {
	return move && Number.isInteger(move.x) && Number.isInteger(move.y) &&
		move.x >= 0 && move.y >= 0 && move.x < size && move.y < size;
}

/**
 * The cells after a board message: its content (the whole position), or,
 * for a compact board (updates=move), the cells so far with its move. Null
 * when the message fits neither.
 */
function cellsOf(state, message) {
	const content = message.content;
	if (content !== undefined) {
		if (!Array.isArray(content) || content.length !== state.size * state.size ||
		    !content.every((cell) => cell === '' || ROLES.includes(cell)))
			return null;
		return content.slice();
	}
	const move = message.move;
	if (!validMove(move, state.size) || !ROLES.includes(move.role) ||
	    state.cells[move.y * state.size + move.x] !== '')
		return null;
	const cells = state.cells.slice();
	cells[move.y * state.size + move.x] = move.role;
	return cells;
}

/** The valid moves of a list ([{x, y, role}] on any board up to 25); [] for anything else. */
function movesOf(list) {
	return Array.isArray(list) ? list.map((move) => moveOf(move, 25)).filter(Boolean) : [];
}

function sameMove(a, b) {
	return Boolean(a && b) && a.x === b.x && a.y === b.y && a.role === b.role;
}

/** The {x, y, role} of a message field when it is one on this board. */
function moveOf(field, size) {
	return validMove(field, size) && ROLES.includes(field.role) ? { x: field.x, y: field.y, role: field.role } : null;
}

/**
 * True when cells are before with move's stone added and nothing else
 * changed: a board with content that continues the one shown.
 */
function continues(before, cells, move, size) {
	if (!move)
		return false;
	const index = move.y * size + move.x;
	return before[index] === '' && cells.every((cell, i) => (i === index ? cell === move.role : cell === before[i]));
}

function onBoard(state, message, now) {
	if (!gameMode(state).server || state.phase !== 'playing' || state.winner)
		return { state, effects: [] };
	const cells = cellsOf(state, message);
	if (!cells)
		return { state, effects: [] };
	const forbidden = forbiddenOf(message, state.size);
	const moves = Number.isInteger(message.moves) ? message.moves : cells.filter((cell) => cell !== '').length;
	const toMove = ROLES.includes(message.role) ? message.role : state.toMove;
	const undo = message.content !== undefined && message.move === undefined ? moveOf(message.undo, state.size) : null;
	if (undo) {
		// A takeback: the stone undo names is gone. The last move shown is
		// the one before it, when the moves seen reach that far. The answer
		// that accepted it stays in the note until the next move.
		const top = state.history[state.history.length - 1];
		const history = sameMove(top, undo) ? state.history.slice(0, -1) : [];
		return {
			state: {
				...state,
				cells,
				toMove,
				moves,
				history,
				lastMove: history.length ? { ...history[history.length - 1] } : null,
				takenBack: [...state.takenBack, undo],
				forbidden,
				pending: false,
				asking: false,
				...clockFields(state, message, now),
			},
			effects: state.synced ? [{ kind: 'sound', name: 'undo' }] : [],
		};
	}
	const move = moveOf(message.move, state.size);
	let history;
	if (message.content === undefined)
		history = [...state.history, move];
	else if (continues(state.cells, cells, move, state.size))
		history = [...state.history, move];
	else
		history = move ? [move] : []; // a whole position: what came before is not known
	// A move that plays again the last one taken back is a redo; any
	// other new move means there is nothing left to redo. The position a
	// resumed seat catches up with is no new move.
	let takenBack = [];
	if (!state.synced)
		takenBack = state.takenBack;
	else if (sameMove(state.takenBack[state.takenBack.length - 1], move))
		takenBack = state.takenBack.slice(0, -1);
	const next = {
		...state,
		cells,
		toMove,
		moves,
		history,
		lastMove: move,
		takenBack,
		forbidden,
		answer: null,
		pending: false,
		asking: false,
		...clockFields(state, message, now),
	};
	const effects = [];
	if (state.synced) {
		effects.push({ kind: 'sound', name: 'stone' });
		if (next.toMove === state.role && next.lastMove && next.lastMove.role !== state.role)
			effects.push({ kind: 'sound', name: 'turn' });
	}
	return { state: next, effects };
}

/**
 * True when an offer or answer about what fits the game shown: a
 * takeback (games with offers) or a draw while it goes on, a rematch
 * after its end.
 */
function offerFits(state, what) {
	if (!gameMode(state).server || !state.role)
		return false;
	if (what === 'rematch')
		return state.phase === 'over' && Boolean(state.winner);
	if (state.phase !== 'playing' || state.winner)
		return false;
	return what === 'draw' || gameMode(state).offers;
}

/**
 * An offer (a takeback, a draw, a rematch): by the player ('sent') or by
 * the opponent ('received', who is then asked to accept or decline).
 */
function onOffer(state, message) {
	if (!OFFERS.includes(message.what) || !ROLES.includes(message.by) || !offerFits(state, message.what))
		return { state, effects: [] };
	const mine = message.by === state.role;
	return {
		state: { ...state, offer: mine ? 'sent' : 'received', offerWhat: message.what, answer: null, asking: false },
		effects: mine || !state.synced ? [] : [{ kind: 'sound', name: 'turn' }],
	};
}

/**
 * The answer to an offer: by the side that was asked (also when a move,
 * a leave or the game's end declined it). The takeback's boards follow an
 * accepted takeback, winner an accepted draw, role an accepted rematch.
 */
function onAnswer(state, message, now) {
	if (!OFFERS.includes(message.what) || typeof message.accept !== 'boolean' || !ROLES.includes(message.by) ||
	    !offerFits(state, message.what))
		return { state, effects: [] };
	const by = message.by === state.role ? 'me' : 'opponent';
	// The note tells the answer (offerNote in view.js); a toast would tell it twice.
	const next = {
		...state,
		offer: null,
		offerWhat: null,
		answer: { accept: message.accept, by, what: message.what },
		asking: false,
	};
	if (by === 'opponent' && !message.accept && message.what === 'takeback')
		next.takebackAt = now + OFFER_AGAIN_MS; // Undo counts down to it
	return { state: next, effects: [] };
}

/**
 * The state showing local game local: its board, side to move and last
 * move; over with its result once it has one, playing again when a
 * takeback removed it.
 */
function showLocal(state, local) {
	const result = local.result;
	return {
		...state,
		local,
		phase: result ? 'over' : 'playing',
		cells: local.cells,
		toMove: local.toMove,
		moves: local.history.length,
		lastMove: lastLocalMove(local),
		forbidden: localForbidden(local),
		winner: result,
		outcome: !result ? null : result.winner === 'draw' ? 'draw' : 'win',
	};
}

/** The sounds of a local stone: the stone, and the result it made. */
function localSounds(local) {
	const effects = [{ kind: 'sound', name: 'stone' }];
	if (local.result)
		effects.push({ kind: 'sound', name: local.result.winner === 'draw' ? 'loss' : 'win' });
	return effects;
}

/** A new game that the page keeps (the mode chosen has no server): no socket. */
function startLocal(state) {
	const local = newLocalGame({ ...LOCAL_SETTINGS, rule: state.pool.rule });
	return {
		state: showLocal({
			...cleared(state),
			kind: state.mode,
			size: local.size,
			rule: local.rule,
			link: 'closed',
		}, local),
		effects: [{ kind: 'forget-game' }, { kind: 'disconnect' }],
	};
}

function onUndo(state) {
	if (!canUndo(state))
		return { state, effects: [] };
	if (!gameMode(state).server)
		return { state: showLocal(state, undoLocal(state.local)), effects: [{ kind: 'sound', name: 'undo' }] };
	return ask({ ...state, answer: null }, 'takeback', { type: 'offer', what: 'takeback' });
}

function onRedo(state) {
	if (!canRedo(state))
		return { state, effects: [] };
	if (!gameMode(state).server) {
		const local = redoLocal(state.local);
		return { state: showLocal(state, local), effects: localSounds(local) };
	}
	return ask(state, 'redo', { type: 'redo' });
}

/**
 * The prompt's two buttons: the answer to the question pending, the
 * page's own (Resign? yes or no) before the opponent's offer.
 */
function onAnswerOffer(state, accept) {
	if (typeof accept !== 'boolean')
		return { state, effects: [] };
	if (state.confirm === 'resign') {
		if (!accept)
			return { state: { ...state, confirm: null }, effects: [] };
		return ask({ ...state, confirm: null }, 'resign', { type: 'resign' });
	}
	if (state.confirm === 'leave') {
		if (!accept)
			return { state: { ...state, confirm: null }, effects: [] };
		return { state: { ...cleared(state), phase: 'idle' }, effects: [] };
	}
	if (!canAnswer(state))
		return { state, effects: [] };
	return ask(state, state.offerWhat, { type: 'answer', what: state.offerWhat, accept });
}

/** Sends message, a request about what, and waits for its answer. */
function ask(state, what, message) {
	return {
		state: { ...state, asking: true, asked: what },
		effects: [{ kind: 'send', message }],
	};
}

/** Resign: asks the player first (the prompt), then resigns on yes. */
function onResign(state) {
	if (!canResign(state))
		return { state, effects: [] };
	return { state: { ...state, confirm: 'resign' }, effects: [] };
}

function onAbort(state) {
	if (!canAbort(state))
		return { state, effects: [] };
	return ask(state, 'abort', { type: 'abort' });
}

function onOfferDraw(state) {
	if (!canOfferDraw(state))
		return { state, effects: [] };
	return ask({ ...state, answer: null }, 'draw', { type: 'offer', what: 'draw' });
}

function onRematch(state) {
	if (!canRematch(state))
		return { state, effects: [] };
	return ask({ ...state, answer: null }, 'rematch', { type: 'offer', what: 'rematch' });
}

/**
 * An emote of the player's: sent, and its bubble shown at once (the
 * server sends nothing back). Refused within 3 s of the last one.
 */
function onSendEmote(state, emote, now) {
	if (!isEmote(emote) || !canEmote(state, now))
		return { state, effects: [] };
	return {
		state: { ...state, emoteAt: now, bubbles: { ...state.bubbles, me: { emote, at: now } } },
		effects: [{ kind: 'send', message: { type: 'emote', emote } }],
	};
}

/** The opponent's emote: a bubble by its card, unless the player muted them. */
function onEmote(state, message, now) {
	if (!state.role || !['playing', 'over'].includes(state.phase) || !isEmote(message.emote) ||
	    message.by === state.role || state.emotesMuted)
		return { state, effects: [] };
	return {
		state: { ...state, bubbles: { ...state.bubbles, opponent: { emote: message.emote, at: now } } },
		effects: state.synced ? [{ kind: 'sound', name: 'emote' }] : [],
	};
}

/** The outcome of a winner for role: win, loss, draw, or aborted (winner none: the game does not count). */
function outcomeOf(winner, role) {
	if (winner === 'none')
		return 'aborted';
	if (winner === 'draw')
		return 'draw';
	return winner === role ? 'win' : 'loss';
}

function onWinner(state, message, now) {
	if (state.phase !== 'playing' || state.winner)
		return { state, effects: [] };
	const winner = ['front', 'back', 'draw', 'none'].includes(message.winner) ? message.winner : 'draw';
	const line = Array.isArray(message.line)
		? message.line.filter((cell) => validMove(cell, state.size)).map(({ x, y }) => ({ x, y }))
		: [];
	const outcome = outcomeOf(winner, state.role);
	const effects = [{ kind: 'forget-game' }];
	// A forfeit win is told by the opponent-left sound of the disconnect
	// that follows; an aborted game by nothing.
	if (!(message.reason === 'forfeit' && outcome === 'win') && outcome !== 'aborted')
		effects.push({ kind: 'sound', name: outcome === 'win' ? 'win' : 'loss' });
	// The final figures; without them, the clocks stop where they were.
	let clock = clockOf(message.clock, now);
	if (!clock && state.clock)
		clock = { ...clockAt(state.clock, runningSide(state.toMove, state.moves, true), now), at: now };
	return {
		state: {
			...state,
			phase: 'over',
			winner: { winner, reason: typeof message.reason === 'string' ? message.reason : '', line },
			outcome,
			pending: false,
			asking: false,
			confirm: null,
			offer: null, // the server lets any offer lapse at the end
			offerWhat: null,
			awayUntil: null,
			abortAt: null,
			clock,
			synced: true,
		},
		effects,
	};
}

function onDisconnect(state) {
	if (state.phase !== 'playing' && state.phase !== 'over')
		return { state, effects: [] };
	if (state.opponentLeft || !state.room)
		return { state, effects: [] };
	const next = {
		...state, opponentLeft: true, awayUntil: null, pending: false, offer: null, offerWhat: null, confirm: null,
	};
	const effects = [{ kind: 'sound', name: 'left' }];
	if (state.phase === 'playing') {
		next.phase = 'over';
		next.outcome = 'win';
		next.synced = true;
		effects.unshift({ kind: 'forget-game' });
	}
	return { state: next, effects };
}

/** The errors that refuse an invite's socket (then closed 1008). */
const INVITE_REFUSALS = ['no_such_invite', 'rate_limited'];

function onError(state, message) {
	const code = typeof message.code === 'string' ? message.code : '';
	const text = typeof message.message === 'string' ? message.message : code;
	const next = { ...state, pending: false, asking: false, asked: '' };
	if (code === 'bad_name' || code === 'bad_uid' || code === 'bad_mode')
		next.refusal = text;
	if (code === 'nothing_to_redo')
		next.takenBack = []; // the server has nothing (more) to redo
	if (code === 'no_offer' && state.offer === 'received') {
		next.offer = null; // the offer went away (a move or a leave declined it)
		next.offerWhat = null;
	}
	if (code === 'opponent_gone')
		next.opponentLeft = true; // no rematch with a player who left
	if (state.invite && state.phase === 'searching' && INVITE_REFUSALS.includes(code)) {
		// Told by the status once the socket closes (see inviteClosed), not by a toast.
		return { state: { ...next, invite: { ...state.invite, refused: code } }, effects: [] };
	}
	const toast = { kind: 'toast', code, message: text };
	if (state.asked)
		toast.what = state.asked;
	return { state: next, effects: [toast] };
}

function onPong(state) {
	if (state.synced || state.phase !== 'playing')
		return { state, effects: [] };
	return {
		state: { ...state, synced: true },
		effects: [
			{ kind: 'save-game', room: state.room, role: state.role },
			{ kind: 'toast', key: 'toast.resumed' },
		],
	};
}

/** A search on the server: a new socket, the game of a reload forgotten. */
function search(state) {
	return {
		state: { ...state, phase: 'searching', link: 'connecting' },
		effects: [{ kind: 'forget-game' }, { kind: 'connect' }],
	};
}

/** "Play a friend": a search on an invite of the player's own, listed as state.listed. */
function onInvite(state) {
	if (!['idle', 'over'].includes(state.phase) || !chosenMode(state).invites || state.invite)
		return { state, effects: [] };
	return search({ ...cleared(state), invite: { side: 'host', code: '', listed: state.listed } });
}

/**
 * The choice to list the next invite's game in the lobby. The server
 * reads it from the query of the invite's socket: an invite waiting for
 * the friend is made again on a new socket, with a new code.
 */
function onInviteListed(state, listed) {
	const next = { ...state, listed: Boolean(listed) };
	const invite = state.invite;
	if (state.phase !== 'searching' || !invite || invite.side !== 'host' || invite.listed === next.listed)
		return { state: next, effects: [] };
	return {
		state: { ...next, link: 'connecting', retries: 0, invite: { side: 'host', code: '', listed: next.listed } },
		effects: [{ kind: 'connect' }],
	};
}

/** The host's invite code, told by the server. */
function onInviteCode(state, message) {
	const invite = state.invite;
	if (state.phase !== 'searching' || !invite || invite.side !== 'host' || !isInviteCode(message.code))
		return { state, effects: [] };
	return { state: { ...state, invite: { ...invite, code: message.code } }, effects: [] };
}

/**
 * A friend's invite link opened (before a game or after one): the start
 * screen asks the player to join it, or it joins at once when join (the
 * page knows the player's name). A link that cannot be a code is told as
 * one that does not work, with no socket.
 */
function onInvited(state, { code, join }) {
	if (!['idle', 'over'].includes(state.phase))
		return { state, effects: [] };
	const closing = state.link === 'closed' ? [] : [{ kind: 'disconnect' }];
	const start = { ...cleared(state), phase: 'idle', link: 'closed' };
	if (!isInviteCode(code))
		return { state: { ...start, notice: 'invite_missing' }, effects: [...closing, { kind: 'clear-link' }] };
	const invited = { ...start, invite: { side: 'guest', code } };
	return join ? search(invited) : { state: invited, effects: closing };
}

/**
 * The next state after action, and the effects for the page to carry out.
 * now is the time in ms (for the opponent-away countdown).
 */
export function reduce(state, action, now = 0) {
	switch (action.type) {
	case 'client/find':
		if (state.phase === 'elsewhere') {
			// "Continue here": take the game back from the other tab.
			return {
				state: { ...state, phase: 'resuming', link: 'connecting', retries: 0, synced: false },
				effects: [{ kind: 'connect' }],
			};
		}
		if (state.phase !== 'idle' && state.phase !== 'over')
			return { state, effects: [] };
		if (state.phase === 'idle' && state.invite && state.invite.side === 'guest')
			return search({ ...cleared(state), invite: state.invite }); // Join
		if (!chosenMode(state).server)
			return startLocal(state);
		return search(cleared(state));
	case 'client/cancel': {
		if (gameMode(state).leave && state.phase === 'playing') {
			// Leaving drops the game: asked first once a move was played.
			if (state.moves > 0)
				return { state: { ...state, confirm: 'leave' }, effects: [] };
			return { state: { ...cleared(state), phase: 'idle' }, effects: [] };
		}
		const guest = Boolean(state.invite && state.invite.side === 'guest');
		if (state.phase === 'idle' && guest)
			return { state: { ...state, invite: null }, effects: [{ kind: 'clear-link' }] };
		if (state.phase !== 'searching')
			return { state, effects: [] };
		return {
			state: { ...cleared(state), phase: 'idle', link: 'closed' },
			effects: guest ? [{ kind: 'disconnect' }, { kind: 'clear-link' }] : [{ kind: 'disconnect' }],
		};
	}
	case 'client/invite':
		return onInvite(state);
	case 'client/invite-listed':
		return onInviteListed(state, action.listed);
	case 'client/invited':
		return onInvited(state, action);
	case 'client/resume':
		if (state.phase !== 'idle' || typeof action.room !== 'string' || !ROLES.includes(action.role))
			return { state, effects: [] };
		return {
			state: {
				...cleared(state),
				phase: 'resuming',
				link: 'connecting',
				resume: { room: action.room, role: action.role },
				// against the engine: what was taken back stays to redo
				takenBack: movesOf(action.takenBack),
				synced: false,
			},
			effects: [{ kind: 'connect' }],
		};
	case 'client/restore-local': {
		// The game on one screen the page kept when it was last left.
		const local = state.phase === 'idle' ? restoreLocal(action.record) : null;
		if (!local)
			return { state, effects: [] };
		return {
			state: showLocal({ ...cleared(state), mode: 'local', kind: 'local', size: local.size, rule: local.rule, link: 'closed' }, local),
			effects: [],
		};
	}
	case 'client/move':
		if (isMyTurn(state) && isForbidden(state, action.x, action.y))
			return { state, effects: [{ kind: 'toast', key: 'toast.forbidden' }] };
		if (!canPlace(state, action.x, action.y))
			return { state, effects: [] };
		if (!gameMode(state).server) {
			const local = playLocal(state.local, action.x, action.y);
			return { state: showLocal(state, local), effects: localSounds(local) };
		}
		return {
			state: { ...state, pending: true },
			effects: [{ kind: 'send', message: { type: 'move', x: action.x, y: action.y } }],
		};
	case 'client/undo':
		if (state.takebackAt !== null && now < state.takebackAt)
			return { state, effects: [] }; // Undo shows the seconds left
		return onUndo(state);
	case 'client/redo':
		return onRedo(state);
	case 'client/answer':
		return onAnswerOffer(state, action.accept);
	case 'client/resign':
		return onResign(state);
	case 'client/abort':
		return onAbort(state);
	case 'client/draw':
		return onOfferDraw(state);
	case 'client/rematch':
		return onRematch(state);
	case 'client/emote':
		return onSendEmote(state, action.emote, now);
	case 'client/mute-emotes':
		// Hides the opponent's emotes from now on, and the one shown.
		return {
			state: {
				...state,
				emotesMuted: Boolean(action.muted),
				bubbles: action.muted ? { ...state.bubbles, opponent: null } : state.bubbles,
			},
			effects: [],
		};
	case 'client/choose':
		// The start screen's choice of mode, level and pool (any of size,
		// rule, tc); kept for the next game, and not changed while one is
		// being found or played.
		if (state.phase !== 'idle' && state.phase !== 'over')
			return { state, effects: [] };
		return {
			state: {
				...state,
				mode: MODES.includes(action.mode) ? action.mode : state.mode,
				level: LEVELS.includes(action.level) ? action.level : state.level,
				pool: choosePool({
					size: action.size ?? state.pool.size,
					rule: action.rule ?? state.pool.rule,
					tc: action.tc ?? state.pool.tc,
				}),
			},
			effects: [],
		};
	case 'client/closed':
		if (!gameMode(state).server)
			return { state, effects: [] }; // an old game's socket: nothing to do with this one
		return onClosed(state, action, now);

	case 'welcome':
		return onWelcome(state, action);
	case 'waiting':
		return onWaiting(state);
	case 'invite':
		return onInviteCode(state, action);
	case 'role':
		return onRole(state, action, now);
	case 'board':
		return onBoard(state, action, now);
	case 'winner':
		if (!gameMode(state).server)
			return { state, effects: [] };
		return onWinner(state, action, now);
	case 'offer':
		return onOffer(state, action);
	case 'answer':
		return onAnswer(state, action, now);
	case 'disconnect':
		return onDisconnect(state);
	case 'error':
		return onError(state, action);
	case 'pong':
		return onPong(state);
	case 'emote':
		return onEmote(state, action, now);
	case 'opponent_away': {
		if (state.phase !== 'playing' || !gameMode(state).server)
			return { state, effects: [] };
		const seconds = Number.isFinite(action.seconds) && action.seconds > 0 ? action.seconds : 0;
		return { state: { ...state, awayUntil: now + seconds * 1000 }, effects: [] };
	}
	case 'opponent_back':
		if (state.awayUntil === null)
			return { state, effects: [] };
		return {
			state: { ...state, awayUntil: null },
			effects: [{ kind: 'toast', key: 'toast.back' }],
		};
	default:
		return { state, effects: [] }; // a type this page does not know
	}
}
