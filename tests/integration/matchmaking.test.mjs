// Matchmaking: welcome, waiting, role; identities (uid, name) and what a
// player may learn about the other.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useServer } from './lib/server.mjs';
import {
	Client, connectPlayer, connectWaiting, connectPair, closeAllClients, playerUrl, uuid,
	UUID_PATTERN,
} from './lib/client.mjs';
import { winningScript, playMoves, expectWinner } from './lib/game.mjs';
import { testTimeout } from './lib/time.mjs';

const T = testTimeout(30_000);

describe('matchmaking', () => {
	const server = useServer();

	it('sends welcome with uid, protocol 2, size, rule, tc and version as the first message', T, async () => {
		const uid = uuid();
		const player = await connectPlayer(server, { uid });
		const welcome = await player.next('welcome');
		assert.equal(welcome.uid, uid, `expected welcome.uid to be the uid the player gave, got ${JSON.stringify(welcome)}`);
		assert.equal(welcome.protocol, 2, `expected welcome.protocol 2, got ${JSON.stringify(welcome)}`);
		assert.equal(welcome.tc, 'none', `expected welcome.tc "none" (the default), got ${JSON.stringify(welcome)}`);
		assert.equal(welcome.size, 15, `expected welcome.size 15 (the default), got ${JSON.stringify(welcome)}`);
		assert.equal(welcome.rule, 'freestyle', `expected welcome.rule "freestyle", got ${JSON.stringify(welcome)}`);
		assert.equal(typeof welcome.version, 'string', `expected welcome.version to be a string, got ${JSON.stringify(welcome)}`);
		assert.ok(welcome.version.length > 0, 'expected a non-empty welcome.version');
	});

	it('puts a lone player in waiting and sends nothing more', T, async () => {
		const player = await connectWaiting(server);
		await player.expectNothing(250, 'while alone in the queue');
	});

	it('matches two players with different roles in the same room', T, async () => {
		const { first, second } = await connectPair(server);
		for (const player of [first, second]) {
			const role = player.roleMessage;
			assert.ok(['front', 'back'].includes(role.role), `expected role front or back, got ${JSON.stringify(role)}`);
			assert.match(role.room, UUID_PATTERN, `expected the room id to be a UUID, got ${JSON.stringify(role)}`);
			assert.equal(role.size, 15, `expected role.size 15, got ${JSON.stringify(role)}`);
			assert.equal(role.rule, 'freestyle', `expected role.rule "freestyle", got ${JSON.stringify(role)}`);
		}
		assert.notEqual(first.role, second.role);
		assert.equal(first.roleMessage.room, second.roleMessage.room);
		assert.notEqual(first.roleMessage.room, first.uid, 'expected the room id not to be a player uid');
		assert.notEqual(first.roleMessage.room, second.uid, 'expected the room id not to be a player uid');
		await first.expectNothing(200, 'after role');
		await second.expectNothing(0, 'after role');
	});

	it('sends the second player welcome, then waiting, then role', T, async () => {
		const first = await connectWaiting(server);
		const second = await connectPlayer(server, { uid: uuid() }, { label: 'second player' });
		await second.nextAll(['welcome', 'waiting', 'role']);
		await first.next('role');
	});

	it('shows each player the name the other gave, and omits opponent when none was given', T, async () => {
		const named = await connectPair(server, {
			firstQuery: { name: 'Alice' }, secondQuery: { name: 'Bob' },
		});
		assert.deepEqual(named.first.roleMessage.opponent, { name: 'Bob' },
			`expected the first player to see opponent {name:"Bob"}, got ${JSON.stringify(named.first.roleMessage)}`);
		assert.deepEqual(named.second.roleMessage.opponent, { name: 'Alice' },
			`expected the second player to see opponent {name:"Alice"}, got ${JSON.stringify(named.second.roleMessage)}`);

		const half = await connectPair(server, { firstQuery: { name: 'Carol' } });
		assert.equal(half.first.roleMessage.opponent, undefined,
			`expected no opponent field for an opponent without a name, got ${JSON.stringify(half.first.roleMessage)}`);
		assert.deepEqual(half.second.roleMessage.opponent, { name: 'Carol' },
			`expected opponent {name:"Carol"}, got ${JSON.stringify(half.second.roleMessage)}`);
	});

	it('trims the name and accepts 20 characters, non-ASCII included', T, async () => {
		const cases = [
			{ given: '  Ann  ', shown: 'Ann' },
			{ given: 'x'.repeat(20), shown: 'x'.repeat(20) },
			{ given: 'é'.repeat(20), shown: 'é'.repeat(20) },
			{ given: 'Zoë 五目 ok', shown: 'Zoë 五目 ok' },
		];
		for (const { given, shown } of cases) {
			const { second } = await connectPair(server, { firstQuery: { name: given } });
			assert.deepEqual(second.roleMessage.opponent, { name: shown },
				`expected name ${JSON.stringify(given)} to be shown as ${JSON.stringify(shown)}, ` +
				`got ${JSON.stringify(second.roleMessage)}`);
			await closeAllClients();
		}
	});

	it('never sends a player the uid of the other, in any message of a whole game', T, async () => {
		const { front, back, first, second } = await connectPair(server, {
			firstQuery: { name: 'Uma' }, secondQuery: { name: 'Vic' },
		});
		const script = winningScript({ size: 15, winner: 'back', direction: 'diagonal', start: { x: 2, y: 3 } });
		await playMoves({ front, back }, script.moves, { size: 15, lastEndsGame: true });
		await expectWinner({ front, back }, { winner: 'back', reason: 'five', line: script.line });
		front.send({ type: 'ping' });
		await front.next('pong');
		await front.close();
		await back.next('disconnect');
		for (const [player, other] of [[first, second], [second, first]]) {
			for (const { text } of player.received) {
				assert.ok(!text.toLowerCase().includes(other.uid),
					`expected no message to ${player.label} to contain the other player's uid ${other.uid}, got ${text}`);
				assert.ok(!text.toLowerCase().includes(other.uid.slice(0, 8)),
					`expected no message to ${player.label} to contain even the other player's uid prefix, got ${text}`);
			}
		}
	});

	it('matches players first come, first served, and keeps the third waiting', T, async () => {
		const a = await connectWaiting(server, { name: 'A' }, { label: 'A' });
		const b = await connectPlayer(server, { uid: uuid(), name: 'B' }, { label: 'B' });
		await b.next('welcome');
		const bRole = await b.next('role', undefined, { skip: ['waiting'] });
		const aRole = await a.next('role');
		assert.equal(aRole.room, bRole.room);
		const c = await connectWaiting(server, { name: 'C' }, { label: 'C' });
		await c.expectNothing(200, 'while nobody else waits');
		await a.expectNothing(0, 'when a third player arrives');
		await b.expectNothing(0, 'when a third player arrives');
		const d = await connectPlayer(server, { uid: uuid(), name: 'D' }, { label: 'D' });
		await d.next('welcome');
		const dRole = await d.next('role', undefined, { skip: ['waiting'] });
		const cRole = await c.next('role');
		assert.equal(cRole.room, dRole.room);
		assert.notEqual(cRole.room, aRole.room, 'expected the second pair in a new room');
		assert.deepEqual(cRole.opponent, { name: 'D' });
	});

	it('makes a UUID for a player who gives no uid and tells it in welcome', T, async () => {
		const one = await connectPlayer(server, {}, { label: 'player without uid' });
		const welcomeOne = await one.next('welcome');
		assert.match(String(welcomeOne.uid), UUID_PATTERN,
			`expected welcome.uid to be a lower-case UUID made by the server, got ${JSON.stringify(welcomeOne)}`);
		await one.next('waiting');
		const two = await connectPlayer(server, {}, { label: 'second player without uid' });
		const welcomeTwo = await two.next('welcome');
		assert.match(String(welcomeTwo.uid), UUID_PATTERN);
		assert.notEqual(welcomeTwo.uid, welcomeOne.uid, 'expected two players without uid to get different uids');
		await two.next('role', undefined, { skip: ['waiting'] });
		await one.next('role');
	});

	it('accepts an upper-case uid and welcomes it in lower case', T, async () => {
		const uid = uuid();
		const player = await connectPlayer(server, { uid: uid.toUpperCase() });
		const welcome = await player.next('welcome');
		assert.equal(welcome.uid, uid, `expected welcome.uid ${uid}, got ${JSON.stringify(welcome)}`);
		await player.next('waiting');
	});

	it('upgrades on /ws as well as on /', T, async () => {
		const uid = uuid();
		const player = await Client.connect(playerUrl(server, { uid }, { path: '/ws' }), { label: 'player on /ws' });
		const welcome = await player.next('welcome');
		assert.equal(welcome.uid, uid);
		await player.next('waiting');
		const other = await connectPlayer(server, { uid: uuid() }, { label: 'player on /' });
		await other.next('welcome');
		await other.next('role', undefined, { skip: ['waiting'] });
		await player.next('role');
	});

	it('answers ping with pong, to the sender only, while waiting and while playing', T, async () => {
		const lone = await connectWaiting(server);
		lone.send({ type: 'ping' });
		assert.deepEqual(await lone.next('pong'), { type: 'pong' });
		await lone.close();
		await server.settle();

		const { front, back } = await connectPair(server);
		front.send({ type: 'ping' });
		await front.next('pong');
		await back.expectNothing(200, 'when the other player pings');
		back.send({ type: 'ping' });
		back.send({ type: 'ping' });
		await back.nextAll(['pong', 'pong']);
		await front.expectNothing(200, 'when the other player pings');
	});
});
