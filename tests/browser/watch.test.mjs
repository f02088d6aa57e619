// Watching and replaying in real browsers: a third page opens a live game
// from the start screen's lobby (its Watch button), sees the players'
// names, clocks and emotes and every move as it comes, places nothing
// and sends nothing, and sees the end; the players see that one watches.
// A finished game is replayed move by move from its /#game/ID link (the
// buttons, the arrow keys, the move list, the numbers on the stones and
// the share link). Screenshots go to tests/artifacts/ (desktop-watch-*,
// phone-watch-*).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser, matchPlayers, playMoves, boardAfter, WAIT_MS } from './lib/browser.mjs';
import { SHORT_GAME, SHORT_GAME_FIVE, SHORT_GAME_LIST, moveList, lastGameId } from './lib/short-game.mjs';
import { testTimeout } from '../integration/lib/time.mjs';

const T = testTimeout(120_000);


/** Two players named Ann and Bo, matched in the 3+2 pool: {front, back}. */
async function namedPair(openPlayer) {
	const one = await openPlayer({ label: 'Ann' });
	const two = await openPlayer({ label: 'Bo' });
	for (const [player, name] of [[one, 'Ann'], [two, 'Bo']]) {
		await player.page.fill('#name', name);
		await player.page.selectOption('#pool-tc', '180+2');
	}
	return matchPlayers(one, two);
}

/** The name shown on a card of a spectator's page. */
function cardName(player, card) {
	return player.text(`#${card} .name`);
}

describe('watching and replaying', () => {
	const { server, openPlayer } = useBrowser();

	it('lets a third page watch a live game from the lobby to its end, seeing the same moves and placing nothing', T, async () => {
		const pair = await namedPair(openPlayer);
		await playMoves(pair, SHORT_GAME.slice(0, 3));
		const names = { front: await pair.front.page.inputValue('#name'), back: await pair.back.page.inputValue('#name') };

		const watchers = [];
		for (const device of ['desktop', 'phone']) {
			const watcher = await openPlayer({ device, label: `${device} spectator` });
			await watcher.page.waitForSelector('#lobby-rooms button[data-room]', { timeout: WAIT_MS });
			const row = await watcher.text('#lobby-rooms .lobby-room');
			assert.match(row, new RegExp(`${names.front} vs ${names.back}`), 'expected the players\' names in the lobby');
			assert.match(row, /15×15 · Freestyle · 3\+2 · 3 moves/, 'expected the pool and the moves in the lobby');
			await watcher.assertFits('idle, with a live game in the lobby');
			if (device === 'desktop')
				await watcher.screenshot('desktop-watch-lobby');
			await watcher.pressButton('#lobby-rooms button[data-room]');
			await watcher.waitFor({ screen: 'watch', watch: 'watching' });
			await watcher.waitForMoves(3);
			watchers.push(watcher);
		}
		const [desktop, phone] = watchers;

		for (const watcher of watchers) {
			assert.equal(await watcher.board(), boardAfter(SHORT_GAME.slice(0, 3)));
			assert.equal(await watcher.text('#banner'), 'Watching');
			assert.equal(await watcher.text('#status'), 'White to move');
			assert.equal(await cardName(watcher, 'me'), names.front);
			assert.equal(await cardName(watcher, 'opponent'), names.back);
			assert.equal(await watcher.page.getAttribute('#me', 'data-timed'), 'true', 'expected the clocks shown');
			assert.equal(await watcher.page.isVisible('#main'), false, 'expected no Find opponent while watching');
			// The moves before the spectator came, from the game's record.
			await watcher.page.waitForFunction(() => document.querySelectorAll('#move-list li').length === 3);
			assert.deepEqual(await moveList(watcher), SHORT_GAME_LIST.slice(0, 3));
		}
		await pair.front.page.waitForSelector('#app[data-spectators="2"]', { timeout: WAIT_MS });
		assert.equal(await pair.front.text('#spectators'), '2 watching');
		await pair.back.page.waitForSelector('#app[data-spectators="2"]', { timeout: WAIT_MS });

		// White's clock runs on the spectators' pages, counted down.
		const before = await desktop.text('#opponent .clock');
		await desktop.page.waitForFunction((shown) => document.querySelector('#opponent .clock').textContent !== shown,
			before, { timeout: WAIT_MS });
		assert.equal(await desktop.page.getAttribute('#opponent .clock', 'data-running'), 'true');

		// A click and the keys place nothing, and nothing is sent.
		await desktop.clickCell(0, 0);
		await desktop.page.keyboard.press('ArrowLeft');
		await desktop.page.keyboard.press('Enter');
		await phone.clickCell(0, 0);
		await pair.back.page.click('.emote[data-emote="gg"]');
		await desktop.page.waitForSelector('#opponent[data-emote="gg"]', { timeout: WAIT_MS });
		assert.equal(await desktop.text('#opponent .bubble'), 'Good game!');
		await phone.assertFits('watching');
		await phone.screenshot('phone-watch-live');
		await desktop.screenshot('desktop-watch-live');
		for (const watcher of watchers)
			assert.deepEqual(watcher.sentFrames.filter((frame) => JSON.parse(frame).type !== 'ping'), [],
				`expected ${watcher.label} to send nothing`);

		await playMoves(pair, SHORT_GAME.slice(3), 3);
		for (const watcher of watchers) {
			await watcher.waitFor({ screen: 'watch', watch: 'over' });
			assert.equal(await watcher.board(), await pair.front.board(), 'expected the players\' board');
			assert.equal(await watcher.board(), boardAfter(SHORT_GAME));
			assert.equal(await watcher.boardData('line'), SHORT_GAME_FIVE);
			assert.equal(await watcher.text('#status'), 'Black wins.');
			assert.equal(await watcher.text('#note'), 'Five in a row.');
			assert.deepEqual(await moveList(watcher), SHORT_GAME_LIST);
			assert.equal(await watcher.page.isVisible('#replay'), true, 'expected a Replay button after the end');
			assert.deepEqual(watcher.sentFrames.filter((frame) => JSON.parse(frame).type !== 'ping'), []);
		}
		await phone.assertFits('watching, over');
		await phone.screenshot('phone-watch-over');
		await desktop.screenshot('desktop-watch-over');

		// Back to the start screen.
		await desktop.page.click('#leave-view');
		await desktop.waitFor({ screen: 'play', state: 'idle' });
		assert.equal(await desktop.page.isVisible('#main'), true);
	});

	it('replays a finished game move by move from its link, with the keys, the buttons and the move list', T, async () => {
		const pair = await namedPair(openPlayer);
		await playMoves(pair, SHORT_GAME);
		await pair.front.waitFor({ state: 'over', result: 'win' });
		const id = await lastGameId(server);
		const link = `${server.httpUrl}/#game/${id}`;

		// The winner's own Replay button opens the same replay.
		assert.equal(await pair.front.page.isVisible('#replay'), true, 'expected Replay after the game');
		await pair.front.page.click('#replay');
		await pair.front.waitFor({ screen: 'replay', 'replay-at': '11' });
		assert.equal(await pair.front.page.inputValue('#share-link'), link);
		await pair.front.page.click('#leave-view');
		await pair.front.waitFor({ screen: 'play', state: 'over' });

		for (const device of ['desktop', 'phone']) {
			const viewer = await openPlayer({ device, label: `${device} viewer` });
			await viewer.page.goto('about:blank');
			await viewer.page.goto(link);
			await viewer.waitFor({ screen: 'replay', 'replay-at': '11' });
			assert.equal(await viewer.board(), boardAfter(SHORT_GAME));
			assert.equal(await viewer.boardData('line'), SHORT_GAME_FIVE);
			assert.equal(await viewer.text('#banner'), 'Replay');
			assert.equal(await viewer.text('#status'), 'Black wins.');
			assert.deepEqual(await moveList(viewer), SHORT_GAME_LIST);
			assert.equal(await viewer.page.inputValue('#share-link'), link);
			await viewer.assertFits('replay');

			if (device === 'desktop') {
				// The keys: up to the start, then right move by move.
				await viewer.page.keyboard.press('ArrowUp');
				await viewer.waitFor({ 'replay-at': '0' });
				assert.equal(await viewer.board(), boardAfter([]));
				for (let at = 1; at <= SHORT_GAME.length; at++) {
					await viewer.page.keyboard.press('ArrowRight');
					await viewer.waitFor({ 'replay-at': String(at) });
					assert.equal(await viewer.board(), boardAfter(SHORT_GAME.slice(0, at)), `expected the board after move ${at}`);
					assert.equal(await viewer.boardData('last'), `${SHORT_GAME[at - 1].x},${SHORT_GAME[at - 1].y}`);
					assert.equal(await viewer.page.getAttribute('#move-list li[aria-current]', 'data-number'), String(at));
				}
				await viewer.page.keyboard.press('ArrowLeft');
				await viewer.waitFor({ 'replay-at': '10' });
				assert.equal(await viewer.text('#status'), 'Move 10 of 11');
				await viewer.page.keyboard.press('ArrowDown');
				await viewer.waitFor({ 'replay-at': '11' });
			}

			// The buttons.
			await viewer.pressButton('#replay-first');
			await viewer.waitFor({ 'replay-at': '0' });
			assert.equal(await viewer.page.isDisabled('#replay-back'), true);
			await viewer.pressButton('#replay-forward');
			await viewer.pressButton('#replay-forward');
			await viewer.waitFor({ 'replay-at': '2' });
			assert.equal(await viewer.board(), boardAfter(SHORT_GAME.slice(0, 2)));
			await viewer.pressButton('#replay-back');
			await viewer.waitFor({ 'replay-at': '1' });
			await viewer.pressButton('#move-list li[data-number="5"]');
			await viewer.waitFor({ 'replay-at': '5' });
			assert.equal(await viewer.board(), boardAfter(SHORT_GAME.slice(0, 5)));
			await viewer.pressButton('#replay-last');
			await viewer.waitFor({ 'replay-at': '11' });
			assert.equal(await viewer.page.isDisabled('#replay-forward'), true);

			// The numbers on the stones: drawn, and remembered.
			const plain = await viewer.page.locator('#board').screenshot({ animations: 'disabled' });
			await viewer.pressButton('#numbers');
			await viewer.page.waitForSelector('#numbers[aria-pressed="true"]');
			const numbered = await viewer.page.locator('#board').screenshot({ animations: 'disabled' });
			assert.ok(!plain.equals(numbered), 'expected the numbers drawn on the stones');
			await viewer.page.reload();
			await viewer.waitFor({ screen: 'replay', 'replay-at': '11' });
			assert.equal(await viewer.page.getAttribute('#numbers', 'aria-pressed'), 'true', 'expected the switch remembered');
			await viewer.assertFits('replay, numbers shown');
			await viewer.screenshot(`${device}-watch-replay`);

			// The share link's copy button says what it did.
			await viewer.pressButton('#copy-link');
			await viewer.page.waitForSelector('#toast.show', { timeout: WAIT_MS });
			assert.ok(['copied', 'copy_failed'].includes(await viewer.page.getAttribute('#toast', 'data-code')));
			assert.deepEqual(viewer.sentFrames, [], 'expected a replay to open no socket');
		}
	});
});
