/*
 * engine_vcf.c - victory by continuous fours.
 *
 * The attacker plays a four; the defender has exactly one answer, the
 * cell that would make the five; repeat until the attacker has two ways
 * to five (an open or double four) or a five. Two things break a line:
 * the defender holding a four of his own when it is the attacker's turn
 * (the attacker must block it, and only a block that is itself a four
 * keeps the initiative), and two such fours (the defender wins). Under
 * renju a four whose one answer is forbidden to black wins like a double
 * four, and black's forbidden cells are no fours of his. Positions
 * proven to have no VCF are remembered in a small hash set, salted per
 * call so that earlier calls never answer for this one.
 */
#include "engine_vcf.h"

#include <stdlib.h>

/* Salts telling the attacker apart in the failed set. */
static const uint64_t vcf_side_salt[3] = { 0, 0x5bd1e9955bd1e995ull,
					   0xc2b2ae3d27d4eb4full };

/* The most fours the solver tries at one node. */
#define VCF_MAX_MOVES 96

/* One move of the attacker and how promising it looks. */
struct vcf_move {
	int16_t cell; /* grid index */
	int32_t rank; /* larger first */
};

int vcf_five_near(const struct position *pos, int idx, enum role role)
{
	int dir, k;

	for (dir = 0; dir < 4; dir++) {
		int step = position_steps[dir];

		for (k = -4; k <= 4; k++) {
			int cell = idx + k * step;

			if (k && pos->cell[cell] == POS_EMPTY &&
			    position_threat(pos, cell, role) == THREAT_F5)
				return cell;
		}
	}
	return -1;
}

/* The second five cell near idx, other than first, or -1. */
static int vcf_other_five_near(const struct position *pos, int idx,
			       enum role role, int first)
{
	int dir, k;

	for (dir = 0; dir < 4; dir++) {
		int step = position_steps[dir];

		for (k = -4; k <= 4; k++) {
			int cell = idx + k * step;

			if (k && cell != first &&
			    pos->cell[cell] == POS_EMPTY &&
			    position_threat(pos, cell, role) == THREAT_F5)
				return cell;
		}
	}
	return -1;
}

/* Counts a node; true when the budget or the deadline has run out. */
static bool vcf_tick(struct vcf *vcf)
{
	if (vcf->stopped)
		return true;
	vcf->nodes++;
	if (vcf->max_nodes && vcf->nodes >= vcf->max_nodes)
		vcf->stopped = true;
	else if (vcf->deadline_us && vcf->now_us && !(vcf->nodes & 255) &&
		 vcf->now_us(vcf->now_ctx) >= vcf->deadline_us)
		vcf->stopped = true;
	return vcf->stopped;
}

/* Sorts moves by rank, largest first (insertion sort: lists are short). */
static void vcf_sort(struct vcf_move *moves, int count)
{
	int i, j;

	for (i = 1; i < count; i++) {
		struct vcf_move move = moves[i];

		for (j = i; j > 0 && moves[j - 1].rank < move.rank; j--)
			moves[j] = moves[j - 1];
		moves[j] = move;
	}
}

/*
 * The candidates cells[0..count) as moves, ranked (threat first, then the
 * value to both sides) and sorted best first; count.
 */
static int vcf_rank(const struct position *pos, enum role attacker,
		    const int16_t *cells, int count, struct vcf_move *moves)
{
	enum role defender = role_other(attacker);

	for (int i = 0; i < count; i++) {
		moves[i].cell = cells[i];
		moves[i].rank =
			position_threat(pos, cells[i], attacker) * 4096 +
			position_value(pos, cells[i], attacker) +
			position_value(pos, cells[i], defender) / 2;
	}
	vcf_sort(moves, count);
	return count;
}

/*
 * The attacker's fours worth trying at this node: the one block when the
 * defender has a four, else every four, open and double fours first.
 * Returns how many, 0 when the line is broken.
 */
static int vcf_moves(const struct position *pos, enum role attacker,
		     struct vcf_move *moves)
{
	enum role defender = role_other(attacker);
	int16_t cells[VCF_MAX_MOVES];
	int count;

	if (pos->count[defender][THREAT_F5]) {
		int block = position_find_five(pos, defender);

		/* (a cell forbidden to black is no threat of his) */
		if (position_threat(pos, block, attacker) < THREAT_B4)
			return 0;
		moves[0].cell = (int16_t)block;
		moves[0].rank = 0;
		return 1;
	}
	count = position_find(pos, attacker, THREAT_B4, cells, VCF_MAX_MOVES);
	return vcf_rank(pos, attacker, cells, count, moves);
}

/* The VCF search proper, attacker to move, depth attacker moves made. */
static bool vcf_attack(struct vcf *vcf, enum role attacker, int depth)
{
	struct position *pos = vcf->pos;
	enum role defender = role_other(attacker);
	struct vcf_move moves[VCF_MAX_MOVES];
	uint64_t key, salted;
	int count, i;

	if (pos->count[attacker][THREAT_F5]) {
		vcf->line[2 * depth] =
			(int16_t)position_find_five(pos, attacker);
		vcf->length = 2 * depth + 1;
		return true;
	}
	if (depth >= VCF_MAX_DEPTH || pos->count[defender][THREAT_F5] >= 2 ||
	    !position_fours(pos, attacker))
		return false;
	/* Slot from the plain key, salted entry: see tt_store() in engine.c. */
	key = pos->key ^ vcf_side_salt[attacker];
	salted = key ^ vcf->salt;
	if (vcf->failed[key & vcf->failed_mask] == salted)
		return false;

	count = vcf_moves(pos, attacker, moves);
	for (i = 0; i < count; i++) {
		int four = moves[i].cell, block, other;
		bool won;

		if (vcf_tick(vcf))
			return false;
		position_play(pos, four, attacker);
		block = vcf_five_near(pos, four, attacker);
		if (block < 0) {
			/* not a four after all (cannot happen): skip it */
			position_undo(pos);
			continue;
		}
		if (!position_playable(pos, block, defender)) {
			/* renju: black may not block; the five follows */
			position_undo(pos);
			vcf->line[2 * depth] = (int16_t)four;
			vcf->line[2 * depth + 1] = -1;
			vcf->line[2 * depth + 2] = (int16_t)block;
			vcf->length = 2 * depth + 3;
			return true;
		}
		if (pos->count[attacker][THREAT_F5] >= 2) {
			other = vcf_other_five_near(pos, four, attacker, block);
			position_undo(pos);
			if (other < 0)
				continue;
			vcf->line[2 * depth] = (int16_t)four;
			vcf->line[2 * depth + 1] = (int16_t)block;
			vcf->line[2 * depth + 2] = (int16_t)other;
			vcf->length = 2 * depth + 3;
			return true;
		}
		position_play(pos, block, defender);
		won = vcf_attack(vcf, attacker, depth + 1);
		position_undo(pos);
		position_undo(pos);
		if (won) {
			vcf->line[2 * depth] = (int16_t)four;
			vcf->line[2 * depth + 1] = (int16_t)block;
			return true;
		}
		if (vcf->stopped)
			return false;
	}
	vcf->failed[key & vcf->failed_mask] = salted;
	return false;
}

bool vcf_search(struct vcf *vcf, enum role attacker)
{
	vcf->length = 0;
	vcf->stopped = false;
	return vcf_attack(vcf, attacker, 0);
}

/*
 * ---- VCT: fours and open threes ----
 *
 * An AND-OR search. The attacker plays a threat: a four (one reply) or a
 * move making an open three (the defender may block at any cell where the
 * attacker would make a four, or play a four of his own first). The
 * attacker wins when every reply still loses. Results are remembered in
 * the failed set under a key that also holds the depth left, so a line
 * cut short by the depth is not taken for a proof elsewhere.
 */

static bool vct_defend(struct vcf *vcf, enum role attacker, int depth);

/* Salt of a VCT result with depth left, apart from the VCF's keys. */
static uint64_t vct_key(const struct position *pos, enum role attacker,
			int depth, bool win)
{
	return pos->key ^ vcf_side_salt[attacker] ^
	       (0x9e3779b97f4a7c15ull * (uint64_t)(depth + 1 + (win ? 64 : 0)));
}

/* Whether the attacker has a threat pending: a five or an open-four cell. */
static bool vct_pending(const struct position *pos, enum role attacker)
{
	return pos->count[attacker][THREAT_F5] ||
	       pos->count[attacker][THREAT_F4];
}

/* The attacker's threat moves, fours first, best first. */
static int vct_moves(const struct position *pos, enum role attacker,
		     struct vcf_move *moves)
{
	int16_t cells[VCF_MAX_MOVES];
	int count;

	count = position_find(pos, attacker, THREAT_F3, cells, VCF_MAX_MOVES);
	return vcf_rank(pos, attacker, cells, count, moves);
}

/* Attacker to move with depth attacker moves left: can he force a win? */
static bool vct_attack(struct vcf *vcf, enum role attacker, int depth)
{
	struct position *pos = vcf->pos;
	enum role defender = role_other(attacker);
	struct vcf_move moves[VCF_MAX_MOVES];
	uint64_t key, won_key, salted, won_salted;
	bool won = false;
	int count, i;

	if (pos->count[attacker][THREAT_F5])
		return true;
	if (pos->count[defender][THREAT_F5] >= 2)
		return false;
	if (pos->count[defender][THREAT_F5]) {
		/* Block his four; the initiative must survive it. */
		int block = position_find_five(pos, defender);

		if (!position_playable(pos, block, attacker) || vcf_tick(vcf))
			return false;
		position_play(pos, block, attacker);
		won = vct_pending(pos, attacker) &&
		      vct_defend(vcf, attacker, depth);
		position_undo(pos);
		return won;
	}
	if (pos->count[attacker][THREAT_F4] && !position_fours(pos, defender))
		return true;
	if (depth <= 0)
		return false;

	key = vct_key(pos, attacker, depth, false);
	won_key = vct_key(pos, attacker, depth, true);
	salted = key ^ vcf->salt;
	won_salted = won_key ^ vcf->salt;
	if (vcf->failed[key & vcf->failed_mask] == salted)
		return false;
	if (vcf->failed[won_key & vcf->failed_mask] == won_salted)
		return true;

	count = vct_moves(pos, attacker, moves);
	for (i = 0; i < count && !won; i++) {
		if (vcf_tick(vcf))
			return false;
		position_play(pos, moves[i].cell, attacker);
		won = vct_defend(vcf, attacker, depth - 1);
		position_undo(pos);
	}
	if (vcf->stopped)
		return false;
	if (won)
		vcf->failed[won_key & vcf->failed_mask] = won_salted;
	else
		vcf->failed[key & vcf->failed_mask] = salted;
	return won;
}

/*
 * Defender to move after an attacker threat, depth attacker moves left:
 * true when every reply loses.
 */
static bool vct_defend(struct vcf *vcf, enum role attacker, int depth)
{
	struct position *pos = vcf->pos;
	enum role defender = role_other(attacker);
	int16_t replies[VCF_MAX_MOVES];
	int count, i;

	if (pos->count[defender][THREAT_F5])
		return false;
	if (pos->count[attacker][THREAT_F5] >= 2)
		return true;
	if (pos->count[attacker][THREAT_F5]) {
		replies[0] = (int16_t)position_find_five(pos, attacker);
		if (!position_playable(pos, replies[0], defender))
			return true; /* renju: black may not block */
		count = 1;
	} else if (pos->count[attacker][THREAT_F4]) {
		/* His blocks: where the attacker would make a four; and his
		 * own fours, which come first. */
		int fours = position_find(pos, defender, THREAT_B4, replies,
					  VCF_MAX_MOVES);
		int16_t blocks[VCF_MAX_MOVES];
		int block_count = position_find(pos, attacker, THREAT_B4,
						blocks, VCF_MAX_MOVES);
		int j;

		count = fours;
		for (i = 0; i < block_count; i++) {
			if (!position_playable(pos, blocks[i], defender))
				continue;
			for (j = 0; j < fours; j++)
				if (replies[j] == blocks[i])
					break;
			if (j == fours && count < VCF_MAX_MOVES)
				replies[count++] = blocks[i];
		}
	} else {
		return false;
	}
	for (i = 0; i < count; i++) {
		bool won;

		if (vcf_tick(vcf))
			return false;
		position_play(pos, replies[i], defender);
		won = vct_attack(vcf, attacker, depth);
		position_undo(pos);
		if (!won)
			return false;
	}
	return true;
}

bool vct_search(struct vcf *vcf, enum role attacker, int max_depth)
{
	struct position *pos = vcf->pos;
	enum role defender = role_other(attacker);
	struct vcf_move moves[VCF_MAX_MOVES];
	int count, i;

	vcf->stopped = false;
	vcf->length = 0;
	/* Only quiet roots: fives and fours to block are the caller's. */
	if (pos->count[attacker][THREAT_F5] || pos->count[defender][THREAT_F5])
		return false;
	count = vct_moves(pos, attacker, moves);
	for (i = 0; i < count; i++) {
		bool won;

		if (vcf_tick(vcf))
			return false;
		position_play(pos, moves[i].cell, attacker);
		won = vct_defend(vcf, attacker, max_depth - 1);
		position_undo(pos);
		if (won) {
			vcf->line[0] = moves[i].cell;
			vcf->length = 1;
			return true;
		}
		if (vcf->stopped)
			return false;
	}
	return false;
}
