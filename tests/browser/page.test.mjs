// The page itself: it loads under the server's Content-Security-Policy
// with no error, fits and sharpens its board to the viewport, speaks
// English or Chinese after the browser (with a remembered toggle),
// remembers the mute switch, says "Your turn" in the tab of a player in
// the background (and buzzes a phone), and shows the preview stone only
// on the player's turn.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser, matchPlayers, playMoves } from './lib/browser.mjs';
import { testTimeout } from '../integration/lib/time.mjs';

const T = testTimeout(60_000);

function canvasPixels(player) {
	return player.page.locator('#board').screenshot({ animations: 'disabled' });
}

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

	it('fits a phone on its side without scrolling, the board in one place from the start screen to the game', T, async () => {
		const one = await openPlayer({ device: 'landscape', label: 'landscape player' });
		const two = await openPlayer({ device: 'landscape', label: 'other landscape player' });
		const place = (player) => player.page.evaluate(() => {
			const box = document.getElementById('board').getBoundingClientRect();
			return { left: Math.round(box.left), top: Math.round(box.top), width: Math.round(box.width),
				scrolls: document.documentElement.scrollHeight > innerHeight || document.documentElement.scrollWidth > innerWidth };
		});
		const start = await place(one);
		await one.page.click('#main');
		await one.waitFor({ state: 'searching' });
		const searching = await place(one);
		await two.page.click('#main');
		await one.waitFor({ state: 'playing' });
		const playing = await place(one);
		for (const [when, seen] of Object.entries({ start, searching, playing })) {
			assert.equal(seen.scrolls, false, `expected no page scroll at 844 x 390 (${when})`);
			assert.deepEqual({ ...seen, scrolls: false }, { ...start, scrolls: false }, `expected the board where it was (${when})`);
		}
		assert.ok(start.width >= 340, `expected the board most of the height, it is ${start.width} px`);
		await one.screenshot('landscape-playing');
	});

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
