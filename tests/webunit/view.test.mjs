// web/js/view.js: what the page shows of the state, the decisions main.js
// only puts on the page: the controls, the player cards, the board's
// picture, the toasts and the data-* attributes the browser tests read.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { reduce } from '../../web/js/game.js';
import { initialState, emptyCells } from '../../web/js/state.js';
import {
	controlsOf, playersOf, ruleTextOf, toastTextOf, boardPictureOf, pageDataOf, boardDataOf,
	moveSaid, pointSaid, positionSaid,
} from '../../web/js/view.js';

const ROOM = '9c1d4a77-2b3e-4f10-8a6b-5d4e3c2b1a09';
const WELCOME = { type: 'welcome', uid: '3f2b8c1e-6a4d-4e2f-9b1a-0c5d7e8f9a0b', protocol: 1, size: 15, rule: 'freestyle' };

/** The state after actions from a page that has just loaded. */
function after(...actions) {
	return actions.reduce((state, action) => reduce(state, action, 1000).state, initialState());
}

/** A compact board (updates=move) after move, with moves played in all. */
function compactBoard(move, moves) {
	return { type: 'board', role: move.role === 'front' ? 'back' : 'front', move, moves };
}

function role(role, opponent) {
	return { type: 'role', role, room: ROOM, size: 15, rule: 'freestyle', opponent };
}

/** An online game as role against Ada, with moves [{x, y, role}] played. */
function online(side = 'front', moves = []) {
	return after({ type: 'client/find' }, WELCOME, role(side, { name: 'Ada' }),
		...moves.map((move, i) => compactBoard(move, i + 1)));
}

/** A game against the engine at level, as side, with moves played. */
function computer(side = 'front', level = 'hard', moves = []) {
	return after({ type: 'client/choose', mode: 'ai', level }, { type: 'client/find' }, WELCOME,
		role(side, { name: `Computer (${level})`, ai: true, level }),
		...moves.map((move, i) => compactBoard(move, i + 1)));
}

/** A local game with points [[x, y], …] clicked in turn. */
function local(points = []) {
	return after({ type: 'client/choose', mode: 'local' }, { type: 'client/find' },
		...points.map(([x, y]) => ({ type: 'client/move', x, y })));
}

/** A control's state as one word: 'hidden', 'disabled' or 'enabled'. */
function shown(control) {
	return control.hidden ? 'hidden' : control.disabled ? 'disabled' : 'enabled';
}

const BLACK = { x: 7, y: 7, role: 'front' };

describe('the controls', () => {
	it('before a game: the mode\'s start button works, the choice and the name field are open, no tools', () => {
		for (const [mode, key] of [['online', 'button.find'], ['ai', 'button.ai'], ['local', 'button.local']]) {
			const controls = controlsOf(after({ type: 'client/choose', mode }));
			assert.deepEqual(controls.main, { key, disabled: false }, mode);
			assert.equal(controls.cancel.hidden, true);
			assert.equal(controls.nameLocked, false);
			assert.equal(controls.modes.hidden, false);
			assert.equal(controls.levels.hidden, mode !== 'ai', `expected the levels only for vs Computer, not ${mode}`);
			assert.equal(controls.tools.hidden, true);
			assert.equal(controls.veil, false);
		}
	});

	it('while searching: the main button says so and waits, Cancel is there, the choice is closed', () => {
		const controls = controlsOf(after({ type: 'client/find' }));
		assert.deepEqual(controls.main, { key: 'button.searching', disabled: true });
		assert.deepEqual(controls.cancel, { key: 'button.cancel', hidden: false });
		assert.equal(controls.nameLocked, true);
		assert.equal(controls.modes.hidden, true);
		assert.deepEqual(controlsOf(after({ type: 'client/choose', mode: 'ai' }, { type: 'client/find' })).main,
			{ key: 'button.starting', disabled: true });
	});

	it('in an online game: Undo only, working once the player has a stone; no Cancel', () => {
		let controls = controlsOf(online('front'));
		assert.deepEqual(controls.main, { key: 'button.playing', disabled: true });
		assert.equal(controls.cancel.hidden, true);
		assert.equal(controls.tools.hidden, false);
		assert.deepEqual([shown(controls.undo), shown(controls.redo)], ['disabled', 'hidden']);
		controls = controlsOf(online('front', [BLACK]));
		assert.deepEqual([shown(controls.undo), shown(controls.redo)], ['enabled', 'hidden']);
	});

	it('the opponent\'s takeback offer: the prompt, answered once', () => {
		const offered = reduce(online('back', [BLACK, { x: 8, y: 8, role: 'back' }]),
			{ type: 'offer', what: 'takeback', by: 'front' }).state;
		assert.equal(shown(controlsOf(offered).prompt), 'enabled');
		const answered = reduce(offered, { type: 'client/answer', accept: true }).state;
		assert.equal(shown(controlsOf(answered).prompt), 'disabled');
		assert.equal(shown(controlsOf(online('back')).prompt), 'hidden');
	});

	it('against the computer: Undo and Redo while it goes on, none after the end', () => {
		const controls = controlsOf(computer('front', 'easy', [BLACK]));
		assert.deepEqual([shown(controls.undo), shown(controls.redo)], ['enabled', 'disabled']);
		const over = reduce(computer('front', 'easy', [BLACK]), { type: 'winner', winner: 'back', reason: 'five', line: [] }).state;
		assert.equal(controlsOf(over).tools.hidden, true);
		assert.deepEqual(controlsOf(over).main, { key: 'button.again', disabled: false });
	});

	it('in a local game: Leave instead of Cancel, Undo and Redo also after the end', () => {
		const controls = controlsOf(local([[7, 7]]));
		assert.deepEqual(controls.cancel, { key: 'button.leave', hidden: false });
		assert.deepEqual([shown(controls.undo), shown(controls.redo)], ['enabled', 'disabled']);
		const won = local([[3, 7], [3, 8], [4, 7], [4, 8], [5, 7], [5, 8], [6, 7], [6, 8], [7, 7]]);
		assert.equal(won.phase, 'over');
		assert.equal(controlsOf(won).cancel.hidden, true);
		assert.deepEqual([shown(controlsOf(won).undo), shown(controlsOf(won).redo)], ['enabled', 'disabled']);
	});

	it('a resumed seat: the veil over the board until the server\'s state is all in', () => {
		const resuming = after({ type: 'client/resume', room: ROOM, role: 'front' });
		assert.equal(controlsOf(resuming).veil, true);
		assert.deepEqual(controlsOf(resuming).main, { key: 'button.resuming', disabled: true });
		const seated = reduce(reduce(resuming, WELCOME).state, role('front', { name: 'Ada' })).state;
		assert.equal(controlsOf(seated).veil, true);
		assert.equal(controlsOf(reduce(seated, { type: 'pong' }).state).veil, false);
	});
});

describe('the player cards', () => {
	it('before a game: this player by the name typed (or "Guest": the card\'s badge says "you"), no colours', () => {
		const players = playersOf(initialState(), 'en', 'Ada');
		assert.equal(players.me.name, 'Ada');
		assert.equal(players.me.role, '');
		assert.equal(players.opponent.name, 'Opponent');
		assert.equal(playersOf(initialState(), 'zh', '').me.name, '游客');
		assert.equal(playersOf(initialState(), 'en', '').me.name, 'Guest');
	});

	it('while searching: the opponent is waited for', () => {
		const players = playersOf(after({ type: 'client/find' }), 'en', '');
		assert.equal(players.opponent.name, 'Waiting…');
		assert.equal(players.opponent.searching, true);
	});

	it('in an online game: the colours, the opponent\'s name or "Opponent", whose turn it is', () => {
		const players = playersOf(online('back'), 'en', '');
		assert.deepEqual([players.me.role, players.me.roleText], ['back', 'White']);
		assert.deepEqual([players.opponent.name, players.opponent.role, players.opponent.roleText], ['Ada', 'front', 'Black']);
		assert.deepEqual([players.me.turn, players.opponent.turn], [false, true]);
		assert.equal(players.opponent.ai, false);
		const nameless = after({ type: 'client/find' }, WELCOME, role('front'));
		assert.equal(playersOf(nameless, 'zh', '').opponent.name, '对手');
	});

	it('the opponent away, then gone', () => {
		const away = reduce(online('front'), { type: 'opponent_away', seconds: 30 }).state;
		assert.equal(playersOf(away, 'en', '').opponent.away, true);
		const left = reduce(online('front'), { type: 'disconnect', disconnect: 'opponent left' }).state;
		assert.equal(playersOf(left, 'en', '').opponent.left, true);
	});

	it('against the computer: the AI badge, the level in its name only (not "Computer (hard) — White · Hard")', () => {
		const opponent = playersOf(computer('front', 'hard'), 'en', '').opponent;
		assert.equal(opponent.ai, true);
		assert.equal(opponent.name, 'Computer (hard)');
		assert.equal(opponent.roleText, 'White');
		assert.equal(playersOf(computer('front', 'hard'), 'zh', '').opponent.roleText, '白棋');
	});

	it('names the computer itself from its level, in the page\'s language, never by the server\'s English name', () => {
		for (const opponent of [
			{ name: 'Computer (hard)', ai: true, level: 'hard' }, // what the server sends now
			{ ai: true, level: 'hard' }, // what it will send
		]) {
			const state = after({ type: 'client/choose', mode: 'ai', level: 'hard' }, { type: 'client/find' }, WELCOME,
				role('front', opponent));
			const form = JSON.stringify(opponent);
			assert.equal(playersOf(state, 'en', '').opponent.name, 'Computer (hard)', form);
			assert.equal(playersOf(state, 'zh', '').opponent.name, '电脑（困难）', form);
			assert.equal(playersOf(state, 'zh', '').opponent.ai, true, form);
			const over = reduce(state, { type: 'winner', winner: 'back', reason: 'five', line: [] }).state;
			assert.equal(playersOf(over, 'zh', '').opponent.name, '电脑（困难）', `${form}, after the end`);
		}
	});

	it('names the computer at each level, and plainly when the server gives no level it knows', () => {
		for (const [level, en, zh] of [['easy', 'Computer (easy)', '电脑（简单）'], ['medium', 'Computer (medium)', '电脑（中等）']]) {
			const state = after({ type: 'client/find' }, WELCOME, role('back', { ai: true, level }));
			assert.deepEqual([playersOf(state, 'en', '').opponent.name, playersOf(state, 'zh', '').opponent.name], [en, zh]);
		}
		for (const opponent of [{ ai: true }, { ai: true, level: 'godlike', name: 'Computer (godlike)' }]) {
			const state = after({ type: 'client/find' }, WELCOME, role('back', opponent));
			assert.equal(playersOf(state, 'en', '').opponent.name, 'Computer', JSON.stringify(opponent));
			assert.equal(playersOf(state, 'zh', '').opponent.name, '电脑', JSON.stringify(opponent));
			assert.equal(playersOf(state, 'en', '').opponent.roleText, 'Black', 'expected no level after the colour');
		}
	});

	it('keeps a player\'s own name, even one that reads like the computer\'s', () => {
		const state = after({ type: 'client/find' }, WELCOME, role('back', { name: 'Computer (hard)' }));
		assert.equal(playersOf(state, 'zh', '').opponent.name, 'Computer (hard)');
		assert.equal(playersOf(state, 'zh', '').opponent.ai, false);
	});

	it('in a local game: Player 1 with black and Player 2 with white, the turn going from one to the other', () => {
		let players = playersOf(local(), 'en', 'Ada');
		assert.deepEqual([players.me.name, players.me.role, players.me.turn], ['Player 1', 'front', true]);
		assert.deepEqual([players.opponent.name, players.opponent.role, players.opponent.turn], ['Player 2', 'back', false]);
		players = playersOf(local([[7, 7]]), 'zh', '');
		assert.deepEqual([players.me.name, players.me.turn, players.opponent.name, players.opponent.turn],
			['玩家一', false, '玩家二', true]);
	});
});

describe('the rest of the page', () => {
	it('names the rule once a game is shown', () => {
		assert.equal(ruleTextOf(initialState(), 'en'), '');
		assert.equal(ruleTextOf(online(), 'en'), 'Freestyle: five or more in a row wins.');
		assert.equal(ruleTextOf({ ...online(), rule: 'caro' }, 'en'), '', 'expected no text for a rule the page does not know');
	});

	it('toasts a text key, a refusal it knows in its own words and any other in the server\'s', () => {
		assert.equal(toastTextOf({ kind: 'toast', key: 'toast.back' }, 'en'), 'Your opponent is back.');
		assert.equal(toastTextOf({ kind: 'toast', code: 'occupied', message: 'that point is taken' }, 'zh'), '这里已经有棋子了。');
		assert.equal(toastTextOf({ kind: 'toast', code: 'new_thing', message: 'no such thing' }, 'en'),
			'The server refused: no such thing');
	});

	it('previews a stone where a click would play, and the keyboard cursor only on a live board', () => {
		const state = online('front', []);
		let picture = boardPictureOf(state, { aim: { x: 3, y: 4 } });
		assert.deepEqual(picture.preview, { x: 3, y: 4, role: 'front' });
		assert.equal(picture.cursor, null);
		picture = boardPictureOf(state, { aim: { x: 3, y: 4 }, cursor: { x: 3, y: 4 } });
		assert.deepEqual(picture.cursor, { x: 3, y: 4 });
		const theirs = online('back');
		assert.equal(boardPictureOf(theirs, { aim: { x: 3, y: 4 } }).preview, null, 'expected no preview on the opponent\'s turn');
		assert.equal(boardPictureOf(initialState(), { cursor: { x: 1, y: 1 } }).cursor, null);
		assert.deepEqual(boardPictureOf(local([[7, 7]]), { aim: { x: 0, y: 0 } }).preview, { x: 0, y: 0, role: 'back' },
			'expected white\'s stone in a local game after black moved');
	});

	it('gives the tests the state as data-* attributes', () => {
		assert.deepEqual(pageDataOf(initialState()), {
			state: 'idle', role: '', turn: '', result: '', link: 'closed', live: 'false',
			mode: 'online', level: 'medium', kind: '', offer: '', offerWhat: '', confirm: '', reason: '', tc: '', protocol: '1',
			invite: '', notice: '',
		});
		const data = pageDataOf(online('front', [BLACK]));
		assert.deepEqual([data.state, data.role, data.turn, data.live, data.kind], ['playing', 'front', 'opponent', 'true', 'online']);
		assert.deepEqual(boardDataOf(online('front', [BLACK])), {
			size: '15', moves: '1', stones: '1', board: emptyCells(15).map((_, i) => (i === 7 * 15 + 7 ? 'x' : '.')).join(''),
			last: '7,7', line: '', forbidden: '',
		});
	});
});

describe('what a screen reader is told', () => {
	it('says a move, the cursor\'s point and the position with its last moves, newest first', () => {
		const state = reduce(reduce(online('front'), { type: 'board', move: { x: 7, y: 7, role: 'front' }, role: 'back', moves: 1 }).state,
			{ type: 'board', move: { x: 8, y: 6, role: 'back' }, role: 'front', moves: 2 }).state;
		assert.equal(moveSaid({ x: 7, y: 7, role: 'front' }, 15, 'en'), 'Black H8');
		assert.equal(moveSaid({ x: 7, y: 7, role: 'front' }, 15, 'zh'), '黑棋 H8');
		assert.equal(pointSaid(state, { x: 7, y: 7 }, 'en'), 'H8, Black');
		assert.equal(pointSaid(state, { x: 0, y: 14 }, 'en'), 'A1, empty');
		assert.equal(positionSaid(state, 'en'), 'Gomoku board, 15 by 15. 2 stones. Last moves, newest first: White I9, Black H8.');
		assert.equal(positionSaid(initialState(), 'en'), 'Gomoku board, 15 by 15. 0 stones.');
	});
});
