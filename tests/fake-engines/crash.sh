#!/bin/sh
# A fake pbrain engine that answers its first BOARD with 0,0, then dies of
# SIGSEGV on the second (no core file).
ulimit -c 0
boards=0
while read -r line; do
	case $line in
	START*) echo OK ;;
	DONE*)
		boards=$((boards + 1))
		[ "$boards" -lt 2 ] || kill -SEGV $$
		echo "0,0" ;;
	END*) exit 0 ;;
	esac
done
