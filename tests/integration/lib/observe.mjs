// Looking at the server from outside, for the hardening tests: a game's
// record byte for byte, /metrics samples, the process's resident memory,
// and HTTP requests from a chosen loopback source address.

import http from 'node:http';
import fs from 'node:fs';

import { HOST } from './server.mjs';
import { scaled, sleep } from './time.mjs';

/**
 * The body of GET /api/games/ROOM, as the exact string the server sent:
 * two calls compare byte for byte. Fails unless the answer is 200.
 */
export async function gameRecord(server, room) {
	const res = await server.get(`/api/games/${room}`);
	if (res.status !== 200)
		throw new Error(`expected GET /api/games/${room} to answer 200, got ${res.status}: ${res.body}`);
	return res.body;
}

/**
 * What GET /api/games/ROOM says of a game, for before/after comparisons:
 * the exact body of its record, or '(no record)' while it has none (a
 * game is journalled from its first move).
 */
export async function gameState(server, room) {
	const res = await server.get(`/api/games/${room}`);
	if (res.status === 404)
		return '(no record)';
	if (res.status !== 200)
		throw new Error(`expected GET /api/games/${room} to answer 200 or 404, got ${res.status}: ${res.body}`);
	return res.body;
}

/**
 * Parses Prometheus text into a Map from the sample (name with its
 * labels, as written: 'gomoku_errors_total{code="bad_json"}') to its
 * number.
 */
export function parseMetrics(text) {
	const samples = new Map();
	for (const line of text.split('\n')) {
		if (!line || line.startsWith('#'))
			continue;
		const space = line.lastIndexOf(' ');
		samples.set(line.slice(0, space), Number(line.slice(space + 1)));
	}
	return samples;
}

/**
 * One sample of a /metrics text; fails when the server does not report
 * it.
 */
export function metricValue(text, sample) {
	const value = parseMetrics(text).get(sample);
	if (value === undefined)
		throw new Error(`expected /metrics to report ${sample}, it did not:\n${text}`);
	return value;
}

/** GET /metrics and one sample of it. */
export async function fetchMetric(server, sample) {
	const res = await server.get('/metrics');
	if (res.status !== 200)
		throw new Error(`expected GET /metrics to answer 200, got ${res.status}`);
	return metricValue(res.body, sample);
}

/** The resident memory of process pid in KiB (VmRSS of /proc/PID/status). */
export function residentKiB(pid) {
	const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
	const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
	if (!match)
		throw new Error(`expected /proc/${pid}/status to show VmRSS, got:\n${status}`);
	return Number(match[1]);
}

/**
 * True when the resident memory of process pid measures the server's own
 * use: not under valgrind (the process is valgrind's) nor AddressSanitizer
 * (its quarantine keeps freed memory resident on purpose).
 */
export function residentMemoryIsTheServers(pid) {
	const maps = fs.readFileSync(`/proc/${pid}/maps`, 'utf8');
	return !/libasan|vgpreload|memcheck/.test(maps);
}

/**
 * One HTTP GET to HOST:port from localAddress (e.g. 127.0.0.3): resolves
 * with { status, headers, body }, rejects on a socket error (a refused
 * connection) or after timeoutMs.
 */
export function httpGetFrom(port, path, { localAddress, timeoutMs = scaled(5000), headers = {} } = {}) {
	return new Promise((resolve, reject) => {
		const req = http.get({ host: HOST, port, path, headers, localAddress, agent: false }, (res) => {
			const chunks = [];
			res.on('data', (chunk) => chunks.push(chunk));
			res.on('end', () => resolve({
				status: res.statusCode,
				headers: res.headers,
				body: Buffer.concat(chunks).toString('utf8'),
			}));
			res.on('error', reject);
		});
		req.setTimeout(timeoutMs, () =>
			req.destroy(new Error(`GET ${path} from ${localAddress || 'the default address'} ` +
				`got no answer within ${timeoutMs} ms`)));
		req.on('error', reject);
	});
}

export { sleep };

/**
 * Calls probe() every intervalMs until it returns something other than
 * undefined (resolves with it) or timeoutMs passed (rejects saying what
 * was expected: what, or what() for a text made at that moment).
 */
export async function pollUntil(probe, what, { timeoutMs = scaled(5000), intervalMs = 25 } = {}) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined)
			return value;
		if (Date.now() > deadline)
			throw new Error(`expected ${typeof what === 'function' ? what() : what} ` +
				`within ${timeoutMs} ms`);
		await sleep(intervalMs);
	}
}

/**
 * The ids of the live processes whose parent is pid, read from /proc
 * (zombies not yet reaped included).
 */
export function childPids(pid) {
	const children = [];
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry))
			continue;
		let stat;
		try {
			stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
		} catch {
			continue; // gone meanwhile
		}
		// "pid (comm) state ppid ...": comm may hold spaces and parentheses.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		if (Number(fields[1]) === pid)
			children.push(Number(entry));
	}
	return children;
}
