#!/usr/bin/python3
"""Compares the checkpointing protocols on the shipped MPI traces (issue 17, item 6) with ckptsim.

    python3 workloads/mpi/experiments.py [--jobs 2] [--seeds 20]

Each application trace of traces/ (jacobi2d, cg, master_worker; coverage is a syntax test, not an
application) as an mpi-trace application whose computations are scaled to about 1 h (SCALES; the
script writes the application files to a temporary folder), mapped onto the 2-cluster and the
4-cluster federation of platforms/ (rank i on node i), under the protocols none, coordinated, hc3i,
independent (unit=cluster) and msglog (pessimistic), with exponential failures (federation MTBF
20 min), a checkpoint every 5 min and 50 MB per process checkpoint; the same seeds for every
protocol, so each protocol meets the same failure dates and victims (as `ckptsim compare`). Every run must complete with 0 consistency violations and the
failure-free result checksum (the trace replayed exactly once in effect), or the script stops with
the command to reproduce it.

Writes results/mpi/compare.csv (one row per trace x federation x protocol: means and 95 %
confidence half-widths over the seeds) and results/mpi/compare.runs.csv (one row per run), both
with '#' header lines saying how they were made, and prints the table. See workloads/mpi/README.md,
"Protocol comparison". Standard library only (Python >= 3.7)."""
import argparse
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "workloads", "experiments"))
from results_file import add_simulator_options, git_line, made_by, mean_ci, publish_with_runs, simulator, with_ci  # noqa: E402
RESULTS = os.path.join(ROOT, "results", "mpi")

TRACES = ["jacobi2d", "cg", "master_worker"]
# compute_scale of each trace: a failure-free run of about 1 h with protocol none on either
# federation (3590, 3604 and 3608 s); the traces themselves last 17 to 85 ms.
SCALES = {"jacobi2d": 1.33e6, "cg": 1.19e6, "master_worker": 4.8e5}
FEDERATIONS = [("2 clusters", "two-clusters", 2), ("4 clusters", "four-clusters", 4)]
# (label, ckptsim options): the protocols of issue 17 item 6, variants named explicitly.
PROTOCOLS = [("none", ["--protocol", "none"]),
             ("coordinated", ["--protocol", "coordinated"]),
             ("hc3i", ["--protocol", "hc3i"]),
             ("independent:unit=cluster", ["--protocol", "independent", "--param", "unit=cluster"]),
             ("msglog:variant=pessimistic", ["--protocol", "msglog", "--param", "variant=pessimistic"])]
MTBF = "20min"
CHECKPOINT_SIZE = "50MB"
# As workloads/default (the HC3I report's federation): detection 1 s, node back after 1 min, 10 s
# to restart a process.
FAILURES = {"model": "exponential", "detection_delay": "1s", "downtime": "1min", "restart_overhead": "10s"}
TIMERS = {"checkpoint_period": "5min", "gc_period": "30min"}


def rel(path):
    return os.path.relpath(path, ROOT)


def application(trace):
    """The application document of a trace; its trace path is relative to the repository root,
    where the application files are read from (the runs start there). No "sends": the kind's
    default, SMPI's rendezvous semantics, which every protocol accepts (main 71ef90e)."""
    return {"kind": "mpi-trace", "trace": rel(os.path.join(HERE, "traces", trace, trace + ".ti")),
            "compute_scale": SCALES[trace]}


def write_applications(folder):
    """Writes FOLDER/<trace>.json for every trace. They are not committed files: the JSON schema of
    applications (schemas/application.schema.json) does not know the mpi-trace kind yet, and every
    JSON file under workloads/ must pass it (tests/unit/test_schemas.cpp)."""
    for trace in TRACES:
        doc = dict(application(trace), trace=os.path.join(ROOT, application(trace)["trace"]))
        with open(os.path.join(folder, trace + ".json"), "w") as f:
            json.dump(doc, f)


def inputs(trace, federation, apps):
    """The input options of one trace on one federation (APPS: the folder of the application files;
    other paths relative to ROOT, where the runs start)."""
    _, platform, clusters = federation
    opts = ["--topology", rel(os.path.join(HERE, "platforms", platform + ".json")),
            "--application", os.path.join(apps, trace + ".json"),
            "--set", "timers/default=" + json.dumps(TIMERS, separators=(",", ":")), "--set", "topology/mtbf=" + MTBF,
            "--set", "topology/failures=" + json.dumps(FAILURES, separators=(",", ":"))]
    for c in range(clusters):
        opts += ["--set", "topology/clusters/%d/checkpoint_size=%s" % (c, CHECKPOINT_SIZE)]
    return opts


def checkpoints(protocol, doc):
    """(forced, unforced) checkpoints in the protocol's own unit, None where it has no such thing:
    coordinated waves, hc3i cluster-level checkpoints (CLCs, both clusters' summed), independent
    cluster checkpoints, msglog process checkpoints; the initial ones not counted."""
    c = doc["stats"]["counters"]
    name = protocol.split(":")[0]
    if name == "coordinated":
        return None, c.get("coordinated.waves_committed", 0.0)
    if name == "hc3i":
        per = doc["stats"]["per_cluster"]
        return sum(per["hc3i.clc_forced"]), sum(per["hc3i.clc_unforced"])
    if name == "independent":
        return None, c.get("independent.checkpoints", 0.0)
    if name == "msglog":
        return None, c.get("msglog.checkpoints", 0.0)
    return None, None


class Sim:
    """Runs ckptsim, --jobs at a time; every run is checked (completed, 0 violations, checksum)."""

    def __init__(self, ckptsim, jobs, apps):
        self.ckptsim = ckptsim
        self.jobs = jobs
        self.apps = apps

    def command(self, point):
        trace, federation, (_, protocol_opts), seed, extra = point
        return [self.ckptsim, "run", "--quiet"] + protocol_opts + inputs(trace, federation, self.apps) + extra + [
            "--seed", str(seed)]

    def fail(self, point, what):
        """Stops the script: the command of POINT, its application file's content, WHAT went wrong."""
        sys.exit("experiments.py: %s\n  with %s/%s.json = %s\n%s" % (
            " ".join(shlex.quote(a) for a in self.command(point)), self.apps, point[0],
            json.dumps(application(point[0])), what))

    def one(self, point):
        with tempfile.TemporaryDirectory(prefix="mpi-exp-") as tmp:
            out = os.path.join(tmp, "out.json")
            cmd = self.command(point) + ["--output", out]
            proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  universal_newlines=True)
            if proc.returncode != 0:
                self.fail(point, "failed (exit %d):\n%s" % (proc.returncode, proc.stderr))
            with open(out) as f:
                doc = json.load(f)
        res = doc["results"]
        if res["status"] != "completed" or res["consistency"]["violations"] != 0:
            self.fail(point, "status %s, %d consistency violations" % (res["status"], res["consistency"]["violations"]))
        return doc

    def run_all(self, points):
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as pool:
            return list(pool.map(self.one, points))


# Per-run columns: name, value from (protocol, doc, failure-free makespan).
RUN_COLUMNS = [
    ("makespan_s", lambda p, d, ff: d["results"]["makespan"]),
    ("overhead_pct", lambda p, d, ff: 100.0 * (d["results"]["makespan"] / ff - 1.0)),
    ("lost_work_s", lambda p, d, ff: d["results"]["lost_work"]),
    ("control_messages", lambda p, d, ff: d["results"]["control_messages"]),
    ("control_messages_wan", lambda p, d, ff: d["stats"]["counters"].get("ctrl.wan", 0.0)),
    ("checkpoint_saves", lambda p, d, ff: d["stats"]["counters"].get("storage.saves", 0.0)),
    ("forced_checkpoints", lambda p, d, ff: checkpoints(p, d)[0]),
    ("unforced_checkpoints", lambda p, d, ff: checkpoints(p, d)[1]),
    ("storage_held_max_mb", lambda p, d, ff: d["results"]["storage_held_max_bytes"] / 1e6),
    ("failures", lambda p, d, ff: d["results"]["failures"]),
    ("failures_deferred", lambda p, d, ff: d["results"]["failures_deferred"]),
    ("rolled_back_per_failure", lambda p, d, ff: d["results"]["rolled_back_per_failure"]),
]
# Every column of a run: those above, then its makespan minus coordinated's with the same seed.
COLUMNS = [name for name, _ in RUN_COLUMNS] + ["makespan_minus_coordinated_s"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_simulator_options(ap, ROOT)
    ap.add_argument("--seeds", type=int, default=20, help="seeds 1..N per point (default 20)")
    args = ap.parse_args()
    seeds = list(range(1, args.seeds + 1))
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix="mpi-exp-apps-") as apps:
        write_applications(apps)
        sim = Sim(simulator(args), max(1, args.jobs), apps)
        ff, run_rows, by_point = run_experiment(sim, seeds)
    wall = time.time() - t0
    publish_tables(args, sim, seeds, ff, run_rows, by_point, wall)


def run_experiment(sim, seeds):
    """Runs every point; gives the failure-free references, the per-run rows and the runs by point."""
    # Failure-free reference of each trace x federation: protocol none, no failure. Its makespan is
    # the base of the overhead, its checksum what every run with failures must give.
    no_failure = ["--set", "topology/mtbf=never"]
    cases = [(t, f) for t in TRACES for f in FEDERATIONS]
    ff = {}
    for (t, f), doc in zip(cases, sim.run_all([(t, f, PROTOCOLS[0], 1, no_failure) for t, f in cases])):
        ff[(t, f[0])] = (doc["results"]["makespan"], doc["results"]["result_checksum"])

    points = [(t, f, p, s, []) for t, f in cases for p in PROTOCOLS for s in seeds]
    docs = sim.run_all(points)
    coordinated = {(t, f[0], s): doc["results"]["makespan"] for (t, f, p, s, _), doc in zip(points, docs)
                   if p[0] == "coordinated"}
    run_rows, by_point = [], {}
    for (t, f, p, s, _), doc in zip(points, docs):
        base, checksum = ff[(t, f[0])]
        if doc["results"]["result_checksum"] != checksum:
            sim.fail((t, f, p, s, []), "result checksum %s, failure-free %s (a message lost, duplicated or replayed "
                     "differently)" % (doc["results"]["result_checksum"], checksum))
        values = [col(p[0], doc, base) for _, col in RUN_COLUMNS]
        # Paired with coordinated's run of the same seed (same failures until one run ends): the
        # seed-to-seed spread of the failures cancels out.
        values.append(doc["results"]["makespan"] - coordinated[(t, f[0], s)])
        run_rows.append([t, f[0], p[0], s] + values)
        by_point.setdefault((t, f[0], p[0]), []).append(values)
    return ff, run_rows, by_point


def publish_tables(args, sim, seeds, ff, run_rows, by_point, wall):
    """Writes compare.csv and compare.runs.csv with their '#' lines, and prints the table."""
    rows = []
    for (t, fed, p), runs in by_point.items():
        row = [t, fed, p, len(runs), ff[(t, fed)][0]]
        for i, _ in enumerate(COLUMNS):
            row += list(mean_ci([r[i] for r in runs]))
        rows.append(row)
    header = ["trace", "federation", "protocol", "runs", "failure_free_makespan_s"] + with_ci(COLUMNS)

    # The example names the application file as written at the repository root (application()).
    example = " ".join(shlex.quote(a) for a in [rel(sim.ckptsim), "run"] + sim.command(
        (TRACES[0], FEDERATIONS[0], PROTOCOLS[2], 1, []))[2:] + ["--output", "out.json"]).replace(
        os.path.join(sim.apps, ""), "")
    n_runs = len(FEDERATIONS) * len(TRACES) * (1 + len(PROTOCOLS) * len(seeds))
    lines = made_by("MPI traces: protocols compared on each trace x federation (issue 17 item 6), means over seeds "
                    "%d-%d with 95 %% confidence half-widths (Student's t)" % (seeds[0], seeds[-1]),
                    "python3 workloads/mpi/experiments.py --jobs %d --seeds %d   (from the repository root)"
                    % (sim.jobs, args.seeds), git_line(ROOT, "workloads/mpi"), example, n_runs, wall, sim.jobs)
    notes = ["# applications: %s (compute_scale: a failure-free run of about 1 h; the script writes them, the "
             "example reads them at the repository root)" % ", ".join(
                 "%s.json = %s" % (t, json.dumps(application(t))) for t in TRACES),
             "# inputs: workloads/mpi/platforms/two-clusters.json (2 x 8 nodes) and four-clusters.json (4 x 4), "
             "rank i on node i; --set timers %s, mtbf %s, failures %s, checkpoint_size %s per process"
             % (json.dumps(TIMERS), MTBF, json.dumps(FAILURES), CHECKPOINT_SIZE),
             "# failure_free_makespan_s: protocol none without failure (the base of overhead_pct); every run "
             "completed with 0 consistency violations and the failure-free result_checksum",
             "# lost_work_s: computation undone by rollbacks, summed over processes; control_messages: protocol "
             "messages (_wan: between clusters); checkpoint_saves: process states saved; storage_held_max_mb: "
             "checkpoints held at once (one copy each); forced / unforced_checkpoints in the protocol's unit "
             "(coordinated: waves; hc3i: CLCs of all clusters; independent: cluster checkpoints; msglog: process "
             "checkpoints), empty where none exists",
             "# rolled_back_per_failure: processes that restored a state per failure (mean over the runs with a "
             "failure); failures: struck (the same dates and victims for every protocol until its run ends); "
             "makespan_minus_coordinated_s: paired with coordinated's run of the same seed"]
    runs_title = "# MPI traces: protocols compared on each trace x federation (issue 17 item 6), one row per run " \
                 "(seeds %d-%d); compare.csv has their means" % (seeds[0], seeds[-1])
    short = ["trace", "federation", "protocol", "makespan_s", "makespan_s_ci95", "overhead_pct", "lost_work_s",
             "control_messages", "forced_checkpoints", "unforced_checkpoints", "failures", "rolled_back_per_failure",
             "makespan_minus_coordinated_s", "makespan_minus_coordinated_s_ci95"]
    publish_with_runs(os.path.join(RESULTS, "compare.csv"), os.path.join(RESULTS, "compare.runs.csv"), lines + notes,
                      runs_title, header, rows, ["trace", "federation", "protocol", "seed"] + COLUMNS, run_rows, short,
                      n_runs, wall, rel)


if __name__ == "__main__":
    main()
