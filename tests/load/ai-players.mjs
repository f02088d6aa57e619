// Keeps N games against the server's engine busy, for the benchmark's
// "ai" scenario: each player connects with mode=ai, answers every engine
// move at once with a legal move next to the stones, and starts a new game
// (a new uid) when one ends, so the engine is always thinking.
//
//   node tests/load/ai-players.mjs --port P [--games 50] [--level master]
//        [--duration S]
//
// Runs until SIGTERM (or --duration), then prints one JSON object: games
// finished, engine moves seen, and the engine's answer time as the
// players saw it (median, p99, max, in ms).

import WebSocket from 'ws';

const options = { host: '127.0.0.1', port: 8080, games: 50, level: 'master', duration: 0 };
for (let i = 2; i < process.argv.length; i += 2) {
	const name = process.argv[i].replace(/^--/, '');
	if (!(name in options))
		throw new Error(`unknown option --${name}`);
	options[name] = typeof options[name] === 'number' ? Number(process.argv[i + 1]) : process.argv[i + 1];
}

const stats = { games: 0, engineMoves: 0, errors: 0, answerMs: [] };
let stopping = false;

function randomUid() {
	return crypto.randomUUID();
}

// A legal move: an empty cell next to a stone (the centre on an empty board).
function chooseMove(board, size) {
	const empty = [];
	for (let y = 0; y < size; y++) {
		for (let x = 0; x < size; x++) {
			if (board[y * size + x])
				continue;
			let near = false;
			for (let dy = -1; dy <= 1 && !near; dy++)
				for (let dx = -1; dx <= 1 && !near; dx++) {
					const nx = x + dx, ny = y + dy;
					near = nx >= 0 && ny >= 0 && nx < size && ny < size && board[ny * size + nx] !== '';
				}
			if (near)
				empty.push([x, y]);
		}
	}
	if (!empty.length)
		return [size >> 1, size >> 1];
	return empty[Math.floor(Math.random() * empty.length)];
}

function play() {
	if (stopping)
		return;
	const url = `ws://${options.host}:${options.port}/?uid=${randomUid()}&mode=ai&level=${options.level}&updates=move`;
	const ws = new WebSocket(url);
	let size = 15, board = [], me = null, sentAt = 0;
	const move = () => {
		const [x, y] = chooseMove(board, size);
		sentAt = performance.now();
		ws.send(JSON.stringify({ type: 'move', x, y }));
	};
	ws.on('message', (data) => {
		const message = JSON.parse(data);
		switch (message.type) {
		case 'welcome':
			size = message.size;
			board = new Array(size * size).fill('');
			break;
		case 'role':
			me = message.role;
			if (me === 'front')
				move();
			break;
		case 'board':
			if (message.content)
				board = message.content.slice();
			else if (message.move)
				board[message.move.y * size + message.move.x] = message.move.role;
			if (message.move && message.move.role !== me) {
				stats.engineMoves++;
				if (sentAt)
					stats.answerMs.push(performance.now() - sentAt);
			}
			if (message.role === me && message.move && message.move.role !== me)
				move();
			break;
		case 'winner':
			stats.games++;
			ws.close(1000);
			break;
		case 'error':
			// The engine's winning board comes just before winner: a
			// move sent in between is late, not wrong.
			if (message.code !== 'game_over')
				stats.errors++;
			break;
		}
	});
	ws.on('close', () => setTimeout(play, 10));
	ws.on('error', () => {});
}

function report() {
	const sorted = stats.answerMs.sort((a, b) => a - b);
	const at = (q) => (sorted.length ? Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1)) : null);
	console.log(JSON.stringify({
		games: stats.games,
		engine_moves: stats.engineMoves,
		errors: stats.errors,
		answer_ms: { p50: at(0.5), p99: at(0.99), max: sorted.length ? Number(sorted.at(-1).toFixed(1)) : null },
	}));
	process.exit(0);
}

process.on('SIGTERM', () => {
	stopping = true;
	report();
});
if (options.duration > 0)
	setTimeout(() => process.kill(process.pid, 'SIGTERM'), options.duration * 1000);
for (let i = 0; i < options.games; i++)
	play();
