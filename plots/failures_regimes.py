"""The protocols under four failure regimes of one event rate (issue 31, item 7), from
workloads/failures/experiments.py's table (results/failures/regimes.csv): per regime and protocol, the
makespan overhead over the failure-free run and the work lost to rollbacks (means over the completed
runs, 95 % confidence intervals; the share of runs that completed written above a bar when some did
not), and hc3i's run outcomes with buddy or checkpoint-server storage under rack and cluster outages;
one row of panels per federation (4 x 4 nodes running the jacobi2d MPI trace, the default 2 x 100).

    /usr/bin/python3 plots/failures_regimes.py      # results/figures/failures_regimes.png, .pdf
"""
import os

import common

PATH = os.path.join(common.RESULTS, "failures", "regimes.csv")

# Protocols as the table names them, their legend label and colour (as plots/mpi.py).
PROTOCOLS = common.protocols("none (restart from scratch)")
REGIMES = [("exponential", "exponential"), ("correlated", "correlated\n(rack, cluster)"),
           ("weibull-0.6", "Weibull\nshape 0.6"), ("lanl-log", "LANL-format\nlog")]
# hc3i's storage panel: (regime, storage, label).
STORAGE = [("correlated", "buddy", "correlated\nbuddy"),
           ("rack-outages", "buddy", "racks\nbuddy"), ("rack-outages", "servers", "racks\nservers"),
           ("cluster-outages", "buddy", "clusters\nbuddy"), ("cluster-outages", "servers", "clusters\nservers")]
OUTCOMES = [("completed", "completed", "#9ecae1"), ("unrecoverable", "unrecoverable", "#d62728"),
            ("stuck", "stuck (no progress)", "0.45")]
WIDTH = 0.16


def bars(ax, rows, col, ylabel):
    """A group of bars per regime, one per protocol, log scale; a bar with fewer completed runs than
    runs carries 'completed/runs'; none completed, or a mean of 0 (the completed runs met no failure):
    the count alone, at the bottom."""
    cell = {(r["regime"], r["protocol"]): r for r in rows}
    floor = min(common.num(r[col]) for r in rows if r["regime"] in dict(REGIMES) and common.num(r[col]) > 0)
    for i, (name, label, colour) in enumerate(PROTOCOLS):
        for g, (regime, _) in enumerate(REGIMES):
            r = cell[(regime, name)]
            x = g + (i - (len(PROTOCOLS) - 1) / 2.0) * WIDTH
            y, err = common.num(r[col]), common.num(r[col + "_ci95"], 0.0)
            done, runs = int(r["completed"]), int(r["runs"])
            if done and y > 0:
                ax.bar(x, y, WIDTH, yerr=[[min(err, 0.9 * y)], [err]], color=colour,
                       error_kw={"elinewidth": 0.8, "capsize": 2})
            if done < runs:  # a mean of 0 (no bar on a log scale): the count at the bottom too
                ax.text(x, (y + err) * 1.15 if done and y > 0 else floor, "%d/%d" % (done, runs), ha="center",
                        va="bottom", fontsize=6, rotation=90, color="0.2")
    ax.set_xticks(range(len(REGIMES)))
    ax.set_xticklabels([label for _, label in REGIMES], fontsize=7.5)
    ax.set_yscale("log")
    ax.set_ylabel(ylabel, fontsize=8)
    ax.grid(True, axis="y", color="0.9")
    ax.set_axisbelow(True)


def outcomes(ax, rows):
    """hc3i: share of runs completed, unrecoverable and stuck, per regime and storage model."""
    cell = {(r["regime"], r["protocol"], r["storage"]): r for r in rows}
    for x, (regime, storage, _) in enumerate(STORAGE):
        r = cell[(regime, "hc3i", storage)]
        bottom = 0.0
        for key, _, colour in OUTCOMES:
            share = int(r[key]) / float(r["runs"])
            ax.bar(x, share, 0.6, bottom=bottom, color=colour)
            bottom += share
        ax.text(x, 1.02, "%s/%s" % (r["completed"], r["runs"]), ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(STORAGE)))
    ax.set_xticklabels([label for _, _, label in STORAGE], fontsize=7)
    ax.set_ylim(0, 1.15)
    ax.set_ylabel("hc3i: share of runs", fontsize=8)
    ax.grid(True, axis="y", color="0.9")
    ax.set_axisbelow(True)


def main():
    rows, federations, seeds = common.federations_table(PATH)
    fig, axes = common.plt.subplots(len(federations), 3, figsize=(13, 4.2 * len(federations) + 0.6),
                                    gridspec_kw={"width_ratios": [1.25, 1.25, 0.8]}, squeeze=False)
    for f, fed in enumerate(federations):
        sub = [r for r in rows if r["federation"] == fed]
        bars(axes[f][0], sub, "overhead_pct", "makespan overhead over the\nfailure-free run (%, log scale)")
        bars(axes[f][1], sub, "lost_work_s", "work lost to rollbacks\n(process-seconds, log scale)")
        outcomes(axes[f][2], sub)
        axes[f][0].set_title(fed, fontsize=9, loc="left")
    handles = common.colour_patches(PROTOCOLS)
    handles += common.colour_patches(OUTCOMES, "hc3i ")
    fig.legend(handles=handles, loc="lower center", ncol=4, fontsize=7.5, bbox_to_anchor=(0.5, 0.025))
    fig.suptitle("Failure regimes of one event rate: exponential, half the events rack and cluster outages, Weibull "
                 "shape 0.6, a LANL-format log with its own repair times\n(4 x 4 nodes: jacobi2d MPI trace, about 1 h "
                 "failure-free, MTBF 20 min; 2 x 100: the default scenario cut to 5 h, MTBF 2 h)", fontsize=9)
    common.save(fig, "failures_regimes", [PATH], "means over the completed runs of %d seeds (the same failures for "
                "every protocol), 95 %% CI; n/%d: completed runs when fewer" % (seeds, seeds), bottom=0.09)


if __name__ == "__main__":
    main()
