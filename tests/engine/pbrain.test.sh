#!/usr/bin/env bash
# pbrain.test.sh - plays a scripted Piskvork (Gomocup) session with
# pbrain-gomoku and checks every answer: OK where OK is due, moves that
# are on the board and on empty cells, the forced moves of BOARD
# positions under freestyle, exactly five and renju (as black and as
# white), errors for what is not supported, and END exiting with 0.
#
#   tests/engine/pbrain.test.sh build/pbrain-gomoku
set -euo pipefail

brain=${1:?usage: pbrain.test.sh path/to/pbrain-gomoku}
size=15
declare -A stones=() # "x,y" -> 1 (ours) or 2 (the opponent's)
# shellcheck source=tests/engine/checks.sh
. "$(dirname "$0")/checks.sh"

coproc BRAIN { exec "$brain"; }
# shellcheck disable=SC2153 # set by coproc
brain_pid=$BRAIN_PID

send() {
	printf '%s\n' "$1" >&"${BRAIN[1]}"
}

# receive WHAT: the next answer line, or a failure naming WHAT.
receive() {
	local line
	if ! IFS= read -r -t 20 line <&"${BRAIN[0]}"; then
		echo "FAIL: no answer to $1" >&2
		kill "$brain_pid" 2>/dev/null || true
		exit 1
	fi
	printf '%s' "${line%$'\r'}"
}

expect_answer() { # COMMAND EXPECTED
	local answer
	send "$1"
	answer=$(receive "$1")
	[ "$answer" = "$2" ] || fail "$1: expected '$2', got '$answer'"
}

# expect_move COMMAND [ALLOWED...]: the answer is a legal move (one of
# ALLOWED when given; none of them after "not"); it is recorded as ours.
expect_move() {
	local command=$1 answer x y
	shift
	send "$command"
	answer=$(receive "$command")
	if ! [[ $answer =~ ^([0-9]+),([0-9]+)$ ]]; then
		fail "$command: expected a move, got '$answer'"
		return
	fi
	x=${BASH_REMATCH[1]}
	y=${BASH_REMATCH[2]}
	if ((x >= size || y >= size)); then
		fail "$command: $answer is off the board"
	elif [ -n "${stones[$x,$y]:-}" ]; then
		fail "$command: $answer is occupied"
	elif [[ ${1:-} == not ]] && [[ " ${*:2} " == *" $answer "* ]]; then
		fail "$command: expected none of ${*:2}, got $answer"
	elif (($# > 0)) && [[ $1 != not ]] && ! [[ " $* " == *" $answer "* ]]; then
		fail "$command: expected one of $*, got $answer"
	else
		echo "ok: $command -> $answer"
	fi
	stones[$x,$y]=1
}

# board_command LINES...: a BOARD command with its stones, then DONE.
board_command() {
	local line
	stones=()
	send BOARD
	for line in "$@"; do
		send "$line"
		IFS=, read -r x y who <<<"$line"
		stones[$x,$y]=$who
	done
}

expect_answer "START $size" OK
send "INFO timeout_turn 300"
send "INFO timeout_match 100000"
send "INFO max_memory 83886080"
send "INFO rule 0"
send ABOUT
about=$(receive ABOUT)
[[ $about == 'name="gomoku-server"'* ]] || fail "ABOUT: got '$about'"

# A short game: BEGIN takes the centre, then our answers must be legal.
expect_move BEGIN 7,7
for opponent in 8,8 6,8 8,6 9,9 5,9 10,10; do
	if [ -n "${stones[$opponent]:-}" ]; then
		continue
	fi
	stones[$opponent]=2
	expect_move "TURN $opponent"
done

expect_answer RESTART OK
stones=()

# BOARD: our four on row 7 -> the five, at either end.
board_command 3,7,1 4,7,1 5,7,1 6,7,1 3,8,2 4,8,2 5,8,2 9,9,2
expect_move DONE 2,7 7,7

# BOARD: the opponent's four, blocked on the left -> the block.
board_command 2,3,1 3,3,2 4,3,2 5,3,2 6,3,2 10,10,1 12,12,1
expect_move DONE 7,3
expect_answer "TAKEBACK 7,3" OK

# The standard rule (exactly five): our (5,7) would be six in a row, no
# win; the opponent's four must be blocked instead.
send "INFO rule 1"
board_command 2,7,1 3,7,1 4,7,1 6,7,1 7,7,1 1,10,1 2,10,2 3,10,2 4,10,2 \
	5,10,2
expect_move DONE 6,10

# Renju (INFO rule 4), with black's double three at (7,7) (row 7 and
# column 7). As white (fewer stones than the opponent): our four from
# (3,3) leaves (7,7) as the one block, which black may not play: we win.
send "INFO rule 4"
black=("2,2" "7,5" "7,6" "5,7" "6,7" "8,8")
white=("13,0" "4,4" "5,5" "6,6" "0,13")
lines=()
for cell in "${white[@]}"; do lines+=("$cell,1"); done
for cell in "${black[@]}"; do lines+=("$cell,2"); done
board_command "${lines[@]}"
expect_move DONE 3,3
# As black (as many stones as the opponent), facing that four: never the
# forbidden block.
lines=()
for cell in "${black[@]}"; do lines+=("$cell,1"); done
for cell in "${white[@]}" 3,3; do lines+=("$cell,2"); done
board_command "${lines[@]}"
expect_move DONE not 7,7
# Under freestyle the block is the one move.
send "INFO rule 0"
board_command "${lines[@]}"
expect_move DONE 7,7

# What is not supported.
send "INFO rule 2"
message=$(receive "INFO rule 2")
[[ $message == MESSAGE* ]] || fail "INFO rule 2: expected a MESSAGE, got '$message'"
send "START 30"
answer=$(receive "START 30")
[[ $answer == ERROR* ]] || fail "START 30: expected ERROR, got '$answer'"
send "FROBNICATE"
answer=$(receive FROBNICATE)
[[ $answer == UNKNOWN* ]] || fail "FROBNICATE: expected UNKNOWN, got '$answer'"

send END
status=0
wait "$brain_pid" || status=$?
[ "$status" -eq 0 ] || fail "END: exit status $status"

finish pbrain
