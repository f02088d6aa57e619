// Renju in real browsers: two players choose the renju rule, are matched,
// and play; while black is to move its forbidden points are marked on the
// board (the canvas's data-forbidden) and a click on one sends nothing and
// says why; white may play there; the game ends with black's exact five.
// Then the same on one screen (local): the page judges renju itself.
// Then against the computer at each level, a game and its rematch (so
// the computer plays both colours): as black it never plays a point the
// board before listed as forbidden. Screenshots of the marked board go
// to tests/artifacts/.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser, matchPlayers, playMoves, boardAfter } from './lib/browser.mjs';
import { testTimeout, scaled } from '../integration/lib/time.mjs';
import { LEVELS } from '../../web/js/modes.js';

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

const SIZE = 15;
const WAIT_MS = scaled(20_000);

/** Records the board messages player's page receives, from now on. */
function recordBoards(player) {
	const boards = [];
	player.page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => {
		const message = JSON.parse(String(payload));
		if (message.type === 'board')
			boards.push(message);
	}));
	return boards;
}

/**
 * The empty point nearest the centre that the page does not mark as
 * forbidden (first in row-major order on a tie): a player who crowds the
 * computer's stones and keeps to the rule.
 */
async function allowedPoint(player) {
	const board = await player.board();
	const forbidden = new Set((await player.boardData('forbidden')).split(' '));
	const centre = (SIZE - 1) / 2;
	let best = null;
	for (let y = 0; y < SIZE; y++)
		for (let x = 0; x < SIZE; x++) {
			const distance = Math.abs(x - centre) + Math.abs(y - centre);
			if (board[y * SIZE + x] === '.' && !forbidden.has(`${x},${y}`) && (!best || distance < best.distance))
				best = { x, y, distance };
		}
	return best;
}

/** Plays player's game to its end; resolves with the page's result. */
async function playToTheEnd(player) {
	const stone = (await player.app('role')) === 'front' ? 'x' : 'o';
	for (;;) {
		await player.page.waitForSelector('#app[data-state="over"], #app[data-state="playing"][data-turn="me"][data-live="true"]',
			{ timeout: WAIT_MS });
		if (await player.app('state') === 'over')
			return player.app('result');
		const point = await allowedPoint(player);
		await player.clickCell(point.x, point.y);
		// The computer's reply may come with it: wait for the stone, not a count.
		await player.page.waitForFunction(({ index, mine }) =>
			document.getElementById('board').dataset.board[index] === mine,
		{ index: point.y * SIZE + point.x, mine: stone }, { timeout: WAIT_MS });
	}
}

/** Checks every move black made in boards against the board before it. */
function checkBlack(boards) {
	for (let i = 1; i < boards.length; i++) {
		const { move } = boards[i];
		const before = boards[i - 1];
		if (!move || move.role !== 'front' || before.role !== 'front')
			continue;
		const forbidden = before.forbidden || [];
		assert.ok(!forbidden.some(({ x, y }) => x === move.x && y === move.y),
			`expected black's ${JSON.stringify(move)} off the forbidden points ${JSON.stringify(forbidden)}`);
	}
}

describe('renju against the computer in the browser', () => {
	const { openPlayer } = useBrowser({ args: ['--ai-ms', '100'] });

	for (const level of LEVELS) {
		it(`plays renju against the computer at ${level} to the end, then the rematch with the colours swapped`, T, async () => {
			const player = await openPlayer({ device: 'desktop', label: `renju player against ${level}` });
			const boards = recordBoards(player);
			await player.pressButton('#mode [data-mode="ai"]');
			await player.pressButton(`#level [data-level="${level}"]`);
			await player.page.selectOption('#pool-rule', 'renju');
			await player.pressButton('#main');
			await player.waitFor({ state: 'playing', kind: 'ai' });
			assert.match(await player.text('#rule'), /^Renju: /);
			const roles = [await player.app('role')];
			const first = await playToTheEnd(player);
			assert.ok(['win', 'loss'].includes(first), `expected the first game won or lost, got ${first}`);
			const firstBoards = boards.splice(0);
			await player.pressButton('#rematch');
			await player.waitFor({ state: 'playing', live: 'true' });
			roles.push(await player.app('role'));
			assert.deepEqual([...roles].sort(), ['back', 'front'], 'expected the rematch to swap the colours');
			const second = await playToTheEnd(player);
			assert.ok(['win', 'loss'].includes(second), `expected the rematch won or lost, got ${second}`);
			for (const game of [firstBoards, boards])
				checkBlack(game);
			await player.screenshot(`desktop-renju-computer-${level}`);
		});
	}
});
