// Resign, abort and draw (PROTOCOL.md 10.3): each ending told to both
// players with its winner and reason; abort only before the second move
// (too_late after); draw offers under the rules of takeback offers
// (offer_pending, a move or a leave declines, too_soon after a decline;
// a pending offer lapses when the game ends another way); every request
// of a finished game gets game_over but rematch offers and emotes; a
// waiting player's get not_in_game; /metrics counts the new reasons and
// the answered offers.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useServer } from './lib/server.mjs';
import { connectAi } from './lib/ai.mjs';
import {
	pairIn, waitIn, bothNext, expectRefusal, timedMoves, quietMoves, metricsOf, assertMetricsGrew,
	assertNoClockFields, seat,
} from './lib/protocol2.mjs';
import { testTimeout } from './lib/time.mjs';

const T = testTimeout(30_000);
const SIZE = 15;
const RESIGN = { type: 'resign' };
const ABORT = { type: 'abort' };
const DRAW = { type: 'offer', what: 'draw' };
const TAKEBACK = { type: 'offer', what: 'takeback' };

function drawAnswer(accept) {
	return { type: 'answer', what: 'draw', accept };
}

/** A pair with `count` quiet moves played. */
async function pairAfter(server, count, query = {}) {
	const pair = await pairIn(server, query);
	await timedMoves(pair, quietMoves(count, SIZE));
	return pair;
}

/** The requests a finished game refuses with game_over. */
const AFTER_THE_END = [
	RESIGN, ABORT, DRAW, drawAnswer(true), drawAnswer(false), TAKEBACK,
	{ type: 'answer', what: 'takeback', accept: true }, { type: 'move', x: 14, y: 14 },
];

async function expectGameOverForAll(pair) {
	for (const client of [pair.front, pair.back])
		for (const message of AFTER_THE_END)
			await expectRefusal(client, message, 'game_over');
}

describe('resign', () => {
	const server = useServer();

	for (const [resigner, moves] of [['front', 3], ['back', 3], ['back', 0]]) {
		it(`ends the game when ${resigner} resigns after ${moves} moves${moves % 2 === 1 && resigner === 'front' ? ' (out of turn)' : ''}: the other side wins, reason resign, no line`, T, async () => {
			const before = await metricsOf(server);
			const pair = await pairAfter(server, moves);
			seat(pair, resigner).send(RESIGN);
			const winner = await bothNext(pair, 'winner');
			assert.deepEqual(winner, { type: 'winner', winner: resigner === 'front' ? 'back' : 'front', reason: 'resign' },
				`expected the other side to win by resign, got ${JSON.stringify(winner)}`);
			assertMetricsGrew(before, await metricsOf(server), { 'gomoku_games_finished_total{reason="resign"}': 1 });
		});
	}

	it('refuses a second resign, by either side, and every other request of the finished game with game_over', T, async () => {
		const pair = await pairAfter(server, 2);
		pair.front.send(RESIGN);
		await bothNext(pair, 'winner');
		await expectGameOverForAll(pair);
		await pair.front.expectNothing(50);
		await pair.back.expectNothing(0);
	});

	it('carries the final clocks in the winner of a timed game ended by resign', T, async () => {
		const pair = await pairAfter(server, 2, { tc: '120+3' });
		pair.back.send(RESIGN);
		const winner = await bothNext(pair, 'winner');
		assert.equal(winner.winner, 'front');
		assert.equal(winner.reason, 'resign');
		assert.ok(winner.clock && winner.clock.back === 123_000 && winner.clock.front <= 123_000,
			`expected the final clock in the winner, got ${JSON.stringify(winner)}`);
	});
});

describe('abort', () => {
	const server = useServer();

	for (const [aborter, moves] of [['front', 0], ['back', 0], ['back', 1], ['front', 1]]) {
		it(`aborts the game when ${aborter} asks after ${moves} moves: winner none, reason aborted, to both`, T, async () => {
			const before = await metricsOf(server);
			const pair = await pairAfter(server, moves);
			seat(pair, aborter).send(ABORT);
			const winner = await bothNext(pair, 'winner');
			assert.deepEqual(winner, { type: 'winner', winner: 'none', reason: 'aborted' },
				`expected an aborted untimed game, got ${JSON.stringify(winner)}`);
			assertMetricsGrew(before, await metricsOf(server), { 'gomoku_games_finished_total{reason="aborted"}': 1 });
			await expectGameOverForAll(pair);
		});
	}

	for (const moves of [2, 3]) {
		it(`refuses abort after ${moves} moves with too_late, from both sides, and the game goes on`, T, async () => {
			const pair = await pairAfter(server, moves);
			await expectRefusal(pair.front, ABORT, 'too_late');
			await expectRefusal(pair.back, ABORT, 'too_late');
			await pair.front.expectNothing(50, 'after refused aborts');
			await timedMoves(pair, quietMoves(moves + 1, SIZE).slice(moves));
		});
	}

	it('aborts a timed game before its second move, with its untouched clocks', T, async () => {
		const pair = await pairAfter(server, 1, { tc: '60+2' });
		pair.back.send(ABORT);
		const winner = await bothNext(pair, 'winner');
		assert.equal(winner.winner, 'none');
		assert.equal(winner.reason, 'aborted');
		assert.deepEqual(winner.clock, { front: 62_000, back: 60_000 }, `expected the clocks of the first move, got ${JSON.stringify(winner)}`);
	});
});

describe('draw offers', () => {
	const server = useServer();

	function offerBy(by) {
		return { type: 'offer', what: 'draw', by };
	}
	function answerBy(by, accept) {
		return { type: 'answer', what: 'draw', accept, by };
	}

	it('sends a draw offer to both, and an accept ends the game: answer, then winner draw by agreement', T, async () => {
		const before = await metricsOf(server);
		const pair = await pairAfter(server, 3);
		pair.front.send(DRAW); // out of turn: back is to move
		assert.deepEqual(await bothNext(pair, 'offer'), offerBy('front'));
		pair.back.send(drawAnswer(true));
		assert.deepEqual(await bothNext(pair, 'answer'), answerBy('back', true));
		const winner = await bothNext(pair, 'winner');
		assert.deepEqual(winner, { type: 'winner', winner: 'draw', reason: 'agreement' },
			`expected a draw by agreement, got ${JSON.stringify(winner)}`);
		assertNoClockFields(winner);
		assertMetricsGrew(before, await metricsOf(server), {
			'gomoku_games_finished_total{reason="agreement"}': 1,
			'gomoku_offers_total{what="draw",answer="accepted"}': 1,
		});
		await expectGameOverForAll(pair);
	});

	it('declines a draw offer for both; the offerer may not offer a draw again within 10 s (too_soon), the other may', T, async () => {
		const before = await metricsOf(server);
		const pair = await pairAfter(server, 2);
		pair.back.send(DRAW);
		await bothNext(pair, 'offer');
		pair.front.send(drawAnswer(false));
		assert.deepEqual(await bothNext(pair, 'answer'), answerBy('front', false));
		await pair.front.expectNothing(100, 'after a declined draw (the game goes on)');
		await expectRefusal(pair.back, DRAW, 'too_soon');
		pair.front.send(DRAW);
		assert.deepEqual(await bothNext(pair, 'offer'), offerBy('front'));
		pair.back.send(drawAnswer(false));
		await bothNext(pair, 'answer');
		assertMetricsGrew(before, await metricsOf(server), { 'gomoku_offers_total{what="draw",answer="declined"}': 2 });
		await timedMoves(pair, quietMoves(3, SIZE).slice(2));
	});

	for (const mover of ['asked', 'offerer']) {
		it(`declines a pending draw offer when the ${mover} moves: answer false by the asked side, then the board`, T, async () => {
			const pair = await pairAfter(server, 2); // front to move
			const offerer = mover === 'asked' ? 'back' : 'front';
			const asked = offerer === 'front' ? 'back' : 'front';
			seat(pair, offerer).send(DRAW);
			await bothNext(pair, 'offer');
			const move = quietMoves(3, SIZE)[2];
			pair.front.move(move.x, move.y);
			assert.deepEqual(await bothNext(pair, 'answer'), answerBy(asked, false),
				'expected the move to decline the offer before its board');
			assert.deepEqual((await bothNext(pair, 'board')).move, move);
		});
	}

	it('allows one offer of any kind at a time: offer_pending for a draw during a takeback offer, and the other way', T, async () => {
		const pair = await pairAfter(server, 3);
		pair.front.send(TAKEBACK);
		await bothNext(pair, 'offer');
		await expectRefusal(pair.back, DRAW, 'offer_pending');
		await expectRefusal(pair.front, DRAW, 'offer_pending');
		pair.back.send({ type: 'answer', what: 'takeback', accept: false });
		await bothNext(pair, 'answer');
		pair.back.send(DRAW);
		await bothNext(pair, 'offer');
		await expectRefusal(pair.front, TAKEBACK, 'offer_pending');
		await expectRefusal(pair.back, DRAW, 'offer_pending');
		await expectRefusal(pair.back, drawAnswer(true), 'no_offer');
		pair.front.send(drawAnswer(false));
		await bothNext(pair, 'answer');
	});

	it('answers a draw answer with no draw offer pending with no_offer', T, async () => {
		const pair = await pairAfter(server, 2);
		await expectRefusal(pair.front, drawAnswer(true), 'no_offer');
		await expectRefusal(pair.back, drawAnswer(false), 'no_offer');
	});

	it('declines a pending draw offer when the asked player leaves: answer, then the forfeit', T, async () => {
		const pair = await pairAfter(server, 3);
		pair.front.send(DRAW);
		await bothNext(pair, 'offer');
		await pair.back.close(1000);
		assert.deepEqual(await pair.front.next('answer'), answerBy('back', false));
		const winner = await pair.front.next('winner');
		assert.deepEqual([winner.winner, winner.reason], ['front', 'forfeit']);
		await pair.front.next('disconnect');
	});

	it('lets a pending draw offer lapse when the game ends another way: answer false first, then the winner', T, async () => {
		const before = await metricsOf(server);
		const pair = await pairAfter(server, 3);
		pair.front.send(DRAW);
		await bothNext(pair, 'offer');
		pair.back.send(RESIGN);
		assert.deepEqual(await bothNext(pair, 'answer'), answerBy('back', false),
			'expected the offer to lapse before the winner');
		assert.deepEqual(await bothNext(pair, 'winner'), { type: 'winner', winner: 'front', reason: 'resign' });
		assertMetricsGrew(before, await metricsOf(server), {
			'gomoku_offers_total{what="draw",answer="declined"}': 1,
			'gomoku_games_finished_total{reason="resign"}': 1,
		});
	});

	it('lets a pending draw offer lapse on abort too', T, async () => {
		const pair = await pairAfter(server, 1);
		pair.back.send(DRAW);
		await bothNext(pair, 'offer');
		pair.back.send(ABORT);
		assert.deepEqual(await bothNext(pair, 'answer'), answerBy('front', false));
		assert.deepEqual(await bothNext(pair, 'winner'), { type: 'winner', winner: 'none', reason: 'aborted' });
	});
});

describe('endings against the engine', () => {
	const server = useServer({ args: ['--ai-ms', '50'] });

	it('has the engine decline every draw offer at once', T, async () => {
		const before = await metricsOf(server);
		const player = await connectAi(server, { updates: 'move' });
		if (player.engineRole === 'front')
			await player.next('board');
		player.send(DRAW);
		const answer = await player.next('answer', undefined, { skip: ['offer'] });
		assert.deepEqual(answer, { type: 'answer', what: 'draw', accept: false, by: player.engineRole },
			`expected the engine to decline the draw, got ${JSON.stringify(answer)}`);
		assertMetricsGrew(before, await metricsOf(server), { 'gomoku_offers_total{what="draw",answer="declined"}': 1 });
	});

	it('lets the player resign against the engine', T, async () => {
		const player = await connectAi(server, {});
		player.send(RESIGN);
		const winner = await player.next('winner', undefined, { skip: ['board'] });
		assert.deepEqual(winner, { type: 'winner', winner: player.engineRole, reason: 'resign' });
	});
});

describe('endings before a match', () => {
	const server = useServer();

	it('answers resign, abort, draw offers and answers of a waiting player with not_in_game', T, async () => {
		const player = await waitIn(server);
		for (const message of [RESIGN, ABORT, DRAW, drawAnswer(true), { type: 'offer', what: 'rematch' },
			{ type: 'answer', what: 'rematch', accept: true }, { type: 'emote', emote: 'hello' }])
			await expectRefusal(player, message, 'not_in_game');
		await player.expectNothing(50);
	});
});
