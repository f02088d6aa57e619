/*
 * wsframe.c - RFC 6455 client framing (see wsframe.h).
 */
#include "wsframe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Writes the base64 of 16 bytes (24 characters and a NUL) to out. */
static void base64_16(const uint8_t in[16], char out[25])
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i, o = 0;

	for (i = 0; i + 2 < 16; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 |
			     in[i + 2];

		out[o++] = alphabet[v >> 18 & 63];
		out[o++] = alphabet[v >> 12 & 63];
		out[o++] = alphabet[v >> 6 & 63];
		out[o++] = alphabet[v & 63];
	}
	/* One byte is left: two characters and "==". */
	out[o++] = alphabet[in[15] >> 2];
	out[o++] = alphabet[(in[15] & 3) << 4];
	out[o++] = '=';
	out[o++] = '=';
	out[o] = '\0';
}

size_t ws_request_write(char *buf, size_t size, const char *host_port,
			const char *target, const uint8_t key[16])
{
	char key64[25];
	int len;

	base64_16(key, key64);
	len = snprintf(buf, size,
		       "GET %s HTTP/1.1\r\n"
		       "Host: %s\r\n"
		       "Upgrade: websocket\r\n"
		       "Connection: Upgrade\r\n"
		       "Sec-WebSocket-Key: %s\r\n"
		       "Sec-WebSocket-Version: 13\r\n"
		       "\r\n",
		       target, host_port, key64);
	if (len < 0 || (size_t)len >= size)
		return 0;
	return (size_t)len;
}

long ws_response_parse(const char *buf, size_t len, int *status)
{
	const char *end;
	size_t scan = len < WS_RESPONSE_HEAD_MAX ? len : WS_RESPONSE_HEAD_MAX;

	if (len >= 5 && memcmp(buf, "HTTP/", 5))
		return -1;
	end = memmem(buf, scan, "\r\n\r\n", 4);
	if (!end)
		return len >= WS_RESPONSE_HEAD_MAX ? -1 : 0;
	/* "HTTP/1.1 101 Switching Protocols" */
	if (len < 12 || buf[8] != ' ')
		return -1;
	*status = atoi(buf + 9);
	return end + 4 - buf;
}

size_t ws_frame_encode(uint8_t *out, enum ws_opcode opcode, const void *payload,
		       size_t length, uint32_t mask)
{
	const uint8_t *in = payload;
	uint8_t key[4];
	size_t head = 0, i;

	out[head++] = 0x80 | (uint8_t)opcode;
	if (length < 126) {
		out[head++] = 0x80 | (uint8_t)length;
	} else if (length <= 0xffff) {
		out[head++] = 0x80 | 126;
		out[head++] = (uint8_t)(length >> 8);
		out[head++] = (uint8_t)length;
	} else {
		out[head++] = 0x80 | 127;
		for (i = 0; i < 8; i++)
			out[head++] =
				(uint8_t)((uint64_t)length >> (56 - 8 * i));
	}
	key[0] = (uint8_t)(mask >> 24);
	key[1] = (uint8_t)(mask >> 16);
	key[2] = (uint8_t)(mask >> 8);
	key[3] = (uint8_t)mask;
	memcpy(out + head, key, 4);
	head += 4;
	for (i = 0; i < length; i++)
		out[head + i] = in[i] ^ key[i & 3];
	return head + length;
}

long ws_frame_parse(uint8_t *buf, size_t len, size_t max_length,
		    struct ws_frame *frame)
{
	size_t head = 2, i;
	uint64_t length;
	bool masked;
	uint8_t *key = NULL;

	if (len < 2)
		return 0;
	if (buf[0] & 0x70)
		return -1; /* RSV bits: no extension was negotiated */
	frame->fin = buf[0] & 0x80;
	frame->opcode = (enum ws_opcode)(buf[0] & 0x0f);
	switch (frame->opcode) {
	case WS_CONTINUATION:
	case WS_TEXT:
	case WS_BINARY:
		break;
	case WS_CLOSE:
	case WS_PING:
	case WS_PONG:
		if (!frame->fin || (buf[1] & 0x7f) > 125)
			return -1;
		break;
	default:
		return -1;
	}
	masked = buf[1] & 0x80;
	length = buf[1] & 0x7f;
	if (length == 126) {
		if (len < 4)
			return 0;
		length = (uint64_t)buf[2] << 8 | buf[3];
		head = 4;
	} else if (length == 127) {
		if (len < 10)
			return 0;
		length = 0;
		for (i = 0; i < 8; i++)
			length = length << 8 | buf[2 + i];
		head = 10;
	}
	if (length > max_length)
		return -1;
	if (masked) {
		/* Servers must not mask (5.1); accept it anyway. */
		if (len < head + 4)
			return 0;
		key = buf + head;
		head += 4;
	}
	if (len - head < length)
		return 0;
	frame->payload = buf + head;
	frame->length = (size_t)length;
	if (key)
		for (i = 0; i < frame->length; i++)
			frame->payload[i] ^= key[i & 3];
	return (long)(head + length);
}
