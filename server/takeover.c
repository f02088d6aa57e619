/*
 * takeover.c - the rooms of a gone instance claimed and seated here: the
 * claim script, each claimed stream read back into a saved game, and the
 * game seated again (see takeover.h).
 */
#include "takeover.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "identity.h"
#include "instance.h"
#include "log.h"
#include "site_keys.h"

/*
 * Claims rooms of gone owners: ARGV this instance, this process's owner
 * name, the most rooms, the record's time to live. Each room's record
 * says this instance at one epoch more, and its players' seat records
 * point here (the game's 'g' entry names them; a seat that waits in a
 * queue is left alone), in the same step: a player who routes meanwhile
 * is sent here (cluster.c holds it until the game is seated). Answers
 * room, epoch, former owner and the game's stream (as XRANGE), for each.
 */
static const char takeover_claim_script[] =
	"local me, mine, most = ARGV[1], ARGV[2], tonumber(ARGV[3]) "
	"local out = {} "
	"for _, owner in ipairs(redis.call('SMEMBERS', "
	"'" SITE_OWNERS_KEY "')) do "
	" if #out >= 4 * most then break end "
	" local inst, token = string.match(owner, '^(.+):(%x+)$') "
	" if owner ~= mine and inst and redis.call('GET', "
	"'" INSTANCE_KEY_PREFIX "' .. inst) ~= token then "
	"  local set = '" SITE_OWNED_PREFIX "' .. owner "
	"  while #out < 4 * most do "
	"   local room = redis.call('SPOP', set) "
	"   if not room then redis.call('SREM', "
	"'" SITE_OWNERS_KEY "', owner) break end "
	"   local key = '" SITE_ROOM_PREFIX "' .. room "
	"   local record = redis.call('GET', key) "
	"   local epoch = 1 "
	"   if record then epoch = (tonumber(string.match(record, "
	"' (%d+)$')) or 0) + 1 end "
	"   redis.call('SET', key, me .. ' ' .. epoch, 'EX', ARGV[4]) "
	"   redis.call('SADD', '" SITE_OWNED_PREFIX "' .. mine, "
	"room) "
	"   local first = redis.call('XRANGE', '" SITE_GAME_PREFIX "' "
	".. room, '-', '+', 'COUNT', 1)[1] "
	"   local ok, game = false, nil "
	"   if first and first[2][1] == 'g' then "
	"ok, game = pcall(cjson.decode, first[2][2]) end "
	"   if ok and type(game) == 'table' then "
	"    for _, side in ipairs({'front', 'back'}) do "
	"     local uid = type(game[side]) == 'table' and game[side].uid "
	"     if type(uid) == 'string' and #uid == 36 then "
	"      local seat = '" SITE_SEAT_PREFIX "' .. uid "
	"      local was = redis.call('GET', seat) "
	"      if not was or string.sub(was, 1, 2) == 'p ' then "
	"redis.call('SET', seat, 'p ' .. me) end "
	"     end "
	"    end "
	"   end "
	"   out[#out + 1] = room "
	"   out[#out + 1] = tostring(epoch) "
	"   out[#out + 1] = inst "
	"   out[#out + 1] = redis.call('XRANGE', "
	"'" SITE_GAME_PREFIX "' .. room, '-', '+') "
	"  end "
	" end "
	"end "
	"if #out > 0 then redis.call('SADD', '" SITE_OWNERS_KEY "', "
	"mine) end "
	"return out";

/* One per process with --redis; owned by main.c. */
struct takeover {
	struct redis_link *link; /* these four not owned */
	struct instance *inst;
	struct redis_journal *rj;
	struct hub *hub;
	struct store *store; /* NULL: none */
	uint64_t lease_ms;
	bool claiming;		    /* the claim script is in flight */
	void (*claimed)(void *ctx); /* after each claim's answer */
	void *claimed_ctx;
	bool stopped;
	bool freeing; /* answers change nothing any more */
	uv_timer_t timer;
	struct takeover_stats stats;
};

/* One room claimed. */
struct takeover_read {
	char room[UID_LEN + 1];
	uint64_t epoch;
	char from[INSTANCE_ID_MAX + 1];
};

/* A stream read back: the saved game and what it points into. */
struct takeover_game {
	struct lobby_saved_game saved;
	uint16_t moves[BOARD_MAX_CELLS];
	char uid[ROLE_COUNT][UID_LEN + 1];
	char name[ROLE_COUNT][NAME_MAX_BYTES + 1];
	char rematch_of[UID_LEN + 1];
	int64_t started_unix_ms;
	bool header; /* the 'g' entry was read */
	bool over;   /* the 'x' entry was read */
	bool clocks; /* a move or takeback gave both clocks */
};

static const char *takeover_json_text(const cJSON *object, const char *name)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, name);

	return cJSON_IsString(item) ? item->valuestring : NULL;
}

/* The player of role from the header's object; false when bad. */
static bool takeover_player(const cJSON *root, const char *role_name,
			    struct takeover_game *g, enum role role)
{
	const cJSON *player = cJSON_GetObjectItemCaseSensitive(root, role_name);
	const char *uid = takeover_json_text(player, "uid");
	const char *name = takeover_json_text(player, "name");

	if (!uid || !name || !identity_check_uid(uid, g->uid[role]) ||
	    strlen(name) > NAME_MAX_BYTES)
		return false;
	snprintf(g->name[role], sizeof(g->name[role]), "%s", name);
	g->saved.uid[role] = g->uid[role];
	g->saved.name[role] = g->name[role];
	return true;
}

/* The 'g' entry: the game's settings and players. */
static bool takeover_header(const char *text, size_t len,
			    struct takeover_game *g)
{
	cJSON *root = cJSON_ParseWithLength(text, len);
	const cJSON *size = cJSON_GetObjectItemCaseSensitive(root, "size");
	const cJSON *started =
		cJSON_GetObjectItemCaseSensitive(root, "started");
	const cJSON *private =
		cJSON_GetObjectItemCaseSensitive(root, "private");
	const char *rule = takeover_json_text(root, "rule");
	const char *full = takeover_json_text(root, "full");
	const char *tc = takeover_json_text(root, "tc");
	const char *rematch_of = takeover_json_text(root, "rematch_of");
	bool ok = cJSON_IsNumber(size) && cJSON_IsNumber(started) && rule &&
		  full && tc && rematch_of &&
		  rule_parse(rule, &g->saved.rule) &&
		  time_control_parse(tc, &g->saved.tc) &&
		  size->valueint >= BOARD_MIN_SIZE &&
		  size->valueint <= BOARD_MAX_SIZE &&
		  strlen(rematch_of) <= UID_LEN &&
		  takeover_player(root, "front", g, ROLE_FRONT) &&
		  takeover_player(root, "back", g, ROLE_BACK);

	if (ok) {
		g->saved.board_size = size->valueint;
		g->saved.full_board = strcmp(full, "draw") ? FULL_BOARD_BACK :
							     FULL_BOARD_DRAW;
		g->saved.private = cJSON_IsTrue(private);
		g->started_unix_ms = (int64_t)started->valuedouble;
		snprintf(g->rematch_of, sizeof(g->rematch_of), "%s",
			 rematch_of);
		g->saved.rematch_of = g->rematch_of[0] ? g->rematch_of : NULL;
		g->header = true;
	}
	cJSON_Delete(root);
	return ok;
}

/* Both clocks after an entry; "-1 -1" in an untimed game. */
static void takeover_clocks(struct takeover_game *g, long long front,
			    long long back)
{
	if (front < 0 || back < 0)
		return;
	g->saved.clock_ms[ROLE_FRONT] = front;
	g->saved.clock_ms[ROLE_BACK] = back;
	g->clocks = true;
}

/* One field and value of the stream; false when it makes no sense. */
static bool takeover_entry(const redisReply *field, const redisReply *value,
			   struct takeover_game *g)
{
	char text[96];
	long long front, back;
	int seq, cell, moves, end;

	if (field->type != REDIS_REPLY_STRING || field->len != 1 ||
	    value->type != REDIS_REPLY_STRING)
		return false;
	if (field->str[0] == 'g')
		return takeover_header(value->str, value->len, g);
	if (value->len >= sizeof(text))
		return false;
	memcpy(text, value->str, value->len);
	text[value->len] = '\0';
	switch (field->str[0]) {
	case 'm':
		if (!g->header ||
		    sscanf(text, "%d %d %lld %lld%n", &seq, &cell, &front,
			   &back, &end) != 4 ||
		    text[end] || seq < 0 || seq > g->saved.moves_played ||
		    seq >= BOARD_MAX_CELLS || cell < 0 ||
		    cell >= g->saved.board_size * g->saved.board_size)
			return false;
		g->moves[seq] = (uint16_t)cell;
		g->saved.moves_played = seq + 1;
		takeover_clocks(g, front, back);
		return true;
	case 't':
		if (!g->header ||
		    sscanf(text, "%d %lld %lld%n", &moves, &front, &back,
			   &end) != 3 ||
		    text[end] || moves < 0 || moves > g->saved.moves_played)
			return false;
		g->saved.moves_played = moves;
		takeover_clocks(g, front, back);
		return true;
	case 'x':
		g->over = true;
		return true;
	default:
		return false;
	}
}

/* The stream as XRANGE answers it; false when it makes no sense. */
static bool takeover_read_stream(const redisReply *reply,
				 struct takeover_game *g)
{
	if (reply->type != REDIS_REPLY_ARRAY)
		return false;
	for (size_t i = 0; i < reply->elements; i++) {
		const redisReply *entry = reply->element[i];
		const redisReply *fields;

		if (entry->type != REDIS_REPLY_ARRAY || entry->elements != 2)
			return false;
		fields = entry->element[1];
		if (fields->type != REDIS_REPLY_ARRAY || fields->elements % 2)
			return false;
		for (size_t f = 0; f < fields->elements; f += 2)
			if (!takeover_entry(fields->element[f],
					    fields->element[f + 1], g))
				return false;
	}
	return g->header;
}

/* The stream read: the game seated here, or the room given up. */
static void takeover_seat(struct takeover *tk, struct takeover_read *rd,
			  const redisReply *reply)
{
	struct takeover_game *g = calloc(1, sizeof(*g));
	struct lobby_room *room;

	if (!g) {
		log_error("out of memory taking over room " LOG_ROOM, rd->room);
		redis_journal_abandon(tk->rj, rd->room, rd->epoch);
		tk->stats.failed++;
		return;
	}
	g->saved.room_id = rd->room;
	g->saved.moves = g->moves;
	if (!takeover_read_stream(reply, g) || g->over ||
	    !g->saved.moves_played) {
		if (!g->over)
			log_warn("room " LOG_ROOM " of instance %s: its "
				 "journal in redis cannot be read",
				 rd->room, rd->from);
		redis_journal_abandon(tk->rj, rd->room, rd->epoch);
		if (!g->over)
			tk->stats.failed++;
		free(g);
		return;
	}
	if (!g->clocks) {
		g->saved.clock_ms[ROLE_FRONT] = g->saved.tc.base_ms;
		g->saved.clock_ms[ROLE_BACK] = g->saved.tc.base_ms;
	}
	room = hub_restore(tk->hub, &g->saved);
	if (!room ||
	    redis_journal_adopt(tk->rj, room, rd->epoch, g->started_unix_ms)) {
		log_warn("room " LOG_ROOM " of instance %s cannot be seated "
			 "here: given up",
			 rd->room, rd->from);
		redis_journal_abandon(tk->rj, rd->room, rd->epoch);
		tk->stats.failed++;
		free(g);
		return;
	}
	if (tk->store && store_adopt(tk->store, room, g->started_unix_ms))
		log_error("database: out of memory for room " LOG_ROOM
			  " taken over",
			  rd->room);
	tk->stats.rooms++;
	log_info("took over room " LOG_ROOM " of instance %s at epoch %" PRIu64
		 " (%d moves)",
		 rd->room, rd->from, rd->epoch, g->saved.moves_played);
	free(g);
}

/* One room claimed: its game seated here from its stream. */
static void takeover_room(struct takeover *tk, const redisReply *room,
			  const redisReply *epoch, const redisReply *from,
			  const redisReply *stream)
{
	struct takeover_read rd = { 0 };

	if (room->type != REDIS_REPLY_STRING || room->len != UID_LEN ||
	    epoch->type != REDIS_REPLY_STRING ||
	    from->type != REDIS_REPLY_STRING || from->len > INSTANCE_ID_MAX)
		return;
	memcpy(rd.room, room->str, UID_LEN);
	rd.epoch = strtoull(epoch->str, NULL, 10);
	memcpy(rd.from, from->str, from->len);
	takeover_seat(tk, &rd, stream);
}

static void takeover_on_claim(void *data, const redisReply *reply)
{
	struct takeover *tk = data;

	if (tk->freeing)
		return;
	tk->claiming = false;
	if (reply && reply->type == REDIS_REPLY_ARRAY && !tk->stopped)
		for (size_t i = 0; i + 3 < reply->elements; i += 4)
			takeover_room(tk, reply->element[i],
				      reply->element[i + 1],
				      reply->element[i + 2],
				      reply->element[i + 3]);
	else if (reply && reply->type == REDIS_REPLY_ERROR)
		log_warn("takeover: %s", reply->str);
	if (tk->claimed)
		tk->claimed(tk->claimed_ctx);
}

static void takeover_on_tick(uv_timer_t *timer)
{
	struct takeover *tk = timer->data;
	struct instance_stats lease;
	char most[16], ttl[16];

	instance_stats(tk->inst, &lease);
	if (tk->stopped || tk->claiming || !lease.held ||
	    !redis_link_settled(tk->link, tk->lease_ms))
		return;
	snprintf(most, sizeof(most), "%d", TAKEOVER_BATCH);
	snprintf(ttl, sizeof(ttl), "%d", SITE_RECORD_TTL_S);
	if (redis_link_command(tk->link, takeover_on_claim, tk,
			       "EVAL %s 0 %s %s %s %s", takeover_claim_script,
			       instance_id(tk->inst),
			       redis_journal_owner(tk->rj), most, ttl) == 0)
		tk->claiming = true;
}

struct takeover *takeover_new(uv_loop_t *loop, struct redis_link *link,
			      struct instance *inst, struct redis_journal *rj,
			      struct hub *hub, struct store *store,
			      uint64_t lease_ms)
{
	struct takeover *tk = calloc(1, sizeof(*tk));

	if (!tk)
		return NULL;
	tk->link = link;
	tk->inst = inst;
	tk->rj = rj;
	tk->hub = hub;
	tk->store = store;
	tk->lease_ms = lease_ms;
	uv_timer_init(loop, &tk->timer);
	tk->timer.data = tk;
	uv_timer_start(&tk->timer, takeover_on_tick, TAKEOVER_EVERY_MS,
		       TAKEOVER_EVERY_MS);
	return tk;
}

void takeover_on_claimed(struct takeover *tk, void (*claimed)(void *ctx),
			 void *ctx)
{
	tk->claimed = claimed;
	tk->claimed_ctx = ctx;
}

bool takeover_claiming(const void *tk)
{
	return ((const struct takeover *)tk)->claiming;
}

void takeover_stop(struct takeover *tk)
{
	tk->stopped = true;
	uv_timer_stop(&tk->timer);
}

static void takeover_closed(uv_handle_t *handle)
{
	free(handle->data);
}

void takeover_free(struct takeover *tk)
{
	if (!tk)
		return;
	tk->freeing = true;
	uv_close((uv_handle_t *)&tk->timer, takeover_closed);
}

void takeover_stats(const struct takeover *tk, struct takeover_stats *out)
{
	*out = tk->stats;
}
