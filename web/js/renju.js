// The forbidden moves of renju, for the page's own use: marking the points
// black may not play and judging local renju games. The same rule as
// core/renju.h (the Renju International Federation's): black may not make
// an overline (six or more in a row), a double four (two fours at once, in
// two lines or in one) or a double three (two open threes at once), unless
// the same move makes an exact five, which always wins. A three counts only
// if the move that makes it a straight four is itself not forbidden,
// judged with the three's stone on the board, and so on recursively.
// White has no forbidden moves. Pure: no DOM, so node --test imports it.
//
// Cells are row-major, cell (x, y) at index y * size + x (y = 0 the top
// row), each '' (empty), 'front' (black) or 'back' (white), as in
// web/js/rules.js. A judgement reads only the four lines through the point
// and, for a three, the points that would make its straight four.

/** Every verdict, in the order of core/renju.h's enum renju_verdict. */
export const VERDICTS = ['allowed', 'five', 'overline', 'double_four', 'double_three'];

/** What a point of the working board holds; the edge blocks as white does. */
const EMPTY = 0;
const BLACK = 1;
const BLOCKED = 2;

/**
 * How far a line is read either side of the point: a five-point is at most
 * four away and the cell past it says whether its five is exact.
 */
const REACH = 5;

/** The point's own index in a line read by readLine(). */
const CENTRE = REACH;

/** The four directions a line can take: across, down and both diagonals. */
const DIRECTIONS = [
	{ dx: 1, dy: 0 }, // horizontal, left to right
	{ dx: 0, dy: 1 }, // vertical, top to bottom
	{ dx: 1, dy: 1 }, // diagonal, top-left to bottom-right
	{ dx: 1, dy: -1 }, // anti-diagonal, bottom-left to top-right
];

/** The working board of a judgement: one code a cell, changed in place. */
function toBoard(cells) {
	const board = new Uint8Array(cells.length);
	for (let i = 0; i < cells.length; i++)
		board[i] = cells[i] === 'front' ? BLACK : cells[i] === 'back' ? BLOCKED : EMPTY;
	return board;
}

/**
 * Fills line with the cells from REACH before (x, y) to REACH after it,
 * stepping by (dx, dy); cells off the board read as BLOCKED.
 */
function readLine(board, size, x, y, dx, dy, line) {
	for (let i = -REACH; i <= REACH; i++) {
		const cx = x + i * dx;
		const cy = y + i * dy;
		const inside = cx >= 0 && cx < size && cy >= 0 && cy < size;
		line[CENTRE + i] = inside ? board[cy * size + cx] : BLOCKED;
	}
}

/** The count of black cells next to index i of line, stepping by step. */
function blackRun(line, i, step) {
	let count = 0;
	for (let j = i + step; j >= 0 && j < line.length && line[j] === BLACK; j += step)
		count++;
	return count;
}

/**
 * The fours black has in line through its centre stone: 0, 1 or 2. The
 * five-point of a four through the centre can only be the first cell that
 * is not black on either side of the centre's run, so a line holds at most
 * two; a straight four's two five-points complete the same four stones and
 * count once, while two in one line with other stones (X.XXX.X, XXX.X.XXX)
 * are two fours.
 */
function countFours(line) {
	const before = blackRun(line, CENTRE, -1);
	const after = blackRun(line, CENTRE, 1);
	const left = CENTRE - before - 1;
	const right = CENTRE + after + 1;
	let fours = 0;
	if (line[left] === EMPTY && before + after + 2 + blackRun(line, left, -1) === 5)
		fours++;
	if (line[right] === EMPTY && before + after + 2 + blackRun(line, right, 1) === 5)
		fours++;
	if (fours === 2 && before + after + 1 === 4)
		return 1;
	return fours;
}

/**
 * True when line, with black's stones as they stand, holds a straight four
 * through its centre: four in a row, both ends empty, and a stone on
 * either end an exact five.
 */
function isStraightFour(line) {
	const before = blackRun(line, CENTRE, -1);
	const after = blackRun(line, CENTRE, 1);
	if (before + after + 1 !== 4)
		return false;
	const start = CENTRE - before;
	const end = CENTRE + after;
	return line[start - 1] === EMPTY && line[end + 1] === EMPTY &&
		line[start - 2] !== BLACK && line[end + 2] !== BLACK;
}

/**
 * The offsets along line, from its centre, of the empty points where one
 * more black stone makes a straight four through the centre: those of a
 * three, if any. They are at most three away, inside the straight four.
 */
function threeExtensions(line) {
	const offsets = [];
	for (let offset = -3; offset <= 3; offset++) {
		if (offset === 0 || line[CENTRE + offset] !== EMPTY)
			continue;
		line[CENTRE + offset] = BLACK;
		if (isStraightFour(line))
			offsets.push(offset);
		line[CENTRE + offset] = EMPTY;
	}
	return offsets;
}

/**
 * The verdict on black playing the empty cell (x, y) of board. The stone
 * is put down while the judgement runs and taken up before it returns;
 * the extension points of threes are judged the same way, with this stone
 * on the board.
 */
function judgeAt(board, size, x, y) {
	const point = y * size + x;
	board[point] = BLACK;
	const verdict = judgePlaced(board, size, x, y);
	board[point] = EMPTY;
	return verdict;
}

/** judgeAt()'s verdict, with black's stone already on (x, y). */
function judgePlaced(board, size, x, y) {
	const line = new Uint8Array(2 * REACH + 1);
	let overline = false;
	let fours = 0;
	const threes = []; // {dx, dy, offsets} of lines that may hold a three
	for (const { dx, dy } of DIRECTIONS) {
		readLine(board, size, x, y, dx, dy, line);
		const run = blackRun(line, CENTRE, -1) + 1 + blackRun(line, CENTRE, 1);
		if (run === 5)
			return 'five';
		if (run > 5) {
			overline = true;
			continue;
		}
		const lineFours = countFours(line);
		fours += lineFours;
		// A line with a four has no straight four to make through the
		// centre as well, so it is never also a three.
		if (lineFours === 0) {
			const offsets = threeExtensions(line);
			if (offsets.length > 0)
				threes.push({ dx, dy, offsets });
		}
	}
	if (overline)
		return 'overline';
	if (fours >= 2)
		return 'double_four';
	if (threes.length < 2)
		return 'allowed';
	let real = 0;
	for (let i = 0; i < threes.length && real < 2; i++) {
		if (threes.length - i + real < 2)
			break;
		if (isRealThree(board, size, x, y, threes[i]))
			real++;
	}
	return real >= 2 ? 'double_three' : 'allowed';
}

/**
 * True when one of a three's extension points is a move black may make,
 * so that the three can really become a straight four.
 */
function isRealThree(board, size, x, y, { dx, dy, offsets }) {
	for (const offset of offsets) {
		const verdict = judgeAt(board, size, x + offset * dx, y + offset * dy);
		if (!forbids(verdict))
			return true;
	}
	return false;
}

/** True for the verdicts that forbid the move. */
export function forbids(verdict) {
	return verdict === 'overline' || verdict === 'double_four' || verdict === 'double_three';
}

/**
 * The verdict on black playing (x, y) of the size × size board cells (one
 * of VERDICTS), whoever is to move: the position is judged as it stands.
 * An occupied or out-of-range point is 'allowed': callers check those
 * first, as they do for any move.
 */
export function judge(cells, size, x, y) {
	if (x < 0 || x >= size || y < 0 || y >= size)
		return 'allowed';
	const board = toBoard(cells);
	if (board[y * size + x] !== EMPTY)
		return 'allowed';
	return judgeAt(board, size, x, y);
}

/** The empty points forbidden to black, [{x, y}], top row first, left to right. */
export function forbiddenPoints(cells, size) {
	const board = toBoard(cells);
	const points = [];
	for (let y = 0; y < size; y++)
		for (let x = 0; x < size; x++)
			if (board[y * size + x] === EMPTY && forbids(judgeAt(board, size, x, y)))
				points.push({ x, y });
	return points;
}
