/*
 * lobby.h - players, the waiting queue and the rooms.
 *
 * A player is a seat keyed by uid; the server binds a connection to it.
 * Waiting players are paired first come, first served into rooms; each room
 * gets a random UUID and a random front/back from the random source the
 * caller passes in, so tests are deterministic. Every step reports what
 * each player must be told through the sink, in order; errors go to the
 * requester only. No I/O, no clock.
 *
 * Ownership: the lobby owns players and rooms. A struct lobby_player stays
 * valid until lobby_disconnect() on it returns.
 */
#ifndef GOMOKU_LOBBY_H
#define GOMOKU_LOBBY_H

#include <stddef.h>

#include "game.h"
#include "protocol.h"

/* Settings every room of this lobby is played with. */
struct lobby_config {
	int board_size; /* BOARD_MIN_SIZE..BOARD_MAX_SIZE */
	enum rule rule;
	enum full_board full_board;
};

/* Where randomness comes from: fill(ctx, buf, len) writes len bytes. */
struct lobby_random {
	void (*fill)(void *ctx, void *buf, size_t len);
	void *ctx;
};

/*
 * Where events go: send(ctx, conn, ev) for the connection conn that the
 * server bound to a player. ev and what it points to are valid during the
 * call only.
 */
struct lobby_sink {
	void (*send)(void *ctx, void *conn, const struct event *ev);
	void *ctx;
};

enum player_state {
	PLAYER_WAITING, /* in the queue */
	PLAYER_PLAYING, /* seated in a room (live or finished) */
};

struct lobby_room;

/* One of these per uid with a live connection: a seat. */
struct lobby_player {
	char uid[UID_LEN + 1];	       /* canonical lower-case uid */
	char name[NAME_MAX_BYTES + 1]; /* display name; "" when none */
	void *conn;		       /* the server's connection */
	enum player_state state;
	struct lobby_room *room;	 /* PLAYER_PLAYING: the room */
	enum role role;			 /* PLAYER_PLAYING: the side */
	struct lobby_player *queue_prev; /* PLAYER_WAITING: queue links */
	struct lobby_player *queue_next;
	struct lobby_player *hash_next; /* seat table chain */
};

/* One of these per pair of matched players. */
struct lobby_room {
	char id[UID_LEN + 1];	       /* random UUID */
	struct game game;	       /* the position */
	struct lobby_player *seats[3]; /* indexed by enum role; NULL once
					 * that player left */
};

/* Counters for /metrics and /healthz. */
struct lobby_stats {
	unsigned long players;	  /* seats */
	unsigned long waiting;	  /* players in the queue */
	unsigned long rooms;	  /* rooms with at least one player */
	unsigned long rooms_live; /* rooms whose game is not over */
	unsigned long matches;	  /* rooms ever made */
	unsigned long moves;	  /* accepted moves */
	unsigned long games_finished[REASON_FORFEIT + 1]; /* by reason */
};

/* One of these per server. */
struct lobby {
	struct lobby_config config;
	struct lobby_random random;
	struct lobby_sink sink;
	struct lobby_player *queue_head; /* oldest waiting player */
	struct lobby_player *queue_tail; /* newest waiting player */
	struct lobby_player **seats;	 /* uid hash table */
	size_t seat_buckets;		 /* power of two */
	struct lobby_stats stats;
};

/* 0, or -EINVAL for a bad config, -ENOMEM. */
int lobby_init(struct lobby *lobby, const struct lobby_config *config,
	       struct lobby_random random, struct lobby_sink sink);

/* Frees every player and room; sends nothing. */
void lobby_release(struct lobby *lobby);

/*
 * A connection conn arrives for uid (already checked, canonical) with a
 * display name (checked, may be ""). When the uid already has a seat, the
 * old connection gets EVENT_REPLACED and the seat passes to conn: a seated
 * player gets role (and board when a move was made, and winner when the
 * game is over), a waiting one gets waiting. Otherwise a new seat joins
 * the queue (waiting) and is matched when an opponent waits: both get role.
 * Returns the seat, or NULL on out of memory (nothing changed).
 */
struct lobby_player *lobby_connect(struct lobby *lobby, const char *uid,
				   const char *name, void *conn);

/*
 * The player's connection closed: the seat is freed. A waiting player
 * leaves the queue; a seated one leaves the room: when the game was live
 * the opponent wins by forfeit (winner), then gets disconnect. The room is
 * freed when its last player leaves.
 */
void lobby_disconnect(struct lobby *lobby, struct lobby_player *player);

/*
 * Carries out a parsed request of player: a move (or seed-form board) is
 * validated against the room's game and on success both players get the
 * same board (then winner when it ended the game); a refusal sends error to
 * the player only. Ping gets pong; winner claims are ignored.
 */
void lobby_request(struct lobby *lobby, struct lobby_player *player,
		   const struct request *req);

/* Looks up the seat of a canonical uid; NULL when none. */
struct lobby_player *lobby_find(const struct lobby *lobby, const char *uid);

#endif
