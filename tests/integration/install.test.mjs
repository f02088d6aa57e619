// cmake --install: the server, pbrain-gomoku and the web client land
// under the prefix (bin/, share/gomoku/web/), and an installed server
// with no --web-root serves the installed client, while the build tree's
// binary serves the source tree's web/. The installed copy is of the
// build under test (GOMOKU_BUILD_DIR, set by ctest and by
// tests/valgrind/run.sh); the installed server itself runs without
// valgrind.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { httpGet, runServerOnce, serverBin, startServer, webRoot } from './lib/server.mjs';
import { testTimeout } from './lib/time.mjs';

const T = testTimeout(60_000);

const buildDir = process.env.GOMOKU_BUILD_DIR || path.dirname(serverBin);

/** A RegExp matching text literally. */
function literally(text) {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('an installed server', () => {
	let prefix;
	const servers = [];

	before(() => {
		prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'gomoku-install-'));
		const install = spawnSync('cmake', ['--install', buildDir, '--prefix', prefix], { encoding: 'utf8' });
		assert.equal(install.status, 0,
			`expected cmake --install ${buildDir} to succeed; it wrote:\n${install.stdout}${install.stderr}`);
	});
	after(async () => {
		await Promise.allSettled(servers.map((server) => server.stop()));
		fs.rmSync(prefix, { recursive: true, force: true });
	});

	it('puts the two programs in bin/ and the web client in share/gomoku/web/', T, () => {
		for (const program of ['gomoku-server', 'pbrain-gomoku']) {
			const file = path.join(prefix, 'bin', program);
			assert.ok(fs.existsSync(file), `expected ${file}`);
			assert.ok(fs.statSync(file).mode & 0o111, `expected ${file} to be executable`);
		}
		const installedWeb = path.join(prefix, 'share', 'gomoku', 'web');
		for (const file of ['index.html', 'style.css', 'js/main.js', 'js/protocol.js'])
			assert.deepEqual(fs.readFileSync(path.join(installedWeb, file)), fs.readFileSync(path.join(webRoot, file)),
				`expected the installed ${file} to be the source tree's`);
		assert.equal(fs.existsSync(path.join(installedWeb, 'package.json')), false,
			'expected no package.json (it only serves the web unit tests)');
	});

	it('serves the installed web client when no --web-root is given', T, async () => {
		const installedWeb = path.join(prefix, 'share', 'gomoku', 'web');
		const bin = path.join(prefix, 'bin', 'gomoku-server');
		// A file only the installed copy has: proof of where it serves from.
		fs.writeFileSync(path.join(installedWeb, 'installed.txt'), 'the installed copy\n');

		const help = await runServerOnce(['--help'], { bin });
		assert.equal(help.code, 0);
		assert.match(help.stdout, new RegExp(`default web root: ${literally(fs.realpathSync(installedWeb))}\\n`),
			`expected --help to name the installed client; it printed:\n${help.stdout}`);

		const server = await startServer({ bin, webRootArg: false });
		servers.push(server);
		const marker = await httpGet(server.port, '/installed.txt');
		assert.equal(marker.status, 200);
		assert.equal(marker.body, 'the installed copy\n');
		const page = await httpGet(server.port, '/');
		assert.equal(page.status, 200);
		assert.equal(page.body, fs.readFileSync(path.join(webRoot, 'index.html'), 'utf8'));
		await server.stop();
	});

	it('leaves the build tree\'s binary on the source tree\'s web/', T, async () => {
		const bin = path.join(buildDir, 'gomoku-server');
		const help = await runServerOnce(['--help'], { bin });
		assert.equal(help.code, 0);
		assert.match(help.stdout, new RegExp(`default web root: ${literally(webRoot)}\\n`),
			`expected --help to name ${webRoot}; it printed:\n${help.stdout}`);
		const server = await startServer({ bin, webRootArg: false });
		servers.push(server);
		const page = await httpGet(server.port, '/');
		assert.equal(page.status, 200);
		assert.equal(page.body, fs.readFileSync(path.join(webRoot, 'index.html'), 'utf8'));
		const marker = await httpGet(server.port, '/installed.txt');
		assert.equal(marker.status, 404);
		await server.stop();
	});
});
