/*
 * test_lobby_engine.c - the lobby: engine rooms: a player seated at once,
 * the think hook and its tickets, the seed of each game, the engine's
 * takeback and redo, --ai-fill-after, and release. The fixture is
 * lobby_fixture.h's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lobby_fixture.h"

/* Connects player i against the engine at level. */
static struct lobby_player *join_ai(struct fixture *f, int i,
				    enum engine_level level, uint8_t coin)
{
	struct lobby_player *player;

	script_match(f, 0x22, coin);
	player = lobby_connect_ai(&f->lobby, f->uids[i], "", conn(f, i), level,
				  T0);
	if (!player)
		fail_msg("player %d could not connect to play the engine", i);
	return player;
}

static void the_engine_seats_a_player_at_once_and_thinks_as_front(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0 = join_ai(f, 0, ENGINE_HARD, 1);

	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_ROLE);
	expect_int(f->records[0].role, ROLE_BACK);
	expect_str(f->records[0].opponent, "");
	expect_str(f->records[0].ai_level, "hard");
	if (!strstr(f->records[0].json,
		    "\"opponent\":{\"ai\":true,\"level\":\"hard\"}"))
		fail_msg("role: %s", f->records[0].json);
	expect_int(f->thinks, 1);
	expect_str(f->ticket.uid, f->uids[0]);
	expect_int(f->lobby.stats.ai_rooms, 1);
	expect_int(f->lobby.stats.waiting, 0);
	expect_int(f->lobby.stats.players, 1);
	forget_records(f);

	expect_int(lobby_ai_move(&f->lobby, &f->ticket, 7, 7, 0), 0);
	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_BOARD);
	expect_int(f->records[0].moves, 1);
	/* the same ticket again: the position has changed since */
	expect_int(lobby_ai_move(&f->lobby, &f->ticket, 8, 8, 0), -ESTALE);
	play(f, p0, 8, 8);
	expect_int(f->thinks, 2);
	/* an occupied cell is refused: the caller forfeits the engine */
	expect_int(lobby_ai_move(&f->lobby, &f->ticket, 7, 7, 0), -EINVAL);
	forget_records(f);
	expect_int(lobby_ai_forfeit(&f->lobby, &f->ticket, 0), 0);
	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_WINNER);
	expect_int(f->records[0].winner, WINNER_BACK);
	expect_int(f->records[0].reason, REASON_FORFEIT);
	expect_int(lobby_ai_forfeit(&f->lobby, &f->ticket, 0), -ESTALE);
	/* the player leaves: room and engine seat go (ASan checks) */
	lobby_disconnect(&f->lobby, p0, true, T0);
	expect_int(f->lobby.stats.ai_rooms, 0);
	expect_int(f->lobby.stats.rooms, 0);
	expect_int(f->lobby.stats.players, 0);
}

static void the_engine_as_back_waits_for_the_players_move(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0 = join_ai(f, 0, ENGINE_EASY, 0);

	expect_int(f->records[0].role, ROLE_FRONT);
	expect_str(f->records[0].ai_level, "easy");
	expect_int(f->thinks, 0);
	play(f, p0, 7, 7);
	expect_int(f->thinks, 1);
	/* a uid with a seat resumes it, whatever the mode */
	forget_records(f);
	assert_ptr_equal(lobby_connect_ai(&f->lobby, f->uids[0], "", conn(f, 2),
					  ENGINE_HARD, T0),
			 p0);
	expect_event(f, 0, 0, EVENT_REPLACED);
	expect_event(f, 1, 2, EVENT_ROLE);
	expect_event(f, 2, 2, EVENT_BOARD);
	expect_events(f, 3); /* the engine is never away */
	expect_int(f->lobby.stats.ai_rooms, 1);
}

static void
an_engine_takeback_removes_the_reply_and_the_move_and_redo_puts_them_back(
	void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0 = join_ai(f, 0, ENGINE_MEDIUM, 0);

	play(f, p0, 7, 7);
	expect_int(lobby_ai_move(&f->lobby, &f->ticket, 8, 8, 0), 0);
	play(f, p0, 6, 6);
	expect_int(lobby_ai_move(&f->lobby, &f->ticket, 9, 9, 0), 0);
	forget_records(f);

	request(f, p0, REQUEST_OFFER, false, T0);
	expect_events(f, 2);
	expect_undo(f, 0, 0, 9, 9, 3);
	expect_undo(f, 1, 0, 6, 6, 2);
	expect_int(f->lobby.stats.takebacks, 1);
	request(f, p0, REQUEST_OFFER, false, T0);
	expect_events(f, 4);
	expect_undo(f, 2, 0, 8, 8, 1);
	expect_undo(f, 3, 0, 7, 7, 0);
	request(f, p0, REQUEST_OFFER, false, T0);
	expect_event(f, 4, 0, EVENT_ERROR);
	expect_int(f->records[4].code, ERR_NOTHING_TO_UNDO);
	forget_records(f);

	/* redo: one takeback's worth at a time, the player's move first */
	request(f, p0, REQUEST_REDO, false, T0);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_BOARD);
	expect_int(f->records[0].move.x, 7);
	expect_int(f->records[0].moves, 1);
	expect_int(f->records[1].move.x, 8);
	expect_int(f->records[1].moves, 2);
	request(f, p0, REQUEST_REDO, false, T0);
	expect_events(f, 4);
	expect_int(f->records[2].move.x, 6);
	expect_int(f->records[3].move.x, 9);
	expect_int(f->thinks, 2); /* the player is to move: no search */
	request(f, p0, REQUEST_REDO, false, T0);
	expect_event(f, 4, 0, EVENT_ERROR);
	expect_int(f->records[4].code, ERR_NOTHING_TO_REDO);

	/* a new move forgets what could be redone */
	request(f, p0, REQUEST_OFFER, false, T0);
	play(f, p0, 0, 0);
	forget_records(f);
	request(f, p0, REQUEST_REDO, false, T0);
	expect_event(f, 0, 0, EVENT_ERROR);
	expect_int(f->records[0].code, ERR_NOTHING_TO_REDO);
}

static void a_takeback_while_the_engine_thinks_drops_its_search(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0 = join_ai(f, 0, ENGINE_MEDIUM, 0);
	struct lobby_ai_ticket stale;

	play(f, p0, 7, 7);
	stale = f->ticket;
	forget_records(f);
	request(f, p0, REQUEST_OFFER, false, T0);
	expect_events(f, 1);
	expect_undo(f, 0, 0, 7, 7, 0);
	expect_int(lobby_ai_move(&f->lobby, &stale, 8, 8, 0), -ESTALE);
	expect_int(f->thinks, 1);
	forget_records(f);
	request(f, p0, REQUEST_REDO, false, T0);
	expect_events(f, 1);
	expect_int(f->records[0].move.x, 7);
	expect_int(f->thinks, 2); /* the engine is to move again */
	expect_int(lobby_ai_move(&f->lobby, &f->ticket, 8, 8, 0), 0);
}

static void a_player_who_waited_long_enough_plays_the_engine(void **state)
{
	struct fixture *f = *state;
	struct lobby_config config = {
		.board_size = 15,
		.ai_fill_after_ms = 5000,
		.ai_fill_level = ENGINE_EASY,
	};

	lobby_release(&f->lobby);
	expect_int(start_lobby(f, &config, false), 0);
	assert_non_null(
		lobby_connect(&f->lobby, f->uids[0], "", conn(f, 0), T0));
	forget_records(f);
	expect_int(lobby_tick(&f->lobby, T0), T0 + 5000);
	expect_int(lobby_tick(&f->lobby, T0 + 4999), T0 + 5000);
	expect_events(f, 0);
	script_match(f, 0x33, 1);
	expect_int(lobby_tick(&f->lobby, T0 + 5000), UINT64_MAX);
	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_ROLE);
	expect_str(f->records[0].ai_level, "easy");
	expect_int(f->thinks, 1);
	expect_int(f->lobby.stats.waiting, 0);
	/* two who find each other first never see the engine */
	script_match(f, 0x44, 0);
	assert_non_null(lobby_connect(&f->lobby, f->uids[1], "", conn(f, 1),
				      T0 + 6000));
	assert_non_null(lobby_connect(&f->lobby, f->uids[2], "", conn(f, 2),
				      T0 + 9000));
	expect_int(lobby_tick(&f->lobby, T0 + 20000), UINT64_MAX);
	expect_int(f->lobby.stats.ai_matches, 1);
	expect_int(f->lobby.stats.matches, 2);
}

static void each_game_seeds_the_engine_its_own_way(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0 = join_ai(f, 0, ENGINE_EASY, 0);
	struct lobby_player *p1;
	uint32_t opening = lobby_ai_seed(p0->room);

	/* the game's and its move count's alone: the same until a move */
	expect_int(lobby_ai_seed(p0->room), opening);
	play(f, p0, 7, 7);
	if (lobby_ai_seed(p0->room) == opening)
		fail_msg("the seed did not change with a move");
	/* another game, its id from other random bytes: another seed */
	script_match(f, 0x5a, 0);
	p1 = lobby_connect_ai(&f->lobby, f->uids[1], "", conn(f, 1),
			      ENGINE_EASY, T0);
	if (!p1)
		fail_msg("player 1 could not connect to play the engine");
	if (lobby_ai_seed(p1->room) == opening)
		fail_msg("two games seeded alike: %u", (unsigned)opening);
}

static void release_frees_engine_rooms_too(void **state)
{
	struct fixture *f = *state;

	join_ai(f, 0, ENGINE_HARD, 0);
	join_ai(f, 1, ENGINE_HARD, 1);
	expect_int(f->lobby.stats.ai_rooms, 2);
	/* teardown releases the lobby: ASan and valgrind see no leak */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		lobby_test(
			the_engine_seats_a_player_at_once_and_thinks_as_front),
		lobby_test(the_engine_as_back_waits_for_the_players_move),
		lobby_test(
			an_engine_takeback_removes_the_reply_and_the_move_and_redo_puts_them_back),
		lobby_test(a_takeback_while_the_engine_thinks_drops_its_search),
		lobby_test(a_player_who_waited_long_enough_plays_the_engine),
		lobby_test(each_game_seeds_the_engine_its_own_way),
		lobby_test(release_frees_engine_rooms_too),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
