/*
 * renju.c - the forbidden moves of renju: judging one point for black,
 * and listing every forbidden point of a position (see renju.h).
 *
 * Black's stone is put on the point and each of the four lines through it
 * is read outward from it. Along one line, a stone can only join the run
 * of black stones through the point at the first cell past either end of
 * that run, so a line has at most two points that make a five with it (a
 * four; two of them five apart are one straight four) and at most two
 * that make a straight four (a three, when such a move is itself not
 * forbidden: the recursion). Each level of the recursion puts one more
 * stone on the board, so it ends.
 */
#include "renju.h"

#include <stddef.h>

/* What renju_at() reports off the board: blocks like a white stone. */
#define RENJU_WALL 3

/* The four directions a line can take: across, down and both diagonals. */
static const struct cell renju_directions[] = {
	{ 1, 0 },
	{ 0, 1 },
	{ 1, 1 },
	{ 1, -1 },
};

#define RENJU_DIRECTIONS \
	(int)(sizeof(renju_directions) / sizeof(renju_directions[0]))

/* The stone at (x, y), or RENJU_WALL off the board. */
static int renju_at(const struct board *board, int x, int y)
{
	if (x < 0 || y < 0 || x >= board->size || y >= board->size)
		return RENJU_WALL;
	return board->cells[board_index(board->size, x, y)];
}

/* Black stones next to (x, y) stepping by (dx, dy), (x, y) not counted. */
static int renju_side(const struct board *board, int x, int y, int dx, int dy)
{
	int count = 0;

	while (renju_at(board, x + (count + 1) * dx, y + (count + 1) * dy) ==
	       ROLE_FRONT)
		count++;
	return count;
}

/* The run of black through (x, y) along d, as if (x, y) were black. */
static int renju_run(const struct board *board, int x, int y, struct cell d)
{
	return 1 + renju_side(board, x, y, d.x, d.y) +
	       renju_side(board, x, y, -d.x, -d.y);
}

/* Whether black on the empty (x, y) makes an exact five along d. */
static bool renju_five_point(const struct board *board, int x, int y,
			     struct cell d)
{
	return renju_at(board, x, y) == ROLE_NONE &&
	       renju_run(board, x, y, d) == 5;
}

/*
 * The cell past the end of the run of black through (x, y) stepping by
 * sign * d: where a stone would join that run.
 */
static struct cell renju_past_end(const struct board *board, int x, int y,
				  struct cell d, int sign)
{
	int n = renju_side(board, x, y, sign * d.x, sign * d.y) + 1;

	return (struct cell){ x + sign * n * d.x, y + sign * n * d.y };
}

/*
 * The fours black's stone at (x, y) is part of along d: 0, 1 or 2 (two
 * fours in one line, such as X X X . X . X X X through the middle).
 */
static int renju_fours(const struct board *board, int x, int y, struct cell d)
{
	struct cell ends[2] = { renju_past_end(board, x, y, d, -1),
				renju_past_end(board, x, y, d, 1) };
	bool five[2];

	for (int i = 0; i < 2; i++)
		five[i] = renju_five_point(board, ends[i].x, ends[i].y, d);
	if (five[0] && five[1] && renju_run(board, x, y, d) == 4)
		return 1; /* a straight four: both ends of one run */
	return five[0] + five[1];
}

/*
 * Whether the run of black through (x, y) along d is a straight four: four
 * in a row whose both ends make an exact five.
 */
static bool renju_straight_four(const struct board *board, int x, int y,
				struct cell d)
{
	struct cell before = renju_past_end(board, x, y, d, -1);
	struct cell after = renju_past_end(board, x, y, d, 1);

	return renju_run(board, x, y, d) == 4 &&
	       renju_five_point(board, before.x, before.y, d) &&
	       renju_five_point(board, after.x, after.y, d);
}

/*
 * The points where a black stone would turn the run through (x, y) along
 * d into a straight four (at most the two ends of the run): written to
 * out, counted. With such a point the line is a three, if the stone there
 * is not forbidden itself (renju_real_three()).
 */
static int renju_three_points(struct board *board, int x, int y, struct cell d,
			      struct cell out[2])
{
	int count = 0;

	for (int sign = -1; sign <= 1; sign += 2) {
		struct cell q = renju_past_end(board, x, y, d, sign);
		bool straight;

		if (renju_at(board, q.x, q.y) != ROLE_NONE)
			continue;
		board_set(board, q.x, q.y, ROLE_FRONT);
		straight = renju_straight_four(board, x, y, d);
		board_clear(board, q.x, q.y);
		if (straight)
			out[count++] = q;
	}
	return count;
}

static enum renju_verdict renju_judge_mutable(struct board *board, int x,
					      int y);

/* Whether one of a line's three points is not forbidden: a real three. */
static bool renju_real_three(struct board *board, const struct cell *points,
			     int count)
{
	for (int i = 0; i < count; i++) {
		if (!renju_forbids(renju_judge_mutable(board, points[i].x,
						       points[i].y)))
			return true;
	}
	return false;
}

/*
 * Whether black's stone at (x, y) (on the board) makes two threes: only
 * when two lines or more have three points is any of them judged (the
 * recursion), and only until two are real.
 */
static bool renju_double_three(struct board *board, int x, int y)
{
	struct cell points[RENJU_DIRECTIONS][2];
	int counts[RENJU_DIRECTIONS], lines = 0, threes = 0;

	for (int i = 0; i < RENJU_DIRECTIONS; i++) {
		struct cell d = renju_directions[i];

		counts[i] =
			renju_fours(board, x, y, d) ?
				0 :
				renju_three_points(board, x, y, d, points[i]);
		lines += counts[i] > 0;
	}
	for (int i = 0; i < RENJU_DIRECTIONS && lines >= 2 && threes < 2; i++) {
		if (!counts[i])
			continue;
		if (renju_real_three(board, points[i], counts[i]))
			threes++;
		else
			lines--;
	}
	return threes >= 2;
}

/* renju_judge() on a board it may change and restores. */
static enum renju_verdict renju_judge_mutable(struct board *board, int x, int y)
{
	enum renju_verdict verdict = RENJU_ALLOWED;
	int fours = 0;
	int runs[RENJU_DIRECTIONS];

	for (int i = 0; i < RENJU_DIRECTIONS; i++) {
		runs[i] = renju_run(board, x, y, renju_directions[i]);
		if (runs[i] == 5)
			return RENJU_FIVE;
	}
	for (int i = 0; i < RENJU_DIRECTIONS; i++) {
		if (runs[i] > 5)
			return RENJU_OVERLINE;
	}
	board_set(board, x, y, ROLE_FRONT);
	for (int i = 0; i < RENJU_DIRECTIONS && fours < 2; i++)
		fours += renju_fours(board, x, y, renju_directions[i]);
	if (fours >= 2)
		verdict = RENJU_DOUBLE_FOUR;
	else if (renju_double_three(board, x, y))
		verdict = RENJU_DOUBLE_THREE;
	board_clear(board, x, y);
	return verdict;
}

enum renju_verdict renju_judge_in_place(struct board *board, int x, int y)
{
	if (!board_in_range(board, x, y) || board_get(board, x, y) != ROLE_NONE)
		return RENJU_ALLOWED;
	return renju_judge_mutable(board, x, y);
}

enum renju_verdict renju_judge(const struct board *board, int x, int y)
{
	struct board copy = *board;

	return renju_judge_in_place(&copy, x, y);
}

/*
 * Whether a black stone lies within four cells of (x, y) on one of its
 * lines: a point without one cannot be forbidden.
 */
static bool renju_near_black(const struct board *board, int x, int y)
{
	for (int i = 0; i < RENJU_DIRECTIONS; i++) {
		struct cell d = renju_directions[i];

		for (int k = 1; k <= 4; k++) {
			if (renju_at(board, x + k * d.x, y + k * d.y) ==
				    ROLE_FRONT ||
			    renju_at(board, x - k * d.x, y - k * d.y) ==
				    ROLE_FRONT)
				return true;
		}
	}
	return false;
}

int renju_forbidden(const struct board *board, struct cell *out, int max)
{
	struct board copy = *board;
	int count = 0;

	for (int y = 0; y < board->size; y++) {
		for (int x = 0; x < board->size; x++) {
			if (renju_at(&copy, x, y) != ROLE_NONE ||
			    !renju_near_black(&copy, x, y) ||
			    !renju_forbids(renju_judge_mutable(&copy, x, y)))
				continue;
			if (count < max)
				out[count] = (struct cell){ x, y };
			count++;
		}
	}
	return count;
}

const char *renju_verdict_name(enum renju_verdict verdict)
{
	static const char *const names[RENJU_VERDICT_COUNT] = {
		[RENJU_ALLOWED] = "allowed",
		[RENJU_FIVE] = "five",
		[RENJU_OVERLINE] = "overline",
		[RENJU_DOUBLE_FOUR] = "double_four",
		[RENJU_DOUBLE_THREE] = "double_three",
	};

	return (unsigned)verdict < RENJU_VERDICT_COUNT ? names[verdict] : "";
}
