/*
 * test_deadline.c - the min-heap of deadlines: the earliest first, items
 * moved and taken out, checked against a plain scan of every item.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "deadline.h"
#include "expect.h"

#define ITEMS 300

/* The earliest deadline among items (DEADLINE_NONE: none in the heap). */
static uint64_t earliest_by_scan(const struct deadline *items, int count)
{
	uint64_t earliest = DEADLINE_NONE;

	for (int i = 0; i < count; i++)
		if (items[i].slot && items[i].at < earliest)
			earliest = items[i].at;
	return earliest;
}

/* Every item in the heap knows its slot, and every parent falls first. */
static void expect_heap_shape(const struct deadline_heap *heap)
{
	for (size_t i = 1; i <= heap->count; i++) {
		expect_int(heap->items[i]->slot, i);
		if (i > 1 && heap->items[i / 2]->at > heap->items[i]->at)
			fail_msg("slot %zu falls before its parent", i);
	}
}

static void an_empty_heap_has_no_first(void **state)
{
	struct deadline_heap heap = { 0 };
	struct deadline item = { .at = DEADLINE_NONE };

	(void)state;
	assert_null(deadline_first(&heap));
	/* taking out an item that is not in: nothing happens */
	expect_int(deadline_set(&heap, &item, DEADLINE_NONE), 0);
	expect_int(heap.count, 0);
	deadline_release(&heap);
}

static void the_earliest_comes_first_and_moves_follow(void **state)
{
	struct deadline_heap heap = { 0 };
	struct deadline a = { 0 }, b = { 0 }, c = { 0 };

	(void)state;
	expect_int(deadline_set(&heap, &a, 300), 0);
	expect_int(deadline_set(&heap, &b, 100), 0);
	expect_int(deadline_set(&heap, &c, 200), 0);
	assert_ptr_equal(deadline_first(&heap), &b);
	/* b later: c is first */
	expect_int(deadline_set(&heap, &b, 400), 0);
	assert_ptr_equal(deadline_first(&heap), &c);
	/* a earlier than all */
	expect_int(deadline_set(&heap, &a, 50), 0);
	assert_ptr_equal(deadline_first(&heap), &a);
	/* a out: c again */
	expect_int(deadline_set(&heap, &a, DEADLINE_NONE), 0);
	expect_int(a.slot, 0);
	expect_int(a.at, DEADLINE_NONE);
	assert_ptr_equal(deadline_first(&heap), &c);
	expect_int(heap.count, 2);
	expect_heap_shape(&heap);
	deadline_release(&heap);
	assert_null(deadline_first(&heap));
}

/* Thousands of random sets, moves and removals against a plain scan. */
static void random_changes_agree_with_a_scan(void **state)
{
	struct deadline_heap heap = { 0 };
	struct deadline items[ITEMS];
	unsigned int seed = 12345;

	(void)state;
	memset(items, 0, sizeof(items));
	for (int step = 0; step < 20000; step++) {
		struct deadline *item;
		uint64_t at;

		seed = seed * 1103515245u + 12345u;
		item = &items[(seed >> 8) % ITEMS];
		seed = seed * 1103515245u + 12345u;
		/* one change in five takes an item out */
		at = (seed >> 8) % 5 == 0 ? DEADLINE_NONE : (seed >> 12) % 1000;
		expect_int(deadline_set(&heap, item, at), 0);
		if (earliest_by_scan(items, ITEMS) !=
		    (deadline_first(&heap) ? deadline_first(&heap)->at :
					     DEADLINE_NONE))
			fail_msg("step %d: the heap's first is not the earliest",
				 step);
		if (step % 997 == 0)
			expect_heap_shape(&heap);
	}
	/* popping everything comes out in order */
	for (uint64_t last = 0; deadline_first(&heap);) {
		struct deadline *first = deadline_first(&heap);

		if (first->at < last)
			fail_msg("popped %llu after %llu",
				 (unsigned long long)first->at,
				 (unsigned long long)last);
		last = first->at;
		expect_int(deadline_set(&heap, first, DEADLINE_NONE), 0);
	}
	expect_int(heap.count, 0);
	deadline_release(&heap);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(an_empty_heap_has_no_first),
		cmocka_unit_test(the_earliest_comes_first_and_moves_follow),
		cmocka_unit_test(random_changes_agree_with_a_scan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
