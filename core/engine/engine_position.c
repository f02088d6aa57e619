/*
 * engine_position.c - the engine's board: line patterns kept per empty
 * cell, updated along the four lines through each stone played or taken
 * back.
 *
 * A cell's code in one direction packs the ten cells around it on that
 * line (five each way), two bits each: empty, front, back, wall. The
 * pattern table maps a code to what a front stone and what a back stone
 * at the centre would make; it is built once per rule by classifying all
 * 3^10 lines of own / empty / blocked cells (recursively: a four has one
 * cell left to a five through the centre, an open four two, a three is
 * one move from a four, …) and then spreading them over the 2^20 codes.
 *
 * Just over 600 lines: the pattern table and the board that reads it are
 * one data structure.
 */
#include "engine_position.h"

#include <pthread.h>
#include <string.h>

/* Cells of a line around its centre: five each way. */
#define LINE_CELLS 11
#define LINE_CENTRE 5
#define LINE_CODES (1u << 20)
/*
 * Under freestyle the outermost cell each way never matters (a run
 * reaching it is a five either way), so its table drops them: 2^16 codes,
 * 64 KB, which stays in cache; standard needs all ten cells (1 MB).
 */
#define FREESTYLE_CODES (1u << 16)
#define LINE_TERNARY 59049 /* 3^10 */

/* A line cell as the pattern classifier sees it. */
enum line_cell {
	LINE_EMPTY,
	LINE_OWN,
	LINE_BLOCKED, /* the other side's stone or the wall */
};

const int position_steps[4] = { 1, POS_STRIDE, POS_STRIDE + 1, POS_STRIDE - 1 };

/* What a stone is worth on one line, by the pattern it makes. */
static const int16_t pattern_worth[PAT_COUNT] = {
	[PAT_NONE] = 0, [PAT_B1] = 1,	[PAT_F1] = 2,  [PAT_B2] = 4,
	[PAT_F2] = 10,	[PAT_B3] = 10,	[PAT_F3] = 28, [PAT_B4] = 28,
	[PAT_F4] = 80,	[PAT_F5] = 300,
};

/* What a cell is worth on top of its lines, by its combined threat. */
static const int16_t threat_bonus[THREAT_COUNT] = {
	[THREAT_22] = 12,  [THREAT_33] = 140,  [THREAT_43] = 320,
	[THREAT_F4] = 500, [THREAT_F5] = 1500,
};

/* Per rule: code -> front pattern | back pattern << 4. */
static uint8_t freestyle_table[FREESTYLE_CODES];
static uint8_t standard_table[LINE_CODES];
static pthread_once_t pattern_once[2] = { PTHREAD_ONCE_INIT,
					  PTHREAD_ONCE_INIT };

/* The four patterns of a cell (base 10) -> its threat and value. */
static uint8_t combined_threat[10000];
static int16_t combined_value[10000];

/*
 * Per side (1, 2): the base-3 line index that the low and the high ten
 * bits of a code contribute, for spreading lines over codes.
 */
static uint32_t code_low[3][1024], code_high[3][1024];

/* Zobrist keys per role (index 1, 2) and grid cell. */
static uint64_t zobrist_keys[3][POS_CELLS];
static pthread_once_t shared_once = PTHREAD_ONCE_INIT;

/* splitmix64: the fixed stream the Zobrist keys come from. */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Whether the run through the centre of line is a five under rule. */
static bool line_is_five(const uint8_t *line, enum rule rule)
{
	int run = 1;
	int i;

	for (i = LINE_CENTRE - 1; i >= 0 && line[i] == LINE_OWN; i--)
		run++;
	for (i = LINE_CENTRE + 1; i < LINE_CELLS && line[i] == LINE_OWN; i++)
		run++;
	/* A run reaching the line's ends is six or more long. */
	return rule == RULE_STANDARD ? run == 5 : run >= 5;
}

/* The base-3 index of the ten cells around the centre. */
static int line_index(const uint8_t *line)
{
	int index = 0;
	int i;

	for (i = LINE_CELLS - 1; i >= 0; i--)
		if (i != LINE_CENTRE)
			index = index * 3 + line[i];
	return index;
}

/* One step weaker: what a line one move short of p is. */
static enum pattern pattern_weaken(enum pattern p)
{
	switch (p) {
	case PAT_F4:
		return PAT_F3;
	case PAT_B4:
		return PAT_B3;
	case PAT_F3:
		return PAT_F2;
	case PAT_B3:
		return PAT_B2;
	case PAT_F2:
		return PAT_F1;
	case PAT_B2:
		return PAT_B1;
	default:
		return PAT_NONE;
	}
}

/*
 * What the centre stone (already LINE_OWN) makes on line. memo holds
 * results by line_index(), 0xff when not known yet. Only cells within four
 * of the centre can join a five through it; the two outer ones only tell
 * an exact five from an overline.
 */
static enum pattern line_classify(uint8_t *line, enum rule rule, uint8_t *memo)
{
	int index = line_index(line);
	enum pattern best = PAT_NONE;
	int fives = 0;
	int i;

	if (memo[index] != 0xff)
		return (enum pattern)memo[index];
	if (line_is_five(line, rule)) {
		memo[index] = PAT_F5;
		return PAT_F5;
	}
	for (i = 1; i < LINE_CELLS - 1; i++) {
		if (i == LINE_CENTRE || line[i] != LINE_EMPTY)
			continue;
		line[i] = LINE_OWN;
		if (line_is_five(line, rule))
			fives++;
		line[i] = LINE_EMPTY;
	}
	if (fives) {
		best = fives >= 2 ? PAT_F4 : PAT_B4;
	} else {
		for (i = 1; i < LINE_CELLS - 1; i++) {
			enum pattern next;

			if (i == LINE_CENTRE || line[i] != LINE_EMPTY)
				continue;
			line[i] = LINE_OWN;
			next = pattern_weaken(line_classify(line, rule, memo));
			line[i] = LINE_EMPTY;
			if (next > best)
				best = next;
		}
	}
	memo[index] = (uint8_t)best;
	return best;
}

/* How a two-bit grid code reads for the side owning the value own. */
static enum line_cell code_cell(unsigned bits, unsigned own)
{
	if (bits == POS_EMPTY)
		return LINE_EMPTY;
	return bits == own ? LINE_OWN : LINE_BLOCKED;
}

/*
 * The base-3 index contributed by five code fields (ten bits), for one
 * side, weighted from the field at position first.
 */
static void half_indices(int first, unsigned own, uint32_t *out)
{
	static const uint32_t powers[10] = { 1,	  3,   9,    27,   81,
					     243, 729, 2187, 6561, 19683 };
	unsigned half, field;

	for (half = 0; half < 1024; half++) {
		uint32_t index = 0;

		for (field = 0; field < 5; field++) {
			unsigned bits = (half >> (2 * field)) & 3;

			index += code_cell(bits, own) * powers[first + field];
		}
		out[half] = index;
	}
}

/* Builds the pattern table of one rule. */
static void patterns_build(enum rule rule)
{
	static uint8_t memo[2][LINE_TERNARY];
	uint8_t *table = rule == RULE_STANDARD ? standard_table :
						 freestyle_table;
	uint32_t codes = rule == RULE_STANDARD ? LINE_CODES : FREESTYLE_CODES;
	unsigned shift = rule == RULE_STANDARD ? 0 : 2;
	uint8_t *rule_memo = memo[rule == RULE_STANDARD];
	uint8_t line[LINE_CELLS];
	uint32_t code;
	int index, i;

	memset(rule_memo, 0xff, LINE_TERNARY);
	for (index = 0; index < LINE_TERNARY; index++) {
		int rest = index;

		for (i = 0; i < LINE_CELLS; i++) {
			if (i == LINE_CENTRE) {
				line[i] = LINE_OWN;
				continue;
			}
			line[i] = (uint8_t)(rest % 3);
			rest /= 3;
		}
		line_classify(line, rule, rule_memo);
	}
	for (code = 0; code < codes; code++) {
		/* freestyle: the outer cells read as empty */
		unsigned full = code << shift;
		unsigned lo = full & 1023, hi = full >> 10;
		uint8_t front = rule_memo[code_low[1][lo] + code_high[1][hi]];
		uint8_t back = rule_memo[code_low[2][lo] + code_high[2][hi]];

		table[code] = (uint8_t)(front | back << 4);
	}
}

static void patterns_build_freestyle(void)
{
	patterns_build(RULE_FREESTYLE);
}

static void patterns_build_standard(void)
{
	patterns_build(RULE_STANDARD);
}

/* The threat of a cell whose four line patterns are counted in n. */
static enum threat threat_of(const int *n)
{
	if (n[PAT_F5])
		return THREAT_F5;
	if (n[PAT_F4] || n[PAT_B4] >= 2)
		return THREAT_F4;
	if (n[PAT_B4] && n[PAT_F3])
		return THREAT_43;
	if (n[PAT_B4])
		return THREAT_B4;
	if (n[PAT_F3] >= 2)
		return THREAT_33;
	if (n[PAT_F3])
		return THREAT_F3;
	if (n[PAT_B3])
		return THREAT_B3;
	if (n[PAT_F2] >= 2)
		return THREAT_22;
	if (n[PAT_F2])
		return THREAT_F2;
	if (n[PAT_B1] || n[PAT_F1] || n[PAT_B2])
		return THREAT_LOW;
	return THREAT_NONE;
}

/* Builds the combined tables, the code halves and the Zobrist keys. */
static void shared_build(void)
{
	uint64_t state = 0x676f6d6f6b75ull; /* "gomoku" */
	int index, role, cell;
	unsigned own;

	/* Fields 0-4 are cells -5..-1, fields 5-9 cells +1..+5. */
	for (own = 1; own <= 2; own++) {
		half_indices(0, own, code_low[own]);
		half_indices(5, own, code_high[own]);
	}

	for (index = 0; index < 10000; index++) {
		int n[PAT_COUNT] = { 0 };
		int rest = index, value = 0, dir;
		enum threat threat;

		for (dir = 0; dir < 4; dir++) {
			n[rest % 10]++;
			value += pattern_worth[rest % 10];
			rest /= 10;
		}
		threat = threat_of(n);
		combined_threat[index] = (uint8_t)threat;
		combined_value[index] = (int16_t)(value + threat_bonus[threat]);
	}
	for (role = 0; role < 3; role++)
		for (cell = 0; cell < POS_CELLS; cell++)
			zobrist_keys[role][cell] = splitmix64(&state);
}

uint64_t position_zobrist(int idx, enum role role)
{
	return zobrist_keys[role][idx];
}

/* Removes the empty cell idx from the totals. */
static void cell_subtract(struct position *pos, int idx)
{
	int role;

	for (role = 1; role <= 2; role++) {
		pos->total[role] -= pos->value[role][idx];
		pos->count[role][pos->threat[role][idx]]--;
	}
}

/* Sets role's threat and value at idx from its combined patterns. */
static void cell_set(struct position *pos, int idx, int role)
{
	int combined = pos->combined[role][idx];

	pos->threat[role][idx] = combined_threat[combined];
	pos->value[role][idx] = combined_value[combined];
	pos->total[role] += combined_value[combined];
	pos->count[role][combined_threat[combined]]++;
}

/*
 * Recomputes the patterns, threats and values of the empty cell idx from
 * its codes and adds them to the totals.
 */
static void cell_add(struct position *pos, int idx)
{
	static const int tens[4] = { 1, 10, 100, 1000 };
	int front = 0, back = 0, dir;

	for (dir = 0; dir < 4; dir++) {
		uint8_t pat = position_lookup(pos, pos->code[idx][dir]);

		pos->pat[idx][dir] = pat;
		front += (pat & 15) * tens[dir];
		back += (pat >> 4) * tens[dir];
	}
	pos->combined[ROLE_FRONT][idx] = (int16_t)front;
	pos->combined[ROLE_BACK][idx] = (int16_t)back;
	cell_set(pos, idx, ROLE_FRONT);
	cell_set(pos, idx, ROLE_BACK);
}

/*
 * role's pattern at the empty cell idx in direction dir went from old to
 * now: updates its combined patterns, threat, value and the totals.
 */
static inline void cell_update_role(struct position *pos, int idx, int role,
				    int dir, int old, int now)
{
	static const int tens[4] = { 1, 10, 100, 1000 };
	int before = pos->combined[role][idx];
	int after = before + (now - old) * tens[dir];
	int threat_before = combined_threat[before];
	int threat_after = combined_threat[after];

	pos->combined[role][idx] = (int16_t)after;
	pos->total[role] += combined_value[after] - combined_value[before];
	pos->value[role][idx] = combined_value[after];
	if (threat_before != threat_after) {
		pos->count[role][threat_before]--;
		pos->count[role][threat_after]++;
		pos->threat[role][idx] = (uint8_t)threat_after;
	}
}

/* The patterns of the empty cell idx in direction dir became pat. */
static inline void cell_update(struct position *pos, int idx, int dir,
			       uint8_t pat)
{
	uint8_t old = pos->pat[idx][dir];

	pos->pat[idx][dir] = pat;
	if ((pat & 15) != (old & 15))
		cell_update_role(pos, idx, ROLE_FRONT, dir, old & 15, pat & 15);
	if ((pat >> 4) != (old >> 4))
		cell_update_role(pos, idx, ROLE_BACK, dir, old >> 4, pat >> 4);
}

void position_init(struct position *pos, int size, enum rule rule)
{
	int x, y, dir, k;

	pthread_once(&shared_once, shared_build);
	if (rule == RULE_STANDARD)
		pthread_once(&pattern_once[1], patterns_build_standard);
	else
		pthread_once(&pattern_once[0], patterns_build_freestyle);

	memset(pos, 0, sizeof(*pos));
	pos->size = size;
	pos->rule = rule;
	if (rule == RULE_STANDARD) {
		pos->patterns = standard_table;
		pos->pattern_shift = 0;
		pos->pattern_mask = LINE_CODES - 1;
	} else {
		pos->patterns = freestyle_table;
		pos->pattern_shift = 2;
		pos->pattern_mask = FREESTYLE_CODES - 1;
	}
	memset(pos->cell, POS_WALL, sizeof(pos->cell));
	for (y = 0; y < size; y++)
		for (x = 0; x < size; x++)
			pos->cell[position_index(x, y)] = POS_EMPTY;
	for (y = 0; y < size; y++) {
		for (x = 0; x < size; x++) {
			int idx = position_index(x, y);

			for (dir = 0; dir < 4; dir++) {
				uint32_t code = 0;

				for (k = 1; k <= 5; k++) {
					int step = position_steps[dir];
					uint32_t before =
						pos->cell[idx - k * step];
					uint32_t after =
						pos->cell[idx + k * step];

					code |= before << (2 * (5 - k));
					code |= after << (2 * (4 + k));
				}
				pos->code[idx][dir] = code;
			}
			cell_add(pos, idx);
		}
	}
	pos->min_x = pos->min_y = size;
	pos->max_x = pos->max_y = -1;
}

/*
 * Writes content into the code field at shift of cell other in direction
 * dir, and refreshes its patterns when it is empty.
 */
static inline void line_cell_update(struct position *pos, int other, int dir,
				    int shift, uint32_t content)
{
	uint32_t *code = &pos->code[other][dir];
	uint8_t pat;

	if (pos->cell[other] == POS_WALL)
		return;
	*code = (*code & ~(3u << shift)) | content << shift;
	if (pos->cell[other] != POS_EMPTY)
		return;
	pat = position_lookup(pos, *code);
	if (pat != pos->pat[other][dir])
		cell_update(pos, other, dir, pat);
}

/*
 * Writes role (or POS_EMPTY) as the cell at distance k along dir from the
 * cells on both sides of idx, and refreshes the empty ones.
 */
static void lines_update(struct position *pos, int idx, uint32_t content)
{
	int dir, k;

	for (dir = 0; dir < 4; dir++) {
		int step = position_steps[dir];

		for (k = 1; k <= 5; k++) {
			/* idx is at +k from the cell before, -k from the after. */
			line_cell_update(pos, idx - k * step, dir, 2 * (4 + k),
					 content);
			line_cell_update(pos, idx + k * step, dir, 2 * (5 - k),
					 content);
		}
	}
}

/* Adds delta to the near count of every cell within two of idx. */
static void near_update(struct position *pos, int idx, int delta)
{
	int dx, dy;

	for (dy = -2; dy <= 2; dy++)
		for (dx = -2; dx <= 2; dx++)
			pos->near[idx + dy * POS_STRIDE + dx] += delta;
}

void position_play(struct position *pos, int idx, enum role role)
{
	int x = position_x(idx), y = position_y(idx);
	int16_t *box = pos->boxes[pos->stones];

	box[0] = (int16_t)pos->min_x;
	box[1] = (int16_t)pos->max_x;
	box[2] = (int16_t)pos->min_y;
	box[3] = (int16_t)pos->max_y;
	pos->moves[pos->stones++] = (int16_t)idx;
	if (x < pos->min_x)
		pos->min_x = x;
	if (x > pos->max_x)
		pos->max_x = x;
	if (y < pos->min_y)
		pos->min_y = y;
	if (y > pos->max_y)
		pos->max_y = y;

	cell_subtract(pos, idx);
	pos->cell[idx] = (uint8_t)role;
	lines_update(pos, idx, (uint32_t)role);
	near_update(pos, idx, 1);
	pos->key ^= zobrist_keys[role][idx];
}

void position_undo(struct position *pos)
{
	int idx = pos->moves[--pos->stones];
	const int16_t *box = pos->boxes[pos->stones];
	enum role role = (enum role)pos->cell[idx];

	pos->key ^= zobrist_keys[role][idx];
	near_update(pos, idx, -1);
	pos->cell[idx] = POS_EMPTY;
	lines_update(pos, idx, POS_EMPTY);
	cell_add(pos, idx);
	pos->min_x = box[0];
	pos->max_x = box[1];
	pos->min_y = box[2];
	pos->max_y = box[3];
}

/* Clamps the bounding box grown by margin to the board. */
static void box_grown(const struct position *pos, int margin, int *x0, int *x1,
		      int *y0, int *y1)
{
	*x0 = pos->min_x - margin < 0 ? 0 : pos->min_x - margin;
	*y0 = pos->min_y - margin < 0 ? 0 : pos->min_y - margin;
	*x1 = pos->max_x + margin >= pos->size ? pos->size - 1 :
						 pos->max_x + margin;
	*y1 = pos->max_y + margin >= pos->size ? pos->size - 1 :
						 pos->max_y + margin;
}

int position_candidates(const struct position *pos, int16_t *cells)
{
	int x0, x1, y0, y1, x, y;
	int found = 0;

	if (!pos->stones)
		return 0;
	box_grown(pos, 2, &x0, &x1, &y0, &y1);
	for (y = y0; y <= y1; y++) {
		for (x = x0; x <= x1; x++) {
			int idx = position_index(x, y);

			if (pos->cell[idx] == POS_EMPTY && pos->near[idx])
				cells[found++] = (int16_t)idx;
		}
	}
	return found;
}

int position_find(const struct position *pos, enum role role, enum threat min,
		  int16_t *cells, int max)
{
	int x0, x1, y0, y1, x, y;
	int found = 0;

	if (!pos->stones)
		return 0;
	box_grown(pos, 2, &x0, &x1, &y0, &y1);
	for (y = y0; y <= y1; y++) {
		for (x = x0; x <= x1; x++) {
			int idx = position_index(x, y);

			if (pos->cell[idx] == POS_EMPTY && pos->near[idx] &&
			    pos->threat[role][idx] >= min && found < max)
				cells[found++] = (int16_t)idx;
		}
	}
	return found;
}

int position_find_five(const struct position *pos, enum role role)
{
	int x0, x1, y0, y1, x, y;

	if (!pos->count[role][THREAT_F5])
		return -1;
	box_grown(pos, 1, &x0, &x1, &y0, &y1);
	for (y = y0; y <= y1; y++) {
		for (x = x0; x <= x1; x++) {
			int idx = position_index(x, y);

			if (pos->cell[idx] == POS_EMPTY &&
			    pos->threat[role][idx] == THREAT_F5)
				return idx;
		}
	}
	return -1;
}
