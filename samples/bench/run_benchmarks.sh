#!/usr/bin/env bash
# Rebuilds BENCHMARKS.md and docs/bench-scaling.png: Pliant beside MuJoCo
# 2.2.2 on every benchmark model (samples/bench/side_by_side.cpp), in the
# `bench` preset (optimised, asserts off), repeated 3 times (ratios are
# medians with their range); then the cost per contact of settled piles
# (samples/bench/pile_scaling.py) and, when valgrind is installed,
# instructions per step of both engines (samples/bench/instruction_counts.sh).
# Takes about 45 minutes on two cores; run it on an otherwise idle machine.
#
#   bash samples/bench/run_benchmarks.sh [--rounds R] [--repetitions N]
set -euo pipefail
cd "$(dirname "$0")/../.."
bash .ci/install-deps
cmake --preset bench -G Ninja >/dev/null
targets="side_by_side sensor_bench pliant"
# The Python module, when configure found what it needs.
if ninja -C build/bench -t targets all | grep -q '^python/pliant/_pliant'; then targets="$targets _pliant"; fi
cmake --build --preset bench -j2 --target $targets
build/bench/samples/bench/side_by_side --markdown BENCHMARKS.md --plot docs/bench-scaling.png "$@"
{
  echo
  echo "## Cost per contact of settled piles (Pliant; samples/bench/pile_scaling.py)"
  echo
  python3 samples/bench/pile_scaling.py --cli build/bench/samples/pliant/pliant
} >>BENCHMARKS.md
if command -v valgrind >/dev/null; then
  {
    echo
    echo "## Instructions per step (callgrind; samples/bench/instruction_counts.sh)"
    echo
    bash samples/bench/instruction_counts.sh build/bench/samples/bench/side_by_side
  } >>BENCHMARKS.md
fi
# Against today's MuJoCo (3.x, native) when its install is beside the
# project (../shared/mujoco-3.12.1) or named by -DPLIANT_MUJOCO3_DIR: the
# same report in docs/benchmarks-mujoco3.md (the pile of 3000 boxes is left
# out: MuJoCo 3.12.1 takes about a second a step there), the derivatives
# of the step (samples/bench/mujoco3/derivative_bench) and batched
# throughput on 1..N threads (samples/bench/mujoco3/batch_bench).
if ninja -C build/bench -t targets all | grep -q '^samples/bench/mujoco3/side_by_side_mujoco3:'; then
  cmake --build --preset bench -j2 --target side_by_side_mujoco3 derivative_bench batch_bench
  build/bench/samples/bench/mujoco3/side_by_side_mujoco3 --markdown docs/benchmarks-mujoco3.md \
    --only "humanoid,22_humanoids,humanoid100,cheetah,walker,finger,robotiq_2f85 scene,10,100,300,1000" \
    "$@" >/dev/null
  { echo; build/bench/samples/bench/mujoco3/derivative_bench; } >>docs/benchmarks-mujoco3.md
  { echo; build/bench/samples/bench/mujoco3/batch_bench; } >>docs/benchmarks-mujoco3.md
fi
# Newton's Hessian factor against CHOLMOD, when libsuitesparse-dev is there.
if ninja -C build/bench -t targets all | grep -q '^samples/bench/cholmod_bench:'; then
  cmake --build --preset bench -j2 --target cholmod_bench
  { echo; build/bench/samples/bench/cholmod_bench; } >>BENCHMARKS.md
fi
# One scene on several threads (Data::threads) against one thread.
cmake --build --preset bench -j2 --target scene_threads_bench
{
  echo
  echo "## One scene on several threads (samples/bench/scene_threads_bench)"
  echo
  build/bench/samples/bench/scene_threads_bench --sizes 100,300,1000,3000
} >>BENCHMARKS.md
# What sensors cost, then the Python module (when it is built).
{
  echo
  echo "## What sensors cost (dm_control humanoid, 34 sensors; samples/bench/sensor_bench.cpp)"
  echo
  echo '```'
  build/bench/samples/bench/sensor_bench | tail -n 4
  echo '```'
} >>BENCHMARKS.md
if [ -d build/bench/python/pliant ]; then
  echo >>BENCHMARKS.md
  PYTHONPATH=build/bench/python /usr/bin/python3 samples/python/bench_python.py \
    --cli build/bench/samples/pliant/pliant 2>/dev/null >>BENCHMARKS.md
fi
