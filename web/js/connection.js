// The connection to the game server: a Connection that owns one socket
// at a time. Nothing here touches the DOM, and WebSocket is only looked up
// when a Connection opens one, so node --test drives a Connection with a
// fake socket. What goes over the socket (URL, messages) is protocol.js.

import { parseMessage } from './protocol.js';

// WebSocket.readyState values (the same on the fake sockets of the tests).
const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 3;

/**
 * One socket at a time to the game server.
 *
 * open() closes the current socket (if any) and opens a new one only once
 * the old one's close event came: the server hands a uid's seat to the
 * newest connection, so a new socket opened before the old one closed
 * would be given the old seat back. close() is the page's own close: it
 * resolves once the close event came, and onClose is not called for it.
 * onClose({code, reason}) is called only for a close the page did not ask
 * for (the server's, or a lost network). Messages of a socket being closed
 * are dropped.
 *
 * Options: url() makes the URL of each new socket; onMessage(message) gets
 * every parsed message; createSocket(url) makes the socket (a WebSocket by
 * default).
 */
export class Connection {
	constructor({ url, onMessage, onClose, createSocket }) {
		this.url = url;
		this.onMessage = onMessage;
		this.onClose = onClose;
		this.createSocket = createSocket || ((address) => new WebSocket(address));
		this.socket = null; // the live socket, or null
		this.closing = new Set(); // promises of closes asked for, not done
		this.generation = 0; // bumped by every open() and close()
	}

	/** Closes any socket, then opens a new one; resolves once it is made. */
	async open() {
		const closed = this.close();
		const generation = this.generation;
		await closed;
		if (generation !== this.generation)
			return; // a later open() or close() took over
		const socket = this.createSocket(this.url());
		this.socket = socket;
		socket.addEventListener('message', (event) => {
			if (this.socket !== socket)
				return;
			const message = parseMessage(event.data);
			if (message)
				this.onMessage(message);
		});
		socket.addEventListener('close', (event) => {
			if (this.socket !== socket)
				return; // a close the page asked for
			this.socket = null;
			this.onClose({ code: event.code, reason: event.reason });
		});
	}

	/** Closes the socket (if any); resolves once every asked close is done. */
	close() {
		this.generation++;
		const socket = this.socket;
		this.socket = null;
		if (socket) {
			const done = closeSocket(socket);
			this.closing.add(done);
			done.then(() => this.closing.delete(done));
		}
		return Promise.all([...this.closing]).then(() => undefined);
	}

	/** True while a socket is open. */
	get isOpen() {
		return Boolean(this.socket) && this.socket.readyState === OPEN;
	}

	/** Sends message as JSON; false when no socket is open. */
	send(message) {
		if (!this.isOpen)
			return false;
		this.socket.send(JSON.stringify(message));
		return true;
	}
}

/**
 * Closes socket with 1000 and resolves on its close event. A socket still
 * connecting is closed once it opens: closing it before would make the
 * browser report a failed connection.
 */
function closeSocket(socket) {
	return new Promise((resolve) => {
		if (socket.readyState === CLOSED) {
			resolve();
			return;
		}
		socket.addEventListener('close', () => resolve(), { once: true });
		if (socket.readyState === CONNECTING)
			socket.addEventListener('open', () => socket.close(1000), { once: true });
		else if (socket.readyState === OPEN)
			socket.close(1000);
	});
}
