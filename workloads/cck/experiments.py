#!/usr/bin/python3
"""Runs the experiments of the CCK thesis' chapter 5 (figures 5.2 to 5.6) with ckptsim.

    python3 workloads/cck/experiments.py fig5_2|fig5_3|fig5_4|fig5_5|fig5_6|all [--jobs 2]

Every point is a separate `ckptsim run` process (--jobs of them at a time); each figure writes
results/cck/<figure>.csv, whose header comments give the command, the git commit and the
ckptsim command line of its points, and prints the same table. See workloads/cck/README.md.
Standard library only; works with /usr/bin/python3 (3.7 or later) and any newer python3."""
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
RESULTS = os.path.join(ROOT, "results", "cck")


def rel(path):
    return os.path.relpath(path, ROOT)


# The thesis scenario (figures 5.2-5.4) and the 1D restart scenario (figures 5.5-5.6).
BASE = input_files(ROOT, HERE)
BASE_1D = input_files(ROOT, HERE, "-1d")


class Sim:
    """Runs ckptsim points, --jobs at a time."""

    def __init__(self, ckptsim, jobs):
        self.ckptsim = ckptsim
        self.jobs = jobs

    def command(self, protocol, base, options):
        return [self.ckptsim, "run", "--quiet", "--protocol", protocol] + base + options

    def one(self, point):
        """point: dict with 'protocol', 'base', 'options' and, optionally, 'failures' (a list of
        (date, node)): a failure trace written for this run."""
        with tempfile.TemporaryDirectory(prefix="cck-exp-") as tmp:
            out = os.path.join(tmp, "out.json")
            options = list(point["options"])
            if point.get("failures") is not None:
                trace = os.path.join(tmp, "failures.txt")
                with open(trace, "w") as f:
                    f.write("# date node\n")
                    for date, node in point["failures"]:
                        f.write("%r %s\n" % (date, node))
                options += ["--set", "topology/failures/trace=" + json.dumps(trace)]
            cmd = self.command(point["protocol"], point["base"], options) + ["--output", out]
            proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  universal_newlines=True)
            if proc.returncode != 0:  # kept in the table, not fatal: the other points still run
                err = [l for l in proc.stderr.splitlines() if l.strip()]
                sys.stderr.write("experiments.py: %s failed (%d): %s\n" % (" ".join(cmd), proc.returncode,
                                                                         err[0] if err else ""))
                return {"error": "exit %d" % proc.returncode}
            with open(out) as f:
                doc = json.load(f)
        return {"results": doc["results"], "counters": doc["stats"]["counters"],
                "series": doc["stats"].get("series", {})}

    def run_all(self, points, failure_free=True):
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as pool:
            res = list(pool.map(self.one, points))
        if failure_free and any("error" in r for r in res):
            sys.exit("experiments.py: a failure-free run failed (above); no table written")
        return res


def mean_wave(r):
    c = r["counters"]
    waves = c.get("cck.waves_committed", 0)
    return c.get("cck.coordination_time", 0) / waves if waves else float("nan")


def fmt(v):
    if isinstance(v, float):
        if v != v:
            return ""
        return "%.4g" % v if abs(v) < 1e5 else "%.0f" % v
    return str(v)


def write(figure, title, header, rows, notes, example, wall, jobs, runs=None):
    path = os.path.join(RESULTS, figure + ".csv")
    runs = runs or len(rows)
    command = ("python3 workloads/cck/experiments.py %s --jobs %d   (from the repository root; this file was written "
               "by: experiments.py %s)" % (figure, jobs, " ".join(sys.argv[1:])))
    lines = made_by(title, command, git_line(ROOT, "workloads/cck"), example, runs, wall, jobs)
    publish(path, lines + ["# " + n for n in notes], header, rows, fmt, runs, wall, ROOT)


def example_command(sim, point):
    cmd = sim.command(point["protocol"], point["base"], point["options"])
    cmd[0] = rel(cmd[0]) if os.path.isabs(cmd[0]) else cmd[0]
    if point.get("failures") is not None:
        cmd += ["--set", "topology/failures/trace=TRACE"]
    cmd += ["--output", "out.json"]
    return " ".join(a if " " not in a and "{" not in a else "'%s'" % a for a in cmd)


# Figure 5.2: run time against the checkpoint frequency, 10 servers.
PERIODS = [None, 40, 20, 10, 5, 2.5, 1.25]  # None: no checkpoint (frequency 0)
FIG52_VARIANTS = [  # (name, protocol, server_link bandwidth or None for the topology's)
    ("cck", "cck", None),
    ("coordinated", "coordinated", None),
    ("cck_3MBps", "cck", "3MBps"),
]


def fig5_2(sim):
    points, keys = [], []
    for name, protocol, bw in FIG52_VARIANTS:
        for p in PERIODS:
            opts = ["--set", "timers/default/checkpoint_period=" + ("never" if p is None else "%gs" % p)]
            if bw:
                opts += ["--set", "topology/storage/server_link/bandwidth=" + bw]
            points.append({"protocol": protocol, "base": BASE, "options": opts})
            keys.append((name, p))
    t0 = time.time()
    res = sim.run_all(points)
    wall = time.time() - t0
    ref = {name: r["results"]["makespan"] for (name, p), r in zip(keys, res) if p is None}
    rows = []
    for (name, p), r in zip(keys, res):
        c = r["counters"]
        ms = r["results"]["makespan"]
        saves = c.get("storage.saves", 0)
        rows.append([name, 0.0 if p is None else p, 0.0 if p is None else 1.0 / p, ms,
                     100.0 * (ms / ref[name] - 1), int(saves / 32), mean_wave(r) if name.startswith("cck") else float("nan"),
                     c.get("storage.bytes_written", 0) / saves / 1e6 if saves else 0.0, int(c.get("ctrl.total", 0))])
    write("fig5_2", "CCK thesis figure 5.2: total run time against the checkpoint frequency "
          "(Jacobi 2D 64 x 32, 10 iterations, 4 KiB cells, 32 processes, 10 servers)",
          ["variant", "period_s", "frequency_hz", "makespan_s", "overhead_pct", "checkpoints",
           "mean_wave_s", "mean_save_MB", "control_messages"], rows,
          ["variant: cck and coordinated with the topology's 15 MB/s server links (calibrated on figure 5.3);",
           "  cck_3MBps: cck with 3 MB/s server links, the bandwidth that puts figure 5.2's 10 % threshold at 0.1 Hz",
           "period_s 0 / frequency_hz 0: no checkpoint at all (checkpoint_period=never), the reference run",
           "overhead_pct: makespan over the reference run of the same variant; checkpoints: saves / 32 processes",
           "mean_wave_s: cck.coordination_time / cck.waves_committed (INIT to the last ACK, save included)"],
          example_command(sim, points[3]), wall, sim.jobs)


# Figure 5.3: run time against the number of servers, period 5 s.
def fig5_3(sim):
    servers = list(range(1, 33))
    points = [{"protocol": "none", "base": BASE, "options": []}]
    points += [{"protocol": "cck", "base": BASE, "options": ["--set", "topology/storage/servers=%d" % s]}
               for s in servers]
    t0 = time.time()
    res = sim.run_all(points)
    wall = time.time() - t0
    ref = res[0]["results"]["makespan"]
    rows = []
    for s, r in zip(servers, res[1:]):
        c = r["counters"]
        ms = r["results"]["makespan"]
        per_server = max(v for k, v in c.items() if k.startswith("storage.bytes_written.server-"))
        waves = c.get("cck.waves_committed", 0)
        rows.append([s, (32 + s - 1) // s, ms, 100.0 * (ms / ref - 1), int(waves), mean_wave(r),
                     c["storage.bytes_written"] / c["storage.saves"] / 1e6, per_server / waves / 1e6])
    write("fig5_3", "CCK thesis figure 5.3: total run time against the number of checkpoint servers "
          "(same instance as figure 5.2, period 5 s)",
          ["servers", "max_processes_per_server", "makespan_s", "overhead_pct", "waves", "mean_wave_s",
           "mean_save_MB", "max_MB_per_server_per_wave"], rows,
          ["reference (protocol none, no checkpoint): makespan %.3f s" % ref,
           "overhead_pct: makespan over that reference; the knee is read where it crosses 10 %",
           "server link 15 MB/s (topology.json); process i saves on server i mod servers"],
          example_command(sim, points[1]), wall, sim.jobs)


# Figure 5.4: mean coordination time of a wave against the number of nodes.
NODES = [8, 16, 32, 64, 128, 200, 300]
TASK_COST = 0.09  # s, application.json's


def fig54_period(n):
    """'Large enough' (the thesis): a tenth of the failure-free run (64 x 32 cells / n processes x 10
    iterations x 90 ms), at least 2 s: about 10 waves per run down to 64 nodes, 4 or more above."""
    return max(2.0, round(64 * 32 / n * 10 * TASK_COST / 10, 2))


def fig5_4(sim):
    points, keys = [], []
    for per_node in (4, 1):  # nodes per server: 4 (the experiment), 1 (no server shared: the save's part)
        for n in NODES:
            s = (n + per_node - 1) // per_node
            points.append({"protocol": "cck", "base": BASE, "options": [
                "--set", "topology/clusters/0/nodes=%d" % n, "--set", "topology/storage/servers=%d" % s,
                "--set", "timers/default/checkpoint_period=%gs" % fig54_period(n)]})
            keys.append((n, s))
    t0 = time.time()
    res = sim.run_all(points)
    wall = time.time() - t0
    rows = []
    half = len(NODES)
    for i, n in enumerate(NODES):
        r, r1 = res[i], res[half + i]
        waves = r["series"].get("cck.waves", [])
        durs = [w["duration"] for w in waves]
        c = r["counters"]
        rows.append([n, keys[i][1], fig54_period(n), r["results"]["failure_free_time"], r["results"]["makespan"], len(waves),
                     1000 * mean_wave(r), 1000 * min(durs), 1000 * max(durs),
                     c["storage.bytes_written"] / c["storage.saves"] / 1e6,
                     sum(w["messages"] for w in waves) / len(waves), sum(w["sum_v"] for w in waves) / len(waves) / n,
                     1000 * mean_wave(r1)])
    write("fig5_4", "CCK thesis figure 5.4: cost of a checkpoint wave against the number of nodes "
          "(Jacobi 2D 64 x 32, 10 iterations, 4 KiB cells, 90 ms tasks, one server per 4 nodes)",
          ["nodes", "servers", "period_s", "failure_free_s", "makespan_s", "waves", "mean_wave_ms", "min_wave_ms",
           "max_wave_ms", "mean_save_MB", "messages_per_wave", "mean_V", "mean_wave_ms_1server_per_node"], rows,
          ["wave = INIT to the last ACK (cck.waves duration): stop after the task under way, PING/PONG, save "
           "(local + server), CONT, resume",
           "mean_V: sum_v / nodes, the mean number of data-flow neighbours a process PINGs",
           "mean_wave_ms_1server_per_node: the same runs with one server per node (no server shared)"],
          example_command(sim, points[half - 1]), wall, sim.jobs, runs=len(points))


# Figures 5.5 and 5.6: one failure of the middle process of 5, a 1D graph, tasks re-executed on
# its direct neighbours.
PROCESSES_1D = 5
VICTIM = 2  # c0-2: neighbours c0-1 and c0-3
RUN_1D = 10.0  # failure-free run time of every shape (s): task_cost = RUN_1D / (cells per process x iterations)
# 0.11 .. 9.91 s. Not on a task boundary: a failure at the very date a process sends to the victim
# aborts ckptsim (SimGrid "Assertion to_->is_on() failed", see README.md), e.g. at 0.5 s with reordering.
DATES = [round(0.11 + 0.2 * i, 2) for i in range(50)]
SHAPES = [(50, 10), (50, 50), (200, 10)]


def restart_row(r, date):
    """From one run with one failure: the last commit before the failure and the plan of each process."""
    if "error" in r:
        return ["", "", "ckptsim " + r["error"]] + [""] * (len(RESTART_HEADER) - 3)
    commits = [w["commit"] for w in r["series"].get("cck.waves", []) if w["commit"] <= date]
    plans = {e["process"]: e for e in r["series"].get("cck.restart", [])}
    left, right = plans[VICTIM - 1], plans[VICTIM + 1]
    far = [plans[p]["reexecuted"] for p in plans if abs(p - VICTIM) > 1]
    return [commits[-1] if commits else 0.0, len(commits), max(left["reexecuted"], right["reexecuted"]),
            left["reexecuted"], right["reexecuted"], max(left["global"], right["global"]),
            max(far) if far else 0, plans[VICTIM - 1]["c_lost"], plans[VICTIM - 1]["c_total"]]


RESTART_HEADER = ["last_checkpoint_s", "checkpoints_before", "neighbour_reexecuted", "left_reexecuted",
                  "right_reexecuted", "neighbour_global", "others_reexecuted", "c_lost", "c_total"]
RESTART_NOTES = [
    "one failure of c0-2 (the middle of 5 processes) at failure_date_s, from a failure trace; waves every 2 s",
    "neighbour_reexecuted: compute tasks re-executed by a direct neighbour (max of c0-1 = left, c0-3 = right; "
    "cck.restart 'reexecuted'); neighbour_global: what a global restart re-executes there (compute tasks run "
    "since the last committed checkpoint, 'global'); others_reexecuted: max over c0-0 and c0-4",
    "c_lost, c_total: sizes of C_lost and C_total (communications)",
    "last_checkpoint_s: commit date of the last wave before the failure (0: none, the initial state)"]


def shape_options(width, iterations, schedule="in-order"):
    cost = RUN_1D / (width // PROCESSES_1D * iterations)
    return ["--set", "application/width=%d" % width, "--set", "application/iterations=%d" % iterations,
            "--set", "application/task_cost=%gs" % cost, "--set", "application/schedule=" + schedule], cost


def fig5_5(sim):
    points, keys = [], []
    for width, its in SHAPES:
        opts, cost = shape_options(width, its)
        for d in DATES:
            points.append({"protocol": "cck", "base": BASE_1D, "options": opts, "failures": [(d, "c0-%d" % VICTIM)]})
            keys.append((width, its, cost, d))
    t0 = time.time()
    res = sim.run_all(points, failure_free=False)
    wall = time.time() - t0
    rows = [["%dx%d" % (w, i), w, i, 1000 * cost, d] + restart_row(r, d) for (w, i, cost, d), r in zip(keys, res)]
    write("fig5_5", "CCK thesis figure 5.5: tasks re-executed on a direct neighbour of the failed process "
          "against the failure date, for several 1D graph shapes (width x iterations) on 5 processes",
          ["shape", "width", "iterations", "task_cost_ms", "failure_date_s"] + RESTART_HEADER, rows,
          RESTART_NOTES + ["task_cost = 10 s / (cells per process x iterations): every shape runs 10 s failure-free, "
                           "so the waves (every 2 s) come at the same dates"],
          example_command(sim, points[0]), wall, sim.jobs)


FIG56_PERIODS = [2, 4]  # s; 2: figure 5.5's; 4: puts the last send between the 1st and 2nd waves


def fig5_6(sim):
    points, keys = [], []
    for period in FIG56_PERIODS:
        for schedule in ("in-order", "reorder"):
            opts, cost = shape_options(50, 10, schedule)
            opts += ["--set", "timers/default/checkpoint_period=%gs" % period]
            for d in DATES:
                for reuse in ("false", "true"):  # the thesis' figure: false
                    points.append({"protocol": "cck", "base": BASE_1D,
                                   "options": ["--param", "reuse=" + reuse] + opts,
                                   "failures": [(d, "c0-%d" % VICTIM)]})
                keys.append((period, schedule, d))
    t0 = time.time()
    res = sim.run_all(points, failure_free=False)
    wall = time.time() - t0
    rows = []
    for i, (p, s, d) in enumerate(keys):
        r, rr = res[2 * i], res[2 * i + 1]
        reuse = restart_row(rr, d)[2]  # neighbour_reexecuted (or the error)
        rows.append([p, s, d] + restart_row(r, d) + [reuse])
    write("fig5_6", "CCK thesis figure 5.6: tasks re-executed on a direct neighbour against the failure date, "
          "1D width 50, 10 iterations, 5 processes, local reordering off (in-order) / on (reorder)",
          ["period_s", "schedule", "failure_date_s"] + RESTART_HEADER + ["neighbour_reexecuted_reuse"], rows,
          [n.replace("waves every 2 s", "waves every period_s") for n in RESTART_NOTES] +
          ["task_cost 100 ms (10 cells x 10 iterations per process: 10 s failure-free); every column is with "
           "reuse of computed data off (--param reuse=false, the thesis: not taken into account), except",
           "neighbour_reexecuted_reuse: the same point with --param reuse=true (thesis 4.4.2)"],
          example_command(sim, points[2 * len(DATES)]), wall, sim.jobs, runs=len(points))


FIGURES = {"fig5_2": fig5_2, "fig5_3": fig5_3, "fig5_4": fig5_4, "fig5_5": fig5_5, "fig5_6": fig5_6}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("figure", choices=sorted(FIGURES) + ["all"])
    add_simulator_options(ap, ROOT)
    args = ap.parse_args()
    sim = Sim(simulator(args), max(1, args.jobs))
    names = sorted(FIGURES) if args.figure == "all" else [args.figure]
    for name in names:
        t0 = time.time()
        FIGURES[name](sim)
        if len(names) > 1:
            print("%s: %.1f s\n" % (name, time.time() - t0))


if __name__ == "__main__":
    main()
