/*
 * test_lobby_matching.c - the lobby: the queue and the pairing (first come,
 * first served; sides and room ids from the random bytes), moves routed to
 * both players of one room and no other, every refusal (nothing changes),
 * the ends of a game, ping, and a paused lobby. The fixture is
 * lobby_fixture.h's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lobby_fixture.h"

static void init_refuses_a_bad_config(void **state)
{
	struct lobby_config config = { .board_size = 4 };
	struct lobby_random random = { fill_random, NULL };
	struct lobby_sink sink = { .send = record_event };
	struct lobby lobby;

	(void)state;
	expect_int(lobby_init(&lobby, &config, random, sink), -EINVAL);
	config.board_size = 26;
	expect_int(lobby_init(&lobby, &config, random, sink), -EINVAL);
	config.board_size = 15;
	expect_int(lobby_init(&lobby, &config,
			      (struct lobby_random){ NULL, NULL }, sink),
		   -EINVAL);
	expect_int(lobby_init(&lobby, &config, random,
			      (struct lobby_sink){ .send = NULL }),
		   -EINVAL);
	expect_int(lobby_init(&lobby, &config, random, sink), 0);
	lobby_release(&lobby);
}

static void the_first_player_waits_alone(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0;

	p0 = join(f, 0, "zero");
	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_WAITING);
	expect_int(p0->state, PLAYER_WAITING);
	expect_str(p0->uid, f->uids[0]);
	expect_str(p0->name, "zero");
	assert_ptr_equal(lobby_find(&f->lobby, f->uids[0]), p0);
	assert_null(lobby_find(&f->lobby, f->uids[1]));
	expect_stats(f, 1, 1, 0, 0, 0, 0);
}

static void the_first_two_players_are_paired_and_the_third_waits(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1, *p2;

	script_match(f, 0x11, 0);
	p0 = join(f, 0, "zero");
	p1 = join(f, 1, "one");
	expect_stats(f, 2, 0, 1, 1, 1, 0);
	p2 = join(f, 2, "two");
	expect_events(f, 5);
	expect_event(f, 0, 0, EVENT_WAITING);
	expect_event(f, 1, 1, EVENT_WAITING);
	expect_event(f, 2, 0, EVENT_ROLE);
	expect_event(f, 3, 1, EVENT_ROLE);
	expect_event(f, 4, 2, EVENT_WAITING);
	expect_int(p0->state, PLAYER_PLAYING);
	expect_int(p1->state, PLAYER_PLAYING);
	expect_int(p2->state, PLAYER_WAITING);
	assert_ptr_equal(p0->room, p1->room);
	assert_ptr_equal(queue_first(f), p2);
	assert_ptr_equal(queue_last(f), p2);
	expect_stats(f, 3, 1, 1, 1, 1, 0);
}

static void the_queue_pairs_first_come_first_served(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p[5];
	int i;

	script_match(f, 0x11, 0);
	script_match(f, 0x22, 0);
	for (i = 0; i < 5; i++)
		p[i] = join(f, i, NULL);
	assert_ptr_equal(p[0]->room, p[1]->room);
	assert_ptr_equal(p[2]->room, p[3]->room);
	assert_ptr_not_equal(p[0]->room, p[2]->room);
	expect_int(p[4]->state, PLAYER_WAITING);
	expect_stats(f, 5, 1, 2, 2, 2, 0);
}

static void an_even_random_byte_makes_the_first_in_line_front(void **state)
{
	static const uint8_t coins[] = { 0, 2, 0xfe };
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	size_t i;

	for (i = 0; i < sizeof(coins); i++) {
		pair(f, &p0, &p1, coins[i]);
		if (p0->role != ROLE_FRONT || p1->role != ROLE_BACK)
			fail_msg("coin %u: first queued is %s, expected front",
				 coins[i], role_name(p0->role));
		assert_ptr_equal(p0->room->seats[ROLE_FRONT], p0);
		assert_ptr_equal(p0->room->seats[ROLE_BACK], p1);
		lobby_disconnect(&f->lobby, p0, false, 0);
		lobby_disconnect(&f->lobby, p1, false, 0);
	}
}

static void an_odd_random_byte_makes_the_first_in_line_back(void **state)
{
	static const uint8_t coins[] = { 1, 3, 0xff };
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	size_t i;

	for (i = 0; i < sizeof(coins); i++) {
		script_match(f, 0x11, coins[i]);
		p0 = join(f, 0, NULL);
		p1 = join(f, 1, NULL);
		if (p0->role != ROLE_BACK || p1->role != ROLE_FRONT)
			fail_msg("coin %u: first queued is %s, expected back",
				 coins[i], role_name(p0->role));
		/* Role goes to front first: here the second player. */
		expect_event(f, f->count - 2, 1, EVENT_ROLE);
		expect_int(f->records[f->count - 2].role, ROLE_FRONT);
		expect_event(f, f->count - 1, 0, EVENT_ROLE);
		expect_int(f->records[f->count - 1].role, ROLE_BACK);
		lobby_disconnect(&f->lobby, p0, false, 0);
		lobby_disconnect(&f->lobby, p1, false, 0);
	}
}

static void role_names_the_opponent_and_never_its_uid(void **state)
{
	struct fixture *f = *state;

	script_match(f, 0x11, 0);
	join(f, 0, "alice");
	join(f, 1, "");
	expect_event(f, 2, 0, EVENT_ROLE);
	assert_false(f->records[2].has_opponent);
	expect_event(f, 3, 1, EVENT_ROLE);
	assert_true(f->records[3].has_opponent);
	expect_str(f->records[3].opponent, "alice");
	expect_int(f->records[2].role, ROLE_FRONT);
	expect_int(f->records[3].role, ROLE_BACK);
	expect_no_uid_sent(f, 2);
}

static void room_ids_are_uuids_from_the_random_bytes(void **state)
{
	struct fixture *f = *state;
	char checked[UID_LEN + 1];

	script_match(f, 0x11, 0);
	script_match(f, 0xab, 0);
	join(f, 0, NULL);
	join(f, 1, NULL);
	join(f, 2, NULL);
	join(f, 3, NULL);
	expect_event(f, 2, 0, EVENT_ROLE);
	expect_event(f, 3, 1, EVENT_ROLE);
	/* the first room's id: its random bytes, as a version 8 UUID */
	expect_str(f->records[2].room, "11111111-1111-8111-9111-111111111111");
	expect_str(f->records[3].room, f->records[2].room);
	expect_event(f, 6, 2, EVENT_ROLE);
	expect_event(f, 7, 3, EVENT_ROLE);
	/* opened at the same time: the same order, the rest its own bytes */
	expect_str(f->records[6].room, "11111111-1111-8bab-abab-abababababab");
	expect_str(f->records[7].room, f->records[6].room);
	assert_true(identity_check_uid(f->records[6].room, checked));
	expect_str(checked, f->records[6].room);
}

static void room_ids_sort_in_the_order_their_rooms_opened(void **state)
{
	static const uint64_t opened[] = { 5, 6, 1006, 86400005 };
	struct fixture *f = *state;
	char previous[UID_LEN + 1] = "";

	for (size_t i = 0; i < sizeof(opened) / sizeof(opened[0]); i++) {
		/* random bytes that fall as i grows: only the order sorts */
		script_match(f, (uint8_t)(0xf0 - 0x10 * i), 0);
		lobby_connect(&f->lobby, f->uids[2 * i], NULL,
			      conn(f, (int)(2 * i)), opened[i]);
		forget_records(f);
		lobby_connect(&f->lobby, f->uids[2 * i + 1], NULL,
			      conn(f, (int)(2 * i + 1)), opened[i]);
		/* waiting to the second, then role to both */
		expect_event(f, 1, (int)(2 * i), EVENT_ROLE);
		if (i == 0)
			expect_str(f->records[1].room,
				   "f0f0f0f0-f0f0-80f0-b0f0-f0f0f0f0f0f0");
		if (strcmp(previous, f->records[1].room) >= 0)
			fail_msg("room %zu's id %s does not sort after %s", i,
				 f->records[1].room, previous);
		strcpy(previous, f->records[1].room);
		forget_records(f);
	}
	/* a day after the first: its order is 86,400,000 (ms) more */
	expect_str(previous, "f0f0f617-4cf0-80c0-80c0-c0c0c0c0c0c0");
}

static void a_move_reaches_both_players_front_first(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 1); /* player 1 is front */
	play(f, p1, 7, 7);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_BOARD);
	expect_event(f, 1, 0, EVENT_BOARD);
	expect_int(f->records[0].moves, 1);
	expect_int(f->records[0].move.x, 7);
	expect_int(f->records[0].move.y, 7);
	expect_str(f->records[0].json, f->records[1].json);
	expect_stats(f, 2, 0, 1, 1, 1, 1);
	forget_records(f);
	play(f, p0, 8, 7);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_BOARD);
	expect_event(f, 1, 0, EVENT_BOARD);
	expect_int(f->records[1].moves, 2);
	expect_stats(f, 2, 0, 1, 1, 1, 2);
}

static void a_seed_form_board_is_played_as_a_move(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request req = { .type = REQUEST_BOARD, .role = ROLE_FRONT };

	pair(f, &p0, &p1, 0);
	req.cells[3 * 15 + 4] = ROLE_FRONT;
	lobby_request(&f->lobby, p0, &req, 0);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_BOARD);
	expect_event(f, 1, 1, EVENT_BOARD);
	expect_int(f->records[0].move.x, 4);
	expect_int(f->records[0].move.y, 3);
	expect_int(p0->room->game.to_move, ROLE_BACK);
	expect_stats(f, 2, 0, 1, 1, 1, 1);
}

static void moves_in_one_room_never_reach_another_room(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p[4];
	struct request ping = { .type = REQUEST_PING };
	size_t i;
	int k;

	script_match(f, 0x11, 0);
	script_match(f, 0x22, 0);
	for (k = 0; k < 4; k++)
		p[k] = join(f, k, NULL);
	forget_records(f);
	for (k = 0; k < 4; k++) {
		play(f, p[0], k, 0);
		play(f, p[1], k, 1);
	}
	play(f, p[0], 4, 0);
	play(f, p[1], 9, 9);
	lobby_request(&f->lobby, p[0], &ping, 0);
	lobby_disconnect(&f->lobby, p[1], false, 0);
	for (i = 0; i < f->count; i++)
		if (f->records[i].conn == conn(f, 2) ||
		    f->records[i].conn == conn(f, 3))
			fail_msg("event %zu (%s) of room A reached room B", i,
				 type_name(f->records[i].type));
	expect_int(p[2]->room->game.moves_played, 0);
	expect_int(p[2]->room->game.winner, WINNER_NONE);
}

static void
a_paused_lobby_refuses_every_request_but_ping_until_resumed(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request move = move_request(7, 7);
	struct request offer = { .type = REQUEST_OFFER };
	struct request answer = { .type = REQUEST_ANSWER, .accept = true };
	struct request redo = { .type = REQUEST_REDO };
	struct request ping = { .type = REQUEST_PING };

	pair(f, &p0, &p1, 0);
	lobby_pause(&f->lobby, true);
	expect_refusal(f, p0, &move, ERR_UNAVAILABLE);
	expect_refusal(f, p1, &move, ERR_UNAVAILABLE);
	expect_refusal(f, p0, &offer, ERR_UNAVAILABLE);
	expect_refusal(f, p1, &answer, ERR_UNAVAILABLE);
	expect_refusal(f, p0, &redo, ERR_UNAVAILABLE);
	lobby_request(&f->lobby, p0, &ping, 0);
	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_PONG);
	forget_records(f);
	/* Players still pair meanwhile: a room is journalled with a move. */
	script_match(f, 0x22, 0);
	join(f, 2, NULL);
	join(f, 3, NULL);
	expect_stats(f, 4, 0, 2, 2, 2, 0);
	forget_records(f);
	lobby_pause(&f->lobby, false);
	play(f, p0, 7, 7);
	expect_event(f, 0, 0, EVENT_BOARD);
	expect_event(f, 1, 1, EVENT_BOARD);
}

static void a_move_before_being_matched_is_not_in_game(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0;
	struct request move = move_request(7, 7);
	struct request board = { .type = REQUEST_BOARD, .role = ROLE_FRONT };

	p0 = join(f, 0, NULL);
	expect_refusal(f, p0, &move, ERR_NOT_IN_GAME);
	board.cells[0] = ROLE_FRONT;
	expect_refusal(f, p0, &board, ERR_NOT_IN_GAME);
	expect_stats(f, 1, 1, 0, 0, 0, 0);
}

static void a_move_out_of_turn_is_not_your_turn(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request move = move_request(7, 7);

	pair(f, &p0, &p1, 0);
	expect_refusal(f, p1, &move, ERR_NOT_YOUR_TURN);
	play(f, p0, 7, 7);
	move = move_request(8, 8);
	expect_refusal(f, p0, &move, ERR_NOT_YOUR_TURN);
}

static void a_move_off_the_board_is_out_of_range(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request move = move_request(15, 0);

	pair(f, &p0, &p1, 0);
	expect_refusal(f, p0, &move, ERR_OUT_OF_RANGE);
	move = move_request(-1, -1);
	expect_refusal(f, p0, &move, ERR_OUT_OF_RANGE);
}

static void a_move_on_a_stone_is_occupied(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request move = move_request(7, 7);
	struct request board = { .type = REQUEST_BOARD, .role = ROLE_BACK };

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	expect_refusal(f, p1, &move, ERR_OCCUPIED);
	board.cells[7 * 15 + 7] = ROLE_BACK;
	expect_refusal(f, p1, &board, ERR_OCCUPIED);
}

static void a_move_after_the_game_is_over_is_game_over(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request move = move_request(9, 9);
	struct request board = { .type = REQUEST_BOARD, .role = ROLE_BACK };
	int i;

	pair(f, &p0, &p1, 0);
	for (i = 0; i < 4; i++) {
		play(f, p0, i, 0);
		play(f, p1, i, 1);
	}
	play(f, p0, 4, 0);
	expect_refusal(f, p1, &move, ERR_GAME_OVER);
	expect_refusal(f, p0, &move, ERR_GAME_OVER);
	memcpy(board.cells, p1->room->game.board.cells, sizeof(board.cells));
	board.cells[9 * 15 + 9] = ROLE_BACK;
	expect_refusal(f, p1, &board, ERR_GAME_OVER);
}

static void a_board_that_is_not_one_new_stone_is_bad_board(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request board = { .type = REQUEST_BOARD, .role = ROLE_FRONT };

	pair(f, &p0, &p1, 0);
	expect_refusal(f, p0, &board, ERR_BAD_BOARD);
	board.cells[0] = ROLE_FRONT;
	board.cells[1] = ROLE_FRONT;
	expect_refusal(f, p0, &board, ERR_BAD_BOARD);
	board.cells[1] = ROLE_NONE;
	board.cells[0] = ROLE_BACK;
	expect_refusal(f, p0, &board, ERR_BAD_BOARD);
}

static void a_board_naming_the_other_side_is_bad_board(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request board = { .type = REQUEST_BOARD, .role = ROLE_BACK };

	pair(f, &p0, &p1, 0);
	board.cells[0] = ROLE_FRONT;
	expect_refusal(f, p0, &board, ERR_BAD_BOARD);
	/* Out of turn, the turn is what is wrong. */
	board.cells[0] = ROLE_BACK;
	board.role = ROLE_FRONT;
	expect_refusal(f, p1, &board, ERR_NOT_YOUR_TURN);
}

static void a_five_sends_board_then_winner_with_line_to_both(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	const struct record *r;
	int i;

	pair(f, &p0, &p1, 1); /* player 1 is front */
	for (i = 0; i < 4; i++) {
		play(f, p1, 10, 2 + i);
		play(f, p0, 11, 2 + i);
	}
	forget_records(f);
	play(f, p1, 10, 6);
	expect_events(f, 4);
	expect_event(f, 0, 1, EVENT_BOARD);
	expect_event(f, 1, 0, EVENT_BOARD);
	expect_event(f, 2, 1, EVENT_WINNER);
	expect_event(f, 3, 0, EVENT_WINNER);
	for (i = 2; i < 4; i++) {
		r = &f->records[i];
		expect_int(r->winner, WINNER_FRONT);
		expect_int(r->reason, REASON_FIVE);
		expect_int(r->line.length, 5);
		expect_int(r->line.cells[0].x, 10);
		expect_int(r->line.cells[0].y, 2);
		expect_int(r->line.cells[4].y, 6);
		assert_non_null(
			strstr(r->json, "\"line\":[{\"x\":10,\"y\":2}"));
	}
	expect_stats(f, 2, 0, 1, 0, 1, 9);
	expect_int(f->lobby.stats.games_finished[REASON_FIVE], 1);
	expect_int(f->lobby.stats.games_finished[REASON_FULL], 0);
	expect_int(f->lobby.stats.games_finished[REASON_FORFEIT], 0);
}

static void a_full_board_is_a_draw_sent_to_both(void **state)
{
	/* Row by row, front (F) and back (B): no five anywhere. */
	static const char fill[] = "FBFBF"
				   "FFBFB"
				   "FBBBF"
				   "BFBFB"
				   "FBFBF";
	struct fixture *f = *state;
	struct lobby_player *p0, *p1, *mover;
	struct cell cells[2][13];
	int counts[2] = { 0, 0 };
	int x, y, i;

	pair(f, &p0, &p1, 0);
	for (y = 0; y < 5; y++)
		for (x = 0; x < 5; x++) {
			int side = fill[y * 5 + x] == 'F' ? 0 : 1;

			cells[side][counts[side]++] = (struct cell){ x, y };
		}
	for (i = 0; i < 25; i++) {
		const struct cell *c = &cells[i % 2][i / 2];

		mover = i % 2 ? p1 : p0;
		forget_records(f);
		play(f, mover, c->x, c->y);
		expect_event(f, 0, 0, EVENT_BOARD);
	}
	expect_events(f, 4);
	expect_event(f, 2, 0, EVENT_WINNER);
	expect_event(f, 3, 1, EVENT_WINNER);
	expect_int(f->records[3].winner, WINNER_DRAW);
	expect_int(f->records[3].reason, REASON_FULL);
	assert_null(strstr(f->records[3].json, "line"));
	expect_stats(f, 2, 0, 1, 0, 1, 25);
	expect_int(f->lobby.stats.games_finished[REASON_FULL], 1);
}

static void ping_gets_pong_and_a_winner_claim_gets_nothing(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1, *p2;
	struct request ping = { .type = REQUEST_PING };
	struct request claim = { .type = REQUEST_WINNER };

	pair(f, &p0, &p1, 0);
	p2 = join(f, 2, NULL);
	forget_records(f);
	lobby_request(&f->lobby, p1, &ping, 0);
	lobby_request(&f->lobby, p2, &ping, 0);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_PONG);
	expect_event(f, 1, 2, EVENT_PONG);
	forget_records(f);
	lobby_request(&f->lobby, p0, &claim, 0);
	lobby_request(&f->lobby, p2, &claim, 0);
	expect_events(f, 0);
	assert_false(game_is_over(&p0->room->game));
	expect_stats(f, 3, 1, 1, 1, 1, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(init_refuses_a_bad_config),
		lobby_test(the_first_player_waits_alone),
		lobby_test(
			the_first_two_players_are_paired_and_the_third_waits),
		lobby_test(the_queue_pairs_first_come_first_served),
		lobby_test(an_even_random_byte_makes_the_first_in_line_front),
		lobby_test(an_odd_random_byte_makes_the_first_in_line_back),
		lobby_test(role_names_the_opponent_and_never_its_uid),
		lobby_test(room_ids_are_uuids_from_the_random_bytes),
		lobby_test(room_ids_sort_in_the_order_their_rooms_opened),
		lobby_test(a_move_reaches_both_players_front_first),
		lobby_test(a_seed_form_board_is_played_as_a_move),
		lobby_test(moves_in_one_room_never_reach_another_room),
		lobby_test(
			a_paused_lobby_refuses_every_request_but_ping_until_resumed),
		lobby_test(a_move_before_being_matched_is_not_in_game),
		lobby_test(a_move_out_of_turn_is_not_your_turn),
		lobby_test(a_move_off_the_board_is_out_of_range),
		lobby_test(a_move_on_a_stone_is_occupied),
		lobby_test(a_move_after_the_game_is_over_is_game_over),
		lobby_test(a_board_that_is_not_one_new_stone_is_bad_board),
		lobby_test(a_board_naming_the_other_side_is_bad_board),
		lobby_test(a_five_sends_board_then_winner_with_line_to_both),
		cmocka_unit_test_setup_teardown(
			a_full_board_is_a_draw_sent_to_both, setup_small_drawn,
			teardown),
		lobby_test(ping_gets_pong_and_a_winner_claim_gets_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
