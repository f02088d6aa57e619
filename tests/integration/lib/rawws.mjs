// A WebSocket client on a bare TCP socket (node:net), for the tests that
// send what a well-behaved library never would.
//
// RawSocket.connect() opens the TCP connection (optionally from a chosen
// local address); handshake() writes an HTTP upgrade request built from
// its options (path, query, any header added, changed or left out, or a
// whole raw request) and parses the answer. After a 101 the socket speaks
// frames: encodeFrame() builds any frame (FIN, RSV bits, any opcode, masked
// or not, a chosen mask key, any length encoding, a declared length that
// differs from the payload), sendFrame()/sendRaw() write them, and every
// frame the server sends is parsed into an inbox (text, binary, close with
// code and reason, ping, pong). Pings are answered automatically unless
// autoPong is false. end and close of the socket are reported with times,
// so that a test can say how long the server took to drop a connection.
//
// openRawWs() is the short form: connect, upgrade, check the 101.

import net from 'node:net';
import crypto from 'node:crypto';

import { scaled } from './time.mjs';

export const OPCODES = {
	continuation: 0x0,
	text: 0x1,
	binary: 0x2,
	close: 0x8,
	ping: 0x9,
	pong: 0xa,
};

const OPCODE_NAMES = new Map(Object.entries(OPCODES).map(([name, code]) => [code, name]));

export const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

export const DEFAULT_TIMEOUT_MS = scaled(5000);

/** The Sec-WebSocket-Accept value the RFC derives from key. */
export function acceptFor(key) {
	return crypto.createHash('sha1').update(key + WS_GUID).digest('base64');
}

/** A fresh random Sec-WebSocket-Key (16 random bytes, base64). */
export function randomKey() {
	return crypto.randomBytes(16).toString('base64');
}

function toBuffer(payload) {
	if (payload === undefined || payload === null)
		return Buffer.alloc(0);
	if (Buffer.isBuffer(payload))
		return payload;
	if (payload instanceof Uint8Array)
		return Buffer.from(payload);
	return Buffer.from(String(payload), 'utf8');
}

/**
 * Builds one frame as bytes. Options:
 *  fin (default true), rsv (0..7: RSV1 = 4, RSV2 = 2, RSV3 = 1),
 *  opcode (a number or a name of OPCODES; default text),
 *  payload (string as UTF-8, Buffer or Uint8Array),
 *  mask (default true: clients must mask), maskKey (4 bytes; random),
 *  lengthEncoding ('auto' | '7' | '16' | '64': the smallest form by
 *  default; a larger one on purpose for the non-minimal encodings),
 *  declaredLength (the length written in the header, when it should not
 *  be the payload's: a header announcing 1 MiB with less behind it).
 */
export function encodeFrame({ fin = true, rsv = 0, opcode = OPCODES.text, payload,
	mask = true, maskKey, lengthEncoding = 'auto', declaredLength } = {}) {
	const code = typeof opcode === 'string' ? OPCODES[opcode] : opcode;
	if (code === undefined || code < 0 || code > 15)
		throw new Error(`encodeFrame: no opcode ${opcode}`);
	const data = toBuffer(payload);
	const length = declaredLength === undefined ? data.length : declaredLength;
	let encoding = lengthEncoding;
	if (encoding === 'auto')
		encoding = length < 126 ? '7' : length < 65536 ? '16' : '64';
	const lengthBytes = { 7: 0, 16: 2, 64: 8 }[encoding];
	if (lengthBytes === undefined)
		throw new Error(`encodeFrame: no length encoding ${lengthEncoding}`);
	if (encoding === '7' && length > 125)
		throw new Error(`encodeFrame: ${length} bytes do not fit a 7-bit length`);
	if (encoding === '16' && length > 0xffff)
		throw new Error(`encodeFrame: ${length} bytes do not fit a 16-bit length`);
	const key = mask ? toBuffer(maskKey || crypto.randomBytes(4)) : null;
	if (key && key.length !== 4)
		throw new Error('encodeFrame: a mask key is 4 bytes');
	const header = Buffer.alloc(2 + lengthBytes + (key ? 4 : 0));
	header[0] = (fin ? 0x80 : 0) | ((rsv & 7) << 4) | code;
	if (encoding === '7') {
		header[1] = length;
	} else if (encoding === '16') {
		header[1] = 126;
		header.writeUInt16BE(length, 2);
	} else {
		header[1] = 127;
		header.writeBigUInt64BE(BigInt(length), 2);
	}
	if (key) {
		header[1] |= 0x80;
		key.copy(header, 2 + lengthBytes);
	}
	const body = Buffer.from(data);
	if (key)
		for (let i = 0; i < body.length; i++)
			body[i] ^= key[i & 3];
	return Buffer.concat([header, body]);
}

/** The payload of a close frame: the code (2 bytes) and a reason. */
export function closePayload(code, reason = '') {
	if (code === undefined || code === null)
		return Buffer.alloc(0);
	const text = toBuffer(reason);
	const out = Buffer.alloc(2 + text.length);
	out.writeUInt16BE(code, 0);
	text.copy(out, 2);
	return out;
}

/**
 * Parses the server frames at the start of buffer. Returns { frames,
 * rest }, each frame { fin, rsv, opcode, name, masked, payload }; rest is
 * the incomplete tail.
 */
export function decodeFrames(buffer) {
	const frames = [];
	let offset = 0;
	for (;;) {
		if (buffer.length - offset < 2)
			break;
		const b0 = buffer[offset];
		const b1 = buffer[offset + 1];
		let length = b1 & 0x7f;
		let at = offset + 2;
		if (length === 126) {
			if (buffer.length - at < 2)
				break;
			length = buffer.readUInt16BE(at);
			at += 2;
		} else if (length === 127) {
			if (buffer.length - at < 8)
				break;
			length = Number(buffer.readBigUInt64BE(at));
			at += 8;
		}
		const masked = (b1 & 0x80) !== 0;
		let key = null;
		if (masked) {
			if (buffer.length - at < 4)
				break;
			key = buffer.subarray(at, at + 4);
			at += 4;
		}
		if (buffer.length - at < length)
			break;
		const payload = Buffer.from(buffer.subarray(at, at + length));
		if (key)
			for (let i = 0; i < payload.length; i++)
				payload[i] ^= key[i & 3];
		const opcode = b0 & 0x0f;
		frames.push({
			fin: (b0 & 0x80) !== 0,
			rsv: (b0 >> 4) & 7,
			opcode,
			name: OPCODE_NAMES.get(opcode) || `opcode ${opcode}`,
			masked,
			payload,
		});
		offset = at + length;
	}
	return { frames, rest: buffer.subarray(offset) };
}

/** A short description of a frame for failure messages. */
export function describeFrame(frame) {
	if (frame.name === 'text')
		return `text ${JSON.stringify(frame.payload.toString('utf8').slice(0, 300))}`;
	if (frame.name === 'close')
		return `close ${frame.code ?? '(no code)'} ${JSON.stringify(frame.reason ?? '')}`;
	return `${frame.name} (${frame.payload.length} bytes)`;
}

/**
 * Parses an HTTP response head (up to and without the blank line):
 * { status, statusText, headers (lower-case names; repeated ones joined
 * with ", "), head }.
 */
function parseResponseHead(head) {
	const lines = head.split('\r\n');
	const match = /^HTTP\/\d\.\d (\d{3}) ?(.*)$/.exec(lines[0]);
	const headers = {};
	for (const line of lines.slice(1)) {
		const colon = line.indexOf(':');
		if (colon <= 0)
			continue;
		const name = line.slice(0, colon).trim().toLowerCase();
		const value = line.slice(colon + 1).trim();
		headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
	}
	return {
		status: match ? Number(match[1]) : null,
		statusText: match ? match[2] : '',
		headers,
		head,
	};
}

/**
 * Builds an upgrade request. Options: path ('/'), query (object or raw
 * string after '?'), host, key, version (13), headers (added or replacing
 * the defaults, case-insensitively; a value of null leaves that header
 * out), extraLines (raw header lines appended as they are), requestLine
 * (the whole first line, instead of "GET path HTTP/1.1").
 */
export function upgradeRequest({ path = '/', query, host = 'localhost', key = randomKey(),
	version = '13', headers = {}, extraLines = [], requestLine } = {}) {
	let target = path;
	if (typeof query === 'string')
		target += `?${query}`;
	else if (query && Object.keys(query).length)
		target += '?' + Object.entries(query)
			.filter(([, value]) => value !== undefined)
			.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
			.join('&');
	const fields = new Map([
		['host', ['Host', host]],
		['upgrade', ['Upgrade', 'websocket']],
		['connection', ['Connection', 'Upgrade']],
		['sec-websocket-key', ['Sec-WebSocket-Key', key]],
		['sec-websocket-version', ['Sec-WebSocket-Version', String(version)]],
	]);
	for (const [name, value] of Object.entries(headers))
		fields.set(name.toLowerCase(), [name, value]);
	const lines = [requestLine || `GET ${target} HTTP/1.1`];
	for (const [name, value] of fields.values())
		if (value !== null && value !== undefined)
			lines.push(`${name}: ${value}`);
	lines.push(...extraLines);
	return `${lines.join('\r\n')}\r\n\r\n`;
}

/** One TCP connection to the server, spoken to byte by byte. */
export class RawSocket {
	constructor(socket, { label = 'raw client', autoPong = true } = {}) {
		this.socket = socket;
		this.label = label;
		this.autoPong = autoPong;
		this.upgraded = false; // true once a 101 was read
		this.response = null; // the parsed HTTP answer to handshake()
		this.httpBuffer = Buffer.alloc(0); // bytes before the frames
		this.frameBuffer = Buffer.alloc(0); // an incomplete frame
		this.frames = []; // every frame received, in order
		this.inbox = []; // frames not yet taken by nextFrame()
		this.pingsAnswered = 0;
		this.waiters = new Set(); // functions to call on any news
		this.ended = null; // { at } once the server half-closed (FIN)
		this.closedAt = null; // time the socket closed
		this.error = null; // the socket's error, if any
		this.openedAt = Date.now();
		this.closed = new Promise((resolve) => {
			socket.on('close', (hadError) => {
				this.closedAt = Date.now();
				this.notify();
				resolve({ at: this.closedAt, hadError, error: this.error });
			});
		});
		socket.on('data', (chunk) => this.onData(chunk));
		socket.on('end', () => {
			this.ended = { at: Date.now() };
			this.notify();
		});
		socket.on('error', (err) => {
			this.error = err;
			this.notify();
		});
	}

	/**
	 * Opens a TCP connection to port on host; resolves once it is
	 * connected. localAddress binds the client side (e.g. 127.0.0.2).
	 * A connection the server accepts and then drops at once still
	 * resolves: look at closed/ended.
	 */
	static connect(port, { host = '127.0.0.1', localAddress, label, autoPong = true,
		timeoutMs = DEFAULT_TIMEOUT_MS } = {}) {
		return new Promise((resolve, reject) => {
			const options = { port, host };
			if (localAddress)
				options.localAddress = localAddress;
			const socket = net.connect(options);
			socket.setNoDelay(true);
			const timer = setTimeout(() => {
				socket.destroy();
				reject(new Error(`expected ${label || 'a raw client'} to connect to ${host}:${port} ` +
					`within ${timeoutMs} ms`));
			}, timeoutMs);
			const onError = (err) => {
				clearTimeout(timer);
				reject(new Error(`expected ${label || 'a raw client'} to connect to ${host}:${port}, ` +
					`got ${err.message}`));
			};
			socket.once('error', onError);
			socket.once('connect', () => {
				clearTimeout(timer);
				socket.off('error', onError);
				resolve(new RawSocket(socket, { label, autoPong }));
			});
		});
	}

	notify() {
		for (const waiter of [...this.waiters])
			waiter();
	}

	onData(chunk) {
		if (!this.upgraded) {
			this.httpBuffer = Buffer.concat([this.httpBuffer, chunk]);
			const end = this.httpBuffer.indexOf('\r\n\r\n');
			if (end >= 0 && !this.response) {
				this.response = parseResponseHead(this.httpBuffer.subarray(0, end).toString('latin1'));
				if (this.response.status === 101) {
					this.upgraded = true;
					const rest = this.httpBuffer.subarray(end + 4);
					this.httpBuffer = this.httpBuffer.subarray(0, end + 4);
					if (rest.length)
						this.onFrameBytes(rest);
				}
			}
			this.notify();
			return;
		}
		this.onFrameBytes(chunk);
	}

	onFrameBytes(chunk) {
		this.frameBuffer = Buffer.concat([this.frameBuffer, chunk]);
		const { frames, rest } = decodeFrames(this.frameBuffer);
		this.frameBuffer = Buffer.from(rest);
		for (const frame of frames) {
			if (frame.name === 'close') {
				frame.code = frame.payload.length >= 2 ? frame.payload.readUInt16BE(0) : null;
				frame.reason = frame.payload.subarray(2).toString('utf8');
			}
			if (frame.name === 'text') {
				frame.text = frame.payload.toString('utf8');
				try {
					frame.message = JSON.parse(frame.text);
				} catch {
					frame.message = undefined;
				}
			}
			this.frames.push(frame);
			if (frame.name === 'ping' && this.autoPong && this.writable) {
				this.pingsAnswered++;
				this.sendFrame({ opcode: OPCODES.pong, payload: frame.payload });
				continue;
			}
			this.inbox.push(frame);
		}
		this.notify();
	}

	/** True while bytes can still be written. */
	get writable() {
		return !this.socket.destroyed && this.socket.writable;
	}

	/** Writes bytes as they are; false when the socket is gone. */
	sendRaw(bytes) {
		if (!this.writable)
			return false;
		this.socket.write(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);
		return true;
	}

	/**
	 * Writes bytes and resolves once they are handed to the kernel (or the
	 * socket failed): for large writes that must not pile up in memory.
	 */
	sendRawAndDrain(bytes) {
		return new Promise((resolve) => {
			if (!this.writable) {
				resolve(false);
				return;
			}
			this.socket.write(bytes, (err) => resolve(!err));
		});
	}

	/** Writes one frame (see encodeFrame). */
	sendFrame(options) {
		return this.sendRaw(encodeFrame(options));
	}

	/** Writes one masked text frame holding text. */
	sendText(text, options = {}) {
		return this.sendFrame({ ...options, opcode: OPCODES.text, payload: text });
	}

	/** Writes obj as JSON in one masked text frame. */
	send(obj) {
		return this.sendText(JSON.stringify(obj));
	}

	/** Writes a close frame with code and reason. */
	sendClose(code = 1000, reason = '') {
		return this.sendFrame({ opcode: OPCODES.close, payload: closePayload(code, reason) });
	}

	/**
	 * Resolves once check() returns something other than undefined (its
	 * value), calling it on every byte, frame and socket event; rejects
	 * with what() after timeoutMs.
	 */
	waitFor(check, what, timeoutMs = DEFAULT_TIMEOUT_MS) {
		return new Promise((resolve, reject) => {
			let timer = null;
			const waiter = () => {
				let value;
				try {
					value = check();
				} catch (err) {
					this.waiters.delete(waiter);
					clearTimeout(timer);
					reject(err);
					return;
				}
				if (value === undefined)
					return;
				this.waiters.delete(waiter);
				clearTimeout(timer);
				resolve(value);
			};
			timer = setTimeout(() => {
				this.waiters.delete(waiter);
				reject(new Error(`expected ${this.label} to ${typeof what === 'function' ? what() : what} ` +
					`within ${timeoutMs} ms; ${this.summary()}`));
			}, timeoutMs);
			this.waiters.add(waiter);
			waiter();
		});
	}

	/** What this connection has seen, for failure messages. */
	summary() {
		const frames = this.frames.map(describeFrame);
		const http = this.upgraded || !this.httpBuffer.length ? '' :
			`HTTP bytes ${JSON.stringify(this.httpBuffer.toString('latin1').slice(0, 300))}; `;
		const state = this.closedAt ? `socket closed after ${this.closedAt - this.openedAt} ms` :
			this.ended ? 'server half-closed the socket' : 'socket still open';
		return `${http}frames received: ${frames.length ? frames.join(', ') : '(none)'}; ${state}` +
			(this.error ? ` (${this.error.code || this.error.message})` : '');
	}

	/**
	 * Writes an upgrade request (see upgradeRequest; options.raw writes
	 * that string instead) and resolves with the parsed answer
	 * { status, statusText, headers, head } once its head is complete, or
	 * with { status: null, closed: true } when the server closed the
	 * connection without answering. Does not check the status.
	 */
	async handshake(options = {}) {
		const request = options.raw !== undefined ? options.raw : upgradeRequest(options);
		this.sendRaw(request);
		return this.waitFor(() => {
			if (this.response)
				return this.response;
			if (this.closedAt || this.ended)
				return { status: null, closed: true, headers: {}, head: '' };
			return undefined;
		}, 'get an answer to its upgrade request', options.timeoutMs);
	}

	/**
	 * Resolves with the next frame received (pings included when autoPong
	 * is off), skipping none; rejects when the socket closes first or after
	 * timeoutMs.
	 */
	nextFrame(timeoutMs = DEFAULT_TIMEOUT_MS) {
		return this.waitFor(() => {
			if (this.inbox.length)
				return this.inbox.shift();
			if (this.closedAt)
				throw new Error(`expected ${this.label} to receive a frame, but the socket closed; ` +
					this.summary());
			return undefined;
		}, 'receive a frame', timeoutMs);
	}

	/**
	 * Resolves with the next text frame's parsed JSON message, which must
	 * be of type (any type when null).
	 */
	async next(type = null, timeoutMs = DEFAULT_TIMEOUT_MS) {
		const frame = await this.nextFrame(timeoutMs);
		if (frame.name !== 'text' || !frame.message || (type && frame.message.type !== type))
			throw new Error(`expected ${this.label} to receive ${type ? `a "${type}" message` : 'a message'}, ` +
				`got ${describeFrame(frame)}; ${this.summary()}`);
		return frame.message;
	}

	/**
	 * Resolves once the server has closed the connection, with
	 * { frame: the close frame or null, code, reason, at, elapsedMs (since
	 * the connection opened), socketClosed, messages: the text frames that
	 * were still unread }. A close frame is answered with one (as the RFC
	 * asks) and the socket is ended. Rejects after timeoutMs.
	 */
	async waitClosed(timeoutMs = DEFAULT_TIMEOUT_MS) {
		const result = await this.waitFor(() => {
			const frame = this.inbox.find((f) => f.name === 'close');
			if (frame || this.closedAt || this.ended)
				return frame || null;
			return undefined;
		}, 'be closed by the server', timeoutMs);
		const unread = this.inbox.filter((f) => f !== result);
		this.inbox = [];
		if (result && this.writable) {
			this.sendFrame({ opcode: OPCODES.close, payload: result.payload.subarray(0, 2) });
			this.socket.end();
		}
		const at = this.closedAt || (this.ended && this.ended.at) || Date.now();
		return {
			frame: result,
			code: result ? result.code : null,
			reason: result ? result.reason : null,
			at,
			elapsedMs: at - this.openedAt,
			socketClosed: Boolean(this.closedAt),
			messages: unread.filter((f) => f.name === 'text').map((f) => f.message ?? f.text),
			frames: unread,
		};
	}

	/**
	 * Resolves once the TCP connection is gone (closed by either side);
	 * rejects after timeoutMs.
	 */
	waitSocketClosed(timeoutMs = DEFAULT_TIMEOUT_MS) {
		return this.waitFor(() => (this.closedAt ? { at: this.closedAt, elapsedMs: this.closedAt - this.openedAt } : undefined),
			'see the TCP connection closed', timeoutMs);
	}

	/** Asserts that nothing arrives (no frame, no close) for ms. */
	async expectNothing(ms = 200, why = '') {
		await new Promise((resolve) => setTimeout(resolve, ms));
		if (this.inbox.length || this.closedAt)
			throw new Error(`expected ${this.label} to receive nothing${why ? ` ${why}` : ''}; ${this.summary()}`);
	}

	/** Closes the TCP connection at once. */
	destroy() {
		this.socket.destroy();
		return this.closed;
	}
}

/**
 * Connects and upgrades a raw client to server (a Server of
 * lib/server.mjs, or { port, host }); checks the 101 and its
 * Sec-WebSocket-Accept and resolves with the RawSocket. Options: those of
 * RawSocket.connect and of upgradeRequest.
 */
export async function openRawWs(server, options = {}) {
	const label = options.label || 'raw client';
	const client = await RawSocket.connect(server.port, {
		host: options.host || server.host || '127.0.0.1',
		localAddress: options.localAddress,
		label,
		autoPong: options.autoPong !== false,
	});
	const key = options.key || randomKey();
	const response = await client.handshake({ ...options, key });
	if (response.status !== 101) {
		client.destroy();
		throw new Error(`expected ${label}'s upgrade to be answered with 101, got ` +
			`${response.status === null ? 'a closed connection' : JSON.stringify(response.head)}`);
	}
	if (response.headers['sec-websocket-accept'] !== acceptFor(key)) {
		client.destroy();
		throw new Error(`expected Sec-WebSocket-Accept ${acceptFor(key)}, got ` +
			`${JSON.stringify(response.headers['sec-websocket-accept'])}`);
	}
	return client;
}
