// The start screen's three modes in real browsers: two players on one
// screen (the page judges the game and opens no socket), a game against
// the server's engine, and a takeback offer between two players online;
// Undo and Redo in each mode that has them; the computer named in the
// page's language. Screenshots of the start screen with its choices and
// of a game against the computer, on both sizes, go to tests/artifacts/.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser, matchPlayers, playMoves, boardAfter, WAIT_MS } from './lib/browser.mjs';
import { testTimeout, scaled } from '../integration/lib/time.mjs';

const T = testTimeout(120_000);

/** Asserts the state of the Undo and Redo buttons: 'enabled', 'disabled' or 'hidden'. */
async function assertTools(player, expected, when) {
	const now = {};
	for (const id of ['undo', 'redo']) {
		const button = player.page.locator(`#${id}`);
		if (!await button.isVisible())
			now[id] = 'hidden';
		else
			now[id] = await button.isEnabled() ? 'enabled' : 'disabled';
	}
	assert.deepEqual(now, expected, `expected Undo and Redo to be ${JSON.stringify(expected)} ${when}`);
}

/** Clicks intersection (x, y) and waits until the board shows moves moves. */
async function playLocal(player, moves, x, y) {
	await player.clickCell(x, y);
	await player.waitForMoves(moves);
}

const SIZE = 15;
const DIRECTIONS = [[1, 0], [0, 1], [1, 1], [1, -1]];

/** The longest run of stone ('x' or 'o') that a stone at (x, y) of board would make. */
function runThrough(board, x, y, stone) {
	let longest = 0;
	for (const [dx, dy] of DIRECTIONS) {
		let length = 1;
		for (const sign of [1, -1]) {
			let px = x + sign * dx;
			let py = y + sign * dy;
			while (px >= 0 && py >= 0 && px < SIZE && py < SIZE && board[py * SIZE + px] === stone) {
				length++;
				px += sign * dx;
				py += sign * dy;
			}
		}
		longest = Math.max(longest, length);
	}
	return longest;
}

/**
 * A quick, greedy move for stone on board (text, '.' empty): win at once,
 * else stop a five, else a four, else lengthen the longest own run; the
 * point nearest the centre on a tie. Enough to end games against the
 * easy engine in a few dozen moves, one way or the other.
 */
function greedyMove(board, stone) {
	const other = stone === 'x' ? 'o' : 'x';
	const centre = (SIZE - 1) / 2;
	let best = null;
	for (let y = 0; y < SIZE; y++) {
		for (let x = 0; x < SIZE; x++) {
			if (board[y * SIZE + x] !== '.')
				continue;
			const own = runThrough(board, x, y, stone);
			const theirs = runThrough(board, x, y, other);
			let score = own * 2 + Math.min(theirs, 3);
			if (own >= 5)
				score = 100;
			else if (theirs >= 5)
				score = 90;
			else if (theirs === 4)
				score = 80;
			const distance = Math.abs(x - centre) + Math.abs(y - centre);
			if (!best || score > best.score || (score === best.score && distance < best.distance))
				best = { x, y, score, distance };
		}
	}
	return best;
}

/** Asserts that the prompt is shown and covers no part of the board. */
async function assertPromptOffBoard(player) {
	const { prompt, board } = await player.page.evaluate(() => {
		const rect = (id) => {
			const box = document.getElementById(id).getBoundingClientRect();
			return { left: box.left, right: box.right, top: box.top, bottom: box.bottom };
		};
		return { prompt: rect('prompt'), board: rect('board') };
	});
	const overlaps = prompt.left < board.right && prompt.right > board.left && prompt.top < board.bottom && prompt.bottom > board.top;
	assert.ok(!overlaps, `expected ${player.label}'s prompt ${JSON.stringify(prompt)} off the board ${JSON.stringify(board)}`);
}

/** Waits until the game is over or it is this player's turn again. */
async function waitForMyTurnOrEnd(player) {
	await player.page.waitForSelector('#app[data-state="over"], #app[data-state="playing"][data-turn="me"][data-live="true"]',
		{ timeout: WAIT_MS });
}

describe('game modes', () => {
	const { server, openPlayer } = useBrowser();

	it('shows the mode choice on the start screen, the level only for vs Computer, and remembers both', T, async () => {
		for (const device of ['desktop', 'phone']) {
			const player = await openPlayer({ device, label: `${device} player` });
			assert.equal(await player.page.getAttribute('#mode [data-mode="online"]', 'aria-pressed'), 'true',
				'expected Online chosen on a first visit');
			assert.equal(await player.page.isVisible('#level'), false, 'expected no level choice for Online');
			assert.deepEqual(await player.page.locator('#mode button').allTextContents(),
				['Online', 'vs Computer', 'Local two players']);

			await player.pressButton('#mode [data-mode="ai"]');
			await player.waitFor({ mode: 'ai' });
			assert.equal(await player.page.isVisible('#level'), true);
			assert.deepEqual(await player.page.locator('#level button').allTextContents(),
				['Beginner', 'Easy', 'Medium', 'Hard', 'Master']);
			assert.equal(await player.text('#level-note'), 'Finds a win by fours and stops yours; looks three moves ahead.',
				'expected the default level, medium, explained');
			await player.pressButton('#level [data-level="hard"]');
			await player.waitFor({ level: 'hard' });
			assert.equal(await player.page.getAttribute('#level [data-level="hard"]', 'aria-pressed'), 'true');
			assert.equal(await player.text('#level-note'), 'Searches many moves deep, threats first.');
			assert.equal(await player.text('#main-text'), 'Play the computer');
			assert.equal(await player.text('#status'), 'Pick a level and press “Play the computer”.');
			await player.assertFits('idle, vs Computer chosen');
			await player.screenshot(`${device}-7-start-modes`);

			await player.page.reload();
			await player.waitFor({ mode: 'ai', level: 'hard' });
			assert.equal(await player.page.getAttribute('#mode [data-mode="ai"]', 'aria-pressed'), 'true',
				'expected the mode remembered across a reload');

			await player.pressButton('#lang');
			await player.waitFor({ lang: 'zh' });
			assert.deepEqual(await player.page.locator('#mode button').allTextContents(), ['在线对战', '人机对战', '本地双人']);
			assert.deepEqual(await player.page.locator('#level button').allTextContents(), ['入门', '简单', '中等', '困难', '大师']);
			assert.equal(await player.text('#main-text'), '开始人机对战');
			await player.pressButton('#lang');
			await player.waitFor({ lang: 'en' });

			await player.pressButton('#mode [data-mode="local"]');
			await player.waitFor({ mode: 'local' });
			assert.equal(await player.page.isVisible('#level'), false);
			assert.equal(await player.text('#main-text'), 'Start game');
			await player.assertFits('idle, Local chosen');
			assert.equal(player.sockets, 0, 'expected choosing a mode to open no socket');
		}
	});

	it('plays two players on one screen to a win, with undo and redo, and never opens a socket', T, async () => {
		const player = await openPlayer({ label: 'hot-seat players' });
		await player.page.click('#mode [data-mode="local"]');
		assert.equal(await player.text('#status'), 'Two players, one screen: press “Start game”.');
		await player.page.click('#main');
		await player.waitFor({ state: 'playing', kind: 'local', live: 'true' });
		assert.equal(await player.text('#status'), 'Black to move');
		assert.equal(await player.text('#me .name'), 'Player 1');
		assert.equal(await player.text('#me .role'), 'Black');
		assert.equal(await player.text('#opponent .name'), 'Player 2');
		assert.equal(await player.text('#opponent .role'), 'White');
		assert.equal(await player.page.getAttribute('#me', 'data-turn'), 'true');
		assert.equal(await player.page.isVisible('#me .tag'), false, 'expected no "you" badge when both sides are here');
		assert.equal(await player.page.isVisible('#modes'), false, 'expected the mode choice hidden during the game');
		assert.equal(await player.text('#cancel'), 'Leave game');
		await assertTools(player, { undo: 'disabled', redo: 'disabled' }, 'before the first move');

		// Black and white click in turn on the same page.
		await playLocal(player, 1, 7, 7);
		assert.equal(await player.text('#status'), 'White to move');
		assert.equal(await player.page.getAttribute('#opponent', 'data-turn'), 'true');
		await playLocal(player, 2, 7, 8);
		await playLocal(player, 3, 6, 7);
		await playLocal(player, 4, 6, 8);
		assert.equal(await player.board(), boardAfter([
			{ role: 'front', x: 7, y: 7 }, { role: 'back', x: 7, y: 8 }, { role: 'front', x: 6, y: 7 }, { role: 'back', x: 6, y: 8 },
		]));
		await assertTools(player, { undo: 'enabled', redo: 'disabled' }, 'after four moves');

		// Two moves back, one forward again.
		await player.page.click('#undo');
		await player.waitForMoves(3);
		await player.page.click('#undo');
		await player.waitForMoves(2);
		assert.equal(await player.board(), boardAfter([{ role: 'front', x: 7, y: 7 }, { role: 'back', x: 7, y: 8 }]));
		assert.equal(await player.boardData('last'), '7,8');
		assert.equal(await player.text('#status'), 'Black to move');
		await assertTools(player, { undo: 'enabled', redo: 'enabled' }, 'after two undos');
		await player.page.click('#redo');
		await player.waitForMoves(3);
		assert.equal(await player.boardData('last'), '6,7');
		assert.equal(await player.text('#status'), 'White to move');

		// A new move instead of the one left to redo: nothing to redo.
		await playLocal(player, 4, 0, 0);
		await assertTools(player, { undo: 'enabled', redo: 'disabled' }, 'after a new move');
		const game = [
			{ role: 'front', x: 7, y: 7 }, { role: 'back', x: 7, y: 8 }, { role: 'front', x: 6, y: 7 },
			{ role: 'back', x: 0, y: 0 }, { role: 'front', x: 5, y: 7 }, { role: 'back', x: 1, y: 0 },
			{ role: 'front', x: 4, y: 7 }, { role: 'back', x: 2, y: 0 }, { role: 'front', x: 3, y: 7 },
		];
		for (let i = 4; i < game.length; i++)
			await playLocal(player, i + 1, game[i].x, game[i].y);

		await player.waitFor({ state: 'over', result: 'win', kind: 'local' });
		assert.equal(await player.text('#status'), 'Black wins!');
		assert.equal(await player.board(), boardAfter(game));
		assert.equal(await player.boardData('line'), '3,7 4,7 5,7 6,7 7,7');
		assert.equal(await player.text('#note'), 'Five in a row: D8 – H8');
		assert.equal(await player.text('#main-text'), 'Play again');
		await assertTools(player, { undo: 'enabled', redo: 'disabled' }, 'after the five');
		await player.assertFits('local game over');
		await player.screenshot('desktop-9-local-won');

		// A click on the board after the end does nothing.
		await player.clickCell(10, 10);
		assert.equal(await player.boardData('moves'), String(game.length));

		// Undo reopens the game; redo ends it again.
		await player.page.click('#undo');
		await player.waitFor({ state: 'playing', live: 'true' });
		assert.equal(await player.boardData('line'), '');
		assert.equal(await player.text('#status'), 'Black to move');
		await player.page.click('#redo');
		await player.waitFor({ state: 'over', result: 'win' });
		assert.equal(await player.boardData('line'), '3,7 4,7 5,7 6,7 7,7');

		// "Play again" starts a fresh local game.
		await player.page.click('#main');
		await player.waitFor({ state: 'playing', kind: 'local' });
		assert.equal(await player.boardData('moves'), '0');
		await player.page.click('#cancel');
		await player.waitFor({ state: 'idle', kind: '' });

		assert.equal(player.sockets, 0, 'expected a local game to open no WebSocket');
		assert.deepEqual(player.sentFrames, []);
		assert.equal((await server.health()).connections, 0);
	});

	for (const device of ['desktop', 'phone']) {
		it(`plays the computer to the end, with an Undo and a Redo that change the board (${device})`, T, async () => {
			const player = await openPlayer({ device, label: `${device} player against the computer` });
			const urls = [];
			player.page.on('websocket', (socket) => urls.push(socket.url()));
			await player.pressButton('#mode [data-mode="ai"]');
			await player.pressButton('#level [data-level="easy"]');
			await player.pressButton('#main');
			await player.waitFor({ state: 'playing', kind: 'ai', live: 'true' });
			assert.equal(urls.length, 1);
			assert.match(urls[0], /[?&]mode=ai&level=easy(&|$)/, 'expected the socket to ask for the easy engine');
			assert.match(urls[0], /[?&]updates=move(&|$)/);
			assert.equal(await player.text('#opponent .name'), 'Computer (easy)');
			const colour = (await player.app('role')) === 'front' ? 'White' : 'Black';
			assert.equal(await player.text('#opponent .role'), colour, 'expected the level once, in the name');
			assert.equal(await player.page.isVisible('#opponent .ai-tag'), true, 'expected the AI badge on the computer\'s card');
			assert.equal(await player.text('#opponent .ai-tag'), 'AI');
			assert.equal(await player.page.isVisible('#me .ai-tag'), false);
			const role = await player.app('role');
			const stone = role === 'front' ? 'x' : 'o';
			if (role === 'back')
				await player.waitForMoves(1); // the engine opens
			await waitForMyTurnOrEnd(player);
			await assertTools(player, { undo: 'disabled', redo: 'disabled' },
				'before the player\'s first stone');

			let undone = false;
			let screenshot = false;
			while (await player.app('state') === 'playing') {
				const board = await player.board();
				const moves = Number(await player.boardData('moves'));
				if (!undone && moves >= 4) {
					// Undo takes back my last move and the engine's reply to it;
					// Redo plays both again.
					await assertTools(player, { undo: 'enabled', redo: 'disabled' }, 'on the player\'s turn');
					await player.pressButton('#undo');
					await player.waitForMoves(moves - 2);
					await waitForMyTurnOrEnd(player);
					const taken = await player.board();
					assert.notEqual(taken, board, 'expected Undo to change the board');
					assert.equal([...board].filter((cell, i) => cell !== taken[i]).length, 2,
						'expected Undo to take back two stones, mine and the reply');
					await assertTools(player, { undo: 'enabled', redo: 'enabled' }, 'after Undo');
					await player.pressButton('#redo');
					await player.waitForMoves(moves);
					await waitForMyTurnOrEnd(player);
					assert.equal(await player.board(), board, 'expected Redo to put both stones back');
					await assertTools(player, { undo: 'enabled', redo: 'disabled' }, 'after Redo');
					undone = true;
					continue;
				}
				if (!screenshot && moves >= 8) {
					await player.assertFits('playing the computer');
					await player.screenshot(`${device}-8-computer`);
					screenshot = true;
				}
				const move = greedyMove(board, stone);
				await player.clickCell(move.x, move.y);
				// The engine's reply may come with it: wait for the stone, not a count.
				await player.page.waitForFunction(({ index, stone: mine }) =>
					document.getElementById('board').dataset.board[index] === mine,
				{ index: move.y * SIZE + move.x, stone }, { timeout: WAIT_MS });
				await waitForMyTurnOrEnd(player);
			}

			assert.ok(undone, 'expected the game to last long enough for an Undo and a Redo');
			const result = await player.app('result');
			assert.ok(['win', 'loss', 'draw'].includes(result), `expected a result, got ${result}`);
			assert.equal(await player.text('#status'),
				{ win: 'You win!', loss: 'You lose.', draw: 'Draw — the board is full.' }[result]);
			assert.notEqual(await player.boardData('line'), '', 'expected the five highlighted');
			await assertTools(player, { undo: 'hidden', redo: 'hidden' }, 'after the end');
			assert.equal(await player.page.isVisible('#modes'), true, 'expected the mode choice back after the end');
			const sent = player.sentFrames.map((text) => JSON.parse(text));
			assert.deepEqual(sent.filter((message) => message.type !== 'move'),
				[{ type: 'offer', what: 'takeback' }, { type: 'redo' }],
				'expected exactly one takeback offer and one redo besides the moves');
		});
	}

	it('keeps a game on one screen through a reload, redo included, and asks before leaving it once a move was played', T, async () => {
		const player = await openPlayer({ label: 'hot-seat players' });
		await player.page.click('#mode [data-mode="local"]');
		await player.page.click('#main');
		await player.waitFor({ state: 'playing', kind: 'local', live: 'true' });
		await playLocal(player, 1, 7, 7);
		await playLocal(player, 2, 8, 8);
		await playLocal(player, 3, 7, 8);
		await player.pressButton('#undo');
		await player.waitForMoves(2);
		const board = await player.board();

		await player.page.reload();
		await player.waitFor({ state: 'playing', kind: 'local', live: 'true' });
		assert.equal(await player.board(), board, 'expected the game back as it was');
		assert.equal(await player.text('#status'), 'Black to move');
		await assertTools(player, { undo: 'enabled', redo: 'enabled' }, 'after the reload');
		await player.pressButton('#redo');
		await player.waitForMoves(3);

		// Leave game: asked first; No keeps it, Yes drops it.
		await player.pressButton('#cancel');
		await player.waitFor({ confirm: 'leave', state: 'playing' });
		assert.equal(await player.text('#prompt-text'), 'Leave this game? It will not be kept.');
		await player.pressButton('#decline');
		await player.waitFor({ confirm: '', state: 'playing' });
		assert.equal(await player.boardData('moves'), '3');
		await player.pressButton('#cancel');
		await player.pressButton('#accept');
		await player.waitFor({ state: 'idle' });
		await player.page.reload();
		await player.waitFor({ state: 'idle' });
		assert.equal(await player.boardData('moves'), '0', 'expected a game left not to come back');
	});

	it('names the computer in the page\'s language from its level, the only thing the server says of it', T, async () => {
		// The page's socket goes through a route that passes every message
		// on and notes the roles the server sends.
		const opponents = [];
		const player = await openPlayer({
			locale: 'zh-CN',
			label: 'Chinese player against the computer',
			routeSockets: (ws) => {
				const serverSide = ws.connectToServer();
				serverSide.onMessage((message) => {
					const role = typeof message === 'string' && message.includes('"role"') ? JSON.parse(message) : null;
					if (role?.type === 'role' && role.opponent)
						opponents.push(role.opponent);
					ws.send(message);
				});
			},
		});
		await player.pressButton('#mode [data-mode="ai"]');
		await player.pressButton('#level [data-level="easy"]');
		await player.pressButton('#main');
		await player.waitFor({ state: 'playing', kind: 'ai', live: 'true' });
		assert.deepEqual(opponents, [{ ai: true, level: 'easy' }], 'expected one role naming no one');
		assert.equal(await player.text('#opponent .name'), '电脑（简单）');
		assert.match(await player.text('#opponent .role'), /^(黑棋|白棋)$/);
		await player.pressButton('#lang');
		await player.waitFor({ lang: 'en' });
		assert.equal(await player.text('#opponent .name'), 'Computer (easy)');
	});

	it('asks the opponent for a takeback online: the prompt off the board, declined once (told once, Undo counting down), then the other player\'s accepted', T, async () => {
		const one = await openPlayer({ label: 'player one' });
		const two = await openPlayer({ device: 'phone', label: 'player two' });
		const pair = await matchPlayers(one, two);
		const { front, back } = pair;
		for (const player of [front, back]) {
			assert.equal(await player.app('kind'), 'online');
			assert.equal(await player.page.isVisible('#opponent .ai-tag'), false, 'expected no AI badge for a person');
		}
		await assertTools(front, { undo: 'disabled', redo: 'hidden' }, 'online, before any move');
		const opening = [{ role: 'front', x: 7, y: 7 }, { role: 'back', x: 8, y: 8 }];
		await playMoves(pair, opening);
		await assertTools(front, { undo: 'enabled', redo: 'hidden' }, 'online, with a stone on the board');

		// Black asks; white declines.
		await front.pressButton('#undo');
		await front.waitFor({ offer: 'sent' });
		assert.equal(await front.text('#note'), 'Takeback asked — waiting for your opponent…');
		await assertTools(front, { undo: 'disabled', redo: 'hidden' }, 'while the offer waits');
		await back.waitFor({ offer: 'received' });
		await back.page.waitForSelector('#prompt', { state: 'visible' });
		assert.equal(await back.text('#prompt-text'), 'Your opponent asks to take back a move.');
		assert.equal(await back.text('#note'), 'Your opponent asks to take back a move.');
		await back.assertFits('with the takeback prompt');
		await assertPromptOffBoard(back);
		if (back.device === 'phone')
			await back.screenshot('phone-10-takeback-offer');
		await back.pressButton('#decline');
		await back.waitFor({ offer: '' });
		await back.page.waitForSelector('#prompt', { state: 'hidden' });
		assert.equal(await back.text('#note'), 'You declined the takeback.');
		await front.waitFor({ offer: '' });
		assert.equal(await front.text('#note'), 'Your opponent declined the takeback.');
		assert.equal(await front.page.isVisible('#toast.show'), false, 'expected the answer told once, by the note');
		for (const player of [front, back])
			assert.equal(await player.board(), boardAfter(opening), `expected ${player.label}'s board unchanged`);

		// Asking again at once would be too soon: Undo counts down instead.
		assert.match(await front.text('#undo'), /^Undo \((10|9|8|7) s\)$/);
		assert.equal(await front.page.isDisabled('#undo'), true);
		await front.page.waitForFunction(() => /^Undo \(\d s\)$/.test(document.getElementById('undo').textContent) &&
			Number(document.getElementById('undo').dataset.wait) <= 8);
		assert.equal(front.sentFrames.filter((frame) => frame.includes('"offer"')).length, 1, 'expected no second offer sent');

		// White asks instead; black accepts: white's stone is taken back.
		await back.pressButton('#undo');
		await front.waitFor({ offer: 'received' });
		await back.waitFor({ offer: 'sent' });
		await front.page.waitForSelector('#prompt', { state: 'visible' });
		await front.assertFits('with the takeback prompt');
		await assertPromptOffBoard(front);
		if (front.device === 'phone')
			await front.screenshot('phone-10-takeback-offer');
		await front.pressButton('#accept');
		for (const player of [front, back]) {
			await player.waitForMoves(1);
			await player.waitFor({ offer: '', live: 'true' });
			assert.equal(await player.board(), boardAfter(opening.slice(0, 1)), `expected ${player.label} to show the takeback`);
			assert.equal(await player.boardData('last'), '7,7');
		}
		assert.equal(await back.text('#note'), 'Your opponent accepted the takeback.');
		assert.equal(await back.app('turn'), 'me', 'expected white to move again');
		assert.equal(await front.text('#status'), 'Opponent’s turn');

		// The game goes on from there.
		await playMoves(pair, [{ role: 'back', x: 6, y: 6 }], 1);
		for (const player of [front, back])
			assert.equal(await player.board(), boardAfter([opening[0], { role: 'back', x: 6, y: 6 }]));
		const offers = (player) => player.sentFrames.map((text) => JSON.parse(text)).filter((message) => message.type !== 'move');
		assert.deepEqual(offers(front), [
			{ type: 'offer', what: 'takeback' }, { type: 'answer', what: 'takeback', accept: true },
		], 'expected no second offer while Undo counted down');
		assert.deepEqual(offers(back), [
			{ type: 'answer', what: 'takeback', accept: false }, { type: 'offer', what: 'takeback' },
		]);
	});
});

describe('a game against the computer through a reload', () => {
	// The seat waits for the reloaded page (the suites' servers wait 0 s).
	const GRACE_S = 5;
	const { openPlayer } = useBrowser({ args: ['--reconnect-grace', String(GRACE_S)] },
		{ settleTimeoutMs: scaled(GRACE_S * 1000 + 5000) });

	it('keeps the computer\'s game through a reload with what it can redo', T, async () => {
		const player = await openPlayer({ label: 'player against the computer' });
		await player.pressButton('#mode [data-mode="ai"]');
		await player.pressButton('#level [data-level="easy"]');
		await player.pressButton('#main');
		await player.waitFor({ state: 'playing', kind: 'ai', live: 'true' });
		const mine = await player.app('role') === 'front' ? 'x' : 'o';
		const start = Number(await player.boardData('moves'));
		await player.page.waitForSelector('#app[data-turn="me"]');
		await player.clickCell(3, 3);
		await player.waitForMoves(start + 2); // mine and the computer's reply
		await player.page.waitForSelector('#app[data-turn="me"]');
		await player.pressButton('#undo');
		await player.waitForMoves(start);
		await player.page.waitForSelector('#app[data-turn="me"][data-live="true"]');
		assert.equal(await player.page.isEnabled('#redo'), true, 'expected Redo after Undo');

		await player.page.reload();
		await player.waitFor({ state: 'playing', kind: 'ai', live: 'true' });
		assert.equal(await player.boardData('moves'), String(start));
		assert.equal(await player.page.isEnabled('#redo'), true, 'expected Redo still there after the reload');
		await player.pressButton('#redo');
		await player.waitForMoves(start + 2);
		assert.equal((await player.board())[3 * 15 + 3], mine, 'expected my stone back on (3, 3)');
	});
});
