// web/js/connection.js: a Connection driven through fake sockets.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { Connection } from '../../web/js/connection.js';

/** A WebSocket stand-in: the test opens, closes and talks for the server. */
class FakeSocket {
	constructor(url) {
		this.url = url;
		this.readyState = 0;
		this.sent = [];
		this.closeCalls = [];
		this.listeners = {};
	}

	addEventListener(type, listener, options = {}) {
		(this.listeners[type] ||= []).push({ listener, once: options.once });
	}

	emit(type, event = {}) {
		const listeners = this.listeners[type] || [];
		this.listeners[type] = listeners.filter((entry) => !entry.once);
		for (const { listener } of listeners)
			listener(event);
	}

	send(text) {
		this.sent.push(text);
	}

	close(code) {
		this.closeCalls.push(code);
		this.readyState = 2;
	}

	// What the "network" does:
	serverOpens() {
		this.readyState = 1;
		this.emit('open');
	}

	serverSends(message) {
		this.emit('message', { data: typeof message === 'string' ? message : JSON.stringify(message) });
	}

	closes(code = 1000, reason = '') {
		this.readyState = 3;
		this.emit('close', { code, reason });
	}
}

function connection() {
	const sockets = [];
	const messages = [];
	const closes = [];
	let counter = 0;
	const conn = new Connection({
		url: () => `ws://test/?n=${++counter}`,
		onMessage: (message) => messages.push(message),
		onClose: (info) => closes.push(info),
		createSocket: (url) => {
			const socket = new FakeSocket(url);
			sockets.push(socket);
			return socket;
		},
	});
	return { conn, sockets, messages, closes };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Connection', () => {
	it('opens a socket, passes parsed messages on and sends JSON once open', async () => {
		const { conn, sockets, messages } = connection();
		await conn.open();
		assert.equal(sockets.length, 1);
		assert.equal(conn.send({ type: 'ping' }), false, 'expected nothing sent before the socket opens');
		sockets[0].serverOpens();
		assert.equal(conn.isOpen, true);
		assert.equal(conn.send({ type: 'move', x: 1, y: 2 }), true);
		assert.deepEqual(sockets[0].sent, ['{"type":"move","x":1,"y":2}']);
		sockets[0].serverSends({ type: 'welcome', size: 15 });
		sockets[0].serverSends('garbage');
		assert.deepEqual(messages, [{ type: 'welcome', size: 15 }]);
	});

	it('reports a close it did not ask for, with its code', async () => {
		const { conn, sockets, closes } = connection();
		await conn.open();
		sockets[0].serverOpens();
		sockets[0].closes(4001, 'replaced');
		assert.deepEqual(closes, [{ code: 4001, reason: 'replaced' }]);
		assert.equal(conn.isOpen, false);
	});

	it('opens the new socket only after the old one closed, and drops the old one\'s messages', async () => {
		const { conn, sockets, messages, closes } = connection();
		await conn.open();
		sockets[0].serverOpens();
		const reopened = conn.open();
		await tick();
		assert.deepEqual(sockets[0].closeCalls, [1000], 'expected the old socket closed with 1000');
		assert.equal(sockets.length, 1, 'expected no new socket before the old one closed');
		sockets[0].serverSends({ type: 'board' });
		sockets[0].closes(1000);
		await reopened;
		assert.equal(sockets.length, 2);
		assert.deepEqual(messages, [], 'expected the closing socket\'s messages dropped');
		assert.deepEqual(closes, [], 'expected no onClose for a close the page asked for');
	});

	it('closes a socket that is still connecting only once it opens', async () => {
		const { conn, sockets } = connection();
		await conn.open();
		const closed = conn.close();
		assert.deepEqual(sockets[0].closeCalls, [], 'expected no close() while connecting');
		sockets[0].serverOpens();
		assert.deepEqual(sockets[0].closeCalls, [1000]);
		sockets[0].closes(1000);
		await closed;
	});

	it('lets a close() cancel an open() that waits for the old socket', async () => {
		const { conn, sockets } = connection();
		await conn.open();
		sockets[0].serverOpens();
		const reopened = conn.open();
		const closed = conn.close();
		sockets[0].closes(1000);
		await reopened;
		await closed;
		assert.equal(sockets.length, 1, 'expected no new socket after the cancel');
	});

	it('resolves close() at once when there is no socket', async () => {
		const { conn } = connection();
		await conn.close();
		assert.equal(conn.isOpen, false);
	});
});
