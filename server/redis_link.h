/*
 * redis_link.h - one connection to the site's Redis (--redis), on the
 * server's libuv loop through hiredis' libuv adapter: connected, AUTH and
 * SELECT sent, then a PING every second whose round trip /metrics shows.
 * A connection that drops, or a PING unanswered for 3 s, is made again
 * with a back-off from 100 ms to 5 s; /healthz says 503 while it is down.
 *
 * Other modules send their commands through it (redis_link_command())
 * and hear when it comes up (redis_link_on_up()): the instance's lease
 * (server/instance.c) is the first.
 */
#ifndef GOMOKU_REDIS_LINK_H
#define GOMOKU_REDIS_LINK_H

#include <hiredis/hiredis.h>
#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "redis_url.h"

/* The libuv adapter of hiredis 0.14 never reports a refused connection:
 * an attempt is given up after this long. */
#define REDIS_CONNECT_TIMEOUT_MS 2000
#define REDIS_BACKOFF_MAX_MS 5000 /* the longest wait between attempts */
/* A link that dropped is up again at most this long after Redis is. */
#define REDIS_LINK_BACK_WITHIN_MS \
	(REDIS_CONNECT_TIMEOUT_MS + REDIS_BACKOFF_MAX_MS)

struct redis_link;

/* The link's figures for /healthz and /metrics. */
struct redis_link_stats {
	bool up;	      /* connected and answering */
	uint64_t rtt_us;      /* the last PING's round trip */
	uint64_t connects;    /* connections made, the first included */
	uint64_t drops;	      /* connections lost */
	uint64_t up_since_ms; /* monotonic clock when it last came up */
};

/*
 * A subscriber link: instead of PINGs and commands it SUBSCRIBEs to
 * channel (again after each reconnection) and hands every message to
 * message(data, payload, len) (valid during the call only). A RESP2
 * connection that subscribes can do nothing else, hence two links. Its
 * liveness is TCP's keep-alive and the command link's PINGs.
 */
struct redis_link_subscription {
	const char *channel; /* copied */
	void (*message)(void *data, const char *payload, size_t len);
	void *data;
};

/*
 * Starts connecting to url on loop: a command link, or with sub a
 * subscriber link. NULL on out of memory.
 */
struct redis_link *redis_link_new(uv_loop_t *loop, const struct redis_url *url,
				  const struct redis_link_subscription *sub);

/* Closes the connection and its handles; the loop frees the rest. */
void redis_link_free(struct redis_link *link);

void redis_link_stats(const struct redis_link *link,
		      struct redis_link_stats *out);

/*
 * True while link is up, and, after it came up again (Redis was away),
 * once it has been up for REDIS_LINK_BACK_WITHIN_MS and lease_ms more:
 * every live instance has connected again by then and taken its lease
 * (lease_ms) again, and one whose lease is missing is gone. Until then
 * nobody is counted gone.
 */
bool redis_link_settled(const struct redis_link *link, uint64_t lease_ms);

/*
 * A command's answer: reply is hiredis' (valid during the call only), or
 * NULL when the connection went before it came.
 */
typedef void (*redis_link_reply_fn)(void *data, const redisReply *reply);

/*
 * Sends a command (hiredis' format: "SET %s %s") while the link is up;
 * reply(data, ...) is called once, always (unless NULL). 0, or -ENOTCONN while down
 * (reply is not called then), -ENOMEM.
 */
int redis_link_command(struct redis_link *link, redis_link_reply_fn reply,
		       void *data, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * The same with the command's words given whole (binary-safe: a payload
 * may hold anything): argc words, argv[i] of argvlen[i] bytes. reply may
 * be NULL: the answer is not wanted.
 */
int redis_link_command_argv(struct redis_link *link, redis_link_reply_fn reply,
			    void *data, int argc, const char **argv,
			    const size_t *argvlen);

/*
 * up(data) each time the link comes up: connected, logged in, and its
 * first PING answered (a subscriber: its subscription confirmed). One
 * hook; a second call replaces it.
 */
void redis_link_on_up(struct redis_link *link, void (*up)(void *data),
		      void *data);

#endif
