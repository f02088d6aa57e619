/*
 * frame_check.c - the frame headers of every WebSocket read a second
 * time, from an interposed recv().
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "frame_check.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#define FRAME_CHECK_MAX_FDS (1u << 20) /* sockets beyond are not checked */

void frame_scan_feed(struct frame_scan *scan, const unsigned char *bytes,
		     size_t len)
{
	size_t i = 0;

	if (!scan->frames) {
		/*
		 * HTTP: count the bytes after the last blank line, an LF after
		 * an LF or after LF CR (lws takes lines ended by a bare LF).
		 */
		for (; i < len; i++) {
			if (scan->after_blank < UINT32_MAX)
				scan->after_blank++;
			if (bytes[i] == '\n' && scan->tail) {
				scan->tail = 0;
				scan->after_blank = 0;
			} else if (bytes[i] == '\n') {
				scan->tail = 1;
			} else {
				scan->tail =
					bytes[i] == '\r' && scan->tail ? 2 : 0;
			}
		}
		return;
	}
	while (i < len) {
		uint8_t need, length7;

		if (scan->payload_left) {
			size_t skip = len - i;

			if (skip > scan->payload_left)
				skip = (size_t)scan->payload_left;
			scan->payload_left -= skip;
			i += skip;
			continue;
		}
		scan->header[scan->header_len++] = bytes[i++];
		if (scan->header_len < 2)
			continue;
		length7 = scan->header[1] & 0x7f;
		need = 2 +
		       (length7 == 126 ? 2 :
			length7 == 127 ? 8 :
					 0) +
		       (scan->header[1] & 0x80 ? 4 : 0);
		if (scan->header_len < need)
			continue;
		/* A whole header: 7-bit, 16-bit or 64-bit length, then mask. */
		if (!(scan->header[1] & 0x80))
			scan->unmasked = true;
		if ((scan->header[0] & 0x0f) == 0x9)
			scan->pinged = true;
		if (length7 < 126) {
			scan->payload_left = length7;
		} else {
			uint8_t bytes_of_length = length7 == 126 ? 2 : 8;

			scan->payload_left = 0;
			for (uint8_t b = 0; b < bytes_of_length; b++)
				scan->payload_left = scan->payload_left << 8 |
						     scan->header[2 + b];
		}
		scan->header_len = 0;
	}
}

bool frame_scan_upgraded(struct frame_scan *scan)
{
	bool clean = scan->after_blank == 0;

	scan->frames = true;
	scan->header_len = 0;
	scan->payload_left = 0;
	return clean;
}

/* One of these per possible socket descriptor. */
struct frame_check_entry {
	struct frame_scan scan;
	void *owner;   /* the session, once a WebSocket */
	bool active;   /* a connection of lws is on this descriptor */
	bool reported; /* already given by frame_check_next_broken() */
};

static struct frame_check_entry *frame_check_table;
static size_t frame_check_size;
static int *frame_check_broken_fds; /* reported, not yet taken */
static size_t frame_check_broken_count, frame_check_broken_cap;
static ssize_t (*frame_check_real_recv)(int, void *, size_t, int);

/* The C library's recv(), or the system call when it cannot be found. */
static ssize_t frame_check_libc_recv(int fd, void *buf, size_t len, int flags)
{
	if (!frame_check_real_recv)
		frame_check_real_recv =
			(ssize_t(*)(int, void *, size_t, int))dlsym(RTLD_NEXT,
								    "recv");
	if (frame_check_real_recv)
		return frame_check_real_recv(fd, buf, len, flags);
	return syscall(SYS_recvfrom, fd, buf, len, flags, NULL, NULL);
}

static struct frame_check_entry *frame_check_entry_of(int fd)
{
	if (fd < 0 || (size_t)fd >= frame_check_size)
		return NULL;
	return &frame_check_table[fd];
}

/* Notes that the WebSocket on fd broke a rule, once. */
static void frame_check_report(int fd, struct frame_check_entry *entry)
{
	if (entry->reported || !entry->owner)
		return;
	if (frame_check_broken_count == frame_check_broken_cap) {
		size_t cap = frame_check_broken_cap ?
				     frame_check_broken_cap * 2 :
				     16;
		int *grown =
			realloc(frame_check_broken_fds, cap * sizeof(*grown));

		if (!grown)
			return; /* caught at its next message instead */
		frame_check_broken_fds = grown;
		frame_check_broken_cap = cap;
	}
	entry->reported = true;
	frame_check_broken_fds[frame_check_broken_count++] = fd;
}

/*
 * libwebsockets reads every socket through this: the bytes of a socket
 * that is being checked go through its scan.
 */
ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	ssize_t n = frame_check_libc_recv(fd, buf, len, flags);
	struct frame_check_entry *entry;
	int saved = errno;

	if (n <= 0 || (flags & MSG_PEEK))
		return n;
	entry = frame_check_entry_of(fd);
	if (entry && entry->active) {
		bool was = entry->scan.unmasked;

		frame_scan_feed(&entry->scan, buf, (size_t)n);
		if (entry->scan.unmasked && !was)
			frame_check_report(fd, entry);
	}
	errno = saved;
	return n;
}

int frame_check_init(void)
{
	struct rlimit limit;
	size_t size = 1024;

	if (!getrlimit(RLIMIT_NOFILE, &limit) &&
	    limit.rlim_cur != RLIM_INFINITY)
		size = limit.rlim_cur;
	if (size > FRAME_CHECK_MAX_FDS)
		size = FRAME_CHECK_MAX_FDS;
	frame_check_table = calloc(size, sizeof(*frame_check_table));
	if (!frame_check_table)
		return -1;
	frame_check_size = size;
	return 0;
}

void frame_check_release(void)
{
	free(frame_check_table);
	frame_check_table = NULL;
	frame_check_size = 0;
	free(frame_check_broken_fds);
	frame_check_broken_fds = NULL;
	frame_check_broken_count = frame_check_broken_cap = 0;
}

void frame_check_accept(int fd)
{
	struct frame_check_entry *entry = frame_check_entry_of(fd);

	if (!entry)
		return;
	*entry = (struct frame_check_entry){ .active = true };
}

bool frame_check_upgraded(int fd, void *owner)
{
	struct frame_check_entry *entry = frame_check_entry_of(fd);

	if (!entry || !entry->active)
		return true; /* not checked */
	entry->owner = owner;
	return frame_scan_upgraded(&entry->scan);
}

bool frame_check_broken(int fd)
{
	struct frame_check_entry *entry = frame_check_entry_of(fd);

	return entry && entry->active && entry->scan.unmasked;
}

bool frame_check_take_ping(int fd)
{
	struct frame_check_entry *entry = frame_check_entry_of(fd);
	bool pinged;

	if (!entry || !entry->active)
		return false;
	pinged = entry->scan.pinged;
	entry->scan.pinged = false;
	return pinged;
}

void frame_check_forget(int fd)
{
	struct frame_check_entry *entry = frame_check_entry_of(fd);

	if (entry)
		*entry = (struct frame_check_entry){ .active = false };
}

void *frame_check_next_broken(void)
{
	while (frame_check_broken_count) {
		int fd = frame_check_broken_fds[--frame_check_broken_count];
		struct frame_check_entry *entry = frame_check_entry_of(fd);

		if (entry && entry->active && entry->owner &&
		    entry->scan.unmasked)
			return entry->owner;
	}
	return NULL;
}
