#!/usr/bin/python3
"""plots/spacetime.py on the small traces committed under results/traces/: every view and option
draws a non-empty image (PNG, SVG, PDF), the report of event kinds not drawn has the traces' exact
counts, bad input exits with status 2 and writes nothing, and what the diagram is drawn from (the
matched messages, the recovery line, the layout, the states) is what the worked examples' inputs
say.

    /usr/bin/python3 tests/plots/test_spacetime.py OUTDIR [--ckptsim BIN]   # images go to OUTDIR (ctest: the build
                                                                             # folder); with BIN, runs traced at
                                                                             # levels 1 and 2 are compared too
"""
import json
import os
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SCRIPT = os.path.join(ROOT, "plots", "spacetime.py")
TRACES = os.path.join(ROOT, "results", "traces")
sys.path.insert(0, os.path.join(ROOT, "plots"))
import spacetime_aggregate  # noqa: E402
import spacetime_layout  # noqa: E402
import spacetime_states  # noqa: E402
import spacetime_trace  # noqa: E402

MAGIC = {".png": b"\x89PNG\r\n\x1a\n", ".svg": b"<?xml", ".pdf": b"%PDF"}
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def draw(trace, out, *options):
    """Runs the script; returns (exit status, stderr)."""
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run([sys.executable, SCRIPT, trace, "-o", out] + list(options), capture_output=True, text=True)
    return p.returncode, p.stderr


def image_case(outdir, trace, name, options, expect_stderr):
    out = os.path.join(outdir, name)
    status, err = draw(os.path.join(TRACES, trace), out, *options)
    check(status == 0, "%s: exit status %d (%s)" % (name, status, err.strip()))
    with open(out, "rb") if os.path.exists(out) else open(os.devnull, "rb") as f:
        head = f.read(16)
    size = os.path.getsize(out) if os.path.exists(out) else 0
    check(size > 5000, "%s: %d bytes: missing or empty" % (name, size))
    check(head.startswith(MAGIC[os.path.splitext(name)[1]]), "%s: not a %s file" % (name, os.path.splitext(name)[1]))
    for text in expect_stderr:
        check(text in err, "%s: stderr lacks %r:\n%s" % (name, text, err))
    return err


def images(outdir):
    image_case(outdir, "hc3i-figure4.jsonl", "figure4.png", ["--control", "ALERT"],
               ["exact view of 6 processes, 0 s to 75.9999 s",
                "not drawn: log_search 12, timer 7, alert 6, ckpt_replicate 5, alert_sent 3, cluster_rollback 3, "
                "ckpt_load 1 (37 events)"])
    err = image_case(outdir, "hc3i-figure4.jsonl", "figure4-aggregated.svg", ["--aggregate"],
                     ["aggregated view of 6 processes", "ctrl_receive 109, ctrl_send 109"])
    check("ALERT" not in err, "without --control, control messages are reported, not drawn")
    image_case(outdir, "cck-failure-example.jsonl", "cck-window-subset.png",
               ["--from", "4.498", "--to", "4.523", "--nodes", "c0-1,2-3"],
               ["exact view of 3 processes, 4.498 s to 4.523 s",
                "not drawn: ctrl_receive 173, ctrl_send 173, app_point 55, cck_plan 5, timer 5, cck_restart 1, "
                "ckpt_load 1, rollback_order 1 (414 events)"])
    image_case(outdir, "independent-domino.jsonl", "domino.pdf", ["--to", "30s", "--clusters", "p"],
               ["exact view of 2 processes, 0 s to 30 s",
                "not drawn: ctrl_receive 18, ctrl_send 18, timer 14, recovery_line 1 (51 events)"])
    image_case(outdir, "msglog-optimistic-cascade.jsonl", "cascade-aggregated.png", ["--aggregate", "--from", "1"],
               ["aggregated view of 4 processes, 1 s to"])


def bad_input(outdir):
    out = os.path.join(outdir, "bad.png")
    good = os.path.join(TRACES, "independent-domino.jsonl")
    cases = {
        "missing.jsonl: no such file": (os.path.join(outdir, "missing.jsonl"), []),
        "not-json.jsonl:2: not a JSON line": ("not-json.jsonl", []),
        "no-start.jsonl: the first event is not run_start": ("no-start.jsonl", []),
        "--nodes: no node 'p-7'": (good, ["--nodes", "p-7"]),
        "--clusters: no cluster 'q'": (good, ["--clusters", "q"]),
        "empty window": (good, ["--from", "20", "--to", "10"]),
        "the output must end in .png, .svg, .pdf": (good, ["-o", os.path.join(outdir, "bad.gif")]),
        "no-field.jsonl: an event lacks a field": ("no-field.jsonl", []),
    }
    with open(os.path.join(outdir, "no-field.jsonl"), "w") as f:
        f.write('{"t":0.0,"ev":"run_start","protocol":"none","seed":1,"nodes":1,"clusters":1}\n'
                '{"t":1.0,"ev":"app_send","node":0}\n')
    with open(os.path.join(outdir, "not-json.jsonl"), "w") as f:
        f.write('{"t":0.0,"ev":"run_start","protocol":"none","seed":1,"nodes":1,"clusters":1}\nnot json\n')
    with open(os.path.join(outdir, "no-start.jsonl"), "w") as f:
        f.write('{"t":0.0,"ev":"failure","node":0}\n')
    for text, (trace, options) in cases.items():
        if not os.path.isabs(trace):
            trace = os.path.join(outdir, trace)
        status, err = draw(trace, out, *options)
        check(status == 2, "bad input %r: exit status %d, not 2" % (text, status))
        check(text in err, "bad input %r: stderr is %r" % (text, err))
        check(not os.path.exists(out), "bad input %r: an image was written" % text)


def every_kind_drawn(outdir):
    """A trace whose every event kind is drawn says so; the engine's state events (level 2) give the
    bands: here node 1 computes, waits, is blocked, computes and is finished."""
    trace = os.path.join(outdir, "states.jsonl")
    with open(trace, "w") as f:
        f.write('{"t":0.0,"ev":"run_start","protocol":"none","seed":1,"nodes":2,"clusters":1}\n'
                '{"t":0.0,"ev":"state","node":0,"state":"computing"}\n'
                '{"t":0.0,"ev":"state","node":1,"state":"computing"}\n'
                '{"t":1.0,"ev":"app_send","node":0,"msg":"0#0","src":0,"dst":1,"size":1024.0}\n'
                '{"t":1.0,"ev":"state","node":1,"state":"waiting"}\n'
                '{"t":1.5,"ev":"app_deliver","node":1,"msg":"0#0","src":0,"dst":1,"size":1024.0}\n'
                '{"t":2.0,"ev":"state","node":1,"state":"blocked"}\n'
                '{"t":3.0,"ev":"state","node":1,"state":"computing"}\n'
                '{"t":4.0,"ev":"app_finished","node":0,"work":4.0}\n'
                '{"t":4.0,"ev":"state","node":0,"state":"finished"}\n'
                '{"t":3.5,"ev":"app_finished","node":1,"work":3.0}\n'
                '{"t":3.5,"ev":"state","node":1,"state":"finished"}\n'
                '{"t":4.0,"ev":"run_end","makespan":4.0}\n')
    status, err = draw(trace, os.path.join(outdir, "states.svg"))
    check(status == 0 and "every event kind of the trace is drawn" in err, "all kinds drawn: %d %r" % (status, err))
    events = spacetime_trace.read_events(trace)
    run = spacetime_trace.Run(events, spacetime_layout.build(events))
    states = spacetime_states.intervals(run, events)
    check(sorted(states[1]) == [(0.0, 1.0, "run"), (1.0, 2.0, "waiting"), (2.0, 3.0, "blocked"), (3.0, 3.5, "run")],
          "node 1's bands from its state events: %s" % states[1])
    with open(trace, "a") as f:
        f.write('{"t":4.0,"ev":"state","node":1,"state":"dancing"}\n')
    status, err = draw(trace, os.path.join(outdir, "states.svg"))
    check(status == 2 and "unknown state 'dancing'" in err, "an unknown state: exit 2 (%d %r)" % (status, err))


def link_outages(outdir):
    """Link failures (link_down / link_up) are drawn over the processes they cut off: a WAN link
    wan_i_j over clusters i and j, a node's SAN link over that node, an outage still under way at
    the end up to the end."""
    trace = os.path.join(outdir, "links.jsonl")
    events = [{"t": 0.0, "ev": "run_start", "protocol": "none", "seed": 1, "nodes": 6, "clusters": 3,
               "cluster_names": ["a", "b", "c"], "cluster_sizes": [2, 2, 2],
               "hosts": ["a-0", "a-1", "b-0", "b-1", "c-0", "c-1"], "services": []},
              {"t": 1.0, "ev": "link_down", "link": "wan_0_2"}, {"t": 2.0, "ev": "link_down", "link": "b-1_link"},
              {"t": 3.0, "ev": "link_up", "link": "wan_0_2", "down": 2.0},
              {"t": 4.0, "ev": "link_down", "link": "controller_0"}, {"t": 6.0, "ev": "run_end", "makespan": 6.0}]
    with open(trace, "w") as f:
        f.writelines(json.dumps(e) + "\n" for e in events)
    for view in ("--exact", "--aggregate"):
        status, err = draw(trace, os.path.join(outdir, "links%s.png" % view), view)
        check(status == 0 and "every event kind of the trace is drawn" in err, "links %s: %d %r" % (view, status, err))
    events = spacetime_trace.read_events(trace)
    run = spacetime_trace.Run(events, spacetime_layout.build(events))
    check(run.link_outages == [("wan_0_2", 1.0, 3.0), ("b-1_link", 2.0, None), ("controller_0", 4.0, None)],
          "link outages: %s" % run.link_outages)
    check(run.link_nodes("wan_0_2") == {0, 1, 4, 5}, "wan_0_2 cuts clusters a and c: %s" % run.link_nodes("wan_0_2"))
    check(run.link_nodes("b-1_link") == {3}, "b-1's SAN link cuts b-1: %s" % run.link_nodes("b-1_link"))
    check(run.link_nodes("controller_0") is None, "another link: drawn across every process")


def model():
    """What the figure 4 diagram is drawn from, against workloads/hc3i/figure4/application.json."""
    events = spacetime_trace.read_events(os.path.join(TRACES, "hc3i-figure4.jsonl"))
    layout = spacetime_layout.build(events)
    check(layout.names == ["cluster1", "cluster2", "cluster3"] and layout.firsts == [0, 2, 4] and not layout.guessed,
          "figure 4 layout from the events: %s %s guessed %s" % (layout.names, layout.firsts, layout.guessed))
    check(layout.hosts == ["cluster1-0", "cluster1-1", "cluster2-0", "cluster2-1", "cluster3-0", "cluster3-1"],
          "figure 4 host names: %s" % layout.hosts)
    run = spacetime_trace.Run(events, layout)
    # 7 sends (m1 to m5, m3 and m5 again after the rollbacks) and m4 re-sent from cluster1-1's log.
    check(len(run.msgs) == 8 and all(m.t_deliver is not None for m in run.msgs), "8 transfers, all delivered")
    check(sorted(m.label for m in run.msgs if m.forced) == ["m1", "m3", "m3", "m4", "m4", "m5", "m5"],
          "forced: m1, m3 and m5 twice (original and re-execution), m4 twice (original and replay)")
    check([m.label for m in run.msgs if m.replayed] == ["m4"], "replayed: m4")
    check(sorted(m.label for m in run.msgs if m.resent) == ["m3", "m5"], "re-executed sends: m3, m5")
    lines = run.recovery_lines()
    line, _ = lines[1]
    # Clusters roll back to CLC 3: cluster1's (30 s, forced by m5), cluster2's (25 s), cluster3's (26 s, forced by m3).
    got = {n: round(t) for n, t in line.items()}
    check(list(lines) == [1] and got == {0: 30, 1: 30, 2: 25, 3: 25, 4: 26, 5: 26}, "recovery line: %s" % got)
    kinds = sorted((c.node, c.number, c.kind, c.status) for c in run.ckpts if c.node == 4 and c.t < 35)
    check(kinds == [(4, 1, "initial", "committed"), (4, 2, "unforced", "committed"), (4, 3, "forced", "committed"),
                    (4, 4, "forced", "committed")], "cluster3's CLCs before the failure: %s" % kinds)
    states = spacetime_states.intervals(run, events)
    down = [(round(a), round(b)) for a, b, s in states[2] if s == "down"]
    check(down == [(35, 40)], "cluster2-0 down from its failure to its restart: %s" % down)
    held = [(round(a), round(b)) for a, b, s in states[3] if s == "recovering"]
    check(held == [(36, 41)], "cluster2-1 held from the failure notice to cluster2-0's return: %s" % held)
    check(not [s for s in states[0] if s[2] == "recovering"], "HC3I holds only the failed cluster")
    # Without the state events (a level-1 trace) the bands derived from HC3I's rules are the
    # engine's: the leaders' exactly, the members' within the 11 us a CLC message takes.
    level1 = [e for e in events if e["ev"] != "state"]
    derived = spacetime_states.intervals(spacetime_trace.Run(level1, layout), level1)
    for n in range(layout.num_nodes):
        engine, guess = spacetime_aggregate.flatten(states[n]), spacetime_aggregate.flatten(derived[n])
        same = len(engine) == len(guess) and all(
            s == g and abs(a - c) <= 2e-5 and abs(b - d) <= 2e-5 for (a, b, s), (c, d, g) in zip(engine, guess))
        check(same, "node %d: derived bands %s, the engine's %s" % (n, guess, engine))


def legend_colour(handle):
    """The colour a legend entry shows: a patch's face (its edge when hollow), a line's colour, a
    marker's face (its edge when hollow or white)."""
    from matplotlib.colors import to_hex
    if not hasattr(handle, "get_marker"):  # a patch
        face = handle.get_facecolor()
        return to_hex(face if face[3] > 0 else handle.get_edgecolor())
    if handle.get_linestyle() in ("None", "none", "") and handle.get_marker() not in (None, "None", "none", ""):
        face = handle.get_markerfacecolor()
        hollow = face in ("none", "None") or to_hex(face) == "#ffffff"  # white-faced: the edge is the colour
        return to_hex(handle.get_markeredgecolor() if hollow else face)
    return to_hex(handle.get_color())


def distinct_colours():
    """Distinct meanings have distinct colours (issue 35: red marked both a recovery line and the
    messages that forced a checkpoint; blue a recovery line, inter-cluster messages and
    recovering): over the legends of every committed trace's exact view, no colour names two
    entries, but black for the line-style entries (dashed, dash-dot)."""
    import matplotlib.pyplot as plt
    import spacetime_exact
    import spacetime_style
    meanings = {}
    for name in sorted(os.listdir(TRACES)):
        if not name.endswith(".jsonl"):
            continue
        events = spacetime_trace.read_events(os.path.join(TRACES, name))
        layout = spacetime_layout.build(events)
        run = spacetime_trace.Run(events, layout)
        states = spacetime_states.intervals(run, events)
        fig, ax = plt.subplots()
        lanes = spacetime_exact.Lanes(layout, list(range(len(layout.cluster))))
        legend, _ = spacetime_exact.draw(ax, run, states, lanes, 0.0, run.t_end, None)
        plt.close(fig)
        handles = list(legend.values()) + spacetime_style.state_handles(spacetime_style.STATES)
        for h in handles:
            c = legend_colour(h)
            if c != "#000000":
                meanings.setdefault(c, set()).add(h.get_label())
    for c, labels in sorted(meanings.items()):
        check(len(labels) == 1, "colour %s means several things in the legend: %s" % (c, sorted(labels)))
    check(len(meanings) >= 15, "only %d legend colours seen: the traces no longer draw what this checks" % len(meanings))


def never_delivered_by_level(ckptsim, outdir):
    """The same run traced at level 1 and at level 2 shows the same messages never delivered (the
    grey crosses): the worked examples and runs with failures under every protocol that re-sends."""
    sys.path.insert(0, os.path.join(ROOT, "plots"))
    import spacetime_examples
    runs = {name: args for name, (args, _, _) in spacetime_examples.EXAMPLES.items()}
    for protocol in ("coordinated", "hc3i", "independent", "msglog"):
        runs["%s-failures" % protocol] = ["--protocol", protocol, "--seed", "3", "--set",
                                          "application/total_time=3h", "--set", "topology/mtbf=1h"]
    seen = 0
    for name, args in sorted(runs.items()):
        marks = []
        for level in (1, 2):
            trace = os.path.join(outdir, "%s-level%d.jsonl" % (name, level))
            subprocess.run([ckptsim, "run"] + args + ["--event-trace", trace, "--event-trace-level", str(level), "-q"],
                           cwd=ROOT, check=True)
            events = spacetime_trace.read_events(trace)
            run = spacetime_trace.Run(events, spacetime_layout.build(events))
            marks.append(sorted((m.mid, m.dst, round(m.t_send, 6)) for m in run.msgs if m.t_deliver is None))
        seen += len(marks[0])
        check(marks[0] == marks[1], "%s: never delivered, level 1: %s; level 2: %s" % (name, marks[0], marks[1]))
    check(seen > 0, "no run had a message never delivered: the comparison checks nothing")


def main():
    args = sys.argv[1:]
    ckptsim = None
    if len(args) == 3 and args[1] == "--ckptsim":
        ckptsim = args[2]
    elif len(args) != 1:
        sys.exit(__doc__)
    outdir = args[0]
    os.makedirs(outdir, exist_ok=True)
    images(outdir)
    bad_input(outdir)
    every_kind_drawn(outdir)
    link_outages(outdir)
    model()
    distinct_colours()
    if ckptsim:
        never_delivered_by_level(ckptsim, outdir)
    print("%d failures" % len(failures) if failures else "test_spacetime: all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
