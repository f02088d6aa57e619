// web/js/rules.js: the page's own judge for local games, a port of
// core/rules.c and of the end of core/game.c's game_play(). The cases
// follow tests/unit's rules tests: fives in the four directions, the
// edges, overlines under both rules, a full board.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { findFive, judgeMove, runWins, isFull, MAX_LINE } from '../../web/js/rules.js';

const SIZE = 15;

/** A size × size board with role's stones at points [[x, y], …] (and others'). */
function boardWith(stones, size = SIZE) {
	const cells = new Array(size * size).fill('');
	for (const [role, points] of Object.entries(stones))
		for (const [x, y] of points)
			cells[y * size + x] = role;
	return cells;
}

/** n points from (x, y) stepping by (dx, dy). */
function run(x, y, dx, dy, n) {
	return Array.from({ length: n }, (_, i) => [x + i * dx, y + i * dy]);
}

function cellsOf(points) {
	return points.map(([x, y]) => ({ x, y }));
}

describe('findFive', () => {
	const directions = [
		['horizontal', 1, 0, 3, 7],
		['vertical', 0, 1, 7, 3],
		['diagonal', 1, 1, 3, 3],
		['anti-diagonal', 1, -1, 3, 11],
	];
	for (const [name, dx, dy, x, y] of directions) {
		it(`finds a ${name} five through any of its stones, listed in order along the line`, () => {
			const five = run(x, y, dx, dy, 5);
			const cells = boardWith({ front: five });
			for (const [px, py] of five)
				assert.deepEqual(findFive(cells, SIZE, 'freestyle', px, py), cellsOf(five),
					`expected the ${name} five from (${px}, ${py})`);
		});
	}

	it('finds no five in four, in a five broken by a gap, or in a five of mixed colours', () => {
		const four = boardWith({ back: run(2, 2, 1, 0, 4) });
		assert.equal(findFive(four, SIZE, 'freestyle', 2, 2), null);
		const gap = boardWith({ back: [...run(2, 2, 1, 0, 2), ...run(5, 2, 1, 0, 3)] });
		assert.equal(findFive(gap, SIZE, 'freestyle', 5, 2), null);
		const mixed = boardWith({ back: run(2, 2, 1, 0, 4), front: [[6, 2]] });
		assert.equal(findFive(mixed, SIZE, 'freestyle', 6, 2), null);
	});

	it('finds fives along the edges and into the corners', () => {
		const top = run(10, 0, 1, 0, 5);
		assert.deepEqual(findFive(boardWith({ front: top }), SIZE, 'freestyle', 14, 0), cellsOf(top));
		const corner = run(0, 14, 1, -1, 5);
		assert.deepEqual(findFive(boardWith({ back: corner }), SIZE, 'standard', 0, 14), cellsOf(corner));
	});

	it('finds nothing on an empty point or off the board', () => {
		const cells = boardWith({ front: run(0, 0, 1, 0, 5) });
		assert.equal(findFive(cells, SIZE, 'freestyle', 7, 7), null);
		assert.equal(findFive(cells, SIZE, 'freestyle', -1, 0), null);
		assert.equal(findFive(cells, SIZE, 'freestyle', 15, 0), null);
	});

	it('counts six or more as a win under freestyle, listing the whole run', () => {
		const six = run(2, 5, 1, 0, 6);
		assert.deepEqual(findFive(boardWith({ front: six }), SIZE, 'freestyle', 4, 5), cellsOf(six));
	});

	it('counts six or seven as no win under standard, but exactly five as one', () => {
		for (const length of [6, 7]) {
			const overline = run(2, 5, 1, 0, length);
			const cells = boardWith({ front: overline });
			for (const [x, y] of overline)
				assert.equal(findFive(cells, SIZE, 'standard', x, y), null,
					`expected no win for a run of ${length} through (${x}, ${y}) under standard`);
		}
		const five = run(2, 5, 1, 0, 5);
		assert.deepEqual(findFive(boardWith({ front: five }), SIZE, 'standard', 6, 5), cellsOf(five));
	});

	it('under standard, finds an exact five in another direction through the stone of an overline', () => {
		// A six across row 7 and a five down column 7 share (7, 7).
		const six = run(2, 7, 1, 0, 6);
		const five = run(7, 3, 0, 1, 5);
		const cells = boardWith({ back: [...six, ...five] });
		assert.deepEqual(findFive(cells, SIZE, 'standard', 7, 7), cellsOf(five));
		assert.deepEqual(findFive(cells, SIZE, 'freestyle', 7, 7), cellsOf(six),
			'expected freestyle to report the first direction that wins: across');
	});

	it('reports at most four stones either side of the new one for a run longer than nine', () => {
		const row = run(0, 0, 1, 0, 12);
		const line = findFive(boardWith({ front: row }), SIZE, 'freestyle', 6, 0);
		assert.equal(line.length, MAX_LINE);
		assert.deepEqual(line, cellsOf(run(2, 0, 1, 0, 9)));
	});
});

describe('judgeMove', () => {
	it('gives the game to the side of a stone that made five, with the line', () => {
		const five = run(3, 7, 1, 0, 5);
		const cells = boardWith({ front: five, back: run(3, 8, 1, 0, 4) });
		assert.deepEqual(judgeMove(cells, SIZE, {}, 7, 7), { winner: 'front', reason: 'five', line: cellsOf(five) });
	});

	it('lets the game go on without a five and with an empty point left', () => {
		const cells = boardWith({ front: run(3, 7, 1, 0, 4) });
		assert.equal(judgeMove(cells, SIZE, {}, 6, 7), null);
	});

	it('gives a full board with no five to white by default, or to nobody with fullBoard draw', () => {
		// 5 × 5, filled in columns of alternating pairs: no five anywhere.
		const size = 5;
		const cells = [];
		for (let y = 0; y < size; y++)
			for (let x = 0; x < size; x++)
				cells.push(Math.floor((x + 2 * y) / 2) % 2 ? 'back' : 'front');
		assert.ok(isFull(cells));
		for (let i = 0; i < cells.length; i++)
			assert.equal(findFive(cells, size, 'freestyle', i % size, Math.floor(i / size)), null,
				`expected no five in the full test board through point ${i}`);
		assert.deepEqual(judgeMove(cells, size, {}, 4, 4), { winner: 'back', reason: 'full', line: [] });
		assert.deepEqual(judgeMove(cells, size, { fullBoard: 'draw' }, 4, 4), { winner: 'draw', reason: 'full', line: [] });
	});

	it('prefers a five on the last point to a full board', () => {
		const size = 5;
		const cells = new Array(size * size).fill('back');
		for (let x = 0; x < size; x++)
			cells[2 * size + x] = 'front';
		assert.deepEqual(judgeMove(cells, size, {}, 4, 2),
			{ winner: 'front', reason: 'five', line: cellsOf(run(0, 2, 1, 0, 5)) });
	});
});

describe('runWins and isFull', () => {
	it('wins with five or more under freestyle and exactly five under standard', () => {
		assert.deepEqual([4, 5, 6, 9].map((n) => runWins('freestyle', n)), [false, true, true, true]);
		assert.deepEqual([4, 5, 6, 9].map((n) => runWins('standard', n)), [false, true, false, false]);
	});

	it('calls a board full only when no point is empty', () => {
		assert.equal(isFull(['front', 'back']), true);
		assert.equal(isFull(['front', '']), false);
	});
});
