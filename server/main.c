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

#include "config.h"
#include "game_ws.h"
#include "healthcheck.h"
#include "log.h"
#include "ops_http.h"
#include "server.h"

#define SHUTDOWN_DEADLINE_MS 1500 /* then exit even if clients linger */
#define SHUTDOWN_POLL_MS 20	  /* how often to look for the last one */

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

static void server_tick(lws_sorted_usec_list_t *sul)
{
	server_schedule_tick(lws_container_of(sul, struct server, tick_sul));
}

void server_schedule_tick(struct server *srv)
{
	uint64_t now = server_now_ms();
	uint64_t next = lobby_tick(&srv->lobby, now);

	game_ws_lobby_done(srv);
	if (next == UINT64_MAX || !srv->context)
		return;
	lws_sul_schedule(srv->context, 0, &srv->tick_sul, server_tick,
			 (lws_usec_t)(next - now) * LWS_US_PER_MS);
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

/* Idle WebSockets are pinged, and dropped when a ping goes unanswered. */
static lws_retry_bo_t server_idle_policy;

/* Ends the service loop once the last session is gone or time is up. */
static void server_shutdown_poll(lws_sorted_usec_list_t *sul)
{
	struct server *srv = lws_container_of(sul, struct server, shutdown_sul);
	static uint64_t deadline;

	if (!deadline)
		deadline = server_now_ms() + SHUTDOWN_DEADLINE_MS;
	if (srv->sessions.count && server_now_ms() < deadline) {
		lws_sul_schedule(srv->context, 0, sul, server_shutdown_poll,
				 SHUTDOWN_POLL_MS * LWS_US_PER_MS);
		return;
	}
	if (srv->sessions.count)
		log_warn("stopping with %u clients still connected",
			 srv->sessions.count);
	lws_context_destroy(srv->context);
}

static void server_signal(void *handle, int signum)
{
	(void)handle;
	if (server.shutting_down) {
		log_warn("signal %d again: stopping now", signum);
		lws_context_destroy(server.context);
		return;
	}
	log_info("signal %d: closing %u connections with 1001 and stopping",
		 signum, server.sessions.count);
	server.shutting_down = true;
	game_ws_close_all(&server);
	lws_sul_schedule(server.context, 0, &server.shutdown_sul,
			 server_shutdown_poll,
			 SHUTDOWN_POLL_MS * LWS_US_PER_MS);
	/*
	 * On the libuv loop lws arms its timer for a new sul only after some
	 * socket activity; its cancel pipe provides that even when no client
	 * is connected.
	 */
	lws_cancel_service(server.context);
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
	static struct lws_http_mount mount_metrics, mount_healthz, mount_api,
		mount_web;
	/* The game protocol first: the default for clients that name none. */
	static struct lws_protocols protocols[3];
	struct lws_context_creation_info info;
	struct lobby_config lobby_config;
	struct lobby_random random = { server_random_fill, NULL };
	struct lobby_sink sink = { game_ws_sink_send, game_ws_sink_record,
				   &server };
	char err[256];

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
	log_set_level(server.config.log_level);
	signal(SIGPIPE, SIG_IGN);

	lobby_config = (struct lobby_config){
		.board_size = server.config.board_size,
		.rule = server.config.rule,
		.full_board = server.config.full_board,
		.reconnect_grace_ms =
			(uint64_t)server.config.reconnect_grace * 1000,
	};
	if (lobby_init(&server.lobby, &lobby_config, random, sink) ||
	    peers_init(&server.peers)) {
		log_error("cannot set up the lobby: out of memory");
		return 1;
	}
	server.started_ms = server_now_ms();
	server.store = store_open(server.config.db_path, err, sizeof(err));
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

	mount_web = (struct lws_http_mount){
		.mountpoint = "/",
		.mountpoint_len = 1,
		.origin = server.config.web_root,
		.def = "index.html",
		.origin_protocol = LWSMPRO_FILE,
	};
	mount_api = (struct lws_http_mount){
		.mount_next = &mount_web,
		.mountpoint = "/api/games",
		.mountpoint_len = 10,
		.origin = OPS_HTTP_PROTOCOL_NAME,
		.origin_protocol = LWSMPRO_CALLBACK,
	};
	mount_healthz = (struct lws_http_mount){
		.mount_next = &mount_api,
		.mountpoint = "/healthz",
		.mountpoint_len = 8,
		.origin = OPS_HTTP_PROTOCOL_NAME,
		.origin_protocol = LWSMPRO_CALLBACK,
	};
	mount_metrics = (struct lws_http_mount){
		.mount_next = &mount_healthz,
		.mountpoint = "/metrics",
		.mountpoint_len = 8,
		.origin = OPS_HTTP_PROTOCOL_NAME,
		.origin_protocol = LWSMPRO_CALLBACK,
	};

	lws_set_log_level(server.config.log_level >= LOG_DEBUG ?
				  LLL_ERR | LLL_WARN | LLL_NOTICE :
				  LLL_ERR,
			  server_lws_log);

	protocols[0] = game_ws_protocol;
	protocols[1] = ops_http_protocol;

	memset(&info, 0, sizeof(info));
	info.port = server.config.port;
	info.iface = server.config.host;
	info.protocols = protocols;
	info.mounts = &mount_metrics;
	info.vhost_name = "gomoku";
	info.server_string = "gomoku-server";
	info.user = &server;
	info.pcontext = &server.context;
	info.signal_cb = server_signal;
	info.timeout_secs = (unsigned int)server.config.handshake_timeout;
	info.timeout_secs_ah_idle =
		(unsigned int)server.config.handshake_timeout;
	info.max_http_header_data = 4096;
	server_idle_policy.secs_since_valid_ping =
		(uint16_t)server.config.ping_interval;
	server_idle_policy.secs_since_valid_hangup =
		(uint16_t)server.config.idle_timeout;
	info.retry_and_idle_policy = &server_idle_policy;
	info.options =
		LWS_SERVER_OPTION_LIBUV |
		LWS_SERVER_OPTION_UV_NO_SIGSEGV_SIGFPE_SPIN |
		LWS_SERVER_OPTION_VALIDATE_UTF8 |
		LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE;

	server.context = lws_create_context(&info);
	if (!server.context) {
		log_error("cannot listen on %s:%d",
			  server.config.host ? server.config.host : "*",
			  server.config.port);
		goto out_release;
	}
	log_info("gomoku-server %s listening on http://%s:%d/ (board %d, %s, "
		 "full board: %s, web root %s)",
		 GOMOKU_VERSION, server.config.host ? server.config.host : "*",
		 server.config.port, server.config.board_size,
		 rule_name(server.config.rule),
		 server.config.full_board == FULL_BOARD_DRAW ? "draw" : "back",
		 server.config.web_root);

	server_schedule_tick(&server);

	lws_service(server.context, 0);
	lws_context_destroy(server.context);
	store_close(server.store);
	lobby_release(&server.lobby);
	peers_release(&server.peers);
	outbuf_pool_release();
	log_info("stopped");
	return 0;

out_release:
	store_close(server.store);
	lobby_release(&server.lobby);
	peers_release(&server.peers);
	return 1;
}
