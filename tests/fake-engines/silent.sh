#!/bin/sh
# A fake pbrain engine that answers START, then never answers anything
# again, END included, and outlives its input with a helper process: only
# SIGKILL to its process group ends it.
trap '' TERM INT HUP
while read -r line; do
	case $line in
	START*) echo OK ;;
	esac
done
sleep 1000 &
wait
