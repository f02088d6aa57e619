/*
 * pbrain.c - pbrain-gomoku: the built-in engine (master level) as a brain
 * for the Gomocup / Piskvork protocol, so that it can play in Gomocup-style
 * tournaments (piskvork, gomocup manager) and be measured against other
 * engines.
 *
 * The manager writes one command a line on stdin; every answer is one line
 * on stdout, flushed at once:
 *
 *   START n          OK, or ERROR for a size outside 5..25
 *   RECTSTART w,h    like START n when w = h, else ERROR
 *   RESTART          empties the board: OK
 *   BEGIN            our first move, "x,y"
 *   TURN x,y         the opponent's move; our answer "x,y"
 *   PLAY x,y         play this move for us: "x,y"
 *   BOARD            then "x,y,who" lines (1: ours, 2: the opponent's,
 *                    3: a stone of a continuous game, counted as the
 *                    opponent's) up to DONE; our move "x,y"
 *   TAKEBACK x,y     removes that stone: OK
 *   INFO key value   timeout_turn, timeout_match, time_left (ms),
 *                    max_memory (bytes), rule (gomocup.h: 0 freestyle,
 *                    1 exactly five, 4 renju; a continuous game and caro
 *                    are not played, which a MESSAGE line says, and play
 *                    goes on); no answer
 *   ABOUT            name="gomoku-server", version=…, …
 *   END              exits with status 0
 *
 * Unknown commands get "UNKNOWN …", malformed ones "ERROR …". Each move
 * is searched until a deadline: the turn time (INFO timeout_turn, 1 s by
 * default) less a safety margin, and at most a fifteenth of the match
 * time left when the manager says how much that is.
 *
 * Renju tells black from white: black moved first, so we are black when
 * we have as many stones as the opponent (whatever order BOARD sent them
 * in), and the engine then never plays a forbidden point.
 *
 *   pbrain-gomoku [--level L] [--nodes N] [--threads N]
 *
 * --level plays another level than master (at its own node budget, the
 * turn's time as a cap); --nodes gives every move a node budget (still
 * capped by the turn's time), so that a match at a node budget plays the
 * same games on any machine (tests/engine/match.c); --threads searches
 * with that many threads (engine_set_threads()).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "board.h"
#include "engine.h"
#include "gomocup.h"

#ifndef GOMOKU_VERSION
#define GOMOKU_VERSION "0"
#endif

#define BRAIN_LINE_MAX 1024
#define BRAIN_DEFAULT_TURN_MS 1000
#define BRAIN_MARGIN_MS 50	    /* kept back from a deadline, at most */
#define BRAIN_MARGIN_MIN_MS 10	    /* and at least */
#define BRAIN_MIN_THINK_MS 10	    /* even when time is short */
#define BRAIN_FAST_NODES 20000	    /* timeout_turn 0: "play at once" */
#define BRAIN_TT_ENTRIES (1u << 20) /* 16 MB */
#define BRAIN_TT_BYTES_PER_ENTRY 16u

/* One of these per process: the game as the manager told it. */
struct brain {
	struct board board;	 /* ROLE_FRONT: our stones; ROLE_BACK: his */
	bool started;		 /* a START came */
	enum rule rule;		 /* from INFO rule (gomocup.h) */
	long timeout_turn_ms;	 /* INFO timeout_turn; -1: not given */
	long time_left_ms;	 /* INFO time_left; -1: not given */
	size_t tt_entries;	 /* what the engine was made with */
	struct engine *engine;	 /* one table for the game */
	enum engine_level level; /* --level: master unless told */
	uint64_t nodes;		 /* --nodes: a budget per move; 0: none */
	int threads;		 /* --threads: search threads, 1 by default */
};

/* CLOCK_MONOTONIC in microseconds: the engine's clock. */
static uint64_t brain_now_us(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Writes one answer line and flushes it. */
static void brain_say(const char *format, ...)
	__attribute__((format(printf, 1, 2)));

static void brain_say(const char *format, ...)
{
	va_list args;

	va_start(args, format);
	vprintf(format, args);
	va_end(args);
	putchar('\n');
	fflush(stdout);
}

/* Parses "x,y" (spaces allowed); 0, or -EINVAL. */
static int parse_cell(const char *text, int *x, int *y)
{
	char *end;
	long a, b;

	a = strtol(text, &end, 10);
	if (end == text)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	if (*end != ',')
		return -EINVAL;
	text = end + 1;
	b = strtol(text, &end, 10);
	if (end == text || a < 0 || b < 0 || a > BOARD_MAX_SIZE ||
	    b > BOARD_MAX_SIZE)
		return -EINVAL;
	*x = (int)a;
	*y = (int)b;
	return 0;
}

/* Whether (x, y) is an empty cell of the current board. */
static bool brain_cell_free(const struct brain *brain, int x, int y)
{
	return board_in_range(&brain->board, x, y) &&
	       board_get(&brain->board, x, y) == ROLE_NONE;
}

/* The search time of this move, in microseconds. */
static uint64_t brain_think_us(const struct brain *brain)
{
	long turn = brain->timeout_turn_ms < 0 ? BRAIN_DEFAULT_TURN_MS :
						 brain->timeout_turn_ms;
	/* a twentieth of the turn: what answering and scheduling cost */
	long margin = BRAIN_MARGIN_MIN_MS + turn / 20;
	long think;

	if (margin > BRAIN_MARGIN_MS)
		margin = BRAIN_MARGIN_MS;
	think = turn - margin;
	if (brain->time_left_ms >= 0 &&
	    think > brain->time_left_ms / 15 - margin)
		think = brain->time_left_ms / 15 - margin;
	if (think < BRAIN_MIN_THINK_MS)
		think = BRAIN_MIN_THINK_MS;
	return (uint64_t)think * 1000u;
}

/*
 * The board as the engine sees it, in view, and our colour there. Only
 * renju tells the colours apart (ROLE_FRONT is black, who moved first):
 * there, with fewer stones than the opponent we are white and the
 * colours are swapped. Elsewhere ours are ROLE_FRONT.
 */
static enum role brain_view(const struct brain *brain, struct board *view)
{
	int cells = brain->board.size * brain->board.size;
	int ours = 0, his = 0, i;

	*view = brain->board;
	if (brain->rule != RULE_RENJU)
		return ROLE_FRONT;
	for (i = 0; i < cells; i++) {
		ours += view->cells[i] == ROLE_FRONT;
		his += view->cells[i] == ROLE_BACK;
	}
	if (ours >= his)
		return ROLE_FRONT;
	for (i = 0; i < cells; i++)
		if (view->cells[i] != ROLE_NONE)
			view->cells[i] =
				(uint8_t)role_other((enum role)view->cells[i]);
	return ROLE_BACK;
}

/* Chooses, plays and announces our move. */
static void brain_move(struct brain *brain)
{
	struct engine_limits limits = { .now_us = brain_now_us };
	struct engine_result result;
	struct board view;
	enum role me = brain_view(brain, &view);
	int err;

	if (brain->timeout_turn_ms == 0) {
		limits.max_nodes = brain->nodes ? brain->nodes :
						  BRAIN_FAST_NODES;
	} else {
		/*
		 * a tournament: as deep as the turn's time allows (master),
		 * or the level's or --nodes' budget, the time as a cap
		 */
		limits.max_nodes = brain->nodes ? brain->nodes :
				   brain->level == ENGINE_MASTER ?
						  ENGINE_NODES_UNLIMITED :
						  0;
		limits.deadline_us = brain_now_us(NULL) + brain_think_us(brain);
	}
	err = engine_choose(brain->engine, &view, me, brain->rule, brain->level,
			    &limits, &result);
	if (err == -ENOSPC) {
		brain_say("ERROR no move left: the board is full%s",
			  brain->rule == RULE_RENJU ?
				  " or every empty point is forbidden" :
				  "");
		return;
	}
	if (err) {
		brain_say("ERROR the engine refused the position (%d)", err);
		return;
	}
	board_set(&brain->board, result.x, result.y, ROLE_FRONT);
	brain_say("%d,%d", result.x, result.y);
}

/* START n / RECTSTART w,h: a new game on an n x n board. */
static void brain_start(struct brain *brain, int size)
{
	if (size < BOARD_MIN_SIZE || size > BOARD_MAX_SIZE) {
		brain_say("ERROR unsupported size %d: 5 to 25 only", size);
		return;
	}
	board_init(&brain->board, size);
	brain->started = true;
	brain_say("OK");
}

/* INFO key value. */
static void brain_info(struct brain *brain, const char *key, const char *value)
{
	long number = strtol(value, NULL, 10);

	if (strcasecmp(key, "timeout_turn") == 0) {
		brain->timeout_turn_ms = number < 0 ? -1 : number;
	} else if (strcasecmp(key, "time_left") == 0) {
		brain->time_left_ms = number < 0 ? -1 : number;
	} else if (strcasecmp(key, "max_memory") == 0 && number > 0) {
		/* Keep the table within a quarter of the allowance. */
		size_t entries = BRAIN_TT_ENTRIES;
		struct engine *engine;

		while (entries > 1024 &&
		       entries * BRAIN_TT_BYTES_PER_ENTRY > (size_t)number / 4)
			entries /= 2;
		if (entries == brain->tt_entries)
			return;
		engine = engine_new(entries);
		if (!engine || engine_set_threads(engine, brain->threads)) {
			engine_free(engine);
			return;
		}
		engine_free(brain->engine);
		brain->engine = engine;
		brain->tt_entries = entries;
	} else if (strcasecmp(key, "rule") == 0) {
		long ignored;

		brain->rule = gomocup_rule_parse(number, &ignored);
		if (ignored)
			brain_say("MESSAGE rule %ld: continuous games and caro "
				  "are not supported: playing %s",
				  number, rule_name(brain->rule));
	}
	/* timeout_match, game_type, evaluate, folder: nothing to do */
}

/* BOARD: reads "x,y,who" lines up to DONE, then moves. */
static void brain_board(struct brain *brain)
{
	char line[BRAIN_LINE_MAX];
	bool bad = false;

	board_init(&brain->board, brain->board.size);
	while (fgets(line, sizeof(line), stdin)) {
		char *comma;
		int x, y, who;

		if (strncasecmp(line, "DONE", 4) == 0) {
			if (bad)
				brain_say("ERROR bad stone in BOARD");
			else
				brain_move(brain);
			return;
		}
		comma = strrchr(line, ',');
		if (!comma || parse_cell(line, &x, &y)) {
			bad = true;
			continue;
		}
		who = atoi(comma + 1);
		if (!brain_cell_free(brain, x, y) || who < 1 || who > 3) {
			bad = true;
			continue;
		}
		board_set(&brain->board, x, y,
			  who == 1 ? ROLE_FRONT : ROLE_BACK);
	}
	exit(0); /* the manager went away */
}

/* Handles one command line; returns false on END. */
static bool brain_command(struct brain *brain, char *line)
{
	char *args;
	int x, y;

	line[strcspn(line, "\r\n")] = '\0';
	while (isspace((unsigned char)*line))
		line++;
	if (!*line)
		return true;
	args = line + strcspn(line, " \t");
	if (*args)
		*args++ = '\0';
	while (isspace((unsigned char)*args))
		args++;

	if (strcasecmp(line, "END") == 0)
		return false;
	if (strcasecmp(line, "ABOUT") == 0) {
		brain_say("name=\"gomoku-server\", version=\"%s\", "
			  "author=\"the gomoku-server project\", "
			  "country=\"n/a\"",
			  GOMOKU_VERSION);
	} else if (strcasecmp(line, "START") == 0) {
		brain_start(brain, atoi(args));
	} else if (strcasecmp(line, "RECTSTART") == 0) {
		if (parse_cell(args, &x, &y) || x != y)
			brain_say("ERROR rectangular boards are not supported");
		else
			brain_start(brain, x);
	} else if (strcasecmp(line, "INFO") == 0) {
		char *value = args + strcspn(args, " \t");

		if (*value)
			*value++ = '\0';
		brain_info(brain, args, value);
	} else if (!brain->started) {
		brain_say("ERROR no START yet");
	} else if (strcasecmp(line, "RESTART") == 0) {
		board_init(&brain->board, brain->board.size);
		brain_say("OK");
	} else if (strcasecmp(line, "BEGIN") == 0) {
		brain_move(brain);
	} else if (strcasecmp(line, "TURN") == 0) {
		if (parse_cell(args, &x, &y) || !brain_cell_free(brain, x, y)) {
			brain_say("ERROR invalid move %s", args);
			return true;
		}
		board_set(&brain->board, x, y, ROLE_BACK);
		brain_move(brain);
	} else if (strcasecmp(line, "PLAY") == 0) {
		if (parse_cell(args, &x, &y) || !brain_cell_free(brain, x, y)) {
			brain_say("ERROR invalid move %s", args);
			return true;
		}
		board_set(&brain->board, x, y, ROLE_FRONT);
		brain_say("%d,%d", x, y);
	} else if (strcasecmp(line, "BOARD") == 0) {
		brain_board(brain);
	} else if (strcasecmp(line, "TAKEBACK") == 0) {
		if (parse_cell(args, &x, &y) ||
		    !board_in_range(&brain->board, x, y) ||
		    board_get(&brain->board, x, y) == ROLE_NONE) {
			brain_say("ERROR no stone at %s", args);
			return true;
		}
		board_clear(&brain->board, x, y);
		brain_say("OK");
	} else {
		brain_say("UNKNOWN command %s", line);
	}
	return true;
}

/* The command line; 0, or -1 after a usage message. */
static int brain_options(struct brain *brain, int argc, char **argv)
{
	static const struct option longs[] = {
		{ "level", required_argument, NULL, 'l' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "threads", required_argument, NULL, 't' },
		{ 0 },
	};
	char *end;
	int option;

	while ((option = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (option) {
		case 'l':
			if (engine_level_parse(optarg, &brain->level))
				goto usage;
			break;
		case 'n':
			errno = 0;
			brain->nodes = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || !brain->nodes)
				goto usage;
			break;
		case 't':
			brain->threads = (int)strtol(optarg, &end, 10);
			if (end == optarg || *end || brain->threads < 1 ||
			    brain->threads > ENGINE_MAX_THREADS)
				goto usage;
			break;
		default:
			goto usage;
		}
	}
	if (optind == argc)
		return 0;
usage:
	fprintf(stderr, "usage: pbrain-gomoku [--level beginner|easy|medium|"
			"hard|master] [--nodes N] [--threads N]\n");
	return -1;
}

int main(int argc, char **argv)
{
	struct brain brain = {
		.rule = RULE_FREESTYLE,
		.timeout_turn_ms = -1,
		.time_left_ms = -1,
		.tt_entries = BRAIN_TT_ENTRIES,
		.level = ENGINE_MASTER,
		.threads = 1,
	};
	char line[BRAIN_LINE_MAX];

	if (brain_options(&brain, argc, argv))
		return 2;

	brain.engine = engine_new(BRAIN_TT_ENTRIES);
	if (!brain.engine || engine_set_threads(brain.engine, brain.threads)) {
		fprintf(stderr, "pbrain-gomoku: out of memory\n");
		return 1;
	}
	board_init(&brain.board, BOARD_DEFAULT_SIZE);
	while (fgets(line, sizeof(line), stdin))
		if (!brain_command(&brain, line))
			break;
	engine_free(brain.engine);
	return 0;
}
