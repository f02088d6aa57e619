// web/js/text.js: every string in both languages, the language choice and
// the board's coordinates.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
	LANGUAGES, textKeys, hasText, text, pickLanguage, otherLanguage, columnLabel, rowLabel, pointLabel,
} from '../../web/js/text.js';

describe('text', () => {
	it('has every string in every language, with the same parameters', () => {
		const params = (value) => (value.match(/\{\w+\}/g) || []).sort();
		for (const lang of LANGUAGES) {
			for (const key of textKeys()) {
				assert.ok(hasText(lang, key), `expected a ${lang} string for ${key}`);
				assert.deepEqual(params(text(lang, key)), params(text('en', key)),
					`expected the ${lang} string for ${key} to take the same parameters as the English one`);
			}
		}
	});

	it('fills parameters and leaves unknown ones as they are', () => {
		assert.equal(text('en', 'note.away', { seconds: 12 }), 'Opponent reconnecting… 12 s');
		assert.equal(text('zh', 'note.away', { seconds: 12 }), '对手正在重连… 12 秒');
		assert.equal(text('en', 'note.away'), 'Opponent reconnecting… {seconds} s');
	});

	it('falls back to English, then to the key', () => {
		assert.equal(text('fr', 'button.find'), 'Find opponent');
		assert.equal(text('en', 'no.such.key'), 'no.such.key');
	});

	it('picks Chinese for a Chinese browser and English otherwise', () => {
		assert.equal(pickLanguage(['zh-CN', 'en']), 'zh');
		assert.equal(pickLanguage(['zh-TW']), 'zh');
		assert.equal(pickLanguage(['ZH']), 'zh');
		assert.equal(pickLanguage(['en-US', 'zh-CN']), 'en');
		assert.equal(pickLanguage(['fr-FR', 'zh-CN']), 'zh', 'expected the first known language to win');
		assert.equal(pickLanguage(['fr-FR', 'de']), 'en');
		assert.equal(pickLanguage([]), 'en');
		assert.equal(pickLanguage(undefined), 'en');
	});

	it('toggles between the two languages', () => {
		assert.equal(otherLanguage('en'), 'zh');
		assert.equal(otherLanguage('zh'), 'en');
	});

	it('labels columns A–O from the left and rows 1–15 from the bottom', () => {
		assert.equal(columnLabel(0), 'A');
		assert.equal(columnLabel(14), 'O');
		assert.equal(columnLabel(24), 'Y');
		assert.equal(rowLabel(0, 15), '15');
		assert.equal(rowLabel(14, 15), '1');
		assert.equal(pointLabel(7, 7, 15), 'H8');
	});
});
