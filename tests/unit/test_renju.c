/*
 * test_renju.c - renju's forbidden moves (core/renju.c): every position of
 * tests/renju/positions.txt, and thousands of random positions judged
 * point by point against the slow reference judge (renju_reference.c).
 *
 * The fixture's checks are run against the reference too, so that the
 * fixture and the reference vouch for each other; renju_judge() and
 * renju_forbidden() must then agree with both.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"
#include "renju.h"
#include "renju_random.h"
#include "renju_reference.h"
#include "expect.h"

#ifndef RENJU_POSITIONS
#error "RENJU_POSITIONS must name tests/renju/positions.txt"
#endif

/* The fixture's board: always 15 x 15. */
#define FIXTURE_SIZE 15
#define FIXTURE_CELLS (FIXTURE_SIZE * FIXTURE_SIZE)
#define FIXTURE_MAX_POSITIONS 200
#define FIXTURE_MAX_CHECKS 32
/* The longest line read, newline and NUL included. */
#define FIXTURE_MAX_LINE 1024
/* Fewer positions than this means the fixture lost some. */
#define FIXTURE_MIN_POSITIONS 45

/* The random positions of the property tests. */
#define RANDOM_POSITIONS 3000
#define RANDOM_SEED 0x5eed2e57u
/* Mismatching positions printed in full before only counting the rest. */
#define MISMATCHES_SHOWN 3
/* Wrong fixture checks printed before only counting the rest. */
#define WRONG_CHECKS_SHOWN 25

/* The column header above and below a fixture board. */
static const char fixture_columns[] = "   A B C D E F G H I J K L M N O";

/* One "check:" line, such as check: H8 double_three. */
struct fixture_check {
	struct cell point;	    /* the empty point black would play */
	enum renju_verdict verdict; /* what black playing it is */
	int line;		    /* its line in the file */
};

/* One of these per position of the fixture. */
struct fixture_position {
	char name[128];	    /* after "position: " */
	struct board board; /* the stones drawn */
	int check_count;    /* entries of checks */
	struct fixture_check checks[FIXTURE_MAX_CHECKS]; /* in file order */
	bool has_forbidden;  /* a "forbidden:" line was given */
	int forbidden_line;  /* its line in the file */
	int forbidden_count; /* entries of forbidden */
	struct cell forbidden[FIXTURE_CELLS]; /* as listed, any order */
};

/* The whole fixture, read once by fixture_load(). */
struct fixture {
	bool loaded;	 /* fixture_load() ran */
	char error[256]; /* why it could not be read, or "" */
	int count;	 /* entries of positions */
	struct fixture_position positions[FIXTURE_MAX_POSITIONS];
};

static struct fixture fixture;

/* The name of (x, y) on a board of size: "H8" for the centre of 15. */
static const char *point_name(int size, int x, int y, char buf[16])
{
	snprintf(buf, 16, "%c%d", 'A' + x, size - y);
	return buf;
}

/* Records a parse error at line (the first one wins); returns -1. */
static int parse_error(int line, const char *what, const char *text)
{
	snprintf(fixture.error, sizeof(fixture.error), "%s:%d: %s: \"%.120s\"",
		 RENJU_POSITIONS, line, what, text);
	return -1;
}

/* Reads a point such as "H8" (the whole of text); 0 or -1. */
static int parse_point(const char *text, struct cell *point)
{
	int row = 0;
	const char *digit;

	if (text[0] < 'A' || text[0] >= 'A' + FIXTURE_SIZE)
		return -1;
	if (text[1] < '1' || text[1] > '9')
		return -1;
	for (digit = text + 1; *digit; digit++) {
		if (*digit < '0' || *digit > '9' || digit - text > 2)
			return -1;
		row = row * 10 + (*digit - '0');
	}
	if (row < 1 || row > FIXTURE_SIZE)
		return -1;
	point->x = text[0] - 'A';
	point->y = FIXTURE_SIZE - row;
	return 0;
}

/* Reads a verdict's name; 0 or -1. */
static int parse_verdict(const char *text, enum renju_verdict *verdict)
{
	static const char *const names[RENJU_VERDICT_COUNT] = {
		"allowed", "five", "overline", "double_four", "double_three",
	};
	int i;

	for (i = 0; i < RENJU_VERDICT_COUNT; i++) {
		if (strcmp(text, names[i]) == 0) {
			*verdict = (enum renju_verdict)i;
			return 0;
		}
	}
	return -1;
}

/*
 * Reads row (15 at the top, 1 at the bottom) of a board drawing into
 * board: "15 . X O ... . 15", the number two wide at both ends.
 */
static int parse_row(const char *text, int line, int row, struct board *board)
{
	char label[4];
	int y = FIXTURE_SIZE - row;
	int x;

	snprintf(label, sizeof(label), "%2d ", row);
	if (strlen(text) != 3 + 2 * FIXTURE_SIZE - 1 + 3 ||
	    strncmp(text, label, 3) != 0)
		return parse_error(line, "expected board row", text);
	snprintf(label, sizeof(label), " %2d", row);
	if (strcmp(text + 3 + 2 * FIXTURE_SIZE - 1, label) != 0)
		return parse_error(line, "expected board row", text);
	for (x = 0; x < FIXTURE_SIZE; x++) {
		char cell = text[3 + 2 * x];

		if (x > 0 && text[2 + 2 * x] != ' ')
			return parse_error(
				line, "cells must be one space apart", text);
		if (cell == 'X')
			board_set(board, x, y, ROLE_FRONT);
		else if (cell == 'O')
			board_set(board, x, y, ROLE_BACK);
		else if (cell != '.')
			return parse_error(line, "a cell must be ., X or O",
					   text);
	}
	return 0;
}

/* Reads "check: H8 double_three" into position; 0 or -1. */
static int parse_check(const char *text, int line,
		       struct fixture_position *position)
{
	char point_text[FIXTURE_MAX_LINE];
	char verdict_text[FIXTURE_MAX_LINE];
	struct fixture_check *check;
	const char *space = strchr(text, ' ');

	if (position->check_count == FIXTURE_MAX_CHECKS)
		return parse_error(line, "too many checks", text);
	check = &position->checks[position->check_count];
	if (!space || strchr(space + 1, ' '))
		return parse_error(line, "expected check: POINT VERDICT", text);
	snprintf(point_text, sizeof(point_text), "%.*s", (int)(space - text),
		 text);
	snprintf(verdict_text, sizeof(verdict_text), "%s", space + 1);
	if (parse_point(point_text, &check->point) < 0)
		return parse_error(line, "bad point", text);
	if (parse_verdict(verdict_text, &check->verdict) < 0)
		return parse_error(line, "bad verdict", text);
	if (board_get(&position->board, check->point.x, check->point.y) !=
	    ROLE_NONE)
		return parse_error(line, "a checked point must be empty", text);
	check->line = line;
	position->check_count++;
	return 0;
}

/* Reads the points after "forbidden: " into position; 0 or -1. */
static int parse_forbidden(const char *text, int line,
			   struct fixture_position *position)
{
	char copy[FIXTURE_MAX_LINE];
	char *saved = NULL;
	char *word;
	int i;

	if (position->has_forbidden)
		return parse_error(line, "a second forbidden line", text);
	position->has_forbidden = true;
	position->forbidden_line = line;
	if (strcmp(text, "none") == 0)
		return 0;
	if (text[0] == '\0' || text[0] == ' ' ||
	    text[strlen(text) - 1] == ' ' || strstr(text, "  "))
		return parse_error(line, "points must be one space apart",
				   text);
	snprintf(copy, sizeof(copy), "%s", text);
	for (word = strtok_r(copy, " ", &saved); word;
	     word = strtok_r(NULL, " ", &saved)) {
		struct cell point;

		if (parse_point(word, &point) < 0)
			return parse_error(line, "bad point", word);
		if (board_get(&position->board, point.x, point.y) != ROLE_NONE)
			return parse_error(
				line, "a forbidden point is occupied", word);
		for (i = 0; i < position->forbidden_count; i++) {
			if (position->forbidden[i].x == point.x &&
			    position->forbidden[i].y == point.y)
				return parse_error(line, "a point twice", word);
		}
		position->forbidden[position->forbidden_count++] = point;
	}
	return 0;
}

/* Where the reader is in the fixture's grammar. */
enum fixture_state {
	BETWEEN,     /* before "position:" */
	HEADER,	     /* the column header above the board */
	ROWS,	     /* the board's rows */
	FOOTER,	     /* the column header below the board */
	AFTER_BOARD, /* check:, forbidden: and end */
};

/* Reads one line (without its newline) of the fixture; 0 or -1. */
static int parse_line(const char *text, int line, enum fixture_state *state,
		      int *row)
{
	struct fixture_position *position = &fixture.positions[fixture.count];

	switch (*state) {
	case BETWEEN:
		if (text[0] == '\0' || text[0] == '#')
			return 0;
		if (strncmp(text, "position: ", 10) != 0 || text[10] == '\0')
			return parse_error(line, "expected position: NAME",
					   text);
		if (fixture.count == FIXTURE_MAX_POSITIONS)
			return parse_error(line, "too many positions", text);
		if (strlen(text + 10) >= sizeof(position->name))
			return parse_error(line, "name too long", text);
		memset(position, 0, sizeof(*position));
		snprintf(position->name, sizeof(position->name), "%.*s",
			 (int)sizeof(position->name) - 1, text + 10);
		board_init(&position->board, FIXTURE_SIZE);
		*state = HEADER;
		return 0;
	case HEADER:
	case FOOTER:
		if (strcmp(text, fixture_columns) != 0)
			return parse_error(line, "expected the column header",
					   text);
		*state = *state == HEADER ? ROWS : AFTER_BOARD;
		*row = FIXTURE_SIZE;
		return 0;
	case ROWS:
		if (parse_row(text, line, *row, &position->board) < 0)
			return -1;
		if (--*row == 0)
			*state = FOOTER;
		return 0;
	case AFTER_BOARD:
		if (text[0] == '#')
			return 0;
		if (strncmp(text, "check: ", 7) == 0)
			return parse_check(text + 7, line, position);
		if (strncmp(text, "forbidden: ", 11) == 0)
			return parse_forbidden(text + 11, line, position);
		if (strcmp(text, "end") != 0)
			return parse_error(line,
					   "expected check:, forbidden: or end",
					   text);
		if (position->check_count == 0)
			return parse_error(line, "a position with no check",
					   text);
		fixture.count++;
		*state = BETWEEN;
		return 0;
	}
	return parse_error(line, "lost", text);
}

/* Reads the whole fixture into fixture; 0 or -1 with fixture.error set. */
static int fixture_read(void)
{
	char text[FIXTURE_MAX_LINE];
	enum fixture_state state = BETWEEN;
	int row = 0;
	int line = 0;
	FILE *file = fopen(RENJU_POSITIONS, "r");

	if (!file) {
		snprintf(fixture.error, sizeof(fixture.error), "cannot open %s",
			 RENJU_POSITIONS);
		return -1;
	}
	while (fgets(text, sizeof(text), file)) {
		size_t length = strlen(text);

		line++;
		if (length > 0 && text[length - 1] == '\n') {
			text[--length] = '\0';
		} else if (!feof(file)) {
			fclose(file);
			return parse_error(line, "line too long", text);
		}
		if (strchr(text, '\r') || strchr(text, '\t') ||
		    (length > 0 && text[length - 1] == ' ')) {
			fclose(file);
			return parse_error(line,
					   "carriage return, tab or trailing "
					   "space",
					   text);
		}
		if (parse_line(text, line, &state, &row) < 0) {
			fclose(file);
			return -1;
		}
	}
	fclose(file);
	if (state != BETWEEN)
		return parse_error(line, "the file ends inside a position", "");
	if (fixture.count == 0)
		return parse_error(line, "no position", "");
	return 0;
}

/* The fixture, read on first use; fails the test when it cannot be read. */
static const struct fixture *fixture_load(void)
{
	if (!fixture.loaded) {
		fixture.loaded = true;
		fixture.error[0] = '\0';
		fixture_read();
	}
	if (fixture.error[0] != '\0')
		fail_msg("%s", fixture.error);
	return &fixture;
}

/* Prints the column header of a board of size: "   A B C ...". */
static void print_columns(int size)
{
	int x;

	printf("  ");
	for (x = 0; x < size; x++)
		printf(" %c", 'A' + x);
	printf("\n");
}

/* Prints board as the fixture draws it (any size), to stdout. */
static void print_board(const struct board *board)
{
	int x;
	int y;

	print_columns(board->size);
	for (y = 0; y < board->size; y++) {
		printf("%2d", board->size - y);
		for (x = 0; x < board->size; x++) {
			enum role role = board_get(board, x, y);

			printf(" %c", role == ROLE_FRONT ? 'X' :
				      role == ROLE_BACK	 ? 'O' :
							   '.');
		}
		printf(" %2d\n", board->size - y);
	}
	print_columns(board->size);
}

/* Prints count cells as point names on one line, after label. */
static void print_cells(const char *label, int size, const struct cell *cells,
			int count)
{
	char name[16];
	int i;

	printf("%s", label);
	if (count == 0)
		printf(" none");
	for (i = 0; i < count; i++)
		printf(" %s", point_name(size, cells[i].x, cells[i].y, name));
	printf("\n");
}

/* True when cell is one of the count cells. */
static bool cells_contain(const struct cell *cells, int count, struct cell cell)
{
	int i;

	for (i = 0; i < count; i++) {
		if (cells[i].x == cell.x && cells[i].y == cell.y)
			return true;
	}
	return false;
}

/*
 * Runs every check of the fixture through judge, printing the wrong ones
 * (up to WRONG_CHECKS_SHOWN); returns how many were wrong.
 */
static int fixture_wrong_checks(
	const struct fixture *loaded,
	enum renju_verdict (*judge)(const struct board *, int, int),
	const char *judge_name, int *checks_run)
{
	int wrong = 0;
	int p;
	int c;

	*checks_run = 0;
	for (p = 0; p < loaded->count; p++) {
		const struct fixture_position *position = &loaded->positions[p];

		for (c = 0; c < position->check_count; c++) {
			const struct fixture_check *check =
				&position->checks[c];
			enum renju_verdict got;
			char name[16];

			(*checks_run)++;
			got = judge(&position->board, check->point.x,
				    check->point.y);
			if (got == check->verdict)
				continue;
			if (++wrong > WRONG_CHECKS_SHOWN)
				continue;
			printf("%s:%d: %s: %s: %s says %s, expected %s\n",
			       RENJU_POSITIONS, check->line, position->name,
			       point_name(FIXTURE_SIZE, check->point.x,
					  check->point.y, name),
			       judge_name, renju_verdict_name(got),
			       renju_verdict_name(check->verdict));
		}
	}
	if (wrong > WRONG_CHECKS_SHOWN)
		printf("... and %d more wrong checks\n",
		       wrong - WRONG_CHECKS_SHOWN);
	return wrong;
}

/*
 * Compares forbidden's answer on every position that lists its forbidden
 * set: the same points (the fixture lists them in any order; forbidden
 * must give them row-major) and the same count. Prints each position that
 * differs; returns how many did.
 */
static int fixture_wrong_sets(const struct fixture *loaded,
			      int (*forbidden)(const struct board *,
					       struct cell *, int),
			      const char *judge_name, int *sets_run)
{
	int wrong = 0;
	int p;

	*sets_run = 0;
	for (p = 0; p < loaded->count; p++) {
		const struct fixture_position *position = &loaded->positions[p];
		struct cell got[FIXTURE_CELLS];
		bool same = true;
		int count;
		int i;

		if (!position->has_forbidden)
			continue;
		(*sets_run)++;
		count = forbidden(&position->board, got, FIXTURE_CELLS);
		if (count != position->forbidden_count)
			same = false;
		for (i = 0; same && i < count; i++) {
			if (!cells_contain(position->forbidden,
					   position->forbidden_count, got[i]))
				same = false;
			if (i > 0 &&
			    got[i - 1].y * FIXTURE_SIZE + got[i - 1].x >=
				    got[i].y * FIXTURE_SIZE + got[i].x)
				same = false;
		}
		if (same)
			continue;
		wrong++;
		printf("%s:%d: %s: %s gives %d forbidden points, expected %d\n",
		       RENJU_POSITIONS, position->forbidden_line,
		       position->name, judge_name, count,
		       position->forbidden_count);
		print_cells("  expected:", FIXTURE_SIZE, position->forbidden,
			    position->forbidden_count);
		print_cells("  got:     ", FIXTURE_SIZE, got,
			    count < FIXTURE_CELLS ? count : FIXTURE_CELLS);
	}
	return wrong;
}

static void the_fixture_has_every_shape_and_verdict(void **state)
{
	const struct fixture *loaded = fixture_load();
	int seen[RENJU_VERDICT_COUNT] = { 0 };
	int sets = 0;
	int p;
	int c;

	(void)state;
	if (loaded->count < FIXTURE_MIN_POSITIONS)
		fail_msg("%s has %d positions, expected at least %d",
			 RENJU_POSITIONS, loaded->count, FIXTURE_MIN_POSITIONS);
	for (p = 0; p < loaded->count; p++) {
		const struct fixture_position *position = &loaded->positions[p];

		for (c = 0; c < position->check_count; c++)
			seen[position->checks[c].verdict]++;
		sets += position->has_forbidden;
	}
	for (c = 0; c < RENJU_VERDICT_COUNT; c++) {
		if (seen[c] == 0)
			fail_msg("%s checks no %s point", RENJU_POSITIONS,
				 renju_verdict_name(c));
	}
	if (sets == 0)
		fail_msg("%s lists no forbidden set", RENJU_POSITIONS);
}

static void the_reference_judge_agrees_with_every_fixture_check(void **state)
{
	const struct fixture *loaded = fixture_load();
	int checks;
	int wrong;

	(void)state;
	wrong = fixture_wrong_checks(loaded, renju_reference_judge,
				     "renju_reference_judge()", &checks);
	if (wrong)
		fail_msg("the reference judge gets %d of %d fixture checks "
			 "wrong: the fixture or the reference is mistaken",
			 wrong, checks);
}

static void the_reference_finds_every_fixture_forbidden_set(void **state)
{
	const struct fixture *loaded = fixture_load();
	int sets;
	int wrong;

	(void)state;
	wrong = fixture_wrong_sets(loaded, renju_reference_forbidden,
				   "renju_reference_forbidden()", &sets);
	if (wrong)
		fail_msg("the reference gets %d of %d fixture forbidden sets "
			 "wrong: the fixture or the reference is mistaken",
			 wrong, sets);
}

static void renju_judge_gives_every_fixture_verdict(void **state)
{
	const struct fixture *loaded = fixture_load();
	int checks;
	int wrong;

	(void)state;
	wrong = fixture_wrong_checks(loaded, renju_judge, "renju_judge()",
				     &checks);
	if (wrong)
		fail_msg("renju_judge() gets %d of %d fixture checks wrong",
			 wrong, checks);
}

static void renju_forbidden_gives_every_fixture_set(void **state)
{
	const struct fixture *loaded = fixture_load();
	int sets;
	int wrong;

	(void)state;
	wrong = fixture_wrong_sets(loaded, renju_forbidden, "renju_forbidden()",
				   &sets);
	if (wrong)
		fail_msg("renju_forbidden() gets %d of %d fixture forbidden "
			 "sets wrong",
			 wrong, sets);
}

/* The fixture position with the most forbidden points. */
static const struct fixture_position *most_forbidden_position(void)
{
	const struct fixture *loaded = fixture_load();
	const struct fixture_position *most = &loaded->positions[0];
	int p;

	for (p = 1; p < loaded->count; p++) {
		if (loaded->positions[p].forbidden_count >
		    most->forbidden_count)
			most = &loaded->positions[p];
	}
	return most;
}

static void renju_forbidden_writes_at_most_max_and_counts_them_all(void **state)
{
	const struct fixture_position *position = most_forbidden_position();
	const struct board *board = &position->board;
	const struct cell unwritten = { -7, -7 };
	struct cell expected[FIXTURE_CELLS];
	struct cell got[FIXTURE_CELLS];
	int total = renju_reference_forbidden(board, expected, FIXTURE_CELLS);
	int maxes[] = { 0, 1, total / 2, total - 1, total, total + 3 };
	size_t m;
	int i;

	(void)state;
	if (total < 10)
		fail_msg("the fixture's most forbidden position, \"%s\", has "
			 "only %d forbidden points",
			 position->name, total);
	for (m = 0; m < sizeof(maxes) / sizeof(maxes[0]); m++) {
		int max = maxes[m];
		int count;

		for (i = 0; i < FIXTURE_CELLS; i++)
			got[i] = unwritten;
		count = renju_forbidden(board, got, max);
		if (count != total)
			fail_msg("\"%s\": renju_forbidden(max %d) returned %d, "
				 "expected all %d",
				 position->name, max, count, total);
		for (i = 0; i < FIXTURE_CELLS; i++) {
			struct cell want = i < max && i < total ? expected[i] :
								  unwritten;

			if (got[i].x != want.x || got[i].y != want.y)
				fail_msg("\"%s\": renju_forbidden(max %d) "
					 "wrote (%d, %d) at %d, expected "
					 "(%d, %d)",
					 position->name, max, got[i].x,
					 got[i].y, i, want.x, want.y);
		}
	}
}

/* Prints a position and the point two judges disagree on. */
static void print_mismatch(const struct board *board, int position, int x,
			   int y, enum renju_verdict got,
			   enum renju_verdict expected)
{
	char name[16];

	printf("random position %d (%dx%d): %s: renju_judge() says %s, the "
	       "reference %s\n",
	       position, board->size, board->size,
	       point_name(board->size, x, y, name), renju_verdict_name(got),
	       renju_verdict_name(expected));
	print_board(board);
}

static void
renju_judge_agrees_with_the_reference_on_random_positions(void **state)
{
	struct prng prng = { RANDOM_SEED };
	struct board board;
	long points = 0;
	long wrong_points = 0;
	int wrong_positions = 0;
	int p;

	(void)state;
	for (p = 0; p < RANDOM_POSITIONS; p++) {
		bool wrong = false;
		int x;
		int y;

		renju_random_position(&prng, &board, false);
		for (y = 0; y < board.size; y++) {
			for (x = 0; x < board.size; x++) {
				enum renju_verdict got;
				enum renju_verdict expected;

				if (board_get(&board, x, y) != ROLE_NONE)
					continue;
				points++;
				got = renju_judge(&board, x, y);
				expected = renju_reference_judge(&board, x, y);
				if (got == expected)
					continue;
				wrong_points++;
				if (!wrong &&
				    wrong_positions < MISMATCHES_SHOWN)
					print_mismatch(&board, p, x, y, got,
						       expected);
				wrong = true;
			}
		}
		wrong_positions += wrong;
	}
	if (wrong_points)
		fail_msg("renju_judge() and the reference disagree on %ld of "
			 "%ld points, in %d of %d random positions",
			 wrong_points, points, wrong_positions,
			 RANDOM_POSITIONS);
}

static void
renju_forbidden_agrees_with_the_reference_on_random_positions(void **state)
{
	struct prng prng = { RANDOM_SEED ^ 0x9e3779b9u };
	struct cell expected[BOARD_MAX_CELLS];
	struct cell got[BOARD_MAX_CELLS];
	struct board board;
	int wrong_positions = 0;
	int p;

	(void)state;
	for (p = 0; p < RANDOM_POSITIONS; p++) {
		int expected_count;
		int count;
		int i;

		renju_random_position(&prng, &board, false);
		expected_count = renju_reference_forbidden(&board, expected,
							   BOARD_MAX_CELLS);
		count = renju_forbidden(&board, got, BOARD_MAX_CELLS);
		for (i = 0; i < count && i < expected_count; i++) {
			if (got[i].x != expected[i].x ||
			    got[i].y != expected[i].y)
				break;
		}
		if (count == expected_count && i == count)
			continue;
		if (wrong_positions++ >= MISMATCHES_SHOWN)
			continue;
		printf("random position %d (%dx%d): renju_forbidden() gives "
		       "%d points, the reference %d\n",
		       p, board.size, board.size, count, expected_count);
		print_cells("  reference:", board.size, expected,
			    expected_count);
		print_cells("  got:      ", board.size, got,
			    count < BOARD_MAX_CELLS ? count : BOARD_MAX_CELLS);
		print_board(&board);
	}
	if (wrong_positions)
		fail_msg("renju_forbidden() and the reference disagree on %d "
			 "of %d random positions",
			 wrong_positions, RANDOM_POSITIONS);
}

static void renju_forbidden_lists_the_points_renju_judge_forbids(void **state)
{
	const struct fixture *loaded = fixture_load();
	struct prng prng = { RANDOM_SEED ^ 0x51ed27u };
	struct cell got[BOARD_MAX_CELLS];
	struct board board;
	int p;

	(void)state;
	for (p = 0; p < loaded->count + 200; p++) {
		int count;
		int forbidding;
		int x;
		int y;

		if (p < loaded->count)
			board = loaded->positions[p].board;
		else
			renju_random_position(&prng, &board, false);
		count = renju_forbidden(&board, got, BOARD_MAX_CELLS);
		forbidding = 0;
		for (y = 0; y < board.size; y++) {
			for (x = 0; x < board.size; x++) {
				struct cell cell = { x, y };
				bool forbids =
					board_get(&board, x, y) == ROLE_NONE &&
					renju_forbids(
						renju_judge(&board, x, y));
				char name[16];

				forbidding += forbids;
				if (forbids == cells_contain(got, count, cell))
					continue;
				print_board(&board);
				fail_msg("position %d: renju_judge() %s %s but "
					 "renju_forbidden() %s it",
					 p, forbids ? "forbids" : "allows",
					 point_name(board.size, x, y, name),
					 forbids ? "leaves out" : "lists");
			}
		}
		if (count != forbidding)
			fail_msg("position %d: renju_forbidden() counts %d "
				 "points, renju_judge() forbids %d",
				 p, count, forbidding);
	}
}

static void
renju_forbids_only_overline_double_four_and_double_three(void **state)
{
	(void)state;
	assert_false(renju_forbids(RENJU_ALLOWED));
	assert_false(renju_forbids(RENJU_FIVE));
	assert_true(renju_forbids(RENJU_OVERLINE));
	assert_true(renju_forbids(RENJU_DOUBLE_FOUR));
	assert_true(renju_forbids(RENJU_DOUBLE_THREE));
}

static void renju_verdict_name_names_every_verdict(void **state)
{
	(void)state;
	expect_str(renju_verdict_name(RENJU_ALLOWED), "allowed");
	expect_str(renju_verdict_name(RENJU_FIVE), "five");
	expect_str(renju_verdict_name(RENJU_OVERLINE), "overline");
	expect_str(renju_verdict_name(RENJU_DOUBLE_FOUR), "double_four");
	expect_str(renju_verdict_name(RENJU_DOUBLE_THREE), "double_three");
}

static void occupied_and_off_board_points_are_allowed(void **state)
{
	const struct fixture_position *position = most_forbidden_position();
	const struct board *board = &position->board;
	static const struct cell off_board[] = {
		{ -1, 0 }, { 0, -1 },  { 15, 7 },
		{ 7, 15 }, { -1, -1 }, { 15, 15 },
	};
	size_t i;
	int x;
	int y;

	(void)state;
	for (y = 0; y < board->size; y++) {
		for (x = 0; x < board->size; x++) {
			if (board_get(board, x, y) == ROLE_NONE)
				continue;
			expect_enum(renju_judge(board, x, y), RENJU_ALLOWED,
				    renju_verdict_name);
			expect_enum(renju_reference_judge(board, x, y),
				    RENJU_ALLOWED, renju_verdict_name);
		}
	}
	for (i = 0; i < sizeof(off_board) / sizeof(off_board[0]); i++) {
		expect_enum(renju_judge(board, off_board[i].x, off_board[i].y),
			    RENJU_ALLOWED, renju_verdict_name);
		expect_enum(renju_reference_judge(board, off_board[i].x,
						  off_board[i].y),
			    RENJU_ALLOWED, renju_verdict_name);
	}
}

/*
 * Positions a game never reaches (black fives and overlines already on
 * the board, full boards) get some answer, not a crash: run under the
 * sanitizers, this is their test.
 */
static void positions_no_game_reaches_are_judged_without_crashing(void **state)
{
	struct prng prng = { RANDOM_SEED ^ 0xdeadu };
	struct cell got[BOARD_MAX_CELLS];
	struct board board;
	int p;
	int x;
	int y;

	(void)state;
	for (p = 0; p < 300; p++) {
		renju_random_position(&prng, &board, true);
		if (p % 3 == 0) {
			for (y = 0; y < board.size; y++) {
				for (x = 0; x < board.size; x++) {
					if (board_get(&board, x, y) ==
						    ROLE_NONE &&
					    random_below(&prng, 4) != 0)
						board_set(&board, x, y,
							  ROLE_FRONT);
				}
			}
		}
		for (y = 0; y < board.size; y++) {
			for (x = 0; x < board.size; x++) {
				enum renju_verdict verdict =
					renju_judge(&board, x, y);

				if ((int)verdict < 0 ||
				    (int)verdict >= RENJU_VERDICT_COUNT)
					fail_msg("renju_judge() returned %d",
						 (int)verdict);
			}
		}
		renju_forbidden(&board, got, BOARD_MAX_CELLS);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_fixture_has_every_shape_and_verdict),
		cmocka_unit_test(
			the_reference_judge_agrees_with_every_fixture_check),
		cmocka_unit_test(
			the_reference_finds_every_fixture_forbidden_set),
		cmocka_unit_test(renju_judge_gives_every_fixture_verdict),
		cmocka_unit_test(renju_forbidden_gives_every_fixture_set),
		cmocka_unit_test(
			renju_forbidden_writes_at_most_max_and_counts_them_all),
		cmocka_unit_test(
			renju_judge_agrees_with_the_reference_on_random_positions),
		cmocka_unit_test(
			renju_forbidden_agrees_with_the_reference_on_random_positions),
		cmocka_unit_test(
			renju_forbidden_lists_the_points_renju_judge_forbids),
		cmocka_unit_test(
			renju_forbids_only_overline_double_four_and_double_three),
		cmocka_unit_test(renju_verdict_name_names_every_verdict),
		cmocka_unit_test(occupied_and_off_board_points_are_allowed),
		cmocka_unit_test(
			positions_no_game_reaches_are_judged_without_crashing),
	};

	/* The positions printed on stdout stay in order with cmocka's errors
	 * on stderr. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
