/*
 * engine_fixture.c - what the engine's tests share (see engine_fixture.h).
 */
#include "engine_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "expect.h"

void board_draw(struct board *board, int size, const char *const *rows)
{
	int x, y;

	assert_int_equal(board_init(board, size), 0);
	for (y = 0; y < size && rows[y]; y++) {
		for (x = 0; x < size && rows[y][x]; x++) {
			if (rows[y][x] == 'X')
				board_set(board, x, y, ROLE_FRONT);
			else if (rows[y][x] == 'O')
				board_set(board, x, y, ROLE_BACK);
		}
	}
}

struct engine_result choose(const struct board *board, enum role role,
			    enum rule rule, enum engine_level level,
			    uint64_t max_nodes)
{
	struct engine_limits limits = { .max_nodes = max_nodes, .seed = 1 };
	struct engine_result result;
	struct engine *engine = engine_new(1 << 16);

	assert_non_null(engine);
	expect_int(engine_choose(engine, board, role, rule, level, &limits,
				 &result),
		   0);
	engine_free(engine);
	return result;
}
