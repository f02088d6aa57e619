/*
 * engine_patterns.c - the engine's pattern tables (see engine_patterns.h):
 * every line classified, spread over the codes per rule, and the combined
 * tables of a cell's four patterns.
 *
 * All 3^10 lines of own / empty / blocked cells around a centre stone are
 * classified once per kind of five, exact or five-or-more (recursively: a
 * four has one cell left to a five through the centre, an open four two,
 * a three is one move from a four, …; black's renju lines also mark an
 * overline and two fours in one line), and each rule's table spreads its
 * two sides' kinds over the 2^20 codes (renju: black needs an exact five,
 * white five or more).
 */
#include "engine_patterns.h"

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

uint8_t combined_threat[COMBINED_COUNT];
int16_t combined_value[COMBINED_COUNT];
int16_t combined_paired[RULE_COUNT][COMBINED_COUNT];
uint8_t combined_verdict[COMBINED_COUNT];
static pthread_once_t combined_once = PTHREAD_ONCE_INIT;

/* What a stone is worth on one line, by the pattern it makes. */
const int16_t pattern_worth[PAT_COUNT] = {
	[PAT_NONE] = 0, [PAT_B1] = 1,	[PAT_F1] = 1,  [PAT_B2] = 2,
	[PAT_F2] = 8,	[PAT_B3] = 18,	[PAT_F3] = 76, [PAT_B4] = 110,
	[PAT_F4] = 106, [PAT_F5] = 300, /* the forbidden shapes: 0 */
};

/* What a cell is worth on top of its lines, by its combined threat. */
const int16_t threat_bonus[THREAT_COUNT] = {
	[THREAT_22] = 1,   [THREAT_33] = 0,    [THREAT_43] = 651,
	[THREAT_F4] = 541, [THREAT_F5] = 1500,
};

/*
 * What a cell is worth on top of that, per rule, by the pair of its two
 * best line patterns (pattern_pair(): the better first). Fitted under
 * freestyle only; the other rules have none.
 */
const int16_t pair_bonus[RULE_COUNT][PAIR_COUNT] = {
	/* the better one, then the other from B2 up to it */
	[RULE_FREESTYLE] = {
		-9,			   /* B2: B2 */
		10, -1,			   /* F2: B2, F2 */
		-8, 24, 27,		   /* B3: B2, F2, B3 */
		-20, 41, 39, 14,	   /* F3: B2, F2, B3, F3 */
		3, 165, 99, 36, -20,	   /* B4: B2, F2, B3, F3, B4 */
		12, 56, 34, 14, 0, 0,	   /* F4: B2, F2, B3, F3, B4, F4 */
	},
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

/*
 * Per side (1, 2): the base-3 line index that the low and the high ten
 * bits of a code contribute, for spreading lines over codes.
 */
static uint32_t code_low[3][1024], code_high[3][1024];

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
	if (bits == ROLE_NONE)
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

int pattern_pair(const int *n)
{
	int best[2], found = 0, p;

	for (p = PAT_F4; p >= PAIR_FIRST && found < 2; p--) {
		if (n[p] >= 2 && found == 0) {
			best[0] = best[1] = p - PAIR_FIRST;
			found = 2;
		} else if (n[p]) {
			best[found++] = p - PAIR_FIRST;
		}
	}
	if (found < 2)
		return -1;
	return best[0] * (best[0] + 1) / 2 + best[1];
}

/* Builds the code halves and the combined tables. */
static void combined_build(void)
{
	int index, dir;
	unsigned own;

	/* Fields 0-4 are cells -5..-1, fields 5-9 cells +1..+5. */
	for (own = 1; own <= 2; own++) {
		half_indices(0, own, code_low[own]);
		half_indices(5, own, code_high[own]);
	}

	for (index = 0; index < COMBINED_COUNT; index++) {
		int n[PAT_COUNT] = { 0 };
		int rest = index, value = 0, pair, rule;
		enum threat threat;

		for (dir = 0; dir < 4; dir++) {
			n[rest % PAT_COUNT]++;
			value += pattern_worth[rest % PAT_COUNT];
			rest /= PAT_COUNT;
		}
		threat = threat_of(n);
		combined_threat[index] = (uint8_t)threat;
		value += threat_bonus[threat];
		combined_value[index] = (int16_t)value;
		pair = pattern_pair(n);
		for (rule = 0; rule < RULE_COUNT; rule++) {
			int bonus = pair < 0 ? 0 : pair_bonus[rule][pair];

			combined_paired[rule][index] = (int16_t)(value + bonus);
		}
		combined_verdict[index] = (uint8_t)verdict_of(n);
	}
}

struct pattern_table patterns_table(enum rule rule)
{
	const struct rule_patterns *p = &rule_patterns[rule];

	pthread_once(&combined_once, combined_build);
	pthread_once(&pattern_once[rule], p->build);
	return (struct pattern_table){ .patterns = p->table,
				       .shift = p->shift,
				       .mask = p->codes - 1,
				       .reach = p->shift ? 4 : 5 };
}
