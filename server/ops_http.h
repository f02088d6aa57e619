/*
 * ops_http.h - the operations endpoints: GET /healthz and GET /metrics.
 *
 * Both are lws callback mounts bound to the "gomoku-ops" protocol; each
 * answers with one small document rendered from the server's counters.
 */
#ifndef GOMOKU_OPS_HTTP_H
#define GOMOKU_OPS_HTTP_H

#include <libwebsockets.h>

#define OPS_HTTP_PROTOCOL_NAME "gomoku-ops"

/* The protocol's entry for the context's protocol table. */
extern const struct lws_protocols ops_http_protocol;

#endif
