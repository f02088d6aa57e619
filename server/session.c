/*
 * session.c - the "gomoku" WebSocket protocol callback: a session opens,
 * receives, writes and closes; the keep-alive sweep and the shutdown walk
 * over the vhost's sessions.
 *
 * Over 600 lines because the protocol callback's cases share one
 * per-session struct; in order: the outgoing queue, the keep-alive walks,
 * opening (the query is server/handshake.c's), receiving, writing (at the
 * end of the turn, or from WRITEABLE), closing, and the callback itself.
 */
#include "session.h"

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "admission.h"
#include "clock.h"
#include "cluster.h"
#include "conn.h"
#include "frame_check.h"
#include "handshake.h"
#include "log.h"
#include "outqueue.h"
#include "protocol.h"

/*
 * Spectators and keep-alive pings are written after the players, at most
 * this long a turn: a move in a room that thousands watch reaches them
 * over several turns, as do the pings of thousands of sessions that fell
 * silent together (a crowd of spectators, which never send anything), and
 * the players of every room are never kept waiting for them.
 */
#define SESSION_BACKGROUND_SLICE_US 100
#define SESSION_FLUSH_CLOCK_EVERY 8 /* sessions between looks at the clock */

/* One of these per WebSocket connection. */
struct per_session_data__gomoku {
	enum conn_kind kind;	     /* CONN_SESSION (lws zeroes it): first, as
			      * conn.h says */
	struct lws *wsi;	     /* this connection; NULL until opened */
	struct lws_dll2 node;	     /* in the vhost's sessions */
	struct journal_hold hold;    /* held while a message waits for the
				      * journal's commit */
	struct lobby_player *player; /* the seat; NULL when refused or
				      * taken over by a newer connection */
	struct lobby_spectator *spectator; /* watch=ROOM: what it watches;
					    * then player is NULL */
	struct cluster_ticket *ticket;	   /* --redis: routed by the cluster
					* (waiting, or playing on another
					* instance); then player is NULL */
	bool watching;		   /* watch=ROOM: here or on another instance */
	bool told_waiting;	   /* the cluster said `waiting`: the lobby's,
			    * when it pairs the session here, is not
			    * said again */
	struct peer *invite_entry; /* invite=new: counted per address */
	struct peer *peer_entry;   /* X-Forwarded-For address count */
	struct lws_dll2 unflushed; /* in vhd->unflushed (a spectator's:
				      * vhd->unflushed_spectators) while out
				      * holds messages for session_flush_all() */
	struct outqueue out;	   /* messages not yet written */
	char *rx;		   /* a message arriving in pieces */
	size_t rx_len;		   /* bytes of it so far */
	size_t rx_cap;		   /* bytes rx can hold */
	unsigned int rx_pieces;	   /* pieces of it so far */
	unsigned int rx_frames;	   /* whole frames of it so far */
	bool rx_binary;		   /* it came in binary frames */
	bool leaving;		   /* the client closed with 1000 */
	bool peer_closed;	   /* the client sent a close frame */
	bool aborted;		   /* dropped for not reading */
	bool write_failed;	   /* the socket refused a write */
	bool unavailable_due;	   /* write `unavailable` before the queue */
	bool compact;		   /* updates=move: boards without content */
	double tokens;		   /* rate limit: messages it may send */
	uint64_t tokens_ms;	   /* when tokens was last topped up */
	unsigned int rate_strikes; /* messages refused in a row */
	uint64_t seen_ms;	   /* loop time of its last frame */
	struct lws_dll2 ping_wait; /* in vhd->pings while its keep-alive
				    * ping waits for a turn's slice */
	bool ping_due;		   /* write a ping at the next WRITEABLE */
	bool pinged;		   /* a ping is due or went out since
				    * seen_ms */
	bool hung_up;		   /* dropped as idle */
	int close_code;		   /* close with this once out drains */
	const char *close_reason;  /* static text for close_code */
	char uid[UID_LEN + 1];	   /* the player's uid, for logs */
	const char *peer;	   /* client address, for logs: the
				      * admission's or peer_entry's text */
};

/* One of these per vhost (the one), made at PROTOCOL_INIT: srv->sessions. */
struct per_vhost_data__gomoku {
	struct lws_dll2_owner sessions;	 /* every open session */
	struct lws_dll2_owner unflushed; /* sessions with messages to write
					  * at the end of the turn */
	struct lws_dll2_owner unflushed_spectators; /* ... spectators, after
						     * the players, a slice
						     * a turn */
	struct lws_dll2_owner pings; /* sessions the sweep found silent,
				      * pinged after the spectators in the
				      * same slice */
};

/* Asks for a close with code once everything queued is written. */
static void session_close_after_flush(struct per_session_data__gomoku *pss,
				      int code, const char *reason)
{
	if (!pss->close_code) {
		pss->close_code = code;
		pss->close_reason = reason;
	}
	lws_callback_on_writable(pss->wsi);
}

/*
 * Drops a session whose client stopped reading, at once and without a
 * close frame (it would not read one): what is queued is freed, and the
 * socket is reset (SO_LINGER 0) and shut down both ways, so that the
 * kernel frees its buffers now and lws, seeing the hang-up, closes the
 * connection at its next turn instead of waiting to flush.
 */
static void session_abort(struct server *srv,
			  struct per_session_data__gomoku *pss)
{
	struct linger reset = { .l_onoff = 1, .l_linger = 0 };
	int fd = lws_get_socket_fd(pss->wsi);

	if (pss->aborted)
		return;
	log_warn("dropping uid=" LOG_ID " peer=%s: it does not read (%zu "
		 "bytes queued)",
		 LOG_ID_ARG(pss->uid), pss->peer, pss->out.cost);
	pss->aborted = true;
	pss->close_code = LWS_CLOSE_STATUS_POLICY_VIOLATION;
	pss->close_reason = "not reading";
	srv->metrics.slow_drops++;
	outqueue_release(&pss->out);
	journal_unhold(&pss->hold);
	setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
	shutdown(fd, SHUT_RDWR);
	lws_callback_on_writable(pss->wsi);
}

/*
 * An `unavailable` error goes out before anything queued: the messages
 * ahead of it wait for the journal that it is about.
 */
static void session_tell_unavailable(struct server *srv,
				     struct per_session_data__gomoku *pss)
{
	if (pss->close_code || pss->unavailable_due)
		return;
	pss->unavailable_due = true;
	srv->metrics.errors[ERR_UNAVAILABLE]++;
	lws_callback_on_writable(pss->wsi);
}

/*
 * Queues buf (its reference taken) until batch is durable, to be written
 * at the end of the turn, after the commit; drops a session that stopped
 * reading. False when it was not queued.
 */
static bool session_push(struct server *srv,
			 struct per_session_data__gomoku *pss,
			 struct outbuf *buf, uint64_t batch)
{
	if (pss->out.cost + outbuf_cost(buf) > SESSION_MAX_QUEUED) {
		outbuf_put(buf);
		session_abort(srv, pss);
		return false;
	}
	if (outqueue_push(&pss->out, buf, batch)) {
		outbuf_put(buf);
		session_close_after_flush(pss,
					  LWS_CLOSE_STATUS_UNEXPECTED_CONDITION,
					  "out of memory");
		return false;
	}
	outbuf_put(buf);
	if (lws_dll2_is_detached(&pss->unflushed))
		lws_dll2_add_tail(&pss->unflushed,
				  pss->watching ?
					  &srv->sessions->unflushed_spectators :
					  &srv->sessions->unflushed);
	return true;
}

/* Encodes ev and queues it; drops a session that stopped reading. */
static void session_queue(struct server *srv,
			  struct per_session_data__gomoku *pss,
			  const struct event *ev)
{
	uint64_t batch;
	struct outbuf *buf;

	if (pss->close_code)
		return;
	if (ev->type == EVENT_ERROR && ev->code == ERR_UNAVAILABLE) {
		session_tell_unavailable(srv, pss);
		return;
	}
	buf = hub_encode(&srv->hub, ev, pss->compact);
	if (!buf) {
		log_error("out of memory encoding a message for uid=" LOG_ID,
			  LOG_ID_ARG(pss->uid));
		session_close_after_flush(pss,
					  LWS_CLOSE_STATUS_UNEXPECTED_CONDITION,
					  "out of memory");
		return;
	}
	/* What the open batch journals is told only once it is durable. */
	batch = journal_batch(srv->journal);
	if (!session_push(srv, pss, buf, batch))
		return;
	if (ev->type == EVENT_ERROR)
		srv->metrics.errors[ev->code]++;
	if (batch)
		journal_hold(srv->journal, &pss->hold, pss->wsi);
}

static void session_send_error(struct server *srv,
			       struct per_session_data__gomoku *pss,
			       enum error_code code, const char *message)
{
	struct event ev = {
		.type = EVENT_ERROR,
		.code = code,
		.text = message,
	};

	session_queue(srv, pss, &ev);
}

void session_deliver(void *ctx, void *conn, const struct event *ev)
{
	struct per_session_data__gomoku *pss = conn;
	struct server *srv = ctx;

	if (ev->type == EVENT_REPLACED) {
		log_info("replaced uid=" LOG_ID " peer=%s",
			 LOG_ID_ARG(pss->uid), pss->peer);
		pss->player = NULL;
		session_close_after_flush(pss, 4001, "replaced");
		return;
	}
	if (ev->type == EVENT_INVITE && srv->cluster)
		cluster_invite_opened(srv->cluster, ev->invite);
	if (ev->type == EVENT_WAITING && pss->ticket) {
		if (pss->told_waiting)
			return;
		pss->told_waiting = true;
	}
	session_queue(srv, pss, ev);
}

void session_relay(void *ctx, void *conn, const char *message, size_t len)
{
	struct per_session_data__gomoku *pss = conn;
	struct server *srv = ctx;
	struct outbuf *buf;

	if (pss->close_code)
		return;
	buf = outbuf_new(len);
	if (!buf) {
		session_close_after_flush(pss,
					  LWS_CLOSE_STATUS_UNEXPECTED_CONDITION,
					  "out of memory");
		return;
	}
	memcpy(outbuf_payload(buf), message, len);
	buf->len = len;
	/* The owner held it until its journal saved what it tells. */
	session_push(srv, pss, buf, 0);
}

void session_seated(void *ctx, void *conn, struct lobby_player *player)
{
	struct per_session_data__gomoku *pss = conn;

	(void)ctx;
	pss->ticket = NULL; /* the cluster's no more */
	pss->player = player;
	if (!player) {
		log_error("cannot seat uid=" LOG_ID, LOG_ID_ARG(pss->uid));
		session_close_after_flush(pss,
					  LWS_CLOSE_STATUS_UNEXPECTED_CONDITION,
					  "out of memory");
	}
}

void session_close(void *ctx, void *conn, int code, const char *reason)
{
	struct per_session_data__gomoku *pss = conn;

	(void)ctx;
	log_info("closing uid=" LOG_ID " peer=%s: %s", LOG_ID_ARG(pss->uid),
		 pss->peer, reason);
	session_close_after_flush(pss, code, reason);
}

void session_close_broken(void)
{
	struct per_session_data__gomoku *pss;

	while ((pss = frame_check_next_broken()))
		session_close_after_flush(pss, LWS_CLOSE_STATUS_PROTOCOL_ERR,
					  "unmasked frame");
}

/* Calls fn on every open session of srv's one vhost. */
static void session_each(struct server *srv,
			 void (*fn)(struct server *srv,
				    struct per_session_data__gomoku *pss,
				    uint64_t now),
			 uint64_t now)
{
	struct per_vhost_data__gomoku *vhd = srv->sessions;

	if (!vhd)
		return;
	lws_start_foreach_dll(struct lws_dll2 *, d,
			      lws_dll2_get_head(&vhd->sessions)) {
		fn(srv,
		   lws_container_of(d, struct per_session_data__gomoku, node),
		   now);
	}
	lws_end_foreach_dll(d);
}

/*
 * Keep-alive, run once a second: a session silent for --ping-interval is
 * queued for a ping (written a slice a turn, session_flush_all()), one
 * silent for --idle-timeout is dropped without a close frame
 * (a peer that answers nothing would not read one) from its next
 * WRITEABLE: lws timers set from outside its own callbacks wait for its
 * next event. It is a walk over the sessions rather than a timer per
 * connection: lws keeps its timers in one sorted list, so re-arming one
 * on every pong cost O(connections) each, and thousands of idle clients
 * kept a core busy doing only that.
 */
static void session_sweep_one(struct server *srv,
			      struct per_session_data__gomoku *pss,
			      uint64_t now)
{
	uint64_t ping_ms = (uint64_t)srv->config.ping_interval * 1000;
	uint64_t idle_ms = (uint64_t)srv->config.idle_timeout * 1000;
	uint64_t silent = now - pss->seen_ms;

	if (pss->hung_up || silent < ping_ms) {
		/* alive, or already on its way out */
	} else if (silent >= idle_ms) {
		log_info("idle uid=" LOG_ID " peer=%s: no answer for %llu s",
			 LOG_ID_ARG(pss->uid), pss->peer,
			 (unsigned long long)(silent / 1000));
		pss->hung_up = true;
		srv->metrics.idle_drops++;
		lws_callback_on_writable(pss->wsi);
	} else if (!pss->pinged) {
		/* Written at the end of a turn (session_ping_list()). */
		pss->pinged = true;
		if (lws_dll2_is_detached(&pss->ping_wait))
			lws_dll2_add_tail(&pss->ping_wait,
					  &srv->sessions->pings);
	}
}

void session_sweep(struct server *srv)
{
	session_each(srv, session_sweep_one, uv_now(&srv->loop));
}

/* Shutdown: its WRITEABLE starts the close (session_writeable()). */
static void session_wake(struct server *srv,
			 struct per_session_data__gomoku *pss, uint64_t now)
{
	(void)srv;
	(void)now;
	lws_callback_on_writable(pss->wsi);
}

void session_close_all(struct server *srv)
{
	session_each(srv, session_wake, 0);
}

/*
 * Behind a trusted proxy: the client's address is the last X-Forwarded-For
 * entry, and the per-address limit applies to it here, once the session
 * is open (where its close is sure to be seen). False when over.
 */
static bool session_count_forwarded(struct server *srv,
				    struct per_session_data__gomoku *pss)
{
	char forwarded[PEER_ADDRESS_MAX];

	if (!srv->config.trust_proxy ||
	    !handshake_forwarded_for(pss->wsi, forwarded, sizeof(forwarded)))
		return true; /* not forwarded: its socket was counted */
	pss->peer_entry = admission_forwarded(srv->admission, forwarded);
	if (!pss->peer_entry)
		return false;
	pss->peer = pss->peer_entry->address;
	return true;
}

/*
 * Whether the session may be seated: not when the client sent data before
 * the upgrade was answered, nor over the forwarded address's limit, nor
 * with a query refused (each then closes once told why).
 */
static bool session_admit(struct server *srv,
			  struct per_session_data__gomoku *pss,
			  struct handshake_query *query)
{
	const struct handshake_refusal *refusal;

	if (!frame_check_upgraded(lws_get_socket_fd(pss->wsi), pss)) {
		/* RFC 6455 4.1: nothing before the handshake is answered */
		log_info("refused peer=%s: data before the upgrade was "
			 "answered",
			 pss->peer);
		session_close_after_flush(pss, LWS_CLOSE_STATUS_PROTOCOL_ERR,
					  "data before the handshake");
		return false;
	}
	if (!session_count_forwarded(srv, pss)) {
		session_close_after_flush(pss,
					  LWS_CLOSE_STATUS_POLICY_VIOLATION,
					  "too many connections");
		return false;
	}
	refusal = handshake_read_query(
		pss->wsi, &srv->hub.lobby.default_pool->key, query);
	if (refusal && refusal->code != ERR_BAD_UID)
		memcpy(pss->uid, query->uid, sizeof(pss->uid));
	if (!refusal)
		return true;
	if (refusal->code == ERR_BAD_UID)
		log_info("refused peer=%s: malformed uid", pss->peer);
	else
		log_info("refused uid=" LOG_ID " peer=%s: %s",
			 LOG_ID_ARG(pss->uid), pss->peer, refusal->reason);
	session_send_error(srv, pss, refusal->code, refusal->message);
	session_close_after_flush(pss, LWS_CLOSE_STATUS_POLICY_VIOLATION,
				  refusal->reason);
	return false;
}

/*
 * A spectator (watch=ROOM): welcome with no uid (it plays nothing), then
 * what lobby_watch() tells it; or the refusal, and close 1008.
 */
static int session_watch(struct server *srv,
			 struct per_session_data__gomoku *pss,
			 const struct handshake_query *query)
{
	struct event welcome = {
		.type = EVENT_WELCOME,
		.version = GOMOKU_VERSION,
		.size = query->pool.size,
		.rule = query->pool.rule,
		.tc = query->pool.tc,
	};
	enum error_code code = ERR_NO_SUCH_ROOM;

	pss->watching = true;
	session_queue(srv, pss, &welcome);
	if (query->room[0])
		pss->spectator = hub_watch(&srv->hub, query->room, pss, &code);
	if (pss->spectator) {
		log_info("watch room=%s peer=%s", query->room, pss->peer);
		return 0;
	}
	/* Several instances: the room may be another's. */
	if (code == ERR_NO_SUCH_ROOM && query->room[0] && srv->cluster) {
		log_info("watch room=%s peer=%s (another instance's?)",
			 query->room, pss->peer);
		if (cluster_watch(srv->cluster, query->room, query->compact,
				  pss, &pss->ticket))
			session_close_after_flush(
				pss, LWS_CLOSE_STATUS_UNEXPECTED_CONDITION,
				"out of memory");
		return 0;
	}
	if (code == ERR_NONE) {
		session_close_after_flush(pss,
					  LWS_CLOSE_STATUS_UNEXPECTED_CONDITION,
					  "out of memory");
		return 0;
	}
	log_info("refused watch peer=%s: %s", pss->peer, error_code_name(code));
	session_send_error(
		srv, pss, code,
		code == ERR_NO_SUCH_ROOM ?
			"no open room has that id" :
			"the room has as many spectators as it takes");
	session_close_after_flush(pss, LWS_CLOSE_STATUS_POLICY_VIOLATION,
				  error_code_name(code));
	return 0;
}

/*
 * invite=new (at most --max-invites-per-ip open from an address) or
 * invite=CODE (an invite waits with it); a uid with a seat to resume is
 * neither counted nor refused. False, refused and closing with 1008,
 * otherwise.
 */
static bool session_invite_allowed(struct server *srv,
				   struct per_session_data__gomoku *pss,
				   const struct handshake_query *query,
				   bool *elsewhere)
{
	enum error_code code = ERR_NONE;
	const char *text = NULL;

	*elsewhere = false;
	/* A uid with a seat resumes it, whatever the query. */
	if (lobby_find(&srv->hub.lobby, pss->uid))
		return true;
	if (!strcmp(query->invite, "new")) {
		pss->invite_entry = admission_invite(srv->admission, pss->peer);
		if (!pss->invite_entry) {
			code = ERR_RATE_LIMITED;
			text = "too many open invites from your address";
		}
	} else if (srv->cluster && query->invite[0] &&
		   !lobby_invite_open(&srv->hub.lobby, query->invite)) {
		*elsewhere = true; /* perhaps another instance's */
	} else if (!lobby_invite_open(&srv->hub.lobby, query->invite)) {
		code = ERR_NO_SUCH_INVITE;
		text = "no invite waits with that code: it was used, or its "
		       "player left";
	}
	if (code == ERR_NONE)
		return true;
	log_info("refused uid=" LOG_ID " peer=%s: %s", LOG_ID_ARG(pss->uid),
		 pss->peer, error_code_name(code));
	session_send_error(srv, pss, code, text);
	session_close_after_flush(pss, LWS_CLOSE_STATUS_POLICY_VIOLATION,
				  error_code_name(code));
	return false;
}

/* A new connection: read its identity, greet it and seat it. */
static int session_open(struct server *srv,
			struct per_session_data__gomoku *pss, struct lws *wsi)
{
	struct handshake_query query;
	struct lobby_join join;
	struct event welcome;
	bool invite_elsewhere = false;

	pss->wsi = wsi;
	outqueue_init(&pss->out);
	lws_dll2_add_tail(&pss->node, &srv->sessions->sessions);
	srv->metrics.connections++;
	/* read once, when the socket was accepted */
	pss->peer = admission_address(srv->admission, lws_get_network_wsi(wsi));
	pss->tokens = srv->config.rate_burst;
	pss->tokens_ms = clock_monotonic_ms();
	pss->seen_ms = uv_now(&srv->loop);

	if (srv->shutting_down) {
		lws_callback_on_writable(wsi);
		return 0;
	}
	if (!session_admit(srv, pss, &query))
		return 0;
	pss->compact = query.compact;
	if (query.watch)
		return session_watch(srv, pss, &query);
	memcpy(pss->uid, query.uid, sizeof(pss->uid));
	if (query.invited &&
	    !session_invite_allowed(srv, pss, &query, &invite_elsewhere))
		return 0;

	welcome = (struct event){
		.type = EVENT_WELCOME,
		.uid = pss->uid,
		.version = GOMOKU_VERSION,
		.size = query.pool.size,
		.rule = query.pool.rule,
		.tc = query.pool.tc,
	};
	session_queue(srv, pss, &welcome);
	log_info("connect uid=" LOG_ID " peer=%s", LOG_ID_ARG(pss->uid),
		 pss->peer);

	join = (struct lobby_join){
		.uid = pss->uid,
		.name = query.name,
		.pool = &query.pool,
		.ai = query.ai && !query.invited,
		.level = query.level,
		.invite = query.invited ? query.invite : NULL,
		.listed = query.listed,
	};
	/* Several instances: an invite of another instance's... */
	if (invite_elsewhere) {
		if (cluster_invite(srv->cluster, &join, query.compact, pss,
				   &pss->ticket))
			session_close_after_flush(
				pss, LWS_CLOSE_STATUS_UNEXPECTED_CONDITION,
				"out of memory");
		return 0;
	}
	/* ... and a pool's player, go where the site says. */
	if (srv->cluster && !join.ai && !join.invite &&
	    !lobby_find(&srv->hub.lobby, pss->uid)) {
		if (cluster_route(srv->cluster, &join, query.compact, pss,
				  &pss->ticket))
			session_close_after_flush(
				pss, LWS_CLOSE_STATUS_UNEXPECTED_CONDITION,
				"out of memory");
		return 0;
	}
	pss->player = hub_connect(&srv->hub, &join, pss);
	if (!pss->player) {
		log_error("out of memory seating uid=" LOG_ID,
			  LOG_ID_ARG(pss->uid));
		session_close_after_flush(pss,
					  LWS_CLOSE_STATUS_UNEXPECTED_CONDITION,
					  "out of memory");
	} else if (srv->cluster) {
		cluster_seated_here(srv->cluster, pss->uid);
	}
	return 0;
}

/*
 * The token bucket: rate_burst messages at once, then rate_per_second.
 * True when this message may be handled. A refused one gets rate_limited;
 * a client that keeps sending past a second burst is closed with 1008.
 */
static bool session_rate_allows(struct server *srv,
				struct per_session_data__gomoku *pss)
{
	uint64_t now = clock_monotonic_ms();
	double burst = srv->config.rate_burst;

	pss->tokens += (double)(now - pss->tokens_ms) / 1000.0 *
		       srv->config.rate_per_second;
	if (pss->tokens > burst)
		pss->tokens = burst;
	pss->tokens_ms = now;
	if (pss->tokens >= 1.0) {
		pss->tokens -= 1.0;
		pss->rate_strikes = 0;
		return true;
	}
	if (++pss->rate_strikes > (unsigned int)srv->config.rate_burst) {
		srv->metrics.errors[ERR_RATE_LIMITED]++;
		log_info("closing uid=" LOG_ID
			 " peer=%s: over the message rate",
			 LOG_ID_ARG(pss->uid), pss->peer);
		session_close_after_flush(
			pss, LWS_CLOSE_STATUS_POLICY_VIOLATION, "rate limited");
		return false;
	}
	session_send_error(srv, pss, ERR_RATE_LIMITED,
			   "too many messages: slow down");
	return false;
}

/* One complete client message. */
static void session_handle_message(struct server *srv,
				   struct per_session_data__gomoku *pss,
				   const char *text, size_t len)
{
	const char *message;
	struct request req;
	enum error_code code;

	srv->metrics.messages_in++;
	srv->metrics.bytes_in += len;
	if ((!pss->player && !pss->spectator && !pss->ticket) ||
	    pss->close_code || srv->shutting_down)
		return; /* refused, replaced or closing; or the server is */
	if (!session_rate_allows(srv, pss))
		return;
	if (pss->rx_binary) {
		session_send_error(
			srv, pss, ERR_BAD_JSON,
			"binary frames are not accepted: send JSON text");
		return;
	}
	if (pss->ticket) {
		/* Waiting, or playing on another instance: it answers. */
		cluster_message(srv->cluster, pss->ticket, text, len);
		return;
	}
	code = protocol_parse(text, len,
			      pss->player ?
				      lobby_player_board_size(pss->player) :
				      BOARD_DEFAULT_SIZE,
			      &req, &message);
	if (code != ERR_NONE) {
		session_send_error(srv, pss, code, message);
		return;
	}
	if (pss->spectator)
		hub_spectator_request(&srv->hub, pss->spectator, &req);
	else
		hub_request(&srv->hub, pss->player, &req);
}

/* Refuses a message that grew too large: close 1009. */
static int session_too_large(struct server *srv,
			     struct per_session_data__gomoku *pss,
			     const char *why)
{
	srv->metrics.errors[ERR_TOO_LARGE]++;
	log_info("closing uid=" LOG_ID ": %s", LOG_ID_ARG(pss->uid), why);
	lws_close_reason(pss->wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE,
			 (unsigned char *)"too_large", 9);
	return -1;
}

/* The client is alive: any frame from it counts, a pong or a message. */
static void session_seen(struct server *srv,
			 struct per_session_data__gomoku *pss)
{
	pss->seen_ms = uv_now(&srv->loop);
	pss->pinged = false;
	lws_dll2_remove(&pss->ping_wait); /* no need of one now */
}

/* Refuses a connection that broke RFC 6455: close 1002. */
static int session_protocol_error(struct per_session_data__gomoku *pss,
				  const char *why)
{
	log_info("closing uid=" LOG_ID " peer=%s: %s", LOG_ID_ARG(pss->uid),
		 pss->peer, why);
	lws_close_reason(pss->wsi, LWS_CLOSE_STATUS_PROTOCOL_ERR,
			 (unsigned char *)why, strlen(why));
	return -1;
}

/*
 * A piece of a message: lws hands a frame over in as many pieces as its
 * bytes arrived in. Messages in one piece (almost all) are handled in
 * place; others are collected up to SESSION_MAX_MESSAGE bytes in at most
 * SESSION_MAX_FRAGMENTS frames (a piece that ends a frame counts one).
 */
static int session_receive(struct server *srv,
			   struct per_session_data__gomoku *pss, const char *in,
			   size_t len)
{
	bool frame_ends = !lws_remaining_packet_payload(pss->wsi);
	bool complete = lws_is_final_fragment(pss->wsi) && frame_ends;
	char *grown;

	if (frame_check_broken(lws_get_socket_fd(pss->wsi)))
		return session_protocol_error(pss, "unmasked frame");
	session_seen(srv, pss);
	if (!pss->rx_len && !pss->rx_pieces)
		pss->rx_binary = lws_frame_is_binary(pss->wsi);
	if (pss->rx_len + len > SESSION_MAX_MESSAGE)
		return session_too_large(srv, pss, "message over 16 KiB");
	if (complete && !pss->rx_pieces) {
		session_handle_message(srv, pss, in, len);
		return 0;
	}
	pss->rx_pieces++;
	if (frame_ends && ++pss->rx_frames > SESSION_MAX_FRAGMENTS)
		return session_too_large(srv, pss,
					 "message in too many frames");
	if (pss->rx_len + len > pss->rx_cap) {
		/* doubling: a few allocations per message, not one a piece */
		size_t cap = pss->rx_cap ? pss->rx_cap * 2 : 2048;

		while (cap < pss->rx_len + len)
			cap *= 2;
		if (cap > SESSION_MAX_MESSAGE)
			cap = SESSION_MAX_MESSAGE;
		grown = realloc(pss->rx, cap);
		if (!grown)
			return -1;
		pss->rx = grown;
		pss->rx_cap = cap;
	}
	if (len) {
		memcpy(pss->rx + pss->rx_len, in, len);
		pss->rx_len += len;
	}
	if (complete) {
		session_handle_message(srv, pss, pss->rx ? pss->rx : "",
				       pss->rx_len);
		free(pss->rx);
		pss->rx = NULL;
		pss->rx_len = 0;
		pss->rx_cap = 0;
		pss->rx_pieces = 0;
		pss->rx_frames = 0;
	}
	return 0;
}

/*
 * Starts the close handshake with code and reason. Returning -1 from
 * WRITEABLE after lws_close_reason() drops the close frame on the libuv
 * loop of lws 4.1.6, so the close is started from an lws timer callback
 * instead, where it is sent as it should be.
 */
static int session_start_close(struct lws *wsi, int code, const char *reason)
{
	lws_close_reason(wsi, (enum lws_close_status)code,
			 (unsigned char *)reason, strlen(reason));
	lws_set_timer_usecs(wsi, 1);
	return 0;
}

/* Writes the `unavailable` error of session_tell_unavailable(). */
static int session_write_unavailable(struct server *srv,
				     struct per_session_data__gomoku *pss)
{
	struct event ev = {
		.type = EVENT_ERROR,
		.code = ERR_UNAVAILABLE,
		.text = "the server cannot save games right now: the game is "
			"paused until it can",
	};
	unsigned char *buf;
	size_t len;
	char *text;
	int written;

	pss->unavailable_due = false;
	text = protocol_encode(&ev, LWS_PRE, &len);
	if (!text)
		return 0;
	buf = (unsigned char *)text + LWS_PRE;
	written = lws_write(pss->wsi, buf, len, LWS_WRITE_TEXT);
	free(text);
	if (written < (int)len)
		return -1;
	srv->metrics.messages_out++;
	srv->metrics.bytes_out += len;
	if (outqueue_peek(&pss->out) || pss->close_code)
		lws_callback_on_writable(pss->wsi);
	return 0;
}

/* Writes a keep-alive ping (lws reports only pongs with a payload). */
static bool session_put_ping(struct server *srv,
			     struct per_session_data__gomoku *pss)
{
	unsigned char ping[LWS_PRE + 1] = { [LWS_PRE] = 'k' };

	if (lws_write(pss->wsi, ping + LWS_PRE, 1, LWS_WRITE_PING) < 1)
		return false;
	srv->metrics.pings++;
	return true;
}

/* The ping from WRITEABLE, and WRITEABLE again for what is queued. */
static int session_write_ping(struct server *srv,
			      struct per_session_data__gomoku *pss)
{
	pss->ping_due = false;
	if (!session_put_ping(srv, pss))
		return -1;
	if (outqueue_peek(&pss->out) || pss->close_code)
		lws_callback_on_writable(pss->wsi);
	return 0;
}

/* Writes one queued message, or closes when asked to. */
static int session_writeable(struct server *srv,
			     struct per_session_data__gomoku *pss)
{
	struct outentry *msg;
	int written;

	if (srv->shutting_down)
		return session_start_close(pss->wsi, LWS_CLOSE_STATUS_GOINGAWAY,
					   "server shutting down");
	if (pss->hung_up || pss->aborted || pss->write_failed)
		return -1; /* silent too long, not reading, or broken */
	if (journal_hold_failed(&pss->hold))
		session_tell_unavailable(srv, pss);
	if (pss->unavailable_due)
		return session_write_unavailable(srv, pss);
	if (pss->ping_due)
		return session_write_ping(srv, pss);
	msg = outqueue_peek(&pss->out);
	if (msg && !journal_durable(srv->journal, msg->batch))
		return 0; /* held: the journal's commit asks again */
	if (!msg) {
		if (!pss->close_code)
			return 0;
		return session_start_close(pss->wsi, pss->close_code,
					   pss->close_reason);
	}
	written = lws_write(pss->wsi, (unsigned char *)outbuf_payload(msg->buf),
			    msg->buf->len, LWS_WRITE_TEXT);
	if (written < (int)msg->buf->len)
		return -1;
	srv->metrics.messages_out++;
	srv->metrics.bytes_out += msg->buf->len;
	outqueue_pop(&pss->out);
	if (outqueue_peek(&pss->out) || pss->close_code)
		lws_callback_on_writable(pss->wsi);
	return 0;
}

/*
 * The header of a server's (unmasked) final text frame of len payload
 * bytes (RFC 6455 5.2) into out (room for SESSION_FRAME_HEADER_MAX); its
 * length.
 */
#define SESSION_FRAME_HEADER_MAX 10
static size_t session_frame_header(unsigned char *out, size_t len)
{
	out[0] = 0x81; /* FIN, text */
	if (len < 126) {
		out[1] = (unsigned char)len;
		return 2;
	}
	if (len < 65536) {
		out[1] = 126;
		out[2] = (unsigned char)(len >> 8);
		out[3] = (unsigned char)len;
		return 4;
	}
	out[1] = 127;
	for (int i = 0; i < 8; i++)
		out[2 + i] = (unsigned char)((uint64_t)len >> (56 - 8 * i));
	return 10;
}

/*
 * The first count queued messages as frames, one after the other: in the
 * message's own headroom when there is one (no copy), else in stack when
 * they fit, else in a new allocation (*owned). NULL on out of memory.
 */
static unsigned char *session_frames(struct per_session_data__gomoku *pss,
				     unsigned int count, unsigned char *stack,
				     size_t stack_size, size_t *total,
				     unsigned char **owned)
{
	unsigned char header[SESSION_FRAME_HEADER_MAX], *frames, *at;
	struct outentry *msg;
	size_t len, need = 0;

	*owned = NULL;
	if (count == 1) {
		msg = outqueue_peek(&pss->out);
		at = (unsigned char *)outbuf_payload(msg->buf);
		len = session_frame_header(header, msg->buf->len);
		memcpy(at - len, header, len);
		*total = len + msg->buf->len;
		return at - len;
	}
	for (unsigned int i = 0; i < count; i++)
		need += SESSION_FRAME_HEADER_MAX +
			outqueue_at(&pss->out, i)->buf->len;
	frames = need <= stack_size ? stack : (*owned = malloc(need));
	if (!frames)
		return NULL;
	at = frames;
	for (unsigned int i = 0; i < count; i++) {
		msg = outqueue_at(&pss->out, i);
		at += session_frame_header(at, msg->buf->len);
		memcpy(at, outbuf_payload(msg->buf), msg->buf->len);
		at += msg->buf->len;
	}
	*total = (size_t)(at - frames);
	return frames;
}

/*
 * Whether something unusual is under way that only WRITEABLE may write:
 * a close, a drop, `unavailable`, a write lws still holds, or a WebSocket
 * inside an HTTP/2 stream (whose bytes are not the socket's).
 */
static bool session_unusual(const struct server *srv,
			    struct per_session_data__gomoku *pss)
{
	return srv->shutting_down || pss->close_code || pss->aborted ||
	       pss->hung_up || pss->peer_closed || pss->write_failed ||
	       pss->unavailable_due || lws_partial_buffered(pss->wsi) ||
	       lws_get_network_wsi(pss->wsi) != pss->wsi;
}

/*
 * Writes every durable message at the head of the queue in one system
 * call, framed here and handed to lws as raw bytes: the socket is almost
 * always writable, so no write interest is asked of the event loop. What
 * the kernel does not take, lws keeps (lws_partial_buffered()) and writes
 * when the socket is writable again, asking for WRITEABLE after it; the
 * queue then waits for that callback, so that a client that does not read
 * is still measured by its queue (SESSION_MAX_QUEUED). Anything unusual
 * (a close, a ping or an `unavailable` due, a write still buffered, a
 * client's ping to answer) goes the WRITEABLE way. True while messages
 * wait for a later turn's commit.
 */
static bool session_flush(struct server *srv,
			  struct per_session_data__gomoku *pss)
{
	unsigned char stack[2048], *frames, *owned;
	unsigned int count = 0;
	size_t total, payload = 0;
	int written;

	if (session_unusual(srv, pss) || pss->ping_due ||
	    frame_check_take_ping(lws_get_socket_fd(pss->wsi))) {
		/* (a client's ping: lws's pong goes first) */
		lws_callback_on_writable(pss->wsi);
		return false;
	}
	while (count < pss->out.count &&
	       journal_durable(srv->journal,
			       outqueue_at(&pss->out, count)->batch)) {
		payload += outqueue_at(&pss->out, count)->buf->len;
		count++;
	}
	if (!count)
		return pss->out.count > 0; /* held: the journal is failing */
	frames = session_frames(pss, count, stack, sizeof(stack), &total,
				&owned);
	if (!frames) {
		lws_callback_on_writable(pss->wsi); /* one at a time, then */
		return false;
	}
	/* lws takes it all: what the socket refuses it keeps and writes. */
	written = lws_write(pss->wsi, frames, total, LWS_WRITE_RAW);
	free(owned);
	if (written < (int)total) {
		pss->write_failed = true; /* the WRITEABLE callback closes */
		lws_callback_on_writable(pss->wsi);
		return false;
	}
	srv->metrics.messages_out += count;
	srv->metrics.bytes_out += payload;
	while (count--)
		outqueue_pop(&pss->out);
	return pss->out.count > 0;
}

/*
 * Flushes the sessions of list (session_flush()), in order, until
 * deadline_ns (0: all of them); those with messages left for a later
 * commit stay in it. True when the deadline left some unflushed.
 */
static bool session_flush_list(struct server *srv, struct lws_dll2_owner *list,
			       uint64_t deadline_ns)
{
	unsigned int flushed = 0;

	lws_start_foreach_dll_safe(struct lws_dll2 *, d, d1,
				   lws_dll2_get_head(list)) {
		struct per_session_data__gomoku *pss = lws_container_of(
			d, struct per_session_data__gomoku, unflushed);

		/* The clock every few sessions: a write takes microseconds. */
		if (deadline_ns && flushed &&
		    flushed % SESSION_FLUSH_CLOCK_EVERY == 0 &&
		    clock_monotonic_ns() >= deadline_ns)
			return true;
		flushed++;
		if (!session_flush(srv, pss))
			lws_dll2_remove(d);
	}
	lws_end_foreach_dll_safe(d, d1);
	return false;
}

/*
 * Writes the keep-alive pings the sweep queued, oldest first, until
 * deadline_ns: at once when the socket is free, as session_flush() writes
 * (a 3-byte control frame between whole messages), else from WRITEABLE.
 * True when the deadline left some for the next turns.
 */
static bool session_ping_list(struct server *srv, struct lws_dll2_owner *list,
			      uint64_t deadline_ns)
{
	unsigned int pinged = 0;

	lws_start_foreach_dll_safe(struct lws_dll2 *, d, d1,
				   lws_dll2_get_head(list)) {
		struct per_session_data__gomoku *pss = lws_container_of(
			d, struct per_session_data__gomoku, ping_wait);

		if (pinged && pinged % SESSION_FLUSH_CLOCK_EVERY == 0 &&
		    clock_monotonic_ns() >= deadline_ns)
			return true;
		pinged++;
		lws_dll2_remove(d);
		if (session_unusual(srv, pss)) {
			pss->ping_due = true; /* the careful way */
			lws_callback_on_writable(pss->wsi);
			continue;
		}
		if (!session_put_ping(srv, pss)) {
			pss->write_failed = true; /* the WRITEABLE closes */
			lws_callback_on_writable(pss->wsi);
		}
	}
	lws_end_foreach_dll_safe(d, d1);
	return false;
}

bool session_flush_all(struct server *srv)
{
	struct per_vhost_data__gomoku *vhd = srv->sessions;
	uint64_t deadline_ns;
	bool left = false;

	if (!vhd)
		return false;
	session_flush_list(srv, &vhd->unflushed, 0);
	deadline_ns = clock_monotonic_ns() + SESSION_BACKGROUND_SLICE_US * 1000;
	if (session_flush_list(srv, &vhd->unflushed_spectators, deadline_ns)) {
		srv->metrics.spect_deferred++;
		left = true;
	}
	if (lws_dll2_get_head(&vhd->pings) &&
	    (left || session_ping_list(srv, &vhd->pings, deadline_ns))) {
		srv->metrics.pings_deferred++;
		left = true;
	}
	return left;
}

/*
 * Answers a client's close frame with its payload (code and reason) at
 * once and returns -1: lws then closes the connection without a WRITEABLE
 * callback of its own for the answer (a write interest turned on and off,
 * and a loop turn). A WebSocket inside an HTTP/2 stream leaves it to lws
 * (returns 0). lws called this only with nothing of ours still unsent.
 */
static int session_answer_close(struct per_session_data__gomoku *pss,
				const unsigned char *payload, size_t len)
{
	unsigned char frame[2 + 125];

	if (lws_get_network_wsi(pss->wsi) != pss->wsi || len > 125)
		return 0;
	frame[0] = 0x88;	       /* FIN, opcode 8: close */
	frame[1] = (unsigned char)len; /* unmasked: the server's */
	memcpy(frame + 2, payload, len);
	/* what the kernel does not take now is lost with the close */
	lws_write(pss->wsi, frame, 2 + len, LWS_WRITE_RAW);
	return -1;
}

/*
 * The close frame of a client: 1000 means it left on purpose. lws
 * answers it with the same code, after turning the codes a client may not
 * send (below 1000, 1004-1006, 1012-1015, 1016-2999) into 1002; codes
 * above 4999, a payload of one byte and an unmasked close frame are
 * refused here (RFC 6455 7.4, 5.1).
 */
static int session_peer_closed(struct per_session_data__gomoku *pss,
			       unsigned char *in, size_t len)
{
	int code = len >= 2 ? (in[0] << 8) | in[1] : 0;

	if (len == 1)
		return session_protocol_error(pss, "bad close frame");
	if (frame_check_broken(lws_get_socket_fd(pss->wsi)))
		return session_protocol_error(pss, "unmasked frame");
	if (code > 4999) {
		in[0] = LWS_CLOSE_STATUS_PROTOCOL_ERR >> 8;
		in[1] = LWS_CLOSE_STATUS_PROTOCOL_ERR & 0xff;
	}
	pss->peer_closed = true;
	if (code == LWS_CLOSE_STATUS_NORMAL)
		pss->leaving = true;
	return session_answer_close(pss, in, len);
}

/* The connection is gone: give up the seat and free what it held. */
static void session_closed(struct server *srv,
			   struct per_session_data__gomoku *pss)
{
	if (!pss->wsi)
		return; /* refused before ESTABLISHED: never opened */
	frame_check_forget(lws_get_socket_fd(pss->wsi));
	/*
	 * Closed by the server while the client may still be sending (a
	 * flood, a message too large): read what still comes, so that no
	 * reset destroys the close frame. Not at shutdown, when the process
	 * is about to exit.
	 */
	if (!pss->peer_closed && !pss->aborted && !srv->shutting_down)
		drain_start(srv->drain, lws_get_socket_fd(pss->wsi));
	/* Shutting down, the seat stays: the game resumes after a restart. */
	if (pss->player)
		hub_disconnect(&srv->hub, pss->player, pss->leaving);
	if (pss->ticket && srv->cluster)
		cluster_leave(srv->cluster, pss->ticket, pss->leaving);
	pss->ticket = NULL;
	if (pss->spectator)
		hub_unwatch(&srv->hub, pss->spectator);
	pss->spectator = NULL;
	admission_invite_done(srv->admission, pss->invite_entry);
	pss->invite_entry = NULL;
	if (pss->uid[0])
		log_info("disconnect uid=" LOG_ID " peer=%s%s",
			 LOG_ID_ARG(pss->uid), pss->peer,
			 pss->leaving ? " (left)" : "");
	pss->player = NULL;
	outqueue_release(&pss->out);
	lws_dll2_remove(&pss->unflushed);
	lws_dll2_remove(&pss->ping_wait);
	free(pss->rx);
	pss->rx = NULL;
	lws_dll2_remove(&pss->node);
	journal_unhold(&pss->hold);
	admission_forwarded_done(srv->admission, pss->peer_entry);
	pss->peer_entry = NULL;
	pss->peer = "?"; /* the entry may be gone */
	srv->metrics.connections--;
}

static int session_callback(struct lws *wsi, enum lws_callback_reasons reason,
			    void *user, void *in, size_t len)
{
	struct per_session_data__gomoku *pss = user;
	struct server *srv = server_of(wsi);

	switch (reason) {
	case LWS_CALLBACK_PROTOCOL_INIT:
		srv->sessions = lws_protocol_vh_priv_zalloc(
			lws_get_vhost(wsi), lws_get_protocol(wsi),
			sizeof(struct per_vhost_data__gomoku));
		return srv->sessions ? 0 : -1;
	case LWS_CALLBACK_PROTOCOL_DESTROY:
		srv->sessions = NULL; /* lws frees it with the vhost */
		return 0;
	case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
		if (srv->shutting_down)
			return 1;
		return admission_accept(srv->admission, (int)(lws_intptr_t)in);
	case LWS_CALLBACK_WSI_CREATE:
		admission_wsi_created(srv->admission, wsi);
		return 0;
	case LWS_CALLBACK_WSI_DESTROY:
		admission_wsi_destroyed(srv->admission, wsi);
		return 0;
	case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
		return srv->shutting_down || !handshake_is_websocket(wsi);
	case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
		return !handshake_acceptable(wsi);
	case LWS_CALLBACK_ESTABLISHED:
		return session_open(srv, pss, wsi);
	case LWS_CALLBACK_RECEIVE:
		return session_receive(srv, pss, in, len);
	case LWS_CALLBACK_SERVER_WRITEABLE:
		return session_writeable(srv, pss);
	case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
		return session_peer_closed(pss, in, len);
	case LWS_CALLBACK_RECEIVE_PONG:
		if (frame_check_broken(lws_get_socket_fd(wsi)))
			return session_protocol_error(pss, "unmasked frame");
		session_seen(srv, pss);
		return 0;
	case LWS_CALLBACK_TIMER:
		return -1; /* session_start_close() */
	case LWS_CALLBACK_CLOSED:
		session_closed(srv, pss);
		return 0;
	default:
		return lws_callback_http_dummy(wsi, reason, user, in, len);
	}
}

const struct lws_protocols session_protocol = {
	.name = SESSION_PROTOCOL_NAME,
	.callback = session_callback,
	.per_session_data_size = sizeof(struct per_session_data__gomoku),
	.rx_buffer_size = SESSION_RX_CHUNK,
	.tx_packet_size = SESSION_TX_CHUNK,
};
