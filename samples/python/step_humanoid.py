#!/usr/bin/env python3
"""Loads a model, steps it and reads the state through numpy views.

    PYTHONPATH=build/release/python python3 samples/python/step_humanoid.py [MODEL.xml]
"""
import os
import sys

import pliant

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "third_party", "models",
                                                          "dm_control", "humanoid.xml")
model = pliant.Model.from_xml_path(path)
data = pliant.Data(model)
torso = model.body("torso").id
for i in range(5):
    pliant.step(model, data, nstep=100)
    print("t = %.2f s  torso height %.3f m  sensors %s" %
          (data.time, data.xpos[torso][2], data.sensordata[:3].round(3)))
