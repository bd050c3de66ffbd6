"""Friction and mass randomisation over episodes, as a MuJoCo user writes
it: write model arrays, mj_setConst, reset, roll out.

    python3 randomise_episodes.py [humanoid.xml]

The scale factors come from a fixed formula (no random generator), so the
same script in another language draws the same episodes.
"""
import os
import sys

import numpy as np

import pliant.mujoco as mujoco

HERE = os.path.dirname(os.path.abspath(__file__))
path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    HERE, "..", "..", "..", "third_party", "models", "dm_control", "humanoid.xml")

model = mujoco.MjModel.from_xml_path(path)
data = mujoco.MjData(model)
friction0 = model.geom_friction[:, 0].copy()
mass0 = model.body_mass.copy()
inertia0 = model.body_inertia.copy()


def scale(episode, i):
    return 0.7 + 0.6 * ((episode * 7919 + i * 104729) % 1000) / 1000.0


for episode in range(4):
    for g in range(model.ngeom):
        model.geom_friction[g, 0] = friction0[g] * scale(episode, g)
    for b in range(1, model.nbody):
        s = scale(episode, 100 + b)
        model.body_mass[b] = mass0[b] * s
        model.body_inertia[b] = inertia0[b] * s
    mujoco.mj_setConst(model, data)
    mujoco.mj_resetData(model, data)
    contacts = 0
    for _ in range(250):
        mujoco.mj_step(model, data)
        contacts += data.ncon
    torso = data.body("torso")
    print("episode %d subtreemass %.17g torso %s contacts %d" % (
        episode, model.body_subtreemass[1], " ".join("%.17g" % v for v in torso.xpos), contacts))
