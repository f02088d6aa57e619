/*
 * admission.h - which TCP connections the server takes: at most
 * --max-connections in all and --max-per-ip from one client address,
 * counted from accept to close; behind a trusted proxy (--trust-proxy)
 * the per-address limit applies instead to each WebSocket session's
 * forwarded address (X-Forwarded-For), counted with admission_forwarded();
 * and at most --max-invites-per-ip sessions with an open invite=new per
 * address (admission_invite()).
 *
 * The session protocol's callback hands it the accept filter and every
 * wsi's creation and destruction (libwebsockets sends those to the first
 * protocol of the vhost). On the event loop's thread only.
 */
#ifndef GOMOKU_ADMISSION_H
#define GOMOKU_ADMISSION_H

#include <libwebsockets.h>

#include "config.h"
#include "metrics.h"
#include "peers.h"

/* Opaque: one per server. */
struct admission;

/*
 * Admission by config's limits, counting open and refused connections in
 * metrics. NULL on out of memory.
 */
struct admission *admission_new(const struct server_config *config,
				struct metrics *metrics);

/* Frees it, once the last connection is gone. NULL is a no-op. */
void admission_free(struct admission *admission);

/*
 * LWS_CALLBACK_FILTER_NETWORK_CONNECTION: the accepted socket fd is
 * counted, or refused (non-zero: lws drops it at once).
 */
int admission_accept(struct admission *admission, int fd);

/*
 * LWS_CALLBACK_WSI_CREATE and _DESTROY: the connection admission_accept()
 * took is tied to its wsi, and counted until the wsi goes.
 */
void admission_wsi_created(struct admission *admission, struct lws *wsi);
void admission_wsi_destroyed(struct admission *admission, struct lws *wsi);

/*
 * The address of the socket of wsi (a connection's network wsi), as
 * admission_accept() read it, valid until the wsi is destroyed; "?" when
 * unknown.
 */
const char *admission_address(const struct admission *admission,
			      const struct lws *wsi);

/*
 * Behind a trusted proxy: counts one session from address, the entry to
 * give back with admission_forwarded_done(); NULL when address is over
 * --max-per-ip (counted, and logged) or out of memory.
 */
struct peer *admission_forwarded(struct admission *admission,
				 const char *address);
void admission_forwarded_done(struct admission *admission, struct peer *peer);

/*
 * A session from address asks for an invite (invite=new): counted until
 * admission_invite_done(), NULL when address has --max-invites-per-ip
 * open already (or out of memory).
 */
struct peer *admission_invite(struct admission *admission,
			      const char *address);

/* The session that asked for an invite closed. NULL is a no-op. */
void admission_invite_done(struct admission *admission, struct peer *peer);

#endif
