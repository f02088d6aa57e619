/*
 * ai_external.c - an external pbrain engine as a child process on the
 * event loop.
 *
 * The engine owes at most one answer at a time: OK to START, or a move to
 * one BOARD. A request that comes while it owes something (it is still
 * starting, or thinking about a cancelled request) is queued and sent
 * when the answer comes; the answer of a cancelled request is dropped.
 * One timer serves every wait: the deadline of what the engine owes, the
 * grace after it closed a pipe (to learn from its exit why), the grace
 * after END, and the deferred failure of a request.
 */
#include "ai_external.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* After a closed pipe, how long to wait for the exit (and its reason). */
#define AI_EXTERNAL_LOST_GRACE_MS 100

/* INFO lines sent after OK; each may draw an OK or UNKNOWN reply. */
#define AI_EXTERNAL_INFO_LINES 3

/* What the engine owes. */
enum ai_state {
	AI_STARTING, /* START sent: OK owed */
	AI_IDLE,     /* nothing owed */
	AI_THINKING, /* a BOARD sent: its move owed */
	AI_FAILED,   /* killed or never started; err and reason say why */
};

/* One of these per line (or lines) written to the engine. */
struct ai_write {
	uv_write_t req;	  /* req.data: this struct */
	bool close_after; /* END: close the engine's stdin once written */
	size_t len;	  /* bytes of text */
	char text[];
};

/* One of these per engine process (per game). */
struct ai_external {
	int size;		   /* board size */
	enum rule rule;		   /* sent as INFO rule */
	int turn_ms;		   /* sent as INFO timeout_turn */
	int margin_ms;		   /* added to turn_ms for an answer */
	ai_external_done_fn *done; /* reports requests */
	void *ctx;		   /* passed to done */

	uv_process_t process;	 /* the child */
	uv_pipe_t to_engine;	 /* its stdin */
	uv_pipe_t from_engine;	 /* its stdout */
	uv_timer_t timer;	 /* deadline, grace or deferred failure */
	int handles;		 /* initialised and not yet closed */
	bool running;		 /* spawned and not yet reaped */
	bool killed;		 /* SIGKILL sent */
	bool freed;		 /* ai_external_free() ran */
	bool lost;		 /* a pipe closed: waiting for the exit */
	const char *lost_reason; /* which pipe, if the exit does not come */

	enum ai_state state;
	int err;		 /* AI_FAILED: the code every request gets */
	const char *reason;	 /* AI_FAILED: and the reason */
	int info_replies;	 /* OK/UNKNOWN lines still tolerated */
	bool pending;		 /* a request waits for done */
	bool answer_wanted;	 /* AI_THINKING for the pending request */
	struct ai_write *queued; /* the pending request's BOARD, unsent */
	uint8_t cells[BOARD_MAX_CELLS];	 /* the pending request's position */
	size_t line_used;		 /* bytes of line[] read so far */
	char line[AI_EXTERNAL_LINE_MAX]; /* the line being read */
};

static void ai_on_timer(uv_timer_t *timer);

/* The last handle closed after ai_external_free(): the memory goes. */
static void ai_on_close(uv_handle_t *handle)
{
	struct ai_external *ai = handle->data;

	if (--ai->handles == 0 && ai->freed)
		free(ai);
}

/* uv_close() with ai_on_close(), unless handle is closing already. */
static void ai_close(void *handle)
{
	if (!uv_is_closing(handle))
		uv_close(handle, ai_on_close);
}

/* Closes every handle; the process only once it has been reaped. */
static void ai_close_all(struct ai_external *ai)
{
	ai_close(&ai->timer);
	ai_close(&ai->to_engine);
	ai_close(&ai->from_engine);
	if (!ai->running)
		ai_close(&ai->process);
}

/* SIGKILL to the child's process group (its helpers too), once. */
static void ai_kill(struct ai_external *ai)
{
	if (!ai->running || ai->killed || ai->process.pid <= 1)
		return;
	ai->killed = true;
	if (kill(-ai->process.pid, SIGKILL))
		uv_process_kill(&ai->process, SIGKILL);
}

static void ai_timer_start(struct ai_external *ai, uint64_t ms)
{
	uv_timer_start(&ai->timer, ai_on_timer, ms, 0);
}

/*
 * The engine is done for: kill it, close its pipes, and fail the pending
 * request (and every later one) with err. done is called from the timer,
 * never from here: this runs inside ai_external_request() too.
 */
static void ai_fail(struct ai_external *ai, int err, const char *reason)
{
	if (ai->state == AI_FAILED)
		return;
	ai->state = AI_FAILED;
	ai->err = err;
	ai->reason = reason;
	ai->answer_wanted = false;
	free(ai->queued);
	ai->queued = NULL;
	ai_kill(ai);
	ai_close(&ai->to_engine);
	ai_close(&ai->from_engine);
	if (!ai->running)
		ai_close(&ai->process);
	if (ai->pending)
		ai_timer_start(ai, 0);
	else
		uv_timer_stop(&ai->timer);
}

/*
 * A pipe closed. The exit usually follows at once and says more (exited,
 * or killed by a signal): wait a little for it.
 */
static void ai_lost(struct ai_external *ai, const char *reason)
{
	if (ai->freed || ai->state == AI_FAILED || ai->lost)
		return;
	ai->lost = true;
	ai->lost_reason = reason;
	ai_close(&ai->from_engine);
	ai_timer_start(ai, AI_EXTERNAL_LOST_GRACE_MS);
}

static void ai_on_written(uv_write_t *req, int status)
{
	struct ai_write *write = req->data;
	struct ai_external *ai = req->handle->data;
	bool close_after = write->close_after;

	free(write);
	if (close_after)
		ai_close(&ai->to_engine);
	else if (status < 0 && status != UV_ECANCELED)
		ai_lost(ai, "engine closed its input");
}

/* A write of up to capacity bytes of text; NULL when out of memory. */
static struct ai_write *ai_write_new(size_t capacity)
{
	struct ai_write *write = malloc(sizeof(*write) + capacity);

	if (!write)
		return NULL;
	write->req.data = write;
	write->close_after = false;
	write->len = 0;
	return write;
}

/* Queues write on the engine's stdin; frees it on failure. 0 or -errno. */
static int ai_write_send(struct ai_external *ai, struct ai_write *write)
{
	uv_buf_t buf = uv_buf_init(write->text, (unsigned int)write->len);
	int err = uv_write(&write->req, (uv_stream_t *)&ai->to_engine, &buf, 1,
			   ai_on_written);

	if (err)
		free(write);
	return err;
}

/* Writes one formatted command; 0 or a negative code. */
static int ai_say(struct ai_external *ai, bool close_after, const char *format,
		  ...) __attribute__((format(printf, 3, 4)));

static int ai_say(struct ai_external *ai, bool close_after, const char *format,
		  ...)
{
	struct ai_write *write = ai_write_new(128);
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
	return ai_write_send(ai, write);
}

/* Sends the queued BOARD when the engine owes nothing. */
static void ai_send_queued(struct ai_external *ai)
{
	struct ai_write *write = ai->queued;

	if (!write || ai->state != AI_IDLE || ai->lost)
		return;
	ai->queued = NULL;
	if (ai_write_send(ai, write)) {
		ai_fail(ai, -EPIPE, "engine closed its input");
		return;
	}
	ai->state = AI_THINKING;
	ai->answer_wanted = true;
	ai_timer_start(ai, (uint64_t)ai->turn_ms + (uint64_t)ai->margin_ms);
}

/* OK to START: the settings, then the queued request if there is one. */
static void ai_started(struct ai_external *ai)
{
	ai->state = AI_IDLE;
	uv_timer_stop(&ai->timer);
	if (ai_say(ai, false,
		   "INFO timeout_turn %d\nINFO timeout_match 0\nINFO rule %d\n",
		   ai->turn_ms, ai->rule == RULE_STANDARD ? 1 : 0)) {
		ai_fail(ai, -EPIPE, "engine closed its input");
		return;
	}
	ai->info_replies = AI_EXTERNAL_INFO_LINES;
	ai_send_queued(ai);
}

/*
 * Parses "x,y" (blanks around the numbers allowed, a sign too so that
 * "-1,0" counts as off the board rather than as garbage). 0 or -EINVAL.
 */
static int ai_parse_cell(const char *text, int *x, int *y)
{
	int value[2];
	int i;

	for (i = 0; i < 2; i++) {
		bool negative = false;
		int digits = 0;

		value[i] = 0;
		while (*text == ' ' || *text == '\t')
			text++;
		if (*text == '-' || *text == '+')
			negative = *text++ == '-';
		while (isdigit((unsigned char)*text)) {
			if (++digits > 6)
				return -EINVAL;
			value[i] = value[i] * 10 + (*text++ - '0');
		}
		if (!digits)
			return -EINVAL;
		if (negative)
			value[i] = -value[i];
		while (*text == ' ' || *text == '\t')
			text++;
		if (i == 0 && *text++ != ',')
			return -EINVAL;
	}
	if (*text)
		return -EINVAL;
	*x = value[0];
	*y = value[1];
	return 0;
}

/* The engine's move: checked, then reported (or dropped if cancelled). */
static void ai_answer(struct ai_external *ai, const char *line)
{
	int x, y;

	if (ai_parse_cell(line, &x, &y)) {
		ai_fail(ai, -EPROTO, "engine answered garbage");
		return;
	}
	if (x < 0 || y < 0 || x >= ai->size || y >= ai->size) {
		ai_fail(ai, -EPROTO, "engine played off the board");
		return;
	}
	if (ai->answer_wanted &&
	    ai->cells[board_index(ai->size, x, y)] != ROLE_NONE) {
		ai_fail(ai, -EPROTO, "engine played an occupied cell");
		return;
	}
	ai->state = AI_IDLE;
	ai->info_replies = 0; /* replies to INFO come before any move */
	uv_timer_stop(&ai->timer);
	if (!ai->answer_wanted) {
		ai_send_queued(ai); /* a cancelled request's: dropped */
		return;
	}
	ai->answer_wanted = false;
	ai->pending = false;
	ai->done(ai->ctx, 0, x, y, "");
}

/* True when line starts with word, as a whole word, in any case. */
static bool ai_keyword(const char *line, const char *word)
{
	size_t len = strlen(word);

	return strncasecmp(line, word, len) == 0 &&
	       (line[len] == '\0' || isspace((unsigned char)line[len]));
}

/* One complete line from the engine, without its line end. */
static void ai_line(struct ai_external *ai, const char *line)
{
	while (isspace((unsigned char)*line))
		line++;
	if (!*line || ai_keyword(line, "MESSAGE") || ai_keyword(line, "DEBUG"))
		return;
	if (ai->state == AI_STARTING) {
		if (ai_keyword(line, "OK"))
			ai_started(ai);
		else if (ai_keyword(line, "ERROR") ||
			 ai_keyword(line, "UNKNOWN"))
			ai_fail(ai, -EPROTO, "engine refused START");
		else
			ai_fail(ai, -EPROTO,
				"engine answered START with garbage");
		return;
	}
	if (ai_keyword(line, "ERROR")) {
		ai_fail(ai, -EPROTO, "engine reported an error");
		return;
	}
	if (ai_keyword(line, "OK") || ai_keyword(line, "UNKNOWN")) {
		if (ai->info_replies > 0)
			ai->info_replies--;
		else if (ai_keyword(line, "UNKNOWN"))
			ai_fail(ai, -EPROTO, "engine does not know a command");
		else
			ai_fail(ai, -EPROTO, "engine answered garbage");
		return;
	}
	if (ai->state != AI_THINKING) {
		ai_fail(ai, -EPROTO, "engine wrote out of turn");
		return;
	}
	ai_answer(ai, line);
}

static void ai_on_alloc(uv_handle_t *handle, size_t suggested, uv_buf_t *buf)
{
	struct ai_external *ai = handle->data;

	(void)suggested;
	buf->base = ai->line + ai->line_used;
	buf->len = sizeof(ai->line) - ai->line_used;
}

/* Bytes from the engine: every complete line, the rest kept for later. */
static void ai_on_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf)
{
	struct ai_external *ai = stream->data;
	size_t start = 0;
	char *end;

	(void)buf;
	if (nread < 0) {
		ai_lost(ai, nread == UV_EOF ? "engine closed its output" :
					      "cannot read from the engine");
		return;
	}
	ai->line_used += (size_t)nread;
	while ((end = memchr(ai->line + start, '\n', ai->line_used - start))) {
		*end = '\0';
		if (end > ai->line + start && end[-1] == '\r')
			end[-1] = '\0';
		ai_line(ai, ai->line + start);
		/* done may have freed us; a line may have failed the engine */
		if (ai->freed || ai->state == AI_FAILED)
			return;
		start = (size_t)(end - ai->line) + 1;
	}
	memmove(ai->line, ai->line + start, ai->line_used - start);
	ai->line_used -= start;
	if (ai->line_used == sizeof(ai->line))
		ai_fail(ai, -EPROTO, "engine wrote a line too long");
}

/* The child was reaped. */
static void ai_on_exit(uv_process_t *process, int64_t exit_status,
		       int term_signal)
{
	struct ai_external *ai = process->data;

	(void)exit_status;
	ai->running = false;
	if (ai->freed) {
		ai_close_all(ai);
		return;
	}
	ai_close(&ai->process);
	ai_fail(ai, -EPIPE,
		term_signal ? "engine killed by a signal" : "engine exited");
}

static void ai_on_timer(uv_timer_t *timer)
{
	struct ai_external *ai = timer->data;

	if (ai->freed) {
		ai_kill(ai); /* END's grace is over; the exit closes all */
		return;
	}
	if (ai->state == AI_FAILED) {
		if (ai->pending) {
			ai->pending = false;
			ai->done(ai->ctx, ai->err, -1, -1, ai->reason);
		}
		return;
	}
	if (ai->lost)
		ai_fail(ai, -EPIPE, ai->lost_reason);
	else if (ai->state == AI_STARTING)
		ai_fail(ai, -ETIMEDOUT, "engine did not answer START in time");
	else if (ai->state == AI_THINKING)
		ai_fail(ai, -ETIMEDOUT, "engine did not answer in time");
}

struct ai_external *ai_external_start(uv_loop_t *loop, const char *path,
				      int board_size, enum rule rule,
				      int turn_ms, int margin_ms,
				      ai_external_done_fn *done, void *ctx)
{
	char *args[] = { (char *)path, NULL };
	uv_stdio_container_t stdio[3];
	uv_process_options_t options;
	struct ai_external *ai;
	int err;

	if (!loop || !path || !done || board_size < BOARD_MIN_SIZE ||
	    board_size > BOARD_MAX_SIZE ||
	    (rule != RULE_FREESTYLE && rule != RULE_STANDARD) || turn_ms < 0 ||
	    margin_ms < 0)
		return NULL;
	ai = calloc(1, sizeof(*ai));
	if (!ai)
		return NULL;
	ai->size = board_size;
	ai->rule = rule;
	ai->turn_ms = turn_ms;
	ai->margin_ms = margin_ms;
	ai->done = done;
	ai->ctx = ctx;

	/* On Unix these only fill in the handles: they cannot fail. */
	uv_timer_init(loop, &ai->timer);
	uv_pipe_init(loop, &ai->to_engine, 0);
	uv_pipe_init(loop, &ai->from_engine, 0);
	ai->timer.data = ai;
	ai->to_engine.data = ai;
	ai->from_engine.data = ai;
	ai->handles = 3;

	memset(stdio, 0, sizeof(stdio));
	stdio[0].flags = UV_CREATE_PIPE | UV_READABLE_PIPE;
	stdio[0].data.stream = (uv_stream_t *)&ai->to_engine;
	stdio[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
	stdio[1].data.stream = (uv_stream_t *)&ai->from_engine;
	stdio[2].flags = UV_IGNORE; /* /dev/null */
	memset(&options, 0, sizeof(options));
	options.exit_cb = ai_on_exit;
	options.file = path;
	options.args = args;
	options.stdio = stdio;
	options.stdio_count = 3;
	options.flags = UV_PROCESS_DETACHED; /* its own process group */

	/* uv_spawn() initialises the process handle even when it fails. */
	err = uv_spawn(loop, &ai->process, &options);
	ai->process.data = ai;
	ai->handles++;
	ai->state = AI_STARTING;
	if (err) {
		ai_fail(ai, err, "engine could not be started");
		return ai;
	}
	ai->running = true;
	if (uv_read_start((uv_stream_t *)&ai->from_engine, ai_on_alloc,
			  ai_on_read) ||
	    ai_say(ai, false, "START %d\n", board_size)) {
		ai_fail(ai, -EPIPE, "engine could not be started");
		return ai;
	}
	ai_timer_start(ai, AI_EXTERNAL_START_MS);
	return ai;
}

/* BOARD ... DONE for moves, "1" for me's stones; NULL when out of memory. */
static struct ai_write *ai_board_new(const struct ai_external *ai,
				     const uint16_t *moves, int count,
				     enum role me)
{
	/* "BOARD\n", count times "xx,yy,1\n", "DONE\n" */
	size_t capacity = 16 + (size_t)count * 16;
	struct ai_write *write = ai_write_new(capacity);
	int i;

	if (!write)
		return NULL;
	write->len = (size_t)snprintf(write->text, capacity, "BOARD\n");
	for (i = 0; i < count; i++) {
		enum role mover = i % 2 ? ROLE_BACK : ROLE_FRONT;

		write->len += (size_t)snprintf(
			write->text + write->len, capacity - write->len,
			"%d,%d,%d\n", moves[i] % ai->size, moves[i] / ai->size,
			mover == me ? 1 : 2);
	}
	write->len += (size_t)snprintf(write->text + write->len,
				       capacity - write->len, "DONE\n");
	return write;
}

int ai_external_request(struct ai_external *ai, const uint16_t *moves,
			int count, enum role me)
{
	int cells = ai->size * ai->size;
	struct ai_write *write;
	int i;

	if (ai->pending)
		return -EBUSY;
	if (count < 0 || count > cells || (count && !moves) ||
	    me != (count % 2 ? ROLE_BACK : ROLE_FRONT))
		return -EINVAL;
	memset(ai->cells, ROLE_NONE, sizeof(ai->cells));
	for (i = 0; i < count; i++) {
		if (moves[i] >= cells || ai->cells[moves[i]] != ROLE_NONE)
			return -EINVAL;
		ai->cells[moves[i]] = i % 2 ? ROLE_BACK : ROLE_FRONT;
	}
	if (count == cells)
		return -ENOSPC;
	if (ai->state == AI_FAILED) {
		ai->pending = true;
		ai_timer_start(ai, 0); /* done from the loop, not from here */
		return 0;
	}
	write = ai_board_new(ai, moves, count, me);
	if (!write)
		return -ENOMEM;
	ai->pending = true;
	ai->queued = write;
	ai_send_queued(ai);
	return 0;
}

void ai_external_cancel(struct ai_external *ai)
{
	ai->pending = false;
	ai->answer_wanted = false;
	free(ai->queued);
	ai->queued = NULL;
}

void ai_external_free(struct ai_external *ai)
{
	if (!ai)
		return;
	ai_external_cancel(ai);
	ai->freed = true;
	uv_timer_stop(&ai->timer);
	ai_close(&ai->from_engine);
	if (!ai->running) {
		ai_close_all(ai);
		return;
	}
	/* END, then EOF; SIGKILL if it is still there after the grace. */
	if (ai->killed || ai->state == AI_FAILED || ai->lost ||
	    ai_say(ai, true, "END\n"))
		ai_close(&ai->to_engine);
	ai_timer_start(ai, AI_EXTERNAL_END_GRACE_MS);
}
