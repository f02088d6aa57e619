// Many rooms: fifty games played at once with no message crossing rooms,
// and fair roles over two hundred matches.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useServer } from './lib/server.mjs';
import { connectPlayer, connectPair, uuid, UUID_PATTERN } from './lib/client.mjs';
import { winningScript, playMoves, expectWinner, DIRECTIONS } from './lib/game.mjs';
import { testTimeout, scaled } from './lib/time.mjs';

const SIZE = 15;
const ROOMS = 50;
const PAIRS = 200;

/** A different game for each room index: direction, winner, place and form. */
function roomGame(index) {
	const direction = Object.keys(DIRECTIONS)[index % 4];
	const winner = Math.floor(index / 4) % 2 ? 'back' : 'front';
	const starts = {
		horizontal: { x: index % 11, y: (index * 3) % 15 },
		vertical: { x: (index * 5) % 15, y: index % 11 },
		diagonal: { x: index % 11, y: (index * 7) % 11 },
		'anti-diagonal': { x: 4 + (index % 11), y: (index * 3) % 11 },
	};
	const script = winningScript({ size: SIZE, winner, direction, start: starts[direction] });
	return { ...script, winner, form: index % 3 === 0 ? 'board' : 'move' };
}

describe('rooms', () => {
	const server = useServer({}, { settleTimeoutMs: scaled(10_000) });

	it(`plays ${ROOMS} games at once with no message crossing rooms`, testTimeout(120_000), async () => {
		const players = await Promise.all(Array.from({ length: ROOMS * 2 }, async (_, i) => {
			const uid = uuid();
			const player = await connectPlayer(server, { uid, name: `p${i}` }, { label: `player p${i}` });
			player.uid = uid;
			player.name = `p${i}`;
			player.welcome = await player.next('welcome', scaled(10_000));
			player.roleMessage = await player.next('role', 10_000, { skip: ['waiting'] });
			return player;
		}));

		const rooms = new Map();
		for (const player of players) {
			const { room } = player.roleMessage;
			assert.match(room, UUID_PATTERN, `expected a UUID room id, got ${JSON.stringify(player.roleMessage)}`);
			if (!rooms.has(room))
				rooms.set(room, []);
			rooms.get(room).push(player);
		}
		assert.equal(rooms.size, ROOMS, `expected ${ROOMS * 2} players in ${ROOMS} rooms, got ${rooms.size} rooms`);
		const pairs = [...rooms.values()].map((members, index) => {
			assert.equal(members.length, 2, `expected two players in room ${index}, got ${members.length}`);
			const [a, b] = members;
			assert.deepEqual([a.roleMessage.role, b.roleMessage.role].sort(), ['back', 'front'],
				`expected one front and one back in each room, got ${a.roleMessage.role} and ${b.roleMessage.role}`);
			assert.deepEqual(a.roleMessage.opponent, { name: b.name },
				`expected ${a.name} to be told its opponent is ${b.name}, got ${JSON.stringify(a.roleMessage)}`);
			assert.deepEqual(b.roleMessage.opponent, { name: a.name },
				`expected ${b.name} to be told its opponent is ${a.name}, got ${JSON.stringify(b.roleMessage)}`);
			const front = a.roleMessage.role === 'front' ? a : b;
			const back = a.roleMessage.role === 'front' ? b : a;
			front.label = `front of room ${index} (${front.name})`;
			back.label = `back of room ${index} (${back.name})`;
			return { front, back, game: roomGame(index) };
		});

		// Every room plays its own game at once; each waits for its own
		// boards only, so the rooms' moves interleave on the server. Every
		// board must match the room's own position exactly.
		await Promise.all(pairs.map(async (pair) => {
			await playMoves(pair, pair.game.moves, {
				size: SIZE, form: pair.game.form, lastEndsGame: true, timeoutMs: scaled(20_000),
			});
			await expectWinner(pair, { winner: pair.game.winner, reason: 'five', line: pair.game.line });
		}));
		await Promise.all(players.map((player) => player.expectNothing(300, 'after its own game ended')));
	});

	it(`makes the player who connected first front in 35-65 % of ${PAIRS} matches`, testTimeout(120_000), async () => {
		let firstIsFront = 0;
		const roomIds = new Set();
		for (let i = 0; i < PAIRS; i++) {
			const { first, second, room } = await connectPair(server);
			if (first.role === 'front')
				firstIsFront++;
			assert.ok(!roomIds.has(room), `expected a new room id for every match, got ${room} twice`);
			roomIds.add(room);
			await Promise.all([first.close(), second.close()]);
		}
		const share = firstIsFront / PAIRS;
		assert.ok(share >= 0.35 && share <= 0.65,
			`expected the first player to be front in 35-65 % of ${PAIRS} matches, got ${firstIsFront} (${(share * 100).toFixed(1)} %)`);
	});
});
