/*
 * listen.h - the address the server listens on: --host resolved and
 * checked before libwebsockets binds it, and the address really bound.
 *
 * libwebsockets 4.1.6 binds an IPv4 interface address on its IPv6 socket
 * as [::] (every address of the machine: the address is parsed into the
 * wrong field), and when the address is not one of the machine's or the
 * port is taken it logs the error and goes on, listening nowhere. So the
 * server resolves --host itself (an IPv4 or IPv6 address, or a name that
 * resolves to one), binds it once with a socket of its own to turn a
 * failure into one clear line, hands libwebsockets the numeric address
 * (an IPv4 one with IPv6 turned off, so that the IPv4 path takes it), and
 * afterwards looks up the socket libwebsockets listens on, to say what it
 * bound and to stop when it bound nothing.
 */
#ifndef GOMOKU_LISTEN_H
#define GOMOKU_LISTEN_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>

/* "[" address "]:" port, NUL */
#define LISTEN_TEXT_MAX (INET6_ADDRSTRLEN + 9)

/* One of these per server: where it listens. */
struct listen_address {
	char numeric[INET6_ADDRSTRLEN]; /* for lws' iface; "" for every
					 * address (IPv6 and IPv4) */
	bool ipv4;			/* numeric is IPv4: lws must not
					 * use an IPv6 socket */
	char bound[LISTEN_TEXT_MAX];	/* "127.0.0.1:8080", "[::]:8080":
					 * set by listen_confirm() */
};

/*
 * Resolves host (NULL: every address) and checks that port can be bound
 * there (shared with other processes that listen with SO_REUSEPORT too,
 * when reuse_port). 0, or -1 with one line in err ("port 8080 is in use
 * on 127.0.0.1", "203.0.113.9 is not an address of this machine", ...).
 */
int listen_resolve(struct listen_address *addr, const char *host, int port,
		   bool reuse_port, char *err, size_t err_size);

/*
 * Once libwebsockets has made its listening socket: finds the socket of
 * this process listening on port and writes its address to addr->bound.
 * 0, or -1 with one line in err when nothing listens on port.
 */
int listen_confirm(struct listen_address *addr, int port, char *err,
		   size_t err_size);

#endif
