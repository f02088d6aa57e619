/*
 * store.c - games in SQLite, through prepared statements: the batch of
 * writes kept until it commits (live games' moves appended to a log, a
 * finished game's written whole), restores, replays, and a maintenance
 * thread (checkpoints, pruning the log, retention).
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
	" log_from INTEGER);"
	"CREATE TABLE IF NOT EXISTS moves ("
	" game_id TEXT NOT NULL REFERENCES games(id),"
	" seq INTEGER NOT NULL,"
	" x INTEGER NOT NULL,"
	" y INTEGER NOT NULL,"
	" PRIMARY KEY (game_id, seq)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS move_log ("
	" n INTEGER PRIMARY KEY,"
	" game_id TEXT NOT NULL,"
	" seq INTEGER NOT NULL,"
	" x INTEGER NOT NULL,"
	" y INTEGER NOT NULL);"
	"CREATE INDEX IF NOT EXISTS games_unfinished ON games(started_ms)"
	" WHERE finished_ms IS NULL;"
	"CREATE INDEX IF NOT EXISTS games_finished ON games(finished_ms)"
	" WHERE finished_ms IS NOT NULL;";

/*
 * Databases of the first layout (user_version 0) kept every move in
 * `moves`, keyed by game: each move of a live game wrote a page of its
 * own. Now the moves of live games go to the append-only `move_log`, and
 * a game's moves reach `moves` whole when it ends. The move to this
 * layout, once, at start-up: the moves of unfinished games to the log.
 */
#define STORE_LAYOUT 2
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
		" back_uid, front_name, back_name, started_ms, log_from)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?,"
		" (SELECT COALESCE(MAX(n), 0) + 1 FROM move_log))",
	/* a finished game's moves, all at once */
	[STMT_INSERT_MOVE] = "INSERT OR REPLACE INTO moves (game_id, seq, x, y)"
			     " VALUES (?, ?, ?, ?)",
	/* a live game's move; x = y = -1: a takeback to seq moves */
	[STMT_LOG_MOVE] =
		"INSERT INTO move_log (game_id, seq, x, y) VALUES (?, ?, ?, ?)",
	[STMT_FINISH_GAME] =
		"UPDATE games SET finished_ms = ?, winner = ?, reason = ?,"
		" line = ? WHERE id = ?",
	[STMT_SELECT_GAME] =
		"SELECT size, rule, full_board, front_name, back_name,"
		" started_ms, finished_ms, winner, reason, line, front_uid,"
		" back_uid FROM games WHERE id = ?",
	[STMT_SELECT_MOVES] =
		"SELECT seq, x, y FROM moves WHERE game_id = ? ORDER BY seq",
	/* from the game's first entry on: the entries of the games that
	 * started since, and no index to update on every move */
	[STMT_SELECT_LOG] =
		"SELECT seq, x, y FROM move_log WHERE n >="
		" (SELECT log_from FROM games WHERE id = ?1) AND game_id = ?1"
		" ORDER BY n",
	[STMT_SELECT_UNFINISHED] =
		"SELECT id FROM games WHERE finished_ms IS NULL"
		" ORDER BY started_ms",
	[STMT_ABANDON_GAME] =
		"UPDATE games SET finished_ms = started_ms, reason = 'abandoned'"
		" WHERE id = ?",
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
		} game;
		struct {
			int seq, x, y;
		} move;
		int moves; /* OP_TAKEBACK */
		struct {
			int64_t finished_ms;
			enum game_winner winner;
			enum game_reason reason;
			struct win_line line; /* reason REASON_FIVE */
			int size;	      /* of the board */
			int count;	      /* moves played */
			uint16_t *moves;      /* board_index() of each; owned */
		} finish;
	};
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

/* Brings a database of the first layout to this one; 0, or -1. */
static int store_migrate(struct store *store)
{
	if (store_query_int(store->db, "PRAGMA user_version") >= STORE_LAYOUT)
		return 0;
	if (store_query_int(store->db,
			    "SELECT COUNT(*) FROM pragma_table_info('games')"
			    " WHERE name = 'log_from'") == 0 &&
	    sqlite3_exec(store->db,
			 "ALTER TABLE games ADD COLUMN log_from INTEGER", NULL,
			 NULL, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_exec(store->db, store_migrate_log, NULL, NULL, NULL) !=
	    SQLITE_OK) {
		if (!sqlite3_get_autocommit(store->db))
			sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
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
		snprintf(err, err_size,
			 "--db \"%s\": moving to the move log: %s", path,
			 sqlite3_errmsg(store->db));
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
	for (size_t i = 0; i < store->op_count; i++)
		if (store->ops[i].type == OP_FINISH)
			free(store->ops[i].finish.moves);
	store->op_count = 0;
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

/* Writes a game's moves (board_index() each) to `moves`: SQLite's code. */
static int store_write_moves(struct store *store, const char *id, int size,
			     const uint16_t *moves, int count)
{
	sqlite3_stmt *stmt = store->stmt[STMT_INSERT_MOVE];
	int rc = SQLITE_OK;

	for (int i = 0; rc == SQLITE_OK && i < count; i++) {
		sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
		sqlite3_bind_int(stmt, 2, i);
		sqlite3_bind_int(stmt, 3, board_cell(size, moves[i]).x);
		sqlite3_bind_int(stmt, 4, board_cell(size, moves[i]).y);
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
		break;
	case OP_MOVE:
		which = STMT_LOG_MOVE;
		stmt = store->stmt[which];
		sqlite3_bind_text(stmt, 1, op->id, -1, SQLITE_STATIC);
		sqlite3_bind_int(stmt, 2, op->move.seq);
		sqlite3_bind_int(stmt, 3, op->move.x);
		sqlite3_bind_int(stmt, 4, op->move.y);
		break;
	case OP_TAKEBACK:
		which = STMT_LOG_MOVE;
		stmt = store->stmt[which];
		sqlite3_bind_text(stmt, 1, op->id, -1, SQLITE_STATIC);
		sqlite3_bind_int(stmt, 2, op->moves);
		sqlite3_bind_int(stmt, 3, -1);
		sqlite3_bind_int(stmt, 4, -1);
		break;
	case OP_FINISH:
	default:
		rc = store_write_moves(store, op->id, op->finish.size,
				       op->finish.moves, op->finish.count);
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
		sqlite3_bind_text(stmt, 5, op->id, -1, SQLITE_STATIC);
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
				  (int)store->ops[i].type,
				  store->ops[i].id,
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

int store_move(struct store *store, const struct lobby_room *room,
	       int64_t started_unix_ms)
{
	const struct game *game = &room->game;
	int seq = game->moves_played - 1;
	int cell = game->history[seq];
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
	}
	op = store_op_add(store, OP_MOVE, room->id);
	if (!op)
		return -1;
	op->move.seq = seq;
	op->move.x = board_cell(game->board.size, cell).x;
	op->move.y = board_cell(game->board.size, cell).y;
	return 0;
}

int store_takeback(struct store *store, const struct lobby_room *room)
{
	struct store_op *op = store_op_add(store, OP_TAKEBACK, room->id);

	if (!op)
		return -1;
	op->moves = room->game.moves_played;
	return 0;
}

int store_game_over(struct store *store, const struct lobby_room *room,
		    int64_t now_unix_ms)
{
	const struct game *game = &room->game;
	struct store_op *op = store_op_add(store, OP_FINISH, room->id);

	if (!op)
		return -1;
	op->finish.finished_ms = now_unix_ms;
	op->finish.winner = game->winner;
	op->finish.reason = game->reason;
	op->finish.line = game->line;
	op->finish.size = game->board.size;
	op->finish.count = game->moves_played;
	op->finish.moves = malloc(((size_t)game->moves_played + 1) *
				  sizeof(*op->finish.moves));
	if (!op->finish.moves) {
		store->op_count--;
		log_error("database: out of memory for a write");
		return -1;
	}
	memcpy(op->finish.moves, game->history,
	       (size_t)game->moves_played * sizeof(*op->finish.moves));
	return 0;
}

/* Parses "freestyle"/"standard" and "back"/"draw" as saved. */
static enum rule store_rule(const unsigned char *text)
{
	return text && !strcmp((const char *)text, "standard") ? RULE_STANDARD :
								 RULE_FREESTYLE;
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

/*
 * Reads the moves of game id as flat indices: a finished game's from
 * `moves`, a live one's from the log, where an entry of seq s is the move
 * numbered s (the ones after it forgotten) or, with x = -1, a takeback to
 * s moves. -1 on error.
 */
static int store_read_moves(struct store *store, const char *id, int size,
			    bool finished, uint16_t *moves, int *count)
{
	sqlite3_stmt *stmt =
		store->stmt[finished ? STMT_SELECT_MOVES : STMT_SELECT_LOG];
	int rc;

	*count = 0;
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
			continue;
		}
		if (seq < 0 || seq > *count || seq >= BOARD_MAX_CELLS ||
		    x < 0 || y < 0 || x >= size || y >= size) {
			rc = SQLITE_CORRUPT;
			break;
		}
		moves[seq] = (uint16_t)board_index(size, x, y);
		*count = seq + 1;
	}
	sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Loads game id and hands it to restore(); abandons it when refused. */
static int store_restore_one(
	struct store *store, const char *id,
	int (*restore)(void *ctx, const struct lobby_saved_game *saved),
	void *ctx)
{
	sqlite3_stmt *stmt = store->stmt[STMT_SELECT_GAME];
	uint16_t moves[BOARD_MAX_CELLS];
	struct lobby_saved_game saved = { .room_id = id, .moves = moves };
	char names[ROLE_COUNT][NAME_MAX_BYTES + 1],
		uids[ROLE_COUNT][UID_LEN + 1];
	bool read = false;
	int ok = -1;

	sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		saved.board_size = sqlite3_column_int(stmt, 0);
		saved.rule = store_rule(sqlite3_column_text(stmt, 1));
		saved.full_board =
			store_full_board(sqlite3_column_text(stmt, 2));
		snprintf(names[ROLE_FRONT], sizeof(names[0]), "%s",
			 store_text(stmt, 3));
		snprintf(names[ROLE_BACK], sizeof(names[0]), "%s",
			 store_text(stmt, 4));
		snprintf(uids[ROLE_FRONT], sizeof(uids[0]), "%s",
			 store_text(stmt, 10));
		snprintf(uids[ROLE_BACK], sizeof(uids[0]), "%s",
			 store_text(stmt, 11));
		ok = 0;
	}
	sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
	if (ok || saved.board_size < BOARD_MIN_SIZE ||
	    saved.board_size > BOARD_MAX_SIZE ||
	    store_read_moves(store, id, saved.board_size, false, moves,
			     &saved.moves_played))
		ok = -1;
	else
		read = true;
	if (!ok) {
		saved.uid[ROLE_FRONT] = uids[ROLE_FRONT];
		saved.uid[ROLE_BACK] = uids[ROLE_BACK];
		saved.name[ROLE_FRONT] = names[ROLE_FRONT];
		saved.name[ROLE_BACK] = names[ROLE_BACK];
		ok = restore(ctx, &saved);
	}
	if (ok) {
		log_warn("database: game " LOG_ROOM
			 " cannot be resumed: closed as abandoned",
			 id);
		/* its moves where a finished game's are */
		if (read && store_write_moves(store, id, saved.board_size,
					      moves, saved.moves_played))
			store_log_error(store,
					"keeping an abandoned game's moves");
		stmt = store->stmt[STMT_ABANDON_GAME];
		sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
		return store_run(store, STMT_ABANDON_GAME);
	}
	return 0;
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

/* Adds the moves array, reading them from the database. */
static bool store_json_moves(struct store *store, cJSON *root, const char *id,
			     int size, bool finished)
{
	uint16_t moves[BOARD_MAX_CELLS];
	cJSON *array;
	int count, i;

	if (store_read_moves(store, id, size, finished, moves, &count))
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
	}
	return array != NULL;
}

char *store_game_json(struct store *store, const char *id, size_t headroom,
		      size_t *len)
{
	sqlite3_stmt *stmt = store->stmt[STMT_SELECT_GAME];
	cJSON *root = NULL, *players, *result;
	char *text = NULL, *buffer = NULL;
	bool ok = false, finished = false;
	int size = 0;

	sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		finished = sqlite3_column_type(stmt, 6) != SQLITE_NULL;
		size = sqlite3_column_int(stmt, 0);
		root = cJSON_CreateObject();
		ok = root && cJSON_AddStringToObject(root, "id", id) &&
		     cJSON_AddNumberToObject(root, "size", size) &&
		     cJSON_AddStringToObject(root, "rule",
					     store_text(stmt, 1)) &&
		     cJSON_AddStringToObject(root, "full_board",
					     store_text(stmt, 2)) &&
		     cJSON_AddStringToObject(root, "status",
					     finished ? "finished" : "live") &&
		     cJSON_AddNumberToObject(root, "started_ms",
					     (double)sqlite3_column_int64(stmt,
									  5));
		players = ok ? cJSON_AddObjectToObject(root, "players") : NULL;
		ok = players &&
		     store_json_player(players, "front", store_text(stmt, 3)) &&
		     store_json_player(players, "back", store_text(stmt, 4));
		if (ok && finished) {
			cJSON *line = cJSON_Parse(store_text(stmt, 9));

			result = cJSON_AddObjectToObject(root, "result");
			ok = result &&
			     cJSON_AddNumberToObject(
				     root, "finished_ms",
				     (double)sqlite3_column_int64(stmt, 6)) &&
			     cJSON_AddStringToObject(result, "winner",
						     store_text(stmt, 7)) &&
			     cJSON_AddStringToObject(result, "reason",
						     store_text(stmt, 8));
			if (ok && line)
				ok = cJSON_AddItemToObject(result, "line",
							   line);
			else
				cJSON_Delete(line);
		} else if (ok) {
			ok = cJSON_AddNullToObject(root, "result") != NULL;
		}
	}
	sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
	if (ok)
		ok = store_json_moves(store, root, id, size, finished);
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
