#!/usr/bin/python3
"""Runs the task-graph partial rollback experiments (Lion's protocol, --protocol taskgraph) with ckptsim.

    python3 workloads/taskgraph/experiments.py failure_date|interval|all [--jobs 2]

failure_date: one failure of the middle process at 10 % .. 90 % of the run, taskgraph (partial
rollback) next to coordinated (global rollback), cck (partial restart) and none (no checkpoint),
on the same stencil. interval: taskgraph's checkpoint interval against its failure-free cost,
its logs and the work one failure loses. Each writes results/taskgraph/<name>.csv, whose header
comments give the command, the git commit and the ckptsim command line of one point, and prints
the same table. See workloads/taskgraph/README.md. Standard library only (python3 >= 3.7)."""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "workloads", "experiments"))
from results_file import add_simulator_options, git_line, input_files, made_by, publish, simulator  # noqa: E402
RESULTS = os.path.join(ROOT, "results", "taskgraph")


def rel(path):
    return os.path.relpath(path, ROOT)


BASE = input_files(ROOT, HERE)
TASK_COST = 0.025  # s, application.json
RUN = 10.0  # s, failure-free: 10 cells x 40 iterations x 25 ms per process
VICTIM = "c0-2"  # the middle of 5 processes: two neighbours
# 10 % .. 90 % of the run every 0.5 s (a quarter of the checkpoint period: the lost work's saw
# tooth), off the 25 ms task boundaries (a failure at the very date a process sends to the victim
# aborts SimGrid, see workloads/cck/README.md).
DATES = [round(1.07 + 0.5 * i, 2) for i in range(17)]
FIXED = 5.07  # the interval experiment's failure: 1.07 s after the checkpoints of point 17 (4 s)
INTERVAL = 8  # iterations: a checkpoint every 2 s, the coordinated / cck period of timers.json


def run_one(ckptsim, protocol, options, failures):
    with tempfile.TemporaryDirectory(prefix="tg-exp-") as tmp:
        out = os.path.join(tmp, "out.json")
        trace = os.path.join(tmp, "failures.txt")
        with open(trace, "w") as f:
            f.write("# date node\n")
            for date, node in failures:
                f.write("%r %s\n" % (date, node))
        cmd = ([ckptsim, "run", "--quiet", "--protocol", protocol] + BASE + options +
               ["--set", "topology/failures/trace=" + json.dumps(trace), "--output", out])
        proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        if proc.returncode != 0:  # kept in the table, not fatal
            err = [l for l in proc.stderr.splitlines() if l.strip()]
            sys.stderr.write("experiments.py: %s failed (%d): %s\n" % (" ".join(cmd), proc.returncode,
                                                                     err[0] if err else ""))
            return {"error": "exit %d" % proc.returncode}
        with open(out) as f:
            doc = json.load(f)
    return {"results": doc["results"], "counters": doc["stats"]["counters"], "series": doc["stats"].get("series", {})}


def run_all(args, points):
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        return list(pool.map(lambda p: run_one(args.ckptsim, *p), points))


def example(protocol, options, failures):
    cmd = ["build/ckptsim", "run", "--protocol", protocol] + BASE + options
    if failures:
        cmd += ["--set", "topology/failures/trace=TRACE"]
    return " ".join(cmd + ["--output", "out.json"])


def fmt(v):
    if isinstance(v, float):
        if v != v:
            return ""
        if abs(v) < 1e-9:  # 10 s * (1 + 1e-14) - 10 s: rounding of the makespan, not an overhead
            return "0"
        return "%.4g" % v if abs(v) < 1e5 else "%.0f" % v
    return str(v)


def write(name, title, header, rows, notes, one_point, wall, args, runs):
    path = os.path.join(RESULTS, name + ".csv")
    command = "python3 workloads/taskgraph/experiments.py %s --jobs %d   (from the repository root)" % (name, args.jobs)
    lines = made_by(title, command, git_line(ROOT, "workloads/taskgraph"), one_point, runs, wall, args.jobs)
    publish(path, lines + ["# " + n for n in notes], header, rows, fmt, runs, wall, ROOT)


PROTOCOLS = [  # (name, protocol, options)
    ("taskgraph", "taskgraph", ["--param", "interval=%d" % INTERVAL]),
    ("coordinated", "coordinated", []),
    ("cck", "cck", []),
    ("none", "none", []),
]


def summary_row(r):
    """Columns every experiment reports from one run."""
    if "error" in r:
        return ["ckptsim " + r["error"]] + [""] * 9
    res, c = r["results"], r["counters"]
    rec = r["series"].get("recoveries", [])
    ckpts = c.get("taskgraph.checkpoints", 0) or c.get("coordinated.waves_committed", 0) or \
        c.get("cck.waves_committed", 0)
    return [res["makespan"], 100.0 * (res["makespan"] / RUN - 1), res["lost_work"], res["lost_work"] / TASK_COST,
            max((x["rolled_back"] for x in rec), default=0), res["recovery_time"], int(ckpts),
            int(c.get("taskgraph.replayed", 0)), int(c.get("log.entries_max", 0)), int(c.get("ctrl.total", 0))]


SUMMARY = ["makespan_s", "overhead_pct", "lost_work_s", "reexecuted_tasks", "rolled_back", "recovery_s",
           "checkpoints", "replayed", "log_entries_max", "control_messages"]
SUMMARY_NOTES = [
    "overhead_pct: makespan over the failure-free run without checkpoints (%g s)" % RUN,
    "lost_work_s: work undone by rollbacks, every process (cck: the neighbours' re-executed tasks too); "
    "reexecuted_tasks = lost_work_s / task_cost (25 ms)",
    "rolled_back: processes that restored a state in the failure's recovery (engine series recoveries)",
    "recovery_s: failure to the end of its recovery (taskgraph: until the substitute has replayed and sent "
    "again what its peers hold; coordinated: until every process has restored; cck: until the re-execution "
    "is done)",
    "checkpoints: taskgraph: committed process checkpoints (5 processes); coordinated / cck: committed waves",
    "replayed: messages re-sent from senders' logs (taskgraph); log_entries_max: most messages logged at once, "
    "all senders"]


def failure_date(args):
    points, keys = [], []
    for name, protocol, opts in PROTOCOLS:
        points.append((protocol, opts, []))
        keys.append((name, None))
        for d in DATES:
            points.append((protocol, opts, [(d, VICTIM)]))
            keys.append((name, d))
    t0 = time.time()
    res = run_all(args, points)
    wall = time.time() - t0
    rows = [[name, "" if d is None else d, "" if d is None else round(100 * d / RUN, 1)] + summary_row(r)
            for (name, d), r in zip(keys, res)]
    write("failure_date", "Task-graph partial rollback (Lion) against global rollback (coordinated) and CCK's "
          "partial restart: one failure of c0-2 (of 5) at 10..90 % of a 10 s Jacobi 1D run, checkpoints every 2 s",
          ["protocol", "failure_date_s", "failure_pct"] + SUMMARY, rows,
          ["failure_date_s empty: the same protocol without failure (its failure-free overhead)",
           "taskgraph: --param interval=%d (a checkpoint every 8 iterations = 2 s); coordinated / cck: "
           "checkpoint_period 2 s (timers.json); storage: each protocol's default (taskgraph buddy, the others "
           "servers, one 110 MB/s server per process); downtime 1 s, detection 100 ms" % INTERVAL] + SUMMARY_NOTES,
          example("taskgraph", PROTOCOLS[0][2], [(FIXED, VICTIM)]), wall, args, len(points))


INTERVALS = [1, 2, 4, 8, 16, 40]


def interval(args):
    points, keys = [], []
    for k in INTERVALS:
        for failures in ([], [(FIXED, VICTIM)]):
            points.append(("taskgraph", ["--param", "interval=%d" % k], failures))
            keys.append((k, bool(failures)))
    t0 = time.time()
    res = run_all(args, points)
    wall = time.time() - t0
    rows = [[k, FIXED if f else "", k * 10 * TASK_COST] + summary_row(r) for (k, f), r in zip(keys, res)]
    write("interval", "taskgraph: checkpoint interval (iterations) against failure-free overhead, logs and the work "
          "one failure at %g s loses (Jacobi 1D, 5 processes, 10 s)" % FIXED,
          ["interval", "failure_date_s", "period_s"] + SUMMARY, rows,
          ["period_s: interval x 10 cells x 25 ms, the time between two checkpoints of a process",
           "interval 40: points 41 only, the end (no checkpoint during the run)"] + SUMMARY_NOTES,
          example("taskgraph", ["--param", "interval=4"], []), wall, args, len(points))


EXPERIMENTS = {"failure_date": failure_date, "interval": interval}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("experiment", choices=sorted(EXPERIMENTS) + ["all"])
    add_simulator_options(ap, ROOT)
    args = ap.parse_args()
    args.ckptsim = simulator(args)
    args.jobs = max(1, args.jobs)
    for name in (sorted(EXPERIMENTS) if args.experiment == "all" else [args.experiment]):
        EXPERIMENTS[name](args)


if __name__ == "__main__":
    main()
