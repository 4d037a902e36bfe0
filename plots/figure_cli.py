"""What the command-line figure scripts (sweep.py, compare.py) share: reading a table the user
names, input errors that end with exit status 2, quantities with units, statistic names turned
into axis labels, and saving to the path the user gave (.png, .svg or .pdf).

Unlike plots/common.py (the papers' figures, written under results/figures/), these scripts draw
any table anywhere, so they name the user's file in every message and never touch results/.
Run them with /usr/bin/python3 (Debian's python3-matplotlib)."""
import argparse
import csv
import math
import os
import re
import sys

try:
    import matplotlib
except ImportError:  # another python than Debian's, which has python3-matplotlib
    sys.exit("%s: needs matplotlib: run it with /usr/bin/python3 (apt-get install python3-matplotlib)"
             % os.path.basename(sys.argv[0]))

matplotlib.use("Agg")  # no display: files only
import matplotlib.pyplot as plt  # noqa: E402

# SVG text kept as text (searchable, editable, and what the tests read); no random ids or dates,
# so the same table gives the same bytes.
matplotlib.rcParams["svg.fonttype"] = "none"
matplotlib.rcParams["svg.hashsalt"] = "ckptsim"

FORMATS = ("png", "svg", "pdf")


class BadInput(Exception):
    """The user's table or options cannot be drawn: the message says why; exit status 2."""


def run(main, argv=None):
    """Calls main(argv); a BadInput is printed on stderr (prefixed with the script's name) and
    ends with exit status 2, as ckptsim's own input errors do."""
    name = os.path.basename(sys.argv[0]) or "plot"
    try:
        main(argv)
    except BadInput as e:
        print("%s: %s" % (name, e), file=sys.stderr)
        sys.exit(2)


def table_args(doc, table_help, argv):
    """The options of a script drawing one table: TABLE -o OUT [--title T] [--source S], its help
    from the module's docstring @p doc (first paragraph: description; the rest: epilog)."""
    p = argparse.ArgumentParser(description=doc.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n\n".join(doc.split("\n\n")[1:]))
    p.add_argument("table", help=table_help)
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="the figure: .png, .svg or .pdf")
    p.add_argument("--title", help="the figure's title")
    p.add_argument("--source", help="what the footer names as the data (default: the table's path)")
    return p.parse_args(argv)


def read_csv(path):
    """(rows as dicts of strings, the column names in order, the '#' header lines without '# ')."""
    try:
        with open(path, newline="") as f:
            lines = f.readlines()
    except OSError as e:
        raise BadInput("%s: cannot read: %s" % (path, e.strerror))
    comments = [line[1:].strip() for line in lines if line.startswith("#")]
    body = [line for line in lines if not line.startswith("#") and line.strip()]
    if not body:
        raise BadInput("%s: no table (no header line)" % path)
    reader = csv.DictReader(body)
    rows = list(reader)
    return rows, list(reader.fieldnames), comments


def output_format(path):
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    if ext not in FORMATS:
        raise BadInput("-o %s: the name must end with %s" % (path, ", ".join("." + f for f in FORMATS)))
    return ext


def number(text):
    """A cell as a float, or None ('' , '-', text, None, nan)."""
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) else v


# Units of docs/INPUTS.md: kind -> {unit: factor to the SI unit}, and each kind's SI unit name.
_UNITS = {
    "duration": {"ps": 1e-12, "ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0,
                 "d": 86400.0, "w": 604800.0},
    "size": {"B": 1.0, "kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "KiB": 1024.0, "MiB": 1024.0**2,
             "GiB": 1024.0**3, "TiB": 1024.0**4, "b": 0.125, "kb": 125.0, "Kb": 125.0, "Mb": 1.25e5, "Gb": 1.25e8,
             "Kib": 128.0, "Mib": 131072.0, "Gib": 134217728.0},
    "bandwidth": {"Bps": 1.0, "kBps": 1e3, "KBps": 1e3, "MBps": 1e6, "GBps": 1e9, "TBps": 1e12, "KiBps": 1024.0,
                  "MiBps": 1024.0**2, "GiBps": 1024.0**3, "bps": 0.125, "kbps": 125.0, "Kbps": 125.0,
                  "Mbps": 1.25e5, "Gbps": 1.25e8, "Tbps": 1.25e11, "Kibps": 128.0, "Mibps": 131072.0,
                  "Gibps": 134217728.0},
    "speed": {"f": 1.0, "kf": 1e3, "Kf": 1e3, "Mf": 1e6, "Gf": 1e9, "Tf": 1e12, "Pf": 1e15},
}
_QUANTITY = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-z]+)\s*$")


def quantity(text):
    """'30min' -> (1800.0, 'duration', 'min'); a bare number -> (value, None, None); else None."""
    v = number(text)
    if v is not None:
        return v, None, None
    m = _QUANTITY.match(text or "")
    if not m:
        return None
    for kind, units in _UNITS.items():
        if m.group(2) in units:
            return float(m.group(1)) * units[m.group(2)], kind, m.group(2)
    return None


def numeric_axis(values):
    """Axis values (strings) as numbers: (numbers, unit to show) when every value is a bare
    number, or every one a quantity of the same kind, shown in the smallest unit among them
    ('10min', '1h' -> 10, 60 min). None when some value is not (the axis is then categorical)."""
    parsed = [quantity(v) for v in values]
    if not values or any(p is None for p in parsed):
        return None
    kinds = {p[1] for p in parsed}
    if kinds == {None}:
        return [p[0] for p in parsed], None
    if len(kinds) != 1 or None in kinds:
        return None
    kind = kinds.pop()
    unit = min({p[2] for p in parsed}, key=lambda u: _UNITS[kind][u])
    return [p[0] / _UNITS[kind][unit] for p in parsed], unit


# Statistics (the flattened results' names) measured in seconds; every "*bytes*" one is shown in
# MB, "*_pct" in %; the others are counts.
_SECONDS = {"makespan", "end_date", "failure_free_time", "lost_work", "recovery_time"}


def stat_label(name):
    """(axis label with its unit, factor from the column's values to the shown ones) of a
    statistic column: 'results.lost_work' -> ('lost work (s)', 1);
    'results.storage_held_max_bytes' -> ('storage held max (MB)', 1e-6);
    'stats.per_cluster.hc3i.clc_forced.1' -> ('hc3i.clc_forced, cluster 1', 1)."""
    parts = name.split(".")
    where = ""
    if name.startswith("stats.per_cluster.") and parts[-1].isdigit():
        parts, where = parts[:-1], ", cluster " + parts[-1]
    elif name.startswith("stats.matrices.") and len(parts) > 3 and parts[-1].isdigit() and parts[-2].isdigit():
        parts, where = parts[:-2], ", cluster %s to %s" % (parts[-2], parts[-1])
    for prefix in (["results"], ["stats", "counters"], ["stats", "per_cluster"], ["stats", "matrices"]):
        if parts[:len(prefix)] == prefix and len(parts) > len(prefix):
            parts = parts[len(prefix):]
            break
    last = parts[-1]
    factor, unit = 1.0, ""
    if "bytes" in last:
        factor, unit = 1e-6, "MB"
        last = last[:-len("_bytes")] if last.endswith("_bytes") else last
    elif last.endswith("_pct"):
        unit, last = "%", last[:-4]
    elif last in _SECONDS or last.endswith("_time") or last.endswith("_s"):
        unit, last = "s", last[:-2] if last.endswith("_s") else last
    elif last == "rolled_back_per_failure":
        unit = "processes"
    text = ".".join(parts[:-1] + [last.replace("_", " ")]) + where
    return (text + (" (%s)" % unit if unit else "")), factor


def save(fig, path, sources, note=""):
    """Writes the figure to PATH (format from its extension) with a footer naming the tables drawn."""
    fmt = output_format(path)
    footer = "data: " + ", ".join(sources) + ("\n" + note if note else "")
    fig.text(0.01, 0.005, footer, fontsize=6, color="0.4", ha="left", va="bottom")
    # Room for the footer's lines: about 9 points each, in figure fractions.
    fig.tight_layout(rect=(0, (footer.count("\n") + 1) * 9.0 / 72 / fig.get_figheight() + 0.01, 1, 1))
    meta = {"png": None, "svg": {"Date": None}, "pdf": {"CreationDate": None}}[fmt]
    try:
        fig.savefig(path, dpi=130, format=fmt, metadata=meta)
    except OSError as e:
        raise BadInput("-o %s: cannot write: %s" % (path, e.strerror))
    finally:
        plt.close(fig)
