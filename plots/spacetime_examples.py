#!/usr/bin/python3
"""Regenerates the worked space-time diagrams: runs each example's scenario with a trace, keeps the
trace under results/traces/ (the default scenario's, 2 MB, under /tmp), draws its figures under
results/figures/ with plots/spacetime.py.

    /usr/bin/python3 plots/spacetime_examples.py                 # every example
    /usr/bin/python3 plots/spacetime_examples.py hc3i-figure4    # one (names below)
    /usr/bin/python3 plots/spacetime_examples.py --ckptsim PATH  # default: build/ckptsim
"""
import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
TRACES = os.path.join("results", "traces")
FIGURES = os.path.join("results", "figures")


def inputs(folder, topology="topology.json", application="application.json", timers="timers.json"):
    return ["--topology", os.path.join(folder, topology), "--application", os.path.join(folder, application),
            "--timers", os.path.join(folder, timers)]


# name -> (ckptsim run arguments, trace level (2: the engine's state events), [(figure, spacetime.py arguments)])
EXAMPLES = {
    "hc3i-figure4": (
        ["--protocol", "hc3i"] + inputs("workloads/hc3i/figure4"), 2,
        [("spacetime_hc3i_figure4.png",
          ["--control", "ALERT", "--title", "HC3I report, figure 4 (workloads/hc3i/figure4): cluster2 fails at 35 s; "
           "CLCs labelled with their DDV, forced ones dark; alerts dotted"]),
         ("spacetime_hc3i_figure4_alerts.png",
          ["--control", "ALERT,ALERT_BCAST", "--from", "40.99998", "--to", "41.00085", "--title",
           "HC3I report, figure 4, the alerts (41 s, within a millisecond): cluster2's alert makes cluster3 roll back, "
           "whose alert makes cluster1 roll back and re-send m4"])]),
    "cck-failure-example": (
        ["--protocol", "cck"] + inputs("workloads/cck", "topology-1d.json", "application-1d.json", "timers-1d.json"), 2,
        [("spacetime_cck_run.png",
          ["--title", "CCK (workloads/cck, failure-example.txt): a wave every 2 s (processes stop between tasks), "
           "c0-2 fails at 4.5 s: a partial restart"]),
         ("spacetime_cck_restart.png",
          ["--from", "4.498", "--to", "4.523", "--title", "CCK (workloads/cck), the restart: c0-2 fails at 4.5 s and "
           "reloads wave 2; the others stop; c0-3 re-executes one task, its message to c0-2"])]),
    "independent-domino": (
        ["--protocol", "independent"] + inputs("workloads/independent/domino"), 2,
        [("spacetime_domino.png",
          ["--to", "30", "--title", "Independent checkpointing, the domino effect (workloads/independent/domino): "
           "B = p-1 fails at 24 s, both go back to their initial states"])]),
    "msglog-optimistic-cascade": (
        ["--protocol", "msglog", "--param", "variant=optimistic"] + inputs("workloads/msglog/optimistic-cascade"), 2,
        [("spacetime_msglog_cascade.png",
          ["--control", "ROLLBACK_NOTICE", "--title", "msglog optimistic (workloads/msglog/optimistic-cascade): p-1 "
           "fails at 1.5 s, its lost determinant makes p-2, p-3 then p-0 orphans"])]),
    "default-seed2": (
        ["--seed", "2"], 2,
        [("spacetime_default_aggregated.png",
          ["--title", "The default scenario (2 x 100 nodes, HC3I, 10 h), seed 2: aggregated view"])]),
}
BIG = {"default-seed2"}  # traces not kept in the repository


def regenerate(name, ckptsim):
    args, level, figures = EXAMPLES[name]
    trace = os.path.join(tempfile.gettempdir() if name in BIG else TRACES, name + ".jsonl")
    run = [ckptsim, "run"] + args + ["--trace", trace, "--trace-level", str(level), "-q"]
    print(" ".join(run), flush=True)
    subprocess.run(run, cwd=ROOT, check=True)
    for figure, options in figures:
        draw = [sys.executable, os.path.join("plots", "spacetime.py"), trace, "-o", os.path.join(FIGURES, figure)]
        print(" ".join(draw[:5] + [repr(o) if " " in o else o for o in options]), flush=True)
        subprocess.run(draw + options, cwd=ROOT, check=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("names", nargs="*", help="examples (default: all): " + ", ".join(sorted(EXAMPLES)))
    p.add_argument("--ckptsim", default=os.path.join("build", "ckptsim"))
    args = p.parse_args()
    unknown = [n for n in args.names if n not in EXAMPLES]
    if unknown:
        p.exit(2, "spacetime_examples: no example %s (there are %s)\n" %
               (", ".join(unknown), ", ".join(sorted(EXAMPLES))))
    for name in args.names or sorted(EXAMPLES):
        regenerate(name, args.ckptsim)


if __name__ == "__main__":
    main()
