/*
 * config.h - the server's settings, from GOMOKU_* environment variables
 * and command-line flags (a flag beats its variable).
 */
#ifndef GOMOKU_CONFIG_H
#define GOMOKU_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "board.h"
#include "log.h"

/* One of these per process. Strings point into argv, environ or literals. */
struct server_config {
	const char *host;     /* address to listen on; NULL: all */
	int port;	      /* TCP port, 1..65535 */
	const char *web_root; /* directory of the web client */
	int board_size;	      /* BOARD_MIN_SIZE..BOARD_MAX_SIZE */
	enum rule rule;
	enum full_board full_board;
	int reconnect_grace; /* seconds a dropped player keeps the seat */
	enum log_level log_level;
	bool health_check; /* --health-check: probe, don't serve */
};

/* What config_parse() asks of its caller. */
enum config_result {
	CONFIG_RUN,	   /* settings are valid: start the server */
	CONFIG_EXIT_OK,	   /* --help or --version was printed */
	CONFIG_EXIT_ERROR, /* a bad value; the reason is in err */
};

/* Fills *config with the defaults. */
void config_init(struct server_config *config);

/*
 * Applies the environment, then argv. On CONFIG_EXIT_ERROR, err holds one
 * line (no newline) naming the flag or variable and why it was refused.
 * --help and --version print to stdout.
 */
enum config_result config_parse(struct server_config *config, int argc,
				char **argv, char *err, size_t err_size);

#endif
