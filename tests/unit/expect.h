/*
 * expect.h - cmocka checks that say what was expected and what came, in
 * decimal and by name, for the unit tests of core/.
 *
 * Include after <cmocka.h>. Each check is a macro so that a failure reports
 * the line of the test that made it.
 */
#ifndef GOMOKU_TEST_EXPECT_H
#define GOMOKU_TEST_EXPECT_H

#include <string.h>

/* Fails unless the integer expression actual equals expected. */
#define expect_int(actual, expected)                                     \
	do {                                                             \
		long long actual_ = (long long)(actual);                 \
		long long expected_ = (long long)(expected);             \
		if (actual_ != expected_)                                \
			fail_msg("%s: expected %lld, got %lld", #actual, \
				 expected_, actual_);                    \
	} while (0)

/*
 * Fails unless actual equals expected, naming both with name_of (a
 * function from the enum to a string).
 */
#define expect_enum(actual, expected, name_of)                          \
	do {                                                            \
		int actual_ = (int)(actual);                            \
		int expected_ = (int)(expected);                        \
		if (actual_ != expected_)                               \
			fail_msg("%s: expected %s, got %s", #actual,    \
				 name_of(expected_), name_of(actual_)); \
	} while (0)

/* Fails unless the string actual equals expected (NULL counts as wrong). */
#define expect_str(actual, expected)                                         \
	do {                                                                 \
		const char *actual_ = (actual);                              \
		const char *expected_ = (expected);                          \
		if (!actual_ || strcmp(actual_, expected_) != 0)             \
			fail_msg("%s: expected \"%s\", got %s%s%s", #actual, \
				 expected_, actual_ ? "\"" : "",             \
				 actual_ ? actual_ : "NULL",                 \
				 actual_ ? "\"" : "");                       \
	} while (0)

#endif
