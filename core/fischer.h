/*
 * fischer.h - time controls ("300+5": five minutes each, five seconds
 * added after each own move) and the Fischer clocks of one game.
 *
 * Pure arithmetic: the time is passed in (milliseconds of any monotonic
 * clock), so that every test gives a time and checks the figures. A game
 * (core/game.h) owns its clocks; the room says when a move was accepted.
 */
#ifndef GOMOKU_FISCHER_H
#define GOMOKU_FISCHER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"

#define TIME_CONTROL_BASE_MIN_S 10    /* the shortest base time */
#define TIME_CONTROL_BASE_MAX_S 10800 /* the longest: three hours */
#define TIME_CONTROL_INC_MAX_S 180    /* the largest increment */
#define TIME_CONTROL_TEXT_MAX 16      /* "10800+180" and its NUL, with room */

/* A time control; base_ms 0 is none: the game is not timed. */
struct time_control {
	uint32_t base_ms; /* each side's time at the start */
	uint32_t inc_ms;  /* added to a side's time after each of its moves */
};

/*
 * Reads "none" or "BASE+INC" (whole seconds, no sign, no spaces, within
 * the limits above) into *tc. False, *tc untouched, for anything else.
 */
bool time_control_parse(const char *text, struct time_control *tc);

/* Writes "none" or "BASE+INC" into buf (TIME_CONTROL_TEXT_MAX bytes). */
void time_control_format(struct time_control tc, char *buf, size_t size);

/* True for a timed control. */
static inline bool time_control_timed(struct time_control tc)
{
	return tc.base_ms > 0;
}

/* True when a and b are the same control. */
static inline bool time_control_equal(struct time_control a,
				      struct time_control b)
{
	return a.base_ms == b.base_ms && a.inc_ms == b.inc_ms;
}

/*
 * The clocks of one game. No clock runs until both sides have moved once;
 * from then on the clock of the side to move runs from the moment the
 * previous move was accepted (turn_ms).
 */
struct fischer {
	struct time_control tc;
	int64_t left_ms[ROLE_COUNT]; /* by enum role: time left when the
				      * turn began (turn_ms) */
	uint64_t turn_ms;	     /* when the current turn began */
	uint32_t first_move_ms;	     /* timed: each side's first move must
				      * come this soon after its turn began,
				      * or the game is aborted */
	bool running;		     /* the side to move's clock runs */
};

/*
 * Both sides get the base time; nothing runs yet; turn_ms = now_ms, and
 * a timed game's first two moves must each come within first_move_ms.
 */
void fischer_start(struct fischer *clock, struct time_control tc,
		   uint32_t first_move_ms, uint64_t now_ms);

/*
 * role's time left at now_ms, when to_move is to move: never below 0.
 * Untimed: 0.
 */
int64_t fischer_left(const struct fischer *clock, enum role role,
		     enum role to_move, uint64_t now_ms);

/*
 * mover's move was accepted at now_ms, the moves_played-th of the game:
 * mover is charged the time of its turn (when running), gets the
 * increment, and the other side's turn begins; the clocks run from the
 * second move on. No-op untimed.
 */
void fischer_moved(struct fischer *clock, enum role mover, int moves_played,
		   uint64_t now_ms);

/*
 * The game ended at now_ms with to_move to move: its time is charged and
 * the clocks stop, holding the final figures.
 */
void fischer_stop(struct fischer *clock, enum role to_move, uint64_t now_ms);

/*
 * The turn of the side to move begins again at now_ms with the clocks as
 * they are (after a takeback, or when a saved game is seated again): no
 * time is charged for what went before. running follows moves_played.
 */
void fischer_restart(struct fischer *clock, int moves_played,
		     uint64_t now_ms);

/*
 * When to_move's flag falls: turn_ms plus its time left; UINT64_MAX when
 * no clock runs.
 */
uint64_t fischer_flag_at(const struct fischer *clock, enum role to_move);

/*
 * A timed game with fewer than 2 of its moves_played: when it is aborted
 * for want of the next first move. UINT64_MAX otherwise.
 */
uint64_t fischer_abort_at(const struct fischer *clock, int moves_played);

#endif
