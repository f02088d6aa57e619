/*
 * test_lobby_emotes.c - the lobby: emotes (core/PROTOCOL.md section 10.5):
 * relayed to the opponent alone, the sender's cooldown, relayed in a
 * finished game too, and not sent to an opponent who is away. The fixture
 * is lobby_fixture.h's.
 */
#include "lobby_fixture.h"

static void an_emote_goes_to_the_opponent_alone(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair_at(f, &p0, &p1, 0, T0);
	emote(f, p0, EMOTE_HELLO, T0);
	expect_events(f, 1);
	expect_event(f, 0, 1, EVENT_EMOTE);
	expect_enum(f->records[0].by, ROLE_FRONT, role_name);
	expect_int(f->records[0].emote, EMOTE_HELLO);
	expect_str(f->records[0].json,
		   "{\"type\":\"emote\",\"by\":\"front\",\"emote\":\"hello\"}");
	expect_int(f->lobby.stats.emotes, 1);
	expect_refused_at(f, p0, REQUEST_EMOTE, 0, ERR_TOO_SOON,
			  T0 + LOBBY_EMOTE_COOLDOWN_MS - 1);
	/* the cooldown is the sender's */
	emote(f, p1, EMOTE_HURRY, T0 + 1000);
	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_EMOTE);
	expect_enum(f->records[0].by, ROLE_BACK, role_name);
	expect_int(f->records[0].emote, EMOTE_HURRY);
	forget_records(f);
	emote(f, p0, EMOTE_SMUG, T0 + LOBBY_EMOTE_COOLDOWN_MS);
	expect_events(f, 1);
	expect_event(f, 0, 1, EVENT_EMOTE);
	expect_int(f->records[0].emote, EMOTE_SMUG);
	expect_int(f->lobby.stats.emotes, 3);
	/* an emote is no move: the game is as it was */
	expect_int(p0->room->game.moves_played, 0);
	expect_int(p0->room->game.to_move, ROLE_FRONT);
}

static void an_emote_in_a_finished_game_is_relayed(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair_at(f, &p0, &p1, 0, T0);
	play_at(f, p0, 7, 7, T0);
	finish(f, p1, T0);
	emote(f, p1, EMOTE_GG, T0 + 500);
	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_EMOTE);
	expect_int(f->records[0].emote, EMOTE_GG);
	expect_enum(f->records[0].by, ROLE_BACK, role_name);
	emote(f, p0, EMOTE_THANKS, T0 + 600);
	expect_event(f, 1, 1, EVENT_EMOTE);
	expect_int(f->lobby.stats.emotes, 2);
}

static void an_emote_to_an_away_opponent_is_not_sent(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair_at(f, &p0, &p1, 0, T0);
	play_at(f, p0, 7, 7, T0);
	drop(f, p1, T0);
	forget_records(f);
	emote(f, p0, EMOTE_WOW, T0 + 100);
	expect_events(f, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		untimed_test(an_emote_goes_to_the_opponent_alone),
		untimed_test(an_emote_in_a_finished_game_is_relayed),
		untimed_test(an_emote_to_an_away_opponent_is_not_sent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
