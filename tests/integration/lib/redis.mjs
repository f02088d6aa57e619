// A real redis-server for the tests of --redis: on a free loopback port,
// its files in a temporary directory removed when it stops; stop() kills
// it (as a lost machine would go), start() runs it again on the same port.

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { freePort, HOST } from './server.mjs';
import { scaled, sleep } from './time.mjs';

export const redisBin = process.env.GOMOKU_REDIS_BIN || 'redis-server';

/** Whether something accepts TCP connections on port. */
function accepting(port) {
	return new Promise((resolve) => {
		const socket = net.connect({ host: HOST, port }, () => {
			socket.destroy();
			resolve(true);
		});
		socket.on('error', () => resolve(false));
	});
}

export class Redis {
	/** args: more redis-server options (['--requirepass', 'pw']). */
	constructor(args = []) {
		this.args = args;
		this.port = 0;
		this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gomoku-redis-'));
		this.child = null;
		this.log = '';
	}

	/** redis://HOST:PORT of this Redis. */
	get url() {
		return `redis://${HOST}:${this.port}`;
	}

	/** Starts it (on a free port the first time, the same one after) and waits until it accepts connections. */
	async start() {
		if (!this.port)
			this.port = await freePort();
		this.child = spawn(redisBin, ['--port', String(this.port), '--bind', HOST, '--dir', this.dir,
			'--save', '', '--appendonly', 'no', '--daemonize', 'no', ...this.args], { stdio: ['ignore', 'pipe', 'pipe'] });
		this.child.stdout.on('data', (chunk) => { this.log += chunk; });
		this.child.stderr.on('data', (chunk) => { this.log += chunk; });
		const exited = new Promise((resolve) => this.child.once('exit', () => resolve(true)));
		this.exited = exited;
		const deadline = Date.now() + scaled(10_000);
		while (Date.now() < deadline) {
			if (await accepting(this.port))
				return;
			if (this.child.exitCode !== null)
				break;
			await sleep(25);
		}
		throw new Error(`expected ${redisBin} to accept connections on port ${this.port}; it wrote:\n${this.log}`);
	}

	/** What redis-cli prints for command (an array of words), with password when given. */
	cli(command, password = '') {
		const auth = password ? ['-a', password, '--no-auth-warning'] : [];
		return execFileSync('redis-cli', ['-h', HOST, '-p', String(this.port), ...auth, ...command], { encoding: 'utf8' });
	}

	/** Kills it with SIGKILL and waits for it to be gone. */
	async kill() {
		if (!this.child || this.child.exitCode !== null)
			return;
		this.child.kill('SIGKILL');
		await this.exited;
	}

	/** Kills it and removes its directory. */
	async close() {
		await this.kill();
		fs.rmSync(this.dir, { recursive: true, force: true });
	}
}
