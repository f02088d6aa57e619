// A TCP proxy in front of the game server, for network failures that a
// browser cannot be told to have.
//
// A page loaded through the proxy (proxy.httpUrl) opens its WebSocket
// through it too (the page connects to its own host). Every connection is
// a link {client, upstream, websocket, frozen}. A test can then:
//   - drop(link): cut the browser's side only; the server still holds the
//     seat (a phone that lost its network; the server has not noticed);
//   - freeze(link): stop passing bytes either way, so that a page that
//     closes (a reload) cannot tell the server: its close frame is dropped
//     and its TCP close not passed on;
//   - cutServer(link): cut the server's side only; the server sees the
//     player go while the page does not notice yet;
//   - pause() and resume(): refuse every new connection meanwhile (a
//     server out of reach), the links open left as they are.

import net from 'node:net';

import { HOST, freePort } from '../../integration/lib/server.mjs';

export async function startProxy(targetPort) {
	const links = [];
	let paused = false;
	const server = net.createServer((client) => {
		if (paused) {
			client.on('error', () => {});
			client.destroy();
			return;
		}
		const upstream = net.connect(targetPort, HOST);
		const link = { client, upstream, websocket: false, frozen: false };
		client.on('data', (data) => {
			if (!link.websocket && /^upgrade:\s*websocket/im.test(data.toString('latin1')))
				link.websocket = true;
			if (!link.frozen)
				upstream.write(data);
		});
		upstream.on('data', (data) => {
			if (!link.frozen)
				client.write(data);
		});
		client.on('close', () => {
			if (!link.frozen)
				upstream.destroy();
		});
		upstream.on('close', () => {
			if (!link.frozen)
				client.destroy();
		});
		// Errors end in 'close'; without listeners they would be thrown.
		client.on('error', () => {});
		upstream.on('error', () => {});
		links.push(link);
	});
	const port = await freePort();
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, HOST, resolve);
	});

	return {
		port,
		httpUrl: `http://${HOST}:${port}`,
		links,
		/** The WebSocket links opened so far, oldest first. */
		sockets() {
			return links.filter((link) => link.websocket);
		},
		freeze(link) {
			link.frozen = true;
		},
		drop(link) {
			link.frozen = true;
			link.client.destroy();
		},
		cutServer(link) {
			link.frozen = true;
			link.upstream.destroy();
		},
		pause() {
			paused = true;
		},
		resume() {
			paused = false;
		},
		/** Closes everything, the links the tests left open included. */
		close() {
			for (const link of links) {
				link.client.destroy();
				link.upstream.destroy();
			}
			return new Promise((resolve) => server.close(() => resolve()));
		},
	};
}
