/*
 * test_lobby_invites.c - the lobby: private games by invite link
 * (PROTOCOL.md section 8.6): lobby_join() with invite "new" seats a player
 * alone on a fresh code (9 random bytes, base64url) told by invite, not
 * waiting; with a code, the first comer plays its creator at once, random
 * sides, in the creator's pool, in a private room; an unknown or used
 * code changes nothing; the code dies when its creator leaves or is
 * matched (lobby_invite_open()); a creator is never paired from the pools'
 * queues, never filled with the engine and not counted as waiting; a
 * rematch of a private room is private; a creator who asks for it gets a
 * listed room (the joiner cannot); the pools' refs are let go. The
 * fixture is lobby_fixture.h's.
 */
#include <stdio.h>
#include <string.h>

#include "lobby_fixture.h"

/* The bytes of the first invite of most tests and the code they make. */
static const uint8_t code_bytes[INVITE_BYTES] = { 0xfb, 0xff, 0xbf,
						  0x00, 0x10, 0x83,
						  0x61, 0x62, 0x63 };
#define CODE "-_-_ABCDYWJj"

static const struct lobby_pool_key pool_default = { .size = 15,
						    .rule = RULE_FREESTYLE,
						    .tc = { 0, 0 } };
static const struct lobby_pool_key pool_big = { .size = 19,
						.rule = RULE_FREESTYLE,
						.tc = { 0, 0 } };

/* Player i (uid i) on connection i asks for a new invite of pool at now. */
static struct lobby_player *create(struct fixture *f, int i,
				   const struct lobby_pool_key *pool,
				   const uint8_t bytes[INVITE_BYTES],
				   uint64_t now_ms)
{
	struct lobby_join join = {
		.uid = f->uids[i], .name = "maker", .pool = pool,
		.invite = "new",
	};
	struct lobby_player *player;

	script_bytes(f, bytes, INVITE_BYTES);
	player = lobby_join(&f->lobby, &join, conn(f, i), now_ms);
	if (!player)
		fail_msg("player %d could not open an invite", i);
	return player;
}

/* Player i (uid i) on connection c comes with code at now (may be NULL). */
static struct lobby_player *come(struct fixture *f, int i, int c,
				 const char *code, uint64_t now_ms)
{
	struct lobby_join join = {
		.uid = f->uids[i], .name = "guest", .invite = code,
	};

	return lobby_join(&f->lobby, &join, conn(f, c), now_ms);
}

/* Checks that pool key is not listed by lobby_each_pool(). */
static void expect_no_pool(struct fixture *f, const struct lobby_pool_key *key)
{
	struct pools_seen seen;

	list_pools(f, &seen);
	if (pool_index(&seen, key) >= 0)
		fail_msg("pool %dx%d %s is still listed (leaked ref)", key->size,
			 key->size, rule_name(key->rule));
}

/* Checks that event i is an invite with code, to connection c. */
static void expect_invite(struct fixture *f, size_t i, int c, const char *code)
{
	char want[64];

	expect_event(f, i, c, EVENT_INVITE);
	snprintf(want, sizeof(want), "{\"type\":\"invite\",\"code\":\"%s\"}",
		 code);
	expect_str(f->records[i].json, want);
}

static void a_new_invite_tells_its_code_instead_of_waiting(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0;

	p0 = create(f, 0, NULL, code_bytes, T0);
	expect_events(f, 1);
	expect_invite(f, 0, 0, CODE);
	expect_str(p0->invite, CODE);
	expect_int(p0->state, PLAYER_WAITING);
	assert_true(lobby_invite_open(&f->lobby, CODE));
	assert_ptr_equal(lobby_find(&f->lobby, f->uids[0]), p0);
	/* a seat, but nobody waiting in any pool */
	expect_int(f->lobby.stats.players, 1);
	expect_int(f->lobby.stats.waiting, 0);
	expect_pool(f, &pool_default, 0, 0);
	expect_int(f->lobby.invites.count, 1);
	expect_int(lobby_player_board_size(p0), 15);
	expect_no_uid_sent(f, 1);
}

static void lobby_invite_open_knows_only_open_codes(void **state)
{
	struct fixture *f = *state;

	assert_false(lobby_invite_open(&f->lobby, CODE));
	create(f, 0, NULL, code_bytes, T0);
	assert_true(lobby_invite_open(&f->lobby, CODE));
	assert_false(lobby_invite_open(&f->lobby, NULL));
	assert_false(lobby_invite_open(&f->lobby, ""));
	assert_false(lobby_invite_open(&f->lobby, "new"));
	assert_false(lobby_invite_open(&f->lobby, "-_-_ABCDYWJ"));
	assert_false(lobby_invite_open(&f->lobby, "-_-_ABCDYWJjj"));
	assert_false(lobby_invite_open(&f->lobby, "-_-_ABCDYWJJ"));
	assert_false(lobby_invite_open(&f->lobby, "AAAAAAAAAAAA"));
}

static void invites_get_different_codes_drawn_again_when_taken(void **state)
{
	struct fixture *f = *state;
	static const uint8_t ones[INVITE_BYTES] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	struct lobby_player *p0, *p1, *p2;

	p0 = create(f, 0, NULL, code_bytes, T0);
	p1 = create(f, 1, NULL, ones, T0);
	/* the first draw makes a code taken: the lobby draws again */
	script_bytes(f, code_bytes, INVITE_BYTES);
	p2 = create(f, 2, NULL, (const uint8_t[INVITE_BYTES]){ 2, 2, 2, 2, 2,
							       2, 2, 2, 2 },
		    T0);
	expect_int(f->script_pos, f->script_len);
	expect_str(p0->invite, CODE);
	expect_str(p1->invite, "AQEBAQEBAQEB");
	expect_str(p2->invite, "AgICAgICAgIC");
	expect_events(f, 3);
	expect_invite(f, 0, 0, CODE);
	expect_invite(f, 1, 1, "AQEBAQEBAQEB");
	expect_invite(f, 2, 2, "AgICAgICAgIC");
	expect_int(f->lobby.invites.count, 3);
	expect_int(f->lobby.stats.waiting, 0);
	/* none of them was paired with another */
	expect_int(f->lobby.stats.matches, 0);
}

static void the_first_comer_with_the_code_plays_its_creator(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	size_t r0, r1;

	p0 = create(f, 0, NULL, code_bytes, T0);
	forget_records(f);
	script_match(f, 0x11, 0);
	p1 = come(f, 1, 1, CODE, T0 + 10);
	assert_non_null(p1);
	expect_events(f, 2);
	r0 = event_index(f, 0, EVENT_ROLE);
	r1 = event_index(f, 1, EVENT_ROLE);
	/* coin 0: the creator (who came first) is front */
	expect_enum(f->records[r0].role, ROLE_FRONT, role_name);
	expect_enum(f->records[r1].role, ROLE_BACK, role_name);
	expect_str(f->records[r0].room, f->records[r1].room);
	expect_str(f->records[r0].opponent, "guest");
	expect_str(f->records[r1].opponent, "maker");
	assert_ptr_equal(p0->room, p1->room);
	assert_true(p0->room->private);
	expect_str(p0->invite, "");
	/* the code is used up */
	assert_false(lobby_invite_open(&f->lobby, CODE));
	expect_int(f->lobby.invites.count, 0);
	expect_int(f->lobby.stats.players, 2);
	expect_int(f->lobby.stats.waiting, 0);
	expect_int(f->lobby.stats.matches, 1);
	expect_int(f->lobby.stats.rooms_live, 1);
	expect_pool(f, &pool_default, 0, 1);
	expect_no_uid_sent(f, 2);
	/* and the game plays as any other */
	forget_records(f);
	play(f, p0, 7, 7);
	expect_events(f, 2);
	expect_int(p0->room->game.moves_played, 1);
}

static void the_coin_can_seat_the_creator_back(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	p0 = create(f, 0, NULL, code_bytes, T0);
	script_match(f, 0x11, 1);
	p1 = come(f, 1, 1, CODE, T0);
	assert_non_null(p1);
	expect_enum(p0->role, ROLE_BACK, role_name);
	expect_enum(p1->role, ROLE_FRONT, role_name);
	assert_true(p1->room->private);
}

static void the_creators_pool_wins_over_the_joiners(void **state)
{
	struct fixture *f = *state;
	struct lobby_join join = {
		.name = "guest",
		.pool = &pool_timed,
		.ai = true,
		.level = ENGINE_HARD,
		.invite = CODE,
	};
	struct lobby_player *p0, *p1;
	size_t r1;

	p0 = create(f, 0, &pool_rematch, code_bytes, T0);
	expect_pool(f, &pool_rematch, 0, 0);
	expect_int(lobby_player_board_size(p0), 19);
	forget_records(f);
	join.uid = f->uids[1];
	script_match(f, 0x11, 0);
	p1 = lobby_join(&f->lobby, &join, conn(f, 1), T0);
	assert_non_null(p1);
	assert_ptr_equal(p0->room, p1->room);
	r1 = event_index(f, 1, EVENT_ROLE);
	expect_int(json_number(f, r1, NULL, "size"), 19);
	expect_json_string(f, r1, "rule", "standard");
	expect_json_string(f, r1, "tc", "180+2");
	expect_clock(f, r1, 180000, 180000);
	/* ai is ignored with an invite: two people play */
	expect_int(p1->room->ai_role, ROLE_NONE);
	expect_int(f->thinks, 0);
	expect_int(f->lobby.stats.ai_matches, 0);
	expect_pool(f, &pool_rematch, 0, 1);
	expect_no_pool(f, &pool_timed);
	expect_int(p1->room->game.board.size, 19);
}

static void an_unknown_or_used_code_changes_nothing(void **state)
{
	struct fixture *f = *state;
	struct lobby_stats stats;

	/* nothing drawn (the script is empty), nothing sent, no seat */
	assert_null(come(f, 1, 1, CODE, T0));
	assert_null(come(f, 1, 1, "", T0));
	expect_events(f, 0);
	assert_null(lobby_find(&f->lobby, f->uids[1]));
	expect_int(f->lobby.stats.players, 0);

	create(f, 0, &pool_big, code_bytes, T0);
	script_match(f, 0x11, 0);
	assert_non_null(come(f, 1, 1, CODE, T0));
	forget_records(f);
	stats = f->lobby.stats;
	/* used: a third player gets nothing */
	assert_null(come(f, 2, 2, CODE, T0 + 1));
	assert_null(come(f, 2, 2, "AAAAAAAAAAAA", T0 + 1));
	expect_events(f, 0);
	assert_null(lobby_find(&f->lobby, f->uids[2]));
	assert_memory_equal(&stats, &f->lobby.stats, sizeof(stats));
	expect_int(f->script_pos, f->script_len);
}

static void a_uid_with_a_seat_resumes_it_whatever_code_it_brings(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1, *again;

	p0 = create(f, 0, NULL, code_bytes, T0);
	script_match(f, 0x11, 0);
	p1 = come(f, 1, 1, CODE, T0);
	forget_records(f);
	/* the used code, an unknown one, "new": the seat resumes each time */
	again = come(f, 1, 5, CODE, T0 + 1);
	assert_ptr_equal(again, p1);
	again = come(f, 1, 6, "AAAAAAAAAAAA", T0 + 2);
	assert_ptr_equal(again, p1);
	again = come(f, 1, 7, "new", T0 + 3);
	assert_ptr_equal(again, p1);
	expect_events(f, 6);
	expect_event(f, 0, 1, EVENT_REPLACED);
	expect_event(f, 1, 5, EVENT_ROLE);
	expect_event(f, 2, 5, EVENT_REPLACED);
	expect_event(f, 3, 6, EVENT_ROLE);
	expect_event(f, 4, 6, EVENT_REPLACED);
	expect_event(f, 5, 7, EVENT_ROLE);
	assert_ptr_equal(p0->room, p1->room);
	expect_int(f->lobby.invites.count, 0);
	expect_int(f->lobby.stats.players, 2);
}

static void a_creator_who_comes_back_is_told_its_code_again(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *again;

	p0 = create(f, 0, &pool_big, code_bytes, T0);
	forget_records(f);
	/* with no invite, "new" (nothing drawn) or another code */
	again = come(f, 0, 5, NULL, T0 + 1);
	assert_ptr_equal(again, p0);
	again = come(f, 0, 6, "new", T0 + 2);
	assert_ptr_equal(again, p0);
	again = come(f, 0, 7, "AQEBAQEBAQEB", T0 + 3);
	assert_ptr_equal(again, p0);
	expect_events(f, 6);
	expect_event(f, 0, 0, EVENT_REPLACED);
	expect_invite(f, 1, 5, CODE);
	expect_event(f, 2, 5, EVENT_REPLACED);
	expect_invite(f, 3, 6, CODE);
	expect_event(f, 4, 6, EVENT_REPLACED);
	expect_invite(f, 5, 7, CODE);
	expect_int(f->lobby.invites.count, 1);
	expect_int(f->lobby.stats.players, 1);
	expect_int(f->lobby.stats.waiting, 0);
	expect_pool(f, &pool_big, 0, 0);
	assert_true(lobby_invite_open(&f->lobby, CODE));
	expect_int(f->script_pos, f->script_len);
}

static void the_code_dies_when_its_creator_leaves(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0;
	struct pools_seen seen;

	p0 = create(f, 0, &pool_big, code_bytes, T0);
	expect_pool(f, &pool_big, 0, 0);
	forget_records(f);
	lobby_disconnect(&f->lobby, p0, true, T0 + 5);
	expect_events(f, 0);
	assert_false(lobby_invite_open(&f->lobby, CODE));
	assert_null(lobby_find(&f->lobby, f->uids[0]));
	expect_int(f->lobby.invites.count, 0);
	expect_int(f->lobby.stats.players, 0);
	/* the non-default pool's ref was let go: the pool is gone */
	expect_no_pool(f, &pool_big);
	list_pools(f, &seen);
	expect_int(seen.count, 1);
	assert_null(come(f, 1, 1, CODE, T0 + 6));
	expect_events(f, 0);
}

static void a_dropped_creator_is_not_kept_for_the_grace(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0;

	p0 = create(f, 0, &pool_big, code_bytes, T0);
	/* not on purpose, with a grace: a waiting player has no seat to keep */
	drop(f, p0, T0 + 5);
	assert_false(lobby_invite_open(&f->lobby, CODE));
	assert_null(lobby_find(&f->lobby, f->uids[0]));
	expect_away(f, 0);
	expect_no_pool(f, &pool_big);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS + 10), UINT64_MAX);
	/* the same uid later asks anew: a new code */
	p0 = create(f, 0, NULL, (const uint8_t[INVITE_BYTES]){ 1, 1, 1, 1, 1,
							       1, 1, 1, 1 },
		    T0 + 20);
	expect_str(p0->invite, "AQEBAQEBAQEB");
	assert_false(lobby_invite_open(&f->lobby, CODE));
}

static void a_matched_creators_pool_is_held_by_the_room_only(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	p0 = create(f, 0, &pool_big, code_bytes, T0);
	script_match(f, 0x11, 0);
	p1 = come(f, 1, 1, CODE, T0);
	expect_pool(f, &pool_big, 0, 1);
	expect_int(p0->room->pool->refs, 1);
	finish(f, p1, T0 + 1);
	lobby_disconnect(&f->lobby, p0, true, T0 + 2);
	expect_pool(f, &pool_big, 0, 0);
	lobby_disconnect(&f->lobby, p1, true, T0 + 3);
	expect_no_pool(f, &pool_big);
	expect_int(f->lobby.stats.rooms, 0);
	expect_int(f->lobby.stats.players, 0);
}

static void a_creator_is_never_paired_from_the_queue(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1, *p2;

	p0 = create(f, 0, NULL, code_bytes, T0);
	forget_records(f);
	p1 = join_pool(f, 1, "one", NULL, T0 + 1);
	expect_events(f, 1);
	expect_event(f, 0, 1, EVENT_WAITING);
	expect_int(p1->state, PLAYER_WAITING);
	expect_int(f->lobby.stats.waiting, 1);
	expect_pool(f, &pool_default, 1, 0);
	forget_records(f);
	script_match(f, 0x11, 0);
	p2 = join_pool(f, 2, "two", NULL, T0 + 2);
	assert_ptr_equal(p1->room, p2->room);
	expect_int(events_to(f, 0, EVENT_ROLE), 0);
	expect_int(p0->state, PLAYER_WAITING);
	assert_true(lobby_invite_open(&f->lobby, CODE));
	assert_false(p1->room->private);
	expect_int(f->lobby.stats.waiting, 0);
	expect_int(f->lobby.stats.matches, 1);
}

static void an_invite_with_ai_asked_waits_for_a_person(void **state)
{
	struct fixture *f = *state;
	struct lobby_join join = {
		.name = "maker", .ai = true, .level = ENGINE_EASY,
		.invite = "new",
	};
	struct lobby_player *p0;

	join.uid = f->uids[0];
	script_bytes(f, code_bytes, INVITE_BYTES);
	p0 = lobby_join(&f->lobby, &join, conn(f, 0), T0);
	assert_non_null(p0);
	expect_events(f, 1);
	expect_invite(f, 0, 0, CODE);
	expect_int(p0->state, PLAYER_WAITING);
	expect_int(f->thinks, 0);
	expect_int(f->lobby.stats.ai_matches, 0);
}

static int setup_fill(void **state)
{
	struct lobby_config config = {
		.board_size = 15,
		.rule = RULE_FREESTYLE,
		.full_board = FULL_BOARD_BACK,
		.ai_fill_after_ms = 5000,
		.ai_fill_level = ENGINE_EASY,
	};

	return setup_lobby_config(state, &config, false);
}

static void the_engine_never_fills_an_invite(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	p0 = create(f, 0, NULL, code_bytes, T0);
	p1 = create(f, 1, &pool_big, (const uint8_t[INVITE_BYTES]){ 1, 1, 1, 1,
								    1, 1, 1, 1,
								    1 },
		    T0);
	forget_records(f);
	expect_int(lobby_tick(&f->lobby, T0 + 5000), UINT64_MAX);
	expect_int(lobby_tick(&f->lobby, T0 + 60000), UINT64_MAX);
	expect_events(f, 0);
	expect_int(p0->state, PLAYER_WAITING);
	expect_int(p1->state, PLAYER_WAITING);
	expect_int(f->lobby.stats.ai_matches, 0);
	assert_true(lobby_invite_open(&f->lobby, CODE));
	/* a queued player beside them is filled as ever */
	join_pool(f, 2, "two", NULL, T0 + 60000);
	forget_records(f);
	script_match(f, 0x22, 0);
	lobby_tick(&f->lobby, T0 + 65000);
	expect_events(f, 1);
	expect_event(f, 0, 2, EVENT_ROLE);
	expect_int(f->lobby.stats.ai_matches, 1);
	expect_int(p0->state, PLAYER_WAITING);
}

static int setup_watch(void **state)
{
	struct lobby_config config = {
		.board_size = 15,
		.rule = RULE_FREESTYLE,
		.full_board = FULL_BOARD_BACK,
		.max_spectators = 4,
	};

	return setup_lobby_config(state, &config, false);
}

/* lobby_each_room()'s callback: counts the rooms and finds ctx's id. */
struct rooms_seen {
	int count;
	const char *id;
	bool found;
};

static bool see_room(void *ctx, const struct lobby_room *room)
{
	struct rooms_seen *seen = ctx;

	seen->count++;
	if (!strcmp(room->id, seen->id))
		seen->found = room->private;
	return true;
}

static void a_private_room_is_watchable_and_flagged(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct lobby_spectator *spectator;
	struct rooms_seen seen = { 0 };
	enum error_code code = ERR_NONE;
	char id[UID_LEN + 1];

	p0 = create(f, 0, NULL, code_bytes, T0);
	script_match(f, 0x11, 0);
	p1 = come(f, 1, 1, CODE, T0);
	snprintf(id, sizeof(id), "%s", p1->room->id);
	forget_records(f);
	spectator = lobby_watch(&f->lobby, id, conn(f, 9), T0, &code);
	assert_non_null(spectator);
	expect_int(code, ERR_NONE);
	expect_event(f, 0, 9, EVENT_SPECTATE);
	expect_int(f->lobby.stats.spectators, 1);
	/* listed to the server, flagged private: it leaves it out */
	seen.id = id;
	lobby_each_room(&f->lobby, see_room, &seen);
	expect_int(seen.count, 1);
	assert_true(seen.found);
	play_at(f, p0, 7, 7, T0 + 1);
	expect_int(events_to(f, 9, EVENT_BOARD), 2);
	expect_no_uid_sent(f, 2);
	lobby_unwatch(&f->lobby, spectator, T0 + 2);
}

static void a_rematch_of_a_private_room_is_private(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1, *p2, *p3;
	char old_id[UID_LEN + 1];

	p0 = create(f, 0, &pool_big, code_bytes, T0);
	script_match(f, 0x11, 0);
	p1 = come(f, 1, 1, CODE, T0);
	snprintf(old_id, sizeof(old_id), "%s", p0->room->id);
	finish(f, p1, T0 + 1);
	offer(f, p0, OFFER_REMATCH, T0 + 2);
	script_match(f, 0x44, 0);
	answer(f, p1, OFFER_REMATCH, true, T0 + 3);
	assert_ptr_equal(p0->room, p1->room);
	if (!strcmp(p0->room->id, old_id))
		fail_msg("the rematch kept the room id");
	expect_str(p0->room->rematch_of, old_id);
	assert_true(p0->room->private);
	expect_int(p0->room->game.board.size, 19);
	expect_pool(f, &pool_big, 0, 1);
	expect_no_uid_sent(f, 2);

	/* a public room's rematch stays public */
	script_match(f, 0x55, 0);
	p2 = join_pool(f, 2, "two", NULL, T0);
	p3 = join_pool(f, 3, "three", NULL, T0);
	finish(f, p3, T0 + 1);
	offer(f, p2, OFFER_REMATCH, T0 + 2);
	script_match(f, 0x66, 0);
	answer(f, p3, OFFER_REMATCH, true, T0 + 3);
	assert_ptr_equal(p2->room, p3->room);
	if (!p2->room->rematch_of[0])
		fail_msg("the public rematch names no room it follows");
	assert_false(p2->room->private);
}

/* The creator's listed makes the room public; the joiner's does not. */
static void only_the_creator_can_have_the_room_listed(void **state)
{
	struct fixture *f = *state;
	struct lobby_join listed = {
		.uid = f->uids[0], .name = "maker", .invite = "new",
		.listed = true,
	};
	struct lobby_join joiner = {
		.uid = f->uids[3], .name = "guest", .invite = CODE,
		.listed = true,
	};
	struct lobby_player *p0, *p1, *p2, *p3;

	script_bytes(f, code_bytes, INVITE_BYTES);
	p0 = lobby_join(&f->lobby, &listed, conn(f, 0), T0);
	assert_non_null(p0);
	script_match(f, 0x11, 0);
	p1 = come(f, 1, 1, CODE, T0);
	assert_non_null(p1);
	assert_false(p1->room->private);
	/* a creator without listed, a joiner with it: private */
	p2 = create(f, 2, NULL, code_bytes, T0);
	assert_false(p2->invite_listed);
	script_match(f, 0x11, 0);
	p3 = lobby_join(&f->lobby, &joiner, conn(f, 3), T0);
	assert_non_null(p3);
	assert_true(p3->room->private);
	assert_ptr_equal(p2->room, p3->room);
}

static void the_lobby_releases_open_invites(void **state)
{
	struct fixture *f = *state;

	/* teardown releases them: valgrind and ASan check nothing leaks */
	create(f, 0, &pool_big, code_bytes, T0);
	create(f, 1, NULL, (const uint8_t[INVITE_BYTES]){ 1, 1, 1, 1, 1, 1, 1,
							  1, 1 },
	       T0);
	lobby_release(&f->lobby);
	f->released = true;
	expect_int(f->lobby.stats.players, 0);
	expect_int(f->lobby.invites.count, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		untimed_test(a_new_invite_tells_its_code_instead_of_waiting),
		untimed_test(lobby_invite_open_knows_only_open_codes),
		untimed_test(
			invites_get_different_codes_drawn_again_when_taken),
		untimed_test(the_first_comer_with_the_code_plays_its_creator),
		untimed_test(the_coin_can_seat_the_creator_back),
		untimed_test(the_creators_pool_wins_over_the_joiners),
		untimed_test(an_unknown_or_used_code_changes_nothing),
		untimed_test(
			a_uid_with_a_seat_resumes_it_whatever_code_it_brings),
		untimed_test(a_creator_who_comes_back_is_told_its_code_again),
		untimed_test(the_code_dies_when_its_creator_leaves),
		untimed_test(a_dropped_creator_is_not_kept_for_the_grace),
		untimed_test(a_matched_creators_pool_is_held_by_the_room_only),
		untimed_test(a_creator_is_never_paired_from_the_queue),
		untimed_test(an_invite_with_ai_asked_waits_for_a_person),
		cmocka_unit_test_setup_teardown(the_engine_never_fills_an_invite,
						setup_fill, teardown),
		cmocka_unit_test_setup_teardown(
			a_private_room_is_watchable_and_flagged, setup_watch,
			teardown),
		untimed_test(a_rematch_of_a_private_room_is_private),
		untimed_test(only_the_creator_can_have_the_room_listed),
		untimed_test(the_lobby_releases_open_invites),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
