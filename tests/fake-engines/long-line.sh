#!/bin/sh
# A fake pbrain engine that answers BOARD with a MESSAGE line of 10000
# characters before its move.
while read -r line; do
	case $line in
	START*) echo OK ;;
	DONE*)
		printf 'MESSAGE '
		i=0
		while [ "$i" -lt 100 ]; do
			printf '%s' 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'
			i=$((i + 1))
		done
		printf '\n7,7\n' ;;
	END*) exit 0 ;;
	esac
done
