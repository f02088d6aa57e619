/*
 * journal.h - the lobby's facts on their way to the database, and the
 * messages about them held until they are saved.
 *
 * The hub hands every fact the lobby records to journal_record(), which
 * logs it and writes it (a move, a result, a takeback) into the store's
 * open batch. journal_commit() commits the batch once per event loop turn;
 * a message queued while a batch is open is held: its session takes
 * journal_batch() and a struct journal_hold, and writes the message once
 * journal_durable() says so: at the end of the turn, after the commit
 * (session_flush_all()), or, after the store failed, when the commit that
 * succeeds again wakes it (WRITEABLE).
 *
 * When the commit fails (a full disk) nothing held is told: the sessions
 * held then are flagged for an `unavailable` error (journal_hold_failed()),
 * journal_failing() is true (the hub pauses every game), and the commit is
 * tried again every JOURNAL_RETRY_MS until it succeeds. Games against the
 * engine are logged, not saved; without a store (NULL) every fact is only
 * logged and nothing is held.
 *
 * With --redis every fact also goes to a mirror (journal_set_mirror():
 * the site's Redis, server/redis_journal.c), whose writes are answered
 * later: a batch is durable once the store committed it and the mirror
 * answered every write of it; while the mirror is failing (Redis away)
 * the hub pauses the games as for a failing store.
 *
 * On the event loop's thread only.
 */
#ifndef GOMOKU_JOURNAL_H
#define GOMOKU_JOURNAL_H

#include <uv.h> /* before libwebsockets.h: it declares its libuv API then */

#include <libwebsockets.h>
#include <stdbool.h>
#include <stdint.h>

#include "lobby.h"
#include "metrics.h"
#include "store.h"

/* A failed commit is tried again this often. */
#define JOURNAL_RETRY_MS 1000

/* Opaque: one per server. */
struct journal;

/* One of these per session, embedded: its place among the held ones. */
struct journal_hold {
	struct lws_dll2 node; /* in the journal's held list while held */
	struct lws *wsi;      /* woken (WRITEABLE) when the batch commits */
	bool failed;	      /* a commit failed while held: tell the player */
};

/*
 * A journal writing to store (not owned; NULL: log only), with its retry
 * timer on loop, counting commits and failures in metrics. NULL on out of
 * memory.
 */
struct journal *journal_new(struct store *store, uv_loop_t *loop,
			    struct metrics *metrics);

/*
 * A second place every fact goes to (--redis: the site's Redis,
 * server/redis_journal.c), whose writes are answered later: record()
 * each fact; unsealed() while facts were recorded since the last seal();
 * seal(batch) closes them as batch; acked() is the last batch whose
 * writes were all answered; failing() while it cannot write; stored()
 * after each commit of the store (what it wrote can be read from it).
 */
struct journal_mirror {
	void (*record)(void *ctx, enum lobby_record type,
		       const struct lobby_room *room, int64_t started_unix_ms);
	bool (*unsealed)(const void *ctx);
	void (*seal)(void *ctx, uint64_t batch);
	uint64_t (*acked)(const void *ctx);
	bool (*failing)(const void *ctx);
	void (*stored)(void *ctx);
	void *ctx;
};

/*
 * Every fact also goes to mirror, and what is held waits for its
 * answers too.
 */
void journal_set_mirror(struct journal *journal, struct journal_mirror mirror);

/*
 * Closes the retry timer; the journal is freed once the loop has run it
 * closed. Nothing may be held any more. NULL is a no-op.
 */
void journal_free(struct journal *journal);

/*
 * The lobby recorded a fact about room (lobby_sink.record); now_ms is the
 * lobby's time of the step (it dates a game's start).
 */
void journal_record(struct journal *journal, enum lobby_record type,
		    const struct lobby_room *room, uint64_t now_ms);

/*
 * Commits the open batch, if any, and wakes every session held for it.
 * A failure is retried at the first call JOURNAL_RETRY_MS later (the
 * retry timer wakes the loop for it).
 */
void journal_commit(struct journal *journal);

/* True while the last commit failed: what games do cannot be saved. */
bool journal_failing(const struct journal *journal);

/* The batch a message queued now waits for; 0: none, send at once. */
uint64_t journal_batch(const struct journal *journal);

/* True once batch (from journal_batch()) is committed; always for 0. */
bool journal_durable(const struct journal *journal, uint64_t batch);

/* Holds wsi's session (hold is its own) until the next commit. */
void journal_hold(struct journal *journal, struct journal_hold *hold,
		  struct lws *wsi);

/* The session closes: no longer held. Harmless when not held. */
void journal_unhold(struct journal_hold *hold);

/* True once after a commit failed while hold was held (and clears it). */
bool journal_hold_failed(struct journal_hold *hold);

#endif
