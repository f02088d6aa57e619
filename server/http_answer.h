/*
 * http_answer.h - what one plain HTTP request is answered: status,
 * headers and a body, filled by whoever the route names (server/files.c,
 * server/ops_http.c) and written whole by server/http.c.
 */
#ifndef GOMOKU_HTTP_ANSWER_H
#define GOMOKU_HTTP_ANSWER_H

#include <libwebsockets.h> /* HTTP_STATUS_* */
#include <stddef.h>

/* What a route is asked: the path, and the query values it reads. */
struct http_query {
	const char *path; /* the request's path, without the query */
	int limit;	  /* ?limit=N: 1..100000; -1 absent, 0 bad */
};

/* One of these per request; the body belongs to it. */
struct http_answer {
	unsigned int status; /* HTTP status code */
	const char *mime;    /* Content-Type; NULL: none */
	const char *cache;   /* Cache-Control; NULL: none */
	const char *encoding; /* Content-Encoding; NULL: none */
	const char *vary;    /* Vary; NULL: none */
	char etag[20];	     /* ETag (without quotes); "": none */
	char *body;	     /* malloc'd, or NULL for none */
	size_t len;	     /* bytes of body */
};

/*
 * Makes answer a short text (a copy of text) with status: for errors.
 * 0, or -ENOMEM.
 */
int http_answer_text(struct http_answer *answer, unsigned int status,
		     const char *mime, const char *text);

#endif
