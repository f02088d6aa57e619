#!/usr/bin/env bash
# bench.sh - how long renju's forbidden points take: renju_forbidden() and
# renju_judge() (core/renju.c) on the most crowded positions of
# tests/renju/positions.txt, beside the tests' slow reference judge.
# Builds bench-renju in Release (its own build folder) and prints the
# figures; no target to pass or fail (the README quotes them).
#
#   tests/renju/bench.sh            (well under a minute)
#
# Knobs (environment): BENCH_BUILD (build-bench-renju).
set -euo pipefail

cd "$(dirname "$0")/../.."
BUILD=${BENCH_BUILD:-build-bench-renju}

cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DGOMOKU_TESTS=ON \
	-DGOMOKU_LOAD=OFF >/dev/null
cmake --build "$BUILD" --target bench-renju -j "$(nproc)" >/dev/null
echo "renju benchmark, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
"$BUILD/tests/bench-renju"
