"""The protocols compared on the shipped MPI traces (issue 17, item 6), from workloads/mpi/experiments.py's
table (results/mpi/compare.csv): per trace and protocol, the makespan overhead over the failure-free run,
the work lost to rollbacks and the protocol's control messages, one column of panels per federation
(2 x 8 and 4 x 4 nodes). Bars are means over the seeds with their 95 % confidence intervals.

    /usr/bin/python3 plots/mpi.py
"""
import os

import common

PATH = os.path.join(common.RESULTS, "mpi", "compare.csv")

# Protocols as the table names them, their legend label and colour (the same on every panel).
PROTOCOLS = [("none", "none (restart from scratch)", "0.7"),
             ("coordinated", "coordinated", "#1f77b4"),
             ("hc3i", "hc3i", "#2ca02c"),
             ("independent:unit=cluster", "independent, unit=cluster", "#ff7f0e"),
             ("msglog:variant=pessimistic", "msglog, pessimistic", "#9467bd")]
# Rows of panels: column of the table, y label, log scale, protocols left out.
PANELS = [("overhead_pct", "makespan overhead over the\nfailure-free run (%)", False, ()),
          ("lost_work_s", "work lost to rollbacks\n(process-seconds, log scale)", True, ()),
          ("control_messages", "protocol control messages\nper run", False, ("none",))]
WIDTH = 0.16


def axis_top(rows, col):
    """The linear axis' top: the tallest bar and its interval, none's overhead left out (4 to 5 times the
    others'), over every federation so that panels sharing the axis clip alike."""
    top = max(common.num(r[col]) + common.num(r[col + "_ci95"], 0.0)
              for r in rows if r["protocol"] != "none" or col != "overhead_pct")
    return 1.12 * top


def bars(ax, rows, traces, col, limit, skip):
    """One panel: a group of bars per trace, one bar per protocol. limit: the linear axis' top (a taller
    bar is clipped, hatched and labelled with its value), None for a log scale."""
    shown = [p for p in PROTOCOLS if p[0] not in skip]
    cell = {(r["trace"], r["protocol"]): r for r in rows}
    for i, (name, label, colour) in enumerate(shown):
        x = [t + (i - (len(shown) - 1) / 2.0) * WIDTH for t in range(len(traces))]
        y = [common.num(cell[(t, name)][col]) for t in traces]
        err = [common.num(cell[(t, name)][col + "_ci95"], 0.0) for t in traces]
        if limit is not None and max(y) > limit:
            for xi, yi, ei in zip(x, y, err):
                ax.bar(xi, limit, WIDTH, color=colour, hatch="//", edgecolor="white", lw=0)
                ax.text(xi, 0.97 * limit, "%.0f %%\n±%.0f" % (yi, ei), ha="center", va="top", fontsize=6.5,
                        bbox={"facecolor": "white", "edgecolor": "none", "pad": 1})
            continue
        ax.bar(x, y, WIDTH, yerr=err, color=colour, label=label, error_kw={"elinewidth": 0.8, "capsize": 2})
    ax.set_xticks(range(len(traces)))
    ax.set_xticklabels(traces, fontsize=8)
    if limit is None:
        ax.set_yscale("log")
    else:
        ax.set_ylim(0, limit)
    ax.grid(True, axis="y", color="0.9")
    ax.set_axisbelow(True)


def main():
    rows, _ = common.read_table(PATH)
    traces, federations = [], []
    for r in rows:
        if r["trace"] not in traces:
            traces.append(r["trace"])
        if r["federation"] not in federations:
            federations.append(r["federation"])
    seeds = int(common.num(rows[0]["runs"]))
    fig, axes = common.plt.subplots(len(PANELS), len(federations), figsize=(10, 9.2), sharey="row", squeeze=False)
    for c, fed in enumerate(federations):
        sub = [r for r in rows if r["federation"] == fed]
        for p, (col, ylabel, log, skip) in enumerate(PANELS):
            ax = axes[p][c]
            bars(ax, sub, traces, col, None if log else axis_top(rows, col), skip)
            if c == 0:
                ax.set_ylabel(ylabel, fontsize=8)
            if p == 0:
                ax.set_title("%s of %d nodes" % (fed, 16 // int(fed.split()[0])), fontsize=9)
    handles = common.colour_patches(PROTOCOLS)
    fig.legend(handles=handles, loc="lower center", ncol=len(PROTOCOLS), fontsize=7.5, bbox_to_anchor=(0.5, 0.025))
    fig.suptitle("Protocols on the MPI traces (16 ranks, about 1 h failure-free, federation MTBF 20 min, checkpoint "
                 "every 5 min, 50 MB per process)", fontsize=9)
    common.save(fig, "mpi_compare", [PATH], "mean of %d seeds (the same failures for every protocol), 95 %% CI; "
                "hatched: clipped, value written" % seeds, bottom=0.06)


if __name__ == "__main__":
    main()
