/*
 * game_ws.c - the "gomoku" WebSocket protocol callback.
 *
 * Besides the game itself this is where hostile clients are kept in check:
 * connections are counted per address at accept time, every session has a
 * token bucket for its messages, a message is reassembled only up to
 * GAME_WS_MAX_MESSAGE bytes in GAME_WS_MAX_FRAGMENTS pieces, and a client
 * that stops reading is dropped. Every message about a journalled fact is
 * held until the store has committed it.
 */
#include "game_ws.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <uuid/uuid.h>

#include "ai.h"
#include "frame_check.h"
#include "log.h"
#include "outqueue.h"
#include "protocol.h"

/* The longest query fragment the header parser can hold, plus one. */
#define QUERY_FRAGMENT_MAX 4097

/* One of these per WebSocket connection. */
struct per_session_data__gomoku {
	struct lws *wsi;	     /* this connection; NULL until opened */
	struct lws_dll2 node;	     /* in server->sessions */
	struct lws_dll2 held_node;   /* in server->held while a message
				      * waits for a commit */
	struct lobby_player *player; /* the seat; NULL when refused or
				      * taken over by a newer connection */
	struct peer *peer_entry;     /* X-Forwarded-For address count */
	struct outqueue out;	     /* messages waiting for WRITEABLE */
	char *rx;		     /* a message arriving in pieces */
	size_t rx_len;		     /* bytes of it so far */
	unsigned int rx_pieces;	     /* pieces of it so far */
	unsigned int rx_frames;	     /* whole frames of it so far */
	bool rx_binary;		     /* it came in binary frames */
	bool leaving;		     /* the client closed with 1000 */
	bool peer_closed;	     /* the client sent a close frame */
	bool aborted;		     /* dropped for not reading */
	bool unavailable_due;	     /* write `unavailable` before the queue */
	bool compact;		     /* updates=move: boards without content */
	double tokens;		     /* rate limit: messages it may send */
	uint64_t tokens_ms;	     /* when tokens was last topped up */
	unsigned int rate_strikes;   /* messages refused in a row */
	uint64_t seen_ms;	     /* loop time of its last frame */
	bool ping_due;		     /* write a ping at the next WRITEABLE */
	bool pinged;		     /* a ping went out since seen_ms */
	bool hung_up;		     /* dropped as idle */
	int close_code;		     /* close with this once out drains */
	const char *close_reason;    /* static text for close_code */
	char uid[UID_LEN + 1];	     /* the player's uid, for logs */
	char peer[PEER_ADDRESS_MAX]; /* client address, for logs */
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
 * Encodes ev for a client that wants compact boards or not, into a shared
 * buffer the caller owns a reference of. The board and winner messages
 * both players of a room get are encoded once per lobby step: they are
 * kept in srv->encoded until game_ws_lobby_done(). NULL on out of memory.
 */
static struct outbuf *session_encode(struct server *srv, const struct event *ev,
				     bool compact)
{
	bool shared = ev->type == EVENT_BOARD || ev->type == EVENT_WINNER;
	struct outbuf *buf;
	size_t len;
	char *text;

	compact = compact && ev->type == EVENT_BOARD && !ev->resume &&
		  !ev->undo;
	for (unsigned int i = 0; shared && i < srv->encoded_count; i++) {
		struct encoded_msg *slot = &srv->encoded[i];

		if (slot->type == ev->type && slot->game == ev->game &&
		    slot->moves == ev->game->moves_played &&
		    slot->undo == ev->undo && slot->compact == compact) {
			slot->buf->refs++;
			return slot->buf;
		}
	}
	if (ev->type == EVENT_BOARD) {
		buf = outbuf_new(compact ? OUTBUF_SMALL :
					   PROTOCOL_BOARD_TEXT_MAX(
						   ev->game->board.size));
		if (!buf)
			return NULL;
		buf->len = ev->undo ?
				   protocol_write_undo(ev->game, ev->undo_cell,
						       ev->undo_role,
						       outbuf_payload(buf),
						       buf->cap + 1) :
				   protocol_write_board(ev->game, !compact,
							outbuf_payload(buf),
							buf->cap + 1);
	} else {
		text = protocol_encode(ev, 0, &len);
		if (!text)
			return NULL;
		buf = outbuf_new(len);
		if (buf) {
			memcpy(outbuf_payload(buf), text, len);
			buf->len = len;
		}
		free(text);
		if (!buf)
			return NULL;
	}
	if (shared && srv->encoded_count < SERVER_ENCODE_CACHE) {
		srv->encoded[srv->encoded_count++] = (struct encoded_msg){
			.type = ev->type,
			.game = ev->game,
			.moves = ev->game->moves_played,
			.undo = ev->undo,
			.compact = compact,
			.buf = buf,
		};
		buf->refs++;
	}
	return buf;
}

void game_ws_lobby_done(struct server *srv)
{
	while (srv->encoded_count)
		outbuf_put(srv->encoded[--srv->encoded_count].buf);
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
	log_warn("dropping uid=%.8s peer=%s: it does not read (%zu bytes "
		 "queued)",
		 pss->uid, pss->peer, pss->out.cost);
	pss->aborted = true;
	pss->close_code = LWS_CLOSE_STATUS_POLICY_VIOLATION;
	pss->close_reason = "not reading";
	srv->metrics.slow_drops++;
	outqueue_release(&pss->out);
	lws_dll2_remove(&pss->held_node);
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

/* Encodes ev and queues it; drops a session that stopped reading. */
static void session_queue(struct server *srv,
			  struct per_session_data__gomoku *pss,
			  const struct event *ev)
{
	uint64_t batch = 0;
	struct outbuf *buf;

	if (pss->close_code)
		return;
	if (ev->type == EVENT_ERROR && ev->code == ERR_UNAVAILABLE) {
		session_tell_unavailable(srv, pss);
		return;
	}
	buf = session_encode(srv, ev, pss->compact);
	if (!buf) {
		log_error("out of memory encoding a message for uid=%.8s",
			  pss->uid);
		session_close_after_flush(pss,
					  LWS_CLOSE_STATUS_UNEXPECTED_CONDITION,
					  "out of memory");
		return;
	}
	if (pss->out.cost + outbuf_cost(buf) > GAME_WS_MAX_QUEUED) {
		outbuf_put(buf);
		session_abort(srv, pss);
		return;
	}
	/* What the open batch journals is told only once it is durable. */
	if (srv->store && store_batch_pending(srv->store))
		batch = srv->batches_committed + 1;
	if (outqueue_push(&pss->out, buf, batch)) {
		outbuf_put(buf);
		session_close_after_flush(pss,
					  LWS_CLOSE_STATUS_UNEXPECTED_CONDITION,
					  "out of memory");
		return;
	}
	outbuf_put(buf);
	if (ev->type == EVENT_ERROR)
		srv->metrics.errors[ev->code]++;
	if (batch) {
		if (lws_dll2_is_detached(&pss->held_node))
			lws_dll2_add_tail(&pss->held_node, &srv->held);
		return;
	}
	lws_callback_on_writable(pss->wsi);
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

void game_ws_sink_send(void *ctx, void *conn, const struct event *ev)
{
	struct per_session_data__gomoku *pss = conn;
	struct server *srv = ctx;

	if (ev->type == EVENT_REPLACED) {
		log_info("replaced uid=%.8s peer=%s", pss->uid, pss->peer);
		pss->player = NULL;
		session_close_after_flush(pss, 4001, "replaced");
		return;
	}
	session_queue(srv, pss, ev);
}

void game_ws_close_broken(void)
{
	struct per_session_data__gomoku *pss;

	while ((pss = frame_check_next_broken()))
		session_close_after_flush(pss, LWS_CLOSE_STATUS_PROTOCOL_ERR,
					  "unmasked frame");
}

/* The journal timer only wakes the loop: its prepare handle commits. */
static void game_ws_journal_retry(uv_timer_t *timer)
{
	(void)timer;
}

/*
 * The store could not commit: nothing held is told, every game waits
 * (lobby_pause()), the players whose messages wait are told why, and
 * the commit is tried again in a second.
 */
static void game_ws_journal_failed(struct server *srv)
{
	srv->metrics.store_errors++;
	srv->journal_retry_ms = uv_now(&srv->loop) + GAME_WS_JOURNAL_RETRY_MS;
	uv_timer_start(&srv->journal_timer, game_ws_journal_retry,
		       GAME_WS_JOURNAL_RETRY_MS, 0);
	if (srv->lobby.paused)
		return;
	lobby_pause(&srv->lobby, true);
	lws_start_foreach_dll(struct lws_dll2 *, d,
			      lws_dll2_get_head(&srv->held)) {
		struct per_session_data__gomoku *pss = lws_container_of(
			d, struct per_session_data__gomoku, held_node);

		session_tell_unavailable(srv, pss);
	}
	lws_end_foreach_dll(d);
}

void game_ws_commit(struct server *srv)
{
	if (!srv->store || !store_batch_pending(srv->store))
		return;
	if (store_failing(srv->store) &&
	    uv_now(&srv->loop) < srv->journal_retry_ms)
		return; /* the journal timer comes back for it */
	if (store_commit(srv->store)) {
		game_ws_journal_failed(srv);
		return;
	}
	if (srv->lobby.paused)
		lobby_pause(&srv->lobby, false);
	srv->batches_committed++;
	srv->metrics.store_commits++;
	lws_start_foreach_dll_safe(struct lws_dll2 *, d, d1,
				   lws_dll2_get_head(&srv->held)) {
		struct per_session_data__gomoku *pss = lws_container_of(
			d, struct per_session_data__gomoku, held_node);

		lws_dll2_remove(d);
		lws_callback_on_writable(pss->wsi);
	}
	lws_end_foreach_dll_safe(d, d1);
}

void game_ws_sink_record(void *ctx, enum lobby_record type,
			 const struct lobby_room *room)
{
	struct server *srv = ctx;
	const struct game *game = &room->game;
	int err = 0;

	if (room->ai_role != ROLE_NONE) {
		/* Games against the engine are not kept in the database. */
		if (type == RECORD_ROOM_OPENED)
			log_info("engine match room=%.8s uid=%.8s level=%s",
				 room->id,
				 room->seats[role_other(room->ai_role)]->uid,
				 engine_level_name(
					 room->seats[room->ai_role]->level));
		else if (type == RECORD_ROOM_CLOSED)
			ai_room_closed(srv, room);
		return;
	}
	switch (type) {
	case RECORD_ROOM_OPENED:
		/* journalled with its first move: a game of none leaves none */
		log_info("match room=%.8s front=%.8s back=%.8s", room->id,
			 room->seats[ROLE_FRONT]->uid,
			 room->seats[ROLE_BACK]->uid);
		break;
	case RECORD_MOVE:
		if (srv->store)
			err = store_move(srv->store, room,
					 server_unix_ms() -
						 (int64_t)(server_now_ms() -
							   room->opened_ms));
		break;
	case RECORD_GAME_OVER:
		log_info("game over room=%.8s winner=%s reason=%s moves=%d",
			 room->id, game_winner_name(game->winner),
			 game_reason_name(game->reason), game->moves_played);
		if (srv->store)
			err = store_game_over(srv->store, room,
					      server_unix_ms());
		break;
	case RECORD_TAKEBACK:
		log_info("takeback room=%.8s moves=%d", room->id,
			 game->moves_played);
		if (srv->store)
			err = store_takeback(srv->store, room);
		break;
	case RECORD_ROOM_CLOSED:
		break;
	}
	if (err)
		srv->metrics.store_errors++;
}

/*
 * Keep-alive, run once a second: a session silent for --ping-interval is
 * pinged, one silent for --idle-timeout is dropped without a close frame
 * (a peer that answers nothing would not read one) from its next WRITEABLE:
 * lws timers set from outside its own callbacks wait for its next event. It is a walk over the
 * sessions rather than a timer per connection: lws keeps its timers in one
 * sorted list, so re-arming one on every pong cost O(connections) each,
 * and thousands of idle clients kept a core busy doing only that.
 */
void game_ws_sweep(struct server *srv)
{
	uint64_t now = uv_now(&srv->loop);
	uint64_t ping_ms = (uint64_t)srv->config.ping_interval * 1000;
	uint64_t idle_ms = (uint64_t)srv->config.idle_timeout * 1000;

	lws_start_foreach_dll(struct lws_dll2 *, d,
			      lws_dll2_get_head(&srv->sessions)) {
		struct per_session_data__gomoku *pss = lws_container_of(
			d, struct per_session_data__gomoku, node);
		uint64_t silent = now - pss->seen_ms;

		if (pss->hung_up || silent < ping_ms) {
			/* alive, or already on its way out */
		} else if (silent >= idle_ms) {
			log_info("idle uid=%.8s peer=%s: no answer for %llu s",
				 pss->uid, pss->peer,
				 (unsigned long long)(silent / 1000));
			pss->hung_up = true;
			srv->metrics.idle_drops++;
			lws_callback_on_writable(pss->wsi);
		} else if (!pss->pinged) {
			pss->pinged = true;
			pss->ping_due = true;
			lws_callback_on_writable(pss->wsi);
		}
	}
	lws_end_foreach_dll(d);
}

void game_ws_close_all(struct server *srv)
{
	lws_start_foreach_dll(struct lws_dll2 *, d,
			      lws_dll2_get_head(&srv->sessions)) {
		struct per_session_data__gomoku *pss = lws_container_of(
			d, struct per_session_data__gomoku, node);

		lws_callback_on_writable(pss->wsi);
	}
	lws_end_foreach_dll(d);
}

/*
 * Copies the value of query argument name ("uid") to buf. Returns its
 * length, -1 when absent, -2 when it does not fit in size - 1 bytes.
 * lws_get_urlarg_by_name() stops at the first argument too long for its
 * buffer, which would hide a later uid, so walk the fragments here.
 */
static int session_query_arg(struct lws *wsi, const char *name, char *buf,
			     size_t size)
{
	size_t name_len = strlen(name);
	char fragment[QUERY_FRAGMENT_MAX];
	int len;

	for (int i = 0;
	     (len = lws_hdr_copy_fragment(wsi, fragment, sizeof(fragment),
					  WSI_TOKEN_HTTP_URI_ARGS, i)) >= 0;
	     i++) {
		size_t value_len;

		if ((size_t)len <= name_len || fragment[name_len] != '=' ||
		    strncmp(fragment, name, name_len))
			continue;
		value_len = (size_t)len - name_len - 1;
		if (value_len >= size)
			return -2;
		memcpy(buf, fragment + name_len + 1, value_len + 1);
		return (int)value_len;
	}
	return -1;
}

/* Only "/" and "/ws" upgrade to WebSocket. */
static bool session_path_allowed(struct lws *wsi)
{
	char path[16];

	if (lws_hdr_copy(wsi, path, sizeof(path), WSI_TOKEN_GET_URI) < 0)
		return false;
	return !strcmp(path, "/") || !strcmp(path, "/ws");
}

/*
 * The client's address from the last X-Forwarded-For entry (the one our
 * proxy added). False when the header is missing or malformed.
 */
static bool session_forwarded_for(struct lws *wsi, char *out, size_t size)
{
	char header[256], *last, *end;
	unsigned char probe[sizeof(struct in6_addr)];

	if (lws_hdr_copy(wsi, header, sizeof(header),
			 WSI_TOKEN_X_FORWARDED_FOR) <= 0)
		return false;
	last = strrchr(header, ',');
	last = last ? last + 1 : header;
	while (*last == ' ')
		last++;
	end = last + strlen(last);
	while (end > last && end[-1] == ' ')
		*--end = '\0';
	if (!*last || strlen(last) >= size ||
	    (inet_pton(AF_INET, last, probe) != 1 &&
	     inet_pton(AF_INET6, last, probe) != 1))
		return false;
	memcpy(out, last, strlen(last) + 1);
	return true;
}

/*
 * The upgrade request, headers complete: only the game paths, and only a
 * well-formed RFC 6455 handshake (lws itself lets a malformed key or a
 * missing or other version through). Returns non-zero to refuse it.
 */
static int session_filter(struct lws *wsi)
{
	char key[32], version[8];
	int key_len;

	if (!session_path_allowed(wsi))
		return 1;
	key_len = lws_hdr_copy(wsi, key, sizeof(key), WSI_TOKEN_KEY);
	/* 16 random bytes in base64: 22 characters and "==". */
	if (key_len != 24 ||
	    strspn(key, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"abcdefghijklmnopqrstuvwxyz"
			"0123456789+/") != 22 ||
	    strcmp(key + 22, "=="))
		return 1;
	if (lws_hdr_copy(wsi, version, sizeof(version), WSI_TOKEN_VERSION) <=
		    0 ||
	    strcmp(version, "13"))
		return 1;
	return 0;
}

/*
 * Only a WebSocket upgrade: lws 4.1 would also answer h2c (HTTP/2 over
 * cleartext) with 101. CVE-2025-11677: the callback's `in` must not be
 * touched, so the header is read again here.
 */
static int session_confirm_upgrade(struct server *srv, struct lws *wsi)
{
	char upgrade[16];

	if (srv->shutting_down)
		return 1;
	if (lws_hdr_copy(wsi, upgrade, sizeof(upgrade), WSI_TOKEN_UPGRADE) <= 0)
		return 1;
	return strcasecmp(upgrade, "websocket") != 0;
}

/*
 * Behind a trusted proxy: the client's address is the last X-Forwarded-For
 * entry, and the per-address limit applies to it here, once the session
 * is open (where its close is sure to be seen). False when over.
 */
static bool session_count_forwarded(struct server *srv,
				    struct per_session_data__gomoku *pss,
				    struct lws *wsi)
{
	if (!srv->config.trust_proxy ||
	    !session_forwarded_for(wsi, pss->peer, sizeof(pss->peer)))
		return true; /* not forwarded: its socket was counted */
	pss->peer_entry = peers_get(&srv->peers, pss->peer,
				    (unsigned int)srv->config.max_per_ip);
	if (pss->peer_entry)
		return true;
	srv->metrics.refused_max_per_ip++;
	log_info("refused peer=%s: over --max-per-ip %d", pss->peer,
		 srv->config.max_per_ip);
	return false;
}

/*
 * The mode and level query arguments: online (the default) or ai, and the
 * engine's level (medium by default). False when either is not a word of
 * PROTOCOL.md.
 */
static bool session_mode(struct lws *wsi, bool *ai, enum engine_level *level)
{
	char arg[16];
	int len;

	*ai = false;
	*level = ENGINE_MEDIUM;
	len = session_query_arg(wsi, "mode", arg, sizeof(arg));
	if (len >= 0 && strcmp(arg, "online") && strcmp(arg, "ai"))
		return false;
	if (len == -2)
		return false;
	*ai = len >= 0 && !strcmp(arg, "ai");
	len = session_query_arg(wsi, "level", arg, sizeof(arg));
	if (len == -2 || (len >= 0 && engine_level_parse(arg, level)))
		return false;
	return true;
}

/* A new connection: read its identity, greet it and seat it. */
static int session_open(struct server *srv,
			struct per_session_data__gomoku *pss, struct lws *wsi)
{
	char uid_arg[UID_LEN + 2], name_arg[NAME_MAX_BYTES + 2];
	char name[NAME_MAX_BYTES + 1] = "";
	enum engine_level level;
	struct event welcome;
	bool ai;
	int len;

	pss->wsi = wsi;
	outqueue_init(&pss->out);
	lws_dll2_add_tail(&pss->node, &srv->sessions);
	srv->metrics.connections++;
	lws_get_peer_simple(wsi, pss->peer, sizeof(pss->peer));
	pss->tokens = srv->config.rate_burst;
	pss->tokens_ms = server_now_ms();
	pss->seen_ms = uv_now(&srv->loop);

	if (srv->shutting_down) {
		lws_callback_on_writable(wsi);
		return 0;
	}
	if (!frame_check_upgraded(lws_get_socket_fd(wsi), pss)) {
		/* RFC 6455 4.1: nothing before the handshake is answered */
		log_info(
			"refused peer=%s: data before the upgrade was answered",
			pss->peer);
		session_close_after_flush(pss, LWS_CLOSE_STATUS_PROTOCOL_ERR,
					  "data before the handshake");
		return 0;
	}
	if (!session_count_forwarded(srv, pss, wsi)) {
		session_close_after_flush(pss,
					  LWS_CLOSE_STATUS_POLICY_VIOLATION,
					  "too many connections");
		return 0;
	}

	len = session_query_arg(wsi, "uid", uid_arg, sizeof(uid_arg));
	if (len == -1) {
		uuid_t bytes;

		uuid_generate_random(bytes);
		uuid_unparse_lower(bytes, pss->uid);
	} else if (len < 0 || !identity_check_uid(uid_arg, pss->uid)) {
		log_info("refused peer=%s: malformed uid", pss->peer);
		session_send_error(srv, pss, ERR_BAD_UID,
				   "uid must be a UUID in 8-4-4-4-12 form");
		session_close_after_flush(
			pss, LWS_CLOSE_STATUS_POLICY_VIOLATION, "bad uid");
		return 0;
	}

	/* updates=move: board messages without content (the hot path). */
	if (session_query_arg(wsi, "updates", name_arg, sizeof(name_arg)) > 0 &&
	    !strcmp(name_arg, "move"))
		pss->compact = true;

	len = session_query_arg(wsi, "name", name_arg, sizeof(name_arg));
	if (len == -2 || (len >= 0 && !identity_check_name(name_arg, name))) {
		log_info("refused uid=%.8s peer=%s: bad name", pss->uid,
			 pss->peer);
		session_send_error(srv, pss, ERR_BAD_NAME,
				   "name must be 1 to 20 printable characters");
		session_close_after_flush(
			pss, LWS_CLOSE_STATUS_POLICY_VIOLATION, "bad name");
		return 0;
	}

	if (!session_mode(wsi, &ai, &level)) {
		log_info("refused uid=%.8s peer=%s: bad mode", pss->uid,
			 pss->peer);
		session_send_error(
			srv, pss, ERR_BAD_MODE,
			"mode must be online or ai, level easy, medium or hard");
		session_close_after_flush(
			pss, LWS_CLOSE_STATUS_POLICY_VIOLATION, "bad mode");
		return 0;
	}

	welcome = (struct event){
		.type = EVENT_WELCOME,
		.uid = pss->uid,
		.version = GOMOKU_VERSION,
		.size = srv->config.board_size,
		.rule = srv->config.rule,
	};
	session_queue(srv, pss, &welcome);
	log_info("connect uid=%.8s peer=%s", pss->uid, pss->peer);

	if (ai)
		pss->player = lobby_connect_ai(&srv->lobby, pss->uid, name, pss,
					       level, server_now_ms());
	else
		pss->player = lobby_connect(&srv->lobby, pss->uid, name, pss,
					    server_now_ms());
	game_ws_lobby_done(srv);
	if (srv->config.ai_fill_after)
		server_schedule_tick(srv); /* a fill deadline from now */
	if (!pss->player) {
		log_error("out of memory seating uid=%.8s", pss->uid);
		session_close_after_flush(pss,
					  LWS_CLOSE_STATUS_UNEXPECTED_CONDITION,
					  "out of memory");
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
	uint64_t now = server_now_ms();
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
		log_info("closing uid=%.8s peer=%s: over the message rate",
			 pss->uid, pss->peer);
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
	if (!pss->player || pss->close_code || srv->shutting_down)
		return; /* refused, replaced or closing; or the server is */
	if (!session_rate_allows(srv, pss))
		return;
	if (pss->rx_binary) {
		session_send_error(
			srv, pss, ERR_BAD_JSON,
			"binary frames are not accepted: send JSON text");
		return;
	}
	code = protocol_parse(text, len, srv->config.board_size, &req,
			      &message);
	if (code != ERR_NONE) {
		session_send_error(srv, pss, code, message);
		return;
	}
	lobby_request(&srv->lobby, pss->player, &req, server_now_ms());
	game_ws_lobby_done(srv);
}

/* Refuses a message that grew too large: close 1009. */
static int session_too_large(struct server *srv,
			     struct per_session_data__gomoku *pss,
			     const char *why)
{
	srv->metrics.errors[ERR_TOO_LARGE]++;
	log_info("closing uid=%.8s: %s", pss->uid, why);
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
}

/* Refuses a connection that broke RFC 6455: close 1002. */
static int session_protocol_error(struct per_session_data__gomoku *pss,
				  const char *why)
{
	log_info("closing uid=%.8s peer=%s: %s", pss->uid, pss->peer, why);
	lws_close_reason(pss->wsi, LWS_CLOSE_STATUS_PROTOCOL_ERR,
			 (unsigned char *)why, strlen(why));
	return -1;
}

/*
 * A piece of a message: lws hands a frame over in as many pieces as its
 * bytes arrived in. Messages in one piece (almost all) are handled in
 * place; others are collected up to GAME_WS_MAX_MESSAGE bytes in at most
 * GAME_WS_MAX_FRAGMENTS frames (a piece that ends a frame counts one).
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
	if (pss->rx_len + len > GAME_WS_MAX_MESSAGE)
		return session_too_large(srv, pss, "message over 16 KiB");
	if (complete && !pss->rx_pieces) {
		session_handle_message(srv, pss, in, len);
		return 0;
	}
	pss->rx_pieces++;
	if (frame_ends && ++pss->rx_frames > GAME_WS_MAX_FRAGMENTS)
		return session_too_large(srv, pss,
					 "message in too many frames");
	if (len) {
		grown = realloc(pss->rx, pss->rx_len + len);
		if (!grown)
			return -1;
		pss->rx = grown;
		memcpy(pss->rx + pss->rx_len, in, len);
		pss->rx_len += len;
	}
	if (complete) {
		session_handle_message(srv, pss, pss->rx ? pss->rx : "",
				       pss->rx_len);
		free(pss->rx);
		pss->rx = NULL;
		pss->rx_len = 0;
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

/* Writes one queued message, or closes when asked to. */
static int session_writeable(struct server *srv,
			     struct per_session_data__gomoku *pss)
{
	struct outentry *msg;
	int written;

	if (srv->shutting_down)
		return session_start_close(pss->wsi, LWS_CLOSE_STATUS_GOINGAWAY,
					   "server shutting down");
	if (pss->hung_up || pss->aborted)
		return -1; /* silent too long, or not reading */
	if (pss->unavailable_due)
		return session_write_unavailable(srv, pss);
	if (pss->ping_due) {
		/* lws reports only pongs with a payload: the ping has one */
		unsigned char ping[LWS_PRE + 1] = { [LWS_PRE] = 'k' };

		pss->ping_due = false;
		if (lws_write(pss->wsi, ping + LWS_PRE, 1, LWS_WRITE_PING) < 1)
			return -1;
		if (outqueue_peek(&pss->out) || pss->close_code)
			lws_callback_on_writable(pss->wsi);
		return 0;
	}
	msg = outqueue_peek(&pss->out);
	if (msg && msg->batch > srv->batches_committed)
		return 0; /* held: game_ws_commit() asks again */
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

/* The connection is gone: give up the seat and free what it held. */
static void session_closed(struct server *srv,
			   struct per_session_data__gomoku *pss)
{
	struct lobby_player *player = pss->player;

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
	if (player && !srv->shutting_down) {
		lobby_disconnect(&srv->lobby, player, pss->leaving,
				 server_now_ms());
		game_ws_lobby_done(srv);
		server_schedule_tick(srv);
	}
	if (pss->uid[0])
		log_info("disconnect uid=%.8s peer=%s%s", pss->uid, pss->peer,
			 pss->leaving ? " (left)" : "");
	pss->player = NULL;
	outqueue_release(&pss->out);
	free(pss->rx);
	pss->rx = NULL;
	lws_dll2_remove(&pss->node);
	lws_dll2_remove(&pss->held_node);
	peers_put(&srv->peers, pss->peer_entry);
	pss->peer_entry = NULL;
	srv->metrics.connections--;
}

/*
 * A TCP connection was accepted: count it in all and per address (the
 * socket's address, unless a trusted proxy forwards every client).
 * Returns non-zero to drop it at once.
 */
static int server_accept(struct server *srv, int fd)
{
	struct sockaddr_storage addr;
	socklen_t addr_len = sizeof(addr);
	char address[PEER_ADDRESS_MAX] = "?";
	unsigned int limit = srv->config.trust_proxy ?
				     0 :
				     (unsigned int)srv->config.max_per_ip;

	if (srv->accepted_peer) { /* the last one never became a wsi */
		peers_put(&srv->peers, srv->accepted_peer);
		srv->accepted_peer = NULL;
	}
	if (srv->shutting_down)
		return 1;
	if (srv->metrics.tcp_connections >=
	    (unsigned long)srv->config.max_connections) {
		srv->metrics.refused_max_total++;
		log_debug("refused a connection: over --max-connections %d",
			  srv->config.max_connections);
		return 1;
	}
	if (!getpeername(fd, (struct sockaddr *)&addr, &addr_len))
		lws_sa46_write_numeric_address((lws_sockaddr46 *)&addr, address,
					       sizeof(address));
	srv->accepted_peer = peers_get(&srv->peers, address, limit);
	if (!srv->accepted_peer) {
		srv->metrics.refused_max_per_ip++;
		log_info("refused peer=%s: over --max-per-ip %d", address,
			 srv->config.max_per_ip);
		return 1;
	}
	frame_check_accept(fd);
	return 0;
}

/*
 * Every wsi, created and destroyed: the TCP connection count. The accepted
 * connection's wsi is created right after server_accept(); lws' adopt
 * overwrites a wsi's opaque user data after this callback, so the link
 * from wsi to address lives in the peers table.
 */
static void server_wsi_created(struct server *srv, struct lws *wsi)
{
	struct peer *peer = srv->accepted_peer;

	if (!peer)
		return; /* listen socket, event pipe */
	srv->accepted_peer = NULL;
	if (peers_link(&srv->peers, wsi, peer)) {
		peers_put(&srv->peers, peer);
		return;
	}
	srv->metrics.tcp_connections++;
}

static void server_wsi_destroyed(struct server *srv, struct lws *wsi)
{
	struct peer *peer = peers_unlink(&srv->peers, wsi);

	if (!peer)
		return;
	peers_put(&srv->peers, peer);
	srv->metrics.tcp_connections--;
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
	return 0;
}

static int game_ws_callback(struct lws *wsi, enum lws_callback_reasons reason,
			    void *user, void *in, size_t len)
{
	struct per_session_data__gomoku *pss = user;
	struct server *srv = server_of(wsi);

	switch (reason) {
	case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
		return server_accept(srv, (int)(lws_intptr_t)in);
	case LWS_CALLBACK_WSI_CREATE:
		server_wsi_created(srv, wsi);
		return 0;
	case LWS_CALLBACK_WSI_DESTROY:
		server_wsi_destroyed(srv, wsi);
		return 0;
	case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
		return session_confirm_upgrade(srv, wsi);
	case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
		return session_filter(wsi);
	case LWS_CALLBACK_ESTABLISHED:
		return session_open(srv, pss, wsi);
	case LWS_CALLBACK_RECEIVE:
		return session_receive(srv, pss, in, len);
	case LWS_CALLBACK_SERVER_WRITEABLE:
		return session_writeable(srv, pss);
	case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
		return session_peer_closed(pss, in, len);
	case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
		ai_collect(srv); /* lws_cancel_service() from a search thread */
		return 0;
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

const struct lws_protocols game_ws_protocol = {
	.name = GAME_WS_PROTOCOL_NAME,
	.callback = game_ws_callback,
	.per_session_data_size = sizeof(struct per_session_data__gomoku),
	.rx_buffer_size = 4096,
};
