/*
 * test_frame_check.c - the second reading of a client's bytes
 * (server/frame_check.c): where an HTTP request ends, and the mask bit of
 * every frame header, however the bytes are cut into reads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "expect.h"
#include "frame_check.h"

#define REQUEST                                                     \
	"GET /?uid=x HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\n" \
	"Connection: Upgrade\r\n\r\n"

/* A client frame: FIN, opcode, the length in its smallest form, mask. */
static size_t frame(unsigned char *out, int opcode, size_t len, bool masked)
{
	size_t at = 2;

	out[0] = (unsigned char)(0x80 | opcode);
	if (len < 126) {
		out[1] = (unsigned char)len;
	} else if (len < 65536) {
		out[1] = 126;
		out[2] = (unsigned char)(len >> 8);
		out[3] = (unsigned char)len;
		at = 4;
	} else {
		out[1] = 127;
		for (int i = 0; i < 8; i++)
			out[2 + i] =
				(unsigned char)((uint64_t)len >> (56 - 8 * i));
		at = 10;
	}
	if (masked) {
		out[1] |= 0x80;
		memcpy(out + at, "\x01\x02\x03\x04", 4);
		at += 4;
	}
	memset(out + at, 0x81, len); /* payload bytes that look like headers */
	return at + len;
}

/* A fresh scan that was upgraded, fed bytes step bytes at a time. */
static struct frame_scan scanned(const unsigned char *bytes, size_t len,
				 size_t step)
{
	struct frame_scan scan = { 0 };

	frame_scan_feed(&scan, (const unsigned char *)REQUEST,
			sizeof(REQUEST) - 1);
	if (!frame_scan_upgraded(&scan))
		fail_msg(
			"a request that ends at its blank line has nothing after it");
	for (size_t at = 0; at < len; at += step)
		frame_scan_feed(&scan, bytes + at,
				len - at < step ? len - at : step);
	return scan;
}

static bool unmasked_after(const unsigned char *bytes, size_t len, size_t step)
{
	return scanned(bytes, len, step).unmasked;
}

static void masked_frames_of_every_length_form_pass_in_any_cut(void **state)
{
	static unsigned char stream[3 * (14 + 70000)];
	size_t len = 0;

	(void)state;
	len += frame(stream + len, 1, 15, true);
	len += frame(stream + len, 1, 300, true);
	len += frame(stream + len, 2, 70000, true);
	len += frame(stream + len, 9, 0, true);
	for (size_t step = 1; step <= 17; step++)
		expect_int(unmasked_after(stream, len, step), false);
	expect_int(unmasked_after(stream, len, len), false);
}

static void an_unmasked_frame_after_masked_ones_is_seen_in_any_cut(void **state)
{
	static unsigned char stream[3 * (14 + 70000)];
	size_t len = 0;

	(void)state;
	len += frame(stream + len, 1, 300, true);
	len += frame(stream + len, 2, 70000, true);
	len += frame(stream + len, 10, 1, false); /* an unmasked pong */
	for (size_t step = 1; step <= 17; step++)
		expect_int(unmasked_after(stream, len, step), true);
}

static void an_unmasked_frame_of_each_length_form_is_seen(void **state)
{
	static unsigned char stream[14 + 70000];
	static const size_t lengths[] = { 0, 5, 125, 126, 65535, 65536 };

	(void)state;
	for (size_t i = 0; i < sizeof(lengths) / sizeof(*lengths); i++) {
		size_t len = frame(stream, 1, lengths[i], false);

		if (!unmasked_after(stream, len, len))
			fail_msg("an unmasked frame of %zu bytes was not seen",
				 lengths[i]);
	}
}

static bool pinged_after(const unsigned char *bytes, size_t len, size_t step)
{
	return scanned(bytes, len, step).pinged;
}

static void a_ping_is_seen_in_any_cut_and_payload_bytes_are_not(void **state)
{
	static unsigned char stream[3 * (14 + 300)];
	size_t len = 0, with_ping;

	(void)state;
	/* a text frame whose payload bytes look like ping headers, a pong */
	len += frame(stream + len, 1, 300, true);
	memset(stream + 8, 0x89, 300); /* after 4 header and 4 mask bytes */
	len += frame(stream + len, 10, 9, true);
	for (size_t step = 1; step <= 17; step++)
		expect_int(pinged_after(stream, len, step), false);
	with_ping = len + frame(stream + len, 9, 4, true);
	for (size_t step = 1; step <= 17; step++)
		expect_int(pinged_after(stream, with_ping, step), true);
}

static void bytes_after_the_request_before_the_upgrade_are_refused(void **state)
{
	struct frame_scan scan = { 0 };
	unsigned char early[32];
	size_t len = frame(early, 1, 4, true);

	(void)state;
	frame_scan_feed(&scan, (const unsigned char *)REQUEST,
			sizeof(REQUEST) - 1);
	frame_scan_feed(&scan, early, len);
	expect_int(frame_scan_upgraded(&scan), false);
}

static void
a_request_cut_anywhere_or_ended_by_bare_lf_ends_at_its_blank_line(void **state)
{
	static const char *const requests[] = {
		REQUEST,
		"GET / HTTP/1.1\nHost: h\nUpgrade: websocket\n\n",
		"GET / HTTP/1.1\r\nHost: h\r\n\n",
		"GET /a HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(requests) / sizeof(*requests); i++) {
		size_t len = strlen(requests[i]);

		for (size_t step = 1; step <= len; step++) {
			struct frame_scan scan = { 0 };

			for (size_t at = 0; at < len; at += step)
				frame_scan_feed(
					&scan,
					(const unsigned char *)requests[i] + at,
					len - at < step ? len - at : step);
			if (!frame_scan_upgraded(&scan))
				fail_msg("request %zu fed %zu bytes at a time "
					 "was not seen to end",
					 i, step);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			masked_frames_of_every_length_form_pass_in_any_cut),
		cmocka_unit_test(
			an_unmasked_frame_after_masked_ones_is_seen_in_any_cut),
		cmocka_unit_test(an_unmasked_frame_of_each_length_form_is_seen),
		cmocka_unit_test(
			a_ping_is_seen_in_any_cut_and_payload_bytes_are_not),
		cmocka_unit_test(
			bytes_after_the_request_before_the_upgrade_are_refused),
		cmocka_unit_test(
			a_request_cut_anywhere_or_ended_by_bare_lf_ends_at_its_blank_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
