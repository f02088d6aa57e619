// Protocol 2 in the page's pure modules (core/PROTOCOL.md 10): the clocks
// of a timed game and its first-move deadline, resign (asked first),
// abort, draw offers, the result of every end reason, rematch on the same
// socket, emotes; and none of it against a server of protocol 1. The
// reducer (game.js) message by message, with what the guards (state.js)
// allow and what the view (view.js) shows.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { reduce } from '../../web/js/game.js';
import {
	initialState, canAbort, canResign, canOfferDraw, canRematch, canEmote, canAnswer, isLive,
} from '../../web/js/state.js';
import {
	statusOf, noteOf, controlsOf, playersOf, clocksOf, emotesOf, toastTextOf, pageDataOf, poolChoicesOf,
} from '../../web/js/view.js';
import { text } from '../../web/js/text.js';

const ROOM = '0193b2c4-5e6f-8a01-9b2c-3d4e5f60718a';
const NEXT_ROOM = '0193b2c4-5e6f-8a01-9b2c-3d4e5f607aaa';
const UID = '3f2b8c1e-6a4d-4e2f-9b1a-0c5d7e8f9a0b';
const WELCOME_2 = { type: 'welcome', uid: UID, protocol: 2, size: 15, rule: 'freestyle', tc: '300+5', version: '0.1.0' };
const WELCOME_1 = { ...WELCOME_2, protocol: 1 };
const T0 = 100_000; // when the role arrives (ms)

/** Runs actions from state at time now (a number, or a function of the action's index). */
function run(state, actions, now = T0) {
	const effects = [];
	actions.forEach((action, i) => {
		const result = reduce(state, action, typeof now === 'function' ? now(i) : now);
		state = result.state;
		effects.push(...result.effects);
	});
	return { state, effects };
}

function after(state, action, now = T0) {
	return reduce(state, action, now).state;
}

function sent(effects) {
	return effects.filter((effect) => effect.kind === 'send').map((effect) => effect.message);
}

/** A timed role as side against Ada: 5+5, the first move due within 30 s. */
function timedRole(side, room = ROOM) {
	return {
		type: 'role', role: side, room, size: 15, rule: 'freestyle', tc: '300+5',
		clock: { front: 300000, back: 300000 }, abort_in: 30000, opponent: { name: 'Ada' },
	};
}

/** A page matched as side in a timed game (protocol 2, or welcome's). */
function timed(side = 'front', welcome = WELCOME_2) {
	return run(initialState(), [{ type: 'client/find' }, welcome, timedRole(side)]).state;
}

/** An untimed game of protocol 2 as side. */
function untimed(side = 'front') {
	return run(initialState(), [{ type: 'client/find' }, { ...WELCOME_2, tc: 'none' },
		{ type: 'role', role: side, room: ROOM, size: 15, rule: 'freestyle', tc: 'none', opponent: { name: 'Ada' } }]).state;
}

const MOVES = [
	{ x: 7, y: 7, role: 'front' },
	{ x: 8, y: 8, role: 'back' },
	{ x: 6, y: 6, role: 'front' },
];

/** The compact board after MOVES[index], with clock and abort_in as a timed server sends them. */
function timedBoard(index, clock, abortIn) {
	const move = MOVES[index];
	const board = { type: 'board', role: move.role === 'front' ? 'back' : 'front', move, moves: index + 1, clock };
	if (abortIn !== undefined)
		board.abort_in = abortIn;
	return board;
}

/** A timed game as side with the first two moves played, the second at T0 + 2000. */
function pastOpening(side = 'front') {
	return run(timed(side), [
		timedBoard(0, { front: 305000, back: 300000 }, 30000),
		timedBoard(1, { front: 305000, back: 305000 }),
	], (i) => T0 + 1000 * (i + 1)).state;
}

describe('a timed game\'s clocks', () => {
	it('come with role: the time control, both figures, the first-move deadline', () => {
		const state = timed('front');
		assert.equal(state.protocol, 2);
		assert.equal(state.tc, '300+5');
		assert.deepEqual(state.clock, { front: 300000, back: 300000, at: T0 });
		assert.equal(state.abortAt, T0 + 30000);
		assert.equal(pageDataOf(state).tc, '300+5');
	});

	it('do not run in the opening; the note counts the first move down', () => {
		const state = timed('front');
		const clocks = clocksOf(state, T0 + 5000);
		assert.deepEqual([clocks.front.text, clocks.front.running, clocks.back.running], ['5:00', false, false]);
		assert.deepEqual(noteOf(state, T0 + 5000), { key: 'note.abort.me', params: { seconds: 25 } });
		assert.equal(text('en', 'note.abort.me', { seconds: 25 }), 'Make your first move within 25 s.');
		const theirs = timed('back');
		assert.deepEqual(noteOf(theirs, T0), { key: 'note.abort.opponent', params: { seconds: 30 } });
	});

	it('take each board\'s figures; the deadline goes once two moves are played', () => {
		let state = after(timed('back'), timedBoard(0, { front: 305000, back: 300000 }, 28000), T0 + 2000);
		assert.equal(state.abortAt, T0 + 2000 + 28000);
		assert.deepEqual(noteOf(state, T0 + 2000), { key: 'note.abort.me', params: { seconds: 28 } });
		state = after(state, timedBoard(1, { front: 305000, back: 305000 }), T0 + 3000);
		assert.equal(state.abortAt, null);
		assert.deepEqual(state.clock, { front: 305000, back: 305000, at: T0 + 3000 });
		assert.deepEqual(noteOf(state, T0 + 3000), { key: 'note.moves', params: { moves: 2 } });
	});

	it('count the side to move down from the last message, and only that side', () => {
		const state = pastOpening('front');
		const at = T0 + 2000;
		const clocks = clocksOf(state, at + 4200);
		assert.deepEqual([clocks.front.running, clocks.back.running], [true, false]);
		assert.deepEqual([clocks.front.ms, clocks.back.ms], [305000 - 4200, 305000]);
		assert.equal(clocks.front.text, '5:01');
		const players = playersOf(state, 'en', '', at + 4200);
		assert.deepEqual([players.me.clock, players.me.running, players.opponent.clock], ['5:01', true, '5:05']);
	});

	it('are corrected by the next message, whatever the page had counted', () => {
		let state = pastOpening('front');
		state = after(state, timedBoard(2, { front: 290000, back: 305000 }), T0 + 20000);
		const clocks = clocksOf(state, T0 + 21000);
		assert.deepEqual([clocks.front.ms, clocks.back.ms], [290000, 304000]);
	});

	it('are low under 10 s', () => {
		const state = after(pastOpening('front'), timedBoard(2, { front: 12000, back: 9500 }), T0 + 5000);
		const clocks = clocksOf(state, T0 + 5500);
		assert.deepEqual([clocks.front.low, clocks.back.low, clocks.back.text], [false, true, '0:09.0']);
		const players = playersOf(state, 'en', '', T0 + 5500);
		assert.equal(players.opponent.low, true);
	});

	it('stop at the end, with the final figures and the flag of the side whose time ran out', () => {
		const state = after(pastOpening('back'), { type: 'winner', winner: 'back', reason: 'timeout', clock: { front: 0, back: 281344 } },
			T0 + 9000);
		const clocks = clocksOf(state, T0 + 60000);
		assert.deepEqual([clocks.front.text, clocks.front.flag, clocks.front.running], ['0:00', true, false]);
		assert.deepEqual([clocks.back.text, clocks.back.flag], ['4:42', false]);
		assert.deepEqual(statusOf(state), { key: 'status.win.timeout' });
		assert.deepEqual(noteOf(state, T0), { key: 'note.timeout.front' });
		assert.equal(playersOf(state, 'en', '', T0).opponent.flag, true);
		assert.equal(pageDataOf(state).reason, 'timeout');
	});

	it('are not there in an untimed game', () => {
		const state = untimed('front');
		assert.equal(clocksOf(state, T0), null);
		assert.equal(playersOf(state, 'en', '', T0).me.clock, '');
		assert.equal(state.abortAt, null);
		assert.deepEqual(noteOf(state, T0), { key: 'note.first' });
	});
});

describe('resign and abort', () => {
	it('abort stands in for resign while fewer than two moves are played, and sends abort', () => {
		const state = timed('front');
		assert.equal(canAbort(state), true);
		assert.equal(canResign(state), false);
		const controls = controlsOf(state);
		assert.deepEqual([controls.resign.key, controls.resign.action, controls.resign.hidden, controls.resign.disabled],
			['button.abort', 'abort', false, false]);
		const { effects } = reduce(state, { type: 'client/abort' }, T0);
		assert.deepEqual(sent(effects), [{ type: 'abort' }]);
	});

	it('resign asks first, and sends resign only on yes', () => {
		const state = pastOpening('front');
		assert.equal(canAbort(state), false);
		assert.equal(controlsOf(state).resign.key, 'button.resign');
		const asking = reduce(state, { type: 'client/resign' }, T0);
		assert.deepEqual(sent(asking.effects), []);
		assert.equal(asking.state.confirm, 'resign');
		const prompt = controlsOf(asking.state).prompt;
		assert.deepEqual([prompt.hidden, prompt.key, prompt.accept, prompt.decline], [false, 'prompt.resign', 'button.resign.confirm', 'button.cancel']);
		const no = reduce(asking.state, { type: 'client/answer', accept: false }, T0);
		assert.deepEqual(sent(no.effects), []);
		assert.equal(no.state.confirm, null);
		assert.equal(controlsOf(no.state).prompt.hidden, true);
		const yes = reduce(asking.state, { type: 'client/answer', accept: true }, T0);
		assert.deepEqual(sent(yes.effects), [{ type: 'resign' }]);
		assert.equal(yes.state.confirm, null);
	});

	it('the result of a resignation for both sides', () => {
		const message = { type: 'winner', winner: 'back', reason: 'resign' };
		assert.deepEqual(statusOf(after(pastOpening('front'), message)), { key: 'status.loss.resign' });
		assert.deepEqual(statusOf(after(pastOpening('back'), message)), { key: 'status.win.resign' });
	});

	it('an aborted game: winner none, no sound of a win or loss, and a note that it does not count', () => {
		const { state, effects } = run(timed('back'), [{ type: 'winner', winner: 'none', reason: 'aborted' }]);
		assert.equal(state.phase, 'over');
		assert.equal(state.outcome, 'aborted');
		assert.deepEqual(statusOf(state), { key: 'status.aborted' });
		assert.deepEqual(noteOf(state, T0), { key: 'note.aborted' });
		assert.equal(pageDataOf(state).result, 'aborted');
		assert.deepEqual(effects.filter((effect) => effect.kind === 'sound'), []);
	});

	it('too_late, when the opponent moved first, says so', () => {
		const { effects } = run(timed('front'), [{ type: 'client/abort' },
			{ type: 'error', code: 'too_late', message: 'too late' }]);
		const toast = effects.find((effect) => effect.kind === 'toast');
		assert.equal(toastTextOf(toast, 'en'), 'Too late to abort: both sides have moved.');
	});
});

describe('every end reason\'s result', () => {
	const cases = [
		['five', 'front', 'status.win', 'status.loss'],
		['full', 'front', 'status.win.full', 'status.loss.full'],
		['forfeit', 'front', 'status.win.forfeit', 'status.loss.forfeit'],
		['timeout', 'front', 'status.win.timeout', 'status.loss.timeout'],
		['resign', 'front', 'status.win.resign', 'status.loss.resign'],
		['agreement', 'draw', 'status.draw.agreement', 'status.draw.agreement'],
		['full', 'draw', 'status.draw', 'status.draw'],
		['aborted', 'none', 'status.aborted', 'status.aborted'],
	];
	for (const [reason, winner, frontKey, backKey] of cases) {
		it(`${reason} (winner ${winner}): a text for each side in both languages`, () => {
			const message = { type: 'winner', winner, reason, line: [] };
			assert.deepEqual(statusOf(after(pastOpening('front'), message)), { key: frontKey });
			assert.deepEqual(statusOf(after(pastOpening('back'), message)), { key: backKey });
			for (const key of [frontKey, backKey])
				assert.notEqual(text('zh', key), text('en', key), `expected a Chinese ${key}`);
		});
	}
});

describe('draw offers', () => {
	it('may be offered once the opening is played, and not again while one is pending', () => {
		assert.equal(canOfferDraw(timed('front')), false);
		const state = pastOpening('back');
		assert.equal(canOfferDraw(state), true);
		assert.equal(controlsOf(state).draw.disabled, false);
		const { state: asked, effects } = run(state, [{ type: 'client/draw' }]);
		assert.deepEqual(sent(effects), [{ type: 'offer', what: 'draw' }]);
		const offered = after(asked, { type: 'offer', what: 'draw', by: 'back' });
		assert.deepEqual([offered.offer, offered.offerWhat], ['sent', 'draw']);
		assert.deepEqual(noteOf(offered, T0), { key: 'note.draw.sent' });
		assert.equal(canOfferDraw(offered), false);
		assert.equal(pageDataOf(offered).offerWhat, 'draw');
	});

	it('the opponent\'s: the prompt, accepted with answer draw, then the agreed draw', () => {
		const offered = after(pastOpening('front'), { type: 'offer', what: 'draw', by: 'back' });
		assert.equal(canAnswer(offered), true);
		const prompt = controlsOf(offered).prompt;
		assert.deepEqual([prompt.hidden, prompt.key, prompt.disabled], [false, 'prompt.draw', false]);
		const { state, effects } = run(offered, [{ type: 'client/answer', accept: true }]);
		assert.deepEqual(sent(effects), [{ type: 'answer', what: 'draw', accept: true }]);
		const over = run(state, [{ type: 'answer', what: 'draw', accept: true, by: 'front' },
			{ type: 'winner', winner: 'draw', reason: 'agreement' }]).state;
		assert.equal(over.outcome, 'draw');
		assert.deepEqual(statusOf(over), { key: 'status.draw.agreement' });
	});

	it('declined: the offerer hears it, and a second offer too soon is told in draw words', () => {
		const asked = run(pastOpening('front'), [{ type: 'client/draw' }, { type: 'offer', what: 'draw', by: 'front' }]).state;
		const { state, effects } = run(asked, [{ type: 'answer', what: 'draw', accept: false, by: 'back' }]);
		assert.deepEqual(effects, [], 'expected the answer told by the note alone');
		assert.deepEqual(noteOf(state, T0), { key: 'note.draw.answer.opponent.declined' });
		const again = run(state, [{ type: 'client/draw' }, { type: 'error', code: 'too_soon', message: 'too soon' }]);
		const toast = again.effects.find((effect) => effect.kind === 'toast');
		assert.equal(toastTextOf(toast, 'en'), 'Your draw offer was just declined: wait a few seconds before offering again.');
	});

	it('a move declines it (the server\'s answer comes before the board)', () => {
		const offered = after(pastOpening('front'), { type: 'offer', what: 'draw', by: 'back' });
		const state = run(offered, [{ type: 'answer', what: 'draw', accept: false, by: 'front' },
			timedBoard(2, { front: 300000, back: 305000 })]).state;
		assert.equal(state.offer, null);
		assert.equal(controlsOf(state).prompt.hidden, true);
	});

	it('are not offered to the computer', () => {
		const ai = run(initialState(), [{ type: 'client/choose', mode: 'ai' }, { type: 'client/find' }, WELCOME_2,
			{ ...timedRole('front'), opponent: { ai: true, level: 'easy' } }]).state;
		assert.equal(controlsOf(ai).draw.hidden, true);
		assert.equal(controlsOf(ai).resign.hidden, false, 'expected Abort against the computer too');
	});
});

describe('rematch', () => {
	const five = { type: 'winner', winner: 'front', reason: 'five', line: [] };

	it('is offered after the end, beside "New opponent"', () => {
		const over = after(pastOpening('back'), five);
		assert.equal(canRematch(over), true);
		const controls = controlsOf(over);
		assert.deepEqual([controls.rematch.hidden, controls.rematch.disabled, controls.rematch.key], [false, false, 'button.rematch']);
		assert.deepEqual(controls.main, { key: 'button.new_opponent', disabled: false });
		const { state, effects } = run(over, [{ type: 'client/rematch' }, { type: 'offer', what: 'rematch', by: 'back' }]);
		assert.deepEqual(sent(effects), [{ type: 'offer', what: 'rematch' }]);
		assert.deepEqual(noteOf(state, T0), { key: 'note.rematch.sent' });
		assert.deepEqual([controlsOf(state).rematch.disabled, controlsOf(state).rematch.key], [true, 'button.rematch.sent']);
	});

	it('the opponent\'s: the prompt after the end, accepted with answer rematch', () => {
		const offered = run(pastOpening('front'), [five, { type: 'offer', what: 'rematch', by: 'back' }]).state;
		assert.equal(canAnswer(offered), true);
		assert.equal(controlsOf(offered).prompt.key, 'prompt.rematch');
		assert.deepEqual(noteOf(offered, T0), { key: 'note.rematch.received' });
		const { effects } = run(offered, [{ type: 'client/answer', accept: true }]);
		assert.deepEqual(sent(effects), [{ type: 'answer', what: 'rematch', accept: true }]);
	});

	it('accepted: the fresh role starts a new game on the same socket, the sides swapped', () => {
		const over = run(pastOpening('front'), [five, { type: 'offer', what: 'rematch', by: 'back' },
			{ type: 'client/answer', accept: true }, { type: 'answer', what: 'rematch', accept: true, by: 'front' }]).state;
		const { state, effects } = run(over, [timedRole('back', NEXT_ROOM)], T0 + 50000);
		assert.equal(state.phase, 'playing');
		assert.equal(state.role, 'back');
		assert.equal(state.room, NEXT_ROOM);
		assert.equal(state.moves, 0);
		assert.equal(state.winner, null);
		assert.equal(state.offer, null);
		assert.equal(isLive(state), true);
		assert.deepEqual(state.clock, { front: 300000, back: 300000, at: T0 + 50000 });
		assert.deepEqual(effects.map((effect) => effect.kind), ['save-game', 'toast']);
		assert.ok(!effects.some((effect) => effect.kind === 'connect' || effect.kind === 'disconnect'),
			'expected no new socket for a rematch');
	});

	it('declined, or with the opponent gone: no rematch', () => {
		const asked = run(pastOpening('front'), [five, { type: 'client/rematch' }, { type: 'offer', what: 'rematch', by: 'front' }]).state;
		const declined = run(asked, [{ type: 'answer', what: 'rematch', accept: false, by: 'back' }]);
		assert.deepEqual(declined.effects, [], 'expected the answer told by the note alone');
		assert.deepEqual(noteOf(declined.state, T0), { key: 'note.rematch.answer.opponent.declined' });
		const gone = after(declined.state, { type: 'disconnect', disconnect: 'opponent left' });
		assert.equal(canRematch(gone), false);
		assert.equal(controlsOf(gone).rematch.hidden, true);
		assert.deepEqual(controlsOf(gone).main, { key: 'button.again', disabled: false });
	});

	it('a role after the end of a game on a closed socket starts nothing', () => {
		const over = after(after(pastOpening('front'), five), { type: 'client/closed', code: 1006 });
		assert.equal(after(over, timedRole('back', NEXT_ROOM)).phase, 'over');
	});
});

describe('emotes', () => {
	it('go out with the player\'s bubble at once, then the bar pauses for 3 s', () => {
		const state = untimed('front');
		assert.equal(emotesOf(state, T0).hidden, false);
		const { state: next, effects } = run(state, [{ type: 'client/emote', emote: 'hello' }]);
		assert.deepEqual(sent(effects), [{ type: 'emote', emote: 'hello' }]);
		assert.equal(playersOf(next, 'en', '', T0 + 100).me.bubble, 'Hello!');
		assert.equal(playersOf(next, 'zh', '', T0 + 100).me.bubble, '你好！');
		assert.equal(emotesOf(next, T0 + 2999).disabled, true);
		assert.equal(canEmote(next, T0 + 2999), false);
		assert.deepEqual(sent(reduce(next, { type: 'client/emote', emote: 'gg' }, T0 + 2000).effects), []);
		assert.equal(emotesOf(next, T0 + 3000).disabled, false);
		assert.deepEqual(sent(reduce(next, { type: 'client/emote', emote: 'gg' }, T0 + 3000).effects), [{ type: 'emote', emote: 'gg' }]);
		assert.equal(playersOf(next, 'en', '', T0 + 3000).me.bubble, '', 'expected the bubble gone after 3 s');
	});

	it('of the opponent show by its card, unless muted', () => {
		const state = after(untimed('front'), { type: 'emote', by: 'back', emote: 'smug' }, T0);
		assert.equal(playersOf(state, 'en', '', T0 + 10).opponent.bubble, 'Too easy.');
		assert.equal(playersOf(state, 'en', '', T0 + 10).opponent.emote, 'smug');
		const muted = after(state, { type: 'client/mute-emotes', muted: true });
		assert.equal(playersOf(muted, 'en', '', T0 + 10).opponent.bubble, '');
		assert.equal(emotesOf(muted, T0).muted, true);
		const later = after(muted, { type: 'emote', by: 'back', emote: 'wow' }, T0 + 20);
		assert.equal(playersOf(later, 'en', '', T0 + 30).opponent.bubble, '');
		const unmuted = after(later, { type: 'client/mute-emotes', muted: false });
		assert.equal(playersOf(after(unmuted, { type: 'emote', by: 'back', emote: 'wow' }, T0 + 40), 'en', '', T0 + 50).opponent.bubble, 'Wow!');
	});

	it('are ignored when unknown, from the player\'s own side, or outside a room', () => {
		const state = untimed('front');
		for (const message of [{ type: 'emote', by: 'back', emote: 'boo' }, { type: 'emote', by: 'front', emote: 'gg' }])
			assert.equal(after(state, message), state, JSON.stringify(message));
		assert.equal(after(initialState(), { type: 'emote', by: 'back', emote: 'gg' }).bubbles.opponent, null);
		assert.deepEqual(sent(reduce(state, { type: 'client/emote', emote: 'boo' }, T0).effects), []);
	});

	it('stay after the end while the opponent is there, and go with it', () => {
		const over = after(untimed('front'), { type: 'winner', winner: 'front', reason: 'five', line: [] });
		assert.equal(emotesOf(over, T0).hidden, false);
		const gone = after(over, { type: 'disconnect', disconnect: 'opponent left' });
		assert.equal(emotesOf(gone, T0).hidden, true);
	});

	it('are not there against the computer', () => {
		const ai = run(initialState(), [{ type: 'client/choose', mode: 'ai' }, { type: 'client/find' }, WELCOME_2,
			{ type: 'role', role: 'front', room: ROOM, size: 15, rule: 'freestyle', tc: 'none', opponent: { ai: true, level: 'easy' } }]).state;
		assert.equal(emotesOf(ai, T0).hidden, true);
	});
});

describe('a server of protocol 1', () => {
	it('gets none of protocol 2\'s requests: no resign, abort, draw, rematch or emotes', () => {
		const state = run(timed('front', WELCOME_1), [
			timedBoard(0, { front: 1, back: 1 }), timedBoard(1, { front: 1, back: 1 }),
		]).state;
		const controls = controlsOf(state);
		assert.deepEqual([controls.resign.hidden, controls.draw.hidden], [true, true]);
		assert.equal(emotesOf(state, T0).hidden, true);
		for (const action of ['client/resign', 'client/abort', 'client/draw'])
			assert.deepEqual(sent(reduce(state, { type: action }, T0).effects), [], action);
		const over = after(state, { type: 'winner', winner: 'front', reason: 'five', line: [] });
		assert.equal(controlsOf(over).rematch.hidden, true);
		assert.deepEqual(controlsOf(over).main, { key: 'button.again', disabled: false });
		assert.deepEqual(sent(reduce(over, { type: 'client/rematch' }, T0).effects), []);
	});
});

describe('the pool chosen', () => {
	it('is changed on the start screen only, value by value', () => {
		let state = after(initialState(), { type: 'client/choose', size: '19' });
		state = after(state, { type: 'client/choose', tc: '180+2' });
		assert.deepEqual(state.pool, { size: 19, rule: 'freestyle', tc: '180+2' });
		const searching = after(state, { type: 'client/find' });
		assert.deepEqual(after(searching, { type: 'client/choose', rule: 'standard' }).pool, state.pool);
	});

	it('is listed in the page\'s language, the chosen values selected', () => {
		const state = after(initialState(), { type: 'client/choose', size: '19', rule: 'standard', tc: '10+0' });
		const choices = poolChoicesOf(state, 'zh');
		assert.deepEqual(choices.sizes.map((choice) => choice.label), ['15×15', '19×19']);
		assert.deepEqual(choices.rules.map((choice) => choice.label), ['自由', '标准', '连珠']);
		assert.deepEqual(choices.tcs.map((choice) => choice.label), ['不计时', '1+0', '3+2', '5+3', '10+5', '15+10', '10s+0']);
		assert.deepEqual(choices.chosen, { size: '19', rule: 'standard', tc: '10+0' });
	});

	it('is offered whole for the server\'s games, and only its rule for two players on one screen', () => {
		const shown = { hidden: false, sizeHidden: false, tcHidden: false };
		assert.deepEqual(controlsOf(initialState()).pool, shown);
		assert.deepEqual(controlsOf(after(initialState(), { type: 'client/choose', mode: 'ai' })).pool, shown);
		assert.deepEqual(controlsOf(after(initialState(), { type: 'client/choose', mode: 'local' })).pool,
			{ hidden: false, sizeHidden: true, tcHidden: true });
	});
});
