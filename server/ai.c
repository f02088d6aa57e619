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

#include "engine.h"
#include "log.h"
#include "pbrain_client.h"

/* The least time a search is given, however short the engine's clock. */
#define AI_BUDGET_MIN_MS 5

/* A search: the position, copied, and, once done, its answer. */
struct ai_job {
	struct ai_job *next;
	struct lobby_ai_ticket ticket;
	struct board board;
	enum role to_move;
	enum rule rule;
	enum engine_level level;
	uint32_t seed;
	uint32_t budget_ms; /* the search's time */
	int err;	 /* 0, or the engine's error */
	int x, y;	 /* the move, when err is 0 */
	uint64_t micros; /* how long the search took */
};

/* One of these per server: the workers and their two queues. */
struct ai {
	const struct server_config *config; /* --ai-ms, --ai-engine, ... */
	struct hub *hub;		    /* where answers are played */
	struct metrics *metrics;	    /* the server's */
	uv_loop_t *loop;		    /* the server's */
	uv_async_t wake;		    /* a worker finished a job */
	pthread_mutex_t lock;		    /* the queues and stop */
	pthread_cond_t work;		    /* signalled when a job is queued */
	struct ai_job *todo_head;	    /* oldest first */
	struct ai_job *todo_tail;
	struct ai_job *done;   /* finished, any order */
	bool stop;	       /* the workers are to end */
	struct ai_game *games; /* --ai-engine: every process */
	int threads;	       /* started */
	pthread_t thread[];
};

/* One of these per engine game with --ai-engine: its process. */
struct ai_game {
	struct ai_game *prev, *next; /* in the pool's list */
	struct ai *ai;
	struct pbrain_client *engine;
	struct lobby_ai_ticket ticket; /* the request it is answering */
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
static void ai_count_move(struct ai *ai, uint64_t micros)
{
	static const uint64_t bounds_us[AI_BUCKETS] = {
		5000,	10000,	25000,	 50000,	  100000,
		200000, 500000, 1000000, 2500000,
	};
	struct metrics *metrics = ai->metrics;

	metrics->ai_moves++;
	metrics->ai_move_us_sum += micros;
	for (int i = 0; i < AI_BUCKETS; i++)
		if (micros <= bounds_us[i])
			metrics->ai_move_buckets[i]++;
}

/* Hands a finished job to the loop. Under ai->lock. */
static void ai_job_done(struct ai *ai, struct ai_job *job)
{
	job->next = ai->done;
	ai->done = job;
	uv_async_send(&ai->wake);
}

/* A worker: waits for a job, searches it, hands it back to the loop. */
static void *ai_worker(void *arg)
{
	struct ai *ai = arg;
	struct engine *engine = engine_new(0);

	/*
	 * Searches yield to the event loop: at nice 10 a worker sharing a
	 * core with it gets about a tenth of the core when both want it.
	 */
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
	pthread_mutex_lock(&ai->lock);
	for (;;) {
		struct engine_limits limits = { .now_us = ai_now_us };
		struct engine_result result;
		struct ai_job *job;
		uint64_t start;

		while (!ai->stop && !ai->todo_head)
			pthread_cond_wait(&ai->work, &ai->lock);
		if (ai->stop)
			break;
		job = ai->todo_head;
		ai->todo_head = job->next;
		if (!ai->todo_head)
			ai->todo_tail = NULL;
		pthread_mutex_unlock(&ai->lock);

		start = ai_now_us(NULL);
		/* the config is read-only once the loop runs */
		limits.deadline_us = start + (uint64_t)job->budget_ms * 1000;
		limits.seed = job->seed;
		job->err = engine ?
				   engine_choose(engine, &job->board,
						 job->to_move, job->rule,
						 job->level, &limits, &result) :
				   -ENOMEM;
		if (!job->err) {
			job->x = result.x;
			job->y = result.y;
		}
		job->micros = ai_now_us(NULL) - start;

		pthread_mutex_lock(&ai->lock);
		ai_job_done(ai, job);
	}
	pthread_mutex_unlock(&ai->lock);
	engine_free(engine);
	return NULL;
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
static void ai_game_free(struct ai *ai, struct ai_game *game)
{
	if (game->prev)
		game->prev->next = game->next;
	else
		ai->games = game->next;
	if (game->next)
		game->next->prev = game->prev;
	pbrain_client_free(game->engine);
	free(game);
}

/* Plays an engine's answer for ticket; a refused move forfeits. */
static void ai_play(struct ai *ai, const struct lobby_ai_ticket *ticket,
		    int err, int x, int y, const char *why)
{
	if (ai->hub->stopped)
		return; /* the players' sessions are closing: tell nobody */
	if (!err)
		err = hub_ai_move(ai->hub, ticket, x, y);
	if (err == -ESTALE)
		return; /* the position changed since: a takeback, a leave */
	if (err) {
		ai->metrics->ai_failures++;
		log_warn("engine failed in room " LOG_ROOM ": %s",
			 ticket->room_id,
			 why ? why : "refused move");
		hub_ai_forfeit(ai->hub, ticket);
	}
}

/* Plays the moves the workers finished (ai->wake). */
static void ai_collect(uv_async_t *wake)
{
	struct ai *ai = wake->data;
	struct ai_job *job;

	pthread_mutex_lock(&ai->lock);
	job = ai->done;
	ai->done = NULL;
	pthread_mutex_unlock(&ai->lock);
	while (job) {
		struct ai_job *next = job->next;

		if (!job->err)
			ai_count_move(ai, job->micros);
		ai_play(ai, &job->ticket, job->err, job->x, job->y,
			job->err == -EIO ? "the engine could not be asked" :
					   "the engine found no move");
		free(job);
		job = next;
	}
}

struct ai *ai_new(uv_loop_t *loop, const struct server_config *config,
		  struct hub *hub, struct metrics *metrics)
{
	int count = config->ai_engine ? 0 : config->ai_threads;
	struct ai *ai;

	/* with --ai-engine the queues only hand failures back */
	ai = calloc(1, sizeof(*ai) + (size_t)count * sizeof(pthread_t));
	if (!ai)
		return NULL;
	ai->config = config;
	ai->hub = hub;
	ai->metrics = metrics;
	ai->loop = loop;
	if (uv_async_init(loop, &ai->wake, ai_collect)) {
		free(ai);
		return NULL;
	}
	ai->wake.data = ai;
	pthread_mutex_init(&ai->lock, NULL);
	pthread_cond_init(&ai->work, NULL);
	for (; ai->threads < count; ai->threads++) {
		if (pthread_create(&ai->thread[ai->threads], NULL, ai_worker,
				   ai)) {
			log_error("cannot start engine thread %d",
				  ai->threads + 1);
			ai_free(ai);
			return NULL;
		}
	}
	return ai;
}

static void ai_on_closed(uv_handle_t *handle)
{
	free(handle->data);
}

void ai_free(struct ai *ai)
{
	if (!ai)
		return;
	pthread_mutex_lock(&ai->lock);
	ai->stop = true;
	pthread_cond_broadcast(&ai->work);
	pthread_mutex_unlock(&ai->lock);
	for (int i = 0; i < ai->threads; i++)
		pthread_join(ai->thread[i], NULL);
	/* Rooms outlive the loop; their processes must not. */
	while (ai->games)
		ai_game_free(ai, ai->games);
	ai_free_list(ai->todo_head);
	ai_free_list(ai->done);
	pthread_mutex_destroy(&ai->lock);
	pthread_cond_destroy(&ai->work);
	uv_close((uv_handle_t *)&ai->wake, ai_on_closed);
}

/* --ai-engine: the external engine answered, or failed. */
static void ai_pbrain_answer(void *ctx, int err, int x, int y,
			     const char *reason)
{
	struct ai_game *game = ctx;

	game->busy = false;
	if (!err)
		ai_count_move(game->ai, ai_now_us(NULL) - game->asked_us);
	ai_play(game->ai, &game->ticket, err, x, y, reason);
}

/*
 * The engine of room cannot move: it loses, on the loop's next turn (the
 * hub is in the middle of a step now), through the done queue.
 */
static void ai_fail_later(struct ai *ai, struct lobby_room *room)
{
	struct ai_job *job = calloc(1, sizeof(*job));

	if (!job) {
		log_error("out of memory: engine game " LOG_ROOM " waits",
			  room->id);
		return;
	}
	lobby_ai_ticket(room, &job->ticket);
	job->err = -EIO;
	pthread_mutex_lock(&ai->lock);
	ai_job_done(ai, job);
	pthread_mutex_unlock(&ai->lock);
}

/* --ai-engine: asks room's process (started on first use) for a move. */
static void ai_think_external(struct ai *ai, struct lobby_room *room)
{
	struct ai_game *game = room->ai_ctx;
	const struct game *position = &room->game;

	if (!game) {
		game = calloc(1, sizeof(*game));
		if (!game)
			goto out_forfeit;
		game->ai = ai;
		game->engine = pbrain_client_start(
			ai->loop, ai->config->ai_engine, position->board.size,
			position->rule, ai->config->ai_ms,
			PBRAIN_CLIENT_MARGIN_MS, ai_pbrain_answer, game);
		if (!game->engine) {
			free(game);
			goto out_forfeit;
		}
		room->ai_ctx = game;
		game->next = ai->games;
		if (game->next)
			game->next->prev = game;
		ai->games = game;
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
	log_warn("cannot start the engine %s", ai->config->ai_engine);
out_forfeit_started:
	ai_fail_later(ai, room);
}

/*
 * The time the engine takes for its move in room: --ai-ms, and in a timed
 * game no more than its clock affords (a twentieth of what is left and
 * half the increment, never over half of what is left): its thinking
 * comes off its own clock.
 */
static uint32_t ai_budget_ms(const struct ai *ai, const struct lobby_room *room)
{
	const struct fischer *clock = &room->game.clock;
	int64_t left = clock->left_ms[room->ai_role];
	int64_t budget = ai->config->ai_ms;

	if (!time_control_timed(clock->tc))
		return (uint32_t)budget;
	if (left / 20 + clock->tc.inc_ms / 2 < budget)
		budget = left / 20 + clock->tc.inc_ms / 2;
	if (left / 2 < budget)
		budget = left / 2;
	return budget < AI_BUDGET_MIN_MS ? AI_BUDGET_MIN_MS : (uint32_t)budget;
}

void ai_think(void *ctx, struct lobby_room *room)
{
	struct ai *ai = ctx;
	struct ai_job *job;

	if (ai->config->ai_engine) {
		ai_think_external(ai, room);
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
	job->budget_ms = ai_budget_ms(ai, room);
	job->seed = lobby_ai_seed(room);

	pthread_mutex_lock(&ai->lock);
	if (ai->todo_tail)
		ai->todo_tail->next = job;
	else
		ai->todo_head = job;
	ai->todo_tail = job;
	pthread_cond_signal(&ai->work);
	pthread_mutex_unlock(&ai->lock);
}

void ai_room_closed(void *ctx, const struct lobby_room *room)
{
	struct ai *ai = ctx;

	if (room->ai_ctx && ai->config->ai_engine)
		ai_game_free(ai, room->ai_ctx);
}
