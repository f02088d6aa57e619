// Playing a friend (web/js/invite.js, and its cases in game.js and
// view.js): the host's invite (Play a friend, its code, the listing
// choice that makes a new one, a drop that kills it, the server's limit),
// the friend's link (joined at once with a name, else asked; a code the
// server does not know told as used or expired, never retried), the
// match that ends both, the socket's query and the link and route.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { reduce } from '../../web/js/game.js';
import { run } from './lib/reducer.mjs';
import { initialState } from '../../web/js/state.js';
import { statusOf, noteOf, controlsOf, pageDataOf } from '../../web/js/view.js';
import {
	INVITE_PATTERN, isInviteCode, inviteLink, inviteQueryOf, invitePhaseOf, invitePanelOf,
} from '../../web/js/invite.js';
import { socketUrl, RETRY_DELAYS_MS } from '../../web/js/protocol.js';
import { routeOf } from '../../web/js/notation.js';
import { LANGUAGES, hasText, text } from '../../web/js/text.js';

const ROOM = '9c1d4a77-2b3e-4f10-8a6b-5d4e3c2b1a09';
const UID = '3f2b8c1e-6a4d-4e2f-9b1a-0c5d7e8f9a0b';
const CODE = 'Ps54FDsXqUOr';
const WELCOME = { type: 'welcome', uid: UID, protocol: 2, size: 15, rule: 'freestyle', tc: 'none', version: '0.1.0' };
const ROLE = { type: 'role', role: 'back', room: ROOM, size: 19, rule: 'standard', tc: '180+2', opponent: { name: 'Ann' } };
const NO_SUCH_INVITE = { type: 'error', code: 'no_such_invite', message: 'no invite waits with that code' };


function kinds(effects) {
	return effects.map((effect) => (effect.kind === 'sound' ? `sound:${effect.name}` : effect.kind));
}

/** A host whose invite the server told. */
function hosting(listed = false) {
	return run(reduce(initialState(), { type: 'client/invite-listed', listed }).state,
		{ type: 'client/invite' }, WELCOME, { type: 'invite', code: CODE }).state;
}

/** A friend's page that opened the link, joined or not. */
function invited(join = false) {
	return run(initialState(), { type: 'client/invited', code: CODE, join });
}

describe('the host of an invite', () => {
	it('asks for a new invite on a socket of its own, from the start screen of online play', () => {
		const start = initialState();
		assert.equal(controlsOf(start).friend.hidden, false, 'expected Play a friend on the start screen');
		const { state, effects } = run(start, { type: 'client/invite' });
		assert.equal(state.phase, 'searching');
		assert.deepEqual(state.invite, { side: 'host', code: '', listed: false });
		assert.deepEqual(kinds(effects), ['forget-game', 'connect']);
		assert.deepEqual(inviteQueryOf(state), { invite: 'new', listed: false });
		assert.equal(invitePhaseOf(state), 'creating');
		assert.deepEqual(statusOf(state), { key: 'status.invite.creating' });
		assert.equal(controlsOf(state).friend.hidden, true);
		assert.equal(controlsOf(state).cancel.hidden, false);
		assert.deepEqual(invitePanelOf(state), { hidden: false, code: '', listed: false });
	});

	it('shows the code the server tells, and waits for the friend', () => {
		const state = hosting();
		assert.equal(state.invite.code, CODE);
		assert.equal(state.link, 'open');
		assert.equal(invitePhaseOf(state), 'open');
		assert.equal(pageDataOf(state).invite, 'open');
		assert.deepEqual(invitePanelOf(state), { hidden: false, code: CODE, listed: false });
		assert.deepEqual(statusOf(state), { key: 'status.invite.waiting' });
		assert.deepEqual(noteOf(state, 1000), { key: 'note.invite.waiting' });
		assert.deepEqual(controlsOf(state).main, { key: 'button.invite.waiting', disabled: true });
		assert.equal(controlsOf(state).modes.hidden, true);
	});

	it('ignores a code that is not one, or that comes outside an invite', () => {
		const creating = run(initialState(), { type: 'client/invite' }, WELCOME).state;
		for (const code of ['', 'has space', 'a'.repeat(65), 12, null, 'ü-code'])
			assert.equal(reduce(creating, { type: 'invite', code }).state, creating, String(code));
		const searching = run(initialState(), { type: 'client/find' }, WELCOME).state;
		assert.equal(reduce(searching, { type: 'invite', code: CODE }).state, searching);
	});

	it('offers no invite in the other modes, nor while a game is found or played', () => {
		for (const mode of ['ai', 'local']) {
			const state = reduce(initialState(), { type: 'client/choose', mode }).state;
			assert.equal(controlsOf(state).friend.hidden, true, mode);
			assert.equal(reduce(state, { type: 'client/invite' }).state, state, mode);
		}
		const searching = reduce(initialState(), { type: 'client/find' }).state;
		assert.equal(reduce(searching, { type: 'client/invite' }).state, searching);
	});

	it('asks for the game to be listed when the box is ticked, before or while it waits (a new socket, a new code)', () => {
		const listed = hosting(true);
		assert.deepEqual(inviteQueryOf(listed), { invite: 'new', listed: true });
		assert.equal(invitePanelOf(listed).listed, true);

		const { state, effects } = run(hosting(false), { type: 'client/invite-listed', listed: true });
		assert.deepEqual(kinds(effects), ['connect']);
		assert.deepEqual(state.invite, { side: 'host', code: '', listed: true });
		assert.equal(state.link, 'connecting');
		assert.equal(invitePhaseOf(state), 'creating');
		const told = reduce(run(state, WELCOME).state, { type: 'invite', code: 'NewCode12345' }).state;
		assert.equal(told.invite.code, 'NewCode12345');
		assert.equal(told.listed, true, 'expected the choice kept for the next invite');

		// The same choice again changes nothing.
		assert.deepEqual(kinds(reduce(told, { type: 'client/invite-listed', listed: true }).effects), []);
	});

	it('cancels: the socket closed, the start screen back', () => {
		const { state, effects } = run(hosting(), { type: 'client/cancel' });
		assert.equal(state.phase, 'idle');
		assert.equal(state.invite, null);
		assert.deepEqual(kinds(effects), ['disconnect']);
		assert.equal(controlsOf(state).friend.hidden, false);
	});

	it('is matched like any search when the friend comes: the invite is over', () => {
		const { state, effects } = run(hosting(), { ...ROLE, role: 'front' });
		assert.equal(state.phase, 'playing');
		assert.equal(state.kind, 'online');
		assert.equal(state.size, 19);
		assert.equal(state.invite, null);
		assert.equal(invitePhaseOf(state), '');
		assert.equal(inviteQueryOf(state), null, 'expected a resumed seat to ask for no invite');
		assert.equal(invitePanelOf(state).hidden, true);
		assert.deepEqual(kinds(effects), ['save-game', 'sound:turn']);
	});

	it('tells that the link died with a dropped socket, and offers a new one, with no retry', () => {
		const { state, effects } = run(hosting(), { type: 'client/closed', code: 1006 });
		assert.equal(state.phase, 'idle');
		assert.equal(state.notice, 'invite_lost');
		assert.equal(state.invite, null);
		assert.deepEqual(kinds(effects), ['clear-link']);
		assert.deepEqual(statusOf(state), { key: 'status.invite.lost' });
		assert.deepEqual(noteOf(state, 1000), { key: 'note.invite.lost' });
		assert.equal(pageDataOf(state).notice, 'invite_lost');
		assert.equal(controlsOf(state).friend.hidden, false, 'expected Play a friend to make a new one');
		const again = run(state, { type: 'client/invite' }).state;
		assert.deepEqual(again.invite, { side: 'host', code: '', listed: false });
		assert.equal(again.notice, null);
	});

	it('retries like a search while the server has told no code yet', () => {
		const { state, effects } = run(initialState(), { type: 'client/invite' }, WELCOME,
			{ type: 'client/closed', code: 1006 });
		assert.equal(state.phase, 'searching');
		assert.equal(state.link, 'retrying');
		assert.deepEqual(effects.at(-1), { kind: 'reconnect', delay: RETRY_DELAYS_MS[0] });
		assert.deepEqual(inviteQueryOf(state), { invite: 'new', listed: false });
	});

	it('tells the server\'s limit of open invites in words of its own, with no toast and no retry', () => {
		const { state, effects } = run(initialState(), { type: 'client/invite' },
			{ type: 'error', code: 'rate_limited', message: 'too many open invites from your address' },
			{ type: 'client/closed', code: 1008 });
		assert.equal(state.phase, 'idle');
		assert.equal(state.notice, 'invite_limited');
		assert.deepEqual(kinds(effects), ['forget-game', 'connect', 'clear-link']);
		assert.deepEqual(statusOf(state), { key: 'status.invite.limited' });
	});
});

describe('the friend\'s invite link', () => {
	it('is asked to join when the page knows no name, the name field open and the lobby choices gone', () => {
		const { state, effects } = invited(false);
		assert.equal(state.phase, 'idle');
		assert.deepEqual(state.invite, { side: 'guest', code: CODE });
		assert.deepEqual(effects, []);
		assert.equal(invitePhaseOf(state), 'invited');
		assert.deepEqual(statusOf(state), { key: 'status.invited' });
		assert.deepEqual(noteOf(state, 1000), { key: 'note.invited' });
		const controls = controlsOf(state);
		assert.deepEqual(controls.main, { key: 'button.join', disabled: false });
		assert.equal(controls.cancel.hidden, false);
		assert.equal(controls.nameLocked, false);
		assert.equal(controls.modes.hidden, true);
		assert.equal(controls.friend.hidden, true);
		assert.equal(invitePanelOf(state).hidden, true, 'expected the host\'s panel only');

		const joined = run(state, { type: 'client/find' });
		assert.equal(joined.state.phase, 'searching');
		assert.deepEqual(kinds(joined.effects), ['forget-game', 'connect']);
		assert.deepEqual(inviteQueryOf(joined.state), { invite: CODE, listed: false });
	});

	it('joins at once when the page knows the name, whatever mode was chosen', () => {
		const ai = reduce(initialState(), { type: 'client/choose', mode: 'local' }).state;
		const { state, effects } = run(ai, { type: 'client/invited', code: CODE, join: true });
		assert.equal(state.phase, 'searching');
		assert.deepEqual(kinds(effects), ['forget-game', 'connect']);
		assert.equal(invitePhaseOf(state), 'joining');
		assert.deepEqual(statusOf(state), { key: 'status.invite.joining' });
		assert.deepEqual(controlsOf(state).main, { key: 'button.joining', disabled: true });
		assert.deepEqual(inviteQueryOf(state), { invite: CODE, listed: false });
	});

	it('is matched with the host and its link dropped, so a reload does not join it again', () => {
		const { state, effects } = run(invited(true).state, WELCOME, ROLE);
		assert.equal(state.phase, 'playing');
		assert.equal(state.role, 'back');
		assert.equal(state.size, 19, 'expected the host\'s board');
		assert.equal(state.rule, 'standard');
		assert.equal(state.tc, '180+2');
		assert.equal(state.opponent, 'Ann');
		assert.equal(state.invite, null);
		assert.deepEqual(kinds(effects), ['save-game', 'clear-link']);
	});

	it('that is used or expired is told so once, with the start screen back and no retry', () => {
		const { state, effects } = run(invited(true).state, WELCOME, NO_SUCH_INVITE, { type: 'client/closed', code: 1008 });
		assert.equal(state.phase, 'idle');
		assert.equal(state.link, 'closed');
		assert.equal(state.notice, 'invite_missing');
		assert.equal(state.invite, null);
		assert.deepEqual(kinds(effects), ['clear-link'], 'expected no toast and no reconnect');
		assert.deepEqual(statusOf(state), { key: 'status.invite.missing' });
		assert.deepEqual(noteOf(state, 1000), { key: 'note.invite.missing' });
		assert.equal(pageDataOf(state).notice, 'invite_missing');
		assert.equal(text('en', 'status.invite.missing'), 'This invite link was used or has expired.');
		const controls = controlsOf(state);
		assert.deepEqual(controls.main, { key: 'button.find', disabled: false });
		assert.equal(controls.friend.hidden, false);
		// The next search is a plain one, and clears the notice.
		const next = run(state, { type: 'client/find' }).state;
		assert.equal(next.invite, null);
		assert.equal(next.notice, null);
	});

	it('that cannot be a code is told as used or expired without a socket', () => {
		for (const code of ['', 'not a code', 'x'.repeat(65), '%41bc']) {
			const { state, effects } = run(initialState(), { type: 'client/invited', code, join: true });
			assert.equal(state.notice, 'invite_missing', code);
			assert.deepEqual(kinds(effects), ['clear-link'], code);
		}
	});

	it('retries a dropped socket while joining, and a refusal still ends it', () => {
		const dropped = run(invited(true).state, WELCOME, { type: 'client/closed', code: 1006 });
		assert.equal(dropped.state.link, 'retrying');
		assert.deepEqual(dropped.effects.at(-1), { kind: 'reconnect', delay: RETRY_DELAYS_MS[0] });
		const refused = run(dropped.state, WELCOME, NO_SUCH_INVITE, { type: 'client/closed', code: 1008 }).state;
		assert.equal(refused.notice, 'invite_missing');
	});

	it('can be put aside (Cancel) before joining or while joining, its link dropped', () => {
		const before = run(invited(false).state, { type: 'client/cancel' });
		assert.equal(before.state.invite, null);
		assert.equal(before.state.phase, 'idle');
		assert.deepEqual(kinds(before.effects), ['clear-link']);
		assert.equal(controlsOf(before.state).friend.hidden, false);
		const during = run(invited(true).state, { type: 'client/cancel' });
		assert.equal(during.state.phase, 'idle');
		assert.deepEqual(kinds(during.effects), ['disconnect', 'clear-link']);
	});

	it('opened after a game closes that game\'s socket first, and waits while a game is played', () => {
		const over = run(initialState(), { type: 'client/find' }, WELCOME, ROLE,
			{ type: 'winner', winner: 'front', reason: 'resign', line: [] }).state;
		assert.equal(over.phase, 'over');
		const { state, effects } = run(over, { type: 'client/invited', code: CODE, join: false });
		assert.equal(state.phase, 'idle');
		assert.equal(state.role, null);
		assert.deepEqual(kinds(effects), ['disconnect']);
		const playing = run(initialState(), { type: 'client/find' }, WELCOME, ROLE).state;
		assert.equal(reduce(playing, { type: 'client/invited', code: CODE, join: true }).state, playing);
	});

	it('is not refused by another error: a toast as usual', () => {
		const { state, effects } = run(invited(true).state, WELCOME, { type: 'error', code: 'bad_name', message: 'bad name' });
		assert.equal(state.invite.refused, undefined);
		assert.deepEqual(kinds(effects), ['toast']);
	});
});

describe('the invite\'s link and query', () => {
	it('makes the link on the page\'s origin, which the route reads back as it is', () => {
		assert.equal(inviteLink('http://localhost:8080', CODE), `http://localhost:8080/#invite/${CODE}`);
		assert.deepEqual(routeOf(new URL(inviteLink('https://example.org', CODE)).hash), { kind: 'invite', id: CODE });
		assert.deepEqual(routeOf('#invite/'), { kind: 'invite', id: '' });
		assert.deepEqual(routeOf('#invite/a b'), { kind: 'invite', id: 'a b' });
		assert.equal(routeOf('#invites/abc'), null);
		assert.ok(isInviteCode(CODE) && INVITE_PATTERN.test('-_az09AZ'));
		assert.equal(isInviteCode(42), false);
	});

	it('asks the socket for invite=new (listed=1 when ticked) or the friend\'s code, after the pool', () => {
		const at = { protocol: 'http:', host: 'h:1' };
		const pool = { size: 19, rule: 'standard', tc: '180+2' };
		assert.equal(socketUrl(at, UID, 'Ann', { pool, invite: { invite: 'new', listed: true } }),
			`ws://h:1/?uid=${UID}&name=Ann&size=19&rule=standard&tc=180%2B2&invite=new&listed=1&updates=move`);
		assert.equal(socketUrl(at, UID, '', { invite: { invite: 'new', listed: false } }),
			`ws://h:1/?uid=${UID}&invite=new&updates=move`);
		assert.equal(socketUrl(at, UID, 'Bo', { invite: { invite: CODE, listed: true } }),
			`ws://h:1/?uid=${UID}&name=Bo&invite=${CODE}&updates=move`, 'expected listed only with invite=new');
	});

	it('has every new text in both languages', () => {
		const keys = ['button.friend', 'button.join', 'button.joining', 'button.invite.waiting', 'button.copy', 'button.copied',
			'status.invited', 'note.invited', 'status.invite.creating', 'status.invite.waiting', 'note.invite.waiting',
			'status.invite.joining', 'status.invite.missing', 'note.invite.missing', 'status.invite.lost', 'note.invite.lost',
			'status.invite.limited', 'note.invite.limited', 'invite.title', 'invite.link.label', 'invite.link.making',
			'invite.qr.label', 'invite.listed', 'invite.listed.note', 'toast.invite.copy_failed', 'error.no_such_invite'];
		for (const key of keys)
			for (const lang of LANGUAGES)
				assert.ok(hasText(lang, key), `expected a ${lang} text for ${key}`);
		assert.equal(text('en', 'button.friend'), 'Play a friend');
		assert.equal(text('zh', 'button.friend'), '邀请好友');
	});
});
