#!/usr/bin/python3
"""Stress sweep of protocol hc3i: random federations (2-5 clusters x 2-5 nodes), failure
parameters (downtime 0-5 s, detection delay 0-3 s, restart overhead), checkpoint sizes, message
sizes, send rates, timers (no unforced CLC, GC or not) and the transitive variant, each run
checked by the simulator's consistency oracle (a run that exits non-zero or hangs is reported).
Not a test: it takes minutes; run it after touching hc3i or the engine.

    tests/bench/hc3i_stress.py [--start 1000] [--count 150] [--ckptsim build/ckptsim]

Prints the failing runs (seed, exit status, first lines of stderr) and a count; a failing seed
is re-run alone with --start SEED --count 1 --keep DIR to keep its inputs and a level-2 trace."""
import argparse
import json
import os
import random
import subprocess
import tempfile


def scenario(i):
    rnd = random.Random(i)
    k, n = rnd.randint(2, 5), rnd.randint(2, 5)
    link = {"latency": "150us", "bandwidth": "100MBps"}
    topo = {"clusters": [{"name": f"c{c}", "nodes": n, "san": {"latency": "10us", "bandwidth": "80MBps"},
                          "checkpoint_size": rnd.choice(["1KB", "64KB", "1MB"])} for c in range(k)],
            "wan": [[link for _ in range(a + 1, k)] for a in range(k - 1)],
            "mtbf": rnd.choice([20.0, 40.0, 80.0]),
            "failures": {"downtime": rnd.choice([0, 0.5, 2, 5]), "detection_delay": rnd.choice([0, 0.5, 3]),
                         "restart_overhead": rnd.choice([0, 0.5])}}
    app = {"kind": "stochastic", "total_time": 300.0, "message_size": rnd.choice(["1KiB", "100KiB"]),
           "clusters": [{"cluster": f"c{c}", "compute": rnd.choice([0.5, 2.0]),
                         "send": {f"c{d}": (rnd.choice([0.1, 0.5]) if c == d else rnd.choice([0.01, 0.1, 0.3]))
                                  for d in range(k)}} for c in range(k)]}
    timers = {"default": {"checkpoint_period": rnd.choice([5, 15, 40, None]), "gc_period": rnd.choice([None, 20, 60])}}
    params = ["--param", "transitive=true"] if rnd.random() < 0.3 else []
    return topo, app, timers, params


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--start", type=int, default=1000)
    ap.add_argument("--count", type=int, default=150)
    ap.add_argument("--ckptsim", default=os.path.join(here, "..", "..", "build", "ckptsim"))
    ap.add_argument("--keep", help="folder to keep the inputs and a level-2 trace of the last run")
    args = ap.parse_args()
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or tmp
        os.makedirs(folder, exist_ok=True)
        for i in range(args.start, args.start + args.count):
            topo, app, timers, params = scenario(i)
            files = {}
            for name, doc in (("topology", topo), ("application", app), ("timers", timers)):
                files[name] = os.path.join(folder, f"{name}.json")
                with open(files[name], "w") as f:
                    json.dump(doc, f)
            cmd = [args.ckptsim, "run", "--protocol", "hc3i", "--seed", str(i), "--topology", files["topology"],
                   "--application", files["application"], "--timers", files["timers"], "--quiet",
                   "--output", os.path.join(folder, "stats.json")] + params
            if args.keep:
                cmd += ["--trace", os.path.join(folder, "trace.jsonl"), "--trace-level", "2"]
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
                status, err = proc.returncode, proc.stderr
            except subprocess.TimeoutExpired:
                status, err = "timeout (120 s)", ""
            if status != 0:
                bad += 1
                print(i, status, err.strip().splitlines()[:2], flush=True)
    print(f"{args.count} runs, {bad} failed")


if __name__ == "__main__":
    main()
