// Renju on the page: the rule among the pools and in the texts, black's
// forbidden points taken from the server's boards and marked, a click on
// one refused with a toast (nothing sent), and local games that the page
// judges itself under renju (renju.js, rules.js, local.js).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { reduce } from '../../web/js/game.js';
import { run } from './lib/reducer.mjs';
import { initialState, emptyCells, canPlace } from '../../web/js/state.js';
import { boardPictureOf, boardDataOf, ruleTextOf } from '../../web/js/view.js';
import { RULES } from '../../web/js/pool.js';
import { runWins, findFive } from '../../web/js/rules.js';
import { newLocalGame, playLocal, canPlay, localForbidden } from '../../web/js/local.js';
import { LANGUAGES, text } from '../../web/js/text.js';

const ROOM = '9c1d4a77-2b3e-4f10-8a6b-5d4e3c2b1a09';
const UID = '3f2b8c1e-6a4d-4e2f-9b1a-0c5d7e8f9a0b';
const SIZE = 15;

/*
 * Black at G9 G8 H7 I7 (y from the top: (6, 6) (6, 7) (7, 8) (8, 8)), white
 * in column A: black's G7 (6, 8) would make two threes.
 */
const BLACK = [{ x: 6, y: 6 }, { x: 6, y: 7 }, { x: 7, y: 8 }, { x: 8, y: 8 }];
const WHITE = [{ x: 0, y: 0 }, { x: 0, y: 1 }, { x: 0, y: 2 }, { x: 0, y: 3 }];
const G7 = { x: 6, y: 8 };

/** The moves of the double three, black first, alternating. */
function doubleThreeMoves() {
	return BLACK.flatMap((cell, i) => [{ ...cell, role: 'front' }, { ...WHITE[i], role: 'back' }]);
}

/** A renju game on the server, this page black, after the double three's moves. */
function onlineRenju(forbidden = [G7]) {
	const moves = doubleThreeMoves();
	const content = emptyCells(SIZE);
	for (const { x, y, role } of moves)
		content[y * SIZE + x] = role;
	return run(initialState(), { type: 'client/find' },
		{ type: 'welcome', uid: UID, protocol: 2, size: SIZE, rule: 'renju', tc: 'none', version: '0.1.0' },
		{ type: 'waiting' },
		{ type: 'role', role: 'front', room: ROOM, size: SIZE, rule: 'renju', tc: 'none', opponent: { name: 'Ada' } },
		{ type: 'board', content, role: 'front', move: moves[moves.length - 1], moves: moves.length, forbidden }).state;
}

describe('renju on the page', () => {
	it('is offered among the rules, named in every language', () => {
		assert.ok(RULES.includes('renju'));
		for (const lang of LANGUAGES) {
			assert.notEqual(text(lang, 'pool.rule.renju'), 'pool.rule.renju', `expected a ${lang} name for renju`);
			assert.ok(ruleTextOf({ ...initialState(), phase: 'playing', role: 'front', rule: 'renju' }, lang).length > 20,
				`expected a ${lang} summary of renju`);
			for (const key of ['toast.forbidden', 'error.forbidden'])
				assert.notEqual(text(lang, key), key, `expected a ${lang} text for ${key}`);
		}
	});

	it('keeps the forbidden points of the server\'s board, marks them, and refuses a click on one without sending', () => {
		const state = onlineRenju();
		assert.deepEqual(state.forbidden, [G7]);
		assert.deepEqual(boardPictureOf(state).forbidden, [G7]);
		assert.equal(boardDataOf(state).forbidden, '6,8');
		assert.equal(canPlace(state, G7.x, G7.y), false);
		assert.equal(canPlace(state, 10, 10), true);
		const refused = reduce(state, { type: 'client/move', ...G7 }, 1000);
		assert.deepEqual(refused.effects, [{ kind: 'toast', key: 'toast.forbidden' }]);
		assert.equal(refused.state.pending, false);
		const played = reduce(state, { type: 'client/move', x: 10, y: 10 }, 1000);
		assert.deepEqual(played.effects, [{ kind: 'send', message: { type: 'move', x: 10, y: 10 } }]);
	});

	it('drops the marks once white is to move, and ignores points off the board', () => {
		const state = onlineRenju([G7, { x: 15, y: 0 }, { x: -1, y: 2 }, { x: 'a', y: 1 }]);
		assert.deepEqual(state.forbidden, [G7]);
		const after = run(state, { type: 'board', role: 'back', move: { x: 10, y: 10, role: 'front' }, moves: 9 }).state;
		assert.deepEqual(after.forbidden, []);
		assert.equal(boardDataOf(after).forbidden, '');
	});

	it('judges black\'s exact five and white\'s overline as the server does', () => {
		assert.equal(runWins('renju', 5, 'front'), true);
		assert.equal(runWins('renju', 6, 'front'), false);
		assert.equal(runWins('renju', 6, 'back'), true);
		const cells = emptyCells(SIZE);
		for (let x = 2; x < 8; x++)
			cells[4 * SIZE + x] = 'back';
		assert.equal(findFive(cells, SIZE, 'renju', 7, 4).length, 6);
		for (let x = 2; x < 8; x++)
			cells[4 * SIZE + x] = 'front';
		assert.equal(findFive(cells, SIZE, 'renju', 7, 4), null);
	});

	it('plays a local renju game with the rule chosen: black\'s forbidden point listed and refused, white free there', () => {
		const page = run(initialState(), { type: 'client/choose', mode: 'local', rule: 'renju' }, { type: 'client/find' }).state;
		assert.equal(page.local.rule, 'renju');
		let state = page;
		for (const move of doubleThreeMoves())
			state = run(state, { type: 'client/move', x: move.x, y: move.y }).state;
		assert.deepEqual(state.forbidden, [G7]);
		const refused = reduce(state, { type: 'client/move', ...G7 }, 1000);
		assert.deepEqual(refused.effects, [{ kind: 'toast', key: 'toast.forbidden' }]);
		assert.equal(refused.state.moves, 8);
		state = run(state, { type: 'client/move', x: 12, y: 12 }).state;
		assert.deepEqual(state.forbidden, [], 'expected no marks with white to move');
		state = run(state, { type: 'client/move', ...G7 }).state;
		assert.equal(state.cells[G7.y * SIZE + G7.x], 'back');
	});

	it('keeps a local game\'s rules apart: the same point is free under freestyle', () => {
		let game = newLocalGame({ size: SIZE, rule: 'freestyle' });
		for (const move of doubleThreeMoves())
			game = playLocal(game, move.x, move.y);
		assert.equal(canPlay(game, G7.x, G7.y), true);
		assert.deepEqual(localForbidden(game), []);
	});
});
