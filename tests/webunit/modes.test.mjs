// web/js/modes.js: the table of what each game mode allows.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { MODE_RULES, MODES, LEVELS, gameMode, chosenMode } from '../../web/js/modes.js';
import { LANGUAGES, hasText } from '../../web/js/text.js';

const FLAGS = ['server', 'hotSeat', 'computer', 'undo', 'redo', 'offers', 'leave',
	'pools', 'localRule', 'resign', 'abort', 'draw', 'rematch', 'emotes', 'invites'];
const TEXT_KEYS = ['startButton', 'idleStatus', 'searchingButton', 'searchingStatus'];

describe('the modes', () => {
	it('are online, vs Computer and local, in the order of the start screen', () => {
		assert.deepEqual(MODES, ['online', 'ai', 'local']);
		assert.deepEqual(LEVELS, ['beginner', 'easy', 'medium', 'hard', 'master']);
	});

	it('has a name, a computer\'s name and a one-line explanation for each level in every language', () => {
		for (const lang of LANGUAGES)
			for (const level of LEVELS)
				for (const key of [`level.${level}`, `player.computer.${level}`, `level.note.${level}`])
					assert.ok(hasText(lang, key), `expected ${key} in ${lang}`);
	});

	it('each say every flag, and name texts that exist in every language', () => {
		for (const mode of MODES) {
			const rules = MODE_RULES[mode];
			assert.deepEqual(Object.keys(rules).sort(), [...FLAGS, ...TEXT_KEYS].sort(), `expected ${mode} to say everything`);
			for (const flag of FLAGS)
				assert.equal(typeof rules[flag], 'boolean', `expected ${mode}.${flag} to be true or false`);
			for (const field of TEXT_KEYS)
				for (const lang of LANGUAGES)
					assert.ok(hasText(lang, rules[field]), `expected a ${lang} text for ${mode}.${field} (${rules[field]})`);
		}
	});

	it('play local games without the server, redo against the computer and locally, and make offers only online', () => {
		const allowed = (flag) => MODES.filter((mode) => MODE_RULES[mode][flag]);
		assert.deepEqual(allowed('server'), ['online', 'ai']);
		assert.deepEqual(allowed('hotSeat'), ['local']);
		assert.deepEqual(allowed('computer'), ['ai']);
		assert.deepEqual(allowed('undo'), ['online', 'ai', 'local']);
		assert.deepEqual(allowed('redo'), ['ai', 'local']);
		assert.deepEqual(allowed('offers'), ['online']);
		assert.deepEqual(allowed('leave'), ['local']);
	});

	it('ask the server for a pool, resign, abort and rematch in its games, and offer draws and emotes only between players', () => {
		const allowed = (flag) => MODES.filter((mode) => MODE_RULES[mode][flag]);
		assert.deepEqual(allowed('pools'), ['online', 'ai']);
		assert.deepEqual(allowed('resign'), ['online', 'ai']);
		assert.deepEqual(allowed('abort'), ['online', 'ai']);
		assert.deepEqual(allowed('rematch'), ['online', 'ai']);
		assert.deepEqual(allowed('draw'), ['online']);
		assert.deepEqual(allowed('emotes'), ['online']);
	});

	it('give the game shown its mode\'s rules, and no game\'s buttons when none is shown', () => {
		assert.equal(gameMode({ kind: 'ai' }), MODE_RULES.ai);
		assert.equal(chosenMode({ mode: 'local' }), MODE_RULES.local);
		const none = gameMode({ kind: '' });
		assert.equal(none.server, true, 'expected a search\'s or a resume\'s socket to count');
		for (const flag of FLAGS.filter((name) => name !== 'server'))
			assert.equal(none[flag], false, flag);
		assert.equal(gameMode({ kind: 'toString' }), none, 'expected only the table\'s own modes');
	});
});
