/*
 * test_engine.c - the computer opponent: the easy heuristic's exact
 * scores, the pattern classification and evaluation, the VCF solver, and
 * what each level plays on hand-made positions (wins, blocks, defences,
 * the standard rule's overlines), determinism, budgets and board sizes.
 *
 * Positions are drawn as rows of text: 'X' is front, 'O' is back, '.' an
 * empty cell; row y of the drawing is row y of the board.
 *
 * One test file for the engine; over 600 lines because most of it is
 * positions drawn as text.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "engine.h"
#include "engine_fixture.h"
#include "expect.h"

/* Fails unless the move in result is (x, y), naming the level. */
#define expect_move(result, level, want_x, want_y)                        \
	do {                                                              \
		struct engine_result result_ = (result);                  \
		if (result_.x != (want_x) || result_.y != (want_y))       \
			fail_msg("%s played (%d, %d), expected (%d, %d)", \
				 engine_level_name(level), result_.x,     \
				 result_.y, (want_x), (want_y));          \
	} while (0)

static const enum engine_level all_levels[] = {
	ENGINE_BEGINNER, ENGINE_EASY, ENGINE_MEDIUM, ENGINE_HARD, ENGINE_MASTER,
};

/* ---- the easy heuristic ---- */

static void easy_scores_one_stone_by_the_four_windows_through_both(void **state)
{
	static const char *const rows[] = {
		"...............", /* 0 */
		"...............", /* 1 */
		"...............", /* 2 */
		"...............", /* 3 */
		"...............", /* 4 */
		"...............", /* 5 */
		"...............", /* 6 */
		".......X.......", /* 7 */
		NULL,
	};
	struct board board;

	(void)state;
	board_draw(&board, 15, rows);
	/* (8, 7): 4 of its 5 row windows hold the X, the fifth is empty. */
	expect_int(engine_easy_score(&board, ROLE_BACK, 8, 7), 4 * 200);
	expect_int(engine_easy_score(&board, ROLE_FRONT, 8, 7), 4 * 220);
	/* (8, 8): the same on the diagonal. */
	expect_int(engine_easy_score(&board, ROLE_BACK, 8, 8), 4 * 200);
	/* (9, 7): 3 windows; (12, 7): none reach the X. */
	expect_int(engine_easy_score(&board, ROLE_BACK, 9, 7), 3 * 200);
	expect_int(engine_easy_score(&board, ROLE_BACK, 12, 7), 0);
	/* occupied */
	expect_int(engine_easy_score(&board, ROLE_BACK, 7, 7), -1);
}

static void easy_scores_a_three_with_the_own_weights(void **state)
{
	static const char *const rows[] = {
		"...............", /* 0 */
		"...............", /* 1 */
		"...............", /* 2 */
		"...............", /* 3 */
		"...............", /* 4 */
		"...............", /* 5 */
		"...............", /* 6 */
		".....XXX.......", /* 7 */
		NULL,
	};
	struct board board;

	(void)state;
	board_draw(&board, 15, rows);
	/*
	 * (8, 7), row windows starting at x = 4..8 hold 3, 3, 2, 1, 0 X:
	 * 2100 + 2100 + 420 + 220 for front, 2000 + 2000 + 400 + 200 for back.
	 */
	expect_int(engine_easy_score(&board, ROLE_FRONT, 8, 7),
		   2100 + 2100 + 420 + 220);
	expect_int(engine_easy_score(&board, ROLE_BACK, 8, 7),
		   2000 + 2000 + 400 + 200);
}

static void easy_ignores_windows_holding_both_sides(void **state)
{
	static const char *const rows[] = {
		"...............", /* 0 */
		"...............", /* 1 */
		"...............", /* 2 */
		"...............", /* 3 */
		"...............", /* 4 */
		"...............", /* 5 */
		"...............", /* 6 */
		".......X.O.....", /* 7 */
		NULL,
	};
	struct board board;

	(void)state;
	board_draw(&board, 15, rows);
	/*
	 * (8, 7): windows from x = 4..8; 4 holds only the X (220), 5, 6 and 7
	 * hold both (0), 8 holds only the O (200).
	 */
	expect_int(engine_easy_score(&board, ROLE_FRONT, 8, 7), 220 + 200);
}

static void easy_counts_only_windows_inside_the_board(void **state)
{
	static const char *const rows[] = {
		".X...", /* 0 */
		NULL,
	};
	struct board board;

	(void)state;
	board_draw(&board, 5, rows);
	/* corner (0, 0): one row window, holding the X */
	expect_int(engine_easy_score(&board, ROLE_BACK, 0, 0), 200);
	/* (0, 1): the diagonal window (0,1)..(4,5) leaves a 5 x 5 board */
	expect_int(engine_easy_score(&board, ROLE_BACK, 0, 1), 0);
}

/* The move of level for role on board under seed (no other limit). */
static struct engine_result choose_seeded(const struct board *board,
					  enum role role,
					  enum engine_level level,
					  uint32_t seed)
{
	struct engine_limits limits = { .max_nodes = 20000, .seed = seed };
	struct engine_result result;
	struct engine *engine = engine_new(1 << 16);

	assert_non_null(engine);
	expect_int(engine_choose(engine, board, role, RULE_FREESTYLE, level,
				 &limits, &result),
		   0);
	engine_free(engine);
	return result;
}

/* Counts the distinct moves of level over seeds 1..SEEDS on board. */
#define SEEDS 24
static int distinct_moves(const struct board *board, enum role role,
			  enum engine_level level)
{
	bool seen[BOARD_MAX_CELLS] = { false };
	int distinct = 0;
	uint32_t seed;

	for (seed = 1; seed <= SEEDS; seed++) {
		struct engine_result result =
			choose_seeded(board, role, level, seed);
		int index = board_index(board->size, result.x, result.y);

		distinct += !seen[index];
		seen[index] = true;
	}
	return distinct;
}

/*
 * An opening where the easy score has one best cell and three within an
 * eighth of it: the old choice (the best, ties broken by the seed) played
 * one move here whatever the seed, and so did medium.
 */
static const char *const quiet_rows[] = {
	"...............", /* 0 */
	"...............", /* 1 */
	"...............", /* 2 */
	"...............", /* 3 */
	"...............", /* 4 */
	"........O......", /* 5 */
	"......X........", /* 6 */
	".......X.......", /* 7 */
	NULL,
};

static void
beginner_plays_a_cell_near_the_best_and_varies_with_the_seed(void **state)
{
	struct board board;
	int best = 0, ties = 0, x, y;
	uint32_t seed;

	(void)state;
	board_draw(&board, 15, quiet_rows);
	for (y = 0; y < 15; y++) {
		for (x = 0; x < 15; x++) {
			int score = engine_easy_score(&board, ROLE_BACK, x, y);

			if (score > best)
				ties = 0;
			if (score >= best) {
				best = score;
				ties++;
			}
		}
	}
	expect_int(ties, 1); /* one best cell: no tie to break */
	for (seed = 1; seed <= SEEDS; seed++) {
		struct engine_result result =
			choose_seeded(&board, ROLE_BACK, ENGINE_BEGINNER, seed);
		int score = engine_easy_score(&board, ROLE_BACK, result.x,
					      result.y);

		if (score < best - best / 8)
			fail_msg("seed %u: (%d, %d) scores %d, best %d", seed,
				 result.x, result.y, score, best);
		expect_int(result.score, score);
	}
	/* The same moves of the player do not bring the same game. */
	assert_true(distinct_moves(&board, ROLE_BACK, ENGINE_BEGINNER) >= 3);
}

static void easy_varies_with_the_seed_and_still_wins_and_blocks(void **state)
{
	static const char *const win_rows[] = {
		"...............", /* 0 */
		"...............", /* 1 */
		"...............", /* 2 */
		"...............", /* 3 */
		"...............", /* 4 */
		"..........O....", /* 5 */
		"..........O....", /* 6 */
		"..OXXXX...O....", /* 7 */
		NULL,
	};
	struct board board, win;
	uint32_t seed;

	(void)state;
	board_draw(&board, 15, quiet_rows);
	assert_true(distinct_moves(&board, ROLE_BACK, ENGINE_EASY) >= 2);
	board_draw(&win, 15, win_rows);
	for (seed = 1; seed <= SEEDS; seed++) {
		/* front wins at (7, 7); back must block there */
		struct engine_result won =
			choose_seeded(&win, ROLE_FRONT, ENGINE_EASY, seed);
		struct engine_result blocked =
			choose_seeded(&win, ROLE_BACK, ENGINE_EASY, seed);

		expect_move(won, ENGINE_EASY, 7, 7);
		expect_move(blocked, ENGINE_EASY, 7, 7);
		expect_move(choose_seeded(&win, ROLE_FRONT, ENGINE_BEGINNER,
					  seed),
			    ENGINE_BEGINNER, 7, 7);
	}
}

/* ---- patterns and evaluation ---- */

/* What role at x on row 7 would make, with row drawn on row 7 alone. */
static enum engine_threat classify_in_row(const char *row, enum rule rule,
					  enum role role, int x)
{
	const char *rows[16] = { NULL };
	struct board board;
	int y;

	for (y = 0; y < 7; y++)
		rows[y] = "";
	rows[7] = row;
	board_draw(&board, 15, rows);
	return engine_classify(&board, rule, role, x, 7);
}

static void classify_names_what_a_stone_would_make(void **state)
{
	static const char *const crossing_rows[] = {
		"...............", /* 0 */
		"...............", /* 1 */
		"...............", /* 2 */
		"...............", /* 3 */
		"...............", /* 4 */
		".......X.......", /* 5 */
		".......X.......", /* 6 */
		".....XX........", /* 7 */
		NULL,
	};
	struct board board;

	(void)state;
	expect_enum(classify_in_row("....XX.........", RULE_FREESTYLE,
				    ROLE_FRONT, 6),
		    ENGINE_THREAT_OPEN_THREE, engine_threat_name);
	expect_enum(classify_in_row("....XXX........", RULE_FREESTYLE,
				    ROLE_FRONT, 7),
		    ENGINE_THREAT_OPEN_FOUR, engine_threat_name);
	expect_enum(classify_in_row("...OXXX........", RULE_FREESTYLE,
				    ROLE_FRONT, 7),
		    ENGINE_THREAT_FOUR, engine_threat_name);
	/* OXXX.X: a split four */
	expect_enum(classify_in_row("...OXXX........", RULE_FREESTYLE,
				    ROLE_FRONT, 8),
		    ENGINE_THREAT_FOUR, engine_threat_name);
	/* OXXX..X: a three (one move from a four) */
	expect_enum(classify_in_row("...OXXX........", RULE_FREESTYLE,
				    ROLE_FRONT, 9),
		    ENGINE_THREAT_THREE, engine_threat_name);
	expect_enum(classify_in_row("....XXXX.......", RULE_FREESTYLE,
				    ROLE_FRONT, 8),
		    ENGINE_THREAT_FIVE, engine_threat_name);
	/* the other side: there it only blocks */
	expect_enum(classify_in_row("....XXXX.......", RULE_FREESTYLE,
				    ROLE_BACK, 8),
		    ENGINE_THREAT_NONE, engine_threat_name);
	/* occupied */
	expect_enum(classify_in_row("....XXXX.......", RULE_FREESTYLE,
				    ROLE_FRONT, 5),
		    ENGINE_THREAT_NONE, engine_threat_name);
	/* two open twos crossing at (7, 7) */
	board_draw(&board, 15, crossing_rows);
	expect_enum(engine_classify(&board, RULE_FREESTYLE, ROLE_FRONT, 7, 7),
		    ENGINE_THREAT_DOUBLE_THREE, engine_threat_name);
}

static void classify_finds_a_four_three(void **state)
{
	static const char *const rows[] = {
		"...............", /* 0 */
		"...............", /* 1 */
		"...............", /* 2 */
		"...............", /* 3 */
		"...............", /* 4 */
		".......X.......", /* 5 */
		".......X.......", /* 6 */
		"...OXXX........", /* 7 */
		NULL,
	};
	struct board board;

	(void)state;
	board_draw(&board, 15, rows);
	/* (7, 7): OXXXX. on the row, .XXX. on the column */
	expect_enum(engine_classify(&board, RULE_FREESTYLE, ROLE_FRONT, 7, 7),
		    ENGINE_THREAT_FOUR_THREE, engine_threat_name);
}

static void classify_knows_an_overline_wins_only_in_freestyle(void **state)
{
	static const char *const rows[] = {
		"...............", /* 0 */
		"...............", /* 1 */
		"...............", /* 2 */
		"...............", /* 3 */
		"...............", /* 4 */
		"...............", /* 5 */
		"...............", /* 6 */
		"..XXX.XX.......", /* 7 */
		NULL,
	};
	struct board board;

	(void)state;
	board_draw(&board, 15, rows);
	expect_enum(engine_classify(&board, RULE_FREESTYLE, ROLE_FRONT, 5, 7),
		    ENGINE_THREAT_FIVE, engine_threat_name);
	expect_enum(engine_classify(&board, RULE_STANDARD, ROLE_FRONT, 5, 7),
		    ENGINE_THREAT_NONE, engine_threat_name);
	/* (1, 7) makes a four: five at (0, 7), but six at (5, 7) */
	expect_enum(engine_classify(&board, RULE_STANDARD, ROLE_FRONT, 1, 7),
		    ENGINE_THREAT_FOUR, engine_threat_name);
}

static void evaluation_prefers_an_open_three_to_a_blocked_one(void **state)
{
	static const char *const open_rows[] = {
		"...............", /* 0 */
		"...............", /* 1 */
		"...............", /* 2 */
		"...............", /* 3 */
		"...............", /* 4 */
		"...............", /* 5 */
		"...............", /* 6 */
		"......XXX......", /* 7 */
		".......O.......", /* 8 */
		".........O.....", /* 9 */
		NULL,
	};
	static const char *const blocked_rows[] = {
		"...............", /* 0 */
		"...............", /* 1 */
		"...............", /* 2 */
		"...............", /* 3 */
		"...............", /* 4 */
		"...............", /* 5 */
		"...............", /* 6 */
		".....OXXX......", /* 7 */
		".......O.......", /* 8 */
		NULL,
	};
	struct board open, blocked;
	int open_score, blocked_score;

	(void)state;
	board_draw(&open, 15, open_rows);
	board_draw(&blocked, 15, blocked_rows);
	open_score = engine_evaluate(&open, ROLE_FRONT, RULE_FREESTYLE);
	blocked_score = engine_evaluate(&blocked, ROLE_FRONT, RULE_FREESTYLE);
	if (open_score <= blocked_score)
		fail_msg("open three %d should beat blocked three %d",
			 open_score, blocked_score);
	if (open_score <= 0)
		fail_msg("front's open three should be good for front: %d",
			 open_score);
	if (engine_evaluate(&open, ROLE_BACK, RULE_FREESTYLE) >= 0)
		fail_msg("front's open three should be bad for back");
}

/* ---- forced moves at every level ---- */

static void every_level_plays_the_win_in_one(void **state)
{
	static const char *const rows[] = {
		"...............", /* 0 */
		"...............", /* 1 */
		"...............", /* 2 */
		"...............", /* 3 */
		"...............", /* 4 */
		"..........O....", /* 5 */
		"..........O....", /* 6 */
		"..OXXXX...O....", /* 7 */
		"...............", /* 8 */
		NULL,
	};
	struct board board;
	size_t i;

	(void)state;
	board_draw(&board, 15, rows);
	for (i = 0; i < sizeof(all_levels) / sizeof(all_levels[0]); i++) {
		struct engine_result result = choose(&board, ROLE_FRONT,
						     RULE_FREESTYLE,
						     all_levels[i], 20000);

		expect_move(result, all_levels[i], 7, 7);
	}
}

static void every_level_blocks_a_four(void **state)
{
	static const char *const rows[] = {
		"...............", /* 0 */
		"...............", /* 1 */
		"...............", /* 2 */
		"...............", /* 3 */
		"...............", /* 4 */
		"...............", /* 5 */
		"...........X...", /* 6 */
		"..XOOOO........", /* 7 */
		".........X.....", /* 8 */
		NULL,
	};
	struct board board;
	size_t i;

	(void)state;
	board_draw(&board, 15, rows);
	for (i = 0; i < sizeof(all_levels) / sizeof(all_levels[0]); i++) {
		struct engine_result result = choose(&board, ROLE_FRONT,
						     RULE_FREESTYLE,
						     all_levels[i], 20000);

		expect_move(result, all_levels[i], 7, 7);
		if (all_levels[i] != ENGINE_BEGINNER && !result.forced)
			fail_msg("%s: a block should be forced",
				 engine_level_name(all_levels[i]));
	}
}

static void master_answers_an_open_three(void **state)
{
	static const char *const rows[] = {
		"...............", /* 0 */
		"...............", /* 1 */
		"...............", /* 2 */
		"...............", /* 3 */
		"..........X....", /* 4 */
		"...............", /* 5 */
		"...............", /* 6 */
		".....OOO.......", /* 7 */
		"..X............", /* 8 */
		"...............", /* 9 */
		".........X.....", /* 10 */
		NULL,
	};
	struct board board;
	struct engine_result result;

	(void)state;
	board_draw(&board, 15, rows);
	result = choose(&board, ROLE_FRONT, RULE_FREESTYLE, ENGINE_MASTER,
			20000);
	/* Only the ends next to the three stop an open four. */
	if (result.y != 7 || (result.x != 4 && result.x != 8))
		fail_msg("hard played (%d, %d), expected (4, 7) or (8, 7)",
			 result.x, result.y);
}

/* ---- VCF ---- */

/*
 * Front to move wins by fours alone, and needs at least four fours and the
 * five: a solver limited to three fours finds nothing here, one allowed
 * four finds (11,10) (10,9) (12,7) (9,10) and the five at (8,11). Back has
 * no VCF. (From an easy-against-easy game, move 34.)
 */
static const char *const vcf_rows[] = {
	"...............", /* 0 */
	".......X..X....", /* 1 */
	"......XOXO.....", /* 2 */
	"......XOO......", /* 3 */
	".......OOX.....", /* 4 */
	".....XOOOOXO...", /* 5 */
	"....OXXXOOOX...", /* 6 */
	".....O..XXOX...", /* 7 */
	"......X....X...", /* 8 */
	NULL,
};

static void vcf_solver_finds_a_five_move_win(void **state)
{
	struct engine *engine = engine_new(1 << 16);
	struct cell moves[32];
	struct board board;
	int length, i, x, y;

	(void)state;
	assert_non_null(engine);
	board_draw(&board, 15, vcf_rows);
	length = engine_find_vcf(engine, &board, ROLE_FRONT, RULE_FREESTYLE, 0,
				 moves, 32);
	if (length < 5)
		fail_msg("VCF of %d moves, expected at least 5", length);
	/*
	 * Replay it: each move but the last is a four (or better), answered
	 * at a cell where front would make five (not the next move, when a
	 * double four leaves two); the last is a five.
	 */
	for (i = 0; i < length; i++) {
		enum engine_threat threat =
			engine_classify(&board, RULE_FREESTYLE, ROLE_FRONT,
					moves[i].x, moves[i].y);
		bool last = i == length - 1;
		bool replied = false;

		if (last ? threat != ENGINE_THREAT_FIVE :
			   threat > ENGINE_THREAT_FOUR)
			fail_msg("VCF move %d (%d, %d) makes a %s", i,
				 moves[i].x, moves[i].y,
				 engine_threat_name(threat));
		board_set(&board, moves[i].x, moves[i].y, ROLE_FRONT);
		for (y = 0; y < 15 && !last && !replied; y++) {
			for (x = 0; x < 15 && !replied; x++) {
				if (board_get(&board, x, y) == ROLE_NONE &&
				    (x != moves[i + 1].x ||
				     y != moves[i + 1].y) &&
				    engine_classify(&board, RULE_FREESTYLE,
						    ROLE_FRONT, x,
						    y) == ENGINE_THREAT_FIVE) {
					board_set(&board, x, y, ROLE_BACK);
					replied = true;
				}
			}
		}
	}
	assert_true(rules_find_five(&board, RULE_FREESTYLE, moves[length - 1].x,
				    moves[length - 1].y, NULL));
	/* Back has no VCF in the starting position. */
	board_draw(&board, 15, vcf_rows);
	expect_int(engine_find_vcf(engine, &board, ROLE_BACK, RULE_FREESTYLE, 0,
				   moves, 32),
		   0);
	engine_free(engine);
}

static void master_plays_the_first_move_of_its_vcf(void **state)
{
	struct engine *engine = engine_new(1 << 16);
	struct engine_result result;
	struct cell moves[32];
	struct board board;

	(void)state;
	assert_non_null(engine);
	board_draw(&board, 15, vcf_rows);
	assert_true(engine_find_vcf(engine, &board, ROLE_FRONT, RULE_FREESTYLE,
				    0, moves, 32) >= 5);
	result = choose(&board, ROLE_FRONT, RULE_FREESTYLE, ENGINE_MASTER, 0);
	expect_move(result, ENGINE_MASTER, moves[0].x, moves[0].y);
	assert_true(result.forced);
	if (result.score < ENGINE_SCORE_WIN - ENGINE_SCORE_WIN_MARGIN)
		fail_msg("a VCF should score as a win, got %d", result.score);
	engine_free(engine);
}

/*
 * Back has two open threes (row 7 and column 11); front cannot block both.
 * Front's closed three on column 8 makes a four at (8, 7), which is also
 * an end of back's row three: the four forces back's reply at (8, 6),
 * then front blocks the column. Any other move loses.
 */
static void master_defends_with_the_only_counter_four(void **state)
{
	static const char *const rows[] = {
		"X.............X", /* 0 */
		"...............", /* 1 */
		"...............", /* 2 */
		"...........O...", /* 3 */
		"...........O...", /* 4 */
		"...........O...", /* 5 */
		"...............", /* 6 */
		".....OOO.......", /* 7 */
		"........X......", /* 8 */
		"........X......", /* 9 */
		"........X......", /* 10 */
		"........O......", /* 11 */
		"...............", /* 12 */
		"...............", /* 13 */
		"X.............X", /* 14 */
	};
	struct board board;
	struct engine_result result;

	(void)state;
	board_draw(&board, 15, rows);
	result = choose(&board, ROLE_FRONT, RULE_FREESTYLE, ENGINE_MASTER,
			60000);
	expect_move(result, ENGINE_MASTER, 8, 7);
}

/* ---- the standard rule ---- */

static void standard_rule_does_not_take_an_overline_for_a_win(void **state)
{
	static const char *const rows[] = {
		"...............", /* 0 */
		"...............", /* 1 */
		"...............", /* 2 */
		"...............", /* 3 */
		"...............", /* 4 */
		"...............", /* 5 */
		"...............", /* 6 */
		"..XXX.XX.......", /* 7 */
		"...............", /* 8 */
		"...............", /* 9 */
		".XOOOO.........", /* 10 */
		NULL,
	};
	struct board board;
	struct engine_result result;

	(void)state;
	board_draw(&board, 15, rows);
	/* Freestyle: (5, 7) is six in a row and wins. */
	result = choose(&board, ROLE_FRONT, RULE_FREESTYLE, ENGINE_MASTER,
			20000);
	expect_move(result, ENGINE_MASTER, 5, 7);
	/* Standard: it does not; back's four must be blocked. */
	result =
		choose(&board, ROLE_FRONT, RULE_STANDARD, ENGINE_MASTER, 20000);
	expect_move(result, ENGINE_MASTER, 6, 10);
	result = choose(&board, ROLE_FRONT, RULE_STANDARD, ENGINE_EASY, 20000);
	expect_move(result, ENGINE_EASY, 6, 10);
}

static void standard_rule_ignores_the_opponents_overline(void **state)
{
	static const char *const rows[] = {
		"...............", /* 0 */
		"...............", /* 1 */
		"...............", /* 2 */
		"..OOO.OO.......", /* 3 */
		"...............", /* 4 */
		"...............", /* 5 */
		"...............", /* 6 */
		"...............", /* 7 */
		"...............", /* 8 */
		"...............", /* 9 */
		".....XXX.......", /* 10 */
		"...............", /* 11 */
		"............X..", /* 12 */
		NULL,
	};
	struct board board;
	struct engine_result result;

	(void)state;
	board_draw(&board, 15, rows);
	/* Freestyle: back's (5, 3) is a five; front must block it. */
	result = choose(&board, ROLE_FRONT, RULE_FREESTYLE, ENGINE_MASTER,
			20000);
	expect_move(result, ENGINE_MASTER, 5, 3);
	/* Standard: it is an overline, no threat; front wins instead. */
	result =
		choose(&board, ROLE_FRONT, RULE_STANDARD, ENGINE_MASTER, 20000);
	if (result.x == 5 && result.y == 3)
		fail_msg("hard blocked an overline that cannot win");
	if (result.score < ENGINE_SCORE_WIN - ENGINE_SCORE_WIN_MARGIN)
		fail_msg("front's open three should win, score %d",
			 result.score);
}

/* ---- determinism and budgets ---- */

/* A quiet position: no fours, no open threes, no forced win. */
static const char *const middle_game_rows[] = {
	"...............", /* 0 */
	"...............", /* 1 */
	"...............", /* 2 */
	"...............", /* 3 */
	"...............", /* 4 */
	"......O.X......", /* 5 */
	".....XOX.......", /* 6 */
	"......XO.O.....", /* 7 */
	".....O...X.....", /* 8 */
	"....X..........", /* 9 */
	NULL,
};

static void same_seed_and_budget_give_the_same_move(void **state)
{
	struct engine_limits limits = { .max_nodes = 30000, .seed = 42 };
	struct engine *first = engine_new(1 << 16);
	struct engine *second = engine_new(1 << 16);
	struct engine_result a, b, c;
	struct board board;
	enum engine_level level;

	(void)state;
	assert_non_null(first);
	assert_non_null(second);
	board_draw(&board, 15, middle_game_rows);
	for (level = ENGINE_BEGINNER; level < ENGINE_LEVEL_COUNT; level++) {
		expect_int(engine_choose(first, &board, ROLE_FRONT,
					 RULE_FREESTYLE, level, &limits, &a),
			   0);
		/* the same engine again, after other work */
		expect_int(engine_choose(first, &board, ROLE_BACK,
					 RULE_FREESTYLE, level, &limits, &c),
			   0);
		expect_int(engine_choose(first, &board, ROLE_FRONT,
					 RULE_FREESTYLE, level, &limits, &b),
			   0);
		expect_int(b.x, a.x);
		expect_int(b.y, a.y);
		expect_int(b.nodes, a.nodes);
		expect_int(b.score, a.score);
		/* another engine of the same table size */
		expect_int(engine_choose(second, &board, ROLE_FRONT,
					 RULE_FREESTYLE, level, &limits, &b),
			   0);
		expect_int(b.x, a.x);
		expect_int(b.y, a.y);
	}
	engine_free(second);
	engine_free(first);
}

static void node_budget_is_honoured(void **state)
{
	static const uint64_t budgets[] = { 1, 100, 5000, 40000 };
	struct engine *engine = engine_new(0);
	struct board board;
	size_t i;

	(void)state;
	assert_non_null(engine);
	board_draw(&board, 15, middle_game_rows);
	for (i = 0; i < sizeof(budgets) / sizeof(budgets[0]); i++) {
		struct engine_limits limits = { .max_nodes = budgets[i] };
		struct engine_result result;

		expect_int(engine_choose(engine, &board, ROLE_FRONT,
					 RULE_FREESTYLE, ENGINE_MASTER, &limits,
					 &result),
			   0);
		if (result.nodes > budgets[i])
			fail_msg("%llu nodes for a budget of %llu",
				 (unsigned long long)result.nodes,
				 (unsigned long long)budgets[i]);
		expect_int(board_get(&board, result.x, result.y), ROLE_NONE);
	}
	engine_free(engine);
}

/* A fake clock: every reading advances it by a millisecond. */
struct fake_clock {
	uint64_t now_us; /* the time */
	int readings;	 /* calls so far */
};

static uint64_t fake_now(void *ctx)
{
	struct fake_clock *clock = ctx;

	clock->readings++;
	clock->now_us += 1000;
	return clock->now_us;
}

/*
 * Master on a middle-game board with max_nodes and a deadline ms
 * milliseconds away on a fake clock that moves 1 ms a reading: it stops
 * at the reading that finds the deadline. The clock is read every 128
 * nodes or so (256 in a long VCF search), so a few thousand nodes;
 * without the deadline it would search on, millions with no budget.
 */
static void expect_stop_at_deadline(uint64_t max_nodes, int ms)
{
	struct fake_clock clock = { .now_us = 1000000 };
	struct engine_limits limits = {
		.max_nodes = max_nodes,
		.now_us = fake_now,
		.now_ctx = &clock,
		.deadline_us = 1000000 + (uint64_t)ms * 1000,
	};
	struct engine *engine = engine_new(0);
	struct engine_result result;
	struct board board;

	assert_non_null(engine);
	board_draw(&board, 15, middle_game_rows);
	expect_int(engine_choose(engine, &board, ROLE_FRONT, RULE_FREESTYLE,
				 ENGINE_MASTER, &limits, &result),
		   0);
	expect_int(clock.readings, ms);
	if (result.nodes > (uint64_t)ms * 1024)
		fail_msg("%llu nodes by the deadline",
			 (unsigned long long)result.nodes);
	expect_int(board_get(&board, result.x, result.y), ROLE_NONE);
	engine_free(engine);
}

/* Master's own budget (max_nodes 0) is cut short by a deadline. */
static void deadline_is_honoured(void **state)
{
	(void)state;
	expect_stop_at_deadline(0, 20);
}

/* ---- board sizes and bad input ---- */

static void empty_board_gets_the_centre(void **state)
{
	static const int sizes[] = { 5, 7, 15, 24, 25 };
	struct board board;
	size_t i, l;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		board_init(&board, sizes[i]);
		for (l = 0; l < sizeof(all_levels) / sizeof(all_levels[0]);
		     l++) {
			struct engine_result result =
				choose(&board, ROLE_FRONT, RULE_FREESTYLE,
				       all_levels[l], 1000);

			expect_move(result, all_levels[l], sizes[i] / 2,
				    sizes[i] / 2);
		}
	}
}

static void small_board_of_7_wins_and_blocks(void **state)
{
	static const char *const win_rows[] = {
		".......", /* 0 */
		".XXXX..", /* 1 */
		"...O...", /* 2 */
		"..O.O..", /* 3 */
		"...O...", /* 4 */
		".......", /* 5 */
		".......", /* 6 */
		NULL,
	};
	static const char *const block_rows[] = {
		"O......", /* 0 */
		".O..X..", /* 1 */
		"..O....", /* 2 */
		"...O...", /* 3 */
		".X.....", /* 4 */
		"...X...", /* 5 */
		".......", /* 6 */
		NULL,
	};
	struct board board;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(all_levels) / sizeof(all_levels[0]); i++) {
		board_draw(&board, 7, win_rows);
		/* (0, 1) and (5, 1) both win; easy's ties are seeded */
		struct engine_result result = choose(&board, ROLE_FRONT,
						     RULE_FREESTYLE,
						     all_levels[i], 5000);

		if (result.y != 1 || (result.x != 0 && result.x != 5))
			fail_msg("%s played (%d, %d) on 7x7, not a five",
				 engine_level_name(all_levels[i]), result.x,
				 result.y);
		board_draw(&board, 7, block_rows);
		expect_move(choose(&board, ROLE_FRONT, RULE_FREESTYLE,
				   all_levels[i], 5000),
			    all_levels[i], 4, 4);
	}
}

static void large_board_of_25_blocks_at_the_edge(void **state)
{
	static const char *const rows[] = {
		".........................", /* 0 */
		".........................", /* 1 */
		".........................", /* 2 */
		".........................", /* 3 */
		".........................", /* 4 */
		".........................", /* 5 */
		".........................", /* 6 */
		".........................", /* 7 */
		".........................", /* 8 */
		".........................", /* 9 */
		".........................", /* 10 */
		".........................", /* 11 */
		".......X....X............", /* 12 */
		".........................", /* 13 */
		".........................", /* 14 */
		".........................", /* 15 */
		".........................", /* 16 */
		".........................", /* 17 */
		".........................", /* 18 */
		".........................", /* 19 */
		"......................X..", /* 20 */
		"....................O....", /* 21 */
		".....................O...", /* 22 */
		"......................O..", /* 23 */
		".......................O.", /* 24 */
	};
	struct board board;
	struct engine_result result;
	size_t i;

	(void)state;
	board_draw(&board, 25, rows);
	/*
	 * Back's diagonal (20,21)..(23,24) hits the corner: (19, 20) is its
	 * only way to five. Everyone blocks.
	 */
	for (i = 0; i < sizeof(all_levels) / sizeof(all_levels[0]); i++) {
		result = choose(&board, ROLE_FRONT, RULE_FREESTYLE,
				all_levels[i], 20000);
		expect_move(result, all_levels[i], 19, 20);
	}
}

static void full_board_is_refused(void **state)
{
	struct engine *engine = engine_new(0);
	struct engine_result result;
	struct board board;
	int x, y;

	(void)state;
	assert_non_null(engine);
	board_init(&board, 5);
	/* rows alternate in pairs so that no five forms: XXOOX / OOXXO ... */
	for (y = 0; y < 5; y++)
		for (x = 0; x < 5; x++)
			board_set(&board, x, y,
				  ((x + 2 * y) / 2) % 2 ? ROLE_BACK :
							  ROLE_FRONT);
	expect_int(engine_choose(engine, &board, ROLE_FRONT, RULE_FREESTYLE,
				 ENGINE_HARD, NULL, &result),
		   -ENOSPC);
	expect_int(engine_choose(engine, &board, ROLE_FRONT, RULE_FREESTYLE,
				 ENGINE_EASY, NULL, &result),
		   -ENOSPC);
	engine_free(engine);
}

static void bad_arguments_are_refused(void **state)
{
	struct engine *engine = engine_new(0);
	struct engine_result result;
	struct board board;
	enum engine_level level;

	(void)state;
	assert_non_null(engine);
	board_init(&board, 15);
	expect_int(engine_choose(engine, &board, ROLE_NONE, RULE_FREESTYLE,
				 ENGINE_HARD, NULL, &result),
		   -EINVAL);
	expect_int(engine_choose(engine, NULL, ROLE_FRONT, RULE_FREESTYLE,
				 ENGINE_HARD, NULL, &result),
		   -EINVAL);
	expect_int(engine_choose(engine, &board, ROLE_FRONT, RULE_FREESTYLE,
				 (enum engine_level)7, NULL, &result),
		   -EINVAL);
	board.cells[3] = 9;
	expect_int(engine_choose(engine, &board, ROLE_FRONT, RULE_FREESTYLE,
				 ENGINE_HARD, NULL, &result),
		   -EINVAL);
	board.size = 30;
	expect_int(engine_choose(engine, &board, ROLE_FRONT, RULE_FREESTYLE,
				 ENGINE_HARD, NULL, &result),
		   -EINVAL);
	expect_int(engine_choose(engine, &board, ROLE_FRONT, RULE_FREESTYLE,
				 ENGINE_LEVEL_COUNT, NULL, &result),
		   -EINVAL);
	expect_int(engine_level_parse("HARD", &level), -EINVAL);
	expect_int(engine_level_parse("", &level), -EINVAL);
	expect_str(engine_level_name(ENGINE_LEVEL_COUNT), "");
	engine_free(engine);
}

static void five_levels_have_names_weakest_first(void **state)
{
	static const char *const names[] = { "beginner", "easy", "medium",
					     "hard", "master" };
	enum engine_level level;
	size_t i;

	(void)state;
	expect_int(ENGINE_LEVEL_COUNT, 5);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		expect_int(engine_level_parse(names[i], &level), 0);
		expect_int(level, all_levels[i]);
		expect_str(engine_level_name(all_levels[i]), names[i]);
	}
}

/*
 * The server gives a deadline and no node budget: every searching level
 * still stops at its own budget (the levels are calibrated at it), and a
 * deadline sooner than that stops it sooner.
 */
static void a_deadline_alone_keeps_the_levels_budget(void **state)
{
	static const enum engine_level searching[] = {
		ENGINE_EASY, ENGINE_MEDIUM, ENGINE_HARD, ENGINE_MASTER
	};
	static const uint64_t budgets[] = { ENGINE_DEFAULT_NODES_EASY,
					    ENGINE_DEFAULT_NODES_MEDIUM,
					    ENGINE_DEFAULT_NODES_HARD,
					    ENGINE_DEFAULT_NODES_MASTER };
	struct engine *engine = engine_new(0);
	struct board board;
	size_t i;

	(void)state;
	assert_non_null(engine);
	board_draw(&board, 15, middle_game_rows);
	for (i = 0; i < sizeof(searching) / sizeof(searching[0]); i++) {
		struct fake_clock clock = { .now_us = 1000000 };
		struct engine_limits limits = {
			.now_us = fake_now,
			.now_ctx = &clock,
			.deadline_us = 1000000 + 3600ull * 1000000,
		};
		struct engine_result result;

		expect_int(engine_choose(engine, &board, ROLE_FRONT,
					 RULE_FREESTYLE, searching[i], &limits,
					 &result),
			   0);
		if (result.nodes > budgets[i])
			fail_msg("%s: %llu nodes for a budget of %llu",
				 engine_level_name(searching[i]),
				 (unsigned long long)result.nodes,
				 (unsigned long long)budgets[i]);
	}
	engine_free(engine);
}

/* The real clock, for the threads' test: fake_now() is one thread's. */
static uint64_t real_now(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/*
 * Threads: with helper threads master plays a legal move within a node
 * budget the calling thread keeps, stops at a deadline with no budget,
 * with one thread again plays node for node as an engine that never had
 * more, and with threads again (a new busy table, helpers borrowing it)
 * plays a legal move.
 */
static void threads_search_the_same_position(void **state)
{
	struct engine_limits limits = { .max_nodes = 100000, .seed = 7 };
	struct engine *threaded = engine_new(1 << 16);
	struct engine *single = engine_new(1 << 16);
	struct engine_result result, alone;
	struct board board;

	(void)state;
	assert_non_null(threaded);
	assert_non_null(single);
	expect_int(engine_set_threads(threaded, 4), 0);

	board_draw(&board, 15, middle_game_rows);
	expect_int(engine_choose(threaded, &board, ROLE_FRONT, RULE_FREESTYLE,
				 ENGINE_MASTER, &limits, &result),
		   0);
	expect_int(board_get(&board, result.x, result.y), ROLE_NONE);
	if (result.nodes > limits.max_nodes)
		fail_msg("%llu nodes for a budget of %llu",
			 (unsigned long long)result.nodes,
			 (unsigned long long)limits.max_nodes);

	/* no budget: the deadline stops every thread */
	limits.max_nodes = ENGINE_NODES_UNLIMITED;
	limits.now_us = real_now;
	limits.deadline_us = real_now(NULL) + 50000;
	expect_int(engine_choose(threaded, &board, ROLE_BACK, RULE_FREESTYLE,
				 ENGINE_MASTER, &limits, &result),
		   0);
	expect_int(board_get(&board, result.x, result.y), ROLE_NONE);

	/* back to one thread: the same search as an engine of one */
	limits = (struct engine_limits){ .max_nodes = 30000, .seed = 7 };
	expect_int(engine_set_threads(threaded, 1), 0);
	expect_int(engine_choose(threaded, &board, ROLE_FRONT, RULE_FREESTYLE,
				 ENGINE_MASTER, &limits, &result),
		   0);
	expect_int(engine_choose(single, &board, ROLE_FRONT, RULE_FREESTYLE,
				 ENGINE_MASTER, &limits, &alone),
		   0);
	expect_int(result.x, alone.x);
	expect_int(result.y, alone.y);
	expect_int(result.nodes, alone.nodes);

	/* and up again, in two steps */
	expect_int(engine_set_threads(threaded, 2), 0);
	expect_int(engine_set_threads(threaded, 3), 0);
	expect_int(engine_choose(threaded, &board, ROLE_BACK, RULE_FREESTYLE,
				 ENGINE_MASTER, &limits, &result),
		   0);
	expect_int(board_get(&board, result.x, result.y), ROLE_NONE);

	expect_int(engine_set_threads(threaded, 0), -EINVAL);
	expect_int(engine_set_threads(threaded, ENGINE_MAX_THREADS + 1),
		   -EINVAL);
	expect_int(engine_set_threads(NULL, 2), -EINVAL);
	engine_free(single);
	engine_free(threaded);
}

/* Master with no node budget at all (as pbrain-gomoku plays) stops by the deadline. */
static void master_without_a_budget_stops_at_the_deadline(void **state)
{
	(void)state;
	expect_stop_at_deadline(ENGINE_NODES_UNLIMITED, 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			easy_scores_one_stone_by_the_four_windows_through_both),
		cmocka_unit_test(easy_scores_a_three_with_the_own_weights),
		cmocka_unit_test(easy_ignores_windows_holding_both_sides),
		cmocka_unit_test(easy_counts_only_windows_inside_the_board),
		cmocka_unit_test(
			beginner_plays_a_cell_near_the_best_and_varies_with_the_seed),
		cmocka_unit_test(
			easy_varies_with_the_seed_and_still_wins_and_blocks),
		cmocka_unit_test(classify_names_what_a_stone_would_make),
		cmocka_unit_test(classify_finds_a_four_three),
		cmocka_unit_test(
			classify_knows_an_overline_wins_only_in_freestyle),
		cmocka_unit_test(
			evaluation_prefers_an_open_three_to_a_blocked_one),
		cmocka_unit_test(every_level_plays_the_win_in_one),
		cmocka_unit_test(every_level_blocks_a_four),
		cmocka_unit_test(master_answers_an_open_three),
		cmocka_unit_test(vcf_solver_finds_a_five_move_win),
		cmocka_unit_test(master_plays_the_first_move_of_its_vcf),
		cmocka_unit_test(master_defends_with_the_only_counter_four),
		cmocka_unit_test(
			standard_rule_does_not_take_an_overline_for_a_win),
		cmocka_unit_test(standard_rule_ignores_the_opponents_overline),
		cmocka_unit_test(same_seed_and_budget_give_the_same_move),
		cmocka_unit_test(node_budget_is_honoured),
		cmocka_unit_test(deadline_is_honoured),
		cmocka_unit_test(empty_board_gets_the_centre),
		cmocka_unit_test(small_board_of_7_wins_and_blocks),
		cmocka_unit_test(large_board_of_25_blocks_at_the_edge),
		cmocka_unit_test(full_board_is_refused),
		cmocka_unit_test(bad_arguments_are_refused),
		cmocka_unit_test(five_levels_have_names_weakest_first),
		cmocka_unit_test(a_deadline_alone_keeps_the_levels_budget),
		cmocka_unit_test(master_without_a_budget_stops_at_the_deadline),
		cmocka_unit_test(threads_search_the_same_position),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
