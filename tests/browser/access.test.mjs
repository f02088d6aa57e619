// Everyone can play: what a screen reader gets, read from Chromium's own
// accessibility tree (the DevTools protocol's Accessibility domain): the
// board's role and its description of the position, the polite live
// region that says every move, the keyboard cursor's point and, on the M
// key, the last moves; the status line (whose turn, the result) is a
// live region of its own.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser, matchPlayers, playMoves } from './lib/browser.mjs';
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
	const deadline = Date.now() + 10_000;
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
