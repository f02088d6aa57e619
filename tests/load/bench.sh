#!/usr/bin/env bash
# bench.sh - the Gomoku server benchmark: nine scenarios, each against a
# freshly started Release build of gomoku-server and, beside it (but for
# ai and watched, which only gomoku-server can run), against
# the Node.js baseline (tests/load/baseline-server.mjs: a plain `ws` server
# with the same protocol and rules), alternating, driven by gomoku-loadgen
# on the same machine. Prints a machine header and one table: every figure
# for both servers, their ratio and the targets; writes every run's JSON to
# tests/load/results/ (latest.json: all of them) and the table to
# tests/load/results/latest.txt.
#
#   tests/load/bench.sh                     the whole benchmark (~10 min)
#   BENCH_SCENARIOS="throughput" tests/load/bench.sh     only some
#   BENCH_SERVERS=gomoku tests/load/bench.sh   without the baseline
#   BENCH_ROUNDS=3 tests/load/bench.sh      three alternating rounds; the
#                                           table shows each figure's median
#   BENCH_UPDATES=full tests/load/bench.sh  full boards, not compact ones
#   BENCH_QUICK=1 tests/load/bench.sh       short runs, to try it out
#   BENCH_REPORT_ONLY=1 tests/load/bench.sh the table of the last run again
#
# Other knobs (environment): BENCH_PORT (default: a free one from 28080),
# BENCH_BUILD (build-bench), BENCH_CAPACITY (connections held in scenario
# 1, 19000), BENCH_HOLD / BENCH_THROUGHPUT_S / BENCH_LONG_S /
# BENCH_LATENCY_S / BENCH_CHURN_S / BENCH_AI_S / BENCH_WATCHED_S (seconds
# measured), BENCH_WATCHERS / BENCH_CROWD (spectators of scenario watched:
# 5 per room, 5000 more for one room), BENCH_CHURN_WARMUP
# (10), BENCH_DB_DIR (where the server's database goes: /tmp; /dev/shm
# takes the disk out of the figures).
set -euo pipefail

cd "$(dirname "$0")/../.."
ROOT=$(pwd)
BUILD=${BENCH_BUILD:-build-bench}
RESULTS=$ROOT/tests/load/results
UPDATES=${BENCH_UPDATES:-move}
SCENARIOS=${BENCH_SCENARIOS:-capacity throughput throughput-long latency latency-timed churn ai watched cluster}
SERVERS=${BENCH_SERVERS:-gomoku node}
ROUNDS=${BENCH_ROUNDS:-1}
CAPACITY=${BENCH_CAPACITY:-19000}
HOLD=${BENCH_HOLD:-30}
THROUGHPUT_S=${BENCH_THROUGHPUT_S:-15}
LONG_S=${BENCH_LONG_S:-10}
LATENCY_S=${BENCH_LATENCY_S:-20}
CHURN_S=${BENCH_CHURN_S:-60}
CHURN_WARMUP=${BENCH_CHURN_WARMUP:-10}
AI_S=${BENCH_AI_S:-15}
AI_GAMES=${BENCH_AI_GAMES:-50}
WATCHED_S=${BENCH_WATCHED_S:-20}
WATCHERS=${BENCH_WATCHERS:-5}
CROWD=${BENCH_CROWD:-5000}
if [ -n "${BENCH_QUICK:-}" ]; then
	CAPACITY=${BENCH_CAPACITY:-4000}
	HOLD=${BENCH_HOLD:-5}
	THROUGHPUT_S=${BENCH_THROUGHPUT_S:-5}
	LONG_S=${BENCH_LONG_S:-5}
	LATENCY_S=${BENCH_LATENCY_S:-5}
	CHURN_S=${BENCH_CHURN_S:-5}
	CHURN_WARMUP=${BENCH_CHURN_WARMUP:-2}
	WATCHED_S=${BENCH_WATCHED_S:-5}
fi

# Targets. Ratios are gomoku-server's figure over the baseline's, in the
# same run; the absolute ones are the project's own.
TARGET_LONG_RATIO=3       # moves per server CPU-second, long games
TARGET_SHORT_RATIO=2      # ... short games with reconnects
TARGET_SYSCALLS=2.5       # system calls per move (gomoku-server)
TARGET_MEMORY_RATIO=0.5   # RSS per idle connection
TARGET_HELD=15000         # concurrent players in one server process
TARGET_RSS_PER_CONN=10    # KiB per idle connection above the empty server
TARGET_P99_MS=5
TARGET_P999_MS=20
TARGET_WATCHED_P99_MS=1   # p99 with spectators over p99 without, at most
RSS_GROWTH_ALLOWED=1024   # KiB after churn: allocator noise, see README
RSS_LEVEL_ALLOWED=512     # KiB over the second half of the churn window

SERVER_PID=
SITE_PIDS= # scenario cluster: Redis and the second instance
DB_DIR=

die() {
	echo "bench.sh: $*" >&2
	exit 1
}

for tool in cmake jq; do
	command -v "$tool" >/dev/null ||
		die "$tool is missing (apt-get install $tool)"
done
for server in $SERVERS; do
	case $server in
	gomoku) ;;
	node)
		command -v node >/dev/null && [ -d tests/node_modules/ws ] ||
			die "the baseline needs node and tests/node_modules (./gomoku.sh deps test), or BENCH_SERVERS=gomoku" ;;
	*) die "unknown server '$server' (gomoku, node)" ;;
	esac
done

# The first free port from 28080 on, unless BENCH_PORT names one.
pick_port() {
	pick_port_from 28080
}

pick_port_from() {
	local port
	if [ -n "${BENCH_PORT:-}" ]; then
		echo "$BENCH_PORT"
		return
	fi
	for port in $(seq "$1" $(($1 + 100))); do
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			echo "$port"
			return
		fi
	done
	die "no free port in $1..$(($1 + 100))"
}

server_stop() {
	local _
	[ -n "$SERVER_PID" ] || return 0
	kill -TERM "$SERVER_PID" 2>/dev/null || true
	for _ in $(seq 100); do
		kill -0 "$SERVER_PID" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$SERVER_PID" 2>/dev/null || true
	wait "$SERVER_PID" 2>/dev/null || true
	SERVER_PID=
}

cleanup() {
	site_stop
	[ -z "$DB_DIR" ] || rm -rf "$DB_DIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# server_start SERVER [ARGS...]: a fresh gomoku-server with an empty
# database (ARGS added to its command line), or a fresh baseline; waits
# until it answers.
server_start() {
	local _ server=$1
	shift
	rm -rf "${DB_DIR:?}"/*
	case $server in
	gomoku)
		"$BUILD/gomoku-server" --port "$PORT" --host 127.0.0.1 \
			--db "$DB_DIR/bench.db" --max-per-ip 0 \
			--max-connections 20000 --rate-burst 100000 \
			--rate-per-second 100000 --log-level warn "$@" \
			2>>"$RESULTS/server.log" & ;;
	node)
		node tests/load/baseline-server.mjs --port "$PORT" \
			--host 127.0.0.1 2>>"$RESULTS/server.log" & ;;
	esac
	SERVER_PID=$!
	for _ in $(seq 100); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
			sleep 0.2 # let the probe's connection go
			return
		fi
		kill -0 "$SERVER_PID" 2>/dev/null || die "the $server server did not start"
		sleep 0.1
	done
	die "the $server server is not listening on $PORT"
}

# site_start COUNT: the site of scenario cluster: redis-server on a free
# port and COUNT (1 or 2) gomoku-servers with --redis on $PORT, with
# --reuse-port (the kernel spreads the connections: with two, about half
# the pairs play across them). SERVER_PID is the first, whose CPU the
# load generator reads.
site_start() {
	local count=$1 redis_port url _
	redis_port=$(BENCH_PORT='' pick_port_from 28200)
	url=redis://127.0.0.1:$redis_port
	redis-server --port "$redis_port" --bind 127.0.0.1 --save '' \
		--appendonly no --daemonize no >>"$RESULTS/server.log" 2>&1 &
	SITE_PIDS=$!
	for _ in $(seq 100); do
		redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
		sleep 0.1
	done
	server_start gomoku --redis "$url" --instance-id bench-a --reuse-port
	if [ "$count" -gt 1 ]; then
		"$BUILD/gomoku-server" --port "$PORT" --host 127.0.0.1 \
			--db "$DB_DIR/bench-b.db" --max-per-ip 0 \
			--max-connections 20000 --rate-burst 100000 \
			--rate-per-second 100000 --log-level warn --redis "$url" \
			--instance-id bench-b --reuse-port \
			2>>"$RESULTS/server.log" &
		SITE_PIDS="$SITE_PIDS $!"
	fi
	# every instance holds its lease
	for _ in $(seq 100); do
		[ "$(redis-cli -p "$redis_port" --raw eval \
			"return #redis.call('KEYS', 'gomoku:instance:*')" 0)" = "$count" ] &&
			return
		sleep 0.1
	done
	die "the site's instances did not take their leases"
}

site_stop() {
	local pid
	server_stop
	for pid in $SITE_PIDS; do
		kill -TERM "$pid" 2>/dev/null || true
	done
	for pid in $SITE_PIDS; do
		wait "$pid" 2>/dev/null || true
	done
	SITE_PIDS=
}

# Scenario "cluster" (gomoku-server only): throughput and latency against
# one process alone (alone), one with --redis (redis: every move also
# written to Redis before it is told), and two with --redis on one port
# (site: one per core, about half the pairs across the two, their moves
# relayed through Redis).
cluster_scenario() {
	local kind
	for kind in alone redis site; do
		case $kind in
		alone) server_start gomoku ;;
		redis) site_start 1 ;;
		site) site_start 2 ;;
		esac
		echo "  cluster ($kind, round $ROUND): throughput, then latency" >&2
		loadgen gomoku "cluster-throughput-$kind" --connections 2000 \
			--move-rate 0 --duration "$THROUGHPUT_S" --warmup 3
		loadgen gomoku "cluster-latency-$kind" --connections 4000 \
			--move-rate 1 --ramp 4000 --duration "$LATENCY_S" --warmup 9
		site_stop
	done
}

# loadgen SERVER LABEL ARGS...: one run against the running server, its
# JSON to $RESULTS/LABEL.SERVER.ROUND.json.
loadgen() {
	local server=$1 label=$2
	shift 2
	"$BUILD/gomoku-loadgen" --port "$PORT" --server-pid "$SERVER_PID" \
		--updates "$UPDATES" --label "$label" --json "$@" \
		>"$RESULTS/$label.$server.$ROUND.json" 2>>"$RESULTS/bench.log" ||
		die "$label ($server): the load generator failed (see $RESULTS/bench.log)"
}

# Scenario "ai" (gomoku-server only: the baseline has no engine): human
# rooms' move latency alone, then on the same server while AI_GAMES games
# against the hard engine keep it thinking.
ai_scenario() {
	local players
	server_start gomoku
	echo "  ai: gomoku-loadgen --connections 2000 --move-rate 1, alone, then with $AI_GAMES engine games (tests/load/ai-players.mjs)" >&2
	loadgen gomoku ai-alone --connections 2000 --move-rate 1 \
		--duration "$AI_S" --warmup 5
	node tests/load/ai-players.mjs --port "$PORT" --games "$AI_GAMES" \
		--level master >"$RESULTS/ai-players.json" 2>>"$RESULTS/bench.log" &
	players=$!
	sleep 3
	loadgen gomoku ai --connections 2000 --move-rate 1 \
		--duration "$AI_S" --warmup 5
	kill -TERM "$players"
	wait "$players" || true
	server_stop
}

# Scenario "watched" (gomoku-server only: the baseline has no spectators):
# 1,000 rooms at one move per second, as latency but 2,000 players, once
# without spectators (unwatched) and once with WATCHERS spectators per room
# and CROWD more on one room at a time (watched), each on a fresh server
# whose --max-spectators lets the crowd in; the order alternates from one
# round to the next. Spectators ask updates=move like the players.
watched_scenario() {
	local label order="unwatched watched"
	[ $((ROUND % 2)) -eq 1 ] || order="watched unwatched"
	for label in $order; do
		server_start gomoku --max-spectators $((CROWD + WATCHERS + 1000))
		if [ "$label" = watched ]; then
			echo "  watched (gomoku, round $ROUND): gomoku-loadgen --connections 2000 --move-rate 1 --watchers $WATCHERS --crowd $CROWD" >&2
			loadgen gomoku watched --connections 2000 --move-rate 1 \
				--ramp 4000 --duration "$WATCHED_S" --warmup 9 \
				--watchers "$WATCHERS" --crowd "$CROWD"
		else
			echo "  unwatched (gomoku, round $ROUND): gomoku-loadgen --connections 2000 --move-rate 1" >&2
			loadgen gomoku unwatched --connections 2000 --move-rate 1 \
				--ramp 4000 --duration "$WATCHED_S" --warmup 9
		fi
		server_stop
	done
}

# scenario LABEL ARGS...: one run against each server in turn, the order
# alternating from one round to the next.
scenario() {
	local label=$1 server order=$SERVERS
	shift
	if [ $((ROUND % 2)) -eq 0 ]; then
		order=$(echo "$SERVERS" | tr ' ' '\n' | tac | tr '\n' ' ')
	fi
	for server in $order; do
		server_start "$server"
		echo "  $label ($server, round $ROUND): gomoku-loadgen $*" >&2
		loadgen "$server" "$label" "$@"
		server_stop
	done
}

mkdir -p "$RESULTS"
if [ -n "${BENCH_REPORT_ONLY:-}" ]; then
	[ -s "$RESULTS/run.env" ] || die "no run to report ($RESULTS/run.env)"
	# shellcheck source=/dev/null
	. "$RESULTS/run.env"
else
rm -f "$RESULTS"/*.json "$RESULTS/run.env"
: >"$RESULTS/server.log"
: >"$RESULTS/bench.log"
DB_DIR=$(mktemp -d "${BENCH_DB_DIR:-/tmp}/gomoku-bench.XXXXXX")
DB_FS=$(df -PT "$DB_DIR" | awk 'NR == 2 {print $2}')
PORT=$(pick_port)
START=$(date +%s)

echo "building $BUILD (Release) ..." >&2
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DGOMOKU_TESTS=OFF \
	-DGOMOKU_LOAD=ON >/dev/null
cmake --build "$BUILD" -j "$(nproc)" >/dev/null

# The load generator counts the server's system calls with perf counters
# on tracepoints, which need tracefs (systemd mounts it; a container may
# not): mounted here when missing and allowed.
if [ ! -d /sys/kernel/tracing/events ] && [ -d /sys/kernel/tracing ]; then
	mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null ||
		echo "bench.sh: no tracefs: system calls not counted" >&2
fi

LOAD_BEFORE=$(cut -d' ' -f1 /proc/loadavg)
echo "running: $SCENARIOS on $SERVERS, $ROUNDS round(s) (updates=$UPDATES, port $PORT)" >&2
for ROUND in $(seq "$ROUNDS"); do
for name in $SCENARIOS; do
	case $name in
	capacity)
		scenario capacity --idle --connections "$CAPACITY" \
			--ramp 4000 --duration "$HOLD" --warmup 0 ;;
	throughput)
		scenario throughput --connections 2000 --move-rate 0 \
			--duration "$THROUGHPUT_S" --warmup 3 ;;
	throughput-long)
		scenario throughput-long --connections 2000 --move-rate 0 \
			--game long --duration "$LONG_S" --warmup 2 ;;
	latency)
		# Rooms start spread over one 9 s game (see README): warm
		# up for that long so games end at a steady rate.
		scenario latency --connections 10000 --move-rate 1 \
			--ramp 4000 --duration "$LATENCY_S" --warmup 9 ;;
	latency-timed)
		# As latency, every game timed at 3+2 (the baseline
		# ignores tc): the clocks on the path of every move.
		scenario latency-timed --connections 10000 --move-rate 1 \
			--ramp 4000 --duration "$LATENCY_S" --warmup 9 \
			--tc 180+2 ;;
	churn)
		scenario churn --churn 500 --move-rate 0 \
			--duration "$CHURN_S" --warmup "$CHURN_WARMUP" ;;
	ai)
		case " $SERVERS " in
		*" gomoku "*)
			command -v node >/dev/null && [ -d tests/node_modules/ws ] &&
				ai_scenario ||
				echo "  ai: skipped (needs node and tests/node_modules: ./gomoku.sh deps test)" >&2 ;;
		esac ;;
	watched)
		case " $SERVERS " in
		*" gomoku "*) watched_scenario ;;
		*) echo "  watched: skipped (gomoku-server only)" >&2 ;;
		esac ;;
	cluster)
		case " $SERVERS " in
		*" gomoku "*)
			command -v redis-server >/dev/null &&
				cluster_scenario ||
				echo "  cluster: skipped (needs redis-server: ./gomoku.sh deps test)" >&2 ;;
		esac ;;
	*)
		die "unknown scenario '$name'" ;;
	esac
done
done
LOAD_AFTER=$(cut -d' ' -f1 /proc/loadavg)
ELAPSED=$(($(date +%s) - START))
# What the report needs, for BENCH_REPORT_ONLY.
declare -p SCENARIOS SERVERS ROUNDS UPDATES LOAD_BEFORE LOAD_AFTER ELAPSED \
	DB_FS CHURN_WARMUP AI_GAMES WATCHERS CROWD | sed 's/^declare -- //' >"$RESULTS/run.env"
fi

# Each scenario's figures per server: the median of its rounds, field by
# field, in $RESULTS/LABEL.SERVER.json.
for file in "$RESULTS"/*.*.1.json; do
	[ -e "$file" ] || continue
	base=${file%.1.json}
	jq -s '. as $runs | reduce ($runs[0] | paths(numbers)) as $p ($runs[0];
		setpath($p; [$runs[] | getpath($p) | numbers] | sort |
			.[length / 2 | floor]))' "$base".*.json >"$base.json"
done

# ---- the report ----

has() { # has SCENARIO: it was run
	case " $SCENARIOS " in *" $1 "*) return 0 ;; esac
	return 1
}

ran() { # ran SERVER: it took part
	case " $SERVERS " in *" $1 "*) return 0 ;; esac
	return 1
}

fig() { # fig SCENARIO JQ-EXPRESSION [SERVER]: a figure, or "-"
	local file=$RESULTS/$1.${3:-gomoku}.json
	[ -s "$file" ] || {
		echo "-"
		return
	}
	jq -r "$2" "$file"
}

verdict() { # verdict JQ-CONDITION SCENARIO
	[ -s "$RESULTS/$2.gomoku.json" ] || {
		echo "-"
		return
	}
	jq -r "if ($1) then \"PASS\" else \"SHORT\" end" "$RESULTS/$2.gomoku.json"
}

row() { printf '%-16s %-32s %-18s %-18s %-7s %-10s %s\n' "$@"; }

# compare SCENARIO FIGURE JQ-NUMBER FORMAT [TARGET-OP TARGET]: one row with
# both servers' figure, the ratio gomoku / node, and, with a target, its
# verdict: "ratio>=", "ratio<=" and "ratio<" judge the ratio, ">=", "<="
# and "<" gomoku-server's figure.
compare() {
	local scen=$1 figure=$2 expr=$3 format=$4 op=${5:-} target=${6:-}
	local g n ratio="-" shown_g="-" shown_n="-" result="" value
	g=$(fig "$scen" "($expr) // empty" gomoku)
	n=$(fig "$scen" "($expr) // empty" node)
	[ -z "$g" ] || [ "$g" = - ] || shown_g=$(printf "$format" "$g")
	[ -z "$n" ] || [ "$n" = - ] || shown_n=$(printf "$format" "$n")
	if [ "$shown_g" != - ] && [ "$shown_n" != - ]; then
		ratio=$(jq -n -r --argjson g "$g" --argjson n "$n" \
			'if $n == 0 then "-" else ($g / $n * 100 | round / 100 | tostring) + "x" end')
	fi
	if [ -n "$op" ]; then
		case $op in
		ratio*) value=${ratio%x} op=${op#ratio} ;;
		*) value=$g ;;
		esac
		if [ -z "$value" ] || [ "$value" = - ] || [ "$shown_g" = - ]; then
			result="-"
		else
			result=$(jq -n -r --argjson v "$value" \
				"if \$v $op $target then \"PASS\" else \"SHORT\" end")
		fi
		case $5 in
		ratio*) target="${5#ratio} ${6}x" ;;
		*) target="$5 $6" ;;
		esac
	fi
	row "$scen" "$figure" "$shown_g" "$shown_n" "$ratio" "${target:-}" "$result"
}

report() {
	local cpu kernel commit
	cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
	kernel=$(uname -sr)
	commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
	git diff --quiet HEAD 2>/dev/null || commit="$commit+changes"
	echo "Gomoku server benchmark, $(date -u +%Y-%m-%dT%H:%MZ), commit $commit"
	echo "machine: $(nproc) cores, $cpu, $kernel," \
		"$(($(grep MemTotal /proc/meminfo | awk '{print $2}') / 1048576)) GiB," \
		"fd limit $(ulimit -Hn) per process"
	echo "load generator on the same machine, $(nproc) cores shared;" \
		"load average $LOAD_BEFORE before, $LOAD_AFTER after;" \
		"updates=$UPDATES; database on $DB_FS; servers: $SERVERS;" \
		"$ROUNDS round(s), medians; ${ELAPSED} s in all"
	echo
	row scenario figure gomoku-server "node baseline" ratio target result

	if has capacity; then
	compare capacity "connections held, all matched" \
		'.matched_at_end' '%d' '>=' "$TARGET_HELD"
	compare capacity "server RSS empty, MiB" \
		'.rss_empty_kib / 1024' '%.1f'
	compare capacity "server RSS full, MiB" \
		'.rss_end_kib / 1024' '%.1f'
	compare capacity "RSS per idle connection, KiB" \
		'.rss_per_conn_kib' '%.2f' '<=' "$TARGET_RSS_PER_CONN"
	compare capacity "... against the baseline" \
		'.rss_per_conn_kib' '%.2f' 'ratio<=' "$TARGET_MEMORY_RATIO"
	compare capacity "connect -> matched p50, ms" \
		'.match_p50_us / 1000' '%.2f'
	compare capacity "connect -> matched p99, ms" \
		'.match_p99_us / 1000' '%.2f'
	fi

	local name target
	for name in throughput throughput-long; do
		has "$name" || continue
		target=$TARGET_SHORT_RATIO
		[ "$name" = throughput ] || target=$TARGET_LONG_RATIO
		compare "$name" "moves accepted per second" \
			'.moves_per_s' '%.0f'
		compare "$name" "matches per second" \
			'.matches_per_s' '%.0f'
		compare "$name" "moves per server CPU-second" \
			'.moves_per_server_cpu_s' '%.0f' 'ratio>=' "$target"
		compare "$name" "server CPU-s per 100k moves" \
			'.server_cpu_s_per_100k_moves' '%.3f'
		compare "$name" "system calls per move" \
			'.syscalls_per_move.all' '%.2f' '<=' "$TARGET_SYSCALLS"
		compare "$name" "... epoll_ctl" \
			'.syscalls_per_move.epoll_ctl' '%.2f'
		compare "$name" "... send / write" \
			'.syscalls_per_move.send' '%.2f'
		compare "$name" "... journal, per 1,000 moves" \
			'.syscalls_per_move.journal * 1000' '%.0f'
		compare "$name" "move latency p50, ms" \
			'.latency_p50_us / 1000' '%.2f'
	done

	if has latency; then
	compare latency "rooms" '.connections / 2' '%d'
	compare latency "moves per second" '.moves_per_s' '%.0f'
	compare latency "move latency p50, ms" \
		'.latency_p50_us / 1000' '%.2f' 'ratio<' 1
	compare latency "move latency p99, ms" \
		'.latency_p99_us / 1000' '%.2f' 'ratio<' 1
	compare latency "... against the project's" \
		'.latency_p99_us / 1000' '%.2f' '<' "$TARGET_P99_MS"
	compare latency "move latency p99.9, ms" \
		'.latency_p999_us / 1000' '%.2f' '<' "$TARGET_P999_MS"
	compare latency "move latency max, ms" \
		'.latency_max_us / 1000' '%.2f'
	compare latency "server CPU, % of a core" \
		'.server_cpu_pct' '%.0f'
	compare latency "system calls per move" \
		'.syscalls_per_move.all' '%.2f'
	fi

	if has latency-timed; then
	compare latency-timed "rooms, every game 3+2" '.connections / 2' '%d'
	compare latency-timed "move latency p50, ms" \
		'.latency_p50_us / 1000' '%.2f' 'ratio<' 1
	compare latency-timed "move latency p99, ms" \
		'.latency_p99_us / 1000' '%.2f' '<' "$TARGET_P99_MS"
	compare latency-timed "move latency p99.9, ms" \
		'.latency_p999_us / 1000' '%.2f' '<' "$TARGET_P999_MS"
	compare latency-timed "server CPU, % of a core" \
		'.server_cpu_pct' '%.0f'
	if has latency; then
	# The clocks' cost: the same load timed and not, side by side.
	row "" "p50 / p99 timed, untimed, ms" \
		"$(fig latency-timed '"\(.latency_p50_us / 1000) / \(.latency_p99_us / 1000)"')" \
		"$(fig latency '"\(.latency_p50_us / 1000) / \(.latency_p99_us / 1000)"')" "" "" ""
	fi
	fi

	if has churn; then
	compare churn "new connections per second" \
		"(.conn_attempted / (.window_s + $CHURN_WARMUP))" '%.0f'
	compare churn "matches per second" '.matches_per_s' '%.0f'
	compare churn "server CPU, % of a core" '.server_cpu_pct' '%.0f'
	compare churn "server RSS start, KiB" '.rss_start_kib' '%d'
	compare churn "server RSS after, KiB" '.rss_after_kib' '%d'
	# A leak grows with every connection: it shows both from the start
	# and over the second half. The allocator keeping a burst's memory, or
	# SQLite filling its page cache, shows only in the first.
	row "" "RSS growth, start -> after" \
		"$(fig churn '"\(.rss_after_kib - .rss_start_kib) KiB"')" "" "" \
		"<= $RSS_GROWTH_ALLOWED KiB" \
		"$(fig churn "if .rss_after_kib - .rss_start_kib <= $RSS_GROWTH_ALLOWED then \"PASS\" elif .rss_end_kib - .rss_mid_kib <= $RSS_LEVEL_ALLOWED then \"(levelled)\" else \"SHORT\" end")"
	row "" "RSS growth, second half" \
		"$(fig churn '"\(.rss_end_kib - .rss_mid_kib) KiB"')" "" "" \
		"<= $RSS_LEVEL_ALLOWED KiB" \
		"$(verdict ".rss_end_kib - .rss_mid_kib <= $RSS_LEVEL_ALLOWED" churn)"
	row "" "server fds empty / after" \
		"$(fig churn '"\(.fds_empty) / \(.fds_after)"')" "" "" "no growth" \
		"$(verdict ".fds_after <= .fds_empty" churn)"
	fi

	if has ai && [ -s "$RESULTS/ai.gomoku.json" ]; then
	row ai "human rooms, moves per second" \
		"$(fig ai-alone '"\(.connections / 2), \(.moves_per_s | round)"')" "" "" "" ""
	row "" "p50 / p99 / p99.9 alone, ms" \
		"$(fig ai-alone '"\(.latency_p50_us / 1000) / \(.latency_p99_us / 1000) / \(.latency_p999_us / 1000)"')" "" "" "" ""
	row "" "... with $AI_GAMES engine games" \
		"$(fig ai '"\(.latency_p50_us / 1000) / \(.latency_p99_us / 1000) / \(.latency_p999_us / 1000)"')" "" "" \
		"p99 +1 ms" \
		"$(jq -r -s 'if .[1].latency_p99_us <= .[0].latency_p99_us + 1000 then "PASS" else "SHORT" end' "$RESULTS/ai-alone.gomoku.json" "$RESULTS/ai.gomoku.json")"
	row "" "engine moves, answer p50 / p99" \
		"$(jq -r '"\(.engine_moves), \(.answer_ms.p50) / \(.answer_ms.p99) ms"' "$RESULTS/ai-players.json")" "" "" "" ""
	fi

	if has watched && [ -s "$RESULTS/watched.gomoku.json" ] &&
		[ -s "$RESULTS/unwatched.gomoku.json" ]; then
	local both="$RESULTS/unwatched.gomoku.json $RESULTS/watched.gomoku.json"
	row watched "rooms, moves per second" \
		"$(fig unwatched '"\(.connections / 2), \(.moves_per_s | round)"')" "" "" "" ""
	row "" "p50 / p99 / p99.9 unwatched, ms" \
		"$(fig unwatched '"\(.latency_p50_us / 1000) / \(.latency_p99_us / 1000) / \(.latency_p999_us / 1000)"')" "" "" "" ""
	row "" "... watched, ms" \
		"$(fig watched '"\(.latency_p50_us / 1000) / \(.latency_p99_us / 1000) / \(.latency_p999_us / 1000)"')" "" "" "" ""
	# shellcheck disable=SC2086
	row "" "p99 watched - unwatched, ms" \
		"$(jq -r -s '(.[1].latency_p99_us - .[0].latency_p99_us) / 1000' $both)" "" "" \
		"<= $TARGET_WATCHED_P99_MS ms" \
		"$(jq -r -s "if .[1].latency_p99_us - .[0].latency_p99_us <= $TARGET_WATCHED_P99_MS * 1000 then \"PASS\" else \"SHORT\" end" $both)"
	row "" "moves per second, watched" \
		"$(fig watched '.moves_per_s | round')" "" "" "" ""
	row "" "spectators: per room + crowd" \
		"$(fig watched '"\(.spectators.watchers) + \(.spectators.crowd)"')" "" "" "" ""
	row "" "... open, mean / held" \
		"$(fig watched '"\(.spectators.open_mean | round) / \(.spectators.held)"')" "" "" "" ""
	row "" "... crowd's room, mean / min" \
		"$(fig watched '"\(.spectators.crowd_mean | round) / \(.spectators.crowd_min)"')" "" "" "" ""
	row "" "... messages per second" \
		"$(fig watched '.spectators.messages_per_s | round')" "" "" "" ""
	row "" "... boards received / missed" \
		"$(fig watched '"\(.spectators.boards) / \(.spectators.boards_missed)"')" "" "" "0 missed" \
		"$(verdict '.spectators.boards_missed == 0 and .spectators.wrong_room == 0' watched)"
	row "" "... winners / after last board" \
		"$(fig watched '"\(.spectators.winners) / \(.spectators.winners_complete)"')" "" "" "all" \
		"$(verdict '.spectators.winners == .spectators.winners_complete' watched)"
	row "" "... opened / failed / errors" \
		"$(fig watched '"\(.spectators.opened) / \(.spectators.failed) / \(.spectators.errors | add // 0)"')" "" "" "" ""
	row "" "server CPU %, without / with" \
		"$(fig unwatched '.server_cpu_pct | round') / $(fig watched '.server_cpu_pct | round')" "" "" "" ""
	fi

	if has cluster && [ -s "$RESULTS/cluster-latency-site.gomoku.json" ]; then
	local kind
	for kind in alone redis site; do
		row cluster "$(case $kind in
			alone) echo "1 process alone" ;;
			redis) echo "1 process, --redis" ;;
			site) echo "2 on one port, --redis" ;;
			esac)" "" "" "" "" ""
		row "" "throughput: moves per second" \
			"$(fig "cluster-throughput-$kind" '.moves_per_s | round')" "" "" "" ""
		row "" "... p50 / p99, ms" \
			"$(fig "cluster-throughput-$kind" '"\(.latency_p50_us / 1000) / \(.latency_p99_us / 1000)"')" "" "" "" ""
		row "" "latency: moves per second" \
			"$(fig "cluster-latency-$kind" '.moves_per_s | round')" "" "" "" ""
		row "" "... p50 / p99 / p99.9, ms" \
			"$(fig "cluster-latency-$kind" '"\(.latency_p50_us / 1000) / \(.latency_p99_us / 1000) / \(.latency_p999_us / 1000)"')" "" "" "" ""
	done
	fi

	echo
	printf '%-16s %-8s %-22s %-24s %s\n' scenario server "server CPU" \
		"server waiting for CPU" "load generator CPU"
	local server label
	for label in $SCENARIOS; do
		[ "$label" != ai ] || label="ai-alone ai"
		[ "$label" != watched ] || label="unwatched watched"
		[ "$label" != cluster ] ||
			label=$(printf 'cluster-%s ' {throughput,latency}-{alone,redis,site})
		for name in $label; do
		for server in $SERVERS; do
			[ -s "$RESULTS/$name.$server.json" ] || continue
			printf '%-16s %-8s %-22s %-24s %s\n' "$name" "$server" \
				"$(fig "$name" '"\(.server_cpu_s * 10 | round / 10) s (\(.server_cpu_pct | round) %)"' "$server")" \
				"$(fig "$name" '"\(.server_wait_s * 10 | round / 10) s (\(100 * .server_wait_s / .window_s | round) %)"' "$server")" \
				"$(fig "$name" '"\(.client_cpu_s * 10 | round / 10) s"' "$server")"
		done
		done
	done
	echo
	printf '%-16s %-8s %-32s %-18s %s\n' scenario server \
		"errors / failed conns / closes" measured target
	for label in $SCENARIOS; do
		[ "$label" != ai ] || label="ai-alone ai"
		[ "$label" != watched ] || label="unwatched watched"
		[ "$label" != cluster ] ||
			label=$(printf 'cluster-%s ' {throughput,latency}-{alone,redis,site})
		for name in $label; do
		for server in $SERVERS; do
			[ -s "$RESULTS/$name.$server.json" ] || continue
			printf '%-16s %-8s %-32s %-18s %s\n' "$name" "$server" "" \
				"$(fig "$name" '[(.errors | add // 0), (.connect_errors | add // 0), (.closes | add // 0)] | "\(.[0]) / \(.[1]) / \(.[2])"' "$server")" \
				"0 / 0 / 0"
		done
		done
	done
	if [ "$UPDATES" = move ] && [ -n "$(for file in "$RESULTS"/*.*.json; do
		jq -r 'select(.boards_full? > 0) | .label' "$file" 2>/dev/null
	done)" ]; then
		echo
		echo "note: a server sent full boards although updates=move was asked for"
	fi
}

report | tee "$RESULTS/latest.txt"
files=()
for file in "$RESULTS"/*.*.*.json; do
	[ -s "$file" ] && files+=("$file")
done
[ ${#files[@]} -gt 0 ] || die "no scenario produced figures"
jq -s --arg updates "$UPDATES" --arg load_before "$LOAD_BEFORE" \
	--arg load_after "$LOAD_AFTER" --arg servers "$SERVERS" \
	--argjson rounds "$ROUNDS" \
	'{updates: $updates, load_before: $load_before, load_after: $load_after,
	  servers: $servers, rounds: $rounds, runs: .}' "${files[@]}" \
	>"$RESULTS/latest.json.tmp"
mv "$RESULTS/latest.json.tmp" "$RESULTS/latest.json"
echo >&2
echo "JSON of every run: $RESULTS/latest.json" >&2
