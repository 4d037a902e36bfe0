"""The exact space-time view: a line per process, grouped by cluster; its states as bands, every
application message as an arrow, every checkpoint, failure and rollback, a recovery line per failure."""
import collections

from matplotlib.patches import FancyArrowPatch, Rectangle

import spacetime_style as st

BAND = 0.44  # height of a state band (lanes are 1 apart)
MANY_LABELS = 60  # above this many labels of one kind in the window, none is written
LABEL_WIDTH = 58  # points left of the axes for the process names


class Lanes:
    """y of each process drawn (top to bottom, a gap between clusters) and the cluster groups."""

    def __init__(self, layout, nodes):
        self.y, self.groups = {}, []
        y = 0.0
        for c in range(len(layout.names)):
            members = [n for n in nodes if layout.cluster[n] == c]
            if not members:
                continue
            top = y
            for n in members:
                self.y[n] = y
                y += 1
            self.groups.append((layout.names[c], top, y - 1))
            y += 0.6
        self.bottom = max(self.y.values(), default=0.0)  # the last lane


def visible(a, b, t0, t1):
    return b >= t0 and a <= t1


def draw(ax, run, states, lanes, t0, t1, controls=None):
    """Draws into ax (controls: the protocol messages to draw too, or None); returns (legend
    handles, footnotes)."""
    legend = collections.OrderedDict()
    _lanes_and_states(ax, states, lanes, t0, t1, legend)
    _rollbacks(ax, run, lanes, t0, t1, legend)
    _checkpoints(ax, run, lanes, t0, t1, legend)
    notes = _messages(ax, run, lanes, t0, t1, legend)
    if controls is not None:
        notes += _controls(ax, controls, lanes, t0, t1, legend)
    _failures_and_marks(ax, run, lanes, t0, t1, legend)
    _link_outages(ax, run, lanes, t0, t1, legend)
    return legend, notes


def _lanes_and_states(ax, states, lanes, t0, t1, legend):
    for n, y in lanes.y.items():
        ax.plot([t0, t1], [y, y], color="#bbbbbb", lw=0.6, zorder=1)
        for a, b, s in states.get(n, ()):
            if visible(a, b, t0, t1) and b > a:
                ax.add_patch(Rectangle((a, y - BAND / 2), b - a, BAND, facecolor=st.STATE_COLOURS[s], edgecolor="none",
                                       zorder=2 + 0.1 * st.STATES.index(s)))
                legend.setdefault("state " + s, st.state_handles([s])[0])
    for i, (name, top, bottom) in enumerate(lanes.groups):
        ax.annotate(name, xy=(0, (top + bottom) / 2), xycoords=("axes fraction", "data"), xytext=(-LABEL_WIDTH, 0),
                    textcoords="offset points", ha="right", va="center", fontsize=9, fontweight="bold")
        if i:  # a rule between two clusters
            ax.axhline(top - 0.8, color="#888888", lw=0.8, zorder=1)


def _rollbacks(ax, run, lanes, t0, t1, legend):
    fails = collections.defaultdict(list)
    for t, n, kind, _ in run.failures:
        if kind == "failure":
            fails[n].append(t)
    for t, n, to, _, _ in run.rollbacks:
        if n not in lanes.y or not visible(to, t, t0, t1):
            continue
        y = lanes.y[n]
        end = min([f for f in fails[n] if to <= f <= t] or [t])  # the victim's undone work ends at its failure
        if end > to:
            ax.add_patch(Rectangle((to, y - BAND / 2), end - to, BAND, facecolor="none", edgecolor=st.LOST,
                                   hatch="////", lw=0, zorder=4))
            legend.setdefault("lost", Rectangle((0, 0), 1, 1, facecolor="none", edgecolor=st.LOST, hatch="////", lw=0,
                                                label="undone by a rollback"))
        ax.plot([t], [y], marker="<", color=st.ROLLBACK, ms=7, zorder=9, ls="none")
        legend.setdefault("rollback", st.handle("rollback (date it happens)", ls="none", marker="<", color=st.ROLLBACK))
    for i, (group, (line, t_last)) in enumerate(run.recovery_lines().items()):
        pts = sorted((lanes.y[n], line.get(n, t_last), n in line) for n in lanes.y)
        if not any(r for _, _, r in pts) or not any(visible(x, x, t0, t1) for _, x, _ in pts):
            continue
        colour = st.recovery_colour(i)
        ax.plot([x for _, x, _ in pts], [y for y, _, _ in pts], color=colour, lw=2.2, alpha=0.8, zorder=6.5)
        ax.plot([x for _, x, r in pts if not r], [y for y, _, r in pts if not r], ls="none", marker="o", ms=6,
                mfc="white", color=colour, zorder=6.6)
        name = "recovery line, failure %s: states restored (o: kept its state)" % group
        legend.setdefault("line %s" % group, st.handle(name, color=colour, lw=2.2))


def _checkpoints(ax, run, lanes, t0, t1, legend):
    shown = [c for c in run.ckpts if c.node in lanes.y and t0 <= c.t <= t1]
    kinds, aborted = set(), False
    write = len([c for c in shown if c.kind != "initial" or c.text]) <= MANY_LABELS
    last_label = {}  # node -> (date, level) of its previous label: close labels are staggered
    for c in sorted(shown, key=lambda c: c.t):
        y = lanes.y[c.node]
        settled = c.status == "committed"
        ax.plot([c.t], [y], ls="none", marker=st.CKPT_MARKER[c.kind], ms=8 if c.kind != "initial" else 7,
                mfc=st.CKPT_FACE[c.kind] if settled else "none", mec="black" if settled else "#444444",
                mew=0.8 if settled else 1.4, zorder=7)
        kinds.add(c.kind)
        aborted |= not settled
        text = c.text or (str(c.number) if c.kind != "initial" and not any(x.text for x in shown) else None)
        if write and text:
            prev, level = last_label.get(c.node, (None, 0))
            level = (level + 1) % 2 if prev is not None and c.t - prev < 0.035 * (t1 - t0) else 0
            last_label[c.node] = (c.t, level)
            ax.annotate(text, (c.t, y), xytext=(0, 7 + 8 * level), textcoords="offset points", ha="center", va="bottom",
                        fontsize=7, color="#0b2e59", zorder=10)
    for h in st.ckpt_handles(kinds, aborted):
        legend.setdefault("ckpt " + h.get_label(), h)


def _arrow(ax, a, b, colour, ls="-", lw=1.0, style="-|>", zorder=6):
    ax.add_patch(FancyArrowPatch(a, b, arrowstyle=style, mutation_scale=9, color=colour, lw=lw, ls=ls, zorder=zorder,
                                 shrinkA=0, shrinkB=0))


def _messages(ax, run, lanes, t0, t1, legend):
    lay, outside, labels, span = run.layout, 0, [], t1 - t0
    for m in run.msgs:
        end = m.t_deliver if m.t_deliver is not None else m.t_recv
        if not visible(m.t_send, end if end is not None else m.t_send, t0, t1):
            continue
        if m.src not in lanes.y or m.dst not in lanes.y:
            outside += 1
            continue
        ys, yd = lanes.y[m.src], lanes.y[m.dst]
        inter = lay.cluster[m.src] != lay.cluster[m.dst]
        if m.t_deliver is None:  # never delivered: to its arrival (dropped there) or a stub
            b = (m.t_recv, yd) if m.t_recv is not None else (m.t_send + 0.02 * span, ys + 0.4 * (1 if yd > ys else -1))
            _arrow(ax, (m.t_send, ys), b, st.MSG_DROPPED, ls=":", style="-")
            ax.plot([b[0]], [b[1]], marker="x", color=st.MSG_DROPPED, ms=6, zorder=6, ls="none")
            legend.setdefault("dropped", st.handle("message never delivered (lost, orphan, duplicate)",
                                                   color=st.MSG_DROPPED, ls=":", marker="x"))
            continue
        if m.forced:
            colour, key, name = st.MSG_FORCED, "forced", "message that forced a checkpoint before its delivery"
        elif m.replayed or m.replay_delivery:
            colour, key = st.MSG_REPLAYED, "replayed"
            name = "replayed message (re-sent from a log, or a replayed delivery)"
        elif inter:
            colour, key, name = st.MSG_INTER, "inter", "inter-cluster message"
        else:
            colour, key, name = st.MSG_INTRA, "intra", "intra-cluster message"
        ls = "-"
        if m.replayed or m.replay_delivery:
            ls = "--"
            if key != "replayed":  # its colour says something else: the dashes say replayed
                legend.setdefault("msg dashed", st.handle("dashed: replayed too", color="black", ls="--"))
        elif m.resent:
            ls = "-."
            legend.setdefault("msg resent", st.handle("dash-dot: sent again by a re-execution", color="black", ls="-."))
        _arrow(ax, (m.t_send, ys), (m.t_deliver, yd), colour, ls=ls, lw=1.4 if key == "forced" else 1.0)
        legend.setdefault("msg " + key, st.handle(name, color=colour, ls="--" if key == "replayed" else "-", marker=">",
                                                  ms=5))
        if m.logged:
            ax.plot([m.t_send], [ys], ls="none", marker="o", ms=5, mfc="white", mec=colour, zorder=7)
            legend.setdefault("msg logged", st.handle("logged at its sender (acknowledged)", ls="none", marker="o",
                                                      mfc="white", mec="black", ms=5))
        if m.label:
            # near the head: a message across several lanes is read at its receiver
            labels.append((m.t_send + 0.7 * (m.t_deliver - m.t_send), ys + 0.7 * (yd - ys), m.label, colour))
    if len(labels) <= MANY_LABELS:
        for x, y, text, colour in labels:
            ax.annotate(text, (x, y), xytext=(3, 2), textcoords="offset points", fontsize=8, color=colour, zorder=10,
                        bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.7))
    return ["%d messages to or from processes not shown" % outside] if outside else []


def _controls(ax, controls, lanes, t0, t1, legend):
    outside, drawn = 0, []
    for src, dst, ts, tr, kind in controls:
        if not visible(ts, tr, t0, t1):
            continue
        if src not in lanes.y or dst not in lanes.y:
            outside += 1
            continue
        _arrow(ax, (ts, lanes.y[src]), (tr, lanes.y[dst]), st.CTRL, ls=":", lw=1.0, zorder=5)
        drawn.append((tr, lanes.y[dst], kind))
    types = sorted({k for _, _, k in drawn})
    if drawn:
        names = ", ".join(types[:4] + (["..."] if len(types) > 4 else []))
        legend["ctrl"] = st.handle("protocol control message (%s)" % names, color=st.CTRL, ls=":", marker=">", ms=5)
    if 1 < len(types) and len(drawn) <= MANY_LABELS // 2:  # one type: the legend names it
        for x, y, text in drawn:
            ax.annotate(text, (x, y), xytext=(2, -9), textcoords="offset points", fontsize=6, color=st.CTRL, zorder=10)
    return ["%d control messages to or from endpoints not shown" % outside] if outside else []


def _failures_and_marks(ax, run, lanes, t0, t1, legend):
    look = {"failure": ("X", 13, st.FAILURE, "failure"),
            "deferred": ("x", 9, "#e69138", "failure deferred (overlap policy)"),
            "ignored": ("x", 7, "#b7b7b7", "failure of a node already down (ignored)")}
    for t, n, kind, _ in run.failures:
        if n in lanes.y and t0 <= t <= t1:
            marker, ms, colour, name = look[kind]
            ax.plot([t], [lanes.y[n]], ls="none", marker=marker, ms=ms, color=colour, mec="white", mew=0.6, zorder=11)
            legend.setdefault("fail " + kind, st.handle(name, ls="none", marker=marker, color=colour, ms=9))
    marks = {"redeliver": ("v", "#351c75", "re-executed receive of a message already there (CCK)"),
             "withheld": ("|", "#c27ba0", "re-executed send a survivor holds: not sent again (CCK)"),
             "replay_cut": ("D", "#741b47", "orphan: its replay cut short (msglog)"),
             "unmatched": ("*", "#000000", "delivery whose send is not in the trace"),
             "moved": ("^", "#274e13", "process restarted on another host")}
    for t, n, kind, text in run.marks:
        if n in lanes.y and t0 <= t <= t1:
            marker, colour, name = marks[kind]
            ax.plot([t], [lanes.y[n]], ls="none", marker=marker, color=colour, ms=6, zorder=9)
            if kind == "moved":
                ax.annotate(text, (t, lanes.y[n]), xytext=(4, 4), textcoords="offset points", fontsize=7)
            legend.setdefault("mark " + kind, st.handle(name, ls="none", marker=marker, color=colour, ms=6))


def _link_outages(ax, run, lanes, t0, t1, legend):
    """A hatched span over the lanes of the processes a failed link cuts off, from its failure to
    its repair (or the end of the trace)."""
    for link, a, b in run.link_outages:
        b = run.t_end if b is None else b
        if not visible(a, b, t0, t1):
            continue
        nodes = run.link_nodes(link)
        spans = {}  # per cluster drawn: the lanes of the processes cut off (a WAN link cuts two clusters)
        for n, y in lanes.y.items():
            if nodes is None or n in nodes:
                c = None if nodes is None else run.layout.cluster[n]
                lo, hi = spans.get(c, (y, y))
                spans[c] = (min(lo, y), max(hi, y))
        if not spans:
            continue
        for lo, hi in spans.values():
            ax.add_patch(Rectangle((max(a, t0), lo - 0.5), min(b, t1) - max(a, t0), hi - lo + 1, fill=False,
                                   edgecolor=st.LINK_DOWN, hatch="//", lw=0.8, zorder=4))
        bottom = max(hi for _, hi in spans.values()) + 0.5
        ax.annotate("%s down" % link, (max(a, t0), bottom), xytext=(2, -8), textcoords="offset points", fontsize=7,
                    color=st.LINK_DOWN, zorder=10)
        legend.setdefault("link down", st.handle("link down: messages across it wait for its repair", ls="none",
                                                 marker="s", mfc="none", color=st.LINK_DOWN, ms=9))
