"""A solver monitor over data.solver_niter and data.solver, as a MuJoCo
user writes one to see how hard the constraint solver works.

    python3 solver_monitor.py [humanoid.xml]

Drops the humanoid and, every 25 steps, prints the iteration count and, for
each iteration, its improvement, gradient, active rows, state changes and
line-search evaluations.
"""
import os
import sys

import pliant.mujoco as mujoco

HERE = os.path.dirname(os.path.abspath(__file__))
path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    HERE, "..", "..", "..", "third_party", "models", "dm_control", "humanoid.xml")

model = mujoco.MjModel.from_xml_path(path)
data = mujoco.MjData(model)
for step in range(301):
    mujoco.mj_step(model, data)
    if step % 25 == 0:
        niter = data.solver_niter[0]
        print("step %d ncon %d niter %d" % (step, data.ncon, niter))
        stats = data.solver
        for i in range(min(niter, mujoco.mjNSOLVER)):
            print("iteration", i, "%.17g" % stats.improvement[i], "%.17g" % stats.gradient[i],
                  stats.nactive[i], stats.nchange[i], stats.neval[i])
