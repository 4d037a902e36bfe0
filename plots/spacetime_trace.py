"""A ckptsim trace (docs/TRACE.md) read into what plots/spacetime.py draws: application messages
matched send -> delivery, checkpoints with their fate, failures, rollbacks grouped by failure.
The processes' states over time are in spacetime_states.py."""
import collections
import json
import os
import re


class TraceError(Exception):
    """Bad input: the message names the file (and line)."""


def read_events(path):
    if not os.path.isfile(path):
        raise TraceError("%s: no such file" % path)
    events = []
    try:
        with open(path, encoding="utf-8") as f:
            for i, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    e = json.loads(line)
                except ValueError as x:
                    raise TraceError("%s:%d: not a JSON line (%s)" % (path, i, x))
                if not (isinstance(e, dict) and isinstance(e.get("t"), (int, float)) and isinstance(e.get("ev"), str)):
                    raise TraceError("%s:%d: not a trace event (an object with a number \"t\" and a string \"ev\")" %
                                     (path, i))
                events.append(e)
    except UnicodeDecodeError:
        raise TraceError("%s: not a text file (JSON lines expected)" % path)
    if not events or events[0]["ev"] != "run_start":
        raise TraceError("%s: the first event is not run_start: not a ckptsim trace (docs/TRACE.md)" % path)
    start = events[0]
    for k in ("nodes", "clusters"):
        if not isinstance(start.get(k), int) or start[k] < 1:
            raise TraceError("%s:1: run_start has no positive integer \"%s\"" % (path, k))
    return events


class Msg:
    """One transfer of an application message: a send (or a protocol's re-send) to its delivery."""
    __slots__ = ("mid", "src", "dst", "t_send", "t_recv", "t_deliver", "label", "replayed", "forced", "logged",
                 "dropped", "replay_delivery", "resent")

    def __init__(self, e, replayed):
        self.mid, self.src, self.dst, self.t_send = e["msg"], e["src"], e["dst"], e["t"]
        self.t_recv = self.t_deliver = None
        self.label = e.get("label")
        self.replayed = replayed  # a `replay`: re-sent from a log
        self.forced = self.logged = self.replay_delivery = False
        self.resent = False  # the application sends it again: a re-execution after a rollback
        self.dropped = None  # why it was never delivered, when the trace says


class Ckpt:
    """A process' checkpoint: where its state was saved, and what became of it."""
    __slots__ = ("node", "t", "number", "kind", "status", "text", "t_end")

    def __init__(self, node, t, number, kind="unforced", status="pending"):
        self.node, self.t, self.number, self.kind, self.status = node, t, number, kind, status
        self.text = None  # a label (HC3I: the DDV stored with the CLC)
        self.t_end = None  # commit or abort date


RE_FAILURE = re.compile(r"failure (\d+)")

# Event kinds this module reads (the states module reads its own; spacetime.py reports the rest).
USED = {"run_start", "run_end", "app_send", "replay", "app_receive", "app_deliver", "app_redeliver",
        "app_send_withheld", "clc_forced", "log_ack", "orphan_dropped", "tg_duplicate", "replay_deliver",
        "ckpt_begin", "ckpt_save", "ckpt_commit", "ckpt_abort", "failure", "failure_deferred", "failure_ignored",
        "rollback", "orphan_rollback", "recovery_done", "process_moved", "stuck", "unrecoverable", "violation",
        "link_down", "link_up"}

RE_WAN = re.compile(r"wan_(\d+)_(\d+)$")


class Run:
    """Everything a diagram draws, in simulated dates, for the processes 0 .. nodes-1."""

    def __init__(self, events, layout):
        start = events[0]
        self.protocol, self.seed = start.get("protocol", "?"), start.get("seed")
        self.nodes, self.layout = start["nodes"], layout
        self.t_end = max(e["t"] for e in events)
        self.msgs, self.ckpts, self.unit_ckpts = [], [], []
        self.failures, self.rollbacks, self.marks, self.notes = [], [], [], []
        self.counts = collections.Counter(e["ev"] for e in events)
        self._messages(events)
        self._checkpoints(events)
        self._failures_and_rollbacks(events)
        self._link_outages(events)

    # ---- messages ----
    def _messages(self, events):
        pending = collections.defaultdict(list)  # message id -> transfers not delivered yet
        replay_next = set()  # msglog: the node's next delivery replays a logged determinant
        sent = set()

        def transfer(mid, dst):
            cands = [m for m in pending.get(mid, ()) if m.dst == dst]
            got = [m for m in cands if m.t_recv is not None]
            # The one that arrived; else the latest send (an older one was lost or undone).
            return (got[0] if got else cands[-1]) if cands else None

        def last_sent(mid, dst):
            for m in reversed(self.msgs):
                if m.mid == mid and m.dst == dst:
                    return m
            return None

        for e in events:
            ev, n = e["ev"], e.get("node")
            if ev in ("app_send", "replay"):
                m = Msg(e, ev == "replay")
                m.resent = ev == "app_send" and m.mid in sent
                sent.add(m.mid)
                pending[m.mid].append(m)
                self.msgs.append(m)
            elif ev == "app_receive":
                m = next((m for m in pending.get(e["msg"], ()) if m.dst == n and m.t_recv is None), None)
                if m:
                    m.t_recv = e["t"]
            elif ev == "app_deliver":
                m = transfer(e["msg"], n)
                if m is None:  # a delivery whose send the trace does not have
                    self.marks.append((e["t"], n, "unmatched", e.get("label") or e["msg"]))
                    continue
                m.t_deliver = e["t"]
                m.replay_delivery = n in replay_next
                replay_next.discard(n)
                pending[m.mid].remove(m)
            elif ev == "replay_deliver":
                replay_next.add(n)
            elif ev == "clc_forced":
                mid = "%d#%d" % (e["src"], e["seq"])
                m = transfer(mid, n) or last_sent(mid, n)
                if m:
                    m.forced = True
            elif ev == "log_ack":
                m = last_sent("%d#%d" % (n, e["seq"]), e["dst"])
                if m:
                    m.logged = True
            elif ev in ("orphan_dropped", "tg_duplicate"):
                mid = "%d#%d" % (e["src"], e["seq"] if ev == "orphan_dropped" else e["tag"])
                m = transfer(mid, n)
                if m:
                    m.dropped = "orphan" if ev == "orphan_dropped" else "duplicate"
                    m.t_recv = m.t_recv if m.t_recv is not None else e["t"]
                    pending[mid].remove(m)
            elif ev == "app_redeliver":
                self.marks.append((e["t"], n, "redeliver", e.get("label")))
            elif ev == "app_send_withheld":
                self.marks.append((e["t"], n, "withheld", e.get("label")))

    # ---- checkpoints ----
    def members(self, e):
        """The processes a checkpoint event (begin, commit, abort) is about."""
        unit, n, lay = e.get("unit"), e.get("node"), self.layout
        if e.get("kind") == "process" and isinstance(unit, int):
            return [unit]
        if e.get("kind") == "cluster" and isinstance(unit, int):
            return lay.cluster_nodes(unit)
        if self.protocol == "hc3i" and isinstance(e.get("cluster"), int):
            return lay.cluster_nodes(e["cluster"])
        if unit == "federation":
            return list(range(self.nodes))
        if isinstance(unit, str) and unit in lay.names:
            return lay.cluster_nodes(lay.names.index(unit))
        if isinstance(n, int) and n < self.nodes:
            return [n]
        return list(range(self.nodes))

    def _checkpoints(self, events):
        saves = collections.defaultdict(list)  # (node, number) -> checkpoints in date order
        forced_begin = {}
        for e in events:
            ev = e["ev"]
            if ev == "ckpt_save" and e.get("node", self.nodes) < self.nodes:
                forced = forced_begin.get((e["node"], e["number"]))
                c = Ckpt(e["node"], e["t"], e["number"], "forced" if forced else "unforced")
                saves[(c.node, c.number)].append(c)
                self.ckpts.append(c)
            elif ev == "ckpt_begin" and e.get("forced"):
                for n in self.members(e):
                    forced_begin[(n, e["number"])] = True
            elif ev in ("ckpt_commit", "ckpt_abort"):
                self._unit_ckpt(e)
                for n in self.members(e):
                    # The newest save of that number not settled yet (numbers come again after a rollback).
                    candidates = reversed(saves.get((n, e["number"]), ()))
                    c = next((c for c in candidates if c.t <= e["t"] and c.t_end is None), None)
                    if c is None:
                        continue
                    c.t_end = e["t"]
                    c.status = "committed" if ev == "ckpt_commit" else "aborted"
                    if e.get("initial"):
                        c.kind = "initial"
                    elif e.get("forced"):
                        c.kind = "forced"
                    if isinstance(e.get("ddv"), list) and n == e.get("node"):
                        c.text = "(%s)" % ",".join(str(v) for v in e["ddv"])
                forced_begin.pop((e.get("node"), e["number"]), None)
        initial = {c.node for c in self.ckpts if c.kind == "initial"}
        for n in range(self.nodes):  # the initial state, restorable like a checkpoint (number 0)
            if n not in initial:
                self.ckpts.append(Ckpt(n, 0.0, 0, "initial", "committed"))

    def _unit_ckpt(self, e):
        """The aggregated view's marks: one per cluster a unit-level checkpoint covers, a tick per
        process checkpoint (level-0 events name the unit's decision once)."""
        kind = "initial" if e.get("initial") else ("forced" if e.get("forced") else "unforced")
        status = "committed" if e["ev"] == "ckpt_commit" else "aborted"
        if e.get("unit") == "process" or e.get("kind") == "process":
            for n in self.members(e):
                self.unit_ckpts.append((e["t"], None, n, kind, status))
        elif "duration" in e or "sn" in e or e.get("kind") == "cluster" or e.get("node", self.nodes) >= self.nodes:
            clusters = sorted({self.layout.cluster[n] for n in self.members(e)})
            for c in clusters:
                self.unit_ckpts.append((e["t"], c, None, kind, status))

    # ---- failures, rollbacks ----
    def _failures_and_rollbacks(self, events):
        open_failures, last_failure, orphan_cause = [], 0, {}
        for e in events:
            ev, n, t = e["ev"], e.get("node"), e["t"]
            if ev == "failure":
                self.failures.append((t, n, "failure", e.get("failure")))
                open_failures.append(e.get("failure"))
                last_failure = e.get("failure", last_failure)
            elif ev in ("failure_deferred", "failure_ignored"):
                self.failures.append((t, n, ev[8:], None))
            elif ev == "recovery_done" and e.get("failure") in open_failures:
                open_failures.remove(e["failure"])
            elif ev == "orphan_rollback":
                orphan_cause[n] = e.get("failure")
                if e.get("checkpoint") is None:  # only its replay is cut: no rollback event follows
                    self.marks.append((t, n, "replay_cut", None))
            elif ev == "rollback":
                m = RE_FAILURE.search(e.get("reason", ""))
                if m:
                    group = int(m.group(1))
                else:  # the orphan's cause, else the recovery under way, else the last failure
                    group = orphan_cause.pop(n, None) or (open_failures[-1] if open_failures else last_failure)
                self.rollbacks.append((t, n, e["to_date"], e.get("lost", 0.0), group))
            elif ev == "process_moved":
                self.marks.append((t, n, "moved", "on %s" % e.get("to")))
            elif ev in ("stuck", "unrecoverable", "violation"):
                self.notes.append((t, ev, e.get("what") or e.get("why") or e.get("reason") or ""))
            elif ev == "run_end" and "reason" in e:
                self.notes.append((t, "end", e["reason"]))

    def _link_outages(self, events):
        """(link, down date, up date or None while still down at the end) per outage of a link."""
        self.link_outages, down = [], {}
        for e in events:
            if e["ev"] == "link_down":
                down[e["link"]] = e["t"]
            elif e["ev"] == "link_up" and e["link"] in down:
                self.link_outages.append((e["link"], down.pop(e["link"]), e["t"]))
        self.link_outages += [(link, t, None) for link, t in down.items()]
        self.link_outages.sort(key=lambda o: (o[1], o[0]))

    def link_nodes(self, link):
        """The processes a link's failure cuts off, as far as its name tells (docs/INPUTS.md, "Link
        failures"): a WAN link wan_i_j the nodes of clusters i and j, a node's SAN link <host>_link
        that node; None for another link (drawn across every process)."""
        lay = self.layout
        m = RE_WAN.match(link)
        if m and max(int(m.group(1)), int(m.group(2))) < len(lay.names):
            return set(lay.cluster_nodes(int(m.group(1)))) | set(lay.cluster_nodes(int(m.group(2))))
        if link.endswith("_link"):
            n = lay.node_index(link[:-len("_link")])
            if n is not None and 0 <= n < self.nodes:
                return {n}
        return None

    def recovery_lines(self):
        """Per failure: {node: restored date} (a node's last rollback of that recovery) and the date
        of the recovery's last rollback."""
        lines = collections.OrderedDict()
        for t, n, to, _, group in self.rollbacks:
            line, _ = lines.get(group, ({}, 0.0))
            line[n] = to
            lines[group] = (line, t)
        return lines
