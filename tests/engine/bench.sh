#!/usr/bin/env bash
# bench.sh - the engine benchmark: hard against easy over 100 games (50
# openings of 1 to 3 stones near the centre, each played with both
# colours), board 15, on one core; a table for freestyle and one for
# renju (black restrained by its forbidden points). Builds bench-engine in
# Release, prints a machine header and the tables, checks the targets
# (hard wins >= 98 % overall under freestyle, >= 95 % under renju, and
# >= 95 % as back; p99 move time < 100 ms) and writes the output to
# tests/engine/results/latest.txt.
#
#   tests/engine/bench.sh               the benchmark (a few minutes)
#   BENCH_OPENINGS=10 tests/engine/bench.sh     a quicker run
#
# Knobs (environment): BENCH_BUILD (build-bench-engine), BENCH_OPENINGS
# (50), BENCH_SEED (20240601), BENCH_NODES (hard's node budget per move,
# 60000), BENCH_DEADLINE_MS (hard's deadline per move, 90: a cap should
# the machine be slower or busier than expected), BENCH_CPU (the core to
# pin to, 0; empty: no pinning), BENCH_RULES (the tables: "freestyle
# renju"; standard is the third rule there is).
set -euo pipefail

cd "$(dirname "$0")/../.."
ROOT=$(pwd)
BUILD=${BENCH_BUILD:-build-bench-engine}
OPENINGS=${BENCH_OPENINGS:-50}
SEED=${BENCH_SEED:-20240601}
NODES=${BENCH_NODES:-60000}
DEADLINE_MS=${BENCH_DEADLINE_MS:-90}
CPU=${BENCH_CPU-0}
RULES=${BENCH_RULES:-freestyle renju}
RESULTS=$ROOT/tests/engine/results

cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DGOMOKU_TESTS=OFF \
	-DGOMOKU_LOAD=OFF >/dev/null
cmake --build "$BUILD" --target bench-engine -j "$(nproc)" >/dev/null

pin=()
if [ -n "$CPU" ] && command -v taskset >/dev/null; then
	pin=(taskset -c "$CPU")
fi

mkdir -p "$RESULTS"
{
	echo "engine benchmark, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- |
		sed 's/^ *//'), $(nproc) cores, pinned: ${CPU:-no}," \
		"load average: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	echo
	status=0
	for rule in $RULES; do
		# Renju holds black back: a draw or two against easy is fair.
		min_win=98
		[ "$rule" = renju ] && min_win=95
		"${pin[@]}" "$BUILD/bench-engine" --openings "$OPENINGS" \
			--seed "$SEED" --rule "$rule" --level hard \
			--against easy --nodes "$NODES" \
			--deadline-ms "$DEADLINE_MS" --min-win-rate "$min_win" \
			--min-back-win-rate 95 --max-p99-ms 100 || status=1
		echo
	done
	if [ "$status" -eq 0 ]; then
		echo "targets met: win rate >= 98 % (freestyle, standard) or" \
			">= 95 % (renju), as back >= 95 %, p99 < 100 ms"
	else
		echo "targets MISSED (see FAIL lines above)"
	fi
	exit "$status"
} 2>&1 | tee "$RESULTS/latest.txt"
exit "${PIPESTATUS[0]}"
