#!/usr/bin/env python3
"""Height-field contacts of Pliant against MuJoCo 3.3.8's, over random poses.

    compare_hfield_contacts.py PLIANT TYPE [--poses N] [--seed S] [--tol T]
                               [--native] [--dist-only]

TYPE is sphere, capsule, ellipsoid, cylinder, box or mesh (a convex inline
mesh). The script writes a model with a random 12 x 14 height field and a free
body carrying one geom of that type, with one keyframe per random pose: the
geom over the field (some poses beyond its edges), turned at random, at the
field's surface plus up to half its size above or below. Both engines print
the contacts of every keyframe (`--each-key`) with MuJoCo 3.3.8's native
convex collision turned off (`--disable nativeccd`): both then use MPR; with
`--native` both keep their default GJK and EPA. Per pose the contact counts must agree; each MuJoCo
contact is matched to the nearest Pliant contact, and dist, pos and the frame
must agree to T (default 1e-9). Both engines take the same MPR steps on the
same prisms, so they differ by the round-off of the frame changes only
(measured: 2.9e-10 at worst, a cylinder's normal; 5e-12 in dist). With
`--native`, EPA stops within ccd_tolerance (1e-6) of the depth on each
engine's own path, so dist agrees to that, and pos and the frame only to
about its square root: `--dist-only` then compares dist alone (the counts
always). Exits 0 when every pose agrees, 1 otherwise.
"""
import json
import math
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
NROW, NCOL = 12, 14
SIZE = (1.0, 0.9, 0.3, 0.1)

GEOMS = {
    "sphere": ('type="sphere" size="0.15"', 0.15),
    "capsule": ('type="capsule" size="0.08 0.15"', 0.23),
    "ellipsoid": ('type="ellipsoid" size="0.14 0.1 0.08"', 0.14),
    "cylinder": ('type="cylinder" size="0.1 0.08"', 0.13),
    "box": ('type="box" size="0.12 0.09 0.07"', 0.17),
    "mesh": ('type="mesh" mesh="rock"', 0.16),
    # Fewer than 10 vertices: MuJoCo 3.3.8 scans them all, in the file's
    # order, where it climbs a larger hull.
    "cube": ('type="mesh" mesh="cube"', 0.17),
}
ROCK = ("0.13 0.01 0.02  -0.11 0.03 -0.01  0.02 0.12 0.03  -0.01 -0.1 0.02  "
        "0.03 0.02 0.11  0.01 -0.02 -0.12  0.08 0.07 -0.05  -0.07 -0.06 0.06  "
        "0.06 -0.08 0.07  -0.05 0.08 -0.07")
# The box of GEOMS["box"] as a mesh, corners in an order no hull keeps.
CUBE = ("0.12 0.09 0.07  -0.12 -0.09 -0.07  -0.12 0.09 0.07  0.12 -0.09 -0.07  "
        "0.12 -0.09 0.07  -0.12 0.09 -0.07  -0.12 -0.09 0.07  0.12 0.09 -0.07")


def model_xml(kind, poses, elevation):
    lines = ['<mujoco model="hfield_%s">' % kind,
             '  <asset>',
             '    <hfield name="field" nrow="%d" ncol="%d" size="%g %g %g %g" elevation="%s"/>'
             % (NROW, NCOL, *SIZE, " ".join("%.6f" % e for e in elevation)),
             '    <mesh name="rock" vertex="%s"/>' % ROCK,
             '    <mesh name="cube" vertex="%s"/>' % CUBE,
             '  </asset>',
             '  <worldbody>',
             '    <geom name="field" type="hfield" hfield="field" margin="0.005"/>',
             '    <body name="object">',
             '      <freejoint/>',
             '      <geom name="object" %s/>' % GEOMS[kind][0],
             '    </body>',
             '  </worldbody>',
             '  <keyframe>']
    for qpos in poses:
        lines.append('    <key qpos="%s"/>' % " ".join("%.15g" % v for v in qpos))
    lines += ['  </keyframe>', '</mujoco>']
    return "\n".join(lines) + "\n"


def surface(elevation, x, y):
    """Bilinear elevation under (x, y), clamped to the field."""
    c = min(max((x + SIZE[0]) / (2 * SIZE[0]) * (NCOL - 1), 0), NCOL - 1.000001)
    r = min(max((y + SIZE[1]) / (2 * SIZE[1]) * (NROW - 1), 0), NROW - 1.000001)
    c0, r0 = int(c), int(r)
    fc, fr = c - c0, r - r0
    e = lambda rr, cc: elevation[rr * NCOL + cc]
    top = (e(r0, c0) * (1 - fc) + e(r0, c0 + 1) * fc) * (1 - fr) + \
          (e(r0 + 1, c0) * (1 - fc) + e(r0 + 1, c0 + 1) * fc) * fr
    return top * SIZE[2]


def random_poses(kind, count, rng, elevation):
    reach = GEOMS[kind][1]
    poses = []
    for _ in range(count):
        x = rng.uniform(-1.1 * SIZE[0], 1.1 * SIZE[0])
        y = rng.uniform(-1.1 * SIZE[1], 1.1 * SIZE[1])
        z = surface(elevation, x, y) + rng.uniform(-0.5, 1.0) * reach
        q = [rng.gauss(0, 1) for _ in range(4)]
        n = math.sqrt(sum(v * v for v in q))
        poses.append([x, y, z] + [v / n for v in q])
    return poses


def run(command):
    result = subprocess.run(command, capture_output=True, text=True, timeout=1200)
    lines = [json.loads(l) for l in result.stdout.splitlines() if l.startswith("{")]
    if result.returncode != 0 or not lines or "error" in lines[0]:
        sys.exit("%s failed: %s" % (command[0], (result.stdout + result.stderr)[-2000:]))
    return lines


def contacts_of(line):
    out = []
    for c in line["contacts"]:
        g = c["g"] if "g" in c else [c["geom1"], c["geom2"]]
        out.append({"g": [int(g[0]), int(g[1])], "dist": c["dist"], "pos": c["pos"],
                    "frame": c["frame"]})
    return out


def dump_both(pliant, text, disable):
    """Both engines' contacts at every keyframe of the model `text` (one JSON
    line per pose each), or None after saying why they cannot be compared."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "model.xml")
        with open(path, "w") as f:
            f.write(text)
        ours = run([pliant, "dump", path, "--each-key"] + disable)
        theirs = run(["node", os.path.join(HERE, "mujoco3.mjs"), "dump", path, "--each-key"] +
                     disable)
    if len(ours) != len(theirs):
        print("Pliant printed %d poses, MuJoCo 3.3.8 %d" % (len(ours), len(theirs)))
        return None
    return ours, theirs


def print_failures(failures, limit=20):
    """Prints the first failures; the exit code (1 when any)."""
    for f in failures[:limit]:
        print("  " + f)
    if len(failures) > limit:
        print("  ... %d more" % (len(failures) - limit))
    return 1 if failures else 0


def compare_poses(ours, theirs, tolerance, dist_only=False):
    """Per pose: equal contact counts, and each MuJoCo contact against the
    nearest Pliant contact in dist, pos and frame (dist alone with
    dist_only). Returns the worst errors, the failures, the number of MuJoCo
    contacts and of poses with contacts."""
    worst = {"dist": 0.0, "pos": 0.0, "frame": 0.0}
    failures, total, touching = [], 0, 0
    for k, (a, b) in enumerate(zip(ours, theirs)):
        ca, cb = contacts_of(a), contacts_of(b)
        total += len(cb)
        touching += bool(cb)
        if len(ca) != len(cb):
            failures.append("pose %d: Pliant %d contacts, MuJoCo 3.3.8 %d" % (k, len(ca), len(cb)))
            continue
        for c in cb:
            best = min(ca, key=lambda o: sum((o["pos"][i] - c["pos"][i]) ** 2 for i in range(3)))
            errors = {
                "dist": abs(best["dist"] - c["dist"]),
                "pos": math.sqrt(sum((best["pos"][i] - c["pos"][i]) ** 2 for i in range(3))),
                "frame": max(abs(best["frame"][i] - c["frame"][i]) for i in range(9)),
            }
            for name, e in errors.items():
                worst[name] = max(worst[name], e)
            checked = ["dist"] if dist_only else list(errors)
            bad = [n for n in checked if errors[n] > tolerance]
            if bad:
                failures.append("pose %d: %s differ (dist %.12g vs %.12g, pos error %.3g, "
                                "frame error %.3g)" % (k, ",".join(bad), best["dist"], c["dist"],
                                                       errors["pos"], errors["frame"]))
    return worst, failures, total, touching


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in GEOMS:
        print(__doc__)
        return 2
    pliant, kind = sys.argv[1], sys.argv[2]
    native = "--native" in sys.argv
    dist_only = "--dist-only" in sys.argv
    arguments = [a for a in sys.argv[3:] if a not in ("--native", "--dist-only")]
    options = dict(zip(arguments[0::2], arguments[1::2]))
    count = int(options.get("--poses", "500"))
    tolerance = float(options.get("--tol", "1e-9"))
    rng = random.Random(int(options.get("--seed", "1")))
    elevation = [rng.random() for _ in range(NROW * NCOL)]
    poses = random_poses(kind, count, rng, elevation)
    text = model_xml(kind, poses, elevation)
    disable = [] if native else ["--disable", "nativeccd"]
    both = dump_both(pliant, text, disable)
    if both is None:
        return 1
    ours, theirs = both
    worst, failures, total, touching = compare_poses(ours, theirs, tolerance, dist_only)
    print("%s on a height field: %d poses, %d touching, %d MuJoCo 3.3.8 contacts; worst dist %.3g,"
          " pos %.3g, frame %.3g (tolerance %g)" % (kind, count, touching, total, worst["dist"],
                                                    worst["pos"], worst["frame"], tolerance))
    return print_failures(failures)


if __name__ == "__main__":
    sys.exit(main())
