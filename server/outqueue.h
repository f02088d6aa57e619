/*
 * outqueue.h - encoded messages and each connection's queue of them.
 *
 * A struct outbuf is one encoded message with the transport's headroom in
 * front, reference-counted so that the message both players of a room get
 * is encoded once and queued twice. Small buffers come from a free list,
 * so the hot path (a move and its two board messages) allocates nothing
 * once the server is warm. Everything that wants to tell a client
 * something queues a whole message; the end of the loop turn writes the
 * queue (session_flush_all()), or the WRITEABLE callback one at a time.
 */
#ifndef GOMOKU_OUTQUEUE_H
#define GOMOKU_OUTQUEUE_H

#include <libwebsockets.h>
#include <stddef.h>
#include <stdint.h>

#define OUTBUF_HEADROOM LWS_PRE /* the frame header goes here */
#define OUTBUF_SMALL 256	/* capacity of pooled buffers */

/* One encoded message. */
struct outbuf {
	unsigned int refs;	  /* holders: queues and the encoder */
	size_t len;		  /* payload bytes */
	size_t cap;		  /* payload bytes it can hold */
	struct outbuf *next_free; /* in the pool while unused */
	unsigned char data[];	  /* OUTBUF_HEADROOM, then the payload */
};

/* A buffer for up to cap payload bytes, refs 1; NULL on out of memory. */
struct outbuf *outbuf_new(size_t cap);

/*
 * The memory one buffer holds, with its headroom and the allocator's
 * bookkeeping: what a queue pays for it (a small message costs far more
 * than its payload).
 */
size_t outbuf_cost(const struct outbuf *buf);

/* The payload, after the headroom. */
static inline char *outbuf_payload(struct outbuf *buf)
{
	return (char *)buf->data + OUTBUF_HEADROOM;
}

/* Drops a reference; the last one returns the buffer to the pool. */
void outbuf_put(struct outbuf *buf);

/* Frees the pool's unused buffers (at exit). */
void outbuf_pool_release(void);

/* A queued message. */
struct outentry {
	struct outbuf *buf; /* a reference the queue holds */
	uint64_t batch;	    /* held until this store batch commits */
};

#define OUTQUEUE_INLINE 2 /* entries a queue holds without an allocation */

/*
 * One of these per connection: FIFO of messages not yet written. A turn
 * rarely gives a connection more than two messages: those fit in the
 * queue itself, and a larger ring is allocated only while more wait (it
 * is freed when the queue drains, so an idle connection holds none).
 * The ring may point into the queue: a queue is never copied or moved.
 */
struct outqueue {
	struct outentry *ring; /* cap entries: small, or allocated */
	unsigned int head;     /* index of the oldest entry */
	unsigned int count;    /* entries queued */
	unsigned int cap;      /* a power of two */
	size_t cost;	       /* memory held: an allocated ring and, whole
				* (also when shared), every queued buffer */
	struct outentry small[OUTQUEUE_INLINE]; /* the ring while it fits */
};

void outqueue_init(struct outqueue *queue);

/*
 * Appends buf, taking a reference of its own, to be written once store
 * batch `batch` has committed (0: at once). 0, or -ENOMEM.
 */
int outqueue_push(struct outqueue *queue, struct outbuf *buf, uint64_t batch);

/* The oldest entry, or NULL. */
struct outentry *outqueue_peek(const struct outqueue *queue);

/* The entry i places after the oldest (i < count). */
static inline struct outentry *outqueue_at(const struct outqueue *queue,
					   unsigned int i)
{
	return &queue->ring[(queue->head + i) & (queue->cap - 1)];
}

/* Drops the oldest entry. */
void outqueue_pop(struct outqueue *queue);

/* Drops every entry and the ring. */
void outqueue_release(struct outqueue *queue);

#endif
