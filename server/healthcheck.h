/*
 * healthcheck.h - `gomoku-server --health-check`: ask a running server's
 * /healthz and exit 0 when it answers 200.
 *
 * For container health checks in images that have no curl or wget.
 */
#ifndef GOMOKU_HEALTHCHECK_H
#define GOMOKU_HEALTHCHECK_H

#include "config.h"

/*
 * GETs /healthz from the server config describes (its --host, or the
 * loopback address when it listens on all addresses, and its --port).
 * Returns 0 on a 200 answer within HEALTHCHECK_TIMEOUT_S seconds, else
 * prints why on stderr and returns 1.
 */
int healthcheck_run(const struct server_config *config);

#endif
