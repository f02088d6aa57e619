/*
 * ai.c - the computer opponent: a pool of search threads for the built-in
 * engine, or one external pbrain process per game.
 */
#include "ai.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pbrain_client.h"
#include "engine.h"
#include "game_ws.h"
#include "log.h"

/* A search: the position, copied, and, once done, its answer. */
struct ai_job {
	struct ai_job *next;
	struct lobby_ai_ticket ticket;
	struct board board;
	enum role to_move;
	enum rule rule;
	enum engine_level level;
	uint32_t seed;
	int err;	 /* 0, or the engine's error */
	int x, y;	 /* the move, when err is 0 */
	uint64_t micros; /* how long the search took */
};

/* The workers and their two queues, under one lock. */
struct ai_pool {
	struct server *srv;
	pthread_mutex_t lock;
	pthread_cond_t work;	  /* signalled when a job is queued */
	struct ai_job *todo_head; /* oldest first */
	struct ai_job *todo_tail;
	struct ai_job *done; /* finished, any order */
	bool stop;
	struct ai_game *games; /* --ai-engine: every process */
	int threads;	       /* started */
	pthread_t thread[];
};

/* An engine game's external process and the request it is answering. */
struct ai_game {
	struct ai_game *prev, *next; /* in the pool's list */
	struct server *srv;
	struct pbrain_client *engine;
	struct lobby_ai_ticket ticket;
	uint64_t asked_us;
	bool busy;
};

static uint64_t ai_now_us(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* Counts one engine move's time in the /metrics histogram. */
static void ai_count_move(struct server *srv, uint64_t micros)
{
	static const uint64_t bounds_us[AI_BUCKETS] = {
		5000,	10000,	25000,	 50000,	  100000,
		200000, 500000, 1000000, 2500000,
	};
	int i;

	srv->metrics.ai_moves++;
	srv->metrics.ai_move_us_sum += micros;
	for (i = 0; i < AI_BUCKETS; i++)
		if (micros <= bounds_us[i])
			srv->metrics.ai_move_buckets[i]++;
}

/* A worker: waits for a job, searches it, hands it back to the loop. */
static void *ai_worker(void *arg)
{
	struct ai_pool *pool = arg;
	struct engine *engine = engine_new(0);

	/*
	 * Searches yield to the event loop: at nice 10 a worker sharing a
	 * core with it gets about a tenth of the core when both want it.
	 */
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
	pthread_mutex_lock(&pool->lock);
	for (;;) {
		struct engine_limits limits = { .now_us = ai_now_us };
		struct engine_result result;
		struct ai_job *job;
		uint64_t start;

		while (!pool->stop && !pool->todo_head)
			pthread_cond_wait(&pool->work, &pool->lock);
		if (pool->stop)
			break;
		job = pool->todo_head;
		pool->todo_head = job->next;
		if (!pool->todo_head)
			pool->todo_tail = NULL;
		pthread_mutex_unlock(&pool->lock);

		start = ai_now_us(NULL);
		limits.deadline_us =
			start + (uint64_t)pool->srv->config.ai_ms * 1000;
		limits.seed = job->seed;
		job->err = engine ?
				   engine_choose(engine, &job->board,
						 job->to_move, job->rule,
						 job->level, &limits, &result) :
				   -ENOMEM;
		job->x = result.x;
		job->y = result.y;
		job->micros = ai_now_us(NULL) - start;

		pthread_mutex_lock(&pool->lock);
		job->next = pool->done;
		pool->done = job;
		if (pool->srv->context)
			lws_cancel_service(pool->srv->context);
	}
	pthread_mutex_unlock(&pool->lock);
	engine_free(engine);
	return NULL;
}

int ai_start(struct server *srv)
{
	int count = srv->config.ai_threads;
	struct ai_pool *pool;

	if (srv->config.ai_engine)
		count = 0; /* the pool only hands failures back */
	pool = calloc(1, sizeof(*pool) + (size_t)count * sizeof(pthread_t));
	if (!pool)
		return -1;
	pool->srv = srv;
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->work, NULL);
	srv->ai = pool;
	for (; pool->threads < count; pool->threads++) {
		if (pthread_create(&pool->thread[pool->threads], NULL,
				   ai_worker, pool)) {
			log_error("cannot start engine thread %d",
				  pool->threads + 1);
			ai_stop(srv);
			return -1;
		}
	}
	return 0;
}

static void ai_free_list(struct ai_job *job)
{
	while (job) {
		struct ai_job *next = job->next;

		free(job);
		job = next;
	}
}

/* Ends game's process and forgets it. */
static void ai_game_free(struct ai_pool *pool, struct ai_game *game)
{
	if (game->prev)
		game->prev->next = game->next;
	else
		pool->games = game->next;
	if (game->next)
		game->next->prev = game->prev;
	pbrain_client_free(game->engine);
	free(game);
}

void ai_stop(struct server *srv)
{
	struct ai_pool *pool = srv->ai;

	if (!pool)
		return;
	pthread_mutex_lock(&pool->lock);
	pool->stop = true;
	pthread_cond_broadcast(&pool->work);
	pthread_mutex_unlock(&pool->lock);
	for (int i = 0; i < pool->threads; i++)
		pthread_join(pool->thread[i], NULL);
	/* Rooms outlive the loop; their processes must not. */
	while (pool->games)
		ai_game_free(pool, pool->games);
	ai_free_list(pool->todo_head);
	ai_free_list(pool->done);
	pthread_mutex_destroy(&pool->lock);
	pthread_cond_destroy(&pool->work);
	free(pool);
	srv->ai = NULL;
}

/* Plays an engine's answer for ticket; a refused move forfeits. */
static void ai_play(struct server *srv, const struct lobby_ai_ticket *ticket,
		    int err, int x, int y, const char *why)
{
	if (srv->shutting_down)
		return; /* the players' sessions are closing: tell nobody */
	if (!err)
		err = lobby_ai_move(&srv->lobby, ticket, x, y);
	if (err == -ESTALE) {
		game_ws_lobby_done(srv);
		return; /* the position changed since: a takeback, a leave */
	}
	if (err) {
		srv->metrics.ai_failures++;
		log_warn("engine failed in room %.8s: %s", ticket->room_id,
			 why ? why : "refused move");
		lobby_ai_forfeit(&srv->lobby, ticket);
	}
	game_ws_lobby_done(srv);
}

/* --ai-engine: the external engine answered, or failed. */
static void ai_pbrain_answer(void *ctx, int err, int x, int y,
			       const char *reason)
{
	struct ai_game *game = ctx;
	struct server *srv = game->srv;

	game->busy = false;
	if (!err)
		ai_count_move(srv, ai_now_us(NULL) - game->asked_us);
	ai_play(srv, &game->ticket, err, x, y, reason);
}

/*
 * The engine of room cannot move: it loses, on the loop's next turn (the
 * lobby is in the middle of a step now), through the done queue.
 */
static void ai_fail_later(struct server *srv, struct lobby_room *room)
{
	struct ai_pool *pool = srv->ai;
	struct ai_job *job = calloc(1, sizeof(*job));

	if (!job) {
		log_error("out of memory: engine game %.8s waits", room->id);
		return;
	}
	lobby_ai_ticket(room, &job->ticket);
	job->err = -EIO;
	pthread_mutex_lock(&pool->lock);
	job->next = pool->done;
	pool->done = job;
	pthread_mutex_unlock(&pool->lock);
	lws_cancel_service(srv->context);
}

/* --ai-engine: asks room's process (started on first use) for a move. */
static void ai_think_external(struct server *srv, struct lobby_room *room)
{
	struct ai_game *game = room->ai_ctx;
	const struct game *position = &room->game;

	if (!game) {
		game = calloc(1, sizeof(*game));
		if (!game)
			goto out_forfeit;
		game->srv = srv;
		game->engine = pbrain_client_start(
			&srv->loop, srv->config.ai_engine, position->board.size,
			position->rule, srv->config.ai_ms,
			PBRAIN_CLIENT_MARGIN_MS, ai_pbrain_answer, game);
		if (!game->engine) {
			free(game);
			goto out_forfeit;
		}
		room->ai_ctx = game;
		game->next = srv->ai->games;
		if (game->next)
			game->next->prev = game;
		srv->ai->games = game;
	}
	if (game->busy)
		pbrain_client_cancel(game->engine);
	lobby_ai_ticket(room, &game->ticket);
	game->asked_us = ai_now_us(NULL);
	if (pbrain_client_request(game->engine, position->history,
				position->moves_played, room->ai_role))
		goto out_forfeit_started;
	game->busy = true;
	return;

out_forfeit:
	log_warn("cannot start the engine %s", srv->config.ai_engine);
out_forfeit_started:
	ai_fail_later(srv, room);
}

void ai_think(void *ctx, struct lobby_room *room)
{
	struct server *srv = ctx;
	struct ai_pool *pool = srv->ai;
	struct ai_job *job;
	uint32_t seed;

	if (srv->config.ai_engine) {
		ai_think_external(srv, room);
		return;
	}
	job = calloc(1, sizeof(*job));
	if (!job) {
		log_error("out of memory for an engine search");
		return; /* the player can take back and try again */
	}
	lobby_ai_ticket(room, &job->ticket);
	job->board = room->game.board;
	job->to_move = room->game.to_move;
	job->rule = room->game.rule;
	job->level = room->seats[room->ai_role]->level;
	srv->lobby.random.fill(srv->lobby.random.ctx, &seed, sizeof(seed));
	job->seed = seed;

	pthread_mutex_lock(&pool->lock);
	if (pool->todo_tail)
		pool->todo_tail->next = job;
	else
		pool->todo_head = job;
	pool->todo_tail = job;
	pthread_cond_signal(&pool->work);
	pthread_mutex_unlock(&pool->lock);
}

void ai_collect(struct server *srv)
{
	struct ai_pool *pool = srv->ai;
	struct ai_job *job;

	if (!pool)
		return;
	pthread_mutex_lock(&pool->lock);
	job = pool->done;
	pool->done = NULL;
	pthread_mutex_unlock(&pool->lock);
	while (job) {
		struct ai_job *next = job->next;

		if (!job->err)
			ai_count_move(srv, job->micros);
		ai_play(srv, &job->ticket, job->err, job->x, job->y,
			job->err == -EIO ? "the engine could not be asked" :
					   "the engine found no move");
		free(job);
		job = next;
	}
}

void ai_room_closed(struct server *srv, const struct lobby_room *room)
{
	if (room->ai_ctx && srv->config.ai_engine && srv->ai)
		ai_game_free(srv->ai, room->ai_ctx);
}
