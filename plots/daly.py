"""Coordinated checkpointing against the Young / Daly models: the simulated mean makespan (95 %
confidence interval over the seeds) against the checkpoint period, with Daly's expected makespan
drawn over it and Young's and Daly's optimal periods marked.

    /usr/bin/python3 plots/daly.py        (after: ckptsim sweep workloads/experiments/daly.sweep.json)
"""
import math
import os

import common

TABLE = os.path.join(common.RESULTS, "daly", "daly.points.csv")
# The model's parameters, as in workloads/experiments/daly/ (topology.json, application.json).
TS, DELTA, R, M = 10000.0, 50.0, 60.0, 2000.0


def S(x):
    """Expected time to get x seconds done without a failure, restarts included (Daly 2006)."""
    return M * math.exp(R / M) * (math.exp(x / M) - 1)


def exact(tau):
    """This run's expected makespan: segments of tau each followed by a checkpoint, the last
    (shorter) segment without one."""
    n = math.ceil(TS / tau - 1e-9)
    return (n - 1) * S(tau + DELTA) + S(TS - (n - 1) * tau)


def daly(tau):
    """Daly's formula as published: Ts / tau segments, each with a checkpoint."""
    return S(tau + DELTA) * TS / tau


def main():
    rows, _ = common.read_table(TABLE)
    rows.sort(key=lambda r: common.num(r["period_s"]))
    taus = common.column(rows, "period_s")
    mean, ci = common.ci(rows, "results.makespan")
    runs = int(common.num(rows[0]["runs"]))
    fig, ax = common.figure()
    grid = [100 * 1.02 ** i for i in range(int(math.log(3200 / 100) / math.log(1.02)) + 1)]
    ax.plot(grid, [daly(t) for t in grid], "--", color="0.5", lw=1, label="Daly (2006): $M e^{R/M}(e^{(\\tau+\\delta)/M}-1)\\,T_s/\\tau$")
    ax.plot(grid, [exact(t) for t in grid], "-", color=common.PAPER, lw=1.2,
            label="the same model, no checkpoint after the last segment")
    ax.errorbar(taus, mean, yerr=ci, fmt="o", ms=4, color=common.OURS, capsize=3,
                label="ckptsim coordinated, mean of %d seeds (95 %% CI)" % runs)
    young = math.sqrt(2 * DELTA * M)
    dopt = math.sqrt(2 * DELTA * M) * (1 + math.sqrt(DELTA / (2 * M)) / 3 + DELTA / (2 * M) / 9) - DELTA
    ax.axvline(young, color="0.3", ls=":", lw=1)
    ax.axvline(dopt, color="0.6", ls=":", lw=1)
    at = ax.get_xaxis_transform()  # x in data, y in axes fraction
    ax.text(young, 0.45, " Young $\\sqrt{2\\delta M}$ = %.0f s" % young, fontsize=7, transform=at)
    ax.text(dopt, 0.38, "Daly's optimum = %.0f s " % dopt, fontsize=7, ha="right", transform=at)
    ax.set_xscale("log")
    ax.set_xlabel("checkpoint period $\\tau$ (s)")
    ax.set_ylabel("makespan (s)")
    ax.set_title("Coordinated checkpointing vs Young/Daly: $T_s$ = %g s, $\\delta$ = %g s, R = %g s, M = %g s"
                 % (TS, DELTA, R, M), fontsize=9)
    ax.legend(fontsize=7, loc="upper left")
    common.save(fig, "daly_makespan", [TABLE])
    # A reader's check, printed: how many points fall within their CI of the model.
    inside = sum(abs(m - exact(t)) <= c for t, m, c in zip(taus, mean, ci))
    print("daly: %d of %d periods have the model inside their 95 %% CI" % (inside, len(taus)))


if __name__ == "__main__":
    main()
