#!/usr/bin/env bash
# Renders the default scene under Xvfb with and without panels and checks the
# pictures (size, not blank, panels present).
set -euo pipefail
pliant=$1
check=$2
scene=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v xvfb-run >/dev/null || { echo "FAIL: xvfb-run is not installed (package xvfb)"; exit 1; }
run() { xvfb-run -a -s "-screen 0 1280x800x24" "$pliant" view --width 960 --height 600 \
          --frames 100 "$@" "$scene"; }
run --screenshot "$work/with.png"
run --no-panels --screenshot "$work/without.png"
"$check" "$work/with.png" "$work/without.png" 960 600
