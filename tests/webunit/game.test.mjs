// web/js/game.js: the reducer of server messages and page actions into the
// page's state, and what the page should do (effects). Message by message,
// as the server sends them (core/PROTOCOL.md), with what the state then
// allows (state.js) and what the page shows of it (view.js).
//
// The reducer's tests, one file like the reducer; over 600 lines because
// each message and action has a test of its own.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { reduce } from '../../web/js/game.js';
import { localRecord } from '../../web/js/local.js';
import { run } from './lib/reducer.mjs';
import {
	initialState, emptyCells, canPlace, isLive, isMyTurn, canUndo, canRedo, canAnswer,
} from '../../web/js/state.js';
import {
	turnOf, boardText, statusOf, noteOf, toolsOf, moverRole, controlsOf, playersOf, UNREACHABLE_AFTER, undoWaitOf,
} from '../../web/js/view.js';
import { SEARCH_RETRIES } from '../../web/js/protocol.js';

const ROOM = '9c1d4a77-2b3e-4f10-8a6b-5d4e3c2b1a09';
const UID = '3f2b8c1e-6a4d-4e2f-9b1a-0c5d7e8f9a0b';
const WELCOME = { type: 'welcome', uid: UID, protocol: 1, size: 15, rule: 'freestyle', version: '0.1.0' };


function kinds(effects) {
	return effects.map((effect) => (effect.kind === 'sound' ? `sound:${effect.name}` : effect.kind));
}

/** A board message after moves [{x, y, role}] on 15 × 15. */
function boardMessage(moves) {
	const content = emptyCells(15);
	for (const { x, y, role } of moves)
		content[y * 15 + x] = role;
	const last = moves[moves.length - 1];
	return { type: 'board', content, role: last.role === 'front' ? 'back' : 'front', move: last, moves: moves.length };
}

/** A page that searched and was matched as role. */
function playing(role = 'front', opponent = { name: 'Ada' }) {
	return run(initialState(), { type: 'client/find' }, WELCOME, { type: 'waiting' },
		{ type: 'role', role, room: ROOM, size: 15, rule: 'freestyle', opponent }).state;
}

describe('finding a game', () => {
	it('starts idle with an empty board', () => {
		const state = initialState();
		assert.equal(state.phase, 'idle');
		assert.equal(state.cells.length, 225);
		assert.deepEqual(statusOf(state), { key: 'status.idle' });
	});

	it('searches on "Find opponent": connects, forgetting any old game', () => {
		const { state, effects } = run(initialState(), { type: 'client/find' });
		assert.equal(state.phase, 'searching');
		assert.deepEqual(kinds(effects), ['forget-game', 'connect']);
		assert.deepEqual(statusOf(state), { key: 'status.searching' });
	});

	it('plays once matched: role, opponent, empty board, black to move; remembers the game', () => {
		const { state, effects } = run(initialState(), { type: 'client/find' }, WELCOME, { type: 'waiting' },
			{ type: 'role', role: 'front', room: ROOM, size: 15, rule: 'freestyle', opponent: { name: 'Ada' } });
		assert.equal(state.phase, 'playing');
		assert.equal(state.role, 'front');
		assert.equal(state.opponent, 'Ada');
		assert.equal(state.link, 'open');
		assert.deepEqual(effects.slice(2), [
			{ kind: 'save-game', room: ROOM, role: 'front' },
			{ kind: 'sound', name: 'turn' },
		]);
		assert.equal(turnOf(state), 'me');
		assert.deepEqual(statusOf(state), { key: 'status.your_turn' });
	});

	it('plays no turn sound for white, and takes no name when the opponent gave none', () => {
		const { state, effects } = run(initialState(), { type: 'client/find' }, WELCOME,
			{ type: 'role', role: 'back', room: ROOM, size: 15, rule: 'freestyle' });
		assert.equal(state.opponent, '');
		assert.deepEqual(kinds(effects), ['forget-game', 'connect', 'save-game']);
		assert.equal(turnOf(state), 'opponent');
	});

	it('takes the board size from the server', () => {
		const { state } = run(initialState(), { type: 'client/find' }, { ...WELCOME, size: 19 });
		assert.equal(state.size, 19);
		assert.equal(state.cells.length, 361);
	});

	it('cancels a search: idle, and the socket closed', () => {
		const { state, effects } = run(initialState(), { type: 'client/find' }, WELCOME, { type: 'waiting' },
			{ type: 'client/cancel' });
		assert.equal(state.phase, 'idle');
		assert.deepEqual(kinds(effects).slice(-1), ['disconnect']);
	});

	it('ignores "Find opponent" during a game', () => {
		const state = playing();
		const result = reduce(state, { type: 'client/find' });
		assert.equal(result.state, state);
		assert.deepEqual(result.effects, []);
	});
});

describe('playing', () => {
	it('sends a move only on the player\'s turn, onto an empty point, one at a time', () => {
		let state = playing('front');
		assert.equal(canPlace(state, 7, 7), true);
		assert.equal(canPlace(state, -1, 7), false);
		assert.equal(canPlace(state, 15, 7), false);
		assert.equal(canPlace(state, 1.5, 7), false);
		const sent = reduce(state, { type: 'client/move', x: 7, y: 7 });
		assert.deepEqual(sent.effects, [{ kind: 'send', message: { type: 'move', x: 7, y: 7 } }]);
		state = sent.state;
		assert.equal(state.cells[7 * 15 + 7], '', 'expected no stone before the server\'s board');
		assert.equal(isMyTurn(state), false, 'expected no second move while the first is on its way');
		assert.deepEqual(reduce(state, { type: 'client/move', x: 8, y: 8 }).effects, []);
	});

	it('shows the server\'s board: stones, side to move, last move; stone sound, and the turn sound when the opponent moved', () => {
		let state = playing('back');
		assert.equal(canPlace(state, 7, 7), false, 'expected white not to move first');
		const first = run(state, boardMessage([{ x: 7, y: 7, role: 'front' }]));
		state = first.state;
		assert.deepEqual(kinds(first.effects), ['sound:stone', 'sound:turn']);
		assert.equal(state.cells[7 * 15 + 7], 'front');
		assert.equal(state.toMove, 'back');
		assert.deepEqual(state.lastMove, { x: 7, y: 7, role: 'front' });
		assert.equal(state.moves, 1);
		assert.equal(canPlace(state, 7, 7), false, 'expected an occupied point refused');
		assert.equal(canPlace(state, 8, 8), true);
		const second = run(state, boardMessage([{ x: 7, y: 7, role: 'front' }, { x: 8, y: 8, role: 'back' }]));
		assert.deepEqual(kinds(second.effects), ['sound:stone']);
		assert.equal(turnOf(second.state), 'opponent');
		assert.deepEqual(noteOf(second.state, 0), { key: 'note.moves', params: { moves: 2 } });
	});

	it('adds the move of a compact board (updates=move) to the board it has', () => {
		let state = playing('back');
		const compact = (move, moves) => ({ type: 'board', role: move.role === 'front' ? 'back' : 'front', move, moves });
		state = run(state, compact({ x: 7, y: 7, role: 'front' }, 1)).state;
		state = run(state, compact({ x: 8, y: 8, role: 'back' }, 2)).state;
		assert.equal(boardText(state.cells), boardText(boardMessage([{ x: 7, y: 7, role: 'front' }, { x: 8, y: 8, role: 'back' }]).content));
		assert.equal(state.moves, 2);
		assert.equal(state.toMove, 'front');
		assert.deepEqual(state.lastMove, { x: 8, y: 8, role: 'back' });
		for (const bad of [
			compact({ x: 7, y: 7, role: 'front' }, 3), // onto a stone
			compact({ x: 15, y: 0, role: 'front' }, 3), // off the board
			compact({ x: 1, y: 1, role: 'black' }, 3), // no such side
			{ type: 'board', role: 'back', moves: 3 }, // no move, no content
		]) {
			const result = reduce(state, bad);
			assert.equal(result.state, state, JSON.stringify(bad));
		}
	});

	it('ignores a board of the wrong shape', () => {
		const state = playing();
		for (const content of [[], emptyCells(16), [...emptyCells(224), 'black']]) {
			const result = reduce(state, { type: 'board', content, role: 'back', moves: 1 });
			assert.equal(result.state, state);
		}
	});

	it('shows an error as a toast and changes nothing else', () => {
		const moved = reduce(playing('front'), { type: 'client/move', x: 7, y: 7 }).state;
		const { state, effects } = run(moved, { type: 'error', code: 'occupied', message: 'that point is taken' });
		assert.deepEqual(effects, [{ kind: 'toast', code: 'occupied', message: 'that point is taken' }]);
		assert.deepEqual(state.cells, moved.cells);
		assert.equal(state.phase, 'playing');
		assert.equal(isMyTurn(state), true, 'expected the player to be able to try again');
	});

	it('ignores message types it does not know', () => {
		const state = playing();
		for (const message of [{ type: 'emote', emote: 'wave' }, { type: 'pong' }, { type: 'spectators', count: 3 }]) {
			const result = reduce(state, message);
			assert.equal(result.state, state, message.type);
			assert.deepEqual(result.effects, []);
		}
	});

	it('counts down while the opponent is away and says when they are back', () => {
		let state = reduce(playing(), { type: 'opponent_away', seconds: 30 }, 10_000).state;
		assert.deepEqual(noteOf(state, 10_000), { key: 'note.away', params: { seconds: 30 } });
		assert.deepEqual(noteOf(state, 21_500), { key: 'note.away', params: { seconds: 19 } });
		assert.deepEqual(noteOf(state, 99_000), { key: 'note.away', params: { seconds: 0 } });
		const back = reduce(state, { type: 'opponent_back' });
		state = back.state;
		assert.deepEqual(noteOf(state, 22_000), { key: 'note.first' });
		assert.deepEqual(back.effects, [{ kind: 'toast', key: 'toast.back' }]);
	});
});

describe('the end of a game', () => {
	const line = [{ x: 3, y: 7 }, { x: 4, y: 7 }, { x: 5, y: 7 }, { x: 6, y: 7 }, { x: 7, y: 7 }];

	it('a five: the winner wins, the loser loses, both see the line; the game is forgotten', () => {
		for (const [role, outcome, sound, key] of [['front', 'win', 'win', 'status.win'], ['back', 'loss', 'loss', 'status.loss']]) {
			const { state, effects } = run(playing(role), { type: 'winner', winner: 'front', reason: 'five', line });
			assert.equal(state.phase, 'over');
			assert.equal(state.outcome, outcome);
			assert.deepEqual(state.winner.line, line);
			assert.deepEqual(kinds(effects), ['forget-game', `sound:${sound}`]);
			assert.deepEqual(statusOf(state), { key });
			assert.deepEqual(noteOf(state, 0), { key: 'note.five', params: { from: 'D8', to: 'H8' } });
			assert.equal(isLive(state), false);
			assert.equal(canPlace(state, 0, 0), false);
		}
	});

	it('a full board: a win, a loss or a draw', () => {
		assert.deepEqual(statusOf(run(playing('back'), { type: 'winner', winner: 'back', reason: 'full' }).state),
			{ key: 'status.win.full' });
		assert.deepEqual(statusOf(run(playing('front'), { type: 'winner', winner: 'back', reason: 'full' }).state),
			{ key: 'status.loss.full' });
		const draw = run(playing('front'), { type: 'winner', winner: 'draw', reason: 'full' }).state;
		assert.equal(draw.outcome, 'draw');
		assert.deepEqual(statusOf(draw), { key: 'status.draw' });
	});

	it('the opponent left mid-game: a win by forfeit, told by the opponent-left sound', () => {
		const { state, effects } = run(playing('front'), { type: 'winner', winner: 'front', reason: 'forfeit' },
			{ type: 'disconnect', disconnect: 'opponent left' });
		assert.equal(state.outcome, 'win');
		assert.equal(state.opponentLeft, true);
		assert.deepEqual(kinds(effects), ['forget-game', 'sound:left']);
		assert.deepEqual(statusOf(state), { key: 'status.win.forfeit' });
		assert.equal(noteOf(state, 0), null);
	});

	it('a disconnect without a winner before it still ends the game', () => {
		const { state } = run(playing('back'), { type: 'disconnect', disconnect: 'opponent left' });
		assert.equal(state.phase, 'over');
		assert.deepEqual(statusOf(state), { key: 'status.win.forfeit' });
	});

	it('the opponent left after the game ended: a note under the result', () => {
		const { state, effects } = run(playing('front'), { type: 'winner', winner: 'front', reason: 'five', line },
			{ type: 'disconnect', disconnect: 'opponent left' });
		assert.deepEqual(statusOf(state), { key: 'status.win' });
		assert.deepEqual(noteOf(state, 0), { key: 'note.left' });
		assert.deepEqual(kinds(effects), ['forget-game', 'sound:win', 'sound:left']);
	});

	it('"Play again" clears the board and searches anew', () => {
		const over = run(playing('front'), { type: 'winner', winner: 'front', reason: 'five', line }).state;
		const { state, effects } = run(over, { type: 'client/find' });
		assert.equal(state.phase, 'searching');
		assert.equal(state.winner, null);
		assert.equal(state.role, null);
		assert.deepEqual(state.cells, emptyCells(15));
		assert.deepEqual(kinds(effects), ['forget-game', 'connect']);
	});

	it('a close after the game ended is not retried', () => {
		const over = run(playing('front'), { type: 'winner', winner: 'front', reason: 'five', line }).state;
		const { state, effects } = run(over, { type: 'client/closed', code: 1006 });
		assert.equal(state.phase, 'over');
		assert.deepEqual(effects, []);
	});
});

describe('a dropped socket', () => {
	const moves = [{ x: 7, y: 7, role: 'front' }, { x: 8, y: 8, role: 'back' }];

	it('mid-game: keeps the board, the cards and the colours, not live, and retries every 5 s for as long as the page is open', () => {
		let state = run(playing('front'), boardMessage(moves)).state;
		const delays = [];
		let now = 10_000;
		for (let attempt = 0; attempt < 40; attempt++) {
			const result = reduce(state, { type: 'client/closed', code: 1006 }, now);
			state = result.state;
			assert.equal(state.phase, 'resuming');
			assert.equal(state.link, 'retrying');
			assert.equal(isLive(state), false);
			assert.deepEqual(statusOf(state),
				{ key: attempt < UNREACHABLE_AFTER ? 'status.reconnecting' : 'status.unreachable.retrying' });
			assert.equal(boardText(state.cells).replace(/\./g, ''), 'xo', 'expected the old board kept, dimmed');
			const delay = result.effects.find((effect) => effect.kind === 'reconnect').delay;
			delays.push(delay);
			assert.deepEqual(noteOf(state, now + 1), { key: 'note.retry', params: { seconds: Math.ceil(delay / 1000) } });
			now += delay + 100;
		}
		assert.deepEqual(delays.slice(0, 6), [500, 1000, 2000, 4000, 5000, 5000]);
		assert.ok(delays.slice(4).every((delay) => delay === 5000), 'expected every 5 s from then on');
		const cards = playersOf(state, 'en', 'Bo', now);
		assert.deepEqual([cards.me.role, cards.opponent.role, cards.opponent.name], ['front', 'back', 'Ada'],
			'expected the cards to keep the seat while reconnecting, not "Waiting…"');
		const { state: back } = run(state, WELCOME, { type: 'role', role: 'front', room: ROOM, size: 15, rule: 'freestyle', opponent: { name: 'Ada' } });
		assert.equal(back.phase, 'playing', 'expected the seat taken back once the server answers');
	});

	it('takes the seat back: same room, the server\'s board, live only after the pong', () => {
		const before = run(playing('front'), boardMessage(moves)).state;
		let step = run(before, { type: 'client/closed', code: 1006 }, WELCOME);
		assert.equal(step.state.retries, 0, 'expected a welcome to reset the retries');
		step = run(step.state, { type: 'role', role: 'front', room: ROOM, size: 15, rule: 'freestyle', opponent: { name: 'Ada' } });
		assert.deepEqual(step.effects, [{ kind: 'send', message: { type: 'ping' } }]);
		assert.equal(step.state.phase, 'playing');
		assert.equal(isLive(step.state), false, 'expected no live board before the server\'s state is all in');
		assert.deepEqual(step.state.cells, emptyCells(15), 'expected the old board cleared until the server\'s comes');
		step = run(step.state, boardMessage(moves));
		assert.deepEqual(step.effects, [], 'expected no sounds while catching up');
		step = run(step.state, { type: 'pong' });
		assert.equal(isLive(step.state), true);
		assert.equal(boardText(step.state.cells), boardText(before.cells));
		assert.deepEqual(step.effects, [
			{ kind: 'save-game', room: ROOM, role: 'front' },
			{ kind: 'toast', key: 'toast.resumed' },
		]);
		assert.equal(turnOf(step.state), 'me');
	});

	it('takes the seat back into a game that ended meanwhile', () => {
		const { state } = run(playing('back'), { type: 'client/closed', code: 1001 }, WELCOME,
			{ type: 'role', role: 'back', room: ROOM, size: 15, rule: 'freestyle' },
			boardMessage([{ x: 7, y: 7, role: 'front' }]),
			{ type: 'winner', winner: 'back', reason: 'forfeit' });
		assert.equal(state.phase, 'over');
		assert.equal(state.outcome, 'win');
		assert.equal(boardText(state.cells).replace(/\./g, ''), 'x');
	});

	it('finds the seat gone (queued instead): the start screen says the game is no longer there, declares no result, and the socket is closed at once', () => {
		const { state, effects } = run(playing('front'), { type: 'client/closed', code: 1006 }, WELCOME,
			{ type: 'waiting' });
		assert.equal(state.phase, 'idle');
		assert.equal(state.notice, 'gone');
		assert.equal(state.outcome, null);
		assert.deepEqual(kinds(effects).slice(-2), ['disconnect', 'forget-game']);
		assert.ok(!kinds(effects).includes('sound:loss'));
		assert.deepEqual(statusOf(state), { key: 'status.gone' });
	});

	it('matched into another room instead: the game is gone, nothing declared', () => {
		const { state, effects } = run(playing('front'), { type: 'client/closed', code: 1006 }, WELCOME,
			{ type: 'role', role: 'back', room: 'another-room', size: 15, rule: 'freestyle' });
		assert.equal(state.notice, 'gone');
		assert.ok(kinds(effects).includes('disconnect'));
	});

	it('4001, another tab took the seat: no reconnect, the game kept; "Continue here" takes it back', () => {
		const { state, effects } = run(playing('front'), boardMessage(moves), { type: 'client/closed', code: 4001 });
		assert.equal(state.phase, 'elsewhere');
		assert.deepEqual(effects.filter((effect) => effect.kind !== 'sound'), [], 'expected no reconnect, no forgetting');
		assert.deepEqual(statusOf(state), { key: 'status.elsewhere' });
		assert.deepEqual(controlsOf(state).main, { key: 'button.continue', disabled: false });
		assert.equal(isLive(state), false);
		assert.equal(boardText(state.cells).replace(/\./g, ''), 'xo', 'expected the last position kept');
		const cards = playersOf(state, 'en', 'Bo', 0);
		assert.deepEqual([cards.me.role, cards.opponent.name], ['front', 'Ada']);
		const again = run(state, { type: 'client/closed', code: 1006 });
		assert.equal(again.state.phase, 'elsewhere', 'expected no retry of its own');
		const taken = run(state, { type: 'client/find' });
		assert.equal(taken.state.phase, 'resuming');
		assert.deepEqual(taken.state.resume, { room: ROOM, role: 'front' });
		assert.deepEqual(kinds(taken.effects), ['connect']);
		const resumed = run(taken.state, WELCOME, { type: 'role', role: 'front', room: ROOM, size: 15, rule: 'freestyle', opponent: { name: 'Ada' } });
		assert.equal(resumed.state.phase, 'playing');
	});

	it('4001 while searching: the start screen says the search goes on in another tab', () => {
		const { state, effects } = run(initialState(), { type: 'client/find' }, WELCOME, { type: 'client/closed', code: 4001 });
		assert.equal(state.phase, 'idle');
		assert.deepEqual(statusOf(state), { key: 'status.search_elsewhere' });
		assert.deepEqual(kinds(effects), ['forget-game', 'connect']);
	});

	it('a first connection that fails: "Cannot reach the server" at once, with Try again', () => {
		const { state, effects } = run(initialState(), { type: 'client/find' }, { type: 'client/closed', code: 1006 });
		assert.equal(state.phase, 'idle');
		assert.deepEqual(statusOf(state), { key: 'status.unreachable' });
		assert.equal(controlsOf(state).main.key, 'button.try_again');
		assert.ok(!kinds(effects).includes('reconnect'));
		const again = run(state, { type: 'client/find' });
		assert.equal(again.state.phase, 'searching');
	});

	it('while searching: reconnects and searches on, and gives up after the last try', () => {
		let state = run(initialState(), { type: 'client/find' }, WELCOME, { type: 'waiting' }).state;
		for (let attempt = 0; attempt < SEARCH_RETRIES; attempt++) {
			const result = reduce(state, { type: 'client/closed', code: 1006 });
			state = result.state;
			assert.equal(state.phase, 'searching');
			assert.deepEqual(kinds(result.effects), ['reconnect']);
		}
		state = reduce(state, { type: 'client/closed', code: 1006 }).state;
		assert.equal(state.phase, 'idle');
		assert.deepEqual(statusOf(state), { key: 'status.unreachable' });
	});

	it('refused (1008 after bad_name): no retry, the server\'s reason shown', () => {
		const { state, effects } = run(initialState(), { type: 'client/find' },
			{ type: 'error', code: 'bad_name', message: 'name must be 1 to 20 printable characters' },
			{ type: 'client/closed', code: 1008 });
		assert.equal(state.phase, 'idle');
		assert.deepEqual(statusOf(state), {
			key: 'status.refused', params: { message: 'name must be 1 to 20 printable characters' },
		});
		assert.ok(!kinds(effects).includes('reconnect'));
	});
});

describe('after a reload', () => {
	it('resumes a saved game: board cleared and not live until the server answers', () => {
		const { state, effects } = run(initialState(), { type: 'client/resume', room: ROOM, role: 'back' });
		assert.equal(state.phase, 'resuming');
		assert.deepEqual(kinds(effects), ['connect']);
		assert.deepEqual(state.cells, emptyCells(15));
		assert.equal(isLive(state), false);
		assert.deepEqual(statusOf(state), { key: 'status.resuming' });
	});

	it('ignores a saved game that makes no sense', () => {
		for (const action of [{ type: 'client/resume', room: 5, role: 'front' }, { type: 'client/resume', room: ROOM, role: 'black' }])
			assert.equal(reduce(initialState(), action).state.phase, 'idle');
	});
});

describe('boardText', () => {
	it('writes the board as ., x (black) and o (white)', () => {
		assert.equal(boardText(['', 'front', 'back', '']), '.xo.');
	});
});

// ---- modes, undo and redo ----

/** A compact board (updates=move) after move, with moves played in all. */
function compactBoard(move, moves) {
	return { type: 'board', role: move.role === 'front' ? 'back' : 'front', move, moves };
}

/** The board of a takeback: the whole position after it, and the stone removed. */
function takebackBoard(moves, undo) {
	const content = emptyCells(15);
	for (const { x, y, role } of moves)
		content[y * 15 + x] = role;
	return { type: 'board', content, role: undo.role, moves: moves.length, undo };
}

/** A page in a game against the engine, as role. */
function playingComputer(role = 'front', level = 'easy') {
	return run(initialState(), { type: 'client/choose', mode: 'ai', level }, { type: 'client/find' }, WELCOME,
		{ type: 'role', role, room: ROOM, size: 15, rule: 'freestyle', opponent: { name: `Computer (${level})`, ai: true, level } }).state;
}

/** Plays moves [{x, y, role}] on state as compact boards from the server. */
function withMoves(state, moves, start = 0) {
	return run(state, ...moves.map((move, i) => compactBoard(move, start + i + 1))).state;
}

/** A local game with points [[x, y], …] clicked in turn. */
function localAfter(points) {
	const actions = [{ type: 'client/choose', mode: 'local' }, { type: 'client/find' }];
	for (const [x, y] of points)
		actions.push({ type: 'client/move', x, y });
	return run(initialState(), ...actions);
}

function sent(effects) {
	return effects.filter((effect) => effect.kind === 'send').map((effect) => effect.message);
}

describe('choosing a mode', () => {
	it('starts online at medium, and takes a known mode and level, ignoring others', () => {
		let state = initialState();
		assert.equal(state.mode, 'online');
		assert.equal(state.level, 'medium');
		state = run(state, { type: 'client/choose', mode: 'ai', level: 'hard' }).state;
		assert.deepEqual([state.mode, state.level], ['ai', 'hard']);
		state = run(state, { type: 'client/choose', mode: 'chess', level: 'godlike' }, { type: 'client/choose', mode: null }).state;
		assert.deepEqual([state.mode, state.level], ['ai', 'hard']);
	});

	it('says how to start in each mode', () => {
		for (const [mode, key] of [['online', 'status.idle'], ['ai', 'status.idle.ai'], ['local', 'status.idle.local']])
			assert.deepEqual(statusOf(run(initialState(), { type: 'client/choose', mode }).state), { key });
	});

	it('keeps the mode while a game is being found or played, and lets it change after the end', () => {
		const searching = run(initialState(), { type: 'client/find' }).state;
		assert.equal(reduce(searching, { type: 'client/choose', mode: 'local' }).state.mode, 'online');
		assert.equal(reduce(playing(), { type: 'client/choose', mode: 'local' }).state.mode, 'online');
		const over = run(playing(), { type: 'winner', winner: 'front', reason: 'five', line: [] }).state;
		assert.equal(reduce(over, { type: 'client/choose', mode: 'local' }).state.mode, 'local');
	});

	it('vs Computer connects like Online and says it is starting a game against the computer', () => {
		const { state, effects } = run(initialState(), { type: 'client/choose', mode: 'ai' }, { type: 'client/find' });
		assert.equal(state.phase, 'searching');
		assert.deepEqual(kinds(effects), ['forget-game', 'connect']);
		assert.deepEqual(statusOf(state), { key: 'status.starting' });
	});
});

describe('a local game (two players, one screen)', () => {
	it('starts at once with no socket, black to move, and both sides click in turn', () => {
		const { state, effects } = localAfter([]);
		assert.equal(state.phase, 'playing');
		assert.equal(state.kind, 'local');
		assert.deepEqual(kinds(effects), ['forget-game', 'disconnect'],
			'expected no connect: only an old game\'s socket closed');
		assert.equal(isLive(state), true);
		assert.deepEqual(statusOf(state), { key: 'status.local.front' });
		assert.equal(turnOf(state), 'me', 'expected black\'s card (the first) to have the turn');
		assert.equal(moverRole(state), 'front');

		const after = localAfter([[7, 7]]);
		assert.deepEqual(sent(after.effects), [], 'expected nothing sent');
		assert.deepEqual(kinds(after.effects).slice(-1), ['sound:stone']);
		assert.equal(after.state.cells[7 * 15 + 7], 'front', 'expected the stone at once, with no server to wait for');
		assert.equal(isMyTurn(after.state), true, 'expected white to click next on the same page');
		assert.equal(moverRole(after.state), 'back');
		assert.equal(turnOf(after.state), 'opponent');
		assert.deepEqual(statusOf(after.state), { key: 'status.local.back' });
		assert.deepEqual(after.state.lastMove, { x: 7, y: 7, role: 'front' });
		assert.equal(canPlace(after.state, 7, 7), false);
		assert.deepEqual(noteOf(after.state, 0), { key: 'note.moves', params: { moves: 1 } });
	});

	const BLACK_FIVE = [[3, 7], [3, 8], [4, 7], [4, 8], [5, 7], [5, 8], [6, 7], [6, 8], [7, 7]];

	it('ends at five: the winner named, the line shown, the win sound', () => {
		const { state, effects } = localAfter(BLACK_FIVE);
		assert.equal(state.phase, 'over');
		assert.equal(state.outcome, 'win');
		assert.deepEqual(statusOf(state), { key: 'status.local.front.wins' });
		assert.deepEqual(state.winner.line, [3, 4, 5, 6, 7].map((x) => ({ x, y: 7 })));
		assert.deepEqual(noteOf(state, 0), { key: 'note.five', params: { from: 'D8', to: 'H8' } });
		assert.deepEqual(kinds(effects).slice(-2), ['sound:stone', 'sound:win']);
		assert.equal(isLive(state), false);
		assert.equal(canPlace(state, 0, 0), false);
	});

	it('undoes and redoes any number of moves; a new move clears what could be redone', () => {
		let { state } = localAfter([[7, 7], [8, 8], [7, 8]]);
		assert.deepEqual(toolsOf(state), { undo: true, redo: true });
		assert.equal(canUndo(state), true);
		assert.equal(canRedo(state), false);
		for (let i = 0; i < 3; i++) {
			const result = reduce(state, { type: 'client/undo' });
			state = result.state;
			assert.deepEqual(result.effects, [{ kind: 'sound', name: 'undo' }]);
		}
		assert.equal(boardText(state.cells), boardText(emptyCells(15)));
		assert.equal(canUndo(state), false);
		assert.equal(state.lastMove, null);
		state = run(state, { type: 'client/redo' }, { type: 'client/redo' }).state;
		assert.equal(state.moves, 2);
		assert.deepEqual(state.lastMove, { x: 8, y: 8, role: 'back' });
		assert.equal(canRedo(state), true);
		state = run(state, { type: 'client/move', x: 0, y: 0 }).state;
		assert.equal(state.cells[0], 'front');
		assert.equal(canRedo(state), false);
		assert.equal(reduce(state, { type: 'client/redo' }).state, state);
	});

	it('undoes the winning move after the end, which reopens the game; redo ends it again', () => {
		const won = localAfter(BLACK_FIVE).state;
		assert.deepEqual(toolsOf(won), { undo: true, redo: true });
		assert.equal(canUndo(won), true);
		const reopened = reduce(won, { type: 'client/undo' }).state;
		assert.equal(reopened.phase, 'playing');
		assert.equal(reopened.winner, null);
		assert.deepEqual(statusOf(reopened), { key: 'status.local.front' });
		const again = reduce(reopened, { type: 'client/redo' });
		assert.equal(again.state.phase, 'over');
		assert.deepEqual(again.state.winner, won.winner);
		assert.deepEqual(kinds(again.effects), ['sound:stone', 'sound:win']);
	});

	it('leaves the game for the start screen (asked first once a move was played), and "Play again" starts a fresh one', () => {
		const asked = reduce(localAfter([[7, 7]]).state, { type: 'client/cancel' }).state;
		assert.equal(asked.phase, 'playing');
		assert.equal(asked.confirm, 'leave');
		assert.deepEqual(controlsOf(asked).prompt,
			{ hidden: false, key: 'prompt.leave', accept: 'button.leave.confirm', decline: 'button.cancel', disabled: false });
		const stays = reduce(asked, { type: 'client/answer', accept: false }).state;
		assert.equal(stays.phase, 'playing');
		assert.equal(stays.confirm, null);
		assert.equal(stays.moves, 1);
		const unasked = reduce(localAfter([]).state, { type: 'client/cancel' }).state;
		assert.equal(unasked.phase, 'idle', 'expected a game with no move left at once');
		const left = reduce(asked, { type: 'client/answer', accept: true }).state;
		assert.equal(left.phase, 'idle');
		assert.equal(left.kind, '');
		assert.deepEqual(toolsOf(left), { undo: false, redo: false });
		const again = reduce(localAfter(BLACK_FIVE).state, { type: 'client/find' }).state;
		assert.equal(again.phase, 'playing');
		assert.equal(again.moves, 0);
		assert.equal(again.winner, null);
	});

	it('is restored from what the page kept (localRecord), every move replayed by the rules, the redo stack too', () => {
		let game = localAfter([[7, 7], [8, 8], [7, 8]]).state;
		game = reduce(game, { type: 'client/undo' }).state;
		const record = JSON.parse(JSON.stringify(localRecord(game.local)));
		const { state } = reduce(initialState(), { type: 'client/restore-local', record });
		assert.equal(state.phase, 'playing');
		assert.equal(state.kind, 'local');
		assert.equal(state.moves, 2);
		assert.deepEqual(state.cells, game.cells);
		assert.equal(canRedo(state), true);
		const redone = reduce(state, { type: 'client/redo' }).state;
		assert.equal(redone.moves, 3);
		// A record no game could have made is not restored.
		for (const bad of [null, { ...record, history: [{ x: 7, y: 7, role: 'back' }] },
			{ ...record, history: [...record.history, { x: 7, y: 7, role: 'front' }] }, { ...record, size: 99 }])
			assert.equal(reduce(initialState(), { type: 'client/restore-local', record: bad }).state.phase, 'idle',
				JSON.stringify(bad));
	});

	it('ignores the server and an old socket while it is played', () => {
		const state = localAfter([[7, 7]]).state;
		for (const message of [
			{ type: 'winner', winner: 'back', reason: 'forfeit' },
			compactBoard({ x: 1, y: 1, role: 'back' }, 2),
			{ type: 'opponent_away', seconds: 30 },
			{ type: 'offer', what: 'takeback', by: 'back' },
			{ type: 'client/closed', code: 1006 },
		])
			assert.equal(reduce(state, message).state, state, JSON.stringify(message));
	});
});

describe('against the computer', () => {
	it('keeps what was taken back across a reload: the resumed game can redo it', () => {
		const taken = [{ x: 8, y: 8, role: 'back' }, { x: 7, y: 8, role: 'front' }];
		let step = run(initialState(), { type: 'client/resume', room: ROOM, role: 'front', takenBack: [...taken, { x: 'bad' }] });
		assert.deepEqual(step.state.takenBack, taken, 'expected the kept moves, the invalid one dropped');
		step = run(step.state, WELCOME,
			{ type: 'role', role: 'front', room: ROOM, size: 15, rule: 'freestyle', opponent: { ai: true, level: 'easy' } },
			boardMessage([{ x: 7, y: 7, role: 'front' }]), { type: 'pong' });
		assert.equal(step.state.phase, 'playing');
		assert.deepEqual(step.state.takenBack, taken);
		assert.equal(canRedo(step.state), true);
		assert.deepEqual(sent(run(step.state, { type: 'client/redo' }).effects), [{ type: 'redo' }]);
	});

	const me = { x: 7, y: 7, role: 'front' };
	const reply = { x: 8, y: 8, role: 'back' };

	it('knows the opponent is the engine: its name and level, and "thinking" on its turn', () => {
		const state = playingComputer('back', 'hard');
		assert.equal(state.kind, 'ai');
		assert.equal(state.opponent, 'Computer (hard)');
		assert.equal(state.opponentLevel, 'hard');
		assert.deepEqual(statusOf(state), { key: 'status.ai_turn' });
		assert.deepEqual(toolsOf(state), { undo: true, redo: true });
		assert.equal(canUndo(state), false, 'expected no undo without a stone of mine');
		assert.equal(canRedo(state), false);
	});

	it('takes a role whose opponent is the engine as a computer game even without mode=ai', () => {
		const { state } = run(initialState(), { type: 'client/find' }, WELCOME,
			{ type: 'role', role: 'front', room: ROOM, size: 15, rule: 'freestyle', opponent: { name: 'Computer (medium)', ai: true, level: 'medium' } });
		assert.equal(state.kind, 'ai');
	});

	it('takes the engine\'s role without a name (the form the server will send): a computer game at its level', () => {
		const { state } = run(initialState(), { type: 'client/choose', mode: 'ai', level: 'hard' }, { type: 'client/find' }, WELCOME,
			{ type: 'role', role: 'back', room: ROOM, size: 15, rule: 'freestyle', opponent: { ai: true, level: 'hard' } });
		assert.equal(state.kind, 'ai');
		assert.equal(state.opponent, '');
		assert.equal(state.opponentLevel, 'hard');
		assert.deepEqual(statusOf(state), { key: 'status.ai_turn' });
	});

	it('Undo sends a takeback offer; the takeback boards replace the position and enable Redo', () => {
		let state = withMoves(playingComputer('front'), [me, reply]);
		assert.equal(canUndo(state), true);
		const asked = reduce(state, { type: 'client/undo' });
		assert.deepEqual(sent(asked.effects), [{ type: 'offer', what: 'takeback' }]);
		state = asked.state;
		assert.equal(canUndo(state), false, 'expected no second undo while the first is on its way');

		// The reply first, then my move.
		state = run(state, takebackBoard([me], reply)).state;
		assert.equal(boardText(state.cells).replace(/\./g, ''), 'x');
		assert.deepEqual(state.lastMove, me, 'expected the move before the removed one marked');
		state = run(state, takebackBoard([], me)).state;
		assert.equal(boardText(state.cells), boardText(emptyCells(15)));
		assert.equal(state.moves, 0);
		assert.equal(state.lastMove, null);
		assert.equal(state.toMove, 'front');
		assert.equal(isMyTurn(state), true);
		assert.equal(canUndo(state), false, 'expected no undo with no stone of mine left');
		assert.equal(canRedo(state), true);

		const redo = reduce(state, { type: 'client/redo' });
		assert.deepEqual(sent(redo.effects), [{ type: 'redo' }]);
		state = redo.state;
		assert.equal(canRedo(state), false, 'expected no second redo while the first is on its way');
		// The redo comes back as ordinary boards, in the moves' order.
		state = withMoves(state, [me]);
		assert.equal(canRedo(state), true, 'expected the engine\'s reply still to be redoable');
		state = withMoves(state, [reply], 1);
		assert.equal(canRedo(state), false);
		assert.equal(canUndo(state), true);
		assert.equal(boardText(state.cells).replace(/\./g, ''), 'xo');
	});

	it('a new move after a takeback leaves nothing to redo', () => {
		let state = withMoves(playingComputer('front'), [me, reply]);
		state = run(state, { type: 'client/undo' }, takebackBoard([me], reply), takebackBoard([], me)).state;
		state = run(state, { type: 'client/move', x: 0, y: 0 }, compactBoard({ x: 0, y: 0, role: 'front' }, 1)).state;
		assert.equal(canRedo(state), false);
	});

	it('takes a takeback board with content even on compact updates, ignoring a bad one', () => {
		const state = withMoves(playingComputer('front'), [me, reply]);
		const bad = { ...takebackBoard([me], reply), content: emptyCells(3) };
		assert.equal(reduce(state, bad).state, state);
	});

	it('nothing_to_redo clears Redo; any refusal lets the player ask again', () => {
		let state = withMoves(playingComputer('front'), [me, reply]);
		state = run(state, { type: 'client/undo' }, takebackBoard([me], reply), takebackBoard([], me), { type: 'client/redo' }).state;
		const refused = run(state, { type: 'error', code: 'nothing_to_redo', message: 'nothing to redo' });
		assert.equal(canRedo(refused.state), false);
		assert.deepEqual(refused.effects, [{ kind: 'toast', code: 'nothing_to_redo', message: 'nothing to redo', what: 'redo' }]);
		const undo = run(withMoves(playingComputer('front'), [me, reply]), { type: 'client/undo' },
			{ type: 'error', code: 'game_over', message: 'the game is over' }).state;
		assert.equal(canUndo(undo), true);
	});

	it('hides Undo and Redo once the game is over', () => {
		const state = run(withMoves(playingComputer('front'), [me]), { type: 'winner', winner: 'back', reason: 'forfeit' }).state;
		assert.deepEqual(toolsOf(state), { undo: false, redo: false });
		assert.equal(canUndo(state), false);
	});

	it('ignores offer and answer messages (a computer accepts at once)', () => {
		const state = withMoves(playingComputer('front'), [me]);
		assert.equal(reduce(state, { type: 'offer', what: 'takeback', by: 'back' }).state, state);
		assert.equal(reduce(state, { type: 'answer', what: 'takeback', accept: true, by: 'back' }).state, state);
	});
});

describe('takeback offers between two players', () => {
	const first = { x: 7, y: 7, role: 'front' };
	const second = { x: 8, y: 8, role: 'back' };

	it('shows Undo only; Undo sends an offer, which waits for the opponent', () => {
		let state = withMoves(playing('front'), [first]);
		assert.deepEqual(toolsOf(state), { undo: true, redo: false });
		assert.equal(canRedo(state), false);
		const asked = reduce(state, { type: 'client/undo' });
		assert.deepEqual(sent(asked.effects), [{ type: 'offer', what: 'takeback' }]);
		state = run(asked.state, { type: 'offer', what: 'takeback', by: 'front' }).state;
		assert.equal(state.offer, 'sent');
		assert.deepEqual(noteOf(state, 0), { key: 'note.offer.sent' });
		assert.equal(canUndo(state), false, 'expected one offer at a time');
		assert.equal(canAnswer(state), false, 'expected no answer to my own offer');
	});

	it('a declined offer: told once (the note, no toast), and Undo counts down the 10 s until it may ask again', () => {
		let state = withMoves(playing('front'), [first]);
		const { state: declined, effects } = run(state, { type: 'client/undo' }, { type: 'offer', what: 'takeback', by: 'front' },
			{ type: 'answer', what: 'takeback', accept: false, by: 'back' });
		state = declined;
		assert.equal(state.offer, null);
		assert.deepEqual(effects.filter((effect) => effect.kind === 'toast'), [], 'expected the answer told by the note alone');
		assert.deepEqual(noteOf(state, 0), { key: 'note.answer.opponent.declined' });
		// run() reduces at 1000 ms: the server refuses a new offer until 11000.
		assert.equal(undoWaitOf(state, 1000), 10);
		assert.equal(undoWaitOf(state, 8200), 3);
		assert.equal(undoWaitOf(state, 11_000), 0);
		assert.deepEqual(reduce(state, { type: 'client/undo' }, 5000).effects, [], 'expected no offer the server would refuse');
		assert.deepEqual(sent(reduce(state, { type: 'client/undo' }, 11_000).effects), [{ type: 'offer', what: 'takeback' }]);
		assert.equal(canUndo(state), true);
		assert.equal(boardText(state.cells).replace(/\./g, ''), 'x', 'expected the board unchanged');
		// The note goes with the next move.
		state = withMoves(state, [second], 1);
		assert.deepEqual(noteOf(state, 0), { key: 'note.moves', params: { moves: 2 } });
	});

	it('an accepted offer: the note says so, then the takeback boards', () => {
		let state = withMoves(playing('front'), [first, second]);
		const accepted = run(state, { type: 'client/undo' }, { type: 'offer', what: 'takeback', by: 'front' },
			{ type: 'answer', what: 'takeback', accept: true, by: 'back' });
		assert.ok(!accepted.effects.some((effect) => effect.kind === 'toast'), 'expected no toast beside the note');
		assert.deepEqual(noteOf(accepted.state, 0), { key: 'note.answer.opponent.accepted' });
		state = run(accepted.state, takebackBoard([first], second), takebackBoard([], first)).state;
		assert.equal(boardText(state.cells), boardText(emptyCells(15)));
		assert.deepEqual(noteOf(state, 0), { key: 'note.answer.opponent.accepted' },
			'expected the answer shown until the next move');
		assert.equal(isMyTurn(state), true);
		assert.equal(canRedo(state), false, 'expected no redo between two players');
	});

	it('the opponent\'s offer: a prompt to accept or decline, answered once', () => {
		let state = withMoves(playing('back'), [first, second]);
		const offered = run(state, { type: 'offer', what: 'takeback', by: 'front' });
		state = offered.state;
		assert.equal(state.offer, 'received');
		assert.deepEqual(kinds(offered.effects), ['sound:turn']);
		assert.deepEqual(noteOf(state, 0), { key: 'note.offer.received' });
		assert.equal(canAnswer(state), true);
		assert.equal(canUndo(state), false, 'expected no offer of mine while the opponent\'s is pending');
		const answered = reduce(state, { type: 'client/answer', accept: false });
		assert.deepEqual(sent(answered.effects), [{ type: 'answer', what: 'takeback', accept: false }]);
		assert.equal(canAnswer(answered.state), false, 'expected one answer only');
		const done = run(answered.state, { type: 'answer', what: 'takeback', accept: false, by: 'back' });
		assert.equal(done.state.offer, null);
		assert.deepEqual(done.effects, [], 'expected no toast for my own answer');
		assert.deepEqual(noteOf(done.state, 0), { key: 'note.answer.me.declined' });
		assert.deepEqual(reduce(done.state, { type: 'client/answer', accept: true }).effects, []);
	});

	it('ignores offers and answers of another kind or with bad fields', () => {
		const state = withMoves(playing('back'), [first]);
		for (const message of [
			{ type: 'offer', what: 'undo', by: 'front' },
			{ type: 'offer', what: 'rematch', by: 'front' }, // only after the end
			{ type: 'offer', what: 'takeback' },
			{ type: 'answer', what: 'takeback', accept: 'yes', by: 'front' },
		])
			assert.equal(reduce(state, message).state, state, JSON.stringify(message));
	});

	it('no_offer clears a prompt the server no longer has', () => {
		const state = run(withMoves(playing('back'), [first]), { type: 'offer', what: 'takeback', by: 'front' },
			{ type: 'client/answer', accept: true }, { type: 'error', code: 'no_offer', message: 'no offer' }).state;
		assert.equal(state.offer, null);
		assert.equal(canAnswer(state), false);
	});
});
