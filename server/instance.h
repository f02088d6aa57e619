/*
 * instance.h - this process as one instance of a site that shares a Redis
 * (--redis): its id, and its lease, the key gomoku:instance:ID holding
 * the process's random token with a time to live of --instance-lease,
 * renewed every third of that while the process lives.
 *
 * The lease says the instance is alive. Once it lapses, what the
 * instance owned is another's to take; so an instance that has not
 * renewed it in time (Redis away, the instance cut off from it) counts
 * it lapsed itself at that moment, without waiting to hear so. An id
 * whose lease another live process holds is waited for, said in
 * /healthz, until that lease lapses; SIGTERM gives the lease back at once
 * (instance_release()), so that a restart need not wait.
 *
 * On the event loop's thread only.
 */
#ifndef GOMOKU_INSTANCE_H
#define GOMOKU_INSTANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "redis_link.h"

#define INSTANCE_ID_MAX 64    /* characters of an --instance-id */
#define INSTANCE_ID_RANDOM 12 /* hex digits of a default id */
#define INSTANCE_TOKEN_LEN 32 /* hex digits of a process's token */
#define INSTANCE_KEY_PREFIX "gomoku:instance:"

struct instance;

/* The lease's figures for /healthz and /metrics. */
struct instance_stats {
	bool held;	   /* held now, by this process */
	uint64_t renewals; /* answers that kept it (the first included) */
	uint64_t losses;   /* times it lapsed while held */
	uint64_t refusals; /* tries refused: another process holds the id */
};

/*
 * Whether id may name an instance: 1 to INSTANCE_ID_MAX letters, digits,
 * '.', '_' or '-'.
 */
bool instance_id_valid(const char *id);

/*
 * The instance id (copied) with its token (INSTANCE_TOKEN_LEN hex digits,
 * copied), taking and keeping its lease through link (not owned) for
 * lease_ms; now_ms is the clock (NULL: the monotonic one). NULL on out
 * of memory.
 */
struct instance *instance_new(uv_loop_t *loop, struct redis_link *link,
			      const char *id, const char *token,
			      uint64_t lease_ms, uint64_t (*now_ms)(void));

/* The id it was made with. */
const char *instance_id(const struct instance *inst);

/*
 * Gives the lease back (when this process holds it) and renews it no
 * more: at SIGTERM. instance_releasing() is true until Redis answered or
 * the connection went.
 */
void instance_release(struct instance *inst);
bool instance_releasing(const struct instance *inst);

/* Closes its timer; the loop frees it. After redis_link_free(). */
void instance_free(struct instance *inst);

void instance_stats(const struct instance *inst, struct instance_stats *out);

#endif
