/*
 * utf8.h - strict UTF-8 decoding, for the JSON check and display names.
 */
#ifndef GOMOKU_UTF8_H
#define GOMOKU_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * Decodes the UTF-8 sequence at s (up to end) into *code_point. Returns its
 * length in bytes, or 0 when it is malformed: truncated, a stray
 * continuation byte, an overlong form, a surrogate or beyond U+10FFFF.
 */
size_t utf8_decode(const unsigned char *s, const unsigned char *end,
		   uint32_t *code_point);

#endif
