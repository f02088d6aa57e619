/*
 * renju_random.c - random positions for the renju property tests (see
 * renju_random.h).
 */
#include "renju_random.h"

#include <stddef.h>

uint32_t random_next(struct prng *prng)
{
	prng->state ^= prng->state >> 12;
	prng->state ^= prng->state << 25;
	prng->state ^= prng->state >> 27;
	return (uint32_t)((prng->state * 0x2545f4914f6cdd1dull) >> 32);
}

int random_below(struct prng *prng, int below)
{
	return (int)(random_next(prng) % (uint32_t)below);
}

/*
 * A coordinate near the middle of a board of size: the sum of two
 * uniform steps, so that stones crowd the centre and shapes form.
 */
static int random_near_middle(struct prng *prng, int size)
{
	int reach = size / 4 + 1;
	int at = size / 2 + random_below(prng, 2 * reach + 1) - reach +
		 random_below(prng, 2 * reach + 1) - reach;

	return at < 0 ? 0 : at >= size ? size - 1 : at;
}

void renju_random_position(struct prng *prng, struct board *board, bool fives)
{
	static const int other_sizes[] = { 5, 6, 7, 9, 10, 12, 19, 25 };
	static const int densities[] = { 12, 30, 60, 110 };
	int size = BOARD_DEFAULT_SIZE;
	int stones;
	int tries;
	int placed = 0;

	if (random_below(prng, 10) == 0)
		size = other_sizes[random_below(
			prng, sizeof(other_sizes) / sizeof(other_sizes[0]))];
	board_init(board, size);
	stones = 1 + random_below(prng, densities[random_below(prng, 4)]);
	if (stones > size * size * 2 / 3)
		stones = size * size * 2 / 3;
	for (tries = 0; placed < stones && tries < stones * 20; tries++) {
		int x = random_near_middle(prng, size);
		int y = random_near_middle(prng, size);
		enum role role = random_below(prng, 100) < 57 ? ROLE_FRONT :
								ROLE_BACK;

		if (board_get(board, x, y) != ROLE_NONE)
			continue;
		board_set(board, x, y, role);
		if (role == ROLE_FRONT && !fives &&
		    rules_find_five(board, RULE_FREESTYLE, x, y, NULL)) {
			board_clear(board, x, y);
			continue;
		}
		placed++;
	}
}
