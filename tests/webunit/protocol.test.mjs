// web/js/protocol.js: uid, name, URL, reconnect schedule and message
// parsing.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';

import {
	makeUid, newUid, UID_PATTERN, cleanName, socketUrl, retryDelay, RETRY_DELAYS_MS, RETRY_CAP_MS, SEARCH_RETRIES,
	parseMessage,
} from '../../web/js/protocol.js';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('uid', () => {
	it('lays 16 bytes out as a lower-case version 4 UUID', () => {
		assert.equal(makeUid(new Uint8Array(16)), '00000000-0000-4000-8000-000000000000');
		assert.equal(makeUid(new Uint8Array(16).fill(0xff)), 'ffffffff-ffff-4fff-bfff-ffffffffffff');
		assert.equal(makeUid(Array.from({ length: 16 }, (_, i) => i * 17)),
			'00112233-4455-4677-8899-aabbccddeeff');
	});

	it('refuses anything but 16 bytes', () => {
		assert.throws(() => makeUid(new Uint8Array(15)), RangeError);
	});

	it('makes fresh random ones from getRandomValues alone (no randomUUID on plain http)', () => {
		// Only getRandomValues: what a page on a plain-http LAN origin has.
		// (node:crypto's, as Node 18 has no global crypto.)
		const source = { getRandomValues: (bytes) => webcrypto.getRandomValues(bytes) };
		const seen = new Set();
		for (let i = 0; i < 100; i++) {
			const uid = newUid(source);
			assert.match(uid, V4);
			assert.match(uid, UID_PATTERN);
			seen.add(uid);
		}
		assert.equal(seen.size, 100);
	});

	it('accepts canonical UUIDs in any case and nothing else', () => {
		assert.match('3F2B8C1E-6A4D-4E2F-9B1A-0C5D7E8F9A0B', UID_PATTERN);
		for (const bad of ['', '3f2b8c1e6a4d4e2f9b1a0c5d7e8f9a0b', '3f2b8c1e-6a4d-4e2f-9b1a-0c5d7e8f9a0', 'x'.repeat(36)])
			assert.doesNotMatch(bad, UID_PATTERN, bad);
	});
});

describe('display name', () => {
	it('trims, drops control characters and cuts to 20 characters', () => {
		assert.equal(cleanName('  Ada  '), 'Ada');
		assert.equal(cleanName('A\u0000d\u001fa\u007f\u0085'), 'Ada');
		assert.equal(cleanName('x'.repeat(30)), 'x'.repeat(20));
		assert.equal(cleanName('五'.repeat(25)), '五'.repeat(20));
		assert.equal(cleanName('😀'.repeat(21)), '😀'.repeat(20), 'expected characters, not UTF-16 units, counted');
		assert.equal(cleanName(`${'a'.repeat(19)}  b`), 'a'.repeat(19), 'expected no trailing space after the cut');
	});

	it('gives an empty name for nothing usable', () => {
		assert.equal(cleanName(''), '');
		assert.equal(cleanName('   '), '');
		assert.equal(cleanName(null), '');
		assert.equal(cleanName(undefined), '');
		assert.equal(cleanName('\u0001\u0002'), '');
	});

	it('drops unpaired surrogates, which are not UTF-8', () => {
		assert.equal(cleanName('a\uD800b'), 'ab');
		assert.equal(cleanName('a\uDC00b'), 'ab');
		assert.doesNotThrow(() => encodeURIComponent(cleanName('\uD83D x \uDE00')));
	});
});

describe('socket URL', () => {
	const uid = '3f2b8c1e-6a4d-4e2f-9b1a-0c5d7e8f9a0b';

	it('uses ws: on http and wss: on https, on the page\'s own host', () => {
		assert.equal(socketUrl({ protocol: 'http:', host: '192.168.1.20:8080' }, uid),
			`ws://192.168.1.20:8080/?uid=${uid}&updates=move`);
		assert.equal(socketUrl({ protocol: 'https:', host: 'gomoku.example' }, uid),
			`wss://gomoku.example/?uid=${uid}&updates=move`);
	});

	it('adds the name, encoded, and asks for compact boards', () => {
		assert.equal(socketUrl({ protocol: 'http:', host: 'h:1' }, uid, 'Zoë & 五目'),
			`ws://h:1/?uid=${uid}&name=Zo%C3%AB%20%26%20%E4%BA%94%E7%9B%AE&updates=move`);
	});

	it('asks for the computer with mode=ai and the level, keeping uid, name and compact boards', () => {
		assert.equal(socketUrl({ protocol: 'http:', host: 'h:1' }, uid, 'Ada', { mode: 'ai', level: 'easy' }),
			`ws://h:1/?uid=${uid}&name=Ada&mode=ai&level=easy&updates=move`);
		assert.equal(socketUrl({ protocol: 'https:', host: 'h' }, uid, '', { mode: 'ai', level: 'hard' }),
			`wss://h/?uid=${uid}&mode=ai&level=hard&updates=move`);
	});

	it('adds nothing for an online game (the server\'s default mode)', () => {
		assert.equal(socketUrl({ protocol: 'http:', host: 'h:1' }, uid, '', { mode: 'online', level: 'hard' }),
			`ws://h:1/?uid=${uid}&updates=move`);
	});
});

describe('reconnect schedule', () => {
	it('waits 0.5 s, then doubles, then every 5 s for as long as asked; a search past the 30 s grace', () => {
		assert.deepEqual([0, 1, 2, 3, 4, 5, 100, 10_000].map((attempt) => retryDelay(attempt)),
			[500, 1000, 2000, 4000, 5000, 5000, 5000, 5000]);
		assert.equal(RETRY_CAP_MS, 5000);
		const search = [];
		for (let attempt = 0; retryDelay(attempt, SEARCH_RETRIES) !== null; attempt++)
			search.push(retryDelay(attempt, SEARCH_RETRIES));
		assert.equal(search.length, SEARCH_RETRIES);
		assert.ok(search.reduce((sum, ms) => sum + ms, 0) > 30_000);
		assert.deepEqual(search.slice(0, RETRY_DELAYS_MS.length), RETRY_DELAYS_MS);
		assert.equal(retryDelay(-1), null);
	});
});

describe('message parsing', () => {
	it('takes JSON objects with a string type', () => {
		assert.deepEqual(parseMessage('{"type":"pong"}'), { type: 'pong' });
		assert.deepEqual(parseMessage('{"type":"x","y":1}'), { type: 'x', y: 1 });
	});

	it('drops everything else', () => {
		for (const text of ['', 'not json', '[]', '"board"', 'null', '{}', '{"type":5}', '[{"type":"pong"}]'])
			assert.equal(parseMessage(text), null, text);
	});
});
