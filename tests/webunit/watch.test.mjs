// web/js/watch.js: the spectator's page, message by message (connecting,
// watching, over, closed, missing, full, lost), what it shows of the room
// (clocks, bubbles, seats away, status and note), and the count of
// spectators a player's page shows.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
	newWatch, reduceWatch, watchLive, watchClocksOf, watchStatusOf, watchNoteOf, watchBubbleOf, watchCounting,
	RECORD_TRIES, RECORD_RETRY_MS,
} from '../../web/js/watch.js';
import { reduce } from '../../web/js/game.js';
import { initialState, emptyCells } from '../../web/js/state.js';
import { spectatorsOf, seatCardsOf, movesSeenOf } from '../../web/js/view.js';
import { LANGUAGES, hasText } from '../../web/js/text.js';

const ROOM = '25edc766-5e4f-88e7-b550-709182c70aed';
const SPECTATE = {
	type: 'spectate', room: ROOM, size: 15, rule: 'freestyle', tc: '60+0',
	players: { front: { name: 'Bo' }, back: { name: 'Ann' } },
};
const MOVES = [{ x: 7, y: 7, role: 'front' }, { x: 8, y: 8, role: 'back' }, { x: 8, y: 7, role: 'front' }];

function content(moves, size = 15) {
	const cells = emptyCells(size);
	for (const { x, y, role } of moves)
		cells[y * size + x] = role;
	return cells;
}

/** Runs messages through the reducer from a new spectator at time 0; {watch, effects} of all. */
function run(messages, watch = newWatch(ROOM)) {
	const effects = [];
	for (const [message, now = 0] of messages.map((entry) => (Array.isArray(entry) ? entry : [entry]))) {
		const result = reduceWatch(watch, message, now);
		watch = result.watch;
		effects.push(...result.effects);
	}
	return { watch, effects };
}

/** A spectator that came before the first move. */
function watching() {
	return run([{ type: 'welcome', protocol: 2 }, SPECTATE,
		{ type: 'board', content: emptyCells(15), role: 'front', moves: 0, clock: { front: 60000, back: 60000 } }]).watch;
}

describe('a spectator', () => {
	it('connects, then watches the room spectate names, from an empty board', () => {
		const fresh = newWatch(ROOM);
		assert.equal(fresh.phase, 'connecting');
		assert.deepEqual(watchStatusOf(fresh), { key: 'watch.status.connecting' });
		const watch = watching();
		assert.equal(watch.phase, 'watching');
		assert.equal(watch.link, 'open');
		assert.equal(watch.tc, '60+0');
		assert.deepEqual(watch.players, SPECTATE.players);
		assert.equal(watchLive(watch), true);
		assert.deepEqual(watchStatusOf(watch), { key: 'watch.status.front' });
		assert.deepEqual(watchNoteOf(watch, 0), { key: 'note.first' });
	});

	it('sees the moves as they come, compact or whole, in the move list', () => {
		let { watch, effects } = run([
			{ type: 'board', move: MOVES[0], role: 'back', moves: 1 },
			{ type: 'board', content: content(MOVES.slice(0, 2)), move: MOVES[1], role: 'front', moves: 2 },
		], watching());
		assert.deepEqual(watch.history, MOVES.slice(0, 2));
		assert.deepEqual(watch.cells, content(MOVES.slice(0, 2)));
		assert.deepEqual(watch.lastMove, MOVES[1]);
		assert.equal(watch.toMove, 'front');
		assert.deepEqual(effects.filter((effect) => effect.kind === 'fetch-record'), [], 'expected every move seen');
		({ watch } = run([{ type: 'board', content: content(MOVES.slice(0, 1)), undo: MOVES[1], role: 'back', moves: 1 }], watch));
		assert.deepEqual(watch.history, MOVES.slice(0, 1), 'expected a takeback to take the move off the list');
		assert.deepEqual(watch.lastMove, MOVES[0]);
		assert.deepEqual(watchNoteOf(watch, 0), { key: 'note.moves', params: { moves: 1 } });
	});

	it('coming in mid-game, asks for the record once and fills the move list from it when it fits', () => {
		const { watch, effects } = run([{ type: 'welcome' }, SPECTATE,
			{ type: 'board', content: content(MOVES), move: MOVES[2], role: 'back', moves: 3 }]);
		assert.deepEqual(watch.history, [MOVES[2]]);
		assert.deepEqual(effects, [{ kind: 'fetch-record', room: ROOM, delay: 0 }]);
		const behind = reduceWatch(watch, { type: 'client/record', record: { id: ROOM, moves: MOVES.slice(0, 2) } });
		assert.deepEqual(behind.effects, [{ kind: 'fetch-record', room: ROOM, delay: RECORD_RETRY_MS }],
			'expected a record behind the game asked for again');
		let tired = behind.watch;
		for (let i = 0; i < RECORD_TRIES; i++)
			tired = reduceWatch(tired, { type: 'client/record', record: { id: ROOM, moves: [] } }).watch;
		assert.deepEqual(reduceWatch(tired, { type: 'client/record', record: { id: ROOM, moves: [] } }).effects, [],
			`expected at most ${RECORD_TRIES} asks`);
		const wrong = reduceWatch(watch, { type: 'client/record', record: { id: ROOM, moves: [MOVES[1], MOVES[0], MOVES[2]].map((m, i) => ({ ...m, role: i % 2 ? 'back' : 'front' })) } }).watch;
		assert.deepEqual(wrong.history, [MOVES[2]], 'expected a record that does not lead to the position ignored');
		const filled = reduceWatch(watch, { type: 'client/record', record: { id: ROOM, moves: MOVES } }).watch;
		assert.deepEqual(filled.history, MOVES);
		const again = run([{ type: 'board', move: { x: 0, y: 0, role: 'back' }, role: 'front', moves: 4 }], watch);
		assert.deepEqual(again.effects.filter((effect) => effect.kind === 'fetch-record'), [], 'expected the record asked for once');
	});

	it('counts the clock of the side to move down from the server\'s figures, once two moves are played', () => {
		const { watch } = run([
			[{ type: 'board', move: MOVES[0], role: 'back', moves: 1, clock: { front: 60000, back: 60000 } }, 1000],
			[{ type: 'board', move: MOVES[1], role: 'front', moves: 2, clock: { front: 60000, back: 58000 } }, 2000],
		], watching());
		const clocks = watchClocksOf(watch, 7000);
		assert.equal(clocks.front.text, '0:55');
		assert.equal(clocks.front.running, true);
		assert.equal(clocks.back.text, '0:58');
		assert.equal(clocks.back.running, false);
		assert.equal(watchCounting(watch, 7000), true);
		assert.equal(watchClocksOf(newWatch(ROOM), 0), null);
	});

	it('shows each side\'s emotes as bubbles, and a seat away with its countdown', () => {
		let { watch } = run([
			[{ type: 'emote', by: 'back', emote: 'gg' }, 1000],
			[{ type: 'opponent_away', role: 'front', seconds: 30 }, 2000],
		], watching());
		assert.equal(watchBubbleOf(watch, 'back', 2000), 'gg');
		assert.equal(watchBubbleOf(watch, 'front', 2000), '');
		assert.equal(watchBubbleOf(watch, 'back', 5000), '', 'expected the bubble gone after 3 s');
		assert.deepEqual(watchNoteOf(watch, 12000), { key: 'watch.away.front', params: { seconds: 20 } });
		assert.equal(watchCounting(watch, 12000), true);
		({ watch } = run([{ type: 'opponent_back', role: 'front' }, { type: 'emote', by: 'nobody', emote: 'gg' }], watch));
		assert.equal(watch.away.front, null);
		assert.deepEqual(watchNoteOf(watch, 12000), { key: 'note.first' });
	});

	it('sees the end: the result, the winning line, the clocks stopped', () => {
		const { watch } = run([
			{ type: 'board', move: MOVES[0], role: 'back', moves: 1 },
			{ type: 'winner', winner: 'back', reason: 'resign', clock: { front: 50000, back: 40000 } },
		], watching());
		assert.equal(watch.phase, 'over');
		assert.equal(watchLive(watch), false);
		assert.deepEqual(watchStatusOf(watch), { key: 'watch.result.back' });
		assert.deepEqual(watchNoteOf(watch, 0), { key: 'reason.resign' });
		const clocks = watchClocksOf(watch, 99000);
		assert.equal(clocks.front.running || clocks.back.running, false);
		assert.equal(clocks.front.text, '0:50');
		const late = reduceWatch(watch, { type: 'board', move: MOVES[1], role: 'front', moves: 2 }).watch;
		assert.equal(late, watch, 'expected no board after the end');
		const timeout = run([{ type: 'winner', winner: 'front', reason: 'timeout', line: [] }], watching()).watch;
		assert.equal(watchClocksOf(timeout, 0).back.flag, true);
	});

	it('keeps black\'s forbidden points of a renju board to mark them, until white is to move or the end', () => {
		const renju = run([{ type: 'welcome', protocol: 2 }, { ...SPECTATE, rule: 'renju' },
			{ type: 'board', content: content(MOVES.slice(0, 2)), role: 'front', moves: 2,
				forbidden: [{ x: 6, y: 8 }, { x: 15, y: 1 }, { x: 'a', y: 0 }] }]).watch;
		assert.deepEqual(renju.forbidden, [{ x: 6, y: 8 }], 'expected the points on the board kept, the others dropped');
		const white = run([{ type: 'board', move: MOVES[2], role: 'back', moves: 3 }], renju).watch;
		assert.deepEqual(white.forbidden, []);
		const over = run([{ type: 'winner', winner: 'back', reason: 'resign', line: [] }], renju).watch;
		assert.deepEqual(over.forbidden, []);
	});

	it('follows a rematch: a new spectate starts the new room\'s board', () => {
		const over = run([{ type: 'board', move: MOVES[0], role: 'back', moves: 1 }, { type: 'winner', winner: 'draw', reason: 'agreement' }],
			watching()).watch;
		const next = { ...SPECTATE, room: ROOM.replace('25', '99'), players: { front: { name: 'Ann' }, back: { name: 'Bo' } } };
		const { watch } = run([next, { type: 'board', content: emptyCells(15), role: 'front', moves: 0 }], over);
		assert.equal(watch.phase, 'watching');
		assert.equal(watch.room, next.room);
		assert.equal(watch.winner, null);
		assert.deepEqual(watch.history, []);
		assert.equal(watch.players.front.name, 'Ann');
	});

	it('stops when the room closes, is missing or full, and ignores the refusal of what it must not send', () => {
		const closed = run([{ type: 'disconnect', disconnect: 'the room closed' }], watching());
		assert.equal(closed.watch.phase, 'closed');
		assert.deepEqual(closed.effects, [{ kind: 'disconnect' }]);
		assert.deepEqual(watchStatusOf(closed.watch), { key: 'watch.status.closed' });
		const missing = run([{ type: 'error', code: 'no_such_room' }]);
		assert.equal(missing.watch.phase, 'missing');
		assert.deepEqual(watchStatusOf(missing.watch), { key: 'watch.status.missing' });
		assert.equal(run([{ type: 'error', code: 'too_many_spectators' }]).watch.phase, 'full');
		const refused = reduceWatch(watching(), { type: 'error', code: 'spectator' });
		assert.equal(refused.watch.phase, 'watching');
		assert.deepEqual(refused.effects, []);
		assert.equal(reduceWatch(closed.watch, { type: 'client/closed', code: 1000 }).effects.length, 0,
			'expected no reconnect to a closed room');
	});

	it('reconnects after a dropped socket, and gives up after the last try', () => {
		let watch = watching();
		const delays = [];
		for (;;) {
			const result = reduceWatch(watch, { type: 'client/closed', code: 1006 });
			watch = result.watch;
			if (!result.effects.length)
				break;
			assert.equal(watch.link, 'retrying');
			assert.deepEqual(watchStatusOf(watch), { key: 'status.reconnecting' });
			delays.push(result.effects[0].delay);
		}
		assert.deepEqual(delays, [500, 1000, 2000, 4000, 5000, 5000, 5000, 5000, 5000]);
		assert.equal(watch.phase, 'lost');
		assert.deepEqual(watchStatusOf(watch), { key: 'watch.status.lost' });
	});

	it('has every status and note it can show in both languages', () => {
		const keys = ['watch.status.connecting', 'watch.status.front', 'watch.status.back', 'watch.status.closed',
			'watch.status.missing', 'watch.status.full', 'watch.status.lost', 'watch.result.front', 'watch.result.back',
			'watch.result.draw', 'watch.result.none', 'watch.away.front', 'watch.away.back', 'banner.watch',
			'banner.replay', 'button.watch', 'spectators.count', 'moves.numbers',
			...['five', 'full', 'timeout', 'resign', 'forfeit', 'agreement', 'aborted'].map((reason) => `reason.${reason}`)];
		for (const key of keys)
			for (const lang of LANGUAGES)
				assert.ok(hasText(lang, key), `expected a ${lang} text for ${key}`);
	});
});

describe('a player\'s page while people watch', () => {
	function playing() {
		let state = reduce(initialState(), { type: 'client/find' }).state;
		state = reduce(state, { type: 'welcome', uid: 'u', protocol: 2 }).state;
		return reduce(state, { type: 'role', role: 'front', room: ROOM, opponent: { name: 'Ann' } }).state;
	}

	it('shows how many watch its room, as the server last told, and nothing while none does', () => {
		const state = playing();
		assert.deepEqual(spectatorsOf(state, null), { hidden: true, count: 0 });
		assert.deepEqual(spectatorsOf(state, { room: ROOM, count: 3 }), { hidden: false, count: 3 });
		assert.deepEqual(spectatorsOf(state, { room: ROOM, count: 0 }), { hidden: true, count: 0 });
		assert.deepEqual(spectatorsOf(state, { room: ROOM.replace('25', '99'), count: 3 }), { hidden: true, count: 0 },
			'expected the count of another room (the game before a rematch) not shown');
		assert.deepEqual(spectatorsOf(initialState(), { room: null, count: 2 }), { hidden: true, count: 0 },
			'expected no count outside a room');
	});

	it('keeps the moves seen for the move list, numbered from the first seen', () => {
		let state = playing();
		state = reduce(state, { type: 'board', move: MOVES[0], role: 'back', moves: 1 }).state;
		assert.deepEqual(movesSeenOf(state), { moves: [MOVES[0]], first: 1 });
		state = reduce(state, { type: 'board', content: content(MOVES), move: MOVES[2], role: 'back', moves: 3 }).state;
		assert.deepEqual(movesSeenOf(state), { moves: [MOVES[2]], first: 3 });
		assert.deepEqual(movesSeenOf(initialState()), { moves: [], first: 1 });
	});

	it('makes the cards of a game watched: black first, names, the side to move', () => {
		const cards = seatCardsOf({ seats: { front: { name: 'Bo' }, back: {} }, toMove: 'back', bubbles: { front: 'gg' } }, 'en');
		assert.equal(cards.me.name, 'Bo');
		assert.equal(cards.me.roleText, 'Black');
		assert.equal(cards.me.bubble, 'Good game!');
		assert.equal(cards.opponent.name, 'Anonymous');
		assert.equal(cards.opponent.turn, true);
		assert.equal(cards.me.turn, false);
		assert.equal(cards.opponent.clock, '');
	});
});
