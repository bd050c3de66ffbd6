#!/usr/bin/env python3
"""Compares Pliant's Jacobians with MuJoCo 3.3.8's at a perturbed state.

    compare_jacobians.py PLIANT MODEL.xml [--seed N]

The state is qpos0 with every joint moved (hinges and slides by up to 0.3,
ball and free rotations by up to 0.3 rad about a random axis, free
positions by up to 0.1 m) and a random qvel, the same file for both
engines. `pliant jacobian` and `node mujoco3.mjs jac` print the Jacobians of
every body (origin, centre of mass, subtree centre of mass, time derivative
at the origin), geom and site. They must agree to 1e-12 relative to the
entry's magnitude (at least 1): the same few products and sums in another
order. Mesh geoms' Jacobians take the mesh tolerance of compare_fields.py,
1e-6: their centres come from mesh processing, which differs from 3.3.8's
at that level (3.8e-8 on the Robotiq gripper's pads). Exits 0 when all agree, 1 listing the worst, 2 when a model does not
load.
"""
import json
import math
import os
import random
import sys
import tempfile

from compare_fields import run_json

HERE = os.path.dirname(os.path.abspath(__file__))
TOLERANCE = 1e-12
MESH_TOLERANCE = 1e-6
MESH = 7  # mjGEOM_MESH


def rotate(quat, axis, angle):
    """quat * exp(angle/2 axis), normalised."""
    s = math.sin(angle / 2)
    b = [math.cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s]
    a = quat
    out = [a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
           a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
           a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
           a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]]
    norm = math.sqrt(sum(x * x for x in out))
    return [x / norm for x in out]


def perturbed_state(info, rng):
    qpos = list(info["qpos0"])
    for jtype, adr in zip(info["jnt_type"], info["jnt_qposadr"]):
        if jtype == 0:  # free: position, then rotation
            for k in range(3):
                qpos[adr + k] += rng.uniform(-0.1, 0.1)
            adr += 3
        if jtype in (0, 1):
            axis = [rng.gauss(0, 1) for _ in range(3)]
            norm = math.sqrt(sum(x * x for x in axis))
            qpos[adr:adr + 4] = rotate(qpos[adr:adr + 4], [x / norm for x in axis],
                                       rng.uniform(-0.3, 0.3))
        else:
            qpos[adr] += rng.uniform(-0.3, 0.3)
    qvel = [rng.uniform(-1, 1) for _ in range(info["nv"])]
    return {"qpos": qpos, "qvel": qvel}


def worst(ours, theirs, where, report, tolerance=TOLERANCE):
    if isinstance(ours, list) and ours and isinstance(ours[0], list):
        if len(ours) != len(theirs):
            report.append((math.inf, "%s: %d entries against %d" % (where, len(ours),
                                                                    len(theirs))))
            return
        for i, (a, b) in enumerate(zip(ours, theirs)):
            worst(a, b, "%s[%d]" % (where, i), report, tolerance)
        return
    if len(ours) != len(theirs):
        report.append((math.inf, "%s: %d values against %d" % (where, len(ours), len(theirs))))
        return
    for i, (a, b) in enumerate(zip(ours, theirs)):
        if a is None or b is None:
            report.append((math.inf, "%s entry %d: %s against %s (NaN)" % (where, i, a, b)))
            continue
        error = abs(a - b) / max(abs(a), abs(b), 1.0)
        if error > tolerance:
            report.append((error, "%s entry %d: %.17g against %.17g" % (where, i, a, b)))


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    pliant, model = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
    info, error = run_json([pliant, "info", model, "--json"])
    if info is None:
        print("Pliant does not load %s: %s" % (model, error))
        return 2
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(perturbed_state(info, random.Random(seed)), f)
        state = f.name
    try:
        ours, error = run_json([pliant, "jacobian", model, "--state", state])
        theirs, their_error = run_json(["node", os.path.join(HERE, "mujoco3.mjs"), "jac", model,
                                        "--state", state])
    finally:
        os.unlink(state)
    if ours is None or theirs is None:
        print("a Jacobian run failed: %s" % (error or their_error))
        return 2
    report = []
    # A subtree without mass has no centre of mass: MuJoCo divides by its
    # zero mass (NaN), Pliant gives zeros. Named, not compared.
    massless = [b for b, mass in enumerate(info["body_subtreemass"]) if mass == 0]
    for b in massless:
        if all(x is None for x in theirs["subtree_com"][b]) and not any(ours["subtree_com"][b]):
            ours["subtree_com"][b] = theirs["subtree_com"][b] = []
    if massless:
        print("massless subtrees (zeros in Pliant, NaN in MuJoCo 3.3.8): bodies %s" % massless)
    for kind in ["body", "body_com", "subtree_com", "body_dot", "site"]:
        worst(ours[kind], theirs[kind], kind, report)
    for g, geom_type in enumerate(info["geom_type"]):
        worst(ours["geom"][g], theirs["geom"][g], "geom[%d]" % g, report,
              MESH_TOLERANCE if geom_type == MESH else TOLERANCE)
    count = sum(len(ours[k]) for k in ours)
    print("%s: %d Jacobians of %d kinds compared with MuJoCo 3.3.8, %d entries differ" %
          (model, count, len(ours), len(report)))
    for error, text in sorted(report, reverse=True)[:10]:
        print("  %s (relative %.3g)" % (text, error))
    return 1 if report else 0


if __name__ == "__main__":
    sys.exit(main())
