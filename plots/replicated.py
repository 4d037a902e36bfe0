"""Replicated in-memory checkpoints (Bondarenko and Iakobovski), from
workloads/replicated/experiments.py's tables (results/replicated/): the fraction of bursts of f
simultaneous failures survived against f, per (DF, SD), with the paper's guarantee (every burst of
at most MNF = (DF-1)SD+1 failures) marked; and the memory a node holds against the paper's V.

    /usr/bin/python3 plots/replicated.py
"""
import math
import os

import common

HERE = os.path.join(common.RESULTS, "replicated")


def wilson(k, n):
    """95 % Wilson interval of a proportion k / n, as (low, high)."""
    if n == 0:
        return math.nan, math.nan
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def recoverable():
    path = os.path.join(HERE, "recoverable.csv")
    rows, _ = common.read_table(path)
    schemes = []
    for r in rows:
        if (r["DF"], r["SD"]) not in schemes:
            schemes.append((r["DF"], r["SD"]))
    fig, axes = common.plt.subplots(2, (len(schemes) + 1) // 2, figsize=(10, 5.6), sharex=True, sharey=True)
    for ax, (df, sd) in zip(axes.flat, schemes):
        sub = sorted((r for r in rows if (r["DF"], r["SD"]) == (df, sd)), key=lambda r: common.num(r["failures"]))
        f = common.column(sub, "failures")
        sim = common.column(sub, "simulated_recoverable")
        n = common.column(sub, "runs")
        lo_hi = [wilson(round(s * k), int(k)) for s, k in zip(sim, n)]
        ax.plot(f, common.column(sub, "exhaustive_recoverable"), "-", color="0.4", lw=1.2,
                label="every failure set (RLFFN, exact)")
        ax.errorbar(f, sim, yerr=[[s - a for s, (a, _) in zip(sim, lo_hi)], [b - s for s, (_, b) in zip(sim, lo_hi)]],
                    fmt="o", ms=4, capsize=2, color=common.OURS, label="ckptsim runs (%d each, 95 %% Wilson)" % n[0])
        mnf = common.num(sub[0]["MNF"])
        ax.axvspan(0.5, mnf + 0.5, color=common.PAPER, alpha=0.08, lw=0)
        ax.axvline(mnf + 0.5, color=common.PAPER, ls="--", lw=1.2, label="paper: all survived up to MNF")
        ax.set_title("DF %s, SD %s (MNF %d)" % (df, sd, mnf), fontsize=8)
        ax.grid(True, color="0.9")
    for ax in axes[-1]:
        ax.set_xlabel("simultaneous failures (of 16 nodes)")
    for ax in axes[:, 0]:
        ax.set_ylabel("bursts survived")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=7, bbox_to_anchor=(0.5, 0.03))
    fig.suptitle("Replicated in-memory checkpoints: bursts of failures survived, coordinated, one cluster of 16 "
                 "nodes", fontsize=9)
    common.save(fig, "replicated_recoverable", [path], bottom=0.1)


def cost():
    path = os.path.join(HERE, "cost.csv")
    rows, _ = common.read_table(path)
    labels = ["buddy" if r["DF"] == "buddy" else "DF %s SD %s" % (r["DF"], r["SD"]) for r in rows]
    xs = range(len(rows))
    fig, ax = common.figure(7, 4)
    ax.bar([x - 0.2 for x in xs], common.column(rows, "paper_V_MB_per_node"), width=0.4, color=common.PAPER,
           label="paper: V = SD (DF + 1) V0")
    ax.bar([x + 0.2 for x in xs], common.column(rows, "held_max_MB_per_node"), width=0.4, color=common.OURS,
           label="ckptsim: most held per node (the next wave written before the oldest goes)")
    for x, w, h in zip(xs, common.column(rows, "mean_wave_s"), common.column(rows, "held_max_MB_per_node")):
        ax.text(x + 0.2, h + 1.5, "%.3g s" % w, ha="center", fontsize=7)
    ax.set_xticks(list(xs))
    ax.set_xticklabels(labels, fontsize=8)
    ax.set_ylim(0, 1.35 * max(common.column(rows, "held_max_MB_per_node")))  # room for the legend above the bars
    common.finish(fig, ax, "replicated_cost", [path], "storage scheme (above the bars: duration of a wave)",
                  "checkpoint memory per node (MB), V0 = 10 MB",
                  "Replicated storage: memory per node against the paper's V, 16 nodes, failure-free",
                  legend_loc="upper left")


def main():
    recoverable()
    cost()


if __name__ == "__main__":
    main()
