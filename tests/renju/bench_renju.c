/*
 * bench_renju.c - times renju_forbidden() and renju_judge() on the most
 * crowded positions of tests/renju/positions.txt and prints microseconds
 * per call; the slow reference judge of the tests beside them for scale.
 *
 *   bench-renju [POSITIONS]
 *
 * The positions timed are the two with the most forbidden points (by
 * their "forbidden:" lines), the one with the most stones, and all of them
 * in turn. Each figure repeats its calls for at least MEASURE_SECONDS of
 * CLOCK_MONOTONIC. Prints figures only: no target, exit status 0 unless
 * the file cannot be read.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "renju.h"
#include "renju_reference.h"

#define BENCH_SIZE 15
#define BENCH_MAX_POSITIONS 200
/* The least time each figure is measured over. */
#define MEASURE_SECONDS 0.3

/* One position of the file, as much of it as the benchmark needs. */
struct bench_position {
	char name[128];	    /* after "position: " */
	struct board board; /* the stones drawn */
	int forbidden;	    /* points on its "forbidden:" line */
};

static struct bench_position positions[BENCH_MAX_POSITIONS];
static int position_count;

/* Sums the answers, so that no call is optimised away. */
static volatile long sink;

/*
 * Reads the boards and forbidden counts of the fixture at path (whose
 * format tests/unit/test_renju.c checks strictly); -1 when it cannot.
 */
static int positions_read(const char *path)
{
	char text[1024];
	struct bench_position *position = NULL;
	int row = 0;
	int number;
	FILE *file = fopen(path, "r");

	if (!file) {
		fprintf(stderr, "bench-renju: cannot open %s\n", path);
		return -1;
	}
	while (fgets(text, sizeof(text), file)) {
		text[strcspn(text, "\n")] = '\0';
		if (strncmp(text, "position: ", 10) == 0 &&
		    position_count < BENCH_MAX_POSITIONS) {
			position = &positions[position_count++];
			snprintf(position->name, sizeof(position->name), "%.*s",
				 (int)sizeof(position->name) - 1, text + 10);
			board_init(&position->board, BENCH_SIZE);
			row = 0;
		} else if (position && row < BENCH_SIZE &&
			   sscanf(text, "%2d", &number) == 1 &&
			   number == BENCH_SIZE - row &&
			   strlen(text) >= 3 + 2 * BENCH_SIZE) {
			int x;

			for (x = 0; x < BENCH_SIZE; x++) {
				char cell = text[3 + 2 * x];

				if (cell == 'X' || cell == 'O')
					board_set(&position->board, x, row,
						  cell == 'X' ? ROLE_FRONT :
								ROLE_BACK);
			}
			row++;
		} else if (position && strncmp(text, "forbidden: ", 11) == 0 &&
			   strcmp(text + 11, "none") != 0) {
			const char *c;

			position->forbidden = 1;
			for (c = text + 11; *c; c++)
				position->forbidden += *c == ' ';
		}
	}
	fclose(file);
	if (position_count == 0) {
		fprintf(stderr, "bench-renju: no position in %s\n", path);
		return -1;
	}
	return 0;
}

static double seconds_now(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/* All of a board's empty points judged once by judge; returns how many. */
static int judge_every_point(const struct board *board,
			     enum renju_verdict (*judge)(const struct board *,
							 int, int))
{
	int points = 0;
	int x;
	int y;

	for (y = 0; y < board->size; y++) {
		for (x = 0; x < board->size; x++) {
			if (board_get(board, x, y) != ROLE_NONE)
				continue;
			sink += judge(board, x, y);
			points++;
		}
	}
	return points;
}

/*
 * Microseconds per call of forbidden on the count boards, each call one
 * board, taken over at least MEASURE_SECONDS.
 */
static double time_forbidden(const struct board *const *boards, int count,
			     int (*forbidden)(const struct board *,
					      struct cell *, int))
{
	struct cell out[BOARD_MAX_CELLS];
	double started = seconds_now();
	double elapsed;
	long calls = 0;

	do {
		int i;

		for (i = 0; i < count; i++)
			sink += forbidden(boards[i], out, BOARD_MAX_CELLS);
		calls += count;
		elapsed = seconds_now() - started;
	} while (elapsed < MEASURE_SECONDS);
	return elapsed * 1e6 / (double)calls;
}

/* Microseconds per point judged, as time_forbidden(). */
static double time_judge(const struct board *const *boards, int count,
			 enum renju_verdict (*judge)(const struct board *, int,
						     int))
{
	double started = seconds_now();
	double elapsed;
	long points = 0;

	do {
		int i;

		for (i = 0; i < count; i++)
			points += judge_every_point(boards[i], judge);
		elapsed = seconds_now() - started;
	} while (elapsed < MEASURE_SECONDS && points > 0);
	return points > 0 ? elapsed * 1e6 / (double)points : 0;
}

/* Prints the four figures of the count boards, under label. */
static void bench(const char *label, const struct board *const *boards,
		  int count)
{
	printf("%s\n", label);
	printf("  renju_forbidden()            %10.2f us/call\n",
	       time_forbidden(boards, count, renju_forbidden));
	printf("  renju_judge()                %10.3f us/point\n",
	       time_judge(boards, count, renju_judge));
	printf("  renju_reference_forbidden()  %10.2f us/call\n",
	       time_forbidden(boards, count, renju_reference_forbidden));
	printf("  renju_reference_judge()      %10.3f us/point\n",
	       time_judge(boards, count, renju_reference_judge));
}

/* Times one position, naming it with its stones and forbidden points. */
static void bench_position(const char *why, const struct bench_position *p)
{
	const struct board *board = &p->board;
	char label[256];

	snprintf(label, sizeof(label),
		 "%s: \"%s\" (%d stones, %d forbidden points)", why, p->name,
		 p->board.stones, p->forbidden);
	bench(label, &board, 1);
}

int main(int argc, char **argv)
{
	const struct board *all[BENCH_MAX_POSITIONS];
	const struct bench_position *most = NULL;
	const struct bench_position *second = NULL;
	const struct bench_position *crowded = NULL;
	char label[128];
	int i;

	if (argc > 2) {
		fprintf(stderr, "usage: bench-renju [POSITIONS]\n");
		return 2;
	}
	if (positions_read(argc == 2 ? argv[1] : RENJU_POSITIONS) < 0)
		return 1;
	for (i = 0; i < position_count; i++) {
		const struct bench_position *p = &positions[i];

		all[i] = &p->board;
		if (!most || p->forbidden > most->forbidden) {
			second = most;
			most = p;
		} else if (!second || p->forbidden > second->forbidden) {
			second = p;
		}
		if (!crowded || p->board.stones > crowded->board.stones)
			crowded = p;
	}
	bench_position("most forbidden points", most);
	if (second)
		bench_position("next most forbidden points", second);
	if (crowded != most && crowded != second)
		bench_position("most stones", crowded);
	snprintf(label, sizeof(label), "all %d positions of the fixture",
		 position_count);
	bench(label, all, position_count);
	return 0;
}
