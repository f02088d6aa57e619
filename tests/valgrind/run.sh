#!/usr/bin/env bash
# Runs every integration suite (tests/integration/*.test.mjs) once with
# gomoku-server under valgrind (memcheck, full leak check; the children it
# forks for --ai-engine are not checked: between fork and exec they are a
# copy of the server, and an exec that fails would report its memory). A suite fails
# when node --test fails or when valgrind wrote anything about any server
# process it ran (an error or a definite, indirect or possible leak); the
# logs are printed. The last line is "valgrind: N passed, M failed"
# (suites), and the exit status is 0 only when none failed.
#
# Environment: GOMOKU_BUILD_DIR (default build/ at the top of the repo),
# GOMOKU_VALGRIND_CRASH_CYCLES (default 5): how many of the 20 SIGKILL
# cycles of persistence.test.mjs to run under valgrind, where each
# restart is slow (0 runs all 20); GOMOKU_TEST_TIME_SCALE (default 10):
# the factor of every test deadline.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${GOMOKU_BUILD_DIR:-$root/build}
crash_cycles=${GOMOKU_VALGRIND_CRASH_CYCLES:-5}
# Every deadline of the suites is multiplied by this (lib/time.mjs): the
# server under valgrind is ten to fifty times slower.
time_scale=${GOMOKU_TEST_TIME_SCALE:-10}

say() {
	printf '%s\n' "$*"
}

die() {
	say "valgrind: $*" >&2
	say "valgrind: 0 passed, 1 failed"
	exit 1
}

install_valgrind() {
	command -v valgrind >/dev/null 2>&1 && return 0
	say "valgrind is not installed: installing it with apt-get"
	local sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq && $sudo apt-get install -y -qq valgrind >/dev/null ||
		die "cannot install valgrind with apt-get"
	command -v valgrind >/dev/null 2>&1 || die "valgrind is still missing after apt-get"
}

install_valgrind
command -v node >/dev/null 2>&1 || die "node is not installed"
[ -d "$root/tests/node_modules/ws" ] ||
	die "the test packages are missing: run npm ci in $root/tests"
if [ -f "$build/CMakeCache.txt" ]; then
	if ! cmake --build "$build" -j2 >"${TMPDIR:-/tmp}/gomoku-valgrind-build.$$" 2>&1; then
		cat "${TMPDIR:-/tmp}/gomoku-valgrind-build.$$"
		rm -f "${TMPDIR:-/tmp}/gomoku-valgrind-build.$$"
		die "the build in $build failed"
	fi
	rm -f "${TMPDIR:-/tmp}/gomoku-valgrind-build.$$"
fi
[ -x "$build/gomoku-server" ] || die "no $build/gomoku-server: build it first (or set GOMOKU_BUILD_DIR)"

work=$(mktemp -d "${TMPDIR:-/tmp}/gomoku-valgrind.XXXXXX") || die "cannot make a temporary directory"
say "valgrind $(valgrind --version | sed 's/^valgrind-//'), server $build/gomoku-server, logs in $work"
if [ "$crash_cycles" != 0 ]; then
	say "NOTE: persistence.test.mjs runs $crash_cycles of its 20 SIGKILL cycles under valgrind" \
		"(GOMOKU_VALGRIND_CRASH_CYCLES=0 for all 20)"
	cycles_env=$crash_cycles
else
	cycles_env=
fi

passed=0
failed=0
failed_names=
for suite in "$root"/tests/integration/*.test.mjs; do
	name=$(basename "$suite" .test.mjs)
	logs=$work/$name
	mkdir -p "$logs"
	# One wrapper per suite, so that each suite's server logs stay apart.
	# exec: the test's signals (SIGTERM, SIGKILL) reach valgrind and so
	# the server it runs.
	cat >"$logs/gomoku-server" <<EOF
#!/bin/sh
exec valgrind -q --error-exitcode=99 --leak-check=full \\
	--child-silent-after-fork=yes \\
	--show-leak-kinds=definite,indirect,possible \\
	--errors-for-leak-kinds=definite,indirect,possible \\
	--log-file='$logs/vg.%p.log' '$build/gomoku-server' "\$@"
EOF
	chmod +x "$logs/gomoku-server"

	started=$(date +%s)
	(
		cd "$root/tests" &&
			GOMOKU_SERVER_BIN=$logs/gomoku-server GOMOKU_WEB_ROOT=$root/web \
				GOMOKU_PBRAIN_BIN=$build/pbrain-gomoku \
				GOMOKU_TEST_CRASH_CYCLES=$cycles_env \
				GOMOKU_TEST_TIME_SCALE=$time_scale \
				node --test "$suite"
	) >"$logs/node-test.out" 2>&1
	status=$?
	seconds=$(($(date +%s) - started))

	problems=0
	for log in "$logs"/vg.*.log; do
		[ -s "$log" ] || continue
		problems=$((problems + 1))
		say "--- $name: valgrind report $(basename "$log"):"
		cat "$log"
	done
	servers=$(find "$logs" -name 'vg.*.log' | wc -l)
	summary=$(grep -E '^# (pass|fail) ' "$logs/node-test.out" | tr '\n' ' ')
	if [ "$status" -eq 0 ] && [ "$problems" -eq 0 ]; then
		passed=$((passed + 1))
		say "ok   $name (${seconds}s, $servers server processes, ${summary:-no summary})"
	else
		failed=$((failed + 1))
		failed_names="$failed_names $name"
		say "FAIL $name (${seconds}s, $servers server processes, node --test status $status," \
			"$problems valgrind reports, ${summary:-no summary})"
		if [ "$status" -ne 0 ]; then
			say "--- $name: failing tests (full output in $logs/node-test.out):"
			grep -E '^ *not ok |^ +(error|expected|actual):' "$logs/node-test.out" | head -40
		fi
	fi
done

[ "$failed" -eq 0 ] || say "failed suites:$failed_names"
say "valgrind: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
