/*
 * conn.h - what the lobby's connection pointers (lobby_player.conn) point
 * at: a WebSocket session of this process (session.c), or a player whose
 * socket is on another instance of the site (cluster.c). Both structs
 * begin with an enum conn_kind, so that the hub's sink tells them apart.
 */
#ifndef GOMOKU_CONN_H
#define GOMOKU_CONN_H

enum conn_kind {
	CONN_SESSION = 0, /* a session here (lws zeroes its data) */
	CONN_REMOTE,	  /* a player on another instance */
};

/* The kind of conn, a pointer to one of the two. */
static inline enum conn_kind conn_kind_of(const void *conn)
{
	return *(const enum conn_kind *)conn;
}

#endif
