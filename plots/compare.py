#!/usr/bin/python3
"""Draws the table `ckptsim compare --csv FILE` writes as bar charts: one panel per statistic
(makespan, lost work, protocol messages, protocol messages across the WAN, checkpoint storage
held, processes rolled back per failure), one bar per protocol.

    /usr/bin/python3 plots/compare.py COMPARE.csv -o OUT.png        (or .svg, .pdf)

The table's columns are those of `ckptsim compare`'s header (`protocol`, `makespan (s)`, ...). A
column `C ci95` beside a column `C` (a mean over several seeds) is drawn as an error bar, its 95 %
confidence interval. A cell that is not a number (`stopped at the end date`, `failed (exit 3)`,
`-`) draws no bar: its text is written in its place. Exit status 2 when the table misses a column
(they are named) or the file cannot be read.
"""
import os

import figure_cli
from figure_cli import BadInput, plt

# (column of `ckptsim compare`, panel title, unit of the y axis), in the panels' order.
PANELS = [
    ("makespan (s)", "makespan", "s"),
    ("lost work (s)", "lost work", "s, summed over the processes"),
    ("ctrl msgs", "protocol messages", "messages"),
    ("ctrl WAN", "protocol messages across the WAN", "messages"),
    ("held max MB", "checkpoint storage held (most at once)", "MB"),
    ("rolled back/f", "processes rolled back per failure", "processes (mean)"),
]
CI = " ci95"  # suffix of a confidence-interval column
COLOURS = plt.get_cmap("tab10").colors


def panel(ax, rows, column, title, unit):
    """One statistic: a bar per protocol, its value above it, or its text where a number is missing."""
    values = [figure_cli.number(r[column]) for r in rows]
    cis = [figure_cli.number(r.get(column + CI)) for r in rows]
    top = max([v + (c or 0.0) for v, c in zip(values, cis) if v is not None] + [0.0])
    ax.set_ylim(0, top * 1.18 if top > 0 else 1.0)  # room for the values over the bars
    for i, (r, v, c) in enumerate(zip(rows, values, cis)):
        colour = COLOURS[i % len(COLOURS)]
        if v is None:
            # No number: the row's own words (a run stopped at its end date, a failed run).
            text = failure(r) or r[column] or "no value"
            ax.text(i, 0.02, text, rotation=90, ha="center", va="bottom", fontsize=7, color="0.35",
                    transform=ax.get_xaxis_transform())
            continue
        ax.bar(i, v, color=colour, width=0.7, yerr=c, capsize=4 if c else 0, ecolor="0.2")
        # The cells' own text: the precision `ckptsim compare` chose for each column.
        text = r[column] + ("\n± " + r[column + CI] if c else "")
        ax.annotate(text, (i, v + (c or 0.0)), xytext=(0, 2), textcoords="offset points", ha="center",
                    va="bottom", fontsize=7)
    ax.set_xlim(-0.6, len(rows) - 0.4)  # also when no bar sets it
    ax.set_xticks(range(len(rows)))
    # NAME:KEY=VALUE labels on two lines: the protocol, then its parameters.
    ax.set_xticklabels([r["protocol"].replace(":", "\n") for r in rows], fontsize=7)
    ax.set_title(title, fontsize=9)
    ax.set_ylabel(unit, fontsize=8)
    ax.tick_params(axis="y", labelsize=7)
    ax.grid(True, axis="y", color="0.9")
    ax.set_axisbelow(True)
    if all(v is None for v in values):  # no scale to read
        ax.set_yticks([])


def failure(row):
    """A failed run's row is short: the protocol, then what happened ("failed (exit 3)"), whatever
    the second column's name; None for a full row."""
    if None not in row.values():
        return None
    cells = list(row.values())
    return cells[1] if len(cells) > 1 and cells[1] else "failed"


def subtitle(rows, columns):
    """The failures each run met (and deferred), and any consistency violation."""
    parts = []
    if "failures/def" in columns:
        known = [r for r in rows if not failure(r)]
        seen = {r["failures/def"] for r in known}
        if len(seen) == 1:
            parts.append("failures struck/deferred: %s in every run" % seen.pop())
        elif seen:
            parts.append("failures struck/deferred: " + ", ".join("%s %s" % (r["protocol"], r["failures/def"])
                                                                  for r in known))
    if "violations" in columns:
        bad = [r["protocol"] for r in rows if not failure(r) and (figure_cli.number(r["violations"]) or 0) > 0]
        if bad:
            parts.append("CONSISTENCY VIOLATIONS: " + ", ".join(bad))
    if "runs" in columns:
        parts.append("means over %s runs each" % "/".join(sorted({r["runs"] for r in rows if not failure(r)})))
    return "\n".join(parts)


def main(argv=None):
    args = figure_cli.table_args(__doc__, "the CSV of `ckptsim compare --csv FILE`", argv)
    figure_cli.output_format(args.output)
    rows, columns, _ = figure_cli.read_csv(args.table)
    missing = [c for c in ["protocol"] + [p[0] for p in PANELS] if c not in columns]
    if missing:
        raise BadInput("%s: not a `ckptsim compare --csv` table: missing column%s %s (it has: %s)" % (
            args.table, "s" if len(missing) > 1 else "", ", ".join(missing), ", ".join(columns)))
    if not rows:
        raise BadInput("%s: no protocol row" % args.table)
    head = args.title or "ckptsim compare: " + os.path.basename(args.table)
    sub = subtitle(rows, columns)
    # Three panels a row, each wider with more protocols, so the values over the bars fit.
    width = 3 * max(3.0, 0.8 * len(rows) + 0.8)
    fig, axes = plt.subplots(2, 3, figsize=(width, 6.4 + 0.2 * sub.count("\n")))
    for ax, (column, title, unit) in zip(axes.flat, PANELS):
        panel(ax, rows, column, title, unit)
    fig.suptitle(head + ("\n" + sub if sub else ""), fontsize=10)
    has_ci = any(c + CI in columns for c, _, _ in PANELS)
    figure_cli.save(fig, args.output, [args.source or args.table],
                    "bars: 95 % confidence interval of the mean" if has_ci else "")


if __name__ == "__main__":
    figure_cli.run(main)
