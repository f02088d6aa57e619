/*
 * test_identity.c - the uid and name checks of the upgrade's query, and
 * room ids made from random bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "identity.h"
#include "expect.h"

static void check_uid_accepts_lower_case(void **state)
{
	static const char uid[] = "123e4567-e89b-12d3-a456-426614174000";
	char out[UID_LEN + 1];

	(void)state;
	assert_true(identity_check_uid(uid, out));
	expect_str(out, uid);
}

static void check_uid_accepts_upper_and_mixed_case_and_lowers_it(void **state)
{
	char out[UID_LEN + 1];

	(void)state;
	assert_true(identity_check_uid("ABCDEF01-2345-6789-ABCD-EF0123456789",
				       out));
	expect_str(out, "abcdef01-2345-6789-abcd-ef0123456789");
	assert_true(identity_check_uid("aBcDeF01-2345-6789-AbCd-eF0123456789",
				       out));
	expect_str(out, "abcdef01-2345-6789-abcd-ef0123456789");
}

/* Checks that uid is refused and out is left as it was. */
#define expect_bad_uid(uid)                                                \
	do {                                                               \
		char out_[UID_LEN + 1];                                    \
		memset(out_, 'X', sizeof(out_));                           \
		if (identity_check_uid(uid, out_))                         \
			fail_msg("uid \"%s\" was accepted", (char *)uid);  \
		for (size_t i_ = 0; i_ < sizeof(out_); i_++)               \
			if (out_[i_] != 'X')                               \
				fail_msg("uid \"%s\" was refused but out " \
					 "was written",                    \
					 (char *)uid);                     \
	} while (0)

static void check_uid_refuses_the_wrong_length(void **state)
{
	(void)state;
	expect_bad_uid("");
	expect_bad_uid("123e4567-e89b-12d3-a456-42661417400");
	expect_bad_uid("123e4567-e89b-12d3-a456-4266141740000");
	expect_bad_uid("123e4567-e89b-12d3-a456-426614174000 ");
	expect_bad_uid(" 123e4567-e89b-12d3-a456-426614174000");
	expect_bad_uid("123e4567e89b12d3a456426614174000");
	expect_bad_uid("{123e4567-e89b-12d3-a456-426614174000}");
	assert_false(identity_check_uid(NULL, (char[UID_LEN + 1]){ 0 }));
}

static void check_uid_refuses_a_character_that_is_not_hex(void **state)
{
	static const char good[] = "123e4567-e89b-12d3-a456-426614174000";
	static const char bad_chars[] = "gGzZ-_ .\x80";
	char uid[UID_LEN + 1];
	size_t c;
	int i;

	(void)state;
	for (i = 0; i < UID_LEN; i++) {
		if (good[i] == '-')
			continue;
		for (c = 0; c < sizeof(bad_chars) - 1; c++) {
			memcpy(uid, good, sizeof(uid));
			uid[i] = bad_chars[c];
			expect_bad_uid(uid);
		}
	}
}

static void check_uid_refuses_dashes_in_the_wrong_places(void **state)
{
	(void)state;
	expect_bad_uid("123e456-7e89b-12d3-a456-426614174000");
	expect_bad_uid("123e4567-e89-b12d3-a456-426614174000");
	expect_bad_uid("123e4567-e89b-12d3a-456-426614174000");
	expect_bad_uid("123e4567-e89b-12d3-a4564-26614174000");
	expect_bad_uid("123e4567xe89b-12d3-a456-426614174000");
	expect_bad_uid("123e4567-e89b-12d3-a456_426614174000");
	expect_bad_uid("------------------------------------");
}

static void format_uuid_sets_the_version_and_variant_bits(void **state)
{
	uint8_t zeros[16] = { 0 };
	uint8_t ones[16];
	static const uint8_t bytes[16] = {
		0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3,
		0xf4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00,
	};
	char out[UID_LEN + 1];
	char checked[UID_LEN + 1];

	(void)state;
	memset(ones, 0xff, sizeof(ones));
	identity_format_uuid(zeros, out);
	expect_str(out, "00000000-0000-4000-8000-000000000000");
	identity_format_uuid(ones, out);
	expect_str(out, "ffffffff-ffff-4fff-bfff-ffffffffffff");
	identity_format_uuid(bytes, out);
	expect_str(out, "123e4567-e89b-42d3-b456-426614174000");
	assert_true(identity_check_uid(out, checked));
	expect_str(checked, out);
}

static void room_id_puts_the_order_first_and_sets_version_8(void **state)
{
	uint8_t zeros[16] = { 0 };
	uint8_t ones[16];
	char out[UID_LEN + 1];
	char later[UID_LEN + 1];
	char checked[UID_LEN + 1];

	(void)state;
	memset(ones, 0xff, sizeof(ones));
	identity_format_room_id(0, ones, out);
	expect_str(out, "00000000-0000-8fff-bfff-ffffffffffff");
	identity_format_room_id(0x0123456789abULL, zeros, out);
	expect_str(out, "01234567-89ab-8000-8000-000000000000");
	/* only the low 48 bits of the order count */
	identity_format_room_id(0xffff0123456789abULL, zeros, later);
	expect_str(later, out);
	/* a larger order sorts later, whatever the random bytes */
	identity_format_room_id(0x0123456789acULL, zeros, later);
	identity_format_room_id(0x0123456789abULL, ones, out);
	assert_true(strcmp(out, later) < 0);
	assert_true(identity_check_uid(out, checked));
	expect_str(checked, out);
}

/* Checks that name is accepted as want. */
#define expect_name(name, want)                                    \
	do {                                                       \
		char out_[NAME_MAX_BYTES + 1];                     \
		if (!identity_check_name(name, out_))              \
			fail_msg("name \"%s\" was refused", name); \
		expect_str(out_, want);                            \
	} while (0)

/* Checks that name is refused. */
#define expect_bad_name(name)                                                \
	do {                                                                 \
		char out_[NAME_MAX_BYTES + 1];                               \
		if (identity_check_name(name, out_))                         \
			fail_msg("name \"%s\" was accepted as \"%s\"", name, \
				 out_);                                      \
	} while (0)

static void check_name_accepts_a_plain_name(void **state)
{
	(void)state;
	expect_name("alice", "alice");
	expect_name("a", "a");
	expect_name("Mr. O'Neil & co <3", "Mr. O'Neil & co <3");
}

static void check_name_trims_leading_and_trailing_spaces(void **state)
{
	(void)state;
	expect_name("  bob  ", "bob");
	expect_name(" a  b ", "a  b");
	expect_name("carol     ", "carol");
}

static void check_name_refuses_an_empty_or_blank_name(void **state)
{
	(void)state;
	expect_bad_name("");
	expect_bad_name(" ");
	expect_bad_name("      ");
	assert_false(
		identity_check_name(NULL, (char[NAME_MAX_BYTES + 1]){ 0 }));
}

static void check_name_accepts_20_characters_and_refuses_21(void **state)
{
	(void)state;
	expect_name("abcdefghijklmnopqrst", "abcdefghijklmnopqrst");
	expect_bad_name("abcdefghijklmnopqrstu");
	expect_name("  abcdefghijklmnopqrst  ", "abcdefghijklmnopqrst");
}

static void check_name_counts_chinese_characters_not_bytes(void **state)
{
	/* 20 and 21 times U+4E2D (3 bytes each). */
	char twenty[20 * 3 + 1] = "";
	char twenty_one[21 * 3 + 1] = "";
	int i;

	(void)state;
	for (i = 0; i < 20; i++)
		strcat(twenty, "\xe4\xb8\xad");
	strcpy(twenty_one, twenty);
	strcat(twenty_one, "\xe4\xb8\xad");
	expect_name(twenty, twenty);
	expect_bad_name(twenty_one);
	expect_name("\xe5\xbc\xa0\xe4\xb8\x89 Zhang",
		    "\xe5\xbc\xa0\xe4\xb8\x89 Zhang");
}

static void check_name_fits_20_four_byte_characters(void **state)
{
	char twenty[NAME_MAX_BYTES + 1] = "";
	char twenty_one[NAME_MAX_BYTES + 5] = "";
	int i;

	(void)state;
	/* U+1F600, the largest a name can be in bytes. */
	for (i = 0; i < 20; i++)
		strcat(twenty, "\xf0\x9f\x98\x80");
	expect_int(strlen(twenty), NAME_MAX_BYTES);
	expect_name(twenty, twenty);
	strcpy(twenty_one, twenty);
	strcat(twenty_one, "\xf0\x9f\x98\x80");
	expect_bad_name(twenty_one);
}

static void check_name_refuses_control_characters(void **state)
{
	(void)state;
	expect_bad_name("tab\there");
	expect_bad_name("new\nline");
	expect_bad_name("\rbob");
	expect_bad_name("bob\x1f");
	expect_bad_name("bob\x1b[31m");
	expect_bad_name("del\x7f");
	expect_bad_name("c1 \xc2\x80");
	expect_bad_name("c1 \xc2\x85");
	expect_bad_name("c1 \xc2\x9f");
	expect_name("nbsp\xc2\xa0ok", "nbsp\xc2\xa0ok");
}

static void check_name_refuses_invalid_utf8(void **state)
{
	(void)state;
	expect_bad_name("\x80");
	expect_bad_name("bob\xbf");
	expect_bad_name("\xe4\xb8");
	expect_bad_name("\xe4\xb8 x");
	expect_bad_name("\xc0\xaf");
	expect_bad_name("\xc1\xbf");
	expect_bad_name("\xe0\x80\xaf");
	expect_bad_name("\xf0\x80\x80\xaf");
	expect_bad_name("\xed\xa0\x80");
	expect_bad_name("\xed\xbf\xbf");
	expect_bad_name("\xf4\x90\x80\x80");
	expect_bad_name("\xf5\x80\x80\x80");
	expect_bad_name("\xf8\x88\x80\x80\x80");
	expect_bad_name("\xfe");
	expect_bad_name("\xff");
	expect_name("\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf");
	expect_name("\xed\x9f\xbf", "\xed\x9f\xbf");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(check_uid_accepts_lower_case),
		cmocka_unit_test(
			check_uid_accepts_upper_and_mixed_case_and_lowers_it),
		cmocka_unit_test(check_uid_refuses_the_wrong_length),
		cmocka_unit_test(check_uid_refuses_a_character_that_is_not_hex),
		cmocka_unit_test(check_uid_refuses_dashes_in_the_wrong_places),
		cmocka_unit_test(format_uuid_sets_the_version_and_variant_bits),
		cmocka_unit_test(room_id_puts_the_order_first_and_sets_version_8),
		cmocka_unit_test(check_name_accepts_a_plain_name),
		cmocka_unit_test(check_name_trims_leading_and_trailing_spaces),
		cmocka_unit_test(check_name_refuses_an_empty_or_blank_name),
		cmocka_unit_test(
			check_name_accepts_20_characters_and_refuses_21),
		cmocka_unit_test(
			check_name_counts_chinese_characters_not_bytes),
		cmocka_unit_test(check_name_fits_20_four_byte_characters),
		cmocka_unit_test(check_name_refuses_control_characters),
		cmocka_unit_test(check_name_refuses_invalid_utf8),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
