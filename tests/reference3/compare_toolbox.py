#!/usr/bin/env python3
"""Compares Pliant's toolbox with MuJoCo 3.3.8's along a trajectory.

    compare_toolbox.py PLIANT MODEL.xml [--steps N] [--every K] [--key K]
                       [--integrator NAME] [--jacobian site:NAME ...]
                       [--centred] [--no-derivatives] [--min-contacts C]
                       [--perturb SEED] [--ctrl U1,U2,...]

Both engines step from qpos0 (or keyframe K, its ctrl held; with --perturb,
from a state file both read: every joint moved as in compare_jacobians.py,
a random qvel and random controls within their ranges, held; with --ctrl,
from qpos0 at rest with these controls, held) and, every K
steps (default 5) of N (default 20), print the toolbox's numbers at the
forwarded state: the Jacobians named (mj_jacSite/Body/Geom), inverse
dynamics at the step's qacc (mj_inverse: qfrc_inverse and the constraint
forces of the closed form) and the transition derivatives A, B, C, D
(mjd_transitionFD, eps 1e-6, forward or centred). The tolerances:

  Jacobians            1e-12  the same products and sums in another order
  qfrc_inverse, forces 1e-9   sums of M qacc and the forces
  A, B, C, D           1e-6   relative to the largest entry of the row (at
                              least 1): a column is a difference of two
                              steps divided by eps = 1e-6, so round-off of
                              an output y (~1e-16 |y|, and the solver's
                              ~1e-12 of qacc) comes back 1e6 times larger,
                              in proportion to that output's scale; the
                              row's largest entry measures that scale.

each relative to max(1, |value|) unless said. The trajectories themselves
must agree (qpos, qvel to 1e-8: compare_dumps.py's rule); where they agree
to e > 0 instead of exactly, the Jacobians and inverse dynamics, smooth
functions of the state, are held to max(tolerance, 100 e). With
--min-contacts C, at least one printed step must have C contacts (the
comparison is "with contacts"). Exits 0 when everything agrees, 1 naming the
worst entries, 2 when a model does not load.
"""
import json
import math
import os
import random
import sys
import tempfile

from compare_dumps import dump
from compare_fields import run_json
from compare_jacobians import perturbed_state

HERE = os.path.dirname(os.path.abspath(__file__))
TOLERANCES = {"qpos": 1e-8, "qvel": 1e-8, "jacobian": 1e-12, "qfrc_inverse": 1e-9,
              "efc_force_inverse": 1e-9, "A": 1e-6, "B": 1e-6, "C": 1e-6, "D": 1e-6}
# Row length of each derivative matrix (row-major), from a dump line.
ROW_SIZES = {
    "A": lambda line: 2 * len(line["qvel"]) + len(line["act"]),
    "B": lambda line: len(line["B"]) // max(1, 2 * len(line["qvel"]) + len(line["act"])),
    "C": lambda line: 2 * len(line["qvel"]) + len(line["act"]),
    "D": lambda line: len(line["D"]) // max(1, len(line["sensordata"])) if line["sensordata"] else 1,
}


def flat(value):
    if isinstance(value, dict):
        out = []
        for key in sorted(value):
            out += flat(value[key])
        return out
    if isinstance(value, list) and value and isinstance(value[0], list):
        return [x for row in value for x in row]
    return value


def main():
    pliant, model = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    def option(name, default):
        return args[args.index(name) + 1] if name in args else default
    steps, every = option("--steps", "20"), option("--every", "5")
    common = ["--steps", steps]
    for name in ("--key", "--integrator", "--tol"):
        if name in args:
            common += [name, option(name, "")]
    for i, a in enumerate(args):
        if a == "--jacobian":
            common += ["--jacobian", args[i + 1]]
    ctrl = None
    if "--ctrl" in args:
        info, error = run_json(["node", os.path.join(HERE, "mujoco3.mjs"), "info", model,
                                "--fields", "qpos0,nv"])
        if info is None or "error" in info:
            print("MuJoCo 3.3.8: %s" % (error or info["error"]))
            return 2
        ctrl = [float(u) for u in option("--ctrl", "").split(",")]
        state = {"qpos": info["qpos0"], "qvel": [0.0] * info["nv"], "ctrl": ctrl}
        handle = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        json.dump(state, handle)
        handle.close()
        common += ["--state", handle.name]
    if "--perturb" in args:
        info, error = run_json(["node", os.path.join(HERE, "mujoco3.mjs"), "info", model,
                                "--fields", "qpos0,jnt_type,jnt_qposadr,nv,nu,"
                                "actuator_ctrlrange,actuator_ctrllimited"])
        if info is None or "error" in info:
            print("MuJoCo 3.3.8: %s" % (error or info["error"]))
            return 2
        rng = random.Random(int(option("--perturb", "1")))
        state = perturbed_state(info, rng)
        ranges = info["actuator_ctrlrange"] or []
        state["ctrl"] = [rng.uniform(ranges[2 * i], ranges[2 * i + 1])
                         if info["actuator_ctrllimited"][i] else rng.uniform(-1, 1)
                         for i in range(info["nu"])]
        handle = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        json.dump(state, handle)
        handle.close()
        common += ["--state", handle.name]
        ctrl = state["ctrl"]
    if "--no-derivatives" not in args:
        common += ["--derivatives"] + (["--centred"] if "--centred" in args else [])
    common += ["--inverse"]
    ours, error = dump([pliant, "dump", model, "--every", every] + common)
    if ours is None:
        print("Pliant: %s" % error)
        return 2
    theirs, error = dump(["node", os.path.join(HERE, "mujoco3.mjs"), "dump", model] + common)
    if theirs is None:
        print("MuJoCo 3.3.8: %s" % error)
        return 2
    theirs = [line for line in theirs if line["step"] % int(every) == 0]
    if "--centred" in args:
        # MuJoCo 3.3.8's centred sensor-control columns (D) come out with the
        # opposite sign where both nudges are taken: its centred difference
        # of sensors subtracts the forward nudge from the backward one (its
        # B, the same nudges differenced as states, has the right sign; a
        # control at the end of its range is differenced one-sided, with the
        # right sign). Pliant's D is the derivative; the comparison undoes
        # 3.3.8's sign in those columns.
        if "--key" in args:
            print("--centred with --key is not supported (the key's controls are not read)")
            return 2
        info, error = run_json(["node", os.path.join(HERE, "mujoco3.mjs"), "info", model,
                                "--fields", "nu,actuator_ctrlrange,actuator_ctrllimited"])
        if info is None or "error" in info:
            print("MuJoCo 3.3.8: %s" % (error or info["error"]))
            return 2
        nu, eps = info["nu"], 1e-6
        both = []
        for j in range(nu):
            u = ctrl[j] if ctrl else 0.0
            low, high = info["actuator_ctrlrange"][2 * j:2 * j + 2] if nu else (0, 0)
            limited = info["actuator_ctrllimited"][j]
            both.append(not limited or (low <= u - eps and u + eps <= high))
        for line in theirs:
            d = line.get("D", [])
            line["D"] = [-v if both[i % nu] else v for i, v in enumerate(d)]
    report = []
    most_contacts = 0
    for a, b in zip(ours, theirs):
        most_contacts = max(most_contacts, a["ncon"])
        if a["ncon"] != b["ncon"]:
            report.append((math.inf, "step %d: %d contacts against %d" % (a["step"], a["ncon"],
                                                                          b["ncon"])))
        state_error = 0.0
        for key, base in TOLERANCES.items():
            if key not in b:
                continue
            tol = base
            if key in ("jacobian", "qfrc_inverse", "efc_force_inverse"):
                tol = max(base, 100 * state_error)
            x, y = flat(a.get(key, [])), flat(b[key])
            if len(x) != len(y):
                report.append((math.inf, "step %d %s: %d values against %d" % (a["step"], key,
                                                                              len(x), len(y))))
                continue
            scale = [1.0] * len(x)
            if key in ROW_SIZES:
                width = ROW_SIZES[key](a)
                for start in range(0, len(x), max(width, 1)):
                    row = x[start:start + width] + y[start:start + width]
                    biggest = max([1.0] + [abs(v) for v in row])
                    scale[start:start + width] = [biggest] * len(row[:width])
            worst, where = 0.0, -1
            for i, (u, v) in enumerate(zip(x, y)):
                error = abs(u - v) / max(abs(u), abs(v), scale[i])
                if not error <= worst:
                    worst, where = error, i
            if key in ("qpos", "qvel"):
                state_error = max(state_error, worst)
            print("step %3d %-18s %6d values, worst %.2e (tolerance %.0e)" %
                  (a["step"], key, len(x), worst, tol))
            if not worst <= tol:
                report.append((worst / tol, "step %d %s[%d]: %.17g against %.17g" %
                               (a["step"], key, where, x[where], y[where])))
    if len(ours) != len(theirs) or not ours:
        report.append((math.inf, "%d printed steps against %d" % (len(ours), len(theirs))))
    needed = int(option("--min-contacts", "0"))
    if most_contacts < needed:
        report.append((math.inf, "at most %d contacts, %d asked" % (most_contacts, needed)))
    if report:
        for _, text in sorted(report, reverse=True)[:10]:
            print("DIFFERS: " + text)
        return 1
    print("%s: the toolbox agrees with MuJoCo 3.3.8 (%d steps, at most %d contacts)" %
          (os.path.basename(model), len(ours), most_contacts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
