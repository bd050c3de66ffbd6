#!/usr/bin/env python3
"""How long a pile of N free boxes takes to load (parse, compile, model
constants), per N: the median of R runs of `pliant bench --box-pile N
--steps 0` (each a fresh process) and their range.

    load_scaling.py PLIANT [--sizes 1000,3000,5000] [--repetitions 3]
"""
import json
import subprocess
import sys


def main():
    pliant = sys.argv[1]
    args = dict(zip(sys.argv[2::2], sys.argv[3::2]))
    sizes = [int(n) for n in args.get("--sizes", "1000,3000,5000").split(",")]
    repetitions = int(args.get("--repetitions", "3"))
    print("| boxes | load s, median [range] of %d |" % repetitions)
    print("|---|---|")
    for n in sizes:
        times = []
        for _ in range(repetitions):
            out = subprocess.run([pliant, "bench", "--box-pile", str(n), "--steps", "0"],
                                 capture_output=True, text=True, check=True).stdout
            times.append(json.loads(out.strip().splitlines()[-1])["load_seconds"])
        times.sort()
        print("| %d | %.3f [%.3f-%.3f] |" % (n, times[len(times) // 2], times[0], times[-1]))


if __name__ == "__main__":
    main()
