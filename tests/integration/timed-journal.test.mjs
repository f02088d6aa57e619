// The journal of protocol 2 (PROTOCOL.md 10.7): a timed game survives a
// kill -9 and a restart with the clocks of its last accepted move (the
// time the server was down is charged to nobody; the clock of the side to
// move, and the first-move timeout, start again with the server), and
// GET /api/games/ID shows tc, the clocks (of the game and of each move),
// the reason of the end and, for a rematch, rematch_of.

import { describe, it, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';

import { closeAllClients } from './lib/client.mjs';
import { RestartableServer, rejoin, gameRecord } from './lib/resume.mjs';
import {
	pairIn, bothNext, timedMove, timedMoves, quietMoves, parseTc, assertClockShape, assertWithin,
} from './lib/protocol2.mjs';
import { testTimeout, sleep } from './lib/time.mjs';

const T = testTimeout(60_000);
const SIZE = 15;
const TC = '300+5';
const { incMs: INC } = parseTc(TC);
const DEFAULT_FIRST_MOVE_MS = 30_000;
/** How long the server stays down: long enough to tell if it were charged. */
const DOWN_MS = 1000;
const THINK_MS = 200;

/** Checks that the record's moves carry the clocks the boards did. */
function assertMoveClocks(record, played) {
	assert.equal(record.moves.length, played.length, `expected ${played.length} moves, got ${JSON.stringify(record.moves)}`);
	record.moves.forEach((move, i) => {
		const { board } = played[i];
		assert.deepEqual({ x: move.x, y: move.y, role: move.role }, board.move);
		assert.deepEqual(move.clock, board.clock,
			`expected move ${i + 1} of the record to carry the clock its board did (${JSON.stringify(board.clock)}), got ${JSON.stringify(move)}`);
	});
}

describe('timed games in the journal', () => {
	let restartable = null;

	afterEach(async () => {
		await closeAllClients();
		if (restartable)
			await restartable.stop();
		restartable = null;
	});
	after(closeAllClients);

	it('resumes a timed game after kill -9 with the clocks of its last accepted move; the downtime is charged to nobody', T, async () => {
		restartable = new RestartableServer({ args: ['--reconnect-grace', '30'] });
		let server = await restartable.start();
		const pair = await pairIn(server, { tc: TC }, { names: ['Ann', 'Bo'] });
		const moves = quietMoves(5, SIZE);
		const played = await timedMoves(pair, moves.slice(0, 2));
		await sleep(THINK_MS); // front's clock runs
		played.push(await timedMove(pair, moves[2]));
		const last = played[2].board; // back to move
		const live = await gameRecord(server, pair.room, { secrets: [pair.front.uid, pair.back.uid] });
		assert.equal(live.tc, TC, `expected the record to show tc, got ${JSON.stringify(live)}`);
		assert.equal(live.status, 'live');
		assert.deepEqual(live.clock, last.clock, `expected a live record's clock to be that of its last move, got ${JSON.stringify(live)}`);
		assertMoveClocks(live, played);

		await restartable.kill();
		await Promise.all([pair.front.waitClosed(), pair.back.waitClosed()]);
		await sleep(DOWN_MS); // the server is down a while
		const startedAt = Date.now();
		server = await restartable.start();
		const readyAt = Date.now();

		const back = await rejoin(server, pair.back);
		const backRole = await back.next('role');
		const backRoleAt = Date.now();
		assert.equal(backRole.room, pair.room);
		assertClockShape(backRole, back.label);
		assert.equal(backRole.clock.front, last.clock.front, `expected front's clock as of its last move, got ${JSON.stringify(backRole)}`);
		assertWithin(backRole.clock.back, last.clock.back - (backRoleAt - startedAt), last.clock.back,
			'back\'s clock after the restart (running only since the server started again)');
		await back.next('board');
		const front = await rejoin(server, pair.front);
		const frontRole = await front.next('role');
		assert.equal(frontRole.clock.front, last.clock.front);
		assert.ok(frontRole.clock.back <= backRole.clock.back, `expected back's clock to keep running, got ${JSON.stringify(backRole)} then ${JSON.stringify(frontRole)}`);
		await front.next('board');
		await back.next('opponent_back', undefined, { skip: ['opponent_away'] });

		const resumed = { front, back };
		const fourth = await timedMove(resumed, moves[3]);
		assertWithin(fourth.board.clock.back,
			last.clock.back + INC - (fourth.receivedAt - startedAt),
			last.clock.back + INC - (fourth.sentAt - readyAt),
			'back\'s clock after its first move since the restart');
		assert.equal(fourth.board.clock.front, last.clock.front);
		played.push(fourth);
		assertMoveClocks(await gameRecord(server, pair.room), played);

		front.send({ type: 'resign' });
		const winner = await bothNext(resumed, 'winner');
		assert.deepEqual([winner.winner, winner.reason], ['back', 'resign']);
		assertClockShape(winner);
		const finished = await gameRecord(server, pair.room);
		assert.equal(finished.status, 'finished');
		assert.equal(finished.tc, TC);
		assert.equal(finished.result.reason, 'resign', `expected the record's reason, got ${JSON.stringify(finished)}`);
		assert.equal(finished.result.winner, 'back');
		assert.deepEqual(finished.clock, winner.clock, `expected the final clocks in the record, got ${JSON.stringify(finished)}`);
		assertMoveClocks(finished, played); // kept across the restart to the end
	});

	it('resumes a timed game after a takeback and kill -9 with the clocks of the takeback; the record keeps each move\'s clock to the end', T, async () => {
		restartable = new RestartableServer({ args: ['--reconnect-grace', '30'] });
		let server = await restartable.start();
		const pair = await pairIn(server, { tc: TC });
		const moves = quietMoves(5, SIZE);
		const played = await timedMoves(pair, moves.slice(0, 4)); // front to move
		await sleep(THINK_MS); // front's clock runs
		pair.front.send({ type: 'offer', what: 'takeback' });
		await bothNext(pair, 'offer');
		pair.back.send({ type: 'answer', what: 'takeback', accept: true });
		await bothNext(pair, 'answer');
		await bothNext(pair, 'board');
		const undone = await bothNext(pair, 'board'); // 2 moves left, front to move
		assertClockShape(undone);
		const live = await gameRecord(server, pair.room);
		assert.deepEqual(live.clock, undone.clock, `expected a live record's clock to be that of the takeback, got ${JSON.stringify(live)}`);
		assertMoveClocks(live, played.slice(0, 2));

		await restartable.kill();
		await Promise.all([pair.front.waitClosed(), pair.back.waitClosed()]);
		await sleep(DOWN_MS);
		const startedAt = Date.now();
		server = await restartable.start();
		const front = await rejoin(server, pair.front);
		const role = await front.next('role');
		const roleAt = Date.now();
		assert.equal(role.clock.back, undone.clock.back, `expected back's clock as of the takeback, got ${JSON.stringify(role)}`);
		assertWithin(role.clock.front, undone.clock.front - (roleAt - startedAt), undone.clock.front,
			'front\'s clock after the restart (as of the takeback, running only since the server started again)');
		await front.next('board');
		const back = await rejoin(server, pair.back);
		await back.next('role');
		await back.next('board');
		await front.next('opponent_back', undefined, { skip: ['opponent_away'] });

		const resumed = { front, back };
		const replayed = [...played.slice(0, 2), await timedMove(resumed, moves[2])];
		back.send({ type: 'resign' });
		const winner = await bothNext(resumed, 'winner');
		const finished = await gameRecord(server, pair.room);
		assert.equal(finished.result.reason, 'resign');
		assert.deepEqual(finished.clock, winner.clock);
		assertMoveClocks(finished, replayed);
	});

	it('resumes a timed game of one move after kill -9 with abort_in counted again from the restart', T, async () => {
		restartable = new RestartableServer({ args: ['--reconnect-grace', '30'] });
		let server = await restartable.start();
		const pair = await pairIn(server, { tc: TC });
		const [first] = await timedMoves(pair, quietMoves(1, SIZE));
		await restartable.kill();
		await Promise.all([pair.front.waitClosed(), pair.back.waitClosed()]);
		await sleep(DOWN_MS);
		const startedAt = Date.now();
		server = await restartable.start();
		const back = await rejoin(server, pair.back);
		const role = await back.next('role');
		const roleAt = Date.now();
		assert.deepEqual(role.clock, first.board.clock, `expected the clocks of the first move, got ${JSON.stringify(role)}`);
		assertWithin(role.abort_in, DEFAULT_FIRST_MOVE_MS - (roleAt - startedAt), DEFAULT_FIRST_MOVE_MS,
			'abort_in after the restart (the first-move timeout starts again with the server)');
	});

	it('records the reason of each ending, tc none and no clocks for an untimed game, and rematch_of across a restart', T, async () => {
		restartable = new RestartableServer({ args: ['--reconnect-grace', '30'] });
		let server = await restartable.start();

		// An untimed game agreed drawn.
		const drawn = await pairIn(server, {});
		await timedMoves(drawn, quietMoves(2, SIZE));
		drawn.front.send({ type: 'offer', what: 'draw' });
		await bothNext(drawn, 'offer');
		drawn.back.send({ type: 'answer', what: 'draw', accept: true });
		await bothNext(drawn, 'answer');
		await bothNext(drawn, 'winner');
		const drawnRecord = await gameRecord(server, drawn.room);
		assert.equal(drawnRecord.tc, 'none', `expected tc none for an untimed game, got ${JSON.stringify(drawnRecord)}`);
		assert.equal('clock' in drawnRecord, false, `expected no clock in an untimed record, got ${JSON.stringify(drawnRecord)}`);
		assert.ok(drawnRecord.moves.every((move) => !('clock' in move)), `expected no clock on an untimed game's moves, got ${JSON.stringify(drawnRecord)}`);
		assert.equal(drawnRecord.result.winner, 'draw');
		assert.equal(drawnRecord.result.reason, 'agreement');

		// A timed game aborted after one move, then a rematch of it.
		const aborted = await pairIn(server, { tc: '60+0' });
		const [first] = await timedMoves(aborted, quietMoves(1, SIZE));
		aborted.back.send({ type: 'abort' });
		await bothNext(aborted, 'winner');
		const abortedRecord = await gameRecord(server, aborted.room);
		assert.equal(abortedRecord.result.reason, 'aborted', `expected reason aborted, got ${JSON.stringify(abortedRecord)}`);
		assert.notEqual(abortedRecord.result.winner, 'front');
		assert.notEqual(abortedRecord.result.winner, 'back');
		assert.equal(abortedRecord.tc, '60+0');
		assert.deepEqual(abortedRecord.clock, first.board.clock);

		aborted.front.send({ type: 'offer', what: 'rematch' });
		await bothNext(aborted, 'offer');
		aborted.back.send({ type: 'answer', what: 'rematch', accept: true });
		await bothNext(aborted, 'answer');
		const [oldFront, oldBack] = await Promise.all([aborted.front.next('role'), aborted.back.next('role')]);
		const second = { front: aborted.back, back: aborted.front, room: oldFront.room };
		assert.equal(oldBack.role, 'front');
		await timedMoves(second, quietMoves(1, SIZE));
		assert.equal((await gameRecord(server, second.room)).rematch_of, aborted.room);

		await restartable.kill();
		server = await restartable.start();
		const record = await gameRecord(server, second.room);
		assert.equal(record.rematch_of, aborted.room, `expected rematch_of kept across a restart, got ${JSON.stringify(record)}`);
		assert.equal(record.tc, '60+0');
		assert.equal(record.status, 'live');
		assert.equal((await gameRecord(server, aborted.room)).result.reason, 'aborted');
		assert.equal((await gameRecord(server, drawn.room)).result.reason, 'agreement');
	});
});
