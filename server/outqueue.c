/*
 * outqueue.c - per-connection FIFO of outgoing messages.
 */
#include "outqueue.h"

#include <errno.h>
#include <stdlib.h>

void outqueue_init(struct outqueue *queue)
{
	queue->head = NULL;
	queue->tail = NULL;
	queue->count = 0;
	queue->bytes = 0;
}

int outqueue_push(struct outqueue *queue, char *buf, size_t len, uint64_t batch)
{
	struct outmsg *msg = malloc(sizeof(*msg));

	if (!msg) {
		free(buf);
		return -ENOMEM;
	}
	msg->next = NULL;
	msg->buf = buf;
	msg->len = len;
	msg->batch = batch;
	if (queue->tail)
		queue->tail->next = msg;
	else
		queue->head = msg;
	queue->tail = msg;
	queue->count++;
	queue->bytes += len;
	return 0;
}

struct outmsg *outqueue_peek(const struct outqueue *queue)
{
	return queue->head;
}

void outqueue_pop(struct outqueue *queue)
{
	struct outmsg *msg = queue->head;

	if (!msg)
		return;
	queue->head = msg->next;
	if (!queue->head)
		queue->tail = NULL;
	queue->count--;
	queue->bytes -= msg->len;
	free(msg->buf);
	free(msg);
}

void outqueue_release(struct outqueue *queue)
{
	while (queue->head)
		outqueue_pop(queue);
}
