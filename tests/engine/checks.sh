# shellcheck shell=bash
# checks.sh - what the engine's shell tests share, sourced by each: $work,
# a scratch directory removed on exit; fail() to count a failed check and
# go on; finish NAME to report them and exit (1 when any failed).

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# fail WHAT: one check failed; the script goes on to the others.
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# finish NAME: the script's last word.
finish() {
	if ((failures)); then
		echo "$1: $failures failure(s)"
		exit 1
	fi
	echo "$1: all checks passed"
}
