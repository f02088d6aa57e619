/*
 * identity.c - uids and display names checked, room ids formatted.
 */
#include "identity.h"

#include <string.h>

#include "utf8.h"

/* The value of hex digit c, or -1. */
static int identity_hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Whether position i of a canonical UUID holds a dash. */
static bool identity_uuid_dash_at(int i)
{
	return i == 8 || i == 13 || i == 18 || i == 23;
}

bool identity_check_uid(const char *uid, char out[UID_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	char canonical[UID_LEN + 1];
	int value;
	int i;

	if (!uid)
		return false;
	/* Stops at the NUL of a short uid: it is neither dash nor digit. */
	for (i = 0; i < UID_LEN; i++) {
		if (identity_uuid_dash_at(i)) {
			if (uid[i] != '-')
				return false;
			canonical[i] = '-';
			continue;
		}
		value = identity_hex_value(uid[i]);
		if (value < 0)
			return false;
		canonical[i] = digits[value];
	}
	if (uid[UID_LEN] != '\0')
		return false;
	canonical[UID_LEN] = '\0';
	memcpy(out, canonical, sizeof(canonical));
	return true;
}

/* Writes uuid in canonical form, lower case. */
static void identity_format(const uint8_t uuid[16], char out[UID_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	int byte = 0;
	int i = 0;

	while (i < UID_LEN) {
		if (identity_uuid_dash_at(i)) {
			out[i++] = '-';
			continue;
		}
		out[i++] = digits[uuid[byte] >> 4];
		out[i++] = digits[uuid[byte] & 0x0f];
		byte++;
	}
	out[UID_LEN] = '\0';
}

void identity_format_uuid(const uint8_t bytes[16], char out[UID_LEN + 1])
{
	uint8_t uuid[16];

	memcpy(uuid, bytes, sizeof(uuid));
	uuid[6] = (uint8_t)((uuid[6] & 0x0f) | 0x40); /* version 4 */
	uuid[8] = (uint8_t)((uuid[8] & 0x3f) | 0x80); /* RFC 4122 variant */
	identity_format(uuid, out);
}

void identity_format_room_id(uint64_t order, const uint8_t bytes[16],
			     char out[UID_LEN + 1])
{
	uint8_t uuid[16];

	memcpy(uuid, bytes, sizeof(uuid));
	for (int i = 0; i < 6; i++)
		uuid[i] = (uint8_t)(order >> (40 - 8 * i));
	uuid[6] = (uint8_t)((uuid[6] & 0x0f) | 0x80); /* version 8 */
	uuid[8] = (uint8_t)((uuid[8] & 0x3f) | 0x80); /* RFC 9562 variant */
	identity_format(uuid, out);
}

/* C0 controls, DEL and C1 controls. */
static bool identity_is_control(uint32_t code_point)
{
	return code_point < 0x20 || (code_point >= 0x7f && code_point <= 0x9f);
}

bool identity_check_name(const char *name, char out[NAME_MAX_BYTES + 1])
{
	const unsigned char *start;
	const unsigned char *end;
	const unsigned char *s;
	uint32_t code_point;
	size_t length;
	int chars = 0;

	if (!name)
		return false;
	start = (const unsigned char *)name;
	while (*start == ' ')
		start++;
	end = start + strlen((const char *)start);
	while (end > start && end[-1] == ' ')
		end--;
	if (end == start)
		return false;

	for (s = start; s < end; s += length) {
		if (++chars > NAME_MAX_CHARS)
			return false;
		length = utf8_decode(s, end, &code_point);
		if (length == 0 || identity_is_control(code_point))
			return false;
	}
	/* At most NAME_MAX_CHARS sequences of at most 4 bytes each. */
	memcpy(out, start, (size_t)(end - start));
	out[end - start] = '\0';
	return true;
}

/* The base64url alphabet (RFC 4648 section 5). */
static const char identity_base64url[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

void identity_format_invite(const uint8_t bytes[INVITE_BYTES],
			    char out[INVITE_LEN + 1])
{
	int n = 0;

	for (int i = 0; i < INVITE_BYTES; i += 3) {
		uint32_t group = (uint32_t)bytes[i] << 16 |
				 (uint32_t)bytes[i + 1] << 8 | bytes[i + 2];

		for (int shift = 18; shift >= 0; shift -= 6)
			out[n++] = identity_base64url[(group >> shift) & 63];
	}
	out[n] = '\0';
}

bool identity_check_invite(const char *text)
{
	size_t len = strlen(text);

	return len == INVITE_LEN &&
	       strspn(text, identity_base64url) == INVITE_LEN;
}
