#!/bin/sh
# A fake pbrain engine that plays correctly but says a lot: MESSAGE and
# DEBUG lines, UNKNOWN to every INFO, CRLF line ends, several lines in one
# write and its move split over several writes. Its move is the first
# empty cell of the top row.
while read -r line; do
	case $line in
	START*) printf 'MESSAGE hello\r\nDEBUG starting\r\nOK\r\n' ;;
	INFO*) printf 'UNKNOWN %s\r\n' "$line" ;;
	BOARD*) taken=" " ;;
	[0-9]*,[0-9]*,[0-9]*)
		cell=${line%,*}
		taken="$taken$cell " ;;
	DONE*)
		x=0
		while :; do
			case $taken in
			*" $x,0 "*) x=$((x + 1)) ;;
			*) break ;;
			esac
		done
		printf 'MESSAGE thinking'
		sleep 0.05
		printf ' hard\nDEBUG depth 1\n%s,' "$x"
		sleep 0.05
		printf '0\r\n' ;;
	END*) exit 0 ;;
	esac
done
