/*
 * site_index.h - what /api/rooms, /api/pools and /api/games show of the
 * whole site (--redis), not of this instance only.
 *
 * Every SITE_INDEX_EVERY_MS, one script in the site's Redis:
 *
 *   - sets this instance's snapshot, gomoku:live:ID (its live public
 *     rooms and its pools, built by the snapshot callback), which lives
 *     SITE_INDEX_TTL_MS unless set again: a gone instance's drops out;
 *   - answers with every instance's snapshot (those of gomoku:lives) and
 *     the newest finished games of gomoku:ended (written with each
 *     game's end, server/redis_journal.c).
 *
 * The answer is merged into the view the routes read: the rooms of every
 * instance (once each, newest first), the pools with their waiting
 * players and games summed, the finished games newest first. An HTTP
 * request never waits for Redis; the view is at most a refresh old (and
 * the last one while Redis is away). Until the first answer there is no
 * view: the routes show this instance's own.
 *
 * The records of the finished games of that list (gomoku:record:ID,
 * written by their owners, server/redis_journal.c) are kept too, each
 * read once, after the refresh that listed it: /api/games/ID of a game
 * listed that ended on another instance answers from them.
 *
 * On the event loop's thread only.
 */
#ifndef GOMOKU_SITE_INDEX_H
#define GOMOKU_SITE_INDEX_H

#include <uv.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "redis_link.h"
#include "site_keys.h"

#define SITE_INDEX_EVERY_MS 1000 /* how often the view is refreshed */
#define SITE_INDEX_TTL_MS 5000	 /* an instance's snapshot without one */
#define SITE_INDEX_MOST 200	 /* rooms and finished games kept */

struct site_index;

/* The lists of the view. */
enum site_list {
	SITE_ROOMS, /* {"rooms":[...]} */
	SITE_POOLS, /* {"pools":[...]} */
	SITE_GAMES, /* {"games":[...]} */
};

/* The figures for /metrics. */
struct site_index_stats {
	bool ready;	    /* a view came */
	uint64_t age_ms;    /* since it came */
	uint64_t refreshes; /* answers merged */
	uint64_t failures;  /* refreshes that failed (Redis away, ...) */
	uint64_t instances; /* snapshots in the last answer */
	uint64_t records;   /* records of finished games kept */
};

/*
 * This instance's snapshot: {"rooms":[entries of /api/rooms, newest
 * first, at most SITE_INDEX_MOST], "pools":[entries of /api/pools, the
 * default pool first]}, as a malloc'd text, or NULL on out of memory.
 */
typedef char *(*site_snapshot_fn)(void *ctx);

/*
 * Refreshes the view of instance id's site through link (not owned) on
 * loop. NULL on out of memory.
 */
struct site_index *site_index_new(uv_loop_t *loop, struct redis_link *link,
				  const char *id, site_snapshot_fn snapshot,
				  void *ctx);

/* No more refreshes; this instance's snapshot is taken out (SIGTERM). */
void site_index_stop(struct site_index *si);

/* After the link is freed: frees si (its timer closes). NULL: no-op. */
void site_index_free(struct site_index *si);

/*
 * The document of list (its first limit entries; limit is ignored for
 * SITE_POOLS), a newline last, into *body (malloc'd) and *len: 0,
 * -ENOENT while there is no view yet, or -ENOMEM.
 */
int site_index_json(const struct site_index *si, enum site_list list, int limit,
		    char **body, size_t *len);

/*
 * The record (/api/games/ID) of finished game id if it is one of the
 * site's newest (its /api/games list): a malloc'd copy of *len bytes, or
 * NULL (none, or out of memory).
 */
char *site_index_record(const struct site_index *si, const char *id,
			size_t *len);

void site_index_stats(const struct site_index *si,
		      struct site_index_stats *out);

#endif
