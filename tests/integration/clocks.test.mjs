// Clocks (PROTOCOL.md 10.2): Fischer time controls. Every clock figure is
// checked by arithmetic: the server accepted a move after the test sent it
// and before the test got its board, so the time a side used lies between
// what the test measured from either end. Only one test waits for a flag
// to fall (tc=10+0, the shortest base), with nobody sending anything; the
// first-move abort runs on a short --first-move-timeout.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useServer } from './lib/server.mjs';
import { otherRole } from './lib/client.mjs';
import { winningScript } from './lib/game.mjs';
import { rejoin } from './lib/resume.mjs';
import {
	pairIn, bothNext, expectRefusal, timedMove, timedMoves, quietMoves, parseTc, assertClockShape,
	assertNoClockFields, assertWithin, metricsOf, assertMetricsGrew, CLOCK_SLACK_MS,
} from './lib/protocol2.mjs';
import { testTimeout, scaled, sleep, TIME_SCALE } from './lib/time.mjs';

const T = testTimeout(30_000);
const SIZE = 15;
const TC = '300+5';
const { baseMs: BASE, incMs: INC } = parseTc(TC);
const DEFAULT_FIRST_MOVE_MS = 30_000;
/** How long front "thinks" before a move whose clock is checked: a test input, not a wait. */
const THINK_MS = 300;

/**
 * Asserts that no figure of a board's clock exceeds what the increments
 * allow: base + inc for every move of that side so far.
 */
function assertClockCeiling(board, { baseMs, incMs }) {
	const movesOf = { front: Math.ceil(board.moves / 2), back: Math.floor(board.moves / 2) };
	for (const side of ['front', 'back'])
		assert.ok(board.clock[side] <= baseMs + incMs * movesOf[side],
			`expected ${side}'s clock after ${board.moves} moves to be at most ${baseMs + incMs * movesOf[side]}, ` +
			`got ${JSON.stringify(board)}`);
}

describe('clocks', () => {
	const server = useServer({ args: ['--reconnect-grace', '30'] });

	it('opens a timed room with both clocks at the base and abort_in, and adds the increment to each side\'s first move', T, async () => {
		const pair = await pairIn(server, { tc: TC });
		for (const client of [pair.front, pair.back]) {
			const role = client.roleMessage;
			assert.equal(role.tc, TC);
			assert.deepEqual(role.clock, { front: BASE, back: BASE }, `expected full clocks in ${client.label}'s role, got ${JSON.stringify(role)}`);
			assertWithin(role.abort_in, DEFAULT_FIRST_MOVE_MS - (pair.matchedAt - pair.openedAfter), DEFAULT_FIRST_MOVE_MS,
				`${client.label}'s role.abort_in`);
		}
		const [first, second] = await timedMoves(pair, quietMoves(2, SIZE));
		assert.deepEqual(first.board.clock, { front: BASE + INC, back: BASE },
			`expected front's first move to add the increment and no clock to run, got ${JSON.stringify(first.board)}`);
		assertWithin(first.board.abort_in, DEFAULT_FIRST_MOVE_MS - (first.receivedAt - first.sentAt), DEFAULT_FIRST_MOVE_MS,
			'the first board\'s abort_in (back\'s time to answer)');
		assert.deepEqual(second.board.clock, { front: BASE + INC, back: BASE + INC },
			`expected back's first move to add the increment and no clock to have run, got ${JSON.stringify(second.board)}`);
		assert.equal('abort_in' in second.board, false, `expected no abort_in once 2 moves were played, got ${JSON.stringify(second.board)}`);
	});

	it('runs the clock of the side to move from back\'s first move on, and adds the increment after each move', T, async () => {
		const pair = await pairIn(server, { tc: TC });
		const moves = quietMoves(6, SIZE);
		const played = await timedMoves(pair, moves.slice(0, 2));
		for (const move of moves.slice(2)) {
			// The mover thinks a while, so that its clock visibly runs.
			await sleep(THINK_MS);
			played.push(await timedMove(pair, move));
		}
		for (let i = 2; i < played.length; i++) {
			const { board, sentAt, receivedAt } = played[i];
			const previous = played[i - 1];
			const mover = moves[i].role;
			const waiter = otherRole(mover);
			assertClockShape(board);
			assertClockCeiling(board, { baseMs: BASE, incMs: INC });
			assert.equal('abort_in' in board, false, `expected no abort_in after move ${i + 1}, got ${JSON.stringify(board)}`);
			// The side that waited kept its figure to the millisecond.
			assert.equal(board.clock[waiter], previous.board.clock[waiter],
				`expected ${waiter}'s clock to stand still while ${mover} thought, got ${JSON.stringify(previous.board)} then ${JSON.stringify(board)}`);
			// The mover used between (sent - previous received) and (received - previous sent).
			const before = played[i - 2].board.clock[mover];
			assertWithin(board.clock[mover],
				before + INC - (receivedAt - previous.sentAt),
				before + INC - (sentAt - previous.receivedAt),
				`${mover}'s clock after move ${i + 1} (it had ${before}, +${INC}, less its thinking time)`);
			assert.ok(board.clock[mover] <= before + INC - THINK_MS + CLOCK_SLACK_MS,
				`expected ${mover}'s ${THINK_MS} ms of thought charged, got ${before} then ${JSON.stringify(board)}`);
		}
	});

	it('gives untimed games no clock and no abort_in in role, board or winner, with tc=none or no tc', T, async () => {
		for (const query of [{}, { tc: 'none' }]) {
			const pair = await pairIn(server, query);
			for (const client of [pair.front, pair.back]) {
				assert.equal(client.roleMessage.tc, 'none');
				assertNoClockFields(client.roleMessage, client.label);
			}
			const script = winningScript({ size: SIZE, winner: 'back', direction: 'vertical', start: { x: 4, y: 3 } });
			for (const move of script.moves)
				assertNoClockFields((await timedMove(pair, move)).board);
			const winner = await bothNext(pair, 'winner');
			assert.equal(winner.reason, 'five');
			assertNoClockFields(winner);
			await pair.front.close(1000);
			await pair.back.close(1000);
		}
	});

	it('gives a resumed seat the clocks of that moment: the away side\'s clock ran meanwhile', T, async () => {
		const pair = await pairIn(server, { tc: TC });
		const played = await timedMoves(pair, quietMoves(3, SIZE)); // back to move
		const last = played[2];
		await pair.back.terminate();
		await pair.front.next('opponent_away');
		await sleep(THINK_MS); // the away player's clock runs
		const rejoinedAt = Date.now();
		const back = await rejoin(server, pair.back);
		const role = await back.next('role');
		const roleAt = Date.now();
		assert.equal(role.room, pair.room);
		assertClockShape(role, back.label);
		assert.equal('abort_in' in role, false, `expected no abort_in after 3 moves, got ${JSON.stringify(role)}`);
		assert.equal(role.clock.front, last.board.clock.front, `expected front's clock as of its move, got ${JSON.stringify(role)}`);
		assertWithin(role.clock.back,
			last.board.clock.back - (roleAt - last.sentAt),
			last.board.clock.back - (rejoinedAt - last.receivedAt),
			'back\'s clock in the role of its resumed seat');
		assert.ok(role.clock.back <= last.board.clock.back - THINK_MS + CLOCK_SLACK_MS,
			`expected back's clock to have run while it was away, got ${JSON.stringify(last.board)} then ${JSON.stringify(role)}`);
		const board = await back.next('board');
		assertClockShape(board, back.label);
		assert.equal(board.clock.front, last.board.clock.front);
		assertWithin(board.clock.back, last.board.clock.back - (Date.now() - last.sentAt), role.clock.back,
			'back\'s clock in the board of its resumed seat');
		await pair.front.next('opponent_back');
		const resumed = { front: pair.front, back };
		const next = await timedMove(resumed, quietMoves(4, SIZE)[3]);
		assertWithin(next.board.clock.back,
			last.board.clock.back + INC - (next.receivedAt - last.sentAt),
			last.board.clock.back + INC - (next.sentAt - last.receivedAt),
			'back\'s clock after its first move back');
	});

	it('gives a seat resumed before the second move abort_in counted from the first move', T, async () => {
		const pair = await pairIn(server, { tc: TC });
		const first = await timedMove(pair, quietMoves(1, SIZE)[0]);
		await pair.back.terminate();
		await pair.front.next('opponent_away');
		const rejoinedAt = Date.now();
		const back = await rejoin(server, pair.back);
		const role = await back.next('role');
		const roleAt = Date.now();
		assert.deepEqual(role.clock, { front: BASE + INC, back: BASE }, `expected no clock to have run, got ${JSON.stringify(role)}`);
		assertWithin(role.abort_in,
			first.board.abort_in - (roleAt - first.sentAt),
			first.board.abort_in - (rejoinedAt - first.receivedAt),
			'abort_in in the role of the resumed seat');
		const board = await back.next('board');
		assert.ok(Number.isInteger(board.abort_in) && board.abort_in <= first.board.abort_in,
			`expected the resumed board to carry abort_in, got ${JSON.stringify(board)}`);
	});

	it('gives no time back on a takeback: the clocks stay, and the clock of the side to move runs on', T, async () => {
		const metricsBefore = await metricsOf(server);
		const pair = await pairIn(server, { tc: TC });
		const played = await timedMoves(pair, quietMoves(4, SIZE)); // front to move
		const last = played[3];
		pair.front.send({ type: 'offer', what: 'takeback' });
		await bothNext(pair, 'offer');
		pair.back.send({ type: 'answer', what: 'takeback', accept: true });
		await bothNext(pair, 'answer');
		const undone = [await bothNext(pair, 'board'), await bothNext(pair, 'board')];
		const undoneAt = Date.now();
		for (const board of undone) {
			assertClockShape(board);
			assert.equal(board.clock.back, last.board.clock.back,
				`expected back's clock to stay as it was (no time given back), got ${JSON.stringify(last.board)} then ${JSON.stringify(board)}`);
			assertWithin(board.clock.front, last.board.clock.front - (undoneAt - last.sentAt), last.board.clock.front,
				'front\'s clock in a takeback board (it kept running)');
		}
		assert.equal(undone[1].role, 'front');
		const replay = await timedMove(pair, played[2].board.move);
		assertWithin(replay.board.clock.front,
			last.board.clock.front + INC - (replay.receivedAt - last.sentAt),
			last.board.clock.front + INC - (replay.sentAt - last.receivedAt),
			'front\'s clock after its move following the takeback (it ran all along)');
		assert.equal(replay.board.clock.back, last.board.clock.back);
		assertMetricsGrew(metricsBefore, await metricsOf(server), { 'gomoku_offers_total{what="takeback",answer="accepted"}': 1 });
	});

	it('ends the game when the flag falls with nobody sending anything: the other side wins by timeout, the loser\'s clock at 0', testTimeout(60_000), async () => {
		const tc = '10+0';
		const before = await metricsOf(server);
		const pair = await pairIn(server, { tc });
		const [, second] = await timedMoves(pair, quietMoves(2, SIZE));
		assert.deepEqual(second.board.clock, { front: 10_000, back: 10_000 });
		// front is to move and sends nothing; neither does back.
		const winner = await bothNext(pair, 'winner', scaled(10_000 + 5000));
		const endedAt = Date.now();
		assert.equal(winner.winner, 'back', `expected back to win on time, got ${JSON.stringify(winner)}`);
		assert.equal(winner.reason, 'timeout', `expected reason timeout, got ${JSON.stringify(winner)}`);
		assert.deepEqual(winner.clock, { front: 0, back: 10_000 },
			`expected the final clock to show front at 0 and back untouched, got ${JSON.stringify(winner)}`);
		assert.equal('line' in winner, false);
		assert.ok(endedAt - second.sentAt >= 10_000 - CLOCK_SLACK_MS,
			`expected the flag to fall no sooner than 10 s after back's move, it fell after ${endedAt - second.sentAt} ms`);
		await expectRefusal(pair.front, { type: 'move', x: 1, y: 1 }, 'game_over');
		await expectRefusal(pair.back, { type: 'move', x: 1, y: 1 }, 'game_over');
		assertMetricsGrew(before, await metricsOf(server), { 'gomoku_games_finished_total{reason="timeout"}': 1 });
	});
});

describe('the first-move timeout', () => {
	// Short, scaled as a deadline (under valgrind the players need time to move).
	const FIRST_MOVE_S = Math.max(1, Math.ceil(TIME_SCALE));
	const FIRST_MOVE_MS = FIRST_MOVE_S * 1000;
	const TIMED = '60+0';
	const server = useServer({ args: ['--first-move-timeout', String(FIRST_MOVE_S)] });

	it('aborts a timed game whose front does not move in time: winner none, reason aborted', T, async () => {
		const before = await metricsOf(server);
		const pair = await pairIn(server, { tc: TIMED });
		for (const client of [pair.front, pair.back])
			assertWithin(client.roleMessage.abort_in, FIRST_MOVE_MS - (pair.matchedAt - pair.openedAfter), FIRST_MOVE_MS,
				`${client.label}'s role.abort_in`);
		const winner = await bothNext(pair, 'winner', scaled(FIRST_MOVE_MS + 5000));
		const endedAt = Date.now();
		assert.equal(winner.winner, 'none', `expected winner none, got ${JSON.stringify(winner)}`);
		assert.equal(winner.reason, 'aborted', `expected reason aborted, got ${JSON.stringify(winner)}`);
		assert.deepEqual(winner.clock, { front: 60_000, back: 60_000 }, `expected the final clocks untouched, got ${JSON.stringify(winner)}`);
		assert.ok(endedAt - pair.openedAfter >= FIRST_MOVE_MS - CLOCK_SLACK_MS,
			`expected the abort no sooner than ${FIRST_MOVE_MS} ms after the room opened, it came after ${endedAt - pair.openedAfter} ms`);
		await expectRefusal(pair.front, { type: 'move', x: 7, y: 7 }, 'game_over');
		assertMetricsGrew(before, await metricsOf(server), { 'gomoku_games_finished_total{reason="aborted"}': 1 });
	});

	it('aborts a timed game whose back does not answer front\'s first move in time', T, async () => {
		const pair = await pairIn(server, { tc: TIMED });
		const first = await timedMove(pair, { x: 7, y: 7, role: 'front' });
		assertWithin(first.board.abort_in, FIRST_MOVE_MS - (first.receivedAt - first.sentAt), FIRST_MOVE_MS,
			'the first board\'s abort_in');
		const winner = await bothNext(pair, 'winner', scaled(FIRST_MOVE_MS + 5000));
		const endedAt = Date.now();
		assert.deepEqual([winner.winner, winner.reason], ['none', 'aborted'], `expected an abort, got ${JSON.stringify(winner)}`);
		assert.ok(endedAt - first.sentAt >= FIRST_MOVE_MS - CLOCK_SLACK_MS,
			`expected the abort no sooner than ${FIRST_MOVE_MS} ms after front's move, it came after ${endedAt - first.sentAt} ms`);
		await expectRefusal(pair.back, { type: 'move', x: 8, y: 8 }, 'game_over');
	});

	it('does not abort an untimed game, which has no first-move timeout', T, async () => {
		const pair = await pairIn(server, {});
		assertNoClockFields(pair.front.roleMessage);
		// Silence assertion: longer than the timeout, not scaled up.
		await pair.front.expectNothing(FIRST_MOVE_MS + 500, 'in an untimed game past the first-move timeout');
		await pair.back.expectNothing(0);
		await timedMove(pair, { x: 7, y: 7, role: 'front' });
	});
});
