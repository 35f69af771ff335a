#!/usr/bin/env python3
"""saxpy and sumOfSquares in NumPy, for bench/cpu_backend.rs, which drives it over a pipe (as it
drives bench/opencl/pocl_bench.c) so that its runs interleave with the others of one run.

Prints one line naming NumPy, then answers each line `saxpy N` or `sumOfSquares N` on standard
input with the seconds one evaluation took: `a * x + y` (a new array, as NumPy is written), and
one sum per block of 256 as `(x * x).reshape(-1, 256).sum(axis=1)`, Float32 throughout, on the
inputs of bench/cpu_backend.rs. The first evaluation of each is checked against float64.
"""
import sys
import time

import numpy as np

GROUP = 256


def inputs(n):
    i = np.arange(n)
    x = ((i % 1000).astype(np.float32) * np.float32(1e-3)).astype(np.float32)
    y = (1.0 - (i % 7)).astype(np.float32)
    return x, y


def main():
    print(f"NumPy {np.__version__}", flush=True)
    data = {}
    checked = set()
    a = np.float32(2.5)
    for line in sys.stdin:
        kernel, n = line.split()
        n = int(n)
        if n not in data:
            data[n] = inputs(n)
        x, y = data[n]
        if kernel == "saxpy":
            t = time.perf_counter()
            out = a * x + y
            seconds = time.perf_counter() - t
            want = 2.5 * x.astype(np.float64) + y
        elif kernel == "sumOfSquares":
            t = time.perf_counter()
            out = (x * x).reshape(-1, GROUP).sum(axis=1)
            seconds = time.perf_counter() - t
            want = (x.astype(np.float64) ** 2).reshape(-1, GROUP).sum(axis=1)
        else:
            sys.exit(f"numpy_kernels.py: no kernel {kernel}")
        if (kernel, n) not in checked:
            checked.add((kernel, n))
            if not np.allclose(out, want, rtol=1e-5, atol=1e-6):
                sys.exit(f"numpy_kernels.py: {kernel} over {n} differs from float64")
        print(f"{seconds:.9f}", flush=True)


main()
