// The game's protocol as the page speaks it, with no socket: the player's
// uid, the display name the server accepts, the WebSocket URL, the
// reconnect schedule and the parsing of server messages. Pure (the
// randomness of a new uid comes from the crypto source given), so
// node --test imports it, and so can the reducer (game.js) without the
// connection.

import { poolQuery } from './pool.js';

/** A canonical 8-4-4-4-12 hex UUID, any case: what the server accepts. */
export const UID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A version 4 UUID (lower case) from 16 random bytes. crypto.randomUUID()
 * exists only on secure origins (https, localhost), and the game is often
 * played over plain http on a LAN address, where getRandomValues() is
 * still there.
 */
export function makeUid(bytes) {
	const b = Uint8Array.from(bytes);
	if (b.length !== 16)
		throw new RangeError(`makeUid needs 16 bytes, got ${b.length}`);
	b[6] = (b[6] & 0x0f) | 0x40; // version 4
	b[8] = (b[8] & 0x3f) | 0x80; // RFC 4122 variant
	const hex = Array.from(b, (byte) => byte.toString(16).padStart(2, '0')).join('');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-` +
		`${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A new random uid from cryptoSource (window.crypto in the page). */
export function newUid(cryptoSource = globalThis.crypto) {
	return makeUid(cryptoSource.getRandomValues(new Uint8Array(16)));
}

export const NAME_MAX_CHARS = 20;

/**
 * A display name the server accepts (1 to 20 characters of UTF-8, no
 * control characters, spaces trimmed), made from what the player typed:
 * control characters and unpaired surrogates dropped, trimmed, cut to 20
 * characters. '' means no name.
 */
export function cleanName(raw) {
	const text = String(raw ?? '')
		.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
		.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
		.trim();
	return Array.from(text).slice(0, NAME_MAX_CHARS).join('').trim();
}

/**
 * The game's WebSocket URL on the page's own host: ws: for an http page,
 * wss: for https. location is {protocol, host}; the name is left out when
 * empty. A game against the server's engine asks for it with mode=ai and
 * its level (game options {mode: 'ai', level}); any other mode is the
 * default (online: matched with another player) and adds nothing. A
 * pool ({size, rule, tc}, pool.js) asks to be matched in it (protocol 2;
 * a server of protocol 1 ignores it); none adds nothing. An invite
 * ({invite, listed}, invite.js: invite 'new' or a friend's code) asks
 * for a private game (listed=1: listed in the lobby all the same) or
 * joins one; null adds nothing.
 * updates=move asks for compact boards (the move without the whole
 * position; see game.js).
 */
export function socketUrl(location, uid, name = '',
	{ mode = 'online', level = 'medium', pool = null, invite = null } = {}) {
	const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
	let url = `${scheme}//${location.host}/?uid=${encodeURIComponent(uid)}`;
	if (name)
		url += `&name=${encodeURIComponent(name)}`;
	if (mode === 'ai')
		url += `&mode=ai&level=${encodeURIComponent(level)}`;
	if (pool)
		url += poolQuery(pool);
	if (invite) {
		url += `&invite=${encodeURIComponent(invite.invite)}`;
		if (invite.listed && invite.invite === 'new')
			url += '&listed=1';
	}
	return `${url}&updates=move`;
}

/**
 * How long to wait before reconnect attempt number attempt (0 first):
 * 0.5 s, doubling, then every RETRY_CAP_MS; null once attempts tries were
 * made (none: never). A game keeps trying as long as the page is open (a
 * server that restarts restores its games); a search or a spectator gives
 * up after SEARCH_RETRIES (32.5 s: the server's default reconnect grace
 * is 30 s).
 */
export const RETRY_DELAYS_MS = [500, 1000, 2000, 4000];
export const RETRY_CAP_MS = 5000;
export const SEARCH_RETRIES = 9;

export function retryDelay(attempt, attempts = Infinity) {
	if (!(attempt >= 0) || attempt >= attempts)
		return null;
	return attempt < RETRY_DELAYS_MS.length ? RETRY_DELAYS_MS[attempt] : RETRY_CAP_MS;
}

/** A server message: a JSON object with a string type, else null. */
export function parseMessage(text) {
	let message;
	try {
		message = JSON.parse(text);
	} catch {
		return null;
	}
	if (!message || typeof message !== 'object' || Array.isArray(message) ||
	    typeof message.type !== 'string')
		return null;
	return message;
}

/** The WebSocket URL that watches room (no uid: a spectator plays nothing). */
export function watchUrl(location, room) {
	const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
	return `${scheme}//${location.host}/?watch=${encodeURIComponent(room)}`;
}

/**
 * The forbidden points of a board message (renju, black to move): its
 * list, the points on a size × size board only, as {x, y}; none when it
 * has none.
 */
export function forbiddenOf(message, size) {
	if (!Array.isArray(message.forbidden))
		return [];
	return message.forbidden
		.filter((point) => point && Number.isInteger(point.x) && Number.isInteger(point.y) &&
			point.x >= 0 && point.y >= 0 && point.x < size && point.y < size)
		.map(({ x, y }) => ({ x, y }));
}
