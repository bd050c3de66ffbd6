"""A camera capture to PNG with Renderer, as a MuJoCo user writes it.

    python3 camera_capture.py [humanoid.xml] [OUT_DIR]

Drops the humanoid and every 100 steps renders the "side" camera (a
tracking camera of the model; the first camera, or the free camera, in a
model without one) at 480 x 640, writes it as OUT_DIR/frame_NNN.png, and
prints the camera's pose and the torso's position.
"""
import os
import sys
import tempfile

from PIL import Image

import pliant.mujoco as mujoco

HERE = os.path.dirname(os.path.abspath(__file__))
path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    HERE, "..", "..", "..", "third_party", "models", "dm_control", "humanoid.xml")
out_dir = sys.argv[2] if len(sys.argv) > 2 else os.path.join(tempfile.gettempdir(),
                                                             "camera_capture")
os.makedirs(out_dir, exist_ok=True)

model = mujoco.MjModel.from_xml_path(path)
data = mujoco.MjData(model)
camera = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_CAMERA, "side")
if camera < 0:
    camera = 0 if model.ncam > 0 else -1


def numbers(values):
    return " ".join("%.17g" % v for v in values)


with mujoco.Renderer(model, height=480, width=640) as renderer:
    for step in range(301):
        if step % 100 == 0:
            mujoco.mj_forward(model, data)
            renderer.update_scene(data, camera=camera)
            pixels = renderer.render()
            name = "frame_%03d.png" % step
            Image.fromarray(pixels).save(os.path.join(out_dir, name))
            pose = "free" if camera < 0 else "%s %s" % (numbers(data.cam_xpos[camera]),
                                                         numbers(data.cam_xmat[camera]))
            print("step %d camera %s torso %s" % (step, pose, numbers(data.xpos[1])))
            print("wrote %s %dx%d" % (name, pixels.shape[1], pixels.shape[0]))
        mujoco.mj_step(model, data)
