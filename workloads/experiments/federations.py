"""What the experiment scripts over the two federations share (workloads/failures/experiments.py and
workloads/network/experiments.py): the federations' input options, the MPI application they run, the
protocols compared and their default storage, and the part of their Sim that runs ckptsim --jobs at
a time in temporary folders, checks every run and stops the script at the first bad one.

The two federations:
- "4 clusters (MPI)": workloads/mpi/platforms/four-clusters.json (4 x 4 nodes) running the jacobi2d
  MPI trace of workloads/mpi scaled to about 1 h failure-free (compute_scale 1.33e6, a checkpoint
  every 5 min, GC every 30 min, 50 MB per process checkpoint);
- "default (2 x 100)": ckptsim's embedded default scenario, the application cut to 5 h.

Standard library only (Python >= 3.7)."""
import concurrent.futures
import json
import os
import subprocess
import tempfile
import threading
import time

from results_file import mean_ci, simulator

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
MPI = os.path.join(ROOT, "workloads", "mpi")


def mpi_options(tmp):
    """The options of the MPI federation; TMP: the folder of the application file (Sim.app)."""
    opts = ["--topology", os.path.relpath(os.path.join(MPI, "platforms", "four-clusters.json"), ROOT),
            "--application", os.path.join(tmp, "jacobi2d.json"),
            "--set", 'timers/default={"checkpoint_period":"5min","gc_period":"30min"}']
    for c in range(4):
        opts += ["--set", "topology/clusters/%d/checkpoint_size=50MB" % c]
    return opts


def default_options(tmp):
    """The options of the default federation (the embedded scenario): the application cut to 5 h."""
    return ["--set", "application/total_time=5h"]


# compute_scale 1.33e6: workloads/mpi/experiments.py's SCALES["jacobi2d"], about 1 h failure-free.
MPI_APPLICATION = {"kind": "mpi-trace", "trace": "workloads/mpi/traces/jacobi2d/jacobi2d.ti", "compute_scale": 1.33e6}

# (label, ckptsim options): the protocols of workloads/mpi/experiments.py, variants named explicitly.
PROTOCOLS = [("none", ["--protocol", "none"]),
             ("coordinated", ["--protocol", "coordinated"]),
             ("hc3i", ["--protocol", "hc3i"]),
             ("independent:unit=cluster", ["--protocol", "independent", "--param", "unit=cluster"]),
             ("msglog:variant=pessimistic", ["--protocol", "msglog", "--param", "variant=pessimistic"])]
# Their storage when none is given (ckptsim's run.storage; checked on every run).
DEFAULT_STORAGE = {"none": "servers", "coordinated": "servers", "hc3i": "buddy", "independent": "servers",
                   "msglog": "servers"}


def compact(doc):
    return json.dumps(doc, separators=(",", ":"))


def status_detail(status):
    """A not-completed run's status, cut before its list of victims (a cluster of 100 names)."""
    s = status.split(" (")[0]
    return s if len(s) <= 160 else s[:157] + "..."


def completed_means(runs, names, columns):
    """The (mean, 95 % half-width) cells of the columns NAMES (of COLUMNS, a run's values) over the
    RUNS that completed (their first value: the outcome)."""
    done = [r for r in runs if r[0] == "completed"]
    cells = []
    for name in names:
        i = columns.index(name)
        cells += list(mean_ci([r[i] for r in done]))
    return cells


class Sim:
    """Runs ckptsim, --jobs at a time, in temporary folders; TMP: the folder of the input files (the
    MPI application file, self.app). A script's Sim gives command(point) and fail(point, what), and
    checks its runs with the methods below; fail() sets self.stopped, and the runs not started yet
    are skipped."""

    def __init__(self, ckptsim, jobs, tmp):
        self.ckptsim, self.jobs, self.tmp = ckptsim, jobs, tmp
        self.app = os.path.join(tmp, "jacobi2d.json")
        self.stopped = threading.Event()  # set by fail(): the runs not started yet are skipped

    @staticmethod
    def app_doc():
        """The MPI application file as written: the trace's path made absolute."""
        return dict(MPI_APPLICATION, trace=os.path.join(ROOT, MPI_APPLICATION["trace"]))

    def execute(self, p, prefix, wall_limit, extra=lambda tmp: [], read=lambda doc, tmp: None):
        """Runs P's command with --output in a temporary folder (named from PREFIX) and EXTRA(folder)'s
        options; (its process, its results document), READ(doc, folder) called before the folder goes.
        Stops the script when the run lasts more than WALL_LIMIT s of wall time, exits with another
        status than 0 or 3 or writes no results document."""
        with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
            out = os.path.join(tmp, "out.json")
            try:
                proc = subprocess.run(self.command(p) + ["--output", out] + extra(tmp), cwd=ROOT,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                                      timeout=wall_limit)
            except subprocess.TimeoutExpired:
                self.fail(p, "still running after %d s of wall time (killed)" % wall_limit)
            if proc.returncode not in (0, 3) or not os.path.exists(out):
                self.fail(p, "failed (exit %d):\n%s" % (proc.returncode, proc.stderr))
            with open(out) as f:
                doc = json.load(f)
            read(doc, tmp)
        return proc, doc

    def outcome(self, p, proc, res, endings):
        """The run's ending, its status' first word; stops the script on a consistency violation, an
        ending not in ENDINGS, or stuck without exit status 3 (or 3 for another ending)."""
        status = res["status"]
        if res["consistency"]["violations"] != 0:
            self.fail(p, "status %s, %d consistency violations" % (status, res["consistency"]["violations"]))
        outcome = status.split(":")[0].split(" ")[0]
        if outcome not in endings or (outcome == "stuck") != (proc.returncode == 3):
            self.fail(p, "unexpected status (exit %d): %s" % (proc.returncode, status))
        return outcome

    def run_all(self, points):
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as pool:
            return list(pool.map(self.one, points))

    def references(self, refs):
        """Runs the failure-free reference points REFS (one per federation): {federation key:
        (makespan, result checksum or None)}."""
        ff = {}
        for p, (doc, _) in zip(refs, self.run_all(refs)):
            ff[p.fed.key] = (doc["results"]["makespan"], doc["results"].get("result_checksum"))
        return ff

    def check_checksum(self, p, doc, outcome, checksum):
        """Stops the script when a completed run gives another result checksum than the failure-free
        run's CHECKSUM (None: the application computes none)."""
        if outcome == "completed" and checksum is not None and doc["results"].get("result_checksum") != checksum:
            self.fail(p, "result checksum %s, failure-free %s (a message lost, duplicated or replayed differently)"
                      % (doc["results"].get("result_checksum"), checksum))


def run_in_inputs(args, prefix, make_sim, run, write_inputs=lambda sim: None):
    """Makes the temporary folder of the input files (named from PREFIX) and MAKE_SIM(ckptsim, jobs,
    folder) in it, writes the MPI application file and WRITE_INPUTS(sim)'s files, then RUN(sim);
    (sim, what RUN gave, the wall time in seconds)."""
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        sim = make_sim(simulator(args), max(1, args.jobs), tmp)
        with open(sim.app, "w") as f:
            json.dump(sim.app_doc(), f)
        write_inputs(sim)
        result = run(sim)
    return sim, result, time.time() - t0
