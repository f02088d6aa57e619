// web/js/lobby.js: the start screen's lists, from the server's
// /api/pools and /api/rooms, in both languages, and the names of seats.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { seatName, poolLabel, waitingRowsOf, roomRowsOf, LOBBY_REFRESH_MS } from '../../web/js/lobby.js';

const ID = '25edc766-5e4f-88e7-b550-709182c70aed';

describe('the lobby', () => {
	it('names a seat: the player\'s name, the engine by its level, or Anonymous', () => {
		assert.equal(seatName({ name: 'Bo' }, 'en'), 'Bo');
		assert.equal(seatName({ ai: true }, 'en'), 'Computer');
		assert.equal(seatName({ ai: true, level: 'hard' }, 'zh'), '电脑（困难）');
		assert.equal(seatName({}, 'en'), 'Anonymous');
		assert.equal(seatName(undefined, 'zh'), '匿名');
		assert.equal(seatName({ name: '' }, 'en'), 'Anonymous');
	});

	it('names a pool by its size, rule and clock, as the start screen\'s lists do', () => {
		assert.equal(poolLabel({ size: 15, rule: 'freestyle', tc: 'none' }, 'en'), '15×15 · Freestyle · Untimed');
		assert.equal(poolLabel({ size: 19, rule: 'standard', tc: '180+2' }, 'en'), '19×19 · Standard · 3+2');
		assert.equal(poolLabel({ size: 15, rule: 'standard', tc: '600+5' }, 'zh'), '15×15 · 标准 · 10+5');
	});

	it('lists the pools where players wait, most first, and leaves out the empty ones', () => {
		const json = {
			pools: [
				{ size: 15, rule: 'freestyle', tc: 'none', waiting: 0, games: 12 },
				{ size: 15, rule: 'freestyle', tc: '180+2', waiting: 1, games: 3 },
				{ size: 19, rule: 'standard', tc: 'none', waiting: 2, games: 0 },
				{ size: 'big', rule: 'freestyle', tc: 'none', waiting: 4 },
			],
		};
		assert.deepEqual(waitingRowsOf(json, 'en').map((row) => row.text),
			['19×19 · Standard · Untimed: 2 waiting', '15×15 · Freestyle · 3+2: 1 waiting']);
		assert.deepEqual(waitingRowsOf(json, 'zh').map((row) => row.text),
			['19×19 · 标准 · 不计时：2 人等待', '15×15 · 自由 · 3+2：1 人等待']);
		assert.deepEqual(waitingRowsOf(null, 'en'), []);
		assert.deepEqual(waitingRowsOf({ pools: 'x' }, 'en'), []);
	});

	it('lists the live games with their players, pool, moves and spectators', () => {
		const json = {
			rooms: [
				{ id: ID, size: 15, rule: 'freestyle', tc: '60+0', players: { front: { name: 'Bo' }, back: { name: 'Ann' } },
					moves: 2, spectators: 1, started: '2026-11-24T15:48:21.856Z' },
				{ id: ID.replace('25', '35'), size: 19, rule: 'standard', tc: 'none', players: { front: {}, back: { ai: true } },
					moves: 0, spectators: 0, started: '2026-11-24T15:48:22.000Z' },
				{ id: 'not-a-room', size: 15, rule: 'freestyle', tc: 'none', players: {}, moves: 0, spectators: 0 },
			],
		};
		const rows = roomRowsOf(json, 'en');
		assert.equal(rows.length, 2, 'expected a room with a bad id left out');
		assert.deepEqual(rows[0], {
			id: ID, players: 'Bo vs Ann', pool: '15×15 · Freestyle · 1+0', moves: 2, spectators: 1,
			text: '15×15 · Freestyle · 1+0 · 2 moves · 1 watching',
		});
		assert.equal(rows[1].players, 'Anonymous vs Computer');
		assert.equal(roomRowsOf(json, 'zh')[0].text, '15×15 · 自由 · 1+0 · 2 手 · 1 人观战');
		assert.equal(roomRowsOf(json, 'zh')[0].players, 'Bo 对 Ann');
		assert.deepEqual(roomRowsOf(undefined, 'en'), []);
	});

	it('asks again every few seconds', () => {
		assert.ok(LOBBY_REFRESH_MS >= 2000 && LOBBY_REFRESH_MS <= 10000, `expected a few seconds, got ${LOBBY_REFRESH_MS} ms`);
	});
});
