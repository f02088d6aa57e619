/*
 * strmap.h - a table from text keys to pointers (chained, growing): the
 * cluster's players by uid and its connections by instance and number.
 *
 * The table owns copies of its keys, never the values.
 */
#ifndef GOMOKU_STRMAP_H
#define GOMOKU_STRMAP_H

#include <stddef.h>

struct strmap_entry;

/* One of these per table, embedded; zeroed, or strmap_init(). */
struct strmap {
	struct strmap_entry **buckets; /* bucket_count chains */
	size_t bucket_count;	       /* a power of two; 0: none yet */
	size_t count;		       /* entries */
};

void strmap_init(struct strmap *map);

/* Frees the entries and their keys (not the values). */
void strmap_release(struct strmap *map);

/* The value of key, or NULL. */
void *strmap_get(const struct strmap *map, const char *key);

/*
 * Sets key to value (replacing what it had). 0, or -1 on out of memory.
 */
int strmap_put(struct strmap *map, const char *key, void *value);

/* Removes key, and returns what it had (NULL: nothing). */
void *strmap_del(struct strmap *map, const char *key);

/* Calls fn(ctx, key, value) on every entry; fn must not change map. */
void strmap_each(const struct strmap *map,
		 void (*fn)(void *ctx, const char *key, void *value),
		 void *ctx);

#endif
