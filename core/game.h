/*
 * game.h - the state machine of one room's game.
 *
 * Front moves first, then strictly alternating, until a five, a full
 * board, a forfeit, a resignation, a flag, an agreed draw or an abort
 * ends it. Pure logic: the clocks (core/fischer.h) are the game's, and the
 * room tells them when moves are accepted. A struct game owns the list of its
 * moves, sized to its board (a 15 x 15 game does not carry room for
 * 25 x 25): game_release() frees it, and a game is not copied by value.
 */
#ifndef GOMOKU_GAME_H
#define GOMOKU_GAME_H

#include "board.h"
#include "fischer.h"

/* The outcome of a move request; everything but MOVE_OK changes nothing. */
enum move_result {
	MOVE_OK = 0,
	MOVE_OUT_OF_RANGE,  /* (x, y) is not on the board */
	MOVE_OCCUPIED,	    /* the cell already holds a stone */
	MOVE_NOT_YOUR_TURN, /* the other side is to move */
	MOVE_GAME_OVER,	    /* the game has ended */
	MOVE_BAD_BOARD,	    /* a seed-form board is not exactly one new stone */
	MOVE_FORBIDDEN,	    /* renju: a point black may not play (renju.h) */
};

/* Why a game ended. */
enum game_reason {
	REASON_NONE = 0, /* still playing */
	REASON_FIVE,	 /* five in a row */
	REASON_FULL,	 /* full board */
	REASON_FORFEIT,	 /* a player left the live game */
	REASON_TIMEOUT,	 /* the loser's clock reached 0 */
	REASON_RESIGN,	 /* the loser resigned */
	REASON_AGREEMENT, /* a draw offered and accepted */
	REASON_ABORTED,	 /* ended before it began: no winner, not counted */
	REASON_COUNT	 /* entries of a table indexed by reason */
};

/* The winner of a finished game. */
enum game_winner {
	WINNER_NONE = 0, /* still playing */
	WINNER_FRONT,
	WINNER_BACK,
	WINNER_DRAW,
	WINNER_NOBODY, /* aborted: "none" */
};

/* One of these per room: the position and whose move it is. */
struct game {
	struct board board;	    /* the stones */
	enum rule rule;		    /* how fives are judged */
	enum full_board full_board; /* what a full board means */
	enum role to_move;	    /* side to move; ROLE_NONE once over */
	int moves_played;	    /* accepted moves so far */
	uint16_t *history; /* board_index() of each move in order, room
			    * for size * size; front played the even ones */
	struct cell last_move;		   /* valid when moves_played > 0 */
	enum role last_mover;		   /* who played last_move */
	enum game_winner winner;	   /* WINNER_NONE while playing */
	enum game_reason reason;	   /* REASON_NONE while playing */
	struct win_line line; /* the five, when reason is REASON_FIVE */
	struct fischer clock; /* untimed unless the room started it */
};

/*
 * 0, -EINVAL for a board size out of range, or -ENOMEM; on 0 the game
 * holds memory until game_release(). Front is to move.
 */
int game_init(struct game *game, int size, enum rule rule,
	      enum full_board full_board);

/* Frees what game_init() took; the game must be initialised again. */
void game_release(struct game *game);

/*
 * Makes copy an independent copy of game (its own list of moves): 0, or
 * -ENOMEM with copy untouched. Release both.
 */
int game_copy(struct game *copy, const struct game *game);

/* True once the game has a winner (or a draw). */
bool game_is_over(const struct game *game);

/*
 * Plays role's stone at (x, y). Checks, in this order: game over, turn,
 * range, occupied. On MOVE_OK the stone is placed, the turn passes, and the
 * game ends when the move makes a five or fills the board.
 */
enum move_result game_play(struct game *game, enum role role, int x, int y);

/*
 * Finds the single move a seed-form board (the whole position after the
 * move, one enum role per cell, size * size of them) contains for role.
 * Checks game over and turn first; then the board must differ from the
 * current position in exactly one cell: an empty cell now holding role's
 * stone. A stone drawn over an existing one is MOVE_OCCUPIED; anything
 * else (a stone removed, none or several new, the wrong colour) is
 * MOVE_BAD_BOARD. Sets *x, *y on MOVE_OK; changes nothing.
 */
enum move_result game_find_board_move(const struct game *game, enum role role,
				      const uint8_t *cells, int *x, int *y);

/*
 * Takes back the last move of a live game: its cell is emptied and its
 * mover is to move again. Fills *cell and *mover with what was removed.
 * False (nothing changed) when no move was played or the game is over.
 */
bool game_undo(struct game *game, struct cell *cell, enum role *mover);

/* Ends a live game: role loses by forfeit. No-op when already over. */
void game_forfeit(struct game *game, enum role loser);

/*
 * Ends a live game: loser loses for reason (REASON_FORFEIT,
 * REASON_RESIGN or REASON_TIMEOUT). No-op when already over.
 */
void game_lose(struct game *game, enum role loser, enum game_reason reason);

/*
 * Ends a live game with no loser: REASON_AGREEMENT is a draw,
 * REASON_ABORTED has no winner ("none"). No-op when already over.
 */
void game_halt(struct game *game, enum game_reason reason);

/* "ok", "out_of_range", "occupied", ...: for logs and test failures. */
const char *move_result_name(enum move_result result);

/* "front", "back", "draw", "none" (aborted) or "" while playing. */
const char *game_winner_name(enum game_winner winner);

/* "five", "full", "forfeit", "timeout", "resign", "agreement",
 * "aborted", or "" while playing. */
const char *game_reason_name(enum game_reason reason);

#endif
