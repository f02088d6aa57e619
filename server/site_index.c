/*
 * site_index.c - the site's rooms, pools and finished games, refreshed
 * from Redis for /api/rooms, /api/pools and /api/games (see
 * site_index.h).
 */
#include "site_index.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "identity.h"
#include "instance.h"
#include "log.h"
#include "strmap.h"

/*
 * ARGV: this instance's id, its snapshot, the snapshot's time to live
 * (ms), how many finished games. Answers {snapshots, finished games}:
 * every live instance's snapshot (a gone one's id is dropped from the
 * set), and the newest finished games' entries, newest first (an
 * expired one's id is dropped from the index).
 */
static const char si_script[] =
	"redis.call('SET', '" SITE_LIVE_PREFIX "' .. ARGV[1], ARGV[2], "
	"           'PX', ARGV[3]) "
	"redis.call('SADD', '" SITE_LIVES_KEY "', ARGV[1]) "
	"local snapshots = {} "
	"for _, id in ipairs(redis.call('SMEMBERS', '" SITE_LIVES_KEY "')) do "
	" local snapshot = redis.call('GET', '" SITE_LIVE_PREFIX "' .. id) "
	" if snapshot then snapshots[#snapshots + 1] = snapshot "
	" else redis.call('SREM', '" SITE_LIVES_KEY "', id) end "
	"end "
	"local games = {} "
	"for _, id in ipairs(redis.call('ZREVRANGE', '" SITE_ENDED_KEY "', 0, "
	"                               tonumber(ARGV[4]) - 1)) do "
	" local game = redis.call('GET', '" SITE_ENDED_PREFIX "' .. id) "
	" if game then games[#games + 1] = game "
	" else redis.call('ZREM', '" SITE_ENDED_KEY "', id) end "
	"end "
	"return {snapshots, games}";

/* The merged view: three cJSON arrays of entries. */
struct si_view {
	cJSON *lists[3];    /* enum site_list -> array */
	uint64_t at_ms;	    /* monotonic clock when it came */
	uint64_t snapshots; /* instances in it */
};

/* One per process with --redis; owned by main.c. */
struct site_index {
	struct redis_link *link; /* not owned */
	char id[INSTANCE_ID_MAX + 1];
	site_snapshot_fn snapshot;
	void *ctx;
	uv_timer_t timer;
	bool asking;	       /* a refresh is in flight */
	bool reading;	       /* records are being read */
	bool stopped;	       /* site_index_stop() */
	bool freeing;	       /* the last answer in flight frees it */
	struct si_view view;   /* lists NULL: none yet */
	struct strmap records; /* game id -> struct si_record, of the
				* view's finished games */
	uint64_t refreshes, failures;
};

/* A finished game's record (/api/games/ID), as Redis had it. */
struct si_record {
	size_t len;
	char text[]; /* len bytes */
};

/* Records being read: their ids, in the order of the MGET's keys. */
struct si_reading {
	struct site_index *si;
	size_t count;
	char ids[][UID_LEN + 1];
};

static const char *const si_names[] = {
	[SITE_ROOMS] = "rooms",
	[SITE_POOLS] = "pools",
	[SITE_GAMES] = "games",
};

static void si_view_free(struct si_view *view)
{
	for (size_t i = 0; i < sizeof(view->lists) / sizeof(*view->lists); i++)
		cJSON_Delete(view->lists[i]);
	memset(view, 0, sizeof(*view));
}

/* The string member key of item, or "" when it has none. */
static const char *si_text(const cJSON *item, const char *key)
{
	const char *text = cJSON_GetStringValue(
		cJSON_GetObjectItemCaseSensitive(item, key));

	return text ? text : "";
}

/* The number member key of item, or 0 when it has none. */
static double si_number(const cJSON *item, const char *key)
{
	const cJSON *number = cJSON_GetObjectItemCaseSensitive(item, key);

	return cJSON_IsNumber(number) ? number->valuedouble : 0;
}

/* Newest first: by "started" (ISO 8601, UTC: text order is time order). */
static int si_newest_first(const void *a, const void *b)
{
	const cJSON *x = *(const cJSON *const *)a;
	const cJSON *y = *(const cJSON *const *)b;

	return strcmp(si_text(y, "started"), si_text(x, "started"));
}

/* Whether rooms (n of them) has a room of id. */
static bool si_has_room(cJSON **rooms, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(si_text(rooms[i], "id"), id))
			return true;
	return false;
}

/*
 * Moves the rooms of snapshot into rooms (*n of cap so far), once each:
 * a room taken over can be in two snapshots for a moment.
 */
static bool si_take_rooms(cJSON *snapshot, cJSON ***rooms, size_t *n,
			  size_t *cap)
{
	cJSON *list = cJSON_GetObjectItemCaseSensitive(snapshot, "rooms");
	cJSON *room;

	while (cJSON_IsArray(list) &&
	       (room = cJSON_DetachItemFromArray(list, 0))) {
		if (!cJSON_IsObject(room) || !si_text(room, "id")[0] ||
		    si_has_room(*rooms, *n, si_text(room, "id"))) {
			cJSON_Delete(room);
			continue;
		}
		if (*n == *cap) {
			size_t more = *cap ? 2 * *cap : 256;
			cJSON **grown = realloc(*rooms, more * sizeof(**rooms));

			if (!grown) {
				cJSON_Delete(room);
				return false;
			}
			*rooms = grown;
			*cap = more;
		}
		(*rooms)[(*n)++] = room;
	}
	return true;
}

/* The pool of pools with pool's size, rule and time control; or NULL. */
static cJSON *si_find_pool(cJSON *pools, const cJSON *pool)
{
	cJSON *each;

	cJSON_ArrayForEach(each, pools) {
		if (si_number(each, "size") == si_number(pool, "size") &&
		    !strcmp(si_text(each, "rule"), si_text(pool, "rule")) &&
		    !strcmp(si_text(each, "tc"), si_text(pool, "tc")))
			return each;
	}
	return NULL;
}

/* Adds add to the number member key of item. */
static void si_add(cJSON *item, const char *key, double add)
{
	cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(item, key),
			     si_number(item, key) + add);
}

/* Sums the pools of snapshot into pools, in the order first seen. */
static bool si_take_pools(cJSON *snapshot, cJSON *pools)
{
	cJSON *list = cJSON_GetObjectItemCaseSensitive(snapshot, "pools");
	cJSON *pool, *known;

	while (cJSON_IsArray(list) &&
	       (pool = cJSON_DetachItemFromArray(list, 0))) {
		if (!cJSON_IsObject(pool) ||
		    !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(
			    pool, "waiting")) ||
		    !cJSON_IsNumber(
			    cJSON_GetObjectItemCaseSensitive(pool, "games"))) {
			cJSON_Delete(pool);
			continue;
		}
		known = si_find_pool(pools, pool);
		if (known) {
			si_add(known, "waiting", si_number(pool, "waiting"));
			si_add(known, "games", si_number(pool, "games"));
			cJSON_Delete(pool);
		} else if (!cJSON_AddItemToArray(pools, pool)) {
			cJSON_Delete(pool);
			return false;
		}
	}
	return true;
}

/* The default pool (the first) always; the others while someone uses them. */
static void si_drop_idle_pools(cJSON *pools)
{
	cJSON *pool = pools->child ? pools->child->next : NULL;

	while (pool) {
		cJSON *next = pool->next;

		if (!si_number(pool, "waiting") && !si_number(pool, "games"))
			cJSON_Delete(cJSON_DetachItemViaPointer(pools, pool));
		pool = next;
	}
}

/* The view of reply's snapshots and games; false on a bad answer or OOM. */
static bool si_merge(const redisReply *snapshots, const redisReply *games,
		     struct si_view *view)
{
	cJSON **rooms = NULL;
	size_t n = 0, cap = 0;
	bool ok = true;

	for (size_t i = 0; i < 3; i++)
		ok = ok && (view->lists[i] = cJSON_CreateArray());
	for (size_t i = 0; ok && i < snapshots->elements; i++) {
		const redisReply *text = snapshots->element[i];
		cJSON *snapshot;

		if (text->type != REDIS_REPLY_STRING)
			continue;
		snapshot = cJSON_ParseWithLength(text->str, text->len);
		if (!snapshot) {
			ok = false; /* out of memory: ours are JSON */
			break;
		}
		ok = si_take_rooms(snapshot, &rooms, &n, &cap) &&
		     si_take_pools(snapshot, view->lists[SITE_POOLS]);
		cJSON_Delete(snapshot);
		view->snapshots++;
	}
	if (n)
		qsort(rooms, n, sizeof(*rooms), si_newest_first);
	for (size_t i = 0; i < n; i++) {
		if (ok && i < SITE_INDEX_MOST &&
		    cJSON_AddItemToArray(view->lists[SITE_ROOMS], rooms[i]))
			continue;
		cJSON_Delete(rooms[i]);
	}
	free(rooms);
	if (ok)
		si_drop_idle_pools(view->lists[SITE_POOLS]);
	for (size_t i = 0; ok && i < games->elements; i++) {
		const redisReply *text = games->element[i];
		cJSON *game;

		if (text->type != REDIS_REPLY_STRING)
			continue;
		game = cJSON_ParseWithLength(text->str, text->len);
		ok = game != NULL; /* out of memory: ours are JSON */
		if (!cJSON_IsObject(game) ||
		    !cJSON_AddItemToArray(view->lists[SITE_GAMES], game)) {
			ok = ok && !cJSON_IsObject(game);
			cJSON_Delete(game);
		}
	}
	return ok;
}

static void si_free_record(void *ctx, const char *key, void *value)
{
	(void)ctx;
	(void)key;
	free(value);
}

/* The last answer in flight after site_index_free(): frees si. */
static bool si_freed(struct site_index *si)
{
	if (!si->freeing)
		return false;
	if (!si->asking && !si->reading) {
		strmap_each(&si->records, si_free_record, NULL);
		strmap_release(&si->records);
		free(si);
	}
	return true;
}

/* Whether game id is in the view's finished games. */
static bool si_listed(const struct site_index *si, const char *id)
{
	const cJSON *game;

	cJSON_ArrayForEach(game, si->view.lists[SITE_GAMES]) {
		if (!strcmp(si_text(game, "id"), id))
			return true;
	}
	return false;
}

/* What si_forget() collects: the records no longer listed. */
struct si_unlisted {
	const struct site_index *si;
	char (*ids)[UID_LEN + 1];
	size_t count;
};

static void si_unlisted(void *ctx, const char *key, void *value)
{
	struct si_unlisted *gone = ctx;

	(void)value;
	if (!si_listed(gone->si, key))
		snprintf(gone->ids[gone->count++], UID_LEN + 1, "%s", key);
}

/* Drops the records of games the view no longer lists. */
static void si_forget(struct site_index *si)
{
	struct si_unlisted gone = { si, NULL, 0 };

	if (!si->records.count)
		return;
	gone.ids = malloc(si->records.count * sizeof(*gone.ids));
	if (!gone.ids)
		return; /* kept until the next refresh */
	strmap_each(&si->records, si_unlisted, &gone);
	for (size_t i = 0; i < gone.count; i++)
		free(strmap_del(&si->records, gone.ids[i]));
	free(gone.ids);
}

static void si_on_records(void *data, const redisReply *reply)
{
	struct si_reading *reading = data;
	struct site_index *si = reading->si;

	si->reading = false;
	if (si_freed(si)) {
		free(reading);
		return;
	}
	for (size_t i = 0; reply && reply->type == REDIS_REPLY_ARRAY &&
			   i < reply->elements && i < reading->count;
	     i++) {
		const redisReply *text = reply->element[i];
		struct si_record *record;

		if (text->type != REDIS_REPLY_STRING ||
		    strmap_get(&si->records, reading->ids[i]))
			continue; /* expired, or read meanwhile */
		record = malloc(sizeof(*record) + text->len);
		if (!record ||
		    strmap_put(&si->records, reading->ids[i], record)) {
			free(record);
			break;
		}
		record->len = text->len;
		memcpy(record->text, text->str, text->len);
	}
	free(reading);
}

/*
 * The records of the view's finished games not read yet: one MGET of
 * gomoku:record:ID for each.
 */
static void si_read_records(struct site_index *si)
{
	const cJSON *game;
	struct si_reading *reading;
	const char **argv;
	size_t *argvlen;
	size_t most = (size_t)cJSON_GetArraySize(si->view.lists[SITE_GAMES]);
	char(*keys)[sizeof(SITE_RECORD_PREFIX) + UID_LEN];
	int argc = 1;

	si_forget(si);
	if (si->reading || !most)
		return;
	reading = malloc(sizeof(*reading) + most * sizeof(*reading->ids));
	argv = calloc(most + 1, sizeof(*argv));
	argvlen = calloc(most + 1, sizeof(*argvlen));
	keys = calloc(most, sizeof(*keys));
	if (!reading || !argv || !argvlen || !keys)
		goto out;
	reading->si = si;
	reading->count = 0;
	argv[0] = "MGET";
	argvlen[0] = 4;
	cJSON_ArrayForEach(game, si->view.lists[SITE_GAMES]) {
		const char *id = si_text(game, "id");

		if (strlen(id) != UID_LEN || strmap_get(&si->records, id))
			continue;
		snprintf(reading->ids[reading->count], UID_LEN + 1, "%s", id);
		snprintf(keys[reading->count], sizeof(*keys), "%s%s",
			 SITE_RECORD_PREFIX, id);
		argv[argc] = keys[reading->count];
		argvlen[argc++] = strlen(keys[reading->count]);
		reading->count++;
	}
	if (reading->count &&
	    !redis_link_command_argv(si->link, si_on_records, reading, argc,
				     argv, argvlen)) {
		si->reading = true;
		reading = NULL; /* the answer frees it */
	}
out:
	free(reading);
	free(argv);
	free(argvlen);
	free(keys);
}

static void si_on_reply(void *data, const redisReply *reply)
{
	struct site_index *si = data;
	struct si_view view = { 0 };

	si->asking = false;
	if (si_freed(si))
		return;
	if (!reply || reply->type != REDIS_REPLY_ARRAY ||
	    reply->elements != 2 ||
	    reply->element[0]->type != REDIS_REPLY_ARRAY ||
	    reply->element[1]->type != REDIS_REPLY_ARRAY) {
		if (reply && reply->type == REDIS_REPLY_ERROR)
			log_warn("the site's index: %s", reply->str);
		si->failures++;
		return;
	}
	if (!si_merge(reply->element[0], reply->element[1], &view)) {
		log_error("out of memory merging the site's index");
		si_view_free(&view);
		si->failures++;
		return;
	}
	view.at_ms = clock_monotonic_ms();
	si_view_free(&si->view);
	si->view = view;
	si->refreshes++;
	si_read_records(si);
}

static void si_on_tick(uv_timer_t *timer)
{
	struct site_index *si = timer->data;
	char ttl[16], most[16];
	char *snapshot;
	const char *argv[7];
	size_t argvlen[7];
	int err;

	if (si->asking || si->stopped)
		return;
	snapshot = si->snapshot(si->ctx);
	if (!snapshot) {
		log_error("out of memory writing this instance's snapshot");
		si->failures++;
		return;
	}
	snprintf(ttl, sizeof(ttl), "%d", SITE_INDEX_TTL_MS);
	snprintf(most, sizeof(most), "%d", SITE_INDEX_MOST);
	argv[0] = "EVAL";
	argv[1] = si_script;
	argv[2] = "0";
	argv[3] = si->id;
	argv[4] = snapshot;
	argv[5] = ttl;
	argv[6] = most;
	for (size_t i = 0; i < 7; i++)
		argvlen[i] = strlen(argv[i]);
	err = redis_link_command_argv(si->link, si_on_reply, si, 7, argv,
				      argvlen);
	free(snapshot);
	if (err)
		si->failures++; /* Redis is away: the last view stays */
	else
		si->asking = true;
}

struct site_index *site_index_new(uv_loop_t *loop, struct redis_link *link,
				  const char *id, site_snapshot_fn snapshot,
				  void *ctx)
{
	struct site_index *si = calloc(1, sizeof(*si));

	if (!si)
		return NULL;
	si->link = link;
	snprintf(si->id, sizeof(si->id), "%s", id);
	si->snapshot = snapshot;
	si->ctx = ctx;
	strmap_init(&si->records);
	uv_timer_init(loop, &si->timer);
	si->timer.data = si;
	uv_timer_start(&si->timer, si_on_tick, 0, SITE_INDEX_EVERY_MS);
	return si;
}

void site_index_stop(struct site_index *si)
{
	si->stopped = true;
	uv_timer_stop(&si->timer);
	/* Its rooms are handed over: no longer listed as here. */
	redis_link_command(si->link, NULL, NULL, "DEL %s%s", SITE_LIVE_PREFIX,
			   si->id);
}

static void si_closed(uv_handle_t *handle)
{
	struct site_index *si = handle->data;

	si_view_free(&si->view);
	si_freed(si); /* else the last answer (NULL: the link is gone) */
}

void site_index_free(struct site_index *si)
{
	if (!si)
		return;
	si->freeing = true;
	uv_close((uv_handle_t *)&si->timer, si_closed);
}

int site_index_json(const struct site_index *si, enum site_list list, int limit,
		    char **body, size_t *len)
{
	const cJSON *entries = si->view.lists[list];
	cJSON *root, *array;
	const cJSON *entry;
	char *text;
	bool ok;

	if (!entries)
		return -ENOENT;
	root = cJSON_CreateObject();
	array = root ? cJSON_AddArrayToObject(root, si_names[list]) : NULL;
	ok = array != NULL;
	cJSON_ArrayForEach(entry, entries) {
		if (!ok || (list != SITE_POOLS && limit-- <= 0))
			break;
		ok = cJSON_AddItemReferenceToArray(array, (cJSON *)entry);
	}
	text = ok ? cJSON_PrintUnformatted(root) : NULL;
	cJSON_Delete(root);
	if (!text)
		return -ENOMEM;
	*len = strlen(text);
	*body = malloc(*len + 2);
	if (*body) {
		memcpy(*body, text, *len);
		(*body)[(*len)++] = '\n';
		(*body)[*len] = '\0';
	}
	cJSON_free(text);
	return *body ? 0 : -ENOMEM;
}

char *site_index_record(const struct site_index *si, const char *id,
			size_t *len)
{
	const struct si_record *record = strmap_get(&si->records, id);
	char *copy;

	if (!record)
		return NULL;
	copy = malloc(record->len ? record->len : 1);
	if (copy) {
		memcpy(copy, record->text, record->len);
		*len = record->len;
	}
	return copy;
}

void site_index_stats(const struct site_index *si, struct site_index_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->ready = si->view.lists[SITE_ROOMS] != NULL;
	if (out->ready)
		out->age_ms = clock_monotonic_ms() - si->view.at_ms;
	out->refreshes = si->refreshes;
	out->failures = si->failures;
	out->instances = si->view.snapshots;
	out->records = si->records.count;
}
