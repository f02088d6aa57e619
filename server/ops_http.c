/*
 * ops_http.c - /healthz (JSON status), /metrics (Prometheus text),
 * /api/pools (who waits and plays what), /api/rooms (the live games),
 * /api/games (the finished ones) and /api/games/ID (a game's record).
 */
#include "ops_http.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "protocol.h"
#include "cluster.h"
#include "redis_journal.h"
#include "takeover.h"
#include "instance.h"
#include "redis_link.h"
#include "server.h"
#include "site_index.h"

/* Large enough for every metric with all error codes. */
#define OPS_BODY_MAX 16384

/* /api/rooms and /api/games: how many by default, and at most. */
#define OPS_ROOMS_DEFAULT 50
#define OPS_ROOMS_MOST 200
#define OPS_GAMES_DEFAULT 50
#define OPS_GAMES_MOST 200
_Static_assert(OPS_ROOMS_MOST <= SITE_INDEX_MOST &&
		       OPS_GAMES_MOST <= SITE_INDEX_MOST,
	       "the site's index keeps as many as a list shows");

/* A growing text document. */
struct ops_doc {
	char *buf;  /* OPS_BODY_MAX bytes */
	size_t len; /* document bytes written */
};

static void ops_doc_printf(struct ops_doc *doc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void ops_doc_printf(struct ops_doc *doc, const char *fmt, ...)
{
	size_t room = OPS_BODY_MAX - doc->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(doc->buf + doc->len, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		doc->len += (size_t)n < room ? (size_t)n : room - 1;
}

/* Whether --redis was given and its Redis is away (503). */
static bool ops_redis_down(const struct server *srv)
{
	struct redis_link_stats stats;

	if (!srv->redis)
		return false;
	redis_link_stats(srv->redis, &stats);
	return !stats.up;
}

/*
 * Whether --redis was given, Redis answers, and the instance's lease is
 * not held (another process holds its id, or it lapsed): 503.
 */
static bool ops_lease_waiting(const struct server *srv)
{
	struct instance_stats stats;

	if (!srv->instance || ops_redis_down(srv))
		return false;
	instance_stats(srv->instance, &stats);
	return !stats.held;
}

/* Players of this instance waiting in the site's queues (--redis). */
static unsigned long ops_cluster_waiting(const struct server *srv)
{
	struct cluster_stats stats;

	if (!srv->cluster)
		return 0;
	cluster_stats(srv->cluster, &stats);
	return stats.waiting;
}

static void ops_render_healthz(const struct server *srv, struct ops_doc *doc)
{
	ops_doc_printf(
		doc,
		"{\"status\":\"%s\",\"uptime\":%llu,\"connections\":%lu,"
		"\"players_waiting\":%lu,\"players_away\":%lu,"
		"\"rooms\":%lu,\"listen\":\"%s\",\"version\":\"%s\","
		"\"instance\":\"%s\"%s%s}\n",
		srv->shutting_down	  ? "stopping" :
		store_failing(srv->store) ? "unavailable" :
		ops_redis_down(srv)	  ? "redis_unreachable" :
		ops_lease_waiting(srv)	  ? "lease_waiting" :
					    "ok",
		(unsigned long long)((clock_monotonic_ms() - srv->started_ms) /
				     1000),
		srv->metrics.connections,
		srv->hub.lobby.stats.waiting + ops_cluster_waiting(srv),
		srv->hub.lobby.away.count, srv->hub.lobby.stats.rooms,
		srv->listen.bound, GOMOKU_VERSION, srv->instance_id,
		!srv->redis	    ? "" :
		ops_redis_down(srv) ? ",\"redis\":\"down\"" :
				      ",\"redis\":\"up\"",
		!srv->instance ? "" :
		ops_lease_waiting(srv) || ops_redis_down(srv) ?
				 ",\"lease\":\"waiting\"" :
				 ",\"lease\":\"held\"");
}

static void ops_metric(struct ops_doc *doc, const char *name, const char *type,
		       const char *help, unsigned long long value)
{
	ops_doc_printf(doc, "# HELP %s %s\n# TYPE %s %s\n%s %llu\n", name, help,
		       name, type, name, value);
}

/* The site's Redis (--redis): up, its round trip, connections. */
static void ops_render_redis_metrics(const struct server *srv,
				     struct ops_doc *doc)
{
	struct redis_link_stats stats;

	if (!srv->redis)
		return;
	redis_link_stats(srv->redis, &stats);
	ops_metric(doc, "gomoku_redis_up", "gauge",
		   "1 while the site's Redis answers.", stats.up);
	ops_doc_printf(doc,
		       "# HELP gomoku_redis_rtt_seconds The last PING's "
		       "round trip to Redis.\n"
		       "# TYPE gomoku_redis_rtt_seconds gauge\n"
		       "gomoku_redis_rtt_seconds %.6f\n",
		       (double)stats.rtt_us / 1e6);
	ops_metric(doc, "gomoku_redis_connects_total", "counter",
		   "Connections made to Redis.", stats.connects);
	ops_metric(doc, "gomoku_redis_drops_total", "counter",
		   "Connections to Redis lost.", stats.drops);
}

/* This instance of the site (--redis): its id and its lease. */
static void ops_render_instance_metrics(const struct server *srv,
					struct ops_doc *doc)
{
	struct instance_stats stats;

	if (!srv->instance)
		return;
	instance_stats(srv->instance, &stats);
	ops_doc_printf(doc,
		       "# HELP gomoku_instance_info This instance's id.\n"
		       "# TYPE gomoku_instance_info gauge\n"
		       "gomoku_instance_info{instance=\"%s\"} 1\n",
		       srv->instance_id);
	ops_metric(doc, "gomoku_instance_lease_held", "gauge",
		   "1 while this instance holds its lease in Redis.",
		   stats.held);
	ops_metric(doc, "gomoku_instance_lease_renewals_total", "counter",
		   "Times Redis took or kept the lease.", stats.renewals);
	ops_metric(doc, "gomoku_instance_lease_losses_total", "counter",
		   "Times the lease lapsed while held.", stats.losses);
	ops_metric(doc, "gomoku_instance_lease_refusals_total", "counter",
		   "Tries refused: another process held the id.",
		   stats.refusals);
}

/* The site's routing (--redis): players here and elsewhere, messages. */
static void ops_render_cluster_metrics(const struct server *srv,
				       struct ops_doc *doc)
{
	struct cluster_stats stats;

	if (!srv->cluster)
		return;
	cluster_stats(srv->cluster, &stats);
	ops_metric(doc, "gomoku_cluster_waiting_players", "gauge",
		   "Players of this instance in the site's queues.",
		   stats.waiting);
	ops_metric(doc, "gomoku_cluster_relayed_sessions", "gauge",
		   "Sessions here whose room is on another instance.",
		   stats.relayed);
	ops_metric(doc, "gomoku_cluster_remote_players", "gauge",
		   "Players on other instances seated in rooms here.",
		   stats.remote);
	ops_metric(doc, "gomoku_cluster_messages_forwarded_total", "counter",
		   "Messages sent to other instances through Redis.",
		   stats.forwarded);
	ops_metric(doc, "gomoku_cluster_messages_received_total", "counter",
		   "Messages from other instances through Redis.",
		   stats.received);
	ops_metric(doc, "gomoku_cluster_pairs_across_total", "counter",
		   "Players of this instance paired with one of another.",
		   stats.paired_remote);
	ops_metric(doc, "gomoku_cluster_routed_here_total", "counter",
		   "Players seated here without asking Redis (it was away).",
		   stats.routed_fallback);
}

/* The live games in Redis (--redis), and the rooms taken over here. */
static void ops_render_takeover_metrics(const struct server *srv,
					struct ops_doc *doc)
{
	struct redis_journal_stats journal;
	struct takeover_stats takeover;

	if (!srv->redis_journal || !srv->takeover)
		return;
	redis_journal_stats(srv->redis_journal, &journal);
	takeover_stats(srv->takeover, &takeover);
	ops_metric(doc, "gomoku_cluster_rooms_owned", "gauge",
		   "Rooms this instance owns in the site's Redis.",
		   journal.rooms);
	ops_metric(doc, "gomoku_cluster_journal_queued", "gauge",
		   "Writes of live games waiting for Redis's answer.",
		   journal.queued);
	ops_metric(doc, "gomoku_cluster_journal_writes_total", "counter",
		   "Writes of live games Redis answered.", journal.writes);
	ops_metric(doc, "gomoku_cluster_journal_resent_total", "counter",
		   "Writes sent again after Redis came back.", journal.resent);
	ops_metric(doc, "gomoku_cluster_journal_fenced_total", "counter",
		   "Writes refused: another instance took the room over.",
		   journal.fenced);
	ops_metric(doc, "gomoku_cluster_takeovers_total", "counter",
		   "Rooms of gone instances taken over and seated here.",
		   takeover.rooms);
	ops_metric(doc, "gomoku_cluster_takeover_failures_total", "counter",
		   "Rooms taken over that could not be seated here.",
		   takeover.failed);
}

/* The site's lists (--redis): how fresh this instance's view is. */
static void ops_render_index_metrics(const struct server *srv,
				     struct ops_doc *doc)
{
	struct site_index_stats stats;

	if (!srv->site_index)
		return;
	site_index_stats(srv->site_index, &stats);
	ops_metric(doc, "gomoku_cluster_index_instances", "gauge",
		   "Instances in the last view of the site's lists.",
		   stats.instances);
	ops_metric(doc, "gomoku_cluster_index_refreshes_total", "counter",
		   "Views of the site's lists read from Redis.",
		   stats.refreshes);
	ops_metric(doc, "gomoku_cluster_index_records", "gauge",
		   "Records of the site's listed finished games kept here.",
		   stats.records);
	ops_metric(doc, "gomoku_cluster_index_failures_total", "counter",
		   "Refreshes of the site's lists that failed.",
		   stats.failures);
	ops_doc_printf(doc,
		       "# HELP gomoku_cluster_index_age_seconds Age of the "
		       "view of the site's lists (-1: none yet).\n"
		       "# TYPE gomoku_cluster_index_age_seconds gauge\n"
		       "gomoku_cluster_index_age_seconds %.3f\n",
		       stats.ready ? (double)stats.age_ms / 1000 : -1.0);
}

/* The computer opponent: games, moves and how long its searches take. */
static void ops_render_ai_metrics(const struct server *srv, struct ops_doc *doc)
{
	static const char *const bounds[AI_BUCKETS] = {
		"0.005", "0.01", "0.025", "0.05", "0.1",
		"0.2",	 "0.5",	 "1",	  "2.5",
	};
	const struct metrics *m = &srv->metrics;

	ops_metric(doc, "gomoku_ai_games", "gauge",
		   "Rooms where a player plays the engine.",
		   srv->hub.lobby.stats.ai_rooms);
	ops_metric(doc, "gomoku_ai_matches_total", "counter",
		   "Rooms made with the engine as the opponent.",
		   srv->hub.lobby.stats.ai_matches);
	ops_metric(doc, "gomoku_ai_failures_total", "counter",
		   "Engine games lost because the engine could not move.",
		   m->ai_failures);
	ops_doc_printf(doc,
		       "# HELP gomoku_ai_move_seconds Time the engine took "
		       "for a move.\n"
		       "# TYPE gomoku_ai_move_seconds histogram\n");
	for (int i = 0; i < AI_BUCKETS; i++)
		ops_doc_printf(
			doc, "gomoku_ai_move_seconds_bucket{le=\"%s\"} %llu\n",
			bounds[i], m->ai_move_buckets[i]);
	ops_doc_printf(doc,
		       "gomoku_ai_move_seconds_bucket{le=\"+Inf\"} %llu\n"
		       "gomoku_ai_move_seconds_sum %.6f\n"
		       "gomoku_ai_move_seconds_count %llu\n",
		       m->ai_moves, (double)m->ai_move_us_sum / 1e6,
		       m->ai_moves);
}

static void ops_render_metrics(const struct server *srv, struct ops_doc *doc)
{
	const struct lobby_stats *stats = &srv->hub.lobby.stats;

	ops_metric(doc, "gomoku_uptime_seconds", "gauge",
		   "Seconds since the server started.",
		   (clock_monotonic_ms() - srv->started_ms) / 1000);
	ops_metric(doc, "gomoku_connections", "gauge",
		   "Open WebSocket connections.", srv->metrics.connections);
	ops_metric(doc, "gomoku_players_waiting", "gauge",
		   "Players waiting for an opponent.", stats->waiting);
	ops_metric(doc, "gomoku_tcp_connections", "gauge",
		   "Open TCP connections (HTTP and WebSocket).",
		   srv->metrics.tcp_connections);
	ops_doc_printf(
		doc,
		"# HELP gomoku_connections_refused_total Connections refused at accept, by limit.\n"
		"# TYPE gomoku_connections_refused_total counter\n"
		"gomoku_connections_refused_total{limit=\"max_connections\"} %llu\n"
		"gomoku_connections_refused_total{limit=\"max_per_ip\"} %llu\n",
		srv->metrics.refused_max_total,
		srv->metrics.refused_max_per_ip);
	ops_metric(doc, "gomoku_players_away", "gauge",
		   "Seats kept for players whose connection dropped.",
		   srv->hub.lobby.away.count);
	ops_metric(doc, "gomoku_rooms_active", "gauge",
		   "Rooms with a game in progress.", stats->rooms_live);
	ops_metric(doc, "gomoku_matches_total", "counter",
		   "Rooms made by pairing two players.", stats->matches);
	ops_doc_printf(
		doc,
		"# HELP gomoku_games_finished_total Games ended, by reason.\n"
		"# TYPE gomoku_games_finished_total counter\n");
	for (int reason = REASON_NONE + 1; reason < REASON_COUNT; reason++)
		ops_doc_printf(
			doc, "gomoku_games_finished_total{reason=\"%s\"} %lu\n",
			game_reason_name(reason),
			stats->games_finished[reason]);
	ops_doc_printf(doc,
		       "# HELP gomoku_offers_total Offers answered (a lapsed "
		       "one is declined), by kind and answer.\n"
		       "# TYPE gomoku_offers_total counter\n");
	for (int what = 0; what < OFFER_COUNT; what++)
		for (int accepted = 1; accepted >= 0; accepted--)
			ops_doc_printf(doc,
				       "gomoku_offers_total{what=\"%s\","
				       "answer=\"%s\"} %lu\n",
				       offer_what_name(what),
				       accepted ? "accepted" : "declined",
				       stats->offers[what][accepted]);
	ops_metric(doc, "gomoku_emotes_total", "counter", "Emotes relayed.",
		   stats->emotes);
	ops_metric(doc, "gomoku_spectators", "gauge",
		   "Connections watching a room.", stats->spectators);
	ops_metric(doc, "gomoku_spectator_turns_deferred_total", "counter",
		   "Loop turns that left spectators' messages to the next "
		   "turns (a crowd written after the players, a slice a "
		   "turn).",
		   srv->metrics.spect_deferred);
	ops_metric(doc, "gomoku_moves_total", "counter", "Moves accepted.",
		   stats->moves);
	ops_doc_printf(
		doc,
		"# HELP gomoku_errors_total Requests refused, by error code.\n"
		"# TYPE gomoku_errors_total counter\n");
	for (int code = ERR_NONE + 1; code < ERR_COUNT; code++)
		ops_doc_printf(doc, "gomoku_errors_total{code=\"%s\"} %llu\n",
			       error_code_name(code),
			       srv->metrics.errors[code]);
	ops_metric(doc, "gomoku_messages_in_total", "counter",
		   "WebSocket messages received.", srv->metrics.messages_in);
	ops_metric(doc, "gomoku_messages_out_total", "counter",
		   "WebSocket messages sent.", srv->metrics.messages_out);
	ops_metric(doc, "gomoku_bytes_in_total", "counter",
		   "WebSocket payload bytes received.", srv->metrics.bytes_in);
	ops_metric(doc, "gomoku_bytes_out_total", "counter",
		   "WebSocket payload bytes sent.", srv->metrics.bytes_out);
	ops_metric(doc, "gomoku_store_commits_total", "counter",
		   "Database batches committed.", srv->metrics.store_commits);
	ops_metric(doc, "gomoku_store_errors_total", "counter",
		   "Database writes that failed.", srv->metrics.store_errors);
	ops_metric(doc, "gomoku_store_available", "gauge",
		   "1 while the database saves what games do; 0 while games "
		   "wait for it.",
		   !store_failing(srv->store));
	ops_metric(doc, "gomoku_keepalive_pings_total", "counter",
		   "Pings written to WebSockets silent for --ping-interval.",
		   srv->metrics.pings);
	ops_metric(doc, "gomoku_keepalive_turns_deferred_total", "counter",
		   "Loop turns that left keep-alive pings to the next turns "
		   "(written after the spectators, a slice a turn).",
		   srv->metrics.pings_deferred);
	ops_metric(doc, "gomoku_idle_drops_total", "counter",
		   "WebSockets dropped for not answering pings.",
		   srv->metrics.idle_drops);
	ops_metric(doc, "gomoku_slow_reader_drops_total", "counter",
		   "WebSockets dropped for not reading what they were sent.",
		   srv->metrics.slow_drops);
	ops_metric(doc, "gomoku_takebacks_total", "counter",
		   "Takebacks carried out.", stats->takebacks);
	ops_render_ai_metrics(srv, doc);
	ops_render_redis_metrics(srv, doc);
	ops_render_instance_metrics(srv, doc);
	ops_render_cluster_metrics(srv, doc);
	ops_render_takeover_metrics(srv, doc);
	ops_render_index_metrics(srv, doc);
}

/* Starts a document of OPS_BODY_MAX bytes in answer; -ENOMEM. */
static int ops_doc_start(struct ops_doc *doc, struct http_answer *answer)
{
	doc->buf = malloc(OPS_BODY_MAX);
	doc->len = 0;
	answer->body = doc->buf;
	return doc->buf ? 0 : -ENOMEM;
}

int ops_http_healthz(struct server *srv, const struct http_query *query,
		     struct http_answer *answer)
{
	struct ops_doc doc;

	(void)query;
	if (ops_doc_start(&doc, answer))
		return -ENOMEM;
	ops_render_healthz(srv, &doc);
	/* 503 while games wait for the journal (a full disk) */
	answer->status = store_failing(srv->store) || ops_redis_down(srv) ||
					 ops_lease_waiting(srv) ?
				 HTTP_STATUS_SERVICE_UNAVAILABLE :
				 HTTP_STATUS_OK;
	answer->mime = "application/json";
	answer->cache = "no-store";
	answer->len = doc.len;
	return 0;
}

int ops_http_metrics(struct server *srv, const struct http_query *query,
		     struct http_answer *answer)
{
	struct ops_doc doc;

	(void)query;
	if (ops_doc_start(&doc, answer))
		return -ENOMEM;
	ops_render_metrics(srv, &doc);
	answer->status = HTTP_STATUS_OK;
	answer->mime = "text/plain; version=0.0.4; charset=utf-8";
	answer->cache = "no-store";
	answer->len = doc.len;
	return 0;
}

/* The pools of /api/pools being listed. */
struct ops_pools {
	cJSON *pools; /* the array */
	bool failed;  /* out of memory */
};

/* The entry of pools with key, made (with no one) when it is not there. */
static cJSON *ops_pool_of(struct ops_pools *doc,
			  const struct lobby_pool_key *key)
{
	char tc[TIME_CONTROL_TEXT_MAX];
	cJSON *pool;

	time_control_format(key->tc, tc, sizeof(tc));
	cJSON_ArrayForEach(pool, doc->pools) {
		if (cJSON_GetObjectItem(pool, "size")->valueint == key->size &&
		    !strcmp(cJSON_GetObjectItem(pool, "rule")->valuestring,
			    rule_name(key->rule)) &&
		    !strcmp(cJSON_GetObjectItem(pool, "tc")->valuestring, tc))
			return pool;
	}
	pool = cJSON_CreateObject();
	if (!pool || !cJSON_AddItemToArray(doc->pools, pool)) {
		cJSON_Delete(pool);
		return NULL;
	}
	if (!cJSON_AddNumberToObject(pool, "size", key->size) ||
	    !cJSON_AddStringToObject(pool, "rule", rule_name(key->rule)) ||
	    !cJSON_AddStringToObject(pool, "tc", tc) ||
	    !cJSON_AddNumberToObject(pool, "waiting", 0) ||
	    !cJSON_AddNumberToObject(pool, "games", 0))
		return NULL;
	return pool;
}

/* Adds to the number key of pool. */
static void ops_pool_add(cJSON *pool, const char *key, double add)
{
	cJSON *number = cJSON_GetObjectItem(pool, key);

	cJSON_SetNumberValue(number, number->valuedouble + add);
}

/* A pool of the lobby: the default one always, the others while used. */
static void ops_pool_entry(void *ctx, const struct lobby_pool *pool)
{
	struct ops_pools *doc = ctx;
	cJSON *entry;

	if (doc->failed || (cJSON_GetArraySize(doc->pools) &&
			    !pool->queue.count && !pool->games))
		return;
	entry = ops_pool_of(doc, &pool->key);
	doc->failed = !entry;
	if (entry) {
		ops_pool_add(entry, "waiting", (double)pool->queue.count);
		ops_pool_add(entry, "games", (double)pool->games);
	}
}

/* A player of this instance waiting in the site's queue of pool. */
static void ops_pool_waiting(void *ctx, const struct lobby_pool_key *pool)
{
	struct ops_pools *doc = ctx;
	cJSON *entry;

	if (doc->failed)
		return;
	entry = ops_pool_of(doc, pool);
	doc->failed = !entry;
	if (entry)
		ops_pool_add(entry, "waiting", 1);
}

/*
 * This instance's pools (/api/pools' array): who waits (in the lobby, or
 * from here in the site's queues) and how many games each has. NULL on
 * out of memory.
 */
static cJSON *ops_pools_array(const struct server *srv)
{
	struct ops_pools doc = { .pools = cJSON_CreateArray() };

	if (!doc.pools)
		return NULL;
	lobby_each_pool(&srv->hub.lobby, ops_pool_entry, &doc);
	if (srv->cluster)
		cluster_each_waiting(srv->cluster, ops_pool_waiting, &doc);
	if (doc.failed) {
		cJSON_Delete(doc.pools);
		return NULL;
	}
	return doc.pools;
}

/*
 * Answers root printed (a newline after it), then frees it; NULL root:
 * out of memory.
 */
static int ops_answer_json(cJSON *root, struct http_answer *answer)
{
	char *text = root ? cJSON_PrintUnformatted(root) : NULL;

	cJSON_Delete(root);
	if (!text)
		return -ENOMEM;
	answer->len = strlen(text);
	answer->body = malloc(answer->len + 2);
	if (answer->body) {
		memcpy(answer->body, text, answer->len);
		answer->body[answer->len++] = '\n';
	}
	cJSON_free(text);
	if (!answer->body)
		return -ENOMEM;
	answer->status = HTTP_STATUS_OK;
	answer->mime = "application/json";
	return 0;
}

/*
 * With --redis, list of the whole site (site_index.h): 1 answered, 0
 * none yet (answer this instance's own), or -ENOMEM.
 */
static int ops_site_list(const struct server *srv, enum site_list list,
			 int limit, struct http_answer *answer)
{
	int err;

	if (!srv->site_index)
		return 0;
	err = site_index_json(srv->site_index, list, limit, &answer->body,
			      &answer->len);
	if (err == -ENOENT)
		return 0;
	if (err)
		return err;
	answer->status = HTTP_STATUS_OK;
	answer->mime = "application/json";
	return 1;
}

int ops_http_pools(struct server *srv, const struct http_query *query,
		   struct http_answer *answer)
{
	cJSON *root, *pools;
	int site;

	(void)query;
	answer->cache = "no-store";
	site = ops_site_list(srv, SITE_POOLS, 0, answer);
	if (site)
		return site < 0 ? site : 0;
	root = cJSON_CreateObject();
	pools = ops_pools_array(srv);
	if (!root || !pools || !cJSON_AddItemToObject(root, "pools", pools)) {
		cJSON_Delete(pools);
		cJSON_Delete(root);
		return -ENOMEM;
	}
	return ops_answer_json(root, answer);
}

/* The limit of a list: absent, the default; bad: -1 (400). */
static int ops_limit(const struct http_query *query, int fallback, int most)
{
	if (query->limit < 0)
		return fallback;
	if (query->limit == 0 || query->limit > most)
		return -1;
	return query->limit;
}

/* The /api/rooms document being written. */
struct ops_rooms {
	cJSON *rooms;	     /* the array */
	int left;	     /* rooms still to list */
	uint64_t now_ms;     /* the lobby's clock */
	int64_t now_unix_ms; /* the wall clock */
	bool failed;	     /* out of memory */
};

/* Adds a live public room to the list; false once the list is full. */
static bool ops_room_entry(void *ctx, const struct lobby_room *room)
{
	struct ops_rooms *doc = ctx;
	char tc[TIME_CONTROL_TEXT_MAX], started[CLOCK_ISO8601_MAX];
	cJSON *entry, *players = NULL;

	/* Live public rooms only: a private one is watched by its link. */
	if (game_is_over(&room->game) || room->private)
		return true;
	clock_iso8601(doc->now_unix_ms -
			      (int64_t)(doc->now_ms - room->opened_ms),
		      started, sizeof(started));
	time_control_format(room->game.clock.tc, tc, sizeof(tc));
	entry = cJSON_CreateObject();
	if (!entry || !cJSON_AddItemToArray(doc->rooms, entry)) {
		cJSON_Delete(entry);
		doc->failed = true;
		return false;
	}
	doc->failed = !cJSON_AddStringToObject(entry, "id", room->id) ||
		      !cJSON_AddNumberToObject(entry, "size",
					       room->game.board.size) ||
		      !cJSON_AddStringToObject(entry, "rule",
					       rule_name(room->game.rule)) ||
		      !cJSON_AddStringToObject(entry, "tc", tc) ||
		      !(players = cJSON_AddObjectToObject(entry, "players"));
	for (int role = ROLE_FRONT; !doc->failed && role <= ROLE_BACK; role++) {
		const struct lobby_player *player = room->seats[role];
		cJSON *seat = cJSON_AddObjectToObject(players, role_name(role));

		doc->failed = !seat;
		if (seat && player && player->ai)
			doc->failed = !cJSON_AddTrueToObject(seat, "ai");
		else if (seat && player && player->name[0])
			doc->failed = !cJSON_AddStringToObject(seat, "name",
							       player->name);
	}
	doc->failed =
		doc->failed ||
		!cJSON_AddNumberToObject(entry, "moves",
					 room->game.moves_played) ||
		!cJSON_AddNumberToObject(entry, "spectators",
					 (double)room->spectators.count) ||
		!cJSON_AddStringToObject(entry, "started", started);
	return !doc->failed && --doc->left > 0;
}

/* This instance's live public rooms, newest first, at most left. */
static cJSON *ops_rooms_array(const struct server *srv, int left)
{
	struct ops_rooms doc = {
		.rooms = cJSON_CreateArray(),
		.left = left,
		.now_ms = clock_monotonic_ms(),
		.now_unix_ms = clock_unix_ms(),
	};

	if (doc.rooms)
		lobby_each_room(&srv->hub.lobby, ops_room_entry, &doc);
	if (doc.failed) {
		cJSON_Delete(doc.rooms);
		return NULL;
	}
	return doc.rooms;
}

int ops_http_rooms(struct server *srv, const struct http_query *query,
		   struct http_answer *answer)
{
	int limit = ops_limit(query, OPS_ROOMS_DEFAULT, OPS_ROOMS_MOST);
	cJSON *root, *rooms;
	int site;

	answer->cache = "no-store";
	if (limit < 0)
		return http_answer_text(answer, HTTP_STATUS_BAD_REQUEST,
					"application/json",
					"{\"error\":\"limit is 1 to 200\"}\n");
	site = ops_site_list(srv, SITE_ROOMS, limit, answer);
	if (site)
		return site < 0 ? site : 0;
	root = cJSON_CreateObject();
	rooms = ops_rooms_array(srv, limit);
	if (!root || !rooms || !cJSON_AddItemToObject(root, "rooms", rooms)) {
		cJSON_Delete(rooms);
		cJSON_Delete(root);
		return -ENOMEM;
	}
	return ops_answer_json(root, answer);
}

char *ops_http_site_snapshot(void *ctx)
{
	const struct server *srv = ctx;
	cJSON *root = cJSON_CreateObject();
	cJSON *rooms = ops_rooms_array(srv, SITE_INDEX_MOST);
	cJSON *pools = ops_pools_array(srv);
	char *text = NULL;

	if (root && rooms && cJSON_AddItemToObject(root, "rooms", rooms)) {
		rooms = NULL;
		if (pools && cJSON_AddItemToObject(root, "pools", pools)) {
			pools = NULL;
			text = cJSON_PrintUnformatted(root);
		}
	}
	cJSON_Delete(rooms);
	cJSON_Delete(pools);
	cJSON_Delete(root);
	return text;
}

int ops_http_games(struct server *srv, const struct http_query *query,
		   struct http_answer *answer)
{
	int limit = ops_limit(query, OPS_GAMES_DEFAULT, OPS_GAMES_MOST);
	int site;

	answer->cache = "no-store";
	if (limit < 0)
		return http_answer_text(answer, HTTP_STATUS_BAD_REQUEST,
					"application/json",
					"{\"error\":\"limit is 1 to 200\"}\n");
	site = ops_site_list(srv, SITE_GAMES, limit, answer);
	if (site)
		return site < 0 ? site : 0;
	answer->body = store_recent_games_json(srv->store, limit, &answer->len);
	if (!answer->body)
		return http_answer_text(
			answer, HTTP_STATUS_SERVICE_UNAVAILABLE,
			"application/json",
			"{\"error\":\"the games cannot be read\"}\n");
	answer->status = HTTP_STATUS_OK;
	answer->mime = "application/json";
	return 0;
}

/* 404: no game of that id. */
static int ops_no_game(struct http_answer *answer)
{
	return http_answer_text(answer, HTTP_STATUS_NOT_FOUND,
				"application/json",
				"{\"error\":\"no such game\"}\n");
}

int ops_http_game(struct server *srv, const struct http_query *query,
		  struct http_answer *answer)
{
	char canonical[UID_LEN + 1];
	const char *id = query->path + strlen("/api/games/");

	answer->cache = "no-store";
	if (!identity_check_uid(id, canonical))
		return http_answer_text(
			answer, HTTP_STATUS_BAD_REQUEST, "application/json",
			"{\"error\":\"a game id is a UUID\"}\n");
	answer->body = store_game_json(srv->store, canonical, 0, &answer->len);
	if (!answer->body && srv->site_index)
		answer->body = site_index_record(srv->site_index, canonical,
						 &answer->len);
	if (!answer->body)
		return ops_no_game(answer);
	answer->status = HTTP_STATUS_OK;
	answer->mime = "application/json";
	return 0;
}
