/*
 * test_lobby_takeback.c - the lobby: takebacks between two people: the
 * offer, consent and refusal, the cooldown, a move that declines the offer,
 * and the journal's record. The fixture is lobby_fixture.h's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lobby_fixture.h"

static void
a_human_takeback_needs_consent_and_a_refusal_waits_ten_seconds(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1; /* coin 0: p0 front */

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	forget_records(f);

	request(f, p1, REQUEST_OFFER, false, T0);
	expect_event(f, 0, 1, EVENT_ERROR);
	expect_int(f->records[0].code, ERR_NOTHING_TO_UNDO);
	request(f, p1, REQUEST_ANSWER, true, T0);
	expect_int(f->records[1].code, ERR_NO_OFFER);
	request(f, p1, REQUEST_REDO, false, T0);
	expect_int(f->records[2].code, ERR_NOTHING_TO_REDO);
	forget_records(f);

	request(f, p0, REQUEST_OFFER, false, T0);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_OFFER);
	expect_event(f, 1, 1, EVENT_OFFER);
	expect_int(f->records[1].by, ROLE_FRONT);
	request(f, p0, REQUEST_OFFER, false, T0);
	expect_int(f->records[2].code, ERR_OFFER_PENDING);
	request(f, p0, REQUEST_ANSWER, true, T0);
	expect_int(f->records[3].code, ERR_NO_OFFER);
	forget_records(f);

	request(f, p1, REQUEST_ANSWER, false, T0);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_ANSWER);
	expect_event(f, 1, 1, EVENT_ANSWER);
	expect_int(f->records[0].accept, false);
	expect_int(f->records[0].by, ROLE_BACK);
	request(f, p0, REQUEST_OFFER, false, T0 + LOBBY_OFFER_COOLDOWN_MS - 1);
	expect_int(f->records[2].code, ERR_TOO_SOON);
	forget_records(f);

	request(f, p0, REQUEST_OFFER, false, T0 + LOBBY_OFFER_COOLDOWN_MS);
	expect_event(f, 0, 0, EVENT_OFFER);
	request(f, p1, REQUEST_ANSWER, true, T0 + LOBBY_OFFER_COOLDOWN_MS);
	expect_events(f, 6);
	expect_event(f, 2, 0, EVENT_ANSWER);
	expect_int(f->records[2].accept, true);
	expect_undo(f, 4, 0, 7, 7, 0);
	expect_undo(f, 5, 1, 7, 7, 0);
	expect_int(f->lobby.stats.moves, 1);
	/* front is to move again */
	forget_records(f);
	play(f, p1, 1, 1);
	expect_int(f->records[0].code, ERR_NOT_YOUR_TURN);
	play(f, p0, 3, 3);
	expect_event(f, 1, 0, EVENT_BOARD);
	expect_no_uid_sent(f, 2);
}

static void an_accepted_takeback_after_a_reply_removes_both(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	play(f, p1, 8, 8);
	request(f, p0, REQUEST_OFFER, false, T0);
	forget_records(f);
	request(f, p1, REQUEST_ANSWER, true, T0);
	expect_events(f, 6);
	expect_undo(f, 2, 0, 8, 8, 1);
	expect_undo(f, 4, 0, 7, 7, 0);
	expect_int(f->fact_count, 0); /* no journal in this fixture */
}

static void a_move_while_an_offer_waits_declines_it(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	play(f, p1, 8, 8);
	play(f, p0, 6, 6);
	request(f, p0, REQUEST_OFFER, false, T0);
	forget_records(f);
	play(f, p1, 9, 9);
	expect_events(f, 4);
	expect_event(f, 0, 0, EVENT_ANSWER);
	expect_event(f, 1, 1, EVENT_ANSWER);
	expect_int(f->records[0].accept, false);
	expect_int(f->records[0].by, ROLE_BACK);
	expect_event(f, 2, 0, EVENT_BOARD);
	request(f, p1, REQUEST_ANSWER, true, T0);
	expect_int(f->records[4].code, ERR_NO_OFFER);
	/* a finished game takes no offers */
	play(f, p0, 5, 5);
	play(f, p1, 10, 10);
	play(f, p0, 4, 4);
	play(f, p1, 11, 11);
	play(f, p0, 3, 3); /* five: 3..7 on the diagonal */
	forget_records(f);
	request(f, p1, REQUEST_OFFER, false, T0);
	expect_int(f->records[0].code, ERR_GAME_OVER);
	request(f, p0, REQUEST_REDO, false, T0);
	expect_int(f->records[1].code, ERR_GAME_OVER);
}

static void the_journal_hears_a_takeback_with_the_moves_left(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	play(f, p1, 8, 8);
	request(f, p1, REQUEST_OFFER, false, T0);
	forget_records(f);
	request(f, p0, REQUEST_ANSWER, true, T0);
	/* back offered after its reply: only that reply is taken back */
	expect_int(f->fact_count, 1);
	expect_int(f->facts[0].type, RECORD_TAKEBACK);
	expect_int(f->facts[0].moves, 1);
	/* told to the journal before the players heard of it */
	expect_int(f->facts[0].events_before, 2);
	expect_events(f, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		lobby_test(
			a_human_takeback_needs_consent_and_a_refusal_waits_ten_seconds),
		lobby_test(an_accepted_takeback_after_a_reply_removes_both),
		lobby_test(a_move_while_an_offer_waits_declines_it),
		grace_test(the_journal_hears_a_takeback_with_the_moves_left),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
