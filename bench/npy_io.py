#!/usr/bin/env python3
"""`.npy` input and output of `loomc run` beside NumPy's, on saxpy over 2^24 Float32 elements.

`loomc run` reads x and y and writes y; its I/O time is its wall time less the launch and the
JIT compilation it reports, less the same for a 16-element run (the fixed cost: the process, the
front end). NumPy's is np.load of x and y plus np.save of y. Best of 3 each. Prints a Markdown
table. Usage: bench/npy_io.py PATH/TO/loomc
"""
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

N = 1 << 24
REPEATS = 3


def best(f):
    times = []
    for _ in range(REPEATS):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def loomc_run(loomc, d, n):
    """(wall, launch + JIT) seconds of one `loomc run` of saxpy over n elements."""
    args = [loomc, "run", "examples/saxpy.loom", "--kernel", "saxpy",
            "--blocks", str((n + 255) // 256), "--arg", f"n={n}", "--arg", "a=2.5",
            "--in", f"x={d}/x{n}.npy", "--in", f"y={d}/y{n}.npy", "--out", f"y={d}/out{n}.npy"]
    t = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t
    jit = float(re.search(r"JIT compilation ([0-9.]+) ms", done.stderr).group(1))
    launch = float(re.search(r"threads: ([0-9.]+) ms", done.stderr).group(1))
    return wall, (jit + launch) / 1e3


def main():
    loomc = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        for n in (16, N):
            rng = np.random.default_rng(1)
            np.save(f"{d}/x{n}.npy", rng.random(n, dtype=np.float32))
            np.save(f"{d}/y{n}.npy", rng.random(n, dtype=np.float32))

        def numpy_io():
            x = np.load(f"{d}/x{N}.npy")
            y = np.load(f"{d}/y{N}.npy")
            np.save(f"{d}/np_out.npy", y)
            return x

        numpy_s = best(numpy_io)
        runs = {n: min((loomc_run(loomc, d, n) for _ in range(REPEATS)), key=lambda r: r[0])
                for n in (16, N)}
        big_wall, big_inside = runs[N]
        small_wall, small_inside = runs[16]
        loomc_io = (big_wall - big_inside) - (small_wall - small_inside)
        expected = np.load(f"{d}/y{N}.npy") + np.float32(2.5) * np.load(f"{d}/x{N}.npy")
        if not np.array_equal(np.load(f"{d}/out{N}.npy"), expected):
            sys.exit("loomc run's saxpy output differs from NumPy's")
    mb = 3 * N * 4 / 1e6
    print(f".npy I/O of saxpy over {N} Float32 elements (2^24; x, y in, y out: {mb:.0f} MB), best of {REPEATS}\n")
    print("| what | time ms | MB/s |")
    print("|---|---:|---:|")
    print(f"| NumPy: np.load x, y + np.save y | {numpy_s * 1e3:.1f} | {mb / numpy_s:.0f} |")
    print(f"| loomc run: .npy read + write | {loomc_io * 1e3:.1f} | {mb / loomc_io:.0f} |")
    print(f"| loomc run: whole run, 2^24 | {big_wall * 1e3:.1f} | |")
    print(f"| loomc run: launch + JIT, 2^24 | {big_inside * 1e3:.1f} | |")


main()
