/*
 * test_lobby_clocks.c - the lobby: Fischer clocks (core/PROTOCOL.md
 * section 10.2) kept on the lobby's timer: the clocks and the first-move
 * deadline a timed room tells, the flag lobby_tick() lets fall, a move in
 * time and one after the flag, the first-move abort, an untimed game that
 * is never timed, a takeback that gives no time back, a resumed seat's
 * clocks, and the clock against the reconnect grace. Time is passed in as
 * now_ms and lobby_tick() fires the deadlines. The fixture is
 * lobby_fixture.h's.
 */
#include "lobby_fixture.h"

/* A clock shorter than the grace (GRACE_MS): 10+0. */
#define SHORT_MS 10000

/* 10+0: the clock runs out before the grace of GRACE_MS does. */
static int setup_short_clock(void **state)
{
	return setup_tc(state, (struct time_control){ SHORT_MS, 0 }, GRACE_MS);
}

#define short_clock_test(name) \
	cmocka_unit_test_setup_teardown(name, setup_short_clock, teardown)

/* Clocks ------------------------------------------------------------- */

static void a_timed_room_tells_the_clocks_and_the_abort_deadline(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	script_match(f, 0x11, 0);
	p0 = join_pool(f, 0, "zero", NULL, T0);
	p1 = join_pool(f, 1, "one", NULL, T0);
	expect_events(f, 4);
	expect_event(f, 2, 0, EVENT_ROLE);
	expect_event(f, 3, 1, EVENT_ROLE);
	for (size_t i = 2; i < 4; i++) {
		expect_json_string(f, i, "tc", "60+2");
		expect_clock(f, i, BASE_MS, BASE_MS);
		expect_abort_in(f, i, FIRST_MS);
	}
	expect_int(lobby_tick(&f->lobby, T0), T0 + FIRST_MS);
	forget_records(f);

	/* front's first move: free, with the increment; back's deadline */
	play_at(f, p0, 7, 7, T0 + 10000);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_BOARD);
	expect_clock(f, 0, BASE_MS + INC_MS, BASE_MS);
	expect_abort_in(f, 0, FIRST_MS);
	expect_clock(f, 1, BASE_MS + INC_MS, BASE_MS);
	expect_int(lobby_tick(&f->lobby, T0 + 10000), T0 + 10000 + FIRST_MS);
	forget_records(f);

	/* back's first move: free too; now front's clock runs */
	play_at(f, p1, 8, 8, T0 + 15000);
	expect_clock(f, 0, BASE_MS + INC_MS, BASE_MS + INC_MS);
	expect_abort_in(f, 0, -1);
	expect_int(lobby_tick(&f->lobby, T0 + 15000),
		   T0 + 15000 + BASE_MS + INC_MS);
	forget_records(f);

	play_at(f, p0, 6, 6, T0 + 20000);
	expect_events(f, 2);
	expect_clock(f, 0, BASE_MS + 2 * INC_MS - 5000, BASE_MS + INC_MS);
	expect_clock(f, 1, BASE_MS + 2 * INC_MS - 5000, BASE_MS + INC_MS);
	/* the journal hears the move with the clocks once it was accepted */
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_MOVE, 0);
	expect_int(f->facts[0].clock_ms[ROLE_FRONT],
		   BASE_MS + 2 * INC_MS - 5000);
	expect_int(f->facts[0].clock_ms[ROLE_BACK], BASE_MS + INC_MS);
	expect_int(lobby_tick(&f->lobby, T0 + 20000),
		   T0 + 20000 + BASE_MS + INC_MS);
}

static void a_resumed_seat_gets_the_clocks_of_that_moment(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	size_t role_at;

	pair_at(f, &p0, &p1, 0, T0);
	open_clocks(f, p0, p1, T0 + 1000, T0 + 2000);
	drop(f, p0, T0 + 3000);
	forget_records(f);
	p0 = rejoin(f, 0, "zero", 2, T0 + 9000);
	role_at = event_index(f, 2, EVENT_ROLE);
	expect_clock(f, role_at, BASE_MS + INC_MS - 7000, BASE_MS + INC_MS);
	expect_abort_in(f, role_at, -1);
	expect_event(f, role_at + 1, 2, EVENT_BOARD);
	expect_clock(f, role_at + 1, BASE_MS + INC_MS - 7000, BASE_MS + INC_MS);
	/* the time away was charged: the flag did not move */
	expect_int(lobby_tick(&f->lobby, T0 + 9000),
		   T0 + 2000 + BASE_MS + INC_MS);
}

static void the_flag_falls_on_the_lobby_timer(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	uint64_t flag = T0 + 2000 + BASE_MS + INC_MS;

	pair_at(f, &p0, &p1, 0, T0);
	open_clocks(f, p0, p1, T0 + 1000, T0 + 2000);

	expect_int(lobby_tick(&f->lobby, flag - 1), flag);
	expect_events(f, 0);
	expect_int(lobby_tick(&f->lobby, flag), UINT64_MAX);
	expect_events(f, 2);
	expect_winner(f, 0, 0, WINNER_BACK, REASON_TIMEOUT);
	expect_winner(f, 1, 1, WINNER_BACK, REASON_TIMEOUT);
	expect_json_string(f, 0, "reason", "timeout");
	expect_clock(f, 0, 0, BASE_MS + INC_MS);
	expect_clock(f, 1, 0, BASE_MS + INC_MS);
	/* journalled first, with the final clocks */
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_GAME_OVER, 0);
	expect_enum(f->facts[0].reason, REASON_TIMEOUT, reason_name);
	expect_enum(f->facts[0].winner, WINNER_BACK, winner_name);
	expect_int(f->facts[0].clock_ms[ROLE_FRONT], 0);
	expect_int(f->facts[0].clock_ms[ROLE_BACK], BASE_MS + INC_MS);
	expect_int(f->lobby.stats.games_finished[REASON_TIMEOUT], 1);
	expect_int(f->lobby.stats.rooms_live, 0);
	expect_pool(f, &pool_timed, 0, 0);
	expect_refused_at(f, p0, REQUEST_MOVE, 0, ERR_GAME_OVER, flag + 1);
	/* a later tick has nothing more to do */
	forget_records(f);
	expect_int(lobby_tick(&f->lobby, flag + 60000), UINT64_MAX);
	expect_events(f, 0);
}

static void
a_move_in_time_is_charged_and_one_after_the_flag_is_game_over(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	uint64_t flag = T0 + 2000 + BASE_MS + INC_MS;
	size_t error;

	pair_at(f, &p0, &p1, 0, T0);
	open_clocks(f, p0, p1, T0 + 1000, T0 + 2000);
	/* front moves with 1 ms left, no tick in between */
	play_at(f, p0, 6, 6, flag - 1);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_BOARD);
	expect_clock(f, 0, 1 + INC_MS, BASE_MS + INC_MS);
	forget_records(f);

	/* back's move comes when its flag has fallen, before any tick */
	play_at(f, p1, 9, 9, flag - 1 + BASE_MS + INC_MS);
	if (events_to(f, 1, EVENT_BOARD) || events_to(f, 0, EVENT_BOARD))
		fail_msg("a move after the flag was played");
	expect_winner(f, 0, 0, WINNER_FRONT, REASON_TIMEOUT);
	expect_winner(f, 1, 1, WINNER_FRONT, REASON_TIMEOUT);
	expect_clock(f, 0, 1 + INC_MS, 0);
	error = event_index(f, 1, EVENT_ERROR);
	expect_int(error, 2);
	expect_enum(f->records[error].code, ERR_GAME_OVER, code_name);
	expect_events(f, 3);
	expect_int(f->lobby.stats.games_finished[REASON_TIMEOUT], 1);
	expect_int(p0->room->game.moves_played, 3);
}

static void front_who_never_moves_has_the_game_aborted(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair_at(f, &p0, &p1, 0, T0);
	expect_int(lobby_tick(&f->lobby, T0 + FIRST_MS - 1), T0 + FIRST_MS);
	expect_events(f, 0);
	lobby_tick(&f->lobby, T0 + FIRST_MS);
	expect_events(f, 2);
	expect_winner(f, 0, 0, WINNER_NOBODY, REASON_ABORTED);
	expect_winner(f, 1, 1, WINNER_NOBODY, REASON_ABORTED);
	expect_json_string(f, 0, "winner", "none");
	expect_json_string(f, 1, "reason", "aborted");
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_GAME_OVER, 0);
	expect_enum(f->facts[0].reason, REASON_ABORTED, reason_name);
	expect_int(f->lobby.stats.games_finished[REASON_ABORTED], 1);
	expect_int(f->lobby.stats.games_finished[REASON_TIMEOUT], 0);
	expect_int(f->lobby.stats.rooms_live, 0);
	expect_refused_at(f, p0, REQUEST_MOVE, 0, ERR_GAME_OVER,
			  T0 + FIRST_MS + 1);
	(void)p1;
}

static void back_who_never_answers_the_first_move_has_it_aborted(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	uint64_t moved = T0 + 20000;

	pair_at(f, &p0, &p1, 0, T0);
	play_at(f, p0, 7, 7, moved);
	forget_records(f);
	/* front's deadline no longer counts: back's runs from the move */
	lobby_tick(&f->lobby, T0 + FIRST_MS);
	expect_events(f, 0);
	expect_int(lobby_tick(&f->lobby, moved + FIRST_MS - 1),
		   moved + FIRST_MS);
	expect_events(f, 0);
	lobby_tick(&f->lobby, moved + FIRST_MS);
	expect_events(f, 2);
	/* not a win for front: the game does not count */
	expect_winner(f, 0, 0, WINNER_NOBODY, REASON_ABORTED);
	expect_winner(f, 1, 1, WINNER_NOBODY, REASON_ABORTED);
	expect_int(f->lobby.stats.games_finished[REASON_ABORTED], 1);
	expect_refused_at(f, p1, REQUEST_MOVE, 0, ERR_GAME_OVER,
			  moved + FIRST_MS);
}

static void an_untimed_game_is_never_aborted_nor_flagged(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	uint64_t later = T0 + 10ULL * 3600 * 1000;

	script_match(f, 0x11, 0);
	p0 = join_pool(f, 0, "zero", NULL, T0);
	p1 = join_pool(f, 1, "one", NULL, T0);
	expect_event(f, 2, 0, EVENT_ROLE);
	expect_json_string(f, 2, "tc", "none");
	if (json_has(f, 2, "clock") || json_has(f, 2, "abort_in"))
		fail_msg("an untimed role has clocks: %s", f->records[2].json);
	forget_records(f);
	expect_int(lobby_tick(&f->lobby, T0 + FIRST_MS), UINT64_MAX);
	expect_int(lobby_tick(&f->lobby, later), UINT64_MAX);
	expect_events(f, 0);
	play_at(f, p0, 7, 7, later);
	expect_event(f, 0, 0, EVENT_BOARD);
	if (json_has(f, 0, "clock") || json_has(f, 0, "abort_in"))
		fail_msg("an untimed board has clocks: %s", f->records[0].json);
	forget_records(f);
	lobby_tick(&f->lobby, later * 2);
	expect_events(f, 0);
	play_at(f, p1, 8, 8, later * 2);
	expect_events(f, 2);
	lobby_tick(&f->lobby, later * 3);
	expect_events(f, 2);
	expect_int(f->lobby.stats.rooms_live, 1);
}

static void a_takeback_gives_no_time_back(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	size_t i;

	pair_at(f, &p0, &p1, 0, T0);
	open_clocks(f, p0, p1, T0 + 1000, T0 + 2000);
	/* front spends 3 s on its second move; back then 3 s waiting */
	play_at(f, p0, 6, 6, T0 + 5000);
	offer(f, p0, OFFER_TAKEBACK, T0 + 6000);
	forget_records(f);
	answer(f, p1, OFFER_TAKEBACK, true, T0 + 8000);
	i = event_index(f, 0, EVENT_BOARD);
	if (!f->records[i].undo)
		fail_msg("event %zu: expected a takeback board", i);
	expect_clock(f, i, BASE_MS + 2 * INC_MS - 3000,
		     BASE_MS + INC_MS - 3000);
	expect_int(p0->room->game.to_move, ROLE_FRONT);
	/* front's clock runs again from the takeback, as it stood */
	expect_int(lobby_tick(&f->lobby, T0 + 8000),
		   T0 + 8000 + BASE_MS + 2 * INC_MS - 3000);
	forget_records(f);
	play_at(f, p0, 5, 5, T0 + 9000);
	expect_clock(f, 0, BASE_MS + 3 * INC_MS - 4000,
		     BASE_MS + INC_MS - 3000);
}

/* Clocks and the reconnect grace ------------------------------------- */

static void the_flag_falls_while_the_player_to_move_is_away(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	uint64_t flag = T0 + 2000 + SHORT_MS;
	uint64_t gone = T0 + 3000 + GRACE_MS;

	pair_at(f, &p0, &p1, 0, T0);
	open_clocks(f, p0, p1, T0 + 1000, T0 + 2000);
	drop(f, p0, T0 + 3000);
	expect_event(f, 0, 1, EVENT_OPPONENT_AWAY);
	forget_records(f);
	/* the grace does not stop the clock: the flag comes first */
	expect_int(lobby_tick(&f->lobby, T0 + 3000), flag);
	expect_events(f, 0);
	lobby_tick(&f->lobby, flag);
	expect_events(f, 1);
	expect_winner(f, 0, 1, WINNER_BACK, REASON_TIMEOUT);
	expect_clock(f, 0, 0, SHORT_MS);
	expect_int(f->lobby.stats.games_finished[REASON_TIMEOUT], 1);
	forget_records(f);
	/* the grace runs out on a finished game: only disconnect */
	lobby_tick(&f->lobby, gone);
	expect_events(f, 1);
	expect_event(f, 0, 1, EVENT_DISCONNECT);
	expect_int(f->lobby.stats.games_finished[REASON_FORFEIT], 0);
	expect_int(f->lobby.stats.players, 1);
	expect_int(lobby_tick(&f->lobby, gone + 1), UINT64_MAX);
}

static void a_player_back_after_the_flag_sees_the_timeout(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	size_t role_at;
	uint64_t flag = T0 + 2000 + SHORT_MS;

	pair_at(f, &p0, &p1, 0, T0);
	open_clocks(f, p0, p1, T0 + 1000, T0 + 2000);
	drop(f, p0, T0 + 3000);
	lobby_tick(&f->lobby, flag);
	forget_records(f);
	p0 = rejoin(f, 0, "zero", 2, flag + 5000);
	role_at = event_index(f, 2, EVENT_ROLE);
	expect_clock(f, role_at, 0, SHORT_MS);
	expect_event(f, role_at + 1, 2, EVENT_BOARD);
	expect_winner(f, role_at + 2, 2, WINNER_BACK, REASON_TIMEOUT);
	expect_clock(f, role_at + 2, 0, SHORT_MS);
	expect_int(f->lobby.stats.games_finished[REASON_FORFEIT], 0);
}

static void
a_late_tick_ends_the_game_by_the_deadline_that_fell_first(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair_at(f, &p0, &p1, 0, T0);
	open_clocks(f, p0, p1, T0 + 1000, T0 + 2000);
	drop(f, p0, T0 + 3000);
	forget_records(f);
	/* one tick after both the flag (T0 + 12 s) and the grace
	 * (T0 + 33 s) fell: the flag fell first */
	lobby_tick(&f->lobby, T0 + 3000 + GRACE_MS + 5000);
	expect_events(f, 2);
	expect_winner(f, 0, 1, WINNER_BACK, REASON_TIMEOUT);
	expect_event(f, 1, 1, EVENT_DISCONNECT);
	expect_int(f->lobby.stats.games_finished[REASON_TIMEOUT], 1);
	expect_int(f->lobby.stats.games_finished[REASON_FORFEIT], 0);
}

static void a_grace_shorter_than_the_clock_forfeits(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	uint64_t gone = T0 + 3000 + GRACE_MS;

	pair_at(f, &p0, &p1, 0, T0);
	open_clocks(f, p0, p1, T0 + 1000, T0 + 2000);
	drop(f, p0, T0 + 3000);
	forget_records(f);
	expect_int(lobby_tick(&f->lobby, T0 + 3000), gone);
	lobby_tick(&f->lobby, gone - 1);
	expect_events(f, 0);
	lobby_tick(&f->lobby, gone);
	expect_events(f, 2);
	expect_winner(f, 0, 1, WINNER_BACK, REASON_FORFEIT);
	/* front was charged its whole turn, 31 s */
	expect_clock(f, 0, BASE_MS + INC_MS - 31000, BASE_MS + INC_MS);
	expect_event(f, 1, 1, EVENT_DISCONNECT);
	expect_int(f->lobby.stats.games_finished[REASON_FORFEIT], 1);
	expect_int(f->lobby.stats.games_finished[REASON_TIMEOUT], 0);
	expect_int(lobby_tick(&f->lobby, gone + BASE_MS * 2), UINT64_MAX);
	expect_events(f, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		timed_test(
			a_timed_room_tells_the_clocks_and_the_abort_deadline),
		timed_test(a_resumed_seat_gets_the_clocks_of_that_moment),
		timed_test(the_flag_falls_on_the_lobby_timer),
		timed_test(
			a_move_in_time_is_charged_and_one_after_the_flag_is_game_over),
		timed_test(front_who_never_moves_has_the_game_aborted),
		timed_test(
			back_who_never_answers_the_first_move_has_it_aborted),
		untimed_test(an_untimed_game_is_never_aborted_nor_flagged),
		timed_test(a_takeback_gives_no_time_back),
		short_clock_test(
			the_flag_falls_while_the_player_to_move_is_away),
		short_clock_test(a_player_back_after_the_flag_sees_the_timeout),
		short_clock_test(
			a_late_tick_ends_the_game_by_the_deadline_that_fell_first),
		timed_test(a_grace_shorter_than_the_clock_forfeits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
