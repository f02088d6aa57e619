// The client-side model of a game: boards, scripted games and a player
// loop that checks every board message against the model.

import assert from 'node:assert/strict';

import { otherRole, DEFAULT_TIMEOUT_MS } from './client.mjs';

export const DIRECTIONS = {
	horizontal: { dx: 1, dy: 0 },
	vertical: { dx: 0, dy: 1 },
	diagonal: { dx: 1, dy: 1 }, // top-left to bottom-right
	'anti-diagonal': { dx: -1, dy: 1 }, // top-right to bottom-left
};

/** An empty board content: size * size empty strings. */
export function emptyContent(size) {
	return new Array(size * size).fill('');
}

/** A copy of content with role's stone at (x, y). */
export function withStone(content, size, x, y, role) {
	const next = content.slice();
	next[y * size + x] = role;
	return next;
}

/**
 * Every run of `minLength` or more equal stones in content, in any of the
 * four directions, as arrays of { x, y }. Used to check scripted games
 * before they are played.
 */
export function findRuns(content, size, minLength = 5) {
	const runs = [];
	const at = (x, y) => (x >= 0 && y >= 0 && x < size && y < size ? content[y * size + x] : null);
	for (const { dx, dy } of Object.values(DIRECTIONS)) {
		for (let y = 0; y < size; y++) {
			for (let x = 0; x < size; x++) {
				const role = at(x, y);
				if (!role || at(x - dx, y - dy) === role)
					continue; // empty, or not the start of its run
				const run = [];
				for (let cx = x, cy = y; at(cx, cy) === role; cx += dx, cy += dy)
					run.push({ x: cx, y: cy });
				if (run.length >= minLength)
					runs.push(run);
			}
		}
	}
	return runs;
}

/** Cells as a sorted list of "x,y" strings: for order-free comparison. */
export function cellKeys(cells) {
	return cells.map(({ x, y }) => `${x},${y}`).sort();
}

/**
 * A game script: the moves, front first, strictly alternating, in which
 * `winner` completes a five along `direction` starting at `start` (the
 * five's cells are start + k * direction), while the loser's stones go on
 * a far row with gaps so that they never make five. The winning stones are
 * played in `order` (indices into the five; the default ends in the
 * middle, so the last stone joins two halves).
 * Returns { moves: [{ x, y, role }], line: [{ x, y }] }.
 */
export function winningScript({ size, winner, direction, start, order = [0, 1, 3, 4, 2] }) {
	const { dx, dy } = DIRECTIONS[direction];
	const line = [];
	for (let k = 0; k < 5; k++)
		line.push({ x: start.x + k * dx, y: start.y + k * dy });
	for (const { x, y } of line)
		assert.ok(x >= 0 && y >= 0 && x < size && y < size,
			`script error: the ${direction} five from ${JSON.stringify(start)} leaves a ${size}x${size} board`);

	// The loser's stones: every other cell of the row farthest from the five.
	const lineRows = line.map((cell) => cell.y);
	const fillerRow = Math.min(...lineRows) >= size - 1 - Math.max(...lineRows) ? 0 : size - 1;
	const loserCount = winner === 'front' ? 4 : 5;
	const fillers = [];
	for (let x = 0; fillers.length < loserCount; x += 2) {
		assert.ok(x < size, 'script error: no room for the loser\'s stones');
		if (!line.some((cell) => cell.x === x && cell.y === fillerRow))
			fillers.push({ x, y: fillerRow });
	}

	const winnerStones = order.map((index) => line[index]);
	const moves = [];
	const frontStones = winner === 'front' ? winnerStones : fillers;
	const backStones = winner === 'front' ? fillers : winnerStones;
	for (let i = 0; i < 5; i++) {
		moves.push({ ...frontStones[i], role: 'front' });
		if (backStones[i] && !(winner === 'front' && i === 4))
			moves.push({ ...backStones[i], role: 'back' });
	}
	// Sanity: only the last move makes a five, and it is the winner's.
	let content = emptyContent(size);
	moves.forEach((move, index) => {
		content = withStone(content, size, move.x, move.y, move.role);
		const runs = findRuns(content, size);
		if (index < moves.length - 1)
			assert.equal(runs.length, 0, `script error: a five before the last move ${JSON.stringify(moves)}`);
		else
			assert.deepEqual(runs.map(cellKeys), [cellKeys(line)], 'script error: the last move makes no five');
	});
	return { moves, line };
}

/**
 * The 5 x 5 fill with no five anywhere: rows alternate F F B B F and
 * B B F F B, 13 front stones and 12 back ones. Returns the 25 moves, front
 * first, alternating; asserts (before any use) that the full board and so
 * every position on the way has no five.
 */
export function fullBoardScript() {
	const size = 5;
	const pattern = [
		'FFBBF',
		'BBFFB',
		'FFBBF',
		'BBFFB',
		'FFBBF',
	];
	const front = [];
	const back = [];
	pattern.forEach((row, y) => [...row].forEach((mark, x) => {
		(mark === 'F' ? front : back).push({ x, y });
	}));
	assert.equal(front.length, 13, 'script error: the full board needs 13 front stones');
	assert.equal(back.length, 12, 'script error: the full board needs 12 back stones');
	const moves = [];
	for (let i = 0; i < 13; i++) {
		moves.push({ ...front[i], role: 'front' });
		if (i < 12)
			moves.push({ ...back[i], role: 'back' });
	}
	let content = emptyContent(size);
	for (const move of moves)
		content = withStone(content, size, move.x, move.y, move.role);
	assert.ok(content.every((cell) => cell !== ''), 'script error: the fill leaves an empty cell');
	assert.deepEqual(findRuns(content, size), [], 'script error: the fill makes a five');
	return moves;
}

/**
 * Checks one board message against the expected position after the move
 * number `moves` (1-based), which was `move`. nextRole is the side to move
 * next, or undefined to leave board.role unchecked (after the last move
 * of a game, whose next side the contract leaves open).
 */
export function assertBoard(board, { content, move, moves, nextRole }, who = 'player') {
	assert.equal(board.type, 'board');
	assert.deepEqual(board.content, content,
		`expected ${who}'s board after move ${moves} to match the moves played`);
	assert.deepEqual(board.move, move,
		`expected ${who}'s board.move after move ${moves} to be ${JSON.stringify(move)}, got ${JSON.stringify(board.move)}`);
	assert.equal(board.moves, moves,
		`expected ${who}'s board.moves to be ${moves}, got ${board.moves}`);
	if (nextRole !== undefined)
		assert.equal(board.role, nextRole,
			`expected ${who}'s board.role (side to move next) after move ${moves} to be ` +
			`"${nextRole}", got ${JSON.stringify(board.role)}`);
}

/**
 * Plays `moves` between front and back, each as a `move` request (form
 * 'move') or as a seed-form board (form 'board'; or a function of the move
 * index giving the form), and checks that both players get the same board
 * after every move, matching the model. The last move's board.role is not
 * checked when `lastEndsGame` is true. Resolves with { content, boards }
 * (the final content, and the board messages front got).
 */
export async function playMoves({ front, back }, moves, { size, form = 'move', startContent,
	startMoves = 0, lastEndsGame = false, timeoutMs = DEFAULT_TIMEOUT_MS } = {}) {
	let content = startContent ? startContent.slice() : emptyContent(size);
	const boards = [];
	for (let i = 0; i < moves.length; i++) {
		const { x, y, role } = moves[i];
		const mover = role === 'front' ? front : back;
		const next = withStone(content, size, x, y, role);
		const moveForm = typeof form === 'function' ? form(i) : form;
		if (moveForm === 'board')
			mover.send({ type: 'board', content: next, role });
		else
			mover.move(x, y);
		const [frontBoard, backBoard] = await Promise.all([
			front.next('board', timeoutMs),
			back.next('board', timeoutMs),
		]);
		assert.deepEqual(backBoard, frontBoard,
			`expected front and back to get the same board after move ${startMoves + i + 1}`);
		const isLast = i === moves.length - 1;
		assertBoard(frontBoard, {
			content: next,
			move: { x, y, role },
			moves: startMoves + i + 1,
			nextRole: isLast && lastEndsGame ? undefined : otherRole(role),
		}, front.label);
		content = next;
		boards.push(frontBoard);
	}
	return { content, boards };
}

/**
 * Takes the winner message of both players and checks that they are the
 * same and say `winner` for `reason`; with `line`, that the winning line is
 * exactly those cells (in any order). Resolves with front's message.
 */
export async function expectWinner({ front, back }, { winner, reason, line }) {
	const [frontWinner, backWinner] = await Promise.all([front.next('winner'), back.next('winner')]);
	assert.deepEqual(backWinner, frontWinner, 'expected front and back to get the same winner message');
	assert.equal(frontWinner.winner, winner,
		`expected winner "${winner}", got ${JSON.stringify(frontWinner)}`);
	assert.equal(frontWinner.reason, reason,
		`expected reason "${reason}", got ${JSON.stringify(frontWinner)}`);
	if (line) {
		assert.ok(Array.isArray(frontWinner.line),
			`expected the winner message to carry the winning line, got ${JSON.stringify(frontWinner)}`);
		assert.deepEqual(cellKeys(frontWinner.line), cellKeys(line),
			`expected the winning line ${JSON.stringify(line)}, got ${JSON.stringify(frontWinner.line)}`);
	}
	return frontWinner;
}
