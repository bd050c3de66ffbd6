#!/usr/bin/env python3
"""Contacts of two convex geoms, Pliant against MuJoCo 3.3.8, over random poses.

    compare_pair_contacts.py PLIANT TYPE1 TYPE2 [--poses N] [--seed S] [--shallow | --aligned]
                             [--margin M] [--tol T] [--dist-only] [--disable nativeccd]
                             [--enable multiccd]

TYPE1 and TYPE2 are sphere, capsule, ellipsoid, cylinder, box, mesh (the
convex inline mesh of compare_hfield_contacts.py, 10 vertices) or cube (the
box as an 8-vertex mesh). The script writes a model
with two free bodies, one geom each, and one keyframe per random pose: the
first body at the origin, the second at a random direction and a distance
between 0.3 and 1.1 times the sum of the bounding radii (0.85 to 1.02 with
`--shallow`: mostly grazing contacts), both turned at random; `--aligned` turns both by rotations with exact
matrices and puts the second beside the first along an axis (stacked boxes,
where support searches tie). Both engines print the contacts of every keyframe (`--each-key`),
with their default convex collision (GJK and EPA, `nativeccd`) unless
`--disable nativeccd` is given; `--enable multiccd` sets that flag in the
model (several contacts per pair). Per pose the contact counts must agree and
each MuJoCo contact is matched to the nearest Pliant contact; dist must agree
to T (default 1e-9), and pos and the frame too unless `--dist-only` is given
(EPA stops within ccd_tolerance of the depth; along a flat or gently curved
surface the witness points and the normal are then fixed only to about the
square root of that). Prints the worst errors; exits 0 when every pose
agrees, 1 otherwise.
"""
import math
import random
import sys

from compare_hfield_contacts import CUBE, GEOMS, ROCK, compare_poses, dump_both, print_failures

def random_quat(rng):
    q = [rng.gauss(0, 1) for _ in range(4)]
    n = math.sqrt(sum(v * v for v in q))
    return [v / n for v in q]


def model_xml(first, second, margin, poses, enable=None):
    flag = '<flag %s="enable"/>' % enable if enable else ''
    lines = ['<mujoco model="pair_%s_%s">' % (first, second),
             '  <option gravity="0 0 0">%s</option>' % flag,
             '  <asset>',
             '    <mesh name="rock" vertex="%s"/>' % ROCK,
             '    <mesh name="cube" vertex="%s"/>' % CUBE,
             '  </asset>',
             '  <worldbody>']
    for name, kind in (("a", first), ("b", second)):
        lines += ['    <body name="%s">' % name,
                  '      <freejoint/>',
                  '      <geom name="%s" %s margin="%g"/>' % (name, GEOMS[kind][0], margin),
                  '    </body>']
    lines += ['  </worldbody>', '  <keyframe>']
    for qpos in poses:
        lines.append('    <key qpos="%s"/>' % " ".join("%.15g" % v for v in qpos))
    lines += ['  </keyframe>', '</mujoco>']
    return "\n".join(lines) + "\n"


def random_poses(first, second, count, rng, spread):
    reach = GEOMS[first][1] + GEOMS[second][1]
    poses = []
    for _ in range(count):
        d = [rng.gauss(0, 1) for _ in range(3)]
        n = math.sqrt(sum(v * v for v in d))
        r = rng.uniform(*spread) * reach
        poses.append([0, 0, 0] + random_quat(rng) + [r * v / n for v in d] + random_quat(rng))
    return poses


# The rotations of the tetrahedral group, whose matrices are exact in
# binary (entries 0 and +-1): faces, edges and corners of two box-like
# shapes line up, and support searches meet exact ties.
EXACT_TURNS = ([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]] +
               [[0.5, x, y, z] for x in (0.5, -0.5) for y in (0.5, -0.5) for z in (0.5, -0.5)])


def aligned_poses(first, second, count, rng):
    """Both shapes turned by EXACT_TURNS, the second beside the first along
    an axis (0.5 to 1 of the bounding radii), shifted sideways by multiples
    of 1/128: the poses of boxes stacked or side by side."""
    reach = GEOMS[first][1] + GEOMS[second][1]
    poses = []
    for _ in range(count):
        axis = rng.randrange(3)
        offset = [round(rng.uniform(-0.05, 0.05) * 128) / 128 for _ in range(3)]
        offset[axis] = rng.choice((1, -1)) * round(rng.uniform(0.5, 1.0) * reach * 1024) / 1024
        poses.append([0, 0, 0] + rng.choice(EXACT_TURNS) + offset + rng.choice(EXACT_TURNS))
    return poses


def main():
    args = sys.argv[1:]
    dist_only = "--dist-only" in args
    shallow = "--shallow" in args
    aligned = "--aligned" in args
    args = [a for a in args if a not in ("--dist-only", "--shallow", "--aligned")]
    if len(args) < 3 or args[1] not in GEOMS or args[2] not in GEOMS:
        print(__doc__)
        return 2
    pliant, first, second = args[:3]
    options = dict(zip(args[3::2], args[4::2]))
    count = int(options.get("--poses", "500"))
    tolerance = float(options.get("--tol", "1e-9"))
    margin = float(options.get("--margin", "0"))
    disable = ["--disable", options["--disable"]] if "--disable" in options else []
    rng = random.Random(int(options.get("--seed", "1")))
    if aligned:
        poses = aligned_poses(first, second, count, rng)
    else:
        poses = random_poses(first, second, count, rng, (0.85, 1.02) if shallow else (0.3, 1.1))
    xml = model_xml(first, second, margin, poses, options.get("--enable"))
    both = dump_both(pliant, xml, disable)
    if both is None:
        return 1
    ours, theirs = both
    worst, failures, total, _ = compare_poses(ours, theirs, tolerance, dist_only)
    print("%s-%s: %d poses, %d MuJoCo 3.3.8 contacts; worst dist %.3g, pos %.3g, frame %.3g "
          "(tolerance %g%s)" % (first, second, count, total, worst["dist"], worst["pos"],
                                worst["frame"], tolerance, ", dist only" if dist_only else ""))
    return print_failures(failures)


if __name__ == "__main__":
    sys.exit(main())
