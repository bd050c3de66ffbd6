#!/usr/bin/env bash
# Runs a command on an X server of its own and returns the command's exit
# status: with_xvfb.sh COMMAND [ARGS...].
#
# Xvfb chooses the display itself (-displayfd): it takes the first number it
# can lock and listen on, and writes it back only once it accepts clients.
# `xvfb-run -a` instead guesses a free number from the lock files before
# starting the server, which races with a server of an earlier test that is
# still shutting down: the command then found no server on the display.
# -noreset: by default the server resets when its last client disconnects
# and refuses connections meanwhile, so a window opened right after another
# closed (the Python viewer tests open one after another) could not connect.
set -uo pipefail
command -v Xvfb >/dev/null || { echo "FAIL: Xvfb is not installed (package xvfb)"; exit 1; }
work=$(mktemp -d)
xvfb_pid=""
cleanup() {
  if [ -n "$xvfb_pid" ]; then
    kill "$xvfb_pid" 2>/dev/null
    wait "$xvfb_pid" 2>/dev/null
  fi
  rm -rf "$work"
}
trap cleanup EXIT
mkfifo "$work/display"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset \
  3>"$work/display" >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
if ! read -r -t 60 number <"$work/display"; then
  echo "FAIL: Xvfb did not start within 60 s:"
  cat "$work/xvfb.log"
  exit 1
fi
export DISPLAY=":$number"
"$@"
