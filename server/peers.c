/*
 * peers.c - a chained hash table of client addresses.
 */
#include "peers.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PEERS_BUCKETS 4096 /* fixed: a chain per bucket stays short */

int peers_init(struct peers *peers)
{
	peers->buckets = calloc(PEERS_BUCKETS, sizeof(*peers->buckets));
	peers->links = calloc(PEERS_BUCKETS, sizeof(*peers->links));
	peers->links_count = 0;
	if (!peers->buckets || !peers->links) {
		free(peers->buckets);
		free(peers->links);
		return -ENOMEM;
	}
	peers->bucket_count = PEERS_BUCKETS;
	peers->count = 0;
	return 0;
}

void peers_release(struct peers *peers)
{
	for (size_t i = 0; i < peers->bucket_count; i++) {
		struct peer *peer = peers->buckets[i], *next;

		for (; peer; peer = next) {
			next = peer->next;
			free(peer);
		}
	}
	for (size_t i = 0; peers->links && i < PEERS_BUCKETS; i++) {
		struct peer_link *link = peers->links[i], *next;

		for (; link; link = next) {
			next = link->next;
			free(link);
		}
	}
	free(peers->links);
	peers->links = NULL;
	peers->links_count = 0;
	free(peers->buckets);
	peers->buckets = NULL;
	peers->count = 0;
}

/* The chain of connection handle conn. */
static struct peer_link **peers_link_bucket(const struct peers *peers,
					    const void *conn)
{
	uint64_t key = (uint64_t)(uintptr_t)conn;

	key ^= key >> 17;
	key *= 0x9e3779b97f4a7c15ull;
	return &peers->links[(key >> 40) & (PEERS_BUCKETS - 1)];
}

int peers_link(struct peers *peers, const void *conn, struct peer *peer)
{
	struct peer_link **bucket = peers_link_bucket(peers, conn);
	struct peer_link *link = malloc(sizeof(*link));

	if (!link)
		return -ENOMEM;
	link->conn = conn;
	link->peer = peer;
	link->next = *bucket;
	*bucket = link;
	peers->links_count++;
	return 0;
}

struct peer *peers_find(const struct peers *peers, const void *conn)
{
	struct peer_link *link = *peers_link_bucket(peers, conn);

	while (link && link->conn != conn)
		link = link->next;
	return link ? link->peer : NULL;
}

struct peer *peers_unlink(struct peers *peers, const void *conn)
{
	struct peer_link **at = peers_link_bucket(peers, conn);
	struct peer_link *link;
	struct peer *peer;

	while (*at && (*at)->conn != conn)
		at = &(*at)->next;
	link = *at;
	if (!link)
		return NULL;
	*at = link->next;
	peer = link->peer;
	free(link);
	peers->links_count--;
	return peer;
}

/* FNV-1a of the address text. */
static struct peer **peers_bucket(struct peers *peers, const char *address)
{
	uint32_t hash = 2166136261u;

	while (*address) {
		hash ^= (unsigned char)*address++;
		hash *= 16777619u;
	}
	return &peers->buckets[hash & (peers->bucket_count - 1)];
}

struct peer *peers_get(struct peers *peers, const char *address,
		       unsigned int limit)
{
	struct peer **bucket = peers_bucket(peers, address);
	struct peer *peer;

	for (peer = *bucket; peer; peer = peer->next)
		if (!strcmp(peer->address, address))
			break;
	if (!peer) {
		peer = calloc(1, sizeof(*peer));
		if (!peer)
			return NULL;
		snprintf(peer->address, sizeof(peer->address), "%s", address);
		peer->next = *bucket;
		*bucket = peer;
		peers->count++;
	}
	if (limit && peer->connections >= limit)
		return NULL;
	peer->connections++;
	return peer;
}

void peers_put(struct peers *peers, struct peer *peer)
{
	struct peer **link;

	if (!peer || --peer->connections)
		return;
	link = peers_bucket(peers, peer->address);
	while (*link != peer)
		link = &(*link)->next;
	*link = peer->next;
	free(peer);
	peers->count--;
}
