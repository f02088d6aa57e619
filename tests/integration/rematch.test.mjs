// Rematch (PROTOCOL.md 10.4): after a game ends, with both players still
// seated, an offer and an accept start a new game in the same pool with
// the sides swapped (a fresh role and room for each); offering in a live
// game is bad_offer, to a player who left opponent_gone; a player who
// leaves declines a pending rematch; a declined rematch may not be offered
// again for 10 s; the engine accepts at once; the journal keeps the id of
// the game before (rematch_of); /metrics counts the answers.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useServer } from './lib/server.mjs';
import { otherRole } from './lib/client.mjs';
import { winningScript } from './lib/game.mjs';
import { connectAi } from './lib/ai.mjs';
import { gameRecord } from './lib/resume.mjs';
import {
	pairIn, bothNext, expectRefusal, timedMove, timedMoves, quietMoves, metricsOf, assertMetricsGrew,
	assertNoClockFields, seat,
} from './lib/protocol2.mjs';
import { testTimeout } from './lib/time.mjs';

const T = testTimeout(30_000);
const SIZE = 15;
const REMATCH = { type: 'offer', what: 'rematch' };

function rematchAnswer(accept) {
	return { type: 'answer', what: 'rematch', accept };
}

/** A pair (pool `query`, names Ann and Bo) whose game front won by five. */
async function finishedPair(server, query = {}) {
	const pair = await pairIn(server, query, { names: ['Ann', 'Bo'] });
	const size = query.size || SIZE;
	const script = winningScript({ size, winner: 'front', direction: 'horizontal', start: { x: 0, y: 2 } });
	await timedMoves(pair, script.moves);
	const winner = await bothNext(pair, 'winner');
	assert.equal(winner.reason, 'five');
	return pair;
}

/**
 * Offer by `offerer` ('front' or 'back'), accept by the other; checks
 * offer and answer to both, and resolves with the new pair (the same
 * clients under their new sides) and the new roles.
 */
async function rematch(pair, offerer) {
	const asked = otherRole(offerer);
	seat(pair, offerer).send(REMATCH);
	assert.deepEqual(await bothNext(pair, 'offer'), { type: 'offer', what: 'rematch', by: offerer });
	seat(pair, asked).send(rematchAnswer(true));
	assert.deepEqual(await bothNext(pair, 'answer'), { type: 'answer', what: 'rematch', accept: true, by: asked });
	const [oldFrontRole, oldBackRole] = await Promise.all([pair.front.next('role'), pair.back.next('role')]);
	return {
		front: pair.back, back: pair.front, room: oldFrontRole.room,
		frontRole: oldBackRole, backRole: oldFrontRole,
	};
}

describe('rematch', () => {
	const server = useServer();

	it('starts a new game in the same pool with the sides swapped once the opponent accepts: fresh roles, a new room', T, async () => {
		const before = await metricsOf(server);
		const pair = await finishedPair(server, { size: 13, rule: 'standard' });
		const next = await rematch(pair, 'back');
		assert.notEqual(next.room, pair.room, 'expected a new room id');
		assert.equal(next.backRole.room, next.room, 'expected both players in the same new room');
		assert.equal(next.frontRole.role, 'front', `expected the old back to be front now, got ${JSON.stringify(next.frontRole)}`);
		assert.equal(next.backRole.role, 'back', `expected the old front to be back now, got ${JSON.stringify(next.backRole)}`);
		for (const role of [next.frontRole, next.backRole]) {
			assert.equal(role.size, 13);
			assert.equal(role.rule, 'standard');
			assert.equal(role.tc, 'none');
			assertNoClockFields(role);
		}
		assert.deepEqual(next.frontRole.opponent, { name: pair.front === pair.first ? 'Ann' : 'Bo' },
			`expected the opponent's name in the new role, got ${JSON.stringify(next.frontRole)}`);
		// The new game starts empty and plays as any other.
		await timedMoves(next, quietMoves(3, 13));
		assertMetricsGrew(before, await metricsOf(server), { 'gomoku_offers_total{what="rematch",answer="accepted"}': 1 });
		// The old room is closed; its record stays finished.
		const old = await gameRecord(server, pair.room);
		assert.equal(old.status, 'finished');
		const record = await gameRecord(server, next.room, { secrets: [pair.front.uid, pair.back.uid] });
		assert.equal(record.rematch_of, pair.room, `expected rematch_of to name the game before, got ${JSON.stringify(record)}`);
		assert.equal(record.moves.length, 3);
	});

	it('rematches a timed game with fresh clocks and abort_in', T, async () => {
		const pair = await pairIn(server, { tc: '60+1' });
		await timedMoves(pair, quietMoves(2, SIZE));
		pair.front.send({ type: 'resign' });
		await bothNext(pair, 'winner');
		const next = await rematch(pair, 'front');
		for (const role of [next.frontRole, next.backRole]) {
			assert.equal(role.tc, '60+1');
			assert.deepEqual(role.clock, { front: 60_000, back: 60_000 }, `expected fresh clocks, got ${JSON.stringify(role)}`);
			assert.ok(Number.isInteger(role.abort_in) && role.abort_in > 0, `expected abort_in, got ${JSON.stringify(role)}`);
		}
		const first = await timedMove(next, { x: 7, y: 7, role: 'front' });
		assert.deepEqual(first.board.clock, { front: 61_000, back: 60_000 });
	});

	it('rematches after an abort and after a draw by agreement', T, async () => {
		const pair = await pairIn(server, {});
		pair.back.send({ type: 'abort' });
		await bothNext(pair, 'winner');
		const second = await rematch(pair, 'front');
		await timedMoves(second, quietMoves(1, SIZE));
		second.front.send({ type: 'offer', what: 'draw' });
		await bothNext(second, 'offer');
		second.back.send({ type: 'answer', what: 'draw', accept: true });
		await bothNext(second, 'answer');
		assert.equal((await bothNext(second, 'winner')).winner, 'draw');
		const third = await rematch(second, 'back');
		assert.notEqual(third.room, second.room);
		assert.equal(third.front, pair.front, 'expected the sides swapped twice: back where it started');
	});

	it('declines for both; the offerer may not offer again within 10 s (too_soon), the other may', T, async () => {
		const before = await metricsOf(server);
		const pair = await finishedPair(server);
		pair.front.send(REMATCH);
		await bothNext(pair, 'offer');
		pair.back.send(rematchAnswer(false));
		assert.deepEqual(await bothNext(pair, 'answer'), { type: 'answer', what: 'rematch', accept: false, by: 'back' });
		await pair.front.expectNothing(100, 'after a declined rematch');
		await expectRefusal(pair.front, REMATCH, 'too_soon');
		pair.back.send(REMATCH);
		assert.deepEqual(await bothNext(pair, 'offer'), { type: 'offer', what: 'rematch', by: 'back' });
		await expectRefusal(pair.back, REMATCH, 'offer_pending');
		await expectRefusal(pair.back, rematchAnswer(true), 'no_offer');
		pair.front.send(rematchAnswer(false));
		await bothNext(pair, 'answer');
		assertMetricsGrew(before, await metricsOf(server), { 'gomoku_offers_total{what="rematch",answer="declined"}': 2 });
	});

	it('refuses a rematch offer in a live game with bad_offer', T, async () => {
		const pair = await pairIn(server, {});
		await expectRefusal(pair.front, REMATCH, 'bad_offer');
		await timedMoves(pair, quietMoves(3, SIZE));
		await expectRefusal(pair.front, REMATCH, 'bad_offer');
		await expectRefusal(pair.back, REMATCH, 'bad_offer');
		await pair.front.expectNothing(50);
		await pair.back.expectNothing(0);
	});

	it('answers a rematch answer with no rematch offer pending with no_offer', T, async () => {
		const pair = await finishedPair(server);
		await expectRefusal(pair.back, rematchAnswer(true), 'no_offer');
	});

	it('refuses a rematch offered when the opponent has left with opponent_gone', T, async () => {
		const pair = await finishedPair(server);
		await pair.back.close(1000);
		await pair.front.next('disconnect');
		await expectRefusal(pair.front, REMATCH, 'opponent_gone');
	});

	it('declines a pending rematch when the asked player leaves: answer false, then disconnect', T, async () => {
		const before = await metricsOf(server);
		const pair = await finishedPair(server);
		pair.front.send(REMATCH);
		await bothNext(pair, 'offer');
		await pair.back.close(1000);
		assert.deepEqual(await pair.front.next('answer'), { type: 'answer', what: 'rematch', accept: false, by: 'back' });
		await pair.front.next('disconnect');
		assertMetricsGrew(before, await metricsOf(server), { 'gomoku_offers_total{what="rematch",answer="declined"}': 1 });
	});

	it('declines a pending rematch when the offerer leaves: answer false, then disconnect', T, async () => {
		const pair = await finishedPair(server);
		pair.front.send(REMATCH);
		await bothNext(pair, 'offer');
		await pair.front.close(1000);
		// Which side `by` names for a leaving offerer the document leaves open.
		const answer = await pair.back.next('answer');
		assert.deepEqual([answer.what, answer.accept], ['rematch', false], `expected the rematch declined, got ${JSON.stringify(answer)}`);
		await pair.back.next('disconnect');
	});
});

describe('rematch against the engine', () => {
	const server = useServer({ args: ['--ai-ms', '50'] });

	it('is accepted at once: a new room with the sides swapped, the engine moving first when it is front', T, async () => {
		const player = await connectAi(server, { level: 'easy' });
		player.send({ type: 'resign' });
		await player.next('winner', undefined, { skip: ['board'] });
		player.send(REMATCH);
		const answer = await player.next('answer', undefined, { skip: ['offer'] });
		assert.deepEqual(answer, { type: 'answer', what: 'rematch', accept: true, by: player.engineRole });
		const role = await player.next('role');
		assert.notEqual(role.room, player.roleMessage.room);
		assert.equal(role.role, player.engineRole, `expected the player to take the engine's old side, got ${JSON.stringify(role)}`);
		assert.deepEqual(role.opponent, { ai: true, level: 'easy' });
		if (role.role === 'back') {
			const board = await player.next('board');
			assert.equal(board.move.role, 'front', 'expected the engine, now front, to move first');
		}
	});
});
