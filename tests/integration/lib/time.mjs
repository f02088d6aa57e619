// Deadlines that hold on a busy machine.
//
// A test waits for events (a message, a log line, a closed socket), never
// for a fixed time; but every wait has a deadline, so that a test that
// will never see its event fails instead of hanging. A deadline that holds
// on an idle machine fails on one whose cores are shared with other work,
// or with the server under valgrind (ten to fifty times slower) or ASan.
// Every deadline of the tests is therefore written for an idle machine
// and goes through scaled():
//
//   GOMOKU_TEST_TIME_SCALE   the factor (default 1); tests/valgrind/run.sh
//                            sets 10, the ASan stage of ./gomoku.sh 3.
//
// A wait that asserts silence (expectNothing) is not scaled up: a busier
// machine only makes it weaker, never wrong.

const factor = Number(process.env.GOMOKU_TEST_TIME_SCALE || 1);

/** The factor every deadline is multiplied by (at least 1). */
export const TIME_SCALE = Number.isFinite(factor) && factor >= 1 ? factor : 1;

/** A deadline of ms milliseconds on an idle machine, scaled. */
export function scaled(ms) {
	return Math.ceil(ms * TIME_SCALE);
}

/** Options for node:test's it(): a whole test's deadline, scaled. */
export function testTimeout(ms) {
	return { timeout: scaled(ms) };
}

/** Resolves after ms milliseconds (not scaled: a pause, not a deadline). */
export function sleep(ms) {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
