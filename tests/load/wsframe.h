/*
 * wsframe.h - the client side of RFC 6455, just enough for a load test.
 *
 * The opening request, the server's response head, masked client frames
 * and unmasked server frames. Pure functions over caller-owned buffers: no
 * sockets, no allocation, no clock (the caller passes the random bytes).
 */
#ifndef LOAD_WSFRAME_H
#define LOAD_WSFRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Frame opcodes (RFC 6455, 5.2). */
enum ws_opcode {
	WS_CONTINUATION = 0x0,
	WS_TEXT = 0x1,
	WS_BINARY = 0x2,
	WS_CLOSE = 0x8,
	WS_PING = 0x9,
	WS_PONG = 0xa,
};

#define WS_CLIENT_HEADER_MAX 14	  /* 2 + 8 length bytes + 4 mask bytes */
#define WS_RESPONSE_HEAD_MAX 8192 /* a longer response head is refused */

/* One parsed server frame; payload points into the caller's buffer. */
struct ws_frame {
	enum ws_opcode opcode; /* as sent, continuation included */
	bool fin;	       /* the last frame of its message */
	uint8_t *payload;      /* unmasked in place when it was masked */
	size_t length;	       /* payload bytes */
};

/*
 * Writes the HTTP/1.1 upgrade request for target (path and query, e.g.
 * "/?uid=..."), with key the 16 random bytes of Sec-WebSocket-Key, into
 * buf. Returns its length, or 0 when it does not fit in size bytes.
 */
size_t ws_request_write(char *buf, size_t size, const char *host_port,
			const char *target, const uint8_t key[16]);

/*
 * Looks for the end of the response head in buf[0..len). Returns the
 * length of the head (through the blank line) and sets *status to the HTTP
 * status code; 0 when the head is not complete yet; -1 when it is not an
 * HTTP response or is longer than WS_RESPONSE_HEAD_MAX.
 */
long ws_response_parse(const char *buf, size_t len, int *status);

/*
 * Writes one final client frame of opcode carrying payload[0..length),
 * masked with mask, into out (which needs WS_CLIENT_HEADER_MAX + length
 * bytes). Returns the frame's length.
 */
size_t ws_frame_encode(uint8_t *out, enum ws_opcode opcode, const void *payload,
		       size_t length, uint32_t mask);

/*
 * Parses the frame at buf[0..len). Returns the bytes it takes and fills
 * frame; 0 when it is not complete yet; -1 on a protocol error (reserved
 * bits or opcodes, a control frame over 125 bytes or fragmented, a length
 * over max_length).
 */
long ws_frame_parse(uint8_t *buf, size_t len, size_t max_length,
		    struct ws_frame *frame);

#endif
