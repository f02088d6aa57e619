// baseline-server.mjs - the benchmark's yardstick: a plain Node.js `ws`
// server that speaks the protocol of core/PROTOCOL.md (version 1) with the
// same rules and the same validation, written as a competent Node
// developer would write it for this game, and nothing more: one process,
// no journal, no reconnect grace, no rate limits, no keep-alive pings.
//
// It pairs players first come, first served, with random sides and room
// ids; validates every move (JSON, type, integer coordinates on the board,
// turn, occupied cell, game over) and the seed-form `board` message;
// judges fives (freestyle: five or more; standard: exactly five) and the
// full board; sends each board once encoded to both players, compact
// (`updates=move`) or with content; answers ping; tells the opponent of a
// player who leaves (a forfeit first when the game was live); hands a seat
// to a newer connection of the same uid (4001 for the old one).
//
//   node tests/load/baseline-server.mjs --port 28080 [--host 127.0.0.1]
//        [--board-size 15] [--rule freestyle|standard]
//        [--full-board back|draw]
//
// tests/load/bench.sh runs it beside gomoku-server in every scenario.

import { randomInt, randomUUID } from 'node:crypto';
import http from 'node:http';

import { WebSocketServer } from 'ws';

const MAX_MESSAGE = 16384; // larger: close 1009, as gomoku-server does

function parseArgs(argv) {
	const opts = { port: 8080, host: '127.0.0.1', size: 15, rule: 'freestyle', fullBoard: 'back' };
	for (let i = 2; i < argv.length; i += 2) {
		const [flag, value] = [argv[i], argv[i + 1]];
		if (flag === '--port') opts.port = Number(value);
		else if (flag === '--host') opts.host = value;
		else if (flag === '--board-size') opts.size = Number(value);
		else if (flag === '--rule') opts.rule = value;
		else if (flag === '--full-board') opts.fullBoard = value;
		else throw new Error(`unknown option ${flag}`);
	}
	return opts;
}

const opts = parseArgs(process.argv);
const N = opts.size;
const CELLS = N * N;
const UID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DIRECTIONS = [[1, 0], [0, 1], [1, 1], [1, -1]];

// Cells hold 0 (empty), 1 (front) or 2 (back).
const ROLE_NAMES = ['', 'front', 'back'];
const CONTENT_EMPTY = new Array(CELLS).fill('');

const waiting = []; // players waiting, oldest first
const seats = new Map(); // uid -> player

function send(ws, message) {
	if (ws.readyState === 1)
		ws.send(message);
}

function error(player, code, message) {
	send(player.ws, JSON.stringify({ type: 'error', code, message }));
}

/** The winning line through (x, y) for who, or null. */
function fiveThrough(cells, x, y, who) {
	for (const [dx, dy] of DIRECTIONS) {
		const line = [{ x, y }];
		for (const sign of [1, -1]) {
			let cx = x + sign * dx;
			let cy = y + sign * dy;
			while (cx >= 0 && cy >= 0 && cx < N && cy < N && cells[cy * N + cx] === who) {
				line.push({ x: cx, y: cy });
				cx += sign * dx;
				cy += sign * dy;
			}
		}
		if (line.length === 5 || (line.length > 5 && opts.rule === 'freestyle')) {
			line.sort((a, b) => a.x - b.x || a.y - b.y);
			return line.slice(0, opts.rule === 'freestyle' ? line.length : 5);
		}
	}
	return null;
}

function roleMessage(room, player) {
	const opponent = room.players[3 - player.role];
	const message = { type: 'role', role: ROLE_NAMES[player.role], room: room.id, size: N, rule: opts.rule };
	if (opponent && opponent.name)
		message.opponent = { name: opponent.name };
	return JSON.stringify(message);
}

function boardMessage(room, compact) {
	const message = { type: 'board' };
	if (!compact)
		message.content = room.cells.map((cell) => ROLE_NAMES[cell]);
	message.role = ROLE_NAMES[room.toMove];
	if (room.last)
		message.move = room.last;
	message.moves = room.moves;
	return JSON.stringify(message);
}

/** Sends the board after a move to both players, each text encoded once. */
function tellBoard(room) {
	let compact = null;
	let full = null;
	for (const player of room.players) {
		if (!player || !player.ws)
			continue;
		if (player.compact)
			send(player.ws, compact ??= boardMessage(room, true));
		else
			send(player.ws, full ??= boardMessage(room, false));
	}
}

function tellBoth(room, text) {
	for (const player of room.players)
		if (player && player.ws)
			send(player.ws, text);
}

function endGame(room, winner, reason, line) {
	room.over = true;
	const message = { type: 'winner', winner, reason };
	if (line)
		message.line = line;
	tellBoth(room, JSON.stringify(message));
}

function play(player, x, y) {
	const room = player.room;
	if (!room)
		return error(player, 'not_in_game', 'you are not in a game');
	if (room.over)
		return error(player, 'game_over', 'the game is over');
	if (room.toMove !== player.role)
		return error(player, 'not_your_turn', 'it is not your turn');
	if (x < 0 || y < 0 || x >= N || y >= N)
		return error(player, 'out_of_range', 'the cell is off the board');
	const index = y * N + x;
	if (room.cells[index])
		return error(player, 'occupied', 'the cell is taken');
	room.cells[index] = player.role;
	room.moves += 1;
	room.last = { x, y, role: ROLE_NAMES[player.role] };
	room.toMove = 3 - player.role;
	tellBoard(room);
	const line = fiveThrough(room.cells, x, y, player.role);
	if (line)
		endGame(room, ROLE_NAMES[player.role], 'five', line);
	else if (room.moves === CELLS)
		endGame(room, opts.fullBoard === 'draw' ? 'draw' : 'back', 'full', null);
}

/** The seed form: the whole board after the mover's one new stone. */
function playBoard(player, message) {
	const room = player.room;
	if (!room)
		return error(player, 'not_in_game', 'you are not in a game');
	const content = message.content;
	if (!Array.isArray(content) || content.length !== CELLS || ROLE_NAMES.indexOf(message.role) < 1)
		return error(player, 'bad_board', 'a board needs content and role');
	if (room.over)
		return error(player, 'game_over', 'the game is over');
	if (room.toMove !== player.role)
		return error(player, 'not_your_turn', 'it is not your turn');
	if (message.role !== ROLE_NAMES[player.role])
		return error(player, 'bad_board', 'the board names the other side');
	let found = -1;
	for (let i = 0; i < CELLS; i++) {
		const cell = ROLE_NAMES.indexOf(content[i]);
		if (cell < 0)
			return error(player, 'bad_board', 'a cell is not "", "front" or "back"');
		if (cell === room.cells[i])
			continue;
		if (room.cells[i])
			return error(player, 'occupied', 'the cell is taken');
		if (cell !== player.role || found >= 0)
			return error(player, 'bad_board', 'the board is not one new stone');
		found = i;
	}
	if (found < 0)
		return error(player, 'bad_board', 'the board is not one new stone');
	play(player, found % N, Math.floor(found / N));
}

function onMessage(player, data, isBinary) {
	if (player.ws === null)
		return;
	if (isBinary)
		return error(player, 'bad_json', 'binary frames are not accepted: send JSON text');
	let message;
	try {
		message = JSON.parse(data);
	} catch {
		return error(player, 'bad_json', 'the message is not JSON');
	}
	if (message === null || typeof message !== 'object' || Array.isArray(message))
		return error(player, 'bad_json', 'a message is a JSON object');
	switch (message.type) {
	case 'move':
		if (!Number.isInteger(message.x) || !Number.isInteger(message.y))
			return error(player, 'bad_json', 'a move needs integer x and y');
		return play(player, message.x, message.y);
	case 'board':
		return playBoard(player, message);
	case 'ping':
		return send(player.ws, '{"type":"pong"}');
	case 'winner':
		return undefined; // only the server decides wins
	default:
		return error(player, 'bad_type', 'unknown or missing type');
	}
}

function match(first, second) {
	const room = {
		id: randomUUID(),
		cells: new Uint8Array(CELLS),
		players: [null, null, null],
		toMove: 1,
		moves: 0,
		last: null,
		over: false,
	};
	const firstRole = randomInt(2) + 1;
	first.role = firstRole;
	second.role = 3 - firstRole;
	room.players[first.role] = first;
	room.players[second.role] = second;
	first.room = second.room = room;
	send(first.ws, roleMessage(room, first));
	send(second.ws, roleMessage(room, second));
}

function leave(player) {
	seats.delete(player.uid);
	const queued = waiting.indexOf(player);
	if (queued >= 0) {
		waiting.splice(queued, 1);
		return;
	}
	const room = player.room;
	if (!room)
		return;
	room.players[player.role] = null;
	const opponent = room.players[3 - player.role];
	if (!opponent)
		return;
	if (!room.over)
		endGame(room, ROLE_NAMES[opponent.role], 'forfeit', null);
	send(opponent.ws, '{"type":"disconnect","disconnect":"opponent left"}');
}

function connect(ws, request) {
	const query = new URL(request.url, 'http://x').searchParams;
	let uid = query.get('uid');
	if (uid === null) {
		uid = randomUUID();
	} else if (!UID.test(uid)) {
		send(ws, JSON.stringify({ type: 'error', code: 'bad_uid', message: 'uid must be a UUID in 8-4-4-4-12 form' }));
		ws.close(1008, 'bad uid');
		return;
	}
	uid = uid.toLowerCase();
	const name = (query.get('name') || '').trim();
	if (name.length > 20 || /[\u0000-\u001f\u007f]/.test(name)) {
		send(ws, JSON.stringify({ type: 'error', code: 'bad_name', message: 'name must be 1 to 20 printable characters' }));
		ws.close(1008, 'bad name');
		return;
	}
	send(ws, JSON.stringify({ type: 'welcome', uid, protocol: 1, size: N, rule: opts.rule, version: 'baseline' }));

	let player = seats.get(uid);
	if (player) {
		// A newer connection takes the seat over.
		const old = player.ws;
		player.ws = null;
		old.close(4001, 'replaced');
		player.ws = ws;
		player.compact = query.get('updates') === 'move';
		if (player.room) {
			send(ws, roleMessage(player.room, player));
			if (player.room.moves)
				send(ws, boardMessage(player.room, false));
		} else {
			send(ws, '{"type":"waiting"}');
		}
	} else {
		player = { uid, name, ws, compact: query.get('updates') === 'move', room: null, role: 0 };
		seats.set(uid, player);
		send(ws, '{"type":"waiting"}');
		if (waiting.length)
			match(waiting.shift(), player);
		else
			waiting.push(player);
	}
	ws.on('message', (data, isBinary) => onMessage(player, data, isBinary));
	ws.on('close', () => {
		if (player.ws === ws) {
			player.ws = null;
			leave(player);
		}
	});
	ws.on('error', () => {});
}

const server = http.createServer((req, res) => {
	res.writeHead(404).end();
});
const wss = new WebSocketServer({ server, maxPayload: MAX_MESSAGE, perMessageDeflate: false, clientTracking: false });
wss.on('connection', connect);
server.listen(opts.port, opts.host);

process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
