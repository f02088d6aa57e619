// What the page shows of the game state: whose turn it is, the status
// line and the note under it, which of Undo and Redo are there, the board
// as text. Pure functions of the state (no DOM), so node --test checks
// them; main.js puts their answers on the page.

import { pointLabel } from './text.js';

/** The colour a click places now: the side to move in a local game, else mine. */
export function moverRole(state) {
	return state.kind === 'local' ? state.toMove : state.role;
}

/**
 * Whose turn the page shows: 'me', 'opponent' or '' (no live game). In a
 * local game the first card is black's and the second white's.
 */
export function turnOf(state) {
	if (state.phase !== 'playing' || state.winner || !state.synced)
		return '';
	if (state.kind === 'local')
		return state.toMove === 'front' ? 'me' : 'opponent';
	return state.toMove === state.role ? 'me' : 'opponent';
}

/**
 * Which of Undo and Redo the page shows: both in local games (also after
 * the end) and in live games against the engine, Undo alone in live
 * online games; none before a game or after a server game ended.
 */
export function toolsOf(state) {
	const inGame = state.phase === 'playing' || (state.phase === 'over' && state.kind === 'local');
	const kind = inGame ? state.kind : '';
	return {
		undo: ['local', 'ai', 'online'].includes(kind),
		redo: ['local', 'ai'].includes(kind),
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
		return { key: state.mode === 'online' ? 'status.idle' : `status.idle.${state.mode}` };
	case 'searching':
		if (state.link === 'retrying')
			return { key: 'status.reconnecting' };
		return { key: state.mode === 'ai' ? 'status.starting' : 'status.searching' };
	case 'resuming':
		return { key: state.link === 'retrying' ? 'status.reconnecting' : 'status.resuming' };
	case 'playing':
		if (state.kind === 'local')
			return { key: `status.local.${state.toMove}` };
		if (!state.synced)
			return { key: 'status.resuming' };
		if (state.toMove === state.role)
			return { key: 'status.your_turn' };
		return { key: state.kind === 'ai' ? 'status.ai_turn' : 'status.their_turn' };
	case 'over':
		if (state.kind === 'local' && state.winner)
			return { key: localOutcomeKey(state.winner) };
		return { key: outcomeKey(state) };
	default:
		return { key: 'status.idle' };
	}
}

/** The result of a local game: black or white wins, by five or a full board; a draw. */
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
