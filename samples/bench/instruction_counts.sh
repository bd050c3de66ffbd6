#!/usr/bin/env bash
# Instructions per step for Pliant and MuJoCo 2.2.2 (callgrind), a
# noise-free companion to the times of side_by_side: each engine steps the
# workload's warm-up, then 200 steps (20 for piles) are counted. Prints a
# Markdown table. Needs valgrind and a built side_by_side (bench preset).
#
#   bash samples/bench/instruction_counts.sh [build/bench/samples/bench/side_by_side]
set -euo pipefail
tool=${1:-build/bench/samples/bench/side_by_side}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() {  # workload engine steps -> instructions per step
  valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*counted_steps*' \
    --callgrind-out-file="$out/cg" "$tool" --count-instructions "$1" "$2" >/dev/null 2>&1
  awk -v steps="$3" '/^totals:/ {printf "%.0f", $2 / steps}' "$out/cg"
}
echo "| workload | Pliant instructions/step | MuJoCo instructions/step | ratio |"
echo "|---|---:|---:|---:|"
for w in humanoid 22_humanoids humanoid100 cheetah walker finger "robotiq_2f85 scene" 300; do
  steps=200
  [[ $w =~ ^[0-9]+$ ]] && steps=20
  p=$(count "$w" pliant $steps)
  m=$(count "$w" mujoco $steps)
  name=$w
  [[ $w =~ ^[0-9]+$ ]] && name="pile of $w boxes"
  awk -v n="$name" -v p="$p" -v m="$m" \
    'BEGIN {printf "| %s | %.3g | %.3g | **%.2f** |\n", n, p, m, p / m}'
done
