"""Which cluster each process of a trace belongs to, and its host name, for plots/spacetime.py.

A trace's `run_start` gives only the numbers of nodes and clusters (docs/TRACE.md). Nodes are global
indices, cluster after cluster, so the layout is fixed by each cluster's first node. In order of
preference it comes from:
1. `--topology FILE` (a topology JSON whose clusters give `nodes`): exact, host names "<cluster>-<i>";
2. `run_start` fields `cluster_names`, `cluster_sizes` and `hosts`, if a later engine writes them;
3. the events: a `failure` names its node's host and cluster; HC3I's events name their node's
   cluster and the cluster's name (`unit`); independent checkpointing's cluster units name theirs.
   A host "<name>-<i>" of node n in cluster c puts the first node of c at n - i. Cluster
   boundaries no event pins down are guessed (equal shares within the known bounds) and listed
   in `guessed`, which the script reports.
"""
import json
import re

from spacetime_trace import TraceError

HOST_RE = re.compile(r"^(.*)-(\d+)$")


class Layout:
    """Clusters as (name, first node, size); per node its cluster index and label."""

    def __init__(self, names, firsts, nodes, source, guessed=(), hosts=None):
        self.names = list(names)
        self.firsts = list(firsts)
        self.num_nodes = nodes
        self.source = source
        self.guessed = sorted(guessed)  # clusters whose first node is a guess
        ends = self.firsts[1:] + [nodes]
        self.sizes = [end - first for first, end in zip(self.firsts, ends)]
        self.cluster = []
        for c, size in enumerate(self.sizes):
            self.cluster += [c] * size
        self.hosts = hosts

    def cluster_nodes(self, c):
        return list(range(self.firsts[c], self.firsts[c] + self.sizes[c]))

    def label(self, n):
        if self.hosts:
            return self.hosts[n]
        return "n%d" % n

    def cluster_index(self, ref):
        """A cluster by name or index given as text; None when unknown."""
        if ref in self.names:
            return self.names.index(ref)
        if ref.isdigit() and int(ref) < len(self.names):
            return int(ref)
        return None

    def node_index(self, ref):
        """A node by host name or global index given as text; None when unknown."""
        if self.hosts and ref in self.hosts:
            return self.hosts.index(ref)
        if ref.isdigit() and int(ref) < self.num_nodes:
            return int(ref)
        return None


def from_topology(path, nodes, clusters):
    try:
        with open(path) as f:
            topo = json.load(f)
        specs = [(c["name"], int(c["nodes"])) for c in topo["clusters"]]
    except FileNotFoundError:
        raise TraceError("%s: no such file (--topology)" % path)
    except (ValueError, KeyError, TypeError) as e:
        raise TraceError("%s: not a topology whose clusters give \"name\" and \"nodes\" (%s)" % (path, e))
    if len(specs) != clusters or sum(s for _, s in specs) != nodes:
        raise TraceError("%s: %d clusters, %d nodes; the trace has %d clusters, %d nodes" %
                         (path, len(specs), sum(s for _, s in specs), clusters, nodes))
    firsts, hosts, first = [], [], 0
    for name, size in specs:
        firsts.append(first)
        hosts += ["%s-%d" % (name, i) for i in range(size)]
        first += size
    return Layout([n for n, _ in specs], firsts, nodes, "topology " + path, hosts=hosts)


def from_run_start(start):
    names, sizes, hosts = start.get("cluster_names"), start.get("cluster_sizes"), start.get("hosts")
    if not (isinstance(names, list) and isinstance(sizes, list)) or sum(sizes) != start["nodes"]:
        return None
    firsts = [sum(sizes[:c]) for c in range(len(sizes))]
    return Layout(names, firsts, start["nodes"], "run_start", hosts=hosts if isinstance(hosts, list) else None)


def _anchors(events, nodes):
    """(node -> cluster index, cluster -> name, cluster -> first node, host of node) the events pin down."""
    cluster_of, names, firsts, hosts = {}, {}, {}, {}
    cluster_units = any(e["ev"] == "ckpt_commit" and e.get("kind") == "cluster" for e in events)
    for e in events:
        n, c = e.get("node"), e.get("cluster")
        if not isinstance(n, int) or n >= nodes:
            continue
        if e["ev"] == "failure" and isinstance(c, int):
            cluster_of[n] = c
            hosts[n] = e.get("host")
            m = HOST_RE.match(e.get("host") or "")
            if m:
                names.setdefault(c, m.group(1))
                firsts.setdefault(c, n - int(m.group(2)))
        elif isinstance(c, int) and e["ev"] in ("ckpt_begin", "ckpt_commit", "cluster_rollback", "clc_forced", "alert"):
            cluster_of[n] = c  # HC3I: the node's own cluster
            if e["ev"] in ("ckpt_begin", "ckpt_commit") and isinstance(e.get("unit"), str):
                names.setdefault(c, e["unit"])
                firsts.setdefault(c, n)  # the CLC's leader is its cluster's first node (protocols/hc3i/node.hpp)
        elif cluster_units and e["ev"] == "ckpt_begin" and isinstance(e.get("unit"), int):
            cluster_of[n] = e["unit"]  # independent, unit=cluster: each member names its cluster
    return cluster_of, names, firsts, hosts


def from_events(events, nodes, clusters):
    cluster_of, names, firsts, hosts = _anchors(events, nodes)
    firsts = {c: f for c, f in firsts.items() if 0 <= f < nodes}
    firsts[0] = 0
    guessed = set()
    out = [0]
    for c in range(1, clusters):
        low = max([n + 1 for n, k in cluster_of.items() if k < c] + [out[-1] + 1])
        high = min([n for n, k in cluster_of.items() if k >= c] + [nodes - (clusters - c)])
        if c in firsts and low <= firsts[c] <= high:
            out.append(firsts[c])
            continue
        if low == high:
            out.append(low)
            continue
        guessed.add(c)  # no event pins it: an equal share, kept within what the events allow
        out.append(min(max(round(nodes * c / clusters), low), high))
    layout_names = [names.get(c, "cluster %d" % c) for c in range(clusters)]
    layout = Layout(layout_names, out, nodes, "trace events", guessed)
    # Host names "<cluster>-<i>" (a topology's) when every failed host follows that rule.
    if names and len(names) == clusters and not guessed and all(
            h == "%s-%d" % (layout_names[layout.cluster[n]], n - out[layout.cluster[n]]) for n, h in hosts.items()):
        layout.hosts = ["%s-%d" % (layout_names[layout.cluster[n]], n - out[layout.cluster[n]]) for n in range(nodes)]
    return layout


def build(events, topology=None):
    start = events[0]
    nodes, clusters = start["nodes"], start["clusters"]
    if topology:
        return from_topology(topology, nodes, clusters)
    return from_run_start(start) or from_events(events, nodes, clusters)
