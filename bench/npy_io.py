#!/usr/bin/env python3
"""`.npy` reading and writing of `loomc run` beside NumPy's `np.load` and `np.save`.

saxpy's arrays (examples/saxpy.loom: x and y read, y written) at 2^22 and 2^24 Float32
elements. Each round, in turn: a fresh Python process that times `np.load` of x and y and
`np.save` of y to a new file (a fresh process, as `loomc run` is: its arrays come from new
pages, not from memory an earlier round freed); then `loomc run` of saxpy with
`LOOM_IO_TIMES=1`, which prints the time of each `.npy` read and of the write of the output
(to a temporary file beside it, renamed into place; the rename is counted). Both write a file
that did not exist; the inputs are read from the page cache (read once before the rounds).
Medians over the rounds; the ratio is loomc's time over NumPy's, pair by pair. A second table
gives NumPy's figures when the same process loads and saves again (warm: Python's allocator may
hand back memory it freed, with its pages already there), beside loomc's.

Usage: bench/npy_io.py PATH/TO/loomc [--rounds N] [--sizes 22,24] [--save FILE.md]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

# Run in a fresh interpreter: prints load and save seconds.
NUMPY_SIDE = r"""
import os, sys, time
import numpy as np
x_path, y_path, out_path = sys.argv[1:4]
# np.load and np.save once on a small array first, so that their first call's costs (imports)
# are not counted.
np.save(out_path + ".warm.npy", np.arange(16, dtype=np.float32))
np.load(out_path + ".warm.npy")
os.unlink(out_path + ".warm.npy")
t = time.perf_counter()
x = np.load(x_path)
y = np.load(y_path)
load = time.perf_counter() - t
t = time.perf_counter()
np.save(out_path, y)
save = time.perf_counter() - t
# The same again in this process, now warm (its allocator may hand back the memory it freed):
# the median of three.
del x, y
loads, saves = [], []
for _ in range(3):
    t = time.perf_counter()
    x = np.load(x_path)
    y = np.load(y_path)
    loads.append(time.perf_counter() - t)
    os.unlink(out_path)
    t = time.perf_counter()
    np.save(out_path, y)
    saves.append(time.perf_counter() - t)
    del x, y
print(load, save, sorted(loads)[1], sorted(saves)[1])
"""


def numpy_round(d, n):
    out = f"{d}/np_out{n}.npy"
    if os.path.exists(out):
        os.unlink(out)
    # One BLAS thread: OpenBLAS's idle threads are no part of np.load's work.
    done = subprocess.run([sys.executable, "-c", NUMPY_SIDE, f"{d}/x{n}.npy", f"{d}/y{n}.npy", out],
                          capture_output=True, text=True, check=True,
                          env=dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1"))
    return tuple(map(float, done.stdout.split()))


def loomc_round(loomc, d, n):
    out = f"{d}/out{n}.npy"
    if os.path.exists(out):
        os.unlink(out)
    args = [loomc, "run", "examples/saxpy.loom", "--kernel", "saxpy",
            "--blocks", str((n + 255) // 256), "--arg", f"n={n}", "--arg", "a=2.5",
            "--in", f"x={d}/x{n}.npy", "--in", f"y={d}/y{n}.npy", "--out", f"y={out}"]
    done = subprocess.run(args, capture_output=True, text=True, check=True,
                          env=dict(os.environ, LOOM_IO_TIMES="1"))
    times = {}
    for what, ms in re.findall(r"^npy (read|write|rename) \S+: \d+ bytes in ([0-9.]+) ms$",
                               done.stderr, re.M):
        times[what] = times.get(what, 0.0) + float(ms) / 1e3
    if "read" not in times or "write" not in times:
        sys.exit(f"loomc run printed no LOOM_IO_TIMES lines:\n{done.stderr}")
    return times["read"], times["write"] + times.get("rename", 0.0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("loomc")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--sizes", default="22,24", help="powers of two, comma-separated")
    parser.add_argument("--save", help="also write the table (with the machine's state) here")
    opts = parser.parse_args()
    sizes = [1 << int(p) for p in opts.sizes.split(",")]
    load_before = open("/proc/loadavg").read().split()[:3]
    rows, warm = [], []
    # On disk, not in /tmp (which may be a tmpfs): beside the build's outputs.
    Path("target").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir="target", prefix="npy-bench-") as d:
        rng = np.random.default_rng(1)
        for n in sizes:
            np.save(f"{d}/x{n}.npy", rng.random(n, dtype=np.float32))
            np.save(f"{d}/y{n}.npy", rng.random(n, dtype=np.float32))
            np.load(f"{d}/x{n}.npy"), np.load(f"{d}/y{n}.npy")  # in the page cache
        for n in sizes:
            numpy_times, loomc_times = [], []
            loomc_round(opts.loomc, d, n)  # warm-up of both
            numpy_round(d, n)
            for _ in range(opts.rounds):
                numpy_times.append(numpy_round(d, n))
                loomc_times.append(loomc_round(opts.loomc, d, n))
            expected = np.load(f"{d}/y{n}.npy") + np.float32(2.5) * np.load(f"{d}/x{n}.npy")
            if not np.array_equal(np.load(f"{d}/out{n}.npy"), expected):
                sys.exit("loomc run's saxpy output differs from NumPy's")

            def med(rs, i):
                return statistics.median(r[i] for r in rs)

            def ratio(loomc_part, numpy_part):
                # Pair by pair (the two ran next to each other), then the median.
                return statistics.median(loomc_part(l) / numpy_part(p)
                                         for l, p in zip(loomc_times, numpy_times))

            read, write, both = (lambda r: r[0]), (lambda r: r[1]), (lambda r: r[0] + r[1])
            best = min(map(both, loomc_times)) / min(map(both, numpy_times))
            rows.append((n, med(numpy_times, 0), med(loomc_times, 0), med(numpy_times, 1),
                         med(loomc_times, 1), ratio(read, read), ratio(write, write),
                         ratio(both, both), best))
            warm.append((n, med(numpy_times, 2), med(numpy_times, 3),
                         ratio(read, lambda r: r[2]), ratio(write, lambda r: r[3]),
                         ratio(both, lambda r: r[2] + r[3])))
    load_after = open("/proc/loadavg").read().split()[:3]
    lines = [
        f".npy I/O of saxpy's arrays (Float32; x, y read, y written), medians of {opts.rounds} "
        "interleaved rounds, each side in a fresh process; ratio = loomc / NumPy, pair by pair "
        "(their median); the ratio of the bests compares each side's fastest round (read + write)",
        "",
        "| size | NumPy load x, y ms | loomc read x, y ms | NumPy save y ms | loomc write y ms "
        "| read ratio | write ratio | ratio | ratio of the bests |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for n, np_load, l_read, np_save, l_write, r_read, r_write, r_all, r_best in rows:
        lines.append(f"| 2^{n.bit_length() - 1} ({3 * n * 4 / 1e6:.0f} MB) | {np_load * 1e3:.1f} "
                     f"| {l_read * 1e3:.1f} | {np_save * 1e3:.1f} | {l_write * 1e3:.1f} "
                     f"| {r_read:.2f} | {r_write:.2f} | {r_all:.2f} | {r_best:.2f} |")
    lines += [
        "",
        "NumPy again in the same process, warm (the median of 3 there; its allocator may reuse the "
        "memory it freed, which a new `loomc run` cannot), beside loomc's figures above",
        "",
        "| size | NumPy load, warm ms | NumPy save, warm ms | read ratio | write ratio | ratio |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for n, w_load, w_save, r_read, r_write, r_all in warm:
        lines.append(f"| 2^{n.bit_length() - 1} | {w_load * 1e3:.1f} | {w_save * 1e3:.1f} "
                     f"| {r_read:.2f} | {r_write:.2f} | {r_all:.2f} |")
    table = "\n".join(lines)
    print(table)
    if opts.save:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True).stdout.strip()
        with open(opts.save, "a") as f:
            if f.tell():
                f.write("\n")
            f.write(f"## Run of {time.strftime('%Y-%m-%dT%H:%MZ', time.gmtime())} at {commit}\n\n")
            cores = os.cpu_count() or 1
            busy = max(float(load_before[0]), float(load_after[0]))
            state = ("loaded: shared with other work" if busy >= cores / 2
                     else "quiet")
            try:
                thp = open("/sys/kernel/mm/transparent_hugepage/enabled").read().strip()
            except OSError:
                thp = "unknown"
            f.write(f"{os.uname().machine}, {cores} cores, Linux {os.uname().release}, "
                    f"{state} (load average {' '.join(load_before)} before, "
                    f"{' '.join(load_after)} after); transparent huge pages: {thp}; NumPy "
                    f"{np.__version__}\n\n")
            f.write(table + "\n")
        print(f"appended to {opts.save}")


main()
