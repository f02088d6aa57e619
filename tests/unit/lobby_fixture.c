/*
 * lobby_fixture.c - the lobby tests' fixture (lobby_fixture.h).
 */
#include "lobby_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

void record_event(void *ctx, void *conn, const struct event *ev)
{
	struct fixture *f = ctx;
	struct record *r;
	size_t len;

	if (f->count == f->capacity) {
		f->capacity = f->capacity ? 2 * f->capacity : 64;
		f->records =
			realloc(f->records, f->capacity * sizeof(*f->records));
		assert_non_null(f->records);
	}
	if (!conn)
		fail_msg("event %d was sent to a NULL connection", ev->type);
	r = &f->records[f->count++];
	memset(r, 0, sizeof(*r));
	r->conn = conn;
	r->seconds = ev->seconds;
	r->resume = ev->resume;
	r->type = ev->type;
	r->role = ev->role;
	r->code = ev->code;
	r->undo = ev->undo;
	r->undo_cell = ev->undo_cell;
	r->undo_role = ev->undo_role;
	r->accept = ev->accept;
	r->by = ev->by;
	r->what = ev->what;
	r->emote = ev->emote;
	if (ev->ai_level)
		snprintf(r->ai_level, sizeof(r->ai_level), "%s", ev->ai_level);
	if (ev->room_id)
		snprintf(r->room, sizeof(r->room), "%s", ev->room_id);
	if (ev->opponent_name && ev->opponent_name[0]) {
		r->has_opponent = true;
		snprintf(r->opponent, sizeof(r->opponent), "%s",
			 ev->opponent_name);
	}
	if (ev->text)
		snprintf(r->text, sizeof(r->text), "%s", ev->text);
	if (ev->game) {
		r->winner = ev->game->winner;
		r->reason = ev->game->reason;
		r->line = ev->game->line;
		r->moves = ev->game->moves_played;
		r->move = ev->game->last_move;
	}
	if (ev->type != EVENT_REPLACED) {
		r->json = protocol_encode(ev, 0, &len);
		if (!r->json)
			fail_msg("event type %d could not be encoded",
				 ev->type);
	}
}

void record_fact(void *ctx, enum lobby_record type,
		 const struct lobby_room *room)
{
	struct fixture *f = ctx;
	struct fact *fact;

	if (f->fact_count == MAX_FACTS)
		fail_msg("more than %d facts recorded", MAX_FACTS);
	fact = &f->facts[f->fact_count++];
	fact->type = type;
	fact->room = room;
	snprintf(fact->room_id, sizeof(fact->room_id), "%s", room->id);
	fact->moves = room->game.moves_played;
	fact->reason = room->game.reason;
	fact->seated[ROLE_FRONT] = room->seats[ROLE_FRONT] != NULL;
	fact->seated[ROLE_BACK] = room->seats[ROLE_BACK] != NULL;
	fact->events_before = f->count;
	fact->winner = room->game.winner;
	fact->clock_ms[ROLE_FRONT] = room->game.clock.left_ms[ROLE_FRONT];
	fact->clock_ms[ROLE_BACK] = room->game.clock.left_ms[ROLE_BACK];
	snprintf(fact->rematch_of, sizeof(fact->rematch_of), "%s",
		 room->rematch_of);
}

void record_think(void *ctx, struct lobby_room *room)
{
	struct fixture *f = ctx;

	if (room->ai_role == ROLE_NONE || room->game.to_move != room->ai_role)
		fail_msg("think called when the engine is not to move");
	f->thinks++;
	lobby_ai_ticket(room, &f->ticket);
}

void fill_random(void *ctx, void *buf, size_t len)
{
	struct fixture *f = ctx;
	uint8_t *bytes = buf;
	size_t i;

	for (i = 0; i < len; i++) {
		if (f->script_pos < f->script_len)
			bytes[i] = f->script[f->script_pos++];
		else if (f->endless)
			bytes[i] = f->counter++;
		else
			fail_msg("the lobby drew more random bytes than the "
				 "test scripted (%zu)",
				 f->script_len);
	}
}

void script_bytes(struct fixture *f, const uint8_t *bytes, size_t len)
{
	assert_true(f->script_len + len <= sizeof(f->script));
	memcpy(f->script + f->script_len, bytes, len);
	f->script_len += len;
}

void script_match(struct fixture *f, uint8_t id_byte, uint8_t coin)
{
	uint8_t bytes[17];

	memset(bytes, id_byte, 16);
	bytes[16] = coin;
	script_bytes(f, bytes, sizeof(bytes));
}

void forget_records(struct fixture *f)
{
	size_t i;

	for (i = 0; i < f->count; i++)
		free(f->records[i].json);
	f->count = 0;
	f->fact_count = 0;
}

int start_lobby(struct fixture *f, const struct lobby_config *config,
		bool journal)
{
	return lobby_init(
		&f->lobby, config, (struct lobby_random){ fill_random, f },
		(struct lobby_sink){ .send = record_event,
				     .record = journal ? record_fact : NULL,
				     .think = record_think,
				     .ctx = f });
}

int setup_lobby_config(void **state, const struct lobby_config *config,
		       bool journal)
{
	struct fixture *f = calloc(1, sizeof(*f));
	int i;

	if (!f)
		return -1;
	for (i = 0; i < MAX_UIDS; i++)
		snprintf(f->uids[i], sizeof(f->uids[i]),
			 "%08x-aaaa-4bbb-8ccc-%012x", 0xa0000000u + i, i);
	if (start_lobby(f, config, journal)) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

int setup_lobby_with(void **state, int size, enum full_board full_board,
		     uint64_t grace_ms, bool journal)
{
	struct lobby_config config = {
		.board_size = size,
		.rule = RULE_FREESTYLE,
		.full_board = full_board,
		.reconnect_grace_ms = grace_ms,
	};

	return setup_lobby_config(state, &config, journal);
}

int setup_lobby(void **state, int size, enum full_board full_board)
{
	return setup_lobby_with(state, size, full_board, 0, false);
}

int setup(void **state)
{
	return setup_lobby(state, 15, FULL_BOARD_BACK);
}

int setup_small_drawn(void **state)
{
	return setup_lobby(state, 5, FULL_BOARD_DRAW);
}

int setup_grace(void **state)
{
	return setup_lobby_with(state, 15, FULL_BOARD_BACK, GRACE_MS, true);
}

int setup_journal_no_grace(void **state)
{
	return setup_lobby_with(state, 15, FULL_BOARD_BACK, 0, true);
}

int setup_grace_no_journal(void **state)
{
	return setup_lobby_with(state, 15, FULL_BOARD_BACK, GRACE_MS, false);
}

int teardown(void **state)
{
	struct fixture *f = *state;

	if (!f->released)
		lobby_release(&f->lobby);
	forget_records(f);
	free(f->records);
	free(f);
	return 0;
}

void *conn(struct fixture *f, int i)
{
	return &f->conns[i];
}

struct lobby_player *join(struct fixture *f, int i, const char *name)
{
	struct lobby_player *player;

	player = lobby_connect(&f->lobby, f->uids[i], name, conn(f, i), 0);
	if (!player)
		fail_msg("player %d could not connect", i);
	return player;
}

const char *type_name(int type)
{
	const char *name = protocol_event_name((enum event_type)type);

	return name ? name : type == EVENT_REPLACED ? "replaced" : "(none)";
}

const char *code_name(int code)
{
	return code == ERR_NONE ? "none" : error_code_name(code);
}

long conn_index(struct fixture *f, void *c)
{
	return (char *)c - f->conns;
}

struct request move_request(int x, int y)
{
	struct request req = { .type = REQUEST_MOVE, .x = x, .y = y };

	return req;
}

void play(struct fixture *f, struct lobby_player *player, int x, int y)
{
	struct request req = move_request(x, y);

	lobby_request(&f->lobby, player, &req, 0);
}

void play_at(struct fixture *f, struct lobby_player *player, int x, int y,
	     uint64_t now_ms)
{
	struct request req = move_request(x, y);

	lobby_request(&f->lobby, player, &req, now_ms);
}

struct lobby_player *join_pool(struct fixture *f, int i, const char *name,
			       const struct lobby_pool_key *pool,
			       uint64_t now_ms)
{
	struct lobby_join join = {
		.uid = f->uids[i],
		.name = name,
		.pool = pool,
	};
	struct lobby_player *player;

	player = lobby_join(&f->lobby, &join, conn(f, i), now_ms);
	if (!player)
		fail_msg("player %d could not join", i);
	return player;
}

void pair(struct fixture *f, struct lobby_player **p0, struct lobby_player **p1,
	  uint8_t coin)
{
	script_match(f, 0x11, coin);
	*p0 = join(f, 0, "zero");
	*p1 = join(f, 1, "one");
	forget_records(f);
}

void expect_no_uid_sent(struct fixture *f, int uids)
{
	size_t i;
	int u;

	for (i = 0; i < f->count; i++) {
		if (!f->records[i].json)
			continue;
		for (u = 0; u < uids; u++)
			if (strstr(f->records[i].json, f->uids[u]))
				fail_msg("event %zu carries uid %d: %s", i, u,
					 f->records[i].json);
	}
}

void expect_refusal(struct fixture *f, struct lobby_player *player,
		    const struct request *req, enum error_code code)
{
	expect_refusal_at(f, player, req, code, 0);
}

void expect_refusal_at(struct fixture *f, struct lobby_player *player,
		       const struct request *req, enum error_code code,
		       uint64_t now_ms)
{
	struct lobby_stats stats = f->lobby.stats;
	struct game game;

	if (player->room)
		game = player->room->game;
	forget_records(f);
	lobby_request(&f->lobby, player, req, now_ms);
	if (f->count != 1 || f->records[0].type != EVENT_ERROR)
		fail_msg("expected one error, got %zu events, first %s",
			 f->count,
			 f->count ? type_name(f->records[0].type) : "-");
	if (f->records[0].conn != player->conn)
		fail_msg("the error went to conn %ld, not the requester",
			 conn_index(f, f->records[0].conn));
	expect_enum(f->records[0].code, code, code_name);
	if (!f->records[0].text[0])
		fail_msg("error %s came without a message", code_name(code));
	assert_memory_equal(&stats, &f->lobby.stats, sizeof(stats));
	if (player->room)
		assert_memory_equal(&game, &player->room->game, sizeof(game));
	forget_records(f);
}

const char *fact_name(int type)
{
	return lobby_record_name((enum lobby_record)type);
}

struct lobby_player *rejoin(struct fixture *f, int i, const char *name, int c,
			    uint64_t now_ms)
{
	struct lobby_player *player;

	player = lobby_connect(&f->lobby, f->uids[i], name, conn(f, c), now_ms);
	if (!player)
		fail_msg("player %d could not connect again", i);
	return player;
}

void drop(struct fixture *f, struct lobby_player *player, uint64_t now_ms)
{
	lobby_disconnect(&f->lobby, player, false, now_ms);
}

void play_to_five(struct fixture *f, struct lobby_player *front,
		  struct lobby_player *back)
{
	int i;

	for (i = 0; i < 4; i++) {
		play(f, front, i, 0);
		play(f, back, i, 1);
	}
	play(f, front, 4, 0);
}

void request(struct fixture *f, struct lobby_player *player,
	     enum request_type type, bool accept, uint64_t now)
{
	struct request req = { .type = type, .accept = accept };

	lobby_request(&f->lobby, player, &req, now);
}

void expect_undo(struct fixture *f, size_t i, int c, int x, int y, int moves)
{
	expect_event(f, i, c, EVENT_BOARD);
	if (!f->records[i].undo)
		fail_msg("event %zu: expected a takeback board", i);
	expect_int(f->records[i].undo_cell.x, x);
	expect_int(f->records[i].undo_cell.y, y);
	expect_int(f->records[i].moves, moves);
	if (!strstr(f->records[i].json, "\"content\":[") ||
	    !strstr(f->records[i].json, "\"undo\":{") ||
	    strstr(f->records[i].json, "\"move\":"))
		fail_msg("event %zu: a takeback board needs content and undo, "
			 "and no move: %s",
			 i, f->records[i].json);
}

const struct lobby_pool_key pool_timed = { .size = 15,
					   .rule = RULE_FREESTYLE,
					   .tc = { BASE_MS, INC_MS } };

const struct lobby_pool_key pool_rematch = { .size = 19,
					     .rule = RULE_STANDARD,
					     .tc = { 180000, 2000 } };

int setup_tc(void **state, struct time_control tc, uint64_t grace_ms)
{
	struct lobby_config config = {
		.board_size = 15,
		.rule = RULE_FREESTYLE,
		.time_control = tc,
		.first_move_ms = FIRST_MS,
		.full_board = FULL_BOARD_BACK,
		.reconnect_grace_ms = grace_ms,
	};

	return setup_lobby_config(state, &config, true);
}

int setup_timed(void **state)
{
	return setup_tc(state, (struct time_control){ BASE_MS, INC_MS },
			GRACE_MS);
}

int setup_untimed(void **state)
{
	return setup_tc(state, (struct time_control){ 0, 0 }, GRACE_MS);
}

void pair_at(struct fixture *f, struct lobby_player **p0,
	     struct lobby_player **p1, uint8_t coin, uint64_t now_ms)
{
	script_match(f, 0x11, coin);
	*p0 = join_pool(f, 0, "zero", NULL, now_ms);
	*p1 = join_pool(f, 1, "one", NULL, now_ms);
	if ((*p0)->state != PLAYER_PLAYING || (*p0)->room != (*p1)->room)
		fail_msg("players 0 and 1 were not paired");
	forget_records(f);
}

void ask(struct fixture *f, struct lobby_player *player, enum request_type type,
	 enum offer_what what, bool accept, uint64_t now_ms)
{
	struct request req = { .type = type, .what = what, .accept = accept };

	lobby_request(&f->lobby, player, &req, now_ms);
}

void offer(struct fixture *f, struct lobby_player *player, enum offer_what what,
	   uint64_t now_ms)
{
	ask(f, player, REQUEST_OFFER, what, false, now_ms);
}

void answer(struct fixture *f, struct lobby_player *player,
	    enum offer_what what, bool accept, uint64_t now_ms)
{
	ask(f, player, REQUEST_ANSWER, what, accept, now_ms);
}

void emote(struct fixture *f, struct lobby_player *player, enum emote word,
	   uint64_t now_ms)
{
	struct request req = { .type = REQUEST_EMOTE, .emote = word };

	lobby_request(&f->lobby, player, &req, now_ms);
}

void expect_refused_at(struct fixture *f, struct lobby_player *player,
		       enum request_type type, enum offer_what what,
		       enum error_code code, uint64_t now_ms)
{
	struct request req = { .type = type, .what = what };

	expect_refusal_at(f, player, &req, code, now_ms);
}

const char *winner_name(int winner)
{
	return game_winner_name((enum game_winner)winner);
}

const char *reason_name(int reason)
{
	return game_reason_name((enum game_reason)reason);
}

const char *offer_name(int what)
{
	return offer_what_name((enum offer_what)what);
}

/* Event i's JSON, parsed: the caller deletes it. */
static cJSON *event_json(struct fixture *f, size_t i)
{
	cJSON *root;

	if (i >= f->count || !f->records[i].json)
		fail_msg("event %zu has no JSON (%zu sent)", i, f->count);
	root = cJSON_Parse(f->records[i].json);
	if (!root)
		fail_msg("event %zu is not JSON: %s", i, f->records[i].json);
	return root;
}

long long json_number(struct fixture *f, size_t i, const char *outer,
		      const char *name)
{
	cJSON *root = event_json(f, i);
	const cJSON *object =
		outer ? cJSON_GetObjectItemCaseSensitive(root, outer) : root;
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, name);
	long long value = cJSON_IsNumber(item) ? (long long)item->valuedouble :
						 -1;

	cJSON_Delete(root);
	return value;
}

bool json_has(struct fixture *f, size_t i, const char *name)
{
	cJSON *root = event_json(f, i);
	bool has = cJSON_GetObjectItemCaseSensitive(root, name) != NULL;

	cJSON_Delete(root);
	return has;
}

void expect_json_string(struct fixture *f, size_t i, const char *name,
			const char *want)
{
	cJSON *root = event_json(f, i);
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, name);
	bool same = cJSON_IsString(item) && !strcmp(item->valuestring, want);

	cJSON_Delete(root);
	if (!same)
		fail_msg("event %zu: expected \"%s\":\"%s\": %s", i, name, want,
			 f->records[i].json);
}

void expect_clock(struct fixture *f, size_t i, long long front, long long back)
{
	long long got_front = json_number(f, i, "clock", "front");
	long long got_back = json_number(f, i, "clock", "back");

	if (got_front != front || got_back != back)
		fail_msg("event %zu: expected clock front %lld back %lld: %s",
			 i, front, back, f->records[i].json);
}

void expect_abort_in(struct fixture *f, size_t i, long long want)
{
	long long got = json_number(f, i, NULL, "abort_in");

	if (got != want)
		fail_msg("event %zu: expected abort_in %lld: %s", i, want,
			 f->records[i].json);
}

int events_to(struct fixture *f, int c, enum event_type type)
{
	int n = 0;

	for (size_t i = 0; i < f->count; i++)
		n += f->records[i].conn == conn(f, c) &&
		     f->records[i].type == type;
	return n;
}

size_t event_index(struct fixture *f, int c, enum event_type type)
{
	for (size_t i = 0; i < f->count; i++)
		if (f->records[i].conn == conn(f, c) &&
		    f->records[i].type == type)
			return i;
	fail_msg("no %s went to conn %d (%zu events)", type_name(type), c,
		 f->count);
	return 0;
}

void open_clocks(struct fixture *f, struct lobby_player *p0,
		 struct lobby_player *p1, uint64_t t1, uint64_t t2)
{
	play_at(f, p0, 7, 7, t1);
	play_at(f, p1, 8, 8, t2);
	expect_int(p0->room->game.moves_played, 2);
	forget_records(f);
}

/* lobby_each_pool()'s callback: pool appended to the pools_seen ctx. */
static void see_pool(void *ctx, const struct lobby_pool *pool)
{
	struct pools_seen *seen = ctx;

	if (seen->count == 8)
		fail_msg("more than 8 pools listed");
	seen->keys[seen->count] = pool->key;
	seen->waiting[seen->count] = (unsigned long)pool->queue.count;
	seen->games[seen->count] = pool->games;
	seen->count++;
}

void list_pools(struct fixture *f, struct pools_seen *seen)
{
	memset(seen, 0, sizeof(*seen));
	lobby_each_pool(&f->lobby, see_pool, seen);
}

int pool_index(const struct pools_seen *seen, const struct lobby_pool_key *key)
{
	for (int i = 0; i < seen->count; i++)
		if (seen->keys[i].size == key->size &&
		    seen->keys[i].rule == key->rule &&
		    time_control_equal(seen->keys[i].tc, key->tc))
			return i;
	return -1;
}

void expect_pool(struct fixture *f, const struct lobby_pool_key *key,
		 unsigned long waiting, unsigned long games)
{
	struct pools_seen seen;
	int i;

	list_pools(f, &seen);
	i = pool_index(&seen, key);
	if (i < 0)
		fail_msg("pool %dx%d %s %u+%u is not listed", key->size,
			 key->size, rule_name(key->rule), key->tc.base_ms,
			 key->tc.inc_ms);
	expect_int(seen.waiting[i], waiting);
	expect_int(seen.games[i], games);
}

struct lobby_player *join_engine(struct fixture *f, int i, uint8_t coin,
				 uint64_t now_ms)
{
	struct lobby_player *player;

	script_match(f, 0x22, coin);
	player = lobby_connect_ai(&f->lobby, f->uids[i], "", conn(f, i),
				  ENGINE_MEDIUM, now_ms);
	if (!player)
		fail_msg("player %d could not play the engine", i);
	forget_records(f);
	return player;
}

void finish(struct fixture *f, struct lobby_player *p1, uint64_t now_ms)
{
	ask(f, p1, REQUEST_RESIGN, 0, false, now_ms);
	if (!game_is_over(&p1->room->game))
		fail_msg("resigning did not end the game");
	forget_records(f);
}
