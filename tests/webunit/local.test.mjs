// web/js/local.js: a game of two players on one screen, judged by the
// page, with undo and redo stacks.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
	newLocalGame, canPlay, playLocal, undoLocal, redoLocal, canUndo, canRedo, lastLocalMove,
} from '../../web/js/local.js';

/** The game after points [[x, y], …] were played in turn, black first. */
function played(points, settings) {
	let game = newLocalGame(settings);
	for (const [x, y] of points) {
		const next = playLocal(game, x, y);
		assert.ok(next, `expected (${x}, ${y}) to be playable`);
		game = next;
	}
	return game;
}

/** The stones of a game as text: '.' empty, 'x' black, 'o' white. */
function stones(game) {
	return game.cells.map((cell) => (cell === 'front' ? 'x' : cell === 'back' ? 'o' : '.')).join('');
}

// Black makes five across row 7 while white plays along row 8.
const BLACK_FIVE = [[3, 7], [3, 8], [4, 7], [4, 8], [5, 7], [5, 8], [6, 7], [6, 8], [7, 7]];

describe('a local game', () => {
	it('starts empty, 15 × 15 freestyle, black to move, nothing to undo or redo', () => {
		const game = newLocalGame();
		assert.equal(game.size, 15);
		assert.equal(game.rule, 'freestyle');
		assert.equal(game.fullBoard, 'back');
		assert.equal(game.cells.length, 225);
		assert.equal(game.toMove, 'front');
		assert.equal(canUndo(game), false);
		assert.equal(canRedo(game), false);
		assert.equal(lastLocalMove(game), null);
	});

	it('alternates the sides, black first, and refuses taken or off-board points', () => {
		const game = played([[7, 7], [8, 8]]);
		assert.equal(game.cells[7 * 15 + 7], 'front');
		assert.equal(game.cells[8 * 15 + 8], 'back');
		assert.equal(game.toMove, 'front');
		assert.deepEqual(lastLocalMove(game), { x: 8, y: 8, role: 'back' });
		assert.equal(playLocal(game, 7, 7), null, 'expected a taken point refused');
		assert.equal(playLocal(game, 15, 0), null);
		assert.equal(playLocal(game, 1.5, 0), null);
		assert.equal(canPlay(game, 0, 0), true);
	});

	it('never changes the game it was given', () => {
		const game = played([[7, 7]]);
		const copy = JSON.stringify(game);
		playLocal(game, 8, 8);
		undoLocal(game);
		assert.equal(JSON.stringify(game), copy);
	});

	it('ends at five with the winner and the line, and takes no move after', () => {
		const game = played(BLACK_FIVE);
		assert.deepEqual(game.result, {
			winner: 'front',
			reason: 'five',
			line: [3, 4, 5, 6, 7].map((x) => ({ x, y: 7 })),
		});
		assert.equal(game.toMove, 'back', 'expected the side that would move next, as the server says');
		assert.equal(playLocal(game, 0, 0), null);
	});

	it('judges with its own rule: an overline wins under freestyle, not under standard', () => {
		// Black: (2..4, 7) and (6..7, 7), then (5, 7) joins them into six.
		const moves = [[2, 7], [2, 9], [3, 7], [3, 9], [4, 7], [4, 9], [6, 7], [6, 9], [7, 7], [9, 9], [5, 7]];
		assert.equal(played(moves).result.winner, 'front');
		assert.equal(played(moves, { rule: 'standard' }).result, null);
	});

	it('gives a full board to white, or calls it a draw when told to', () => {
		// 5 × 5 filled without a five, black first (13 black, 12 white).
		const order = [];
		const colour = (x, y) => (Math.floor((x + 2 * y) / 2) % 2 ? 'back' : 'front');
		const blacks = [];
		const whites = [];
		for (let y = 0; y < 5; y++)
			for (let x = 0; x < 5; x++)
				(colour(x, y) === 'front' ? blacks : whites).push([x, y]);
		assert.equal(blacks.length, 13);
		while (blacks.length || whites.length) {
			order.push(blacks.shift());
			if (whites.length)
				order.push(whites.shift());
		}
		assert.deepEqual(played(order, { size: 5 }).result, { winner: 'back', reason: 'full', line: [] });
		assert.deepEqual(played(order, { size: 5, fullBoard: 'draw' }).result, { winner: 'draw', reason: 'full', line: [] });
	});
});

describe('undo and redo in a local game', () => {
	it('undoes any number of moves, then redoes them in order', () => {
		const moves = [[7, 7], [8, 8], [7, 8], [9, 9]];
		const full = played(moves);
		let game = full;
		for (let i = moves.length - 1; i >= 0; i--) {
			game = undoLocal(game);
			assert.equal(stones(game), stones(played(moves.slice(0, i))), `expected ${i} moves after undo`);
			assert.equal(game.toMove, i % 2 ? 'back' : 'front');
		}
		assert.equal(canUndo(game), false);
		assert.equal(undoLocal(game), null);
		assert.equal(game.undone.length, 4);
		for (let i = 1; i <= moves.length; i++) {
			game = redoLocal(game);
			assert.equal(stones(game), stones(played(moves.slice(0, i))), `expected ${i} moves after redo`);
		}
		assert.equal(canRedo(game), false);
		assert.equal(redoLocal(game), null);
		assert.deepEqual(game.history, full.history);
		assert.deepEqual(lastLocalMove(game), { x: 9, y: 9, role: 'back' });
	});

	it('forgets what could be redone once a new move is played', () => {
		let game = undoLocal(undoLocal(played([[7, 7], [8, 8], [7, 8]])));
		assert.equal(canRedo(game), true);
		game = playLocal(game, 0, 0);
		assert.equal(game.cells[0], 'back', 'expected white to move after two undos from black\'s third move');
		assert.equal(canRedo(game), false);
	});

	it('reopens a finished game when the winning move is undone, and ends it again on redo', () => {
		const won = played(BLACK_FIVE);
		const reopened = undoLocal(won);
		assert.equal(reopened.result, null);
		assert.equal(reopened.toMove, 'front');
		assert.equal(canPlay(reopened, 0, 0), true);
		const again = redoLocal(reopened);
		assert.deepEqual(again.result, won.result);
		// Or black plays elsewhere and the game goes on.
		const elsewhere = playLocal(reopened, 0, 0);
		assert.equal(elsewhere.result, null);
		assert.equal(elsewhere.toMove, 'back');
	});
});
