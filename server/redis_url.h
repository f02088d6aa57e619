/*
 * redis_url.h - the Redis address an instance joins (--redis URL):
 * redis://[[USER]:PASSWORD@]HOST[:PORT][/DB], checked once at start.
 * Pure: no I/O, so a unit test reads every case.
 */
#ifndef GOMOKU_REDIS_URL_H
#define GOMOKU_REDIS_URL_H

#include <stddef.h>

#define REDIS_URL_PART_MAX 256 /* bytes of a host, user or password, with NUL */

/* A parsed URL; the caller owns it (no pointers into the input). */
struct redis_url {
	char host[REDIS_URL_PART_MAX]; /* a name, IPv4, or IPv6 without [] */
	int port;		       /* 1..65535; 6379 when not given */
	int db;			       /* 0..15; 0 when not given */
	char user[REDIS_URL_PART_MAX]; /* "" for none (AUTH password alone) */
	char password[REDIS_URL_PART_MAX]; /* "" for none (no AUTH) */
};

/*
 * Fills *url from text. 0, or -1 with one line in why (no newline) that
 * says what is wrong (the password is never repeated in it).
 */
int redis_url_parse(const char *text, struct redis_url *url, char *why,
		    size_t why_size);

#endif
