/*
 * engine_vcf.h - the continuous-four (VCF) solver: can the attacker win
 * with fours alone, each forcing the defender's one reply?
 *
 * Internal to the engine. The caller owns every buffer; the solver plays
 * on the position and leaves it as it found it.
 */
#ifndef GOMOKU_ENGINE_VCF_H
#define GOMOKU_ENGINE_VCF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine_position.h"

/* The longest line the solver follows: attacker moves. */
#ifndef VCF_MAX_DEPTH
#define VCF_MAX_DEPTH 60
#endif

/* One of these per VCF search: its budget and memory. */
struct vcf {
	struct position *pos;	       /* played on and restored */
	uint64_t *failed;	       /* keys of positions without a VCF */
	size_t failed_mask;	       /* entries in failed, minus one */
	uint64_t salt;		       /* mixed into keys: this call only */
	uint64_t nodes;		       /* positions visited so far */
	uint64_t max_nodes;	       /* stop after this many */
	uint64_t (*now_us)(void *ctx); /* the caller's clock, or NULL */
	void *now_ctx;		       /* passed to now_us */
	uint64_t deadline_us;	       /* 0: none */
	bool stopped;		       /* the budget or the deadline ran out */
	int length;		       /* moves in line, once found */
	int16_t line[2 * VCF_MAX_DEPTH + 1]; /* attacker, defender, …, five;
					      * -1 for a reply renju forbids */
};

/*
 * Searches for a VCF for attacker, who is to move on vcf->pos. Returns
 * true when one was found, with the whole line (attacker's fours, the
 * defender's replies, the five) in vcf->line[0 .. vcf->length - 1].
 * False when there is none or the budget ran out (vcf->stopped).
 */
bool vcf_search(struct vcf *vcf, enum role attacker);

/*
 * Searches for a VCT (victory by continuous threats) for attacker, to
 * move: each attacker move a four or an open three (or better), the
 * defender trying every block of it and every four of his own, up to
 * max_depth attacker moves. True when every defence loses; vcf->line[0]
 * is then the first move (vcf->length is 1). False when not found within
 * the depth or the budget, and when either side has a five to play (the
 * caller settles those first).
 */
bool vct_search(struct vcf *vcf, enum role attacker, int max_depth);

/*
 * The one empty cell on the four lines through idx (within four of it)
 * where role makes a five, or -1.
 */
int vcf_five_near(const struct position *pos, int idx, enum role role);

#endif
