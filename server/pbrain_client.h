/*
 * pbrain_client.h - an external engine speaking the Gomocup/Piskvork "pbrain"
 * protocol, one child process per game, driven on a libuv loop.
 *
 * The engine is started with "START size" (it must answer OK), then told
 * "INFO timeout_turn ms", "INFO timeout_match 0" and "INFO rule n" (0, 1
 * or 4: pbrain/gomocup.h). Each request sends the whole position as BOARD ... DONE ("x,y,1" for the
 * engine's own stones, "x,y,2" for the opponent's, in the order they were
 * played), so the engine keeps no state between requests and takebacks
 * cost nothing; the engine answers "x,y". Lines starting with MESSAGE or
 * DEBUG are skipped; OK or UNKNOWN after an INFO are tolerated (one per
 * INFO sent); ERROR is a failure. pbrain_client_free() sends END.
 *
 * Everything is asynchronous: nothing here blocks or waits. Any failure is
 * final: the child is killed (SIGKILL to its process group), and that
 * request and every later one fail with the same code and reason:
 *
 *   -ENOENT, -EACCES, ...  the program could not be started (uv_spawn)
 *   -EPROTO   ERROR, UNKNOWN or anything else but OK in answer to START;
 *             ERROR at any time; a line that is not "x,y"; a cell off the
 *             board or already occupied; a line over PBRAIN_CLIENT_LINE_MAX
 *   -ETIMEDOUT  no OK within PBRAIN_CLIENT_START_MS of the start, or no
 *             move within turn_ms + margin_ms
 *   -EPIPE    the engine exited, was killed by a signal, or closed its
 *             stdin or stdout
 *
 * The engine's stderr goes to /dev/null. The child runs in its own session
 * (so that killing it kills its helpers too) with default signal
 * dispositions. The process must ignore SIGPIPE (main.c does), or writing
 * to an engine that just died would kill the server.
 *
 * On the loop's thread only. The caller owns the struct pbrain_client from
 * pbrain_client_start() until pbrain_client_free(); the handles and memory are
 * released asynchronously afterwards, so the loop must keep running for a
 * while (at most PBRAIN_CLIENT_END_GRACE_MS, plus the child's exit) before
 * uv_loop_close().
 */
#ifndef GOMOKU_PBRAIN_CLIENT_H
#define GOMOKU_PBRAIN_CLIENT_H

#include <stdint.h>
#include <uv.h>

#include "board.h"

#define PBRAIN_CLIENT_START_MS 5000    /* for OK to START, from the spawn */
#define PBRAIN_CLIENT_MARGIN_MS 1000   /* the server's margin_ms */
#define PBRAIN_CLIENT_END_GRACE_MS 200 /* after END, before SIGKILL */
#define PBRAIN_CLIENT_LINE_MAX 4096    /* longest line read, newline included */

/* Opaque: one per game against an external engine. */
struct pbrain_client;

/*
 * The result of one request: err 0 and the engine's move (x, y), or a
 * negative errno-style code (above), x = y = -1, and a short static reason
 * ("engine exited", "engine played an occupied cell", ...) for the log.
 * reason is "" on success.
 */
typedef void pbrain_client_done_fn(void *ctx, int err, int x, int y,
				   const char *reason);

/*
 * Spawns the program at path (searched in PATH when it has no slash, no
 * arguments) and sends START and the INFO lines; turn_ms is the engine's
 * time per move (0: "as fast as possible"), margin_ms how much longer it
 * may take before it counts as silent. done(ctx, ...) reports every
 * request. NULL only for bad arguments (board size, rule, turn_ms or
 * margin_ms < 0) or out of memory: a program that cannot be started gives
 * an object whose first request fails.
 */
struct pbrain_client *pbrain_client_start(uv_loop_t *loop, const char *path,
					  int board_size, enum rule rule,
					  int turn_ms, int margin_ms,
					  pbrain_client_done_fn *done,
					  void *ctx);

/*
 * Asks for a move in the position moves[0..count): flat indices
 * (board_index()) in the order played, front the even ones; me is the
 * engine's side and must be the side to move. At most one request at a
 * time. 0, and then done is called exactly once (never from inside this
 * call) unless the request is cancelled or the engine freed first;
 * -EBUSY while a request is pending; -EINVAL for a bad position (an index
 * off the board, a cell played twice, me not to move); -ENOSPC for a full
 * board. A request made while the engine still starts, or still owes the
 * answer of a cancelled request, is sent once it is ready; its time runs
 * from then.
 */
int pbrain_client_request(struct pbrain_client *client, const uint16_t *moves,
			  int count, enum role me);

/*
 * Cancels the pending request, if any: done will not be called for it,
 * and the engine's answer, if one comes, is dropped.
 */
void pbrain_client_cancel(struct pbrain_client *client);

/*
 * Ends the engine: sends END and closes its stdin, kills it after
 * PBRAIN_CLIENT_END_GRACE_MS if it has not exited, reaps it, and frees
 * everything once the handles are closed. done is never called after
 * this, even from inside done. NULL is a no-op.
 */
void pbrain_client_free(struct pbrain_client *client);

#endif
