/*
 * list.h - an intrusive doubly linked list, oldest first.
 *
 * The item embeds a struct list_node; a struct list holds its ends and
 * its length. Nothing is allocated: an item is in at most one list per
 * node it embeds, and the caller owns the items. list_entry() gets the
 * item back from its node.
 */
#ifndef GOMOKU_LIST_H
#define GOMOKU_LIST_H

#include <stdbool.h>
#include <stddef.h>

/* Embedded in an item: its links in one list. */
struct list_node {
	struct list_node *prev; /* NULL at the head */
	struct list_node *next; /* NULL at the tail */
};

/* One of these per list: zeroed, it is empty. */
struct list {
	struct list_node *head; /* the oldest item's node */
	struct list_node *tail; /* the newest item's node */
	size_t count;		/* items in the list */
};

/* The item of type that embeds node as member. */
#define list_entry(node, type, member) \
	((type *)((char *)(node)-offsetof(type, member)))

/* The oldest item of list, of type with its node in member; NULL when empty. */
#define list_first(list, type, member) \
	((list)->head ? list_entry((list)->head, type, member) : NULL)

static inline bool list_is_empty(const struct list *list)
{
	return list->head == NULL;
}

/* Puts node last in list. */
static inline void list_append(struct list *list, struct list_node *node)
{
	node->next = NULL;
	node->prev = list->tail;
	if (list->tail)
		list->tail->next = node;
	else
		list->head = node;
	list->tail = node;
	list->count++;
}

/* Takes node out of list, wherever it stands. */
static inline void list_remove(struct list *list, struct list_node *node)
{
	if (node->prev)
		node->prev->next = node->next;
	else
		list->head = node->next;
	if (node->next)
		node->next->prev = node->prev;
	else
		list->tail = node->prev;
	node->prev = NULL;
	node->next = NULL;
	list->count--;
}

#endif
