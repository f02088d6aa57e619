// web/js/emotes.js: the eight emotes, the client's side of the server's
// rate (one every 3 s), and how long a bubble shows.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
	EMOTES, EMOTE_GAP_MS, BUBBLE_MS, isEmote, canEmoteAt, emoteReadyAt, bubbleAt,
} from '../../web/js/emotes.js';
import { LANGUAGES, hasText, text } from '../../web/js/text.js';

describe('the emotes', () => {
	it('are the protocol\'s eight words, in the order of the bar', () => {
		assert.deepEqual(EMOTES, ['hello', 'hurry', 'nice', 'wow', 'oops', 'thanks', 'gg', 'smug']);
		assert.equal(isEmote('gg'), true);
		for (const word of ['', 'GG', 'toString', 'hi', null, undefined])
			assert.equal(isEmote(word), false, String(word));
	});

	it('each have a button text and a bubble in both languages', () => {
		for (const emote of EMOTES)
			for (const lang of LANGUAGES)
				for (const key of [`emote.${emote}`, `bubble.${emote}`])
					assert.ok(hasText(lang, key), `expected a ${lang} text for ${key}`);
	});

	it('carry the Chinese names of the seed game on the bar', () => {
		assert.deepEqual(['hurry', 'nice', 'wow', 'oops', 'smug'].map((emote) => text('zh', `emote.${emote}`)),
			['催促', '赞美', '惊讶', '抖机灵', '嘚瑟']);
	});
});

describe('the emote rate', () => {
	it('lets the first emote out at once', () => {
		assert.equal(canEmoteAt(null, 0), true);
		assert.equal(emoteReadyAt(null), 0);
	});

	it('holds the next one for 3 s, as the server counts', () => {
		assert.equal(EMOTE_GAP_MS, 3000);
		assert.equal(canEmoteAt(1000, 1000), false);
		assert.equal(canEmoteAt(1000, 3999), false);
		assert.equal(canEmoteAt(1000, 4000), true);
		assert.equal(emoteReadyAt(1000), 4000);
	});
});

describe('a bubble', () => {
	it('shows its emote for BUBBLE_MS from when it came', () => {
		const bubble = { emote: 'wow', at: 5000 };
		assert.equal(bubbleAt(bubble, 5000), 'wow');
		assert.equal(bubbleAt(bubble, 5000 + BUBBLE_MS - 1), 'wow');
		assert.equal(bubbleAt(bubble, 5000 + BUBBLE_MS), '');
	});

	it('shows nothing for no bubble, an unknown word, or before it came', () => {
		assert.equal(bubbleAt(null, 0), '');
		assert.equal(bubbleAt({ emote: 'boo', at: 0 }, 1), '');
		assert.equal(bubbleAt({ emote: 'gg', at: 100 }, 50), '');
	});
});
