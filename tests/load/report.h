/*
 * report.h - the figures of one load generator run, as a table or JSON.
 *
 * loadgen.c fills one struct report at the end of a run; report.c only
 * formats it: one human-readable table, or one JSON object on one line
 * whose keys are unique, so scripts can compare runs between commits.
 */
#ifndef LOAD_REPORT_H
#define LOAD_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "syscount.h"

#define TALLY_MAX 32	  /* distinct names a tally keeps */
#define TALLY_NAME_MAX 32 /* longest name kept, with its NUL */

/* One named count. */
struct tally_entry {
	char name[TALLY_NAME_MAX]; /* "not_your_turn", "1001", ... */
	uint64_t count;		   /* times seen */
};

/* Counts by name, e.g. errors by code; names past TALLY_MAX go to other. */
struct tally {
	struct tally_entry entries[TALLY_MAX]; /* in first-seen order */
	unsigned int used;		       /* entries in use */
	uint64_t other;			       /* counts of names that did
						* not fit */
};

/* Adds count to name's entry, making one if needed. */
void tally_add(struct tally *tally, const char *name, uint64_t count);

/* The sum of every count. */
uint64_t tally_total(const struct tally *tally);

/* The spectators of a run (--watchers, --crowd), apart from the players. */
struct report_spectators {
	long watchers;		   /* asked per room */
	long crowd;		   /* ... and for one room at a time */
	long held;		   /* most open at once */
	long open_at_end;	   /* open when the window closed */
	uint64_t attempted;	   /* connections started, whole run */
	uint64_t opened;	   /* ... upgraded */
	uint64_t failed;	   /* ... that did not */
	uint64_t closed;	   /* opened connections that have closed */
	uint64_t rooms_asked;	   /* rooms matched that asked for some */
	uint64_t rooms_skipped;	   /* ... left without: queue full */
	uint64_t messages;	   /* text messages received, whole run */
	double messages_per_s;	   /* ... in the window */
	uint64_t spectates;	   /* `spectate` messages */
	uint64_t wrong_room;	   /* ... for another room than asked */
	uint64_t followed;	   /* ... again: the room's rematch */
	uint64_t boards;	   /* `board` messages, whole run */
	uint64_t boards_full;	   /* ... with `content` (the first) */
	uint64_t boards_window;	   /* ... in the window */
	uint64_t boards_missed;	   /* gaps in their move numbers */
	uint64_t winners;	   /* `winner` messages */
	uint64_t winners_complete; /* ... after the game's last board */
	uint64_t disconnects;	   /* `disconnect`: the room closed */
	uint64_t pongs;		   /* server pings answered */
	double crowd_mean;	   /* watching the crowd's room, sampled */
	long crowd_min, crowd_max; /* ... over the window */
	double open_mean;	   /* spectators open, sampled likewise */
	struct tally errors;	   /* `error` codes; connect_CAUSE */
	struct tally closes;	   /* closes they did not ask for */
};

/* One of these per run. */
struct report {
	const char *label;	  /* --label, the scenario's name */
	const char *mode;	  /* "play", "idle" or "churn" */
	const char *updates;	  /* "move" (compact) or "full" */
	const char *target;	  /* "HOST:PORT" */
	long connections;	  /* asked for (play, idle) */
	double move_rate;	  /* moves per second per room; 0: flat out */
	double churn_rate;	  /* new connections per second (churn) */
	double window_s;	  /* length of the measured window */
	long held;		  /* most connections open at once */
	long open_at_end;	  /* open when the window closed */
	long matched_at_end;	  /* ... of them matched */
	uint64_t attempted;	  /* connections started, whole run */
	uint64_t opened;	  /* ... that completed the upgrade */
	uint64_t failed;	  /* ... that did not */
	uint64_t closed;	  /* opened connections that have closed */
	uint64_t matches;	  /* rooms made in the window */
	double matches_per_s;	  /* ... per second */
	uint64_t moves_sent;	  /* moves sent in the window */
	uint64_t moves_accepted;  /* own moves the server echoed back */
	double moves_per_s;	  /* accepted per second */
	uint64_t games_won;	  /* `winner` naming the receiver */
	uint64_t boards_full;	  /* `board` with `content`, whole run */
	uint64_t boards_compact;  /* ... without: updates=move honoured */
	uint64_t latency_samples; /* moves timed in the window */
	uint64_t latency_us[4];	  /* p50, p99, p99.9, max */
	double latency_mean_us;	  /* mean */
	uint64_t match_samples;	  /* connections matched in the window */
	uint64_t match_us[3];	  /* connect -> `role`: p50, p99, max */
	struct tally errors;	  /* `error` messages by code */
	struct tally closes;	  /* closes we did not ask for */
	struct tally connect_errors; /* failed connections by cause */
	bool server;		     /* the server_* figures are valid */
	long server_pid;	     /* --server-pid */
	double server_cpu_s;	     /* CPU seconds in the window */
	double server_cpu_pct;	     /* ... as a share of one core */
	double server_wait_s;	     /* runnable but waiting for a CPU */
	double cpu_s_per_100k_moves; /* server CPU per 100k moves */
	double moves_per_cpu_s;	     /* accepted moves per CPU second */
	long rss_empty_kib;	     /* before the first connection */
	long rss_start_kib;	     /* when the window opened */
	long rss_mid_kib;	     /* halfway through it */
	long rss_end_kib;	     /* when it closed */
	long rss_after_kib;	     /* after every client left (churn) */
	long rss_peak_kib;	     /* VmHWM at the end */
	double rss_per_conn_kib;     /* (end - empty) / held, idle */
	long fds_empty, fds_start;   /* open fds: before, window start */
	long fds_end, fds_after;     /* window end, after (churn) */
	double client_cpu_s;	     /* this tool's CPU in the window */
	double client_wait_s;	     /* ... waiting for a CPU while runnable */
	bool syscalls;		     /* syscalls_per_move is valid */
	double syscalls_per_move[SYSCALL_KINDS]; /* server, for 2 s after
						  * the window */
	struct report_spectators spect;		 /* all 0 without any */
};

/* Prints the human-readable table. */
void report_print_table(const struct report *report, FILE *out);

/* Prints one JSON object and a newline. */
void report_print_json(const struct report *report, FILE *out);

#endif
