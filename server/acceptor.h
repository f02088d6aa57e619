/*
 * acceptor.h - --reuse-port: a listening socket of the server's own,
 * bound with SO_REUSEPORT so that the site's other processes on this
 * machine listen on the same port (the kernel spreads new connections
 * over them), whose connections are admitted and handed to
 * libwebsockets' vhost.
 *
 * libwebsockets 4.1.6 sets SO_REUSEPORT on its own listening socket only
 * when it runs several service threads, and Debian's build runs one: with
 * LWS_SERVER_OPTION_ALLOW_LISTEN_SHARE alone, a second process cannot
 * bind the port. So with --reuse-port the vhost listens nowhere
 * (CONTEXT_PORT_NO_LISTEN_SERVER) and adopts what this accepts, as its
 * own listener does: the accept filter (admission_accept()), TCP_NODELAY,
 * lws_adopt_socket_vhost(). SIGTERM closes the socket at once
 * (acceptor_stop()), so that new connections go to the other processes
 * while this one says goodbye to its own.
 *
 * On the event loop's thread only.
 */
#ifndef GOMOKU_ACCEPTOR_H
#define GOMOKU_ACCEPTOR_H

#include <uv.h> /* before libwebsockets.h: it declares its libuv API then */

#include <libwebsockets.h>
#include <stdbool.h>
#include <stddef.h>

#include "admission.h"
#include "listen.h"

struct acceptor;

/*
 * Binds addr (listen_resolve()'s) and port with SO_REUSEPORT and listens.
 * NULL with one line in err when it cannot.
 */
struct acceptor *acceptor_new(uv_loop_t *loop,
			      const struct listen_address *addr, int port,
			      char *err, size_t err_size);

/*
 * Accepts from now on: each connection admission takes is adopted by
 * vhost. 0, or -1 when the loop refuses the socket.
 */
int acceptor_start(struct acceptor *acc, struct lws_vhost *vhost,
		   struct admission *admission);

/* Closes the listening socket: nothing more is accepted. */
void acceptor_stop(struct acceptor *acc);

/* acceptor_stop(), and the loop frees it. NULL is a no-op. */
void acceptor_free(struct acceptor *acc);

#endif
