/*
 * protocol_fast.c - the hot path of the protocol, by hand and with no
 * allocation: a move read in its plain form, a board message written.
 * Everything else goes through cJSON (protocol.c).
 */
#include "protocol.h"

#include "renju.h"

#include <string.h>

/*
 * The hot path: a move in its plain form, {"type":"move","x":X,"y":Y} with
 * the three keys in any order, white space anywhere, and X and Y integers
 * of at most 9 digits, read without cJSON (no allocation). The text was
 * already found to be valid JSON. Anything else (another key, a repeated
 * one, an escape, a fraction, an exponent) returns false and is left to
 * cJSON, so both paths agree on every message.
 */
static const char *protocol_skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

bool protocol_read_plain_move(const char *text, size_t len, struct request *req)
{
	const char *p = text, *end = text + len;
	bool seen_type = false, seen_x = false, seen_y = false;

	p = protocol_skip_space(p, end);
	if (p == end || *p++ != '{')
		return false;
	for (;;) {
		const char *key;
		size_t key_len;

		p = protocol_skip_space(p, end);
		if (p == end || *p++ != '"')
			return false;
		key = p;
		while (p < end && *p != '"' && *p != '\\')
			p++;
		if (p == end || *p != '"')
			return false;
		key_len = (size_t)(p++ - key);
		p = protocol_skip_space(p, end);
		if (p == end || *p++ != ':')
			return false;
		p = protocol_skip_space(p, end);
		if (key_len == 4 && !memcmp(key, "type", 4) && !seen_type) {
			if (end - p < 6 || memcmp(p, "\"move\"", 6))
				return false;
			p += 6;
			seen_type = true;
		} else if (key_len == 1 && (*key == 'x' || *key == 'y') &&
			   !(*key == 'x' ? seen_x : seen_y)) {
			bool negative = p < end && *p == '-';
			int value = 0, digits = 0;

			p += negative;
			while (p < end && *p >= '0' && *p <= '9' &&
			       digits < 9) {
				value = value * 10 + (*p++ - '0');
				digits++;
			}
			if (!digits ||
			    (p < end && (*p == '.' || *p == 'e' || *p == 'E' ||
					 (*p >= '0' && *p <= '9'))))
				return false;
			if (*key == 'x') {
				req->x = negative ? -value : value;
				seen_x = true;
			} else {
				req->y = negative ? -value : value;
				seen_y = true;
			}
		} else {
			return false;
		}
		p = protocol_skip_space(p, end);
		if (p == end)
			return false;
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p != '}')
			return false;
		break;
	}
	if (!seen_type || !seen_x || !seen_y)
		return false;
	req->type = REQUEST_MOVE;
	return true;
}

/* A cursor over a caller's buffer; overflow sticks. */
struct protocol_out {
	char *at;      /* next byte to write */
	char *end;     /* one past the last usable byte (NUL room kept) */
	bool overflow; /* something did not fit */
};

static void protocol_out_bytes(struct protocol_out *out, const char *bytes,
			       size_t len)
{
	if (out->overflow || (size_t)(out->end - out->at) < len) {
		out->overflow = true;
		return;
	}
	memcpy(out->at, bytes, len);
	out->at += len;
}

static void protocol_out_str(struct protocol_out *out, const char *text)
{
	protocol_out_bytes(out, text, strlen(text));
}

/* A non-negative integer below 10^9 (coordinates, counts). */
static void protocol_out_uint(struct protocol_out *out, unsigned int value)
{
	char digits[12];
	int n = 0;

	do {
		digits[sizeof(digits) - 1 - n++] = (char)('0' + value % 10);
		value /= 10;
	} while (value && n < 10);
	protocol_out_bytes(out, digits + sizeof(digits) - n, (size_t)n);
}

/* Writes {"x":X,"y":Y,"role":"R"}. */
static void protocol_out_cell(struct protocol_out *out, struct cell cell,
			      enum role role)
{
	protocol_out_str(out, "{\"x\":");
	protocol_out_uint(out, (unsigned int)cell.x);
	protocol_out_str(out, ",\"y\":");
	protocol_out_uint(out, (unsigned int)cell.y);
	protocol_out_str(out, ",\"role\":\"");
	protocol_out_str(out, role_name(role));
	protocol_out_str(out, "\"}");
}

/* A count of milliseconds (a clock: at most three hours and more). */
static void protocol_out_ms(struct protocol_out *out, int64_t ms)
{
	char digits[24];
	int n = 0;
	uint64_t value = ms > 0 ? (uint64_t)ms : 0;

	do {
		digits[sizeof(digits) - 1 - n++] = (char)('0' + value % 10);
		value /= 10;
	} while (value && n < 20);
	protocol_out_bytes(out, digits + sizeof(digits) - n, (size_t)n);
}

int64_t protocol_abort_in(const struct game *game, uint64_t now_ms)
{
	uint64_t at;

	if (game_is_over(game))
		return -1;
	at = fischer_abort_at(&game->clock, game->moves_played);
	if (at == UINT64_MAX)
		return -1;
	return at > now_ms ? (int64_t)(at - now_ms) : 0;
}

/*
 * Writes ,"clock":{"front":F,"back":B} for a timed game, and
 * ,"abort_in":MS while its first-move deadline runs.
 */
static void protocol_out_clock(struct protocol_out *out,
			       const struct game *game, uint64_t now_ms)
{
	int64_t abort_in;

	if (!time_control_timed(game->clock.tc))
		return;
	protocol_out_str(out, ",\"clock\":{\"front\":");
	protocol_out_ms(out, fischer_left(&game->clock, ROLE_FRONT,
					  game->to_move, now_ms));
	protocol_out_str(out, ",\"back\":");
	protocol_out_ms(out, fischer_left(&game->clock, ROLE_BACK,
					  game->to_move, now_ms));
	protocol_out_str(out, "}");
	abort_in = protocol_abort_in(game, now_ms);
	if (abort_in >= 0) {
		protocol_out_str(out, ",\"abort_in\":");
		protocol_out_ms(out, abort_in);
	}
}

size_t protocol_board_text_max(const struct game *game, bool content)
{
	int size = game->board.size;
	size_t max = content ? PROTOCOL_BOARD_TEXT_MAX(size) :
			       PROTOCOL_COMPACT_BOARD_TEXT_MAX;

	if (game->rule == RULE_RENJU)
		max += PROTOCOL_FORBIDDEN_TEXT_MAX(size);
	return max;
}

/*
 * Writes ,"forbidden":[{"x":X,"y":Y},...] for a renju game whose next
 * move, black's, is still to come.
 */
static void protocol_out_forbidden(struct protocol_out *out,
				   const struct game *game, enum role next)
{
	struct cell cells[BOARD_MAX_CELLS];
	int count;

	if (game->rule != RULE_RENJU || next != ROLE_FRONT ||
	    game_is_over(game))
		return;
	count = renju_forbidden(&game->board, cells, BOARD_MAX_CELLS);
	protocol_out_str(out, ",\"forbidden\":[");
	for (int i = 0; i < count; i++) {
		protocol_out_str(out, i ? ",{\"x\":" : "{\"x\":");
		protocol_out_uint(out, (unsigned int)cells[i].x);
		protocol_out_str(out, ",\"y\":");
		protocol_out_uint(out, (unsigned int)cells[i].y);
		protocol_out_str(out, "}");
	}
	protocol_out_str(out, "]");
}

/* A board message; with undo, of a takeback that removed *undo. */
static size_t protocol_write_board_message(const struct game *game,
					   bool content,
					   const struct cell *undo,
					   enum role undo_role, uint64_t now_ms,
					   char *buf, size_t size)
{
	/* The content cells, quoted, with the comma that follows them. */
	static const char *const cells[] = {
		[ROLE_NONE] = "\"\",",
		[ROLE_FRONT] = "\"front\",",
		[ROLE_BACK] = "\"back\",",
	};
	static const size_t cell_len[] = { 3, 8, 7 };
	struct protocol_out out = { buf, buf + size - 1, size == 0 };
	const struct board *board = &game->board;
	enum role next = ROLE_FRONT;
	int i, count = board->size * board->size;

	if (undo)
		next = undo_role;
	else if (game->moves_played > 0)
		next = role_other(game->last_mover);
	protocol_out_str(&out, "{\"type\":\"board\",");
	if (content) {
		protocol_out_str(&out, "\"content\":[");
		for (i = 0; i < count; i++) {
			uint8_t cell = board->cells[i] <= ROLE_BACK ?
					       board->cells[i] :
					       ROLE_NONE;

			protocol_out_bytes(&out, cells[cell], cell_len[cell]);
		}
		out.at -= !out.overflow; /* the last comma */
		protocol_out_str(&out, "],");
	}
	protocol_out_str(&out, "\"role\":\"");
	protocol_out_str(&out, role_name(next));
	protocol_out_str(&out, "\",");
	if (undo) {
		protocol_out_str(&out, "\"undo\":");
		protocol_out_cell(&out, *undo, undo_role);
		protocol_out_str(&out, ",");
	} else if (game->moves_played > 0) {
		protocol_out_str(&out, "\"move\":");
		protocol_out_cell(&out, game->last_move, game->last_mover);
		protocol_out_str(&out, ",");
	}
	protocol_out_str(&out, "\"moves\":");
	protocol_out_uint(&out, (unsigned int)game->moves_played);
	protocol_out_clock(&out, game, now_ms);
	protocol_out_forbidden(&out, game, next);
	protocol_out_str(&out, "}");
	if (out.overflow)
		return 0;
	*out.at = '\0';
	return (size_t)(out.at - buf);
}

size_t protocol_write_board(const struct game *game, bool content,
			    uint64_t now_ms, char *buf, size_t size)
{
	return protocol_write_board_message(game, content, NULL, ROLE_NONE,
					    now_ms, buf, size);
}

size_t protocol_write_undo(const struct game *game, struct cell cell,
			   enum role mover, uint64_t now_ms, char *buf,
			   size_t size)
{
	return protocol_write_board_message(game, true, &cell, mover, now_ms,
					    buf, size);
}
