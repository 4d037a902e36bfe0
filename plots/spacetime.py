#!/usr/bin/python3
"""Space-time diagram of a ckptsim run, drawn from its JSON-lines trace (docs/TRACE.md).

    /usr/bin/python3 plots/spacetime.py TRACE.jsonl -o OUT.png      # or .svg, .pdf
        [--from T] [--to T]                  # a time window (seconds, or 90s, 10min, 2h)
        [--nodes LIST] [--clusters LIST]     # a subset: host names or indices, ranges "0-5"
        [--aggregate | --exact]              # force a view (default: exact up to 40 processes
                                             #   and 1500 messages, else aggregated)
        [--topology FILE]                    # the run's topology JSON: exact clusters and host names
        [--control [TYPES]]                  # exact view: protocol control messages too (trace
                                             #   level 2), all or the listed types (ALERT,CLC_REQ)
        [--title TEXT]

The exact view has a line per process, grouped by cluster: states as bands, application messages
as arrows, checkpoints, failures, rollbacks and a recovery line per failure. The aggregated view has
a band per cluster (the share of its processes in each state), a mark per cluster-level checkpoint,
failures, rollbacks and recovery lines, and the messages counted per time interval between clusters.
On stderr: the event kinds the diagram does not show, with their counts. Exit status 2 on bad input.
"""
import argparse
import collections
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")  # no display: files only
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter, MultipleLocator  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spacetime_aggregate  # noqa: E402
import spacetime_exact  # noqa: E402
import spacetime_layout  # noqa: E402
import spacetime_states  # noqa: E402
import spacetime_trace  # noqa: E402
from spacetime_trace import TraceError  # noqa: E402

FORMATS = (".png", ".svg", ".pdf")
MAX_EXACT_LANES = 40
MAX_EXACT_MESSAGES = 1500
UNITS = {"": 1, "s": 1, "ms": 1e-3, "us": 1e-6, "min": 60, "h": 3600}


def parse_time(text):
    m = re.fullmatch(r"\s*([0-9.eE+-]+)\s*(s|ms|us|min|h)?\s*", text)
    try:
        return float(m.group(1)) * UNITS[m.group(2) or ""]
    except (AttributeError, ValueError):
        raise argparse.ArgumentTypeError("not a date: %r (seconds, or a number with s, ms, us, min, h)" % text)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("trace")
    p.add_argument("-o", "--output", required=True, help="OUT.png, OUT.svg or OUT.pdf")
    p.add_argument("--from", dest="t0", type=parse_time)
    p.add_argument("--to", dest="t1", type=parse_time)
    p.add_argument("--nodes", help="host names or global indices, comma-separated; ranges a-b")
    p.add_argument("--clusters", help="cluster names or indices, comma-separated")
    view = p.add_mutually_exclusive_group()
    view.add_argument("--aggregate", action="store_true", help="a band per cluster")
    view.add_argument("--exact", action="store_true", help="a line per process")
    p.add_argument("--topology", help="the run's topology JSON (cluster names and sizes)")
    p.add_argument("--control", nargs="?", const="", default=None, metavar="TYPES",
                   help="draw protocol control messages (all, or these comma-separated types)")
    p.add_argument("--title")
    args = p.parse_args(argv)
    if os.path.splitext(args.output)[1].lower() not in FORMATS:
        p.exit(2, "spacetime: %s: the output must end in %s\n" % (args.output, ", ".join(FORMATS)))
    return args


def select(layout, nodes_arg, clusters_arg):
    """The processes to draw, in index order (all when no subset is asked)."""
    if not nodes_arg and not clusters_arg:
        return list(range(layout.num_nodes))
    chosen = set()
    for ref in filter(None, (clusters_arg or "").split(",")):
        c = layout.cluster_index(ref.strip())
        if c is None:
            raise TraceError("--clusters: no cluster %r (the trace has %s)" % (ref, ", ".join(layout.names)))
        chosen.update(layout.cluster_nodes(c))
    for ref in filter(None, (nodes_arg or "").split(",")):
        ref = ref.strip()
        a, _, b = ref.partition("-") if re.fullmatch(r"\d+-\d+", ref) else (ref, "", "")
        ia, ib = layout.node_index(a), layout.node_index(b or a)
        if ia is None or ib is None or ib < ia:
            raise TraceError("--nodes: no node %r (indices 0-%d%s)" % (ref, layout.num_nodes - 1,
                                                                        ", or host names" if layout.hosts else ""))
        chosen.update(range(ia, ib + 1))
    return sorted(chosen)


def controls(events, types):
    """(src, dst, sent, received, type) of each protocol control message (ctrl_send -> ctrl_receive)."""
    wanted = {t.strip() for t in types.split(",") if t.strip()}
    sent, out = collections.defaultdict(collections.deque), []
    for e in events:
        if e["ev"] not in ("ctrl_send", "ctrl_receive") or (wanted and e.get("type") not in wanted):
            continue
        if e["ev"] == "ctrl_send":
            sent[(e["node"], e["to"], e["type"])].append(e["t"])
        else:
            q = sent.get((e["from"], e["node"], e["type"]))
            if q:
                out.append((e["from"], e["node"], q.popleft(), e["t"], e["type"]))
    return out


def not_drawn(run, with_controls):
    used = spacetime_trace.USED | spacetime_states.USED | ({"ctrl_send", "ctrl_receive"} if with_controls else set())
    return sorted(((k, v) for k, v in run.counts.items() if k not in used), key=lambda kv: (-kv[1], kv[0]))


def time_axis(ax, t0, t1):
    span = t1 - t0
    if span > 3 * 3600:
        step = next(h for h in (0.5, 1, 2, 3, 6, 12, 24, 48, 96, 1e9) if span / (h * 3600) <= 14)
        ax.xaxis.set_major_locator(MultipleLocator(step * 3600))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: "%g" % round(x / 3600, 3)))
        ax.set_xlabel("simulated time (h)")
    elif span < 0.1 and abs(t0) > 10 * span:  # a zoom far from 0: milliseconds after a round date
        base = next(round(t0, k) for k in range(12) if abs(t0 - round(t0, k)) <= span)
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: "%g" % round((x - base) * 1e3, 6)))
        ax.set_xlabel("simulated time (ms after %s s)" % ("%.12g" % base))
    else:
        ax.ticklabel_format(axis="x", useOffset=False)
        ax.set_xlabel("simulated time (s)")
    ax.set_xlim(t0 - 0.01 * span, t1 + 0.01 * span)  # room for the marks at the ends


def notes(ax, run, t0, t1):
    colours = {"end": "#444444", "stuck": "#cc0000", "unrecoverable": "#cc0000", "violation": "#cc0000"}
    for t, kind, text in run.notes:
        if t0 <= t <= t1:
            ax.axvline(t, color=colours[kind], ls="--", lw=1, zorder=12)
            ax.annotate("%s: %s" % (kind, text)[:80], (t, 1), xycoords=("data", "axes fraction"), xytext=(-3, -3),
                        textcoords="offset points", ha="right", va="top", fontsize=7, color=colours[kind], rotation=90)


def finish(fig, axes_height, legend, footnotes, title, right_legend):
    """Sizes the figure around axes of axes_height inches: the title above, the time axis, the
    footnotes and the legend below."""
    handles = list(legend.values())
    ncol = 3
    rows = (len(handles) + ncol - 1) // ncol
    top, xlabel, line = 0.5, 0.6, 0.19
    bottom = xlabel + line * len(footnotes) + 0.21 * rows + 0.15
    height = top + axes_height + bottom
    fig.set_size_inches(13, height)
    fig.legend(handles=handles, loc="lower left", bbox_to_anchor=(0.01, 0.1 / height), ncol=ncol, fontsize=8,
               frameon=False)
    for i, text in enumerate(footnotes):
        fig.text(0.01, (bottom - xlabel - (i + 1) * line) / height, text, fontsize=7, color="#555555")
    fig.subplots_adjust(left=0.16, right=0.84 if right_legend else 0.98, top=1 - top / height, bottom=bottom / height)
    fig.suptitle(title, fontsize=11, x=0.01, y=1 - 0.12 / height, ha="left", va="top")


def main(argv=None):
    args = parse_args(argv)
    try:
        events = spacetime_trace.read_events(args.trace)
        layout = spacetime_layout.build(events, args.topology)
        nodes = select(layout, args.nodes, args.clusters)
        run = spacetime_trace.Run(events, layout)
        states = spacetime_states.intervals(run, events)
    except TraceError as e:
        print("spacetime: %s" % e, file=sys.stderr)
        return 2
    except (KeyError, TypeError, ValueError, IndexError) as e:  # an event without a field docs/TRACE.md gives it
        print("spacetime: %s: an event lacks a field the diagram needs, or has one of the wrong type (%s: %s)" %
              (args.trace, type(e).__name__, e), file=sys.stderr)
        return 2
    t0 = args.t0 if args.t0 is not None else 0.0
    t1 = args.t1 if args.t1 is not None else run.t_end
    if t1 <= t0:
        print("spacetime: empty window: --from %g s is not before --to %g s" % (t0, t1), file=sys.stderr)
        return 2
    shown = set(nodes)
    n_msgs = sum(1 for m in run.msgs if m.src in shown and m.dst in shown and t0 <= m.t_send <= t1)
    aggregate = args.aggregate or (not args.exact and (len(nodes) > MAX_EXACT_LANES or n_msgs > MAX_EXACT_MESSAGES))
    title = args.title or "%s: %s, seed %s" % (run.protocol, os.path.basename(args.trace), run.seed)
    footnotes = []
    if layout.guessed:
        footnotes.append("clusters %s: first node guessed (the trace does not pin it; give --topology)" %
                         ", ".join(layout.names[c] for c in layout.guessed))
    if not run.counts.get("state"):
        footnotes.append("blocked and recovering: derived from the protocol's rules (a level-2 trace's state events "
                         "give them exactly)")
    if aggregate:
        n_clusters = len({layout.cluster[n] for n in nodes})
        axes_height = 0.9 * n_clusters + 0.5 + 1.7
        fig = plt.figure(figsize=(13, axes_height))
        grid = fig.add_gridspec(2, 1, height_ratios=[0.9 * n_clusters + 0.5, 1.5], hspace=0.1)
        ax = fig.add_subplot(grid[0])
        axm = fig.add_subplot(grid[1], sharex=ax)
        legend, more = spacetime_aggregate.draw(ax, axm, run, states, nodes, t0, t1)
        plt.setp(ax.get_xticklabels(), visible=False)
        time_axis(axm, t0, t1)
        view = "aggregated"
    else:
        lanes = spacetime_exact.Lanes(layout, nodes)
        axes_height = 0.42 * (lanes.bottom + 1.6) + 0.2
        fig = plt.figure(figsize=(13, axes_height))
        ax = fig.add_subplot(1, 1, 1)
        ctrl = controls(events, args.control) if args.control is not None else None
        legend, more = spacetime_exact.draw(ax, run, states, lanes, t0, t1, ctrl)
        ax.set_yticks([lanes.y[n] for n in nodes])
        ax.set_yticklabels([layout.label(n) for n in nodes], fontsize=8)
        ax.set_ylim(lanes.bottom + 0.8, -0.8)
        time_axis(ax, t0, t1)
        view = "exact"
    notes(ax, run, t0, t1)
    finish(fig, axes_height, legend, footnotes + more, title, aggregate)
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    fig.savefig(args.output, dpi=150)
    plt.close(fig)
    print("spacetime: %s view of %d processes, %g s to %g s -> %s" % (view, len(nodes), t0, t1, args.output),
          file=sys.stderr)
    missing = not_drawn(run, args.control is not None)
    if missing:
        print("spacetime: not drawn: %s (%d events)" % (", ".join("%s %d" % kv for kv in missing),
                                                          sum(v for _, v in missing)), file=sys.stderr)
    else:
        print("spacetime: every event kind of the trace is drawn", file=sys.stderr)
    if layout.guessed:
        print("spacetime: the first node of clusters %s is guessed: give --topology" %
              ", ".join(layout.names[c] for c in layout.guessed), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
