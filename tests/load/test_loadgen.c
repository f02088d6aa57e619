/*
 * test_loadgen.c - the load generator's pure parts: the message scanner,
 * the latency histogram and the WebSocket framing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "histogram.h"
#include "message.h"
#include "wsframe.h"

static int scan(struct message *msg, const char *text)
{
	return message_scan(msg, text, strlen(text));
}

static void compact_board_should_give_move_and_count(void **state)
{
	struct message msg;

	(void)state;
	assert_int_equal(scan(&msg, "{\"type\":\"board\",\"role\":\"back\","
				    "\"move\":{\"x\":7,\"y\":3,"
				    "\"role\":\"front\"},\"moves\":1}"),
			 0);
	assert_int_equal(msg.type, MESSAGE_BOARD);
	assert_int_equal(msg.role, SIDE_BACK);
	assert_true(msg.has_move);
	assert_int_equal(msg.move_x, 7);
	assert_int_equal(msg.move_y, 3);
	assert_int_equal(msg.move_role, SIDE_FRONT);
	assert_int_equal(msg.moves, 1);
	assert_false(msg.has_content);
}

static void full_board_should_skip_content_in_any_order(void **state)
{
	struct message msg;

	(void)state;
	assert_int_equal(scan(&msg, "{ \"moves\" : 12, \"content\":[\"\","
				    "\"front\",\"back\",\"x\\\"]\"],"
				    "\"move\":{\"role\":\"back\",\"y\":0,"
				    "\"x\":2},\"role\":\"front\","
				    "\"type\":\"board\"}"),
			 0);
	assert_int_equal(msg.type, MESSAGE_BOARD);
	assert_int_equal(msg.role, SIDE_FRONT);
	assert_int_equal(msg.move_x, 2);
	assert_int_equal(msg.move_y, 0);
	assert_int_equal(msg.move_role, SIDE_BACK);
	assert_int_equal(msg.moves, 12);
	assert_true(msg.has_content);
}

static void role_should_give_side_room_and_size(void **state)
{
	struct message msg;

	(void)state;
	assert_int_equal(scan(&msg, "{\"type\":\"role\",\"role\":\"front\","
				    "\"room\":\"9c1d4a77-2b3e-4f10-8a6b-"
				    "5d4e3c2b1a09\",\"size\":15,\"rule\":"
				    "\"freestyle\",\"opponent\":{\"name\":"
				    "\"Ada\"}}"),
			 0);
	assert_int_equal(msg.type, MESSAGE_ROLE);
	assert_int_equal(msg.role, SIDE_FRONT);
	assert_string_equal(msg.room, "9c1d4a77-2b3e-4f10-8a6b-5d4e3c2b1a09");
	assert_int_equal(msg.size, 15);
}

static void error_and_winner_should_give_code_and_winner(void **state)
{
	struct message msg;

	(void)state;
	assert_int_equal(scan(&msg, "{\"type\":\"error\",\"code\":"
				    "\"not_your_turn\",\"message\":\"x\"}"),
			 0);
	assert_int_equal(msg.type, MESSAGE_ERROR);
	assert_string_equal(msg.code, "not_your_turn");
	assert_int_equal(scan(&msg, "{\"type\":\"winner\",\"winner\":\"back\","
				    "\"reason\":\"five\",\"line\":[{\"x\":1,"
				    "\"y\":2}]}"),
			 0);
	assert_int_equal(msg.type, MESSAGE_WINNER);
	assert_int_equal(msg.winner, SIDE_BACK);
}

static void spectate_should_give_room_past_nested_players(void **state)
{
	struct message msg;

	(void)state;
	assert_int_equal(scan(&msg, "{\"type\":\"spectate\",\"room\":"
				    "\"25edc766-5e4f-88e7-b550-709182c70aed\","
				    "\"size\":15,\"rule\":\"freestyle\","
				    "\"tc\":\"60+0\",\"players\":{\"front\":"
				    "{\"name\":\"Bo\"},\"back\":{}}}"),
			 0);
	assert_int_equal(msg.type, MESSAGE_SPECTATE);
	assert_string_equal(msg.room, "25edc766-5e4f-88e7-b550-709182c70aed");
	assert_int_equal(msg.size, 15);
	assert_int_equal(msg.role, SIDE_NONE);
}

static void offer_should_be_told_apart(void **state)
{
	struct message msg;

	(void)state;
	assert_int_equal(scan(&msg, "{\"type\":\"offer\",\"what\":"
				    "\"rematch\",\"by\":\"front\"}"),
			 0);
	assert_int_equal(msg.type, MESSAGE_OFFER);
	assert_int_equal(scan(&msg, "{\"type\":\"answer\",\"what\":"
				    "\"rematch\",\"accept\":true}"),
			 0);
	assert_int_equal(msg.type, MESSAGE_OTHER);
}

static void boards_missed_should_count_the_gap(void **state)
{
	(void)state;
	assert_int_equal(message_boards_missed(-1, 4), 0);
	assert_int_equal(message_boards_missed(4, 5), 0);
	assert_int_equal(message_boards_missed(4, 7), 2);
	assert_int_equal(message_boards_missed(4, 4), 1);
	assert_int_equal(message_boards_missed(4, 2), 1);
	assert_int_equal(message_boards_missed(4, -1), 0);
}

static void malformed_text_should_be_refused(void **state)
{
	struct message msg;

	(void)state;
	assert_int_equal(scan(&msg, "[1,2]"), -1);
	assert_int_equal(scan(&msg, "{\"type\":\"board\""), -1);
	assert_int_equal(scan(&msg, "{\"content\":[\"\",}"), -1);
	assert_int_equal(scan(&msg, ""), -1);
}

static void histogram_should_be_exact_below_a_millisecond(void **state)
{
	static struct histogram h;
	uint64_t v;

	(void)state;
	histogram_init(&h);
	for (v = 1; v <= 1000; v++)
		histogram_record(&h, v);
	assert_int_equal(histogram_percentile(&h, 50), 500);
	assert_int_equal(histogram_percentile(&h, 99), 990);
	assert_int_equal(histogram_percentile(&h, 99.9), 999);
	assert_int_equal(histogram_percentile(&h, 100), 1000);
}

static void histogram_should_stay_within_one_percent_above(void **state)
{
	static struct histogram h;
	uint64_t v, p;

	(void)state;
	histogram_init(&h);
	for (v = 1; v <= 100000; v++)
		histogram_record(&h, v * 100);
	p = histogram_percentile(&h, 50);
	assert_in_range(p, 5000000, 5050000);
	p = histogram_percentile(&h, 99.9);
	assert_in_range(p, 9990000, 10090000);
	assert_int_equal(histogram_percentile(&h, 100), 10000000);
	histogram_record(&h, 1000ull * 1000 * 1000 * 1000);
	assert_int_equal(h.max, 1000ull * 1000 * 1000 * 1000);
}

static void client_frame_should_be_masked_and_parse_back(void **state)
{
	uint8_t frame[WS_CLIENT_HEADER_MAX + 200], text[200];
	struct ws_frame parsed;
	size_t len;

	(void)state;
	memset(text, 'a', sizeof(text));
	len = ws_frame_encode(frame, WS_TEXT, text, sizeof(text), 0x12345678);
	assert_int_equal(len, 2 + 2 + 4 + 200);
	assert_int_equal(frame[0], 0x81);
	assert_int_equal(frame[1], 0x80 | 126);
	assert_int_equal(frame[8], 'a' ^ 0x12);
	assert_int_equal(ws_frame_parse(frame, len - 1, 1000, &parsed), 0);
	assert_int_equal(ws_frame_parse(frame, len, 1000, &parsed), (long)len);
	assert_true(parsed.fin);
	assert_int_equal(parsed.opcode, WS_TEXT);
	assert_int_equal(parsed.length, 200);
	assert_memory_equal(parsed.payload, text, 200);
}

static void server_frames_should_parse_fragments_and_controls(void **state)
{
	uint8_t bytes[] = { 0x01, 0x02, '{',  '"',  0x80, 0x01,
			    '}',  0x89, 0x00, 0x8f, 0x00 };
	struct ws_frame f;

	(void)state;
	assert_int_equal(ws_frame_parse(bytes, sizeof(bytes), 100, &f), 4);
	assert_false(f.fin);
	assert_int_equal(f.opcode, WS_TEXT);
	assert_int_equal(ws_frame_parse(bytes + 4, 3, 100, &f), 3);
	assert_true(f.fin);
	assert_int_equal(f.opcode, WS_CONTINUATION);
	assert_int_equal(ws_frame_parse(bytes + 7, 2, 100, &f), 2);
	assert_int_equal(f.opcode, WS_PING);
	/* Opcode 0xf is reserved. */
	assert_int_equal(ws_frame_parse(bytes + 9, 2, 100, &f), -1);
}

static void response_head_should_give_status_when_complete(void **state)
{
	const char *ok = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: "
			 "websocket\r\n\r\n\x81\x02{}";
	int status = 0;

	(void)state;
	assert_int_equal(ws_response_parse(ok, 20, &status), 0);
	assert_int_equal(ws_response_parse(ok, strlen(ok), &status),
			 (long)strlen(ok) - 4);
	assert_int_equal(status, 101);
	assert_int_equal(ws_response_parse("GARBAGE", 7, &status), -1);
}

static void request_should_carry_a_base64_key(void **state)
{
	static const uint8_t key[16] = { 0 };
	char buf[512];
	size_t len;

	(void)state;
	len = ws_request_write(buf, sizeof(buf), "127.0.0.1:8080", "/?uid=x",
			       key);
	assert_int_not_equal(len, 0);
	assert_non_null(strstr(buf, "GET /?uid=x HTTP/1.1\r\n"));
	assert_non_null(
		strstr(buf, "Sec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAA==\r\n"));
	assert_int_equal(ws_request_write(buf, 10, "h", "/", key), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(compact_board_should_give_move_and_count),
		cmocka_unit_test(full_board_should_skip_content_in_any_order),
		cmocka_unit_test(role_should_give_side_room_and_size),
		cmocka_unit_test(error_and_winner_should_give_code_and_winner),
		cmocka_unit_test(spectate_should_give_room_past_nested_players),
		cmocka_unit_test(offer_should_be_told_apart),
		cmocka_unit_test(boards_missed_should_count_the_gap),
		cmocka_unit_test(malformed_text_should_be_refused),
		cmocka_unit_test(histogram_should_be_exact_below_a_millisecond),
		cmocka_unit_test(
			histogram_should_stay_within_one_percent_above),
		cmocka_unit_test(client_frame_should_be_masked_and_parse_back),
		cmocka_unit_test(
			server_frames_should_parse_fragments_and_controls),
		cmocka_unit_test(
			response_head_should_give_status_when_complete),
		cmocka_unit_test(request_should_carry_a_base64_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
