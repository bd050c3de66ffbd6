"""A contact-force logger over data.contact, as a MuJoCo user writes it.

    python3 contact_logger.py [humanoid.xml]

Drops the humanoid and, every 50 steps, prints each contact's geoms,
distance, normal and the force in its frame (mj_contactForce).
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
force = np.zeros(6)
for step in range(301):
    mujoco.mj_forward(model, data)
    if step % 50 == 0:
        print("step %d ncon %d" % (step, data.ncon))
        for i in range(data.ncon):
            contact = data.contact[i]
            mujoco.mj_contactForce(model, data, i, force)
            print("contact", contact.geom1, contact.geom2, "%.17g" % contact.dist,
                  " ".join("%.17g" % v for v in contact.frame[:3]),
                  " ".join("%.17g" % v for v in force))
    mujoco.mj_step(model, data)
