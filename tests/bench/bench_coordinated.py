#!/usr/bin/env python3
"""bench_coordinated: wall time of protocol "coordinated" with and without comm proxies.

Runs the same seeded scenarios with CKPTSIM_COMM_PROXIES=off (every comm in its node's own SimGrid
activity list, as before the proxies) and =auto (the default), interleaved repetition by
repetition so that both see the same machine load, and checks that every run of a case gives
the same results document apart from the wall-clock field. --baseline PATH adds a variant: another
ckptsim binary (e.g. a build of an older commit), run without the variable; --preload LIB adds
proxies=auto with LIB in LD_PRELOAD (e.g. /usr/lib/x86_64-linux-gnu/libjemalloc.so.2).

Cases (all on the embedded default scenario, 2 x 100 nodes, 1 MB checkpoints to one server):
  hour       1 h of computation, no failure: 2 waves (checkpoint every 30 min)
  hour-5     1 h of computation, no failure, a checkpoint every 10 min: 5 waves
  default    the scenario as shipped, seed 2: 10 h, 20 waves, 3 failures (600 rollbacks)

Per variant it prints the medians over --repeat runs of wall time, CPU time (user + system) and
peak RSS (ru_maxrss of the child from wait4), then the ratio of each variant's median wall and CPU
time to the first variant's.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

CASES = {
    "hour": ["--seed", "2", "--set", "topology/mtbf=inf", "--set", "application/total_time=1h"],
    "hour-5": ["--seed", "2", "--set", "topology/mtbf=inf", "--set", "application/total_time=1h",
               "--set", "timers/default/checkpoint_period=10min"],
    "default": ["--seed", "2"],
}


def default_binary():
    for guess in (os.path.join(HERE, "..", "..", "ckptsim"), os.path.join(HERE, "..", "..", "build", "ckptsim")):
        if os.path.isfile(guess) and os.access(guess, os.X_OK):
            return os.path.normpath(guess)
    return "ckptsim"


def run_once(binary, mode, args, out, preload=None):
    env = dict(os.environ)
    env.pop("CKPTSIM_COMM_PROXIES", None)
    if mode:
        env["CKPTSIM_COMM_PROXIES"] = mode
    if preload:
        env["LD_PRELOAD"] = preload
    cmd = [binary, "run", "--protocol", "coordinated", "--quiet", "--output", out] + args
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"{' '.join(cmd)}: exit status {code}: {proc.stderr.read().decode(errors='replace')}")
    with open(out) as f:
        doc = json.load(f)
    doc["results"].pop("wall_time_s", None)
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss / 1024.0}, doc


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ckptsim", default=default_binary(), help="the ckptsim binary (default: this build's)")
    ap.add_argument("--baseline", help="another ckptsim binary to compare with (run without CKPTSIM_COMM_PROXIES)")
    ap.add_argument("--cases", default="hour,hour-5,default", help="comma-separated: " + ", ".join(CASES))
    ap.add_argument("--modes", default="off,auto", help="CKPTSIM_COMM_PROXIES values to run (default off,auto)")
    ap.add_argument("--preload", help="adds a variant: proxies=auto with this library in LD_PRELOAD (e.g. an allocator)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("extra", nargs="*", help="more ckptsim arguments for every run (after --)")
    a = ap.parse_args()

    variants = [(f"proxies={m}", a.ckptsim, m, None) for m in a.modes.split(",") if m]
    if a.preload:
        variants.append((f"proxies=auto+{os.path.basename(a.preload)}", a.ckptsim, "auto", a.preload))
    if a.baseline:
        variants.append((f"baseline {os.path.basename(a.baseline)}", a.baseline, None, None))
    folder = tempfile.mkdtemp(prefix="bench_coordinated.")
    print(f"ckptsim: {a.ckptsim}; outputs in {folder}")
    for case in a.cases.split(","):
        args = CASES[case] + a.extra
        measures = {v[0]: [] for v in variants}
        reference = None
        for r in range(a.repeat):
            for i, (name, binary, mode, preload) in enumerate(variants):
                out = os.path.join(folder, f"{case}.{r}.{i}.json")
                m, doc = run_once(binary, mode, args, out, preload)
                if reference is None:
                    reference = doc
                elif doc != reference:
                    sys.exit(f"{case}: {name} gives other results than the first run ({out})")
                measures[name].append(m)
        res = reference["results"]
        print(f"\n{case}: {' '.join(args)}")
        print(f"  simulated end {res['end_date']:.1f} s, {res['control_messages']:.0f} control messages, "
              f"{res['failures']:.0f} failures, {res['events']} events; all runs identical")
        print(f"  {'variant':<28} {'wall [s]':>9} {'CPU [s]':>9} {'peak RSS [MiB]':>15}")
        med = {}
        for name, *_ in variants:
            ms = measures[name]
            med[name] = {k: statistics.median(x[k] for x in ms) for k in ("wall", "cpu", "rss")}
            print(f"  {name:<28} {med[name]['wall']:9.2f} {med[name]['cpu']:9.2f} {med[name]['rss']:15.0f}")
        first = variants[0][0]
        for name, *_ in variants[1:]:
            print(f"  {first} / {name}: wall {med[first]['wall'] / med[name]['wall']:.2f}x, "
                  f"CPU {med[first]['cpu'] / med[name]['cpu']:.2f}x")


if __name__ == "__main__":
    main()
