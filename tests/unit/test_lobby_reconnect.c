/*
 * test_lobby_reconnect.c - the lobby: the reconnect grace: a dropped
 * player's seat kept, the opponent told away and back, the deadlines
 * lobby_tick() runs, and returners told where things stand. The fixture is
 * lobby_fixture.h's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lobby_fixture.h"

/* Restarts f's lobby, same settings and journal, with another grace. */
static void restart_with_grace(struct fixture *f, uint64_t grace_ms)
{
	struct lobby_config config = f->lobby.config;
	bool journal = f->lobby.sink.record != NULL;

	lobby_release(&f->lobby);
	config.reconnect_grace_ms = grace_ms;
	if (start_lobby(f, &config, journal))
		fail_msg("the lobby could not restart with a grace of %llu ms",
			 (unsigned long long)grace_ms);
}

static void a_dropped_player_keeps_the_seat_for_the_grace(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	forget_records(f);
	drop(f, p0, T0);
	expect_events(f, 1);
	expect_event(f, 0, 1, EVENT_OPPONENT_AWAY);
	expect_int(f->records[0].seconds, 30);
	expect_str(f->records[0].json,
		   "{\"type\":\"opponent_away\",\"seconds\":30}");
	assert_ptr_equal(lobby_find(&f->lobby, f->uids[0]), p0);
	assert_null(p0->conn);
	expect_int(p0->away_until, T0 + GRACE_MS);
	expect_int(p0->state, PLAYER_PLAYING);
	assert_ptr_equal(p0->room->seats[ROLE_FRONT], p0);
	assert_false(game_is_over(&p0->room->game));
	assert_ptr_equal(away_first(f), p0);
	assert_ptr_equal(away_last(f), p0);
	expect_facts(f, 0);
	expect_stats(f, 2, 0, 1, 1, 1, 1);
	expect_away(f, 1);
	expect_finished(f, 0, 0, 0);
}

static void leaving_on_purpose_forfeits_at_once_despite_the_grace(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	forget_records(f);
	lobby_disconnect(&f->lobby, p0, true, T0);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_WINNER);
	expect_int(f->records[0].winner, WINNER_BACK);
	expect_int(f->records[0].reason, REASON_FORFEIT);
	expect_event(f, 1, 1, EVENT_DISCONNECT);
	assert_null(lobby_find(&f->lobby, f->uids[0]));
	assert_null(away_first(f));
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_GAME_OVER, 0);
	expect_stats(f, 1, 0, 1, 0, 1, 1);
	expect_away(f, 0);
	expect_finished(f, 0, 0, 1);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS), UINT64_MAX);
}

static void a_drop_without_grace_forfeits_at_once(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	forget_records(f);
	drop(f, p1, T0);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_WINNER);
	expect_int(f->records[0].winner, WINNER_FRONT);
	expect_int(f->records[0].reason, REASON_FORFEIT);
	expect_event(f, 1, 0, EVENT_DISCONNECT);
	assert_null(lobby_find(&f->lobby, f->uids[1]));
	assert_null(away_first(f));
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_GAME_OVER, 0);
	expect_stats(f, 1, 0, 1, 0, 1, 1);
	expect_away(f, 0);
	expect_finished(f, 0, 0, 1);
}

static void a_waiting_player_who_drops_is_freed_at_once(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0;

	p0 = join(f, 0, "zero");
	expect_stats(f, 1, 1, 0, 0, 0, 0);
	forget_records(f);
	drop(f, p0, T0);
	expect_events(f, 0);
	expect_facts(f, 0);
	assert_null(lobby_find(&f->lobby, f->uids[0]));
	assert_null(queue_first(f));
	assert_null(away_first(f));
	expect_stats(f, 0, 0, 0, 0, 0, 0);
	expect_away(f, 0);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS), UINT64_MAX);
}

static void a_drop_after_the_game_is_over_frees_the_seat_at_once(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play_to_five(f, p0, p1);
	forget_records(f);
	drop(f, p1, T0);
	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_DISCONNECT);
	assert_null(lobby_find(&f->lobby, f->uids[1]));
	expect_facts(f, 0);
	expect_stats(f, 1, 0, 1, 0, 1, 9);
	expect_away(f, 0);
	expect_finished(f, 1, 0, 0);

	forget_records(f);
	drop(f, p0, T0);
	expect_events(f, 0);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_ROOM_CLOSED, 0);
	expect_stats(f, 0, 0, 0, 0, 1, 9);
	expect_away(f, 0);
}

static void opponent_away_counts_whole_seconds_rounded_up(void **state)
{
	static const struct {
		uint64_t grace_ms;
		int seconds;
	} cases[] = {
		{ 1, 1 },    { 999, 1 },  { 1000, 1 },	 { 1001, 2 },
		{ 1500, 2 }, { 2000, 2 }, { 30000, 30 }, { 3600000, 3600 },
	};
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		restart_with_grace(f, cases[i].grace_ms);
		pair(f, &p0, &p1, 0);
		drop(f, p0, T0);
		expect_event(f, 0, 1, EVENT_OPPONENT_AWAY);
		if (f->records[0].seconds != cases[i].seconds)
			fail_msg("grace %llu ms: expected %d s, got %d",
				 (unsigned long long)cases[i].grace_ms,
				 cases[i].seconds, f->records[0].seconds);
		forget_records(f);
	}
}

static void a_resume_tells_the_seconds_left_rounded_up(void **state)
{
	static const struct {
		uint64_t after_ms; /* since the opponent dropped */
		int seconds;
	} cases[] = {
		{ 0, 30 },     { 1, 30 },    { 999, 30 },  { 1000, 29 },
		{ 10000, 20 }, { 28999, 2 }, { 29000, 1 }, { 29999, 1 },
	};
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	size_t i;

	pair(f, &p0, &p1, 0);
	drop(f, p0, T0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		forget_records(f);
		/* Player 1 takes its own seat over: it hears where 0 is. */
		rejoin(f, 1, "one", 200 + (int)i, T0 + cases[i].after_ms);
		expect_events(f, 3);
		expect_event(f, 2, 200 + (int)i, EVENT_OPPONENT_AWAY);
		if (f->records[2].seconds != cases[i].seconds)
			fail_msg(
				"%llu ms after the drop: expected %d s, got %d",
				(unsigned long long)cases[i].after_ms,
				cases[i].seconds, f->records[2].seconds);
	}
}

static void a_player_back_within_the_grace_resumes_the_game(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1, *again;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	drop(f, p0, T0);
	play(f, p1, 8, 8);
	forget_records(f);
	again = rejoin(f, 0, "zero", 100, T0 + 10000);
	assert_ptr_equal(again, p0);
	expect_events(f, 3);
	expect_event(f, 0, 1, EVENT_OPPONENT_BACK);
	expect_str(f->records[0].json, "{\"type\":\"opponent_back\"}");
	expect_event(f, 1, 100, EVENT_ROLE);
	expect_int(f->records[1].role, ROLE_FRONT);
	expect_str(f->records[1].room, p0->room->id);
	expect_str(f->records[1].opponent, "one");
	expect_event(f, 2, 100, EVENT_BOARD);
	expect_int(f->records[2].moves, 2);
	expect_int(f->records[2].move.x, 8);
	expect_int(f->records[2].move.y, 8);
	assert_true(f->records[2].resume);
	assert_ptr_equal(p0->conn, conn(f, 100));
	expect_int(p0->away_until, 0);
	assert_null(away_first(f));
	expect_facts(f, 0);
	expect_stats(f, 2, 0, 1, 1, 1, 2);
	expect_away(f, 0);

	/* The deadline that was is forgotten; the game goes on. */
	forget_records(f);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS), UINT64_MAX);
	expect_events(f, 0);
	play(f, p0, 9, 9);
	expect_events(f, 2);
	expect_event(f, 0, 100, EVENT_BOARD);
	expect_event(f, 1, 1, EVENT_BOARD);
	assert_false(f->records[0].resume);
	assert_false(f->records[1].resume);
	expect_stats(f, 2, 0, 1, 1, 1, 3);
}

static void
the_present_player_plays_on_and_the_away_one_hears_nothing(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request ping = { .type = REQUEST_PING };
	struct request move = move_request(9, 9);

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	drop(f, p0, T0);
	forget_records(f);
	play(f, p1, 8, 8);
	expect_events(f, 1);
	expect_event(f, 0, 1, EVENT_BOARD);
	expect_int(f->records[0].moves, 2);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_MOVE, 0);
	expect_stats(f, 2, 0, 1, 1, 1, 2);
	expect_away(f, 1);
	expect_int(p0->room->game.to_move, ROLE_FRONT);

	/* Now it is the away player's turn: the present one must wait. */
	expect_refusal(f, p1, &move, ERR_NOT_YOUR_TURN);
	lobby_request(&f->lobby, p1, &ping, 0);
	expect_events(f, 1);
	expect_event(f, 0, 1, EVENT_PONG);
	expect_away(f, 1);
}

static void a_returner_whose_game_ended_meanwhile_gets_the_result(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	drop(f, p0, T0);
	forget_records(f);
	lobby_disconnect(&f->lobby, p1, true, T0 + 1000);
	expect_events(f, 0); /* the only one left to tell is away */
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_GAME_OVER, 0);
	expect_int(f->facts[0].reason, REASON_FORFEIT);
	expect_stats(f, 1, 0, 1, 0, 1, 1);
	expect_away(f, 1);
	expect_finished(f, 0, 0, 1);

	forget_records(f);
	rejoin(f, 0, "zero", 100, T0 + 2000);
	expect_events(f, 4);
	expect_event(f, 0, 100, EVENT_ROLE);
	assert_false(f->records[0].has_opponent);
	expect_event(f, 1, 100, EVENT_BOARD);
	expect_int(f->records[1].moves, 1);
	expect_event(f, 2, 100, EVENT_WINNER);
	expect_int(f->records[2].winner, WINNER_FRONT);
	expect_int(f->records[2].reason, REASON_FORFEIT);
	expect_event(f, 3, 100, EVENT_DISCONNECT);
	expect_facts(f, 0);
	expect_stats(f, 1, 0, 1, 0, 1, 1);
	expect_away(f, 0);

	forget_records(f);
	lobby_disconnect(&f->lobby, p0, true, T0 + 3000);
	expect_events(f, 0);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_ROOM_CLOSED, 0);
	expect_stats(f, 0, 0, 0, 0, 1, 1);
}

static void
both_away_the_first_deadline_forfeits_and_the_second_sees_it(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	forget_records(f);
	drop(f, p0, T0);
	expect_events(f, 1);
	expect_event(f, 0, 1, EVENT_OPPONENT_AWAY);
	forget_records(f);
	drop(f, p1, T0 + 5000);
	expect_events(f, 0); /* player 0 is away: nobody to tell */
	assert_ptr_equal(away_first(f), p0);
	assert_ptr_equal(away_last(f), p1);
	expect_stats(f, 2, 0, 1, 1, 1, 1);
	expect_away(f, 2);

	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS - 1), T0 + GRACE_MS);
	expect_events(f, 0);
	expect_facts(f, 0);
	expect_away(f, 2);

	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS), T0 + 5000 + GRACE_MS);
	expect_events(f, 0);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_GAME_OVER, 0);
	assert_null(lobby_find(&f->lobby, f->uids[0]));
	assert_ptr_equal(lobby_find(&f->lobby, f->uids[1]), p1);
	expect_stats(f, 1, 0, 1, 0, 1, 1);
	expect_away(f, 1);
	expect_finished(f, 0, 0, 1);

	forget_records(f);
	rejoin(f, 1, "one", 101, T0 + GRACE_MS + 1000);
	expect_events(f, 4);
	expect_event(f, 0, 101, EVENT_ROLE);
	expect_int(f->records[0].role, ROLE_BACK);
	assert_false(f->records[0].has_opponent);
	expect_event(f, 1, 101, EVENT_BOARD);
	expect_event(f, 2, 101, EVENT_WINNER);
	expect_int(f->records[2].winner, WINNER_BACK);
	expect_int(f->records[2].reason, REASON_FORFEIT);
	expect_event(f, 3, 101, EVENT_DISCONNECT);
	expect_facts(f, 0);
	expect_stats(f, 1, 0, 1, 0, 1, 1);
	expect_away(f, 0);
	expect_int(lobby_tick(&f->lobby, T0 + 10 * GRACE_MS), UINT64_MAX);
	assert_ptr_equal(lobby_find(&f->lobby, f->uids[1]), p1);
}

static void a_returner_whose_opponent_is_away_too_is_told_so(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	drop(f, p0, T0);
	drop(f, p1, T0 + 5000);
	forget_records(f);
	rejoin(f, 0, "zero", 100, T0 + 20000);
	expect_events(f, 2); /* no board: no move yet; no back: 1 away */
	expect_event(f, 0, 100, EVENT_ROLE);
	expect_str(f->records[0].opponent, "one");
	expect_event(f, 1, 100, EVENT_OPPONENT_AWAY);
	expect_int(f->records[1].seconds, 15);
	expect_stats(f, 2, 0, 1, 1, 1, 0);
	expect_away(f, 1);
	assert_ptr_equal(away_first(f), p1);

	forget_records(f);
	rejoin(f, 1, "one", 101, T0 + 21000);
	expect_events(f, 2);
	expect_event(f, 0, 100, EVENT_OPPONENT_BACK);
	expect_event(f, 1, 101, EVENT_ROLE);
	expect_stats(f, 2, 0, 1, 1, 1, 0);
	expect_away(f, 0);
	assert_null(away_first(f));
}

static void tick_before_the_deadline_changes_nothing(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct lobby_stats stats;

	pair(f, &p0, &p1, 0);
	drop(f, p0, T0);
	forget_records(f);
	stats = f->lobby.stats;
	expect_int(lobby_tick(&f->lobby, T0), T0 + GRACE_MS);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS - 1), T0 + GRACE_MS);
	expect_events(f, 0);
	expect_facts(f, 0);
	assert_memory_equal(&stats, &f->lobby.stats, sizeof(stats));
	assert_ptr_equal(lobby_find(&f->lobby, f->uids[0]), p0);
	expect_away(f, 1);
}

static void tick_at_the_deadline_forfeits_the_absent_player(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	drop(f, p0, T0);
	forget_records(f);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS), UINT64_MAX);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_WINNER);
	expect_int(f->records[0].winner, WINNER_BACK);
	expect_int(f->records[0].reason, REASON_FORFEIT);
	expect_event(f, 1, 1, EVENT_DISCONNECT);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_GAME_OVER, 0);
	assert_null(lobby_find(&f->lobby, f->uids[0]));
	assert_null(away_first(f));
	expect_stats(f, 1, 0, 1, 0, 1, 0);
	expect_away(f, 0);
	expect_finished(f, 0, 0, 1);
}

static void tick_long_after_the_deadline_forfeits_just_the_same(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	drop(f, p1, T0);
	forget_records(f);
	expect_int(lobby_tick(&f->lobby, T0 + 100 * GRACE_MS), UINT64_MAX);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_WINNER);
	expect_int(f->records[0].winner, WINNER_FRONT);
	expect_event(f, 1, 0, EVENT_DISCONNECT);
	assert_null(lobby_find(&f->lobby, f->uids[1]));
	expect_stats(f, 1, 0, 1, 0, 1, 1);
	expect_away(f, 0);
	expect_finished(f, 0, 0, 1);
}

static void tick_with_nobody_away_returns_uint64_max(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	expect_int(lobby_tick(&f->lobby, 0), UINT64_MAX);
	pair(f, &p0, &p1, 0);
	join(f, 2, NULL);
	forget_records(f);
	expect_int(lobby_tick(&f->lobby, T0), UINT64_MAX);
	expect_int(lobby_tick(&f->lobby, UINT64_MAX - 1), UINT64_MAX);
	expect_events(f, 0);
	expect_stats(f, 3, 1, 1, 1, 1, 0);
	expect_away(f, 0);
}

static void tick_returns_the_earliest_deadline_first(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p[4];
	int i;

	script_match(f, 0x11, 0);
	script_match(f, 0x22, 0);
	for (i = 0; i < 4; i++)
		p[i] = join(f, i, NULL);
	drop(f, p[2], T0);
	drop(f, p[0], T0 + 1000);
	expect_away(f, 2);
	forget_records(f);
	expect_int(lobby_tick(&f->lobby, T0), T0 + GRACE_MS);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS), T0 + 1000 + GRACE_MS);
	expect_events(f, 2);
	expect_event(f, 0, 3, EVENT_WINNER);
	expect_event(f, 1, 3, EVENT_DISCONNECT);
	expect_away(f, 1);
	expect_stats(f, 3, 0, 2, 1, 2, 0);
	forget_records(f);
	expect_int(lobby_tick(&f->lobby, T0 + 1000 + GRACE_MS), UINT64_MAX);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_WINNER);
	expect_event(f, 1, 1, EVENT_DISCONNECT);
	expect_away(f, 0);
	expect_stats(f, 2, 0, 2, 0, 2, 0);
	expect_finished(f, 0, 0, 2);
}

static void a_takeover_of_a_connected_seat_still_sends_replaced(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	rejoin(f, 0, "zero", 100, T0);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_REPLACED);
	expect_event(f, 1, 100, EVENT_ROLE);
	expect_facts(f, 0);
	expect_stats(f, 2, 0, 1, 1, 1, 0);
	expect_away(f, 0);
	assert_null(away_first(f));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		grace_test(a_dropped_player_keeps_the_seat_for_the_grace),
		grace_test(
			leaving_on_purpose_forfeits_at_once_despite_the_grace),
		cmocka_unit_test_setup_teardown(
			a_drop_without_grace_forfeits_at_once,
			setup_journal_no_grace, teardown),
		grace_test(a_waiting_player_who_drops_is_freed_at_once),
		grace_test(
			a_drop_after_the_game_is_over_frees_the_seat_at_once),
		grace_test(opponent_away_counts_whole_seconds_rounded_up),
		grace_test(a_resume_tells_the_seconds_left_rounded_up),
		grace_test(a_player_back_within_the_grace_resumes_the_game),
		grace_test(
			the_present_player_plays_on_and_the_away_one_hears_nothing),
		grace_test(
			a_returner_whose_game_ended_meanwhile_gets_the_result),
		grace_test(
			both_away_the_first_deadline_forfeits_and_the_second_sees_it),
		grace_test(a_returner_whose_opponent_is_away_too_is_told_so),
		grace_test(tick_before_the_deadline_changes_nothing),
		grace_test(tick_at_the_deadline_forfeits_the_absent_player),
		grace_test(tick_long_after_the_deadline_forfeits_just_the_same),
		grace_test(tick_with_nobody_away_returns_uint64_max),
		grace_test(tick_returns_the_earliest_deadline_first),
		grace_test(a_takeover_of_a_connected_seat_still_sends_replaced),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
