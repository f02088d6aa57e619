/*
 * frame_check.h - what libwebsockets 4.1.6 does not check of the bytes a
 * client sends, checked as they arrive: every client frame is masked
 * (RFC 6455 5.1), and nothing is sent before the server's answer to the
 * opening handshake (4.1). A connection that breaks either is closed with
 * 1002.
 *
 * libwebsockets accepts unmasked frames and shows its callbacks nothing
 * of a frame's header. So the server reads the frame headers a second
 * time: it defines recv(), which libwebsockets calls for every read of a
 * socket (the executable's definition is the one the dynamic linker binds
 * for the library, before the C library's), passes the call on to the C
 * library and gives the bytes it returned to the check of that socket.
 * Payloads are skipped, not read: a frame costs a few byte comparisons.
 *
 * The check of a socket starts at accept (frame_check_accept()), watches
 * where the HTTP request ends, and turns to frames when the socket becomes
 * a WebSocket (frame_check_upgraded()). The pure scanner is exposed for
 * the unit tests.
 */
#ifndef GOMOKU_FRAME_CHECK_H
#define GOMOKU_FRAME_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where a connection's byte stream stands; zeroed: nothing read yet. */
struct frame_scan {
	uint64_t payload_left; /* bytes of the current frame to skip */
	uint32_t after_blank;  /* HTTP: bytes since the last blank line */
	uint8_t tail;	       /* HTTP: 1 after an LF, 2 after LF CR */
	uint8_t header_len;    /* frames: header bytes collected */
	uint8_t header[14];    /* frames: the header so far */
	bool frames;	       /* reading frames (after the upgrade) */
	bool unmasked;	       /* a client frame without a mask came */
	bool pinged;	       /* a ping came (frame_check_take_ping()) */
};

/* Reads len bytes of the stream, HTTP or frames. */
void frame_scan_feed(struct frame_scan *scan, const unsigned char *bytes,
		     size_t len);

/*
 * The upgrade was answered: from here on the stream is frames. False
 * when the client sent bytes after its request before that answer.
 */
bool frame_scan_upgraded(struct frame_scan *scan);

/* Sets up the table of sockets (one entry per possible descriptor). */
int frame_check_init(void);

/* Frees the table. */
void frame_check_release(void);

/* A new connection on socket fd: its stream starts. */
void frame_check_accept(int fd);

/*
 * Socket fd became a WebSocket of owner (a session): its frames are
 * checked from now on. False when it broke a rule already.
 */
bool frame_check_upgraded(int fd, void *owner);

/* True when the WebSocket on fd sent an unmasked frame. */
bool frame_check_broken(int fd);

/*
 * Whether a ping came on fd since the last call: lws answers it from its
 * WRITEABLE handling, so a session that writes its own messages directly
 * goes that way too, and the pong is not overtaken.
 */
bool frame_check_take_ping(int fd);

/* Socket fd is closing: forget it. */
void frame_check_forget(int fd);

/*
 * The owner of one WebSocket that broke the rules since the last call,
 * or NULL when there is none: each is given once.
 */
void *frame_check_next_broken(void);

#endif
