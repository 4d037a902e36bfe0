#!/usr/bin/python3
"""The statistical check of a change of the order of same-date events (issue 34, item 3).

A speed-up that makes fewer SimGrid calls may reorder events of the same date, so seeded results
move; it is allowed when nothing else moves. This compares two builds of ckptsim (before and
after) over many seeds of every protocol and variant, on two scenarios each: for every case the
means of makespan, lost work, control messages and checkpoints (storage.saves) must agree within
3 standard errors of their difference, and every run of both builds must complete (or end
unrecoverable, as the same seed may) with 0 consistency violations.

    /usr/bin/python3 tests/bench/stat_check.py --before OLD/ckptsim --after build/ckptsim
        [--seeds 200] [--jobs 2] [--cases none,coordinated,...] [--hours H] [--keep DIR [--resume]]

Scenarios: the stochastic protocols on the embedded default scenario (2 x 100 nodes) and on a
4-cluster federation (4 x 25 nodes, written into the work folder); cck and taskgraph,
which run a data-flow application, on the golden stencil federation and on it with 4 clusters.
--hours cuts the stochastic application (default: as shipped) to make a smoke run cheaper.
Prints one row per case and metric, and exits 0 when every case agrees, 1 otherwise."""
import argparse
import hashlib
import json
import math
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
GOLDEN = os.path.join(ROOT, "tests", "golden", "inputs")

# (name, protocol arguments, stencil application?)
VARIANTS = [
    ("none", ["--protocol", "none"], False),
    ("coordinated", ["--protocol", "coordinated"], False),
    ("hc3i", ["--protocol", "hc3i"], False),
    ("hc3i-transitive", ["--protocol", "hc3i", "--param", "transitive=true"], False),
    ("independent-process", ["--protocol", "independent", "--param", "unit=process"], False),
    ("independent-cluster", ["--protocol", "independent", "--param", "unit=cluster"], False),
    ("msglog-pessimistic", ["--protocol", "msglog", "--param", "variant=pessimistic"], False),
    ("msglog-causal", ["--protocol", "msglog", "--param", "variant=causal"], False),
    ("msglog-optimistic", ["--protocol", "msglog", "--param", "variant=optimistic"], False),
    ("cck", ["--protocol", "cck"], True),
    ("cck-reuse", ["--protocol", "cck", "--param", "reuse=true"], True),
    ("taskgraph", ["--protocol", "taskgraph", "--param", "interval=3"], True),
]
METRICS = ["makespan", "lost_work", "control_messages", "checkpoints"]


def four_clusters(folder):
    """The 4-cluster federation of the stochastic protocols: 4 x 25 nodes, the default's links."""
    topology = {
        "comment": "stat_check: 4 x 25 nodes, the default scenario's SANs and WAN, federation MTBF 5 h.",
        "clusters": [{"name": f"c{i}", "nodes": 25, "san": {"latency": "10us", "bandwidth": "80MBps"},
                      "checkpoint_size": "1MB"} for i in range(4)],
        "wan": [[{"latency": "150us", "bandwidth": "100MBps"} for _ in range(i + 1, 4)] for i in range(3)],
        "mtbf": "5h",
        "failures": {"model": "exponential", "downtime": "1min", "detection_delay": "1s", "restart_overhead": "10s"},
    }
    # The default application's traffic, the same in every cluster: after 8 % of the steps a
    # message inside the cluster, after 0.4 % one to another cluster.
    application = {
        "comment": "stat_check: 10 h of exponential 100 s steps, 10 KiB messages, mostly inside the cluster.",
        "kind": "stochastic", "total_time": "10h", "message_size": "10KiB",
        "clusters": [{"cluster": "*", "compute": {"distribution": "exponential", "mean": "100s"},
                      "send": {"same": 0.08, "other": 0.004}}],
    }
    path = os.path.join(folder, "four-clusters.topology.json")
    with open(path, "w") as f:
        json.dump(topology, f)
    with open(os.path.join(folder, "four-clusters.application.json"), "w") as f:
        json.dump(application, f)
    return path


def stencil_four(folder):
    """The golden stencil federation with its nodes spread over 4 clusters."""
    with open(os.path.join(GOLDEN, "stencil-topology.json")) as f:
        topo = json.load(f)
    nodes = sum(c["nodes"] for c in topo["clusters"])
    first = topo["clusters"][0]
    topo["clusters"] = [dict(first, name=f"s{i}", nodes=nodes // 4 + (1 if i < nodes % 4 else 0)) for i in range(4)]
    wan = topo["wan"][0][0] if topo.get("wan") else {"latency": "150us", "bandwidth": "100MBps"}
    topo["wan"] = [[wan for _ in range(i + 1, 4)] for i in range(3)]
    topo["comment"] = "stat_check: the golden stencil federation over 4 clusters"
    path = os.path.join(folder, "stencil-four.topology.json")
    with open(path, "w") as f:
        json.dump(topo, f)
    return path


def scenarios(folder, hours):
    cut = ["--set", f"application/total_time={hours}h"] if hours else []
    stochastic = [("default", cut),
                  ("4 clusters", ["--topology", four_clusters(folder),
                                  "--application", os.path.join(folder, "four-clusters.application.json"),
                                  "--timers", os.path.join(ROOT, "workloads", "default", "timers.json"), *cut])]
    stencil_args = ["--application", os.path.join(GOLDEN, "stencil.json"),
                    "--timers", os.path.join(GOLDEN, "stencil-timers.json"), "--set", "topology/mtbf=2s"]
    stencil = [("stencil", ["--topology", os.path.join(GOLDEN, "stencil-topology.json"), *stencil_args]),
               ("stencil 4 clusters", ["--topology", stencil_four(folder), *stencil_args])]
    return stochastic, stencil


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def check_resume(folder, before, after, resume):
    """The folder's record of the two binaries (stat_check.json): a resumed check reuses only
    documents the same binaries wrote."""
    record = os.path.join(folder, "stat_check.json")
    mine = {"before": sha256(before), "after": sha256(after)}
    if resume and os.path.exists(record):
        with open(record) as f:
            theirs = json.load(f)
        if theirs != mine:
            sys.exit(f"stat_check.py: {folder} holds documents of other binaries ({record}): "
                     "resume with the same --before and --after, or use another --keep folder")
    with open(record, "w") as f:
        json.dump(mine, f, indent=1)


def read_document(out):
    try:
        with open(out) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def run_one(binary, args, seed, out, resume=False):
    cmd = [binary, "run", *args, "--seed", str(seed), "--end", "2000h", "--quiet", "--progress", "false",
           "--output", out]
    doc = read_document(out) if resume else None
    exit_status = None  # not known for a reused document
    if doc is None:
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=3600)
        exit_status = proc.returncode
        if not os.path.exists(out):
            return {"error": f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}", "cmd": " ".join(cmd)}
        doc = read_document(out)
        if doc is None:
            return {"error": f"exit {proc.returncode}: {out} is not a JSON document", "cmd": " ".join(cmd)}
    r = doc["results"]
    return {"status": r["status"], "violations": r["consistency"]["violations"],
            "makespan": r.get("makespan") or r.get("end_date"), "lost_work": r.get("lost_work", 0.0),
            "control_messages": r.get("control_messages", 0.0),
            "checkpoints": doc["stats"]["counters"].get("storage.saves", 0.0), "exit": exit_status,
            "cmd": " ".join(cmd)}


def mean_se(values):
    n = len(values)
    m = sum(values) / n
    var = sum((v - m) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return m, math.sqrt(var / n)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True, help="the ckptsim binary before the change")
    ap.add_argument("--after", required=True, help="the ckptsim binary after the change")
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--cases", default="", help="comma-separated variant names (default: all)")
    ap.add_argument("--hours", type=float, default=0, help="cut the stochastic application to this many hours")
    ap.add_argument("--keep", help="keep the results documents in this folder")
    ap.add_argument("--resume", action="store_true",
                    help="with --keep: reuse the documents an interrupted check of the same two binaries left there")
    a = ap.parse_args()
    chosen = [v for v in VARIANTS if not a.cases or v[0] in a.cases.split(",")]
    if not chosen:
        sys.exit(f"stat_check.py: no variant among {a.cases}; known: {', '.join(v[0] for v in VARIANTS)}")
    for b in (a.before, a.after):
        if not os.access(b, os.X_OK):
            sys.exit(f"stat_check.py: {b}: not an executable")
    if a.resume and not a.keep:
        sys.exit("stat_check.py: --resume needs --keep DIR (the folder of the interrupted check)")
    folder = a.keep or tempfile.mkdtemp(prefix="stat-check-")
    os.makedirs(folder, exist_ok=True)
    check_resume(folder, a.before, a.after, a.resume)
    stochastic, stencil = scenarios(folder, a.hours)
    jobs = []
    for name, pargs, is_stencil in chosen:
        for scen, sargs in (stencil if is_stencil else stochastic):
            for side, binary in (("before", a.before), ("after", a.after)):
                for seed in range(1, a.seeds + 1):
                    out = os.path.join(folder, f"{name}.{scen.replace(' ', '-')}.{side}.{seed}.json")
                    jobs.append(((name, scen, side), binary, [*sargs, *pargs], seed, out))
    print(f"stat_check: {len(jobs)} runs ({len(chosen)} variants, {a.seeds} seeds, before and after), "
          f"{a.jobs} at a time; documents in {folder}", flush=True)
    results = {}
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futures = [(key, pool.submit(run_one, binary, args, seed, out, a.resume)) for key, binary, args, seed, out in jobs]
        for key, fut in futures:
            results.setdefault(key, []).append(fut.result())
    ok = True
    print(f"{'case':<22} {'scenario':<19} {'metric':<17} {'before':>14} {'after':>14} {'|diff|/SE':>9}  verdict")
    for name, _, is_stencil in chosen:
        for scen, _ in (stencil if is_stencil else stochastic):
            runs = {side: results[(name, scen, side)] for side in ("before", "after")}
            bad = [r for side in runs for r in runs[side]
                   if "error" in r or r["violations"] != 0 or r["status"] not in ("completed", "unrecoverable")]
            if bad:
                ok = False
                r = bad[0]
                print(f"{name:<22} {scen:<19} {len(bad)} run(s) failed or inconsistent, e.g. "
                      f"{r.get('error') or (r['status'], r['violations'])}: {r['cmd']}")
                continue
            for metric in METRICS:
                (mb, sb), (ma, sa) = (mean_se([r[metric] for r in runs[s]]) for s in ("before", "after"))
                se = math.sqrt(sb ** 2 + sa ** 2)
                z = abs(ma - mb) / se if se > 0 else (0.0 if ma == mb else math.inf)
                agree = z <= 3
                ok = ok and agree
                print(f"{name:<22} {scen:<19} {metric:<17} {mb:>14.6g} {ma:>14.6g} {z:>9.2f}  "
                      f"{'agree' if agree else 'DIFFER'}")
    print("stat_check: every case agrees within 3 standard errors, no violation" if ok
          else "stat_check: SOME CASES DIFFER OR FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
