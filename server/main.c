/*
 * main.c - gomoku-server: flags, the libwebsockets context, the mounts and
 * the protocol table, signals and the graceful stop.
 *
 * One service thread runs everything on the libuv event loop. On SIGTERM
 * or SIGINT the listening socket is closed, every WebSocket client gets a
 * close frame with 1001 "going away", and the process exits once they are
 * gone or after SHUTDOWN_DEADLINE_MS.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>

#include "ai.h"
#include "config.h"
#include "frame_check.h"
#include "game_ws.h"
#include "healthcheck.h"
#include "http.h"
#include "listen.h"
#include "log.h"
#include "server.h"

#define SHUTDOWN_DEADLINE_MS 1500 /* then exit even if clients linger */
#define SHUTDOWN_POLL_MS 20	  /* how often to look for the last one */
#define SWEEP_MS 1000		  /* keep-alive walk over the sessions */

static struct server server;

uint64_t server_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int64_t server_unix_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void server_tick(uv_timer_t *timer)
{
	server_schedule_tick(
		lws_container_of(timer, struct server, tick_timer));
}

void server_schedule_tick(struct server *srv)
{
	uint64_t now = server_now_ms();
	uint64_t next;

	/*
	 * Shutting down, sessions close without leaving their seats (the
	 * games are resumed after the restart): nothing may tell them
	 * anything any more.
	 */
	if (srv->shutting_down)
		return;
	next = lobby_tick(&srv->lobby, now);

	game_ws_lobby_done(srv);
	if (next == UINT64_MAX || srv->stopping)
		return;
	uv_timer_start(&srv->tick_timer, server_tick, next - now, 0);
}

/* Seats a game the store kept from before a restart. */
static int server_restore_game(void *ctx, const struct lobby_saved_game *saved)
{
	struct server *srv = ctx;

	return lobby_restore(&srv->lobby, saved, server_now_ms()) ? 0 : -1;
}

/* The lobby's random source: getrandom(2). */
static void server_random_fill(void *ctx, void *buf, size_t len)
{
	unsigned char *out = buf;

	(void)ctx;
	while (len) {
		ssize_t n = getrandom(out, len, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			log_error("getrandom failed: %s", strerror(errno));
			abort();
		}
		out += n;
		len -= (size_t)n;
	}
}

/* lws's own log lines, through ours. */
static void server_lws_log(int level, const char *line)
{
	size_t len = strlen(line);

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	log_msg(level == LLL_ERR  ? LOG_ERROR :
		level == LLL_WARN ? LOG_WARN :
				    LOG_DEBUG,
		"lws: %.*s", (int)len, line);
}

/*
 * The store's batch is committed once per loop turn: a libuv prepare
 * handle runs before the loop waits for I/O again, after every callback of
 * the turn (sockets, timers), so what a turn journals is durable before
 * anyone is told, and a busy turn costs one commit.
 */
static void server_commit_prepare(uv_prepare_t *prepare)
{
	game_ws_close_broken();
	game_ws_commit(
		lws_container_of(prepare, struct server, commit_prepare));
}

/*
 * Ends the event loop: the last commit, lws' context (it closes its own
 * handles on our loop), then ours; uv_run() returns once all are closed.
 */
static void server_stop(struct server *srv)
{
	if (srv->stopping)
		return;
	srv->stopping = true;
	ai_stop(srv); /* its threads wake lws: before the context goes */
	game_ws_commit(srv);
	lws_context_destroy(srv->context);
	uv_close((uv_handle_t *)&srv->shutdown_timer, NULL);
	uv_close((uv_handle_t *)&srv->tick_timer, NULL);
	uv_close((uv_handle_t *)&srv->sweep_timer, NULL);
	uv_close((uv_handle_t *)&srv->journal_timer, NULL);
	uv_close((uv_handle_t *)&srv->commit_prepare, NULL);
	drain_free(srv->drain);
	srv->drain = NULL;
	for (size_t i = 0; i < sizeof(srv->signals) / sizeof(*srv->signals);
	     i++)
		uv_close((uv_handle_t *)&srv->signals[i], NULL);
}

/* Stops once the last session is gone or time is up. */
static void server_shutdown_poll(uv_timer_t *timer)
{
	struct server *srv =
		lws_container_of(timer, struct server, shutdown_timer);

	if (srv->sessions.count && server_now_ms() < srv->shutdown_deadline_ms)
		return;
	if (srv->sessions.count)
		log_warn("stopping with %u clients still connected",
			 srv->sessions.count);
	server_stop(srv);
}

static void server_signal(uv_signal_t *handle, int signum)
{
	struct server *srv = handle->data;

	if (srv->shutting_down) {
		log_warn("signal %d again: stopping now", signum);
		server_stop(srv);
		return;
	}
	log_info("signal %d: closing %u connections with 1001 and stopping",
		 signum, srv->sessions.count);
	srv->shutting_down = true;
	srv->shutdown_deadline_ms = server_now_ms() + SHUTDOWN_DEADLINE_MS;
	game_ws_close_all(srv);
	uv_timer_start(&srv->shutdown_timer, server_shutdown_poll,
		       SHUTDOWN_POLL_MS, SHUTDOWN_POLL_MS);
}

/*
 * lws' own keep-alive is off (a ping time with no hang-up time turns it
 * off; none at all means lws' default of 300 s): it re-arms a timer per
 * connection in one sorted list, O(connections) each time. game_ws_sweep()
 * does the job instead.
 */
static const lws_retry_bo_t server_no_lws_keepalive = {
	.secs_since_valid_ping = 1,
	.secs_since_valid_hangup = 0,
};

/* Idle WebSockets are pinged, and dropped when a ping goes unanswered. */
static void server_sweep(uv_timer_t *timer)
{
	game_ws_sweep(lws_container_of(timer, struct server, sweep_timer));
}

/* Our own handles on the loop: signals, the commit check, the timers. */
static int server_start_handles(struct server *srv)
{
	static const int signals[] = { SIGINT, SIGTERM };

	for (size_t i = 0; i < sizeof(signals) / sizeof(*signals); i++) {
		if (uv_signal_init(&srv->loop, &srv->signals[i]))
			return -1;
		srv->signals[i].data = srv;
		if (uv_signal_start(&srv->signals[i], server_signal,
				    signals[i]))
			return -1;
	}
	if (uv_timer_init(&srv->loop, &srv->shutdown_timer) ||
	    uv_timer_init(&srv->loop, &srv->tick_timer) ||
	    uv_timer_init(&srv->loop, &srv->sweep_timer) ||
	    uv_timer_init(&srv->loop, &srv->journal_timer) ||
	    uv_prepare_init(&srv->loop, &srv->commit_prepare))
		return -1;
	if (uv_timer_start(&srv->sweep_timer, server_sweep, SWEEP_MS, SWEEP_MS))
		return -1;
	return uv_prepare_start(&srv->commit_prepare, server_commit_prepare);
}

/* Refuses a web root that is not a directory, before listening. */
static int server_check_web_root(const char *web_root)
{
	struct stat st;

	if (stat(web_root, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr,
			"gomoku-server: --web-root \"%s\": not a directory\n",
			web_root);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct lws_http_mount mount_http;
	/* The game protocol first: the default for clients that name none. */
	static struct lws_protocols protocols[3];
	struct lws_context_creation_info info;
	void *foreign_loops[1];
	struct lobby_config lobby_config;
	struct lobby_random random = { server_random_fill, NULL };
	struct lobby_sink sink = { game_ws_sink_send, game_ws_sink_record,
				   ai_think, &server };
	char err[256];
	int exit_code = 1;

	config_init(&server.config);
	switch (config_parse(&server.config, argc, argv, err, sizeof(err))) {
	case CONFIG_EXIT_OK:
		return 0;
	case CONFIG_EXIT_ERROR:
		fprintf(stderr, "gomoku-server: %s\n", err);
		return 2;
	case CONFIG_RUN:
		break;
	}
	if (server.config.health_check)
		return healthcheck_run(&server.config);
	if (server_check_web_root(server.config.web_root))
		return 2;
	if (listen_resolve(&server.listen, server.config.host,
			   server.config.port, err, sizeof(err))) {
		fprintf(stderr, "gomoku-server: %s\n", err);
		return 2;
	}
	log_set_level(server.config.log_level);
	signal(SIGPIPE, SIG_IGN);
	if (frame_check_init()) {
		log_error("cannot set up the frame check: out of memory");
		return 1;
	}

	lobby_config = (struct lobby_config){
		.board_size = server.config.board_size,
		.rule = server.config.rule,
		.full_board = server.config.full_board,
		.reconnect_grace_ms =
			(uint64_t)server.config.reconnect_grace * 1000,
		.ai_fill_after_ms =
			(uint64_t)server.config.ai_fill_after * 1000,
		.ai_fill_level = server.config.ai_fill_level,
	};
	if (lobby_init(&server.lobby, &lobby_config, random, sink) ||
	    peers_init(&server.peers)) {
		log_error("cannot set up the lobby: out of memory");
		return 1;
	}
	server.started_ms = server_now_ms();
	server.store = store_open(server.config.db_path,
				  server.config.keep_days, err, sizeof(err));
	if (!server.store) {
		fprintf(stderr, "gomoku-server: %s\n", err);
		goto out_release;
	}
	if (store_load_unfinished(server.store, server_restore_game, &server) ||
	    store_commit(server.store))
		log_warn("not every unfinished game could be restored");
	if (server.lobby.stats.rooms)
		log_info(
			"restored %lu unfinished games; their players have %d s "
			"to come back",
			server.lobby.stats.rooms,
			server.config.reconnect_grace);

	if (uv_loop_init(&server.loop)) {
		log_error("cannot set up the event loop");
		goto out_release;
	}
	server.drain = drain_new(&server.loop);
	if (!server.drain) {
		log_error("cannot set up the event loop");
		goto out_close_loop;
	}

	/* Every plain HTTP request: server/http.c routes it. */
	mount_http = (struct lws_http_mount){
		.mountpoint = "/",
		.mountpoint_len = 1,
		.origin = HTTP_PROTOCOL_NAME,
		.origin_protocol = LWSMPRO_CALLBACK,
	};

	lws_set_log_level(server.config.log_level >= LOG_DEBUG ?
				  LLL_ERR | LLL_WARN | LLL_NOTICE :
				  LLL_ERR,
			  server_lws_log);

	protocols[0] = game_ws_protocol;
	protocols[1] = http_protocol;

	memset(&info, 0, sizeof(info));
	info.port = server.config.port;
	info.iface = server.listen.numeric[0] ? server.listen.numeric : NULL;
	info.protocols = protocols;
	info.mounts = &mount_http;
	info.vhost_name = "gomoku";
	info.server_string = "gomoku-server";
	info.user = &server;
	info.pcontext = &server.context;
	foreign_loops[0] = &server.loop;
	info.foreign_loops = foreign_loops;
	info.timeout_secs = (unsigned int)server.config.handshake_timeout;
	info.timeout_secs_ah_idle =
		(unsigned int)server.config.handshake_timeout;
	info.max_http_header_data = 4096;
	info.retry_and_idle_policy = &server_no_lws_keepalive;
	info.options =
		LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_VALIDATE_UTF8 |
		LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE |
		LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND;
	if (server.listen.ipv4)
		info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;

	server.context = lws_create_context(&info);
	if (!server.context) {
		fprintf(stderr, "gomoku-server: cannot start libwebsockets\n");
		exit_code = 2;
		goto out_close_loop;
	}
	if (!lws_get_vhost_by_name(server.context, "gomoku")) {
		/*
		 * On a foreign loop lws hands back a context it is already
		 * destroying when its vhost could not bind; uv_run() lets it
		 * finish.
		 */
		fprintf(stderr, "gomoku-server: cannot listen on port %d\n",
			server.config.port);
		exit_code = 2;
		goto out_close_loop;
	}
	if (listen_confirm(&server.listen, server.config.port, err,
			   sizeof(err))) {
		fprintf(stderr, "gomoku-server: %s\n", err);
		lws_context_destroy(server.context);
		exit_code = 2;
		goto out_close_loop;
	}
	log_info("gomoku-server %s listening on http://%s/ (board %d, %s, "
		 "full board: %s, web root %s)",
		 GOMOKU_VERSION, server.listen.bound, server.config.board_size,
		 rule_name(server.config.rule),
		 server.config.full_board == FULL_BOARD_DRAW ? "draw" : "back",
		 server.config.web_root);

	if (server_start_handles(&server) || ai_start(&server)) {
		log_error("cannot set up the event loop");
		server_stop(&server);
		uv_run(&server.loop, UV_RUN_DEFAULT);
		goto out_close_loop;
	}
	server_schedule_tick(&server);

	/* Until server_stop() and lws have closed every handle. */
	uv_run(&server.loop, UV_RUN_DEFAULT);
	uv_loop_close(&server.loop);
	store_close(server.store);
	lobby_release(&server.lobby);
	peers_release(&server.peers);
	outbuf_pool_release();
	frame_check_release();
	log_info("stopped");
	return 0;

out_close_loop:
	uv_run(&server.loop, UV_RUN_DEFAULT);
	uv_loop_close(&server.loop);
out_release:
	store_close(server.store);
	lobby_release(&server.lobby);
	peers_release(&server.peers);
	frame_check_release();
	return exit_code;
}
