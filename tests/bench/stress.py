#!/usr/bin/python3
"""Robustness stress of every protocol: random small federations, failure traces (dates clustered
around checkpoints and recoveries) or random failures, detection delays, downtimes, restart
overheads, heartbeats, storage models, timers and each protocol's variants, on the application
kind each protocol runs (stochastic; stencil for cck and taskgraph, and sometimes for the others;
master-worker for the LAM/MPI triggers). Every run has a generous end date and a wall limit.
A run fails when it does not end "completed" or with an "unrecoverable ..." status its storage
model explains, when it has a consistency violation, or when it exits non-zero (a crash, "stuck").
Not a test: it takes minutes; run it after touching a protocol or the engine.

    tests/bench/stress.py [--protocols hc3i,msglog] [--start 1] [--count 200] [--keep DIR] [--outages]
                          [--partitions]

A run whose failures queue up (more deferred than struck) until the end date, that the
watchdog ends as "stuck: no progress: failures arrive faster than recoveries end", or that
restarts from scratch after every failure (none, coordinated that never committed a wave) until
the end date, is an overload, the livelock docs/MODEL.md allows: counted apart, not as a failure. Prints the failing runs (seed, protocol, status or exit, first lines of stderr) and counts per
protocol. A failing seed is re-run alone with --start SEED --count 1 --keep DIR: DIR keeps its
inputs, the command and a level-2 trace (the "stuck:" status and the trace say what waits).
--outages adds failure domains (racks of 2 or of a whole cluster) and correlated sources (rack
and cluster outages, often a cascade) to every scenario, from a random stream of their own: the
scenarios without it are unchanged. --partitions adds link failures (docs/INPUTS.md, "Link
failures"): WAN links (with several clusters) and nodes' SAN links failing at random, and a
scripted outage of a WAN link, also from a stream of their own. Odd seeds run with
`--self-test fold-often`: the consistency oracle folds every 16 events (docs/MODEL.md,
"Consistency oracle"), so that restarts across folded history are checked on small runs. Seeds
2 and 3 modulo 4 run with CKPTSIM_COMM_PROXIES=static (sim/net/comm_proxies.hpp), unless the
environment sets it: these small federations get no proxy in the default mode, so without it the
handling of proxied comms (the large runs' way) would never be stressed."""
import argparse
import json
import os
import random
import shlex
import subprocess
import tempfile

VARIANTS = {
    "none": [[]],
    "coordinated": [[], ["--param", "trigger=both"]],
    "hc3i": [[], ["--param", "transitive=true"]],
    "cck": [[], ["--param", "reuse=true"]],
    "taskgraph": [["--param", "interval=1"], ["--param", "interval=3"]],
    "independent": [["--param", "unit=process"], ["--param", "unit=cluster"]],
    "msglog": [["--param", "variant=pessimistic"], ["--param", "variant=optimistic"],
               ["--param", "variant=causal"]],
}
# Protocols whose model allows a livelock without queued failures: none (every failure restarts
# from scratch), independent (the domino effect), cck (a restart longer than the MTBF).
LIVELOCKS = {"none", "independent", "cck"}
NO_PROGRESS = "stuck: no progress: failures arrive faster than recoveries end"
ONE_AT_A_TIME = {"hc3i", "cck", "taskgraph", "independent", "msglog"}  # refuse "overlap": "allow"


def scenario(seed, protocol):
    rnd = random.Random(seed)
    params = list(rnd.choice(VARIANTS[protocol]))
    stencil = protocol in ("cck", "taskgraph") or (protocol in ("coordinated", "msglog", "none") and rnd.random() < 0.2)
    master_worker = "trigger=both" in params
    k = 1 if master_worker else rnd.randint(1 if protocol != "hc3i" else 2, 3)
    n = rnd.randint(2, 4)
    fail = {"downtime": rnd.choice([0, 0.5, 2, 5]), "restart_overhead": rnd.choice([0, 0.5, 2])}
    if rnd.random() < 0.15:
        fail["heartbeat"] = {"period": 1.0, "timeout": rnd.choice([1.0, 2.5])}
    else:
        fail["detection_delay"] = rnd.choice([0, 0.3, 1, 3])
    if protocol not in ONE_AT_A_TIME:
        fail["overlap"] = rnd.choice(["protocol", "allow", "defer"])
        if rnd.random() < 0.15 and k == 1:
            fail["restart"] = "shrink"
    link = {"latency": rnd.choice(["150us", "5ms"]), "bandwidth": rnd.choice(["100MBps", "1MBps"])}
    topo = {"clusters": [{"name": f"c{c}", "nodes": n,
                          "san": {"latency": "10us", "bandwidth": rnd.choice(["80MBps", "1MBps"])},
                          "checkpoint_size": rnd.choice(["1KB", "64KB", "1MB"])} for c in range(k)],
            "wan": [[link for _ in range(a + 1, k)] for a in range(k - 1)], "failures": fail}
    if protocol in ("coordinated", "msglog", "independent") and rnd.random() < 0.3:
        topo["storage"] = {"model": "buddy"}
    if stencil:
        cells = n * k * rnd.choice([2, 4])
        app = {"kind": "stencil", "dims": 1, "width": cells, "iterations": rnd.choice([10, 30]),
               "task_cost": rnd.choice([0.01, 0.05]), "cell_size": rnd.choice(["1KiB", "64KiB"])}
        if rnd.random() < 0.4:
            app["schedule"] = "reorder"
        total = app["iterations"] * app["task_cost"] * cells / (n * k) * 1.5
    elif master_worker:
        app = json.load(open(os.path.join(os.path.dirname(__file__), "..", "..", "workloads", "lammpi",
                                          "application.json")))
        app.pop("$schema", None)
        app["repetitions"] = 2
        total = 60.0
        topo["clusters"][0]["nodes"] = 4
        n = 4
    else:
        total = rnd.choice([20.0, 40.0, 60.0])
        app = {"kind": "stochastic", "total_time": total, "message_size": rnd.choice(["1KiB", "100KiB", "1MiB"]),
               "clusters": [{"cluster": f"c{c}", "compute": rnd.choice([0.3, 1.0, 2.0]),
                             "send": {f"c{d}": (rnd.choice([0.2, 0.6]) if c == d else rnd.choice([0.05, 0.3]))
                                      for d in range(k)}} for c in range(k)]}
    trace = None
    if rnd.random() < 0.7:  # a few failures at chosen dates, often two close together
        dates = []
        for _ in range(rnd.randint(1, 4)):
            d = rnd.uniform(0, total)
            dates.append(d)
            if rnd.random() < 0.5:
                dates.append(d + rnd.choice([0, 0.001, 0.3, 1, 3]))
        trace = "".join(f"{d:.4f} c{rnd.randrange(k)}-{rnd.randrange(n)}\n" for d in sorted(dates))
        fail.update({"model": "trace", "trace": "failures.txt"})
    else:
        # Not faster than a recovery can end: failures arriving faster than restarts are the
        # model's livelock (a queue of deferred failures), not what this looks for.
        still = fail["downtime"] + fail["restart_overhead"] + fail.get("detection_delay", 2.5) + 1
        topo["mtbf"] = max(total * rnd.choice([0.5, 1.0, 2.0]), 10 * still)
    period = total / rnd.choice([3, 10, 30])
    timers = {"default": {"checkpoint_period": rnd.choice([period, period, None]),
                          "gc_period": rnd.choice([None, total / 5, total / 20])}}
    return params, topo, app, timers, trace, total


def add_outages(seed, topo, total):
    """Racks and outages of racks and clusters, from a stream of their own (docs/INPUTS.md,
    "Failure domains")."""
    rnd = random.Random(seed * 7919 + 17)
    n = topo["clusters"][0]["nodes"]
    topo["domains"] = {"rack": rnd.choice([2, n])}
    fail = topo["failures"]
    still = fail.get("downtime", 0) + fail.get("restart_overhead", 0) + fail.get("detection_delay", 2.5) + 1
    fail["correlated"] = [{"scope": "rack", "mtbf": max(total * rnd.choice([0.5, 1.0, 2.0]), 10 * still)}]
    if rnd.random() < 0.5:
        fail["correlated"].append({"scope": "cluster", "mtbf": max(total * rnd.choice([1.0, 3.0]), 10 * still),
                                   "downtime": rnd.choice([0, 1, 5])})
    if rnd.random() < 0.3:
        fail["cascade"] = {"probability": rnd.choice([0.3, 1.0]), "window": rnd.choice([0, 1, 5])}


def add_partitions(seed, topo, total):
    """Link failures: WAN links (several clusters) and SAN links at random, outages of a few to
    tens of percent of the run, sometimes one long scripted WAN outage."""
    rnd = random.Random(seed * 6271 + 29)
    k = len(topo["clusters"])
    links = []
    if k > 1:
        links.append({"scope": "wan", "mtbf": total * rnd.choice([0.2, 0.5, 1.0]),
                      "downtime": {"distribution": "uniform", "min": total * 0.01, "max": total * rnd.choice([0.05, 0.2])}})
        if rnd.random() < 0.3:
            a, b = sorted(rnd.sample(range(k), 2))
            down = rnd.uniform(0, total)
            links.append({"link": f"wan_{a}_{b}", "down": down, "up": down + total * rnd.choice([0.1, 0.5])})
    if rnd.random() < 0.5 or k == 1:
        links.append({"scope": "san", "mtbf": total * rnd.choice([2.0, 5.0]), "downtime": total * rnd.choice([0.01, 0.05])})
    topo["link_failures"] = links


def run(binary, seed, protocol, folder, keep, outages=False, partitions=False):
    params, topo, app, timers, trace, total = scenario(seed, protocol)
    if outages:
        add_outages(seed, topo, total)
    if partitions:
        add_partitions(seed, topo, total)
    for name, doc in (("topology", topo), ("application", app), ("timers", timers)):
        with open(os.path.join(folder, f"{name}.json"), "w") as f:
            json.dump(doc, f, indent=1)
    if trace:
        with open(os.path.join(folder, "failures.txt"), "w") as f:
            f.write(trace)
    out = os.path.join(folder, "results.json")
    if os.path.exists(out):
        os.remove(out)
    cmd = [binary, "run", "--protocol", protocol, *params, "--seed", str(seed),
           "--topology", os.path.join(folder, "topology.json"), "--application", os.path.join(folder, "application.json"),
           "--timers", os.path.join(folder, "timers.json"), "--end", str(100 * total + 1000), "--quiet", "--output", out]
    if seed % 2:  # the oracle folds every 16 events: its folded paths checked on small runs too
        cmd += ["--self-test", "fold-often"]
    env = dict(os.environ)
    if seed % 4 >= 2 and "CKPTSIM_COMM_PROXIES" not in env:  # comms started through proxies, as at scale
        env["CKPTSIM_COMM_PROXIES"] = "static"
    if keep:
        cmd += ["--trace", os.path.join(folder, "trace.jsonl"), "--trace-level", "2"]
        with open(os.path.join(folder, "command.txt"), "w") as f:
            prefix = f"CKPTSIM_COMM_PROXIES={env['CKPTSIM_COMM_PROXIES']} " if "CKPTSIM_COMM_PROXIES" in env else ""
            f.write(prefix + shlex.join(cmd) + "\n")
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    except subprocess.TimeoutExpired:
        return "timeout (120 s of wall time)"
    status = None
    if os.path.exists(out):
        res = json.load(open(out))["results"]
        status = res["status"]
        if res["consistency"]["violations"]:
            return f"{res['consistency']['violations']} consistency violation(s)"
    # The watchdog's rule for failures without progress (issue 31): the overload below, which now
    # ends by itself instead of at the end date.
    if proc.returncode == 3 and status and status.startswith(NO_PROGRESS):
        return "overload"
    if proc.returncode != 0:
        return f"exit {proc.returncode}: {status or ''} {' | '.join(proc.stderr.strip().splitlines()[:2])}"
    if status == "completed" or status.startswith("unrecoverable"):
        return None
    # Failure events still deferred at the end date (the results say how many): they arrived faster
    # than the recoveries ended.
    queued = res.get("failures_deferred_at_end", 0)
    if status == "stopped at the end date" and queued > 0:
        return "overload"  # failures queue up faster than recoveries end: the model's livelock
    if status == "stopped at the end date" and protocol in LIVELOCKS:
        return "overload"  # progress made and undone again (docs/MODEL.md, "A run always ends")
    # coordinated that never committed a wave (no checkpoint period, or waves slower than the gaps
    # between failures) rolls every process back to its initial state, as none does: failures that
    # come faster than the whole run's work keep it going past the end date (--outages seed 101:
    # no checkpoint period, 303 failures in 5,000 s, completed at 69,184 s without --end; seed 147:
    # 53 MB of 1 MB messages queued to one node on 1 MB/s links, INIT 24 s behind them, 47 waves
    # all aborted by a failure).
    if status == "stopped at the end date" and protocol == "coordinated" and res["storage_held_max_bytes"] == 0:
        return "overload"
    return status


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--protocols", default=",".join(VARIANTS))
    ap.add_argument("--start", type=int, default=1)
    ap.add_argument("--count", type=int, default=100, help="runs per protocol")
    ap.add_argument("--ckptsim", default=os.path.join(here, "..", "..", "build", "ckptsim"))
    ap.add_argument("--keep", help="folder to keep the inputs, command and level-2 trace of the last run")
    ap.add_argument("--outages", action="store_true", help="add racks and rack/cluster outages to every scenario")
    ap.add_argument("--partitions", action="store_true", help="add WAN and SAN link failures to every scenario")
    args = ap.parse_args()
    protocols = args.protocols.split(",")
    unknown = set(protocols) - set(VARIANTS)
    if unknown:
        ap.error(f"unknown protocol(s) {', '.join(sorted(unknown))}; known: {', '.join(VARIANTS)}")
    failed = {p: 0 for p in protocols}
    overloaded = {p: 0 for p in protocols}
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or tmp
        os.makedirs(folder, exist_ok=True)
        for seed in range(args.start, args.start + args.count):
            for protocol in protocols:
                why = run(args.ckptsim, seed, protocol, folder, args.keep, args.outages, args.partitions)
                if why == "overload":
                    overloaded[protocol] += 1
                elif why:
                    failed[protocol] += 1
                    print(f"seed {seed} {protocol}: {why}", flush=True)
    for p in protocols:
        print(f"{p}: {args.count} runs, {failed[p]} failed, {overloaded[p]} overloaded (failures faster than "
              "recoveries: not counted)")
    total_failed = sum(failed.values())
    print(f"{args.count * len(protocols) - total_failed} passed, {total_failed} failed")


if __name__ == "__main__":
    main()
