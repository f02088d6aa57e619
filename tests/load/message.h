/*
 * message.h - the fields of a server message the load generator needs.
 *
 * A small hand-written scanner of one JSON object, not a JSON parser: it
 * walks the top level in any field order, keeps `type`, `role`, `move`
 * (`x`, `y`, `role`), `moves`, `code`, `winner`, `room` and `size`, and
 * skips everything else (above all a board's `content`) without looking
 * inside it. It reads both the full board messages and the compact ones
 * (`updates=move`) alike. No allocation; the caller owns everything.
 */
#ifndef LOAD_MESSAGE_H
#define LOAD_MESSAGE_H

#include <stdbool.h>
#include <stddef.h>

/* The `type` of a server message. */
enum message_type {
	MESSAGE_OTHER = 0, /* a type this tool does not know */
	MESSAGE_WELCOME,
	MESSAGE_WAITING,
	MESSAGE_ROLE,
	MESSAGE_BOARD,
	MESSAGE_WINNER,
	MESSAGE_DISCONNECT,
	MESSAGE_ERROR,
	MESSAGE_PONG,
	MESSAGE_OPPONENT_AWAY,
	MESSAGE_OPPONENT_BACK,
	MESSAGE_SPECTATE, /* a spectator's room, players' names */
	MESSAGE_OFFER,	  /* an offer (the crowd's room: a rematch) */
};

/* A side, or what a `winner` names. */
enum side {
	SIDE_NONE = 0, /* absent or not understood */
	SIDE_FRONT,
	SIDE_BACK,
	SIDE_DRAW, /* only in `winner` */
};

#define MESSAGE_CODE_MAX 32 /* longest `code` kept, with its NUL */
#define MESSAGE_ROOM_MAX 48 /* longest `room` kept, with its NUL */

/* One scanned server message; absent fields keep the values noted. */
struct message {
	enum message_type type; /* MESSAGE_OTHER when absent */
	enum side role;		/* `role`: own side in `role`, the
				     * side to move next in `board` */
	bool has_move;		/* a `move` object was there */
	bool has_content;	/* a `content` field was there (full board) */
	int move_x;		/* its `x` */
	int move_y;		/* its `y` */
	enum side move_role;	/* its `role`: who played it */
	long moves;		/* `moves`; -1 when absent */
	int size;		/* `size`; 0 when absent */
	enum side winner;	/* `winner` */
	char code[MESSAGE_CODE_MAX]; /* `code` of an `error`; "" absent */
	char room[MESSAGE_ROOM_MAX]; /* `room` id; "" when absent */
};

/*
 * Scans the JSON object text[0..len) into msg. Returns 0, or -1 when the
 * text is not a well-formed object at the top level (msg then holds what
 * was read before the fault).
 */
int message_scan(struct message *msg, const char *text, size_t len);

/*
 * A spectator's check that it got every board of its room: the boards
 * missed between one numbered last (moves of the room after it; -1 when
 * none came yet) and the next, numbered moves. 0 when moves is last + 1;
 * a number that does not grow (a repeat, or a move taken back, which the
 * load generator's games never do) counts as one.
 */
long message_boards_missed(long last, long moves);

/* "front", "back", "draw" or "none". */
const char *side_name(enum side side);

#endif
