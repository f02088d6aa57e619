// Playing a friend: a private game by invite link (core/PROTOCOL.md
// 11.3). The host's socket asks for invite=new (with listed=1 when the
// game may be watched from the lobby) and the server tells it a code; the
// link /#invite/CODE opened by the friend joins with invite=CODE, and
// both get their role as after any match. The reducer (game.js) keeps
// state.invite while the invite is made or used:
//   {side: 'host', code, listed}  waiting for the friend (code '' until
//                                 the server told it)
//   {side: 'guest', code}         the friend's page, before and while it
//                                 joins
// and null once matched, or when there is no invite. This module says
// what a code looks like, the link, the socket's query and what the page
// shows of an invite. Pure: no DOM, so node --test imports it.

/**
 * A code as the page takes it from the server and from a link: URL-safe
 * base64, 1 to 64 characters (the server makes 12 and judges the rest:
 * one it does not know is refused with no_such_invite).
 */
export const INVITE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** True for a string that can be an invite code. */
export function isInviteCode(code) {
	return typeof code === 'string' && INVITE_PATTERN.test(code);
}

/** The link that joins invite code on the page at origin ("http://host:8080"). */
export function inviteLink(origin, code) {
	return `${origin}/#invite/${code}`;
}

/**
 * What the socket asks for about an invite: {invite: 'new', listed} for
 * the host, {invite: CODE, listed: false} for the guest, null otherwise
 * (and once matched: a seat resumed after a drop needs no invite).
 */
export function inviteQueryOf(state) {
	const invite = state.invite;
	if (!invite || state.phase !== 'searching')
		return null;
	if (invite.side === 'host')
		return { invite: 'new', listed: Boolean(invite.listed) };
	return { invite: invite.code, listed: false };
}

/**
 * Where the invite stands, for #app's data-invite: 'creating' (the host
 * waits for its code), 'open' (the link works: the host waits for the
 * friend), 'invited' (the friend's page, before it joins), 'joining', or
 * '' when there is no invite.
 */
export function invitePhaseOf(state) {
	const invite = state.invite;
	if (!invite)
		return '';
	if (invite.side === 'host')
		return state.phase === 'searching' ? (invite.code ? 'open' : 'creating') : '';
	if (state.phase === 'idle')
		return 'invited';
	return state.phase === 'searching' ? 'joining' : '';
}

/**
 * The host's panel over the board: hidden, or its code ('' while the
 * server has not told it: the link and the QR code wait) and whether the
 * game will be listed.
 */
export function invitePanelOf(state) {
	const invite = state.invite;
	if (!invite || invite.side !== 'host' || state.phase !== 'searching')
		return { hidden: true, code: '', listed: state.listed };
	return { hidden: false, code: invite.code, listed: Boolean(invite.listed) };
}
