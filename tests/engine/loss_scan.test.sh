#!/usr/bin/env bash
# loss_scan.test.sh - loss-scan on logs written here: one game A lost to
# an open three made four stones before the end (the winner's VCT found
# from there, not before), one B lost on time with no threat on the
# board, a draw, which neither loser counts, and one scanned under
# freestyle and renju, where renju's forbidden double three delays the
# winner's VCT.
#
#   tests/engine/loss_scan.test.sh build/loss-scan
set -euo pipefail

scan=${1:?usage: loss_scan.test.sh loss-scan}
# shellcheck source=tests/engine/checks.sh
. "$(dirname "$0")/checks.sh"

# Game 1: B (white) builds 3,10 4,10, then 5,10 (an open three) and
# wins along row 10; A's stones are far from it and from each other.
cat >"$work/games.log" <<'LOG'
1 A B five: 7,7 3,10 0,0 4,10 14,0 12,3 14,14 5,10 0,7 6,10 7,0 7,10
2 A A time: 7,7 0,0 3,12 14,14 12,2 0,14 9,11 14,0
3 B draw full board: 7,7 8,8
LOG

"$scan" --depth 4 --nodes 100000 "$work/games.log" >"$work/a.txt"
cat "$work/a.txt"
grep -qx "game 1: A lost as black in 12 stones; the winner's VCT from stone 10, 3 before the end" \
	"$work/a.txt" || fail "game 1 not scanned as lost from stone 10"
grep -q '^game [23]' "$work/a.txt" && fail "games A did not lose scanned"
grep -q '^1 games lost by A; .* found in 1, 3.0 stones before the end on average: 1-5 before 1,' \
	"$work/a.txt" || fail "the summary for A"

"$scan" --loser B --depth 4 --nodes 100000 "$work/games.log" >"$work/b.txt"
cat "$work/b.txt"
grep -qx "game 2: B lost as white in 8 stones; no VCT found" "$work/b.txt" ||
	fail "game 2 not scanned as lost without a VCT"
grep -q '^1 games lost by B; .* found in 0$' "$work/b.txt" ||
	fail "the summary for B"

status=0
"$scan" --loser C "$work/games.log" 2>/dev/null || status=$?
[ "$status" -eq 2 ] || fail "--loser C: exit $status, not 2"
status=0
"$scan" "$work/missing.log" 2>/dev/null || status=$?
[ "$status" -eq 1 ] || fail "a missing log: exit $status, not 1"

# Game 4, under both rules: black (B) has 5,7 6,7 and 7,5 7,6, so 7,7
# makes two open threes, a win two attacker moves on under freestyle
# from stone 9. Renju forbids black that double three: the win comes
# from stone 11, when 7,7 makes a four and a three (allowed).
echo '4 B B five: 5,7 0,0 6,7 14,0 7,5 0,14 7,6 14,14 7,8 10,0 7,7 7,9 7,4' \
	>"$work/renju.log"
for rule in freestyle renju; do
	"$scan" --rule "$rule" --depth 2 --nodes 100000 "$work/renju.log" \
		>"$work/$rule.txt"
	cat "$work/$rule.txt"
done
grep -qx "game 4: A lost as white in 13 stones; the winner's VCT from stone 9, 5 before the end" \
	"$work/freestyle.txt" || fail "game 4 under freestyle: not from stone 9"
grep -qx "game 4: A lost as white in 13 stones; the winner's VCT from stone 11, 3 before the end" \
	"$work/renju.txt" ||
	fail "game 4 under renju: not from stone 11 (the double three forbidden)"

finish loss-scan
