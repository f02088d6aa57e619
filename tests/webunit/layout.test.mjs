// web/js/layout.js: board geometry, pointer to intersection, the zoom of
// a dense board, the keyboard cursor. Pure functions, run by node --test without a browser.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
	boardGeometry, cellCenter, pointToCell, fitBoardSide, starPoints, moveCursor, isCursorKey, PAD_STEPS,
	zoomFactor, scrollToShow, MIN_STEP, ZOOM_STEP,
} from '../../web/js/layout.js';

describe('board geometry', () => {
	it('spreads size lines over the side with PAD_STEPS steps of margin on each side', () => {
		const geometry = boardGeometry(600, 15);
		assert.ok(Math.abs(geometry.step * (14 + 2 * PAD_STEPS) - 600) < 1e-9,
			`expected 14 steps plus the margins to make 600 px, step is ${geometry.step}`);
		assert.equal(geometry.origin, PAD_STEPS * geometry.step);
		const corner = cellCenter(geometry, 14, 14);
		assert.ok(Math.abs(corner.px + geometry.origin - 600) < 1e-9, 'expected the margin after the last line too');
		assert.ok(geometry.radius < geometry.step / 2, 'expected stones smaller than a step, so neighbours do not touch');
	});

	for (const size of [5, 15, 16, 25]) {
		for (const side of [200, 374, 768.5]) {
			it(`maps every intersection's centre back to itself (${size} × ${size}, ${side} px)`, () => {
				const geometry = boardGeometry(side, size);
				for (let y = 0; y < size; y++) {
					for (let x = 0; x < size; x++) {
						const { px, py } = cellCenter(geometry, x, y);
						assert.deepEqual(pointToCell(geometry, px, py), { x, y });
					}
				}
			});
		}
	}

	it('snaps a point to the nearest intersection, up to half a step away', () => {
		const geometry = boardGeometry(600, 15);
		const { px, py } = cellCenter(geometry, 7, 7);
		const nearly = geometry.step * 0.49;
		assert.deepEqual(pointToCell(geometry, px + nearly, py - nearly), { x: 7, y: 7 });
		assert.deepEqual(pointToCell(geometry, px - nearly, py + nearly), { x: 7, y: 7 });
		assert.deepEqual(pointToCell(geometry, px + geometry.step * 0.51, py), { x: 8, y: 7 });
		assert.deepEqual(pointToCell(geometry, px, py - geometry.step * 0.51), { x: 7, y: 6 });
	});

	it('gives null off the board: more than half a step outside the grid, or not a number', () => {
		const geometry = boardGeometry(600, 15);
		const half = geometry.step / 2;
		const far = geometry.origin + 14 * geometry.step;
		assert.equal(pointToCell(geometry, 1, 1), null, 'the corner of the canvas is in the margin');
		assert.equal(pointToCell(geometry, geometry.origin - half - 1, geometry.origin), null);
		assert.equal(pointToCell(geometry, geometry.origin, far + half + 1), null);
		assert.equal(pointToCell(geometry, -50, 300), null);
		assert.equal(pointToCell(geometry, 700, 300), null);
		assert.equal(pointToCell(geometry, NaN, 300), null);
		assert.deepEqual(pointToCell(geometry, geometry.origin - half + 1, geometry.origin), { x: 0, y: 0 });
		assert.deepEqual(pointToCell(geometry, far + half - 1, far + half - 1), { x: 14, y: 14 });
	});

	it('never answers -0 for the first line', () => {
		const geometry = boardGeometry(600, 15);
		const cell = pointToCell(geometry, geometry.origin - 1, geometry.origin - 1);
		assert.ok(Object.is(cell.x, 0) && Object.is(cell.y, 0), `expected {x: 0, y: 0}, got ${JSON.stringify(cell)}`);
	});

	it('fits the largest whole-pixel square into a box', () => {
		assert.equal(fitBoardSide(374, 540.7), 374);
		assert.equal(fitBoardSide(834.9, 768.4), 768);
		assert.equal(fitBoardSide(0, 100), 0);
		assert.equal(fitBoardSide(-5, 100), 0);
	});

	it('puts the renju star points on 15 × 15 and sensible ones elsewhere', () => {
		const key = (points) => points.map(({ x, y }) => `${x},${y}`).sort();
		assert.deepEqual(key(starPoints(15)), key([{ x: 3, y: 3 }, { x: 11, y: 3 }, { x: 3, y: 11 }, { x: 11, y: 11 }, { x: 7, y: 7 }]));
		assert.deepEqual(key(starPoints(16)), key([{ x: 3, y: 3 }, { x: 12, y: 3 }, { x: 3, y: 12 }, { x: 12, y: 12 }]));
		assert.deepEqual(key(starPoints(9)), key([{ x: 2, y: 2 }, { x: 6, y: 2 }, { x: 2, y: 6 }, { x: 6, y: 6 }, { x: 4, y: 4 }]));
		assert.deepEqual(starPoints(5), [{ x: 2, y: 2 }]);
		assert.deepEqual(starPoints(6), []);
	});
});

describe('zoom', () => {
	it('is offered only when the points are closer than MIN_STEP, and then spaces them ZOOM_STEP apart', () => {
		assert.equal(zoomFactor(320, 15), 1, '15 lines on 320 px are 20.1 px apart');
		assert.equal(zoomFactor(390, 15), 1);
		const factor = zoomFactor(320, 19);
		assert.ok(boardGeometry(320, 19).step < MIN_STEP);
		assert.ok(Math.abs(boardGeometry(320 * factor, 19).step - ZOOM_STEP) < 1e-9);
		assert.equal(zoomFactor(0, 19), 1, 'a board not laid out yet');
	});

	it('scrolls only when the point is not shown with its margin, then centres it within the board', () => {
		// A 300 px view over a 600 px board, scrolled to 100: shows 100..400.
		assert.equal(scrollToShow(100, 300, 600, 250, 40), 100, 'well inside: unchanged');
		assert.equal(scrollToShow(100, 300, 600, 130, 40), 0, 'too near the start: centred, not before the board');
		assert.equal(scrollToShow(100, 300, 600, 380, 40), 230, 'too near the end: centred');
		assert.equal(scrollToShow(100, 300, 600, 590, 40), 300, 'not past the board\'s end');
		assert.equal(scrollToShow(0, 300, 300, 150, 40), 0, 'a view as big as the board never scrolls');
	});
});

describe('keyboard cursor', () => {
	it('appears in the centre on the first arrow key', () => {
		assert.deepEqual(moveCursor(null, 'ArrowLeft', 15), { x: 7, y: 7 });
		assert.deepEqual(moveCursor(null, 'ArrowDown', 16), { x: 7, y: 7 });
	});

	it('moves one step per arrow and stops at the edges', () => {
		assert.deepEqual(moveCursor({ x: 7, y: 7 }, 'ArrowLeft', 15), { x: 6, y: 7 });
		assert.deepEqual(moveCursor({ x: 7, y: 7 }, 'ArrowRight', 15), { x: 8, y: 7 });
		assert.deepEqual(moveCursor({ x: 7, y: 7 }, 'ArrowUp', 15), { x: 7, y: 6 });
		assert.deepEqual(moveCursor({ x: 7, y: 7 }, 'ArrowDown', 15), { x: 7, y: 8 });
		assert.deepEqual(moveCursor({ x: 0, y: 0 }, 'ArrowLeft', 15), { x: 0, y: 0 });
		assert.deepEqual(moveCursor({ x: 0, y: 0 }, 'ArrowUp', 15), { x: 0, y: 0 });
		assert.deepEqual(moveCursor({ x: 14, y: 14 }, 'ArrowRight', 15), { x: 14, y: 14 });
		assert.deepEqual(moveCursor({ x: 14, y: 14 }, 'ArrowDown', 15), { x: 14, y: 14 });
	});

	it('knows the four arrow keys and nothing else', () => {
		for (const key of ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'])
			assert.equal(isCursorKey(key), true, key);
		for (const key of ['Enter', ' ', 'a', 'Tab'])
			assert.equal(isCursorKey(key), false, key);
		assert.deepEqual(moveCursor({ x: 3, y: 4 }, 'Enter', 15), { x: 3, y: 4 });
	});
});
