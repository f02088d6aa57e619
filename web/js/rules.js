// The rules of five in a row, for games the page judges itself (two
// players on one screen, no server). A port of core/rules.c and of the end
// of core/game.c's game_play(), so that a local game ends exactly where
// the server would end it; renju's forbidden points are renju.js's. Pure:
// no DOM, so node --test imports it.
//
// Cells are row-major, cell (x, y) at index y * size + x, each '' (empty),
// 'front' (black) or 'back' (white), as in the protocol's board content.

export const RULES = ['freestyle', 'standard', 'renju'];
export const FULL_BOARD = ['back', 'draw'];

/** The longest run a line reports: core/board.h's BOARD_MAX_LINE. */
export const MAX_LINE = 9;

/** The farthest a walk goes from the new stone in one direction. */
const MAX_WALK = MAX_LINE - 1;

/** The four directions a line can take: across, down and both diagonals. */
const DIRECTIONS = [
	{ dx: 1, dy: 0 }, // horizontal, left to right
	{ dx: 0, dy: 1 }, // vertical, top to bottom
	{ dx: 1, dy: 1 }, // diagonal, top-left to bottom-right
	{ dx: 1, dy: -1 }, // anti-diagonal, bottom-left to top-right
];

function inRange(size, x, y) {
	return x >= 0 && x < size && y >= 0 && y < size;
}

/**
 * The count of role's stones next to (x, y), not counting (x, y) itself,
 * stepping by (dx, dy), up to MAX_WALK of them.
 */
function countRun(cells, size, role, x, y, dx, dy) {
	let count = 0;
	while (count < MAX_WALK) {
		x += dx;
		y += dy;
		if (!inRange(size, x, y) || cells[y * size + x] !== role)
			break;
		count++;
	}
	return count;
}

/**
 * True when a run of length stones of role wins under rule: exactly five
 * under standard, and for black under renju; five or more otherwise.
 */
export function runWins(rule, length, role = 'front') {
	if (rule === 'standard' || (rule === 'renju' && role === 'front'))
		return length === 5;
	return length >= 5;
}

/**
 * The winning run through the stone at (x, y) under rule, as its cells in
 * order along the line ([{x, y}], five or more under freestyle), or null
 * when that stone makes no five (or there is no stone). The four lines
 * are tried in the order of DIRECTIONS and the first that wins is the
 * answer: under standard, an overline in one direction does not hide an
 * exact five in another.
 */
export function findFive(cells, size, rule, x, y) {
	if (!inRange(size, x, y))
		return null;
	const role = cells[y * size + x];
	if (role !== 'front' && role !== 'back')
		return null;
	for (const { dx, dy } of DIRECTIONS) {
		let before = countRun(cells, size, role, x, y, -dx, -dy);
		let after = countRun(cells, size, role, x, y, dx, dy);
		if (!runWins(rule, before + 1 + after, role))
			continue;
		// A run longer than MAX_LINE cannot come from a game that stops at
		// the first five; on a position set up by hand, report the part
		// nearest the new stone (as the server does).
		if (before + 1 + after > MAX_LINE) {
			before = Math.min(before, 4);
			after = Math.min(after, 4);
		}
		const line = [];
		for (let i = -before; i <= after; i++)
			line.push({ x: x + i * dx, y: y + i * dy });
		return line;
	}
	return null;
}

/** True when no cell is empty. */
export function isFull(cells) {
	return cells.every((cell) => cell !== '');
}

/**
 * How the game stands after the stone at (x, y) was put on cells: null
 * while it goes on, or the result as the server's `winner` message has it,
 * {winner, reason, line}: a five wins for the stone's side (reason 'five',
 * line its cells); a full board with no five goes to back (fullBoard
 * 'back', the server's default: moving first is an advantage) or to
 * nobody (fullBoard 'draw': winner 'draw'), reason 'full', no line.
 */
export function judgeMove(cells, size, { rule = 'freestyle', fullBoard = 'back' } = {}, x, y) {
	const line = findFive(cells, size, rule, x, y);
	if (line)
		return { winner: cells[y * size + x], reason: 'five', line };
	if (isFull(cells))
		return { winner: fullBoard === 'draw' ? 'draw' : 'back', reason: 'full', line: [] };
	return null;
}
