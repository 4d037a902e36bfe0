"""The HC3I report's figures 5-8, its garbage-collection tables and its message table (section 5),
from the sweeps workloads/experiments/hc3i-*.sweep.json: mean over the seeds with 95 % confidence
intervals, the report's numbers drawn beside ours where its text gives them.

    /usr/bin/python3 plots/hc3i.py
"""
import os

import common

HERE = os.path.join(common.RESULTS, "hc3i")
FORCED, UNFORCED = "stats.per_cluster.hc3i.clc_forced.%d", "stats.per_cluster.hc3i.clc_unforced.%d"
MSG = "stats.matrices.app.messages.%d.%d"
NEVER_MIN = 240  # where a timer "never" (null) is drawn on a minutes axis


def minutes(text):
    """A timer cell ('10min', '2h', 'null' / '' for never) in minutes."""
    t = text.strip().strip('"')
    if t in ("", "null", "never", "inf"):
        return NEVER_MIN
    for unit, f in (("min", 1.0), ("h", 60.0), ("s", 1 / 60.0)):
        if t.endswith(unit):
            return float(t[: -len(unit)]) * f
    return float(t) / 60.0


def clcs(r, c, what):
    # a counter never incremented is absent from the results: 0 CLCs
    f, u = common.num(r.get(FORCED % c), 0.0), common.num(r.get(UNFORCED % c), 0.0)
    return {"forced": f, "unforced": u, "total": f + u}[what]


def timer_axis(ax, xs, label):
    ticks = sorted(set(xs))
    ax.set_xscale("log")  # timers from 10 min to 2 h, evenly spread
    ax.minorticks_off()
    ax.set_xticks(ticks)
    ax.set_xticklabels(["never" if x == NEVER_MIN else "%g" % x for x in ticks], fontsize=8)
    ax.set_xlabel(label)


# Ours per cluster and kind; red (common.PAPER) stays the report's.
COLOURS = {0: {"forced": "#1f77b4", "unforced": "#ff7f0e", "total": "#2ca02c"},
           1: {"forced": "#9467bd", "unforced": "#8c564b", "total": "#17becf"}}


def clc_curves(ax, runs, key, cluster, styles=(("forced", "o-"), ("unforced", "s-"), ("total", "^-"))):
    for what, style in styles:
        pts = common.by_point(runs, key, lambda r: clcs(r, cluster, what))
        xs = sorted(pts)
        ax.errorbar(xs, [pts[x][0] for x in xs], yerr=[pts[x][1] for x in xs], fmt=style, ms=4, capsize=3,
                    color=COLOURS[cluster][what], label="ckptsim, cluster %d %s" % (cluster, what))


def fig5_6():
    table = os.path.join(HERE, "fig5_6.csv")
    runs, _ = common.sweep_runs(table)
    key = lambda r: minutes(r["c0_timer"])  # noqa: E731
    n = len(runs) // len({key(r) for r in runs})
    for fig_no, cluster in ((5, 0), (6, 1)):
        fig, ax = common.figure()
        clc_curves(ax, runs, key, cluster)
        if cluster == 0:
            ax.axhline(8, color=common.PAPER, ls="--", lw=1.2, label="report: about 8 forced CLCs whatever the timer")
        else:
            c0 = common.by_point(runs, key, lambda r: clcs(r, 0, "total"))
            xs = sorted(c0)
            ax.plot(xs, [c0[x][0] for x in xs], "--", color=common.PAPER, lw=1.2,
                    label="cluster 0's CLCs (report: c1's forced CLCs follow them; no unforced)")
        timer_axis(ax, [key(r) for r in runs], "delay between unforced CLCs in cluster 0 (min); cluster 1: never")
        ax.set_ylabel("CLCs of cluster %d in 10 h" % cluster)
        ax.set_title("HC3I figure %d: CLCs in cluster %d, 2 x 100 nodes, 10 h (%d seeds, 95 %% CI)"
                     % (fig_no, cluster, n), fontsize=9)
        ax.legend(fontsize=7)
        common.save(fig, "hc3i_fig%d" % fig_no, [table])


def fig7():
    table = os.path.join(HERE, "fig7.csv")
    runs, _ = common.sweep_runs(table)
    key = lambda r: minutes(r["c1_timer"])  # noqa: E731
    n = len(runs) // len({key(r) for r in runs})
    fig, ax = common.figure()
    clc_curves(ax, runs, key, 0)
    clc_curves(ax, runs, key, 1, styles=(("forced", "o:"), ("unforced", "s:")))
    ref = common.by_point(runs, key, lambda r: clcs(r, 0, "total"))
    ax.axhline(ref[NEVER_MIN][0], color=common.PAPER, ls="--", lw=1.2,
               label="cluster 0's CLCs with c1 never (report: no more with c1 at 15 min)")
    timer_axis(ax, [key(r) for r in runs], "delay between unforced CLCs in cluster 1 (min); cluster 0: 30 min")
    ax.set_ylabel("CLCs in 10 h")
    ax.set_title("HC3I figure 7: CLCs against cluster 1's timer (%d seeds, 95 %% CI)" % n, fontsize=9)
    ax.legend(fontsize=7)
    common.save(fig, "hc3i_fig7", [table])


def fig8():
    table = os.path.join(HERE, "fig8.csv")
    runs, _ = common.sweep_runs(table)
    key = lambda r: r["c1_to_c0"]  # noqa: E731
    sent = common.by_point(runs, key, lambda r: common.num(r[MSG % (1, 0)]))
    order = sorted(sent, key=lambda k: sent[k][0])
    fig, ax = common.figure()
    for cluster, marker in ((0, "o"), (1, "s")):
        for what, ls in (("forced", "-"), ("total", "--")):
            pts = common.by_point(runs, key, lambda r: clcs(r, cluster, what))
            ax.errorbar([sent[k][0] for k in order], [pts[k][0] for k in order], xerr=[sent[k][1] for k in order],
                        yerr=[pts[k][1] for k in order], fmt=marker + ls, ms=4, capsize=3,
                        color=COLOURS[cluster][what],
                        label="ckptsim, cluster %d %s CLCs" % (cluster, what))
    ax.plot([103], [63], "*", ms=12, color=common.PAPER, label="report: 63 CLCs per cluster for 103 messages (no GC)")
    ax.plot([11], [8], "x", ms=9, mew=2, color=common.PAPER, label="report: about 8 forced CLCs in c0 for 11")
    ax.set_xlabel("messages from cluster 1 to cluster 0 in 10 h (drawn; mean, 95 % CI)")
    ax.set_ylabel("CLCs in 10 h")
    ax.set_title("HC3I figure 8: CLCs against the messages c1 -> c0, both timers 30 min (%d seeds)"
                 % (len(runs) // len(order)), fontsize=9)
    ax.legend(fontsize=7)
    common.save(fig, "hc3i_fig8", [table])


# The report's GC tables (SPEC section 6): CLCs stored before / after the collections at 2, 4, 6, 8 h.
GC2_REPORT = {0: [(10, 2), (18, 2), (15, 2), (14, 2)], 1: [(11, 2), (18, 2), (14, 2), (15, 2)]}
GC3_REPORT = {0: [30, 48, 54, 38], 1: [50, 80, 78, 64], 2: [50, 80, 78, 64]}


def gc_series(runs):
    """Per cluster, per collection date (whole hours), the list over runs of (before, after)."""
    per = {}
    for r in runs:
        for rec in r["/stats/series/hc3i.gc"]:
            for c, (b, a) in enumerate(zip(rec["before"], rec["after"])):
                per.setdefault(c, {}).setdefault(round(rec["date"] / 3600), []).append((b, a))
    return per


def gc_figure(name, table, report_before, report_after, title):
    runs, _ = common.sweep_runs(table)
    per = gc_series(runs)
    clusters = sorted(per)
    fig, axes = common.plt.subplots(1, len(clusters), figsize=(3.3 * len(clusters), 4.0), sharey=True)
    for ax, c in zip(axes, clusters):
        ax.grid(True, axis="y", color="0.9")
        xs = sorted(per[c])  # collection dates, hours
        for part, off, colour in ((0, -0.4, common.OURS), (1, 0.4, "#7fb2d9")):
            stats = [common.mean_ci([float(p[part]) for p in per[c][x]]) for x in xs]
            ax.bar([x + off for x in xs], [s[0] for s in stats], width=0.75, yerr=[s[1] for s in stats], capsize=2,
                   color=colour, label="ckptsim %s (mean, 95 %% CI)" % ("before" if part == 0 else "after"))
        rep_x = [2 * (i + 1) for i in range(len(report_before[c]))]
        ax.plot([x - 0.4 for x in rep_x], report_before[c], "D", color=common.PAPER, ms=6, label="report, before")
        ax.plot([x + 0.4 for x in rep_x], [report_after] * len(rep_x), "_", color=common.PAPER, ms=12, mew=2.5,
                label="report, after")
        ax.set_xticks(xs)
        ax.set_xlabel("collection at (h)")
        ax.set_title("cluster %d" % c, fontsize=9)
    axes[0].set_ylabel("CLCs stored")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=7, bbox_to_anchor=(0.5, 0.04))
    fig.suptitle(title + " (%d seeds)" % len(runs), fontsize=9)
    common.save(fig, name, [table], bottom=0.14)


def gc_tables():
    gc_figure("hc3i_gc_two_clusters", os.path.join(HERE, "gc2.csv"),
              {c: [b for b, _ in GC2_REPORT[c]] for c in GC2_REPORT}, 2,
              "HC3I GC every 2 h, 2 clusters, 103 messages c1 -> c0: CLCs stored before / after each collection")
    gc_figure("hc3i_gc_three_clusters", os.path.join(HERE, "gc3.csv"), GC3_REPORT, 2,
              "HC3I GC every 2 h, 3 clusters (c2 a clone of c1): CLCs stored before / after each collection")


REPORT_MESSAGES = {(0, 0): 2920, (1, 1): 2497, (0, 1): 145, (1, 0): 11}


def messages():
    table = os.path.join(HERE, "fig5_6.csv")
    runs, _ = common.sweep_runs(table)
    runs = [r for r in runs if minutes(r["c0_timer"]) == 30]
    fig, ax = common.figure(5.2, 3.8)
    pairs = list(REPORT_MESSAGES)
    stats = [common.mean_ci([common.num(r[MSG % p]) for r in runs]) for p in pairs]
    xs = range(len(pairs))
    ax.bar([x - 0.2 for x in xs], [REPORT_MESSAGES[p] for p in pairs], width=0.4, color=common.PAPER, label="report")
    ax.bar([x + 0.2 for x in xs], [s[0] for s in stats], width=0.4, yerr=[s[1] for s in stats], capsize=3,
           color=common.OURS, label="ckptsim (mean of %d seeds, 95 %% CI)" % len(runs))
    for x, p, s in zip(xs, pairs, stats):
        ax.text(x, max(REPORT_MESSAGES[p], s[0]) * 1.15, "%d / %.1f" % (REPORT_MESSAGES[p], s[0]), ha="center",
                fontsize=7)
    ax.set_yscale("log")
    ax.set_xticks(list(xs))
    ax.set_xticklabels(["c%d -> c%d" % p for p in pairs])
    ax.set_ylabel("application messages in 10 h")
    ax.set_title("HC3I message table (section 5.2), 2 x 100 nodes, 10 h", fontsize=9)
    ax.legend(fontsize=7, loc="lower left")
    common.save(fig, "hc3i_messages", [table])


def main():
    fig5_6()
    fig7()
    fig8()
    gc_tables()
    messages()


if __name__ == "__main__":
    main()
