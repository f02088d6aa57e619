// Frames and handshakes no WebSocket library would send, written byte by
// byte on a raw socket (lib/rawws.mjs): unmasked frames, frames before
// the handshake's answer, messages dripped in byte by byte, RSV bits,
// reserved opcodes, oversized and endless messages, binary frames,
// invalid UTF-8, broken control frames, oversized and malformed upgrade
// requests and other protocols' upgrades. After every case the server
// still answers /healthz, and after every test a normal pair can play.
//
// One suite per behaviour; over 600 lines because each malformed frame or
// handshake has a test of its own.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useServer } from './lib/server.mjs';
import { connectPair, connectPlayer, closeAllClients, uuid } from './lib/client.mjs';
import { playMoves, withStone, emptyContent } from './lib/game.mjs';
import { RawSocket, openRawWs, encodeFrame, closePayload, randomKey, upgradeRequest, OPCODES } from './lib/rawws.mjs';
import { gameRecord, gameState, fetchMetric, residentKiB } from './lib/observe.mjs';
import { testTimeout, sleep } from './lib/time.mjs';

const T = testTimeout(120_000);
const SIZE = 15;
const HANDSHAKE_TIMEOUT_S = 3;
const MIB = 1024 * 1024;

describe('frames and handshakes from a raw socket', () => {
	const rawClients = new Set();

	/** Drops the raw sockets a test left open. */
	async function dropRawClients() {
		await Promise.all([...rawClients].map((client) => client.destroy()));
		rawClients.clear();
	}

	const server = useServer({ args: ['--handshake-timeout', String(HANDSHAKE_TIMEOUT_S)] }, { closeFirst: dropRawClients });

	/** A raw WebSocket player, welcomed and waiting for an opponent. */
	async function rawPlayer(label = 'raw player', options = {}) {
		const client = await openRawWs(server, { label, query: { uid: uuid() }, ...options });
		rawClients.add(client);
		await client.next('welcome');
		await client.next('waiting');
		return client;
	}

	/** Drops a raw client and waits until the server has let it go. */
	async function dismiss(client) {
		rawClients.delete(client);
		await client.destroy();
		await server.settle();
	}

	/** A raw TCP connection that has not spoken yet. */
	async function rawSocket(label = 'raw socket') {
		const client = await RawSocket.connect(server.port, { label });
		rawClients.add(client);
		return client;
	}

	/**
	 * A raw player matched with a ws-library player. Resolves with
	 * { raw, other, rawRole, room }.
	 */
	async function rawInGame() {
		const raw = await rawPlayer('raw player');
		const other = await connectPlayer(server, { uid: uuid() }, { label: 'ws player' });
		await other.next('welcome');
		const otherRole = await other.next('role', undefined, { skip: ['waiting'] });
		const rawRole = await raw.next('role');
		assert.notEqual(rawRole.role, otherRole.role,
			`expected the two players on different sides, got ${JSON.stringify(rawRole)} and ${JSON.stringify(otherRole)}`);
		return { raw, other, rawRole: rawRole.role, room: rawRole.room };
	}

	/** /healthz answers 200 and the process is still the one we started. */
	async function assertHealthy(after) {
		assert.equal(server.exited, null,
			`expected the server to survive ${after}, it exited: ${JSON.stringify(server.exited)}`);
		try {
			await server.health();
		} catch (err) {
			throw new Error(`expected GET /healthz to answer 200 after ${after}: ${err.message}`);
		}
	}

	/**
	 * The raw clients of the test leave, then a normal pair connects and
	 * plays one move, then leaves too.
	 */
	async function assertStillPlays(after) {
		await Promise.all([...rawClients].map((client) => client.destroy()));
		rawClients.clear();
		await closeAllClients();
		await server.settle();
		await assertHealthy(after);
		const pair = await connectPair(server);
		await playMoves(pair, [{ x: 7, y: 7, role: 'front' }], { size: SIZE });
		await closeAllClients();
		await server.settle();
	}

	/**
	 * Sends bytes (or calls send(client)) from a fresh raw player and
	 * resolves with how the server closed the connection.
	 */
	async function closeAfter(send, label) {
		const client = await rawPlayer(label);
		if (typeof send === 'function')
			await send(client);
		else
			client.sendRaw(send);
		const closed = await client.waitClosed();
		rawClients.delete(client);
		await client.destroy();
		// Gone from the lobby too, so the next raw player is not matched
		// with this one.
		await server.settle();
		return closed;
	}

	function assertClosedWith(closed, code, reason, what) {
		assert.ok(closed.frame,
			`expected ${what} to be answered with a close frame ${code}, the socket just closed`);
		assert.equal(closed.code, code,
			`expected ${what} to close the connection with ${code}, got ${closed.code} ${JSON.stringify(closed.reason)}`);
		if (reason !== undefined)
			assert.equal(closed.reason, reason,
				`expected the close reason ${JSON.stringify(reason)} after ${what}, got ${JSON.stringify(closed.reason)}`);
		assert.deepEqual(closed.messages, [],
			`expected no message before the close after ${what}, got ${JSON.stringify(closed.messages)}`);
	}

	it('closes with 1002 on an unmasked client frame, text or control, and plays nothing of it', T, async () => {
		// RFC 6455 5.1: a server MUST close the connection when a client
		// frame is not masked. libwebsockets 4.1.6 does not; the server
		// reads the frame headers itself (server/frame_check.c).
		const { raw, other, rawRole, room } = await rawInGame();
		if (rawRole === 'back') {
			other.move(7, 7);
			await Promise.all([other.next('board'), raw.next('board')]);
		}
		const before = await gameState(server, room);
		raw.sendFrame({ opcode: OPCODES.text, payload: JSON.stringify({ type: 'move', x: 3, y: 3 }), mask: false });
		const closed = await raw.waitClosed();
		assert.ok(closed.frame, 'expected an unmasked move to be answered with a close frame');
		assert.equal(closed.code, 1002, `expected an unmasked move to be refused with 1002, got ${closed.code}`);
		assert.equal(closed.reason, 'unmasked frame');
		assert.ok(!closed.messages.some((message) => message.type === 'board'),
			`expected no board for the unmasked move, got ${JSON.stringify(closed.messages)}`);
		assert.ok(!other.received.some(({ message }) => message.type === 'board' && message.moves > (rawRole === 'back' ? 1 : 0)),
			'expected the opponent to see no board of the unmasked move');
		const after = await gameState(server, room);
		const movesOf = (state) => (state === '(no record)' ? [] : JSON.parse(state).moves);
		assert.deepEqual(movesOf(after), movesOf(before), 'expected the game record to hold no unmasked move');
		await closeAllClients();
		await server.settle();
		for (const [what, frame] of [
			['an unmasked ping message', { opcode: OPCODES.text, payload: '{"type":"ping"}', mask: false }],
			['an unmasked ping frame', { opcode: OPCODES.ping, payload: 'x', mask: false }],
			['an unmasked pong frame', { opcode: OPCODES.pong, payload: 'k', mask: false }],
			['an unmasked empty text frame', { opcode: OPCODES.text, payload: '', mask: false }],
			['an unmasked close frame', { opcode: OPCODES.close, payload: closePayload(1000), mask: false }],
		]) {
			const answer = await closeAfter(encodeFrame(frame), `raw player (${what})`);
			assert.ok(answer.frame, `expected ${what} to be answered with a close frame`);
			assert.equal(answer.code, 1002, `expected ${what} to be refused with 1002, got ${answer.code} ${JSON.stringify(answer.reason)}`);
			assert.ok(!answer.messages.some((message) => message.type === 'pong'), `expected no pong for ${what}`);
		}
		// A masked frame whose mask key is all zeros is masked: fine.
		const client = await rawPlayer('raw player (zero mask key)');
		client.sendFrame({ opcode: OPCODES.text, payload: '{"type":"ping"}', maskKey: Buffer.alloc(4) });
		assert.equal((await client.next()).type, 'pong', 'expected a frame masked with a zero key to be read');
		await dismiss(client);
		await assertStillPlays('unmasked frames');
	});

	it('closes with 1002 when frames come before the opening handshake was answered', T, async () => {
		const client = await rawSocket('raw socket (frame glued to its upgrade request)');
		const key = randomKey();
		client.sendRaw(Buffer.concat([Buffer.from(upgradeRequest({ query: { uid: uuid() }, key }), 'latin1'),
			encodeFrame({ opcode: OPCODES.text, payload: '{"type":"ping"}' })]));
		const closed = await client.waitClosed();
		assert.ok(closed.frame, 'expected a close frame after the 101');
		assert.equal(closed.code, 1002, `expected data sent before the 101 to be refused with 1002, got ${closed.code}`);
		assert.ok(!closed.messages.some((message) => message.type === 'pong'), 'expected the early ping not to be answered');
		await assertStillPlays('a frame before the 101');
	});

	it('reads a message whose bytes arrive one by one, however many pieces that makes', T, async () => {
		const client = await rawPlayer('raw player (one byte at a time)');
		const message = `{"type":"ping"${' '.repeat(300)}}`;
		const frame = encodeFrame({ opcode: OPCODES.text, payload: message });
		for (const byte of frame) {
			client.sendRaw(Buffer.from([byte]));
			await sleep(1);
		}
		const answer = await client.next();
		assert.equal(answer.type, 'pong', `expected a message sent byte by byte to be answered, got ${JSON.stringify(answer)}`);
		// And a fragmented one: 4 frames, each of them dripped in.
		const parts = ['{"type"', ':"pi', 'ng"', '}'];
		const frames = parts.map((part, i) => encodeFrame({ opcode: i ? OPCODES.continuation : OPCODES.text,
			fin: i === parts.length - 1, payload: part }));
		for (const byte of Buffer.concat(frames)) {
			client.sendRaw(Buffer.from([byte]));
			await sleep(1);
		}
		assert.equal((await client.next()).type, 'pong', 'expected a fragmented message sent byte by byte to be answered');
		await assertStillPlays('messages sent byte by byte');
	});

	it('closes the connection with 1002 on a frame with RSV1, RSV2 or RSV3 set', T, async () => {
		for (const [name, rsv] of [['RSV1', 4], ['RSV2', 2], ['RSV3', 1], ['all three', 7]]) {
			const closed = await closeAfter(encodeFrame({ rsv, payload: '{"type":"ping"}' }), `raw player (${name})`);
			assertClosedWith(closed, 1002, undefined, `a text frame with ${name} set`);
			await assertHealthy(`a frame with ${name} set`);
		}
		await assertStillPlays('frames with RSV bits');
	});

	it('closes the connection with 1002 on every reserved opcode', T, async () => {
		for (const opcode of [3, 4, 5, 6, 7, 0xb, 0xc, 0xd, 0xe, 0xf]) {
			const hex = `0x${opcode.toString(16)}`;
			const closed = await closeAfter(encodeFrame({ opcode, payload: '{"type":"ping"}' }), `raw player (opcode ${hex})`);
			assertClosedWith(closed, 1002, undefined, `a frame with the reserved opcode ${hex}`);
			await assertHealthy(`opcode ${hex}`);
		}
		await assertStillPlays('reserved opcodes');
	});

	it('closes a 1 MiB message in one frame with 1009 too_large, 20 times over, without the server keeping the megabytes', T, async () => {
		const frame = encodeFrame({ payload: Buffer.alloc(MIB, 0x20) });
		const oneAttempt = async (index) => {
			const closed = await closeAfter((client) => client.sendRawAndDrain(frame), `raw player (1 MiB #${index})`);
			assertClosedWith(closed, 1009, 'too_large', `a 1 MiB message (attempt ${index})`);
		};
		// Two attempts first, so that the allocator's first arenas are in
		// the baseline.
		await oneAttempt(1);
		await oneAttempt(2);
		const tooLargeBefore = await fetchMetric(server, 'gomoku_errors_total{code="too_large"}');
		const baseline = residentKiB(server.child.pid);
		for (let i = 3; i <= 22; i++)
			await oneAttempt(i);
		const grown = residentKiB(server.child.pid) - baseline;
		// Kept messages would grow it by 20 MiB; a bounded server by almost
		// nothing, but under valgrind (its own bookkeeping, its queue of
		// freed blocks) by up to 4–5 MiB: the bound is half of 20 MiB.
		assert.ok(grown < 10 * 1024,
			`expected the server's resident memory to grow by less than 10 MiB over 20 refused 1 MiB ` +
			`messages, it grew by ${grown} KiB (from ${baseline} KiB)`);
		const tooLargeAfter = await fetchMetric(server, 'gomoku_errors_total{code="too_large"}');
		assert.equal(tooLargeAfter - tooLargeBefore, 20,
			`expected gomoku_errors_total{code="too_large"} to count the 20 refusals, it grew by ${tooLargeAfter - tooLargeBefore}`);
		await assertStillPlays('1 MiB messages');
	});

	it('closes a frame header announcing 1 MiB with 1009 once 16 KiB of it arrived', T, async () => {
		const closed = await closeAfter(encodeFrame({ payload: Buffer.alloc(17 * 1024, 0x20), declaredLength: MIB }),
			'raw player (1 MiB announced)');
		assertClosedWith(closed, 1009, 'too_large', 'a frame announcing 1 MiB after 17 KiB of it');
		await assertStillPlays('an announced 1 MiB frame');
	});

	it('closes a message of 10,000 one-byte continuation frames with 1009 too_large', T, async () => {
		const frames = [encodeFrame({ fin: false, payload: '{' })];
		for (let i = 0; i < 9999; i++)
			frames.push(encodeFrame({ opcode: OPCODES.continuation, fin: false, payload: ' ' }));
		const closed = await closeAfter((client) => client.sendRawAndDrain(Buffer.concat(frames)),
			'raw player (10,000 pieces)');
		assertClosedWith(closed, 1009, 'too_large', 'a message in 10,000 one-byte frames');
		await assertStillPlays('10,000 continuation frames');
	});

	it('reads a message in 256 pieces and closes one in 257 with 1009, empty pieces counted', T, async () => {
		const inPieces = (count, piece = ' ') => {
			const frames = [encodeFrame({ fin: false, payload: '{"type":"ping"' })];
			for (let i = 0; i < count - 2; i++)
				frames.push(encodeFrame({ opcode: OPCODES.continuation, fin: false, payload: piece }));
			frames.push(encodeFrame({ opcode: OPCODES.continuation, payload: '}' }));
			return Buffer.concat(frames);
		};
		const client = await rawPlayer('raw player (256 pieces)');
		client.sendRaw(inPieces(256));
		const pong = await client.next();
		assert.equal(pong.type, 'pong', `expected a ping in 256 pieces to be answered, got ${JSON.stringify(pong)}`);
		await dismiss(client);
		for (const [what, bytes] of [['257 pieces', inPieces(257)], ['300 empty pieces', inPieces(300, '')]]) {
			const closed = await closeAfter(bytes, `raw player (${what})`);
			assertClosedWith(closed, 1009, 'too_large', `a message in ${what}`);
		}
		await assertStillPlays('many pieces');
	});

	it('answers a binary frame with bad_json, plays nothing, and keeps the connection usable', T, async () => {
		const { raw, other, rawRole, room } = await rawInGame();
		if (rawRole === 'back') {
			other.move(7, 7);
			await Promise.all([other.next('board'), raw.next('board')]);
		}
		const before = await gameState(server, room);
		const legal = JSON.stringify({ type: 'move', x: 3, y: 3 });
		for (const payload of [legal, Buffer.from([0, 1, 2, 0xff]), '']) {
			raw.sendFrame({ opcode: OPCODES.binary, payload });
			const error = await raw.next('error');
			assert.equal(error.code, 'bad_json', `expected a binary frame to be refused with bad_json, got ${JSON.stringify(error)}`);
			await other.expectNothing(100, 'after a binary frame from the raw player');
			assert.equal(await gameState(server, room), before, 'expected the game record unchanged after a binary frame');
		}
		// A binary message in fragments is refused as one message.
		raw.sendFrame({ opcode: OPCODES.binary, fin: false, payload: legal.slice(0, 10) });
		raw.sendFrame({ opcode: OPCODES.continuation, payload: legal.slice(10) });
		assert.equal((await raw.next('error')).code, 'bad_json', 'expected a fragmented binary message to be refused with bad_json');
		raw.send({ type: 'ping' });
		await raw.next('pong');
		raw.sendText(legal);
		const [rawBoard, otherBoard] = await Promise.all([raw.next('board'), other.next('board')]);
		assert.deepEqual(rawBoard.move, { x: 3, y: 3, role: rawRole },
			`expected the same move as text to be played, got ${JSON.stringify(rawBoard)}`);
		assert.deepEqual(otherBoard, rawBoard, 'expected both players to get the same board');
		await assertStillPlays('binary frames');
	});

	it('closes with 1007 on text that is not valid UTF-8, and reads a character split between fragments', T, async () => {
		const invalid = [
			['a lone 0xFF byte', [0xff]],
			['a lone 0xFE byte', [0xfe]],
			['a lone continuation byte', [0x80]],
			['an overlong NUL (C0 80)', [0xc0, 0x80]],
			['an overlong three-byte form (E0 80 80)', [0xe0, 0x80, 0x80]],
			['a UTF-16 surrogate (ED A0 80)', [0xed, 0xa0, 0x80]],
			['a code point over U+10FFFF (F4 90 80 80)', [0xf4, 0x90, 0x80, 0x80]],
			['a five-byte form (F8 88 80 80 80)', [0xf8, 0x88, 0x80, 0x80, 0x80]],
			['a three-byte form cut short inside a string', [0xe2, 0x82]],
		];
		for (const [what, bytes] of invalid) {
			const payload = Buffer.concat([Buffer.from('{"type":"ping","s":"'), Buffer.from(bytes), Buffer.from('"}')]);
			const closed = await closeAfter(encodeFrame({ payload }), `raw player (${what})`);
			assertClosedWith(closed, 1007, undefined, `text holding ${what}`);
			await assertHealthy(what);
		}
		const cutAtEnd = await closeAfter(encodeFrame({ payload: Buffer.from([...Buffer.from('{"type":"ping"}'), 0xe2, 0x82]) }),
			'raw player (cut at the end)');
		assertClosedWith(cutAtEnd, 1007, undefined, 'text ending inside a character');
		const invalidInSecondFragment = await closeAfter((client) => {
			client.sendFrame({ fin: false, payload: '{"type":"ping","s":"' });
			client.sendFrame({ opcode: OPCODES.continuation, payload: Buffer.from([0xff, 0x22, 0x7d]) });
		}, 'raw player (invalid second fragment)');
		assertClosedWith(invalidInSecondFragment, 1007, undefined, 'an invalid byte in the second fragment');
		// A valid character split between two fragments is fine.
		const client = await rawPlayer('raw player (split euro sign)');
		const text = Buffer.from('{"type":"ping","s":"\u20ac"}');
		const cut = text.indexOf(0xe2) + 1;
		client.sendFrame({ fin: false, payload: text.subarray(0, cut) });
		client.sendFrame({ opcode: OPCODES.continuation, payload: text.subarray(cut) });
		assert.equal((await client.next()).type, 'pong', 'expected a ping with a euro sign split between fragments to be answered');
		await assertStillPlays('invalid UTF-8');
	});

	it('refuses control frames over 125 bytes and answers one of 125', T, async () => {
		const client = await rawPlayer('raw player (125-byte ping)');
		client.sendFrame({ opcode: OPCODES.ping, payload: 'p'.repeat(125) });
		const pong = await client.nextFrame();
		assert.equal(pong.name, 'pong', `expected a 125-byte ping to be answered with a pong, got ${pong.name}`);
		assert.equal(pong.payload.toString(), 'p'.repeat(125), 'expected the pong to echo the ping payload');
		await dismiss(client);
		for (const [what, frame] of [
			['a 126-byte ping', encodeFrame({ opcode: OPCODES.ping, payload: 'p'.repeat(126) })],
			['a 1000-byte ping', encodeFrame({ opcode: OPCODES.ping, payload: 'p'.repeat(1000) })],
			['a 126-byte pong', encodeFrame({ opcode: OPCODES.pong, payload: 'p'.repeat(126) })],
			['a 126-byte close', encodeFrame({ opcode: OPCODES.close, payload: closePayload(1000, 'r'.repeat(124)) })],
			['a small ping with a 64-bit length', encodeFrame({ opcode: OPCODES.ping, payload: 'p', lengthEncoding: '64' })],
		]) {
			const closed = await closeAfter(frame, `raw player (${what})`);
			// RFC 6455 5.5: control frames carry at most 125 bytes; lws fails
			// the connection, with or without a close frame.
			if (closed.frame)
				assert.equal(closed.code, 1002, `expected ${what} to be refused with 1002 if a close frame comes, got ${closed.code}`);
			assert.deepEqual(closed.messages, [], `expected no message after ${what}, got ${JSON.stringify(closed.messages)}`);
			await assertHealthy(what);
		}
		await assertStillPlays('oversized control frames');
	});

	it('closes with 1002 on fragmented control frames, continuations without a start and messages inside messages', T, async () => {
		const cases = [
			['a ping without FIN', (c) => c.sendFrame({ opcode: OPCODES.ping, fin: false, payload: 'p' })],
			['a pong without FIN', (c) => c.sendFrame({ opcode: OPCODES.pong, fin: false, payload: 'p' })],
			['a close without FIN', (c) => c.sendFrame({ opcode: OPCODES.close, fin: false, payload: closePayload(1000) })],
			['a continuation without a start', (c) => c.sendFrame({ opcode: OPCODES.continuation, payload: '{"type":"ping"}' })],
			['an unfinished continuation without a start', (c) => c.sendFrame({ opcode: OPCODES.continuation, fin: false, payload: '{' })],
			['a text frame inside a fragmented text message', (c) => {
				c.sendFrame({ fin: false, payload: '{"type":' });
				c.sendFrame({ payload: '{"type":"ping"}' });
			}],
			['a binary frame inside a fragmented text message', (c) => {
				c.sendFrame({ fin: false, payload: '{"type":' });
				c.sendFrame({ opcode: OPCODES.binary, payload: '"ping"}' });
			}],
		];
		for (const [what, send] of cases) {
			const closed = await closeAfter(send, `raw player (${what})`);
			assertClosedWith(closed, 1002, undefined, what);
			await assertHealthy(what);
		}
		// A ping between two fragments of a message is allowed.
		const client = await rawPlayer('raw player (ping between fragments)');
		client.sendFrame({ fin: false, payload: '{"type":' });
		client.sendFrame({ opcode: OPCODES.ping, payload: 'between' });
		client.sendFrame({ opcode: OPCODES.continuation, payload: '"ping"}' });
		const pong = await client.nextFrame();
		assert.equal(pong.name, 'pong', `expected the ping between fragments to be answered first, got ${pong.name}`);
		assert.equal((await client.next()).type, 'pong', 'expected the fragmented ping message to be answered');
		await assertStillPlays('broken fragmentation');
	});

	it('closes with 1002 on close frames with an invalid code, and fails those with a broken payload', T, async () => {
		for (const code of [0, 999, 1004, 1005, 1006, 1015, 1016, 2999]) {
			const closed = await closeAfter(encodeFrame({ opcode: OPCODES.close, payload: closePayload(code, 'x') }),
				`raw player (close ${code})`);
			assertClosedWith(closed, 1002, undefined, `a close frame with the reserved code ${code}`);
		}
		for (const code of [1000, 3000, 4999]) {
			const closed = await closeAfter(encodeFrame({ opcode: OPCODES.close, payload: closePayload(code, 'bye') }),
				`raw player (close ${code})`);
			assertClosedWith(closed, code, undefined, `a close frame with the valid code ${code}`);
		}
		// Codes 5000 and up are not defined by RFC 6455 (7.4.2), a close
		// frame's payload is empty or at least a two-byte code, and its
		// reason is UTF-8 (1007).
		for (const [what, payload, code] of [
			['code 5000', closePayload(5000, 'x'), 1002],
			['code 65535', closePayload(65535, 'x'), 1002],
			['a one-byte payload', Buffer.from([3]), 1002],
		]) {
			const closed = await closeAfter(encodeFrame({ opcode: OPCODES.close, payload }), `raw player (close with ${what})`);
			assertClosedWith(closed, code, undefined, `a close frame with ${what}`);
			await assertHealthy(`a close frame with ${what}`);
		}
		// A reason that is not UTF-8 fails the connection (lws closes it).
		const broken = await closeAfter(encodeFrame({ opcode: OPCODES.close,
			payload: Buffer.concat([closePayload(1000), Buffer.from([0xff, 0xfe])]) }), 'raw player (close with a reason that is not UTF-8)');
		if (broken.frame)
			assert.equal(broken.code, 1007, `expected a close reason that is not UTF-8 to be refused with 1007 if a close frame comes, got ${broken.code}`);
		assert.deepEqual(broken.messages, []);
		await assertStillPlays('close frames');
	});

	it('drops a frame whose 64-bit length has the top bit set', T, async () => {
		const header = Buffer.from([0x81, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 5, 1, 2, 3, 4]);
		const closed = await closeAfter(Buffer.concat([header, Buffer.from('hello')]), 'raw player (length 2^63 + 5)');
		if (closed.frame)
			assert.equal(closed.code, 1002, `expected 1002 if a close frame comes, got ${closed.code}`);
		assert.deepEqual(closed.messages, []);
		await assertStillPlays('a 64-bit length with the top bit set');
	});

	/**
	 * Sends a raw request on a fresh socket; resolves with the answer to it
	 * ({ status, head } or { status: null, closed: true }).
	 */
	async function handshakeWith(options, label) {
		const client = await rawSocket(label);
		const answer = await client.handshake({ timeoutMs: (HANDSHAKE_TIMEOUT_S + 5) * 1000, ...options });
		return { client, answer };
	}

	function describeAnswer(answer) {
		return answer.status === null ? 'the connection closed without an answer' :
			`${answer.status} ${JSON.stringify(answer.head.split('\r\n').slice(0, 3).join(' | '))}`;
	}

	/**
	 * Runs handshake rows { what, options, expect }: expect 'refused' (no
	 * 101: an HTTP error or a closed connection), 'not upgraded' (any
	 * answer but a 101) or 'either' (a known limitation: refused, or a
	 * working session that starts with welcome). Checks /healthz after each; collects failures.
	 */
	async function runHandshakeRows(rows) {
		const failures = [];
		for (const row of rows) {
			const { client, answer } = await handshakeWith(row.options, `raw socket (${row.what})`);
			if (answer.status === 101 && row.expect === 'either') {
				// Upgraded (a known limitation): it must be a sound session.
				const welcome = await client.next('welcome');
				if (welcome.protocol !== 2)
					failures.push(`${row.what}: upgraded, but no proper welcome: ${JSON.stringify(welcome)}`);
			} else if (answer.status === 101)
				failures.push(`${row.what}: expected the upgrade to be refused, got ${describeAnswer(answer)}`);
			else if (answer.status !== null && answer.status < 400 && row.expect === 'refused')
				failures.push(`${row.what}: expected an HTTP error or a closed connection, got ${describeAnswer(answer)}`);
			rawClients.delete(client);
			await client.destroy();
			await assertHealthy(row.what);
		}
		assert.equal(failures.length, 0, `${failures.length} of ${rows.length} upgrade requests were not refused:\n  ` +
			failures.join('\n  '));
	}

	it('refuses upgrade requests whose header is over 4 KiB, and stays healthy', T, async () => {
		await runHandshakeRows([
			{ what: '200 extra headers', expect: 'refused', options: { extraLines: Array.from({ length: 200 }, (_, i) => `X-Junk-${i}: ${'a'.repeat(30)}`) } },
			{ what: 'one 8 KiB header', expect: 'refused', options: { extraLines: [`X-Huge: ${'a'.repeat(8192)}`] } },
			{ what: 'one 5 KiB header', expect: 'refused', options: { extraLines: [`X-Huge: ${'a'.repeat(5000)}`] } },
			{ what: 'a 5 KiB query', expect: 'refused', options: { query: `uid=${'a'.repeat(5000)}` } },
			{ what: 'a 64 KiB cookie', expect: 'refused', options: { headers: { Cookie: `c=${'x'.repeat(65536)}` } } },
		]);
		await assertStillPlays('oversized upgrade requests');
	});

	it('refuses malformed upgrade requests without crashing', T, async () => {
		const key = randomKey();
		await runHandshakeRows([
			{ what: 'no Sec-WebSocket-Key', expect: 'refused', options: { headers: { 'Sec-WebSocket-Key': null } } },
			{ what: 'an empty Sec-WebSocket-Key', expect: 'refused', options: { key: '' } },
			{ what: 'no Connection header', expect: 'refused', options: { headers: { Connection: null } } },
			{ what: 'Connection: keep-alive only', expect: 'refused', options: { headers: { Connection: 'keep-alive' } } },
			{ what: 'no Upgrade header (a plain GET of the page)', expect: 'not upgraded', options: { headers: { Upgrade: null } } },
			{ what: 'Upgrade: websocket/13', expect: 'refused', options: { headers: { Upgrade: 'websocket/13' } } },
			{ what: 'a POST', expect: 'refused', options: { requestLine: 'POST / HTTP/1.1' } },
			{ what: 'a path that does not upgrade', expect: 'refused', options: { path: '/index.html' } },
			{ what: 'the path /healthz', expect: 'not upgraded', options: { path: '/healthz' } },
			{ what: 'a garbage request line', expect: 'refused', options: { raw: 'GARBAGE\r\n\r\n' } },
			{ what: 'binary garbage', expect: 'refused', options: { raw: '\x00\x01\x02\xff\xfe\r\n\r\n' } },
			{ what: 'the HTTP/2 preface', expect: 'refused', options: { raw: 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n' } },
			{ what: 'lone CR line ends (dropped by the handshake timeout)', expect: 'refused', options: { raw: `GET / HTTP/1.1\rHost: x\rUpgrade: websocket\rConnection: Upgrade\rSec-WebSocket-Key: ${key}\rSec-WebSocket-Version: 13\r\r` } },
			{ what: 'a header line without a colon', expect: 'refused', options: { extraLines: ['NoColonHere'] } },
		]);
		await assertStillPlays('malformed upgrade requests');
	});

	it('answers upgrade requests with bare LF line ends, bare CRs inside headers or HTTP/9.9 either properly or not at all', T, async () => {
		// RFC 9112 2.2 lets a server read a bare LF as a line end, and a
		// bare CR inside a field either be refused or read as a space; RFC
		// 6455 asks for HTTP/1.1 "or higher". lws upgrades some of these
		// and drops others (at the handshake timeout); both are fine, as
		// long as a 101 is a real WebSocket and the server lives on.
		const key = randomKey();
		const rows = [
			{ what: 'LF line ends', options: { raw: `GET /?uid=${uuid()} HTTP/1.1\nHost: x\nUpgrade: websocket\nConnection: Upgrade\nSec-WebSocket-Key: ${key}\nSec-WebSocket-Version: 13\n\n`, key } },
			{ what: 'a bare CR inside an unknown header', options: { query: { uid: uuid() }, extraLines: ['X-Split: a\rb'] } },
			{ what: 'a bare CR inside another unknown header', options: { query: { uid: uuid() }, extraLines: ['X-A: b\rc'] } },
			{ what: 'a bare CR inside the Cookie header', options: { query: { uid: uuid() }, extraLines: ['Cookie: a\rb'] } },
			{ what: 'a bare CR starting a header line', options: { query: { uid: uuid() }, extraLines: ['\rX-A: b'] } },
			{ what: 'HTTP/9.9', options: { query: { uid: uuid() }, requestLine: `GET /?uid=${uuid()} HTTP/9.9` } },
		];
		for (const row of rows) {
			const { client, answer } = await handshakeWith(row.options, `raw socket (${row.what})`);
			if (answer.status === 101) {
				assert.ok(answer.headers['sec-websocket-accept'], `expected the 101 to ${row.what} to carry Sec-WebSocket-Accept`);
				const welcome = await client.next();
				assert.equal(welcome.type, 'welcome', `expected a welcome after the upgrade with ${row.what}, got ${JSON.stringify(welcome)}`);
			}
			rawClients.delete(client);
			await client.destroy();
			await server.settle();
			await assertHealthy(row.what);
		}
		await assertStillPlays('lenient upgrade requests');
	});

	it('refuses the upgrade requests RFC 6455 says a server must refuse: a bad key, an unknown version, HTTP/1.0 or none', T, async () => {
		// RFC 6455 4.2.1: the request must be HTTP/1.1 or later, its key
		// the base64 of 16 bytes, its version 13 (else 426 with the
		// versions the server speaks, 4.4). lws 4.1.6 upgrades all of these.
		await runHandshakeRows([
			{ what: 'a Sec-WebSocket-Key that is not base64', expect: 'refused', options: { key: 'not-base64!!' } },
			{ what: 'a Sec-WebSocket-Key of 3 bytes', expect: 'refused', options: { key: 'AAAA' } },
			{ what: 'a Sec-WebSocket-Key of 32 bytes', expect: 'refused', options: { key: Buffer.alloc(32, 7).toString('base64') } },
			{ what: 'Sec-WebSocket-Version: 12', expect: 'refused', options: { version: '12' } },
			{ what: 'Sec-WebSocket-Version: abc', expect: 'refused', options: { version: 'abc' } },
			{ what: 'no Sec-WebSocket-Version', expect: 'refused', options: { headers: { 'Sec-WebSocket-Version': null } } },
			// Known limitation: lws 4.1.6 upgrades an HTTP/1.0 request (and
			// one with no version) and tells its user nothing of the request
			// version, so the server cannot refuse them (RFC 6455 4.1 wants
			// HTTP/1.1). Both still get a working, well-formed session.
			{ what: 'HTTP/1.0', expect: 'either', options: { requestLine: 'GET / HTTP/1.0' } },
			{ what: 'a request line without an HTTP version', expect: 'either', options: { requestLine: 'GET /' } },
		]);
	});

	it('does not switch to any protocol but WebSocket, whatever Upgrade says (h2c included), and survives what follows', T, async () => {
		const h2cHeaders = { Upgrade: 'h2c', Connection: 'Upgrade, HTTP2-Settings', 'HTTP2-Settings': 'AAMAAABkAARAAAAAAAIAAAAA' };
		const rows = [
			{ what: 'Upgrade: h2c with HTTP2-Settings on /', options: { headers: h2cHeaders } },
			{ what: 'Upgrade: h2c on /healthz, no WebSocket headers', options: { path: '/healthz', headers: { ...h2cHeaders, 'Sec-WebSocket-Key': null, 'Sec-WebSocket-Version': null } } },
			{ what: 'Upgrade: h2c with malformed HTTP2-Settings', options: { headers: { ...h2cHeaders, 'HTTP2-Settings': '!!!!' } } },
			{ what: 'Upgrade: h2c without HTTP2-Settings', options: { headers: { Upgrade: 'h2c', Connection: 'Upgrade' } } },
			{ what: 'Upgrade: foo', options: { headers: { Upgrade: 'foo' } } },
			{ what: 'Upgrade: websocket, h2c', options: { headers: { Upgrade: 'websocket, h2c' } } },
			{ what: 'Upgrade: h2c, websocket', options: { headers: { Upgrade: 'h2c, websocket' } } },
			{ what: 'Upgrade: TLS/1.0', options: { headers: { Upgrade: 'TLS/1.0' } } },
		];
		const failures = [];
		for (const row of rows) {
			const { client, answer } = await handshakeWith(row.options, `raw socket (${row.what})`);
			const upgradedTo = answer.status === 101 ? (answer.headers.upgrade || '').toLowerCase() : null;
			if (upgradedTo !== null && upgradedTo !== 'websocket') {
				failures.push(`${row.what}: expected no switch to another protocol, got ${describeAnswer(answer)}`);
				// Whatever it switched to, hostile bytes on it must not hurt:
				// the HTTP/2 preface, an empty SETTINGS, then garbage.
				client.sendRaw(Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'));
				client.sendRaw(Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]));
				client.sendRaw(Buffer.from([0, 0, 3, 1, 5, 0, 0, 0, 3, 0x82, 0x84, 0x86]));
				client.sendRaw(Buffer.alloc(256, 0xff));
				client.sendRaw(Buffer.from([0, 0, 8, 7, 0, 0, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 0]));
			}
			await client.waitFor(() => (client.closedAt || client.ended ? true : undefined), 'be closed', 1000).catch(() => {});
			rawClients.delete(client);
			await client.destroy();
			await assertHealthy(row.what);
		}
		await assertStillPlays('other upgrades');
		assert.equal(failures.length, 0, `${failures.length} of ${rows.length} requests switched protocols:\n  ` +
			failures.join('\n  '));
	});
});
