/*
 * hub.h - the one owner of the lobby on the event loop.
 *
 * Every change to the players and rooms goes through a hub_*() entry
 * point: a session connecting, asking or leaving; the engine's answer; a
 * game restored at start; a deadline of the lobby (the reconnect grace,
 * the wait before the engine fills in) coming due on the hub's timer.
 * Each entry point is one step: it calls the lobby with the time, and
 * before it returns it ends the step itself: the deadlines due are run,
 * the lobby's next deadline is armed, and the messages encoded once for
 * both players of a room are forgotten.
 *
 * The hub calls down into core/ (the lobby) and the journal, and out only
 * through the function pointers of struct hub_sink and struct hub_engine,
 * which main fills in (sessions and the engine pool call the hub, never
 * the other way round). Its unit test (tests/unit/test_hub.c) drives it
 * with fake ones.
 *
 * On the event loop's thread only.
 */
#ifndef GOMOKU_HUB_H
#define GOMOKU_HUB_H

#include <uv.h>

#include <stdbool.h>
#include <stdint.h>

#include "journal.h"
#include "lobby.h"
#include "outqueue.h"

#define HUB_ENCODE_CACHE 8 /* messages remembered per step */

/*
 * Where the players' messages go: deliver(ctx, conn, ev) for the
 * connection conn given to hub_connect(), during a step. ev is valid
 * during the call only; hub_encode() turns it into a buffer.
 */
struct hub_sink {
	void (*deliver)(void *ctx, void *conn, const struct event *ev);
	void *ctx;
};

/*
 * The computer opponent: think(ctx, room) when the engine is to move in
 * room (lobby_sink.think: answer with hub_ai_move()), room_closed(ctx,
 * room) when an engine room closes (what the engine kept for it goes).
 */
struct hub_engine {
	void (*think)(void *ctx, struct lobby_room *room);
	void (*room_closed)(void *ctx, const struct lobby_room *room);
	void *ctx;
};

/* A message encoded during one step, for both players of a room. */
struct hub_encoded {
	enum event_type type; /* board, winner, emote, a seat away or back */
	const void *game;     /* the room's game; NULL for the others */
	int moves;	      /* its moves_played then */
	bool undo;	      /* a takeback's board */
	bool compact;	      /* board without content */
	enum role by;	      /* emote, away, back: whose */
	enum emote emote;     /* emote: which */
	int seconds;	      /* away: how long */
	struct outbuf *buf;   /* a reference held until the step ends */
};

/* One of these per server. */
struct hub {
	struct lobby lobby;	  /* players and rooms; read it freely (the
				   * counters), change it through the hub */
	struct journal *journal;  /* where facts go; not owned */
	struct hub_sink sink;	  /* the sessions */
	struct hub_engine engine; /* the computer opponent; may be unset */
	uint64_t (*now_ms)(void); /* the lobby's clock */
	uint64_t step_ms;	  /* now_ms() at the start of this step */
	uv_timer_t tick_timer;	  /* the lobby's next deadline */
	uint64_t tick_at;	  /* when it is armed for; UINT64_MAX: not */
	bool stopped;		  /* hub_stop(): nothing changes any more */
	struct hub_encoded encoded[HUB_ENCODE_CACHE]; /* this step's */
	unsigned int encoded_count;
};

/*
 * A lobby with config and random, its timer on loop, facts to journal
 * (not owned), messages to sink; now_ms is the clock (NULL: the
 * monotonic one). 0, or a negative errno (bad config, out of memory).
 */
int hub_init(struct hub *hub, uv_loop_t *loop,
	     const struct lobby_config *config, struct lobby_random random,
	     struct journal *journal, struct hub_sink sink,
	     uint64_t (*now_ms)(void));

/* The computer opponent's hooks, once it exists. */
void hub_set_engine(struct hub *hub, struct hub_engine engine);

/*
 * Shutting down: from now on nothing changes and nobody is told anything
 * (sessions close without leaving their seats: the games resume after a
 * restart), and the timer closes; the loop must run for it to close.
 */
void hub_stop(struct hub *hub);

/* Frees the lobby, after hub_stop() and the loop's last run. */
void hub_release(struct hub *hub);

/*
 * A connection conn arrives to play as join asks (its uid and name
 * checked, its pool valid): lobby_join(). The seat, or NULL (out of
 * memory, or stopped).
 */
struct lobby_player *hub_connect(struct hub *hub, const struct lobby_join *join,
				 void *conn);

/*
 * A connection conn watches room_id: lobby_watch(). The spectator, or
 * NULL with *code (ERR_NONE: out of memory, or stopped).
 */
struct lobby_spectator *hub_watch(struct hub *hub, const char *room_id,
				  void *conn, enum error_code *code);

/* A spectator's connection closed: lobby_unwatch(). */
void hub_unwatch(struct hub *hub, struct lobby_spectator *spectator);

/* A spectator's parsed request: lobby_spectator_request(). */
void hub_spectator_request(struct hub *hub,
			   const struct lobby_spectator *spectator,
			   const struct request *req);

/* player's parsed request: lobby_request(). */
void hub_request(struct hub *hub, struct lobby_player *player,
		 const struct request *req);

/* player's connection closed (leaving: on purpose): lobby_disconnect(). */
void hub_disconnect(struct hub *hub, struct lobby_player *player, bool leaving);

/*
 * The engine's move for ticket: lobby_ai_move(), and -ESTALE when
 * stopped. Then -EINVAL (a refused move) calls for hub_ai_forfeit().
 */
int hub_ai_move(struct hub *hub, const struct lobby_ai_ticket *ticket, int x,
		int y);

/* The engine could not move: lobby_ai_forfeit(). */
int hub_ai_forfeit(struct hub *hub, const struct lobby_ai_ticket *ticket);

/*
 * Seats a saved game (at start, or taken over from another instance):
 * lobby_restore(). The room, or NULL when refused.
 */
struct lobby_room *hub_restore(struct hub *hub,
			       const struct lobby_saved_game *saved);

/*
 * Ends the event loop's turn: commits the journal, and pauses every game
 * while it fails (lobby_pause()), resumes them once it saves again.
 */
void hub_commit(struct hub *hub);

/*
 * ev as a message for a client that asked for compact boards or not: a
 * buffer of which the caller owns one reference. The board and winner
 * messages both players of a room get are encoded once per step. NULL on
 * out of memory.
 */
struct outbuf *hub_encode(struct hub *hub, const struct event *ev,
			  bool compact);

#endif
