#!/usr/bin/python3
"""Golden results: the results documents of a fixed set of seeded runs covering every protocol and
variant, every application kind and storage model (cases.json), kept under expected/. A change
that should simulate nothing differently (a refactoring, a speed-up) must leave them identical:

    tests/golden/golden.py --check            # run every case, compare (the test suite does this)
    tests/golden/golden.py --update [NAME...] # record them again, after a fix that changes results
    tests/golden/golden.py --check --fold-often  # the same runs with the oracle folding every 16
                                              # events: identical but for what it held and folded

Compared: the whole results document but the run's own wall-clock time and wake-up count
(results.wall_time_s, results.events) and the version line. A difference is printed as the JSON
paths that differ. Exit status 0 when all match, 1 otherwise, 2 on a bad call."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
# Not simulated results: the wall time, and how the machine ran the run (SimGrid's contexts are
# sized from the machine's limits).
IGNORED = {("results", "wall_time_s"), ("results", "events"), ("ckptsim",), ("run", "contexts")}


def strip(doc, paths=IGNORED):
    for path in paths:
        node = doc
        for key in path[:-1]:
            node = node.get(key, {})
        node.pop(path[-1], None)
    return doc


# What --fold-often changes: how the consistency oracle held its histories, and the option itself.
FOLDING = {("results", "consistency", "events_held_at_most"), ("results", "consistency", "events_folded"),
           ("run", "oracle_fold_every")}


def run_case(binary, case, fold_often=False):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        # A generous end date: a run that would never end fails instead of hanging the check.
        cmd = [binary, "run", *case["args"], "--end", case.get("end", "200h"), "--quiet", "--output", out]
        if fold_often:
            cmd += ["--self-test", "fold-often"]
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
        if proc.returncode not in (0,):
            return None, f"exit {proc.returncode}: {proc.stderr.strip()[-400:]}"
        with open(out) as f:
            return strip(json.load(f)), None


def differences(a, b, path=""):
    if type(a) is not type(b):
        return [f"{path or '/'}: {json.dumps(a)[:80]} != {json.dumps(b)[:80]}"]
    if isinstance(a, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}/{k}: only in {'expected' if k in a else 'actual'}")
            else:
                out += differences(a[k], b[k], f"{path}/{k}")
        return out
    if isinstance(a, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items != {len(b)}"]
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += differences(x, y, f"{path}/{i}")
        return out
    return [] if a == b else [f"{path}: {json.dumps(a)[:80]} != {json.dumps(b)[:80]}"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--update", action="store_true")
    ap.add_argument("names", nargs="*", help="only these cases")
    ap.add_argument("--ckptsim", default=os.path.join(ROOT, "build", "ckptsim"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--fold-often", action="store_true",
                    help="run with --self-test fold-often; compare all but what folding changes")
    args = ap.parse_args()
    if args.fold_often and args.update:
        print("golden.py: --fold-often only checks", file=sys.stderr)
        return 2
    with open(os.path.join(HERE, "cases.json")) as f:
        cases = json.load(f)["cases"]
    unknown = set(args.names) - {c["name"] for c in cases}
    if unknown:
        print(f"golden.py: unknown case(s): {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    cases = [c for c in cases if not args.names or c["name"] in args.names]
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda c: run_case(args.ckptsim, c, args.fold_often), cases))
    bad = 0
    os.makedirs(os.path.join(HERE, "expected"), exist_ok=True)
    for case, (doc, err) in zip(cases, results):
        path = os.path.join(HERE, "expected", case["name"] + ".json")
        if err:
            bad += 1
            print(f"{case['name']}: the run failed: {err}")
            continue
        if args.update:
            with open(path, "w") as f:
                json.dump(doc, f, indent=1, sort_keys=True)
                f.write("\n")
            print(f"{case['name']}: recorded ({doc['results']['status']})")
            continue
        if not os.path.exists(path):
            bad += 1
            print(f"{case['name']}: no expected/{case['name']}.json (record it with --update)")
            continue
        with open(path) as f:
            expected = json.load(f)
        if args.fold_often:
            expected, doc = strip(expected, FOLDING), strip(doc, FOLDING)
        diff = differences(expected, doc)
        if diff:
            bad += 1
            print(f"{case['name']}: {len(diff)} difference(s)")
            for d in diff[:15]:
                print(f"  {d}")
        else:
            print(f"{case['name']}: identical")
    print(f"{len(cases) - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
