/*
 * test_lobby_pools.c - the lobby: pools of size, rule and time control
 * (core/PROTOCOL.md section 10.1): players paired only within their pool,
 * lobby_each_pool() and each pool's counters, the default pool that stays
 * and the others that go once empty, a seated uid that resumes its game
 * whatever pool it asks for, and the engine that plays, and fills the
 * queue, in each pool. The fixture is lobby_fixture.h's.
 */
#include <stdio.h>

#include "lobby_fixture.h"

/*
 * The pools of the tests besides lobby_fixture.h's pool_timed and
 * pool_rematch: the default (of setup_untimed) and others.
 */
static const struct lobby_pool_key pool_default = { .size = 15,
						    .rule = RULE_FREESTYLE,
						    .tc = { 0, 0 } };
static const struct lobby_pool_key pool_big = { .size = 19,
						.rule = RULE_FREESTYLE,
						.tc = { 0, 0 } };
static const struct lobby_pool_key pool_standard = { .size = 15,
						     .rule = RULE_STANDARD,
						     .tc = { 0, 0 } };

/* Checks that pool key is not listed. */
static void expect_no_pool(struct fixture *f, const struct lobby_pool_key *key)
{
	struct pools_seen seen;

	list_pools(f, &seen);
	if (pool_index(&seen, key) >= 0)
		fail_msg("pool %dx%d %s %u+%u is still listed", key->size,
			 key->size, rule_name(key->rule), key->tc.base_ms,
			 key->tc.inc_ms);
}

static void players_of_different_pools_are_not_paired(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p1, *p4, *p0, *p5;
	struct pools_seen seen;

	p0 = join_pool(f, 0, "zero", NULL, T0);
	p1 = join_pool(f, 1, "one", &pool_timed, T0);
	join_pool(f, 2, "two", &pool_big, T0);
	join_pool(f, 3, "three", &pool_standard, T0);
	expect_events(f, 4);
	for (int i = 0; i < 4; i++)
		expect_event(f, (size_t)i, i, EVENT_WAITING);
	expect_int(f->lobby.stats.waiting, 4);
	expect_int(f->lobby.stats.matches, 0);
	list_pools(f, &seen);
	expect_int(seen.count, 4);
	expect_int(pool_index(&seen, &pool_default), 0);
	for (int i = 0; i < 4; i++) {
		expect_int(seen.waiting[i], 1);
		expect_int(seen.games[i], 0);
	}
	forget_records(f);

	script_match(f, 0x11, 0);
	p4 = join_pool(f, 4, "four", &pool_timed, T0 + 10);
	expect_event(f, 0, 4, EVENT_WAITING);
	expect_int(events_to(f, 1, EVENT_ROLE), 1);
	expect_int(events_to(f, 4, EVENT_ROLE), 1);
	expect_int(f->count, 3);
	assert_ptr_equal(p1->room, p4->room);
	expect_int(p1->role, ROLE_FRONT); /* queued first, coin 0 */
	expect_json_string(f, event_index(f, 4, EVENT_ROLE), "tc", "60+2");
	expect_pool(f, &pool_timed, 0, 1);
	expect_pool(f, &pool_big, 1, 0);
	expect_pool(f, &pool_standard, 1, 0);
	expect_pool(f, &pool_default, 1, 0);
	forget_records(f);

	/* the default pool asked for by its values is the default pool */
	script_match(f, 0x12, 0);
	p5 = join_pool(f, 5, "five", &pool_default, T0 + 20);
	assert_ptr_equal(p0->room, p5->room);
	expect_int(p0->room->game.board.size, 15);
	expect_pool(f, &pool_default, 0, 1);
	expect_int(f->lobby.stats.waiting, 2);
	expect_int(f->lobby.stats.matches, 2);
	expect_int(f->lobby.stats.rooms_live, 2);
}

static void the_default_pool_stays_and_others_go_once_empty(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1, *p2;
	struct pools_seen seen;

	list_pools(f, &seen);
	expect_int(seen.count, 1);
	expect_int(seen.keys[0].size, 15);
	expect_int(seen.keys[0].rule, RULE_FREESTYLE);
	assert_true(time_control_equal(seen.keys[0].tc, pool_default.tc));
	expect_int(seen.waiting[0], 0);
	expect_int(seen.games[0], 0);

	p0 = join_pool(f, 0, "zero", &pool_big, T0);
	expect_pool(f, &pool_big, 1, 0);
	lobby_disconnect(&f->lobby, p0, true, T0);
	expect_no_pool(f, &pool_big);
	expect_pool(f, &pool_default, 0, 0);

	script_match(f, 0x11, 0);
	p1 = join_pool(f, 1, "one", &pool_big, T0);
	p2 = join_pool(f, 2, "two", &pool_big, T0);
	expect_pool(f, &pool_big, 0, 1);
	finish(f, p2, T0);
	/* a finished game's room still holds its pool */
	expect_pool(f, &pool_big, 0, 0);
	lobby_disconnect(&f->lobby, p1, true, T0);
	expect_pool(f, &pool_big, 0, 0);
	lobby_disconnect(&f->lobby, p2, true, T0);
	expect_no_pool(f, &pool_big);
	list_pools(f, &seen);
	expect_int(seen.count, 1);
	expect_int(f->lobby.stats.rooms, 0);
}

static void a_uid_with_a_seat_resumes_it_whatever_pool_it_asks(void **state)
{
	struct fixture *f = *state;
	struct lobby_join join = { .name = "zero" };
	struct lobby_player *p0, *again, *p1;
	char room_id[UID_LEN + 1];

	p0 = join_pool(f, 0, "zero", &pool_timed, T0);
	forget_records(f);
	join.uid = f->uids[0];
	join.pool = &pool_big;
	again = lobby_join(&f->lobby, &join, conn(f, 5), T0 + 100);
	assert_ptr_equal(again, p0);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_REPLACED);
	expect_event(f, 1, 5, EVENT_WAITING);
	expect_no_pool(f, &pool_big);
	expect_pool(f, &pool_timed, 1, 0);
	expect_int(f->lobby.stats.players, 1);
	forget_records(f);

	script_match(f, 0x11, 0);
	p1 = join_pool(f, 1, "one", &pool_timed, T0 + 200);
	assert_ptr_equal(p0->room, p1->room);
	snprintf(room_id, sizeof(room_id), "%s", p0->room->id);
	forget_records(f);

	/* seated: asking for the default pool resumes the timed game */
	join.pool = NULL;
	again = lobby_join(&f->lobby, &join, conn(f, 6), T0 + 300);
	assert_ptr_equal(again, p0);
	expect_event(f, 0, 5, EVENT_REPLACED);
	expect_event(f, 1, 6, EVENT_ROLE);
	expect_str(f->records[1].room, room_id);
	expect_json_string(f, 1, "tc", "60+2");
	expect_int(json_number(f, 1, NULL, "size"), 15);
	expect_int(f->lobby.stats.waiting, 0);
	expect_int(f->lobby.stats.matches, 1);
}

static void the_engine_plays_in_the_pool_asked_for(void **state)
{
	struct fixture *f = *state;
	struct lobby_join join = {
		.name = "zero",
		.pool = &pool_rematch,
		.ai = true,
		.level = ENGINE_EASY,
	};
	struct lobby_player *p0;

	join.uid = f->uids[0];
	script_match(f, 0x22, 0);
	p0 = lobby_join(&f->lobby, &join, conn(f, 0), T0);
	assert_non_null(p0);
	expect_event(f, 0, 0, EVENT_ROLE);
	expect_int(json_number(f, 0, NULL, "size"), 19);
	expect_json_string(f, 0, "rule", "standard");
	expect_json_string(f, 0, "tc", "180+2");
	expect_clock(f, 0, 180000, 180000);
	expect_int(p0->room->game.board.size, 19);
	expect_pool(f, &pool_rematch, 0, 1);
	expect_int(f->lobby.stats.waiting, 0);
	lobby_disconnect(&f->lobby, p0, true, T0);
	expect_no_pool(f, &pool_rematch);
}

static int setup_fill(void **state)
{
	struct lobby_config config = {
		.board_size = 15,
		.rule = RULE_FREESTYLE,
		.first_move_ms = FIRST_MS,
		.full_board = FULL_BOARD_BACK,
		.ai_fill_after_ms = 5000,
		.ai_fill_level = ENGINE_HARD,
	};

	return setup_lobby_config(state, &config, false);
}

static void the_engine_fills_each_pools_queue_in_that_pool(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	p0 = join_pool(f, 0, "zero", &pool_rematch, T0);
	p1 = join_pool(f, 1, "one", NULL, T0 + 1000);
	forget_records(f);
	script_match(f, 0x22, 0);
	expect_int(lobby_tick(&f->lobby, T0 + 4999), T0 + 5000);
	expect_events(f, 0);
	expect_int(lobby_tick(&f->lobby, T0 + 5000), T0 + 6000);
	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_ROLE);
	expect_str(f->records[0].ai_level, "hard");
	expect_int(json_number(f, 0, NULL, "size"), 19);
	expect_json_string(f, 0, "tc", "180+2");
	expect_int(p0->room->game.board.size, 19);
	expect_pool(f, &pool_rematch, 0, 1);
	expect_pool(f, &pool_default, 1, 0);
	forget_records(f);
	script_match(f, 0x23, 0);
	lobby_tick(&f->lobby, T0 + 6000);
	expect_event(f, 0, 1, EVENT_ROLE);
	expect_json_string(f, 0, "tc", "none");
	expect_int(p1->room->game.board.size, 15);
	expect_pool(f, &pool_default, 0, 1);
	expect_int(f->lobby.stats.ai_matches, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		untimed_test(players_of_different_pools_are_not_paired),
		untimed_test(the_default_pool_stays_and_others_go_once_empty),
		untimed_test(
			a_uid_with_a_seat_resumes_it_whatever_pool_it_asks),
		untimed_test(the_engine_plays_in_the_pool_asked_for),
		cmocka_unit_test_setup_teardown(
			the_engine_fills_each_pools_queue_in_that_pool,
			setup_fill, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
