/*
 * outqueue.h - a connection's queue of complete outgoing messages.
 *
 * Everything that wants to tell a client something queues a whole message
 * here; only the WRITEABLE callback takes one off and writes it.
 */
#ifndef GOMOKU_OUTQUEUE_H
#define GOMOKU_OUTQUEUE_H

#include <stddef.h>
#include <stdint.h>

/* One queued message. */
struct outmsg {
	struct outmsg *next; /* the message after this one */
	char *buf;	     /* owned: headroom, then the payload */
	size_t len;	     /* payload bytes after the headroom */
	uint64_t batch;	     /* held until this store batch commits */
};

/* One of these per connection: FIFO of messages not yet written. */
struct outqueue {
	struct outmsg *head; /* next to write; NULL when empty */
	struct outmsg *tail; /* last queued */
	size_t count;	     /* messages queued */
	size_t bytes;	     /* payload bytes queued */
};

void outqueue_init(struct outqueue *queue);

/*
 * Appends buf (malloc'd; its payload of len bytes starts after the
 * transport's headroom), to be written once store batch `batch` has
 * committed (0: at once). The queue owns buf from here on, also on failure.
 * 0, or -ENOMEM.
 */
int outqueue_push(struct outqueue *queue, char *buf, size_t len,
		  uint64_t batch);

/* The oldest message, or NULL. */
struct outmsg *outqueue_peek(const struct outqueue *queue);

/* Frees the oldest message. */
void outqueue_pop(struct outqueue *queue);

/* Frees every queued message. */
void outqueue_release(struct outqueue *queue);

#endif
