#!/bin/sh
# A fake pbrain engine that refuses START with ERROR, then reads on.
read -r line
echo "ERROR unsupported size"
while read -r line; do
	:
done
