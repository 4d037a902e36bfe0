#!/usr/bin/python3
"""Regenerates every figure of SPEC section 5 and of the issues since: runs the experiments under
workloads/ that are missing results, then draws each figure family as PNG and PDF under results/figures/.

    /usr/bin/python3 plots/make_all.py                 # run what is missing, draw everything
    /usr/bin/python3 plots/make_all.py --force         # run every experiment again, then draw
    /usr/bin/python3 plots/make_all.py --plots-only    # draw from the tables under results/

Experiments: every workloads/*/*.sweep.json (`ckptsim sweep`, which skips the runs
already in its results and resumes an interrupted sweep) and the scripts listed in
workloads/experiments/drivers.json (run when one of their tables is missing). Writes
results/made-by.txt: the command, the commit, and the wall time of each step.
"""
import argparse
import glob
import importlib
import json
import os
import subprocess
import sys
import time

import common

ROOT = common.ROOT
EXPERIMENTS = os.path.join(ROOT, "workloads", "experiments")
# Sweep files: the papers' (workloads/experiments/) and those of a folder of their own
# (workloads/energy/, with its README).
SWEEPS = os.path.join(ROOT, "workloads", "*", "*.sweep.json")
# Figure families, one script each (plots/<name>.py with a main()).
FAMILIES = ["hc3i", "cck", "lammpi", "daly", "taskgraph", "replicated", "mpi", "failures_regimes",
            "network_partitions", "levels", "energy"]


def log(msg):
    print("make_all: " + msg, flush=True)


def run(cmd, what):
    log("%s: %s" % (what, " ".join(cmd)))
    t0 = time.time()
    status = subprocess.run(cmd, cwd=ROOT).returncode
    return status, time.time() - t0


def sweeps(args, steps):
    ok = True
    for path in sorted(glob.glob(SWEEPS)):
        cmd = [args.ckptsim, "sweep", common.rel(path), "--jobs", str(args.jobs), "--progress", "false"]
        if args.force:
            cmd.append("--restart")
        status, wall = run(cmd, "sweep")
        steps.append((common.rel(path), wall, status))
        ok &= status == 0
    return ok


def drivers(args, steps):
    ok = True
    with open(os.path.join(EXPERIMENTS, "drivers.json")) as f:
        listed = json.load(f)["drivers"]
    for d in listed:
        missing = [r for r in d["results"] if not os.path.exists(os.path.join(ROOT, r))]
        if not missing and not args.force:
            log("%s: results present, not run (--force runs it)" % d["name"])
            continue
        cmd = [sys.executable] + [a.format(ckptsim=args.ckptsim, jobs=args.jobs) for a in d["command"]]
        status, wall = run(cmd, d["name"])
        steps.append((d["name"], wall, status))
        ok &= status == 0
    return ok


def draw(steps):
    missing = []
    for name in FAMILIES:
        t0 = time.time()
        try:
            importlib.import_module(name).main()
            steps.append(("plots/%s.py" % name, time.time() - t0, 0))
        except common.MissingResults as e:
            log("%s: no table %s: run its experiment first" % (name, e))
            missing.append(name)
            steps.append(("plots/%s.py" % name, time.time() - t0, 1))
    return missing


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="simulations at a time (default: cores)")
    ap.add_argument("--ckptsim", default=os.path.join(ROOT, "build", "ckptsim"))
    ap.add_argument("--force", action="store_true", help="run every experiment again")
    ap.add_argument("--plots-only", action="store_true", help="draw from the existing tables")
    ap.add_argument("--figures", help="folder of the figures (default results/figures)")
    args = ap.parse_args()
    if args.figures:
        common.FIGURES = os.path.abspath(args.figures)
    args.ckptsim = os.path.abspath(args.ckptsim)
    t0 = time.time()
    steps = []
    ok = True
    if not args.plots_only:
        if not os.access(args.ckptsim, os.X_OK):
            sys.exit("make_all: no ckptsim at %s (build it: see README.md, or give --ckptsim PATH)" % args.ckptsim)
        ok &= sweeps(args, steps)
        ok &= drivers(args, steps)
    missing = draw(steps)
    total = time.time() - t0
    if not args.plots_only:
        lines = ["# how results/ was last made by plots/make_all.py",
                 "command: /usr/bin/python3 plots/make_all.py " + " ".join(sys.argv[1:]),
                 "git commit: %s" % common.git_describe(),
                 "jobs: %d, machine cores: %d" % (args.jobs, os.cpu_count() or 0),
                 "step, wall seconds, exit status:"]
        lines += ["  %s, %.1f, %d" % s for s in steps]
        lines.append("total wall time: %.1f s" % total)
        with open(os.path.join(common.RESULTS, "made-by.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
    log("done in %.0f s; figures in %s" % (total, common.rel(common.FIGURES)))
    if missing or not ok:
        log("incomplete: %s" % ", ".join(missing + ([] if ok else ["an experiment failed (see above)"])))
        sys.exit(3)


if __name__ == "__main__":
    main()
