#!/usr/bin/python3
"""Draws the sweep of `ckptsim advise --verify N --plot OUT`: the mean makespan against the
checkpoint period, one line per protocol and deepest-level `every`, with its 95 % confidence
interval; the suggested plan is ringed, each line's simulated optimum starred.

    /usr/bin/python3 plots/advise.py ADVISE.csv -o OUT.png        (or .svg, .pdf)

The table's columns: protocol, period, every (0: not varied), runs, mean, half_width,
incomplete, suggested (1 for the suggested point). A point none of whose runs completed draws
nothing. Exit status 2 when the table misses a column (they are named) or cannot be read.
"""

import figure_cli
from figure_cli import BadInput, plt

COLUMNS = ["protocol", "period", "every", "runs", "mean", "half_width", "incomplete", "suggested"]


def main(argv=None):
    args = figure_cli.table_args(__doc__, "the sweep table ckptsim advise writes", argv)
    figure_cli.output_format(args.output)
    rows, columns, _ = figure_cli.read_csv(args.table)
    missing = [c for c in COLUMNS if c not in columns]
    if missing:
        raise BadInput("%s: not an advise sweep table: missing column%s %s" % (
            args.table, "s" if len(missing) > 1 else "", ", ".join(missing)))
    lines = {}
    for r in rows:
        lines.setdefault((r["protocol"], int(float(r["every"]))), []).append(r)
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    for (protocol, every), points in sorted(lines.items()):
        done = [p for p in points if int(float(p["runs"])) > 0]
        if not done:
            continue
        done.sort(key=lambda p: float(p["period"]))
        x = [float(p["period"]) for p in done]
        y = [float(p["mean"]) for p in done]
        err = [float(p["half_width"]) for p in done]
        label = protocol + ("" if every == 0 else ", every %d" % every)
        line = ax.errorbar(x, y, yerr=err, marker="o", markersize=4, capsize=3, label=label)
        colour = line[0].get_color()
        complete = [p for p in done if int(float(p["incomplete"])) == 0] or done
        best = min(complete, key=lambda p: float(p["mean"]))
        ax.plot([float(best["period"])], [float(best["mean"])], marker="*", markersize=14, color=colour,
                linestyle="none")
        for p in done:
            if int(float(p["suggested"])) == 1:
                ax.plot([float(p["period"])], [float(p["mean"])], marker="o", markersize=13, markerfacecolor="none",
                        markeredgecolor="black", linestyle="none")
    ax.set_xscale("log")
    ax.set_xlabel("checkpoint period (s)")
    ax.set_ylabel("mean makespan (s)")
    ax.grid(True, color="0.9")
    ax.legend(fontsize=7)
    ax.set_title((args.title or "ckptsim advise --verify") +
                 "\nringed: the suggested plan; starred: each line's simulated optimum", fontsize=9)
    figure_cli.save(fig, args.output, [args.source or args.table], "bars: 95 % confidence interval of the mean")


if __name__ == "__main__":
    figure_cli.run(main)
