/*
 * engine.c - the computer opponent: the beginner's heuristic, and the
 * search of the other levels over the pattern board of engine_position.c.
 * level_configs[] says what each level does.
 *
 * The search, from the root down:
 * 1. forced moves: a five of our own; the block of the opponent's four;
 *    (medium and up) the first move of our VCF, (master) else of our VCT
 *    (engine_vcf.c);
 * 2. (medium and up) when the opponent has a VCF (master: else a VCT) if
 *    we pass, only the moves after which he has none are searched;
 * 3. iterative deepening over a principal-variation search with a
 *    transposition table, killer moves and a history table. Every node
 *    first settles the forced cases (a five to play, a four to block, an
 *    open four the opponent cannot answer with a four); when the opponent
 *    threatens an open or double four, only our fours and his four cells
 *    are tried; else the best-ranked candidates within two cells of a
 *    stone. Leaves are the pattern evaluation (master's under freestyle:
 *    the learnt one, engine_net.h), after a small VCF probe on the hard
 *    and master levels. With helper threads every thread runs
 *    the iterations, each putting off the moves another is searching.
 *
 * Over 600 lines: the search's parts (candidates, ordering, the
 * principal-variation search, the root's forced cases, the easy heuristic)
 * share the engine's tables and are tuned together; the board and the
 * threat solver have their own files.
 */
#include "engine.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine_position.h"
#include "engine_vcf.h"
#include "renju.h"

#define SEARCH_MAX_PLY 64
#define SCORE_INFINITE (ENGINE_SCORE_WIN + 1)
#define SCORE_WON (ENGINE_SCORE_WIN - ENGINE_SCORE_WIN_MARGIN)
#define TT_MIN_ENTRIES 1024u
#define VCF_TABLE_ENTRIES (1u << 16)
#define BUSY_SLOTS (1u << 14) /* the busy table: slots of BUSY_WAYS keys */
#define BUSY_WAYS 4
#define BUSY_DEPTH 3 /* moves searched shallower are never deferred */
#define LEAF_PLIES 2 /* nodes this near the leaves try leaf_width moves */

/* What a transposition table score is: exact, or a bound. */
enum tt_bound {
	TT_NONE,
	TT_EXACT, /* the score */
	TT_LOWER, /* at least the score (a cut-off) */
	TT_UPPER, /* at most the score (no move raised alpha) */
};

/*
 * One searched position, as two words that threads read and write
 * without a lock: check is the salted key xor data, so an entry torn by
 * two writers never matches (helper threads share the table).
 */
struct tt_entry {
	uint64_t check; /* Zobrist key and side, salted with the call, ^ data */
	uint64_t data;	/* a struct tt_hit, packed by tt_pack() */
};

/* A table entry, unpacked. */
struct tt_hit {
	int32_t score; /* mate scores relative to this node */
	int16_t move;  /* best or refuting move, grid index; -1: none */
	int8_t depth;  /* remaining depth it was searched to */
	uint8_t bound; /* enum tt_bound */
};

/*
 * What one level does: the one table of the levels. The weakest plays
 * the one-ply heuristic (heuristic set, pick_shift); the others search.
 */
struct level_config {
	const char *name; /* engine_level_name() and _parse() */
	bool heuristic;	  /* engine_easy_score(), no search */
	int pick_shift;	  /* heuristic: plays any cell within best >> this */
	int max_depth;	  /* iterative deepening stops here */
	int width;	  /* moves tried at an interior node */
	int leaf_width[RULE_COUNT]; /* per rule, LEAF_PLIES from the leaves or
				     * fewer; 0: width */
	int root_width;		    /* moves tried at the root */
	uint64_t default_nodes;	    /* budget when the caller gives none */
	uint64_t root_vcf_nodes; /* own VCF and the opponent's, at the root */
	uint64_t defence_nodes;	 /* per move checked against his VCF */
	uint64_t leaf_vcf_nodes; /* VCF probe at the leaves; 0: none */
	int vct_depth;		 /* attacker moves of a VCT; 0: no VCT */
	uint64_t root_vct_nodes; /* own VCT and the opponent's, at the root */
	uint64_t defence_vct_nodes; /* per move checked against his VCT */
	int near_margin; /* plays any root move within this of the best; 0: the best */
	bool pairs; /* the evaluation weighs the rule's pair bonuses */
	bool net[RULE_COUNT]; /* per rule: the learnt evaluation instead */
};

/*
 * Neighbouring levels are tuned so that the stronger wins 65-85 % of
 * their games (tests/engine/bench.sh, the ladder); see ENGINE.md.
 */
static const struct level_config level_configs[ENGINE_LEVEL_COUNT] = {
	[ENGINE_BEGINNER] = {
		.name = "beginner",
		.heuristic = true,
		.pick_shift = 3, /* within an eighth of the best */
	},
	[ENGINE_EASY] = {
		.name = "easy",
		.max_depth = 2,
		.width = 10,
		.root_width = 16,
		.default_nodes = ENGINE_DEFAULT_NODES_EASY,
		/* a little less than an open three is worth */
		.near_margin = 24,
	},
	[ENGINE_MEDIUM] = {
		.name = "medium",
		.max_depth = 3,
		.width = 10,
		.root_width = 16,
		.default_nodes = ENGINE_DEFAULT_NODES_MEDIUM,
		.root_vcf_nodes = 5000,
		.defence_nodes = 500,
		.leaf_vcf_nodes = 12,
		.near_margin = 12,
	},
	[ENGINE_HARD] = {
		.name = "hard",
		.max_depth = 24,
		.width = 12,
		.root_width = 32,
		.default_nodes = ENGINE_DEFAULT_NODES_HARD,
		.root_vcf_nodes = 5000,
		.defence_nodes = 500,
		.leaf_vcf_nodes = 40,
	},
	[ENGINE_MASTER] = {
		.name = "master",
		.max_depth = 24,
		.width = 12,
		.leaf_width = { [RULE_FREESTYLE] = 8 },
		.root_width = 32,
		.default_nodes = ENGINE_DEFAULT_NODES_MASTER,
		.root_vcf_nodes = 20000,
		.defence_nodes = 1500,
		.leaf_vcf_nodes = 40,
		.vct_depth = 5,
		.root_vct_nodes = 6000,
		.defence_vct_nodes = 400,
		.pairs = true,
		.net = { [RULE_FREESTYLE] = true },
	},
};

/* One per searching thread: the tables and the state of one search. */
struct engine {
	struct tt_entry *tt; /* transposition table */
	bool tt_borrowed;    /* a helper's: its main's table */
	int helper_count;    /* helper threads beside this */
	struct engine *helpers[ENGINE_MAX_THREADS - 1]; /* this owns them */
	int halt;			  /* main: set to stop the helpers */
	int *halted;			  /* helper: its main's halt */
	uint64_t *busy;			  /* moves being searched (main's) */
	int done_depth;			  /* helper: last finished iteration */
	int done_move;			  /* helper: its best move */
	int done_score;			  /* helper: and its score */
	size_t tt_mask;			  /* its entries, minus one */
	uint64_t *vcf_failed;		  /* the VCF solver's failed set */
	uint64_t calls;			  /* engine_choose() calls so far */
	uint64_t salt;			  /* this call's key salt */
	const struct level_config *level; /* this call's level */
	uint64_t nodes;			  /* visited in this call */
	uint64_t max_nodes;		  /* budget; 0: none */
	uint64_t (*now_us)(void *ctx);	  /* the caller's clock */
	void *now_ctx;			  /* passed to now_us */
	uint64_t deadline_us;		  /* 0: none */
	uint64_t next_check;		  /* read the clock at these nodes */
	bool stopped;			  /* budget or deadline ran out */
	uint64_t jitter;		  /* from the seed */
	int16_t killers[SEARCH_MAX_PLY][2];		/* cut-off moves */
	int32_t history[3][POS_CELLS];			/* per side */
	int16_t moves[SEARCH_MAX_PLY][BOARD_MAX_CELLS]; /* per ply */
	int32_t ranks[SEARCH_MAX_PLY][BOARD_MAX_CELLS]; /* their order */
	struct position pos;				/* the board */
};

/* The Zobrist salt of the side to move. */
static const uint64_t side_keys[3] = { 0, 0x8a5cd789635d2dffull,
				       0x121fd2155c472f96ull };

/* A 64-bit mix (the splitmix64 finaliser). */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

struct engine *engine_new(size_t tt_entries)
{
	struct engine *engine;
	size_t entries = TT_MIN_ENTRIES;

	if (!tt_entries)
		tt_entries = ENGINE_DEFAULT_TT_ENTRIES;
	while (entries * 2 <= tt_entries &&
	       entries * 2 <= SIZE_MAX / sizeof(struct tt_entry))
		entries *= 2;

	engine = calloc(1, sizeof(*engine));
	if (!engine)
		return NULL;
	engine->tt = calloc(entries, sizeof(*engine->tt));
	if (!engine->tt)
		goto out_free_engine;
	engine->vcf_failed =
		calloc(VCF_TABLE_ENTRIES, sizeof(*engine->vcf_failed));
	if (!engine->vcf_failed)
		goto out_free_tt;
	engine->tt_mask = entries - 1;
	return engine;

out_free_tt:
	free(engine->tt);
out_free_engine:
	free(engine);
	return NULL;
}

void engine_free(struct engine *engine)
{
	int i;

	if (!engine)
		return;
	for (i = 0; i < engine->helper_count; i++)
		engine_free(engine->helpers[i]);
	free(engine->vcf_failed);
	if (!engine->tt_borrowed) {
		free(engine->tt);
		free(engine->busy);
	}
	free(engine);
}

int engine_set_threads(struct engine *engine, int threads)
{
	if (!engine || threads < 1 || threads > ENGINE_MAX_THREADS)
		return -EINVAL;
	while (engine->helper_count > threads - 1)
		engine_free(engine->helpers[--engine->helper_count]);
	if (threads == 1) {
		free(engine->busy);
		engine->busy = NULL;
		return 0;
	}
	if (!engine->busy) {
		engine->busy =
			calloc(BUSY_SLOTS * BUSY_WAYS, sizeof(*engine->busy));
		if (!engine->busy)
			return -ENOMEM;
	}
	while (engine->helper_count < threads - 1) {
		struct engine *helper = calloc(1, sizeof(*helper));

		if (!helper)
			return -ENOMEM;
		helper->vcf_failed =
			calloc(VCF_TABLE_ENTRIES, sizeof(*helper->vcf_failed));
		if (!helper->vcf_failed) {
			free(helper);
			return -ENOMEM;
		}
		helper->tt = engine->tt;
		helper->tt_mask = engine->tt_mask;
		helper->tt_borrowed = true;
		helper->halted = &engine->halt;
		helper->busy = engine->busy;
		engine->helpers[engine->helper_count++] = helper;
	}
	return 0;
}

/* ---- the easy level ---- */

/* The old heuristic's weights by stones in a window (index 1..4). */
static const int easy_own[5] = { 0, 220, 420, 2100, 20000 };
static const int easy_other[5] = { 0, 200, 400, 2000, 10000 };

int engine_easy_score(const struct board *board, enum role to_move, int x,
		      int y)
{
	static const int dirs[4][2] = { { 1, 0 },
					{ 0, 1 },
					{ 1, 1 },
					{ 1, -1 } };
	int score = 0;
	int dir, start, i;

	if (!board_in_range(board, x, y) || board_get(board, x, y) != ROLE_NONE)
		return -1;
	for (dir = 0; dir < 4; dir++) {
		int dx = dirs[dir][0], dy = dirs[dir][1];

		/* The window covers offsets start .. start + 4 from (x, y). */
		for (start = -4; start <= 0; start++) {
			int own = 0, other = 0;
			bool on_board = true;

			for (i = start; i < start + 5; i++) {
				int cx = x + i * dx, cy = y + i * dy;
				enum role role;

				if (!board_in_range(board, cx, cy)) {
					on_board = false;
					break;
				}
				role = board_get(board, cx, cy);
				if (role == to_move)
					own++;
				else if (role != ROLE_NONE)
					other++;
			}
			if (!on_board)
				continue;
			if (own && !other)
				score += easy_own[own];
			else if (other && !own)
				score += easy_other[other];
		}
	}
	return score;
}

/* A hash of the stones, to spread the easy level's choice among near-equal cells. */
static uint64_t board_hash(const struct board *board)
{
	uint64_t hash = 0xcbf29ce484222325ull;
	int i;

	for (i = 0; i < board->size * board->size; i++)
		hash = (hash ^ board->cells[i]) * 0x100000001b3ull;
	return hash;
}

/*
 * The heuristic plays like a person: any cell whose score is within
 * best >> pick_shift of the best (an eighth for beginner), so that the
 * same moves of the player do not bring the same game. Once the best is
 * a five (20000 and up) or a four's block (10000 and up) the margin is at
 * most an eighth whatever the level's: a five is always played, and a
 * four's block only passed over for a cell nearly as urgent.
 */
#define EASY_NEAR_SHIFT 3

/*
 * The heuristic levels: a cell of engine_easy_score() near the
 * best (see above), skipping those renju forbids black, picked by a hash
 * of the seed and the position. 0, or -ENOSPC when no cell may be played.
 */
static int easy_choose(const struct board *board, enum role to_move,
		       enum rule rule, int pick_shift, uint32_t seed,
		       struct engine_result *out)
{
	int scores[BOARD_MAX_CELLS];
	int cells = board->size * board->size;
	int best = -1, ties = 0, near, pick, i;

	for (i = 0; i < cells; i++) {
		struct cell at = board_cell(board->size, i);

		scores[i] = engine_easy_score(board, to_move, at.x, at.y);
	}
	if (rule == RULE_RENJU && to_move == ROLE_FRONT) {
		struct cell forbidden[BOARD_MAX_CELLS];
		int count = renju_forbidden(board, forbidden, BOARD_MAX_CELLS);

		for (i = 0; i < count; i++)
			scores[board_index(board->size, forbidden[i].x,
					   forbidden[i].y)] = -1;
	}
	for (i = 0; i < cells; i++)
		if (scores[i] > best)
			best = scores[i];
	if (best < 0)
		return -ENOSPC;
	if (best >= easy_other[4] && pick_shift < EASY_NEAR_SHIFT)
		pick_shift = EASY_NEAR_SHIFT;
	near = best - (best >> pick_shift);
	for (i = 0; i < cells; i++)
		ties += scores[i] >= near;
	pick = (int)(mix64(board_hash(board) ^ seed) % (uint64_t)ties);
	for (i = 0; i < cells; i++) {
		if (scores[i] >= near && pick-- == 0) {
			struct cell at = board_cell(board->size, i);

			out->x = at.x;
			out->y = at.y;
			out->score = scores[i];
			break;
		}
	}
	return 0;
}

/* ---- budget ---- */

/* Nodes between two readings of the clock. */
#define CLOCK_INTERVAL 128

/* Counts a node; true once the budget or the deadline has run out. */
static bool search_tick(struct engine *engine)
{
	if (engine->stopped)
		return true;
	if (engine->halted &&
	    __atomic_load_n(engine->halted, __ATOMIC_RELAXED)) {
		engine->stopped = true;
		return true;
	}
	engine->nodes++;
	if (engine->max_nodes && engine->nodes >= engine->max_nodes) {
		engine->stopped = true;
	} else if (engine->deadline_us && engine->nodes >= engine->next_check) {
		/* VCF probes add nodes in bursts: count from this reading. */
		engine->next_check = engine->nodes + CLOCK_INTERVAL;
		if (engine->now_us(engine->now_ctx) >= engine->deadline_us)
			engine->stopped = true;
	}
	return engine->stopped;
}

/*
 * Runs the VCF solver (vct_depth 0) or the VCT solver (vct_depth attacker
 * moves) for attacker within budget nodes (and what is left of the
 * search's), counting its nodes as the search's. True when found; the
 * line (VCF) or the first move (VCT) is in *vcf.
 */
static bool engine_run_threats(struct engine *engine, enum role attacker,
			       uint64_t budget, int vct_depth, struct vcf *vcf)
{
	bool found;

	if (engine->max_nodes) {
		uint64_t left = engine->nodes < engine->max_nodes ?
					engine->max_nodes - engine->nodes :
					0;

		if (budget > left)
			budget = left;
	}
	if (!budget || engine->stopped)
		return false;
	vcf->pos = &engine->pos;
	vcf->failed = engine->vcf_failed;
	vcf->failed_mask = VCF_TABLE_ENTRIES - 1;
	vcf->salt = engine->salt;
	vcf->nodes = 0;
	vcf->max_nodes = budget;
	vcf->now_us = engine->now_us;
	vcf->now_ctx = engine->now_ctx;
	vcf->deadline_us = engine->deadline_us;
	found = vct_depth ? vct_search(vcf, attacker, vct_depth) :
			    vcf_search(vcf, attacker);
	engine->nodes += vcf->nodes;
	if (engine->max_nodes && engine->nodes >= engine->max_nodes)
		engine->stopped = true;
	if (vcf->stopped && vcf->nodes < budget)
		engine->stopped = true; /* the deadline, not the budget */
	return found;
}

/* The VCF solver alone: see engine_run_threats(). */
static bool engine_run_vcf(struct engine *engine, enum role attacker,
			   uint64_t budget, struct vcf *vcf)
{
	return engine_run_threats(engine, attacker, budget, 0, vcf);
}

/* ---- evaluation and ordering ---- */

/*
 * The static evaluation, from side's view: what side's stones could make
 * on the empty cells, less three quarters of what the other's could (the
 * side to move gets to use its chances first; weighing the two alike
 * played more passively and lost more games in the benchmark), plus a
 * few points of seeded noise to vary play among equal moves.
 */
static int evaluate(const struct engine *engine, enum role side)
{
	const struct position *pos = &engine->pos;
	enum role other = role_other(side);
	int jitter = (int)(mix64(pos->key ^ engine->jitter) & 7) - 3;

	if (engine->level->net[pos->rule])
		return net_output(&pos->net[side - 1][NET_MOVER],
				  &pos->net[other - 1][NET_OTHER]) +
		       jitter;
	return (pos->total[side] * 4 - pos->total[other] * 3) / 4 + jitter;
}

/* How promising idx looks for side: own gain and denial of the other's. */
static int32_t move_rank(const struct engine *engine, enum role side, int idx)
{
	const struct position *pos = &engine->pos;
	int32_t history = engine->history[side][idx];

	if (history > 1023)
		history = 1023;
	return (position_value(pos, idx, side) * 4 +
		position_value(pos, idx, role_other(side)) * 3) *
		       1024 +
	       history;
}

/*
 * The moves worth trying for side at ply, best first, in
 * engine->moves[ply] (never one renju forbids): when the opponent
 * threatens an open or double four,
 * our fours and his four cells (every one of them: a block is among
 * them); else the width best candidates. Returns how many.
 */
static int generate(struct engine *engine, enum role side, int ply, int tt_move,
		    int width)
{
	const struct position *pos = &engine->pos;
	enum role other = role_other(side);
	int16_t *moves = engine->moves[ply];
	int32_t *ranks = engine->ranks[ply];
	int count = position_candidates(pos, moves);
	bool threatened = pos->count[other][THREAT_F4] > 0;
	int limit = threatened ? count : width;
	int kept = 0, i, j;

	/*
	 * One pass, keeping the best `limit` in order by insertion, in place:
	 * the kept ones never reach past the candidate being read.
	 */
	for (i = 0; i < count; i++) {
		int idx = moves[i];
		int32_t rank;

		if (!position_playable(pos, idx, side))
			continue;
		if (threatened && position_threat(pos, idx, side) < THREAT_B4 &&
		    position_threat(pos, idx, other) < THREAT_B4)
			continue;
		rank = move_rank(engine, side, idx);
		if (idx == tt_move)
			rank = INT32_MAX;
		else if (idx == engine->killers[ply][0] ||
			 idx == engine->killers[ply][1])
			rank += 200 * 1024;
		if (kept == limit && rank <= ranks[kept - 1])
			continue;
		j = kept < limit ? kept++ : kept - 1;
		for (; j > 0 && ranks[j - 1] < rank; j--) {
			moves[j] = moves[j - 1];
			ranks[j] = ranks[j - 1];
		}
		moves[j] = (int16_t)idx;
		ranks[j] = rank;
	}
	return kept;
}

/* ---- the transposition table ---- */

/* The key of the position with side to move, before salting. */
static uint64_t node_key(const struct engine *engine, enum role side)
{
	return engine->pos.key ^ side_keys[side];
}

/* A mate score as stored: relative to the node, not the root. */
static int score_to_tt(int score, int ply)
{
	if (score >= SCORE_WON)
		return score + ply;
	if (score <= -SCORE_WON)
		return score - ply;
	return score;
}

static int score_from_tt(int score, int ply)
{
	if (score >= SCORE_WON)
		return score - ply;
	if (score <= -SCORE_WON)
		return score + ply;
	return score;
}

/*
 * Stores a result. The slot comes from the unsalted key and the entry
 * holds the salted one, so a call sees exactly the collisions any other
 * call with the same position would see, and never an earlier call's
 * entries: the same inputs give the same move on a reused engine.
 */
static uint64_t tt_pack(const struct tt_hit *hit)
{
	return (uint64_t)(uint32_t)hit->score |
	       (uint64_t)(uint16_t)hit->move << 32 |
	       (uint64_t)(uint8_t)hit->depth << 48 | (uint64_t)hit->bound << 56;
}

static struct tt_hit tt_unpack(uint64_t data)
{
	return (struct tt_hit){ .score = (int32_t)(uint32_t)data,
				.move = (int16_t)(uint16_t)(data >> 32),
				.depth = (int8_t)(uint8_t)(data >> 48),
				.bound = (uint8_t)(data >> 56) };
}

/* The entry for key from this call: true and *hit filled, or false. */
static bool tt_probe(const struct engine *engine, uint64_t key,
		     struct tt_hit *hit)
{
	const struct tt_entry *entry = &engine->tt[key & engine->tt_mask];
	uint64_t data = __atomic_load_n(&entry->data, __ATOMIC_RELAXED);
	uint64_t check = __atomic_load_n(&entry->check, __ATOMIC_RELAXED);

	if ((check ^ data) != (key ^ engine->salt))
		return false;
	*hit = tt_unpack(data);
	return true;
}

static void tt_store(struct engine *engine, uint64_t key, int depth, int score,
		     int bound, int move, int ply)
{
	struct tt_entry *entry = &engine->tt[key & engine->tt_mask];
	struct tt_hit old, hit = { .score = score_to_tt(score, ply),
				   .move = (int16_t)move,
				   .depth = (int8_t)depth,
				   .bound = (uint8_t)bound };
	uint64_t data = tt_pack(&hit);

	if (tt_probe(engine, key, &old) && old.depth > depth)
		return;
	__atomic_store_n(&entry->data, data, __ATOMIC_RELAXED);
	__atomic_store_n(&entry->check, (key ^ engine->salt) ^ data,
			 __ATOMIC_RELAXED);
}

/* ---- threads: the moves being searched ---- */

/*
 * With helper threads (simplified ABDADA): a thread about to search a
 * move that is not its node's first, BUSY_DEPTH or more from the leaves,
 * leaves it for after the node's other moves if another thread is
 * searching it; by then the shared table likely holds its score. The
 * busy table holds a key per node and move, in slots of BUSY_WAYS,
 * written without a lock: a mark lost or overwritten costs a search done
 * twice or put off, never a wrong score. With one thread it is NULL and
 * the search is what it always was. (A thread never finds its own marks:
 * they are on its own path, with fewer stones than the node it is at.)
 */

/*
 * The busy mark of move at the node of key, depth plies from the leaves:
 * 0 when moves are not shared (one thread, or fewer than BUSY_DEPTH plies
 * from the leaves); otherwise never 0.
 */
static uint64_t busy_mark_of(const struct engine *engine, uint64_t key,
			     int move, int depth)
{
	if (!engine->busy || depth < BUSY_DEPTH)
		return 0;
	return mix64(key + (uint64_t)move) | 1;
}

/* The slot of a busy mark. */
static uint64_t *busy_slot(const struct engine *engine, uint64_t mark)
{
	return &engine->busy[(mark >> 1 & (BUSY_SLOTS - 1)) * BUSY_WAYS];
}

/* Whether a thread is searching the move of mark; false when mark is 0. */
static bool busy_held(const struct engine *engine, uint64_t mark)
{
	uint64_t *slot;
	int i;

	if (!mark)
		return false;
	slot = busy_slot(engine, mark);
	for (i = 0; i < BUSY_WAYS; i++)
		if (__atomic_load_n(&slot[i], __ATOMIC_RELAXED) == mark)
			return true;
	return false;
}

/* Marks the move of mark as being searched (on) or no longer (off). */
static void busy_set(struct engine *engine, uint64_t mark, bool on)
{
	uint64_t *slot;
	int i;

	if (!mark)
		return;
	slot = busy_slot(engine, mark);
	for (i = 0; i < BUSY_WAYS; i++) {
		uint64_t was = __atomic_load_n(&slot[i], __ATOMIC_RELAXED);

		if (on && (!was || was == mark)) {
			__atomic_store_n(&slot[i], mark, __ATOMIC_RELAXED);
			return;
		}
		if (!on && was == mark)
			__atomic_store_n(&slot[i], 0, __ATOMIC_RELAXED);
	}
	if (on) /* the slot is full: the newest mark wins */
		__atomic_store_n(&slot[0], mark, __ATOMIC_RELAXED);
}

/*
 * The walk over a node's moves (the search's and the root's): in their
 * order, less the ones another thread is searching, which come after the
 * others. Only the first 64 moves of a node can be put off; the first
 * one searched never is. Lives on the stack of the node's search.
 */
struct walk {
	const int16_t *moves; /* the node's, best first */
	int count;	      /* how many */
	uint64_t key;	      /* the node's */
	int depth;	      /* plies from the leaves */
	int next;	      /* the index to look at next, in order */
	uint64_t later;	      /* moves put off: bits of their index */
	int tried;	      /* moves handed out so far */
	int at;		      /* the move handed out: its index */
	uint64_t mark;	      /* and its busy mark (0: none) */
};

/* The start of a walk over count moves at the node of key. */
static struct walk walk_start(const int16_t *moves, int count, uint64_t key,
			      int depth)
{
	return (struct walk){ .moves = moves,
			      .count = count,
			      .key = key,
			      .depth = depth };
}

/* Hands out the walk's next move (walk->at); false when none is left. */
static bool walk_next(const struct engine *engine, struct walk *walk)
{
	for (;;) {
		bool in_order = walk->next < walk->count;

		if (in_order) {
			walk->at = walk->next++;
		} else if (walk->later) {
			walk->at = __builtin_ctzll(walk->later);
			walk->later &= walk->later - 1;
		} else {
			return false;
		}
		walk->mark = busy_mark_of(engine, walk->key,
					  walk->moves[walk->at], walk->depth);
		if (in_order && walk->tried && walk->at < 64 &&
		    busy_held(engine, walk->mark)) {
			walk->later |= 1ull << walk->at;
			continue;
		}
		walk->tried++;
		return true;
	}
}

/* ---- search ---- */

static int search(struct engine *engine, enum role side, int depth, int alpha,
		  int beta, int ply);

/*
 * The cases every node settles before searching: a five to play, two
 * fours of the opponent, one four to block (searched, no depth spent; lost
 * when renju forbids black the block), an open four he cannot meet with a
 * four. True with *score set when settled.
 */
static bool search_forced(struct engine *engine, enum role side, int depth,
			  int alpha, int beta, int ply, int *score)
{
	struct position *pos = &engine->pos;
	enum role other = role_other(side);
	int block;

	if (pos->count[side][THREAT_F5]) {
		*score = ENGINE_SCORE_WIN - ply;
		return true;
	}
	if (pos->count[other][THREAT_F5] >= 2) {
		*score = -(ENGINE_SCORE_WIN - ply - 1);
		return true;
	}
	if (pos->count[other][THREAT_F5]) {
		block = position_find_five(pos, other);
		if (!position_playable(pos, block, side)) {
			*score = -(ENGINE_SCORE_WIN - ply - 1);
			return true;
		}
		if (ply >= SEARCH_MAX_PLY - 1 || search_tick(engine)) {
			*score = 0;
			return true;
		}
		position_play(pos, block, side);
		*score = -search(engine, other, depth, -beta, -alpha, ply + 1);
		position_undo(pos);
		return true;
	}
	if (pos->count[side][THREAT_F4] && !position_fours(pos, other)) {
		*score = ENGINE_SCORE_WIN - ply - 2;
		return true;
	}
	return false;
}

/* Records a quiet move that cut off at ply, for ordering. */
static void search_credit(struct engine *engine, enum role side, int move,
			  int depth, int ply)
{
	if (engine->killers[ply][0] != move) {
		engine->killers[ply][1] = engine->killers[ply][0];
		engine->killers[ply][0] = (int16_t)move;
	}
	engine->history[side][move] += depth * depth;
}

/* A leaf: the evaluation, unless a short VCF probe finds a win. */
static int search_leaf(struct engine *engine, enum role side, int ply)
{
	const struct level_config *level = engine->level;

	if (level->leaf_vcf_nodes && position_fours(&engine->pos, side)) {
		struct vcf vcf;

		if (engine_run_vcf(engine, side, level->leaf_vcf_nodes, &vcf))
			return ENGINE_SCORE_WIN - ply - vcf.length;
	}
	return evaluate(engine, side);
}

/*
 * Searches the walk's move for side at ply: its node's first with the
 * full window; the others with a null window, reduce plies shallower,
 * marked busy meanwhile, and again with the full window when they beat
 * alpha (unless unreduced and already at beta, or the engine has
 * stopped). The score is from side's view, and means nothing once the
 * engine has stopped.
 */
static int search_move(struct engine *engine, enum role side,
		       const struct walk *walk, int reduce, int alpha, int beta,
		       int ply)
{
	struct position *pos = &engine->pos;
	enum role other = role_other(side);
	int depth = walk->depth, score;

	position_play(pos, walk->moves[walk->at], side);
	if (walk->tried == 1) {
		score = -search(engine, other, depth - 1, -beta, -alpha,
				ply + 1);
	} else {
		busy_set(engine, walk->mark, true);
		score = -search(engine, other, depth - 1 - reduce, -alpha - 1,
				-alpha, ply + 1);
		if (score > alpha && (reduce || score < beta) &&
		    !engine->stopped)
			score = -search(engine, other, depth - 1, -beta, -alpha,
					ply + 1);
		busy_set(engine, walk->mark, false);
	}
	position_undo(pos);
	return score;
}

/* The moves tried at a node depth plies from the leaves. */
static int node_width(const struct engine *engine, int depth)
{
	const struct level_config *level = engine->level;
	int leaf_width = level->leaf_width[engine->pos.rule];

	return depth <= LEAF_PLIES && leaf_width ? leaf_width : level->width;
}

/* Negamax principal-variation search; scores from side's view. */
static int search(struct engine *engine, enum role side, int depth, int alpha,
		  int beta, int ply)
{
	struct position *pos = &engine->pos;
	enum role other = role_other(side);
	struct tt_hit entry;
	int alpha_in = alpha, best = -SCORE_INFINITE, best_move = -1;
	int tt_move = -1, count, score;
	uint64_t key;
	struct walk walk;

	if (search_forced(engine, side, depth, alpha, beta, ply, &score))
		return score;
	if (depth <= 0 || ply >= SEARCH_MAX_PLY - 1)
		return search_leaf(engine, side, ply);

	key = node_key(engine, side);
	if (tt_probe(engine, key, &entry)) {
		tt_move = entry.move;
		if (entry.depth >= depth) {
			score = score_from_tt(entry.score, ply);
			if (entry.bound == TT_EXACT ||
			    (entry.bound == TT_LOWER && score >= beta) ||
			    (entry.bound == TT_UPPER && score <= alpha))
				return score;
		}
	}

	count = generate(engine, side, ply, tt_move, node_width(engine, depth));
	if (!count)
		return 0; /* no room left near the stones: call it even */
	walk = walk_start(engine->moves[ply], count, key, depth);
	while (walk_next(engine, &walk)) {
		int move = walk.moves[walk.at];
		bool quiet = position_threat(pos, move, side) < THREAT_F3 &&
			     position_threat(pos, move, other) < THREAT_F3;
		/* late by its rank, wherever the threads put it */
		int reduce = depth >= 3 && walk.at >= 4 && quiet ? 1 : 0;

		if (search_tick(engine))
			return 0;
		score = search_move(engine, side, &walk, reduce, alpha, beta,
				    ply);
		if (engine->stopped)
			return 0;
		if (score > best) {
			best = score;
			best_move = move;
		}
		if (score > alpha)
			alpha = score;
		if (alpha >= beta) {
			if (quiet)
				search_credit(engine, side, move, depth, ply);
			break;
		}
	}
	tt_store(engine, key, depth, best,
		 best >= beta	  ? TT_LOWER :
		 best <= alpha_in ? TT_UPPER :
				    TT_EXACT,
		 best_move, ply);
	return best;
}

/* ---- the root ---- */

/* The root's moves, and what the last iteration made of them. */
struct root {
	enum role side;			/* to move */
	int count;			/* moves */
	int16_t moves[BOARD_MAX_CELLS]; /* best first after each iteration */
	int32_t ranks[BOARD_MAX_CELLS]; /* ordering before the first */
};

/* Adds idx to the root's moves unless there already. */
static void root_add(struct root *root, int idx)
{
	int i;

	for (i = 0; i < root->count; i++)
		if (root->moves[i] == idx)
			return;
	root->moves[root->count++] = (int16_t)idx;
}

/*
 * When the opponent has a VCF (or, failing that, a VCT) if we pass, keeps
 * only the moves after which he has none: for a VCF the cells of his line
 * and our fours; for a VCT the root's moves and our threats (fours and
 * open threes), each checked. Leaves the root alone when he has none or
 * nothing stops it.
 */
static void root_defend(struct engine *engine, struct root *root)
{
	struct position *pos = &engine->pos;
	enum role side = root->side, other = role_other(side);
	const struct level_config *level = engine->level;
	struct root checked = { .side = side };
	int16_t threats[BOARD_MAX_CELLS];
	int vct_depth = 0, count, i;
	uint64_t budget = level->defence_nodes;
	struct vcf vcf;

	if (engine_run_vcf(engine, other, level->root_vcf_nodes, &vcf)) {
		for (i = 0; i < vcf.length; i++)
			if (vcf.line[i] >= 0)
				root_add(&checked, vcf.line[i]);
		count = position_find(pos, side, THREAT_B4, threats,
				      BOARD_MAX_CELLS);
	} else if (level->vct_depth &&
		   engine_run_threats(engine, other, level->root_vct_nodes,
				      level->vct_depth, &vcf)) {
		vct_depth = level->vct_depth;
		budget = level->defence_vct_nodes;
		for (i = 0; i < root->count; i++)
			root_add(&checked, root->moves[i]);
		count = position_find(pos, side, THREAT_F3, threats,
				      BOARD_MAX_CELLS);
	} else {
		return;
	}
	for (i = 0; i < count; i++)
		root_add(&checked, threats[i]);

	count = 0;
	for (i = 0; i < checked.count; i++) {
		struct vcf reply;
		bool refuted;

		if (!position_playable(pos, checked.moves[i], side))
			continue;
		position_play(pos, checked.moves[i], side);
		refuted = !engine_run_threats(engine, other, budget, vct_depth,
					      &reply);
		position_undo(pos);
		if (engine->stopped)
			return;
		if (refuted)
			checked.moves[count++] = checked.moves[i];
	}
	if (!count)
		return;
	root->count = 0;
	for (i = 0; i < count; i++)
		root_add(root, checked.moves[i]);
}

/* Fills the root's moves: candidates, threats first, best-ranked first. */
static void root_generate(struct engine *engine, struct root *root)
{
	int count =
		generate(engine, root->side, 0, -1, engine->level->root_width);
	int i;

	root->count = 0;
	for (i = 0; i < count; i++)
		root_add(root, engine->moves[0][i]);
}

/*
 * One iteration over the root's moves at depth. Returns the index of the
 * best move whose search finished (-1 when none did) and its score.
 */
static int root_search(struct engine *engine, struct root *root, int depth,
		       int *best_score)
{
	enum role side = root->side;
	int alpha = -SCORE_INFINITE, beta = SCORE_INFINITE;
	int best = -1, score;
	struct walk walk = walk_start(root->moves, root->count,
				      node_key(engine, side), depth);

	while (walk_next(engine, &walk)) {
		if (search_tick(engine))
			break;
		score = search_move(engine, side, &walk, 0, alpha, beta, 0);
		if (engine->stopped)
			break;
		if (score > alpha) {
			alpha = score;
			best = walk.at;
		}
	}
	*best_score = alpha;
	return best;
}

/* Moves the root move at index to the front, keeping the others' order. */
static void root_promote(struct root *root, int index)
{
	int16_t move = root->moves[index];

	memmove(&root->moves[1], &root->moves[0],
		(size_t)index * sizeof(root->moves[0]));
	root->moves[0] = move;
}

/* Writes grid cell idx to out's x and y. */
static void result_set(struct engine_result *out, int idx, int score,
		       bool forced)
{
	out->x = position_x(idx);
	out->y = position_y(idx);
	out->score = score;
	out->forced = forced;
}

/* The forced moves at the root; true when one was played into out. */
static bool root_forced(struct engine *engine, enum role side,
			struct engine_result *out)
{
	struct position *pos = &engine->pos;
	enum role other = role_other(side);
	struct vcf vcf;
	int idx;

	idx = position_find_five(pos, side);
	if (idx >= 0) {
		result_set(out, idx, ENGINE_SCORE_WIN - 1, true);
		return true;
	}
	idx = position_find_five(pos, other);
	if (idx >= 0 && position_playable(pos, idx, side)) {
		int score = pos->count[other][THREAT_F5] >= 2 ?
				    -(ENGINE_SCORE_WIN - 2) :
				    0;

		result_set(out, idx, score, true);
		return true;
	}
	if (engine->level->root_vcf_nodes &&
	    engine_run_vcf(engine, side, engine->level->root_vcf_nodes, &vcf)) {
		result_set(out, vcf.line[0], ENGINE_SCORE_WIN - vcf.length,
			   true);
		return true;
	}
	if (engine->level->vct_depth &&
	    engine_run_threats(engine, side, engine->level->root_vct_nodes,
			       engine->level->vct_depth, &vcf)) {
		result_set(out, vcf.line[0],
			   ENGINE_SCORE_WIN - 2 * engine->level->vct_depth,
			   true);
		return true;
	}
	return false;
}

/*
 * Easy and medium play like a person: once the search is done, every
 * root move is scored exactly at its depth, and one within near_margin
 * of the best is picked by the seed (a won or lost position keeps the
 * best). The budget or the deadline running out keeps the best too.
 */
static void root_pick_near(struct engine *engine, struct root *root,
			   struct engine_result *out)
{
	struct position *pos = &engine->pos;
	enum role side = root->side, other = role_other(side);
	int32_t scores[BOARD_MAX_CELLS];
	int best = -SCORE_INFINITE, near = 0, pick, i;

	if (out->depth < 1 || out->score >= SCORE_WON ||
	    out->score <= -SCORE_WON)
		return;
	for (i = 0; i < root->count; i++) {
		position_play(pos, root->moves[i], side);
		scores[i] = -search(engine, other, out->depth - 1,
				    -SCORE_INFINITE, SCORE_INFINITE, 1);
		position_undo(pos);
		if (engine->stopped)
			return;
		if (scores[i] > best)
			best = scores[i];
	}
	if (best >= SCORE_WON)
		return; /* a win the iterations did not see: play the best */
	for (i = 0; i < root->count; i++)
		near += scores[i] >= best - engine->level->near_margin;
	pick = (int)(mix64(pos->key ^ engine->jitter) % (uint64_t)near);
	for (i = 0; i < root->count; i++) {
		if (scores[i] >= best - engine->level->near_margin &&
		    pick-- == 0) {
			result_set(out, root->moves[i], scores[i], false);
			return;
		}
	}
}

/*
 * The empty cell nearest the centre that side may play (when no candidate
 * is left), or -1.
 */
static int nearest_empty(const struct position *pos, enum role side)
{
	int best = -1, best_distance = INT_MAX, x, y;
	int centre = pos->size / 2;

	for (y = 0; y < pos->size; y++) {
		for (x = 0; x < pos->size; x++) {
			int idx = position_index(x, y);
			int distance = abs(x - centre) + abs(y - centre);

			if (pos->cell[idx] == POS_EMPTY &&
			    position_playable(pos, idx, side) &&
			    distance < best_distance) {
				best = idx;
				best_distance = distance;
			}
		}
	}
	return best;
}

/* ---- helper threads on the same tables ---- */

/* What one helper thread searches. */
struct smp_job {
	struct engine *engine; /* the helper's */
	struct root root;      /* its own copy of the root's moves */
	pthread_t thread;
};

/*
 * A helper: the main thread's iterations, on its own position and root
 * copy, until the main thread halts it. The busy table splits the moves
 * between the threads; what it finds goes into the shared table (where
 * the main thread reads it) and, for its last finished iteration, into
 * done_*.
 */
static void *smp_helper(void *arg)
{
	struct smp_job *job = arg;
	struct engine *helper = job->engine;
	int depth, score;

	for (depth = 1; depth <= helper->level->max_depth; depth++) {
		int best = root_search(helper, &job->root, depth, &score);

		if (helper->stopped || best < 0)
			break;
		root_promote(&job->root, best);
		helper->done_depth = depth;
		helper->done_move = job->root.moves[0];
		helper->done_score = score;
		if (score >= SCORE_WON || score <= -SCORE_WON)
			break;
	}
	return NULL;
}

/* Starts the helpers on the root; how many started. */
static int smp_start(struct engine *engine, const struct root *root,
		     struct smp_job *jobs)
{
	int i;

	__atomic_store_n(&engine->halt, 0, __ATOMIC_RELAXED);
	memset(engine->busy, 0, BUSY_SLOTS * BUSY_WAYS * sizeof(*engine->busy));
	for (i = 0; i < engine->helper_count; i++) {
		struct engine *helper = engine->helpers[i];

		helper->salt = engine->salt; /* the same table entries */
		helper->level = engine->level;
		helper->nodes = 0;
		helper->max_nodes = 0; /* until halted */
		helper->now_us = engine->now_us;
		helper->now_ctx = engine->now_ctx;
		helper->deadline_us = engine->deadline_us;
		helper->next_check = CLOCK_INTERVAL;
		helper->stopped = false;
		helper->jitter = engine->jitter; /* scores that agree */
		helper->done_depth = 0;
		memset(helper->killers, 0xff, sizeof(helper->killers));
		memset(helper->history, 0, sizeof(helper->history));
		helper->pos = engine->pos;
		jobs[i].engine = helper;
		jobs[i].root = *root;
		if (pthread_create(&jobs[i].thread, NULL, smp_helper, &jobs[i]))
			break;
	}
	return i;
}

/*
 * Halts and joins the helpers. A helper that finished a deeper iteration
 * than the main thread gives the move, unless the main thread's is won.
 */
static void smp_stop(struct engine *engine, struct smp_job *jobs, int count,
		     struct engine_result *out)
{
	int i;

	__atomic_store_n(&engine->halt, 1, __ATOMIC_RELAXED);
	for (i = 0; i < count; i++) {
		struct engine *helper = jobs[i].engine;

		pthread_join(jobs[i].thread, NULL);
		if (helper->done_depth > out->depth && out->score < SCORE_WON) {
			result_set(out, helper->done_move, helper->done_score,
				   false);
			out->depth = helper->done_depth;
		}
	}
}

/*
 * The searching levels on engine->pos: 0, or -ENOSPC when renju
 * forbids black every empty cell.
 */
static int search_choose(struct engine *engine, enum role side,
			 struct engine_result *out)
{
	struct root root_moves = { .side = side };
	struct root *root = &root_moves;
	struct smp_job jobs[ENGINE_MAX_THREADS - 1];
	int depth, best_score = 0, helpers = 0;

	if (root_forced(engine, side, out))
		return 0;
	root_generate(engine, root);
	if (engine->level->root_vcf_nodes)
		root_defend(engine, root);
	if (!root->count) {
		int idx = nearest_empty(&engine->pos, side);

		if (idx < 0)
			return -ENOSPC;
		result_set(out, idx, 0, false);
		return 0;
	}
	result_set(out, root->moves[0], 0, false);
	if (engine->helper_count && root->count > 1)
		helpers = smp_start(engine, root, jobs);
	for (depth = 1; depth <= engine->level->max_depth; depth++) {
		int best = root_search(engine, root, depth, &best_score);

		if (best >= 0) {
			root_promote(root, best);
			result_set(out, root->moves[0], best_score, false);
		}
		if (engine->stopped)
			break;
		out->depth = depth;
		if (best_score >= SCORE_WON || best_score <= -SCORE_WON ||
		    root->count == 1)
			break;
	}
	if (helpers)
		smp_stop(engine, jobs, helpers, out);
	if (engine->level->near_margin)
		root_pick_near(engine, root, out);
	return 0;
}

/* Whether every cell of board holds a role; counts the stones. */
static bool board_valid(const struct board *board, int *stones)
{
	int i;

	*stones = 0;
	for (i = 0; i < board->size * board->size; i++) {
		if (board->cells[i] > ROLE_BACK)
			return false;
		if (board->cells[i] != ROLE_NONE)
			(*stones)++;
	}
	return true;
}

/* Loads board into pos under rule, every renju verdict exact. */
static void position_load(struct position *pos, const struct board *board,
			  enum rule rule, bool pairs)
{
	int x, y;

	position_init(pos, board->size, rule, pairs);
	for (y = 0; y < board->size; y++) {
		for (x = 0; x < board->size; x++) {
			enum role role = board_get(board, x, y);

			if (role != ROLE_NONE)
				position_play(pos, position_index(x, y), role);
		}
	}
	position_judge_all(pos);
}

/* Checks the arguments every entry point shares; counts the stones. */
static int arguments_check(const struct board *board, enum role role,
			   enum rule rule, int *stones)
{
	if (!board || board->size < BOARD_MIN_SIZE ||
	    board->size > BOARD_MAX_SIZE)
		return -EINVAL;
	if (role != ROLE_FRONT && role != ROLE_BACK)
		return -EINVAL;
	if ((unsigned)rule >= RULE_COUNT)
		return -EINVAL;
	if (!board_valid(board, stones))
		return -EINVAL;
	return 0;
}

/* Prepares engine for one call: salt, budget, clean ordering tables. */
static void engine_start(struct engine *engine, enum engine_level level,
			 const struct engine_limits *limits)
{
	static const struct engine_limits none;

	if (!limits)
		limits = &none;
	engine->calls++;
	engine->salt = mix64(engine->calls * 0x9e3779b97f4a7c15ull);
	engine->level = &level_configs[level];
	engine->nodes = 0;
	engine->max_nodes = limits->max_nodes ? limits->max_nodes :
						engine->level->default_nodes;
	engine->now_us = limits->now_us;
	engine->now_ctx = limits->now_ctx;
	engine->deadline_us = limits->now_us ? limits->deadline_us : 0;
	engine->next_check = CLOCK_INTERVAL;
	engine->stopped = false;
	engine->jitter = mix64((uint64_t)limits->seed + 0x51ed270b27d4ull);
	memset(engine->killers, 0xff, sizeof(engine->killers));
	memset(engine->history, 0, sizeof(engine->history));
}

int engine_choose(struct engine *engine, const struct board *board,
		  enum role to_move, enum rule rule, enum engine_level level,
		  const struct engine_limits *limits, struct engine_result *out)
{
	int stones, err;

	if (!engine || !out)
		return -EINVAL;
	err = arguments_check(board, to_move, rule, &stones);
	if (err)
		return err;
	if ((unsigned)level >= ENGINE_LEVEL_COUNT)
		return -EINVAL;
	if (stones == board->size * board->size)
		return -ENOSPC;

	memset(out, 0, sizeof(*out));
	if (!stones) {
		out->x = board->size / 2;
		out->y = board->size / 2;
		return 0;
	}
	if (level_configs[level].heuristic) {
		return easy_choose(board, to_move, rule,
				   level_configs[level].pick_shift,
				   limits ? limits->seed : 0, out);
	}
	engine_start(engine, level, limits);
	position_load(&engine->pos, board, rule, engine->level->pairs);
	err = search_choose(engine, to_move, out);
	out->nodes = engine->nodes;
	return err;
}

/* ---- for tests and tools ---- */

static enum engine_threat threat_public(enum threat threat)
{
	switch (threat) {
	case THREAT_F5:
		return ENGINE_THREAT_FIVE;
	case THREAT_F4:
		return ENGINE_THREAT_OPEN_FOUR;
	case THREAT_43:
		return ENGINE_THREAT_FOUR_THREE;
	case THREAT_B4:
		return ENGINE_THREAT_FOUR;
	case THREAT_33:
		return ENGINE_THREAT_DOUBLE_THREE;
	case THREAT_F3:
		return ENGINE_THREAT_OPEN_THREE;
	case THREAT_B3:
		return ENGINE_THREAT_THREE;
	case THREAT_22:
	case THREAT_F2:
		return ENGINE_THREAT_TWO;
	default:
		return ENGINE_THREAT_NONE;
	}
}

enum engine_threat engine_classify(const struct board *board, enum rule rule,
				   enum role role, int x, int y)
{
	struct position *pos;
	enum engine_threat threat;
	int stones, idx;

	if (arguments_check(board, role, rule, &stones) ||
	    !board_in_range(board, x, y) || board_get(board, x, y) != ROLE_NONE)
		return ENGINE_THREAT_NONE;
	pos = malloc(sizeof(*pos));
	if (!pos)
		return ENGINE_THREAT_NONE;
	position_load(pos, board, rule, true);
	idx = position_index(x, y);
	threat = position_playable(pos, idx, role) ?
			 threat_public(
				 (enum threat)position_threat(pos, idx, role)) :
			 ENGINE_THREAT_FORBIDDEN;
	free(pos);
	return threat;
}

int engine_evaluate(const struct board *board, enum role to_move,
		    enum rule rule)
{
	struct position *pos;
	int stones, score;

	if (arguments_check(board, to_move, rule, &stones))
		return 0;
	pos = malloc(sizeof(*pos));
	if (!pos)
		return 0;
	position_load(pos, board, rule, true);
	score = pos->total[to_move] - pos->total[role_other(to_move)];
	free(pos);
	return score;
}

int engine_find_vcf(struct engine *engine, const struct board *board,
		    enum role attacker, enum rule rule, uint64_t max_nodes,
		    struct cell *moves, int max_moves)
{
	struct engine_limits limits = { .max_nodes = max_nodes };
	struct vcf vcf;
	int stones, err, i, written = 0;

	if (!engine || (!moves && max_moves > 0))
		return -EINVAL;
	err = arguments_check(board, attacker, rule, &stones);
	if (err)
		return err;
	if (!limits.max_nodes)
		limits.max_nodes = 1000000;
	engine_start(engine, ENGINE_HARD, &limits);
	position_load(&engine->pos, board, rule, true);
	if (!engine_run_vcf(engine, attacker, limits.max_nodes, &vcf))
		return 0;
	for (i = 0; i < vcf.length; i += 2) {
		if (written < max_moves) {
			moves[written].x = position_x(vcf.line[i]);
			moves[written].y = position_y(vcf.line[i]);
		}
		written++;
	}
	return written;
}

const char *engine_level_name(enum engine_level level)
{
	if ((unsigned)level >= ENGINE_LEVEL_COUNT)
		return "";
	return level_configs[level].name;
}

int engine_level_parse(const char *name, enum engine_level *level)
{
	int i;

	if (!name || !level)
		return -EINVAL;
	for (i = 0; i < ENGINE_LEVEL_COUNT; i++) {
		if (strcmp(name, level_configs[i].name) == 0) {
			*level = (enum engine_level)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *engine_threat_name(enum engine_threat threat)
{
	switch (threat) {
	case ENGINE_THREAT_FIVE:
		return "five";
	case ENGINE_THREAT_OPEN_FOUR:
		return "open-four";
	case ENGINE_THREAT_FOUR_THREE:
		return "four-three";
	case ENGINE_THREAT_FOUR:
		return "four";
	case ENGINE_THREAT_DOUBLE_THREE:
		return "double-three";
	case ENGINE_THREAT_OPEN_THREE:
		return "open-three";
	case ENGINE_THREAT_THREE:
		return "three";
	case ENGINE_THREAT_TWO:
		return "two";
	case ENGINE_THREAT_FORBIDDEN:
		return "forbidden";
	default:
		return "none";
	}
}
