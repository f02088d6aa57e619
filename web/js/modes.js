// The game modes the start screen offers and what each one allows, in one
// table. The reducer (game.js), the guards (state.js) and the view
// (view.js) ask what the mode of a game allows, never which mode it is,
// so a new mode is one entry here (plus its words in text.js). Pure: no
// DOM, so node --test imports it.
//
// state.mode is the mode the next game starts in (chosenMode); state.kind
// is the mode of the game shown (gameMode), '' while none is: before the
// first game, while searching and while resuming a seat after a reload.

/**
 * What each mode allows:
 *   server           played on the server, which referees it: the page
 *                    opens a socket and shows the server's boards. Else the
 *                    page keeps and judges the game itself (local.js): no
 *                    socket, and Undo and Redo work after the end too.
 *   hotSeat          both sides are played by clicks on this page: it is
 *                    always the player's turn, and the cards and the status
 *                    name the colours (black, white) rather than "you".
 *   computer         the other side is the server's engine: the start
 *                    screen asks for its level, and the page names it.
 *   undo, redo       the game has an Undo and a Redo button.
 *   offers           a takeback is an offer the opponent accepts or
 *                    declines (offer and answer messages, the prompt);
 *                    otherwise it is done at once.
 *   leave            a game under way can be left for the start screen.
 *   pools            the start screen offers the pool (pool.js: size, rule,
 *                    time control) and the socket asks for it.
 *   localRule        the start screen offers the rule alone, for a game
 *                    the page keeps (local.js).
 *   resign, abort    a game under way can be resigned, and aborted before
 *                    its second move (protocol 2).
 *   draw             a draw can be offered, and the opponent's accepted or
 *                    declined (protocol 2; the engine declines them all).
 *   rematch          after the end, a rematch with the sides swapped
 *                    (protocol 2; the engine accepts at once).
 *   emotes           the emote bar, and the opponent's bubbles (protocol 2).
 *   invites          the start screen offers "Play a friend": a private
 *                    game by invite link (invite.js).
 *   startButton, idleStatus, searchingButton, searchingStatus
 *                    the text keys (text.js) of the main button and of the
 *                    status line before a game and while one is found.
 */
export const MODE_RULES = {
	// Matched with another player by the server.
	online: {
		server: true,
		hotSeat: false,
		computer: false,
		undo: true,
		redo: false,
		offers: true,
		leave: false,
		pools: true,
		localRule: false,
		resign: true,
		abort: true,
		draw: true,
		rematch: true,
		emotes: true,
		invites: true,
		startButton: 'button.find',
		idleStatus: 'status.idle',
		searchingButton: 'button.searching',
		searchingStatus: 'status.searching',
	},
	// The server's engine plays the other side (mode=ai on the socket, or
	// a role whose opponent says ai: true). It takes a takeback at once,
	// and what was taken back can be redone.
	ai: {
		server: true,
		hotSeat: false,
		computer: true,
		undo: true,
		redo: true,
		offers: false,
		leave: false,
		pools: true,
		localRule: false,
		resign: true,
		abort: true,
		draw: false,
		rematch: true,
		emotes: false,
		invites: false,
		startButton: 'button.ai',
		idleStatus: 'status.idle.ai',
		searchingButton: 'button.starting',
		searchingStatus: 'status.starting',
	},
	// Two players on this screen and no server at all: local.js keeps the
	// game and rules.js judges it; any number of moves can be undone and
	// redone. It starts at once, never searching or resuming, so its
	// searching texts are never shown (they are the generic ones).
	local: {
		server: false,
		hotSeat: true,
		computer: false,
		undo: true,
		redo: true,
		offers: false,
		leave: true,
		pools: false,
		localRule: true,
		resign: false,
		abort: false,
		draw: false,
		rematch: false,
		emotes: false,
		invites: false,
		startButton: 'button.local',
		idleStatus: 'status.idle.local',
		searchingButton: 'button.searching',
		searchingStatus: 'status.searching',
	},
};

/** The modes, in the order of the start screen's buttons. */
export const MODES = Object.keys(MODE_RULES);

/**
 * The engine's levels, easiest first (each beats the one before it in
 * 65–85 % of games: tests/engine/bench.sh); the start screen's buttons
 * are made from this list, each with a line that says how it plays
 * (text keys level.LEVEL and level.note.LEVEL).
 */
export const LEVELS = ['beginner', 'easy', 'medium', 'hard', 'master'];

/**
 * What a page with no game shown (kind '') allows: no game's buttons. It
 * counts as a server game, as the only socket it can have is a search's
 * or a resume's, whose close must be handled.
 */
const NO_GAME = {
	server: true,
	hotSeat: false,
	computer: false,
	undo: false,
	redo: false,
	offers: false,
	leave: false,
	pools: false,
	localRule: false,
	resign: false,
	abort: false,
	draw: false,
	rematch: false,
	emotes: false,
	invites: false,
};

/** The rules of the game shown (state.kind); NO_GAME while none is. */
export function gameMode(state) {
	return Object.hasOwn(MODE_RULES, state.kind) ? MODE_RULES[state.kind] : NO_GAME;
}

/** The rules of the mode chosen for the next game (state.mode). */
export function chosenMode(state) {
	return MODE_RULES[state.mode];
}
