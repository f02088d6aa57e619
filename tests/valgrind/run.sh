#!/usr/bin/env bash
#
# tests/valgrind/run.sh SUITE [SERVER [PBRAIN]] - run one integration
# suite (tests/integration/NAME.test.mjs) with gomoku-server under valgrind
# (memcheck, full leak check; the children it forks for --ai-engine are not
# checked: between fork and exec they are a copy of the server, and an exec
# that fails would report its memory). ctest runs it once per suite, as the
# tests valgrind.NAME (label valgrind; tests/CMakeLists.txt):
#
#   ctest --test-dir build -L valgrind
#
# The suite fails when node --test fails or when valgrind wrote anything
# about any server process it ran (an error or a definite, indirect or
# possible leak); the logs are printed, and kept on failure. Exit status 0
# only when it passed.
#
# SERVER and PBRAIN default to gomoku-server and pbrain-gomoku in
# GOMOKU_BUILD_DIR (default build/ at the top of the repo). Environment:
# GOMOKU_VALGRIND_CRASH_CYCLES (default 5): how many of the 20 SIGKILL
# cycles of persistence.test.mjs to run under valgrind, where each restart
# is slow (0 runs all 20); GOMOKU_TEST_TIME_SCALE (default 10): the factor
# of every test deadline.
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
	exit 1
}

if [ $# -lt 1 ] || [ $# -gt 3 ]; then
	die "usage: $0 SUITE [SERVER [PBRAIN]]"
fi
suite=$(readlink -f -- "$1")
server=${2:-$build/gomoku-server}
pbrain=${3:-$build/pbrain-gomoku}
name=$(basename "$suite" .test.mjs)

[ -f "$suite" ] || die "no suite $1"
command -v valgrind >/dev/null 2>&1 || die "valgrind is not installed (./gomoku.sh deps test)"
command -v node >/dev/null 2>&1 || die "node is not installed"
[ -d "$root/tests/node_modules/ws" ] ||
	die "the test packages are missing: run npm ci in $root/tests"
[ -x "$server" ] || die "no $server: build it first (or set GOMOKU_BUILD_DIR)"

logs=$(mktemp -d "${TMPDIR:-/tmp}/gomoku-valgrind-$name.XXXXXX") ||
	die "cannot make a temporary directory"
if [ "$crash_cycles" != 0 ]; then
	[ "$name" != persistence ] ||
		say "NOTE: persistence.test.mjs runs $crash_cycles of its 20 SIGKILL cycles under valgrind" \
			"(GOMOKU_VALGRIND_CRASH_CYCLES=0 for all 20)"
	cycles_env=$crash_cycles
else
	cycles_env=
fi
[ "$name" != takeover ] ||
	say "NOTE: takeover.test.mjs kills an instance ${cycles_env:-10} of its 10 times," \
		"over 30 of its 100 games, under valgrind"

# The server the suite starts: this wrapper, so that the suite's server
# logs stay apart. exec: the test's signals (SIGTERM, SIGKILL) reach
# valgrind and so the server it runs.
cat >"$logs/gomoku-server" <<EOF
#!/bin/sh
exec valgrind -q --error-exitcode=99 --leak-check=full \\
	--child-silent-after-fork=yes \\
	--show-leak-kinds=definite,indirect,possible \\
	--errors-for-leak-kinds=definite,indirect,possible \\
	--log-file='$logs/vg.%p.log' '$server' "\$@"
EOF
chmod +x "$logs/gomoku-server"

say "valgrind $(valgrind --version | sed 's/^valgrind-//'), server $server, suite $name"
started=$(date +%s)
(
	cd "$root/tests" &&
		GOMOKU_SERVER_BIN=$logs/gomoku-server GOMOKU_WEB_ROOT=$root/web \
			GOMOKU_BUILD_DIR=$build \
			GOMOKU_PBRAIN_BIN=$pbrain \
			GOMOKU_TEST_CRASH_CYCLES=$cycles_env \
			GOMOKU_TEST_TAKEOVER_GAMES=30 GOMOKU_TEST_CLUSTER_PLAYERS=200 \
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
	say "ok   $name (${seconds}s, $servers server processes, ${summary:-no summary})"
	rm -rf "$logs"
	exit 0
fi
say "FAIL $name (${seconds}s, $servers server processes, node --test status $status," \
	"$problems valgrind reports, ${summary:-no summary}); logs in $logs"
if [ "$status" -ne 0 ]; then
	say "--- $name: failing tests (full output in $logs/node-test.out):"
	grep -E '^ *not ok |^ +(error|expected|actual):' "$logs/node-test.out" | head -40
fi
exit 1
