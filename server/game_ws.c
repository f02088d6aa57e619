/*
 * game_ws.c - the "gomoku" WebSocket protocol callback.
 */
#include "game_ws.h"

#include <stdlib.h>
#include <string.h>
#include <uuid/uuid.h>

#include "log.h"
#include "outqueue.h"
#include "protocol.h"

/* The longest query fragment the header parser can hold, plus one. */
#define QUERY_FRAGMENT_MAX 4097

/* One of these per WebSocket connection. */
struct per_session_data__gomoku {
	struct lws *wsi;	     /* this connection */
	struct lws_dll2 node;	     /* in server->sessions */
	struct lobby_player *player; /* the seat; NULL when refused or
					 * taken over by a newer connection */
	struct outqueue out;	     /* messages waiting for WRITEABLE */
	char *rx;		     /* a message arriving in pieces */
	size_t rx_len;		     /* bytes of it so far */
	bool rx_binary;		     /* it came in binary frames */
	int close_code;		     /* close with this once out drains */
	const char *close_reason;    /* static text for close_code */
	char uid[UID_LEN + 1];	     /* the player's uid, for logs */
	char peer[64];		     /* client address, for logs */
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

/* Encodes ev and queues it; drops a session that stopped reading. */
static void session_queue(struct server *srv,
			  struct per_session_data__gomoku *pss,
			  const struct event *ev)
{
	size_t len;
	char *buf;

	if (pss->close_code)
		return;
	buf = protocol_encode(ev, LWS_PRE, &len);
	if (!buf) {
		log_error("out of memory encoding a message for uid=%.8s",
			  pss->uid);
		session_close_after_flush(pss,
					  LWS_CLOSE_STATUS_UNEXPECTED_CONDITION,
					  "out of memory");
		return;
	}
	if (pss->out.bytes + len > GAME_WS_MAX_QUEUED) {
		free(buf);
		log_warn("dropping uid=%.8s: %zu bytes unsent", pss->uid,
			 pss->out.bytes);
		session_close_after_flush(
			pss, LWS_CLOSE_STATUS_POLICY_VIOLATION, "not reading");
		return;
	}
	if (outqueue_push(&pss->out, buf, len)) {
		session_close_after_flush(pss,
					  LWS_CLOSE_STATUS_UNEXPECTED_CONDITION,
					  "out of memory");
		return;
	}
	if (ev->type == EVENT_ERROR)
		srv->metrics.errors[ev->code]++;
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

/* Number of games that ended, by any reason. */
static unsigned long lobby_games_finished(const struct lobby *lobby)
{
	unsigned long total = 0;

	for (size_t i = 0; i < sizeof(lobby->stats.games_finished) /
				       sizeof(*lobby->stats.games_finished);
	     i++)
		total += lobby->stats.games_finished[i];
	return total;
}

static void log_game_over(const struct lobby_room *room)
{
	const struct game *game = &room->game;

	log_info("game over room=%.8s winner=%s reason=%s moves=%d", room->id,
		 game_winner_name(game->winner), game_reason_name(game->reason),
		 game->moves_played);
}

/* A new connection: read its identity, greet it and seat it. */
static int session_open(struct server *srv,
			struct per_session_data__gomoku *pss, struct lws *wsi)
{
	char uid_arg[UID_LEN + 2], name_arg[NAME_MAX_BYTES + 2];
	char name[NAME_MAX_BYTES + 1] = "";
	unsigned long matches = srv->lobby.stats.matches;
	struct event welcome;
	int len;

	memset(pss, 0, sizeof(*pss));
	pss->wsi = wsi;
	outqueue_init(&pss->out);
	lws_dll2_add_tail(&pss->node, &srv->sessions);
	srv->metrics.connections++;
	lws_get_peer_simple(wsi, pss->peer, sizeof(pss->peer));

	if (srv->shutting_down) {
		lws_callback_on_writable(wsi);
		return 0;
	}

	len = session_query_arg(wsi, "uid", uid_arg, sizeof(uid_arg));
	if (len == -1) {
		uuid_t bytes;

		uuid_generate_random(bytes);
		uuid_unparse_lower(bytes, pss->uid);
	} else if (len < 0 || !protocol_check_uid(uid_arg, pss->uid)) {
		log_info("refused peer=%s: malformed uid", pss->peer);
		session_send_error(srv, pss, ERR_BAD_UID,
				   "uid must be a UUID in 8-4-4-4-12 form");
		session_close_after_flush(
			pss, LWS_CLOSE_STATUS_POLICY_VIOLATION, "bad uid");
		return 0;
	}

	len = session_query_arg(wsi, "name", name_arg, sizeof(name_arg));
	if (len == -2 || (len >= 0 && !protocol_check_name(name_arg, name))) {
		log_info("refused uid=%.8s peer=%s: bad name", pss->uid,
			 pss->peer);
		session_send_error(srv, pss, ERR_BAD_NAME,
				   "name must be 1 to 20 printable characters");
		session_close_after_flush(
			pss, LWS_CLOSE_STATUS_POLICY_VIOLATION, "bad name");
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

	pss->player = lobby_connect(&srv->lobby, pss->uid, name, pss);
	if (!pss->player) {
		log_error("out of memory seating uid=%.8s", pss->uid);
		session_close_after_flush(pss,
					  LWS_CLOSE_STATUS_UNEXPECTED_CONDITION,
					  "out of memory");
		return 0;
	}
	if (srv->lobby.stats.matches != matches) {
		const struct lobby_room *room = pss->player->room;

		log_info("match room=%.8s front=%.8s back=%.8s", room->id,
			 room->seats[ROLE_FRONT]->uid,
			 room->seats[ROLE_BACK]->uid);
	}
	return 0;
}

/* One complete client message. */
static void session_handle_message(struct server *srv,
				   struct per_session_data__gomoku *pss,
				   const char *text, size_t len)
{
	unsigned long finished = lobby_games_finished(&srv->lobby);
	const char *message;
	struct request req;
	enum error_code code;

	srv->metrics.messages_in++;
	srv->metrics.bytes_in += len;
	if (!pss->player)
		return; /* refused or replaced: closing */
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
	lobby_request(&srv->lobby, pss->player, &req);
	if (lobby_games_finished(&srv->lobby) != finished)
		log_game_over(pss->player->room);
}

/*
 * A piece of a message. Messages in one piece (almost all) are handled in
 * place; others are collected up to GAME_WS_MAX_MESSAGE.
 */
static int session_receive(struct server *srv,
			   struct per_session_data__gomoku *pss, const char *in,
			   size_t len)
{
	bool complete = lws_is_final_fragment(pss->wsi) &&
			!lws_remaining_packet_payload(pss->wsi);
	char *grown;

	if (!pss->rx_len)
		pss->rx_binary = lws_frame_is_binary(pss->wsi);
	if (pss->rx_len + len > GAME_WS_MAX_MESSAGE) {
		srv->metrics.errors[ERR_TOO_LARGE]++;
		log_info("closing uid=%.8s: message over %d bytes", pss->uid,
			 GAME_WS_MAX_MESSAGE);
		lws_close_reason(pss->wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE,
				 (unsigned char *)"too_large", 9);
		return -1;
	}
	if (complete && !pss->rx_len) {
		session_handle_message(srv, pss, in, len);
		return 0;
	}
	if (len) {
		grown = realloc(pss->rx, pss->rx_len + len);
		if (!grown)
			return -1;
		pss->rx = grown;
		memcpy(pss->rx + pss->rx_len, in, len);
		pss->rx_len += len;
	}
	if (complete) {
		session_handle_message(srv, pss, pss->rx, pss->rx_len);
		free(pss->rx);
		pss->rx = NULL;
		pss->rx_len = 0;
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

/* Writes one queued message, or closes when asked to. */
static int session_writeable(struct server *srv,
			     struct per_session_data__gomoku *pss)
{
	struct outmsg *msg;
	int written;

	if (srv->shutting_down)
		return session_start_close(pss->wsi, LWS_CLOSE_STATUS_GOINGAWAY,
					   "server shutting down");
	msg = outqueue_peek(&pss->out);
	if (!msg) {
		if (!pss->close_code)
			return 0;
		return session_start_close(pss->wsi, pss->close_code,
					   pss->close_reason);
	}
	written = lws_write(pss->wsi, (unsigned char *)msg->buf + LWS_PRE,
			    msg->len, LWS_WRITE_TEXT);
	if (written < (int)msg->len)
		return -1;
	srv->metrics.messages_out++;
	srv->metrics.bytes_out += msg->len;
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
	if (player && !srv->shutting_down) {
		struct lobby_room *room = player->room;
		bool live = room && !game_is_over(&room->game);

		lobby_disconnect(&srv->lobby, player);
		if (live)
			log_game_over(room);
	}
	if (pss->uid[0])
		log_info("disconnect uid=%.8s peer=%s", pss->uid, pss->peer);
	pss->player = NULL;
	outqueue_release(&pss->out);
	free(pss->rx);
	pss->rx = NULL;
	lws_dll2_remove(&pss->node);
	srv->metrics.connections--;
}

static int game_ws_callback(struct lws *wsi, enum lws_callback_reasons reason,
			    void *user, void *in, size_t len)
{
	struct per_session_data__gomoku *pss = user;
	struct server *srv = server_of(wsi);

	switch (reason) {
	case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
		/* CVE-2025-11677: `in` must not be touched here. */
		return srv->shutting_down;
	case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
		return !session_path_allowed(wsi);
	case LWS_CALLBACK_ESTABLISHED:
		return session_open(srv, pss, wsi);
	case LWS_CALLBACK_RECEIVE:
		return session_receive(srv, pss, in, len);
	case LWS_CALLBACK_SERVER_WRITEABLE:
		return session_writeable(srv, pss);
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
