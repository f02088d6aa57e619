// HTTP: the web client's page, no way out of the web root, /healthz and
// /metrics.

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import http from 'node:http';
import zlib from 'node:zlib';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { useServer, HOST, webRoot } from './lib/server.mjs';
import { fetchMetric, pollUntil, residentKiB, residentMemoryIsTheServers } from './lib/observe.mjs';
import { Client, connectWaiting, connectPair, uuid } from './lib/client.mjs';
import { winningScript, playMoves, expectWinner } from './lib/game.mjs';
import { testTimeout, scaled } from './lib/time.mjs';

const T = testTimeout(30_000);
const SIZE = 15;

/**
 * Sends raw (an HTTP request as it is, no normalisation) and resolves with
 * { status, text } once the server closes the connection or after a pause
 * once something came (keep-alive).
 */
function rawRequest(port, raw, timeoutMs = scaled(5000)) {
	return new Promise((resolve, reject) => {
		const socket = net.connect(port, HOST);
		let text = '';
		let idle = null;
		const done = () => {
			clearTimeout(idle);
			clearTimeout(overall);
			socket.destroy();
			const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
			resolve({ status: match ? Number(match[1]) : null, text });
		};
		const overall = setTimeout(() => {
			if (text)
				done();
			else {
				socket.destroy();
				reject(new Error(`expected an answer to ${JSON.stringify(raw.split('\r\n')[0])} within ${timeoutMs} ms, got none`));
			}
		}, timeoutMs);
		socket.setEncoding('latin1');
		socket.on('connect', () => socket.write(raw));
		socket.on('data', (chunk) => {
			text += chunk;
			clearTimeout(idle);
			idle = setTimeout(done, 300);
		});
		socket.on('end', done);
		socket.on('error', (err) => {
			if (text)
				done();
			else {
				clearTimeout(overall);
				reject(err);
			}
		});
	});
}

/**
 * Parses Prometheus text: a Map from the sample name with its labels as
 * written (e.g. `gomoku_errors_total{code="occupied"}`) to its value.
 * Also checks each line is a comment or `name{labels} value`.
 */
function parseMetrics(text) {
	const samples = new Map();
	for (const line of text.split('\n')) {
		if (line === '' || line.startsWith('#'))
			continue;
		const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?)\s+(\S+)(?:\s+\d+)?$/.exec(line);
		assert.ok(match, `expected every /metrics line to be "name{labels} value", got ${JSON.stringify(line)}`);
		const value = Number(match[2]);
		assert.ok(!Number.isNaN(value) || match[2] === 'NaN', `expected a number in ${JSON.stringify(line)}`);
		samples.set(normalizeLabels(match[1]), value);
	}
	return samples;
}

/** `a{x="1", y="2"}` -> `a{x="1",y="2"}`, so that lookups ignore spacing. */
function normalizeLabels(name) {
	return name.replace(/\s*,\s*/g, ',').replace(/\{\s*/, '{').replace(/\s*\}/, '}');
}

/** The value of a sample, 0 when the server does not list it (yet). */
function value(samples, name) {
	return samples.has(name) ? samples.get(name) : 0;
}

describe('HTTP', () => {
	const server = useServer();

	async function metrics() {
		const res = await server.get('/metrics');
		assert.equal(res.status, 200, `expected GET /metrics to answer 200, got ${res.status}`);
		return parseMetrics(res.body);
	}

	it('serves the web client page, with a canvas, at /', T, async () => {
		const res = await server.get('/');
		assert.equal(res.status, 200, `expected GET / to answer 200, got ${res.status}: ${res.body.slice(0, 200)}`);
		assert.match(String(res.headers['content-type']), /^text\/html/,
			`expected GET / to be text/html, got ${res.headers['content-type']}`);
		assert.match(res.body, /<canvas/i, `expected the page to contain a <canvas>, got ${res.body.slice(0, 300)}`);
	});

	it('sends the text files gzip-compressed to a client that takes gzip, each version with its ETag, revalidated with 304', T, async () => {
		const plain = await new Promise((resolve, reject) => {
			// Node's httpGet reads text: fetch the compressed bytes raw.
			const req = http.get({ host: HOST, port: server.port, path: '/js/main.js', headers: { 'accept-encoding': 'gzip' } },
				(res) => {
					const chunks = [];
					res.on('data', (chunk) => chunks.push(chunk));
					res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
				});
			req.on('error', reject);
		});
		assert.equal(plain.headers['content-encoding'], 'gzip');
		assert.equal(plain.headers['cache-control'], 'no-cache', 'expected the browser to keep the file and ask again');
		assert.equal(plain.headers.vary, 'Accept-Encoding');
		const file = fs.readFileSync(path.join(webRoot, 'js', 'main.js'));
		assert.ok(zlib.gunzipSync(plain.body).equals(file), 'expected the gzip body to be the file');
		assert.ok(plain.body.length < file.length / 2, `expected main.js to shrink by half at least: ${plain.body.length} of ${file.length} bytes`);
		const tag = plain.headers.etag;
		const again = await server.get('/js/main.js', { headers: { 'accept-encoding': 'gzip', 'if-none-match': tag } });
		assert.equal(again.status, 304);
		assert.equal(again.body, '');
		// Without gzip (or with q=0): the file as it is, under another ETag.
		for (const asked of [undefined, 'gzip;q=0, identity']) {
			const res = await server.get('/js/main.js', { headers: asked ? { 'accept-encoding': asked } : {} });
			assert.equal(res.status, 200);
			assert.equal(res.headers['content-encoding'], undefined, `expected no gzip for Accept-Encoding ${asked}`);
			assert.equal(res.body, file.toString('utf8'));
			assert.notEqual(res.headers.etag, tag);
			const stale = await server.get('/js/main.js', { headers: { 'if-none-match': tag } });
			assert.equal(stale.status, 200, 'expected the compressed copy\'s ETag not to stand for the plain file');
		}
	});

	it('answers 404 for a file that does not exist', T, async () => {
		const res = await server.get('/no-such-file.html');
		assert.equal(res.status, 404, `expected GET /no-such-file.html to answer 404, got ${res.status}`);
	});

	for (const target of ['/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2fetc/passwd',
		'/../../../../../../etc/passwd', '/.%2e/.%2e/etc/passwd', '/%2e%2e%2f%2e%2e%2fetc%2fpasswd']) {
		it(`never serves a file outside the web root for GET ${target}`, T, async () => {
			const { status, text } = await rawRequest(server.port,
				`GET ${target} HTTP/1.1\r\nHost: ${HOST}:${server.port}\r\nConnection: close\r\n\r\n`);
			assert.ok(!(status === 200 && text.includes('root:')),
				`expected GET ${target} not to return /etc/passwd, got status ${status}:\n${text.slice(0, 400)}`);
			assert.ok(!text.includes('root:x:0:0'),
				`expected no /etc/passwd content for GET ${target}, got status ${status}:\n${text.slice(0, 400)}`);
		});
	}

	it('reports uptime, connections and rooms at /healthz as JSON', T, async () => {
		const res = await server.get('/healthz');
		assert.equal(res.status, 200, `expected GET /healthz to answer 200, got ${res.status}`);
		assert.match(String(res.headers['content-type']), /json/,
			`expected /healthz to be JSON, got content-type ${res.headers['content-type']}`);
		const idle = JSON.parse(res.body);
		for (const field of ['uptime', 'connections', 'rooms'])
			assert.equal(typeof idle[field], 'number', `expected /healthz to carry a number "${field}", got ${res.body}`);
		assert.equal(idle.connections, 0, `expected 0 connections with no player, got ${res.body}`);
		assert.equal(idle.rooms, 0, `expected 0 rooms with no player, got ${res.body}`);

		await connectPair(server);
		await connectWaiting(server);
		const busy = await server.health();
		assert.equal(busy.connections, 3, `expected 3 connections with three players, got ${JSON.stringify(busy)}`);
		assert.equal(busy.rooms, 1, `expected 1 room with one matched pair, got ${JSON.stringify(busy)}`);
		assert.ok(busy.uptime >= idle.uptime, `expected uptime not to go back, got ${idle.uptime} then ${busy.uptime}`);
	});

	it('serves Prometheus text at /metrics with every metric the contract names', T, async () => {
		const res = await server.get('/metrics');
		assert.equal(res.status, 200, `expected GET /metrics to answer 200, got ${res.status}`);
		assert.match(String(res.headers['content-type']), /^text\/plain/,
			`expected /metrics to be text/plain, got ${res.headers['content-type']}`);
		const samples = parseMetrics(res.body);
		const names = new Set([...samples.keys()].map((name) => name.replace(/\{.*$/, '')));
		for (const name of ['gomoku_connections', 'gomoku_players_waiting', 'gomoku_rooms_active',
			'gomoku_games_finished_total', 'gomoku_moves_total', 'gomoku_errors_total',
			'gomoku_messages_in_total', 'gomoku_messages_out_total', 'gomoku_bytes_in_total',
			'gomoku_bytes_out_total'])
			assert.ok(names.has(name), `expected /metrics to list ${name}, got:\n${res.body}`);
		assert.ok(samples.has('gomoku_games_finished_total{reason="five"}'),
			`expected /metrics to list gomoku_games_finished_total{reason="five"}, got:\n${res.body}`);
		assert.ok([...samples.keys()].some((name) => /^gomoku_errors_total\{code="[a-z_]+"\}$/.test(name)),
			`expected /metrics to list gomoku_errors_total by code, got:\n${res.body}`);
		for (const name of ['gomoku_connections', 'gomoku_moves_total', 'gomoku_games_finished_total'])
			assert.match(res.body, new RegExp(`^# TYPE ${name} (gauge|counter)$`, 'm'),
				`expected a # TYPE line for ${name}, got:\n${res.body}`);
	});

	it('counts players, rooms, moves, games, errors, messages and bytes at /metrics', T, async () => {
		const before = await metrics();

		const waiting = await connectWaiting(server);
		const during = await metrics();
		assert.equal(value(during, 'gomoku_players_waiting'), 1, 'expected gomoku_players_waiting 1 with one player waiting');
		assert.equal(value(during, 'gomoku_connections'), 1, 'expected gomoku_connections 1 with one player');
		await waiting.close();
		await server.settle();

		const pair = await connectPair(server);
		const matched = await metrics();
		assert.equal(value(matched, 'gomoku_rooms_active'), 1, 'expected gomoku_rooms_active 1 with one game');
		assert.equal(value(matched, 'gomoku_players_waiting'), 0, 'expected gomoku_players_waiting 0 once matched');
		assert.equal(value(matched, 'gomoku_connections'), 2, 'expected gomoku_connections 2 with two players');

		const script = winningScript({ size: SIZE, winner: 'front', direction: 'horizontal', start: { x: 1, y: 1 } });
		const played = await playMoves(pair, script.moves.slice(0, 1), { size: SIZE });
		pair.front.move(script.moves[0].x, script.moves[0].y);
		assert.equal((await pair.front.next('error')).code, 'not_your_turn');
		pair.back.move(script.moves[0].x, script.moves[0].y);
		assert.equal((await pair.back.next('error')).code, 'occupied');
		await playMoves(pair, script.moves.slice(1), {
			size: SIZE, startContent: played.content, startMoves: 1, lastEndsGame: true,
		});
		await expectWinner(pair, { winner: 'front', reason: 'five', line: script.line });
		const after = await metrics();
		assert.equal(value(after, 'gomoku_rooms_active'), 0,
			'expected gomoku_rooms_active (rooms with a game in progress) 0 once the only game ended');

		const grew = (name, by) => {
			const delta = value(after, name) - value(before, name);
			assert.equal(delta, by, `expected ${name} to grow by ${by} over the game, it grew by ${delta}`);
		};
		grew('gomoku_moves_total', script.moves.length);
		grew('gomoku_games_finished_total{reason="five"}', 1);
		grew('gomoku_errors_total{code="not_your_turn"}', 1);
		grew('gomoku_errors_total{code="occupied"}', 1);
		for (const name of ['gomoku_messages_in_total', 'gomoku_messages_out_total', 'gomoku_bytes_in_total',
			'gomoku_bytes_out_total']) {
			assert.ok(value(after, name) > value(before, name),
				`expected ${name} to grow over the game, got ${value(before, name)} then ${value(after, name)}`);
		}
		// At least: the 9 moves and 2 refused requests in, and a board per
		// move to each player out.
		assert.ok(value(after, 'gomoku_messages_in_total') - value(before, 'gomoku_messages_in_total') >= script.moves.length + 2,
			'expected gomoku_messages_in_total to count every message received');
		assert.ok(value(after, 'gomoku_messages_out_total') - value(before, 'gomoku_messages_out_total') >= 2 * script.moves.length,
			'expected gomoku_messages_out_total to count every message sent');
		assert.ok(value(after, 'gomoku_bytes_out_total') - value(before, 'gomoku_bytes_out_total') >= 2 * script.moves.length * SIZE * SIZE * 3,
			'expected gomoku_bytes_out_total to count at least the bytes of the boards sent');
	});

	it('counts forfeits at /metrics', T, async () => {
		const before = await metrics();
		const pair = await connectPair(server);
		await pair.front.terminate();
		await pair.back.nextAll(['winner', 'disconnect']);
		const after = await metrics();
		const delta = value(after, 'gomoku_games_finished_total{reason="forfeit"}') -
			value(before, 'gomoku_games_finished_total{reason="forfeit"}');
		assert.equal(delta, 1, `expected gomoku_games_finished_total{reason="forfeit"} to grow by 1, it grew by ${delta}`);
	});
});

describe('WebSocket upgrades on other paths', () => {
	const server = useServer({}, { settle: false });

	for (const path of ['/other', '/index.html', '/ws/more']) {
		it(`refuses a WebSocket upgrade on ${path}: only / and /ws upgrade`, T, async () => {
			const url = `ws://${HOST}:${server.port}${path}?uid=${uuid()}`;
			let player = null;
			try {
				player = await Client.connect(url, { label: `player on ${path}` });
			} catch {
				// refused at the upgrade: as expected
			}
			if (player) {
				await player.waitClosed();
				assert.ok(!player.received.some(({ message }) => message.type === 'welcome'),
					`expected no game on ${path}, got ${player.history()}`);
			}
		});
	}

	it('still counts 0 connections at /healthz and /metrics after refused upgrades', T, async () => {
		for (const path of ['/other', '/nope']) {
			try {
				const player = await Client.connect(`ws://${HOST}:${server.port}${path}?uid=${uuid()}`);
				await player.waitClosed();
			} catch {
				// refused at the upgrade
			}
		}
		const { body } = await server.get('/healthz');
		assert.equal(JSON.parse(body).connections, 0,
			`expected /healthz connections 0 after two refused upgrades, got ${body}`);
		const samples = parseMetrics((await server.get('/metrics')).body);
		assert.equal(value(samples, 'gomoku_connections'), 0,
			`expected gomoku_connections 0 after two refused upgrades, got ${value(samples, 'gomoku_connections')}`);
		// And a real player still counts as one.
		await connectWaiting(server);
		assert.equal((await server.health()).connections, 1, 'expected /healthz connections 1 with one player');
	});
});

/**
 * A raw HTTP/1.1 connection: write() sends bytes as they are; answers()
 * resolves once `count` whole responses (status line, headers and a
 * body of content-length bytes) arrived, or the server closed the
 * connection, or timeoutMs passed; it says which.
 */
class RawHttp {
	static open(port) {
		return new Promise((resolve, reject) => {
			const socket = net.connect(port, HOST);
			socket.once('error', reject);
			socket.once('connect', () => {
				socket.off('error', reject);
				resolve(new RawHttp(socket));
			});
		});
	}

	constructor(socket) {
		this.socket = socket;
		this.buffer = Buffer.alloc(0);
		this.responses = [];
		this.closed = false;
		this.waiters = new Set();
		socket.on('data', (chunk) => {
			this.buffer = Buffer.concat([this.buffer, chunk]);
			this.parse();
			this.notify();
		});
		socket.on('error', () => {});
		socket.on('close', () => {
			this.closed = true;
			this.notify();
		});
	}

	notify() {
		for (const waiter of [...this.waiters])
			waiter();
	}

	parse() {
		for (;;) {
			const end = this.buffer.indexOf('\r\n\r\n');
			if (end < 0)
				return;
			const head = this.buffer.subarray(0, end).toString('latin1');
			const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]);
			const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] || 0);
			if (this.buffer.length < end + 4 + length)
				return;
			this.responses.push({ status, head, body: this.buffer.subarray(end + 4, end + 4 + length).toString('utf8') });
			this.buffer = this.buffer.subarray(end + 4 + length);
		}
	}

	write(bytes) {
		this.socket.write(bytes);
	}

	answers(count, timeoutMs = scaled(5000)) {
		return new Promise((resolve) => {
			const check = () => {
				if (this.responses.length >= count || this.closed) {
					done(this.responses.length >= count ? 'answered' : 'closed');
					return true;
				}
				return false;
			};
			const timer = setTimeout(() => done('timed out'), timeoutMs);
			const done = (outcome) => {
				clearTimeout(timer);
				this.waiters.delete(check);
				resolve(outcome);
			};
			if (!check())
				this.waiters.add(check);
		});
	}

	/** Resolves once the server closed the connection, or after timeoutMs with false. */
	waitClosed(timeoutMs) {
		return new Promise((resolve) => {
			const check = () => {
				if (!this.closed)
					return false;
				clearTimeout(timer);
				this.waiters.delete(check);
				resolve(true);
				return true;
			};
			const timer = setTimeout(() => {
				this.waiters.delete(check);
				resolve(false);
			}, timeoutMs);
			if (!check())
				this.waiters.add(check);
		});
	}

	destroy() {
		this.socket.destroy();
	}
}

function get(path, extra = '') {
	return `GET ${path} HTTP/1.1\r\nHost: ${HOST}\r\n${extra}\r\n`;
}

describe('the web root', () => {
	let root;

	const server = useServer(() => {
		// A copy of the web client with symlinks in it: one to a file
		// outside, one to a directory outside (/etc), one that stays inside.
		root = fs.mkdtempSync(path.join(os.tmpdir(), 'gomoku-webroot-'));
		fs.cpSync(webRoot, path.join(root, 'real'), { recursive: true });
		fs.writeFileSync(path.join(root, 'secret.txt'), 'not for the web\n');
		const served = path.join(root, 'real');
		fs.symlinkSync(path.join(root, 'secret.txt'), path.join(served, 'secret.txt'));
		fs.symlinkSync('/etc', path.join(served, 'etc'));
		fs.symlinkSync('index.html', path.join(served, 'inside.html'));
		fs.symlinkSync('real', path.join(root, 'link'));
		// The web root itself through a symlink: its real path counts.
		return { args: ['--web-root', path.join(root, 'link')] };
	}, { settle: false });
	// After useServer()'s after(): once the server is stopped.
	after(() => {
		if (root)
			fs.rmSync(root, { recursive: true, force: true });
	});

	it('serves no file whose real path lies outside the real path of the web root: symlinks out of it are 404', T, async () => {
		for (const target of ['/secret.txt', '/etc/passwd', '/etc/hostname', '/etc/']) {
			const res = await server.get(target);
			assert.equal(res.status, 404, `expected GET ${target} (a symlink out of the web root) to answer 404, got ${res.status}: ${res.body.slice(0, 200)}`);
			assert.doesNotMatch(res.body, /not for the web|root:x:0:0/, `expected nothing from outside the web root for GET ${target}`);
		}
	});

	it('follows a symlink that stays inside the web root, and serves the root through its own symlink', T, async () => {
		const inside = await server.get('/inside.html');
		assert.equal(inside.status, 200, `expected GET /inside.html (a symlink to index.html) to answer 200, got ${inside.status}`);
		assert.match(inside.body, /<canvas/i);
		assert.equal((await server.get('/')).status, 200, 'expected GET / to serve index.html');
	});
});

describe('pipelined HTTP requests', () => {
	const server = useServer({}, { settle: false });

	/** Two or more GETs in one write; returns the RawHttp and the outcome. */
	async function pipelined(paths) {
		const client = await RawHttp.open(server.port);
		client.write(paths.map((target) => get(target)).join(''));
		const outcome = await client.answers(paths.length);
		return { client, outcome };
	}

	it('answers every request sent in one write, in order, and keeps the connection', T, async () => {
		for (const paths of [['/favicon.svg', '/favicon.svg'], ['/healthz', '/favicon.svg'], ['/favicon.svg', '/healthz'],
			['/', '/style.css', '/healthz', '/metrics', '/no-such-file', '/js/main.js']]) {
			const { client, outcome } = await pipelined(paths);
			try {
				assert.equal(outcome, 'answered', `expected ${paths.length} answers to ${paths.join(' + ')} sent in one write, ` +
					`the connection ${outcome} after ${client.responses.length}: ${client.responses.map((r) => r.status).join(', ')}`);
				const expected = paths.map((target) => (target === '/no-such-file' ? 404 : 200));
				assert.deepEqual(client.responses.map((r) => r.status), expected, `expected the answers to ${paths.join(' + ')} in order`);
				for (let i = 0; i < paths.length; i++)
					if (paths[i] === '/healthz')
						assert.equal(typeof JSON.parse(client.responses[i].body).uptime, 'number', 'expected the /healthz answer to carry its body');
				// The connection is still usable.
				client.write(get('/healthz'));
				assert.equal(await client.answers(paths.length + 1), 'answered', 'expected a later request on the same connection to be answered');
			} finally {
				client.destroy();
			}
		}
	});

	it('holds no memory for 1,000 connections that pipelined two requests once they are closed', T, async () => {
		const round = async () => {
			const clients = await Promise.all(Array.from({ length: 1000 }, () => RawHttp.open(server.port)));
			for (const client of clients)
				client.write(get('/healthz') + get('/favicon.svg'));
			const outcomes = await Promise.all(clients.map((client) => client.answers(2)));
			for (const client of clients)
				client.destroy();
			const answered = outcomes.filter((outcome) => outcome === 'answered').length;
			assert.equal(answered, 1000, `expected all 1,000 connections to get both answers, ${1000 - answered} did not ` +
				`(${[...new Set(outcomes)].join(', ')})`);
			await pollUntil(async () => ((await fetchMetric(server, 'gomoku_tcp_connections')) <= 1 ? true : undefined),
				'the server to count its TCP connections back to the one asking', { timeoutMs: scaled(10_000) });
			return residentKiB(server.child.pid);
		};
		// Two rounds first, so that the allocator's arenas are in the baseline.
		await round();
		const baseline = Math.max(await round(), await round());
		let highest = 0;
		for (let i = 0; i < 3; i++)
			highest = Math.max(highest, await round());
		if (!residentMemoryIsTheServers(server.child.pid))
			return; // valgrind or ASan: the connection count above is what holds
		// 1,000 connections held open would keep about 5 MiB.
		assert.ok(highest - baseline < 4096, `expected the server's memory to come back after the connections closed, ` +
			`it grew by ${highest - baseline} KiB over three more rounds of 1,000 (from ${baseline} KiB)`);
	});
});

describe('request bodies', () => {
	const HANDSHAKE_TIMEOUT_S = 2;
	const server = useServer({ args: ['--handshake-timeout', String(HANDSHAKE_TIMEOUT_S)] }, { settle: false });

	it('never keeps a connection whose request body drips in: it is answered and closed within --handshake-timeout', T, async () => {
		const clients = [];
		const drips = [];
		for (let i = 0; i < 5; i++) {
			const client = await RawHttp.open(server.port);
			clients.push(client);
			client.write(`POST /healthz HTTP/1.1\r\nHost: ${HOST}\r\nContent-Length: 100000\r\n\r\nx`);
			drips.push(setInterval(() => {
				if (!client.closed)
					client.write('x');
			}, 200));
		}
		try {
			const closed = await Promise.all(clients.map((client) => client.waitClosed(scaled(HANDSHAKE_TIMEOUT_S * 1000))));
			assert.deepEqual(closed, clients.map(() => true),
				`expected every connection with a dripping body to be dropped within ${HANDSHAKE_TIMEOUT_S} s`);
			for (const client of clients)
				assert.equal(client.responses[0]?.status, 405, 'expected the request to be answered before its connection closed');
			assert.equal(await fetchMetric(server, 'gomoku_tcp_connections'), 1,
				'expected no connection but the one asking to be left open');
		} finally {
			drips.forEach(clearInterval);
			clients.forEach((client) => client.destroy());
		}
	});

	it('answers a request that carries a body whole, then closes its connection cleanly', T, async () => {
		const client = await RawHttp.open(server.port);
		try {
			client.write(`POST /healthz HTTP/1.1\r\nHost: ${HOST}\r\nContent-Length: 5\r\n\r\nhello`);
			assert.equal(await client.answers(1), 'answered', 'expected the request with a body to be answered');
			assert.equal(client.responses[0].status, 405, 'expected a POST to be refused with 405');
			assert.match(client.responses[0].head, /\r\nconnection: close/i, 'expected the answer to say the connection closes');
			assert.ok(await client.waitClosed(scaled(5000)), 'expected the server to close the connection after the answer');
		} finally {
			client.destroy();
		}
	});
});
