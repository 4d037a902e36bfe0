#!/usr/bin/python3
"""Multi-level checkpoint plans against the best single level, with the parallel file system's traffic
(issue 33, item 5).

    python3 workloads/levels/experiments.py [--jobs 2] [--seeds 10] [--ckptsim build/ckptsim]

Two federations (those of workloads/network/experiments.py):
- "default (2 x 100)": ckptsim's embedded scenario (2 x 100 nodes, SANs of 80 MB/s, its stochastic
  application cut to 5 h), 256 MB checkpoints, racks of 10 nodes, a file system of 4 GB/s;
- "4 clusters (MPI)": workloads/mpi/platforms/four-clusters.json (4 x 4 nodes) running the jacobi2d
  MPI trace scaled to about 1 h, 50 MB checkpoints, racks of 2 nodes, a file system of 200 MB/s.
Every plan writes each checkpoint to the node's SSD first (2 GB/s):
- "partner": [local, partner in another rack] (single level);
- "pfs": [local, pfs] (single level);
- "2-level": [local, partner, pfs every k];
- "4-level": [local, partner, xor sets of 4 every 2nd, pfs every k].
Two failure regimes: "independent" (node failures only: federation MTBF 2 h on the default
federation, 20 min on the MPI one, as workloads/mpi) and "outages" (the same, plus rack outages,
MTBF 12 h / 2 h, and cluster outages, MTBF 24 h / 4 h). Detection 1 s, down 1 min, restart 10 s.

Each plan's checkpoint period (and the pfs level's every) is what `ckptsim advise` suggests for it
in that federation and regime (coordinated checkpointing): Daly's period for a single level, the
first-order multi-level plan otherwise. Seeds 1..N per point; every run must end completed or
unrecoverable (a single partner level cannot survive a cluster outage), with 0 consistency
violations; otherwise the script stops with the command.

Per point: the plan, the runs completed, the mean makespan and its overhead over the failure-free
time (95 % half-widths, over the completed runs), the file system's traffic (bytes flushed to the
checkpoint servers, storage.bytes_written.server-*, per run and per hour of makespan) and the
checkpoints written at each level. Writes results/levels/plans.csv with '#' lines saying how it was
made and prints it; /usr/bin/python3 plots/levels.py draws results/figures/levels_plans.png. See
workloads/levels/README.md. Standard library only (Python >= 3.7)."""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import time

sys.path.insert(0, os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "experiments")))
from results_file import add_simulator_options, git_line, made_by, mean_ci, publish, simulator  # noqa: E402
import federations  # noqa: E402
from federations import ROOT, compact, default_options, mpi_options  # noqa: E402

RESULTS = os.path.join(ROOT, "results", "levels")
WALL_LIMIT = 300
FAILURES = {"model": "exponential", "detection_delay": "1s", "downtime": "1min", "restart_overhead": "10s"}


class Federation:
    def __init__(self, label, key, options, clusters, size, racks, pfs, mtbf, rack_mtbf, cluster_mtbf):
        self.label, self.key, self.options, self.clusters = label, key, options, clusters
        self.size, self.racks, self.pfs = size, racks, pfs
        self.mtbf, self.rack_mtbf, self.cluster_mtbf = mtbf, rack_mtbf, cluster_mtbf


FEDERATIONS = [
    Federation("default (2 x 100)", "default", default_options, 2, "256MB", 10, "4GBps", "2h", "12h", "24h"),
    Federation("4 clusters (MPI)", "mpi", mpi_options, 4, "50MB", 2, "200MBps", "20min", "2h", "4h"),
]
REGIMES = ["independent", "outages"]


def plan_levels(plan, fed):
    local = {"kind": "local", "bandwidth": "2GBps"}
    partner = {"kind": "partner"}
    pfs = {"kind": "pfs", "every": 8, "bandwidth": fed.pfs, "latency": "100us"}
    return {"partner": [local, partner],
            "pfs": [local, dict(pfs, every=1)],
            "2-level": [local, partner, pfs],
            "4-level": [local, partner, {"kind": "xor", "group": 4, "every": 2, "encode_rate": "2GBps"}, pfs]}[plan]


PLANS = ["partner", "pfs", "2-level", "4-level"]


class Point:
    def __init__(self, fed, regime, plan, seed=0):
        self.fed, self.regime, self.plan, self.seed = fed, regime, plan, seed
        self.advice = []  # the --set options advise suggested

    def inputs(self, tmp):
        """The options of the federation, its storage, domains and failures."""
        opts = self.fed.options(tmp)
        for c in range(self.fed.clusters):
            opts += ["--set", "topology/clusters/%d/checkpoint_size=%s" % (c, self.fed.size)]
        opts += ["--set", "topology/domains=" + compact({"rack": self.fed.racks}),
                 "--set", "topology/storage=" + compact({"model": "levels", "levels": plan_levels(self.plan, self.fed)}),
                 "--set", "topology/mtbf=" + self.fed.mtbf]
        failures = dict(FAILURES)
        if self.regime == "outages":
            failures["correlated"] = [{"scope": "rack", "mtbf": self.fed.rack_mtbf},
                                      {"scope": "cluster", "mtbf": self.fed.cluster_mtbf}]
        return opts + ["--set", "topology/failures=" + compact(failures), "--protocol", "coordinated"]


class Sim(federations.Sim):
    def command(self, p):
        return [self.ckptsim, "run", "--quiet"] + p.inputs(self.tmp) + p.advice + ["--seed", str(p.seed)]

    def fail(self, p, what):
        self.stopped.set()
        sys.exit("experiments.py: %s\n  (from %s) with %s = %s\n%s" % (
            " ".join(shlex.quote(a) for a in self.command(p) + ["--output", "out.json"]), ROOT, self.app,
            json.dumps(self.app_doc()), what))

    def advise(self, p):
        """The plan `ckptsim advise` suggests for P: its --set options."""
        cmd = [self.ckptsim, "advise"] + p.inputs(self.tmp)
        proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=WALL_LIMIT)
        m = re.search(r"^suggested plan: (.*)$", proc.stdout, re.M)
        if proc.returncode != 0 or not m:
            self.fail(p, "advise failed (exit %d):\n%s%s" % (proc.returncode, proc.stdout, proc.stderr))
        return shlex.split(m.group(1))

    def one(self, p):
        if self.stopped.is_set():
            return None
        proc, doc = self.execute(p, "levels-exp-", WALL_LIMIT)
        res = doc["results"]
        outcome = self.outcome(p, proc, res, ("completed", "unrecoverable"))
        if outcome == "unrecoverable" and p.regime != "outages":
            self.fail(p, "unrecoverable without outages: %s" % res["status"])
        counters = doc["stats"]["counters"]
        pfs = sum(v for k, v in counters.items() if k.startswith("storage.bytes_written.server-"))
        levels = [l["checkpoints"] for l in res["storage_levels"]["levels"]]
        return outcome, res.get("makespan"), res["failure_free_time"], pfs, levels


def period_of(advice):
    for i, a in enumerate(advice):
        if a.startswith("timers/default/checkpoint_period="):
            return a.split("=", 1)[1]
    return ""


def every_of(advice):
    cells = [a.split("/")[-1] for a in advice if a.startswith("topology/storage/levels/")]
    return " ".join(c for c in cells if not c.endswith("=1")) or "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=10, help="seeds per point (default 10)")
    add_simulator_options(parser, ROOT)
    args = parser.parse_args()
    t0 = time.time()

    def run(sim):
        points = [Point(f, r, p) for f in FEDERATIONS for r in REGIMES for p in PLANS]
        for p in points:
            p.advice = sim.advise(p)
        runs = []
        for p in points:
            for s in range(1, args.seeds + 1):
                q = Point(p.fed, p.regime, p.plan, s)
                q.advice = p.advice
                runs.append(q)
        return points, runs, sim.run_all(runs)

    sim, (points, runs, results), wall = federations.run_in_inputs(args, "levels-exp-", Sim, run)
    rows = []
    for p in points:
        mine = [r for q, r in zip(runs, results) if (q.fed, q.regime, q.plan) == (p.fed, p.regime, p.plan)]
        done = [r for r in mine if r[0] == "completed"]
        makespan = mean_ci([r[1] for r in done])
        overhead = mean_ci([100 * (r[1] / r[2] - 1) for r in done])
        pfs_gb = mean_ci([r[3] / 1e9 for r in mine])
        pfs_rate = mean_ci([r[3] / 1e9 / (r[1] / 3600) for r in done])
        levels = [sum(r[4][i] for r in mine) / len(mine) for i in range(len(mine[0][4]))]
        rows.append([p.fed.label, p.regime, p.plan, period_of(p.advice), every_of(p.advice), len(done), len(mine),
                     *makespan, *overhead, *pfs_gb, *pfs_rate, " ".join("%.0f" % c for c in levels)])
    header = ["federation", "failures", "plan", "period", "every", "completed", "runs", "makespan_s",
              "makespan_s_ci95", "overhead_pct", "overhead_pct_ci95", "pfs_gb_per_run", "pfs_gb_per_run_ci95",
              "pfs_gb_per_hour", "pfs_gb_per_hour_ci95", "checkpoints_per_level"]
    example = Point(FEDERATIONS[0], "outages", "2-level", 1)
    example.advice = points[[(q.fed, q.regime, q.plan) for q in points].index(
        (example.fed, example.regime, example.plan))].advice
    comments = made_by("Multi-level checkpoint plans (issue 33): coordinated, plans from `ckptsim advise`, "
                       "%d seeds a point" % args.seeds,
                       "python3 workloads/levels/experiments.py --seeds %d --jobs %d" % (args.seeds, args.jobs),
                       git_line(ROOT, "workloads/levels", "workloads/experiments"),
                       " ".join(shlex.quote(os.path.relpath(a, ROOT) if a.startswith(ROOT) else a)
                                for a in sim.command(example)),
                       len(runs), wall, args.jobs)
    comments.append("# the MPI application file: %s" % json.dumps(federations.MPI_APPLICATION))

    def fmt(v):
        return "%.4g" % v if isinstance(v, float) else str(v)

    publish(os.path.join(RESULTS, "plans.csv"), comments, header, rows, fmt, len(runs), wall, ROOT)


if __name__ == "__main__":
    main()
