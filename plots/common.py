"""What every figure script shares: reading the result tables (CSV with '#' header lines), the
paths, and saving a figure as PNG and PDF with a footer naming the table it was drawn from.

Run the scripts with /usr/bin/python3 (Debian's python3-matplotlib)."""
import csv
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")  # no display: files only
import matplotlib.patches  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "workloads", "experiments"))
import results_file  # noqa: E402  (the commit line every results file carries)
RESULTS = os.path.join(ROOT, "results")
FIGURES = os.path.join(RESULTS, "figures")

# Colours of ours and of the paper, the same on every figure.
OURS = "#1f77b4"
PAPER = "#d62728"


# The protocols the experiments over federations compare (workloads/failures, workloads/network), as
# their tables name them, with their legend label and colour (as plots/mpi.py's).
def protocols(none_label):
    """(name, legend label, colour) of each protocol; NONE_LABEL: protocol none's legend label."""
    return [("none", none_label, "0.7"),
            ("coordinated", "coordinated", "#1f77b4"),
            ("hc3i", "hc3i (buddy)", "#2ca02c"),
            ("independent:unit=cluster", "independent, unit=cluster", "#ff7f0e"),
            ("msglog:variant=pessimistic", "msglog, pessimistic", "#9467bd")]


class MissingResults(Exception):
    """A table a figure needs does not exist: its experiment has not been run."""


def rel(path):
    return os.path.relpath(path, ROOT)


def read_table(path):
    """Rows of a result table as dicts of strings, and its '#' header lines (without '# ')."""
    if not os.path.exists(path):
        raise MissingResults(rel(path))
    comments, body = [], []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                comments.append(line[1:].strip())
            elif line.strip():
                body.append(line)
    return list(csv.DictReader(body)), comments


def distinct(rows, name):
    """The values of column NAME, in the order they first appear."""
    values = []
    for r in rows:
        if r[name] not in values:
            values.append(r[name])
    return values


def federations_table(path):
    """A table of the experiments over federations (workloads/failures, workloads/network): its rows,
    its federations in the order they come, and the runs of its first row (the seeds per point)."""
    rows, _ = read_table(path)
    return rows, distinct(rows, "federation"), int(num(rows[0]["runs"]))


def num(text, default=math.nan):
    """A table cell as a float ('' and non-numbers: default)."""
    try:
        return float(text)
    except (TypeError, ValueError):
        return default


def column(rows, name):
    return [num(r.get(name)) for r in rows]


def ci(rows, name):
    """mean and 95 % half-width columns of a sweep's points table (0 when there is one run)."""
    return column(rows, name + ".mean"), [0.0 if math.isnan(v) else v for v in column(rows, name + ".ci95")]


def sweep_runs(path):
    """Rows of a sweep's per-run table that succeeded; JSON-pointer columns decoded."""
    rows, comments = read_table(path)
    out = []
    for r in rows:
        if r.get("status") != "ok":
            continue
        for k, v in list(r.items()):
            if k.startswith("/") and v:
                r[k] = json.loads(v)
        out.append(r)
    return out, comments


def git_describe():
    """The commit, and how many simulator source or experiment input files the working tree changes from it."""
    return results_file.git_line(ROOT, "workloads")


def colour_patches(items, prefix=""):
    """Legend handles: a patch of each (key, label, colour) item's colour, named prefix + label."""
    return [matplotlib.patches.Patch(color=colour, label=prefix + label) for _, label, colour in items]


def save(fig, name, sources, note="", bottom=0.03):
    """Writes results/figures/NAME.png and .pdf; the footer names the tables drawn."""
    os.makedirs(FIGURES, exist_ok=True)
    footer = "data: " + ", ".join(rel(s) for s in sources) + ("   " + note if note else "")
    fig.text(0.01, 0.005, footer, fontsize=6, color="0.4", ha="left", va="bottom")
    fig.tight_layout(rect=(0, bottom, 1, 1))  # bottom: room for the footer (and a figure legend)
    paths = []
    for ext in ("png", "pdf"):
        p = os.path.join(FIGURES, name + "." + ext)
        # PDF metadata without the creation date, so a regeneration of the same data gives the same bytes
        fig.savefig(p, dpi=130, metadata={"CreationDate": None} if ext == "pdf" else None)
        paths.append(p)
    plt.close(fig)
    return paths


def figure(width=6.4, height=4.2):
    fig, ax = plt.subplots(figsize=(width, height))
    ax.grid(True, color="0.9")
    return fig, ax


# Two-sided 95 % quantiles of Student's t, df 1..30; beyond, interpolation in 1/df towards the
# normal 1.960: the same as the sweep's points tables (sim/cli/sweep/aggregate.cpp).
_T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t95(df):
    return _T95[df - 1] if df <= 30 else 1.960 + (2.042 - 1.960) * 30.0 / df


def mean_ci(values):
    """(mean, 95 % half-width, n) of a sample; half-width 0 for one value."""
    v = [x for x in values if not math.isnan(x)]
    n = len(v)
    if n == 0:
        return math.nan, 0.0, 0
    m = sum(v) / n
    if n == 1:
        return m, 0.0, 1
    sd = math.sqrt(sum((x - m) ** 2 for x in v) / (n - 1))
    return m, t95(n - 1) * sd / math.sqrt(n), n


def by_point(runs, key, value):
    """Groups per-run rows by key(row) (order of first appearance) and gives, per group,
    mean_ci(value(row) for its rows)."""
    groups = {}
    for r in runs:
        groups.setdefault(key(r), []).append(value(r))
    return {k: mean_ci(v) for k, v in groups.items()}


def finish(fig, ax, name, sources, xlabel, ylabel, title, note="", legend_loc="best"):
    """Labels, title and legend of a one-axes figure, then save()."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7, loc=legend_loc)
    return save(fig, name, sources, note)
