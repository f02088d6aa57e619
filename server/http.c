/*
 * http.c - the "gomoku-http" protocol: routes, whole answers, the body
 * deadline.
 */
#include "http.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "files.h"
#include "http_answer.h"
#include "frame_check.h"
#include "drain.h"
#include "query.h"
#include "log.h"
#include "ops_http.h"
#include "server.h"

#define HTTP_HEADERS_MAX 2048 /* status line and headers of an answer */
#define HTTP_PATH_MAX 4097    /* as long as a header can be */

/* One of these per HTTP request (lws rebinds the connection after it). */
struct per_session_data__http {
	bool drain;   /* closed with its request's body unread */
	bool sending; /* lws holds part of the answer: reading paused */
};

/* One of these per vhost: what the routes need. */
struct per_vhost_data__http {
	struct server *srv;
	struct files files; /* the web client's */
};

/* A path and who answers it. */
struct http_route {
	const char *path; /* exact; a prefix when it ends with '/' */
	int (*answer)(struct server *srv, const struct http_query *query,
		      struct http_answer *answer);
};

/* Every path not in the table is a file of the web client. */
static const struct http_route http_routes[] = {
	{ "/healthz", ops_http_healthz }, { "/metrics", ops_http_metrics },
	{ "/api/pools", ops_http_pools }, { "/api/rooms", ops_http_rooms },
	{ "/api/games", ops_http_games }, { "/api/games/", ops_http_game },
};

/* The route of path, or NULL for the files. */
static const struct http_route *http_route_of(const char *path)
{
	for (size_t i = 0; i < sizeof(http_routes) / sizeof(*http_routes);
	     i++) {
		const char *route = http_routes[i].path;
		size_t len = strlen(route);

		if (route[len - 1] == '/' ? !strncmp(path, route, len) :
					    !strcmp(path, route))
			return &http_routes[i];
	}
	return NULL;
}

/*
 * True when the request carries a body. The server takes none (only GET
 * and HEAD): such a request is answered and its connection closed at
 * once, lingering (server/drain.c) while the rest of the body comes, so
 * that a body that drips in never holds a connection.
 */
static bool http_has_body(struct lws *wsi)
{
	char length[24];

	if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0)
		return true;
	return lws_hdr_copy(wsi, length, sizeof(length),
			    WSI_TOKEN_HTTP_CONTENT_LENGTH) > 0 &&
	       strtoull(length, NULL, 10) > 0;
}

/*
 * Writes answer (its headers only for HEAD) in one go and ends the
 * transaction (once lws has sent it all), or with close the connection:
 * what LWS_CALLBACK_HTTP returns, 0 or -1 to close.
 */
/*
 * Whether the request's Accept-Encoding takes gzip: the token gzip (any
 * case), unless its q is 0.
 */
static bool http_accepts_gzip(struct lws *wsi)
{
	char value[256];
	char *item, *rest;

	if (lws_hdr_copy(wsi, value, sizeof(value),
			 WSI_TOKEN_HTTP_ACCEPT_ENCODING) <= 0)
		return false;
	for (item = strtok_r(value, ",", &rest); item;
	     item = strtok_r(NULL, ",", &rest)) {
		char *q;

		item += strspn(item, " \t");
		if (strncasecmp(item, "gzip", 4) || (item[4] && item[4] != ';' &&
						     item[4] != ' '))
			continue;
		q = strstr(item, "q=");
		return !q || strtod(q + 2, NULL) > 0;
	}
	return false;
}

static int http_send(struct per_session_data__http *pss, struct lws *wsi,
		     const struct http_answer *answer, bool head, bool close)
{
	static const char connection_close[] = "close";
	size_t body = head || answer->status == HTTP_STATUS_NOT_MODIFIED ?
			      0 :
			      answer->len;
	unsigned char *buf = malloc(LWS_PRE + HTTP_HEADERS_MAX + body);
	unsigned char *start, *p, *end;
	char length[24];
	size_t total;
	int n;

	if (!buf)
		return -1;
	start = p = buf + LWS_PRE;
	end = start + HTTP_HEADERS_MAX;
	n = snprintf(length, sizeof(length), "%zu", answer->len);
	if (lws_add_http_header_status(wsi, answer->status, &p, end) ||
	    (answer->mime && lws_add_http_header_by_token(
				     wsi, WSI_TOKEN_HTTP_CONTENT_TYPE,
				     (const unsigned char *)answer->mime,
				     (int)strlen(answer->mime), &p, end)) ||
	    (answer->status != HTTP_STATUS_NOT_MODIFIED &&
	     lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH,
					  (const unsigned char *)length, n, &p,
					  end)) ||
	    (answer->cache && lws_add_http_header_by_token(
				      wsi, WSI_TOKEN_HTTP_CACHE_CONTROL,
				      (const unsigned char *)answer->cache,
				      (int)strlen(answer->cache), &p, end)) ||
	    (answer->etag[0] && lws_add_http_header_by_token(
					wsi, WSI_TOKEN_HTTP_ETAG,
					(const unsigned char *)answer->etag,
					(int)strlen(answer->etag), &p, end)) ||
	    (answer->encoding &&
	     answer->status != HTTP_STATUS_NOT_MODIFIED &&
	     lws_add_http_header_by_token(
		     wsi, WSI_TOKEN_HTTP_CONTENT_ENCODING,
		     (const unsigned char *)answer->encoding,
		     (int)strlen(answer->encoding), &p, end)) ||
	    (answer->vary &&
	     lws_add_http_header_by_name(wsi, (const unsigned char *)"vary:",
					 (const unsigned char *)answer->vary,
					 (int)strlen(answer->vary), &p, end)) ||
	    (close && lws_add_http_header_by_token(
			      wsi, WSI_TOKEN_CONNECTION,
			      (const unsigned char *)connection_close,
			      (int)sizeof(connection_close) - 1, &p, end)) ||
	    lws_finalize_http_header(wsi, &p, end)) {
		free(buf);
		return -1;
	}
	if (body)
		memcpy(p, answer->body, body);
	total = (size_t)(p - start) + body;
	/* One write; lws keeps what the socket did not take, and sends it. */
	n = lws_write(wsi, start, total, LWS_WRITE_HTTP);
	free(buf);
	if (n != (int)total || close)
		return -1;
	if (lws_partial_buffered(wsi)) {
		/*
		 * The transaction ends once lws has sent the rest (in
		 * HTTP_WRITEABLE); meanwhile it must not read the next
		 * request, or it answers it in the middle of this one.
		 */
		pss->sending = true;
		lws_rx_flow_control(wsi, 0);
		lws_callback_on_writable(wsi);
		return 0;
	}
	return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* The rest of a partly sent answer went out: end its transaction. */
static int http_sent(struct per_session_data__http *pss, struct lws *wsi)
{
	if (lws_partial_buffered(wsi)) {
		lws_callback_on_writable(wsi);
		return 0;
	}
	pss->sending = false;
	lws_rx_flow_control(wsi, 1);
	return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* ?limit=N: N (1..100000), -1 when absent, 0 when not such a number. */
static int http_read_limit(struct lws *wsi)
{
	char value[8], *end;
	long limit;
	int len = query_arg(wsi, "limit", value, sizeof(value));

	if (len == -1)
		return -1;
	if (len < 0 || value[0] < '0' || value[0] > '9')
		return 0;
	limit = strtol(value, &end, 10);
	return *end || limit < 1 || limit > 100000 ? 0 : (int)limit;
}

/* One request, headers complete: route it and answer it. */
static int http_request(struct per_vhost_data__http *vhd,
			struct per_session_data__http *pss, struct lws *wsi)
{
	struct http_answer answer = { .status = 0 };
	char path[HTTP_PATH_MAX], tag[24];
	const struct http_route *route;
	bool head = false;
	int len, rc;

	pss->drain = http_has_body(wsi);
	len = lws_hdr_copy(wsi, path, sizeof(path), WSI_TOKEN_GET_URI);
	if (len <= 0) {
		len = lws_hdr_copy(wsi, path, sizeof(path), WSI_TOKEN_HEAD_URI);
		head = len > 0;
	}
	if (len <= 0 || path[0] != '/') {
		rc = http_answer_text(&answer, HTTP_STATUS_METHOD_NOT_ALLOWED,
				      "text/plain",
				      "only GET and HEAD are supported\n");
	} else if ((route = http_route_of(path))) {
		struct http_query query = { path, http_read_limit(wsi) };

		rc = route->answer(vhd->srv, &query, &answer);
	} else {
		rc = files_answer(&vhd->files, path,
				  lws_hdr_copy(wsi, tag, sizeof(tag),
					       WSI_TOKEN_HTTP_IF_NONE_MATCH) >
						  0 ?
					  tag :
					  NULL,
				  http_accepts_gzip(wsi), &answer);
	}
	rc = rc ? -1 : http_send(pss, wsi, &answer, head, pss->drain);
	free(answer.body);
	return rc;
}

static int http_callback(struct lws *wsi, enum lws_callback_reasons reason,
			 void *user, void *in, size_t len)
{
	struct per_vhost_data__http *vhd = lws_protocol_vh_priv_get(
		lws_get_vhost(wsi), lws_get_protocol(wsi));
	struct per_session_data__http *pss = user;
	struct server *srv;
	char err[256];

	switch (reason) {
	case LWS_CALLBACK_PROTOCOL_INIT:
		srv = lws_context_user(lws_get_context(wsi));
		vhd = lws_protocol_vh_priv_zalloc(lws_get_vhost(wsi),
						  lws_get_protocol(wsi),
						  sizeof(*vhd));
		if (!vhd)
			return -1;
		vhd->srv = srv;
		if (files_init(&vhd->files, srv->config.web_root, err,
			       sizeof(err))) {
			log_error("%s", err);
			return -1;
		}
		return 0;
	case LWS_CALLBACK_PROTOCOL_DESTROY:
		if (vhd)
			files_release(&vhd->files);
		break;
	case LWS_CALLBACK_HTTP:
		return http_request(vhd, pss, wsi);
	case LWS_CALLBACK_HTTP_WRITEABLE:
		if (pss && pss->sending)
			return http_sent(pss, wsi);
		break;
	case LWS_CALLBACK_CLOSED_HTTP:
		frame_check_forget(lws_get_socket_fd(wsi));
		if (pss && pss->drain)
			drain_start(vhd->srv->drain, lws_get_socket_fd(wsi));
		break;
	default:
		break;
	}
	return lws_callback_http_dummy(wsi, reason, user, in, len);
}

const struct lws_protocols http_protocol = {
	.name = HTTP_PROTOCOL_NAME,
	.callback = http_callback,
	.per_session_data_size = sizeof(struct per_session_data__http),
	/* lws cuts a write to this: let one answer go in one piece */
	.tx_packet_size = HTTP_HEADERS_MAX + FILES_MAX_BYTES,
};
