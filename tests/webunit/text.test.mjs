// web/js/text.js: every string in both languages, the language choice and
// the board's coordinates.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
	LANGUAGES, textKeys, hasText, text, pickLanguage, otherLanguage, columnLabel, rowLabel, pointLabel, computerName,
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

	it('has a text of its own for every error a player can cause by playing, takebacks and modes included', () => {
		const codes = ['not_your_turn', 'occupied', 'out_of_range', 'game_over', 'not_in_game', 'bad_name',
			'bad_mode', 'bad_offer', 'nothing_to_undo', 'nothing_to_redo', 'offer_pending', 'no_offer', 'too_soon', 'unavailable',
			'too_late', 'opponent_gone', 'bad_emote', 'bad_query'];
		for (const code of codes)
			for (const lang of LANGUAGES)
				assert.ok(hasText(lang, `error.${code}`), `expected a ${lang} text for error ${code}`);
	});

	it('tells a too_soon after each kind of request in its own words, in both languages', () => {
		for (const what of ['takeback', 'draw', 'rematch', 'emote'])
			for (const lang of LANGUAGES)
				assert.ok(hasText(lang, `error.too_soon.${what}`), `expected a ${lang} text for too_soon after a ${what}`);
	});

	it('names the new buttons of protocol 2 in both languages', () => {
		const keys = ['button.resign', 'button.abort', 'button.draw', 'button.rematch', 'button.new_opponent'];
		assert.deepEqual(keys.map((key) => text('en', key)), ['Resign', 'Abort', 'Offer draw', 'Rematch', 'New opponent']);
		assert.deepEqual(keys.map((key) => text('zh', key)), ['认输', '中止', '提和', '再战', '换个对手']);
	});

	it('names the modes and levels in both languages', () => {
		assert.deepEqual(['mode.online', 'mode.ai', 'mode.local', 'button.undo', 'button.redo'].map((key) => text('zh', key)),
			['在线对战', '人机对战', '本地双人', '悔棋', '撤销悔棋']);
		assert.deepEqual(['level.easy', 'level.medium', 'level.hard'].map((key) => text('zh', key)), ['简单', '中等', '困难']);
		assert.deepEqual(['mode.online', 'mode.ai', 'mode.local'].map((key) => text('en', key)),
			['Online', 'vs Computer', 'Local two players']);
	});

	it('names the computer with its level in both languages, with the level words of the start screen', () => {
		assert.equal(computerName('en', 'hard'), 'Computer (hard)');
		assert.equal(computerName('zh', 'hard'), '电脑（困难）');
		for (const level of ['easy', 'medium', 'hard']) {
			assert.equal(computerName('en', level), `Computer (${text('en', `level.${level}`).toLowerCase()})`);
			assert.equal(computerName('zh', level), `${text('zh', 'player.computer')}（${text('zh', `level.${level}`)}）`);
		}
	});

	it('names the computer without a level when it has none the page knows', () => {
		for (const level of ['', undefined, 'godlike', 'toString']) {
			assert.equal(computerName('en', level), 'Computer', String(level));
			assert.equal(computerName('zh', level), '电脑', String(level));
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
