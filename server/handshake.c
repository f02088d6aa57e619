/*
 * handshake.c - the upgrade request's checks and its query, read from the
 * headers libwebsockets parsed.
 */
#include "handshake.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdlib.h>
#include <netinet/in.h>
#include <string.h>
#include <strings.h>
#include <uuid/uuid.h>

#include "query.h"

/* Only "/" and "/ws" upgrade to WebSocket. */
static bool handshake_path_allowed(struct lws *wsi)
{
	char path[16];

	if (lws_hdr_copy(wsi, path, sizeof(path), WSI_TOKEN_GET_URI) < 0)
		return false;
	return !strcmp(path, "/") || !strcmp(path, "/ws");
}

bool handshake_acceptable(struct lws *wsi)
{
	char key[32], version[8];
	int key_len;

	if (!handshake_path_allowed(wsi))
		return false;
	key_len = lws_hdr_copy(wsi, key, sizeof(key), WSI_TOKEN_KEY);
	/* 16 random bytes in base64: 22 characters and "==". */
	if (key_len != 24 ||
	    strspn(key, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"abcdefghijklmnopqrstuvwxyz"
			"0123456789+/") != 22 ||
	    strcmp(key + 22, "=="))
		return false;
	return lws_hdr_copy(wsi, version, sizeof(version), WSI_TOKEN_VERSION) >
		       0 &&
	       !strcmp(version, "13");
}

/*
 * CVE-2025-11677: the callback's `in` must not be touched, so the header
 * is read again here.
 */
bool handshake_is_websocket(struct lws *wsi)
{
	char upgrade[16];

	return lws_hdr_copy(wsi, upgrade, sizeof(upgrade), WSI_TOKEN_UPGRADE) >
		       0 &&
	       !strcasecmp(upgrade, "websocket");
}

bool handshake_forwarded_for(struct lws *wsi, char *out, size_t size)
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

/* uid: a UUID in any case, made canonical; a new one when absent. */
static bool handshake_read_uid(struct lws *wsi, char *uid)
{
	char arg[UID_LEN + 2];
	int len = query_arg(wsi, "uid", arg, sizeof(arg));
	uuid_t bytes;

	if (len == -1) {
		uuid_generate_random(bytes);
		uuid_unparse_lower(bytes, uid);
		return true;
	}
	return len >= 0 && identity_check_uid(arg, uid);
}

/* name: absent, or 1 to 20 printable characters. */
static bool handshake_read_name(struct lws *wsi, char *name)
{
	char arg[NAME_MAX_BYTES + 2];
	int len = query_arg(wsi, "name", arg, sizeof(arg));

	*name = '\0';
	return len == -1 || (len >= 0 && identity_check_name(arg, name));
}

/*
 * mode: online (the default) or ai; level: the engine's (medium by
 * default). False when either is not a word of PROTOCOL.md.
 */
static bool handshake_read_mode(struct lws *wsi, struct handshake_query *query)
{
	char arg[16];
	int len;

	query->ai = false;
	query->level = ENGINE_MEDIUM;
	len = query_arg(wsi, "mode", arg, sizeof(arg));
	if (len == -2 ||
	    (len >= 0 && strcmp(arg, "online") && strcmp(arg, "ai")))
		return false;
	query->ai = len >= 0 && !strcmp(arg, "ai");
	len = query_arg(wsi, "level", arg, sizeof(arg));
	return len != -2 &&
	       (len < 0 || !engine_level_parse(arg, &query->level));
}

/*
 * A query value as the client meant it: lws leaves %XX escapes in the
 * arguments, and a time control's "+" comes as %2B from a client that
 * escapes it (encodeURIComponent). Decodes in place; false for a bad
 * escape.
 */
static bool handshake_unescape(char *value)
{
	static const char hex[] = "0123456789abcdef";
	char *out = value;

	for (const char *in = value; *in; in++) {
		const char *hi, *lo;

		if (*in != '%') {
			*out++ = *in;
			continue;
		}
		hi = in[1] ? strchr(hex, tolower((unsigned char)in[1])) : NULL;
		lo = hi && in[2] ? strchr(hex, tolower((unsigned char)in[2])) :
				   NULL;
		if (!hi || !lo)
			return false;
		*out++ = (char)((hi - hex) << 4 | (lo - hex));
		in += 2;
	}
	*out = '\0';
	return true;
}

/*
 * size, rule and tc: the pool, each defaulting to the server's. Returns
 * the refusal of the first bad one, NULL when all are good.
 */
static const struct handshake_refusal *
handshake_read_pool(struct lws *wsi, const struct lobby_pool_key *defaults,
		    struct lobby_pool_key *pool)
{
	static const struct handshake_refusal bad_size = {
		ERR_BAD_QUERY, "size must be a whole number from 5 to 25",
		"bad size"
	};
	static const struct handshake_refusal bad_rule = {
		ERR_BAD_QUERY, "rule must be freestyle, standard or renju",
		"bad rule"
	};
	static const struct handshake_refusal bad_tc = {
		ERR_BAD_QUERY,
		"tc must be none or BASE+INC in seconds (base 10 to 10800, "
		"increment 0 to 180)",
		"bad tc"
	};
	char arg[TIME_CONTROL_TEXT_MAX + 8];
	char *end;
	long size;
	int len;

	*pool = *defaults;
	len = query_arg(wsi, "size", arg, sizeof(arg));
	if (len == -2 || len == 0)
		return &bad_size;
	if (len > 0) {
		size = strtol(arg, &end, 10);
		if (*end || arg[0] < '0' || arg[0] > '9' ||
		    size < BOARD_MIN_SIZE || size > BOARD_MAX_SIZE)
			return &bad_size;
		pool->size = (int)size;
	}
	len = query_arg(wsi, "rule", arg, sizeof(arg));
	if (len == -2 || len == 0 || (len > 0 && !rule_parse(arg, &pool->rule)))
		return &bad_rule;
	len = query_arg(wsi, "tc", arg, sizeof(arg));
	if (len == -2 || len == 0 ||
	    (len > 0 &&
	     (!handshake_unescape(arg) || !time_control_parse(arg, &pool->tc))))
		return &bad_tc;
	return NULL;
}

/*
 * invite=new or invite=CODE ("" when it is neither), and listed=1 (any
 * other value: not listed).
 */
static void handshake_read_invite(struct lws *wsi,
				  struct handshake_query *query)
{
	char arg[INVITE_LEN + 2];
	int len = query_arg(wsi, "listed", arg, sizeof(arg));

	query->listed = len == 1 && arg[0] == '1';
	len = query_arg(wsi, "invite", arg, sizeof(arg));
	query->invited = len != -1;
	query->invite[0] = '\0';
	if (len >= 0 && (!strcmp(arg, "new") || identity_check_invite(arg)))
		memcpy(query->invite, arg, (size_t)len + 1);
}

/* watch=ROOM: a spectator of ROOM (any case; "" when no UUID). */
static void handshake_read_watch(struct lws *wsi, struct handshake_query *query)
{
	char arg[UID_LEN + 2];
	int len = query_arg(wsi, "watch", arg, sizeof(arg));

	query->watch = len != -1;
	query->room[0] = '\0';
	if (len >= 0 && !identity_check_uid(arg, query->room))
		query->room[0] = '\0';
}

const struct handshake_refusal *
handshake_read_query(struct lws *wsi, const struct lobby_pool_key *defaults,
		     struct handshake_query *query)
{
	static const struct handshake_refusal bad_uid = {
		ERR_BAD_UID, "uid must be a UUID in 8-4-4-4-12 form", "bad uid"
	};
	static const struct handshake_refusal bad_name = {
		ERR_BAD_NAME, "name must be 1 to 20 printable characters",
		"bad name"
	};
	static const struct handshake_refusal bad_mode = {
		ERR_BAD_MODE,
		"mode must be online or ai, level beginner, easy, medium, "
		"hard or master",
		"bad mode"
	};
	char updates[8];

	if (!handshake_read_uid(wsi, query->uid))
		return &bad_uid;
	/* updates=move: board messages without content (the hot path). */
	query->compact = query_arg(wsi, "updates", updates, sizeof(updates)) >
				 0 &&
			 !strcmp(updates, "move");
	if (!handshake_read_name(wsi, query->name))
		return &bad_name;
	if (!handshake_read_mode(wsi, query))
		return &bad_mode;
	handshake_read_watch(wsi, query);
	handshake_read_invite(wsi, query);
	return handshake_read_pool(wsi, defaults, &query->pool);
}
