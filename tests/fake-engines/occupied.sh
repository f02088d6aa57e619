#!/bin/sh
# A fake pbrain engine that answers every BOARD with the cell of its first
# stone: an occupied cell.
first=
while read -r line; do
	case $line in
	START*) echo OK ;;
	BOARD*) first= ;;
	[0-9]*,[0-9]*,[0-9]*)
		[ -n "$first" ] || first=${line%,*} ;;
	DONE*) echo "$first" ;;
	END*) exit 0 ;;
	esac
done
