#!/bin/sh
# deps.sh - the dependencies of the C code are what README.md says
# (Architecture):
#
#   - the modules of server/ form a tree: no module includes the header of
#     a module that includes its own, directly or around a longer circle;
#   - core/ includes nothing of libwebsockets, libuv or the clock, and
#     reads no clock and no random source of its own.
#
# A module is a .c file with its .h (server/hub.c and server/hub.h are
# "hub"); an edge is an #include "other.h". tsort(1) finds the circles.
# With --list, prints server/'s edges ("session hub": session includes
# hub.h) and checks nothing.
#
# Usage: tests/deps.sh [--list]      (exit 0: as described; 1: not)
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT

# "module included" for every #include "x.h" of another module.
for file in "$root"/server/*.[ch]; do
	module=$(basename "${file%.*}")
	sed -n 's/^#include "\([a-z_]*\)\.h".*/\1/p' "$file" |
		while read -r included; do
			[ "$included" = "$module" ] || echo "$module $included"
		done
done | sort -u >"$edges"

if [ "${1:-}" = --list ]; then
	cat "$edges"
	exit 0
fi

status=0
if ! tsort "$edges" >/dev/null 2>"$edges.err"; then
	echo "deps.sh: the modules of server/ include each other in a circle:"
	sed -n 's/^tsort: //p' "$edges.err" | grep -v 'input contains a loop'
	status=1
fi
rm -f "$edges.err"

# core/: no libwebsockets, libuv, threads, clock or randomness.
forbidden='#include <(libwebsockets|uv|time|sys/time|sys/random)\.h>|clock_gettime|gettimeofday|getrandom|[^_a-z]rand\(|[^_a-z]time\('
if grep -rnE "$forbidden" "$root/core" --include='*.[ch]'; then
	echo "deps.sh: core/ must get time and randomness as arguments" \
		"and include nothing of the server's"
	status=1
fi
[ $status = 0 ] && echo "deps.sh: server/ is a tree of $(cut -d' ' -f1 "$edges" | sort -u | wc -l) modules; core/ is pure"
exit $status
