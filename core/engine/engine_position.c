/*
 * engine_position.c - the engine's board: line patterns kept per empty
 * cell, updated along the four lines through each stone played or taken
 * back.
 *
 * A cell's code in one direction packs the ten cells around it on that
 * line (five each way), two bits each: empty, front, back, wall. The
 * pattern table maps a code to what a front stone and what a back stone
 * at the centre would make. All 3^10 lines of own / empty / blocked cells
 * are classified once per kind of five, exact or five-or-more
 * (recursively: a four has one cell left to a five through the centre,
 * an open four two, a three is one move from a four, …), and each rule's
 * table spreads its two sides' kinds over the 2^20 codes (renju: black
 * needs an exact five, white five or more).
 *
 * Just over 600 lines: the pattern table and the board that reads it are
 * one data structure.
 */
#include "engine_position.h"

#include <pthread.h>
#include <string.h>

#include "renju.h"

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
	[PAT_F4] = 80,	[PAT_F5] = 300, /* the forbidden shapes: 0 */
};

/* Each direction's place in a combined number: PAT_COUNT to the dir. */
static int combined_place[4];

/* What a cell is worth on top of its lines, by its combined threat. */
static const int16_t threat_bonus[THREAT_COUNT] = {
	[THREAT_22] = 12,  [THREAT_33] = 140,  [THREAT_43] = 320,
	[THREAT_F4] = 500, [THREAT_F5] = 1500,
};

/*
 * What a line makes for one side under one rule, by the base-3 index of
 * its ten cells (line_index()): the classifier's results, built once.
 * Freestyle's serves both sides of freestyle and white in renju; renju's
 * is black's.
 */
static uint8_t rule_lines[RULE_COUNT][LINE_TERNARY];
static pthread_once_t lines_once[RULE_COUNT] = { PTHREAD_ONCE_INIT,
						 PTHREAD_ONCE_INIT,
						 PTHREAD_ONCE_INIT };

/* Per rule: code -> front pattern | back pattern << 4. */
static uint8_t freestyle_table[FREESTYLE_CODES];
static uint8_t standard_table[LINE_CODES];
static uint8_t renju_table[LINE_CODES];
static pthread_once_t pattern_once[RULE_COUNT] = { PTHREAD_ONCE_INIT,
						   PTHREAD_ONCE_INIT,
						   PTHREAD_ONCE_INIT };

/* The four patterns of a cell (combined) -> its threat and value. */
static uint8_t combined_threat[COMBINED_COUNT];
static int16_t combined_value[COMBINED_COUNT];

/* What black's four patterns say of a renju verdict. */
enum verdict_class {
	VERDICT_ALLOWED,   /* a five, or nothing forbidden */
	VERDICT_FORBIDDEN, /* an overline or two fours, and no five */
	VERDICT_JUDGE,	   /* two open threes: are they real? */
};

/* Renju, black's four patterns (combined) -> enum verdict_class. */
static uint8_t combined_verdict[COMBINED_COUNT];

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

/* The run of own stones through the centre of line. */
static int line_run(const uint8_t *line)
{
	int run = 1;
	int i;

	for (i = LINE_CENTRE - 1; i >= 0 && line[i] == LINE_OWN; i--)
		run++;
	for (i = LINE_CENTRE + 1; i < LINE_CELLS && line[i] == LINE_OWN; i++)
		run++;
	return run;
}

/*
 * Whether the run through the centre of line is a five under rule (exact
 * unless freestyle; RULE_RENJU classifies black's lines).
 */
static bool line_is_five(const uint8_t *line, enum rule rule)
{
	int run = line_run(line);

	/* A run reaching the line's ends is six or more long. */
	return rule == RULE_FREESTYLE ? run >= 5 : run == 5;
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
 * an exact five from an overline. For black in renju (rule RULE_RENJU)
 * an overline and two fours in the line (two five points that are not
 * the two ends of four in a row) are shapes of their own, which make
 * nothing further.
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
	if (rule == RULE_RENJU && line_run(line) > 5) {
		memo[index] = PAT_OVERLINE;
		return PAT_OVERLINE;
	}
	for (i = 1; i < LINE_CELLS - 1; i++) {
		if (i == LINE_CENTRE || line[i] != LINE_EMPTY)
			continue;
		line[i] = LINE_OWN;
		if (line_is_five(line, rule))
			fives++;
		line[i] = LINE_EMPTY;
	}
	if (fives >= 2 && rule == RULE_RENJU && line_run(line) != 4) {
		best = PAT_DOUBLE_FOUR;
	} else if (fives) {
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

/* Classifies every line for one side under rule into lines. */
static void lines_build(enum rule rule, uint8_t *lines)
{
	uint8_t line[LINE_CELLS];
	int index, i;

	memset(lines, 0xff, LINE_TERNARY);
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
		line_classify(line, rule, lines);
	}
}

static void lines_build_freestyle(void)
{
	lines_build(RULE_FREESTYLE, rule_lines[RULE_FREESTYLE]);
}

static void lines_build_standard(void)
{
	lines_build(RULE_STANDARD, rule_lines[RULE_STANDARD]);
}

static void lines_build_renju(void)
{
	lines_build(RULE_RENJU, rule_lines[RULE_RENJU]);
}

/*
 * The classified lines of one side under rule: the five it needs
 * (RULE_RENJU: black's, with its forbidden shapes).
 */
static const uint8_t *lines_of(enum rule rule)
{
	static void (*const build[RULE_COUNT])(void) = {
		[RULE_FREESTYLE] = lines_build_freestyle,
		[RULE_STANDARD] = lines_build_standard,
		[RULE_RENJU] = lines_build_renju,
	};

	pthread_once(&lines_once[rule], build[rule]);
	return rule_lines[rule];
}

/*
 * Spreads the classified lines of front's rule and back's over the codes
 * of table (codes entries, each read code >> shift: freestyle leaves out
 * the outermost cells, which read as empty).
 */
static void patterns_spread(uint8_t *table, uint32_t codes, unsigned shift,
			    const uint8_t *front_lines,
			    const uint8_t *back_lines)
{
	uint32_t code;

	for (code = 0; code < codes; code++) {
		unsigned full = code << shift;
		unsigned lo = full & 1023, hi = full >> 10;
		uint8_t front = front_lines[code_low[1][lo] + code_high[1][hi]];
		uint8_t back = back_lines[code_low[2][lo] + code_high[2][hi]];

		table[code] = (uint8_t)(front | back << 4);
	}
}

static void patterns_build_freestyle(void);
static void patterns_build_standard(void);
static void patterns_build_renju(void);

/* Per rule: its table, how a code reads it, and what builds it. */
static const struct rule_patterns {
	uint8_t *table;	     /* code >> shift -> both sides' patterns */
	uint32_t codes;	     /* entries */
	unsigned shift;	     /* 2: the outermost cells left out */
	void (*build)(void); /* fills table, run once */
} rule_patterns[RULE_COUNT] = {
	[RULE_FREESTYLE] = { freestyle_table, FREESTYLE_CODES, 2,
			     patterns_build_freestyle },
	[RULE_STANDARD] = { standard_table, LINE_CODES, 0,
			    patterns_build_standard },
	[RULE_RENJU] = { renju_table, LINE_CODES, 0, patterns_build_renju },
};

/* Fills rule's table from the lines of front's rule and back's. */
static void patterns_build(enum rule rule, enum rule front, enum rule back)
{
	const struct rule_patterns *p = &rule_patterns[rule];

	patterns_spread(p->table, p->codes, p->shift, lines_of(front),
			lines_of(back));
}

static void patterns_build_freestyle(void)
{
	patterns_build(RULE_FREESTYLE, RULE_FREESTYLE, RULE_FREESTYLE);
}

static void patterns_build_standard(void)
{
	patterns_build(RULE_STANDARD, RULE_STANDARD, RULE_STANDARD);
}

/* Renju: black needs an exact five, white five or more. */
static void patterns_build_renju(void)
{
	patterns_build(RULE_RENJU, RULE_RENJU, RULE_FREESTYLE);
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

/*
 * What black's four line patterns, counted in n, say of a renju verdict
 * (renju_judge_mutable()'s order: a five, an overline, two fours, two
 * threes).
 */
static enum verdict_class verdict_of(const int *n)
{
	if (n[PAT_F5])
		return VERDICT_ALLOWED;
	if (n[PAT_OVERLINE] || n[PAT_DOUBLE_FOUR] || n[PAT_F4] + n[PAT_B4] >= 2)
		return VERDICT_FORBIDDEN;
	return n[PAT_F3] >= 2 ? VERDICT_JUDGE : VERDICT_ALLOWED;
}

/* Builds the combined tables, the code halves and the Zobrist keys. */
static void shared_build(void)
{
	uint64_t state = 0x676f6d6f6b75ull; /* "gomoku" */
	int index, role, cell, dir;
	unsigned own;

	/* Fields 0-4 are cells -5..-1, fields 5-9 cells +1..+5. */
	for (own = 1; own <= 2; own++) {
		half_indices(0, own, code_low[own]);
		half_indices(5, own, code_high[own]);
	}

	for (dir = 0; dir < 4; dir++)
		combined_place[dir] =
			dir ? combined_place[dir - 1] * PAT_COUNT : 1;
	for (index = 0; index < COMBINED_COUNT; index++) {
		int n[PAT_COUNT] = { 0 };
		int rest = index, value = 0;
		enum threat threat;

		for (dir = 0; dir < 4; dir++) {
			n[rest % PAT_COUNT]++;
			value += pattern_worth[rest % PAT_COUNT];
			rest /= PAT_COUNT;
		}
		threat = threat_of(n);
		combined_threat[index] = (uint8_t)threat;
		combined_value[index] = (int16_t)(value + threat_bonus[threat]);
		combined_verdict[index] = (uint8_t)verdict_of(n);
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

/* role's threat and value at idx by its combined patterns (and renju). */
static inline void cell_worth(const struct position *pos, int idx, int role,
			      int *threat, int *value)
{
	int combined = pos->combined[role][idx];

	if (role == ROLE_FRONT && pos->forbidden[idx]) {
		*threat = THREAT_NONE;
		*value = 0;
		return;
	}
	*threat = combined_threat[combined];
	*value = combined_value[combined];
}

/* Sets role's threat and value at idx, which the totals do not hold. */
static void cell_set(struct position *pos, int idx, int role)
{
	int threat, value;

	cell_worth(pos, idx, role, &threat, &value);
	pos->threat[role][idx] = (uint8_t)threat;
	pos->value[role][idx] = (int16_t)value;
	pos->total[role] += value;
	pos->count[role][threat]++;
}

/* Brings role's threat and value at idx, and the totals, up to date. */
static inline void cell_refresh(struct position *pos, int idx, int role)
{
	int threat, value;
	int threat_before = pos->threat[role][idx];

	cell_worth(pos, idx, role, &threat, &value);
	pos->total[role] += value - pos->value[role][idx];
	pos->value[role][idx] = (int16_t)value;
	if (threat_before != threat) {
		pos->count[role][threat_before]--;
		pos->count[role][threat]++;
		pos->threat[role][idx] = (uint8_t)threat;
	}
}

/* Renju: whether black may not play the empty cell idx (exact). */
static inline bool cell_forbidden(struct position *pos, int idx)
{
	switch (combined_verdict[pos->combined[ROLE_FRONT][idx]]) {
	case VERDICT_FORBIDDEN:
		return true;
	case VERDICT_JUDGE:
		return renju_forbids(renju_judge_in_place(
			&pos->board, position_x(idx), position_y(idx)));
	default:
		return false;
	}
}

/*
 * Renju: judges the empty cell idx afresh for black. A change is noted on
 * the undo stack when record is set (not by position_judge_all()).
 */
static void cell_judge(struct position *pos, int idx, bool record)
{
	bool forbidden = cell_forbidden(pos, idx);

	if (forbidden == pos->forbidden[idx])
		return;
	pos->forbidden[idx] = forbidden;
	cell_refresh(pos, idx, ROLE_FRONT);
	if (record)
		pos->flips[pos->flip_count++] = (int16_t)idx;
}

/*
 * Recomputes the patterns, threats and values of the empty cell idx from
 * its codes and adds them to the totals.
 */
static void cell_add(struct position *pos, int idx)
{
	int front = 0, back = 0, dir;

	for (dir = 0; dir < 4; dir++) {
		uint8_t pat = position_lookup(pos, pos->code[idx][dir]);

		pos->pat[idx][dir] = pat;
		front += (pat & 15) * combined_place[dir];
		back += (pat >> 4) * combined_place[dir];
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
	pos->combined[role][idx] = (int16_t)(pos->combined[role][idx] +
					     (now - old) * combined_place[dir]);
	cell_refresh(pos, idx, role);
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

	const struct rule_patterns *p = &rule_patterns[rule];

	pthread_once(&shared_once, shared_build);
	pthread_once(&pattern_once[rule], p->build);

	memset(pos, 0, sizeof(*pos));
	pos->size = size;
	pos->rule = rule;
	pos->patterns = p->table;
	pos->pattern_shift = p->shift;
	pos->pattern_mask = p->codes - 1;
	board_init(&pos->board, size);
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
	/* A stone played; position_undo() restores the verdicts it noted. */
	if (pos->rule == RULE_RENJU && content != POS_EMPTY)
		cell_judge(pos, other, true);
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

	pos->flips_from[pos->stones - 1] = pos->flip_count;
	cell_subtract(pos, idx);
	if (pos->forbidden[idx]) {
		/* white on black's forbidden point */
		pos->forbidden[idx] = 0;
		pos->flips[pos->flip_count++] = (int16_t)idx;
	}
	pos->cell[idx] = (uint8_t)role;
	board_set(&pos->board, x, y, role);
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
	board_clear(&pos->board, position_x(idx), position_y(idx));
	lines_update(pos, idx, POS_EMPTY);
	/* Renju: the verdicts as they were, exactly (see the header). */
	while (pos->flip_count > pos->flips_from[pos->stones]) {
		int flipped = pos->flips[--pos->flip_count];

		pos->forbidden[flipped] ^= 1;
		if (flipped != idx)
			cell_refresh(pos, flipped, ROLE_FRONT);
	}
	cell_add(pos, idx);
	pos->min_x = box[0];
	pos->max_x = box[1];
	pos->min_y = box[2];
	pos->max_y = box[3];
}

void position_judge_all(struct position *pos)
{
	int x, y;

	if (pos->rule != RULE_RENJU)
		return;
	for (y = 0; y < pos->size; y++) {
		for (x = 0; x < pos->size; x++) {
			int idx = position_index(x, y);

			if (pos->cell[idx] == POS_EMPTY)
				cell_judge(pos, idx, false);
		}
	}
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
