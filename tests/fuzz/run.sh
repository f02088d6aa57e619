#!/usr/bin/env bash
#
# tests/fuzz/run.sh [SECONDS] - build the libFuzzer targets of core/ with
# clang in build-fuzz/ and run each for SECONDS seconds (default 60) on a
# scratch copy of its seed corpus (tests/fuzz/corpus/<target>/), which is
# never modified: new inputs are left in the scratch copy, not merged back.
#
# Prints executions/s, coverage and the new corpus size of each target,
# keeps any crash, leak or timeout input in build-fuzz/findings/<target>/,
# and ends with "fuzz: N passed, M failed" (exit status 1 when M > 0).
# Installs clang and libclang-rt-14-dev with apt-get when they are missing.

set -u

SECONDS_PER_TARGET=${1:-60}
BUILD_DIR=build-fuzz
TARGETS="protocol lobby"

cd "$(dirname -- "$(readlink -f -- "$0")")/../.."

die()
{
	printf 'fuzz: %s\n' "$*" >&2
	printf 'fuzz: 0 passed, 1 failed\n'
	exit 1
}

case $SECONDS_PER_TARGET in
'' | *[!0-9]*)
	die "SECONDS must be a whole number, not \"$SECONDS_PER_TARGET\"" ;;
esac

# True when clang can build and link a libFuzzer program.
clang_can_fuzz()
{
	command -v clang >/dev/null 2>&1 || return 1
	printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)\n'`
		`'{ (void)d; (void)n; return 0; }\n' |
		clang -fsanitize=fuzzer,address,undefined -x c - \
			-o /dev/null >/dev/null 2>&1
}

if ! clang_can_fuzz; then
	printf '==> installing clang and libclang-rt-14-dev\n'
	if [ "$(id -u)" -eq 0 ]; then
		SUDO=
	elif command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		die "clang with libFuzzer is missing; run as root or install sudo"
	fi
	$SUDO apt-get install -y clang libclang-rt-14-dev ||
		{ $SUDO apt-get update &&
			$SUDO apt-get install -y clang libclang-rt-14-dev; } ||
		die "apt-get could not install clang libclang-rt-14-dev"
	clang_can_fuzz || die "clang still cannot link -fsanitize=fuzzer"
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/gomoku-fuzz.XXXXXX") ||
	die "mktemp could not make a scratch directory"
trap 'rm -rf "$scratch"' EXIT

printf '==> building the fuzz targets in %s/\n' "$BUILD_DIR"
CC=clang cmake -S . -B "$BUILD_DIR" -DGOMOKU_FUZZ=ON -DGOMOKU_TESTS=OFF -DGOMOKU_WERROR=ON \
	>"$scratch/configure.log" 2>&1 ||
	{ cat "$scratch/configure.log"; die "cmake could not configure"; }
cmake --build "$BUILD_DIR" -j "$(nproc)" \
	--target $(printf 'fuzz_%s ' $TARGETS) || die "the build failed"

# The value of libFuzzer's final "stat::NAME: VALUE" line in log.
stat_of()
{
	sed -n "s/^stat::$2: *//p" "$1" | tail -n 1
}

passed=0
failed=0
for target in $TARGETS; do
	binary=$BUILD_DIR/tests/fuzz/fuzz_$target
	corpus=$scratch/$target/corpus
	artifacts=$scratch/$target/artifacts
	log=$scratch/$target/log
	dict=tests/fuzz/$target.dict
	mkdir -p "$corpus" "$artifacts"
	cp -R "tests/fuzz/corpus/$target/." "$corpus/"
	seeds=$(find "$corpus" -type f | wc -l)

	printf '\n==> fuzz_%s for %s s on %s seeds\n' "$target" \
		"$SECONDS_PER_TARGET" "$seeds"
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
		kept=$BUILD_DIR/findings/$target
		mkdir -p "$kept"
		cp "$artifacts"/* "$kept/" 2>/dev/null
		cp "$log" "$kept/fuzz_$target.log"
		grep -E -A 30 'ERROR: |fuzz_[a-z]+: .*:[0-9]+: |SUMMARY' "$log" |
			head -n 60
		printf 'FAILED: fuzz_%s exited %s with %s finding(s), kept in %s/\n' \
			"$target" "$status" "$findings" "$kept"
		failed=$((failed + 1))
	else
		printf 'ok: fuzz_%s found nothing\n' "$target"
		passed=$((passed + 1))
	fi
done

printf '\nfuzz: %s passed, %s failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
