#!/usr/bin/env python3
"""Runs `loomc verify` on the kernel corpus (bench/verifier/corpus/*.cu, *.cl), each compiled
by clang 19 at -O0 and -O2, and prints a table: per level, the bugs found as errors, found only
as warnings, missed; the false alarms (errors on race-free kernels) and warnings on them; the
median time of `loomc verify` per kernel. `-o FILE` also writes the table there; `-v` prints
each kernel's verdict.

Each corpus file starts with `// verdict: ok|race|barrier|interblock  block: X[,Y,Z]` (and
optionally `grid: X[,Y,Z]`, blocks per grid, where the kernel's indexing assumes one): `race`
is a race within a block (E0851), `barrier` a barrier not every thread reaches (E0850),
`interblock` a race between blocks on global memory (E0851 "between two blocks").

Needs clang-19 (`apt-get install clang-19`) and target/release/loomc (built if missing) or
$LOOMC. Not a test: it needs clang, and its times depend on the machine.
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(ROOT, "bench/verifier")
CLANG = os.environ.get("CLANG", "clang-19")


def compile_kernel(source, level, out):
    if source.endswith(".cl"):
        command = [CLANG, "-x", "cl", "-target", "nvptx64-nvidia-cuda", "-cl-std=CL1.2",
                   "-Xclang", "-finclude-default-header"]
    else:
        command = [CLANG, "-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
                   "--cuda-gpu-arch=sm_80", "-include", os.path.join(HERE, "cuda_names.h"),
                   # PTX 7.0 (CUDA 11) for __syncwarp; without a CUDA installation clang assumes
                   # an older PTX that lacks it.
                   "-Xclang", "-target-feature", "-Xclang", "+ptx70"]
    command += ["-S", "-emit-llvm", f"-O{level}", source, "-o", out]
    subprocess.run(command, check=True, capture_output=True)


def classify(verdict, output):
    errors = [l for l in output.splitlines() if l.startswith("error[")]
    warnings = [l for l in output.splitlines() if l.startswith("warning[")]
    if verdict == "ok":
        return "false alarm" if errors else ("warning" if warnings else "clean")
    wanted = {
        "race": lambda l: l.startswith("error[E0851]") and "between two threads" in l,
        "barrier": lambda l: l.startswith("error[E0850]"),
        "interblock": lambda l: l.startswith("error[E0851]") and "between two blocks" in l,
    }[verdict]
    if any(wanted(l) for l in errors):
        return "found"
    return "warning-only" if warnings or errors else "missed"


def main():
    args = sys.argv[1:]
    out = None
    verbose = "-v" in args
    args = [a for a in args if a != "-v"]
    if args[:1] == ["-o"]:
        out = args[1]
    loomc = os.environ.get("LOOMC", os.path.join(ROOT, "target/release/loomc"))
    if not os.access(loomc, os.X_OK):
        subprocess.run(["cargo", "build", "--release", "--bin", "loomc"], cwd=ROOT, check=True)
    corpus = sorted(
        os.path.join(HERE, "corpus", f)
        for f in os.listdir(os.path.join(HERE, "corpus"))
        if f.endswith((".cu", ".cl"))
    )
    rows = ["| level | bugs | found as errors | warning only | missed | race-free | false alarms "
            "| warnings on race-free | median time (ms) |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    with tempfile.TemporaryDirectory() as work:
        for level in (0, 2):
            counts = {}
            times = []
            bugs = clean_kernels = 0
            for source in corpus:
                header = open(source).readline()
                match = re.search(r"verdict: (\w+)\s+block: ([\d,]+)(?:\s+grid: ([\d,]+))?",
                                  header)
                if not match:
                    sys.exit(f"{source}: no `// verdict: ... block: ...` first line")
                verdict, block, grid = match.groups()
                ll = os.path.join(work, os.path.basename(source) + f".O{level}.ll")
                compile_kernel(source, level, ll)
                start = time.monotonic()
                command = [loomc, "verify", "--block-size", block, "--color=never", ll]
                if grid:
                    command += ["--grid-size", grid]
                run = subprocess.run(command, capture_output=True, text=True)
                times.append(time.monotonic() - start)
                result = classify(verdict, run.stderr)
                counts[result] = counts.get(result, 0) + 1
                if verdict == "ok":
                    clean_kernels += 1
                else:
                    bugs += 1
                if verbose:
                    print(f"-O{level} {os.path.basename(source)}: {verdict} -> {result}",
                          file=sys.stderr)
            rows.append(
                f"| -O{level} | {bugs} | {counts.get('found', 0)} | {counts.get('warning-only', 0)} "
                f"| {counts.get('missed', 0)} | {clean_kernels} | {counts.get('false alarm', 0)} "
                f"| {counts.get('warning', 0)} | {statistics.median(times) * 1000:.0f} |")
    table = "\n".join(rows)
    print(table)
    if out:
        with open(out, "w") as f:
            f.write(table + "\n")


if __name__ == "__main__":
    main()
