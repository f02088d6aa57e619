/*
 * test_engine_renju.c - the computer opponent under renju: the points it
 * takes as forbidden to black are exactly renju_judge()'s, black never
 * plays one in whole games at every level, and the threat search knows
 * the rule both ways: white wins with a four whose block black may not
 * play, and black's threats that need a forbidden point are none.
 *
 * Positions are drawn as rows of text: 'X' is black (front), 'O' white
 * (back), '.' an empty cell; row y of the drawing is row y of the board.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "engine_fixture.h"
#include "expect.h"
#include "game.h"
#include "renju.h"
#include "renju_random.h"

/* Random positions compared point by point with renju_judge(). */
#define CLASSIFY_POSITIONS 100
/* Games per pair of levels, and the node budget of medium and hard. */
#define GAMES_PER_PAIR 6
#define GAME_NODES 1500
/* The node budget of the hand-made positions' moves. */
#define HARD_NODES 60000

static bool cell_is(struct engine_result result, int x, int y)
{
	return result.x == x && result.y == y;
}

static const enum engine_level all_levels[] = {
	ENGINE_BEGINNER, ENGINE_EASY, ENGINE_MEDIUM, ENGINE_HARD, ENGINE_MASTER,
};

#define LEVELS (int)(sizeof(all_levels) / sizeof(all_levels[0]))

/* ---- the forbidden points ---- */

static void classify_forbids_exactly_what_renju_judge_forbids(void **state)
{
	struct prng prng = { 0x7e57e9e1u };
	int verdicts[RENJU_VERDICT_COUNT] = { 0 };
	struct board board;

	(void)state;
	for (int p = 0; p < CLASSIFY_POSITIONS; p++) {
		renju_random_position(&prng, &board, false);
		for (int y = 0; y < board.size; y++) {
			for (int x = 0; x < board.size; x++) {
				enum renju_verdict verdict;
				enum engine_threat black;

				if (board_get(&board, x, y) != ROLE_NONE)
					continue;
				verdict = renju_judge(&board, x, y);
				black = engine_classify(&board, RULE_RENJU,
							ROLE_FRONT, x, y);
				verdicts[verdict]++;
				if ((black == ENGINE_THREAT_FORBIDDEN) !=
				    renju_forbids(verdict))
					fail_msg(
						"position %d (%dx%d), (%d, %d): "
						"renju_judge() says %s, the "
						"engine %s",
						p, board.size, board.size, x, y,
						renju_verdict_name(verdict),
						engine_threat_name(black));
				/* White may play anywhere. */
				if (renju_forbids(verdict) &&
				    engine_classify(&board, RULE_RENJU,
						    ROLE_BACK, x, y) ==
					    ENGINE_THREAT_FORBIDDEN)
					fail_msg("position %d, (%d, %d): white "
						 "forbidden",
						 p, x, y);
			}
		}
	}
	/* Every kind came up, or the test proved little. */
	for (int v = RENJU_OVERLINE; v <= RENJU_DOUBLE_THREE; v++)
		if (verdicts[v] < 5)
			fail_msg("only %d points of %s in %d positions",
				 verdicts[v],
				 renju_verdict_name((enum renju_verdict)v),
				 CLASSIFY_POSITIONS);
}

/* ---- whole games ---- */

/* Plays 1 to 3 random stones within two of the centre. */
static void opening_play(struct prng *prng, struct game *game)
{
	int stones = 1 + random_below(prng, 3);
	int centre = game->board.size / 2;

	while (stones) {
		int x = centre - 2 + random_below(prng, 5);
		int y = centre - 2 + random_below(prng, 5);

		if (board_get(&game->board, x, y) != ROLE_NONE)
			continue;
		expect_int(game_play(game, game->to_move, x, y), MOVE_OK);
		stones--;
	}
}

/*
 * Plays one renju game between black at level black and white at level
 * white; fails if black ever picks a forbidden point. The game ends with
 * a full board, or when every empty point is forbidden to black (the
 * engine then has no move: -ENOSPC). Adds to *faced the
 * black moves chosen while some point was forbidden.
 */
static void game_run(struct engine *engine, struct prng *prng,
		     enum engine_level black, enum engine_level white,
		     uint32_t seed, int *faced)
{
	struct cell forbidden[BOARD_MAX_CELLS];
	struct game game;

	expect_int(game_init(&game, 15, RULE_RENJU, FULL_BOARD_DRAW), 0);
	opening_play(prng, &game);
	while (!game_is_over(&game)) {
		struct engine_limits limits = { .max_nodes = GAME_NODES,
						.seed = seed };
		enum role role = game.to_move;
		struct engine_result result;
		enum renju_verdict verdict;
		int err;

		if (role == ROLE_FRONT &&
		    renju_forbidden(&game.board, forbidden, BOARD_MAX_CELLS))
			(*faced)++;
		err = engine_choose(engine, &game.board, role, RULE_RENJU,
				    role == ROLE_FRONT ? black : white, &limits,
				    &result);
		if (err == -ENOSPC && role == ROLE_FRONT) {
			/* only when every empty point is forbidden to black */
			expect_int(renju_forbidden(&game.board, forbidden,
						   BOARD_MAX_CELLS),
				   game.board.size * game.board.size -
					   game.board.stones);
			break;
		}
		expect_int(err, 0);
		verdict = renju_judge(&game.board, result.x, result.y);
		if (role == ROLE_FRONT && renju_forbids(verdict))
			fail_msg("black at %s played (%d, %d), a %s, at move "
				 "%d",
				 engine_level_name(black), result.x, result.y,
				 renju_verdict_name(verdict),
				 game.moves_played + 1);
		expect_int(game_play(&game, role, result.x, result.y), MOVE_OK);
	}
	game_release(&game);
}

static void black_never_plays_a_forbidden_point_in_games(void **state)
{
	struct engine *engine = engine_new(1 << 16);
	struct prng prng = { 0x9a3e5u };
	int faced = 0;

	(void)state;
	assert_non_null(engine);
	for (int b = 0; b < LEVELS; b++)
		for (int w = 0; w < LEVELS; w++)
			for (int g = 0; g < GAMES_PER_PAIR; g++)
				game_run(engine, &prng, all_levels[b],
					 all_levels[w], (uint32_t)g, &faced);
	engine_free(engine);
	/* The games must have put black beside forbidden points. */
	printf("black chose %d moves with a point forbidden\n", faced);
	if (faced < 100)
		fail_msg("black chose only %d moves with a point forbidden",
			 faced);
}

/* ---- the threat search ---- */

/*
 * White's four on the diagonal C3..F6 leaves one five point, H8 at
 * (7, 7), which is black's double three (row and column): black may not
 * block there. Under freestyle black blocks and has no loss in sight.
 */
static const char *const diagonal_rows[] = {
	".............O.", /*  0 */
	"...............", /*  1 */
	"..X............", /*  2 */
	"...............", /*  3: white's four starts at (3, 3) */
	"....O..........", /*  4 */
	".....O.X.......", /*  5 */
	"......OX.......", /*  6 */
	".....XX........", /*  7: (7, 7) the double three */
	"........X......", /*  8 */
	"...............", /*  9 */
	"...............", /* 10 */
	"...............", /* 11 */
	"...............", /* 12 */
	"O..............", /* 13 */
	NULL,
};

static void white_wins_with_a_four_black_may_not_block(void **state)
{
	struct engine *engine = engine_new(1 << 16);
	struct cell line[8];
	struct engine_result result;
	struct board board;

	(void)state;
	assert_non_null(engine);
	board_draw(&board, 15, diagonal_rows);
	expect_enum(engine_classify(&board, RULE_RENJU, ROLE_FRONT, 7, 7),
		    ENGINE_THREAT_FORBIDDEN, engine_threat_name);
	/* The four, then the five black could not stop. */
	expect_int(engine_find_vcf(engine, &board, ROLE_BACK, RULE_RENJU, 0,
				   line, 8),
		   2);
	expect_int(line[0].x, 3);
	expect_int(line[0].y, 3);
	expect_int(line[1].x, 7);
	expect_int(line[1].y, 7);
	expect_int(engine_find_vcf(engine, &board, ROLE_BACK, RULE_FREESTYLE, 0,
				   line, 8),
		   0);
	engine_free(engine);

	result = choose(&board, ROLE_BACK, RULE_RENJU, ENGINE_MASTER,
			HARD_NODES);
	assert_true(cell_is(result, 3, 3));
	assert_true(result.forced);
	assert_true(result.score >= ENGINE_SCORE_WIN - ENGINE_SCORE_WIN_MARGIN);
}

static void black_never_blocks_on_a_forbidden_point(void **state)
{
	struct board board;

	(void)state;
	board_draw(&board, 15, diagonal_rows);
	board_set(&board, 3, 3, ROLE_BACK); /* the four: five at (7, 7) */
	for (int i = 0; i < LEVELS; i++) {
		struct engine_result result = choose(&board, ROLE_FRONT,
						     RULE_RENJU, all_levels[i],
						     HARD_NODES);

		if (cell_is(result, 7, 7))
			fail_msg("%s blocked on its double three",
				 engine_level_name(all_levels[i]));
		assert_false(
			renju_forbids(renju_judge(&board, result.x, result.y)));
		if (all_levels[i] >= ENGINE_HARD)
			assert_true(result.score <= -(ENGINE_SCORE_WIN -
						      ENGINE_SCORE_WIN_MARGIN));
	}
	/* Under freestyle the block is the only move. */
	for (int i = 0; i < LEVELS; i++)
		assert_true(cell_is(choose(&board, ROLE_FRONT, RULE_FREESTYLE,
					   all_levels[i], HARD_NODES),
				    7, 7));
}

/*
 * Black's G11 at (6, 10) would make two fours (row 10 and column 6):
 * a win under freestyle, forbidden under renju, where black's other fours
 * (H11 at (7, 10), G10 at (6, 9)) each leave G11 as a five to block.
 * White, to move, has a double three at K6 (10, 5).
 */
static const char *const double_four_rows[] = {
	"X..............", /*  0 */
	"...............", /*  1 */
	"...............", /*  2 */
	"..........O....", /*  3 */
	"..........O....", /*  4 */
	"........OO.....", /*  5: (10, 5) white's double three */
	"...............", /*  6 */
	"...............", /*  7 */
	"...............", /*  8 */
	"...............", /*  9 */
	"..OXXX.........", /* 10: (6, 10) black's double four */
	"......X........", /* 11 */
	"......X........", /* 12 */
	"......X........", /* 13 */
	"......O........", /* 14 */
	NULL,
};

static void black_has_no_vcf_through_a_forbidden_double_four(void **state)
{
	struct engine *engine = engine_new(1 << 16);
	struct cell line[8];
	struct board board;

	(void)state;
	assert_non_null(engine);
	board_draw(&board, 15, double_four_rows);
	expect_enum(engine_classify(&board, RULE_RENJU, ROLE_FRONT, 6, 10),
		    ENGINE_THREAT_FORBIDDEN, engine_threat_name);
	expect_enum(engine_classify(&board, RULE_FREESTYLE, ROLE_FRONT, 6, 10),
		    ENGINE_THREAT_OPEN_FOUR, engine_threat_name);
	expect_int(engine_find_vcf(engine, &board, ROLE_FRONT, RULE_FREESTYLE,
				   0, line, 8),
		   2);
	expect_int(engine_find_vcf(engine, &board, ROLE_FRONT, RULE_RENJU, 0,
				   line, 8),
		   0);
	engine_free(engine);
}

static void
white_attacks_where_black_may_not_answer_with_a_double_four(void **state)
{
	struct engine_result renju, freestyle;
	struct board board;
	bool defends;

	(void)state;
	board_draw(&board, 15, double_four_rows);
	/* Freestyle: black's double four comes first; white must stop it. */
	freestyle = choose(&board, ROLE_BACK, RULE_FREESTYLE, ENGINE_MASTER,
			   HARD_NODES);
	defends = cell_is(freestyle, 6, 10) || cell_is(freestyle, 7, 10) ||
		  cell_is(freestyle, 6, 9);
	if (!defends)
		fail_msg("freestyle: white played (%d, %d), not a defence",
			 freestyle.x, freestyle.y);
	/* Renju: it is no threat, and white's threats win. */
	renju = choose(&board, ROLE_BACK, RULE_RENJU, ENGINE_MASTER,
		       HARD_NODES);
	assert_true(renju.forced);
	assert_true(renju.score >= ENGINE_SCORE_WIN - ENGINE_SCORE_WIN_MARGIN);
	if (cell_is(renju, 6, 10) || cell_is(renju, 7, 10) ||
	    cell_is(renju, 6, 9))
		fail_msg("renju: white defended at (%d, %d)", renju.x, renju.y);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			classify_forbids_exactly_what_renju_judge_forbids),
		cmocka_unit_test(black_never_plays_a_forbidden_point_in_games),
		cmocka_unit_test(white_wins_with_a_four_black_may_not_block),
		cmocka_unit_test(black_never_blocks_on_a_forbidden_point),
		cmocka_unit_test(
			black_has_no_vcf_through_a_forbidden_double_four),
		cmocka_unit_test(
			white_attacks_where_black_may_not_answer_with_a_double_four),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
