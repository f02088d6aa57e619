#!/usr/bin/env bash
# match.test.sh - gomoku-match against real engines: pbrain-gomoku's
# master and beginner levels (the score, the table, the game log, each
# game replayed and judged again here), and the fake engines of
# tests/fake-engines that break the protocol (each loses the way the
# referee must judge it: an illegal move, a crash, no answer in time, an
# answer that is no move, a process that does not start).
#
#   tests/engine/match.test.sh build/gomoku-match build/pbrain-gomoku
set -euo pipefail

match=${1:?usage: match.test.sh gomoku-match pbrain-gomoku}
brain=${2:?usage: match.test.sh gomoku-match pbrain-gomoku}
here=$(cd "$(dirname "$0")" && pwd)
fakes=$here/../fake-engines
scale=${GOMOKU_TEST_TIME_SCALE:-1}
# shellcheck source=tests/engine/checks.sh
. "$here/checks.sh"

# Four openings: eight games, each opening with both colours.
head -6 "$here/openings/freestyle.txt" >"$work/openings.txt"

# 1. master (a node budget: the same games on any machine) against
# beginner: master wins nearly all; the table and the log agree.
status=0
"$match" --openings "$work/openings.txt" --turn-ms $((10000 * scale)) \
	--log "$work/games.log" --min-elo 200 --name-a master \
	--name-b beginner "$brain --nodes 20000" "$brain --level beginner" \
	>"$work/out.txt" || status=$?
cat "$work/out.txt"
[ "$status" -eq 0 ] || fail "master against beginner: exit $status"
grep -q '^| all   |     8 |' "$work/out.txt" || fail "no row of 8 games"
wins=$(awk -F'|' '/^\| all/ { gsub(/ /, "", $4); print $4 }' "$work/out.txt")
[ "${wins:-0}" -ge 7 ] || fail "master won ${wins:-0} of 8"
grep -Eq '^Elo of A against B: \+[0-9]+ ± [0-9]+ \(95 %, pairs of games\)' \
	"$work/out.txt" || fail "no Elo line"
[ "$(wc -l <"$work/games.log")" -eq 8 ] || fail "the log has not 8 games"
# Each logged game, replayed: stones on distinct cells of the board,
# alternating; the game the log calls won ends with the winner's stone.
awk -v size=15 '
{
	split($0, parts, ": ")
	n = split(parts[2], stones, " ")
	delete seen
	for (i = 1; i <= n; i++) {
		split(stones[i], xy, ",")
		if (xy[1] < 0 || xy[1] >= size || xy[2] < 0 || xy[2] >= size ||
		    seen[stones[i]]++) {
			print "FAIL: game " $1 ": bad stone " stones[i]
			bad++
		}
	}
	# black is who $2 names; the last stone is black when n is odd
	last = n % 2 ? $2 : ($2 == "A" ? "B" : "A")
	if ($3 != "draw" && $3 != last) {
		print "FAIL: game " $1 ": " $3 " won but " last " moved last"
		bad++
	}
}
END { exit bad > 0 }' "$work/games.log" || fail "the log does not replay"

# 2. Engines that break the protocol lose, each by what it did.
expect_loss() { # fake-engine reason [options]
	local fake=$1 reason=$2
	shift 2
	status=0
	"$match" --openings "$work/openings.txt" --games 2 "$@" \
		"$brain --nodes 2000" "$fakes/$fake" >"$work/out.txt" 2>&1 ||
		status=$?
	if [ "$status" -ne 0 ] ||
		! grep -q "^| all   |     2 |    2 |" "$work/out.txt" ||
		! grep -q "games ended by: $reason 2," "$work/out.txt"; then
		cat "$work/out.txt"
		fail "$fake: not two losses by $reason (exit $status)"
	else
		echo "ok: $fake loses both games by $reason"
	fi
}
expect_loss off-board.sh "illegal move"
expect_loss occupied.sh "illegal move"
expect_loss garbage.sh "bad answer"
expect_loss engine-exits-on-board.sh "crash"
expect_loss engine-crashes-on-board.sh "crash"
expect_loss engine-silent-on-board.sh "time" --turn-ms 100 \
	--tolerance-ms $((300 * scale))

# 3. An engine that does not start is no game: exit 2, no table. One
# that answers START in time plays (--start-ms, the wait for it).
start=$((5000 * scale))
status=0
"$match" --openings "$work/openings.txt" --games 2 \
	--start-ms "$start" "$brain" "$fakes/silent-start.sh" \
	>"$work/out.txt" 2>&1 || status=$?
[ "$status" -eq 2 ] || fail "silent-start: exit $status, not 2"
grep -qF "silent-start.sh did not start (no OK to START within $start ms)" \
	"$work/out.txt" ||
	fail "silent-start: not named as the engine that did not start"
status=0
"$match" --openings "$work/openings.txt" --games 2 \
	--start-ms "$start" "$brain --nodes 2000" \
	"$brain --level beginner" >"$work/out.txt" 2>&1 || status=$?
if [ "$status" -ne 0 ] || ! grep -q '^| all   |     2 |' "$work/out.txt"; then
	fail "--start-ms $start: two engines that start did not play ($status)"
fi
status=0
"$match" --openings "$work/openings.txt" --start-ms 0 "$brain" "$brain" \
	>"$work/out.txt" 2>&1 || status=$?
if [ "$status" -ne 2 ] || ! grep -q '^usage:' "$work/out.txt"; then
	fail "--start-ms 0: exit $status, not 2 with the usage"
fi
status=0
"$match" --openings "$work/openings.txt" "$brain" /nonexistent/engine \
	>"$work/out.txt" 2>&1 || status=$?
[ "$status" -eq 2 ] || fail "a missing engine: exit $status, not 2"

# 4. --min-elo missed: exit 1 (beginner is not 200 above master).
status=0
"$match" --openings "$work/openings.txt" --games 2 --min-elo 200 \
	"$brain --level beginner" "$brain --nodes 20000" >"$work/out.txt" ||
	status=$?
[ "$status" -eq 1 ] || fail "--min-elo missed: exit $status, not 1"

# 5. Bad usage: exit 2.
status=0
"$match" "$brain" "$brain" >/dev/null 2>&1 || status=$?
[ "$status" -eq 2 ] || fail "no --openings: exit $status, not 2"

finish match
