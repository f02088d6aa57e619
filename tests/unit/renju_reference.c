/*
 * renju_reference.c - the tests' slow judge of renju's forbidden moves
 * (see renju_reference.h), written from the rules, not from core/renju.c.
 *
 * Each of the four lines through the point is copied into a string of
 * cells reaching five cells either side of it, with the point itself black.
 * On that string:
 *
 *   - the run through the point is a five (exactly 5) or an overline (6+);
 *   - a five point is an empty cell that, made black, gives exactly five in
 *     a row through the point; the line holds one four per five point,
 *     except that the two ends of a straight four (_XXXX_, five points 5
 *     cells apart) are one four;
 *   - the line holds a three when some empty cell, made black, turns it
 *     into a straight four and black may play that cell: the whole judge
 *     is asked again, on a copy of the board with the point placed.
 *
 * Five cells either side are enough: a run through the point that reaches
 * the string's end is six long already, an overline whatever lies beyond.
 * White stones and the board's edges both block.
 */
#include "renju_reference.h"

/* Cells of a line either side of the point. */
#define REACH 5
/* Cells in a line's string; the point is its middle one. */
#define LINE_CELLS (2 * REACH + 1)

/* What a cell of a line's string holds. */
enum spot {
	SPOT_EMPTY, /* black may play there */
	SPOT_BLACK, /* a black stone */
	SPOT_BLOCK, /* a white stone, or off the board */
};

/* The four lines through a point: across, down, and the two diagonals. */
static const struct cell directions[4] = {
	{ 1, 0 },
	{ 0, 1 },
	{ 1, 1 },
	{ 1, -1 },
};

/*
 * Copies the line through (x, y) along step into spots, spots[REACH]
 * being (x, y) itself, made black.
 */
static void line_read(const struct board *board, int x, int y, struct cell step,
		      enum spot spots[LINE_CELLS])
{
	int i;

	for (i = 0; i < LINE_CELLS; i++) {
		int cx = x + (i - REACH) * step.x;
		int cy = y + (i - REACH) * step.y;

		if (!board_in_range(board, cx, cy))
			spots[i] = SPOT_BLOCK;
		else if (board_get(board, cx, cy) == ROLE_NONE)
			spots[i] = SPOT_EMPTY;
		else if (board_get(board, cx, cy) == ROLE_FRONT)
			spots[i] = SPOT_BLACK;
		else
			spots[i] = SPOT_BLOCK;
	}
	spots[REACH] = SPOT_BLACK;
}

/* The length of the unbroken run of black cells through spots[i]. */
static int run_through(const enum spot spots[LINE_CELLS], int i)
{
	int length = 0;
	int j;

	if (spots[i] != SPOT_BLACK)
		return 0;
	for (j = i; j >= 0 && spots[j] == SPOT_BLACK; j--)
		length++;
	for (j = i + 1; j < LINE_CELLS && spots[j] == SPOT_BLACK; j++)
		length++;
	return length;
}

/*
 * True when spots[i] is empty and black there would make exactly five in
 * a row that passes through the point (spots[REACH]).
 */
static bool is_five_point(enum spot spots[LINE_CELLS], int i)
{
	bool five;
	int low = i < REACH ? i : REACH;
	int high = i < REACH ? REACH : i;
	int j;

	if (spots[i] != SPOT_EMPTY)
		return false;
	spots[i] = SPOT_BLACK;
	five = run_through(spots, i) == 5;
	for (j = low; j <= high; j++) {
		if (spots[j] != SPOT_BLACK)
			five = false;
	}
	spots[i] = SPOT_EMPTY;
	return five;
}

/*
 * The five points of the line, written to points (two at most can exist;
 * room for the whole string is given anyway); returns how many.
 */
static int five_points(enum spot spots[LINE_CELLS], int points[LINE_CELLS])
{
	int count = 0;
	int i;

	for (i = 0; i < LINE_CELLS; i++) {
		if (is_five_point(spots, i))
			points[count++] = i;
	}
	return count;
}

/*
 * The fours of the line through the point: one per five point, but a
 * straight four's two ends (5 cells apart, the four stones between them)
 * are one four.
 */
static int fours_in_line(enum spot spots[LINE_CELLS])
{
	int points[LINE_CELLS];
	int count = five_points(spots, points);

	if (count == 2 && points[1] - points[0] == 5)
		return 1;
	return count;
}

/* True when the line through the point is a straight four (_XXXX_). */
static bool is_straight_four(enum spot spots[LINE_CELLS])
{
	int points[LINE_CELLS];
	int count = five_points(spots, points);

	return count == 2 && points[1] - points[0] == 5;
}

/*
 * True when the line through (x, y) along step, which holds no four, is a
 * three: some empty cell of it makes a straight four and black may play
 * that cell once (x, y) is black. board does not hold (x, y) yet.
 */
static bool three_in_line(const struct board *board, int x, int y,
			  struct cell step, enum spot spots[LINE_CELLS])
{
	struct board placed = *board;
	int i;

	board_set(&placed, x, y, ROLE_FRONT);
	for (i = 0; i < LINE_CELLS; i++) {
		bool straight;

		if (spots[i] != SPOT_EMPTY)
			continue;
		spots[i] = SPOT_BLACK;
		straight = is_straight_four(spots);
		spots[i] = SPOT_EMPTY;
		if (!straight)
			continue;
		if (!renju_forbids(renju_reference_judge(
			    &placed, x + (i - REACH) * step.x,
			    y + (i - REACH) * step.y)))
			return true;
	}
	return false;
}

enum renju_verdict renju_reference_judge(const struct board *board, int x,
					 int y)
{
	enum spot lines[4][LINE_CELLS];
	bool five = false;
	bool overline = false;
	int fours = 0;
	int threes = 0;
	int d;

	if (!board_in_range(board, x, y) || board_get(board, x, y) != ROLE_NONE)
		return RENJU_ALLOWED;

	for (d = 0; d < 4; d++) {
		int run;

		line_read(board, x, y, directions[d], lines[d]);
		run = run_through(lines[d], REACH);
		if (run == 5)
			five = true;
		else if (run >= 6)
			overline = true;
		else
			fours += fours_in_line(lines[d]);
	}
	if (five)
		return RENJU_FIVE;
	if (overline)
		return RENJU_OVERLINE;
	if (fours >= 2)
		return RENJU_DOUBLE_FOUR;

	for (d = 0; d < 4; d++) {
		if (fours_in_line(lines[d]) == 0 &&
		    three_in_line(board, x, y, directions[d], lines[d]))
			threes++;
	}
	if (threes >= 2)
		return RENJU_DOUBLE_THREE;
	return RENJU_ALLOWED;
}

int renju_reference_forbidden(const struct board *board, struct cell *out,
			      int max)
{
	int count = 0;
	int x;
	int y;

	for (y = 0; y < board->size; y++) {
		for (x = 0; x < board->size; x++) {
			if (board_get(board, x, y) != ROLE_NONE ||
			    !renju_forbids(renju_reference_judge(board, x, y)))
				continue;
			if (count < max)
				out[count] = (struct cell){ .x = x, .y = y };
			count++;
		}
	}
	return count;
}
