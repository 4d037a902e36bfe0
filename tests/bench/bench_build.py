#!/usr/bin/env python3
"""Clean-build time of ckptsim at one or more commits, measured in one run.

Each commit is checked out into a fresh temporary work tree (git worktree) and built from
scratch with the README's commands (RelWithDebInfo, `cmake --build -j JOBS`), then the test
suite is run once (`ctest -j JOBS`). Prints, per commit: the wall time and the CPU time (user +
system of every compiler and linker, from getrusage of the children) of the configure + build,
the number of translation units compiled, and the wall time of the test suite; then the ratios
of each commit to the first one.

Wall times move with the machine's load; CPU times much less: compare commits in one run, on a
quiet machine. Example (the issue-16 baseline against the current commit):

    /usr/bin/python3 tests/bench/bench_build.py de8d786 HEAD
"""

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd, cwd, log):
    """Runs cmd, output to log; returns (wall seconds, CPU seconds of it and its children)."""
    cpu0, wall0 = children_cpu(), time.monotonic()
    with open(log, "a") as out:
        subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, check=True)
    return time.monotonic() - wall0, children_cpu() - cpu0


def measure(repo, commit, jobs, tests, workdir):
    tree = os.path.join(workdir, "tree-" + commit.replace("/", "_"))
    build = os.path.join(tree, "build")
    log = os.path.join(workdir, "log-" + commit.replace("/", "_") + ".txt")
    subprocess.run(["git", "-C", repo, "worktree", "add", "--detach", tree, commit], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        sha = subprocess.run(["git", "-C", tree, "rev-parse", "--short", "HEAD"], check=True,
                             capture_output=True, text=True).stdout.strip()
        w1, c1 = timed(["cmake", "-S", ".", "-B", "build", "-DCMAKE_BUILD_TYPE=RelWithDebInfo"], tree, log)
        w2, c2 = timed(["cmake", "--build", "build", "-j", str(jobs)], tree, log)
        units = sum(1 for root, _, files in os.walk(build) for f in files if f.endswith(".o"))
        test_wall = None
        if tests:
            test_wall, _ = timed(["ctest", "--test-dir", "build", "-j", str(jobs)], tree, log)
        return {"commit": commit, "sha": sha, "build_wall": w1 + w2, "build_cpu": c1 + c2, "units": units,
                "test_wall": test_wall}
    finally:
        subprocess.run(["git", "-C", repo, "worktree", "remove", "--force", tree], check=False)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("commits", nargs="+", help="commits to build, the first one the reference")
    ap.add_argument("--jobs", type=int, default=2, help="parallel jobs for the build and the tests (2)")
    ap.add_argument("--no-tests", action="store_true", help="time the build only")
    ap.add_argument("--repo", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    args = ap.parse_args()

    workdir = tempfile.mkdtemp(prefix="ckptsim-build-bench-")
    rows = []
    try:
        for commit in args.commits:
            print(f"building {commit} ...", file=sys.stderr, flush=True)
            rows.append(measure(args.repo, commit, args.jobs, not args.no_tests, workdir))
    except subprocess.CalledProcessError as e:
        print(f"failed: {e}; logs kept in {workdir}", file=sys.stderr)
        return 1
    shutil.rmtree(workdir, ignore_errors=True)

    print(f"{'commit':<12} {'sha':<9} {'build wall [s]':>14} {'build CPU [s]':>13} {'objects':>7} {'tests wall [s]':>14}")
    for r in rows:
        tw = f"{r['test_wall']:.0f}" if r["test_wall"] is not None else "-"
        print(f"{r['commit']:<12} {r['sha']:<9} {r['build_wall']:>14.0f} {r['build_cpu']:>13.0f} {r['units']:>7} {tw:>14}")
    ref = rows[0]
    for r in rows[1:]:
        print(f"{r['commit']} / {ref['commit']}: build wall {r['build_wall'] / ref['build_wall']:.2f}, "
              f"build CPU {r['build_cpu'] / ref['build_cpu']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
