/*
 * test_lobby_watch.c - the lobby: spectators (core/PROTOCOL.md section
 * 8.5): lobby_watch() shows the room (spectate, board, winner, a seat
 * away), then the spectator gets the game's boards, winner, emotes and
 * seats away or back (with the seat's role), never an offer nor a uid; its
 * requests are refused but a ping; it follows a rematch; the room closing
 * tells it so; the cap per room; the players hear the count at most once
 * per LOBBY_COUNT_INTERVAL_MS (lobby_tick); lobby_each_room() lists the
 * open rooms newest first; lobby_release() frees every spectator. The
 * fixture is lobby_fixture.h's; connections 10 and up are spectators.
 */
#include <stdio.h>
#include <string.h>

#include "lobby_fixture.h"

#define MAX_WATCHING 3

/* 15x15 freestyle, a grace of GRACE_MS, MAX_WATCHING per room. */
static int setup_watch(void **state)
{
	struct lobby_config config = {
		.board_size = 15,
		.rule = RULE_FREESTYLE,
		.full_board = FULL_BOARD_BACK,
		.reconnect_grace_ms = GRACE_MS,
		.max_spectators = MAX_WATCHING,
	};

	return setup_lobby_config(state, &config, false);
}

#define watch_test(name) \
	cmocka_unit_test_setup_teardown(name, setup_watch, teardown)

/* Connection c watches player's room at now_ms; it must be let in. */
static struct lobby_spectator *watch(struct fixture *f,
				     const struct lobby_player *player, int c,
				     uint64_t now_ms)
{
	enum error_code code = ERR_NONE;
	struct lobby_spectator *spectator = lobby_watch(
		&f->lobby, player->room->id, conn(f, c), now_ms, &code);

	if (!spectator)
		fail_msg("connection %d could not watch: %s", c,
			 code_name(code));
	expect_enum(code, ERR_NONE, code_name);
	return spectator;
}

/* Checks that event i's JSON holds text. */
static void expect_json_has(struct fixture *f, size_t i, const char *text)
{
	if (i >= f->count || !f->records[i].json ||
	    !strstr(f->records[i].json, text))
		fail_msg("event %zu: expected JSON with %s, got %s", i, text,
			 i < f->count && f->records[i].json ?
				 f->records[i].json :
				 "(none)");
}

/* Checks that event i is spectators count n to connection c. */
static void expect_count(struct fixture *f, size_t i, int c, long long n)
{
	expect_event(f, i, c, EVENT_SPECTATORS);
	if (json_number(f, i, NULL, "count") != n)
		fail_msg("event %zu: expected count %lld, got %s", i, n,
			 f->records[i].json);
}

static void a_spectator_sees_the_room_and_the_players_hear_the_count(
	void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	char want[512];

	pair_at(f, &p0, &p1, 0, T0);
	play_at(f, p0, 7, 7, T0);
	play_at(f, p1, 8, 8, T0);
	forget_records(f);
	watch(f, p0, 10, T0 + 10);
	expect_events(f, 4);
	expect_event(f, 0, 10, EVENT_SPECTATE);
	snprintf(want, sizeof(want),
		 "{\"type\":\"spectate\",\"room\":\"%s\",\"size\":15,"
		 "\"rule\":\"freestyle\",\"tc\":\"none\",\"players\":"
		 "{\"front\":{\"name\":\"zero\"},\"back\":{\"name\":\"one\"}}}",
		 p0->room->id);
	expect_str(f->records[0].json, want);
	expect_event(f, 1, 10, EVENT_BOARD);
	expect_int(f->records[1].moves, 2);
	expect_json_has(f, 1, "\"content\":[");
	expect_count(f, 2, 0, 1);
	expect_count(f, 3, 1, 1);
	expect_int(f->lobby.stats.spectators, 1);
	expect_no_uid_sent(f, 2);
}

static void an_unknown_room_and_a_full_one_are_refused(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	enum error_code code = ERR_NONE;
	int i;

	pair_at(f, &p0, &p1, 0, T0);
	assert_null(lobby_watch(&f->lobby, f->uids[5], conn(f, 10), T0,
				&code));
	expect_enum(code, ERR_NO_SUCH_ROOM, code_name);
	expect_events(f, 0);
	for (i = 0; i < MAX_WATCHING; i++)
		watch(f, p0, 10 + i, T0);
	forget_records(f);
	code = ERR_NONE;
	assert_null(lobby_watch(&f->lobby, p0->room->id, conn(f, 20), T0,
				&code));
	expect_enum(code, ERR_TOO_MANY_SPECTATORS, code_name);
	expect_events(f, 0);
	expect_int(f->lobby.stats.spectators, MAX_WATCHING);
	expect_int(p0->room->spectators.count, MAX_WATCHING);
}

static void a_leaving_spectator_frees_a_place(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct lobby_spectator *first;
	enum error_code code;

	pair_at(f, &p0, &p1, 0, T0);
	first = watch(f, p0, 10, T0);
	watch(f, p0, 11, T0);
	watch(f, p0, 12, T0);
	lobby_unwatch(&f->lobby, first, T0 + 1);
	expect_int(f->lobby.stats.spectators, MAX_WATCHING - 1);
	watch(f, p0, 13, T0 + 2);
	assert_null(lobby_watch(&f->lobby, p0->room->id, conn(f, 14), T0 + 3,
				&code));
	expect_enum(code, ERR_TOO_MANY_SPECTATORS, code_name);
}

static void counts_are_told_at_most_once_per_interval(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct lobby_spectator *s2, *s3, *s4;
	uint64_t next;

	pair_at(f, &p0, &p1, 0, T0);
	watch(f, p0, 10, T0);
	expect_count(f, 2, 0, 1);
	expect_count(f, 3, 1, 1);
	forget_records(f);
	/* two more within the second: shown the room, no count yet */
	s2 = watch(f, p0, 11, T0 + 100);
	s3 = watch(f, p0, 12, T0 + 200);
	expect_events(f, 4);
	expect_int(events_to(f, 0, EVENT_SPECTATORS), 0);
	expect_int(events_to(f, 1, EVENT_SPECTATORS), 0);
	next = lobby_tick(&f->lobby, T0 + LOBBY_COUNT_INTERVAL_MS - 1);
	expect_events(f, 4);
	if (next > T0 + LOBBY_COUNT_INTERVAL_MS)
		fail_msg("lobby_tick: expected the count due at %llu, got %llu",
			 (unsigned long long)(T0 + LOBBY_COUNT_INTERVAL_MS),
			 (unsigned long long)next);
	forget_records(f);
	next = lobby_tick(&f->lobby, T0 + LOBBY_COUNT_INTERVAL_MS);
	expect_events(f, 2);
	expect_count(f, 0, 0, 3);
	expect_count(f, 1, 1, 3);
	forget_records(f);
	(void)lobby_tick(&f->lobby, T0 + 2 * LOBBY_COUNT_INTERVAL_MS);
	expect_events(f, 0);

	/* down and up again within the second: the count told stands */
	lobby_unwatch(&f->lobby, s3, T0 + 1500);
	s4 = watch(f, p0, 13, T0 + 1600);
	forget_records(f);
	(void)lobby_tick(&f->lobby, T0 + 3 * LOBBY_COUNT_INTERVAL_MS);
	expect_events(f, 0);

	/* a change a second after the last count is told at once */
	lobby_unwatch(&f->lobby, s4, T0 + 3 * LOBBY_COUNT_INTERVAL_MS);
	expect_events(f, 2);
	expect_count(f, 0, 0, 2);
	expect_count(f, 1, 1, 2);
	forget_records(f);
	/* and the next within its second waits for lobby_tick */
	lobby_unwatch(&f->lobby, s2, T0 + 3 * LOBBY_COUNT_INTERVAL_MS + 10);
	expect_events(f, 0);
	(void)lobby_tick(&f->lobby, T0 + 4 * LOBBY_COUNT_INTERVAL_MS - 1);
	expect_events(f, 0);
	(void)lobby_tick(&f->lobby, T0 + 4 * LOBBY_COUNT_INTERVAL_MS);
	expect_events(f, 2);
	expect_count(f, 0, 0, 1);
	expect_count(f, 1, 1, 1);
}

static void the_spectator_gets_the_game_but_no_offer(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair_at(f, &p0, &p1, 0, T0);
	watch(f, p0, 10, T0);
	forget_records(f);
	play_at(f, p0, 7, 7, T0 + 100);
	expect_events(f, 3);
	expect_event(f, 2, 10, EVENT_BOARD);
	expect_int(f->records[2].moves, 1);
	expect_str(f->records[2].json, f->records[0].json);
	forget_records(f);

	/* offers and answers: the players' alone; the takeback's board: all */
	offer(f, p0, OFFER_TAKEBACK, T0 + 200);
	expect_int(events_to(f, 10, EVENT_OFFER), 0);
	answer(f, p1, OFFER_TAKEBACK, true, T0 + 300);
	expect_int(events_to(f, 10, EVENT_ANSWER), 0);
	expect_int(events_to(f, 10, EVENT_BOARD), 1);
	expect_undo(f, event_index(f, 10, EVENT_BOARD), 10, 7, 7, 0);
	forget_records(f);

	emote(f, p1, EMOTE_HELLO, T0 + 400);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_EMOTE);
	expect_event(f, 1, 10, EVENT_EMOTE);
	expect_str(f->records[1].json,
		   "{\"type\":\"emote\",\"by\":\"back\",\"emote\":\"hello\"}");
	forget_records(f);

	offer(f, p0, OFFER_DRAW, T0 + 500);
	answer(f, p1, OFFER_DRAW, false, T0 + 600);
	expect_int(events_to(f, 10, EVENT_OFFER), 0);
	expect_int(events_to(f, 10, EVENT_ANSWER), 0);
	expect_events(f, 4);
	forget_records(f);

	ask(f, p1, REQUEST_RESIGN, 0, false, T0 + 700);
	expect_int(events_to(f, 10, EVENT_WINNER), 1);
	expect_winner(f, event_index(f, 10, EVENT_WINNER), 10, WINNER_FRONT,
		      REASON_RESIGN);
	expect_no_uid_sent(f, 2);
}

static void a_spectators_requests_are_refused_but_a_ping(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct lobby_spectator *s;
	const enum request_type refused[] = {
		REQUEST_MOVE,  REQUEST_RESIGN, REQUEST_ABORT,
		REQUEST_OFFER, REQUEST_ANSWER, REQUEST_EMOTE,
	};
	struct request req;
	size_t i;

	pair_at(f, &p0, &p1, 0, T0);
	play_at(f, p0, 7, 7, T0);
	s = watch(f, p0, 10, T0);
	forget_records(f);
	for (i = 0; i < sizeof(refused) / sizeof(*refused); i++) {
		req = (struct request){ .type = refused[i],
					.x = 1,
					.y = 1,
					.what = OFFER_DRAW,
					.emote = EMOTE_HELLO };
		lobby_spectator_request(&f->lobby, s, &req);
		expect_events(f, 1);
		expect_event(f, 0, 10, EVENT_ERROR);
		expect_enum(f->records[0].code, ERR_SPECTATOR, code_name);
		forget_records(f);
	}
	req = (struct request){ .type = REQUEST_PING };
	lobby_spectator_request(&f->lobby, s, &req);
	expect_events(f, 1);
	expect_event(f, 0, 10, EVENT_PONG);
	expect_int(p0->room->game.moves_played, 1);
	expect_int(p0->room->game.to_move, ROLE_BACK);
	expect_int(p0->room->offer_by, ROLE_NONE);
	expect_int(f->lobby.stats.moves, 1);
}

static void a_seat_away_and_back_is_shown_with_its_role(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	size_t i;

	pair_at(f, &p0, &p1, 0, T0);
	play_at(f, p0, 7, 7, T0);
	watch(f, p0, 10, T0);
	forget_records(f);
	drop(f, p1, T0 + 100);
	expect_int(events_to(f, 10, EVENT_OPPONENT_AWAY), 1);
	i = event_index(f, 10, EVENT_OPPONENT_AWAY);
	expect_json_string(f, i, "role", "back");
	expect_int(json_number(f, i, NULL, "seconds"), GRACE_MS / 1000);
	/* the player's own opponent_away names no role */
	i = event_index(f, 0, EVENT_OPPONENT_AWAY);
	if (json_has(f, i, "role"))
		fail_msg("a player's opponent_away carries a role: %s",
			 f->records[i].json);
	forget_records(f);

	/* a spectator arriving now sees the seat away */
	watch(f, p0, 11, T0 + 5000);
	expect_int(events_to(f, 11, EVENT_OPPONENT_AWAY), 1);
	i = event_index(f, 11, EVENT_OPPONENT_AWAY);
	expect_json_string(f, i, "role", "back");
	/* away until T0 + 100 + GRACE_MS: 25.1 s left, rounded up */
	expect_int(json_number(f, i, NULL, "seconds"), GRACE_MS / 1000 - 4);
	(void)lobby_tick(&f->lobby, T0 + 5000 + LOBBY_COUNT_INTERVAL_MS);
	forget_records(f);

	/* back returns: the count with its seat, and the spectators hear */
	p1 = rejoin(f, 1, "one", 1, T0 + 7000);
	expect_int(events_to(f, 1, EVENT_SPECTATORS), 1);
	expect_count(f, event_index(f, 1, EVENT_SPECTATORS), 1, 2);
	for (int c = 10; c <= 11; c++) {
		expect_int(events_to(f, c, EVENT_OPPONENT_BACK), 1);
		i = event_index(f, c, EVENT_OPPONENT_BACK);
		expect_str(f->records[i].json,
			   "{\"type\":\"opponent_back\",\"role\":\"back\"}");
	}
	i = event_index(f, 0, EVENT_OPPONENT_BACK);
	if (json_has(f, i, "role"))
		fail_msg("a player's opponent_back carries a role: %s",
			 f->records[i].json);
	expect_no_uid_sent(f, 2);
}

static void a_finished_room_shows_its_winner_and_a_rematch_is_followed(
	void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	char old_id[UID_LEN + 1];
	size_t i;

	pair_at(f, &p0, &p1, 0, T0);
	play_at(f, p0, 7, 7, T0);
	finish(f, p1, T0 + 100);
	snprintf(old_id, sizeof(old_id), "%s", p0->room->id);
	watch(f, p0, 10, T0 + 200);
	expect_event(f, 0, 10, EVENT_SPECTATE);
	expect_event(f, 1, 10, EVENT_BOARD);
	expect_winner(f, 2, 10, WINNER_FRONT, REASON_RESIGN);
	forget_records(f);

	offer(f, p0, OFFER_REMATCH, T0 + 2000);
	expect_int(events_to(f, 10, EVENT_OFFER), 0);
	script_match(f, 0x44, 0);
	answer(f, p1, OFFER_REMATCH, true, T0 + 3000);
	expect_int(events_to(f, 10, EVENT_ANSWER), 0);
	expect_int(events_to(f, 10, EVENT_ROLE), 0);
	expect_int(events_to(f, 10, EVENT_SPECTATE), 1);
	i = event_index(f, 10, EVENT_SPECTATE);
	if (!strcmp(p0->room->id, old_id))
		fail_msg("the rematch kept the room id");
	expect_json_string(f, i, "room", p0->room->id);
	/* sides swapped: one is front now */
	expect_json_has(f, i,
			"\"players\":{\"front\":{\"name\":\"one\"},"
			"\"back\":{\"name\":\"zero\"}}");
	expect_event(f, i + 1, 10, EVENT_BOARD);
	expect_int(f->records[i + 1].moves, 0);
	expect_int(p0->room->spectators.count, 1);
	expect_int(f->lobby.stats.spectators, 1);
	forget_records(f);
	/* the old room is gone, the new one streams */
	{
		enum error_code code;

		assert_null(lobby_watch(&f->lobby, old_id, conn(f, 11),
					T0 + 3100, &code));
		expect_enum(code, ERR_NO_SUCH_ROOM, code_name);
	}
	play_at(f, p1, 7, 7, T0 + 3200);
	expect_int(events_to(f, 10, EVENT_BOARD), 1);
	expect_no_uid_sent(f, 2);
}

static void the_room_closing_tells_its_spectators(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct lobby_spectator *s;
	struct request ping = { .type = REQUEST_PING };
	enum error_code code;
	char id[UID_LEN + 1];

	pair_at(f, &p0, &p1, 0, T0);
	play_at(f, p0, 7, 7, T0);
	snprintf(id, sizeof(id), "%s", p0->room->id);
	s = watch(f, p0, 10, T0);
	watch(f, p0, 11, T0);
	forget_records(f);
	lobby_disconnect(&f->lobby, p0, true, T0 + 100);
	expect_int(events_to(f, 10, EVENT_WINNER), 1);
	expect_winner(f, event_index(f, 10, EVENT_WINNER), 10, WINNER_BACK,
		      REASON_FORFEIT);
	expect_int(events_to(f, 10, EVENT_DISCONNECT), 0);
	forget_records(f);
	lobby_disconnect(&f->lobby, p1, true, T0 + 200);
	expect_events(f, 2);
	expect_event(f, 0, 10, EVENT_DISCONNECT);
	expect_event(f, 1, 11, EVENT_DISCONNECT);
	expect_str(f->records[0].json,
		   "{\"type\":\"disconnect\",\"disconnect\":\"the room closed\"}");
	expect_int(f->lobby.stats.rooms, 0);
	expect_int(f->lobby.stats.spectators, 2);
	forget_records(f);
	/* nothing more, but a ping is answered; no count is due */
	(void)lobby_tick(&f->lobby, T0 + 10 * LOBBY_COUNT_INTERVAL_MS);
	expect_events(f, 0);
	lobby_spectator_request(&f->lobby, s, &ping);
	expect_events(f, 1);
	expect_event(f, 0, 10, EVENT_PONG);
	assert_null(lobby_watch(&f->lobby, id, conn(f, 12), T0 + 300, &code));
	expect_enum(code, ERR_NO_SUCH_ROOM, code_name);
	lobby_unwatch(&f->lobby, s, T0 + 400);
	expect_int(f->lobby.stats.spectators, 1);
	/* the other one is left for lobby_release() */
}

static bool list_room(void *ctx, const struct lobby_room *room)
{
	struct fixture *f = ctx;

	record_event(f, (void *)room, &(struct event){ .type = EVENT_PONG });
	return f->count < 2;
}

static void rooms_are_listed_newest_first(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *a0, *a1, *b0, *b1, *c0, *c1;

	f->endless = true;
	a0 = join_pool(f, 0, "", NULL, T0);
	a1 = join_pool(f, 1, "", NULL, T0);
	b0 = join_pool(f, 2, "", NULL, T0 + 1);
	b1 = join_pool(f, 3, "", NULL, T0 + 1);
	c0 = join_pool(f, 4, "", NULL, T0 + 2);
	c1 = join_pool(f, 5, "", NULL, T0 + 2);
	assert_ptr_equal(a0->room, a1->room);
	assert_ptr_equal(b0->room, b1->room);
	assert_ptr_equal(c0->room, c1->room);
	forget_records(f);
	lobby_each_room(&f->lobby, list_room, f);
	/* fn said stop after two */
	expect_events(f, 2);
	assert_ptr_equal(f->records[0].conn, c0->room);
	assert_ptr_equal(f->records[1].conn, b0->room);
	forget_records(f);
	/* a closed room is no longer listed */
	lobby_disconnect(&f->lobby, b0, true, T0 + 3);
	lobby_disconnect(&f->lobby, b1, true, T0 + 3);
	forget_records(f);
	lobby_each_room(&f->lobby, list_room, f);
	expect_events(f, 2);
	assert_ptr_equal(f->records[0].conn, c0->room);
	assert_ptr_equal(f->records[1].conn, a0->room);
}

static void spectators_are_freed_by_lobby_release(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1, *p2, *p3;

	pair_at(f, &p0, &p1, 0, T0);
	watch(f, p0, 10, T0);
	watch(f, p0, 11, T0 + 10);
	/* a second room, closed: its spectator watches nothing */
	script_match(f, 0x22, 0);
	p2 = join_pool(f, 2, "", NULL, T0);
	p3 = join_pool(f, 3, "", NULL, T0);
	watch(f, p2, 12, T0);
	lobby_disconnect(&f->lobby, p2, true, T0 + 20);
	lobby_disconnect(&f->lobby, p3, true, T0 + 20);
	/* and one away seat in the first, with a count still due */
	drop(f, p1, T0 + 30);
	expect_int(f->lobby.stats.spectators, 3);
	lobby_release(&f->lobby);
	f->released = true;
	/* leaks: valgrind and ASan */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		watch_test(
			a_spectator_sees_the_room_and_the_players_hear_the_count),
		watch_test(an_unknown_room_and_a_full_one_are_refused),
		watch_test(a_leaving_spectator_frees_a_place),
		watch_test(counts_are_told_at_most_once_per_interval),
		watch_test(the_spectator_gets_the_game_but_no_offer),
		watch_test(a_spectators_requests_are_refused_but_a_ping),
		watch_test(a_seat_away_and_back_is_shown_with_its_role),
		watch_test(
			a_finished_room_shows_its_winner_and_a_rematch_is_followed),
		watch_test(the_room_closing_tells_its_spectators),
		watch_test(rooms_are_listed_newest_first),
		watch_test(spectators_are_freed_by_lobby_release),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
