#!/usr/bin/env bash
#
# gomoku.sh - the one entry point: install what is missing, build, run, test.
#
# Made for a fresh Debian 12 machine that has nothing but git. Installs only
# Debian packages that are missing (with sudo when not root) and the test
# suite's npm packages from tests/package-lock.json. See ./gomoku.sh help.

set -eu

# Debian packages, in one place (the README points here; ./gomoku.sh help
# prints them). The build/run set builds and serves the game; the test set
# adds cmocka, Node and npm (the node --test suites), Chromium (the browser
# tests), sqlite3 (the journal tests), redis-server (the tests of
# --redis), haproxy (the test of docker/haproxy.cfg), valgrind, and clang
# with its libFuzzer runtime (the fuzz build); the bench set is what the
# benchmark adds (redis-server: its cluster scenario). `run` and `build` need the first; `test` the first two; `bench`
# the first and the last.
RUN_PACKAGES="build-essential cmake pkg-config libwebsockets-dev \
libwebsockets-evlib-uv libcjson-dev uuid-dev libsqlite3-dev zlib1g-dev libhiredis-dev \
ca-certificates"
TEST_PACKAGES="libcmocka-dev nodejs npm chromium sqlite3 redis-server haproxy valgrind \
clang libclang-rt-14-dev"
BENCH_PACKAGES="jq nodejs npm redis-server"

# The build directories: those of the configure presets default, asan and
# fuzz of CMakePresets.json.
BUILD_DIR=build
ASAN_DIR=build-asan
FUZZ_DIR=build-fuzz

# The ctest labels (tests/CMakeLists.txt) with a stage of their own; the
# first two stages run every other test.
OWN_STAGE_LABELS='^(valgrind|fuzz|container)$'

cd "$(dirname -- "$(readlink -f -- "$0")")"

say()
{
	printf '%s\n' "$*"
}

die()
{
	printf 'gomoku.sh: %s\n' "$*" >&2
	exit 1
}

header()
{
	printf '\n==> %s\n' "$*"
}

usage()
{
	cat <<EOF
Usage: ./gomoku.sh COMMAND [ARGS...]

Commands:
  deps [run|test|all]  install what is missing (default: all): Debian
                       packages, then the test suite's npm packages
  build                deps (run set), configure and build in build/
                       (cmake --preset default)
  run [FLAGS...]       build, then start build/gomoku-server with FLAGS
                       (serves http://localhost:8080 by default; try
                       ./gomoku.sh run --help)
  test                 deps (both sets); build in build/ with -Werror
                       and run its tests with ctest (every label but
                       valgrind, fuzz and container), then the same in
                       build-asan/ with AddressSanitizer +
                       UndefinedBehaviorSanitizer; then ctest -L valgrind
                       (the integration suites with the server under
                       valgrind); each libFuzzer target for 60 s
                       (build-fuzz/, ctest -L fuzz); then ctest -L
                       container: build docker/Dockerfile with podman
                       and test the image (GOMOKU_SKIP_CONTAINER=1 skips
                       that); ends with "test: N passed, M failed"
  bench                the load benchmark (tests/load/bench.sh, about 12
                       minutes): capacity, throughput, latency, churn,
                       each beside a Node.js baseline, human latency
                       beside 50 engine games, and several instances on
                       Redis
  help                 this text

Debian packages:
  build/run: $RUN_PACKAGES
  test:      $TEST_PACKAGES
  bench:     $BENCH_PACKAGES

Runs from any directory. Installs with apt-get as root, or through sudo.
EOF
}

# True when the Debian package is installed. npm also counts as installed
# when an npm command is there: NodeSource's nodejs bundles npm and
# conflicts with Debian's npm package.
package_installed()
{
	local status
	status=$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)
	case $status in
	*" ok installed")
		return 0 ;;
	esac
	if [ "$1" = npm ] && command -v npm >/dev/null 2>&1; then
		return 0
	fi
	return 1
}

# Runs a command as root: directly, or through sudo.
as_root()
{
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		return 127
	fi
}

# Installs the Debian packages named in $@ that are not installed yet.
install_packages()
{
	local missing="" pkg
	command -v dpkg-query >/dev/null 2>&1 ||
		die "dpkg-query not found: this script needs Debian 12 (or a Debian derivative); install these by hand: $*"
	for pkg in "$@"; do
		package_installed "$pkg" || missing="$missing $pkg"
	done
	if [ -z "$missing" ]; then
		say "Debian packages: all installed"
		return 0
	fi
	say "Debian packages to install:$missing"
	if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
		die "not root and sudo not found: as root, run
  apt-get update && apt-get install -y --no-install-recommends$missing
then run this command again"
	fi
	# shellcheck disable=SC2086 # $missing is a list of words
	as_root apt-get update ||
		die "apt-get update failed"
	# shellcheck disable=SC2086
	as_root env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y --no-install-recommends $missing ||
		die "apt-get install failed for:$missing"
}

# Installs the integration tests' npm packages from the committed lock
# file, when node_modules is missing or older than it.
install_npm_packages()
{
	if [ ! -f tests/package.json ]; then
		say "npm packages: tests/package.json not there yet, skipped"
		return 0
	fi
	[ -f tests/package-lock.json ] ||
		die "tests/package-lock.json is missing: npm ci needs the committed lock file (make it with 'cd tests && npm install')"
	command -v npm >/dev/null 2>&1 ||
		die "npm not found: run ./gomoku.sh deps test"
	if [ -d tests/node_modules ] &&
	   [ ! tests/package-lock.json -nt tests/node_modules ]; then
		say "npm packages: up to date (tests/node_modules)"
		return 0
	fi
	say "npm packages: npm ci in tests/"
	(cd tests && npm ci --no-audit --no-fund) ||
		die "npm ci failed in tests/"
	touch tests/node_modules
}

deps()
{
	local which=${1:-all}

	case $which in
	run|test|all) ;;
	*) die "deps: unknown set '$which' (run, test or all)" ;;
	esac
	header "deps ($which)"
	case $which in
	run)
		# shellcheck disable=SC2086
		install_packages $RUN_PACKAGES ;;
	test|all)
		# shellcheck disable=SC2086
		install_packages $RUN_PACKAGES $TEST_PACKAGES
		install_npm_packages ;;
	esac
}

# Configures with the configure preset $1 of CMakePresets.json (and the
# extra cmake arguments that follow) and builds its build preset; returns
# non-zero, with a message, when either fails.
configure_and_build()
{
	local preset=$1
	shift
	if ! cmake --preset "$preset" "$@"; then
		say "gomoku.sh: cmake configure failed (preset $preset)" >&2
		return 1
	fi
	if ! cmake --build --preset "$preset" -j"$(nproc)"; then
		say "gomoku.sh: build failed (preset $preset)" >&2
		return 1
	fi
}

# ON when everything the tests need to configure is installed. The tests
# need cmocka and node even to configure, so a machine that only has the
# build/run set builds the server alone.
tests_available()
{
	local pkg
	for pkg in $TEST_PACKAGES; do
		package_installed "$pkg" || { echo OFF; return; }
	done
	echo ON
}

build()
{
	deps run
	header "build ($BUILD_DIR/)"
	configure_and_build default -DGOMOKU_TESTS="$(tests_available)" ||
		die "the build in $BUILD_DIR/ failed"
}

run()
{
	build
	header "run: $BUILD_DIR/gomoku-server $*"
	# A flag beats its environment variable: leave GOMOKU_WEB_ROOT its say.
	if [ -n "${GOMOKU_WEB_ROOT:-}" ]; then
		exec "$BUILD_DIR/gomoku-server" "$@"
	fi
	exec "$BUILD_DIR/gomoku-server" --web-root "$PWD/web" "$@"
}

PASSED=0
FAILED=0
CTEST_FAILED=0
CONTAINER_SKIPPED=0

# Runs ctest in directory $1 with the further arguments (the labels to run:
# -L or -LE REGEX; --verbose), echoing its output and adding the counts of
# its closing "X% tests passed, Y tests failed out of Z" line to PASSED and
# FAILED. Variables set for the call (VAR=value run_ctest ...) reach the
# tests.
run_ctest()
{
	local dir=$1 log status counts failed total
	shift
	log=$(mktemp)
	set +e
	ctest --test-dir "$dir" --output-on-failure --no-tests=error "$@" \
		2>&1 | tee "$log"
	status=${PIPESTATUS[0]}
	set -e
	counts=$(sed -n -E \
		's/^[0-9]+% tests passed, ([0-9]+) tests? failed out of ([0-9]+).*/\1 \2/p' \
		"$log" | tail -n 1)
	rm -f "$log"
	if [ -z "$counts" ]; then
		say "gomoku.sh: ctest in $dir/ printed no summary (exit $status)" >&2
		CTEST_FAILED=1
		return 0
	fi
	failed=${counts% *}
	total=${counts#* }
	FAILED=$((FAILED + failed))
	PASSED=$((PASSED + total - failed))
	if [ "$status" -ne 0 ]; then
		CTEST_FAILED=1
	fi
}

# Counts a stage that could not run its tests (its build failed) as one
# failure.
stage_failed()
{
	FAILED=$((FAILED + 1))
	CTEST_FAILED=1
}

# Builds docker/Dockerfile and tests the image: the ctest test of label
# container in build/ (tests/container/test-image.sh, which installs
# podman, buildah and debootstrap when missing).
# GOMOKU_SKIP_CONTAINER=1 skips it, loudly: for developers, never CI.
run_container_test()
{
	header "container image (docker/Dockerfile, with podman; ctest -L container)"
	if [ "${GOMOKU_SKIP_CONTAINER:-}" = 1 ]; then
		say "!!! SKIPPED: GOMOKU_SKIP_CONTAINER=1 is set, so the container"
		say "!!! image was NOT built or tested. CI never sets it."
		CONTAINER_SKIPPED=1
		return 0
	fi
	run_ctest "$BUILD_DIR" -L '^container$' --verbose
}

run_tests()
{
	deps all

	header "build for tests ($BUILD_DIR/, -Werror)"
	configure_and_build default -DGOMOKU_TESTS=ON -DGOMOKU_WERROR=ON ||
		die "the build in $BUILD_DIR/ failed"
	header "unit, engine, integration, web unit and browser tests ($BUILD_DIR/)"
	run_ctest "$BUILD_DIR" -LE "$OWN_STAGE_LABELS"

	header "build with AddressSanitizer + UndefinedBehaviorSanitizer ($ASAN_DIR/, -Werror)"
	configure_and_build asan -DGOMOKU_WERROR=ON ||
		die "the build in $ASAN_DIR/ failed"
	header "the same tests under ASan + UBSan ($ASAN_DIR/)"
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		run_ctest "$ASAN_DIR" -LE "$OWN_STAGE_LABELS"

	header "test_pbrain_client and the integration suites with valgrind ($BUILD_DIR/, ctest -L valgrind)"
	run_ctest "$BUILD_DIR" -L '^valgrind$'

	header "fuzzing core/ with libFuzzer, 60 s per target ($FUZZ_DIR/, ctest -L fuzz)"
	if configure_and_build fuzz -DGOMOKU_WERROR=ON; then
		GOMOKU_FUZZ_SECONDS=60 run_ctest "$FUZZ_DIR" -L '^fuzz$' --verbose
	else
		stage_failed
	fi

	run_container_test

	header "summary"
	if [ "$CTEST_FAILED" -ne 0 ] && [ "$FAILED" -eq 0 ]; then
		# ctest failed without counting a failed test (no summary line).
		FAILED=1
	fi
	if [ "$CONTAINER_SKIPPED" -eq 1 ]; then
		say "!!! the container image test was SKIPPED (GOMOKU_SKIP_CONTAINER=1)"
	fi
	say "test: $PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ] && [ "$CTEST_FAILED" -eq 0 ]
}

command=${1:-help}
[ $# -gt 0 ] && shift
case $command in
deps)
	[ $# -le 1 ] || die "deps takes at most one argument (run, test or all)"
	deps "$@" ;;
build)
	[ $# -eq 0 ] || die "build takes no arguments"
	build ;;
run)
	run "$@" ;;
test)
	[ $# -eq 0 ] || die "test takes no arguments"
	run_tests ;;
bench)
	deps run
	# jq reads the load generator's JSON; Node and the test suite's npm
	# packages (ws) run the baseline server and the engine players of the
	# "ai" scenario.
	# shellcheck disable=SC2086
	install_packages $BENCH_PACKAGES
	install_npm_packages
	exec tests/load/bench.sh "$@" ;;
help|-h|--help)
	usage ;;
*)
	die "unknown command '$command' (see ./gomoku.sh help)" ;;
esac
