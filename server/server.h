/*
 * server.h - what the server's modules share: one struct server per
 * process, reachable from every libwebsockets callback as the context's
 * user.
 *
 * Only what several modules use lives here; what one module uses is that
 * module's own (the sessions' list in their per-vhost data, the
 * admission's address table, the journal's held sessions, main's signal
 * handles). The event loop's thread owns it all; the engine's search
 * threads touch none of it (server/ai.c hands them copies).
 */
#ifndef GOMOKU_SERVER_H
#define GOMOKU_SERVER_H

#include <uv.h> /* before libwebsockets.h: it declares its libuv API then */

#include <libwebsockets.h>
#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "drain.h"
#include "hub.h"
#include "instance.h"
#include "journal.h"
#include "listen.h"
#include "metrics.h"
#include "store.h"

#define SERVER_VHOST_NAME "gomoku" /* the one vhost */

struct admission;
struct cluster;
struct per_vhost_data__gomoku;
struct redis_journal;
struct site_index;
struct takeover;

/* One of these per process. */
struct server {
	struct server_config config;  /* settings */
	struct listen_address listen; /* where it listens */
	uv_loop_t loop;		      /* the one event loop, lws' too */
	struct lws_context *context;  /* NULL once destroyed */
	struct hub hub;		      /* players and rooms */
	struct store *store;	      /* the games database */
	struct journal *journal;      /* the hub's facts, on to the store */
	struct admission *admission;  /* connections taken or refused */
	struct drain *drain;	      /* closed sockets still read */
	struct metrics metrics;	      /* counters for /metrics */
	struct redis_link *redis;     /* the site's Redis; NULL without
				       * --redis */
	struct instance *instance;    /* this instance's lease there; NULL
				       * without --redis */
	struct cluster *cluster;      /* the site's routing; NULL without
				       * --redis, and once freed at stop */
	struct redis_journal *redis_journal;	 /* the live games in Redis;
					      * NULL as cluster */
	struct takeover *takeover;		 /* gone instances' rooms; NULL
					      * as cluster */
	struct site_index *site_index;		 /* the site's lists; NULL
					      * as cluster */
	char instance_id[INSTANCE_ID_MAX + 1];	 /* --instance-id, or a
						* random one */
	struct per_vhost_data__gomoku *sessions; /* session.c's, from lws'
						  * PROTOCOL_INIT to _DESTROY */
	uint64_t started_ms;			 /* monotonic clock at start */
	bool shutting_down;			 /* SIGTERM/SIGINT seen */
};

/* The server of the context wsi belongs to. */
static inline struct server *server_of(struct lws *wsi)
{
	return lws_context_user(lws_get_context(wsi));
}

#endif
