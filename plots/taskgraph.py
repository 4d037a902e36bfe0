"""Lion's task-graph partial rollback (--protocol taskgraph) against global rollback, CCK's partial
restart and no checkpoint, from workloads/taskgraph/experiments.py's tables (results/taskgraph/).
The paper has no measurements: nothing of its own to draw beside ours. The runs are
deterministic (one failure from a trace per run): a point is one run.

    /usr/bin/python3 plots/taskgraph.py
"""
import os

import common

HERE = os.path.join(common.RESULTS, "taskgraph")
STYLES = {"taskgraph": ("o-", common.OURS), "coordinated": ("s--", "#ff7f0e"), "cck": ("^-", "#2ca02c"),
          "none": ("x:", "0.5")}


def failure_date():
    path = os.path.join(HERE, "failure_date.csv")
    rows, _ = common.read_table(path)
    fig, axes = common.plt.subplots(1, 2, figsize=(10, 3.8))
    for ax, col, label in ((axes[0], "lost_work_s", "work undone by the rollback, all processes (s)"),
                           (axes[1], "makespan_s", "makespan (s)")):
        for proto, (style, colour) in STYLES.items():
            pts = sorted((common.num(r["failure_pct"]), common.num(r[col])) for r in rows
                         if r["protocol"] == proto and r["failure_date_s"])
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, color=colour, ms=4, label=proto)
        ax.set_xlabel("failure date (% of the 10 s failure-free run)")
        ax.set_ylabel(label)
        ax.grid(True, color="0.9")
    axes[0].legend(fontsize=7)
    fig.suptitle("Task-graph partial rollback: one failure of the middle process of 5, Jacobi 1D, "
                 "checkpoints every 2 s", fontsize=9)
    common.save(fig, "taskgraph_failure_date", [path], "the paper has no measurements")


def interval():
    path = os.path.join(HERE, "interval.csv")
    rows, _ = common.read_table(path)
    fig, ax = common.figure()
    free = sorted((common.num(r["period_s"]), common.num(r["log_entries_max"])) for r in rows
                  if not r["failure_date_s"])
    hit = sorted((common.num(r["period_s"]), common.num(r["lost_work_s"]), common.num(r["replayed"])) for r in rows
                 if r["failure_date_s"])
    ax.plot([p[0] for p in free], [p[1] for p in free], "o-", color=common.OURS,
            label="most messages held in the senders' logs (no failure)")
    ax.plot([p[0] for p in hit], [p[2] for p in hit], "s--", color="#ff7f0e",
            label="messages replayed after a failure at 5.07 s")
    ax2 = ax.twinx()
    ax2.plot([p[0] for p in hit], [p[1] for p in hit], "^:", color="#2ca02c", label="work lost (s, right axis)")
    ax2.set_ylabel("work lost by the failure (s)")
    ax.set_xscale("log")
    ax.set_xlabel("time between two checkpoints of a process (s)")
    ax.set_ylabel("messages")
    lines = ax.get_legend_handles_labels()
    lines2 = ax2.get_legend_handles_labels()
    ax.legend(lines[0] + lines2[0], lines[1] + lines2[1], fontsize=7, loc="upper left")
    ax.set_title("taskgraph: checkpoint interval against log size, replay and lost work", fontsize=9)
    common.save(fig, "taskgraph_interval", [path])


def main():
    failure_date()
    interval()


if __name__ == "__main__":
    main()
