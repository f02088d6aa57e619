// web/js/clock.js: the clocks' countdown arithmetic from the server's
// figures, their text, when they are low and when the last seconds tick.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
	LOW_MS, clockOf, runningSide, clockAt, clockText, isLow, tickDue, secondsUntil,
} from '../../web/js/clock.js';

describe('the figures of a message', () => {
	it('are kept with the time they arrived', () => {
		assert.deepEqual(clockOf({ front: 300000, back: 295500 }, 1234), { front: 300000, back: 295500, at: 1234 });
	});

	it('are null when missing or not numbers, and never below 0', () => {
		for (const field of [undefined, null, 'x', {}, { front: 1 }, { front: '1', back: 2 }, { front: NaN, back: 1 }])
			assert.equal(clockOf(field, 0), null, JSON.stringify(field));
		assert.deepEqual(clockOf({ front: -5, back: 0 }, 0), { front: 0, back: 0, at: 0 });
	});
});

describe('the clock that runs', () => {
	it('is the side to move\'s once two moves are played, while the game goes on', () => {
		assert.equal(runningSide('front', 2, true), 'front');
		assert.equal(runningSide('back', 7, true), 'back');
	});

	it('is none in the opening, after the end, or without a side', () => {
		assert.equal(runningSide('front', 0, true), null);
		assert.equal(runningSide('back', 1, true), null);
		assert.equal(runningSide('front', 9, false), null);
		assert.equal(runningSide(null, 9, true), null);
	});
});

describe('the countdown', () => {
	const clock = { front: 60000, back: 45000, at: 10000 };

	it('takes the time since the message off the running side only', () => {
		assert.deepEqual(clockAt(clock, 'front', 12500), { front: 57500, back: 45000 });
		assert.deepEqual(clockAt(clock, 'back', 11000), { front: 60000, back: 44000 });
		assert.deepEqual(clockAt(clock, null, 99999), { front: 60000, back: 45000 });
	});

	it('stops at 0 and never runs backwards (a clock set behind the message)', () => {
		assert.deepEqual(clockAt(clock, 'back', 10000 + 60000), { front: 60000, back: 0 });
		assert.deepEqual(clockAt(clock, 'front', 9000), { front: 60000, back: 45000 });
	});

	it('starts again from each message\'s figures: the server corrects it', () => {
		const later = clockOf({ front: 58000, back: 45000 }, 12000); // the server says 58 s at 12 s, not 58.0
		assert.deepEqual(clockAt(later, 'back', 13000), { front: 58000, back: 44000 });
	});

	it('is null without clocks (an untimed game)', () => {
		assert.equal(clockAt(null, 'front', 0), null);
	});
});

describe('the text of a clock', () => {
	it('is m:ss, rounded up, and h:mm:ss from an hour', () => {
		assert.equal(clockText(300000), '5:00');
		assert.equal(clockText(299001), '5:00');
		assert.equal(clockText(299000), '4:59');
		assert.equal(clockText(10000), '0:10');
		assert.equal(clockText(3600000), '1:00:00');
		assert.equal(clockText(10800000), '3:00:00');
		assert.equal(clockText(3661000), '1:01:01');
	});

	it('shows tenths under 10 s, and 0:00 only once the time is out', () => {
		assert.equal(clockText(9999), '0:10', 'expected 9.999 s to read 0:10');
		assert.equal(clockText(9900), '0:09.9');
		assert.equal(clockText(9401), '0:09.5');
		assert.equal(clockText(100), '0:00.1');
		assert.equal(clockText(1), '0:00.1');
		assert.equal(clockText(0), '0:00');
		assert.equal(clockText(-50), '0:00');
	});

	it('is low under 10 s', () => {
		assert.equal(LOW_MS, 10000);
		assert.equal(isLow(9999), true);
		assert.equal(isLow(10000), false);
		assert.equal(isLow(0), true);
	});
});

describe('the ticks of the last seconds', () => {
	it('come each time a whole second under 10 s is crossed', () => {
		assert.equal(tickDue(9100, 8900), true);
		assert.equal(tickDue(9100, 9050), false);
		assert.equal(tickDue(10050, 9950), true, 'expected a tick when the clock enters its last 10 s');
		assert.equal(tickDue(1100, 900), true);
	});

	it('never come above 10 s, at 0, or when the clock did not go down', () => {
		assert.equal(tickDue(12100, 11900), false);
		assert.equal(tickDue(100, 0), false, 'expected the flag, not a tick');
		assert.equal(tickDue(5000, 5000), false);
		assert.equal(tickDue(4000, 6500), false, 'expected no tick when an increment put time back');
	});
});

describe('the seconds to a deadline', () => {
	it('are rounded up and never below 0', () => {
		assert.equal(secondsUntil(30000, 0), 30);
		assert.equal(secondsUntil(30000, 100), 30);
		assert.equal(secondsUntil(30000, 29001), 1);
		assert.equal(secondsUntil(30000, 30000), 0);
		assert.equal(secondsUntil(30000, 40000), 0);
	});
});
