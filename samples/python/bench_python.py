#!/usr/bin/env python3
"""The Python module's costs, as medians over rounds with the min-max spread:

  1. per-call overhead of pliant.step against the C++ step (`pliant bench`),
     and the call alone (nstep=0), which is that overhead without the
     step's own noise;
  2. pliant.rollout throughput on 1 and 2 threads, from qpos/qvel and from
     full states (with the sensor data recorded), on a fresh pool per call
     and on a pool kept across calls (pliant.Rollout), against the C++ step;
     and the mujoco face's mj_step loop;
  3. pliant.distributed.rollout on a LocalCluster of 2 worker processes,
     and its overhead against the local rollout, for a small and a large
     batch.

    PYTHONPATH=build/bench/python python3 samples/python/bench_python.py \\
        --cli build/bench/samples/pliant/pliant [--rounds 7]
"""
import argparse
import json
import os
import statistics
import subprocess
import time

import numpy as np

import pliant
import pliant.distributed

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODELS = os.path.join(ROOT, "third_party", "models", "dm_control")


def spread(values):
    return "%.3g (min %.3g, max %.3g)" % (statistics.median(values), min(values), max(values))


def step_overhead(path, cli, rounds, steps):
    model = pliant.Model.from_xml_path(path)
    python_us, cpp_us, call_us = [], [], []
    for _ in range(rounds):
        data = pliant.Data(model)
        pliant.step(model, data, nstep=100)
        start = time.perf_counter()
        for _ in range(steps):
            pliant.step(model, data)
        python_us.append(1e6 * (time.perf_counter() - start) / steps)
        # The call alone: argument checks, mirrors, releasing the GIL.
        start = time.perf_counter()
        for _ in range(steps):
            pliant.step(model, data, 0)
        call_us.append(1e6 * (time.perf_counter() - start) / steps)
        out = subprocess.run([cli, "bench", path, "--steps", str(steps), "--warmup", "100"],
                             capture_output=True, text=True, check=True).stdout
        cpp_us.append(json.loads(out.splitlines()[-1])["us_per_step"])
    print("| %s | %s | %s | %s |" % (os.path.basename(path), spread(python_us), spread(cpp_us),
                                     spread(call_us)))


def inputs(model, batch, steps):
    rng = np.random.default_rng(1)
    qpos0 = np.tile(pliant.Data(model).qpos, (batch, 1))
    qvel0 = 0.1 * rng.standard_normal((batch, model.nv))
    ctrl = 0.2 * rng.standard_normal((batch, steps, model.nu))
    return qpos0, qvel0, ctrl


def timed(function, rounds):
    seconds = []
    for _ in range(rounds):
        start = time.perf_counter()
        function()
        seconds.append(time.perf_counter() - start)
    return seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True, help="the pliant command line (same preset)")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    humanoid = os.path.join(MODELS, "humanoid.xml")

    print("## Python: per-call overhead of pliant.step (us per step, medians of %d rounds)\n" %
          args.rounds)
    print("| model | Python pliant.step | C++ step (pliant bench) | overhead: "
          "pliant.step(nstep=0) |")
    print("|---|---:|---:|---:|")
    for name in ("pendulum.xml", "cartpole.xml", "humanoid.xml"):
        step_overhead(os.path.join(MODELS, name), args.cli, args.rounds, 2000)

    model = pliant.Model.from_xml_path(humanoid)
    batch, steps = 16, 500
    qpos0, qvel0, ctrl = inputs(model, batch, steps)
    print("\n## pliant.rollout on the humanoid (%d x %d steps; thousand steps per second)\n" %
          (batch, steps))
    print("| threads | throughput |")
    print("|---:|---:|")
    local = {}
    for threads in (1, 2):
        seconds = timed(lambda: pliant.rollout(model, qpos0, qvel0, ctrl, threads=threads),
                        args.rounds)
        local[threads] = seconds
        print("| %d | %s |" % (threads, spread([batch * steps / s / 1e3 for s in seconds])))

    # The same trajectory in every row and in `pliant bench`: from qpos0 at
    # rest, zero controls, `steps` steps; so the rollout's time per step
    # less the C++ step's is what the Python call and the state recording
    # add.
    full = int(pliant.State.FULLPHYSICS)
    data = pliant.Data(model)
    pliant.reset(model, data)
    state0 = np.tile(np.empty(pliant.state_size(model, full)), (batch, 1))
    for b in range(batch):
        pliant.get_state(model, data, state0[b], full)
    zero = np.zeros((batch, steps, model.nu))
    cpp_us = []
    for _ in range(args.rounds):
        out = subprocess.run([args.cli, "bench", humanoid, "--steps", str(steps), "--warmup", "0"],
                             capture_output=True, text=True, check=True).stdout
        cpp_us.append(json.loads(out.splitlines()[-1])["us_per_step"])
    print("\n## pliant.rollout from full states, humanoid %d x %d steps from rest (thousand steps "
          "per second; the C++ step on the same trajectory: %s us)\n" % (batch, steps,
                                                                           spread(cpp_us)))
    print("| threads | fresh pool per call | pliant.Rollout pool kept | per step over C++ (us, "
          "1 thread) |")
    print("|---:|---:|---:|---:|")
    for threads in (1, 2):
        fresh = timed(lambda: pliant.rollout(model, data, state0, zero, threads=threads),
                      args.rounds)
        with pliant.Rollout(nthread=threads) as pool:
            kept = timed(lambda: pool.rollout(model, data, state0, zero), args.rounds)
        over = ([1e6 * s / (batch * steps) - statistics.median(cpp_us) for s in fresh]
                if threads == 1 else None)
        print("| %d | %s | %s | %s |" % (threads, spread([batch * steps / s / 1e3 for s in fresh]),
                                        spread([batch * steps / s / 1e3 for s in kept]),
                                        spread(over) if over else "-"))

    import pliant.mujoco as mujoco
    mj_data = mujoco.MjData(model)
    loop = timed(lambda: [mujoco.mj_step(model, mj_data) for _ in range(2000)], args.rounds)
    print("\nmujoco face, mj_step in a Python loop (humanoid): %s us per step\n"
          % spread([1e6 * s / 2000 for s in loop]))

    from dask.distributed import Client, LocalCluster
    print("\n## pliant.distributed.rollout, LocalCluster of 2 worker processes (humanoid)\n")
    print("| batch | Dask seconds | local 2-thread seconds | Dask overhead (s) | Dask throughput "
          "(k steps/s) |")
    print("|---|---:|---:|---:|---:|")
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address=None)
    with Client(cluster) as client:
        for batch, steps in ((4, 50), (64, 500)):
            q, v, u = inputs(model, batch, steps)
            pliant.distributed.rollout(client, humanoid, q, v, u)  # workers load the model
            dask_s = timed(lambda: pliant.distributed.rollout(client, humanoid, q, v, u),
                           args.rounds)
            local_s = timed(lambda: pliant.rollout(model, q, v, u, threads=2), args.rounds)
            print("| %d x %d | %s | %s | %s | %s |" %
                  (batch, steps, spread(dask_s), spread(local_s),
                   spread([d - l for d, l in zip(dask_s, local_s)]),
                   spread([batch * steps / s / 1e3 for s in dask_s])))
    cluster.close()


if __name__ == "__main__":
    main()
