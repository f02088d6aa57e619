/*
 * game.c - one room's game: turns, moves and how the game ends.
 */
#include "game.h"

#include "renju.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int game_init(struct game *game, int size, enum rule rule,
	      enum full_board full_board)
{
	struct board board;
	uint16_t *history;
	int err;

	err = board_init(&board, size);
	if (err)
		return err;
	history = calloc((size_t)size * (size_t)size, sizeof(*history));
	if (!history)
		return -ENOMEM;
	memset(game, 0, sizeof(*game));
	game->board = board;
	game->history = history;
	game->rule = rule;
	game->full_board = full_board;
	game->to_move = ROLE_FRONT;
	game->last_mover = ROLE_NONE;
	game->winner = WINNER_NONE;
	game->reason = REASON_NONE;
	return 0;
}

void game_release(struct game *game)
{
	free(game->history);
	game->history = NULL;
}

int game_copy(struct game *copy, const struct game *game)
{
	size_t cells = (size_t)game->board.size * (size_t)game->board.size;
	uint16_t *history = malloc(cells * sizeof(*history));

	if (!history)
		return -ENOMEM;
	memcpy(history, game->history, cells * sizeof(*history));
	*copy = *game;
	copy->history = history;
	return 0;
}

bool game_is_over(const struct game *game)
{
	return game->winner != WINNER_NONE;
}

/* The winner that stands for role. */
static enum game_winner game_winner_of(enum role role)
{
	return role == ROLE_FRONT ? WINNER_FRONT : WINNER_BACK;
}

/* Ends the game with winner for reason; nobody is to move any more. */
static void game_end(struct game *game, enum game_winner winner,
		     enum game_reason reason)
{
	game->winner = winner;
	game->reason = reason;
	game->to_move = ROLE_NONE;
}

/* Who a full board with no five goes to. */
static enum game_winner game_full_board_winner(const struct game *game)
{
	if (game->full_board == FULL_BOARD_DRAW)
		return WINNER_DRAW;
	return WINNER_BACK;
}

enum move_result game_play(struct game *game, enum role role, int x, int y)
{
	if (game_is_over(game))
		return MOVE_GAME_OVER;
	if (role == ROLE_NONE || role != game->to_move)
		return MOVE_NOT_YOUR_TURN;
	if (!board_in_range(&game->board, x, y))
		return MOVE_OUT_OF_RANGE;
	if (board_get(&game->board, x, y) != ROLE_NONE)
		return MOVE_OCCUPIED;
	if (game->rule == RULE_RENJU && role == ROLE_FRONT &&
	    renju_forbids(renju_judge(&game->board, x, y)))
		return MOVE_FORBIDDEN;

	board_set(&game->board, x, y, role);
	game->history[game->moves_played] =
		(uint16_t)board_index(game->board.size, x, y);
	game->moves_played++;
	game->last_move.x = x;
	game->last_move.y = y;
	game->last_mover = role;

	if (rules_find_five(&game->board, game->rule, x, y, &game->line))
		game_end(game, game_winner_of(role), REASON_FIVE);
	else if (board_is_full(&game->board))
		game_end(game, game_full_board_winner(game), REASON_FULL);
	else
		game->to_move = role_other(role);
	return MOVE_OK;
}

enum move_result game_find_board_move(const struct game *game, enum role role,
				      const uint8_t *cells, int *x, int *y)
{
	const struct board *board = &game->board;
	int count = board->size * board->size;
	int new_stones = 0;
	int found = -1;
	bool occupied_changed = false;
	bool other_stone = false;
	bool removed = false;
	int i;

	if (game_is_over(game))
		return MOVE_GAME_OVER;
	if (role == ROLE_NONE || role != game->to_move)
		return MOVE_NOT_YOUR_TURN;

	for (i = 0; i < count; i++) {
		if (cells[i] > ROLE_BACK)
			return MOVE_BAD_BOARD;
		if (cells[i] == board->cells[i])
			continue;
		if (board->cells[i] != ROLE_NONE && cells[i] == ROLE_NONE) {
			removed = true;
		} else if (board->cells[i] != ROLE_NONE) {
			occupied_changed = true;
		} else if (cells[i] == role) {
			new_stones++;
			found = i;
		} else {
			other_stone = true;
		}
	}
	if (removed)
		return MOVE_BAD_BOARD;
	if (occupied_changed)
		return MOVE_OCCUPIED;
	if (other_stone || new_stones != 1)
		return MOVE_BAD_BOARD;
	*x = found % board->size;
	*y = found / board->size;
	return MOVE_OK;
}

bool game_undo(struct game *game, struct cell *cell, enum role *mover)
{
	int size = game->board.size;

	if (game_is_over(game) || game->moves_played == 0)
		return false;
	*cell = board_cell(size, game->history[--game->moves_played]);
	*mover = game->moves_played % 2 ? ROLE_BACK : ROLE_FRONT;
	board_clear(&game->board, cell->x, cell->y);
	game->to_move = *mover;
	if (game->moves_played) {
		game->last_move =
			board_cell(size, game->history[game->moves_played - 1]);
		game->last_mover = role_other(*mover);
	} else {
		game->last_move = (struct cell){ 0, 0 };
		game->last_mover = ROLE_NONE;
	}
	return true;
}

void game_forfeit(struct game *game, enum role loser)
{
	game_lose(game, loser, REASON_FORFEIT);
}

void game_lose(struct game *game, enum role loser, enum game_reason reason)
{
	if (game_is_over(game) || role_other(loser) == ROLE_NONE)
		return;
	game_end(game, game_winner_of(role_other(loser)), reason);
}

void game_halt(struct game *game, enum game_reason reason)
{
	if (game_is_over(game))
		return;
	game_end(game,
		 reason == REASON_AGREEMENT ? WINNER_DRAW : WINNER_NOBODY,
		 reason);
}

const char *move_result_name(enum move_result result)
{
	switch (result) {
	case MOVE_OK:
		return "ok";
	case MOVE_OUT_OF_RANGE:
		return "out_of_range";
	case MOVE_OCCUPIED:
		return "occupied";
	case MOVE_NOT_YOUR_TURN:
		return "not_your_turn";
	case MOVE_GAME_OVER:
		return "game_over";
	case MOVE_BAD_BOARD:
		return "bad_board";
	case MOVE_FORBIDDEN:
		return "forbidden";
	}
	return "(not a move result)";
}

const char *game_winner_name(enum game_winner winner)
{
	switch (winner) {
	case WINNER_FRONT:
		return "front";
	case WINNER_BACK:
		return "back";
	case WINNER_DRAW:
		return "draw";
	case WINNER_NOBODY:
		return "none";
	default:
		return "";
	}
}

const char *game_reason_name(enum game_reason reason)
{
	switch (reason) {
	case REASON_FIVE:
		return "five";
	case REASON_FULL:
		return "full";
	case REASON_FORFEIT:
		return "forfeit";
	case REASON_TIMEOUT:
		return "timeout";
	case REASON_RESIGN:
		return "resign";
	case REASON_AGREEMENT:
		return "agreement";
	case REASON_ABORTED:
		return "aborted";
	default:
		return "";
	}
}
