// The page itself: it loads under the server's Content-Security-Policy
// with no error, fits and sharpens its board to the viewport, speaks
// English or Chinese after the browser (with a remembered toggle),
// remembers the mute switch, says "Your turn" in the tab of a player in
// the background (and buzzes a phone), keeps the board whole and in one
// place on phones (zoomed when its points are too close), and shows the
// preview stone only on the player's turn.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser, matchPlayers, playMoves } from './lib/browser.mjs';
import { scaled, testTimeout } from '../integration/lib/time.mjs';

const T = testTimeout(60_000);

function canvasPixels(player) {
	return player.page.locator('#board').screenshot({ animations: 'disabled' });
}

// Where the board is and what is around it, in CSS pixels.
const layoutOf = (player) => player.page.evaluate(() => {
	const rect = (selector) => {
		const box = document.querySelector(selector).getBoundingClientRect();
		return { left: Math.round(box.left), top: Math.round(box.top), right: Math.round(box.right), bottom: Math.round(box.bottom) };
	};
	const lines = Number(document.getElementById('board').dataset.size);
	const board = rect('#board');
	return {
		board,
		view: rect('#board-view'),
		step: (board.right - board.left) / (lines - 1 + 2 * 0.95),
		controls: rect('.controls'),
		width: innerWidth,
		height: innerHeight,
		scrolls: document.documentElement.scrollHeight > innerHeight || document.documentElement.scrollWidth > innerWidth,
		zoomOffered: !document.getElementById('zoom').hidden,
	};
});

describe('the page', () => {
	const { server, openPlayer } = useBrowser();

	it('loads under the server\'s Content-Security-Policy with every file found and no console error', T, async () => {
		const player = await openPlayer({ label: 'player' });
		const responses = [];
		player.page.on('response', (response) => responses.push(response));
		await player.page.reload();
		await player.page.waitForSelector('#app[data-lang]');
		const page = responses.find((response) => new URL(response.url()).pathname === '/');
		assert.match(page.headers()['content-security-policy'] || '', /script-src 'self'/,
			'expected the page to be served with a Content-Security-Policy');
		const paths = responses.map((response) => new URL(response.url()).pathname).sort();
		for (const path of ['/', '/style.css', '/js/main.js', '/js/game.js', '/js/state.js', '/js/view.js',
			'/js/modes.js', '/js/layout.js', '/js/protocol.js', '/js/connection.js', '/js/render.js',
			'/js/sound.js', '/js/text.js'])
			assert.ok(paths.includes(path), `expected the page to load ${path}, it loaded ${paths.join(', ')}`);
		assert.equal((await server.get('/favicon.svg')).status, 200);
		// The policy allows no inline script or style: the markup has none.
		const markup = (await server.get('/')).body;
		assert.doesNotMatch(markup, /\sstyle=|<style|<script(?![^>]*\ssrc=)/i,
			'expected no style attribute, style element or inline script in index.html');
	});

	for (const device of ['desktop', 'phone']) {
		it(`fits the board to the viewport, sharp at the device's pixel ratio (${device})`, T, async () => {
			const player = await openPlayer({ device, label: `${device} player` });
			await player.assertFits('idle');
			const sharp = await player.page.evaluate(() => {
				const canvas = document.getElementById('board');
				const rect = canvas.getBoundingClientRect();
				return { width: canvas.width, css: rect.width, ratio: devicePixelRatio };
			});
			assert.equal(sharp.width, Math.round(sharp.css * sharp.ratio),
				`expected the canvas to have ${sharp.ratio} pixels per CSS pixel, got ${JSON.stringify(sharp)}`);

			await player.pressButton('#main');
			await player.waitFor({ state: 'searching', link: 'open' });
			await player.assertFits('searching');
			await player.screenshot(`${device}-2-searching`);
			await player.pressButton('#cancel');
			await player.waitFor({ state: 'idle' });

			const smaller = device === 'phone' ? { width: 360, height: 640 } : { width: 900, height: 620 };
			await player.page.setViewportSize(smaller);
			await player.page.waitForFunction((width) =>
				document.getElementById('board').getBoundingClientRect().width < width, sharp.css);
			await player.assertFits('idle, after the window shrank');
			if (device === 'desktop') {
				// A narrow desktop window stacks like a phone.
				await player.page.setViewportSize({ width: 700, height: 900 });
				await player.page.waitForFunction(() =>
					getComputedStyle(document.getElementById('app')).getPropertyValue('--layout').trim() === 'stack');
				await player.assertFits('idle, in a tall window');
			}
		});
	}

	it('asks for every module at once (modulepreload), gets the text files gzip-compressed, and revalidates them on a reload', T, async () => {
		const markup = (await server.get('/')).body;
		const preloaded = [...markup.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((match) => `/${match[1]}`).sort();
		const player = await openPlayer({ label: 'player' });
		const responses = [];
		player.page.on('response', (response) => responses.push(response));
		await player.page.reload();
		await player.page.waitForSelector('#app[data-lang]');
		const pathOf = (response) => new URL(response.url()).pathname;
		const modules = responses.map(pathOf).filter((path) => path.startsWith('/js/') && path !== '/js/main.js').sort();
		assert.deepEqual(preloaded, [...new Set(modules)],
			'expected every module the page imports, and no other, named by a modulepreload link');
		for (const path of ['/js/main.js', '/js/game.js', '/style.css'])
			assert.equal(await server.get(path).then((res) => res.headers['content-encoding']), undefined,
				`expected ${path} plain to a client that asks for no gzip`);
		const statuses = new Map(responses.map((response) => [pathOf(response), response.status()]));
		assert.ok([...statuses.values()].every((status) => status === 200 || status === 304),
			`expected only 200 and 304, got ${JSON.stringify([...statuses])}`);
		assert.equal(statuses.get('/js/main.js'), 304, 'expected the reload to revalidate main.js, not to fetch it again');
		// Chromium asks for gzip; what the server then sends is gzip.
		const main = responses.find((response) => pathOf(response) === '/js/main.js');
		const asked = (await main.request().allHeaders())['accept-encoding'] || '';
		assert.match(asked, /gzip/, 'expected Chromium to accept gzip');
		for (const path of ['/', '/js/main.js', '/style.css', '/favicon.svg']) {
			const res = await server.get(path, { headers: { 'accept-encoding': asked } });
			assert.equal(res.headers['content-encoding'], 'gzip', `expected ${path} gzip-compressed to Chromium`);
			assert.equal(res.headers.vary, 'Accept-Encoding');
		}
	});

	it('speaks Chinese to a Chinese browser, and the toggle switches and is remembered', T, async () => {
		const player = await openPlayer({ device: 'phone', locale: 'zh-CN', label: 'Chinese player' });
		assert.equal(await player.app('lang'), 'zh');
		assert.equal(await player.page.getAttribute('html', 'lang'), 'zh-CN');
		assert.equal(await player.text('#main-text'), '寻找对手');
		assert.equal(await player.page.title(), '五子棋 — 在线对战');

		await player.pressButton('#lang');
		await player.waitFor({ lang: 'en' });
		assert.equal(await player.text('#main-text'), 'Find opponent');
		assert.equal(await player.text('#status'), 'Press “Find opponent” to play.');
		await player.page.reload();
		await player.waitFor({ lang: 'en' });
		assert.equal(await player.text('#main-text'), 'Find opponent', 'expected the choice to be remembered');

		const english = await openPlayer({ label: 'English player' });
		assert.equal(await english.app('lang'), 'en');
		await english.page.click('#lang');
		await english.waitFor({ lang: 'zh' });
		await english.page.click('#main');
		await english.waitFor({ state: 'searching' });
		assert.equal(await english.text('#status'), '正在寻找对手…');
		assert.equal(await english.text('#cancel'), '取消');
	});

	it('says "Your turn" in the tab\'s title and icon while in the background, and buzzes once on the opponent\'s move when the sound is on', T, async () => {
		const away = await openPlayer({ label: 'player in another tab' });
		const mover = await openPlayer({ label: 'player who moves' });
		// Buzzes are recorded (a desktop Chromium has no motor to ask).
		await away.context.addInitScript(() => {
			window.buzzes = [];
			navigator.vibrate = (pattern) => window.buzzes.push(pattern) > 0;
		});
		await away.page.reload();
		await away.page.waitForSelector('#app[data-lang]');
		const pair = await matchPlayers(away, mover);
		const awayRole = await away.app('role');
		const moverRole = awayRole === 'front' ? 'back' : 'front';
		const moves = [{ x: 7, y: 7 }, { x: 8, y: 8 }, { x: 6, y: 6 }, { x: 9, y: 9 }].map((cell, i) => ({ ...cell, role: i % 2 ? 'back' : 'front' }));
		if (awayRole === 'front')
			await playMoves(pair, moves.slice(0, 1));
		let played = awayRole === 'front' ? 1 : 0;
		const icon = () => away.page.getAttribute('link[rel="icon"]', 'href');
		assert.equal(await away.page.title(), 'Gomoku — five in a row');

		// The player goes to another tab; the opponent moves.
		await away.page.evaluate(() => {
			Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
			document.dispatchEvent(new Event('visibilitychange'));
		});
		const buzzesBefore = await away.page.evaluate(() => window.buzzes.length);
		assert.equal(moves[played].role, moverRole);
		await playMoves(pair, [moves[played]], played);
		played++;
		await away.page.waitForFunction(() => document.title === '● Your turn — Gomoku');
		assert.equal(await icon(), 'favicon-turn.svg');
		assert.equal(await away.page.evaluate(() => window.buzzes.length), buzzesBefore + 1, 'expected one buzz');
		// Back in front: the page's own title again.
		await away.page.evaluate(() => {
			Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
			document.dispatchEvent(new Event('visibilitychange'));
		});
		assert.equal(await away.page.title(), 'Gomoku — five in a row');
		assert.equal(await icon(), 'favicon.svg');
		// Muted: no buzz.
		await away.pressButton('#mute');
		await away.waitFor({ muted: 'true' });
		await playMoves(pair, moves.slice(played, played + 2), played);
		assert.equal(await away.page.evaluate(() => window.buzzes.length), buzzesBefore + 1, 'expected no buzz while muted');
	});

	// Whether the element matching selector is wholly in sight: in the viewport and in the controls' scrolled view.
	const inSight = (player, selector) => player.page.evaluate((selector) => {
		const box = document.querySelector(selector).getBoundingClientRect();
		const controls = document.querySelector('.controls').getBoundingClientRect();
		return box.height > 0 && box.top >= Math.max(0, controls.top) - 1 && box.bottom <= Math.min(innerHeight, controls.bottom) + 1;
	}, selector);

	const screens = { small: '320 × 568', phone: '390 × 844', landscape: '844 × 390 (on its side)' };
	for (const device of Object.keys(screens)) {
		it(`keeps the board in one place on a ${screens[device]} phone from the start screen to the game, whole, with no page scroll`, T, async () => {
			const one = await openPlayer({ device, label: `${device} player` });
			const two = await openPlayer({ device, label: `other ${device} player` });
			const start = await layoutOf(one);
			assert.ok(await inSight(one, '#main'), `expected the main button in sight on the start screen (${device})`);
			if (device === 'small') {
				// More below than fits: the last line fades until the controls are scrolled to the end.
				assert.equal(await one.page.getAttribute('.controls', 'data-more'), 'true');
				await one.page.evaluate(() => {
					const controls = document.querySelector('.controls');
					controls.scrollTop = controls.scrollHeight;
				});
				await one.page.waitForSelector('.controls[data-more="false"]');
				await one.page.evaluate(() => { document.querySelector('.controls').scrollTop = 0; });
				await one.page.waitForSelector('.controls[data-more="true"]');
			}
			await one.page.click('#main');
			await one.waitFor({ state: 'searching' });
			const searching = await layoutOf(one);
			await two.page.click('#main');
			await one.waitFor({ state: 'playing' });
			const playing = await layoutOf(one);
			for (const [when, seen] of Object.entries({ start, searching, playing })) {
				assert.equal(seen.scrolls, false, `expected no page scroll (${device}, ${when})`);
				assert.deepEqual(seen.board, start.board, `expected the board where it was (${device}, ${when})`);
				// Whole, coordinates and all: in the viewport, not cut by its window.
				assert.deepEqual(seen.view, seen.board, `expected the board's window to be the board (${device}, ${when})`);
				assert.ok(seen.board.left >= 0 && seen.board.right <= seen.width && seen.board.top >= 0 && seen.board.bottom <= seen.height,
					`expected the whole board in the viewport (${device}, ${when}): ${JSON.stringify(seen)}`);
				assert.ok(seen.controls.top >= seen.board.bottom || seen.controls.left >= seen.board.right,
					`expected the controls under or beside the board (${device}, ${when})`);
				assert.equal(seen.zoomOffered, false, `expected no zoom for 15 lines (${device}, ${when})`);
			}
			if (device === 'landscape') {
				assert.ok(start.board.right - start.board.left >= 340, `expected the board most of the height: ${JSON.stringify(start.board)}`);
			} else {
				assert.ok(start.step >= 20, `expected the points at least 20 px apart on a ${start.width} px screen, they are ${start.step.toFixed(1)}`);
				const { front } = await one.app('role') === 'front' ? { front: one } : { front: two };
				for (const selector of ['#status', '#tools'])
					assert.ok(await inSight(front, selector), `expected ${selector} in sight during the game (${device})`);
			}
			await one.screenshot(`${device}-playing`);
		});
	}

	it('remembers the mute switch', T, async () => {
		const player = await openPlayer({ label: 'player' });
		assert.equal(await player.app('muted'), 'false');
		await player.page.click('#mute');
		await player.waitFor({ muted: 'true' });
		assert.equal(await player.page.getAttribute('#mute', 'aria-pressed'), 'true');
		await player.page.reload();
		await player.waitFor({ muted: 'true' });
		await player.page.click('#mute');
		await player.waitFor({ muted: 'false' });
	});

	it('shows the preview stone under the pointer on the player\'s turn only, snapped and hidden off the board', T, async () => {
		const one = await openPlayer({ label: 'player one' });
		const two = await openPlayer({ label: 'player two' });
		const { front, back } = await matchPlayers(one, two);
		const box = await front.page.locator('#board').boundingBox();
		const centre = await front.pointOf(7, 7);

		await front.page.mouse.move(box.x + 2, box.y + 2);
		const bare = await canvasPixels(front);
		// Near, not on, the intersection: the stone snaps to it.
		await front.page.mouse.move(centre.x + 4, centre.y - 3);
		const withPreview = await canvasPixels(front);
		assert.ok(!bare.equals(withPreview), 'expected a preview stone on the player\'s turn');
		await front.page.mouse.move(centre.x - 3, centre.y + 4);
		assert.ok(withPreview.equals(await canvasPixels(front)),
			'expected the preview to snap to the same intersection');
		await front.page.mouse.move(box.x + 2, box.y + 2);
		assert.ok(bare.equals(await canvasPixels(front)), 'expected no preview off the board');

		await back.page.mouse.move(box.x + 2, box.y + 2);
		const backBare = await canvasPixels(back);
		const backCentre = await back.pointOf(7, 7);
		await back.page.mouse.move(backCentre.x, backCentre.y);
		assert.ok(backBare.equals(await canvasPixels(back)), 'expected no preview on the opponent\'s turn');

		await playMoves({ front, back }, [{ role: 'front', x: 7, y: 7 }]);
		// White's turn now: a preview on an empty point, none on the stone.
		await back.page.mouse.move(box.x + 2, box.y + 2);
		const withStone = await canvasPixels(back);
		await back.page.mouse.move(backCentre.x + 2, backCentre.y + 1);
		assert.ok(withStone.equals(await canvasPixels(back)), 'expected no preview on an occupied point');
		const beside = await back.pointOf(8, 8);
		await back.page.mouse.move(beside.x, beside.y);
		assert.ok(!withStone.equals(await canvasPixels(back)), 'expected a preview on white\'s turn');
	});
});

// A reload during the game keeps the seat: the grace is a few seconds.
const GRACE_S = 8;

describe('the page on a phone, a game kept over a reload', () => {
	const { openPlayer } = useBrowser({ args: ['--reconnect-grace', String(GRACE_S)] },
		{ settleTimeoutMs: scaled(GRACE_S * 1000 + 5000) });

	it('zooms a 19-line board on a small phone: the player pans it, and each new move comes into view', T, async () => {
		const small = await openPlayer({ device: 'small', label: 'small phone player' });
		const desk = await openPlayer({ label: 'desktop player' });
		for (const player of [small, desk])
			await player.page.selectOption('#pool-size', '19');
		const pair = await matchPlayers(small, desk);
		await small.waitFor({ zoom: 'off' });
		const whole = await layoutOf(small);
		assert.ok(whole.zoomOffered && whole.step < 20, `expected the zoom offered, points ${whole.step.toFixed(1)} px apart`);
		assert.equal(await small.page.getAttribute('#zoom', 'aria-label'), 'Zoom in on the board');

		await small.page.click('#zoom');
		await small.waitFor({ zoom: 'on' });
		const zoomed = await layoutOf(small);
		assert.ok(zoomed.step >= 20, `expected the zoomed points at least 20 px apart, they are ${zoomed.step.toFixed(1)}`);
		assert.deepEqual(zoomed.view, whole.view, 'expected the board\'s window where the board was');
		assert.equal(zoomed.scrolls, false, 'expected no page scroll when zoomed');
		assert.equal(await small.page.getAttribute('#zoom', 'aria-pressed'), 'true');

		// The point's page position when the zoomed window shows it, else null.
		const shown = async ({ x, y }) => {
			const point = await small.pointOf(x, y);
			const view = (await layoutOf(small)).view;
			return point.x > view.left && point.x < view.right && point.y > view.top && point.y < view.bottom ? point : null;
		};
		const corners = [{ x: 18, y: 18 }, { x: 0, y: 0 }, { x: 18, y: 0 }];
		let last = null;
		for (let played = 0; played < 6; played++) {
			const role = played % 2 ? 'back' : 'front';
			const mover = pair[role];
			await mover.waitFor({ turn: 'me' });
			let move;
			if (mover === desk) {
				move = corners.shift();
				await desk.clickCell(move.x, move.y);
			} else {
				// Beside the last move (the centre at first): in view without panning.
				move = last ? { x: last.x === 18 ? 17 : last.x + 1, y: last.y } : { x: 9, y: 9 };
				const point = await shown(move);
				assert.ok(point, `expected ${JSON.stringify(move)} in the zoomed view before the tap`);
				await small.press(point);
			}
			await Promise.all([small.waitForMoves(played + 1), desk.waitForMoves(played + 1)]);
			assert.equal(await small.boardData('last'), `${move.x},${move.y}`);
			assert.ok(await shown(move), `expected the zoomed view to show the last move ${JSON.stringify(move)}`);
			last = move;
		}
		await small.screenshot('small-zoomed');

		// The choice is remembered.
		await small.page.reload();
		await small.waitFor({ state: 'playing', zoom: 'on' });
		assert.ok(await shown(last), 'expected the last move in view after a reload');
		await small.page.click('#zoom');
		await small.waitFor({ zoom: 'off' });
		assert.deepEqual((await layoutOf(small)).board, whole.board, 'expected the whole board again');
	});
});
