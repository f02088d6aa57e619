#!/usr/bin/env bash
#
# tests/fuzz/run.sh BINARY FINDINGS - run one libFuzzer target of core/
# (BINARY, e.g. build-fuzz/tests/fuzz/fuzz_protocol) for GOMOKU_FUZZ_SECONDS
# seconds (default 60) on a scratch copy of its seed corpus
# (tests/fuzz/corpus/<target>/), which is never modified: new inputs are
# left in the scratch copy, not merged back. ctest runs it once per target,
# as the tests fuzz.protocol, fuzz.lobby and fuzz.renju (label fuzz) of the
# fuzz build:
#
#   cmake --preset fuzz && cmake --build --preset fuzz
#   ctest --test-dir build-fuzz -L fuzz
#
# Prints executions/s, coverage and the new corpus size, keeps any crash,
# leak or timeout input in FINDINGS (under ctest: build-fuzz/findings/
# <target>/), and exits 1 when the target found something.

set -u

SECONDS_PER_TARGET=${GOMOKU_FUZZ_SECONDS:-60}

die()
{
	printf 'fuzz: %s\n' "$*" >&2
	exit 1
}

[ $# -eq 2 ] || die "usage: $0 BINARY FINDINGS"
binary=$(readlink -f -- "$1")
kept=$2
target=$(basename "$binary")
target=${target#fuzz_}

cd "$(dirname -- "$(readlink -f -- "$0")")/../.." || die "cannot find the repository"

case $SECONDS_PER_TARGET in
'' | *[!0-9]*)
	die "GOMOKU_FUZZ_SECONDS must be a whole number, not \"$SECONDS_PER_TARGET\"" ;;
esac
[ -x "$binary" ] || die "no fuzz target $1: build it first (cmake --build --preset fuzz)"
[ -d "tests/fuzz/corpus/$target" ] || die "no seed corpus tests/fuzz/corpus/$target/"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/gomoku-fuzz.XXXXXX") ||
	die "mktemp could not make a scratch directory"
trap 'rm -rf "$scratch"' EXIT

# The value of libFuzzer's final "stat::NAME: VALUE" line in log.
stat_of()
{
	sed -n "s/^stat::$2: *//p" "$1" | tail -n 1
}

corpus=$scratch/corpus
artifacts=$scratch/artifacts
log=$scratch/log
dict=tests/fuzz/$target.dict
mkdir -p "$corpus" "$artifacts"
cp -R "tests/fuzz/corpus/$target/." "$corpus/"
seeds=$(find "$corpus" -type f | wc -l)

printf '==> fuzz_%s for %s s on %s seeds\n' "$target" "$SECONDS_PER_TARGET" "$seeds"
set -- -max_total_time="$SECONDS_PER_TARGET" -timeout=10 \
	-rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
	-artifact_prefix="$artifacts/"
[ -f "$dict" ] && set -- "$@" -dict="$dict"
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	ASAN_OPTIONS=detect_leaks=1 \
	"$binary" "$@" "$corpus" >"$log" 2>&1
status=$?

# The last status line: "#N DONE cov: C ft: F corp: K/B ...".
done_line=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
coverage=$(printf '%s\n' "$done_line" |
	sed -n 's/.* cov: \([0-9]*\).* ft: \([0-9]*\).*/\1 edges, \2 features/p')
corpus_size=$(find "$corpus" -type f | wc -l)
printf 'executions: %s (%s/s)\n' \
	"$(stat_of "$log" number_of_executed_units)" \
	"$(stat_of "$log" average_exec_per_sec)"
printf 'coverage:   %s\n' "${coverage:-unknown}"
printf 'corpus:     %s seeds -> %s inputs (%s new)\n' "$seeds" \
	"$corpus_size" "$((corpus_size - seeds))"

findings=$(find "$artifacts" -type f \( -name 'crash-*' -o \
	-name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
if [ "$status" -ne 0 ] || [ "$findings" -ne 0 ]; then
	mkdir -p "$kept"
	cp "$artifacts"/* "$kept/" 2>/dev/null
	cp "$log" "$kept/fuzz_$target.log"
	grep -E -A 30 'ERROR: |fuzz_[a-z]+: .*:[0-9]+: |SUMMARY' "$log" |
		head -n 60
	printf 'FAILED: fuzz_%s exited %s with %s finding(s), kept in %s/\n' \
		"$target" "$status" "$findings" "$kept"
	exit 1
fi
printf 'ok: fuzz_%s found nothing\n' "$target"
