#!/usr/bin/python3
"""Runs several protocols on the same federation, application, timers and seed, and prints one
table: protocol messages (all, and those crossing the WAN), checkpoints, checkpoint bytes, lost
work, rollbacks and makespan. Every other argument goes to `ckptsim run` unchanged.

    plots/compare_protocols.py --protocols hc3i,coordinated --seed 2 [ckptsim run options...]

Needs only the standard library; run it with /usr/bin/python3 from the project root (it finds
build/ckptsim, or give --ckptsim PATH)."""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def run(ckptsim, protocol, seed, extra):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "stats.json")
        cmd = [ckptsim, "run", "--protocol", protocol, "--seed", str(seed), "--quiet", "--output", out] + extra
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"compare_protocols: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}")
        with open(out) as f:
            return json.load(f)


def row(protocol, doc):
    res, counters = doc["results"], doc["stats"]["counters"]
    makespan = res.get("makespan")
    return [protocol,
            f"{counters.get('ctrl.total', 0):.0f}",
            f"{counters.get('ctrl.wan', 0):.0f}",
            f"{counters.get('storage.saves', 0):.0f}",
            f"{counters.get('storage.bytes_written', 0) / 1e6:.1f}",
            f"{res.get('rollbacks', 0):.0f}",
            f"{res.get('lost_work', 0):.0f}",
            f"{makespan:.1f}" if isinstance(makespan, (int, float)) else str(res.get("status")),
            f"{res['consistency']['violations']}"]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--protocols", default="hc3i,coordinated")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ckptsim", default=os.path.join(here, "..", "build", "ckptsim"))
    args, extra = ap.parse_known_args()
    header = ["protocol", "ctrl msgs", "ctrl msgs WAN", "ckpt saves", "ckpt MB written", "rollbacks",
              "lost work (s)", "makespan (s)", "violations"]
    rows = [row(p, run(args.ckptsim, p, args.seed, extra)) for p in args.protocols.split(",")]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    print("  ".join(h.rjust(w) for h, w in zip(header, widths)))
    for r in rows:
        print("  ".join(c.rjust(w) for c, w in zip(r, widths)))


if __name__ == "__main__":
    main()
