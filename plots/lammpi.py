"""LAM/MPI automatic checkpoint/restart (Martins Jr. and Goncalves), figures 6 and 7, from
workloads/lammpi/experiments.py's table (results/lammpi/fig6_7.csv): one worker node failing at
10 % .. 90 % of the failure-free run, the total time with the automatic checkpoint continuing on
the 3 nodes left against a re-run without checkpoint on 4 and on 3 nodes, and the gain.
The paper gives numbers for the failure at 90 % only (its figures are not in its text): those are
drawn beside ours. The runs are deterministic (one failure from a trace per run): a point is one run.

    /usr/bin/python3 plots/lammpi.py
"""
import os

import common

PATH = os.path.join(common.RESULTS, "lammpi", "fig6_7.csv")

# The paper, section 5: the failure at 90 % of the 5681 s run (5113 s).
PAPER_CKPT_90 = 6085.0  # automatic checkpoint, continuing on 3 nodes
PAPER_RERUN4_90 = 10794.0  # failure date + a whole failure-free run on 4 nodes
PAPER_GAIN4_90 = 100.0 * (1 - PAPER_CKPT_90 / PAPER_RERUN4_90)  # "above 43 %"
PAPER_GAIN3_90 = 55.0  # "around 55 %" against a re-run on 3 nodes
PAPER_FREE = 5681.0  # failure-free, no checkpoint
PAPER_FREE_CKPT = 5784.0  # failure-free, automatic checkpoint (+1.81 %)

# Our series: column, label, style, colour.
TIMES = [("ckpt_continue_on_3_s", "automatic checkpoint, continuing on 3 nodes", "o-", common.OURS),
         ("none_rerun_on_4_s", "no checkpoint, re-run on 4 nodes", "s--", "#ff7f0e"),
         ("paper_formula_rerun_on_3_s", "no checkpoint, re-run on 3 nodes (failure date + 3-node run)", "^:",
          "#2ca02c")]
GAINS = [("gain_vs_rerun_on_4_pct", "against a re-run on 4 nodes", "s--", "#ff7f0e"),
         ("gain_vs_rerun_on_3_pct", "against a re-run on 3 nodes", "^:", "#2ca02c")]


def series(rows, col):
    pts = sorted((common.num(r["failure_pct"]), common.num(r[col])) for r in rows)
    return [p[0] for p in pts], [p[1] for p in pts]


def fig6(rows):
    fig, ax = common.figure()
    for col, label, style, colour in TIMES:
        x, y = series(rows, col)
        ax.plot(x, y, style, color=colour, ms=4, label="ckptsim: " + label)
    ax.axhline(PAPER_FREE, color="0.6", lw=0.8, ls="-.", label="failure-free run, 4 nodes (paper 5681 s)")
    ax.plot([90], [PAPER_CKPT_90], "*", color=common.PAPER, ms=11, label="paper at 90 %: checkpoint, on 3 (6085 s)")
    ax.plot([90], [PAPER_RERUN4_90], "P", color=common.PAPER, ms=8, label="paper at 90 %: re-run on 4 (10794 s)")
    ax.set_xlim(0, 100)
    ax.set_ylim(0, None)
    return common.finish(fig, ax, "lammpi_fig6", [PATH], "failure of one worker node at x % of the failure-free run (%)",
                         "total time of the application (s)",
                         "LAM/MPI figure 6: master-worker 500 x 500 x 200 on 4 nodes, one worker node failing",
                         "one deterministic run a point; the paper gives numbers at 90 % only", "lower left")


def fig7(rows):
    fig, ax = common.figure()
    for col, label, style, colour in GAINS:
        x, y = series(rows, col)
        ax.plot(x, y, style, color=colour, ms=4, label="ckptsim: gain " + label)
    ax.axhline(0, color="0.3", lw=0.8)
    ax.plot([90], [PAPER_GAIN4_90], "P", color=common.PAPER, ms=8,
            label="paper at 90 %%: against 4 nodes (%.1f %%, \"above 43 %%\")" % PAPER_GAIN4_90)
    ax.plot([90], [PAPER_GAIN3_90], "*", color=common.PAPER, ms=11,
            label="paper at 90 %: against 3 nodes (\"around 55 %\")")
    ax.set_xlim(0, 100)
    return common.finish(fig, ax, "lammpi_fig7", [PATH], "failure of one worker node at x % of the failure-free run (%)",
                         "gain: 1 - checkpoint time / re-run time (%)",
                         "LAM/MPI figure 7: what the automatic checkpoint saves against a re-run",
                         "gain < 0: the re-run is faster (the doubled-up survivor computes at half speed)", "lower right")


def main():
    rows, _ = common.read_table(PATH)
    fig6(rows)
    fig7(rows)


if __name__ == "__main__":
    main()
