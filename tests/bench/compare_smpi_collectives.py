#!/usr/bin/env python3
"""compare_smpi_collectives: simulated time of each MPI collective replayed by ckptsim and by SMPI.

For every collective of SimGrid 3.32's time-independent traces, P = 2, 3, 5, 8 ranks and a small
and a large size (below and above SMPI's 64 KiB detached-send threshold), plus alltoall cases that
pick SMPI's pairwise (4 ranks, 600 kB) and Bruck (16 ranks, 100 B) algorithms, it writes a
hand-made trace (each rank: init, the collective, finalize) and replays it with

  ckptsim run --platform P.xml --application A.json --protocol none    (mpi-trace kind: SimGrid's
        SMPI network model and SMPI's 16-byte envelope by default; time = the run's makespan)
  smpirun -np N -platform P.xml -hostfile H -replay INDEX              (SMPI's defaults; time =
        its "Simulation time", 1 us resolution)

on the same platform: the XML `ckptsim platform` writes from a 2 x 8-node topology (10 us /
80 MB/s SANs, a 150 us / 100 MB/s WAN), the ranks placed round-robin over the two clusters in
both (ckptsim's "placement": "round-robin", the same host order in smpirun's hostfile), so
collectives cross the WAN as well as the SANs.

Both replays send the same messages (those of SMPI's request log, --log=smpi_request.thres:verbose;
tests/unit/test_mpi_collectives.cpp lists them for hand-computed cases), with the same semantics (a
transfer starts once its receive is posted too, a send of 64 KiB or more ends once delivered); the
times differ by ckptsim's protocol piggyback (8 bytes with protocol none).

Prints one row per case: collective, ranks, bytes (per message of the line's counts), both
times in ms and ckptsim's difference in percent. Not a test (smpirun takes ~0.3 s per case):
run by hand, e.g. `tests/bench/compare_smpi_collectives.py --ckptsim build/ckptsim`.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

TOPOLOGY = {
    "comment": "compare_smpi_collectives: 2 x 8 nodes at 1 Gflop/s, HC3I-like SANs and WAN.",
    "clusters": [
        {"name": "c0", "nodes": 8, "san": {"latency": "10us", "bandwidth": "80MBps"}, "speed": "1Gf"},
        {"name": "c1", "nodes": 8, "san": {"latency": "10us", "bandwidth": "80MBps"}, "speed": "1Gf"},
    ],
    "wan": [[{"latency": "150us", "bandwidth": "100MBps"}]],
}
# Round-robin over the two clusters: the order of ckptsim's "round-robin" placement.
HOSTS = [f"c{i % 2}-{i // 2}" for i in range(16)]

SMALL, LARGE = 100, 200000  # bytes (MPI_BYTE, datatype 6)


def default_binary():
    for guess in (os.path.join(HERE, "..", "..", "ckptsim"), os.path.join(HERE, "..", "..", "build", "ckptsim")):
        if os.path.isfile(guess) and os.access(guess, os.X_OK):
            return os.path.normpath(guess)
    return "ckptsim"


def lines_for(name, p, n):
    """The trace line (without the rank) of collective @name on @p ranks with @n bytes per
    message, its root the last rank where it has one."""
    root = p - 1
    same = " ".join([str(n)] * p)
    # irregular counts: rank i gets about n * (i + 1) / p bytes (at least 1)
    irregular = " ".join(str(max(1, n * (i + 1) // p)) for i in range(p))
    return {
        "barrier": "barrier",
        "bcast": f"bcast {n} {root} 6",
        "reduce": f"reduce {n} 0 {root} 6",
        "allreduce": f"allreduce {n} 0 6",
        "gather": f"gather {n} {n} {root} 6 6",
        "gatherv": f"gatherv {n} {same} {root} 6 6",
        "scatter": f"scatter {n} {n} {root} 6 6",
        "scatterv": f"scatterv {irregular} {n} {root} 6 6",
        "allgather": f"allgather {n} {n} 6 6",
        "allgatherv": f"allgatherv {n} {same} 6 6",
        "alltoall": f"alltoall {n} {n} 6 6",
        "alltoallv": f"alltoallv {n * p} {irregular} {n * p} {same} 6 6",
        "reducescatter": f"reducescatter {same} 0 6",
        # irregular: recursive doubling below 524288 elements in all, pairwise above
        "reducescatter-irregular": f"reducescatter {irregular} 0 6",
        "scan": f"scan {n} 0 6",
        "exscan": f"exscan {n} 0 6",
    }[name]


COLLECTIVES = ["barrier", "bcast", "reduce", "allreduce", "gather", "gatherv", "scatter", "scatterv", "allgather",
               "allgatherv", "alltoall", "alltoallv", "reducescatter", "reducescatter-irregular", "scan", "exscan"]


def cases():
    for name in COLLECTIVES:
        for p in (2, 3, 5, 8):
            for n in ((0,) if name == "barrier" else (SMALL, LARGE)):
                yield name, p, n, lines_for(name, p, n)
    yield "alltoall (pairwise)", 4, 600000, "alltoall 600000 600000 6 6"
    yield "alltoall (Bruck)", 16, SMALL, f"alltoall {SMALL} {SMALL} 6 6"


def write_trace(folder, tag, p, line):
    index = os.path.join(folder, f"{tag}.ti")
    with open(index, "w") as ix:
        for r in range(p):
            path = os.path.join(folder, f"{tag}.r{r}")
            with open(path, "w") as f:
                f.write(f"{r} init\n{r} {line}\n{r} finalize\n")
            ix.write(path + "\n")  # absolute: smpirun opens them relative to its working directory
    return index


def ckptsim_time(binary, folder, platform, index, tag):
    app = os.path.join(folder, f"{tag}.json")
    with open(app, "w") as f:
        json.dump({"kind": "mpi-trace", "trace": index, "placement": "round-robin"}, f)
    out = os.path.join(folder, f"{tag}.out.json")
    run = subprocess.run([binary, "run", "--platform", platform, "--application", app, "--protocol", "none",
                          "--quiet", "-o", out], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"ckptsim failed on {index}: {run.stderr.strip()}")
    with open(out) as f:
        return json.load(f)["results"]["makespan"]


def smpi_time(smpirun, platform, hostfile, index, p):
    run = subprocess.run([smpirun, "-np", str(p), "-platform", platform, "-hostfile", hostfile, "-replay", index],
                         capture_output=True, text=True)
    m = re.search(r"Simulation time ([0-9.]+)", run.stderr)
    if run.returncode != 0 or not m:
        raise RuntimeError(f"smpirun failed on {index}: {run.stderr.strip()[-500:]}")
    return float(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ckptsim", default=default_binary(), help="the ckptsim binary (default: the build tree's)")
    ap.add_argument("--smpirun", default="smpirun", help="SMPI's launcher (default: smpirun on PATH)")
    ap.add_argument("--keep", metavar="DIR", help="write the traces, platform and outputs here and keep them")
    args = ap.parse_args()
    if shutil.which(args.smpirun) is None:
        sys.exit(f"compare_smpi_collectives: {args.smpirun} not found (Debian: apt install libsimgrid-dev)")
    folder = os.path.abspath(args.keep) if args.keep else tempfile.mkdtemp(prefix="ckptsim_smpi_colls_")
    os.makedirs(folder, exist_ok=True)
    try:
        topology = os.path.join(folder, "topology.json")
        with open(topology, "w") as f:
            json.dump(TOPOLOGY, f, indent=1)
        platform = os.path.join(folder, "platform.xml")
        with open(platform, "w") as f:
            subprocess.run([args.ckptsim, "platform", "--topology", topology], stdout=f, check=True)
        hostfile = os.path.join(folder, "hosts")
        with open(hostfile, "w") as f:
            f.write("\n".join(HOSTS) + "\n")
        print(f"{'collective':36} {'P':>3} {'bytes':>7} {'SMPI ms':>10} {'ckptsim ms':>10} {'diff %':>7}")
        for name, p, n, line in cases():
            tag = re.sub(r"[^a-z0-9]+", "_", f"{name}_{p}_{n}")
            index = write_trace(folder, tag, p, line)
            smpi = smpi_time(args.smpirun, platform, hostfile, index, p)
            ours = ckptsim_time(args.ckptsim, folder, platform, index, tag)
            diff = f"{100 * (ours - smpi) / smpi:+7.1f}" if smpi > 0 else "      -"
            print(f"{name:36} {p:3} {n:7} {1e3 * smpi:10.3f} {1e3 * ours:10.3f} {diff}", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
