// Real headless Chromium for the browser tests, driven by playwright-core.
//
// launchBrowser() starts Debian's /usr/bin/chromium (never a downloaded
// browser; GOMOKU_CHROMIUM names another binary). openPlayer() opens one
// browser context (its own storage, like a separate person) on the game's
// page, on a desktop (1280 × 800) or a phone (390 × 844, touch) viewport,
// and records everything that must not happen: console errors (a CSP
// violation is one), uncaught exceptions, failed requests and HTTP answers
// of 400 or more. It also records every WebSocket frame the page sends, so
// a test can tell that a click sent nothing. closePlayers() closes the
// contexts and fails when any of them recorded a problem. useBrowser() is
// the set-up of a suite: a server, the browser, and players closed and
// checked after each test.
//
// Clicks go to the real canvas, at the intersection's position computed
// with the page's own geometry module (web/js/layout.js) from the canvas's
// bounding box; a phone taps instead.

import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

import { boardGeometry, cellCenter } from '../../../web/js/layout.js';
import { useServer } from '../../integration/lib/server.mjs';
import { scaled } from '../../integration/lib/time.mjs';

export const CHROMIUM = process.env.GOMOKU_CHROMIUM || '/usr/bin/chromium';

// --disable-background-networking and friends: no connection but the
// test's own (this sandbox refuses everything else).
export const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

export const DEVICES = {
	desktop: {
		viewport: { width: 1280, height: 800 },
		deviceScaleFactor: 1,
	},
	phone: {
		viewport: { width: 390, height: 844 },
		deviceScaleFactor: 3,
		isMobile: true,
		hasTouch: true,
	},
	small: { // the smallest phones still sold
		viewport: { width: 320, height: 568 },
		deviceScaleFactor: 2,
		isMobile: true,
		hasTouch: true,
	},
	landscape: { // a phone on its side
		viewport: { width: 844, height: 390 },
		deviceScaleFactor: 3,
		isMobile: true,
		hasTouch: true,
	},
};

export const ARTIFACTS_DIR = fileURLToPath(new URL('../../artifacts/', import.meta.url));

/** How long a test waits for the page to reach a state. */
export const WAIT_MS = scaled(10_000);

/** Starts headless Chromium. */
export function launchBrowser() {
	return chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: CHROMIUM_ARGS,
	});
}

/** One person: a browser context with one page on the game. */
export class Player {
	constructor(context, page, { label, device, url }) {
		this.context = context;
		this.page = page;
		this.label = label;
		this.device = device;
		this.url = url; // where the page is loaded from
		this.problems = []; // what must not happen, as text
		this.sentFrames = []; // payloads of every WebSocket frame sent
		this.sockets = 0; // WebSockets the page opened
		this.closed = false;
		// A test that puts the server out of reach allows the browser's own
		// report of each failed WebSocket connection (allowSocketFailures()).
		this.socketFailuresAllowed = false;
		page.on('console', (message) => {
			if (message.type() !== 'error')
				return;
			if (this.socketFailuresAllowed && /^WebSocket connection to '.*' failed/.test(message.text()))
				return;
			this.problems.push(`console error: ${message.text()}`);
		});
		page.on('pageerror', (error) => this.problems.push(`uncaught exception: ${error.message}`));
		page.on('requestfailed', (request) => {
			// A page closed or reloaded by the test aborts what it still had
			// in flight: not a failure of the page.
			if (this.closed || request.failure()?.errorText === 'net::ERR_ABORTED')
				return;
			this.problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`);
		});
		page.on('response', (response) => {
			if (response.status() >= 400)
				this.problems.push(`HTTP ${response.status()} for ${response.url()}`);
		});
		page.on('websocket', (socket) => {
			this.sockets++;
			socket.on('framesent', ({ payload }) => this.sentFrames.push(String(payload)));
		});
	}

	/** From now on the browser's reports of failed WebSocket connections are no problem. */
	allowSocketFailures() {
		this.socketFailuresAllowed = true;
	}

	/** Loads the game's page and waits until its script has drawn it. */
	async load() {
		await this.page.goto(`${this.url}/`);
		await this.page.waitForSelector('#app[data-lang]', { timeout: WAIT_MS });
	}

	/** The value of data-name on #app. */
	app(name) {
		return this.page.getAttribute('#app', `data-${name}`);
	}

	/** The value of data-name on the board canvas. */
	boardData(name) {
		return this.page.getAttribute('#board', `data-${name}`);
	}

	/** The board as the page shows it ('.', 'x' black, 'o' white; row-major). */
	board() {
		return this.boardData('board');
	}

	/** The text of the element matching selector. */
	text(selector) {
		return this.page.textContent(selector);
	}

	/**
	 * Waits until #app has every data attribute of attrs with that value,
	 * e.g. {state: 'playing', turn: 'me'}.
	 */
	async waitFor(attrs, timeout = WAIT_MS) {
		const selector = '#app' + Object.entries(attrs).map(([name, value]) => `[data-${name}="${value}"]`).join('');
		try {
			await this.page.waitForSelector(selector, { timeout });
		} catch (err) {
			const now = await this.page.evaluate(() => ({ ...document.getElementById('app').dataset }))
				.catch(() => '(page gone)');
			throw new Error(`expected ${this.label} to reach ${selector} within ${timeout} ms; ` +
				`#app is ${JSON.stringify(now)}, status "${await this.text('#status').catch(() => '?')}"`,
			{ cause: err });
		}
	}

	/** Waits until the board shows moves moves. */
	async waitForMoves(moves, timeout = WAIT_MS) {
		await this.page.waitForSelector(`#board[data-moves="${moves}"]`, { timeout }).catch(async (err) => {
			throw new Error(`expected ${this.label}'s board to show ${moves} moves within ${timeout} ms, ` +
				`it shows ${await this.boardData('moves')}`, { cause: err });
		});
	}

	/** The page position (CSS pixels) of intersection (x, y) on the canvas. */
	async pointOf(x, y) {
		const box = await this.page.locator('#board').boundingBox();
		const size = Number(await this.boardData('size'));
		const { px, py } = cellCenter(boardGeometry(box.width, size), x, y);
		return { x: box.x + px, y: box.y + py };
	}

	/** Clicks (desktop) or taps (phone) the canvas at page position point. */
	async press(point) {
		if (this.device === 'phone')
			await this.page.touchscreen.tap(point.x, point.y);
		else
			await this.page.mouse.click(point.x, point.y);
	}

	/** Clicks (desktop) or taps (phone) the element matching selector. */
	async pressButton(selector) {
		if (this.device === 'phone')
			await this.page.tap(selector);
		else
			await this.page.click(selector);
	}

	/** Clicks or taps intersection (x, y) of the real canvas. */
	async clickCell(x, y) {
		await this.press(await this.pointOf(x, y));
	}

	/** The moves this page has sent so far, parsed. */
	sentMoves() {
		return this.sentFrames.map((text) => JSON.parse(text)).filter((message) => message.type === 'move');
	}

	/**
	 * Asserts that the page fits its viewport: no scrollbars, and the
	 * whole board canvas visible. when names the state, for the message.
	 */
	async assertFits(when) {
		const fit = await this.page.evaluate(() => {
			const rect = document.getElementById('board').getBoundingClientRect();
			return {
				scrollWidth: document.documentElement.scrollWidth,
				scrollHeight: document.documentElement.scrollHeight,
				innerWidth,
				innerHeight,
				board: { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom, width: rect.width },
			};
		});
		const where = `${this.label} (${this.device}) in state ${when}`;
		assert.ok(fit.scrollWidth <= fit.innerWidth && fit.scrollHeight <= fit.innerHeight,
			`expected no scrollbars for ${where}: the page is ${fit.scrollWidth} × ${fit.scrollHeight} ` +
			`in a ${fit.innerWidth} × ${fit.innerHeight} viewport`);
		const { board } = fit;
		assert.ok(board.width >= Math.min(fit.innerWidth, fit.innerHeight) * 0.75,
			`expected the board to fill most of the screen for ${where}, it is ${board.width} px wide ` +
			`in a ${fit.innerWidth} × ${fit.innerHeight} viewport`);
		assert.ok(board.left >= 0 && board.top >= 0 && board.right <= fit.innerWidth && board.bottom <= fit.innerHeight,
			`expected the whole board inside the viewport for ${where}, it is at ` +
			`${JSON.stringify(board)} in ${fit.innerWidth} × ${fit.innerHeight}`);
	}

	/** Saves a screenshot of the page as tests/artifacts/NAME.png. */
	async screenshot(name) {
		mkdirSync(ARTIFACTS_DIR, { recursive: true });
		const path = `${ARTIFACTS_DIR}${name}.png`;
		// The toast and the animations settle before the picture.
		await this.page.screenshot({ path, animations: 'disabled', caret: 'hide' });
		return path;
	}

	/** Closes the page's context (the person leaves). */
	async close() {
		if (this.closed)
			return;
		this.closed = true;
		await this.context.close();
	}
}

/**
 * Opens another tab of player's browser on the site: a page of the same
 * context (the same storage, so the same player).
 */
export async function openTab(player, label) {
	const page = await player.context.newPage();
	const tab = new Player(player.context, page, { label, device: player.device, url: player.url });
	await tab.load();
	return tab;
}

/**
 * Opens a player on server's page. Options: device ('desktop' or
 * 'phone'), locale (the browser's language, 'en-US' by default), label,
 * url (where to load the page from: server.httpUrl by default, or a
 * proxy's), routeSockets: a handler for page.routeWebSocket(), which
 * then sees every socket the page opens (a routed socket is not reported
 * to sentFrames), and confirmTaps: true to leave "tap to confirm" as the
 * page has it (off: one tap places a stone, as the suites tap).
 */
export async function openPlayer(browser, server,
	{ device = 'desktop', locale = 'en-US', label = device, url = server.httpUrl, routeSockets = null, confirmTaps = false } = {}) {
	const context = await browser.newContext({ ...DEVICES[device], locale });
	if (!confirmTaps) {
		// A phone's page confirms taps by default (a second tap places the
		// stone); the suites tap once, as the switch off allows.
		await context.addInitScript(() => {
			try {
				if (localStorage.getItem('gomoku.confirm-taps') === null)
					localStorage.setItem('gomoku.confirm-taps', '0');
			} catch {
				// a document without storage (about:blank, an error page)
			}
		});
	}
	const page = await context.newPage();
	const player = new Player(context, page, { label, device, url });
	if (routeSockets)
		await page.routeWebSocket(/.*/, routeSockets);
	await player.load();
	return player;
}

/**
 * Closes every player and fails, naming them, when any recorded a console
 * error, an exception, a failed request or an HTTP error.
 */
export async function closePlayers(players) {
	await Promise.all(players.map((player) => player.close()));
	const problems = players.flatMap((player) => player.problems.map((problem) => `${player.label}: ${problem}`));
	players.length = 0;
	assert.deepEqual(problems, [], 'expected no console error, exception or failed request in any page');
}

/**
 * The set-up of a browser suite; call it in its describe() block. One
 * headless Chromium for the block (launched before its first test, closed
 * after its last) and one server, useServer(serverOptions). Returns
 * { server, openPlayer }: server is useServer()'s, and openPlayer(options)
 * opens a player on it (openPlayer() above, in the suite's browser) and
 * keeps it. After each test every player kept is closed and the test
 * fails when any of them recorded a problem (closePlayers()); then
 * afterPlayers() runs (for what the pages used, such as a proxy), every
 * client of the integration library is closed and the server settles
 * (within settleTimeoutMs).
 */
export function useBrowser(serverOptions = {}, { settleTimeoutMs, afterPlayers = null } = {}) {
	const players = [];
	let browser = null;

	before(async () => {
		browser = await launchBrowser();
	});
	after(async () => {
		await browser?.close();
	});
	const server = useServer(serverOptions, {
		settleTimeoutMs,
		closeFirst: async () => {
			try {
				await closePlayers(players);
			} finally {
				if (afterPlayers)
					await afterPlayers();
			}
		},
	});

	return {
		server,
		async openPlayer(options) {
			const player = await openPlayer(browser, server, options);
			players.push(player);
			return player;
		},
		async openTab(player, label) {
			const tab = await openTab(player, label);
			players.push(tab);
			return tab;
		},
	};
}

/**
 * Clicks "Find opponent" on both players, one after the other, and waits
 * until both play. Resolves with {front, back}.
 */
export async function matchPlayers(first, second) {
	await first.page.click('#main');
	await first.waitFor({ state: 'searching' });
	await second.page.click('#main');
	await first.waitFor({ state: 'playing' });
	await second.waitFor({ state: 'playing' });
	const firstRole = await first.app('role');
	const secondRole = await second.app('role');
	assert.deepEqual([firstRole, secondRole].sort(), ['back', 'front'],
		`expected one front and one back player, got ${firstRole} and ${secondRole}`);
	return firstRole === 'front' ? { front: first, back: second } : { front: second, back: first };
}

/**
 * Plays moves ([{role, x, y}], front first) by clicking the mover's canvas,
 * waiting after each until both pages show it. startMoves: the number of
 * moves played before.
 */
export async function playMoves(players, moves, startMoves = 0) {
	let played = startMoves;
	for (const move of moves) {
		const mover = players[move.role];
		await mover.waitFor({ turn: 'me' });
		await mover.clickCell(move.x, move.y);
		played++;
		await Promise.all([players.front.waitForMoves(played), players.back.waitForMoves(played)]);
	}
}

/** A board text ('.', 'x', 'o') of size × size with moves played on it. */
export function boardAfter(moves, size = 15) {
	const cells = new Array(size * size).fill('.');
	for (const { role, x, y } of moves)
		cells[y * size + x] = role === 'front' ? 'x' : 'o';
	return cells.join('');
}
