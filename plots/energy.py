"""Time against energy (issue 35, item 7; Aupy, Benoit, Herault, Robert, Dongarra 2013): the mean
makespan and the mean energy (95 % confidence intervals over the seeds) against the checkpoint
period, side by side, for coordinated and hc3i, each panel's optimum marked; prints the two optima
of each protocol and whether they differ (their intervals apart).

    /usr/bin/python3 plots/energy.py      (after: ckptsim sweep workloads/energy/energy.sweep.json)
"""
import os

import common

TABLE = os.path.join(common.RESULTS, "energy", "energy.points.csv")
COLOURS = {"coordinated": "#1f77b4", "hc3i": "#d62728"}


def optimum(taus, mean, ci):
    """The period of the smallest mean, and the periods whose interval reaches it (not told apart)."""
    best = min(range(len(mean)), key=lambda i: mean[i])
    tied = [taus[i] for i in range(len(mean)) if mean[i] - ci[i] <= mean[best] + ci[best]]
    return taus[best], tied


def main():
    rows, _ = common.read_table(TABLE)
    fig, (ax_t, ax_e) = common.plt.subplots(1, 2, figsize=(11, 4.2))
    report, short = [], []
    for protocol in sorted({r["protocol"] for r in rows}):
        mine = sorted((r for r in rows if r["protocol"] == protocol), key=lambda r: common.num(r["period_s"]))
        taus = common.column(mine, "period_s")
        runs = int(common.num(mine[0]["runs"]))
        optima = []
        for ax, stat, scale in ((ax_t, "results.makespan", 3600.0), (ax_e, "results.energy.total_j", 1e6)):
            mean, ci = common.ci(mine, stat)
            mean, ci = [m / scale for m in mean], [c / scale for c in ci]
            colour = COLOURS.get(protocol, "0.3")
            ax.errorbar(taus, mean, yerr=ci, fmt="o-", ms=4, lw=1, capsize=3, color=colour,
                        label="%s, mean of %d seeds (95 %% CI)" % (protocol, runs))
            best, tied = optimum(taus, mean, ci)
            ax.axvline(best, color=colour, ls=":", lw=1)
            optima.append((best, tied))
        (t_best, t_tied), (e_best, e_tied) = optima
        differ = not set(t_tied) & set(e_tied)
        short.append("%s %g s / %g s (%s)" % (protocol, t_best, e_best, "differ" if differ else "within the intervals"))
        report.append("%s: the makespan's optimum %g s (not told apart: %s), the energy's %g s (%s): %s" %
                      (protocol, t_best, ", ".join("%g" % t for t in t_tied), e_best,
                       ", ".join("%g" % t for t in e_tied),
                       "they differ" if differ else "the same within the seeds' intervals"))
    for ax, ylabel, title in ((ax_t, "makespan (h)", "time"), (ax_e, "energy (MJ)", "energy")):
        ax.set_xscale("log")
        ax.set_xlabel("checkpoint period (s)")
        ax.set_ylabel(ylabel)
        ax.set_title("%s against the checkpoint period (dotted: the optimum)" % title, fontsize=9)
        ax.grid(True, color="0.9")
        ax.legend(fontsize=7)
    fig.suptitle("2 x 20 nodes, 3 h of computation, failures every hour, 500 MB checkpoints; powers 200 W "
                 "computing, 150 W checkpointing, 100 W idle, 0 W down", fontsize=9)
    common.save(fig, "energy_vs_period", [TABLE], note="optima (time / energy): " + ", ".join(short))
    for line in report:
        print("energy: " + line)


if __name__ == "__main__":
    main()
