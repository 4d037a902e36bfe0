#!/usr/bin/env python3
"""bench_sweep: wall time of one 100-run sweep with --jobs 1 and with --jobs 2, in one invocation.

The sweep: the embedded default federation cut to --nodes per cluster (default 50) and --hours
of computation (default 1 h; a fraction of a second per run), protocols `coordinated` and `none`, two checkpoint
periods, 25 seeds = 100 runs. Both variants run the same sweep into separate result prefixes,
alternating --repeat times so that both see the same machine load; the script checks that the
two CSV tables are identical (results must not depend on --jobs) and prints, per variant, the
median wall time, runs per second, and the ratio jobs1 / jobs2 (the speed-up from a second core).

    python3 tests/bench/bench_sweep.py [--ckptsim build/ckptsim] [--repeat 1] [--hours 1] [--nodes 50]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def default_binary():
    for guess in (os.path.join(HERE, "..", "..", "ckptsim"), os.path.join(HERE, "..", "..", "build", "ckptsim")):
        if os.path.exists(guess):
            return os.path.normpath(guess)
    return "ckptsim"


def table_rows(path):
    with open(path) as f:
        return [l for l in f if not l.startswith("#")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ckptsim", default=default_binary())
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--hours", type=float, default=1.0)
    ap.add_argument("--nodes", type=int, default=50, help="nodes per cluster (default 50)")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="bench-sweep-")
    sweep = {
        "description": "bench_sweep: 100 runs of the default federation",
        "run_options": ["--set", "application/total_time=%gh" % a.hours, "--set", "topology/clusters/0/nodes=%d" % a.nodes,
                        "--set", "topology/clusters/1/nodes=%d" % a.nodes],
        "axes": [{"name": "period", "set": "timers/default/checkpoint_period", "values": ["10min", "30min"]}],
        "protocols": ["coordinated", "none"],
        "replicates": 25,
    }
    path = os.path.join(work, "sweep.json")
    with open(path, "w") as f:
        json.dump(sweep, f)
    times = {1: [], 2: []}
    tables = {}
    for r in range(a.repeat):
        for jobs in (1, 2):
            prefix = os.path.join(work, "jobs%d-%d" % (jobs, r))
            t0 = time.monotonic()
            p = subprocess.run([a.ckptsim, "sweep", path, "--jobs", str(jobs), "--out", prefix, "--progress", "false"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            times[jobs].append(time.monotonic() - t0)
            if p.returncode != 0:
                sys.exit("sweep --jobs %d failed (exit %d): %s" % (jobs, p.returncode, p.stderr[-500:]))
            tables.setdefault(jobs, table_rows(prefix + ".csv"))
    same = tables[1] == tables[2]
    print("100-run sweep (%s), %d repetition(s), %d cores on this machine" % (sweep["description"], a.repeat,
                                                                               os.cpu_count()))
    print("%-8s %12s %10s" % ("variant", "wall (s)", "runs/s"))
    med = {j: statistics.median(times[j]) for j in (1, 2)}
    for j in (1, 2):
        print("%-8s %12.1f %10.2f" % ("jobs %d" % j, med[j], 100 / med[j]))
    print("ratio jobs1/jobs2: %.2f (2.0 = perfect use of a second core)" % (med[1] / med[2]))
    print("tables identical: %s" % ("yes" if same else "NO"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
