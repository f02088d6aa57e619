// Emotes (PROTOCOL.md 10.5): one word of a fixed list, relayed to the
// opponent as {"type":"emote","by":SIDE,"emote":E} and nothing else (no
// echo to the sender, no free text); bad_emote for a missing or unknown
// word, too_soon within 3 s of the sender's last emote, not_in_game while
// waiting; allowed in a finished game; counted in gomoku_emotes_total.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useServer } from './lib/server.mjs';
import { otherRole } from './lib/client.mjs';
import {
	EMOTES, pairIn, waitIn, bothNext, expectRefusal, timedMoves, quietMoves, metricsOf, assertMetricsGrew, seat,
} from './lib/protocol2.mjs';
import { testTimeout, sleep } from './lib/time.mjs';

const T = testTimeout(30_000);
const SIZE = 15;
const EMOTE_GAP_MS = 3000;

/** Sends emote E from side of pair and checks the relay to the opponent only. */
async function relayed(pair, side, emote, extra = {}) {
	const sender = seat(pair, side);
	const opponent = seat(pair, otherRole(side));
	sender.send({ type: 'emote', emote, ...extra });
	const message = await opponent.next('emote');
	assert.deepEqual(message, { type: 'emote', by: side, emote },
		`expected ${opponent.label} to get exactly {type, by, emote}, got ${JSON.stringify(message)}`);
	return { message, receivedAt: Date.now() };
}

describe('emotes', () => {
	const server = useServer();

	it('relays each emote of the list to the opponent, with the sender\'s side, and nothing to the sender', T, async () => {
		const before = await metricsOf(server);
		// One emote per player: the 3 s gap is per sender.
		for (let i = 0; i < EMOTES.length; i += 2) {
			const pair = await pairIn(server, {});
			await relayed(pair, 'front', EMOTES[i]);
			await relayed(pair, 'back', EMOTES[i + 1]);
			await pair.front.expectNothing(50, 'after the emotes (no echo)');
			await pair.back.expectNothing(0, 'after the emotes (no echo)');
			await pair.front.close(1000);
			await pair.back.close(1000);
		}
		assertMetricsGrew(before, await metricsOf(server), { gomoku_emotes_total: EMOTES.length });
	});

	it('relays nothing but the word: extra fields, free text included, are dropped', T, async () => {
		const pair = await pairIn(server, {});
		await relayed(pair, 'back', 'gg', { text: 'you are <b>bad</b>', by: 'front', to: 'everyone', emote2: 'smug' });
		await pair.back.expectNothing(50);
	});

	it('refuses a missing or unknown emote with bad_emote, to the sender only', T, async () => {
		const pair = await pairIn(server, {});
		const bad = [
			{ type: 'emote' }, { type: 'emote', emote: 'love' }, { type: 'emote', emote: 'Hello' },
			{ type: 'emote', emote: 'HELLO' }, { type: 'emote', emote: ' hello' }, { type: 'emote', emote: '' },
			{ type: 'emote', emote: null }, { type: 'emote', emote: 1 }, { type: 'emote', emote: ['hello'] },
			{ type: 'emote', emote: { word: 'hello' } }, { type: 'emote', emote: true },
			{ type: 'emote', emote: 'you are bad' }, { type: 'emote', emote: 'hello'.repeat(1000) },
			{ type: 'emote', text: 'hello' },
		];
		for (const message of bad)
			await expectRefusal(pair.front, message, 'bad_emote');
		await pair.back.expectNothing(100, 'after refused emotes');
		// The refusals did not count as emotes: one goes through at once.
		await relayed(pair, 'front', 'hello');
	});

	it('refuses a second emote within 3 s with too_soon, and relays one after the gap', T, async () => {
		const pair = await pairIn(server, {});
		const first = await relayed(pair, 'front', 'hurry');
		await expectRefusal(pair.front, { type: 'emote', emote: 'wow' }, 'too_soon');
		await pair.back.expectNothing(50, 'after a refused emote');
		// The other player has a gap of its own.
		await relayed(pair, 'back', 'oops');
		// The server took the first emote before the opponent got it: 3 s
		// from then (and a little) the gap is over.
		const wait = first.receivedAt + EMOTE_GAP_MS + 50 - Date.now();
		if (wait > 0)
			await sleep(wait);
		await relayed(pair, 'front', 'wow');
	});

	it('allows emotes in a finished game, to the opponent still seated', T, async () => {
		const pair = await pairIn(server, {});
		await timedMoves(pair, quietMoves(2, SIZE));
		pair.back.send({ type: 'resign' });
		await bothNext(pair, 'winner');
		await relayed(pair, 'front', 'thanks');
		await relayed(pair, 'back', 'gg');
	});

	it('answers an emote of a waiting player with not_in_game, an unknown one with bad_emote', T, async () => {
		const player = await waitIn(server);
		await expectRefusal(player, { type: 'emote', emote: 'hello' }, 'not_in_game');
		await expectRefusal(player, { type: 'emote', emote: 'love' }, 'bad_emote');
		await player.expectNothing(50);
	});

	it('counts a bad_emote and a too_soon in gomoku_errors_total', T, async () => {
		const before = await metricsOf(server);
		const pair = await pairIn(server, {});
		await expectRefusal(pair.front, { type: 'emote', emote: 'nope' }, 'bad_emote');
		await relayed(pair, 'front', 'nice');
		await expectRefusal(pair.front, { type: 'emote', emote: 'nice' }, 'too_soon');
		assertMetricsGrew(before, await metricsOf(server), {
			'gomoku_errors_total{code="bad_emote"}': 1,
			'gomoku_errors_total{code="too_soon"}': 1,
			gomoku_emotes_total: 1,
		});
	});
});
