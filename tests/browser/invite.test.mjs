// Playing a friend in real browsers: "Play a friend" shows a link, its
// Copy button and its QR code (which decodes to the link); the friend who
// opens the link is asked a name, joins and plays a timed game to a five
// like any online game (clocks, emotes, rematch); with the listing box
// ticked a third page finds the game in the lobby and watches every move;
// the finished game's replay steps move by move. An unlisted game stays
// out of the lobby; a used or bogus link says so once and opens no more
// sockets; a host whose socket drops is told its link died and makes a
// new one. Screenshots go to tests/artifacts/ (desktop-invite-*,
// phone-invite-*).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import jsQR from 'jsqr';

import { useBrowser, playMoves, boardAfter, WAIT_MS } from './lib/browser.mjs';
import { startProxy } from './lib/proxy.mjs';
import { SHORT_GAME, SHORT_GAME_FIVE, SHORT_GAME_LIST, moveList, lastGameId } from './lib/short-game.mjs';
import { testTimeout } from '../integration/lib/time.mjs';

const T = testTimeout(150_000);

const MISSING = 'This invite link was used or has expired.';
const LINK_PATTERN = /^http:\/\/127\.0\.0\.1:\d+\/#invite\/[A-Za-z0-9_-]{12}$/;

/** The invite link shown once it differs from before (''), with the panel open. */
async function inviteLinkOf(host, before = '') {
	await host.page.waitForFunction((old) => {
		const app = document.getElementById('app');
		const link = document.getElementById('invite-link').value;
		return app.dataset.invite === 'open' && link !== '' && link !== old;
	}, before, { timeout: WAIT_MS });
	return host.page.inputValue('#invite-link');
}

/** The text jsQR reads from the pixels of the invite's QR code canvas. */
async function qrText(host) {
	const image = await host.page.evaluate(() => {
		const canvas = document.getElementById('invite-qr');
		const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
		return { width: canvas.width, height: canvas.height, data: Array.from(data) };
	});
	const read = jsQR(Uint8ClampedArray.from(image.data), image.width, image.height);
	return read ? read.data : null;
}

/** The host's page: named, Play a friend pressed, listed when asked; resolves with its link. */
async function hostInvite(host, name, { listed = false, tc = null } = {}) {
	await host.page.fill('#name', name);
	if (tc)
		await host.page.selectOption('#pool-tc', tc);
	assert.equal(await host.page.isVisible('#friend'), true, 'expected Play a friend on the start screen');
	assert.equal(await host.text('#friend'), 'Play a friend');
	await host.pressButton('#friend');
	let link = await inviteLinkOf(host);
	if (listed) {
		// The server lists a game from the invite's socket: ticking makes a new link.
		await host.pressButton('#invite-listed');
		link = await inviteLinkOf(host, link);
		assert.equal(await host.page.isChecked('#invite-listed'), true);
	}
	assert.match(link, LINK_PATTERN);
	await host.page.waitForSelector(`#invite-qr[data-link="${link}"]`, { timeout: WAIT_MS });
	assert.equal(await qrText(host), link, 'expected the QR code to decode to the link');
	assert.equal(await host.app('state'), 'searching');
	assert.equal(await host.text('#status'), 'Waiting for your friend…');
	return link;
}

/** The friend's page, with no name yet, on link: asked, then named and joined. */
async function joinAsked(friend, link, name) {
	await friend.page.goto(link);
	await friend.waitFor({ invite: 'invited', state: 'idle' });
	assert.equal(await friend.text('#status'), 'A friend invited you to a game.');
	assert.equal(await friend.text('#main-text'), 'Join game');
	assert.equal(await friend.page.isVisible('#friend'), false);
	assert.equal(await friend.page.isVisible('#lobby'), false);
	await friend.page.fill('#name', name);
}

/** Both pages once matched: {front, back}. */
async function matched(host, friend) {
	await host.waitFor({ state: 'playing' });
	await friend.waitFor({ state: 'playing' });
	const roles = [await host.app('role'), await friend.app('role')];
	assert.deepEqual([...roles].sort(), ['back', 'front'], `expected one front and one back, got ${roles}`);
	return roles[0] === 'front' ? { front: host, back: friend } : { front: friend, back: host };
}

/** The room of the game a player's page plays (what it keeps for a reload). */
async function roomOf(player) {
	return player.page.evaluate(() => JSON.parse(localStorage.getItem('gomoku.game') || 'null')?.room);
}

/**
 * Asserts that the page fits a small viewport: no scrollbars, and each of
 * selectors (those shown) whole inside it, once the controls scrolled to
 * it, and not cut by its parents.
 */
async function assertInside(player, selectors, when) {
	const fit = await player.page.evaluate((wanted) => ({
		scrollWidth: document.documentElement.scrollWidth,
		scrollHeight: document.documentElement.scrollHeight,
		innerWidth,
		innerHeight,
		boxes: wanted.map((selector) => {
			const node = document.querySelector(selector);
			if (!node || !node.getClientRects().length)
				return { selector, shown: false };
			// The controls under a small phone's board scroll: each is
			// measured where that brings it (the page itself must not).
			node.scrollIntoView({ block: 'nearest', inline: 'nearest' });
			const rect = node.getBoundingClientRect();
			return {
				selector,
				shown: true,
				left: rect.left,
				top: rect.top,
				right: rect.right,
				bottom: rect.bottom,
				cut: node.scrollHeight > node.clientHeight + 1 && getComputedStyle(node).overflowY === 'hidden',
			};
		}),
	}), selectors);
	const where = `${player.label} in a ${fit.innerWidth} × ${fit.innerHeight} viewport, ${when}`;
	assert.ok(fit.scrollWidth <= fit.innerWidth && fit.scrollHeight <= fit.innerHeight,
		`expected no scrollbars for ${where}: the page is ${fit.scrollWidth} × ${fit.scrollHeight}`);
	for (const box of fit.boxes) {
		assert.ok(box.shown, `expected ${box.selector} shown for ${where}`);
		assert.ok(box.left >= 0 && box.top >= 0 && box.right <= fit.innerWidth + 0.5 && box.bottom <= fit.innerHeight + 0.5,
			`expected ${box.selector} inside the viewport for ${where}, it is at ${JSON.stringify(box)}`);
		assert.equal(box.cut, false, `expected nothing of ${box.selector} cut off for ${where}`);
	}
}

const PANEL = ['#invite', '#invite-link', '#invite-copy', '#invite-qr', '#invite-listed', '#cancel', '#status'];

describe('playing a friend', () => {
	let proxy;
	const { server, openPlayer } = useBrowser({}, {
		afterPlayers: async () => {
			await proxy?.close();
			proxy = null;
		},
	});

	it('invites a friend by link and QR code to a listed game that a third page watches from the lobby, then replays it', T, async () => {
		const host = await openPlayer({ label: 'Ann (host)' });
		await host.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.httpUrl });
		const link = await hostInvite(host, 'Ann', { listed: true, tc: '180+2' });
		await host.assertFits('the invite panel');
		await host.screenshot('desktop-invite-panel');

		// Copy puts the link on the clipboard and says so.
		await host.pressButton('#invite-copy');
		await host.page.waitForFunction(() => document.getElementById('invite-copy').textContent === 'Copied',
			null, { timeout: WAIT_MS });
		assert.equal(await host.page.evaluate(() => navigator.clipboard.readText()), link);

		// The friend opens the link: asked a name, joins, and both play in the host's pool.
		const friend = await openPlayer({ device: 'phone', label: 'Bo (friend)' });
		await joinAsked(friend, link, 'Bo');
		await friend.assertFits('invited');
		await friend.screenshot('phone-invite-friend');
		await friend.pressButton('#main');
		const pair = await matched(host, friend);
		assert.equal(await friend.page.evaluate(() => location.hash), '', 'expected the used link out of the address');
		for (const player of [host, friend]) {
			assert.equal(await player.app('tc'), '180+2', `expected ${player.label} in the host's pool`);
			assert.equal(await player.app('kind'), 'online');
			assert.equal(await player.app('invite'), '');
			assert.equal(await player.page.isVisible('#invite'), false);
			assert.equal(await player.page.getAttribute('#me', 'data-timed'), 'true', 'expected the clocks');
		}
		assert.equal(await host.text('#opponent .name'), 'Bo');
		assert.equal(await friend.text('#opponent .name'), 'Ann');
		await playMoves(pair, SHORT_GAME.slice(0, 3));
		await friend.pressButton('.emote[data-emote="hello"]');
		await host.page.waitForSelector('#opponent[data-emote="hello"]', { timeout: WAIT_MS });

		// Listed: a third page finds it in the lobby and watches; so does a phone.
		const watchers = [];
		for (const device of ['desktop', 'phone']) {
			const watcher = await openPlayer({ device, label: `${device} spectator` });
			await watcher.page.waitForSelector('#lobby-rooms .lobby-room', { timeout: WAIT_MS });
			assert.match(await watcher.text('#lobby-rooms .lobby-room'), /(Ann vs Bo|Bo vs Ann)/);
			assert.match(await watcher.text('#lobby-rooms .lobby-room'), /15×15 · Freestyle · 3\+2/);
			await watcher.pressButton('#lobby-rooms button[data-room]');
			await watcher.waitFor({ screen: 'watch', watch: 'watching' });
			await watcher.waitForMoves(3);
			watchers.push(watcher);
		}
		await host.page.waitForSelector('#app[data-spectators="2"]', { timeout: WAIT_MS });

		await playMoves(pair, SHORT_GAME.slice(3, 8), 3);
		for (const watcher of watchers)
			await watcher.waitForMoves(8);
		await watchers[0].screenshot('desktop-invite-spectator');
		await watchers[1].assertFits('watching the invite game');
		await watchers[1].screenshot('phone-invite-spectator');
		await friend.assertFits('playing the invite game');
		await friend.screenshot('phone-invite-playing');

		await playMoves(pair, SHORT_GAME.slice(8), 8);
		await pair.front.waitFor({ state: 'over', result: 'win' });
		await pair.back.waitFor({ state: 'over', result: 'loss' });
		for (const watcher of watchers)
			await watcher.waitFor({ screen: 'watch', watch: 'over' });
		const everyone = [host, friend, ...watchers];
		for (const player of everyone) {
			assert.equal(await player.board(), boardAfter(SHORT_GAME), `expected ${player.label} to show the game`);
			assert.equal(await player.boardData('line'), SHORT_GAME_FIVE);
			assert.deepEqual(await moveList(player), SHORT_GAME_LIST, `expected ${player.label}'s move list`);
		}
		await host.screenshot('desktop-invite-over');

		// The finished game's replay, move by move (the spectators' Replay button).
		const id = await lastGameId(server);
		const [desktop, phone] = watchers;
		await desktop.page.click('#replay');
		await desktop.waitFor({ screen: 'replay', 'replay-at': String(SHORT_GAME.length) });
		assert.equal(await desktop.page.inputValue('#share-link'), `${server.httpUrl}/#game/${id}`);
		await desktop.pressButton('#replay-first');
		await desktop.waitFor({ 'replay-at': '0' });
		assert.equal(await desktop.board(), boardAfter([]));
		for (let at = 1; at <= SHORT_GAME.length; at++) {
			await desktop.pressButton('#replay-forward');
			await desktop.waitFor({ 'replay-at': String(at) });
			assert.equal(await desktop.board(), boardAfter(SHORT_GAME.slice(0, at)), `expected the board after move ${at}`);
			assert.equal(await desktop.boardData('last'), `${SHORT_GAME[at - 1].x},${SHORT_GAME[at - 1].y}`);
		}
		assert.equal(await desktop.text('#status'), 'Black wins.');
		await desktop.screenshot('desktop-invite-replay');
		await phone.page.goto(`${server.httpUrl}/#game/${id}`);
		await phone.waitFor({ screen: 'replay', 'replay-at': String(SHORT_GAME.length) });
		await phone.pressButton('#replay-back');
		await phone.waitFor({ 'replay-at': String(SHORT_GAME.length - 1) });
		assert.equal(await phone.board(), boardAfter(SHORT_GAME.slice(0, -1)));
		await phone.assertFits('the invite game replayed');
		await phone.screenshot('phone-invite-replay');

		// A rematch, like any online game: the colours swap.
		assert.equal(await friend.page.isVisible('#rematch'), true);
		await friend.pressButton('#rematch');
		await host.page.waitForSelector('#prompt:not([hidden])', { timeout: WAIT_MS });
		await host.page.click('#accept');
		await host.waitFor({ state: 'playing' });
		await friend.waitFor({ state: 'playing' });
		assert.equal(await host.app('role'), pair.front === host ? 'back' : 'front', 'expected the colours swapped');
	});

	it('keeps an unlisted invite game out of the lobby, on a phone as small as 320 × 568', T, async () => {
		const host = await openPlayer({ device: 'phone', label: 'Cy (host)' });
		const link = await hostInvite(host, 'Cy');
		assert.equal(await host.page.isChecked('#invite-listed'), false, 'expected the box unticked at first');
		await host.assertFits('the invite panel');
		await assertInside(host, PANEL, 'the invite panel');
		await host.screenshot('phone-invite-panel');
		await host.page.setViewportSize({ width: 320, height: 568 });
		await host.page.waitForFunction(() => innerWidth === 320);
		await assertInside(host, PANEL, 'the invite panel');
		assert.equal(await qrText(host), link);
		const qr = await host.page.locator('#invite-qr').boundingBox();
		assert.ok(qr.width >= 96 && qr.height >= 96, `expected a QR code of 96 px or more, got ${JSON.stringify(qr)}`);
		await host.screenshot('phone-invite-panel-320');

		const friend = await openPlayer({ label: 'Di (friend)' });
		await joinAsked(friend, link, 'Di');
		await friend.assertFits('invited');
		await friend.screenshot('desktop-invite-friend');
		await friend.pressButton('#main');
		const pair = await matched(host, friend);
		await playMoves(pair, SHORT_GAME.slice(0, 2));
		await assertInside(host, ['#board', '#resign', '#status'], 'playing');
		const privateRoom = await roomOf(host);
		assert.equal(await roomOf(friend), privateRoom);

		// A public game at the same time: the lobby lists it, not the friends' one.
		const one = await openPlayer({ label: 'Ed' });
		const two = await openPlayer({ label: 'Fa' });
		for (const [player, name] of [[one, 'Ed'], [two, 'Fa']])
			await player.page.fill('#name', name);
		await one.page.click('#main');
		await one.waitFor({ state: 'searching', link: 'open' });
		await two.page.click('#main');
		await one.waitFor({ state: 'playing' });
		await two.waitFor({ state: 'playing' });

		const watcher = await openPlayer({ device: 'phone', label: 'lobby' });
		await watcher.page.setViewportSize({ width: 320, height: 568 });
		await watcher.page.waitForFunction(() => /Ed vs Fa|Fa vs Ed/.test(document.getElementById('lobby-rooms').textContent),
			null, { timeout: WAIT_MS });
		assert.equal(await watcher.page.locator('#lobby-rooms .lobby-room').count(), 1, 'expected the public game only');
		assert.doesNotMatch(await watcher.text('#lobby'), /Cy|Di/);
		const { rooms } = JSON.parse((await server.get('/api/rooms')).body);
		assert.deepEqual(rooms.map((room) => room.id), [await roomOf(one)]);
		assert.ok(!rooms.some((room) => room.id === privateRoom));
		await assertInside(watcher, ['#main', '#friend', '#lobby', '#name'], 'the start screen');
		await watcher.screenshot('phone-invite-start-320');
	});

	it('says a used or bogus invite link was used or has expired, once, with the start screen back', T, async () => {
		const host = await openPlayer({ label: 'Gil (host)' });
		const link = await hostInvite(host, 'Gil');
		// A page that knows its name joins at once.
		const friend = await openPlayer({ label: 'Hu (friend)' });
		await friend.page.fill('#name', 'Hu');
		await friend.page.goto(link);
		await matched(host, friend);

		// The link again, on a phone that has no name: asked, then told.
		const late = await openPlayer({ device: 'phone', label: 'late friend' });
		await joinAsked(late, link, 'Io');
		await late.pressButton('#main');
		await late.waitFor({ state: 'idle', notice: 'invite_missing', link: 'closed' });
		assert.equal(await late.text('#status'), MISSING);
		assert.equal(await late.text('#note'), 'Ask your friend for a new link, or find an opponent here.');
		assert.equal(await late.page.evaluate(() => location.hash), '', 'expected the dead link out of the address');
		assert.equal(await late.page.isVisible('#main'), true, 'expected Find opponent back');
		assert.equal(await late.text('#main-text'), 'Find opponent');
		assert.equal(await late.page.isVisible('#friend'), true);
		await late.assertFits('a used invite link');
		await late.screenshot('phone-invite-used');
		await late.page.setViewportSize({ width: 320, height: 568 });
		await late.page.waitForFunction(() => innerWidth === 320);
		await assertInside(late, ['#status', '#main', '#friend', '#name'], 'a used invite link');

		// It does not try again: two refreshes of the lobby later, still one socket.
		for (let i = 0; i < 2; i++)
			await late.page.waitForResponse((response) => response.url().includes('/api/rooms'), { timeout: WAIT_MS });
		assert.equal(late.sockets, 1, 'expected one socket for a used link, no retry');
		assert.equal(await late.app('notice'), 'invite_missing');

		// A bogus code, on a page that knows its name: told at once.
		const bogus = await openPlayer({ label: 'bogus link' });
		await bogus.page.fill('#name', 'Jo');
		await bogus.page.goto(`${server.httpUrl}/#invite/bogusCode123`);
		await bogus.waitFor({ state: 'idle', notice: 'invite_missing', link: 'closed' });
		assert.equal(await bogus.text('#status'), MISSING);
		assert.equal(bogus.sockets, 1);
		await bogus.screenshot('desktop-invite-bogus');
		// One that cannot be a code opens no socket at all.
		await bogus.page.goto(`${server.httpUrl}/#invite/not%20a%20code`);
		await bogus.waitFor({ state: 'idle', notice: 'invite_missing' });
		assert.equal(bogus.sockets, 1, 'expected no socket for a link that cannot be a code');
		// A reload shows the plain start screen: nothing is tried again.
		await bogus.page.reload();
		await bogus.waitFor({ state: 'idle', notice: '' });
		assert.equal(await bogus.text('#main-text'), 'Find opponent');
		assert.equal(bogus.sockets, 1);

		// The used link after a page load (not a hash change) too, in Chinese.
		const zh = await openPlayer({ label: 'Chinese late friend', locale: 'zh-CN' });
		await zh.page.fill('#name', '小明');
		await zh.page.goto('about:blank');
		await zh.page.goto(link);
		await zh.waitFor({ state: 'idle', notice: 'invite_missing' });
		assert.equal(await zh.text('#status'), '该邀请链接已被使用或已失效。');
	});

	it('tells the host its link died with its socket, and makes a new one on demand', T, async () => {
		proxy = await startProxy(server.port);
		const host = await openPlayer({ label: 'Ko (host)', url: proxy.httpUrl });
		const link = await hostInvite(host, 'Ko');
		assert.equal(proxy.sockets().length, 1);

		// The network drops both ways: the server forgets the invite.
		const [socket] = proxy.sockets();
		proxy.freeze(socket);
		socket.client.destroy();
		socket.upstream.destroy();
		await host.waitFor({ state: 'idle', notice: 'invite_lost' });
		assert.equal(await host.text('#status'), 'Your invite link stopped working: the connection dropped.');
		assert.equal(await host.text('#note'), 'Press “Play a friend” for a new link.');
		assert.equal(await host.page.isVisible('#invite'), false);
		assert.equal(proxy.sockets().length, 1, 'expected no retry of a dead invite');

		// Its link is dead for the friend too.
		const friend = await openPlayer({ label: 'Lu (friend)' });
		await friend.page.fill('#name', 'Lu');
		await friend.page.goto(link.replace(proxy.httpUrl, server.httpUrl));
		await friend.waitFor({ state: 'idle', notice: 'invite_missing' });

		// A new link works.
		await host.pressButton('#friend');
		const fresh = await inviteLinkOf(host);
		assert.notEqual(fresh, link);
		await friend.page.goto(fresh.replace(proxy.httpUrl, server.httpUrl));
		await matched(host, friend);
	});
});
