/*
 * test_fischer.c - time controls read and written ("none", "300+5", the
 * limits, and what is refused), and the Fischer clocks of one game at
 * times the tests give: nothing runs before both sides moved once, the
 * increment after every move, the flag, the first-move deadline, and a
 * stop that holds the figures.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fischer.h"
#include "expect.h"

/* A clock reading of the tests: any monotonic time, far from 0. */
#define T0 5000000u
/* The time control of most tests, 60+2, and its first-move deadline. */
#define BASE_MS 60000
#define INC_MS 2000
#define FIRST_MS 30000

static const struct time_control tc_60_2 = { BASE_MS, INC_MS };

/* Checks that text reads as base and inc seconds. */
#define expect_parsed(text, base_s, inc_s)                    \
	do {                                                  \
		struct time_control tc_ = { 1, 1 };           \
		if (!time_control_parse(text, &tc_))          \
			fail_msg("\"%s\" was refused", text); \
		expect_int(tc_.base_ms, (base_s)*1000);       \
		expect_int(tc_.inc_ms, (inc_s)*1000);         \
	} while (0)

/* Checks that text is refused and the control left as it was. */
#define expect_refused(text)                                              \
	do {                                                              \
		struct time_control tc_ = { 123456, 7890 };               \
		if (time_control_parse(text, &tc_))                       \
			fail_msg("\"%s\" was accepted as %u+%u ms", text, \
				 tc_.base_ms, tc_.inc_ms);                \
		expect_int(tc_.base_ms, 123456);                          \
		expect_int(tc_.inc_ms, 7890);                             \
	} while (0)

/* The left of role at now, with to_move to move. */
static int64_t left(const struct fischer *clock, enum role role,
		    enum role to_move, uint64_t now_ms)
{
	return fischer_left(clock, role, to_move, now_ms);
}

static void parses_none_as_untimed(void **state)
{
	struct time_control tc = { 1000, 1000 };

	(void)state;
	assert_true(time_control_parse("none", &tc));
	expect_int(tc.base_ms, 0);
	expect_int(tc.inc_ms, 0);
	assert_false(time_control_timed(tc));
}

static void parses_base_plus_increment_in_seconds(void **state)
{
	(void)state;
	expect_parsed("300+5", 300, 5);
	expect_parsed("60+0", 60, 0);
	expect_parsed("180+2", 180, 2);
}

static void parses_the_limits_of_base_and_increment(void **state)
{
	(void)state;
	expect_parsed("10+0", TIME_CONTROL_BASE_MIN_S, 0);
	expect_parsed("10800+180", TIME_CONTROL_BASE_MAX_S,
		      TIME_CONTROL_INC_MAX_S);
	expect_parsed("10+180", 10, 180);
	expect_parsed("10800+0", 10800, 0);
}

static void refuses_values_beyond_the_limits(void **state)
{
	(void)state;
	expect_refused("9+0");
	expect_refused("0+0");
	expect_refused("0+5");
	expect_refused("10801+0");
	expect_refused("10+181");
	expect_refused("99999+0");
	expect_refused("300+99999");
	/* values that wrap a 32-bit count of seconds or milliseconds */
	expect_refused("4294967306+0");
	expect_refused("4294977+0");
	expect_refused("300+4294967297");
	expect_refused("99999999999999999999+0");
}

static void refuses_text_that_is_not_base_plus_increment(void **state)
{
	(void)state;
	expect_refused("");
	expect_refused("+");
	expect_refused("10+");
	expect_refused("+5");
	expect_refused("300");
	expect_refused("300+5+1");
	expect_refused("300++5");
	expect_refused("300-5");
	expect_refused("-300+5");
	expect_refused("+300+5");
	expect_refused("300+-5");
	expect_refused("300 +5");
	expect_refused(" 300+5");
	expect_refused("300+5 ");
	expect_refused("300+5x");
	expect_refused("300.0+5");
	expect_refused("3e2+5");
	expect_refused("0x12C+5");
	expect_refused("NONE");
	expect_refused("None");
	expect_refused("none ");
	expect_refused("nonex");
	expect_refused("abc");
}

static void refuses_no_text_at_all(void **state)
{
	struct time_control tc = { 42, 43 };

	(void)state;
	assert_false(time_control_parse(NULL, &tc));
	expect_int(tc.base_ms, 42);
	expect_int(tc.inc_ms, 43);
}

static void formats_none_and_base_plus_increment(void **state)
{
	char text[TIME_CONTROL_TEXT_MAX];

	(void)state;
	time_control_format((struct time_control){ 0, 0 }, text, sizeof(text));
	expect_str(text, "none");
	time_control_format(tc_60_2, text, sizeof(text));
	expect_str(text, "60+2");
	time_control_format((struct time_control){ 300000, 0 }, text,
			    sizeof(text));
	expect_str(text, "300+0");
	time_control_format((struct time_control){ 10800000, 180000 }, text,
			    sizeof(text));
	expect_str(text, "10800+180");
}

static void formatted_controls_read_back_as_themselves(void **state)
{
	static const char *const texts[] = {
		"none", "10+0", "10+180", "60+2", "300+5", "10800+180",
	};
	char text[TIME_CONTROL_TEXT_MAX];
	struct time_control tc, again;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		assert_true(time_control_parse(texts[i], &tc));
		time_control_format(tc, text, sizeof(text));
		expect_str(text, texts[i]);
		assert_true(time_control_parse(text, &again));
		assert_true(time_control_equal(tc, again));
	}
}

static void tells_timed_and_equal_controls(void **state)
{
	(void)state;
	assert_true(time_control_timed(tc_60_2));
	assert_false(time_control_timed((struct time_control){ 0, 0 }));
	assert_true(time_control_equal(tc_60_2,
				       (struct time_control){ 60000, 2000 }));
	assert_false(
		time_control_equal(tc_60_2, (struct time_control){ 60000, 0 }));
	assert_false(time_control_equal(tc_60_2,
					(struct time_control){ 61000, 2000 }));
}

static void start_gives_both_sides_the_base_and_runs_nothing(void **state)
{
	struct fischer clock;

	(void)state;
	fischer_start(&clock, tc_60_2, FIRST_MS, T0);
	expect_int(left(&clock, ROLE_FRONT, ROLE_FRONT, T0), BASE_MS);
	expect_int(left(&clock, ROLE_BACK, ROLE_FRONT, T0), BASE_MS);
	/* front thinks over its first move: its clock does not run */
	expect_int(left(&clock, ROLE_FRONT, ROLE_FRONT, T0 + 25000), BASE_MS);
	assert_false(clock.running);
	expect_int(fischer_flag_at(&clock, ROLE_FRONT), UINT64_MAX);
	expect_int(fischer_abort_at(&clock, 0), T0 + FIRST_MS);
}

static void the_first_two_moves_are_free_but_get_the_increment(void **state)
{
	struct fischer clock;

	(void)state;
	fischer_start(&clock, tc_60_2, FIRST_MS, T0);
	fischer_moved(&clock, ROLE_FRONT, 1, T0 + 20000);
	expect_int(left(&clock, ROLE_FRONT, ROLE_BACK, T0 + 20000),
		   BASE_MS + INC_MS);
	/* back's first move has its own deadline, from front's move */
	expect_int(fischer_abort_at(&clock, 1), T0 + 20000 + FIRST_MS);
	expect_int(left(&clock, ROLE_BACK, ROLE_BACK, T0 + 45000), BASE_MS);
	expect_int(fischer_flag_at(&clock, ROLE_BACK), UINT64_MAX);

	fischer_moved(&clock, ROLE_BACK, 2, T0 + 45000);
	expect_int(left(&clock, ROLE_BACK, ROLE_FRONT, T0 + 45000),
		   BASE_MS + INC_MS);
	expect_int(left(&clock, ROLE_FRONT, ROLE_FRONT, T0 + 45000),
		   BASE_MS + INC_MS);
	expect_int(fischer_abort_at(&clock, 2), UINT64_MAX);
	assert_true(clock.running);
}

static void from_the_second_move_on_the_side_to_move_runs(void **state)
{
	struct fischer clock;

	(void)state;
	fischer_start(&clock, tc_60_2, FIRST_MS, T0);
	fischer_moved(&clock, ROLE_FRONT, 1, T0 + 1000);
	fischer_moved(&clock, ROLE_BACK, 2, T0 + 2000);
	/* front to move since T0 + 2000 */
	expect_int(left(&clock, ROLE_FRONT, ROLE_FRONT, T0 + 9000),
		   BASE_MS + INC_MS - 7000);
	/* the side not to move stands still */
	expect_int(left(&clock, ROLE_BACK, ROLE_FRONT, T0 + 9000),
		   BASE_MS + INC_MS);
	expect_int(fischer_flag_at(&clock, ROLE_FRONT),
		   T0 + 2000 + BASE_MS + INC_MS);

	/* front moves after 7 s: charged 7 s, given 2 s */
	fischer_moved(&clock, ROLE_FRONT, 3, T0 + 9000);
	expect_int(left(&clock, ROLE_FRONT, ROLE_BACK, T0 + 9000),
		   BASE_MS + 2 * INC_MS - 7000);
	expect_int(left(&clock, ROLE_BACK, ROLE_BACK, T0 + 12000),
		   BASE_MS + INC_MS - 3000);
	expect_int(fischer_flag_at(&clock, ROLE_BACK),
		   T0 + 9000 + BASE_MS + INC_MS);
	expect_int(left(&clock, ROLE_FRONT, ROLE_BACK, T0 + 40000),
		   BASE_MS + 2 * INC_MS - 7000);
}

static void time_left_never_goes_below_zero(void **state)
{
	struct fischer clock;
	uint64_t flag;

	(void)state;
	fischer_start(&clock, tc_60_2, FIRST_MS, T0);
	fischer_moved(&clock, ROLE_FRONT, 1, T0);
	fischer_moved(&clock, ROLE_BACK, 2, T0);
	flag = fischer_flag_at(&clock, ROLE_FRONT);
	expect_int(flag, T0 + BASE_MS + INC_MS);
	expect_int(left(&clock, ROLE_FRONT, ROLE_FRONT, flag - 1), 1);
	expect_int(left(&clock, ROLE_FRONT, ROLE_FRONT, flag), 0);
	expect_int(left(&clock, ROLE_FRONT, ROLE_FRONT, flag + 3600000), 0);
}

static void an_increment_of_zero_only_charges(void **state)
{
	struct fischer clock;

	(void)state;
	fischer_start(&clock, (struct time_control){ 10000, 0 }, FIRST_MS, T0);
	fischer_moved(&clock, ROLE_FRONT, 1, T0 + 4000);
	fischer_moved(&clock, ROLE_BACK, 2, T0 + 8000);
	expect_int(left(&clock, ROLE_FRONT, ROLE_FRONT, T0 + 8000), 10000);
	fischer_moved(&clock, ROLE_FRONT, 3, T0 + 11000);
	expect_int(left(&clock, ROLE_FRONT, ROLE_BACK, T0 + 11000), 7000);
	expect_int(fischer_flag_at(&clock, ROLE_BACK), T0 + 11000 + 10000);
}

static void stop_charges_the_side_to_move_and_holds_the_figures(void **state)
{
	struct fischer clock;

	(void)state;
	fischer_start(&clock, tc_60_2, FIRST_MS, T0);
	fischer_moved(&clock, ROLE_FRONT, 1, T0);
	fischer_moved(&clock, ROLE_BACK, 2, T0 + 1000);
	fischer_stop(&clock, ROLE_FRONT, T0 + 11000);
	expect_int(left(&clock, ROLE_FRONT, ROLE_FRONT, T0 + 11000),
		   BASE_MS + INC_MS - 10000);
	/* an hour later the figures are the same */
	expect_int(left(&clock, ROLE_FRONT, ROLE_FRONT, T0 + 3600000),
		   BASE_MS + INC_MS - 10000);
	expect_int(left(&clock, ROLE_BACK, ROLE_FRONT, T0 + 3600000),
		   BASE_MS + INC_MS);
	expect_int(fischer_flag_at(&clock, ROLE_FRONT), UINT64_MAX);
	expect_int(fischer_flag_at(&clock, ROLE_BACK), UINT64_MAX);
}

static void stop_after_the_flag_holds_zero(void **state)
{
	struct fischer clock;
	uint64_t flag;

	(void)state;
	fischer_start(&clock, tc_60_2, FIRST_MS, T0);
	fischer_moved(&clock, ROLE_FRONT, 1, T0);
	fischer_moved(&clock, ROLE_BACK, 2, T0);
	fischer_moved(&clock, ROLE_FRONT, 3, T0 + 5000);
	flag = fischer_flag_at(&clock, ROLE_BACK);
	fischer_stop(&clock, ROLE_BACK, flag + 250);
	expect_int(left(&clock, ROLE_BACK, ROLE_BACK, flag + 10000), 0);
	expect_int(left(&clock, ROLE_FRONT, ROLE_BACK, flag + 10000),
		   BASE_MS + 2 * INC_MS - 5000);
}

static void stop_by_a_last_move_charges_nobody(void **state)
{
	struct fischer clock;

	(void)state;
	fischer_start(&clock, tc_60_2, FIRST_MS, T0);
	fischer_moved(&clock, ROLE_FRONT, 1, T0);
	fischer_moved(&clock, ROLE_BACK, 2, T0);
	fischer_moved(&clock, ROLE_FRONT, 3, T0 + 4000);
	/* the move ended the game: nobody is to move */
	fischer_stop(&clock, ROLE_NONE, T0 + 4000);
	expect_int(left(&clock, ROLE_FRONT, ROLE_BACK, T0 + 90000),
		   BASE_MS + 2 * INC_MS - 4000);
	expect_int(left(&clock, ROLE_BACK, ROLE_BACK, T0 + 90000),
		   BASE_MS + INC_MS);
}

static void stop_before_the_clocks_run_charges_nothing(void **state)
{
	struct fischer clock;

	(void)state;
	fischer_start(&clock, tc_60_2, FIRST_MS, T0);
	fischer_moved(&clock, ROLE_FRONT, 1, T0 + 1000);
	fischer_stop(&clock, ROLE_BACK, T0 + 29000);
	expect_int(left(&clock, ROLE_BACK, ROLE_BACK, T0 + 29000), BASE_MS);
	expect_int(left(&clock, ROLE_FRONT, ROLE_BACK, T0 + 29000),
		   BASE_MS + INC_MS);
}

static void restart_begins_the_turn_again_without_giving_time(void **state)
{
	struct fischer clock;

	(void)state;
	fischer_start(&clock, tc_60_2, FIRST_MS, T0);
	fischer_moved(&clock, ROLE_FRONT, 1, T0);
	fischer_moved(&clock, ROLE_BACK, 2, T0 + 1000);
	fischer_moved(&clock, ROLE_FRONT, 3, T0 + 6000);
	/* a takeback of front's third move at T0 + 8000: the clocks as
	 * they stand, front to move again from then */
	fischer_stop(&clock, ROLE_BACK, T0 + 8000);
	fischer_restart(&clock, 2, T0 + 8000);
	expect_int(left(&clock, ROLE_FRONT, ROLE_FRONT, T0 + 8000),
		   BASE_MS + 2 * INC_MS - 5000);
	expect_int(left(&clock, ROLE_BACK, ROLE_FRONT, T0 + 8000),
		   BASE_MS + INC_MS - 2000);
	expect_int(left(&clock, ROLE_FRONT, ROLE_FRONT, T0 + 9000),
		   BASE_MS + 2 * INC_MS - 6000);
	expect_int(fischer_flag_at(&clock, ROLE_FRONT),
		   T0 + 8000 + BASE_MS + 2 * INC_MS - 5000);
}

static void restart_below_two_moves_runs_the_first_move_deadline(void **state)
{
	struct fischer clock;

	(void)state;
	fischer_start(&clock, tc_60_2, FIRST_MS, T0);
	fischer_moved(&clock, ROLE_FRONT, 1, T0 + 1000);
	fischer_moved(&clock, ROLE_BACK, 2, T0 + 2000);
	/* both moves taken back at T0 + 50000 */
	fischer_stop(&clock, ROLE_FRONT, T0 + 50000);
	fischer_restart(&clock, 0, T0 + 50000);
	assert_false(clock.running);
	expect_int(fischer_flag_at(&clock, ROLE_FRONT), UINT64_MAX);
	expect_int(fischer_abort_at(&clock, 0), T0 + 50000 + FIRST_MS);
	/* what front spent before the takeback stays spent */
	expect_int(left(&clock, ROLE_FRONT, ROLE_FRONT, T0 + 70000),
		   BASE_MS + INC_MS - 48000);
}

static void an_untimed_clock_reads_zero_and_never_falls(void **state)
{
	struct fischer clock;

	(void)state;
	fischer_start(&clock, (struct time_control){ 0, 0 }, FIRST_MS, T0);
	expect_int(fischer_abort_at(&clock, 0), UINT64_MAX);
	fischer_moved(&clock, ROLE_FRONT, 1, T0 + 1000);
	expect_int(fischer_abort_at(&clock, 1), UINT64_MAX);
	fischer_moved(&clock, ROLE_BACK, 2, T0 + 2000);
	fischer_moved(&clock, ROLE_FRONT, 3, T0 + 3000);
	expect_int(left(&clock, ROLE_FRONT, ROLE_BACK, T0 + 4000), 0);
	expect_int(left(&clock, ROLE_BACK, ROLE_BACK, T0 + 4000), 0);
	expect_int(fischer_flag_at(&clock, ROLE_BACK), UINT64_MAX);
	fischer_restart(&clock, 3, T0 + 5000);
	expect_int(fischer_flag_at(&clock, ROLE_BACK), UINT64_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_none_as_untimed),
		cmocka_unit_test(parses_base_plus_increment_in_seconds),
		cmocka_unit_test(parses_the_limits_of_base_and_increment),
		cmocka_unit_test(refuses_values_beyond_the_limits),
		cmocka_unit_test(refuses_text_that_is_not_base_plus_increment),
		cmocka_unit_test(refuses_no_text_at_all),
		cmocka_unit_test(formats_none_and_base_plus_increment),
		cmocka_unit_test(formatted_controls_read_back_as_themselves),
		cmocka_unit_test(tells_timed_and_equal_controls),
		cmocka_unit_test(
			start_gives_both_sides_the_base_and_runs_nothing),
		cmocka_unit_test(
			the_first_two_moves_are_free_but_get_the_increment),
		cmocka_unit_test(from_the_second_move_on_the_side_to_move_runs),
		cmocka_unit_test(time_left_never_goes_below_zero),
		cmocka_unit_test(an_increment_of_zero_only_charges),
		cmocka_unit_test(
			stop_charges_the_side_to_move_and_holds_the_figures),
		cmocka_unit_test(stop_after_the_flag_holds_zero),
		cmocka_unit_test(stop_by_a_last_move_charges_nobody),
		cmocka_unit_test(stop_before_the_clocks_run_charges_nothing),
		cmocka_unit_test(
			restart_begins_the_turn_again_without_giving_time),
		cmocka_unit_test(
			restart_below_two_moves_runs_the_first_move_deadline),
		cmocka_unit_test(an_untimed_clock_reads_zero_and_never_falls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
