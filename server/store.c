/*
 * store.c - games in SQLite, through prepared statements.
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
	" line TEXT);"
	"CREATE TABLE IF NOT EXISTS moves ("
	" game_id TEXT NOT NULL REFERENCES games(id),"
	" seq INTEGER NOT NULL,"
	" x INTEGER NOT NULL,"
	" y INTEGER NOT NULL,"
	" PRIMARY KEY (game_id, seq)) WITHOUT ROWID;"
	"CREATE INDEX IF NOT EXISTS games_unfinished ON games(started_ms)"
	" WHERE finished_ms IS NULL;";

/* The prepared statements, by what they do. */
enum store_stmt {
	STMT_BEGIN,
	STMT_COMMIT,
	STMT_INSERT_GAME,
	STMT_INSERT_MOVE,
	STMT_FINISH_GAME,
	STMT_SELECT_GAME,
	STMT_SELECT_MOVES,
	STMT_SELECT_UNFINISHED,
	STMT_ABANDON_GAME,
	STMT_TAKEBACK,
	STMT_COUNT
};

static const char *const store_sql[STMT_COUNT] = {
	[STMT_BEGIN] = "BEGIN",
	[STMT_COMMIT] = "COMMIT",
	[STMT_INSERT_GAME] =
		"INSERT INTO games (id, size, rule, full_board, front_uid,"
		" back_uid, front_name, back_name, started_ms)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[STMT_INSERT_MOVE] =
		"INSERT INTO moves (game_id, seq, x, y) VALUES (?, ?, ?, ?)",
	[STMT_FINISH_GAME] =
		"UPDATE games SET finished_ms = ?, winner = ?, reason = ?,"
		" line = ? WHERE id = ?",
	[STMT_SELECT_GAME] =
		"SELECT size, rule, full_board, front_name, back_name,"
		" started_ms, finished_ms, winner, reason, line, front_uid,"
		" back_uid FROM games WHERE id = ?",
	[STMT_SELECT_MOVES] =
		"SELECT x, y FROM moves WHERE game_id = ? ORDER BY seq",
	[STMT_SELECT_UNFINISHED] =
		"SELECT id FROM games WHERE finished_ms IS NULL"
		" ORDER BY started_ms",
	[STMT_ABANDON_GAME] =
		"UPDATE games SET finished_ms = started_ms, reason = 'abandoned'"
		" WHERE id = ?",
	[STMT_TAKEBACK] = "DELETE FROM moves WHERE game_id = ? AND seq >= ?",
};

/*
 * Checkpoints run on a thread of their own, with a connection of their
 * own: copying the WAL back into the database ends with an fsync, which
 * took tens of milliseconds of the event loop when SQLite did it inside a
 * commit (its default, every 1000 pages). A passive checkpoint never
 * blocks the writer, nor waits for it.
 */
struct store_checkpointer {
	sqlite3 *db;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stop;    /* under lock */
	bool running; /* the thread was started */
};

/* One of these per server: the open database. */
struct store {
	sqlite3 *db;
	sqlite3_stmt *stmt[STMT_COUNT];
	bool in_batch; /* a transaction is open */
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
		log_warn("database: checkpoint: %s", sqlite3_errmsg(cp->db));
		return;
	}
	if (frames < STORE_WAL_RESTART_FRAMES)
		return;
	if (sqlite3_wal_checkpoint_v2(cp->db, NULL, SQLITE_CHECKPOINT_RESTART,
				      NULL, NULL) != SQLITE_OK &&
	    sqlite3_errcode(cp->db) != SQLITE_BUSY)
		log_warn("database: checkpoint: %s", sqlite3_errmsg(cp->db));
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
		store_checkpoint(cp);
		pthread_mutex_lock(&cp->lock);
	}
	pthread_mutex_unlock(&cp->lock);
	return NULL;
}

/* Opens the checkpointer's connection and starts its thread. */
static int store_checkpoint_start(struct store_checkpointer *cp,
				  const char *path)
{
	pthread_condattr_t attr;

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

struct store *store_open(const char *path, char *err, size_t err_size)
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
	/* the checkpointer thread does it, off the event loop */
	sqlite3_wal_autocheckpoint(store->db, 0);
	if (store_checkpoint_start(&store->checkpointer, path)) {
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

void store_close(struct store *store)
{
	int i;

	if (!store)
		return;
	if (store->in_batch)
		store_commit(store);
	store_checkpoint_stop(&store->checkpointer);
	for (i = 0; i < STMT_COUNT; i++)
		sqlite3_finalize(store->stmt[i]);
	sqlite3_close(store->db);
	free(store);
}

/* Runs a statement that returns no rows, then resets it. */
static int store_run(struct store *store, enum store_stmt which)
{
	sqlite3_stmt *stmt = store->stmt[which];
	int rc = sqlite3_step(stmt);

	sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
	if (rc != SQLITE_DONE) {
		store_log_error(store, store_sql[which]);
		return -1;
	}
	return 0;
}

/* Opens the batch's transaction on its first write. */
static int store_batch_begin(struct store *store)
{
	if (store->in_batch)
		return 0;
	if (store_run(store, STMT_BEGIN))
		return -1;
	store->in_batch = true;
	return 0;
}

bool store_batch_pending(const struct store *store)
{
	return store->in_batch;
}

int store_commit(struct store *store)
{
	if (!store->in_batch)
		return 0;
	store->in_batch = false;
	return store_run(store, STMT_COMMIT);
}

static const char *store_player_name(const struct lobby_room *room,
				     enum role role)
{
	return room->seats[role] ? room->seats[role]->name : "";
}

int store_room_opened(struct store *store, const struct lobby_room *room,
		      int64_t now_unix_ms)
{
	sqlite3_stmt *stmt = store->stmt[STMT_INSERT_GAME];
	const struct game *game = &room->game;

	if (store_batch_begin(store))
		return -1;
	sqlite3_bind_text(stmt, 1, room->id, -1, SQLITE_STATIC);
	sqlite3_bind_int(stmt, 2, game->board.size);
	sqlite3_bind_text(stmt, 3, rule_name(game->rule), -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 4,
			  game->full_board == FULL_BOARD_DRAW ? "draw" : "back",
			  -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 5, room->seats[ROLE_FRONT]->uid, -1,
			  SQLITE_STATIC);
	sqlite3_bind_text(stmt, 6, room->seats[ROLE_BACK]->uid, -1,
			  SQLITE_STATIC);
	sqlite3_bind_text(stmt, 7, store_player_name(room, ROLE_FRONT), -1,
			  SQLITE_STATIC);
	sqlite3_bind_text(stmt, 8, store_player_name(room, ROLE_BACK), -1,
			  SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 9, now_unix_ms);
	return store_run(store, STMT_INSERT_GAME);
}

int store_move(struct store *store, const struct lobby_room *room)
{
	sqlite3_stmt *stmt = store->stmt[STMT_INSERT_MOVE];
	const struct game *game = &room->game;
	int seq = game->moves_played - 1;
	int cell = game->history[seq];

	if (store_batch_begin(store))
		return -1;
	sqlite3_bind_text(stmt, 1, room->id, -1, SQLITE_STATIC);
	sqlite3_bind_int(stmt, 2, seq);
	sqlite3_bind_int(stmt, 3, cell % game->board.size);
	sqlite3_bind_int(stmt, 4, cell / game->board.size);
	return store_run(store, STMT_INSERT_MOVE);
}

int store_takeback(struct store *store, const struct lobby_room *room)
{
	sqlite3_stmt *stmt = store->stmt[STMT_TAKEBACK];

	if (store_batch_begin(store))
		return -1;
	sqlite3_bind_text(stmt, 1, room->id, -1, SQLITE_STATIC);
	sqlite3_bind_int(stmt, 2, room->game.moves_played);
	return store_run(store, STMT_TAKEBACK);
}

/* The winning line as a JSON array text; NULL when there is none. */
static char *store_line_json(const struct game *game)
{
	cJSON *line;
	char *text;
	int i;

	if (game->reason != REASON_FIVE)
		return NULL;
	line = cJSON_CreateArray();
	for (i = 0; line && i < game->line.length; i++) {
		cJSON *cell = cJSON_CreateObject();

		if (!cell || !cJSON_AddItemToArray(line, cell) ||
		    !cJSON_AddNumberToObject(cell, "x",
					     game->line.cells[i].x) ||
		    !cJSON_AddNumberToObject(cell, "y",
					     game->line.cells[i].y)) {
			cJSON_Delete(line);
			return NULL;
		}
	}
	text = line ? cJSON_PrintUnformatted(line) : NULL;
	cJSON_Delete(line);
	return text;
}

int store_game_over(struct store *store, const struct lobby_room *room,
		    int64_t now_unix_ms)
{
	sqlite3_stmt *stmt = store->stmt[STMT_FINISH_GAME];
	const struct game *game = &room->game;
	char *line = store_line_json(game);
	int rc;

	if (store_batch_begin(store)) {
		cJSON_free(line);
		return -1;
	}
	sqlite3_bind_int64(stmt, 1, now_unix_ms);
	sqlite3_bind_text(stmt, 2, game_winner_name(game->winner), -1,
			  SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, game_reason_name(game->reason), -1,
			  SQLITE_STATIC);
	if (line)
		sqlite3_bind_text(stmt, 4, line, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(stmt, 4);
	sqlite3_bind_text(stmt, 5, room->id, -1, SQLITE_STATIC);
	rc = store_run(store, STMT_FINISH_GAME);
	cJSON_free(line);
	return rc;
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

/* Reads the moves of game id as flat indices; -1 on error. */
static int store_read_moves(struct store *store, const char *id, int size,
			    uint16_t *moves, int *count)
{
	sqlite3_stmt *stmt = store->stmt[STMT_SELECT_MOVES];
	int rc;

	*count = 0;
	sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		int x = sqlite3_column_int(stmt, 0);
		int y = sqlite3_column_int(stmt, 1);

		if (*count >= BOARD_MAX_CELLS || x < 0 || y < 0 || x >= size ||
		    y >= size) {
			rc = SQLITE_CORRUPT;
			break;
		}
		moves[(*count)++] = (uint16_t)(y * size + x);
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
	char names[3][NAME_MAX_BYTES + 1], uids[3][UID_LEN + 1];
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
	    store_read_moves(store, id, saved.board_size, moves,
			     &saved.moves_played))
		ok = -1;
	if (!ok) {
		saved.uid[ROLE_FRONT] = uids[ROLE_FRONT];
		saved.uid[ROLE_BACK] = uids[ROLE_BACK];
		saved.name[ROLE_FRONT] = names[ROLE_FRONT];
		saved.name[ROLE_BACK] = names[ROLE_BACK];
		ok = restore(ctx, &saved);
	}
	if (ok) {
		log_warn(
			"database: game %.8s cannot be resumed: closed as abandoned",
			id);
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
			     int size)
{
	uint16_t moves[BOARD_MAX_CELLS];
	cJSON *array;
	int count, i;

	if (store_read_moves(store, id, size, moves, &count))
		return false;
	array = cJSON_AddArrayToObject(root, "moves");
	for (i = 0; array && i < count; i++) {
		cJSON *move = cJSON_CreateObject();

		if (!move || !cJSON_AddItemToArray(array, move) ||
		    !cJSON_AddNumberToObject(move, "x", moves[i] % size) ||
		    !cJSON_AddNumberToObject(move, "y", moves[i] / size) ||
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
	bool ok = false;
	int size = 0;

	sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		bool finished = sqlite3_column_type(stmt, 6) != SQLITE_NULL;

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
		ok = store_json_moves(store, root, id, size);
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
