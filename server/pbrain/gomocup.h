/*
 * gomocup.h - the Gomocup protocol's rule numbers (INFO rule): a set of
 * bits, 1 exactly five, 2 a continuous game, 4 renju, 8 caro. Shared by
 * the brain (pbrain.c) and the server's client of external brains
 * (../pbrain_client.c), so the two always agree.
 */
#ifndef GOMOKU_GOMOCUP_H
#define GOMOKU_GOMOCUP_H

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

#endif
