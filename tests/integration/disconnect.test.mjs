// Leaving: forfeits and disconnect notices after clean and abrupt closes,
// during and after a game; and a seat taken over by a newer connection
// with the same uid.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useServer } from './lib/server.mjs';
import { connectPlayer, connectWaiting, connectPair, uuid, otherRole } from './lib/client.mjs';
import { winningScript, playMoves, expectWinner, assertBoard } from './lib/game.mjs';
import { testTimeout } from './lib/time.mjs';

const T = testTimeout(30_000);
const SIZE = 15;

/** Closes player the given way: 'clean' (close frame) or 'abrupt' (socket dropped). */
function leave(player, how) {
	return how === 'clean' ? player.close() : player.terminate();
}

/** Checks a disconnect message: type and a human-readable text. */
function assertDisconnect(message, who) {
	assert.equal(typeof message.disconnect, 'string',
		`expected ${who}'s disconnect message to carry a text in "disconnect", got ${JSON.stringify(message)}`);
	assert.ok(message.disconnect.length > 0, `expected a non-empty disconnect text, got ${JSON.stringify(message)}`);
}

describe('disconnect', () => {
	const server = useServer();

	for (const how of ['clean', 'abrupt']) {
		for (const leaver of ['front', 'back']) {
			it(`gives the stayer a forfeit win, then disconnect, when ${leaver} leaves mid-game (${how} close)`, T, async () => {
				const pair = await connectPair(server);
				const script = winningScript({ size: SIZE, winner: 'front', direction: 'vertical', start: { x: 4, y: 4 } });
				await playMoves(pair, script.moves.slice(0, 4), { size: SIZE });
				const stayer = pair[otherRole(leaver)];
				await leave(pair[leaver], how);
				const winner = await stayer.next('winner');
				assert.equal(winner.winner, otherRole(leaver),
					`expected the stayer (${otherRole(leaver)}) to win by forfeit, got ${JSON.stringify(winner)}`);
				assert.equal(winner.reason, 'forfeit', `expected reason "forfeit", got ${JSON.stringify(winner)}`);
				assertDisconnect(await stayer.next('disconnect'), stayer.label);
				await stayer.expectNothing(200, 'after disconnect');
			});
		}

		it(`gives the stayer a forfeit win when the opponent leaves before any move (${how} close)`, T, async () => {
			const pair = await connectPair(server);
			await leave(pair.front, how);
			const winner = await pair.back.next('winner');
			assert.equal(winner.winner, 'back', `expected back to win by forfeit, got ${JSON.stringify(winner)}`);
			assert.equal(winner.reason, 'forfeit', `expected reason "forfeit", got ${JSON.stringify(winner)}`);
			assertDisconnect(await pair.back.next('disconnect'), 'back');
		});

		for (const leaver of ['winner', 'loser']) {
			it(`sends only disconnect when the ${leaver} leaves after a finished game (${how} close)`, T, async () => {
				const pair = await connectPair(server);
				const script = winningScript({ size: SIZE, winner: 'back', direction: 'diagonal', start: { x: 6, y: 6 } });
				await playMoves(pair, script.moves, { size: SIZE, lastEndsGame: true });
				await expectWinner(pair, { winner: 'back', reason: 'five', line: script.line });
				const leaving = leaver === 'winner' ? pair.back : pair.front;
				const stayer = leaver === 'winner' ? pair.front : pair.back;
				await leave(leaving, how);
				assertDisconnect(await stayer.next('disconnect'), stayer.label);
				await stayer.expectNothing(200, 'after disconnect');
			});
		}
	}

	it('forgets a waiting player who leaves: the next two players are matched together', T, async () => {
		const gone = await connectWaiting(server, {}, { label: 'player who leaves' });
		await gone.terminate();
		await server.settle();
		const pair = await connectPair(server, { firstQuery: { name: 'First' }, secondQuery: { name: 'Second' } });
		assert.deepEqual(pair.first.roleMessage.opponent, { name: 'Second' });
		await gone.expectNothing(0);
	});
});

describe('a seat taken over by the same uid', () => {
	const server = useServer();

	for (const who of ['front', 'back']) {
		it(`closes the old connection with 4001 and resumes ${who}'s seat, board included, on the new one`, T, async () => {
			const pair = await connectPair(server, { firstQuery: { name: 'One' }, secondQuery: { name: 'Two' } });
			const script = winningScript({ size: SIZE, winner: who, direction: 'anti-diagonal', start: { x: 9, y: 5 } });
			const played = await playMoves(pair, script.moves.slice(0, 5), { size: SIZE });

			const old = pair[who];
			const opponent = pair[otherRole(who)];
			const fresh = await connectPlayer(server, { uid: old.uid, name: old === pair.first ? 'One' : 'Two' },
				{ label: `${who} on its new connection` });
			const { code } = await old.waitClosed();
			assert.equal(code, 4001, `expected the replaced connection to close with 4001, got ${code}`);
			const welcome = await fresh.next('welcome');
			assert.equal(welcome.uid, old.uid);
			const role = await fresh.next('role');
			assert.equal(role.role, who, `expected the resumed seat to be ${who}, got ${JSON.stringify(role)}`);
			assert.equal(role.room, old.roleMessage.room, `expected the same room after resuming, got ${JSON.stringify(role)}`);
			assert.deepEqual(role.opponent, old.roleMessage.opponent,
				`expected the resumed role to name the same opponent, got ${JSON.stringify(role)}`);
			const board = await fresh.next('board');
			assertBoard(board, {
				content: played.content, move: script.moves[4], moves: 5, nextRole: 'back',
			}, fresh.label);
			await opponent.expectNothing(200, 'when the other player\'s seat was taken over');

			// The game goes on from the new connection.
			const resumed = { ...pair, [who]: fresh };
			await playMoves(resumed, script.moves.slice(5), {
				size: SIZE, startContent: played.content, startMoves: 5, lastEndsGame: true,
			});
			await expectWinner(resumed, { winner: who, reason: 'five', line: script.line });
			assert.equal(old.inbox.length, 0,
				`expected the replaced connection to receive nothing more, got ${JSON.stringify(old.inbox)}`);
		});
	}

	it('resumes a seat with role only when no move was made', T, async () => {
		const pair = await connectPair(server);
		const fresh = await connectPlayer(server, { uid: pair.back.uid }, { label: 'back on its new connection' });
		assert.equal((await pair.back.waitClosed()).code, 4001);
		await fresh.next('welcome');
		const role = await fresh.next('role');
		assert.equal(role.role, 'back');
		await fresh.expectNothing(200, 'after role when no move was made');
		await pair.front.expectNothing(0);
		pair.front.move(7, 7);
		await Promise.all([pair.front.next('board'), fresh.next('board')]);
	});

	it('resumes a seat after the game ended with role, board and the winner', T, async () => {
		const pair = await connectPair(server);
		const script = winningScript({ size: SIZE, winner: 'front', direction: 'horizontal', start: { x: 0, y: 3 } });
		const { content } = await playMoves(pair, script.moves, { size: SIZE, lastEndsGame: true });
		const winner = await expectWinner(pair, { winner: 'front', reason: 'five', line: script.line });
		const fresh = await connectPlayer(server, { uid: pair.back.uid }, { label: 'back on its new connection' });
		assert.equal((await pair.back.waitClosed()).code, 4001);
		await fresh.next('welcome');
		assert.equal((await fresh.next('role')).role, 'back');
		const board = await fresh.next('board');
		assertBoard(board, { content, move: script.moves[script.moves.length - 1], moves: script.moves.length }, fresh.label);
		assert.deepEqual(await fresh.next('winner'), winner, 'expected the resumed seat to be told the same winner');
		fresh.move(14, 14);
		assert.equal((await fresh.next('error')).code, 'game_over');
		await pair.front.expectNothing(200, 'when the other seat was taken over after the game');
	});

	it('takes over a seat given the uid in upper case', T, async () => {
		const pair = await connectPair(server);
		const fresh = await connectPlayer(server, { uid: pair.front.uid.toUpperCase() }, { label: 'front again' });
		assert.equal((await pair.front.waitClosed()).code, 4001);
		assert.equal((await fresh.next('welcome')).uid, pair.front.uid);
		assert.equal((await fresh.next('role')).role, 'front');
	});

	it('moves a waiting player to the new connection, which is then matched', T, async () => {
		const uid = uuid();
		const old = await connectWaiting(server, { uid }, { label: 'old connection' });
		const fresh = await connectWaiting(server, { uid }, { label: 'new connection' });
		assert.equal((await old.waitClosed()).code, 4001);
		const other = await connectPlayer(server, { uid: uuid() }, { label: 'opponent' });
		await other.next('welcome');
		const otherRoleMessage = await other.next('role', undefined, { skip: ['waiting'] });
		const freshRole = await fresh.next('role');
		assert.equal(freshRole.room, otherRoleMessage.room);
		assert.equal(old.inbox.length, 0, `expected the old connection to get nothing more, got ${JSON.stringify(old.inbox)}`);
	});
});
