// The listen address: --host binds exactly the address asked for (IPv4,
// IPv6, or a name resolved to one), the start-up log and /healthz say
// what was bound, and a --host that is not an address of this machine or
// a port already in use make the server exit with status 2 and one line.

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import os from 'node:os';

import { startServer, runServerOnce, freePort, scratchDb, webRoot, urlHost } from './lib/server.mjs';
import { testTimeout, scaled } from './lib/time.mjs';

const T = testTimeout(30_000);

const servers = [];
after(async () => {
	await Promise.allSettled(servers.map((server) => server.stop()));
});

async function serverOn(host) {
	const server = await startServer({ host });
	servers.push(server);
	return server;
}

/**
 * Resolves with 'connected' when a TCP connection to host:port opens, or
 * the error code (ECONNREFUSED, EADDRNOTAVAIL, ...) when it cannot.
 */
function tryConnect(host, port) {
	return new Promise((resolve) => {
		const socket = net.connect({ host, port });
		const timer = setTimeout(() => {
			socket.destroy();
			resolve('timed out');
		}, scaled(3000));
		socket.once('connect', () => {
			clearTimeout(timer);
			socket.destroy();
			resolve('connected');
		});
		socket.once('error', (err) => {
			clearTimeout(timer);
			resolve(err.code);
		});
	});
}

/** This machine's addresses other than loopback (no link-local IPv6). */
function otherLocalAddresses() {
	return Object.values(os.networkInterfaces()).flat()
		.filter((entry) => !entry.internal && !(entry.family === 'IPv6' && entry.address.startsWith('fe80')))
		.map((entry) => entry.address);
}

/** True when ::1 is an address of this machine. */
function hasIpv6Loopback() {
	return Object.values(os.networkInterfaces()).flat()
		.some((entry) => entry.internal && entry.family === 'IPv6' && entry.address === '::1');
}

/** Resolves with an address of TEST-NET-3 that is not one of this machine's. */
function foreignAddress() {
	const mine = new Set(Object.values(os.networkInterfaces()).flat().map((entry) => entry.address));
	for (let last = 9; last < 250; last++)
		if (!mine.has(`203.0.113.${last}`))
			return `203.0.113.${last}`;
	throw new Error('every address of 203.0.113.0/24 is local: cannot test a foreign --host');
}

async function assertReachable(host, port, what) {
	assert.equal(await tryConnect(host, port), 'connected', `expected ${what} to accept a connection on ${urlHost(host)}:${port}`);
}

async function assertUnreachable(host, port, what) {
	const outcome = await tryConnect(host, port);
	assert.notEqual(outcome, 'connected', `expected ${what} not to be reachable on ${urlHost(host)}:${port}, it accepted a connection`);
}

/** Runs the server with --port port and extra args; it must exit 2 with one line. */
async function assertRefusedToStart(args, port, pattern, what) {
	const result = await runServerOnce(['--port', String(port), '--web-root', webRoot, '--db', scratchDb(), ...args],
		{ timeoutMs: scaled(10_000) });
	const lines = result.stderr.split('\n').filter(Boolean);
	assert.equal(result.code, 2, `expected ${what} to exit with status 2, got ${result.code} (stderr: ${result.stderr})`);
	assert.equal(lines.length, 1, `expected ${what} to write one line, got ${JSON.stringify(lines)}`);
	assert.match(lines[0], pattern, `expected ${what} to say why`);
	assert.doesNotMatch(result.stderr + result.stdout, /listening on/, `expected ${what} never to say it is listening`);
}

describe('--host', () => {
	it('binds exactly 127.0.0.1: another loopback address, ::1 and the machine\'s other addresses are refused', T, async () => {
		const server = await serverOn('127.0.0.1');
		const health = await server.health();
		assert.equal(health.listen, `127.0.0.1:${server.port}`, `expected /healthz to say the address bound, got ${JSON.stringify(health)}`);
		await server.waitForLine(new RegExp(`listening on http://127\\.0\\.0\\.1:${server.port}/`),
			{ what: 'the bound address in its start-up line' });
		await assertReachable('127.0.0.1', server.port, 'a server on --host 127.0.0.1');
		await assertUnreachable('127.0.0.2', server.port, 'a server on --host 127.0.0.1');
		if (hasIpv6Loopback())
			await assertUnreachable('::1', server.port, 'a server on --host 127.0.0.1');
		const others = otherLocalAddresses();
		for (const address of others)
			await assertUnreachable(address, server.port, 'a server on --host 127.0.0.1');
		assert.ok(others.length > 0 || hasIpv6Loopback(),
			'expected this machine to have another address to check the binding against');
	});

	it('binds exactly ::1 when asked for it', T, async (t) => {
		if (!hasIpv6Loopback()) {
			t.skip('this machine has no ::1');
			return;
		}
		const server = await serverOn('::1');
		assert.equal((await server.health()).listen, `[::1]:${server.port}`);
		await assertReachable('::1', server.port, 'a server on --host ::1');
		await assertUnreachable('127.0.0.1', server.port, 'a server on --host ::1');
	});

	it('binds every IPv4 address for 0.0.0.0, and every address without --host', T, async () => {
		const ipv4 = await serverOn('0.0.0.0');
		assert.equal((await ipv4.health()).listen, `0.0.0.0:${ipv4.port}`);
		await assertReachable('127.0.0.2', ipv4.port, 'a server on --host 0.0.0.0');
		if (hasIpv6Loopback())
			await assertUnreachable('::1', ipv4.port, 'a server on --host 0.0.0.0');

		const every = await serverOn(null);
		const listen = (await every.health()).listen;
		assert.match(listen, new RegExp(`^(\\[::\\]|0\\.0\\.0\\.0):${every.port}$`),
			`expected a server without --host to bind every address, /healthz says ${listen}`);
		await assertReachable('127.0.0.2', every.port, 'a server without --host');
		if (hasIpv6Loopback())
			await assertReachable('::1', every.port, 'a server without --host');
	});

	it('resolves a name to one of its addresses and binds only that one', T, async () => {
		const server = await serverOn('localhost');
		const listen = (await server.health()).listen;
		assert.match(listen, new RegExp(`^(127\\.0\\.0\\.1|\\[::1\\]):${server.port}$`),
			`expected --host localhost to bind 127.0.0.1 or ::1, /healthz says ${listen}`);
		await assertUnreachable('127.0.0.2', server.port, 'a server on --host localhost');
	});

	it('exits with status 2 and one line for an address that is not this machine\'s, or a name that does not resolve', T, async () => {
		const port = await freePort();
		await assertRefusedToStart(['--host', foreignAddress()], port, /not an address of this machine/,
			'a server on an address of another machine');
		await assertRefusedToStart(['--host', 'no-such-host.invalid'], port, /cannot resolve/,
			'a server on a name that does not resolve');
		assert.equal(await tryConnect('127.0.0.1', port), 'ECONNREFUSED', 'expected nothing left listening on the port');
	});
});

describe('a port already in use', () => {
	it('makes the server exit with status 2 and one line, on the same address or on every address', T, async () => {
		const taken = net.createServer();
		await new Promise((resolve) => taken.listen(0, '127.0.0.1', resolve));
		const { port } = taken.address();
		try {
			await assertRefusedToStart(['--host', '127.0.0.1'], port, new RegExp(`port ${port} is already in use`),
				'a server on a port in use');
			await assertRefusedToStart([], port, new RegExp(`port ${port} is already in use`),
				'a server on every address of a port in use on 127.0.0.1');
		} finally {
			await new Promise((resolve) => taken.close(resolve));
		}
	});
});
