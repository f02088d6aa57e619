/*
 * handshake.h - the WebSocket upgrade request: what it must be to be
 * taken (the game's paths, a well-formed RFC 6455 handshake, a WebSocket
 * and not h2c), and what it says: the client's forwarded address and the
 * query (uid, name, mode, level, updates, size, rule, tc; PROTOCOL.md).
 *
 * Each reads the headers of wsi while libwebsockets still has them: the
 * checks from the callbacks of the upgrade, the rest at ESTABLISHED.
 */
#ifndef GOMOKU_HANDSHAKE_H
#define GOMOKU_HANDSHAKE_H

#include <libwebsockets.h>
#include <stdbool.h>
#include <stddef.h>

#include "engine.h"
#include "identity.h"
#include "lobby.h"
#include "protocol.h"

/*
 * LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: only "/" and "/ws", and only a
 * well-formed key and version 13 (lws itself lets a malformed key or a
 * missing or other version through). True when the request may upgrade.
 */
bool handshake_acceptable(struct lws *wsi);

/*
 * LWS_CALLBACK_HTTP_CONFIRM_UPGRADE: true only for `Upgrade: websocket`
 * (lws 4.1 would also answer h2c, HTTP/2 over cleartext, with 101).
 */
bool handshake_is_websocket(struct lws *wsi);

/*
 * The client's address from the last X-Forwarded-For entry (the one a
 * trusted proxy added) into out. False when the header is missing or that
 * entry is not an IP address.
 */
bool handshake_forwarded_for(struct lws *wsi, char *out, size_t size);

/* What the query asks for. */
struct handshake_query {
	char uid[UID_LEN + 1];	       /* canonical; a new random one when
					* the query has none */
	char name[NAME_MAX_BYTES + 1]; /* display name; "" when none */
	bool ai;		       /* mode=ai: play the engine */
	enum engine_level level;       /* its level (medium by default) */
	bool compact;		       /* updates=move: boards without
					* content */
	struct lobby_pool_key pool;    /* size, rule and tc, each the
					* server's default when absent */
	char invite[INVITE_LEN + 1];   /* invite=new: "new"; invite=CODE:
					* the code ("" when malformed: no
					* such invite); absent: "" */
	bool invited;		       /* an invite parameter was given */
	bool listed;		       /* listed=1: an invite=new game is
					* listed all the same */
	bool watch;		       /* watch=ROOM: a spectator */
	char room[UID_LEN + 1];	       /* watch: the room, canonical; "" when
					* it is no UUID (no such room) */
};

/* Why a query is refused: the error, its text, the close reason. */
struct handshake_refusal {
	enum error_code code; /* ERR_BAD_UID, _NAME, _MODE or _QUERY */
	const char *message;  /* the error message's text */
	const char *reason;   /* the close frame's reason */
};

/*
 * Reads the query into *query: NULL when it is good, else why it is
 * refused. uid is read first: when only the name or mode is refused,
 * query->uid already holds the uid. defaults: the pool of a query that
 * names none of size, rule and tc.
 */
const struct handshake_refusal *
handshake_read_query(struct lws *wsi, const struct lobby_pool_key *defaults,
		     struct handshake_query *query);

#endif
