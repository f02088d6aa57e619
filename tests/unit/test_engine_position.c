/*
 * test_engine_position.c - the engine's board (core/engine/
 * engine_position.c): position_undo() puts back exactly what
 * position_play() changed, under every rule, through random sequences of
 * stones and takebacks; the incremental patterns of a position match
 * those of the same stones set up from scratch; a cell's value is the
 * sum of its weights (patterns, threat, and its best two patterns' pair
 * under the rules that weigh pairs); and the learnt evaluation of a
 * position, from the sums kept cell by cell, is the network worked out
 * here on the counts of its empty cells.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine_net.h"
#include "engine_net_weights.h"
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

		position_init(pos, 15, rule, true);
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

		position_init(pos, 15, rule, true);
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
		position_init(fresh, 15, rule, true);
		for (i = pos->stones - 1; i >= 0; i--)
			position_play(fresh, pos->moves[i],
				      (enum role)pos->cell[pos->moves[i]]);
		for (idx = 0; idx < POS_CELLS; idx++) {
			assert_memory_equal(pos->cells[idx].code,
					    fresh->cells[idx].code,
					    sizeof(pos->cells[idx].code));
			if (pos->cell[idx] != POS_EMPTY)
				continue;
			assert_memory_equal(pos->cells[idx].worth.pat,
					    fresh->cells[idx].worth.pat, 4);
			for (i = ROLE_FRONT; i <= ROLE_BACK; i++) {
				assert_int_equal(position_threat(pos, idx, i),
						 position_threat(fresh, idx,
								 i));
				assert_int_equal(position_value(pos, idx, i),
						 position_value(fresh, idx, i));
			}
		}
		assert_memory_equal(pos->total, fresh->total,
				    sizeof(pos->total));
		assert_memory_equal(pos->count, fresh->count,
				    sizeof(pos->count));
		assert_memory_equal(pos->net, fresh->net, sizeof(pos->net));
		assert_true(pos->key == fresh->key);
	}
	free(fresh);
	free(pos);
}

/* pattern_pair(): the best two of B2..F4, the better first; or -1. */
static void pair_is_the_best_two(void **state)
{
	int n[PAT_COUNT] = { 0 };

	(void)state;
	n[PAT_F3] = 1;
	n[PAT_B1] = 2;
	assert_int_equal(pattern_pair(n), -1); /* ones do not pair */
	n[PAT_B4] = 1;
	n[PAT_F2] = 1;
	/* B4 is kind 4, F3 kind 3: row 4 starts at 4 * 5 / 2 = 10 */
	assert_int_equal(pattern_pair(n), 10 + 3);
	n[PAT_F3] = 2;
	n[PAT_B4] = 0;
	assert_int_equal(pattern_pair(n), 6 + 3); /* two open threes */
	memset(n, 0, sizeof(n));
	n[PAT_F2] = 1;
	n[PAT_F5] = 1; /* a five is no part of a pair */
	assert_int_equal(pattern_pair(n), -1);
	n[PAT_B2] = 3;
	assert_int_equal(pattern_pair(n), 1 + 0);
}

/*
 * Every empty cell's value, worked out here from its four patterns: their
 * worth, the bonus of the threat it holds, and, when the position weighs
 * pairs, the pair bonus of the rule for its two best patterns (counted
 * here, not by pattern_pair()).
 */
static void value_is_the_sum_of_the_weights(void **state)
{
	static struct position pos;
	struct prng prng = { .state = 0x5eed0005 };
	int pair, round;

	(void)state;
	for (round = 0; round < 4; round++) {
		enum rule rule = round % 2 ? RULE_STANDARD : RULE_FREESTYLE;
		bool pairs = round < 2;
		enum role role = ROLE_FRONT;
		int step, idx, checked = 0, paired = 0;

		position_init(&pos, 15, rule, pairs);
		for (step = 0; step < 40; step++) {
			idx = random_cell(&prng, &pos, role);
			if (idx < 0 || pos.count[ROLE_FRONT][THREAT_F5] ||
			    pos.count[ROLE_BACK][THREAT_F5])
				break;
			position_play(&pos, idx, role);
			role = role_other(role);
		}
		for (idx = 0; idx < POS_CELLS; idx++) {
			int r, dir;

			if (pos.cell[idx] != POS_EMPTY)
				continue;
			for (r = ROLE_FRONT; r <= ROLE_BACK; r++) {
				int sum = threat_bonus[position_threat(&pos,
								       idx, r)];
				int best = -1, second = -1;

				for (dir = 0; dir < 4; dir++) {
					int p = position_pattern(&pos, idx, dir,
								 r);

					sum += pattern_worth[p];
					if (p < PAT_B2 || p > PAT_F4)
						continue;
					if (p > best) {
						second = best;
						best = p;
					} else if (p > second) {
						second = p;
					}
				}
				if (second >= 0 && pairs) {
					int hi = best - PAT_B2;

					sum += pair_bonus[rule]
							 [hi * (hi + 1) / 2 +
							  second - PAT_B2];
				}
				paired += second >= 0;
				assert_int_equal(position_value(&pos, idx, r),
						 sum);
				checked++;
			}
		}
		assert_true(checked > 100);
		assert_true(paired > 10); /* the pairs were there to weigh */
	}
	/* the rules other than freestyle weigh no pairs */
	for (pair = 0; pair < PAIR_COUNT; pair++)
		assert_int_equal(pair_bonus[RULE_STANDARD][pair], 0);
}

/*
 * The network of engine_net_weights.h on side's inputs, worked out in
 * floating point from the counts over pos's empty cells (each from its
 * patterns read one by one; none from a cell renju forbids black), in
 * the evaluation's units.
 */
static int net_by_hand(const struct position *pos, enum role side)
{
	double inputs[2][NET_FEATURES] = { { 0 } }, sum = net_b2;
	int idx, k, i, h;

	for (idx = 0; idx < POS_CELLS; idx++) {
		if (pos->cell[idx] != POS_EMPTY)
			continue;
		for (k = 0; k < 2; k++) {
			enum role role = k ? role_other(side) : side;
			int n[PAT_COUNT] = { 0 }, threat, pair, dir;

			if (role == ROLE_FRONT &&
			    pos->cells[idx].worth.forbidden)
				continue;
			for (dir = 0; dir < 4; dir++)
				n[position_pattern(pos, idx, dir, role)]++;
			for (i = PAT_B1; i <= PAT_F4; i++)
				inputs[k][i - PAT_B1] += n[i];
			threat = position_threat(pos, idx, role);
			if (threat >= THREAT_LOW && threat <= THREAT_F4)
				inputs[k][PAT_F4 - PAT_B1 + 1 + threat -
					  THREAT_LOW]++;
			pair = pattern_pair(n);
			if (pair >= 0)
				inputs[k][NET_FEATURES - PAIR_COUNT + pair]++;
		}
	}
	for (h = 0; h < NET_HIDDEN; h++) {
		double pre = net_b1[h];

		for (k = 0; k < 2; k++)
			for (i = 0; i < NET_FEATURES; i++)
				pre += net_w1[k * NET_FEATURES + i][h] *
				       inputs[k][i];
		if (pre > 0)
			sum += net_w2[h] * pre;
	}
	return (int)lrint(sum * 200);
}

/*
 * Through random games (some stones taken back) under freestyle and
 * renju, net_output() of the sums the position kept is the network
 * worked out by hand, give or take the fixed point's rounding, for either
 * side to move; and it tells the positions apart.
 */
static void net_is_the_network_of_the_counts(void **state)
{
	static struct position pos;
	struct prng prng = { .state = 0x5eed0006 };
	int lowest = 1 << 30, highest = -(1 << 30), checked = 0, game;

	(void)state;
	for (game = 0; game < 12; game++) {
		enum rule rule = game % 3 ? RULE_FREESTYLE : RULE_RENJU;
		enum role role = ROLE_FRONT;
		int step;

		position_init(&pos, 15, rule, true);
		for (step = 0; step < 50; step++) {
			enum role side;
			int idx;

			if (pos.stones && random_below(&prng, 4) == 0) {
				position_undo(&pos);
				role = role_other(role);
				continue;
			}
			idx = random_cell(&prng, &pos, role);
			if (idx < 0)
				break;
			position_play(&pos, idx, role);
			role = role_other(role);
			for (side = ROLE_FRONT; side <= ROLE_BACK; side++) {
				enum role other = role_other(side);
				int kept = net_output(
					&pos.net[side - 1][NET_MOVER],
					&pos.net[other - 1][NET_OTHER]);
				int by_hand = net_by_hand(&pos, side);

				assert_true(abs(kept - by_hand) <= 2);
				lowest = kept < lowest ? kept : lowest;
				highest = kept > highest ? kept : highest;
				checked++;
			}
		}
	}
	assert_true(checked > 500);
	assert_true(highest - lowest > 200); /* more than a constant */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(undo_restores_freestyle),
		cmocka_unit_test(undo_restores_standard),
		cmocka_unit_test(undo_restores_renju),
		cmocka_unit_test(incremental_matches_from_scratch),
		cmocka_unit_test(pair_is_the_best_two),
		cmocka_unit_test(value_is_the_sum_of_the_weights),
		cmocka_unit_test(net_is_the_network_of_the_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
