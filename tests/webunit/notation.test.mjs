// web/js/notation.js: moves in the usual notation (A… from the left, 1…
// from the bottom), the move list, the numbers on the stones and the
// page's links (#game/ID, #watch/ROOM).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { moveLabel, moveListOf, stoneNumbersOf, routeOf, gameLink, ID_PATTERN } from '../../web/js/notation.js';

const ID = '5238f0e7-998c-4e11-88eb-2395faca11ca';

describe('the notation', () => {
	it('names columns A to O from the left and rows 1 to 15 from the bottom', () => {
		assert.equal(moveLabel({ x: 7, y: 7 }, 15), 'H8');
		assert.equal(moveLabel({ x: 0, y: 14 }, 15), 'A1');
		assert.equal(moveLabel({ x: 14, y: 0 }, 15), 'O15');
		assert.equal(moveLabel({ x: 0, y: 0 }, 19), 'A19');
		assert.equal(moveLabel({ x: 18, y: 18 }, 19), 'S1');
	});

	it('names nothing for a move off the board or not a move', () => {
		for (const move of [{ x: 15, y: 0 }, { x: -1, y: 3 }, { x: 1.5, y: 2 }, null, {}])
			assert.equal(moveLabel(move, 15), '', JSON.stringify(move));
	});

	it('numbers the move list from 1, or from where the moves seen start', () => {
		const moves = [{ x: 7, y: 7, role: 'front' }, { x: 8, y: 6, role: 'back' }];
		assert.deepEqual(moveListOf(moves, 15), [
			{ number: 1, role: 'front', label: 'H8' },
			{ number: 2, role: 'back', label: 'I9' },
		]);
		assert.deepEqual(moveListOf(moves, 15, 11).map((item) => item.number), [11, 12]);
		assert.deepEqual(moveListOf(null, 15), []);
	});

	it('writes the move numbers on the stones where they stand', () => {
		assert.deepEqual(stoneNumbersOf([{ x: 7, y: 7, role: 'front' }, { x: 8, y: 6, role: 'back' }], 3), [
			{ x: 7, y: 7, role: 'front', number: 3 },
			{ x: 8, y: 6, role: 'back', number: 4 },
		]);
	});

	it('reads a replay link and a watch link, and nothing else', () => {
		assert.deepEqual(routeOf(`#game/${ID}`), { kind: 'game', id: ID });
		assert.deepEqual(routeOf(`#watch/${ID.toUpperCase()}`), { kind: 'watch', id: ID });
		for (const hash of ['', '#', '#game/', '#game/nope', `#games/${ID}`, `#game/${ID}/x`, `game/${ID}`, null, undefined])
			assert.equal(routeOf(hash), null, String(hash));
		assert.ok(ID_PATTERN.test(ID));
	});

	it('makes the share link of a game on the page\'s origin', () => {
		assert.equal(gameLink('http://192.168.1.5:8080', ID), `http://192.168.1.5:8080/#game/${ID}`);
		assert.deepEqual(routeOf(new URL(gameLink('https://example.org', ID)).hash), { kind: 'game', id: ID });
	});
});
