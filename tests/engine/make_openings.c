/*
 * make_openings.c - make-openings: writes a file of balanced openings for
 * gomoku-match (tests/engine/openings-*.txt were made with it).
 *
 * Each candidate is 3 to 6 stones, alternating from black, each within
 * two cells of one already placed and all within three of the centre,
 * from a fixed seed. The master level searches it (a node budget, no
 * deadline: the same file on any machine) for the side to move, first
 * with a sixteenth of --nodes (within twice --margin to go on), then
 * with all; it is kept when that side has no forced win, the score is
 * within --margin of even (the evaluation's scale: a stone more is worth
 * about 400), and no rotation or reflection of it was kept before. Under renju
 * black's stones are never forbidden points.
 *
 *   make-openings [--count N] [--seed S] [--rule R] [--nodes N]
 *                 [--margin M]
 *
 * Prints the openings as gomoku-match reads them: "dx,dy" per stone,
 * black's first, with the score as a comment.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "renju.h"

#define OPENINGS_SIZE 15
#define OPENINGS_MAX 1000
#define OPENINGS_STONES 6
#define OPENINGS_RADIUS 3

struct candidate {
	int count;
	struct cell stones[OPENINGS_STONES]; /* relative to the centre */
};

static uint32_t next_random(uint32_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

/* A key of the stones under one of the 8 symmetries (and colours). */
static uint64_t candidate_key(const struct candidate *c, int symmetry)
{
	uint8_t cells[2 * OPENINGS_RADIUS + 1][2 * OPENINGS_RADIUS + 1] = {
		{ 0 }
	};
	uint64_t key = 1469598103934665603ull;
	int i, x, y;

	for (i = 0; i < c->count; i++) {
		int dx = c->stones[i].x, dy = c->stones[i].y, t;

		if (symmetry & 1)
			dx = -dx;
		if (symmetry & 2)
			dy = -dy;
		if (symmetry & 4) {
			t = dx;
			dx = dy;
			dy = t;
		}
		cells[dy + OPENINGS_RADIUS][dx + OPENINGS_RADIUS] =
			(uint8_t)(1 + i % 2);
	}
	for (y = 0; y <= 2 * OPENINGS_RADIUS; y++)
		for (x = 0; x <= 2 * OPENINGS_RADIUS; x++)
			key = (key ^ cells[y][x]) * 1099511628211ull;
	return key;
}

/* The smallest key over the symmetries: the same for all of them. */
static uint64_t candidate_canonical(const struct candidate *c)
{
	uint64_t best = UINT64_MAX;
	int s;

	for (s = 0; s < 8; s++) {
		uint64_t key = candidate_key(c, s);

		if (key < best)
			best = key;
	}
	return best;
}

/* Draws a candidate onto board; false when it broke a rule. */
static bool candidate_draw(struct candidate *c, struct board *board,
			   enum rule rule, uint32_t *state)
{
	int centre = OPENINGS_SIZE / 2, tries = 0;
	enum role role = ROLE_FRONT;

	board_init(board, OPENINGS_SIZE);
	c->count = 3 + (int)(next_random(state) % (OPENINGS_STONES - 2));
	for (int i = 0; i < c->count; i++) {
		int dx, dy, j;
		bool near = i == 0;

		dx = (int)(next_random(state) % (2 * OPENINGS_RADIUS + 1)) -
		     OPENINGS_RADIUS;
		dy = (int)(next_random(state) % (2 * OPENINGS_RADIUS + 1)) -
		     OPENINGS_RADIUS;
		for (j = 0; j < i; j++)
			if (abs(c->stones[j].x - dx) <= 2 &&
			    abs(c->stones[j].y - dy) <= 2)
				near = true;
		if (!near ||
		    board_get(board, centre + dx, centre + dy) != ROLE_NONE ||
		    (rule == RULE_RENJU && role == ROLE_FRONT &&
		     renju_forbids(
			     renju_judge(board, centre + dx, centre + dy)))) {
			if (++tries > 100)
				return false;
			i--;
			continue;
		}
		board_set(board, centre + dx, centre + dy, role);
		c->stones[i] = (struct cell){ dx, dy };
		role = role_other(role);
	}
	return true;
}

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 's' },
		{ "rule", required_argument, NULL, 'r' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "margin", required_argument, NULL, 'm' },
		{ 0 },
	};
	static uint64_t kept[OPENINGS_MAX];
	int count = 100, margin = 50, found = 0, tried = 0, option;
	uint32_t state = 20261127;
	uint64_t nodes = 300000;
	enum rule rule = RULE_FREESTYLE;
	struct engine *engine;

	while ((option = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (option) {
		case 'c':
			count = atoi(optarg);
			break;
		case 's':
			state = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 'r':
			if (!rule_parse(optarg, &rule))
				return 2;
			break;
		case 'n':
			nodes = strtoull(optarg, NULL, 10);
			break;
		case 'm':
			margin = atoi(optarg);
			break;
		default:
			fprintf(stderr,
				"usage: make-openings [--count N] [--seed S] "
				"[--rule R] [--nodes N] [--margin M]\n");
			return 2;
		}
	}
	if (count < 1 || count > OPENINGS_MAX || !state || !nodes) {
		fprintf(stderr, "make-openings: bad arguments\n");
		return 2;
	}
	engine = engine_new(0);
	if (!engine)
		return 1;
	printf("# %d balanced openings, %s, board %d: make-openings --count "
	       "%d --seed %" PRIu32 " --rule %s --nodes %" PRIu64
	       " --margin %d\n",
	       count, rule_name(rule), OPENINGS_SIZE, count, state,
	       rule_name(rule), nodes, margin);
	printf("# stones dx,dy from the centre, black's first; the score is "
	       "master's for the side to move\n");
	while (found < count) {
		struct engine_limits limits = { .max_nodes = nodes, .seed = 1 };
		struct engine_result result;
		struct candidate c;
		struct board board;
		enum role to_move;
		uint64_t key;
		bool seen = false;
		int i;

		if (!candidate_draw(&c, &board, rule, &state))
			continue;
		to_move = c.count % 2 ? ROLE_BACK : ROLE_FRONT;
		tried++;
		key = candidate_canonical(&c);
		for (i = 0; i < found; i++)
			seen = seen || kept[i] == key;
		if (seen)
			continue;
		/* a quick look first: most candidates are far from even */
		limits.max_nodes = nodes / 16;
		if (engine_choose(engine, &board, to_move, rule, ENGINE_MASTER,
				  &limits, &result) ||
		    result.forced || abs(result.score) > 2 * margin)
			continue;
		limits.max_nodes = nodes;
		if (engine_choose(engine, &board, to_move, rule, ENGINE_MASTER,
				  &limits, &result) ||
		    result.forced || abs(result.score) > margin)
			continue;
		kept[found++] = key;
		for (i = 0; i < c.count; i++)
			printf("%s%d,%d", i ? " " : "", c.stones[i].x,
			       c.stones[i].y);
		printf("  # %+d\n", result.score);
		fflush(stdout);
	}
	fprintf(stderr, "make-openings: kept %d of %d\n", found, tried);
	engine_free(engine);
	return 0;
}
