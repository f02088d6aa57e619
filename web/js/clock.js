// The game clocks as the page shows them (core/PROTOCOL.md 10.2): the
// server's figures of the last message, the side to move's counted down
// from when that message arrived, the text of a figure, when it is low,
// and when the last seconds tick. The server is the truth: each message
// replaces the figures, and the page never ends a game on its own clock.
// Pure: the time comes in as an argument, so node --test checks it.

/** A clock under this many ms is low: shown in red, and ticking. */
export const LOW_MS = 10_000;

/** No clock runs before this many moves: the first two are not timed. */
export const CLOCK_START_MOVES = 2;

/**
 * The clocks of a message ({front: ms, back: ms}) as the page keeps them,
 * with at, the time (ms) it arrived; null when the message has none or a
 * bad one.
 */
export function clockOf(field, at) {
	if (!field || typeof field !== 'object')
		return null;
	const { front, back } = field;
	if (!Number.isFinite(front) || !Number.isFinite(back))
		return null;
	return { front: Math.max(0, front), back: Math.max(0, back), at };
}

/**
 * The side whose clock runs now, or null: toMove's, once moves is
 * CLOCK_START_MOVES or more, while running (the game goes on).
 */
export function runningSide(toMove, moves, running) {
	return running && moves >= CLOCK_START_MOVES && (toMove === 'front' || toMove === 'back') ? toMove : null;
}

/**
 * The time each side has at now ({front, back} in ms, never below 0):
 * the figures of clock, with the time since it arrived taken off side's
 * (the side whose clock runs, or null).
 */
export function clockAt(clock, side, now) {
	if (!clock)
		return null;
	const left = { front: clock.front, back: clock.back };
	if (side)
		left[side] = Math.max(0, left[side] - Math.max(0, now - clock.at));
	return left;
}

/**
 * A clock's text: m:ss, h:mm:ss from an hour, and tenths under LOW_MS
 * (0:09.4). Rounded up, so that 0:00 shows only once the time is out.
 */
export function clockText(ms) {
	const left = Math.max(0, ms);
	const tenths = Math.ceil(left / 100);
	if (left > 0 && tenths < LOW_MS / 100)
		return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
	const seconds = Math.ceil(left / 1000);
	const hours = Math.floor(seconds / 3600);
	const minutes = Math.floor((seconds % 3600) / 60);
	const rest = String(seconds % 60).padStart(2, '0');
	return hours ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** True when a clock showing ms is low. */
export function isLow(ms) {
	return ms < LOW_MS;
}

/**
 * True when a running clock that showed before ms now shows after ms has
 * crossed a whole second inside the last LOW_MS: time for a tick.
 */
export function tickDue(before, after) {
	if (!(after < before) || after >= LOW_MS || after <= 0)
		return false;
	return Math.ceil(after / 1000) < Math.ceil(before / 1000);
}

/** The whole seconds (rounded up) left before a time at (ms), from now; 0 once past. */
export function secondsUntil(at, now) {
	return Math.max(0, Math.ceil((at - now) / 1000));
}
