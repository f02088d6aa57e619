/*
 * renju_reference.h - a second, slow judge of renju's forbidden moves,
 * written apart from core/renju.c for the tests to check it against
 * (test_renju.c, fuzz_renju.c).
 *
 * It answers the questions of renju.h with the same verdicts and the same
 * precedence (five, then overline, then double four, then double three),
 * reading every line as a string of cells and trying every empty cell of
 * it, with no shortcut. A three's extension is judged by calling the whole
 * reference judge again on the position with the stone placed.
 */
#ifndef GOMOKU_TEST_RENJU_REFERENCE_H
#define GOMOKU_TEST_RENJU_REFERENCE_H

#include "renju.h"

/*
 * The verdict on black playing (x, y) of board, as renju_judge(): an
 * occupied or out-of-range cell is RENJU_ALLOWED.
 */
enum renju_verdict renju_reference_judge(const struct board *board, int x,
					 int y);

/*
 * The empty cells forbidden to black, row-major, as renju_forbidden():
 * writes at most max of them to out and returns how many there are.
 */
int renju_reference_forbidden(const struct board *board, struct cell *out,
			      int max);

#endif
