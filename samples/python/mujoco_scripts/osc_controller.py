"""An operational-space reaching controller from mj_jacSite and mj_inverse,
as a MuJoCo user writes it.

    python3 osc_controller.py

A three-link arm (its model inline) moves its hand site to a target: the
torque is J^T (kp (target - x) - kd J qvel) plus the bias force that
mj_inverse returns at zero acceleration (gravity and Coriolis).
"""
import numpy as np

import pliant.mujoco as mujoco

ARM = """
<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <body name="upper" pos="0 0 0.5">
      <joint name="shoulder" type="hinge" axis="0 1 0" damping="0.1"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/>
      <body name="fore" pos="0.3 0 0">
        <joint name="elbow" type="hinge" axis="0 1 0" damping="0.1"/>
        <geom type="capsule" fromto="0 0 0 0.25 0 0" size="0.025"/>
        <body name="palm" pos="0.25 0 0">
          <joint name="wrist" type="hinge" axis="0 1 0" damping="0.05"/>
          <geom type="box" size="0.04 0.02 0.01" pos="0.04 0 0"/>
          <site name="hand" pos="0.08 0 0"/>
        </body>
      </body>
    </body>
  </worldbody>
  <actuator>
    <motor joint="shoulder"/><motor joint="elbow"/><motor joint="wrist"/>
  </actuator>
</mujoco>
"""

model = mujoco.MjModel.from_xml_string(ARM)
data = mujoco.MjData(model)
hand = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_SITE, "hand")
target = np.array([0.35, 0.0, 0.75])
jacp = np.zeros((3, model.nv))
for step in range(1001):
    mujoco.mj_forward(model, data)
    mujoco.mj_jacSite(model, data, jacp, None, hand)
    x = data.site_xpos[hand].copy()
    force = 60.0 * (target - x) - 8.0 * (jacp @ data.qvel)
    saved = data.qacc.copy()
    data.qacc[:] = 0
    mujoco.mj_inverse(model, data)
    bias = data.qfrc_inverse.copy()
    data.qacc[:] = saved
    data.ctrl[:] = jacp.T @ force + bias
    if step % 200 == 0:
        print("step %d hand %s ctrl %s" % (step, " ".join("%.17g" % v for v in x),
                                           " ".join("%.17g" % v for v in data.ctrl)))
    mujoco.mj_step(model, data)
