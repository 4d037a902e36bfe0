"""The aggregated space-time view, for runs too big for a line per process: a band per cluster
showing the share of its processes in each state over time, a mark per cluster-level checkpoint
(a tick per process checkpoint), failures, rollbacks (how many processes, back to when) and the
recovery line across the clusters; below, application messages counted per time interval for each
pair of clusters."""
import collections
import itertools

import numpy as np
from matplotlib.patches import Rectangle

import spacetime_style as st

BINS = 800  # time bins of the state shares
MSG_BINS = 60  # time intervals of the message counts
HALF = 0.38  # half height of a cluster band


def flatten(intervals):
    """A process' intervals (start, end, state), overlapping, as a partition: the highest-ranked state wins."""
    cuts = sorted({x for a, b, _ in intervals for x in (a, b)})
    out = []
    for a, b in zip(cuts, cuts[1:]):
        states = [s for s0, s1, s in intervals if s0 <= a and s1 >= b]
        if states:
            s = max(states, key=st.STATES.index)
            if out and out[-1][2] == s and out[-1][1] == a:
                out[-1] = (out[-1][0], b, s)
            else:
                out.append((a, b, s))
    return out


def shares(states, nodes, t0, t1):
    """{state: array over BINS} of the processes' time spent in it, as a share of len(nodes)."""
    edges = np.linspace(t0, t1, BINS + 1)
    width = edges[1] - edges[0]
    out = {s: np.zeros(BINS) for s in st.STATES}
    for n in nodes:
        for a, b, s in flatten(states.get(n, ())):
            a, b = max(a, t0), min(b, t1)
            if b <= a:
                continue
            i, j = int((a - t0) / width), min(int((b - t0) / width), BINS - 1)
            if i == j:
                out[s][i] += b - a
                continue
            out[s][i] += edges[i + 1] - a
            out[s][j] += b - edges[j]
            out[s][i + 1:j] += width
    return edges, {s: v / (width * max(len(nodes), 1)) for s, v in out.items()}


def draw(ax, axm, run, states, nodes, t0, t1):
    """Bands into ax, message counts into axm; returns (legend handles, footnotes)."""
    lay = run.layout
    clusters = [c for c in range(len(lay.names)) if any(lay.cluster[n] == c for n in nodes)]
    y = {c: len(clusters) - 1 - i for i, c in enumerate(clusters)}  # first cluster on top
    legend = collections.OrderedDict()
    for c in clusters:
        members = [n for n in nodes if lay.cluster[n] == c]
        edges, share = shares(states, members, t0, t1)
        x = np.repeat(edges, 2)[1:-1]
        base = np.full(BINS, y[c] - HALF)
        for s in st.STATES:
            top = base + share[s] * 2 * HALF
            ax.fill_between(x, np.repeat(base, 2), np.repeat(top, 2), color=st.STATE_COLOURS[s], lw=0, zorder=2)
            if share[s].any():
                legend.setdefault("state " + s, st.state_handles([s])[0])
            base = top
        ax.add_patch(Rectangle((t0, y[c] - HALF), t1 - t0, 2 * HALF, fill=False, ec="#999999", lw=0.6, zorder=3))
    ax.set_yticks([y[c] for c in clusters])
    ax.set_yticklabels(["%s\n(%d processes)" % (lay.names[c], sum(1 for n in nodes if lay.cluster[n] == c))
                        for c in clusters], fontsize=9)
    ax.set_ylim(-0.55, len(clusters) - 0.3)
    _checkpoints(ax, run, y, set(nodes), t0, t1, legend)
    _failures_and_rollbacks(ax, run, y, set(nodes), t0, t1, legend)
    _link_outages(ax, run, y, set(nodes), t0, t1, legend)
    _messages(axm, run, set(nodes), t0, t1)
    return legend, []


def _checkpoints(ax, run, y, nodes, t0, t1, legend):
    kinds, aborted, ticks = set(), False, collections.defaultdict(list)
    for t, c, n, kind, status in run.unit_ckpts:
        if not t0 <= t <= t1:
            continue
        if c is None:  # a process' own checkpoint
            if n in nodes:
                ticks[run.layout.cluster[n]].append(t)
            continue
        if c not in y:
            continue
        ok = status == "committed"
        ax.plot([t], [y[c] + HALF + 0.08], ls="none", marker=st.CKPT_MARKER[kind], ms=6,
                mfc=st.CKPT_FACE[kind] if ok else "none", mec="black" if ok else "#444444", mew=0.7 if ok else 1.3,
                zorder=7, clip_on=False)
        kinds.add(kind)
        aborted |= not ok
    for c, ts in ticks.items():
        ax.plot(ts, [y[c] + HALF + 0.06] * len(ts), ls="none", marker="|", ms=5, color="#0b2e59", alpha=0.35, zorder=6)
        legend.setdefault("ticks", st.handle("a process' checkpoint (committed)", ls="none", marker="|",
                                             color="#0b2e59"))
    for h in st.ckpt_handles(kinds, aborted):
        legend.setdefault("ckpt " + h.get_label(), h)


def _failures_and_rollbacks(ax, run, y, nodes, t0, t1, legend):
    lay = run.layout
    fails = [(t, n) for t, n, kind, _ in run.failures if kind == "failure" and n in nodes and t0 <= t <= t1]
    for t, n in fails:
        ax.plot([t], [y[lay.cluster[n]]], ls="none", marker="X", ms=11, color=st.FAILURE, mec="white", zorder=11)
        if len(fails) <= 30:
            ax.annotate(lay.label(n), (t, y[lay.cluster[n]]), xytext=(0, -14), textcoords="offset points", ha="center",
                        fontsize=7, color=st.FAILURE, zorder=11)
    if fails:
        legend.setdefault("fail", st.handle("failure", ls="none", marker="X", color=st.FAILURE, ms=9))
    for i, (group, (line, t_last)) in enumerate(run.recovery_lines().items()):
        per_cluster = collections.defaultdict(list)
        for n, to in line.items():
            if n in nodes:
                per_cluster[lay.cluster[n]].append(to)
        if not per_cluster or not (t0 <= t_last <= t1 or any(t0 <= min(v) <= t1 for v in per_cluster.values())):
            continue
        colour = st.recovery_colour(i)
        pts = []
        for c in sorted(y, key=y.get):
            if c in per_cluster:
                to = min(per_cluster[c])
                ax.add_patch(Rectangle((to, y[c] - HALF), t_last - to, 2 * HALF, fill=False, edgecolor=st.LOST,
                                       hatch="////", lw=0, zorder=4))
                ax.annotate("%d" % len(per_cluster[c]), (t_last, y[c] + HALF * 0.5), xytext=(3, 0),
                            textcoords="offset points", fontsize=7, color=colour, zorder=11)
            pts.append((y[c], min(per_cluster[c]) if c in per_cluster else t_last, c in per_cluster))
        ax.plot([x for _, x, _ in pts], [yy for yy, _, _ in pts], color=colour, lw=1.8, zorder=8)
        ax.plot([x for _, x, r in pts if r], [yy for yy, _, r in pts if r], ls="none", marker="o", ms=5, color=colour,
                zorder=8)
        ax.plot([x for _, x, r in pts if not r], [yy for yy, _, r in pts if not r], ls="none", marker="o", ms=5,
                mfc="white", color=colour, zorder=8)
        legend.setdefault("line", st.handle("recovery line per failure: oldest state restored in the cluster "
                                            "(hollow: none rolled back); number: processes rolled back", color=colour,
                                            lw=1.8, marker="o", ms=5))
        legend.setdefault("lost", Rectangle((0, 0), 1, 1, facecolor="none", edgecolor=st.LOST, hatch="////", lw=0,
                                            label="undone by the rollbacks"))


def _messages(axm, run, nodes, t0, t1):
    lay = run.layout
    edges = np.linspace(t0, t1, MSG_BINS + 1)
    many = len(lay.names) > 3  # too many pairs: intra- and inter-cluster totals
    counts = collections.defaultdict(lambda: np.zeros(MSG_BINS))
    special = {"forced": np.zeros(MSG_BINS), "replayed": np.zeros(MSG_BINS)}
    for m in run.msgs:
        if not (t0 <= m.t_send <= t1) or m.src not in nodes or m.dst not in nodes:
            continue
        i = min(int((m.t_send - t0) / (edges[1] - edges[0])), MSG_BINS - 1)
        cs, cd = lay.cluster[m.src], lay.cluster[m.dst]
        key = ("intra" if cs == cd else "inter") if many else (cs, cd)
        counts[key][i] += 1
        if m.forced:
            special["forced"][i] += 1
        if m.replayed or m.replay_delivery:
            special["replayed"][i] += 1
    palette = itertools.cycle(["#1f77b4", "#ff7f0e", "#2ca02c", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f",
                               "#393b79", "#637939"])
    for key in sorted(counts, key=str):
        intra = key == "intra" or (isinstance(key, tuple) and key[0] == key[1])
        name = key if many else "%s -> %s" % (lay.names[key[0]], lay.names[key[1]])
        axm.step(edges[:-1], counts[key], where="post", color=next(palette), lw=1.0 if intra else 1.7,
                 label="%s (%d)" % (name, counts[key].sum()))
    for key, colour in (("forced", st.MSG_FORCED), ("replayed", st.MSG_REPLAYED)):
        if special[key].any():
            axm.step(edges[:-1], special[key], where="post", color=colour, ls="--", lw=1.2,
                     label="%s (%d)" % ("forced a checkpoint" if key == "forced" else "replayed", special[key].sum()))
    axm.set_yscale("symlog", linthresh=1)
    axm.set_ylabel("messages sent\nper %s" % _duration(edges[1] - edges[0]), fontsize=8)
    if counts:
        axm.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.005, 1.0), frameon=False)
    axm.grid(axis="y", color="#eeeeee")


def _duration(s):
    if s >= 3600:
        return "%.3g h" % (s / 3600)
    if s >= 60:
        return "%.3g min" % (s / 60)
    return "%.3g s" % s


def _link_outages(ax, run, y, nodes, t0, t1, legend):
    """A hatched span over the bands of the clusters a failed link cuts off (a node's SAN link: its
    cluster's band), from its failure to its repair (or the end of the trace)."""
    lay = run.layout
    for link, a, b in run.link_outages:
        b = run.t_end if b is None else b
        if b < t0 or a > t1:
            continue
        cut = run.link_nodes(link)
        rows = sorted({y[lay.cluster[n]] for n in nodes if (cut is None or n in cut) and lay.cluster[n] in y})
        for r in rows:
            ax.add_patch(Rectangle((max(a, t0), r - HALF), min(b, t1) - max(a, t0), 2 * HALF, fill=False,
                                   edgecolor=st.LINK_DOWN, hatch="//", lw=0.8, zorder=4))
        if rows:
            legend.setdefault("link down", st.handle("link down: messages across it wait for its repair", ls="none",
                                                     marker="s", mfc="none", color=st.LINK_DOWN, ms=9))
