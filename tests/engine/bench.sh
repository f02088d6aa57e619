#!/usr/bin/env bash
# bench.sh - the engine benchmark, on one core, board 15, one part per
# rule (freestyle and renju, where black is held back by its forbidden
# points):
#
# - the ladder: each level against the one below it (easy against
#   beginner, ..., master against hard), both at their default node
#   budgets, over 50 openings of 1 to 3 stones near the centre, each
#   played with both colours; a table of the stronger level's wins,
#   draws, losses, score and Elo difference (95 % margin). Target: every
#   score 65-85 % under freestyle, the rule the levels are tuned for;
#   renju's ladder is printed for comparison (its medium beats easy more
#   often: renju's black needs the threat search medium adds).
# - master (the full engine, 60000 nodes, 90 ms deadline as a cap)
#   against beginner over the same 100 games, with its move times.
#   Targets: master wins >= 98 % overall under freestyle, >= 95 % under
#   renju, >= 95 % as back; p99 move time < 100 ms.
# - the match: pbrain-gomoku (master, --threads BENCH_THREADS) against
#   pbrain-gomoku of BENCH_BASE (the commit before the engine's strength
#   work, built here from git), played by gomoku-match as Gomocup plays:
#   one game at a time, each engine a process of its own, at each time a
#   move of BENCH_MATCH_MS, over tests/engine/openings/RULE.txt (100
#   balanced openings, each with both colours: 200 games). The table of
#   the new engine's score and its Elo difference (95 % margin). Target:
#   at least +BENCH_MIN_ELO (200). Not pinned (the threads need the
#   cores); at 1 s a move the freestyle match takes 70 to 80 minutes,
#   the renju one 50.
#
# Builds bench-engine in Release, prints a machine header and the tables,
# checks the targets and writes the output to
# tests/engine/results/latest.txt; each match's table also goes to
# match-RULE-MS.txt there (its games to match-RULE-MS.log).
#
#   tests/engine/bench.sh               the benchmark (several minutes)
#   BENCH_OPENINGS=10 tests/engine/bench.sh     a quicker run
#
# Knobs (environment): BENCH_BUILD (build-bench-engine), BENCH_OPENINGS
# (50), BENCH_SEED (20240601), BENCH_NODES (master's node budget per move
# against beginner, 60000), BENCH_DEADLINE_MS (its deadline per move, 90:
# a cap should the machine be slower or busier than expected; the ladder
# has none, so its games are the same on any machine), BENCH_CPU (the
# core to pin to, 0; empty: no pinning), BENCH_RULES (the parts:
# "freestyle renju"; standard is the third rule there is), BENCH_PARTS
# ("ladder speed match": any of them), BENCH_MIN_SCORE and
# BENCH_MAX_SCORE (the ladder's targets, 65 and 85), BENCH_TUNED (the
# rules whose ladder must meet them: "freestyle"), BENCH_BASE (the old
# engine's commit), BENCH_MATCH_MS ("200 1000"), BENCH_MATCH_GAMES (all:
# 200), BENCH_THREADS (the new engine's, the machine's cores),
# BENCH_MIN_ELO (200).
set -euo pipefail

cd "$(dirname "$0")/../.."
ROOT=$(pwd)
BUILD=${BENCH_BUILD:-build-bench-engine}
OPENINGS=${BENCH_OPENINGS:-50}
SEED=${BENCH_SEED:-20240601}
NODES=${BENCH_NODES:-60000}
DEADLINE_MS=${BENCH_DEADLINE_MS:-90}
CPU=${BENCH_CPU-0}
RULES=${BENCH_RULES:-freestyle renju}
PARTS=${BENCH_PARTS:-ladder speed match}
# The commit issue 19 (the engine's strength) started from.
BASE=${BENCH_BASE:-1f161a2f60844821a96cb711b02ad5cbd69f8c6d}
MATCH_MS=${BENCH_MATCH_MS:-200 1000}
MATCH_GAMES=${BENCH_MATCH_GAMES:-}
THREADS=${BENCH_THREADS:-$(nproc)}
MIN_ELO=${BENCH_MIN_ELO:-200}
MIN_SCORE=${BENCH_MIN_SCORE:-65}
MAX_SCORE=${BENCH_MAX_SCORE:-85}
TUNED=${BENCH_TUNED:-freestyle}
RESULTS=$ROOT/tests/engine/results

cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DGOMOKU_TESTS=OFF \
	-DGOMOKU_LOAD=OFF >/dev/null
cmake --build "$BUILD" --target bench-engine gomoku-match pbrain-gomoku \
	-j "$(nproc)" >/dev/null

# The old engine, from git: its pbrain-gomoku only.
case " $PARTS " in *" match "*)
	if [ ! -x "$BUILD/base/pbrain-gomoku" ] ||
		[ "$(cat "$BUILD/base/commit" 2>/dev/null)" != "$BASE" ]; then
		rm -rf "$BUILD/base" "$BUILD/base-src"
		mkdir -p "$BUILD/base-src"
		git archive "$BASE" | tar -x -C "$BUILD/base-src"
		cmake -S "$BUILD/base-src" -B "$BUILD/base" \
			-DCMAKE_BUILD_TYPE=Release -DGOMOKU_TESTS=OFF \
			-DGOMOKU_LOAD=OFF >/dev/null
		cmake --build "$BUILD/base" --target pbrain-gomoku \
			-j "$(nproc)" >/dev/null
		echo "$BASE" >"$BUILD/base/commit"
	fi
	;;
esac

pin=()
if [ -n "$CPU" ] && command -v taskset >/dev/null; then
	pin=(taskset -c "$CPU")
fi

mkdir -p "$RESULTS"
{
	echo "engine benchmark, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- |
		sed 's/^ *//'), $(nproc) cores, pinned: ${CPU:-no}," \
		"load average: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	echo
	status=0
	for rule in $RULES; do
		case " $PARTS " in *" ladder "*)
			min=0 max=100
			case " $TUNED " in *" $rule "*)
				min=$MIN_SCORE max=$MAX_SCORE ;;
			esac
			"${pin[@]}" "$BUILD/bench-engine" --ladder \
				--openings "$OPENINGS" --seed "$SEED" \
				--rule "$rule" --min-score "$min" \
				--max-score "$max" || status=1
			[ "$min" = 0 ] && echo "($rule: printed, not a target)"
			echo
			;;
		esac
		case " $PARTS " in *" match "*)
			for ms in $MATCH_MS; do
				# also kept on its own: the runs take hours
				if ! {
					echo "match, $(date -u +%Y-%m-%dT%H:%M:%SZ)," \
						"commit $(git rev-parse --short HEAD \
						2>/dev/null || echo unknown)"
					"$BUILD/gomoku-match" \
						--openings "tests/engine/openings/$rule.txt" \
						--rule "$rule" --turn-ms "$ms" \
						${MATCH_GAMES:+--games "$MATCH_GAMES"} \
						--quiet --min-elo "$MIN_ELO" \
						--log "$RESULTS/match-$rule-$ms.log" \
						--name-a "master, $THREADS threads (this tree)" \
						--name-b "master of ${BASE:0:7}" \
						"$BUILD/pbrain-gomoku --threads $THREADS" \
						"$BUILD/base/pbrain-gomoku"
				} | tee "$RESULTS/match-$rule-$ms.txt"; then
					status=1
				fi
				echo
			done
			;;
		esac
		case " $PARTS " in *" speed "*)
			# Renju holds black back: a draw or two is fair.
			min_win=98
			[ "$rule" = renju ] && min_win=95
			"${pin[@]}" "$BUILD/bench-engine" \
				--openings "$OPENINGS" --seed "$SEED" \
				--rule "$rule" --level master \
				--against beginner --nodes "$NODES" \
				--deadline-ms "$DEADLINE_MS" \
				--min-win-rate "$min_win" \
				--min-back-win-rate 95 --max-p99-ms 100 ||
				status=1
			echo
			;;
		esac
	done
	if [ "$status" -eq 0 ]; then
		# only the targets of the parts that ran
		met=
		case " $PARTS " in *" ladder "*)
			met="$met; each level scores $MIN_SCORE-$MAX_SCORE % against the one below ($TUNED)" ;;
		esac
		case " $PARTS " in *" speed "*)
			met="$met; master beats beginner >= 98 % (freestyle, standard) or >= 95 % (renju), as back >= 95 %, p99 < 100 ms" ;;
		esac
		case " $PARTS " in *" match "*)
			met="$met; the new engine +$MIN_ELO Elo or more against ${BASE:0:7}" ;;
		esac
		echo "targets met (${RULES// /, }): ${met#; }"
	else
		echo "targets MISSED (see FAIL lines above)"
	fi
	exit "$status"
} 2>&1 | tee "$RESULTS/latest.txt"
exit "${PIPESTATUS[0]}"
