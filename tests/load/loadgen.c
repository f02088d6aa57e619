/*
 * loadgen.c - a load generator for any server that speaks PROTOCOL.md.
 *
 * One thread, two edge-triggered epoll sets (the players', and the
 * spectators' read a few events at a time after them), non-blocking
 * sockets and a
 * minimal RFC 6455 client (wsframe.c). It opens connections from several
 * 127.x source addresses, lets the server pair them, plays real games at a
 * set pace per room (front wins at its fifth stone, nine moves), closes
 * with 1000 after `winner` and connects again with a new uid (the crowd's
 * room's players play a rematch instead, see player_rematch). It measures
 * the move -> opponent-received latency into a histogram and reads the
 * server's CPU, memory and fds from /proc, then prints one report.
 *
 * Three modes: play (a fixed number of connections playing game after
 * game), idle (connect, be matched, never move) and churn (a fixed rate of
 * new connections, each playing one game and leaving). In any of them,
 * spectators (--watchers, --crowd) watch the rooms the players were
 * matched into (`?watch=ROOM`), counted apart from the players. See
 * README.md.
 *
 * One file of about 2,300 lines: one program whose three modes share the
 * connection state machine, the frame handling and the report; the RFC 6455
 * client is wsframe.c.
 */
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "histogram.h"
#include "message.h"
#include "procstat.h"
#include "syscount.h"
#include "report.h"
#include "wsframe.h"

#define NS_PER_S 1000000000ull
#define NS_PER_MS 1000000ull
#define RX_BUFFER_SIZE (512 * 1024)	  /* one read, shared by all */
#define FRAME_MAX (256 * 1024)		  /* longest server frame accepted */
#define MESSAGE_MAX (256 * 1024)	  /* longest reassembled message */
#define TX_FRAME_MAX 256		  /* longest frame this tool sends */
#define CLOSE_TIMEOUT_NS (5 * NS_PER_S)	  /* wait for the server's FIN */
#define RETRY_DELAY_NS (1000 * NS_PER_MS) /* after a failed connection */
#define ROOM_BUCKETS 65536		  /* hash of rooms half-matched */
#define EVENTS_MAX 1024			  /* per epoll_wait */
#define SPECT_EVENTS \
	64		      /* spectators' events between two looks at the
			 * players' */
#define SPECT_DATA UINT64_MAX /* epoll_fd's event of spect_fd */
#define STARTS_PER_TURN 256   /* connections started per loop turn */
#define FD_RESERVE 32	      /* fds kept for stdio, /proc, epoll */
#define SHORT_GAME_MOVES 9    /* front's five stones and back's four */
#define STOP_TIMEOUT_NS (3 * NS_PER_S)	 /* for clean closes at the end */
#define SYSCOUNT_NS (2 * NS_PER_S)	 /* PHASE_COUNT's length */
#define SETTLE_TIMEOUT_NS (5 * NS_PER_S) /* for the server's fds to drop */
#define SAMPLE_NS (100 * NS_PER_MS)	 /* spectators watching: sampled */

enum mode {
	MODE_PLAY,  /* C connections, game after game */
	MODE_IDLE,  /* C connections, matched, never moving */
	MODE_CHURN, /* R new connections a second, one game each */
};

/* Everything the command line sets. */
struct options {
	const char *host;	  /* server address, IPv4 */
	int port;		  /* server port */
	const char *path;	  /* request path, "/" */
	long connections;	  /* play and idle: connections to hold */
	double ramp;		  /* connections started per second */
	double duration_s;	  /* measured window */
	double warmup_s;	  /* before the window */
	double move_rate;	  /* moves per second per room; 0: flat out */
	double churn;		  /* churn: new connections per second */
	enum mode mode;		  /* what the connections do */
	int sources;		  /* 127.0.0.2.. source addresses; 0: none */
	bool compact;		  /* ask for updates=move */
	const char *tc;		  /* the time control asked for; NULL: the
				   * server's default */
	bool long_games;	  /* fill the board, not five in a row */
	pid_t server_pid;	  /* read /proc/PID when > 0 */
	const char *label;	  /* the scenario's name */
	bool json;		  /* print JSON, not the table */
	bool verbose;		  /* a progress line a second on stderr */
	double handshake_timeout; /* seconds to connect and upgrade */
	double drain_timeout;	  /* churn: seconds to let games finish */
	long max_pending;	  /* handshakes under way at most */
	uint64_t seed;		  /* of the PRNG; 0: from the clock */
	long watchers;		  /* spectators per room matched */
	long crowd;		  /* ... and more for one room at a time */
};

enum conn_state {
	CONN_FREE,	 /* no socket; may wait on a timer to start */
	CONN_CONNECTING, /* TCP connect in progress */
	CONN_UPGRADING,	 /* request sent, waiting for 101 */
	CONN_OPEN,	 /* WebSocket open */
	CONN_CLOSING,	 /* close frame sent or received; waiting for EOF */
};

/* One of these per connection slot; a slot is reused connection after
 * connection, its gen telling stale epoll events apart. */
struct conn {
	int fd;		       /* the socket; -1 when free */
	uint32_t gen;	       /* bumped on every release */
	enum conn_state state; /* see enum conn_state */
	enum side side;	       /* own side once matched */
	bool close_sent;       /* we sent a close frame */
	bool game_over;	       /* `winner` or `disconnect` came */
	bool rematching;       /* the crowd's room's game ended: its
				* rematch is under way (player_rematch) */
	int size;	       /* board size from `welcome` or `role` */
	int row;	       /* own stones go on this row ... */
	int col0;	       /* ... from this column on */
	int cell;	       /* long games: next cell to try, row-major */
	int stones;	       /* own moves sent this game */
	int stones_max;	       /* moves the script has for this side */
	unsigned int games; /* games this slot began; kept across connections */
	long moves;	    /* moves played in the room, last seen */
	uint64_t started_ns;	     /* when the connection was started */
	uint64_t sent_ns;	     /* when the last own move was sent */
	long sent_moves;	     /* its number in the room */
	struct conn *peer;	     /* the opponent, when it is ours too */
	struct conn *room_next;	     /* in lg->rooms while half-matched */
	char room[MESSAGE_ROOM_MAX]; /* room id from `role` */
	uint64_t due_ns;	     /* timer: when it fires */
	int heap_index;		     /* in lg->heap; -1: no timer */
	uint8_t *rx;		     /* bytes of an unfinished frame or head */
	size_t rx_len, rx_cap;	     /* ... used and allocated */
	uint8_t *frag;		     /* a message arriving in pieces */
	size_t frag_len, frag_cap;   /* ... used and allocated */
	bool fragmented;	     /* a fragmented message is under way */
	uint8_t *tx;		     /* bytes the socket did not take */
	size_t tx_len, tx_cap;	     /* ... pending and allocated */
	/* Spectators: a slot past the players' (lg->conn_count on). */
	bool spectator;	    /* this slot watches rooms */
	bool watching;	    /* `spectate` came for its room */
	long owner;	    /* the room's player slot (see watch_on_room) */
	uint32_t owner_gen; /* ... and its gen then */
	long watch_last;    /* `moves` of the last board seen; -1: none */
	/* A room's player slot (the second of the pair to hear `role`). */
	long watch_want; /* spectators asked for its room */
	long watch_have; /* ... sent to it so far */
	long watch_open; /* ... watching it now */
};

/* A room matched that has fewer spectators sent than asked. */
struct watch_room {
	long slot;    /* its player slot, room in conn.room */
	uint32_t gen; /* ... gen then: a later connection is not it */
};

/* The spectators' own counters, whole run. */
struct spect_counters {
	uint64_t attempted;	   /* connections started */
	uint64_t opened;	   /* upgraded */
	uint64_t failed;	   /* did not connect or upgrade */
	uint64_t closed;	   /* opened, then closed */
	uint64_t messages;	   /* text messages received */
	uint64_t spectates;	   /* `spectate` messages */
	uint64_t wrong_room;	   /* ... naming another room than asked */
	uint64_t followed;	   /* ... again, the room's rematch */
	uint64_t boards;	   /* `board` messages */
	uint64_t boards_full;	   /* ... with `content` */
	uint64_t boards_missed;	   /* gaps in their move numbers */
	uint64_t winners;	   /* `winner` messages */
	uint64_t winners_complete; /* ... after the game's last board */
	uint64_t disconnects;	   /* `disconnect`: the room closed */
	uint64_t pongs;		   /* WebSocket pings answered */
	uint64_t rooms_asked;	   /* rooms matched that asked for some */
	uint64_t rooms_skipped;	   /* ... not queued: the queue was full */
};

/* Counters that only grow; the window figures are differences. */
struct counters {
	uint64_t attempted;	 /* connections started */
	uint64_t opened;	 /* upgraded */
	uint64_t failed;	 /* did not connect or upgrade */
	uint64_t closed;	 /* opened, then closed */
	uint64_t roles;		 /* `role` messages: two per match */
	uint64_t moves_sent;	 /* own moves sent */
	uint64_t moves_accepted; /* own moves echoed in a `board` */
	uint64_t games_won;	 /* `winner` naming the receiver */
	uint64_t boards_full;	 /* `board` messages with `content` */
	uint64_t boards_compact; /* ... without */
};

enum phase {
	PHASE_RAMP,   /* starting the connections */
	PHASE_WARMUP, /* running, not measured yet */
	PHASE_WINDOW, /* measured */
	PHASE_COUNT,  /* play: the same load, the server's calls counted */
	PHASE_DRAIN,  /* churn: no new connections, games finishing */
	PHASE_STOP,   /* closing every connection */
	PHASE_DONE,
};

/* The whole load generator: one per process. */
struct loadgen {
	struct options opt; /* from the command line */
	int epoll_fd;	    /* the players' sockets, edge-triggered, and
			     * spect_fd level-triggered */
	int spect_fd;	    /* the spectators' sockets, edge-triggered:
			     * read SPECT_EVENTS at a time, after the
			     * players' (loadgen_run) */
	struct conn *conns; /* slots */
	long conn_count;    /* ... how many */
	long *free_slots;   /* churn: slots not in use */
	long free_count;    /* ... how many */
	long *ready;	    /* play, idle: free slots waiting for a handshake
		     * to finish before they start, a ring */
	long ready_head, ready_len;  /* ... first and how many */
	long *heap;		     /* timers: slot indices, min-heap */
	long heap_len;		     /* ... in use */
	struct conn **rooms;	     /* half-matched rooms by id hash */
	struct histogram latency;    /* move -> opponent received, µs */
	struct histogram matching;   /* connect -> `role`, µs */
	struct counters count;	     /* whole run */
	struct counters at_start;    /* copy at window start */
	struct counters at_end;	     /* copy at window end */
	struct tally errors;	     /* `error` by code */
	struct tally closes;	     /* closes we did not ask for */
	struct tally connect_errors; /* failed connections by cause */
	uint8_t *rx;		     /* RX_BUFFER_SIZE bytes */
	uint64_t rng;		     /* xorshift64* state */
	enum phase phase;	     /* see enum phase */
	uint64_t phase_ns;	     /* when it began */
	uint64_t start_ns;	     /* when the run began */
	uint64_t churn_origin_ns;    /* churn: pacing starts here */
	uint64_t window_start_ns, window_end_ns;
	long started;		   /* play, idle: slots started by the ramp */
	uint64_t churn_started;	   /* churn: connections started */
	long open_now;		   /* connections open now */
	long pending;		   /* connecting or upgrading now */
	long matched_now;	   /* ... of them matched */
	long held;		   /* most open at once */
	long open_at_end;	   /* open when the window ended */
	long matched_at_end;	   /* ... of them matched */
	struct sockaddr_in target; /* the server */
	char host_port[64];	   /* "HOST:PORT" for Host: */
	char tc_query[32];	   /* "&tc=BASE%2BINC", or "" */
	struct procstat srv_empty, srv_start, srv_end, srv_after;
	struct procstat srv_mid; /* halfway through the window */
	/*
	 * The server's system calls, counted for SYSCOUNT_NS after the
	 * window under the same load (PHASE_COUNT), not in it: the
	 * tracepoint counters cost the server a little on every call, and
	 * attaching or detaching them stalls the machine for a moment;
	 * the window's figures must include neither.
	 */
	struct syscount syscount;
	struct syscount_reading sys_start, sys_end;
	uint64_t sys_moves_start; /* moves_accepted when counting began */
	uint64_t sys_moves;	  /* ... accepted while it counted */
	double client_cpu_start, client_cpu_end;
	double client_wait_start, client_wait_end; /* runnable, not running */
	uint64_t progress_ns;			   /* last progress line */
	uint64_t progress_moves; /* moves_accepted at that line */
	/* Spectators: slots conn_count .. slot_count - 1. */
	long slot_count;		/* players' and spectators' slots */
	long *watch_idle;		/* spectator slots with no room */
	long watch_idle_len;		/* ... how many */
	struct watch_room *watch_short; /* rooms short of spectators, FIFO */
	long short_head, short_len, short_cap;
	long crowd_slot;	     /* the crowd's room's player slot; -1 */
	uint32_t crowd_gen;	     /* ... its gen */
	struct spect_counters spect; /* whole run */
	struct spect_counters spect_at_start, spect_at_end;
	long spect_open_now;	     /* spectator connections open now */
	long spect_held;	     /* ... most at once */
	long spect_open_at_end;	     /* ... when the window ended */
	struct tally spect_errors;   /* `error` codes, failed connects */
	struct tally spect_closes;   /* closes they did not ask for */
	uint64_t sample_ns;	     /* last sample of who watches */
	uint64_t samples;	     /* samples in the window */
	double crowd_sum, spect_sum; /* ... sums: the crowd, all open */
	long crowd_min, crowd_max;   /* ... the crowd's extremes */
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int signo)
{
	(void)signo;
	stop_requested = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

static double cpu_self_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* xorshift64*: cheap, good enough for keys, masks and uids. */
static uint64_t loadgen_random(struct loadgen *lg)
{
	lg->rng ^= lg->rng >> 12;
	lg->rng ^= lg->rng << 25;
	lg->rng ^= lg->rng >> 27;
	return lg->rng * 0x2545F4914F6CDD1Dull;
}

/* A random version 4 UUID, lower case, into out[37]. */
static void loadgen_uid(struct loadgen *lg, char *out)
{
	uint8_t b[16];
	uint64_t r0 = loadgen_random(lg), r1 = loadgen_random(lg);

	memcpy(b, &r0, 8);
	memcpy(b + 8, &r1, 8);
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	snprintf(out, 37,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9],
		 b[10], b[11], b[12], b[13], b[14], b[15]);
}

/* ---- timers: a binary min-heap of slots, one timer per slot ---- */

static bool heap_less(struct loadgen *lg, long a, long b)
{
	return lg->conns[lg->heap[a]].due_ns < lg->conns[lg->heap[b]].due_ns;
}

static void heap_swap(struct loadgen *lg, long a, long b)
{
	long slot = lg->heap[a];

	lg->heap[a] = lg->heap[b];
	lg->heap[b] = slot;
	lg->conns[lg->heap[a]].heap_index = (int)a;
	lg->conns[lg->heap[b]].heap_index = (int)b;
}

static void heap_up(struct loadgen *lg, long at)
{
	while (at > 0 && heap_less(lg, at, (at - 1) / 2)) {
		heap_swap(lg, at, (at - 1) / 2);
		at = (at - 1) / 2;
	}
}

static void heap_down(struct loadgen *lg, long at)
{
	for (;;) {
		long least = at, left = 2 * at + 1, right = 2 * at + 2;

		if (left < lg->heap_len && heap_less(lg, left, least))
			least = left;
		if (right < lg->heap_len && heap_less(lg, right, least))
			least = right;
		if (least == at)
			return;
		heap_swap(lg, at, least);
		at = least;
	}
}

static void timer_clear(struct loadgen *lg, struct conn *c)
{
	long at = c->heap_index;

	if (at < 0)
		return;
	c->heap_index = -1;
	lg->heap_len--;
	if (at == lg->heap_len)
		return;
	lg->heap[at] = lg->heap[lg->heap_len];
	lg->conns[lg->heap[at]].heap_index = (int)at;
	heap_up(lg, at);
	heap_down(lg, at);
}

/* Makes c's timer fire at due_ns (replacing any earlier setting). */
static void timer_set(struct loadgen *lg, struct conn *c, uint64_t due_ns)
{
	timer_clear(lg, c);
	c->due_ns = due_ns;
	c->heap_index = (int)lg->heap_len;
	lg->heap[lg->heap_len++] = c - lg->conns;
	heap_up(lg, c->heap_index);
}

/* ---- half-matched rooms: the first side to hear `role` waits here ---- */

static uint32_t room_hash(const char *room)
{
	uint32_t h = 2166136261u;

	while (*room)
		h = (h ^ (uint8_t)*room++) * 16777619u;
	return h;
}

static void room_forget(struct loadgen *lg, struct conn *c)
{
	struct conn **link;

	if (!c->room[0] || c->spectator)
		return;
	link = &lg->rooms[room_hash(c->room) % ROOM_BUCKETS];
	for (; *link; link = &(*link)->room_next) {
		if (*link == c) {
			*link = c->room_next;
			break;
		}
	}
	c->room_next = NULL;
}

/* Pairs c with the other side of its room when that one is ours; true
 * when it did (c keeps the room id, the other side's is cleared). */
static bool room_join(struct loadgen *lg, struct conn *c)
{
	struct conn **link = &lg->rooms[room_hash(c->room) % ROOM_BUCKETS];

	for (; *link; link = &(*link)->room_next) {
		struct conn *other = *link;

		if (!strcmp(other->room, c->room)) {
			*link = other->room_next;
			other->room_next = NULL;
			other->room[0] = '\0'; /* no longer in the hash */
			other->peer = c;
			c->peer = other;
			return true;
		}
	}
	c->room_next = lg->rooms[room_hash(c->room) % ROOM_BUCKETS];
	lg->rooms[room_hash(c->room) % ROOM_BUCKETS] = c;
	return false;
}

/* ---- connections ---- */

static void conn_release(struct loadgen *lg, struct conn *c);

/* Keeps bytes the socket did not take, to send on EPOLLOUT. */
static int conn_keep_tx(struct conn *c, const uint8_t *bytes, size_t len)
{
	if (c->tx_len + len > c->tx_cap) {
		size_t cap = (c->tx_len + len) * 2;
		uint8_t *tx = realloc(c->tx, cap);

		if (!tx)
			return -1;
		c->tx = tx;
		c->tx_cap = cap;
	}
	memcpy(c->tx + c->tx_len, bytes, len);
	c->tx_len += len;
	return 0;
}

/* Writes what is pending; -1 when the connection broke (not released). */
static int conn_flush(struct conn *c)
{
	size_t done = 0;

	while (done < c->tx_len) {
		ssize_t n = send(c->fd, c->tx + done, c->tx_len - done,
				 MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				break;
			return -1;
		}
		done += (size_t)n;
	}
	memmove(c->tx, c->tx + done, c->tx_len - done);
	c->tx_len -= done;
	return 0;
}

/* Sends bytes, or keeps what the socket does not take. */
static int conn_send_bytes(struct conn *c, const uint8_t *bytes, size_t len)
{
	ssize_t n = 0;

	if (!c->tx_len) {
		do
			n = send(c->fd, bytes, len, MSG_NOSIGNAL);
		while (n < 0 && errno == EINTR);
		if (n < 0) {
			if (errno != EAGAIN)
				return -1;
			n = 0;
		}
	}
	if ((size_t)n < len)
		return conn_keep_tx(c, bytes + n, len - (size_t)n);
	return 0;
}

/* Name of an errno for the failure tally. */
static const char *errno_name(int err)
{
	switch (err) {
	case ECONNREFUSED:
		return "ECONNREFUSED";
	case ECONNRESET:
		return "ECONNRESET";
	case EADDRNOTAVAIL:
		return "EADDRNOTAVAIL";
	case EADDRINUSE:
		return "EADDRINUSE";
	case EMFILE:
		return "EMFILE";
	case ENFILE:
		return "ENFILE";
	case ETIMEDOUT:
		return "ETIMEDOUT";
	case EPIPE:
		return "EPIPE";
	case ENOBUFS:
		return "ENOBUFS";
	case ENOMEM:
		return "ENOMEM";
	}
	return "other_errno";
}

/* Queues free slot c to start once fewer handshakes are under way. */
static void conn_ready(struct loadgen *lg, struct conn *c)
{
	lg->ready[(lg->ready_head + lg->ready_len++) % lg->slot_count] =
		c - lg->conns;
}

/* ---- spectators ---- */

/* The player slot of a room still in its game, or NULL. */
static struct conn *watch_owner(struct loadgen *lg, long slot, uint32_t gen)
{
	struct conn *owner;

	if (slot < 0)
		return NULL;
	owner = &lg->conns[slot];
	if (owner->gen != gen || owner->state != CONN_OPEN ||
	    (owner->game_over && !owner->rematching))
		return NULL;
	return owner;
}

/*
 * Sends idle spectators to the rooms short of them, oldest room first;
 * a room whose game ended, or that has all it asked for, leaves the
 * queue. A spectator waits in lg->ready like any connection.
 */
static void watch_dispatch(struct loadgen *lg)
{
	while (lg->short_len) {
		struct watch_room *room = &lg->watch_short[lg->short_head];
		struct conn *owner = watch_owner(lg, room->slot, room->gen);
		struct conn *s;

		if (!owner || owner->watch_have >= owner->watch_want) {
			lg->short_head = (lg->short_head + 1) % lg->short_cap;
			lg->short_len--;
			continue;
		}
		if (!lg->watch_idle_len || lg->phase >= PHASE_DRAIN)
			return;
		s = &lg->conns[lg->watch_idle[--lg->watch_idle_len]];
		memcpy(s->room, owner->room, sizeof(s->room));
		s->owner = room->slot;
		s->owner_gen = room->gen;
		owner->watch_have++;
		conn_ready(lg, s);
	}
}

/* A room was matched, owner its player slot that kept the room id: ask
 * for its spectators, and for the crowd when no live room has it. */
static void watch_on_room(struct loadgen *lg, struct conn *owner)
{
	long want = lg->opt.watchers;
	struct watch_room *room;

	owner->watch_want = owner->watch_have = owner->watch_open = 0;
	if (lg->opt.crowd && !watch_owner(lg, lg->crowd_slot, lg->crowd_gen)) {
		lg->crowd_slot = owner - lg->conns;
		lg->crowd_gen = owner->gen;
		want += lg->opt.crowd;
	}
	if (!want)
		return;
	lg->spect.rooms_asked++;
	if (lg->short_len == lg->short_cap) {
		lg->spect.rooms_skipped++;
		return;
	}
	owner->watch_want = want;
	room = &lg->watch_short[(lg->short_head + lg->short_len++) %
				lg->short_cap];
	room->slot = owner - lg->conns;
	room->gen = owner->gen;
	watch_dispatch(lg);
}

/* A spectator slot is free again: it waits for the next room short of
 * spectators. */
static void watch_idle(struct loadgen *lg, struct conn *c)
{
	c->room[0] = '\0';
	c->owner = -1;
	lg->watch_idle[lg->watch_idle_len++] = c - lg->conns;
	watch_dispatch(lg);
}

/* What happens to a slot once its connection is gone. */
static void conn_recycle(struct loadgen *lg, struct conn *c, uint64_t delay)
{
	if (c->spectator) {
		/* Its room is over or it failed: the next room short of
		 * spectators, after the retry delay if it failed. */
		if (lg->phase >= PHASE_DRAIN)
			return;
		if (delay)
			timer_set(lg, c, now_ns() + delay);
		else
			watch_idle(lg, c);
		return;
	}
	if (lg->opt.mode == MODE_CHURN) {
		lg->free_slots[lg->free_count++] = c - lg->conns;
		return;
	}
	/* play, idle: keep the count, with a new uid. */
	if (lg->phase >= PHASE_DRAIN)
		return;
	if (delay)
		timer_set(lg, c, now_ns() + delay);
	else
		conn_ready(lg, c);
}

/* A connection that never opened: counted by cause, retried later. */
static void conn_fail(struct loadgen *lg, struct conn *c, const char *cause)
{
	if (c->spectator) {
		char name[TALLY_NAME_MAX];

		lg->spect.failed++;
		snprintf(name, sizeof(name), "connect_%s", cause);
		tally_add(&lg->spect_errors, name, 1);
	} else {
		lg->count.failed++;
		tally_add(&lg->connect_errors, cause, 1);
	}
	conn_release(lg, c);
	conn_recycle(lg, c, RETRY_DELAY_NS);
}

/* An open connection that ended; cause names a close we did not ask for. */
static void conn_end(struct loadgen *lg, struct conn *c, const char *cause)
{
	if (cause)
		tally_add(c->spectator ? &lg->spect_closes : &lg->closes, cause,
			  1);
	conn_release(lg, c);
	conn_recycle(lg, c, 0);
}

/* Any connection that broke: a failure before 101, an end after. */
static void conn_drop(struct loadgen *lg, struct conn *c, const char *cause)
{
	if (c->state == CONN_CONNECTING || c->state == CONN_UPGRADING)
		conn_fail(lg, c, cause);
	else
		conn_end(lg, c, c->state == CONN_CLOSING ? NULL : cause);
}

/* Sends one frame; on a broken socket drops the connection, returns -1. */
static int conn_send(struct loadgen *lg, struct conn *c, enum ws_opcode op,
		     const void *payload, size_t len)
{
	uint8_t frame[WS_CLIENT_HEADER_MAX + TX_FRAME_MAX];
	size_t frame_len;

	if (len > TX_FRAME_MAX)
		len = TX_FRAME_MAX;
	frame_len = ws_frame_encode(frame, op, payload, len,
				    (uint32_t)loadgen_random(lg));
	if (conn_send_bytes(c, frame, frame_len)) {
		conn_drop(lg, c, errno_name(errno));
		return -1;
	}
	return 0;
}

/* Starts closing an open connection with code. */
static void conn_close(struct loadgen *lg, struct conn *c, int code)
{
	uint8_t payload[2] = { (uint8_t)(code >> 8), (uint8_t)code };

	if (c->state != CONN_OPEN)
		return;
	c->close_sent = true;
	if (conn_send(lg, c, WS_CLOSE, payload, 2))
		return;
	c->state = CONN_CLOSING;
	timer_set(lg, c, now_ns() + CLOSE_TIMEOUT_NS);
}

/* Starts a new connection in free slot c. */
static void conn_start(struct loadgen *lg, struct conn *c)
{
	long slot = c - lg->conns;
	struct epoll_event ev;
	int one = 1;

	timer_clear(lg, c);
	if (c->spectator)
		lg->spect.attempted++;
	else
		lg->count.attempted++;
	c->started_ns = now_ns();
	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0) {
		conn_fail(lg, c, errno_name(errno));
		return;
	}
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (lg->opt.sources > 0) {
		/* Spread over 127.0.0.2.. so one source's ephemeral ports are
		 * no limit; the port is picked at connect() time. */
		struct sockaddr_in source = { .sin_family = AF_INET };

		source.sin_addr.s_addr =
			htonl(0x7f000002u + (uint32_t)(slot % lg->opt.sources));
		setsockopt(c->fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one,
			   sizeof(one));
		if (bind(c->fd, (struct sockaddr *)&source, sizeof(source))) {
			conn_fail(lg, c, errno_name(errno));
			return;
		}
	}
	if (connect(c->fd, (struct sockaddr *)&lg->target,
		    sizeof(lg->target)) &&
	    errno != EINPROGRESS) {
		conn_fail(lg, c, errno_name(errno));
		return;
	}
	c->state = CONN_CONNECTING;
	lg->pending++;
	ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
	ev.data.u64 = (uint64_t)slot | (uint64_t)c->gen << 32;
	if (epoll_ctl(c->spectator ? lg->spect_fd : lg->epoll_fd, EPOLL_CTL_ADD,
		      c->fd, &ev)) {
		conn_fail(lg, c, errno_name(errno));
		return;
	}
	timer_set(lg, c,
		  now_ns() + (uint64_t)(lg->opt.handshake_timeout * 1e9));
}

/* The TCP connection is up: send the upgrade request. */
static void conn_connected(struct loadgen *lg, struct conn *c)
{
	char target[256], uid[37], request[512];
	int err = 0;
	socklen_t err_len = sizeof(err);
	uint8_t key[16];
	uint64_t r0, r1;
	size_t len;

	if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &err_len) || err) {
		conn_fail(lg, c, errno_name(err ? err : errno));
		return;
	}
	if (c->spectator) {
		snprintf(target, sizeof(target), "%s?watch=%s%s", lg->opt.path,
			 c->room, lg->opt.compact ? "&updates=move" : "");
	} else {
		loadgen_uid(lg, uid);
		snprintf(target, sizeof(target), "%s?uid=%s%s%s", lg->opt.path,
			 uid, lg->opt.compact ? "&updates=move" : "",
			 lg->tc_query);
	}
	r0 = loadgen_random(lg);
	r1 = loadgen_random(lg);
	memcpy(key, &r0, 8);
	memcpy(key + 8, &r1, 8);
	len = ws_request_write(request, sizeof(request), lg->host_port, target,
			       key);
	c->state = CONN_UPGRADING;
	if (!len || conn_send_bytes(c, (uint8_t *)request, len))
		conn_fail(lg, c, "send_request");
}

/* The server said 101. */
static void conn_opened(struct loadgen *lg, struct conn *c)
{
	c->state = CONN_OPEN;
	timer_clear(lg, c);
	lg->pending--;
	if (c->spectator) {
		lg->spect.opened++;
		if (++lg->spect_open_now > lg->spect_held)
			lg->spect_held = lg->spect_open_now;
		return;
	}
	lg->count.opened++;
	lg->open_now++;
	if (lg->open_now > lg->held)
		lg->held = lg->open_now;
}

static void conn_release(struct loadgen *lg, struct conn *c)
{
	if (c->state == CONN_CONNECTING || c->state == CONN_UPGRADING)
		lg->pending--;
	if (c->spectator &&
	    (c->state == CONN_OPEN || c->state == CONN_CLOSING)) {
		struct conn *owner =
			c->watching ? watch_owner(lg, c->owner, c->owner_gen) :
				      NULL;

		lg->spect.closed++;
		lg->spect_open_now--;
		if (owner)
			owner->watch_open--;
	} else if (c->state == CONN_OPEN || c->state == CONN_CLOSING) {
		lg->count.closed++;
		lg->open_now--;
		if (c->side != SIDE_NONE)
			lg->matched_now--;
	}
	if (c->fd >= 0)
		close(c->fd); /* also leaves the epoll set */
	c->fd = -1;
	c->gen++;
	timer_clear(lg, c);
	room_forget(lg, c);
	if (c->peer)
		c->peer->peer = NULL;
	c->peer = NULL;
	c->room[0] = '\0';
	c->state = CONN_FREE;
	c->side = SIDE_NONE;
	c->close_sent = false;
	c->game_over = false;
	c->rematching = false;
	c->watching = false;
	c->watch_last = -1;
	c->fragmented = false;
	c->size = 15;
	c->stones = 0;
	c->moves = 0;
	c->sent_moves = -1;
	c->rx_len = 0;
	c->frag_len = 0;
	c->tx_len = 0;
	/* Big buffers go back; small ones are kept for the next connection. */
	if (c->rx_cap > 4096) {
		free(c->rx);
		c->rx = NULL;
		c->rx_cap = 0;
	}
	if (c->frag_cap > 4096) {
		free(c->frag);
		c->frag = NULL;
		c->frag_cap = 0;
	}
}

/* ---- playing ---- */

/*
 * Long games: the colour of cell (x, y), 0 for front and 1 for back.
 * floor((x + 2y) / 2) mod 2 never has more than two equal cells in a row
 * in any direction, so a board filled this way has no five; front gets
 * ceil(N*N / 2) cells, back the rest, as strict turns need.
 */
static int long_game_colour(int x, int y)
{
	return (x + 2 * y) / 2 % 2;
}

/* Moves in one game of c's room. */
static int player_game_moves(const struct loadgen *lg, const struct conn *c)
{
	return lg->opt.long_games ? c->size * c->size : SHORT_GAME_MOVES;
}

/*
 * The script of c's side in its room. Both sides derive the same rows from
 * the room id: front fills columns col0..col0+4 of front_row, back plays
 * col0..col0+3 of another row, so front wins with its fifth stone, the
 * ninth move, and no move is ever refused. Rooms differ in where they play.
 */
static void player_plan(struct conn *c)
{
	uint32_t h = room_hash(c->room);
	int size = c->size >= 5 ? c->size : 15;
	int front_row = (int)(h % (uint32_t)size);
	int back_row =
		(front_row + 1 + (int)((h >> 8) % (uint32_t)(size - 1))) % size;

	c->col0 = (int)((h >> 16) % (uint32_t)(size - 4));
	c->row = c->side == SIDE_FRONT ? front_row : back_row;
	c->stones = 0;
	c->stones_max = c->side == SIDE_FRONT ? 5 : 4;
}

/* The script of a long game: every cell of one's colour, row by row, up
 * to a full board (`winner` with reason `full`). */
static void player_plan_long(struct conn *c)
{
	int size = c->size >= 5 ? c->size : 15;

	c->size = size;
	c->cell = 0;
	c->stones = 0;
	c->stones_max = c->side == SIDE_FRONT ? (size * size + 1) / 2 :
						size * size / 2;
}

/* Sends c's next move now. */
static void player_move(struct loadgen *lg, struct conn *c, uint64_t now)
{
	char text[64];
	int len;

	if (c->state != CONN_OPEN || c->game_over || c->stones >= c->stones_max)
		return;
	if (lg->opt.long_games) {
		int colour = c->side == SIDE_FRONT ? 0 : 1;

		while (long_game_colour(c->cell % c->size, c->cell / c->size) !=
		       colour)
			c->cell++;
		len = snprintf(text, sizeof(text),
			       "{\"type\":\"move\",\"x\":%d,\"y\":%d}",
			       c->cell % c->size, c->cell / c->size);
		c->cell++;
	} else {
		len = snprintf(text, sizeof(text),
			       "{\"type\":\"move\",\"x\":%d,\"y\":%d}",
			       c->col0 + c->stones, c->row);
	}
	c->stones++;
	c->sent_ns = now;
	c->sent_moves = c->moves + 1;
	lg->count.moves_sent++;
	conn_send(lg, c, WS_TEXT, text, (size_t)len);
}

/* It is c's turn: move now or when the room's pace allows. */
static void player_turn(struct loadgen *lg, struct conn *c, uint64_t now,
			bool first)
{
	uint64_t interval, due;

	if (lg->opt.mode == MODE_IDLE || c->game_over ||
	    c->stones >= c->stones_max)
		return;
	if (lg->opt.move_rate <= 0) {
		player_move(lg, c, now);
		return;
	}
	interval = (uint64_t)(1e9 / lg->opt.move_rate);
	if (first && c->games == 1 && lg->opt.mode == MODE_PLAY)
		/* A slot's first game: start at a random point of one whole
		 * game, so games end, and players reconnect, at a steady rate
		 * rather than in waves. */
		due = now +
		      loadgen_random(lg) %
			      ((uint64_t)player_game_moves(lg, c) * interval);
	else if (first)
		/* Spread the rooms' first moves over two intervals: one on
		 * average, so a room keeps its pace across games. */
		due = now + loadgen_random(lg) % (2 * interval);
	else if (c->peer && c->peer->sent_moves == c->moves)
		/* One interval after the opponent moved. */
		due = c->peer->sent_ns + interval;
	else
		due = now + interval;
	if (due <= now)
		player_move(lg, c, now);
	else
		timer_set(lg, c, due);
}

static void player_on_role(struct loadgen *lg, struct conn *c,
			   const struct message *msg, uint64_t now)
{
	if (msg->role != SIDE_FRONT && msg->role != SIDE_BACK)
		return;
	if (c->side == SIDE_NONE) {
		lg->matched_now++;
		if (lg->phase == PHASE_WINDOW || lg->opt.mode == MODE_IDLE)
			histogram_record(&lg->matching,
					 (now - c->started_ns + 500) / 1000);
	}
	lg->count.roles++;
	c->side = msg->role;
	if (msg->size)
		c->size = msg->size;
	room_forget(lg, c);
	if (c->rematching) {
		/* The rematch of the crowd's room: the same pair, the same
		 * player slot keeps the room's id, and the crowd follows. */
		c->rematching = false;
		if (c->room[0])
			snprintf(c->room, sizeof(c->room), "%s", msg->room);
	} else {
		snprintf(c->room, sizeof(c->room), "%s", msg->room);
		if (c->room[0] && room_join(lg, c))
			watch_on_room(lg, c);
	}
	c->moves = 0;
	c->game_over = false;
	c->games++;
	if (lg->opt.long_games)
		player_plan_long(c);
	else
		player_plan(c);
	if (c->side == SIDE_FRONT)
		player_turn(lg, c, now, true);
}

static void player_on_board(struct loadgen *lg, struct conn *c,
			    const struct message *msg, uint64_t now)
{
	if (msg->has_content)
		lg->count.boards_full++;
	else
		lg->count.boards_compact++;
	if (msg->moves >= 0)
		c->moves = msg->moves;
	if (!msg->has_move)
		return;
	if (msg->move_role == c->side) {
		lg->count.moves_accepted++;
		return;
	}
	/* The opponent's move: time it when we sent it. */
	if (c->peer && c->peer->sent_moves == msg->moves &&
	    lg->phase == PHASE_WINDOW)
		histogram_record(&lg->latency,
				 (now - c->peer->sent_ns + 500) / 1000);
	if (msg->role == c->side)
		player_turn(lg, c, now, false);
}

/*
 * The crowd's room's game ended (`winner` came to c): in play mode its
 * players play a rematch rather than leave, so that its crowd follows it
 * into the new room, as a real audience does, instead of coming back
 * thousands at once. The room's player slot offers, the other side
 * accepts (player_on_offer). True when c stays for the rematch.
 */
static bool player_rematch(struct loadgen *lg, struct conn *c)
{
	static const char offer[] = "{\"type\":\"offer\",\"what\":\"rematch\"}";
	struct conn *owner =
		&lg->conns[lg->crowd_slot < 0 ? 0 : lg->crowd_slot];

	if (lg->opt.mode != MODE_PLAY || lg->crowd_slot < 0 ||
	    lg->phase >= PHASE_DRAIN || owner->gen != lg->crowd_gen ||
	    owner->state != CONN_OPEN || (c != owner && c->peer != owner))
		return false;
	c->rematching = true;
	if (c == owner)
		conn_send(lg, c, WS_TEXT, offer, sizeof(offer) - 1);
	return true;
}

/* An offer came (to both sides): the crowd's room's rematch, accepted by
 * the side that did not make it; nothing else is ever offered to the load
 * generator's players. */
static void player_on_offer(struct loadgen *lg, struct conn *c)
{
	static const char accept[] =
		"{\"type\":\"answer\",\"what\":\"rematch\",\"accept\":true}";

	if (c->rematching && c - lg->conns != lg->crowd_slot)
		conn_send(lg, c, WS_TEXT, accept, sizeof(accept) - 1);
}

/*
 * A spectator's message: counted and checked, never answered (a spectator
 * sends nothing but pongs to the server's pings, and its close). It
 * leaves when its room closes (`disconnect`); see watch_idle.
 */
static void spectator_on_message(struct loadgen *lg, struct conn *c,
				 const struct message *msg)
{
	struct conn *owner;

	lg->spect.messages++;
	switch (msg->type) {
	case MESSAGE_WELCOME:
		if (msg->size)
			c->size = msg->size;
		break;
	case MESSAGE_SPECTATE:
		lg->spect.spectates++;
		if (msg->size)
			c->size = msg->size;
		c->watch_last = -1;
		if (strcmp(msg->room, c->room)) {
			/* Once watching: the room's rematch, followed. Else
			 * not the room asked for. */
			if (c->watching)
				lg->spect.followed++;
			else
				lg->spect.wrong_room++;
			snprintf(c->room, sizeof(c->room), "%s", msg->room);
			break;
		}
		if (c->watching)
			break;
		c->watching = true;
		owner = watch_owner(lg, c->owner, c->owner_gen);
		if (owner)
			owner->watch_open++;
		else
			c->watching = false; /* nothing to count it in */
		break;
	case MESSAGE_BOARD:
		lg->spect.boards++;
		if (msg->has_content)
			lg->spect.boards_full++;
		lg->spect.boards_missed += (uint64_t)message_boards_missed(
			c->watch_last, msg->moves);
		if (msg->moves >= 0)
			c->watch_last = msg->moves;
		break;
	case MESSAGE_WINNER:
		lg->spect.winners++;
		if (c->watch_last == player_game_moves(lg, c))
			lg->spect.winners_complete++;
		break;
	case MESSAGE_DISCONNECT:
		lg->spect.disconnects++;
		conn_close(lg, c, 1000);
		break;
	case MESSAGE_ERROR:
		tally_add(&lg->spect_errors,
			  msg->code[0] ? msg->code : "no_code", 1);
		break;
	default:
		break;
	}
}

/* One complete text message from the server. */
static void conn_on_message(struct loadgen *lg, struct conn *c,
			    const char *text, size_t len, uint64_t now)
{
	struct message msg;

	if (c->state != CONN_OPEN)
		return;
	if (message_scan(&msg, text, len)) {
		tally_add(c->spectator ? &lg->spect_errors : &lg->errors,
			  "unparsable_message", 1);
		return;
	}
	if (c->spectator) {
		spectator_on_message(lg, c, &msg);
		return;
	}
	switch (msg.type) {
	case MESSAGE_WELCOME:
		if (msg.size)
			c->size = msg.size;
		break;
	case MESSAGE_ROLE:
		player_on_role(lg, c, &msg, now);
		break;
	case MESSAGE_BOARD:
		player_on_board(lg, c, &msg, now);
		break;
	case MESSAGE_WINNER:
		c->game_over = true;
		timer_clear(lg, c);
		if (msg.winner == c->side)
			lg->count.games_won++;
		if (lg->opt.mode != MODE_IDLE && !player_rematch(lg, c))
			conn_close(lg, c, 1000);
		break;
	case MESSAGE_OFFER:
		player_on_offer(lg, c);
		break;
	case MESSAGE_DISCONNECT:
		c->game_over = true;
		timer_clear(lg, c);
		if (lg->opt.mode != MODE_IDLE)
			conn_close(lg, c, 1000);
		break;
	case MESSAGE_ERROR:
		tally_add(&lg->errors, msg.code[0] ? msg.code : "no_code", 1);
		if (c->rematching) /* no rematch after all: leave */
			conn_close(lg, c, 1000);
		break;
	case MESSAGE_WAITING:
	case MESSAGE_PONG:
	case MESSAGE_OPPONENT_AWAY:
	case MESSAGE_OPPONENT_BACK:
	case MESSAGE_SPECTATE:
	case MESSAGE_OTHER:
		break;
	}
}

/* Adds a fragment to the message under way; -1 when it grows too long. */
static int conn_append_fragment(struct conn *c, const uint8_t *bytes,
				size_t len)
{
	if (c->frag_len + len > MESSAGE_MAX)
		return -1;
	if (c->frag_len + len > c->frag_cap) {
		size_t cap = (c->frag_len + len) * 2;
		uint8_t *frag = realloc(c->frag, cap);

		if (!frag)
			return -1;
		c->frag = frag;
		c->frag_cap = cap;
	}
	memcpy(c->frag + c->frag_len, bytes, len);
	c->frag_len += len;
	return 0;
}

/* One server frame. The connection may be released on return. */
static void conn_on_frame(struct loadgen *lg, struct conn *c,
			  const struct ws_frame *frame, uint64_t now)
{
	char cause[16];
	int code;

	switch (frame->opcode) {
	case WS_TEXT:
	case WS_BINARY:
		if (c->fragmented) {
			conn_drop(lg, c, "ws_protocol");
			return;
		}
		if (frame->opcode == WS_BINARY)
			tally_add(&lg->errors, "binary_message", 1);
		if (frame->fin) {
			if (frame->opcode == WS_TEXT)
				conn_on_message(lg, c, (char *)frame->payload,
						frame->length, now);
			return;
		}
		c->fragmented = true;
		c->frag_len = 0;
		if (conn_append_fragment(c, frame->payload, frame->length))
			conn_drop(lg, c, "message_too_large");
		return;
	case WS_CONTINUATION:
		if (!c->fragmented ||
		    conn_append_fragment(c, frame->payload, frame->length)) {
			conn_drop(lg, c, "ws_protocol");
			return;
		}
		if (!frame->fin)
			return;
		c->fragmented = false;
		conn_on_message(lg, c, (char *)c->frag, c->frag_len, now);
		return;
	case WS_PING:
		if (c->spectator)
			lg->spect.pongs++;
		conn_send(lg, c, WS_PONG, frame->payload, frame->length);
		return;
	case WS_PONG:
		return;
	case WS_CLOSE:
		code = frame->length >= 2 ?
			       frame->payload[0] << 8 | frame->payload[1] :
			       1005;
		if (!c->close_sent) {
			/* The server closed first: count it, answer it. */
			uint8_t echo[2] = { (uint8_t)(code >> 8),
					    (uint8_t)code };

			snprintf(cause, sizeof(cause), "%d", code);
			tally_add(c->spectator ? &lg->spect_closes :
						 &lg->closes,
				  cause, 1);
			c->close_sent = true;
			if (conn_send(lg, c, WS_CLOSE, echo,
				      code == 1005 ? 0 : 2))
				return;
		}
		if (c->state == CONN_OPEN) {
			c->state = CONN_CLOSING;
			timer_set(lg, c, now + CLOSE_TIMEOUT_NS);
		}
		return;
	}
}

/*
 * Handles buf[0..len) read from c: the response head, then frames.
 * Returns the bytes used (the rest is an unfinished frame), or -1 when c
 * was released on the way.
 */
static long conn_process(struct loadgen *lg, struct conn *c, uint8_t *buf,
			 size_t len, uint64_t now)
{
	uint32_t gen = c->gen;
	size_t used = 0;

	if (c->state == CONN_UPGRADING) {
		char cause[16];
		int status = 0;
		long head = ws_response_parse((char *)buf, len, &status);

		if (!head)
			return 0;
		if (head < 0 || status != 101) {
			snprintf(cause, sizeof(cause), "http_%d",
				 head < 0 ? 0 : status);
			conn_fail(lg, c, cause);
			return -1;
		}
		conn_opened(lg, c);
		used = (size_t)head;
	}
	while (used < len) {
		struct ws_frame frame;
		long n = ws_frame_parse(buf + used, len - used, FRAME_MAX,
					&frame);

		if (!n)
			break;
		if (n < 0) {
			conn_drop(lg, c, "ws_protocol");
			return -1;
		}
		used += (size_t)n;
		conn_on_frame(lg, c, &frame, now);
		if (c->gen != gen)
			return -1;
	}
	return (long)used;
}

/* Keeps an unfinished frame for the next read. */
static int conn_keep_rx(struct conn *c, const uint8_t *bytes, size_t len)
{
	c->rx_len = 0;
	if (!len)
		return 0;
	if (len > c->rx_cap) {
		uint8_t *rx = realloc(c->rx, len < 512 ? 512 : len);

		if (!rx)
			return -1;
		c->rx = rx;
		c->rx_cap = len < 512 ? 512 : len;
	}
	memcpy(c->rx, bytes, len);
	c->rx_len = len;
	return 0;
}

/*
 * Reads until the socket is empty (edge-triggered). A short read means it
 * is, unless the peer's FIN is already queued behind the data (hangup in
 * events): then read on to see the EOF, for no new edge will come.
 */
static void conn_on_readable(struct loadgen *lg, struct conn *c,
			     uint32_t events)
{
	bool hangup = events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR);

	for (;;) {
		size_t have = c->rx_len, room;
		ssize_t n;
		long used;

		if (have)
			memcpy(lg->rx, c->rx, have);
		room = RX_BUFFER_SIZE - have;
		n = recv(c->fd, lg->rx + have, room, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				conn_drop(lg, c, errno_name(errno));
			return;
		}
		if (!n) {
			/* EOF: expected once closing, a drop otherwise. */
			conn_drop(lg, c, "eof");
			return;
		}
		used = conn_process(lg, c, lg->rx, have + (size_t)n, now_ns());
		if (used < 0)
			return;
		if (conn_keep_rx(c, lg->rx + used,
				 have + (size_t)n - (size_t)used)) {
			conn_drop(lg, c, "ENOMEM");
			return;
		}
		/* A short read emptied the socket; the next data is a new
		 * edge. */
		if ((size_t)n < room && !hangup)
			return;
	}
}

static void conn_on_event(struct loadgen *lg, struct conn *c, uint32_t events)
{
	uint32_t gen = c->gen;

	if (c->state == CONN_CONNECTING) {
		if (!(events & (EPOLLOUT | EPOLLERR | EPOLLHUP)))
			return;
		conn_connected(lg, c);
		if (c->gen != gen)
			return;
	}
	if ((events & EPOLLOUT) && c->tx_len && conn_flush(c)) {
		conn_drop(lg, c, errno_name(errno));
		return;
	}
	if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
		conn_on_readable(lg, c, events);
}

/* A slot's timer fired: what that means depends on its state. */
static void conn_on_timer(struct loadgen *lg, struct conn *c, uint64_t now)
{
	switch (c->state) {
	case CONN_FREE:
		if (c->spectator)
			watch_idle(lg, c); /* after a failure's delay */
		else
			conn_ready(lg, c);
		break;
	case CONN_CONNECTING:
	case CONN_UPGRADING:
		conn_fail(lg, c, "handshake_timeout");
		break;
	case CONN_OPEN:
		if (!c->spectator)
			player_move(lg, c, now);
		break;
	case CONN_CLOSING:
		conn_end(lg, c, c->close_sent ? "close_timeout" : NULL);
		break;
	}
}

/* ---- the run ---- */

static void loadgen_snapshot(struct loadgen *lg, struct procstat *stat)
{
	if (lg->opt.server_pid > 0)
		procstat_read(stat, lg->opt.server_pid);
}

static void loadgen_enter(struct loadgen *lg, enum phase phase, uint64_t now)
{
	lg->phase = phase;
	lg->phase_ns = now;
	switch (phase) {
	case PHASE_WINDOW:
		histogram_init(&lg->latency);
		/* Idle: the matching happened in the ramp; keep it. */
		if (lg->opt.mode != MODE_IDLE)
			histogram_init(&lg->matching);
		lg->at_start = lg->count;
		lg->spect_at_start = lg->spect;
		lg->sample_ns = now;
		lg->window_start_ns = now;
		lg->client_cpu_start = cpu_self_s();
		lg->client_wait_start = procstat_wait_s(0);
		loadgen_snapshot(lg, &lg->srv_start);
		break;
	case PHASE_COUNT:
	case PHASE_DRAIN:
	case PHASE_STOP:
		if (lg->window_start_ns && !lg->window_end_ns) {
			lg->at_end = lg->count;
			lg->spect_at_end = lg->spect;
			lg->spect_open_at_end = lg->spect_open_now;
			lg->window_end_ns = now;
			lg->client_cpu_end = cpu_self_s();
			lg->client_wait_end = procstat_wait_s(0);
			lg->open_at_end = lg->open_now;
			lg->matched_at_end = lg->matched_now;
			loadgen_snapshot(lg, &lg->srv_end);
		}
		if (phase == PHASE_COUNT &&
		    !syscount_open(&lg->syscount, lg->opt.server_pid)) {
			syscount_read(&lg->syscount, &lg->sys_start);
			lg->sys_moves_start = lg->count.moves_accepted;
		}
		break;
	default:
		break;
	}
}

/* Closes every connection at the end of a run. */
static void loadgen_close_all(struct loadgen *lg)
{
	long i;

	for (i = 0; i < lg->slot_count; i++) {
		struct conn *c = &lg->conns[i];

		switch (c->state) {
		case CONN_FREE:
			timer_clear(lg, c);
			break;
		case CONN_CONNECTING:
		case CONN_UPGRADING:
			conn_release(lg, c);
			break;
		case CONN_OPEN:
			conn_close(lg, c, 1000);
			break;
		case CONN_CLOSING:
			break;
		}
	}
}

/* Drain: a waiting player will never be matched now; let it go. */
static void loadgen_close_unmatched(struct loadgen *lg)
{
	long i;

	for (i = 0; i < lg->conn_count; i++) {
		struct conn *c = &lg->conns[i];

		if (c->state == CONN_OPEN && c->side == SIDE_NONE)
			conn_close(lg, c, 1000);
		else if (c->state == CONN_CONNECTING ||
			 c->state == CONN_UPGRADING)
			conn_release(lg, c);
	}
}

/* Starts the connections the ramp or the churn rate asks for by now. */
static void loadgen_start_due(struct loadgen *lg, uint64_t now)
{
	int budget = STARTS_PER_TURN;

	/* Reconnections first: they keep the count up. */
	while (lg->ready_len && budget && lg->pending < lg->opt.max_pending) {
		long slot = lg->ready[lg->ready_head];

		lg->ready_head = (lg->ready_head + 1) % lg->slot_count;
		lg->ready_len--;
		if (lg->phase >= PHASE_DRAIN ||
		    lg->conns[slot].state != CONN_FREE)
			continue;
		budget--;
		conn_start(lg, &lg->conns[slot]);
	}

	if (lg->opt.mode == MODE_CHURN) {
		uint64_t due;

		if (lg->phase != PHASE_WARMUP && lg->phase != PHASE_WINDOW)
			return;
		due = (uint64_t)((double)(now - lg->churn_origin_ns) / 1e9 *
				 lg->opt.churn);
		while (lg->churn_started < due && budget-- &&
		       lg->pending < lg->opt.max_pending) {
			lg->churn_started++;
			if (!lg->free_count) {
				tally_add(&lg->connect_errors, "no_free_slot",
					  1);
				continue;
			}
			conn_start(
				lg,
				&lg->conns[lg->free_slots[--lg->free_count]]);
		}
		return;
	}
	if (lg->phase != PHASE_RAMP)
		return;
	while (lg->started < lg->conn_count && budget-- &&
	       lg->pending < lg->opt.max_pending) {
		double due = (double)(now - lg->start_ns) / 1e9 * lg->opt.ramp;

		if ((double)lg->started >= due + 1)
			break;
		conn_start(lg, &lg->conns[lg->started++]);
	}
}

/* Moves the run along its phases. */
static void loadgen_advance(struct loadgen *lg, uint64_t now)
{
	uint64_t in_phase = now - lg->phase_ns;
	const struct options *opt = &lg->opt;

	if (stop_requested && lg->phase < PHASE_DRAIN) {
		stop_requested = 0;
		loadgen_enter(lg, PHASE_STOP, now);
		loadgen_close_all(lg);
		return;
	}
	switch (lg->phase) {
	case PHASE_RAMP: {
		long want = opt->mode == MODE_IDLE ?
				    lg->conn_count - lg->conn_count % 2 :
				    lg->conn_count;
		double limit = (double)lg->conn_count / opt->ramp + 30.0;
		bool ready = lg->started == lg->conn_count &&
			     (opt->mode == MODE_IDLE ?
				      lg->matched_now >= want :
				      lg->count.opened >= (uint64_t)want);

		if (!ready && (double)in_phase / 1e9 < limit)
			return;
		if (!ready)
			fprintf(stderr,
				"loadgen: only %ld of %ld connections open "
				"(%ld matched) after %.0f s; measuring anyway\n",
				lg->open_now, lg->conn_count, lg->matched_now,
				limit);
		loadgen_enter(lg,
			      opt->warmup_s > 0 ? PHASE_WARMUP : PHASE_WINDOW,
			      now);
		return;
	}
	case PHASE_WARMUP:
		if ((double)in_phase / 1e9 >= opt->warmup_s)
			loadgen_enter(lg, PHASE_WINDOW, now);
		return;
	case PHASE_WINDOW:
		if (!lg->srv_mid.valid &&
		    (double)in_phase / 1e9 >= opt->duration_s / 2)
			loadgen_snapshot(lg, &lg->srv_mid);
		if ((double)in_phase / 1e9 < opt->duration_s)
			return;
		if (opt->mode == MODE_PLAY && opt->server_pid > 0) {
			loadgen_enter(lg, PHASE_COUNT, now);
		} else if (opt->mode == MODE_CHURN) {
			loadgen_enter(lg, PHASE_DRAIN, now);
			loadgen_close_unmatched(lg);
		} else {
			loadgen_enter(lg, PHASE_STOP, now);
			loadgen_close_all(lg);
		}
		return;
	case PHASE_COUNT:
		if (in_phase < SYSCOUNT_NS)
			return;
		if (lg->syscount.valid) {
			syscount_read(&lg->syscount, &lg->sys_end);
			lg->sys_moves =
				lg->count.moves_accepted - lg->sys_moves_start;
			syscount_close(&lg->syscount);
		}
		loadgen_enter(lg, PHASE_STOP, now);
		loadgen_close_all(lg);
		return;
	case PHASE_DRAIN:
		/* Late pairs finish their game; stragglers are closed. */
		if (lg->open_now &&
		    (double)in_phase / 1e9 < opt->drain_timeout) {
			if (in_phase > NS_PER_S)
				loadgen_close_unmatched(lg);
			return;
		}
		loadgen_enter(lg, PHASE_STOP, now);
		loadgen_close_all(lg);
		return;
	case PHASE_STOP:
		if ((lg->open_now || lg->spect_open_now) &&
		    in_phase < STOP_TIMEOUT_NS)
			return;
		lg->phase = PHASE_DONE;
		return;
	case PHASE_DONE:
		return;
	}
}

/* In the window, every SAMPLE_NS: how many watch the crowd's room, and
 * how many spectators are open in all. */
static void loadgen_sample(struct loadgen *lg, uint64_t now)
{
	struct conn *crowd;
	long watching;

	if (lg->phase != PHASE_WINDOW || lg->slot_count == lg->conn_count ||
	    now - lg->sample_ns < SAMPLE_NS)
		return;
	lg->sample_ns = now;
	crowd = watch_owner(lg, lg->crowd_slot, lg->crowd_gen);
	watching = crowd ? crowd->watch_open : 0;
	if (!lg->samples || watching < lg->crowd_min)
		lg->crowd_min = watching;
	if (watching > lg->crowd_max)
		lg->crowd_max = watching;
	lg->crowd_sum += (double)watching;
	lg->spect_sum += (double)lg->spect_open_now;
	lg->samples++;
}

static void loadgen_progress(struct loadgen *lg, uint64_t now)
{
	static const char *const names[] = { "ramp",  "warmup", "window",
					     "count", "drain",	"stop",
					     "done" };
	uint64_t moves = lg->count.moves_accepted;
	double elapsed = (double)(now - lg->progress_ns) / 1e9;

	if (!lg->opt.verbose || now - lg->progress_ns < NS_PER_S)
		return;
	fprintf(stderr,
		"[%6.1f s] %-6s open %6ld matched %6ld failed %llu "
		"moves/s %8.0f lat p99 %.2f ms errors %llu spectators %ld\n",
		(double)(now - lg->start_ns) / 1e9, names[lg->phase],
		lg->open_now, lg->matched_now,
		(unsigned long long)lg->count.failed,
		(double)(moves - lg->progress_moves) / elapsed,
		(double)histogram_percentile(&lg->latency, 99) / 1000.0,
		(unsigned long long)tally_total(&lg->errors),
		lg->spect_open_now);
	lg->progress_ns = now;
	lg->progress_moves = moves;
}

/* Milliseconds epoll may sleep: until the next timer, at most 100. */
static int loadgen_wait_ms(struct loadgen *lg, uint64_t now)
{
	uint64_t wait = 100 * NS_PER_MS;

	if (lg->phase == PHASE_RAMP ||
	    (lg->opt.mode == MODE_CHURN &&
	     (lg->phase == PHASE_WARMUP || lg->phase == PHASE_WINDOW)))
		wait = NS_PER_MS;
	if (lg->ready_len && lg->pending < lg->opt.max_pending)
		return 0;
	if (lg->heap_len) {
		uint64_t due = lg->conns[lg->heap[0]].due_ns;

		if (due <= now)
			return 0;
		if (due - now < wait)
			wait = due - now;
	}
	return (int)((wait + NS_PER_MS - 1) / NS_PER_MS);
}

/* One socket's epoll event; a stale one (its slot reused) is ignored. */
static void loadgen_event(struct loadgen *lg, const struct epoll_event *event)
{
	uint64_t data = event->data.u64;
	struct conn *c = &lg->conns[data & 0xffffffffu];

	if (c->gen == (uint32_t)(data >> 32) && c->fd >= 0)
		conn_on_event(lg, c, event->events);
}

static void loadgen_run(struct loadgen *lg)
{
	struct epoll_event events[EVENTS_MAX];
	bool spect = false;
	uint64_t now;
	int i, n;

	lg->start_ns = now = now_ns();
	lg->progress_ns = now;
	lg->churn_origin_ns = now;
	loadgen_enter(lg,
		      lg->opt.mode == MODE_CHURN ?
			      (lg->opt.warmup_s > 0 ? PHASE_WARMUP :
						      PHASE_WINDOW) :
			      PHASE_RAMP,
		      now);
	while (lg->phase != PHASE_DONE) {
		loadgen_start_due(lg, now);
		n = epoll_wait(lg->epoll_fd, events, EVENTS_MAX,
			       loadgen_wait_ms(lg, now));
		if (n < 0 && errno != EINTR) {
			perror("loadgen: epoll_wait");
			break;
		}
		for (i = 0; i < n; i++)
			if (events[i].data.u64 == SPECT_DATA)
				spect = true;
			else
				loadgen_event(lg, &events[i]);
		/* The spectators' after the players', a few at a time: a
		 * crowd's messages all come at once, and the players'
		 * latency must not wait for the tool to read them all. */
		n = spect ? epoll_wait(lg->spect_fd, events, SPECT_EVENTS, 0) :
			    0;
		spect = false;
		for (i = 0; i < n; i++)
			loadgen_event(lg, &events[i]);
		now = now_ns();
		while (lg->heap_len && lg->conns[lg->heap[0]].due_ns <= now) {
			struct conn *c = &lg->conns[lg->heap[0]];

			timer_clear(lg, c);
			conn_on_timer(lg, c, now);
		}
		loadgen_advance(lg, now);
		loadgen_sample(lg, now);
		loadgen_progress(lg, now);
	}
}

/* After a churn run: wait for the server's fds to come back down. */
static void loadgen_settle(struct loadgen *lg)
{
	uint64_t deadline = now_ns() + SETTLE_TIMEOUT_NS;

	if (lg->opt.server_pid <= 0)
		return;
	do {
		usleep(100000);
		loadgen_snapshot(lg, &lg->srv_after);
	} while (lg->srv_after.valid && lg->srv_after.fds > lg->srv_empty.fds &&
		 now_ns() < deadline);
}

static void loadgen_report_spectators(const struct loadgen *lg,
				      struct report_spectators *s)
{
	const struct spect_counters *c = &lg->spect;
	double window_s =
		(double)(lg->window_end_ns - lg->window_start_ns) / 1e9;

	s->watchers = lg->opt.watchers;
	s->crowd = lg->opt.crowd;
	s->held = lg->spect_held;
	s->open_at_end = lg->spect_open_at_end;
	s->attempted = c->attempted;
	s->opened = c->opened;
	s->failed = c->failed;
	s->closed = c->closed;
	s->rooms_asked = c->rooms_asked;
	s->rooms_skipped = c->rooms_skipped;
	s->messages = c->messages;
	if (window_s > 0)
		s->messages_per_s = (double)(lg->spect_at_end.messages -
					     lg->spect_at_start.messages) /
				    window_s;
	s->spectates = c->spectates;
	s->wrong_room = c->wrong_room;
	s->followed = c->followed;
	s->boards = c->boards;
	s->boards_full = c->boards_full;
	s->boards_window = lg->spect_at_end.boards - lg->spect_at_start.boards;
	s->boards_missed = c->boards_missed;
	s->winners = c->winners;
	s->winners_complete = c->winners_complete;
	s->disconnects = c->disconnects;
	s->pongs = c->pongs;
	if (lg->samples) {
		s->crowd_mean = lg->crowd_sum / (double)lg->samples;
		s->open_mean = lg->spect_sum / (double)lg->samples;
	}
	s->crowd_min = lg->crowd_min;
	s->crowd_max = lg->crowd_max;
	s->errors = lg->spect_errors;
	s->closes = lg->spect_closes;
}

static void loadgen_report(struct loadgen *lg, struct report *r)
{
	const struct options *opt = &lg->opt;
	uint64_t accepted =
		lg->at_end.moves_accepted - lg->at_start.moves_accepted;
	static const char *const modes[] = { "play", "idle", "churn" };

	memset(r, 0, sizeof(*r));
	r->label = opt->label;
	r->mode = modes[opt->mode];
	r->updates = opt->compact ? "move" : "full";
	r->target = lg->host_port;
	r->connections = opt->mode == MODE_CHURN ? 0 : lg->conn_count;
	r->move_rate = opt->move_rate;
	r->churn_rate = opt->mode == MODE_CHURN ? opt->churn : 0;
	r->window_s = (double)(lg->window_end_ns - lg->window_start_ns) / 1e9;
	r->held = lg->held;
	r->open_at_end = lg->open_at_end;
	r->matched_at_end = lg->matched_at_end;
	r->attempted = lg->count.attempted;
	r->opened = lg->count.opened;
	r->failed = lg->count.failed;
	r->closed = lg->count.closed;
	r->matches = (lg->at_end.roles - lg->at_start.roles) / 2;
	r->moves_sent = lg->at_end.moves_sent - lg->at_start.moves_sent;
	r->moves_accepted = accepted;
	r->games_won = lg->at_end.games_won - lg->at_start.games_won;
	r->boards_full = lg->count.boards_full;
	r->boards_compact = lg->count.boards_compact;
	if (r->window_s > 0) {
		r->matches_per_s = (double)r->matches / r->window_s;
		r->moves_per_s = (double)accepted / r->window_s;
	}
	r->latency_samples = lg->latency.total;
	r->latency_us[0] = histogram_percentile(&lg->latency, 50);
	r->latency_us[1] = histogram_percentile(&lg->latency, 99);
	r->latency_us[2] = histogram_percentile(&lg->latency, 99.9);
	r->latency_us[3] = lg->latency.max;
	r->latency_mean_us =
		lg->latency.total ?
			(double)lg->latency.sum / (double)lg->latency.total :
			0;
	r->match_samples = lg->matching.total;
	r->match_us[0] = histogram_percentile(&lg->matching, 50);
	r->match_us[1] = histogram_percentile(&lg->matching, 99);
	r->match_us[2] = lg->matching.max;
	r->errors = lg->errors;
	r->closes = lg->closes;
	r->connect_errors = lg->connect_errors;
	loadgen_report_spectators(lg, &r->spect);
	r->client_cpu_s = lg->client_cpu_end - lg->client_cpu_start;
	r->client_wait_s = lg->client_wait_start >= 0 ?
				   lg->client_wait_end - lg->client_wait_start :
				   -1;
	r->syscalls = lg->sys_moves && lg->sys_start.valid && lg->sys_end.valid;
	for (int k = 0; r->syscalls && k < SYSCALL_KINDS; k++)
		r->syscalls_per_move[k] = (double)(lg->sys_end.calls[k] -
						   lg->sys_start.calls[k]) /
					  (double)lg->sys_moves;
	r->server = lg->srv_empty.valid && lg->srv_start.valid &&
		    lg->srv_end.valid;
	if (!r->server)
		return;
	r->server_pid = opt->server_pid;
	r->server_cpu_s = lg->srv_end.cpu_s - lg->srv_start.cpu_s;
	r->server_wait_s = lg->srv_start.wait_s >= 0 ?
				   lg->srv_end.wait_s - lg->srv_start.wait_s :
				   -1;
	if (r->window_s > 0)
		r->server_cpu_pct = 100.0 * r->server_cpu_s / r->window_s;
	if (accepted) {
		r->cpu_s_per_100k_moves =
			r->server_cpu_s * 1e5 / (double)accepted;
		r->moves_per_cpu_s =
			r->server_cpu_s > 0 ?
				(double)accepted / r->server_cpu_s :
				0;
	}
	r->rss_empty_kib = lg->srv_empty.rss_kib;
	r->rss_start_kib = lg->srv_start.rss_kib;
	r->rss_mid_kib = lg->srv_mid.valid ? lg->srv_mid.rss_kib : -1;
	r->rss_end_kib = lg->srv_end.rss_kib;
	r->rss_after_kib = lg->srv_after.valid ? lg->srv_after.rss_kib : -1;
	/* VmHWM is updated lazily: never report a peak below a reading. */
	r->rss_peak_kib =
		(lg->srv_after.valid ? lg->srv_after : lg->srv_end).hwm_kib;
	if (r->rss_peak_kib < r->rss_end_kib)
		r->rss_peak_kib = r->rss_end_kib;
	/* Per connection only means something when they all sit idle. */
	if (opt->mode == MODE_IDLE && lg->open_at_end)
		r->rss_per_conn_kib =
			(double)(r->rss_end_kib - r->rss_empty_kib) /
			(double)lg->open_at_end;
	r->fds_empty = lg->srv_empty.fds;
	r->fds_start = lg->srv_start.fds;
	r->fds_end = lg->srv_end.fds;
	r->fds_after = lg->srv_after.valid ? lg->srv_after.fds : -1;
}

/* ---- setup ---- */

static void usage(FILE *out)
{
	fputs("Usage: loadgen [OPTION]...\n"
	      "Drive a Gomoku server (core/PROTOCOL.md) with real games and "
	      "measure it.\n\n"
	      "  --host ADDR            server IPv4 address (127.0.0.1)\n"
	      "  --port PORT            server port (8080)\n"
	      "  --path PATH            WebSocket path (/)\n"
	      "  --connections N        play, idle: connections to hold (1000)\n"
	      "  --ramp R               connections started per second (2000)\n"
	      "  --duration S           measured window in seconds (10)\n"
	      "  --warmup S             seconds before the window (2)\n"
	      "  --move-rate R          moves per second per room, 0: flat "
	      "out (0)\n"
	      "  --idle                 connect and get matched, never move\n"
	      "  --churn R              new connections per second, one game "
	      "each\n"
	      "  --sources N            bind to 127.0.0.2..N+1, 0: do not "
	      "bind (16)\n"
	      "  --game short|long      five in a row in 9 moves, or fill the "
	      "board (short)\n"
	      "  --updates move|full    ask for compact board updates or "
	      "not (move)\n"
	      "  --tc BASE+INC          play timed games (the server's "
	      "default)\n"
	      "  --server-pid PID       read the server's CPU, RSS and fds "
	      "from /proc\n"
	      "  --label NAME           scenario name in the report (run)\n"
	      "  --json                 print one JSON object, not the table\n"
	      "  --handshake-timeout S  to connect and upgrade (10)\n"
	      "  --drain-timeout S      churn: for games to finish (30)\n"
	      "  --max-pending N        handshakes under way at most (256)\n"
	      "  --watchers N           spectators per room matched (0)\n"
	      "  --crowd M              M more for one room at a time (0)\n"
	      "  --seed N               PRNG seed (from the clock)\n"
	      "  --verbose              a progress line a second on stderr\n"
	      "  --help                 this text\n",
	      out);
}

static int parse_number(const char *flag, const char *text, double min,
			double max, double *out)
{
	char *end;
	double value;

	errno = 0;
	value = strtod(text, &end);
	if (errno || end == text || *end || value < min || value > max) {
		fprintf(stderr,
			"loadgen: %s: '%s' is not a number from %g to %g\n",
			flag, text, min, max);
		return -1;
	}
	*out = value;
	return 0;
}

static int options_parse(struct options *opt, int argc, char **argv)
{
	enum {
		OPT_HOST = 256,
		OPT_PORT,
		OPT_PATH,
		OPT_CONNECTIONS,
		OPT_RAMP,
		OPT_DURATION,
		OPT_WARMUP,
		OPT_MOVE_RATE,
		OPT_IDLE,
		OPT_CHURN,
		OPT_SOURCES,
		OPT_UPDATES,
		OPT_TC,
		OPT_GAME,
		OPT_SERVER_PID,
		OPT_LABEL,
		OPT_JSON,
		OPT_HANDSHAKE,
		OPT_DRAIN,
		OPT_SEED,
		OPT_MAX_PENDING,
		OPT_VERBOSE,
		OPT_WATCHERS,
		OPT_CROWD,
		OPT_HELP,
	};
	static const struct option longs[] = {
		{ "host", required_argument, NULL, OPT_HOST },
		{ "port", required_argument, NULL, OPT_PORT },
		{ "path", required_argument, NULL, OPT_PATH },
		{ "connections", required_argument, NULL, OPT_CONNECTIONS },
		{ "ramp", required_argument, NULL, OPT_RAMP },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "warmup", required_argument, NULL, OPT_WARMUP },
		{ "move-rate", required_argument, NULL, OPT_MOVE_RATE },
		{ "idle", no_argument, NULL, OPT_IDLE },
		{ "churn", required_argument, NULL, OPT_CHURN },
		{ "sources", required_argument, NULL, OPT_SOURCES },
		{ "updates", required_argument, NULL, OPT_UPDATES },
		{ "tc", required_argument, NULL, OPT_TC },
		{ "game", required_argument, NULL, OPT_GAME },
		{ "server-pid", required_argument, NULL, OPT_SERVER_PID },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "handshake-timeout", required_argument, NULL, OPT_HANDSHAKE },
		{ "drain-timeout", required_argument, NULL, OPT_DRAIN },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "max-pending", required_argument, NULL, OPT_MAX_PENDING },
		{ "verbose", no_argument, NULL, OPT_VERBOSE },
		{ "watchers", required_argument, NULL, OPT_WATCHERS },
		{ "crowd", required_argument, NULL, OPT_CROWD },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	double number;
	int c, index = 0;

	*opt = (struct options){
		.host = "127.0.0.1",
		.port = 8080,
		.path = "/",
		.connections = 1000,
		.ramp = 2000,
		.duration_s = 10,
		.warmup_s = 2,
		.mode = MODE_PLAY,
		.sources = 16,
		.compact = true,
		.label = "run",
		.handshake_timeout = 10,
		.drain_timeout = 30,
		.max_pending = 256,
	};
	while ((c = getopt_long(argc, argv, "", longs, &index)) != -1) {
		const char *flag = longs[index].name;

		number = 0;
		switch (c) {
		case OPT_HOST:
			opt->host = optarg;
			break;
		case OPT_PORT:
			if (parse_number(flag, optarg, 1, 65535, &number))
				return -1;
			opt->port = (int)number;
			break;
		case OPT_PATH:
			opt->path = optarg;
			break;
		case OPT_CONNECTIONS:
			if (parse_number(flag, optarg, 1, 1e6, &number))
				return -1;
			opt->connections = (long)number;
			break;
		case OPT_RAMP:
			if (parse_number(flag, optarg, 1, 1e6, &opt->ramp))
				return -1;
			break;
		case OPT_DURATION:
			if (parse_number(flag, optarg, 0.1, 86400,
					 &opt->duration_s))
				return -1;
			break;
		case OPT_WARMUP:
			if (parse_number(flag, optarg, 0, 3600, &opt->warmup_s))
				return -1;
			break;
		case OPT_MOVE_RATE:
			if (parse_number(flag, optarg, 0, 1e6, &opt->move_rate))
				return -1;
			break;
		case OPT_IDLE:
			opt->mode = MODE_IDLE;
			break;
		case OPT_CHURN:
			if (parse_number(flag, optarg, 0.1, 1e6, &opt->churn))
				return -1;
			opt->mode = MODE_CHURN;
			break;
		case OPT_SOURCES:
			if (parse_number(flag, optarg, 0, 250, &number))
				return -1;
			opt->sources = (int)number;
			break;
		case OPT_GAME:
			if (strcmp(optarg, "short") && strcmp(optarg, "long")) {
				fprintf(stderr,
					"loadgen: --game: short or long\n");
				return -1;
			}
			opt->long_games = !strcmp(optarg, "long");
			break;
		case OPT_UPDATES:
			if (strcmp(optarg, "move") && strcmp(optarg, "full")) {
				fprintf(stderr,
					"loadgen: --updates: move or full\n");
				return -1;
			}
			opt->compact = !strcmp(optarg, "move");
			break;
		case OPT_TC:
			if (strspn(optarg, "0123456789+") != strlen(optarg) ||
			    strlen(optarg) > 12) {
				fprintf(stderr, "loadgen: --tc: BASE+INC\n");
				return -1;
			}
			opt->tc = optarg;
			break;
		case OPT_SERVER_PID:
			if (parse_number(flag, optarg, 1, 1e9, &number))
				return -1;
			opt->server_pid = (pid_t)number;
			break;
		case OPT_LABEL:
			opt->label = optarg;
			break;
		case OPT_JSON:
			opt->json = true;
			break;
		case OPT_HANDSHAKE:
			if (parse_number(flag, optarg, 0.1, 3600,
					 &opt->handshake_timeout))
				return -1;
			break;
		case OPT_DRAIN:
			if (parse_number(flag, optarg, 0, 3600,
					 &opt->drain_timeout))
				return -1;
			break;
		case OPT_MAX_PENDING:
			if (parse_number(flag, optarg, 1, 1e6, &number))
				return -1;
			opt->max_pending = (long)number;
			break;
		case OPT_SEED:
			if (parse_number(flag, optarg, 1, 1.8e19, &number))
				return -1;
			opt->seed = (uint64_t)number;
			break;
		case OPT_VERBOSE:
			opt->verbose = true;
			break;
		case OPT_WATCHERS:
			if (parse_number(flag, optarg, 0, 1e5, &number))
				return -1;
			opt->watchers = (long)number;
			break;
		case OPT_CROWD:
			if (parse_number(flag, optarg, 0, 1e6, &number))
				return -1;
			opt->crowd = (long)number;
			break;
		case OPT_HELP:
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "loadgen: unexpected argument '%s'\n",
			argv[optind]);
		return -1;
	}
	return 0;
}

/* Raises the fd limit to the hard limit; returns the slots that fit. */
static long loadgen_fd_budget(void)
{
	struct rlimit limit;

	if (getrlimit(RLIMIT_NOFILE, &limit))
		return 1024 - FD_RESERVE;
	limit.rlim_cur = limit.rlim_max;
	setrlimit(RLIMIT_NOFILE, &limit);
	getrlimit(RLIMIT_NOFILE, &limit);
	if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur > 10000000)
		return 10000000;
	return (long)limit.rlim_cur - FD_RESERVE;
}

static int loadgen_init(struct loadgen *lg)
{
	struct options *opt = &lg->opt;
	long budget = loadgen_fd_budget(), i, spectators;

	if (inet_pton(AF_INET, opt->host, &lg->target.sin_addr) != 1) {
		fprintf(stderr,
			"loadgen: --host: '%s' is not an IPv4 address\n",
			opt->host);
		return -1;
	}
	lg->target.sin_family = AF_INET;
	lg->target.sin_port = htons((uint16_t)opt->port);
	snprintf(lg->host_port, sizeof(lg->host_port), "%s:%d", opt->host,
		 opt->port);
	if (opt->tc) {
		/* "+" in a query is a space to some: escape it */
		const char *plus = strchr(opt->tc, '+');

		snprintf(lg->tc_query, sizeof(lg->tc_query), "&tc=%.*s%s%s",
			 plus ? (int)(plus - opt->tc) : (int)strlen(opt->tc),
			 opt->tc, plus ? "%2B" : "", plus ? plus + 1 : "");
	}
	/* Churn: the slots the fd limit leaves, a room's spectators and the
	 * crowd set aside for every two players. */
	lg->conn_count = opt->mode == MODE_CHURN ? (budget - opt->crowd) * 2 /
							   (2 + opt->watchers) :
						   opt->connections;
	if (lg->conn_count > budget) {
		fprintf(stderr,
			"loadgen: %ld connections asked, the fd limit allows "
			"%ld: using %ld\n",
			lg->conn_count, budget, budget);
		lg->conn_count = budget;
	}
	/* Spectators: enough for every room the players can be in at
	 * once, and the crowd; in churn mode as many rooms as slots/2. */
	spectators = lg->conn_count / 2 * opt->watchers + opt->crowd;
	if (spectators > budget - lg->conn_count) {
		fprintf(stderr,
			"loadgen: %ld players and %ld spectators need %ld "
			"fds, the fd limit allows %ld\n",
			lg->conn_count, spectators, lg->conn_count + spectators,
			budget);
		return -1;
	}
	lg->slot_count = lg->conn_count + spectators;
	lg->short_cap = lg->conn_count;
	lg->crowd_slot = -1;
	lg->rng = opt->seed ? opt->seed : now_ns() ^ ((uint64_t)getpid() << 32);
	lg->conns = calloc((size_t)lg->slot_count, sizeof(*lg->conns));
	lg->heap = calloc((size_t)lg->slot_count, sizeof(*lg->heap));
	lg->free_slots =
		calloc((size_t)lg->conn_count, sizeof(*lg->free_slots));
	lg->ready = calloc((size_t)lg->slot_count, sizeof(*lg->ready));
	lg->watch_idle =
		calloc((size_t)spectators + 1, sizeof(*lg->watch_idle));
	lg->watch_short =
		calloc((size_t)lg->short_cap, sizeof(*lg->watch_short));
	lg->rooms = calloc(ROOM_BUCKETS, sizeof(*lg->rooms));
	lg->rx = malloc(RX_BUFFER_SIZE);
	lg->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	lg->spect_fd = epoll_create1(EPOLL_CLOEXEC);
	if (!lg->conns || !lg->heap || !lg->free_slots || !lg->ready ||
	    !lg->watch_idle || !lg->watch_short || !lg->rooms || !lg->rx ||
	    lg->epoll_fd < 0 || lg->spect_fd < 0 ||
	    epoll_ctl(lg->epoll_fd, EPOLL_CTL_ADD, lg->spect_fd,
		      &(struct epoll_event){ .events = EPOLLIN,
					     .data.u64 = SPECT_DATA })) {
		fprintf(stderr, "loadgen: cannot set up: %s\n",
			strerror(errno));
		return -1;
	}
	for (i = 0; i < lg->slot_count; i++) {
		lg->conns[i].fd = -1;
		lg->conns[i].heap_index = -1;
		lg->conns[i].size = 15;
		lg->conns[i].sent_moves = -1;
		lg->conns[i].owner = -1;
		lg->conns[i].watch_last = -1;
	}
	/* The spectators wait for rooms, the lowest slot first. */
	for (i = lg->slot_count - 1; i >= lg->conn_count; i--) {
		lg->conns[i].spectator = true;
		lg->watch_idle[lg->watch_idle_len++] = i;
	}
	/* Churn hands out the low slots first, so sources rotate. */
	for (i = lg->conn_count - 1; i >= 0; i--)
		lg->free_slots[lg->free_count++] = i;
	histogram_init(&lg->latency);
	histogram_init(&lg->matching);
	return 0;
}

static void loadgen_release(struct loadgen *lg)
{
	long i;

	for (i = 0; i < lg->slot_count; i++) {
		if (lg->conns[i].fd >= 0)
			close(lg->conns[i].fd);
		free(lg->conns[i].rx);
		free(lg->conns[i].frag);
		free(lg->conns[i].tx);
	}
	if (lg->epoll_fd >= 0)
		close(lg->epoll_fd);
	if (lg->spect_fd >= 0)
		close(lg->spect_fd);
	free(lg->conns);
	free(lg->heap);
	free(lg->free_slots);
	free(lg->ready);
	free(lg->watch_idle);
	free(lg->watch_short);
	free(lg->rooms);
	free(lg->rx);
	syscount_close(&lg->syscount);
}

int main(int argc, char **argv)
{
	static struct loadgen lg = { .epoll_fd = -1, .spect_fd = -1 };
	static struct report report;
	struct sigaction sa = { .sa_handler = on_signal };

	if (options_parse(&lg.opt, argc, argv))
		return 2;
	if (loadgen_init(&lg)) {
		loadgen_release(&lg);
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (lg.opt.server_pid > 0 &&
	    procstat_read(&lg.srv_empty, lg.opt.server_pid))
		fprintf(stderr,
			"loadgen: cannot read /proc/%d: no server "
			"figures\n",
			(int)lg.opt.server_pid);
	loadgen_run(&lg);
	if (lg.opt.mode == MODE_CHURN)
		loadgen_settle(&lg);
	loadgen_report(&lg, &report);
	if (lg.opt.json)
		report_print_json(&report, stdout);
	else
		report_print_table(&report, stdout);
	loadgen_release(&lg);
	return 0;
}
