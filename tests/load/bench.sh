#!/usr/bin/env bash
# bench.sh - the Gomoku server benchmark: four scenarios, each against a
# freshly started Release build of gomoku-server, driven by gomoku-loadgen
# on the same machine. Prints a machine header and one table with the
# targets; writes every scenario's JSON to tests/load/results/latest.json
# and the table to tests/load/results/latest.txt.
#
#   tests/load/bench.sh                     the whole benchmark (~3.5 min)
#   BENCH_SCENARIOS="throughput" tests/load/bench.sh     only some
#   BENCH_UPDATES=full tests/load/bench.sh  full boards, not compact ones
#   BENCH_QUICK=1 tests/load/bench.sh       short runs, to try it out
#
# Other knobs (environment): BENCH_PORT (default: a free one from 28080),
# BENCH_BUILD (build-bench), BENCH_CAPACITY (connections held in scenario
# 1, 19000), BENCH_HOLD / BENCH_THROUGHPUT_S / BENCH_LONG_S /
# BENCH_LATENCY_S / BENCH_CHURN_S (seconds measured), BENCH_CHURN_WARMUP
# (10), BENCH_DB_DIR (where the server's database goes: /tmp; /dev/shm
# takes the disk out of the figures).
set -euo pipefail

cd "$(dirname "$0")/../.."
ROOT=$(pwd)
BUILD=${BENCH_BUILD:-build-bench}
RESULTS=$ROOT/tests/load/results
UPDATES=${BENCH_UPDATES:-move}
SCENARIOS=${BENCH_SCENARIOS:-capacity throughput throughput-long latency churn ai}
CAPACITY=${BENCH_CAPACITY:-19000}
HOLD=${BENCH_HOLD:-60}
THROUGHPUT_S=${BENCH_THROUGHPUT_S:-15}
LONG_S=${BENCH_LONG_S:-10}
LATENCY_S=${BENCH_LATENCY_S:-20}
CHURN_S=${BENCH_CHURN_S:-60}
CHURN_WARMUP=${BENCH_CHURN_WARMUP:-10}
AI_S=${BENCH_AI_S:-15}
AI_GAMES=${BENCH_AI_GAMES:-50}
if [ -n "${BENCH_QUICK:-}" ]; then
	CAPACITY=${BENCH_CAPACITY:-4000}
	HOLD=${BENCH_HOLD:-5}
	THROUGHPUT_S=${BENCH_THROUGHPUT_S:-5}
	LONG_S=${BENCH_LONG_S:-5}
	LATENCY_S=${BENCH_LATENCY_S:-5}
	CHURN_S=${BENCH_CHURN_S:-5}
	CHURN_WARMUP=${BENCH_CHURN_WARMUP:-2}
fi

# Targets (the issue's numbers).
TARGET_HELD=15000         # concurrent players in one server process
TARGET_RSS_PER_CONN=10    # KiB per idle connection above the empty server
TARGET_MOVES_PER_CPU=100000 # moves accepted per server CPU-second
TARGET_P99_MS=5
TARGET_P999_MS=20
RSS_GROWTH_ALLOWED=1024   # KiB after churn: allocator noise, see README
RSS_LEVEL_ALLOWED=512     # KiB over the second half of the churn window

SERVER_PID=
DB_DIR=

die() {
	echo "bench.sh: $*" >&2
	exit 1
}

for tool in cmake jq; do
	command -v "$tool" >/dev/null ||
		die "$tool is missing (apt-get install $tool)"
done

# The first free port from 28080 on, unless BENCH_PORT names one.
pick_port() {
	local port
	if [ -n "${BENCH_PORT:-}" ]; then
		echo "$BENCH_PORT"
		return
	fi
	for port in $(seq 28080 28180); do
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			echo "$port"
			return
		fi
	done
	die "no free port in 28080..28180"
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
	server_stop
	[ -z "$DB_DIR" ] || rm -rf "$DB_DIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Starts a fresh server with an empty database; waits until it answers.
server_start() {
	local _
	rm -rf "${DB_DIR:?}"/*
	"$BUILD/gomoku-server" --port "$PORT" --host 127.0.0.1 \
		--db "$DB_DIR/bench.db" --max-per-ip 0 \
		--max-connections 20000 --rate-burst 100000 \
		--rate-per-second 100000 --log-level warn \
		2>>"$RESULTS/server.log" &
	SERVER_PID=$!
	for _ in $(seq 100); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
			sleep 0.2 # let the probe's connection go
			return
		fi
		kill -0 "$SERVER_PID" 2>/dev/null || die "the server did not start"
		sleep 0.1
	done
	die "the server is not listening on $PORT"
}

# Scenario "ai": human rooms' move latency alone, then on the same server
# while AI_GAMES games against the hard engine keep it thinking.
ai_scenario() {
	local players
	command -v node >/dev/null && [ -d tests/node_modules/ws ] || {
		echo "  ai: skipped (needs node and tests/node_modules: ./gomoku.sh deps test)" >&2
		return 0
	}
	server_start
	echo "  ai: gomoku-loadgen --connections 2000 --move-rate 1, alone, then with $AI_GAMES engine games (tests/load/ai-players.mjs)" >&2
	"$BUILD/gomoku-loadgen" --port "$PORT" --server-pid "$SERVER_PID" \
		--updates "$UPDATES" --label ai-alone --json --connections 2000 \
		--move-rate 1 --duration "$AI_S" --warmup 5 \
		>"$RESULTS/ai-alone.json" 2>>"$RESULTS/bench.log" ||
		die "ai: the load generator failed (see $RESULTS/bench.log)"
	node tests/load/ai-players.mjs --port "$PORT" --games "$AI_GAMES" \
		--level hard >"$RESULTS/ai-players.json" 2>>"$RESULTS/bench.log" &
	players=$!
	sleep 3
	"$BUILD/gomoku-loadgen" --port "$PORT" --server-pid "$SERVER_PID" \
		--updates "$UPDATES" --label ai --json --connections 2000 \
		--move-rate 1 --duration "$AI_S" --warmup 5 \
		>"$RESULTS/ai.json" 2>>"$RESULTS/bench.log" ||
		die "ai: the load generator failed (see $RESULTS/bench.log)"
	kill -TERM "$players"
	wait "$players" || true
	server_stop
}

# Runs one scenario against a fresh server; appends its JSON.
scenario() {
	local label=$1
	shift
	server_start
	echo "  $label: gomoku-loadgen $*" >&2
	"$BUILD/gomoku-loadgen" --port "$PORT" --server-pid "$SERVER_PID" \
		--updates "$UPDATES" --label "$label" --json "$@" \
		>"$RESULTS/$label.json" 2>>"$RESULTS/bench.log" ||
		die "$label: the load generator failed (see $RESULTS/bench.log)"
	server_stop
}

mkdir -p "$RESULTS"
rm -f "$RESULTS"/*.json
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

LOAD_BEFORE=$(cut -d' ' -f1 /proc/loadavg)
echo "running: $SCENARIOS (updates=$UPDATES, port $PORT)" >&2
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
	churn)
		scenario churn --churn 500 --move-rate 0 \
			--duration "$CHURN_S" --warmup "$CHURN_WARMUP" ;;
	ai)
		ai_scenario ;;
	*)
		die "unknown scenario '$name'" ;;
	esac
done
LOAD_AFTER=$(cut -d' ' -f1 /proc/loadavg)
ELAPSED=$(($(date +%s) - START))

# ---- the report ----

has() { # has SCENARIO: it was run
	case " $SCENARIOS " in *" $1 "*) return 0 ;; esac
	return 1
}

fig() { # fig SCENARIO JQ-EXPRESSION
	[ -s "$RESULTS/$1.json" ] || {
		echo "-"
		return
	}
	jq -r "$2" "$RESULTS/$1.json"
}

verdict() { # verdict JQ-CONDITION SCENARIO
	[ -s "$RESULTS/$2.json" ] || {
		echo "-"
		return
	}
	jq -r "if ($1) then \"PASS\" else \"SHORT\" end" "$RESULTS/$2.json"
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
		"updates=$UPDATES; database on $DB_FS; ${ELAPSED} s in all"
	echo
	printf '%-16s %-32s %-24s %-14s %s\n' scenario figure measured target result
	row() { printf '%-16s %-32s %-24s %-14s %s\n' "$@"; }

	if has capacity; then
	row capacity "connections held, all matched" \
		"$(fig capacity '"\(.held) (\(.matched_at_end))"')" \
		">= $TARGET_HELD" \
		"$(verdict ".matched_at_end >= $TARGET_HELD" capacity)"
	row "" "server RSS empty / full" \
		"$(fig capacity '"\(.rss_empty_kib / 1024 | floor) / \(.rss_end_kib / 1024 | floor) MiB"')" "" ""
	row "" "server RSS per idle connection" \
		"$(fig capacity '"\(.rss_per_conn_kib * 100 | round / 100) KiB"')" \
		"<= $TARGET_RSS_PER_CONN KiB" \
		"$(verdict ".rss_per_conn_kib <= $TARGET_RSS_PER_CONN" capacity)"
	row "" "connect -> matched p50 / p99" \
		"$(fig capacity '"\(.match_p50_us / 1000) / \(.match_p99_us / 1000) ms"')" "" ""
	fi

	local name
	for name in throughput throughput-long; do
		has "$name" || continue
		row "$name" "moves accepted per second" \
			"$(fig "$name" '.moves_per_s | round')" "" ""
		row "" "matches per second" \
			"$(fig "$name" '.matches_per_s | round')" "" ""
		row "" "server CPU-s per 100k moves" \
			"$(fig "$name" '.server_cpu_s_per_100k_moves * 1000 | round / 1000')" \
			"<= $(jq -n "100000 / $TARGET_MOVES_PER_CPU")" ""
		row "" "moves per server CPU-second" \
			"$(fig "$name" '.moves_per_server_cpu_s | round')" \
			">= $TARGET_MOVES_PER_CPU" \
			"$(verdict ".moves_per_server_cpu_s >= $TARGET_MOVES_PER_CPU" "$name")"
	done

	if has latency; then
	row latency "rooms, moves per second" \
		"$(fig latency '"\(.connections / 2), \(.moves_per_s | round)"')" "" ""
	row "" "move latency p50" \
		"$(fig latency '"\(.latency_p50_us / 1000) ms"')" "" ""
	row "" "move latency p99" \
		"$(fig latency '"\(.latency_p99_us / 1000) ms"')" \
		"< $TARGET_P99_MS ms" \
		"$(verdict ".latency_p99_us < $TARGET_P99_MS * 1000 and .latency_samples > 0" latency)"
	row "" "move latency p99.9" \
		"$(fig latency '"\(.latency_p999_us / 1000) ms"')" \
		"< $TARGET_P999_MS ms" \
		"$(verdict ".latency_p999_us < $TARGET_P999_MS * 1000 and .latency_samples > 0" latency)"
	row "" "move latency max" \
		"$(fig latency '"\(.latency_max_us / 1000) ms"')" "" ""
	fi

	if has churn; then
	row churn "new connections per second" \
		"$(fig churn '"\((.conn_attempted / (.window_s + '"$CHURN_WARMUP"')) | round)"')" "500" ""
	row "" "matches per second" \
		"$(fig churn '.matches_per_s | round')" "" ""
	row "" "server RSS start / mid / after" \
		"$(fig churn '"\(.rss_start_kib) / \(.rss_mid_kib) / \(.rss_after_kib) KiB"')" "" ""
	# A leak grows with every connection: it shows both from the start
	# and over the second half. The allocator keeping a burst's memory, or
	# SQLite filling its page cache, shows only in the first.
	row "" "RSS growth, start -> after" \
		"$(fig churn '"\(.rss_after_kib - .rss_start_kib) KiB"')" \
		"<= $RSS_GROWTH_ALLOWED KiB" \
		"$(fig churn "if .rss_after_kib - .rss_start_kib <= $RSS_GROWTH_ALLOWED then \"PASS\" elif .rss_end_kib - .rss_mid_kib <= $RSS_LEVEL_ALLOWED then \"(levelled)\" else \"SHORT\" end")"
	row "" "RSS growth, second half" \
		"$(fig churn '"\(.rss_end_kib - .rss_mid_kib) KiB"')" \
		"<= $RSS_LEVEL_ALLOWED KiB" \
		"$(verdict ".rss_end_kib - .rss_mid_kib <= $RSS_LEVEL_ALLOWED" churn)"
	row "" "server fds empty / after" \
		"$(fig churn '"\(.fds_empty) / \(.fds_after)"')" "no growth" \
		"$(verdict ".fds_after <= .fds_empty" churn)"
	fi

	if has ai && [ -s "$RESULTS/ai.json" ]; then
	row ai "human rooms, moves per second" \
		"$(fig ai-alone '"\(.connections / 2), \(.moves_per_s | round)"')" "" ""
	row "" "p50 / p99 / p99.9, alone" \
		"$(fig ai-alone '"\(.latency_p50_us / 1000) / \(.latency_p99_us / 1000) / \(.latency_p999_us / 1000) ms"')" "" ""
	row "" "... with $AI_GAMES engine games" \
		"$(fig ai '"\(.latency_p50_us / 1000) / \(.latency_p99_us / 1000) / \(.latency_p999_us / 1000) ms"')" \
		"p99 +1 ms at most" \
		"$(jq -r -s 'if .[1].latency_p99_us <= .[0].latency_p99_us + 1000 then "PASS" else "SHORT" end' "$RESULTS/ai-alone.json" "$RESULTS/ai.json")"
	row "" "engine moves, answer p50 / p99" \
		"$(jq -r '"\(.engine_moves), \(.answer_ms.p50) / \(.answer_ms.p99) ms"' "$RESULTS/ai-players.json")" "" ""
	fi

	echo
	printf '%-16s %-22s %-24s %s\n' scenario "server CPU" \
		"server waiting for CPU" "load generator CPU"
	for name in $SCENARIOS; do
		printf '%-16s %-22s %-24s %s\n' "$name" \
			"$(fig "$name" '"\(.server_cpu_s * 10 | round / 10) s (\(.server_cpu_pct | round) %)"')" \
			"$(fig "$name" '"\(.server_wait_s * 10 | round / 10) s (\(100 * .server_wait_s / .window_s | round) %)"')" \
			"$(fig "$name" '"\(.client_cpu_s * 10 | round / 10) s"')"
	done
	echo
	local errors
	for name in $SCENARIOS; do
		errors=$(fig "$name" '[(.errors | add // 0), (.connect_errors | add // 0), (.closes | add // 0)] | "\(.[0]) / \(.[1]) / \(.[2])"')
		row "$name" "errors / failed conns / closes" "$errors" "0 / 0 / 0" \
			"$(verdict '((.errors | add // 0) + (.connect_errors | add // 0) + (.closes | add // 0)) == 0' "$name")"
	done
	if [ "$UPDATES" = move ] && [ -n "$(for name in $SCENARIOS; do
		fig "$name" 'select(.boards_full > 0) | .label'
	done)" ]; then
		echo
		echo "note: the server sent full boards although updates=move was asked for"
	fi
}

report | tee "$RESULTS/latest.txt"
files=()
for name in $SCENARIOS; do
	[ -s "$RESULTS/$name.json" ] && files+=("$RESULTS/$name.json")
done
[ ${#files[@]} -gt 0 ] || die "no scenario produced figures"
jq -s --arg updates "$UPDATES" --arg load_before "$LOAD_BEFORE" \
	--arg load_after "$LOAD_AFTER" \
	'{updates: $updates, load_before: $load_before, load_after: $load_after,
	  scenarios: .}' "${files[@]}" >"$RESULTS/latest.json"
echo >&2
echo "JSON of every scenario: $RESULTS/latest.json" >&2
