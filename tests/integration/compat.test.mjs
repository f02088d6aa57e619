// Compatibility with the original browser client (PROTOCOL.md section 6):
// it connects to ws://HOST:PORT?uid=<uuid v4> with no subprotocol, keeps a
// 16 x 16 board, sends only {"type":"board","content":[256 cells],"role":R}
// after each of its own moves, takes its turn from board.role, and shows
// winner and disconnect. With --board-size 16 a whole game must work.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';

import { useServer, HOST } from './lib/server.mjs';
import { Client, connectPair, connectWaiting, uuid, playerUrl } from './lib/client.mjs';
import { winningScript, expectWinner, playMoves } from './lib/game.mjs';
import { testTimeout } from './lib/time.mjs';

const T = testTimeout(30_000);
const LEGACY_SIZE = 16;

/**
 * A client that behaves like the original browser game, and nothing more.
 * Given its role it plays plans[role] (its own moves, in order) whenever
 * board.role (or, before the first board, its role) says it is its turn.
 */
class LegacyClient {
	constructor(url, plans, label, protocols = undefined) {
		this.label = label;
		this.plans = plans;
		this.plan = [];
		this.board = Array.from({ length: LEGACY_SIZE }, () => new Array(LEGACY_SIZE).fill(''));
		this.myRole = null;
		this.myTurn = false;
		this.sent = [];
		this.messages = [];
		this.winner = null;
		this.disconnected = null;
		this.problems = [];
		this.ws = protocols ? new WebSocket(url, protocols) : new WebSocket(url);
		this.opened = new Promise((resolve, reject) => {
			this.ws.once('open', resolve);
			this.ws.once('error', (err) => reject(new Error(`expected ${label} to connect to ${url}: ${err.message}`)));
		});
		this.ws.on('error', () => {});
		this.closed = new Promise((resolve) => this.ws.on('close', (code) => resolve(code)));
		this.waiters = [];
		this.ws.on('message', (data) => this.onMessage(JSON.parse(data.toString())));
	}

	onMessage(message) {
		this.messages.push(message);
		switch (message.type) {
		case 'role':
			this.myRole = message.role;
			this.plan = this.plans[message.role].slice();
			this.myTurn = message.role === 'front';
			break;
		case 'board':
			if (!Array.isArray(message.content) || message.content.length !== LEGACY_SIZE * LEGACY_SIZE) {
				this.problems.push(`a board with ${message.content && message.content.length} cells`);
				break;
			}
			for (let i = 0; i < message.content.length; i++)
				this.board[Math.floor(i / LEGACY_SIZE)][i % LEGACY_SIZE] = message.content[i];
			this.myTurn = message.role === this.myRole;
			break;
		case 'winner':
			this.winner = message;
			this.myTurn = false;
			break;
		case 'disconnect':
			this.disconnected = message;
			this.myTurn = false;
			break;
		default:
			break; // welcome, waiting and anything new: ignored
		}
		if (this.myTurn && !this.winner)
			this.playNext();
		this.waiters = this.waiters.filter((waiter) => !waiter());
	}

	playNext() {
		const stone = this.plan.shift();
		// The final board names the loser as next; the winner message
		// follows it. A person would not have moved yet: neither do we.
		if (!stone)
			return;
		assert.ok(stone.x < LEGACY_SIZE - 1 && stone.y < LEGACY_SIZE - 1,
			'script error: the last row and column are never playable in the original client');
		this.board[stone.y][stone.x] = this.myRole;
		this.myTurn = false;
		const message = { type: 'board', content: this.board.flat(), role: this.myRole };
		this.sent.push(message);
		this.ws.send(JSON.stringify(message));
	}

	/** Resolves once check() is true, failing after timeoutMs. */
	until(check, what, timeoutMs = 10_000) {
		if (check())
			return Promise.resolve();
		return new Promise((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`expected ${this.label} to see ${what} within ` +
				`${timeoutMs} ms; it received:\n    ${this.messages.map((m) => JSON.stringify(m)).join('\n    ')}`)),
			timeoutMs);
			this.waiters.push(() => {
				if (!check())
					return false;
				clearTimeout(timer);
				resolve();
				return true;
			});
		});
	}

	close() {
		this.ws.close();
		return this.closed;
	}
}

/** The URL the original client uses: no slash before the query. */
function legacyUrl(server, uid) {
	return `ws://${HOST}:${server.port}?uid=${uid}`;
}

describe('compatibility with the original browser client', () => {
	const legacyClients = [];

	function legacy(...args) {
		const client = new LegacyClient(...args);
		legacyClients.push(client);
		return client;
	}

	const server = useServer({ args: ['--board-size', String(LEGACY_SIZE)] }, {
		closeFirst: () => Promise.all(legacyClients.splice(0).map((client) => client.close())),
	});

	for (const winnerRole of ['front', 'back']) {
		it(`plays a whole game between two original clients that ${winnerRole} wins`, T, async () => {
			// The script is made for 15 x 15 so that the 16th row and column stay empty.
			const script = winningScript({ size: 15, winner: winnerRole, direction: 'diagonal', start: { x: 9, y: 9 } });
			// Who is front is random: each client plays the plan of the role it is given.
			const plans = {
				front: script.moves.filter((move) => move.role === 'front'),
				back: script.moves.filter((move) => move.role === 'back'),
			};
			const first = legacy(legacyUrl(server, uuid()), plans, 'first original client');
			await first.opened;
			await first.until(() => first.messages.some((m) => m.type === 'waiting'), 'waiting');
			const second = legacy(legacyUrl(server, uuid()), plans, 'second original client');
			await second.opened;
			await Promise.all([first, second].map((client) => client.until(() => client.myRole, 'role')));
			const front = first.myRole === 'front' ? first : second;
			const back = front === first ? second : first;
			assert.equal(back.myRole, 'back', 'expected the two original clients to get different roles');

			await Promise.all([front, back].map((client) => client.until(() => client.winner, 'the winner')));
			for (const client of [front, back]) {
				assert.deepEqual(client.problems, [], `expected no problem in ${client.label}`);
				assert.equal(client.plan.length, 0, `expected ${client.label} to have played all its moves`);
				assert.equal(client.winner.winner, winnerRole,
					`expected ${client.label} to be told ${winnerRole} won, got ${JSON.stringify(client.winner)}`);
				assert.equal(client.winner.reason, 'five');
				const expected = Array.from({ length: LEGACY_SIZE }, () => new Array(LEGACY_SIZE).fill(''));
				for (const move of script.moves)
					expected[move.y][move.x] = move.role;
				assert.deepEqual(client.board, expected, `expected ${client.label}'s board to hold every move played`);
				assert.ok(client.sent.every((message) => message.type === 'board' && message.content.length === 256),
					'expected the original client to have sent only 256-cell boards');
				assert.ok(!client.messages.some((m) => m.type === 'error'),
					`expected no error for ${client.label}, got ${JSON.stringify(client.messages.filter((m) => m.type === 'error'))}`);
			}
			const loser = winnerRole === 'front' ? back : front;
			const stayer = winnerRole === 'front' ? front : back;
			await loser.close();
			await stayer.until(() => stayer.disconnected, 'disconnect after the other side closed');
			assert.equal(typeof stayer.disconnected.disconnect, 'string');
		});
	}

	it('plays an original client against a client using move requests', T, async () => {
		const script = winningScript({ size: 15, winner: 'back', direction: 'horizontal', start: { x: 2, y: 12 } });
		const modern = await connectWaiting(server, {}, { label: 'modern client' });
		const plans = {
			front: script.moves.filter((move) => move.role === 'front'),
			back: script.moves.filter((move) => move.role === 'back'),
		};
		const old = legacy(legacyUrl(server, uuid()), plans, 'original client');
		await old.opened;
		const modernRole = await modern.next('role');
		await old.until(() => old.myRole, 'role');
		assert.notEqual(old.myRole, modernRole.role);
		const modernPlan = plans[modernRole.role].slice();
		for (let moves = 1; moves <= script.moves.length; moves++) {
			const mover = script.moves[moves - 1].role;
			if (mover === modernRole.role) {
				const stone = modernPlan.shift();
				modern.move(stone.x, stone.y);
			}
			const board = await modern.next('board');
			assert.equal(board.moves, moves);
			assert.deepEqual(board.move, script.moves[moves - 1]);
		}
		const winner = await modern.next('winner');
		assert.equal(winner.winner, 'back');
		await old.until(() => old.winner, 'the winner');
		assert.deepEqual(old.winner, winner, 'expected both clients to get the same winner message');
		assert.deepEqual(old.problems, []);
	});

	it('connects with the subprotocol "gomoku" too', T, async () => {
		const uid = uuid();
		const player = await Client.connect(playerUrl(server, { uid }), { protocols: ['gomoku'], label: 'client asking for "gomoku"' });
		assert.equal(player.ws.protocol, 'gomoku', `expected the server to accept subprotocol "gomoku", got ${JSON.stringify(player.ws.protocol)}`);
		const welcome = await player.next('welcome');
		assert.equal(welcome.uid, uid);
		assert.equal(welcome.size, LEGACY_SIZE);
		await player.next('waiting');
		const other = await Client.connect(legacyUrl(server, uuid()), { label: 'client with no subprotocol' });
		assert.equal(other.ws.protocol, '', 'expected no subprotocol for a client that asked for none');
		await other.next('welcome');
		await other.next('role', undefined, { skip: ['waiting'] });
		await player.next('role');
	});

	it('plays a 16 x 16 game with move requests up to the last row and column', T, async () => {
		const pair = await connectPair(server);
		assert.equal(pair.front.roleMessage.size, LEGACY_SIZE);
		const script = winningScript({ size: LEGACY_SIZE, winner: 'front', direction: 'vertical', start: { x: 15, y: 11 } });
		await playMoves(pair, script.moves, { size: LEGACY_SIZE, lastEndsGame: true });
		await expectWinner(pair, { winner: 'front', reason: 'five', line: script.line });
	});

	it('plays an original client unchanged against a protocol 2 player who sends emotes and a draw offer: no clock, nothing it cannot ignore', T, async () => {
		const script = winningScript({ size: 15, winner: 'front', direction: 'vertical', start: { x: 5, y: 2 } });
		const modern = await connectWaiting(server, {}, { label: 'protocol 2 client' });
		assert.equal(modern.welcome.protocol, 2, `expected welcome.protocol 2, got ${JSON.stringify(modern.welcome)}`);
		const plans = {
			front: script.moves.filter((move) => move.role === 'front'),
			back: script.moves.filter((move) => move.role === 'back'),
		};
		const old = legacy(legacyUrl(server, uuid()), plans, 'original client');
		await old.opened;
		const modernRole = await modern.next('role');
		await old.until(() => old.myRole, 'role');
		modern.send({ type: 'emote', emote: 'hello' });
		modern.send({ type: 'offer', what: 'draw' });
		const modernPlan = plans[modernRole.role].slice();
		for (let moves = 1; moves <= script.moves.length; moves++) {
			if (script.moves[moves - 1].role === modernRole.role) {
				const stone = modernPlan.shift();
				modern.move(stone.x, stone.y);
			}
			const board = await modern.next('board', undefined, { skip: ['offer', 'answer'] });
			assert.equal(board.moves, moves);
		}
		const winner = await modern.next('winner');
		assert.equal(winner.winner, 'front');
		await old.until(() => old.winner, 'the winner');
		assert.deepEqual(old.winner, winner);
		assert.deepEqual(old.problems, []);
		const known = ['welcome', 'waiting', 'role', 'board', 'winner', 'emote', 'offer', 'answer'];
		for (const message of old.messages) {
			assert.ok(known.includes(message.type), `expected the original client to get only known types, got ${JSON.stringify(message)}`);
			assert.notEqual(message.type, 'error', `expected no error for the original client, got ${JSON.stringify(message)}`);
			assert.equal('clock' in message, false, `expected no clock in an untimed game, got ${JSON.stringify(message)}`);
			assert.equal('abort_in' in message, false, `expected no abort_in in an untimed game, got ${JSON.stringify(message)}`);
		}
		const role = old.messages.find((message) => message.type === 'role');
		assert.deepEqual([role.size, role.tc], [LEGACY_SIZE, 'none'], `expected a 16 x 16 untimed room, got ${JSON.stringify(role)}`);
		assert.deepEqual(old.messages.find((message) => message.type === 'emote'),
			{ type: 'emote', by: modernRole.role, emote: 'hello' });
		const answer = old.messages.find((message) => message.type === 'answer');
		assert.deepEqual([answer.what, answer.accept], ['draw', false], `expected a move to decline the draw offer, got ${JSON.stringify(answer)}`);
	});
});
