// Whole games: fives in every direction for both sides, through move
// requests and through seed-form boards; full boards; the standard rule.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useServer } from './lib/server.mjs';
import { connectPair } from './lib/client.mjs';
import {
	winningScript, fullBoardScript, playMoves, expectWinner, findRuns, withStone, emptyContent,
	cellKeys,
} from './lib/game.mjs';
import { testTimeout } from './lib/time.mjs';

const T = testTimeout(30_000);
const SIZE = 15;

// Where each five starts: through move requests in the middle of the
// board, through seed-form boards along its edges and into its corners.
const STARTS = {
	move: {
		horizontal: { x: 3, y: 7 },
		vertical: { x: 7, y: 3 },
		diagonal: { x: 2, y: 2 },
		'anti-diagonal': { x: 11, y: 3 },
	},
	board: {
		horizontal: { x: 10, y: 0 },
		vertical: { x: 0, y: 10 },
		diagonal: { x: 10, y: 10 },
		'anti-diagonal': { x: 4, y: 10 },
	},
};

/** Front and back stones interleaved into moves, front first. */
function alternate(frontStones, backStones) {
	const moves = [];
	for (let i = 0; i < Math.max(frontStones.length, backStones.length); i++) {
		if (frontStones[i])
			moves.push({ ...frontStones[i], role: 'front' });
		if (backStones[i])
			moves.push({ ...backStones[i], role: 'back' });
	}
	return moves;
}

describe('gameplay', () => {
	const server = useServer();

	for (const form of ['move', 'board']) {
		const how = form === 'move' ? 'move requests' : 'seed-form board requests';
		for (const direction of ['horizontal', 'vertical', 'diagonal', 'anti-diagonal']) {
			for (const winner of ['front', 'back']) {
				it(`lets ${winner} win with ${direction === 'anti-diagonal' ? 'an' : 'a'} ${direction} five played through ${how}`, T, async () => {
					const pair = await connectPair(server);
					const script = winningScript({ size: SIZE, winner, direction, start: STARTS[form][direction] });
					const { boards } = await playMoves(pair, script.moves, { size: SIZE, form, lastEndsGame: true });
					const last = boards[boards.length - 1];
					assert.equal(last.content.filter((cell) => cell !== '').length, script.moves.length,
						'expected as many stones on the final board as moves played');
					await expectWinner(pair, { winner, reason: 'five', line: script.line });
					await pair.front.expectNothing(200, 'after the winner message');
					await pair.back.expectNothing(0, 'after the winner message');
				});
			}
		}
	}

	it('accepts move requests and seed-form boards mixed in one game', T, async () => {
		const pair = await connectPair(server);
		const script = winningScript({ size: SIZE, winner: 'front', direction: 'vertical', start: { x: 14, y: 0 } });
		await playMoves(pair, script.moves, {
			size: SIZE, lastEndsGame: true, form: (index) => (index % 3 === 1 ? 'move' : 'board'),
		});
		await expectWinner(pair, { winner: 'front', reason: 'five', line: script.line });
	});

	it('puts together a move sent in three WebSocket fragments', T, async () => {
		const pair = await connectPair(server);
		const text = JSON.stringify({ type: 'move', x: 7, y: 7 });
		pair.front.ws.send(text.slice(0, 5), { fin: false });
		pair.front.ws.send(text.slice(5, 12), { fin: false });
		pair.front.ws.send(text.slice(12), { fin: true });
		const [board] = await Promise.all([pair.front.next('board'), pair.back.next('board')]);
		assert.deepEqual(board.move, { x: 7, y: 7, role: 'front' },
			`expected the fragmented move at (7,7), got ${JSON.stringify(board.move)}`);
	});

	it('ignores a winner message from a client: nobody gets anything and the game goes on', T, async () => {
		const pair = await connectPair(server);
		const script = winningScript({ size: SIZE, winner: 'back', direction: 'horizontal', start: { x: 5, y: 5 } });
		const played = await playMoves(pair, script.moves.slice(0, 3), { size: SIZE });
		pair.back.send({ type: 'winner', winner: 'back', reason: 'five', line: [] });
		pair.front.send({ type: 'winner', winner: 'front' });
		await pair.front.expectNothing(250, 'after a client claimed a win');
		await pair.back.expectNothing(0, 'after a client claimed a win');
		await playMoves(pair, script.moves.slice(3), {
			size: SIZE, startContent: played.content, startMoves: 3, lastEndsGame: true,
		});
		await expectWinner(pair, { winner: 'back', reason: 'five', line: script.line });
	});

	it('counts a freestyle overline of six as a win', T, async () => {
		const pair = await connectPair(server);
		const row = [0, 1, 2, 4, 5, 3].map((x) => ({ x, y: 7 }));
		const moves = alternate(row, [0, 2, 4, 6, 8].map((x) => ({ x, y: 0 })));
		await playMoves(pair, moves, { size: SIZE, lastEndsGame: true });
		const winnerMessage = await expectWinner(pair, { winner: 'front', reason: 'five' });
		const line = winnerMessage.line || [];
		assert.ok(line.length >= 5 && line.length <= 6,
			`expected a winning line of 5 or 6 cells for an overline, got ${JSON.stringify(line)}`);
		const rowKeys = new Set(cellKeys(row));
		assert.ok(line.every((cell) => rowKeys.has(`${cell.x},${cell.y}`)),
			`expected the winning line to lie in the six of row 7, got ${JSON.stringify(line)}`);
		assert.ok(line.some((cell) => cell.x === 3 && cell.y === 7),
			`expected the winning line to pass through the last move (3,7), got ${JSON.stringify(line)}`);
	});
});

describe('gameplay under the standard rule', () => {
	const server = useServer({ args: ['--rule', 'standard'] });

	it('does not count an overline of six as a win, and the game goes on to an exact five', T, async () => {
		const pair = await connectPair(server);
		assert.equal(pair.front.roleMessage.rule, 'standard',
			`expected role.rule "standard", got ${JSON.stringify(pair.front.roleMessage)}`);
		const six = [0, 1, 2, 4, 5, 3].map((x) => ({ x, y: 7 }));
		const overline = alternate(six, [0, 2, 4, 6, 8].map((x) => ({ x, y: 0 })));
		let content = emptyContent(SIZE);
		for (const move of overline)
			content = withStone(content, SIZE, move.x, move.y, move.role);
		assert.equal(findRuns(content, SIZE, 6).length, 1, 'script error: expected one overline');

		const played = await playMoves(pair, overline, { size: SIZE });
		await pair.front.expectNothing(250, 'after an overline under the standard rule');
		await pair.back.expectNothing(0, 'after an overline under the standard rule');

		// Back is to move; front then makes an exact vertical five at x = 12.
		const five = [3, 4, 6, 7, 5].map((y) => ({ x: 12, y }));
		const backStones = [{ x: 10, y: 0 }, { x: 0, y: 14 }, { x: 2, y: 14 }, { x: 4, y: 14 }, { x: 6, y: 14 }];
		const backFirst = [];
		for (let i = 0; i < five.length; i++) {
			backFirst.push({ ...backStones[i], role: 'back' });
			backFirst.push({ ...five[i], role: 'front' });
		}
		await playMoves(pair, backFirst, {
			size: SIZE, startContent: played.content, startMoves: overline.length, lastEndsGame: true,
		});
		await expectWinner(pair, { winner: 'front', reason: 'five', line: five });
	});

	it('still counts an exact five as a win for back', T, async () => {
		const pair = await connectPair(server);
		const script = winningScript({ size: SIZE, winner: 'back', direction: 'anti-diagonal', start: { x: 8, y: 4 } });
		await playMoves(pair, script.moves, { size: SIZE, lastEndsGame: true });
		await expectWinner(pair, { winner: 'back', reason: 'five', line: script.line });
	});
});

describe('full board', () => {
	const fill = fullBoardScript();
	// One 5 x 5 server per outcome setting: --full-board back, draw, and
	// none (the default).
	const servers = {
		back: useServer({ args: ['--board-size', '5', '--full-board', 'back'] }, { settle: false }),
		draw: useServer({ args: ['--board-size', '5', '--full-board', 'draw'] }, { settle: false }),
		default: useServer({ args: ['--board-size', '5'] }, { settle: false }),
	};

	/** Fills the board on server and resolves with the winner message. */
	async function playFullBoard(server) {
		const pair = await connectPair(server);
		assert.equal(pair.front.roleMessage.size, 5);
		const { content } = await playMoves(pair, fill, { size: 5, lastEndsGame: true });
		assert.ok(content.every((cell) => cell !== ''), 'expected the board to be full');
		const winner = await Promise.all([pair.front.next('winner'), pair.back.next('winner')]);
		assert.deepEqual(winner[1], winner[0], 'expected both players to get the same winner message');
		await pair.front.expectNothing(200, 'after the winner message');
		return winner[0];
	}

	it('gives back the win when the board fills with no five under --full-board back', T, async () => {
		const winner = await playFullBoard(servers.back);
		assert.equal(winner.winner, 'back', `expected winner "back", got ${JSON.stringify(winner)}`);
		assert.equal(winner.reason, 'full', `expected reason "full", got ${JSON.stringify(winner)}`);
	});

	it('gives back the win on a full board by default', T, async () => {
		const winner = await playFullBoard(servers.default);
		assert.equal(winner.winner, 'back', `expected winner "back", got ${JSON.stringify(winner)}`);
		assert.equal(winner.reason, 'full', `expected reason "full", got ${JSON.stringify(winner)}`);
	});

	it('calls a full board with no five a draw under --full-board draw', T, async () => {
		const winner = await playFullBoard(servers.draw);
		assert.equal(winner.winner, 'draw', `expected winner "draw", got ${JSON.stringify(winner)}`);
		assert.equal(winner.reason, 'full', `expected reason "full", got ${JSON.stringify(winner)}`);
	});
});
