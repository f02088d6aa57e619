/*
 * engine_fixture.h - what the engine's tests share (test_engine.c,
 * test_engine_renju.c): positions drawn as rows of text, and one call of
 * the engine on a fresh engine.
 *
 * A drawing's rows are the board's rows from the top: 'X' is front
 * (black), 'O' back (white), anything else an empty cell; a NULL ends the
 * rows, and the rows left out are empty.
 */
#ifndef GOMOKU_TEST_ENGINE_FIXTURE_H
#define GOMOKU_TEST_ENGINE_FIXTURE_H

#include <stdint.h>

#include "engine.h"

/* Fills board (size x size) from rows of text; fails the test on error. */
void board_draw(struct board *board, int size, const char *const *rows);

/*
 * Plays level for role on board under rule with max_nodes and seed 1, on
 * an engine of its own; fails the test on an error.
 */
struct engine_result choose(const struct board *board, enum role role,
			    enum rule rule, enum engine_level level,
			    uint64_t max_nodes);

#endif
