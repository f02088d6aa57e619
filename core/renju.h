/*
 * renju.h - the forbidden moves of renju (禁手): which points black may
 * not play.
 *
 * Pure game logic, as board.h. Black is ROLE_FRONT. Under the Renju
 * International Federation's rules black may not make an overline (six or
 * more in a row), a double four (two fours at once, in two lines or in
 * one) or a double three (two open threes at once), unless the same move
 * makes an exact five, which always wins. A three counts only if it can
 * become a straight four by a move that is itself not forbidden, checked
 * recursively. White (ROLE_BACK) has no forbidden moves, and wins with
 * five or more (rules_find_five() with RULE_RENJU).
 *
 * The judgement reads only the four lines through the point and, for a
 * three, the points that would make its straight four: no board scan.
 */
#ifndef GOMOKU_RENJU_H
#define GOMOKU_RENJU_H

#include <stdbool.h>

#include "board.h"

/* What black playing a point would be. */
enum renju_verdict {
	RENJU_ALLOWED,	    /* an ordinary move */
	RENJU_FIVE,	    /* an exact five: allowed, and it wins */
	RENJU_OVERLINE,	    /* forbidden: six or more in a row */
	RENJU_DOUBLE_FOUR,  /* forbidden: two fours or more at once */
	RENJU_DOUBLE_THREE, /* forbidden: two open threes or more at once */
	RENJU_VERDICT_COUNT /* entries of a table indexed by verdict */
};

/*
 * The verdict on black playing the empty, in-range cell (x, y) of board
 * (whatever stone is to move: the position is judged as it stands). An
 * occupied or out-of-range cell is RENJU_ALLOWED: callers check those
 * first, as they do for any move.
 */
enum renju_verdict renju_judge(const struct board *board, int x, int y);

/*
 * renju_judge() for callers that judge many points: the board is changed
 * while judging and restored before returning, so no copy is made.
 */
enum renju_verdict renju_judge_in_place(struct board *board, int x, int y);

/* True for the verdicts that forbid the move. */
static inline bool renju_forbids(enum renju_verdict verdict)
{
	return verdict == RENJU_OVERLINE || verdict == RENJU_DOUBLE_FOUR ||
	       verdict == RENJU_DOUBLE_THREE;
}

/*
 * Writes the empty cells forbidden to black, in row-major order (top row
 * first, left to right), to out (at most max of them) and returns how
 * many there are in all (which may exceed max).
 */
int renju_forbidden(const struct board *board, struct cell *out, int max);

/* "allowed", "five", "overline", "double_four" or "double_three". */
const char *renju_verdict_name(enum renju_verdict verdict);

#endif
