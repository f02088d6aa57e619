/*
 * syscount.c - counts the server's system calls with perf tracepoint
 * counters (see syscount.h).
 */
#include "syscount.h"

#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* One tracepoint and the kind it adds to. */
struct tracepoint {
	const char *event; /* under TRACEFS/events/ */
	enum syscall_kind kind;
};

static const struct tracepoint tracepoints[] = {
	{ "raw_syscalls/sys_enter", SYSCALL_ALL },
	{ "syscalls/sys_enter_epoll_ctl", SYSCALL_EPOLL_CTL },
	{ "syscalls/sys_enter_epoll_wait", SYSCALL_EPOLL_WAIT },
	{ "syscalls/sys_enter_epoll_pwait", SYSCALL_EPOLL_WAIT },
	{ "syscalls/sys_enter_sendto", SYSCALL_SEND },
	{ "syscalls/sys_enter_sendmsg", SYSCALL_SEND },
	{ "syscalls/sys_enter_write", SYSCALL_SEND },
	{ "syscalls/sys_enter_writev", SYSCALL_SEND },
	{ "syscalls/sys_enter_recvfrom", SYSCALL_RECV },
	{ "syscalls/sys_enter_recvmsg", SYSCALL_RECV },
	{ "syscalls/sys_enter_read", SYSCALL_RECV },
	{ "syscalls/sys_enter_readv", SYSCALL_RECV },
	{ "syscalls/sys_enter_pwrite64", SYSCALL_JOURNAL },
	{ "syscalls/sys_enter_pread64", SYSCALL_JOURNAL },
	{ "syscalls/sys_enter_fdatasync", SYSCALL_JOURNAL },
	{ "syscalls/sys_enter_fsync", SYSCALL_JOURNAL },
};
#define TRACEPOINTS (sizeof(tracepoints) / sizeof(tracepoints[0]))

static const char *const kind_names[SYSCALL_KINDS] = {
	[SYSCALL_ALL] = "all",
	[SYSCALL_EPOLL_CTL] = "epoll_ctl",
	[SYSCALL_EPOLL_WAIT] = "epoll_wait",
	[SYSCALL_SEND] = "send",
	[SYSCALL_RECV] = "recv",
	[SYSCALL_JOURNAL] = "journal",
};

static const char *const tracefs_roots[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

const char *syscount_kind_name(enum syscall_kind kind)
{
	return kind < SYSCALL_KINDS ? kind_names[kind] : "?";
}

/* The tracepoint's id from tracefs, or -1. */
static long tracepoint_id(const char *event)
{
	char path[256];
	long id = -1;
	FILE *f;

	for (size_t i = 0; i < sizeof(tracefs_roots) / sizeof(*tracefs_roots);
	     i++) {
		snprintf(path, sizeof(path), "%s/events/%s/id",
			 tracefs_roots[i], event);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%ld", &id) != 1)
			id = -1;
		fclose(f);
		break;
	}
	return id;
}

/* The thread ids of pid (its /proc/PID/task); the count, or -1. */
static int thread_ids(pid_t pid, pid_t **out)
{
	char path[64];
	struct dirent *entry;
	pid_t *tids = NULL, *grown;
	int count = 0, room = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((entry = readdir(dir))) {
		if (entry->d_name[0] == '.')
			continue;
		if (count == room) {
			room = room ? room * 2 : 16;
			grown = realloc(tids, (size_t)room * sizeof(*tids));
			if (!grown) {
				free(tids);
				closedir(dir);
				return -1;
			}
			tids = grown;
		}
		tids[count++] = (pid_t)atoi(entry->d_name);
	}
	closedir(dir);
	*out = tids;
	return count;
}

static int counter_open(long id, pid_t tid)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = (unsigned long long)id;
	attr.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &attr, tid, -1, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

int syscount_open(struct syscount *sc, pid_t pid)
{
	long ids[TRACEPOINTS];
	pid_t *tids = NULL;
	int threads;

	memset(sc, 0, sizeof(*sc));
	for (size_t t = 0; t < TRACEPOINTS; t++) {
		ids[t] = tracepoint_id(tracepoints[t].event);
		if (ids[t] < 0 && tracepoints[t].kind == SYSCALL_ALL) {
			fprintf(stderr, "loadgen: no tracefs (mount -t tracefs "
					"tracefs /sys/kernel/tracing): system "
					"calls not counted\n");
			return -1;
		}
	}
	threads = thread_ids(pid, &tids);
	if (threads <= 0)
		return -1;
	sc->fds = calloc((size_t)threads * TRACEPOINTS, sizeof(*sc->fds));
	sc->kind_of =
		calloc((size_t)threads * TRACEPOINTS, sizeof(*sc->kind_of));
	if (!sc->fds || !sc->kind_of)
		goto fail;
	for (int i = 0; i < threads; i++)
		for (size_t t = 0; t < TRACEPOINTS; t++) {
			int fd;

			if (ids[t] < 0) /* a call this kernel does not have */
				continue;
			fd = counter_open(ids[t], tids[i]);
			if (fd < 0) {
				if (errno == ESRCH) /* the thread ended */
					break;
				fprintf(stderr,
					"loadgen: cannot count the server's "
					"system calls (%s; needs root or "
					"kernel.perf_event_paranoid <= -1)\n",
					strerror(errno));
				goto fail;
			}
			sc->fds[sc->count] = fd;
			sc->kind_of[sc->count] = tracepoints[t].kind;
			sc->count++;
		}
	free(tids);
	sc->valid = true;
	return 0;
fail:
	free(tids);
	syscount_close(sc);
	return -1;
}

void syscount_read(const struct syscount *sc, struct syscount_reading *out)
{
	memset(out, 0, sizeof(*out));
	if (!sc->valid)
		return;
	for (int i = 0; i < sc->count; i++) {
		uint64_t value;

		if (read(sc->fds[i], &value, sizeof(value)) != sizeof(value))
			return;
		out->calls[sc->kind_of[i]] += value;
	}
	out->valid = true;
}

void syscount_close(struct syscount *sc)
{
	for (int i = 0; i < sc->count; i++)
		close(sc->fds[i]);
	free(sc->fds);
	free(sc->kind_of);
	memset(sc, 0, sizeof(*sc));
}
