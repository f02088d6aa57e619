/*
 * json_check.h - a strict RFC 8259 check of a whole client message,
 * before cJSON reads it.
 *
 * cJSON is lenient where a hostile client can make use of it (leading
 * zeros, "1.", raw control characters in strings, \u escapes with junk
 * read as NUL, lone surrogates), and recursion depth is bounded here
 * (JSON_MAX_DEPTH containers).
 */
#ifndef GOMOKU_JSON_CHECK_H
#define GOMOKU_JSON_CHECK_H

#include <stddef.h>

/* NULL when text (len bytes) is one strict JSON object, else why not. */
const char *json_check_object(const char *text, size_t len);

#endif
