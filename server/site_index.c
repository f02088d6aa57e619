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
#include "instance.h"
#include "log.h"

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
	bool asking;	     /* a refresh is in flight */
	bool stopped;	     /* site_index_stop() */
	bool freeing;	     /* its answer, if any, frees it */
	struct si_view view; /* lists NULL: none yet */
	uint64_t refreshes, failures;
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

static void si_on_reply(void *data, const redisReply *reply)
{
	struct site_index *si = data;
	struct si_view view = { 0 };

	si->asking = false;
	if (si->freeing) {
		free(si);
		return;
	}
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
	if (!si->asking)
		free(si);
	/* else the answer (NULL: the link is gone) frees it */
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

void site_index_stats(const struct site_index *si, struct site_index_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->ready = si->view.lists[SITE_ROOMS] != NULL;
	if (out->ready)
		out->age_ms = clock_monotonic_ms() - si->view.at_ms;
	out->refreshes = si->refreshes;
	out->failures = si->failures;
	out->instances = si->view.snapshots;
}
