/*
 * test_pbrain_client.c - an external pbrain engine on a libuv loop, against
 * real processes: build/pbrain-gomoku, and the fake engines of
 * tests/fake-engines/ (shared with the integration tests) that exit, stay
 * silent, crash or answer wrong.
 *
 * Every test runs its own loop and ends by checking that the loop closes
 * (no handle left open), that no child process is left (reaped or not)
 * and that the process has as many file descriptors as before.
 *
 * One test file per module (server/pbrain_client.c); over 600 lines because
 * each way an engine can misbehave has a test of its own.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pbrain_client.h"
#include "expect.h"

#ifndef PBRAIN_GOMOKU
#error "PBRAIN_GOMOKU: the path of pbrain-gomoku"
#endif
#ifndef FAKE_ENGINES
#error "FAKE_ENGINES: the directory of the fake engines"
#endif

/*
 * Every wait and margin is written for an idle machine and multiplied by
 * GOMOKU_TEST_TIME_SCALE (as in tests/integration/lib/time.mjs): on a
 * busy machine, or under valgrind, a process waits longer for its turn.
 */
static int time_scale(void)
{
	const char *text = getenv("GOMOKU_TEST_TIME_SCALE");
	int scale = text ? atoi(text) : 1;

	return scale >= 1 ? scale : 1;
}

#define WAIT_LIMIT_MS (20000 * time_scale()) /* no wait is longer */
#define FAST_TURN_MS 100		     /* the turn time of most tests */

/* pbrain_client_start() with the server's margin, scaled. */
static struct pbrain_client *engine_start(uv_loop_t *loop, const char *path,
					  int size, enum rule rule, int turn_ms,
					  pbrain_client_done_fn *done,
					  void *ctx)
{
	return pbrain_client_start(loop, path, size, rule, turn_ms,
				   PBRAIN_CLIENT_MARGIN_MS * time_scale(), done,
				   ctx);
}

/* One of these per test: its loop and what it had before. */
struct fixture {
	uv_loop_t loop;
	int fds_before;	     /* open file descriptors at the start */
	uv_timer_t watchdog; /* ends a wait that takes too long */
	bool expired;	     /* the watchdog fired */
};

/* What done reported, for one engine. */
struct outcome {
	int calls;			    /* times done was called */
	int err;			    /* the last call's */
	int x, y;			    /* the last call's */
	const char *reason;		    /* the last call's */
	struct pbrain_client *free_in_done; /* freed from inside done */
};

/* The file descriptors this process has open. */
static int count_fds(void)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *entry;
	int count = 0;

	assert_non_null(dir);
	while ((entry = readdir(dir)))
		if (entry->d_name[0] != '.')
			count++;
	closedir(dir);
	return count;
}

/*
 * Counts the processes whose parent is ppid (zombies included: a child
 * not reaped is a leak), or with ppid 0 the live members of process group
 * pgid (a killed helper whose new parent does not reap it is gone all the
 * same). The first one's pid goes to *first when first is not NULL.
 */
static int count_processes(pid_t ppid, pid_t pgid, pid_t *first)
{
	DIR *dir = opendir("/proc");
	struct dirent *entry;
	int count = 0;

	assert_non_null(dir);
	while ((entry = readdir(dir))) {
		char path[300], stat[512];
		const char *after_name;
		int parent, group;
		FILE *file;
		size_t len;
		char state;

		if (entry->d_name[0] < '0' || entry->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", entry->d_name);
		file = fopen(path, "r");
		if (!file)
			continue; /* gone meanwhile */
		len = fread(stat, 1, sizeof(stat) - 1, file);
		fclose(file);
		stat[len] = '\0';
		/* "pid (comm) state ppid pgrp ...", comm may hold anything */
		after_name = strrchr(stat, ')');
		if (!after_name || sscanf(after_name + 1, " %c %d %d", &state,
					  &parent, &group) != 3)
			continue;
		if (ppid ? parent != ppid : group != pgid || state == 'Z')
			continue;
		if (first && !count)
			*first = (pid_t)atoi(entry->d_name);
		count++;
	}
	closedir(dir);
	return count;
}

/* This process's children, zombies included. */
static int count_children(pid_t *first)
{
	return count_processes(getpid(), 0, first);
}

/* The running test's, for on_done(). */
static struct fixture *current;

static void on_watchdog(uv_timer_t *timer)
{
	struct fixture *fx = timer->data;

	fx->expired = true;
	uv_stop(&fx->loop);
}

static void fixture_begin(struct fixture *fx)
{
	memset(fx, 0, sizeof(*fx));
	current = fx;
	expect_int(count_children(NULL), 0);
	fx->fds_before = count_fds();
	assert_int_equal(uv_loop_init(&fx->loop), 0);
	uv_timer_init(&fx->loop, &fx->watchdog);
	fx->watchdog.data = fx;
	uv_unref((uv_handle_t *)&fx->watchdog); /* never keeps the loop up */
}

/* Runs the loop until *calls reaches want; fails after WAIT_LIMIT_MS. */
static void wait_calls(struct fixture *fx, const int *calls, int want)
{
	fx->expired = false;
	uv_timer_start(&fx->watchdog, on_watchdog, WAIT_LIMIT_MS, 0);
	uv_ref((uv_handle_t *)&fx->watchdog);
	while (*calls < want && !fx->expired)
		uv_run(&fx->loop, UV_RUN_ONCE);
	uv_timer_stop(&fx->watchdog);
	uv_unref((uv_handle_t *)&fx->watchdog);
	if (fx->expired)
		fail_msg("done: expected %d calls within %d ms, got %d", want,
			 WAIT_LIMIT_MS, *calls);
}

/* Runs the loop for ms milliseconds. */
static void run_for(struct fixture *fx, uint64_t ms)
{
	fx->expired = false;
	uv_timer_start(&fx->watchdog, on_watchdog, ms, 0);
	uv_ref((uv_handle_t *)&fx->watchdog);
	while (!fx->expired)
		uv_run(&fx->loop, UV_RUN_ONCE);
	uv_unref((uv_handle_t *)&fx->watchdog);
}

/*
 * After the engines were freed: the loop must run dry (every handle
 * closed, every child reaped) within WAIT_LIMIT_MS, then close; nothing
 * may be left.
 */
static void fixture_end(struct fixture *fx)
{
	fx->expired = false;
	uv_timer_start(&fx->watchdog, on_watchdog, WAIT_LIMIT_MS, 0);
	uv_run(&fx->loop, UV_RUN_DEFAULT);
	if (fx->expired)
		fail_msg("the loop still had handles after %d ms",
			 WAIT_LIMIT_MS);
	uv_close((uv_handle_t *)&fx->watchdog, NULL);
	uv_run(&fx->loop, UV_RUN_DEFAULT);
	expect_int(uv_loop_close(&fx->loop), 0);
	expect_int(count_children(NULL), 0);
	expect_int(count_fds(), fx->fds_before);
}

static void on_done(void *ctx, int err, int x, int y, const char *reason)
{
	struct outcome *out = ctx;

	out->calls++;
	out->err = err;
	out->x = x;
	out->y = y;
	out->reason = reason;
	uv_stop(&current->loop); /* wait_calls() looks at once */
	if (out->free_in_done)
		pbrain_client_free(out->free_in_done);
}

static uint64_t now_ms(void)
{
	return uv_hrtime() / 1000000u;
}

static const char *fake(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", FAKE_ENGINES, name);
	return path;
}

/* A position as a list of (x, y) pairs, front's move first. */
struct position {
	int count;
	int cells[32][2];
};

static void flatten(const struct position *pos, int size, uint16_t *moves)
{
	for (int i = 0; i < pos->count; i++)
		moves[i] = (uint16_t)board_index(size, pos->cells[i][0],
						 pos->cells[i][1]);
}

static enum role side_to_move(int count)
{
	return count % 2 ? ROLE_BACK : ROLE_FRONT;
}

/* Asks ai for a move in pos and waits for it; returns the outcome. */
static void ask(struct fixture *fx, struct pbrain_client *ai, int size,
		const struct position *pos, struct outcome *out)
{
	uint16_t moves[32];
	int calls = out->calls;

	flatten(pos, size, moves);
	expect_int(pbrain_client_request(ai, moves, pos->count,
					 side_to_move(pos->count)),
		   0);
	expect_int(out->calls, calls); /* never from inside the request */
	wait_calls(fx, &out->calls, calls + 1);
}

/* Fails unless out's last answer is a legal move in pos. */
static void expect_legal(const struct outcome *out, int size,
			 const struct position *pos)
{
	if (out->err)
		fail_msg("expected a move, got %d (%s)", out->err, out->reason);
	if (out->x < 0 || out->y < 0 || out->x >= size || out->y >= size)
		fail_msg("expected a cell of the %dx%d board, got %d,%d", size,
			 size, out->x, out->y);
	for (int i = 0; i < pos->count; i++)
		if (pos->cells[i][0] == out->x && pos->cells[i][1] == out->y)
			fail_msg("expected an empty cell, got %d,%d (move %d)",
				 out->x, out->y, i + 1);
}

/* Fails unless out's last call reported err with reason. */
static void expect_failure(const struct outcome *out, int err,
			   const char *reason)
{
	if (out->err != err)
		fail_msg("expected error %d (%s), got %d (%s) at %d,%d", err,
			 reason, out->err, out->reason ? out->reason : "",
			 out->x, out->y);
	expect_str(out->reason, reason);
	expect_int(out->x, -1);
	expect_int(out->y, -1);
}

/* Some stones, back to move: nothing forced. */
static const struct position quiet = {
	7,
	{ { 7, 7 }, { 8, 8 }, { 6, 8 }, { 8, 6 }, { 7, 9 }, { 5, 7 }, { 9, 9 } },
};

/*
 * Back, to move, has four in a row at (2..5, 2): it must win at (1, 2) or
 * (6, 2). Front's stones are scattered.
 */
static const struct position back_wins = {
	9,
	{ { 10, 10 },
	  { 2, 2 },
	  { 12, 10 },
	  { 3, 2 },
	  { 10, 13 },
	  { 4, 2 },
	  { 13, 13 },
	  { 5, 2 },
	  { 0, 12 } },
};

/*
 * Back has four at (2..5, 5), blocked at (1, 5): front, to move and with
 * nothing of its own, must block at (6, 5).
 */
static const struct position front_blocks = {
	8,
	{ { 1, 5 },
	  { 2, 5 },
	  { 10, 0 },
	  { 3, 5 },
	  { 0, 10 },
	  { 4, 5 },
	  { 12, 12 },
	  { 5, 5 } },
};

static void pbrain_gomoku_answers_legal_moves(void **state)
{
	static const int sizes[] = { 15, 20 };
	static const enum rule rules[] = { RULE_FREESTYLE, RULE_STANDARD,
					   RULE_RENJU };
	static const struct position empty = { 0, { { 0, 0 } } };
	static const struct position one = { 1, { { 7, 7 } } };
	struct fixture fx;

	(void)state;
	fixture_begin(&fx);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++) {
		for (size_t r = 0; r < sizeof(rules) / sizeof(*rules); r++) {
			int size = sizes[s];
			struct outcome out = { 0 };
			struct pbrain_client *ai = engine_start(
				&fx.loop, PBRAIN_GOMOKU, size, rules[r],
				FAST_TURN_MS, on_done, &out);

			assert_non_null(ai);
			ask(&fx, ai, size, &empty, &out);
			expect_legal(&out, size, &empty);
			ask(&fx, ai, size, &one, &out);
			expect_legal(&out, size, &one);
			ask(&fx, ai, size, &quiet, &out);
			expect_legal(&out, size, &quiet);
			/* "1" is the engine's stones, as back and as front */
			ask(&fx, ai, size, &back_wins, &out);
			expect_legal(&out, size, &back_wins);
			if (out.y != 2 || (out.x != 1 && out.x != 6))
				fail_msg("back: expected the five at 1,2 or "
					 "6,2, got %d,%d",
					 out.x, out.y);
			ask(&fx, ai, size, &front_blocks, &out);
			expect_legal(&out, size, &front_blocks);
			if (out.x != 6 || out.y != 5)
				fail_msg("front: expected the block at 6,5, "
					 "got %d,%d",
					 out.x, out.y);
			/* a takeback is just a shorter position */
			ask(&fx, ai, size, &one, &out);
			expect_legal(&out, size, &one);
			expect_int(out.calls, 6);
			pbrain_client_free(ai);
		}
	}
	fixture_end(&fx);
}

/*
 * Starts the engine at path, asks for a move in pos at once and waits for
 * the failure; then asks again, which must fail the same way, later.
 */
static void expect_engine_fails(const char *path, int turn_ms,
				const struct position *pos, int err,
				const char *reason)
{
	struct fixture fx;
	struct outcome out = { 0 };
	struct pbrain_client *ai;

	fixture_begin(&fx);
	ai = engine_start(&fx.loop, path, 15, RULE_FREESTYLE, turn_ms, on_done,
			  &out);
	assert_non_null(ai);
	ask(&fx, ai, 15, pos, &out);
	expect_failure(&out, err, reason);
	ask(&fx, ai, 15, pos, &out);
	expect_failure(&out, err, reason);
	run_for(&fx, 50);
	expect_int(out.calls, 2);
	pbrain_client_free(ai);
	fixture_end(&fx);
}

static void an_engine_that_exits_after_start_fails(void **state)
{
	(void)state;
	expect_engine_fails(fake("exit-after-start.sh"), FAST_TURN_MS, &quiet,
			    -EPIPE, "engine exited");
}

static void an_engine_that_refuses_start_fails(void **state)
{
	(void)state;
	expect_engine_fails(fake("error-to-start.sh"), FAST_TURN_MS, &quiet,
			    -EPROTO, "engine refused START");
}

static void an_engine_that_answers_garbage_fails(void **state)
{
	(void)state;
	expect_engine_fails(fake("garbage.sh"), FAST_TURN_MS, &quiet, -EPROTO,
			    "engine answered garbage");
}

static void an_engine_that_plays_an_occupied_cell_fails(void **state)
{
	(void)state;
	expect_engine_fails(fake("occupied.sh"), FAST_TURN_MS, &quiet, -EPROTO,
			    "engine played an occupied cell");
}

static void an_engine_that_plays_off_the_board_fails(void **state)
{
	(void)state;
	expect_engine_fails(fake("off-board.sh"), FAST_TURN_MS, &quiet, -EPROTO,
			    "engine played off the board");
}

static void an_engine_that_writes_a_too_long_line_fails(void **state)
{
	(void)state;
	expect_engine_fails(fake("long-line.sh"), FAST_TURN_MS, &quiet, -EPROTO,
			    "engine wrote a line too long");
}

static void a_nonexistent_engine_fails_later_not_at_once(void **state)
{
	(void)state;
	expect_engine_fails(FAKE_ENGINES "/no-such-engine", FAST_TURN_MS,
			    &quiet, -ENOENT, "engine could not be started");
}

static void a_file_that_is_not_executable_fails(void **state)
{
	(void)state;
	expect_engine_fails(FAKE_ENGINES "/../../CMakeLists.txt", FAST_TURN_MS,
			    &quiet, -EACCES, "engine could not be started");
}

/* Waits for a silent engine's failure and checks how long it took. */
static void expect_timeout(const char *path, int turn_ms, uint64_t min_ms,
			   uint64_t max_ms, const char *reason)
{
	struct fixture fx;
	struct outcome out = { 0 };
	struct pbrain_client *ai;
	uint64_t started, took;

	fixture_begin(&fx);
	started = now_ms();
	ai = engine_start(&fx.loop, path, 15, RULE_STANDARD, turn_ms, on_done,
			  &out);
	assert_non_null(ai);
	ask(&fx, ai, 15, &quiet, &out);
	took = now_ms() - started;
	expect_failure(&out, -ETIMEDOUT, reason);
	if (took < min_ms || took > max_ms)
		fail_msg("expected the failure after %llu to %llu ms, got %llu",
			 (unsigned long long)min_ms, (unsigned long long)max_ms,
			 (unsigned long long)took);
	pbrain_client_free(ai);
	fixture_end(&fx);
}

static void a_silent_engine_fails_after_its_turn_and_the_margin(void **state)
{
	(void)state;
	uint64_t margin = (uint64_t)PBRAIN_CLIENT_MARGIN_MS * time_scale();

	expect_timeout(fake("silent.sh"), 300, 300 + margin,
		       300 + margin + 1000 * (uint64_t)time_scale(),
		       "engine did not answer in time");
}

static void an_engine_silent_to_start_fails_after_the_start_time(void **state)
{
	(void)state;
	expect_timeout(fake("silent-start.sh"), FAST_TURN_MS,
		       PBRAIN_CLIENT_START_MS,
		       PBRAIN_CLIENT_START_MS + 1000 * (uint64_t)time_scale(),
		       "engine did not answer START in time");
}

static void an_engine_that_crashes_mid_game_fails(void **state)
{
	static const struct position first = { 1, { { 7, 7 } } };
	struct fixture fx;
	struct outcome out = { 0 };
	struct pbrain_client *ai;

	(void)state;
	fixture_begin(&fx);
	ai = engine_start(&fx.loop, fake("crash.sh"), 15, RULE_FREESTYLE,
			  FAST_TURN_MS, on_done, &out);
	assert_non_null(ai);
	ask(&fx, ai, 15, &first, &out);
	expect_legal(&out, 15, &first);
	ask(&fx, ai, 15, &quiet, &out);
	expect_failure(&out, -EPIPE, "engine killed by a signal");
	pbrain_client_free(ai);
	fixture_end(&fx);
}

static void a_chatty_engine_is_understood(void **state)
{
	static const struct position top = { 2, { { 0, 0 }, { 1, 0 } } };
	struct fixture fx;
	struct outcome out = { 0 };
	struct pbrain_client *ai;

	(void)state;
	fixture_begin(&fx);
	ai = engine_start(&fx.loop, fake("chatty.sh"), 15, RULE_STANDARD,
			  FAST_TURN_MS, on_done, &out);
	assert_non_null(ai);
	ask(&fx, ai, 15, &quiet, &out);
	expect_legal(&out, 15, &quiet);
	expect_int(out.x, 0);
	expect_int(out.y, 0);
	ask(&fx, ai, 15, &top, &out);
	expect_legal(&out, 15, &top);
	expect_int(out.x, 2);
	expect_int(out.y, 0);
	pbrain_client_free(ai);
	fixture_end(&fx);
}

static void bad_requests_are_refused_at_once(void **state)
{
	static const struct position full_row = {
		5,
		{ { 0, 0 }, { 1, 0 }, { 2, 0 }, { 3, 0 }, { 4, 0 } }
	};
	uint16_t moves[BOARD_MAX_CELLS];
	struct fixture fx;
	struct outcome out = { 0 };
	struct pbrain_client *ai;

	(void)state;
	fixture_begin(&fx);
	assert_null(engine_start(&fx.loop, fake("chatty.sh"), 4, RULE_FREESTYLE,
				 100, on_done, &out));
	assert_null(engine_start(&fx.loop, fake("chatty.sh"), 26,
				 RULE_FREESTYLE, 100, on_done, &out));
	assert_null(engine_start(&fx.loop, fake("chatty.sh"), 15,
				 RULE_FREESTYLE, -1, on_done, &out));
	ai = engine_start(&fx.loop, fake("chatty.sh"), 5, RULE_FREESTYLE,
			  FAST_TURN_MS, on_done, &out);
	assert_non_null(ai);

	flatten(&full_row, 5, moves);
	expect_int(pbrain_client_request(ai, moves, 5, ROLE_FRONT), -EINVAL);
	moves[4] = 25; /* off the 5x5 board */
	expect_int(pbrain_client_request(ai, moves, 5, ROLE_BACK), -EINVAL);
	moves[4] = 0; /* played twice */
	expect_int(pbrain_client_request(ai, moves, 5, ROLE_BACK), -EINVAL);
	for (int i = 0; i < 25; i++)
		moves[i] = (uint16_t)i;
	expect_int(pbrain_client_request(ai, moves, 25, ROLE_BACK), -ENOSPC);
	expect_int(pbrain_client_request(ai, moves, 3, ROLE_BACK), 0);
	expect_int(pbrain_client_request(ai, moves, 2, ROLE_FRONT), -EBUSY);
	wait_calls(&fx, &out.calls, 1);
	expect_int(out.err, 0);
	expect_int(out.x, 3);
	expect_int(out.y, 0);
	pbrain_client_free(ai);
	fixture_end(&fx);
}

/*
 * A request cancelled while pbrain-gomoku thinks about it: its answer is
 * dropped, and the next request gets its own answer, once.
 */
static void a_cancelled_answer_is_dropped(void **state)
{
	struct fixture fx;
	struct outcome out = { 0 };
	struct pbrain_client *ai;
	uint16_t moves[32];

	(void)state;
	fixture_begin(&fx);
	ai = engine_start(&fx.loop, PBRAIN_GOMOKU, 15, RULE_FREESTYLE, 300,
			  on_done, &out);
	assert_non_null(ai);
	flatten(&quiet, 15, moves);
	expect_int(pbrain_client_request(ai, moves, quiet.count, ROLE_BACK), 0);
	run_for(&fx, 100); /* it is thinking now */
	pbrain_client_cancel(ai);
	pbrain_client_cancel(ai); /* twice is harmless */
	flatten(&front_blocks, 15, moves);
	expect_int(pbrain_client_request(ai, moves, front_blocks.count,
					 ROLE_FRONT),
		   0);
	wait_calls(&fx, &out.calls, 1);
	expect_int(out.err, 0);
	expect_int(out.x, 6);
	expect_int(out.y, 5);
	run_for(&fx, 300);
	expect_int(out.calls, 1);
	pbrain_client_free(ai);
	fixture_end(&fx);
}

/* Frees engine at path while it thinks, and checks nothing is left. */
static void expect_free_while_thinking(const char *path, bool cancel_first)
{
	struct fixture fx;
	struct outcome out = { 0 };
	struct pbrain_client *ai;
	uint16_t moves[32];
	pid_t child = 0;
	uint64_t started;

	fixture_begin(&fx);
	ai = engine_start(&fx.loop, path, 15, RULE_FREESTYLE, 5000, on_done,
			  &out);
	assert_non_null(ai);
	expect_int(count_children(&child), 1);
	flatten(&quiet, 15, moves);
	expect_int(pbrain_client_request(ai, moves, quiet.count, ROLE_BACK), 0);
	run_for(&fx, 200);
	if (cancel_first)
		pbrain_client_cancel(ai);
	started = now_ms();
	pbrain_client_free(ai);
	fixture_end(&fx);
	expect_int(out.calls, 0);
	/* its process group too: no helper survives (a killed process may
	 * take a moment to be gone from /proc) */
	while (count_processes(0, child, NULL) &&
	       now_ms() - started < (uint64_t)WAIT_LIMIT_MS)
		usleep(10000);
	if (count_processes(0, child, NULL))
		fail_msg("expected the engine's process group %d gone",
			 (int)child);
	if (now_ms() - started >
	    PBRAIN_CLIENT_END_GRACE_MS + 1000 * (uint64_t)time_scale())
		fail_msg("expected the engine killed after the grace, took "
			 "%llu ms",
			 (unsigned long long)(now_ms() - started));
}

static void free_while_pbrain_thinks_leaves_nothing(void **state)
{
	(void)state;
	expect_free_while_thinking(PBRAIN_GOMOKU, false);
}

static void cancel_then_free_leaves_nothing(void **state)
{
	(void)state;
	expect_free_while_thinking(PBRAIN_GOMOKU, true);
}

static void free_of_a_silent_engine_kills_its_group(void **state)
{
	(void)state;
	expect_free_while_thinking(fake("silent.sh"), false);
}

static void free_right_after_start_leaves_nothing(void **state)
{
	struct fixture fx;
	struct outcome out = { 0 };

	(void)state;
	fixture_begin(&fx);
	pbrain_client_free(engine_start(&fx.loop, PBRAIN_GOMOKU, 15,
					RULE_FREESTYLE, 100, on_done, &out));
	pbrain_client_free(NULL);
	fixture_end(&fx);
	expect_int(out.calls, 0);
}

static void free_from_inside_done_is_safe(void **state)
{
	struct fixture fx;
	struct outcome good = { 0 }, bad = { 0 };
	struct pbrain_client *ai;

	(void)state;
	fixture_begin(&fx);
	ai = engine_start(&fx.loop, fake("chatty.sh"), 15, RULE_FREESTYLE,
			  FAST_TURN_MS, on_done, &good);
	assert_non_null(ai);
	good.free_in_done = ai;
	ask(&fx, ai, 15, &quiet, &good);
	expect_legal(&good, 15, &quiet);

	ai = engine_start(&fx.loop, fake("garbage.sh"), 15, RULE_FREESTYLE,
			  FAST_TURN_MS, on_done, &bad);
	assert_non_null(ai);
	bad.free_in_done = ai;
	ask(&fx, ai, 15, &quiet, &bad);
	expect_failure(&bad, -EPROTO, "engine answered garbage");
	fixture_end(&fx);
	expect_int(good.calls, 1);
	expect_int(bad.calls, 1);
}

/* libuv's process-wide state (its signal lock pipe) comes first. */
static int set_up(void **state)
{
	uv_loop_t loop;

	(void)state;
	signal(SIGPIPE, SIG_IGN); /* as main.c does */
	if (uv_loop_init(&loop))
		return -1;
	return uv_loop_close(&loop);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pbrain_gomoku_answers_legal_moves),
		cmocka_unit_test(an_engine_that_exits_after_start_fails),
		cmocka_unit_test(an_engine_that_refuses_start_fails),
		cmocka_unit_test(an_engine_that_answers_garbage_fails),
		cmocka_unit_test(an_engine_that_plays_an_occupied_cell_fails),
		cmocka_unit_test(an_engine_that_plays_off_the_board_fails),
		cmocka_unit_test(an_engine_that_writes_a_too_long_line_fails),
		cmocka_unit_test(a_nonexistent_engine_fails_later_not_at_once),
		cmocka_unit_test(a_file_that_is_not_executable_fails),
		cmocka_unit_test(
			a_silent_engine_fails_after_its_turn_and_the_margin),
		cmocka_unit_test(
			an_engine_silent_to_start_fails_after_the_start_time),
		cmocka_unit_test(an_engine_that_crashes_mid_game_fails),
		cmocka_unit_test(a_chatty_engine_is_understood),
		cmocka_unit_test(bad_requests_are_refused_at_once),
		cmocka_unit_test(a_cancelled_answer_is_dropped),
		cmocka_unit_test(free_while_pbrain_thinks_leaves_nothing),
		cmocka_unit_test(cancel_then_free_leaves_nothing),
		cmocka_unit_test(free_of_a_silent_engine_kills_its_group),
		cmocka_unit_test(free_right_after_start_leaves_nothing),
		cmocka_unit_test(free_from_inside_done_is_safe),
	};

	return cmocka_run_group_tests(tests, set_up, NULL);
}
