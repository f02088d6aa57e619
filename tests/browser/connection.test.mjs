// Leaving, reloading and losing the connection, in real browsers against
// the real server (reconnect grace 0: a socket that closes mid-game
// forfeits it at once; a new connection with the uid of a seat whose old
// socket is still open takes the seat over).
//
// To drop a page's socket without the server noticing (a phone changing
// networks), or the other way round, a test loads the page through a TCP
// proxy (lib/proxy.mjs) and cuts one side of the connection.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { connectPlayer } from '../integration/lib/client.mjs';
import { useBrowser, matchPlayers, playMoves, boardAfter, WAIT_MS } from './lib/browser.mjs';
import { startProxy } from './lib/proxy.mjs';
import { testTimeout } from '../integration/lib/time.mjs';

const T = testTimeout(90_000);

const OPENING = [
	{ role: 'front', x: 7, y: 7 },
	{ role: 'back', x: 7, y: 6 },
	{ role: 'front', x: 8, y: 7 },
	{ role: 'back', x: 8, y: 6 },
];
// From OPENING on, black makes five on row 8 (A–O: F8 to J8).
const TO_FIVE = [
	{ role: 'front', x: 9, y: 7 },
	{ role: 'back', x: 9, y: 6 },
	{ role: 'front', x: 6, y: 7 },
	{ role: 'back', x: 10, y: 6 },
	{ role: 'front', x: 5, y: 7 },
];

/** Polls /healthz until check(health) holds, failing with why after 5 s. */
async function waitForHealth(server, check, why) {
	const deadline = Date.now() + 5000;
	let health = await server.health();
	while (!check(health)) {
		if (Date.now() > deadline)
			assert.fail(`${why}; /healthz says ${JSON.stringify(health)}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
		health = await server.health();
	}
}

/**
 * Records, in the page, every (state, live, board) the page shows from its
 * first script on, across reloads: window.boardLog.
 */
async function recordBoards(player) {
	await player.context.addInitScript(() => {
		window.boardLog = [];
		const record = () => {
			const app = document.getElementById('app');
			const board = document.getElementById('board');
			if (app && board)
				window.boardLog.push({ state: app.dataset.state, live: app.dataset.live, board: board.dataset.board });
		};
		new MutationObserver(record).observe(document, {
			subtree: true, attributes: true, attributeFilter: ['data-state', 'data-live', 'data-board'],
		});
	});
}

/** Asserts that every live board the page showed since its load is board. */
async function assertLiveBoardsWere(player, board, when) {
	const log = await player.page.evaluate(() => window.boardLog);
	const wrong = log.filter((entry) => entry.live === 'true' && entry.board !== board);
	assert.deepEqual(wrong, [], `expected ${player.label} to show no live board but the real one ${when}`);
}

describe('leaving, reloading and reconnecting', () => {
	let proxy;

	// What these tests expect of a dropped socket is this server's
	// default; the flag keeps them true if the default changes.
	const { server, openPlayer } = useBrowser({ args: ['--reconnect-grace', '0'] }, {
		afterPlayers: async () => {
			await proxy?.close();
			proxy = null;
		},
	});

	it('tells the other player that the opponent left when a page closes mid-game', T, async () => {
		const stays = await openPlayer({ label: 'player who stays' });
		const leaves = await openPlayer({ device: 'phone', label: 'player who leaves' });
		const pair = await matchPlayers(stays, leaves);
		await playMoves(pair, OPENING.slice(0, 3));

		await leaves.close();
		await stays.waitFor({ state: 'over', result: 'win' });
		assert.equal(await stays.text('#status'), 'You win — your opponent left.');
		assert.equal(await stays.page.getAttribute('#opponent', 'data-left'), 'true');
		assert.equal(await stays.text('#main-text'), 'Play again');
		assert.equal(await stays.board(), boardAfter(OPENING.slice(0, 3)), 'expected the board kept as it was');
		await stays.screenshot('desktop-5-opponent-left');

		await stays.page.click('#main');
		await stays.waitFor({ state: 'searching' });
	});

	it('tells the winner that the loser left after the game ended', T, async () => {
		const one = await openPlayer({ label: 'player one' });
		const two = await openPlayer({ label: 'player two' });
		const pair = await matchPlayers(one, two);
		await playMoves(pair, [...OPENING, ...TO_FIVE]);
		await pair.front.waitFor({ state: 'over', result: 'win' });
		await pair.back.waitFor({ state: 'over', result: 'loss' });

		await pair.back.close();
		await pair.front.page.waitForSelector('#opponent[data-left="true"]');
		assert.equal(await pair.front.text('#status'), 'You win!');
		assert.equal(await pair.front.text('#note'), 'Your opponent has left.');
		assert.equal(await pair.front.boardData('line'), '5,7 6,7 7,7 8,7 9,7');
	});

	it('after a reload mid-game shows the game the server kept, or says it is lost, never a wrong board', T, async () => {
		const reloads = await openPlayer({ device: 'phone', label: 'player who reloads' });
		const stays = await openPlayer({ label: 'player who stays' });
		const pair = await matchPlayers(reloads, stays);
		await playMoves(pair, OPENING);
		const board = boardAfter(OPENING);

		await recordBoards(reloads);
		await reloads.page.reload();
		await reloads.page.waitForSelector('#app[data-state="over"], #app[data-state="playing"][data-live="true"]',
			{ timeout: WAIT_MS });
		if (await reloads.app('state') === 'over') {
			// This server forfeits at once when the old page's socket closes.
			assert.equal(await reloads.app('result'), 'lost');
			assert.equal(await reloads.text('#status'), 'Connection lost — the game is lost.');
			assert.equal(await reloads.board(), boardAfter([]), 'expected no board for a lost game');
			await stays.waitFor({ state: 'over', result: 'win' });
			assert.equal(await stays.text('#status'), 'You win — your opponent left.');
			await reloads.page.waitForSelector('#app[data-link="closed"]');
			await reloads.screenshot('phone-5-game-lost');
		} else {
			// The new page's socket came first and took the seat over.
			assert.equal(await reloads.board(), board);
			assert.equal(await stays.app('state'), 'playing');
		}
		await assertLiveBoardsWere(reloads, board, 'after the reload');
	});

	it('resumes the seat after a reload when the server still holds it, and plays on', T, async () => {
		proxy = await startProxy(server.port);
		const reloads = await openPlayer({ label: 'player who reloads', url: proxy.httpUrl });
		const stays = await openPlayer({ device: 'phone', label: 'player who stays' });
		const pair = await matchPlayers(reloads, stays);
		await playMoves(pair, OPENING);
		const role = await reloads.app('role');

		// The old page's close never reaches the server: it still holds the
		// seat when the new page connects, which takes it over.
		await recordBoards(reloads);
		proxy.freeze(proxy.sockets()[0]);
		await reloads.page.reload();
		await reloads.waitFor({ state: 'playing', live: 'true' });
		assert.equal(proxy.sockets().length, 2, 'expected the reloaded page to open one new socket');
		assert.equal(await reloads.app('role'), role, 'expected the same side after the reload');
		assert.equal(await reloads.board(), boardAfter(OPENING));
		assert.equal(await reloads.boardData('last'), '8,6');
		assert.equal(await stays.app('state'), 'playing', 'expected the other player to go on playing');
		await reloads.page.waitForSelector('#toast.show');
		assert.equal(await reloads.text('#toast'), 'Reconnected — your game goes on.');
		await assertLiveBoardsWere(reloads, boardAfter(OPENING), 'after the reload');

		await playMoves(pair, TO_FIVE, OPENING.length);
		await pair.front.waitFor({ state: 'over', result: 'win' });
		await pair.back.waitFor({ state: 'over', result: 'loss' });
	});

	it('reconnects after the socket drops and takes the seat back', T, async () => {
		proxy = await startProxy(server.port);
		const drops = await openPlayer({ device: 'phone', label: 'player whose socket drops', url: proxy.httpUrl });
		const stays = await openPlayer({ label: 'player who stays' });
		const pair = await matchPlayers(drops, stays);
		await playMoves(pair, OPENING.slice(0, 3));

		proxy.drop(proxy.sockets()[0]);
		await drops.waitFor({ link: 'retrying' });
		assert.equal(await drops.app('live'), 'false', 'expected the board not live while reconnecting');
		await drops.waitFor({ state: 'playing', live: 'true', link: 'open' });
		assert.equal(proxy.sockets().length, 2, 'expected one reconnect');
		assert.equal(drops.sockets, 2);
		assert.equal(await drops.board(), boardAfter(OPENING.slice(0, 3)));
		assert.equal(await stays.app('state'), 'playing');
		await playMoves(pair, [OPENING[3], ...TO_FIVE], 3);
		await pair.front.waitFor({ state: 'over', result: 'win' });
	});

	it('says the game is lost when the server ended it while the socket was down', T, async () => {
		proxy = await startProxy(server.port);
		const drops = await openPlayer({ label: 'player whose socket drops', url: proxy.httpUrl });
		const stays = await openPlayer({ label: 'player who stays' });
		const pair = await matchPlayers(drops, stays);
		await playMoves(pair, OPENING.slice(0, 2));

		// The server sees the player go first and forfeits the game; then
		// the page notices, reconnects, and is only queued anew.
		const link = proxy.sockets()[0];
		proxy.cutServer(link);
		await stays.waitFor({ state: 'over', result: 'win' });
		link.client.destroy();
		await drops.waitFor({ state: 'over', result: 'lost', link: 'closed' });
		assert.equal(await drops.text('#status'), 'Connection lost — the game is lost.');
		assert.equal(await drops.text('#main-text'), 'Play again');
		assert.equal(proxy.sockets().length, 2, 'expected one reconnect');
		// The page left the queue at once: nobody is waiting.
		await waitForHealth(server, (health) => health.players_waiting === 0,
			'expected the lost page not to stay queued');
		await drops.screenshot('desktop-6-game-lost');
	});

	it('stops and says so when another tab takes the seat (close 4001), then plays again as a new player', T, async () => {
		const one = await openPlayer({ label: 'player one' });
		const two = await openPlayer({ label: 'player two' });
		const pair = await matchPlayers(one, two);
		await playMoves(pair, OPENING.slice(0, 1));

		const uid = await one.page.evaluate(() => sessionStorage.getItem('gomoku.uid'));
		const otherTab = await connectPlayer(server, { uid }, { label: 'other tab' });
		await otherTab.next('welcome');
		await otherTab.next('role');
		await one.waitFor({ state: 'over', result: 'replaced', link: 'closed' });
		assert.equal(await one.text('#status'), 'This game was opened in another tab or window.');
		// Absence of a reconnect: the first retry would come after 0.5 s.
		await new Promise((resolve) => setTimeout(resolve, 1500));
		assert.equal(one.sockets, 1, 'expected no reconnect after 4001');
		assert.equal(await one.app('state'), 'over');
		const newUid = await one.page.evaluate(() => sessionStorage.getItem('gomoku.uid'));
		assert.notEqual(newUid, uid, 'expected the tab to take a new uid');

		await one.page.click('#main');
		await one.waitFor({ state: 'searching', link: 'open' });
		assert.equal(otherTab.isOpen, true, 'expected the other tab to keep the seat');
		assert.equal(await two.app('state'), 'playing');
	});
});
