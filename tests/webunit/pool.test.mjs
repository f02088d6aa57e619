// web/js/pool.js: the pool chosen on the start screen (size, rule, time
// control), what the page remembers of it, and the socket URL that asks
// for it (protocol.js).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
	SIZES, RULES, TIME_CONTROLS, DEFAULT_POOL, parseTc, isTc, tcLabel, choosePool, tcChoices, poolQuery, isTimed,
} from '../../web/js/pool.js';
import { socketUrl } from '../../web/js/protocol.js';
import { LANGUAGES, hasText } from '../../web/js/text.js';

const UID = '3f2b8c1e-6a4d-4e2f-9b1a-0c5d7e8f9a0b';
const PAGE = { protocol: 'http:', host: 'example.test:8080' };

describe('the pool lists', () => {
	it('offer 15 × 15 (the default) and 19 × 19, freestyle (the default), standard and renju', () => {
		assert.deepEqual(SIZES, [15, 19]);
		assert.deepEqual(RULES, ['freestyle', 'standard', 'renju']);
		assert.deepEqual(DEFAULT_POOL, { size: 15, rule: 'freestyle', tc: 'none' });
	});

	it('offer the issue\'s time controls in their wire form, untimed first', () => {
		assert.deepEqual(TIME_CONTROLS, ['none', '60+0', '180+2', '300+3', '600+5', '900+10']);
		assert.deepEqual(TIME_CONTROLS.map(tcLabel), ['', '1+0', '3+2', '5+3', '10+5', '15+10']);
		for (const tc of TIME_CONTROLS)
			assert.ok(isTc(tc), `expected ${tc} to be a time control the server takes`);
	});

	it('name every rule and the untimed choice in both languages', () => {
		for (const lang of LANGUAGES) {
			for (const rule of RULES)
				assert.ok(hasText(lang, `pool.rule.${rule}`), `expected a ${lang} name for ${rule}`);
			for (const key of ['pool.tc.none', 'pool.size', 'pool.label', 'pool.size.label', 'pool.rule.label', 'pool.tc.label'])
				assert.ok(hasText(lang, key), `expected a ${lang} text for ${key}`);
		}
	});
});

describe('a time control', () => {
	it('reads BASE+INC in seconds within the protocol\'s limits', () => {
		assert.deepEqual(parseTc('180+2'), { base: 180, increment: 2 });
		assert.deepEqual(parseTc('10+0'), { base: 10, increment: 0 });
		assert.deepEqual(parseTc('10800+180'), { base: 10800, increment: 180 });
	});

	it('refuses none, a base under 10 s or over 3 h, an increment over 180 s, and anything else', () => {
		for (const tc of ['none', '9+0', '10801+0', '60+181', '60', '60+', '+2', '60+-1', '1.5+0', ' 60+0', '60+0 ',
			'60 0', null, undefined, 60])
			assert.equal(parseTc(tc), null, JSON.stringify(tc));
		assert.equal(isTc('none'), true);
		assert.equal(isTc('9+0'), false);
	});

	it('is labelled in minutes where it can be, in seconds where not', () => {
		assert.equal(tcLabel('180+2'), '3+2');
		assert.equal(tcLabel('10+0'), '10s+0');
		assert.equal(tcLabel('90+5'), '90s+5');
		assert.equal(tcLabel('none'), '');
	});

	it('has clocks unless it is none', () => {
		assert.equal(isTimed('none'), false);
		assert.equal(isTimed('60+0'), true);
		assert.equal(isTimed('garbage'), false);
	});
});

describe('the pool remembered', () => {
	it('keeps what the server would take, value by value', () => {
		assert.deepEqual(choosePool({ size: '19', rule: 'standard', tc: '300+3' }), { size: 19, rule: 'standard', tc: '300+3' });
		assert.deepEqual(choosePool({ size: 19, rule: 'freestyle', tc: 'none' }), { size: 19, rule: 'freestyle', tc: 'none' });
	});

	it('falls back to the default for each value it cannot use', () => {
		assert.deepEqual(choosePool({}), DEFAULT_POOL);
		assert.deepEqual(choosePool(), DEFAULT_POOL);
		assert.deepEqual(choosePool({ size: null, rule: null, tc: null }), DEFAULT_POOL);
		assert.deepEqual(choosePool({ size: '17', rule: 'gomoku', tc: '5+0' }), DEFAULT_POOL);
		assert.deepEqual(choosePool({ size: '19', rule: 'gomoku', tc: '180+2' }), { size: 19, rule: 'freestyle', tc: '180+2' });
	});

	it('keeps a valid time control that is not in the list, and lists it after the others', () => {
		assert.deepEqual(choosePool({ tc: '10+0' }).tc, '10+0');
		assert.deepEqual(tcChoices('10+0'), [...TIME_CONTROLS, '10+0']);
		assert.deepEqual(tcChoices('180+2'), TIME_CONTROLS);
		assert.deepEqual(tcChoices('nonsense'), TIME_CONTROLS);
	});
});

describe('the socket URL of a pool', () => {
	it('sends size, rule and tc, the + of the time control escaped', () => {
		assert.equal(poolQuery({ size: 19, rule: 'standard', tc: '180+2' }), '&size=19&rule=standard&tc=180%2B2');
		assert.equal(poolQuery(DEFAULT_POOL), '&size=15&rule=freestyle&tc=none');
	});

	it('asks for the pool online and against the computer, before updates=move', () => {
		const pool = { size: 19, rule: 'standard', tc: '60+0' };
		assert.equal(socketUrl(PAGE, UID, '', { pool }),
			`ws://example.test:8080/?uid=${UID}&size=19&rule=standard&tc=60%2B0&updates=move`);
		assert.equal(socketUrl(PAGE, UID, 'Ada', { mode: 'ai', level: 'hard', pool }),
			`ws://example.test:8080/?uid=${UID}&name=Ada&mode=ai&level=hard&size=19&rule=standard&tc=60%2B0&updates=move`);
	});

	it('asks for no pool when given none, as before protocol 2', () => {
		assert.equal(socketUrl(PAGE, UID), `ws://example.test:8080/?uid=${UID}&updates=move`);
	});

	it('never sends a value the server would refuse', () => {
		assert.equal(poolQuery({ size: 7, rule: 'x&y', tc: '1+0' }), '&size=15&rule=freestyle&tc=none');
	});
});
