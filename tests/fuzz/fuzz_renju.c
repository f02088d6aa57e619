/*
 * fuzz_renju.c - libFuzzer target for renju's forbidden moves: builds a
 * position from the input and holds renju_judge() and renju_forbidden()
 * to the slow reference judge of the unit tests
 * (tests/unit/renju_reference.c).
 *
 * Input:
 *
 *   byte 0          board size: 15 below 0xc0, else 5 + (byte - 0xc0) % 21
 *   byte 1          stones N = byte & 0x7f; when byte & 0x80, black stones
 *                   that make five or more are kept (a position no game
 *                   reaches: the judges are only run, not compared)
 *   N times A B     a stone at x = (A & 0x7f) % size, y = B % size, white
 *                   when A & 0x80, else black; skipped on an occupied cell
 *                   and, unless kept, when black and making five or more
 *   then X Y pairs  points to judge: x = X % (size + 2) - 1, likewise y,
 *                   so one past every edge too
 *
 * Every point is judged by both judges, which must agree; then the whole
 * board's forbidden points must be the reference's, in the same order,
 * and a call with a smaller max, into a heap block of exactly that many
 * cells, must still count them all and write only max.
 *
 * Any broken check aborts, which libFuzzer reports as a crash.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_reader.h"
#include "renju.h"
#include "renju_reference.h"


/* Prints board as tests/renju/positions.txt draws it, to stderr. */
static void fuzz_print_board(const struct board *board)
{
	int x;
	int y;

	for (y = 0; y < board->size; y++) {
		fprintf(stderr, "%2d", board->size - y);
		for (x = 0; x < board->size; x++) {
			enum role role = board_get(board, x, y);

			fprintf(stderr, " %c",
				role == ROLE_FRONT ? 'X' :
				role == ROLE_BACK  ? 'O' :
						     '.');
		}
		fprintf(stderr, "\n");
	}
	fprintf(stderr, "  ");
	for (x = 0; x < board->size; x++)
		fprintf(stderr, " %c", 'A' + x);
	fprintf(stderr, "\n");
}

/* Prints what broke and the board, and stops. */
#define fuzz_fail(board, ...)                                               \
	do {                                                                \
		fprintf(stderr, "fuzz_renju: %s:%d: ", __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__);                               \
		fprintf(stderr, "\n");                                      \
		fuzz_print_board(board);                                    \
		abort();                                                    \
	} while (0)

/* Builds the position of the input's header and stones into board. */
static bool fuzz_position(struct fuzz_reader *in, struct board *board)
{
	uint8_t size_byte = fuzz_byte(in);
	uint8_t stones_byte = fuzz_byte(in);
	bool keep_fives = stones_byte & 0x80;
	int size = size_byte < 0xc0 ? 15 : 5 + (size_byte - 0xc0) % 21;
	int stones = stones_byte & 0x7f;
	int i;

	board_init(board, size);
	for (i = 0; i < stones; i++) {
		uint8_t a = fuzz_byte(in);
		uint8_t b = fuzz_byte(in);
		int x = (a & 0x7f) % size;
		int y = b % size;
		enum role role = a & 0x80 ? ROLE_BACK : ROLE_FRONT;

		if (board_get(board, x, y) != ROLE_NONE)
			continue;
		board_set(board, x, y, role);
		if (role == ROLE_FRONT && !keep_fives &&
		    rules_find_five(board, RULE_FREESTYLE, x, y, NULL))
			board_clear(board, x, y);
	}
	return keep_fives;
}

/* Judges the point with both judges; they must agree unless unchecked. */
static void fuzz_judge(const struct board *board, int x, int y, bool compare)
{
	enum renju_verdict got = renju_judge(board, x, y);
	enum renju_verdict expected;

	if ((int)got < 0 || (int)got >= RENJU_VERDICT_COUNT)
		fuzz_fail(board, "renju_judge(%d, %d) returned %d", x, y,
			  (int)got);
	if (!compare)
		return;
	expected = renju_reference_judge(board, x, y);
	if (got != expected)
		fuzz_fail(board,
			  "renju_judge(%d, %d) (%c%d) says %s, the reference "
			  "%s",
			  x, y, 'A' + x, board->size - y,
			  renju_verdict_name(got),
			  renju_verdict_name(expected));
}

/*
 * renju_forbidden() against the reference, in full and cut to half into
 * a heap block of exactly that size.
 */
static void fuzz_forbidden(const struct board *board, bool compare)
{
	static struct cell got[BOARD_MAX_CELLS];
	static struct cell expected[BOARD_MAX_CELLS];
	struct cell *cut;
	int count = renju_forbidden(board, got, BOARD_MAX_CELLS);
	int expected_count;
	int max;
	int i;

	if (count < 0 || count > board->size * board->size)
		fuzz_fail(board, "renju_forbidden() counted %d", count);
	if (!compare)
		return;
	expected_count =
		renju_reference_forbidden(board, expected, BOARD_MAX_CELLS);
	if (count != expected_count)
		fuzz_fail(board,
			  "renju_forbidden() counts %d, the reference %d",
			  count, expected_count);
	for (i = 0; i < count; i++) {
		if (got[i].x != expected[i].x || got[i].y != expected[i].y)
			fuzz_fail(board,
				  "renju_forbidden() gives (%d, %d) at %d, the "
				  "reference (%d, %d)",
				  got[i].x, got[i].y, i, expected[i].x,
				  expected[i].y);
	}

	max = count / 2;
	cut = malloc(sizeof(*cut) * (size_t)max);
	if (!cut && max > 0)
		abort();
	if (renju_forbidden(board, cut, max) != count)
		fuzz_fail(board,
			  "renju_forbidden(max %d) does not count all %d", max,
			  count);
	for (i = 0; i < max; i++) {
		if (cut[i].x != expected[i].x || cut[i].y != expected[i].y)
			fuzz_fail(board,
				  "renju_forbidden(max %d) gives (%d, %d) at "
				  "%d, the reference (%d, %d)",
				  max, cut[i].x, cut[i].y, i, expected[i].x,
				  expected[i].y);
	}
	free(cut);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_reader in = { data, size, 0 };
	struct board board;
	bool unreachable = fuzz_position(&in, &board);

	while (in.pos + 2 <= in.size) {
		int x = fuzz_byte(&in) % (board.size + 2) - 1;
		int y = fuzz_byte(&in) % (board.size + 2) - 1;

		fuzz_judge(&board, x, y, !unreachable);
	}
	fuzz_forbidden(&board, !unreachable);
	return 0;
}
