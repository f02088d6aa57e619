/*
 * ops_http.h - the operations endpoints: GET /healthz, GET /metrics,
 * GET /api/pools, /api/rooms, /api/games and /api/games/ID, each one
 * small document rendered from the server's counters, pools and rooms,
 * read from the store, or with --redis the site's (site_index.h). The
 * routes of server/http.c call them.
 */
#ifndef GOMOKU_OPS_HTTP_H
#define GOMOKU_OPS_HTTP_H

#include "http_answer.h"
#include "server.h"

/*
 * Each fills answer for a GET of path (the route's own path, or for
 * ops_http_game one under "/api/games/"). 0, or -ENOMEM.
 */
int ops_http_healthz(struct server *srv, const struct http_query *query,
		     struct http_answer *answer);
int ops_http_metrics(struct server *srv, const struct http_query *query,
		     struct http_answer *answer);
int ops_http_pools(struct server *srv, const struct http_query *query,
		   struct http_answer *answer);
int ops_http_rooms(struct server *srv, const struct http_query *query,
		   struct http_answer *answer);
int ops_http_games(struct server *srv, const struct http_query *query,
		   struct http_answer *answer);
int ops_http_game(struct server *srv, const struct http_query *query,
		  struct http_answer *answer);

/*
 * This instance's part of the site's index (site_snapshot_fn, ctx the
 * struct server): its live public rooms and its pools.
 */
char *ops_http_site_snapshot(void *ctx);

#endif
