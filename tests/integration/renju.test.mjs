// Renju (PROTOCOL.md 8.8): rule=renju is a pool of its own; every board
// with black to move carries `forbidden`, the points black may not play;
// a forbidden move gets error forbidden and changes nothing; white may
// play there; the rule is journalled and a restored game keeps it; the
// computer plays renju at every level, never on a forbidden point.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useServer } from './lib/server.mjs';
import { connectPlayer, uuid } from './lib/client.mjs';
import { pairIn, waitIn, timedMove, expectRefusal } from './lib/protocol2.mjs';
import { rejoin, expectResume, gameRecord, RestartableServer } from './lib/resume.mjs';
import { pollUntil } from './lib/observe.mjs';
import { LEVELS, connectAiAs, Position, naiveCell } from './lib/ai.mjs';
import { testTimeout, scaled } from './lib/time.mjs';

const T = testTimeout(30_000);
const SIZE = 15;
const AI_MS = 100; // --ai-ms of the server playing the computer
const ENGINE_TIMEOUT_MS = scaled(AI_MS + 5000); // a busy machine's slack

/*
 * Black's four stones and white's four, alternating from black:
 *        A B C D E F G H I J     (rows 15..7 from the top)
 *   15   O . . . . . . . . .     white waits in column A
 *   14   O . . . . . . . . .
 *   13   O . . . . . . . . .
 *   12   O . . . . . . . . .
 *    9   . . . . . . X . . .     G9  (6, 6)
 *    8   . . . . . . X . . .     G8  (6, 7)
 *    7   . . . . . . * X X .     G7  (6, 8): two threes; H7 I7 (7, 8) (8, 8)
 * Then black's G7 is a double three, its only forbidden point.
 */
const BLACK = [{ x: 6, y: 6 }, { x: 6, y: 7 }, { x: 7, y: 8 }, { x: 8, y: 8 }];
const WHITE = [{ x: 0, y: 0 }, { x: 0, y: 1 }, { x: 0, y: 2 }, { x: 0, y: 3 }];
const DOUBLE_THREE = { x: 6, y: 8 };

/** Plays BLACK and WHITE alternately; checks `forbidden` on every board. */
async function playDoubleThree(pair) {
	let board = null;
	for (let i = 0; i < BLACK.length; i++) {
		({ board } = await timedMove(pair, { ...BLACK[i], role: 'front' }));
		assert.equal(board.role, 'back');
		assert.ok(!('forbidden' in board), `expected no forbidden list with white to move, got ${JSON.stringify(board)}`);
		({ board } = await timedMove(pair, { ...WHITE[i], role: 'back' }));
		assert.equal(board.role, 'front');
		assert.ok(Array.isArray(board.forbidden), `expected a forbidden list with black to move, got ${JSON.stringify(board)}`);
	}
	return board;
}

describe('renju', () => {
	const server = useServer();

	it('pairs rule=renju in its own pool and lists it in /api/pools', T, async () => {
		const waiting = await waitIn(server, { rule: 'renju' }, { label: 'renju player' });
		const other = await waitIn(server, { rule: 'freestyle' }, { label: 'freestyle player' });
		const res = await server.get('/api/pools');
		const pools = JSON.parse(res.body).pools;
		const renju = pools.find((pool) => pool.rule === 'renju');
		assert.ok(renju && renju.waiting === 1 && renju.size === SIZE,
			`expected the renju pool with its one player waiting, got ${res.body}`);
		await waiting.close();
		await other.close();
		const pair = await pairIn(server, { rule: 'renju' });
		assert.equal(pair.front.roleMessage.rule, 'renju');
		assert.equal(pair.back.roleMessage.rule, 'renju');
	});

	it('lists black\'s forbidden points on its boards, refuses them with forbidden changing nothing, and lets white play there', T, async () => {
		const pair = await pairIn(server, { rule: 'renju' });
		const board = await playDoubleThree(pair);
		assert.deepEqual(board.forbidden, [DOUBLE_THREE], `expected G7 alone forbidden, got ${JSON.stringify(board)}`);
		const error = await expectRefusal(pair.front, { type: 'move', ...DOUBLE_THREE }, 'forbidden');
		assert.match(error.message, /forbidden/);
		await pair.back.expectNothing(100, 'after black\'s forbidden move');
		// Nothing changed: black's next move is the ninth.
		const next = await timedMove(pair, { x: 12, y: 12, role: 'front' });
		assert.equal(next.board.moves, 9);
		const white = await timedMove(pair, { ...DOUBLE_THREE, role: 'back' });
		assert.equal(white.board.moves, 10);
		assert.deepEqual(white.board.forbidden, [], `expected no forbidden point left, got ${JSON.stringify(white.board)}`);
	});

	it('gives black an exact five and white an overline', T, async () => {
		const pair = await pairIn(server, { rule: 'renju' });
		// White builds five of row 3 with one gap while black plays row 10.
		for (let x = 0; x < 4; x++) {
			await timedMove(pair, { x: x * 2 + 1, y: 10, role: 'front' });
			await timedMove(pair, { x, y: 3, role: 'back' });
		}
		await timedMove(pair, { x: 13, y: 13, role: 'front' });
		await timedMove(pair, { x: 5, y: 3, role: 'back' });
		// Black's 14th point; white fills the gap: six in a row, and wins.
		await timedMove(pair, { x: 14, y: 0, role: 'front' });
		pair.back.move(4, 3);
		for (const player of [pair.front, pair.back]) {
			const winner = await player.next('winner', undefined, { skip: ['board'] });
			assert.equal(winner.winner, 'back', `expected white's overline to win, got ${JSON.stringify(winner)}`);
		}
	});

});

const sameCell = (a) => (b) => a.x === b.x && a.y === b.y;

/** The naive player's cell (lib/ai.mjs) among the points not forbidden. */
function allowedCell(position, forbidden) {
	const view = Object.create(position);
	view.content = position.content.slice();
	for (const { x, y } of forbidden)
		view.content[y * SIZE + x] = 'forbidden';
	return naiveCell(view);
}

/**
 * Plays player's renju game against the computer to its end, the player
 * naive and never on a forbidden point. Checks every board against the
 * model, and that black's every move is off the `forbidden` list of the
 * board before it; then the winner the model calls for. Resolves with
 * the number of the engine's moves.
 */
async function playRenju(player) {
	const position = new Position(SIZE);
	let forbidden = [];
	let engineMoves = 0;
	while (!position.result()) {
		assert.ok(position.moves < SIZE * SIZE, 'expected the game to end before the board fills');
		let board;
		if (position.toMove === player.role) {
			const cell = allowedCell(position, forbidden);
			player.move(cell.x, cell.y);
			board = await player.next('board');
		} else {
			board = await player.next('board', ENGINE_TIMEOUT_MS);
			engineMoves++;
		}
		const mover = position.toMove;
		if (mover === 'front')
			assert.ok(!forbidden.some(sameCell(board.move)),
				`expected black's ${JSON.stringify(board.move)} off its forbidden points ${JSON.stringify(forbidden)}`);
		position.play(board, mover, mover === player.role ? player.label : `${player.label} (the engine's move)`);
		// (the board that ends the game lists none: nobody moves again)
		forbidden = board.role === 'front' && !position.result() ? board.forbidden : [];
		assert.ok(Array.isArray(forbidden), `expected a forbidden list with black to move, got ${JSON.stringify(board)}`);
	}
	position.assertWinner(await player.next('winner'), player.label);
	return engineMoves;
}

describe('renju against the computer', () => {
	const server = useServer({ args: ['--ai-ms', String(AI_MS)] });

	for (const level of LEVELS) {
		it(`plays a whole renju game at ${level} as black, never on a forbidden point, to a five`, T, async () => {
			const player = await connectAiAs(server, 'front', { level, rule: 'renju' });
			assert.equal(player.roleMessage.rule, 'renju');
			const engineMoves = await playRenju(player);
			assert.ok(engineMoves > 0, 'expected the engine to have moved');
		});
	}

	it('plays white at hard against a black player who keeps to the allowed points, to a five', T, async () => {
		const player = await connectAiAs(server, 'back', { level: 'hard', rule: 'renju' });
		const engineMoves = await playRenju(player);
		assert.ok(engineMoves > 0, 'expected the engine to have moved');
	});
});

describe('renju as the server\'s rule (--rule renju)', () => {
	const server = useServer({ args: ['--rule', 'renju'] });

	it('makes renju the pool of a player who asks for none', T, async () => {
		const pair = await pairIn(server, {});
		assert.equal(pair.front.roleMessage.rule, 'renju');
		const board = await playDoubleThree(pair);
		assert.deepEqual(board.forbidden, [DOUBLE_THREE]);
	});
});

describe('renju across a restart', () => {
	it('journals the rule: a restored game is still renju, with its forbidden points, and its record says so', T, async () => {
		const restartable = new RestartableServer({ args: ['--reconnect-grace', '60'] });
		let server = await restartable.start();
		try {
			const pair = await pairIn(server, { rule: 'renju' });
			await playDoubleThree(pair);
			const room = pair.room;
			await restartable.kill();
			server = await restartable.start();
			const black = await rejoin(server, pair.front);
			const resumed = await expectResume(black, { room, role: 'front', moves: [...BLACK.flatMap((cell, i) => [{ ...cell, role: 'front' }, { ...WHITE[i], role: 'back' }])], size: SIZE });
			assert.equal(resumed.role.rule, 'renju');
			assert.deepEqual(resumed.board.forbidden, [DOUBLE_THREE], `expected the restored board to list G7, got ${JSON.stringify(resumed.board)}`);
			black.send({ type: 'move', ...DOUBLE_THREE });
			const error = await black.next('error', undefined, { skip: ['opponent_away'] });
			assert.equal(error.code, 'forbidden', `expected the restored game to refuse G7, got ${JSON.stringify(error)}`);
			black.send({ type: 'resign' });
			await black.next('winner', undefined, { skip: ['board', 'opponent_away'] });
			const record = await pollUntil(async () => {
				const game = await gameRecord(server, room);
				return game.status === 'finished' ? game : undefined;
			}, 'the renju game finished in its record');
			assert.equal(record.rule, 'renju');
		} finally {
			await restartable.stop();
		}
	});
});
