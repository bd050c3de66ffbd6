#!/usr/bin/env python3
"""Cost per contact of settled box piles, Pliant alone (`pliant bench`).

Each pile (layers of boxes dropped onto a plane) settles for 600 untimed
steps, then a number of steps is timed. A repetition runs every size once,
one after the other, so that a slow spell of the machine falls on all sizes
of one repetition rather than on one size; each size's cost per contact is
compared with the 300-box pile's of the same repetition. The table shows per
size the median time per step with its range, the mean contacts and Newton
iterations, the median time per contact, and the median of the
repetitions' ratios to 300 boxes with their range: the scaling goal is at
most 1.5 at 1000 boxes.

    python3 samples/bench/pile_scaling.py [--cli build/bench/samples/pliant/pliant]
"""

import argparse
import json
import statistics
import subprocess


def run(cli, boxes, steps, extra):
    out = subprocess.run(
        [cli, "bench", "--box-pile", str(boxes), "--warmup", "600", "--steps", str(steps)] + extra,
        check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default="build/bench/samples/pliant/pliant")
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--sizes", default="100,300,1000,3000")
    parser.add_argument("--hessian-factor", choices=["envelope", "blocks"])
    args = parser.parse_args()
    extra = ["--hessian-factor", args.hessian_factor] if args.hessian_factor else []
    sizes = [int(s) for s in args.sizes.split(",")]
    runs = {boxes: [] for boxes in sizes}
    for _ in range(args.repetitions):
        for boxes in sizes:
            runs[boxes].append(run(args.cli, boxes, 1000 if boxes <= 1000 else 100, extra))

    def per_contact(r):
        return r["us_per_step"] / r["ncon_mean"]

    print("| boxes | timed steps x runs | us/step (median, range) | contacts | Newton iterations "
          "| us/contact | against 300 boxes (median, range) |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for boxes in sizes:
        rs = runs[boxes]
        times = sorted(r["us_per_step"] for r in rs)
        against = ""
        if 300 in runs:
            ratios = sorted(per_contact(r) / per_contact(q) for r, q in zip(rs, runs[300]))
            against = (f"**{statistics.median(ratios):.2f}** "
                       f"({ratios[0]:.2f}-{ratios[-1]:.2f})")
        print(f"| {boxes} | {rs[0]['steps']} x {len(rs)} | {statistics.median(times):.0f} "
              f"({times[0]:.0f}-{times[-1]:.0f}) | {statistics.mean(r['ncon_mean'] for r in rs):.0f} "
              f"| {statistics.mean(r['solver_iter_mean'] for r in rs):.2f} "
              f"| {statistics.median(per_contact(r) for r in rs):.2f} | {against} |")


if __name__ == "__main__":
    main()
