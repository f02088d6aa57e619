/*
 * cluster.h - the instances of a site playing as one (--redis): where a
 * player goes, the shared waiting queues, and the messages between the
 * instance that holds a player's socket (its relay) and the one that
 * holds its room (the owner).
 *
 * Where a player goes is one Lua script run in Redis, so that two
 * instances never decide at once: a seat gomoku:seat:UID ("p OWNER" while
 * seated, "w INSTANCE POOL" while waiting) whose owner is alive sends the
 * player there; otherwise the oldest player of its pool's queue
 * gomoku:queue:POOL ("UID INSTANCE" entries) on a live instance is popped,
 * and that player's instance owns their room; otherwise the player joins
 * the queue. A popped entry is gone for every other instance: no player
 * is paired twice. The owner's lobby (core/, unchanged) then pairs the
 * two in one step, the waiting one first. Waiting players have no seat
 * in any lobby: their instance tells them `waiting` itself.
 *
 * Relay and owner talk over Redis pub/sub, each instance on its channel
 * gomoku:inst:ID, in messages of one line "KIND FROM CONN" (the sender,
 * the relay's number of the connection) and a payload:
 *
 *   J  relay -> owner: a player joins or resumes (JSON: uid, name, size,
 *      rule, tc, compact, and partner: the waiting player it was paired
 *      with, when it was)
 *   R  relay -> owner: a client message, as the client sent it
 *   D  relay -> owner: the connection closed ("1": on purpose)
 *   E  owner -> relay: a message for the client, encoded once
 *   X  owner -> relay: a newer connection took the seat: close with 4001
 *   N  owner -> relay: no seat here (a stale record): route again
 *   G  owner -> relay: the partner is gone: route again
 *   W  (the route script) -> the instance of a waiting player whose uid
 *      connected again elsewhere: close the waiting one with 4001
 *   S  relay -> owner: a spectator watches a room (JSON: room, compact);
 *      then R and D as a player's, E back
 *   V  owner -> relay: a spectator, or a player with an invite, is
 *      refused (the error's code)
 *
 * An owner holds the messages to another instance's player, like a
 * session's, until the journal has saved what they tell
 * (cluster_flush(), at the end of the turn). Every second the cluster
 * looks up the instances its relays and remote players are on: a relay
 * whose owner's lease lapsed closes its session (1012: connect again),
 * an owner whose relay's lease lapsed counts those players as dropped
 * (the reconnect grace); after Redis came back, only once every live
 * instance had the time to take its lease again (redis_link_settled()).
 * A relayed client message Redis cannot take, or that no instance hears
 * (PUBLISH answered 0), is answered `unavailable`.
 *
 * A player who waited --ai-fill-after in the site's queue is taken out
 * of it by another script (unless a newcomer popped it meanwhile) and
 * plays the engine on the instance that holds its socket.
 *
 * A player with an invite code of another instance goes there (J with
 * invite) and plays the creator, as a spectator goes to the room's
 * owner (S).
 *
 * The rooms of an instance that is gone are taken over by another
 * (takeover.c): the route script holds a player whose seat's owner is
 * gone while that owner's rooms are not all claimed ({"hold"}), and
 * sends one whose seat is here since ({"here"}).
 *
 * On the event loop's thread only.
 */
#ifndef GOMOKU_CLUSTER_H
#define GOMOKU_CLUSTER_H

#include <uv.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hub.h"
#include "journal.h"
#include "lobby.h"
#include "redis_link.h"
#include "redis_url.h"
#include "site_keys.h"

struct cluster;
struct cluster_ticket;

/*
 * What the cluster asks of the sessions of this instance (main fills it
 * in with session.c's); conn is the session cluster_route() was given.
 */
struct cluster_sessions {
	/* tell the session ev (waiting, pong, an error, replaced) */
	void (*deliver)(void *ctx, void *conn, const struct event *ev);
	/* queue a message the owner encoded, as it is */
	void (*relay)(void *ctx, void *conn, const char *message, size_t len);
	/* the session plays here now, in player's seat: its ticket is gone */
	void (*seated)(void *ctx, void *conn, struct lobby_player *player);
	/* close the session with code (its room's owner is gone) */
	void (*close)(void *ctx, void *conn, int code, const char *reason);
	void *ctx;
};

/* The cluster's figures for /metrics. */
struct cluster_stats {
	unsigned long waiting;	  /* players of this instance in queues */
	unsigned long relayed;	  /* sessions here playing elsewhere */
	unsigned long remote;	  /* players elsewhere playing here */
	uint64_t forwarded;	  /* messages sent to other instances */
	uint64_t received;	  /* messages from other instances */
	uint64_t paired_remote;	  /* pairs across two instances */
	uint64_t routed_fallback; /* players seated here, Redis away */
};

/*
 * The cluster of instance id (copied), sending its commands through link
 * (not owned), with a subscriber link of its own to url; lease_ms is the
 * instances' lease; the lobby's changes go through hub, messages are
 * held by journal; sessions are this instance's. NULL on out of memory.
 */
struct cluster *cluster_new(uv_loop_t *loop, struct redis_link *link,
			    const struct redis_url *url, const char *id,
			    uint64_t lease_ms, struct hub *hub,
			    struct journal *journal,
			    struct cluster_sessions sessions);

/* SIGTERM: nothing is routed or seated any more. */
void cluster_stop(struct cluster *cl);

/*
 * Frees it all, the tickets its sessions still hold among them (sessions
 * that close later must not hand theirs back): after cluster_stop() and
 * redis_link_free() of its command link, whose answers then change
 * nothing.
 */
void cluster_free(struct cluster *cl);

/*
 * A session of uid asks to play in a pool (no seat of its own here, not
 * the engine, no invite): join's fields are copied, and the cluster
 * decides where it plays. *ticket is set first, and held by the session
 * until cluster_leave(), or until sessions.seated() (which may come
 * before this returns: Redis away) takes it back. 0, or -ENOMEM.
 */
int cluster_route(struct cluster *cl, const struct lobby_join *join,
		  bool compact, void *conn, struct cluster_ticket **ticket);

/* A message of the ticket's client (rate-limited, text). */
void cluster_message(struct cluster *cl, struct cluster_ticket *ticket,
		     const char *text, size_t len);

/* The ticket's session closed (leaving: with 1000); the ticket goes. */
void cluster_leave(struct cluster *cl, struct cluster_ticket *ticket,
		   bool leaving);

/*
 * A spectator of room (no such room here): the cluster finds its owner
 * (gomoku:room:ID, written when a room opens, gone when it closes) and
 * relays it there; with no live owner, or none that has the room, the
 * session is told the error and closed with 1008. *ticket as
 * cluster_route()'s. 0, or -ENOMEM.
 */
int cluster_watch(struct cluster *cl, const char *room, bool compact,
		  void *conn, struct cluster_ticket **ticket);

/*
 * A player with an invite code no invite here waits on: the cluster
 * finds the creator's instance (gomoku:invite:CODE, written when the
 * invite is told to its creator, for a day) and relays the player there,
 * where it plays the creator; with none, the session is told
 * no_such_invite and closed with 1008. *ticket as cluster_route()'s. 0,
 * or -ENOMEM.
 */
int cluster_invite(struct cluster *cl, const struct lobby_join *join,
		   bool compact, void *conn, struct cluster_ticket **ticket);

/* An invite's code told to its creator here: recorded for the site. */
void cluster_invite_opened(struct cluster *cl, const char *code);

/*
 * Takeovers (takeover.c): while claiming(ctx) is true, a player relayed
 * here for a seat not here yet waits for cluster_claims_done(cl) rather
 * than being told to route again.
 */
void cluster_set_claims(struct cluster *cl, bool (*claiming)(const void *ctx),
			void *ctx);
void cluster_claims_done(void *cl);

/* A seat of uid here (the engine, an invite, a resumed one): recorded. */
void cluster_seated_here(struct cluster *cl, const char *uid);

/* The hub's sink for a conn of kind CONN_REMOTE. */
void cluster_deliver(struct cluster *cl, void *conn, const struct event *ev);

/*
 * The end of the loop's turn, after the journal's commit: what is held
 * for other instances' players and now saved is sent.
 */
void cluster_flush(struct cluster *cl);

void cluster_stats(const struct cluster *cl, struct cluster_stats *out);

/*
 * Calls fn(ctx, pool) for each player of this instance waiting in the
 * site's queues, with the pool it waits for (/api/pools).
 */
void cluster_each_waiting(const struct cluster *cl,
			  void (*fn)(void *ctx,
				     const struct lobby_pool_key *pool),
			  void *ctx);

#endif
