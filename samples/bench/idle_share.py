#!/usr/bin/env python3
"""How much of a two-thread step leaves one thread idle (Linux `perf`).

On a noisy machine the wall time of one build against another at two
threads moves more than most changes do; what a run measures against
itself moves less. This samples both threads of `pliant bench --box-pile N
--threads 2` with `perf record -e cpu-clock` and pairs each sample of one
thread with the other thread's nearest sample in time (within 0.8 ms). A
sample counts as idle when the thread is spinning or sleeping in the pool
or the helped loop (the symbols in IDLE), and as serial when it is busy
while the other thread's paired sample is idle. Only the timed steps are
read (the last steps x us_per_step of the run).

Printed per build (medians over the repetitions, the builds alternated):
the time per step, the share of the driver's samples that were serial
(the busier thread's), the share of both threads' samples that were idle,
and the bound on two threads' speed-up the serial share gives with the rest
shared perfectly, 1 / (s + (1 - s) / 2). With --symbols K, the K functions
most often serial in the last repetition.

    python3 samples/bench/idle_share.py --cli build/bench/samples/pliant/pliant \\
        [--cli OTHER_BUILD] [--boxes 3000] [--warmup 300] [--steps 60] \\
        [--repetitions 3] [--symbols 15]
"""

import argparse
import bisect
import collections
import json
import os
import re
import statistics
import subprocess
import tempfile

# Where a thread waits: the pool's and the helped loop's spins, the
# scheduler, and samples perf could not name.
IDLE = re.compile(r"help_until_finished|ThreadPool::work|HelpedLoop::run$|HelpedLoop::help$|"
                  r"BlockCholesky::take_updates$|__schedule|sched_yield|^\[unknown\]|futex|finish_task_switch")
PAIRING_SECONDS = 0.0008


def short_name(symbol):
    symbol = symbol.replace("(anonymous namespace)::", "")
    if symbol.startswith("pliant::parallel_for"):
        return symbol[:100]
    return re.sub(r"\(.*", "", symbol)


def sample(cli, boxes, warmup, steps, data_file):
    result = subprocess.run(
        ["perf", "record", "-q", "-e", "cpu-clock", "-F", "1000", "-o", data_file, cli, "bench",
         "--box-pile", str(boxes), "--warmup", str(warmup), "--steps", str(steps), "--threads", "2"],
        check=True, capture_output=True, text=True)
    report = json.loads(result.stdout.strip().splitlines()[-1])
    script = subprocess.run(["perf", "script", "-i", data_file, "-F", "tid,time,ip,sym"],
                            check=True, capture_output=True, text=True).stdout
    threads = collections.defaultdict(list)
    for line in script.splitlines():
        parts = line.split(None, 3)
        if len(parts) < 4:
            continue
        tid, time, _, symbol = parts
        threads[tid].append((float(time.rstrip(":")), short_name(symbol.strip())))
    return report, threads


def shares(report, threads):
    busiest = sorted(threads, key=lambda t: -len(threads[t]))[:2]
    if len(busiest) < 2:
        raise SystemExit("perf saw fewer than two threads: is the step on two threads?")
    end = max(t for tid in busiest for t, _ in threads[tid])
    start = end - report["us_per_step"] * report["steps"] * 1e-6
    window = {tid: [(t, s) for t, s in threads[tid] if t > start] for tid in busiest}
    result = {}
    for tid, other in (busiest, busiest[::-1]):
        times = [t for t, _ in window[other]]
        total = idle = serial = 0
        serial_symbols = collections.Counter()
        for t, symbol in window[tid]:
            k = bisect.bisect_left(times, t)
            near = min((j for j in (k - 1, k) if 0 <= j < len(times)),
                       key=lambda j: abs(times[j] - t), default=None)
            if near is None or abs(times[near] - t) > PAIRING_SECONDS:
                continue
            total += 1
            if IDLE.search(symbol):
                idle += 1
            elif IDLE.search(window[other][near][1]):
                serial += 1
                serial_symbols[symbol] += 1
        result[tid] = (total, idle, serial, serial_symbols)
    driver = max(result, key=lambda tid: result[tid][2])
    total, _, serial, symbols = result[driver]
    both_total = sum(r[0] for r in result.values())
    both_idle = sum(r[1] for r in result.values())
    return serial / max(total, 1), both_idle / max(both_total, 1), symbols


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cli", action="append", required=True,
                        help="a build's `pliant` command line tool (repeat to compare builds)")
    parser.add_argument("--boxes", type=int, default=3000)
    parser.add_argument("--warmup", type=int, default=300)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--symbols", type=int, default=0)
    args = parser.parse_args()

    runs = {cli: [] for cli in args.cli}
    last_symbols = {}
    with tempfile.TemporaryDirectory() as scratch:
        data_file = os.path.join(scratch, "perf.data")
        for _ in range(args.repetitions):
            for cli in args.cli:
                report, threads = sample(cli, args.boxes, args.warmup, args.steps, data_file)
                serial, idle, symbols = shares(report, threads)
                runs[cli].append((report["us_per_step"], serial, idle, report["state_digest"]))
                last_symbols[cli] = symbols

    print(f"Pile of {args.boxes} boxes on 2 threads, {args.steps} timed steps after "
          f"{args.warmup}; medians of {args.repetitions} [range]\n")
    print("| build | us/step | serial share of the driver | idle share of both | "
          "speed-up bound | state digest |")
    print("|---|---:|---:|---:|---:|---|")
    for cli, rows in runs.items():
        def column(k, scale=1.0, digits=1):
            values = [r[k] * scale for r in rows]
            return (f"{statistics.median(values):.{digits}f} "
                    f"[{min(values):.{digits}f}-{max(values):.{digits}f}]")
        serial = statistics.median(r[1] for r in rows)
        digests = ",".join(sorted({r[3] for r in rows}))
        print(f"| {cli} | {column(0, digits=0)} | {column(1, 100)} % | {column(2, 100)} % | "
              f"{1 / (serial + (1 - serial) / 2):.2f} | {digests} |")
    if args.symbols:
        for cli, symbols in last_symbols.items():
            print(f"\nMost often serial ({cli}, last repetition, samples):")
            for symbol, count in symbols.most_common(args.symbols):
                print(f"  {count:5d}  {symbol}")


if __name__ == "__main__":
    main()
