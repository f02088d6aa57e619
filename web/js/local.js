// A game of two players on one screen (hot-seat): both sides are played
// by clicks on the same page, and the page itself is the referee, with
// the rules of rules.js. The moves played and the moves taken back are
// two stacks, so any number of moves can be undone and redone; a new move
// clears the redo stack. Undo works after the end too: taking back the
// winning move opens the game again. Pure and immutable: every function
// returns a new game (or null for a move that is not allowed), so
// node --test drives it and the page's reducer (game.js) keeps it in its
// state.
//
// A game: {size, rule, fullBoard, cells, toMove, history, undone, result}
//   cells    '' | 'front' | 'back', row-major (rules.js)
//   toMove   the side to move ('front' first); after the end, the side
//            that would have moved next, as in the server's last board
//   history  the moves played, [{x, y, role}], oldest first
//   undone   the moves taken back, [{x, y, role}], the next to redo last
//   result   null while the game goes on, or {winner, reason, line}

import { judgeMove } from './rules.js';
import { judge, forbids, forbiddenPoints } from './renju.js';

/** The side that moves after role. */
function nextRole(role) {
	return role === 'front' ? 'back' : 'front';
}

/**
 * A new game on a size × size board. rule: 'freestyle' (five or more
 * wins), 'standard' (exactly five) or 'renju' (black: exactly five, and
 * not on its forbidden points, renju.js); fullBoard: 'back' (a full board
 * with no five goes to white, the server's default) or 'draw'.
 */
export function newLocalGame({ size = 15, rule = 'freestyle', fullBoard = 'back' } = {}) {
	return {
		size,
		rule,
		fullBoard,
		cells: new Array(size * size).fill(''),
		toMove: 'front',
		history: [],
		undone: [],
		result: null,
	};
}

/** game with the stone of move put on it and judged; undone as given. */
function withMove(game, move, undone) {
	const cells = game.cells.slice();
	cells[move.y * game.size + move.x] = move.role;
	return {
		...game,
		cells,
		toMove: nextRole(move.role),
		history: [...game.history, move],
		undone,
		result: judgeMove(cells, game.size, game, move.x, move.y),
	};
}

/** True when (x, y) is forbidden to the side to move: black's, in renju. */
export function isForbiddenLocal(game, x, y) {
	return game.rule === 'renju' && game.toMove === 'front' &&
		forbids(judge(game.cells, game.size, x, y));
}

/** The points forbidden to the side to move now ([{x, y}]; none but in renju). */
export function localForbidden(game) {
	if (game.rule !== 'renju' || game.toMove !== 'front' || game.result)
		return [];
	return forbiddenPoints(game.cells, game.size);
}

/** True when the side to move may put a stone on (x, y) now. */
export function canPlay(game, x, y) {
	return !game.result && Number.isInteger(x) && Number.isInteger(y) &&
		x >= 0 && y >= 0 && x < game.size && y < game.size &&
		game.cells[y * game.size + x] === '' && !isForbiddenLocal(game, x, y);
}

/** The game after the side to move played (x, y), or null when it may not. */
export function playLocal(game, x, y) {
	if (!canPlay(game, x, y))
		return null;
	return withMove(game, { x, y, role: game.toMove }, []);
}

/** True when a move can be taken back: any was played. */
export function canUndo(game) {
	return game.history.length > 0;
}

/** True when a taken-back move can be played again. */
export function canRedo(game) {
	return game.undone.length > 0;
}

/**
 * The game with its last move taken back (and the result it made
 * cleared), or null when no move was played.
 */
export function undoLocal(game) {
	if (!canUndo(game))
		return null;
	const move = game.history[game.history.length - 1];
	const cells = game.cells.slice();
	cells[move.y * game.size + move.x] = '';
	return {
		...game,
		cells,
		toMove: move.role,
		history: game.history.slice(0, -1),
		undone: [...game.undone, move],
		result: null,
	};
}

/** The game with the last taken-back move played again, or null. */
export function redoLocal(game) {
	if (!canRedo(game))
		return null;
	return withMove(game, game.undone[game.undone.length - 1], game.undone.slice(0, -1));
}

/** The last move played, or null. */
export function lastLocalMove(game) {
	return game.history.length ? game.history[game.history.length - 1] : null;
}

/**
 * What is kept of a game to restore it after a reload (localStorage): its
 * settings and both stacks of moves.
 */
export function localRecord(game) {
	return {
		size: game.size,
		rule: game.rule,
		fullBoard: game.fullBoard,
		history: game.history.map(({ x, y, role }) => ({ x, y, role })),
		undone: game.undone.map(({ x, y, role }) => ({ x, y, role })),
	};
}

/** The moves of a record's list, when it is a list of {x, y, role}. */
function recordMoves(list) {
	if (!Array.isArray(list))
		return null;
	const moves = list.map((move) => move && { x: move.x, y: move.y, role: move.role });
	return moves.every((move) => move && ['front', 'back'].includes(move.role)) ? moves : null;
}

/**
 * The game a record (localRecord()) stands for, every move replayed by the
 * rules, or null when it is not a game these rules allow (a record from
 * another version, or edited). Its moves to redo are kept when they can
 * be replayed too.
 */
export function restoreLocal(record, { sizes = [15, 19], rules = ['freestyle', 'standard', 'renju'] } = {}) {
	if (!record || typeof record !== 'object' || !sizes.includes(record.size) || !rules.includes(record.rule) ||
	    !['back', 'draw'].includes(record.fullBoard))
		return null;
	const history = recordMoves(record.history);
	const undone = recordMoves(record.undone) || [];
	if (!history)
		return null;
	let game = newLocalGame(record);
	for (const move of history) {
		if (move.role !== game.toMove)
			return null;
		game = playLocal(game, move.x, move.y);
		if (!game)
			return null;
	}
	let ahead = game;
	for (let i = undone.length - 1; i >= 0 && ahead; i--)
		ahead = undone[i].role === ahead.toMove ? playLocal(ahead, undone[i].x, undone[i].y) : null;
	return ahead ? { ...game, undone } : game;
}
