"""What every results table an experiment script writes shares: the '#' lines saying how it was
made (the command, the git commit, one point's ckptsim line, the number of runs and the wall time),
the CSV body, and the aligned copy printed on the terminal.

Used by the experiment scripts of workloads/*/ and by plots/ (the commit line). Standard library
only. The commit alone does not say what ran when the simulator's sources (or the experiment's own
inputs) differ from it: the line then says so.
"""
import csv
import io
import math
import os
import subprocess

# The files that go into the binary.
SIMULATOR_PATHS = ("protocols", "sim", "schemas", "cmake", "CMakeLists.txt")


def _git(root, *args):
    try:
        return subprocess.run(["git", "-C", root] + list(args), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              universal_newlines=True).stdout.strip()
    except OSError:  # no git: the line says "unknown"
        return ""


def git_line(root, *inputs):
    """HEAD's commit, with the number of changed files among the simulator's sources and INPUTS
    (paths relative to ROOT, e.g. the experiment's workload folder)."""
    head = _git(root, "rev-parse", "HEAD") or "unknown"
    dirty = _git(root, "status", "--porcelain", "--untracked-files=all", "--", *(SIMULATOR_PATHS + inputs))
    n = len([l for l in dirty.splitlines() if l.strip()])
    if n:
        return "%s (the working tree differs from it in %d simulator source or input files: uncommitted work)" % (
            head, n)
    return head


def made_by(title, command, commit, example, runs, wall, jobs):
    """The first '#' lines of a table: what it is and how it was made."""
    return ["# " + title, "# command: " + command, "# git commit: " + commit, "# one point: " + example,
            "# %d ckptsim runs, %.1f s wall clock with %d workers" % (runs, wall, jobs)]


def write_csv(path, comments, header, rows, fmt):
    """Writes the '#' COMMENTS lines then HEADER and ROWS (cells through FMT) to PATH."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for row in rows:
        w.writerow([fmt(v) for v in row])
    with open(path, "w") as f:
        f.write("\n".join(comments) + "\n" + buf.getvalue())


def aligned(header, rows, fmt):
    """The table as right-aligned columns, for the terminal."""
    cells = [header] + [[fmt(v) for v in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    return "\n".join("  ".join(c.rjust(widths[i]) for i, c in enumerate(r)) for r in cells)


def publish(path, comments, header, rows, fmt, runs, wall, root):
    """write_csv, then the table's title line, its aligned copy and where it went, on stdout."""
    write_csv(path, comments, header, rows, fmt)
    print(comments[0])
    print(aligned(header, rows, fmt))
    print("-> %s (%d runs, %.1f s)\n" % (os.path.relpath(path, root), runs, wall))


def with_ci(names):
    """The header cells of mean columns: each name, then its 95 % half-width's (name_ci95)."""
    cells = []
    for name in names:
        cells += [name, name + "_ci95"]
    return cells


def publish_with_runs(path, runs_path, comments, runs_title, header, rows, runs_header, run_rows, short, runs, wall,
                      rel):
    """The means table at PATH and the per-run table at RUNS_PATH (cells through mean_cell), both with
    the '#' COMMENTS, the per-run one with RUNS_TITLE for their first line; then on stdout the title
    line, the SHORT columns of the means table aligned, and where both went (as REL(path) names them)."""
    write_csv(path, comments, header, rows, mean_cell)
    write_csv(runs_path, [runs_title] + comments[1:], runs_header, run_rows, mean_cell)
    idx = [header.index(c) for c in short]
    print(comments[0])
    print(aligned(short, [[r[i] for i in idx] for r in rows], mean_cell))
    print("-> %s, %s (%d runs, %.1f s)" % (rel(path), rel(runs_path), runs, wall))


def add_simulator_options(parser, root):
    """--jobs and --ckptsim, the options every experiment script takes."""
    parser.add_argument("--jobs", type=int, default=2, help="ckptsim processes at a time (default 2)")
    parser.add_argument("--ckptsim", default=os.path.join(root, "build", "ckptsim"),
                        help="the simulator to run (default build/ckptsim)")


def simulator(args):
    """The absolute path of --ckptsim; exits with a message when it is not an executable."""
    if not os.access(args.ckptsim, os.X_OK):
        raise SystemExit("experiments.py: no ckptsim at %s (build it, or give --ckptsim PATH)" % args.ckptsim)
    return os.path.abspath(args.ckptsim)


def input_files(root, folder, suffix=""):
    """The --topology / --application / --timers options naming FOLDER's topology{SUFFIX}.json,
    application{SUFFIX}.json and timers{SUFFIX}.json, relative to ROOT (the runs start there)."""
    out = []
    for kind in ("topology", "application", "timers"):
        out += ["--" + kind, os.path.relpath(os.path.join(folder, kind + suffix + ".json"), root)]
    return out


# Two-sided 95 % quantiles of Student's t, df 1..30, beyond: interpolation in 1/df towards 1.960
# (the same as the sweeps' points tables, sim/cli/sweep/aggregate.cpp, and plots/common.py).
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
       2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def mean_ci(values):
    """(mean, 95 % half-width) of the values that are not None; (None, None) when there are none."""
    v = [x for x in values if x is not None]
    n = len(v)
    if n == 0:
        return None, None
    m = sum(v) / n
    if n == 1:
        return m, 0.0
    sd = math.sqrt(sum((x - m) ** 2 for x in v) / (n - 1))
    t = T95[n - 2] if n - 1 <= 30 else 1.960 + (2.042 - 1.960) * 30.0 / (n - 1)
    return m, t * sd / math.sqrt(n)


def mean_cell(v):
    """A table cell of means: empty for None, 2 decimals below 100, 1 above."""
    if v is None:
        return ""
    if isinstance(v, float):
        return "%.2f" % v if abs(v) < 100 else "%.1f" % v
    return str(v)
