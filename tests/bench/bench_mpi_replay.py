#!/usr/bin/env python3
"""Replaying an MPI trace: ckptsim (--protocol none) against SimGrid's own `smpirun -replay`.

Both replay the same time-independent trace on the same platform XML (the 2-cluster federation of
workloads/mpi/platforms/, 16 nodes), side by side, each as the command a user types, and the wall
time of each (median of --repeat runs, measured in one run of this script) is printed with their
ratio and the simulated times (which tell that both replayed the same work). Traces:

  - synthetic: a 2D halo exchange written here (4 x 4 ranks, irecv x 4, isend x 4, a compute,
    waitall per iteration, an allreduce every 10 iterations), --iterations of them: big enough
    (16 x 8 x 1000 = 128,000 actions by default) for the replay to cost more than the start-up;
  - the shipped traces of workloads/mpi/traces/ (a few hundred actions each: mostly start-up).

Every run's wall time is printed (a bimodal spread shows there, not in a median). With
--baseline OLD, a second ckptsim binary replays each trace in the same interleaved loop, and its
median is printed beside, for before/after ratios measured side by side.

Usage: /usr/bin/python3 tests/bench/bench_mpi_replay.py [--ckptsim PATH] [--baseline PATH]
       [--iterations N] [--repeat N] [--no-shipped]
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MPI = os.path.join(ROOT, "workloads", "mpi")
PLATFORM = os.path.join(MPI, "platforms", "two-clusters.xml")
HOSTS = os.path.join(MPI, "platforms", "two-clusters.hosts")


def write_halo_trace(folder, iterations, side=4, size=2048, flops=2e6):
    """A 2D halo exchange on a side x side torus of ranks; returns the index file."""
    ranks = side * side
    names = []
    for r in range(ranks):
        x, y = r % side, r // side
        neighbours = [((x + 1) % side) + y * side, ((x - 1) % side) + y * side,
                      x + ((y + 1) % side) * side, x + ((y - 1) % side) * side]
        lines = [f"{r} init"]
        for i in range(iterations):
            for d, n in enumerate(neighbours):
                lines.append(f"{r} irecv {n} {d ^ 1} {size} 6")
            for d, n in enumerate(neighbours):
                lines.append(f"{r} isend {n} {d} {size} 6")
            lines.append(f"{r} compute {flops:g}")
            lines.append(f"{r} waitall 8")
            if i % 10 == 9:
                lines.append(f"{r} allreduce 1 0 0")
        lines.append(f"{r} finalize")
        name = f"rank-{r}.txt"
        with open(os.path.join(folder, name), "w") as f:
            f.write("\n".join(lines) + "\n")
        names.append(name)
    index = os.path.join(folder, "halo.ti")
    with open(index, "w") as f:
        f.write("\n".join(names) + "\n")
    return index, ranks


def timed(cmd, cwd):
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
    return wall, p.stdout + p.stderr


def smpi(index, ranks):
    # SMPI opens an index's names relative to the working directory: run from the index's folder.
    wall, out = timed(["smpirun", "-np", str(ranks), "-platform", PLATFORM, "-hostfile", HOSTS,
                       "-replay", os.path.basename(index)], os.path.dirname(index))
    m = re.search(r"Simulation time ([0-9.]+)", out)
    return wall, float(m.group(1)) if m else float("nan")


def ours(ckptsim, index, work):
    app = os.path.join(work, "app.json")
    with open(app, "w") as f:
        f.write('{"kind": "mpi-trace", "trace": "%s"}\n' % index)
    out_json = os.path.join(work, "out.json")
    wall, _ = timed([ckptsim, "run", "--platform", PLATFORM, "--application", app, "--protocol", "none",
                     "--quiet", "--output", out_json], work)
    import json
    with open(out_json) as f:
        return wall, json.load(f)["results"]["makespan"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ckptsim", default=os.path.join(ROOT, "build", "ckptsim"))
    ap.add_argument("--baseline", help="another ckptsim binary, replayed in the same loop (before/after)")
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-shipped", action="store_true")
    a = ap.parse_args()
    if not shutil.which("smpirun"):
        sys.exit("smpirun not found (Debian package libsimgrid-dev)")
    work = tempfile.mkdtemp(prefix="bench_mpi_replay-")
    try:
        cases = []
        halo_dir = os.path.join(work, "halo")
        os.mkdir(halo_dir)
        index, ranks = write_halo_trace(halo_dir, a.iterations)
        cases.append((f"halo x{a.iterations} ({ranks * (10 * a.iterations + 2 + 2 * a.iterations // 10)} actions)",
                      index, ranks))
        if not a.no_shipped:
            for t in ("jacobi2d", "cg", "master_worker"):
                idx = os.path.join(MPI, "traces", t, t + ".ti")
                with open(idx) as f:
                    n = sum(1 for line in f if line.strip())
                cases.append((t, idx, n))
        print(f"{'trace':<34} {'smpirun -replay [s]':>20} {'ckptsim [s]':>12} {'ratio':>6}   simulated: SMPI / ckptsim [s]")
        runs = []
        for name, index, ranks in cases:
            s_runs, c_runs, b_runs = [], [], []
            for _ in range(a.repeat):  # interleaved, so all see the same machine load
                s_runs.append(smpi(index, ranks))
                c_runs.append(ours(a.ckptsim, index, work))
                if a.baseline:
                    b_runs.append(ours(a.baseline, index, work))
            s_wall = statistics.median(w for w, _ in s_runs)
            c_wall = statistics.median(w for w, _ in c_runs)
            print(f"{name:<34} {s_wall:>20.3f} {c_wall:>12.3f} {c_wall / s_wall:>6.2f}   "
                  f"{s_runs[0][1]:.6f} / {c_runs[0][1]:.6f}")
            runs.append((name, s_runs, c_runs, b_runs))
        print()
        for name, s_runs, c_runs, b_runs in runs:
            print(f"{name}: every run, in order [s]")
            print("  smpirun -replay " + " ".join(f"{w:.3f}" for w, _ in s_runs))
            print("  ckptsim         " + " ".join(f"{w:.3f}" for w, _ in c_runs))
            if b_runs:
                b_wall = statistics.median(w for w, _ in b_runs)
                c_wall = statistics.median(w for w, _ in c_runs)
                print("  baseline        " + " ".join(f"{w:.3f}" for w, _ in b_runs))
                print(f"  medians: ckptsim {c_wall:.3f}, baseline {b_wall:.3f} ({a.baseline}): "
                      f"ckptsim / baseline {c_wall / b_wall:.2f}, baseline / smpirun "
                      f"{b_wall / statistics.median(w for w, _ in s_runs):.2f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
