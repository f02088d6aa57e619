// Renju in real browsers: two players choose the renju rule, are matched,
// and play; while black is to move its forbidden points are marked on the
// board (the canvas's data-forbidden) and a click on one sends nothing and
// says why; white may play there; the game ends with black's exact five.
// Then the same on one screen (local): the page judges renju itself.
// Screenshots of the marked board go to tests/artifacts/.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser, matchPlayers, playMoves, boardAfter } from './lib/browser.mjs';
import { testTimeout } from '../integration/lib/time.mjs';

const T = testTimeout(90_000);

/*
 * Black's G9 G8 H7 I7 and white's column A: then black's G7 (6, 8) would
 * be a double three (y counts from the top).
 */
const OPENING = [
	{ role: 'front', x: 6, y: 6 }, { role: 'back', x: 0, y: 0 },
	{ role: 'front', x: 6, y: 7 }, { role: 'back', x: 0, y: 1 },
	{ role: 'front', x: 7, y: 8 }, { role: 'back', x: 0, y: 2 },
	{ role: 'front', x: 8, y: 8 }, { role: 'back', x: 0, y: 3 },
];
const G7 = { x: 6, y: 8 };
/* White takes G7; black then makes an exact five on row 2 from the top. */
const ENDING = [
	{ role: 'front', x: 10, y: 2 }, { role: 'back', x: 6, y: 8 },
	{ role: 'front', x: 11, y: 2 }, { role: 'back', x: 0, y: 5 },
	{ role: 'front', x: 12, y: 2 }, { role: 'back', x: 0, y: 6 },
	{ role: 'front', x: 13, y: 2 }, { role: 'back', x: 0, y: 7 },
	{ role: 'front', x: 9, y: 2 },
];

describe('renju in the browser', () => {
	const { openPlayer } = useBrowser();

	it('marks black\'s forbidden points, refuses a click on one with a toast and nothing sent, and plays on to black\'s five', T, async () => {
		const desktop = await openPlayer({ device: 'desktop', label: 'desktop player' });
		const phone = await openPlayer({ device: 'phone', label: 'phone player' });
		for (const player of [desktop, phone])
			await player.page.selectOption('#pool-rule', 'renju');
		const byRole = await matchPlayers(desktop, phone);
		for (const player of [desktop, phone])
			assert.match(await player.text('#rule'), /^Renju: /);
		await playMoves(byRole, OPENING);
		for (const player of [desktop, phone]) {
			assert.equal(await player.board(), boardAfter(OPENING));
			await player.page.waitForFunction(() => document.querySelector('#board').dataset.forbidden === '6,8');
		}
		const black = byRole.front;
		await black.screenshot(`${black.device}-renju-forbidden`);
		const sent = black.sentMoves().length;
		await black.clickCell(G7.x, G7.y);
		await black.page.waitForSelector('#toast.show');
		assert.match(await black.text('#toast'), /Forbidden for black/);
		assert.equal(black.sentMoves().length, sent, 'expected no move sent for a forbidden point');
		assert.equal(await black.boardData('stones'), String(OPENING.length));
		assert.equal(await black.app('turn'), 'me');
		await playMoves(byRole, ENDING, OPENING.length);
		await byRole.front.waitFor({ state: 'over', result: 'win' });
		await byRole.back.waitFor({ state: 'over', result: 'loss' });
		for (const player of [desktop, phone]) {
			assert.equal(await player.boardData('line'), '9,2 10,2 11,2 12,2 13,2');
			assert.equal(await player.boardData('forbidden'), '');
		}
	});

	it('plays renju on one screen: the page marks and refuses black\'s forbidden point itself', T, async () => {
		const player = await openPlayer({ device: 'desktop', label: 'hot-seat player' });
		await player.pressButton('#mode [data-mode="local"]');
		assert.equal(await player.page.isVisible('#pool-rule'), true, 'expected the rule choice for a local game');
		assert.equal(await player.page.isVisible('#pool-tc'), false, 'expected no clock choice for a local game');
		await player.page.selectOption('#pool-rule', 'renju');
		await player.page.click('#main');
		await player.waitFor({ state: 'playing' });
		for (const [index, move] of OPENING.entries()) {
			await player.clickCell(move.x, move.y);
			await player.waitForMoves(index + 1);
		}
		await player.page.waitForFunction(() => document.querySelector('#board').dataset.forbidden === '6,8');
		await player.clickCell(G7.x, G7.y);
		await player.page.waitForSelector('#toast.show');
		assert.equal(await player.boardData('stones'), String(OPENING.length));
		await player.clickCell(12, 12);
		await player.waitForMoves(OPENING.length + 1);
		assert.equal(await player.boardData('forbidden'), '');
		await player.clickCell(G7.x, G7.y);
		await player.waitForMoves(OPENING.length + 2);
		assert.equal(await player.board(), boardAfter([...OPENING, { role: 'front', x: 12, y: 12 }, { role: 'back', ...G7 }]));
	});
});
