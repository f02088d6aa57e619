// What the page shows of the game state: whose turn it is, the status
// line and the note under it, the player cards, which buttons are there
// and which of them work, what the board canvas draws, and the data-*
// attributes the tests read. Pure functions of the state (no DOM), so
// node --test checks them; main.js only puts their answers on the page.
//
// Most answers are text keys (see text.js), which main.js turns into the
// page's language. The player cards and toasts, which hold names and the
// server's words, and the rule's text take the language (lang) and give
// the text itself.

import { isLive, canPlace, canUndo, canRedo, canAnswer, otherRole } from './state.js';
import { gameMode, chosenMode } from './modes.js';
import { text, hasText, pointLabel, computerName } from './text.js';

/** The colour a click places now: the side to move when both sides play here, else mine. */
export function moverRole(state) {
	return gameMode(state).hotSeat ? state.toMove : state.role;
}

/**
 * Whose turn the page shows: 'me', 'opponent' or '' (no live game). When
 * both sides play here, the first card is black's and the second white's.
 */
export function turnOf(state) {
	if (state.phase !== 'playing' || state.winner || !state.synced)
		return '';
	if (gameMode(state).hotSeat)
		return state.toMove === 'front' ? 'me' : 'opponent';
	return state.toMove === state.role ? 'me' : 'opponent';
}

/**
 * Which of Undo and Redo the page shows: those the game's mode has, while
 * it goes on, and also after the end in a game the page keeps (which can
 * take the last move back); none before a game.
 */
export function toolsOf(state) {
	const mode = gameMode(state);
	const inGame = state.phase === 'playing' || (state.phase === 'over' && !mode.server);
	return {
		undo: inGame && mode.undo,
		redo: inGame && mode.redo,
	};
}

/** The board as text, row-major: '.' empty, 'x' front (black), 'o' back. */
export function boardText(cells) {
	return cells.map((cell) => (cell === 'front' ? 'x' : cell === 'back' ? 'o' : '.')).join('');
}

/** The status line as a text key and its parameters (see text.js). */
export function statusOf(state) {
	switch (state.phase) {
	case 'idle':
		if (state.notice === 'refused')
			return { key: 'status.refused', params: { message: state.refusal || '' } };
		if (state.notice === 'unreachable')
			return { key: 'status.unreachable' };
		return { key: chosenMode(state).idleStatus };
	case 'searching':
		if (state.link === 'retrying')
			return { key: 'status.reconnecting' };
		return { key: chosenMode(state).searchingStatus };
	case 'resuming':
		return { key: state.link === 'retrying' ? 'status.reconnecting' : 'status.resuming' };
	case 'playing':
		if (gameMode(state).hotSeat)
			return { key: `status.local.${state.toMove}` };
		if (!state.synced)
			return { key: 'status.resuming' };
		if (state.toMove === state.role)
			return { key: 'status.your_turn' };
		return { key: gameMode(state).computer ? 'status.ai_turn' : 'status.their_turn' };
	case 'over':
		if (gameMode(state).hotSeat && state.winner)
			return { key: localOutcomeKey(state.winner) };
		return { key: outcomeKey(state) };
	default:
		return { key: 'status.idle' };
	}
}

/** The result when both sides play here: black or white wins, by five or a full board; a draw. */
function localOutcomeKey(winner) {
	if (winner.winner === 'draw')
		return 'status.draw';
	return `status.local.${winner.winner}.${winner.reason === 'full' ? 'full' : 'wins'}`;
}

function outcomeKey(state) {
	const reason = state.winner ? state.winner.reason : '';
	switch (state.outcome) {
	case 'win':
		if (reason === 'forfeit' || (!state.winner && state.opponentLeft))
			return 'status.win.forfeit';
		return reason === 'full' ? 'status.win.full' : 'status.win';
	case 'loss':
		if (reason === 'forfeit')
			return 'status.loss.forfeit';
		return reason === 'full' ? 'status.loss.full' : 'status.loss';
	case 'draw':
		return 'status.draw';
	case 'replaced':
		return 'status.replaced';
	default:
		return 'status.lost';
	}
}

/**
 * The second status line as a text key and parameters, or null: the
 * opponent's reconnect countdown, a takeback offer pending or its answer,
 * how many moves were played, that the opponent left after the game
 * ended, or where the five is.
 */
export function noteOf(state, now) {
	if (state.phase === 'playing' && state.synced) {
		if (state.awayUntil !== null) {
			const seconds = Math.max(0, Math.ceil((state.awayUntil - now) / 1000));
			return { key: 'note.away', params: { seconds } };
		}
		if (state.offer)
			return { key: `note.offer.${state.offer}` };
		if (state.answer)
			return { key: `note.answer.${state.answer.by}.${state.answer.accept ? 'accepted' : 'declined'}` };
		return state.moves ? { key: 'note.moves', params: { moves: state.moves } } : { key: 'note.first' };
	}
	if (state.phase !== 'over' || !state.winner)
		return null;
	if (state.opponentLeft && state.winner.reason !== 'forfeit')
		return { key: 'note.left' };
	const line = state.winner.line;
	if (line.length) {
		const first = line[0];
		const last = line[line.length - 1];
		return {
			key: 'note.five',
			params: { from: pointLabel(first.x, first.y, state.size), to: pointLabel(last.x, last.y, state.size) },
		};
	}
	return null;
}

/** In a room: playing, or a game that ended (the cards keep the colours). */
function inRoom(state) {
	return Boolean(state.role) && ['playing', 'over'].includes(state.phase);
}

/** True before a game and after one: a game can be started, the mode chosen. */
function choosing(state) {
	return ['idle', 'over'].includes(state.phase);
}

/** The main button's text key: the mode's start, what goes on, or "Play again". */
function mainButtonKey(state) {
	switch (state.phase) {
	case 'searching':
		return chosenMode(state).searchingButton;
	case 'resuming':
		return 'button.resuming';
	case 'playing':
		return state.synced ? 'button.playing' : 'button.resuming';
	case 'over':
		return 'button.again';
	default:
		return chosenMode(state).startButton;
	}
}

/**
 * The controls around the board, as text keys and flags: the main button
 * (works only before and after a game), the Cancel button (a search) or
 * Leave (a game under way whose mode lets it be left), the name field
 * (locked during a game), the start screen's choice of mode and of the
 * computer's level, Undo and Redo (see toolsOf; they work when the guards
 * of state.js allow), the prompt that answers the opponent's takeback
 * offer, and the veil over a board that waits for the server.
 */
export function controlsOf(state) {
	const leaves = gameMode(state).leave && state.phase === 'playing';
	const tools = toolsOf(state);
	return {
		main: { key: mainButtonKey(state), disabled: !choosing(state) },
		cancel: {
			key: leaves ? 'button.leave' : 'button.cancel',
			hidden: state.phase !== 'searching' && !leaves,
		},
		nameLocked: !choosing(state),
		modes: { hidden: !choosing(state) },
		levels: { hidden: !chosenMode(state).computer },
		tools: { hidden: !tools.undo && !tools.redo },
		undo: { hidden: !tools.undo, disabled: !canUndo(state) },
		redo: { hidden: !tools.redo, disabled: !canRedo(state) },
		prompt: { hidden: state.offer !== 'received' || !isLive(state), disabled: !canAnswer(state) },
		veil: state.phase === 'resuming' || (state.phase === 'playing' && !state.synced),
	};
}

/**
 * One player card: the name, the stone's colour (role, '' when none), the
 * colour's text with the engine's level after it, and the flags the page
 * styles the card by.
 */
function playerCard(lang, { name, role = '', turn, searching = false, left = false, away = false, ai = false, level = '' }) {
	let roleText = role ? text(lang, `role.${role}`) : '';
	if (roleText && level)
		roleText += ` · ${text(lang, `level.${level}`)}`;
	return { name, role, roleText, turn, searching, left, away, ai };
}

/**
 * The opponent's name in lang: a placeholder outside a room; the engine's
 * name from its level (never the name the server sent for it, which may
 * be missing and is English); else the player's name or "Opponent".
 */
function opponentName(state, lang) {
	if (state.phase === 'searching' || state.phase === 'resuming')
		return text(lang, 'player.waiting');
	if (!inRoom(state))
		return text(lang, 'player.opponent');
	if (gameMode(state).computer)
		return computerName(lang, state.opponentLevel);
	return state.opponent || text(lang, 'player.opponent');
}

/**
 * The two player cards, in lang: {me, opponent}. This player's card shows
 * myName (the name typed, '' for none); when both sides play here, the
 * first card is black's and the second white's. The colours show once in
 * a room.
 */
export function playersOf(state, lang, myName) {
	const turn = turnOf(state);
	if (gameMode(state).hotSeat) {
		return {
			me: playerCard(lang, { name: text(lang, 'player.first'), role: 'front', turn: turn === 'me' }),
			opponent: playerCard(lang, { name: text(lang, 'player.second'), role: 'back', turn: turn === 'opponent' }),
		};
	}
	const seated = inRoom(state);
	return {
		me: playerCard(lang, {
			name: myName || text(lang, 'player.you'),
			role: seated ? state.role : '',
			turn: turn === 'me',
		}),
		opponent: playerCard(lang, {
			name: opponentName(state, lang),
			role: seated ? otherRole(state.role) : '',
			turn: turn === 'opponent',
			searching: state.phase === 'searching',
			left: seated && state.opponentLeft,
			away: state.phase === 'playing' && state.awayUntil !== null,
			ai: seated && gameMode(state).computer,
			level: seated && gameMode(state).computer ? state.opponentLevel : '',
		}),
	};
}

/** The rule's text in lang once the rule is known and a game is shown; '' else. */
export function ruleTextOf(state, lang) {
	const key = `rule.${state.rule}`;
	return ['playing', 'over'].includes(state.phase) && hasText(lang, key) ? text(lang, key) : '';
}

/**
 * The text of a toast effect (see game.js) in lang: its text key, or a
 * request the server refused, told in the page's words when the page
 * knows the code and in the server's otherwise.
 */
export function toastTextOf(effect, lang) {
	if (effect.key)
		return text(lang, effect.key, effect.params);
	const key = `error.${effect.code}`;
	return hasText(lang, key) ? text(lang, key) : text(lang, 'error.other', { message: effect.message });
}

/**
 * What the board canvas draws (render.js): the position, the last move,
 * the winning line, the stone a click would place at aim (the point under
 * the mouse or the keyboard cursor, or null) and cursor (the keyboard
 * cursor when the keyboard drives the aim, or null) while the board is
 * live.
 */
export function boardPictureOf(state, { aim = null, cursor = null } = {}) {
	return {
		size: state.size,
		cells: state.cells,
		lastMove: state.lastMove,
		line: state.winner ? state.winner.line : [],
		preview: aim && canPlace(state, aim.x, aim.y) ? { x: aim.x, y: aim.y, role: moverRole(state) } : null,
		cursor: cursor && isLive(state) ? cursor : null,
	};
}

/**
 * The game's data-* attributes on #app, for the tests (strings); main.js
 * adds the page's own (lang, muted).
 */
export function pageDataOf(state) {
	return {
		state: state.phase,
		role: inRoom(state) ? state.role : '',
		turn: turnOf(state),
		result: state.phase === 'over' ? state.outcome || '' : '',
		link: state.link,
		live: String(isLive(state)),
		mode: state.mode,
		level: state.level,
		kind: state.kind,
		offer: state.offer || '',
	};
}

/** The data-* attributes of the board canvas, for the tests (strings). */
export function boardDataOf(state) {
	return {
		size: String(state.size),
		moves: String(state.moves),
		stones: String(state.cells.filter((cell) => cell !== '').length),
		board: boardText(state.cells),
		last: state.lastMove ? `${state.lastMove.x},${state.lastMove.y}` : '',
		line: state.winner ? state.winner.line.map(({ x, y }) => `${x},${y}`).join(' ') : '',
	};
}
