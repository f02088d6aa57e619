/*
 * outqueue.c - pooled, shared message buffers and per-connection rings.
 */
#include "outqueue.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#define OUTQUEUE_FIRST_RING 8 /* entries of the first allocated ring */
#define OUTBUF_POOL_MAX 4096 /* unused small buffers kept */
#define MALLOC_OVERHEAD 16   /* glibc's header and rounding, about */

static struct outbuf *outbuf_pool; /* unused small buffers */
static unsigned int outbuf_pool_count;

struct outbuf *outbuf_new(size_t cap)
{
	struct outbuf *buf;

	if (cap <= OUTBUF_SMALL && outbuf_pool) {
		buf = outbuf_pool;
		outbuf_pool = buf->next_free;
		outbuf_pool_count--;
	} else {
		if (cap < OUTBUF_SMALL)
			cap = OUTBUF_SMALL;
		buf = malloc(sizeof(*buf) + OUTBUF_HEADROOM + cap + 1);
		if (!buf)
			return NULL;
		buf->cap = cap;
	}
	buf->refs = 1;
	buf->len = 0;
	buf->next_free = NULL;
	return buf;
}

size_t outbuf_cost(const struct outbuf *buf)
{
	return sizeof(*buf) + OUTBUF_HEADROOM + buf->cap + 1 + MALLOC_OVERHEAD;
}

void outbuf_put(struct outbuf *buf)
{
	if (!buf || --buf->refs)
		return;
	if (buf->cap == OUTBUF_SMALL && outbuf_pool_count < OUTBUF_POOL_MAX) {
		buf->next_free = outbuf_pool;
		outbuf_pool = buf;
		outbuf_pool_count++;
		return;
	}
	free(buf);
}

void outbuf_pool_release(void)
{
	while (outbuf_pool) {
		struct outbuf *next = outbuf_pool->next_free;

		free(outbuf_pool);
		outbuf_pool = next;
	}
	outbuf_pool_count = 0;
}

void outqueue_init(struct outqueue *queue)
{
	queue->ring = queue->small;
	queue->head = 0;
	queue->count = 0;
	queue->cap = OUTQUEUE_INLINE;
	queue->cost = 0;
}

/* Allocated rings start larger than the small one. */
static bool outqueue_allocated(const struct outqueue *queue)
{
	return queue->cap > OUTQUEUE_INLINE;
}

/* Doubles the ring, keeping the entries in order. */
static int outqueue_grow(struct outqueue *queue)
{
	unsigned int cap = outqueue_allocated(queue) ? queue->cap * 2
						    : OUTQUEUE_FIRST_RING;
	struct outentry *ring = malloc(cap * sizeof(*ring));

	if (!ring)
		return -ENOMEM;
	for (unsigned int i = 0; i < queue->count; i++)
		ring[i] = queue->ring[(queue->head + i) & (queue->cap - 1)];
	if (outqueue_allocated(queue)) {
		free(queue->ring);
		queue->cost -= queue->cap * sizeof(*ring);
	}
	queue->cost += cap * sizeof(*ring);
	queue->ring = ring;
	queue->head = 0;
	queue->cap = cap;
	return 0;
}

int outqueue_push(struct outqueue *queue, struct outbuf *buf, uint64_t batch)
{
	struct outentry *entry;

	if (queue->count == queue->cap && outqueue_grow(queue))
		return -ENOMEM;
	entry = &queue->ring[(queue->head + queue->count) & (queue->cap - 1)];
	entry->buf = buf;
	entry->batch = batch;
	buf->refs++;
	queue->count++;
	queue->cost += outbuf_cost(buf);
	return 0;
}

struct outentry *outqueue_peek(const struct outqueue *queue)
{
	return queue->count ? &queue->ring[queue->head] : NULL;
}

void outqueue_pop(struct outqueue *queue)
{
	struct outentry *entry = outqueue_peek(queue);

	if (!entry)
		return;
	queue->cost -= outbuf_cost(entry->buf);
	outbuf_put(entry->buf);
	queue->head = (queue->head + 1) & (queue->cap - 1);
	queue->count--;
	if (!queue->count && outqueue_allocated(queue)) {
		free(queue->ring);
		outqueue_init(queue);
	}
}

void outqueue_release(struct outqueue *queue)
{
	while (queue->count)
		outqueue_pop(queue);
}
