/*
 * deadline.c - a binary min-heap of embedded deadlines, indexed from 1.
 */
#include "deadline.h"

#include <errno.h>
#include <stdlib.h>

/* Puts item at slot i and tells it where it is. */
static void deadline_place(struct deadline_heap *heap, size_t i,
			   struct deadline *item)
{
	heap->items[i] = item;
	item->slot = i;
}

/* Moves the item at slot i up while it falls before its parent. */
static void deadline_up(struct deadline_heap *heap, size_t i)
{
	struct deadline *item = heap->items[i];

	while (i > 1 && heap->items[i / 2]->at > item->at) {
		deadline_place(heap, i, heap->items[i / 2]);
		i /= 2;
	}
	deadline_place(heap, i, item);
}

/* Moves the item at slot i down while a child falls before it. */
static void deadline_down(struct deadline_heap *heap, size_t i)
{
	struct deadline *item = heap->items[i];

	for (;;) {
		size_t child = i * 2;

		if (child > heap->count)
			break;
		if (child < heap->count &&
		    heap->items[child + 1]->at < heap->items[child]->at)
			child++;
		if (heap->items[child]->at >= item->at)
			break;
		deadline_place(heap, i, heap->items[child]);
		i = child;
	}
	deadline_place(heap, i, item);
}

/* Takes the item out of the heap. */
static void deadline_remove(struct deadline_heap *heap, struct deadline *item)
{
	size_t i = item->slot;
	struct deadline *last = heap->items[heap->count--];

	item->slot = 0;
	item->at = DEADLINE_NONE;
	if (last == item)
		return;
	deadline_place(heap, i, last);
	deadline_up(heap, i);
	deadline_down(heap, last->slot);
}

int deadline_set(struct deadline_heap *heap, struct deadline *item,
		 uint64_t at)
{
	if (at == DEADLINE_NONE) {
		if (item->slot)
			deadline_remove(heap, item);
		return 0;
	}
	if (!item->slot) {
		if (heap->count + 1 >= heap->cap) {
			size_t cap = heap->cap ? heap->cap * 2 : 16;
			struct deadline **items =
				realloc(heap->items, cap * sizeof(*items));

			if (!items)
				return -ENOMEM;
			heap->items = items;
			heap->cap = cap;
		}
		item->at = at;
		deadline_place(heap, ++heap->count, item);
		deadline_up(heap, item->slot);
		return 0;
	}
	item->at = at;
	deadline_up(heap, item->slot);
	deadline_down(heap, item->slot);
	return 0;
}

struct deadline *deadline_first(const struct deadline_heap *heap)
{
	return heap->count ? heap->items[1] : NULL;
}

void deadline_release(struct deadline_heap *heap)
{
	free(heap->items);
	*heap = (struct deadline_heap){ 0 };
}
