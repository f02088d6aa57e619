/*
 * protocol.h - the JSON wire protocol, version 2 (see core/PROTOCOL.md).
 *
 * Parsing turns one client text message into a typed, fully validated
 * struct request; encoding turns a struct event into the JSON text of one
 * server message. Every message type is described once, in the table of
 * protocol.c (its word, its request and parser, its event and encoder);
 * protocol_fast.c is the hot path by hand (a plain move read, a board
 * written), json_check.c the strict check before cJSON. Built on cJSON;
 * no I/O.
 */
#ifndef GOMOKU_PROTOCOL_H
#define GOMOKU_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "identity.h"

#define PROTOCOL_VERSION 2

/* The codes of an `error` message; every one but ERR_NONE is refusal. */
enum error_code {
	ERR_NONE = 0,
	ERR_BAD_JSON, /* not JSON, or fields of the wrong shape */
	ERR_BAD_TYPE, /* unknown or missing "type" */
	ERR_BAD_UID,
	ERR_BAD_NAME,
	ERR_NOT_IN_GAME, /* a move before being matched */
	ERR_NOT_YOUR_TURN,
	ERR_OUT_OF_RANGE,
	ERR_OCCUPIED,
	ERR_BAD_BOARD,
	ERR_GAME_OVER,
	ERR_TOO_LARGE,
	ERR_RATE_LIMITED,
	ERR_BAD_MODE,	     /* unknown mode or level query value */
	ERR_BAD_OFFER,	     /* an offer or answer of the wrong shape */
	ERR_NOTHING_TO_UNDO, /* no stone of the sender's to take back */
	ERR_NOTHING_TO_REDO, /* nothing taken back, or a move since */
	ERR_OFFER_PENDING,   /* one offer at a time per room */
	ERR_NO_OFFER,	     /* an answer with no offer to answer */
	ERR_TOO_SOON,	     /* a declined offer made again too soon */
	ERR_UNAVAILABLE,     /* the journal cannot save: the game waits */
	ERR_BAD_QUERY,	     /* a size, rule or tc query value refused */
	ERR_TOO_LATE,	     /* an abort once 2 moves were played */
	ERR_OPPONENT_GONE,   /* a rematch offered to a player who left */
	ERR_BAD_EMOTE,	     /* an emote not in the list */
	ERR_SPECTATOR,	     /* a spectator's game message */
	ERR_NO_SUCH_ROOM,    /* watch=ROOM of no open room */
	ERR_TOO_MANY_SPECTATORS, /* the room has --max-spectators */
	ERR_NO_SUCH_INVITE,  /* invite=CODE of no open invite */
	ERR_FORBIDDEN,	     /* renju: a point forbidden to black */
	ERR_COUNT	     /* number of codes, for counters */
};

/* "bad_json", "not_your_turn", ...; "" for ERR_NONE. */
const char *error_code_name(enum error_code code);

/* The error a refused move request gets. */
enum error_code error_from_move_result(enum move_result result);

/* What an offer (and its answer) is about. */
enum offer_what {
	OFFER_TAKEBACK,
	OFFER_DRAW,
	OFFER_REMATCH,
	OFFER_COUNT /* entries of a table indexed by offer */
};

/* "takeback", "draw", "rematch". */
const char *offer_what_name(enum offer_what what);

/* The emotes, in the order of the list in core/PROTOCOL.md. */
enum emote {
	EMOTE_HELLO,
	EMOTE_HURRY,
	EMOTE_NICE,
	EMOTE_WOW,
	EMOTE_OOPS,
	EMOTE_THANKS,
	EMOTE_GG,
	EMOTE_SMUG,
	EMOTE_COUNT
};

/* "hello", "hurry", ...; "" for none. */
const char *emote_name(enum emote emote);

/* What a client asks. */
enum request_type {
	REQUEST_MOVE,	/* place a stone at (x, y) */
	REQUEST_BOARD,	/* the seed form: the whole board after a move */
	REQUEST_WINNER, /* a client's claim of a win: ignored */
	REQUEST_PING,	/* answered with a pong */
	REQUEST_OFFER,	/* offers a takeback, a draw or a rematch */
	REQUEST_ANSWER, /* answers the opponent's offer */
	REQUEST_REDO,	/* plays again what a takeback removed (engine games) */
	REQUEST_RESIGN, /* gives the game up */
	REQUEST_ABORT,	/* calls off a game of fewer than 2 moves */
	REQUEST_EMOTE,	/* one word of the emote list to the opponent */
};

/* One parsed client message. */
struct request {
	enum request_type type;
	int x;				/* REQUEST_MOVE: column */
	int y;				/* REQUEST_MOVE: row */
	enum role role;			/* REQUEST_BOARD: the mover it names */
	bool accept;			/* REQUEST_ANSWER: yes or no */
	enum offer_what what;		/* REQUEST_OFFER, REQUEST_ANSWER */
	enum emote emote;		/* REQUEST_EMOTE */
	uint8_t cells[BOARD_MAX_CELLS]; /* REQUEST_BOARD: enum role per cell */
};

/*
 * Parses and validates one message of len bytes (not NUL-terminated) for a
 * board of board_size. Returns ERR_NONE and fills *req, or the error code
 * to send with *message set to a static human-readable explanation.
 * A move's x and y must be integral numbers; fractions, infinities and
 * values beyond int are ERR_OUT_OF_RANGE, whether they are on the board is
 * the game's to judge. A board's content must be exactly board_size^2
 * strings "", "front" or "back" and its role "front" or "back", else
 * ERR_BAD_BOARD.
 */
enum error_code protocol_parse(const char *text, size_t len, int board_size,
			       struct request *req, const char **message);

/*
 * The hot path of protocol_parse(): a move in its plain form,
 * {"type":"move","x":X,"y":Y} with the three keys in any order, white
 * space anywhere, and X and Y integers of at most 9 digits, read without
 * cJSON (no allocation) from text already found to be strict JSON.
 * Anything else (another key, a repeated one, an escape, a fraction, an
 * exponent) returns false and is left to cJSON, so both paths agree on
 * every message.
 */
bool protocol_read_plain_move(const char *text, size_t len,
			      struct request *req);

/* The "type" word of a request type; NULL for none. */
const char *protocol_request_name(enum request_type type);

/* What the server tells a client. */
enum event_type {
	EVENT_WELCOME,	     /* first message on every connection */
	EVENT_WAITING,	     /* queued for an opponent */
	EVENT_ROLE,	     /* matched, or resumed: your side and room */
	EVENT_BOARD,	     /* the position after a move */
	EVENT_WINNER,	     /* game over */
	EVENT_DISCONNECT,    /* the opponent left */
	EVENT_ERROR,	     /* a request was refused; nothing changed */
	EVENT_PONG,	     /* answer to a ping */
	EVENT_OPPONENT_AWAY, /* the opponent's connection dropped; the seat
			      * is kept for `seconds` */
	EVENT_OPPONENT_BACK, /* the opponent is back */
	EVENT_REPLACED,	     /* a newer connection took this seat: close
				 * 4001; never encoded */
	EVENT_OFFER,	     /* `what` was offered, by `by` */
	EVENT_ANSWER,	     /* an offer was answered, by `by` */
	EVENT_EMOTE,	     /* the opponent (`by`) sent an emote */
	EVENT_SPECTATE,	     /* to a spectator: the room it watches */
	EVENT_SPECTATORS,    /* to players: how many watch (`count`) */
	EVENT_INVITE,	     /* to an invite's creator: its `code` */
};

/* One server message; which fields count depends on type. */
struct event {
	enum event_type type;
	const char *uid;	   /* WELCOME: the receiver's own uid */
	const char *version;	   /* WELCOME: server version string */
	int size;		   /* WELCOME, ROLE: board size */
	enum rule rule;		   /* WELCOME, ROLE */
	struct time_control tc;	   /* WELCOME, ROLE */
	enum role role;		   /* ROLE: the receiver's side */
	const char *room_id;	   /* ROLE: the room's UUID */
	const char *opponent_name; /* ROLE: NULL or "" to omit opponent */
	const char *ai_level;	   /* ROLE: the engine's level when the
				    * opponent is the engine (then the
				    * opponent is {ai, level}), else NULL */
	const struct game *game;   /* ROLE (its clocks), BOARD, WINNER: the
				    * room's game */
	uint64_t now_ms;	   /* ROLE, BOARD: the lobby's time, for the
				    * clocks and abort_in */
	enum error_code code;	   /* ERROR */
	const char *text;	   /* ERROR message, DISCONNECT text */
	int seconds;		   /* OPPONENT_AWAY: how long the seat waits */
	const char *names[ROLE_COUNT]; /* SPECTATE: the players' names,
					* NULL or "" for none */
	unsigned long count;	   /* SPECTATORS */
	const char *invite;	   /* INVITE: the code */
	bool resume;		   /* BOARD: the whole position for a returning
				    * player: never compact */
	bool compact;		   /* BOARD: leave content out (set by the
				    * transport for updates=move clients) */
	bool undo;		   /* BOARD: a takeback removed undo_cell */
	struct cell undo_cell;	   /* BOARD with undo: the stone removed */
	enum role undo_role;	   /* BOARD with undo: whose stone it was */
	bool accept;		   /* ANSWER: the offer was accepted */
	enum offer_what what;	   /* OFFER, ANSWER */
	enum emote emote;	   /* EMOTE */
	enum role by; /* OFFER, ANSWER, EMOTE: who offered, answered, sent;
		       * OPPONENT_AWAY, OPPONENT_BACK to a spectator: whose
		       * seat (ROLE_NONE to a player: omitted) */
};

/*
 * Encodes ev as one JSON object. Returns a malloc'd buffer of
 * headroom + *len + 1 bytes holding the text (NUL-terminated) at
 * buffer + headroom, for a transport that needs space in front of the
 * payload; the caller frees it with free(). NULL on out of memory or for
 * EVENT_REPLACED.
 * A board message carries content (size^2 strings), role (the side to move
 * next), move ({x, y, role} of the last move, when there is one) and moves.
 */
char *protocol_encode(const struct event *ev, size_t headroom, size_t *len);

/* The "type" word of an event type; NULL for one never sent (REPLACED). */
const char *protocol_event_name(enum event_type type);

/*
 * The longest board message text for a board of size, content, clock and
 * all, but for a renju game's `forbidden` (PROTOCOL_FORBIDDEN_TEXT_MAX).
 */
#define PROTOCOL_BOARD_TEXT_MAX(size) ((size_t)(size) * (size_t)(size)*8 + 192)

/* ... without content (role, move, moves, clock, abort_in). */
#define PROTOCOL_COMPACT_BOARD_TEXT_MAX 256

/* The longest `forbidden` list of a board of size: {"x":X,"y":Y}, each. */
#define PROTOCOL_FORBIDDEN_TEXT_MAX(size) \
	((size_t)(size) * (size_t)(size)*16 + 16)

/*
 * The longest board message text for game, with content or without
 * (compact): what protocol_write_board() and protocol_write_undo() need.
 */
size_t protocol_board_text_max(const struct game *game, bool content);

/*
 * Writes the board message of game into buf (size bytes, NUL-terminated)
 * by hand: the hot path of the server, with no allocation. With content
 * false the message leaves out `content` (the compact form that clients
 * asking for updates=move get). A timed game's board carries `clock` as
 * it stands at now_ms, and `abort_in` while fewer than 2 moves were
 * played; a renju game's, while black is to move, `forbidden` (the points
 * renju_forbidden() lists). Returns the text length, 0 when it does not
 * fit.
 */
size_t protocol_write_board(const struct game *game, bool content,
			    uint64_t now_ms, char *buf, size_t size);

/*
 * Writes the board message of a takeback: content always, and `undo`
 * ({x, y, role} of the stone removed) instead of `move`.
 */
size_t protocol_write_undo(const struct game *game, struct cell cell,
			   enum role mover, uint64_t now_ms, char *buf,
			   size_t size);

/*
 * The milliseconds before a timed game of fewer than 2 moves is aborted
 * for want of a first move, at now_ms; -1 when no such deadline runs.
 */
int64_t protocol_abort_in(const struct game *game, uint64_t now_ms);

#endif
