/*
 * test_lobby_journal.c - the lobby: the journal hook (lobby_sink.record):
 * each fact recorded once, before the players hear of it; and a lobby
 * without a journal. The fixture is lobby_fixture.h's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lobby_fixture.h"

static void the_journal_hears_room_opened_before_the_role_events(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0;

	script_match(f, 0x11, 0);
	p0 = join(f, 0, "zero");
	expect_facts(f, 0);
	join(f, 1, "one");
	expect_events(f, 4);
	expect_event(f, 2, 0, EVENT_ROLE);
	expect_event(f, 3, 1, EVENT_ROLE);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_ROOM_OPENED, 2);
	assert_ptr_equal(f->facts[0].room, p0->room);
	expect_str(f->facts[0].room_id, p0->room->id);
	assert_true(f->facts[0].seated[ROLE_FRONT]);
	assert_true(f->facts[0].seated[ROLE_BACK]);
	expect_int(f->facts[0].moves, 0);
}

static void the_journal_hears_each_move_once_before_the_boards(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request board = { .type = REQUEST_BOARD, .role = ROLE_BACK };
	struct request move = move_request(7, 7);

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	expect_events(f, 2);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_MOVE, 0);
	expect_int(f->facts[0].moves, 1);
	assert_ptr_equal(f->facts[0].room, p0->room);

	/* A refusal is no fact. */
	expect_refusal(f, p1, &move, ERR_OCCUPIED);
	expect_facts(f, 0);

	/* A seed-form board is a move like any other. */
	memcpy(board.cells, p1->room->game.board.cells, sizeof(board.cells));
	board.cells[3 * 15 + 4] = ROLE_BACK;
	lobby_request(&f->lobby, p1, &board, 0);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_BOARD);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_MOVE, 0);
	expect_int(f->facts[0].moves, 2);
	expect_int(p1->room->game.history[1], 3 * 15 + 4);
}

static void the_journal_hears_game_over_before_the_winners(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	int i;

	pair(f, &p0, &p1, 0);
	for (i = 0; i < 4; i++) {
		play(f, p0, i, 0);
		play(f, p1, i, 1);
	}
	forget_records(f);
	play(f, p0, 4, 0);
	expect_events(f, 4);
	expect_event(f, 0, 0, EVENT_BOARD);
	expect_event(f, 1, 1, EVENT_BOARD);
	expect_event(f, 2, 0, EVENT_WINNER);
	expect_event(f, 3, 1, EVENT_WINNER);
	expect_facts(f, 2);
	expect_fact(f, 0, RECORD_MOVE, 0);
	expect_int(f->facts[0].moves, 9);
	expect_fact(f, 1, RECORD_GAME_OVER, 0);
	expect_int(f->facts[1].reason, REASON_FIVE);
	expect_stats(f, 2, 0, 1, 0, 1, 9);
	expect_finished(f, 1, 0, 0);
}

static void
the_journal_hears_room_closed_once_as_the_last_one_leaves(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	char room_id[UID_LEN + 1];
	const struct lobby_room *room;

	pair(f, &p0, &p1, 0);
	room = p0->room;
	snprintf(room_id, sizeof(room_id), "%s", room->id);
	lobby_disconnect(&f->lobby, p0, true, T0);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_GAME_OVER, 0);
	forget_records(f);
	lobby_disconnect(&f->lobby, p1, true, T0);
	expect_events(f, 0);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_ROOM_CLOSED, 0);
	/* Read during the call, so the room was not yet freed. */
	assert_ptr_equal(f->facts[0].room, room);
	expect_str(f->facts[0].room_id, room_id);
	assert_false(f->facts[0].seated[ROLE_FRONT]);
	assert_false(f->facts[0].seated[ROLE_BACK]);
	expect_stats(f, 0, 0, 0, 0, 1, 0);
}

static void every_fact_of_a_whole_game_is_recorded_exactly_once(void **state)
{
	static const enum lobby_record expected[] = {
		RECORD_ROOM_OPENED, RECORD_MOVE,      RECORD_MOVE,
		RECORD_MOVE,	    RECORD_MOVE,      RECORD_MOVE,
		RECORD_MOVE,	    RECORD_MOVE,      RECORD_MOVE,
		RECORD_MOVE,	    RECORD_GAME_OVER, RECORD_ROOM_CLOSED,
	};
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	size_t i;

	script_match(f, 0x11, 0);
	p0 = join(f, 0, "zero");
	p1 = join(f, 1, "one");
	play_to_five(f, p0, p1);
	drop(f, p1, T0);
	drop(f, p0, T0);
	expect_facts(f, (int)(sizeof(expected) / sizeof(expected[0])));
	for (i = 0; i < f->fact_count; i++) {
		if (f->facts[i].type != expected[i])
			fail_msg("fact %zu: expected %s, got %s", i,
				 fact_name(expected[i]),
				 fact_name(f->facts[i].type));
		if (expected[i] == RECORD_MOVE && f->facts[i].moves != (int)i)
			fail_msg("fact %zu: expected move %zu, got %d", i, i,
				 f->facts[i].moves);
	}
	expect_stats(f, 0, 0, 0, 0, 1, 9);
	expect_finished(f, 1, 0, 0);
}

static void drops_returns_and_takeovers_record_nothing(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	forget_records(f);
	drop(f, p0, T0);
	rejoin(f, 0, "zero", 100, T0 + 1);
	rejoin(f, 1, "one", 101, T0 + 2);
	rejoin(f, 1, "one", 102, T0 + 3);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS), UINT64_MAX);
	expect_facts(f, 0);
	expect_stats(f, 2, 0, 1, 1, 1, 1);
	expect_away(f, 0);
}

static void a_lobby_without_a_journal_runs_every_path(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	const uint16_t moves[] = { 0, 15 };
	struct lobby_saved_game saved = {
		.room_id = "6f1c0e2a-9b7d-4c3e-8a5f-0123456789ab",
		.board_size = 15,
		.uid = { NULL, f->uids[2], f->uids[3] },
		.moves = moves,
		.moves_played = 2,
	};

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	drop(f, p0, T0);
	rejoin(f, 0, "zero", 100, T0 + 1);
	drop(f, p1, T0 + 2);
	expect_int(lobby_tick(&f->lobby, T0 + 2 + GRACE_MS), UINT64_MAX);
	lobby_disconnect(&f->lobby, p0, true, T0 + 3);
	script_match(f, 0x22, 0);
	p0 = join(f, 0, NULL);
	p1 = join(f, 1, NULL);
	play_to_five(f, p0, p1);
	drop(f, p0, T0 + 4);
	drop(f, p1, T0 + 4);
	assert_non_null(lobby_restore(&f->lobby, &saved, T0 + 5));
	expect_int(lobby_tick(&f->lobby, T0 + 5 + GRACE_MS), UINT64_MAX);
	expect_facts(f, 0);
	expect_stats(f, 0, 0, 0, 0, 2, 10);
	expect_away(f, 0);
	expect_finished(f, 1, 0, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		grace_test(
			the_journal_hears_room_opened_before_the_role_events),
		grace_test(the_journal_hears_each_move_once_before_the_boards),
		grace_test(the_journal_hears_game_over_before_the_winners),
		grace_test(
			the_journal_hears_room_closed_once_as_the_last_one_leaves),
		grace_test(every_fact_of_a_whole_game_is_recorded_exactly_once),
		grace_test(drops_returns_and_takeovers_record_nothing),
		cmocka_unit_test_setup_teardown(
			a_lobby_without_a_journal_runs_every_path,
			setup_grace_no_journal, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
