/*
 * lobby.h - players, the waiting queue and the rooms (core/lobby.c keeps
 * the seats, the queue and the away list; core/room.c the rooms).
 *
 * A player is a seat keyed by uid; the server binds a connection to it.
 * Players wait in a pool (a board size, rule and time control) and are
 * paired first come, first served with players of that pool; each room
 * gets a random UUID and a random front/back from the random source the
 * caller passes in, so tests are deterministic. Every step reports what
 * each player must be told through the sink, in order; errors go to the
 * requester only. No I/O and no clock: the time is passed in as now_ms
 * (milliseconds of any monotonic clock).
 *
 * A seated player whose connection drops keeps the seat for the reconnect
 * grace: the opponent is told opponent_away, and the same uid connecting
 * again resumes the game (the opponent is told opponent_back); when the
 * grace runs out lobby_tick() forfeits the game for the absent player.
 *
 * Ownership: the lobby owns players and rooms. A struct lobby_player stays
 * valid until lobby_disconnect() or lobby_tick() frees it: after
 * lobby_disconnect() the caller must not use it again (it may live on as
 * an away seat, with no connection, owned by the lobby).
 */
#ifndef GOMOKU_LOBBY_H
#define GOMOKU_LOBBY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "deadline.h"
#include "engine.h"
#include "game.h"
#include "list.h"
#include "protocol.h"

/* Settings every room of this lobby is played with. */
struct lobby_config {
	int board_size; /* the default pool's: BOARD_MIN_SIZE..BOARD_MAX_SIZE */
	enum rule rule; /* the default pool's */
	struct time_control time_control; /* the default pool's */
	uint32_t first_move_ms; /* timed games: the first two moves must
				 * each come this soon, or it is aborted */
	enum full_board full_board;
	uint64_t reconnect_grace_ms;	 /* how long a dropped player keeps the
				      * seat; 0: forfeit at once */
	uint64_t ai_fill_after_ms;	 /* a player waiting this long plays the
				      * engine; 0: never */
	enum engine_level ai_fill_level; /* the engine's level then */
	unsigned long max_spectators;	 /* per room; 0: none */
};

/* Players hear a new spectator count at most this often. */
#define LOBBY_COUNT_INTERVAL_MS 1000

/* A declined offer cannot be made again for this long. */
#define LOBBY_OFFER_COOLDOWN_MS 10000

/* A player's emotes come at least this far apart. */
#define LOBBY_EMOTE_COOLDOWN_MS 3000

/* What players choose to play: the three values of a pool. */
struct lobby_pool_key {
	int size; /* BOARD_MIN_SIZE..BOARD_MAX_SIZE */
	enum rule rule;
	struct time_control tc;
};

/*
 * The players waiting for, and the rooms playing, one pool. The lobby
 * owns its pools: the default pool (lobby_config's) lives as long as the
 * lobby, any other until its last player and room are gone.
 */
struct lobby_pool {
	struct lobby_pool_key key;
	struct list queue;     /* waiting players, oldest first (count:
				* how many) */
	unsigned long games;   /* live games (the engine's included) */
	unsigned long refs;    /* queued players and rooms that hold it */
	struct list_node node; /* in the lobby's list of pools */
};

/* Where randomness comes from: fill(ctx, buf, len) writes len bytes. */
struct lobby_random {
	void (*fill)(void *ctx, void *buf, size_t len);
	void *ctx;
};

struct lobby_room;

/*
 * The facts a journal (the server's database, its log) is told through
 * lobby_sink.record, each once and before any player hears of it.
 */
enum lobby_record {
	RECORD_ROOM_OPENED, /* two players were paired into room */
	RECORD_MOVE,	    /* room's last move (history[moves_played-1]) */
	RECORD_GAME_OVER,   /* room's game ended (winner, reason, line) */
	RECORD_ROOM_CLOSED, /* the last player left; room is freed next */
	RECORD_TAKEBACK,    /* moves were taken back: the game now has
			     * moves_played of them */
};
/*
 * A timed room's clocks are in room->game.clock when it is recorded: at
 * a move, as they stand once it was accepted; at a takeback or the end,
 * as they stand then (left_ms, charged up to that moment).
 */

/* "room_opened", "move", ...: for logs and test failures. */
const char *lobby_record_name(enum lobby_record type);

/*
 * Where events go: send(ctx, conn, ev) for the connection conn that the
 * server bound to a player. ev and what it points to are valid during the
 * call only.
 */
struct lobby_sink {
	void (*send)(void *ctx, void *conn, const struct event *ev);
	void (*record)(void *ctx, enum lobby_record type,
		       const struct lobby_room *room); /* optional */
	/*
	 * The engine is to move in room (an engine room): the caller works
	 * out a move and hands it to lobby_ai_move() with the ticket
	 * lobby_ai_ticket() gives now. Optional; without it engine rooms
	 * wait for moves nobody makes.
	 */
	void (*think)(void *ctx, struct lobby_room *room);
	void *ctx;
};

enum player_state {
	PLAYER_WAITING, /* in the queue */
	PLAYER_PLAYING, /* seated in a room (live or finished) */
};

/* One of these per uid with a live connection or a kept seat. */
struct lobby_player {
	char uid[UID_LEN + 1];	       /* canonical lower-case uid */
	char name[NAME_MAX_BYTES + 1]; /* display name; "" when none */
	void *conn;		       /* the server's connection; NULL while
					* away */
	uint64_t away_until;	       /* away: when the seat is given up */
	enum player_state state;
	struct lobby_room *room;	/* PLAYER_PLAYING: the room */
	enum role role;			/* PLAYER_PLAYING: the side */
	struct list_node queue_node;	/* PLAYER_WAITING: in the queue */
	struct lobby_player *hash_next; /* seat table chain */
	struct list_node away_node;	/* away: in the away list */
	uint64_t waiting_since;		/* PLAYER_WAITING: queued at */
	struct lobby_pool *pool;	/* PLAYER_WAITING: the pool */
	uint64_t offer_again_at[OFFER_COUNT]; /* no offer of that kind
					       * before then */
	uint64_t emote_again_at;	/* no emote before then */
	char invite[INVITE_LEN + 1];	/* PLAYER_WAITING: the code of its
					 * private game (queue_node is then in
					 * the lobby's invites, pool held);
					 * "" when in a pool's queue */
	bool invite_listed;		/* invite: its room will be listed */
	bool ai;			/* the engine's seat: no uid, no
					 * connection, not in the seat table */
	enum engine_level level;	/* ai: the engine's level */
};

/*
 * One of these per connection watching a room (?watch=ROOM). The lobby
 * owns it from lobby_watch() to lobby_unwatch().
 */
struct lobby_spectator {
	void *conn;		 /* the server's connection */
	struct lobby_room *room; /* the room watched; NULL once it closed */
	struct list_node node;	 /* in the room's spectators, or in the
				  * lobby's list of those whose room closed */
};

/* One of these per pair of matched players. */
struct lobby_room {
	char id[UID_LEN + 1];			/* ordered UUID (room_init) */
	struct game game;			/* the position */
	struct lobby_player *seats[ROLE_COUNT]; /* indexed by enum role; NULL once
					 * that player left */
	enum role ai_role;  /* the engine's side; ROLE_NONE when
					* two people play */
	struct lobby_pool *pool; /* the pool it was opened in */
	char rematch_of[UID_LEN + 1]; /* the room whose rematch this is;
				       * "" for none */
	uint32_t serial;    /* changes with every move and takeback */
	enum role offer_by; /* whose offer is pending; ROLE_NONE: none */
	enum offer_what offer_what; /* what that offer is */
	struct deadline deadline; /* timed and live: when its flag falls
				   * or it is aborted for want of a first
				   * move (in the lobby's timers) */
	struct list spectators;	  /* struct lobby_spectator, by arrival */
	unsigned long count_told; /* the spectator count players last heard */
	uint64_t count_next;	  /* no count told before then */
	struct deadline count_due; /* a new count waiting for count_next
				    * (in the lobby's counts) */
	struct lobby_room *id_next; /* room table chain */
	struct list_node open_node; /* in the lobby's open rooms */
	bool indexed;		    /* in the room table and list */
	bool private;		    /* made by an invite: not listed */
	uint16_t *redo;	    /* engine rooms: the moves taken back,
					* the latest taken back last */
	int redo_count;
	void *ai_ctx;	    /* the caller's, for the engine */
	uint64_t opened_ms; /* the lobby's time when it opened (or was
			     * restored) */
};

/*
 * What lobby_ai_move() needs to find the room a search was for, and to
 * tell whether the position is still the one searched.
 */
struct lobby_ai_ticket {
	char uid[UID_LEN + 1];	   /* the human player's */
	char room_id[UID_LEN + 1]; /* the room's */
	uint32_t serial;	   /* the room's serial when asked */
};

/* Counters for /metrics and /healthz. */
struct lobby_stats {
	unsigned long players;	  /* seats */
	unsigned long waiting;	  /* players in the pools' queues */
	unsigned long rooms;	  /* rooms with at least one player */
	unsigned long rooms_live; /* rooms whose game is not over */
	unsigned long matches;	  /* rooms ever made */
	unsigned long ai_rooms;	  /* rooms against the engine now */
	unsigned long ai_matches; /* rooms against the engine ever made */
	unsigned long takebacks;  /* takebacks carried out */
	unsigned long moves;	  /* accepted moves */
	unsigned long games_finished[REASON_COUNT]; /* by reason */
	unsigned long offers[OFFER_COUNT][2]; /* answered, by what and
					       * [accepted] */
	unsigned long emotes; /* emotes relayed */
	unsigned long spectators; /* watching now */
};

/* One of these per server. */
struct lobby {
	struct lobby_config config;
	struct lobby_random random;
	struct lobby_sink sink;
	struct list pools;	     /* every pool, the default first */
	struct lobby_pool *default_pool; /* lobby_config's */
	struct list away;	     /* away seats, earliest deadline first */
	struct deadline_heap timers; /* timed live rooms' deadlines */
	struct deadline_heap counts; /* spectator counts waiting to be told */
	struct lobby_room **rooms_by_id; /* open rooms by id: hash table */
	size_t room_buckets;		 /* power of two */
	struct list rooms;		 /* open rooms, oldest first */
	struct list unwatched; /* spectators whose room closed */
	struct list invites;   /* players waiting on their invite code */
	struct lobby_player **seats; /* uid hash table */
	size_t seat_buckets;	     /* power of two */
	struct lobby_stats stats;
	bool paused;	    /* lobby_pause(): the journal cannot save */
	uint64_t id_offset; /* room ids' order: the clock plus this */
	bool id_offset_set; /* set by the first room */
};

/* True when key names a pool this lobby can play. */
bool lobby_pool_key_valid(const struct lobby_pool_key *key);

/* 0, or -EINVAL for a bad config, -ENOMEM. */
int lobby_init(struct lobby *lobby, const struct lobby_config *config,
	       struct lobby_random random, struct lobby_sink sink);

/* Frees every player and room; sends nothing. */
void lobby_release(struct lobby *lobby);

/*
 * A connection conn (not NULL) arrives for uid (already checked,
 * canonical) with a display name (checked, may be ""). When the uid
 * already has a seat, the old connection gets EVENT_REPLACED and the seat
 * passes to conn: a seated player gets role (and board when a move was
 * made, and winner when the game is over), a waiting one gets waiting.
 * Otherwise a new seat joins the queue (waiting) and is matched when an
 * opponent waits: both get role.
 * Returns the seat, or NULL on out of memory (nothing changed).
 */
struct lobby_player *lobby_connect(struct lobby *lobby, const char *uid,
				   const char *name, void *conn,
				   uint64_t now_ms);

/*
 * As lobby_connect(), but a uid with no seat plays the engine at level at
 * once, on a random side: role (opponent the engine), and when the engine
 * is front, a think. A uid with a seat resumes it as with lobby_connect().
 */
struct lobby_player *lobby_connect_ai(struct lobby *lobby, const char *uid,
				      const char *name, void *conn,
				      enum engine_level level, uint64_t now_ms);

/* How a connection asks to play: lobby_join(). */
struct lobby_join {
	const char *uid;		   /* checked, canonical */
	const char *name;		   /* checked, may be "" */
	const struct lobby_pool_key *pool; /* valid; NULL: the default */
	bool ai;			   /* play the engine at once */
	enum engine_level level;	   /* ai: its level */
	const char *invite;		   /* NULL; "new": a private game, its
					    * code told (invite); or a code:
					    * play its creator (pool ignored) */
	bool listed;			   /* invite "new": its room is listed
					    * like a public one all the same */
};

/* True while code (any text) is an invite waiting for its player. */
bool lobby_invite_open(const struct lobby *lobby, const char *code);

/*
 * lobby_connect() or lobby_connect_ai() in the pool join names: a uid
 * with a seat resumes it, whatever pool it asks for. With invite "new",
 * the player waits alone for whoever comes with the code it is told
 * (invite); with a code, it plays that invite's creator at once, in the
 * creator's pool, random sides, in a private room (room->private: left
 * out of the lists of live rooms, still watchable) unless the creator
 * asked for it to be listed. NULL on out of memory, or for a code no
 * invite waits with (nothing changed: check lobby_invite_open() first to
 * tell the player why).
 */
struct lobby_player *lobby_join(struct lobby *lobby,
				const struct lobby_join *join, void *conn,
				uint64_t now_ms);

/* The board size of the game player waits for or plays. */
int lobby_player_board_size(const struct lobby_player *player);

/* Fills *ticket for the engine's move now due in room. */
void lobby_ai_ticket(const struct lobby_room *room,
		     struct lobby_ai_ticket *ticket);

/*
 * The engine's seed (engine_limits.seed) for its move now due in room:
 * the game's own, made from the random bytes of the room's id, mixed
 * with the number of moves played. So each game varies the engine's play
 * among near-equal moves its own way, and the same game (the same random
 * source, the same moves) is played again move for move; a game restored
 * after a restart keeps its seed.
 */
uint32_t lobby_ai_seed(const struct lobby_room *room);

/*
 * The engine's move for the position of ticket: played as a move of the
 * engine's seat (board to the player; winner when it ends the game).
 * -ESTALE (nothing changed) when the room is gone, over, or its position
 * changed since; -EINVAL when the move is refused (then the caller should
 * lobby_ai_forfeit()).
 */
int lobby_ai_move(struct lobby *lobby, const struct lobby_ai_ticket *ticket,
		  int x, int y, uint64_t now_ms);

/*
 * The engine could not move (it crashed, or stayed silent): the engine
 * loses the game by forfeit. -ESTALE when the room is gone or over.
 */
int lobby_ai_forfeit(struct lobby *lobby, const struct lobby_ai_ticket *ticket,
		     uint64_t now_ms);

/*
 * The player's connection closed. A waiting player leaves the queue. A
 * player seated in a live game whose connection dropped (leaving false)
 * keeps the seat for the reconnect grace, and the opponent gets
 * opponent_away. Otherwise (leaving: the client closed on purpose; or no
 * grace; or the game is over) the seat is freed: when the game was live
 * the opponent wins by forfeit (winner), then gets disconnect. The room is
 * freed when its last player leaves.
 */
void lobby_disconnect(struct lobby *lobby, struct lobby_player *player,
		      bool leaving, uint64_t now_ms);

/*
 * Gives up every away seat whose grace ended by now_ms, as
 * lobby_disconnect() with leaving would, ends the timed games whose flag
 * fell (timeout) or whose first move did not come (aborted), and seats
 * players who waited ai_fill_after_ms against the engine. Returns when
 * the next deadline falls (UINT64_MAX when there is none): call again
 * then.
 */
uint64_t lobby_tick(struct lobby *lobby, uint64_t now_ms);

/* A game saved by a journal, to be seated again after a restart. */
struct lobby_saved_game {
	const char *room_id; /* canonical UUID */
	int board_size;
	enum rule rule;
	struct time_control tc;
	int64_t clock_ms[ROLE_COUNT]; /* timed: time left after the last
				       * move (or at the last takeback) */
	const char *rematch_of;	      /* NULL or "": none */
	bool private;		      /* made by an invite: not listed */
	enum full_board full_board;
	const char *uid[ROLE_COUNT];  /* by enum role: canonical uids */
	const char *name[ROLE_COUNT]; /* by enum role: names, may be "" */
	const uint16_t *moves;	      /* flat indices, in order */
	int moves_played;
};

/*
 * Seats a saved, unfinished game again, both players away until
 * now_ms + the reconnect grace: the uids resume it by connecting. The
 * moves are replayed through the rules, and a timed game's clocks set to
 * clock_ms with the turn of the side to move starting at now_ms (the
 * time the server was down is charged to nobody). Records nothing.
 * Returns the room,
 * or NULL (nothing changed) when the game is invalid, over, a uid already
 * has a seat, or out of memory.
 */
struct lobby_room *lobby_restore(struct lobby *lobby,
				 const struct lobby_saved_game *saved,
				 uint64_t now_ms);

/*
 * Carries out a parsed request of player: a move (or seed-form board) is
 * validated against the room's game and on success both players get the
 * same board (then winner when it ended the game); a refusal sends error to
 * the player only. Ping gets pong; winner claims are ignored. Offers,
 * answers, redo, resign, abort and emotes follow PROTOCOL.md; now_ms is
 * when the request came, for the clocks and cooldowns.
 */
void lobby_request(struct lobby *lobby, struct lobby_player *player,
		   const struct request *req, uint64_t now_ms);

/*
 * While paused (the caller's journal cannot save what changes), every
 * request of a seated player but ping (a move, an offer, an answer, a
 * redo) is refused with ERR_UNAVAILABLE and changes nothing: every game
 * waits. Players are still paired (a game is journalled with its first
 * move), and what comes without a request (a forfeit when a player
 * leaves or its grace ends, an engine move already asked for) still
 * happens and is recorded, for the journal to keep once it can.
 */
void lobby_pause(struct lobby *lobby, bool paused);

/*
 * A connection conn (not NULL) watches the open room of room_id (a
 * canonical UUID): it gets spectate, the board, and the winner when the
 * game is over (and opponent_away for a seat away), then what the
 * players get of the game: board, winner, emote, opponent_away and
 * opponent_back (with the seat's role), and the rematch's room. Its
 * players hear the new count (at most once a second). NULL with *code
 * ERR_NO_SUCH_ROOM, ERR_TOO_MANY_SPECTATORS, or ERR_NONE for out of
 * memory; nothing is sent then.
 */
struct lobby_spectator *lobby_watch(struct lobby *lobby, const char *room_id,
				    void *conn, uint64_t now_ms,
				    enum error_code *code);

/* The spectator's connection closed: it is freed. */
void lobby_unwatch(struct lobby *lobby, struct lobby_spectator *spectator,
		   uint64_t now_ms);

/* A spectator's request: pong to a ping, error spectator to the rest. */
void lobby_spectator_request(struct lobby *lobby,
			     const struct lobby_spectator *spectator,
			     const struct request *req);

/*
 * Calls fn for each open room, newest first, until it returns false.
 */
void lobby_each_room(const struct lobby *lobby,
		     bool (*fn)(void *ctx, const struct lobby_room *room),
		     void *ctx);

/* Calls fn for every pool, the default first. */
void lobby_each_pool(const struct lobby *lobby,
		     void (*fn)(void *ctx, const struct lobby_pool *pool),
		     void *ctx);

/* Looks up the seat of a canonical uid; NULL when none. */
struct lobby_player *lobby_find(const struct lobby *lobby, const char *uid);

#endif
