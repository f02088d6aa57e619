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

#include "acceptor.h"
#include "admission.h"
#include "ai.h"
#include "clock.h"
#include "cluster.h"
#include "conn.h"
#include "config.h"
#include "frame_check.h"
#include "healthcheck.h"
#include "http.h"
#include "instance.h"
#include "listen.h"
#include "log.h"
#include "ops_http.h"
#include "redis_journal.h"
#include "redis_link.h"
#include "server.h"
#include "session.h"
#include "site_index.h"
#include "takeover.h"

#define SHUTDOWN_DEADLINE_MS 1500 /* then exit even if clients linger */
#define SHUTDOWN_POLL_MS 20	  /* how often to look for the last one */
#define SWEEP_MS 1000		  /* keep-alive walk over the sessions */

/* What only main uses: the loop's own handles and the way out. */
struct main_loop {
	struct ai *ai;		       /* engine searches (server/ai.c) */
	struct acceptor *acceptor;     /* --reuse-port's listening socket;
					* NULL: libwebsockets listens */
	uv_signal_t signals[2];	       /* SIGINT, SIGTERM */
	uv_prepare_t commit_prepare;   /* ends each loop turn */
	uv_idle_t flush_idle;	       /* active while spectators wait to be
					* written: the loop then does not
					* wait for I/O */
	uv_timer_t sweep_timer;	       /* keep-alive, once a second */
	uv_timer_t shutdown_timer;     /* polls for the last session */
	uint64_t shutdown_deadline_ms; /* stop by then regardless */
	bool hub_ready;		       /* hub_init() succeeded */
	bool stopping;		       /* main_stop() ran */
	bool fenced;		       /* stopping: the site took this
					* instance's rooms over */
};

static struct server server;
static struct main_loop main_loop;

/* Seats a game the store kept from before a restart. */
static int main_restore_game(void *ctx, const struct lobby_saved_game *saved)
{
	struct server *srv = ctx;

	return hub_restore(&srv->hub, saved) ? 0 : -1;
}

/*
 * The lobby's random source: getrandom(2), MAIN_RANDOM_POOL bytes at a
 * time (a room draws 17; one system call each would be two per room).
 * Bytes handed out are wiped from the pool. On the loop's thread only.
 */
#define MAIN_RANDOM_POOL 4096
static struct {
	unsigned char bytes[MAIN_RANDOM_POOL];
	size_t left; /* unused bytes, at the end of bytes */
} main_random;

static void main_random_refill(void)
{
	unsigned char *out = main_random.bytes;
	size_t len = sizeof(main_random.bytes);

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
	main_random.left = sizeof(main_random.bytes);
}

static void main_random_fill(void *ctx, void *buf, size_t len)
{
	unsigned char *out = buf;

	(void)ctx;
	while (len) {
		unsigned char *from;
		size_t n;

		if (!main_random.left)
			main_random_refill();
		n = len < main_random.left ? len : main_random.left;
		from = main_random.bytes + sizeof(main_random.bytes) -
		       main_random.left;
		memcpy(out, from, n);
		explicit_bzero(from, n);
		main_random.left -= n;
		out += n;
		len -= n;
	}
}

/*
 * The hub's sink: a session of this process, or a player on another
 * instance of the site (conn.h).
 */
static void main_deliver(void *ctx, void *conn, const struct event *ev)
{
	if (conn_kind_of(conn) == CONN_REMOTE)
		cluster_deliver(server.cluster, conn, ev);
	else
		session_deliver(ctx, conn, ev);
}

/* lws's own log lines, through ours. */
static void main_lws_log(int level, const char *line)
{
	size_t len = strlen(line);

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	log_msg(level == LLL_ERR  ? LOG_ERROR :
		level == LLL_WARN ? LOG_WARN :
				    LOG_DEBUG,
		"lws: %.*s", (int)len, line);
}

/* Nothing: an active idle handle only keeps the next turn from waiting. */
static void main_flush_more(uv_idle_t *idle)
{
	(void)idle;
}

/*
 * The end of every loop turn: a libuv prepare handle runs before the loop
 * waits for I/O again, after every callback of the turn (sockets, timers),
 * so what a turn journals is committed, once, before anyone is told.
 */
static void main_end_turn(uv_prepare_t *prepare)
{
	(void)prepare;
	session_close_broken();
	hub_commit(&server.hub);
	if (server.cluster)
		cluster_flush(server.cluster);
	if (session_flush_all(&server))
		uv_idle_start(&main_loop.flush_idle, main_flush_more);
	else
		uv_idle_stop(&main_loop.flush_idle);
}

/*
 * Ends the event loop: the last commit, lws' context (it closes its own
 * handles on our loop), then ours; uv_run() returns once all are closed.
 */
static void main_stop(void)
{
	if (main_loop.stopping)
		return;
	main_loop.stopping = true;
	ai_free(main_loop.ai); /* before the rooms and the context go */
	main_loop.ai = NULL;
	if (main_loop.hub_ready) {
		hub_stop(&server.hub);
		hub_commit(&server.hub);
	}
	lws_context_destroy(server.context);
	acceptor_free(main_loop.acceptor);
	main_loop.acceptor = NULL;
	uv_close((uv_handle_t *)&main_loop.shutdown_timer, NULL);
	uv_close((uv_handle_t *)&main_loop.sweep_timer, NULL);
	uv_close((uv_handle_t *)&main_loop.commit_prepare, NULL);
	uv_close((uv_handle_t *)&main_loop.flush_idle, NULL);
	for (size_t i = 0;
	     i < sizeof(main_loop.signals) / sizeof(*main_loop.signals); i++)
		uv_close((uv_handle_t *)&main_loop.signals[i], NULL);
	drain_free(server.drain);
	server.drain = NULL;
	journal_free(server.journal);
	server.journal = NULL;
	/* The link first: what it still waits for is answered NULL. */
	if (server.cluster)
		cluster_stop(server.cluster);
	if (server.takeover)
		takeover_stop(server.takeover);
	redis_link_free(server.redis);
	server.redis = NULL;
	cluster_free(server.cluster);
	server.cluster = NULL;
	takeover_free(server.takeover);
	server.takeover = NULL;
	site_index_free(server.site_index);
	server.site_index = NULL;
	redis_journal_free(server.redis_journal);
	server.redis_journal = NULL;
	instance_free(server.instance);
	server.instance = NULL;
}

/*
 * Stops once the last session is gone and the instance's lease is given
 * back, or time is up.
 */
static void main_shutdown_poll(uv_timer_t *timer)
{
	(void)timer;
	if ((server.metrics.connections ||
	     (server.instance && instance_releasing(server.instance))) &&
	    clock_monotonic_ms() < main_loop.shutdown_deadline_ms)
		return;
	if (server.metrics.connections)
		log_warn("stopping with %lu clients still connected",
			 server.metrics.connections);
	main_stop();
}

/*
 * Nothing changes in the games any more (their seats are kept for the
 * restart, or for the instance that takes them over), every session
 * closes with 1001, and the loop stops once they are gone.
 */
static void main_shut_down(void)
{
	server.shutting_down = true;
	acceptor_stop(main_loop.acceptor);
	hub_stop(&server.hub);
	if (server.cluster)
		cluster_stop(server.cluster);
	if (server.takeover)
		takeover_stop(server.takeover);
	if (server.site_index)
		site_index_stop(server.site_index);
	if (server.instance)
		instance_release(server.instance);
	main_loop.shutdown_deadline_ms =
		clock_monotonic_ms() + SHUTDOWN_DEADLINE_MS;
	session_close_all(&server);
	uv_timer_start(&main_loop.shutdown_timer, main_shutdown_poll,
		       SHUTDOWN_POLL_MS, SHUTDOWN_POLL_MS);
}

/* SIGTERM or SIGINT: main_shut_down(); a second one stops at once. */
static void main_signal(uv_signal_t *handle, int signum)
{
	(void)handle;
	if (server.shutting_down) {
		log_warn("signal %d again: stopping now", signum);
		main_stop();
		return;
	}
	log_info("signal %d: closing %lu connections with 1001 and stopping",
		 signum, server.metrics.connections);
	main_shut_down();
}

/*
 * A write to the site's Redis was refused: another instance took this
 * one's rooms over while it was cut off (its lease lapsed). What this
 * process holds of them is stale: it stops (exit status 1), for its
 * supervisor to start it again as a new process of the site.
 */
static void main_fenced(void *ctx, const char *room)
{
	(void)ctx;
	(void)room;
	if (server.shutting_down)
		return;
	log_error("stopping: the site took this instance's rooms over");
	main_loop.fenced = true;
	main_shut_down();
}

/*
 * lws' own keep-alive is off (a ping time with no hang-up time turns it
 * off; none at all means lws' default of 300 s): it re-arms a timer per
 * connection in one sorted list, O(connections) each time. session_sweep()
 * does the job instead.
 */
static const lws_retry_bo_t main_no_lws_keepalive = {
	.secs_since_valid_ping = 1,
	.secs_since_valid_hangup = 0,
};

/* Idle WebSockets are pinged, and dropped when a ping goes unanswered. */
static void main_sweep(uv_timer_t *timer)
{
	(void)timer;
	session_sweep(&server);
}

/*
 * Starts our own handles on the loop (made at start-up, so that
 * main_stop() may close them all): signals, the turn's end, the sweep.
 */
static int main_start_handles(void)
{
	static const int signals[] = { SIGINT, SIGTERM };

	for (size_t i = 0; i < sizeof(signals) / sizeof(*signals); i++) {
		if (uv_signal_start(&main_loop.signals[i], main_signal,
				    signals[i]))
			return -1;
	}
	if (uv_timer_start(&main_loop.sweep_timer, main_sweep, SWEEP_MS,
			   SWEEP_MS))
		return -1;
	return uv_prepare_start(&main_loop.commit_prepare, main_end_turn);
}

/* len random bytes as 2 * len lower-case hex digits and a NUL. */
static void main_random_hex(char *out, size_t len)
{
	unsigned char bytes[INSTANCE_TOKEN_LEN / 2];

	if (len > sizeof(bytes))
		len = sizeof(bytes);
	main_random_fill(NULL, bytes, len);
	for (size_t i = 0; i < len; i++)
		snprintf(out + 2 * i, 3, "%02x", bytes[i]);
	explicit_bzero(bytes, sizeof(bytes));
}

/*
 * --redis: the link to the site's Redis and this instance's lease there,
 * taken with a token of this process's own. 0, or -1 (out of memory).
 */
static int main_join_site(void)
{
	char token[INSTANCE_TOKEN_LEN + 1];

	server.redis =
		redis_link_new(&server.loop, &server.config.redis_url, NULL);
	if (!server.redis)
		return -1;
	main_random_hex(token, INSTANCE_TOKEN_LEN / 2);
	server.instance = instance_new(
		&server.loop, server.redis, server.instance_id, token,
		(uint64_t)server.config.instance_lease * 1000, NULL);
	server.redis_journal = redis_journal_new(&server.loop, server.redis,
						 server.instance_id, token,
						 server.store, main_fenced,
						 NULL);
	explicit_bzero(token, sizeof(token));
	if (!server.instance || !server.redis_journal)
		return -1;
	journal_set_mirror(server.journal,
			   redis_journal_mirror(server.redis_journal));
	server.takeover =
		takeover_new(&server.loop, server.redis, server.instance,
			     server.redis_journal, &server.hub, server.store,
			     (uint64_t)server.config.instance_lease * 1000);
	if (!server.takeover)
		return -1;
	server.cluster =
		cluster_new(&server.loop, server.redis,
			    &server.config.redis_url, server.instance_id,
			    (uint64_t)server.config.instance_lease * 1000,
			    &server.hub, server.journal,
			    (struct cluster_sessions){
				    session_deliver, session_relay,
				    session_seated, session_close, &server });
	if (!server.cluster)
		return -1;
	server.site_index = site_index_new(&server.loop, server.redis,
					   server.instance_id,
					   ops_http_site_snapshot, &server);
	if (!server.site_index)
		return -1;
	cluster_set_claims(server.cluster, takeover_claiming, server.takeover);
	takeover_on_claimed(server.takeover, cluster_claims_done,
			    server.cluster);
	log_info("instance %s joins the site on redis %s:%d (lease %d s)",
		 server.instance_id, server.config.redis_url.host,
		 server.config.redis_url.port, server.config.instance_lease);
	return 0;
}

/*
 * --redis: the unfinished games of the database are the site's, in
 * Redis: the instance that takes one over journals it whole.
 */
static void main_leave_unfinished(void)
{
	int dropped = store_drop_unfinished(server.store);

	if (dropped > 0)
		log_info("%d unfinished games left to the site's Redis",
			 dropped);
}

/* Refuses a web root that is not a directory, before listening. */
static int main_check_web_root(const char *web_root)
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
	struct lobby_random random = { main_random_fill, NULL };
	struct hub_sink sink = { main_deliver, &server };
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
	if (main_check_web_root(server.config.web_root))
		return 2;
	if (listen_resolve(&server.listen, server.config.host,
			   server.config.port, server.config.reuse_port, err,
			   sizeof(err))) {
		fprintf(stderr, "gomoku-server: %s\n", err);
		return 2;
	}
	log_set_level(server.config.log_level);
	signal(SIGPIPE, SIG_IGN);
	if (frame_check_init()) {
		log_error("cannot set up the frame check: out of memory");
		return 1;
	}
	server.started_ms = clock_monotonic_ms();
	if (server.config.instance_id)
		snprintf(server.instance_id, sizeof(server.instance_id), "%s",
			 server.config.instance_id);
	else
		main_random_hex(server.instance_id, INSTANCE_ID_RANDOM / 2);
	server.store = store_open(server.config.db_path,
				  server.config.keep_days, err, sizeof(err));
	if (!server.store) {
		fprintf(stderr, "gomoku-server: %s\n", err);
		goto out_release_frame_check;
	}

	lobby_config = (struct lobby_config){
		.board_size = server.config.board_size,
		.rule = server.config.rule,
		.time_control = server.config.time_control,
		.first_move_ms =
			(uint32_t)server.config.first_move_timeout * 1000,
		.full_board = server.config.full_board,
		.reconnect_grace_ms =
			(uint64_t)server.config.reconnect_grace * 1000,
		.ai_fill_after_ms =
			(uint64_t)server.config.ai_fill_after * 1000,
		.ai_fill_level = server.config.ai_fill_level,
		.max_spectators = (unsigned long)server.config.max_spectators,
	};
	if (uv_loop_init(&server.loop)) {
		log_error("cannot set up the event loop");
		goto out_close_store;
	}
	/* Every handle of ours, so that main_stop() may close them all. */
	for (size_t i = 0;
	     i < sizeof(main_loop.signals) / sizeof(*main_loop.signals); i++)
		uv_signal_init(&server.loop, &main_loop.signals[i]);
	uv_timer_init(&server.loop, &main_loop.shutdown_timer);
	uv_timer_init(&server.loop, &main_loop.sweep_timer);
	uv_prepare_init(&server.loop, &main_loop.commit_prepare);
	uv_idle_init(&server.loop, &main_loop.flush_idle);
	server.journal =
		journal_new(server.store, &server.loop, &server.metrics);
	server.admission = admission_new(&server.config, &server.metrics);
	server.drain = drain_new(&server.loop);
	if (!server.journal || !server.admission || !server.drain ||
	    hub_init(&server.hub, &server.loop, &lobby_config, random,
		     server.journal, sink, NULL)) {
		log_error("cannot set up the lobby: out of memory");
		goto out_stop;
	}
	main_loop.hub_ready = true;

	if (server.config.redis)
		main_leave_unfinished();
	else if (store_load_unfinished(server.store, main_restore_game,
				       &server) ||
		 store_commit(server.store))
		log_warn("not every unfinished game could be restored");
	if (server.hub.lobby.stats.rooms)
		log_info(
			"restored %lu unfinished games; their players have %d s "
			"to come back",
			server.hub.lobby.stats.rooms,
			server.config.reconnect_grace);

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
			  main_lws_log);

	protocols[0] = session_protocol;
	protocols[1] = http_protocol;

	if (server.config.reuse_port) {
		main_loop.acceptor = acceptor_new(&server.loop, &server.listen,
						  server.config.port, err,
						  sizeof(err));
		if (!main_loop.acceptor) {
			fprintf(stderr, "gomoku-server: %s\n", err);
			exit_code = 2;
			goto out_stop;
		}
	}

	memset(&info, 0, sizeof(info));
	/* With --reuse-port the acceptor listens, and lws adopts. */
	info.port = main_loop.acceptor ? CONTEXT_PORT_NO_LISTEN_SERVER :
					 server.config.port;
	info.iface = server.listen.numeric[0] ? server.listen.numeric : NULL;
	info.protocols = protocols;
	info.mounts = &mount_http;
	info.vhost_name = SERVER_VHOST_NAME;
	info.server_string = "gomoku-server";
	info.user = &server;
	info.pcontext = &server.context;
	foreign_loops[0] = &server.loop;
	info.foreign_loops = foreign_loops;
	info.timeout_secs = (unsigned int)server.config.handshake_timeout;
	info.timeout_secs_ah_idle =
		(unsigned int)server.config.handshake_timeout;
	info.max_http_header_data = 4096;
	info.retry_and_idle_policy = &main_no_lws_keepalive;
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
		goto out_stop;
	}
	if (!lws_get_vhost_by_name(server.context, SERVER_VHOST_NAME)) {
		/*
		 * On a foreign loop lws hands back a context it is already
		 * destroying when its vhost could not bind; uv_run() lets it
		 * finish.
		 */
		fprintf(stderr, "gomoku-server: cannot listen on port %d\n",
			server.config.port);
		server.context = NULL;
		exit_code = 2;
		goto out_stop;
	}
	if (main_loop.acceptor &&
	    acceptor_start(main_loop.acceptor,
			   lws_get_vhost_by_name(server.context,
						 SERVER_VHOST_NAME),
			   server.admission)) {
		log_error("cannot set up the event loop");
		goto out_stop;
	}
	if (listen_confirm(&server.listen, server.config.port, err,
			   sizeof(err))) {
		fprintf(stderr, "gomoku-server: %s\n", err);
		exit_code = 2;
		goto out_stop;
	}
	log_info("gomoku-server %s listening on http://%s/ (board %d, %s, "
		 "full board: %s, web root %s)",
		 GOMOKU_VERSION, server.listen.bound, server.config.board_size,
		 rule_name(server.config.rule),
		 server.config.full_board == FULL_BOARD_DRAW ? "draw" : "back",
		 server.config.web_root);

	if (server.config.redis && main_join_site()) {
		log_error("out of memory for the Redis link");
		goto out_stop;
	}
	if (server.config.reuse_port && !server.config.redis)
		log_warn("--reuse-port without --redis: players who land on "
			 "different processes are never paired");
	main_loop.ai = ai_new(&server.loop, &server.config, &server.hub,
			      &server.metrics);
	if (!main_loop.ai || main_start_handles()) {
		log_error("cannot set up the event loop");
		goto out_stop;
	}
	hub_set_engine(&server.hub,
		       (struct hub_engine){ ai_think, ai_room_closed,
					    main_loop.ai });

	/* Until main_stop() and lws have closed every handle. */
	uv_run(&server.loop, UV_RUN_DEFAULT);
	exit_code = main_loop.fenced ? 1 : 0;
	goto out_close_loop;

out_stop:
	main_stop();
	uv_run(&server.loop, UV_RUN_DEFAULT);
out_close_loop:
	uv_loop_close(&server.loop);
	if (main_loop.hub_ready)
		hub_release(&server.hub);
	admission_free(server.admission);
out_close_store:
	store_close(server.store);
out_release_frame_check:
	outbuf_pool_release();
	frame_check_release();
	if (!exit_code)
		log_info("stopped");
	return exit_code;
}
