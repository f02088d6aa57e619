/*
 * session.h - the "gomoku" WebSocket protocol: one session per player.
 *
 * A session reads its identity from the upgrade's query
 * (server/handshake.c), gets a seat from the hub, turns each client
 * message into a hub request and queues what the hub delivers as JSON
 * messages (server/outqueue.c), written one per WRITEABLE. It keeps
 * hostile clients in check: a token bucket per session for its messages,
 * a message reassembled only up to SESSION_MAX_MESSAGE bytes in
 * SESSION_MAX_FRAGMENTS frames, a client that stops reading dropped, a
 * silent one pinged and dropped. Messages about a fact the journal has
 * not saved yet are held until it has (server/journal.c).
 *
 * It is the vhost's first protocol, so a client that names no
 * subprotocol lands here too (plain HTTP goes on to server/http.c), and
 * so does what libwebsockets tells the first protocol only: the accept
 * filter and every wsi's creation and end, handed to server/admission.c.
 */
#ifndef GOMOKU_SESSION_H
#define GOMOKU_SESSION_H

#include "server.h"

#define SESSION_PROTOCOL_NAME "gomoku"
#define SESSION_MAX_MESSAGE 16384 /* larger: close 1009 */
#define SESSION_MAX_FRAGMENTS 256 /* frames of one message; more: 1009 */
/*
 * The bytes lws reads and hands over at a time, and the receive buffer it
 * keeps for every connection: a move is under 40 bytes, a control frame at
 * most 125, and the largest message (a seed-form board of 19 x 19) about
 * 3 KiB, which then arrives in pieces. Not smaller: lws reads no more than
 * this per recv, and a refused oversized message is read to its end (in
 * 128-byte reads, 8,000 of them for 1 MiB).
 */
#define SESSION_RX_CHUNK 256
/*
 * The most lws sends in one call. Without it lws cuts every send to
 * SESSION_RX_CHUNK and keeps the rest for a WRITEABLE callback, which would
 * put a full board (any turn's batch longer than that) on the slow way.
 */
#define SESSION_TX_CHUNK (64 * 1024)
/* Memory a session's unsent messages may hold; more: it is dropped. */
#define SESSION_MAX_QUEUED (1024 * 1024)

/* The protocol's entry for the context's protocol table. */
extern const struct lws_protocols session_protocol;

/* The hub's sink (ctx: the server): queues ev on the session conn. */
void session_deliver(void *ctx, void *conn, const struct event *ev);

/*
 * What the cluster asks of the sessions (struct cluster_sessions; ctx:
 * the server): queue a message another instance encoded, take the seat
 * the cluster found here, close (the game's instance is gone).
 */
void session_relay(void *ctx, void *conn, const char *message, size_t len);
void session_seated(void *ctx, void *conn, struct lobby_player *player);
void session_close(void *ctx, void *conn, int code, const char *reason);

/*
 * Closes with 1002 the sessions whose client sent an unmasked frame that
 * no message callback saw (a ping, which lws answers itself). Called once
 * per event loop turn.
 */
void session_close_broken(void);

/*
 * Keep-alive: queues a ping for sessions silent for --ping-interval
 * (written by session_flush_all()) and drops those silent for
 * --idle-timeout. Called once a second.
 */
void session_sweep(struct server *srv);

/*
 * The end of a loop turn, after the journal's commit: writes what each
 * player's session was given during the turn (see session_flush() in
 * session.c), then, for a slice of the turn (SESSION_BACKGROUND_SLICE_US),
 * the spectators' and the keep-alive pings, oldest first. True when some
 * are left for the next turns: the loop must then not wait for I/O.
 */
bool session_flush_all(struct server *srv);

/* Shutdown: asks every session to close with 1001 "going away". */
void session_close_all(struct server *srv);

#endif
