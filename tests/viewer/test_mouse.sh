#!/usr/bin/env bash
# The viewer's mouse, driven by xdotool under Xvfb: double-click selects the
# body under the cursor; Ctrl+right drag pulls it and it moves the way the
# mouse went; a left drag orbits the camera and the wheel zooms; the side
# columns collapse to a strip and back, and are remembered. The viewer
# writes its state every frame (--state-log); the checks read that log.
set -euo pipefail
# The whole test runs on one X server of its own, which xdotool and the
# viewer share: the script runs itself again under tests/with_xvfb.sh.
if [ -z "${PLIANT_MOUSE_TEST_ON_XVFB:-}" ]; then
  PLIANT_MOUSE_TEST_ON_XVFB=1 exec "$(dirname "$0")/../with_xvfb.sh" "$0" "$@"
fi
pliant=$1
scene=$2
work=$(mktemp -d)
viewer_pid=""
cleanup() {
  [ -n "$viewer_pid" ] && kill "$viewer_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# The viewer's remembered settings (recent files, panels) stay in here.
export XDG_CONFIG_HOME="$work/config"
for tool in xdotool python3; do
  command -v $tool >/dev/null || { echo "FAIL: $tool is not installed"; exit 1; }
done

# Where the crate is drawn, from one frame of the same size and view.
"$pliant" view --width 960 --height 600 --no-panels \
    --frames 1 --screenshot "$work/start.png" --screenshot-info "$work/start.json" "$scene" >/dev/null
read -r cx cy < <(python3 -c '
import json, sys
info = json.load(open(sys.argv[1]))
crate = [g for g in info["geoms"] if g["body"] == "crate"][0]
print(crate["x"], crate["y"])' "$work/start.json")
echo "crate drawn at ($cx, $cy)"

"$pliant" view --width 960 --height 600 --no-panels --state-log "$work/state.jsonl" "$scene" \
    >"$work/viewer.out" 2>&1 &
viewer_pid=$!
window=$(timeout 20 xdotool search --sync --name '^Pliant$' | head -1)
# Without a window manager the window sits at the origin; wait for frames.
for _ in $(seq 100); do [ -s "$work/state.jsonl" ] && break; sleep 0.1; done
sleep 1
mark() { echo "$1 $(wc -l < "$work/state.jsonl")" >> "$work/marks"; }

mark start
xdotool mousemove --window "$window" "$cx" "$cy"
sleep 0.2
xdotool click --repeat 2 --delay 120 1
sleep 0.5
mark selected

# Pull: Ctrl + right button, dragged 200 px to the right in small steps.
xdotool keydown ctrl mousedown 3
for _ in $(seq 20); do xdotool mousemove_relative -- 10 0; sleep 0.03; done
sleep 0.8
xdotool mouseup 3 keyup ctrl
sleep 0.3
mark pulled

# Orbit: a left drag over the sky, away from the crate.
xdotool mousemove --window "$window" 150 80
sleep 0.2
xdotool mousedown 1
for _ in $(seq 15); do xdotool mousemove_relative -- 8 0; sleep 0.03; done
xdotool mouseup 1
sleep 0.5
mark orbited

# Zoom: three wheel clicks towards the scene.
xdotool click --repeat 3 --delay 50 4
sleep 0.5
mark zoomed

kill "$viewer_pid"
wait "$viewer_pid" 2>/dev/null || true
viewer_pid=""

python3 - "$work/state.jsonl" "$work/marks" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
marks = {name: int(n) for name, n in (l.split() for l in open(sys.argv[2]))}
at = lambda name: lines[min(marks[name], len(lines)) - 1]
failures = []
start, selected, pulled = at("start"), at("selected"), at("pulled")
orbited, zoomed = at("orbited"), at("zoomed")
print("frames logged:", len(lines))
print("selected after the double-click:", repr(selected["selected"]))
if start["selected"] != "" or selected["selected"] != "crate":
    failures.append("double-click did not select the crate")
move = [b - a for a, b in zip(selected["selected_pos"], pulled["selected_pos"])]
right, up = selected["right"], selected["up"]
along = sum(m * r for m, r in zip(move, right))
across = abs(sum(m * u for m, u in zip(move, up)))
print("crate moved %s m: %.4f m along the drag (screen right), %.4f m up the screen"
      % ([round(m, 4) for m in move], along, across))
if not along > 0.05 or not along > across:
    failures.append("Ctrl+right drag did not move the crate the way the mouse went")
print("azimuth %.3f -> %.3f deg" % (pulled["azimuth"], orbited["azimuth"]))
if abs(orbited["azimuth"] - pulled["azimuth"]) < 1:
    failures.append("a left drag did not orbit the camera")
print("distance %.4f -> %.4f m" % (orbited["distance"], zoomed["distance"]))
if not zoomed["distance"] < orbited["distance"] - 1e-6:
    failures.append("the wheel did not zoom in")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
PY

# The side columns at 960 x 600: the 3-D view keeps 60 % of the width; the
# right column collapses to a strip with its button, the choice is
# remembered in $XDG_CONFIG_HOME/pliant/panels, and the strip opens it again.
panels_run() {  # $1: log file; then xdotool clicks as "x,y" pairs
  local log=$1
  shift
  "$pliant" view --width 960 --height 600 --state-log "$log" "$scene" >>"$work/viewer.out" 2>&1 &
  viewer_pid=$!
  timeout 20 xdotool search --sync --name '^Pliant$' >/dev/null
  for _ in $(seq 100); do [ -s "$log" ] && break; sleep 0.1; done
  sleep 1
  for at in "$@"; do
    xdotool mousemove "${at%,*}" "${at#*,}"
    sleep 0.2
    xdotool click 1
    sleep 0.6
  done
  kill "$viewer_pid"
  wait "$viewer_pid" 2>/dev/null || true
  viewer_pid=""
}
# The right column's collapse button sits at its top left (192 px wide).
panels_run "$work/panels1.jsonl" "782,35"
cat "$work/config/pliant/panels"
panels_run "$work/panels2.jsonl"
# The collapsed strip's button opens it again.
panels_run "$work/panels3.jsonl" "945,15"
cat "$work/config/pliant/panels"
python3 - "$work" <<'PY'
import json, sys
load = lambda name: [json.loads(l) for l in open(sys.argv[1] + "/" + name) if l.strip()]
first, second, third = load("panels1.jsonl"), load("panels2.jsonl"), load("panels3.jsonl")
failures = []
start, end = first[0], first[-1]
print("960 px, both columns open: 3-D view %d px wide (%.0f %%)"
      % (start["view_width"], 100 * start["view_width"] / 960))
if not (start["left_panel"] and start["right_panel"]) or start["view_width"] < 0.6 * 960:
    failures.append("the 3-D view does not keep 60 % of 960 px with both columns open")
print("after the collapse button: right column open %s, view %d px"
      % (end["right_panel"], end["view_width"]))
if end["right_panel"] or end["view_width"] <= start["view_width"]:
    failures.append("the collapse button did not collapse the right column")
print("next session starts with the right column open:", second[0]["right_panel"])
if second[0]["right_panel"]:
    failures.append("the collapsed column was not remembered")
if not third[-1]["right_panel"]:
    failures.append("the strip's button did not open the column again")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
PY
echo "PASS"
