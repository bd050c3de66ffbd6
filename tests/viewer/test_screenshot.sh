#!/usr/bin/env bash
# Renders the default scene under Xvfb with and without panels and checks the
# pictures (size, not blank, panels present, geoms drawn where the camera
# projects them); records frames to PNGs and through a stand-in ffmpeg; and
# checks that a broken model fails cleanly instead of crashing.
set -euo pipefail
pliant=$1
check=$2
scene=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
with_xvfb="$(dirname "$0")/../with_xvfb.sh"
# The viewer on an X server of its own; returns the viewer's exit status.
run() {
  "$with_xvfb" "$pliant" view --width 960 --height 600 "$@"
}

run --frames 100 --screenshot "$work/with.png" --screenshot-info "$work/with.json" "$scene"
run --frames 100 --no-panels --screenshot "$work/without.png" \
    --screenshot-info "$work/without.json" "$scene"
"$check" "$work/with.png" "$work/without.png" 960 600
# The default scene has eight geoms, all in view once they have settled.
"$check" --geoms "$work/without.png" "$work/without.json" 8
"$check" --geoms "$work/with.png" "$work/with.json" 8

# Recording to a directory: one PNG per frame.
run --frames 12 --no-panels --record "$work/frames" "$scene"
count=$(find "$work/frames" -name 'frame-*.png' | wc -l)
echo "recorded PNG frames: $count"
[ "$count" -eq 12 ] || { echo "FAIL: expected 12 recorded frames"; exit 1; }

# Recording to an MP4 pipes raw RGB frames to ffmpeg; a stand-in ffmpeg
# keeps them, so the byte count says whether every frame went through.
mkdir "$work/bin"
printf '#!/bin/sh\nfor last; do :; done\ncat > "$last"\n' > "$work/bin/ffmpeg"
chmod +x "$work/bin/ffmpeg"
PATH="$work/bin:$PATH" run --frames 12 --no-panels --record "$work/video.mp4" "$scene"
bytes=$(stat -c %s "$work/video.mp4")
echo "bytes piped to ffmpeg: $bytes (expected $((12 * 960 * 600 * 3)))"
[ "$bytes" -eq $((12 * 960 * 600 * 3)) ] || { echo "FAIL: wrong amount of video data"; exit 1; }

# A broken model: exit code 2 and a message, not a crash.
printf '<mujoco><worldbody><geom type="sphere" size="-1"/></worldbody>\n' > "$work/broken.xml"
status=0
run --frames 3 --screenshot "$work/broken.png" "$work/broken.xml" || status=$?
echo "broken model: exit code $status"
[ "$status" -eq 2 ] || { echo "FAIL: a broken model should exit with 2"; exit 1; }
echo "PASS"
