"""The protocols under WAN partitions of growing frequency and length (issue 32, item 5), from
workloads/network/experiments.py's table (results/network/partitions.csv): per partition regime (WAN
link MTBF x downtime) and protocol, without node failures, the makespan increase over the same
protocol's run without link failure, that increase per second during which some clusters were cut
off from others (1: the federation stood still for the whole partition; 0: it worked through it),
the messages a down route delayed, and the change in protocol messages; the stall ratio with the
federation's usual node failures as a marker beside each bar; one row of panels per federation (4 x 4
nodes running the jacobi2d MPI trace, the default 2 x 100). Means over the seeds, 95 % confidence
intervals.

    /usr/bin/python3 plots/network_partitions.py      # results/figures/network_partitions.png, .pdf
"""
import math
import os

import matplotlib.lines

import common

PATH = os.path.join(common.RESULTS, "network", "partitions.csv")

# Protocols as the table names them, their legend label and colour (as plots/failures_regimes.py).
PROTOCOLS = common.protocols("none (no checkpoint)")
# Partition regimes (wan_mtbf, downtime, label), from the rarest and shortest outages to the most
# frequent and longest.
POINTS = [("4h", "1min", "4 h\n1 min"), ("1h", "1min", "1 h\n1 min"), ("15min", "1min", "15 min\n1 min"),
          ("4h", "10min", "4 h\n10 min"), ("1h", "10min", "1 h\n10 min"), ("15min", "10min", "15 min\n10 min")]
WIDTH = 0.16
# The checkpoint period of coordinated's waves per federation, for the model of its stall where the
# application does not stall by itself (the stochastic application never waits for a message): a wave
# that starts while the WAN is down waits for the rest of the outage, on average half of it, so over a
# run the makespan grows by downtime / (2 x period) per second cut off (downtime << period).
WAVE_PERIOD_S = {"default (2 x 100)": 1800.0}
DOWNTIME_S = {"1min": 60.0, "10min": 600.0}
RATIO_LIMITS = (-0.5, 1.5)


def offset(i, n):
    return (i - (n - 1) / 2.0) * WIDTH


def bars(ax, cell, col, protocols, log=False, nodes="none", marker_nodes=None):
    """A group of bars per partition regime, one per protocol (means, 95 % CI); MARKER_NODES: the same
    column under that node regime drawn as a black-edged diamond at each bar of a checkpointing
    protocol (its interval is in the table)."""
    for i, (name, _, colour) in enumerate(protocols):
        for g, (mtbf, down, _) in enumerate(POINTS):
            r = cell.get((nodes, mtbf, down, name))
            x = g + offset(i, len(protocols))
            if r is None:
                continue
            y, err = common.num(r[col]), common.num(r[col + "_ci95"], 0.0)
            if math.isnan(y):
                continue
            if log:
                if y > 0:
                    ax.bar(x, y, WIDTH, yerr=[[min(err, 0.9 * y)], [err]], color=colour,
                           error_kw={"elinewidth": 0.8, "capsize": 2})
            else:
                ax.bar(x, y, WIDTH, yerr=err, color=colour, error_kw={"elinewidth": 0.8, "capsize": 2})
            if marker_nodes and name != "none":  # none restarts from scratch: its node-failure runs are noise
                m = cell.get((marker_nodes, mtbf, down, name))
                my = common.num(m[col]) if m else math.nan
                if not math.isnan(my):
                    ax.plot(x, my, "D", ms=3.4, mfc=colour, mec="black", mew=0.7, zorder=3)
    ax.set_xticks(range(len(POINTS)))
    ax.set_xticklabels([label for _, _, label in POINTS], fontsize=7)
    ax.set_xlim(-0.6, len(POINTS) - 0.4)
    if log:
        ax.set_yscale("log")
    else:
        ax.axhline(0, color="0.3", linewidth=0.6)
    ax.axvline(2.5, color="0.6", linewidth=0.6, linestyle=":")
    ax.grid(True, axis="y", color="0.9")
    ax.set_axisbelow(True)


def main():
    rows, federations, seeds = common.federations_table(PATH)
    fig, axes = common.plt.subplots(len(federations), 4, figsize=(16, 3.9 * len(federations) + 0.9), squeeze=False)
    checkpointing = PROTOCOLS[1:]  # none sends no protocol message
    for f, fed in enumerate(federations):
        cell = {(r["node_failures"], r["wan_mtbf"], r["downtime"], r["protocol"]): r
                for r in rows if r["federation"] == fed}
        ff = common.num(next(r for r in rows if r["federation"] == fed)["failure_free_makespan_s"])
        ax = axes[f][0]
        bars(ax, cell, "increase_pct", PROTOCOLS)
        ax.set_ylabel("makespan increase over the same\nprotocol without partition (%)", fontsize=8)
        ax.set_title("%s (failure-free %.0f s), no node failure" % (fed, ff), fontsize=9, loc="left")
        ax = axes[f][1]
        bars(ax, cell, "stall_ratio_any", PROTOCOLS, marker_nodes="usual")
        ax.axhline(1, color="0.3", linewidth=0.6, linestyle="--")
        ax.set_ylim(*RATIO_LIMITS)
        period = WAVE_PERIOD_S.get(fed)
        if period:
            x0 = offset(1, len(PROTOCOLS))
            for g, (_, down, _) in enumerate(POINTS):
                ax.plot([g + x0 - WIDTH, g + x0 + WIDTH], [DOWNTIME_S[down] / (2 * period)] * 2, color="black",
                        linewidth=1.4, zorder=4)
            ax.text(0.03, 0.96, "none, hc3i, independent, msglog:\nno increase (at most 0.03 s)",
                    transform=ax.transAxes, fontsize=7, va="top")
        ax.set_ylabel("makespan increase / seconds some\nclusters were cut off (stall ratio)", fontsize=8)
        ax = axes[f][2]
        bars(ax, cell, "messages_delayed", PROTOCOLS, log=True)
        ax.set_ylabel("messages a down route delayed\n(per run, log scale)", fontsize=8)
        ax = axes[f][3]
        bars(ax, cell, "control_change_pct", checkpointing)
        ax.set_ylabel("protocol messages: change over the\nsame protocol without partition (%)", fontsize=8)
    for ax in axes[-1]:
        ax.set_xlabel("WAN link MTBF, downtime", fontsize=8)
    handles = common.colour_patches(PROTOCOLS)
    handles.append(matplotlib.lines.Line2D([], [], marker="D", ms=4, mfc="white", mec="black", linestyle="none",
                                           label="stall ratio with the usual node failures"))
    handles.append(matplotlib.lines.Line2D([], [], color="black", linewidth=1.4,
                                           label="coordinated, 2 x 100: downtime / (2 x checkpoint period)"))
    fig.legend(handles=handles, loc="lower center", ncol=7, fontsize=7.5, bbox_to_anchor=(0.5, 0.025))
    fig.suptitle("WAN partitions: every WAN link fails independently (exponential gaps of mean MTBF, down for the "
                 "downtime); controller and checkpoint server stay reachable from every cluster\n(4 x 4 nodes, a WAN "
                 "link per pair of clusters: jacobi2d MPI trace, about 1 h failure-free; 2 x 100, one WAN link: the "
                 "default scenario cut to 5 h; usual node failures: MTBF 20 min and 10 h)", fontsize=9)
    common.save(fig, "network_partitions", [PATH], "means over %d seeds (the same for every protocol), 95 %% CI "
                "(clipped to the axes); bars: no node failure; stall ratio: per second during which at least one "
                "pair of clusters was cut off (cut_off_any_s)" % seeds, bottom=0.08)


if __name__ == "__main__":
    main()
