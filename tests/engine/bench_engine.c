/*
 * bench_engine.c - plays one engine level against another over many games
 * from varied openings and prints the results and the move times.
 *
 * Each opening is 1 to 3 stones near the centre (from a fixed seed),
 * played twice with the colours swapped, so each level plays it as front
 * and as back. Move times are measured with CLOCK_MONOTONIC (wall) and
 * CLOCK_THREAD_CPUTIME_ID (this thread's CPU) around engine_choose().
 *
 * With --ladder it plays every pair of neighbouring levels instead
 * (easy against beginner, ..., master against hard), each at its default
 * node budget, and prints one table: the stronger level's wins, draws,
 * losses and score, and the Elo difference that score means, with a 95 %
 * margin from the score's standard error.
 *
 *   bench-engine [--openings N] [--seed S] [--size N] [--rule R]
 *                [--level L] [--against L] [--nodes N] [--deadline-ms M]
 *                [--min-win-rate P] [--min-back-win-rate P]
 *                [--max-p99-ms M] [--verbose]
 *   bench-engine --ladder [--openings N] [--seed S] [--size N] [--rule R]
 *                [--deadline-ms M] [--min-score P] [--max-score P]
 *                [--verbose]
 *
 * Exits 1 when a --min-* or --max-* target is missed, 2 on bad usage.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "elo.h"
#include "engine.h"
#include "game.h"

/* What the command line asks for. */
struct bench_options {
	int openings;		   /* each played twice */
	uint32_t seed;		   /* of the openings and the engines */
	int size;		   /* board size */
	enum rule rule;		   /* freestyle, standard or renju */
	enum engine_level level;   /* the level measured */
	enum engine_level against; /* its opponent */
	uint64_t nodes;		   /* node budget of the level measured */
	uint64_t deadline_ms;	   /* its deadline per move; 0: none */
	double min_win_rate;	   /* targets; negative: none */
	double min_back_win_rate;  /* as back */
	double max_p99_ms;	   /* wall p99 of its moves */
	bool ladder;		   /* every pair of neighbouring levels */
	double min_score;	   /* ladder: the stronger's score; <0: none */
	double max_score;	   /* ladder: at most this; negative: none */
	bool verbose;		   /* print every game */
};

/* Wins, losses and draws of the measured level in one colour. */
struct bench_tally {
	int games;  /* played in this colour */
	int wins;   /* the measured level won */
	int losses; /* its opponent won */
	int draws;  /* full board */
};

/* Every move time of the measured level. */
struct bench_times {
	double *wall_ms; /* per move */
	double *cpu_ms;	 /* per move */
	size_t count;	 /* moves measured */
	size_t capacity; /* allocated */
	uint64_t nodes;	 /* over all moves */
	int cut;	 /* moves that ran into the deadline */
};

/* A clock in microseconds, for the engine's deadline. */
static uint64_t monotonic_us(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static double clock_ms(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* xorshift32: the openings' random numbers. */
static uint32_t next_random(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

static int times_add(struct bench_times *times, double wall, double cpu,
		     uint64_t nodes)
{
	if (times->count == times->capacity) {
		size_t capacity = times->capacity ? times->capacity * 2 : 1024;
		double *wall_ms =
			realloc(times->wall_ms, capacity * sizeof(*wall_ms));

		if (!wall_ms)
			return -ENOMEM;
		times->wall_ms = wall_ms;
		double *cpu_ms =
			realloc(times->cpu_ms, capacity * sizeof(*cpu_ms));
		if (!cpu_ms)
			return -ENOMEM;
		times->cpu_ms = cpu_ms;
		times->capacity = capacity;
	}
	times->wall_ms[times->count] = wall;
	times->cpu_ms[times->count] = cpu;
	times->count++;
	times->nodes += nodes;
	return 0;
}

/*
 * Places opening number index: 1 to 3 stones, alternating from front, on
 * distinct cells within two of the centre. Returns 0 or a game error.
 */
static int opening_play(struct game *game, uint32_t seed, int index)
{
	uint32_t state = seed * 2654435761u + (uint32_t)index * 40503u + 1;
	int centre = game->board.size / 2;
	int stones, placed = 0, tries = 0;

	if (!state)
		state = 1;
	next_random(&state);
	stones = 1 + (int)(next_random(&state) % 3);
	while (placed < stones && tries++ < 1000) {
		int x = centre - 2 + (int)(next_random(&state) % 5);
		int y = centre - 2 + (int)(next_random(&state) % 5);

		if (board_get(&game->board, x, y) != ROLE_NONE)
			continue;
		if (game_play(game, game->to_move, x, y) != MOVE_OK)
			return -EINVAL;
		placed++;
	}
	return placed == stones ? 0 : -EINVAL;
}

/* game_run() on game, initialised by the caller. */
static enum game_winner game_run_on(const struct bench_options *options,
				    struct engine *measured,
				    struct engine *opponent, int index,
				    enum role role, struct bench_times *times,
				    struct game *game)
{
	if (opening_play(game, options->seed, index))
		return WINNER_NONE;
	while (!game_is_over(game)) {
		struct engine_limits limits = {
			.seed = options->seed + (uint32_t)index,
		};
		struct engine_result result;
		bool ours = game->to_move == role;
		double wall = 0, cpu = 0;
		int err;

		if (ours)
			limits.max_nodes = options->nodes;
		if (ours || options->ladder) {
			if (options->deadline_ms) {
				limits.now_us = monotonic_us;
				limits.deadline_us =
					monotonic_us(NULL) +
					options->deadline_ms * 1000u;
			}
		}
		if (ours) {
			wall = clock_ms(CLOCK_MONOTONIC);
			cpu = clock_ms(CLOCK_THREAD_CPUTIME_ID);
		}
		err = engine_choose(ours ? measured : opponent, &game->board,
				    game->to_move, options->rule,
				    ours ? options->level : options->against,
				    &limits, &result);
		if (err)
			return WINNER_NONE;
		if (ours) {
			wall = clock_ms(CLOCK_MONOTONIC) - wall;
			cpu = clock_ms(CLOCK_THREAD_CPUTIME_ID) - cpu;
			if (options->deadline_ms &&
			    wall >= (double)options->deadline_ms)
				times->cut++;
			if (times_add(times, wall, cpu, result.nodes))
				return WINNER_NONE;
		}
		if (game_play(game, game->to_move, result.x, result.y) !=
		    MOVE_OK) {
			fprintf(stderr, "game %d: illegal move (%d, %d)\n",
				index, result.x, result.y);
			return WINNER_NONE;
		}
	}
	if (options->verbose)
		printf("opening %3d, %s as %-5s: %s after %d moves\n", index,
		       engine_level_name(options->level), role_name(role),
		       game_winner_name(game->winner), game->moves_played);
	return game->winner;
}

/*
 * Plays one game from opening index with the measured level as role.
 * Returns the winner, or WINNER_NONE on an engine error.
 */
static enum game_winner game_run(const struct bench_options *options,
				 struct engine *measured,
				 struct engine *opponent, int index,
				 enum role role, struct bench_times *times)
{
	struct game game;
	enum game_winner winner;

	if (game_init(&game, options->size, options->rule, FULL_BOARD_DRAW))
		return WINNER_NONE;
	winner = game_run_on(options, measured, opponent, index, role, times,
			     &game);
	game_release(&game);
	return winner;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile (0..1) of sorted values, nearest rank. */
static double quantile(const double *sorted, size_t count, double q)
{
	size_t rank;

	if (!count)
		return 0;
	rank = (size_t)(q * (double)count + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank > count)
		rank = count;
	return sorted[rank - 1];
}

static double rate(int part, int whole)
{
	return whole ? 100.0 * part / whole : 0;
}

static void tally_print(const char *name, const struct bench_tally *tally)
{
	printf("| %-8s | %5d | %4d | %6d | %5d | %7.1f %% |\n", name,
	       tally->games, tally->wins, tally->losses, tally->draws,
	       rate(tally->wins, tally->games));
}

static int usage(const char *program)
{
	fprintf(stderr,
		"usage: %s [--openings N] [--seed S] [--size N] "
		"[--rule freestyle|standard|renju] [--level L] [--against L] "
		"[--nodes N] [--deadline-ms M] [--min-win-rate P] "
		"[--min-back-win-rate P] [--max-p99-ms M] [--verbose]\n"
		"       %s --ladder [--openings N] [--seed S] [--size N] "
		"[--rule R] [--deadline-ms M] [--min-score P] [--max-score P] "
		"[--verbose]\n",
		program, program);
	return 2;
}

static int options_parse(int argc, char **argv, struct bench_options *options)
{
	static const struct option long_options[] = {
		{ "openings", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 's' },
		{ "size", required_argument, NULL, 'n' },
		{ "rule", required_argument, NULL, 'r' },
		{ "level", required_argument, NULL, 'l' },
		{ "against", required_argument, NULL, 'a' },
		{ "nodes", required_argument, NULL, 'N' },
		{ "deadline-ms", required_argument, NULL, 'd' },
		{ "min-win-rate", required_argument, NULL, 'w' },
		{ "min-back-win-rate", required_argument, NULL, 'b' },
		{ "max-p99-ms", required_argument, NULL, 'p' },
		{ "ladder", no_argument, NULL, 'L' },
		{ "min-score", required_argument, NULL, 'm' },
		{ "max-score", required_argument, NULL, 'M' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	int option;

	*options = (struct bench_options){
		.openings = 50,
		.seed = 20240601,
		.size = 15,
		.rule = RULE_FREESTYLE,
		.level = ENGINE_MASTER,
		.against = ENGINE_BEGINNER,
		.min_win_rate = -1,
		.min_back_win_rate = -1,
		.max_p99_ms = -1,
		.min_score = -1,
		.max_score = -1,
	};
	while ((option = getopt_long(argc, argv, "", long_options, NULL)) !=
	       -1) {
		switch (option) {
		case 'o':
			options->openings = atoi(optarg);
			break;
		case 's':
			options->seed = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 'n':
			options->size = atoi(optarg);
			break;
		case 'r':
			if (!rule_parse(optarg, &options->rule))
				return -EINVAL;
			break;
		case 'l':
			if (engine_level_parse(optarg, &options->level))
				return -EINVAL;
			break;
		case 'a':
			if (engine_level_parse(optarg, &options->against))
				return -EINVAL;
			break;
		case 'N':
			options->nodes = strtoull(optarg, NULL, 10);
			break;
		case 'd':
			options->deadline_ms = strtoull(optarg, NULL, 10);
			break;
		case 'w':
			options->min_win_rate = atof(optarg);
			break;
		case 'b':
			options->min_back_win_rate = atof(optarg);
			break;
		case 'p':
			options->max_p99_ms = atof(optarg);
			break;
		case 'L':
			options->ladder = true;
			break;
		case 'm':
			options->min_score = atof(optarg);
			break;
		case 'M':
			options->max_score = atof(optarg);
			break;
		case 'v':
			options->verbose = true;
			break;
		default:
			return -EINVAL;
		}
	}
	if (optind != argc || options->openings < 1 || options->size < 7 ||
	    options->size > BOARD_MAX_SIZE)
		return -EINVAL;
	return 0;
}

/*
 * Plays every opening twice, the measured level once as each colour, and
 * adds the results to front and back. Returns the games that ended on an
 * engine error.
 */
static int match_play(const struct bench_options *options,
		      struct engine *measured, struct engine *opponent,
		      struct bench_tally *front, struct bench_tally *back,
		      struct bench_times *times)
{
	int index, r, failed = 0;

	for (index = 0; index < options->openings; index++) {
		for (r = 0; r < 2; r++) {
			enum role role = r ? ROLE_BACK : ROLE_FRONT;
			struct bench_tally *tally = r ? back : front;
			enum game_winner ours = r ? WINNER_BACK : WINNER_FRONT;
			enum game_winner winner = game_run(options, measured,
							   opponent, index,
							   role, times);

			if (winner == WINNER_NONE) {
				failed++;
				continue;
			}
			tally->games++;
			if (winner == WINNER_DRAW)
				tally->draws++;
			else if (winner == ours)
				tally->wins++;
			else
				tally->losses++;
		}
	}
	return failed;
}

/*
 * One line of the ladder: the stronger level's wins, draws and losses,
 * its score (a draw is half a win), and the Elo difference with a 95 %
 * margin: half the width of the Elo interval of score +- 1.96 standard
 * errors (the per-game standard deviation over the square root of the
 * games). Returns the score in per cent.
 */
static double ladder_print(enum engine_level stronger, enum engine_level weaker,
			   const struct bench_tally *all)
{
	double games = all->games ? all->games : 1;
	double score = (all->wins + 0.5 * all->draws) / games;
	double variance = (all->wins * (1 - score) * (1 - score) +
			   all->draws * (0.5 - score) * (0.5 - score) +
			   all->losses * score * score) /
			  games;
	double margin = elo_margin(score, sqrt(variance / games));

	printf("| %-8s | %-8s | %5d | %4d | %5d | %6d | %6.1f %% | %+5.0f "
	       "± %3.0f |\n",
	       engine_level_name(stronger), engine_level_name(weaker),
	       all->games, all->wins, all->draws, all->losses, 100 * score,
	       elo_of_score(score), margin);
	return 100 * score;
}

/*
 * The ladder: each level against the one below it, both at their default
 * node budgets. Returns 0, or 1 when a score misses the targets or a game
 * failed.
 */
static int ladder_run(struct bench_options *options, struct engine *measured,
		      struct engine *opponent)
{
	double scores[ENGINE_LEVEL_COUNT] = { 0 };
	double started = clock_ms(CLOCK_MONOTONIC);
	int level, failed = 0, status = 0;

	printf("ladder: board %d, %s, %d openings x 2 colours, seed %" PRIu32
	       ", default node budgets, deadline %" PRIu64 " ms\n\n",
	       options->size, rule_name(options->rule), options->openings,
	       options->seed, options->deadline_ms);
	printf("| stronger | weaker   | games | wins | draws | losses | "
	       "score    | Elo (95 %%)  |\n");
	printf("|----------|----------|-------|------|-------|--------|"
	       "----------|-------------|\n");
	fflush(stdout);
	for (level = 1; level < ENGINE_LEVEL_COUNT; level++) {
		struct bench_tally front = { 0 }, back = { 0 }, all;
		struct bench_times times = { 0 };

		options->level = (enum engine_level)level;
		options->against = (enum engine_level)(level - 1);
		options->nodes = 0;
		failed += match_play(options, measured, opponent, &front, &back,
				     &times);
		all.games = front.games + back.games;
		all.wins = front.wins + back.wins;
		all.losses = front.losses + back.losses;
		all.draws = front.draws + back.draws;
		scores[level] =
			ladder_print(options->level, options->against, &all);
		fflush(stdout);
		free(times.wall_ms);
		free(times.cpu_ms);
	}
	printf("\n(%.1f s)\n", (clock_ms(CLOCK_MONOTONIC) - started) / 1e3);
	if (failed) {
		printf("FAIL: %d games ended on an engine error\n", failed);
		status = 1;
	}
	for (level = 1; level < ENGINE_LEVEL_COUNT; level++) {
		const char *name = engine_level_name((enum engine_level)level);

		if (options->min_score >= 0 &&
		    scores[level] < options->min_score) {
			printf("FAIL: %s scores %.1f %% < %.1f %%\n", name,
			       scores[level], options->min_score);
			status = 1;
		}
		if (options->max_score >= 0 &&
		    scores[level] > options->max_score) {
			printf("FAIL: %s scores %.1f %% > %.1f %%\n", name,
			       scores[level], options->max_score);
			status = 1;
		}
	}
	return status;
}

int main(int argc, char **argv)
{
	struct bench_options options;
	struct bench_tally front = { 0 }, back = { 0 }, all = { 0 };
	struct bench_times times = { 0 };
	struct engine *measured, *opponent;
	double started, seconds, wall_total = 0, cpu_total = 0;
	double p99;
	size_t i;
	int failed, status = 0;

	if (options_parse(argc, argv, &options))
		return usage(argv[0]);
	measured = engine_new(0);
	opponent = engine_new(0);
	if (!measured || !opponent) {
		fprintf(stderr, "bench-engine: out of memory\n");
		engine_free(opponent);
		engine_free(measured);
		return 1;
	}
	if (options.ladder) {
		status = ladder_run(&options, measured, opponent);
		engine_free(opponent);
		engine_free(measured);
		return status;
	}
	started = clock_ms(CLOCK_MONOTONIC);
	failed =
		match_play(&options, measured, opponent, &front, &back, &times);
	seconds = (clock_ms(CLOCK_MONOTONIC) - started) / 1e3;
	all.games = front.games + back.games;
	all.wins = front.wins + back.wins;
	all.losses = front.losses + back.losses;
	all.draws = front.draws + back.draws;

	for (i = 0; i < times.count; i++) {
		wall_total += times.wall_ms[i];
		cpu_total += times.cpu_ms[i];
	}
	qsort(times.wall_ms, times.count, sizeof(double), compare_doubles);
	qsort(times.cpu_ms, times.count, sizeof(double), compare_doubles);
	p99 = quantile(times.wall_ms, times.count, 0.99);

	printf("%s vs %s: board %d, %s, %d openings x 2 colours, seed %" PRIu32
	       ", nodes %" PRIu64 ", deadline %" PRIu64 " ms (%.1f s)\n\n",
	       engine_level_name(options.level),
	       engine_level_name(options.against), options.size,
	       rule_name(options.rule), options.openings, options.seed,
	       options.nodes, options.deadline_ms, seconds);
	printf("| %-8s | games | wins | losses | draws | win rate  |\n", "as");
	printf("|----------|-------|------|--------|-------|-----------|\n");
	tally_print("front", &front);
	tally_print("back", &back);
	tally_print("overall", &all);
	printf("\n| %s move time | median | p99 | max | mean |\n",
	       engine_level_name(options.level));
	printf("|----------------|--------|-----|-----|------|\n");
	printf("| wall (ms)      | %.1f | %.1f | %.1f | %.1f |\n",
	       quantile(times.wall_ms, times.count, 0.5), p99,
	       quantile(times.wall_ms, times.count, 1.0),
	       times.count ? wall_total / (double)times.count : 0);
	printf("| cpu (ms)       | %.1f | %.1f | %.1f | %.1f |\n",
	       quantile(times.cpu_ms, times.count, 0.5),
	       quantile(times.cpu_ms, times.count, 0.99),
	       quantile(times.cpu_ms, times.count, 1.0),
	       times.count ? cpu_total / (double)times.count : 0);
	printf("\nmoves measured: %zu, nodes: %" PRIu64
	       ", nodes/s (cpu): %.0f, moves cut by the deadline: %d\n",
	       times.count, times.nodes,
	       cpu_total > 0 ? (double)times.nodes / (cpu_total / 1e3) : 0,
	       times.cut);

	if (failed) {
		printf("FAIL: %d games ended on an engine error\n", failed);
		status = 1;
	}
	if (options.min_win_rate >= 0 &&
	    rate(all.wins, all.games) < options.min_win_rate) {
		printf("FAIL: win rate %.1f %% < %.1f %%\n",
		       rate(all.wins, all.games), options.min_win_rate);
		status = 1;
	}
	if (options.min_back_win_rate >= 0 &&
	    rate(back.wins, back.games) < options.min_back_win_rate) {
		printf("FAIL: win rate as back %.1f %% < %.1f %%\n",
		       rate(back.wins, back.games), options.min_back_win_rate);
		status = 1;
	}
	if (options.max_p99_ms >= 0 && p99 >= options.max_p99_ms) {
		printf("FAIL: p99 move time %.1f ms >= %.1f ms\n", p99,
		       options.max_p99_ms);
		status = 1;
	}
	free(times.wall_ms);
	free(times.cpu_ms);
	engine_free(opponent);
	engine_free(measured);
	return status;
}
