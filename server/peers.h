/*
 * peers.h - open connections counted per client address, for the
 * per-address connection limit (libwebsockets 4.1 as Debian builds it has
 * none of its own).
 *
 * A struct peer lives while its address has connections; callers hold a
 * pointer per connection and give it back with peers_put().
 */
#ifndef GOMOKU_PEERS_H
#define GOMOKU_PEERS_H

#include <stddef.h>

#define PEER_ADDRESS_MAX 64 /* an IPv6 address in text, with room */

/* One of these per client address with open connections. */
struct peer {
	char address[PEER_ADDRESS_MAX]; /* as text, e.g. "192.0.2.7" */
	unsigned int connections;	/* open connections from it */
	struct peer *next;		/* hash chain */
};

/* Which peer a connection (by its lws handle) was counted for. */
struct peer_link {
	const void *conn;	/* the connection's handle */
	struct peer *peer;	/* its address entry */
	struct peer_link *next; /* hash chain */
};

/* One of these per server. */
struct peers {
	struct peer **buckets;	  /* chains by address hash */
	size_t bucket_count;	  /* power of two */
	size_t count;		  /* addresses with connections */
	struct peer_link **links; /* chains by connection handle */
	size_t links_count;	  /* connections linked */
};

/* 0, or -ENOMEM. */
int peers_init(struct peers *peers);

/* Frees every entry. */
void peers_release(struct peers *peers);

/*
 * Counts one more connection from address, unless it already has limit
 * (limit 0: no limit). Returns the entry to hand back to peers_put(), or
 * NULL when over the limit or out of memory.
 */
struct peer *peers_get(struct peers *peers, const char *address,
		       unsigned int limit);

/* Counts one connection less; frees the entry at zero. */
void peers_put(struct peers *peers, struct peer *peer);

/* Remembers that connection conn was counted for peer. 0, or -ENOMEM. */
int peers_link(struct peers *peers, const void *conn, struct peer *peer);

/* The peer conn was counted for, or NULL. */
struct peer *peers_find(const struct peers *peers, const void *conn);

/* Forgets conn and returns its peer (NULL when it had none). */
struct peer *peers_unlink(struct peers *peers, const void *conn);

#endif
