/*
 * pbrain_client.c - an external pbrain engine as a child process on the
 * event loop.
 *
 * The engine owes at most one answer at a time: OK to START, or a move to
 * one BOARD. A request that comes while it owes something (it is still
 * starting, or thinking about a cancelled request) is queued and sent
 * when the answer comes; the answer of a cancelled request is dropped.
 * One timer serves every wait: the deadline of what the engine owes, the
 * grace after it closed a pipe (to learn from its exit why), the grace
 * after END, and the deferred failure of a request.
 *
 * One file over 600 lines: what the engine owes, the one timer and the
 * child's pipes make one state machine whose parts change together.
 */
#include "pbrain_client.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pbrain/gomocup.h"

/* After a closed pipe, how long to wait for the exit (and its reason). */
#define PBRAIN_CLIENT_LOST_GRACE_MS 100

/* INFO lines sent after OK; each may draw an OK or UNKNOWN reply. */
#define PBRAIN_CLIENT_INFO_LINES 3

/* What the engine owes. */
enum pbrain_client_state {
	PBRAIN_CLIENT_STARTING, /* START sent: OK owed */
	PBRAIN_CLIENT_IDLE,	/* nothing owed */
	PBRAIN_CLIENT_THINKING, /* a BOARD sent: its move owed */
	PBRAIN_CLIENT_FAILED, /* killed or never started; err and reason say why */
};

/* One of these per line (or lines) written to the engine. */
struct pbrain_client_write {
	uv_write_t req;	  /* req.data: this struct */
	bool close_after; /* END: close the engine's stdin once written */
	size_t len;	  /* bytes of text */
	char text[];
};

/* One of these per engine process (per game). */
struct pbrain_client {
	int size;		     /* board size */
	enum rule rule;		     /* sent as INFO rule */
	int turn_ms;		     /* sent as INFO timeout_turn */
	int margin_ms;		     /* added to turn_ms for an answer */
	pbrain_client_done_fn *done; /* reports requests */
	void *ctx;		     /* passed to done */

	uv_process_t process;	 /* the child */
	uv_pipe_t to_engine;	 /* its stdin */
	uv_pipe_t from_engine;	 /* its stdout */
	uv_timer_t timer;	 /* deadline, grace or deferred failure */
	int handles;		 /* initialised and not yet closed */
	bool running;		 /* spawned and not yet reaped */
	bool killed;		 /* SIGKILL sent */
	bool freed;		 /* pbrain_client_free() ran */
	bool lost;		 /* a pipe closed: waiting for the exit */
	const char *lost_reason; /* which pipe, if the exit does not come */

	enum pbrain_client_state state;
	int err; /* PBRAIN_CLIENT_FAILED: the code every request gets */
	const char *reason; /* PBRAIN_CLIENT_FAILED: and the reason */
	int info_replies;   /* OK/UNKNOWN lines still tolerated */
	bool pending;	    /* a request waits for done */
	bool answer_wanted; /* PBRAIN_CLIENT_THINKING for the pending request */
	struct pbrain_client_write
		*queued; /* the pending request's BOARD, unsent */
	uint8_t cells[BOARD_MAX_CELLS];	   /* the pending request's position */
	size_t line_used;		   /* bytes of line[] read so far */
	char line[PBRAIN_CLIENT_LINE_MAX]; /* the line being read */
};

static void pbrain_client_on_timer(uv_timer_t *timer);

/* The last handle closed after pbrain_client_free(): the memory goes. */
static void pbrain_client_on_close(uv_handle_t *handle)
{
	struct pbrain_client *client = handle->data;

	if (--client->handles == 0 && client->freed)
		free(client);
}

/* uv_close() with pbrain_client_on_close(), unless handle is closing already. */
static void pbrain_client_close(void *handle)
{
	if (!uv_is_closing(handle))
		uv_close(handle, pbrain_client_on_close);
}

/* Closes every handle; the process only once it has been reaped. */
static void pbrain_client_close_all(struct pbrain_client *client)
{
	pbrain_client_close(&client->timer);
	pbrain_client_close(&client->to_engine);
	pbrain_client_close(&client->from_engine);
	if (!client->running)
		pbrain_client_close(&client->process);
}

/* SIGKILL to the child's process group (its helpers too), once. */
static void pbrain_client_kill(struct pbrain_client *client)
{
	if (!client->running || client->killed || client->process.pid <= 1)
		return;
	client->killed = true;
	if (kill(-client->process.pid, SIGKILL))
		uv_process_kill(&client->process, SIGKILL);
}

static void pbrain_client_timer_start(struct pbrain_client *client, uint64_t ms)
{
	uv_timer_start(&client->timer, pbrain_client_on_timer, ms, 0);
}

/*
 * The engine is done for: kill it, close its pipes, and fail the pending
 * request (and every later one) with err. done is called from the timer,
 * never from here: this runs inside pbrain_client_request() too.
 */
static void pbrain_client_fail(struct pbrain_client *client, int err,
			       const char *reason)
{
	if (client->state == PBRAIN_CLIENT_FAILED)
		return;
	client->state = PBRAIN_CLIENT_FAILED;
	client->err = err;
	client->reason = reason;
	client->answer_wanted = false;
	free(client->queued);
	client->queued = NULL;
	pbrain_client_kill(client);
	pbrain_client_close(&client->to_engine);
	pbrain_client_close(&client->from_engine);
	if (!client->running)
		pbrain_client_close(&client->process);
	if (client->pending)
		pbrain_client_timer_start(client, 0);
	else
		uv_timer_stop(&client->timer);
}

/*
 * A pipe closed. The exit usually follows at once and says more (exited,
 * or killed by a signal): wait a little for it.
 */
static void pbrain_client_lost(struct pbrain_client *client, const char *reason)
{
	if (client->freed || client->state == PBRAIN_CLIENT_FAILED ||
	    client->lost)
		return;
	client->lost = true;
	client->lost_reason = reason;
	pbrain_client_close(&client->from_engine);
	pbrain_client_timer_start(client, PBRAIN_CLIENT_LOST_GRACE_MS);
}

static void pbrain_client_on_written(uv_write_t *req, int status)
{
	struct pbrain_client_write *write = req->data;
	struct pbrain_client *client = req->handle->data;
	bool close_after = write->close_after;

	free(write);
	if (close_after)
		pbrain_client_close(&client->to_engine);
	else if (status < 0 && status != UV_ECANCELED)
		pbrain_client_lost(client, "engine closed its input");
}

/* A write of up to capacity bytes of text; NULL when out of memory. */
static struct pbrain_client_write *pbrain_client_write_new(size_t capacity)
{
	struct pbrain_client_write *write = malloc(sizeof(*write) + capacity);

	if (!write)
		return NULL;
	write->req.data = write;
	write->close_after = false;
	write->len = 0;
	return write;
}

/* Queues write on the engine's stdin; frees it on failure. 0 or -errno. */
static int pbrain_client_write_send(struct pbrain_client *client,
				    struct pbrain_client_write *write)
{
	uv_buf_t buf = uv_buf_init(write->text, (unsigned int)write->len);
	int err = uv_write(&write->req, (uv_stream_t *)&client->to_engine, &buf,
			   1, pbrain_client_on_written);

	if (err)
		free(write);
	return err;
}

/* Writes one formatted command; 0 or a negative code. */
static int pbrain_client_say(struct pbrain_client *client, bool close_after,
			     const char *format, ...)
	__attribute__((format(printf, 3, 4)));

static int pbrain_client_say(struct pbrain_client *client, bool close_after,
			     const char *format, ...)
{
	struct pbrain_client_write *write = pbrain_client_write_new(128);
	va_list args;
	int len;

	if (!write)
		return -ENOMEM;
	va_start(args, format);
	len = vsnprintf(write->text, 128, format, args);
	va_end(args);
	if (len < 0 || len >= 128) {
		free(write);
		return -EINVAL;
	}
	write->len = (size_t)len;
	write->close_after = close_after;
	return pbrain_client_write_send(client, write);
}

/* Sends the queued BOARD when the engine owes nothing. */
static void pbrain_client_send_queued(struct pbrain_client *client)
{
	struct pbrain_client_write *write = client->queued;

	if (!write || client->state != PBRAIN_CLIENT_IDLE || client->lost)
		return;
	client->queued = NULL;
	if (pbrain_client_write_send(client, write)) {
		pbrain_client_fail(client, -EPIPE, "engine closed its input");
		return;
	}
	client->state = PBRAIN_CLIENT_THINKING;
	client->answer_wanted = true;
	pbrain_client_timer_start(client, (uint64_t)client->turn_ms +
						  (uint64_t)client->margin_ms);
}

/* OK to START: the settings, then the queued request if there is one. */
static void pbrain_client_started(struct pbrain_client *client)
{
	client->state = PBRAIN_CLIENT_IDLE;
	uv_timer_stop(&client->timer);
	if (pbrain_client_say(
		    client, false,
		    "INFO timeout_turn %d\nINFO timeout_match 0\nINFO rule %ld\n",
		    client->turn_ms, gomocup_rule_numbers[client->rule])) {
		pbrain_client_fail(client, -EPIPE, "engine closed its input");
		return;
	}
	client->info_replies = PBRAIN_CLIENT_INFO_LINES;
	pbrain_client_send_queued(client);
}

/* The engine's move: checked, then reported (or dropped if cancelled). */
static void pbrain_client_answer(struct pbrain_client *client, const char *line)
{
	int x, y;

	if (gomocup_parse_cell(line, &x, &y)) {
		pbrain_client_fail(client, -EPROTO, "engine answered garbage");
		return;
	}
	if (x < 0 || y < 0 || x >= client->size || y >= client->size) {
		pbrain_client_fail(client, -EPROTO,
				   "engine played off the board");
		return;
	}
	if (client->answer_wanted &&
	    client->cells[board_index(client->size, x, y)] != ROLE_NONE) {
		pbrain_client_fail(client, -EPROTO,
				   "engine played an occupied cell");
		return;
	}
	client->state = PBRAIN_CLIENT_IDLE;
	client->info_replies = 0; /* replies to INFO come before any move */
	uv_timer_stop(&client->timer);
	if (!client->answer_wanted) {
		pbrain_client_send_queued(
			client); /* a cancelled request's: dropped */
		return;
	}
	client->answer_wanted = false;
	client->pending = false;
	client->done(client->ctx, 0, x, y, "");
}

/* One complete line from the engine, without its line end. */
static void pbrain_client_line(struct pbrain_client *client, const char *line)
{
	while (isspace((unsigned char)*line))
		line++;
	if (!*line || gomocup_keyword(line, "MESSAGE") ||
	    gomocup_keyword(line, "DEBUG"))
		return;
	if (client->state == PBRAIN_CLIENT_STARTING) {
		if (gomocup_keyword(line, "OK"))
			pbrain_client_started(client);
		else if (gomocup_keyword(line, "ERROR") ||
			 gomocup_keyword(line, "UNKNOWN"))
			pbrain_client_fail(client, -EPROTO,
					   "engine refused START");
		else
			pbrain_client_fail(
				client, -EPROTO,
				"engine answered START with garbage");
		return;
	}
	if (gomocup_keyword(line, "ERROR")) {
		pbrain_client_fail(client, -EPROTO, "engine reported an error");
		return;
	}
	if (gomocup_keyword(line, "OK") || gomocup_keyword(line, "UNKNOWN")) {
		if (client->info_replies > 0)
			client->info_replies--;
		else if (gomocup_keyword(line, "UNKNOWN"))
			pbrain_client_fail(client, -EPROTO,
					   "engine does not know a command");
		else
			pbrain_client_fail(client, -EPROTO,
					   "engine answered garbage");
		return;
	}
	if (client->state != PBRAIN_CLIENT_THINKING) {
		pbrain_client_fail(client, -EPROTO, "engine wrote out of turn");
		return;
	}
	pbrain_client_answer(client, line);
}

static void pbrain_client_on_alloc(uv_handle_t *handle, size_t suggested,
				   uv_buf_t *buf)
{
	struct pbrain_client *client = handle->data;

	(void)suggested;
	buf->base = client->line + client->line_used;
	buf->len = sizeof(client->line) - client->line_used;
}

/* Bytes from the engine: every complete line, the rest kept for later. */
static void pbrain_client_on_read(uv_stream_t *stream, ssize_t nread,
				  const uv_buf_t *buf)
{
	struct pbrain_client *client = stream->data;
	size_t start = 0;
	char *end;

	(void)buf;
	if (nread < 0) {
		pbrain_client_lost(client,
				   nread == UV_EOF ?
					   "engine closed its output" :
					   "cannot read from the engine");
		return;
	}
	client->line_used += (size_t)nread;
	while ((end = memchr(client->line + start, '\n',
			     client->line_used - start))) {
		*end = '\0';
		if (end > client->line + start && end[-1] == '\r')
			end[-1] = '\0';
		pbrain_client_line(client, client->line + start);
		/* done may have freed us; a line may have failed the engine */
		if (client->freed || client->state == PBRAIN_CLIENT_FAILED)
			return;
		start = (size_t)(end - client->line) + 1;
	}
	memmove(client->line, client->line + start, client->line_used - start);
	client->line_used -= start;
	if (client->line_used == sizeof(client->line))
		pbrain_client_fail(client, -EPROTO,
				   "engine wrote a line too long");
}

/* The child was reaped. */
static void pbrain_client_on_exit(uv_process_t *process, int64_t exit_status,
				  int term_signal)
{
	struct pbrain_client *client = process->data;

	(void)exit_status;
	client->running = false;
	if (client->freed) {
		pbrain_client_close_all(client);
		return;
	}
	pbrain_client_close(&client->process);
	pbrain_client_fail(client, -EPIPE,
			   term_signal ? "engine killed by a signal" :
					 "engine exited");
}

static void pbrain_client_on_timer(uv_timer_t *timer)
{
	struct pbrain_client *client = timer->data;

	if (client->freed) {
		pbrain_client_kill(
			client); /* END's grace is over; the exit closes all */
		return;
	}
	if (client->state == PBRAIN_CLIENT_FAILED) {
		if (client->pending) {
			client->pending = false;
			client->done(client->ctx, client->err, -1, -1,
				     client->reason);
		}
		return;
	}
	if (client->lost)
		pbrain_client_fail(client, -EPIPE, client->lost_reason);
	else if (client->state == PBRAIN_CLIENT_STARTING)
		pbrain_client_fail(client, -ETIMEDOUT,
				   "engine did not answer START in time");
	else if (client->state == PBRAIN_CLIENT_THINKING)
		pbrain_client_fail(client, -ETIMEDOUT,
				   "engine did not answer in time");
}

struct pbrain_client *pbrain_client_start(uv_loop_t *loop, const char *path,
					  int board_size, enum rule rule,
					  int turn_ms, int margin_ms,
					  pbrain_client_done_fn *done,
					  void *ctx)
{
	char *args[] = { (char *)path, NULL };
	uv_stdio_container_t stdio[3];
	uv_process_options_t options;
	struct pbrain_client *client;
	int err;

	if (!loop || !path || !done || board_size < BOARD_MIN_SIZE ||
	    board_size > BOARD_MAX_SIZE || (unsigned)rule >= RULE_COUNT ||
	    turn_ms < 0 || margin_ms < 0)
		return NULL;
	client = calloc(1, sizeof(*client));
	if (!client)
		return NULL;
	client->size = board_size;
	client->rule = rule;
	client->turn_ms = turn_ms;
	client->margin_ms = margin_ms;
	client->done = done;
	client->ctx = ctx;

	/* On Unix these only fill in the handles: they cannot fail. */
	uv_timer_init(loop, &client->timer);
	uv_pipe_init(loop, &client->to_engine, 0);
	uv_pipe_init(loop, &client->from_engine, 0);
	client->timer.data = client;
	client->to_engine.data = client;
	client->from_engine.data = client;
	client->handles = 3;

	memset(stdio, 0, sizeof(stdio));
	stdio[0].flags = UV_CREATE_PIPE | UV_READABLE_PIPE;
	stdio[0].data.stream = (uv_stream_t *)&client->to_engine;
	stdio[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
	stdio[1].data.stream = (uv_stream_t *)&client->from_engine;
	stdio[2].flags = UV_IGNORE; /* /dev/null */
	memset(&options, 0, sizeof(options));
	options.exit_cb = pbrain_client_on_exit;
	options.file = path;
	options.args = args;
	options.stdio = stdio;
	options.stdio_count = 3;
	options.flags = UV_PROCESS_DETACHED; /* its own process group */

	/* uv_spawn() initialises the process handle even when it fails. */
	err = uv_spawn(loop, &client->process, &options);
	client->process.data = client;
	client->handles++;
	client->state = PBRAIN_CLIENT_STARTING;
	if (err) {
		pbrain_client_fail(client, err, "engine could not be started");
		return client;
	}
	client->running = true;
	if (uv_read_start((uv_stream_t *)&client->from_engine,
			  pbrain_client_on_alloc, pbrain_client_on_read) ||
	    pbrain_client_say(client, false, "START %d\n", board_size)) {
		pbrain_client_fail(client, -EPIPE,
				   "engine could not be started");
		return client;
	}
	pbrain_client_timer_start(client, PBRAIN_CLIENT_START_MS);
	return client;
}

/* BOARD ... DONE for moves, "1" for me's stones; NULL when out of memory. */
static struct pbrain_client_write *
pbrain_client_board_new(const struct pbrain_client *client,
			const uint16_t *moves, int count, enum role me)
{
	/* "BOARD\n", count times "xx,yy,1\n", "DONE\n" */
	size_t capacity = 16 + (size_t)count * 16;
	struct pbrain_client_write *write = pbrain_client_write_new(capacity);
	int i;

	if (!write)
		return NULL;
	write->len = (size_t)snprintf(write->text, capacity, "BOARD\n");
	for (i = 0; i < count; i++) {
		enum role mover = i % 2 ? ROLE_BACK : ROLE_FRONT;

		write->len += (size_t)snprintf(
			write->text + write->len, capacity - write->len,
			"%d,%d,%d\n", moves[i] % client->size,
			moves[i] / client->size, mover == me ? 1 : 2);
	}
	write->len += (size_t)snprintf(write->text + write->len,
				       capacity - write->len, "DONE\n");
	return write;
}

int pbrain_client_request(struct pbrain_client *client, const uint16_t *moves,
			  int count, enum role me)
{
	int cells = client->size * client->size;
	struct pbrain_client_write *write;
	int i;

	if (client->pending)
		return -EBUSY;
	if (count < 0 || count > cells || (count && !moves) ||
	    me != (count % 2 ? ROLE_BACK : ROLE_FRONT))
		return -EINVAL;
	memset(client->cells, ROLE_NONE, sizeof(client->cells));
	for (i = 0; i < count; i++) {
		if (moves[i] >= cells || client->cells[moves[i]] != ROLE_NONE)
			return -EINVAL;
		client->cells[moves[i]] = i % 2 ? ROLE_BACK : ROLE_FRONT;
	}
	if (count == cells)
		return -ENOSPC;
	if (client->state == PBRAIN_CLIENT_FAILED) {
		client->pending = true;
		pbrain_client_timer_start(
			client, 0); /* done from the loop, not from here */
		return 0;
	}
	write = pbrain_client_board_new(client, moves, count, me);
	if (!write)
		return -ENOMEM;
	client->pending = true;
	client->queued = write;
	pbrain_client_send_queued(client);
	return 0;
}

void pbrain_client_cancel(struct pbrain_client *client)
{
	client->pending = false;
	client->answer_wanted = false;
	free(client->queued);
	client->queued = NULL;
}

void pbrain_client_free(struct pbrain_client *client)
{
	if (!client)
		return;
	pbrain_client_cancel(client);
	client->freed = true;
	uv_timer_stop(&client->timer);
	pbrain_client_close(&client->from_engine);
	if (!client->running) {
		pbrain_client_close_all(client);
		return;
	}
	/* END, then EOF; SIGKILL if it is still there after the grace. */
	if (client->killed || client->state == PBRAIN_CLIENT_FAILED ||
	    client->lost || pbrain_client_say(client, true, "END\n"))
		pbrain_client_close(&client->to_engine);
	pbrain_client_timer_start(client, PBRAIN_CLIENT_END_GRACE_MS);
}
