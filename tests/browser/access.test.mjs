// Everyone can play: what a screen reader gets, read from Chromium's own
// accessibility tree (the DevTools protocol's Accessibility domain): the
// board's role and its description of the position, the polite live
// region that says every move, the keyboard cursor's point and, on the M
// key, the last moves; the status line (whose turn, the result) is a
// live region of its own.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser, matchPlayers, playMoves, WAIT_MS } from './lib/browser.mjs';
import { testTimeout } from '../integration/lib/time.mjs';

const T = testTimeout(60_000);

/** The nodes of player's page in Chromium's accessibility tree. */
async function axNodes(player) {
	const cdp = await player.context.newCDPSession(player.page);
	try {
		const { nodes } = await cdp.send('Accessibility.getFullAXTree');
		return nodes;
	} finally {
		await cdp.detach();
	}
}

const valueOf = (field) => (field && field.value !== undefined ? String(field.value) : '');
const propertyOf = (node, name) => valueOf((node.properties || []).find((property) => property.name === name)?.value);

/** The board's node: its role and name. */
async function boardNode(player) {
	const nodes = await axNodes(player);
	const board = nodes.find((node) => valueOf(node.name).startsWith('Gomoku board'));
	assert.ok(board, 'expected the board in the accessibility tree, named');
	return { role: valueOf(board.role), name: valueOf(board.name) };
}

/** The text of the polite live regions, in the tree, by their text. */
async function liveTexts(player) {
	const nodes = await axNodes(player);
	const byId = new Map(nodes.map((node) => [node.nodeId, node]));
	const live = nodes.filter((node) => propertyOf(node, 'live') === 'polite' && node.childIds?.length);
	return live.map((node) => node.childIds.map((id) => valueOf(byId.get(id)?.name)).join('').replace(/\u00a0$/, ''));
}

/** Waits until a polite live region of player's page says text. */
async function waitForSaid(player, text) {
	const deadline = Date.now() + WAIT_MS;
	let last = [];
	while (Date.now() < deadline) {
		last = await liveTexts(player);
		if (last.includes(text))
			return;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	assert.fail(`expected ${player.label}'s page to say "${text}" in a polite live region, it says ${JSON.stringify(last)}`);
}

describe('a screen reader', () => {
	const { openPlayer } = useBrowser();

	it('hears every move, the cursor\'s point, the last moves on M, whose turn it is, and reads the board\'s position', T, async () => {
		const one = await openPlayer({ label: 'player one' });
		const two = await openPlayer({ label: 'player two' });
		const pair = await matchPlayers(one, two);
		const { front, back } = pair;
		await playMoves(pair, [{ role: 'front', x: 7, y: 7 }, { role: 'back', x: 8, y: 6 }]);

		// Every move, in both pages: "Black H8", then "White I9".
		await waitForSaid(back, 'White I9');
		await waitForSaid(front, 'White I9');
		// Whose turn: the status line is a live region.
		const status = (await axNodes(front)).find((node) => valueOf(node.role) === 'status');
		assert.ok(status, 'expected the status line in the tree with the role status');
		assert.equal(propertyOf(status, 'live'), 'polite');
		assert.equal(await front.text('#status'), 'Your turn');

		// The board: an image named by the position.
		const board = await boardNode(front);
		assert.equal(board.role, 'image', 'expected the canvas\'s role img (Chromium calls it image)');
		assert.equal(board.name, 'Gomoku board, 15 by 15. 2 stones. Last moves, newest first: White I9, Black H8.');

		// The cursor with the arrow keys: its point and what is there.
		await front.page.locator('#board').focus();
		await front.page.keyboard.press('ArrowUp');
		const cursorSaid = (await liveTexts(front)).find((said) => /^[A-O]\d{1,2}, /.test(said));
		assert.ok(cursorSaid, `expected the cursor's point said, got ${JSON.stringify(await liveTexts(front))}`);
		// M: the last moves, newest first.
		await front.page.keyboard.press('m');
		await waitForSaid(front, board.name);
	});

	it('hears an offer\'s answer once', T, async () => {
		const one = await openPlayer({ label: 'player one' });
		const two = await openPlayer({ label: 'player two' });
		const pair = await matchPlayers(one, two);
		await playMoves(pair, [{ role: 'front', x: 7, y: 7 }, { role: 'back', x: 8, y: 8 }]);
		await pair.front.page.click('#undo');
		await pair.back.page.waitForSelector('#prompt', { state: 'visible' });
		await pair.back.page.click('#decline');
		await waitForSaid(pair.front, 'Your opponent declined the takeback.');
	});
});

/**
 * The texts of player's page whose contrast with what is behind them is
 * under 4.5:1: [{text, colour, ratio}]. Behind a text are the backgrounds
 * of its element and every ancestor, blended from the page's own colour
 * up (a gradient counts by each of its colours, so the worst is taken).
 * Hidden texts, disabled controls (WCAG leaves inactive ones out), the
 * board canvas and what only a screen reader reads are left out; the
 * colours are read once every transition has ended.
 */
function lowContrast(player) {
	return player.page.evaluate(async () => {
		// Colours in the middle of a transition (a theme just switched) are neither theme's.
		await Promise.all(document.getAnimations().filter((animation) => animation instanceof CSSTransition)
			.map((animation) => animation.finished.catch(() => {})));
		const parse = (text) => {
			const hex = text.trim().match(/^#([0-9a-f]{6})$/i);
			if (hex)
				return { r: parseInt(hex[1].slice(0, 2), 16), g: parseInt(hex[1].slice(2, 4), 16), b: parseInt(hex[1].slice(4), 16), a: 1 };
			const match = text.match(/rgba?\(([^)]+)\)/);
			if (!match)
				return null;
			const parts = match[1].split(/[\s,/]+/).filter(Boolean).map(Number);
			return { r: parts[0], g: parts[1], b: parts[2], a: parts.length > 3 ? parts[3] : 1 };
		};
		const over = (top, bottom) => ({
			r: top.r * top.a + bottom.r * (1 - top.a),
			g: top.g * top.a + bottom.g * (1 - top.a),
			b: top.b * top.a + bottom.b * (1 - top.a),
			a: 1,
		});
		const luminance = ({ r, g, b }) => {
			const linear = (value) => {
				const v = value / 255;
				return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
			};
			return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
		};
		const ratio = (a, b) => {
			const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
			return (light + 0.05) / (dark + 0.05);
		};
		const root = getComputedStyle(document.documentElement);
		// The page's colour, and the body's gradient spots on it.
		const page = ['--bg', '--bg-light', '--bg-deep'].map((name) => parse(root.getPropertyValue(name)));
		const behind = (element) => {
			const chain = [];
			for (let node = element; node && node !== document.body; node = node.parentElement)
				chain.unshift(node);
			let colours = page;
			for (const node of chain) {
				const style = getComputedStyle(node);
				if (style.backgroundImage.includes('gradient')) {
					const stops = [...style.backgroundImage.matchAll(/rgba?\([^)]+\)|#[0-9a-f]{6}/gi)]
						.map((match) => parse(match[0])).filter((stop) => stop && stop.a > 0);
					if (stops.length)
						colours = colours.flatMap((colour) => stops.map((stop) => over(stop, colour)));
				}
				const colour = parse(style.backgroundColor);
				if (colour && colour.a > 0)
					colours = colours.map((below) => over(colour, below));
			}
			return colours;
		};
		const shown = (element) => {
			if (element.closest('[hidden], .sr-only, canvas, svg, :disabled, option'))
				return false;
			const style = getComputedStyle(element);
			const box = element.getBoundingClientRect();
			return style.visibility === 'visible' && Number(style.opacity) > 0 && box.width > 0 && box.height > 0 &&
				!element.closest('.toast:not(.show)');
		};
		const problems = [];
		for (const element of document.querySelectorAll('body *')) {
			const own = [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE)
				.map((node) => node.textContent.trim()).join('');
			if (!own || !shown(element))
				continue;
			const style = getComputedStyle(element);
			const colour = parse(style.color);
			const worst = Math.min(...behind(element).map((background) => ratio(over(colour, background), background)));
			if (worst < 4.5)
				problems.push({ text: own.slice(0, 40), id: element.id || element.className, colour: style.color, ratio: Number(worst.toFixed(2)) });
		}
		return problems;
	});
}

describe('both themes', () => {
	const { openPlayer } = useBrowser();

	for (const scheme of ['dark', 'light']) {
		it(`follows a ${scheme} system, and every text has a contrast of 4.5:1 at least: start screen, a game with an offer, the end`, T, async () => {
			const one = await openPlayer({ label: `${scheme} player one` });
			const two = await openPlayer({ device: 'phone', label: `${scheme} player two` });
			for (const player of [one, two]) {
				await player.page.emulateMedia({ colorScheme: scheme });
				await player.page.reload();
				await player.page.waitForSelector(`html[data-theme="${scheme}"]`);
			}
			const seen = {};
			seen.start = await lowContrast(one);
			await one.pressButton('#mode [data-mode="ai"]');
			seen.computer = await lowContrast(one);
			await one.pressButton('#mode [data-mode="online"]');
			const pair = await matchPlayers(one, two);
			await playMoves(pair, [{ role: 'front', x: 7, y: 7 }, { role: 'back', x: 8, y: 8 }]);
			await pair.front.page.click('#undo');
			await pair.back.page.waitForSelector('#prompt', { state: 'visible' });
			seen.offer = await lowContrast(pair.back);
			seen.playing = await lowContrast(pair.front);
			for (const player of [one, two])
				await player.screenshot(`${player.device}-theme-${scheme}-playing`);
			await pair.back.page.click('#decline');
			await pair.front.page.click('#resign');
			await pair.front.page.click('#accept');
			await pair.back.waitFor({ state: 'over' });
			seen.over = await lowContrast(pair.back);
			for (const [screen, problems] of Object.entries(seen))
				assert.deepEqual(problems, [], `expected every text readable (4.5:1) on the ${screen} screen in the ${scheme} theme`);
		});
	}

	for (const device of ['small', 'landscape']) {
		it(`has every text readable on the start screen of a ${device} phone, in both themes`, T, async () => {
			const player = await openPlayer({ device, label: `${device} player` });
			for (const scheme of ['dark', 'light']) {
				await player.page.emulateMedia({ colorScheme: scheme });
				await player.page.waitForSelector(`html[data-theme="${scheme}"]`);
				assert.deepEqual(await lowContrast(player), [], `expected every text readable on a ${device} phone, ${scheme}`);
				await player.screenshot(`${device}-theme-${scheme}-start`);
			}
		});
	}

	it('switches with the button and remembers it over the system\'s', T, async () => {
		const player = await openPlayer({ label: 'player' });
		await player.page.emulateMedia({ colorScheme: 'dark' });
		await player.page.reload();
		await player.page.waitForSelector('html[data-theme="dark"]');
		assert.equal(await player.page.getAttribute('#theme', 'aria-label'), 'Light theme');
		await player.pressButton('#theme');
		await player.page.waitForSelector('html[data-theme="light"]');
		await player.page.reload();
		await player.page.waitForSelector('html[data-theme="light"]');
		assert.equal(await player.page.getAttribute('#theme', 'aria-label'), 'Dark theme');
	});
});
