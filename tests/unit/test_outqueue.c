/*
 * test_outqueue.c - a connection's queue of encoded messages
 * (server/outqueue.c): order through growth and wrap-around, shared
 * buffers, the memory it says it holds, and no ring kept once it drains.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "expect.h"
#include "outqueue.h"

/* A small message whose payload is its number, in decimal. */
static struct outbuf *message(int number)
{
	struct outbuf *buf = outbuf_new(16);

	assert_non_null(buf);
	buf->len = (size_t)snprintf(outbuf_payload(buf), 16, "%d", number);
	return buf;
}

/* Pushes message number (the queue's reference only). */
static void push(struct outqueue *queue, int number)
{
	struct outbuf *buf = message(number);

	expect_int(outqueue_push(queue, buf, 0), 0);
	outbuf_put(buf);
}

/* Pops the oldest entry, which must be message number. */
static void pop_expecting(struct outqueue *queue, int number)
{
	char want[16];
	struct outentry *entry = outqueue_peek(queue);

	assert_non_null(entry);
	snprintf(want, sizeof(want), "%d", number);
	expect_int(entry->buf->len, strlen(want));
	expect_int(memcmp(outbuf_payload(entry->buf), want, strlen(want)), 0);
	outqueue_pop(queue);
}

static void test_two_messages_need_no_ring(void **state)
{
	struct outqueue queue;

	(void)state;
	outqueue_init(&queue);
	push(&queue, 1);
	push(&queue, 2);
	expect_int(queue.ring == queue.small, 1);
	expect_int(queue.cost, 2 * outbuf_cost(outqueue_peek(&queue)->buf));
	pop_expecting(&queue, 1);
	pop_expecting(&queue, 2);
	expect_int(queue.count, 0);
	expect_int(queue.cost, 0);
	outqueue_release(&queue);
}

static void test_order_kept_through_growth_and_wrap(void **state)
{
	struct outqueue queue;
	int next_in = 0, next_out = 0;

	(void)state;
	outqueue_init(&queue);
	/* in 3, out 2, many times over: the ring wraps and doubles */
	for (int round = 0; round < 40; round++) {
		for (int i = 0; i < 3; i++)
			push(&queue, next_in++);
		for (int i = 0; i < 2; i++)
			pop_expecting(&queue, next_out++);
	}
	expect_int(queue.count, 40);
	expect_int(queue.cap, 64);
	expect_int(queue.ring != queue.small, 1);
	while (next_out < next_in)
		pop_expecting(&queue, next_out++);
	expect_int(outqueue_peek(&queue) == NULL, 1);
	outqueue_release(&queue);
}

static void test_drained_queue_gives_its_ring_back(void **state)
{
	struct outqueue queue;

	(void)state;
	outqueue_init(&queue);
	for (int i = 0; i < 5; i++)
		push(&queue, i);
	expect_int(queue.cap, 8);
	expect_int(queue.cost >
			   8 * sizeof(struct outentry) +
				   5 * outbuf_cost(outqueue_peek(&queue)->buf) - 1,
		   1);
	for (int i = 0; i < 5; i++)
		pop_expecting(&queue, i);
	/* idle: nothing allocated, nothing counted */
	expect_int(queue.ring == queue.small, 1);
	expect_int(queue.cap, OUTQUEUE_INLINE);
	expect_int(queue.cost, 0);
	push(&queue, 7);
	pop_expecting(&queue, 7);
	outqueue_release(&queue);
}

static void test_shared_buffer_outlives_one_queue(void **state)
{
	struct outqueue a, b;
	struct outbuf *buf = message(42);

	(void)state;
	outqueue_init(&a);
	outqueue_init(&b);
	expect_int(outqueue_push(&a, buf, 0), 0);
	expect_int(outqueue_push(&b, buf, 0), 0);
	outbuf_put(buf); /* the encoder's reference */
	expect_int(buf->refs, 2);
	outqueue_release(&a);
	expect_int(buf->refs, 1);
	pop_expecting(&b, 42);
	outqueue_release(&b);
}

static void test_release_drops_everything(void **state)
{
	struct outqueue queue;

	(void)state;
	outqueue_init(&queue);
	for (int i = 0; i < 20; i++)
		push(&queue, i);
	outqueue_release(&queue);
	expect_int(queue.count, 0);
	expect_int(queue.cost, 0);
	expect_int(queue.ring == queue.small, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_messages_need_no_ring),
		cmocka_unit_test(test_order_kept_through_growth_and_wrap),
		cmocka_unit_test(test_drained_queue_gives_its_ring_back),
		cmocka_unit_test(test_shared_buffer_outlives_one_queue),
		cmocka_unit_test(test_release_drops_everything),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);

	outbuf_pool_release();
	return failed;
}
