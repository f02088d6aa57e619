// --redis URL (the first step of running several instances on Redis): the
// instance keeps a connection to a real redis-server, says in /healthz
// (503 while it is away) and /metrics whether it answers and how fast,
// keeps its players connected while Redis is gone (their games paused: a
// move Redis cannot save is refused), and connects again when it is
// back; it logs in with the URL's password and selects its
// database. A bad URL stops the server at start, its password unsaid.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { startServer, stopAll, runServerOnce } from './lib/server.mjs';
import { connectPair, closeAllClients } from './lib/client.mjs';
import { playMoves, emptyContent, withStone } from './lib/game.mjs';
import { fetchMetric, pollUntil } from './lib/observe.mjs';
import { Redis } from './lib/redis.mjs';
import { testTimeout, scaled } from './lib/time.mjs';

const T = testTimeout(60_000);
const SIZE = 15;
const MOVES = [
	{ role: 'front', x: 7, y: 7 }, { role: 'back', x: 8, y: 8 }, // with Redis
	{ role: 'front', x: 7, y: 8 }, // refused while Redis is gone; then played
	{ role: 'back', x: 9, y: 9 },
];

/** Plays MOVES[from, to) after the ones before them. */
function playPart(pair, from, to) {
	const startContent = MOVES.slice(0, from).reduce(
		(content, { x, y, role }) => withStone(content, SIZE, x, y, role), emptyContent(SIZE));
	return playMoves(pair, MOVES.slice(from, to), { size: SIZE, startContent, startMoves: from });
}

describe('the site\'s Redis (--redis)', () => {
	const redis = new Redis();
	let server = null;

	before(async () => {
		await redis.start();
		server = await startServer({ args: ['--redis', redis.url] });
	});

	after(async () => {
		closeAllClients();
		await stopAll([server]);
		await redis.close();
	});

	/** /healthz's status and document. */
	async function health() {
		const res = await server.get('/healthz');
		return { status: res.status, body: JSON.parse(res.body) };
	}

	it('says Redis is up in /healthz and /metrics, with its round trip', T, async () => {
		const seen = await health();
		assert.equal(seen.status, 200);
		assert.equal(seen.body.redis, 'up');
		assert.equal(await fetchMetric(server, 'gomoku_redis_up'), 1);
		assert.ok(await fetchMetric(server, 'gomoku_redis_rtt_seconds') > 0, 'expected a measured round trip');
		assert.equal(await fetchMetric(server, 'gomoku_redis_connects_total'), 1);
	});

	it('pauses the games while Redis is gone (a move gets unavailable and changes nothing), says 503, connects again when it is back, and the game goes on', T, async () => {
		const pair = await connectPair(server);
		await playPart(pair, 0, 2);
		const written = await fetchMetric(server, 'gomoku_cluster_journal_writes_total');
		assert.ok(written >= 3, `expected the game and its two moves written to Redis, got ${written} writes`);

		await redis.kill();
		const away = await pollUntil(async () => {
			const seen = await health();
			return seen.status === 503 ? seen : undefined;
		}, '/healthz to say 503 with Redis gone', { timeoutMs: scaled(10_000), intervalMs: 100 });
		assert.equal(away.body.redis, 'down');
		assert.equal(away.body.status, 'redis_unreachable');
		assert.equal(await fetchMetric(server, 'gomoku_redis_up'), 0);
		// What cannot be saved in Redis is not played: the move is
		// refused, and nobody is told of it.
		pair.front.move(MOVES[2].x, MOVES[2].y);
		const refused = await pair.front.next('error');
		assert.equal(refused.code, 'unavailable');
		await pair.back.expectNothing(200, 'the refused move is not announced');

		await redis.start();
		await pollUntil(async () => ((await health()).status === 200 ? true : undefined),
			'/healthz to say 200 with Redis back', { timeoutMs: scaled(20_000), intervalMs: 100 });
		assert.equal((await health()).body.redis, 'up');
		assert.equal(await fetchMetric(server, 'gomoku_redis_drops_total'), 1);
		assert.equal(await fetchMetric(server, 'gomoku_redis_connects_total'), 2);
		await playPart(pair, 2, 4);
		// This Redis keeps nothing on disk: it came back empty, and the
		// game was written to it whole again (its header and every move).
		const streams = redis.cli(['--scan', '--pattern', 'gomoku:game:*']).trim().split('\n');
		assert.equal(streams.length, 1, `expected one game in Redis, got ${streams}`);
		const fields = redis.cli(['XRANGE', streams[0], '-', '+']).split('\n');
		assert.equal(fields.filter((line) => line === 'g').length, 1, 'the game\'s header');
		assert.equal(fields.filter((line) => line === 'm').length, 4, 'the four moves');
		await server.waitForLine(/Redis lost its journal/, { what: 'the log of the game written again' });
	});

	it('logs in with the URL\'s password and uses its database', T, async () => {
		const locked = new Redis(['--requirepass', 'open sesame']);
		let good = null;
		try {
			await locked.start();
			// Without AUTH its PINGs get NOAUTH: /healthz would never say 200.
			good = await startServer({ args: ['--redis', `redis://:open sesame@127.0.0.1:${locked.port}/3`] });
			assert.equal(JSON.parse((await good.get('/healthz')).body).redis, 'up');
			assert.match(locked.cli(['CLIENT', 'LIST'], 'open sesame'), /\bdb=3\b/,
				'expected the instance\'s connection on database 3');
		} finally {
			await stopAll([good]);
			await locked.close();
		}
	});

	it('refuses a bad URL at start with exit status 2, naming --redis and never the password', T, async () => {
		for (const url of ['http://127.0.0.1:6379', 'redis://:hunter2@127.0.0.1:99999']) {
			const run = await runServerOnce(['--redis', url]);
			assert.equal(run.code, 2, `expected exit status 2 for ${url}`);
			assert.match(run.stderr, /--redis/);
			assert.doesNotMatch(run.stderr + run.stdout, /hunter2/);
		}
	});
});
