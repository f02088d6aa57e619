/*
 * admission.c - connections counted in all and per client address, from
 * accept to the wsi's end, and refused over the limits.
 */
#include "admission.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "frame_check.h"
#include "log.h"

/* One of these per server. */
struct admission {
	const struct server_config *config; /* the limits */
	struct metrics *metrics;	    /* the server's */
	struct peers peers;		    /* connections per address */
	struct peers invites;		    /* invite=new sessions per
					     * address */
	struct peer *accepted;		    /* accepted, not yet tied to its
					     * wsi */
};

struct admission *admission_new(const struct server_config *config,
				struct metrics *metrics)
{
	struct admission *admission = calloc(1, sizeof(*admission));

	if (!admission)
		return NULL;
	if (peers_init(&admission->peers)) {
		free(admission);
		return NULL;
	}
	if (peers_init(&admission->invites)) {
		peers_release(&admission->peers);
		free(admission);
		return NULL;
	}
	admission->config = config;
	admission->metrics = metrics;
	return admission;
}

void admission_free(struct admission *admission)
{
	if (!admission)
		return;
	peers_release(&admission->peers);
	peers_release(&admission->invites);
	free(admission);
}

struct peer *admission_invite(struct admission *admission, const char *address)
{
	return peers_get(&admission->invites, address,
			 (unsigned int)admission->config->max_invites_per_ip);
}

void admission_invite_done(struct admission *admission, struct peer *peer)
{
	if (peer)
		peers_put(&admission->invites, peer);
}

/*
 * Counts the connection in all and per address (the socket's address,
 * unless a trusted proxy forwards every client).
 */
int admission_accept(struct admission *admission, int fd)
{
	const struct server_config *config = admission->config;
	struct sockaddr_storage addr;
	socklen_t addr_len = sizeof(addr);
	char address[PEER_ADDRESS_MAX] = "?";
	unsigned int limit =
		config->trust_proxy ? 0 : (unsigned int)config->max_per_ip;

	if (admission->accepted) { /* the last one never became a wsi */
		peers_put(&admission->peers, admission->accepted);
		admission->accepted = NULL;
	}
	if (admission->metrics->tcp_connections >=
	    (unsigned long)config->max_connections) {
		admission->metrics->refused_max_total++;
		log_debug("refused a connection: over --max-connections %d",
			  config->max_connections);
		return 1;
	}
	if (!getpeername(fd, (struct sockaddr *)&addr, &addr_len))
		lws_sa46_write_numeric_address((lws_sockaddr46 *)&addr, address,
					       sizeof(address));
	admission->accepted = peers_get(&admission->peers, address, limit);
	if (!admission->accepted) {
		admission->metrics->refused_max_per_ip++;
		log_info("refused peer=%s: over --max-per-ip %d", address,
			 config->max_per_ip);
		return 1;
	}
	frame_check_accept(fd);
	return 0;
}

/*
 * The accepted connection's wsi is created right after
 * admission_accept(); lws' adopt overwrites a wsi's opaque user data after
 * this callback, so the link from wsi to address lives in the peers table.
 */
void admission_wsi_created(struct admission *admission, struct lws *wsi)
{
	struct peer *peer = admission->accepted;

	if (!peer)
		return; /* the listen socket, the event pipe */
	admission->accepted = NULL;
	if (peers_link(&admission->peers, wsi, peer)) {
		peers_put(&admission->peers, peer);
		return;
	}
	admission->metrics->tcp_connections++;
}

const char *admission_address(const struct admission *admission,
			      const struct lws *wsi)
{
	const struct peer *peer = peers_find(&admission->peers, wsi);

	return peer ? peer->address : "?";
}

void admission_wsi_destroyed(struct admission *admission, struct lws *wsi)
{
	struct peer *peer = peers_unlink(&admission->peers, wsi);

	if (!peer)
		return;
	peers_put(&admission->peers, peer);
	admission->metrics->tcp_connections--;
}

struct peer *admission_forwarded(struct admission *admission,
				 const char *address)
{
	struct peer *peer =
		peers_get(&admission->peers, address,
			  (unsigned int)admission->config->max_per_ip);

	if (peer)
		return peer;
	admission->metrics->refused_max_per_ip++;
	log_info("refused peer=%s: over --max-per-ip %d", address,
		 admission->config->max_per_ip);
	return NULL;
}

void admission_forwarded_done(struct admission *admission, struct peer *peer)
{
	peers_put(&admission->peers, peer);
}
