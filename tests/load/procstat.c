/*
 * procstat.c - reads /proc/PID (see procstat.h).
 */
#include "procstat.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* utime + stime from /proc/PID/stat, in seconds. */
static int procstat_read_cpu(pid_t pid, double *cpu_s)
{
	char path[64], line[1024], *after_name;
	unsigned long utime, stime;
	FILE *f;
	long ticks = sysconf(_SC_CLK_TCK);

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	/* The command name may hold spaces and parentheses: skip to the last
	 * ')'; then come state (3), ... utime (14) and stime (15). */
	after_name = strrchr(line, ')');
	if (!after_name || ticks <= 0 ||
	    sscanf(after_name + 2,
		   "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
		   &utime, &stime) != 2)
		return -1;
	*cpu_s = (double)(utime + stime) / (double)ticks;
	return 0;
}

/* VmRSS and VmHWM from /proc/PID/status, in KiB. */
static int procstat_read_memory(pid_t pid, long *rss_kib, long *hwm_kib)
{
	char path[64], line[256];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "VmRSS:", 6)) {
			*rss_kib = strtol(line + 6, NULL, 10);
			found++;
		} else if (!strncmp(line, "VmHWM:", 6)) {
			*hwm_kib = strtol(line + 6, NULL, 10);
			found++;
		}
	}
	fclose(f);
	return found == 2 ? 0 : -1;
}

/* The entries of /proc/PID/fd. */
static long procstat_count_fds(pid_t pid)
{
	char path[64];
	struct dirent *entry;
	long count = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((entry = readdir(dir)))
		if (entry->d_name[0] != '.')
			count++;
	closedir(dir);
	return count;
}

double procstat_wait_s(pid_t pid)
{
	char path[64];
	unsigned long long run_ns, wait_ns;
	FILE *f;
	int n;

	if (pid > 0)
		snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/schedstat");
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fscanf(f, "%llu %llu", &run_ns, &wait_ns);
	fclose(f);
	return n == 2 ? (double)wait_ns / 1e9 : -1;
}

int procstat_read(struct procstat *stat, pid_t pid)
{
	struct timespec now;

	memset(stat, 0, sizeof(*stat));
	clock_gettime(CLOCK_MONOTONIC, &now);
	stat->taken_s = (double)now.tv_sec + (double)now.tv_nsec / 1e9;
	if (pid <= 0 || procstat_read_cpu(pid, &stat->cpu_s) ||
	    procstat_read_memory(pid, &stat->rss_kib, &stat->hwm_kib))
		return -1;
	stat->fds = procstat_count_fds(pid);
	stat->wait_s = procstat_wait_s(pid);
	if (stat->fds < 0)
		return -1;
	stat->valid = true;
	return 0;
}
