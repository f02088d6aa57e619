// The pool a player asks to be matched in (core/PROTOCOL.md 10.1): the
// board size, the rule and the time control, chosen on the start screen,
// remembered between visits and sent as the socket's query parameters
// size, rule and tc. The choices are one table each; what the page
// remembers is checked against the protocol's limits before it is used.
// Pure: no DOM, no storage, so node --test imports it.

/** The board sizes offered, the default first. */
export const SIZES = [15, 19];

/** The rules offered, the default first (text keys rule.name.RULE). */
export const RULES = ['freestyle', 'standard', 'renju'];

/**
 * The time controls offered, in the order of the list: the wire form
 * (tc: BASE+INC in seconds, or none). The label is made from it (tcLabel).
 */
export const TIME_CONTROLS = ['none', '60+0', '180+2', '300+3', '600+5', '900+10'];

/** The protocol's limits of a time control, in seconds. */
export const TC_LIMITS = { baseMin: 10, baseMax: 10800, incrementMin: 0, incrementMax: 180 };

/** The pool of a page that has never chosen one: the server's usual defaults. */
export const DEFAULT_POOL = { size: SIZES[0], rule: RULES[0], tc: TIME_CONTROLS[0] };

/**
 * A time control's {base, increment} in seconds, from its wire form
 * ('300+5'), or null for 'none' and for anything the protocol refuses.
 */
export function parseTc(tc) {
	const match = /^(\d{1,5})\+(\d{1,3})$/.exec(String(tc ?? ''));
	if (!match)
		return null;
	const base = Number(match[1]);
	const increment = Number(match[2]);
	if (base < TC_LIMITS.baseMin || base > TC_LIMITS.baseMax ||
	    increment < TC_LIMITS.incrementMin || increment > TC_LIMITS.incrementMax)
		return null;
	return { base, increment };
}

/** True for a time control the server takes: 'none' or a BASE+INC in its limits. */
export function isTc(tc) {
	return tc === 'none' || parseTc(tc) !== null;
}

/**
 * How the list names a time control: minutes and seconds of increment, as
 * players say it ('3+2' for 180+2); a base that is not whole minutes in
 * seconds ('10s+0'); '' for none (the page names it in its language).
 */
export function tcLabel(tc) {
	const parsed = parseTc(tc);
	if (!parsed)
		return '';
	const base = parsed.base % 60 === 0 ? String(parsed.base / 60) : `${parsed.base}s`;
	return `${base}+${parsed.increment}`;
}

/**
 * The pool from what the page remembered ({size, rule, tc}, strings or
 * null): each value kept when the server would take it, else the default.
 * A remembered time control that is not in the list (a link, a test) is
 * kept when it is valid; tcChoices() then shows it too.
 */
export function choosePool({ size, rule, tc } = {}) {
	const sizeNumber = Number(size);
	return {
		size: SIZES.includes(sizeNumber) ? sizeNumber : DEFAULT_POOL.size,
		rule: RULES.includes(rule) ? rule : DEFAULT_POOL.rule,
		tc: isTc(tc) ? tc : DEFAULT_POOL.tc,
	};
}

/** The time controls the list shows: TIME_CONTROLS, plus chosen when it is another valid one. */
export function tcChoices(chosen) {
	return TIME_CONTROLS.includes(chosen) || !isTc(chosen) ? [...TIME_CONTROLS] : [...TIME_CONTROLS, chosen];
}

/** The query of pool for the socket's URL: '&size=19&rule=standard&tc=180%2B2'. */
export function poolQuery(pool) {
	const { size, rule, tc } = choosePool(pool);
	return `&size=${size}&rule=${encodeURIComponent(rule)}&tc=${encodeURIComponent(tc)}`;
}

/** True when a game with time control tc has clocks. */
export function isTimed(tc) {
	return parseTc(tc) !== null;
}
