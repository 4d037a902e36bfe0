"""Multi-level checkpoint plans against single levels (issue 33, item 5), from workloads/levels/
experiments.py's table (results/levels/plans.csv): per federation, failure regime and plan (each
with the period `ckptsim advise` suggests), the makespan's overhead over the failure-free time and
the parallel file system's traffic per hour; one row of panels per federation. Means over the
completed runs, 95 % confidence intervals; a plan some of whose runs ended unrecoverable says how
many completed.

    /usr/bin/python3 plots/levels.py      # results/figures/levels_plans.png, .pdf
"""
import math
import os

import common

PATH = os.path.join(common.RESULTS, "levels", "plans.csv")
PLANS = [("partner", "partner only", "#1f77b4"), ("pfs", "file system only", "#d62728"),
         ("2-level", "partner + pfs", "#2ca02c"), ("4-level", "partner + xor + pfs", "#9467bd")]
REGIMES = [("independent", "node failures"), ("outages", "+ rack and cluster outages")]
WIDTH = 0.2


def bars(ax, cell, col):
    for i, (plan, _, colour) in enumerate(PLANS):
        for g, (regime, _) in enumerate(REGIMES):
            r = cell.get((regime, plan))
            if r is None:
                continue
            x = g + (i - 1.5) * WIDTH
            y, err = common.num(r[col]), common.num(r[col + "_ci95"], 0.0)
            if math.isnan(y):
                continue
            ax.bar(x, y, WIDTH, yerr=err, color=colour, error_kw={"elinewidth": 0.8, "capsize": 2})
            if r["completed"] != r["runs"]:
                ax.annotate("%s/%s" % (r["completed"], r["runs"]), (x, y + err), xytext=(0, 2),
                            textcoords="offset points", ha="center", fontsize=6)
    ax.set_xticks(range(len(REGIMES)))
    ax.set_xticklabels([label for _, label in REGIMES], fontsize=8)
    ax.grid(True, axis="y", color="0.9")
    ax.set_axisbelow(True)


def main():
    rows, federations, seeds = common.federations_table(PATH)
    fig, axes = common.plt.subplots(len(federations), 2, figsize=(11, 3.6 * len(federations) + 0.9), squeeze=False)
    for f, fed in enumerate(federations):
        cell = {(r["failures"], r["plan"]): r for r in rows if r["federation"] == fed}
        bars(axes[f][0], cell, "overhead_pct")
        axes[f][0].set_ylabel("makespan overhead over\nthe failure-free time (%)", fontsize=8)
        axes[f][0].set_title(fed, fontsize=9, loc="left")
        bars(axes[f][1], cell, "pfs_gb_per_hour")
        axes[f][1].set_ylabel("parallel file system traffic\n(GB per hour of makespan)", fontsize=8)
    handles = common.colour_patches(PLANS)
    fig.legend(handles=handles, loc="lower center", ncol=4, fontsize=8, bbox_to_anchor=(0.5, 0.03))
    fig.suptitle("Checkpoint plans under coordinated checkpointing, each at the period ckptsim advise suggests "
                 "(every checkpoint first to the node's SSD)", fontsize=9)
    common.save(fig, "levels_plans", [PATH], "means over the completed runs of %d seeds, 95 %% CI; n/m: runs "
                "completed (the others unrecoverable)" % seeds, bottom=0.09)


if __name__ == "__main__":
    main()
