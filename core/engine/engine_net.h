/*
 * engine_net.h - the learnt evaluation: a network of one hidden layer
 * over what the empty cells would make for each side, fitted to the
 * results of played games (tests/engine/train_net.py; see ENGINE.md).
 *
 * Its inputs are, for the side to move and apart for the other, the
 * counts over the empty cells of each line pattern (B1 to F4), of each
 * threat (LOW to F4) and of each pair of a cell's two best patterns: the
 * terms of the linear evaluation, kept apart so that the network can
 * weigh them together (two open threes to make for the side to move are
 * not worth two of one). A cell's inputs depend only on its four
 * patterns, so the first layer's sums are kept up to date cell by cell
 * by engine_position.c, in fixed point: a cell whose patterns change
 * moves its side's sums from net_cell[] of the old class to the new.
 * Evaluating is then NET_HIDDEN multiply-adds.
 *
 * Internal to the engine. The tables are built once, by net_tables(),
 * after patterns_table() (they read its combined tables), and are
 * read-only from then on.
 */
#ifndef GOMOKU_ENGINE_NET_H
#define GOMOKU_ENGINE_NET_H

#include <stdint.h>

#include "engine_patterns.h"

#define NET_HIDDEN 16	 /* the hidden layer's width */
#define NET_FEATURES 38	 /* per side: 8 patterns, 9 threats, 21 pairs */
#define NET_CLASSES 1365 /* multisets of four of the PAT_COUNT patterns */
#define NET_ONE 65536	 /* the first layer's fixed point: 1.0 */

/* The first layer's sums of one side: as the mover's and as the other's. */
enum net_view {
	NET_MOVER,
	NET_OTHER,
	NET_VIEWS,
};

/*
 * NET_HIDDEN first-layer sums, fixed point, four to a vector (the
 * compilers' vector extension: a sum of sums is a few vector adds).
 */
typedef int32_t net_lanes __attribute__((vector_size(16)));
#define NET_LANES (NET_HIDDEN / 4)
struct net_sums {
	net_lanes lane[NET_LANES];
};

/* A cell's four patterns (combined) -> their class (order left out). */
extern uint16_t net_class[COMBINED_COUNT];

/* What a cell of a class adds to its side's sums, per view. */
extern struct net_sums net_cell[NET_CLASSES][NET_VIEWS];

/* Builds the tables above once (after patterns_table()). */
void net_tables(void);

/*
 * The inputs one cell with these four patterns (combined) gives its side,
 * in the order of the weights' rows: the count of each pattern B1..F4,
 * then its threat (LOW..F4) and its pair (pattern_pair()), one-hot.
 */
void net_features(int combined, float features[NET_FEATURES]);

/*
 * The evaluation, from the mover's view, in the linear evaluation's
 * units: the mover's sums as the mover and the other's as the other.
 */
int net_output(const struct net_sums *mover, const struct net_sums *other);

#endif
