/*
 * test_lobby_restore.c - the lobby: games a journal saved, seated again
 * after a restart, and the saved games refused. The fixture is
 * lobby_fixture.h's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lobby_fixture.h"

/* A saved game of uids 0 (front, "zero") and 1 (back, "one"). */
static struct lobby_saved_game saved_game(struct fixture *f,
					  const uint16_t *moves, int count)
{
	struct lobby_saved_game saved = {
		.room_id = "6f1c0e2a-9b7d-4c3e-8a5f-0123456789ab",
		.board_size = 15,
		.rule = RULE_FREESTYLE,
		.full_board = FULL_BOARD_BACK,
		.uid = { NULL, f->uids[0], f->uids[1] },
		.name = { NULL, "zero", "one" },
		.moves = moves,
		.moves_played = count,
	};

	return saved;
}

/* Front (7,7), back (8,8), front (8,7): back to move. */
static const uint16_t three_moves[] = { 7 * 15 + 7, 8 * 15 + 8, 7 * 15 + 8 };

/* Checks that restoring saved is refused and leaves the lobby as it was. */
static void expect_restore_refused(struct fixture *f,
				   const struct lobby_saved_game *saved,
				   const char *why)
{
	struct lobby_stats stats = f->lobby.stats;
	const struct lobby_player *away_head = away_first(f);
	bool had[2];
	int i;

	for (i = 0; i < 2; i++)
		had[i] = lobby_find(&f->lobby, saved->uid[ROLE_FRONT + i]);
	forget_records(f);
	if (lobby_restore(&f->lobby, saved, T0))
		fail_msg("%s: expected NULL, got a room", why);
	expect_events(f, 0);
	expect_facts(f, 0);
	if (memcmp(&stats, &f->lobby.stats, sizeof(stats)))
		fail_msg("%s: the stats changed", why);
	assert_ptr_equal(away_first(f), away_head);
	for (i = 0; i < 2; i++)
		if (!had[i] &&
		    lobby_find(&f->lobby, saved->uid[ROLE_FRONT + i]))
			fail_msg("%s: the %s uid got a seat", why,
				 i ? "back" : "front");
}

static void restore_seats_a_saved_game_with_both_players_away(void **state)
{
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, three_moves, 3);
	struct lobby_room *room;
	const struct game *game;
	int role;

	room = lobby_restore(&f->lobby, &saved, T0);
	assert_non_null(room);
	expect_str(room->id, saved.room_id);
	game = &room->game;
	expect_int(game->board.size, 15);
	expect_int(game->moves_played, 3);
	expect_int(game->board.stones, 3);
	expect_int(game->to_move, ROLE_BACK);
	expect_int(board_get(&game->board, 7, 7), ROLE_FRONT);
	expect_int(board_get(&game->board, 8, 8), ROLE_BACK);
	expect_int(board_get(&game->board, 8, 7), ROLE_FRONT);
	assert_memory_equal(game->history, three_moves, sizeof(three_moves));
	expect_int(game->last_move.x, 8);
	expect_int(game->last_move.y, 7);
	expect_int(game->last_mover, ROLE_FRONT);
	assert_false(game_is_over(game));
	for (role = ROLE_FRONT; role <= ROLE_BACK; role++) {
		const struct lobby_player *seat = room->seats[role];

		assert_non_null(seat);
		assert_ptr_equal(lobby_find(&f->lobby, saved.uid[role]), seat);
		expect_str(seat->name, saved.name[role]);
		expect_int(seat->role, role);
		expect_int(seat->state, PLAYER_PLAYING);
		assert_null(seat->conn);
		expect_int(seat->away_until, T0 + GRACE_MS);
	}
	expect_events(f, 0);
	expect_facts(f, 0);
	expect_stats(f, 2, 0, 1, 1, 0, 0);
	expect_away(f, 2);
	expect_int(lobby_tick(&f->lobby, T0), T0 + GRACE_MS);
	assert_false(room->private);
}

/* A game by invite link stays private: still out of the lists. */
static void a_restored_private_game_stays_private(void **state)
{
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, three_moves, 3);
	struct lobby_room *room;

	saved.private = true;
	room = lobby_restore(&f->lobby, &saved, T0);
	assert_non_null(room);
	assert_true(room->private);
}

static void
a_restored_game_resumes_with_the_board_and_the_side_to_move(void **state)
{
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, three_moves, 3);
	struct lobby_player *front, *back;
	struct request move = move_request(0, 0);
	struct lobby_room *room;
	char back_board[4096];

	room = lobby_restore(&f->lobby, &saved, T0);
	assert_non_null(room);
	back = rejoin(f, 1, "one", 1, T0 + 1000);
	expect_events(f, 3);
	expect_event(f, 0, 1, EVENT_ROLE);
	expect_int(f->records[0].role, ROLE_BACK);
	expect_str(f->records[0].room, saved.room_id);
	expect_str(f->records[0].opponent, "zero");
	expect_event(f, 1, 1, EVENT_BOARD);
	expect_int(f->records[1].moves, 3);
	if (!strstr(f->records[1].json, "],\"role\":\"back\",\"move\":{\"x\":8,"
					"\"y\":7,\"role\":\"front\"},"
					"\"moves\":3}"))
		fail_msg("expected back to move after front's (8, 7), got %s",
			 f->records[1].json);
	expect_event(f, 2, 1, EVENT_OPPONENT_AWAY);
	expect_int(f->records[2].seconds, 29);
	expect_stats(f, 2, 0, 1, 1, 0, 0);
	expect_away(f, 1);
	snprintf(back_board, sizeof(back_board), "%s", f->records[1].json);

	forget_records(f);
	front = rejoin(f, 0, "zero", 0, T0 + 2000);
	expect_events(f, 3);
	expect_event(f, 0, 1, EVENT_OPPONENT_BACK);
	expect_event(f, 1, 0, EVENT_ROLE);
	expect_int(f->records[1].role, ROLE_FRONT);
	expect_event(f, 2, 0, EVENT_BOARD);
	expect_str(f->records[2].json, back_board);
	expect_away(f, 0);
	assert_ptr_equal(front->room, room);
	assert_ptr_equal(back->room, room);

	expect_refusal(f, front, &move, ERR_NOT_YOUR_TURN);
	play(f, back, 9, 9);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_BOARD);
	expect_event(f, 1, 1, EVENT_BOARD);
	expect_int(f->records[0].moves, 4);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_MOVE, 0);
	expect_int(room->game.history[3], 9 * 15 + 9);
	expect_stats(f, 2, 0, 1, 1, 0, 1);
}

static void restore_without_moves_puts_front_to_move(void **state)
{
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, NULL, 0);
	struct lobby_room *room;

	room = lobby_restore(&f->lobby, &saved, T0);
	assert_non_null(room);
	expect_int(room->game.to_move, ROLE_FRONT);
	expect_int(room->game.moves_played, 0);
	rejoin(f, 0, "zero", 0, T0);
	expect_events(f, 2); /* role and opponent_away: no board */
	expect_event(f, 0, 0, EVENT_ROLE);
	expect_event(f, 1, 0, EVENT_OPPONENT_AWAY);
	expect_int(f->records[1].seconds, 30);
	play(f, room->seats[ROLE_FRONT], 7, 7);
	expect_int(room->game.moves_played, 1);
}

static void restore_refuses_an_invalid_move_list(void **state)
{
	static const uint16_t twice[] = { 7 * 15 + 7, 7 * 15 + 7 };
	static const uint16_t off_board[] = { 7 * 15 + 7, 15 * 15 };
	static const uint16_t far_off[] = { 0xffff };
	static uint16_t too_many[15 * 15 + 1];
	struct fixture *f = *state;
	struct lobby_saved_game saved;

	saved = saved_game(f, twice, 2);
	expect_restore_refused(f, &saved, "a stone played twice");
	saved = saved_game(f, off_board, 2);
	expect_restore_refused(f, &saved, "a move off the board");
	saved = saved_game(f, far_off, 1);
	expect_restore_refused(f, &saved, "move 0xffff");
	saved = saved_game(f, too_many, 15 * 15 + 1);
	expect_restore_refused(f, &saved, "more moves than cells");
	saved = saved_game(f, three_moves, -1);
	expect_restore_refused(f, &saved, "a negative move count");
	expect_stats(f, 0, 0, 0, 0, 0, 0);
	expect_away(f, 0);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS), UINT64_MAX);
}

static void restore_refuses_a_finished_game(void **state)
{
	/* Front makes five on row 0; back answers on row 1. */
	static const uint16_t five[] = { 0, 15, 1, 16, 2, 17, 3, 18, 4 };
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, five, 9);

	expect_restore_refused(f, &saved, "a game won by five");
	/* The same game one move earlier is still on. */
	saved.moves_played = 8;
	assert_non_null(lobby_restore(&f->lobby, &saved, T0));
	expect_stats(f, 2, 0, 1, 1, 0, 0);
	expect_away(f, 2);
}

static void restore_refuses_a_uid_that_already_has_a_seat(void **state)
{
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, three_moves, 3);

	join(f, 0, "zero");
	expect_restore_refused(f, &saved, "front uid waiting");
	saved.uid[ROLE_FRONT] = f->uids[2];
	saved.uid[ROLE_BACK] = f->uids[0];
	expect_restore_refused(f, &saved, "back uid waiting");
	saved.uid[ROLE_BACK] = f->uids[2];
	expect_restore_refused(f, &saved, "the same uid on both sides");

	/* A restored seat counts too. */
	saved.uid[ROLE_BACK] = f->uids[3];
	assert_non_null(lobby_restore(&f->lobby, &saved, T0));
	saved.room_id = "7f1c0e2a-9b7d-4c3e-8a5f-0123456789ab";
	saved.uid[ROLE_FRONT] = f->uids[4];
	expect_restore_refused(f, &saved, "back uid away in another room");
	expect_stats(f, 3, 1, 1, 1, 0, 0);
	expect_away(f, 2);
}

static void restore_refuses_a_board_size_out_of_range(void **state)
{
	static const uint16_t one_move[] = { 0 };
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, one_move, 1);

	saved.board_size = BOARD_MAX_SIZE + 1;
	expect_restore_refused(f, &saved, "a board larger than the largest");
	saved.board_size = BOARD_MIN_SIZE - 1;
	expect_restore_refused(f, &saved, "a board smaller than the smallest");
	saved.board_size = 0;
	expect_restore_refused(f, &saved, "a board of size 0");
	saved.board_size = 15;
	saved.tc = (struct time_control){ 5000, 0 };
	expect_restore_refused(f, &saved, "a clock below the shortest");
	expect_stats(f, 0, 0, 0, 0, 0, 0);
}

/* Counts the pools lobby_each_pool() lists. */
static void count_pool(void *ctx, const struct lobby_pool *pool)
{
	(void)pool;
	(*(int *)ctx)++;
}

/*
 * A refused game of a pool nobody uses leaves no pool behind (and the
 * pool made for it is freed once, after the room made for it).
 */
static void a_refused_restore_leaves_no_pool(void **state)
{
	/* The third move on the first one's cell: the rules refuse it. */
	static const uint16_t bad_moves[] = { 0, 1, 0 };
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, bad_moves, 3);
	int pools = 0;

	saved.board_size = 19;
	expect_restore_refused(f, &saved, "a move on a stone, 19 x 19");
	lobby_each_pool(&f->lobby, count_pool, &pools);
	expect_int(pools, 1);
}

/* A game of another pool than the default is seated in its own pool. */
static void restore_seats_a_game_of_another_pool(void **state)
{
	static const uint16_t one_move[] = { 0 };
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, one_move, 1);
	struct lobby_room *room;

	saved.board_size = 19;
	saved.tc = (struct time_control){ 300000, 5000 };
	saved.clock_ms[ROLE_FRONT] = 305000;
	saved.clock_ms[ROLE_BACK] = 300000;
	room = lobby_restore(&f->lobby, &saved, T0);
	assert_non_null(room);
	expect_int(room->game.board.size, 19);
	expect_int(room->pool->key.size, 19);
	expect_int(room->pool->games, 1);
	assert_ptr_not_equal(room->pool, f->lobby.default_pool);
	expect_int(room->game.clock.left_ms[ROLE_FRONT], 305000);
	expect_int(room->game.clock.left_ms[ROLE_BACK], 300000);
	expect_int(f->lobby.default_pool->games, 0);
}

static void restore_refuses_a_bad_room_id(void **state)
{
	static const char *const bad_ids[] = {
		"",
		"not-a-uuid",
		"6f1c0e2a-9b7d-4c3e-8a5f-0123456789a",
		"6f1c0e2a-9b7d-4c3e-8a5f-0123456789abc",
		"6f1c0e2a_9b7d-4c3e-8a5f-0123456789ab",
		"6f1c0e2a-9b7d-4c3e-8a5f-0123456789ag",
	};
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, three_moves, 3);
	struct lobby_room *room;
	size_t i;

	for (i = 0; i < sizeof(bad_ids) / sizeof(bad_ids[0]); i++) {
		saved.room_id = bad_ids[i];
		expect_restore_refused(f, &saved, bad_ids[i]);
	}
	/* Upper case is a good uuid: the room gets the canonical form. */
	saved.room_id = "6F1C0E2A-9B7D-4C3E-8A5F-0123456789AB";
	room = lobby_restore(&f->lobby, &saved, T0);
	assert_non_null(room);
	expect_str(room->id, "6f1c0e2a-9b7d-4c3e-8a5f-0123456789ab");
}

static void restored_seats_expire_by_tick_and_forfeit(void **state)
{
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, three_moves, 3);
	struct lobby_room *room;

	room = lobby_restore(&f->lobby, &saved, T0);
	assert_non_null(room);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS - 1), T0 + GRACE_MS);
	expect_stats(f, 2, 0, 1, 1, 0, 0);
	expect_away(f, 2);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS), UINT64_MAX);
	expect_events(f, 0);
	expect_facts(f, 2);
	expect_fact(f, 0, RECORD_GAME_OVER, 0);
	expect_int(f->facts[0].reason, REASON_FORFEIT);
	assert_ptr_equal(f->facts[0].room, room);
	expect_fact(f, 1, RECORD_ROOM_CLOSED, 0);
	assert_null(lobby_find(&f->lobby, f->uids[0]));
	assert_null(lobby_find(&f->lobby, f->uids[1]));
	expect_stats(f, 0, 0, 0, 0, 0, 0);
	expect_away(f, 0);
	expect_finished(f, 0, 0, 1);
}

static void a_restored_player_back_late_finds_the_forfeit(void **state)
{
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, three_moves, 3);
	struct lobby_player *back;

	assert_non_null(lobby_restore(&f->lobby, &saved, T0));
	back = rejoin(f, 1, "one", 1, T0 + 1000);
	forget_records(f);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS), UINT64_MAX);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_WINNER);
	expect_int(f->records[0].winner, WINNER_BACK);
	expect_event(f, 1, 1, EVENT_DISCONNECT);
	expect_stats(f, 1, 0, 1, 0, 0, 0);
	expect_away(f, 0);

	/* The front uid, back too late, starts afresh in the queue. */
	forget_records(f);
	join(f, 0, "zero");
	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_WAITING);
	expect_stats(f, 2, 1, 1, 0, 0, 0);
	assert_ptr_equal(back->room->seats[ROLE_BACK], back);
}

/*
 * Found by fuzz_lobby: with no grace, a seat restored at 0 ms is away
 * until 0, a deadline lobby_leave() took for "not away"; the first tick
 * freed the seat but left it in the away list (use after free).
 */
static void
a_restored_game_without_grace_is_given_up_at_the_first_tick(void **state)
{
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, three_moves, 3);

	assert_non_null(lobby_restore(&f->lobby, &saved, 0));
	expect_int(away_first(f)->away_until, 0);
	expect_away(f, 2);
	expect_int(lobby_tick(&f->lobby, 0), UINT64_MAX);
	assert_null(away_first(f));
	assert_null(away_last(f));
	assert_null(lobby_find(&f->lobby, f->uids[0]));
	assert_null(lobby_find(&f->lobby, f->uids[1]));
	expect_facts(f, 2);
	expect_fact(f, 0, RECORD_GAME_OVER, 0);
	expect_fact(f, 1, RECORD_ROOM_CLOSED, 0);
	expect_stats(f, 0, 0, 0, 0, 0, 0);
	expect_away(f, 0);
	expect_finished(f, 0, 0, 1);
}

/* Same, when a player of it comes back before the tick and leaves. */
static void a_seat_away_until_zero_is_freed_when_it_leaves(void **state)
{
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, three_moves, 3);
	struct lobby_player *front;

	assert_non_null(lobby_restore(&f->lobby, &saved, 0));
	front = rejoin(f, 0, "zero", 0, 0);
	expect_away(f, 1);
	lobby_disconnect(&f->lobby, front, true, 0);
	expect_away(f, 1);
	expect_stats(f, 1, 0, 1, 0, 0, 0);
	expect_int(lobby_tick(&f->lobby, 0), UINT64_MAX);
	expect_stats(f, 0, 0, 0, 0, 0, 0);
	expect_away(f, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		grace_test(restore_seats_a_saved_game_with_both_players_away),
		grace_test(a_restored_private_game_stays_private),
		grace_test(
			a_restored_game_resumes_with_the_board_and_the_side_to_move),
		grace_test(restore_without_moves_puts_front_to_move),
		grace_test(restore_refuses_an_invalid_move_list),
		grace_test(restore_refuses_a_finished_game),
		grace_test(restore_refuses_a_uid_that_already_has_a_seat),
		grace_test(restore_refuses_a_board_size_out_of_range),
		grace_test(restore_seats_a_game_of_another_pool),
		grace_test(a_refused_restore_leaves_no_pool),
		grace_test(restore_refuses_a_bad_room_id),
		grace_test(restored_seats_expire_by_tick_and_forfeit),
		grace_test(a_restored_player_back_late_finds_the_forfeit),
		cmocka_unit_test_setup_teardown(
			a_restored_game_without_grace_is_given_up_at_the_first_tick,
			setup_journal_no_grace, teardown),
		cmocka_unit_test_setup_teardown(
			a_seat_away_until_zero_is_freed_when_it_leaves,
			setup_journal_no_grace, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
