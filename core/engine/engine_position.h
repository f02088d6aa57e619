/*
 * engine_position.h - the engine's own board: stones on a padded grid,
 * with the line patterns of every empty cell kept up to date move by move.
 *
 * Internal to the engine (engine.c, engine_vcf.c); not an API for the rest
 * of the server. A struct position is a plain value (about 570 KB, most
 * of it the undo stack): embed it, position_init() it, then
 * position_play() and position_undo() in strict stack order. A stone
 * saves the cells it changes and the totals; undo puts them back rather
 * than working them out again.
 *
 * For every empty cell and each side, four line patterns (one per
 * direction) say what a stone of that side there would make: a five, an
 * open four, a four, an open three, … (enum pattern). They come from a
 * table indexed by the ten cells around it on the line, built once per
 * rule. Combined over the four directions they give the cell's threat
 * (enum threat) and value; per side, the sum of the values over the empty
 * cells and the count of cells of each threat are kept as totals, so the
 * evaluation and the forced-move tests cost O(1); so are the first-layer
 * sums of the learnt evaluation (engine_net.h).
 *
 * Renju: a cell black may not play (renju.h) counts as no threat and no
 * value for black, and position_playable() says so. Black's line patterns
 * know an exact five, an overline and two fours in one line, so the four
 * patterns settle every verdict but a double three, whose threes are real
 * only if their extensions are not forbidden themselves: each stone judges
 * those cells on its four lines with renju_judge_in_place(), on a copy of
 * the stones kept beside the grid. A double three can also change through
 * a stone off its lines (one of its threes' extension becoming forbidden
 * or allowed): such a cell keeps its old verdict until a stone lands on
 * its lines, which only blurs the evaluation deep in a search. Undo puts
 * back exactly the verdicts its stone changed, so after
 * position_judge_all() (every verdict exact) the root stays exact through
 * any search below it.
 */
#ifndef GOMOKU_ENGINE_POSITION_H
#define GOMOKU_ENGINE_POSITION_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "engine_net.h"
#include "engine_patterns.h"

/* Wall cells around the board: a line reads five cells each way. */
#define POS_PAD 5
#define POS_STRIDE (BOARD_MAX_SIZE + 2 * POS_PAD)
#define POS_CELLS (POS_STRIDE * POS_STRIDE)

/*
 * Cells one stone can change: its own and the forty on its four lines;
 * times every stone, for the undo stack.
 */
#define POS_SAVES_MAX (BOARD_MAX_CELLS * 41)

/* The content of a grid cell: enum role values, and the wall. */
#define POS_EMPTY 0
#define POS_WALL 3

/*
 * What a cell's patterns make of it: all of it an empty cell needs saved
 * before a stone changes it (restoring beats recomputing). Indexed by
 * role - 1 where per side.
 */
struct position_worth {
	uint8_t pat[4];	     /* per direction: front | back << 4 */
	int16_t combined[2]; /* per side: the four patterns */
	int16_t value[2];    /* per side: the cell's worth */
	uint8_t threat[2];   /* per side: enum threat */
	uint8_t forbidden;   /* renju: black may not play */
	uint8_t unused;
};

/*
 * One grid cell's lines and worth, together: a stone's update of a cell
 * on its lines touches one or two cache lines, not one per array.
 */
struct position_cell {
	uint32_t code[4];	     /* per direction: the line code */
	struct position_worth worth; /* meaningful while empty */
};

/* An empty cell as it was before a stone changed it, for position_undo(). */
struct position_saved {
	int16_t idx; /* the grid cell */
	struct position_worth worth;
};

/* The totals before a stone, for position_undo(). */
struct position_totals {
	int32_t total[3];
	int16_t count[3][THREAT_COUNT];
	struct net_sums net[2][NET_VIEWS];
};

/*
 * One of these per search: the stones and their patterns. A cell's code
 * in direction dir holds the ten cells around it on that line, two bits
 * each; combined holds a side's four patterns as one base-PAT_COUNT
 * number.
 */
struct position {
	int size;		 /* board size N */
	enum rule rule;		 /* how fives are judged */
	const uint8_t *patterns; /* code -> front | back << 4 */
	const int16_t *values;	 /* combined -> worth */
	unsigned pattern_shift;	 /* index: code >> shift & mask */
	uint32_t pattern_mask;	 /* the table's size, minus one */
	int reach;		 /* cells each way the table reads */
	uint8_t cell[POS_CELLS]; /* POS_EMPTY, a role, POS_WALL */
	struct position_cell cells[POS_CELLS]; /* codes, patterns, worth */
	uint8_t near[POS_CELLS];	       /* stones within two cells */
	int32_t total[3];		   /* per role: value over empties */
	int16_t count[3][THREAT_COUNT];	   /* per role: empties per threat */
	/* per role - 1: the net's first-layer sums over the empties */
	struct net_sums net[2][NET_VIEWS];
	struct board board;		   /* renju: the stones, to judge */
	uint64_t key;			   /* Zobrist key of the stones */
	int stones;			   /* stones on the board */
	int min_x, max_x, min_y, max_y;	   /* bounding box of the stones */
	int16_t moves[BOARD_MAX_CELLS];	   /* played cells, for undo */
	int16_t boxes[BOARD_MAX_CELLS][4]; /* bounding box before each */
	/* the undo stack (position_init() leaves it as it is: no need) */
	struct position_totals totals[BOARD_MAX_CELLS]; /* before each stone */
	uint16_t saves_from[BOARD_MAX_CELLS]; /* per stone: save_count before */
	uint16_t save_count;		      /* entries in saves */
	struct position_saved saves[POS_SAVES_MAX]; /* cells each stone
						     * changed, as they were */
};

/* The grid step of each direction: across, down, and both diagonals. */
extern const int position_steps[4];

/*
 * Empties pos for a size x size board under rule (size already checked),
 * its values weighing the rule's pair bonuses when pairs says so. Builds
 * the shared tables on first use.
 */
void position_init(struct position *pos, int size, enum rule rule, bool pairs);

/* The grid index of board cell (x, y). */
static inline int position_index(int x, int y)
{
	return (y + POS_PAD) * POS_STRIDE + x + POS_PAD;
}

/* The board column and row of grid index idx. */
static inline int position_x(int idx)
{
	return idx % POS_STRIDE - POS_PAD;
}

static inline int position_y(int idx)
{
	return idx / POS_STRIDE - POS_PAD;
}

/* Puts role's stone on the empty grid cell idx. */
void position_play(struct position *pos, int idx, enum role role);

/* Takes back the last stone played. */
void position_undo(struct position *pos);

/* The table entry of a line code: both sides' patterns. */
static inline uint8_t position_lookup(const struct position *pos, uint32_t code)
{
	return pos->patterns[(code >> pos->pattern_shift) & pos->pattern_mask];
}

/* The pattern role would make at idx in direction dir. */
static inline enum pattern position_pattern(const struct position *pos, int idx,
					    int dir, enum role role)
{
	uint8_t both = pos->cells[idx].worth.pat[dir];

	return (enum pattern)(role == ROLE_FRONT ? both & 15 : both >> 4);
}

/*
 * Renju: judges every empty cell for black afresh (see the top of this
 * file). A no-op under the other rules.
 */
void position_judge_all(struct position *pos);

/* Whether role may play the empty cell idx (not if renju forbids it). */
static inline bool position_playable(const struct position *pos, int idx,
				     enum role role)
{
	return role != ROLE_FRONT || !pos->cells[idx].worth.forbidden;
}

/* role's threat at the empty cell idx (enum threat). */
static inline int position_threat(const struct position *pos, int idx,
				  enum role role)
{
	return pos->cells[idx].worth.threat[role - 1];
}

/* role's worth at the empty cell idx. */
static inline int position_value(const struct position *pos, int idx,
				 enum role role)
{
	return pos->cells[idx].worth.value[role - 1];
}

/*
 * Writes the empty cells within two of a stone (the search's candidates)
 * to cells, in board order; returns how many.
 */
int position_candidates(const struct position *pos, int16_t *cells);

/*
 * Writes up to max of the empty cells where role's threat is at least min
 * (any empty cell within two of a stone) to cells; returns how many.
 */
int position_find(const struct position *pos, enum role role, enum threat min,
		  int16_t *cells, int max);

/* The first empty cell where role makes a five, or -1. */
int position_find_five(const struct position *pos, enum role role);

/* Cells where role makes a four or better (B4 and up). */
static inline int position_fours(const struct position *pos, enum role role)
{
	const int16_t *count = pos->count[role];

	return count[THREAT_B4] + count[THREAT_43] + count[THREAT_F4] +
	       count[THREAT_F5];
}

/* The Zobrist key of role's stone at idx, and of the side to move. */
uint64_t position_zobrist(int idx, enum role role);

#endif
