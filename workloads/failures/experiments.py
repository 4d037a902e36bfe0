#!/usr/bin/python3
"""The protocols under four failure regimes of one failure rate, on two federations (issue 31, item 7).

    python3 workloads/failures/experiments.py [--jobs 2] [--seeds 6]
    python3 workloads/failures/experiments.py --write-log FILE   # only write the synthetic LANL log

Two federations:
- "4 clusters (MPI)": workloads/mpi/platforms/four-clusters.json (4 x 4 nodes) running the jacobi2d
  MPI trace of workloads/mpi scaled to about 1 h failure-free (as workloads/mpi/experiments.py:
  compute_scale 1.33e6, a checkpoint every 5 min, GC every 30 min, 50 MB per process checkpoint),
  federation MTBF 20 min, racks of 2 nodes;
- "default (2 x 100)": ckptsim's embedded default scenario (the HC3I report's 2 x 100 nodes, its
  stochastic application, a checkpoint every 30 min, GC every 2 h, 1 MB checkpoints), the
  application cut to 5 h (--set application/total_time=5h) and the federation MTBF lowered from
  10 h to 2 h, so that a run meets a few failures; racks of 10 nodes.

Four failure regimes with the same mean number of failure events per hour (1 / MTBF):
  exponential   node failures at exponential gaps of mean MTBF (the victim uniform);
  correlated    half the events are node failures (mtbf 2 MTBF), a quarter rack outages and a
                quarter cluster outages (each correlated source of mtbf 4 MTBF): the same event rate,
                many more victims per event;
  weibull-0.6   node failures at Weibull gaps of shape 0.6 and mean MTBF (bursts);
  lanl-log      a failure log in the LANL format (LA-UR-05-7318), written by this script (lanl_log():
                deterministic, synthetic, not LANL's data): per federation one system of 400 nodes
                whose records come at exponential gaps of mean MTBF, each with its own repair time
                (lognormal, median MTBF / 12, sigma 1, whole minutes), 5 % of them power outages of
                two nodes at one date; mapped onto the nodes "modulo"; seed s replays the window that
                starts s - 1 days after the log's first date.
The first three repair a node in 1 min (detection 1 s, restart overhead 10 s: workloads/default's);
the log gives every failure its own repair time. Protocols: none, coordinated, hc3i,
independent (unit=cluster) and msglog (pessimistic), each with its default storage (hc3i: buddy,
the others: one checkpoint server). Then hc3i with buddy against checkpoint-server storage under
rack-outages (half the events rack outages) and cluster-outages (half of them cluster outages).

Seeds 1..N per point, the same for every protocol (so each meets the same failure dates and
victims until its run ends). A run may end completed; unrecoverable only where docs/MODEL.md
("Which domain failures each protocol survives") says it must (hc3i under cluster outages, and with
buddy storage under rack outages); stuck only for none and independent (docs/MODEL.md, "A run
always ends": their livelocks). Any other ending, a consistency violation, another result checksum
than the failure-free run's (MPI trace), an exit status other than 0 (3 for an accepted stuck run)
or a run longer than 120 s of wall time stops the script with the command that reproduces it.

Writes results/failures/regimes.csv (one row per federation x regime x protocol: outcomes and the
means over completed runs, 95 % confidence half-widths) and results/failures/regimes.runs.csv (one
row per run), both with '#' header lines saying how they were made, and prints the table;
/usr/bin/python3 plots/failures_regimes.py draws it. See workloads/failures/README.md, "Experiment:
failure regimes". Standard library only (Python >= 3.7)."""
import argparse
import datetime
import json
import math
import os
import random
import shlex
import sys

sys.path.insert(0, os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "experiments")))
from results_file import add_simulator_options, git_line, made_by, publish_with_runs, with_ci  # noqa: E402
import federations  # noqa: E402
from federations import (DEFAULT_STORAGE, MPI_APPLICATION, PROTOCOLS, ROOT, compact, completed_means,  # noqa: E402
                         default_options, mpi_options, status_detail)
RESULTS = os.path.join(ROOT, "results", "failures")
WALL_LIMIT = 120  # seconds of wall time per run before the script stops

# As workloads/default: detection 1 s, node back after 1 min, 10 s to restart a process.
RECOVERY = {"detection_delay": "1s", "downtime": "1min", "restart_overhead": "10s"}


def seconds(text):
    units = {"s": 1, "min": 60, "h": 3600}
    for u in sorted(units, key=len, reverse=True):
        if text.endswith(u):
            return float(text[:-len(u)]) * units[u]
    raise ValueError(text)


class Federation:
    """One federation: its name, the options giving it, its federation MTBF and rack size, and the
    system of the synthetic LANL log it replays."""

    def __init__(self, label, key, mtbf, rack, system, nodes, options):
        self.label, self.key, self.mtbf, self.rack, self.system, self.nodes = label, key, mtbf, rack, system, nodes
        self.options = options  # function of the temporary folder (application file) -> options


# The federations' options (mpi_options, default_options), the MPI application, the protocols
# (PROTOCOLS) and their storage when none is given (DEFAULT_STORAGE): workloads/experiments/
# federations.py's, shared with workloads/network/experiments.py.
FEDERATIONS = [Federation("4 clusters (MPI)", "mpi", "20min", 2, 1, 16, mpi_options),
               Federation("default (2 x 100)", "default", "2h", 10, 2, 200, default_options)]

REGIMES = ["exponential", "correlated", "weibull-0.6", "lanl-log"]
STORAGE_REGIMES = ["rack-outages", "cluster-outages"]
STORAGE_MODELS = ["buddy", "servers"]

# The synthetic LANL log: 30 days from LOG_START, read from from LOG_START + (seed - 1) days.
LOG_START = datetime.datetime(2004, 3, 1, 0, 0)
LOG_DAYS = 30
LOG_SYSTEM_NODES = 400  # a multiple of 16 and of 200: "modulo" spreads the log's nodes evenly
LANL_HEADER = ("System,machine type,nodes,procstot,procsinnode,nodenum,nodenumz,node install,node prod,node decom,"
               "fru type,mem,cpu,Prob Started,Prob Fixed,Down Time,Facilities,Hardware,Human Error,Network,"
               "Undetermined,Software,Same Event")
CAUSES = [("Hardware", ["Memory Dimm", "CPU", "Disk Drive", "Power Supply", "Node Board"], 0.60),
          ("Software", ["Other Software", "Kernel software", "Parallel File System"], 0.20),
          ("Network", ["Switch", "Interconnect Interface"], 0.05),
          ("Human Error", ["Operator"], 0.05),
          ("Undetermined", ["Unresolvable"], 0.05)]
POWER_SHARE = 0.05  # the rest: Facilities, "Power Outage" striking two nodes at one date


def lanl_date(d):
    return "%d/%d/%d %d:%02d" % (d.month, d.day, d.year, d.hour, d.minute)


def lanl_log():
    """The synthetic log's text, the same bytes on every call: per federation a system of
    LOG_SYSTEM_NODES nodes, records at exponential gaps of mean its federation MTBF (dates in whole
    minutes, as LANL writes them), repair times lognormal of median MTBF / 12 and sigma 1 (whole
    minutes, at least 1), causes drawn as CAUSES; a POWER_SHARE of the records are Facilities power
    outages of two consecutive nodes at one date ("Same Event" Yes)."""
    rng = random.Random(31)
    lines = [LANL_HEADER]
    for fed in FEDERATIONS:
        mtbf = seconds(fed.mtbf)
        median_min = mtbf / 12.0 / 60.0
        t = LOG_START
        end = LOG_START + datetime.timedelta(days=LOG_DAYS)
        while True:
            t = t + datetime.timedelta(minutes=round(rng.expovariate(1.0 / mtbf) / 60.0))
            if t >= end:
                break
            repair = max(1, int(round(rng.lognormvariate(math.log(median_min), 1.0))))
            fixed = t + datetime.timedelta(minutes=repair)
            node = rng.randrange(LOG_SYSTEM_NODES)
            u = rng.random()
            cause, detail, nodes, same = None, None, [node], "No"
            if u < POWER_SHARE:
                cause, detail, nodes, same = "Facilities", "Power Outage", [node, (node + 1) % LOG_SYSTEM_NODES], "Yes"
            else:
                u = rng.random() * sum(w for _, _, w in CAUSES)
                for name, details, w in CAUSES:
                    if u < w:
                        cause, detail = name, rng.choice(details)
                        break
                    u -= w
                else:
                    cause, detail = CAUSES[-1][0], CAUSES[-1][1][0]
            cols = ["Facilities", "Hardware", "Human Error", "Network", "Undetermined", "Software"]
            for n in nodes:
                cells = ["" for _ in cols]
                cells[cols.index(cause)] = detail
                lines.append(",".join([str(fed.system), "cluster", str(LOG_SYSTEM_NODES), str(4 * LOG_SYSTEM_NODES), "4",
                                       str(n + 1), str(n), "1/1/2004 0:00", "2/1/2004 0:00", "current", "part", "8",
                                       "4", lanl_date(t), lanl_date(fixed), str(repair)] + cells + [same]))
    return "\n".join(lines) + "\n"


def failures(fed, regime, log_path, seed):
    """(topology/mtbf, topology/failures) of a regime on a federation."""
    m = seconds(fed.mtbf)
    if regime == "exponential":
        return fed.mtbf, dict(RECOVERY, model="exponential")
    if regime == "weibull-0.6":
        return fed.mtbf, dict(RECOVERY, model="weibull", shape=0.6)
    if regime == "correlated":
        return "%gs" % (2 * m), dict(RECOVERY, model="exponential", correlated=[
            {"scope": "rack", "mtbf": "%gs" % (4 * m)}, {"scope": "cluster", "mtbf": "%gs" % (4 * m)}])
    if regime in ("rack-outages", "cluster-outages"):
        return "%gs" % (2 * m), dict(RECOVERY, model="exponential", correlated=[
            {"scope": regime.split("-")[0], "mtbf": "%gs" % (2 * m)}])
    if regime == "lanl-log":
        start = LOG_START + datetime.timedelta(days=seed - 1)
        return fed.mtbf, {"model": "lanl", "file": log_path, "system": fed.system, "nodes": "modulo",
                          "from": lanl_date(start), "detection_delay": RECOVERY["detection_delay"],
                          "restart_overhead": RECOVERY["restart_overhead"]}
    raise ValueError(regime)


def rel(path):
    return os.path.relpath(path, ROOT)


class Point:
    """One run: federation, regime, protocol (label, options), storage ("" = the protocol's), seed;
    no_failure: the failure-free reference (failure model none)."""

    def __init__(self, fed, regime, protocol, storage, seed, no_failure=False):
        self.fed, self.regime, self.protocol, self.storage, self.seed = fed, regime, protocol, storage, seed
        self.no_failure = no_failure

    def name(self):
        return self.protocol[0].split(":")[0]


class Sim(federations.Sim):
    """Runs ckptsim, --jobs at a time; checks every run (docstring) and stops at the first bad one."""

    def __init__(self, ckptsim, jobs, tmp):
        super().__init__(ckptsim, jobs, tmp)
        self.log = os.path.join(tmp, "lanl-synthetic.csv")

    def command(self, p):
        cmd = [self.ckptsim, "run", "--quiet"] + p.protocol[1] + p.fed.options(self.tmp)
        cmd += ["--set", "topology/domains=" + compact({"rack": p.fed.rack})]
        if p.no_failure:
            cmd += ["--set", "topology/failures=" + compact({"model": "none"})]
        else:
            mtbf, doc = failures(p.fed, p.regime, self.log, p.seed)
            cmd += ["--set", "topology/mtbf=" + mtbf, "--set", "topology/failures=" + compact(doc)]
        if p.storage:
            cmd += ["--set", "topology/storage=" + compact({"model": p.storage})]
        return cmd + ["--seed", str(p.seed)]

    def fail(self, p, what):
        """Stops the script: the command of P, the files it reads from the temporary folder, WHAT went wrong."""
        self.stopped.set()
        sys.exit("experiments.py: %s\n  with %s = %s\n  and %s as `python3 %s --write-log FILE` writes it\n%s" % (
                     " ".join(shlex.quote(a) for a in self.command(p)), self.app, json.dumps(self.app_doc()),
                     self.log, rel(__file__), what))

    def one(self, p):
        if self.stopped.is_set():
            return None, None
        proc, doc = self.execute(p, "failures-exp-", WALL_LIMIT)
        res = doc["results"]
        status = res["status"]
        outcome = self.outcome(p, proc, res, ("completed", "unrecoverable", "stuck"))
        storage = doc["run"]["storage"]
        if storage != (p.storage or DEFAULT_STORAGE[p.name()]):
            self.fail(p, "storage %s, expected %s" % (storage, p.storage or DEFAULT_STORAGE[p.name()]))
        if outcome == "stuck" and p.name() not in ("none", "independent"):
            self.fail(p, "stuck, which docs/MODEL.md allows none and independent only: %s" % status)
        if outcome == "unrecoverable" and not self.may_lose(p, storage, res):
            self.fail(p, "unrecoverable, which docs/MODEL.md does not allow here: %s" % status)
        if p.no_failure and outcome != "completed":
            self.fail(p, "the failure-free reference did not complete: %s" % status)
        return doc, outcome

    @staticmethod
    def may_lose(p, storage, res):
        """docs/MODEL.md's table: hc3i does not survive a whole cluster's outage; buddy storage does not
        survive a node failing with its buddy (consecutive racks hold buddy pairs)."""
        scopes = {s for s, v in res.get("failure_events", {}).items() if v.get("events")}
        return p.name() == "hc3i" and ("cluster" in scopes or (storage == "buddy" and "rack" in scopes))


def events(res):
    """(failure events, by scope as 'node/rack/cluster') of a run: with correlated sources
    results.failure_events counts them; otherwise every failure is an event of one victim."""
    fe = res.get("failure_events")
    if not fe:
        return res["failures"], "%d/0/0" % res["failures"]
    total = sum(v["events"] for v in fe.values())
    return total, "/".join("%d" % fe.get(s, {}).get("events", 0) for s in ("node", "rack", "cluster"))


# Per-run columns, from (doc, failure-free makespan); None where the run did not complete.
def run_values(doc, outcome, ff):
    res = doc["results"]
    done = outcome == "completed"
    ev, by_scope = events(res)
    log = res.get("failure_log") or {}
    return [outcome,
            res["makespan"] if done else None,
            100.0 * (res["makespan"] / ff - 1.0) if done else None,
            ev, by_scope, res["failures"], res["failures_deferred"],
            res["lost_work"] if done else None,
            res["rolled_back_per_failure"] if done else None,
            res["end_date"],
            log.get("used"),
            status_detail(res["status"]) if not done else ""]


RUN_COLUMNS = ["outcome", "makespan_s", "overhead_pct", "failure_events", "events_node_rack_cluster", "failures",
               "failures_deferred", "lost_work_s", "rolled_back_per_failure", "end_date_s", "log_records_used",
               "status"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_simulator_options(ap, ROOT)
    ap.add_argument("--seeds", type=int, default=6, help="seeds 1..N per point (default 6, at most %d)" % (LOG_DAYS - 5))
    ap.add_argument("--write-log", metavar="FILE", help="write the synthetic LANL log to FILE and stop")
    args = ap.parse_args()
    if args.write_log:
        with open(args.write_log, "w") as f:
            f.write(lanl_log())
        return
    if not 1 <= args.seeds <= LOG_DAYS - 5:
        ap.error("--seeds: 1 to %d (the synthetic log's windows)" % (LOG_DAYS - 5))
    seeds = list(range(1, args.seeds + 1))
    sim, (ff, run_rows, by_point, example), wall = federations.run_in_inputs(
        args, "failures-exp-inputs-", Sim, lambda sim: run_experiment(sim, seeds) + (example_line(sim),),
        write_inputs=write_log)
    publish_tables(args, sim, seeds, ff, run_rows, by_point, wall, example)


def write_log(sim):
    with open(sim.log, "w") as f:
        f.write(lanl_log())


def run_experiment(sim, seeds):
    ff = sim.references([Point(fed, "", PROTOCOLS[0], "", 1, no_failure=True) for fed in FEDERATIONS])
    points = []
    for fed in FEDERATIONS:
        for regime in REGIMES:
            for proto in PROTOCOLS:
                points += [Point(fed, regime, proto, "", s) for s in seeds]
        hc3i = [p for p in PROTOCOLS if p[0] == "hc3i"][0]
        for regime in STORAGE_REGIMES:
            for storage in STORAGE_MODELS:
                points += [Point(fed, regime, hc3i, storage, s) for s in seeds]
    results = sim.run_all(points)
    run_rows, by_point = [], {}
    for p, (doc, outcome) in zip(points, results):
        base, checksum = ff[p.fed.key]
        sim.check_checksum(p, doc, outcome, checksum)
        storage = p.storage or doc["run"]["storage"]
        values = run_values(doc, outcome, base)
        run_rows.append([p.fed.label, p.regime, p.protocol[0], storage, p.seed] + values)
        by_point.setdefault((p.fed.label, p.regime, p.protocol[0], storage), []).append(values)
    return ff, run_rows, by_point


HEADER = ["federation", "regime", "protocol", "storage", "runs", "completed", "unrecoverable", "stuck",
          "failure_free_makespan_s"]
MEANS = ["makespan_s", "overhead_pct", "failure_events", "failures", "failures_deferred", "lost_work_s",
         "rolled_back_per_failure"]


def summary_rows(by_point, ff):
    rows = []
    key_of = {f.label: f.key for f in FEDERATIONS}
    for (fed, regime, proto, storage), runs in by_point.items():
        outcomes = [r[0] for r in runs]
        row = [fed, regime, proto, storage, len(runs), outcomes.count("completed"), outcomes.count("unrecoverable"),
               outcomes.count("stuck"), ff[key_of[fed]][0]]
        row += completed_means(runs, MEANS, RUN_COLUMNS)
        # When the runs that did not complete ended: what an unrecoverable run had reached.
        ended = [r[RUN_COLUMNS.index("end_date_s")] for r in runs if r[0] != "completed"]
        row.append(sum(ended) / len(ended) if ended else None)
        rows.append(row)
    return rows


def example_line(sim):
    p = Point(FEDERATIONS[0], "correlated", PROTOCOLS[2], "", 1)
    return " ".join(shlex.quote(a) for a in [rel(sim.ckptsim)] + sim.command(p)[1:] + ["--output", "out.json"]
                    ).replace(os.path.join(sim.tmp, ""), "")


def publish_tables(args, sim, seeds, ff, run_rows, by_point, wall, example):
    rows = summary_rows(by_point, ff)
    header = HEADER + with_ci(MEANS) + ["not_completed_end_date_s"]
    n_runs = len(FEDERATIONS) + len(run_rows)
    lines = made_by("Failure regimes (issue 31 item 7): protocols under exponential, correlated (rack and cluster "
                    "outages), Weibull 0.6 and LANL-log failures of one event rate, on two federations; hc3i with "
                    "buddy or server storage under rack and cluster outages; seeds %d-%d" % (seeds[0], seeds[-1]),
                    "python3 workloads/failures/experiments.py --jobs %d --seeds %d   (from the repository root)"
                    % (sim.jobs, args.seeds), git_line(ROOT, "workloads/failures", "workloads/mpi"), example,
                    n_runs, wall, sim.jobs)
    notes = ["# federations: 4 clusters (MPI) = workloads/mpi/platforms/four-clusters.json (4 x 4 nodes), jacobi2d.json "
             "= %s (relative to the repository root), timers 5min/30min, checkpoint_size 50MB, MTBF 20min, racks of "
             "2; default (2 x 100) = the embedded scenario with --set application/total_time=5h, MTBF 2h, racks of "
             "10 (topology/domains)" % json.dumps(MPI_APPLICATION),
             "# regimes at one event rate 1/MTBF: exponential; correlated = node mtbf 2 MTBF + rack and cluster "
             "outages each of mtbf 4 MTBF; weibull-0.6 (mean MTBF); lanl-log = the synthetic LANL log the script "
             "writes (--write-log FILE), system 1 (MPI) or 2 (default), 400 nodes mapped modulo, exponential gaps of "
             "mean MTBF, lognormal repair times of median MTBF/12 and sigma 1, 5 %% two-node power outages, seed s "
             "from %s + (s - 1) days; rack-outages, cluster-outages = node mtbf 2 MTBF + that scope's outages of mtbf "
             "2 MTBF; recovery %s (the log: its own repair times)" % (lanl_date(LOG_START), json.dumps(RECOVERY)),
             "# storage: the protocol's default (hc3i buddy, others one checkpoint server) except in the "
             "rack-outages and cluster-outages rows; completed / unrecoverable / stuck: runs ending so (unrecoverable "
             "and stuck only where docs/MODEL.md allows them, checked); every completed MPI run gives the failure-free "
             "result_checksum; 0 consistency violations",
             "# means over the completed runs only (empty when none): makespan_s, overhead_pct over "
             "failure_free_makespan_s (protocol none without failure, seed 1), failure_events (node, rack, cluster "
             "events or log records), failures (victims), failures_deferred, lost_work_s (process-seconds undone), "
             "rolled_back_per_failure; not_completed_end_date_s: the mean date at which the other runs ended"]
    runs_title = "# Failure regimes (issue 31 item 7), one row per run (seeds %d-%d); regimes.csv has their means" % (
        seeds[0], seeds[-1])
    short = ["federation", "regime", "protocol", "storage", "completed", "unrecoverable", "stuck", "overhead_pct",
             "overhead_pct_ci95", "failure_events", "failures", "failures_deferred", "lost_work_s",
             "rolled_back_per_failure"]
    publish_with_runs(os.path.join(RESULTS, "regimes.csv"), os.path.join(RESULTS, "regimes.runs.csv"), lines + notes,
                      runs_title, header, rows, ["federation", "regime", "protocol", "storage", "seed"] + RUN_COLUMNS,
                      run_rows, short, n_runs, wall, rel)


if __name__ == "__main__":
    main()
