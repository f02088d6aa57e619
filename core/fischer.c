/*
 * fischer.c - time controls read and written, and Fischer clocks kept by
 * arithmetic on the times passed in.
 */
#include "fischer.h"

#include <stdio.h>
#include <string.h>

/* Whole seconds of at most 5 digits from *text, which it moves past. */
static bool time_control_seconds(const char **text, uint32_t *seconds)
{
	const char *at = *text;
	uint32_t value = 0;
	int digits = 0;

	while (*at >= '0' && *at <= '9' && digits < 6) {
		value = value * 10 + (uint32_t)(*at++ - '0');
		digits++;
	}
	if (!digits || digits > 5)
		return false;
	*text = at;
	*seconds = value;
	return true;
}

bool time_control_parse(const char *text, struct time_control *tc)
{
	uint32_t base, inc;

	if (!text)
		return false;
	if (!strcmp(text, "none")) {
		*tc = (struct time_control){ 0 };
		return true;
	}
	if (!time_control_seconds(&text, &base) || *text++ != '+' ||
	    !time_control_seconds(&text, &inc) || *text ||
	    base < TIME_CONTROL_BASE_MIN_S || base > TIME_CONTROL_BASE_MAX_S ||
	    inc > TIME_CONTROL_INC_MAX_S)
		return false;
	tc->base_ms = base * 1000;
	tc->inc_ms = inc * 1000;
	return true;
}

void time_control_format(struct time_control tc, char *buf, size_t size)
{
	if (!time_control_timed(tc))
		snprintf(buf, size, "none");
	else
		snprintf(buf, size, "%u+%u", (unsigned int)(tc.base_ms / 1000),
			 (unsigned int)(tc.inc_ms / 1000));
}

void fischer_start(struct fischer *clock, struct time_control tc,
		   uint32_t first_move_ms, uint64_t now_ms)
{
	memset(clock, 0, sizeof(*clock));
	clock->tc = tc;
	clock->first_move_ms = first_move_ms;
	clock->left_ms[ROLE_FRONT] = tc.base_ms;
	clock->left_ms[ROLE_BACK] = tc.base_ms;
	clock->turn_ms = now_ms;
}

/* The time spent in the current turn by now_ms (0 before it began). */
static int64_t fischer_elapsed(const struct fischer *clock, uint64_t now_ms)
{
	return now_ms > clock->turn_ms ? (int64_t)(now_ms - clock->turn_ms) :
					 0;
}

int64_t fischer_left(const struct fischer *clock, enum role role,
		     enum role to_move, uint64_t now_ms)
{
	int64_t left;

	if (!time_control_timed(clock->tc) ||
	    (role != ROLE_FRONT && role != ROLE_BACK))
		return 0;
	left = clock->left_ms[role];
	if (clock->running && role == to_move)
		left -= fischer_elapsed(clock, now_ms);
	return left > 0 ? left : 0;
}

void fischer_moved(struct fischer *clock, enum role mover, int moves_played,
		   uint64_t now_ms)
{
	if (!time_control_timed(clock->tc) ||
	    (mover != ROLE_FRONT && mover != ROLE_BACK))
		return;
	clock->left_ms[mover] =
		fischer_left(clock, mover, mover, now_ms) + clock->tc.inc_ms;
	clock->turn_ms = now_ms;
	clock->running = moves_played >= 2;
}

void fischer_stop(struct fischer *clock, enum role to_move, uint64_t now_ms)
{
	if (!time_control_timed(clock->tc))
		return;
	if (to_move == ROLE_FRONT || to_move == ROLE_BACK)
		clock->left_ms[to_move] =
			fischer_left(clock, to_move, to_move, now_ms);
	clock->turn_ms = now_ms;
	clock->running = false;
}

void fischer_restart(struct fischer *clock, int moves_played,
		     uint64_t now_ms)
{
	clock->turn_ms = now_ms;
	clock->running = time_control_timed(clock->tc) && moves_played >= 2;
}

uint64_t fischer_flag_at(const struct fischer *clock, enum role to_move)
{
	if (!clock->running || (to_move != ROLE_FRONT && to_move != ROLE_BACK))
		return UINT64_MAX;
	return clock->turn_ms + (uint64_t)(clock->left_ms[to_move] > 0 ?
						   clock->left_ms[to_move] :
						   0);
}

uint64_t fischer_abort_at(const struct fischer *clock, int moves_played)
{
	if (!time_control_timed(clock->tc) || moves_played >= 2)
		return UINT64_MAX;
	return clock->turn_ms + clock->first_move_ms;
}
