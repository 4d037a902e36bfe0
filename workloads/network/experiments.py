#!/usr/bin/python3
"""The protocols under WAN partitions of growing frequency and length, on two federations (issue 32, item 5).

    python3 workloads/network/experiments.py [--jobs 2] [--seeds 5] [--ckptsim build/ckptsim]

Two federations (those of workloads/failures/experiments.py):
- "4 clusters (MPI)": workloads/mpi/platforms/four-clusters.json (4 x 4 nodes, a WAN link wan_i_j
  between every pair of clusters) running the jacobi2d MPI trace of workloads/mpi scaled to about
  1 h failure-free (compute_scale 1.33e6, a checkpoint every 5 min, GC every 30 min, 50 MB per
  process checkpoint);
- "default (2 x 100)": ckptsim's embedded default scenario (the HC3I report's 2 x 100 nodes, one WAN
  link wan_0_1, its stochastic application, a checkpoint every 30 min, GC every 2 h, 1 MB
  checkpoints), the application cut to 5 h (--set application/total_time=5h).

WAN faults (topology/link_failures): a random source of scope "wan": every WAN link fails
independently, after exponential gaps of mean MTBF from its last repair, and stays down for a fixed
downtime. The grid: no link failure (the baseline), then WAN link MTBF 4 h, 1 h and 15 min x
downtime 1 min and 10 min. The same MTBFs on both federations give them similar outage counts per
run: 1 link for 5 h, 6 links for 1 h (about 1.2, 5 and 20 outages per failure-free run).
Node failures: two regimes, "none" (topology/mtbf=never: the partitions alone) and "usual", the
federation's usual rate: the default topology's own (MTBF 10 h, exponential, down 1 min), and
workloads/mpi's for the MPI federation (MTBF 20 min, exponential, detection 1 s, down 1 min,
restart overhead 10 s).

Protocols: none, coordinated, hc3i, independent (unit=cluster) and msglog (pessimistic), each with
its default storage (hc3i: buddy, the others: one checkpoint server). Seeds 1..N per point, the
same for every protocol and every partition point (the same node failure dates and, for a given
WAN MTBF and downtime, the same link outage draws until a run's path departs).

Every run must end completed (or stuck for none and independent only, with exit status 3:
docs/MODEL.md, "A run always ends": their livelocks), with 0 consistency violations, the
failure-free result checksum (MPI trace) when completed, results.network present exactly when link
failures are configured, and within 180 s of wall time; otherwise the script stops with the
command that reproduces the run.

Per run: the makespan's increase over the same protocol, seed and node regime without link failure
(the baseline), the seconds pairs of clusters were cut off from each other (results.network.
clusters_cut_off, summed over the pairs), their ratio (the stall ratio: 1 when the makespan grew by
the whole time clusters were cut off, 0 when the partitions cost nothing), the same against the
seconds during which at least one pair was cut off (the union of the outages, from the run's event
trace: on the MPI federation outages of different links overlap), messages delayed by a down route
and their total delay, protocol messages (all and across the WAN).

Writes results/network/partitions.csv (one row per federation x node regime x WAN MTBF x downtime x
protocol: means over the completed runs and 95 % confidence half-widths) and
results/network/partitions.runs.csv (one row per run), both with '#' header lines saying how they
were made, and prints the table; /usr/bin/python3 plots/network_partitions.py draws it. See
workloads/network/README.md. Standard library only (Python >= 3.7)."""
import argparse
import datetime
import hashlib
import json
import os
import shlex
import sys

sys.path.insert(0, os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "experiments")))
from results_file import add_simulator_options, git_line, made_by, publish_with_runs, with_ci  # noqa: E402
import federations  # noqa: E402
from federations import (DEFAULT_STORAGE, MPI_APPLICATION, PROTOCOLS, ROOT, compact, completed_means,  # noqa: E402
                         default_options, mpi_options, status_detail)
RESULTS = os.path.join(ROOT, "results", "network")
WALL_LIMIT = 180  # seconds of wall time per run before the script stops

# The WAN grid: (link MTBF, downtime); None: no link failure (the baseline of every other point).
WAN_MTBFS = ["4h", "1h", "15min"]
DOWNTIMES = ["1min", "10min"]
WAN_POINTS = [(None, None)] + [(m, d) for d in DOWNTIMES for m in WAN_MTBFS]
NODE_REGIMES = ["none", "usual"]


class Federation:
    """One federation: its name, the options giving it, and the options of its usual node failures."""

    def __init__(self, label, key, options, usual, usual_text):
        self.label, self.key, self.options, self.usual, self.usual_text = label, key, options, usual, usual_text


# The federations' options (mpi_options, default_options), the MPI application, the protocols
# (PROTOCOLS) and their storage when none is given (DEFAULT_STORAGE): workloads/experiments/
# federations.py's, shared with workloads/failures/experiments.py.
# workloads/mpi/experiments.py's node failures (MTBF and FAILURES).
MPI_FAILURES = {"model": "exponential", "detection_delay": "1s", "downtime": "1min", "restart_overhead": "10s"}
FEDERATIONS = [
    Federation("4 clusters (MPI)", "mpi", mpi_options,
               ["--set", "topology/mtbf=20min", "--set", "topology/failures=" + json.dumps(MPI_FAILURES,
                                                                                          separators=(",", ":"))],
               "MTBF 20min, %s (workloads/mpi)" % json.dumps(MPI_FAILURES)),
    Federation("default (2 x 100)", "default", default_options, [],
               "the embedded topology's: MTBF 10h, exponential, detection 1s, down 1min, restart overhead 10s")]


def rel(path):
    r = os.path.relpath(path, ROOT)
    return path if r.startswith("..") else r


def link_failures(mtbf, downtime):
    return [{"scope": "wan", "mtbf": mtbf, "downtime": downtime}]


class Point:
    """One run: federation, node regime, (WAN MTBF, downtime) (None: no link failure), protocol
    (label, options), seed; reference: the failure-free run (no node or link failure)."""

    def __init__(self, fed, nodes, wan, protocol, seed, reference=False):
        self.fed, self.nodes, self.wan, self.protocol, self.seed = fed, nodes, wan, protocol, seed
        self.reference = reference

    def name(self):
        return self.protocol[0].split(":")[0]

    def wan_cells(self):
        return ["none", ""] if self.wan[0] is None else list(self.wan)


class Sim(federations.Sim):
    """Runs ckptsim, --jobs at a time; checks every run (docstring) and stops at the first bad one."""

    def __init__(self, ckptsim, jobs, tmp):
        super().__init__(ckptsim, jobs, tmp)
        self.versions = set()  # (version, simgrid) of the results documents

    def command(self, p):
        cmd = [self.ckptsim, "run", "--quiet"] + p.protocol[1] + p.fed.options(self.tmp)
        if p.reference or p.nodes == "none":
            cmd += ["--set", "topology/mtbf=never"]
        else:
            cmd += p.fed.usual
        if p.wan[0] is not None:
            cmd += ["--set", "topology/link_failures=" + compact(link_failures(*p.wan))]
        return cmd + ["--seed", str(p.seed)]

    def fail(self, p, what):
        """Stops the script: the command of P, the file it reads from the temporary folder, WHAT went wrong."""
        self.stopped.set()
        cmd = self.command(p) + ["--output", "out.json", "--event-trace", "events.jsonl", "--event-trace-level", "0"]
        sys.exit("experiments.py: %s\n  (from %s) with %s = %s\n%s" % (
            " ".join(shlex.quote(a) for a in cmd), ROOT, self.app, json.dumps(self.app_doc()), what))

    def one(self, p):
        if self.stopped.is_set():
            return None, None
        proc, doc = self.execute(
            p, "network-exp-", WALL_LIMIT,
            extra=lambda tmp: ["--event-trace", os.path.join(tmp, "events.jsonl"), "--event-trace-level", "0"],
            read=lambda doc, tmp: doc.update(cut_off_any_s=cut_off_any(os.path.join(tmp, "events.jsonl"))))
        self.versions.add((doc["ckptsim"]["version"], doc["ckptsim"].get("simgrid", "")))
        res = doc["results"]
        status = res["status"]
        outcome = self.outcome(p, proc, res, ("completed", "stuck"))
        if outcome == "stuck" and p.name() not in ("none", "independent"):
            self.fail(p, "stuck, which docs/MODEL.md allows none and independent only: %s" % status)
        if p.reference and outcome != "completed":
            self.fail(p, "the failure-free reference did not complete: %s" % status)
        storage = doc["run"]["storage"]
        if storage != DEFAULT_STORAGE[p.name()]:
            self.fail(p, "storage %s, expected %s" % (storage, DEFAULT_STORAGE[p.name()]))
        if (res.get("network") is not None) != (p.wan[0] is not None):
            self.fail(p, "results.network is %s with link failures %s" % (
                "present" if res.get("network") is not None else "absent", p.wan))
        return doc, outcome


RUN_COLUMNS = ["outcome", "makespan_s", "increase_s", "increase_pct", "cut_off_s", "stall_ratio", "cut_off_any_s",
               "stall_ratio_any", "link_outages",
               "messages_delayed", "message_delay_total_s", "control_messages", "control_messages_wan",
               "control_change_pct", "transfers_resent", "checkpoint_transfers_held", "failures", "failures_deferred",
               "recovery_time_s", "lost_work_s", "end_date_s", "status"]


def cut_off_any(trace):
    """Seconds during which at least one WAN link was down (the union of the outages), from the run's
    event trace (level 0: link_down, link_up, run_end), to the end of the run. Every WAN link of these
    federations joins one pair of clusters directly: a pair is cut off exactly while its link is down."""
    down, since, total, end = set(), None, 0.0, None
    with open(trace) as f:
        for line in f:
            if '"link_' not in line and '"run_end"' not in line:
                continue
            e = json.loads(line)
            if e["ev"] == "link_down":
                if not down:
                    since = e["t"]
                down.add(e["link"])
            elif e["ev"] == "link_up":
                down.discard(e["link"])
                if not down:
                    total += e["t"] - since
            elif e["ev"] == "run_end":
                end = e["t"]
    if down and end is not None:
        total += end - since
    return total


def network(res):
    """(link outages, seconds cut off summed over the pairs of clusters, messages delayed, their total
    delay, transfers resent, checkpoint transfers held) of a run; zeros without link failures."""
    n = res.get("network") or {}
    cut = sum(c["seconds"] for c in n.get("clusters_cut_off", []))
    return (n.get("link_failures", 0), cut, n.get("messages_delayed", 0.0), n.get("message_delay_total", 0.0),
            n.get("transfers_resent", 0.0), n.get("checkpoint_transfers_held", 0.0))


def run_values(doc, outcome, base):
    """A run's columns (RUN_COLUMNS); BASE: (doc, outcome) of its baseline (same protocol, seed and node
    regime, no link failure). Makespans, increases and lost work only for completed runs."""
    res = doc["results"]
    done = outcome == "completed"
    outages, cut, delayed, delay, resent, held = network(res)
    ctrl = res["control_messages"]
    ctrl_wan = doc["stats"]["counters"].get("ctrl.wan", 0.0)
    any_cut = doc["cut_off_any_s"]
    increase = increase_pct = ratio = ratio_any = ctrl_change = None
    bdoc, boutcome = base
    if done and boutcome == "completed":
        b = bdoc["results"]["makespan"]
        increase = res["makespan"] - b
        increase_pct = 100.0 * increase / b
        if cut > 0:
            ratio = increase / cut
        if any_cut > 0:
            ratio_any = increase / any_cut
        bctrl = bdoc["results"]["control_messages"]
        if bctrl > 0:
            ctrl_change = 100.0 * (ctrl / bctrl - 1.0)
    return [outcome,
            res["makespan"] if done else None,
            increase, increase_pct, cut, ratio, any_cut, ratio_any, outages, delayed, delay, ctrl, ctrl_wan, ctrl_change, resent, held,
            res["failures"], res["failures_deferred"], res["recovery_time"],
            res["lost_work"] if done else None,
            res["end_date"],
            "" if done else status_detail(res["status"])]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_simulator_options(ap, ROOT)
    ap.add_argument("--seeds", type=int, default=5, help="seeds 1..N per point (default 5)")
    args = ap.parse_args()
    if args.seeds < 1:
        ap.error("--seeds: at least 1")
    seeds = list(range(1, args.seeds + 1))
    sim, (ff, run_rows, by_point, example), wall = federations.run_in_inputs(
        args, "network-exp-inputs-", Sim, lambda sim: run_experiment(sim, seeds) + (example_line(sim),))
    publish_tables(args, sim, seeds, ff, run_rows, by_point, wall, example)


def run_experiment(sim, seeds):
    # The failure-free reference of each federation (protocol none, no node or link failure): its
    # makespan, and its result checksum, which every completed MPI run must give.
    ff = sim.references([Point(fed, "none", (None, None), PROTOCOLS[0], 1, reference=True) for fed in FEDERATIONS])
    points = [Point(fed, nodes, wan, proto, s) for fed in FEDERATIONS for nodes in NODE_REGIMES
              for wan in WAN_POINTS for proto in PROTOCOLS for s in seeds]
    results = sim.run_all(points)
    done = {}
    for p, (doc, outcome) in zip(points, results):
        sim.check_checksum(p, doc, outcome, ff[p.fed.key][1])
        done[(p.fed.key, p.nodes, p.wan, p.protocol[0], p.seed)] = (doc, outcome)
    run_rows, by_point = [], {}
    for p in points:
        doc, outcome = done[(p.fed.key, p.nodes, p.wan, p.protocol[0], p.seed)]
        base = done[(p.fed.key, p.nodes, (None, None), p.protocol[0], p.seed)]
        values = run_values(doc, outcome, base)
        run_rows.append([p.fed.label, p.nodes] + p.wan_cells() + [p.protocol[0], p.seed] + values)
        by_point.setdefault((p.fed.label, p.nodes) + tuple(p.wan_cells()) + (p.protocol[0],), []).append(values)
    return ff, run_rows, by_point


HEADER = ["federation", "node_failures", "wan_mtbf", "downtime", "protocol", "runs", "completed", "stuck",
          "failure_free_makespan_s"]
MEANS = ["makespan_s", "increase_s", "increase_pct", "cut_off_s", "stall_ratio", "cut_off_any_s", "stall_ratio_any",
         "link_outages", "messages_delayed",
         "message_delay_total_s", "control_messages", "control_messages_wan", "control_change_pct",
         "transfers_resent", "checkpoint_transfers_held", "failures", "failures_deferred", "recovery_time_s",
         "lost_work_s"]


def summary_rows(by_point, ff):
    rows = []
    key_of = {f.label: f.key for f in FEDERATIONS}
    for (fed, nodes, mtbf, downtime, proto), runs in by_point.items():
        outcomes = [r[0] for r in runs]
        row = [fed, nodes, mtbf, downtime, proto, len(runs), outcomes.count("completed"), outcomes.count("stuck"),
               ff[key_of[fed]][0]]
        rows.append(row + completed_means(runs, MEANS, RUN_COLUMNS))
    return rows


def example_line(sim):
    p = Point(FEDERATIONS[1], "usual", ("15min", "10min"), PROTOCOLS[1], 1)
    return " ".join(shlex.quote(a) for a in [rel(sim.ckptsim)] + sim.command(p)[1:] + ["--output", "out.json"])


def binary_line(sim):
    with open(sim.ckptsim, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    versions = "; ".join("ckptsim %s, %s" % v for v in sorted(sim.versions))
    return ("# ckptsim: %s (the results documents' ckptsim.version; they carry no commit), binary %s, sha256 %s"
            % (versions, rel(sim.ckptsim), digest[:16]))


def publish_tables(args, sim, seeds, ff, run_rows, by_point, wall, example):
    rows = summary_rows(by_point, ff)
    header = HEADER + with_ci(MEANS)
    n_runs = len(FEDERATIONS) + len(run_rows)
    command = "python3 workloads/network/experiments.py --jobs %d --seeds %d" % (sim.jobs, args.seeds)
    if os.path.abspath(args.ckptsim) != os.path.join(ROOT, "build", "ckptsim"):
        command += " --ckptsim %s" % rel(sim.ckptsim)
    # git status must not refresh the index of a tree others work in (a read-only look).
    os.environ["GIT_OPTIONAL_LOCKS"] = "0"
    lines = made_by("Network partitions (issue 32 item 5): protocols under random WAN link failures (MTBF 4h, 1h, "
                    "15min x downtime 1min, 10min, and none), with no node failure or the federation's usual node "
                    "failures, on two federations; seeds %d-%d" % (seeds[0], seeds[-1]),
                    command + "   (from the repository root)", git_line(ROOT, "workloads/network", "workloads/mpi"),
                    example, n_runs, wall, sim.jobs)
    lines.insert(2, binary_line(sim))
    lines.insert(4, "# date: %s" % datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M:%S %z"))
    notes = ["# federations: 4 clusters (MPI) = workloads/mpi/platforms/four-clusters.json (4 x 4 nodes, WAN links "
             "wan_i_j between every pair), jacobi2d.json = %s (relative to the repository root), timers 5min/30min, "
             "checkpoint_size 50MB; default (2 x 100) = the embedded scenario with --set application/total_time=5h "
             "(WAN link wan_0_1); the controller and the checkpoint server reach every cluster by links of their own, "
             "not through the WAN" % json.dumps(MPI_APPLICATION),
             "# WAN faults: topology/link_failures = [{\"scope\": \"wan\", \"mtbf\": wan_mtbf, \"downtime\": downtime}] "
             "(every WAN link fails independently, exponential gaps of mean wan_mtbf from its repair, down for "
             "downtime); wan_mtbf none: no link failure, the baseline",
             "# node_failures: none = topology/mtbf=never; usual = 4 clusters (MPI): %s; default (2 x 100): %s"
             % (FEDERATIONS[0].usual_text, FEDERATIONS[1].usual_text),
             "# storage: the protocol's default (hc3i buddy, the others one checkpoint server); completed / stuck: "
             "runs ending so (stuck only for none and independent, checked); every completed MPI run gives the "
             "failure-free result_checksum; 0 consistency violations",
             "# means over the completed runs only (empty when none): increase_s = makespan - the baseline's "
             "(same protocol, seed and node_failures, no link failure), increase_pct of the baseline's makespan; "
             "cut_off_s = results.network.clusters_cut_off seconds summed over the pairs of clusters; stall_ratio "
             "= increase_s / cut_off_s per run; cut_off_any_s = seconds during which at least one pair was cut off "
             "(the union of the WAN outages, from the run's event trace at level 0; equal to cut_off_s with one WAN "
             "link), stall_ratio_any = increase_s / cut_off_any_s per run; link_outages = results.network.link_failures; messages_delayed, "
             "message_delay_total_s (seconds summed over them), transfers_resent, checkpoint_transfers_held: "
             "results.network; control_messages (results), control_messages_wan (stats ctrl.wan), "
             "control_change_pct against the baseline's; failures (node failures), failures_deferred (held until a "
             "recovery ended), recovery_time_s (results.recovery_time: seconds from each failure to the end of its "
             "recovery, summed), lost_work_s (process-seconds "
             "undone); failure_free_makespan_s: protocol none without node or link failure, seed 1"]
    runs_title = "# Network partitions (issue 32 item 5), one row per run (seeds %d-%d); partitions.csv has their " \
                 "means" % (seeds[0], seeds[-1])
    short = ["federation", "node_failures", "wan_mtbf", "downtime", "protocol", "completed", "stuck", "makespan_s",
             "increase_s", "increase_s_ci95", "cut_off_s", "stall_ratio", "stall_ratio_ci95", "cut_off_any_s",
             "stall_ratio_any", "messages_delayed",
             "message_delay_total_s", "control_messages", "control_messages_wan", "failures", "recovery_time_s"]
    publish_with_runs(os.path.join(RESULTS, "partitions.csv"), os.path.join(RESULTS, "partitions.runs.csv"),
                      lines + notes, runs_title, header, rows,
                      ["federation", "node_failures", "wan_mtbf", "downtime", "protocol", "seed"] + RUN_COLUMNS,
                      run_rows, short, n_runs, wall, rel)


if __name__ == "__main__":
    main()
