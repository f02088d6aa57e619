/*
 * redis_url.c - parses --redis URL: redis://[[USER]:PASSWORD@]HOST[:PORT][/DB].
 */
#include "redis_url.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REDIS_SCHEME "redis://"
#define REDIS_DEFAULT_PORT 6379
#define REDIS_DB_MAX 15

/* Copies len bytes of from into a part; -1 when they do not fit or hold a NUL. */
static int redis_url_copy(char *part, const char *from, size_t len)
{
	if (len >= REDIS_URL_PART_MAX || memchr(from, '\0', len))
		return -1;
	memcpy(part, from, len);
	part[len] = '\0';
	return 0;
}

/* A whole number of [first, end) from min to max, or -1. */
static long redis_url_number(const char *first, const char *end, long min,
			     long max)
{
	long value = 0;

	if (first == end || end - first > 5)
		return -1;
	for (const char *c = first; c < end; c++) {
		if (*c < '0' || *c > '9')
			return -1;
		value = value * 10 + (*c - '0');
	}
	return value < min || value > max ? -1 : value;
}

int redis_url_parse(const char *text, struct redis_url *url, char *why,
		    size_t why_size)
{
	const char *at, *rest, *host, *host_end, *colon, *slash, *end;

	memset(url, 0, sizeof(*url));
	url->port = REDIS_DEFAULT_PORT;
	if (strncmp(text, REDIS_SCHEME, strlen(REDIS_SCHEME)) != 0) {
		snprintf(why, why_size, "must start with " REDIS_SCHEME);
		return -1;
	}
	rest = text + strlen(REDIS_SCHEME);
	end = rest + strlen(rest);
	slash = strchr(rest, '/');
	if (!slash)
		slash = end;
	/* The last @ before the path ends the credentials. */
	at = NULL;
	for (const char *c = rest; c < slash; c++)
		if (*c == '@')
			at = c;
	if (at) {
		colon = memchr(rest, ':', (size_t)(at - rest));
		if (!colon) {
			snprintf(why, why_size,
				 "credentials must be [USER]:PASSWORD@");
			return -1;
		}
		if (redis_url_copy(url->user, rest, (size_t)(colon - rest)) ||
		    redis_url_copy(url->password, colon + 1,
				   (size_t)(at - colon - 1))) {
			snprintf(why, why_size, "user or password too long");
			return -1;
		}
		rest = at + 1;
	}
	host = rest;
	if (*host == '[') { /* [IPv6] */
		host_end = memchr(host, ']', (size_t)(slash - host));
		if (!host_end) {
			snprintf(why, why_size, "an IPv6 address needs its ]");
			return -1;
		}
		host++;
		colon = host_end + 1 < slash && host_end[1] == ':' ?
				host_end + 1 :
				NULL;
		if (host_end + 1 < slash && !colon) {
			snprintf(why, why_size, "junk after the IPv6 address");
			return -1;
		}
	} else {
		colon = memchr(host, ':', (size_t)(slash - host));
		host_end = colon ? colon : slash;
	}
	if (host_end == host ||
	    redis_url_copy(url->host, host, (size_t)(host_end - host))) {
		snprintf(why, why_size, "needs a host (at most %d bytes)",
			 REDIS_URL_PART_MAX - 1);
		return -1;
	}
	if (colon) {
		long port = redis_url_number(colon + 1, slash, 1, 65535);

		if (port < 0) {
			snprintf(why, why_size,
				 "port must be a number from 1 to 65535");
			return -1;
		}
		url->port = (int)port;
	}
	if (slash < end && slash + 1 < end) {
		long db = redis_url_number(slash + 1, end, 0, REDIS_DB_MAX);

		if (db < 0) {
			snprintf(why, why_size,
				 "database must be a number from 0 to %d",
				 REDIS_DB_MAX);
			return -1;
		}
		url->db = (int)db;
	}
	return 0;
}
