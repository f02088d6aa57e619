/*
 * engine_position.c - the engine's board: line patterns kept per empty
 * cell, updated along the four lines through each stone played or taken
 * back, and renju's verdicts for black kept with them.
 *
 * A cell's code in one direction packs the ten cells around it on that
 * line (five each way), two bits each: empty, front, back, wall. The
 * rule's pattern table (engine_patterns.c) maps a code to what a front
 * stone and what a back stone at the centre would make; the combined
 * tables give a cell's threat, value and renju verdict from its four
 * patterns.
 */
#include "engine_position.h"

#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "renju.h"

const int position_steps[4] = { 1, POS_STRIDE, POS_STRIDE + 1, POS_STRIDE - 1 };

/* Zobrist keys per role (index 1, 2) and grid cell. */
static uint64_t zobrist_keys[3][POS_CELLS];
static pthread_once_t zobrist_once = PTHREAD_ONCE_INIT;

/* splitmix64: the fixed stream the Zobrist keys come from. */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Draws the Zobrist keys. */
static void zobrist_build(void)
{
	uint64_t state = 0x676f6d6f6b75ull; /* "gomoku" */
	int role, cell;

	for (role = 0; role < 3; role++)
		for (cell = 0; cell < POS_CELLS; cell++)
			zobrist_keys[role][cell] = splitmix64(&state);
}

uint64_t position_zobrist(int idx, enum role role)
{
	return zobrist_keys[role][idx];
}

/* The net class of role's patterns at idx (renju's forbidden: none). */
static inline int cell_class(const struct position *pos, int idx, int role)
{
	const struct position_worth *worth = &pos->cells[idx].worth;

	if (role == ROLE_FRONT && worth->forbidden)
		return net_class[0];
	return net_class[worth->combined[role - 1]];
}

/* Adds (sign 1) or takes (sign -1) a cell of klass to role's net sums. */
static inline void net_apply(struct position *pos, int role, int klass,
			     int sign)
{
	struct net_sums *sums = pos->net[role - 1];
	const struct net_sums *cell = net_cell[klass];
	int view, lane;

	for (view = 0; view < NET_VIEWS; view++)
		for (lane = 0; lane < NET_LANES; lane++)
			sums[view].lane[lane] += sign * cell[view].lane[lane];
}

/* A cell of role's went from class was to class now: its net sums too. */
static inline void net_change(struct position *pos, int role, int was, int now)
{
	struct net_sums *sums = pos->net[role - 1];
	const struct net_sums *before = net_cell[was], *after = net_cell[now];
	int view, lane;

	if (was == now)
		return;
	for (view = 0; view < NET_VIEWS; view++)
		for (lane = 0; lane < NET_LANES; lane++)
			sums[view].lane[lane] += after[view].lane[lane] -
						 before[view].lane[lane];
}

/* Removes the empty cell idx from the totals. */
static void cell_subtract(struct position *pos, int idx)
{
	const struct position_worth *worth = &pos->cells[idx].worth;
	int role;

	for (role = 1; role <= 2; role++) {
		pos->total[role] -= worth->value[role - 1];
		pos->count[role][worth->threat[role - 1]]--;
		net_apply(pos, role, cell_class(pos, idx, role), -1);
	}
}

/* role's threat and value at idx by its combined patterns (and renju). */
static inline void cell_worth(const struct position *pos, int idx, int role,
			      int *threat, int *value)
{
	const struct position_worth *worth = &pos->cells[idx].worth;
	int combined = worth->combined[role - 1];

	if (role == ROLE_FRONT && worth->forbidden) {
		*threat = THREAT_NONE;
		*value = 0;
		return;
	}
	*threat = combined_threat[combined];
	*value = pos->values[combined];
}

/* Sets role's threat and value at idx, which the totals do not hold. */
static void cell_set(struct position *pos, int idx, int role)
{
	struct position_worth *worth = &pos->cells[idx].worth;
	int threat, value;

	cell_worth(pos, idx, role, &threat, &value);
	worth->threat[role - 1] = (uint8_t)threat;
	worth->value[role - 1] = (int16_t)value;
	pos->total[role] += value;
	pos->count[role][threat]++;
	net_apply(pos, role, cell_class(pos, idx, role), 1);
}

/* Brings role's threat and value at idx, and the totals, up to date. */
static inline void cell_refresh(struct position *pos, int idx, int role)
{
	struct position_worth *worth = &pos->cells[idx].worth;
	int threat, value;
	int threat_before = worth->threat[role - 1];

	cell_worth(pos, idx, role, &threat, &value);
	pos->total[role] += value - worth->value[role - 1];
	worth->value[role - 1] = (int16_t)value;
	if (threat_before != threat) {
		pos->count[role][threat_before]--;
		pos->count[role][threat]++;
		worth->threat[role - 1] = (uint8_t)threat;
	}
}

/* Renju: whether black may not play the empty cell idx (exact). */
static inline bool cell_forbidden(struct position *pos, int idx)
{
	switch (combined_verdict[pos->cells[idx].worth.combined[0]]) {
	case VERDICT_FORBIDDEN:
		return true;
	case VERDICT_JUDGE:
		return renju_forbids(renju_judge_in_place(
			&pos->board, position_x(idx), position_y(idx)));
	default:
		return false;
	}
}

/* Renju: judges the empty cell idx afresh for black. */
static void cell_judge(struct position *pos, int idx)
{
	bool forbidden = cell_forbidden(pos, idx);
	int was;

	if (forbidden == pos->cells[idx].worth.forbidden)
		return;
	was = cell_class(pos, idx, ROLE_FRONT);
	pos->cells[idx].worth.forbidden = forbidden;
	net_change(pos, ROLE_FRONT, was, cell_class(pos, idx, ROLE_FRONT));
	cell_refresh(pos, idx, ROLE_FRONT);
}

/* Pushes the empty cell idx as it is now on the undo stack. */
static inline void cell_save(struct position *pos, int idx)
{
	struct position_saved *saved = &pos->saves[pos->save_count++];

	saved->idx = (int16_t)idx;
	saved->worth = pos->cells[idx].worth;
}

/* Puts a saved cell back as it was. */
static inline void cell_restore(struct position *pos,
				const struct position_saved *saved)
{
	pos->cells[saved->idx].worth = saved->worth;
}

/*
 * Recomputes the patterns, threats and values of the empty cell idx from
 * its codes and adds them to the totals.
 */
static void cell_add(struct position *pos, int idx)
{
	struct position_cell *cell = &pos->cells[idx];
	int front = 0, back = 0, dir;

	for (dir = 0; dir < 4; dir++) {
		uint8_t pat = position_lookup(pos, cell->code[dir]);

		cell->worth.pat[dir] = pat;
		front += (pat & 15) * combined_place[dir];
		back += (pat >> 4) * combined_place[dir];
	}
	cell->worth.combined[0] = (int16_t)front;
	cell->worth.combined[1] = (int16_t)back;
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
	int16_t *combined = &pos->cells[idx].worth.combined[role - 1];
	int was = cell_class(pos, idx, role);

	*combined = (int16_t)(*combined + (now - old) * combined_place[dir]);
	net_change(pos, role, was, cell_class(pos, idx, role));
	cell_refresh(pos, idx, role);
}

/* The patterns of the empty cell idx in direction dir became pat. */
static inline void cell_update(struct position *pos, int idx, int dir,
			       uint8_t pat)
{
	uint8_t old = pos->cells[idx].worth.pat[dir];

	pos->cells[idx].worth.pat[dir] = pat;
	if ((pat & 15) != (old & 15))
		cell_update_role(pos, idx, ROLE_FRONT, dir, old & 15, pat & 15);
	if ((pat >> 4) != (old >> 4))
		cell_update_role(pos, idx, ROLE_BACK, dir, old >> 4, pat >> 4);
}

void position_init(struct position *pos, int size, enum rule rule, bool pairs)
{
	struct pattern_table table = patterns_table(rule);
	int x, y, dir, k;

	pthread_once(&zobrist_once, zobrist_build);
	net_tables(); /* after patterns_table(): it reads the combined tables */
	memset(pos, 0, offsetof(struct position, totals));
	pos->save_count = 0;
	pos->size = size;
	pos->rule = rule;
	pos->patterns = table.patterns;
	pos->values = pairs ? combined_paired[rule] : combined_value;
	pos->pattern_shift = table.shift;
	pos->pattern_mask = table.mask;
	pos->reach = table.reach;
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
				pos->cells[idx].code[dir] = code;
			}
			cell_add(pos, idx);
		}
	}
	pos->min_x = pos->min_y = size;
	pos->max_x = pos->max_y = -1;
}

/*
 * Writes role into the code field at shift of cell other in direction
 * dir, and refreshes its patterns when it is empty, saving it first when
 * they change (or renju may judge it anew).
 */
static inline void line_cell_play(struct position *pos, int other, int dir,
				  int shift, uint32_t role, bool renju)
{
	uint32_t *code = &pos->cells[other].code[dir];
	uint8_t pat;

	*code |= role << shift; /* the field was empty; a wall's goes unread */
	if (pos->cell[other] != POS_EMPTY)
		return;
	pat = position_lookup(pos, *code);
	if (renju) {
		cell_save(pos, other);
		if (pat != pos->cells[other].worth.pat[dir])
			cell_update(pos, other, dir, pat);
		cell_judge(pos, other);
	} else if (pat != pos->cells[other].worth.pat[dir]) {
		cell_save(pos, other);
		cell_update(pos, other, dir, pat);
	}
}

/*
 * Writes role as the cell at distance k along dir from the cells on both
 * sides of idx, k up to reach, and refreshes the empty ones.
 */
static inline void lines_play_to(struct position *pos, int idx, uint32_t role,
				 int reach, bool renju)
{
	int dir, k;

	for (dir = 0; dir < 4; dir++) {
		int step = position_steps[dir];

		for (k = 1; k <= reach; k++) {
			/* idx is at +k from the cell before, -k from the after. */
			line_cell_play(pos, idx - k * step, dir, 2 * (4 + k),
				       role, renju);
			line_cell_play(pos, idx + k * step, dir, 2 * (5 - k),
				       role, renju);
		}
	}
}

/* lines_play_to() as far as the rule's table reads. */
static void lines_play(struct position *pos, int idx, uint32_t role)
{
	if (pos->rule == RULE_RENJU)
		lines_play_to(pos, idx, role, 5, true);
	else if (pos->reach == 4)
		lines_play_to(pos, idx, role, 4, false);
	else
		lines_play_to(pos, idx, role, 5, false);
}

/* Empties idx's field in the codes of the cells on its four lines. */
static inline void lines_clear_to(struct position *pos, int idx, int reach)
{
	int dir, k;

	for (dir = 0; dir < 4; dir++) {
		int step = position_steps[dir];

		for (k = 1; k <= reach; k++) {
			pos->cells[idx - k * step].code[dir] &=
				~(3u << 2 * (4 + k));
			pos->cells[idx + k * step].code[dir] &=
				~(3u << 2 * (5 - k));
		}
	}
}

/* lines_clear_to() as far as lines_play() wrote. */
static void lines_clear(struct position *pos, int idx)
{
	if (pos->reach == 4)
		lines_clear_to(pos, idx, 4);
	else
		lines_clear_to(pos, idx, 5);
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

	pos->saves_from[pos->stones - 1] = pos->save_count;
	memcpy(pos->totals[pos->stones - 1].total, pos->total,
	       sizeof(pos->total));
	memcpy(pos->totals[pos->stones - 1].count, pos->count,
	       sizeof(pos->count));
	memcpy(pos->totals[pos->stones - 1].net, pos->net, sizeof(pos->net));
	cell_save(pos, idx);
	cell_subtract(pos, idx);
	/* white on black's forbidden point */
	pos->cells[idx].worth.forbidden = 0;
	pos->cell[idx] = (uint8_t)role;
	board_set(&pos->board, x, y, role);
	lines_play(pos, idx, (uint32_t)role);
	near_update(pos, idx, 1);
	pos->key ^= zobrist_keys[role][idx];
}

void position_undo(struct position *pos)
{
	int idx = pos->moves[--pos->stones];
	const int16_t *box = pos->boxes[pos->stones];
	enum role role = (enum role)pos->cell[idx];
	unsigned count;

	pos->key ^= zobrist_keys[role][idx];
	near_update(pos, idx, -1);
	pos->cell[idx] = POS_EMPTY;
	board_clear(&pos->board, position_x(idx), position_y(idx));
	lines_clear(pos, idx);
	/* the cells as they were, renju's verdicts too (see the header) */
	count = pos->save_count; /* a local: the stores below may alias it */
	while (count > pos->saves_from[pos->stones])
		cell_restore(pos, &pos->saves[--count]);
	pos->save_count = (uint16_t)count;
	memcpy(pos->total, pos->totals[pos->stones].total, sizeof(pos->total));
	memcpy(pos->count, pos->totals[pos->stones].count, sizeof(pos->count));
	memcpy(pos->net, pos->totals[pos->stones].net, sizeof(pos->net));
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
				cell_judge(pos, idx);
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
	int x0, x1, y0, y1, x, y, threat;
	int found = 0, left = 0;

	/* the totals say how many there are: stop at the last */
	for (threat = (int)min; threat < THREAT_COUNT; threat++)
		left += pos->count[role][threat];
	if (left > max)
		left = max;
	if (!pos->stones || !left)
		return 0;
	box_grown(pos, 2, &x0, &x1, &y0, &y1);
	for (y = y0; y <= y1; y++) {
		for (x = x0; x <= x1; x++) {
			int idx = position_index(x, y);

			if (pos->cell[idx] == POS_EMPTY && pos->near[idx] &&
			    position_threat(pos, idx, role) >= (int)min) {
				cells[found++] = (int16_t)idx;
				if (found == left)
					return found;
			}
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
			    position_threat(pos, idx, role) == THREAT_F5)
				return idx;
		}
	}
	return -1;
}
