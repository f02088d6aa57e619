// A WebSocket player for the tests: a ws client with an inbox.
//
// Every text frame the server sends is parsed and queued in arrival order.
// next(type) takes the next unread message and checks its type, so a test
// states the exact sequence it expects; anything else (another type, a
// close, silence) fails with a message listing what did arrive.
// expectNothing(ms) asserts silence. closed resolves with { code, reason }.

import WebSocket from 'ws';

import { scaled } from './time.mjs';

export const DEFAULT_TIMEOUT_MS = scaled(5000);

// Every client ever opened, so that a test's cleanup can close the ones a
// failed test left open (closeAllClients()).
const openClients = new Set();

/** A random version 4 UUID in canonical lower-case form. */
export function uuid() {
	const hex = [];
	for (let i = 0; i < 32; i++)
		hex.push(Math.floor(Math.random() * 16));
	hex[12] = 4;
	hex[16] = 8 + (hex[16] & 3);
	const s = hex.map((digit) => digit.toString(16)).join('');
	return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The other side: front <-> back. */
export function otherRole(role) {
	return role === 'front' ? 'back' : 'front';
}

/**
 * The WebSocket URL of server for a player: base is server.wsUrl (or any
 * ws:// URL), query an object of parameters (undefined values left out).
 */
export function playerUrl(server, query = {}, { path = '/' } = {}) {
	const base = typeof server === 'string' ? server : `ws://${server.host}:${server.port}${path}`;
	const params = Object.entries(query)
		.filter(([, value]) => value !== undefined)
		.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
	return params.length ? `${base}?${params.join('&')}` : base;
}

function describe(message) {
	return JSON.stringify(message);
}

export class Client {
	constructor(ws, label) {
		this.ws = ws;
		this.label = label;
		this.inbox = []; // parsed messages not yet taken by next()
		this.received = []; // every text frame received, as { text, message }
		this.waiter = null; // the pending next(), if any
		this.closeInfo = null; // { code, reason } once closed
		this.closed = new Promise((resolve) => {
			ws.on('close', (code, reason) => {
				openClients.delete(this);
				this.closeInfo = { code, reason: reason.toString() };
				if (this.waiter)
					this.waiter.onClose();
				resolve(this.closeInfo);
			});
		});
		ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
		// Errors after open end in 'close' (code 1006 for a lost socket);
		// ws requires a listener so that they are not thrown.
		ws.on('error', (err) => {
			this.lastError = err;
		});
		openClients.add(this);
	}

	/**
	 * Opens a connection to url and resolves with a Client once it is open.
	 * Options: protocols (subprotocols to ask for), label (for messages),
	 * timeoutMs.
	 */
	static connect(url, { protocols = [], label = 'client', timeoutMs = DEFAULT_TIMEOUT_MS,
		maxPayload } = {}) {
		return new Promise((resolve, reject) => {
			const options = { handshakeTimeout: timeoutMs };
			if (maxPayload)
				options.maxPayload = maxPayload;
			const ws = new WebSocket(url, protocols, options);
			const client = new Client(ws, label);
			let opened = false;
			const fail = (why) => {
				if (opened)
					return; // a later error: the close event tells the test
				openClients.delete(client);
				reject(new Error(`expected ${label} to connect to ${url}, but ${why}`));
			};
			ws.once('open', () => {
				opened = true;
				resolve(client);
			});
			ws.once('unexpected-response', (req, res) => {
				fail(`the server answered the upgrade with HTTP ${res.statusCode}`);
				ws.terminate();
			});
			ws.once('error', (err) => fail(`it failed: ${err.message}`));
		});
	}

	onMessage(data, isBinary) {
		const text = data.toString('utf8');
		let message;
		try {
			message = JSON.parse(text);
		} catch {
			message = { type: '(not JSON)', text };
		}
		if (isBinary)
			message = { type: '(binary frame)', text };
		this.received.push({ text, message });
		this.inbox.push(message);
		if (this.waiter)
			this.waiter.onMessage();
	}

	/** The messages received so far, for failure messages. */
	history() {
		return this.received.map((entry) => entry.text).join('\n    ') || '(none)';
	}

	/**
	 * Takes the next unread message, which must be of type (any type when
	 * type is null), waiting up to timeoutMs for it. Options: skip, a list
	 * of types to take and drop when they come first.
	 */
	next(type = null, timeoutMs = DEFAULT_TIMEOUT_MS, { skip = [] } = {}) {
		if (this.waiter)
			throw new Error(`${this.label}: next() called while another next() is pending`);
		return new Promise((resolve, reject) => {
			const what = type ? `a "${type}" message` : 'a message';
			const finish = (err, message) => {
				clearTimeout(timer);
				this.waiter = null;
				if (err)
					reject(err);
				else
					resolve(message);
			};
			const take = () => {
				while (this.inbox.length) {
					const message = this.inbox.shift();
					if (skip.includes(message.type))
						continue;
					if (type && message.type !== type) {
						finish(new Error(`expected ${this.label} to receive ${what}, ` +
							`got ${describe(message)}` +
							(this.inbox.length ? `, then ${this.inbox.map(describe).join(', ')}` : '') +
							`; everything it received:\n    ${this.history()}`));
						return true;
					}
					finish(null, message);
					return true;
				}
				return false;
			};
			const timer = setTimeout(() => {
				finish(new Error(`expected ${this.label} to receive ${what} within ${timeoutMs} ms, ` +
					`nothing more came; everything it received:\n    ${this.history()}`));
			}, timeoutMs);
			this.waiter = {
				onMessage: take,
				onClose: () => {
					if (take())
						return;
					finish(new Error(`expected ${this.label} to receive ${what}, but the ` +
						`connection closed with code ${this.closeInfo.code} ` +
						`${JSON.stringify(this.closeInfo.reason)}; everything it received:\n    ` +
						this.history()));
				},
			};
			if (take())
				return;
			if (this.closeInfo)
				this.waiter.onClose();
		});
	}

	/**
	 * Takes the next messages, which must be of the given types in this
	 * order; resolves with them.
	 */
	async nextAll(types, timeoutMs = DEFAULT_TIMEOUT_MS) {
		const messages = [];
		for (const type of types)
			messages.push(await this.next(type, timeoutMs));
		return messages;
	}

	/** Asserts that no message is unread now nor arrives within ms. */
	async expectNothing(ms = 200, why = '') {
		const check = () => {
			if (this.inbox.length)
				throw new Error(`expected ${this.label} to receive nothing${why ? ` ${why}` : ''}, ` +
					`got ${this.inbox.map(describe).join(', ')}`);
		};
		check();
		await new Promise((resolve) => setTimeout(resolve, ms));
		check();
	}

	/** Sends obj as one JSON text frame. */
	send(obj) {
		this.sendText(JSON.stringify(obj));
	}

	/** Sends text as it is, in one text frame. */
	sendText(text) {
		this.ws.send(text);
	}

	/** Asks for a stone at (x, y). */
	move(x, y) {
		this.send({ type: 'move', x, y });
	}

	/** True while the connection is open. */
	get isOpen() {
		return this.ws.readyState === WebSocket.OPEN;
	}

	/** Closes cleanly (close frame) and resolves with { code, reason }. */
	close(code = 1000, reason = '') {
		if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)
			this.ws.close(code, reason);
		return this.closed;
	}

	/** Drops the TCP connection without a close frame. */
	terminate() {
		this.ws.terminate();
		return this.closed;
	}

	/**
	 * Resolves with { code, reason } once the server closes the connection,
	 * failing after timeoutMs.
	 */
	async waitClosed(timeoutMs = DEFAULT_TIMEOUT_MS) {
		let timer;
		const timeout = new Promise((resolve, reject) => {
			timer = setTimeout(() => reject(new Error(`expected the server to close ` +
				`${this.label}'s connection within ${timeoutMs} ms, it stayed open; ` +
				`everything it received:\n    ${this.history()}`)), timeoutMs);
		});
		try {
			return await Promise.race([this.closed, timeout]);
		} finally {
			clearTimeout(timer);
		}
	}
}

/** Connects a player; query holds uid, name and any other parameter. */
export function connectPlayer(server, query = {}, options = {}) {
	const label = options.label || (query.name ? `player ${query.name}` : 'player');
	return Client.connect(playerUrl(server, query, options), { ...options, label });
}

/**
 * Connects a player with a fresh uid (unless query.uid is given) and takes
 * its welcome and waiting. Resolves with the client, its uid in .uid and
 * the welcome in .welcome.
 */
/**
 * Connects uid (a fresh one unless query has one) to server and takes
 * its welcome: the client, with uid and welcome set.
 */
export async function joinPlayer(server, query = {}, label = 'player') {
	const uid = query.uid || uuid();
	const client = await connectPlayer(server, { ...query, uid }, { label });
	client.uid = uid;
	client.welcome = await client.next('welcome');
	return client;
}

export async function connectWaiting(server, query = {}, options = {}) {
	const uid = 'uid' in query ? query.uid : uuid();
	const client = await connectPlayer(server, { ...query, uid }, options);
	client.uid = uid;
	client.welcome = await client.next('welcome');
	await client.next('waiting');
	return client;
}

/**
 * Connects two players one after the other and waits until both are
 * matched. Resolves with { first, second, front, back, room }: each client
 * carries .uid, .welcome, .roleMessage and .role. The second player may or
 * may not get a waiting before its role (see matchmaking tests for that).
 */
export async function connectPair(server, { firstQuery = {}, secondQuery = {}, options = {} } = {}) {
	const first = await connectWaiting(server, firstQuery, {
		label: 'first player', ...options,
	});
	const uid = 'uid' in secondQuery ? secondQuery.uid : uuid();
	const second = await connectPlayer(server, { ...secondQuery, uid }, {
		label: 'second player', ...options,
	});
	second.uid = uid;
	second.welcome = await second.next('welcome');
	second.roleMessage = await second.next('role', DEFAULT_TIMEOUT_MS, { skip: ['waiting'] });
	first.roleMessage = await first.next('role');
	first.role = first.roleMessage.role;
	second.role = second.roleMessage.role;
	if (first.role === second.role || ![first.role, second.role].every((r) => r === 'front' || r === 'back'))
		throw new Error(`expected the two players to get roles front and back, got ` +
			`${describe(first.roleMessage)} and ${describe(second.roleMessage)}`);
	if (first.roleMessage.room !== second.roleMessage.room)
		throw new Error(`expected both players in one room, got ${describe(first.roleMessage)} ` +
			`and ${describe(second.roleMessage)}`);
	const front = first.role === 'front' ? first : second;
	const back = first.role === 'front' ? second : first;
	front.label = `front (${first === front ? 'first' : 'second'} player)`;
	back.label = `back (${first === back ? 'first' : 'second'} player)`;
	return { first, second, front, back, room: first.roleMessage.room };
}

/**
 * Closes every client still open (cleanly, or by dropping the socket when
 * the close handshake does not finish within a second).
 */
export async function closeAllClients() {
	const clients = [...openClients];
	await Promise.all(clients.map(async (client) => {
		client.close();
		let timer;
		const late = new Promise((resolve) => {
			timer = setTimeout(resolve, 1000);
		});
		await Promise.race([client.closed, late]);
		clearTimeout(timer);
		if (!client.closeInfo)
			await client.terminate();
	}));
}

/**
 * Sends messages (objects, each as one JSON text frame) in a single write
 * to the socket, so that the server reads them together: for requests
 * that must reach the server with nothing happening in between (a move and
 * a takeback before the engine can answer).
 */
export function sendTogether(client, messages) {
	const socket = client.ws._socket;
	socket.cork();
	try {
		for (const message of messages)
			client.send(message);
	} finally {
		socket.uncork();
	}
}
