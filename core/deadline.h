/*
 * deadline.h - a min-heap of deadlines: which of many timers falls first.
 *
 * An item embeds a struct deadline (its time and its place in the heap);
 * deadline_set() puts it in, moves it, or takes it out, in O(log n).
 * The heap owns only its array of pointers; the caller owns the items and
 * takes one out (deadline_set() with DEADLINE_NONE) before freeing it.
 * Pure: no clock, the times are the caller's.
 */
#ifndef GOMOKU_DEADLINE_H
#define GOMOKU_DEADLINE_H

#include <stddef.h>
#include <stdint.h>

/* No deadline: the item is not in the heap. */
#define DEADLINE_NONE UINT64_MAX

/* Embedded in an item. Zeroed, it is in no heap. */
struct deadline {
	uint64_t at; /* when it falls; DEADLINE_NONE when not in the heap */
	size_t slot; /* its index in the heap, from 1; 0 when not there */
};

/* One of these per set of timers. Zeroed, it is empty. */
struct deadline_heap {
	struct deadline **items; /* items[1..count]; the earliest at 1 */
	size_t count;
	size_t cap; /* entries of items, the unused 0 included */
};

/*
 * Sets item's deadline to at: puts it in the heap, moves it, or with
 * DEADLINE_NONE takes it out. 0, or -ENOMEM (only when putting a new one
 * in; then item is not in the heap).
 */
int deadline_set(struct deadline_heap *heap, struct deadline *item,
		 uint64_t at);

/* The item whose deadline falls first; NULL when the heap is empty. */
struct deadline *deadline_first(const struct deadline_heap *heap);

/* Frees the array; the items are the caller's. */
void deadline_release(struct deadline_heap *heap);

#endif
