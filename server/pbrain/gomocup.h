/*
 * gomocup.h - the Gomocup protocol's rule numbers (INFO rule): a set of
 * bits, 1 exactly five, 2 a continuous game, 4 renju, 8 caro; and how a
 * manager reads a brain's lines (its "x,y" move, a keyword). Shared by
 * the brain (pbrain.c), the server's client of external brains
 * (../pbrain_client.c) and the match runner (tests/engine/match.c), so
 * they always agree.
 */
#ifndef GOMOKU_GOMOCUP_H
#define GOMOKU_GOMOCUP_H

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "board.h"

#define GOMOCUP_RULE_EXACT_FIVE 1L
#define GOMOCUP_RULE_CONTINUOUS 2L
#define GOMOCUP_RULE_RENJU 4L
#define GOMOCUP_RULE_CARO 8L

/* The INFO rule number of each rule. */
static const long gomocup_rule_numbers[RULE_COUNT] = {
	[RULE_FREESTYLE] = 0,
	[RULE_STANDARD] = GOMOCUP_RULE_EXACT_FIVE,
	[RULE_RENJU] = GOMOCUP_RULE_RENJU,
};

/*
 * The rule an INFO rule number asks for: renju when its bit is set, else
 * exactly five, else freestyle. *ignored gets the bits no rule here plays
 * (a continuous game, caro), 0 when none.
 */
static inline enum rule gomocup_rule_parse(long number, long *ignored)
{
	*ignored = number & ~(GOMOCUP_RULE_EXACT_FIVE | GOMOCUP_RULE_RENJU);
	if (number & GOMOCUP_RULE_RENJU)
		return RULE_RENJU;
	return number & GOMOCUP_RULE_EXACT_FIVE ? RULE_STANDARD :
						  RULE_FREESTYLE;
}

/*
 * Parses "x,y" (blanks around the numbers allowed, a sign too so that
 * "-1,0" counts as off the board rather than as garbage). 0 or -EINVAL.
 */
static inline int gomocup_parse_cell(const char *text, int *x, int *y)
{
	int value[2];
	int i;

	for (i = 0; i < 2; i++) {
		bool negative = false;
		int digits = 0;

		value[i] = 0;
		while (*text == ' ' || *text == '\t')
			text++;
		if (*text == '-' || *text == '+')
			negative = *text++ == '-';
		while (isdigit((unsigned char)*text)) {
			if (++digits > 6)
				return -EINVAL;
			value[i] = value[i] * 10 + (*text++ - '0');
		}
		if (!digits)
			return -EINVAL;
		if (negative)
			value[i] = -value[i];
		while (*text == ' ' || *text == '\t')
			text++;
		if (i == 0 && *text++ != ',')
			return -EINVAL;
	}
	if (*text)
		return -EINVAL;
	*x = value[0];
	*y = value[1];
	return 0;
}

/* True when line starts with word, as a whole word, in any case. */
static inline bool gomocup_keyword(const char *line, const char *word)
{
	size_t len = strlen(word);

	return strncasecmp(line, word, len) == 0 &&
	       (line[len] == '\0' || isspace((unsigned char)line[len]));
}

#endif
