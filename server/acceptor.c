/*
 * acceptor.c - --reuse-port's listening socket, accepted from on our loop
 * and handed to libwebsockets (see acceptor.h).
 */
#define _GNU_SOURCE /* accept4() */
#include "acceptor.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "log.h"

#define ACCEPTOR_BACKLOG 4096 /* as libwebsockets' LWS_SOMAXCONN */
#define ACCEPTOR_BATCH 64     /* accepts per wake-up, then the others */
#define ACCEPTOR_PAUSE_MS 100 /* out of descriptors: wait this long */

/* One per process with --reuse-port; owned by main.c. */
struct acceptor {
	int fd;			     /* the listening socket; -1 once closed */
	uv_poll_t poll;		     /* readable: connections wait */
	uv_timer_t pause;	     /* out of descriptors: try again */
	struct lws_vhost *vhost;     /* adopts what is accepted */
	struct admission *admission; /* counts and refuses */
	bool polling;		     /* poll started */
	int handles_open;	     /* poll and pause, until closed */
};

/* The address to bind: addr's numeric one, or every address. */
static socklen_t acceptor_address(const struct listen_address *addr, int port,
				  struct sockaddr_storage *sa)
{
	struct sockaddr_in *in = (struct sockaddr_in *)sa;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)sa;

	memset(sa, 0, sizeof(*sa));
	if (addr->ipv4) {
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)port);
		inet_pton(AF_INET, addr->numeric, &in->sin_addr);
		return sizeof(*in);
	}
	in6->sin6_family = AF_INET6;
	in6->sin6_port = htons((uint16_t)port);
	if (addr->numeric[0])
		inet_pton(AF_INET6, addr->numeric, &in6->sin6_addr);
	else
		in6->sin6_addr = in6addr_any;
	return sizeof(*in6);
}

/* A bound, listening socket with SO_REUSEPORT; -1 with err set. */
static int acceptor_listen(const struct listen_address *addr, int port,
			   char *err, size_t err_size)
{
	struct sockaddr_storage sa;
	socklen_t len = acceptor_address(addr, port, &sa);
	int one = 1, zero = 0;
	int fd = socket(sa.ss_family,
			SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		snprintf(err, err_size, "--reuse-port: socket: %s",
			 strerror(errno));
		return -1;
	}
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)) ||
	    (sa.ss_family == AF_INET6 && !addr->numeric[0] &&
	     setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero))) ||
	    bind(fd, (struct sockaddr *)&sa, len) ||
	    listen(fd, ACCEPTOR_BACKLOG)) {
		snprintf(err, err_size,
			 "--reuse-port: cannot listen on port %d: %s (is "
			 "another process there without --reuse-port?)",
			 port, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

struct acceptor *acceptor_new(uv_loop_t *loop,
			      const struct listen_address *addr, int port,
			      char *err, size_t err_size)
{
	struct acceptor *acc = calloc(1, sizeof(*acc));

	if (!acc) {
		snprintf(err, err_size, "--reuse-port: out of memory");
		return NULL;
	}
	acc->fd = acceptor_listen(addr, port, err, err_size);
	if (acc->fd < 0) {
		free(acc);
		return NULL;
	}
	uv_timer_init(loop, &acc->pause);
	acc->pause.data = acc;
	acc->handles_open = 1;
	if (uv_poll_init(loop, &acc->poll, acc->fd) == 0) {
		acc->poll.data = acc;
		acc->handles_open++;
	}
	return acc;
}

static void acceptor_on_readable(uv_poll_t *poll, int status, int events);

static void acceptor_on_pause_over(uv_timer_t *timer)
{
	struct acceptor *acc = timer->data;

	if (acc->fd >= 0 && acc->polling)
		uv_poll_start(&acc->poll, UV_READABLE, acceptor_on_readable);
}

/* One connection accepted: admitted and adopted, or closed. */
static void acceptor_take(struct acceptor *acc, int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (admission_accept(acc->admission, fd)) {
		close(fd);
		return;
	}
	/* On failure lws closes fd itself. */
	if (!lws_adopt_socket_vhost(acc->vhost, fd))
		log_warn("--reuse-port: libwebsockets did not take a "
			 "connection");
}

static void acceptor_on_readable(uv_poll_t *poll, int status, int events)
{
	struct acceptor *acc = poll->data;

	(void)events;
	if (status < 0 || acc->fd < 0)
		return;
	for (int i = 0; i < ACCEPTOR_BATCH; i++) {
		int fd = accept4(acc->fd, NULL, NULL,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd >= 0) {
			acceptor_take(acc, fd);
			continue;
		}
		if (errno == EINTR || errno == ECONNABORTED)
			continue;
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
		    errno == ENOMEM) {
			/* The socket stays readable: wait, or spin. */
			log_warn("--reuse-port: cannot accept: %s; pausing "
				 "%d ms",
				 strerror(errno), ACCEPTOR_PAUSE_MS);
			uv_poll_stop(&acc->poll);
			uv_timer_start(&acc->pause, acceptor_on_pause_over,
				       ACCEPTOR_PAUSE_MS, 0);
		}
		return; /* EAGAIN: nobody else waits */
	}
}

int acceptor_start(struct acceptor *acc, struct lws_vhost *vhost,
		   struct admission *admission)
{
	if (acc->handles_open < 2)
		return -1; /* uv_poll_init() failed */
	acc->vhost = vhost;
	acc->admission = admission;
	if (uv_poll_start(&acc->poll, UV_READABLE, acceptor_on_readable))
		return -1;
	acc->polling = true;
	return 0;
}

void acceptor_stop(struct acceptor *acc)
{
	if (!acc || acc->fd < 0)
		return;
	if (acc->handles_open == 2)
		uv_poll_stop(&acc->poll);
	uv_timer_stop(&acc->pause);
	acc->polling = false;
	close(acc->fd);
	acc->fd = -1;
}

static void acceptor_closed(uv_handle_t *handle)
{
	struct acceptor *acc = handle->data;

	if (--acc->handles_open == 0)
		free(acc);
}

void acceptor_free(struct acceptor *acc)
{
	if (!acc)
		return;
	acceptor_stop(acc);
	if (acc->handles_open == 2)
		uv_close((uv_handle_t *)&acc->poll, acceptor_closed);
	uv_close((uv_handle_t *)&acc->pause, acceptor_closed);
}
