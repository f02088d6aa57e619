/*
 * http.h - every plain HTTP request: the operations endpoints and the web
 * client's files, each answered whole from the request's own callback.
 *
 * One callback mount at "/" brings every request that is not a WebSocket
 * upgrade to the "gomoku-http" protocol, whose table routes it by path.
 * An answer (headers and body) is written in one go and the transaction
 * ends there, so that a request pipelined behind it on the same connection
 * is parsed only afterwards, and answered in order: libwebsockets 4.1.6
 * parses the next request as soon as the previous one was handed over,
 * and its own file serving answered a pipelined request with 403, an
 * answer sent from WRITEABLE with its headers twice and no body.
 *
 * A request that carries a body (the server takes none: only GET and
 * HEAD) is answered and its connection closed at once, lingering while the
 * body still comes (server/drain.c): libwebsockets would wait for a body
 * that drips in for ever, restarting its timeout with every piece.
 */
#ifndef GOMOKU_HTTP_H
#define GOMOKU_HTTP_H

#include <libwebsockets.h>
#include <stddef.h>

#define HTTP_PROTOCOL_NAME "gomoku-http"

/* The protocol's entry for the context's protocol table. */
extern const struct lws_protocols http_protocol;

#endif
