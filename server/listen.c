/*
 * listen.c - --host resolved and bound once before libwebsockets, and the
 * socket libwebsockets listens on found afterwards.
 */
#include "listen.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* "127.0.0.1:8080" or "[::1]:8080"; "" for a family we do not speak. */
static void listen_format(const struct sockaddr *sa, char *out, size_t size)
{
	char host[INET6_ADDRSTRLEN];

	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const void *)sa;

		inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
		snprintf(out, size, "%s:%u", host, ntohs(in->sin_port));
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)sa;

		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
		snprintf(out, size, "[%s]:%u", host, ntohs(in6->sin6_port));
	} else {
		snprintf(out, size, "%s", "");
	}
}

/*
 * Binds a socket of sa's family to sa, with SO_REUSEADDR as libwebsockets
 * does (and SO_REUSEPORT, as it does with ALLOW_LISTEN_SHARE, when
 * reuse_port), and closes it again. 0, or the errno of the failure.
 */
static int listen_probe(const struct sockaddr *sa, socklen_t len,
			bool reuse_port)
{
	int one = 1, err = 0;
	int fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return errno;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    (reuse_port &&
	     setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one))) ||
	    bind(fd, sa, len))
		err = errno;
	close(fd);
	return err;
}

/* One line in err saying why address:port cannot be bound. */
static void listen_explain(int err, const struct sockaddr *sa, char *out,
			   size_t size)
{
	char text[LISTEN_TEXT_MAX];
	const char *colon;

	listen_format(sa, text, sizeof(text));
	colon = strrchr(text, ':');
	switch (err) {
	case EADDRINUSE:
		snprintf(out, size, "port %s is already in use on %.*s",
			 colon + 1, (int)(colon - text), text);
		break;
	case EADDRNOTAVAIL:
		snprintf(out, size,
			 "--host %.*s: not an address of this machine",
			 (int)(colon - text), text);
		break;
	case EACCES:
		snprintf(out, size,
			 "cannot listen on %s: permission denied (ports below "
			 "1024 need privileges)",
			 text);
		break;
	default:
		snprintf(out, size, "cannot listen on %s: %s", text,
			 strerror(err));
		break;
	}
}

/* Every address: IPv6's [::], which takes IPv4 too, or 0.0.0.0 without. */
static int listen_resolve_any(struct listen_address *addr, int port,
			      bool reuse_port, char *err, size_t err_size)
{
	struct sockaddr_in6 any6 = { .sin6_family = AF_INET6,
				     .sin6_port = htons((uint16_t)port),
				     .sin6_addr = IN6ADDR_ANY_INIT };
	struct sockaddr_in any4 = { .sin_family = AF_INET,
				    .sin_port = htons((uint16_t)port),
				    .sin_addr.s_addr = htonl(INADDR_ANY) };
	int failure = listen_probe((struct sockaddr *)&any6, sizeof(any6),
				   reuse_port);

	addr->numeric[0] = '\0';
	addr->ipv4 = false;
	if (!failure)
		return 0;
	if (failure != EAFNOSUPPORT) {
		listen_explain(failure, (struct sockaddr *)&any6, err,
			       err_size);
		return -1;
	}
	/* No IPv6 on this machine: every IPv4 address, then. */
	failure = listen_probe((struct sockaddr *)&any4, sizeof(any4),
			       reuse_port);
	if (failure) {
		listen_explain(failure, (struct sockaddr *)&any4, err,
			       err_size);
		return -1;
	}
	snprintf(addr->numeric, sizeof(addr->numeric), "0.0.0.0");
	addr->ipv4 = true;
	return 0;
}

int listen_resolve(struct listen_address *addr, const char *host, int port,
		   bool reuse_port, char *err, size_t err_size)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV };
	struct addrinfo *found, *ai;
	char service[8];
	int rc, failure = 0;

	memset(addr, 0, sizeof(*addr));
	if (!host)
		return listen_resolve_any(addr, port, reuse_port, err,
					  err_size);
	snprintf(service, sizeof(service), "%d", port);
	rc = getaddrinfo(host, service, &hints, &found);
	if (rc) {
		snprintf(err, err_size, "--host \"%s\": cannot resolve it: %s",
			 host,
			 rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(rc));
		return -1;
	}
	/* The first address of the name that can be bound. */
	for (ai = found; ai; ai = ai->ai_next) {
		int why;

		if (ai->ai_family != AF_INET && ai->ai_family != AF_INET6)
			continue;
		why = listen_probe(ai->ai_addr, ai->ai_addrlen, reuse_port);
		if (!why)
			break;
		if (!failure)
			listen_explain(why, ai->ai_addr, err, err_size);
		failure = why;
	}
	if (!ai) {
		if (!failure)
			snprintf(err, err_size,
				 "--host \"%s\": no IPv4 or IPv6 address",
				 host);
		freeaddrinfo(found);
		return -1;
	}
	addr->ipv4 = ai->ai_family == AF_INET;
	inet_ntop(ai->ai_family,
		  addr->ipv4 ?
			  (const void *)&((struct sockaddr_in *)ai->ai_addr)
				  ->sin_addr :
			  (const void *)&((struct sockaddr_in6 *)ai->ai_addr)
				  ->sin6_addr,
		  addr->numeric, sizeof(addr->numeric));
	freeaddrinfo(found);
	return 0;
}

/* The local address of fd when it is a socket listening on port. */
static bool listen_socket_on(int fd, int port, struct sockaddr_storage *sa)
{
	socklen_t len = sizeof(*sa);
	int listening = 0;
	socklen_t opt_len = sizeof(listening);

	if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &opt_len) ||
	    !listening || getsockname(fd, (struct sockaddr *)sa, &len))
		return false;
	if (sa->ss_family == AF_INET)
		return ntohs(((struct sockaddr_in *)sa)->sin_port) == port;
	if (sa->ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)sa)->sin6_port) == port;
	return false;
}

int listen_confirm(struct listen_address *addr, int port, char *err,
		   size_t err_size)
{
	struct sockaddr_storage sa;
	struct dirent *entry;
	DIR *fds = opendir("/proc/self/fd");

	addr->bound[0] = '\0';
	if (!fds) {
		snprintf(err, err_size,
			 "cannot check the listening socket: /proc/self/fd: %s",
			 strerror(errno));
		return -1;
	}
	while ((entry = readdir(fds))) {
		char *end;
		long fd = strtol(entry->d_name, &end, 10);

		if (*end || end == entry->d_name || fd == dirfd(fds))
			continue;
		if (listen_socket_on((int)fd, port, &sa)) {
			listen_format((struct sockaddr *)&sa, addr->bound,
				      sizeof(addr->bound));
			break;
		}
	}
	closedir(fds);
	if (!addr->bound[0]) {
		snprintf(err, err_size,
			 "libwebsockets did not listen on port %d (see the "
			 "lines above)",
			 port);
		return -1;
	}
	return 0;
}
