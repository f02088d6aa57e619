/*
 * redis_journal.c - the live games of this instance in the site's Redis:
 * one ordered queue of writes, fenced by the room's epoch, sent again
 * after Redis came back (see redis_journal.h).
 */
#include "redis_journal.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "instance.h"
#include "list.h"
#include "log.h"
#include "store.h"
#include "strmap.h"

#define RJ_RETRY_MS 250	  /* writes waiting for Redis are tried this often */
#define RJ_APPEND_ARGS 13 /* words of an append */
#define RJ_ENDED_ARGS 15  /* ... with a finished game's index entry */
#define RJ_STR_(x) #x
#define RJ_STR(x) RJ_STR_(x)
#define RJ_RECORD_MAX (INSTANCE_ID_MAX + 24) /* "OWNER EPOCH" */
#define RJ_OWNER_MAX (INSTANCE_ID_MAX + INSTANCE_TOKEN_LEN + 2)

/*
 * A write to a game: KEYS its record, its stream, this process's set of
 * owned rooms; ARGV the record it must hold, the entry's id, its field
 * and value, the room, this process's owner name, the stream's time to
 * live once over, and with the end of a public game its /api/games entry
 * and when it ended (the site's index of finished games, the newest
 * SITE_ENDED_KEEP). 1: written (or already was: a write sent again); 0:
 * the room is another's; -1: the record is gone (Redis lost its data).
 */
static const char rj_append_script[] =
	"local record = redis.call('GET', KEYS[1]) "
	"if not record then return -1 end "
	"if record ~= ARGV[1] then return 0 end "
	"redis.pcall('XADD', KEYS[2], ARGV[2], ARGV[3], ARGV[4]) "
	"if ARGV[3] == 'g' then "
	" redis.call('SADD', KEYS[3], ARGV[5]) "
	" redis.call('SADD', '" SITE_OWNERS_KEY "', ARGV[6]) "
	"elseif ARGV[3] == 'x' then "
	" redis.call('SREM', KEYS[3], ARGV[5]) "
	" redis.call('EXPIRE', KEYS[2], ARGV[7]) "
	" if ARGV[8] then "
	"  redis.call('SET', '" SITE_ENDED_PREFIX "' .. ARGV[5], ARGV[8], "
	"             'EX', ARGV[7]) "
	"  redis.call('ZADD', '" SITE_ENDED_KEY "', ARGV[9], ARGV[5]) "
	"  redis.call('ZREMRANGEBYRANK', '" SITE_ENDED_KEY "', 0, "
	"             -1 - " RJ_STR(SITE_ENDED_KEEP) ") "
						     " end "
						     "end "
						     "return 1";

/*
 * A room's game written whole again, Redis having lost it: KEYS as
 * above; ARGV the record, its time to live, the room, this process's
 * owner name, then the stream's entries as id, field, value. 0: the room
 * is another's.
 */
static const char rj_reseed_script[] =
	"local record = redis.call('GET', KEYS[1]) "
	"if record and record ~= ARGV[1] then return 0 end "
	"redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) "
	"redis.call('DEL', KEYS[2]) "
	"for i = 5, #ARGV, 3 do "
	"redis.call('XADD', KEYS[2], ARGV[i], ARGV[i + 1], ARGV[i + 2]) end "
	"redis.call('SADD', KEYS[3], ARGV[3]) "
	"redis.call('SADD', '" SITE_OWNERS_KEY "', ARGV[4]) "
	"return 1";

/*
 * A room closes (or is given up): KEYS as above; ARGV the record it must
 * hold, the room. Its record and stream go while they are this owner's.
 */
static const char rj_close_script[] =
	"if redis.call('GET', KEYS[1]) == ARGV[1] then "
	"redis.call('DEL', KEYS[1], KEYS[2]) end "
	"redis.call('SREM', KEYS[3], ARGV[2]) "
	"return 1";

/* The scripts, sent by their SHA-1 once Redis has them (rj_pump()). */
enum rj_script {
	RJ_APPEND,
	RJ_RESEED,
	RJ_CLOSE,
	RJ_SCRIPTS
};

static const char *const rj_scripts[RJ_SCRIPTS] = {
	[RJ_APPEND] = rj_append_script,
	[RJ_RESEED] = rj_reseed_script,
	[RJ_CLOSE] = rj_close_script,
};

#define RJ_SHA_LEN 40 /* hex digits of a script's SHA-1 */

/* One room of this process with a record. */
struct rj_room {
	const struct lobby_room *room; /* the lobby's, while it is open */
	uint64_t epoch;		       /* of this ownership */
	uint64_t next_op;	       /* the next stream entry's number */
	bool streamed;		       /* its game is in the stream */
	bool engine;		       /* against the engine: the record only */
	bool reseeding;		       /* its game is being written whole */
	int64_t started_unix_ms;       /* when it began (the game's header) */
	char record[RJ_RECORD_MAX];    /* "OWNER EPOCH" */
};

/* One write, queued until Redis answered it. */
struct rj_write {
	struct list_node node; /* in rj->writes, in order */
	struct redis_journal *rj;
	uint64_t seq;		/* its place in the queue */
	uint64_t batch;		/* 0: not sealed yet */
	bool sent;		/* its answer is awaited */
	bool sent_before;	/* sent once already (Redis went away) */
	char room[UID_LEN + 1]; /* for the log and fenced() */
	bool reseed;		/* the room's game written whole */
	int script;		/* argv[1]'s enum rj_script; -1: no script */
	int argc;
	char **argv; /* argc words, in the same allocation */
	size_t *argvlen;
};

/* One per process with --redis; owned by main.c. */
struct redis_journal {
	uv_loop_t *loop;
	struct redis_link *link; /* not owned */
	char id[INSTANCE_ID_MAX + 1];
	char owner[RJ_OWNER_MAX]; /* "INSTANCE:TOKEN" */
	char owned_key[sizeof(SITE_OWNED_PREFIX) + RJ_OWNER_MAX];
	struct strmap rooms;	    /* room id -> struct rj_room */
	struct list writes;	    /* struct rj_write, oldest first */
	struct rj_write *next_send; /* the first not sent (those before are);
				     * NULL: every one is */
	uint64_t queued_seq;	    /* writes queued so far */
	uint64_t sealed;	    /* the last batch sealed */
	uint64_t reseed_batch;	    /* the first batch a pending reseed
				     * holds (its game's writes were lost);
				     * 0: none */
	unsigned int reseeds;	    /* reseeds not answered yet */
	bool unsealed;		    /* writes since then */
	bool fenced_told;	    /* fenced() was called */
	bool freeing;		    /* answers change nothing any more */
	uint64_t loaded_on; /* the link's connection the scripts were sent
			      * to (redis_link_stats().connects) */
	char sha[RJ_SCRIPTS][RJ_SHA_LEN + 1]; /* "": EVAL it whole */
	struct rj_loading {
		struct redis_journal *rj;
		enum rj_script script;
	} loading[RJ_SCRIPTS];
	uv_timer_t retry;
	void (*fenced)(void *ctx, const char *room);
	void *ctx;
	struct store *store; /* the records of finished games; not owned */
	char (*ended)[UID_LEN + 1]; /* games over whose record waits for the
				     * store's commit (rj_stored()) */
	size_t ended_count, ended_cap;
	struct redis_journal_stats stats;
};

static void rj_write_free(struct rj_write *w)
{
	free(w); /* its words with it */
}

static void rj_reseed(struct redis_journal *rj, struct rj_write *w);

/* Takes w out of the queue and frees it. */
static void rj_done(struct redis_journal *rj, struct rj_write *w)
{
	list_remove(&rj->writes, &w->node);
	rj_write_free(w);
}

static void rj_pump(struct redis_journal *rj);

/* w's answer did not come: w and what follows go again, in order. */
static void rj_unsend(struct redis_journal *rj, struct rj_write *w)
{
	w->sent = false;
	if (!rj->next_send || w->seq < rj->next_send->seq)
		rj->next_send = w;
	uv_timer_again(&rj->retry);
}

static void rj_on_reply(void *data, const redisReply *reply)
{
	struct rj_write *w = data;
	struct redis_journal *rj = w->rj;

	if (rj->freeing)
		return; /* redis_journal_free() frees it */
	if (!reply) {
		/* Redis went: sent again, in order, once it is back */
		rj_unsend(rj, w);
		w->sent_before = true;
		return;
	}
	if (reply->type == REDIS_REPLY_INTEGER && reply->integer == 0) {
		/* Another instance took the room over: nothing after this
		 * write is told, and main stops this process. */
		rj->stats.fenced++;
		if (!rj->fenced_told) {
			rj->fenced_told = true;
			log_error("room " LOG_ROOM " was taken over by another "
				  "instance: this one lost its lease",
				  w->room);
			rj->fenced(rj->ctx, w->room);
		}
		return;
	}
	if (reply->type == REDIS_REPLY_INTEGER && reply->integer < 0) {
		/* Redis lost the room (restarted without its data) */
		rj_reseed(rj, w);
		rj_done(rj, w);
		return;
	}
	if (reply->type == REDIS_REPLY_ERROR &&
	    !strncmp(reply->str, "NOSCRIPT", 8)) {
		/* its scripts were flushed: sent whole again, and the rest */
		memset(rj->sha, 0, sizeof(rj->sha));
		rj->loaded_on = 0;
		rj_unsend(rj, w);
		return;
	}
	if (reply->type == REDIS_REPLY_ERROR)
		log_error("redis: a write of room " LOG_ROOM " failed: %s",
			  w->room, reply->str);
	else
		rj->stats.writes++;
	if (w->reseed) {
		struct rj_room *r = strmap_get(&rj->rooms, w->room);

		if (r)
			r->reseeding = false;
		if (!--rj->reseeds)
			rj->reseed_batch = 0;
	}
	rj_done(rj, w);
}

static void rj_on_loaded(void *data, const redisReply *reply)
{
	struct rj_loading *loading = data;

	if (loading->rj->freeing || !reply ||
	    reply->type != REDIS_REPLY_STRING || reply->len != RJ_SHA_LEN)
		return;
	memcpy(loading->rj->sha[loading->script], reply->str, RJ_SHA_LEN + 1);
}

/*
 * On each new connection, the scripts first (SCRIPT LOAD, ahead of every
 * write on it): the writes sent once Redis answered go by SHA-1
 * (EVALSHA), without the script's text. Those before go whole.
 */
static void rj_load_scripts(struct redis_journal *rj)
{
	struct redis_link_stats link;

	redis_link_stats(rj->link, &link);
	if (!link.up || link.connects == rj->loaded_on)
		return;
	memset(rj->sha, 0, sizeof(rj->sha));
	for (int i = 0; i < RJ_SCRIPTS; i++) {
		rj->loading[i] = (struct rj_loading){ rj, (enum rj_script)i };
		if (redis_link_command(rj->link, rj_on_loaded, &rj->loading[i],
				       "SCRIPT LOAD %s", rj_scripts[i]))
			return;
	}
	rj->loaded_on = link.connects;
}

/* Sends w: by the script's SHA-1 when Redis has it. 0, or -ENOTCONN. */
static int rj_send(struct redis_journal *rj, struct rj_write *w)
{
	const char *words[RJ_APPEND_ARGS];
	const char **argv = (const char **)w->argv;
	size_t lens[RJ_APPEND_ARGS];
	const size_t *argvlen = w->argvlen;

	if (w->script >= 0 && rj->sha[w->script][0] &&
	    w->argc <= RJ_APPEND_ARGS) {
		memcpy(words, w->argv, (size_t)w->argc * sizeof(*words));
		memcpy(lens, w->argvlen, (size_t)w->argc * sizeof(*lens));
		words[0] = "EVALSHA";
		lens[0] = 7;
		words[1] = rj->sha[w->script];
		lens[1] = RJ_SHA_LEN;
		argv = words;
		argvlen = lens;
	}
	return redis_link_command_argv(rj->link, rj_on_reply, w, w->argc, argv,
				       argvlen);
}

/* Sends the writes not sent yet, in order, while the link takes them. */
static void rj_pump(struct redis_journal *rj)
{
	rj_load_scripts(rj);
	for (struct list_node *n = rj->next_send ? &rj->next_send->node : NULL;
	     n; n = n->next) {
		struct rj_write *w = list_entry(n, struct rj_write, node);

		rj->next_send = w;
		if (w->sent)
			continue;
		if (rj_send(rj, w))
			return; /* down: the retry timer comes back */
		w->sent = true;
		if (w->sent_before)
			rj->stats.resent++;
	}
	rj->next_send = NULL;
}

static void rj_on_retry(uv_timer_t *timer)
{
	struct redis_journal *rj = timer->data;

	rj_pump(rj);
	if (!rj->next_send)
		uv_timer_stop(timer);
}

/*
 * Queues a write of room: argc words (NUL-terminated), and sends it. The
 * write, or NULL on out of memory (logged).
 */
static struct rj_write *rj_queue(struct redis_journal *rj, const char *room,
				 int argc, const char *const *argv)
{
	size_t lens[RJ_APPEND_ARGS], bytes = 0;
	struct rj_write *w;
	char *text;

	/* one allocation: the write, its words' pointers, lengths and text */
	for (int i = 0; i < argc; i++) {
		size_t len = strlen(argv[i]);

		if (i < RJ_APPEND_ARGS)
			lens[i] = len;
		bytes += len + 1;
	}
	w = calloc(1, sizeof(*w) +
			      (size_t)argc * (sizeof(char *) + sizeof(size_t)) +
			      bytes);
	if (!w)
		goto oom;
	w->argv = (char **)(w + 1);
	w->argvlen = (size_t *)(w->argv + argc);
	text = (char *)(w->argvlen + argc);
	w->script = -1;
	for (int i = 0; i < RJ_SCRIPTS && argc > 1; i++)
		if (argv[1] == rj_scripts[i])
			w->script = i;
	w->rj = rj;
	snprintf(w->room, sizeof(w->room), "%s", room);
	for (int i = 0; i < argc; i++) {
		w->argvlen[i] = i < RJ_APPEND_ARGS ? lens[i] : strlen(argv[i]);
		w->argv[i] = text;
		memcpy(text, argv[i], w->argvlen[i] + 1);
		text += w->argvlen[i] + 1;
	}
	w->argc = argc;
	w->seq = ++rj->queued_seq;
	list_append(&rj->writes, &w->node);
	if (!rj->next_send)
		rj->next_send = w;
	rj->unsealed = true;
	rj_pump(rj);
	return w;
oom:
	log_error("out of memory journalling room " LOG_ROOM " in redis", room);
	return NULL;
}

static void rj_keys(const char *room, char *record_key, size_t record_size,
		    char *game_key, size_t game_size)
{
	snprintf(record_key, record_size, "%s%s", SITE_ROOM_PREFIX, room);
	snprintf(game_key, game_size, "%s%s", SITE_GAME_PREFIX, room);
}

/*
 * Appends field and value to room's stream, fenced by its epoch; with
 * ended (NULL: none), the finished game's entry in the site's index.
 */
static void rj_append(struct redis_journal *rj, const char *room,
		      struct rj_room *r, const char *field, const char *value,
		      const char *ended, int64_t ended_unix_ms)
{
	char record_key[sizeof(SITE_ROOM_PREFIX) + UID_LEN];
	char game_key[sizeof(SITE_GAME_PREFIX) + UID_LEN];
	char entry[48], ttl[16], score[24];
	const char *argv[] = {
		"EVAL",	       rj_append_script, "3",	record_key, game_key,
		rj->owned_key, r->record,	 entry, field,	    value,
		room,	       rj->owner,	 ttl,	ended,	    score
	};

	_Static_assert(sizeof(argv) / sizeof(*argv) == RJ_ENDED_ARGS,
		       "the words of an append");
	rj_keys(room, record_key, sizeof(record_key), game_key,
		sizeof(game_key));
	snprintf(entry, sizeof(entry), "%" PRIu64 "-%" PRIu64, r->epoch,
		 r->next_op++);
	snprintf(ttl, sizeof(ttl), "%d", SITE_OVER_TTL_S);
	snprintf(score, sizeof(score), "%" PRId64, ended_unix_ms);
	rj_queue(rj, room, ended ? RJ_ENDED_ARGS : RJ_APPEND_ARGS, argv);
}

/* The game's header: JSON, NULL on out of memory (free() it). */
static char *rj_header(const struct lobby_room *room, int64_t started_unix_ms)
{
	const struct game *game = &room->game;
	char tc[TIME_CONTROL_TEXT_MAX];
	cJSON *root = cJSON_CreateObject();
	char *text = NULL;

	if (!root)
		return NULL;
	time_control_format(game->clock.tc, tc, sizeof(tc));
	if (!cJSON_AddNumberToObject(root, "size", game->board.size) ||
	    !cJSON_AddStringToObject(root, "rule", rule_name(game->rule)) ||
	    !cJSON_AddStringToObject(
		    root, "full",
		    game->full_board == FULL_BOARD_DRAW ? "draw" : "back") ||
	    !cJSON_AddStringToObject(root, "tc", tc) ||
	    !cJSON_AddNumberToObject(root, "started",
				     (double)started_unix_ms) ||
	    !cJSON_AddStringToObject(root, "rematch_of", room->rematch_of) ||
	    !cJSON_AddBoolToObject(root, "private", room->private))
		goto out;
	for (enum role role = ROLE_FRONT; role <= ROLE_BACK; role++) {
		const struct lobby_player *p = room->seats[role];
		cJSON *player = cJSON_AddObjectToObject(root, role_name(role));

		if (!player ||
		    !cJSON_AddStringToObject(player, "uid", p ? p->uid : "") ||
		    !cJSON_AddStringToObject(player, "name", p ? p->name : ""))
			goto out;
	}
	text = cJSON_PrintUnformatted(root);
out:
	cJSON_Delete(root);
	return text;
}

/* "FRONT_MS BACK_MS" of room's clocks as they stand; "-1 -1" untimed. */
static void rj_clocks(const struct lobby_room *room, char *out, size_t size)
{
	const struct fischer *clock = &room->game.clock;

	if (!time_control_timed(clock->tc))
		snprintf(out, size, "-1 -1");
	else
		snprintf(out, size, "%" PRId64 " %" PRId64,
			 clock->left_ms[ROLE_FRONT], clock->left_ms[ROLE_BACK]);
}

static struct rj_room *rj_room_new(struct redis_journal *rj, const char *room,
				   uint64_t epoch)
{
	struct rj_room *r = calloc(1, sizeof(*r));

	if (!r || strmap_put(&rj->rooms, room, r)) {
		free(r);
		log_error("out of memory journalling room " LOG_ROOM
			  " in redis",
			  room);
		return NULL;
	}
	r->epoch = epoch;
	r->next_op = 1;
	snprintf(r->record, sizeof(r->record), "%s %" PRIu64, rj->id, epoch);
	return r;
}

/* The room opened here: its record, unless it has one (sent again). */
static void rj_opened(struct redis_journal *rj, const struct lobby_room *room)
{
	char record_key[sizeof(SITE_ROOM_PREFIX) + UID_LEN];
	char game_key[sizeof(SITE_GAME_PREFIX) + UID_LEN];
	char ttl[16];
	struct rj_room *r = rj_room_new(rj, room->id, 1);
	const char *argv[6];

	if (!r)
		return;
	r->room = room;
	r->engine = room->ai_role != ROLE_NONE;
	rj_keys(room->id, record_key, sizeof(record_key), game_key,
		sizeof(game_key));
	snprintf(ttl, sizeof(ttl), "%d", SITE_RECORD_TTL_S);
	argv[0] = "SET";
	argv[1] = record_key;
	argv[2] = r->record;
	argv[3] = "NX";
	argv[4] = "EX";
	argv[5] = ttl;
	rj_queue(rj, room->id, 6, argv);
}

/* The room's record and stream go, while they are ours at record. */
static void rj_close(struct redis_journal *rj, const char *room,
		     const char *record)
{
	char record_key[sizeof(SITE_ROOM_PREFIX) + UID_LEN];
	char game_key[sizeof(SITE_GAME_PREFIX) + UID_LEN];
	const char *argv[] = { "EVAL",	 rj_close_script, "3",	  record_key,
			       game_key, rj->owned_key,	  record, room };

	rj_keys(room, record_key, sizeof(record_key), game_key,
		sizeof(game_key));
	rj_queue(rj, room, 8, argv);
}

static void rj_moved(struct redis_journal *rj, const struct lobby_room *room,
		     struct rj_room *r, int64_t started_unix_ms)
{
	const struct game *game = &room->game;
	int seq = game->moves_played - 1;
	char value[96], clocks[48];

	if (!r->streamed) {
		char *header = rj_header(room, started_unix_ms);

		r->started_unix_ms = started_unix_ms;
		if (!header) {
			log_error("out of memory journalling room " LOG_ROOM
				  " in redis",
				  room->id);
			return;
		}
		rj_append(rj, room->id, r, "g", header, NULL, 0);
		free(header);
		r->streamed = true;
	}
	rj_clocks(room, clocks, sizeof(clocks));
	snprintf(value, sizeof(value), "%d %d %s", seq, game->history[seq],
		 clocks);
	rj_append(rj, room->id, r, "m", value, NULL, 0);
}

/* A word of a reseed, formatted; NULL on out of memory. */
static char *rj_word(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static char *rj_word(const char *fmt, ...)
{
	va_list ap;
	char *word;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		return NULL;
	word = malloc((size_t)len + 1);
	if (!word)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(word, (size_t)len + 1, fmt, ap);
	va_end(ap);
	return word;
}

/*
 * Redis lost w's room (it restarted without its data): the room's game
 * is written whole again as it stands now, its record with it, unless
 * that is on its way already. The writes of the room queued before it
 * are part of what stands now.
 */
static void rj_reseed(struct redis_journal *rj, struct rj_write *w)
{
	struct rj_room *r = strmap_get(&rj->rooms, w->room);
	const struct game *game;
	char record_key[sizeof(SITE_ROOM_PREFIX) + UID_LEN];
	char game_key[sizeof(SITE_GAME_PREFIX) + UID_LEN];
	char ttl[16], clocks[48];
	char **words;
	int count, n = 0, fixed = 11;
	struct rj_write *sent;

	if (!r || r->reseeding || !r->room || r->engine)
		return;
	game = &r->room->game;
	log_warn("room " LOG_ROOM ": Redis lost its journal (it restarted "
		 "without its data): written whole again",
		 w->room);
	count = fixed +
		3 * (1 + game->moves_played + (game->to_move == ROLE_NONE));
	words = calloc((size_t)count, sizeof(*words));
	if (!words)
		return;
	rj_keys(w->room, record_key, sizeof(record_key), game_key,
		sizeof(game_key));
	snprintf(ttl, sizeof(ttl), "%d", SITE_RECORD_TTL_S);
	words[n++] = rj_word("EVAL");
	words[n++] = rj_word("%s", rj_reseed_script);
	words[n++] = rj_word("3");
	words[n++] = rj_word("%s", record_key);
	words[n++] = rj_word("%s", game_key);
	words[n++] = rj_word("%s", rj->owned_key);
	words[n++] = rj_word("%s", r->record);
	words[n++] = rj_word("%s", ttl);
	words[n++] = rj_word("%s", w->room);
	words[n++] = rj_word("%s", rj->owner);
	words[n++] = rj_word("%" PRIu64 "-%" PRIu64, r->epoch, r->next_op++);
	words[n++] = rj_word("g");
	words[n++] = rj_header(r->room, r->started_unix_ms);
	rj_clocks(r->room, clocks, sizeof(clocks));
	for (int seq = 0; seq < game->moves_played; seq++) {
		words[n++] =
			rj_word("%" PRIu64 "-%" PRIu64, r->epoch, r->next_op++);
		words[n++] = rj_word("m");
		words[n++] = rj_word("%d %d %s", seq, game->history[seq],
				     seq == game->moves_played - 1 ? clocks :
								     "-1 -1");
	}
	if (game->to_move == ROLE_NONE) {
		words[n++] =
			rj_word("%" PRIu64 "-%" PRIu64, r->epoch, r->next_op++);
		words[n++] = rj_word("x");
		words[n++] = rj_word("%s", "");
	}
	for (int i = 0; i < n; i++)
		if (!words[i])
			goto out;
	sent = rj_queue(rj, w->room, n, (const char *const *)words);
	if (sent) {
		/* what was told of w's batch waits for the reseed now */
		uint64_t held = w->batch ? w->batch : rj->sealed + 1;

		sent->reseed = true;
		r->reseeding = true;
		rj->reseeds++;
		if (!rj->reseed_batch || held < rj->reseed_batch)
			rj->reseed_batch = held;
	}
out:
	for (int i = 0; i < n; i++)
		free(words[i]);
	free(words);
}

/*
 * Public game id ended: its record goes to Redis after the store's
 * commit.
 */
static void rj_ended(struct redis_journal *rj, const char *id)
{
	if (!rj->store)
		return;
	if (rj->ended_count == rj->ended_cap) {
		size_t cap = rj->ended_cap ? 2 * rj->ended_cap : 16;
		char(*grown)[UID_LEN + 1] =
			realloc(rj->ended, cap * sizeof(*rj->ended));

		if (!grown) {
			log_error(
				"out of memory keeping the record of room " LOG_ROOM
				" for the site",
				id);
			return;
		}
		rj->ended = grown;
		rj->ended_cap = cap;
	}
	snprintf(rj->ended[rj->ended_count++], UID_LEN + 1, "%s", id);
}

/*
 * The store committed: the records of the games that ended are in it
 * now, and go to the site's Redis (gomoku:record:ID, for /api/games/ID
 * on every instance).
 */
static void rj_stored(void *ctx)
{
	struct redis_journal *rj = ctx;

	for (size_t i = 0; i < rj->ended_count; i++) {
		const char *id = rj->ended[i];
		char key[sizeof(SITE_RECORD_PREFIX) + UID_LEN], ttl[16];
		size_t len;
		char *record = store_game_json(rj->store, id, 0, &len);
		const char *argv[] = { "SET", key, record, "EX", ttl };

		if (!record)
			continue; /* out of memory, or an error: logged */
		snprintf(key, sizeof(key), "%s%s", SITE_RECORD_PREFIX, id);
		snprintf(ttl, sizeof(ttl), "%d", SITE_OVER_TTL_S);
		rj_queue(rj, id, 5, argv);
		free(record);
	}
	rj->ended_count = 0;
}

/*
 * room's game ended: the end in its stream and, unless it is private,
 * its entry in the site's index of finished games (/api/games).
 */
static void rj_game_over(struct redis_journal *rj,
			 const struct lobby_room *room, struct rj_room *r)
{
	const struct game *game = &room->game;
	int64_t now = clock_unix_ms();
	char tc[TIME_CONTROL_TEXT_MAX];
	struct store_summary summary = {
		.id = room->id,
		.size = game->board.size,
		.rule = rule_name(game->rule),
		.tc = tc,
		.winner = game_winner_name(game->winner),
		.reason = game_reason_name(game->reason),
		.moves = game->moves_played,
		.ended_unix_ms = now,
	};
	cJSON *entry = NULL;
	char *text = NULL;

	time_control_format(game->clock.tc, tc, sizeof(tc));
	for (enum role role = ROLE_FRONT; role <= ROLE_BACK; role++)
		summary.names[role] =
			room->seats[role] ? room->seats[role]->name : "";
	if (!room->private) {
		entry = store_summary_json(&summary);
		text = entry ? cJSON_PrintUnformatted(entry) : NULL;
		cJSON_Delete(entry);
		if (!text)
			log_error("out of memory listing room " LOG_ROOM
				  " in the site's finished games",
				  room->id);
	}
	rj_append(rj, room->id, r, "x", "", text, now);
	if (text)
		rj_ended(rj, room->id);
	cJSON_free(text);
}

static void rj_record(void *ctx, enum lobby_record type,
		      const struct lobby_room *room, int64_t started_unix_ms)
{
	struct redis_journal *rj = ctx;
	struct rj_room *r;
	char value[64], clocks[48];

	if (type == RECORD_ROOM_OPENED) {
		rj_opened(rj, room);
		return;
	}
	r = strmap_get(&rj->rooms, room->id);
	if (!r)
		return; /* out of memory when it opened: logged then */
	switch (type) {
	case RECORD_MOVE:
		if (!r->engine)
			rj_moved(rj, room, r, started_unix_ms);
		break;
	case RECORD_TAKEBACK:
		if (!r->engine && r->streamed) {
			rj_clocks(room, clocks, sizeof(clocks));
			snprintf(value, sizeof(value), "%d %s",
				 room->game.moves_played, clocks);
			rj_append(rj, room->id, r, "t", value, NULL, 0);
		}
		break;
	case RECORD_GAME_OVER:
		if (!r->engine && r->streamed)
			rj_game_over(rj, room, r);
		break;
	case RECORD_ROOM_CLOSED:
		rj_close(rj, room->id, r->record);
		strmap_del(&rj->rooms, room->id);
		free(r);
		break;
	case RECORD_ROOM_OPENED:
		break;
	}
}

int redis_journal_adopt(struct redis_journal *rj, const struct lobby_room *room,
			uint64_t epoch, int64_t started_unix_ms)
{
	struct rj_room *r = rj_room_new(rj, room->id, epoch);

	if (!r)
		return -ENOMEM;
	r->room = room;
	r->streamed = true;
	r->started_unix_ms = started_unix_ms;
	return 0;
}

void redis_journal_abandon(struct redis_journal *rj, const char *room,
			   uint64_t epoch)
{
	char record[RJ_RECORD_MAX];

	snprintf(record, sizeof(record), "%s %" PRIu64, rj->id, epoch);
	rj_close(rj, room, record);
}

static bool rj_unsealed(const void *ctx)
{
	const struct redis_journal *rj = ctx;

	return rj->unsealed;
}

static void rj_seal(void *ctx, uint64_t batch)
{
	struct redis_journal *rj = ctx;

	/* the unsealed writes are the last ones */
	for (struct list_node *n = rj->writes.tail; n; n = n->prev) {
		struct rj_write *w = list_entry(n, struct rj_write, node);

		if (w->batch)
			break;
		w->batch = batch;
	}
	rj->sealed = batch;
	rj->unsealed = false;
}

static uint64_t rj_acked(const void *ctx)
{
	const struct redis_journal *rj = ctx;
	const struct rj_write *w =
		list_first(&rj->writes, struct rj_write, node);

	uint64_t acked;

	if (!w)
		acked = UINT64_MAX;
	else
		acked = w->batch ? w->batch - 1 : rj->sealed;
	if (rj->reseed_batch && rj->reseed_batch - 1 < acked)
		acked = rj->reseed_batch - 1;
	return acked;
}

static bool rj_failing(const void *ctx)
{
	const struct redis_journal *rj = ctx;
	struct redis_link_stats link;

	redis_link_stats(rj->link, &link);
	return !link.up || rj->fenced_told;
}

struct journal_mirror redis_journal_mirror(struct redis_journal *rj)
{
	return (struct journal_mirror){ .record = rj_record,
					.unsealed = rj_unsealed,
					.seal = rj_seal,
					.acked = rj_acked,
					.failing = rj_failing,
					.stored = rj_stored,
					.ctx = rj };
}

const char *redis_journal_owner(const struct redis_journal *rj)
{
	return rj->owner;
}

struct redis_journal *
redis_journal_new(uv_loop_t *loop, struct redis_link *link, const char *id,
		  const char *token, struct store *store,
		  void (*fenced)(void *ctx, const char *room), void *ctx)
{
	struct redis_journal *rj = calloc(1, sizeof(*rj));

	if (!rj)
		return NULL;
	rj->loop = loop;
	rj->link = link;
	snprintf(rj->id, sizeof(rj->id), "%s", id);
	snprintf(rj->owner, sizeof(rj->owner), "%s:%s", id, token);
	snprintf(rj->owned_key, sizeof(rj->owned_key), "%s%s",
		 SITE_OWNED_PREFIX, rj->owner);
	rj->fenced = fenced;
	rj->ctx = ctx;
	rj->store = store;
	strmap_init(&rj->rooms);
	uv_timer_init(loop, &rj->retry);
	rj->retry.data = rj;
	uv_timer_start(&rj->retry, rj_on_retry, RJ_RETRY_MS, RJ_RETRY_MS);
	uv_timer_stop(&rj->retry); /* armed by uv_timer_again() */
	return rj;
}

static void rj_free_room(void *ctx, const char *key, void *value)
{
	(void)ctx;
	(void)key;
	free(value);
}

static void rj_closed(uv_handle_t *handle)
{
	struct redis_journal *rj = handle->data;

	while (!list_is_empty(&rj->writes)) {
		struct rj_write *w =
			list_first(&rj->writes, struct rj_write, node);

		list_remove(&rj->writes, &w->node);
		rj_write_free(w);
	}
	strmap_each(&rj->rooms, rj_free_room, NULL);
	strmap_release(&rj->rooms);
	free(rj->ended);
	free(rj);
}

void redis_journal_free(struct redis_journal *rj)
{
	if (!rj)
		return;
	rj->freeing = true;
	uv_close((uv_handle_t *)&rj->retry, rj_closed);
}

void redis_journal_stats(const struct redis_journal *rj,
			 struct redis_journal_stats *out)
{
	*out = rj->stats;
	out->rooms = rj->rooms.count;
	out->queued = rj->writes.count;
}
