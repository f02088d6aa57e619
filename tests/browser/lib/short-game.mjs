// The short game the browser suites play, and what they read of it.
//
// SHORT_GAME: black (front) wins with a diagonal five from E11 to I7
// after white blocked the other end; no five before the last move.
// SHORT_GAME_FIVE is the five as the board canvas's data-line says it,
// SHORT_GAME_LIST the move list's texts. moveList() reads a page's move
// list; lastGameId() waits for the server to list a finished game.

import assert from 'node:assert/strict';

import { moveLabel } from '../../../web/js/notation.js';
import { WAIT_MS } from './browser.mjs';

export const SHORT_GAME = [
	{ role: 'front', x: 7, y: 7 },
	{ role: 'back', x: 8, y: 6 },
	{ role: 'front', x: 6, y: 6 },
	{ role: 'back', x: 7, y: 8 },
	{ role: 'front', x: 8, y: 8 },
	{ role: 'back', x: 9, y: 9 },
	{ role: 'front', x: 6, y: 8 },
	{ role: 'back', x: 5, y: 7 },
	{ role: 'front', x: 5, y: 5 },
	{ role: 'back', x: 6, y: 7 },
	{ role: 'front', x: 4, y: 4 },
];
export const SHORT_GAME_FIVE = '4,4 5,5 6,6 7,7 8,8';
export const SHORT_GAME_LIST = SHORT_GAME.map((move, index) => `${index + 1}. ${moveLabel(move, 15)}`);

/** The texts of a page's move list. */
export function moveList(player) {
	return player.page.$$eval('#move-list li', (items) => items.map((item) => item.textContent));
}

/** The id of the game the server finished last, once it lists one. */
export async function lastGameId(server) {
	const until = Date.now() + WAIT_MS;
	for (;;) {
		const { games } = JSON.parse((await server.get('/api/games?limit=1')).body);
		if (games.length)
			return games[0].id;
		assert.ok(Date.now() < until, 'expected the finished game in /api/games');
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}
