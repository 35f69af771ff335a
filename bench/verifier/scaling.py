#!/usr/bin/env python3
"""Verifier time against the number of uniform if-barrier diamonds (diamonds.py), both shapes,
printed as a Markdown table (`-o FILE` also writes it there). Uses target/release/loomc (built
if missing) or $LOOMC. Not a test: timings vary by machine.

    bench/verifier/scaling.py [-o bench/results/verifier-scaling-DATE.md] [N ...]
"""
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    args = sys.argv[1:]
    out = None
    if args[:1] == ["-o"]:
        out, args = args[1], args[2:]
    sizes = [int(a) for a in args] or [500, 1000, 2000, 5000]
    loomc = os.environ.get("LOOMC", os.path.join(ROOT, "target/release/loomc"))
    if not os.access(loomc, os.X_OK):
        subprocess.run(["cargo", "build", "--release", "--bin", "loomc"], cwd=ROOT, check=True)
    rows = ["| diamonds | shape | verify time (s) | result |", "| ---: | --- | ---: | --- |"]
    with tempfile.TemporaryDirectory() as work:
        for shape in ["one-arm", "both-arms"]:
            for n in sizes:
                path = os.path.join(work, f"{shape}-{n}.ll")
                with open(path, "w") as f:
                    subprocess.run(
                        [sys.executable, os.path.join(ROOT, "bench/verifier/diamonds.py"),
                         str(n), shape], stdout=f, check=True)
                start = time.monotonic()
                run = subprocess.run([loomc, "verify", path], capture_output=True, text=True)
                seconds = time.monotonic() - start
                summary = run.stderr.strip().splitlines()[-1].split(": ")[-1]
                rows.append(f"| {n} | {shape} | {seconds:.2f} | {summary} |")
                print(rows[-1], file=sys.stderr)
    table = "\n".join(rows)
    print(table)
    if out:
        with open(out, "w") as f:
            f.write(table + "\n")


if __name__ == "__main__":
    main()
