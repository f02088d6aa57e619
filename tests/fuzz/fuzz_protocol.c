/*
 * fuzz_protocol.c - libFuzzer target for the JSON wire protocol.
 *
 * Every input is used five ways, so that the seed corpus can be plain
 * client messages:
 *
 *   1. protocol_parse() on the raw bytes, for several board sizes; an
 *      accepted request is checked against an independent cJSON reading of
 *      the same text, a refused one must carry an error code and a message;
 *   2. identity_check_uid() on a NUL-terminated copy, against an independent
 *      reading of the 8-4-4-4-12 form;
 *   3. identity_check_name() on the same copy: what it accepts must be
 *      trimmed, valid UTF-8 of 1..NAME_MAX_CHARS characters, a part of the
 *      input, and accepted again unchanged;
 *   4. one event of every kind built from the bytes, encoded with
 *      protocol_encode(): the text must parse back with cJSON and give back
 *      exactly what was put in;
 *   5. protocol_write_board() of a game played from the bytes, with and
 *      without content, into heap blocks of exactly the size, one byte
 *      more, and less (for ASan to watch the edges).
 *
 * Any broken check aborts, which libFuzzer reports as a crash.
 *
 * A libFuzzer target is one program: the input's decoding, the independent
 * readings and the checks live together (over 600 lines).
 */
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_reader.h"
#include "game.h"
#include "protocol.h"

/* Reports a broken check with what was expected and what came, and stops. */
#define fuzz_check(cond, ...)                                               \
	do {                                                                \
		if (!(cond)) {                                              \
			fprintf(stderr, "fuzz_protocol: %s:%d: ", __FILE__, \
				__LINE__);                                  \
			fprintf(stderr, __VA_ARGS__);                       \
			fprintf(stderr, "\n");                              \
			abort();                                            \
		}                                                           \
	} while (0)

/* The board sizes every message is parsed for; 4 and 26 are not boards. */
static const int fuzz_board_sizes[] = { 4, 5, 15, 16, 25, 26 };


static int fuzz_int(struct fuzz_reader *in)
{
	uint32_t value = 0;
	int i;

	for (i = 0; i < 4; i++)
		value = (value << 8) | fuzz_byte(in);
	return (int)value;
}

/*
 * A NUL-terminated string of up to 63 input bytes (stopping early at a
 * NUL), or NULL when the length byte says so. Written into buf.
 */
static const char *fuzz_string(struct fuzz_reader *in, char buf[64])
{
	uint8_t head = fuzz_byte(in);
	size_t len = head & 63;
	size_t i;

	if (head >= 0xf0)
		return NULL;
	for (i = 0; i < len; i++)
		buf[i] = (char)fuzz_byte(in);
	buf[len] = '\0';
	return buf;
}

/* The role a cell string names, as the protocol reads it; -1 for none. */
static int fuzz_cell_role(const cJSON *item)
{
	if (!cJSON_IsString(item))
		return -1;
	if (!strcmp(item->valuestring, ""))
		return ROLE_NONE;
	if (!strcmp(item->valuestring, "front"))
		return ROLE_FRONT;
	if (!strcmp(item->valuestring, "back"))
		return ROLE_BACK;
	return -1;
}

/* Checks an accepted board request against the JSON it came from. */
static void fuzz_check_board(const cJSON *root, int board_size,
			     const struct request *req)
{
	const cJSON *content =
		cJSON_GetObjectItemCaseSensitive(root, "content");
	const cJSON *role = cJSON_GetObjectItemCaseSensitive(root, "role");
	const cJSON *cell;
	int cells = board_size * board_size;
	int i = 0;

	fuzz_check(board_size >= BOARD_MIN_SIZE && board_size <= BOARD_MAX_SIZE,
		   "board accepted for size %d", board_size);
	fuzz_check(cJSON_IsArray(content), "board accepted without content");
	fuzz_check(cJSON_GetArraySize(content) == cells,
		   "board of size %d accepted with %d cells, expected %d",
		   board_size, cJSON_GetArraySize(content), cells);
	cJSON_ArrayForEach(cell, content) {
		fuzz_check(req->cells[i] <= ROLE_BACK,
			   "cell %d holds %u, expected 0..2", i, req->cells[i]);
		fuzz_check(fuzz_cell_role(cell) == req->cells[i],
			   "cell %d parsed as %u, the text says %d", i,
			   req->cells[i], fuzz_cell_role(cell));
		i++;
	}
	for (; i < BOARD_MAX_CELLS; i++)
		fuzz_check(req->cells[i] == 0,
			   "cell %d beyond the board holds %u", i,
			   req->cells[i]);
	fuzz_check(req->role == ROLE_FRONT || req->role == ROLE_BACK,
		   "board accepted with role %d", req->role);
	fuzz_check(fuzz_cell_role(role) == (int)req->role,
		   "board role parsed as %d, the text says %d", req->role,
		   fuzz_cell_role(role));
}

/* Checks an accepted move's coordinate against its JSON number. */
static void fuzz_check_coordinate(const cJSON *root, const char *name,
				  int parsed)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, name);

	fuzz_check(cJSON_IsNumber(item), "move accepted without number %s",
		   name);
	fuzz_check(item->valuedouble == (double)parsed,
		   "move %s parsed as %d, the text says %.17g", name, parsed,
		   item->valuedouble);
}

/*
 * Parses text for board_size and checks the outcome against cJSON's own
 * reading of the same bytes.
 */
static void fuzz_parse(const uint8_t *data, size_t size, int board_size)
{
	struct request req;
	const char *message = NULL;
	enum error_code code;
	const cJSON *type;
	cJSON *root;

	code = protocol_parse((const char *)data, size, board_size, &req,
			      &message);
	fuzz_check(message != NULL, "parse left the message NULL");
	if (code != ERR_NONE) {
		fuzz_check(code > ERR_NONE && code < ERR_COUNT,
			   "parse returned code %d", code);
		fuzz_check(message[0] != '\0', "refusal %s came without text",
			   error_code_name(code));
		return;
	}

	/* Accepted: the bytes are one JSON object with a string type. */
	fuzz_check(size > 0 && !memchr(data, '\0', size),
		   "accepted a message with a NUL byte");
	root = cJSON_ParseWithLengthOpts((const char *)data, size, NULL, 0);
	fuzz_check(cJSON_IsObject(root), "accepted text cJSON cannot read");
	type = cJSON_GetObjectItemCaseSensitive(root, "type");
	fuzz_check(cJSON_IsString(type), "accepted a message without type");
	switch (req.type) {
	case REQUEST_MOVE:
		fuzz_check(!strcmp(type->valuestring, "move"),
			   "type \"%s\" parsed as a move", type->valuestring);
		fuzz_check_coordinate(root, "x", req.x);
		fuzz_check_coordinate(root, "y", req.y);
		break;
	case REQUEST_BOARD:
		fuzz_check(!strcmp(type->valuestring, "board"),
			   "type \"%s\" parsed as a board", type->valuestring);
		fuzz_check_board(root, board_size, &req);
		break;
	case REQUEST_WINNER:
		fuzz_check(!strcmp(type->valuestring, "winner"),
			   "type \"%s\" parsed as winner", type->valuestring);
		break;
	case REQUEST_PING:
	case REQUEST_REDO:
	case REQUEST_RESIGN:
	case REQUEST_ABORT:
		fuzz_check(!strcmp(type->valuestring,
				   protocol_request_name(req.type)),
			   "type \"%s\" parsed as %s", type->valuestring,
			   protocol_request_name(req.type));
		break;
	case REQUEST_OFFER:
	case REQUEST_ANSWER: {
		const cJSON *what =
			cJSON_GetObjectItemCaseSensitive(root, "what");
		const cJSON *accept =
			cJSON_GetObjectItemCaseSensitive(root, "accept");

		fuzz_check(!strcmp(type->valuestring,
				   protocol_request_name(req.type)),
			   "type \"%s\" parsed as %s", type->valuestring,
			   protocol_request_name(req.type));
		fuzz_check(cJSON_IsString(what) &&
				   !strcmp(what->valuestring,
					   offer_what_name(req.what)),
			   "what parsed as %s", offer_what_name(req.what));
		if (req.type == REQUEST_ANSWER)
			fuzz_check(cJSON_IsBool(accept) &&
					   cJSON_IsTrue(accept) == req.accept,
				   "accept parsed as %d", req.accept);
		break;
	}
	case REQUEST_EMOTE: {
		const cJSON *emote =
			cJSON_GetObjectItemCaseSensitive(root, "emote");

		fuzz_check(!strcmp(type->valuestring, "emote"),
			   "type \"%s\" parsed as an emote", type->valuestring);
		fuzz_check(cJSON_IsString(emote) &&
				   !strcmp(emote->valuestring,
					   emote_name(req.emote)),
			   "emote parsed as %s", emote_name(req.emote));
		break;
	}
	default:
		fuzz_check(false, "parse made request type %d", req.type);
	}
	cJSON_Delete(root);
}

/* Whether c is a hex digit, either case. */
static bool fuzz_is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/* Checks identity_check_uid() against a plain reading of the form. */
static void fuzz_check_uid(const char *text)
{
	char out[UID_LEN + 1];
	char again[UID_LEN + 1];
	bool expected = strlen(text) == UID_LEN;
	bool got;
	int i;

	for (i = 0; expected && i < UID_LEN; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23)
			expected = text[i] == '-';
		else
			expected = fuzz_is_hex(text[i]);
	}
	memset(out, 'u', sizeof(out));
	got = identity_check_uid(text, out);
	fuzz_check(got == expected, "check_uid(\"%s\"): expected %d, got %d",
		   text, expected, got);
	if (!got) {
		for (i = 0; i <= UID_LEN; i++)
			fuzz_check(out[i] == 'u', "a refused uid wrote out");
		return;
	}
	for (i = 0; i < UID_LEN; i++) {
		char lower = text[i] >= 'A' && text[i] <= 'F' ?
				     (char)(text[i] - 'A' + 'a') :
				     text[i];

		fuzz_check(out[i] == lower, "check_uid(\"%s\") gave \"%.36s\"",
			   text, out);
	}
	fuzz_check(out[UID_LEN] == '\0', "check_uid left out unterminated");
	fuzz_check(identity_check_uid(out, again) && !strcmp(out, again),
		   "the canonical uid \"%s\" is not its own canonical form",
		   out);
}

/* The characters of valid UTF-8 text; -1 when it is not valid UTF-8. */
static int fuzz_utf8_chars(const unsigned char *s, bool *has_control)
{
	int chars = 0;

	*has_control = false;
	while (*s) {
		uint32_t cp;
		int len, i;

		if (s[0] < 0x80) {
			cp = s[0];
			len = 1;
		} else if (s[0] >= 0xc2 && s[0] <= 0xdf) {
			cp = s[0] & 0x1f;
			len = 2;
		} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
			cp = s[0] & 0x0f;
			len = 3;
		} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
			cp = s[0] & 0x07;
			len = 4;
		} else {
			return -1;
		}
		for (i = 1; i < len; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return -1;
			cp = (cp << 6) | (s[i] & 0x3f);
		}
		if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
		    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return -1;
		if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
			*has_control = true;
		s += len;
		chars++;
	}
	return chars;
}

/* Checks what identity_check_name() accepts, and that it accepts names. */
static void fuzz_check_name(const char *text)
{
	char out[NAME_MAX_BYTES + 1];
	char again[NAME_MAX_BYTES + 1];
	const char *start = text;
	size_t len;
	bool has_control;
	bool expected;
	int chars;

	/* The independent verdict: trim, then judge the rest. */
	while (*start == ' ')
		start++;
	len = strlen(start);
	while (len > 0 && start[len - 1] == ' ')
		len--;
	{
		char *trimmed = malloc(len + 1);

		fuzz_check(trimmed != NULL, "out of memory");
		memcpy(trimmed, start, len);
		trimmed[len] = '\0';
		chars = fuzz_utf8_chars((const unsigned char *)trimmed,
					&has_control);
		free(trimmed);
	}
	expected = len > 0 && chars > 0 && chars <= NAME_MAX_CHARS &&
		   !has_control;
	fuzz_check(identity_check_name(text, out) == expected,
		   "check_name of %zu bytes: expected %d (chars %d, control "
		   "%d)",
		   strlen(text), expected, chars, has_control);
	if (!expected)
		return;
	fuzz_check(strlen(out) == len && !memcmp(out, start, len),
		   "check_name gave \"%s\", expected the trimmed input", out);
	fuzz_check(strlen(out) <= NAME_MAX_BYTES, "name of %zu bytes",
		   strlen(out));
	fuzz_check(identity_check_name(out, again) && !strcmp(out, again),
		   "the checked name \"%s\" is refused or changed again", out);
}

/* The string member name of object, or NULL when it is not a string. */
static const char *fuzz_member_string(const cJSON *object, const char *name)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, name);

	return cJSON_IsString(item) ? item->valuestring : NULL;
}

/* Fails unless member name of object is the string expected (NULL: ""). */
static void fuzz_expect_string(const cJSON *object, const char *name,
			       const char *expected)
{
	const char *got = fuzz_member_string(object, name);

	if (!expected)
		expected = "";
	fuzz_check(got && !strcmp(got, expected),
		   "member %s: expected \"%s\", got \"%s\"", name, expected,
		   got ? got : "(none)");
}

/* Fails unless member name of object is the number expected. */
static void fuzz_expect_number(const cJSON *object, const char *name,
			       double expected)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, name);

	fuzz_check(cJSON_IsNumber(item) && item->valuedouble == expected,
		   "member %s: expected %.17g, got %.17g", name, expected,
		   cJSON_IsNumber(item) ? item->valuedouble : -0.5);
}

/* Checks the content array of an encoded board against the game's cells. */
static void fuzz_expect_content(const cJSON *content, const struct game *game)
{
	const cJSON *cell;
	int i = 0;

	fuzz_check(cJSON_IsArray(content) &&
			   cJSON_GetArraySize(content) ==
				   game->board.size * game->board.size,
		   "board content is not size^2 cells");
	cJSON_ArrayForEach(cell, content) {
		fuzz_check(fuzz_cell_role(cell) == game->board.cells[i],
			   "encoded cell %d is not the board's %u", i,
			   game->board.cells[i]);
		i++;
	}
}

/*
 * Checks an encoded board against the game it came from; with_content
 * false: the compact form, without content.
 */
static int fuzz_expect_clock(const cJSON *root, const struct game *game,
			     uint64_t now_ms, bool abort_in);

/* Checks "tc": "none" or "BASE+INC", as time_control_format() writes. */
static void fuzz_expect_tc(const cJSON *root, struct time_control tc)
{
	char text[TIME_CONTROL_TEXT_MAX];

	time_control_format(tc, text, sizeof(text));
	fuzz_expect_string(root, "tc", text);
}

static void fuzz_expect_board(const cJSON *root, const struct game *game,
			      bool with_content, uint64_t now_ms)
{
	const cJSON *content =
		cJSON_GetObjectItemCaseSensitive(root, "content");
	const cJSON *move = cJSON_GetObjectItemCaseSensitive(root, "move");
	int members = 3 + with_content + (game->moves_played > 0) +
		      fuzz_expect_clock(root, game, now_ms, true);

	fuzz_expect_string(root, "type", "board");
	fuzz_check(cJSON_GetArraySize(root) == members,
		   "board has %d members, expected %d",
		   cJSON_GetArraySize(root), members);
	if (with_content)
		fuzz_expect_content(content, game);
	else
		fuzz_check(!content, "a compact board has content");
	fuzz_expect_number(root, "moves", game->moves_played);
	if (game->moves_played == 0) {
		fuzz_check(!move, "a board with no move names a move");
		fuzz_expect_string(root, "role", "front");
		return;
	}
	fuzz_check(cJSON_IsObject(move), "a board with moves has no move");
	fuzz_expect_number(move, "x", game->last_move.x);
	fuzz_expect_number(move, "y", game->last_move.y);
	fuzz_expect_string(move, "role", role_name(game->last_mover));
	fuzz_expect_string(root, "role",
			   role_name(role_other(game->last_mover)));
}

/* Checks an encoded winner against the game it came from. */
static void fuzz_expect_winner(const cJSON *root, const struct game *game)
{
	const cJSON *line = cJSON_GetObjectItemCaseSensitive(root, "line");
	const cJSON *cell;
	int i = 0;

	fuzz_expect_string(root, "winner", game_winner_name(game->winner));
	fuzz_expect_string(root, "reason", game_reason_name(game->reason));
	if (game->reason != REASON_FIVE) {
		fuzz_check(!line, "a winner not by five has a line");
		return;
	}
	fuzz_check(cJSON_IsArray(line) &&
			   cJSON_GetArraySize(line) == game->line.length,
		   "the line is not %d cells", game->line.length);
	cJSON_ArrayForEach(cell, line) {
		fuzz_expect_number(cell, "x", game->line.cells[i].x);
		fuzz_expect_number(cell, "y", game->line.cells[i].y);
		i++;
	}
}

/*
 * A game of a size, rules and moves read from the input; timed (a time
 * control from the input, each move taking up to 25.5 s of its clock, as
 * the room keeps it) when the input says so. *now_ms: the time after its
 * last move, plus up to 25.5 s more.
 */
static void fuzz_make_game(struct fuzz_reader *in, struct game *game,
			   uint64_t *now_ms)
{
	uint8_t head = fuzz_byte(in);
	int size =
		BOARD_MIN_SIZE + head % (BOARD_MAX_SIZE - BOARD_MIN_SIZE + 1);
	int moves = fuzz_byte(in);
	uint8_t timing = fuzz_byte(in);
	uint64_t now = 1000;
	int i;

	game_init(game, size, (head & 0x20) ? RULE_STANDARD : RULE_FREESTYLE,
		  (head & 0x40) ? FULL_BOARD_DRAW : FULL_BOARD_BACK);
	if (timing & 1) {
		struct time_control tc = {
			.base_ms = (TIME_CONTROL_BASE_MIN_S +
				    fuzz_byte(in) * 43u) *
				   1000u,
			.inc_ms = fuzz_byte(in) % (TIME_CONTROL_INC_MAX_S + 1) *
				  1000u,
		};

		fischer_start(&game->clock, tc, 30000, now);
	}
	for (i = 0; i < moves && in->pos < in->size; i++) {
		uint8_t cell = fuzz_byte(in);
		enum role mover = game->to_move;

		now += (uint64_t)fuzz_byte(in) * 100;
		if (game_play(game, mover, cell % size, (cell / size) % size) ==
		    MOVE_OK) {
			fischer_moved(&game->clock, mover, game->moves_played,
				      now);
			if (game_is_over(game))
				fischer_stop(&game->clock, ROLE_NONE, now);
		}
	}
	if (head & 0x80) {
		fischer_stop(&game->clock, game->to_move, now);
		game_forfeit(game,
			     (fuzz_byte(in) & 1) ? ROLE_FRONT : ROLE_BACK);
	}
	*now_ms = now + (uint64_t)fuzz_byte(in) * 100;
}

/*
 * Checks the clock of an encoded message (a board or role at now_ms, a
 * winner) against the game's: present with both figures exactly when
 * the game is timed, abort_in while its first-move deadline runs.
 * Returns how many members they add.
 */
static int fuzz_expect_clock(const cJSON *root, const struct game *game,
			     uint64_t now_ms, bool abort_in)
{
	const cJSON *clock = cJSON_GetObjectItemCaseSensitive(root, "clock");
	const cJSON *in = cJSON_GetObjectItemCaseSensitive(root, "abort_in");
	int64_t want_in = abort_in ? protocol_abort_in(game, now_ms) : -1;

	if (!time_control_timed(game->clock.tc)) {
		fuzz_check(!clock && !in, "an untimed game has a clock");
		return 0;
	}
	fuzz_check(cJSON_IsObject(clock) && cJSON_GetArraySize(clock) == 2,
		   "a timed game has no clock of two figures");
	fuzz_expect_number(clock, "front",
			   (double)fischer_left(&game->clock, ROLE_FRONT,
						game->to_move, now_ms));
	fuzz_expect_number(clock, "back",
			   (double)fischer_left(&game->clock, ROLE_BACK,
						game->to_move, now_ms));
	if (want_in < 0) {
		fuzz_check(!in, "abort_in with no first-move deadline");
		return 1;
	}
	fuzz_expect_number(root, "abort_in", (double)want_in);
	return 2;
}

/* Encodes one event of type made from the input and reads it back. */
static void fuzz_encode(struct fuzz_reader *in, enum event_type type)
{
	char strings[5][64];
	struct game game;
	struct event ev = { .type = type };
	size_t headroom = fuzz_byte(in) % 32;
	size_t len = 0;
	char *buffer;
	cJSON *root;

	ev.uid = fuzz_string(in, strings[0]);
	ev.version = fuzz_string(in, strings[1]);
	ev.room_id = fuzz_string(in, strings[2]);
	ev.opponent_name = fuzz_string(in, strings[3]);
	ev.text = fuzz_string(in, strings[4]);
	ev.size = fuzz_int(in);
	ev.rule = (enum rule)(fuzz_byte(in) % 3);
	ev.role = (enum role)(fuzz_byte(in) % 4);
	ev.code = (enum error_code)(fuzz_byte(in) % (ERR_COUNT + 2));
	ev.seconds = fuzz_int(in);
	ev.compact = fuzz_byte(in) & 1;
	ev.resume = fuzz_byte(in) & 1;
	ev.accept = fuzz_byte(in) & 1;
	ev.by = (enum role)(fuzz_byte(in) % 3);
	ev.ai_level = fuzz_byte(in) & 1 ? "hard" : NULL;
	ev.what = (enum offer_what)(fuzz_byte(in) % OFFER_COUNT);
	ev.emote = (enum emote)(fuzz_byte(in) % EMOTE_COUNT);
	ev.names[ROLE_FRONT] = fuzz_byte(in) & 1 ? ev.opponent_name : NULL;
	ev.names[ROLE_BACK] = fuzz_byte(in) & 1 ? ev.text : NULL;
	ev.count = (unsigned long)fuzz_int(in) & 0xffffff;
	fuzz_make_game(in, &game, &ev.now_ms);
	ev.game = &game;
	ev.tc = game.clock.tc;

	buffer = protocol_encode(&ev, headroom, &len);
	if (type == EVENT_REPLACED) {
		fuzz_check(!buffer, "replaced was encoded");
		game_release(&game);
		return;
	}
	fuzz_check(buffer != NULL, "event %d could not be encoded", type);
	memset(buffer, 'h', headroom);
	fuzz_check(strlen(buffer + headroom) == len,
		   "encoded length %zu, the text has %zu", len,
		   strlen(buffer + headroom));
	root = cJSON_Parse(buffer + headroom);
	fuzz_check(cJSON_IsObject(root), "encoded text does not parse: %s",
		   buffer + headroom);
	fuzz_expect_string(root, "type", protocol_event_name(type));

	switch (type) {
	case EVENT_WELCOME:
		/* a spectator's (no uid) has none */
		if (ev.uid)
			fuzz_expect_string(root, "uid", ev.uid);
		else
			fuzz_check(!cJSON_GetObjectItemCaseSensitive(root,
								     "uid"),
				   "a welcome with no uid has one");
		fuzz_expect_string(root, "version", ev.version);
		fuzz_expect_number(root, "protocol", PROTOCOL_VERSION);
		fuzz_expect_number(root, "size", ev.size);
		fuzz_expect_string(root, "rule", rule_name(ev.rule));
		fuzz_expect_tc(root, ev.tc);
		break;
	case EVENT_ROLE:
		fuzz_expect_string(root, "role", role_name(ev.role));
		fuzz_expect_string(root, "room", ev.room_id);
		fuzz_expect_number(root, "size", ev.size);
		fuzz_expect_tc(root, ev.tc);
		fuzz_expect_clock(root, &game, ev.now_ms, true);
		if (ev.ai_level) {
			const cJSON *opponent =
				cJSON_GetObjectItemCaseSensitive(root,
								 "opponent");

			/* the engine: no name, the client names it */
			fuzz_check(
				cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
					opponent, "ai")) &&
					!cJSON_GetObjectItemCaseSensitive(
						opponent, "name"),
				"the engine opponent is not {ai, level}");
			fuzz_expect_string(opponent, "level", ev.ai_level);
		} else if (ev.opponent_name && ev.opponent_name[0]) {
			const cJSON *opponent =
				cJSON_GetObjectItemCaseSensitive(root,
								 "opponent");

			fuzz_expect_string(opponent, "name", ev.opponent_name);
			fuzz_check(!cJSON_GetObjectItemCaseSensitive(opponent,
								     "ai"),
				   "a person's opponent has ai");
		} else
			fuzz_check(!cJSON_GetObjectItemCaseSensitive(
					   root, "opponent"),
				   "role names an opponent with no name");
		break;
	case EVENT_BOARD:
		fuzz_expect_board(root, &game, !ev.compact, ev.now_ms);
		break;
	case EVENT_WINNER:
		fuzz_expect_winner(root, &game);
		fuzz_expect_clock(root, &game, 0, false);
		break;
	case EVENT_DISCONNECT:
		fuzz_expect_string(root, "disconnect", ev.text);
		break;
	case EVENT_ERROR:
		fuzz_expect_string(root, "code", error_code_name(ev.code));
		fuzz_expect_string(root, "message", ev.text);
		break;
	case EVENT_OFFER:
	case EVENT_ANSWER:
		fuzz_expect_string(root, "what", offer_what_name(ev.what));
		fuzz_expect_string(root, "by", role_name(ev.by));
		fuzz_check(cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(
				   root, "accept")) == (type == EVENT_ANSWER),
			   "accept in %s", protocol_event_name(type));
		if (type == EVENT_ANSWER)
			fuzz_check(
				cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
					root, "accept")) == ev.accept,
				"answer's accept");
		break;
	case EVENT_EMOTE:
		fuzz_expect_string(root, "by", role_name(ev.by));
		fuzz_expect_string(root, "emote", emote_name(ev.emote));
		fuzz_check(cJSON_GetArraySize(root) == 3,
			   "emote has %d members", cJSON_GetArraySize(root));
		break;
	case EVENT_OPPONENT_AWAY:
	case EVENT_OPPONENT_BACK:
		/* the seat's role: to spectators only (by set) */
		if (type == EVENT_OPPONENT_AWAY)
			fuzz_expect_number(root, "seconds", ev.seconds);
		if (ev.by == ROLE_FRONT || ev.by == ROLE_BACK)
			fuzz_expect_string(root, "role", role_name(ev.by));
		fuzz_check(cJSON_GetArraySize(root) ==
				   1 + (type == EVENT_OPPONENT_AWAY) +
					   (ev.by == ROLE_FRONT ||
					    ev.by == ROLE_BACK),
			   "%s has %d members", protocol_event_name(type),
			   cJSON_GetArraySize(root));
		break;
	case EVENT_SPECTATE: {
		const cJSON *players =
			cJSON_GetObjectItemCaseSensitive(root, "players");

		fuzz_expect_string(root, "room", ev.room_id);
		fuzz_expect_number(root, "size", ev.size);
		fuzz_expect_string(root, "rule", rule_name(ev.rule));
		fuzz_expect_tc(root, ev.tc);
		for (int role = ROLE_FRONT; role <= ROLE_BACK; role++) {
			const cJSON *seat = cJSON_GetObjectItemCaseSensitive(
				players, role_name(role));

			fuzz_check(cJSON_IsObject(seat), "spectate has no %s",
				   role_name(role));
			if (ev.names[role] && ev.names[role][0])
				fuzz_expect_string(seat, "name",
						   ev.names[role]);
			else
				fuzz_check(!cJSON_GetArraySize(seat),
					   "a seat with no name has one");
		}
		fuzz_check(!cJSON_GetObjectItemCaseSensitive(root, "uid"),
			   "spectate has a uid");
		break;
	}
	case EVENT_SPECTATORS:
		fuzz_expect_number(root, "count", (double)ev.count);
		fuzz_check(cJSON_GetArraySize(root) == 2,
			   "spectators has %d members",
			   cJSON_GetArraySize(root));
		break;
	default:
		fuzz_check(cJSON_GetArraySize(root) == 1, "%s has %d members",
			   protocol_event_name(type), cJSON_GetArraySize(root));
		break;
	}
	cJSON_Delete(root);
	free(buffer);
	game_release(&game);
}

/*
 * Writes a board into a heap block of exactly size bytes and checks what
 * protocol_write_board() says it wrote. The caller frees *text.
 */
static size_t fuzz_write_board_into(const struct game *game, bool content,
				    uint64_t now_ms, size_t size, char **text)
{
	/* A 0-byte buffer still needs a valid pointer; its byte is a guard. */
	char *buf = malloc(size ? size : 1);
	size_t len;

	fuzz_check(buf != NULL, "out of memory");
	if (!size)
		buf[0] = 'g';
	len = protocol_write_board(game, content, now_ms, buf, size);
	if (!size)
		fuzz_check(buf[0] == 'g', "a 0-byte buffer was written");
	if (len)
		fuzz_check(len < size && buf[len] == '\0' && strlen(buf) == len,
			   "write_board returned %zu for a buffer of %zu", len,
			   size);
	*text = buf;
	return len;
}

/* protocol_write_board() against cJSON, at the edge of fitting. */
static void fuzz_write_board(struct fuzz_reader *in)
{
	struct game game;
	bool content = fuzz_byte(in) & 1;
	size_t max, len, shrink;
	uint64_t now;
	char *text;
	char *other;
	cJSON *root;

	fuzz_make_game(in, &game, &now);
	max = PROTOCOL_BOARD_TEXT_MAX(game.board.size);
	len = fuzz_write_board_into(&game, content, now, max, &text);
	fuzz_check(len > 0, "a %dx%d board does not fit %zu bytes",
		   game.board.size, game.board.size, max);
	root = cJSON_Parse(text);
	fuzz_check(cJSON_IsObject(root), "written board does not parse: %s",
		   text);
	fuzz_expect_board(root, &game, content, now);
	cJSON_Delete(root);

	/* Exactly len + 1 bytes fit; len (no room for the NUL) do not. */
	fuzz_check(fuzz_write_board_into(&game, content, now, len + 1,
					 &other) == len &&
			   !strcmp(other, text),
		   "the board does not fit %zu bytes the same way", len + 1);
	free(other);
	fuzz_check(!fuzz_write_board_into(&game, content, now, len, &other),
		   "the board was written into %zu bytes", len);
	free(other);
	shrink = fuzz_byte(in) % (len + 1);
	fuzz_check(!fuzz_write_board_into(&game, content, now, shrink, &other),
		   "the board was written into %zu bytes", shrink);
	free(other);
	free(text);
	game_release(&game);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_reader in = { data, size, 0 };
	char *text;
	size_t i;
	int type;

	for (i = 0; i < sizeof(fuzz_board_sizes) / sizeof(fuzz_board_sizes[0]);
	     i++)
		fuzz_parse(data, size, fuzz_board_sizes[i]);

	text = malloc(size + 1);
	fuzz_check(text != NULL, "out of memory");
	memcpy(text, data, size);
	text[size] = '\0';
	fuzz_check_uid(text);
	fuzz_check_name(text);
	free(text);

	for (type = EVENT_WELCOME; type <= EVENT_SPECTATORS; type++) {
		in.pos = (size_t)type * 7 % (size ? size : 1);
		fuzz_encode(&in, (enum event_type)type);
	}
	in.pos = 0;
	fuzz_write_board(&in);
	return 0;
}
