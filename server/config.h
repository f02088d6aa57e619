/*
 * config.h - the server's settings, from GOMOKU_* environment variables
 * and command-line flags (a flag beats its variable).
 */
#ifndef GOMOKU_CONFIG_H
#define GOMOKU_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "board.h"
#include "engine.h"
#include "fischer.h"
#include "log.h"
#include "redis_url.h"

/* One of these per process. Strings point into argv, environ or literals. */
struct server_config {
	const char *host;     /* address to listen on; NULL: all */
	int port;	      /* TCP port, 1..65535 */
	const char *web_root; /* directory of the web client */
	const char *db_path;  /* SQLite database of games */
	int keep_days;	      /* finished games kept; 0: for ever */
	int board_size;	      /* BOARD_MIN_SIZE..BOARD_MAX_SIZE */
	enum rule rule;
	struct time_control time_control; /* the default pool's clock */
	int first_move_timeout; /* seconds for each first move of a timed
				 * game */
	enum full_board full_board;
	int reconnect_grace;	/* seconds a dropped player keeps the seat */
	int rate_burst;		/* messages a connection may send at once */
	int rate_per_second;	/* ... and per second after that */
	int max_connections;	/* open connections in all */
	int max_per_ip;		/* ... from one address; 0: no limit */
	int max_spectators;	/* watching one room */
	int max_invites_per_ip; /* invite=new sessions from one address */
	bool trust_proxy;	/* client address from X-Forwarded-For */
	int handshake_timeout;	/* seconds to finish an HTTP request */
	int ping_interval;	/* seconds of silence before a ping */
	int idle_timeout;	/* seconds of silence before hanging up */
	int ai_threads;		/* engine worker threads */
	int ai_ms;		/* the engine's time per move */
	int ai_fill_after;	/* seconds waiting before the engine
				     * plays you; 0: never */
	enum engine_level ai_fill_level; /* ... at this level */
	const char *ai_engine;		 /* external pbrain engine; NULL: the
				     * built-in one */
	enum log_level log_level;
	bool health_check; /* --health-check: probe, don't serve */
	bool redis;	   /* --redis given: the site's Redis is redis_url */
	struct redis_url redis_url; /* its address */
	const char *instance_id;    /* --instance-id; NULL: a random one */
	int instance_lease;	    /* seconds of an instance's lease */
	bool reuse_port;	    /* share the port with other processes
				     * (SO_REUSEPORT) */
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
