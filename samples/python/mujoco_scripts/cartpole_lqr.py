"""An LQR controller for the cartpole from mjd_transitionFD, written as a
MuJoCo user writes it: only the import names Pliant.

    python3 cartpole_lqr.py [cartpole.xml]

Linearises the step at the upright pole (centred differences), solves the
discrete Riccati equation by iteration, and balances the pole from a 0.1
rad tilt. Prints A, B, the gains and the final state.
"""
import os
import sys

import numpy as np

import pliant.mujoco as mujoco

HERE = os.path.dirname(os.path.abspath(__file__))
path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    HERE, "..", "..", "..", "third_party", "models", "dm_control", "cartpole.xml")

model = mujoco.MjModel.from_xml_path(path)
model.opt.integrator = mujoco.mjtIntegrator.mjINT_EULER  # derivatives need Euler or implicit
data = mujoco.MjData(model)
mujoco.mj_forward(model, data)

nx = 2 * model.nv + model.na
A = np.zeros((nx, nx))
B = np.zeros((nx, model.nu))
mujoco.mjd_transitionFD(model, data, 1e-6, True, A, B, None, None)

Q = np.eye(nx)
R = 0.1 * np.eye(model.nu)
P = Q.copy()
for _ in range(5000):
    K = np.linalg.solve(R + B.T @ P @ B, B.T @ P @ A)
    P = Q + A.T @ P @ (A - B @ K)

print("A", " ".join("%.17g" % v for v in A.reshape(-1)))
print("B", " ".join("%.17g" % v for v in B.reshape(-1)))
print("K", " ".join("%.17g" % v for v in K.reshape(-1)))

data.qpos[1] = 0.1
for _ in range(500):
    state = np.concatenate([data.qpos, data.qvel])
    data.ctrl[:] = -K @ state
    mujoco.mj_step(model, data)
print("final", " ".join("%.17g" % v for v in np.concatenate([data.qpos, data.qvel])))
