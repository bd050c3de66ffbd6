#!/usr/bin/env bash
# `pliant run --screenshot` renders the scenario's final state offscreen
# under Xvfb: the PNG must exist with the asked size and show something (a
# uniform picture compresses to far less than a rendered scene).
set -u
pliant=$1
scenario=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
png="$work/final.png"
"$(dirname "$0")/../with_xvfb.sh" "$pliant" run --quiet --screenshot "$png" \
  --width 320 --height 240 "$scenario"
code=$?
[ $code -eq 0 ] || { echo "FAIL: pliant run exited $code"; exit 1; }
[ -s "$png" ] || { echo "FAIL: no PNG written"; exit 1; }
# PNG signature, then the IHDR chunk: width and height, 4 bytes each, big-endian.
[ "$(od -An -tx1 -N8 "$png" | tr -d ' \n')" = "89504e470d0a1a0a" ] ||
  { echo "FAIL: not a PNG file"; exit 1; }
size=$(od -An -tu1 -j16 -N8 "$png" | awk '{print ($1*16777216+$2*65536+$3*256+$4) "x" ($5*16777216+$6*65536+$7*256+$8)}')
[ "$size" = "320x240" ] || { echo "FAIL: the PNG is $size, expected 320x240"; exit 1; }
bytes=$(stat -c %s "$png")
[ "$bytes" -gt 4000 ] || { echo "FAIL: the PNG has only $bytes bytes: a blank picture?"; exit 1; }
echo "PASS: $size, $bytes bytes"
