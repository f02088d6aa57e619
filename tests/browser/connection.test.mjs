// Leaving, reloading and losing the connection, in real browsers against
// the real server (reconnect grace 0: a socket that closes mid-game
// forfeits it at once; a new connection with the uid of a seat whose old
// socket is still open takes the seat over).
//
// To drop a page's socket without the server noticing (a phone changing
// networks), or the other way round, a test loads the page through a TCP
// proxy (lib/proxy.mjs) and cuts one side of the connection.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { connectPlayer } from '../integration/lib/client.mjs';
import {
	useBrowser, matchPlayers, playMoves, boardAfter, WAIT_MS, launchBrowser, openPlayer as openPlayerOn, closePlayers,
} from './lib/browser.mjs';
import { startProxy } from './lib/proxy.mjs';
import { RestartableServer } from '../integration/lib/resume.mjs';
import { testTimeout, scaled, sleep } from '../integration/lib/time.mjs';

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

/** Polls /healthz until check(health) holds, failing with why after WAIT_MS (scaled for a busy machine). */
async function waitForHealth(server, check, why) {
	const deadline = Date.now() + WAIT_MS;
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

/** The names and colours of player's two cards. */
function cardsOf(player) {
	return player.page.evaluate(() => ['me', 'opponent'].map((id) => {
		const card = document.getElementById(id);
		return { name: card.querySelector('.name').textContent, role: card.querySelector('.role').textContent };
	}));
}

/** Asserts that the reconnecting notice is shown and clear of the board's centre point. */
async function assertCentreClear(player) {
	const { veil, centre } = await player.page.evaluate(() => {
		const board = document.getElementById('board').getBoundingClientRect();
		const shown = document.getElementById('veil');
		const rect = shown.hidden ? null : shown.getBoundingClientRect();
		return {
			veil: rect && { left: rect.left, right: rect.right, top: rect.top, bottom: rect.bottom },
			centre: { x: board.left + board.width / 2, y: board.top + board.height / 2 },
		};
	});
	assert.ok(veil, 'expected the reconnecting notice over the board');
	const covers = centre.x >= veil.left && centre.x <= veil.right && centre.y >= veil.top && centre.y <= veil.bottom;
	assert.ok(!covers, `expected the board's centre ${JSON.stringify(centre)} clear of the notice ${JSON.stringify(veil)}`);
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
	const { server, openPlayer, openTab } = useBrowser({ args: ['--reconnect-grace', '0'] }, {
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

	it('after a reload mid-game shows the game the server kept, or says it is gone (never a result of its own), never a wrong board', T, async () => {
		const reloads = await openPlayer({ device: 'phone', label: 'player who reloads' });
		const stays = await openPlayer({ label: 'player who stays' });
		const pair = await matchPlayers(reloads, stays);
		await playMoves(pair, OPENING);
		const board = boardAfter(OPENING);

		await recordBoards(reloads);
		await reloads.page.reload();
		await reloads.page.waitForSelector('#app[data-state="idle"][data-notice="gone"], #app[data-state="playing"][data-live="true"]',
			{ timeout: WAIT_MS });
		if (await reloads.app('state') === 'idle') {
			// This server forfeits at once when the old page's socket closes.
			assert.equal(await reloads.app('notice'), 'gone');
			assert.equal(await reloads.text('#status'), 'That game is no longer on the server: it ended while you were away.');
			assert.equal(await reloads.board(), boardAfter([]), 'expected no board for a game gone');
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

	it('reconnects after the socket drops and takes the seat back, the cards and the board\'s centre kept in view meanwhile', T, async () => {
		proxy = await startProxy(server.port);
		const drops = await openPlayer({ device: 'phone', label: 'player whose socket drops', url: proxy.httpUrl });
		const stays = await openPlayer({ label: 'player who stays' });
		const pair = await matchPlayers(drops, stays);
		await playMoves(pair, OPENING.slice(0, 3));
		const cards = await cardsOf(drops);

		// The proxy holds the reconnects back, so the page stays in its
		// reconnecting state long enough to be looked at.
		drops.allowSocketFailures();
		proxy.pause();
		proxy.drop(proxy.sockets()[0]);
		await drops.waitFor({ link: 'retrying' });
		assert.equal(await drops.app('live'), 'false', 'expected the board not live while reconnecting');
		assert.deepEqual(await cardsOf(drops), cards, 'expected the names and colours kept while reconnecting');
		await assertCentreClear(drops);
		await drops.screenshot('phone-5-reconnecting');
		proxy.resume();
		await drops.waitFor({ state: 'playing', live: 'true', link: 'open' });
		assert.equal(proxy.sockets().length, 2, 'expected one reconnect through');
		assert.ok(drops.sockets >= 2, 'expected the page to have tried again (the tries refused count too)');
		assert.equal(await drops.board(), boardAfter(OPENING.slice(0, 3)));
		assert.equal(await stays.app('state'), 'playing');
		await playMoves(pair, [OPENING[3], ...TO_FIVE], 3);
		await pair.front.waitFor({ state: 'over', result: 'win' });
	});

	it('says the game is gone, declaring no result, when the server ended it while the socket was down', T, async () => {
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
		await drops.waitFor({ state: 'idle', notice: 'gone', link: 'closed' });
		assert.equal(await drops.text('#status'), 'That game is no longer on the server: it ended while you were away.');
		assert.equal(await drops.app('result'), '', 'expected no result the server did not send');
		assert.equal(await drops.text('#main-text'), 'Find opponent');
		assert.equal(proxy.sockets().length, 2, 'expected one reconnect');
		// The page left the queue at once: nobody is waiting.
		await waitForHealth(server, (health) => health.players_waiting === 0,
			'expected the lost page not to stay queued');
		await drops.screenshot('desktop-6-game-lost');
	});

	it('two tabs of one player: the newer takes the game over, the older says so, never starts a player by itself, and "Continue here" takes it back', T, async () => {
		const one = await openPlayer({ label: 'first tab' });
		const two = await openPlayer({ label: 'opponent' });
		const pair = await matchPlayers(one, two);
		await playMoves(pair, OPENING.slice(0, 1));
		const board = boardAfter(OPENING.slice(0, 1));
		const uid = await one.page.evaluate(() => localStorage.getItem('gomoku.uid'));

		// A second tab of the same browser: the same player, who resumes the game.
		const second = await openTab(one, 'second tab');
		await second.waitFor({ state: 'playing', live: 'true' });
		assert.equal(await second.board(), board);
		await one.waitFor({ state: 'elsewhere', link: 'closed' });
		assert.equal(await one.text('#status'), 'This game continues in another tab.');
		assert.equal(await one.text('#main-text'), 'Continue here');
		assert.equal(await one.board(), board, 'expected the first tab to keep showing the game');
		await one.screenshot('desktop-5-elsewhere');
		// Absence of a reconnect: the first retry would come after 0.5 s.
		await new Promise((resolve) => setTimeout(resolve, 1500));
		assert.equal(one.sockets, 1, 'expected no reconnect of its own after 4001');
		assert.equal(await one.app('state'), 'elsewhere');
		assert.equal(await one.page.evaluate(() => localStorage.getItem('gomoku.uid')), uid, 'expected the same player');
		assert.equal(await second.app('state'), 'playing', 'expected the second tab to keep the game');

		// Continue here: the first tab takes it back, the second says so.
		await one.page.click('#main');
		await one.waitFor({ state: 'playing', live: 'true' });
		await second.waitFor({ state: 'elsewhere' });
		assert.equal(await one.board(), board);
		await playMoves(pair, OPENING.slice(1, 2), 1);
		assert.equal(await two.app('state'), 'playing');
	});
});

describe('the game outlives the page and the server', () => {
	let proxy;
	// Long enough for a tab to be reopened; the games the tests leave go
	// once it has run out, before the next test.
	const GRACE_S = 8;
	const { server, openPlayer, openTab } = useBrowser({ args: ['--reconnect-grace', String(GRACE_S)] }, {
		settleTimeoutMs: scaled(GRACE_S * 1000 + 5000),
		afterPlayers: async () => {
			await proxy?.close();
			proxy = null;
		},
	});

	it('reopening the site after closing its tab mid-game resumes the game', T, async () => {
		const leaves = await openPlayer({ label: 'player who closes the tab' });
		const stays = await openPlayer({ label: 'player who stays' });
		const pair = await matchPlayers(leaves, stays);
		await playMoves(pair, OPENING);
		const role = await leaves.app('role');
		// The tab closes, its socket too; the browser (its storage) stays.
		await leaves.page.close();
		const again = await openTab(leaves, 'the site reopened');
		await again.waitFor({ state: 'playing', live: 'true' });
		assert.equal(await again.app('role'), role);
		assert.equal(await again.board(), boardAfter(OPENING));
		assert.equal(await stays.app('state'), 'playing');
	});

	it('says "Cannot reach the server" at once when a first connection fails, and Try again connects', T, async () => {
		proxy = await startProxy(server.port);
		const player = await openPlayer({ label: 'player with the server out of reach', url: proxy.httpUrl });
		player.allowSocketFailures();
		proxy.pause();
		await player.page.click('#main');
		await player.waitFor({ state: 'idle', notice: 'unreachable' });
		assert.equal(await player.text('#status'), 'Cannot reach the server.');
		assert.equal(await player.text('#main-text'), 'Try again');
		assert.equal(player.sockets, 1, 'expected no retry of a first connection');
		proxy.resume();
		await player.page.click('#main');
		await player.waitFor({ state: 'searching', link: 'open' });
	});
});

describe('a server outage longer than the old retry schedule', () => {
	// The pages used to give up after 31.5 s and call the game lost; the
	// server, once back, restores it from its journal.
	const OUTAGE_MS = 35_000;
	const players = [];
	let browser = null;
	let restartable = null;

	before(async () => {
		browser = await launchBrowser();
	});
	after(async () => {
		try {
			await closePlayers(players);
		} finally {
			await browser?.close();
			await restartable?.stop();
		}
	});

	it('keeps both pages retrying every 5 s with a countdown, declaring nothing, and resumes the game the restarted server restored', testTimeout(150_000), async () => {
		restartable = new RestartableServer({ args: ['--reconnect-grace', '30'] });
		let server = await restartable.start();
		for (const [device, label] of [['desktop', 'player one'], ['phone', 'player two']])
			players.push(await openPlayerOn(browser, server, { device, label }));
		const pair = await matchPlayers(...players);
		await playMoves(pair, OPENING);
		for (const player of players)
			player.allowSocketFailures();

		await restartable.kill();
		for (const player of players)
			await player.waitFor({ state: 'resuming', link: 'retrying' });
		await sleep(OUTAGE_MS);
		for (const player of players) {
			assert.equal(await player.app('state'), 'resuming', `expected ${player.label} still trying after ${OUTAGE_MS} ms`);
			assert.equal(await player.app('result'), '', 'expected no result the server did not send');
			assert.equal(await player.text('#status'), 'Server unreachable — retrying');
			assert.match(await player.text('#note'), /^Next try in [1-5] s$/);
			assert.equal(await player.board(), boardAfter(OPENING), 'expected the last position kept');
		}
		await players[1].screenshot('phone-6-server-unreachable');

		server = await restartable.start();
		for (const player of players)
			await player.waitFor({ state: 'playing', live: 'true' }, scaled(20_000));
		for (const player of players)
			assert.equal(await player.board(), boardAfter(OPENING));
		await playMoves(pair, TO_FIVE, OPENING.length);
		await pair.front.waitFor({ state: 'over', result: 'win' });
		await pair.back.waitFor({ state: 'over', result: 'loss' });
		assert.ok(server.port > 0);
	});
});
