// Identity: malformed uids are refused with bad_uid and close 1008, a live
// uid taken over closes the older connection with 4001, and no player's
// uid (a bearer secret) ever reaches another player, an HTTP endpoint or
// the log.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useServer, startServer } from './lib/server.mjs';
import { connectPlayer, connectWaiting, connectPair, closeAllClients, uuid, UUID_PATTERN } from './lib/client.mjs';
import { playMoves, winningScript, expectWinner } from './lib/game.mjs';
import { RawSocket, acceptFor, randomKey } from './lib/rawws.mjs';
import { gameRecord } from './lib/observe.mjs';
import { testTimeout } from './lib/time.mjs';

const T = testTimeout(60_000);
const SIZE = 15;

/**
 * The malformed uid table: each { what, query } with the query string as
 * it goes on the wire (already URL-encoded where it says so). Rows with
 * handshakeMayRefuse may instead be refused before the upgrade (lws
 * refuses a %00 in the URL and a request line over its 4 KiB header
 * space): never upgraded, never seated, the same for a client.
 */
function malformedUids() {
	const valid = uuid();
	const hex = valid.replace(/-/g, '');
	return [
		{ what: 'an empty uid', query: 'uid=' },
		{ what: 'one character', query: 'uid=a' },
		{ what: 'one character short (35)', query: `uid=${valid.slice(0, 35)}` },
		{ what: 'one digit too many (37)', query: `uid=${valid}0` },
		{ what: 'a UUID and a second one', query: `uid=${valid}${valid}` },
		{ what: '36 characters of non-hex letters', query: 'uid=gggggggg-gggg-gggg-gggg-gggggggggggg' },
		{ what: 'a G in one hex place', query: `uid=${valid.slice(0, 5)}g${valid.slice(6)}` },
		{ what: 'no dashes (32 hex digits)', query: `uid=${hex}` },
		{ what: 'no dashes, padded to 36', query: `uid=${hex}0000` },
		{ what: 'a dash one place off', query: `uid=${hex.slice(0, 7)}-${hex.slice(7, 11)}-${hex.slice(11, 15)}-${hex.slice(15, 19)}-${hex.slice(19, 32)}` },
		{ what: 'underscores for dashes', query: `uid=${valid.replace(/-/g, '_')}` },
		{ what: 'a plus for a dash', query: `uid=${valid.replace('-', '+')}` },
		{ what: 'an encoded plus for a dash', query: `uid=${valid.replace('-', '%2B')}` },
		{ what: 'braces around it', query: `uid=%7B${valid}%7D` },
		{ what: 'raw braces around it', query: `uid={${valid}}` },
		{ what: 'the urn:uuid: prefix', query: `uid=urn:uuid:${valid}` },
		{ what: 'an encoded space after', query: `uid=${valid}%20` },
		{ what: 'an encoded space before', query: `uid=%20${valid}` },
		{ what: 'an encoded tab after', query: `uid=${valid}%09` },
		{ what: 'an encoded control character after', query: `uid=${valid}%01` },
		{ what: 'an encoded DEL after', query: `uid=${valid}%7F` },
		{ what: 'an encoded NUL after', query: `uid=${valid}%00junk`, handshakeMayRefuse: true },
		{ what: 'an encoded NUL inside', query: `uid=${valid.slice(0, 20)}%00${valid.slice(21)}`, handshakeMayRefuse: true },
		{ what: 'an encoded line feed after', query: `uid=${valid}%0A`, handshakeMayRefuse: true },
		{ what: 'an encoded ampersand after', query: `uid=${valid}%26x` },
		{ what: 'an encoded semicolon after', query: `uid=${valid}%3Bx` },
		{ what: 'an encoded equals sign after', query: `uid=${valid}%3D` },
		{ what: 'a second equals sign', query: `uid=${valid}=x` },
		{ what: 'a question mark after', query: `uid=${valid}?x` },
		{ what: 'a slash after', query: `uid=${valid}/x` },
		{ what: 'an encoded slash after', query: `uid=${valid}%2Fx` },
		{ what: 'a fragment after', query: `uid=${valid}%23frag` },
		{ what: 'a UTF-8 letter for the last digit', query: `uid=${valid.slice(0, 35)}%C3%A9` },
		{ what: 'fullwidth digits', query: `uid=${encodeURIComponent(valid.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d))))}` },
		{ what: 'bytes that are not UTF-8', query: `uid=${valid.slice(0, 34)}%FF%FE` },
		{ what: 'URL-encoded junk', query: 'uid=%25%32%35%25%00%41', handshakeMayRefuse: true },
		{ what: 'a doubly encoded UUID', query: `uid=${encodeURIComponent(encodeURIComponent(`{${valid}}`))}` },
		{ what: 'SQL', query: `uid=${encodeURIComponent("' OR '1'='1")}` },
		{ what: 'a script tag', query: `uid=${encodeURIComponent('<script>alert(1)</script>')}` },
		{ what: 'JSON', query: `uid=${encodeURIComponent(JSON.stringify({ uid: valid }))}` },
		{ what: 'a path traversal', query: `uid=${encodeURIComponent('../../etc/passwd')}` },
		{ what: '3 KiB of hex digits', query: `uid=${'a'.repeat(3072)}` },
		{ what: '10 KiB of hex digits', query: `uid=${'a'.repeat(10240)}`, handshakeMayRefuse: true },
		{ what: 'a malformed uid before a valid one (the first counts)', query: `uid=bad&uid=${valid}` },
		{ what: 'a malformed uid after a long name', query: `name=${'n'.repeat(3000)}&uid=bad` },
	];
}

describe('identity', () => {
	const rawClients = new Set();

	/** Drops the raw sockets a test left open. */
	async function dropRawClients() {
		await Promise.all([...rawClients].map((client) => client.destroy()));
		rawClients.clear();
	}

	const server = useServer({}, { closeFirst: dropRawClients });

	/**
	 * Upgrades a raw socket with the query string as it is; resolves with
	 * { client, answer } (answer: the HTTP response or { status: null }).
	 */
	async function upgradeWithQuery(query, label) {
		const client = await RawSocket.connect(server.port, { label });
		rawClients.add(client);
		const key = randomKey();
		const answer = await client.handshake({ query, key });
		if (answer.status === 101)
			assert.equal(answer.headers['sec-websocket-accept'], acceptFor(key), `expected a valid Sec-WebSocket-Accept for ${label}`);
		return { client, answer };
	}

	/**
	 * Runs malformed uid rows; each must get bad_uid as its only message
	 * and close 1008 "bad uid" (or, where allowed, no upgrade at all) and
	 * leave no seat behind. Collects every mismatch.
	 */
	async function expectRefusedUids(rows) {
		const failures = [];
		for (const row of rows) {
			const shown = row.query.length > 90 ? `${row.query.slice(0, 90)}... (${row.query.length} chars)` : row.query;
			const { client, answer } = await upgradeWithQuery(row.query, `raw client (${row.what})`);
			if (answer.status !== 101) {
				if (!row.handshakeMayRefuse)
					failures.push(`${row.what} (?${shown}): expected an upgrade, then bad_uid and close 1008, ` +
						`got ${answer.status === null ? 'a closed connection' : `HTTP ${answer.status}`}`);
			} else {
				const closed = await client.waitClosed(3000).catch(() => null);
				if (!closed) {
					failures.push(`${row.what} (?${shown}): expected exactly one error bad_uid and close 1008, got ` +
						`${client.inbox.map((frame) => frame.text).join(', ')} and the connection stayed open`);
					rawClients.delete(client);
					await client.destroy();
					await server.settle();
					continue;
				}
				const [error, ...rest] = closed.messages;
				if (!error || error.type !== 'error' || error.code !== 'bad_uid' || !error.message || rest.length)
					failures.push(`${row.what} (?${shown}): expected exactly one error bad_uid, got ` +
						`${JSON.stringify(closed.messages)}`);
				if (closed.code !== 1008 || closed.reason !== 'bad uid')
					failures.push(`${row.what} (?${shown}): expected close 1008 "bad uid", got ` +
						`${closed.code} ${JSON.stringify(closed.reason)}`);
			}
			rawClients.delete(client);
			await client.destroy();
			const health = await server.settle();
			if (health.players_waiting !== 0)
				failures.push(`${row.what}: expected no seat left behind, /healthz says ${JSON.stringify(health)}`);
		}
		assert.equal(failures.length, 0, `${failures.length} of ${rows.length} malformed uids were not refused as expected:\n  ` +
			failures.join('\n  '));
	}

	it('refuses each malformed uid of the table with bad_uid, then close 1008, and seats nobody', T, async () => {
		const rows = malformedUids();
		assert.ok(rows.length >= 40, `table error: expected at least 40 rows, got ${rows.length}`);
		await expectRefusedUids(rows);
		// The refusals did not disturb anyone: a pair still plays.
		const pair = await connectPair(server);
		await playMoves(pair, [{ x: 7, y: 7, role: 'front' }], { size: SIZE });
	});

	/**
	 * Upgrades a raw socket for each row { what, query, uid } and expects
	 * a welcome with uid (or, when uid is null, a fresh uid of its own,
	 * not valid), then waiting; each connection is closed before the next.
	 */
	async function expectSeatedAs(valid, rows) {
		for (const row of rows) {
			const { client, answer } = await upgradeWithQuery(row.query, `raw client (${row.what})`);
			assert.equal(answer.status, 101, `expected ?${row.query} (${row.what}) to be upgraded, got ${answer.status}`);
			const welcome = await client.next('welcome');
			if (row.uid)
				assert.equal(welcome.uid, row.uid, `expected ?${row.query} (${row.what}) to be read as ${row.uid}, got ${welcome.uid}`);
			else
				assert.ok(UUID_PATTERN.test(welcome.uid) && welcome.uid !== valid,
					`expected ?${row.query} (${row.what}) to get a uid of its own, got ${welcome.uid}`);
			await client.next('waiting');
			rawClients.delete(client);
			await client.destroy();
			await server.settle();
		}
	}

	// Known limitation, asserted as it is today: libwebsockets 4.1.6 ends
	// a query argument at a decoded CR and hands the server only what came
	// before it, here a valid uid, so the server cannot tell "uid=U%0Djunk"
	// from "uid=U" and seats U. Harmless: only someone who already knows U
	// can send it. When a libwebsockets that passes the whole argument
	// makes this test fail, these rows belong in the malformed uid table
	// (bad_uid, close 1008).
	it('reads a uid followed by an encoded CR as the uid before the CR, where libwebsockets cuts the argument', T, async () => {
		const valid = uuid();
		await expectSeatedAs(valid, [
			{ what: 'an encoded CR after', query: `uid=${valid}%0D`, uid: valid },
			{ what: 'an encoded CR and junk after', query: `uid=${valid}%0Djunk`, uid: valid },
			{ what: 'an encoded CRLF and a header after', query: `uid=${valid}%0D%0AX-Injected:%201`, uid: valid },
		]);
	});

	it('reads the well-formed spellings of a uid as the same lower-case uid', T, async () => {
		const valid = uuid();
		await expectSeatedAs(valid, [
			{ what: 'upper case', query: `uid=${valid.toUpperCase()}`, uid: valid },
			{ what: 'mixed case', query: `uid=${valid.slice(0, 18).toUpperCase()}${valid.slice(18)}`, uid: valid },
			{ what: 'URL-encoded dashes', query: `uid=${valid.replace(/-/g, '%2D')}`, uid: valid },
			{ what: 'a second uid after it (the first counts)', query: `uid=${valid}&uid=bad`, uid: valid },
			{ what: 'other parameters around it', query: `a=1&uid=${valid}&b=2`, uid: valid },
			{ what: 'a uidx parameter (not a uid)', query: `uidx=${valid}`, uid: null },
			{ what: 'a UID parameter (names are case-sensitive)', query: `UID=${valid}`, uid: null },
			{ what: 'uid without a value or equals sign', query: 'uid', uid: null },
		]);
	});

	it('closes the older connection with 4001 when its uid connects again, and the newer one takes the seat', T, async () => {
		const pair = await connectPair(server);
		const { front, back, room } = pair;
		await playMoves(pair, [{ x: 7, y: 7, role: 'front' }, { x: 8, y: 8, role: 'back' }], { size: SIZE });
		// front's uid again, in upper case: the same seat.
		const newer = await connectPlayer(server, { uid: front.uid.toUpperCase() }, { label: 'front again' });
		const closed = await front.waitClosed();
		assert.deepEqual(closed, { code: 4001, reason: 'replaced' },
			`expected the older connection to be closed with 4001 "replaced", got ${JSON.stringify(closed)}`);
		assert.deepEqual(front.inbox, [], `expected nothing but the close for the older connection, got ${JSON.stringify(front.inbox)}`);
		const welcome = await newer.next('welcome');
		assert.equal(welcome.uid, front.uid, `expected the newer connection welcomed as ${front.uid}, got ${welcome.uid}`);
		const role = await newer.next('role');
		assert.deepEqual([role.role, role.room], ['front', room],
			`expected the newer connection to take front's seat in room ${room}, got ${JSON.stringify(role)}`);
		const board = await newer.next('board');
		assert.equal(board.moves, 2, `expected the newer connection to get the board after 2 moves, got ${JSON.stringify(board)}`);
		back.send({ type: 'ping' });
		await back.next('pong'); // nothing came before it: the opponent is not told
		newer.label = 'front (newer connection)';
		await playMoves({ front: newer, back }, [{ x: 9, y: 9, role: 'front' }], {
			size: SIZE, startContent: board.content, startMoves: 2,
		});
		const record = JSON.parse(await gameRecord(server, room));
		assert.equal(record.moves.length, 3, `expected 3 moves in the record, got ${JSON.stringify(record.moves)}`);
	});

	it('hands a waiting seat to the newer connection of the same uid, which is then matched', T, async () => {
		const older = await connectWaiting(server, {}, { label: 'older connection' });
		const newer = await connectPlayer(server, { uid: older.uid }, { label: 'newer connection' });
		const closed = await older.waitClosed();
		assert.equal(closed.code, 4001, `expected the older waiting connection to be closed with 4001, got ${JSON.stringify(closed)}`);
		await newer.next('welcome');
		await newer.next('waiting');
		const health = await server.health();
		assert.equal(health.players_waiting, 1, `expected one player waiting, got ${JSON.stringify(health)}`);
		const opponent = await connectPlayer(server, { uid: uuid() }, { label: 'opponent' });
		await opponent.next('welcome');
		const opponentRole = await opponent.next('role', undefined, { skip: ['waiting'] });
		const newerRole = await newer.next('role');
		assert.equal(newerRole.room, opponentRole.room, 'expected the newer connection and the opponent in one room');
	});

	it('never shows a player\'s uid to anyone else: not in messages, HTTP answers or the log, through a game, a reconnect and a takeover', T, async () => {
		const own = await startServer({ args: ['--reconnect-grace', '30'] });
		const http = []; // every HTTP answer: { what, text }
		const connections = []; // { owner (a uid), client }
		const uids = { ann: uuid(), bob: uuid(), dan: uuid() };
		try {
			const track = (owner, client) => {
				connections.push({ owner, client });
				return client;
			};
			// Ann and Bob; Cy (no uid: the server makes one) and Dan.
			const ab = await connectPair(own, {
				firstQuery: { uid: uids.ann, name: 'Ann' }, secondQuery: { uid: uids.bob, name: 'Bob' },
			});
			track(uids.ann, ab.first);
			track(uids.bob, ab.second);
			const cy = await connectPlayer(own, { name: 'Cy' }, { label: 'Cy' });
			uids.cy = (await cy.next('welcome')).uid;
			track(uids.cy, cy);
			await cy.next('waiting');
			const dan = track(uids.dan, await connectPlayer(own, { uid: uids.dan, name: 'Dan' }, { label: 'Dan' }));
			await dan.next('welcome');
			await dan.next('role', undefined, { skip: ['waiting'] });
			await cy.next('role');

			const script = winningScript({ size: SIZE, winner: 'front', direction: 'vertical', start: { x: 4, y: 2 } });
			const seat = { front: ab.front, back: ab.back };
			const { content } = await playMoves(seat, script.moves.slice(0, 3), { size: SIZE });

			// Bob drops and comes back within the grace; his opponent is told.
			const bobSide = ab.second === ab.front ? 'front' : 'back';
			const other = seat[bobSide === 'front' ? 'back' : 'front'];
			await seat[bobSide].terminate();
			await other.next('opponent_away');
			const resumed = track(uids.bob, await connectPlayer(own, { uid: uids.bob }, { label: 'Bob again' }));
			await resumed.next('welcome');
			await resumed.next('role');
			await resumed.next('board');
			await other.next('opponent_back');
			seat[bobSide] = resumed;
			// Bob's uid once more, while the resumed connection is open: a takeover.
			const takeover = track(uids.bob, await connectPlayer(own, { uid: uids.bob.toUpperCase() }, { label: 'Bob takes over' }));
			await resumed.waitClosed();
			await takeover.next('welcome');
			await takeover.next('role');
			await takeover.next('board');
			seat[bobSide] = takeover;
			other.send({ type: 'ping' });
			await other.next('pong');
			await playMoves(seat, script.moves.slice(3), {
				size: SIZE, startContent: content, startMoves: 3, lastEndsGame: true,
			});
			await expectWinner(seat, { winner: 'front', reason: 'five', line: script.line });
			// Cy leaves her game; Dan wins by forfeit.
			await cy.close();
			await dan.next('winner');
			await dan.next('disconnect');
			// Someone tries Ann's uid with junk after it.
			const junk = await RawSocket.connect(own.port, { label: 'junk uid' });
			const answer = await junk.handshake({ query: `uid=${uids.ann}x` });
			assert.equal(answer.status, 101, 'expected the junk uid request to be upgraded before its refusal');
			const refusal = await junk.waitClosed();
			http.push({ what: 'the refusal of a junk uid', text: JSON.stringify(refusal.messages) });
			await junk.destroy();

			for (const path of ['/healthz', '/metrics', `/api/games/${ab.room}`, `/api/games/${roomOf(cy)}`,
				`/api/games/${uids.ann}`, '/api/games/']) {
				const res = await own.get(path);
				http.push({ what: `GET ${path}`, text: `${JSON.stringify(res.headers)}\n${res.body}` });
			}
			await closeAllClients();
			await own.settle();
		} finally {
			await closeAllClients();
			await own.stop();
		}
		const log = own.output();

		const all = Object.values(uids);
		const forms = (uid) => [uid, uid.toUpperCase(), uid.replace(/-/g, '')];
		const contains = (text, uid) => forms(uid).some((form) => text.toLowerCase().includes(form.toLowerCase()));
		const leaks = [];
		for (const uid of all) {
			for (const { owner, client } of connections) {
				if (owner === uid)
					continue;
				for (const { text } of client.received)
					if (contains(text, uid))
						leaks.push(`${client.label} received ${uid} in ${text}`);
			}
			for (const { what, text } of http)
				if (contains(text, uid) && !(what === `GET /api/games/${uid}`))
					leaks.push(`${what} answered with ${uid}: ${text.slice(0, 300)}`);
			for (const line of log.split('\n'))
				if (contains(line, uid))
					leaks.push(`the log holds ${uid}: ${line}`);
			assert.ok(log.includes(uid.slice(0, 8)),
				`test check: expected the log to name ${uid} by its first 8 characters at least once`);
		}
		// Each player did get its own uid: the search looked at the right place.
		for (const { owner, client } of connections)
			if (client.received.length && client.received[0].message.type === 'welcome')
				assert.equal(client.received[0].message.uid, owner, `test check: expected ${client.label} to be welcomed as ${owner}`);
		assert.deepEqual(leaks, [], `expected no uid to reach anyone but its owner, found ${leaks.length}:\n  ${leaks.join('\n  ')}`);
	});
});

/** The room of a client, from the role message it received. */
function roomOf(client) {
	const role = client.received.map((entry) => entry.message).find((message) => message.type === 'role');
	return role ? role.room : 'none';
}
