// Refused requests: every error code, sent to the requester only, changing
// nothing, and the game going on correctly afterwards.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useServer } from './lib/server.mjs';
import { connectPlayer, connectWaiting, connectPair, uuid } from './lib/client.mjs';
import { winningScript, playMoves, expectWinner, emptyContent, withStone } from './lib/game.mjs';
import { testTimeout } from './lib/time.mjs';

const T = testTimeout(30_000);
const SIZE = 15;

/**
 * Takes the next message of player, which must be an error with code and
 * a non-empty message text.
 */
async function expectError(player, code, what) {
	const error = await player.next('error');
	assert.equal(error.code, code,
		`expected ${what} to be refused with error "${code}", got ${JSON.stringify(error)}`);
	assert.equal(typeof error.message, 'string', `expected error.message to be a string, got ${JSON.stringify(error)}`);
	assert.ok(error.message.length > 0, `expected a non-empty error.message, got ${JSON.stringify(error)}`);
	return error;
}

/**
 * Sends each request from sender and checks that it is refused with
 * code while the other player receives nothing.
 */
async function expectRefused(sender, other, code, requests) {
	for (const request of requests) {
		const text = typeof request === 'string' ? request : JSON.stringify(request);
		sender.sendText(text);
		await expectError(sender, code, `${text.length > 120 ? `${text.slice(0, 120)}...` : text} from ${sender.label}`);
		if (other)
			await other.expectNothing(150, `when the opponent's ${text.slice(0, 80)} was refused`);
	}
}

describe('errors', () => {
	const server = useServer();

	/**
	 * Matches a pair, plays the first `count` moves of a front win, and
	 * returns { pair, script, content }.
	 */
	async function gameUnderWay(count) {
		const pair = await connectPair(server);
		const script = winningScript({ size: SIZE, winner: 'front', direction: 'horizontal', start: { x: 5, y: 6 } });
		const { content } = await playMoves(pair, script.moves.slice(0, count), { size: SIZE });
		return { pair, script, content };
	}

	/** Plays the rest of the script from move `from` and checks the win. */
	async function finishGame({ pair, script, content }, from) {
		await playMoves(pair, script.moves.slice(from), {
			size: SIZE, startContent: content, startMoves: from, lastEndsGame: true,
		});
		await expectWinner(pair, { winner: 'front', reason: 'five', line: script.line });
	}

	it('refuses text that is not JSON, and moves with missing or mistyped fields, with bad_json', T, async () => {
		const game = await gameUnderWay(2);
		const { front, back } = game.pair;
		await expectRefused(front, back, 'bad_json', [
			'this is not JSON',
			'{"type":"move","x":3,',
			'',
			{ type: 'move', y: 3 },
			{ type: 'move', x: 3 },
			{ type: 'move', x: '3', y: 3 },
			{ type: 'move', x: 3, y: null },
			{ type: 'move', x: [3], y: 3 },
		]);
		await finishGame(game, 2);
	});

	it('refuses a missing or unknown type with bad_type', T, async () => {
		const game = await gameUnderWay(1);
		const { front, back } = game.pair;
		await expectRefused(back, front, 'bad_type', [
			{ x: 1, y: 1 },
			{ type: 'dance' },
			{ type: 'MOVE', x: 1, y: 1 },
		]);
		await finishGame(game, 1);
	});

	it('refuses a move while waiting for an opponent with not_in_game', T, async () => {
		const lone = await connectWaiting(server);
		await expectRefused(lone, null, 'not_in_game', [
			{ type: 'move', x: 7, y: 7 },
			{ type: 'board', content: withStone(emptyContent(SIZE), SIZE, 7, 7, 'front'), role: 'front' },
		]);
		await lone.expectNothing(150, 'after the refusals');
		// Still waiting: a second player is matched with it.
		const second = await connectPlayer(server, { uid: uuid() }, { label: 'second player' });
		await second.next('welcome');
		await second.next('role', undefined, { skip: ['waiting'] });
		await lone.next('role');
	});

	it('refuses a move out of turn with not_your_turn, for both sides and both forms', T, async () => {
		const pair = await connectPair(server);
		const { front, back } = pair;
		await expectRefused(back, front, 'not_your_turn', [
			{ type: 'move', x: 7, y: 7 },
			{ type: 'board', content: withStone(emptyContent(SIZE), SIZE, 7, 7, 'back'), role: 'back' },
		]);
		const game = { pair, script: winningScript({ size: SIZE, winner: 'front', direction: 'horizontal', start: { x: 5, y: 6 } }) };
		game.content = (await playMoves(pair, game.script.moves.slice(0, 1), { size: SIZE })).content;
		const second = game.script.moves[2];
		await expectRefused(front, back, 'not_your_turn', [
			{ type: 'move', x: second.x, y: second.y },
			{ type: 'board', content: withStone(game.content, SIZE, second.x, second.y, 'front'), role: 'front' },
		]);
		await finishGame(game, 1);
	});

	it('refuses cells off the board and fractional coordinates with out_of_range', T, async () => {
		const game = await gameUnderWay(2);
		const { front, back } = game.pair;
		await expectRefused(front, back, 'out_of_range', [
			{ type: 'move', x: -1, y: 0 },
			{ type: 'move', x: 0, y: -1 },
			{ type: 'move', x: SIZE, y: 0 },
			{ type: 'move', x: 0, y: SIZE },
			{ type: 'move', x: 100000, y: 3 },
			{ type: 'move', x: 1.5, y: 3 },
			{ type: 'move', x: 3, y: 0.25 },
			'{"type":"move","x":1e300,"y":3}',
			'{"type":"move","x":99999999999999999999,"y":3}',
		]);
		await finishGame(game, 2);
	});

	it('refuses a stone on an occupied cell with occupied', T, async () => {
		const game = await gameUnderWay(3);
		const { front, back } = game.pair;
		const [frontStone, backStone] = game.script.moves;
		await expectRefused(back, front, 'occupied', [
			{ type: 'move', x: frontStone.x, y: frontStone.y },
			{ type: 'move', x: backStone.x, y: backStone.y },
		]);
		await finishGame(game, 3);
	});

	it('refuses a seed-form board that is not exactly one new stone of the mover with bad_board', T, async () => {
		const game = await gameUnderWay(2);
		const { front, back } = game.pair;
		const { content } = game;
		const empties = [];
		content.forEach((cell, index) => {
			if (cell === '' && empties.length < 2)
				empties.push({ x: index % SIZE, y: Math.floor(index / SIZE) });
		});
		const [a, b] = empties;
		const twoStones = withStone(withStone(content, SIZE, a.x, a.y, 'front'), SIZE, b.x, b.y, 'front');
		const wrongColour = withStone(content, SIZE, a.x, a.y, 'back');
		const badCell = withStone(content, SIZE, a.x, a.y, 'front');
		badCell[badCell.length - 1] = 'black';
		await expectRefused(front, back, 'bad_board', [
			{ type: 'board', content, role: 'front' },
			{ type: 'board', content: twoStones, role: 'front' },
			{ type: 'board', content: wrongColour, role: 'front' },
			{ type: 'board', content: withStone(content, SIZE, a.x, a.y, 'front').slice(0, SIZE * SIZE - 1), role: 'front' },
			{ type: 'board', content: [...withStone(content, SIZE, a.x, a.y, 'front'), ''], role: 'front' },
			{ type: 'board', content: badCell, role: 'front' },
		]);
		await finishGame(game, 2);
	});

	it('refuses a seed-form board that removes a stone while adding one with bad_board', T, async () => {
		const game = await gameUnderWay(2);
		const { front, back } = game.pair;
		const backStone = game.script.moves[1];
		const next = game.script.moves[2];
		const removed = withStone(withStone(game.content, SIZE, backStone.x, backStone.y, ''), SIZE, next.x, next.y, 'front');
		await expectRefused(front, back, 'bad_board', [{ type: 'board', content: removed, role: 'front' }]);
		await finishGame(game, 2);
	});

	it('refuses moves after the game ended with game_over, from both players', T, async () => {
		const game = await gameUnderWay(0);
		await finishGame(game, 0);
		const { front, back } = game.pair;
		const finalContent = game.script.moves.reduce(
			(content, move) => withStone(content, SIZE, move.x, move.y, move.role), emptyContent(SIZE));
		await expectRefused(back, front, 'game_over', [
			{ type: 'move', x: 14, y: 14 },
			{ type: 'board', content: withStone(finalContent, SIZE, 14, 14, 'back'), role: 'back' },
		]);
		await expectRefused(front, back, 'game_over', [{ type: 'move', x: 13, y: 13 }]);
	});

	/**
	 * Sends a message of `bytes` bytes from player and checks that the
	 * server closes the connection with 1009 and says too_large: in an
	 * error message before the close, or as the close reason. Nothing else
	 * may arrive.
	 */
	async function expectTooLarge(player, bytes) {
		const message = { type: 'ping', padding: '' };
		message.padding = 'x'.repeat(bytes - JSON.stringify(message).length);
		player.send(message);
		const { code, reason } = await player.waitClosed();
		assert.equal(code, 1009, `expected close code 1009 after a ${bytes}-byte message, got ${code} ${JSON.stringify(reason)}`);
		const unread = player.inbox.splice(0);
		assert.ok(unread.length <= 1 && unread.every((m) => m.type === 'error' && m.code === 'too_large'),
			`expected at most an error "too_large" before the close, got ${JSON.stringify(unread)}`);
		assert.ok(unread.length === 1 || reason === 'too_large',
			`expected the code too_large in an error message or as the close reason, got reason ${JSON.stringify(reason)} and no error`);
	}

	it('refuses a message over 16 KiB with too_large and closes the connection with 1009', T, async () => {
		const lone = await connectWaiting(server);
		await expectTooLarge(lone, 20 * 1024);
	});

	it('refuses a message of 16 KiB and one byte with too_large', T, async () => {
		const lone = await connectWaiting(server);
		await expectTooLarge(lone, 16 * 1024 + 1);
	});

	it('counts every fragment of a message toward the 16 KiB limit', T, async () => {
		const lone = await connectWaiting(server);
		const text = JSON.stringify({ type: 'ping', padding: 'x'.repeat(20 * 1024) });
		for (let at = 0; at < text.length; at += 4000)
			lone.ws.send(text.slice(at, at + 4000), { fin: at + 4000 >= text.length });
		const { code } = await lone.waitClosed();
		assert.equal(code, 1009, `expected close code 1009 for a 20 KiB message in 4000-byte fragments, got ${code}`);
	});

	it('gives the opponent a forfeit win when a player is closed for a too large message', T, async () => {
		const { pair } = await gameUnderWay(2);
		await expectTooLarge(pair.front, 17 * 1024);
		const winner = await pair.back.next('winner');
		assert.equal(winner.winner, 'back', `expected back to win by forfeit, got ${JSON.stringify(winner)}`);
		assert.equal(winner.reason, 'forfeit', `expected reason "forfeit", got ${JSON.stringify(winner)}`);
		await pair.back.next('disconnect');
	});

	it('accepts a message of exactly 16 KiB', T, async () => {
		const lone = await connectWaiting(server);
		const message = { type: 'ping', padding: '' };
		message.padding = 'x'.repeat(16 * 1024 - JSON.stringify(message).length);
		lone.send(message);
		assert.deepEqual(await lone.next('pong'), { type: 'pong' });
	});

	it('refuses a malformed uid with bad_uid and closes with 1008', T, async () => {
		const good = uuid();
		const malformed = [
			'not-a-uuid',
			'1234',
			good.replace(/-/g, ''),
			`{${good}}`,
			`${good}0`,
			`g${good.slice(1)}`,
			good.slice(0, 35),
		];
		for (const uid of malformed) {
			const player = await connectPlayer(server, { uid }, { label: `player with uid ${JSON.stringify(uid)}` });
			await expectError(player, 'bad_uid', `uid ${JSON.stringify(uid)}`);
			const { code } = await player.waitClosed();
			assert.equal(code, 1008, `expected close code 1008 for uid ${JSON.stringify(uid)}, got ${code}`);
		}
	});

	it('refuses a bad name with bad_name and closes with 1008', T, async () => {
		const names = ['x'.repeat(21), '   ', 'a\u0001b', 'tab\there', 'del\u007f', 'é'.repeat(21)];
		for (const name of names) {
			const player = await connectPlayer(server, { uid: uuid(), name },
				{ label: `player named ${JSON.stringify(name)}` });
			await expectError(player, 'bad_name', `name ${JSON.stringify(name)}`);
			const { code } = await player.waitClosed();
			assert.equal(code, 1008, `expected close code 1008 for name ${JSON.stringify(name)}, got ${code}`);
		}
	});

	it('does not match a refused player with anyone', T, async () => {
		const waiting = await connectWaiting(server);
		const refused = await connectPlayer(server, { uid: 'nope' }, { label: 'player with a bad uid' });
		await expectError(refused, 'bad_uid', 'uid "nope"');
		await refused.waitClosed();
		await waiting.expectNothing(200, 'when a refused player came and went');
	});
});
