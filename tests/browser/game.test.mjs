// A whole game in two real browsers, one on a desktop and one on a phone:
// they find each other, see their roles, play by clicking (and tapping)
// the canvas until five, both see the result and the highlighted five, and
// the loser's "Play again" starts a new search. Screenshots of the start,
// playing and end states on both sizes go to tests/artifacts/ (the
// searching ones come from page.test.mjs).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser, matchPlayers, playMoves, boardAfter } from './lib/browser.mjs';
import { SHORT_GAME, SHORT_GAME_FIVE } from './lib/short-game.mjs';
import { testTimeout } from '../integration/lib/time.mjs';

const T = testTimeout(90_000);

describe('a whole game in the browser', () => {
	const { server, openPlayer } = useBrowser();

	it('matches two players, plays to five by clicking and tapping, shows the result and the five, and lets the loser search again', T, async () => {
		const desktop = await openPlayer({ device: 'desktop', label: 'desktop player' });
		const phone = await openPlayer({ device: 'phone', label: 'phone player' });

		for (const player of [desktop, phone]) {
			assert.equal(await player.app('state'), 'idle');
			assert.equal(await player.text('#main-text'), 'Find opponent');
			await player.assertFits('idle');
			await player.screenshot(`${player.device}-1-start`);
		}

		await desktop.page.click('#main');
		await desktop.waitFor({ state: 'searching' });
		assert.equal(await desktop.text('#status'), 'Looking for an opponent…');
		assert.equal(await desktop.page.isVisible('#cancel'), true, 'expected a Cancel button while searching');
		await desktop.assertFits('searching');

		await phone.pressButton('#main');
		await desktop.waitFor({ state: 'playing' });
		await phone.waitFor({ state: 'playing' });

		const roles = { desktop: await desktop.app('role'), phone: await phone.app('role') };
		assert.deepEqual(Object.values(roles).sort(), ['back', 'front'],
			`expected one black and one white player, got ${JSON.stringify(roles)}`);
		const byRole = roles.desktop === 'front' ? { front: desktop, back: phone } : { front: phone, back: desktop };
		for (const [role, player] of Object.entries(byRole)) {
			const other = role === 'front' ? 'back' : 'front';
			assert.equal(await player.page.getAttribute('#me .stone', 'data-role'), role,
				`expected ${player.label}'s own card to show the ${role} stone`);
			assert.equal(await player.page.getAttribute('#opponent .stone', 'data-role'), other);
			assert.equal(await player.text('#me .role'), role === 'front' ? 'Black' : 'White');
			assert.equal(await player.app('turn'), role === 'front' ? 'me' : 'opponent');
			assert.equal(await player.page.getAttribute(role === 'front' ? '#me' : '#opponent', 'data-turn'), 'true',
				'expected the turn indicator on black\'s card first');
			assert.equal(await player.text('#status'), role === 'front' ? 'Your turn' : 'Opponent’s turn');
		}

		await playMoves(byRole, SHORT_GAME.slice(0, 6));
		for (const player of [desktop, phone]) {
			assert.equal(await player.board(), boardAfter(SHORT_GAME.slice(0, 6)),
				`expected ${player.label} to show the six moves played`);
			assert.equal(await player.boardData('last'), '9,9', 'expected the last move to be marked');
			await player.assertFits('playing');
			await player.screenshot(`${player.device}-3-playing`);
		}

		await playMoves(byRole, SHORT_GAME.slice(6), 6);
		await byRole.front.waitFor({ state: 'over', result: 'win' });
		await byRole.back.waitFor({ state: 'over', result: 'loss' });
		assert.equal(await byRole.front.text('#status'), 'You win!');
		assert.equal(await byRole.back.text('#status'), 'You lose.');
		for (const player of [desktop, phone]) {
			assert.equal(await player.board(), boardAfter(SHORT_GAME), `expected ${player.label} to show the final board`);
			assert.equal(await player.boardData('line'), SHORT_GAME_FIVE, `expected ${player.label} to highlight the five`);
			assert.equal(await player.text('#note'), 'Five in a row: E11 – I7');
			assert.equal(await player.text('#rule'), 'Freestyle: five or more in a row wins.');
			assert.equal(await player.boardData('stones'), String(SHORT_GAME.length));
			// Beside a rematch (protocol 2), "Play again" finds a new opponent.
			assert.equal(await player.text('#main-text'),
				await player.app('protocol') === '2' ? 'New opponent' : 'Play again');
			await player.assertFits('over');
			await player.screenshot(`${player.device}-4-over-${player === byRole.front ? 'won' : 'lost'}`);
		}

		// Every move went out as exactly one move request from the right page.
		for (const [role, player] of Object.entries(byRole))
			assert.deepEqual(player.sentMoves(), SHORT_GAME.filter((move) => move.role === role).map(({ x, y }) => ({ type: 'move', x, y })),
				`expected ${player.label} to have sent exactly its own moves`);

		// The loser plays again: a new search, the board cleared.
		const loser = byRole.back;
		await loser.pressButton('#main');
		await loser.waitFor({ state: 'searching' });
		assert.equal(await loser.board(), boardAfter([]), 'expected a cleared board for the new search');
		assert.equal(await loser.boardData('line'), '');
		await loser.assertFits('searching');

		// The winner plays again too: the two are matched anew.
		await byRole.front.page.click('#main');
		await byRole.front.waitFor({ state: 'playing' });
		await loser.waitFor({ state: 'playing' });
		assert.equal(await byRole.front.boardData('moves'), '0');
	});

	it('cancels a search, and finds an opponent again afterwards', T, async () => {
		const first = await openPlayer({ label: 'first player' });
		await first.page.click('#main');
		await first.waitFor({ state: 'searching', link: 'open' });
		await first.page.click('#cancel');
		await first.waitFor({ state: 'idle' });
		assert.equal(await first.page.isVisible('#cancel'), false);
		await server.settle();

		const second = await openPlayer({ label: 'second player' });
		await matchPlayers(first, second);
	});

	it('shows both names, remembers the name, and leaves names out when none is given', T, async () => {
		const ada = await openPlayer({ label: 'Ada' });
		const anon = await openPlayer({ device: 'phone', label: 'anonymous' });
		await ada.page.fill('#name', '  Ada Lovelace  ');
		await ada.page.locator('#name').blur();
		assert.equal(await ada.page.inputValue('#name'), 'Ada Lovelace');
		assert.equal(await ada.text('#me .name'), 'Ada Lovelace');
		await matchPlayers(ada, anon);
		assert.equal(await anon.text('#opponent .name'), 'Ada Lovelace');
		assert.equal(await ada.text('#opponent .name'), 'Opponent');
		assert.equal(await anon.text('#me .name'), 'Guest', 'expected no "YOU You" on the card');
		assert.equal(await ada.text('#me .tag'), 'you');

		await ada.page.reload();
		await ada.page.waitForSelector('#app[data-lang]');
		assert.equal(await ada.page.inputValue('#name'), 'Ada Lovelace', 'expected the name to be remembered');
	});
});
