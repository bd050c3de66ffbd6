#!/usr/bin/env bash
# Rebuilds BENCHMARKS.md and docs/bench-scaling.png: Pliant beside MuJoCo
# 2.2.2 on every benchmark model (samples/bench/side_by_side.cpp), in the
# `bench` preset (optimised, asserts off). Takes about ten minutes on two
# cores; run it on an otherwise idle machine.
#
#   bash samples/bench/run_benchmarks.sh [--rounds R]
set -euo pipefail
cd "$(dirname "$0")/../.."
bash .ci/install-deps
cmake --preset bench -G Ninja >/dev/null
cmake --build --preset bench -j2 --target side_by_side
build/bench/samples/bench/side_by_side --markdown BENCHMARKS.md --plot docs/bench-scaling.png "$@"
