// HTTP: the web client's page, no way out of the web root, /healthz and
// /metrics.

import { describe, it, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';

import { startServer, HOST } from './lib/server.mjs';
import { Client, connectWaiting, connectPair, closeAllClients, uuid } from './lib/client.mjs';
import { winningScript, playMoves, expectWinner } from './lib/game.mjs';
import { testTimeout } from './lib/time.mjs';

const T = testTimeout(30_000);
const SIZE = 15;

/**
 * Sends raw (an HTTP request as it is, no normalisation) and resolves with
 * { status, text } once the server closes the connection or after a pause
 * once something came (keep-alive).
 */
function rawRequest(port, raw, timeoutMs = 5000) {
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
	let server;

	before(async () => {
		server = await startServer();
	});
	afterEach(async () => {
		await closeAllClients();
		await server.settle();
	});
	after(async () => {
		await closeAllClients();
		if (server)
			await server.stop();
	});

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
	let server;

	before(async () => {
		server = await startServer();
	});
	afterEach(async () => {
		await closeAllClients();
	});
	after(async () => {
		await closeAllClients();
		if (server)
			await server.stop();
	});

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
