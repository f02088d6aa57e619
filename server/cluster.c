/*
 * cluster.c - the instances of a site playing as one: the route script,
 * the relay's tickets, the owner's remote players, and the messages
 * between them (see cluster.h).
 *
 * Over 600 lines because the two ends of one conversation are easiest
 * to check side by side; in order: the scripts, the structs, sending,
 * the relay's side (routing, waiting, relaying), the owner's side
 * (remote players), the messages received, the liveness sweep.
 */
#include "cluster.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "conn.h"
#include "identity.h"
#include "instance.h"
#include "list.h"
#include "log.h"
#include "outqueue.h"
#include "strmap.h"

#define CLUSTER_SWEEP_MS 1000 /* the liveness look, and deadlines */
#define CLUSTER_PAIR_TIMEOUT_MS \
	5000			 /* a pair's owner silent this long:
				      * route again */
#define CLUSTER_HERE_TRIES 3	 /* sweeps a seat said here may take to be */
#define CLUSTER_POOL_TEXT_MAX 48 /* "25:standard:10800+180" */
#define CLUSTER_KEY_MAX (sizeof(SITE_QUEUE_PREFIX) + CLUSTER_POOL_TEXT_MAX)
#define CLUSTER_CONN_KEY_MAX (INSTANCE_ID_MAX + 32) /* "INSTANCE/ID" */

/*
 * Where a player goes (cluster.h): KEYS seat and queue; ARGV uid, this
 * instance, the pool, and an owner known to be stale ("" for none).
 * Answers {"relay", OWNER}, {"pair", UID, INSTANCE}, {"wait"},
 * {"here"}: the seat is this instance's (a room taken over here since
 * the player came), or {"hold"}: the seat's owner is gone and its rooms
 * are not all taken over yet (takeover.c), ask again in a moment.
 */
static const char cluster_route_script[] =
	"local uid, me, pool, skip = ARGV[1], ARGV[2], ARGV[3], ARGV[4] "
	"local function alive(inst) return redis.call('EXISTS', "
	"'" INSTANCE_KEY_PREFIX "' .. inst) == 1 end "
	"local function orphaned(inst) "
	" for _, owner in ipairs(redis.call('SMEMBERS', "
	"'" SITE_OWNERS_KEY "')) do "
	"  local oinst, token = string.match(owner, '^(.+):(%x+)$') "
	"  if oinst == inst and redis.call('GET', '" INSTANCE_KEY_PREFIX "' "
	".. inst) ~= token and redis.call('SCARD', "
	"'" SITE_OWNED_PREFIX "' .. owner) > 0 then return true end "
	" end "
	" return false "
	"end "
	"local seat = redis.call('GET', KEYS[1]) "
	"if seat then "
	" local kind, inst, spool = string.match(seat, "
	"'^(%a) (%S+) ?(%S*)$') "
	" if kind == 'p' and inst == me and skip ~= me then return {'here'} "
	"end "
	" if kind == 'p' and (inst == me or inst == skip or not alive(inst)) "
	"and orphaned(inst) then return {'hold'} end "
	" if kind == 'p' and inst ~= me and inst ~= skip and alive(inst) "
	"then return {'relay', inst} end "
	" if kind == 'w' then "
	"  redis.call('LREM', '" SITE_QUEUE_PREFIX "' .. spool, 0, "
	"uid .. ' ' .. inst) "
	"  if inst ~= me and alive(inst) then redis.call('PUBLISH', "
	"'" SITE_CHANNEL_PREFIX "' .. inst, 'W ' .. me .. ' 0\\n' .. uid) "
	"end "
	" end "
	" redis.call('DEL', KEYS[1]) "
	"end "
	"while true do "
	" local entry = redis.call('LPOP', KEYS[2]) "
	" if not entry then break end "
	" local wuid, winst = string.match(entry, '^(%S+) (%S+)$') "
	" if wuid and wuid ~= uid and alive(winst) and redis.call('GET', "
	"'" SITE_SEAT_PREFIX "' .. wuid) == 'w ' .. winst .. ' ' .. pool "
	"then "
	"  redis.call('SET', '" SITE_SEAT_PREFIX "' .. wuid, 'p ' .. winst) "
	"  redis.call('SET', KEYS[1], 'p ' .. winst) "
	"  return {'pair', wuid, winst} "
	" end "
	"end "
	"redis.call('RPUSH', KEYS[2], uid .. ' ' .. me) "
	"redis.call('SET', KEYS[1], 'w ' .. me .. ' ' .. pool) "
	"return {'wait'}";

/*
 * The live owner of a room or an invite: KEYS its record ("OWNER" or
 * "OWNER EPOCH"); nil when none lives.
 */
static const char cluster_room_script[] =
	"local record = redis.call('GET', KEYS[1]) "
	"local owner = record and string.match(record, '^(%S+)') "
	"if owner and redis.call('EXISTS', '" INSTANCE_KEY_PREFIX "' .. owner) "
	"== 1 then return owner end "
	"return false";

/* A waiting player leaves: KEYS seat, queue; ARGV uid, instance, pool. */
static const char cluster_unwait_script[] =
	"if redis.call('GET', KEYS[1]) == 'w ' .. ARGV[2] .. ' ' .. ARGV[3] "
	"then redis.call('DEL', KEYS[1]) end "
	"redis.call('LREM', KEYS[2], 0, ARGV[1] .. ' ' .. ARGV[2]) "
	"return 1";

/*
 * A player who waited --ai-fill-after is the engine's, unless a newcomer
 * popped it meanwhile: KEYS seat, queue; ARGV uid, instance, pool. 1:
 * taken out of the queue, play the engine; 0: it is being paired.
 */
static const char cluster_fill_script[] =
	"if redis.call('GET', KEYS[1]) ~= 'w ' .. ARGV[2] .. ' ' .. ARGV[3] "
	"then return 0 end "
	"redis.call('LREM', KEYS[2], 0, ARGV[1] .. ' ' .. ARGV[2]) "
	"redis.call('SET', KEYS[1], 'p ' .. ARGV[2]) "
	"return 1";

/*
 * A waiting player popped for a newcomer who left before their room was
 * made waits again, first in line: KEYS its seat, the queue, the
 * newcomer's seat; ARGV its uid, its instance, the pool.
 */
static const char cluster_requeue_script[] =
	"if redis.call('GET', KEYS[1]) == 'p ' .. ARGV[2] then "
	" redis.call('SET', KEYS[1], 'w ' .. ARGV[2] .. ' ' .. ARGV[3]) "
	" redis.call('LPUSH', KEYS[2], ARGV[1] .. ' ' .. ARGV[2]) "
	"end "
	"if redis.call('GET', KEYS[3]) == 'p ' .. ARGV[2] then "
	"redis.call('DEL', KEYS[3]) end "
	"return 1";

enum ticket_state {
	TICKET_ROUTING, /* the route script is asked, or about to be */
	TICKET_WAITING, /* in its pool's queue, told `waiting` */
	TICKET_RELAYED, /* playing on owner: its messages go there */
	TICKET_DONE,	/* replaced: waits for its session to close */
};

/* One per session of this instance that the cluster routes. */
struct cluster_ticket {
	struct cluster *cl;
	struct list_node node; /* in cl->tickets */
	void *conn;	       /* the session; NULL once it closed */
	enum ticket_state state;
	char uid[UID_LEN + 1];
	char name[NAME_MAX_BYTES + 1];
	struct lobby_pool_key pool;
	char pool_text[CLUSTER_POOL_TEXT_MAX]; /* "15:freestyle:none" */
	bool compact;			       /* boards without content */
	bool asking;			 /* the route script is in flight */
	char *stash;			 /* asking: a J that paired it meanwhile
				  * (its owner's reply may come after the
				  * newcomer's message): "FROM ID" NUL, the
				  * payload */
	size_t stash_len;		 /* the payload's bytes */
	char skip[INSTANCE_ID_MAX + 1];	 /* an owner found stale */
	char owner[INSTANCE_ID_MAX + 1]; /* relayed: the room's instance */
	uint64_t id;			 /* relayed: its number here */
	char id_text[24];		 /* ... in decimal, its key */
	bool pairing;		 /* relayed with a partner, no room yet */
	uint64_t pairing_until;	 /* then route again */
	uint64_t waiting_since;	 /* waiting: told so then */
	bool filling;		 /* waiting: the fill script is in flight */
	bool held;		 /* routing: its seat's rooms are being taken
				 * over; the sweep routes it again */
	unsigned int here_tries; /* answers "here" with no seat here yet */
	bool watch;		 /* a spectator of room, not a player */
	char room[UID_LEN + 1];
	char invite[INVITE_LEN + 1]; /* a player with another instance's
				      * invite code; "" for none */
};

/* One per player of another instance seated in this lobby. */
struct cluster_remote {
	enum conn_kind kind;		    /* CONN_REMOTE: first (conn.h) */
	char key[CLUSTER_CONN_KEY_MAX];	    /* "INSTANCE/ID": in remotes */
	char instance[INSTANCE_ID_MAX + 1]; /* the relay */
	uint64_t id;			    /* the relay's number */
	struct lobby_player *player;	    /* its seat (NULL while joining) */
	struct lobby_spectator *spectator;  /* a spectator's; then no player */
	bool gone;			    /* replaced, or its relay said D */
	bool compact;
	bool replaced;	       /* send X after the queue, then free */
	bool lost;	       /* a message to it did not get there: send
				* L, and count it dropped */
	struct outqueue out;   /* held for the journal */
	bool unflushed;	       /* in cl->unflushed */
	struct list_node node; /* there */
};

/* One per process with --redis; owned by main.c. */
struct cluster {
	struct redis_link *link; /* commands; not owned */
	struct redis_link *sub;	 /* our channel */
	char id[INSTANCE_ID_MAX + 1];
	char channel[sizeof(SITE_CHANNEL_PREFIX) + INSTANCE_ID_MAX];
	struct hub *hub;
	struct journal *journal;
	struct cluster_sessions sessions;
	struct strmap waiting; /* uid -> ticket, TICKET_WAITING here */
	struct strmap asking;  /* uid -> ticket whose route is in flight */
	struct strmap relays;  /* id_text -> ticket, TICKET_RELAYED */
	struct strmap remotes; /* key -> struct cluster_remote */
	struct list unflushed; /* remotes with messages queued */
	struct list tickets;   /* every ticket, whoever holds it */
	uint64_t next_id;      /* the next relayed connection's number */
	bool (*claiming)(const void *ctx); /* rooms being taken over here */
	void *claiming_ctx;
	struct list deferred; /* struct cluster_deferred, meanwhile */
	uint64_t lease_ms;    /* the instances' lease */
	bool subscribed_once; /* the subscription came up before */
	uv_timer_t sweep;
	bool stopped;
	struct cluster_stats stats;
};

/*
 * A J for a seat not here while rooms are being taken over here: taken
 * again once they are seated (cluster_claims_done()).
 */
struct cluster_deferred {
	struct list_node node; /* in cl->deferred */
	char from[INSTANCE_ID_MAX + 1];
	uint64_t id;
	size_t len;
	char payload[]; /* len bytes */
};

/* An instance's liveness asked of Redis, until the answer. */
struct cluster_look {
	struct cluster *cl;
	char instance[INSTANCE_ID_MAX + 1];
};

/* --- sending ------------------------------------------------------- */

/*
 * Publishes "KIND ME ID\n" and payload on instance's channel, with
 * reply(data, ...) for PUBLISH's answer (NULL: none). Lost while Redis is
 * away (nothing is queued): -ENOTCONN then.
 */
static int cluster_publish(struct cluster *cl, const char *instance, char kind,
			   uint64_t id, const char *payload, size_t len,
			   redis_link_reply_fn reply, void *data)
{
	char channel[sizeof(SITE_CHANNEL_PREFIX) + INSTANCE_ID_MAX];
	char head[INSTANCE_ID_MAX + 32];
	int head_len;
	char *message;
	const char *argv[3];
	size_t argvlen[3];
	int err;

	snprintf(channel, sizeof(channel), "%s%s", SITE_CHANNEL_PREFIX,
		 instance);
	head_len = snprintf(head, sizeof(head), "%c %s %" PRIu64 "\n", kind,
			    cl->id, id);
	message = malloc((size_t)head_len + len);
	if (!message)
		return -ENOMEM;
	memcpy(message, head, (size_t)head_len);
	if (len)
		memcpy(message + head_len, payload, len);
	argv[0] = "PUBLISH";
	argvlen[0] = 7;
	argv[1] = channel;
	argvlen[1] = strlen(channel);
	argv[2] = message;
	argvlen[2] = (size_t)head_len + len;
	err = redis_link_command_argv(cl->link, reply, data, 3, argv, argvlen);
	if (!err)
		cl->stats.forwarded++;
	free(message);
	return err;
}

/* cluster_publish() with no answer wanted. */
static void cluster_send(struct cluster *cl, const char *instance, char kind,
			 uint64_t id, const char *payload, size_t len)
{
	cluster_publish(cl, instance, kind, id, payload, len, NULL, NULL);
}

/* Runs script with keys and args (NULL-terminated); reply as given. */
static int cluster_eval(struct cluster *cl, const char *script,
			const char *const *keys, const char *const *args,
			redis_link_reply_fn reply, void *data)
{
	const char *argv[12];
	size_t argvlen[12];
	char key_count[16];
	int argc = 0, nkeys = 0;

	while (keys[nkeys])
		nkeys++;
	snprintf(key_count, sizeof(key_count), "%d", nkeys);
	argv[argc++] = "EVAL";
	argv[argc++] = script;
	argv[argc++] = key_count;
	for (int i = 0; keys[i]; i++)
		argv[argc++] = keys[i];
	for (int i = 0; args[i] && argc < 12; i++)
		argv[argc++] = args[i];
	for (int i = 0; i < argc; i++)
		argvlen[i] = strlen(argv[i]);
	return redis_link_command_argv(cl->link, reply, data, argc, argv,
				       argvlen);
}

static void cluster_seat_key(char *out, size_t size, const char *uid)
{
	snprintf(out, size, "%s%s", SITE_SEAT_PREFIX, uid);
}

static void cluster_queue_key(char *out, size_t size, const char *pool_text)
{
	snprintf(out, size, "%s%s", SITE_QUEUE_PREFIX, pool_text);
}

/* --- the relay's side: routing, waiting, relaying ------------------- */

static void cluster_send(struct cluster *cl, const char *instance, char kind,
			 uint64_t id, const char *payload, size_t len);

/*
 * The sender of a stashed J ("FROM ID"): from (INSTANCE_ID_MAX + 1 bytes),
 * and its number returned; 0 (no number) when it is not of that form.
 */
static uint64_t cluster_stash_sender(const char *stash, char *from)
{
	const char *space = strchr(stash, ' ');

	if (!space || space == stash || space - stash > INSTANCE_ID_MAX)
		return 0;
	memcpy(from, stash, (size_t)(space - stash));
	from[space - stash] = '\0';
	return strtoull(space + 1, NULL, 10);
}

/* A stashed J that cannot be used: its sender routes again. */
static void cluster_stash_refuse(struct cluster *cl, struct cluster_ticket *t)
{
	char from[INSTANCE_ID_MAX + 1];
	uint64_t id;

	if (!t->stash)
		return;
	id = cluster_stash_sender(t->stash, from);
	if (id)
		cluster_send(cl, from, 'G', id, "", 0);
	free(t->stash);
	t->stash = NULL;
}

static void cluster_ticket_free(struct cluster *cl, struct cluster_ticket *t)
{
	cluster_stash_refuse(cl, t);
	if (strmap_get(&cl->asking, t->uid) == t)
		strmap_del(&cl->asking, t->uid);
	if (t->state == TICKET_WAITING && strmap_get(&cl->waiting, t->uid) == t)
		strmap_del(&cl->waiting, t->uid);
	if (t->state == TICKET_RELAYED)
		strmap_del(&cl->relays, t->id_text);
	list_remove(&cl->tickets, &t->node);
	free(t);
}

/* The lobby_join of t's fields. */
static struct lobby_join cluster_join_of(const struct cluster_ticket *t)
{
	return (struct lobby_join){
		.uid = t->uid,
		.name = t->name,
		.pool = &t->pool,
	};
}

/*
 * t plays here (with ai: the engine, at --ai-fill-level): seated in this
 * lobby, and no longer the cluster's.
 */
static void cluster_seat(struct cluster *cl, struct cluster_ticket *t, bool ai)
{
	struct cluster_ticket fields = *t; /* join points into it */
	struct lobby_join join = cluster_join_of(&fields);
	void *conn = t->conn;
	struct lobby_player *player;

	join.ai = ai;
	join.level = cl->hub->lobby.config.ai_fill_level;
	cluster_ticket_free(cl, t);
	player = hub_connect(cl->hub, &join, conn);
	cl->sessions.seated(cl->sessions.ctx, conn, player);
}

static void cluster_seat_here(struct cluster *cl, struct cluster_ticket *t)
{
	cluster_seat(cl, t, false);
}

static void cluster_tell(struct cluster *cl, void *conn, enum event_type type)
{
	struct event ev = { .type = type };

	cl->sessions.deliver(cl->sessions.ctx, conn, &ev);
}

/* A waiting session whose uid connected again: closed with 4001. */
static void cluster_replace_waiting(struct cluster *cl,
				    struct cluster_ticket *old)
{
	strmap_del(&cl->waiting, old->uid);
	old->state = TICKET_DONE;
	cluster_tell(cl, old->conn, EVENT_REPLACED);
}

static void cluster_ask_route(struct cluster *cl, struct cluster_ticket *t);

/* Sends t's join to owner (with partner: the player it was paired with). */
static void cluster_relay_to(struct cluster *cl, struct cluster_ticket *t,
			     const char *owner, const char *partner)
{
	char tc[TIME_CONTROL_TEXT_MAX];
	cJSON *join = cJSON_CreateObject();
	char *text;

	t->state = TICKET_RELAYED;
	snprintf(t->owner, sizeof(t->owner), "%s", owner);
	t->id = ++cl->next_id;
	snprintf(t->id_text, sizeof(t->id_text), "%" PRIu64, t->id);
	t->pairing = partner != NULL;
	t->pairing_until = clock_monotonic_ms() + CLUSTER_PAIR_TIMEOUT_MS;
	if (strmap_put(&cl->relays, t->id_text, t) || !join) {
		cJSON_Delete(join);
		t->state = TICKET_ROUTING;
		cl->sessions.close(cl->sessions.ctx, t->conn, 1011,
				   "out of memory");
		return;
	}
	time_control_format(t->pool.tc, tc, sizeof(tc));
	cJSON_AddStringToObject(join, "uid", t->uid);
	cJSON_AddStringToObject(join, "name", t->name);
	cJSON_AddNumberToObject(join, "size", t->pool.size);
	cJSON_AddStringToObject(join, "rule", rule_name(t->pool.rule));
	cJSON_AddStringToObject(join, "tc", tc);
	cJSON_AddBoolToObject(join, "compact", t->compact);
	if (t->invite[0])
		cJSON_AddStringToObject(join, "invite", t->invite);
	if (partner)
		cJSON_AddStringToObject(join, "partner", partner);
	text = cJSON_PrintUnformatted(join);
	cJSON_Delete(join);
	if (text)
		cluster_send(cl, owner, 'J', t->id, text, strlen(text));
	free(text);
}

/* Runs a script whose answer nobody waits for. */
static void cluster_eval_quietly(struct cluster *cl, const char *script,
				 const char *const *keys,
				 const char *const *args)
{
	cluster_eval(cl, script, keys, args, NULL, NULL);
}

/* t's player no longer waits: its seat and queue entry go. */
static void cluster_unwait(struct cluster *cl, const struct cluster_ticket *t)
{
	char seat[sizeof(SITE_SEAT_PREFIX) + UID_LEN];
	char queue[CLUSTER_KEY_MAX];
	const char *keys[] = { seat, queue, NULL };
	const char *args[] = { t->uid, cl->id, t->pool_text, NULL };

	cluster_seat_key(seat, sizeof(seat), t->uid);
	cluster_queue_key(queue, sizeof(queue), t->pool_text);
	cluster_eval_quietly(cl, cluster_unwait_script, keys, args);
}

/* The partner popped for t, which left meanwhile, waits again. */
static void cluster_requeue(struct cluster *cl, const struct cluster_ticket *t,
			    const char *partner, const char *instance)
{
	char seat[sizeof(SITE_SEAT_PREFIX) + UID_LEN];
	char own[sizeof(SITE_SEAT_PREFIX) + UID_LEN];
	char queue[CLUSTER_KEY_MAX];
	const char *keys[] = { seat, queue, own, NULL };
	const char *args[] = { partner, instance, t->pool_text, NULL };

	cluster_seat_key(seat, sizeof(seat), partner);
	cluster_seat_key(own, sizeof(own), t->uid);
	cluster_queue_key(queue, sizeof(queue), t->pool_text);
	cluster_eval_quietly(cl, cluster_requeue_script, keys, args);
}

/* The words of a route script's answer; false when it is none. */
static bool cluster_route_answer(const redisReply *reply, const char **kind,
				 const char **first, const char **second)
{
	*kind = *first = *second = NULL;
	if (!reply || reply->type != REDIS_REPLY_ARRAY || !reply->elements)
		return false;
	for (size_t i = 0; i < reply->elements && i < 3; i++)
		if (reply->element[i]->type != REDIS_REPLY_STRING ||
		    reply->element[i]->len > INSTANCE_ID_MAX ||
		    (i && !reply->element[i]->len))
			return false;
	*kind = reply->element[0]->str;
	if (reply->elements > 1)
		*first = reply->element[1]->str;
	if (reply->elements > 2)
		*second = reply->element[2]->str;
	return true;
}

static void cluster_on_join(struct cluster *cl, const char *from, uint64_t id,
			    const char *payload, size_t len);

/* The J stashed for t, now that t waits here: it pairs t at once. */
static void cluster_unstash(struct cluster *cl, struct cluster_ticket *t)
{
	char *stash = t->stash;
	size_t head = strlen(stash) + 1;
	char from[INSTANCE_ID_MAX + 1];
	uint64_t id = cluster_stash_sender(stash, from);

	t->stash = NULL;
	if (id)
		cluster_on_join(cl, from, id, stash + head, t->stash_len);
	free(stash);
}

static void cluster_on_route(void *data, const redisReply *reply)
{
	struct cluster_ticket *t = data;
	struct cluster *cl = t->cl;
	const char *kind, *first, *second;
	struct cluster_ticket *old;

	t->asking = false;
	if (strmap_get(&cl->asking, t->uid) == t)
		strmap_del(&cl->asking, t->uid);
	if (cl->stopped)
		return; /* its session or cluster_free() frees it */
	if (!cluster_route_answer(reply, &kind, &first, &second) ||
	    strcmp(kind, "wait"))
		cluster_stash_refuse(cl, t); /* only a waiting one pairs */
	if (!kind) {
		if (reply && reply->type == REDIS_REPLY_ERROR)
			log_warn("cluster: route: %s", reply->str);
		if (!t->conn) {
			cluster_ticket_free(cl, t);
			return;
		}
		/* Redis away: this instance's own players meet here. */
		cl->stats.routed_fallback++;
		cluster_seat_here(cl, t);
		return;
	}
	if (!strcmp(kind, "wait")) {
		if (!t->conn) {
			cluster_unwait(cl, t);
			cluster_ticket_free(cl, t);
			return;
		}
		old = strmap_get(&cl->waiting, t->uid);
		if (old)
			cluster_replace_waiting(cl, old);
		if (strmap_put(&cl->waiting, t->uid, t)) {
			cl->sessions.close(cl->sessions.ctx, t->conn, 1011,
					   "out of memory");
			return;
		}
		t->state = TICKET_WAITING;
		t->waiting_since = clock_monotonic_ms();
		cluster_tell(cl, t->conn, EVENT_WAITING);
		if (t->stash)
			cluster_unstash(cl, t);
		return;
	}
	if (!strcmp(kind, "here")) {
		if (!t->conn) {
			cluster_ticket_free(cl, t);
		} else if (lobby_find(&cl->hub->lobby, t->uid)) {
			cluster_seat_here(cl, t);
		} else if (t->here_tries++ < CLUSTER_HERE_TRIES) {
			t->held = true; /* a room being taken over here */
		} else {
			/* a record of a game that ended here: stale */
			snprintf(t->skip, sizeof(t->skip), "%s", cl->id);
			cluster_ask_route(cl, t);
		}
		return;
	}
	if (!strcmp(kind, "hold")) {
		/* the sweep asks again */
		if (!t->conn)
			cluster_ticket_free(cl, t);
		else
			t->held = true;
		return;
	}
	if (!strcmp(kind, "relay") && first) {
		if (!t->conn) {
			cluster_ticket_free(cl, t);
			return;
		}
		cluster_relay_to(cl, t, first, NULL);
		return;
	}
	if (!strcmp(kind, "pair") && first && second) {
		if (!t->conn) {
			cluster_requeue(cl, t, first, second);
			cluster_ticket_free(cl, t);
			return;
		}
		if (strcmp(second, cl->id)) {
			cl->stats.paired_remote++;
			cluster_relay_to(cl, t, second, first);
			return;
		}
		/* Both here: the waiting one first, then this one. */
		old = strmap_get(&cl->waiting, first);
		if (!old) {
			/* It left as it was popped: look again. */
			snprintf(t->skip, sizeof(t->skip), "%s", cl->id);
			cluster_ask_route(cl, t);
			return;
		}
		cluster_seat_here(cl, old);
		cluster_seat_here(cl, t);
		return;
	}
	log_warn("cluster: route: an answer of kind \"%.16s\"", kind);
	if (!t->conn)
		cluster_ticket_free(cl, t);
	else
		cluster_seat_here(cl, t);
}

/* Asks Redis where t's player goes (cluster_on_route()). */
static void cluster_ask_route(struct cluster *cl, struct cluster_ticket *t)
{
	char seat[sizeof(SITE_SEAT_PREFIX) + UID_LEN];
	char queue[CLUSTER_KEY_MAX];
	const char *keys[] = { seat, queue, NULL };
	const char *args[] = { t->uid, cl->id, t->pool_text, t->skip, NULL };

	if (t->state == TICKET_RELAYED)
		strmap_del(&cl->relays, t->id_text);
	t->state = TICKET_ROUTING;
	t->pairing = false;
	cluster_seat_key(seat, sizeof(seat), t->uid);
	cluster_queue_key(queue, sizeof(queue), t->pool_text);
	if (cluster_eval(cl, cluster_route_script, keys, args, cluster_on_route,
			 t) == 0) {
		t->asking = true;
		strmap_put(&cl->asking, t->uid, t); /* none: no stash */
		return;
	}
	/* Redis away: this instance's own players meet here. */
	cl->stats.routed_fallback++;
	cluster_seat_here(cl, t);
}

/*
 * A new ticket for the session conn, held by it (*ticket, set first), of
 * join's player (NULL: a spectator's). NULL on out of memory.
 */
static struct cluster_ticket *cluster_ticket_new(struct cluster *cl,
						 const struct lobby_join *join,
						 bool compact, void *conn,
						 struct cluster_ticket **ticket)
{
	struct cluster_ticket *t = calloc(1, sizeof(*t));
	char tc[TIME_CONTROL_TEXT_MAX];

	*ticket = t;
	if (!t)
		return NULL;
	t->cl = cl;
	list_append(&cl->tickets, &t->node);
	t->conn = conn;
	t->compact = compact;
	if (!join)
		return t;
	snprintf(t->uid, sizeof(t->uid), "%s", join->uid);
	snprintf(t->name, sizeof(t->name), "%s", join->name ? join->name : "");
	t->pool = join->pool ? *join->pool : cl->hub->lobby.default_pool->key;
	time_control_format(t->pool.tc, tc, sizeof(tc));
	snprintf(t->pool_text, sizeof(t->pool_text), "%d:%s:%s", t->pool.size,
		 rule_name(t->pool.rule), tc);
	return t;
}

int cluster_route(struct cluster *cl, const struct lobby_join *join,
		  bool compact, void *conn, struct cluster_ticket **ticket)
{
	struct cluster_ticket *t =
		cluster_ticket_new(cl, join, compact, conn, ticket);
	struct cluster_ticket *old;

	if (!t)
		return -ENOMEM;
	/* The same uid waiting here: this connection takes its place. */
	old = strmap_get(&cl->waiting, t->uid);
	if (old)
		cluster_replace_waiting(cl, old);
	cluster_ask_route(cl, t);
	return 0;
}

/*
 * A spectator or an invite's guest the site cannot place: told why (the
 * texts a single instance gives), and closed with 1008.
 */
static void cluster_refuse(struct cluster *cl, struct cluster_ticket *t,
			   enum error_code code)
{
	struct event ev = { .type = EVENT_ERROR, .code = code };

	switch (code) {
	case ERR_TOO_MANY_SPECTATORS:
		ev.text = "the room has as many spectators as it takes";
		break;
	case ERR_NO_SUCH_INVITE:
		ev.text = "no invite waits with that code: it was used, or "
			  "its player left";
		break;
	default:
		ev.code = ERR_NO_SUCH_ROOM;
		ev.text = "no open room has that id";
		break;
	}
	t->state = TICKET_DONE;
	cl->sessions.deliver(cl->sessions.ctx, t->conn, &ev);
	cl->sessions.close(cl->sessions.ctx, t->conn, 1008,
			   error_code_name(ev.code));
}

/*
 * A command whose answer nobody waits for: argc words, NUL-terminated
 * (keys and values here hold no NUL). Lost while Redis is away.
 */
static void cluster_command(struct cluster *cl, int argc, const char **argv)
{
	size_t argvlen[8];

	for (int i = 0; i < argc && i < 8; i++)
		argvlen[i] = strlen(argv[i]);
	redis_link_command_argv(cl->link, NULL, NULL, argc, argv, argvlen);
}

void cluster_invite_opened(struct cluster *cl, const char *code)
{
	char key[sizeof(SITE_INVITE_PREFIX) + INVITE_LEN];
	char ttl[16];
	const char *argv[] = { "SET", key, cl->id, "EX", ttl };

	snprintf(key, sizeof(key), "%s%s", SITE_INVITE_PREFIX, code);
	snprintf(ttl, sizeof(ttl), "%d", SITE_INVITE_TTL_S);
	cluster_command(cl, 5, argv);
}

/* An invite accepted here: its record goes. */
static void cluster_invite_used(struct cluster *cl, const char *code)
{
	char key[sizeof(SITE_INVITE_PREFIX) + INVITE_LEN];
	const char *argv[] = { "DEL", key };

	snprintf(key, sizeof(key), "%s%s", SITE_INVITE_PREFIX, code);
	cluster_command(cl, 2, argv);
}

static void cluster_on_room(void *data, const redisReply *reply)
{
	struct cluster_ticket *t = data;
	struct cluster *cl = t->cl;
	char payload[UID_LEN + 48];
	int len;

	t->asking = false;
	if (cl->stopped)
		return; /* its session or cluster_free() frees it */
	if (!t->conn) {
		cluster_ticket_free(cl, t);
		return;
	}
	if (!reply || reply->type != REDIS_REPLY_STRING ||
	    reply->len > INSTANCE_ID_MAX || !strcmp(reply->str, cl->id)) {
		cluster_refuse(cl, t,
			       t->watch ? ERR_NO_SUCH_ROOM :
					  ERR_NO_SUCH_INVITE);
		return;
	}
	if (!t->watch) {
		cluster_relay_to(cl, t, reply->str, NULL); /* an invite's */
		return;
	}
	t->state = TICKET_RELAYED;
	snprintf(t->owner, sizeof(t->owner), "%s", reply->str);
	t->id = ++cl->next_id;
	snprintf(t->id_text, sizeof(t->id_text), "%" PRIu64, t->id);
	if (strmap_put(&cl->relays, t->id_text, t)) {
		t->state = TICKET_DONE;
		cl->sessions.close(cl->sessions.ctx, t->conn, 1011,
				   "out of memory");
		return;
	}
	len = snprintf(payload, sizeof(payload),
		       "{\"room\":\"%s\",\"compact\":%s}", t->room,
		       t->compact ? "true" : "false");
	cluster_send(cl, t->owner, 'S', t->id, payload, (size_t)len);
}

/*
 * Looks up the live instance of record key (a room's, an invite's) for
 * t (cluster_on_room()); refused with code while Redis is away.
 */
static void cluster_ask_owner(struct cluster *cl, struct cluster_ticket *t,
			      const char *key, enum error_code code)
{
	const char *keys[] = { key, NULL };
	const char *args[] = { NULL };

	if (cluster_eval(cl, cluster_room_script, keys, args, cluster_on_room,
			 t) == 0)
		t->asking = true;
	else
		cluster_refuse(cl, t, code);
}

int cluster_watch(struct cluster *cl, const char *room, bool compact,
		  void *conn, struct cluster_ticket **ticket)
{
	struct cluster_ticket *t =
		cluster_ticket_new(cl, NULL, compact, conn, ticket);
	char key[sizeof(SITE_ROOM_PREFIX) + UID_LEN];

	if (!t)
		return -ENOMEM;
	t->watch = true;
	snprintf(t->room, sizeof(t->room), "%s", room);
	snprintf(key, sizeof(key), "%s%s", SITE_ROOM_PREFIX, room);
	cluster_ask_owner(cl, t, key, ERR_NO_SUCH_ROOM);
	return 0;
}

int cluster_invite(struct cluster *cl, const struct lobby_join *join,
		   bool compact, void *conn, struct cluster_ticket **ticket)
{
	struct cluster_ticket *t =
		cluster_ticket_new(cl, join, compact, conn, ticket);
	char key[sizeof(SITE_INVITE_PREFIX) + INVITE_LEN];

	if (!t)
		return -ENOMEM;
	snprintf(t->invite, sizeof(t->invite), "%s", join->invite);
	snprintf(key, sizeof(key), "%s%s", SITE_INVITE_PREFIX, t->invite);
	cluster_ask_owner(cl, t, key, ERR_NO_SUCH_INVITE);
	return 0;
}

/* A relayed client message's PUBLISH, until its answer. */
struct cluster_published {
	struct cluster *cl;
	char id_text[24]; /* the ticket's, in cl->relays */
};

/* The relayed session of id_text, told its message did not get there. */
static void cluster_unheard(struct cluster *cl, const char *id_text)
{
	struct cluster_ticket *t = strmap_get(&cl->relays, id_text);
	struct event ev = {
		.type = EVENT_ERROR,
		.code = ERR_UNAVAILABLE,
		.text = "the game's server cannot be reached: try again",
	};

	if (t && t->conn && t->state == TICKET_RELAYED)
		cl->sessions.deliver(cl->sessions.ctx, t->conn, &ev);
}

/* Nobody heard it (the owner's subscription is away): unavailable. */
static void cluster_on_published(void *data, const redisReply *reply)
{
	struct cluster_published *p = data;

	if (reply && reply->type == REDIS_REPLY_INTEGER &&
	    reply->integer == 0 && !p->cl->stopped)
		cluster_unheard(p->cl, p->id_text);
	free(p);
}

/*
 * A relayed client's message goes to its room's owner; when Redis is
 * away, or the owner does not hear it, the client is told `unavailable`
 * (what it asked for did not happen), as it would be there.
 */
static void cluster_forward(struct cluster *cl, struct cluster_ticket *t,
			    const char *text, size_t len)
{
	struct cluster_published *p = malloc(sizeof(*p));

	if (p) {
		p->cl = cl;
		snprintf(p->id_text, sizeof(p->id_text), "%s", t->id_text);
	}
	if (!cluster_publish(cl, t->owner, 'R', t->id, text, len,
			     p ? cluster_on_published : NULL, p))
		return;
	free(p);
	cluster_unheard(cl, t->id_text);
}

void cluster_message(struct cluster *cl, struct cluster_ticket *t,
		     const char *text, size_t len)
{
	struct request req;
	const char *why;
	enum error_code code;
	struct event ev = { .type = EVENT_ERROR };

	if (t->state == TICKET_RELAYED) {
		cluster_forward(cl, t, text, len);
		return;
	}
	if (t->state == TICKET_DONE)
		return;
	/* Not in a game yet: answered here, as the lobby would. */
	code = protocol_parse(text, len,
			      t->watch ? BOARD_DEFAULT_SIZE : t->pool.size,
			      &req, &why);
	if (code == ERR_NONE && req.type == REQUEST_PING) {
		cluster_tell(cl, t->conn, EVENT_PONG);
		return;
	}
	if (code == ERR_NONE && req.type == REQUEST_WINNER)
		return;
	ev.code = code == ERR_NONE ? ERR_NOT_IN_GAME : code;
	ev.text = code == ERR_NONE ? "you are not in a game yet" : why;
	cl->sessions.deliver(cl->sessions.ctx, t->conn, &ev);
}

void cluster_leave(struct cluster *cl, struct cluster_ticket *t, bool leaving)
{
	t->conn = NULL;
	switch (t->state) {
	case TICKET_ROUTING:
		if (t->asking)
			return; /* cluster_on_route() frees it */
		break;
	case TICKET_WAITING:
		cluster_unwait(cl, t); /* at SIGTERM too: route nobody here */
		if (t->filling)
			return; /* cluster_on_fill() frees it */
		break;
	case TICKET_RELAYED:
		/* At SIGTERM too: the owner keeps the seat for the grace. */
		cluster_send(cl, t->owner, 'D', t->id,
			     leaving && !cl->stopped ? "1" : "0", 1);
		break;
	case TICKET_DONE:
		break;
	}
	cluster_ticket_free(cl, t);
}

void cluster_seated_here(struct cluster *cl, const char *uid)
{
	char seat[sizeof(SITE_SEAT_PREFIX) + UID_LEN];
	char value[INSTANCE_ID_MAX + 3];
	const char *argv[] = { "SET", seat, value };

	cluster_seat_key(seat, sizeof(seat), uid);
	snprintf(value, sizeof(value), "p %s", cl->id);
	cluster_command(cl, 3, argv);
}

/* --- the owner's side: players of other instances ------------------ */

static struct cluster_remote *cluster_remote_new(struct cluster *cl,
						 const char *instance,
						 uint64_t id, bool compact)
{
	struct cluster_remote *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->kind = CONN_REMOTE;
	snprintf(r->instance, sizeof(r->instance), "%s", instance);
	r->id = id;
	snprintf(r->key, sizeof(r->key), "%s/%" PRIu64, instance, id);
	r->compact = compact;
	outqueue_init(&r->out);
	if (strmap_put(&cl->remotes, r->key, r)) {
		free(r);
		return NULL;
	}
	return r;
}

static void cluster_remote_free(struct cluster *cl, struct cluster_remote *r)
{
	if (strmap_get(&cl->remotes, r->key) == r)
		strmap_del(&cl->remotes, r->key);
	if (r->unflushed)
		list_remove(&cl->unflushed, &r->node);
	outqueue_release(&r->out);
	free(r);
}

/* Queues ev for r, held until the journal's commit (cluster_flush()). */
static void cluster_queue(struct cluster *cl, struct cluster_remote *r,
			  const struct event *ev)
{
	struct outbuf *buf = hub_encode(cl->hub, ev, r->compact);

	if (!buf) {
		log_error("cluster: out of memory encoding a message");
		return;
	}
	if (outqueue_push(&r->out, buf, journal_batch(cl->journal)) == 0 &&
	    !r->unflushed) {
		r->unflushed = true;
		list_append(&cl->unflushed, &r->node);
	}
	outbuf_put(buf);
}

void cluster_deliver(struct cluster *cl, void *conn, const struct event *ev)
{
	struct cluster_remote *r = conn;

	if (r->gone)
		return;
	if (ev->type == EVENT_REPLACED) {
		/* The lobby forgets r: X once what is queued has gone. */
		r->player = NULL;
		r->gone = true;
		r->replaced = true;
		if (!r->unflushed) {
			r->unflushed = true;
			list_append(&cl->unflushed, &r->node);
		}
		return;
	}
	cluster_queue(cl, r, ev);
}

/* An E's PUBLISH, until its answer. */
struct cluster_told {
	struct cluster *cl;
	char key[CLUSTER_CONN_KEY_MAX]; /* the remote's */
};

/* r missed a message: it is resynced by a reconnection (L), soon. */
static void cluster_mark_lost(struct cluster *cl, struct cluster_remote *r)
{
	if (r->lost || r->gone)
		return;
	r->lost = true;
	if (!r->unflushed) {
		r->unflushed = true;
		list_append(&cl->unflushed, &r->node);
	}
}

/* Nobody heard an E (the relay's subscription was away): resync. */
static void cluster_on_told(void *data, const redisReply *reply)
{
	struct cluster_told *told = data;
	struct cluster_remote *r;

	if (reply && reply->type == REDIS_REPLY_INTEGER &&
	    reply->integer == 0 && !told->cl->stopped) {
		r = strmap_get(&told->cl->remotes, told->key);
		if (r)
			cluster_mark_lost(told->cl, r);
	}
	free(told);
}

/* What cluster_flush_one() did with a remote. */
enum cluster_flushed {
	FLUSH_HELD,  /* some wait for the journal (or Redis): later */
	FLUSH_DONE,  /* all went */
	FLUSH_FREED, /* it missed a message: told to reconnect, and freed */
};

static void cluster_on_gone(struct cluster *cl, const char *key, bool leaving);

/*
 * Sends what r holds that the journal has saved. A
 * message that cannot be sent (Redis away), or that the relay did not
 * hear, leaves its player behind: the relay is told to close its
 * session with 1012 (L) once Redis takes messages again, and the page
 * resumes the seat from the whole position.
 */
static enum cluster_flushed cluster_flush_one(struct cluster *cl,
					      struct cluster_remote *r)
{
	struct outentry *msg;
	struct cluster_told *told;

	while (!r->lost && (msg = outqueue_peek(&r->out)) &&
	       journal_durable(cl->journal, msg->batch)) {
		told = malloc(sizeof(*told));
		if (told) {
			told->cl = cl;
			snprintf(told->key, sizeof(told->key), "%s", r->key);
		}
		if (cluster_publish(cl, r->instance, 'E', r->id,
				    outbuf_payload(msg->buf), msg->buf->len,
				    told ? cluster_on_told : NULL, told)) {
			free(told);
			r->lost = true;
		}
		outqueue_pop(&r->out);
	}
	if (r->lost) {
		while (outqueue_peek(&r->out))
			outqueue_pop(&r->out);
		if (cluster_publish(cl, r->instance, 'L', r->id, "", 0, NULL,
				    NULL))
			return FLUSH_HELD; /* Redis away: later */
		cluster_on_gone(cl, r->key, false);
		return FLUSH_FREED;
	}
	return outqueue_peek(&r->out) ? FLUSH_HELD : FLUSH_DONE;
}

void cluster_flush(struct cluster *cl)
{
	struct list_node *node = cl->unflushed.head;

	while (node) {
		struct cluster_remote *r =
			list_entry(node, struct cluster_remote, node);
		enum cluster_flushed flushed;

		node = node->next;
		flushed = cluster_flush_one(cl, r);
		if (flushed != FLUSH_DONE)
			continue; /* the journal is failing, or r is gone */
		list_remove(&cl->unflushed, &r->node);
		r->unflushed = false;
		if (r->replaced) {
			cluster_send(cl, r->instance, 'X', r->id, "", 0);
			cluster_remote_free(cl, r);
		}
	}
}

/* --- messages received --------------------------------------------- */

/* A J message's fields; false when one is missing or bad. */
static bool cluster_read_join(const cJSON *json, struct cluster_ticket *t,
			      char partner[UID_LEN + 1])
{
	const cJSON *uid = cJSON_GetObjectItemCaseSensitive(json, "uid");
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(json, "name");
	const cJSON *size = cJSON_GetObjectItemCaseSensitive(json, "size");
	const cJSON *rule = cJSON_GetObjectItemCaseSensitive(json, "rule");
	const cJSON *tc = cJSON_GetObjectItemCaseSensitive(json, "tc");
	const cJSON *compact =
		cJSON_GetObjectItemCaseSensitive(json, "compact");
	const cJSON *with = cJSON_GetObjectItemCaseSensitive(json, "partner");
	const cJSON *invite = cJSON_GetObjectItemCaseSensitive(json, "invite");

	partner[0] = '\0';
	if (!cJSON_IsString(uid) ||
	    !identity_check_uid(uid->valuestring, t->uid) ||
	    !cJSON_IsString(name) ||
	    (name->valuestring[0] &&
	     !identity_check_name(name->valuestring, t->name)) ||
	    !cJSON_IsNumber(size) || size->valueint < BOARD_MIN_SIZE ||
	    size->valueint > BOARD_MAX_SIZE || !cJSON_IsString(rule) ||
	    !rule_parse(rule->valuestring, &t->pool.rule) ||
	    !cJSON_IsString(tc) ||
	    !time_control_parse(tc->valuestring, &t->pool.tc))
		return false;
	t->pool.size = size->valueint;
	t->compact = cJSON_IsTrue(compact);
	if (with && (!cJSON_IsString(with) ||
		     !identity_check_uid(with->valuestring, partner)))
		return false;
	if (invite) {
		if (!cJSON_IsString(invite) ||
		    !identity_check_invite(invite->valuestring))
			return false;
		snprintf(t->invite, sizeof(t->invite), "%s",
			 invite->valuestring);
	}
	return true;
}

/* J: a player of instance from joins here (paired, or resuming). */
/*
 * While rooms are being taken over here, a J whose seat is not here yet
 * waits for them; true when it does.
 */
static bool cluster_defer(struct cluster *cl, const char *from, uint64_t id,
			  const char *payload, size_t len)
{
	struct cluster_deferred *d;

	if (!cl->claiming || !cl->claiming(cl->claiming_ctx))
		return false;
	d = malloc(sizeof(*d) + len);
	if (!d)
		return false;
	snprintf(d->from, sizeof(d->from), "%s", from);
	d->id = id;
	d->len = len;
	memcpy(d->payload, payload, len);
	list_append(&cl->deferred, &d->node);
	return true;
}

void cluster_set_claims(struct cluster *cl, bool (*claiming)(const void *ctx),
			void *ctx)
{
	cl->claiming = claiming;
	cl->claiming_ctx = ctx;
}

void cluster_claims_done(void *ctx)
{
	struct cluster *cl = ctx;
	struct list waiting = cl->deferred;
	struct cluster_deferred *d;

	cl->deferred = (struct list){ 0 };
	if (waiting.head)
		waiting.head->prev = NULL;
	while ((d = list_first(&waiting, struct cluster_deferred, node))) {
		list_remove(&waiting, &d->node);
		if (!cl->stopped)
			cluster_on_join(cl, d->from, d->id, d->payload, d->len);
		free(d);
	}
}

static void cluster_on_join(struct cluster *cl, const char *from, uint64_t id,
			    const char *payload, size_t len)
{
	cJSON *json = cJSON_ParseWithLength(payload, len);
	struct cluster_ticket fields = { 0 };
	char partner[UID_LEN + 1];
	struct lobby_join join;
	struct cluster_remote *r;
	struct cluster_ticket *waiter;

	if (!json || !cluster_read_join(json, &fields, partner)) {
		cJSON_Delete(json);
		log_warn("cluster: a bad join from instance %s", from);
		return;
	}
	cJSON_Delete(json);
	if (partner[0]) {
		waiter = strmap_get(&cl->asking, partner);
		if (waiter && !waiter->stash) {
			/* Popped before its own answer came: soon. */
			size_t head = strlen(from) + 24;

			waiter->stash = malloc(head + len);
			if (waiter->stash) {
				int n = snprintf(waiter->stash, head,
						 "%s %" PRIu64, from, id);

				memcpy(waiter->stash + n + 1, payload, len);
				waiter->stash_len = len;
				return;
			}
		}
		waiter = strmap_get(&cl->waiting, partner);
		if (!waiter || waiter->state != TICKET_WAITING) {
			cluster_send(cl, from, 'G', id, "", 0);
			return;
		}
		cluster_seat_here(cl, waiter); /* the waiting one first */
	} else if (!fields.invite[0] &&
		   !lobby_find(&cl->hub->lobby, fields.uid)) {
		if (!cluster_defer(cl, from, id, payload, len))
			cluster_send(cl, from, 'N', id, "", 0);
		return;
	}
	r = cluster_remote_new(cl, from, id, fields.compact);
	if (!r) {
		log_error("cluster: out of memory for a remote player");
		return;
	}
	join = cluster_join_of(&fields);
	if (fields.invite[0])
		join.invite = fields.invite;
	r->player = hub_connect(cl->hub, &join, r);
	if (!r->player) {
		cluster_remote_free(cl, r);
		if (fields.invite[0]) {
			char code[16];

			snprintf(code, sizeof(code), "%d",
				 (int)ERR_NO_SUCH_INVITE);
			cluster_send(cl, from, 'V', id, code, strlen(code));
		}
		return;
	}
	if (fields.invite[0]) {
		cluster_seated_here(cl, fields.uid);
		cluster_invite_used(cl, fields.invite);
	}
}

/* R: a client message of a remote player, read as the session would. */
static void cluster_on_request(struct cluster *cl, const char *key,
			       const char *payload, size_t len)
{
	struct cluster_remote *r = strmap_get(&cl->remotes, key);
	struct request req;
	const char *why;
	enum error_code code;

	if (!r || r->gone || (!r->player && !r->spectator))
		return;
	code = protocol_parse(payload, len,
			      r->player ? lobby_player_board_size(r->player) :
					  BOARD_DEFAULT_SIZE,
			      &req, &why);
	if (code != ERR_NONE) {
		struct event ev = { .type = EVENT_ERROR,
				    .code = code,
				    .text = why };

		cluster_queue(cl, r, &ev);
		return;
	}
	if (r->spectator)
		hub_spectator_request(cl->hub, r->spectator, &req);
	else
		hub_request(cl->hub, r->player, &req);
}

/* D: a remote player's connection closed. */
static void cluster_on_gone(struct cluster *cl, const char *key, bool leaving)
{
	struct cluster_remote *r = strmap_get(&cl->remotes, key);
	struct lobby_player *player;

	if (!r)
		return;
	player = r->player;
	r->player = NULL; /* nothing more for it */
	r->gone = true;
	if (player)
		hub_disconnect(cl->hub, player, leaving);
	if (r->spectator)
		hub_unwatch(cl->hub, r->spectator);
	r->spectator = NULL;
	cluster_remote_free(cl, r);
}

/* E, X, N, G: for a session here that plays on another instance. */
static void cluster_on_relayed(struct cluster *cl, char kind, const char *from,
			       const char *id_text, const char *payload,
			       size_t len)
{
	struct cluster_ticket *t = strmap_get(&cl->relays, id_text);

	if (!t || !t->conn || strcmp(t->owner, from))
		return; /* closed, or from an owner it left */
	switch (kind) {
	case 'E':
		t->pairing = false; /* the room is made */
		cl->sessions.relay(cl->sessions.ctx, t->conn, payload, len);
		return;
	case 'X':
		strmap_del(&cl->relays, t->id_text);
		t->state = TICKET_DONE;
		cluster_tell(cl, t->conn, EVENT_REPLACED);
		return;
	case 'L':
		cl->sessions.close(cl->sessions.ctx, t->conn, 1012,
				   "messages were lost: connect again");
		return;
	case 'V':
		/* Refused by the owner: a spectator, or an invite's guest. */
		strmap_del(&cl->relays, t->id_text);
		cluster_refuse(cl, t,
			       (enum error_code)strtol(payload, NULL, 10));
		return;
	case 'N':
	case 'G':
		/* A stale seat, or a partner gone: look again. */
		snprintf(t->skip, sizeof(t->skip), "%s", from);
		cluster_ask_route(cl, t);
		return;
	}
}

/* S: a spectator of instance from watches a room here. */
static void cluster_on_watch(struct cluster *cl, const char *from, uint64_t id,
			     const char *payload, size_t len)
{
	cJSON *json = cJSON_ParseWithLength(payload, len);
	const cJSON *room = cJSON_GetObjectItemCaseSensitive(json, "room");
	char room_id[UID_LEN + 1], code_text[16];
	enum error_code code = ERR_NO_SUCH_ROOM;
	struct cluster_remote *r;

	if (!cJSON_IsString(room) ||
	    !identity_check_uid(room->valuestring, room_id)) {
		cJSON_Delete(json);
		log_warn("cluster: a bad watch from instance %s", from);
		return;
	}
	r = cluster_remote_new(cl, from, id,
			       cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
				       json, "compact")));
	cJSON_Delete(json);
	if (r)
		r->spectator = hub_watch(cl->hub, room_id, r, &code);
	if (r && r->spectator)
		return;
	if (r)
		cluster_remote_free(cl, r);
	snprintf(code_text, sizeof(code_text), "%d", (int)code);
	cluster_send(cl, from, 'V', id, code_text, strlen(code_text));
}

/* A message on our channel: "KIND FROM ID\n" and its payload. */
static void cluster_on_message(void *data, const char *message, size_t len)
{
	struct cluster *cl = data;
	const char *newline = memchr(message, '\n', len);
	char from[INSTANCE_ID_MAX + 1], id_text[24], key[CLUSTER_CONN_KEY_MAX];
	const char *payload;
	size_t payload_len;
	char kind;
	uint64_t id;

	if (!newline || newline - message > (ptrdiff_t)sizeof(key) ||
	    sscanf(message, "%c %64s %23s", &kind, from, id_text) != 3)
		return;
	payload = newline + 1;
	payload_len = len - (size_t)(payload - message);
	id = strtoull(id_text, NULL, 10);
	cl->stats.received++;
	if (cl->stopped)
		return;
	snprintf(key, sizeof(key), "%s/%s", from, id_text);
	switch (kind) {
	case 'J':
		cluster_on_join(cl, from, id, payload, payload_len);
		return;
	case 'R':
		cluster_on_request(cl, key, payload, payload_len);
		return;
	case 'S':
		cluster_on_watch(cl, from, id, payload, payload_len);
		return;
	case 'D':
		cluster_on_gone(cl, key, payload_len && payload[0] == '1');
		return;
	case 'W': {
		char uid[UID_LEN + 1];
		struct cluster_ticket *old;

		snprintf(uid, sizeof(uid), "%.*s", (int)payload_len, payload);
		old = strmap_get(&cl->waiting, uid);
		if (old)
			cluster_replace_waiting(cl, old);
		return;
	}
	default:
		cluster_on_relayed(cl, kind, from, id_text, payload,
				   payload_len);
		return;
	}
}

/* --- the liveness sweep -------------------------------------------- */

/* Closes relayed sessions whose owner is instance, or routes them again. */
static void cluster_owner_lost(void *ctx, const char *key, void *value)
{
	struct cluster_look *look = ctx;
	struct cluster_ticket *t = value;

	(void)key;
	if (!strcmp(t->owner, look->instance) && t->conn)
		look->cl->sessions.close(look->cl->sessions.ctx, t->conn, 1012,
					 "the game's server is gone");
}

/* What a look at instance collects: the remote players it relays. */
struct cluster_collect {
	const char *instance;
	struct cluster_remote **found;
	size_t count, cap;
};

static void cluster_collect_remote(void *ctx, const char *key, void *value)
{
	struct cluster_collect *collect = ctx;
	struct cluster_remote *r = value;
	struct cluster_remote **grown;

	(void)key;
	if (strcmp(r->instance, collect->instance))
		return;
	if (collect->count == collect->cap) {
		collect->cap = collect->cap ? collect->cap * 2 : 16;
		grown = realloc(collect->found,
				collect->cap * sizeof(*collect->found));
		if (!grown)
			return;
		collect->found = grown;
	}
	collect->found[collect->count++] = r;
}

/* The remote players of a relay that died: dropped, with their grace. */
static void cluster_relay_lost(struct cluster *cl, const char *instance)
{
	struct cluster_collect collect = { .instance = instance };

	strmap_each(&cl->remotes, cluster_collect_remote, &collect);
	if (collect.count)
		log_warn("cluster: instance %s is gone: its %zu players here "
			 "are away",
			 instance, collect.count);
	for (size_t i = 0; i < collect.count; i++)
		cluster_on_gone(cl, collect.found[i]->key, false);
	free(collect.found);
}

static void cluster_on_look(void *data, const redisReply *reply)
{
	struct cluster_look *look = data;
	struct cluster *cl = look->cl;

	/* Redis just came back: the instances are taking their leases. */
	if (reply && reply->type == REDIS_REPLY_INTEGER &&
	    reply->integer == 0 && !cl->stopped &&
	    redis_link_settled(cl->link, cl->lease_ms)) {
		strmap_each(&cl->relays, cluster_owner_lost, look);
		cluster_relay_lost(cl, look->instance);
	}
	free(look);
}

/* Asks once whether instance still holds its lease (cluster_on_look()). */
static void cluster_look(struct cluster *cl, struct strmap *asked,
			 const char *instance)
{
	struct cluster_look *look;

	if (!strcmp(instance, cl->id) || strmap_get(asked, instance))
		return;
	if (strmap_put(asked, instance, cl))
		return;
	look = calloc(1, sizeof(*look));
	if (!look)
		return;
	look->cl = cl;
	snprintf(look->instance, sizeof(look->instance), "%s", instance);
	if (redis_link_command(cl->link, cluster_on_look, look,
			       "EXISTS " INSTANCE_KEY_PREFIX "%s", instance))
		free(look);
}

static void cluster_on_fill(void *data, const redisReply *reply)
{
	struct cluster_ticket *t = data;
	struct cluster *cl = t->cl;

	t->filling = false;
	if (cl->stopped)
		return; /* its session or cluster_free() frees it */
	if (!t->conn) {
		cluster_ticket_free(cl, t);
		return;
	}
	if (!reply || reply->type != REDIS_REPLY_INTEGER ||
	    reply->integer != 1 || t->state != TICKET_WAITING)
		return; /* being paired, or Redis away: it waits on */
	cluster_seat(cl, t, true);
}

/* A player who waited --ai-fill-after: the engine's, if still waiting. */
static void cluster_fill(struct cluster *cl, struct cluster_ticket *t)
{
	char seat[sizeof(SITE_SEAT_PREFIX) + UID_LEN];
	char queue[CLUSTER_KEY_MAX];
	const char *keys[] = { seat, queue, NULL };
	const char *args[] = { t->uid, cl->id, t->pool_text, NULL };

	cluster_seat_key(seat, sizeof(seat), t->uid);
	cluster_queue_key(queue, sizeof(queue), t->pool_text);
	if (cluster_eval(cl, cluster_fill_script, keys, args, cluster_on_fill,
			 t) == 0)
		t->filling = true;
}

/* The sweep's walk: owners of relayed sessions, and pairs timed out. */
struct cluster_walk {
	struct cluster *cl;
	struct strmap *asked;
	uint64_t now;
	struct cluster_ticket **late; /* pairs past their time */
	size_t late_count, late_cap;
	struct cluster_ticket **due; /* waited --ai-fill-after */
	size_t due_count, due_cap;
};

/* Adds t to a growing array; false on out of memory (t left out). */
static bool cluster_push(struct cluster_ticket ***array, size_t *count,
			 size_t *cap, struct cluster_ticket *t)
{
	struct cluster_ticket **grown;

	if (*count == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		grown = realloc(*array, *cap * sizeof(**array));
		if (!grown)
			return false;
		*array = grown;
	}
	(*array)[(*count)++] = t;
	return true;
}

static void cluster_walk_waiting(void *ctx, const char *key, void *value)
{
	struct cluster_walk *walk = ctx;
	struct cluster_ticket *t = value;
	uint64_t fill = walk->cl->hub->lobby.config.ai_fill_after_ms;

	(void)key;
	if (fill && !t->filling && t->conn &&
	    t->waiting_since + fill <= walk->now)
		cluster_push(&walk->due, &walk->due_count, &walk->due_cap, t);
}

static void cluster_walk_relay(void *ctx, const char *key, void *value)
{
	struct cluster_walk *walk = ctx;
	struct cluster_ticket *t = value;

	(void)key;
	cluster_look(walk->cl, walk->asked, t->owner);
	if (!t->pairing || walk->now < t->pairing_until || !t->conn)
		return;
	cluster_push(&walk->late, &walk->late_count, &walk->late_cap, t);
}

static void cluster_walk_remote(void *ctx, const char *key, void *value)
{
	struct cluster_walk *walk = ctx;
	struct cluster_remote *r = value;

	(void)key;
	cluster_look(walk->cl, walk->asked, r->instance);
}

/* The tickets told to hold, routed again. */
static void cluster_route_held(struct cluster *cl)
{
	struct list_node *node = cl->tickets.head;

	while (node) {
		struct cluster_ticket *t =
			list_entry(node, struct cluster_ticket, node);

		node = node->next;
		if (!t->held || t->asking || t->state != TICKET_ROUTING)
			continue;
		t->held = false;
		if (t->conn)
			cluster_ask_route(cl, t);
	}
}

static void cluster_on_sweep(uv_timer_t *timer)
{
	struct cluster *cl = timer->data;
	struct strmap asked;
	struct cluster_walk walk = { .cl = cl,
				     .asked = &asked,
				     .now = clock_monotonic_ms() };

	if (cl->stopped)
		return;
	strmap_init(&asked);
	strmap_each(&cl->relays, cluster_walk_relay, &walk);
	strmap_each(&cl->remotes, cluster_walk_remote, &walk);
	strmap_each(&cl->waiting, cluster_walk_waiting, &walk);
	strmap_release(&asked);
	for (size_t i = 0; i < walk.due_count; i++)
		cluster_fill(cl, walk.due[i]);
	free(walk.due);
	for (size_t i = 0; i < walk.late_count; i++) {
		struct cluster_ticket *t = walk.late[i];

		log_warn("cluster: no room from instance %s within %d ms: "
			 "routing uid=" LOG_ID " again",
			 t->owner, CLUSTER_PAIR_TIMEOUT_MS, LOG_ID_ARG(t->uid));
		snprintf(t->skip, sizeof(t->skip), "%s", t->owner);
		cluster_ask_route(cl, t);
	}
	free(walk.late);
	cluster_route_held(cl);
}

/* A ticket that may have missed messages: its page connects again. */
static void cluster_resync_one(struct cluster *cl, struct cluster_ticket *t)
{
	if (!t->conn ||
	    (t->state != TICKET_RELAYED && t->state != TICKET_WAITING))
		return;
	cl->sessions.close(cl->sessions.ctx, t->conn, 1012,
			   "the site's Redis was away: connect again");
}

/*
 * The subscription is up. Again after a drop: whatever was published to
 * this instance meanwhile is lost (a board, a pairing), so every session
 * relayed elsewhere or waiting in the site's queue is closed with 1012:
 * its page connects again and resumes the seat from the whole position,
 * or queues again.
 */
static void cluster_on_subscribed(void *data)
{
	struct cluster *cl = data;
	struct list_node *node;

	if (!cl->subscribed_once) {
		cl->subscribed_once = true;
		return;
	}
	if (cl->stopped)
		return;
	log_warn("cluster: subscribed again after a drop: relayed and "
		 "waiting players connect again");
	for (node = cl->tickets.head; node; node = node->next)
		cluster_resync_one(cl, list_entry(node, struct cluster_ticket,
						  node));
}

/* --- life ------------------------------------------------------------ */

struct cluster *cluster_new(uv_loop_t *loop, struct redis_link *link,
			    const struct redis_url *url, const char *id,
			    uint64_t lease_ms, struct hub *hub,
			    struct journal *journal,
			    struct cluster_sessions sessions)
{
	struct cluster *cl = calloc(1, sizeof(*cl));
	struct redis_link_subscription sub;

	if (!cl)
		return NULL;
	cl->link = link;
	cl->lease_ms = lease_ms;
	snprintf(cl->id, sizeof(cl->id), "%s", id);
	snprintf(cl->channel, sizeof(cl->channel), "%s%s", SITE_CHANNEL_PREFIX,
		 id);
	cl->hub = hub;
	cl->journal = journal;
	cl->sessions = sessions;
	sub = (struct redis_link_subscription){ .channel = cl->channel,
						.message = cluster_on_message,
						.data = cl };
	cl->sub = redis_link_new(loop, url, &sub);
	if (!cl->sub) {
		free(cl);
		return NULL;
	}
	redis_link_on_up(cl->sub, cluster_on_subscribed, cl);
	uv_timer_init(loop, &cl->sweep);
	cl->sweep.data = cl;
	uv_timer_start(&cl->sweep, cluster_on_sweep, CLUSTER_SWEEP_MS,
		       CLUSTER_SWEEP_MS);
	return cl;
}

void cluster_stop(struct cluster *cl)
{
	cl->stopped = true;
	uv_timer_stop(&cl->sweep);
}

static void cluster_free_remote(void *ctx, const char *key, void *value)
{
	struct cluster_remote *r = value;

	(void)ctx;
	(void)key;
	outqueue_release(&r->out);
	free(r);
}

static void cluster_closed(uv_handle_t *handle)
{
	struct cluster *cl = handle->data;
	struct cluster_ticket *t;
	struct cluster_deferred *d;

	strmap_each(&cl->remotes, cluster_free_remote, NULL);
	while ((d = list_first(&cl->deferred, struct cluster_deferred, node))) {
		list_remove(&cl->deferred, &d->node);
		free(d);
	}
	while ((t = list_first(&cl->tickets, struct cluster_ticket, node))) {
		list_remove(&cl->tickets, &t->node);
		free(t->stash);
		free(t);
	}
	strmap_release(&cl->remotes);
	strmap_release(&cl->relays);
	strmap_release(&cl->waiting);
	strmap_release(&cl->asking);
	free(cl);
}

void cluster_free(struct cluster *cl)
{
	if (!cl)
		return;
	cluster_stop(cl);
	redis_link_free(cl->sub);
	uv_close((uv_handle_t *)&cl->sweep, cluster_closed);
}

void cluster_stats(const struct cluster *cl, struct cluster_stats *out)
{
	*out = cl->stats;
	out->waiting = cl->waiting.count;
	out->relayed = cl->relays.count;
	out->remote = cl->remotes.count;
}

/* What cluster_each_waiting() calls for each ticket. */
struct cluster_each {
	void (*fn)(void *ctx, const struct lobby_pool_key *pool);
	void *ctx;
};

static void cluster_each_ticket(void *ctx, const char *key, void *value)
{
	const struct cluster_each *each = ctx;
	const struct cluster_ticket *t = value;

	(void)key;
	each->fn(each->ctx, &t->pool);
}

void cluster_each_waiting(const struct cluster *cl,
			  void (*fn)(void *ctx,
				     const struct lobby_pool_key *pool),
			  void *ctx)
{
	struct cluster_each each = { fn, ctx };

	strmap_each(&cl->waiting, cluster_each_ticket, &each);
}
