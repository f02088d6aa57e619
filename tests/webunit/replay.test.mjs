// web/js/replay.js: a finished game's record (/api/games/ID) replayed
// move by move: first, back, forward, last, the keys, the board at each
// position and what the status says.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
	STEPS, newReplay, stepReplay, seekReplay, stepOfKey, replayStepsOf, replayBoardOf, replayStatusOf, replayNoteOf,
} from '../../web/js/replay.js';
import { LANGUAGES, hasText } from '../../web/js/text.js';

const ID = '5238f0e7-998c-4e11-88eb-2395faca11ca';
const FIVE = [
	{ x: 3, y: 7, role: 'front' }, { x: 3, y: 8, role: 'back' },
	{ x: 4, y: 7, role: 'front' }, { x: 4, y: 8, role: 'back' },
	{ x: 5, y: 7, role: 'front' }, { x: 5, y: 8, role: 'back' },
	{ x: 6, y: 7, role: 'front' }, { x: 6, y: 8, role: 'back' },
	{ x: 7, y: 7, role: 'front' },
];
const LINE = [3, 4, 5, 6, 7].map((x) => ({ x, y: 7 }));

function record(overrides = {}) {
	return {
		id: ID, size: 15, rule: 'freestyle', full_board: 'back', tc: 'none', status: 'finished',
		started_ms: 1795281631987, finished_ms: 1795281702113,
		players: { front: { name: 'Ann' }, back: {} },
		result: { winner: 'front', reason: 'five', line: LINE },
		moves: FIVE,
		...overrides,
	};
}

describe('a replay', () => {
	it('starts at the end of the game, with its players, result and the winning line', () => {
		const replay = newReplay(record());
		assert.equal(replay.at, 9);
		assert.equal(replay.id, ID);
		assert.equal(replay.finished, true);
		assert.deepEqual(replay.players, { front: { name: 'Ann', ai: false }, back: { name: '', ai: false } });
		assert.deepEqual(replay.result, { winner: 'front', reason: 'five', line: LINE });
		const board = replayBoardOf(replay);
		assert.equal(board.cells.filter((cell) => cell === 'front').length, 5);
		assert.equal(board.cells.filter((cell) => cell === 'back').length, 4);
		assert.deepEqual(board.lastMove, { x: 7, y: 7, role: 'front' });
		assert.deepEqual(board.line, LINE);
	});

	it('steps first, forward, back and last, and stops at both ends', () => {
		let replay = newReplay(record());
		replay = stepReplay(replay, 'first');
		assert.equal(replay.at, 0);
		assert.deepEqual(replayBoardOf(replay).cells.filter(Boolean), []);
		assert.equal(replayBoardOf(replay).lastMove, null);
		assert.deepEqual(replayStepsOf(replay), { first: false, back: false, forward: true, last: true });
		assert.equal(stepReplay(replay, 'back'), replay, 'expected back at the start to change nothing');

		replay = stepReplay(replay, 'forward');
		assert.equal(replay.at, 1);
		assert.deepEqual(replayBoardOf(replay).lastMove, FIVE[0]);
		assert.deepEqual(replayBoardOf(replay).line, [], 'expected no winning line before the end');
		replay = stepReplay(stepReplay(replay, 'forward'), 'forward');
		replay = stepReplay(replay, 'back');
		assert.equal(replay.at, 2);
		assert.equal(replayBoardOf(replay).cells[8 * 15 + 3], 'back');
		assert.deepEqual(replayStepsOf(replay), { first: true, back: true, forward: true, last: true });

		replay = stepReplay(replay, 'last');
		assert.equal(replay.at, 9);
		assert.deepEqual(replayStepsOf(replay), { first: true, back: true, forward: false, last: false });
		assert.equal(stepReplay(replay, 'forward'), replay, 'expected forward at the end to change nothing');
		assert.equal(stepReplay(replay, 'sideways'), replay);
		assert.deepEqual(STEPS, ['first', 'back', 'forward', 'last']);
	});

	it('seeks a move by its number, clamped to the game', () => {
		const replay = newReplay(record());
		assert.equal(seekReplay(replay, 4).at, 4);
		assert.equal(seekReplay(replay, -3).at, 0);
		assert.equal(seekReplay(replay, 99).at, 9);
		assert.equal(seekReplay(replay, 'x').at, 0);
	});

	it('takes its steps from the arrow keys, Home and End', () => {
		assert.equal(stepOfKey('ArrowLeft'), 'back');
		assert.equal(stepOfKey('ArrowRight'), 'forward');
		assert.equal(stepOfKey('ArrowUp'), 'first');
		assert.equal(stepOfKey('ArrowDown'), 'last');
		assert.equal(stepOfKey('Home'), 'first');
		assert.equal(stepOfKey('End'), 'last');
		for (const key of ['Enter', ' ', 'a', 'toString'])
			assert.equal(stepOfKey(key), null, key);
	});

	it('says which move is shown, and the result at the end', () => {
		const end = newReplay(record());
		assert.deepEqual(replayStatusOf(end), { key: 'watch.result.front' });
		assert.deepEqual(replayNoteOf(end), { key: 'reason.five' });
		assert.deepEqual(replayStatusOf(seekReplay(end, 4)), { key: 'replay.at', params: { at: 4, total: 9 } });
		assert.equal(replayNoteOf(seekReplay(end, 4)), null);
		assert.deepEqual(replayStatusOf(seekReplay(end, 0)), { key: 'replay.start', params: { total: 9 } });
		for (const key of ['replay.at', 'replay.start', 'watch.result.front', 'reason.five', 'replay.first', 'replay.last'])
			for (const lang of LANGUAGES)
				assert.ok(hasText(lang, key), `expected a ${lang} text for ${key}`);
	});

	it('replays a game that was aborted, drawn or resigned, and one with no result yet', () => {
		assert.deepEqual(replayStatusOf(newReplay(record({ result: { winner: 'none', reason: 'aborted' }, moves: FIVE.slice(0, 1) }))),
			{ key: 'watch.result.none' });
		assert.deepEqual(replayNoteOf(newReplay(record({ result: { winner: 'back', reason: 'resign' } }))), { key: 'reason.resign' });
		const live = newReplay(record({ status: 'live', result: null }));
		assert.equal(live.finished, false);
		assert.deepEqual(replayStatusOf(live), { key: 'replay.at', params: { at: 9, total: 9 } });
	});

	it('refuses a record that is not a game: no moves, a bad size, a move off the board or on a taken point', () => {
		assert.equal(newReplay(null), null);
		assert.equal(newReplay({}), null);
		assert.equal(newReplay(record({ size: 3 })), null);
		assert.equal(newReplay(record({ moves: [{ x: 15, y: 0, role: 'front' }] })), null);
		assert.equal(newReplay(record({ moves: [FIVE[0], { ...FIVE[0], role: 'back' }] })), null);
		assert.equal(newReplay(record({ moves: [{ x: 1, y: 1, role: 'black' }] })), null);
	});
});
