// updates=move: compact board messages (no content) for clients that ask,
// full boards for the rest, and the whole position on resume.

import { describe, it, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';

import { startServer, stopAll } from './lib/server.mjs';
import { connectPair, connectPlayer, closeAllClients, uuid } from './lib/client.mjs';
import { testTimeout } from './lib/time.mjs';

const T = testTimeout(30_000);

describe('updates=move', () => {
	const servers = [];
	afterEach(async () => {
		await closeAllClients();
	});
	after(async () => {
		await stopAll(servers.splice(0));
	});

	it('sends compact boards to the client that asked and full boards to the other', T,
		async () => {
			const server = await startServer();
			servers.push(server);
			const { first, second, front } = await connectPair(server, {
				firstQuery: { updates: 'move' },
			});
			const compact = first;
			const full = second;
			front.send({ type: 'move', x: 3, y: 4 });
			const seenCompact = await compact.next('board');
			const seenFull = await full.next('board');
			assert.deepEqual(seenCompact, {
				type: 'board', role: 'back', move: { x: 3, y: 4, role: 'front' }, moves: 1,
			}, 'the compact board should carry only the move, the side to move and the count');
			assert.equal(seenFull.content.length, 15 * 15, 'the other client keeps full boards');
			assert.equal(seenFull.content[4 * 15 + 3], 'front');
			assert.equal(seenFull.moves, 1);
		});

	it('sends the whole board once when a compact client takes its seat back', T, async () => {
		const server = await startServer();
		servers.push(server);
		const uid = uuid();
		const { front, back } = await connectPair(server, {
			firstQuery: { uid, updates: 'move' },
		});
		front.send({ type: 'move', x: 7, y: 7 });
		await front.next('board');
		await back.next('board');
		const again = await connectPlayer(server, { uid, updates: 'move' });
		await again.next('welcome');
		await again.next('role');
		const resumed = await again.next('board');
		assert.equal(resumed.content?.length, 15 * 15,
			`a resumed compact client needs the full position, got ${JSON.stringify(resumed)}`);
		assert.equal(resumed.content[7 * 15 + 7], 'front');
		assert.equal(resumed.moves, 1);
	});
});
