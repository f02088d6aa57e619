/*
 * drain.c - closed sockets read until their clients close too.
 */
#include "drain.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#define DRAIN_READ_MAX 65536 /* bytes read from one socket per wake-up */

/* One of these per lingering socket. */
struct drain_socket {
	uv_poll_t poll;		   /* readable: read and throw away */
	int fd;			   /* our duplicate of lws' socket */
	uint64_t deadline;	   /* uv_now() when it is closed */
	struct drain *owner;	   /* the set it is in */
	struct drain_socket *prev; /* in deadline order, oldest first */
	struct drain_socket *next;
};

/* One of these per server. */
struct drain {
	uv_loop_t *loop;
	uv_timer_t timer;	   /* the oldest socket's deadline */
	struct drain_socket *head; /* oldest first: deadlines only grow */
	struct drain_socket *tail;
	unsigned int count;   /* sockets in the list */
	unsigned int handles; /* libuv handles not closed yet, timer too */
	bool freeing;	      /* drain_free() ran */
};

static void drain_handle_closed(struct drain *drain)
{
	if (--drain->handles == 0 && drain->freeing)
		free(drain);
}

static void drain_timer_closed(uv_handle_t *handle)
{
	drain_handle_closed(handle->data);
}

static void drain_socket_closed(uv_handle_t *handle)
{
	struct drain_socket *sock = handle->data;
	struct drain *owner = sock->owner;

	close(sock->fd);
	free(sock);
	drain_handle_closed(owner);
}

/* Takes sock out of the list and closes it. */
static void drain_close(struct drain_socket *sock)
{
	struct drain *drain = sock->owner;

	if (sock->prev)
		sock->prev->next = sock->next;
	else
		drain->head = sock->next;
	if (sock->next)
		sock->next->prev = sock->prev;
	else
		drain->tail = sock->prev;
	drain->count--;
	uv_poll_stop(&sock->poll);
	uv_close((uv_handle_t *)&sock->poll, drain_socket_closed);
}

/* Closes the sockets whose time is up; waits for the next one. */
static void drain_expire(uv_timer_t *timer)
{
	struct drain *drain = timer->data;
	uint64_t now = uv_now(drain->loop);

	while (drain->head && drain->head->deadline <= now)
		drain_close(drain->head);
	if (drain->head)
		uv_timer_start(&drain->timer, drain_expire,
			       drain->head->deadline - now, 0);
}

/* Reads and throws away; closes once the client closed or failed. */
static void drain_readable(uv_poll_t *poll, int status, int events)
{
	struct drain_socket *sock = poll->data;
	char scratch[4096];
	size_t total = 0;

	(void)events;
	if (status < 0) {
		drain_close(sock);
		return;
	}
	while (total < DRAIN_READ_MAX) {
		ssize_t n = read(sock->fd, scratch, sizeof(scratch));

		if (n > 0) {
			total += (size_t)n;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n < 0 && errno == EINTR)
			continue;
		drain_close(sock); /* end of stream, or an error */
		return;
	}
}

struct drain *drain_new(uv_loop_t *loop)
{
	struct drain *drain = calloc(1, sizeof(*drain));

	if (!drain)
		return NULL;
	drain->loop = loop;
	if (uv_timer_init(loop, &drain->timer)) {
		free(drain);
		return NULL;
	}
	drain->timer.data = drain;
	drain->handles = 1;
	return drain;
}

void drain_free(struct drain *drain)
{
	if (!drain)
		return;
	drain->freeing = true;
	while (drain->head)
		drain_close(drain->head);
	uv_close((uv_handle_t *)&drain->timer, drain_timer_closed);
}

void drain_start(struct drain *drain, int fd)
{
	struct drain_socket *sock;
	int copy;

	if (!drain || drain->freeing || fd < 0 || drain->count >= DRAIN_MAX)
		return;
	shutdown(fd, SHUT_WR); /* lws did, unless it gave up on the socket */
	copy = dup(fd);
	if (copy < 0)
		return;
	sock = calloc(1, sizeof(*sock));
	if (!sock || uv_poll_init(drain->loop, &sock->poll, copy)) {
		free(sock);
		close(copy);
		return;
	}
	sock->poll.data = sock;
	sock->fd = copy;
	sock->owner = drain;
	sock->deadline = uv_now(drain->loop) + DRAIN_MS;
	sock->prev = drain->tail;
	if (drain->tail)
		drain->tail->next = sock;
	else
		drain->head = sock;
	drain->tail = sock;
	drain->count++;
	drain->handles++;
	uv_poll_start(&sock->poll, UV_READABLE | UV_DISCONNECT, drain_readable);
	if (!uv_is_active((uv_handle_t *)&drain->timer))
		uv_timer_start(&drain->timer, drain_expire, DRAIN_MS, 0);
}

unsigned int drain_count(const struct drain *drain)
{
	return drain ? drain->count : 0;
}
