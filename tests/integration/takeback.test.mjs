// Takeback and redo: against the engine an offer is carried out at once
// (the player's move, and the engine's reply when it came) and redo plays
// the moves back; between two players the opponent must accept, a move or
// a leave declines a pending offer, and a declined offer cannot be made
// again for 10 s. A takeback's boards carry undo and the whole content.
// Takebacks of games between people are journaled: they survive a crash.

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';

import { useServer } from './lib/server.mjs';
import {
	connectWaiting, connectPair, closeAllClients, sendTogether, DEFAULT_TIMEOUT_MS,
} from './lib/client.mjs';
import { winningScript } from './lib/game.mjs';
import { rejoin, expectResume, gameRecord, RestartableServer } from './lib/resume.mjs';
import { fetchMetric } from './lib/observe.mjs';
import {
	connectAi, connectAiAs, Position, naiveCell, expectEngineMove, playerMove, playToTheEnd,
} from './lib/ai.mjs';
import { testTimeout, scaled } from './lib/time.mjs';

const T = testTimeout(30_000);
const SIZE = 15;
const FAST_MS = 100; // --ai-ms of the server for most engine games
const SLOW_MS = 1000; // --ai-ms of the server whose engine thinks long enough to interrupt
const SLACK_MS = scaled(1900); // on top of --ai-ms for an engine move; not a benchmark
const TAKEBACK = { type: 'offer', what: 'takeback' };

/** Sends an offer, an answer or a redo and expects error `code` back. */
async function expectRefusal(client, message, code) {
	client.send(message);
	const error = await client.next('error');
	assert.equal(error.code, code,
		`expected ${JSON.stringify(message)} from ${client.label} to get ${code}, got ${JSON.stringify(error)}`);
	return error;
}

/**
 * The player's game against the engine up to the player's turn after
 * `exchanges` moves of its own, each answered by the engine.
 */
async function engineGameAfter(client, exchanges, boundMs) {
	const position = new Position(SIZE);
	if (client.engineRole === 'front')
		await expectEngineMove(client, position, { startedAt: client.roleAt, boundMs });
	for (let i = 0; i < exchanges; i++) {
		const sentAt = await playerMove(client, position, naiveCell(position));
		await expectEngineMove(client, position, { startedAt: sentAt, boundMs });
	}
	return position;
}

describe('takeback against the computer', () => {
	const fast = useServer({ args: ['--ai-ms', String(FAST_MS)] });
	const slow = useServer({ args: ['--ai-ms', String(SLOW_MS)] });

	it('answers an offer before the player\'s first move with nothing_to_undo, redo with nothing_to_redo, an answer with no_offer', T, async () => {
		const player = await connectAi(fast, { level: 'medium' });
		const position = new Position(SIZE);
		if (player.engineRole === 'front') // a stone on the board, not the player's
			await expectEngineMove(player, position, { startedAt: player.roleAt, boundMs: FAST_MS + SLACK_MS });
		await expectRefusal(player, TAKEBACK, 'nothing_to_undo');
		await expectRefusal(player, { type: 'redo' }, 'nothing_to_redo');
		await expectRefusal(player, { type: 'answer', what: 'takeback', accept: true }, 'no_offer');
		await player.expectNothing(FAST_MS * 2, 'after refused requests');
		// Nothing changed: the player still plays its first move.
		const sentAt = await playerMove(player, position, naiveCell(position));
		await expectEngineMove(player, position, { startedAt: sentAt, boundMs: FAST_MS + SLACK_MS });
	});

	it('takes back only the player\'s move while the engine thinks, drops the search, and redo plays it again for the engine to answer', T, async () => {
		const bound = SLOW_MS + SLACK_MS;
		const player = await connectAi(slow, { level: 'hard', updates: 'move' });
		const position = await engineGameAfter(player, 1, bound);
		const before = position.snapshot();
		const takebacks = await fetchMetric(slow, 'gomoku_takebacks_total');

		// The offer goes right after the move, long before --ai-ms is up.
		const cell = naiveCell(position);
		sendTogether(player, [{ type: 'move', ...cell }, TAKEBACK]);
		position.play(await player.next('board'), player.role, 'player (its own move)');
		const undo = await player.next('board');
		position.undo(undo, 'player (its move taken back while the engine thinks)');
		assert.deepEqual(undo.undo, { ...cell, role: player.role });
		assert.deepEqual(position.snapshot(), before, 'expected the position from before the move');
		assert.equal(undo.role, player.role, 'expected the player to be to move after the takeback');
		await player.expectNothing(SLOW_MS + 500, 'after the takeback (the dropped search plays nothing)');
		assert.equal(await fetchMetric(slow, 'gomoku_takebacks_total'), takebacks + 1,
			'expected gomoku_takebacks_total to count the takeback');

		// redo: the move comes back as an ordinary board, and the engine thinks again.
		const redoneAt = Date.now();
		player.send({ type: 'redo' });
		const redone = await player.next('board');
		position.play(redone, player.role, 'player (its move played again by redo)');
		assert.deepEqual(redone.move, { ...cell, role: player.role }, 'expected redo to play the move taken back');
		assert.equal('content' in redone, false, `expected a compact board for updates=move, got ${JSON.stringify(redone)}`);
		await expectEngineMove(player, position, { startedAt: redoneAt, boundMs: bound });
	});

	it('takes back the engine\'s reply and then the player\'s move, and redo plays both back in order', T, async () => {
		const bound = FAST_MS + SLACK_MS;
		const player = await connectAi(fast, { level: 'medium', updates: 'move' });
		const position = await engineGameAfter(player, 2, bound);
		const taken = position.played.slice(-2); // the player's move, then the reply
		const takebacks = await fetchMetric(fast, 'gomoku_takebacks_total');

		player.send(TAKEBACK);
		const first = await player.next('board');
		position.undo(first, 'player (the engine\'s reply taken back)');
		assert.equal(first.undo.role, player.engineRole, 'expected the engine\'s reply to go first');
		const second = await player.next('board');
		position.undo(second, 'player (its own move taken back)');
		assert.equal(second.role, player.role, 'expected the player to be to move after the takeback');
		await player.expectNothing(FAST_MS * 3, 'after the takeback (the player is to move: the engine waits)');
		assert.equal(await fetchMetric(fast, 'gomoku_takebacks_total'), takebacks + 1,
			'expected gomoku_takebacks_total to count one takeback');

		player.send({ type: 'redo' });
		const redone = [await player.next('board'), await player.next('board')];
		position.play(redone[0], player.role, 'player (its move played again by redo)');
		position.play(redone[1], player.engineRole, 'player (the engine\'s reply played again by redo)');
		assert.deepEqual(redone.map((board) => board.move), taken,
			`expected redo to play back ${JSON.stringify(taken)} in order`);
		assert.ok(redone.every((board) => !('content' in board)), 'expected ordinary compact boards from redo');
		await player.expectNothing(FAST_MS * 3, 'after redo (the player is to move: the engine does not think again)');
		await expectRefusal(player, { type: 'redo' }, 'nothing_to_redo');

		// The game goes on from there.
		const sentAt = await playerMove(player, position, naiveCell(position));
		await expectEngineMove(player, position, { startedAt: sentAt, boundMs: bound });
	});

	it('refuses redo with nothing_to_redo once a move was played after the takeback', T, async () => {
		const bound = FAST_MS + SLACK_MS;
		const player = await connectAi(fast, { level: 'easy' });
		const position = await engineGameAfter(player, 2, bound);
		player.send(TAKEBACK);
		position.undo(await player.next('board'));
		position.undo(await player.next('board'));
		// Another cell than the one taken back, and the engine answers it.
		const sentAt = await playerMove(player, position, naiveCell(position));
		await expectEngineMove(player, position, { startedAt: sentAt, boundMs: bound });
		await expectRefusal(player, { type: 'redo' }, 'nothing_to_redo');
		await player.expectNothing(FAST_MS, 'after the refused redo');
	});

	it('takes back exchange after exchange down to the engine\'s first stone, then nothing_to_undo; redo plays back the last takeback', T, async () => {
		const bound = FAST_MS + SLACK_MS;
		const player = await connectAiAs(fast, 'front', { level: 'medium' });
		const position = await engineGameAfter(player, 2, bound);
		assert.equal(position.moves, 5);
		const taken = position.played.slice();
		for (let i = 0; i < 2; i++) {
			player.send(TAKEBACK);
			position.undo(await player.next('board'), 'player (the engine\'s reply taken back)');
			position.undo(await player.next('board'), 'player (its own move taken back)');
		}
		assert.equal(position.moves, 1, 'expected only the engine\'s first stone to be left');
		await expectRefusal(player, TAKEBACK, 'nothing_to_undo');
		await player.expectNothing(FAST_MS * 2, 'after the refused offer');
		// redo plays back what the last takeback removed: the 2nd and 3rd moves.
		player.send({ type: 'redo' });
		position.play(await player.next('board'), 'back', 'player (its move played again by redo)');
		position.play(await player.next('board'), 'front', 'player (the engine\'s reply played again by redo)');
		assert.deepEqual(position.played.slice(1), taken.slice(1, 3),
			`expected redo to play back ${JSON.stringify(taken.slice(1, 3))}`);
		await player.expectNothing(FAST_MS * 3, 'after redo (the player is to move)');
	});

	it('answers offer, answer and redo after the end of the game with game_over', T, async () => {
		const player = await connectAi(fast, { level: 'hard' });
		const position = new Position(SIZE);
		await playToTheEnd(player, position, { boundMs: FAST_MS + SLACK_MS });
		await expectRefusal(player, TAKEBACK, 'game_over');
		await expectRefusal(player, { type: 'answer', what: 'takeback', accept: true }, 'game_over');
		await expectRefusal(player, { type: 'redo' }, 'game_over');
		await player.expectNothing(FAST_MS, 'after the refused requests');
	});
});

/** The next message of both players, of type, the same for both. */
async function bothNext(pair, type) {
	const [front, back] = await Promise.all([pair.front.next(type), pair.back.next(type)]);
	assert.deepEqual(back, front, `expected front and back to get the same ${type} message`);
	return front;
}

/**
 * mover plays (x, y): both players get the same board (but for content,
 * which a compact client does not get), checked against position.
 */
async function playBoth(pair, position, { x, y, role }) {
	pair[role].move(x, y);
	const [front, back] = await Promise.all([pair.front.next('board'), pair.back.next('board')]);
	const withoutContent = ({ content, ...rest }) => rest;
	assert.deepEqual(withoutContent(back), withoutContent(front),
		`expected front and back to get the same board for ${role}'s move (${x},${y})`);
	position.play('content' in front ? front : back, role, 'the players');
	for (const board of [front, back])
		if ('content' in board)
			assert.deepEqual(board.content, position.content, 'expected both players\' content to match the moves');
}

/** Both players get the same takeback board; checked against position. */
async function undoBoth(pair, position) {
	const board = await bothNext(pair, 'board');
	position.undo(board, 'both players');
	return board;
}

/**
 * A pair (connectPair options: firstQuery, secondQuery) with `count` moves
 * of a script played (front wins along row 7).
 */
async function pairAfter(server, count, pairOptions = {}) {
	const pair = await connectPair(server, pairOptions);
	const script = winningScript({ size: SIZE, winner: 'front', direction: 'horizontal', start: { x: 3, y: 7 } });
	const position = new Position(SIZE);
	for (const move of script.moves.slice(0, count))
		await playBoth(pair, position, move);
	return { pair, position, script };
}

function offerBy(by) {
	return { type: 'offer', what: 'takeback', by };
}

function answerBy(by, accept) {
	return { type: 'answer', what: 'takeback', accept, by };
}

describe('takeback between two players', () => {
	const server = useServer();

	it('sends the offer to both players, and a decline to both: nothing is taken back', T, async () => {
		const { pair, position, script } = await pairAfter(server, 3);
		pair.front.send(TAKEBACK);
		assert.deepEqual(await bothNext(pair, 'offer'), offerBy('front'),
			'expected both players to get the offer, by front');
		pair.back.send({ type: 'answer', what: 'takeback', accept: false });
		assert.deepEqual(await bothNext(pair, 'answer'), answerBy('back', false),
			'expected both players to get the decline, by back');
		await pair.front.expectNothing(200, 'after a declined offer (no board)');
		await pair.back.expectNothing(0, 'after a declined offer (no board)');
		await playBoth(pair, position, script.moves[3]);
	});

	it('refuses the same offer again within 10 s with too_soon, lets the other player offer, and an accept takes back the reply first', T, async () => {
		const { pair, position } = await pairAfter(server, 3); // front, back, front
		const takebacks = await fetchMetric(server, 'gomoku_takebacks_total');
		pair.front.send(TAKEBACK);
		await bothNext(pair, 'offer');
		pair.back.send({ type: 'answer', what: 'takeback', accept: false });
		await bothNext(pair, 'answer');
		await expectRefusal(pair.front, TAKEBACK, 'too_soon');
		await pair.back.expectNothing(100, 'after the other player\'s refused offer');

		// Back's last move (the 2nd) was answered by front's 3rd.
		pair.back.send(TAKEBACK);
		assert.deepEqual(await bothNext(pair, 'offer'), offerBy('back'), 'expected the offer of back to both');
		pair.front.send({ type: 'answer', what: 'takeback', accept: true });
		assert.deepEqual(await bothNext(pair, 'answer'), answerBy('front', true), 'expected the accept to both');
		const reply = await undoBoth(pair, position);
		assert.equal(reply.undo.role, 'front', 'expected front\'s reply to be taken back first');
		const own = await undoBoth(pair, position);
		assert.equal(own.undo.role, 'back', 'expected back\'s move to be taken back next');
		assert.equal(own.role, 'back', 'expected the offerer (back) to be to move');
		assert.equal(position.moves, 1);
		assert.equal(await fetchMetric(server, 'gomoku_takebacks_total'), takebacks + 1,
			'expected gomoku_takebacks_total to count the takeback');
		await playBoth(pair, position, { x: 0, y: 0, role: 'back' });
	});

	it('takes back only the offerer\'s move when the opponent has not replied, with content for a compact client too', T, async () => {
		const { pair, position } = await pairAfter(server, 2, { firstQuery: { updates: 'move' } });
		pair.back.send(TAKEBACK); // front is to move: nothing to take back of front's
		await bothNext(pair, 'offer');
		pair.front.send({ type: 'answer', what: 'takeback', accept: true });
		await bothNext(pair, 'answer');
		const board = await undoBoth(pair, position);
		assert.equal(board.undo.role, 'back');
		assert.equal(board.role, 'back', 'expected the offerer to be to move');
		assert.equal(board.moves, 1);
		await pair.front.expectNothing(200, 'after one stone was taken back');
		await pair.back.expectNothing(0, 'after one stone was taken back');
	});

	it('declines a pending offer when the asked player moves: answer false, then the board; the offerer may not offer again at once', T, async () => {
		const { pair, position, script } = await pairAfter(server, 2);
		pair.back.send(TAKEBACK); // front is to move, and front is asked
		await bothNext(pair, 'offer');
		pair.front.move(script.moves[2].x, script.moves[2].y);
		assert.deepEqual(await bothNext(pair, 'answer'), answerBy('front', false),
			'expected the move to decline the offer (by front, who was asked) before its board');
		const board = await bothNext(pair, 'board');
		position.play(board, 'front', 'both players');
		await expectRefusal(pair.back, TAKEBACK, 'too_soon');
	});

	it('declines a pending offer when the offerer itself moves: answer false by the asked side, then the board', T, async () => {
		const { pair, position, script } = await pairAfter(server, 2);
		pair.front.send(TAKEBACK); // front is to move; back is asked
		assert.deepEqual(await bothNext(pair, 'offer'), offerBy('front'));
		pair.front.move(script.moves[2].x, script.moves[2].y);
		assert.deepEqual(await bothNext(pair, 'answer'), answerBy('back', false),
			'expected the move to decline the offer (by back, who was asked) before its board');
		position.play(await bothNext(pair, 'board'), 'front', 'both players');
	});

	it('refuses a second offer while one is pending with offer_pending', T, async () => {
		const { pair, position } = await pairAfter(server, 3);
		pair.front.send(TAKEBACK);
		await bothNext(pair, 'offer');
		await expectRefusal(pair.back, TAKEBACK, 'offer_pending');
		await expectRefusal(pair.front, TAKEBACK, 'offer_pending');
		await pair.front.expectNothing(100, 'after the refused offers');
		// The first offer still stands.
		pair.back.send({ type: 'answer', what: 'takeback', accept: true });
		assert.deepEqual(await bothNext(pair, 'answer'), answerBy('back', true));
		await undoBoth(pair, position);
		assert.equal(position.moves, 2);
	});

	it('refuses an answer with no offer of the opponent\'s pending with no_offer', T, async () => {
		const { pair } = await pairAfter(server, 2);
		await expectRefusal(pair.front, { type: 'answer', what: 'takeback', accept: true }, 'no_offer');
		pair.back.send(TAKEBACK);
		await bothNext(pair, 'offer');
		await expectRefusal(pair.back, { type: 'answer', what: 'takeback', accept: true }, 'no_offer');
		await pair.front.expectNothing(100, 'after the offerer tried to answer its own offer');
		pair.front.send({ type: 'answer', what: 'takeback', accept: false });
		assert.deepEqual(await bothNext(pair, 'answer'), answerBy('front', false));
	});

	it('refuses redo between two players with nothing_to_redo, also right after a takeback', T, async () => {
		const { pair, position } = await pairAfter(server, 2);
		await expectRefusal(pair.front, { type: 'redo' }, 'nothing_to_redo');
		pair.back.send(TAKEBACK);
		await bothNext(pair, 'offer');
		pair.front.send({ type: 'answer', what: 'takeback', accept: true });
		await bothNext(pair, 'answer');
		await undoBoth(pair, position);
		await expectRefusal(pair.back, { type: 'redo' }, 'nothing_to_redo');
		await pair.front.expectNothing(100, 'after the refused redo');
	});

	it('refuses an offer before the sender\'s first move with nothing_to_undo', T, async () => {
		const { pair, position } = await pairAfter(server, 0);
		await expectRefusal(pair.front, TAKEBACK, 'nothing_to_undo');
		await playBoth(pair, position, { x: 7, y: 7, role: 'front' });
		await expectRefusal(pair.back, TAKEBACK, 'nothing_to_undo');
		await pair.front.expectNothing(100, 'after the refused offers');
	});

	const BAD_SHAPES = [
		{ type: 'offer' },
		{ type: 'offer', what: 'undo' },
		{ type: 'offer', what: 'Draw' },
		{ type: 'offer', what: 1 },
		{ type: 'offer', what: null },
		{ type: 'answer', accept: true },
		{ type: 'answer', what: 'resign', accept: true },
		{ type: 'answer', what: 'takeback' },
		{ type: 'answer', what: 'takeback', accept: 'yes' },
		{ type: 'answer', what: 'takeback', accept: 1 },
		{ type: 'answer', what: 'takeback', accept: null },
	];

	it('answers offers and answers of the wrong shape with bad_offer, to the sender only, and the pending offer stands', T, async () => {
		const { pair, position } = await pairAfter(server, 3);
		for (const message of BAD_SHAPES)
			await expectRefusal(pair.front, message, 'bad_offer');
		await pair.back.expectNothing(100, 'after the other player\'s malformed requests');
		pair.front.send(TAKEBACK);
		await bothNext(pair, 'offer');
		for (const message of BAD_SHAPES)
			await expectRefusal(pair.back, message, 'bad_offer');
		await pair.front.expectNothing(100, 'after the other player\'s malformed requests');
		pair.back.send({ type: 'answer', what: 'takeback', accept: true });
		await bothNext(pair, 'answer');
		await undoBoth(pair, position);
	});

	it('answers offer, answer and redo of a waiting player with not_in_game, a malformed one with bad_offer', T, async () => {
		const player = await connectWaiting(server);
		await expectRefusal(player, TAKEBACK, 'not_in_game');
		await expectRefusal(player, { type: 'answer', what: 'takeback', accept: false }, 'not_in_game');
		await expectRefusal(player, { type: 'redo' }, 'not_in_game');
		await expectRefusal(player, { type: 'offer', what: 'undo' }, 'bad_offer');
		await player.expectNothing(100, 'after the refused requests');
	});

	it('declines a pending offer with the winning move (answer, board, winner), then offer, answer and redo get game_over', T, async () => {
		const { pair, position, script } = await pairAfter(server, 8);
		pair.back.send(TAKEBACK); // front is to move and wins with it
		await bothNext(pair, 'offer');
		const last = script.moves[8];
		pair.front.move(last.x, last.y);
		assert.deepEqual(await bothNext(pair, 'answer'), answerBy('front', false),
			'expected the winning move to decline the offer first');
		position.play(await bothNext(pair, 'board'), 'front', 'both players');
		position.assertWinner(await bothNext(pair, 'winner'), 'both players');
		for (const client of [pair.front, pair.back]) {
			await expectRefusal(client, TAKEBACK, 'game_over');
			await expectRefusal(client, { type: 'answer', what: 'takeback', accept: true }, 'game_over');
			await expectRefusal(client, { type: 'redo' }, 'game_over');
		}
	});

	it('declines a pending offer when the asked player leaves: answer, then the forfeit', T, async () => {
		const { pair } = await pairAfter(server, 3);
		pair.front.send(TAKEBACK);
		await bothNext(pair, 'offer');
		await pair.back.close(1000);
		assert.deepEqual(await pair.front.next('answer'), answerBy('back', false),
			'expected the leave to decline the offer, by back who was asked');
		const winner = await pair.front.next('winner');
		assert.deepEqual(winner, { type: 'winner', winner: 'front', reason: 'forfeit' },
			`expected front to win by forfeit, got ${JSON.stringify(winner)}`);
		await pair.front.next('disconnect');
	});
});

describe('takeback across a crash', () => {
	let restartable;

	after(async () => {
		await closeAllClients();
		if (restartable)
			await restartable.stop();
	});

	it('journals a takeback: after SIGKILL and a restart both players get the board without the moves taken back', T, async () => {
		restartable = new RestartableServer({ args: ['--reconnect-grace', '10'] });
		let server = await restartable.start();
		const { pair, position } = await pairAfter(server, 5, {
			firstQuery: { name: 'Ann' }, secondQuery: { name: 'Bo' },
		});
		pair.first.name = 'Ann';
		pair.second.name = 'Bo';
		pair.back.send(TAKEBACK); // front replied with the 5th move: two go
		await bothNext(pair, 'offer');
		pair.front.send({ type: 'answer', what: 'takeback', accept: true });
		await bothNext(pair, 'answer');
		await undoBoth(pair, position);
		await undoBoth(pair, position);
		// A move after the takeback takes the freed place in the journal.
		await playBoth(pair, position, { x: 14, y: 14, role: 'back' });
		const played = position.played.slice();
		assert.equal(played.length, 4);
		const live = await gameRecord(server, pair.room, { secrets: [pair.front.uid, pair.back.uid] });
		assert.deepEqual(live.moves, played, 'expected the record to hold the moves without those taken back');

		await restartable.kill();
		await Promise.all([pair.front.waitClosed(), pair.back.waitClosed()]);
		server = await restartable.start();
		const front = await rejoin(server, pair.front);
		await expectResume(front, { room: pair.room, role: 'front', moves: played, size: SIZE });
		const back = await rejoin(server, pair.back);
		await expectResume(back, { room: pair.room, role: 'back', moves: played, size: SIZE });
		const record = await gameRecord(server, pair.room, { secrets: [pair.front.uid, pair.back.uid] });
		assert.deepEqual(record.moves, played, 'expected the record after the restart to hold the moves without those taken back');
		// Front came back first: it heard back was away, then back again.
		await front.next('opponent_back', DEFAULT_TIMEOUT_MS, { skip: ['opponent_away'] });
		// The game goes on from the position after the takeback.
		const cell = naiveCell(position);
		front.move(cell.x, cell.y);
		const [frontBoard, backBoard] = await Promise.all([front.next('board'), back.next('board')]);
		assert.deepEqual(backBoard, frontBoard, 'expected both players to get the same board');
		position.play(frontBoard, 'front', 'front after the restart');
	});
});
