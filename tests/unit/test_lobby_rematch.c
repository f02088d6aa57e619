/*
 * test_lobby_rematch.c - the lobby: rematch (core/PROTOCOL.md section
 * 10.4): offered only once the game is over; accepted, a new room of the
 * same pool with the sides swapped, journalled with the room it follows;
 * declined, offered again after the cooldown; declined by an opponent who
 * left or an offerer who dropped; accepted by the engine at once. The
 * fixture is lobby_fixture.h's.
 */
#include <stdio.h>
#include <string.h>

#include "lobby_fixture.h"

static void a_rematch_is_offered_only_once_the_game_is_over(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair_at(f, &p0, &p1, 0, T0);
	expect_refused_at(f, p0, REQUEST_OFFER, OFFER_REMATCH, ERR_BAD_OFFER,
			  T0);
	play_at(f, p0, 7, 7, T0);
	expect_refused_at(f, p1, REQUEST_OFFER, OFFER_REMATCH, ERR_BAD_OFFER,
			  T0);
	expect_refused_at(f, p1, REQUEST_ANSWER, OFFER_REMATCH, ERR_NO_OFFER,
			  T0);
	expect_int(f->lobby.stats.matches, 1);
}

static void
an_accepted_rematch_swaps_sides_in_a_new_room_of_the_pool(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	char old_id[UID_LEN + 1];
	const struct lobby_pool_key *key;
	size_t front_role, back_role;
	uint64_t accepted = T0 + 4000;

	script_match(f, 0x11, 0);
	p0 = join_pool(f, 0, "zero", &pool_rematch, T0);
	p1 = join_pool(f, 1, "one", &pool_rematch, T0);
	expect_int(p0->role, ROLE_FRONT);
	snprintf(old_id, sizeof(old_id), "%s", p0->room->id);
	play_at(f, p0, 7, 7, T0 + 1000);
	finish(f, p1, T0 + 2000);

	offer(f, p0, OFFER_REMATCH, T0 + 3000);
	expect_events(f, 2);
	expect_offer_event(f, 0, 0, EVENT_OFFER, OFFER_REMATCH, ROLE_FRONT);
	expect_offer_event(f, 1, 1, EVENT_OFFER, OFFER_REMATCH, ROLE_FRONT);
	expect_json_string(f, 1, "what", "rematch");
	forget_records(f);

	script_match(f, 0x44, 0);
	answer(f, p1, OFFER_REMATCH, true, accepted);
	expect_events(f, 4);
	expect_offer_event(f, 0, 0, EVENT_ANSWER, OFFER_REMATCH, ROLE_BACK);
	expect_offer_event(f, 1, 1, EVENT_ANSWER, OFFER_REMATCH, ROLE_BACK);
	expect_int(f->records[0].accept, true);
	back_role = event_index(f, 0, EVENT_ROLE);
	front_role = event_index(f, 1, EVENT_ROLE);
	/* the sides swapped */
	expect_enum(f->records[back_role].role, ROLE_BACK, role_name);
	expect_enum(f->records[front_role].role, ROLE_FRONT, role_name);
	expect_str(f->records[front_role].room, f->records[back_role].room);
	if (!strcmp(f->records[back_role].room, old_id))
		fail_msg("the rematch kept the room id %s", old_id);
	expect_str(f->records[front_role].opponent, "zero");
	expect_str(f->records[back_role].opponent, "one");
	/* the same pool, a fresh game */
	for (size_t i = 2; i < 4; i++) {
		expect_int(json_number(f, i, NULL, "size"), 19);
		expect_json_string(f, i, "rule", "standard");
		expect_json_string(f, i, "tc", "180+2");
		expect_clock(f, i, 180000, 180000);
		expect_abort_in(f, i, FIRST_MS);
	}
	expect_int(p0->role, ROLE_BACK);
	expect_int(p1->role, ROLE_FRONT);
	assert_ptr_equal(p0->room, p1->room);
	expect_str(p0->room->id, f->records[back_role].room);
	expect_str(p0->room->rematch_of, old_id);
	key = &p0->room->pool->key;
	expect_int(key->size, 19);
	expect_int(key->rule, RULE_STANDARD);
	assert_true(time_control_equal(key->tc, pool_rematch.tc));
	expect_int(p0->room->game.moves_played, 0);
	/* the journal: the old room closed, the new one opened, first */
	expect_facts(f, 2);
	expect_enum(f->facts[0].type, RECORD_ROOM_CLOSED, fact_name);
	expect_str(f->facts[0].room_id, old_id);
	expect_enum(f->facts[1].type, RECORD_ROOM_OPENED, fact_name);
	expect_str(f->facts[1].room_id, p0->room->id);
	expect_str(f->facts[1].rematch_of, old_id);
	if (f->facts[1].events_before > 2)
		fail_msg("the rematch was journalled after a role was sent");
	expect_int(f->lobby.stats.matches, 2);
	expect_int(f->lobby.stats.rooms, 1);
	expect_int(f->lobby.stats.rooms_live, 1);
	expect_int(f->lobby.stats.offers[OFFER_REMATCH][1], 1);
	expect_pool(f, &pool_rematch, 0, 1);

	/* it starts as any other: the new front moves first, in time */
	expect_refused_at(f, p0, REQUEST_MOVE, 0, ERR_NOT_YOUR_TURN, accepted);
	expect_int(lobby_tick(&f->lobby, accepted), accepted + FIRST_MS);
	lobby_tick(&f->lobby, accepted + FIRST_MS);
	/* front (player 1 now) hears first */
	expect_winner(f, 0, 1, WINNER_NOBODY, REASON_ABORTED);
	expect_winner(f, 1, 0, WINNER_NOBODY, REASON_ABORTED);
	expect_int(f->lobby.stats.games_finished[REASON_ABORTED], 1);
}

static void
a_declined_rematch_may_be_offered_again_after_ten_seconds(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair_at(f, &p0, &p1, 0, T0);
	finish(f, p1, T0);
	offer(f, p0, OFFER_REMATCH, T0);
	forget_records(f);
	answer(f, p1, OFFER_REMATCH, false, T0);
	expect_events(f, 2);
	expect_offer_event(f, 0, 0, EVENT_ANSWER, OFFER_REMATCH, ROLE_BACK);
	expect_offer_event(f, 1, 1, EVENT_ANSWER, OFFER_REMATCH, ROLE_BACK);
	expect_int(f->records[1].accept, false);
	expect_int(f->lobby.stats.offers[OFFER_REMATCH][0], 1);
	expect_int(f->lobby.stats.matches, 1);
	assert_ptr_equal(p0->room, p1->room);
	expect_refused_at(f, p0, REQUEST_OFFER, OFFER_REMATCH, ERR_TOO_SOON,
			  T0 + LOBBY_OFFER_COOLDOWN_MS - 1);
	offer(f, p0, OFFER_REMATCH, T0 + LOBBY_OFFER_COOLDOWN_MS);
	expect_events(f, 2);
	expect_offer_event(f, 1, 1, EVENT_OFFER, OFFER_REMATCH, ROLE_FRONT);
}

static void a_rematch_after_the_opponent_left_is_opponent_gone(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair_at(f, &p0, &p1, 0, T0);
	finish(f, p1, T0);
	lobby_disconnect(&f->lobby, p1, true, T0);
	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_DISCONNECT);
	expect_refused_at(f, p0, REQUEST_OFFER, OFFER_REMATCH,
			  ERR_OPPONENT_GONE, T0 + 1000);
	/* an emote to nobody is no error */
	emote(f, p0, EMOTE_GG, T0 + 2000);
	expect_events(f, 0);
}

static void a_player_who_leaves_declines_a_pending_rematch(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	size_t answer_at, disconnect_at;

	pair_at(f, &p0, &p1, 0, T0);
	finish(f, p1, T0);
	offer(f, p0, OFFER_REMATCH, T0);
	forget_records(f);
	lobby_disconnect(&f->lobby, p1, true, T0 + 1000);
	expect_int(events_to(f, 0, EVENT_ANSWER), 1);
	/* the player who left is told nothing more */
	expect_int(events_to(f, 1, EVENT_ANSWER), 0);
	expect_int(events_to(f, 0, EVENT_DISCONNECT), 1);
	expect_int(events_to(f, 0, EVENT_WINNER), 0);
	answer_at = event_index(f, 0, EVENT_ANSWER);
	disconnect_at = event_index(f, 0, EVENT_DISCONNECT);
	expect_offer_event(f, answer_at, 0, EVENT_ANSWER, OFFER_REMATCH,
			   ROLE_BACK);
	expect_int(f->records[answer_at].accept, false);
	if (answer_at > disconnect_at)
		fail_msg("disconnect came before the rematch's answer");
	expect_int(f->lobby.stats.offers[OFFER_REMATCH][0], 1);
	expect_int(f->lobby.stats.matches, 1);
	expect_refused_at(f, p0, REQUEST_ANSWER, OFFER_REMATCH, ERR_NO_OFFER,
			  T0 + 2000);
}

static void an_offerer_whose_connection_drops_declines_its_rematch(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	size_t answer_at;

	pair_at(f, &p0, &p1, 0, T0);
	finish(f, p1, T0);
	offer(f, p0, OFFER_REMATCH, T0);
	forget_records(f);
	/* a drop in a finished game frees the seat, grace or not */
	drop(f, p0, T0 + 1000);
	expect_int(events_to(f, 1, EVENT_ANSWER), 1);
	answer_at = event_index(f, 1, EVENT_ANSWER);
	expect_offer_event(f, answer_at, 1, EVENT_ANSWER, OFFER_REMATCH,
			   ROLE_BACK);
	expect_int(f->records[answer_at].accept, false);
	if (event_index(f, 1, EVENT_DISCONNECT) < answer_at)
		fail_msg("disconnect came before the rematch's answer");
	expect_refused_at(f, p1, REQUEST_ANSWER, OFFER_REMATCH, ERR_NO_OFFER,
			  T0 + 2000);
	expect_refused_at(f, p1, REQUEST_OFFER, OFFER_REMATCH,
			  ERR_OPPONENT_GONE, T0 + 2000);
}

static void the_engine_accepts_a_rematch_at_once(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0 = join_engine(f, 0, 0, T0);
	char old_id[UID_LEN + 1];
	size_t answer_at, role_at;

	expect_int(p0->role, ROLE_FRONT);
	snprintf(old_id, sizeof(old_id), "%s", p0->room->id);
	play_at(f, p0, 7, 7, T0);
	expect_int(f->thinks, 1);
	finish(f, p0, T0 + 1000);
	script_match(f, 0x55, 0);
	offer(f, p0, OFFER_REMATCH, T0 + 2000);
	answer_at = event_index(f, 0, EVENT_ANSWER);
	role_at = event_index(f, 0, EVENT_ROLE);
	expect_offer_event(f, answer_at, 0, EVENT_ANSWER, OFFER_REMATCH,
			   ROLE_BACK);
	expect_int(f->records[answer_at].accept, true);
	if (role_at < answer_at)
		fail_msg("role came before the rematch's answer");
	/* the sides swapped: the engine is front and thinks at once */
	expect_enum(f->records[role_at].role, ROLE_BACK, role_name);
	expect_str(f->records[role_at].ai_level, "medium");
	if (!strcmp(f->records[role_at].room, old_id))
		fail_msg("the rematch kept the room id %s", old_id);
	expect_int(p0->role, ROLE_BACK);
	expect_str(p0->room->rematch_of, old_id);
	expect_int(p0->room->ai_role, ROLE_FRONT);
	expect_int(f->thinks, 2);
	expect_int(f->lobby.stats.ai_rooms, 1);
	expect_int(f->lobby.stats.ai_matches, 2);
	expect_int(f->lobby.stats.rooms_live, 1);
	expect_int(f->lobby.stats.offers[OFFER_REMATCH][1], 1);
	expect_int(lobby_ai_move(&f->lobby, &f->ticket, 7, 7, T0 + 2100), 0);
	play_at(f, p0, 8, 8, T0 + 2200);
	expect_int(p0->room->game.moves_played, 2);
	lobby_disconnect(&f->lobby, p0, true, T0 + 3000);
	expect_int(f->lobby.stats.ai_rooms, 0);
	expect_int(f->lobby.stats.rooms, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		untimed_test(a_rematch_is_offered_only_once_the_game_is_over),
		timed_test(
			an_accepted_rematch_swaps_sides_in_a_new_room_of_the_pool),
		untimed_test(
			a_declined_rematch_may_be_offered_again_after_ten_seconds),
		untimed_test(
			a_rematch_after_the_opponent_left_is_opponent_gone),
		untimed_test(a_player_who_leaves_declines_a_pending_rematch),
		untimed_test(
			an_offerer_whose_connection_drops_declines_its_rematch),
		untimed_test(the_engine_accepts_a_rematch_at_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
