#!/usr/bin/env python3
"""Compares a trajectory of Pliant with MuJoCo 3.3.8's, step by step.

    compare_dumps.py PLIANT MODEL.xml [--steps N] [--disable a,b] [--tol T]
                     [--sensor-tol S] [--key K] [--contacts MIN [--contact-tol C]]
                     [--parting MIN [--parting-tol P]]
                     [--edit NAME:INDEX:VALUE,... [--set-const yes]]
                     [--reference-fields f1,f2]

Both engines start at qpos0 with zero ctrl, or at keyframe K (its ctrl held
throughout), and step N times (default 200)
with the MuJoCo disable flags named; each printed state (qpos, qvel, act,
qacc, sensordata) must agree to T (default 1e-8; sensordata to S, default T)
relative to max(1, |value|). Exits 0
when they agree at every step, 1 naming the first step and field that does
not, 2 when a model does not load.

--reference-fields copies the named compiled fields of MuJoCo 3.3.8 into
Pliant's model (as --edit does) before stepping: the trajectory then tests
the dynamics alone where a compiled field is a named, measured difference
(docs/mujoco3-differences.md) that would otherwise hide it.

With --contacts MIN the states are compared only while the two engines'
contacts agree (same count, geoms, and dist, pos and normal within C,
default 1e-9): at the first step where they do not, the comparison stops,
says so, and passes if at least MIN steps agreed before.

With --parting MIN, a trajectory that parts from 3.3.8's (state beyond T, or
contacts beyond C) at step s >= MIN is checked for where the parting comes
from: Pliant steps once from 3.3.8's own state at s (qpos, qvel, act, and
3.3.8's qacc of step s - 1 as the warm start). The parting is round-off, and
the test passes, when from that state Pliant's contacts equal 3.3.8's
(count, geoms; dist, pos and normal within 1e-12) and its qacc is within
--parting-tol (default 1e-10, a hundredth of T): the same state gives the
same contacts and rows and the same step but for the last bits, so the rule
is the same and the parting grows from round-off. A parting before MIN, or
one that the same state reproduces, fails.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def dump(command):
    result = subprocess.run(command, capture_output=True, text=True, timeout=1200)
    lines = [json.loads(l) for l in result.stdout.splitlines() if l.startswith("{")]
    if result.returncode != 0 or not lines or "error" in lines[0]:
        text = (result.stdout + result.stderr).strip().splitlines()
        return None, text[-1] if text else "exit %d" % result.returncode
    return lines, None


def reference_fields(model, names):
    """MuJoCo 3.3.8's compiled fields `names` of `model`, as flat lists."""
    result = subprocess.run(["node", os.path.join(HERE, "mujoco3.mjs"), "info", model, "--fields",
                             ",".join(names)], capture_output=True, text=True, timeout=600)
    lines = [l for l in result.stdout.splitlines() if l.startswith("{")]
    if result.returncode != 0 or not lines:
        return None, (result.stdout + result.stderr).strip()[-200:]
    fields = json.loads(lines[-1])
    if "error" in fields or any(not isinstance(fields.get(n), list) for n in names):
        return None, "no field among %s" % ",".join(names)
    return fields, None


def contacts_differ(a, b, tol):
    """Why the two steps' contacts differ (count, geoms, dist, pos, normal), or ''."""
    ours, theirs = a.get("contacts", []), b.get("contacts", [])
    if len(ours) != len(theirs):
        return "%d contacts against %d" % (len(ours), len(theirs))
    for i, (c, d) in enumerate(zip(ours, theirs)):
        if list(map(int, c["g"])) != [d["geom1"], d["geom2"]]:
            return "contact %d between other geoms" % i
        errors = [abs(c["dist"] - d["dist"])] + \
                 [abs(u - v) for u, v in zip(c["pos"], d["pos"])] + \
                 [abs(u - v) for u, v in zip(c["frame"][:3], d["frame"][:3])]
        if max(errors) > tol:
            return "contact %d off by %.3g" % (i, max(errors))
    return ""


def parting_is_round_off(pliant, model, extra, theirs, step, tol):
    """Steps Pliant once from 3.3.8's state at `step`; '' when its contacts
    and qacc agree with 3.3.8's there (to 1e-12 and `tol`), else why not."""
    state = {name: theirs[step][name] for name in ("qpos", "qvel", "act")}
    state["qacc_warmstart"] = theirs[step - 1]["qacc"]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(state, handle)
    try:
        ours, error = dump([pliant, "dump", model, "--steps", "1", "--state", handle.name] + extra)
    finally:
        os.unlink(handle.name)
    if ours is None:
        return "Pliant does not run from 3.3.8's state: %s" % error
    differ = contacts_differ(ours[0], theirs[step], 1e-12)
    if differ:
        return "from 3.3.8's state the contacts differ (%s)" % differ
    worst = max((abs(u - v) / max(1.0, abs(u), abs(v))
                 for u, v in zip(ours[0]["qacc"], theirs[step]["qacc"])), default=0.0)
    if worst > tol:
        return "from 3.3.8's state qacc differs by %.3g (> %g)" % (worst, tol)
    return ""


def main():
    pliant, model = sys.argv[1], sys.argv[2]
    options = dict(zip(sys.argv[3::2], sys.argv[4::2]))
    steps = options.get("--steps", "200")
    disable = options.get("--disable", "")
    tol = float(options.get("--tol", "1e-8"))
    sensor_tol = float(options.get("--sensor-tol", str(tol)))
    extra = ["--disable", disable] if disable else []
    if "--key" in options:
        extra += ["--key", options["--key"]]
    # --edit NAME:INDEX:VALUE,... and --set-const yes: the same model changes
    # in both engines before stepping (a randomised model).
    for edit in filter(None, options.get("--edit", "").split(",")):
        extra += ["--edit", edit]
    if options.get("--set-const") == "yes":
        extra.append("--set-const")
    # The copies go first, so that --edit still changes what they set.
    ours_extra = []
    copied = list(filter(None, options.get("--reference-fields", "").split(",")))
    if copied:
        fields, error = reference_fields(model, copied)
        if fields is None:
            print("MuJoCo 3.3.8 does not load %s: %s" % (model, error))
            return 2
        for name in copied:
            for i, value in enumerate(fields[name]):
                ours_extra += ["--edit", "%s:%d:%r" % (name, i, value)]
    ours_extra += extra
    ours, error = dump([pliant, "dump", model, "--steps", steps] + ours_extra)
    if ours is None:
        print("Pliant does not run %s: %s" % (model, error))
        return 2
    theirs, error = dump(["node", os.path.join(HERE, "mujoco3.mjs"), "dump", model, "--steps",
                          steps] + extra)
    if theirs is None:
        print("MuJoCo 3.3.8 does not run %s: %s" % (model, error))
        return 2
    worst = (0.0, None)
    worst_sensor = 0.0
    contact_tol = float(options.get("--contact-tol", "1e-9"))

    worst_before = 0.0

    def parted(step, what):
        """The verdict on a parting at `step` (what: its description)."""
        print("%s: %s; the %d steps before agree with MuJoCo 3.3.8 within %g (worst %.3g)" %
              (model, what, step, tol, worst_before))
        if "--parting" not in options:
            return 1
        if step < int(options["--parting"]):
            print("parted before step %s" % options["--parting"])
            return 1
        why = parting_is_round_off(pliant, model, ours_extra, theirs, step,
                                   float(options.get("--parting-tol", "1e-10")))
        if why:
            print("not round-off: " + why)
            return 1
        print("round-off: from 3.3.8's own state at step %d Pliant's contacts and step agree" %
              step)
        return 0

    for a, b in zip(ours, theirs):
        worst_before = worst[0]
        if "--parting" in options:
            differ = contacts_differ(a, b, contact_tol)
            if differ:
                return parted(a["step"], "contacts differ at step %d (%s)" % (a["step"], differ))
        if "--contacts" in options:
            differ = contacts_differ(a, b, contact_tol)
            if differ:
                print("%s: contacts differ at step %d (%s); the %d steps before agree with MuJoCo "
                      "3.3.8 within %g (worst %.3g)" % (model, a["step"], differ, a["step"], tol,
                                                       worst[0]))
                minimum = int(options["--contacts"])
                if a["step"] < minimum:
                    print("fewer than the %d steps asked for" % minimum)
                    return 1
                return 0
        for field in ("qpos", "qvel", "act", "qacc", "sensordata"):
            x, y = a.get(field) or [], b.get(field) or []
            if len(x) != len(y):
                print("step %d: %s has %d values, MuJoCo 3.3.8 %d" %
                      (a["step"], field, len(x), len(y)))
                return 1
            for i, (u, v) in enumerate(zip(x, y)):
                error = abs(u - v) / max(1.0, abs(u), abs(v))
                if error > worst[0]:
                    worst = (error, (a["step"], field, i, u, v))
                if field == "sensordata":
                    worst_sensor = max(worst_sensor, error)
                if error > (sensor_tol if field == "sensordata" else tol):
                    if "--parting" in options and field != "sensordata":
                        return parted(a["step"], "step %d, %s[%d] = %.17g against 3.3.8's %.17g "
                                      "(relative %.3g > %g)" % (a["step"], field, i, u, v,
                                                                error, tol))
                    print("%s: step %d, %s[%d] = %.17g against MuJoCo 3.3.8's %.17g "
                          "(relative %.3g > %g)" % (model, a["step"], field, i, u, v, error,
                                                    sensor_tol if field == "sensordata" else tol))
                    return 1
    where = " in %s[%d] at step %d" % (worst[1][1], worst[1][2], worst[1][0]) if worst[1] else ""
    print("%s: %d steps%s agree with MuJoCo 3.3.8 within %g (worst %.3g%s; sensordata worst %.3g)" %
          (model, len(ours), " with " + disable + " disabled" if disable else "", tol, worst[0],
           where, worst_sensor))
    return 0


if __name__ == "__main__":
    sys.exit(main())
