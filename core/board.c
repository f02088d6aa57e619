/*
 * board.c - the N x N board: cells, range checks and the names of the
 * enums every module shares.
 */
#include "board.h"

#include <errno.h>
#include <string.h>

int board_init(struct board *board, int size)
{
	if (size < BOARD_MIN_SIZE || size > BOARD_MAX_SIZE)
		return -EINVAL;
	memset(board, 0, sizeof(*board));
	board->size = size;
	return 0;
}

bool board_in_range(const struct board *board, int x, int y)
{
	return x >= 0 && x < board->size && y >= 0 && y < board->size;
}

enum role board_get(const struct board *board, int x, int y)
{
	return (enum role)board->cells[board_index(board->size, x, y)];
}

void board_set(struct board *board, int x, int y, enum role role)
{
	board->cells[board_index(board->size, x, y)] = (uint8_t)role;
	board->stones++;
}

void board_clear(struct board *board, int x, int y)
{
	board->cells[board_index(board->size, x, y)] = ROLE_NONE;
	board->stones--;
}

bool board_is_full(const struct board *board)
{
	return board->stones == board->size * board->size;
}

enum role role_other(enum role role)
{
	switch (role) {
	case ROLE_FRONT:
		return ROLE_BACK;
	case ROLE_BACK:
		return ROLE_FRONT;
	default:
		return ROLE_NONE;
	}
}

const char *role_name(enum role role)
{
	switch (role) {
	case ROLE_FRONT:
		return "front";
	case ROLE_BACK:
		return "back";
	default:
		return "";
	}
}

/* Every rule's name, as the protocol and the database spell it. */
static const char *const rule_names[RULE_COUNT] = {
	[RULE_FREESTYLE] = "freestyle",
	[RULE_STANDARD] = "standard",
	[RULE_RENJU] = "renju",
};

const char *rule_name(enum rule rule)
{
	return (unsigned)rule < RULE_COUNT ? rule_names[rule] :
					     rule_names[RULE_FREESTYLE];
}

bool rule_parse(const char *name, enum rule *rule)
{
	for (int i = 0; i < RULE_COUNT; i++) {
		if (!strcmp(name, rule_names[i])) {
			*rule = (enum rule)i;
			return true;
		}
	}
	return false;
}
