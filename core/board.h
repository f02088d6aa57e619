/*
 * board.h - the N x N Gomoku board and the rules that judge it.
 *
 * Pure game logic: no I/O, no allocation. A struct board is a plain value;
 * embed it and call board_init() before use. Cell (x, y) is column x, row y,
 * both 0-based from the top-left; its flat index is board_index(): y * size
 * + x.
 */
#ifndef GOMOKU_BOARD_H
#define GOMOKU_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#define BOARD_MIN_SIZE 5
#define BOARD_MAX_SIZE 25
#define BOARD_DEFAULT_SIZE 15
#define BOARD_MAX_CELLS (BOARD_MAX_SIZE * BOARD_MAX_SIZE)

/*
 * The longest run a single move can complete: four on each side of it plus
 * the new stone (a run of five or more anywhere else would have ended the
 * game before).
 */
#define BOARD_MAX_LINE 9

/* A side. Also the content of an occupied cell. */
enum role {
	ROLE_NONE = 0,	/* an empty cell; no side */
	ROLE_FRONT = 1, /* moves first, black */
	ROLE_BACK = 2,	/* moves second, white */
	ROLE_COUNT	/* entries of a table indexed by enum role */
};

/* How a five is judged. */
enum rule {
	RULE_FREESTYLE, /* five or more in a row wins */
	RULE_STANDARD,	/* exactly five wins; six or more does not */
	RULE_RENJU,	/* black: exactly five, and forbidden moves
			 * (renju.h); white: five or more */
	RULE_COUNT	/* entries of a table indexed by enum rule */
};

/* What a full board with no five means. */
enum full_board {
	FULL_BOARD_BACK, /* the second player wins */
	FULL_BOARD_DRAW, /* nobody wins */
};

/* One intersection. */
struct cell {
	int x; /* column, 0-based from the left */
	int y; /* row, 0-based from the top */
};

/* The flat index of cell (x, y) on a board of size: y * size + x. */
static inline int board_index(int size, int x, int y)
{
	return y * size + x;
}

/* The cell of a flat index on a board of size. */
static inline struct cell board_cell(int size, int index)
{
	return (struct cell){ .x = index % size, .y = index / size };
}

/* The winning run of stones through the last move. */
struct win_line {
	int length; /* cells in the run: 5, or more under freestyle */
	struct cell cells[BOARD_MAX_LINE]; /* in order along the line */
};

/* One of these per game: the stones on the board. */
struct board {
	int size;			/* N: columns = rows */
	int stones;			/* occupied cells */
	uint8_t cells[BOARD_MAX_CELLS]; /* enum role per cell, row-major */
};

/* 0, or -EINVAL when size is outside BOARD_MIN_SIZE..BOARD_MAX_SIZE. */
int board_init(struct board *board, int size);

/* True when (x, y) is on the board. */
bool board_in_range(const struct board *board, int x, int y);

/* The role at (x, y) (ROLE_NONE when empty); (x, y) must be in range. */
enum role board_get(const struct board *board, int x, int y);

/* Puts a stone on an empty in-range cell; the caller has checked both. */
void board_set(struct board *board, int x, int y, enum role role);

/* Empties an occupied in-range cell (for takebacks). */
void board_clear(struct board *board, int x, int y);

/* True when every cell is occupied. */
bool board_is_full(const struct board *board);

/*
 * Looks for a winning run through the stone at (x, y), in the four
 * directions through that cell only: O(1) per move, no board scan.
 * Under RULE_FREESTYLE a run of five or more wins; under RULE_STANDARD a
 * run of exactly five wins (an overline in one direction does not stop an
 * exact five in another); under RULE_RENJU black's run must be exactly
 * five and white's five or more. Fills *line (when not NULL) with the run and
 * returns true on a win.
 */
bool rules_find_five(const struct board *board, enum rule rule, int x, int y,
		     struct win_line *line);

/* The other side: front <-> back. */
enum role role_other(enum role role);

/* "front", "back" or "" for ROLE_NONE. */
const char *role_name(enum role role);

/* "freestyle", "standard" or "renju". */
const char *rule_name(enum rule rule);

/* The rule named name (rule_name()): true and *rule set, or false. */
bool rule_parse(const char *name, enum rule *rule);

#endif
