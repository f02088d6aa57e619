/*
 * test_protocol_parse.c - parsing client messages: every request type, the
 * fast path for plain moves (the same answer as cJSON's, no allocation),
 * and every refusal of the strict JSON check and of the fields.
 *
 * Over 600 lines because every field and every refusal has a test of its
 * own.
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
	expect_refused("{\"type\":\"offer\",\"what\":\"resign\"}",
		       ERR_BAD_OFFER);
	expect_refused("{\"type\":\"offer\",\"what\":\"\"}", ERR_BAD_OFFER);
	expect_refused("{\"type\":\"offer\",\"what\":\"Draw\"}", ERR_BAD_OFFER);
	expect_refused("{\"type\":\"offer\",\"what\":\"rematch \"}",
		       ERR_BAD_OFFER);
	expect_refused("{\"type\":\"offer\",\"what\":[\"draw\"]}",
		       ERR_BAD_OFFER);
	expect_refused("{\"type\":\"answer\",\"what\":\"undo\","
		       "\"accept\":true}",
		       ERR_BAD_OFFER);
	expect_refused("{\"type\":\"answer\",\"what\":\"draw\"}",
		       ERR_BAD_OFFER);
	expect_refused("{\"type\":\"answer\",\"what\":\"rematch\","
		       "\"accept\":null}",
		       ERR_BAD_OFFER);
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

static void parses_draw_and_rematch_offers_and_answers(void **state)
{
	static const struct {
		const char *word;
		enum offer_what what;
	} offers[] = {
		{ "takeback", OFFER_TAKEBACK },
		{ "draw", OFFER_DRAW },
		{ "rematch", OFFER_REMATCH },
	};
	char text[128];
	struct request req;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(offers) / sizeof(offers[0]); i++) {
		snprintf(text, sizeof(text),
			 "{\"type\":\"offer\",\"what\":\"%s\"}",
			 offers[i].word);
		expect_code(parse(text, &req), ERR_NONE);
		expect_int(req.type, REQUEST_OFFER);
		expect_int(req.what, offers[i].what);
		snprintf(text, sizeof(text),
			 "{\"what\":\"%s\",\"accept\":true,"
			 "\"type\":\"answer\"}",
			 offers[i].word);
		expect_code(parse(text, &req), ERR_NONE);
		expect_int(req.type, REQUEST_ANSWER);
		expect_int(req.what, offers[i].what);
		expect_int(req.accept, true);
		snprintf(text, sizeof(text),
			 "{\"type\":\"answer\",\"what\":\"%s\","
			 "\"accept\":false}",
			 offers[i].word);
		expect_code(parse(text, &req), ERR_NONE);
		expect_int(req.what, offers[i].what);
		expect_int(req.accept, false);
		expect_str(offer_what_name(offers[i].what), offers[i].word);
	}
}

static void parses_resign_and_abort_whatever_their_fields(void **state)
{
	struct request req;

	(void)state;
	expect_code(parse("{\"type\":\"resign\"}", &req), ERR_NONE);
	expect_int(req.type, REQUEST_RESIGN);
	expect_code(parse("{\"type\":\"abort\"}", &req), ERR_NONE);
	expect_int(req.type, REQUEST_ABORT);
	expect_code(parse("{\"why\":\"late\",\"type\":\"resign\"}", &req),
		    ERR_NONE);
	expect_int(req.type, REQUEST_RESIGN);
	expect_code(parse("{\"type\":\"abort\",\"x\":1}", &req), ERR_NONE);
	expect_int(req.type, REQUEST_ABORT);
	expect_str(protocol_request_name(REQUEST_RESIGN), "resign");
	expect_str(protocol_request_name(REQUEST_ABORT), "abort");
	expect_str(protocol_request_name(REQUEST_EMOTE), "emote");
}

static void parses_every_emote_of_the_list(void **state)
{
	static const char *const words[EMOTE_COUNT] = {
		"hello", "hurry", "nice", "wow", "oops", "thanks", "gg", "smug",
	};
	char text[128];
	struct request req;
	int i;

	(void)state;
	for (i = 0; i < EMOTE_COUNT; i++) {
		snprintf(text, sizeof(text),
			 "{\"type\":\"emote\",\"emote\":\"%s\"}", words[i]);
		expect_code(parse(text, &req), ERR_NONE);
		expect_int(req.type, REQUEST_EMOTE);
		expect_int(req.emote, i);
		expect_str(emote_name((enum emote)i), words[i]);
	}
	expect_code(parse("{\"emote\":\"smug\",\"type\":\"emote\","
			  "\"text\":\"ignored\"}",
			  &req),
		    ERR_NONE);
	expect_int(req.emote, EMOTE_SMUG);
}

static void refuses_a_missing_or_unknown_emote_as_bad_emote(void **state)
{
	(void)state;
	expect_refused("{\"type\":\"emote\"}", ERR_BAD_EMOTE);
	expect_refused("{\"type\":\"emote\",\"emote\":\"\"}", ERR_BAD_EMOTE);
	expect_refused("{\"type\":\"emote\",\"emote\":\"hi\"}", ERR_BAD_EMOTE);
	expect_refused("{\"type\":\"emote\",\"emote\":\"Hello\"}",
		       ERR_BAD_EMOTE);
	expect_refused("{\"type\":\"emote\",\"emote\":\"gg \"}", ERR_BAD_EMOTE);
	expect_refused("{\"type\":\"emote\",\"emote\":\"you lose\"}",
		       ERR_BAD_EMOTE);
	expect_refused("{\"type\":\"emote\",\"emote\":1}", ERR_BAD_EMOTE);
	expect_refused("{\"type\":\"emote\",\"emote\":null}", ERR_BAD_EMOTE);
	expect_refused("{\"type\":\"emote\",\"emote\":[\"gg\"]}",
		       ERR_BAD_EMOTE);
	expect_refused("{\"type\":\"emote\",\"text\":\"gg\"}", ERR_BAD_EMOTE);
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
	expect_refused("{\"type\":\"surrender\"}", ERR_BAD_TYPE);
	expect_refused("{\"type\":\"Resign\"}", ERR_BAD_TYPE);
	expect_refused("{\"type\":\"draw\"}", ERR_BAD_TYPE);
	expect_refused("{\"type\":\"rematch\"}", ERR_BAD_TYPE);
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
		cmocka_unit_test(parses_draw_and_rematch_offers_and_answers),
		cmocka_unit_test(parses_resign_and_abort_whatever_their_fields),
		cmocka_unit_test(parses_every_emote_of_the_list),
		cmocka_unit_test(
			refuses_a_missing_or_unknown_emote_as_bad_emote),
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
