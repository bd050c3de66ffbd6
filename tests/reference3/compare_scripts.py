#!/usr/bin/env python3
"""Runs a MuJoCo-style script of samples/python/mujoco_scripts on Pliant
(`import pliant.mujoco as mujoco`) and its twin on MuJoCo 3.3.8
(mujoco_scripts.mjs, the same calls), and compares what they print.

    compare_scripts.py SCRIPT MODEL.xml [--tol T]

Lines must match word for word, numbers within T relative to max(1,
|value|): 1e-9 by default (trajectories that agree to round-off), 1e-6
for scripts built on finite-difference derivatives (eps 1e-6 turns
round-off into 1e-10 .. 1e-7). Exits 0 when they agree, 1 naming the first
difference, 2 when one of them fails to run.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "..", "samples", "python", "mujoco_scripts")


def run(command):
    result = subprocess.run(command, capture_output=True, text=True, timeout=900)
    if result.returncode != 0:
        return None, (result.stdout + result.stderr).strip().splitlines()[-1:]
    return result.stdout.splitlines(), None


def number(word):
    try:
        return float(word)
    except ValueError:
        return None


def main():
    script, model = sys.argv[1], sys.argv[2]
    tol = float(sys.argv[sys.argv.index("--tol") + 1]) if "--tol" in sys.argv else 1e-9
    ours, error = run([sys.executable, os.path.join(SCRIPTS, script + ".py"), model])
    if ours is None:
        print("Pliant's run failed: %s" % error)
        return 2
    theirs, error = run(["node", os.path.join(HERE, "mujoco_scripts.mjs"), script, model])
    if theirs is None:
        print("MuJoCo 3.3.8's run failed: %s" % error)
        return 2
    if len(ours) != len(theirs):
        print("%d lines against MuJoCo 3.3.8's %d" % (len(ours), len(theirs)))
        return 1
    worst = 0.0
    values = 0
    for n, (a, b) in enumerate(zip(ours, theirs)):
        x, y = a.split(), b.split()
        if len(x) != len(y):
            print("line %d: %r against %r" % (n + 1, a[:120], b[:120]))
            return 1
        for u, v in zip(x, y):
            p, q = number(u), number(v)
            if p is None or q is None:
                if u != v:
                    print("line %d: %r against %r" % (n + 1, u, v))
                    return 1
                continue
            values += 1
            error = abs(p - q) / max(1.0, abs(p), abs(q))
            worst = max(worst, error)
            if not error <= tol:
                print("line %d: %s against MuJoCo 3.3.8's %s (%.2g > %.0e)" % (n + 1, u, v, error,
                                                                              tol))
                return 1
    print("%s: %d lines, %d numbers equal to MuJoCo 3.3.8's within %.0e (worst %.2g)" %
          (script, len(ours), values, tol, worst))
    return 0


if __name__ == "__main__":
    sys.exit(main())
