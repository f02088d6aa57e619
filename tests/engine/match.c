/*
 * match.c - gomoku-match: plays two pbrain engines against each other and
 * prints the score with its Elo difference, the way Gomocup runs a match.
 *
 * Each engine is a program speaking the Piskvork protocol on stdin and
 * stdout (pbrain-gomoku at any version or level, or any other brain given
 * by its command line), started afresh for every game as a process of its
 * own. The games start from a file of openings, each played twice with
 * the colours swapped; the referee is core/'s (rules_find_five(), renju's
 * forbidden points), so a five, an illegal move, a late or missing answer
 * are judged as the server judges them.
 *
 *   gomoku-match [options] ENGINE_A ENGINE_B
 *
 *   --openings FILE   openings, one a line (below); required
 *   --rule R          freestyle (default), standard or renju
 *   --size N          board size (15)
 *   --turn-ms N       time per move, sent as INFO timeout_turn (1000)
 *   --match-ms N      time per game and engine, INFO timeout_match and
 *                     time_left before each move (0: none, the default)
 *   --tolerance-ms N  a move later than the turn time by more than this
 *                     loses the game (500; later moves within it are
 *                     counted as late)
 *   --start-ms N      time an engine has to answer START (no game when it
 *                     does not), and to exit after END (10000)
 *   --games N         play the first N games only (default: every opening
 *                     with both colours)
 *   --jobs N          games played at once (1, as Gomocup does)
 *   --name-a S, --name-b S   names in the table (default: the commands)
 *   --log FILE        every game's moves, one game a line: its number,
 *                     who was black (A or B), the winner (A, B or draw),
 *                     how it ended, then every stone "x,y" in order;
 *                     written in order as the games end
 *   --min-elo E       exit 1 unless A's Elo difference is at least E
 *   --quiet           no line per game
 *
 * An engine's command is run by /bin/sh, so it may carry arguments
 * ("build/pbrain-gomoku --nodes 200000"). Its standard error goes to
 * /dev/null.
 *
 * The openings file: '#' starts a comment; each other non-empty line is
 * one opening, its stones "dx,dy" relative to the centre separated by
 * spaces, black's first and alternating. Game 2i plays opening i with A
 * as black, game 2i + 1 with B as black.
 *
 * The table: A's wins, draws and losses, its score (a draw is half) and
 * the Elo difference that score means, with a 95 % margin. Games of the
 * same opening are counted as pairs (the standard error of the pairs'
 * scores), since an opening may favour one colour: that is what playing
 * both colours cancels.
 *
 * Exits 0, 1 when --min-elo is missed, 2 on bad usage or a broken setup
 * (an engine that does not start).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "board.h"
#include "elo.h"
#include "gomocup.h"
#include "renju.h"

#define MATCH_MAX_OPENINGS 1000
#define MATCH_MAX_OPENING_STONES 32
#define MATCH_LINE_MAX 1024
#define MATCH_START_MS 10000 /* --start-ms's default */
#define MATCH_MEMORY_BYTES 350000000L

/* What the command line asks for. */
struct match_options {
	const char *command[2]; /* A, B */
	const char *name[2];	/* in the table */
	const char *openings;	/* the file */
	const char *log;	/* NULL: none */
	enum rule rule;
	int size;
	long turn_ms;
	long match_ms; /* 0: none */
	long tolerance_ms;
	long start_ms; /* START's OK, and END's exit */
	int games;     /* 0: all */
	int jobs;
	bool quiet;
	bool min_elo_set;
	double min_elo;
};

/* One opening: its stones, black's first. */
struct opening {
	int count;
	struct cell stones[MATCH_MAX_OPENING_STONES];
};

/* How a game ended. */
enum match_end {
	END_FIVE,	/* the winner made five */
	END_FULL,	/* a full board: a draw */
	END_TIME,	/* the loser answered too late, or not at all */
	END_ILLEGAL,	/* the loser played an occupied or off-board cell */
	END_FORBIDDEN,	/* renju: black played a forbidden point */
	END_BAD_ANSWER, /* the loser answered something that is no move */
	END_CRASH,	/* the loser's process exited */
	END_SETUP,	/* an engine did not start: no game */
};

static const char *const end_names[] = {
	[END_FIVE] = "five",
	[END_FULL] = "full board",
	[END_TIME] = "time",
	[END_ILLEGAL] = "illegal move",
	[END_FORBIDDEN] = "forbidden point",
	[END_BAD_ANSWER] = "bad answer",
	[END_CRASH] = "crash",
	[END_SETUP] = "engine did not start",
};

/* One game's outcome, written by the process that played it. */
struct game_result {
	bool done;			 /* played (or failed to start) */
	int winner;			 /* 0: A, 1: B, -1: draw */
	enum match_end end;		 /* how */
	int moves;			 /* after the opening */
	long used_ms[2];		 /* A's and B's thinking time */
	long max_ms[2];			 /* their longest move */
	int late[2];			 /* their moves over the turn time */
	int cells;			 /* stones in record */
	int16_t record[BOARD_MAX_CELLS]; /* x * 32 + y, in order */
};

/* One running engine process. */
struct brain {
	pid_t pid;
	int to;	  /* its stdin */
	int from; /* its stdout */
	char buffer[MATCH_LINE_MAX];
	size_t length; /* bytes in buffer */
	bool told;     /* has had the whole board once */
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* ---- the openings ---- */

/* Reads the openings file; the count, or -1 with a message. */
static int openings_read(const char *path, struct opening *out, int max)
{
	FILE *file = fopen(path, "r");
	char line[MATCH_LINE_MAX];
	int count = 0, number = 0;

	if (!file) {
		fprintf(stderr, "gomoku-match: %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), file)) {
		char *hash = strchr(line, '#'), *at = line, *end;
		struct opening opening = { 0 };

		number++;
		if (hash)
			*hash = '\0';
		for (;;) {
			long dx, dy;

			while (*at == ' ' || *at == '\t')
				at++;
			if (*at == '\0' || *at == '\n' || *at == '\r')
				break;
			dx = strtol(at, &end, 10);
			if (end == at || *end != ',')
				goto bad;
			at = end + 1;
			dy = strtol(at, &end, 10);
			if (end == at || labs(dx) > BOARD_MAX_SIZE ||
			    labs(dy) > BOARD_MAX_SIZE ||
			    opening.count == MATCH_MAX_OPENING_STONES)
				goto bad;
			opening.stones[opening.count++] =
				(struct cell){ (int)dx, (int)dy };
			at = end;
		}
		if (!opening.count)
			continue;
		if (count == max)
			goto bad;
		out[count++] = opening;
	}
	fclose(file);
	return count;
bad:
	fprintf(stderr, "gomoku-match: %s:%d: not an opening\n", path, number);
	fclose(file);
	return -1;
}

/* ---- one engine ---- */

/* Starts command under /bin/sh; 0, or -1. */
static int brain_spawn(struct brain *brain, const char *command)
{
	char line[MATCH_LINE_MAX + 8];
	int in[2], out[2];

	memset(brain, 0, sizeof(*brain));
	brain->pid = -1;
	if (pipe(in) || pipe(out))
		return -1;
	brain->pid = fork();
	if (brain->pid < 0)
		return -1;
	if (brain->pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(in[0], 0);
		dup2(out[1], 1);
		if (null >= 0)
			dup2(null, 2);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		/* exec: the engine is this process, for END and SIGKILL */
		snprintf(line, sizeof(line), "exec %s", command);
		execl("/bin/sh", "sh", "-c", line, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	brain->to = in[1];
	brain->from = out[0];
	return 0;
}

/* Writes one command line; false when the engine is gone. */
static bool brain_send(struct brain *brain, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

static bool brain_send(struct brain *brain, const char *format, ...)
{
	char line[MATCH_LINE_MAX];
	va_list args;
	int length;
	size_t sent = 0;

	va_start(args, format);
	length = vsnprintf(line, sizeof(line) - 1, format, args);
	va_end(args);
	if (length < 0 || length >= (int)sizeof(line) - 1)
		return false;
	line[length++] = '\n';
	while (sent < (size_t)length) {
		ssize_t n =
			write(brain->to, line + sent, (size_t)length - sent);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		sent += (size_t)n;
	}
	return true;
}

/*
 * Reads one line (without its end) until the deadline. 1 with the line,
 * 0 when the deadline passed, -1 when the engine closed its output.
 */
static int brain_read(struct brain *brain, char *line, size_t size,
		      uint64_t deadline_ms)
{
	for (;;) {
		char *newline = memchr(brain->buffer, '\n', brain->length);
		struct pollfd pfd = { .fd = brain->from, .events = POLLIN };
		uint64_t now = now_ms();
		ssize_t n;
		int ready;

		if (newline) {
			size_t length = (size_t)(newline - brain->buffer);

			if (length && brain->buffer[length - 1] == '\r')
				length--;
			if (length >= size)
				length = size - 1;
			memcpy(line, brain->buffer, length);
			line[length] = '\0';
			brain->length -= (size_t)(newline + 1 - brain->buffer);
			memmove(brain->buffer, newline + 1, brain->length);
			return 1;
		}
		if (brain->length == sizeof(brain->buffer))
			brain->length = 0; /* a line too long: dropped */
		if (now >= deadline_ms)
			return 0;
		ready = poll(&pfd, 1, (int)(deadline_ms - now));
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready <= 0)
			return ready == 0 ? 0 : -1;
		n = read(brain->from, brain->buffer + brain->length,
			 sizeof(brain->buffer) - brain->length);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		brain->length += (size_t)n;
	}
}

/*
 * Reads the engine's answer until the deadline, skipping what the
 * protocol lets it say in between (MESSAGE, DEBUG, SUGGEST, UNKNOWN
 * answers to INFO keys it does not know). 1, 0 or -1 as brain_read().
 */
static int brain_answer(struct brain *brain, char *line, size_t size,
			uint64_t deadline_ms)
{
	static const char *const chatter[] = { "MESSAGE", "DEBUG", "SUGGEST",
					       "UNKNOWN" };
	int status;
	size_t i;

	for (;;) {
		bool skip = false;

		status = brain_read(brain, line, size, deadline_ms);
		if (status != 1)
			return status;
		for (i = 0; i < sizeof(chatter) / sizeof(chatter[0]); i++)
			skip = skip || gomocup_keyword(line, chatter[i]);
		if (!skip)
			return 1;
	}
}

/* Asks the engine to end, then makes sure it has within wait_ms. */
static void brain_stop(struct brain *brain, long wait_ms)
{
	uint64_t deadline = now_ms() + (uint64_t)wait_ms;
	int status;

	if (brain->pid <= 0)
		return;
	brain_send(brain, "END");
	close(brain->to);
	while (waitpid(brain->pid, &status, WNOHANG) == 0) {
		if (now_ms() >= deadline) {
			kill(brain->pid, SIGKILL);
			waitpid(brain->pid, &status, 0);
			break;
		}
		usleep(2000);
	}
	close(brain->from);
	brain->pid = -1;
}

/* ---- one game ---- */

/* Starts an engine and tells it the game's settings; false on failure. */
static bool game_start_brain(struct brain *brain, const char *command,
			     const struct match_options *options)
{
	char line[MATCH_LINE_MAX];

	if (brain_spawn(brain, command))
		return false;
	if (!brain_send(brain, "START %d", options->size) ||
	    brain_answer(brain, line, sizeof(line),
			 now_ms() + (uint64_t)options->start_ms) != 1 ||
	    !gomocup_keyword(line, "OK"))
		return false;
	return brain_send(brain, "INFO timeout_turn %ld", options->turn_ms) &&
	       brain_send(brain, "INFO timeout_match %ld", options->match_ms) &&
	       brain_send(brain, "INFO max_memory %ld", MATCH_MEMORY_BYTES) &&
	       brain_send(brain, "INFO game_type 1") &&
	       brain_send(brain, "INFO rule %ld",
			  gomocup_rule_numbers[options->rule]);
}

/*
 * Asks brain (playing role) for its move: the whole board the first
 * time, then the opponent's last move. Returns 1 with the answer in line,
 * 0 or -1 as brain_read().
 */
static int game_ask(struct brain *brain, const struct board *board,
		    enum role role, const struct game_result *result,
		    const struct match_options *options, long time_left_ms,
		    uint64_t deadline_ms, char *line, size_t size)
{
	bool ok = true;
	int i;

	if (options->match_ms)
		ok = brain_send(brain, "INFO time_left %ld",
				time_left_ms > 0 ? time_left_ms : 0);
	if (!brain->told && board->stones == 0) {
		ok = ok && brain_send(brain, "BEGIN");
	} else if (!brain->told) {
		ok = ok && brain_send(brain, "BOARD");
		for (i = 0; i < result->cells && ok; i++) {
			int x = result->record[i] / 32,
			    y = result->record[i] % 32;
			enum role stone = board_get(board, x, y);

			ok = brain_send(brain, "%d,%d,%d", x, y,
					stone == role ? 1 : 2);
		}
		ok = ok && brain_send(brain, "DONE");
	} else {
		int last = result->record[result->cells - 1];

		ok = ok &&
		     brain_send(brain, "TURN %d,%d", last / 32, last % 32);
	}
	brain->told = true;
	if (!ok)
		return -1;
	return brain_answer(brain, line, size, deadline_ms);
}

/* Ends the game: winner (0 A, 1 B, -1 a draw) by end. */
static void game_over(struct game_result *result, int winner,
		      enum match_end end)
{
	result->winner = winner;
	result->end = end;
	result->done = true;
}

/*
 * Plays one game: opening with A (index 0) as black when a_black. Fills
 * result; the engines are started and stopped here.
 */
static void game_play(const struct match_options *options,
		      const struct opening *opening, bool a_black,
		      struct game_result *result)
{
	struct brain brains[2];
	struct board board;
	int centre = options->size / 2, i;
	enum role role = ROLE_FRONT;

	memset(result, 0, sizeof(*result));
	board_init(&board, options->size);
	for (i = 0; i < opening->count; i++) {
		int x = centre + opening->stones[i].x;
		int y = centre + opening->stones[i].y;

		if (!board_in_range(&board, x, y) ||
		    board_get(&board, x, y) != ROLE_NONE) {
			game_over(result, -1, END_SETUP);
			return;
		}
		board_set(&board, x, y, role);
		result->record[result->cells++] = (int16_t)(x * 32 + y);
		role = role_other(role);
	}
	for (i = 0; i < 2; i++) {
		if (!game_start_brain(&brains[i], options->command[i],
				      options)) {
			fprintf(stderr,
				"gomoku-match: %s did not start (no OK to "
				"START within %ld ms)\n",
				options->command[i], options->start_ms);
			game_over(result, -1, END_SETUP);
			brain_stop(&brains[0], options->start_ms);
			if (i)
				brain_stop(&brains[1], options->start_ms);
			return;
		}
	}

	while (!result->done) {
		/* who plays role: A when A is black and role is black, ... */
		int who = (role == ROLE_FRONT) == a_black ? 0 : 1;
		char line[MATCH_LINE_MAX];
		uint64_t start = now_ms(), deadline;
		long time_left = options->match_ms - result->used_ms[who];
		long spent, limit = options->turn_ms;
		int x, y, status;

		if (options->match_ms && time_left < limit)
			limit = time_left;
		deadline = start + (uint64_t)(limit > 0 ? limit : 0) +
			   (uint64_t)options->tolerance_ms;
		status = game_ask(&brains[who], &board, role, result, options,
				  time_left, deadline, line, sizeof(line));
		spent = (long)(now_ms() - start);
		result->used_ms[who] += spent;
		if (spent > result->max_ms[who])
			result->max_ms[who] = spent;
		if (spent > options->turn_ms)
			result->late[who]++;
		if (status == 0) {
			game_over(result, !who, END_TIME);
		} else if (status < 0) {
			game_over(result, !who, END_CRASH);
		} else if (gomocup_parse_cell(line, &x, &y)) {
			game_over(result, !who, END_BAD_ANSWER);
		} else if (!board_in_range(&board, x, y) ||
			   board_get(&board, x, y) != ROLE_NONE) {
			game_over(result, !who, END_ILLEGAL);
		} else if (options->rule == RULE_RENJU && role == ROLE_FRONT &&
			   renju_forbids(renju_judge(&board, x, y))) {
			game_over(result, !who, END_FORBIDDEN);
		} else {
			board_set(&board, x, y, role);
			result->record[result->cells++] = (int16_t)(x * 32 + y);
			result->moves++;
			if (rules_find_five(&board, options->rule, x, y, NULL))
				game_over(result, who, END_FIVE);
			else if (board_is_full(&board))
				game_over(result, -1, END_FULL);
			else if (options->match_ms &&
				 result->used_ms[who] >
					 options->match_ms +
						 options->tolerance_ms)
				game_over(result, !who, END_TIME);
		}
		role = role_other(role);
	}
	brain_stop(&brains[0], options->start_ms);
	brain_stop(&brains[1], options->start_ms);
}

/* ---- the match ---- */

/* A's tally in one colour or in all. */
struct tally {
	int games, wins, draws, losses;
};

static void tally_add(struct tally *tally, int winner)
{
	tally->games++;
	if (winner == 0)
		tally->wins++;
	else if (winner == 1)
		tally->losses++;
	else
		tally->draws++;
}

static double game_score(const struct game_result *result)
{
	return result->winner == 0 ? 1.0 : result->winner == 1 ? 0.0 : 0.5;
}

/* The winner as the table names them: "A", "B" or "draw". */
static const char *winner_name(const struct game_result *result)
{
	return result->winner == 0 ? "A" : result->winner == 1 ? "B" : "draw";
}

/* One line per game as it ends. */
static void game_print(int index, const struct game_result *result)
{
	printf("game %3d  opening %3d  black %s  winner %-4s by %-15s "
	       "%3d moves  A %5.1f s (longest %5ld ms)  B %5.1f s "
	       "(longest %5ld ms)\n",
	       index + 1, index / 2 + 1, index % 2 ? "B" : "A",
	       winner_name(result), end_names[result->end], result->moves,
	       result->used_ms[0] / 1000.0, result->max_ms[0],
	       result->used_ms[1] / 1000.0, result->max_ms[1]);
	fflush(stdout);
}

/*
 * The game record, one line: "game black winner end: moves…", every
 * stone "x,y" from the opening's first on.
 */
static void game_log(FILE *log, int index, const struct game_result *result)
{
	int i;

	fprintf(log, "%d %s %s %s:", index + 1, index % 2 ? "B" : "A",
		winner_name(result), end_names[result->end]);
	for (i = 0; i < result->cells; i++)
		fprintf(log, " %d,%d", result->record[i] / 32,
			result->record[i] % 32);
	fputc('\n', log);
}

/*
 * The table. Returns A's Elo difference. The margin comes from the pairs
 * of games of one opening when every game has its pair, else from the
 * games one by one.
 */
static double match_print(const struct match_options *options,
			  const struct game_result *results, int games)
{
	struct tally all = { 0 }, colour[2] = { { 0 } };
	double sum = 0, variance = 0, score, error, elo;
	long used[2] = { 0 }, max[2] = { 0 }, late[2] = { 0 };
	int ends[END_SETUP + 1] = { 0 }, moves = 0, pairs = games / 2, i;

	for (i = 0; i < games; i++) {
		const struct game_result *r = &results[i];
		int k;

		tally_add(&all, r->winner);
		tally_add(&colour[i % 2], r->winner);
		sum += game_score(r);
		ends[r->end]++;
		moves += r->moves;
		for (k = 0; k < 2; k++) {
			used[k] += r->used_ms[k];
			late[k] += r->late[k];
			if (r->max_ms[k] > max[k])
				max[k] = r->max_ms[k];
		}
	}
	score = games ? sum / games : 0.5;
	if (games && games % 2 == 0) {
		for (i = 0; i < pairs; i++) {
			double pair = (game_score(&results[2 * i]) +
				       game_score(&results[2 * i + 1])) /
				      2;

			variance += (pair - score) * (pair - score);
		}
		error = sqrt(variance / pairs / pairs);
	} else {
		for (i = 0; i < games; i++)
			variance += (game_score(&results[i]) - score) *
				    (game_score(&results[i]) - score);
		error = games ? sqrt(variance / games / games) : 0;
	}
	elo = elo_of_score(score);

	printf("\nA: %s\nB: %s\n", options->name[0], options->name[1]);
	printf("rule %s, board %d, %ld ms a move%s, %d games\n\n",
	       rule_name(options->rule), options->size, options->turn_ms,
	       options->match_ms ? " (and a match clock)" : "", games);
	printf("| A as  | games | wins | draws | losses | score   |\n");
	printf("|-------|-------|------|-------|--------|---------|\n");
	for (i = 0; i < 2; i++)
		printf("| %-5s | %5d | %4d | %5d | %6d | %5.1f %% |\n",
		       i ? "white" : "black", colour[i].games, colour[i].wins,
		       colour[i].draws, colour[i].losses,
		       colour[i].games ? 100.0 *
						 (colour[i].wins +
						  0.5 * colour[i].draws) /
						 colour[i].games :
					 0.0);
	printf("| all   | %5d | %4d | %5d | %6d | %5.1f %% |\n\n", all.games,
	       all.wins, all.draws, all.losses, 100 * score);
	printf("Elo of A against B: %+.0f ± %.0f (95 %%, %s)\n", elo,
	       elo_margin(score, error),
	       games && games % 2 == 0 ? "pairs of games" : "games");
	printf("games ended by:");
	for (i = 0; i <= END_SETUP; i++)
		if (ends[i])
			printf(" %s %d,", end_names[i], ends[i]);
	printf(" %.1f moves a game\n", games ? (double)moves / games : 0.0);
	for (i = 0; i < 2; i++)
		printf("%s: %.0f ms a move on average, longest %ld ms, %ld "
		       "over the turn time\n",
		       i ? "B" : "A",
		       moves ? 2.0 * (double)used[i] / moves : 0.0, max[i],
		       late[i]);
	return elo;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: gomoku-match --openings FILE [--rule R] [--size N] "
		"[--turn-ms N]\n"
		"         [--match-ms N] [--tolerance-ms N] [--start-ms N]\n"
		"         [--games N] [--jobs N]"
		" [--name-a S] [--name-b S] [--log FILE]\n"
		"         [--min-elo E] [--quiet]\n"
		"         ENGINE_A ENGINE_B\n");
}

/* Parses a whole number within [min, max]; false otherwise. */
static bool parse_long(const char *text, long min, long max, long *out)
{
	char *end;
	long value;

	errno = 0;
	value = strtol(text, &end, 10);
	if (errno || end == text || *end || value < min || value > max)
		return false;
	*out = value;
	return true;
}

static int options_parse(int argc, char **argv, struct match_options *o)
{
	static const struct option longs[] = {
		{ "openings", required_argument, NULL, 'o' },
		{ "rule", required_argument, NULL, 'r' },
		{ "size", required_argument, NULL, 's' },
		{ "turn-ms", required_argument, NULL, 't' },
		{ "match-ms", required_argument, NULL, 'm' },
		{ "tolerance-ms", required_argument, NULL, 'T' },
		{ "start-ms", required_argument, NULL, 'S' },
		{ "games", required_argument, NULL, 'g' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "name-a", required_argument, NULL, 'A' },
		{ "name-b", required_argument, NULL, 'B' },
		{ "log", required_argument, NULL, 'l' },
		{ "min-elo", required_argument, NULL, 'e' },
		{ "quiet", no_argument, NULL, 'q' },
		{ 0 },
	};
	long value;
	int c;

	*o = (struct match_options){ .rule = RULE_FREESTYLE,
				     .size = 15,
				     .turn_ms = 1000,
				     .tolerance_ms = 500,
				     .start_ms = MATCH_START_MS,
				     .jobs = 1 };
	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		bool ok = true;

		switch (c) {
		case 'o':
			o->openings = optarg;
			break;
		case 'r':
			ok = rule_parse(optarg, &o->rule);
			break;
		case 's':
			ok = parse_long(optarg, BOARD_MIN_SIZE, BOARD_MAX_SIZE,
					&value);
			o->size = (int)value;
			break;
		case 't':
			ok = parse_long(optarg, 1, 3600000, &o->turn_ms);
			break;
		case 'm':
			ok = parse_long(optarg, 0, 360000000, &o->match_ms);
			break;
		case 'T':
			ok = parse_long(optarg, 0, 3600000, &o->tolerance_ms);
			break;
		case 'S':
			ok = parse_long(optarg, 1, 3600000, &o->start_ms);
			break;
		case 'g':
			ok = parse_long(optarg, 1, 2 * MATCH_MAX_OPENINGS,
					&value);
			o->games = (int)value;
			break;
		case 'j':
			ok = parse_long(optarg, 1, 64, &value);
			o->jobs = (int)value;
			break;
		case 'A':
			o->name[0] = optarg;
			break;
		case 'B':
			o->name[1] = optarg;
			break;
		case 'l':
			o->log = optarg;
			break;
		case 'e':
			o->min_elo = strtod(optarg, NULL);
			o->min_elo_set = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		default:
			ok = false;
		}
		if (!ok) {
			usage();
			return -1;
		}
	}
	if (argc - optind != 2 || !o->openings) {
		usage();
		return -1;
	}
	o->command[0] = argv[optind];
	o->command[1] = argv[optind + 1];
	if (strlen(o->command[0]) >= MATCH_LINE_MAX ||
	    strlen(o->command[1]) >= MATCH_LINE_MAX) {
		fprintf(stderr,
			"gomoku-match: an engine's command is too long\n");
		return -1;
	}
	if (!o->name[0])
		o->name[0] = o->command[0];
	if (!o->name[1])
		o->name[1] = o->command[1];
	return 0;
}

/*
 * Plays the games, jobs at a time, each in a child process that writes
 * its result to results[], and logs them in order as they end (a long
 * match shows how far it got). 0, or 2 when a game could not be played.
 */
static int match_run(const struct match_options *options,
		     const struct opening *openings, int games,
		     struct game_result *results, pid_t *workers, FILE *log)
{
	int next = 0, running = 0, failed = 0, logged = 0, i;

	while (next < games || running) {
		int status;
		pid_t pid;

		while (running < options->jobs && next < games) {
			pid = fork();
			if (pid < 0) {
				perror("gomoku-match: fork");
				return 2;
			}
			if (pid == 0) {
				game_play(options, &openings[next / 2],
					  next % 2 == 0, &results[next]);
				_exit(0);
			}
			workers[next++] = pid;
			running++;
		}
		pid = wait(&status);
		if (pid < 0)
			break;
		for (i = 0; i < next; i++) {
			if (workers[i] != pid)
				continue;
			running--;
			if (!results[i].done) {
				fprintf(stderr,
					"gomoku-match: game %d: its "
					"referee died\n",
					i + 1);
				return 2;
			}
			if (results[i].end == END_SETUP)
				failed++;
			if (!options->quiet)
				game_print(i, &results[i]);
		}
		for (; log && logged < next && results[logged].done; logged++)
			game_log(log, logged, &results[logged]);
		if (log)
			fflush(log);
	}
	if (failed) {
		fprintf(stderr, "gomoku-match: %d games could not start\n",
			failed);
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct opening openings[MATCH_MAX_OPENINGS];
	struct match_options options;
	struct game_result *results;
	pid_t *workers;
	int count, games, status;
	FILE *log = NULL;

	if (options_parse(argc, argv, &options))
		return 2;
	count = openings_read(options.openings, openings, MATCH_MAX_OPENINGS);
	if (count <= 0) {
		if (!count)
			fprintf(stderr, "gomoku-match: %s: no openings\n",
				options.openings);
		return 2;
	}
	games = 2 * count;
	if (options.games && options.games < games)
		games = options.games;
	if (options.log && !(log = fopen(options.log, "w"))) {
		fprintf(stderr, "gomoku-match: %s: %s\n", options.log,
			strerror(errno));
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	/* Each game is played by a child process; results come back here. */
	results = mmap(NULL, (size_t)games * sizeof(*results),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
		       0);
	workers = calloc((size_t)games, sizeof(*workers));
	if (results == MAP_FAILED || !workers) {
		fprintf(stderr, "gomoku-match: out of memory\n");
		status = 2;
	} else {
		status = match_run(&options, openings, games, results, workers,
				   log);
	}
	if (!status &&
	    match_print(&options, results, games) < options.min_elo &&
	    options.min_elo_set) {
		printf("FAIL: A's Elo difference is below %+.0f\n",
		       options.min_elo);
		status = 1;
	}
	if (log)
		fclose(log);
	free(workers);
	if (results != MAP_FAILED)
		munmap(results, (size_t)games * sizeof(*results));
	return status;
}
