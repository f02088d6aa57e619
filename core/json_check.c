/*
 * json_check.c - a strict RFC 8259 reading of a message, checking only.
 */
#include "json_check.h"

#include <stdbool.h>
#include <string.h>

#include "utf8.h"

/* Deeper nesting than any request needs is refused outright. */
#define JSON_MAX_DEPTH 32

/*
 * A strict RFC 8259 check of a whole message, before cJSON reads it:
 * cJSON is lenient where a hostile client can make use of it (leading
 * zeros, "1.", raw control characters in strings, \u escapes with junk
 * read as NUL, lone surrogates), and recursion depth is bounded here.
 */
struct json_cursor {
	const unsigned char *at;  /* next byte */
	const unsigned char *end; /* one past the last byte */
	int depth;		  /* containers open */
	bool too_deep;		  /* gave up on depth */
};

static void json_space(struct json_cursor *j)
{
	while (j->at < j->end && (*j->at == ' ' || *j->at == '\t' ||
				  *j->at == '\n' || *j->at == '\r'))
		j->at++;
}

static bool json_word(struct json_cursor *j, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(j->end - j->at) < n || memcmp(j->at, word, n))
		return false;
	j->at += n;
	return true;
}

/* The value of four hex digits at p, or -1. */
static int json_hex4(const unsigned char *p)
{
	int value = 0;

	for (int i = 0; i < 4; i++) {
		int c = p[i];

		value <<= 4;
		if (c >= '0' && c <= '9')
			value |= c - '0';
		else if (c >= 'a' && c <= 'f')
			value |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			value |= c - 'A' + 10;
		else
			return -1;
	}
	return value;
}

/* A \u escape at j->at (the backslash): no NUL, surrogates in pairs. */
static bool json_unicode_escape(struct json_cursor *j)
{
	int unit, low;

	if (j->end - j->at < 6 || (unit = json_hex4(j->at + 2)) <= 0)
		return false;
	j->at += 6;
	if (unit >= 0xdc00 && unit <= 0xdfff)
		return false;
	if (unit < 0xd800 || unit > 0xdbff)
		return true;
	if (j->end - j->at < 6 || j->at[0] != '\\' || j->at[1] != 'u')
		return false;
	low = json_hex4(j->at + 2);
	if (low < 0xdc00 || low > 0xdfff)
		return false;
	j->at += 6;
	return true;
}

static bool json_string(struct json_cursor *j)
{
	uint32_t code_point;

	j->at++; /* the opening quote */
	while (j->at < j->end) {
		unsigned char c = *j->at;
		size_t n;

		if (c == '"') {
			j->at++;
			return true;
		}
		if (c < 0x20)
			return false;
		if (c == '\\') {
			if (j->end - j->at < 2)
				return false;
			if (j->at[1] == 'u') {
				if (!json_unicode_escape(j))
					return false;
				continue;
			}
			if (!j->at[1] || !strchr("\"\\/bfnrt", j->at[1]))
				return false;
			j->at += 2;
			continue;
		}
		n = utf8_decode(j->at, j->end, &code_point);
		if (!n)
			return false;
		j->at += n;
	}
	return false;
}

static bool json_digits(struct json_cursor *j)
{
	const unsigned char *start = j->at;

	while (j->at < j->end && *j->at >= '0' && *j->at <= '9')
		j->at++;
	return j->at > start;
}

static bool json_number(struct json_cursor *j)
{
	if (j->at < j->end && *j->at == '-')
		j->at++;
	if (j->at < j->end && *j->at == '0')
		j->at++;
	else if (j->at >= j->end || *j->at < '1' || *j->at > '9' ||
		 !json_digits(j))
		return false;
	if (j->at < j->end && *j->at == '.') {
		j->at++;
		if (!json_digits(j))
			return false;
	}
	if (j->at < j->end && (*j->at == 'e' || *j->at == 'E')) {
		j->at++;
		if (j->at < j->end && (*j->at == '+' || *j->at == '-'))
			j->at++;
		if (!json_digits(j))
			return false;
	}
	return true;
}

static bool json_value(struct json_cursor *j);

/* An object or array at j->at, members and all. */
static bool json_container(struct json_cursor *j)
{
	bool object = *j->at == '{';
	unsigned char close = object ? '}' : ']';

	if (++j->depth > JSON_MAX_DEPTH) {
		j->too_deep = true;
		return false;
	}
	j->at++;
	json_space(j);
	if (j->at < j->end && *j->at == close) {
		j->at++;
		j->depth--;
		return true;
	}
	for (;;) {
		if (object) {
			json_space(j);
			if (j->at >= j->end || *j->at != '"' || !json_string(j))
				return false;
			json_space(j);
			if (j->at >= j->end || *j->at++ != ':')
				return false;
		}
		if (!json_value(j))
			return false;
		json_space(j);
		if (j->at >= j->end)
			return false;
		if (*j->at == ',') {
			j->at++;
			continue;
		}
		if (*j->at++ != close)
			return false;
		j->depth--;
		return true;
	}
}

static bool json_value(struct json_cursor *j)
{
	json_space(j);
	if (j->at >= j->end)
		return false;
	switch (*j->at) {
	case '{':
	case '[':
		return json_container(j);
	case '"':
		return json_string(j);
	case 't':
		return json_word(j, "true");
	case 'f':
		return json_word(j, "false");
	case 'n':
		return json_word(j, "null");
	default:
		return json_number(j);
	}
}

const char *json_check_object(const char *text, size_t len)
{
	struct json_cursor j = {
		.at = (const unsigned char *)text,
		.end = (const unsigned char *)text + len,
	};

	if (!json_value(&j))
		return j.too_deep ? "message is nested too deeply" :
				    "message is not valid JSON";
	json_space(&j);
	if (j.at != j.end)
		return "message is not valid JSON";
	j.at = (const unsigned char *)text;
	json_space(&j);
	if (*j.at != '{')
		return "message must be a JSON object";
	return NULL;
}
