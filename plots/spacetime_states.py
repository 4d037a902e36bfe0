"""What each process is doing over time, for plots/spacetime.py: intervals (start, end, state) per
process, state one of STATES (later ones are drawn over earlier ones).

A level-2 trace has the engine's own `state` events (docs/TRACE.md: computing, waiting, blocked,
recovering, down, finished, when a process' state changes): the bands are those, with restarting
(restart -> restart_complete) drawn over them. A level-1 trace does not say when the protocol holds
the application; the bands are then derived from the events each protocol writes and the rules
of docs/MODEL.md, by HOLDS below:
- computing from the start to `app_finished` (and again after a later rollback); down from a
  failure to the restart, restarting from the restart to `restart_complete`;
- blocked (in a checkpoint): ckpt_begin (the process', or for HC3I its cluster leader's) -> the
  commit or abort of that checkpoint, for the protocols that stop the application then
  (msglog and taskgraph copy the state and go on);
- recovering: what holds a live process during a recovery: coordinated, independent and none
  stop every process from the failure notice (level 2; else `failure_detected`) to the victim's
  return (`node_back`, else `restart_complete`), HC3I only the failed cluster's; CCK from
  `cck_stop` (the restarted process: `restart_complete`) to `cck_caught_up`; a rolled-back msglog
  process until `msglog_recovered`; a restored taskgraph substitute from `tg_restored` to
  `tg_recovered`.
"""
import collections

from spacetime_style import STATES
from spacetime_trace import TraceError

USED = {"app_finished", "restart", "restart_complete", "failure_detected", "failure_notice", "node_back",
        "cck_stop", "cck_caught_up", "msglog_recovered", "tg_restored", "tg_recovered", "state"}
# the engine's `state` values -> bands (finished: none)
ENGINE_STATES = {"computing": "run", "waiting": "waiting", "blocked": "blocked", "recovering": "recovering",
                 "down": "down", "finished": None}

# protocol -> (stops the application during a checkpoint, who a failure stops until the victim is back)
HOLDS = {
    "coordinated": (True, "all"),
    "independent": (True, "all"),
    "none": (False, "all"),
    "hc3i": (True, "cluster"),
    "cck": (True, None),
    "msglog": (False, None),
    "taskgraph": (False, None),
}


def _by(events, kind):
    return [e for e in events if e["ev"] == kind]


def _first_after(dates, t, default):
    return min((d for d in dates if d >= t), default=default)


def intervals(run, events):
    """{node: [(start, end, state)]} in drawing order (by state rank: down is drawn over everything)."""
    n_nodes, t_end = run.nodes, run.t_end
    out = collections.defaultdict(list)
    node_events = collections.defaultdict(lambda: collections.defaultdict(list))  # node -> kind -> dates
    for e in events:
        n = e.get("node")
        if isinstance(n, int) and n < n_nodes:
            node_events[n][e["ev"]].append(e["t"])
    if run.counts.get("state"):
        _engine_states(run, events, out)
    else:
        _derived(run, events, node_events, out)
    for n in range(n_nodes):
        ne = node_events[n]
        for t in ne["restart"]:
            out[n].append((t, _first_after(ne["restart_complete"], t, t_end), "restarting"))
    for n in out:
        out[n].sort(key=lambda i: (STATES.index(i[2]), i[0]))
    return out


def _engine_states(run, events, out):
    current = {}  # node -> (since, band)
    for e in events:
        if e["ev"] != "state" or e.get("node", run.nodes) >= run.nodes:
            continue
        n = e["node"]
        if n in current and current[n][1]:
            out[n].append((current[n][0], e["t"], current[n][1]))
        if e.get("state") not in ENGINE_STATES:
            raise TraceError("a state event at %g s has an unknown state %r (docs/TRACE.md lists them)" %
                             (e["t"], e.get("state")))
        current[n] = (e["t"], ENGINE_STATES[e["state"]])
    for n, (since, band) in current.items():
        if band:
            out[n].append((since, run.t_end, band))


def _derived(run, events, node_events, out):
    t_end = run.t_end
    for n in range(run.nodes):
        ne = node_events[n]
        done = [(t, _first_after(ne["rollback"], t, t_end)) for t in ne["app_finished"]]
        cursor = 0.0
        for a, b in sorted(done):
            if a > cursor:
                out[n].append((cursor, a, "run"))
            cursor = max(cursor, b)
        if cursor < t_end:
            out[n].append((cursor, t_end, "run"))
        for t in ne["failure"]:
            out[n].append((t, _first_after(ne["restart"], t, t_end), "down"))
    stops_in_ckpt, who = HOLDS.get(run.protocol, (True, "all"))
    if stops_in_ckpt:
        for n, b, e in _checkpoint_windows(run, events):
            out[n].append((b, e, "blocked"))
    _recovery_holds(run, events, node_events, who, out)


def _checkpoint_windows(run, events):
    """(node, begin, end) of each checkpoint: its begin to the commit or abort that settles it."""
    begun = {}  # (node, number) -> begin date
    windows = []
    for e in events:
        ev = e["ev"]
        if ev == "ckpt_begin":
            for n in run.members(e):
                begun[(n, e["number"])] = e["t"]
        elif ev in ("ckpt_commit", "ckpt_abort"):
            for n in run.members(e):
                b = begun.pop((n, e["number"]), None)
                if b is not None:
                    windows.append((n, b, e["t"]))
        elif ev in ("failure", "rollback", "cck_stop") and e.get("node", run.nodes) < run.nodes:
            for key in [k for k in begun if k[0] == e["node"]]:  # the checkpoint under way is abandoned
                windows.append((e["node"], begun.pop(key), e["t"]))
    return windows


def _recovery_holds(run, events, node_events, who, out):
    t_end = run.t_end
    if who:
        victim = {e["failure"]: e["node"] for e in _by(events, "failure")}
        detected = {e["failure"]: e["t"] for e in _by(events, "failure_detected")}
        back = {e["failure"]: e["t"] for e in _by(events, "restart_complete")}
        notice = {(e["node"], e["failure"]): e["t"] for e in _by(events, "failure_notice")}
        node_back = {(e["node"], e["failure"]): e["t"] for e in _by(events, "node_back")}
        for f, v in victim.items():
            if f not in detected:
                continue
            nodes = run.layout.cluster_nodes(run.layout.cluster[v]) if who == "cluster" else range(run.nodes)
            for n in nodes:
                if n == v:
                    continue
                start = notice.get((n, f), detected[f])
                end = node_back.get((n, f), back.get(f, t_end))
                if end > start:
                    out[n].append((start, end, "recovering"))
    pairs = (("cck_stop", "cck_caught_up"), ("restart_complete", "cck_caught_up"), ("rollback", "msglog_recovered"),
             ("tg_restored", "tg_recovered"))
    for n, ne in node_events.items():
        for first, last in pairs:
            if not ne[last]:
                continue
            for t in ne[first]:
                out[n].append((t, _first_after(ne[last], t, t_end), "recovering"))
