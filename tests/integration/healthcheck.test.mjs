// `gomoku-server --health-check`: the probe a container image runs in
// place of curl. It must say 0 for a serving server and 1 otherwise.

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';

import { startServer, stopAll, runServerOnce, freePort, HOST } from './lib/server.mjs';
import { testTimeout } from './lib/time.mjs';

const T = testTimeout(30_000);

describe('--health-check', () => {
	const servers = [];
	after(async () => {
		await stopAll(servers.splice(0));
	});

	it('exits 0 when the server on --port answers /healthz with 200', T, async () => {
		const server = await startServer();
		servers.push(server);
		const probe = await runServerOnce(['--health-check', '--host', HOST,
			'--port', String(server.port)]);
		assert.equal(probe.code, 0,
			`expected exit 0 from the probe of a serving server, got ${probe.code} ` +
			`(stderr: ${JSON.stringify(probe.stderr)})`);
	});

	it('takes the port from GOMOKU_PORT, as a container passes it', T, async () => {
		const server = await startServer();
		servers.push(server);
		const probe = await runServerOnce(['--health-check'],
			{ env: { GOMOKU_PORT: String(server.port) } });
		assert.equal(probe.code, 0,
			`expected exit 0 with GOMOKU_PORT=${server.port}, got ${probe.code} ` +
			`(stderr: ${JSON.stringify(probe.stderr)})`);
	});

	it('exits 1 with one line saying why when nothing listens', T, async () => {
		const port = await freePort();
		const probe = await runServerOnce(['--health-check', '--host', HOST,
			'--port', String(port)]);
		assert.equal(probe.code, 1, `expected exit 1 with nothing on port ${port}, got ${probe.code}`);
		const lines = probe.stderr.split('\n').filter((line) => line.trim());
		assert.equal(lines.length, 1, `expected one stderr line, got ${JSON.stringify(probe.stderr)}`);
		assert.match(lines[0], new RegExp(`${port}`), 'the line should name the port it tried');
	});

	it('exits 1 when the port answers but is not a gomoku server', T, async () => {
		const http = await import('node:http');
		const other = http.createServer((req, res) => {
			res.writeHead(503);
			res.end('unavailable');
		});
		await new Promise((resolve) => other.listen(0, HOST, resolve));
		try {
			const probe = await runServerOnce(['--health-check', '--host', HOST,
				'--port', String(other.address().port)]);
			assert.equal(probe.code, 1,
				`expected exit 1 for a 503 answer, got ${probe.code} (stderr: ${JSON.stringify(probe.stderr)})`);
			assert.match(probe.stderr, /503/, 'the reason should quote the status line');
		} finally {
			await new Promise((resolve) => other.close(resolve));
		}
	});
});
