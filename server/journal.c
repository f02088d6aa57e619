/*
 * journal.c - the lobby's facts logged and written to the store's batch;
 * the batch committed once per loop turn; the sessions whose messages
 * wait for it told when it failed, and woken once it is durable again.
 */
#include "journal.h"

#include <errno.h>
#include <stdlib.h>

#include "clock.h"
#include "log.h"

/* One of these per server. */
struct journal {
	struct store *store;	      /* not owned; NULL: log only */
	uv_loop_t *loop;	      /* the server's */
	struct metrics *metrics;      /* the server's */
	struct journal_mirror mirror; /* record NULL: none */
	struct lws_dll2_owner held;   /* the journal_hold of every session
				     * with messages waiting for a commit */
	uint64_t sealed;	      /* the last batch closed by a commit */
	uint64_t store_done;	      /* the last batch the store has */
	uv_timer_t retry_timer;	      /* wakes the loop for a retry */
	uint64_t retry_ms;	      /* uv_now() of that retry */
};

struct journal *journal_new(struct store *store, uv_loop_t *loop,
			    struct metrics *metrics)
{
	struct journal *journal = calloc(1, sizeof(*journal));

	if (!journal)
		return NULL;
	journal->store = store;
	journal->loop = loop;
	journal->metrics = metrics;
	uv_timer_init(loop, &journal->retry_timer);
	return journal;
}

static void journal_on_closed(uv_handle_t *handle)
{
	free(handle->data);
}

void journal_free(struct journal *journal)
{
	if (!journal)
		return;
	journal->retry_timer.data = journal;
	uv_close((uv_handle_t *)&journal->retry_timer, journal_on_closed);
}

/* Games against the engine are only logged. */
static void journal_record_engine_room(enum lobby_record type,
				       const struct lobby_room *room)
{
	if (type != RECORD_ROOM_OPENED)
		return;
	log_info("engine match room=" LOG_ROOM " uid=" LOG_ID " level=%s",
		 room->id,
		 LOG_ID_ARG(room->seats[role_other(room->ai_role)]->uid),
		 engine_level_name(room->seats[room->ai_role]->level));
}

void journal_set_mirror(struct journal *journal, struct journal_mirror mirror)
{
	journal->mirror = mirror;
}

/* True when the mirror has facts not sealed into a batch yet. */
static bool journal_mirror_unsealed(const struct journal *journal)
{
	return journal->mirror.record &&
	       journal->mirror.unsealed(journal->mirror.ctx);
}

/* The wall clock's time when room opened, now_ms being the lobby's now. */
static int64_t journal_started(const struct lobby_room *room, uint64_t now_ms)
{
	return clock_unix_ms() - (int64_t)(now_ms - room->opened_ms);
}

void journal_record(struct journal *journal, enum lobby_record type,
		    const struct lobby_room *room, uint64_t now_ms)
{
	const struct game *game = &room->game;
	struct store *store = journal->store;
	int err = 0;

	if (journal->mirror.record)
		journal->mirror.record(journal->mirror.ctx, type, room,
				       journal_started(room, now_ms));
	if (room->ai_role != ROLE_NONE) {
		journal_record_engine_room(type, room);
		return;
	}
	switch (type) {
	case RECORD_ROOM_OPENED:
		/* journalled with its first move: a game of none leaves none */
		log_info("match room=" LOG_ROOM " front=" LOG_ID
			 " back=" LOG_ID,
			 room->id, LOG_ID_ARG(room->seats[ROLE_FRONT]->uid),
			 LOG_ID_ARG(room->seats[ROLE_BACK]->uid));
		break;
	case RECORD_MOVE:
		if (store)
			err = store_move(store, room,
					 journal_started(room, now_ms));
		break;
	case RECORD_GAME_OVER:
		log_info("game over room=" LOG_ROOM
			 " winner=%s reason=%s moves=%d",
			 room->id, game_winner_name(game->winner),
			 game_reason_name(game->reason), game->moves_played);
		if (store)
			err = store_game_over(store, room, clock_unix_ms());
		break;
	case RECORD_TAKEBACK:
		log_info("takeback room=" LOG_ROOM " moves=%d", room->id,
			 game->moves_played);
		if (store)
			err = store_takeback(store, room);
		break;
	case RECORD_ROOM_CLOSED:
		if (store)
			store_forget(store, room);
		break;
	}
	if (err)
		journal->metrics->store_errors++;
}

/* The retry timer only wakes the loop: the next commit is the retry. */
static void journal_on_retry(uv_timer_t *timer)
{
	(void)timer;
}

/*
 * The store could not commit: nothing held is told, and the sessions
 * held when the failures began are flagged to say why.
 */
static void journal_failed(struct journal *journal, bool was_failing)
{
	journal->metrics->store_errors++;
	journal->retry_ms = uv_now(journal->loop) + JOURNAL_RETRY_MS;
	uv_timer_start(&journal->retry_timer, journal_on_retry,
		       JOURNAL_RETRY_MS, 0);
	if (was_failing)
		return;
	lws_start_foreach_dll(struct lws_dll2 *, d,
			      lws_dll2_get_head(&journal->held)) {
		struct journal_hold *hold =
			lws_container_of(d, struct journal_hold, node);

		hold->failed = true;
		lws_callback_on_writable(hold->wsi);
	}
	lws_end_foreach_dll(d);
}

void journal_commit(struct journal *journal)
{
	struct store *store = journal->store;
	bool store_pending = store && store_batch_pending(store);
	bool mirror_pending = journal_mirror_unsealed(journal);
	bool was_failing;

	if (!store_pending && !mirror_pending)
		return;
	journal->sealed++;
	if (mirror_pending)
		journal->mirror.seal(journal->mirror.ctx, journal->sealed);
	if (!store_pending) {
		journal->store_done = journal->sealed;
		return;
	}
	was_failing = store_failing(store);
	if (was_failing && uv_now(journal->loop) < journal->retry_ms)
		return; /* the retry timer comes back for it */
	if (store_commit(store)) {
		journal_failed(journal, was_failing);
		return;
	}
	journal->store_done = journal->sealed;
	journal->metrics->store_commits++;
	if (journal->mirror.stored)
		journal->mirror.stored(journal->mirror.ctx);
	/*
	 * What was held is now durable: the sessions write it at the end of
	 * this turn (session_flush_all()). Those told `unavailable` while
	 * the store was failing went the WRITEABLE way: wake them.
	 */
	lws_start_foreach_dll_safe(struct lws_dll2 *, d, d1,
				   lws_dll2_get_head(&journal->held)) {
		struct journal_hold *hold =
			lws_container_of(d, struct journal_hold, node);

		lws_dll2_remove(d);
		if (was_failing)
			lws_callback_on_writable(hold->wsi);
	}
	lws_end_foreach_dll_safe(d, d1);
}

bool journal_failing(const struct journal *journal)
{
	return (journal->store && store_failing(journal->store)) ||
	       (journal->mirror.record &&
		journal->mirror.failing(journal->mirror.ctx));
}

uint64_t journal_batch(const struct journal *journal)
{
	if ((!journal->store || !store_batch_pending(journal->store)) &&
	    !journal_mirror_unsealed(journal))
		return 0;
	return journal->sealed + 1;
}

bool journal_durable(const struct journal *journal, uint64_t batch)
{
	return batch <= journal->store_done &&
	       (!journal->mirror.record ||
		batch <= journal->mirror.acked(journal->mirror.ctx));
}

void journal_hold(struct journal *journal, struct journal_hold *hold,
		  struct lws *wsi)
{
	hold->wsi = wsi;
	if (lws_dll2_is_detached(&hold->node))
		lws_dll2_add_tail(&hold->node, &journal->held);
}

void journal_unhold(struct journal_hold *hold)
{
	lws_dll2_remove(&hold->node);
}

bool journal_hold_failed(struct journal_hold *hold)
{
	bool failed = hold->failed;

	hold->failed = false;
	return failed;
}
