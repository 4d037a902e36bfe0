"""Colours, markers and legend entries shared by the exact and aggregated space-time views."""
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

STATES = ("run", "waiting", "blocked", "recovering", "restarting", "down")  # drawn in this order
STATE_COLOURS = {
    "run": "#d9ead3",  # computing
    "waiting": "#eeeeee",  # waiting for a message (level-2 traces only)
    "blocked": "#f6b26b",  # paused by its protocol: a checkpoint (a restore)
    "recovering": "#9fc5e8",  # taking part in a recovery: held, replaying
    "restarting": "#8e7cc3",  # restarted: loading its state, paying the restart overhead
    "down": "#666666",  # failed, until its restart
}
STATE_NAMES = {
    "run": "computing",
    "waiting": "waiting for a message",
    "blocked": "blocked by the protocol (checkpoint, restore)",
    "recovering": "recovering (held / replaying)",
    "restarting": "restarting (load + overhead)",
    "down": "down (failure -> restart)",
}
# One colour per meaning, each listed in the legend (tests/plots/test_spacetime.py checks that no
# two legend entries share one): reds for failures and what they undo, blues for checkpoints,
# greys and teal for messages, greens, browns and magentas for the recovery lines.
MSG_INTRA = "#4d4d4d"
MSG_INTER = "#00838f"
MSG_FORCED = "#e377c2"
MSG_REPLAYED = "#9467bd"
MSG_DROPPED = "#999999"
CTRL = "#bf9000"
CKPT_FACE = {"initial": "white", "unforced": "#6fa8dc", "forced": "#0b2e59"}
CKPT_MARKER = {"initial": "o", "unforced": "s", "forced": "s"}
FAILURE = "#cc0000"
LINK_DOWN = "#7f6000"  # a failed link: a hatched span over the processes it cuts off
ROLLBACK = "#990000"
LOST = "#e06666"
LINE_COLOURS = ["#38761d", "#b45f06", "#a64d79", "#6aa84f", "#783f04", "#4c1130"]


def recovery_colour(i):
    return LINE_COLOURS[i % len(LINE_COLOURS)]


def state_handles(states):
    return [Patch(facecolor=STATE_COLOURS[s], edgecolor="none", label=STATE_NAMES[s]) for s in states]


def ckpt_handles(kinds, aborted):
    names = {"initial": "initial state / checkpoint", "unforced": "checkpoint", "forced": "forced checkpoint"}
    out = [Line2D([], [], ls="none", marker=CKPT_MARKER[k], mfc=CKPT_FACE[k], mec="black", ms=7, label=names[k])
           for k in ("initial", "unforced", "forced") if k in kinds]
    if aborted:
        out.append(Line2D([], [], ls="none", marker="s", mfc="none", mec="#444444", ms=7, mew=1.2,
                          label="not committed (aborted)"))
    return out


def handle(label, **kw):
    return Line2D([], [], label=label, **kw)
