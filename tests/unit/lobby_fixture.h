/*
 * lobby_fixture.h - what the lobby tests (test_lobby_*.c) share: a lobby
 * whose sink records every event and every journal fact, a random source
 * that replays scripted bytes, players on numbered connections, and the
 * checks that say what was expected and what came; and, for the tests of
 * protocol 2 (core/PROTOCOL.md section 10: test_lobby_clocks.c, _endings,
 * _rematch, _emotes and _pools), timed lobbies, pools, offers and answers,
 * and checks of the events' JSON.
 *
 * Each test gets its own struct fixture from one of the setups (cmocka
 * state) and gives it back to teardown().
 */
#ifndef GOMOKU_TEST_LOBBY_FIXTURE_H
#define GOMOKU_TEST_LOBBY_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "lobby.h"
#include "expect.h"

#define MAX_UIDS 1000
#define MAX_FACTS 64
/* The reconnect grace of the grace tests, and a clock reading of theirs. */
#define GRACE_MS 30000
#define T0 1000000
/* The time control of the timed tests, 60+2, and the first-move timeout. */
#define BASE_MS 60000
#define INC_MS 2000
#define FIRST_MS 30000

/* A copy of one event the lobby sent, with what it pointed to. */
struct record {
	void *conn;			   /* the receiving connection */
	enum event_type type;		   /* what was sent */
	enum role role;			   /* ROLE */
	char room[UID_LEN + 1];		   /* ROLE */
	bool has_opponent;		   /* ROLE: it named an opponent */
	char opponent[NAME_MAX_BYTES + 1]; /* ROLE */
	enum error_code code;		   /* ERROR */
	char text[128];			   /* ERROR, DISCONNECT */
	enum game_winner winner;	   /* WINNER */
	enum game_reason reason;	   /* WINNER */
	struct win_line line;		   /* WINNER */
	int moves;			   /* BOARD, WINNER: moves played */
	struct cell move;		   /* BOARD: the last move */
	int seconds;			   /* OPPONENT_AWAY */
	bool resume;			   /* BOARD: a returner's position */
	bool undo;			   /* BOARD: a takeback's */
	struct cell undo_cell;		   /* BOARD with undo */
	enum role undo_role;		   /* BOARD with undo */
	bool accept;			   /* ANSWER */
	enum role by;			   /* OFFER, ANSWER, EMOTE */
	enum offer_what what;		   /* OFFER, ANSWER */
	enum emote emote;		   /* EMOTE */
	char ai_level[16];		   /* ROLE: the engine's level */
	char *json;			   /* encoded, or NULL for REPLACED */
};

/* A copy of one fact the lobby told the journal (lobby_sink.record). */
struct fact {
	enum lobby_record type;	       /* what happened */
	const struct lobby_room *room; /* the room it happened in */
	char room_id[UID_LEN + 1];     /* read during the call */
	int moves;		       /* moves played at the time */
	enum game_reason reason;       /* the game's end at the time */
	bool seated[ROLE_COUNT];       /* by role: a player in the seat */
	size_t events_before;	       /* events sent before it */
	enum game_winner winner;       /* the game's winner at the time */
	int64_t clock_ms[ROLE_COUNT];  /* by role: the clocks' left_ms */
	char rematch_of[UID_LEN + 1];  /* the room's rematch_of */
};

/* One of these per test: the lobby and what it has said and drawn. */
struct fixture {
	struct lobby lobby;		  /* the lobby under test */
	bool released;			  /* lobby_release() already called */
	struct record *records;		  /* every event, in order */
	size_t count;			  /* records used */
	size_t capacity;		  /* records allocated */
	uint8_t script[256];		  /* random bytes to hand out */
	size_t script_len;		  /* bytes scripted */
	size_t script_pos;		  /* bytes handed out */
	bool endless;			  /* after the script, count upwards */
	uint8_t counter;		  /* the next byte when endless */
	char uids[MAX_UIDS][UID_LEN + 1]; /* uid i of the test */
	char conns[2 * MAX_UIDS];	  /* &conns[i] is connection i */
	struct fact facts[MAX_FACTS];	  /* every fact, in order */
	size_t fact_count;		  /* facts used */
	int thinks;			  /* lobby_sink.think calls */
	struct lobby_ai_ticket ticket;	  /* the last think's ticket */
};

/* What lobby_each_pool() listed. */
struct pools_seen {
	int count;		       /* pools listed */
	struct lobby_pool_key keys[8]; /* in order */
	unsigned long waiting[8];      /* each pool's queue */
	unsigned long games[8];	       /* each pool's live games */
};

/* Two pools of the tests: 15x15 freestyle 60+2, and 19x19 standard 180+2. */
extern const struct lobby_pool_key pool_timed;
extern const struct lobby_pool_key pool_rematch;

/* The lobby sink's send: a copy of ev, encoded, appended to f->records. */
void record_event(void *ctx, void *conn, const struct event *ev);

/* The lobby sink's record: a copy of the fact, in f->facts. */
void record_fact(void *ctx, enum lobby_record type,
		 const struct lobby_room *room);

/* The lobby sink's think: counted, its ticket kept in f->ticket. */
void record_think(void *ctx, struct lobby_room *room);

/* The lobby's random source: the scripted bytes, then (endless) a count. */
void fill_random(void *ctx, void *buf, size_t len);

/* Queues len random bytes for the lobby to draw. */
void script_bytes(struct fixture *f, const uint8_t *bytes, size_t len);

/* Queues the draws of one match: a room id of 16 id_byte, then coin. */
void script_match(struct fixture *f, uint8_t id_byte, uint8_t coin);

/* Forgets every event and fact recorded so far. */
void forget_records(struct fixture *f);

/* (Re)starts f's lobby with config, telling the journal when journal. */
int start_lobby(struct fixture *f, const struct lobby_config *config,
		bool journal);

/* A fixture with a lobby of size, full_board, grace_ms and journal. */
int setup_lobby_with(void **state, int size, enum full_board full_board,
		     uint64_t grace_ms, bool journal);

/* A fixture with a lobby of config, telling the journal when journal. */
int setup_lobby_config(void **state, const struct lobby_config *config,
		       bool journal);

/* As setup_lobby_with(), with no grace and no journal. */
int setup_lobby(void **state, int size, enum full_board full_board);

/* The cmocka setup of most tests: 15x15, no grace, no journal. */
int setup(void **state);

/* 5x5, where a full board is a draw; no grace, no journal. */
int setup_small_drawn(void **state);

/* 15x15, a grace of GRACE_MS, and a journal that records every fact. */
int setup_grace(void **state);

/* As setup_grace, with no grace: a drop forfeits at once. */
int setup_journal_no_grace(void **state);

/* As setup_grace, with no journal (lobby_sink.record NULL). */
int setup_grace_no_journal(void **state);

/* Releases the lobby (unless a test did) and frees the fixture. */
int teardown(void **state);

/* Connection i. */
void *conn(struct fixture *f, int i);

/* Connects player i (uid i) on connection i. */
struct lobby_player *join(struct fixture *f, int i, const char *name);

/* The protocol's type words; replaced has none on the wire. */
const char *type_name(int type);

/* An error code's word, "none" for ERR_NONE. */
const char *code_name(int code);

/* Which connection index c is, for messages. */
long conn_index(struct fixture *f, void *c);

/* A move request at (x, y). */
struct request move_request(int x, int y);

/* player asks for the move (x, y) at time 0. */
void play(struct fixture *f, struct lobby_player *player, int x, int y);

/* player asks for the move (x, y) at now_ms. */
void play_at(struct fixture *f, struct lobby_player *player, int x, int y,
	     uint64_t now_ms);

/*
 * Connects player i (uid i) on connection i at now_ms, asking for pool
 * (NULL: the default) through lobby_join().
 */
struct lobby_player *join_pool(struct fixture *f, int i, const char *name,
			       const struct lobby_pool_key *pool,
			       uint64_t now_ms);

/* Pairs players 0 and 1 with coin; player 0 queued first. */
void pair(struct fixture *f, struct lobby_player **p0, struct lobby_player **p1,
	  uint8_t coin);

/* Checks that no recorded event carries any test uid. */
void expect_no_uid_sent(struct fixture *f, int uids);

/*
 * Checks that req from player is refused with code, sent to player only,
 * and that nothing else changed.
 */
void expect_refusal(struct fixture *f, struct lobby_player *player,
		    const struct request *req, enum error_code code);

/* As expect_refusal(), with the request made at now_ms. */
void expect_refusal_at(struct fixture *f, struct lobby_player *player,
		       const struct request *req, enum error_code code,
		       uint64_t now_ms);

/* A journal fact's name. */
const char *fact_name(int type);

/* Connects uid i again on connection c at now_ms. */
struct lobby_player *rejoin(struct fixture *f, int i, const char *name, int c,
			    uint64_t now_ms);

/* The player's connection dropped (not on purpose) at now_ms. */
void drop(struct fixture *f, struct lobby_player *player, uint64_t now_ms);

/* Front (player 0 after pair(f, ..., 0)) makes five on row 0. */
void play_to_five(struct fixture *f, struct lobby_player *front,
		  struct lobby_player *back);

/* player asks for a request of type (accept: an answer's) at now. */
void request(struct fixture *f, struct lobby_player *player,
	     enum request_type type, bool accept, uint64_t now);

/* Checks that event i is a takeback board of the stone at (x, y). */
void expect_undo(struct fixture *f, size_t i, int c, int x, int y, int moves);

/*
 * A fixture whose default pool is 15x15 freestyle at tc, with a first-move
 * timeout of FIRST_MS, grace_ms and a journal.
 */
int setup_tc(void **state, struct time_control tc, uint64_t grace_ms);

/* 60+2, a first-move timeout, a grace of GRACE_MS and a journal. */
int setup_timed(void **state);

/* Untimed, though a first-move timeout is configured; grace, journal. */
int setup_untimed(void **state);

/* Pairs players 0 and 1 at now_ms with coin (0: player 0 is front). */
void pair_at(struct fixture *f, struct lobby_player **p0,
	     struct lobby_player **p1, uint8_t coin, uint64_t now_ms);

/* player asks for request type (an offer or answer: of what) at now_ms. */
void ask(struct fixture *f, struct lobby_player *player, enum request_type type,
	 enum offer_what what, bool accept, uint64_t now_ms);

/* player offers what at now_ms. */
void offer(struct fixture *f, struct lobby_player *player, enum offer_what what,
	   uint64_t now_ms);

/* player answers the offer of what (accept or decline) at now_ms. */
void answer(struct fixture *f, struct lobby_player *player,
	    enum offer_what what, bool accept, uint64_t now_ms);

/* player sends the emote word at now_ms. */
void emote(struct fixture *f, struct lobby_player *player, enum emote word,
	   uint64_t now_ms);

/* Checks that player's request is refused with code at now_ms. */
void expect_refused_at(struct fixture *f, struct lobby_player *player,
		       enum request_type type, enum offer_what what,
		       enum error_code code, uint64_t now_ms);

/* A game winner's, a game end's and an offer's word, for messages. */
const char *winner_name(int winner);
const char *reason_name(int reason);
const char *offer_name(int what);

/*
 * The number member name of event i's JSON (of its object member outer
 * when not NULL); -1 when there is none.
 */
long long json_number(struct fixture *f, size_t i, const char *outer,
		      const char *name);

/* Whether event i's JSON has a member name. */
bool json_has(struct fixture *f, size_t i, const char *name);

/* Checks that event i's JSON has "name":"want". */
void expect_json_string(struct fixture *f, size_t i, const char *name,
			const char *want);

/* Checks that event i carries the clocks front and back (ms). */
void expect_clock(struct fixture *f, size_t i, long long front, long long back);

/* Checks that event i carries abort_in want (-1: none). */
void expect_abort_in(struct fixture *f, size_t i, long long want);

/* How many events of type went to connection c. */
int events_to(struct fixture *f, int c, enum event_type type);

/* The index of the first event of type to connection c; fails if none. */
size_t event_index(struct fixture *f, int c, enum event_type type);

/* Front (p0) and back (p1) play their first moves at t1 and t2. */
void open_clocks(struct fixture *f, struct lobby_player *p0,
		 struct lobby_player *p1, uint64_t t1, uint64_t t2);

/* Lists the lobby's pools into *seen. */
void list_pools(struct fixture *f, struct pools_seen *seen);

/* The index of key in seen; -1 when it was not listed. */
int pool_index(const struct pools_seen *seen, const struct lobby_pool_key *key);

/* Checks that pool key is listed with waiting players and live games. */
void expect_pool(struct fixture *f, const struct lobby_pool_key *key,
		 unsigned long waiting, unsigned long games);

/* Connects player i against the engine with coin (0: the player is front). */
struct lobby_player *join_engine(struct fixture *f, int i, uint8_t coin,
				 uint64_t now_ms);

/* p1 resigns the game it plays against p0 at now_ms. */
void finish(struct fixture *f, struct lobby_player *p1, uint64_t now_ms);

/* Checks that event i went to connection c with type. */
#define expect_event(f, i, c, want_type)                                       \
	do {                                                                   \
		size_t i_ = (i);                                               \
		if (i_ >= (f)->count)                                          \
			fail_msg("expected event %zu (%s), only %zu sent", i_, \
				 type_name(want_type), (f)->count);            \
		if ((f)->records[i_].conn != conn(f, c) ||                     \
		    (f)->records[i_].type != (want_type))                      \
			fail_msg("event %zu: expected %s to conn %d, "         \
				 "got %s to conn %ld",                         \
				 i_, type_name(want_type), (c),                \
				 type_name((f)->records[i_].type),             \
				 conn_index(f, (f)->records[i_].conn));        \
	} while (0)

#define expect_events(f, n)                                                \
	do {                                                               \
		if ((f)->count != (size_t)(n))                             \
			fail_msg("expected %d events, got %zu%s%s", (n),   \
				 (f)->count, (f)->count ? ", first " : "", \
				 (f)->count ?                              \
					 type_name((f)->records[0].type) : \
					 "");                              \
	} while (0)

/* Checks every counter of the lobby. */
#define expect_stats(f, want_players, want_waiting, want_rooms, want_live, \
		     want_matches, want_moves)                             \
	do {                                                               \
		const struct lobby_stats *s_ = &(f)->lobby.stats;          \
		expect_int(s_->players, want_players);                     \
		expect_int((f)->lobby.default_pool->queue.count, want_waiting);          \
		expect_int(s_->rooms, want_rooms);                         \
		expect_int(s_->rooms_live, want_live);                     \
		expect_int(s_->matches, want_matches);                     \
		expect_int(s_->moves, want_moves);                         \
	} while (0)

/* The first and last players of the queue and of the away list. */
#define queue_first(f) \
	list_first(&(f)->lobby.default_pool->queue, struct lobby_player, queue_node)

#define queue_last(f)                                                          \
	((f)->lobby.default_pool->queue.tail ? list_entry((f)->lobby.default_pool->queue.tail,             \
					    struct lobby_player, queue_node) : \
				 NULL)

#define away_first(f) \
	list_first(&(f)->lobby.away, struct lobby_player, away_node)

#define away_last(f)                                                         \
	((f)->lobby.away.tail ? list_entry((f)->lobby.away.tail,             \
					   struct lobby_player, away_node) : \
				NULL)

/* Checks that fact i is want_type, recorded after want_before events. */
#define expect_fact(f, i, want_type, want_before)                              \
	do {                                                                   \
		size_t i_ = (i);                                               \
		const struct fact *fact_;                                      \
		if (i_ >= (f)->fact_count)                                     \
			fail_msg("expected fact %zu (%s), only %zu recorded",  \
				 i_, fact_name(want_type), (f)->fact_count);   \
		fact_ = &(f)->facts[i_];                                       \
		if (fact_->type != (want_type))                                \
			fail_msg("fact %zu: expected %s, got %s", i_,          \
				 fact_name(want_type),                         \
				 fact_name(fact_->type));                      \
		if (fact_->events_before != (size_t)(want_before))             \
			fail_msg("fact %zu (%s): expected after %zu events, "  \
				 "got after %zu",                              \
				 i_, fact_name(want_type),                     \
				 (size_t)(want_before), fact_->events_before); \
	} while (0)

#define expect_facts(f, n)                                               \
	do {                                                             \
		if ((f)->fact_count != (size_t)(n))                      \
			fail_msg("expected %d facts, got %zu%s%s", (n),  \
				 (f)->fact_count,                        \
				 (f)->fact_count ? ", first " : "",      \
				 (f)->fact_count ?                       \
					 fact_name((f)->facts[0].type) : \
					 "");                            \
	} while (0)

#define expect_away(f, want_away) expect_int((f)->lobby.away.count, want_away)

/* Checks the finished games counters, by reason. */
#define expect_finished(f, want_five, want_full, want_forfeit)                \
	do {                                                                  \
		const struct lobby_stats *s_ = &(f)->lobby.stats;             \
		expect_int(s_->games_finished[REASON_FIVE], want_five);       \
		expect_int(s_->games_finished[REASON_FULL], want_full);       \
		expect_int(s_->games_finished[REASON_FORFEIT], want_forfeit); \
	} while (0)

/* Checks that event i is winner to connection c with winner and reason. */
#define expect_winner(f, i, c, want_winner, want_reason)                       \
	do {                                                                   \
		expect_event(f, i, c, EVENT_WINNER);                           \
		expect_enum((f)->records[i].winner, want_winner, winner_name); \
		expect_enum((f)->records[i].reason, want_reason, reason_name); \
	} while (0)

/* Checks that event i is an offer or answer (type) of what by side. */
#define expect_offer_event(f, i, c, want_type, want_what, want_by)        \
	do {                                                              \
		expect_event(f, i, c, want_type);                         \
		expect_enum((f)->records[i].what, want_what, offer_name); \
		expect_enum((f)->records[i].by, want_by, role_name);      \
	} while (0)

#define lobby_test(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

#define grace_test(name) \
	cmocka_unit_test_setup_teardown(name, setup_grace, teardown)

#define timed_test(name) \
	cmocka_unit_test_setup_teardown(name, setup_timed, teardown)

#define untimed_test(name) \
	cmocka_unit_test_setup_teardown(name, setup_untimed, teardown)

#endif
