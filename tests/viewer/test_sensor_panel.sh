#!/usr/bin/env bash
# The sensor panel under Xvfb: a scene with sensors renders with the panel
# open and two sensors plotted; an unknown sensor name is reported, not fatal.
set -euo pipefail
pliant=$1
scene=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$("$(dirname "$0")/../with_xvfb.sh" "$pliant" view --width 960 --height 600 \
      --frames 30 --screenshot "$work/sensors.png" --plot-sensor crate_touch \
      --plot-sensor ball_vel --plot-sensor no_such_sensor "$scene" 2>&1)
echo "$out"
[ -s "$work/sensors.png" ] || { echo "FAIL: no screenshot"; exit 1; }
echo "$out" | grep -q "no sensor named 'no_such_sensor'" || { echo "FAIL: unknown sensor not named"; exit 1; }
echo "PASS"
