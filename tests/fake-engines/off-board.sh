#!/bin/sh
# A fake pbrain engine that answers every BOARD with a cell off the board.
while read -r line; do
	case $line in
	START*) echo OK ;;
	DONE*) echo "99,0" ;;
	END*) exit 0 ;;
	esac
done
