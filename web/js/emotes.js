// The emotes (core/PROTOCOL.md 10.5): the eight words a player can send
// its opponent, in one table, the client's side of the server's rate (one
// every 3 s), and how long a bubble stays by a player's card. The words'
// texts are text.js's (emote.WORD for the bar, bubble.WORD for the
// bubble). Pure: the time comes in as an argument, so node --test checks it.

/** The emotes, in the order of the bar: the wire word of each. */
export const EMOTES = ['hello', 'hurry', 'nice', 'wow', 'oops', 'thanks', 'gg', 'smug'];

/** The server refuses a second emote within this many ms (too_soon). */
export const EMOTE_GAP_MS = 3000;

/** A bubble shows for this many ms after its emote. */
export const BUBBLE_MS = 3000;

/** True for a word of the list. */
export function isEmote(word) {
	return EMOTES.includes(word);
}

/**
 * True when an emote may go out at now, the last one having gone at
 * lastAt (null: none yet): EMOTE_GAP_MS after it, as the server counts.
 */
export function canEmoteAt(lastAt, now) {
	return lastAt === null || now - lastAt >= EMOTE_GAP_MS;
}

/** When the bar works again after an emote at lastAt (ms); 0 when it already does. */
export function emoteReadyAt(lastAt) {
	return lastAt === null ? 0 : lastAt + EMOTE_GAP_MS;
}

/** The word of bubble ({emote, at}, or null) while it shows at now, else ''. */
export function bubbleAt(bubble, now) {
	if (!bubble || !isEmote(bubble.emote) || now < bubble.at || now - bubble.at >= BUBBLE_MS)
		return '';
	return bubble.emote;
}
