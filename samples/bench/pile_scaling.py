#!/usr/bin/env python3
"""Cost per contact of settled box piles, Pliant alone (`pliant bench`).

Each pile (layers of boxes dropped onto a plane) settles for 600 untimed
steps, then a number of steps is timed; each size runs three times and the
table shows the median time per step with its range, the mean contacts, the
median time per contact, and that time against the 300-box pile's: the
scaling goal is at most 1.5 at 1000 boxes.

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
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--sizes", default="100,300,1000,3000")
    parser.add_argument("--hessian-factor", choices=["envelope", "blocks"])
    args = parser.parse_args()
    extra = ["--hessian-factor", args.hessian_factor] if args.hessian_factor else []
    rows, reference = [], None
    for boxes in [int(s) for s in args.sizes.split(",")]:
        steps = 1000 if boxes <= 1000 else 100
        runs = [run(args.cli, boxes, steps, extra) for _ in range(args.repetitions)]
        times = sorted(r["us_per_step"] for r in runs)
        contacts = statistics.mean(r["ncon_mean"] for r in runs)
        per_contact = statistics.median(r["us_per_step"] / r["ncon_mean"] for r in runs)
        iterations = statistics.mean(r["solver_iter_mean"] for r in runs)
        if boxes == 300:
            reference = per_contact
        rows.append((boxes, steps, times, contacts, iterations, per_contact))
    print("| boxes | timed steps x runs | us/step (median, range) | contacts | Newton iterations "
          "| us/contact | against 300 boxes |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for boxes, steps, times, contacts, iterations, per_contact in rows:
        against = f"**{per_contact / reference:.2f}**" if reference else ""
        print(f"| {boxes} | {steps} x {len(times)} | {statistics.median(times):.0f} "
              f"({times[0]:.0f}-{times[-1]:.0f}) | {contacts:.0f} | {iterations:.2f} "
              f"| {per_contact:.2f} | {against} |")


if __name__ == "__main__":
    main()
