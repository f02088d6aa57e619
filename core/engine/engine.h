/*
 * engine.h - the computer opponent: picks a move for one side of a board.
 *
 * Pure logic like the rest of core/: no I/O, no clock and no randomness of
 * its own. Time comes in through struct engine_limits (a now() callback
 * and a deadline), randomness through its seed.
 *
 * Five levels, each beating the one below it in 65-85 % of their games
 * (tests/engine/bench.sh measures the ladder; ENGINE.md has the table):
 * - ENGINE_BEGINNER: the old one-ply heuristic's scores (see
 *   engine_easy_score()); a seeded choice among the cells within an
 *   eighth of the best. Takes a five and blocks a four.
 * - ENGINE_EASY: forced moves (win now, block a four), then a shallow
 *   alpha-beta search (depth 2) over the pattern evaluation; a seeded
 *   choice among the root moves near the best (not when won or lost).
 * - ENGINE_MEDIUM: forced moves; a search for a win by continuous fours
 *   (VCF) for the side to move and for the opponent, keeping only the
 *   moves that stop his; then a depth-3 search with a short VCF probe at
 *   the leaves; a seeded choice among the root moves near the best.
 * - ENGINE_HARD: as medium, then iterative-deepening PVS with a Zobrist
 *   transposition table, killer and history ordering, threat moves
 *   first, candidates within two cells of a stone, a short VCF probe at
 *   the leaves; 10 000 nodes.
 * - ENGINE_MASTER: the full engine: hard, plus wins by fours and open
 *   threes (VCT) for both sides, and 60 000 nodes.
 *
 * Determinism: the same board, side, rule, level, seed and node budget,
 * with no deadline, give the same move on engines of the same table size,
 * also on a reused struct engine (each call salts its transposition table
 * keys, so entries of earlier calls never match). With a deadline the
 * search stops once now() passes it and plays the best move of the
 * deepest finished iteration (or a better one the unfinished iteration
 * already proved).
 *
 * Threads: a struct engine is used by one thread at a time; distinct
 * engines share nothing mutable (the pattern and Zobrist tables are built
 * once, behind pthread_once, and only read afterwards). One engine may
 * search with helper threads of its own (engine_set_threads(): the moves
 * split between them, one shared transposition table), started and
 * joined within each engine_choose().
 */
#ifndef GOMOKU_ENGINE_H
#define GOMOKU_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"

/*
 * Scores are from the mover's view. Within ENGINE_SCORE_WIN_MARGIN of
 * ENGINE_SCORE_WIN: a forced win was found (the nearer, the sooner); as
 * near -ENGINE_SCORE_WIN: a forced loss.
 */
#define ENGINE_SCORE_WIN 1000000

#define ENGINE_SCORE_WIN_MARGIN 1000

/* Transposition table entries engine_new() allocates for 0. */
#define ENGINE_DEFAULT_TT_ENTRIES (1u << 18)

/*
 * Node budget of the searching levels when the caller gives none (a
 * deadline then only cuts it shorter).
 */
#define ENGINE_DEFAULT_NODES_EASY 20000u   /* depth 2 needs far fewer */
#define ENGINE_DEFAULT_NODES_MEDIUM 20000u /* depth 3 needs about 2000 */
#define ENGINE_DEFAULT_NODES_HARD 10000u   /* ~10 ms on one core */
#define ENGINE_DEFAULT_NODES_MASTER 60000u /* ~40 ms on one core */

/* Threads one engine may search with (engine_set_threads()). */
#define ENGINE_MAX_THREADS 16

/* max_nodes for no node budget at all: the deadline alone stops. */
#define ENGINE_NODES_UNLIMITED UINT64_MAX

/* How hard the computer plays, weakest first. */
enum engine_level {
	ENGINE_BEGINNER, /* the one-ply heuristic, near-best at random */
	ENGINE_EASY,	 /* a depth-2 search, near-best at random */
	ENGINE_MEDIUM,	 /* continuous fours and a depth-3 search */
	ENGINE_HARD,	 /* continuous fours and a deep search */
	ENGINE_MASTER,	 /* the full engine */
	ENGINE_LEVEL_COUNT
};

/*
 * How much work one engine_choose() may do. max_nodes 0 is the level's
 * default node budget (ENGINE_DEFAULT_NODES_*), a deadline or not: the
 * levels are calibrated at those budgets, and a deadline only cuts the
 * search shorter (ENGINE_NODES_UNLIMITED with a deadline: as deep as the
 * time allows). deadline_us 0 means no deadline. A NULL limits pointer
 * means all zero.
 */
struct engine_limits {
	uint64_t max_nodes;	       /* positions searched, 0: the level's */
	uint64_t (*now_us)(void *ctx); /* the caller's clock, microseconds */
	void *now_ctx;		       /* passed to now_us */
	uint64_t deadline_us;	       /* stop once now_us() >= this; 0: none */
	uint32_t seed;		       /* varies play among equal moves */
};

/* The chosen move and how it was found. */
struct engine_result {
	int x;		/* column of the move */
	int y;		/* row of the move */
	int score;	/* the mover's view; see ENGINE_SCORE_WIN */
	int depth;	/* deepest finished search iteration (0: none) */
	uint64_t nodes; /* positions visited, VCF included */
	bool forced;	/* win now, block a four, or start a VCF/VCT */
};

/*
 * What a move would make for a side, the strongest first. Used by the
 * evaluation, and exposed for tests and hints.
 */
enum engine_threat {
	ENGINE_THREAT_FIVE,	    /* wins: five (exactly five in standard) */
	ENGINE_THREAT_OPEN_FOUR,    /* two ways to five: open or double four */
	ENGINE_THREAT_FOUR_THREE,   /* a four and an open three */
	ENGINE_THREAT_FOUR,	    /* one way to five */
	ENGINE_THREAT_DOUBLE_THREE, /* two open threes */
	ENGINE_THREAT_OPEN_THREE,   /* one move from an open four */
	ENGINE_THREAT_THREE,	    /* one move from a four */
	ENGINE_THREAT_TWO,	    /* one move from a three */
	ENGINE_THREAT_NONE,	    /* less than that */
	ENGINE_THREAT_FORBIDDEN,    /* renju: black may not play here */
};

/* Opaque: one per thread that searches; holds the transposition table. */
struct engine;

/*
 * Allocates an engine whose transposition table holds tt_entries entries
 * (rounded down to a power of two, at least 1024; 0 means
 * ENGINE_DEFAULT_TT_ENTRIES, 16 bytes each). NULL when out of memory.
 * Free with engine_free().
 */
struct engine *engine_new(size_t tt_entries);

/* Frees an engine from engine_new(); NULL is a no-op. */
void engine_free(struct engine *engine);

/*
 * Lets engine_choose() search with threads threads (1..ENGINE_MAX_THREADS;
 * 1, the default, is the calling thread alone): helper threads searching
 * the same root on one shared transposition table, a thread putting off
 * the moves another is searching (simplified ABDADA), started and joined
 * within each call. The calling thread's budget and deadline stop
 * them all; nodes in the result are the calling thread's. With more than
 * one thread the moves are no longer the same from call to call, and
 * limits->now_us is called from every thread. 0, -EINVAL, or -ENOMEM
 * (then fewer threads than asked).
 */
int engine_set_threads(struct engine *engine, int threads);

/*
 * Chooses a move for to_move on board under rule. Fills *out and returns
 * 0; -EINVAL for a bad argument (board size, a cell that is not a role,
 * to_move not a side), -ENOSPC when the board is full (or, in renju,
 * every empty cell is forbidden to black). The board is not changed. On
 * an empty board the move is the centre. Under renju black never plays a
 * forbidden point (renju.h), and the search knows that white's four whose
 * block is forbidden to black wins, and that black's threats needing a
 * forbidden point are none.
 */
int engine_choose(struct engine *engine, const struct board *board,
		  enum role to_move, enum rule rule, enum engine_level level,
		  const struct engine_limits *limits,
		  struct engine_result *out);

/*
 * The easy level's score of the empty cell (x, y) for to_move: over every
 * five-cell window on the board through (x, y), in the four directions, a
 * window holding k >= 1 stones of one side and none of the other adds
 * 220/420/2100/20000 (k = 1..4) when they are to_move's, 200/400/2000/10000
 * when they are the opponent's. -1 for an occupied or off-board cell.
 */
int engine_easy_score(const struct board *board, enum role to_move, int x,
		      int y);

/*
 * What role's stone at the empty cell (x, y) would make under rule;
 * ENGINE_THREAT_FORBIDDEN where renju forbids it to black.
 * ENGINE_THREAT_NONE for an occupied or off-board cell.
 */
enum engine_threat engine_classify(const struct board *board, enum rule rule,
				   enum role role, int x, int y);

/*
 * The static evaluation of board with to_move to play, from to_move's
 * view: positive is good for to_move. No search.
 */
int engine_evaluate(const struct board *board, enum role to_move,
		    enum rule rule);

/*
 * Looks for a VCF (victory by continuous fours) for attacker, who is to
 * move: a line of fours, each forcing the one reply, ending in a five.
 * Visits at most max_nodes positions (0: 1000000). Returns the number of
 * attacker moves in the line found (the five included) and writes up to
 * max_moves of them, in order, to moves (the defender's forced replies
 * between them are not written); 0 when none was found; a negative code
 * for bad arguments.
 */
int engine_find_vcf(struct engine *engine, const struct board *board,
		    enum role attacker, enum rule rule, uint64_t max_nodes,
		    struct cell *moves, int max_moves);

/* "beginner", "easy", "medium", "hard" or "master"; "" for no level. */
const char *engine_level_name(enum engine_level level);

/* 0 and *level set for a name of engine_level_name(); -EINVAL otherwise. */
int engine_level_parse(const char *name, enum engine_level *level);

/* The name of a threat: "five", "open-four", … for tests and logs. */
const char *engine_threat_name(enum engine_threat threat);

#endif
