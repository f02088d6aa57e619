// web/js/renju.js: the page's own renju forbidden-move rule. Three parts:
// the shared positions of tests/renju/positions.txt (the fixture the C
// tests of core/renju.c read too, so that page and server agree), a few
// cases of the API itself, and a property test against a slow reference
// judge written plainly here, on seeded random positions.
//
// RENJU_POSITIONS=path runs the fixture part on another file of the same
// format.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { judge, forbids, forbiddenPoints, VERDICTS } from '../../web/js/renju.js';

const POSITIONS = process.env.RENJU_POSITIONS ??
	fileURLToPath(new URL('../renju/positions.txt', import.meta.url));

/** The fixture's board: 15 × 15, columns A..O (I included), rows 15..1 top down. */
const FIXTURE_SIZE = 15;
const COLUMNS = 'ABCDEFGHIJKLMNO';

/** A fixture point such as H8 as {x, y}, or null when it is not one. */
function parsePoint(text) {
	const match = /^([A-O])([0-9]{1,2})$/.exec(text);
	if (!match)
		return null;
	const row = Number(match[2]);
	if (row < 1 || row > FIXTURE_SIZE)
		return null;
	return { x: COLUMNS.indexOf(match[1]), y: FIXTURE_SIZE - row };
}

/** A point {x, y} as the fixture writes it. */
function pointName({ x, y }) {
	return `${COLUMNS[x]}${FIXTURE_SIZE - y}`;
}

/**
 * The positions of a fixture file's text, [{name, line, cells, checks:
 * [{point, verdict, line}], forbidden: [{x, y}] or null}]. Throws on
 * anything malformed, naming the file and line.
 */
function parsePositions(text, file) {
	const lines = text.split('\n');
	const positions = [];
	const header = COLUMNS.split('').join(' ');
	let number = 0;
	const fail = (message) => {
		throw new Error(`${file}:${number}: ${message}`);
	};
	/** The next line that is not blank or a comment, or null at the end. */
	const next = () => {
		while (number < lines.length) {
			const line = lines[number++].trim();
			if (line !== '' && !line.startsWith('#'))
				return line;
		}
		number = lines.length;
		return null;
	};
	const expectHeader = () => {
		const line = next();
		if (line !== header)
			fail(`expected the column letters "${header}", found ${JSON.stringify(line)}`);
	};
	for (let line = next(); line !== null; line = next()) {
		if (!line.startsWith('position:'))
			fail(`expected "position: <name>", found ${JSON.stringify(line)}`);
		const position = { name: line.slice('position:'.length).trim(), line: number, checks: [], forbidden: null };
		if (position.name === '')
			fail('a position without a name');
		position.cells = new Array(FIXTURE_SIZE * FIXTURE_SIZE).fill('');
		expectHeader();
		for (let row = FIXTURE_SIZE; row >= 1; row--) {
			const tokens = (next() ?? fail(`the file ends before row ${row}`)).split(/\s+/);
			if (tokens.length !== FIXTURE_SIZE + 2 || tokens[0] !== String(row) ||
			    tokens[FIXTURE_SIZE + 1] !== String(row))
				fail(`expected row ${row}: its number, ${FIXTURE_SIZE} points and its number again`);
			for (let x = 0; x < FIXTURE_SIZE; x++) {
				const stone = { '.': '', X: 'front', O: 'back' }[tokens[x + 1]];
				if (stone === undefined)
					fail(`row ${row} column ${COLUMNS[x]}: expected '.', 'X' or 'O', found ${JSON.stringify(tokens[x + 1])}`);
				position.cells[(FIXTURE_SIZE - row) * FIXTURE_SIZE + x] = stone;
			}
		}
		expectHeader();
		for (;;) {
			const entry = next() ?? fail(`position "${position.name}" has no "end"`);
			if (entry === 'end')
				break;
			const [kind, ...words] = entry.split(/\s+/);
			if (kind === 'check:') {
				const point = words.length === 2 && parsePoint(words[0]);
				if (!point || !VERDICTS.includes(words[1]))
					fail(`expected "check: <point> <${VERDICTS.join('|')}>", found ${JSON.stringify(entry)}`);
				position.checks.push({ point, verdict: words[1], line: number });
			} else if (kind === 'forbidden:') {
				if (position.forbidden)
					fail(`position "${position.name}" has a second "forbidden:" line`);
				const none = words.length === 1 && words[0] === 'none';
				position.forbidden = none ? [] : words.map((word) => parsePoint(word) ??
					fail(`expected a point such as H8 or "none", found ${JSON.stringify(word)}`));
				if (position.forbidden.length === 0 && !none)
					fail('expected points or "none" after "forbidden:"');
				position.forbiddenLine = number;
			} else {
				fail(`expected "check:", "forbidden:" or "end", found ${JSON.stringify(entry)}`);
			}
		}
		positions.push(position);
	}
	return positions;
}

/** Points [{x, y}] in row-major order, as forbiddenPoints() lists them. */
function rowMajor(points) {
	return [...points].sort((a, b) => a.y - b.y || a.x - b.x);
}

describe(`the shared positions (${POSITIONS})`, () => {
	if (!existsSync(POSITIONS)) {
		it('finds the fixture file', () => {
			assert.fail(`expected the shared renju positions at ${POSITIONS}`);
		});
		return;
	}
	const positions = parsePositions(readFileSync(POSITIONS, 'utf8'), POSITIONS);

	it('holds positions, each with something to check', () => {
		assert.ok(positions.length > 0, `expected positions in ${POSITIONS}`);
		for (const position of positions)
			assert.ok(position.checks.length > 0 || position.forbidden,
				`expected a check or a forbidden line in "${position.name}" (line ${position.line})`);
	});

	for (const position of positions) {
		it(position.name, () => {
			for (const { point, verdict, line } of position.checks)
				assert.equal(judge(position.cells, FIXTURE_SIZE, point.x, point.y), verdict,
					`${POSITIONS}:${line}: expected ${pointName(point)} to be ${verdict}`);
			if (position.forbidden) {
				const found = forbiddenPoints(position.cells, FIXTURE_SIZE).map(pointName);
				const expected = rowMajor(position.forbidden).map(pointName);
				assert.deepEqual(found, expected,
					`${POSITIONS}:${position.forbiddenLine}: expected the forbidden points ${expected.join(' ') || 'none'}`);
			}
		});
	}
});

describe('the fixture parser', () => {
	const empty = ['position: empty', `   ${COLUMNS.split('').join(' ')}`];
	for (let row = 15; row >= 1; row--)
		empty.push(`${String(row).padStart(2)} ${'. '.repeat(15)} ${String(row).padStart(2)}`);
	empty.push(`   ${COLUMNS.split('').join(' ')}`);

	it('reads checks, a forbidden set and "forbidden: none"', () => {
		const text = ['# a comment', ...empty, 'check: H8 allowed', 'forbidden: none', 'end'].join('\n');
		const [position] = parsePositions(text, 'test');
		assert.deepEqual(position.checks.map(({ point, verdict }) => [point, verdict]),
			[[{ x: 7, y: 7 }, 'allowed']]);
		assert.deepEqual(position.forbidden, []);
		const corners = [...empty, 'forbidden: A15 O1', 'end'].join('\n');
		assert.deepEqual(parsePositions(corners, 'test')[0].forbidden, [{ x: 0, y: 0 }, { x: 14, y: 14 }]);
	});

	it('fails naming the line of a bad stone, a bad verdict or a missing end', () => {
		const badStone = [...empty, 'end'];
		badStone[9] = badStone[9].replace('.', 'Z');
		assert.throws(() => parsePositions(badStone.join('\n'), 'test'), /^Error: test:10: row 8 column A/);
		assert.throws(() => parsePositions([...empty, 'check: H8 forbidden', 'end'].join('\n'), 'test'),
			/^Error: test:19: expected "check:/);
		assert.throws(() => parsePositions(empty.join('\n'), 'test'), /has no "end"/);
	});
});

/** A size × size board with black and white stones at fixture points such as 'H8' (15 × 15) or [x, y]. */
function boardWith({ black = [], white = [] }, size = FIXTURE_SIZE) {
	const cells = new Array(size * size).fill('');
	const place = (role) => (point) => {
		const { x, y } = typeof point === 'string' ? parsePoint(point) : { x: point[0], y: point[1] };
		cells[y * size + x] = role;
	};
	black.forEach(place('front'));
	white.forEach(place('back'));
	return cells;
}

describe('judge and forbids', () => {
	it('lists the verdicts in the order of core/renju.h, and forbids only the three faults', () => {
		assert.deepEqual(VERDICTS, ['allowed', 'five', 'overline', 'double_four', 'double_three']);
		assert.deepEqual(VERDICTS.filter(forbids), ['overline', 'double_four', 'double_three']);
	});

	it('calls an occupied or out-of-range point allowed', () => {
		const cells = boardWith({ black: ['F8', 'G8', 'H6', 'H7'], white: ['H8'] });
		assert.equal(judge(cells, 15, 7, 7), 'allowed');
		for (const [x, y] of [[-1, 0], [15, 0], [0, -1], [0, 15]])
			assert.equal(judge(cells, 15, x, y), 'allowed', `expected (${x}, ${y}) to be allowed`);
	});

	it('leaves the cells it judges as they were', () => {
		const cells = boardWith({ black: ['F8', 'G8', 'H6', 'H7'] });
		const before = [...cells];
		judge(cells, 15, 7, 7);
		forbiddenPoints(cells, 15);
		assert.deepEqual(cells, before);
	});

	it('judges the smallest board, 5 × 5, to its edges', () => {
		const column = boardWith({ black: [[0, 1], [0, 2], [0, 3], [0, 4]] }, 5);
		assert.equal(judge(column, 5, 0, 0), 'five');
		const row = boardWith({ black: [[0, 0], [1, 0], [3, 0], [4, 0]] }, 5);
		assert.equal(judge(row, 5, 2, 0), 'five', 'expected a whole row of five to be an exact five');
		// (1, 2) makes three down column 1 and three along row 2, but no
		// four they could become has room for an open end.
		const cramped = boardWith({ black: [[1, 1], [1, 3], [0, 2], [2, 2]] }, 5);
		assert.equal(judge(cramped, 5, 1, 2), 'allowed', 'expected no three on a line of five points');
	});

	it('judges the largest board, 25 × 25, to its far corner', () => {
		const corner = boardWith({ black: [[22, 24], [23, 24], [24, 22], [24, 23]] }, 25);
		assert.equal(judge(corner, 25, 24, 24), 'allowed', 'expected the corner to spoil both threes');
		const open = boardWith({ black: [[19, 20], [20, 20], [21, 18], [21, 19]] }, 25);
		assert.equal(judge(open, 25, 21, 20), 'double_three');
		assert.deepEqual(forbiddenPoints(open, 25), [{ x: 21, y: 20 }]);
	});
});

// The reference judge: the rule written as plainly as it reads, on text.
// Each line through the point is read as 13 characters, 'x' black, 'o'
// white or off the board, '.' empty, the point in the middle; every empty
// character is tried. A run through the middle that reaches either end
// of the text holds at least seven stones, so the window is wide enough
// to tell an exact five from an overline.

const HALF = 6;
const REFERENCE_DIRECTIONS = [[1, 0], [0, 1], [1, 1], [1, -1]];

/** How often the reference found a three spoilt by a forbidden extension point. */
const referenceStats = { falseThrees: 0 };

function lineText(cells, size, x, y, dx, dy) {
	let text = '';
	for (let i = -HALF; i <= HALF; i++) {
		const cx = x + i * dx;
		const cy = y + i * dy;
		if (cx < 0 || cy < 0 || cx >= size || cy >= size)
			text += 'o';
		else
			text += { '': '.', front: 'x', back: 'o' }[cells[cy * size + cx]];
	}
	return text;
}

function putBlack(text, i) {
	return text.slice(0, i) + 'x' + text.slice(i + 1);
}

/** [first, last] of the run of 'x' through index i of text. */
function runAround(text, i) {
	let first = i;
	let last = i;
	while (first > 0 && text[first - 1] === 'x')
		first--;
	while (last < text.length - 1 && text[last + 1] === 'x')
		last++;
	return [first, last];
}

/** The distinct fours through the middle: the sets of four stones one move makes five. */
function referenceFours(text) {
	const fours = new Set();
	for (let i = 0; i < text.length; i++) {
		if (text[i] !== '.')
			continue;
		const [first, last] = runAround(putBlack(text, i), i);
		if (last - first + 1 === 5 && first <= HALF && HALF <= last) {
			const stones = [];
			for (let j = first; j <= last; j++)
				if (j !== i)
					stones.push(j);
			fours.add(stones.join(','));
		}
	}
	return fours.size;
}

/** The empty indices of text where one more stone makes a straight four through the middle. */
function referenceStraightFourPoints(text) {
	const points = [];
	for (let i = 0; i < text.length; i++) {
		if (text[i] !== '.')
			continue;
		const after = putBlack(text, i);
		const [first, last] = runAround(after, HALF);
		if (last - first + 1 !== 4 || i < first || i > last)
			continue;
		const makesFive = (end) => {
			if (after[end] !== '.')
				return false;
			const [a, b] = runAround(putBlack(after, end), end);
			return b - a + 1 === 5;
		};
		if (makesFive(first - 1) && makesFive(last + 1))
			points.push(i);
	}
	return points;
}

function referenceJudge(cells, size, x, y) {
	if (cells[y * size + x] !== '')
		return 'allowed';
	const placed = [...cells];
	placed[y * size + x] = 'front';
	const lines = REFERENCE_DIRECTIONS.map(([dx, dy]) => lineText(placed, size, x, y, dx, dy));
	const runs = lines.map((text) => {
		const [first, last] = runAround(text, HALF);
		return last - first + 1;
	});
	if (runs.includes(5))
		return 'five';
	if (runs.some((run) => run > 5))
		return 'overline';
	let fours = 0;
	for (const text of lines)
		fours += referenceFours(text);
	if (fours >= 2)
		return 'double_four';
	let threes = 0;
	for (let d = 0; d < 4; d++) {
		const [dx, dy] = REFERENCE_DIRECTIONS[d];
		const points = referenceStraightFourPoints(lines[d]);
		const playable = points.filter((i) =>
			!forbids(referenceJudge(placed, size, x + (i - HALF) * dx, y + (i - HALF) * dy)));
		if (playable.length > 0)
			threes++;
		else if (points.length > 0)
			referenceStats.falseThrees++;
	}
	return threes >= 2 ? 'double_three' : 'allowed';
}

/** A seeded PRNG (mulberry32): the same positions on every run. */
function random(seed) {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/**
 * A random position: a board of 5 to 15 points a side (now and then 25),
 * stones in a square of up to 9 points round the centre, from sparse to
 * dense, mostly black so that forbidden shapes are common.
 */
function randomPosition(next) {
	const size = next() < 0.05 ? 25 : 5 + Math.floor(next() * 11);
	const side = Math.min(size, 5 + Math.floor(next() * 5));
	const from = Math.floor((size - side) / 2);
	const density = 0.1 + next() * 0.5;
	const black = 0.55 + next() * 0.2;
	const cells = new Array(size * size).fill('');
	for (let y = from; y < from + side; y++)
		for (let x = from; x < from + side; x++)
			if (next() < density)
				cells[y * size + x] = next() < black ? 'front' : 'back';
	return { size, cells };
}

describe('judge against the reference judge', () => {
	const next = random(20250117);
	const positions = Array.from({ length: 2000 }, () => randomPosition(next));

	it('agrees on every empty point of 2000 random positions, every verdict and false threes among them', () => {
		const seen = Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0]));
		referenceStats.falseThrees = 0;
		for (const { size, cells } of positions) {
			for (let y = 0; y < size; y++) {
				for (let x = 0; x < size; x++) {
					if (cells[y * size + x] !== '')
						continue;
					const expected = referenceJudge(cells, size, x, y);
					const found = judge(cells, size, x, y);
					if (found !== expected) {
						const picture = [];
						for (let row = 0; row < size; row++)
							picture.push(cells.slice(row * size, row * size + size)
								.map((cell, col) => (col === x && row === y ? '*' : { '': '.', front: 'X', back: 'O' }[cell]))
								.join(' '));
						assert.fail(`expected ${expected} at (${x}, ${y}) (*) of this ${size} × ${size} board, found ${found}:\n${picture.join('\n')}`);
					}
					seen[expected]++;
				}
			}
		}
		for (const verdict of VERDICTS)
			assert.ok(seen[verdict] >= 20, `expected at least 20 points judged ${verdict}, found ${seen[verdict]}`);
		assert.ok(referenceStats.falseThrees >= 20,
			`expected at least 20 threes spoilt by a forbidden extension point, found ${referenceStats.falseThrees}`);
	});

	it('lists, in forbiddenPoints(), exactly the points judge() forbids, in row-major order', () => {
		for (const { size, cells } of positions) {
			const expected = [];
			for (let y = 0; y < size; y++)
				for (let x = 0; x < size; x++)
					if (cells[y * size + x] === '' && forbids(judge(cells, size, x, y)))
						expected.push({ x, y });
			assert.deepEqual(forbiddenPoints(cells, size), expected);
		}
	});
});
