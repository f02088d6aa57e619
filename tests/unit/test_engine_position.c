/*
 * test_engine_position.c - the engine's board (core/engine/
 * engine_position.c): position_undo() puts back exactly what
 * position_play() changed, under every rule, through random sequences of
 * stones and takebacks; and the incremental patterns of a position match
 * those of the same stones set up from scratch.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine_position.h"
#include "renju_random.h"

/* The part of a position that is its state (the undo stack is not). */
#define STATE_SIZE offsetof(struct position, moves)

/* Stones a sequence plays at most; takebacks are a third of the steps. */
#define STEPS 160

/* A random empty cell near the middle that role may play, or -1. */
static int random_cell(struct prng *prng, const struct position *pos,
		       enum role role)
{
	int tries;

	for (tries = 0; tries < 200; tries++) {
		int x = 2 + random_below(prng, pos->size - 4);
		int y = 2 + random_below(prng, pos->size - 4);
		int idx = position_index(x, y);

		if (pos->cell[idx] == POS_EMPTY &&
		    position_playable(pos, idx, role))
			return idx;
	}
	return -1;
}

/*
 * Plays and takes back at random under rule; after each takeback the
 * position is byte for byte what it was before the stone.
 */
static void undo_restores(enum rule rule, uint64_t seed, int sequences)
{
	struct position *pos = malloc(sizeof(*pos));
	unsigned char *before = malloc((size_t)STEPS * STATE_SIZE);
	struct prng prng = { .state = seed };
	int sequence, checked = 0;

	assert_non_null(pos);
	assert_non_null(before);
	for (sequence = 0; sequence < sequences; sequence++) {
		enum role role = ROLE_FRONT;
		int step;

		position_init(pos, 15, rule);
		position_judge_all(pos);
		for (step = 0; step < STEPS; step++) {
			int idx;

			if (pos->stones && random_below(&prng, 3) == 0) {
				position_undo(pos);
				role = role_other(role);
				assert_memory_equal(
					pos, before + pos->stones * STATE_SIZE,
					STATE_SIZE);
				checked++;
				continue;
			}
			idx = random_cell(&prng, pos, role);
			if (idx < 0 || pos->stones >= STEPS)
				break;
			memcpy(before + pos->stones * STATE_SIZE, pos,
			       STATE_SIZE);
			position_play(pos, idx, role);
			role = role_other(role);
		}
	}
	assert_true(checked > 100);
	free(before);
	free(pos);
}

static void undo_restores_freestyle(void **state)
{
	(void)state;
	undo_restores(RULE_FREESTYLE, 0x5eed0001, 8);
}

static void undo_restores_standard(void **state)
{
	(void)state;
	undo_restores(RULE_STANDARD, 0x5eed0002, 8);
}

static void undo_restores_renju(void **state)
{
	(void)state;
	undo_restores(RULE_RENJU, 0x5eed0003, 200);
}

/*
 * After stones played (and some taken back) one by one, every empty
 * cell's patterns, threats and values and the totals are those of a
 * position given the same stones in another order.
 */
static void incremental_matches_from_scratch(void **state)
{
	struct position *pos = malloc(sizeof(*pos));
	struct position *fresh = malloc(sizeof(*fresh));
	struct prng prng = { .state = 0x5eed0004 };
	int sequence;

	(void)state;
	assert_non_null(pos);
	assert_non_null(fresh);
	for (sequence = 0; sequence < 20; sequence++) {
		enum rule rule = sequence % 2 ? RULE_STANDARD : RULE_FREESTYLE;
		enum role role = ROLE_FRONT;
		int step, i, idx;

		position_init(pos, 15, rule);
		for (step = 0; step < 60; step++) {
			if (pos->stones && random_below(&prng, 4) == 0) {
				position_undo(pos);
				role = role_other(role);
				continue;
			}
			idx = random_cell(&prng, pos, role);
			if (idx < 0)
				break;
			position_play(pos, idx, role);
			role = role_other(role);
		}
		/* the same stones, last first */
		position_init(fresh, 15, rule);
		for (i = pos->stones - 1; i >= 0; i--)
			position_play(fresh, pos->moves[i],
				      (enum role)pos->cell[pos->moves[i]]);
		assert_memory_equal(pos->code, fresh->code, sizeof(pos->code));
		for (idx = 0; idx < POS_CELLS; idx++) {
			if (pos->cell[idx] != POS_EMPTY)
				continue;
			assert_memory_equal(pos->pat[idx], fresh->pat[idx], 4);
			for (i = ROLE_FRONT; i <= ROLE_BACK; i++) {
				assert_int_equal(pos->threat[i][idx],
						 fresh->threat[i][idx]);
				assert_int_equal(pos->value[i][idx],
						 fresh->value[i][idx]);
			}
		}
		assert_memory_equal(pos->total, fresh->total,
				    sizeof(pos->total));
		assert_memory_equal(pos->count, fresh->count,
				    sizeof(pos->count));
		assert_true(pos->key == fresh->key);
	}
	free(fresh);
	free(pos);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(undo_restores_freestyle),
		cmocka_unit_test(undo_restores_standard),
		cmocka_unit_test(undo_restores_renju),
		cmocka_unit_test(incremental_matches_from_scratch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
