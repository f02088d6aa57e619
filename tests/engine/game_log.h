/*
 * game_log.h - one game of a gomoku-match --log file, read back: the
 * line "n black winner end: x,y …" (board 15). Shared by the tools that
 * replay match logs (tune_eval.c, loss_scan.c).
 */
#ifndef GOMOKU_GAME_LOG_H
#define GOMOKU_GAME_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engine_position.h"

/* One logged game; the caller's. */
struct logged_game {
	int number;			/* its number in the match */
	char black[8];			/* who was black: "A" or "B" */
	char winner[8];			/* "A", "B" or "draw" */
	int count;			/* stones in cells */
	int16_t cells[BOARD_MAX_CELLS]; /* position_index() of each, in order */
};

/*
 * Reads the game of one log line (changed: it is tokenised) into game;
 * the stones stop at the first that is not "x,y". False when the line
 * is no game.
 */
static inline bool logged_game_parse(char *line, struct logged_game *game)
{
	char *moves = strstr(line, ": "), *at;

	if (!moves || sscanf(line, "%d %7s %7s", &game->number, game->black,
			     game->winner) != 3)
		return false;
	game->count = 0;
	for (at = strtok(moves + 2, " \n"); at && game->count < BOARD_MAX_CELLS;
	     at = strtok(NULL, " \n")) {
		int x, y;

		if (sscanf(at, "%d,%d", &x, &y) != 2)
			break;
		game->cells[game->count++] = (int16_t)position_index(x, y);
	}
	return true;
}

#endif
