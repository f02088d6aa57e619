/*
 * takeover.h - the rooms of an instance that is gone, taken over by this
 * one (--redis): once a process's lease has lapsed (killed, cut off) or
 * was given back (SIGTERM), its games are seated again here from their
 * streams in Redis (redis_journal.h), and their players resume them from
 * whichever instance they reconnect to.
 *
 * Every second, while this instance holds its lease and its link to
 * Redis has been up for a lease and REDIS_LINK_BACK_WITHIN_MS (so that
 * after Redis came back, every live instance had the time to connect
 * again and take its own lease again, before any is counted gone), one
 * script claims up to TAKEOVER_BATCH rooms of the owner sets
 * (gomoku:owned:INSTANCE:TOKEN) whose process no longer holds its lease:
 * each room's record becomes this instance's at one epoch more (the old
 * owner's writes are refused from then on), its players' seat records
 * point here, the room moves to this process's set, and the script
 * answers with the rooms' streams. Being one script, two instances never
 * claim the same room. Each game is then seated again as a restart seats
 * it (lobby_restore(): both players away for the reconnect grace; a
 * timed game's clocks as they were after its last move, the time between
 * charged to nobody), and the SQLite journal gets the game whole.
 *
 * On the event loop's thread only.
 */
#ifndef GOMOKU_TAKEOVER_H
#define GOMOKU_TAKEOVER_H

#include <uv.h>

#include <stdbool.h>
#include <stdint.h>

#include "hub.h"
#include "instance.h"
#include "redis_journal.h"
#include "redis_link.h"
#include "store.h"

#define TAKEOVER_EVERY_MS 1000 /* how often gone owners are looked for */
#define TAKEOVER_BATCH 32      /* rooms claimed at most at once */

struct takeover;

/* The figures for /metrics. */
struct takeover_stats {
	uint64_t rooms;	 /* rooms taken over and seated here */
	uint64_t failed; /* rooms claimed that could not be seated */
};

/*
 * Takes rooms over for instance inst (its id and lease), through link,
 * into hub's lobby, journalling them with rj and store (may be NULL);
 * all not owned. lease_ms: the instances' lease. NULL on out of memory.
 */
struct takeover *takeover_new(uv_loop_t *loop, struct redis_link *link,
			      struct instance *inst, struct redis_journal *rj,
			      struct hub *hub, struct store *store,
			      uint64_t lease_ms);

/*
 * claimed(ctx) after each claim's answer, its rooms seated (the cluster
 * then takes the players who asked for them meanwhile).
 */
void takeover_on_claimed(struct takeover *tk, void (*claimed)(void *ctx),
			 void *ctx);

/* True while a claim is in flight (tk: a struct takeover). */
bool takeover_claiming(const void *tk);

/* SIGTERM: nothing more is claimed or seated. */
void takeover_stop(struct takeover *tk);

/* After redis_link_free(). NULL is a no-op. */
void takeover_free(struct takeover *tk);

void takeover_stats(const struct takeover *tk, struct takeover_stats *out);

#endif
