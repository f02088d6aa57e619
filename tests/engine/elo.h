/*
 * elo.h - the Elo difference a match score means, and its 95 % margin.
 * Shared by bench-engine's ladder and gomoku-match's table.
 */
#ifndef GOMOKU_ELO_H
#define GOMOKU_ELO_H

#include <math.h>

/* The Elo difference a score (0..1) means; clamped short of 0 and 1. */
static inline double elo_of_score(double score)
{
	if (score < 0.001)
		score = 0.001;
	if (score > 0.999)
		score = 0.999;
	return -400.0 * log10(1.0 / score - 1.0);
}

/*
 * Half the width of the Elo interval of score +- 1.96 standard errors:
 * the 95 % margin of elo_of_score(score). error is one standard error of
 * the score.
 */
static inline double elo_margin(double score, double error)
{
	return (elo_of_score(score + 1.96 * error) -
		elo_of_score(score - 1.96 * error)) /
	       2;
}

#endif
