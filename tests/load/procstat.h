/*
 * procstat.h - what /proc says about the server process.
 *
 * CPU seconds (utime + stime of /proc/PID/stat), resident memory now and
 * at its peak (VmRSS and VmHWM of /proc/PID/status) and the number of open
 * file descriptors (entries of /proc/PID/fd), and how long it waited for
 * a CPU while runnable (/proc/PID/schedstat): on a shared machine that
 * tells a slow server from a starved one. Linux only.
 */
#ifndef LOAD_PROCSTAT_H
#define LOAD_PROCSTAT_H

#include <stdbool.h>
#include <sys/types.h>

/* One reading of one process. */
struct procstat {
	bool valid;	/* every field below was read */
	double cpu_s;	/* user + system CPU seconds since it started */
	long rss_kib;	/* resident set now */
	long hwm_kib;	/* resident set at its peak so far */
	long fds;	/* open file descriptors */
	double wait_s;	/* runnable but not running, since it started;
			 * -1 without schedstats */
	double taken_s; /* CLOCK_MONOTONIC seconds of the reading */
};

/* Reads pid into stat; 0, or -1 (stat->valid false) when it cannot. */
int procstat_read(struct procstat *stat, pid_t pid);

/* Seconds pid (0: this process) waited for a CPU while runnable; -1 when
 * the kernel keeps no schedstats. */
double procstat_wait_s(pid_t pid);

#endif
