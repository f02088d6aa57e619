// The lobby of the start screen: the players waiting in each pool
// (/api/pools) and the games being played (/api/rooms), each of which can
// be watched, as the page lists them in its language; and the names of a
// game's seats, which the spectator's view and the replay show too.
// Pure: the lists come in as the server's JSON, so node --test checks
// them.

import { text, computerName } from './text.js';
import { tcLabel } from './pool.js';
import { ID_PATTERN } from './notation.js';

/** How often the start screen asks again for the pools and the games. */
export const LOBBY_REFRESH_MS = 4000;

/** How many live games the start screen asks for. */
export const LOBBY_ROOMS = 20;

/** A seat's name in lang: the player's, the engine's ({ai: true}), or "Anonymous". */
export function seatName(seat, lang) {
	if (seat && seat.ai === true)
		return computerName(lang, seat.level);
	if (seat && typeof seat.name === 'string' && seat.name)
		return seat.name;
	return text(lang, 'player.anonymous');
}

/** A pool's label in lang: "15×15 · Freestyle · 3+2". */
export function poolLabel({ size, rule, tc }, lang) {
	const rules = { freestyle: 'pool.rule.freestyle', standard: 'pool.rule.standard' };
	return [
		text(lang, 'pool.size', { size }),
		Object.hasOwn(rules, rule) ? text(lang, rules[rule]) : String(rule),
		tc === 'none' ? text(lang, 'pool.tc.none') : tcLabel(tc) || String(tc),
	].join(' · ');
}

function isPool(entry) {
	return entry && Number.isInteger(entry.size) && typeof entry.rule === 'string' && typeof entry.tc === 'string';
}

/**
 * The pools where someone waits, from /api/pools' JSON, in lang:
 * [{key, label, waiting}], most waiting first.
 */
export function waitingRowsOf(json, lang) {
	const pools = json && Array.isArray(json.pools) ? json.pools : [];
	return pools
		.filter((pool) => isPool(pool) && Number.isInteger(pool.waiting) && pool.waiting > 0)
		.sort((a, b) => b.waiting - a.waiting)
		.map((pool) => ({
			key: `${pool.size}/${pool.rule}/${pool.tc}`,
			label: poolLabel(pool, lang),
			waiting: pool.waiting,
			text: text(lang, 'lobby.waiting', { pool: poolLabel(pool, lang), count: pool.waiting }),
		}));
}

/**
 * The live games from /api/rooms' JSON, in lang, newest first as the
 * server lists them: [{id, players, pool, moves, spectators, text}], with
 * players "Black name vs White name" and text the rest of the row.
 */
export function roomRowsOf(json, lang) {
	const rooms = json && Array.isArray(json.rooms) ? json.rooms : [];
	return rooms
		.filter((room) => isPool(room) && typeof room.id === 'string' && ID_PATTERN.test(room.id))
		.map((room) => {
			const players = room.players || {};
			const moves = Number.isInteger(room.moves) ? room.moves : 0;
			const spectators = Number.isInteger(room.spectators) ? room.spectators : 0;
			const pool = poolLabel(room, lang);
			return {
				id: room.id,
				players: text(lang, 'lobby.versus', {
					front: seatName(players.front, lang),
					back: seatName(players.back, lang),
				}),
				pool,
				moves,
				spectators,
				text: text(lang, 'lobby.room', { pool, moves, spectators }),
			};
		});
}
