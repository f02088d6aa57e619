// Starts the real gomoku-server binary for a test file and stops it again.
//
// startServer() picks a free loopback port, runs the binary on it with
// --port P --host 127.0.0.1 --web-root WEB plus the flags the test passes,
// and resolves once GET /healthz answers 200. Every line the server writes
// (stdout and stderr) is kept for log assertions. stop() sends SIGTERM and
// resolves with how the process ended; it fails the test unless the exit
// code is 0, and it kills the process (SIGKILL) when it outlives its time.
//
// The environment: GOMOKU_SERVER_BIN is the binary (default
// ../build/gomoku-server from tests/), GOMOKU_WEB_ROOT the web client
// (default ../web from tests/). Every other GOMOKU_* variable of the test
// process is left out of the server's environment, so that only the
// variables a test passes on purpose reach it.

import { before, after, afterEach } from 'node:test';
import { spawn } from 'node:child_process';
import net from 'node:net';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { closeAllClients } from './client.mjs';
import { scaled, sleep } from './time.mjs';

const testsDir = new URL('../../', import.meta.url);

function pathOf(url) {
	return decodeURIComponent(url.pathname);
}

export const serverBin =
	process.env.GOMOKU_SERVER_BIN || pathOf(new URL('../build/gomoku-server', testsDir));
export const webRoot =
	process.env.GOMOKU_WEB_ROOT || pathOf(new URL('../web', testsDir));

export const HOST = '127.0.0.1';

// Every server process still alive; killed hard if the test process exits
// without stopping them (a test that timed out, an exception in a hook).
const liveChildren = new Set();
process.on('exit', () => {
	for (const child of liveChildren) {
		try {
			child.kill('SIGKILL');
		} catch {
			// already gone
		}
	}
});

/** Resolves with a TCP port that was free on 127.0.0.1 a moment ago. */
export function freePort() {
	return new Promise((resolve, reject) => {
		const probe = net.createServer();
		probe.unref();
		probe.on('error', reject);
		probe.listen(0, HOST, () => {
			const { port } = probe.address();
			probe.close(() => resolve(port));
		});
	});
}


/** The environment for a server process: ours without GOMOKU_*, plus env. */
function serverEnv(env) {
	const clean = {};
	for (const [key, value] of Object.entries(process.env))
		if (!key.startsWith('GOMOKU_'))
			clean[key] = value;
	return { ...clean, ...env };
}

/**
 * Sends one HTTP GET to host (127.0.0.1 by default):port and resolves
 * with { status, headers, body } (body as a string), or rejects on a
 * socket error or after timeoutMs.
 */
export function httpGet(port, path, { timeoutMs = scaled(5000), headers = {}, host = HOST } = {}) {
	return new Promise((resolve, reject) => {
		const req = http.get({ host, port, path, headers, agent: false }, (res) => {
			const chunks = [];
			res.on('data', (chunk) => chunks.push(chunk));
			res.on('end', () =>
				resolve({
					status: res.statusCode,
					headers: res.headers,
					body: Buffer.concat(chunks).toString('utf8'),
				}));
			res.on('error', reject);
		});
		req.setTimeout(timeoutMs, () =>
			req.destroy(new Error(`GET ${path} got no answer within ${timeoutMs} ms`)));
		req.on('error', reject);
	});
}

/**
 * Runs the binary with exactly args (no port or host added) and resolves
 * with { code, signal, stdout, stderr } once it exits. A process that is
 * still running after timeoutMs is killed and the promise rejects: used for
 * --help, --version and refused flags, which must exit on their own.
 */
export function runServerOnce(args, { env = {}, timeoutMs = scaled(5000), bin = serverBin } = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(bin, args, {
			env: serverEnv(env),
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		liveChildren.add(child);
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8');
		child.stderr.setEncoding('utf8');
		child.stdout.on('data', (text) => { stdout += text; });
		child.stderr.on('data', (text) => { stderr += text; });
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`expected "gomoku-server ${args.join(' ')}" to exit by ` +
				`itself, but it was still running after ${timeoutMs} ms ` +
				`(stdout: ${JSON.stringify(stdout)}, stderr: ${JSON.stringify(stderr)})`));
		}, timeoutMs);
		child.on('error', (err) => {
			clearTimeout(timer);
			liveChildren.delete(child);
			reject(new Error(`cannot run ${bin}: ${err.message}`));
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			liveChildren.delete(child);
			resolve({ code, signal, stdout, stderr });
		});
	});
}

// A fresh database per server, in one temporary directory per test
// process that is removed when it exits.
let scratchDir = null;
let scratchCount = 0;
process.on('exit', () => {
	if (scratchDir)
		fs.rmSync(scratchDir, { recursive: true, force: true });
});

/** A path for a new, empty SQLite database. */
export function scratchDb() {
	if (!scratchDir)
		scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gomoku-test-'));
	scratchCount += 1;
	return path.join(scratchDir, `games-${scratchCount}.db`);
}

/**
 * The flags every test server starts with, before the test's own (a later
 * flag wins): its own database, and the limits of a public server lifted
 * so that one test process may open many connections from 127.0.0.1 and
 * send moves at full speed. The reconnect grace is 0 unless a test asks
 * for one, so a closed socket forfeits at once. The hardening tests set
 * the limits they test explicitly.
 */
function baseArgs() {
	return ['--db', scratchDb(), '--reconnect-grace', '0', '--max-per-ip', '0',
		'--rate-burst', '100000', '--rate-per-second', '100000'];
}

/** The host part of a URL: IPv6 addresses in brackets. */
export function urlHost(host) {
	return host.includes(':') ? `[${host}]` : host;
}

/** One running gomoku-server process, reached at host:port. */
export class Server {
	constructor(child, port, args, host = HOST) {
		this.child = child;
		this.port = port;
		this.host = host;
		this.args = args;
		this.httpUrl = `http://${urlHost(host)}:${port}`;
		this.wsUrl = `ws://${urlHost(host)}:${port}/`;
		this.lines = []; // { stream: 'stdout' | 'stderr', line }
		this.lineWaiters = [];
		this.exited = null; // { code, signal } once the process ended
		this.ready = false; // true once /healthz answered
		this.stopping = false; // true once stop() or kill() was called
		this.exitPromise = new Promise((resolve) => {
			child.on('close', (code, signal) => {
				liveChildren.delete(child);
				this.exited = { code, signal, at: Date.now() };
				if (!this.stopping && this.ready)
					process.stderr.write(`gomoku-server on port ${port} exited unexpectedly ` +
						`(code ${code}, signal ${signal}); its last lines:\n` +
						`${this.linesSince(Math.max(0, this.lines.length - 30)).join('\n')}\n`);
				resolve(this.exited);
			});
			// A binary that cannot be run at all: no 'close' may follow.
			child.on('error', (err) => {
				liveChildren.delete(child);
				this.exited = { code: null, signal: null, error: err, at: Date.now() };
				resolve(this.exited);
			});
		});
		for (const stream of ['stdout', 'stderr'])
			this.captureLines(stream);
	}

	captureLines(stream) {
		let partial = '';
		this.child[stream].setEncoding('utf8');
		this.child[stream].on('data', (text) => {
			partial += text;
			let newline;
			while ((newline = partial.indexOf('\n')) >= 0) {
				this.addLine(stream, partial.slice(0, newline));
				partial = partial.slice(newline + 1);
			}
		});
		this.child[stream].on('end', () => {
			if (partial)
				this.addLine(stream, partial);
			partial = '';
		});
	}

	addLine(stream, line) {
		const entry = { stream, line };
		this.lines.push(entry);
		if (process.env.GOMOKU_TEST_SHOW_LOG)
			process.stderr.write(`[server ${this.port} ${stream}] ${line}\n`);
		this.lineWaiters = this.lineWaiters.filter((waiter) => {
			if (!waiter.match(line))
				return true;
			waiter.resolve(entry);
			return false;
		});
	}

	/** Everything the server wrote so far, one line per line. */
	output() {
		return this.lines.map((entry) => entry.line).join('\n');
	}

	/** The number of lines captured so far: a mark for linesSince(). */
	mark() {
		return this.lines.length;
	}

	/** The lines captured after mark(). */
	linesSince(mark) {
		return this.lines.slice(mark).map((entry) => entry.line);
	}

	/**
	 * Resolves with the first line after `since` (a mark()) for which
	 * match(line) is true, waiting up to timeoutMs for it to be written.
	 */
	waitForLine(match, { since = 0, timeoutMs = scaled(5000), what = 'a matching line' } = {}) {
		const predicate = typeof match === 'function' ? match : (line) => match.test(line);
		const found = this.lines.slice(since).find((entry) => predicate(entry.line));
		if (found)
			return Promise.resolve(found.line);
		return new Promise((resolve, reject) => {
			const waiter = {
				match: predicate,
				resolve: (entry) => {
					clearTimeout(timer);
					resolve(entry.line);
				},
			};
			const timer = setTimeout(() => {
				this.lineWaiters = this.lineWaiters.filter((w) => w !== waiter);
				reject(new Error(`expected the server to log ${what} within ` +
					`${timeoutMs} ms; it logged:\n` +
					(this.linesSince(since).join('\n') || '(nothing)')));
			}, timeoutMs);
			this.lineWaiters.push(waiter);
		});
	}

	/** GET path on this server: { status, headers, body }. */
	get(path, options) {
		return httpGet(this.port, path, { host: this.host, ...options });
	}

	/** GET /healthz, parsed. */
	async health() {
		if (this.exited)
			throw new Error(`expected the server to be running, but it had exited with code ` +
				`${this.exited.code}, signal ${this.exited.signal}`);
		const res = await this.get('/healthz');
		if (res.status !== 200)
			throw new Error(`expected GET /healthz to answer 200, got ${res.status}: ${res.body}`);
		return JSON.parse(res.body);
	}

	/**
	 * Waits until /healthz reports no WebSocket connection and no room, so
	 * that the next test starts with an empty lobby (a waiting player left
	 * behind by one test would be matched with the first player of the
	 * next). Fails when the server still counts some after timeoutMs.
	 */
	async settle({ timeoutMs = scaled(5000) } = {}) {
		const deadline = Date.now() + timeoutMs;
		let last;
		for (;;) {
			last = await this.health();
			if (last.connections === 0 && last.rooms === 0)
				return last;
			if (Date.now() > deadline)
				throw new Error('expected /healthz to report 0 connections and 0 rooms ' +
					`once every client had closed, still got ${JSON.stringify(last)} ` +
					`after ${timeoutMs} ms`);
			await sleep(20);
		}
	}

	/** Sends a signal to the server process. */
	signal(name) {
		this.child.kill(name);
	}

	/**
	 * Sends SIGTERM and resolves with { code, signal, elapsedMs } once the
	 * process has exited. Throws (after killing it with SIGKILL) when it is
	 * still running after timeoutMs, and throws when it exits with any
	 * code but 0.
	 */
	async stop({ timeoutMs = scaled(5000) } = {}) {
		if (this.exited && !this.stopping)
			throw new Error(`expected the server to be running until stopped, but it had exited ` +
				`with code ${this.exited.code}, signal ${this.exited.signal}; its last lines:\n` +
				this.linesSince(Math.max(0, this.lines.length - 30)).join('\n'));
		this.stopping = true;
		if (!this.exited) {
			const started = Date.now();
			this.child.kill('SIGTERM');
			let timer;
			const timedOut = new Promise((resolve) => {
				timer = setTimeout(() => resolve(null), timeoutMs);
			});
			const exited = await Promise.race([this.exitPromise, timedOut]);
			clearTimeout(timer);
			if (!exited) {
				this.child.kill('SIGKILL');
				await this.exitPromise;
				throw new Error(`expected the server to exit within ${timeoutMs} ms of ` +
					'SIGTERM; it was still running and was killed with SIGKILL');
			}
			exited.elapsedMs = exited.at - started;
		}
		const { code, signal } = this.exited;
		if (code !== 0)
			throw new Error(`expected the server to exit with code 0 after SIGTERM, ` +
				`got code ${code}, signal ${signal}; its last lines:\n` +
				this.linesSince(Math.max(0, this.lines.length - 20)).join('\n'));
		return this.exited;
	}

	/** Kills the process at once (SIGKILL) and waits for it to go. */
	async kill() {
		this.stopping = true;
		if (!this.exited)
			this.child.kill('SIGKILL');
		await this.exitPromise;
	}
}

async function waitForHealth(server, timeoutMs, healthyStatuses = [200]) {
	const deadline = Date.now() + timeoutMs;
	let lastError = 'no answer yet';
	while (Date.now() < deadline) {
		if (server.exited)
			return `exited at start with code ${server.exited.code}, signal ${server.exited.signal}`;
		try {
			const res = await server.get('/healthz', { timeoutMs: scaled(1000) });
			if (healthyStatuses.includes(res.status))
				return null;
			lastError = `GET /healthz answered ${res.status}`;
		} catch (err) {
			lastError = err.message;
		}
		await sleep(25);
	}
	return `did not answer GET /healthz with 200 within ${timeoutMs} ms (${lastError})`;
}

/**
 * Starts a server with the given extra flags and environment and resolves
 * with a Server once it serves /healthz. Retries on another port when the
 * first one was taken in between (another test file picked it too).
 * Options: args (extra flags), env (extra variables), host (the --host to
 * pass, 127.0.0.1 by default, where the server is reached too; null to
 * pass none: then it is reached on 127.0.0.1), hostAndPort (false to pass
 * no --host/--port: the test passes them itself, e.g. through env), port
 * (for hostAndPort false: where to look for /healthz), webRootArg (false
 * to pass no --web-root: the server's default applies), bin (another
 * gomoku-server binary, such as an installed one), port with hostAndPort
 * true (that port, not a free one: a second process on a --reuse-port
 * port), healthyStatuses (the /healthz statuses that mean started, [200]
 * by default: [503] for one that waits for its instance lease).
 */
export async function startServer({ args = [], env = {}, host = HOST, hostAndPort = true, port = null,
	webRootArg = true, bin = serverBin, startTimeoutMs = scaled(10000), healthyStatuses = [200] } = {}) {
	let failure = '';
	for (let attempt = 0; attempt < 3; attempt++) {
		const chosenPort = hostAndPort && !port ? await freePort() : port;
		const hostArgs = host === null ? [] : ['--host', host];
		const fullArgs = hostAndPort
			? ['--port', String(chosenPort), ...hostArgs,
				...(webRootArg ? ['--web-root', webRoot] : []), ...baseArgs(), ...args]
			: args;
		const child = spawn(bin, fullArgs, {
			env: serverEnv(env),
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		liveChildren.add(child);
		const server = new Server(child, chosenPort, fullArgs, host === null || !hostAndPort ? HOST : host);
		let problem = await waitForHealth(server, startTimeoutMs, healthyStatuses);
		if (server.exited && server.exited.error)
			problem = `could not be run: ${server.exited.error.message} ` +
				'(build it first, or set GOMOKU_SERVER_BIN)';
		if (!problem) {
			server.ready = true;
			return server;
		}
		await server.kill();
		failure = `${bin} ${fullArgs.join(' ')} ${problem}; it wrote:\n` +
			(server.output() || '(nothing)');
		if (/could not be run/.test(problem))
			break;
	}
	throw new Error(`expected ${bin} to start and serve /healthz: ${failure}`);
}

/**
 * Stops every server given (see Server.stop), all of them even when one
 * fails, then throws the first failure.
 */
export async function stopAll(servers) {
	const results = await Promise.allSettled(servers.filter(Boolean).map((server) => server.stop()));
	const failed = results.find((result) => result.status === 'rejected');
	if (failed)
		throw failed.reason;
}

/**
 * One server shared by the tests of a describe() block; call it in the
 * block. Registers the block's hooks:
 *   before()     startServer(options) (options may be a function returning
 *                them, called then: for options that need set-up first);
 *   afterEach()  closeFirst() (the clients the suite keeps itself), every
 *                client of lib/client.mjs closed, and, unless settle is
 *                false, server.settle({ timeoutMs: settleTimeoutMs }), so
 *                that the next test starts with an empty lobby;
 *   after()      closeFirst() and the clients again, then server.stop(),
 *                which fails unless the server exits 0 on SIGTERM.
 * A suite's own hooks run in the order they are registered, before or
 * after these.
 *
 * Returns the server for the tests: a stand-in whose every property and
 * method is that of the Server before() started (a Proxy, so that the
 * tests can use it by name although it starts later). Using it outside
 * the block's tests and hooks throws.
 */
export function useServer(options = {}, { settle = true, settleTimeoutMs, closeFirst = null } = {}) {
	let current = null;

	before(async () => {
		current = await startServer(typeof options === 'function' ? await options() : options);
	});
	afterEach(async () => {
		try {
			if (closeFirst)
				await closeFirst();
		} finally {
			await closeAllClients();
		}
		if (settle && current)
			await current.settle({ timeoutMs: settleTimeoutMs });
	});
	after(async () => {
		try {
			if (closeFirst)
				await closeFirst();
		} finally {
			await closeAllClients();
		}
		if (current)
			await current.stop();
	});

	function running() {
		if (!current)
			throw new Error('useServer(): the server was used outside its block\'s tests, ' +
				'or it did not start (see the before() hook\'s failure)');
		return current;
	}
	return new Proxy({}, {
		get(_, key) {
			const server = running();
			const value = Reflect.get(server, key);
			return typeof value === 'function' ? value.bind(server) : value;
		},
		set(_, key, value) {
			return Reflect.set(running(), key, value);
		},
		has(_, key) {
			return Reflect.has(running(), key);
		},
	});
}
