/*
 * drain.h - draining close (a lingering close): a connection the server closes while its
 * client may still be sending stays half-open for up to DRAIN_MS, and
 * whatever still arrives is read and thrown away.
 *
 * Closing a socket that has unread bytes makes the kernel answer with a
 * reset, and a reset makes the client's kernel drop what it had not read
 * yet of ours: the close frame a client flooding messages was sent, the
 * answer to a request whose body is still coming (RFC 6455 7.1.1, RFC 9112
 * 9.6). libwebsockets closes the socket right after a connection's close
 * callback (having shut down its sending side); drain_start() takes a
 * duplicate of the descriptor in that callback, so that the socket
 * outlives lws' close, and watches it on the server's libuv loop until the
 * client closes too or the time is up.
 */
#ifndef GOMOKU_DRAIN_H
#define GOMOKU_DRAIN_H

#include <uv.h>

#define DRAIN_MS 2000  /* the longest a closed connection is read */
#define DRAIN_MAX 1024 /* sockets lingering at once; more close at once */

struct drain;

/* A lingering set on loop; NULL on out of memory. */
struct drain *drain_new(uv_loop_t *loop);

/*
 * Closes every lingering socket and frees the set once libuv has closed
 * their handles (run the loop after it). NULL is a no-op.
 */
void drain_free(struct drain *drain);

/*
 * Lingers on the socket fd that libwebsockets is about to close: its
 * sending side is shut down, a duplicate of it is read until the client
 * closes or DRAIN_MS pass. Does nothing when DRAIN_MAX already linger.
 */
void drain_start(struct drain *drain, int fd);

/* Sockets lingering now. */
unsigned int drain_count(const struct drain *drain);

#endif
