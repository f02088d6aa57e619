/*
 * log.h - the server's one-line-per-event log on stderr.
 *
 * Lines look like "2026-11-21T16:40:00Z info connect uid=1a2b3c4d ...".
 * A uid is a bearer secret: a line shows only its first LOG_ID_CHARS
 * characters, always through LOG_ID and LOG_ID_ARG():
 *
 *	log_info("connect uid=" LOG_ID " peer=%s", LOG_ID_ARG(uid), peer);
 *
 * A room id is no secret (/api/games/ID finds its game) and a line shows it
 * whole, through LOG_ROOM: the first characters of ids of rooms opened
 * about the same time are alike (identity_format_room_id()).
 */
#ifndef GOMOKU_LOG_H
#define GOMOKU_LOG_H

#define LOG_ID_CHARS 8
#define LOG_ID "%.*s" /* a uid's place in fmt */
#define LOG_ID_ARG(id) LOG_ID_CHARS, (id) /* and its arguments */
#define LOG_ROOM "%s"			  /* a room id's place in fmt */

enum log_level {
	LOG_ERROR,
	LOG_WARN,
	LOG_INFO,
	LOG_DEBUG,
};

/* Lines above this level are dropped; LOG_INFO until changed. */
void log_set_level(enum log_level level);

/* Parses "error", "warn", "info" or "debug"; -1 when unknown. */
int log_level_parse(const char *name);

/* Writes one line (fmt without the trailing newline) when level is on. */
void log_msg(enum log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define log_error(...) log_msg(LOG_ERROR, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_WARN, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)

#endif
