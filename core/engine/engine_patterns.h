/*
 * engine_patterns.h - the engine's pattern tables: what a stone would make
 * on one line, by the line's code, and over its four lines, by its four
 * patterns combined; per rule.
 *
 * Internal to the engine (engine_position.c reads them). Built once,
 * behind pthread_once, on the first patterns_table() of a rule, and only
 * read afterwards: every engine of every thread shares them.
 *
 * A code holds the ten cells around a cell on one line, two bits each
 * (ROLE_NONE, ROLE_FRONT, ROLE_BACK, or 3 for the wall): cells -5..-1 in
 * bits 0-9, +1..+5 in bits 10-19.
 */
#ifndef GOMOKU_ENGINE_PATTERNS_H
#define GOMOKU_ENGINE_PATTERNS_H

#include <stdint.h>

#include "board.h"

/*
 * What a stone would make on one line, weakest first: "F" is open (two
 * ways on), "B" blocked (one way on). F5 is a five (exactly five under
 * the standard rule and for black in renju: an overline is not one).
 * The last two are renju's forbidden shapes for black.
 */
enum pattern {
	PAT_NONE, /* no five can ever pass through here on this line */
	PAT_B1,
	PAT_F1,
	PAT_B2,
	PAT_F2, /* an open two: one move from an open three */
	PAT_B3, /* a three: one move from a four */
	PAT_F3, /* an open three: one move from an open four */
	PAT_B4, /* a four: one way to five */
	PAT_F4, /* an open four: two ways to five on this line */
	PAT_F5, /* a five */
	/* renju, black only: forbidden on this line alone */
	PAT_OVERLINE,	 /* six or more in a row */
	PAT_DOUBLE_FOUR, /* two fours in this one line */
	PAT_COUNT,
};

/* The four patterns of a cell as one number, base PAT_COUNT. */
#define COMBINED_COUNT (PAT_COUNT * PAT_COUNT * PAT_COUNT * PAT_COUNT)

/*
 * What a stone would make over the four lines through a cell. Ordered so
 * that "threat >= THREAT_B4" means "makes a four or better" and
 * "threat >= THREAT_F4" means "makes two ways to five".
 */
enum threat {
	THREAT_NONE,
	THREAT_LOW, /* ones and blocked twos */
	THREAT_F2,  /* one open two */
	THREAT_22,  /* two open twos */
	THREAT_B3,  /* a three (maybe with twos) */
	THREAT_F3,  /* one open three */
	THREAT_33,  /* two open threes */
	THREAT_B4,  /* one four */
	THREAT_43,  /* a four and an open three */
	THREAT_F4,  /* an open four or two fours */
	THREAT_F5,  /* a five */
	THREAT_COUNT,
};

/* What black's four patterns (renju) say of the verdict on a cell. */
enum verdict_class {
	VERDICT_ALLOWED,   /* a five, or nothing forbidden */
	VERDICT_FORBIDDEN, /* an overline or two fours, and no five */
	VERDICT_JUDGE,	   /* two open threes: are they real? */
};

/* One rule's line table: code >> shift & mask -> front | back << 4. */
struct pattern_table {
	const uint8_t *patterns; /* both sides' patterns per entry */
	unsigned shift;		 /* 2: the outermost cells left out */
	uint32_t mask;		 /* entries, minus one */
	int reach;		 /* cells it reads each way: 4 or 5 */
};

/*
 * rule's line table, built on first use, as are the combined tables
 * below (so call this before reading them).
 */
struct pattern_table patterns_table(enum rule rule);

/* A direction's place in a combined number: PAT_COUNT to the dir. */
static const int combined_place[4] = { 1, PAT_COUNT,
				       COMBINED_COUNT / PAT_COUNT / PAT_COUNT,
				       COMBINED_COUNT / PAT_COUNT };

/*
 * The evaluation's weights: a cell's value for a side is the worth of
 * its four line patterns plus the bonus of their combined threat, plus,
 * per rule, the bonus of its two best line patterns from a blocked two
 * up (tests/engine/tune_eval.c fits them to played games).
 */
extern const int16_t pattern_worth[PAT_COUNT];
extern const int16_t threat_bonus[THREAT_COUNT];

/* The patterns a pair bonus reads, PAT_B2..PAT_F4, and their pairs. */
#define PAIR_FIRST PAT_B2
#define PAIR_KINDS (PAT_F4 - PAT_B2 + 1)
#define PAIR_COUNT (PAIR_KINDS * (PAIR_KINDS + 1) / 2)
extern const int16_t pair_bonus[RULE_COUNT][PAIR_COUNT];

/*
 * The pair of a cell whose four line patterns are counted in n: its best
 * two of PAT_B2..PAT_F4 as an index of pair_bonus[], or -1 when it has
 * fewer than two.
 */
int pattern_pair(const int *n);

/*
 * A cell's four patterns (combined) -> its threat, its verdict, its worth
 * without pairs and, per rule, with the rule's pair bonuses.
 */
extern uint8_t combined_threat[COMBINED_COUNT];	 /* enum threat */
extern uint8_t combined_verdict[COMBINED_COUNT]; /* enum verdict_class */
extern int16_t combined_value[COMBINED_COUNT];
extern int16_t combined_paired[RULE_COUNT][COMBINED_COUNT];

#endif
