// The instances of one site (--redis, --instance-id, --instance-lease,
// --reuse-port), against a real redis-server: each instance names itself
// in /healthz and /metrics and holds a lease in Redis that it renews; a
// second process with the same id waits until that lease is given back
// (SIGTERM) or lapses (kill -9); an instance cut off from Redis counts its
// lease lapsed itself; and with --reuse-port several processes listen on
// one port, the kernel spreading connections over them, and players on
// either meet and play.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { startServer, stopAll, runServerOnce, freePort, HOST } from './lib/server.mjs';
import { connectWaiting, connectPlayer, closeAllClients, uuid } from './lib/client.mjs';
import { fetchMetric, pollUntil } from './lib/observe.mjs';
import { Redis } from './lib/redis.mjs';
import { testTimeout, scaled } from './lib/time.mjs';

const T = testTimeout(60_000);
const KEY_PREFIX = 'gomoku:instance:';

describe('the instances of a site on Redis', () => {
	const redis = new Redis();

	before(async () => {
		await redis.start();
	});

	after(async () => {
		closeAllClients();
		await redis.close();
	});

	/** GET /healthz of server: { status, body }. */
	async function health(server) {
		const res = await server.get('/healthz');
		return { status: res.status, body: JSON.parse(res.body) };
	}

	/** The value of key in Redis, '' when there is none. */
	function redisGet(key) {
		return redis.cli(['GET', key]).trim();
	}

	/** The key's time to live in ms (-2: no such key). */
	function redisPttl(key) {
		return Number(redis.cli(['PTTL', key]).trim());
	}

	it('names itself in /healthz and /metrics, and holds a lease in Redis that it renews', T, async () => {
		const server = await startServer({ args: ['--redis', redis.url, '--instance-id', 'alpha-1',
			'--instance-lease', '2'] });
		try {
			const seen = await health(server);
			assert.equal(seen.status, 200);
			assert.equal(seen.body.instance, 'alpha-1');
			assert.equal(seen.body.lease, 'held');
			assert.match(await server.get('/metrics').then((res) => res.body),
				/^gomoku_instance_info\{instance="alpha-1"\} 1$/m);
			assert.equal(await fetchMetric(server, 'gomoku_instance_lease_held'), 1);

			const token = redisGet(`${KEY_PREFIX}alpha-1`);
			assert.match(token, /^[0-9a-f]{32}$/, 'expected the process\'s random token as the lease\'s value');
			const ttl = redisPttl(`${KEY_PREFIX}alpha-1`);
			assert.ok(ttl > 0 && ttl <= 2000, `expected a time to live of at most 2 s, got ${ttl} ms`);
			// Renewed every third of the lease: four answers take more than a
			// whole lease, and the key is still there, with the same token.
			await pollUntil(async () => (await fetchMetric(server, 'gomoku_instance_lease_renewals_total') >= 4 ? true : undefined),
				'four renewals of the lease', { timeoutMs: scaled(15_000), intervalMs: 100 });
			assert.equal(redisGet(`${KEY_PREFIX}alpha-1`), token);
			assert.equal(await fetchMetric(server, 'gomoku_instance_lease_losses_total'), 0);
		} finally {
			await stopAll([server]);
		}
		assert.equal(redisGet(`${KEY_PREFIX}alpha-1`), '', 'expected SIGTERM to give the lease back');
	});

	it('takes a random id when none is given, and logs it at start', T, async () => {
		const server = await startServer({ args: ['--redis', redis.url] });
		try {
			const { body } = await health(server);
			assert.match(body.instance, /^[0-9a-f]{12}$/);
			await server.waitForLine(new RegExp(`instance ${body.instance} joins the site on redis`),
				{ what: 'the instance id at start' });
			assert.match(redisGet(`${KEY_PREFIX}${body.instance}`), /^[0-9a-f]{32}$/);
		} finally {
			await stopAll([server]);
		}
	});

	it('makes a second process with the same id wait, 503, until the first gives the lease back', T, async () => {
		const first = await startServer({ args: ['--redis', redis.url, '--instance-id', 'twin'] });
		let second = null;
		try {
			const firstToken = redisGet(`${KEY_PREFIX}twin`);
			second = await startServer({ args: ['--redis', redis.url, '--instance-id', 'twin'],
				healthyStatuses: [503] });
			await second.waitForLine(/instance twin: another process holds this id/,
				{ what: 'the wait for the other process\'s lease' });
			const waiting = await health(second);
			assert.equal(waiting.status, 503);
			assert.equal(waiting.body.status, 'lease_waiting');
			assert.equal(waiting.body.lease, 'waiting');
			assert.ok(await fetchMetric(second, 'gomoku_instance_lease_refusals_total') >= 1);
			assert.equal(redisGet(`${KEY_PREFIX}twin`), firstToken, 'expected the first process to keep its lease');

			await first.stop();
			await pollUntil(async () => ((await health(second)).status === 200 ? true : undefined),
				'the second process to take the lease', { timeoutMs: scaled(10_000), intervalMs: 50 });
			const secondToken = redisGet(`${KEY_PREFIX}twin`);
			assert.match(secondToken, /^[0-9a-f]{32}$/);
			assert.notEqual(secondToken, firstToken);
		} finally {
			await stopAll([first, second]);
		}
	});

	it('lets the lease of a killed instance lapse in Redis after --instance-lease', T, async () => {
		const server = await startServer({ args: ['--redis', redis.url, '--instance-id', 'doomed',
			'--instance-lease', '1'] });
		await server.kill();
		assert.ok(redisPttl(`${KEY_PREFIX}doomed`) <= 1000, 'expected at most 1 s left on the lease');
		await pollUntil(async () => (redisPttl(`${KEY_PREFIX}doomed`) === -2 ? true : undefined),
			'the killed instance\'s lease to lapse', { timeoutMs: scaled(5000), intervalMs: 50 });
	});

	it('counts its lease lapsed itself while Redis is away, and takes it again when Redis is back', T, async () => {
		const server = await startServer({ args: ['--redis', redis.url, '--instance-id', 'cut-off',
			'--instance-lease', '1'] });
		try {
			await redis.kill();
			await pollUntil(async () => (await fetchMetric(server, 'gomoku_instance_lease_losses_total') === 1 ? true : undefined),
				'the instance to count its lease lapsed', { timeoutMs: scaled(10_000), intervalMs: 50 });
			assert.equal(await fetchMetric(server, 'gomoku_instance_lease_held'), 0);
			const away = await health(server);
			assert.equal(away.status, 503);
			assert.equal(away.body.lease, 'waiting');
			await server.waitForLine(/instance cut-off: its lease lapsed/, { what: 'the lapse in the log' });

			await redis.start();
			await pollUntil(async () => ((await health(server)).status === 200 ? true : undefined),
				'the instance to take its lease again', { timeoutMs: scaled(20_000), intervalMs: 100 });
			assert.equal((await health(server)).body.lease, 'held');
			assert.match(redisGet(`${KEY_PREFIX}cut-off`), /^[0-9a-f]{32}$/);
		} finally {
			await stopAll([server]);
		}
	});

	it('refuses a bad --instance-id or --instance-lease at start with exit status 2', T, async () => {
		for (const args of [['--instance-id', 'has space'], ['--instance-id', 'x'.repeat(65)],
			['--instance-id', 'slash/y'], ['--instance-lease', '0'], ['--reuse-port=maybe']]) {
			const run = await runServerOnce(args);
			assert.equal(run.code, 2, `expected exit status 2 for ${args.join(' ')}`);
			assert.match(run.stderr, new RegExp(args[0].replace(/=.*/, '')));
		}
	});
});

describe('several processes on one port (--reuse-port)', () => {
	const redis = new Redis();
	let port = 0;
	let servers = [];

	before(async () => {
		await redis.start();
		port = await freePort();
		for (const id of ['left', 'right']) {
			const server = await startServer({ port, args: ['--reuse-port', '--redis', redis.url, '--instance-id', id] });
			// The first one may have answered for the second: wait for its own word.
			await server.waitForLine(/listening on http:/, { what: 'the listening line', timeoutMs: scaled(10_000) });
			await server.waitForLine(new RegExp(`instance ${id}: holds its lease`), { what: 'its lease' });
			servers.push(server);
		}
	});

	after(async () => {
		await closeAllClients();
		await stopAll(servers);
		await redis.close();
	});

	it('spreads HTTP requests and WebSocket players over both, each serving the page and the game', T, async () => {
		const answered = new Set();
		for (let i = 0; i < 40; i++)
			answered.add((await health(servers[0])).body.instance);
		assert.deepEqual([...answered].sort(), ['left', 'right'], 'expected both processes to answer /healthz');

		const page = await servers[0].get('/');
		assert.equal(page.status, 200);
		assert.match(page.body, /<canvas/);

		// Twenty players, each alone in a pool of its own (sizes 6 to 25):
		// each gets its welcome and waits, from whichever process took it.
		const marks = servers.map((server) => server.mark());
		const uids = [];
		for (let size = 6; size < 26; size++) {
			const uid = uuid();
			uids.push(uid);
			await connectWaiting(servers[0], { uid, size: String(size) });
		}
		const logged = () => servers.map((server, i) => server.linesSince(marks[i])
			.filter((line) => uids.some((uid) => line.includes(`connect uid=${uid.slice(0, 8)}`))).length);
		// The log lines come through pipes: wait for the last of them.
		const counts = await pollUntil(async () => {
			const now = logged();
			return now[0] + now[1] >= 20 ? now : undefined;
		}, 'every connection in one log or the other', { timeoutMs: scaled(5000), intervalMs: 25 });
		assert.equal(counts[0] + counts[1], 20, `expected each connection logged once, got ${counts}`);
		assert.ok(counts[0] > 0 && counts[1] > 0, `expected players on both processes, got ${counts}`);
	});

	it('pairs and plays players whichever of the two processes the kernel gives them', T, async () => {
		// Ten pairs through the one port: some land on one process, some
		// across the two; every pair gets one room and plays a move.
		// (A pool of their own: the last test's players still wait.)
		for (let i = 0; i < 10; i++) {
			const first = await connectWaiting(servers[0], { rule: 'standard' });
			const second = await connectPlayer(servers[0], { uid: uuid(), rule: 'standard' },
				{ label: `second ${i}` });
			const role = await second.next('role', scaled(5000), { skip: ['welcome', 'waiting'] });
			const theirs = await first.next('role', scaled(5000), { skip: ['waiting'] });
			assert.equal(role.room, theirs.room);
			const front = role.role === 'front' ? second : first;
			const back = front === second ? first : second;
			front.send({ type: 'move', x: 7, y: 7 });
			assert.equal((await back.next('board')).moves, 1);
		}
		await closeAllClients();
	});

	it('sends every new connection to the other process once one is stopped', T, async () => {
		await closeAllClients();
		await servers[0].stop();
		const answered = new Set();
		for (let i = 0; i < 20; i++)
			answered.add((await health(servers[1])).body.instance);
		assert.deepEqual([...answered], ['right']);
	});

	it('refuses --reuse-port on a port another process holds without it, naming the flag', T, async () => {
		const plain = await startServer({});
		try {
			const run = await runServerOnce(['--port', String(plain.port), '--host', HOST, '--reuse-port']);
			assert.equal(run.code, 2);
			assert.match(run.stderr, /in use|--reuse-port/);
		} finally {
			await stopAll([plain]);
		}
	});

	/** GET /healthz of server: { status, body }. */
	async function health(server) {
		const res = await server.get('/healthz');
		return { status: res.status, body: JSON.parse(res.body) };
	}
});
