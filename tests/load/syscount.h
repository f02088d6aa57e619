/*
 * syscount.h - counts the system calls of the server process, by kind.
 *
 * One perf counter per thread of the process and per tracepoint
 * (raw_syscalls:sys_enter for every call, syscalls:sys_enter_NAME for the
 * kinds below), opened after the measured window and read then and two
 * seconds later under the same load, then closed: the load generator
 * divides the difference by the moves accepted in between, and the
 * window's figures pay neither for the counting nor for the moment the
 * kernel stalls while the counters are attached. Needs tracefs
 * (/sys/kernel/tracing; bench.sh mounts it when missing) and the right to
 * trace the process (root, or kernel.perf_event_paranoid <= -1); without
 * them the figures are not measured. Threads started after syscount_open
 * are not counted (both servers start theirs at start-up). Linux only.
 */
#ifndef LOAD_SYSCOUNT_H
#define LOAD_SYSCOUNT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* The kinds counted, in report order. SYSCALL_ALL is every call. */
enum syscall_kind {
	SYSCALL_ALL,
	SYSCALL_EPOLL_CTL,
	SYSCALL_EPOLL_WAIT,
	SYSCALL_SEND,	 /* sendto, sendmsg, write, writev */
	SYSCALL_RECV,	 /* recvfrom, recvmsg, read, readv */
	SYSCALL_JOURNAL, /* pwrite64, pread64, fdatasync, fsync */
	SYSCALL_KINDS
};

/* Owned by the load generator; counters are file descriptors. */
struct syscount {
	bool valid;   /* every counter opened */
	int *fds;     /* threads x tracepoints */
	int *kind_of; /* the kind each fd counts */
	int count;    /* fds in use */
};

/* One reading: calls so far, per kind. */
struct syscount_reading {
	bool valid;
	uint64_t calls[SYSCALL_KINDS];
};

/* Opens the counters of every thread of pid; 0, or -1 (and a line on
 * stderr saying why) when they cannot be opened. */
int syscount_open(struct syscount *sc, pid_t pid);

/* Reads every counter into out (out->valid false when it cannot). */
void syscount_read(const struct syscount *sc, struct syscount_reading *out);

/* The name of a kind, for reports ("all", "epoll_ctl", ...). */
const char *syscount_kind_name(enum syscall_kind kind);

void syscount_close(struct syscount *sc);

#endif
