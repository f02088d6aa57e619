/*
 * protocol.c - the JSON wire protocol: the table of message types, client
 * messages parsed with cJSON (after the strict check of json_check.c and
 * the plain-move fast path of protocol_fast.c), server messages encoded.
 */
#include "protocol.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_check.h"

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
	[ERR_BAD_QUERY] = "bad_query",
	[ERR_TOO_LATE] = "too_late",
	[ERR_OPPONENT_GONE] = "opponent_gone",
	[ERR_BAD_EMOTE] = "bad_emote",
	[ERR_SPECTATOR] = "spectator",
	[ERR_NO_SUCH_ROOM] = "no_such_room",
	[ERR_TOO_MANY_SPECTATORS] = "too_many_spectators",
	[ERR_NO_SUCH_INVITE] = "no_such_invite",
	[ERR_FORBIDDEN] = "forbidden",
};

/* The protocol words of the offers, indexed by enum offer_what. */
static const char *const offer_what_names[OFFER_COUNT] = {
	[OFFER_TAKEBACK] = "takeback",
	[OFFER_DRAW] = "draw",
	[OFFER_REMATCH] = "rematch",
};

/* The protocol words of the emotes, indexed by enum emote. */
static const char *const emote_names[EMOTE_COUNT] = {
	[EMOTE_HELLO] = "hello", [EMOTE_HURRY] = "hurry",
	[EMOTE_NICE] = "nice",	 [EMOTE_WOW] = "wow",
	[EMOTE_OOPS] = "oops",	 [EMOTE_THANKS] = "thanks",
	[EMOTE_GG] = "gg",	 [EMOTE_SMUG] = "smug",
};

const char *offer_what_name(enum offer_what what)
{
	return (unsigned int)what < OFFER_COUNT ? offer_what_names[what] : "";
}

const char *emote_name(enum emote emote)
{
	return (unsigned int)emote < EMOTE_COUNT ? emote_names[emote] : "";
}

/*
 * The index of item's string in words (count entries); -1 when item is
 * not a string or not one of them.
 */
static int protocol_word_index(const cJSON *item, const char *const *words,
			       int count)
{
	if (!cJSON_IsString(item) || !item->valuestring)
		return -1;
	for (int i = 0; i < count; i++)
		if (!strcmp(item->valuestring, words[i]))
			return i;
	return -1;
}

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
	case MOVE_FORBIDDEN:
		return ERR_FORBIDDEN;
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

/*
 * The parsers of the message table: each reads the fields of its type
 * from root into *req (the type is set by the caller) and returns
 * ERR_NONE, or a code with *message set to why.
 */

/* {"type":"move","x":X,"y":Y}: two integral numbers. */
static enum error_code protocol_parse_move(const cJSON *root, int board_size,
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
	(void)board_size; /* the game judges the range */
	code = protocol_parse_coordinate(x, &req->x, message);
	if (code == ERR_NONE)
		code = protocol_parse_coordinate(y, &req->y, message);
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
	return ERR_NONE;
}

/* "what": takeback, draw or rematch. */
static enum error_code protocol_parse_what(const cJSON *root,
					   struct request *req,
					   const char **message)
{
	int what = protocol_word_index(
		cJSON_GetObjectItemCaseSensitive(root, "what"),
		offer_what_names, OFFER_COUNT);

	if (what < 0) {
		*message = "\"what\" must be \"takeback\", \"draw\" or "
			   "\"rematch\"";
		return ERR_BAD_OFFER;
	}
	req->what = (enum offer_what)what;
	return ERR_NONE;
}

/* {"type":"offer","what":W} */
static enum error_code protocol_parse_offer(const cJSON *root, int board_size,
					    struct request *req,
					    const char **message)
{
	(void)board_size;
	return protocol_parse_what(root, req, message);
}

/* {"type":"answer","what":W,"accept":B} */
static enum error_code protocol_parse_answer(const cJSON *root, int board_size,
					     struct request *req,
					     const char **message)
{
	const cJSON *accept = cJSON_GetObjectItemCaseSensitive(root, "accept");
	enum error_code code = protocol_parse_what(root, req, message);

	(void)board_size;
	if (code != ERR_NONE)
		return code;
	if (!cJSON_IsBool(accept)) {
		*message = "an answer needs \"accept\": true or false";
		return ERR_BAD_OFFER;
	}
	req->accept = cJSON_IsTrue(accept);
	return ERR_NONE;
}

/* {"type":"emote","emote":E}: one word of the list, nothing else. */
static enum error_code protocol_parse_emote(const cJSON *root, int board_size,
					    struct request *req,
					    const char **message)
{
	int emote = protocol_word_index(
		cJSON_GetObjectItemCaseSensitive(root, "emote"), emote_names,
		EMOTE_COUNT);

	(void)board_size;
	if (emote < 0) {
		*message = "\"emote\" must be one of hello, hurry, nice, wow, "
			   "oops, thanks, gg, smug";
		return ERR_BAD_EMOTE;
	}
	req->emote = (enum emote)emote;
	return ERR_NONE;
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

/* Adds "tc":"BASE+INC" or "none"; false on OOM. */
static bool protocol_add_tc(cJSON *root, struct time_control tc)
{
	char text[TIME_CONTROL_TEXT_MAX];

	time_control_format(tc, text, sizeof(text));
	return cJSON_AddStringToObject(root, "tc", text);
}

/*
 * Adds the clocks of a timed game at now_ms ("clock", and "abort_in"
 * while the first-move deadline runs); nothing for an untimed one.
 */
static bool protocol_add_clock(cJSON *root, const struct game *game,
			       uint64_t now_ms, bool abort_in)
{
	cJSON *clock;
	int64_t in;

	if (!game || !time_control_timed(game->clock.tc))
		return true;
	clock = cJSON_AddObjectToObject(root, "clock");
	if (!clock ||
	    !cJSON_AddNumberToObject(clock, "front",
				     (double)fischer_left(&game->clock,
							  ROLE_FRONT,
							  game->to_move,
							  now_ms)) ||
	    !cJSON_AddNumberToObject(clock, "back",
				     (double)fischer_left(&game->clock,
							  ROLE_BACK,
							  game->to_move,
							  now_ms)))
		return false;
	in = abort_in ? protocol_abort_in(game, now_ms) : -1;
	return in < 0 || cJSON_AddNumberToObject(root, "abort_in", (double)in);
}

/* The protocol_encode_*() helpers add one event's fields; false on OOM. */
static bool protocol_encode_welcome(cJSON *root, const struct event *ev)
{
	/* A spectator has no uid: none is sent. */
	return (!ev->uid || cJSON_AddStringToObject(root, "uid", ev->uid)) &&
	       cJSON_AddNumberToObject(root, "protocol", PROTOCOL_VERSION) &&
	       cJSON_AddNumberToObject(root, "size", ev->size) &&
	       cJSON_AddStringToObject(root, "rule", rule_name(ev->rule)) &&
	       protocol_add_tc(root, ev->tc) &&
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
	    !cJSON_AddStringToObject(root, "rule", rule_name(ev->rule)) ||
	    !protocol_add_tc(root, ev->tc) ||
	    !protocol_add_clock(root, ev->game, ev->now_ms, true))
		return false;
	if (ev->ai_level) {
		opponent = cJSON_AddObjectToObject(root, "opponent");
		return opponent && cJSON_AddTrueToObject(opponent, "ai") &&
		       cJSON_AddStringToObject(opponent, "level", ev->ai_level);
	}
	if (!ev->opponent_name || !ev->opponent_name[0])
		return true;
	opponent = cJSON_AddObjectToObject(root, "opponent");
	return opponent &&
	       cJSON_AddStringToObject(opponent, "name", ev->opponent_name);
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
				     game_reason_name(game->reason)) ||
	    !protocol_add_clock(root, game, 0, false))
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

/* The other encoders of the message table: the fields of one event. */
static bool protocol_encode_disconnect(cJSON *root, const struct event *ev)
{
	return cJSON_AddStringToObject(root, "disconnect",
				       ev->text ? ev->text : "");
}

static bool protocol_encode_error(cJSON *root, const struct event *ev)
{
	return cJSON_AddStringToObject(root, "code",
				       error_code_name(ev->code)) &&
	       cJSON_AddStringToObject(root, "message",
				       ev->text ? ev->text : "");
}

/* "role" of the seat an away or back event is about, to a spectator. */
static bool protocol_add_seat(cJSON *root, const struct event *ev)
{
	return (ev->by != ROLE_FRONT && ev->by != ROLE_BACK) ||
	       cJSON_AddStringToObject(root, "role", role_name(ev->by));
}

static bool protocol_encode_away(cJSON *root, const struct event *ev)
{
	return cJSON_AddNumberToObject(root, "seconds", ev->seconds) &&
	       protocol_add_seat(root, ev);
}

static bool protocol_encode_back(cJSON *root, const struct event *ev)
{
	return protocol_add_seat(root, ev);
}

/* {"type":"spectate","room":ID,"size":N,"rule":R,"tc":T,"players":{…}} */
static bool protocol_encode_spectate(cJSON *root, const struct event *ev)
{
	static const enum role sides[] = { ROLE_FRONT, ROLE_BACK };
	cJSON *players;

	if (!cJSON_AddStringToObject(root, "room",
				     ev->room_id ? ev->room_id : "") ||
	    !cJSON_AddNumberToObject(root, "size", ev->size) ||
	    !cJSON_AddStringToObject(root, "rule", rule_name(ev->rule)) ||
	    !protocol_add_tc(root, ev->tc))
		return false;
	players = cJSON_AddObjectToObject(root, "players");
	if (!players)
		return false;
	for (size_t i = 0; i < sizeof(sides) / sizeof(*sides); i++) {
		const char *name = ev->names[sides[i]];
		cJSON *player =
			cJSON_AddObjectToObject(players, role_name(sides[i]));

		if (!player ||
		    (name && name[0] &&
		     !cJSON_AddStringToObject(player, "name", name)))
			return false;
	}
	return true;
}

static bool protocol_encode_spectators(cJSON *root, const struct event *ev)
{
	return cJSON_AddNumberToObject(root, "count", (double)ev->count);
}

static bool protocol_encode_invite(cJSON *root, const struct event *ev)
{
	return cJSON_AddStringToObject(root, "code",
				       ev->invite ? ev->invite : "");
}

static bool protocol_encode_offer(cJSON *root, const struct event *ev)
{
	return cJSON_AddStringToObject(root, "what",
				       offer_what_name(ev->what)) &&
	       cJSON_AddStringToObject(root, "by", role_name(ev->by));
}

static bool protocol_encode_emote(cJSON *root, const struct event *ev)
{
	return cJSON_AddStringToObject(root, "by", role_name(ev->by)) &&
	       cJSON_AddStringToObject(root, "emote", emote_name(ev->emote));
}

static bool protocol_encode_answer(cJSON *root, const struct event *ev)
{
	return cJSON_AddStringToObject(root, "what",
				       offer_what_name(ev->what)) &&
	       cJSON_AddBoolToObject(root, "accept", ev->accept) &&
	       cJSON_AddStringToObject(root, "by", role_name(ev->by));
}

/* A board event, written by hand (protocol_fast.c). */
static size_t protocol_write_board_event(const struct event *ev, char *buf,
					 size_t size)
{
	return ev->undo ? protocol_write_undo(ev->game, ev->undo_cell,
					      ev->undo_role, ev->now_ms, buf,
					      size) :
			  protocol_write_board(ev->game, !ev->compact,
					       ev->now_ms, buf, size);
}

#define NO_REQUEST -1 /* a type no client sends */
#define NO_EVENT -1   /* a type the server never sends */

/*
 * Every message type of the protocol, once: its "type" word, what a
 * client's message of that type becomes (the request and the parser of
 * its fields; NULL: it has none), and what the server's is made of (the
 * event and the encoder of its fields, or the writer of the whole text).
 * Adding a message type is one entry here and its functions; see
 * core/PROTOCOL.md for the fields.
 */
static const struct protocol_message {
	const char *name;
	int request; /* enum request_type, or NO_REQUEST */
	enum error_code (*parse)(const cJSON *root, int board_size,
				 struct request *req, const char **message);
	int event; /* enum event_type, or NO_EVENT */
	bool (*encode)(cJSON *root, const struct event *ev);
	size_t (*write)(const struct event *ev, char *buf, size_t size);
} protocol_messages[] = {
	/* client -> server (and back, for some) */
	{ "move", REQUEST_MOVE, protocol_parse_move, NO_EVENT, NULL, NULL },
	{ "board", REQUEST_BOARD, protocol_parse_board, EVENT_BOARD, NULL,
	  protocol_write_board_event },
	{ "winner", REQUEST_WINNER, NULL, EVENT_WINNER, protocol_encode_winner,
	  NULL },
	{ "ping", REQUEST_PING, NULL, NO_EVENT, NULL, NULL },
	{ "offer", REQUEST_OFFER, protocol_parse_offer, EVENT_OFFER,
	  protocol_encode_offer, NULL },
	{ "answer", REQUEST_ANSWER, protocol_parse_answer, EVENT_ANSWER,
	  protocol_encode_answer, NULL },
	{ "redo", REQUEST_REDO, NULL, NO_EVENT, NULL, NULL },
	{ "resign", REQUEST_RESIGN, NULL, NO_EVENT, NULL, NULL },
	{ "abort", REQUEST_ABORT, NULL, NO_EVENT, NULL, NULL },
	{ "emote", REQUEST_EMOTE, protocol_parse_emote, EVENT_EMOTE,
	  protocol_encode_emote, NULL },
	/* server -> client */
	{ "welcome", NO_REQUEST, NULL, EVENT_WELCOME, protocol_encode_welcome,
	  NULL },
	{ "waiting", NO_REQUEST, NULL, EVENT_WAITING, NULL, NULL },
	{ "role", NO_REQUEST, NULL, EVENT_ROLE, protocol_encode_role, NULL },
	{ "disconnect", NO_REQUEST, NULL, EVENT_DISCONNECT,
	  protocol_encode_disconnect, NULL },
	{ "error", NO_REQUEST, NULL, EVENT_ERROR, protocol_encode_error, NULL },
	{ "pong", NO_REQUEST, NULL, EVENT_PONG, NULL, NULL },
	{ "opponent_away", NO_REQUEST, NULL, EVENT_OPPONENT_AWAY,
	  protocol_encode_away, NULL },
	{ "opponent_back", NO_REQUEST, NULL, EVENT_OPPONENT_BACK,
	  protocol_encode_back, NULL },
	{ "spectate", NO_REQUEST, NULL, EVENT_SPECTATE, protocol_encode_spectate,
	  NULL },
	{ "spectators", NO_REQUEST, NULL, EVENT_SPECTATORS,
	  protocol_encode_spectators, NULL },
	{ "invite", NO_REQUEST, NULL, EVENT_INVITE, protocol_encode_invite,
	  NULL },
};

#define PROTOCOL_MESSAGES \
	(sizeof(protocol_messages) / sizeof(*protocol_messages))

/* The entry of a client message's type word; NULL when there is none. */
static const struct protocol_message *protocol_request_entry(const char *name)
{
	for (size_t i = 0; i < PROTOCOL_MESSAGES; i++)
		if (protocol_messages[i].request != NO_REQUEST &&
		    !strcmp(protocol_messages[i].name, name))
			return &protocol_messages[i];
	return NULL;
}

/* The entry of an event; NULL for one never sent (EVENT_REPLACED). */
static const struct protocol_message *protocol_event_entry(enum event_type type)
{
	for (size_t i = 0; i < PROTOCOL_MESSAGES; i++)
		if (protocol_messages[i].event == (int)type)
			return &protocol_messages[i];
	return NULL;
}

const char *protocol_request_name(enum request_type type)
{
	for (size_t i = 0; i < PROTOCOL_MESSAGES; i++)
		if (protocol_messages[i].request == (int)type)
			return protocol_messages[i].name;
	return NULL;
}

const char *protocol_event_name(enum event_type type)
{
	const struct protocol_message *entry = protocol_event_entry(type);

	return entry ? entry->name : NULL;
}

/* Reads a parsed JSON object through the table entry of its "type". */
static enum error_code protocol_parse_object(const cJSON *root, int board_size,
					     struct request *req,
					     const char **message)
{
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(root, "type");
	const struct protocol_message *entry;

	if (!cJSON_IsString(type) || !type->valuestring) {
		*message = "message needs a string \"type\"";
		return ERR_BAD_TYPE;
	}
	entry = protocol_request_entry(type->valuestring);
	if (!entry) {
		*message = "unknown message type";
		return ERR_BAD_TYPE;
	}
	req->type = (enum request_type)entry->request;
	return entry->parse ? entry->parse(root, board_size, req, message) :
			      ERR_NONE;
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
	*message = json_check_object(text, len);
	if (*message)
		return ERR_BAD_JSON;
	*message = "";
	if (protocol_read_plain_move(text, len, req))
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

char *protocol_encode(const struct event *ev, size_t headroom, size_t *len)
{
	const struct protocol_message *entry = protocol_event_entry(ev->type);
	char *buffer = NULL;
	char *json;
	size_t json_len;
	cJSON *root;

	if (!entry)
		return NULL;
	if (entry->write) {
		size_t cap = protocol_board_text_max(ev->game, true);

		buffer = malloc(headroom + cap);
		if (buffer) {
			*len = entry->write(ev, buffer + headroom, cap);
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
	if (!cJSON_AddStringToObject(root, "type", entry->name) ||
	    (entry->encode && !entry->encode(root, ev)))
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
