/*
 * test_lobby_endings.c - the lobby: the ends of a game the players ask for
 * (core/PROTOCOL.md section 10.3): resign, abort before the second move,
 * and draw offers and their answers; none of them, nor an emote, before a
 * match; one offer of any kind pending at a time, the cooldown after a
 * declined draw, an offer that a move declines or the end of the game
 * lapses, a resumed seat told of the pending offer, the engine that
 * declines a draw, and their counters. The fixture is lobby_fixture.h's.
 */
#include "lobby_fixture.h"

/* Resign and abort --------------------------------------------------- */

static void resigning_gives_the_game_to_the_other_side(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair_at(f, &p0, &p1, 0, T0);
	open_clocks(f, p0, p1, T0 + 1000, T0 + 2000);
	/* back resigns while front is to move */
	ask(f, p1, REQUEST_RESIGN, 0, false, T0 + 5000);
	expect_events(f, 2);
	expect_winner(f, 0, 0, WINNER_FRONT, REASON_RESIGN);
	expect_winner(f, 1, 1, WINNER_FRONT, REASON_RESIGN);
	expect_json_string(f, 1, "reason", "resign");
	expect_clock(f, 0, BASE_MS + INC_MS - 3000, BASE_MS + INC_MS);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_GAME_OVER, 0);
	expect_enum(f->facts[0].reason, REASON_RESIGN, reason_name);
	expect_int(f->facts[0].clock_ms[ROLE_FRONT], BASE_MS + INC_MS - 3000);
	expect_int(f->lobby.stats.games_finished[REASON_RESIGN], 1);
	expect_int(f->lobby.stats.rooms_live, 0);
	/* nothing more to time */
	expect_int(lobby_tick(&f->lobby, T0 + 5000), UINT64_MAX);
	expect_refused_at(f, p0, REQUEST_RESIGN, 0, ERR_GAME_OVER, T0 + 6000);
	expect_refused_at(f, p1, REQUEST_ABORT, 0, ERR_GAME_OVER, T0 + 6000);
	expect_refused_at(f, p0, REQUEST_OFFER, OFFER_DRAW, ERR_GAME_OVER,
			  T0 + 6000);
	expect_refused_at(f, p0, REQUEST_OFFER, OFFER_TAKEBACK, ERR_GAME_OVER,
			  T0 + 6000);
}

static void front_may_resign_before_any_move(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair_at(f, &p0, &p1, 1, T0); /* coin 1: player 1 is front */
	expect_int(p1->role, ROLE_FRONT);
	ask(f, p1, REQUEST_RESIGN, 0, false, T0 + 100);
	expect_winner(f, 0, 1, WINNER_BACK, REASON_RESIGN);
	expect_winner(f, 1, 0, WINNER_BACK, REASON_RESIGN);
	expect_int(f->lobby.stats.games_finished[REASON_RESIGN], 1);
}

static void front_may_abort_before_moving(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair_at(f, &p0, &p1, 0, T0);
	ask(f, p0, REQUEST_ABORT, 0, false, T0 + 100);
	expect_events(f, 2);
	expect_winner(f, 0, 0, WINNER_NOBODY, REASON_ABORTED);
	expect_winner(f, 1, 1, WINNER_NOBODY, REASON_ABORTED);
	expect_json_string(f, 0, "winner", "none");
	/* the winner of a timed game has the clocks, and no deadline */
	expect_clock(f, 0, BASE_MS, BASE_MS);
	expect_abort_in(f, 0, -1);
	expect_fact(f, 0, RECORD_GAME_OVER, 0);
	expect_int(f->lobby.stats.games_finished[REASON_ABORTED], 1);
	expect_int(lobby_tick(&f->lobby, T0 + FIRST_MS), UINT64_MAX);
	expect_events(f, 2);
}

static void back_may_abort_after_the_first_move(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair_at(f, &p0, &p1, 0, T0);
	play_at(f, p0, 7, 7, T0);
	forget_records(f);
	ask(f, p1, REQUEST_ABORT, 0, false, T0);
	expect_events(f, 2);
	expect_winner(f, 0, 0, WINNER_NOBODY, REASON_ABORTED);
	expect_winner(f, 1, 1, WINNER_NOBODY, REASON_ABORTED);
	expect_int(f->lobby.stats.games_finished[REASON_ABORTED], 1);
	expect_int(f->lobby.stats.rooms_live, 0);
}

static void an_abort_after_two_moves_is_too_late(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair_at(f, &p0, &p1, 0, T0);
	play_at(f, p0, 7, 7, T0);
	play_at(f, p1, 8, 8, T0);
	expect_refused_at(f, p0, REQUEST_ABORT, 0, ERR_TOO_LATE, T0);
	expect_refused_at(f, p1, REQUEST_ABORT, 0, ERR_TOO_LATE, T0);
	expect_int(f->lobby.stats.rooms_live, 1);
	/* resigning is still possible */
	ask(f, p0, REQUEST_RESIGN, 0, false, T0);
	expect_winner(f, 0, 0, WINNER_BACK, REASON_RESIGN);
}

static void resign_abort_and_emotes_before_a_match_are_not_in_game(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0 = join_pool(f, 0, "zero", NULL, T0);

	forget_records(f);
	expect_refused_at(f, p0, REQUEST_RESIGN, 0, ERR_NOT_IN_GAME, T0);
	expect_refused_at(f, p0, REQUEST_ABORT, 0, ERR_NOT_IN_GAME, T0);
	expect_refused_at(f, p0, REQUEST_OFFER, OFFER_DRAW, ERR_NOT_IN_GAME,
			  T0);
	expect_refused_at(f, p0, REQUEST_OFFER, OFFER_REMATCH, ERR_NOT_IN_GAME,
			  T0);
	expect_refused_at(f, p0, REQUEST_EMOTE, 0, ERR_NOT_IN_GAME, T0);
	expect_int(f->lobby.stats.emotes, 0);
}

/* Draw offers -------------------------------------------------------- */

static void an_accepted_draw_ends_the_game_by_agreement(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	size_t i;

	pair_at(f, &p0, &p1, 0, T0);
	play_at(f, p0, 7, 7, T0);
	forget_records(f);
	offer(f, p1, OFFER_DRAW, T0);
	expect_events(f, 2);
	expect_offer_event(f, 0, 0, EVENT_OFFER, OFFER_DRAW, ROLE_BACK);
	expect_offer_event(f, 1, 1, EVENT_OFFER, OFFER_DRAW, ROLE_BACK);
	expect_json_string(f, 0, "what", "draw");
	/* the offerer cannot answer its own offer */
	expect_refused_at(f, p1, REQUEST_ANSWER, OFFER_DRAW, ERR_NO_OFFER, T0);

	answer(f, p0, OFFER_DRAW, true, T0 + 1000);
	expect_events(f, 4);
	expect_offer_event(f, 0, 0, EVENT_ANSWER, OFFER_DRAW, ROLE_FRONT);
	expect_offer_event(f, 1, 1, EVENT_ANSWER, OFFER_DRAW, ROLE_FRONT);
	expect_int(f->records[0].accept, true);
	expect_winner(f, 2, 0, WINNER_DRAW, REASON_AGREEMENT);
	expect_winner(f, 3, 1, WINNER_DRAW, REASON_AGREEMENT);
	expect_json_string(f, 2, "winner", "draw");
	expect_json_string(f, 3, "reason", "agreement");
	expect_facts(f, 1);
	expect_enum(f->facts[0].type, RECORD_GAME_OVER, fact_name);
	if (f->facts[0].events_before > 2)
		fail_msg("the draw was journalled after the winner was sent");
	expect_int(f->lobby.stats.games_finished[REASON_AGREEMENT], 1);
	expect_int(f->lobby.stats.offers[OFFER_DRAW][1], 1);
	expect_int(f->lobby.stats.offers[OFFER_DRAW][0], 0);
	for (i = 0; i < OFFER_COUNT; i++)
		if (i != OFFER_DRAW && (f->lobby.stats.offers[i][0] ||
					f->lobby.stats.offers[i][1]))
			fail_msg("offers of %s counted", offer_name((int)i));
	expect_int(f->lobby.stats.rooms_live, 0);
}

static void a_declined_draw_waits_ten_seconds_but_not_a_takeback(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair_at(f, &p0, &p1, 0, T0);
	play_at(f, p0, 7, 7, T0);
	play_at(f, p1, 8, 8, T0);
	offer(f, p0, OFFER_DRAW, T0);
	forget_records(f);
	answer(f, p1, OFFER_DRAW, false, T0);
	expect_events(f, 2);
	expect_offer_event(f, 0, 0, EVENT_ANSWER, OFFER_DRAW, ROLE_BACK);
	expect_offer_event(f, 1, 1, EVENT_ANSWER, OFFER_DRAW, ROLE_BACK);
	expect_int(f->records[1].accept, false);
	expect_int(f->lobby.stats.offers[OFFER_DRAW][0], 1);
	expect_int(f->lobby.stats.rooms_live, 1);

	expect_refused_at(f, p0, REQUEST_OFFER, OFFER_DRAW, ERR_TOO_SOON,
			  T0 + LOBBY_OFFER_COOLDOWN_MS - 1);
	/* the cooldown is the draw's: a takeback may be offered */
	offer(f, p0, OFFER_TAKEBACK, T0 + 1);
	expect_events(f, 2);
	expect_offer_event(f, 0, 0, EVENT_OFFER, OFFER_TAKEBACK, ROLE_FRONT);
	answer(f, p1, OFFER_TAKEBACK, false, T0 + 2);
	forget_records(f);
	/* and it is the offerer's: the other player may offer a draw */
	offer(f, p1, OFFER_DRAW, T0 + 3);
	expect_events(f, 2);
	expect_offer_event(f, 1, 1, EVENT_OFFER, OFFER_DRAW, ROLE_BACK);
	answer(f, p0, OFFER_DRAW, false, T0 + 4);
	forget_records(f);
	offer(f, p0, OFFER_DRAW, T0 + LOBBY_OFFER_COOLDOWN_MS);
	expect_events(f, 2);
	expect_offer_event(f, 0, 0, EVENT_OFFER, OFFER_DRAW, ROLE_FRONT);
	expect_int(f->lobby.stats.offers[OFFER_DRAW][0], 2);
	expect_int(f->lobby.stats.offers[OFFER_TAKEBACK][0], 1);
}

static void one_offer_of_any_kind_waits_at_a_time(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair_at(f, &p0, &p1, 0, T0);
	play_at(f, p0, 7, 7, T0);
	play_at(f, p1, 8, 8, T0);
	offer(f, p0, OFFER_TAKEBACK, T0);
	expect_refused_at(f, p1, REQUEST_OFFER, OFFER_DRAW, ERR_OFFER_PENDING,
			  T0);
	expect_refused_at(f, p0, REQUEST_OFFER, OFFER_DRAW, ERR_OFFER_PENDING,
			  T0);
	expect_refused_at(f, p1, REQUEST_OFFER, OFFER_TAKEBACK,
			  ERR_OFFER_PENDING, T0);
	answer(f, p1, OFFER_TAKEBACK, false, T0);
	forget_records(f);
	offer(f, p1, OFFER_DRAW, T0);
	expect_events(f, 2);
	expect_refused_at(f, p0, REQUEST_OFFER, OFFER_TAKEBACK,
			  ERR_OFFER_PENDING, T0);
	expect_refused_at(f, p0, REQUEST_OFFER, OFFER_DRAW, ERR_OFFER_PENDING,
			  T0);
}

static void a_move_declines_a_pending_draw_before_its_board(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair_at(f, &p0, &p1, 0, T0);
	play_at(f, p0, 7, 7, T0);
	offer(f, p0, OFFER_DRAW, T0);
	forget_records(f);
	/* the side asked moves */
	play_at(f, p1, 8, 8, T0 + 1000);
	expect_events(f, 4);
	expect_offer_event(f, 0, 0, EVENT_ANSWER, OFFER_DRAW, ROLE_BACK);
	expect_offer_event(f, 1, 1, EVENT_ANSWER, OFFER_DRAW, ROLE_BACK);
	expect_int(f->records[0].accept, false);
	expect_int(f->records[1].accept, false);
	expect_event(f, 2, 0, EVENT_BOARD);
	expect_event(f, 3, 1, EVENT_BOARD);
	expect_int(f->lobby.stats.offers[OFFER_DRAW][0], 1);
	expect_refused_at(f, p1, REQUEST_ANSWER, OFFER_DRAW, ERR_NO_OFFER,
			  T0 + 1000);

	/* the offerer moves: declined too, by the side that was asked */
	offer(f, p1, OFFER_DRAW, T0 + 2000);
	forget_records(f);
	play_at(f, p0, 6, 6, T0 + 3000);
	expect_events(f, 4);
	expect_offer_event(f, 0, 0, EVENT_ANSWER, OFFER_DRAW, ROLE_FRONT);
	expect_int(f->records[0].accept, false);
	expect_event(f, 2, 0, EVENT_BOARD);
	expect_int(f->lobby.stats.offers[OFFER_DRAW][0], 2);
	expect_int(f->lobby.stats.rooms_live, 1);
}

static void a_game_that_ends_lapses_the_pending_offer_first(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair_at(f, &p0, &p1, 0, T0);
	play_at(f, p0, 7, 7, T0);
	offer(f, p0, OFFER_DRAW, T0);
	forget_records(f);
	ask(f, p0, REQUEST_RESIGN, 0, false, T0);
	expect_events(f, 4);
	expect_offer_event(f, 0, 0, EVENT_ANSWER, OFFER_DRAW, ROLE_BACK);
	expect_offer_event(f, 1, 1, EVENT_ANSWER, OFFER_DRAW, ROLE_BACK);
	expect_int(f->records[0].accept, false);
	expect_winner(f, 2, 0, WINNER_BACK, REASON_RESIGN);
	expect_winner(f, 3, 1, WINNER_BACK, REASON_RESIGN);
	expect_int(f->lobby.stats.offers[OFFER_DRAW][0], 1);
	expect_refused_at(f, p1, REQUEST_ANSWER, OFFER_DRAW, ERR_GAME_OVER, T0);
}

static void a_flag_that_falls_lapses_the_pending_offer_first(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	uint64_t flag = T0 + 2000 + BASE_MS + INC_MS;

	pair_at(f, &p0, &p1, 0, T0);
	open_clocks(f, p0, p1, T0 + 1000, T0 + 2000);
	offer(f, p1, OFFER_TAKEBACK, T0 + 3000);
	forget_records(f);
	lobby_tick(&f->lobby, flag);
	expect_events(f, 4);
	expect_offer_event(f, 0, 0, EVENT_ANSWER, OFFER_TAKEBACK, ROLE_FRONT);
	expect_int(f->records[0].accept, false);
	expect_winner(f, 2, 0, WINNER_BACK, REASON_TIMEOUT);
	expect_winner(f, 3, 1, WINNER_BACK, REASON_TIMEOUT);
	expect_int(f->lobby.stats.offers[OFFER_TAKEBACK][0], 1);
}

static void a_resumed_seat_hears_the_pending_offer_again(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	size_t i;

	pair_at(f, &p0, &p1, 0, T0);
	play_at(f, p0, 7, 7, T0);
	offer(f, p0, OFFER_DRAW, T0);
	drop(f, p1, T0 + 1000);
	forget_records(f);
	/* the opponent's offer, to the player who comes back */
	p1 = rejoin(f, 1, "one", 2, T0 + 2000);
	expect_int(events_to(f, 2, EVENT_OFFER), 1);
	i = event_index(f, 2, EVENT_OFFER);
	if (i < event_index(f, 2, EVENT_ROLE))
		fail_msg("the offer came before role");
	expect_offer_event(f, i, 2, EVENT_OFFER, OFFER_DRAW, ROLE_FRONT);
	forget_records(f);
	/* its own offer, to the player who takes its seat over */
	p0 = rejoin(f, 0, "zero", 3, T0 + 3000);
	expect_event(f, 0, 0, EVENT_REPLACED);
	expect_int(events_to(f, 3, EVENT_OFFER), 1);
	i = event_index(f, 3, EVENT_OFFER);
	expect_offer_event(f, i, 3, EVENT_OFFER, OFFER_DRAW, ROLE_FRONT);
	/* and it can still be answered */
	forget_records(f);
	answer(f, p1, OFFER_DRAW, true, T0 + 4000);
	expect_winner(f, 2, 3, WINNER_DRAW, REASON_AGREEMENT);
}

static void the_engine_declines_a_draw_at_once(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0 = join_engine(f, 0, 0, T0);
	size_t i;

	expect_int(p0->role, ROLE_FRONT);
	play_at(f, p0, 7, 7, T0);
	expect_int(f->thinks, 1);
	expect_int(lobby_ai_move(&f->lobby, &f->ticket, 8, 8, T0), 0);
	forget_records(f);
	offer(f, p0, OFFER_DRAW, T0 + 1000);
	i = event_index(f, 0, EVENT_ANSWER);
	expect_offer_event(f, i, 0, EVENT_ANSWER, OFFER_DRAW, ROLE_BACK);
	expect_int(f->records[i].accept, false);
	if (events_to(f, 0, EVENT_WINNER))
		fail_msg("the engine ended the game on a draw offer");
	expect_int(f->lobby.stats.rooms_live, 1);
	expect_int(f->lobby.stats.offers[OFFER_DRAW][0], 1);
	expect_int(f->lobby.stats.offers[OFFER_DRAW][1], 0);
	/* declined: the player waits like anyone else */
	expect_refused_at(f, p0, REQUEST_OFFER, OFFER_DRAW, ERR_TOO_SOON,
			  T0 + 2000);
	/* and nothing is left pending: the player plays on */
	play_at(f, p0, 6, 6, T0 + 3000);
	expect_int(p0->room->game.moves_played, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		timed_test(resigning_gives_the_game_to_the_other_side),
		untimed_test(front_may_resign_before_any_move),
		timed_test(front_may_abort_before_moving),
		untimed_test(back_may_abort_after_the_first_move),
		untimed_test(an_abort_after_two_moves_is_too_late),
		untimed_test(
			resign_abort_and_emotes_before_a_match_are_not_in_game),
		untimed_test(an_accepted_draw_ends_the_game_by_agreement),
		untimed_test(
			a_declined_draw_waits_ten_seconds_but_not_a_takeback),
		untimed_test(one_offer_of_any_kind_waits_at_a_time),
		untimed_test(a_move_declines_a_pending_draw_before_its_board),
		untimed_test(a_game_that_ends_lapses_the_pending_offer_first),
		timed_test(a_flag_that_falls_lapses_the_pending_offer_first),
		untimed_test(a_resumed_seat_hears_the_pending_offer_again),
		untimed_test(the_engine_declines_a_draw_at_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
