/*
 * loss_scan.c - loss-scan: how early each lost game was lost to a threat
 * sequence the winner could have played.
 *
 * For every game of the logs that the loser (A or B of gomoku-match)
 * lost, replays it and, at each position with the winner to move from
 * the seventh stone on, looks for a VCT of the winner's (engine_vcf.c's
 * solver: fours and open threes, up to --depth attacker moves, --nodes
 * positions a look). It prints the first stone where one is found and
 * how many stones before the end that was: how far ahead the loser
 * would have had to see the threats that ended the game.
 *
 *   loss-scan [--loser A|B] [--depth D] [--nodes N] [--rule R] GAMES.log...
 *
 * The defaults: A, 10 attacker moves, 3 000 000 positions. The logs are
 * gomoku-match's (--log, board 15): "n black winner end: x,y …".
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "engine_vcf.h"
#include "game_log.h"

/* The VCF/VCT solver's table of positions without a win. */
#define FAILED_ENTRIES (1u << 20)

/* What one run looks for. */
struct scan {
	const char *loser; /* "A" or "B" */
	int depth;	   /* attacker moves of a VCT */
	uint64_t nodes;	   /* per look */
	enum rule rule;
	uint64_t *failed; /* the solver's table, FAILED_ENTRIES */
	int games;	  /* lost games scanned */
	int found;	  /* of which a VCT was found in */
	int before[4]; /* found 1-5, 6-10, 11-20, 21+ stones before the end */
	long total_before; /* sum of the stones before the end, when found */
};

/* Whether the winner, to move on pos, has a VCT within the scan's reach. */
static bool scan_look(struct scan *scan, struct position *pos, enum role winner,
		      uint64_t salt)
{
	struct vcf vcf = { .pos = pos,
			   .failed = scan->failed,
			   .failed_mask = FAILED_ENTRIES - 1,
			   .salt = salt,
			   .max_nodes = scan->nodes };

	if (pos->count[winner][THREAT_F5])
		return true;
	return vct_search(&vcf, winner, scan->depth);
}

/* Scans the game of one log line (others are skipped). */
static void scan_game(struct scan *scan, char *line)
{
	static struct logged_game game;
	static struct position pos;
	int first = -1, i;
	enum role winner_role;

	if (!logged_game_parse(line, &game) || !strcmp(game.winner, "draw") ||
	    !strcmp(game.winner, scan->loser))
		return; /* no game, or not lost by the loser: nothing to scan */
	/* the winner is the other of the loser: black when the loser was
	 * white */
	winner_role = !strcmp(game.black, scan->loser) ? ROLE_BACK : ROLE_FRONT;
	position_init(&pos, 15, scan->rule, true);
	for (i = 0; i < game.count; i++) {
		enum role to_move = i % 2 ? ROLE_BACK : ROLE_FRONT;

		if (i >= 6 && to_move == winner_role &&
		    !pos.count[role_other(to_move)][THREAT_F5]) {
			if (scan->rule == RULE_RENJU)
				position_judge_all(&pos); /* exact verdicts */
			if (scan_look(scan, &pos, winner_role,
				      0x9e3779b97f4a7c15ull *
					      (uint64_t)(game.number * 512 +
							 i))) {
				first = i;
				break;
			}
		}
		position_play(&pos, game.cells[i], to_move);
	}
	scan->games++;
	printf("game %d: %s lost as %s in %d stones; ", game.number,
	       scan->loser, winner_role == ROLE_BACK ? "black" : "white",
	       game.count);
	if (first < 0) {
		printf("no VCT found\n");
	} else {
		int before = game.count - first;

		printf("the winner's VCT from stone %d, %d before the end\n",
		       first + 1, before);
		scan->found++;
		scan->total_before += before;
		scan->before[before <= 5  ? 0 :
			     before <= 10 ? 1 :
			     before <= 20 ? 2 :
					    3]++;
	}
	fflush(stdout);
}

/* Scans every game of one log; -1 when it cannot be read. */
static int scan_log(struct scan *scan, const char *path)
{
	FILE *file = fopen(path, "r");
	char line[8192];

	if (!file) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), file))
		scan_game(scan, line);
	fclose(file);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: loss-scan [--loser A|B] [--depth D] "
			"[--nodes N] [--rule R] GAMES.log...\n");
	return 2;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "loser", required_argument, NULL, 'l' },
		{ "depth", required_argument, NULL, 'd' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "rule", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	struct scan scan = { .loser = "A",
			     .depth = 10,
			     .nodes = 3000000,
			     .rule = RULE_FREESTYLE };
	int c, i;

	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (c) {
		case 'l':
			if (strcmp(optarg, "A") && strcmp(optarg, "B"))
				return usage();
			scan.loser = optarg;
			break;
		case 'd':
			scan.depth = atoi(optarg);
			if (scan.depth < 1 || scan.depth > VCF_MAX_DEPTH)
				return usage();
			break;
		case 'n':
			scan.nodes = strtoull(optarg, NULL, 10);
			if (!scan.nodes)
				return usage();
			break;
		case 'r':
			if (!rule_parse(optarg, &scan.rule))
				return usage();
			break;
		default:
			return usage();
		}
	}
	if (optind == argc)
		return usage();
	scan.failed = calloc(FAILED_ENTRIES, sizeof(*scan.failed));
	if (!scan.failed)
		return 1;
	for (i = optind; i < argc; i++) {
		if (scan_log(&scan, argv[i])) {
			free(scan.failed);
			return 1;
		}
	}
	printf("\n%d games lost by %s; the winner's VCT (%d attacker moves, "
	       "%llu positions a look) found in %d",
	       scan.games, scan.loser, scan.depth,
	       (unsigned long long)scan.nodes, scan.found);
	if (scan.found)
		printf(", %.1f stones before the end on average: 1-5 before "
		       "%d, 6-10 %d, 11-20 %d, 21 or more %d",
		       (double)scan.total_before / scan.found, scan.before[0],
		       scan.before[1], scan.before[2], scan.before[3]);
	printf("\n");
	free(scan.failed);
	return 0;
}
