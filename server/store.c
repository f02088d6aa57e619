/*
 * store.c - games in SQLite, through prepared statements: the batch of
 * writes kept until it commits (live games' moves appended to a log, a
 * finished game's written whole), restores, replays, and a maintenance
 * thread (checkpoints, pruning the log, retention); the clocks of each
 * move of the live timed games, kept in memory for their ends.
 *
 * One file over 600 lines: every statement is prepared once into one table
 * that the batch, the restore, the replays and the maintenance thread all
 * use; the schema and the statements change together.
 */
#include "store.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "log.h"

#define STORE_CHECKPOINT_MS 1000      /* how often the WAL is copied back */
#define STORE_WAL_RESTART_FRAMES 2048 /* ~8 MiB: start the WAL over */
#define STORE_RETENTION_FIRST_S 2     /* retention after the start ... */
#define STORE_RETENTION_EVERY_S 3600  /* ... and then every hour */
#define STORE_RETENTION_CHUNK 64      /* games deleted per transaction */
#define STORE_PRUNE_CHUNK 4096	      /* log entries deleted per transaction */
#define STORE_DAY_MS (24LL * 3600 * 1000)

static const char store_schema[] =
	"PRAGMA journal_mode=WAL;"
	"PRAGMA synchronous=NORMAL;"
	"PRAGMA foreign_keys=ON;"
	"CREATE TABLE IF NOT EXISTS games ("
	" id TEXT PRIMARY KEY,"
	" size INTEGER NOT NULL,"
	" rule TEXT NOT NULL,"
	" full_board TEXT NOT NULL,"
	" front_uid TEXT NOT NULL,"
	" back_uid TEXT NOT NULL,"
	" front_name TEXT NOT NULL,"
	" back_name TEXT NOT NULL,"
	" started_ms INTEGER NOT NULL,"
	" finished_ms INTEGER,"
	" winner TEXT,"
	" reason TEXT,"
	" line TEXT,"
	" log_from INTEGER,"
	" tc TEXT NOT NULL DEFAULT 'none',"
	" rematch_of TEXT,"
	" front_ms INTEGER,"
	" back_ms INTEGER,"
	" private INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE IF NOT EXISTS moves ("
	" game_id TEXT NOT NULL REFERENCES games(id),"
	" seq INTEGER NOT NULL,"
	" x INTEGER NOT NULL,"
	" y INTEGER NOT NULL,"
	" front_ms INTEGER,"
	" back_ms INTEGER,"
	" PRIMARY KEY (game_id, seq)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS move_log ("
	" n INTEGER PRIMARY KEY,"
	" game_id TEXT NOT NULL,"
	" seq INTEGER NOT NULL,"
	" x INTEGER NOT NULL,"
	" y INTEGER NOT NULL,"
	" front_ms INTEGER,"
	" back_ms INTEGER);"
	"CREATE INDEX IF NOT EXISTS games_unfinished ON games(started_ms)"
	" WHERE finished_ms IS NULL;"
	"CREATE INDEX IF NOT EXISTS games_finished ON games(finished_ms)"
	" WHERE finished_ms IS NOT NULL;";

/*
 * The layouts of the database, in user_version:
 * 1 (user_version 0) kept every move in `moves`, keyed by game: each move
 *   of a live game wrote a page of its own.
 * 2 sends the moves of live games to the append-only `move_log`; a
 *   game's moves reach `moves` whole when it ends. The move to it, once,
 *   at start-up: the moves of unfinished games to the log.
 * 3 (protocol 2) adds the time control, rematch_of and the final clocks
 *   to `games`, and both clocks to every move and takeback (front_ms,
 *   back_ms: NULL in untimed games). Older rows get tc 'none' and NULL
 *   clocks (store_added_columns).
 * 4 adds `private` to `games`: 1 for a game by invite link, left out of
 *   the list of recent games and of the live rooms after a restart
 *   (older rows: 0).
 */
#define STORE_LAYOUT 4
static const char store_migrate_log[] =
	"BEGIN IMMEDIATE;"
	"INSERT INTO move_log (game_id, seq, x, y)"
	" SELECT m.game_id, m.seq, m.x, m.y FROM moves m"
	" JOIN games g ON g.id = m.game_id WHERE g.finished_ms IS NULL"
	" ORDER BY m.game_id, m.seq;"
	"UPDATE games SET log_from = COALESCE("
	" (SELECT MIN(n) FROM move_log WHERE game_id = games.id),"
	" (SELECT COALESCE(MAX(n), 0) + 1 FROM move_log))"
	" WHERE finished_ms IS NULL;"
	"DELETE FROM moves WHERE game_id IN"
	" (SELECT id FROM games WHERE finished_ms IS NULL);"
	"PRAGMA user_version=2;"
	"COMMIT;";

/*
 * The columns layouts 3 and on added, for ALTER TABLE on an older
 * database: each one the database's layout is below.
 */
static const struct {
	int layout;
	const char *table, *column, *type;
} store_added_columns[] = {
	{ 3, "games", "tc", "TEXT NOT NULL DEFAULT 'none'" },
	{ 3, "games", "rematch_of", "TEXT" },
	{ 3, "games", "front_ms", "INTEGER" },
	{ 3, "games", "back_ms", "INTEGER" },
	{ 3, "moves", "front_ms", "INTEGER" },
	{ 3, "moves", "back_ms", "INTEGER" },
	{ 3, "move_log", "front_ms", "INTEGER" },
	{ 3, "move_log", "back_ms", "INTEGER" },
	{ 4, "games", "private", "INTEGER NOT NULL DEFAULT 0" },
};

/* The prepared statements, by what they do. */
enum store_stmt {
	STMT_BEGIN,
	STMT_COMMIT,
	STMT_ROLLBACK,
	STMT_INSERT_GAME,
	STMT_INSERT_MOVE,
	STMT_LOG_MOVE,
	STMT_FINISH_GAME,
	STMT_SELECT_GAME,
	STMT_SELECT_MOVES,
	STMT_SELECT_LOG,
	STMT_SELECT_UNFINISHED,
	STMT_ABANDON_GAME,
	STMT_COUNT
};

static const char *const store_sql[STMT_COUNT] = {
	[STMT_BEGIN] = "BEGIN",
	[STMT_COMMIT] = "COMMIT",
	[STMT_ROLLBACK] = "ROLLBACK",
	/* the first move writes its game: again after a takeback to none */
	[STMT_INSERT_GAME] =
		"INSERT OR IGNORE INTO games (id, size, rule, full_board, front_uid,"
		" back_uid, front_name, back_name, started_ms, tc, rematch_of,"
		" private, log_from) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
		" (SELECT COALESCE(MAX(n), 0) + 1 FROM move_log))",
	/* a finished game's moves, all at once */
	[STMT_INSERT_MOVE] =
		"INSERT OR REPLACE INTO moves (game_id, seq, x, y, front_ms,"
		" back_ms) VALUES (?, ?, ?, ?, ?, ?)",
	/* a live game's move; x = y = -1: a takeback to seq moves */
	[STMT_LOG_MOVE] =
		"INSERT INTO move_log (game_id, seq, x, y, front_ms, back_ms)"
		" VALUES (?, ?, ?, ?, ?, ?)",
	[STMT_FINISH_GAME] =
		"UPDATE games SET finished_ms = ?, winner = ?, reason = ?,"
		" line = ?, front_ms = ?, back_ms = ? WHERE id = ?",
	/* the columns by enum store_game_column */
	[STMT_SELECT_GAME] =
		"SELECT size, rule, full_board, front_name, back_name,"
		" started_ms, finished_ms, winner, reason, line, front_uid,"
		" back_uid, tc, rematch_of, front_ms, back_ms, private FROM games"
		" WHERE id = ?",
	[STMT_SELECT_MOVES] = "SELECT seq, x, y, front_ms, back_ms FROM moves"
			      " WHERE game_id = ? ORDER BY seq",
	/* from the game's first entry on: the entries of the games that
	 * started since, and no index to update on every move */
	[STMT_SELECT_LOG] =
		"SELECT seq, x, y, front_ms, back_ms FROM move_log WHERE n >="
		" (SELECT log_from FROM games WHERE id = ?1) AND game_id = ?1"
		" ORDER BY n",
	[STMT_SELECT_UNFINISHED] =
		"SELECT id FROM games WHERE finished_ms IS NULL"
		" ORDER BY started_ms",
	/* with the clocks of its last entry, when it was timed */
	[STMT_ABANDON_GAME] =
		"UPDATE games SET finished_ms = started_ms, reason = 'abandoned',"
		" front_ms = ?, back_ms = ? WHERE id = ?",
};

/* The columns of STMT_SELECT_GAME. */
enum store_game_column {
	COL_SIZE,
	COL_RULE,
	COL_FULL_BOARD,
	COL_FRONT_NAME,
	COL_BACK_NAME,
	COL_STARTED_MS,
	COL_FINISHED_MS,
	COL_WINNER,
	COL_REASON,
	COL_LINE,
	COL_FRONT_UID,
	COL_BACK_UID,
	COL_TC,
	COL_REMATCH_OF,
	COL_FRONT_MS,
	COL_BACK_MS,
	COL_PRIVATE,
};

/*
 * Checkpoints and retention run on a thread of their own, with a
 * connection of their own: copying the WAL back into the database ends
 * with an fsync, which took tens of milliseconds of the event loop when
 * SQLite did it inside a commit (its default, every 1000 pages). A
 * passive checkpoint never blocks the writer, nor waits for it.
 */
struct store_checkpointer {
	sqlite3 *db;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stop;	       /* under lock */
	bool failing;	       /* the last checkpoint failed (logged once) */
	bool prune_failing;    /* the last pruning failed (logged once) */
	bool running;	       /* the thread was started */
	int keep_days;	       /* finished games older are deleted; 0: never */
	time_t next_retention; /* CLOCK_MONOTONIC seconds of the next run */
};

/*
 * Both clocks of a timed game at one moment; known false: none (an
 * untimed game, or a row of an older layout).
 */
struct store_clock {
	int64_t front_ms;
	int64_t back_ms;
	bool known;
};

/* What one write of a batch journals: copies, for the room may be gone
 * by the time the batch commits (or, after a failure, is tried again). */
enum store_op_type {
	OP_GAME,     /* a game's row, with its first move */
	OP_MOVE,     /* a move */
	OP_TAKEBACK, /* moves past `moves` forgotten */
	OP_FINISH,   /* the result */
};

struct store_op {
	enum store_op_type type;
	char id[UID_LEN + 1]; /* the game's */
	union {
		struct {
			int size;
			enum rule rule;
			enum full_board full_board;
			char uid[2][UID_LEN + 1];	  /* front, back */
			char name[2][NAME_MAX_BYTES + 1]; /* front, back */
			int64_t started_ms;
			char tc[TIME_CONTROL_TEXT_MAX]; /* "none", "300+5" */
			char rematch_of[UID_LEN + 1];	/* "": none */
			bool private;			/* by invite link */
		} game;
		struct {
			int seq, x, y;
			struct store_clock clock; /* once it was accepted */
		} move;
		struct {
			int moves;		  /* the game has these now */
			struct store_clock clock; /* then */
		} takeback;
		struct {
			int64_t finished_ms;
			enum game_winner winner;
			enum game_reason reason;
			struct win_line line; /* reason REASON_FIVE */
			int size;	      /* of the board */
			int count;	      /* moves played */
			uint16_t *moves;      /* board_index() of each; owned */
			struct store_clock *clocks; /* of each move; owned;
						     * NULL: untimed */
			int clock_count;	    /* entries in clocks */
			struct store_clock clock;   /* the final clocks */
		} finish;
	};
};

/*
 * One of these per live timed game of two people: the clocks of each of
 * its moves, kept so that its end writes them to `moves` with the moves
 * without reading the log back (OP_FINISH takes them over).
 */
struct store_game_clocks {
	char id[UID_LEN + 1];		/* the game's */
	struct store_clock *moves;	/* by seq */
	int count;			/* moves played */
	int cap;			/* room in moves */
	struct store_game_clocks *next; /* in its bucket */
};

/* One of these per server: the open database. */
struct store {
	sqlite3 *db;
	sqlite3_stmt *stmt[STMT_COUNT];
	struct store_op *ops; /* the batch: written by store_commit() */
	size_t op_count;
	size_t op_cap;
	bool failing; /* the last commit failed: the batch is kept */
	struct store_checkpointer checkpointer;
	struct store_game_clocks **clocks; /* live timed games, by id hash */
	size_t clock_buckets;		   /* a power of two; 0: none yet */
	size_t clock_games;		   /* entries in clocks */
};

/*
 * Copies the WAL back. A passive checkpoint never blocks the writer, but
 * under steady writes it never finishes either (frames keep coming while
 * it syncs), and SQLite starts the WAL file over only after one that did:
 * so when the WAL has grown past STORE_WAL_RESTART_FRAMES, a RESTART
 * checkpoint holds the writer off for the little the passive one left.
 */
static void store_checkpoint(struct store_checkpointer *cp)
{
	int frames = 0, copied = 0;

	if (sqlite3_wal_checkpoint_v2(cp->db, NULL, SQLITE_CHECKPOINT_PASSIVE,
				      &frames, &copied) != SQLITE_OK) {
		/* once per failure, not every second of a full disk */
		if (!cp->failing)
			log_warn("database: checkpoint: %s",
				 sqlite3_errmsg(cp->db));
		cp->failing = true;
		return;
	}
	cp->failing = false;
	if (frames < STORE_WAL_RESTART_FRAMES)
		return;
	if (sqlite3_wal_checkpoint_v2(cp->db, NULL, SQLITE_CHECKPOINT_RESTART,
				      NULL, NULL) != SQLITE_OK &&
	    sqlite3_errcode(cp->db) != SQLITE_BUSY)
		log_warn("database: checkpoint: %s", sqlite3_errmsg(cp->db));
}

/* Milliseconds since the epoch. */
static int64_t store_unix_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static time_t store_monotonic_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/* True once store_checkpoint_stop() asked the thread to end. */
static bool store_checkpoint_stopping(struct store_checkpointer *cp)
{
	bool stop;

	pthread_mutex_lock(&cp->lock);
	stop = cp->stop;
	pthread_mutex_unlock(&cp->lock);
	return stop;
}

/*
 * Deletes up to STORE_RETENTION_CHUNK finished games that ended before
 * cutoff (Unix ms), with their moves, in one transaction. Returns how
 * many, or -1 on a database error.
 */
static int store_retention_chunk(sqlite3 *db, int64_t cutoff)
{
	static const char select_sql[] =
		"SELECT id FROM games WHERE finished_ms IS NOT NULL"
		" AND finished_ms < ? ORDER BY finished_ms LIMIT ?";
	static const char delete_moves_sql[] =
		"DELETE FROM moves WHERE game_id = ?";
	static const char delete_game_sql[] = "DELETE FROM games WHERE id = ?";
	char ids[STORE_RETENTION_CHUNK][UID_LEN + 1];
	sqlite3_stmt *select = NULL, *moves = NULL, *game = NULL;
	int count = 0, rc = -1;

	if (sqlite3_prepare_v2(db, select_sql, -1, &select, NULL) ||
	    sqlite3_prepare_v2(db, delete_moves_sql, -1, &moves, NULL) ||
	    sqlite3_prepare_v2(db, delete_game_sql, -1, &game, NULL))
		goto out;
	sqlite3_bind_int64(select, 1, cutoff);
	sqlite3_bind_int(select, 2, STORE_RETENTION_CHUNK);
	while (count < STORE_RETENTION_CHUNK &&
	       sqlite3_step(select) == SQLITE_ROW)
		snprintf(ids[count++], sizeof(ids[0]), "%s",
			 (const char *)sqlite3_column_text(select, 0));
	sqlite3_reset(select);
	if (!count) {
		rc = 0;
		goto out;
	}
	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		goto out;
	for (int i = 0; i < count; i++) {
		sqlite3_bind_text(moves, 1, ids[i], -1, SQLITE_STATIC);
		sqlite3_bind_text(game, 1, ids[i], -1, SQLITE_STATIC);
		if (sqlite3_step(moves) != SQLITE_DONE ||
		    sqlite3_step(game) != SQLITE_DONE) {
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
			goto out;
		}
		sqlite3_reset(moves);
		sqlite3_reset(game);
	}
	rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? count :
									 -1;
	if (rc < 0)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
out:
	sqlite3_finalize(select);
	sqlite3_finalize(moves);
	sqlite3_finalize(game);
	return rc;
}

/*
 * Deletes the finished games older than --keep-days, a chunk at a time
 * with a pause in between, so that the event loop's commits never wait
 * long for the write lock.
 */
static void store_retention(struct store_checkpointer *cp)
{
	int64_t cutoff = store_unix_ms() - cp->keep_days * STORE_DAY_MS;
	long deleted = 0;
	int n;

	while ((n = store_retention_chunk(cp->db, cutoff)) > 0) {
		deleted += n;
		if (n < STORE_RETENTION_CHUNK || store_checkpoint_stopping(cp))
			break;
		usleep(20000);
	}
	if (n < 0)
		log_warn("database: deleting old games: %s",
			 sqlite3_errmsg(cp->db));
	if (deleted)
		log_info("database: deleted %ld finished games older than %d "
			 "days",
			 deleted, cp->keep_days);
}

/*
 * Deletes the log's entries older than the first of any live game (they
 * belong to finished games, whose moves are in `moves`), a chunk per
 * transaction so that the event loop's commits never wait long.
 */
static void store_prune_log(struct store_checkpointer *cp)
{
	static const char sql[] = "DELETE FROM move_log WHERE n < MIN("
				  " (SELECT MIN(n) FROM move_log) + ?1,"
				  " COALESCE((SELECT MIN(log_from) FROM games"
				  "  WHERE finished_ms IS NULL),"
				  "  (SELECT MAX(n) + 1 FROM move_log)))";
	sqlite3_stmt *stmt = NULL;
	int rc;

	rc = sqlite3_prepare_v2(cp->db, sql, -1, &stmt, NULL);
	if (rc == SQLITE_OK)
		sqlite3_bind_int(stmt, 1, STORE_PRUNE_CHUNK);
	while (rc == SQLITE_OK) {
		rc = sqlite3_step(stmt);
		sqlite3_reset(stmt);
		if (rc == SQLITE_DONE &&
		    sqlite3_changes(cp->db) == STORE_PRUNE_CHUNK &&
		    !store_checkpoint_stopping(cp))
			rc = SQLITE_OK; /* a whole chunk: there may be more */
	}
	/* A failure is logged once, until pruning works again. */
	if (rc != SQLITE_DONE && !cp->prune_failing)
		log_warn("database: pruning the move log: %s",
			 sqlite3_errmsg(cp->db));
	cp->prune_failing = rc != SQLITE_DONE;
	sqlite3_finalize(stmt);
}

/*
 * The event loop's busy handler: a RESTART checkpoint holds the writer
 * off for a few milliseconds; SQLite's own handler would sleep 1, 2, 5,
 * 10 ms ... between tries, so this one polls every 100 us, for 2 s at most.
 */
static int store_busy(void *arg, int tries)
{
	(void)arg;
	if (tries >= 20000)
		return 0;
	usleep(100);
	return 1;
}

static void *store_checkpoint_main(void *arg)
{
	struct store_checkpointer *cp = arg;
	struct timespec until;

	pthread_mutex_lock(&cp->lock);
	while (!cp->stop) {
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += (long)STORE_CHECKPOINT_MS % 1000 * 1000000;
		until.tv_sec +=
			STORE_CHECKPOINT_MS / 1000 + until.tv_nsec / 1000000000;
		until.tv_nsec %= 1000000000;
		if (pthread_cond_timedwait(&cp->wake, &cp->lock, &until) !=
			    ETIMEDOUT ||
		    cp->stop)
			continue;
		pthread_mutex_unlock(&cp->lock);
		store_prune_log(cp);
		store_checkpoint(cp);
		if (cp->keep_days &&
		    store_monotonic_s() >= cp->next_retention) {
			store_retention(cp);
			cp->next_retention =
				store_monotonic_s() + STORE_RETENTION_EVERY_S;
		}
		pthread_mutex_lock(&cp->lock);
	}
	pthread_mutex_unlock(&cp->lock);
	return NULL;
}

/* Opens the checkpointer's connection and starts its thread. */
static int store_checkpoint_start(struct store_checkpointer *cp,
				  const char *path, int keep_days)
{
	pthread_condattr_t attr;

	cp->keep_days = keep_days;
	cp->next_retention = store_monotonic_s() + STORE_RETENTION_FIRST_S;
	if (sqlite3_open_v2(path, &cp->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK ||
	    sqlite3_exec(cp->db, "PRAGMA synchronous=NORMAL", NULL, NULL,
			 NULL) != SQLITE_OK)
		return -1;
	sqlite3_busy_timeout(cp->db, 2000);
	if (pthread_condattr_init(&attr))
		return -1;
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&cp->wake, &attr);
	pthread_condattr_destroy(&attr);
	pthread_mutex_init(&cp->lock, NULL);
	if (pthread_create(&cp->thread, NULL, store_checkpoint_main, cp)) {
		pthread_cond_destroy(&cp->wake);
		pthread_mutex_destroy(&cp->lock);
		return -1;
	}
	cp->running = true;
	return 0;
}

static void store_checkpoint_stop(struct store_checkpointer *cp)
{
	if (cp->running) {
		pthread_mutex_lock(&cp->lock);
		cp->stop = true;
		pthread_cond_signal(&cp->wake);
		pthread_mutex_unlock(&cp->lock);
		pthread_join(cp->thread, NULL);
		pthread_cond_destroy(&cp->wake);
		pthread_mutex_destroy(&cp->lock);
		cp->running = false;
	}
	sqlite3_close(cp->db);
	cp->db = NULL;
}

static void store_log_error(struct store *store, const char *what)
{
	log_error("database: %s: %s", what, sqlite3_errmsg(store->db));
}

/* The single integer a query returns, or -1. */
static int64_t store_query_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *stmt = NULL;
	int64_t value = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) == SQLITE_OK &&
	    sqlite3_step(stmt) == SQLITE_ROW)
		value = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return value;
}

/* Adds column to table unless it has it (ALTER TABLE); 0, or -1. */
static int store_add_column(sqlite3 *db, const char *table, const char *column,
			    const char *type)
{
	char sql[256];

	snprintf(sql, sizeof(sql),
		 "SELECT COUNT(*) FROM pragma_table_info('%s')"
		 " WHERE name = '%s'",
		 table, column);
	if (store_query_int(db, sql) != 0)
		return 0;
	snprintf(sql, sizeof(sql), "ALTER TABLE %s ADD COLUMN %s %s", table,
		 column, type);
	return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

/*
 * Layout 2 or later to this one, in one transaction: the columns added
 * since layout.
 */
static int store_migrate_columns(sqlite3 *db, int64_t layout)
{
	char sql[64];
	size_t i;

	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return -1;
	for (i = 0;
	     i < sizeof(store_added_columns) / sizeof(store_added_columns[0]);
	     i++)
		if (store_added_columns[i].layout > layout &&
		    store_add_column(db, store_added_columns[i].table,
				     store_added_columns[i].column,
				     store_added_columns[i].type))
			goto out_rollback;
	snprintf(sql, sizeof(sql), "PRAGMA user_version=%d; COMMIT",
		 STORE_LAYOUT);
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
out_rollback:
	if (!sqlite3_get_autocommit(db))
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* Brings a database of an older layout to this one, once; 0, or -1. */
static int store_migrate(struct store *store)
{
	int64_t layout = store_query_int(store->db, "PRAGMA user_version");

	if (layout >= STORE_LAYOUT)
		return 0;
	if (layout < 2) {
		if (store_add_column(store->db, "games", "log_from", "INTEGER"))
			return -1;
		if (sqlite3_exec(store->db, store_migrate_log, NULL, NULL,
				 NULL) != SQLITE_OK) {
			if (!sqlite3_get_autocommit(store->db))
				sqlite3_exec(store->db, "ROLLBACK", NULL, NULL,
					     NULL);
			return -1;
		}
	}
	return store_migrate_columns(store->db, layout < 2 ? 2 : layout);
}

struct store *store_open(const char *path, int keep_days, char *err,
			 size_t err_size)
{
	struct store *store = calloc(1, sizeof(*store));
	char *message = NULL;
	int i;

	if (!store) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	if (sqlite3_open_v2(path, &store->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
				    SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		snprintf(err, err_size, "--db \"%s\": %s", path,
			 store->db ? sqlite3_errmsg(store->db) :
				     "out of memory");
		goto out_close;
	}
	sqlite3_busy_handler(store->db, store_busy, NULL);
	if (sqlite3_exec(store->db, store_schema, NULL, NULL, &message) !=
	    SQLITE_OK) {
		snprintf(err, err_size, "--db \"%s\": %s", path,
			 message ? message : sqlite3_errmsg(store->db));
		sqlite3_free(message);
		goto out_close;
	}
	if (store_migrate(store)) {
		snprintf(err, err_size, "--db \"%s\": moving to layout %d: %s",
			 path, STORE_LAYOUT, sqlite3_errmsg(store->db));
		goto out_close;
	}
	/* the checkpointer thread does it, off the event loop */
	sqlite3_wal_autocheckpoint(store->db, 0);
	if (store_checkpoint_start(&store->checkpointer, path, keep_days)) {
		snprintf(err, err_size,
			 "--db \"%s\": cannot start the checkpoint thread",
			 path);
		goto out_close;
	}
	for (i = 0; i < STMT_COUNT; i++) {
		if (sqlite3_prepare_v3(store->db, store_sql[i], -1,
				       SQLITE_PREPARE_PERSISTENT,
				       &store->stmt[i], NULL) != SQLITE_OK) {
			snprintf(err, err_size, "--db \"%s\": %s", path,
				 sqlite3_errmsg(store->db));
			goto out_close;
		}
	}
	return store;

out_close:
	store_close(store);
	return NULL;
}

/* Forgets the batch, freeing what its ops own. */
static void store_ops_clear(struct store *store)
{
	for (size_t i = 0; i < store->op_count; i++) {
		if (store->ops[i].type != OP_FINISH)
			continue;
		free(store->ops[i].finish.moves);
		free(store->ops[i].finish.clocks);
	}
	store->op_count = 0;
}

/* The bucket of game id in the table of clocks (FNV-1a). */
static struct store_game_clocks **store_clocks_bucket(struct store *store,
						      const char *id)
{
	uint32_t hash = 2166136261u;

	for (; *id; id++)
		hash = (hash ^ (unsigned char)*id) * 16777619u;
	return &store->clocks[hash & (store->clock_buckets - 1)];
}

/* Game id's entry, unlinked from the table; NULL when it has none. */
static struct store_game_clocks *store_clocks_take(struct store *store,
						   const char *id)
{
	struct store_game_clocks **link, *entry;

	if (!store->clock_games)
		return NULL;
	for (link = store_clocks_bucket(store, id); *link;
	     link = &(*link)->next) {
		entry = *link;
		if (strcmp(entry->id, id))
			continue;
		*link = entry->next;
		store->clock_games--;
		return entry;
	}
	return NULL;
}

/* Doubles the table (from 64 buckets); 0, or -1 on out of memory. */
static int store_clocks_grow(struct store *store)
{
	size_t old_buckets = store->clock_buckets;
	struct store_game_clocks **old = store->clocks, *entry, *next;
	size_t buckets = old_buckets ? old_buckets * 2 : 64;

	store->clocks = calloc(buckets, sizeof(*store->clocks));
	if (!store->clocks) {
		store->clocks = old;
		return -1;
	}
	store->clock_buckets = buckets;
	for (size_t i = 0; i < old_buckets; i++) {
		for (entry = old[i]; entry; entry = next) {
			struct store_game_clocks **bucket =
				store_clocks_bucket(store, entry->id);

			next = entry->next;
			entry->next = *bucket;
			*bucket = entry;
		}
	}
	free(old);
	return 0;
}

static void store_clocks_free(struct store_game_clocks *entry)
{
	if (!entry)
		return;
	free(entry->moves);
	free(entry);
}

/* Game id's entry; NULL when it has none. */
static struct store_game_clocks *store_clocks_find(struct store *store,
						   const char *id)
{
	struct store_game_clocks *entry = NULL;

	if (store->clock_games)
		for (entry = *store_clocks_bucket(store, id); entry;
		     entry = entry->next)
			if (!strcmp(entry->id, id))
				break;
	return entry;
}

/* Game id's entry, made empty when it had none; NULL on out of memory. */
static struct store_game_clocks *store_clocks_get(struct store *store,
						  const char *id)
{
	struct store_game_clocks *entry = store_clocks_find(store, id),
				 **bucket;

	if (entry)
		return entry;
	if (store->clock_games >= store->clock_buckets &&
	    store_clocks_grow(store) && !store->clock_buckets)
		return NULL; /* a fuller table still works */
	entry = calloc(1, sizeof(*entry));
	if (!entry)
		return NULL;
	snprintf(entry->id, sizeof(entry->id), "%s", id);
	bucket = store_clocks_bucket(store, id);
	entry->next = *bucket;
	*bucket = entry;
	store->clock_games++;
	return entry;
}

/* entry's move seq has clock, and the moves after it are forgotten. */
static int store_clocks_set(struct store_game_clocks *entry, int seq,
			    struct store_clock clock)
{
	if (seq >= entry->cap) {
		int cap = entry->cap ? entry->cap * 2 : 32;
		struct store_clock *grown;

		while (cap <= seq)
			cap *= 2;
		grown = realloc(entry->moves, (size_t)cap * sizeof(*grown));
		if (!grown)
			return -1;
		entry->moves = grown;
		entry->cap = cap;
	}
	entry->moves[seq] = clock;
	entry->count = seq + 1;
	return 0;
}

/* Frees the whole table of clocks. */
static void store_clocks_clear(struct store *store)
{
	struct store_game_clocks *entry, *next;

	for (size_t i = 0; i < store->clock_buckets; i++)
		for (entry = store->clocks[i]; entry; entry = next) {
			next = entry->next;
			store_clocks_free(entry);
		}
	free(store->clocks);
	store->clocks = NULL;
	store->clock_buckets = store->clock_games = 0;
}

void store_close(struct store *store)
{
	int i;

	if (!store)
		return;
	if (store->op_count && store->db && store_commit(store))
		log_error("database: %zu writes could not be saved",
			  store->op_count);
	store_checkpoint_stop(&store->checkpointer);
	for (i = 0; i < STMT_COUNT; i++)
		sqlite3_finalize(store->stmt[i]);
	sqlite3_close(store->db);
	store_ops_clear(store);
	free(store->ops);
	store_clocks_clear(store);
	free(store);
}

/* Runs a statement that returns no rows, then resets it: SQLite's code. */
static int store_step(struct store *store, enum store_stmt which)
{
	sqlite3_stmt *stmt = store->stmt[which];
	int rc = sqlite3_step(stmt);

	sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* As store_step(), logging a failure; 0 or -1. */
static int store_run(struct store *store, enum store_stmt which)
{
	if (store_step(store, which) == SQLITE_OK)
		return 0;
	store_log_error(store, store_sql[which]);
	return -1;
}

/* A new write at the end of the batch, for game id; NULL: out of memory. */
static struct store_op *store_op_add(struct store *store,
				     enum store_op_type type, const char *id)
{
	struct store_op *op;

	if (store->op_count == store->op_cap) {
		size_t cap = store->op_cap ? store->op_cap * 2 : 64;
		struct store_op *grown =
			realloc(store->ops, cap * sizeof(*grown));

		if (!grown) {
			log_error("database: out of memory for a write");
			return NULL;
		}
		store->ops = grown;
		store->op_cap = cap;
	}
	op = &store->ops[store->op_count++];
	op->type = type;
	memcpy(op->id, id, sizeof(op->id));
	return op;
}

bool store_batch_pending(const struct store *store)
{
	return store->op_count > 0;
}

bool store_failing(const struct store *store)
{
	return store->failing;
}

/* The winning line as a JSON array text; NULL when there is none. */
static char *store_line_json(const struct store_op *op)
{
	const struct win_line *win = &op->finish.line;
	cJSON *line;
	char *text;
	int i;

	if (op->finish.reason != REASON_FIVE)
		return NULL;
	line = cJSON_CreateArray();
	for (i = 0; line && i < win->length; i++) {
		cJSON *cell = cJSON_CreateObject();

		if (!cell || !cJSON_AddItemToArray(line, cell) ||
		    !cJSON_AddNumberToObject(cell, "x", win->cells[i].x) ||
		    !cJSON_AddNumberToObject(cell, "y", win->cells[i].y)) {
			cJSON_Delete(line);
			return NULL;
		}
	}
	text = line ? cJSON_PrintUnformatted(line) : NULL;
	cJSON_Delete(line);
	return text;
}

/* Binds clock to parameters column and column + 1: NULL when unknown. */
static void store_bind_clock(sqlite3_stmt *stmt, int column,
			     const struct store_clock *clock)
{
	if (clock && clock->known) {
		sqlite3_bind_int64(stmt, column, clock->front_ms);
		sqlite3_bind_int64(stmt, column + 1, clock->back_ms);
	} else {
		sqlite3_bind_null(stmt, column);
		sqlite3_bind_null(stmt, column + 1);
	}
}

/*
 * Writes a game's moves (board_index() each) to `moves`, with the clocks
 * of each (clocks: NULL, or clock_count of them): SQLite's code.
 */
static int store_write_moves(struct store *store, const char *id, int size,
			     const uint16_t *moves, int count,
			     const struct store_clock *clocks, int clock_count)
{
	sqlite3_stmt *stmt = store->stmt[STMT_INSERT_MOVE];
	int rc = SQLITE_OK;

	for (int i = 0; rc == SQLITE_OK && i < count; i++) {
		sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
		sqlite3_bind_int(stmt, 2, i);
		sqlite3_bind_int(stmt, 3, board_cell(size, moves[i]).x);
		sqlite3_bind_int(stmt, 4, board_cell(size, moves[i]).y);
		store_bind_clock(stmt, 5,
				 clocks && i < clock_count ? &clocks[i] : NULL);
		rc = store_step(store, STMT_INSERT_MOVE);
	}
	return rc;
}

/* Writes one op of the batch in the open transaction: SQLite's code. */
static int store_apply(struct store *store, const struct store_op *op)
{
	enum store_stmt which;
	sqlite3_stmt *stmt;
	char *line = NULL;
	int rc;

	switch (op->type) {
	case OP_GAME:
		which = STMT_INSERT_GAME;
		stmt = store->stmt[which];
		sqlite3_bind_text(stmt, 1, op->id, -1, SQLITE_STATIC);
		sqlite3_bind_int(stmt, 2, op->game.size);
		sqlite3_bind_text(stmt, 3, rule_name(op->game.rule), -1,
				  SQLITE_STATIC);
		sqlite3_bind_text(stmt, 4,
				  op->game.full_board == FULL_BOARD_DRAW ?
					  "draw" :
					  "back",
				  -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 5, op->game.uid[0], -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 6, op->game.uid[1], -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 7, op->game.name[0], -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 8, op->game.name[1], -1, SQLITE_STATIC);
		sqlite3_bind_int64(stmt, 9, op->game.started_ms);
		sqlite3_bind_text(stmt, 10, op->game.tc, -1, SQLITE_STATIC);
		if (op->game.rematch_of[0])
			sqlite3_bind_text(stmt, 11, op->game.rematch_of, -1,
					  SQLITE_STATIC);
		else
			sqlite3_bind_null(stmt, 11);
		sqlite3_bind_int(stmt, 12, op->game.private);
		break;
	case OP_MOVE:
		which = STMT_LOG_MOVE;
		stmt = store->stmt[which];
		sqlite3_bind_text(stmt, 1, op->id, -1, SQLITE_STATIC);
		sqlite3_bind_int(stmt, 2, op->move.seq);
		sqlite3_bind_int(stmt, 3, op->move.x);
		sqlite3_bind_int(stmt, 4, op->move.y);
		store_bind_clock(stmt, 5, &op->move.clock);
		break;
	case OP_TAKEBACK:
		which = STMT_LOG_MOVE;
		stmt = store->stmt[which];
		sqlite3_bind_text(stmt, 1, op->id, -1, SQLITE_STATIC);
		sqlite3_bind_int(stmt, 2, op->takeback.moves);
		sqlite3_bind_int(stmt, 3, -1);
		sqlite3_bind_int(stmt, 4, -1);
		store_bind_clock(stmt, 5, &op->takeback.clock);
		break;
	case OP_FINISH:
	default:
		rc = store_write_moves(store, op->id, op->finish.size,
				       op->finish.moves, op->finish.count,
				       op->finish.clocks,
				       op->finish.clock_count);
		if (rc != SQLITE_OK)
			return rc;
		which = STMT_FINISH_GAME;
		stmt = store->stmt[which];
		line = store_line_json(op);
		sqlite3_bind_int64(stmt, 1, op->finish.finished_ms);
		sqlite3_bind_text(stmt, 2, game_winner_name(op->finish.winner),
				  -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 3, game_reason_name(op->finish.reason),
				  -1, SQLITE_STATIC);
		if (line)
			sqlite3_bind_text(stmt, 4, line, -1, SQLITE_TRANSIENT);
		else
			sqlite3_bind_null(stmt, 4);
		store_bind_clock(stmt, 5, &op->finish.clock);
		sqlite3_bind_text(stmt, 7, op->id, -1, SQLITE_STATIC);
		break;
	}
	rc = store_step(store, which);
	cJSON_free(line);
	return rc;
}

int store_commit(struct store *store)
{
	int rc = SQLITE_OK;
	size_t i;

	if (!store->op_count)
		return 0;
	rc = store_step(store, STMT_BEGIN);
	for (i = 0; rc == SQLITE_OK && i < store->op_count; i++) {
		rc = store_apply(store, &store->ops[i]);
		if ((rc & 0xff) == SQLITE_CONSTRAINT) {
			/* a write that can never succeed must not wedge them all */
			log_error("database: write %d of game " LOG_ROOM
				  " refused: %s",
				  (int)store->ops[i].type, store->ops[i].id,
				  sqlite3_errmsg(store->db));
			rc = SQLITE_OK;
		}
	}
	if (rc == SQLITE_OK)
		rc = store_step(store, STMT_COMMIT);
	if (rc != SQLITE_OK) {
		/* Kept whole, to be tried again: log the first failure only. */
		if (!store->failing)
			log_error("database: cannot save %zu writes (%s): "
				  "games are paused until it can",
				  store->op_count, sqlite3_errmsg(store->db));
		if (!sqlite3_get_autocommit(store->db))
			store_step(store, STMT_ROLLBACK);
		store->failing = true;
		return -1;
	}
	if (store->failing)
		log_info(
			"database: writes are saved again (%zu kept meanwhile)",
			store->op_count);
	store->failing = false;
	store_ops_clear(store);
	return 0;
}

/* The uid and name of room's player of role; "" when the seat is empty. */
static void store_copy_player(const struct lobby_room *room, enum role role,
			      char *uid, char *name)
{
	const struct lobby_player *player = room->seats[role];

	snprintf(uid, UID_LEN + 1, "%s", player ? player->uid : "");
	snprintf(name, NAME_MAX_BYTES + 1, "%s", player ? player->name : "");
}

/* The clocks of room's game as they stand (left_ms); unknown untimed. */
static struct store_clock store_room_clock(const struct lobby_room *room)
{
	const struct fischer *clock = &room->game.clock;

	if (!time_control_timed(clock->tc))
		return (struct store_clock){ .known = false };
	return (struct store_clock){ .front_ms = clock->left_ms[ROLE_FRONT],
				     .back_ms = clock->left_ms[ROLE_BACK],
				     .known = true };
}

/*
 * Journals room's move seq (with the game itself when it is the first),
 * and clock, the clocks after it (when known).
 */
static int store_move_at(struct store *store, const struct lobby_room *room,
			 int seq, int64_t started_unix_ms,
			 struct store_clock clock)
{
	const struct game *game = &room->game;
	int cell = game->history[seq];
	struct store_game_clocks *clocks;
	struct store_op *op;

	if (seq == 0) {
		op = store_op_add(store, OP_GAME, room->id);
		if (!op)
			return -1;
		op->game.size = game->board.size;
		op->game.rule = game->rule;
		op->game.full_board = game->full_board;
		store_copy_player(room, ROLE_FRONT, op->game.uid[0],
				  op->game.name[0]);
		store_copy_player(room, ROLE_BACK, op->game.uid[1],
				  op->game.name[1]);
		op->game.started_ms = started_unix_ms;
		time_control_format(game->clock.tc, op->game.tc,
				    sizeof(op->game.tc));
		snprintf(op->game.rematch_of, sizeof(op->game.rematch_of), "%s",
			 room->rematch_of);
		op->game.private = room->private;
	}
	op = store_op_add(store, OP_MOVE, room->id);
	if (!op)
		return -1;
	op->move.seq = seq;
	op->move.x = board_cell(game->board.size, cell).x;
	op->move.y = board_cell(game->board.size, cell).y;
	op->move.clock = clock;
	if (!time_control_timed(game->clock.tc))
		return 0;
	/* kept for the end of the game; the log has it already */
	clocks = store_clocks_get(store, room->id);
	if (!clocks || store_clocks_set(clocks, seq, op->move.clock)) {
		log_error(
			"database: out of memory for the clocks of game " LOG_ROOM,
			room->id);
		return -1;
	}
	return 0;
}

int store_move(struct store *store, const struct lobby_room *room,
	       int64_t started_unix_ms)
{
	return store_move_at(store, room, room->game.moves_played - 1,
			     started_unix_ms, store_room_clock(room));
}

int store_adopt(struct store *store, const struct lobby_room *room,
		int64_t started_unix_ms)
{
	int last = room->game.moves_played - 1;

	for (int seq = 0; seq <= last; seq++)
		if (store_move_at(store, room, seq, started_unix_ms,
				  seq == last ? store_room_clock(room) :
						(struct store_clock){
							.known = false }))
			return -1;
	return 0;
}

int store_drop_unfinished(struct store *store)
{
	char *error = NULL;
	int dropped;

	if (sqlite3_exec(store->db,
			 "BEGIN IMMEDIATE;"
			 "DELETE FROM move_log WHERE game_id IN"
			 " (SELECT id FROM games WHERE finished_ms IS NULL);"
			 "DELETE FROM moves WHERE game_id IN"
			 " (SELECT id FROM games WHERE finished_ms IS NULL);"
			 "DELETE FROM games WHERE finished_ms IS NULL;"
			 "COMMIT;",
			 NULL, NULL, &error) != SQLITE_OK) {
		log_error("database: dropping unfinished games: %s",
			  error ? error : "?");
		sqlite3_free(error);
		sqlite3_exec(store->db, "ROLLBACK;", NULL, NULL, NULL);
		return -1;
	}
	dropped = sqlite3_changes(store->db);
	return dropped;
}

int store_takeback(struct store *store, const struct lobby_room *room)
{
	struct store_op *op = store_op_add(store, OP_TAKEBACK, room->id);
	struct store_game_clocks *clocks;

	if (!op)
		return -1;
	op->takeback.moves = room->game.moves_played;
	op->takeback.clock = store_room_clock(room);
	/* the clocks of the moves taken back are forgotten */
	clocks = store_clocks_find(store, room->id);
	if (clocks && clocks->count > room->game.moves_played)
		clocks->count = room->game.moves_played;
	return 0;
}

int store_game_over(struct store *store, const struct lobby_room *room,
		    int64_t now_unix_ms)
{
	const struct game *game = &room->game;
	struct store_op *op = store_op_add(store, OP_FINISH, room->id);
	struct store_game_clocks *clocks = store_clocks_take(store, room->id);

	if (!op) {
		store_clocks_free(clocks);
		return -1;
	}
	op->finish.finished_ms = now_unix_ms;
	op->finish.winner = game->winner;
	op->finish.reason = game->reason;
	op->finish.line = game->line;
	op->finish.size = game->board.size;
	op->finish.count = game->moves_played;
	op->finish.clock = store_room_clock(room);
	op->finish.clocks = NULL;
	op->finish.clock_count = 0;
	if (clocks) {
		/* the moves' clocks go with the moves */
		op->finish.clocks = clocks->moves;
		op->finish.clock_count = clocks->count < game->moves_played ?
						 clocks->count :
						 game->moves_played;
		clocks->moves = NULL;
		store_clocks_free(clocks);
	}
	op->finish.moves = malloc(((size_t)game->moves_played + 1) *
				  sizeof(*op->finish.moves));
	if (!op->finish.moves) {
		free(op->finish.clocks);
		store->op_count--;
		log_error("database: out of memory for a write");
		return -1;
	}
	memcpy(op->finish.moves, game->history,
	       (size_t)game->moves_played * sizeof(*op->finish.moves));
	return 0;
}

void store_forget(struct store *store, const struct lobby_room *room)
{
	store_clocks_free(store_clocks_take(store, room->id));
}

/* Parses a rule (rule_name()) and "back"/"draw" as saved. */
static enum rule store_rule(const unsigned char *text)
{
	enum rule rule = RULE_FREESTYLE;

	if (text)
		rule_parse((const char *)text, &rule);
	return rule;
}

static enum full_board store_full_board(const unsigned char *text)
{
	return text && !strcmp((const char *)text, "draw") ? FULL_BOARD_DRAW :
							     FULL_BOARD_BACK;
}

static const char *store_text(sqlite3_stmt *stmt, int column)
{
	const unsigned char *text = sqlite3_column_text(stmt, column);

	return text ? (const char *)text : "";
}

/* The clocks of columns column and column + 1 of a row: unknown if NULL. */
static struct store_clock store_column_clock(sqlite3_stmt *stmt, int column)
{
	if (sqlite3_column_type(stmt, column) == SQLITE_NULL ||
	    sqlite3_column_type(stmt, column + 1) == SQLITE_NULL)
		return (struct store_clock){ .known = false };
	return (struct store_clock){
		.front_ms = sqlite3_column_int64(stmt, column),
		.back_ms = sqlite3_column_int64(stmt, column + 1),
		.known = true
	};
}

/*
 * Reads the moves of game id as flat indices, with the clocks of each
 * (room for BOARD_MAX_CELLS) and in *latest those of the last entry read:
 * a finished game's from `moves`, a live one's from the log, where an
 * entry of seq s is the move numbered s (the ones after it forgotten) or,
 * with x = -1, a takeback to s moves, saved with the clocks as they stood
 * then. -1 on error.
 */
static int store_read_moves(struct store *store, const char *id, int size,
			    bool finished, uint16_t *moves,
			    struct store_clock *clocks,
			    struct store_clock *latest, int *count)
{
	sqlite3_stmt *stmt =
		store->stmt[finished ? STMT_SELECT_MOVES : STMT_SELECT_LOG];
	int rc;

	*count = 0;
	*latest = (struct store_clock){ .known = false };
	sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		int seq = sqlite3_column_int(stmt, 0);
		int x = sqlite3_column_int(stmt, 1);
		int y = sqlite3_column_int(stmt, 2);

		if (!finished && x == -1 && y == -1) {
			if (seq < 0 || seq > *count) {
				rc = SQLITE_CORRUPT;
				break;
			}
			*count = seq; /* a takeback */
			*latest = store_column_clock(stmt, 3);
			continue;
		}
		if (seq < 0 || seq > *count || seq >= BOARD_MAX_CELLS ||
		    x < 0 || y < 0 || x >= size || y >= size) {
			rc = SQLITE_CORRUPT;
			break;
		}
		moves[seq] = (uint16_t)board_index(size, x, y);
		clocks[seq] = *latest = store_column_clock(stmt, 3);
		*count = seq + 1;
	}
	sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * A restored timed game's clocks of each move, kept for its end as
 * store_move() keeps them (logged when there is no memory for them: its
 * moves are then saved without their clocks).
 */
static void store_keep_clocks(struct store *store, const char *id,
			      const struct store_clock *clocks, int count)
{
	struct store_game_clocks *entry;

	if (count == 0)
		return;
	entry = store_clocks_get(store, id);
	if (entry &&
	    store_clocks_set(entry, count - 1, clocks[count - 1]) == 0) {
		memcpy(entry->moves, clocks,
		       (size_t)count * sizeof(*entry->moves));
		return;
	}
	log_error("database: out of memory for the clocks of game " LOG_ROOM,
		  id);
}

/* The saved game's clocks: the last entry's, or the base time. */
static void store_saved_clocks(struct lobby_saved_game *saved,
			       const struct store_clock *latest)
{
	if (latest->known) {
		saved->clock_ms[ROLE_FRONT] = latest->front_ms;
		saved->clock_ms[ROLE_BACK] = latest->back_ms;
	} else {
		saved->clock_ms[ROLE_FRONT] = saved->tc.base_ms;
		saved->clock_ms[ROLE_BACK] = saved->tc.base_ms;
	}
}

/* Loads game id and hands it to restore(); abandons it when refused. */
static int store_restore_one(
	struct store *store, const char *id,
	int (*restore)(void *ctx, const struct lobby_saved_game *saved),
	void *ctx)
{
	sqlite3_stmt *stmt = store->stmt[STMT_SELECT_GAME];
	uint16_t moves[BOARD_MAX_CELLS];
	struct store_clock clocks[BOARD_MAX_CELLS], latest = { .known = false };
	struct lobby_saved_game saved = { .room_id = id, .moves = moves };
	char names[ROLE_COUNT][NAME_MAX_BYTES + 1],
		uids[ROLE_COUNT][UID_LEN + 1], rematch_of[UID_LEN + 1] = "";
	bool read = false, tc_ok = false;
	int ok = -1;

	sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		saved.board_size = sqlite3_column_int(stmt, COL_SIZE);
		saved.rule = store_rule(sqlite3_column_text(stmt, COL_RULE));
		saved.full_board = store_full_board(
			sqlite3_column_text(stmt, COL_FULL_BOARD));
		snprintf(names[ROLE_FRONT], sizeof(names[0]), "%s",
			 store_text(stmt, COL_FRONT_NAME));
		snprintf(names[ROLE_BACK], sizeof(names[0]), "%s",
			 store_text(stmt, COL_BACK_NAME));
		snprintf(uids[ROLE_FRONT], sizeof(uids[0]), "%s",
			 store_text(stmt, COL_FRONT_UID));
		snprintf(uids[ROLE_BACK], sizeof(uids[0]), "%s",
			 store_text(stmt, COL_BACK_UID));
		snprintf(rematch_of, sizeof(rematch_of), "%s",
			 store_text(stmt, COL_REMATCH_OF));
		tc_ok = time_control_parse(store_text(stmt, COL_TC), &saved.tc);
		saved.private = sqlite3_column_int(stmt, COL_PRIVATE) != 0;
		ok = 0;
	}
	sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
	if (ok || !tc_ok || saved.board_size < BOARD_MIN_SIZE ||
	    saved.board_size > BOARD_MAX_SIZE ||
	    store_read_moves(store, id, saved.board_size, false, moves, clocks,
			     &latest, &saved.moves_played))
		ok = -1;
	else
		read = true;
	if (!ok) {
		saved.uid[ROLE_FRONT] = uids[ROLE_FRONT];
		saved.uid[ROLE_BACK] = uids[ROLE_BACK];
		saved.name[ROLE_FRONT] = names[ROLE_FRONT];
		saved.name[ROLE_BACK] = names[ROLE_BACK];
		saved.rematch_of = rematch_of[0] ? rematch_of : NULL;
		if (time_control_timed(saved.tc))
			store_saved_clocks(&saved, &latest);
		ok = restore(ctx, &saved);
	}
	if (!ok) {
		if (time_control_timed(saved.tc))
			store_keep_clocks(store, id, clocks,
					  saved.moves_played);
		return 0;
	}
	log_warn("database: game " LOG_ROOM
		 " cannot be resumed: closed as abandoned",
		 id);
	/* its moves where a finished game's are */
	if (read &&
	    store_write_moves(store, id, saved.board_size, moves,
			      saved.moves_played, clocks, saved.moves_played))
		store_log_error(store, "keeping an abandoned game's moves");
	stmt = store->stmt[STMT_ABANDON_GAME];
	store_bind_clock(stmt, 1, &latest);
	sqlite3_bind_text(stmt, 3, id, -1, SQLITE_STATIC);
	return store_run(store, STMT_ABANDON_GAME);
}

int store_load_unfinished(struct store *store,
			  int (*restore)(void *ctx,
					 const struct lobby_saved_game *saved),
			  void *ctx)
{
	sqlite3_stmt *stmt = store->stmt[STMT_SELECT_UNFINISHED];
	char(*ids)[UID_LEN + 1] = NULL;
	size_t count = 0, cap = 0;
	int rc, err = 0;

	/* Collect the ids first: restoring writes, which would disturb the
	 * running SELECT. */
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (count == cap) {
			void *grown = realloc(ids, (cap ? cap * 2 : 64) *
							   sizeof(*ids));

			if (!grown) {
				rc = SQLITE_NOMEM;
				break;
			}
			ids = grown;
			cap = cap ? cap * 2 : 64;
		}
		snprintf(ids[count++], sizeof(ids[0]), "%s",
			 store_text(stmt, 0));
	}
	sqlite3_reset(stmt);
	if (rc != SQLITE_DONE) {
		store_log_error(store, "listing unfinished games");
		free(ids);
		return -1;
	}
	for (size_t i = 0; i < count; i++)
		err |= store_restore_one(store, ids[i], restore, ctx);
	free(ids);
	return err ? -1 : 0;
}

/* Adds {"name": name} for role to players. */
static bool store_json_player(cJSON *players, const char *role,
			      const char *name)
{
	cJSON *player = cJSON_AddObjectToObject(players, role);

	return player && cJSON_AddStringToObject(player, "name", name);
}

/* Adds "clock": {"front": ms, "back": ms} to object. */
static bool store_json_clock(cJSON *object, const struct store_clock *clock)
{
	cJSON *json = cJSON_AddObjectToObject(object, "clock");

	return json &&
	       cJSON_AddNumberToObject(json, "front",
				       (double)clock->front_ms) &&
	       cJSON_AddNumberToObject(json, "back", (double)clock->back_ms);
}

/*
 * Adds the moves array, reading them from the database, each with its
 * clock when timed; a live timed game's "clock" is the last entry's.
 */
static bool store_json_moves(struct store *store, cJSON *root, const char *id,
			     int size, bool finished, bool timed)
{
	uint16_t moves[BOARD_MAX_CELLS];
	struct store_clock clocks[BOARD_MAX_CELLS], latest;
	cJSON *array;
	int count, i;

	if (store_read_moves(store, id, size, finished, moves, clocks, &latest,
			     &count))
		return false;
	if (timed && !finished && latest.known &&
	    !store_json_clock(root, &latest))
		return false;
	array = cJSON_AddArrayToObject(root, "moves");
	for (i = 0; array && i < count; i++) {
		cJSON *move = cJSON_CreateObject();

		if (!move || !cJSON_AddItemToArray(array, move) ||
		    !cJSON_AddNumberToObject(move, "x",
					     board_cell(size, moves[i]).x) ||
		    !cJSON_AddNumberToObject(move, "y",
					     board_cell(size, moves[i]).y) ||
		    !cJSON_AddStringToObject(move, "role",
					     i % 2 ? "back" : "front"))
			return false;
		if (timed && clocks[i].known &&
		    !store_json_clock(move, &clocks[i]))
			return false;
	}
	return array != NULL;
}

/* Adds "result" (and finished_ms, a timed game's final "clock"). */
static bool store_json_result(cJSON *root, sqlite3_stmt *stmt, bool timed)
{
	struct store_clock clock = store_column_clock(stmt, COL_FRONT_MS);
	cJSON *line = cJSON_Parse(store_text(stmt, COL_LINE));
	cJSON *result = cJSON_AddObjectToObject(root, "result");
	bool ok;

	ok = result &&
	     cJSON_AddNumberToObject(
		     root, "finished_ms",
		     (double)sqlite3_column_int64(stmt, COL_FINISHED_MS)) &&
	     cJSON_AddStringToObject(result, "winner",
				     store_text(stmt, COL_WINNER)) &&
	     cJSON_AddStringToObject(result, "reason",
				     store_text(stmt, COL_REASON));
	if (ok && line)
		ok = cJSON_AddItemToObject(result, "line", line);
	else
		cJSON_Delete(line);
	if (ok && timed && clock.known)
		ok = store_json_clock(root, &clock);
	return ok;
}

char *store_game_json(struct store *store, const char *id, size_t headroom,
		      size_t *len)
{
	sqlite3_stmt *stmt = store->stmt[STMT_SELECT_GAME];
	cJSON *root = NULL, *players;
	char *text = NULL, *buffer = NULL;
	bool ok = false, finished = false, timed = false;
	struct time_control tc = { 0, 0 };
	int size = 0;

	sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		const char *rematch_of = store_text(stmt, COL_REMATCH_OF);

		finished = sqlite3_column_type(stmt, COL_FINISHED_MS) !=
			   SQLITE_NULL;
		size = sqlite3_column_int(stmt, COL_SIZE);
		timed = time_control_parse(store_text(stmt, COL_TC), &tc) &&
			time_control_timed(tc);
		root = cJSON_CreateObject();
		ok = root && cJSON_AddStringToObject(root, "id", id) &&
		     cJSON_AddNumberToObject(root, "size", size) &&
		     cJSON_AddStringToObject(root, "rule",
					     store_text(stmt, COL_RULE)) &&
		     cJSON_AddStringToObject(root, "full_board",
					     store_text(stmt,
							COL_FULL_BOARD)) &&
		     cJSON_AddStringToObject(root, "tc",
					     store_text(stmt, COL_TC)) &&
		     cJSON_AddStringToObject(root, "status",
					     finished ? "finished" : "live") &&
		     cJSON_AddNumberToObject(root, "started_ms",
					     (double)sqlite3_column_int64(
						     stmt, COL_STARTED_MS));
		if (ok && rematch_of[0])
			ok = cJSON_AddStringToObject(root, "rematch_of",
						     rematch_of) != NULL;
		players = ok ? cJSON_AddObjectToObject(root, "players") : NULL;
		ok = players &&
		     store_json_player(players, "front",
				       store_text(stmt, COL_FRONT_NAME)) &&
		     store_json_player(players, "back",
				       store_text(stmt, COL_BACK_NAME));
		if (ok && finished)
			ok = store_json_result(root, stmt, timed);
		else if (ok)
			ok = cJSON_AddNullToObject(root, "result") != NULL;
	}
	sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
	if (ok)
		ok = store_json_moves(store, root, id, size, finished, timed);
	if (ok)
		text = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	if (!text)
		return NULL;
	*len = strlen(text);
	buffer = malloc(headroom + *len + 1);
	if (buffer)
		memcpy(buffer + headroom, text, *len + 1);
	cJSON_free(text);
	return buffer;
}

/*
 * Adds {"name": name} as role to players, or {} for a player who gave no
 * name (as spectate and /api/rooms do); false on OOM.
 */
static bool store_json_name(cJSON *players, const char *role, const char *name)
{
	cJSON *player = cJSON_AddObjectToObject(players, role);

	return player &&
	       (!name[0] || cJSON_AddStringToObject(player, "name", name));
}

struct cJSON *store_summary_json(const struct store_summary *summary)
{
	cJSON *game = cJSON_CreateObject();
	cJSON *players, *result;
	char ended[CLOCK_ISO8601_MAX];

	if (!game)
		return NULL;
	clock_iso8601(summary->ended_unix_ms, ended, sizeof(ended));
	if (!cJSON_AddStringToObject(game, "id", summary->id) ||
	    !cJSON_AddNumberToObject(game, "size", summary->size) ||
	    !cJSON_AddStringToObject(game, "rule", summary->rule) ||
	    !cJSON_AddStringToObject(game, "tc", summary->tc) ||
	    !(players = cJSON_AddObjectToObject(game, "players")) ||
	    !store_json_name(players, "front", summary->names[ROLE_FRONT]) ||
	    !store_json_name(players, "back", summary->names[ROLE_BACK]) ||
	    !(result = cJSON_AddObjectToObject(game, "result")) ||
	    !cJSON_AddStringToObject(result, "winner", summary->winner) ||
	    !cJSON_AddStringToObject(result, "reason", summary->reason) ||
	    !cJSON_AddNumberToObject(game, "moves", summary->moves) ||
	    !cJSON_AddStringToObject(game, "ended", ended)) {
		cJSON_Delete(game);
		return NULL;
	}
	return game;
}

/* Adds the finished game of the row stmt is on to games; false on OOM. */
static bool store_json_recent(cJSON *games, sqlite3_stmt *stmt)
{
	struct store_summary summary = {
		.id = store_text(stmt, 0),
		.size = sqlite3_column_int(stmt, 1),
		.rule = store_text(stmt, 2),
		.tc = store_text(stmt, 3),
		.names = { [ROLE_FRONT] = store_text(stmt, 4),
			   [ROLE_BACK] = store_text(stmt, 5) },
		.winner = store_text(stmt, 6),
		.reason = store_text(stmt, 7),
		.ended_unix_ms = sqlite3_column_int64(stmt, 8),
		.moves = sqlite3_column_int(stmt, 9),
	};
	cJSON *game = store_summary_json(&summary);

	if (!game || !cJSON_AddItemToArray(games, game)) {
		cJSON_Delete(game);
		return false;
	}
	return true;
}

char *store_recent_games_json(struct store *store, int limit, size_t *len)
{
	static const char sql[] =
		"SELECT g.id, g.size, g.rule, g.tc, g.front_name, g.back_name,"
		" COALESCE(g.winner, ''), COALESCE(g.reason, ''),"
		" g.finished_ms,"
		" (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id)"
		" FROM games g WHERE g.finished_ms IS NOT NULL"
		" AND g.reason IS NOT 'abandoned' AND g.private = 0"
		" ORDER BY g.finished_ms DESC LIMIT ?";
	sqlite3_stmt *stmt = NULL;
	cJSON *root = cJSON_CreateObject();
	cJSON *games = root ? cJSON_AddArrayToObject(root, "games") : NULL;
	char *text = NULL, *buffer = NULL;
	bool ok = games != NULL;
	int rc = SQLITE_DONE;

	if (ok &&
	    sqlite3_prepare_v2(store->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		store_log_error(store, "listing recent games");
		ok = false;
	}
	if (ok)
		sqlite3_bind_int(stmt, 1, limit);
	while (ok && (rc = sqlite3_step(stmt)) == SQLITE_ROW)
		ok = store_json_recent(games, stmt);
	if (ok && rc != SQLITE_DONE) {
		store_log_error(store, "listing recent games");
		ok = false;
	}
	sqlite3_finalize(stmt);
	if (ok)
		text = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	if (!text)
		return NULL;
	*len = strlen(text);
	buffer = malloc(*len + 2);
	if (buffer) {
		memcpy(buffer, text, *len);
		buffer[(*len)++] = '\n';
		buffer[*len] = '\0';
	}
	cJSON_free(text);
	return buffer;
}
