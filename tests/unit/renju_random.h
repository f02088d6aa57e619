/*
 * renju_random.h - random positions for the renju property tests
 * (test_renju.c, test_engine_renju.c): a fixed-seed generator, so every
 * run sees the same positions, and positions crowded in the middle so
 * that shapes form.
 */
#ifndef GOMOKU_TEST_RENJU_RANDOM_H
#define GOMOKU_TEST_RENJU_RANDOM_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"

/* A fixed-seed xorshift64* generator: the same positions every run. */
struct prng {
	uint64_t state; /* never 0 */
};

/* The next 32 random bits. */
uint32_t random_next(struct prng *prng);

/* A number from 0 to below - 1. */
int random_below(struct prng *prng, int below);

/*
 * Fills board with a random position: mostly 15 x 15, one in ten another
 * size; from a few stones to a crowded middle game, black somewhat more
 * numerous than white so that black shapes form. A black stone that would
 * make five or more is not placed when fives is false.
 */
void renju_random_position(struct prng *prng, struct board *board, bool fives);

#endif
