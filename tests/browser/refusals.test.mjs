// Clicks that must do nothing: out of turn, on an occupied point, off the
// board. Nothing is sent (the page's WebSocket frames are watched) and
// nothing changes (the board's data and the canvas's pixels). Also: the
// keyboard plays, and an error from the server is a toast that leaves the
// board as it was.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser, matchPlayers, playMoves, boardAfter } from './lib/browser.mjs';
import { testTimeout } from '../integration/lib/time.mjs';

const T = testTimeout(60_000);

/** A picture of the board canvas alone, as PNG bytes. */
function canvasPixels(player) {
	return player.page.locator('#board').screenshot({ animations: 'disabled' });
}

/**
 * The canvas once it has settled (two pictures in a row the same): a
 * page that was just matched may still be fitting its board, later on a
 * busy machine.
 */
async function settledPixels(player) {
	let last = await canvasPixels(player);
	for (let i = 0; i < 50; i++) {
		const now = await canvasPixels(player);
		if (now.equals(last))
			return now;
		last = now;
	}
	assert.fail(`expected ${player.label}'s board to settle`);
}

describe('clicks that do nothing', () => {
	const { server, openPlayer } = useBrowser();

	it('confirms a tap on a narrow touch screen by default: the first shows the stone, a second on it places it, one elsewhere moves it; the switch turns it off', T, async () => {
		const phone = await openPlayer({ device: 'phone', label: 'phone player', confirmTaps: true });
		const desktop = await openPlayer({ label: 'desktop player', confirmTaps: true });
		const { front, back } = await matchPlayers(phone, desktop);
		const tapper = front === phone ? front : back;
		if (back === phone)
			await playMoves({ front, back }, [{ role: 'front', x: 0, y: 0 }]);
		await tapper.waitFor({ turn: 'me' });
		assert.equal(await tapper.page.isVisible('#confirm-taps'), true, 'expected the switch on a touch screen');
		assert.equal(await tapper.page.getAttribute('#confirm-taps', 'aria-pressed'), 'true', 'expected it on by default under 400 px');
		assert.equal(await tapper.page.getAttribute('#confirm-taps', 'aria-label'), 'Tap twice to place a stone');
		const moves = Number(await tapper.boardData('moves'));
		const sent = tapper.sentMoves().length;
		await tapper.clickCell(5, 5);
		await tapper.page.waitForSelector('#board[data-tapped="5,5"]');
		await tapper.clickCell(6, 5);
		await tapper.page.waitForSelector('#board[data-tapped="6,5"]');
		assert.equal(tapper.sentMoves().length, sent, 'expected no move sent for a first tap');
		assert.equal(await tapper.boardData('moves'), String(moves));
		await tapper.screenshot('phone-11-tap-to-confirm');
		await tapper.clickCell(6, 5);
		await tapper.waitForMoves(moves + 1);
		assert.deepEqual(tapper.sentMoves().slice(sent), [{ type: 'move', x: 6, y: 5 }]);
		assert.equal(await tapper.boardData('tapped'), '');
		// Off: one tap places, and it is remembered.
		const other = tapper === front ? back : front;
		await playMoves({ front, back }, [{ role: other === front ? 'front' : 'back', x: 12, y: 12 }], moves + 1);
		await tapper.page.tap('#confirm-taps');
		assert.equal(await tapper.page.getAttribute('#confirm-taps', 'aria-pressed'), 'false');
		assert.equal(await tapper.page.evaluate(() => localStorage.getItem('gomoku.confirm-taps')), '0', 'expected the switch remembered');
		await tapper.waitFor({ turn: 'me' });
		await tapper.clickCell(7, 3);
		await tapper.waitForMoves(moves + 3);
		// A desktop has no such switch: a click places.
		assert.equal(await desktop.page.isVisible('#confirm-taps'), false);
	});

	for (const device of ['desktop', 'phone']) {
		it(`sends nothing and changes nothing for a click out of turn, on an occupied point or off the board (${device})`, T, async () => {
			const one = await openPlayer({ device, label: `${device} player one` });
			const two = await openPlayer({ device, label: `${device} player two` });
			const { front, back } = await matchPlayers(one, two);

			// Out of turn: white clicks first. Its page sends nothing; when
			// black's stone reaches it, white's board holds only that stone.
			const emptyBoard = await back.board();
			const backPoint = await back.pointOf(3, 3);
			if (device === 'desktop')
				await back.page.mouse.move(backPoint.x, backPoint.y);
			const before = await settledPixels(back);
			await back.press(backPoint);
			assert.equal(await back.board(), emptyBoard, 'expected no stone after a click out of turn');
			assert.ok(before.equals(await canvasPixels(back)),
				'expected the canvas to look the same after a click out of turn');
			await playMoves({ front, back }, [{ role: 'front', x: 7, y: 7 }]);
			assert.deepEqual(back.sentFrames, [], 'expected white to have sent nothing out of turn');
			assert.equal(await back.board(), boardAfter([{ role: 'front', x: 7, y: 7 }]));

			// Occupied: white clicks black's stone, then plays next to it.
			const occupied = await back.pointOf(7, 7);
			if (device === 'desktop')
				await back.page.mouse.move(occupied.x, occupied.y);
			const beforeOccupied = await settledPixels(back);
			const boardBefore = await back.board();
			await back.press(occupied);
			assert.equal(await back.board(), boardBefore, 'expected no change after a click on a stone');
			assert.ok(beforeOccupied.equals(await canvasPixels(back)),
				'expected the canvas to look the same after a click on a stone');
			assert.equal(await back.app('turn'), 'me', 'expected it to be white\'s turn still');
			await playMoves({ front, back }, [{ role: 'back', x: 8, y: 7 }], 1);
			assert.deepEqual(back.sentMoves(), [{ type: 'move', x: 8, y: 7 }],
				'expected white to have sent only its one legal move');

			// Off the board: black clicks the canvas's corner, outside the
			// grid, then its own stone; neither sends anything.
			const box = await front.page.locator('#board').boundingBox();
			const frontSent = front.sentFrames.length;
			await front.press({ x: box.x + 3, y: box.y + 3 });
			await front.clickCell(7, 7);
			assert.equal(await front.boardData('moves'), '2');
			await playMoves({ front, back }, [{ role: 'front', x: 6, y: 6 }], 2);
			assert.deepEqual(front.sentFrames.slice(frontSent).map((text) => JSON.parse(text)),
				[{ type: 'move', x: 6, y: 6 }],
				'expected black to have sent only the legal move after clicking off the board and on a stone');
			assert.equal(await front.board(), await back.board());
		});
	}

	it('plays with the keyboard: arrow keys move a cursor, Enter and Space place', T, async () => {
		const one = await openPlayer({ label: 'player one' });
		const two = await openPlayer({ label: 'player two' });
		const { front, back } = await matchPlayers(one, two);

		// The first arrow shows the cursor in the centre, where Enter plays.
		await front.page.keyboard.press('ArrowUp');
		assert.equal(await front.page.evaluate(() => document.activeElement.id), 'board',
			'expected the arrow keys to focus the board');
		await front.page.keyboard.press('Enter');
		await Promise.all([front.waitForMoves(1), back.waitForMoves(1)]);
		assert.equal(await front.boardData('last'), '7,7');

		// White's cursor appears on that stone: Enter does nothing there;
		// down and left, Space plays.
		await back.page.keyboard.press('ArrowLeft');
		await back.page.keyboard.press('Enter');
		await back.page.keyboard.press('ArrowDown');
		await back.page.keyboard.press('ArrowLeft');
		await back.page.keyboard.press(' ');
		await Promise.all([front.waitForMoves(2), back.waitForMoves(2)]);
		assert.equal(await back.boardData('last'), '6,8');

		// Black's cursor stayed where it was: two steps right.
		await front.page.keyboard.press('ArrowRight');
		await front.page.keyboard.press('ArrowRight');
		await front.page.keyboard.press('Enter');
		await Promise.all([front.waitForMoves(3), back.waitForMoves(3)]);
		assert.equal(await front.boardData('last'), '9,7');
		assert.deepEqual(front.sentMoves(), [{ type: 'move', x: 7, y: 7 }, { type: 'move', x: 9, y: 7 }]);
		assert.deepEqual(back.sentMoves(), [{ type: 'move', x: 6, y: 8 }],
			'expected white\'s Enter on a stone to have sent nothing');
		assert.equal(await front.board(), boardAfter([
			{ role: 'front', x: 7, y: 7 }, { role: 'back', x: 6, y: 8 }, { role: 'front', x: 9, y: 7 },
		]));
	});

	it('shows an error from the server as a toast and keeps the board; ignores unknown messages; counts down an opponent away', T, async () => {
		// The page's socket goes through a route that passes everything on
		// and lets the test add a message of its own from the "server".
		let pageSide = null;
		const one = await openPlayer({
			label: 'routed player',
			routeSockets: (ws) => {
				pageSide = ws;
				ws.connectToServer();
			},
		});
		const two = await openPlayer({ label: 'other player' });
		const { front, back } = await matchPlayers(one, two);
		await playMoves({ front, back }, [{ role: 'front', x: 7, y: 7 }]);
		const board = await one.board();

		pageSide.send(JSON.stringify({ type: 'error', code: 'not_your_turn', message: 'it is not your turn' }));
		await one.page.waitForSelector('#toast.show[data-code="not_your_turn"]');
		assert.equal(await one.text('#toast'), 'It is not your turn.');
		pageSide.send(JSON.stringify({ type: 'error', code: 'rate_limited', message: 'slow down' }));
		await one.page.waitForSelector('#toast.show[data-code="rate_limited"]');
		assert.equal(await one.text('#toast'), 'The server refused: slow down');
		pageSide.send(JSON.stringify({ type: 'future_feature', detail: 1 }));
		pageSide.send('not json at all');
		pageSide.send(JSON.stringify({ type: 'pong' }));
		await one.page.waitForSelector('#toast:not(.show)');
		assert.equal(await one.board(), board, 'expected the board unchanged after an error');
		assert.equal(await one.app('state'), 'playing');

		// What a later server sends while the opponent reconnects.
		pageSide.send(JSON.stringify({ type: 'opponent_away', seconds: 30 }));
		await one.page.waitForFunction(() => /^Opponent reconnecting… (30|29|28) s$/.test(document.getElementById('note').textContent));
		pageSide.send(JSON.stringify({ type: 'opponent_back' }));
		await one.page.waitForSelector('#toast.show[data-code="toast.back"]');
		assert.equal(await one.text('#toast'), 'Your opponent is back.');
		assert.doesNotMatch(await one.text('#note'), /reconnecting/);
		await playMoves({ front, back }, [{ role: 'back', x: 8, y: 8 }], 1);
	});
});
