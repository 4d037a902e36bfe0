#!/usr/bin/python3
"""Draws any sweep's points table (`ckptsim sweep` writes P.points.csv, docs/SWEEP.md): a
statistic's mean against an axis, with its 95 % confidence interval, one line per value of a
column.

    /usr/bin/python3 plots/sweep.py P.points.csv --x period --y results.makespan -o makespan.png
    /usr/bin/python3 plots/sweep.py P.points.csv --x period --y results.lost_work --by protocol \\
        --where storage=buddy --logx -o lost.svg

--x and --by name a column of the table: an axis (its values: numbers, or quantities such as
"30min" drawn in their unit, else categories in the sweep's order) or a statistic (its mean, with
its interval). --y names a statistic (`results.makespan`: the columns results.makespan.mean and
.ci95) or any numeric column (`runs`, `results.makespan.sd`). A naming column that varies and is
neither --x nor --by also splits the lines (said on stderr); --where COLUMN=VALUE keeps one of its
values. Exit status 2 on an unknown column, with the table's columns listed.
"""
import argparse
import sys
import textwrap

import figure_cli
from figure_cli import BadInput, plt
from matplotlib import ticker

class Table:
    """A points table: its rows, naming columns (the axes, protocol, storage) and statistics."""

    def __init__(self, path):
        self.path = path
        self.rows, self.columns, comments = figure_cli.read_csv(path)
        if "runs" not in self.columns:
            if "seed" in self.columns:
                raise BadInput("%s: a per-run table (one row per seed): give the sweep's .points.csv" % path)
            raise BadInput("%s: not a sweep points table (no 'runs' column; docs/SWEEP.md)" % path)
        self.naming = self.columns[:self.columns.index("runs")]
        self.stats = [c[:-len(".mean")] for c in self.columns if c.endswith(".mean")]
        self.description = next((c[len("description:"):].strip() for c in comments if c.startswith("description:")),
                                "")

    def listing(self):
        return "naming columns: %s; statistics (mean and 95 %% CI): %s; other columns: %s" % (
            ", ".join(self.naming), ", ".join(self.stats),
            ", ".join(c for c in self.columns if c not in self.naming and not c.endswith(".mean")
                      and not c.endswith(".ci95")))

    def is_stat(self, name):
        return name in self.stats or (name.endswith(".mean") and name[:-len(".mean")] in self.stats)

    def check(self, option, name):
        if name in self.naming or name in self.stats or name in self.columns:
            return
        raise BadInput("%s: %s %s: no such column; %s" % (self.path, option, name, self.listing()))

    def values(self, rows, name):
        """(values, their 95 % half-widths or None, axis label) of column NAME over ROWS, as floats
        (None for a cell with no number); None when a naming column is not numeric."""
        base = name[:-len(".mean")] if name.endswith(".mean") and name[:-len(".mean")] in self.stats else name
        if base in self.naming:
            axis = figure_cli.numeric_axis([r[base] for r in rows])
            if axis is None:
                return None
            nums, unit = axis
            label = base[:-2] + " (s)" if unit is None and base.endswith("_s") else base
            return nums, None, label + (" (%s)" % unit if unit else "")
        # A statistic's standard deviation (C.sd) is drawn in C's unit.
        sd = base.endswith(".sd") and base[:-len(".sd")] in self.stats
        label, factor = figure_cli.stat_label(base[:-len(".sd")] if sd else base)
        label = "standard deviation of " + label if sd else label

        def scaled(col, default=None):
            out = []
            for r in rows:
                v = figure_cli.number(r.get(col))
                out.append(default if v is None else v * factor)
            return out

        if base in self.stats:
            # An empty half-width: the point has one run; no interval drawn.
            return scaled(base + ".mean"), scaled(base + ".ci95", 0.0), label
        return scaled(base), None, label


class Line:
    def __init__(self, label):
        self.label = label
        self.x, self.y, self.xerr, self.yerr = [], [], [], []


def split_columns(table, rows, x, by):
    """The naming columns that separate the lines: --by, and any other that varies and is not --x."""
    return ([by] if by else []) + [c for c in table.naming if c not in (x, by) and len({r[c] for r in rows}) > 1]


def lines(table, rows, x, y, by):
    """The lines to draw: [Line], the x tick labels of a categorical axis (or None), x and y labels,
    how many points were left out (no number: every run of the point failed), the columns that
    split the lines."""
    split = split_columns(table, rows, x, by)
    xs = table.values(rows, x)
    ticks = None
    if xs is None:  # categorical: positions 0, 1, ... in the sweep's order
        ticks = []
        for r in rows:
            if r[x] not in ticks:
                ticks.append(r[x])
        xs = ([float(ticks.index(r[x])) for r in rows], None, x)
    ys = table.values(rows, y)
    if ys is None:
        raise BadInput("%s: --y %s: not numeric (%s)" % (table.path, y, ", ".join(sorted({r[y] for r in rows}))))
    groups, skipped = {}, 0
    for i, r in enumerate(rows):
        if xs[0][i] is None or ys[0][i] is None:
            skipped += 1
            continue
        key = tuple(r[c] for c in split)
        if key not in groups:
            # One splitting column: the legend's title names it, a line its value.
            groups[key] = Line(r[split[0]] or "-" if len(split) == 1 else
                               ", ".join("%s = %s" % (c, r[c] or "-") for c in split))
        line = groups[key]
        line.x.append(xs[0][i])
        line.y.append(ys[0][i])
        line.xerr.append(xs[1][i] if xs[1] else 0.0)
        line.yerr.append(ys[1][i] if ys[1] else 0.0)
    out = list(groups.values())
    if by:
        # Lines in the order of the --by values: numerically when they are numbers or quantities.
        order = figure_cli.numeric_axis([k[0] for k in groups])
        if order is not None:
            out = [line for _, line in sorted(zip(order[0], out), key=lambda p: p[0])]
    for line in out:
        points = sorted(zip(line.x, line.y, line.xerr, line.yerr))
        line.x, line.y, line.xerr, line.yerr = (list(v) for v in zip(*points))
    return out, ticks, xs[2], ys[2], skipped, split


def where(table, rows, conditions):
    for cond in conditions:
        col, sep, value = cond.partition("=")
        if not sep:
            raise BadInput("--where %s: expected COLUMN=VALUE" % cond)
        table.check("--where", col)
        kept = [r for r in rows if r[col] == value]
        if not kept:
            raise BadInput("%s: --where %s: no row; the values of %s are: %s" % (
                table.path, cond, col, ", ".join(sorted({r[col] for r in rows}))))
        rows = kept
    return rows


def parse(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    p.add_argument("points", help="a sweep's P.points.csv")
    p.add_argument("--x", required=True, metavar="COLUMN",
                   help="the horizontal axis: an axis of the sweep or a statistic")
    p.add_argument("--y", required=True, metavar="STAT", help="a statistic (its mean and 95 %% CI) or a numeric column")
    p.add_argument("--by", metavar="COLUMN", help="one line per value of this column (e.g. protocol)")
    p.add_argument("--where", action="append", default=[], metavar="COLUMN=VALUE",
                   help="keep these rows only (repeatable)")
    p.add_argument("--logx", action="store_true", help="logarithmic x axis (a numeric one)")
    p.add_argument("--logy", action="store_true", help="logarithmic y axis")
    p.add_argument("--title", help="the title (default: Y against X, and the sweep's description)")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="the figure: .png, .svg or .pdf")
    return p.parse_args(argv)


def main(argv=None):
    args = parse(argv)
    figure_cli.output_format(args.output)
    table = Table(args.points)
    for option, name in (("--x", args.x), ("--y", args.y), ("--by", args.by)):
        if name:
            table.check(option, name)
    if args.by and args.by not in table.naming:
        raise BadInput("%s: --by %s: not a naming column (%s)" % (args.points, args.by, ", ".join(table.naming)))
    rows = where(table, table.rows, args.where)
    drawn, ticks, xlabel, ylabel, skipped, split = lines(table, rows, args.x, args.y, args.by)
    extra = [c for c in split if c != args.by]
    if extra:
        print("sweep.py: %s also varies: one line per value (--where %s=VALUE keeps one)" % (
            ", ".join(extra), extra[0]), file=sys.stderr)
    if args.logx and ticks is not None:
        raise BadInput("--logx: %s is not numeric (%s)" % (args.x, ", ".join(ticks)))
    if not any(line.x for line in drawn):
        raise BadInput("%s: no point to draw (every run of every point failed?)" % args.points)

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    ax.grid(True, color="0.9")
    width = 0.08 * (len(drawn) - 1)  # a categorical axis: lines side by side, so intervals do not overlap
    for i, line in enumerate(drawn):
        shift = (i * 0.08 - width / 2) if ticks is not None else 0.0
        ax.errorbar([v + shift for v in line.x], line.y, yerr=line.yerr,
                    xerr=line.xerr if any(line.xerr) else None, fmt="o" if ticks is not None else "o-",
                    ms=4, lw=1.2, capsize=3,
                    label=line.label or None)
    if ticks is not None:
        ax.set_xticks(range(len(ticks)))
        ax.set_xticklabels(ticks)
        ax.set_xlim(-0.5, len(ticks) - 0.5)
    if args.logx:
        log_axis(ax.xaxis, ax.set_xscale)
    if args.logy:
        log_axis(ax.yaxis, ax.set_yscale)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    mean = "mean " if table.is_stat(args.y) else ""
    title = args.title or "%s%s against %s" % (mean, ylabel.split(" (")[0], xlabel.split(" (")[0])
    if not args.title and table.description:
        title += "\n" + "\n".join(textwrap.wrap(table.description, 90)[:3])
    ax.set_title(title, fontsize=8)
    if any(line.label for line in drawn):
        legend_title = split[0] if len(split) == 1 else None
        ax.legend(fontsize=7, title=legend_title, title_fontsize=7)
    figure_cli.save(fig, args.output, [args.points], note(table, rows, args.y, skipped))


def log_axis(axis, set_scale):
    """A log scale whose ticks 1, 2, 5 per decade are written as plain numbers: a sweep's axis
    often spans one decade or two, where the default labels only the powers of ten."""
    set_scale("log")
    axis.set_major_locator(ticker.LogLocator(subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: "%g" % v))
    axis.set_minor_formatter(ticker.NullFormatter())


def note(table, rows, y, skipped):
    """The footer's words on the intervals: over how many runs, and the points left out."""
    runs = sorted({int(n) for n in (figure_cli.number(r["runs"]) for r in rows) if n is not None})
    text = ""
    if table.is_stat(y) and runs:
        span = str(runs[0]) if len(runs) == 1 else "%d to %d" % (runs[0], runs[-1])
        text = "bars: 95 %% confidence interval of the mean over %s runs per point" % span
        if runs[0] < 2:
            text += " (none for a point of one run)"
    if skipped:
        text += "%s%d point(s) left out: no value (every run failed)" % ("; " if text else "", skipped)
    return text


if __name__ == "__main__":
    figure_cli.run(main)
