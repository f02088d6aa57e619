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
// protocol) and on the board canvas (size, moves, stones, board, last,
// line), on the player cards (turn, timed, low, flag, emote) and their
// clocks, plus the text of the status line, the toast and the cards.
//
// What counts down (the clocks, the first-move deadline, the opponent's
// reconnect grace, the bubbles, the emote bar's pause) is redrawn by a
// timer while anything does, without redrawing the board.

import { boardGeometry, pointToCell, fitBoardSide, isCursorKey, moveCursor } from './layout.js';
import { reduce } from './game.js';
import { initialState, canPlace } from './state.js';
import {
	statusOf, noteOf, controlsOf, playersOf, ruleTextOf, toastTextOf, boardPictureOf, pageDataOf, boardDataOf,
	poolChoicesOf, emotesOf, clocksOf,
} from './view.js';
import { Connection } from './connection.js';
import { UID_PATTERN, newUid, cleanName, socketUrl } from './protocol.js';
import { chosenMode } from './modes.js';
import { EMOTES, BUBBLE_MS, emoteReadyAt } from './emotes.js';
import { tickDue } from './clock.js';
import { createBoardRenderer } from './render.js';
import { createSound } from './sound.js';
import { LANGUAGES, text, pickLanguage, otherLanguage } from './text.js';

const KEYS = {
	uid: 'gomoku.uid', // sessionStorage: this tab's player
	game: 'gomoku.game', // sessionStorage: {room, role} of the game in progress
	name: 'gomoku.name', // localStorage: the display name
	muted: 'gomoku.muted', // localStorage: '1' when muted
	lang: 'gomoku.lang', // localStorage: 'en' or 'zh' once toggled
	mode: 'gomoku.mode', // localStorage: the last mode chosen (online, ai, local)
	level: 'gomoku.level', // localStorage: the last computer level chosen
	size: 'gomoku.size', // localStorage: the board size of the pool chosen
	rule: 'gomoku.rule', // localStorage: the rule of the pool chosen
	tc: 'gomoku.tc', // localStorage: the time control of the pool chosen (wire form)
	emotesMuted: 'gomoku.emotes-muted', // localStorage: '1' when the opponent's emotes are hidden
};
const LIVE_MS = 100; // how often what counts down is redrawn
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
let toastTimer = null;
let liveTimer = null; // redraws what counts down (see renderLive)
let myClockMs = null; // this player's running clock at the last redraw, for the ticks

const sound = createSound({ muted: stored('localStorage', KEYS.muted) === '1' });
const renderer = createBoardRenderer(el.board);
const connection = new Connection({
	url: () => socketUrl(location, tabUid(), cleanName(el.name.value), {
		mode: state.mode,
		level: state.level,
		pool: chosenMode(state).pools ? state.pool : null,
	}),
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

function drawBoard() {
	if (cursor && (cursor.x >= state.size || cursor.y >= state.size))
		cursor = null; // a smaller board than the last one
	renderer.draw(boardPictureOf(state, {
		aim: keyboardMode ? cursor : hover,
		cursor: keyboardMode ? cursor : null,
	}));
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
 * first-move deadline or the opponent's grace is shown, a bubble shows,
 * the emote bar pauses.
 */
function counting(now) {
	const clocks = clocksOf(state, now);
	const bubbles = state.bubbles;
	return Boolean(clocks && (clocks.front.running || clocks.back.running)) ||
		(state.abortAt !== null && state.phase === 'playing') ||
		state.awayUntil !== null ||
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
	renderPlayers(now);
	el.note.textContent = say(noteOf(state, now));
	renderEmotes(now);

	const clocks = state.role ? clocksOf(state, now) : null;
	const mine = clocks && clocks[state.role];
	if (mine && mine.running) {
		if (myClockMs !== null && tickDue(myClockMs, mine.ms))
			sound.play('tick');
		myClockMs = mine.ms;
	} else {
		myClockMs = null;
	}

	if (counting(now) && !liveTimer)
		liveTimer = setInterval(renderLive, LIVE_MS);
	else if (!counting(now) && liveTimer) {
		clearInterval(liveTimer);
		liveTimer = null;
	}
}

/** The controls from controlsOf, and the mode and level chosen. */
function renderControls() {
	const controls = controlsOf(state);
	el.mainText.textContent = text(lang, controls.main.key);
	el.main.disabled = controls.main.disabled;
	el.cancel.hidden = controls.cancel.hidden;
	el.cancel.textContent = text(lang, controls.cancel.key);
	el.name.disabled = controls.nameLocked;

	el.modes.hidden = controls.modes.hidden;
	for (const button of el.modeButtons)
		button.setAttribute('aria-pressed', String(button.dataset.mode === state.mode));
	el.levelGroup.hidden = controls.levels.hidden;
	for (const button of el.levelButtons)
		button.setAttribute('aria-pressed', String(button.dataset.level === state.level));

	el.pool.hidden = controls.pool.hidden;
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

function render() {
	Object.assign(el.app.dataset, pageDataOf(state), { lang, muted: String(sound.muted) });
	el.status.textContent = say(statusOf(state));
	el.rule.textContent = ruleTextOf(state, lang);
	el.mute.setAttribute('aria-pressed', String(sound.muted));
	el.mute.setAttribute('aria-label', text(lang, sound.muted ? 'mute.off' : 'mute.on'));
	el.mute.title = el.mute.getAttribute('aria-label');
	renderControls();
	renderLive();

	Object.assign(el.board.dataset, boardDataOf(state));
	el.board.setAttribute('aria-label', text(lang, 'board.label', { size: state.size }));
	drawBoard();
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
