// Hostile and malformed messages, table-driven: every row is one text the
// server must refuse (or ignore) with the right answer to the sender
// only, while the game's record stays byte for byte what it was and the
// opponent hears nothing; the game then goes on normally.
//
// Synchronisation without sleeps: after each row the sender and the
// opponent both send a barrier, a ping and then a fractional move, which
// are answered with a pong and an out_of_range error whatever the state.
// The server handles a connection's messages in order and writes each
// connection's messages in order, so everything a row caused reaches a
// player before that pair; a row's own answer (at most one message) can
// never be taken for the pair.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useServer } from './lib/server.mjs';
import { connectWaiting, connectPair, connectPlayer, uuid } from './lib/client.mjs';
import { playMoves, winningScript, expectWinner, emptyContent, withStone } from './lib/game.mjs';
import { gameRecord, gameState, fetchMetric } from './lib/observe.mjs';
import { testTimeout } from './lib/time.mjs';

const T = testTimeout(120_000);
const SIZE = 15;
const CELLS = SIZE * SIZE;
const MAX_MESSAGE = 16384;

/** A move with x and y written as raw JSON text. */
function move(x, y, extra = '') {
	return `{"type":"move","x":${x},"y":${y}${extra}}`;
}

/** A seed-form board message. */
function board(content, role, extra = {}) {
	return JSON.stringify({ type: 'board', content, role, ...extra });
}

function preview(text) {
	const shown = JSON.stringify(text);
	return shown.length > 140 ? `${shown.slice(0, 100)}...${shown.slice(-30)} (${text.length} chars)` : shown;
}

function describeMessages(messages) {
	return messages.length ? messages.map((m) => JSON.stringify(m)).join(', ') : 'nothing';
}

/** The barrier: a ping, then a move that is refused while parsing. */
const BARRIER_MOVE = '{"type":"move","x":0.5,"y":0.5}';

function sendBarrier(client) {
	client.send({ type: 'ping' });
	client.sendText(BARRIER_MOVE);
}

/**
 * Takes client's messages up to and including the barrier's pong and
 * out_of_range error; resolves with those that came before it.
 */
async function takeUntilBarrier(client) {
	const taken = [];
	let pong = null; // a pong that may start the barrier
	for (;;) {
		const message = await client.next(null);
		if (pong && message.type === 'error' && message.code === 'out_of_range')
			return taken;
		if (pong)
			taken.push(pong);
		pong = null;
		if (message.type === 'pong')
			pong = message;
		else
			taken.push(message);
	}
}

/** The list of messages a row expects: an error, a pong, or nothing. */
function expectedReplies(expect) {
	if (expect === 'ignored')
		return [];
	if (expect === 'pong')
		return [{ type: 'pong' }];
	return [{ type: 'error', code: expect }];
}

function repliesMatch(got, expect) {
	const wanted = expectedReplies(expect);
	if (got.length !== wanted.length)
		return false;
	return got.every((message, i) => {
		if (message.type !== wanted[i].type)
			return false;
		if (message.type !== 'error')
			return true;
		return message.code === wanted[i].code && typeof message.message === 'string' &&
			message.message.length > 0;
	});
}

/**
 * Runs rows: each { group, name, text, expect, from }. `players` maps a
 * row's `from` to its sender; every other player in `players` must hear
 * nothing. state() resolves with a string that must not change (the game
 * record). Collects every mismatch and fails once at the end with all of
 * them; stops early only when the state changed or the message stream
 * lost its footing (then later rows would prove nothing).
 */
async function runRows(rows, { players, state }) {
	const failures = [];
	const initial = await state();
	for (const [index, row] of rows.entries()) {
		assert.ok(row.text.length < MAX_MESSAGE,
			`table error: row ${index} "${row.name}" is ${row.text.length} bytes, over the 16 KiB limit`);
		const sender = players[row.from];
		const others = Object.values(players).filter((player) => player !== sender);
		const what = `row ${index + 1} (${row.group}: ${row.name}) from ${sender.label}, ${preview(row.text)}`;
		let got;
		try {
			sender.sendText(row.text);
			sendBarrier(sender);
			for (const other of others)
				sendBarrier(other);
			got = await takeUntilBarrier(sender);
			for (const other of others) {
				const overheard = await takeUntilBarrier(other);
				if (overheard.length)
					failures.push(`${what}: expected ${other.label} to receive nothing, got ` +
						describeMessages(overheard));
			}
		} catch (err) {
			failures.push(`${what}: expected ${describeMessages(expectedReplies(row.expect))}, ` +
				`then the barrier; the exchange broke off: ${err.message}`);
			break;
		}
		if (!repliesMatch(got, row.expect))
			failures.push(`${what}: expected ${describeMessages(expectedReplies(row.expect))}, ` +
				`got ${describeMessages(got)}`);
		const now = await state();
		if (now !== initial) {
			failures.push(`${what}: expected the game record to stay byte for byte\n      ${initial}\n` +
				`    got\n      ${now}`);
			break;
		}
	}
	assert.equal(failures.length, 0,
		`${failures.length} of ${rows.length} hostile messages were not handled as expected:\n  ` +
		failures.join('\n  '));
}

/** Adds rows to list: row(group, name, text, expect, from). */
function tableBuilder(list, defaultFrom) {
	return (group, name, text, expect, from = defaultFrom) => {
		list.push({ group, name, text, expect, from });
	};
}

// The position every in-game row is tried on: front (7,7), back (8,8),
// front (0,0); back is to move. (1,1), (2,2) and (3,3) are empty.
const OPENING = [
	{ x: 7, y: 7, role: 'front' },
	{ x: 8, y: 8, role: 'back' },
	{ x: 0, y: 0, role: 'front' },
];

/**
 * The in-game table. `mover` is back (to move), `waiting` is front. No
 * row may be a legal move for back: the record would change.
 */
function inGameRows(position) {
	const rows = [];
	const row = tableBuilder(rows, 'mover');
	const at = (content, x, y, role) => withStone(content, SIZE, x, y, role);
	const oneNew = at(position, 1, 1, 'back'); // back's legal answer: never sent as it is

	// Not JSON at all.
	row('not JSON', 'plain words', 'this is not JSON', 'bad_json');
	row('not JSON', 'a bare word', 'nul', 'bad_json');
	row('not JSON', 'a misspelt literal', 'tru', 'bad_json');
	row('not JSON', 'undefined', 'undefined', 'bad_json');
	row('not JSON', 'single quotes', "{'type':'move','x':1,'y':1}", 'bad_json');
	row('not JSON', 'unquoted keys', '{type:"move",x:1,y:1}', 'bad_json');
	row('not JSON', 'a trailing comma', '{"type":"move","x":1,"y":1,}', 'bad_json');
	row('not JSON', 'a missing comma', '{"type":"move" "x":1,"y":1}', 'bad_json');
	row('not JSON', 'a missing colon', '{"type" "move","x":1,"y":1}', 'bad_json');
	row('not JSON', 'one brace too many', '{"type":"move","x":1,"y":1}}', 'bad_json');
	row('not JSON', 'two objects in one message', '{"type":"move","x":1,"y":1}{"type":"ping"}', 'bad_json');
	row('not JSON', 'garbage after the object', '{"type":"move","x":1,"y":1} x', 'bad_json');
	row('not JSON', 'a hexadecimal number', move('0x10', 1), 'bad_json');
	row('not JSON', 'a number with a leading dot', move('.5', 1), 'bad_json');
	row('not JSON', 'a number with a plus sign', move('+1', 1), 'bad_json');
	row('not JSON', 'a lone minus', move('-', 1), 'bad_json');
	row('not JSON', 'an exponent without digits', move('1e', 1), 'bad_json');
	row('not JSON', 'the NaN literal', move('NaN', 1), 'bad_json');
	row('not JSON', 'the Infinity literal', move('Infinity', 1), 'bad_json');
	row('not JSON', 'the -Infinity literal', move('-Infinity', 1), 'bad_json');
	row('not JSON', 'a comment before', '/* c */{"type":"ping"}', 'bad_json');
	row('not JSON', 'a comment after', '{"type":"ping"} // c', 'bad_json');
	row('not JSON', 'an empty message', '', 'bad_json');
	row('not JSON', 'white space only', ' \t\r\n ', 'bad_json');
	row('not JSON', 'a JSON-looking XML', '<move x="1" y="1"/>', 'bad_json');

	// Truncated JSON.
	row('truncated', 'an open brace', '{', 'bad_json');
	row('truncated', 'a key without a value', '{"type"', 'bad_json');
	row('truncated', 'a colon without a value', '{"type":', 'bad_json');
	row('truncated', 'an unterminated string', '{"type":"move', 'bad_json');
	row('truncated', 'after a comma', '{"type":"move",', 'bad_json');
	row('truncated', 'inside the last value', '{"type":"move","x":1,"y":', 'bad_json');
	row('truncated', 'the closing brace missing', '{"type":"move","x":1,"y":1', 'bad_json');
	row('truncated', 'a board cut short', '{"type":"board","content":["",""', 'bad_json');
	row('truncated', 'an open bracket', '[', 'bad_json');
	row('truncated', 'a top-level string cut short', '"unterminated', 'bad_json');

	// Deep nesting: cJSON stops at 1000 levels.
	row('nesting', '10,000 unclosed arrays', '['.repeat(10000), 'bad_json');
	row('nesting', '8,000 nested arrays', `${'['.repeat(8000)}${']'.repeat(8000)}`, 'bad_json');
	row('nesting', '3,000 nested objects', `${'{"":'.repeat(3000)}1${'}'.repeat(3000)}`, 'bad_json');
	row('nesting', 'x as 5,000 nested arrays', move(`${'['.repeat(5000)}${']'.repeat(5000)}`, 1), 'bad_json');
	row('nesting', 'x as 900 nested arrays (parsed, not a number)', move(`${'['.repeat(900)}${']'.repeat(900)}`, 1), 'bad_json');
	row('nesting', 'a ping carrying 1,200 nested arrays', `{"type":"ping","junk":${'['.repeat(1200)}${']'.repeat(1200)}}`, 'bad_json');

	// Valid JSON that is not an object.
	row('not an object', 'an empty array', '[]', 'bad_json');
	row('not an object', 'a move inside an array', '[{"type":"move","x":1,"y":1}]', 'bad_json');
	row('not an object', 'null', 'null', 'bad_json');
	row('not an object', 'true', 'true', 'bad_json');
	row('not an object', 'false', 'false', 'bad_json');
	row('not an object', 'zero', '0', 'bad_json');
	row('not an object', 'a negative number', '-1', 'bad_json');
	row('not an object', 'a number out of range', '1e400', 'bad_json');
	row('not an object', 'a string', '"move"', 'bad_json');
	row('not an object', 'a move encoded as a string', JSON.stringify(move(1, 1)), 'bad_json');

	// The type.
	row('type', 'an empty object', '{}', 'bad_type');
	row('type', 'no type', '{"x":1,"y":1}', 'bad_type');
	row('type', 'type null', '{"type":null,"x":1,"y":1}', 'bad_type');
	row('type', 'type a number', '{"type":1,"x":1,"y":1}', 'bad_type');
	row('type', 'type an array', '{"type":["move"],"x":1,"y":1}', 'bad_type');
	row('type', 'type an object', '{"type":{"name":"move"},"x":1,"y":1}', 'bad_type');
	row('type', 'type true', '{"type":true,"x":1,"y":1}', 'bad_type');
	row('type', 'type empty', '{"type":"","x":1,"y":1}', 'bad_type');
	row('type', 'type in capitals', '{"type":"MOVE","x":1,"y":1}', 'bad_type');
	row('type', 'type capitalised', '{"type":"Move","x":1,"y":1}', 'bad_type');
	row('type', 'type with a trailing space', '{"type":"move ","x":1,"y":1}', 'bad_type');
	row('type', 'type with a leading space', '{"type":" move","x":1,"y":1}', 'bad_type');
	row('type', 'the key in capitals', '{"TYPE":"move","x":1,"y":1}', 'bad_type');
	row('type', 'resign in capitals', '{"type":"RESIGN"}', 'bad_type');
	row('type', 'abort capitalised', '{"type":"Abort"}', 'bad_type');
	row('type', 'emote with a trailing space', '{"type":"emote ","emote":"hello"}', 'bad_type');
	row('type', 'draw as a type of its own', '{"type":"draw"}', 'bad_type');
	row('type', 'rematch as a type of its own', '{"type":"rematch"}', 'bad_type');
	row('offer', 'an offer of something else', '{"type":"offer","what":"dance"}', 'bad_offer');
	row('offer', 'an offer of "Draw" capitalised', '{"type":"offer","what":"Draw"}', 'bad_offer');
	row('offer', 'an offer of "draw " with a space', '{"type":"offer","what":"draw "}', 'bad_offer');
	row('offer', 'an offer whose what is a number', '{"type":"offer","what":1}', 'bad_offer');
	row('offer', 'an offer whose what is null', '{"type":"offer","what":null}', 'bad_offer');
	row('offer', 'an offer whose what is a list', '{"type":"offer","what":["draw"]}', 'bad_offer');
	row('offer', 'an offer whose what is an object', '{"type":"offer","what":{"draw":true}}', 'bad_offer');
	row('offer', 'a rematch offer in a live game', '{"type":"offer","what":"rematch"}', 'bad_offer');
	row('offer', 'a rematch offer in a live game from the side not to move', '{"type":"offer","what":"rematch"}', 'bad_offer', 'waiting');
	row('offer', 'a draw answer without accept', '{"type":"answer","what":"draw"}', 'bad_offer');
	row('offer', 'a draw answer whose accept is a string', '{"type":"answer","what":"draw","accept":"yes"}', 'bad_offer');
	row('offer', 'a draw answer whose accept is 1', '{"type":"answer","what":"draw","accept":1}', 'bad_offer');
	row('offer', 'a draw answer whose accept is null', '{"type":"answer","what":"draw","accept":null}', 'bad_offer');
	row('offer', 'an answer of something else', '{"type":"answer","what":"dance","accept":true}', 'bad_offer');
	row('offer', 'a draw answer with no offer pending', '{"type":"answer","what":"draw","accept":true}', 'no_offer');
	row('offer', 'a draw decline with no offer pending, from the side not to move', '{"type":"answer","what":"draw","accept":false}', 'no_offer', 'waiting');
	row('abort', 'abort after 3 moves', '{"type":"abort"}', 'too_late');
	row('abort', 'abort after 3 moves from the side not to move', '{"type":"abort"}', 'too_late', 'waiting');
	row('abort', 'abort with fields of its own', '{"type":"abort","force":true,"moves":0}', 'too_late');
	row('emote', 'an emote without emote', '{"type":"emote"}', 'bad_emote');
	row('emote', 'an emote out of the list', '{"type":"emote","emote":"love"}', 'bad_emote');
	row('emote', 'an emote out of the list from the side not to move', '{"type":"emote","emote":"cry"}', 'bad_emote', 'waiting');
	row('emote', 'an emote capitalised', '{"type":"emote","emote":"Hello"}', 'bad_emote');
	row('emote', 'an emote empty', '{"type":"emote","emote":""}', 'bad_emote');
	row('emote', 'an emote null', '{"type":"emote","emote":null}', 'bad_emote');
	row('emote', 'an emote a number', '{"type":"emote","emote":1}', 'bad_emote');
	row('emote', 'an emote a list', '{"type":"emote","emote":["hello"]}', 'bad_emote');
	row('emote', 'an emote an object', '{"type":"emote","emote":{"text":"hello"}}', 'bad_emote');
	row('emote', 'an emote of free text', '{"type":"emote","emote":"you will lose"}', 'bad_emote');
	row('emote', 'an emote of markup', '{"type":"emote","emote":"<img src=x onerror=alert(1)>"}', 'bad_emote');
	row('emote', 'free text instead of an emote', '{"type":"emote","text":"hello"}', 'bad_emote');
	row('offer', 'an offer without what', '{"type":"offer"}', 'bad_offer');
	row('offer', 'an answer without accept', '{"type":"answer","what":"takeback"}', 'bad_offer');
	row('offer', 'an answer whose accept is a string', '{"type":"answer","what":"takeback","accept":"yes"}', 'bad_offer');
	row('offer', 'an answer with no offer pending', '{"type":"answer","what":"takeback","accept":true}', 'no_offer');
	row('offer', 'redo in a game between two players', '{"type":"redo"}', 'nothing_to_redo');
	row('type', 'a server message type: error', '{"type":"error","code":"game_over"}', 'bad_type');
	row('type', 'a server message type: welcome', '{"type":"welcome","uid":"x"}', 'bad_type');
	row('type', 'a server message type: role', '{"type":"role","role":"front"}', 'bad_type');
	row('type', 'a server message type: pong', '{"type":"pong"}', 'bad_type');
	row('type', 'a server message type: disconnect', '{"type":"disconnect"}', 'bad_type');
	row('type', 'an escaped backslash before u0000 (no NUL)', '{"type":"move\\\\u0000","x":1,"y":1}', 'bad_type');
	row('type', 'an emoji written as a surrogate pair', '{"type":"\\ud83d\\ude00"}', 'bad_type');
	row('type', 'a 10,000-character type', `{"type":"${'m'.repeat(10000)}"}`, 'bad_type');

	// The fields of a move, wrongly typed.
	row('move fields', 'x as a string', move('"1"', 1), 'bad_json');
	row('move fields', 'y as a string', move(1, '"1"'), 'bad_json');
	row('move fields', 'x as an empty string', move('""', 1), 'bad_json');
	row('move fields', 'x true', move('true', 1), 'bad_json');
	row('move fields', 'x false', move('false', 1), 'bad_json');
	row('move fields', 'x null', move('null', 1), 'bad_json');
	row('move fields', 'y null', move(1, 'null'), 'bad_json');
	row('move fields', 'x an empty array', move('[]', 1), 'bad_json');
	row('move fields', 'x an array of a number', move('[1]', 1), 'bad_json');
	row('move fields', 'x an empty object', move('{}', 1), 'bad_json');
	row('move fields', 'x an object with a number', move('{"value":1}', 1), 'bad_json');
	row('move fields', 'x missing', '{"type":"move","y":1}', 'bad_json');
	row('move fields', 'y missing', '{"type":"move","x":1}', 'bad_json');
	row('move fields', 'x and y missing', '{"type":"move"}', 'bad_json');
	row('move fields', 'X and Y in capitals', '{"type":"move","X":1,"Y":1}', 'bad_json');
	row('move fields', 'x a string, y fractional (shape first)', move('"1"', 1.5), 'bad_json');

	// Numbers that are no cell: refused while parsing, whoever sends them.
	row('numbers', '1e400 (infinite as a double)', move('1e400', 1), 'out_of_range');
	row('numbers', '-1e400', move('-1e400', 1), 'out_of_range');
	row('numbers', 'y 1e400', move(1, '1e400'), 'out_of_range');
	row('numbers', '1e308', move('1e308', 1), 'out_of_range');
	row('numbers', '1e10', move('1e10', 1), 'out_of_range');
	row('numbers', '2^31', move('2147483648', 1), 'out_of_range');
	row('numbers', '2^32', move('4294967296', 1), 'out_of_range');
	row('numbers', '2^53', move('9007199254740992', 1), 'out_of_range');
	row('numbers', '2^53 + 1', move('9007199254740993', 1), 'out_of_range');
	row('numbers', '-2^31 - 1', move('-2147483649', 1), 'out_of_range');
	row('numbers', '20 digits', move('99999999999999999999', 1), 'out_of_range');
	row('numbers', '1.5', move('1.5', 1), 'out_of_range');
	row('numbers', '0.5', move('0.5', 1), 'out_of_range');
	row('numbers', '-0.5', move('-0.5', 1), 'out_of_range');
	row('numbers', '1.000001', move('1.000001', 1), 'out_of_range');
	row('numbers', 'y 0.25', move(1, '0.25'), 'out_of_range');
	row('numbers', '1.5 from the side not to move (parsed before the turn)', move('1.5', 1), 'out_of_range', 'waiting');
	row('numbers', '1e400 from the side not to move', move('1e400', 1), 'out_of_range', 'waiting');

	// Whole numbers off the board: refused after the turn check.
	row('off the board', 'x = size', move(SIZE, 1), 'out_of_range');
	row('off the board', 'y = size', move(1, SIZE), 'out_of_range');
	row('off the board', 'x = -1', move(-1, 1), 'out_of_range');
	row('off the board', 'y = -1', move(1, -1), 'out_of_range');
	row('off the board', 'both negative', move(-1, -1), 'out_of_range');
	row('off the board', 'x = 2^31 - 1', move('2147483647', 1), 'out_of_range');
	row('off the board', 'x = -2^31', move('-2147483648', 1), 'out_of_range');
	row('off the board', 'x = size * size (a flat index)', move(CELLS, 0), 'out_of_range');
	row('off the board', 'x = 1e2', move('1e2', '1E2'), 'out_of_range');

	// Out of turn: front sends while back is to move.
	row('out of turn', 'a move on an empty cell', move(1, 1), 'not_your_turn', 'waiting');
	row('out of turn', 'a move on an occupied cell (turn first)', move(7, 7), 'not_your_turn', 'waiting');
	row('out of turn', 'a move off the board (turn first)', move(SIZE, 0), 'not_your_turn', 'waiting');
	row('out of turn', 'a move at -1,-1', move(-1, -1), 'not_your_turn', 'waiting');
	row('out of turn', 'a well-formed board', board(at(position, 1, 1, 'front'), 'front'), 'not_your_turn', 'waiting');
	row('out of turn', 'a board claiming to be back', board(oneNew, 'back'), 'not_your_turn', 'waiting');
	row('out of turn', 'a bad-shaped board (shape first)', board([], 'front'), 'bad_board', 'waiting');
	row('out of turn', 'a string x (shape first)', move('"1"', 1), 'bad_json', 'waiting');

	// Occupied cells, written in every form that reads as one.
	row('occupied', 'front\'s stone', move(7, 7), 'occupied');
	row('occupied', 'back\'s own stone', move(8, 8), 'occupied');
	row('occupied', 'the corner stone', move(0, 0), 'occupied');
	row('occupied', '-0 reads as 0', move('-0', 0), 'occupied');
	row('occupied', '1e-400 underflows to 0', move('1e-400', '0'), 'occupied');
	row('occupied', '7.0 reads as 7', move('7.0', '7.0'), 'occupied');
	row('occupied', '7e0 reads as 7', move('7e0', '7E0'), 'occupied');
	row('occupied', '0.7e1 reads as 7', move('0.7e1', '70e-1'), 'occupied');
	row('occupied', 'type written with escapes', '{"type":"\\u006dove","x":7,"y":7}', 'occupied');
	row('occupied', 'white space everywhere', ' \r\n\t{ "type" : "move" ,\n"x" : 7 , "y" : 7 }\n ', 'occupied');
	row('occupied', 'unknown fields beside', move(7, 7, ',"z":9,"role":"front","winner":"back"'), 'occupied');

	// Duplicate keys: cJSON reads the first of two equal keys.
	row('duplicate keys', 'x twice, the first on a stone', move(7, 7, ',"x":1'), 'occupied');
	row('duplicate keys', 'x twice, the first a string', '{"type":"move","x":"a","y":1,"x":1}', 'bad_json');
	row('duplicate keys', 'x twice, the first off the board', move(99, 1, ',"x":1'), 'out_of_range');
	row('duplicate keys', 'type twice, the first unknown', '{"type":"nope","type":"move","x":1,"y":1}', 'bad_type');
	row('duplicate keys', 'type twice, the first ping', '{"type":"ping","type":"move","x":1,"y":1}', 'pong');
	row('duplicate keys', 'type twice, the first winner', '{"type":"winner","type":"move","x":1,"y":1}', 'ignored');
	row('duplicate keys', 'content twice, the first empty', `{"type":"board","content":[],"content":${JSON.stringify(oneNew)},"role":"back"}`, 'bad_board');
	row('duplicate keys', 'role twice, the first front', `{"type":"board","content":${JSON.stringify(oneNew)},"role":"front","role":"back"}`, 'bad_board');

	// NUL characters: escaped or raw, anywhere.
	row('NUL', '\\u0000 inside the type', '{"type":"move\\u0000","x":1,"y":1}', 'bad_json');
	row('NUL', '\\u0000 in an unknown field', move(1, 1, ',"note":"a\\u0000b"'), 'bad_json');
	row('NUL', '\\u0000 in a key', '{"type":"move","x\\u0000":1,"x":1,"y":1}', 'bad_json');
	row('NUL', 'a raw NUL inside the type', '{"type":"mo\u0000ve","x":1,"y":1}', 'bad_json');
	row('NUL', 'a raw NUL after the object', '{"type":"ping"}\u0000', 'bad_json');
	row('NUL', 'a raw NUL before the object', '\u0000{"type":"ping"}', 'bad_json');
	row('NUL', 'only a NUL', '\u0000', 'bad_json');
	row('NUL', 'a board cell "back\\u0000x"', board(at(position, 1, 1, 'back\u0000x'), 'back'), 'bad_json');
	row('NUL', 'role "back\\u0000"', board(oneNew, 'back\u0000'), 'bad_json');

	// Broken escapes and lone surrogates.
	row('escapes', 'a lone high surrogate', '{"type":"\\ud800"}', 'bad_json');
	row('escapes', 'a lone low surrogate', '{"type":"\\udc00"}', 'bad_json');
	row('escapes', 'a high surrogate before a letter', move(1, 1, ',"s":"\\ud800\\u0041"'), 'bad_json');
	row('escapes', 'two high surrogates', move(1, 1, ',"s":"\\ud800\\ud800"'), 'bad_json');
	row('escapes', 'a \\x escape', '{"type":"\\x41"}', 'bad_json');
	row('escapes', 'a short \\u escape', '{"type":"\\u12"}', 'bad_json');
	row('escapes', 'an escaped single quote', '{"type":"\\\'"}', 'bad_json');
	row('escapes', 'an escaped closing quote (unterminated)', '{"type":"move\\"}', 'bad_json');
	row('escapes', 'a backslash at the end', '{"type":"move"}\\', 'bad_json');

	// Board shape: every shape error is bad_board.
	row('board shape', 'no content', '{"type":"board","role":"back"}', 'bad_board');
	row('board shape', 'content null', board(null, 'back'), 'bad_board');
	row('board shape', 'content a string', board('front', 'back'), 'bad_board');
	row('board shape', 'content an object', board({ 0: 'back' }, 'back'), 'bad_board');
	row('board shape', 'content of numbers', board(new Array(CELLS).fill(0), 'back'), 'bad_board');
	row('board shape', `N*N - 1 cells (${CELLS - 1})`, board(oneNew.slice(0, CELLS - 1), 'back'), 'bad_board');
	row('board shape', `N*N + 1 cells (${CELLS + 1})`, board([...oneNew, ''], 'back'), 'bad_board');
	row('board shape', 'no cells', board([], 'back'), 'bad_board');
	row('board shape', 'one cell', board(['back'], 'back'), 'bad_board');
	row('board shape', '256 cells (the 16 x 16 client on a 15 x 15 server)', board([...oneNew, ...new Array(31).fill('')], 'back'), 'bad_board');
	row('board shape', 'N*N + 3000 cells', board([...oneNew, ...new Array(3000).fill('')], 'back'), 'bad_board');
	row('board shape', 'a cell "black"', board(at(oneNew, 2, 2, 'black'), 'back'), 'bad_board');
	row('board shape', 'a cell "BACK"', board(at(position, 1, 1, 'BACK'), 'back'), 'bad_board');
	row('board shape', 'a cell " back"', board(at(position, 1, 1, ' back'), 'back'), 'bad_board');
	row('board shape', 'a cell "back "', board(at(position, 1, 1, 'back '), 'back'), 'bad_board');
	row('board shape', 'a cell null', board(at(oneNew, 2, 2, null), 'back'), 'bad_board');
	row('board shape', 'a cell 0', board(at(oneNew, 2, 2, 0), 'back'), 'bad_board');
	row('board shape', 'a cell true', board(at(oneNew, 2, 2, true), 'back'), 'bad_board');
	row('board shape', 'a cell ["back"]', board(at(position, 1, 1, ['back']), 'back'), 'bad_board');
	row('board shape', 'a cell {}', board(at(oneNew, 2, 2, {}), 'back'), 'bad_board');
	row('board shape', 'the content wrapped in an array', board([oneNew], 'back'), 'bad_board');
	row('board shape', 'rows of cells (a 2-D array)', board(Array.from({ length: SIZE }, (_, y) => oneNew.slice(y * SIZE, (y + 1) * SIZE)), 'back'), 'bad_board');
	row('board shape', 'no role', JSON.stringify({ type: 'board', content: oneNew }), 'bad_board');
	row('board shape', 'role null', board(oneNew, null), 'bad_board');
	row('board shape', 'role "white"', board(oneNew, 'white'), 'bad_board');
	row('board shape', 'role empty', board(oneNew, ''), 'bad_board');
	row('board shape', 'role ["back"]', board(oneNew, ['back']), 'bad_board');
	row('board shape', 'role 1', board(oneNew, 1), 'bad_board');

	// Board content that is no single new stone of the sender's.
	row('board content', 'role "front" (not the sender\'s side)', board(oneNew, 'front'), 'bad_board');
	row('board content', 'the board unchanged', board(position, 'back'), 'bad_board');
	row('board content', 'two new stones', board(at(oneNew, 2, 2, 'back'), 'back'), 'bad_board');
	row('board content', 'a new stone of the other colour', board(at(position, 1, 1, 'front'), 'back'), 'bad_board');
	row('board content', 'a new stone of each colour', board(at(oneNew, 2, 2, 'front'), 'back'), 'bad_board');
	row('board content', 'front\'s stone removed, one added', board(at(oneNew, 0, 0, ''), 'back'), 'bad_board');
	row('board content', 'back\'s own stone removed, one added', board(at(oneNew, 8, 8, ''), 'back'), 'bad_board');
	row('board content', 'a stone removed, none added', board(at(position, 0, 0, ''), 'back'), 'bad_board');
	row('board content', 'an empty board', board(emptyContent(SIZE), 'back'), 'bad_board');
	row('board content', 'front\'s stone moved to another cell', board(at(at(position, 0, 0, ''), 1, 1, 'front'), 'back'), 'bad_board');
	row('board content', 'front\'s stone painted over', board(at(position, 7, 7, 'back'), 'back'), 'occupied');
	row('board content', 'front\'s stone painted over, one added', board(at(oneNew, 7, 7, 'back'), 'back'), 'occupied');
	row('board content', 'every cell back', board(new Array(CELLS).fill('back'), 'back'), 'occupied');

	// Client messages the server ignores or answers.
	row('ignored', 'a winner claim', '{"type":"winner","winner":"back","reason":"five"}', 'ignored');
	row('ignored', 'a winner claim from the side not to move', '{"type":"winner","winner":"front"}', 'ignored', 'waiting');
	row('ignored', 'a winner claim with a line', '{"type":"winner","winner":"back","line":[{"x":1,"y":1}]}', 'ignored');
	row('ignored', 'a winner with garbage fields', '{"type":"winner","winner":null,"x":"\\ud83d\\ude00"}', 'ignored');
	row('answered', 'a ping with unknown fields', '{"type":"ping","x":1,"y":1,"deep":[[[[1]]]]}', 'pong');
	row('answered', 'a ping with a byte-order mark before it', '\ufeff{"type":"ping"}', 'pong');
	row('answered', 'a ping from the side not to move', '{"type":"ping"}', 'pong', 'waiting');

	return rows;
}

describe('hostile messages', () => {
	const server = useServer();

	it('refuses each hostile message of the table during a game with its error code, tells the opponent nothing, changes nothing, and the game goes on', T, async () => {
		const pair = await connectPair(server);
		const { front, back, room } = pair;
		const { content } = await playMoves(pair, OPENING, { size: SIZE });
		const rows = inGameRows(content);
		assert.ok(rows.length >= 100, `table error: expected at least 100 rows, got ${rows.length}`);
		const errorsBefore = await fetchMetric(server, 'gomoku_errors_total{code="bad_json"}');

		await runRows(rows, {
			players: { mover: back, waiting: front },
			state: () => gameState(server, room),
		});

		const badJsonRows = rows.filter((row) => row.expect === 'bad_json').length;
		const errorsAfter = await fetchMetric(server, 'gomoku_errors_total{code="bad_json"}');
		assert.equal(errorsAfter - errorsBefore, badJsonRows,
			`expected gomoku_errors_total{code="bad_json"} to grow by the ${badJsonRows} bad_json rows, ` +
			`it grew by ${errorsAfter - errorsBefore}`);
		// The game goes on: back's legal move is played for both.
		await playMoves(pair, [{ x: 1, y: 1, role: 'back' }], {
			size: SIZE, startContent: content, startMoves: OPENING.length,
		});
		const record = JSON.parse(await gameRecord(server, room));
		assert.deepEqual(record.moves, [...OPENING, { x: 1, y: 1, role: 'back' }],
			`expected the record to hold the opening and back's move at (1,1), got ${JSON.stringify(record.moves)}`);
	});

	it('refuses text that strict JSON refuses even where cJSON would read it', T, async () => {
		// Sent by the side not to move: read leniently, they are moves and
		// get not_your_turn; read as the protocol says ("bad_json: the text
		// is not JSON"), bad_json. Either way nothing is played.
		const pair = await connectPair(server);
		const { front, back, room } = pair;
		await playMoves(pair, OPENING, { size: SIZE });
		const rows = [];
		const row = tableBuilder(rows, 'waiting');
		row('strict JSON', 'a number with a leading zero', move('07', '01'), 'bad_json');
		row('strict JSON', 'a number ending in a dot', move('1.', '1'), 'bad_json');
		row('strict JSON', 'a raw line feed inside a string', move(1, 1, ',"note":"a\nb"'), 'bad_json');
		row('strict JSON', 'a raw tab inside a string', move(1, 1, ',"note":"a\tb"'), 'bad_json');
		row('strict JSON', 'a raw control character inside the type', '{"type":"mo\u0001ve","x":1,"y":1}', 'bad_json');
		await runRows(rows, {
			players: { mover: back, waiting: front },
			state: () => gameState(server, room),
		});
	});

	it('refuses \\u escapes with non-hex digits, which cJSON decodes as NUL and so cut strings short', T, async () => {
		// cJSON's parse_hex4() yields 0 for a digit that is not hex, so
		// "ping\\uZZZZjunk" reads as "ping": the same truncation the server
		// refuses for a literal \\u0000 (protocol_has_nul_escape()), by
		// another spelling. Sent by the side not to move, so that nothing
		// is played either way; a board cell "back\\uZZZZ..." from the side
		// to move would be played as a stone.
		const pair = await connectPair(server);
		const { front, back, room } = pair;
		const { content } = await playMoves(pair, OPENING, { size: SIZE });
		const rows = [];
		const row = tableBuilder(rows, 'waiting');
		row('bad escapes', 'a type "ping\\uZZZZjunk" (reads as ping)', '{"type":"ping\\uZZZZjunk"}', 'bad_json');
		row('bad escapes', 'a type "\\uzzzz"', '{"type":"\\uzzzz"}', 'bad_json');
		row('bad escapes', 'a type "move\\u00ZZ" (reads as move)', move(1, 1).replace('"move"', '"move\\u00ZZ"'), 'bad_json');
		row('bad escapes', 'a note "\\u0GGG" beside a move', move(1, 1, ',"note":"\\u0GGG"'), 'bad_json');
		row('bad escapes', 'a board cell "front\\uZZZZjunk" (reads as front)',
			board(withStone(content, SIZE, 1, 1, 'CELL'), 'front').replace('"CELL"', '"front\\uZZZZjunk"'), 'bad_json');
		await runRows(rows, {
			players: { mover: back, waiting: front },
			state: () => gameState(server, room),
		});
	});

	it('refuses moves before the player is matched with not_in_game, after the shape checks, and plays nothing', T, async () => {
		const lone = await connectWaiting(server, {}, { label: 'waiting player' });
		const state = async () => {
			const health = await server.health();
			const moves = await fetchMetric(server, 'gomoku_moves_total');
			const matches = await fetchMetric(server, 'gomoku_matches_total');
			return JSON.stringify({
				connections: health.connections, waiting: health.players_waiting,
				rooms: health.rooms, moves, matches,
			});
		};
		const rows = [];
		const row = tableBuilder(rows, 'lone');
		const oneStone = withStone(emptyContent(SIZE), SIZE, 7, 7, 'front');
		row('not matched', 'a move on the centre', move(7, 7), 'not_in_game');
		row('not matched', 'a move at the corner', move(0, 0), 'not_in_game');
		row('not matched', 'a move off the board', move(SIZE, 0), 'not_in_game');
		row('not matched', 'a move at -1', move(-1, 0), 'not_in_game');
		row('not matched', 'a well-formed board as front', board(oneStone, 'front'), 'not_in_game');
		row('not matched', 'a well-formed board as back', board(withStone(emptyContent(SIZE), SIZE, 7, 7, 'back'), 'back'), 'not_in_game');
		row('not matched', 'an empty board', board(emptyContent(SIZE), 'front'), 'not_in_game');
		row('not matched', 'a fractional move (parsed first)', move(1.5, 0), 'out_of_range');
		row('not matched', '1e400 (parsed first)', move('1e400', 0), 'out_of_range');
		row('not matched', 'a string x (parsed first)', move('"7"', 7), 'bad_json');
		row('not matched', 'a bad-shaped board (parsed first)', board(oneStone.slice(1), 'front'), 'bad_board');
		row('not matched', 'not JSON', '{"type":', 'bad_json');
		row('not matched', 'an unknown type', '{"type":"start"}', 'bad_type');
		row('not matched', 'a winner claim', '{"type":"winner","winner":"front"}', 'ignored');
		row('not matched', 'a ping', '{"type":"ping"}', 'pong');
		row('not matched', 'resign', '{"type":"resign"}', 'not_in_game');
		row('not matched', 'abort', '{"type":"abort"}', 'not_in_game');
		row('not matched', 'a draw offer', '{"type":"offer","what":"draw"}', 'not_in_game');
		row('not matched', 'a draw answer', '{"type":"answer","what":"draw","accept":true}', 'not_in_game');
		row('not matched', 'a rematch offer', '{"type":"offer","what":"rematch"}', 'not_in_game');
		row('not matched', 'a rematch answer', '{"type":"answer","what":"rematch","accept":false}', 'not_in_game');
		row('not matched', 'an emote', '{"type":"emote","emote":"hello"}', 'not_in_game');
		row('not matched', 'an emote out of the list (parsed first)', '{"type":"emote","emote":"love"}', 'bad_emote');
		row('not matched', 'an offer of something else (parsed first)', '{"type":"offer","what":"dance"}', 'bad_offer');
		await runRows(rows, { players: { lone }, state });

		// Still waiting, and nothing was remembered: the game starts empty.
		const second = await connectPlayer(server, { uid: uuid() }, { label: 'second player' });
		await second.next('welcome');
		const secondRole = await second.next('role', undefined, { skip: ['waiting'] });
		const loneRole = await lone.next('role');
		const front = loneRole.role === 'front' ? lone : second;
		const back = front === lone ? second : lone;
		await playMoves({ front, back }, [{ x: 7, y: 7, role: 'front' }], { size: SIZE });
		const record = JSON.parse(await gameRecord(server, secondRole.room));
		assert.deepEqual(record.moves, [{ x: 7, y: 7, role: 'front' }],
			`expected the new game to hold only front's first move, got ${JSON.stringify(record.moves)}`);
	});

	it('refuses every move after a five with game_over, from both players, and the finished record stays the same', T, async () => {
		const pair = await connectPair(server);
		const { front, back, room } = pair;
		const script = winningScript({ size: SIZE, winner: 'front', direction: 'diagonal', start: { x: 3, y: 3 } });
		const { content } = await playMoves(pair, script.moves, { size: SIZE, lastEndsGame: true });
		await expectWinner(pair, { winner: 'front', reason: 'five', line: script.line });
		const rows = [];
		const row = tableBuilder(rows, 'winner');
		for (const [from, role] of [['winner', 'front'], ['loser', 'back']]) {
			row(`after the five (${role})`, 'a move on an empty cell', move(14, 14), 'game_over', from);
			row(`after the five (${role})`, 'a move on a stone', move(3, 3), 'game_over', from);
			row(`after the five (${role})`, 'a move off the board', move(SIZE, SIZE), 'game_over', from);
			row(`after the five (${role})`, 'a well-formed board', board(withStone(content, SIZE, 14, 14, role), role), 'game_over', from);
			row(`after the five (${role})`, 'a fractional move (parsed first)', move(0.5, 1), 'out_of_range', from);
			row(`after the five (${role})`, 'a bad-shaped board (parsed first)', board(content.slice(1), role), 'bad_board', from);
			row(`after the five (${role})`, 'a winner claim', `{"type":"winner","winner":"${role}"}`, 'ignored', from);
			row(`after the five (${role})`, 'resign', '{"type":"resign"}', 'game_over', from);
			row(`after the five (${role})`, 'resign again', '{"type":"resign"}', 'game_over', from);
			row(`after the five (${role})`, 'abort', '{"type":"abort"}', 'game_over', from);
			row(`after the five (${role})`, 'a draw offer', '{"type":"offer","what":"draw"}', 'game_over', from);
			row(`after the five (${role})`, 'a draw answer', '{"type":"answer","what":"draw","accept":true}', 'game_over', from);
			row(`after the five (${role})`, 'a takeback offer', '{"type":"offer","what":"takeback"}', 'game_over', from);
			row(`after the five (${role})`, 'a rematch answer with no rematch offered', '{"type":"answer","what":"rematch","accept":true}', 'no_offer', from);
			row(`after the five (${role})`, 'a rematch answer whose accept is a string (parsed first)', '{"type":"answer","what":"rematch","accept":"yes"}', 'bad_offer', from);
			row(`after the five (${role})`, 'an emote out of the list', '{"type":"emote","emote":"love"}', 'bad_emote', from);
		}
		await runRows(rows, {
			players: { winner: front, loser: back },
			state: () => gameState(server, room),
		});
		const record = JSON.parse(await gameRecord(server, room));
		assert.equal(record.status, 'finished', `expected the record to be finished, got ${JSON.stringify(record)}`);
		assert.equal(record.moves.length, script.moves.length,
			`expected the record to hold the ${script.moves.length} moves of the game, got ${record.moves.length}`);
	});

	it('refuses moves after the opponent left with game_over and keeps the forfeit record', T, async () => {
		const pair = await connectPair(server);
		const { front, back, room } = pair;
		await playMoves(pair, [{ x: 7, y: 7, role: 'front' }], { size: SIZE });
		await back.terminate();
		const winner = await front.next('winner');
		assert.deepEqual([winner.winner, winner.reason], ['front', 'forfeit'],
			`expected front to win by forfeit, got ${JSON.stringify(winner)}`);
		await front.next('disconnect');
		const rows = [];
		const row = tableBuilder(rows, 'left behind');
		row('after a forfeit', 'a move on an empty cell', move(1, 1), 'game_over');
		row('after a forfeit', 'a move on its own stone', move(7, 7), 'game_over');
		row('after a forfeit', 'a board', board(withStone(withStone(emptyContent(SIZE), SIZE, 7, 7, 'front'), SIZE, 1, 1, 'front'), 'front'), 'game_over');
		row('after a forfeit', 'a string x (parsed first)', move('"1"', 1), 'bad_json');
		row('after a forfeit', 'resign', '{"type":"resign"}', 'game_over');
		row('after a forfeit', 'abort', '{"type":"abort"}', 'game_over');
		row('after a forfeit', 'a draw offer', '{"type":"offer","what":"draw"}', 'game_over');
		row('after a forfeit', 'a rematch offer to the opponent who left', '{"type":"offer","what":"rematch"}', 'opponent_gone');
		row('after a forfeit', 'an emote out of the list', '{"type":"emote","emote":"love"}', 'bad_emote');
		// Allowed while seated in a finished room; with nobody to relay it
		// to, and no echo to the sender, nothing comes back.
		row('after a forfeit', 'an emote with nobody to hear it', '{"type":"emote","emote":"gg"}', 'ignored');
		await runRows(rows, { players: { 'left behind': front }, state: () => gameState(server, room) });
	});

	it('refuses abort at move 2 with too_late from both sides, whatever fields it carries, and changes nothing', T, async () => {
		const pair = await connectPair(server);
		const { front, back, room } = pair;
		await playMoves(pair, OPENING.slice(0, 2), { size: SIZE });
		const rows = [];
		const row = tableBuilder(rows, 'front');
		row('abort at move 2', 'abort by the side to move', '{"type":"abort"}', 'too_late');
		row('abort at move 2', 'abort by the side that just moved', '{"type":"abort"}', 'too_late', 'back');
		row('abort at move 2', 'abort with a reason', '{"type":"abort","reason":"mistake"}', 'too_late');
		row('abort at move 2', 'abort with moves 0', '{"type":"abort","moves":0}', 'too_late', 'back');
		await runRows(rows, { players: { front, back }, state: () => gameState(server, room) });
	});

	it('refuses offers out of turn while a draw offer is pending: no_offer for the offerer\'s own answer, offer_pending for any other offer', T, async () => {
		const pair = await connectPair(server);
		const { front, back, room } = pair;
		await playMoves(pair, OPENING, { size: SIZE });
		front.send({ type: 'offer', what: 'draw' });
		for (const client of [front, back])
			assert.deepEqual(await client.next('offer'), { type: 'offer', what: 'draw', by: 'front' });
		const rows = [];
		const row = tableBuilder(rows, 'offerer');
		row('draw pending', 'the offerer accepts its own offer', '{"type":"answer","what":"draw","accept":true}', 'no_offer');
		row('draw pending', 'the offerer declines its own offer', '{"type":"answer","what":"draw","accept":false}', 'no_offer');
		row('draw pending', 'the offerer offers again', '{"type":"offer","what":"draw"}', 'offer_pending');
		row('draw pending', 'the offerer offers a takeback too', '{"type":"offer","what":"takeback"}', 'offer_pending');
		row('draw pending', 'the asked player offers a draw back', '{"type":"offer","what":"draw"}', 'offer_pending', 'asked');
		row('draw pending', 'the asked player offers a takeback', '{"type":"offer","what":"takeback"}', 'offer_pending', 'asked');
		row('draw pending', 'the asked player answers with accept "true"', '{"type":"answer","what":"draw","accept":"true"}', 'bad_offer', 'asked');
		row('draw pending', 'the asked player aborts (too late)', '{"type":"abort"}', 'too_late', 'asked');
		await runRows(rows, { players: { offerer: front, asked: back }, state: () => gameState(server, room) });
		// The offer still stands: the asked player declines it.
		back.send({ type: 'answer', what: 'draw', accept: false });
		for (const client of [front, back])
			assert.deepEqual(await client.next('answer'), { type: 'answer', what: 'draw', accept: false, by: 'back' });
	});
});
