/*
 * test_protocol.c - parsing client messages, encoding server messages, and
 * the uid and name checks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "protocol.h"
#include "expect.h"

static const char *code_name(int code)
{
	return code == ERR_NONE ? "ERR_NONE" :
				  error_code_name((enum error_code)code);
}

#define expect_code(actual, expected) expect_enum(actual, expected, code_name)

/* Parses the first len bytes of text for a 15x15 board. */
static enum error_code parse_n(const char *text, size_t len,
			       struct request *req)
{
	const char *message = NULL;
	enum error_code code;

	code = protocol_parse(text, len, 15, req, &message);
	if (code != ERR_NONE && (!message || !message[0]))
		fail_msg("refusing %.*s (%s) gave no message", (int)len, text,
			 error_code_name(code));
	return code;
}

/* Parses the NUL-terminated text for a 15x15 board. */
static enum error_code parse(const char *text, struct request *req)
{
	return parse_n(text, strlen(text), req);
}

/* Checks that text is refused with expected, saying which text failed. */
#define expect_refused(text, expected)                                  \
	do {                                                            \
		struct request req_;                                    \
		enum error_code got_ = parse(text, &req_);              \
		if (got_ != (expected))                                 \
			fail_msg("%s: expected %s, got %s", text,       \
				 code_name(expected), code_name(got_)); \
	} while (0)

/*
 * A board message whose content holds count copies of the JSON value cell,
 * then the JSON value last when not NULL; role is the JSON of the role
 * member, left out when NULL. The caller frees the text.
 */
static char *board_message(int count, const char *cell, const char *last,
			   const char *role)
{
	size_t room = (size_t)count * (strlen(cell) + 1) + 64 +
		      (last ? strlen(last) : 0) + (role ? strlen(role) : 0);
	char *text = malloc(room);
	size_t used;
	int i;

	assert_non_null(text);
	used = (size_t)sprintf(text, "{\"type\":\"board\",\"content\":[");
	for (i = 0; i < count; i++)
		used += (size_t)sprintf(text + used, "%s%s", i ? "," : "",
					cell);
	if (last)
		used += (size_t)sprintf(text + used, "%s%s", count ? "," : "",
					last);
	used += (size_t)sprintf(text + used, "]");
	if (role)
		used += (size_t)sprintf(text + used, ",\"role\":%s", role);
	sprintf(text + used, "}");
	return text;
}

static void parses_a_move_with_integer_coordinates(void **state)
{
	struct request req;

	(void)state;
	expect_code(parse("{\"type\":\"move\",\"x\":3,\"y\":14}", &req),
		    ERR_NONE);
	expect_int(req.type, REQUEST_MOVE);
	expect_int(req.x, 3);
	expect_int(req.y, 14);
}

static void parses_a_move_off_the_board_for_the_game_to_judge(void **state)
{
	struct request req;

	(void)state;
	expect_code(parse("{\"type\":\"move\",\"x\":-1,\"y\":99}", &req),
		    ERR_NONE);
	expect_int(req.x, -1);
	expect_int(req.y, 99);
	expect_code(parse("{\"type\":\"move\",\"x\":2147483647,"
			  "\"y\":-2147483648}",
			  &req),
		    ERR_NONE);
	expect_int(req.x, 2147483647);
	expect_int(req.y, -2147483647 - 1);
}

static void parses_integral_numbers_written_as_decimals(void **state)
{
	struct request req;

	(void)state;
	expect_code(parse("{\"type\":\"move\",\"x\":7.0,\"y\":5e0}", &req),
		    ERR_NONE);
	expect_int(req.x, 7);
	expect_int(req.y, 5);
	expect_code(parse("{\"type\":\"move\",\"x\":-0,\"y\":1.2e1}", &req),
		    ERR_NONE);
	expect_int(req.x, 0);
	expect_int(req.y, 12);
}

static void parses_fields_in_any_order_among_unknown_ones(void **state)
{
	struct request req;

	(void)state;
	expect_code(parse(" \n{\"y\":1,\"extra\":[1,{}],\"x\":2,"
			  "\"type\":\"move\"}\t\r\n ",
			  &req),
		    ERR_NONE);
	expect_int(req.type, REQUEST_MOVE);
	expect_int(req.x, 2);
	expect_int(req.y, 1);
}

static void parses_a_board_of_the_old_client_size_16(void **state)
{
	const char *message = NULL;
	struct request req;
	char *text;
	int i;

	(void)state;
	/* Front at (3, 2), back at (15, 15), role before type and content. */
	text = malloc(16 * 16 * 8 + 64);
	assert_non_null(text);
	strcpy(text, "{\"role\":\"back\",\"type\":\"board\",\"content\":[");
	for (i = 0; i < 16 * 16; i++) {
		strcat(text, i ? "," : "");
		strcat(text, i == 2 * 16 + 3  ? "\"front\"" :
			     i == 16 * 16 - 1 ? "\"back\"" :
						"\"\"");
	}
	strcat(text, "]}");
	expect_code(protocol_parse(text, strlen(text), 16, &req, &message),
		    ERR_NONE);
	free(text);
	expect_int(req.type, REQUEST_BOARD);
	expect_int(req.role, ROLE_BACK);
	for (i = 0; i < 16 * 16; i++) {
		int want = i == 2 * 16 + 3  ? ROLE_FRONT :
			   i == 16 * 16 - 1 ? ROLE_BACK :
					      ROLE_NONE;

		if (req.cells[i] != want)
			fail_msg("cell %d is %d, expected %d", i, req.cells[i],
				 want);
	}
}

static void parses_a_board_of_the_smallest_and_the_largest_size(void **state)
{
	const char *message;
	struct request req;
	char *text;

	(void)state;
	text = board_message(5 * 5, "\"front\"", NULL, "\"front\"");
	expect_code(protocol_parse(text, strlen(text), 5, &req, &message),
		    ERR_NONE);
	expect_int(req.cells[24], ROLE_FRONT);
	free(text);
	text = board_message(25 * 25, "\"back\"", NULL, "\"front\"");
	expect_code(protocol_parse(text, strlen(text), 25, &req, &message),
		    ERR_NONE);
	expect_int(req.cells[624], ROLE_BACK);
	expect_int(req.role, ROLE_FRONT);
	free(text);
}

static void parses_winner_whatever_its_fields(void **state)
{
	struct request req;

	(void)state;
	expect_code(parse("{\"type\":\"winner\"}", &req), ERR_NONE);
	expect_int(req.type, REQUEST_WINNER);
	expect_code(parse("{\"type\":\"winner\",\"winner\":\"front\","
			  "\"content\":7}",
			  &req),
		    ERR_NONE);
	expect_int(req.type, REQUEST_WINNER);
}

static void parses_ping(void **state)
{
	struct request req;

	(void)state;
	expect_code(parse("{\"type\":\"ping\"}", &req), ERR_NONE);
	expect_int(req.type, REQUEST_PING);
}

static void
parses_moves_the_same_on_the_fast_path_and_through_cjson(void **state)
{
	/* plain forms take the allocation-free path, the rest cJSON's */
	static const struct {
		const char *text;
		int x, y;
	} moves[] = {
		{ "{\"type\":\"move\",\"x\":3,\"y\":14}", 3, 14 },
		{ " {\n\"y\" : 14 ,\t\"x\" : 3 , \"type\" : \"move\" }\r\n", 3,
		  14 },
		{ "{\"type\":\"move\",\"x\":-1,\"y\":123456789}", -1,
		  123456789 },
		{ "{\"type\":\"move\",\"x\":1234567890,\"y\":0}", 1234567890,
		  0 },
		{ "{\"type\":\"move\",\"x\":2147483647,\"y\":-2147483648}",
		  2147483647, -2147483647 - 1 },
		{ "{\"type\":\"move\",\"x\":999999999,\"y\":-999999999}",
		  999999999, -999999999 },
		{ "{\"type\":\"move\",\"x\":-0,\"y\":0}", 0, 0 },
		{ "{\"type\":\"move\",\"x\":3.0,\"y\":4}", 3, 4 },
		{ "{\"type\":\"move\",\"x\":1e1,\"y\":2}", 10, 2 },
		{ "{\"type\":\"move\",\"x\":3,\"y\":4,\"x\":5}", 3, 4 },
		{ "{\"type\":\"move\",\"x\":3,\"y\":4,\"extra\":[true]}", 3,
		  4 },
		{ "{\"type\":\"mo\\u0076e\",\"\\u0078\":3,\"y\":4}", 3, 4 },
		{ "{\"type\":\"move\",\"type\":\"ping\",\"x\":3,\"y\":4}", 3,
		  4 },
	};
	struct request req;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(moves) / sizeof(*moves); i++) {
		if (parse(moves[i].text, &req) != ERR_NONE ||
		    req.type != REQUEST_MOVE || req.x != moves[i].x ||
		    req.y != moves[i].y)
			fail_msg("%s: expected a move to (%d, %d), got type %d "
				 "(%d, %d)",
				 moves[i].text, moves[i].x, moves[i].y,
				 req.type, req.x, req.y);
	}
	expect_refused("{\"type\":\"move\",\"x\":3}", ERR_BAD_JSON);
	expect_refused("{\"type\":\"move\",\"x\":3,\"y\":\"4\"}", ERR_BAD_JSON);
	expect_refused("{\"type\":\"move\",\"x\":3.5,\"y\":4}",
		       ERR_OUT_OF_RANGE);
	expect_refused("{\"type\":\"move\",\"x\":99999999999,\"y\":4}",
		       ERR_OUT_OF_RANGE);
	expect_refused("{\"type\":\"move\",\"x\":2147483648,\"y\":4}",
		       ERR_OUT_OF_RANGE);
	expect_refused("{\"type\":\"move\",\"x\":4,\"y\":-2147483649}",
		       ERR_OUT_OF_RANGE);
	expect_refused("{\"type\":\"move\",\"x\":3,\"y\":4", ERR_BAD_JSON);
	expect_refused("{\"type\":\"move\",\"x\":03,\"y\":4}", ERR_BAD_JSON);
	expect_refused("{\"type\":\"Move\",\"x\":3,\"y\":4}", ERR_BAD_TYPE);
}

/* cJSON's allocations, counted by the hooks of the test below. */
static int cjson_allocations;

static void *counting_malloc(size_t size)
{
	cjson_allocations++;
	return malloc(size);
}

static void parses_a_plain_move_without_allocating(void **state)
{
	cJSON_Hooks hooks = { counting_malloc, free };
	struct request req;

	(void)state;
	cJSON_InitHooks(&hooks);
	cjson_allocations = 0;
	expect_code(parse(" {\"y\":14, \"type\":\"move\", \"x\":3}", &req),
		    ERR_NONE);
	expect_int(cjson_allocations, 0);
	expect_int(req.x, 3);
	/* the hooks do count: another form goes through cJSON */
	expect_code(parse("{\"type\":\"move\",\"x\":3.0,\"y\":14}", &req),
		    ERR_NONE);
	cJSON_InitHooks(NULL);
	if (cjson_allocations == 0)
		fail_msg("cJSON allocated nothing for a move with a fraction: "
			 "the counting hooks are not in use");
}

static void parses_takeback_offers_answers_and_redo(void **state)
{
	struct request req;

	(void)state;
	expect_code(parse("{\"type\":\"offer\",\"what\":\"takeback\"}", &req),
		    ERR_NONE);
	expect_int(req.type, REQUEST_OFFER);
	expect_code(parse("{\"type\":\"answer\",\"what\":\"takeback\","
			  "\"accept\":true}",
			  &req),
		    ERR_NONE);
	expect_int(req.type, REQUEST_ANSWER);
	expect_int(req.accept, true);
	expect_code(parse("{\"accept\":false,\"type\":\"answer\","
			  "\"what\":\"takeback\"}",
			  &req),
		    ERR_NONE);
	expect_int(req.accept, false);
	expect_code(parse("{\"type\":\"redo\"}", &req), ERR_NONE);
	expect_int(req.type, REQUEST_REDO);
}

static void refuses_offers_and_answers_of_the_wrong_shape(void **state)
{
	(void)state;
	expect_refused("{\"type\":\"offer\"}", ERR_BAD_OFFER);
	expect_refused("{\"type\":\"offer\",\"what\":\"draw\"}", ERR_BAD_OFFER);
	expect_refused("{\"type\":\"offer\",\"what\":1}", ERR_BAD_OFFER);
	expect_refused("{\"type\":\"offer\",\"what\":\"Takeback\"}",
		       ERR_BAD_OFFER);
	expect_refused("{\"type\":\"answer\",\"what\":\"takeback\"}",
		       ERR_BAD_OFFER);
	expect_refused("{\"type\":\"answer\",\"what\":\"takeback\","
		       "\"accept\":1}",
		       ERR_BAD_OFFER);
	expect_refused("{\"type\":\"answer\",\"what\":\"takeback\","
		       "\"accept\":\"true\"}",
		       ERR_BAD_OFFER);
	expect_refused("{\"type\":\"answer\",\"accept\":true}", ERR_BAD_OFFER);
}

static void reads_exactly_len_bytes_of_text(void **state)
{
	static const char text[] = "{\"type\":\"ping\"}garbage";
	struct request req;

	(void)state;
	expect_code(parse_n(text, 15, &req), ERR_NONE);
	expect_int(req.type, REQUEST_PING);
	expect_code(parse_n(text, 14, &req), ERR_BAD_JSON);
	expect_code(parse_n(text, 16, &req), ERR_BAD_JSON);
}

static void refuses_text_that_is_not_json(void **state)
{
	struct request req;

	(void)state;
	expect_refused("hello", ERR_BAD_JSON);
	expect_refused("{type:\"ping\"}", ERR_BAD_JSON);
	expect_refused("{'type':'ping'}", ERR_BAD_JSON);
	expect_refused("   ", ERR_BAD_JSON);
	expect_code(parse_n("", 0, &req), ERR_BAD_JSON);
}

static void refuses_truncated_json(void **state)
{
	(void)state;
	expect_refused("{\"type\":\"move\",\"x\":1,\"y\":", ERR_BAD_JSON);
	expect_refused("{\"type\":\"ping\"", ERR_BAD_JSON);
	expect_refused("{\"type\":\"pi", ERR_BAD_JSON);
	expect_refused("{", ERR_BAD_JSON);
}

static void refuses_trailing_garbage_after_the_object(void **state)
{
	(void)state;
	expect_refused("{\"type\":\"ping\"}x", ERR_BAD_JSON);
	expect_refused("{\"type\":\"ping\"}{\"type\":\"ping\"}", ERR_BAD_JSON);
	expect_refused("{\"type\":\"ping\"} 1", ERR_BAD_JSON);
	expect_refused("{\"type\":\"ping\"}}", ERR_BAD_JSON);
}

static void refuses_an_embedded_nul_byte(void **state)
{
	static const char trailing[] = "{\"type\":\"ping\"}";
	static const char inside[] = "{\"type\":\"pi\0ng\"}";
	struct request req;

	(void)state;
	/* sizeof counts the terminating NUL: one NUL byte after the object. */
	expect_code(parse_n(trailing, sizeof(trailing), &req), ERR_BAD_JSON);
	expect_code(parse_n(inside, sizeof(inside) - 1, &req), ERR_BAD_JSON);
}

static void refuses_a_string_with_an_escaped_nul(void **state)
{
	struct request req;
	char *text;

	(void)state;
	expect_refused("{\"type\":\"ping\\u0000\"}", ERR_BAD_JSON);
	expect_refused("{\"type\":\"ping\",\"x\":\"\\u0000\"}", ERR_BAD_JSON);
	text = board_message(15 * 15, "\"front\\u0000\"", NULL, "\"front\"");
	expect_code(parse(text, &req), ERR_BAD_JSON);
	free(text);
	/* An escaped backslash then "u0000" is no NUL. */
	expect_code(parse("{\"type\":\"ping\",\"x\":\"\\\\u0000\"}", &req),
		    ERR_NONE);
	/* Escapes that read as the protocol words are those words. */
	expect_code(parse("{\"type\":\"\\u0070ing\"}", &req), ERR_NONE);
}

static void refuses_json_that_is_not_an_object(void **state)
{
	(void)state;
	expect_refused("[{\"type\":\"ping\"}]", ERR_BAD_JSON);
	expect_refused("\"ping\"", ERR_BAD_JSON);
	expect_refused("42", ERR_BAD_JSON);
	expect_refused("null", ERR_BAD_JSON);
	expect_refused("true", ERR_BAD_JSON);
}

static void refuses_a_missing_type_as_bad_type(void **state)
{
	(void)state;
	expect_refused("{}", ERR_BAD_TYPE);
	expect_refused("{\"x\":1,\"y\":2}", ERR_BAD_TYPE);
	expect_refused("{\"Type\":\"ping\"}", ERR_BAD_TYPE);
}

static void refuses_a_type_that_is_not_a_string_as_bad_type(void **state)
{
	(void)state;
	expect_refused("{\"type\":1}", ERR_BAD_TYPE);
	expect_refused("{\"type\":null}", ERR_BAD_TYPE);
	expect_refused("{\"type\":[\"ping\"]}", ERR_BAD_TYPE);
	expect_refused("{\"type\":{\"type\":\"ping\"}}", ERR_BAD_TYPE);
	expect_refused("{\"type\":true}", ERR_BAD_TYPE);
}

static void refuses_an_unknown_type_as_bad_type(void **state)
{
	(void)state;
	expect_refused("{\"type\":\"resign\"}", ERR_BAD_TYPE);
	expect_refused("{\"type\":\"\"}", ERR_BAD_TYPE);
	expect_refused("{\"type\":\"Move\",\"x\":1,\"y\":1}", ERR_BAD_TYPE);
	expect_refused("{\"type\":\"PING\"}", ERR_BAD_TYPE);
	expect_refused("{\"type\":\"ping \"}", ERR_BAD_TYPE);
}

static void refuses_a_move_without_x_or_y_as_bad_json(void **state)
{
	(void)state;
	expect_refused("{\"type\":\"move\",\"y\":1}", ERR_BAD_JSON);
	expect_refused("{\"type\":\"move\",\"x\":1}", ERR_BAD_JSON);
	expect_refused("{\"type\":\"move\"}", ERR_BAD_JSON);
	expect_refused("{\"type\":\"move\",\"X\":1,\"Y\":1}", ERR_BAD_JSON);
}

static void refuses_a_move_with_coordinates_that_are_not_numbers(void **state)
{
	const char *message = NULL;
	struct request req;
	const char *text = "{\"type\":\"move\",\"x\":\"3\",\"y\":4}";

	(void)state;
	expect_code(protocol_parse(text, strlen(text), 15, &req, &message),
		    ERR_BAD_JSON);
	expect_str(message, "move needs integer x and y");
	expect_refused("{\"type\":\"move\",\"x\":3,\"y\":null}", ERR_BAD_JSON);
	expect_refused("{\"type\":\"move\",\"x\":true,\"y\":4}", ERR_BAD_JSON);
	expect_refused("{\"type\":\"move\",\"x\":[3],\"y\":4}", ERR_BAD_JSON);
	expect_refused("{\"type\":\"move\",\"x\":{},\"y\":4}", ERR_BAD_JSON);
	/* A shape error wins over a range error in the other field. */
	expect_refused("{\"type\":\"move\",\"x\":0.5,\"y\":\"4\"}",
		       ERR_BAD_JSON);
}

static void refuses_a_fractional_coordinate_as_out_of_range(void **state)
{
	(void)state;
	expect_refused("{\"type\":\"move\",\"x\":3.5,\"y\":4}",
		       ERR_OUT_OF_RANGE);
	expect_refused("{\"type\":\"move\",\"x\":3,\"y\":0.000001}",
		       ERR_OUT_OF_RANGE);
	expect_refused("{\"type\":\"move\",\"x\":-0.5,\"y\":4}",
		       ERR_OUT_OF_RANGE);
}

static void refuses_a_coordinate_beyond_int_as_out_of_range(void **state)
{
	(void)state;
	expect_refused("{\"type\":\"move\",\"x\":1e400,\"y\":4}",
		       ERR_OUT_OF_RANGE);
	expect_refused("{\"type\":\"move\",\"x\":-1e400,\"y\":4}",
		       ERR_OUT_OF_RANGE);
	expect_refused("{\"type\":\"move\",\"x\":1,\"y\":1e10}",
		       ERR_OUT_OF_RANGE);
	expect_refused("{\"type\":\"move\",\"x\":2147483648,\"y\":4}",
		       ERR_OUT_OF_RANGE);
	expect_refused("{\"type\":\"move\",\"x\":1,\"y\":-2147483649}",
		       ERR_OUT_OF_RANGE);
}

static void refuses_a_board_with_the_wrong_number_of_cells(void **state)
{
	static const int counts[] = { 0,	   1,		14 * 14,
				      15 * 15 - 1, 15 * 15 + 1, 16 * 16,
				      25 * 25 };
	struct request req;
	size_t i;
	char *text;

	(void)state;
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		text = board_message(counts[i], "\"\"", NULL, "\"front\"");
		if (parse(text, &req) != ERR_BAD_BOARD)
			fail_msg("a board of %d cells for 15x15 was not "
				 "bad_board",
				 counts[i]);
		free(text);
	}
}

static void refuses_a_board_longer_than_the_largest_size(void **state)
{
	const char *message;
	struct request req;
	char *text;

	(void)state;
	/* One cell past BOARD_MAX_CELLS must not be written anywhere. */
	text = board_message(25 * 25 + 1, "\"back\"", NULL, "\"front\"");
	expect_code(protocol_parse(text, strlen(text), 25, &req, &message),
		    ERR_BAD_BOARD);
	free(text);
	text = board_message(25 * 25, "\"back\"", NULL, "\"front\"");
	expect_code(protocol_parse(text, strlen(text), 26, &req, &message),
		    ERR_BAD_BOARD);
	free(text);
}

static void refuses_a_board_with_cells_of_unknown_value(void **state)
{
	static const char *const bad_cells[] = {
		"\"FRONT\"", "\"Back\"", "\" front\"", "\"x\"",
		"\"black\"", "\"draw\"", "\"frontx\"", "\"\\u0066rontx\"",
	};
	struct request req;
	size_t i;
	char *text;

	(void)state;
	for (i = 0; i < sizeof(bad_cells) / sizeof(bad_cells[0]); i++) {
		text = board_message(15 * 15, bad_cells[i], NULL, "\"front\"");
		if (parse(text, &req) != ERR_BAD_BOARD)
			fail_msg("a board of %s cells was not bad_board",
				 bad_cells[i]);
		free(text);
		text = board_message(15 * 15 - 1, "\"\"", bad_cells[i],
				     "\"front\"");
		if (parse(text, &req) != ERR_BAD_BOARD)
			fail_msg("a board with a last cell of %s was not "
				 "bad_board",
				 bad_cells[i]);
		free(text);
	}
}

static void refuses_a_board_with_cells_that_are_not_strings(void **state)
{
	static const char *const bad_cells[] = {
		"0", "1", "null", "true", "{}", "[]", "[\"front\"]",
	};
	struct request req;
	size_t i;
	char *text;

	(void)state;
	for (i = 0; i < sizeof(bad_cells) / sizeof(bad_cells[0]); i++) {
		text = board_message(15 * 15, bad_cells[i], NULL, "\"front\"");
		if (parse(text, &req) != ERR_BAD_BOARD)
			fail_msg("a board of %s cells was not bad_board",
				 bad_cells[i]);
		free(text);
		text = board_message(15 * 15 - 1, "\"\"", bad_cells[i],
				     "\"front\"");
		if (parse(text, &req) != ERR_BAD_BOARD)
			fail_msg("a board with a last cell of %s was not "
				 "bad_board",
				 bad_cells[i]);
		free(text);
	}
}

static void refuses_a_board_without_a_content_array(void **state)
{
	(void)state;
	expect_refused("{\"type\":\"board\",\"role\":\"front\"}",
		       ERR_BAD_BOARD);
	expect_refused("{\"type\":\"board\",\"content\":\"\","
		       "\"role\":\"front\"}",
		       ERR_BAD_BOARD);
	expect_refused("{\"type\":\"board\",\"content\":{},\"role\":\"front\"}",
		       ERR_BAD_BOARD);
}

static void refuses_a_board_with_a_missing_or_bad_role(void **state)
{
	static const char *const bad_roles[] = {
		NULL, "\"\"", "\"draw\"",    "\"Front\"",
		"1",  "null", "[\"front\"]",
	};
	struct request req;
	size_t i;
	char *text;

	(void)state;
	for (i = 0; i < sizeof(bad_roles) / sizeof(bad_roles[0]); i++) {
		text = board_message(15 * 15, "\"\"", NULL, bad_roles[i]);
		if (parse(text, &req) != ERR_BAD_BOARD)
			fail_msg("a board with role %s was not bad_board",
				 bad_roles[i] ? bad_roles[i] : "missing");
		free(text);
	}
}

/* Encodes ev with headroom, checks the framing and parses the JSON back. */
static cJSON *encode(const struct event *ev, size_t headroom)
{
	size_t len = 0;
	cJSON *root;
	char *buffer;

	buffer = protocol_encode(ev, headroom, &len);
	if (!buffer)
		fail_msg("event type %d was not encoded", ev->type);
	if (strlen(buffer + headroom) != len)
		fail_msg("len is %zu, text is %zu bytes", len,
			 strlen(buffer + headroom));
	if (strchr(buffer + headroom, '\n') || buffer[headroom] != '{')
		fail_msg("not compact JSON: %s", buffer + headroom);
	root = cJSON_ParseWithLength(buffer + headroom, len);
	if (!cJSON_IsObject(root))
		fail_msg("not a JSON object: %s", buffer + headroom);
	free(buffer);
	return root;
}

/* The string member name of object; fails when it is not a string. */
static const char *member_string(const cJSON *object, const char *name)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, name);

	if (!cJSON_IsString(item))
		fail_msg("member \"%s\" is not a string", name);
	return item->valuestring;
}

/* The number member name of object; fails when it is not a number. */
static double member_number(const cJSON *object, const char *name)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, name);

	if (!cJSON_IsNumber(item))
		fail_msg("member \"%s\" is not a number", name);
	return item->valuedouble;
}

static int member_count(const cJSON *object)
{
	return cJSON_GetArraySize(object);
}

static void encodes_welcome_with_uid_protocol_size_rule_version(void **state)
{
	struct event ev = {
		.type = EVENT_WELCOME,
		.uid = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f0",
		.version = "0.1.0",
		.size = 16,
		.rule = RULE_STANDARD,
	};
	cJSON *root = encode(&ev, 0);

	(void)state;
	expect_str(member_string(root, "type"), "welcome");
	expect_str(member_string(root, "uid"), ev.uid);
	expect_int(member_number(root, "protocol"), 1);
	expect_int(member_number(root, "size"), 16);
	expect_str(member_string(root, "rule"), "standard");
	expect_str(member_string(root, "version"), "0.1.0");
	expect_int(member_count(root), 6);
	cJSON_Delete(root);
}

static void encodes_waiting_and_pong_as_just_their_type(void **state)
{
	struct event waiting = { .type = EVENT_WAITING };
	struct event pong = { .type = EVENT_PONG };
	size_t len;
	char *text;

	(void)state;
	text = protocol_encode(&waiting, 0, &len);
	expect_str(text, "{\"type\":\"waiting\"}");
	expect_int(len, strlen("{\"type\":\"waiting\"}"));
	free(text);
	text = protocol_encode(&pong, 0, &len);
	expect_str(text, "{\"type\":\"pong\"}");
	free(text);
}

static void encodes_role_with_the_opponent_name(void **state)
{
	struct event ev = {
		.type = EVENT_ROLE,
		.role = ROLE_BACK,
		.room_id = "6f1c0e2a-9b7d-4c3e-8a5f-0123456789ab",
		.size = 15,
		.rule = RULE_FREESTYLE,
		.opponent_name = "\xe6\x9d\x8e \"Li\" \\",
	};
	const cJSON *opponent;
	cJSON *root = encode(&ev, 16);

	(void)state;
	expect_str(member_string(root, "type"), "role");
	expect_str(member_string(root, "role"), "back");
	expect_str(member_string(root, "room"), ev.room_id);
	expect_int(member_number(root, "size"), 15);
	expect_str(member_string(root, "rule"), "freestyle");
	opponent = cJSON_GetObjectItemCaseSensitive(root, "opponent");
	assert_true(cJSON_IsObject(opponent));
	expect_str(member_string(opponent, "name"), ev.opponent_name);
	expect_int(member_count(opponent), 1);
	cJSON_Delete(root);
}

static void
encodes_an_engine_opponent_with_ai_and_level_and_no_name(void **state)
{
	struct event ev = {
		.type = EVENT_ROLE,
		.role = ROLE_FRONT,
		.room_id = "6f1c0e2a-9b7d-4c3e-8a5f-0123456789ab",
		.size = 15,
		.ai_level = "hard",
	};
	const cJSON *opponent;
	cJSON *root = encode(&ev, 0);

	(void)state;
	opponent = cJSON_GetObjectItemCaseSensitive(root, "opponent");
	assert_true(
		cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(opponent, "ai")));
	expect_str(member_string(opponent, "level"), "hard");
	/* the client names the computer, in its own language */
	expect_int(member_count(opponent), 2);
	cJSON_Delete(root);
}

static void encodes_offer_and_answer_with_who(void **state)
{
	struct event offer = { .type = EVENT_OFFER, .by = ROLE_BACK };
	struct event answer = {
		.type = EVENT_ANSWER,
		.by = ROLE_FRONT,
		.accept = true,
	};
	cJSON *root = encode(&offer, 0);

	(void)state;
	expect_str(member_string(root, "type"), "offer");
	expect_str(member_string(root, "what"), "takeback");
	expect_str(member_string(root, "by"), "back");
	expect_int(member_count(root), 3);
	cJSON_Delete(root);
	root = encode(&answer, 0);
	expect_str(member_string(root, "type"), "answer");
	expect_str(member_string(root, "by"), "front");
	assert_true(
		cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "accept")));
	cJSON_Delete(root);
	answer.accept = false;
	root = encode(&answer, 0);
	assert_true(cJSON_IsFalse(
		cJSON_GetObjectItemCaseSensitive(root, "accept")));
	cJSON_Delete(root);
}

static void encodes_a_takeback_board_with_content_and_undo(void **state)
{
	struct game game;
	struct event ev = {
		.type = EVENT_BOARD,
		.undo = true,
		.compact = true, /* ignored: a takeback always has content */
	};
	const cJSON *content, *undo;
	cJSON *root;

	(void)state;
	game_init(&game, 5, RULE_FREESTYLE, FULL_BOARD_BACK);
	assert_int_equal(game_play(&game, ROLE_FRONT, 2, 2), MOVE_OK);
	assert_int_equal(game_play(&game, ROLE_BACK, 3, 1), MOVE_OK);
	assert_true(game_undo(&game, &ev.undo_cell, &ev.undo_role));
	ev.game = &game;
	root = encode(&ev, 0);
	content = cJSON_GetObjectItemCaseSensitive(root, "content");
	expect_int(cJSON_GetArraySize(content), 25);
	expect_str(cJSON_GetArrayItem(content, 12)->valuestring, "front");
	expect_str(cJSON_GetArrayItem(content, 8)->valuestring, "");
	expect_str(member_string(root, "role"), "back");
	expect_int(member_number(root, "moves"), 1);
	undo = cJSON_GetObjectItemCaseSensitive(root, "undo");
	expect_int(member_number(undo, "x"), 3);
	expect_int(member_number(undo, "y"), 1);
	expect_str(member_string(undo, "role"), "back");
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "move"));
	cJSON_Delete(root);
}

static void encodes_role_without_opponent_when_the_name_is_empty(void **state)
{
	struct event ev = {
		.type = EVENT_ROLE,
		.role = ROLE_FRONT,
		.room_id = "6f1c0e2a-9b7d-4c3e-8a5f-0123456789ab",
		.size = 15,
	};
	cJSON *root;

	(void)state;
	root = encode(&ev, 0);
	expect_str(member_string(root, "role"), "front");
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "opponent"));
	expect_int(member_count(root), 5);
	cJSON_Delete(root);
	ev.opponent_name = "";
	root = encode(&ev, 0);
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "opponent"));
	cJSON_Delete(root);
}

/* Checks that a board message's content mirrors game's board. */
static void check_content(const cJSON *root, const struct game *game)
{
	const cJSON *content;
	const cJSON *cell;
	int i = 0;

	content = cJSON_GetObjectItemCaseSensitive(root, "content");
	assert_true(cJSON_IsArray(content));
	expect_int(member_count(content), game->board.size * game->board.size);
	cJSON_ArrayForEach(cell, content) {
		const char *want = role_name((enum role)game->board.cells[i]);

		if (!cJSON_IsString(cell) || strcmp(cell->valuestring, want))
			fail_msg("content[%d] should be \"%s\"", i, want);
		i++;
	}
}

static void encodes_board_before_any_move_with_front_to_move(void **state)
{
	struct event ev = { .type = EVENT_BOARD };
	struct game game;
	cJSON *root;

	(void)state;
	game_init(&game, 5, RULE_FREESTYLE, FULL_BOARD_BACK);
	ev.game = &game;
	root = encode(&ev, 0);
	expect_str(member_string(root, "type"), "board");
	check_content(root, &game);
	expect_str(member_string(root, "role"), "front");
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "move"));
	expect_int(member_number(root, "moves"), 0);
	cJSON_Delete(root);
}

static void encodes_board_with_content_next_side_move_and_count(void **state)
{
	struct event ev = { .type = EVENT_BOARD };
	const cJSON *move;
	struct game game;
	cJSON *root;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	game_play(&game, ROLE_FRONT, 7, 7);
	game_play(&game, ROLE_BACK, 0, 14);
	game_play(&game, ROLE_FRONT, 14, 0);
	ev.game = &game;
	root = encode(&ev, 16);
	check_content(root, &game);
	expect_str(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "content"),
				      14 * 15)
			   ->valuestring,
		   "back");
	expect_str(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "content"), 14)
			   ->valuestring,
		   "front");
	expect_str(member_string(root, "role"), "back");
	move = cJSON_GetObjectItemCaseSensitive(root, "move");
	assert_true(cJSON_IsObject(move));
	expect_int(member_number(move, "x"), 14);
	expect_int(member_number(move, "y"), 0);
	expect_str(member_string(move, "role"), "front");
	expect_int(member_count(move), 3);
	expect_int(member_number(root, "moves"), 3);
	expect_int(member_count(root), 5);
	cJSON_Delete(root);
}

static void encodes_board_after_a_win_with_the_other_side_next(void **state)
{
	struct event ev = { .type = EVENT_BOARD };
	struct game game;
	cJSON *root;
	int i;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	for (i = 0; i < 4; i++) {
		game_play(&game, ROLE_FRONT, i, 0);
		game_play(&game, ROLE_BACK, i, 1);
	}
	game_play(&game, ROLE_FRONT, 4, 0);
	assert_true(game_is_over(&game));
	ev.game = &game;
	root = encode(&ev, 0);
	expect_str(member_string(root, "role"), "back");
	expect_int(member_number(root, "moves"), 9);
	cJSON_Delete(root);
}

static void encodes_winner_by_five_with_the_line(void **state)
{
	struct event ev = { .type = EVENT_WINNER };
	const cJSON *line;
	const cJSON *cell;
	struct game game;
	cJSON *root;
	int i;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	game_play(&game, ROLE_FRONT, 14, 14);
	for (i = 0; i < 4; i++) {
		game_play(&game, ROLE_BACK, 2 + i, 2 + i);
		game_play(&game, ROLE_FRONT, 0, i);
	}
	game_play(&game, ROLE_BACK, 6, 6);
	ev.game = &game;
	root = encode(&ev, 0);
	expect_str(member_string(root, "type"), "winner");
	expect_str(member_string(root, "winner"), "back");
	expect_str(member_string(root, "reason"), "five");
	line = cJSON_GetObjectItemCaseSensitive(root, "line");
	assert_true(cJSON_IsArray(line));
	expect_int(member_count(line), 5);
	i = 0;
	cJSON_ArrayForEach(cell, line) {
		expect_int(member_number(cell, "x"), 2 + i);
		expect_int(member_number(cell, "y"), 2 + i);
		expect_int(member_count(cell), 2);
		i++;
	}
	cJSON_Delete(root);
}

static void encodes_winner_by_full_board_or_forfeit_without_line(void **state)
{
	struct event ev = { .type = EVENT_WINNER };
	struct game game;
	cJSON *root;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_DRAW);
	game.winner = WINNER_DRAW;
	game.reason = REASON_FULL;
	ev.game = &game;
	root = encode(&ev, 0);
	expect_str(member_string(root, "winner"), "draw");
	expect_str(member_string(root, "reason"), "full");
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "line"));
	expect_int(member_count(root), 3);
	cJSON_Delete(root);

	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	game_forfeit(&game, ROLE_BACK);
	root = encode(&ev, 0);
	expect_str(member_string(root, "winner"), "front");
	expect_str(member_string(root, "reason"), "forfeit");
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "line"));
	cJSON_Delete(root);
}

static void encodes_disconnect_with_its_text(void **state)
{
	struct event ev = {
		.type = EVENT_DISCONNECT,
		.text = "opponent left",
	};
	size_t len;
	char *text;

	(void)state;
	text = protocol_encode(&ev, 0, &len);
	expect_str(text, "{\"type\":\"disconnect\",\"disconnect\":"
			 "\"opponent left\"}");
	free(text);
}

static void encodes_error_with_code_and_message_for_every_code(void **state)
{
	struct event ev = { .type = EVENT_ERROR, .text = "it is \"wrong\"" };
	cJSON *root;
	int code;

	(void)state;
	for (code = ERR_BAD_JSON; code < ERR_COUNT; code++) {
		ev.code = (enum error_code)code;
		root = encode(&ev, 0);
		expect_str(member_string(root, "type"), "error");
		expect_str(member_string(root, "code"),
			   error_code_name((enum error_code)code));
		expect_str(member_string(root, "message"), ev.text);
		expect_int(member_count(root), 3);
		cJSON_Delete(root);
	}
}

static void encodes_opponent_away_with_its_seconds(void **state)
{
	static const int seconds[] = { 0, 1, 30, 3600, 2147483647 };
	struct event ev = { .type = EVENT_OPPONENT_AWAY };
	char expected[64];
	size_t len;
	size_t i;
	char *text;

	(void)state;
	for (i = 0; i < sizeof(seconds) / sizeof(seconds[0]); i++) {
		ev.seconds = seconds[i];
		snprintf(expected, sizeof(expected),
			 "{\"type\":\"opponent_away\",\"seconds\":%d}",
			 seconds[i]);
		text = protocol_encode(&ev, 0, &len);
		expect_str(text, expected);
		expect_int(len, strlen(expected));
		free(text);
	}
}

static void encodes_opponent_back_as_just_its_type(void **state)
{
	/* Fields of other events are left out even when set. */
	struct event ev = {
		.type = EVENT_OPPONENT_BACK,
		.seconds = 30,
		.text = "ignored",
	};
	size_t len;
	char *text;

	(void)state;
	text = protocol_encode(&ev, 0, &len);
	expect_str(text, "{\"type\":\"opponent_back\"}");
	expect_int(len, strlen("{\"type\":\"opponent_back\"}"));
	free(text);
}

static void does_not_encode_replaced(void **state)
{
	struct event ev = { .type = EVENT_REPLACED };
	size_t len = 12345;

	(void)state;
	assert_null(protocol_encode(&ev, 16, &len));
}

static void encode_puts_the_text_after_the_headroom(void **state)
{
	struct event ev = { .type = EVENT_PONG };
	static const char pong[] = "{\"type\":\"pong\"}";
	size_t headrooms[] = { 0, 1, 16, 4096 };
	size_t len;
	size_t i;
	char *buffer;

	(void)state;
	for (i = 0; i < sizeof(headrooms) / sizeof(headrooms[0]); i++) {
		buffer = protocol_encode(&ev, headrooms[i], &len);
		assert_non_null(buffer);
		expect_int(len, sizeof(pong) - 1);
		/* Writes the headroom too, for valgrind and ASan to see. */
		memset(buffer, 'h', headrooms[i]);
		assert_memory_equal(buffer + headrooms[i], pong, sizeof(pong));
		free(buffer);
	}
}

static void error_code_names_are_the_protocol_words(void **state)
{
	static const char *const names[ERR_COUNT] = {
		"",
		"bad_json",
		"bad_type",
		"bad_uid",
		"bad_name",
		"not_in_game",
		"not_your_turn",
		"out_of_range",
		"occupied",
		"bad_board",
		"game_over",
		"too_large",
		"rate_limited",
		"bad_mode",
		"bad_offer",
		"nothing_to_undo",
		"nothing_to_redo",
		"offer_pending",
		"no_offer",
		"too_soon",
		"unavailable",
	};
	int code;

	(void)state;
	for (code = 0; code < ERR_COUNT; code++)
		expect_str(error_code_name((enum error_code)code), names[code]);
}

static void refused_moves_map_to_their_error_codes(void **state)
{
	(void)state;
	expect_code(error_from_move_result(MOVE_OK), ERR_NONE);
	expect_code(error_from_move_result(MOVE_OUT_OF_RANGE),
		    ERR_OUT_OF_RANGE);
	expect_code(error_from_move_result(MOVE_OCCUPIED), ERR_OCCUPIED);
	expect_code(error_from_move_result(MOVE_NOT_YOUR_TURN),
		    ERR_NOT_YOUR_TURN);
	expect_code(error_from_move_result(MOVE_GAME_OVER), ERR_GAME_OVER);
	expect_code(error_from_move_result(MOVE_BAD_BOARD), ERR_BAD_BOARD);
}

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
		cmocka_unit_test(parses_a_move_with_integer_coordinates),
		cmocka_unit_test(
			parses_a_move_off_the_board_for_the_game_to_judge),
		cmocka_unit_test(parses_integral_numbers_written_as_decimals),
		cmocka_unit_test(parses_fields_in_any_order_among_unknown_ones),
		cmocka_unit_test(parses_a_board_of_the_old_client_size_16),
		cmocka_unit_test(
			parses_a_board_of_the_smallest_and_the_largest_size),
		cmocka_unit_test(parses_winner_whatever_its_fields),
		cmocka_unit_test(parses_ping),
		cmocka_unit_test(
			parses_moves_the_same_on_the_fast_path_and_through_cjson),
		cmocka_unit_test(parses_a_plain_move_without_allocating),
		cmocka_unit_test(parses_takeback_offers_answers_and_redo),
		cmocka_unit_test(refuses_offers_and_answers_of_the_wrong_shape),
		cmocka_unit_test(
			encodes_an_engine_opponent_with_ai_and_level_and_no_name),
		cmocka_unit_test(encodes_offer_and_answer_with_who),
		cmocka_unit_test(
			encodes_a_takeback_board_with_content_and_undo),
		cmocka_unit_test(reads_exactly_len_bytes_of_text),
		cmocka_unit_test(refuses_text_that_is_not_json),
		cmocka_unit_test(refuses_truncated_json),
		cmocka_unit_test(refuses_trailing_garbage_after_the_object),
		cmocka_unit_test(refuses_an_embedded_nul_byte),
		cmocka_unit_test(refuses_a_string_with_an_escaped_nul),
		cmocka_unit_test(refuses_json_that_is_not_an_object),
		cmocka_unit_test(refuses_a_missing_type_as_bad_type),
		cmocka_unit_test(
			refuses_a_type_that_is_not_a_string_as_bad_type),
		cmocka_unit_test(refuses_an_unknown_type_as_bad_type),
		cmocka_unit_test(refuses_a_move_without_x_or_y_as_bad_json),
		cmocka_unit_test(
			refuses_a_move_with_coordinates_that_are_not_numbers),
		cmocka_unit_test(
			refuses_a_fractional_coordinate_as_out_of_range),
		cmocka_unit_test(
			refuses_a_coordinate_beyond_int_as_out_of_range),
		cmocka_unit_test(
			refuses_a_board_with_the_wrong_number_of_cells),
		cmocka_unit_test(refuses_a_board_longer_than_the_largest_size),
		cmocka_unit_test(refuses_a_board_with_cells_of_unknown_value),
		cmocka_unit_test(
			refuses_a_board_with_cells_that_are_not_strings),
		cmocka_unit_test(refuses_a_board_without_a_content_array),
		cmocka_unit_test(refuses_a_board_with_a_missing_or_bad_role),
		cmocka_unit_test(
			encodes_welcome_with_uid_protocol_size_rule_version),
		cmocka_unit_test(encodes_waiting_and_pong_as_just_their_type),
		cmocka_unit_test(encodes_role_with_the_opponent_name),
		cmocka_unit_test(
			encodes_role_without_opponent_when_the_name_is_empty),
		cmocka_unit_test(
			encodes_board_before_any_move_with_front_to_move),
		cmocka_unit_test(
			encodes_board_with_content_next_side_move_and_count),
		cmocka_unit_test(
			encodes_board_after_a_win_with_the_other_side_next),
		cmocka_unit_test(encodes_winner_by_five_with_the_line),
		cmocka_unit_test(
			encodes_winner_by_full_board_or_forfeit_without_line),
		cmocka_unit_test(encodes_disconnect_with_its_text),
		cmocka_unit_test(
			encodes_error_with_code_and_message_for_every_code),
		cmocka_unit_test(encodes_opponent_away_with_its_seconds),
		cmocka_unit_test(encodes_opponent_back_as_just_its_type),
		cmocka_unit_test(does_not_encode_replaced),
		cmocka_unit_test(encode_puts_the_text_after_the_headroom),
		cmocka_unit_test(error_code_names_are_the_protocol_words),
		cmocka_unit_test(refused_moves_map_to_their_error_codes),
		cmocka_unit_test(check_uid_accepts_lower_case),
		cmocka_unit_test(
			check_uid_accepts_upper_and_mixed_case_and_lowers_it),
		cmocka_unit_test(check_uid_refuses_the_wrong_length),
		cmocka_unit_test(check_uid_refuses_a_character_that_is_not_hex),
		cmocka_unit_test(check_uid_refuses_dashes_in_the_wrong_places),
		cmocka_unit_test(format_uuid_sets_the_version_and_variant_bits),
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
