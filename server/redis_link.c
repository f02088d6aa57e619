/*
 * redis_link.c - the connection to the site's Redis, kept up on our
 * loop (see redis_link.h).
 */
#include "redis_link.h"

#include <hiredis/adapters/libuv.h>
#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "log.h"

#define REDIS_PING_MS 1000	   /* between two PINGs */
#define REDIS_PING_TIMEOUT_MS 3000 /* a PING unanswered this long: down */
#define REDIS_BACKOFF_MIN_MS 100

/* One per process; owned by main.c from start to main_stop(). */
struct redis_link {
	uv_loop_t *loop;
	struct redis_url url;
	redisAsyncContext *ctx; /* NULL while neither connecting nor
				 * connected */
	bool connected;		/* ctx's connection is made */
	uv_timer_t timer;	/* the next PING, or the next try */
	uint64_t backoff_ms;	/* before the next try */
	uint64_t ping_sent_us;	/* 0: no PING out */
	struct redis_link_stats stats;
	void (*up)(void *data); /* redis_link_on_up()'s hook; NULL: none */
	void *up_data;
	struct redis_link_subscription sub; /* sub.channel NULL: a command
					     * link */
	bool closing;			    /* redis_link_free() called */
};

/* One of these per command of redis_link_command(), until its answer. */
struct redis_link_call {
	redis_link_reply_fn reply;
	void *data;
};

static void redis_link_connect(struct redis_link *link);

static uint64_t redis_now_us(void)
{
	return uv_hrtime() / 1000;
}

static void redis_link_on_retry(uv_timer_t *timer)
{
	redis_link_connect(timer->data);
}

/* Tries again after the back-off, which doubles up to its cap. */
static void redis_link_retry(struct redis_link *link)
{
	if (link->closing)
		return;
	uv_timer_start(&link->timer, redis_link_on_retry, link->backoff_ms, 0);
	link->backoff_ms = link->backoff_ms * 2 > REDIS_BACKOFF_MAX_MS ?
				   REDIS_BACKOFF_MAX_MS :
				   link->backoff_ms * 2;
}

/* The link is up: said once, and its user's hook called. */
static void redis_link_now_up(struct redis_link *link)
{
	link->backoff_ms = REDIS_BACKOFF_MIN_MS;
	if (link->stats.up)
		return;
	if (!link->sub.channel)
		log_info("redis: connected to %s:%d", link->url.host,
			 link->url.port);
	link->stats.up = true;
	link->stats.up_since_ms = clock_monotonic_ms();
	if (link->up)
		link->up(link->up_data);
}

static void redis_link_on_pong(redisAsyncContext *ctx, void *reply_, void *data)
{
	struct redis_link *link = data;
	redisReply *reply = reply_;

	if (!reply || link->ctx != ctx)
		return; /* the connection went meanwhile */
	if (reply->type == REDIS_REPLY_ERROR) {
		log_warn("redis: %s", reply->str);
		redisAsyncDisconnect(ctx);
		return;
	}
	link->stats.rtt_us = redis_now_us() - link->ping_sent_us;
	link->ping_sent_us = 0;
	redis_link_now_up(link);
}

/*
 * A subscriber's replies: ["subscribe", channel, count] once, then
 * ["message", channel, payload] for each message.
 */
static void redis_link_on_subscribed(redisAsyncContext *ctx, void *reply_,
				     void *data)
{
	struct redis_link *link = data;
	redisReply *reply = reply_;
	const char *kind;

	if (!reply || link->ctx != ctx)
		return;
	if (reply->type == REDIS_REPLY_ERROR) {
		log_warn("redis: SUBSCRIBE: %s", reply->str);
		redisAsyncDisconnect(ctx);
		return;
	}
	if (reply->type != REDIS_REPLY_ARRAY || reply->elements < 3 ||
	    reply->element[0]->type != REDIS_REPLY_STRING)
		return;
	kind = reply->element[0]->str;
	if (!strcmp(kind, "subscribe"))
		redis_link_now_up(link);
	else if (!strcmp(kind, "message") &&
		 reply->element[2]->type == REDIS_REPLY_STRING)
		link->sub.message(link->sub.data, reply->element[2]->str,
				  reply->element[2]->len);
}

static void redis_link_ping(uv_timer_t *timer)
{
	struct redis_link *link = timer->data;

	if (!link->ctx)
		return;
	if (link->ping_sent_us) {
		if (redis_now_us() - link->ping_sent_us >
		    (uint64_t)REDIS_PING_TIMEOUT_MS * 1000) {
			log_warn("redis: no answer for %d ms",
				 REDIS_PING_TIMEOUT_MS);
			redisAsyncDisconnect(link->ctx);
		}
		return;
	}
	link->ping_sent_us = redis_now_us();
	redisAsyncCommand(link->ctx, redis_link_on_pong, link, "PING");
}

/* An AUTH or SELECT refused: the settings are wrong, said once a try. */
static void redis_link_on_setup(redisAsyncContext *ctx, void *reply_,
				void *data)
{
	redisReply *reply = reply_;

	(void)data;
	if (reply && reply->type == REDIS_REPLY_ERROR) {
		log_error("redis: %s", reply->str);
		redisAsyncDisconnect(ctx);
	}
}

static void redis_link_on_connect(const redisAsyncContext *ctx, int status)
{
	struct redis_link *link = ctx->data;

	if (status != REDIS_OK) {
		log_warn("redis: cannot connect to %s:%d: %s", link->url.host,
			 link->url.port, ctx->errstr);
		link->ctx = NULL; /* hiredis frees it */
		redis_link_retry(link);
		return;
	}
	link->connected = true;
	link->stats.connects++;
	if (link->url.password[0] && link->url.user[0])
		redisAsyncCommand(link->ctx, redis_link_on_setup, link,
				  "AUTH %s %s", link->url.user,
				  link->url.password);
	else if (link->url.password[0])
		redisAsyncCommand(link->ctx, redis_link_on_setup, link,
				  "AUTH %s", link->url.password);
	if (link->sub.channel) {
		/* Channels know no database: no SELECT, and no PINGs. */
		uv_timer_stop(&link->timer);
		redisEnableKeepAlive(&link->ctx->c);
		redisAsyncCommand(link->ctx, redis_link_on_subscribed, link,
				  "SUBSCRIBE %s", link->sub.channel);
		return;
	}
	if (link->url.db)
		redisAsyncCommand(link->ctx, redis_link_on_setup, link,
				  "SELECT %d", link->url.db);
	link->ping_sent_us = redis_now_us();
	redisAsyncCommand(link->ctx, redis_link_on_pong, link, "PING");
	uv_timer_start(&link->timer, redis_link_ping, REDIS_PING_MS,
		       REDIS_PING_MS);
}

static void redis_link_on_disconnect(const redisAsyncContext *ctx, int status)
{
	struct redis_link *link = ctx->data;

	(void)status;
	link->ctx = NULL; /* hiredis frees it */
	link->connected = false;
	link->ping_sent_us = 0;
	if (link->closing)
		return; /* freed once its timer has closed */
	if (link->stats.up) {
		log_warn("redis: lost the connection to %s:%d", link->url.host,
			 link->url.port);
		link->stats.drops++;
	}
	link->stats.up = false;
	uv_timer_stop(&link->timer);
	redis_link_retry(link);
}

/* A connection not made in time is given up and tried again. */
static void redis_link_on_connect_timeout(uv_timer_t *timer)
{
	struct redis_link *link = timer->data;
	redisAsyncContext *ctx = link->ctx;

	if (!ctx || link->connected)
		return;
	log_warn("redis: no connection to %s:%d within %d ms", link->url.host,
		 link->url.port, REDIS_CONNECT_TIMEOUT_MS);
	link->ctx = NULL;
	redisAsyncFree(ctx); /* not connected: no disconnect callback */
	redis_link_retry(link);
}

static void redis_link_connect(struct redis_link *link)
{
	redisAsyncContext *ctx;

	if (link->closing)
		return;
	ctx = redisAsyncConnect(link->url.host, link->url.port);
	if (!ctx || ctx->err) {
		log_warn("redis: cannot connect to %s:%d: %s", link->url.host,
			 link->url.port, ctx ? ctx->errstr : "out of memory");
		if (ctx)
			redisAsyncFree(ctx);
		redis_link_retry(link);
		return;
	}
	ctx->data = link;
	if (redisLibuvAttach(ctx, link->loop) != REDIS_OK) {
		redisAsyncFree(ctx);
		redis_link_retry(link);
		return;
	}
	redisAsyncSetConnectCallback(ctx, redis_link_on_connect);
	redisAsyncSetDisconnectCallback(ctx, redis_link_on_disconnect);
	link->ctx = ctx;
	uv_timer_start(&link->timer, redis_link_on_connect_timeout,
		       REDIS_CONNECT_TIMEOUT_MS, 0);
}

struct redis_link *redis_link_new(uv_loop_t *loop, const struct redis_url *url,
				  const struct redis_link_subscription *sub)
{
	struct redis_link *link = calloc(1, sizeof(*link));

	if (!link)
		return NULL;
	if (sub) {
		link->sub = *sub;
		link->sub.channel = strdup(sub->channel);
		if (!link->sub.channel) {
			free(link);
			return NULL;
		}
	}
	link->loop = loop;
	link->url = *url;
	link->backoff_ms = REDIS_BACKOFF_MIN_MS;
	uv_timer_init(loop, &link->timer);
	link->timer.data = link;
	redis_link_connect(link);
	return link;
}

static void redis_link_closed(uv_handle_t *handle)
{
	struct redis_link *link = handle->data;

	free((char *)link->sub.channel);
	free(link);
}

void redis_link_free(struct redis_link *link)
{
	if (!link)
		return;
	link->closing = true;
	if (link->ctx)
		redisAsyncFree(
			link->ctx); /* its poll handle closes on the loop */
	link->ctx = NULL;
	uv_close((uv_handle_t *)&link->timer, redis_link_closed);
}

bool redis_link_settled(const struct redis_link *link, uint64_t lease_ms)
{
	return link->stats.up &&
	       (link->stats.connects <= 1 ||
		clock_monotonic_ms() - link->stats.up_since_ms >=
			lease_ms + REDIS_LINK_BACK_WITHIN_MS);
}

void redis_link_stats(const struct redis_link *link,
		      struct redis_link_stats *out)
{
	*out = link->stats;
}

static void redis_link_on_reply(redisAsyncContext *ctx, void *reply, void *data)
{
	struct redis_link_call *call = data;

	(void)ctx;
	if (call->reply)
		call->reply(call->data, reply);
	free(call);
}

/*
 * Sends cmd (len bytes, formatted by hiredis; freed here) while the link
 * is up, with reply for its answer: redis_link_command()'s result.
 */
static int redis_link_send(struct redis_link *link, redis_link_reply_fn reply,
			   void *data, char *cmd, int len)
{
	struct redis_link_call *call = NULL;
	int rc = -ENOMEM;

	if (len < 0)
		return -ENOMEM;
	if (!link->ctx || !link->stats.up) {
		rc = -ENOTCONN;
		goto out_free_cmd;
	}
	call = malloc(sizeof(*call));
	if (!call)
		goto out_free_cmd;
	call->reply = reply;
	call->data = data;
	if (redisAsyncFormattedCommand(link->ctx, redis_link_on_reply, call,
				       cmd, (size_t)len) != REDIS_OK) {
		free(call);
		goto out_free_cmd;
	}
	rc = 0;
out_free_cmd:
	redisFreeCommand(cmd);
	return rc;
}

int redis_link_command(struct redis_link *link, redis_link_reply_fn reply,
		       void *data, const char *fmt, ...)
{
	char *cmd = NULL;
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = redisvFormatCommand(&cmd, fmt, ap);
	va_end(ap);
	return redis_link_send(link, reply, data, cmd, len);
}

int redis_link_command_argv(struct redis_link *link, redis_link_reply_fn reply,
			    void *data, int argc, const char **argv,
			    const size_t *argvlen)
{
	char *cmd = NULL;
	int len = redisFormatCommandArgv(&cmd, argc, argv, argvlen);

	return redis_link_send(link, reply, data, cmd, len);
}

void redis_link_on_up(struct redis_link *link, void (*up)(void *data),
		      void *data)
{
	link->up = up;
	link->up_data = data;
}
