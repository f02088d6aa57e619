/*
 * room_index.c - the open rooms of a lobby by id (a hash table, for
 * ?watch=ROOM) and in the order they opened (for the list of live rooms).
 */
#include "room.h"

#include <stdlib.h>
#include <string.h>

#define ROOM_INDEX_INITIAL_BUCKETS 64

/* FNV-1a over the canonical id. */
static size_t room_index_hash(const char *id)
{
	uint64_t hash = 14695981039346656037ULL;

	while (*id) {
		hash ^= (unsigned char)*id++;
		hash *= 1099511628211ULL;
	}
	return (size_t)hash;
}

/* The chain of the table that id belongs in. */
static struct lobby_room **room_index_bucket(struct lobby_room **table,
					     size_t buckets, const char *id)
{
	return &table[room_index_hash(id) & (buckets - 1)];
}

/*
 * Doubles the table once rooms outnumber buckets. Failing to grow only
 * makes the chains longer, so out of memory here is not an error.
 */
static void room_index_grow(struct lobby *lobby)
{
	size_t buckets = lobby->room_buckets ? lobby->room_buckets * 2 :
					       ROOM_INDEX_INITIAL_BUCKETS;
	struct lobby_room **table;

	if (lobby->room_buckets && lobby->rooms.count <= lobby->room_buckets)
		return;
	table = calloc(buckets, sizeof(*table));
	if (!table)
		return;
	for (size_t i = 0; i < lobby->room_buckets; i++) {
		struct lobby_room *room, *next;

		for (room = lobby->rooms_by_id[i]; room; room = next) {
			struct lobby_room **bucket =
				room_index_bucket(table, buckets, room->id);

			next = room->id_next;
			room->id_next = *bucket;
			*bucket = room;
		}
	}
	free(lobby->rooms_by_id);
	lobby->rooms_by_id = table;
	lobby->room_buckets = buckets;
}

void room_index_add(struct lobby *lobby, struct lobby_room *room)
{
	struct lobby_room **bucket;

	list_append(&lobby->rooms, &room->open_node);
	room->indexed = true;
	room_index_grow(lobby);
	if (!lobby->room_buckets) {
		/* no table at all (out of memory): listed, not found by id */
		room->id_next = NULL;
		return;
	}
	bucket = room_index_bucket(lobby->rooms_by_id, lobby->room_buckets,
				   room->id);
	room->id_next = *bucket;
	*bucket = room;
}

void room_index_remove(struct lobby *lobby, struct lobby_room *room)
{
	struct lobby_room **link;

	if (!room->indexed)
		return;
	list_remove(&lobby->rooms, &room->open_node);
	room->indexed = false;
	if (!lobby->room_buckets)
		return;
	link = room_index_bucket(lobby->rooms_by_id, lobby->room_buckets,
				 room->id);
	while (*link && *link != room)
		link = &(*link)->id_next;
	if (*link)
		*link = room->id_next;
	room->id_next = NULL;
}

struct lobby_room *room_index_find(const struct lobby *lobby, const char *id)
{
	struct lobby_room *room;

	if (!lobby->room_buckets)
		return NULL;
	for (room = *room_index_bucket(lobby->rooms_by_id, lobby->room_buckets,
				       id);
	     room; room = room->id_next)
		if (!strcmp(room->id, id))
			return room;
	return NULL;
}

void room_index_release(struct lobby *lobby)
{
	free(lobby->rooms_by_id);
	lobby->rooms_by_id = NULL;
	lobby->room_buckets = 0;
	lobby->rooms = (struct list){ 0 };
}

void lobby_each_room(const struct lobby *lobby,
		     bool (*fn)(void *ctx, const struct lobby_room *room),
		     void *ctx)
{
	for (struct list_node *node = lobby->rooms.tail; node;
	     node = node->prev)
		if (!fn(ctx, list_entry(node, struct lobby_room, open_node)))
			return;
}
