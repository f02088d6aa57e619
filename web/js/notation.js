// The moves of a game in the usual notation, and the page's links to a
// game: columns A, B, … from the left (as the board labels them), rows
// 1…N from the bottom, moves numbered from 1 (black's first). A game's
// link is /#game/ID (its replay, from /api/games/ID); a live room's is
// /#watch/ROOM; a friend's invite is /#invite/CODE (invite.js). Pure: no
// DOM, so node --test imports it.

import { pointLabel } from './text.js';

/** A room or game id as the server makes them: a UUID, any case. */
export const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A move's point in notation ("H8"), or '' for a move off a board of size. */
export function moveLabel(move, size) {
	if (!move || !Number.isInteger(move.x) || !Number.isInteger(move.y) ||
	    move.x < 0 || move.y < 0 || move.x >= size || move.y >= size)
		return '';
	return pointLabel(move.x, move.y, size);
}

/**
 * The move list of moves ([{x, y, role}] in order) on a board of size:
 * [{number, role, label}], numbered from first (1 unless the moves seen
 * start later in the game, as after a reload that saw only the position).
 */
export function moveListOf(moves, size, first = 1) {
	return (moves || []).map((move, index) => ({
		number: first + index,
		role: move.role,
		label: moveLabel(move, size),
	}));
}

/**
 * What the page's hash asks for: {kind: 'game', id} (a replay),
 * {kind: 'watch', id} (a live room), {kind: 'invite', id} (a friend's
 * invite: id is whatever follows #invite/, as it is, for the reducer to
 * judge, so that a link cut short is told as one that does not work) or
 * null.
 */
export function routeOf(hash) {
	const invite = /^#invite\/(.*)$/s.exec(String(hash ?? ''));
	if (invite)
		return { kind: 'invite', id: invite[1] };
	const match = /^#(game|watch)\/([^/?#]+)$/.exec(String(hash ?? ''));
	if (!match || !ID_PATTERN.test(match[2]))
		return null;
	return { kind: match[1], id: match[2].toLowerCase() };
}

/** The link to game id's replay on the page at origin ("http://host:8080"). */
export function gameLink(origin, id) {
	return `${origin}/#game/${id}`;
}

/**
 * The numbers written on the stones: [{x, y, number, role}] for moves
 * (in order) numbered from first.
 */
export function stoneNumbersOf(moves, first = 1) {
	return (moves || []).map((move, index) => ({ x: move.x, y: move.y, role: move.role, number: first + index }));
}
