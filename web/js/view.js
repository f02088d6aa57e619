// What the page shows of the game state: whose turn it is, the status
// line and the note under it, the player cards, which buttons are there
// and which of them work, what the board canvas draws, and the data-*
// attributes the tests read. Pure functions of the state (no DOM), so
// node --test checks them; main.js only puts their answers on the page.
//
// Most answers are text keys (see text.js), which main.js turns into the
// page's language. The player cards and toasts, which hold names and the
// server's words, and the rule's text take the language (lang) and give
// the text itself. What counts down (the clocks, the first-move deadline,
// the opponent's reconnect grace, the bubbles, the emote bar's pause)
// takes the time (now, in ms) as an argument.

import {
	isLive, canPlace, canUndo, canRedo, canAnswer, otherRole, speaksVersion2,
	canAbort, canResign, canOfferDraw, canRematch, hasEmotes, canEmote, inOpening, isForbidden,
} from './state.js';
import { gameMode, chosenMode } from './modes.js';
import { text, hasText, pointLabel, computerName } from './text.js';
import { runningSide, clockAt, clockText, isLow, secondsUntil } from './clock.js';
import { EMOTES, bubbleAt } from './emotes.js';
import { SIZES, RULES, tcChoices, tcLabel } from './pool.js';
import { seatName } from './lobby.js';
import { invitePhaseOf } from './invite.js';

/** The status lines of the start screen after an invite's end (state.notice). */
const INVITE_NOTICES = {
	invite_missing: { status: 'status.invite.missing', note: 'note.invite.missing' },
	invite_lost: { status: 'status.invite.lost', note: 'note.invite.lost' },
	invite_limited: { status: 'status.invite.limited', note: 'note.invite.limited' },
};

/** The invite's side while it is made or joined ('host' or 'guest'), '' when none. */
function inviteSide(state) {
	return state.invite ? state.invite.side : '';
}

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

/**
 * The seconds until Undo may ask for a takeback again after the opponent
 * declined one (the server refuses it sooner), 0 when it may now.
 */
export function undoWaitOf(state, now) {
	return state.takebackAt !== null && now < state.takebackAt ? secondsUntil(state.takebackAt, now) : 0;
}

/**
 * The tab's title and icon: while the page is in the background (hidden)
 * and it is this player's move, "Your turn" and the icon with a dot, so a
 * player in another tab sees it; else the page's own.
 */
export function tabOf(state, lang, hidden) {
	if (hidden && turnOf(state) === 'me' && !gameMode(state).hotSeat)
		return { title: text(lang, 'page.title.turn'), icon: 'favicon-turn.svg' };
	return { title: text(lang, 'page.title'), icon: 'favicon.svg' };
}

/** A move as a screen reader says it: "Black H8". */
export function moveSaid(move, size, lang) {
	return `${text(lang, `role.${move.role}`)} ${pointLabel(move.x, move.y, size)}`;
}

/** A point under the keyboard cursor as said: "H8, empty", "H8, Black", "H8, forbidden". */
export function pointSaid(state, point, lang) {
	const cell = state.cells[point.y * state.size + point.x];
	let what = cell ? text(lang, `role.${cell}`) : text(lang, 'say.empty');
	if (!cell && isForbidden(state, point.x, point.y))
		what = text(lang, 'say.forbidden');
	return `${pointLabel(point.x, point.y, state.size)}, ${what}`;
}

/** How many of the last moves the board's description says. */
export const MOVES_SAID = 6;

/**
 * The position as a screen reader is told it (the board's label, and the
 * M key): the board, the stones, the last moves, newest first.
 */
export function positionSaid(state, lang) {
	const seen = movesSeenOf(state).moves;
	const last = seen.slice(-MOVES_SAID).reverse().map((move) => moveSaid(move, state.size, lang));
	const stones = state.cells.filter((cell) => cell !== '').length;
	let said = text(lang, 'board.label', { size: state.size });
	said += `. ${text(lang, 'say.stones', { stones })}`;
	if (last.length)
		said += `. ${text(lang, 'say.last', { moves: last.join(', ') })}`;
	return `${said}.`;
}

/** The board as text, row-major: '.' empty, 'x' front (black), 'o' back. */
export function boardText(cells) {
	return cells.map((cell) => (cell === 'front' ? 'x' : cell === 'back' ? 'o' : '.')).join('');
}

/** The status line as a text key and its parameters (see text.js). */
export function statusOf(state) {
	switch (state.phase) {
	case 'idle':
		if (inviteSide(state) === 'guest')
			return { key: 'status.invited' };
		if (Object.hasOwn(INVITE_NOTICES, state.notice))
			return { key: INVITE_NOTICES[state.notice].status };
		if (state.notice === 'refused')
			return { key: 'status.refused', params: { message: state.refusal || '' } };
		if (Object.hasOwn(IDLE_NOTICES, state.notice))
			return { key: IDLE_NOTICES[state.notice] };
		return { key: chosenMode(state).idleStatus };
	case 'searching':
		if (state.link === 'retrying')
			return { key: retryingKey(state) };
		if (inviteSide(state) === 'host')
			return { key: state.invite.code ? 'status.invite.waiting' : 'status.invite.creating' };
		if (inviteSide(state) === 'guest')
			return { key: 'status.invite.joining' };
		return { key: chosenMode(state).searchingStatus };
	case 'resuming':
		return { key: state.link === 'retrying' ? retryingKey(state) : 'status.resuming' };
	case 'elsewhere':
		return { key: 'status.elsewhere' };
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

/** The status of the start screen's notices but the invites': what ended the last try. */
const IDLE_NOTICES = {
	unreachable: 'status.unreachable',
	gone: 'status.gone',
	elsewhere: 'status.search_elsewhere',
};

/**
 * Failed reconnects after which the page says the server is unreachable
 * rather than that it reconnects (0.5 + 1 + 2 s of them).
 */
export const UNREACHABLE_AFTER = 3;

/** The status while a socket is being retried. */
function retryingKey(state) {
	return state.retries > UNREACHABLE_AFTER ? 'status.unreachable.retrying' : 'status.reconnecting';
}

/** The result when both sides play here: black or white wins, by five or a full board; a draw. */
function localOutcomeKey(winner) {
	if (winner.winner === 'draw')
		return 'status.draw';
	return `status.local.${winner.winner}.${winner.reason === 'full' ? 'full' : 'wins'}`;
}

/**
 * The status after a server game, by outcome and the winner's reason:
 * each outcome's reasons, and its text when the reason is none of them
 * (five, or one the page does not know).
 */
const OUTCOME_KEYS = {
	win: {
		other: 'status.win',
		full: 'status.win.full',
		forfeit: 'status.win.forfeit',
		timeout: 'status.win.timeout',
		resign: 'status.win.resign',
	},
	loss: {
		other: 'status.loss',
		full: 'status.loss.full',
		forfeit: 'status.loss.forfeit',
		timeout: 'status.loss.timeout',
		resign: 'status.loss.resign',
	},
	draw: { other: 'status.draw', agreement: 'status.draw.agreement' },
	aborted: { other: 'status.aborted' },
	lost: { other: 'status.lost' },
};

function outcomeKey(state) {
	// A game that ended with the opponent's disconnect has no winner message.
	const reason = state.winner ? state.winner.reason : state.opponentLeft ? 'forfeit' : '';
	const keys = OUTCOME_KEYS[state.outcome] || OUTCOME_KEYS.lost;
	return Object.hasOwn(keys, reason) ? keys[reason] : keys.other;
}

/** The text keys of an offer pending ('sent' or 'received' after it) and of its answer, by what it is. */
const OFFER_NOTES = {
	takeback: { offer: 'note.offer', answer: 'note.answer' },
	draw: { offer: 'note.draw', answer: 'note.draw.answer' },
	rematch: { offer: 'note.rematch', answer: 'note.rematch.answer' },
};

/** The note of the offer pending or of the last answer, or null. */
function offerNote(state) {
	if (state.offer && OFFER_NOTES[state.offerWhat])
		return { key: `${OFFER_NOTES[state.offerWhat].offer}.${state.offer}` };
	const answer = state.answer;
	if (answer && OFFER_NOTES[answer.what || 'takeback'])
		return { key: `${OFFER_NOTES[answer.what || 'takeback'].answer}.${answer.by}.${answer.accept ? 'accepted' : 'declined'}` };
	return null;
}

/**
 * The second status line as a text key and parameters, or null: on the
 * start screen, what to do about an invite (join it, or what went wrong
 * with one); while the friend is awaited, that the game starts when the
 * link is opened; in a game, the opponent's reconnect countdown, an offer
 * pending or its answer, the first-move deadline of a timed game, how
 * many moves were played; after the end, a rematch offered or declined,
 * that the opponent left, whose time ran out, that an aborted game does
 * not count, or where the five is.
 */
export function noteOf(state, now) {
	if (state.phase === 'idle') {
		if (inviteSide(state) === 'guest')
			return { key: 'note.invited' };
		return Object.hasOwn(INVITE_NOTICES, state.notice) ? { key: INVITE_NOTICES[state.notice].note } : null;
	}
	if (['searching', 'resuming'].includes(state.phase) && state.link === 'retrying' && state.retryAt !== null)
		return { key: 'note.retry', params: { seconds: secondsUntil(state.retryAt, now) } };
	if (state.phase === 'searching' && inviteSide(state) === 'host' && state.invite.code)
		return { key: 'note.invite.waiting' };
	if (state.phase === 'playing' && state.synced) {
		if (state.awayUntil !== null)
			return { key: 'note.away', params: { seconds: secondsUntil(state.awayUntil, now) } };
		const offer = offerNote(state);
		if (offer)
			return offer;
		if (state.abortAt !== null && inOpening(state)) {
			const mine = state.toMove === state.role;
			return { key: mine ? 'note.abort.me' : 'note.abort.opponent', params: { seconds: secondsUntil(state.abortAt, now) } };
		}
		return state.moves ? { key: 'note.moves', params: { moves: state.moves } } : { key: 'note.first' };
	}
	if (state.phase !== 'over' || !state.winner)
		return null;
	if (state.offer || (state.answer && state.answer.what === 'rematch' && !state.opponentLeft))
		return offerNote(state);
	if (state.opponentLeft && state.winner.reason !== 'forfeit')
		return { key: 'note.left' };
	if (state.winner.reason === 'timeout' && state.winner.winner !== 'none' && state.winner.winner !== 'draw')
		return { key: `note.timeout.${otherRole(state.winner.winner)}` };
	if (state.winner.reason === 'aborted')
		return { key: 'note.aborted' };
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

/**
 * The seat shown on the cards: in a room, and also while its socket is
 * retried or another tab has it (the game goes on, nobody is re-queued).
 * The role, or '' when none.
 */
function seatShown(state) {
	if (inRoom(state))
		return state.role;
	if (['resuming', 'elsewhere'].includes(state.phase) && state.resume)
		return state.resume.role;
	return '';
}

/** True before a game and after one: a game can be started, the mode chosen. */
function choosing(state) {
	return ['idle', 'over'].includes(state.phase);
}

/** The main button's text key: the mode's start, what goes on, or "Play again". */
function mainButtonKey(state) {
	switch (state.phase) {
	case 'searching':
		if (inviteSide(state))
			return inviteSide(state) === 'host' ? 'button.invite.waiting' : 'button.joining';
		return chosenMode(state).searchingButton;
	case 'resuming':
		return 'button.resuming';
	case 'elsewhere':
		return 'button.continue';
	case 'playing':
		return state.synced ? 'button.playing' : 'button.resuming';
	case 'over':
		// Beside a rematch, "Play again" is a new opponent.
		return state.kind === 'online' && rematchShown(state) ? 'button.new_opponent' : 'button.again';
	default:
		if (inviteSide(state) === 'guest')
			return 'button.join';
		return state.notice === 'unreachable' ? 'button.try_again' : chosenMode(state).startButton;
	}
}

/** True when the Rematch button is there: after a game whose mode has it, with the opponent still there. */
function rematchShown(state) {
	return gameMode(state).rematch && speaksVersion2(state) && state.phase === 'over' && Boolean(state.winner) &&
		!state.opponentLeft && state.link === 'open';
}

/**
 * The prompt over the board: a question of the page's own (resign?) or
 * the opponent's offer, as text keys of its text and buttons; null when
 * none is asked.
 */
function promptOf(state) {
	if (state.confirm === 'resign' && isLive(state))
		return { key: 'prompt.resign', accept: 'button.resign.confirm', decline: 'button.cancel', disabled: state.asking };
	if (state.confirm === 'leave' && state.phase === 'playing')
		return { key: 'prompt.leave', accept: 'button.leave.confirm', decline: 'button.cancel', disabled: false };
	if (state.offer !== 'received')
		return null;
	const shown = state.offerWhat === 'rematch' ? state.phase === 'over' : isLive(state);
	if (!shown)
		return null;
	return { key: `prompt.${state.offerWhat}`, accept: 'button.accept', decline: 'button.decline', disabled: !canAnswer(state) };
}

/**
 * The controls around the board, as text keys and flags: the main button
 * (works only before and after a game; Join on a friend's invite), "Play
 * a friend" beside it on the start screen of a mode that has invites, the
 * Cancel button (a search, an invite not joined yet) or Leave (a game
 * under way whose mode lets it be left), Rematch beside the main button
 * after a game, the name field (locked during a game), the start screen's
 * choice of mode, of the computer's level and of the pool (not while a
 * friend's invite waits: its game is the friend's),
 * Undo and Redo (see toolsOf), Draw and Resign (Abort in its place while
 * the game is in its opening) during a game of protocol 2, each working
 * when the guards of state.js allow; the prompt (the opponent's offer or
 * the resign confirmation), and the veil over a board that waits for the
 * server.
 */
export function controlsOf(state) {
	const leaves = gameMode(state).leave && state.phase === 'playing';
	const tools = toolsOf(state);
	const v2 = speaksVersion2(state) && state.phase === 'playing';
	const aborts = gameMode(state).abort && inOpening(state);
	const prompt = promptOf(state);
	const rematchSent = state.offer === 'sent' && state.offerWhat === 'rematch';
	const invited = inviteSide(state) === 'guest' && state.phase === 'idle';
	return {
		main: { key: mainButtonKey(state), disabled: !choosing(state) && state.phase !== 'elsewhere' },
		friend: { hidden: state.phase !== 'idle' || Boolean(state.invite) || !chosenMode(state).invites },
		cancel: {
			key: leaves ? 'button.leave' : 'button.cancel',
			hidden: state.phase !== 'searching' && !leaves && !invited,
		},
		nameLocked: !choosing(state),
		modes: { hidden: !choosing(state) || invited },
		levels: { hidden: !chosenMode(state).computer },
		// A local game takes the rule alone (renju too); the server's
		// games the whole pool.
		pool: {
			hidden: !chosenMode(state).pools && !chosenMode(state).localRule,
			sizeHidden: !chosenMode(state).pools,
			tcHidden: !chosenMode(state).pools,
		},
		rematch: {
			key: rematchSent ? 'button.rematch.sent' : 'button.rematch',
			hidden: !rematchShown(state),
			disabled: !canRematch(state),
		},
		tools: { hidden: !tools.undo && !tools.redo && !(v2 && (gameMode(state).resign || gameMode(state).draw)) },
		undo: { hidden: !tools.undo, disabled: !canUndo(state) },
		redo: { hidden: !tools.redo, disabled: !canRedo(state) },
		draw: { hidden: !(v2 && gameMode(state).draw), disabled: !canOfferDraw(state) },
		resign: {
			key: aborts ? 'button.abort' : 'button.resign',
			action: aborts ? 'abort' : 'resign',
			hidden: !(v2 && (gameMode(state).resign || aborts)),
			disabled: aborts ? !canAbort(state) : !canResign(state),
		},
		prompt: prompt
			? { hidden: false, ...prompt }
			: { hidden: true, key: 'prompt.takeback', accept: 'button.accept', decline: 'button.decline', disabled: true },
		veil: state.phase === 'resuming' || (state.phase === 'playing' && !state.synced),
	};
}

/**
 * The start screen's pool lists, as values and text keys or labels: the
 * sizes, the rules and the time controls (the chosen one added when it is
 * not in the list), and which of each is chosen.
 */
export function poolChoicesOf(state, lang) {
	return {
		sizes: SIZES.map((size) => ({ value: String(size), label: text(lang, 'pool.size', { size }) })),
		rules: RULES.map((rule) => ({ value: rule, label: text(lang, `pool.rule.${rule}`) })),
		tcs: tcChoices(state.pool.tc).map((tc) => ({ value: tc, label: tc === 'none' ? text(lang, 'pool.tc.none') : tcLabel(tc) })),
		chosen: { size: String(state.pool.size), rule: state.pool.rule, tc: state.pool.tc },
	};
}

/**
 * The emote bar at now: hidden (no game with a person, protocol 1, the
 * opponent gone), or its buttons working (3 s after the last emote), and
 * whether the opponent's emotes are muted.
 */
export function emotesOf(state, now) {
	return {
		hidden: !hasEmotes(state),
		disabled: !canEmote(state, now),
		muted: state.emotesMuted,
		emotes: EMOTES,
	};
}

/**
 * The clocks at now, {front, back} as {text, low, running, flag}, or null
 * in an untimed game. The side to move's runs while the game goes on once
 * the opening is played; the side whose time ran out shows its flag.
 */
export function clocksOf(state, now) {
	if (!state.clock || !['playing', 'over'].includes(state.phase))
		return null;
	const live = state.phase === 'playing' && !state.winner;
	const side = runningSide(state.toMove, state.moves, live);
	const left = clockAt(state.clock, side, now);
	const flagged = state.winner && state.winner.reason === 'timeout' && ['front', 'back'].includes(state.winner.winner)
		? otherRole(state.winner.winner) : '';
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
 * One player card: the name, the stone's colour (role, '' when none), the
 * colour's text with the engine's level after it, and the flags the page
 * styles the card by.
 */
function playerCard(lang, {
	name, role = '', turn, searching = false, left = false, away = false, ai = false, clock = null, bubble = '',
}) {
	const roleText = role ? text(lang, `role.${role}`) : '';
	return {
		name,
		role,
		roleText,
		turn,
		searching,
		left,
		away,
		ai,
		clock: clock ? clock.text : '', // '' when the game has no clock
		low: Boolean(clock && clock.low),
		running: Boolean(clock && clock.running),
		flag: Boolean(clock && clock.flag),
		bubble: bubble ? text(lang, `bubble.${bubble}`) : '', // the emote shown by the card
		emote: bubble, // its word
	};
}

/**
 * The opponent's name in lang: a placeholder outside a room; the engine's
 * name from its level (never the name the server sent for it, which may
 * be missing and is English); else the player's name or "Opponent".
 */
function opponentName(state, lang) {
	if (state.phase === 'searching')
		return text(lang, 'player.waiting');
	if (!seatShown(state))
		return text(lang, 'player.opponent');
	if (gameMode(state).computer)
		return computerName(lang, state.opponentLevel);
	return state.opponent || text(lang, 'player.opponent');
}

/**
 * The two player cards, in lang: {me, opponent}. This player's card shows
 * myName (the name typed, '' for none); when both sides play here, the
 * first card is black's and the second white's. The colours show once in
 * a room, and so do the clocks of a timed game and the emotes' bubbles
 * (at now).
 */
export function playersOf(state, lang, myName, now = 0) {
	const turn = turnOf(state);
	if (gameMode(state).hotSeat) {
		return {
			me: playerCard(lang, { name: text(lang, 'player.first'), role: 'front', turn: turn === 'me' }),
			opponent: playerCard(lang, { name: text(lang, 'player.second'), role: 'back', turn: turn === 'opponent' }),
		};
	}
	const seated = inRoom(state);
	const seat = seatShown(state);
	const clocks = seated ? clocksOf(state, now) : null;
	return {
		me: playerCard(lang, {
			name: myName || text(lang, 'player.guest'), // the badge says "you" already
			role: seat,
			turn: turn === 'me',
			clock: clocks && clocks[state.role],
			bubble: seated ? bubbleAt(state.bubbles.me, now) : '',
		}),
		opponent: playerCard(lang, {
			name: opponentName(state, lang),
			role: seat ? otherRole(seat) : '',
			turn: turn === 'opponent',
			searching: state.phase === 'searching',
			left: seated && state.opponentLeft,
			away: state.phase === 'playing' && state.awayUntil !== null,
			ai: Boolean(seat) && gameMode(state).computer,
			// (the computer's level is in its name)
			clock: clocks && clocks[otherRole(state.role)],
			bubble: seated && !state.emotesMuted ? bubbleAt(state.bubbles.opponent, now) : '',
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
	// A refusal of a request of one kind (too_soon after a declined draw)
	// may have words of its own.
	const precise = `error.${effect.code}.${effect.what}`;
	if (effect.what && hasText(lang, precise))
		return text(lang, precise);
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
		forbidden: state.forbidden || [],
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
		offerWhat: state.offer ? state.offerWhat : '',
		confirm: state.confirm || '',
		reason: state.phase === 'over' && state.winner ? state.winner.reason : '',
		tc: ['playing', 'over'].includes(state.phase) && state.role ? state.tc : '',
		protocol: String(state.protocol),
		invite: invitePhaseOf(state),
		notice: state.phase === 'idle' && state.notice ? state.notice : '',
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
		forbidden: (state.forbidden || []).map(({ x, y }) => `${x},${y}`).join(' '),
	};
}

/**
 * The moves of the game shown, for the move list and the numbers on the
 * stones: {moves: [{x, y, role}], first} (the number of the first; a
 * resumed seat has seen only the moves since). None before a game.
 */
export function movesSeenOf(state) {
	if (!['playing', 'over'].includes(state.phase))
		return { moves: [], first: 1 };
	if (state.local)
		return { moves: state.local.history, first: 1 };
	return { moves: state.history, first: Math.max(1, state.moves - state.history.length + 1) };
}

/**
 * How many watch the player's room: {hidden, count}, from told, the last
 * spectators message ({room, count}: main.js keeps it with the room it
 * came in); hidden while none does, and outside that room.
 */
export function spectatorsOf(state, told) {
	const count = told && inRoom(state) && gameMode(state).server && told.room === state.room &&
		Number.isInteger(told.count) && told.count > 0 ? told.count : 0;
	return { hidden: count === 0, count };
}

/**
 * The two cards of a game watched or replayed (the first black's, the
 * second white's), in lang: seats {front, back} as the server names them,
 * toMove the side to move ('' for none), clocks as clocksOf's (or null),
 * bubbles {front, back} the emote shown by each ('') and away {front,
 * back} true for a seat whose player is reconnecting.
 */
export function seatCardsOf({ seats, toMove = '', clocks = null, bubbles = {}, away = {} }, lang) {
	const card = (role) => playerCard(lang, {
		name: seatName(seats[role], lang),
		role,
		turn: toMove === role,
		away: Boolean(away[role]),
		ai: Boolean(seats[role] && seats[role].ai),
		clock: clocks && clocks[role],
		bubble: bubbles[role] || '',
	});
	return { me: card('front'), opponent: card('back') };
}
