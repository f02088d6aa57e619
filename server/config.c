/*
 * config.c - flags and environment variables.
 *
 * One table lists every setting once: its flag, its variable, its help text
 * and the function that checks and stores a value, so the help, the
 * environment and the command line can never disagree.
 */
#include "config.h"

#include "instance.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The web client of an installed binary, relative to the binary's
 * directory (CMakeLists.txt defines it from the install layout).
 */
#ifndef GOMOKU_INSTALLED_WEB_ROOT
#define GOMOKU_INSTALLED_WEB_ROOT "../share/gomoku/web"
#endif

/* Stores value in config, or writes why it is refused to why. */
typedef int (*config_setter)(struct server_config *config, const char *value,
			     char *why, size_t why_size);

/* One of these per setting. */
struct config_option {
	const char *flag;    /* "--port" */
	const char *env;     /* "GOMOKU_PORT" */
	const char *metavar; /* "PORT" */
	const char *help;    /* one line, with the default */
	config_setter set;   /* NULL: a whole number stored at offset */
	size_t offset;	     /* of the int field, when set is NULL */
	long min, max;	     /* its range */
	bool secret;	     /* may hold a password: never repeated */
	bool is_switch;	     /* the flag alone means "yes" (--reuse-port);
			      * --flag=no and the variable say no */
};

/* Parses a whole decimal integer in [min, max]; -1 otherwise. */
static int parse_int(const char *value, long min, long max, long *out)
{
	char *end;
	long number;

	if (!*value)
		return -1;
	errno = 0;
	number = strtol(value, &end, 10);
	if (errno || *end || number < min || number > max)
		return -1;
	*out = number;
	return 0;
}

/* Stores a whole number option in its int field. */
static int config_set_int(const struct config_option *opt,
			  struct server_config *config, const char *value,
			  char *why, size_t why_size)
{
	long number;

	if (parse_int(value, opt->min, opt->max, &number)) {
		snprintf(why, why_size,
			 "must be a whole number from %ld to %ld", opt->min,
			 opt->max);
		return -1;
	}
	*(int *)((char *)config + opt->offset) = (int)number;
	return 0;
}

static int set_host(struct server_config *config, const char *value, char *why,
		    size_t why_size)
{
	if (!*value) {
		snprintf(why, why_size, "must not be empty");
		return -1;
	}
	config->host = value; /* resolved by listen_resolve() */
	return 0;
}

/* Stores a non-empty path. */
static int set_path(const char **field, const char *value, char *why,
		    size_t why_size)
{
	if (!*value) {
		snprintf(why, why_size, "must not be empty");
		return -1;
	}
	*field = value;
	return 0;
}

static int set_web_root(struct server_config *config, const char *value,
			char *why, size_t why_size)
{
	return set_path(&config->web_root, value, why, why_size);
}

static int set_db(struct server_config *config, const char *value, char *why,
		  size_t why_size)
{
	return set_path(&config->db_path, value, why, why_size);
}

static int set_ai_engine(struct server_config *config, const char *value,
			 char *why, size_t why_size)
{
	if (!*value) {
		config->ai_engine = NULL; /* the built-in engine */
		return 0;
	}
	return set_path(&config->ai_engine, value, why, why_size);
}

static int set_redis(struct server_config *config, const char *value, char *why,
		     size_t why_size)
{
	if (!*value) {
		config->redis = false; /* one process, SQLite */
		return 0;
	}
	if (redis_url_parse(value, &config->redis_url, why, why_size))
		return -1;
	config->redis = true;
	return 0;
}

static int set_instance_id(struct server_config *config, const char *value,
			   char *why, size_t why_size)
{
	if (!*value) {
		config->instance_id = NULL; /* a random one */
		return 0;
	}
	if (!instance_id_valid(value)) {
		snprintf(why, why_size,
			 "must be 1 to %d letters, digits, '.', '_' or '-'",
			 INSTANCE_ID_MAX);
		return -1;
	}
	config->instance_id = value;
	return 0;
}

static int set_ai_fill_level(struct server_config *config, const char *value,
			     char *why, size_t why_size)
{
	if (engine_level_parse(value, &config->ai_fill_level)) {
		snprintf(why, why_size,
			 "must be beginner, easy, medium, hard or master");
		return -1;
	}
	return 0;
}

/*
 * Which of two words value is: 0 or 1, or -1 with "must be A or B" in why.
 * The flags that choose between two settings share it.
 */
static int config_choose(const char *value, const char *first,
			 const char *second, char *why, size_t why_size)
{
	if (!strcmp(value, first))
		return 0;
	if (!strcmp(value, second))
		return 1;
	snprintf(why, why_size, "must be %s or %s", first, second);
	return -1;
}

static int set_rule(struct server_config *config, const char *value, char *why,
		    size_t why_size)
{
	if (rule_parse(value, &config->rule))
		return 0;
	snprintf(why, why_size, "must be freestyle, standard or renju");
	return -1;
}

static int set_time_control(struct server_config *config, const char *value,
			    char *why, size_t why_size)
{
	if (!time_control_parse(value, &config->time_control)) {
		snprintf(why, why_size,
			 "must be none or BASE+INC in seconds (base %d to %d, "
			 "increment 0 to %d)",
			 TIME_CONTROL_BASE_MIN_S, TIME_CONTROL_BASE_MAX_S,
			 TIME_CONTROL_INC_MAX_S);
		return -1;
	}
	return 0;
}

static int set_full_board(struct server_config *config, const char *value,
			  char *why, size_t why_size)
{
	int choice = config_choose(value, "back", "draw", why, why_size);

	if (choice < 0)
		return -1;
	config->full_board = choice ? FULL_BOARD_DRAW : FULL_BOARD_BACK;
	return 0;
}

/* Stores yes or no in *field. */
static int set_yes_no(bool *field, const char *value, char *why,
		      size_t why_size)
{
	int choice = config_choose(value, "yes", "no", why, why_size);

	if (choice < 0)
		return -1;
	*field = choice == 0;
	return 0;
}

static int set_trust_proxy(struct server_config *config, const char *value,
			   char *why, size_t why_size)
{
	return set_yes_no(&config->trust_proxy, value, why, why_size);
}

static int set_reuse_port(struct server_config *config, const char *value,
			  char *why, size_t why_size)
{
	return set_yes_no(&config->reuse_port, value, why, why_size);
}

static int set_log_level(struct server_config *config, const char *value,
			 char *why, size_t why_size)
{
	int level = log_level_parse(value);

	if (level < 0) {
		snprintf(why, why_size, "must be error, warn, info or debug");
		return -1;
	}
	config->log_level = (enum log_level)level;
	return 0;
}

#define INT_FIELD(field, lo, hi) \
	NULL, offsetof(struct server_config, field), lo, hi, false, false
#define SETTER(fn) fn, 0, 0, 0, false, false
#define SECRET_SETTER(fn) fn, 0, 0, 0, true, false
#define SWITCH(fn) fn, 0, 0, 0, false, true

static const struct config_option config_options[] = {
	{ "--host", "GOMOKU_HOST", "ADDRESS",
	  "address to listen on: an IPv4 or IPv6 address, or a name "
	  "(default: all addresses)",
	  SETTER(set_host) },
	{ "--port", "GOMOKU_PORT", "PORT",
	  "TCP port for HTTP and WebSocket (default: 8080)",
	  INT_FIELD(port, 1, 65535) },
	{ "--web-root", "GOMOKU_WEB_ROOT", "DIR",
	  "directory of the web client (default: the installed client, " GOMOKU_INSTALLED_WEB_ROOT
	  " from the binary's directory, when there "
	  "is one, else " GOMOKU_DEFAULT_WEB_ROOT ")",
	  SETTER(set_web_root) },
	{ "--db", "GOMOKU_DB", "PATH",
	  "SQLite database of games (default: gomoku.db)", SETTER(set_db) },
	{ "--keep-days", "GOMOKU_KEEP_DAYS", "DAYS",
	  "delete finished games from the database after this many days; "
	  "0 keeps them all (default: 30)",
	  INT_FIELD(keep_days, 0, 36500) },
	{ "--board-size", "GOMOKU_BOARD_SIZE", "N",
	  "board is N x N, 5 to 25 (default: 15)",
	  INT_FIELD(board_size, BOARD_MIN_SIZE, BOARD_MAX_SIZE) },
	{ "--rule", "GOMOKU_RULE", "RULE",
	  "freestyle (five or more wins), standard (exactly five) or renju (black: exactly five, and no overline, double four or double three) (default: freestyle)",
	  SETTER(set_rule) },
	{ "--time-control", "GOMOKU_TIME_CONTROL", "TC",
	  "the default clock: none, or BASE+INC in seconds, 300+5: five minutes each and five seconds more per move (default: none)",
	  SETTER(set_time_control) },
	{ "--first-move-timeout", "GOMOKU_FIRST_MOVE_TIMEOUT", "SECONDS",
	  "a timed game whose first or second move does not come this soon is aborted (default: 30)",
	  INT_FIELD(first_move_timeout, 1, 3600) },
	{ "--full-board", "GOMOKU_FULL_BOARD", "OUTCOME",
	  "a full board with no five: back (second player wins) or draw (default: back)",
	  SETTER(set_full_board) },
	{ "--reconnect-grace", "GOMOKU_RECONNECT_GRACE", "SECONDS",
	  "seconds a dropped player keeps the seat (default: 30)",
	  INT_FIELD(reconnect_grace, 0, 3600) },
	{ "--rate-burst", "GOMOKU_RATE_BURST", "N",
	  "messages a connection may send at once (default: 20)",
	  INT_FIELD(rate_burst, 1, 100000) },
	{ "--rate-per-second", "GOMOKU_RATE_PER_SECOND", "N",
	  "messages a connection may send per second after the burst (default: 10)",
	  INT_FIELD(rate_per_second, 1, 100000) },
	{ "--max-connections", "GOMOKU_MAX_CONNECTIONS", "N",
	  "open connections in all (default: 16000)",
	  INT_FIELD(max_connections, 1, 1000000) },
	{ "--max-per-ip", "GOMOKU_MAX_PER_IP", "N",
	  "open connections from one client address, 0: no limit (default: 50)",
	  INT_FIELD(max_per_ip, 0, 1000000) },
	{ "--max-spectators", "GOMOKU_MAX_SPECTATORS", "N",
	  "spectators of one room (default: 1000)",
	  INT_FIELD(max_spectators, 0, 1000000) },
	{ "--max-invites-per-ip", "GOMOKU_MAX_INVITES_PER_IP", "N",
	  "open private-game invites (invite=new) from one client address (default: 5)",
	  INT_FIELD(max_invites_per_ip, 1, 1000000) },
	{ "--trust-proxy", "GOMOKU_TRUST_PROXY", "yes|no",
	  "take the client address from X-Forwarded-For (default: no)",
	  SETTER(set_trust_proxy) },
	{ "--handshake-timeout", "GOMOKU_HANDSHAKE_TIMEOUT", "SECONDS",
	  "drop connections that have not finished their request by then (default: 10)",
	  INT_FIELD(handshake_timeout, 1, 3600) },
	{ "--ping-interval", "GOMOKU_PING_INTERVAL", "SECONDS",
	  "ping a silent WebSocket after this long (default: 30)",
	  INT_FIELD(ping_interval, 1, 3600) },
	{ "--idle-timeout", "GOMOKU_IDLE_TIMEOUT", "SECONDS",
	  "drop a WebSocket silent this long, pong included (default: 60)",
	  INT_FIELD(idle_timeout, 2, 7200) },
	{ "--ai-threads", "GOMOKU_AI_THREADS", "N",
	  "threads that run the built-in engine's searches (default: 1)",
	  INT_FIELD(ai_threads, 1, 64) },
	{ "--ai-ms", "GOMOKU_AI_MS", "MS",
	  "the engine's time for one move, in milliseconds (default: 200)",
	  INT_FIELD(ai_ms, 10, 60000) },
	{ "--ai-fill-after", "GOMOKU_AI_FILL_AFTER", "SECONDS",
	  "match a player who waited this long with the engine, 0: never (default: 0)",
	  INT_FIELD(ai_fill_after, 0, 86400) },
	{ "--ai-fill-level", "GOMOKU_AI_FILL_LEVEL", "LEVEL",
	  "the engine's level then: beginner, easy, medium, hard or master "
	  "(default: medium)",
	  SETTER(set_ai_fill_level) },
	{ "--ai-engine", "GOMOKU_AI_ENGINE", "PATH",
	  "an external engine speaking the pbrain protocol, one process per game; unset or empty: the built-in one",
	  SETTER(set_ai_engine) },
	{ "--redis", "GOMOKU_REDIS", "URL",
	  "redis://[[USER]:PASSWORD@]HOST[:PORT][/DB] of the site's Redis; unset or empty: none",
	  SECRET_SETTER(set_redis) },
	{ "--instance-id", "GOMOKU_INSTANCE_ID", "ID",
	  "this instance's name in the site's Redis: letters, digits, '.', '_' or '-'; unset or empty: a random one, logged at start",
	  SETTER(set_instance_id) },
	{ "--instance-lease", "GOMOKU_INSTANCE_LEASE", "SECONDS",
	  "with --redis: an instance not heard from this long is taken for dead (default: 5)",
	  INT_FIELD(instance_lease, 1, 600) },
	{ "--reuse-port", "GOMOKU_REUSE_PORT", "",
	  "share the port with other processes of the site (SO_REUSEPORT): one per core, or a restart beside the old one; the variable takes yes or no (default: no)",
	  SWITCH(set_reuse_port) },
	{ "--log-level", "GOMOKU_LOG_LEVEL", "LEVEL",
	  "error, warn, info or debug (default: info)", SETTER(set_log_level) },
};

#define CONFIG_OPTION_COUNT (sizeof(config_options) / sizeof(*config_options))

/* Checks and stores one option's value. */
static int config_apply(const struct config_option *opt,
			struct server_config *config, const char *value,
			char *why, size_t why_size)
{
	if (opt->set)
		return opt->set(config, value, why, why_size);
	return config_set_int(opt, config, value, why, why_size);
}

/*
 * The default web root: the installed client beside this executable
 * (GOMOKU_INSTALLED_WEB_ROOT from its directory) when that is a directory,
 * else the source tree's web/ (a binary run from its build directory).
 */
static const char *config_default_web_root(void)
{
	static char path[PATH_MAX];
	char exe[PATH_MAX], candidate[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct stat st;
	char *slash;

	if (len <= 0)
		return GOMOKU_DEFAULT_WEB_ROOT;
	exe[len] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return GOMOKU_DEFAULT_WEB_ROOT;
	*slash = '\0';
	if (snprintf(candidate, sizeof(candidate), "%s/%s", exe,
		     GOMOKU_INSTALLED_WEB_ROOT) >= (int)sizeof(candidate) ||
	    !realpath(candidate, path) || stat(path, &st) ||
	    !S_ISDIR(st.st_mode))
		return GOMOKU_DEFAULT_WEB_ROOT;
	return path;
}

void config_init(struct server_config *config)
{
	memset(config, 0, sizeof(*config));
	config->host = NULL;
	config->port = 8080;
	config->web_root = config_default_web_root();
	config->board_size = BOARD_DEFAULT_SIZE;
	config->rule = RULE_FREESTYLE;
	config->full_board = FULL_BOARD_BACK;
	config->first_move_timeout = 30;
	config->db_path = "gomoku.db";
	config->keep_days = 30;
	config->reconnect_grace = 30;
	config->rate_burst = 20;
	config->rate_per_second = 10;
	config->max_connections = 16000;
	config->max_per_ip = 50;
	config->max_spectators = 1000;
	config->max_invites_per_ip = 5;
	config->trust_proxy = false;
	config->handshake_timeout = 10;
	config->ping_interval = 30;
	config->idle_timeout = 60;
	config->ai_threads = 1;
	config->ai_ms = 200;
	config->ai_fill_after = 0;
	config->ai_fill_level = ENGINE_MEDIUM;
	config->ai_engine = NULL;
	config->log_level = LOG_INFO;
	config->instance_lease = 5;
}

static void config_print_help(const char *program)
{
	printf("Usage: %s [OPTION]...\n"
	       "Serve online Gomoku: the web client over HTTP and the game over WebSocket.\n\n",
	       program);
	for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
		const struct config_option *opt = &config_options[i];
		char left[64];

		snprintf(left, sizeof(left), "%s%s%s", opt->flag,
			 opt->is_switch ? "" : " ", opt->metavar);
		printf("  %-28s %s\n  %-28s   env: %s\n", left, opt->help, "",
		       opt->env);
	}
	printf("  %-28s %s\n  %-28s %s\n  %-28s %s\n", "--health-check",
	       "GET /healthz of the server these settings describe; exit 0 on 200",
	       "--help", "print this help and exit", "--version",
	       "print the version and exit");
	printf("\nThis binary's default web root: %s\n",
	       config_default_web_root());
}

static const struct config_option *config_find_flag(const char *arg,
						    size_t name_len)
{
	for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++)
		if (strlen(config_options[i].flag) == name_len &&
		    !strncmp(config_options[i].flag, arg, name_len))
			return &config_options[i];
	return NULL;
}

enum config_result config_parse(struct server_config *config, int argc,
				char **argv, char *err, size_t err_size)
{
	bool on_command_line[CONFIG_OPTION_COUNT] = { false };
	char why[160];

	/* A flag beats its variable, even a variable with a bad value. */
	for (int i = 1; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		const struct config_option *opt = config_find_flag(
			argv[i], eq ? (size_t)(eq - argv[i]) : strlen(argv[i]));

		if (opt) {
			on_command_line[opt - config_options] = true;
			i += !eq && !opt->is_switch;
		}
	}

	for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
		const struct config_option *opt = &config_options[i];
		const char *value = getenv(opt->env);

		if (!value || on_command_line[i])
			continue;
		if (config_apply(opt, config, value, why, sizeof(why))) {
			snprintf(err, err_size, "%s=\"%.64s\": %s", opt->env,
				 opt->secret ? "(not shown)" : value, why);
			return CONFIG_EXIT_ERROR;
		}
	}

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char *eq = strchr(arg, '=');
		size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
		const struct config_option *opt;
		const char *value;

		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			config_print_help(argv[0]);
			return CONFIG_EXIT_OK;
		}
		if (!strcmp(arg, "--health-check")) {
			config->health_check = true;
			continue;
		}
		if (!strcmp(arg, "--version")) {
			printf("gomoku-server %s\n", GOMOKU_VERSION);
			return CONFIG_EXIT_OK;
		}
		opt = config_find_flag(arg, name_len);
		if (!opt) {
			snprintf(err, err_size,
				 "unknown option \"%.64s\" (try --help)", arg);
			return CONFIG_EXIT_ERROR;
		}
		if (eq) {
			value = eq + 1;
		} else if (opt->is_switch) {
			value = "yes";
		} else if (i + 1 < argc) {
			value = argv[++i];
		} else {
			snprintf(err, err_size, "%s: needs a value (%s)",
				 opt->flag, opt->metavar);
			return CONFIG_EXIT_ERROR;
		}
		if (config_apply(opt, config, value, why, sizeof(why))) {
			snprintf(err, err_size, "%s \"%.64s\": %s", opt->flag,
				 opt->secret ? "(not shown)" : value, why);
			return CONFIG_EXIT_ERROR;
		}
	}
	return CONFIG_RUN;
}
