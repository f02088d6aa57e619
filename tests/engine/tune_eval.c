/*
 * tune_eval.c - tune-eval: fits the evaluation's pattern weights to the
 * results of played games (Texel's method), and prints them as the
 * tables of core/engine/engine_patterns.c.
 *
 * The evaluation is linear in its weights: for the side to move s and the
 * other o, over the empty cells, the count of each line pattern (four per
 * cell), of each combined threat and of each pair of a cell's two best
 * patterns, s's less three quarters of o's (engine.c's evaluate()), times
 * pattern_worth[], threat_bonus[] and the rule's pair_bonus[]. Each
 * position of each game (after the opening, leaving out those where a
 * side has a five to play or the side to move an open four to make:
 * decided, not judged) is one sample, its label the game's result for the
 * side to move (1, 0.5, 0). The model is P(win) = 1 / (1 + exp(-E / K)):
 * K is fitted first with the weights as they are, then the weights by
 * Newton's method on the log loss, K fixed (so the scale stays the
 * engine's), with a ridge pulling each weight toward its present value
 * (weights the games say little about stay put).
 *
 *   tune-eval [--rule R] [--ridge L] [--share S] [--holdout N] [--pairs]
 *             GAMES.log...
 *   tune-eval --dump FILE [--rule R] GAMES.log...
 *
 * Without --pairs it fits the patterns' and threats' weights, the pair
 * bonuses held; with it, the rule's pair bonuses alone (the weights of
 * the patterns and threats are every rule's, the pairs the rule's own).
 * --share fits with another share of the other side's counts than
 * evaluate()'s three quarters, to see whether it predicts better;
 * --holdout N fits on all but every Nth game and reports the log loss on
 * those too (a fit that only learnt its own games does not lower it).
 *
 * --dump writes the same positions to FILE for the learnt evaluation's
 * trainer (train_net.py) and fits nothing: one a line, a hash of the
 * game's stones (one game in several logs is one game), its result for
 * the side to move, the stones on the board, then the network's inputs
 * (engine_net.h), the side to move's NET_FEATURES and the other's.
 *
 * The logs are gomoku-match's (--log): "n black winner end: x,y …".
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_net.h"
#include "engine_patterns.h"
#include "engine_position.h"
#include "game_log.h"

/* The weights fitted: patterns B1..F4, threats LOW..F4 (fives are not). */
#define FIRST_PATTERN PAT_B1
#define LAST_PATTERN PAT_F4
#define FIRST_THREAT THREAT_LOW
#define LAST_THREAT THREAT_F4
#define PATTERNS (LAST_PATTERN - FIRST_PATTERN + 1)
#define SINGLES (PATTERNS + LAST_THREAT - FIRST_THREAT + 1)
/* then the rule's pair bonuses: held, or with --pairs the ones fitted */
#define WEIGHTS (SINGLES + PAIR_COUNT)

/* The weights as the engine has them (engine_patterns.c). */
static double present[WEIGHTS];

static const char *const names[WEIGHTS] = {
	"PAT_B1",    "PAT_F1",	  "PAT_B2",    "PAT_F2",     "PAT_B3",
	"PAT_F3",    "PAT_B4",	  "PAT_F4",    "THREAT_LOW", "THREAT_F2",
	"THREAT_22", "THREAT_B3", "THREAT_F3", "THREAT_33",  "THREAT_B4",
	"THREAT_43", "THREAT_F4", "B2+B2",     "F2+B2",	     "F2+F2",
	"B3+B2",     "B3+F2",	  "B3+B3",     "F3+B2",	     "F3+F2",
	"F3+B3",     "F3+F3",	  "B4+B2",     "B4+F2",	     "B4+B3",
	"B4+F3",     "B4+B4",	  "F4+B2",     "F4+F2",	     "F4+B3",
	"F4+F3",     "F4+B4",	  "F4+F4",
};

/* --pairs: fit the pair bonuses, holding the others */
static bool pairs;

/* evaluate(): the other's share, three quarters (--share tries others) */
static double other_share = 0.75;

struct sample {
	float x[WEIGHTS]; /* s's counts less other_share of o's */
	float y;	  /* the result for the side to move */
	bool held;	  /* held out: judged, not fitted on */
};

/* --dump: the positions' network inputs go here; NULL: fit */
static FILE *dump;

/* --holdout: every this many games is held out; 0: none */
static int holdout;
static int games_read;

static struct sample *samples;
static size_t sample_count, sample_capacity;

/* The features of the position for side to move. */
static void features(const struct position *pos, enum role side, float *x)
{
	enum role other = role_other(side);
	int idx, dir, k;

	memset(x, 0, WEIGHTS * sizeof(*x));
	for (idx = 0; idx < POS_CELLS; idx++) {
		if (pos->cell[idx] != POS_EMPTY)
			continue;
		for (k = 0; k < 2; k++) {
			enum role role = k ? other : side;
			double share = k ? -other_share : 1.0;
			int threat = position_threat(pos, idx, role);
			int n[PAT_COUNT] = { 0 }, pair;

			if (role == ROLE_FRONT &&
			    pos->cells[idx].worth.forbidden)
				continue; /* worth nothing to black */
			for (dir = 0; dir < 4; dir++) {
				int p = position_pattern(pos, idx, dir, role);

				n[p]++;
				if (p >= FIRST_PATTERN && p <= LAST_PATTERN)
					x[p - FIRST_PATTERN] += (float)share;
			}
			pair = pattern_pair(n);
			if (pair >= 0)
				x[SINGLES + pair] += (float)share;
			if (threat >= FIRST_THREAT && threat <= LAST_THREAT)
				x[PATTERNS + threat - FIRST_THREAT] +=
					(float)share;
		}
	}
}

static void sample_add(const float *x, float y, bool held)
{
	if (sample_count == sample_capacity) {
		sample_capacity = sample_capacity ? 2 * sample_capacity : 4096;
		samples = realloc(samples, sample_capacity * sizeof(*samples));
		if (!samples) {
			perror("tune-eval");
			exit(1);
		}
	}
	memcpy(samples[sample_count].x, x, sizeof(samples[0].x));
	samples[sample_count].held = held;
	samples[sample_count++].y = y;
}

/*
 * One line of --dump: the game, the result for side, the stones, and the
 * network's inputs of side and of the other, each the sum of its empty
 * cells' (none from a cell renju forbids black).
 */
static void dump_position(const struct position *pos, enum role side,
			  uint64_t game_hash, double result)
{
	float inputs[2][NET_FEATURES] = { { 0 } }, cell[NET_FEATURES];
	int idx, k, i;

	for (idx = 0; idx < POS_CELLS; idx++) {
		if (pos->cell[idx] != POS_EMPTY)
			continue;
		for (k = 0; k < 2; k++) {
			enum role role = k ? role_other(side) : side;

			if (role == ROLE_FRONT &&
			    pos->cells[idx].worth.forbidden)
				continue;
			net_features(pos->cells[idx].worth.combined[role - 1],
				     cell);
			for (i = 0; i < NET_FEATURES; i++)
				inputs[k][i] += cell[i];
		}
	}
	fprintf(dump, "%d %g %d", (int)(game_hash >> 33), result, pos->stones);
	for (k = 0; k < 2; k++)
		for (i = 0; i < NET_FEATURES; i++)
			fprintf(dump, " %g", inputs[k][i]);
	fputc('\n', dump);
}

/* Replays each game of a log into samples; the games read, or -1. */
static int log_read(const char *path, enum rule rule)
{
	FILE *file = fopen(path, "r");
	char line[8192];
	int games = 0;

	if (!file) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), file)) {
		static struct logged_game game;
		static struct position pos;
		enum role role = ROLE_FRONT;
		uint64_t game_hash;
		double black_score;
		/* the opening's stones are those before the first move: the
		 * log does not mark them, so skip the first six plies */
		int opening = 6, i;

		if (!logged_game_parse(line, &game))
			continue;
		black_score = !strcmp(game.winner, "draw")     ? 0.5 :
			      !strcmp(game.winner, game.black) ? 1.0 :
								 0.0;
		game_hash = 1469598103934665603ull; /* FNV-1a */
		for (i = 0; i < game.count; i++)
			game_hash = (game_hash ^ (unsigned)game.cells[i]) *
				    1099511628211ull;
		position_init(&pos, 15, rule, true);
		for (i = 0; i < game.count; i++) {
			enum role side;

			position_play(&pos, game.cells[i], role);
			role = role_other(role);
			side = role;
			if (pos.stones <= opening ||
			    pos.count[side][THREAT_F5] ||
			    pos.count[role_other(side)][THREAT_F5] ||
			    pos.count[side][THREAT_F4])
				continue;
			if (dump) {
				dump_position(&pos, side, game_hash,
					      side == ROLE_FRONT ?
						      black_score :
						      1 - black_score);
				continue;
			}
			{
				float x_[WEIGHTS];

				features(&pos, side, x_);
				sample_add(x_,
					   (float)(side == ROLE_FRONT ?
							   black_score :
							   1 - black_score),
					   holdout &&
						   games_read % holdout == 0);
			}
		}
		games++;
		games_read++;
	}
	fclose(file);
	return games;
}

static double eval_of(const double *w, const float *x)
{
	double e = 0;

	for (int i = 0; i < WEIGHTS; i++)
		e += w[i] * x[i];
	return e;
}

/* Mean log loss of weights w at scale k, on the held-out or the others. */
static double loss(const double *w, double k, bool held)
{
	double sum = 0;
	size_t n = 0;

	for (size_t i = 0; i < sample_count; i++) {
		if (samples[i].held != held)
			continue;
		n++;
		double p = 1 / (1 + exp(-eval_of(w, samples[i].x) / k));
		double y = samples[i].y;

		p = p < 1e-9 ? 1e-9 : p > 1 - 1e-9 ? 1 - 1e-9 : p;
		sum -= y * log(p) + (1 - y) * log(1 - p);
	}
	return n ? sum / (double)n : 0;
}

/* Solves a x = b (n x n, Gaussian elimination with pivoting). */
static int solve(double a[WEIGHTS][WEIGHTS], double *b, int n)
{
	for (int c = 0; c < n; c++) {
		int pivot = c;

		for (int r = c + 1; r < n; r++)
			if (fabs(a[r][c]) > fabs(a[pivot][c]))
				pivot = r;
		if (fabs(a[pivot][c]) < 1e-12)
			return -1;
		for (int k = 0; k < n; k++) {
			double t = a[c][k];

			a[c][k] = a[pivot][k];
			a[pivot][k] = t;
		}
		double t = b[c];
		b[c] = b[pivot];
		b[pivot] = t;
		for (int r = 0; r < n; r++) {
			if (r == c)
				continue;
			double f = a[r][c] / a[c][c];

			for (int k = c; k < n; k++)
				a[r][k] -= f * a[c][k];
			b[r] -= f * b[c];
		}
	}
	for (int c = 0; c < n; c++)
		b[c] /= a[c][c];
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "rule", required_argument, NULL, 'r' },
		{ "ridge", required_argument, NULL, 'l' },
		{ "share", required_argument, NULL, 's' },
		{ "holdout", required_argument, NULL, 'h' },
		{ "pairs", no_argument, NULL, 'p' },
		{ "dump", required_argument, NULL, 'd' },
		{ 0 },
	};
	enum rule rule = RULE_FREESTYLE;
	double ridge = 1e-4, k = 100, best_k, best, w[WEIGHTS];
	int option, games = 0, i, step;

	while ((option = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		if (option == 'r' && rule_parse(optarg, &rule))
			continue;
		if (option == 'l') {
			ridge = strtod(optarg, NULL);
			continue;
		}
		if (option == 'h') {
			holdout = atoi(optarg);
			continue;
		}
		if (option == 'p') {
			pairs = true;
			continue;
		}
		if (option == 'd') {
			dump = fopen(optarg, "w");
			if (!dump) {
				perror(optarg);
				return 1;
			}
			continue;
		}
		if (option == 's') {
			other_share = strtod(optarg, NULL);
			continue;
		}
		fprintf(stderr,
			"usage: tune-eval [--rule R] [--ridge L] "
			"[--share S] [--holdout N] [--pairs] GAMES.log...\n"
			"       tune-eval --dump FILE [--rule R] GAMES.log...\n");
		return 2;
	}
	patterns_table(rule);
	for (i = 0; i < PATTERNS; i++)
		present[i] = pattern_worth[FIRST_PATTERN + i];
	for (i = PATTERNS; i < SINGLES; i++)
		present[i] = threat_bonus[FIRST_THREAT + i - PATTERNS];
	for (i = SINGLES; i < WEIGHTS; i++)
		present[i] = pair_bonus[rule][i - SINGLES];
	for (i = optind; i < argc; i++) {
		int n = log_read(argv[i], rule);

		if (n < 0)
			return 1;
		games += n;
	}
	if (dump) {
		printf("%d games written to the dump\n", games);
		return fclose(dump) ? 1 : 0;
	}
	if (!sample_count) {
		fprintf(stderr, "tune-eval: no positions\n");
		return 1;
	}
	memcpy(w, present, sizeof(w));
	/* K: the scale at which the present weights predict best */
	best_k = k;
	best = loss(w, k, false);
	for (k = 10; k <= 5000; k *= 1.1) {
		double l = loss(w, k, false);

		if (l < best) {
			best = l;
			best_k = k;
		}
	}
	k = best_k;
	printf("%d games, %zu positions; K %.0f; log loss of the present "
	       "weights %.5f (held out: %.5f)\n",
	       games, sample_count, k, best, loss(w, k, true));

	for (step = 0; step < 20; step++) {
		double grad[WEIGHTS] = { 0 },
		       hess[WEIGHTS][WEIGHTS] = { { 0 } };
		double n = 0;

		for (size_t s = 0; s < sample_count; s++)
			n += !samples[s].held;

		for (size_t s = 0; s < sample_count; s++) {
			const float *x = samples[s].x;

			if (samples[s].held)
				continue;
			double p = 1 / (1 + exp(-eval_of(w, x) / k));
			double g = (p - samples[s].y) / k,
			       h = p * (1 - p) / k / k;

			for (i = 0; i < WEIGHTS; i++) {
				grad[i] += g * x[i] / n;
				for (int j = 0; j <= i; j++)
					hess[i][j] += h * x[i] * x[j] / n;
			}
		}
		for (i = 0; i < WEIGHTS; i++) {
			for (int j = 0; j < i; j++)
				hess[j][i] = hess[i][j];
			/* the ridge, relative to the weight's size; with
			 * --pairs the others held where they are, and
			 * without, the pairs */
			double scale = present[i] > 1 ? present[i] : 1;

			if (pairs != (i >= SINGLES))
				scale = 1e-4;

			grad[i] +=
				ridge * (w[i] - present[i]) / (scale * scale);
			hess[i][i] += ridge / (scale * scale) + 1e-12;
		}
		if (solve(hess, grad, WEIGHTS)) {
			fprintf(stderr, "tune-eval: singular\n");
			return 1;
		}
		for (i = 0; i < WEIGHTS; i++)
			w[i] -= grad[i];
	}
	printf("log loss of the fitted weights %.5f (held out: %.5f)\n\n",
	       loss(w, k, false), loss(w, k, true));
	for (i = 0; i < WEIGHTS; i++)
		printf("%-11s %7.1f -> %7.1f\n", names[i], present[i], w[i]);
	/* as engine_patterns.c's tables, rounded; fives kept as they are */
	printf("\npattern_worth: ");
	for (i = 0; i < PATTERNS; i++)
		printf("[%s] = %ld, ", names[i], lround(w[i]));
	printf("\nthreat_bonus: ");
	for (i = PATTERNS; i < SINGLES; i++)
		printf("[%s] = %ld, ", names[i], lround(w[i]));
	printf("\npair_bonus[%s]: ", rule_name(rule));
	for (i = SINGLES; i < WEIGHTS; i++)
		printf("%ld, ", lround(w[i]));
	printf("\n");
	return 0;
}
