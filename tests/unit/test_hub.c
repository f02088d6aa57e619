/*
 * test_hub.c - server/hub.c on a real libuv loop: every entry point is a
 * step that ends itself (the deadlines armed on the hub's timer, the
 * messages encoded once for a room let go), the engine's hooks, a stopped
 * hub, and the journal committed through hub_commit() into a real SQLite
 * store. The sessions are a fake sink that keeps every message the hub
 * encoded; the randomness is a counter.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "hub.h"
#include "log.h"
#include "expect.h"

#define MAX_DELIVERIES 256
#define CONNS 4

/* The deadlines of the tests that wait for the hub's timer. */
#define SHORT_MS 20

/* One message the hub delivered. */
struct delivery {
	void *conn;		/* to whom */
	enum event_type type;	/* what */
	enum role role;		/* ROLE: the receiver's side */
	bool engine_opponent;	/* ROLE: against the engine */
	char room[UID_LEN + 1]; /* ROLE: the room */
	struct outbuf *buf;	/* hub_encode()'s, a reference kept */
};

/* One of these per test. */
struct fixture {
	uv_loop_t loop;
	struct hub hub;		 /* under test */
	struct journal *journal; /* the hub's */
	struct store *store;	 /* NULL, or a database in dir */
	char dir[64];		 /* the store's directory */
	struct metrics metrics;	 /* the journal's counters */
	struct delivery deliveries[MAX_DELIVERIES];
	size_t count;		       /* deliveries used */
	char conns[CONNS];	       /* &conns[i] is connection i */
	void *compact_conn;	       /* the one that asked for compact */
	uint8_t random_next;	       /* the next random byte */
	int thinks;		       /* engine think calls */
	struct lobby_ai_ticket ticket; /* the last think's ticket */
	int rooms_closed;	       /* engine room_closed calls */
};

static const char *const uids[CONNS] = {
	"00000000-0000-4000-8000-000000000000",
	"11111111-1111-4111-8111-111111111111",
	"22222222-2222-4222-8222-222222222222",
	"33333333-3333-4333-8333-333333333333",
};

static void fake_deliver(void *ctx, void *conn, const struct event *ev)
{
	struct fixture *f = ctx;
	struct delivery *d;

	if (f->count == MAX_DELIVERIES)
		fail_msg("more than %d deliveries", MAX_DELIVERIES);
	d = &f->deliveries[f->count++];
	memset(d, 0, sizeof(*d));
	d->conn = conn;
	d->type = ev->type;
	d->role = ev->role;
	d->engine_opponent = ev->ai_level != NULL;
	if (ev->room_id)
		snprintf(d->room, sizeof(d->room), "%s", ev->room_id);
	if (ev->type != EVENT_REPLACED) {
		d->buf = hub_encode(&f->hub, ev, conn == f->compact_conn);
		if (!d->buf)
			fail_msg("the hub could not encode a %s",
				 protocol_event_name(ev->type));
	}
}

static void fake_think(void *ctx, struct lobby_room *room)
{
	struct fixture *f = ctx;

	f->thinks++;
	lobby_ai_ticket(room, &f->ticket);
}

static void fake_room_closed(void *ctx, const struct lobby_room *room)
{
	struct fixture *f = ctx;

	(void)room;
	f->rooms_closed++;
}

static void counter_random(void *ctx, void *buf, size_t len)
{
	struct fixture *f = ctx;
	uint8_t *out = buf;

	while (len--)
		*out++ = f->random_next++;
}

static struct fixture *fixture_new(uint64_t grace_ms, uint64_t fill_ms,
				   bool with_store)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct lobby_config config = {
		.board_size = 15,
		.rule = RULE_FREESTYLE,
		.full_board = FULL_BOARD_BACK,
		.reconnect_grace_ms = grace_ms,
		.ai_fill_after_ms = fill_ms,
		.ai_fill_level = ENGINE_EASY,
		.max_spectators = 10,
	};
	char err[256] = "";
	char path[96];

	assert_non_null(f);
	expect_int(uv_loop_init(&f->loop), 0);
	if (with_store) {
		snprintf(f->dir, sizeof(f->dir), "/tmp/test_hub.XXXXXX");
		assert_non_null(mkdtemp(f->dir));
		snprintf(path, sizeof(path), "%s/games.db", f->dir);
		f->store = store_open(path, 0, err, sizeof(err));
		if (!f->store)
			fail_msg("store_open: %s", err);
	}
	f->journal = journal_new(f->store, &f->loop, &f->metrics);
	assert_non_null(f->journal);
	expect_int(hub_init(&f->hub, &f->loop, &config,
			    (struct lobby_random){ counter_random, f },
			    f->journal, (struct hub_sink){ fake_deliver, f },
			    NULL),
		   0);
	hub_set_engine(&f->hub,
		       (struct hub_engine){ fake_think, fake_room_closed, f });
	return f;
}

/* Stops the hub, lets the loop close every handle, frees everything. */
static void fixture_free(struct fixture *f)
{
	char path[96];

	hub_stop(&f->hub);
	journal_free(f->journal);
	uv_run(&f->loop, UV_RUN_DEFAULT);
	expect_int(uv_loop_close(&f->loop), 0);
	hub_release(&f->hub);
	for (size_t i = 0; i < f->count; i++)
		if (f->deliveries[i].buf)
			outbuf_put(f->deliveries[i].buf);
	if (f->store) {
		store_close(f->store);
		snprintf(path, sizeof(path), "%s/games.db", f->dir);
		unlink(path);
		snprintf(path, sizeof(path), "%s/games.db-wal", f->dir);
		unlink(path);
		snprintf(path, sizeof(path), "%s/games.db-shm", f->dir);
		unlink(path);
		rmdir(f->dir);
	}
	outbuf_pool_release();
	free(f);
}

static void *conn(struct fixture *f, int i)
{
	return &f->conns[i];
}

static struct lobby_player *connect_player(struct fixture *f, int i)
{
	struct lobby_join join = { .uid = uids[i], .name = "" };
	struct lobby_player *player = hub_connect(&f->hub, &join, conn(f, i));

	if (!player)
		fail_msg("player %d could not connect", i);
	return player;
}

/* The payload of delivery d as a string (it is NUL-terminated). */
static const char *text_of(const struct delivery *d)
{
	return outbuf_payload(d->buf);
}

/* Fails unless delivery i went to connection c with type. */
#define expect_delivery(f, i, c, want_type)                                    \
	do {                                                                   \
		size_t i_ = (i);                                               \
		if (i_ >= (f)->count)                                          \
			fail_msg("expected a %s as delivery %zu, got only "    \
				 "%zu",                                        \
				 protocol_event_name(want_type), i_,           \
				 (f)->count);                                  \
		if ((f)->deliveries[i_].conn != conn((f), (c)) ||              \
		    (f)->deliveries[i_].type != (want_type))                   \
			fail_msg(                                              \
				"delivery %zu: expected %s to %d, got %s "     \
				"to %ld",                                      \
				i_, protocol_event_name(want_type), (c),       \
				protocol_event_name((f)->deliveries[i_].type), \
				(long)((char *)(f)->deliveries[i_].conn -      \
				       (f)->conns));                           \
	} while (0)

/* Pairs players 0 and 1; returns the index of the front player. */
static int pair(struct fixture *f, struct lobby_player *players[2])
{
	players[0] = connect_player(f, 0);
	players[1] = connect_player(f, 1);
	expect_delivery(f, 0, 0, EVENT_WAITING);
	expect_delivery(f, 1, 1, EVENT_WAITING);
	expect_delivery(f, 2, 0, EVENT_ROLE);
	expect_delivery(f, 3, 1, EVENT_ROLE);
	return f->deliveries[2].role == ROLE_FRONT ? 0 : 1;
}

static void every_entry_point_ends_its_step(void **state)
{
	struct fixture *f = fixture_new(60000, 0, false);
	struct lobby_player *players[2];
	struct request move = { .type = REQUEST_MOVE, .x = 7, .y = 7 };
	int front;

	(void)state;
	front = pair(f, players);
	expect_int(f->hub.encoded_count, 0);
	hub_request(&f->hub, players[front], &move);
	expect_int(f->count, 6);
	expect_int(f->hub.encoded_count, 0);
	/* the cache let its reference go: only the two deliveries hold it */
	expect_int(f->deliveries[4].buf->refs, 2);
	fixture_free(f);
}

/*
 * Spectators share their messages: one emote to two spectators is one
 * buffer; the opponent's is the same text, so it is shared too.
 */
static void an_emote_is_encoded_once_for_every_spectator(void **state)
{
	struct fixture *f = fixture_new(60000, 0, false);
	struct lobby_player *players[2];
	struct lobby_spectator *watchers[2];
	struct request emote = { .type = REQUEST_EMOTE, .emote = EMOTE_GG };
	enum error_code code;
	size_t first;
	int front;

	(void)state;
	front = pair(f, players);
	for (int i = 0; i < 2; i++) {
		watchers[i] = hub_watch(&f->hub, players[0]->room->id,
					conn(f, 2 + i), &code);
		assert_non_null(watchers[i]);
	}
	first = f->count;
	hub_request(&f->hub, players[front], &emote);
	/* the opponent and both spectators: one text, one buffer */
	expect_int(f->count, first + 3);
	for (size_t i = first + 1; i < f->count; i++) {
		expect_int(f->deliveries[i].type, EVENT_EMOTE);
		assert_ptr_equal(f->deliveries[i].buf,
				 f->deliveries[first].buf);
	}
	expect_int(f->deliveries[first].buf->refs, 3);
	for (int i = 0; i < 2; i++)
		hub_unwatch(&f->hub, watchers[i]);
	fixture_free(f);
}

static void a_board_is_encoded_once_for_both_players(void **state)
{
	struct fixture *f = fixture_new(60000, 0, false);
	struct lobby_player *players[2];
	struct request move = { .type = REQUEST_MOVE, .x = 7, .y = 7 };
	int front;

	(void)state;
	front = pair(f, players);
	hub_request(&f->hub, players[front], &move);
	expect_delivery(f, 4, front, EVENT_BOARD);
	expect_delivery(f, 5, 1 - front, EVENT_BOARD);
	if (f->deliveries[4].buf != f->deliveries[5].buf)
		fail_msg("the two players' boards were encoded twice");
	if (!strstr(text_of(&f->deliveries[4]), "\"type\":\"board\""))
		fail_msg("expected a board message, got %s",
			 text_of(&f->deliveries[4]));

	/* The next step encodes its own board. */
	move.x = 8;
	hub_request(&f->hub, players[1 - front], &move);
	expect_delivery(f, 6, front, EVENT_BOARD);
	if (f->deliveries[6].buf == f->deliveries[4].buf)
		fail_msg("a later move reused the earlier step's board");
	fixture_free(f);
}

static void a_compact_player_gets_a_board_of_its_own(void **state)
{
	struct fixture *f = fixture_new(60000, 0, false);
	struct lobby_player *players[2];
	struct request move = { .type = REQUEST_MOVE, .x = 7, .y = 7 };
	int front;

	(void)state;
	f->compact_conn = conn(f, 1);
	front = pair(f, players);
	hub_request(&f->hub, players[front], &move);
	expect_delivery(f, 4, front, EVENT_BOARD);
	expect_delivery(f, 5, 1 - front, EVENT_BOARD);
	if (f->deliveries[4].buf == f->deliveries[5].buf)
		fail_msg("a compact and a full board shared one encoding");
	if (strstr(text_of(&f->deliveries[front == 1 ? 4 : 5]), "content"))
		fail_msg("the compact player got a board with content: %s",
			 text_of(&f->deliveries[front == 1 ? 4 : 5]));
	if (!strstr(text_of(&f->deliveries[front == 0 ? 4 : 5]), "content"))
		fail_msg("the full player got a board without content: %s",
			 text_of(&f->deliveries[front == 0 ? 4 : 5]));
	fixture_free(f);
}

static void the_grace_runs_out_on_the_hubs_timer(void **state)
{
	struct fixture *f = fixture_new(SHORT_MS, 0, false);
	struct lobby_player *players[2];
	struct request move = { .type = REQUEST_MOVE, .x = 7, .y = 7 };
	int front;

	(void)state;
	front = pair(f, players);
	hub_request(&f->hub, players[front], &move);
	expect_int(f->hub.tick_at, UINT64_MAX);
	hub_disconnect(&f->hub, players[1 - front], false);
	expect_delivery(f, 6, front, EVENT_OPPONENT_AWAY);
	if (f->hub.tick_at == UINT64_MAX)
		fail_msg("no deadline armed for the away player");

	/* Only the hub's timer keeps the loop running: it ends with it. */
	uv_run(&f->loop, UV_RUN_DEFAULT);
	expect_delivery(f, 7, front, EVENT_WINNER);
	if (!strstr(text_of(&f->deliveries[7]), "\"reason\":\"forfeit\""))
		fail_msg("expected a forfeit, got %s",
			 text_of(&f->deliveries[7]));
	expect_int(f->hub.tick_at, UINT64_MAX);
	expect_int(f->hub.lobby.away.count, 0);
	fixture_free(f);
}

static void a_returning_player_disarms_the_timer(void **state)
{
	struct fixture *f = fixture_new(60000, 0, false);
	struct lobby_player *players[2];
	int front;

	(void)state;
	front = pair(f, players);
	hub_disconnect(&f->hub, players[1 - front], false);
	if (f->hub.tick_at == UINT64_MAX)
		fail_msg("no deadline armed for the away player");
	connect_player(f, 1 - front);
	expect_int(f->hub.tick_at, UINT64_MAX);
	expect_int(uv_loop_alive(&f->loop), 0);
	fixture_free(f);
}

static void the_engine_fills_in_for_a_waiting_player(void **state)
{
	struct fixture *f = fixture_new(60000, SHORT_MS, false);

	(void)state;
	connect_player(f, 0);
	expect_delivery(f, 0, 0, EVENT_WAITING);
	if (f->hub.tick_at == UINT64_MAX)
		fail_msg("no deadline armed for the engine to fill in");
	uv_run(&f->loop, UV_RUN_DEFAULT);
	expect_delivery(f, 1, 0, EVENT_ROLE);
	if (!f->deliveries[1].engine_opponent)
		fail_msg("the player was not seated against the engine");
	expect_int(f->thinks, f->deliveries[1].role == ROLE_BACK ? 1 : 0);
	fixture_free(f);
}

static void the_engine_hooks_are_called_and_its_move_played(void **state)
{
	struct fixture *f = fixture_new(60000, 0, false);
	struct request move = { .type = REQUEST_MOVE, .x = 7, .y = 7 };
	struct lobby_join join = {
		.uid = uids[0], .name = "", .ai = true, .level = ENGINE_HARD
	};
	struct lobby_player *player;

	(void)state;
	player = hub_connect(&f->hub, &join, conn(f, 0));
	assert_non_null(player);
	expect_delivery(f, 0, 0, EVENT_ROLE);
	if (f->deliveries[0].role == ROLE_FRONT) {
		expect_int(f->thinks, 0);
		hub_request(&f->hub, player, &move);
		expect_delivery(f, 1, 0, EVENT_BOARD);
	}
	expect_int(f->thinks, 1);
	expect_int(hub_ai_move(&f->hub, &f->ticket, 3, 3), 0);
	expect_delivery(f, f->count - 1, 0, EVENT_BOARD);
	/* the same ticket again: the position changed since */
	expect_int(hub_ai_move(&f->hub, &f->ticket, 4, 4), -ESTALE);

	hub_disconnect(&f->hub, player, true);
	expect_int(f->rooms_closed, 1);
	fixture_free(f);
}

static void a_stopped_hub_changes_nothing(void **state)
{
	struct fixture *f = fixture_new(60000, 0, false);
	struct lobby_player *players[2];
	struct request move = { .type = REQUEST_MOVE, .x = 7, .y = 7 };
	struct lobby_join join = { .uid = uids[2], .name = "" };
	int front;

	(void)state;
	front = pair(f, players);
	hub_stop(&f->hub);
	hub_request(&f->hub, players[front], &move);
	hub_disconnect(&f->hub, players[0], true);
	hub_disconnect(&f->hub, players[1], false);
	expect_int(f->count, 4);
	if (hub_connect(&f->hub, &join, conn(f, 2)))
		fail_msg("a stopped hub seated a player");
	/* the seats stay for the restart */
	if (!lobby_find(&f->hub.lobby, uids[0]) ||
	    !lobby_find(&f->hub.lobby, uids[1]))
		fail_msg("a stopped hub gave up a seat");
	expect_int(f->hub.lobby.stats.moves, 0);
	fixture_free(f);
}

static void a_move_is_committed_by_hub_commit(void **state)
{
	struct fixture *f = fixture_new(60000, 0, true);
	struct lobby_player *players[2];
	struct request move = { .type = REQUEST_MOVE, .x = 7, .y = 7 };
	uint64_t batch;
	size_t len;
	char *doc;
	int front;

	(void)state;
	front = pair(f, players);
	expect_int(journal_batch(f->journal), 0);
	hub_request(&f->hub, players[front], &move);
	batch = journal_batch(f->journal);
	if (!batch)
		fail_msg("the move opened no batch");
	if (journal_durable(f->journal, batch))
		fail_msg("the batch was durable before the commit");
	doc = store_game_json(f->store, f->deliveries[2].room, 0, &len);
	if (doc)
		fail_msg("the game was in the database before the commit");

	hub_commit(&f->hub);
	if (!journal_durable(f->journal, batch))
		fail_msg("the batch was not durable after hub_commit()");
	expect_int(journal_batch(f->journal), 0);
	expect_int(f->metrics.store_commits, 1);
	expect_int(f->hub.lobby.paused, false);
	doc = store_game_json(f->store, f->deliveries[2].room, 0, &len);
	if (!doc)
		fail_msg("the game was not in the database after the commit");
	if (!strstr(doc, "\"moves\":[{\"x\":7,\"y\":7"))
		fail_msg("expected the move in the game's record, got %s", doc);
	free(doc);
	fixture_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_entry_point_ends_its_step),
		cmocka_unit_test(a_board_is_encoded_once_for_both_players),
		cmocka_unit_test(an_emote_is_encoded_once_for_every_spectator),
		cmocka_unit_test(a_compact_player_gets_a_board_of_its_own),
		cmocka_unit_test(the_grace_runs_out_on_the_hubs_timer),
		cmocka_unit_test(a_returning_player_disarms_the_timer),
		cmocka_unit_test(the_engine_fills_in_for_a_waiting_player),
		cmocka_unit_test(
			the_engine_hooks_are_called_and_its_move_played),
		cmocka_unit_test(a_stopped_hub_changes_nothing),
		cmocka_unit_test(a_move_is_committed_by_hub_commit),
	};

	log_set_level(LOG_WARN); /* no line per match and game */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
