// web/js/game.js: the reducer of server messages and page actions into the
// page's state, and what the page should do (effects). Message by message,
// as the server sends them (core/PROTOCOL.md).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
	initialState, reduce, canPlace, isLive, isMyTurn, turnOf, boardText, statusOf, noteOf, emptyCells,
} from '../../web/js/game.js';
import { RETRY_DELAYS_MS } from '../../web/js/net.js';

const ROOM = '9c1d4a77-2b3e-4f10-8a6b-5d4e3c2b1a09';
const UID = '3f2b8c1e-6a4d-4e2f-9b1a-0c5d7e8f9a0b';
const WELCOME = { type: 'welcome', uid: UID, protocol: 1, size: 15, rule: 'freestyle', version: '0.1.0' };

/** Runs actions from state; returns the last state and every effect. */
function run(state, ...actions) {
	const effects = [];
	for (const action of actions) {
		const result = reduce(state, action, 1000);
		state = result.state;
		effects.push(...result.effects);
	}
	return { state, effects };
}

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

	it('mid-game: keeps the board, not live, and reconnects after 0.5 s, then 1, 2, 4, 8, 8 and 8 s, then gives up', () => {
		let state = run(playing('front'), boardMessage(moves)).state;
		const delays = [];
		for (let attempt = 0; attempt < RETRY_DELAYS_MS.length; attempt++) {
			const result = reduce(state, { type: 'client/closed', code: 1006 });
			state = result.state;
			assert.equal(state.phase, 'resuming');
			assert.equal(state.link, 'retrying');
			assert.equal(isLive(state), false);
			assert.deepEqual(statusOf(state), { key: 'status.reconnecting' });
			assert.equal(boardText(state.cells).replace(/\./g, ''), 'xo', 'expected the old board kept, dimmed');
			delays.push(result.effects.find((effect) => effect.kind === 'reconnect').delay);
		}
		assert.deepEqual(delays, RETRY_DELAYS_MS);
		const { state: lost, effects } = run(state, { type: 'client/closed', code: 1006 });
		assert.equal(lost.phase, 'over');
		assert.equal(lost.outcome, 'lost');
		assert.deepEqual(statusOf(lost), { key: 'status.lost' });
		assert.deepEqual(kinds(effects), ['forget-game', 'sound:loss']);
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

	it('finds the seat gone (queued instead): the game is lost, and the socket closed at once', () => {
		const { state, effects } = run(playing('front'), { type: 'client/closed', code: 1006 }, WELCOME,
			{ type: 'waiting' });
		assert.equal(state.phase, 'over');
		assert.equal(state.outcome, 'lost');
		assert.deepEqual(kinds(effects).slice(-3), ['disconnect', 'forget-game', 'sound:loss']);
		assert.deepEqual(statusOf(state), { key: 'status.lost' });
	});

	it('matched into another room instead: the game is lost', () => {
		const { state, effects } = run(playing('front'), { type: 'client/closed', code: 1006 }, WELCOME,
			{ type: 'role', role: 'back', room: 'another-room', size: 15, rule: 'freestyle' });
		assert.equal(state.outcome, 'lost');
		assert.ok(kinds(effects).includes('disconnect'));
	});

	it('4001, another tab took the seat: no reconnect, a new uid for this tab', () => {
		const { state, effects } = run(playing('front'), { type: 'client/closed', code: 4001 });
		assert.equal(state.phase, 'over');
		assert.equal(state.outcome, 'replaced');
		assert.deepEqual(kinds(effects), ['forget-game', 'new-uid']);
		assert.deepEqual(statusOf(state), { key: 'status.replaced' });
	});

	it('while searching: reconnects and searches on, and gives up after the last try', () => {
		let state = run(initialState(), { type: 'client/find' }, WELCOME, { type: 'waiting' }).state;
		for (let attempt = 0; attempt < RETRY_DELAYS_MS.length; attempt++) {
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
