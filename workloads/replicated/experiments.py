#!/usr/bin/python3
"""Replicated in-memory checkpoints (Bondarenko and Iakobovski, 2014) with ckptsim.

    python3 workloads/replicated/experiments.py recoverable|cost|all [--jobs 2] [--runs 30]

recoverable: fraction of failure bursts (f simultaneous failures, f = 1..7, victims drawn at
random) after which the coordinated protocol finds a wave every node can load (RLFFN), measured
by simulation, next to the exact fraction counted over every set of f nodes, for several (DF, SD)
on one cluster of 16 nodes. cost: storage held and checkpoint time of each (DF, SD), failure free.
Each writes results/replicated/<name>.csv, whose header comments give the command, the git commit
and one ckptsim command line, and prints the same table. See workloads/replicated/README.md.
Standard library only; works with /usr/bin/python3 (3.7 or later) and any newer python3."""
import argparse
import concurrent.futures
import itertools
import json
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "workloads", "experiments"))
from results_file import add_simulator_options, git_line, input_files, made_by, publish, simulator  # noqa: E402
RESULTS = os.path.join(ROOT, "results", "replicated")
N = 16  # nodes of the cluster (topology.json)
SCHEMES = [(1, 1), (2, 1), (1, 2), (2, 2), (3, 2), (2, 3)]  # (DF, SD); N >= DF^SD + SD for all
BURST_DATE = 21.0  # after the 4th wave (waves commit near 4, 8, 12, 16, 20 s): SD waves kept


def rel(path):
    return os.path.relpath(path, ROOT)


BASE = input_files(ROOT, HERE)


# The paper's formula (1) and the survival test of its RLFFN (the same logic as
# sim/storage/replicated.cpp, which tests/unit/test_replicated.cpp checks).
def receiver(i, j, k, df, sd, n):
    return (i + j * df ** (k % sd) + k % sd) % n


def recoverable(failed, df, sd, n):
    for r in range(sd):
        if all(any(receiver(i, j, r, df, sd, n) not in failed for j in range(1, df + 1)) for i in failed):
            return True
    return False


def exhaustive_fraction(f, df, sd, n):
    sets = list(itertools.combinations(range(n), f))
    return sum(1 for s in sets if recoverable(set(s), df, sd, n)) / len(sets), len(sets)


class Sim:
    """Runs ckptsim points, --jobs at a time."""

    def __init__(self, ckptsim, jobs):
        self.ckptsim = ckptsim
        self.jobs = jobs

    def command(self, options):
        return [self.ckptsim, "run", "--quiet", "--protocol", "coordinated"] + BASE + options

    def one(self, point):
        """point: dict with 'options' and, optionally, 'failures' (a list of (date, node))."""
        with tempfile.TemporaryDirectory(prefix="repl-exp-") as tmp:
            out = os.path.join(tmp, "out.json")
            options = list(point["options"])
            if point.get("failures"):
                trace = os.path.join(tmp, "failures.txt")
                with open(trace, "w") as f:
                    f.write("# date node\n")
                    for date, node in point["failures"]:
                        f.write("%r %s\n" % (date, node))
                options += ["--set", "topology/failures/model=\"trace\"",
                            "--set", "topology/failures/trace=" + json.dumps(trace)]
            cmd = self.command(options) + ["--output", out]
            proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  universal_newlines=True)
            if proc.returncode != 0:
                err = [l for l in proc.stderr.splitlines() if l.strip()]
                sys.exit("experiments.py: %s failed (%d): %s" % (" ".join(cmd), proc.returncode,
                                                                err[0] if err else ""))
            with open(out) as f:
                doc = json.load(f)
        return {"results": doc["results"], "counters": doc["stats"]["counters"]}

    def run_all(self, points):
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as pool:
            return list(pool.map(self.one, points))


def fmt(v):
    if isinstance(v, float):
        return "%.4g" % v
    return str(v)


def write(name, title, header, rows, notes, example, wall, jobs, runs, argv):
    path = os.path.join(RESULTS, name + ".csv")
    command = ("python3 workloads/replicated/experiments.py %s   (from the repository root; this file was written by: "
               "experiments.py %s)" % (name, " ".join(argv)))
    lines = made_by(title, command, git_line(ROOT, "workloads/replicated"), example, runs, wall, jobs)
    publish(path, lines + ["# " + n for n in notes], header, rows, fmt, runs, wall, ROOT)


def scheme_options(df, sd):
    return ["--set", "topology/storage/copies=%d" % df, "--set", "topology/storage/depth=%d" % sd]


def example_command(sim, options, failures):
    cmd = sim.command(options)
    cmd[0] = rel(cmd[0])
    if failures:
        cmd += ["--set", "topology/failures/model=\"trace\"", "--set", "topology/failures/trace=TRACE"]
    return " ".join(a if " " not in a and '"' not in a else "'%s'" % a for a in cmd) + " --output out.json"


def run_recoverable(sim, runs, argv):
    rng = random.Random(2014)  # the paper's year: the victim sets are the same at every run
    # One list of victim sets per burst size, used for every (DF, SD): the schemes are compared
    # on the same failures.
    drawn = {f: [rng.sample(range(N), f) for _ in range(runs)] for f in range(1, 8)}
    points, keys = [], []
    for df, sd in SCHEMES:
        for f in range(1, 8):
            for rep, victims in enumerate(drawn[f]):
                points.append({"options": scheme_options(df, sd) + ["--seed", str(rep + 1)],
                               "failures": [(BURST_DATE, "c0-%d" % v) for v in victims]})
                keys.append((df, sd, f, frozenset(victims)))
    t0 = time.time()
    res = sim.run_all(points)
    wall = time.time() - t0
    rows = []
    for df, sd in SCHEMES:
        mnf = (df - 1) * sd + 1
        for f in range(1, 8):
            sel = [(k, r) for k, r in zip(keys, res) if k[:3] == (df, sd, f)]
            ok = [r["results"]["status"] == "completed" for k, r in sel]
            predicted = [recoverable(set(k[3]), df, sd, N) for k, r in sel]
            older = sum(r["counters"].get("storage.recovery_lines_older", 0) > 0 for k, r in sel)
            exact, count = exhaustive_fraction(f, df, sd, N)
            agree = sum(1 for a, b in zip(ok, predicted) if a == b)
            violations = sum(r["results"]["consistency"]["violations"] for k, r in sel)
            rows.append([df, sd, mnf, f, len(sel), sum(ok) / len(sel), exact, count, agree, older, violations])
    write("recoverable", "Fraction of recoverable bursts of f simultaneous failures, replicated storage, "
          "coordinated protocol, one cluster of %d nodes" % N,
          ["DF", "SD", "MNF", "failures", "runs", "simulated_recoverable", "exhaustive_recoverable",
           "failure_sets", "runs_agreeing_with_rlffn", "runs_restoring_an_older_wave", "oracle_violations"], rows,
          ["every run: f victims drawn at random (the same sets for every (DF, SD)), failing together at "
           "%g s, after 5 waves (period 4 s), so SD waves are kept; 30 s of work per process" % BURST_DATE,
           "simulated_recoverable: runs whose status is 'completed' (else 'unrecoverable failure: ...');",
           "exhaustive_recoverable: exact fraction over every set of f of the %d nodes for which one of the SD "
           "kept saves survives for every node (the paper's RLFFN, computed here in Python);" % N,
           "runs_agreeing_with_rlffn: runs whose outcome is the one the formula predicts for their victim set;",
           "runs_restoring_an_older_wave: recoveries where the newest wave had lost every copy of some node;",
           "oracle_violations: consistency violations found by the oracle, summed over the runs (must be 0);",
           "the paper (section 3.2) claims fraction 1 for f <= MNF = (DF-1)*SD+1 when N >= DF^SD+SD (here for all)"],
          example_command(sim, points[0]["options"], True), wall, sim.jobs, len(points), argv)


def run_cost(sim, argv):
    points = [{"options": scheme_options(df, sd) + ["--set", "topology/failures/model=\"none\""]}
              for df, sd in SCHEMES]
    points.append({"options": ["--set", "topology/storage={\"model\": \"buddy\"}",
                               "--set", "topology/failures/model=\"none\""]})
    t0 = time.time()
    res = sim.run_all(points)
    wall = time.time() - t0
    rows = []
    v0 = 10e6
    for (df, sd), r in zip(SCHEMES + [("buddy", "")], res):
        c = r["counters"]
        waves = c.get("coordinated.waves_committed", 0)
        held = r["results"]["storage_held_max_copy_bytes"] / N
        paper = v0 * sd * (df + 1) if df != "buddy" else v0 * 2
        rows.append([df, sd, int(waves), c.get("coordinated.checkpoint_time", 0) / waves if waves else 0.0,
                     r["results"]["makespan"], r["results"]["overhead_pct"], held / 1e6, paper / 1e6,
                     c.get("storage.bytes_written", 0) / waves / N / 1e6 if waves else 0.0])
    write("cost", "Storage and checkpoint time of replicated storage against DF and SD (coordinated, %d nodes, "
          "10 MB checkpoints, SAN 80 MB/s, failure free)" % N,
          ["DF", "SD", "waves", "mean_wave_s", "makespan_s", "overhead_pct", "held_max_MB_per_node",
           "paper_V_MB_per_node", "written_MB_per_node_per_wave"], rows,
          ["held_max_MB_per_node: results.storage_held_max_copy_bytes / %d (every copy counted, local ones included)" % N,
           "paper_V_MB_per_node: the paper's V = V0 * SD * (DF + 1) with V0 = 10 MB (buddy: 2 V0);",
           "  ckptsim keeps the SD committed waves while the next one is saved, so the most held is (SD + 1)(DF + 1) V0",
           "mean_wave_s: coordinated.checkpoint_time / waves (INIT to the last ACK, copies included);",
           "  each process sends DF copies of 10 MB through its 80 MB/s NIC: about DF * 0.125 s",
           "last row: the buddy model (one copy on the next node) for comparison"],
          example_command(sim, points[0]["options"], False), wall, sim.jobs, len(points), argv)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("experiment", choices=["recoverable", "cost", "all"])
    add_simulator_options(ap, ROOT)
    ap.add_argument("--runs", type=int, default=30, help="runs per (DF, SD, f) point of 'recoverable' (default 30)")
    args = ap.parse_args()
    sim = Sim(simulator(args), max(1, args.jobs))
    argv = sys.argv[1:]
    if args.experiment in ("cost", "all"):
        run_cost(sim, argv)
    if args.experiment in ("recoverable", "all"):
        run_recoverable(sim, args.runs, argv)


if __name__ == "__main__":
    main()
