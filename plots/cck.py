"""The CCK thesis' figures 5.2-5.6 (chapter 5) from workloads/cck/experiments.py's tables
(results/cck/). Every run there is deterministic (failures from traces, no random draw), so a
point is one run: the error bars of figure 5.4 are the spread of the waves within the run (min -
max), not a confidence interval. The thesis gives no data, only sentences: they are drawn as lines
and marks where they name a value.

    /usr/bin/python3 plots/cck.py
"""
import os

import common

HERE = os.path.join(common.RESULTS, "cck")


def table(name):
    path = os.path.join(HERE, name + ".csv")
    rows, _ = common.read_table(path)
    return rows, path


def fig5_2():
    rows, path = table("fig5_2")
    fig, ax = common.figure()
    labels = {"cck": "cck, 15 MB/s server links", "coordinated": "coordinated, 15 MB/s",
              "cck_3MBps": "cck, 3 MB/s server links"}
    for variant, style in (("cck", "o-"), ("coordinated", "s--"), ("cck_3MBps", "^-")):
        pts = sorted((common.num(r["frequency_hz"]), common.num(r["overhead_pct"])) for r in rows
                     if r["variant"] == variant)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], style, ms=4, label="ckptsim " + labels[variant])
    ax.axvline(0.1, color=common.PAPER, ls="--", lw=1.2, label="thesis: strongly degraded above 0.1 Hz")
    ax.axhline(10, color="0.5", ls=":", lw=1, label="10 % overhead (our reading of 'degraded')")
    common.finish(fig, ax, "cck_fig5_2", [path], "checkpoint frequency (Hz)",
                  "run time over the run without checkpoint (%)",
                  "CCK figure 5.2: run time against the checkpoint frequency\n"
                  "Jacobi 2D 64 x 32 on 32 processes, 10 servers")


def fig5_3():
    rows, path = table("fig5_3")
    fig, ax = common.figure()
    pts = sorted((common.num(r["servers"]), common.num(r["makespan_s"]), common.num(r["overhead_pct"])) for r in rows)
    ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", ms=4, color=common.OURS, label="ckptsim cck, period 5 s")
    ref = pts[0][1] / (1 + pts[0][2] / 100)
    ax.axhline(ref, color="0.5", ls=":", lw=1, label="without checkpoint (%.1f s)" % ref)
    ax.axhline(ref * 1.1, color="0.7", ls=":", lw=1, label="+10 %")
    ax.axvline(4, color=common.PAPER, ls="--", lw=1.2, label="thesis: clearly degraded below 4 servers")
    common.finish(fig, ax, "cck_fig5_3", [path], "checkpoint servers", "run time (s)",
                  "CCK figure 5.3: run time against the number of checkpoint servers\n"
                  "32 processes, a wave every 5 s, 15 MB/s server links")


def fig5_4():
    rows, path = table("fig5_4")
    rows.sort(key=lambda r: common.num(r["nodes"]))
    n = common.column(rows, "nodes")
    mean, lo, hi = (common.column(rows, c) for c in ("mean_wave_ms", "min_wave_ms", "max_wave_ms"))
    fig, ax = common.figure()
    ax.errorbar(n, mean, yerr=[[m - a for m, a in zip(mean, lo)], [b - m for m, b in zip(mean, hi)]], fmt="o-",
                ms=4, capsize=3, color=common.OURS, label="ckptsim cck, one server per 4 nodes (mean; bars: min - max wave)")
    ax.plot(n, common.column(rows, "mean_wave_ms_1server_per_node"), "s--", ms=4, label="ckptsim cck, one server per node")
    ax.plot([300], [230], "*", ms=13, color=common.PAPER, label="thesis: about 230 ms for 300 processes")
    ax.set_xscale("log")
    ax.set_xticks(n)
    ax.set_xticklabels(["%d" % x for x in n])
    common.finish(fig, ax, "cck_fig5_4", [path], "nodes (one process each), same 64 x 32 domain",
                  "duration of a wave (ms)", "CCK figure 5.4: coordination time against the number of nodes")


def reexecuted_panel(ax, rows, title):
    rows = sorted(rows, key=lambda r: common.num(r["failure_date_s"]))
    d = common.column(rows, "failure_date_s")
    ax.step(d, common.column(rows, "neighbour_reexecuted"), where="post", color=common.OURS,
            label="cck: re-executed by a neighbour")
    ax.step(d, common.column(rows, "neighbour_global"), where="post", color="0.5", ls="--",
            label="global restart: tasks to redo there")
    ax.set_title(title, fontsize=8)
    ax.set_xlabel("failure date (s)")
    ax.grid(True, color="0.9")


def fig5_5():
    rows, path = table("fig5_5")
    shapes = []
    for r in rows:
        if r["shape"] not in shapes:
            shapes.append(r["shape"])
    fig, axes = common.plt.subplots(1, len(shapes), figsize=(3.4 * len(shapes), 3.6), sharey=False)
    for ax, s in zip(axes, shapes):
        reexecuted_panel(ax, [r for r in rows if r["shape"] == s], "%s (width x iterations)" % s)
    axes[0].set_ylabel("compute tasks re-executed on a\ndirect neighbour of the failed process")
    axes[0].legend(fontsize=6)
    fig.suptitle("CCK figure 5.5: tasks re-executed on a neighbour against the failure date, 1D graphs on 5 "
                 "processes, a wave every 2 s", fontsize=9)
    common.save(fig, "cck_fig5_5", [path], "thesis: no data (shapes not given); curves below the global restart")


def fig5_6():
    rows, path = table("fig5_6")
    periods = sorted({r["period_s"] for r in rows}, key=common.num)
    fig, axes = common.plt.subplots(1, len(periods), figsize=(4.6 * len(periods), 3.6), sharey=True)
    for ax, p in zip(axes, periods):
        sub = [r for r in rows if r["period_s"] == p]
        for sched, colour in (("in-order", common.OURS), ("reorder", "#2ca02c")):
            pts = sorted((common.num(r["failure_date_s"]), common.num(r["neighbour_reexecuted"]),
                          common.num(r["neighbour_reexecuted_reuse"])) for r in sub if r["schedule"] == sched)
            ax.step([x[0] for x in pts], [x[1] for x in pts], where="post", color=colour,
                    label="%s, no reuse" % sched)
            ax.step([x[0] for x in pts], [x[2] for x in pts], where="post", color=colour, ls=":",
                    label="%s, reuse of computed data" % sched)
        ax.set_title("a wave every %s s" % p, fontsize=8)
        ax.set_xlabel("failure date (s)")
        ax.grid(True, color="0.9")
    axes[0].set_ylabel("compute tasks re-executed\non a direct neighbour")
    axes[0].legend(fontsize=6)
    fig.suptitle("CCK figure 5.6: re-executed tasks with and without local reordering, Jacobi 1D 50 x 10 on 5 "
                 "processes", fontsize=9)
    common.save(fig, "cck_fig5_6", [path], "thesis: no data; reordering expected to re-execute fewer tasks")


def main():
    fig5_2()
    fig5_3()
    fig5_4()
    fig5_5()
    fig5_6()


if __name__ == "__main__":
    main()
