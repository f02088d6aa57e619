// Protocol 2 in real browsers against the real server (core/PROTOCOL.md
// 10): a timed game whose clock runs out, a resignation (asked first), a
// draw offered and accepted, a rematch on the same socket with the sides
// swapped, an emote seen by the opponent (and hidden once muted), an
// abort, and the computer playing in the pool asked for. Screenshots of
// each end go to tests/artifacts/ (desktop-lifecycle-*.png), with a phone
// screenshot of a timed game in progress.
//
// The games played to each end (five, full board, forfeit, resign, draw,
// abort) are 3+2 games, as a player picks them from the start screen.
// The timed game that runs out uses tc=10+0, the smallest base the server
// takes, which
// the start screen's list does not offer: the test puts it where the page
// remembers its choice, as a returning player's page would have it.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser, matchPlayers, playMoves, boardAfter, WAIT_MS } from './lib/browser.mjs';
import { winningScript } from '../integration/lib/game.mjs';
import { testTimeout, scaled } from '../integration/lib/time.mjs';

const T = testTimeout(120_000);
// A whole 15 x 15 board clicked move by move.
const T_FULL = testTimeout(360_000);

// The time control of the games played to each end: 3 minutes and 2 s
// a move, from the start screen's list.
const TC = '180+2';

// The opening both sides play before a resignation, a draw offer or a
// flag: once two moves are played, the clocks run and abort is too late.
const OPENING = [{ role: 'front', x: 7, y: 7 }, { role: 'back', x: 8, y: 8 }];

/**
 * Makes player's page remember pool ({size, rule, tc}, strings) as its
 * choice, then loads it again: the start screen shows it, and the next
 * search asks for it.
 */
async function rememberPool(player, pool) {
	await player.page.evaluate((values) => {
		for (const [field, value] of Object.entries(values))
			localStorage.setItem(`gomoku.${field}`, value);
	}, pool);
	await player.load();
}

/**
 * What player's page receives from the server (call before its first
 * socket opens): messages, every message parsed, and until(test), which
 * resolves with the first message test accepts, one already received
 * included, and fails after WAIT_MS.
 */
function watchMessages(player) {
	const messages = [];
	const waiters = new Set();
	player.page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => {
		const message = JSON.parse(String(payload));
		messages.push(message);
		for (const waiter of waiters)
			waiter(message);
	}));
	return {
		messages,
		until(test, what) {
			const found = messages.find(test);
			if (found)
				return Promise.resolve(found);
			return new Promise((resolve, reject) => {
				const timer = setTimeout(() => {
					waiters.delete(check);
					reject(new Error(`expected ${player.label}'s page to receive ${what} within ${WAIT_MS} ms`));
				}, WAIT_MS);
				function check(message) {
					if (!test(message))
						return;
					clearTimeout(timer);
					waiters.delete(check);
					resolve(message);
				}
				waiters.add(check);
			});
		},
	};
}

/**
 * Two players whose pages chose the 3+2 pool, matched: {front, back}.
 * Checks the pool the server seated them in.
 */
async function matchTimed(openPlayer) {
	const first = await openPlayer({ label: 'first player' });
	const second = await openPlayer({ label: 'second player' });
	for (const player of [first, second])
		await rememberPool(player, { tc: TC });
	const pair = await matchPlayers(first, second);
	for (const player of [pair.front, pair.back])
		await player.waitFor({ tc: TC });
	return pair;
}

/**
 * The moves that fill a 15 x 15 board with no five: front's stones where
 * (x + 2y) mod 4 < 2 (rows of two and two, each row shifted by two, so
 * that every line, straight or diagonal, alternates at most two by two),
 * 113 of them, back's the 112 others, alternating from front.
 */
function fullBoard15() {
	const front = [];
	const back = [];
	for (let y = 0; y < 15; y++)
		for (let x = 0; x < 15; x++)
			((x + 2 * y) % 4 < 2 ? front : back).push({ x, y });
	assert.equal(front.length, 113, 'script error: front needs 113 stones');
	const moves = [];
	for (let i = 0; i < front.length; i++) {
		moves.push({ ...front[i], role: 'front' });
		if (back[i])
			moves.push({ ...back[i], role: 'back' });
	}
	return moves;
}

/** Asserts the status line of each player: [[player, text], …]. */
async function assertStatus(pairs) {
	for (const [player, expected] of pairs)
		assert.equal(await player.text('#status'), expected, `expected ${player.label}'s status`);
}

describe('the whole game of protocol 2 in the browser', () => {
	const { openPlayer } = useBrowser();

	it('shows both clocks in a timed game, counts the first move down, and shows the flag when the time runs out', T, async () => {
		const desktop = await openPlayer({ label: 'desktop player' });
		const phone = await openPlayer({ device: 'phone', label: 'phone player' });
		for (const player of [desktop, phone]) {
			await rememberPool(player, { tc: '10+0' });
			assert.equal(await player.page.inputValue('#pool-tc'), '10+0', 'expected the remembered time control chosen');
		}
		const urls = [];
		desktop.page.on('websocket', (socket) => urls.push(socket.url()));
		const pair = await matchPlayers(desktop, phone);
		assert.match(urls[0], /[?&]size=15&rule=freestyle&tc=10%2B0(&|$)/, 'expected the socket to ask for the pool');
		for (const player of [desktop, phone]) {
			await player.waitFor({ tc: '10+0', protocol: '2' });
			assert.equal(await player.text('#me .clock'), '0:10');
			assert.equal(await player.text('#opponent .clock'), '0:10');
			assert.equal(await player.page.getAttribute('#me', 'data-timed'), 'true');
		}
		assert.match(await pair.front.text('#note'), /^Make your first move within \d+ s\.$/);
		assert.match(await pair.back.text('#note'), /^Opponent’s first move within \d+ s\.$/);
		assert.equal(await pair.front.text('#resign-text'), 'Abort', 'expected Abort in the opening');

		await playMoves(pair, OPENING);
		// Black's clock runs from white's first move: it goes low, then the flag falls.
		await pair.front.page.waitForSelector('#me .clock[data-running="true"][data-low="true"]', { timeout: WAIT_MS });
		await pair.back.page.waitForSelector('#opponent .clock[data-running="true"]', { timeout: WAIT_MS });
		assert.equal(await pair.front.text('#resign-text'), 'Resign');
		await phone.assertFits('a timed game in progress');
		await phone.screenshot('phone-lifecycle-timed');

		await pair.front.waitFor({ state: 'over', result: 'loss', reason: 'timeout' }, scaled(20_000));
		await pair.back.waitFor({ state: 'over', result: 'win', reason: 'timeout' });
		await assertStatus([[pair.front, 'You lost on time.'], [pair.back, 'You win on time.']]);
		for (const [player, card] of [[pair.front, '#me'], [pair.back, '#opponent']]) {
			assert.equal(await player.page.getAttribute(`${card} .clock`, 'data-flag'), 'true', `expected ${player.label} to show black's flag`);
			assert.equal(await player.text(`${card} .clock`), '0:00');
			assert.equal(await player.text('#note'), 'Black ran out of time.');
		}
		assert.equal(await pair.back.page.getAttribute('#me .clock', 'data-flag'), 'false');
		await desktop.assertFits('the flag fell');
		await phone.assertFits('the flag fell, Rematch and the emotes shown');
		await desktop.screenshot('desktop-lifecycle-timeout');
		assert.ok(!desktop.sentFrames.some((frame) => JSON.parse(frame).type === 'winner'),
			'expected the page to leave the flag to the server');
	});

	it('plays a 3+2 game to a five: the winner\'s line, the clocks stopped', T, async () => {
		const pair = await matchTimed(openPlayer);
		const { moves } = winningScript({ size: 15, winner: 'back', direction: 'diagonal', start: { x: 3, y: 3 } });
		await playMoves(pair, moves);
		await pair.back.waitFor({ state: 'over', result: 'win', reason: 'five' });
		await pair.front.waitFor({ state: 'over', result: 'loss', reason: 'five' });
		await pair.back.assertFits('after a five');
		await pair.back.screenshot('desktop-lifecycle-five');
	});

	it('plays a 3+2 game to a full board, which goes to white', T_FULL, async () => {
		const pair = await matchTimed(openPlayer);
		await playMoves(pair, fullBoard15());
		await pair.back.waitFor({ state: 'over', result: 'win', reason: 'full' });
		await pair.front.waitFor({ state: 'over', result: 'loss', reason: 'full' });
		await pair.front.screenshot('desktop-lifecycle-full');
	});

	it('ends a 3+2 game by forfeit when a player\'s page goes away', T, async () => {
		const pair = await matchTimed(openPlayer);
		await playMoves(pair, OPENING);
		// This server keeps no seat (--reconnect-grace 0): gone is lost.
		await pair.front.close();
		await pair.back.waitFor({ state: 'over', result: 'win', reason: 'forfeit' });
		await pair.back.screenshot('desktop-lifecycle-forfeit');
	});

	it('resigns after asking, and the opponent wins', T, async () => {
		const pair = await matchTimed(openPlayer);
		await playMoves(pair, OPENING);
		const { front, back } = pair;

		// Resign asks first; Cancel keeps playing.
		await front.pressButton('#resign');
		await front.waitFor({ confirm: 'resign' });
		assert.equal(await front.text('#prompt-text'), 'Resign this game?');
		assert.equal(await front.text('#accept'), 'Resign');
		await front.pressButton('#decline');
		await front.waitFor({ confirm: '', state: 'playing' });
		assert.ok(!front.sentFrames.some((frame) => JSON.parse(frame).type === 'resign'), 'expected Cancel to send nothing');

		await front.pressButton('#resign');
		await front.waitFor({ confirm: 'resign' });
		await front.pressButton('#accept');
		await front.waitFor({ state: 'over', result: 'loss', reason: 'resign' });
		await back.waitFor({ state: 'over', result: 'win', reason: 'resign' });
		await assertStatus([[front, 'You resigned.'], [back, 'You win — your opponent resigned.']]);
		assert.equal(await back.text('#main-text'), 'New opponent');
		assert.equal(await back.page.isVisible('#rematch'), true, 'expected Rematch beside New opponent');
		await back.assertFits('after a resignation');
		await back.screenshot('desktop-lifecycle-resign');
	});

	it('offers a draw, which the opponent accepts', T, async () => {
		const pair = await matchTimed(openPlayer);
		const { front, back } = pair;
		assert.equal(await front.page.isDisabled('#draw'), true, 'expected no draw offer in the opening');
		await playMoves(pair, OPENING);

		await back.pressButton('#draw');
		await back.waitFor({ offer: 'sent', 'offer-what': 'draw' });
		assert.equal(await back.text('#note'), 'Draw offered — waiting for your opponent…');
		await front.waitFor({ offer: 'received', 'offer-what': 'draw' });
		await front.page.waitForSelector('#prompt', { state: 'visible' });
		assert.equal(await front.text('#prompt-text'), 'Your opponent offers a draw.');
		await front.pressButton('#accept');
		for (const player of [front, back])
			await player.waitFor({ state: 'over', result: 'draw', reason: 'agreement' });
		await assertStatus([[front, 'Draw by agreement.'], [back, 'Draw by agreement.']]);
		await back.screenshot('desktop-lifecycle-draw');
	});

	it('plays a rematch on the same socket with the sides swapped', T, async () => {
		const one = await openPlayer({ label: 'first player' });
		const two = await openPlayer({ label: 'second player' });
		const inbox = watchMessages(one);
		const first = await matchPlayers(one, two);
		await playMoves(first, OPENING);
		await first.front.pressButton('#resign');
		await first.front.pressButton('#accept');
		for (const player of [one, two])
			await player.waitFor({ state: 'over', reason: 'resign' });

		// The loser asks; the winner sees the prompt and accepts.
		await first.front.pressButton('#rematch');
		await first.front.waitFor({ offer: 'sent', 'offer-what': 'rematch' });
		assert.equal(await first.front.text('#rematch'), 'Rematch asked…');
		await first.back.waitFor({ offer: 'received', 'offer-what': 'rematch' });
		await first.back.page.waitForSelector('#prompt', { state: 'visible' });
		assert.equal(await first.back.text('#prompt-text'), 'Your opponent asks for a rematch.');
		await first.back.pressButton('#accept');

		// A fresh game on the same sockets, the colours swapped.
		for (const player of [one, two])
			await player.waitFor({ state: 'playing', live: 'true' });
		const second = { front: first.back, back: first.front };
		assert.equal(await second.front.app('role'), 'front', 'expected white of the first game to play black');
		assert.equal(await second.back.app('role'), 'back');
		for (const player of [one, two]) {
			assert.equal(await player.boardData('moves'), '0');
			assert.equal(await player.board(), boardAfter([]));
			assert.equal(player.sockets, 1, `expected ${player.label} to keep its one socket`);
		}
		const roles = inbox.messages.filter((message) => message.type === 'role');
		assert.equal(roles.length, 2, 'expected a second role for the rematch');
		assert.notEqual(roles[1].room, roles[0].room, 'expected a new room id');
		assert.equal(roles[1].role, roles[0].role === 'front' ? 'back' : 'front');
		assert.deepEqual(JSON.parse(await one.page.evaluate(() => localStorage.getItem('gomoku.game'))),
			{ room: roles[1].room, role: roles[1].role }, 'expected the new game remembered for a reload');
		await playMoves(second, [{ role: 'front', x: 3, y: 3 }]);
		await second.front.screenshot('desktop-lifecycle-rematch');
	});

	it('shows an emote to the opponent by the sender\'s card, pauses the bar, and hides it once muted', T, async () => {
		const one = await openPlayer({ label: 'sender' });
		const two = await openPlayer({ label: 'receiver' });
		const inbox = watchMessages(two);
		await matchPlayers(one, two);

		await one.pressButton('#emotes .emote[data-emote="hello"]');
		await one.page.waitForSelector('#me[data-emote="hello"] .bubble', { state: 'visible' });
		assert.equal(await one.text('#me .bubble'), 'Hello!');
		assert.equal(await one.page.isDisabled('#emotes .emote[data-emote="gg"]'), true, 'expected the bar to pause after an emote');
		await two.page.waitForSelector('#opponent[data-emote="hello"] .bubble', { state: 'visible' });
		assert.equal(await two.text('#opponent .bubble'), 'Hello!');
		await two.screenshot('desktop-lifecycle-emote');

		// The receiver mutes them: the next one does not show.
		await two.pressButton('#emote-mute');
		await two.page.waitForSelector('#emote-mute[aria-pressed="true"]');
		await one.page.waitForSelector('#emotes .emote[data-emote="wow"]:enabled', { timeout: WAIT_MS });
		await one.pressButton('#emotes .emote[data-emote="wow"]');
		await one.page.waitForSelector('#me[data-emote="wow"] .bubble', { state: 'visible' });
		await inbox.until((message) => message.type === 'emote' && message.emote === 'wow', 'the second emote');
		// The message is handled in the same task it arrived in; the page is drawn by the next frame.
		await two.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())));
		assert.equal(await two.page.isVisible('#opponent .bubble'), false, 'expected a muted emote not to show');
		assert.equal(await two.page.getAttribute('#opponent', 'data-emote'), '');
		const sent = one.sentFrames.map((text) => JSON.parse(text)).filter((message) => message.type === 'emote');
		assert.deepEqual(sent, [{ type: 'emote', emote: 'hello' }, { type: 'emote', emote: 'wow' }]);
		assert.deepEqual(inbox.messages.filter((message) => message.type === 'emote'),
			[{ type: 'emote', by: await one.app('role'), emote: 'hello' }, { type: 'emote', by: await one.app('role'), emote: 'wow' }]);

		// The switch is remembered.
		await two.page.reload();
		await two.page.waitForSelector('#app[data-lang]');
		assert.equal(await two.page.evaluate(() => localStorage.getItem('gomoku.emotes-muted')), '1');
	});

	it('aborts a game before its second move: it does not count', T, async () => {
		const pair = await matchTimed(openPlayer);
		const { front, back } = pair;
		await playMoves(pair, OPENING.slice(0, 1));
		assert.equal(await back.text('#resign-text'), 'Abort');
		await back.pressButton('#resign');
		for (const player of [front, back])
			await player.waitFor({ state: 'over', result: 'aborted', reason: 'aborted' });
		await assertStatus([[front, 'Game aborted.'], [back, 'Game aborted.']]);
		assert.equal(await front.text('#note'), 'An aborted game does not count.');
		await front.screenshot('desktop-lifecycle-aborted');
	});

	it('plays the computer in the pool asked for: 19 × 19, standard', T, async () => {
		const player = await openPlayer({ label: 'player against the computer' });
		await player.pressButton('#mode [data-mode="ai"]');
		await player.page.selectOption('#pool-size', '19');
		await player.page.selectOption('#pool-rule', 'standard');
		const urls = [];
		player.page.on('websocket', (socket) => urls.push(socket.url()));
		await player.pressButton('#main');
		await player.waitFor({ state: 'playing', kind: 'ai' });
		assert.match(urls[0], /[?&]mode=ai&level=\w+&size=19&rule=standard&tc=none(&|$)/);
		assert.equal(await player.boardData('size'), '19');
		assert.equal(await player.text('#rule'), 'Standard rule: exactly five in a row wins; six or more do not.');
		assert.equal(await player.page.evaluate(() => localStorage.getItem('gomoku.size')), '19', 'expected the size remembered');
	});
});
