// With a reconnect grace (--reconnect-grace, 30 s by default; 3 s here):
// a page that goes away mid-game keeps its seat for the grace. The other
// player sees the countdown; a reload takes the seat back and plays on; a
// page that never comes back loses by forfeit when the grace runs out.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser, matchPlayers, playMoves, boardAfter } from './lib/browser.mjs';
import { testTimeout } from '../integration/lib/time.mjs';

const T = testTimeout(60_000);
const GRACE_S = 3;

const OPENING = [
	{ role: 'front', x: 7, y: 7 },
	{ role: 'back', x: 7, y: 6 },
	{ role: 'front', x: 8, y: 7 },
];
const TO_FIVE = [
	{ role: 'back', x: 8, y: 6 },
	{ role: 'front', x: 9, y: 7 },
	{ role: 'back', x: 9, y: 6 },
	{ role: 'front', x: 6, y: 7 },
	{ role: 'back', x: 10, y: 6 },
	{ role: 'front', x: 5, y: 7 },
];

/** Waits until #note's text matches pattern. */
function noteMatches(player, pattern) {
	return player.page.waitForFunction((source) =>
		new RegExp(source).test(document.getElementById('note').textContent), pattern.source);
}

describe('the reconnect grace', () => {
	const { openPlayer } = useBrowser({ args: ['--reconnect-grace', String(GRACE_S)] },
		{ settleTimeoutMs: (GRACE_S + 5) * 1000 });

	it('keeps the seat through a reload: the page plays on, the opponent sees it away and back', T, async () => {
		const reloads = await openPlayer({ device: 'phone', label: 'player who reloads' });
		const stays = await openPlayer({ label: 'player who stays' });
		const pair = await matchPlayers(reloads, stays);
		await playMoves(pair, OPENING);
		const role = await reloads.app('role');

		await reloads.page.reload();
		await reloads.waitFor({ state: 'playing', live: 'true' });
		assert.equal(await reloads.app('role'), role);
		assert.equal(await reloads.board(), boardAfter(OPENING));
		await stays.page.waitForSelector('#toast.show[data-code="toast.back"]');
		assert.equal(await stays.app('state'), 'playing');
		await playMoves(pair, TO_FIVE, OPENING.length);
		await pair.front.waitFor({ state: 'over', result: 'win' });
		await pair.back.waitFor({ state: 'over', result: 'loss' });
	});

	it('counts down while the opponent is away, and ends the game when the grace runs out', T, async () => {
		const leaves = await openPlayer({ label: 'player who leaves' });
		const stays = await openPlayer({ device: 'phone', label: 'player who stays' });
		const pair = await matchPlayers(leaves, stays);
		await playMoves(pair, OPENING);

		await leaves.close();
		await noteMatches(stays, /^Opponent reconnecting… [0-3] s$/);
		assert.equal(await stays.app('state'), 'playing', 'expected the game to go on during the grace');
		await stays.screenshot('phone-6-opponent-away');
		await stays.waitFor({ state: 'over', result: 'win' }, (GRACE_S + 5) * 1000);
		assert.equal(await stays.text('#status'), 'You win — your opponent left.');
		assert.equal(await stays.board(), boardAfter(OPENING));
	});
});
