/*
 * rules.c - judging a five through the stone just played.
 *
 * Only the four lines through the new stone can hold a new five, so the
 * check walks outward from that stone and never scans the board.
 */
#include "board.h"

#include <stddef.h>

/* The farthest a walk goes from the new stone in one direction. */
#define RULES_MAX_WALK (BOARD_MAX_LINE - 1)

/* The four directions a line can take: across, down and both diagonals. */
static const struct cell rules_directions[] = {
	{ 1, 0 },  /* horizontal, left to right */
	{ 0, 1 },  /* vertical, top to bottom */
	{ 1, 1 },  /* diagonal, top-left to bottom-right */
	{ 1, -1 }, /* anti-diagonal, bottom-left to top-right */
};

/*
 * Counts role's stones next to (x, y), not counting (x, y) itself, stepping
 * by (dx, dy), up to RULES_MAX_WALK of them.
 */
static int rules_count_run(const struct board *board, enum role role, int x,
			   int y, int dx, int dy)
{
	int count = 0;

	while (count < RULES_MAX_WALK) {
		x += dx;
		y += dy;
		if (!board_in_range(board, x, y) ||
		    board_get(board, x, y) != role)
			break;
		count++;
	}
	return count;
}

/* Whether a run of length stones of role wins under rule. */
static bool rules_run_wins(enum rule rule, enum role role, int length)
{
	if (rule == RULE_STANDARD || (rule == RULE_RENJU && role == ROLE_FRONT))
		return length == 5;
	return length >= 5;
}

/*
 * Writes the run through (x, y) to *line: before stones behind it, then
 * the stone, then after stones ahead, in order along (dx, dy).
 */
static void rules_fill_line(struct win_line *line, int x, int y, int dx, int dy,
			    int before, int after)
{
	int i;

	/*
	 * A run longer than BOARD_MAX_LINE cannot come from a game that stops
	 * at the first five; on a position set up by hand, report the part
	 * nearest the new stone.
	 */
	if (before + 1 + after > BOARD_MAX_LINE) {
		if (before > 4)
			before = 4;
		if (after > 4)
			after = 4;
	}
	line->length = before + 1 + after;
	for (i = 0; i < line->length; i++) {
		line->cells[i].x = x + (i - before) * dx;
		line->cells[i].y = y + (i - before) * dy;
	}
}

bool rules_find_five(const struct board *board, enum rule rule, int x, int y,
		     struct win_line *line)
{
	enum role role;
	size_t i;

	if (!board_in_range(board, x, y))
		return false;
	role = board_get(board, x, y);
	if (role == ROLE_NONE)
		return false;

	for (i = 0; i < sizeof(rules_directions) / sizeof(rules_directions[0]);
	     i++) {
		int dx = rules_directions[i].x;
		int dy = rules_directions[i].y;
		int before = rules_count_run(board, role, x, y, -dx, -dy);
		int after = rules_count_run(board, role, x, y, dx, dy);

		if (!rules_run_wins(rule, role, before + 1 + after))
			continue;
		if (line)
			rules_fill_line(line, x, y, dx, dy, before, after);
		return true;
	}
	return false;
}
