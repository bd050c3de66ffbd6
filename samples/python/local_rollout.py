#!/usr/bin/env python3
"""Batched rollouts on this machine: B trajectories of T steps on threads,
then the same batch over a Dask cluster of local worker processes.

    PYTHONPATH=build/release/python python3 samples/python/local_rollout.py

On several machines, start Dask's own scheduler and workers (each worker
needs the pliant module on its PYTHONPATH and the model at the same path):

    machine A:    dask-scheduler --host 0.0.0.0 --port 8786
    machines B-Z: PYTHONPATH=/path/to/build/release/python \\
                  dask-worker tcp://A:8786 --nworkers 2 --nthreads 1
    anywhere:     python3 local_rollout.py --scheduler tcp://A:8786
"""
import argparse
import os
import time

import numpy as np

import pliant
import pliant.distributed

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
parser = argparse.ArgumentParser()
parser.add_argument("--model", default=os.path.join(ROOT, "third_party", "models", "dm_control",
                                                    "humanoid.xml"))
parser.add_argument("--batch", type=int, default=32)
parser.add_argument("--steps", type=int, default=500)
parser.add_argument("--scheduler", help="address of a running Dask scheduler (default: a "
                    "LocalCluster of 2 processes)")
args = parser.parse_args()

model = pliant.Model.from_xml_path(args.model)
rng = np.random.default_rng(0)
qpos0 = np.tile(pliant.Data(model).qpos, (args.batch, 1))
qvel0 = 0.1 * rng.standard_normal((args.batch, model.nv))
ctrl = 0.2 * rng.standard_normal((args.batch, args.steps, model.nu))

start = time.perf_counter()
qpos, qvel = pliant.rollout(model, qpos0, qvel0, ctrl, threads=2)
seconds = time.perf_counter() - start
print("local, 2 threads: %d x %d steps in %.3f s (%.0f steps/s)" %
      (args.batch, args.steps, seconds, args.batch * args.steps / seconds))

from dask.distributed import Client, LocalCluster  # noqa: E402

cluster = None if args.scheduler else LocalCluster(n_workers=2, threads_per_worker=1,
                                                   dashboard_address=None)
with Client(args.scheduler or cluster) as client:
    start = time.perf_counter()
    dq, dv = pliant.distributed.rollout(client, os.path.abspath(args.model), qpos0, qvel0, ctrl)
    seconds = time.perf_counter() - start
    print("dask, %d workers: %d x %d steps in %.3f s; equal to the local result: %s" %
          (len(client.scheduler_info()["workers"]), args.batch, args.steps, seconds,
           np.array_equal(dq, qpos) and np.array_equal(dv, qvel)))
if cluster is not None:
    cluster.close()
