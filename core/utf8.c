/*
 * utf8.c - one UTF-8 sequence decoded, strictly.
 */
#include "utf8.h"

size_t utf8_decode(const unsigned char *s, const unsigned char *end,
		   uint32_t *code_point)
{
	uint32_t value;
	uint32_t min;
	size_t length;
	size_t i;

	if (s[0] < 0x80) {
		*code_point = s[0];
		return 1;
	} else if ((s[0] & 0xe0) == 0xc0) {
		length = 2;
		min = 0x80;
		value = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		length = 3;
		min = 0x800;
		value = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		length = 4;
		min = 0x10000;
		value = s[0] & 0x07;
	} else {
		return 0;
	}
	if ((size_t)(end - s) < length)
		return 0;
	for (i = 1; i < length; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		value = (value << 6) | (s[i] & 0x3f);
	}
	if (value < min || value > 0x10ffff ||
	    (value >= 0xd800 && value <= 0xdfff))
		return 0;
	*code_point = value;
	return length;
}
