/*
 * test_redis_url.c - server/redis_url.c: the --redis URL, good and bad.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "redis_url.h"

static void parses_host_port_db_and_credentials(void **state)
{
	struct redis_url url;
	char why[128];

	(void)state;
	assert_int_equal(redis_url_parse("redis://127.0.0.1", &url, why,
					 sizeof(why)),
			 0);
	assert_string_equal(url.host, "127.0.0.1");
	assert_int_equal(url.port, 6379);
	assert_int_equal(url.db, 0);
	assert_string_equal(url.password, "");
	assert_int_equal(redis_url_parse("redis://:s3cr@t@redis.local:6380/2",
					 &url, why, sizeof(why)),
			 0);
	assert_string_equal(url.host, "redis.local");
	assert_int_equal(url.port, 6380);
	assert_int_equal(url.db, 2);
	assert_string_equal(url.user, "");
	assert_string_equal(url.password, "s3cr@t");
	assert_int_equal(redis_url_parse("redis://game:pw@[::1]:7000/", &url,
					 why, sizeof(why)),
			 0);
	assert_string_equal(url.host, "::1");
	assert_string_equal(url.user, "game");
	assert_int_equal(url.port, 7000);
}

static void refuses_what_is_not_a_redis_url(void **state)
{
	static const char *const bad[] = {
		"",
		"http://127.0.0.1",
		"redis://",
		"redis://:6379",
		"redis://host:0",
		"redis://host:65536",
		"redis://host:12ab",
		"redis://host/16",
		"redis://host/x",
		"redis://pw@host",
		"redis://[::1",
		"redis://[::1]x",
	};
	struct redis_url url;
	char why[128];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		if (redis_url_parse(bad[i], &url, why, sizeof(why)) != -1)
			fail_msg("accepted \"%s\"", bad[i]);
		if (!why[0])
			fail_msg("no reason for \"%s\"", bad[i]);
	}
}

static void never_repeats_the_password(void **state)
{
	struct redis_url url;
	char why[128];

	(void)state;
	assert_int_equal(redis_url_parse("redis://:hunter2@host:99999", &url,
					 why, sizeof(why)),
			 -1);
	assert_null(strstr(why, "hunter2"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_host_port_db_and_credentials),
		cmocka_unit_test(refuses_what_is_not_a_redis_url),
		cmocka_unit_test(never_repeats_the_password),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
