"""What each process is doing over time, for plots/spacetime.py: intervals (start, end, state) per
process, state one of STATES (later ones are drawn over earlier ones).

Down (failure -> restart), restarting (restart -> restart_complete) and finished (app_finished ->
the process' next rollback) are in every trace. When the protocol holds the application is not:
a trace with `app_pause` / `app_resume` events (node) gives it exactly (a pause during a
checkpoint is "checkpoint", any other "recovering"); otherwise it is derived from the events each
protocol writes and the rules of docs/MODEL.md, by HOLDS below:
- blocked in a checkpoint: ckpt_begin (the process', or for HC3I its cluster leader's) -> the
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

USED = {"app_finished", "restart", "restart_complete", "failure_detected", "failure_notice", "node_back",
        "cck_stop", "cck_caught_up", "msglog_recovered", "tg_restored", "tg_recovered", "app_pause", "app_resume"}

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
    """{node: [(start, end, state)]}: 'run' bands cut by 'done' (finished) periods, then the others."""
    n_nodes, t_end = run.nodes, run.t_end
    out = collections.defaultdict(list)
    node_events = collections.defaultdict(lambda: collections.defaultdict(list))  # node -> kind -> dates
    for e in events:
        n = e.get("node")
        if isinstance(n, int) and n < n_nodes:
            node_events[n][e["ev"]].append(e["t"])
    for n in range(n_nodes):
        ne = node_events[n]
        rollbacks = ne["rollback"]
        done = [(t, _first_after(rollbacks, t, t_end)) for t in ne["app_finished"]]
        cursor = 0.0
        for a, b in sorted(done):
            if a > cursor:
                out[n].append((cursor, a, "run"))
            cursor = max(cursor, b)
        if cursor < t_end:
            out[n].append((cursor, t_end, "run"))
        for t in ne["failure"]:
            out[n].append((t, _first_after(ne["restart"], t, t_end), "down"))
        for t in ne["restart"]:
            out[n].append((t, _first_after(ne["restart_complete"], t, t_end), "restarting"))
    if any(e["ev"] == "app_pause" for e in events):
        _pauses(run, events, node_events, out)
    else:
        stops_in_ckpt, who = HOLDS.get(run.protocol, (True, "all"))
        if stops_in_ckpt:
            _checkpoint_holds(run, events, out)
        _recovery_holds(run, events, node_events, who, out)
    for n in out:  # drawing order: by state rank, so that down is drawn over everything
        out[n].sort(key=lambda i: (STATES.index(i[2]), i[0]))
    return out


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


def _checkpoint_holds(run, events, out):
    for n, b, e in _checkpoint_windows(run, events):
        out[n].append((b, e, "ckpt"))


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


def _pauses(run, events, node_events, out):
    windows = collections.defaultdict(list)
    for n, b, e in _checkpoint_windows(run, events):
        windows[n].append((b, e))
    for n, ne in node_events.items():
        for t in ne["app_pause"]:
            end = _first_after(ne["app_resume"], t, run.t_end)
            in_ckpt = any(b <= t <= e for b, e in windows[n])
            out[n].append((t, end, "ckpt" if in_ckpt else "recovering"))
