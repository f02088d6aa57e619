// The page: wires the DOM (buttons, pointer, keys, storage) to the game
// state (game.js, state.js, view.js), the socket (connection.js,
// protocol.js), the board drawing (render.js), the sounds (sound.js) and
// the text (text.js). All decisions about the game are made in game.js
// and state.js; this module carries them out and shows the result.
//
// What the page exposes for tests, and for nothing else, is read-only:
// data-* attributes on #app (state, role, turn, result, link, live, lang,
// muted, mode, level, kind, offer) and on the board canvas (size, moves,
// stones, board, last, line), plus the text of the status line, the toast
// and the player cards.

import { boardGeometry, pointToCell, fitBoardSide, isCursorKey, moveCursor } from './layout.js';
import { reduce } from './game.js';
import { initialState, otherRole, canPlace, isLive, canUndo, canRedo, canAnswer } from './state.js';
import { turnOf, moverRole, toolsOf, boardText, statusOf, noteOf } from './view.js';
import { Connection } from './connection.js';
import { UID_PATTERN, newUid, cleanName, socketUrl } from './protocol.js';
import { createBoardRenderer } from './render.js';
import { createSound } from './sound.js';
import { LANGUAGES, text, hasText, pickLanguage, otherLanguage } from './text.js';

const KEYS = {
	uid: 'gomoku.uid', // sessionStorage: this tab's player
	game: 'gomoku.game', // sessionStorage: {room, role} of the game in progress
	name: 'gomoku.name', // localStorage: the display name
	muted: 'gomoku.muted', // localStorage: '1' when muted
	lang: 'gomoku.lang', // localStorage: 'en' or 'zh' once toggled
	mode: 'gomoku.mode', // localStorage: the last mode chosen (online, ai, local)
	level: 'gomoku.level', // localStorage: the last computer level chosen
};
const TOAST_MS = 2600;

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

/** This tab's uid, made on first use and kept for reloads. */
function tabUid() {
	let uid = stored('sessionStorage', KEYS.uid);
	if (!uid || !UID_PATTERN.test(uid)) {
		uid = newUid();
		store('sessionStorage', KEYS.uid, uid);
	}
	return uid;
}

/** The game in progress before a reload, or null. */
function savedGame() {
	try {
		const game = JSON.parse(stored('sessionStorage', KEYS.game) || 'null');
		return game && typeof game.room === 'string' && typeof game.role === 'string' ? game : null;
	} catch {
		return null;
	}
}

const $ = (id) => document.getElementById(id);
const el = {
	app: $('app'),
	stage: $('stage'),
	board: $('board'),
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
	me: $('me'),
	opponent: $('opponent'),
	rule: $('rule'),
	modes: $('modes'),
	modeButtons: [...document.querySelectorAll('#mode [data-mode]')],
	levelGroup: $('level'),
	levelButtons: [...document.querySelectorAll('#level [data-level]')],
	tools: $('tools'),
	undo: $('undo'),
	redo: $('redo'),
	prompt: $('prompt'),
	accept: $('accept'),
	decline: $('decline'),
};

let lang = LANGUAGES.includes(stored('localStorage', KEYS.lang))
	? stored('localStorage', KEYS.lang)
	: pickLanguage(navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]);
// The mode and level chosen last time; the reducer ignores values it
// does not know.
let state = reduce(initialState(), {
	type: 'client/choose',
	mode: stored('localStorage', KEYS.mode),
	level: stored('localStorage', KEYS.level),
}).state;
let hover = null; // the intersection under the mouse, or null
let cursor = null; // the keyboard cursor, or null until an arrow key
let keyboardMode = false; // the cursor, not the mouse, drives the preview
let retryTimer = null;
let toastTimer = null;
let awayTimer = null;

const sound = createSound({ muted: stored('localStorage', KEYS.muted) === '1' });
const renderer = createBoardRenderer(el.board);
const connection = new Connection({
	url: () => socketUrl(location, tabUid(), cleanName(el.name.value), { mode: state.mode, level: state.level }),
	onMessage: (message) => dispatch(message),
	onClose: ({ code, reason }) => dispatch({ type: 'client/closed', code, reason }),
});

/** Runs action through the reducer, carries out its effects, redraws. */
function dispatch(action) {
	const result = reduce(state, action, Date.now());
	state = result.state;
	for (const effect of result.effects)
		perform(effect);
	render();
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
		store('sessionStorage', KEYS.game, JSON.stringify({ room: effect.room, role: effect.role }));
		break;
	case 'forget-game':
		store('sessionStorage', KEYS.game, null);
		break;
	case 'new-uid':
		store('sessionStorage', KEYS.uid, newUid());
		break;
	case 'sound':
		sound.play(effect.name);
		break;
	case 'toast':
		showToast(effect.key ? text(lang, effect.key, effect.params) : errorText(effect),
			effect.code || effect.key);
		break;
	}
}

/** A refused request in the page's language (the server's text otherwise). */
function errorText({ code, message }) {
	const key = `error.${code}`;
	return hasText(lang, key) ? text(lang, key) : text(lang, 'error.other', { message });
}

function showToast(message, code = '') {
	el.toast.textContent = message;
	el.toast.dataset.code = code;
	el.toast.classList.add('show');
	clearTimeout(toastTimer);
	toastTimer = setTimeout(() => el.toast.classList.remove('show'), TOAST_MS);
}

// ---- drawing ----

/** The stone the pointer or cursor would place now, or null. */
function previewStone() {
	const at = keyboardMode ? cursor : hover;
	if (!at || !canPlace(state, at.x, at.y))
		return null;
	return { x: at.x, y: at.y, role: moverRole(state) };
}

function drawBoard() {
	if (cursor && (cursor.x >= state.size || cursor.y >= state.size))
		cursor = null; // a smaller board than the last one
	renderer.draw({
		size: state.size,
		cells: state.cells,
		lastMove: state.lastMove,
		line: state.winner ? state.winner.line : [],
		preview: previewStone(),
		cursor: keyboardMode && cursor && isLive(state) ? cursor : null,
	});
}

let slack = 0; // px of --slack now set (see style.css)

/**
 * Fits the board canvas to its stage: the largest square, HiDPI sharp.
 * In the stacked (phone) layout the height the square cannot use goes
 * above and below the whole column, which keeps board, players and
 * controls together.
 */
function layoutBoard() {
	const stacked = getComputedStyle(el.app).getPropertyValue('--layout').trim() !== 'wide';
	const height = el.stage.clientHeight + (stacked ? 2 * slack : 0);
	const side = fitBoardSide(el.stage.clientWidth, height);
	const nextSlack = stacked ? Math.floor((height - side) / 2) : 0;
	if (nextSlack !== slack) {
		slack = nextSlack;
		el.app.style.setProperty('--slack', `${slack}px`);
	}
	if (renderer.resize(side, window.devicePixelRatio || 1))
		drawBoard();
}

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
	document.title = text(lang, 'page.title');
	for (const node of document.querySelectorAll('[data-text]'))
		node.textContent = text(lang, node.dataset.text);
	el.lang.setAttribute('aria-label', text(lang, 'lang.toggle.label'));
	el.name.placeholder = text(lang, 'name.placeholder');
	$('mode').setAttribute('aria-label', text(lang, 'mode.label'));
	el.levelGroup.setAttribute('aria-label', text(lang, 'level.label'));
}

function mainButtonKey() {
	switch (state.phase) {
	case 'searching':
		return state.mode === 'ai' ? 'button.starting' : 'button.searching';
	case 'resuming':
		return 'button.resuming';
	case 'playing':
		return state.synced ? 'button.playing' : 'button.resuming';
	case 'over':
		return 'button.again';
	default:
		return { online: 'button.find', ai: 'button.ai', local: 'button.local' }[state.mode];
	}
}

/**
 * One player's card. level: the engine's level, shown after the colour
 * (the name, the server's, may be cut short on a phone).
 */
function renderPlayer(card, { name, role, turn, searching = false, left = false, away = false, ai = false, level = '' }) {
	const nameNode = card.querySelector('.name');
	nameNode.textContent = name;
	nameNode.title = name;
	let roleText = role ? text(lang, `role.${role}`) : '';
	if (roleText && level)
		roleText += ` · ${text(lang, `level.${level}`)}`;
	card.querySelector('.role').textContent = roleText;
	card.querySelector('.stone').dataset.role = role || '';
	card.dataset.turn = String(turn);
	card.dataset.searching = String(searching);
	card.dataset.left = String(left);
	card.dataset.away = String(away);
	card.dataset.ai = String(ai);
}

/** The cards of a local game: black's first, white's second. */
function renderLocalPlayers() {
	const turn = turnOf(state);
	renderPlayer(el.me, { name: text(lang, 'player.first'), role: 'front', turn: turn === 'me' });
	renderPlayer(el.opponent, { name: text(lang, 'player.second'), role: 'back', turn: turn === 'opponent' });
}

function renderPlayers() {
	if (state.kind === 'local') {
		renderLocalPlayers();
		return;
	}
	const turn = turnOf(state);
	const inRoom = Boolean(state.role) && ['playing', 'over'].includes(state.phase);
	renderPlayer(el.me, {
		name: cleanName(el.name.value) || text(lang, 'player.you'),
		role: inRoom ? state.role : null,
		turn: turn === 'me',
	});
	let opponentName = text(lang, 'player.opponent');
	if (state.phase === 'searching' || state.phase === 'resuming')
		opponentName = text(lang, 'player.waiting');
	else if (inRoom)
		opponentName = state.opponent || text(lang, state.kind === 'ai' ? 'player.computer' : 'player.opponent');
	renderPlayer(el.opponent, {
		name: opponentName,
		role: inRoom ? otherRole(state.role) : null,
		turn: turn === 'opponent',
		searching: state.phase === 'searching',
		left: inRoom && state.opponentLeft,
		away: state.phase === 'playing' && state.awayUntil !== null,
		ai: inRoom && state.kind === 'ai',
		level: inRoom && state.kind === 'ai' ? state.opponentLevel : '',
	});
}

/**
 * The start screen's choice (shown before a game and after one), the
 * Undo and Redo buttons (in games that have them) and the prompt that
 * answers the opponent's takeback offer.
 */
function renderChoices() {
	const choosing = ['idle', 'over'].includes(state.phase);
	el.modes.hidden = !choosing;
	for (const button of el.modeButtons)
		button.setAttribute('aria-pressed', String(button.dataset.mode === state.mode));
	el.levelGroup.hidden = state.mode !== 'ai';
	for (const button of el.levelButtons)
		button.setAttribute('aria-pressed', String(button.dataset.level === state.level));

	const tools = toolsOf(state);
	el.tools.hidden = !tools.undo && !tools.redo;
	el.undo.hidden = !tools.undo;
	el.redo.hidden = !tools.redo;
	el.undo.disabled = !canUndo(state);
	el.redo.disabled = !canRedo(state);

	el.prompt.hidden = state.offer !== 'received' || !isLive(state);
	el.accept.disabled = !canAnswer(state);
	el.decline.disabled = !canAnswer(state);
}

function render() {
	const now = Date.now();
	const app = el.app.dataset;
	app.state = state.phase;
	app.role = state.role && ['playing', 'over'].includes(state.phase) ? state.role : '';
	app.turn = turnOf(state);
	app.result = state.phase === 'over' ? state.outcome || '' : '';
	app.link = state.link;
	app.live = String(isLive(state));
	app.lang = lang;
	app.muted = String(sound.muted);
	app.mode = state.mode;
	app.level = state.level;
	app.kind = state.kind;
	app.offer = state.offer || '';

	const status = statusOf(state);
	el.status.textContent = text(lang, status.key, status.params);
	const note = noteOf(state, now);
	el.note.textContent = note ? text(lang, note.key, note.params) : '';

	// The rule is known once the server said it (welcome), or the local
	// game's own.
	const ruleKey = `rule.${state.rule}`;
	el.rule.textContent = ['playing', 'over'].includes(state.phase) && hasText(lang, ruleKey) ? text(lang, ruleKey) : '';

	el.mainText.textContent = text(lang, mainButtonKey());
	el.main.disabled = !['idle', 'over'].includes(state.phase);
	const leavesLocal = state.kind === 'local' && state.phase === 'playing';
	el.cancel.hidden = state.phase !== 'searching' && !leavesLocal;
	el.cancel.textContent = text(lang, leavesLocal ? 'button.leave' : 'button.cancel');
	el.name.disabled = !['idle', 'over'].includes(state.phase);
	el.mute.setAttribute('aria-pressed', String(sound.muted));
	el.mute.setAttribute('aria-label', text(lang, sound.muted ? 'mute.off' : 'mute.on'));
	el.mute.title = el.mute.getAttribute('aria-label');
	renderPlayers();
	renderChoices();

	const waitingForServer = state.phase === 'resuming' || (state.phase === 'playing' && !state.synced);
	el.veil.hidden = !waitingForServer;
	el.veilText.textContent = waitingForServer ? el.status.textContent : '';

	const board = el.board.dataset;
	board.size = String(state.size);
	board.moves = String(state.moves);
	board.stones = String(state.cells.filter((cell) => cell !== '').length);
	board.board = boardText(state.cells);
	board.last = state.lastMove ? `${state.lastMove.x},${state.lastMove.y}` : '';
	board.line = state.winner ? state.winner.line.map(({ x, y }) => `${x},${y}`).join(' ') : '';
	el.board.setAttribute('aria-label', text(lang, 'board.label', { size: state.size }));
	drawBoard();

	// The opponent's reconnect countdown ticks while it is shown.
	if (state.awayUntil !== null && !awayTimer)
		awayTimer = setInterval(render, 250);
	else if (state.awayUntil === null && awayTimer) {
		clearInterval(awayTimer);
		awayTimer = null;
	}
}

// ---- input ----

/** The intersection under a pointer event, or null off the board. */
function cellAt(event) {
	const rect = el.board.getBoundingClientRect();
	return pointToCell(boardGeometry(rect.width, state.size),
		event.clientX - rect.left, event.clientY - rect.top);
}

/** Asks the server for a stone at (x, y) when that is a legal click. */
function place(x, y) {
	if (canPlace(state, x, y))
		dispatch({ type: 'client/move', x, y });
}

el.board.addEventListener('pointermove', (event) => {
	if (event.pointerType === 'touch')
		return;
	hover = cellAt(event);
	keyboardMode = false;
	drawBoard();
});

el.board.addEventListener('pointerleave', () => {
	hover = null;
	drawBoard();
});

el.board.addEventListener('click', (event) => {
	const cell = cellAt(event);
	if (cell)
		place(cell.x, cell.y);
});

document.addEventListener('keydown', (event) => {
	if (event.target === el.name || event.altKey || event.ctrlKey || event.metaKey)
		return;
	if (isCursorKey(event.key)) {
		event.preventDefault();
		cursor = moveCursor(cursor, event.key, state.size);
		keyboardMode = true;
		if (document.activeElement !== el.board)
			el.board.focus({ preventScroll: true });
		drawBoard();
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
el.cancel.addEventListener('click', () => dispatch({ type: 'client/cancel' }));
el.undo.addEventListener('click', () => dispatch({ type: 'client/undo' }));
el.redo.addEventListener('click', () => dispatch({ type: 'client/redo' }));
el.accept.addEventListener('click', () => dispatch({ type: 'client/answer', accept: true }));
el.decline.addEventListener('click', () => dispatch({ type: 'client/answer', accept: false }));

for (const button of el.modeButtons) {
	button.addEventListener('click', () => {
		dispatch({ type: 'client/choose', mode: button.dataset.mode });
		store('localStorage', KEYS.mode, state.mode);
	});
}

for (const button of el.levelButtons) {
	button.addEventListener('click', () => {
		dispatch({ type: 'client/choose', level: button.dataset.level });
		store('localStorage', KEYS.level, state.level);
	});
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

// ---- start ----

el.name.value = cleanName(stored('localStorage', KEYS.name));
applyLanguage();
new ResizeObserver(layoutBoard).observe(el.stage);
layoutBoard();
watchPixelRatio();
const game = savedGame();
if (game)
	dispatch({ type: 'client/resume', room: game.room, role: game.role });
else
	render();
