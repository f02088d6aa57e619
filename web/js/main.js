// The page: wires the DOM (buttons, pointer, keys, storage) to the game
// state (game.js, state.js), the socket (connection.js, protocol.js), the
// board drawing (render.js), the sounds (sound.js) and the text (text.js).
// All decisions are made in pure modules: what happens in game.js and
// state.js, what the page shows in view.js; this module carries them out
// and puts them on the page.
//
// What the page exposes for tests, and for nothing else, is read-only:
// data-* attributes on #app (state, role, turn, result, link, live, lang,
// muted, mode, level, kind, offer, offer-what, confirm, reason, tc,
// protocol, invite, notice) and on the board canvas (size, moves, stones,
// board, last, line), on the player cards (turn, timed, low, flag, emote)
// and their clocks, on the invite's QR code canvas (link: the link it
// shows), plus the text of the status line, the toast and the cards.
//
// What counts down (the clocks, the first-move deadline, the opponent's
// reconnect grace, the bubbles, the emote bar's pause) is redrawn by a
// timer while anything does, without redrawing the board.
//
// Besides the player's own game (screen 'play') the page shows a game
// watched (screen 'watch': watch.js's reducer over its own socket, opened
// by the lobby's Watch or /#watch/ROOM) and a finished game replayed
// (screen 'replay': replay.js over /api/games/ID, opened by /#game/ID).
// Neither places a stone: clicks and the keyboard cursor do nothing, and
// the spectator's socket is sent nothing. #app's data-screen says which
// is shown, data-watch the watch's phase and data-replay-at the replay's
// position; the start screen's lobby (lobby.js) lists the live games.
//
// "Play a friend" (invite.js) searches on an invite of the player's own:
// while the friend is awaited, a panel over the board shows the link
// /#invite/CODE, its Copy button, its QR code (qr.js) and the choice to
// list the game in the lobby. That link opened (the hash, like #watch/
// and #game/) joins the friend's game, at once when the page knows the
// player's name, else once the player has typed one and pressed Join.
// #app's data-invite says where the invite stands, data-notice what went
// wrong with one (a link used or expired, a host's socket dropped).

import { boardGeometry, cellCenter, pointToCell, fitBoardSide, isCursorKey, moveCursor, zoomFactor, scrollToShow } from './layout.js';
import { reduce } from './game.js';
import { initialState, isMyTurn } from './state.js';
import {
	statusOf, noteOf, controlsOf, undoWaitOf, tabOf, moveSaid, pointSaid, positionSaid, playersOf, ruleTextOf, toastTextOf, boardPictureOf, pageDataOf, boardDataOf,
	poolChoicesOf, emotesOf, clocksOf, movesSeenOf, spectatorsOf, seatCardsOf, boardText,
} from './view.js';
import { LEVELS, gameMode, chosenMode } from './modes.js';
import { Connection } from './connection.js';
import { UID_PATTERN, newUid, cleanName, socketUrl, watchUrl } from './protocol.js';
import { EMOTES, BUBBLE_MS, emoteReadyAt } from './emotes.js';
import { tickDue } from './clock.js';
import { createBoardRenderer } from './render.js';
import { createSound } from './sound.js';
import { LANGUAGES, text, pickLanguage, otherLanguage } from './text.js';
import { moveListOf, stoneNumbersOf, routeOf, gameLink } from './notation.js';
import {
	newReplay, stepReplay, seekReplay, stepOfKey, replayStepsOf, replayBoardOf, replayStatusOf, replayNoteOf, STEPS,
} from './replay.js';
import {
	newWatch, reduceWatch, watchLive, watchClocksOf, watchStatusOf, watchNoteOf, watchBubbleOf, watchCounting,
} from './watch.js';
import { LOBBY_REFRESH_MS, LOBBY_ROOMS, waitingRowsOf, roomRowsOf } from './lobby.js';
import { inviteQueryOf, invitePanelOf, inviteLink } from './invite.js';
import { qrMatrix, qrSide, drawQr } from './qr.js';
import { localRecord } from './local.js';

const KEYS = {
	uid: 'gomoku.uid', // localStorage: this browser's player (every tab's)
	game: 'gomoku.game', // localStorage: {room, role, takenBack} of the server's game in progress
	local: 'gomoku.local', // localStorage: the game on one screen (local.js localRecord())
	name: 'gomoku.name', // localStorage: the display name
	muted: 'gomoku.muted', // localStorage: '1' when muted
	lang: 'gomoku.lang', // localStorage: 'en' or 'zh' once toggled
	mode: 'gomoku.mode', // localStorage: the last mode chosen (online, ai, local)
	level: 'gomoku.level', // localStorage: the last computer level chosen
	size: 'gomoku.size', // localStorage: the board size of the pool chosen
	rule: 'gomoku.rule', // localStorage: the rule of the pool chosen
	tc: 'gomoku.tc', // localStorage: the time control of the pool chosen (wire form)
	emotesMuted: 'gomoku.emotes-muted', // localStorage: '1' when the opponent's emotes are hidden
	numbers: 'gomoku.numbers', // localStorage: '1' when the stones show their move numbers
	theme: 'gomoku.theme', // localStorage: 'light' or 'dark' once switched (else the system's)
	confirmTaps: 'gomoku.confirm-taps', // localStorage: '1' or '0' once switched (else on for a narrow touch screen)
	zoom: 'gomoku.zoom', // localStorage: '1' when a dense board is shown zoomed
};
const LIVE_MS = 100; // how often what counts down is redrawn
const TOAST_MS = 2600;
const COPIED_MS = 2000; // how long the invite's Copy button says Copied
const QR_SCALE = 8; // canvas pixels per module of the invite's QR code (CSS scales it)

/** Storage that may be missing or refuse (private modes): never throws. */
function stored(area, key) {
	try {
		return globalThis[area].getItem(key);
	} catch {
		return null;
	}
}

function store(area, key, value) {
	try {
		if (value === null)
			globalThis[area].removeItem(key);
		else
			globalThis[area].setItem(key, value);
	} catch {
		// not remembered: the page still works
	}
}

/**
 * This browser's uid, made on first use and kept (localStorage) so that a
 * reload, a tab reopened or a second tab is the same player: the server
 * hands the seat to the newest connection, and the older tab offers to
 * take it back (phase elsewhere, game.js). A uid kept by an older page in
 * this tab's sessionStorage is carried over.
 */
function browserUid() {
	let uid = stored('localStorage', KEYS.uid);
	if (!uid || !UID_PATTERN.test(uid)) {
		const old = stored('sessionStorage', KEYS.uid);
		uid = old && UID_PATTERN.test(old) ? old : newUid();
		store('localStorage', KEYS.uid, uid);
	}
	return uid;
}

/** The JSON value kept under key in localStorage, or null (none, or not JSON). */
function storedJson(key) {
	try {
		return JSON.parse(stored('localStorage', key) || 'null');
	} catch {
		return null;
	}
}

/** The game in progress when the page was last left (any tab), or null. */
function savedGame() {
	const game = storedJson(KEYS.game);
	return game && typeof game.room === 'string' && typeof game.role === 'string' ? game : null;
}

const $ = (id) => document.getElementById(id);
const el = {
	app: $('app'),
	bar: document.querySelector('.bar'),
	players: document.querySelector('.players'),
	controls: document.querySelector('.controls'),
	stage: $('stage'),
	boardView: $('board-view'),
	board: $('board'),
	zoom: $('zoom'),
	veil: $('veil'),
	veilText: $('veil-text'),
	toast: $('toast'),
	status: $('status'),
	note: $('note'),
	main: $('main'),
	mainText: $('main-text'),
	cancel: $('cancel'),
	name: $('name'),
	lang: $('lang'),
	mute: $('mute'),
	theme: $('theme'),
	confirmTaps: $('confirm-taps'),
	me: $('me'),
	opponent: $('opponent'),
	rule: $('rule'),
	modes: $('modes'),
	modeButtons: [...document.querySelectorAll('#mode [data-mode]')],
	levelGroup: $('level'),
	levelButtons: [], // made from LEVELS at the start
	levelNote: $('level-note'),
	tools: $('tools'),
	icon: document.querySelector('link[rel="icon"]'),
	announce: $('announce'),
	undo: $('undo'),
	undoText: document.querySelector('#undo span'),
	redo: $('redo'),
	prompt: $('prompt'),
	promptText: $('prompt-text'),
	accept: $('accept'),
	decline: $('decline'),
	pool: $('pool'),
	poolSize: $('pool-size'),
	poolRule: $('pool-rule'),
	poolTc: $('pool-tc'),
	rematch: $('rematch'),
	draw: $('draw'),
	resign: $('resign'),
	resignText: $('resign-text'),
	emotes: $('emotes'),
	emoteMute: $('emote-mute'),
	emoteButtons: [],
	banner: $('banner'),
	spectators: $('spectators'),
	moves: $('moves'),
	moveList: $('move-list'),
	numbers: $('numbers'),
	replayBar: $('replay-bar'),
	stepButtons: [...document.querySelectorAll('#replay-bar [data-step]')],
	share: $('share'),
	shareLink: $('share-link'),
	copyLink: $('copy-link'),
	replay: $('replay'),
	leaveView: $('leave-view'),
	lobby: $('lobby'),
	lobbyWaiting: $('lobby-waiting'),
	lobbyRooms: $('lobby-rooms'),
	friend: $('friend'),
	invite: $('invite'),
	inviteLink: $('invite-link'),
	inviteCopy: $('invite-copy'),
	inviteQr: $('invite-qr'),
	inviteListed: $('invite-listed'),
	nameField: document.querySelector('.name-field'),
	hint: document.querySelector('.hint'),
};

// The emote bar's buttons, one per word of the table (emotes.js), before
// the switch that hides the opponent's.
for (const emote of EMOTES) {
	const button = document.createElement('button');
	button.type = 'button';
	button.className = 'emote';
	button.dataset.emote = emote;
	el.emotes.insertBefore(button, el.emoteMute);
	el.emoteButtons.push(button);
}

let lang = LANGUAGES.includes(stored('localStorage', KEYS.lang))
	? stored('localStorage', KEYS.lang)
	: pickLanguage(navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]);
// The mode, level and pool chosen last time, and the emote switch; the
// reducer ignores values it does not know.
let state = reduce(reduce(initialState(), {
	type: 'client/choose',
	mode: stored('localStorage', KEYS.mode),
	level: stored('localStorage', KEYS.level),
	size: stored('localStorage', KEYS.size),
	rule: stored('localStorage', KEYS.rule),
	tc: stored('localStorage', KEYS.tc),
}).state, { type: 'client/mute-emotes', muted: stored('localStorage', KEYS.emotesMuted) === '1' }).state;
let hover = null; // the intersection under the mouse, or null
let cursor = null; // the keyboard cursor, or null until an arrow key
let keyboardMode = false; // the cursor, not the mouse, drives the preview
let retryTimer = null;
let watchRetryTimer = null; // the spectator's socket's next try
let toastTimer = null;
let liveTimer = null; // redraws what counts down (see renderLive)
let myClockMs = null; // this player's running clock at the last redraw, for the ticks
let screen = 'play'; // play | watch | replay: what the board shows
let watch = null; // watch.js: the game watched, while screen is watch
let replay = null; // replay.js: the game replayed, or {id, loading} / {id, missing}
let numbersShown = stored('localStorage', KEYS.numbers) === '1';
let lobbyTimer = null; // asks for the lobby's lists again while the start screen shows
let lobbyLists = { pools: null, rooms: null }; // the server's last answers
let spectatorsTold = null; // the last spectators message of the player's room, {room, count}
let copiedLink = ''; // the invite link just copied, while its button says so
let copiedTimer = null;

const sound = createSound({ muted: stored('localStorage', KEYS.muted) === '1' });
const renderer = createBoardRenderer(el.board);
const connection = new Connection({
	url: () => {
		const invite = inviteQueryOf(state);
		return socketUrl(location, browserUid(), cleanName(el.name.value), {
			mode: invite ? 'online' : state.mode,
			level: state.level,
			pool: (invite || chosenMode(state).pools) ? state.pool : null,
			invite,
		});
	},
	onMessage: (message) => {
		// How many watch is the page's to show, not the game's: kept
		// with the room it was told in (view.js spectatorsOf).
		if (message.type === 'spectators' && Number.isInteger(message.count))
			spectatorsTold = { room: state.room, count: message.count };
		dispatch(message);
	},
	onClose: ({ code, reason }) => dispatch({ type: 'client/closed', code, reason }),
});

/** The spectator's socket: it sends nothing but what the server needs (nothing, here). */
const watchConnection = new Connection({
	url: () => watchUrl(location, watch.room),
	onMessage: (message) => dispatchWatch(message),
	onClose: ({ code, reason }) => dispatchWatch({ type: 'client/closed', code, reason }),
});

/** Runs action through the watch's reducer, carries out its effects, redraws. */
function dispatchWatch(action) {
	if (!watch)
		return;
	const result = reduceWatch(watch, action, Date.now());
	watch = result.watch;
	for (const effect of result.effects)
		performWatch(effect);
	render();
}

function performWatch(effect) {
	switch (effect.kind) {
	case 'connect':
		clearTimeout(watchRetryTimer);
		watchConnection.open();
		break;
	case 'reconnect':
		clearTimeout(watchRetryTimer);
		watchRetryTimer = setTimeout(() => watchConnection.open(), effect.delay);
		break;
	case 'disconnect':
		clearTimeout(watchRetryTimer);
		watchConnection.close();
		break;
	case 'sound':
		sound.play(effect.name);
		break;
	case 'fetch-record':
		setTimeout(() => {
			fetchJson(`/api/games/${encodeURIComponent(effect.room)}`)
				.then((record) => dispatchWatch({ type: 'client/record', record }))
				.catch(() => {}); // the list shows the moves seen
		}, effect.delay);
		break;
	}
}

/** GET path's JSON; rejects on a network error or a status that is not 200. */
async function fetchJson(path) {
	const response = await fetch(path, { headers: { accept: 'application/json' } });
	if (!response.ok)
		throw new Error(`${path}: HTTP ${response.status}`);
	return response.json();
}

/**
 * Tells a screen reader text through the polite live region (the same
 * words twice in a row are said again).
 */
function announce(said) {
	el.announce.textContent = el.announce.textContent === said ? `${said}\u00a0` : said;
}

/** Runs action through the reducer, carries out its effects, redraws. */
function dispatch(action) {
	const before = state;
	const result = reduce(state, action, Date.now());
	state = result.state;
	// A stone tapped once waits only while it is still this player's move.
	if (tapped && (state.moves !== before.moves || !isMyTurn(state))) {
		tapped = null;
		el.board.dataset.tapped = '';
	}
	// Every new stone is said ("Black H8"); whose turn it is, the status.
	if (state.lastMove && state.lastMove !== before.lastMove && state.moves > before.moves && state.synced)
		announce(moveSaid(state.lastMove, state.size, lang));
	for (const effect of result.effects)
		perform(effect);
	keep();
	render();
}

let kept = { local: undefined, takenBack: undefined }; // what keep() last wrote
let saidNote = ''; // the key of the note last said (renderLive)

/**
 * Keeps for a reload what the server does not: the game on one screen,
 * and, against the computer, the moves taken back that can be redone
 * (with the game remembered by save-game).
 */
function keep() {
	const local = state.local ? JSON.stringify(localRecord(state.local)) : null;
	if (local !== kept.local) {
		store('localStorage', KEYS.local, local);
		kept.local = local;
	}
	if (state.kind !== 'ai' || state.phase !== 'playing' || !state.synced)
		return;
	const takenBack = JSON.stringify(state.takenBack);
	if (takenBack !== kept.takenBack) {
		store('localStorage', KEYS.game, JSON.stringify({ room: state.room, role: state.role, takenBack: state.takenBack }));
		kept.takenBack = takenBack;
	}
}

function perform(effect) {
	switch (effect.kind) {
	case 'connect':
		clearTimeout(retryTimer);
		connection.open();
		break;
	case 'disconnect':
		clearTimeout(retryTimer);
		connection.close();
		break;
	case 'reconnect':
		clearTimeout(retryTimer);
		retryTimer = setTimeout(() => connection.open(), effect.delay);
		break;
	case 'send':
		connection.send(effect.message);
		break;
	case 'save-game':
		store('localStorage', KEYS.game, JSON.stringify({ room: effect.room, role: effect.role }));
		kept.takenBack = undefined; // written again by keep() against the computer
		break;
	case 'forget-game':
		store('localStorage', KEYS.game, null);
		break;
	case 'clear-link':
		if (routeOf(location.hash)?.kind === 'invite')
			history.replaceState(null, '', location.pathname + location.search);
		break;
	case 'sound':
		sound.play(effect.name);
		// A phone buzzes once when the opponent has moved (sound on).
		if (effect.name === 'turn' && !sound.muted && navigator.vibrate)
			navigator.vibrate(60);
		break;
	case 'toast':
		showToast(toastTextOf(effect, lang), effect.code || effect.key);
		break;
	}
}

function showToast(message, code = '') {
	el.toast.textContent = message;
	el.toast.dataset.code = code;
	el.toast.classList.add('show');
	clearTimeout(toastTimer);
	toastTimer = setTimeout(() => el.toast.classList.remove('show'), TOAST_MS);
}

// ---- drawing ----

/**
 * The board of a game watched or replayed: {size, cells, lastMove, line,
 * moves (the number shown), history (the moves seen, in order), first
 * (the number of history's first)}.
 */
function viewerBoard() {
	if (screen === 'watch' && watch) {
		return {
			size: watch.size,
			cells: watch.cells,
			lastMove: watch.lastMove,
			line: watch.winner ? watch.winner.line : [],
			forbidden: watch.forbidden,
			moves: watch.moves,
			history: watch.history,
			first: Math.max(1, watch.moves - watch.history.length + 1),
		};
	}
	if (screen === 'replay' && replay && replay.moves) {
		const board = replayBoardOf(replay);
		return { size: replay.size, ...board, moves: replay.at, history: replay.moves.slice(0, replay.at), first: 1 };
	}
	const size = 15;
	return { size, cells: new Array(size * size).fill(''), lastMove: null, line: [], moves: 0, history: [], first: 1 };
}

/** The number of lines of the board shown. */
function shownSize() {
	if (screen === 'play')
		return state.size;
	if (screen === 'watch' && watch)
		return watch.size;
	if (screen === 'replay' && replay && replay.moves)
		return replay.size;
	return 15;
}

function drawBoard() {
	if (shownSize() !== laidSize)
		layoutBoard(); // the zoom depends on the number of lines
	if (screen !== 'play') {
		const board = viewerBoard();
		keepInView(board.lastMove, board.size);
		renderer.draw({
			size: board.size,
			cells: board.cells,
			lastMove: board.lastMove,
			line: board.line,
			forbidden: board.forbidden || [],
			preview: null,
			cursor: null,
			numbers: numbersShown ? stoneNumbersOf(board.history, board.first) : null,
		});
		return;
	}
	if (cursor && (cursor.x >= state.size || cursor.y >= state.size))
		cursor = null; // a smaller board than the last one
	const seen = movesSeenOf(state);
	const picture = boardPictureOf(state, {
		aim: keyboardMode ? cursor : tapped || hover,
		cursor: keyboardMode ? cursor : null,
	});
	keepInView(keyboardMode && cursor ? cursor : picture.lastMove, state.size);
	renderer.draw({
		...picture,
		numbers: numbersShown ? stoneNumbersOf(seen.moves, seen.first) : null,
	});
}

let laidSize = 0; // the number of lines layoutBoard() last fitted
let zoomed = stored('localStorage', KEYS.zoom) === '1'; // the player's choice: zoom a dense board
let inView = null; // 'x,y' of the point the zoomed board was last scrolled to show

/**
 * Fits the board canvas to its stage: the largest square, HiDPI sharp.
 * In the stacked (phone) layout the board is as wide as the screen unless
 * that leaves the controls less than --controls-min, and sets the
 * stage's height (--board-side); the controls get the rest. A board
 * whose points would be too close is offered the zoom.
 */
function layoutBoard() {
	const style = getComputedStyle(el.app);
	let side;
	if (style.getPropertyValue('--layout').trim() !== 'wide') {
		const free = el.app.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) -
			el.bar.offsetHeight - el.players.offsetHeight - 3 * (parseFloat(style.rowGap) || 0) -
			(parseFloat(style.getPropertyValue('--controls-min')) || 0);
		side = fitBoardSide(el.stage.clientWidth, free);
		el.app.style.setProperty('--board-side', `${side}px`);
	} else {
		el.app.style.removeProperty('--board-side');
		side = fitBoardSide(el.stage.clientWidth, el.stage.clientHeight);
	}
	laidSize = shownSize();
	const factor = zoomFactor(side, laidSize);
	const zoom = zoomed && factor > 1 ? factor : 1;
	el.zoom.hidden = factor === 1;
	el.zoom.setAttribute('aria-pressed', String(zoom > 1));
	labelZoom();
	el.app.dataset.zoom = zoom > 1 ? 'on' : 'off';
	el.boardView.style.width = `${side}px`;
	el.boardView.style.height = `${side}px`;
	if (renderer.resize(Math.floor(side * zoom), window.devicePixelRatio || 1)) {
		inView = null;
		drawBoard();
	}
}

/**
 * On a zoomed board, scrolls the view to show point (the last move, or
 * the keyboard's cursor; the centre when null) once each time it changes,
 * so that the player sees each new move without looking for it.
 */
function keepInView(point, size) {
	if (el.app.dataset.zoom !== 'on')
		return;
	const centre = Math.floor((size - 1) / 2);
	const at = point || { x: centre, y: centre };
	const key = `${at.x},${at.y}`;
	if (key === inView)
		return;
	inView = key;
	const geometry = boardGeometry(el.board.clientWidth, size);
	const { px, py } = cellCenter(geometry, at.x, at.y);
	const view = el.boardView;
	const margin = 2 * geometry.step;
	view.scrollTo(scrollToShow(view.scrollLeft, view.clientWidth, geometry.side, px, margin),
		scrollToShow(view.scrollTop, view.clientHeight, geometry.side, py, margin));
}

/** Names the zoom button after what it does now, in the page's language. */
function labelZoom() {
	el.zoom.setAttribute('aria-label', text(lang, el.zoom.getAttribute('aria-pressed') === 'true' ? 'zoom.out' : 'zoom.in'));
	el.zoom.title = el.zoom.getAttribute('aria-label');
}

el.zoom.addEventListener('click', () => {
	zoomed = el.zoom.getAttribute('aria-pressed') !== 'true';
	store('localStorage', KEYS.zoom, zoomed ? '1' : '0');
	layoutBoard();
});

/** Redraws when the pixel ratio changes (zoom, another screen). */
function watchPixelRatio() {
	const query = window.matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
	query.addEventListener('change', () => {
		layoutBoard();
		watchPixelRatio();
	}, { once: true });
}

function applyLanguage() {
	document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
	renderTab();
	for (const node of document.querySelectorAll('[data-text]'))
		node.textContent = text(lang, node.dataset.text);
	el.lang.setAttribute('aria-label', text(lang, 'lang.toggle.label'));
	labelZoom();
	if (document.documentElement.dataset.theme)
		el.theme.setAttribute('aria-label', text(lang, document.documentElement.dataset.theme === 'light' ? 'theme.dark' : 'theme.light'));
	el.name.placeholder = text(lang, 'name.placeholder');
	$('mode').setAttribute('aria-label', text(lang, 'mode.label'));
	el.levelGroup.setAttribute('aria-label', text(lang, 'level.label'));
	el.pool.setAttribute('aria-label', text(lang, 'pool.label'));
	el.poolSize.setAttribute('aria-label', text(lang, 'pool.size.label'));
	el.poolRule.setAttribute('aria-label', text(lang, 'pool.rule.label'));
	el.poolTc.setAttribute('aria-label', text(lang, 'pool.tc.label'));
	el.emotes.setAttribute('aria-label', text(lang, 'emote.label'));
	for (const button of el.emoteButtons) {
		button.textContent = text(lang, `emote.${button.dataset.emote}`);
		button.title = text(lang, `bubble.${button.dataset.emote}`);
	}
}

/** Fills select with the choices ({value, label}) and selects chosen; rebuilt only when they change. */
function fillSelect(select, choices, chosen) {
	const wanted = choices.map(({ value, label }) => `${value}\t${label}`).join('\n');
	if (select.dataset.choices !== wanted) {
		select.replaceChildren(...choices.map(({ value, label }) => new Option(label, value)));
		select.dataset.choices = wanted;
	}
	select.value = chosen;
}

function renderPool() {
	const choices = poolChoicesOf(state, lang);
	fillSelect(el.poolSize, choices.sizes, choices.chosen.size);
	fillSelect(el.poolRule, choices.rules, choices.chosen.rule);
	fillSelect(el.poolTc, choices.tcs, choices.chosen.tc);
}

/** Puts a text key and its parameters (statusOf, noteOf) in the page's language. */
function say(entry) {
	return entry ? text(lang, entry.key, entry.params) : '';
}

/** One player's card from playersOf: name, colour, clock, bubble. */
function renderPlayer(node, player) {
	const nameNode = node.querySelector('.name');
	nameNode.textContent = player.name;
	nameNode.title = player.name; // the name may be cut short on a phone
	node.querySelector('.role').textContent = player.roleText;
	node.querySelector('.stone').dataset.role = player.role;
	for (const flag of ['turn', 'searching', 'left', 'away', 'ai'])
		node.dataset[flag] = String(player[flag]);
	node.dataset.timed = String(player.clock !== '');
	node.dataset.emote = player.emote;
	const clock = node.querySelector('.clock');
	clock.hidden = player.clock === '';
	clock.textContent = player.clock;
	for (const flag of ['low', 'running', 'flag'])
		clock.dataset[flag] = String(player[flag]);
	const bubble = node.querySelector('.bubble');
	bubble.hidden = player.bubble === '';
	bubble.textContent = player.bubble;
}

function renderPlayers(now = Date.now()) {
	const players = playersOf(state, lang, cleanName(el.name.value), now);
	renderPlayer(el.me, players.me);
	renderPlayer(el.opponent, players.opponent);
}

/** The emote bar at now: there or not, working or pausing, the switch. */
function renderEmotes(now) {
	const emotes = emotesOf(state, now);
	el.emotes.hidden = emotes.hidden;
	for (const button of el.emoteButtons)
		button.disabled = emotes.disabled;
	el.emoteMute.setAttribute('aria-pressed', String(emotes.muted));
	el.emoteMute.setAttribute('aria-label', text(lang, emotes.muted ? 'emote.unmute' : 'emote.mute'));
	el.emoteMute.title = el.emoteMute.getAttribute('aria-label');
}

/**
 * True while something on the page counts down at now: a clock runs, a
 * first-move deadline or the opponent's grace is shown, the next
 * reconnect is awaited, a bubble shows, the emote bar pauses.
 */
function counting(now) {
	const clocks = clocksOf(state, now);
	const bubbles = state.bubbles;
	return Boolean(clocks && (clocks.front.running || clocks.back.running)) ||
		(state.abortAt !== null && state.phase === 'playing') ||
		state.awayUntil !== null ||
		undoWaitOf(state, now) > 0 ||
		(state.link === 'retrying' && state.retryAt !== null) ||
		[bubbles.me, bubbles.opponent].some((bubble) => bubble && now - bubble.at < BUBBLE_MS) ||
		now < emoteReadyAt(state.emoteAt);
}

/**
 * Redraws what counts down (the cards with their clocks and bubbles, the
 * note, the emote bar), ticks in this player's last seconds, and keeps
 * its timer going while anything counts.
 */
function renderLive() {
	const now = Date.now();
	if (screen !== 'play') {
		renderViewerLive(now);
		keepCounting(screen === 'watch' && Boolean(watch) && watchCounting(watch, now));
		return;
	}
	renderPlayers(now);
	const note = noteOf(state, now);
	el.note.textContent = say(note);
	// A new kind of note (an offer, its answer, a countdown begun) is said
	// once; its seconds ticking are not.
	if (note && note.key !== saidNote && note.key !== 'note.moves')
		announce(say(note));
	saidNote = note ? note.key : '';
	renderEmotes(now);
	renderUndoWait(now);

	const clocks = state.role ? clocksOf(state, now) : null;
	const mine = clocks && clocks[state.role];
	if (mine && mine.running) {
		if (myClockMs !== null && tickDue(myClockMs, mine.ms))
			sound.play('tick');
		myClockMs = mine.ms;
	} else {
		myClockMs = null;
	}

	keepCounting(counting(now));
}

/**
 * Undo after the opponent declined a takeback: disabled, with the seconds
 * until it may ask again (the server would refuse it sooner).
 */
function renderUndoWait(now) {
	const seconds = undoWaitOf(state, now);
	el.undo.dataset.wait = String(seconds);
	el.undoText.textContent = seconds ? text(lang, 'button.undo.wait', { seconds }) : text(lang, 'button.undo');
	if (seconds)
		el.undo.disabled = true;
	else
		el.undo.disabled = controlsOf(state).undo.disabled;
}

/** The tab's title and icon (tabOf): "Your turn" while in the background. */
function renderTab() {
	const tab = tabOf(screen === 'play' ? state : initialState(), lang, document.hidden);
	document.title = tab.title;
	if (el.icon.getAttribute('href') !== tab.icon)
		el.icon.setAttribute('href', tab.icon);
}

/** Keeps renderLive's timer going while busy (something counts down), else stops it. */
function keepCounting(busy) {
	if (busy && !liveTimer)
		liveTimer = setInterval(renderLive, LIVE_MS);
	else if (!busy && liveTimer) {
		clearInterval(liveTimer);
		liveTimer = null;
	}
}

/** The controls from controlsOf, and the mode and level chosen. */
function renderControls() {
	const controls = controlsOf(state);
	el.main.hidden = false;
	el.nameField.hidden = false;
	el.hint.hidden = false;
	el.mainText.textContent = text(lang, controls.main.key);
	el.main.disabled = controls.main.disabled;
	el.friend.hidden = controls.friend.hidden;
	el.cancel.hidden = controls.cancel.hidden;
	el.cancel.textContent = text(lang, controls.cancel.key);
	el.name.disabled = controls.nameLocked;

	el.modes.hidden = controls.modes.hidden;
	for (const button of el.modeButtons)
		button.setAttribute('aria-pressed', String(button.dataset.mode === state.mode));
	el.levelGroup.hidden = controls.levels.hidden;
	for (const button of el.levelButtons)
		button.setAttribute('aria-pressed', String(button.dataset.level === state.level));
	el.levelNote.hidden = controls.levels.hidden;
	el.levelNote.textContent = text(lang, `level.note.${state.level}`);

	el.pool.hidden = controls.pool.hidden;
	el.poolSize.hidden = controls.pool.sizeHidden;
	el.poolTc.hidden = controls.pool.tcHidden;
	renderPool();
	el.rematch.hidden = controls.rematch.hidden;
	el.rematch.disabled = controls.rematch.disabled;
	el.rematch.textContent = text(lang, controls.rematch.key);

	el.tools.hidden = controls.tools.hidden;
	el.undo.hidden = controls.undo.hidden;
	el.redo.hidden = controls.redo.hidden;
	el.undo.disabled = controls.undo.disabled;
	el.redo.disabled = controls.redo.disabled;
	el.draw.hidden = controls.draw.hidden;
	el.draw.disabled = controls.draw.disabled;
	el.resign.hidden = controls.resign.hidden;
	el.resign.disabled = controls.resign.disabled;
	el.resign.dataset.action = controls.resign.action;
	el.resignText.textContent = text(lang, controls.resign.key);

	el.prompt.hidden = controls.prompt.hidden;
	el.prompt.dataset.prompt = controls.prompt.hidden ? '' : controls.prompt.key;
	el.promptText.textContent = text(lang, controls.prompt.key);
	el.accept.textContent = text(lang, controls.prompt.accept);
	el.decline.textContent = text(lang, controls.prompt.decline);
	el.accept.disabled = controls.prompt.disabled;
	el.decline.disabled = controls.prompt.disabled;

	el.veil.hidden = !controls.veil;
	el.veilText.textContent = controls.veil ? el.status.textContent : '';
}

/**
 * The move list of moves (in order, numbered from first) on a board of
 * size, current (a move number) marked; rebuilt only when it changes.
 */
function renderMoveList(moves, first, size, current) {
	const items = moveListOf(moves, size, first);
	const key = `${size}|${current}|${items.map((item) => `${item.number}${item.role}${item.label}`).join(' ')}`;
	if (el.moveList.dataset.key === key)
		return;
	el.moveList.dataset.key = key;
	el.moveList.replaceChildren(...items.map((item) => {
		const node = document.createElement('li');
		node.dataset.role = item.role;
		node.dataset.number = String(item.number);
		node.textContent = `${item.number}. ${item.label}`;
		if (item.number === current)
			node.setAttribute('aria-current', 'step');
		return node;
	}));
	const shown = el.moveList.querySelector('[aria-current]') || el.moveList.lastElementChild;
	if (shown && !el.moves.hidden) {
		// Within the list only: the page itself never scrolls.
		el.moveList.scrollLeft = shown.offsetLeft - el.moveList.offsetLeft - el.moveList.clientWidth / 2;
		el.moveList.scrollTop = shown.offsetTop - el.moveList.offsetTop - el.moveList.clientHeight / 2;
	}
}

/** The numbers switch and the move list: hidden when shown is false. */
function renderMoves(shown, moves, first, size, current) {
	el.moves.hidden = !shown;
	el.numbers.setAttribute('aria-pressed', String(numbersShown));
	el.numbers.setAttribute('aria-label', text(lang, 'moves.numbers'));
	el.numbers.title = text(lang, 'moves.numbers');
	el.moveList.setAttribute('aria-label', text(lang, 'moves.label'));
	if (shown)
		renderMoveList(moves, first, size, current);
}

/** The start screen's lobby: the pools where players wait, the live games with Watch. */
function renderLobby() {
	const shown = screen === 'play' && state.phase === 'idle' && !state.invite;
	el.lobby.hidden = !shown;
	if (shown && !lobbyTimer) {
		refreshLobby();
		lobbyTimer = setInterval(refreshLobby, LOBBY_REFRESH_MS);
	} else if (!shown && lobbyTimer) {
		clearInterval(lobbyTimer);
		lobbyTimer = null;
	}
	if (!shown)
		return;
	const waiting = waitingRowsOf(lobbyLists.pools, lang);
	const rooms = roomRowsOf(lobbyLists.rooms, lang);
	const key = JSON.stringify([lang, waiting, rooms, lobbyLists.rooms !== null]);
	if (el.lobby.dataset.key === key)
		return;
	el.lobby.dataset.key = key;
	el.lobby.dataset.rooms = String(rooms.length);
	const line = (className, content) => {
		const node = document.createElement('li');
		node.className = className;
		node.textContent = content;
		return node;
	};
	el.lobbyWaiting.replaceChildren(...(waiting.length
		? waiting.map((row) => line('lobby-pool', row.text))
		: [line('lobby-empty', text(lang, 'lobby.nobody'))]));
	el.lobbyRooms.replaceChildren(...(rooms.length ? rooms.map((row) => {
		const node = document.createElement('li');
		node.className = 'lobby-room';
		node.dataset.room = row.id;
		const about = document.createElement('span');
		about.className = 'lobby-about';
		const players = document.createElement('span');
		players.className = 'lobby-players';
		players.textContent = row.players;
		const info = document.createElement('span');
		info.className = 'lobby-info';
		info.textContent = row.text;
		about.append(players, info);
		const button = document.createElement('button');
		button.type = 'button';
		button.className = 'watch-button';
		button.dataset.room = row.id;
		button.textContent = text(lang, 'button.watch');
		node.append(about, button);
		return node;
	}) : [line('lobby-empty', lobbyLists.rooms === null ? '' : text(lang, 'lobby.empty'))]));
}

/**
 * The host's invite panel over the board: the link, its Copy button (which
 * says Copied a moment after a copy), its QR code (drawn again only when
 * the link changes) and the listing choice.
 */
function renderInvite() {
	const panel = invitePanelOf(state);
	el.invite.hidden = panel.hidden;
	if (panel.hidden)
		return;
	const link = panel.code ? inviteLink(location.origin, panel.code) : '';
	el.inviteLink.value = link;
	el.inviteLink.placeholder = text(lang, 'invite.link.making');
	el.inviteLink.setAttribute('aria-label', text(lang, 'invite.link.label'));
	el.inviteCopy.disabled = !link;
	el.inviteCopy.textContent = text(lang, link && copiedLink === link ? 'button.copied' : 'button.copy');
	el.inviteListed.checked = panel.listed;
	el.inviteQr.setAttribute('aria-label', text(lang, 'invite.qr.label'));
	if (el.inviteQr.dataset.link !== link) {
		el.inviteQr.dataset.link = link;
		const context = el.inviteQr.getContext('2d');
		if (link) {
			const matrix = qrMatrix(link);
			el.inviteQr.width = el.inviteQr.height = qrSide(matrix, QR_SCALE);
			drawQr(context, matrix, QR_SCALE);
		} else {
			context.clearRect(0, 0, el.inviteQr.width, el.inviteQr.height);
		}
	}
}

/** Asks the server for the lobby's lists again, and shows them. */
async function refreshLobby() {
	const [pools, rooms] = await Promise.all([
		fetchJson('/api/pools').catch(() => null),
		fetchJson(`/api/rooms?limit=${LOBBY_ROOMS}`).catch(() => null),
	]);
	lobbyLists = { pools, rooms };
	if (lobbyTimer)
		renderLobby();
}

/** What counts down in a game watched (the cards' clocks and bubbles, the note); a replay's cards. */
function renderViewerLive(now) {
	let cards;
	if (screen === 'watch' && watch) {
		cards = seatCardsOf({
			seats: watch.players,
			toMove: watchLive(watch) ? watch.toMove : '',
			clocks: watchClocksOf(watch, now),
			bubbles: { front: watchBubbleOf(watch, 'front', now), back: watchBubbleOf(watch, 'back', now) },
			away: { front: watch.away.front !== null, back: watch.away.back !== null },
		}, lang);
		el.note.textContent = say(watchNoteOf(watch, now));
	} else {
		const loaded = replay && replay.moves;
		cards = seatCardsOf({ seats: loaded ? replay.players : { front: {}, back: {} } }, lang);
		el.note.textContent = loaded ? say(replayNoteOf(replay)) : '';
	}
	renderPlayer(el.me, cards.me);
	renderPlayer(el.opponent, cards.opponent);
}

/** The page of a game watched or replayed: no control of the player's own game. */
function renderViewer() {
	const loaded = screen === 'replay' && replay && replay.moves;
	Object.assign(el.app.dataset, pageDataOf(state), {
		lang,
		muted: String(sound.muted),
		screen,
		watch: screen === 'watch' && watch ? watch.phase : '',
		replayAt: loaded ? String(replay.at) : '',
		spectators: '',
	});
	let status;
	if (screen === 'watch')
		status = watch ? watchStatusOf(watch) : null;
	else if (loaded)
		status = replayStatusOf(replay);
	else
		status = { key: replay && replay.missing ? 'replay.missing' : 'replay.loading' };
	el.status.textContent = say(status);
	el.banner.hidden = false;
	el.banner.textContent = text(lang, screen === 'watch' ? 'banner.watch' : 'banner.replay');
	el.rule.textContent = '';
	const rule = screen === 'watch' && watch ? watch.rule : loaded ? replay.rule : '';
	if (rule && (screen !== 'watch' || watch.phase === 'watching' || watch.phase === 'over'))
		el.rule.textContent = text(lang, `rule.${rule}`);
	el.mute.setAttribute('aria-pressed', String(sound.muted));
	el.mute.setAttribute('aria-label', text(lang, sound.muted ? 'mute.off' : 'mute.on'));
	el.mute.title = el.mute.getAttribute('aria-label');
	el.spectators.hidden = true;

	for (const node of [el.main, el.friend, el.cancel, el.rematch, el.modes, el.tools, el.emotes, el.prompt, el.veil,
		el.nameField, el.hint, el.invite])
		node.hidden = true;
	el.leaveView.hidden = false;
	el.replay.hidden = !(screen === 'watch' && watch && watch.phase === 'over' && watch.moves > 0);
	el.replayBar.hidden = !loaded;
	el.replayBar.setAttribute('aria-label', text(lang, 'replay.label'));
	el.share.hidden = !loaded;
	if (loaded) {
		const steps = replayStepsOf(replay);
		for (const button of el.stepButtons) {
			button.disabled = !steps[button.dataset.step];
			button.setAttribute('aria-label', text(lang, `replay.${button.dataset.step}`));
			button.title = button.getAttribute('aria-label');
		}
		el.shareLink.value = gameLink(location.origin, replay.id);
	}
	const board = viewerBoard();
	const live = screen === 'watch' && watch && ['watching', 'over'].includes(watch.phase);
	renderMoves(Boolean(loaded || live), loaded ? replay.moves : board.history, board.first, board.size,
		loaded ? replay.at : 0);
	renderLive();

	Object.assign(el.board.dataset, {
		size: String(board.size),
		moves: String(board.moves),
		stones: String(board.cells.filter((cell) => cell !== '').length),
		board: boardText(board.cells),
		last: board.lastMove ? `${board.lastMove.x},${board.lastMove.y}` : '',
		line: board.line.map(({ x, y }) => `${x},${y}`).join(' '),
	});
	el.board.setAttribute('aria-label', text(lang, 'board.label', { size: board.size }));
	drawBoard();
}

function render() {
	renderScreen();
	markMore();
}

/** Fades the controls' last line when they hold more than is shown (they scroll). */
function markMore() {
	const box = el.controls;
	el.controls.dataset.more = String(box.scrollTop + box.clientHeight < box.scrollHeight - 1);
}

function renderScreen() {
	renderLobby();
	if (screen !== 'play') {
		renderViewer();
		return;
	}
	const spectators = spectatorsOf(state, spectatorsTold);
	Object.assign(el.app.dataset, pageDataOf(state), {
		lang,
		muted: String(sound.muted),
		screen,
		watch: '',
		replayAt: '',
		spectators: String(spectators.count),
	});
	el.banner.hidden = true;
	el.banner.textContent = '';
	el.spectators.hidden = spectators.hidden;
	el.spectators.textContent = spectators.hidden ? '' : text(lang, 'spectators.count', { count: spectators.count });
	el.leaveView.hidden = true;
	el.replayBar.hidden = true;
	el.share.hidden = true;
	el.replay.hidden = !(state.phase === 'over' && gameMode(state).server && Boolean(state.room) && state.moves > 0 &&
		state.outcome !== 'lost');
	const seen = movesSeenOf(state);
	renderMoves(['playing', 'over'].includes(state.phase), seen.moves, seen.first, state.size, 0);
	el.status.textContent = say(statusOf(state));
	renderTab();
	el.rule.textContent = ruleTextOf(state, lang);
	el.mute.setAttribute('aria-pressed', String(sound.muted));
	el.mute.setAttribute('aria-label', text(lang, sound.muted ? 'mute.off' : 'mute.on'));
	el.mute.title = el.mute.getAttribute('aria-label');
	renderControls();
	el.confirmTaps.hidden = !coarse.matches;
	el.confirmTaps.setAttribute('aria-pressed', String(confirmingTaps()));
	el.confirmTaps.setAttribute('aria-label', text(lang, 'confirm.taps'));
	el.confirmTaps.title = el.confirmTaps.getAttribute('aria-label');
	renderInvite();
	renderLive();

	Object.assign(el.board.dataset, boardDataOf(state));
	el.board.setAttribute('aria-label', positionSaid(state, lang));
	drawBoard();
}

// ---- input ----

/** The intersection under a pointer event, or null off the board. */
function cellAt(event) {
	const rect = el.board.getBoundingClientRect();
	return pointToCell(boardGeometry(rect.width, state.size),
		event.clientX - rect.left, event.clientY - rect.top);
}

/**
 * A click on (x, y) on the player's turn goes to the reducer (never on a
 * game watched or replayed), which plays it or says why not.
 */
function place(x, y) {
	if (screen === 'play' && isMyTurn(state))
		dispatch({ type: 'client/move', x, y });
}

el.board.addEventListener('pointermove', (event) => {
	if (event.pointerType === 'touch' || screen !== 'play')
		return;
	hover = cellAt(event);
	keyboardMode = false;
	drawBoard();
});

el.board.addEventListener('pointerleave', () => {
	hover = null;
	drawBoard();
});

// Tap to confirm: on a touch screen the first tap shows the stone (tapped),
// a second on the same point places it, one elsewhere moves it.
let lastPointer = 'mouse'; // the kind of the last pointer pressed on the board
let tapped = null; // the point tapped once, {x, y}, or null
const coarse = window.matchMedia('(pointer: coarse)');

/** Whether taps are confirmed: as switched (remembered), else on a touch screen under 400 px. */
function confirmingTaps() {
	const chosen = stored('localStorage', KEYS.confirmTaps);
	if (chosen === '1' || chosen === '0')
		return chosen === '1';
	return coarse.matches && window.innerWidth < 400;
}

el.board.addEventListener('pointerdown', (event) => {
	lastPointer = event.pointerType;
});

el.board.addEventListener('click', (event) => {
	const cell = cellAt(event);
	if (!cell)
		return;
	if (lastPointer === 'touch' && confirmingTaps() && screen === 'play' && isMyTurn(state) &&
	    !(tapped && tapped.x === cell.x && tapped.y === cell.y)) {
		tapped = cell;
		el.board.dataset.tapped = `${cell.x},${cell.y}`;
		drawBoard();
		return;
	}
	tapped = null;
	el.board.dataset.tapped = '';
	place(cell.x, cell.y);
});

el.confirmTaps.addEventListener('click', () => {
	store('localStorage', KEYS.confirmTaps, confirmingTaps() ? '0' : '1');
	tapped = null;
	el.board.dataset.tapped = '';
	render();
});

document.addEventListener('keydown', (event) => {
	if ([el.name, el.shareLink, el.inviteLink].includes(event.target) || event.altKey || event.ctrlKey || event.metaKey)
		return;
	if (screen !== 'play') {
		// No cursor and no stone: the arrow keys step through a replay.
		const step = stepOfKey(event.key);
		if (screen === 'replay' && replay && replay.moves && step) {
			event.preventDefault();
			replay = stepReplay(replay, step);
			render();
		}
		return;
	}
	if (isCursorKey(event.key)) {
		event.preventDefault();
		cursor = moveCursor(cursor, event.key, state.size);
		keyboardMode = true;
		if (document.activeElement !== el.board)
			el.board.focus({ preventScroll: true });
		drawBoard();
		announce(pointSaid(state, cursor, lang));
		return;
	}
	if ((event.key === 'm' || event.key === 'M') && (event.target === el.board || event.target === document.body)) {
		event.preventDefault();
		announce(positionSaid(state, lang));
		return;
	}
	const onBoard = event.target === el.board || event.target === document.body;
	if ((event.key === 'Enter' || event.key === ' ') && onBoard && cursor) {
		event.preventDefault();
		keyboardMode = true;
		place(cursor.x, cursor.y);
	}
});

// Browsers let a page make sound only after a user gesture.
for (const type of ['pointerdown', 'keydown'])
	window.addEventListener(type, () => sound.unlock(), { capture: true });

el.main.addEventListener('click', () => dispatch({ type: 'client/find' }));
document.addEventListener('visibilitychange', renderTab);

// ---- the theme ----

const lightScheme = window.matchMedia('(prefers-color-scheme: light)');

/** The theme shown: the one switched to (remembered), else the system's. */
function themeOf() {
	const chosen = stored('localStorage', KEYS.theme);
	if (chosen === 'light' || chosen === 'dark')
		return chosen;
	return lightScheme.matches ? 'light' : 'dark';
}

function applyTheme() {
	const theme = themeOf();
	document.documentElement.dataset.theme = theme;
	el.theme.setAttribute('aria-pressed', String(theme === 'light'));
	el.theme.setAttribute('aria-label', text(lang, theme === 'light' ? 'theme.dark' : 'theme.light'));
	el.theme.title = el.theme.getAttribute('aria-label');
}

el.theme.addEventListener('click', () => {
	store('localStorage', KEYS.theme, themeOf() === 'light' ? 'dark' : 'light');
	applyTheme();
});
lightScheme.addEventListener('change', applyTheme);
applyTheme();
el.friend.addEventListener('click', () => dispatch({ type: 'client/invite' }));
el.inviteListed.addEventListener('change', () =>
	dispatch({ type: 'client/invite-listed', listed: el.inviteListed.checked }));
el.cancel.addEventListener('click', () => dispatch({ type: 'client/cancel' }));
el.undo.addEventListener('click', () => dispatch({ type: 'client/undo' }));
el.redo.addEventListener('click', () => dispatch({ type: 'client/redo' }));
el.accept.addEventListener('click', () => dispatch({ type: 'client/answer', accept: true }));
el.decline.addEventListener('click', () => dispatch({ type: 'client/answer', accept: false }));
el.rematch.addEventListener('click', () => dispatch({ type: 'client/rematch' }));
el.draw.addEventListener('click', () => dispatch({ type: 'client/draw' }));
// Abort in the opening, Resign (asked first) after it.
el.resign.addEventListener('click', () =>
	dispatch({ type: el.resign.dataset.action === 'abort' ? 'client/abort' : 'client/resign' }));

for (const button of el.emoteButtons)
	button.addEventListener('click', () => dispatch({ type: 'client/emote', emote: button.dataset.emote }));

el.emoteMute.addEventListener('click', () => {
	dispatch({ type: 'client/mute-emotes', muted: !state.emotesMuted });
	store('localStorage', KEYS.emotesMuted, state.emotesMuted ? '1' : null);
});

for (const [select, field] of [[el.poolSize, 'size'], [el.poolRule, 'rule'], [el.poolTc, 'tc']]) {
	select.addEventListener('change', () => {
		dispatch({ type: 'client/choose', [field]: select.value });
		store('localStorage', KEYS[field], String(state.pool[field]));
	});
}

for (const button of el.modeButtons) {
	button.addEventListener('click', () => {
		dispatch({ type: 'client/choose', mode: button.dataset.mode });
		store('localStorage', KEYS.mode, state.mode);
	});
}

for (const level of LEVELS) {
	const button = document.createElement('button');
	Object.assign(button, { type: 'button', className: 'segment' });
	Object.assign(button.dataset, { level, text: `level.${level}` });
	button.setAttribute('aria-pressed', 'false');
	button.addEventListener('click', () => {
		dispatch({ type: 'client/choose', level });
		store('localStorage', KEYS.level, state.level);
	});
	el.levelGroup.append(button);
	el.levelButtons.push(button);
}

el.lang.addEventListener('click', () => {
	lang = otherLanguage(lang);
	store('localStorage', KEYS.lang, lang);
	applyLanguage();
	render();
});

el.mute.addEventListener('click', () => {
	sound.setMuted(!sound.muted);
	store('localStorage', KEYS.muted, sound.muted ? '1' : '0');
	sound.play('turn');
	render();
});

el.name.addEventListener('input', () => {
	store('localStorage', KEYS.name, cleanName(el.name.value) || null);
	renderPlayers();
});

el.name.addEventListener('change', () => {
	el.name.value = cleanName(el.name.value);
});

el.numbers.addEventListener('click', () => {
	numbersShown = !numbersShown;
	store('localStorage', KEYS.numbers, numbersShown ? '1' : null);
	render();
});

el.moveList.addEventListener('click', (event) => {
	const item = event.target.closest('li[data-number]');
	if (item && screen === 'replay' && replay && replay.moves) {
		replay = seekReplay(replay, Number(item.dataset.number));
		render();
	}
});

for (const button of el.stepButtons) {
	button.addEventListener('click', () => {
		if (screen === 'replay' && replay && replay.moves && STEPS.includes(button.dataset.step)) {
			replay = stepReplay(replay, button.dataset.step);
			render();
		}
	});
}

el.copyLink.addEventListener('click', async () => {
	el.shareLink.select();
	try {
		await navigator.clipboard.writeText(el.shareLink.value);
		showToast(text(lang, 'toast.copied'), 'copied');
	} catch {
		// No clipboard on a plain-http page: the link is selected to copy by hand.
		showToast(text(lang, 'toast.copy_failed'), 'copy_failed');
	}
});

el.inviteCopy.addEventListener('click', async () => {
	const link = el.inviteLink.value;
	if (!link)
		return;
	try {
		await navigator.clipboard.writeText(link);
		copiedLink = link;
		clearTimeout(copiedTimer);
		copiedTimer = setTimeout(() => {
			copiedLink = '';
			render();
		}, COPIED_MS);
		render();
	} catch {
		// No clipboard (a plain-http page on a LAN address): selected to copy by hand.
		el.inviteLink.focus();
		el.inviteLink.select();
		showToast(text(lang, 'toast.invite.copy_failed'), 'copy_failed');
	}
});

el.lobbyRooms.addEventListener('click', (event) => {
	const button = event.target.closest('button[data-room]');
	if (button)
		location.hash = `#watch/${button.dataset.room}`;
});

el.replay.addEventListener('click', () => {
	const room = screen === 'watch' && watch ? watch.room : state.room;
	if (room)
		location.hash = `#game/${room}`;
});

el.leaveView.addEventListener('click', () => leaveViewer());

// ---- watching and replaying ----

/** Stops showing a game watched or replayed (its socket closed); the player's own screen is back. */
function closeViewer() {
	if (screen === 'watch') {
		clearTimeout(watchRetryTimer);
		watchConnection.close();
	}
	watch = null;
	replay = null;
	screen = 'play';
}

/** Back to the player's own screen, with the link's hash gone. */
function leaveViewer() {
	closeViewer();
	if (location.hash)
		history.replaceState(null, '', location.pathname + location.search);
	render();
}

/** Watches room over a spectator's socket. */
function openWatch(room) {
	closeViewer();
	screen = 'watch';
	watch = newWatch(room);
	performWatch({ kind: 'connect' });
	render();
}

/** Replays game id, once /api/games/ID has answered. */
function openReplay(id) {
	closeViewer();
	screen = 'replay';
	replay = { id, loading: true, missing: false };
	render();
	fetchJson(`/api/games/${encodeURIComponent(id)}`)
		.then((record) => newReplay(record))
		.catch(() => null)
		.then((loaded) => {
			if (screen !== 'replay' || !replay || replay.id !== id)
				return; // another link since
			replay = loaded ? { ...loaded, id: loaded.id || id } : { id, loading: false, missing: true };
			render();
		});
}

/**
 * Shows what the hash asks for: a game's replay (#game/ID), a live game
 * watched (#watch/ROOM), a friend's invite (#invite/CODE: joined at once
 * when the page knows the player's name), or the player's own screen. A
 * link waits while the player's own game is being found or played.
 */
function followRoute() {
	const route = routeOf(location.hash);
	if (!route) {
		if (screen !== 'play') {
			closeViewer();
			render();
		} else if (state.phase === 'idle' && state.invite) {
			dispatch({ type: 'client/cancel' }); // the invite link left (Back): the start screen
		}
		return false;
	}
	if (!['idle', 'over'].includes(state.phase))
		return false;
	if (route.kind === 'invite') {
		closeViewer();
		dispatch({ type: 'client/invited', code: route.id, join: cleanName(el.name.value) !== '' });
	} else if (route.kind === 'watch') {
		openWatch(route.id);
	} else {
		openReplay(route.id);
	}
	return true;
}

window.addEventListener('hashchange', () => followRoute());

// ---- start ----

el.name.value = cleanName(stored('localStorage', KEYS.name));
applyLanguage();
el.controls.addEventListener('scroll', markMore, { passive: true });
const resized = new ResizeObserver(() => {
	layoutBoard();
	markMore();
});
for (const box of [el.app, el.stage, el.players])
	resized.observe(box);
layoutBoard();
watchPixelRatio();
const game = savedGame();
const localKept = storedJson(KEYS.local);
if (game)
	dispatch({ type: 'client/resume', room: game.room, role: game.role, takenBack: game.takenBack });
else if (!followRoute()) {
	if (localKept)
		dispatch({ type: 'client/restore-local', record: localKept });
	render();
}
