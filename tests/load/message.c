/*
 * message.c - scans the few fields of a server message (see message.h).
 */
#include "message.h"

#include <string.h>

#define KEY_MAX 16 /* longest key compared, with its NUL */
#define DEPTH_MAX 64

/* One of these per scan: a cursor over the text. */
struct scanner {
	const char *at;	 /* next character */
	const char *end; /* one past the last */
};

static void scanner_skip_space(struct scanner *s)
{
	while (s->at < s->end && (*s->at == ' ' || *s->at == '\t' ||
				  *s->at == '\n' || *s->at == '\r'))
		s->at++;
}

/* Consumes c (after white space); -1 when something else is there. */
static int scanner_expect(struct scanner *s, char c)
{
	scanner_skip_space(s);
	if (s->at >= s->end || *s->at != c)
		return -1;
	s->at++;
	return 0;
}

/*
 * Reads a string at the cursor into out (truncated to out_size - 1 bytes;
 * escapes are kept as the escaped character, \uXXXX as-is).
 */
static int scanner_string(struct scanner *s, char *out, size_t out_size)
{
	size_t used = 0;

	if (scanner_expect(s, '"'))
		return -1;
	while (s->at < s->end && *s->at != '"') {
		char c = *s->at++;

		if (c == '\\') {
			if (s->at >= s->end)
				return -1;
			c = *s->at++;
		}
		if (out && used + 1 < out_size)
			out[used++] = c;
	}
	if (s->at >= s->end)
		return -1;
	s->at++;
	if (out && out_size)
		out[used] = '\0';
	return 0;
}

/* Skips one value of any kind, nested ones without looking inside. */
static int scanner_skip_value(struct scanner *s)
{
	int depth = 0;

	scanner_skip_space(s);
	do {
		if (s->at >= s->end)
			return -1;
		switch (*s->at) {
		case '"':
			if (scanner_string(s, NULL, 0))
				return -1;
			continue;
		case '{':
		case '[':
			if (++depth > DEPTH_MAX)
				return -1;
			break;
		case '}':
		case ']':
			if (--depth < 0)
				return -1;
			break;
		case ',':
		case ':':
			if (!depth)
				return -1;
			break;
		default:
			/* A number, a literal or white space. */
			if (!depth) {
				while (s->at < s->end && *s->at != ',' &&
				       *s->at != '}' && *s->at != ']' &&
				       *s->at != ' ')
					s->at++;
				return 0;
			}
			break;
		}
		s->at++;
	} while (depth);
	return 0;
}

/* Reads a JSON number as a long, dropping any fraction or exponent. */
static int scanner_long(struct scanner *s, long *out)
{
	const char *start;
	long value = 0;
	bool negative = false;

	scanner_skip_space(s);
	if (s->at < s->end && *s->at == '-') {
		negative = true;
		s->at++;
	}
	start = s->at;
	while (s->at < s->end && *s->at >= '0' && *s->at <= '9') {
		if (value < 100000000000L)
			value = value * 10 + (*s->at - '0');
		s->at++;
	}
	if (s->at == start)
		return -1;
	while (s->at < s->end &&
	       (*s->at == '.' || *s->at == 'e' || *s->at == 'E' ||
		*s->at == '+' || *s->at == '-' ||
		(*s->at >= '0' && *s->at <= '9')))
		s->at++;
	*out = negative ? -value : value;
	return 0;
}

/* A value that should be a number: read it, or skip what is there. */
static int scanner_number_field(struct scanner *s, long *out)
{
	scanner_skip_space(s);
	if (s->at < s->end &&
	    (*s->at == '-' || (*s->at >= '0' && *s->at <= '9')))
		return scanner_long(s, out);
	return scanner_skip_value(s);
}

static enum side side_parse(const char *name)
{
	if (!strcmp(name, "front"))
		return SIDE_FRONT;
	if (!strcmp(name, "back"))
		return SIDE_BACK;
	if (!strcmp(name, "draw"))
		return SIDE_DRAW;
	return SIDE_NONE;
}

/* A value that should be a short string: read it, or skip what is there. */
static int scanner_string_field(struct scanner *s, char *out, size_t out_size)
{
	scanner_skip_space(s);
	if (s->at < s->end && *s->at == '"')
		return scanner_string(s, out, out_size);
	out[0] = '\0';
	return scanner_skip_value(s);
}

static int scanner_side_field(struct scanner *s, enum side *out)
{
	char name[8];

	if (scanner_string_field(s, name, sizeof(name)))
		return -1;
	*out = side_parse(name);
	return 0;
}

static enum message_type message_type_parse(const char *name)
{
	static const struct {
		const char *name;
		enum message_type type;
	} types[] = {
		{ "board", MESSAGE_BOARD },
		{ "role", MESSAGE_ROLE },
		{ "winner", MESSAGE_WINNER },
		{ "welcome", MESSAGE_WELCOME },
		{ "waiting", MESSAGE_WAITING },
		{ "disconnect", MESSAGE_DISCONNECT },
		{ "error", MESSAGE_ERROR },
		{ "pong", MESSAGE_PONG },
		{ "opponent_away", MESSAGE_OPPONENT_AWAY },
		{ "opponent_back", MESSAGE_OPPONENT_BACK },
		{ "spectate", MESSAGE_SPECTATE },
		{ "offer", MESSAGE_OFFER },
	};
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(*types); i++)
		if (!strcmp(name, types[i].name))
			return types[i].type;
	return MESSAGE_OTHER;
}

/*
 * Walks the members of the object at the cursor, calling member() with
 * each key and the cursor on its value; member() must consume the value.
 */
static int scanner_object(struct scanner *s, struct message *msg,
			  int (*member)(struct scanner *, struct message *,
					const char *key))
{
	char key[KEY_MAX];

	if (scanner_expect(s, '{'))
		return -1;
	scanner_skip_space(s);
	if (s->at < s->end && *s->at == '}') {
		s->at++;
		return 0;
	}
	for (;;) {
		if (scanner_string(s, key, sizeof(key)) ||
		    scanner_expect(s, ':') || member(s, msg, key))
			return -1;
		scanner_skip_space(s);
		if (s->at >= s->end)
			return -1;
		if (*s->at == '}') {
			s->at++;
			return 0;
		}
		if (*s->at++ != ',')
			return -1;
	}
}

/* One member of a `move` object. */
static int message_move_member(struct scanner *s, struct message *msg,
			       const char *key)
{
	long value;

	if (!strcmp(key, "x") || !strcmp(key, "y")) {
		value = -1;
		if (scanner_number_field(s, &value))
			return -1;
		if (key[0] == 'x')
			msg->move_x = (int)value;
		else
			msg->move_y = (int)value;
		return 0;
	}
	if (!strcmp(key, "role"))
		return scanner_side_field(s, &msg->move_role);
	return scanner_skip_value(s);
}

/* One member of the message object. */
static int message_member(struct scanner *s, struct message *msg,
			  const char *key)
{
	char type[16];

	switch (key[0]) {
	case 't':
		if (strcmp(key, "type"))
			break;
		if (scanner_string_field(s, type, sizeof(type)))
			return -1;
		msg->type = message_type_parse(type);
		return 0;
	case 'r':
		if (!strcmp(key, "role"))
			return scanner_side_field(s, &msg->role);
		if (!strcmp(key, "room"))
			return scanner_string_field(s, msg->room,
						    sizeof(msg->room));
		break;
	case 'm':
		if (!strcmp(key, "moves"))
			return scanner_number_field(s, &msg->moves);
		if (strcmp(key, "move"))
			break;
		scanner_skip_space(s);
		if (s->at >= s->end || *s->at != '{')
			return scanner_skip_value(s);
		msg->has_move = true;
		return scanner_object(s, msg, message_move_member);
	case 'w':
		if (!strcmp(key, "winner"))
			return scanner_side_field(s, &msg->winner);
		break;
	case 'c':
		if (!strcmp(key, "code"))
			return scanner_string_field(s, msg->code,
						    sizeof(msg->code));
		if (!strcmp(key, "content"))
			msg->has_content = true;
		break;
	case 's':
		if (!strcmp(key, "size")) {
			long size = 0;

			if (scanner_number_field(s, &size))
				return -1;
			msg->size = size > 0 && size < 1000 ? (int)size : 0;
			return 0;
		}
		break;
	}
	return scanner_skip_value(s);
}

int message_scan(struct message *msg, const char *text, size_t len)
{
	struct scanner s = { .at = text, .end = text + len };

	memset(msg, 0, sizeof(*msg));
	msg->moves = -1;
	msg->move_x = -1;
	msg->move_y = -1;
	return scanner_object(&s, msg, message_member);
}

const char *side_name(enum side side)
{
	switch (side) {
	case SIDE_FRONT:
		return "front";
	case SIDE_BACK:
		return "back";
	case SIDE_DRAW:
		return "draw";
	case SIDE_NONE:
		break;
	}
	return "none";
}

long message_boards_missed(long last, long moves)
{
	if (last < 0 || moves < 0 || moves == last + 1)
		return 0;
	return moves > last + 1 ? moves - last - 1 : 1;
}
