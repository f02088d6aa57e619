/*
 * healthcheck.c - a minimal HTTP/1.0 client for GET /healthz.
 */
#include "healthcheck.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define HEALTHCHECK_TIMEOUT_S 3

/* Connects to host:port with send and receive timeouts; -1 on failure. */
static int healthcheck_connect(const char *host, int port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM };
	struct timeval timeout = { .tv_sec = HEALTHCHECK_TIMEOUT_S };
	struct addrinfo *addrs, *addr;
	char service[8];
	int fd = -1;
	int err;

	snprintf(service, sizeof(service), "%d", port);
	err = getaddrinfo(host, service, &hints, &addrs);
	if (err) {
		fprintf(stderr, "health check: %s: %s\n", host,
			gai_strerror(err));
		return -1;
	}
	for (addr = addrs; addr; addr = addr->ai_next) {
		fd = socket(addr->ai_family, addr->ai_socktype,
			    addr->ai_protocol);
		if (fd < 0)
			continue;
		/* On Linux SO_SNDTIMEO also bounds connect(). */
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout,
			   sizeof(timeout));
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout,
			   sizeof(timeout));
		if (!connect(fd, addr->ai_addr, addr->ai_addrlen))
			break;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(addrs);
	if (fd < 0)
		fprintf(stderr, "health check: cannot connect to %s:%d: %s\n",
			host, port, strerror(errno));
	return fd;
}

int healthcheck_run(const struct server_config *config)
{
	const char *host = config->host ? config->host : "127.0.0.1";
	static const char request[] = "GET /healthz HTTP/1.0\r\n"
				      "Host: localhost\r\n\r\n";
	char answer[256];
	size_t got = 0;
	ssize_t n;
	int fd;

	fd = healthcheck_connect(host, config->port);
	if (fd < 0)
		return 1;
	if (send(fd, request, sizeof(request) - 1, MSG_NOSIGNAL) !=
	    (ssize_t)sizeof(request) - 1) {
		fprintf(stderr, "health check: send failed: %s\n",
			strerror(errno));
		close(fd);
		return 1;
	}
	while (got < sizeof(answer) - 1 &&
	       (n = recv(fd, answer + got, sizeof(answer) - 1 - got, 0)) > 0)
		got += (size_t)n;
	close(fd);
	answer[got] = '\0';
	if (strncmp(answer, "HTTP/1.", 7) || strncmp(answer + 8, " 200", 4)) {
		fprintf(stderr,
			"health check: %s:%d/healthz answered \"%.*s\"\n", host,
			config->port, (int)strcspn(answer, "\r\n"), answer);
		return 1;
	}
	return 0;
}
