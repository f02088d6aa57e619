/*
 * test_lobby_seats.c - the lobby: leaving (while waiting, during a game,
 * after it), seats taken over by the same uid, no whole uid in any event,
 * the seat table, and release. The fixture is lobby_fixture.h's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lobby_fixture.h"

static void a_waiting_player_who_leaves_is_never_matched(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1, *p2;

	p0 = join(f, 0, NULL);
	lobby_disconnect(&f->lobby, p0, false, 0);
	expect_events(f, 1);
	expect_stats(f, 0, 0, 0, 0, 0, 0);
	assert_null(queue_first(f));
	assert_null(queue_last(f));
	assert_null(lobby_find(&f->lobby, f->uids[0]));

	script_match(f, 0x11, 0);
	p1 = join(f, 1, NULL);
	p2 = join(f, 2, NULL);
	assert_ptr_equal(p1->room, p2->room);
	expect_int(p1->role, ROLE_FRONT);
	expect_stats(f, 2, 0, 1, 1, 1, 0);
}

static void leaving_a_live_game_sends_forfeit_then_disconnect(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request move = move_request(9, 9);

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	forget_records(f);
	lobby_disconnect(&f->lobby, p0, false, 0);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_WINNER);
	expect_int(f->records[0].winner, WINNER_BACK);
	expect_int(f->records[0].reason, REASON_FORFEIT);
	assert_null(strstr(f->records[0].json, "line"));
	expect_event(f, 1, 1, EVENT_DISCONNECT);
	expect_str(f->records[1].text, "opponent left");
	expect_stats(f, 1, 0, 1, 0, 1, 1);
	expect_int(f->lobby.stats.games_finished[REASON_FORFEIT], 1);
	assert_null(p1->room->seats[ROLE_FRONT]);
	assert_null(lobby_find(&f->lobby, f->uids[0]));

	expect_refusal(f, p1, &move, ERR_GAME_OVER);
	lobby_disconnect(&f->lobby, p1, false, 0);
	expect_events(f, 0);
	expect_stats(f, 0, 0, 0, 0, 1, 1);
	expect_int(f->lobby.stats.games_finished[REASON_FORFEIT], 1);
}

static void leaving_after_the_game_is_over_sends_only_disconnect(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	int i;

	pair(f, &p0, &p1, 0);
	for (i = 0; i < 4; i++) {
		play(f, p0, i, 0);
		play(f, p1, i, 1);
	}
	play(f, p0, 4, 0);
	forget_records(f);
	lobby_disconnect(&f->lobby, p1, false, 0);
	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_DISCONNECT);
	expect_int(f->lobby.stats.games_finished[REASON_FORFEIT], 0);
	expect_int(f->lobby.stats.games_finished[REASON_FIVE], 1);
	expect_stats(f, 1, 0, 1, 0, 1, 9);
	forget_records(f);
	lobby_disconnect(&f->lobby, p0, false, 0);
	expect_events(f, 0);
	expect_stats(f, 0, 0, 0, 0, 1, 9);
}

static void players_who_leave_and_return_are_matched_anew(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	char first_room[UID_LEN + 1];

	pair(f, &p0, &p1, 0);
	snprintf(first_room, sizeof(first_room), "%s", p0->room->id);
	lobby_disconnect(&f->lobby, p0, false, 0);
	lobby_disconnect(&f->lobby, p1, false, 0);
	script_match(f, 0x22, 1);
	p1 = join(f, 1, NULL);
	p0 = join(f, 0, NULL);
	assert_ptr_equal(p0->room, p1->room);
	expect_int(p1->role, ROLE_BACK);
	if (strcmp(p0->room->id, first_room) == 0)
		fail_msg("the new room reused id %s", first_room);
	expect_stats(f, 2, 0, 1, 1, 2, 0);
	expect_int(f->lobby.stats.games_finished[REASON_FORFEIT], 1);
}

static void the_same_uid_takes_over_with_role_and_board(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1, *again;
	struct lobby_stats stats;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	play(f, p1, 8, 8);
	forget_records(f);
	stats = f->lobby.stats;
	again = lobby_connect(&f->lobby, f->uids[0], "zero again", conn(f, 100),
			      0);
	assert_ptr_equal(again, p0);
	expect_events(f, 3);
	expect_event(f, 0, 0, EVENT_REPLACED);
	expect_event(f, 1, 100, EVENT_ROLE);
	expect_int(f->records[1].role, ROLE_FRONT);
	expect_str(f->records[1].room, p0->room->id);
	expect_str(f->records[1].opponent, "one");
	expect_event(f, 2, 100, EVENT_BOARD);
	expect_int(f->records[2].moves, 2);
	expect_int(f->records[2].move.x, 8);
	assert_memory_equal(&stats, &f->lobby.stats, sizeof(stats));
	expect_str(p0->name, "zero again");
	assert_ptr_equal(p0->conn, conn(f, 100));

	/* Later events go to the new connection only. */
	forget_records(f);
	play(f, p0, 9, 9);
	expect_events(f, 2);
	expect_event(f, 0, 100, EVENT_BOARD);
	expect_event(f, 1, 1, EVENT_BOARD);
}

static void a_takeover_before_any_move_gets_role_only(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 1);
	lobby_connect(&f->lobby, f->uids[1], "one", conn(f, 101), 0);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_REPLACED);
	expect_event(f, 1, 101, EVENT_ROLE);
	expect_int(f->records[1].role, ROLE_FRONT);
	expect_stats(f, 2, 0, 1, 1, 1, 0);
}

static void a_takeover_of_a_finished_game_gets_the_winner(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	int i;

	pair(f, &p0, &p1, 0);
	for (i = 0; i < 4; i++) {
		play(f, p0, i, 0);
		play(f, p1, i, 1);
	}
	play(f, p0, 4, 0);
	forget_records(f);
	lobby_connect(&f->lobby, f->uids[1], "", conn(f, 101), 0);
	expect_events(f, 4);
	expect_event(f, 0, 1, EVENT_REPLACED);
	expect_event(f, 1, 101, EVENT_ROLE);
	expect_event(f, 2, 101, EVENT_BOARD);
	expect_event(f, 3, 101, EVENT_WINNER);
	expect_int(f->records[3].winner, WINNER_FRONT);
	expect_int(f->records[3].line.length, 5);
	expect_stats(f, 2, 0, 1, 0, 1, 9);
}

static void a_takeover_of_a_waiting_seat_keeps_waiting(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *again;

	p0 = join(f, 0, "zero");
	forget_records(f);
	again = lobby_connect(&f->lobby, f->uids[0], "", conn(f, 100), 0);
	assert_ptr_equal(again, p0);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_REPLACED);
	expect_event(f, 1, 100, EVENT_WAITING);
	expect_str(p0->name, "");
	expect_stats(f, 1, 1, 0, 0, 0, 0);

	/* The seat is still first in line. */
	script_match(f, 0x11, 0);
	join(f, 1, NULL);
	expect_int(p0->state, PLAYER_PLAYING);
	expect_int(p0->role, ROLE_FRONT);
	expect_event(f, f->count - 2, 100, EVENT_ROLE);
}

static void a_seat_taken_over_then_left_forfeits_once(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	lobby_connect(&f->lobby, f->uids[0], NULL, conn(f, 100), 0);
	forget_records(f);
	lobby_disconnect(&f->lobby, p0, false, 0);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_WINNER);
	expect_event(f, 1, 1, EVENT_DISCONNECT);
	expect_stats(f, 1, 0, 1, 0, 1, 0);
}

static void no_event_to_anyone_carries_a_whole_uid(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p[4];
	struct request bad = move_request(99, 0);
	int i;

	script_match(f, 0x11, 0);
	script_match(f, 0x22, 1);
	for (i = 0; i < 4; i++)
		p[i] = join(f, i, i % 2 ? "" : "name");
	for (i = 0; i < 4; i++) {
		play(f, p[0], i, 0);
		play(f, p[1], i, 1);
	}
	play(f, p[0], 4, 0);
	lobby_request(&f->lobby, p[1], &bad, 0);
	lobby_connect(&f->lobby, f->uids[2], "back", conn(f, 102), 0);
	lobby_disconnect(&f->lobby, p[3], false, 0);
	lobby_disconnect(&f->lobby, p[0], false, 0);
	expect_no_uid_sent(f, 4);
}

static void the_seat_table_grows_and_finds_1000_players(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *players[MAX_UIDS];
	size_t buckets;
	int i;

	f->endless = true;
	for (i = 0; i < MAX_UIDS; i++)
		players[i] = join(f, i, NULL);
	buckets = f->lobby.seat_buckets;
	if (buckets < MAX_UIDS || (buckets & (buckets - 1)))
		fail_msg("%zu buckets for %d players", buckets, MAX_UIDS);
	expect_stats(f, MAX_UIDS, 0, MAX_UIDS / 2, MAX_UIDS / 2, MAX_UIDS / 2,
		     0);
	for (i = 0; i < MAX_UIDS; i++)
		if (lobby_find(&f->lobby, f->uids[i]) != players[i])
			fail_msg("player %d not found after growth", i);

	/* Leave in an order unrelated to the joins: 7 is prime to 1000. */
	for (i = 0; i < MAX_UIDS; i++)
		lobby_disconnect(&f->lobby, players[(i * 7) % MAX_UIDS], false,
				 0);
	for (i = 0; i < MAX_UIDS; i++)
		if (lobby_find(&f->lobby, f->uids[i]))
			fail_msg("player %d found after leaving", i);
	expect_stats(f, 0, 0, 0, 0, MAX_UIDS / 2, 0);
	expect_int(f->lobby.stats.games_finished[REASON_FORFEIT], MAX_UIDS / 2);
}

static void release_frees_every_seat_and_room_without_sending(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p[5];
	size_t sent;
	int i;

	script_match(f, 0x11, 0);
	script_match(f, 0x22, 0);
	for (i = 0; i < 5; i++)
		p[i] = join(f, i, NULL);
	play(f, p[0], 7, 7);
	lobby_disconnect(&f->lobby, p[3], false, 0); /* room B half empty */
	sent = f->count;
	lobby_release(&f->lobby);
	f->released = true;
	expect_int(f->count, sent);
	assert_null(f->lobby.seats);
	expect_int(f->lobby.stats.players, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		lobby_test(a_waiting_player_who_leaves_is_never_matched),
		lobby_test(leaving_a_live_game_sends_forfeit_then_disconnect),
		lobby_test(
			leaving_after_the_game_is_over_sends_only_disconnect),
		lobby_test(players_who_leave_and_return_are_matched_anew),
		lobby_test(the_same_uid_takes_over_with_role_and_board),
		lobby_test(a_takeover_before_any_move_gets_role_only),
		lobby_test(a_takeover_of_a_finished_game_gets_the_winner),
		lobby_test(a_takeover_of_a_waiting_seat_keeps_waiting),
		lobby_test(a_seat_taken_over_then_left_forfeits_once),
		lobby_test(no_event_to_anyone_carries_a_whole_uid),
		lobby_test(the_seat_table_grows_and_finds_1000_players),
		lobby_test(release_frees_every_seat_and_room_without_sending),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
