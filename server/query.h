/*
 * query.h - one argument of a request's query string (?uid=...&name=...),
 * as libwebsockets parsed it: for the WebSocket upgrade (handshake.c) and
 * the HTTP routes (http.c).
 */
#ifndef GOMOKU_QUERY_H
#define GOMOKU_QUERY_H

#include <stddef.h>

#include <libwebsockets.h>

/*
 * Copies the value of query argument name ("uid") of wsi's request to
 * buf, still URL-escaped. Returns its length, -1 when absent, -2 when it
 * does not fit in size - 1 bytes. lws_get_urlarg_by_name() stops at the
 * first argument too long for its buffer, which would hide a later one,
 * so this walks the fragments itself.
 */
int query_arg(struct lws *wsi, const char *name, char *buf, size_t size);

#endif
