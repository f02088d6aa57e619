/*
 * protocol.c - the JSON wire protocol, version 1: parsing client messages,
 * encoding server messages, and checking uids and display names.
 */
#include "protocol.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The protocol words of the error codes, indexed by enum error_code. */
static const char *const error_code_names[ERR_COUNT] = {
	[ERR_NONE] = "",
	[ERR_BAD_JSON] = "bad_json",
	[ERR_BAD_TYPE] = "bad_type",
	[ERR_BAD_UID] = "bad_uid",
	[ERR_BAD_NAME] = "bad_name",
	[ERR_NOT_IN_GAME] = "not_in_game",
	[ERR_NOT_YOUR_TURN] = "not_your_turn",
	[ERR_OUT_OF_RANGE] = "out_of_range",
	[ERR_OCCUPIED] = "occupied",
	[ERR_BAD_BOARD] = "bad_board",
	[ERR_GAME_OVER] = "game_over",
	[ERR_TOO_LARGE] = "too_large",
	[ERR_RATE_LIMITED] = "rate_limited",
	[ERR_BAD_MODE] = "bad_mode",
	[ERR_BAD_OFFER] = "bad_offer",
	[ERR_NOTHING_TO_UNDO] = "nothing_to_undo",
	[ERR_NOTHING_TO_REDO] = "nothing_to_redo",
	[ERR_OFFER_PENDING] = "offer_pending",
	[ERR_NO_OFFER] = "no_offer",
	[ERR_TOO_SOON] = "too_soon",
	[ERR_UNAVAILABLE] = "unavailable",
};

const char *error_code_name(enum error_code code)
{
	if ((unsigned int)code >= ERR_COUNT)
		return "";
	return error_code_names[code];
}

enum error_code error_from_move_result(enum move_result result)
{
	switch (result) {
	case MOVE_OK:
		return ERR_NONE;
	case MOVE_OUT_OF_RANGE:
		return ERR_OUT_OF_RANGE;
	case MOVE_OCCUPIED:
		return ERR_OCCUPIED;
	case MOVE_NOT_YOUR_TURN:
		return ERR_NOT_YOUR_TURN;
	case MOVE_GAME_OVER:
		return ERR_GAME_OVER;
	case MOVE_BAD_BOARD:
	default:
		return ERR_BAD_BOARD;
	}
}

/*
 * Reads a move coordinate from a number item: ERR_OUT_OF_RANGE when it is
 * not an integer that fits an int.
 */
static enum error_code protocol_parse_coordinate(const cJSON *item, int *out,
						 const char **message)
{
	double value = item->valuedouble;

	/* Written so that NaN and the infinities fail the range test too. */
	if (!(value >= (double)INT_MIN && value <= (double)INT_MAX) ||
	    (double)(int)value != value) {
		*message = "move x and y must be integers";
		return ERR_OUT_OF_RANGE;
	}
	*out = (int)value;
	return ERR_NONE;
}

/* {"type":"move","x":X,"y":Y}: two integral numbers. */
static enum error_code protocol_parse_move(const cJSON *root,
					   struct request *req,
					   const char **message)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(root, "x");
	const cJSON *y = cJSON_GetObjectItemCaseSensitive(root, "y");
	enum error_code code;

	/* Shape errors come before range errors, whichever field has them. */
	if (!cJSON_IsNumber(x) || !cJSON_IsNumber(y)) {
		*message = "move needs integer x and y";
		return ERR_BAD_JSON;
	}
	code = protocol_parse_coordinate(x, &req->x, message);
	if (code == ERR_NONE)
		code = protocol_parse_coordinate(y, &req->y, message);
	if (code == ERR_NONE)
		req->type = REQUEST_MOVE;
	return code;
}

/* The role a cell or role string names; -1 when it names none. */
static int protocol_role_from_string(const cJSON *item, bool allow_empty)
{
	const char *value;

	if (!cJSON_IsString(item) || !item->valuestring)
		return -1;
	value = item->valuestring;
	if (strcmp(value, "front") == 0)
		return ROLE_FRONT;
	if (strcmp(value, "back") == 0)
		return ROLE_BACK;
	if (allow_empty && value[0] == '\0')
		return ROLE_NONE;
	return -1;
}

/*
 * {"type":"board","content":[...],"role":R}: board_size^2 cell strings and
 * the mover. Every shape error here is ERR_BAD_BOARD, so that a client
 * sending a board learns that its board was refused.
 */
static enum error_code protocol_parse_board(const cJSON *root, int board_size,
					    struct request *req,
					    const char **message)
{
	const cJSON *content;
	const cJSON *role;
	const cJSON *cell;
	int cells = board_size * board_size;
	int i = 0;
	int value;

	if (board_size < BOARD_MIN_SIZE || board_size > BOARD_MAX_SIZE) {
		*message = "the server has no board of that size";
		return ERR_BAD_BOARD;
	}
	content = cJSON_GetObjectItemCaseSensitive(root, "content");
	if (!cJSON_IsArray(content)) {
		*message = "board needs a content array";
		return ERR_BAD_BOARD;
	}
	cJSON_ArrayForEach(cell, content) {
		if (i == cells) {
			*message = "board content has too many cells";
			return ERR_BAD_BOARD;
		}
		value = protocol_role_from_string(cell, true);
		if (value < 0) {
			*message = "cells must be \"\", \"front\" or \"back\"";
			return ERR_BAD_BOARD;
		}
		req->cells[i++] = (uint8_t)value;
	}
	if (i != cells) {
		*message = "board content has too few cells";
		return ERR_BAD_BOARD;
	}
	role = cJSON_GetObjectItemCaseSensitive(root, "role");
	value = protocol_role_from_string(role, false);
	if (value < 0) {
		*message = "board role must be \"front\" or \"back\"";
		return ERR_BAD_BOARD;
	}
	req->role = (enum role)value;
	req->type = REQUEST_BOARD;
	return ERR_NONE;
}

/*
 * {"type":"offer","what":"takeback"} and
 * {"type":"answer","what":"takeback","accept":B}: takeback is the only
 * offer there is so far.
 */
static enum error_code protocol_parse_offer(const cJSON *root, bool answer,
					    struct request *req,
					    const char **message)
{
	const cJSON *what = cJSON_GetObjectItemCaseSensitive(root, "what");
	const cJSON *accept = cJSON_GetObjectItemCaseSensitive(root, "accept");

	if (!cJSON_IsString(what) || !what->valuestring ||
	    strcmp(what->valuestring, "takeback") != 0) {
		*message = "\"what\" must be \"takeback\"";
		return ERR_BAD_OFFER;
	}
	if (answer && !cJSON_IsBool(accept)) {
		*message = "an answer needs \"accept\": true or false";
		return ERR_BAD_OFFER;
	}
	req->type = answer ? REQUEST_ANSWER : REQUEST_OFFER;
	req->accept = answer && cJSON_IsTrue(accept);
	return ERR_NONE;
}

/* Dispatches a parsed JSON object on its "type". */
static enum error_code protocol_parse_object(const cJSON *root, int board_size,
					     struct request *req,
					     const char **message)
{
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(root, "type");
	const char *name;

	if (!cJSON_IsString(type) || !type->valuestring) {
		*message = "message needs a string \"type\"";
		return ERR_BAD_TYPE;
	}
	name = type->valuestring;
	if (strcmp(name, "move") == 0)
		return protocol_parse_move(root, req, message);
	if (strcmp(name, "board") == 0)
		return protocol_parse_board(root, board_size, req, message);
	if (strcmp(name, "winner") == 0) {
		req->type = REQUEST_WINNER;
		return ERR_NONE;
	}
	if (strcmp(name, "ping") == 0) {
		req->type = REQUEST_PING;
		return ERR_NONE;
	}
	if (strcmp(name, "offer") == 0 || strcmp(name, "answer") == 0)
		return protocol_parse_offer(root, name[0] == 'a', req, message);
	if (strcmp(name, "redo") == 0) {
		req->type = REQUEST_REDO;
		return ERR_NONE;
	}
	*message = "unknown message type";
	return ERR_BAD_TYPE;
}

/*
 * Decodes the UTF-8 sequence at s (up to end) into *code_point. Returns its
 * length in bytes, or 0 when it is malformed: truncated, a stray
 * continuation byte, an overlong form, a surrogate or beyond U+10FFFF.
 */
static size_t protocol_decode_utf8(const unsigned char *s,
				   const unsigned char *end,
				   uint32_t *code_point)
{
	uint32_t value;
	uint32_t min;
	size_t length;
	size_t i;

	if (s[0] < 0x80) {
		*code_point = s[0];
		return 1;
	} else if ((s[0] & 0xe0) == 0xc0) {
		length = 2;
		min = 0x80;
		value = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		length = 3;
		min = 0x800;
		value = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		length = 4;
		min = 0x10000;
		value = s[0] & 0x07;
	} else {
		return 0;
	}
	if ((size_t)(end - s) < length)
		return 0;
	for (i = 1; i < length; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		value = (value << 6) | (s[i] & 0x3f);
	}
	if (value < min || value > 0x10ffff ||
	    (value >= 0xd800 && value <= 0xdfff))
		return 0;
	*code_point = value;
	return length;
}

/* Deeper nesting than any request needs is refused outright. */
#define PROTOCOL_JSON_MAX_DEPTH 32

/*
 * A strict RFC 8259 check of a whole message, before cJSON reads it:
 * cJSON is lenient where a hostile client can make use of it (leading
 * zeros, "1.", raw control characters in strings, \u escapes with junk
 * read as NUL, lone surrogates), and recursion depth is bounded here.
 */
struct protocol_json {
	const unsigned char *at;  /* next byte */
	const unsigned char *end; /* one past the last byte */
	int depth;		  /* containers open */
	bool too_deep;		  /* gave up on depth */
};

static void json_space(struct protocol_json *j)
{
	while (j->at < j->end && (*j->at == ' ' || *j->at == '\t' ||
				  *j->at == '\n' || *j->at == '\r'))
		j->at++;
}

static bool json_word(struct protocol_json *j, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(j->end - j->at) < n || memcmp(j->at, word, n))
		return false;
	j->at += n;
	return true;
}

/* The value of four hex digits at p, or -1. */
static int json_hex4(const unsigned char *p)
{
	int value = 0;

	for (int i = 0; i < 4; i++) {
		int c = p[i];

		value <<= 4;
		if (c >= '0' && c <= '9')
			value |= c - '0';
		else if (c >= 'a' && c <= 'f')
			value |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			value |= c - 'A' + 10;
		else
			return -1;
	}
	return value;
}

/* A \u escape at j->at (the backslash): no NUL, surrogates in pairs. */
static bool json_unicode_escape(struct protocol_json *j)
{
	int unit, low;

	if (j->end - j->at < 6 || (unit = json_hex4(j->at + 2)) <= 0)
		return false;
	j->at += 6;
	if (unit >= 0xdc00 && unit <= 0xdfff)
		return false;
	if (unit < 0xd800 || unit > 0xdbff)
		return true;
	if (j->end - j->at < 6 || j->at[0] != '\\' || j->at[1] != 'u')
		return false;
	low = json_hex4(j->at + 2);
	if (low < 0xdc00 || low > 0xdfff)
		return false;
	j->at += 6;
	return true;
}

static bool json_string(struct protocol_json *j)
{
	uint32_t code_point;

	j->at++; /* the opening quote */
	while (j->at < j->end) {
		unsigned char c = *j->at;
		size_t n;

		if (c == '"') {
			j->at++;
			return true;
		}
		if (c < 0x20)
			return false;
		if (c == '\\') {
			if (j->end - j->at < 2)
				return false;
			if (j->at[1] == 'u') {
				if (!json_unicode_escape(j))
					return false;
				continue;
			}
			if (!j->at[1] || !strchr("\"\\/bfnrt", j->at[1]))
				return false;
			j->at += 2;
			continue;
		}
		n = protocol_decode_utf8(j->at, j->end, &code_point);
		if (!n)
			return false;
		j->at += n;
	}
	return false;
}

static bool json_digits(struct protocol_json *j)
{
	const unsigned char *start = j->at;

	while (j->at < j->end && *j->at >= '0' && *j->at <= '9')
		j->at++;
	return j->at > start;
}

static bool json_number(struct protocol_json *j)
{
	if (j->at < j->end && *j->at == '-')
		j->at++;
	if (j->at < j->end && *j->at == '0')
		j->at++;
	else if (j->at >= j->end || *j->at < '1' || *j->at > '9' ||
		 !json_digits(j))
		return false;
	if (j->at < j->end && *j->at == '.') {
		j->at++;
		if (!json_digits(j))
			return false;
	}
	if (j->at < j->end && (*j->at == 'e' || *j->at == 'E')) {
		j->at++;
		if (j->at < j->end && (*j->at == '+' || *j->at == '-'))
			j->at++;
		if (!json_digits(j))
			return false;
	}
	return true;
}

static bool json_value(struct protocol_json *j);

/* An object or array at j->at, members and all. */
static bool json_container(struct protocol_json *j)
{
	bool object = *j->at == '{';
	unsigned char close = object ? '}' : ']';

	if (++j->depth > PROTOCOL_JSON_MAX_DEPTH) {
		j->too_deep = true;
		return false;
	}
	j->at++;
	json_space(j);
	if (j->at < j->end && *j->at == close) {
		j->at++;
		j->depth--;
		return true;
	}
	for (;;) {
		if (object) {
			json_space(j);
			if (j->at >= j->end || *j->at != '"' || !json_string(j))
				return false;
			json_space(j);
			if (j->at >= j->end || *j->at++ != ':')
				return false;
		}
		if (!json_value(j))
			return false;
		json_space(j);
		if (j->at >= j->end)
			return false;
		if (*j->at == ',') {
			j->at++;
			continue;
		}
		if (*j->at++ != close)
			return false;
		j->depth--;
		return true;
	}
}

static bool json_value(struct protocol_json *j)
{
	json_space(j);
	if (j->at >= j->end)
		return false;
	switch (*j->at) {
	case '{':
	case '[':
		return json_container(j);
	case '"':
		return json_string(j);
	case 't':
		return json_word(j, "true");
	case 'f':
		return json_word(j, "false");
	case 'n':
		return json_word(j, "null");
	default:
		return json_number(j);
	}
}

/* NULL when text is one strict JSON object, else why not. */
static const char *protocol_json_check(const char *text, size_t len)
{
	struct protocol_json j = {
		.at = (const unsigned char *)text,
		.end = (const unsigned char *)text + len,
	};

	if (!json_value(&j))
		return j.too_deep ? "message is nested too deeply" :
				    "message is not valid JSON";
	json_space(&j);
	if (j.at != j.end)
		return "message is not valid JSON";
	j.at = (const unsigned char *)text;
	json_space(&j);
	if (*j.at != '{')
		return "message must be a JSON object";
	return NULL;
}

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

static bool protocol_parse_plain_move(const char *p, const char *end,
				      struct request *req)
{
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

enum error_code protocol_parse(const char *text, size_t len, int board_size,
			       struct request *req, const char **message)
{
	enum error_code code;
	const char *end = NULL;
	cJSON *root;

	*message = "";
	memset(req, 0, sizeof(*req));
	if (!text || len == 0) {
		*message = "empty message";
		return ERR_BAD_JSON;
	}
	/* RFC 8259 lets a parser ignore a byte order mark; some do send it. */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		text += 3;
		len -= 3;
	}
	*message = protocol_json_check(text, len);
	if (*message)
		return ERR_BAD_JSON;
	*message = "";
	if (protocol_parse_plain_move(text, text + len, req))
		return ERR_NONE;
	req->x = req->y = 0;
	root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	if (!root) {
		*message = "message is not valid JSON";
		return ERR_BAD_JSON;
	}
	if (!cJSON_IsObject(root)) {
		*message = "message must be a JSON object";
		code = ERR_BAD_JSON;
	} else {
		code = protocol_parse_object(root, board_size, req, message);
	}
	cJSON_Delete(root);
	return code;
}

/* Adds {x, y} to parent (an array or, with name, an object); NULL on OOM. */
static cJSON *protocol_add_cell(cJSON *parent, const char *name, int x, int y)
{
	cJSON *cell = cJSON_CreateObject();

	if (!cell)
		return NULL;
	if (!(name ? cJSON_AddItemToObject(parent, name, cell) :
		     cJSON_AddItemToArray(parent, cell))) {
		cJSON_Delete(cell);
		return NULL;
	}
	if (!cJSON_AddNumberToObject(cell, "x", x) ||
	    !cJSON_AddNumberToObject(cell, "y", y))
		return NULL;
	return cell;
}

/* The protocol_encode_*() helpers add one event's fields; false on OOM. */
static bool protocol_encode_welcome(cJSON *root, const struct event *ev)
{
	return cJSON_AddStringToObject(root, "uid", ev->uid ? ev->uid : "") &&
	       cJSON_AddNumberToObject(root, "protocol", PROTOCOL_VERSION) &&
	       cJSON_AddNumberToObject(root, "size", ev->size) &&
	       cJSON_AddStringToObject(root, "rule", rule_name(ev->rule)) &&
	       cJSON_AddStringToObject(root, "version",
				       ev->version ? ev->version : "");
}

static bool protocol_encode_role(cJSON *root, const struct event *ev)
{
	cJSON *opponent;

	if (!cJSON_AddStringToObject(root, "role", role_name(ev->role)) ||
	    !cJSON_AddStringToObject(root, "room",
				     ev->room_id ? ev->room_id : "") ||
	    !cJSON_AddNumberToObject(root, "size", ev->size) ||
	    !cJSON_AddStringToObject(root, "rule", rule_name(ev->rule)))
		return false;
	if (!ev->opponent_name || !ev->opponent_name[0])
		return true;
	opponent = cJSON_AddObjectToObject(root, "opponent");
	if (!opponent ||
	    !cJSON_AddStringToObject(opponent, "name", ev->opponent_name))
		return false;
	return !ev->ai_level ||
	       (cJSON_AddTrueToObject(opponent, "ai") &&
		cJSON_AddStringToObject(opponent, "level", ev->ai_level));
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

/* A board message; with undo, of a takeback that removed *undo. */
static size_t protocol_write_board_message(const struct game *game,
					   bool content,
					   const struct cell *undo,
					   enum role undo_role, char *buf,
					   size_t size)
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
	protocol_out_str(&out, "}");
	if (out.overflow)
		return 0;
	*out.at = '\0';
	return (size_t)(out.at - buf);
}

size_t protocol_write_board(const struct game *game, bool content, char *buf,
			    size_t size)
{
	return protocol_write_board_message(game, content, NULL, ROLE_NONE, buf,
					    size);
}

size_t protocol_write_undo(const struct game *game, struct cell cell,
			   enum role mover, char *buf, size_t size)
{
	return protocol_write_board_message(game, true, &cell, mover, buf,
					    size);
}

static bool protocol_encode_winner(cJSON *root, const struct event *ev)
{
	const struct game *game = ev->game;
	cJSON *line;
	int i;

	if (!game ||
	    !cJSON_AddStringToObject(root, "winner",
				     game_winner_name(game->winner)) ||
	    !cJSON_AddStringToObject(root, "reason",
				     game_reason_name(game->reason)))
		return false;
	if (game->reason != REASON_FIVE)
		return true;
	line = cJSON_AddArrayToObject(root, "line");
	if (!line)
		return false;
	for (i = 0; i < game->line.length; i++) {
		if (!protocol_add_cell(line, NULL, game->line.cells[i].x,
				       game->line.cells[i].y))
			return false;
	}
	return true;
}

/* The "type" of an encoded event; NULL for EVENT_REPLACED. */
static const char *protocol_event_type_name(enum event_type type)
{
	switch (type) {
	case EVENT_WELCOME:
		return "welcome";
	case EVENT_WAITING:
		return "waiting";
	case EVENT_ROLE:
		return "role";
	case EVENT_BOARD:
		return "board";
	case EVENT_WINNER:
		return "winner";
	case EVENT_DISCONNECT:
		return "disconnect";
	case EVENT_ERROR:
		return "error";
	case EVENT_PONG:
		return "pong";
	case EVENT_OPPONENT_AWAY:
		return "opponent_away";
	case EVENT_OPPONENT_BACK:
		return "opponent_back";
	case EVENT_OFFER:
		return "offer";
	case EVENT_ANSWER:
		return "answer";
	case EVENT_REPLACED:
	default:
		return NULL;
	}
}

/* Adds the fields of ev's type to root; false on out of memory. */
static bool protocol_encode_fields(cJSON *root, const struct event *ev)
{
	switch (ev->type) {
	case EVENT_WELCOME:
		return protocol_encode_welcome(root, ev);
	case EVENT_ROLE:
		return protocol_encode_role(root, ev);
	case EVENT_WINNER:
		return protocol_encode_winner(root, ev);
	case EVENT_DISCONNECT:
		return cJSON_AddStringToObject(root, "disconnect",
					       ev->text ? ev->text : "");
	case EVENT_ERROR:
		return cJSON_AddStringToObject(root, "code",
					       error_code_name(ev->code)) &&
		       cJSON_AddStringToObject(root, "message",
					       ev->text ? ev->text : "");
	case EVENT_OPPONENT_AWAY:
		return cJSON_AddNumberToObject(root, "seconds", ev->seconds);
	case EVENT_OFFER:
		return cJSON_AddStringToObject(root, "what", "takeback") &&
		       cJSON_AddStringToObject(root, "by", role_name(ev->by));
	case EVENT_ANSWER:
		return cJSON_AddStringToObject(root, "what", "takeback") &&
		       cJSON_AddBoolToObject(root, "accept", ev->accept) &&
		       cJSON_AddStringToObject(root, "by", role_name(ev->by));
	case EVENT_WAITING:
	case EVENT_PONG:
	case EVENT_OPPONENT_BACK:
		return true;
	default:
		return false;
	}
}

char *protocol_encode(const struct event *ev, size_t headroom, size_t *len)
{
	const char *type = protocol_event_type_name(ev->type);
	char *buffer = NULL;
	char *json;
	size_t json_len;
	cJSON *root;

	if (!type)
		return NULL;
	if (ev->type == EVENT_BOARD) {
		size_t cap = PROTOCOL_BOARD_TEXT_MAX(ev->game->board.size);

		buffer = malloc(headroom + cap);
		if (buffer) {
			*len = ev->undo ? protocol_write_undo(ev->game,
							      ev->undo_cell,
							      ev->undo_role,
							      buffer + headroom,
							      cap) :
					  protocol_write_board(
						  ev->game, !ev->compact,
						  buffer + headroom, cap);
			if (!*len) {
				free(buffer);
				buffer = NULL;
			}
		}
		return buffer;
	}
	root = cJSON_CreateObject();
	if (!root)
		return NULL;
	if (!cJSON_AddStringToObject(root, "type", type) ||
	    !protocol_encode_fields(root, ev))
		goto out_delete_root;

	json = cJSON_PrintUnformatted(root);
	if (!json)
		goto out_delete_root;
	json_len = strlen(json);
	buffer = malloc(headroom + json_len + 1);
	if (buffer) {
		memcpy(buffer + headroom, json, json_len + 1);
		*len = json_len;
	}
	cJSON_free(json);
out_delete_root:
	cJSON_Delete(root);
	return buffer;
}

/* The value of hex digit c, or -1. */
static int protocol_hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Whether position i of a canonical UUID holds a dash. */
static bool protocol_uuid_dash_at(int i)
{
	return i == 8 || i == 13 || i == 18 || i == 23;
}

bool protocol_check_uid(const char *uid, char out[UID_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	char canonical[UID_LEN + 1];
	int value;
	int i;

	if (!uid)
		return false;
	/* Stops at the NUL of a short uid: it is neither dash nor digit. */
	for (i = 0; i < UID_LEN; i++) {
		if (protocol_uuid_dash_at(i)) {
			if (uid[i] != '-')
				return false;
			canonical[i] = '-';
			continue;
		}
		value = protocol_hex_value(uid[i]);
		if (value < 0)
			return false;
		canonical[i] = digits[value];
	}
	if (uid[UID_LEN] != '\0')
		return false;
	canonical[UID_LEN] = '\0';
	memcpy(out, canonical, sizeof(canonical));
	return true;
}

void protocol_format_uuid(const uint8_t bytes[16], char out[UID_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	uint8_t uuid[16];
	int byte = 0;
	int i = 0;

	memcpy(uuid, bytes, sizeof(uuid));
	uuid[6] = (uint8_t)((uuid[6] & 0x0f) | 0x40); /* version 4 */
	uuid[8] = (uint8_t)((uuid[8] & 0x3f) | 0x80); /* RFC 4122 variant */
	while (i < UID_LEN) {
		if (protocol_uuid_dash_at(i)) {
			out[i++] = '-';
			continue;
		}
		out[i++] = digits[uuid[byte] >> 4];
		out[i++] = digits[uuid[byte] & 0x0f];
		byte++;
	}
	out[UID_LEN] = '\0';
}

/* C0 controls, DEL and C1 controls. */
static bool protocol_is_control(uint32_t code_point)
{
	return code_point < 0x20 || (code_point >= 0x7f && code_point <= 0x9f);
}

bool protocol_check_name(const char *name, char out[NAME_MAX_BYTES + 1])
{
	const unsigned char *start;
	const unsigned char *end;
	const unsigned char *s;
	uint32_t code_point;
	size_t length;
	int chars = 0;

	if (!name)
		return false;
	start = (const unsigned char *)name;
	while (*start == ' ')
		start++;
	end = start + strlen((const char *)start);
	while (end > start && end[-1] == ' ')
		end--;
	if (end == start)
		return false;

	for (s = start; s < end; s += length) {
		if (++chars > NAME_MAX_CHARS)
			return false;
		length = protocol_decode_utf8(s, end, &code_point);
		if (length == 0 || protocol_is_control(code_point))
			return false;
	}
	/* At most NAME_MAX_CHARS sequences of at most 4 bytes each. */
	memcpy(out, start, (size_t)(end - start));
	out[end - start] = '\0';
	return true;
}
