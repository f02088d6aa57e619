// The start screen's three modes in real browsers: two players on one
// screen (the page judges the game and opens no socket), a game against
// the server's engine, and a takeback offer between two players online;
// Undo and Redo in each mode that has them. Screenshots of the start
// screen with its choices and of a game against the computer, on both
// sizes, go to tests/artifacts/.

import { describe, it, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';

import { startServer } from '../integration/lib/server.mjs';
import { launchBrowser, openPlayer, closePlayers, boardAfter } from './lib/browser.mjs';

const T = { timeout: 120_000 };

/** Asserts the state of the Undo and Redo buttons: 'enabled', 'disabled' or 'hidden'. */
async function assertTools(player, expected, when) {
	const now = {};
	for (const id of ['undo', 'redo']) {
		const button = player.page.locator(`#${id}`);
		if (!await button.isVisible())
			now[id] = 'hidden';
		else
			now[id] = await button.isEnabled() ? 'enabled' : 'disabled';
	}
	assert.deepEqual(now, expected, `expected Undo and Redo to be ${JSON.stringify(expected)} ${when}`);
}

/** Clicks intersection (x, y) and waits until the board shows moves moves. */
async function playLocal(player, moves, x, y) {
	await player.clickCell(x, y);
	await player.waitForMoves(moves);
}

describe('game modes', () => {
	let server;
	let browser;
	const players = [];

	before(async () => {
		server = await startServer();
		browser = await launchBrowser();
	});
	afterEach(async () => {
		await closePlayers(players);
		await server.settle();
	});
	after(async () => {
		await browser?.close();
		await server?.stop();
	});

	it('shows the mode choice on the start screen, the level only for vs Computer, and remembers both', T, async () => {
		for (const device of ['desktop', 'phone']) {
			const player = await openPlayer(browser, server, { device, label: `${device} player` });
			players.push(player);
			assert.equal(await player.page.getAttribute('#mode [data-mode="online"]', 'aria-pressed'), 'true',
				'expected Online chosen on a first visit');
			assert.equal(await player.page.isVisible('#level'), false, 'expected no level choice for Online');
			assert.deepEqual(await player.page.locator('#mode button').allTextContents(),
				['Online', 'vs Computer', 'Local two players']);

			await player.pressButton('#mode [data-mode="ai"]');
			await player.waitFor({ mode: 'ai' });
			assert.equal(await player.page.isVisible('#level'), true);
			assert.deepEqual(await player.page.locator('#level button').allTextContents(), ['Easy', 'Medium', 'Hard']);
			await player.pressButton('#level [data-level="hard"]');
			await player.waitFor({ level: 'hard' });
			assert.equal(await player.page.getAttribute('#level [data-level="hard"]', 'aria-pressed'), 'true');
			assert.equal(await player.text('#main-text'), 'Play the computer');
			assert.equal(await player.text('#status'), 'Pick a level and press “Play the computer”.');
			await player.assertFits('idle, vs Computer chosen');
			await player.screenshot(`${device}-7-start-modes`);

			await player.page.reload();
			await player.waitFor({ mode: 'ai', level: 'hard' });
			assert.equal(await player.page.getAttribute('#mode [data-mode="ai"]', 'aria-pressed'), 'true',
				'expected the mode remembered across a reload');

			await player.pressButton('#lang');
			await player.waitFor({ lang: 'zh' });
			assert.deepEqual(await player.page.locator('#mode button').allTextContents(), ['在线对战', '人机对战', '本地双人']);
			assert.deepEqual(await player.page.locator('#level button').allTextContents(), ['简单', '中等', '困难']);
			assert.equal(await player.text('#main-text'), '开始人机对战');
			await player.pressButton('#lang');
			await player.waitFor({ lang: 'en' });

			await player.pressButton('#mode [data-mode="local"]');
			await player.waitFor({ mode: 'local' });
			assert.equal(await player.page.isVisible('#level'), false);
			assert.equal(await player.text('#main-text'), 'Start game');
			await player.assertFits('idle, Local chosen');
			assert.equal(player.sockets, 0, 'expected choosing a mode to open no socket');
		}
	});

	it('plays two players on one screen to a win, with undo and redo, and never opens a socket', T, async () => {
		const player = await openPlayer(browser, server, { label: 'hot-seat players' });
		players.push(player);
		await player.page.click('#mode [data-mode="local"]');
		assert.equal(await player.text('#status'), 'Two players, one screen: press “Start game”.');
		await player.page.click('#main');
		await player.waitFor({ state: 'playing', kind: 'local', live: 'true' });
		assert.equal(await player.text('#status'), 'Black to move');
		assert.equal(await player.text('#me .name'), 'Player 1');
		assert.equal(await player.text('#me .role'), 'Black');
		assert.equal(await player.text('#opponent .name'), 'Player 2');
		assert.equal(await player.text('#opponent .role'), 'White');
		assert.equal(await player.page.getAttribute('#me', 'data-turn'), 'true');
		assert.equal(await player.page.isVisible('#me .tag'), false, 'expected no "you" badge when both sides are here');
		assert.equal(await player.page.isVisible('#modes'), false, 'expected the mode choice hidden during the game');
		assert.equal(await player.text('#cancel'), 'Leave game');
		await assertTools(player, { undo: 'disabled', redo: 'disabled' }, 'before the first move');

		// Black and white click in turn on the same page.
		await playLocal(player, 1, 7, 7);
		assert.equal(await player.text('#status'), 'White to move');
		assert.equal(await player.page.getAttribute('#opponent', 'data-turn'), 'true');
		await playLocal(player, 2, 7, 8);
		await playLocal(player, 3, 6, 7);
		await playLocal(player, 4, 6, 8);
		assert.equal(await player.board(), boardAfter([
			{ role: 'front', x: 7, y: 7 }, { role: 'back', x: 7, y: 8 }, { role: 'front', x: 6, y: 7 }, { role: 'back', x: 6, y: 8 },
		]));
		await assertTools(player, { undo: 'enabled', redo: 'disabled' }, 'after four moves');

		// Two moves back, one forward again.
		await player.page.click('#undo');
		await player.waitForMoves(3);
		await player.page.click('#undo');
		await player.waitForMoves(2);
		assert.equal(await player.board(), boardAfter([{ role: 'front', x: 7, y: 7 }, { role: 'back', x: 7, y: 8 }]));
		assert.equal(await player.boardData('last'), '7,8');
		assert.equal(await player.text('#status'), 'Black to move');
		await assertTools(player, { undo: 'enabled', redo: 'enabled' }, 'after two undos');
		await player.page.click('#redo');
		await player.waitForMoves(3);
		assert.equal(await player.boardData('last'), '6,7');
		assert.equal(await player.text('#status'), 'White to move');

		// A new move instead of the one left to redo: nothing to redo.
		await playLocal(player, 4, 0, 0);
		await assertTools(player, { undo: 'enabled', redo: 'disabled' }, 'after a new move');
		const game = [
			{ role: 'front', x: 7, y: 7 }, { role: 'back', x: 7, y: 8 }, { role: 'front', x: 6, y: 7 },
			{ role: 'back', x: 0, y: 0 }, { role: 'front', x: 5, y: 7 }, { role: 'back', x: 1, y: 0 },
			{ role: 'front', x: 4, y: 7 }, { role: 'back', x: 2, y: 0 }, { role: 'front', x: 3, y: 7 },
		];
		for (let i = 4; i < game.length; i++)
			await playLocal(player, i + 1, game[i].x, game[i].y);

		await player.waitFor({ state: 'over', result: 'win', kind: 'local' });
		assert.equal(await player.text('#status'), 'Black wins!');
		assert.equal(await player.board(), boardAfter(game));
		assert.equal(await player.boardData('line'), '3,7 4,7 5,7 6,7 7,7');
		assert.equal(await player.text('#note'), 'Five in a row: D8 – H8');
		assert.equal(await player.text('#main-text'), 'Play again');
		await assertTools(player, { undo: 'enabled', redo: 'disabled' }, 'after the five');
		await player.assertFits('local game over');
		await player.screenshot('desktop-9-local-won');

		// A click on the board after the end does nothing.
		await player.clickCell(10, 10);
		assert.equal(await player.boardData('moves'), String(game.length));

		// Undo reopens the game; redo ends it again.
		await player.page.click('#undo');
		await player.waitFor({ state: 'playing', live: 'true' });
		assert.equal(await player.boardData('line'), '');
		assert.equal(await player.text('#status'), 'Black to move');
		await player.page.click('#redo');
		await player.waitFor({ state: 'over', result: 'win' });
		assert.equal(await player.boardData('line'), '3,7 4,7 5,7 6,7 7,7');

		// "Play again" starts a fresh local game.
		await player.page.click('#main');
		await player.waitFor({ state: 'playing', kind: 'local' });
		assert.equal(await player.boardData('moves'), '0');
		await player.page.click('#cancel');
		await player.waitFor({ state: 'idle', kind: '' });

		assert.equal(player.sockets, 0, 'expected a local game to open no WebSocket');
		assert.deepEqual(player.sentFrames, []);
		assert.equal((await server.health()).connections, 0);
	});
});
