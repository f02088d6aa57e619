/*
 * strmap.c - text keys to pointers (see strmap.h).
 */
#include "strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define STRMAP_FIRST_BUCKETS 64

/* One key and its value, in its bucket's chain. */
struct strmap_entry {
	struct strmap_entry *next;
	void *value;
	char key[]; /* NUL-terminated copy */
};

/* FNV-1a. */
static uint64_t strmap_hash(const char *key)
{
	uint64_t hash = 1469598103934665603ull;

	for (; *key; key++)
		hash = (hash ^ (unsigned char)*key) * 1099511628211ull;
	return hash;
}

void strmap_init(struct strmap *map)
{
	memset(map, 0, sizeof(*map));
}

void strmap_release(struct strmap *map)
{
	for (size_t i = 0; i < map->bucket_count; i++) {
		struct strmap_entry *entry = map->buckets[i];

		while (entry) {
			struct strmap_entry *next = entry->next;

			free(entry);
			entry = next;
		}
	}
	free(map->buckets);
	strmap_init(map);
}

static struct strmap_entry **strmap_slot(const struct strmap *map,
					 const char *key)
{
	struct strmap_entry **at;

	if (!map->bucket_count)
		return NULL;
	at = &map->buckets[strmap_hash(key) & (map->bucket_count - 1)];
	while (*at && strcmp((*at)->key, key))
		at = &(*at)->next;
	return at;
}

void *strmap_get(const struct strmap *map, const char *key)
{
	struct strmap_entry **at = strmap_slot(map, key);

	return at && *at ? (*at)->value : NULL;
}

/* Twice the buckets (or the first ones); -1 on out of memory. */
static int strmap_grow(struct strmap *map)
{
	size_t count = map->bucket_count ? map->bucket_count * 2 :
					   STRMAP_FIRST_BUCKETS;
	struct strmap_entry **buckets = calloc(count, sizeof(*buckets));

	if (!buckets)
		return -1;
	for (size_t i = 0; i < map->bucket_count; i++) {
		struct strmap_entry *entry = map->buckets[i];

		while (entry) {
			struct strmap_entry *next = entry->next;
			size_t at = strmap_hash(entry->key) & (count - 1);

			entry->next = buckets[at];
			buckets[at] = entry;
			entry = next;
		}
	}
	free(map->buckets);
	map->buckets = buckets;
	map->bucket_count = count;
	return 0;
}

int strmap_put(struct strmap *map, const char *key, void *value)
{
	struct strmap_entry **at, *entry;
	size_t len = strlen(key);

	if (map->count >= map->bucket_count && strmap_grow(map))
		return -1;
	at = strmap_slot(map, key);
	if (*at) {
		(*at)->value = value;
		return 0;
	}
	entry = malloc(sizeof(*entry) + len + 1);
	if (!entry)
		return -1;
	memcpy(entry->key, key, len + 1);
	entry->value = value;
	entry->next = NULL;
	*at = entry;
	map->count++;
	return 0;
}

void *strmap_del(struct strmap *map, const char *key)
{
	struct strmap_entry **at = strmap_slot(map, key), *entry;
	void *value;

	if (!at || !*at)
		return NULL;
	entry = *at;
	*at = entry->next;
	value = entry->value;
	free(entry);
	map->count--;
	return value;
}

void strmap_each(const struct strmap *map,
		 void (*fn)(void *ctx, const char *key, void *value), void *ctx)
{
	for (size_t i = 0; i < map->bucket_count; i++)
		for (struct strmap_entry *entry = map->buckets[i]; entry;
		     entry = entry->next)
			fn(ctx, entry->key, entry->value);
}
