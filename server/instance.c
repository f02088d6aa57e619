/*
 * instance.c - this instance's id and its lease in the site's Redis (see
 * instance.h).
 */
#include "instance.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "log.h"

/*
 * Takes the lease when nobody holds it, keeps it when this process does
 * (its token), and leaves another's alone: 1 held, 0 refused. One script
 * for the first try and every renewal, so that a lease found again after
 * Redis came back (AOF) is simply kept.
 */
static const char instance_keep_script[] =
	"local held = redis.call('GET', KEYS[1]) "
	"if held == false or held == ARGV[1] then "
	"redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end "
	"return 0";

/* Deletes the lease only while this process holds it. */
static const char instance_release_script[] =
	"if redis.call('GET', KEYS[1]) == ARGV[1] then "
	"return redis.call('DEL', KEYS[1]) end return 0";

/* One per process with --redis; owned by main.c. */
struct instance {
	struct redis_link *link; /* the site's Redis; not owned */
	uint64_t (*now_ms)(void);
	char id[INSTANCE_ID_MAX + 1];
	char key[sizeof(INSTANCE_KEY_PREFIX) + INSTANCE_ID_MAX];
	char token[INSTANCE_TOKEN_LEN + 1]; /* this process's, random */
	uint64_t lease_ms;		    /* the key's time to live */
	uv_timer_t timer;		    /* every third of lease_ms */
	uint64_t held_until; /* now_ms() when the lease lapses; 0: not
				* held */
	uint64_t asked_at;   /* when the try in flight was sent */
	bool asking;	     /* a try is in flight */
	bool refused_said;   /* the wait for another's lease was logged */
	bool releasing;	     /* the release is in flight */
	bool released;	     /* instance_release(): no more tries */
	struct instance_stats stats;
};

bool instance_id_valid(const char *id)
{
	size_t len = strlen(id);

	if (!len || len > INSTANCE_ID_MAX)
		return false;
	for (const char *c = id; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '.' || *c == '_' ||
		      *c == '-'))
			return false;
	return true;
}

/* Whether the lease is held now: answered in time, and not lapsed since. */
static bool instance_held(const struct instance *inst)
{
	return inst->held_until && inst->now_ms() < inst->held_until;
}

/* Notes a lease that lapsed while held (said once). */
static void instance_check_lapse(struct instance *inst)
{
	if (!inst->held_until || instance_held(inst))
		return;
	inst->held_until = 0;
	inst->stats.losses++;
	log_warn("instance %s: its lease lapsed (not renewed within %llu ms)",
		 inst->id, (unsigned long long)inst->lease_ms);
}

static void instance_give_back(struct instance *inst);

static void instance_on_keep(void *data, const redisReply *reply)
{
	struct instance *inst = data;

	inst->asking = false;
	if (!reply)
		return; /* the connection went */
	if (inst->released) {
		/* Taken or kept just as SIGTERM came: give it back too. */
		if (reply->type == REDIS_REPLY_INTEGER && reply->integer == 1)
			instance_give_back(inst);
		return;
	}
	if (reply->type == REDIS_REPLY_ERROR) {
		log_warn("instance %s: lease: %s", inst->id, reply->str);
		return;
	}
	if (reply->type != REDIS_REPLY_INTEGER)
		return;
	instance_check_lapse(inst);
	if (reply->integer == 1) {
		if (!inst->held_until)
			log_info("instance %s: holds its lease (%llu ms)",
				 inst->id, (unsigned long long)inst->lease_ms);
		/* Counted from the asking: Redis' clock began no earlier. */
		inst->held_until = inst->asked_at + inst->lease_ms;
		inst->refused_said = false;
		inst->stats.renewals++;
		return;
	}
	inst->held_until = 0;
	inst->stats.refusals++;
	if (!inst->refused_said)
		log_warn("instance %s: another process holds this id; waiting "
			 "for its lease to lapse",
			 inst->id);
	inst->refused_said = true;
}

/* One try to take or keep the lease, unless one is in flight. */
static void instance_ask(struct instance *inst)
{
	instance_check_lapse(inst);
	if (inst->asking || inst->released)
		return;
	inst->asked_at = inst->now_ms();
	if (redis_link_command(inst->link, instance_on_keep, inst,
			       "EVAL %s 1 %s %s %llu", instance_keep_script,
			       inst->key, inst->token,
			       (unsigned long long)inst->lease_ms) == 0)
		inst->asking = true;
}

static void instance_on_tick(uv_timer_t *timer)
{
	instance_ask(timer->data);
}

/* Redis is back: ask at once rather than at the next tick. */
static void instance_on_up(void *data)
{
	instance_ask(data);
}

struct instance *instance_new(uv_loop_t *loop, struct redis_link *link,
			      const char *id, const char *token,
			      uint64_t lease_ms, uint64_t (*now_ms)(void))
{
	struct instance *inst = calloc(1, sizeof(*inst));
	uint64_t every = lease_ms / 3 ? lease_ms / 3 : 1;

	if (!inst)
		return NULL;
	inst->link = link;
	inst->now_ms = now_ms ? now_ms : clock_monotonic_ms;
	snprintf(inst->id, sizeof(inst->id), "%s", id);
	snprintf(inst->key, sizeof(inst->key), "%s%s", INSTANCE_KEY_PREFIX,
		 inst->id);
	snprintf(inst->token, sizeof(inst->token), "%s", token);
	inst->lease_ms = lease_ms;
	uv_timer_init(loop, &inst->timer);
	inst->timer.data = inst;
	uv_timer_start(&inst->timer, instance_on_tick, every, every);
	redis_link_on_up(link, instance_on_up, inst);
	return inst;
}

const char *instance_id(const struct instance *inst)
{
	return inst->id;
}

static void instance_on_release(void *data, const redisReply *reply)
{
	struct instance *inst = data;

	inst->releasing = false;
	if (reply && reply->type == REDIS_REPLY_INTEGER && reply->integer)
		log_info("instance %s: gave its lease back", inst->id);
}

/* Deletes the key while it holds this process's token. */
static void instance_give_back(struct instance *inst)
{
	inst->held_until = 0;
	if (redis_link_command(inst->link, instance_on_release, inst,
			       "EVAL %s 1 %s %s", instance_release_script,
			       inst->key, inst->token) == 0)
		inst->releasing = true;
}

void instance_release(struct instance *inst)
{
	if (inst->released)
		return;
	inst->released = true;
	uv_timer_stop(&inst->timer);
	if (inst->held_until)
		instance_give_back(inst);
}

bool instance_releasing(const struct instance *inst)
{
	return inst->releasing;
}

static void instance_closed(uv_handle_t *handle)
{
	free(handle->data);
}

void instance_free(struct instance *inst)
{
	if (!inst)
		return;
	uv_close((uv_handle_t *)&inst->timer, instance_closed);
}

void instance_stats(const struct instance *inst, struct instance_stats *out)
{
	*out = inst->stats;
	out->held = instance_held(inst);
}
