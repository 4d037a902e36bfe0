#!/usr/bin/env python3
"""bench_scale: wall time and peak memory of ckptsim at several scales.

Measures, one ckptsim process per case:
  default          the embedded default scenario as shipped (2 x 100 nodes, 10 h, MTBF 10 h), once
                   per seed of --default-seeds
  default-nofail   the same without failures (topology/mtbf=inf)
  big-nofail       16 clusters x 1,000 nodes, 24 h of computation, no failure
  big-fail         the same with a federation MTBF of 10 h (protocol none restarts everything from
                   scratch at each failure: about 100 simulated hours are needed on average, so
                   this case is always cut by --end)
  huge-nofail      100 clusters x 1,000 nodes (100,000 processes), as big-nofail (issue 19: no
                   option needed, the engine sizes SimGrid's contexts), probed and cut like it
  hc3i-4x1000      protocol hc3i, 4 clusters x 1,000 nodes of the large federation, no failure,
  hc3i-8x1000      1 simulated hour (--end 1h): issue 19's hc3i figures
  hc3i-storm       protocol hc3i, 100 clusters x 100 nodes of the same federation, checkpoints every
                   30 min and GC every 2 h, no failure: at 100 clusters nearly every inter-cluster
                   message forces a CLC (one every ~20 s per cluster), and nothing is collected
                   before 2 h. Run to 10 and to 20 simulated minutes: the growth of peak memory over
                   the growth of stored checkpoints is the memory per node and stored CLC (issue 19)
The cases run protocol "none" unless named after another.
For each: wall time, CPU time (user + system: less sensitive than wall time to other load on
the machine), peak resident memory of the child (ru_maxrss from wait4: the kernel's
VmHWM of that process, the figure `/usr/bin/time -v` prints as "Maximum resident set size"),
simulated end date, simulated seconds per wall second, engine events and application messages.

A large case first runs a probe (--end PROBE, default 1h) to measure its speed; if the projected
wall time of the whole run exceeds the budget (--budget, default 600 s), the run is cut by --end at
the date the probe's speed reaches within about 80% of the budget, and the output says so.
Every run is also killed at twice the budget.
"""
import argparse
import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def default_binary():
    # tests/bench/ in the build tree (this script is copied there) or in the source tree
    for guess in (os.path.join(HERE, "..", "..", "ckptsim"), os.path.join(HERE, "..", "..", "build", "ckptsim")):
        if os.path.isfile(guess) and os.access(guess, os.X_OK):
            return os.path.normpath(guess)
    return "ckptsim"


def big_scenario(folder, clusters, nodes, hours, mtbf, other=0.0005):
    """Writes the topology and application of the large federation; returns their paths. @p other:
    the probability, after a step, of a message to each other cluster."""
    names = [f"c{i}" for i in range(clusters)]
    topology = {
        "comment": f"bench_scale: {clusters} clusters x {nodes} nodes; 10 us / 1 GB/s SANs, "
        "5 ms / 1.25 GB/s WAN links between every pair of clusters.",
        "clusters": [
            {"name": n, "nodes": nodes, "san": {"latency": "10us", "bandwidth": "1GBps"}, "checkpoint_size": "10MB"}
            for n in names
        ],
        "wan": [[{"latency": "5ms", "bandwidth": "1.25GBps"} for _ in range(i + 1, clusters)] for i in range(clusters - 1)],
        "mtbf": mtbf,
        "failures": {"model": "exponential", "downtime": "1min", "detection_delay": "1s", "restart_overhead": "10s"},
    }
    # Mostly intra-cluster traffic: after each 100 s step (mean), a message to a random node of its own
    # cluster with probability 0.08 and to each other cluster with probability 0.0005 (~9% of messages
    # cross the WAN), as in the HC3I code-coupling application.
    application = {
        "comment": "bench_scale: exponential 100 s steps, 10 KiB messages, mostly intra-cluster.",
        "kind": "stochastic",
        "total_time": f"{hours}h",
        "message_size": "10KiB",
        "clusters": [
            {
                "cluster": n,
                "compute": {"distribution": "exponential", "mean": "100s"},
                "send": {m: (0.08 if m == n else other) for m in names},
            }
            for n in names
        ],
    }
    paths = []
    for name, doc in (("topology", topology), ("application", application)):
        path = os.path.join(folder, f"{name}.json")
        with open(path, "w") as f:
            json.dump(doc, f, indent=1)
        paths.append(path)
    return paths


def run_case(binary, args, folder, tag, timeout, protocol="none"):
    """Runs ckptsim once; returns a dict of measures (peak memory from wait4)."""
    out = os.path.join(folder, f"{tag}.json")
    err_path = os.path.join(folder, f"{tag}.stderr")
    cmd = [binary, "run", "--protocol", protocol, "--quiet", "--progress", "true", "--output", out] + args
    start = time.monotonic()
    with open(err_path, "w") as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        killed = False
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if not killed and time.monotonic() - start > timeout:
                os.kill(proc.pid, signal.SIGKILL)
                killed = True
            time.sleep(0.05)
        proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - start
    m = {
        "command": " ".join(shlex.quote(c) for c in cmd),
        "wall_s": wall,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "peak_rss_mib": usage.ru_maxrss / 1024.0,
    }
    with open(err_path, errors="replace") as f:
        progress = [line for line in f.read().replace("\r", "\n").splitlines() if line.strip()]
    if killed or proc.returncode != 0:
        m["failed"] = f"killed after {timeout:.0f} s" if killed else f"exit status {proc.returncode}"
        m["last_stderr"] = progress[-1] if progress else ""
        return m
    with open(out) as f:
        doc = json.load(f)
    res = doc["results"]
    m.update(
        status=res["status"],
        sim_end_s=res["end_date"],
        engine_wall_s=res["wall_time_s"],
        events=res["events"],
        messages=res["app_messages_sent"],
        failures=res["failures"],
        rollbacks=res["rollbacks"],
        makespan_s=res["makespan"],
        control_messages=res.get("control_messages", 0),
    )
    series = doc["stats"].get("series", {})
    m["failure_dates_s"] = [f["date"] for f in series.get("failures", [])]
    m["recovery_ends_s"] = [r["end"] for r in series.get("recoveries", [])]
    m["sim_per_wall"] = res["end_date"] / max(1e-9, res["wall_time_s"])
    m["checkpoints_held_max"] = doc["stats"]["counters"].get("storage.held_checkpoints_max", 0)
    return m


def hours(seconds):
    return f"{seconds / 3600:.2f} h"


def show(name, m):
    print(f"\n== {name}")
    print(f"   {m['command']}")
    if "failed" in m:
        print(f"   FAILED: {m['failed']} (wall {m['wall_s']:.1f} s, peak RSS {m['peak_rss_mib']:.0f} MiB)")
        print(f"   last stderr line: {m['last_stderr']}")
        return
    cut = "" if m["status"] == "completed" else "  [CUT BY --end: NOT A COMPLETE RUN]"
    print(f"   status: {m['status']}{cut}")
    print(f"   wall time: {m['wall_s']:.2f} s (engine {m['engine_wall_s']:.2f} s), CPU time: {m['cpu_s']:.2f} s, "
          f"peak RSS: {m['peak_rss_mib']:.0f} MiB")
    mk = "" if m["makespan_s"] is None else f", makespan {hours(m['makespan_s'])}"
    print(f"   simulated: {hours(m['sim_end_s'])}{mk}; {m['sim_per_wall']:.0f} simulated s per wall s "
          f"({m['sim_per_wall'] / 3600:.2f} simulated h per wall s)")
    print(f"   events: {m['events']:.0f} ({m['events'] / max(1e-9, m['engine_wall_s']):.0f}/s), messages: "
          f"{m['messages']:.0f} ({m['messages'] / max(1e-9, m['engine_wall_s']):.0f}/s), failures: {m['failures']:.0f}, "
          f"rollbacks: {m['rollbacks']:.0f}")
    if m["failure_dates_s"]:
        print(f"   failures at: {', '.join(hours(d) for d in m['failure_dates_s'])}")
    if m["status"] != "completed" and m["failure_dates_s"]:
        # an unfinished recovery (a failure after the last recovery end) means no work since
        done = max(0.0, m["sim_end_s"] - max(m["recovery_ends_s"] + m["failure_dates_s"]))
        print(f"   protocol none restarts everything at each failure: at the end date the application had about "
              f"{hours(done)} of work done since its last restart")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ckptsim", default=default_binary(), help="the ckptsim binary (default: %(default)s)")
    p.add_argument("--cases", default="default,default-nofail,big-nofail,big-fail",
                   help="comma-separated cases (default: %(default)s)")
    p.add_argument("--budget", type=float, default=600, help="wall seconds allowed per large run (default: 600)")
    p.add_argument("--probe", default="1h", help="simulated date of the probe run of a large case (default: 1h)")
    p.add_argument("--clusters", type=int, default=16)
    p.add_argument("--nodes", type=int, default=1000, help="nodes per cluster (default: 1000)")
    p.add_argument("--hours", type=float, default=24, help="computation time of the large application")
    p.add_argument("--mtbf", default="10h", help="federation MTBF of big-fail (default: 10h)")
    p.add_argument("--fail-end", type=float, default=24,
                   help="simulated hours at which big-fail stops (default: 24; shortened to fit the budget)")
    p.add_argument("--seed", default="1")
    p.add_argument("--default-seeds", default="1,2",
                   help="seeds of the default case (default: %(default)s; seed 1 draws no failure in 10 h, seed 2 five)")
    p.add_argument("--keep", help="write the scenario files and outputs into this folder and keep them")
    p.add_argument("extra", nargs="*", help="passed to ckptsim, e.g. --cfg=contexts/stack-size:64 (after --)")
    a = p.parse_args()

    folder = a.keep or tempfile.mkdtemp(prefix="bench_scale.")
    os.makedirs(folder, exist_ok=True)

    def federation(clusters, nodes=None):
        """The large federation's files with @p clusters clusters, in a folder of their own."""
        nodes = nodes or a.nodes
        sub_folder = os.path.join(folder, f"{clusters}x{nodes}")
        os.makedirs(sub_folder, exist_ok=True)
        topo, app = big_scenario(sub_folder, clusters, nodes, a.hours, a.mtbf)
        return ["--topology", topo, "--application", app]

    big = federation(a.clusters)
    common = ["--seed", a.seed] + a.extra
    print(f"bench_scale: {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs, ckptsim {a.ckptsim}, files in {folder}")
    print(f"large federation: {a.clusters} x {a.nodes} nodes, {a.hours:g} h application; budget {a.budget:.0f} s per run")

    for case in a.cases.split(","):
        if case == "default":  # with its failures, which depend on the seed
            for seed in a.default_seeds.split(","):
                args = ["--seed", seed] + a.extra
                show(f"{case}, seed {seed}", run_case(a.ckptsim, args, folder, f"{case}-{seed}", 2 * a.budget))
        elif case == "default-nofail":
            show(case, run_case(a.ckptsim, common + ["--set", "topology/mtbf=inf"], folder, case, 2 * a.budget))
        elif case in ("hc3i-4x1000", "hc3i-8x1000"):
            args = federation(int(case[5])) + common + ["--set", "topology/mtbf=inf", "--end", "1h"]
            show(case, run_case(a.ckptsim, args, folder, case, 2 * a.budget, protocol="hc3i"))
        elif case == "hc3i-100x1000":
            # HC3I as it is meant to run (report, section 5): inter-cluster traffic 100 times rarer
            # than in the bench federation, node MTBF 5 years (federation MTBF 1,578 s, ~26 min).
            sub = os.path.join(folder, "hc3i-100x1000")
            os.makedirs(sub, exist_ok=True)
            topo, app = big_scenario(sub, 100, 1000, 24, f"{5 * 365 * 86400 / 100000:.0f}s", other=0.0005 / 100)
            timers = os.path.join(sub, "timers.json")
            with open(timers, "w") as f:
                json.dump({"default": {"checkpoint_period": "30min", "gc_period": "2h"}}, f)
            args = ["--topology", topo, "--application", app, "--timers", timers, "--end", "24h"] + common
            m = run_case(a.ckptsim, args, folder, case, 2 * a.budget, protocol="hc3i")
            show(case, m)
            if "failed" not in m:
                print(f"   peak memory per node: {m['peak_rss_mib'] * 1024 * 1024 / 100000:.0f} bytes")
        elif case in ("coordinated-4x250", "coordinated-8x500"):
            # Coordinated checkpointing's waves: N(N+3) control messages each (item 5 of issue 34).
            clusters, nodes = (4, 250) if case == "coordinated-4x250" else (8, 500)
            n = clusters * nodes
            app_time, period, waves = ("20min", "9min", 2) if clusters == 4 else ("15min", "10min", 1)
            sub = os.path.join(folder, case)
            os.makedirs(sub, exist_ok=True)
            topo, app = big_scenario(sub, clusters, nodes, 1, "inf")
            base = ["--topology", topo, "--application", app, "--set", f"application/total_time={app_time}"] + common
            runs = {}
            for label, per in (("no wave", "1000h"), (f"{waves} wave(s)", period)):
                timers = os.path.join(sub, f"timers-{per}.json")
                with open(timers, "w") as f:
                    json.dump({"default": {"checkpoint_period": per}}, f)
                m = run_case(a.ckptsim, base + ["--timers", timers], folder, f"{case}-{per}", 2 * a.budget,
                             protocol="coordinated")
                show(f"{case}, {label}", m)
                runs[label] = m
            with_waves = runs[f"{waves} wave(s)"]
            if not any("failed" in m for m in runs.values()):
                in_flight = n * (n - 1)  # a wave's FLUSH messages, all sent at once
                grown = (with_waves["peak_rss_mib"] - runs["no wave"]["peak_rss_mib"]) * 1024 * 1024
                print(f"   control messages: {with_waves['control_messages']:.0f} (N(N+3) x {waves} = {n * (n + 3) * waves})"
                      f"; peak memory per FLUSH in flight: {grown / in_flight:.0f} bytes")
        elif case == "hc3i-storm":
            timers = os.path.join(folder, "storm-timers.json")
            with open(timers, "w") as f:
                json.dump({"default": {"checkpoint_period": "30min", "gc_period": "2h"}}, f)
            args = federation(100, 100) + common + ["--timers", timers, "--set", "topology/mtbf=inf"]
            runs = []
            for end in ("10min", "20min"):
                m = run_case(a.ckptsim, args + ["--end", end], folder, f"{case}-{end}", 2 * a.budget, protocol="hc3i")
                show(f"{case} to {end}", m)
                if "failed" in m:
                    break
                print(f"   node checkpoints stored at most: {m['checkpoints_held_max']:.0f}")
                runs.append(m)
            if len(runs) == 2 and runs[1]["checkpoints_held_max"] > runs[0]["checkpoints_held_max"]:
                grown = (runs[1]["peak_rss_mib"] - runs[0]["peak_rss_mib"]) * 1024 * 1024
                per = grown / (runs[1]["checkpoints_held_max"] - runs[0]["checkpoints_held_max"])
                print(f"   memory per node and stored CLC: {per:.0f} bytes (peak RSS growth over stored checkpoints' growth)")
        elif case in ("big-nofail", "big-fail", "huge-nofail"):
            args = (federation(100) if case == "huge-nofail" else big) + common + (
                ["--set", "topology/mtbf=inf"] if case != "big-fail" else [])
            probe = run_case(a.ckptsim, args + ["--end", a.probe], folder, case + "-probe", 2 * a.budget)
            show(f"{case}, probe to {a.probe}", probe)
            if "failed" in probe:
                continue
            # The probe's whole wall time includes start-up; its engine speed projects the rest.
            startup = probe["wall_s"] - probe["engine_wall_s"]
            target = a.fail_end * 3600 if case == "big-fail" else a.hours * 3600 * 1.05
            projected = startup + target / probe["sim_per_wall"]
            end = []
            if case == "big-fail" or projected > a.budget:
                date = target if projected <= a.budget else max(1.0, 0.8 * (a.budget - startup) * probe["sim_per_wall"])
                end = ["--end", f"{date:.0f}s"]
                print(f"   projected wall time to {hours(target)}: {projected:.0f} s -> running with --end {date:.0f}s")
            else:
                print(f"   projected wall time of the whole run: {projected:.0f} s -> running it to completion")
            show(case, run_case(a.ckptsim, args + end, folder, case, 2 * a.budget))
        else:
            sys.exit(f"bench_scale: unknown case {case}")


if __name__ == "__main__":
    main()
