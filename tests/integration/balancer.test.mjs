// The load balancer of docker/compose.scale.yml: the real haproxy (the
// host's, the package the balancer image installs) with
// docker/haproxy.cfg, in front of three instances on one real
// redis-server. The only changes to the file are where things are: its
// Docker DNS lookup of the replicas becomes the three servers' loopback
// ports, and it listens on a free port. Through the one address: the page
// and /healthz; players paired and playing whole games wherever haproxy
// puts them (no sticky sessions); an instance killed with kill -9, its
// players reconnecting through the same address and resuming their games
// on another instance.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { startServer, stopAll, freePort, httpGet, HOST } from './lib/server.mjs';
import { connectPlayer, closeAllClients, uuid } from './lib/client.mjs';
import { playMoves, winningScript } from './lib/game.mjs';
import { Redis } from './lib/redis.mjs';
import { testTimeout, scaled, sleep } from './lib/time.mjs';

const T = testTimeout(180_000);
const SIZE = 15;
const PAIRS = 12;
const haproxyBin = process.env.GOMOKU_HAPROXY_BIN || 'haproxy';
const shipped = new URL('../../docker/haproxy.cfg', import.meta.url);

/** docker/haproxy.cfg with the servers and the port of this test. */
function localConfig(ports, listen) {
	const text = fs.readFileSync(shipped, 'utf8');
	assert.match(text, /^resolvers docker\n(\t[^\n]*\n)+/m, 'the shipped file looks up the replicas in Docker\'s DNS');
	assert.match(text, /^\tserver-template gomoku \d+ gomoku:8080 (.*)$/m);
	assert.match(text, /^\tbind :8080$/m);
	return text
		.replace(/^resolvers docker\n(\t[^\n]*\n)+/m, '')
		.replace(/^\tserver-template gomoku \d+ gomoku:8080 (.*)$/m, (line, options) =>
			ports.map((port, i) => `\tserver gomoku${i} ${HOST}:${port} ` +
				options.replace(/ resolvers docker| init-addr none/g, '')).join('\n'))
		.replace(/^\tbind :8080$/m, `\tbind ${HOST}:${listen}`);
}

class Balancer {
	async start(ports) {
		this.port = await freePort();
		this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gomoku-haproxy-'));
		const config = path.join(this.dir, 'haproxy.cfg');
		fs.writeFileSync(config, localConfig(ports, this.port));
		this.log = '';
		this.child = spawn(haproxyBin, ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
		this.child.stdout.on('data', (chunk) => { this.log += chunk; });
		this.child.stderr.on('data', (chunk) => { this.log += chunk; });
		this.exited = new Promise((resolve) => this.child.once('exit', resolve));
		const deadline = Date.now() + scaled(15_000);
		for (;;) {
			try {
				if ((await httpGet(this.port, '/healthz')).status === 200)
					return;
			} catch {
				// not listening yet
			}
			assert.ok(Date.now() < deadline, `expected haproxy to answer /healthz; it wrote:\n${this.log}`);
			await sleep(100);
		}
	}

	async close() {
		if (!this.child)
			return;
		this.child.kill('SIGTERM');
		await this.exited;
		fs.rmSync(this.dir, { recursive: true, force: true });
	}
}

describe('haproxy with docker/haproxy.cfg in front of three instances', () => {
	const redis = new Redis(['--appendonly', 'yes', '--appendfsync', 'always']);
	const balancer = new Balancer();
	const site = { host: HOST, port: 0 };
	let servers = [];

	before(async () => {
		await redis.start();
		for (const id of ['north', 'east', 'west'])
			servers.push(await startServer({ args: ['--redis', redis.url, '--instance-id', id,
				'--instance-lease', '1', '--reconnect-grace', '120', '--trust-proxy', 'yes'] }));
		await balancer.start(servers.map((server) => server.port));
		site.port = balancer.port;
	});

	after(async () => {
		await closeAllClients();
		await stopAll(servers.filter((server) => !server.exited));
		await balancer.close();
		await redis.close();
	});

	it('serves the page and /healthz at the one address', T, async () => {
		const page = await httpGet(site.port, '/');
		assert.equal(page.status, 200);
		assert.match(page.body, /<canvas/);
		const health = JSON.parse((await httpGet(site.port, '/healthz')).body);
		assert.ok(['north', 'east', 'west'].includes(health.instance));
	});

	it(`pairs ${PAIRS} pairs through it and plays each to a five, then resumes every game after kill -9 of an instance`, T, async () => {
		const pairs = [];
		for (let n = 0; n < PAIRS; n++) {
			const first = await connectPlayer(site, { uid: uuid() }, { label: `pair ${n} first` });
			first.uid = new URL(first.ws.url).searchParams.get('uid');
			await first.next('welcome');
			await first.next('waiting');
			const second = await connectPlayer(site, { uid: uuid() }, { label: `pair ${n} second` });
			second.uid = new URL(second.ws.url).searchParams.get('uid');
			await second.next('welcome');
			const roleSecond = await second.next('role', scaled(10_000), { skip: ['waiting'] });
			const roleFirst = await first.next('role', scaled(10_000));
			assert.equal(roleFirst.room, roleSecond.room);
			const front = roleFirst.role === 'front' ? first : second;
			const back = roleFirst.role === 'front' ? second : first;
			pairs.push({ n, room: roleFirst.room, front, back });
		}
		// Connections went to every instance (leastconn, no stickiness).
		const spread = new Set();
		for (const server of servers)
			if (server.output().includes('connect uid='))
				spread.add(server.port);
		assert.equal(spread.size, 3, 'players landed on all three instances');

		const { moves, line } = winningScript({ size: SIZE, winner: 'front', direction: 'horizontal',
			start: { x: 3, y: 3 } });
		const before = moves.slice(0, 4);
		const rest = moves.slice(4);
		await Promise.all(pairs.map((pair) => playMoves(pair, before, { size: SIZE })));

		// The instance of the first room's owner dies; everyone comes back
		// through the balancer, which stops sending anyone there.
		const victim = servers.find((server) => server.output().includes(`match room=${pairs[0].room}`));
		assert.ok(victim, 'the first room has an owner');
		await victim.kill();
		for (const pair of pairs) {
			for (const side of ['front', 'back']) {
				const old = pair[side];
				old.terminate();
				const deadline = Date.now() + scaled(30_000);
				for (;;) {
					const again = await connectPlayer(site, { uid: old.uid }, { label: old.label })
						.catch(() => null);
					let role = null;
					if (again) {
						await again.next('welcome').catch(() => null);
						role = await again.next('role', scaled(30_000)).catch(() => null);
					}
					if (role) {
						assert.equal(role.room, pair.room);
						const board = await again.next('board', scaled(10_000),
							{ skip: ['opponent_away', 'opponent_back'] });
						assert.equal(board.moves, before.length, `${old.label}: every move kept`);
						again.uid = old.uid;
						pair[side] = again;
						break;
					}
					assert.ok(Date.now() < deadline, `${old.label} resumed through the balancer`);
					await sleep(200);
				}
			}
		}
		const skip = ['opponent_away', 'opponent_back'];
		await Promise.all(pairs.map(async (pair) => {
			for (const [i, { x, y, role }] of rest.entries()) {
				pair[role].move(x, y);
				for (const side of ['front', 'back']) {
					const board = await pair[side].next('board', scaled(10_000), { skip });
					assert.equal(board.moves, before.length + i + 1, `pair ${pair.n}`);
				}
			}
			for (const side of ['front', 'back']) {
				const end = await pair[side].next('winner', scaled(10_000), { skip });
				assert.equal(end.winner, 'front');
				assert.equal(end.reason, 'five');
				assert.deepEqual(end.line.map(({ x, y }) => `${x},${y}`).sort(),
					line.map(({ x, y }) => `${x},${y}`).sort());
			}
		}));
		servers = servers.filter((server) => server !== victim);
	});
});
