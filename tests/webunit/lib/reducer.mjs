// What the reducer's tests share: run() plays page actions and server
// messages through web/js/game.js's reduce() one after another.

import { reduce } from '../../../web/js/game.js';

/** Runs actions from state (at time 1000); returns the last state and every effect. */
export function run(state, ...actions) {
	const effects = [];
	for (const action of actions) {
		const result = reduce(state, action, 1000);
		state = result.state;
		effects.push(...result.effects);
	}
	return { state, effects };
}
