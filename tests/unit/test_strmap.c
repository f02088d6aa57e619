/*
 * test_strmap.c - server/strmap.c: text keys to pointers, through growth,
 * replacement and removal.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "strmap.h"

#define MANY 5000

static int values[MANY];

static void finds_every_key_put_through_many_growths(void **state)
{
	struct strmap map;
	char key[32];

	(void)state;
	strmap_init(&map);
	for (int i = 0; i < MANY; i++) {
		snprintf(key, sizeof(key), "instance-%d/%d", i % 7, i);
		assert_int_equal(strmap_put(&map, key, &values[i]), 0);
	}
	assert_int_equal(map.count, MANY);
	for (int i = 0; i < MANY; i++) {
		snprintf(key, sizeof(key), "instance-%d/%d", i % 7, i);
		assert_ptr_equal(strmap_get(&map, key), &values[i]);
	}
	assert_null(strmap_get(&map, "instance-0/5001"));
	strmap_release(&map);
}

static void replaces_the_value_of_a_key_put_twice(void **state)
{
	struct strmap map;

	(void)state;
	strmap_init(&map);
	assert_int_equal(strmap_put(&map, "uid", &values[0]), 0);
	assert_int_equal(strmap_put(&map, "uid", &values[1]), 0);
	assert_int_equal(map.count, 1);
	assert_ptr_equal(strmap_get(&map, "uid"), &values[1]);
	strmap_release(&map);
}

static void removes_a_key_and_returns_its_value(void **state)
{
	struct strmap map;

	(void)state;
	strmap_init(&map);
	assert_null(strmap_del(&map, "nothing yet"));
	strmap_put(&map, "a", &values[0]);
	strmap_put(&map, "b", &values[1]);
	assert_ptr_equal(strmap_del(&map, "a"), &values[0]);
	assert_null(strmap_get(&map, "a"));
	assert_null(strmap_del(&map, "a"));
	assert_ptr_equal(strmap_get(&map, "b"), &values[1]);
	assert_int_equal(map.count, 1);
	strmap_release(&map);
}

static void count_entry(void *ctx, const char *key, void *value)
{
	int *seen = ctx;

	(void)key;
	seen[(int *)value - values]++;
}

static void visits_each_entry_once(void **state)
{
	struct strmap map;
	static int seen[MANY];
	char key[16];

	(void)state;
	strmap_init(&map);
	for (int i = 0; i < 300; i++) {
		snprintf(key, sizeof(key), "%d", i);
		strmap_put(&map, key, &values[i]);
	}
	strmap_each(&map, count_entry, seen);
	for (int i = 0; i < 300; i++)
		assert_int_equal(seen[i], 1);
	strmap_release(&map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_every_key_put_through_many_growths),
		cmocka_unit_test(replaces_the_value_of_a_key_put_twice),
		cmocka_unit_test(removes_a_key_and_returns_its_value),
		cmocka_unit_test(visits_each_entry_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
