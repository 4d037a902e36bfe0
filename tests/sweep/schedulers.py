#!/usr/bin/python3
"""The sweeps `ckptsim sweep --emit` writes, run by real schedulers (issue 20, docs/SWEEP.md).

    schedulers.py --ckptsim BUILD/ckptsim slurm      # a private single-node Slurm (slurmctld, slurmd, munge)
    schedulers.py --ckptsim BUILD/ckptsim parallel   # GNU parallel

Both run a 6-run sweep of the embedded default scenario (run 4 lasts a few seconds, the others
well under one) and check that the merged results equal a local `ckptsim sweep --jobs 2` of the
same file, apart from the wall-clock times; then that a task killed on purpose while run 4 runs
leaves run 4 recorded as crashed and run 5 pending, that a new submission does only run 5, and
that --retry-failed then does run 4, after which the results equal the local ones again.

`slurm` starts munged, slurmctld and slurmd as root in a scratch folder (own key, socket, ports
and state; nothing outside it is written) and stops them by their process ids at the end, whatever
happens. It installs nothing: when a program is missing, the user is not root or the daemons do
not come up, it exits 77, which ctest reports as skipped (SKIP_RETURN_CODE), never as passed.
"""
import argparse
import ctypes
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

SKIP = 77


class Skip(Exception):
    pass


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def run(cmd, check=True, **kw):
    """A command's completed process (text); a failure with check is the test's failure."""
    p = subprocess.run(cmd, text=True, capture_output=True, **kw)
    if check and p.returncode != 0:
        raise AssertionError(f"{cmd!r} exited with {p.returncode}:\n{p.stdout}\n{p.stderr}")
    return p


def expect(cond, what):
    if not cond:
        raise AssertionError(what)


# --- the sweep and its local reference ------------------------------------------------------


def make_sweep(root):
    """A sweep file in a folder whose name has a space (the emitted files quote their paths)."""
    folder = os.path.join(root, "sweep in")
    os.makedirs(folder)
    sweep = {
        "description": "issue 20: a sweep for real schedulers",
        "axes": [{"name": "length", "set": "application/total_time",
                  "values": ["30min", "1h", "90min", "2h", "100h", "150min"]}],
        "protocols": ["hc3i"],
    }
    path = os.path.join(folder, "sweep.json")
    with open(path, "w") as f:
        json.dump(sweep, f)
    return path


def table(path):
    """A CSV table without its '#' lines (they say how it was made: a merge or a sweep)."""
    with open(path) as f:
        return [l for l in f.read().splitlines() if not l.startswith("#")]


def records(path):
    """The JSON lines by run index, without the wall-clock time."""
    out = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            r.pop("wall_s", None)
            out[r["index"]] = r
    return out


def same_results(prefix, reference):
    for suffix in (".csv", ".points.csv"):
        a, b = table(prefix + suffix), table(reference + suffix)
        expect(a == b, f"{prefix}{suffix} differs from the local sweep's:\n" + "\n".join(a) + "\n---\n" + "\n".join(b))
    expect(records(prefix + ".jsonl") == records(reference + ".jsonl"),
           f"{prefix}.jsonl differs from the local sweep's (wall-clock times aside)")
    rows = table(prefix + ".csv")
    expect(len(rows) == 7 and all(",ok,0," in r for r in rows[1:]), "6 runs, all ok:\n" + "\n".join(rows))


def part_records(prefix):
    out = {}
    parts = prefix + ".parts"
    for name in sorted(os.listdir(parts)):
        if name.endswith(".jsonl"):
            for i, r in records(os.path.join(parts, name)).items():
                out[i] = r
    return out


def wait_for(path, seconds, what):
    end = time.time() + seconds
    while not os.path.exists(path):
        expect(time.time() < end, f"no {path} after {seconds} s: {what}")
        time.sleep(0.05)


class Sweep:
    def __init__(self, ckptsim, root):
        self.ckptsim = ckptsim
        self.file = make_sweep(root)
        self.out = os.path.join(root, "results out")
        os.makedirs(self.out)
        self.reference = os.path.join(self.out, "local")
        log("local reference: ckptsim sweep --jobs 2")
        run([ckptsim, "sweep", self.file, "--jobs", "2", "--out", self.reference, "--progress", "false"], cwd="/")

    def prefix(self, name):
        return os.path.join(self.out, name)

    def emit(self, kind, prefix, *options):
        return run([self.ckptsim, "sweep", self.file, "--emit", kind, "--out", prefix, *options], cwd="/")

    def merge(self, prefix):
        parts = prefix + ".parts"
        files = sorted(os.path.join(parts, n) for n in os.listdir(parts) if n.endswith(".jsonl"))
        run([self.ckptsim, "merge", "--out", prefix, *files], cwd="/")

    def check_killed_batch(self, prefix):
        """Task/line of runs 3-5 killed while run 4 ran: 3 ok, 4 crashed by SIGTERM, 5 never started."""
        recs = part_records(prefix)
        expect(sorted(recs) == [0, 1, 2, 3, 4], f"runs recorded in the parts: {sorted(recs)}, expected 0-4")
        expect(recs[3]["status"] == "ok", f"run 3: {recs[3]}")
        expect(recs[4]["status"] == "crashed" and recs[4]["exit"] == 15, f"run 4: {recs[4]}")
        dry = run([self.ckptsim, "sweep", self.file, "--out", prefix, "--dry-run"], cwd="/").stdout
        expect("6 runs, 1 pending" in dry, "the sweep sees run 5 pending:\n" + dry)
        expect(re.search(r"\n\s+4  crashed ", dry) is not None, "and run 4 crashed:\n" + dry)


# --- Slurm --------------------------------------------------------------------------------------


def free_ports(n):
    """n distinct free ports (all bound at once, so that the kernel cannot give one twice)."""
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


class Slurm:
    """munged + slurmctld + slurmd in a scratch folder, stopped by pid whatever happens."""

    def __init__(self, root):
        for b in ("munged", "mungekey", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scontrol", "scancel"):
            if shutil.which(b) is None:
                raise Skip(f"no {b} (Debian packages slurmctld, slurmd, munge, slurm-client)")
        if os.geteuid() != 0:
            raise Skip("not root: slurmd must run as root")
        self.dir = os.path.join(root, "slurm")
        self.pids = []
        self.daemons = []
        try:
            self.start(root)
        except BaseException:
            self.stop()  # a skip or a failure after a daemon started leaves none behind
            raise

    def start(self, root):
        d = self.dir
        for sub in ("munge", "state", "spool", "log", "run"):
            os.makedirs(os.path.join(d, sub))
        os.chmod(root, 0o755)  # munged wants every folder above its socket executable by all
        os.chmod(d, 0o755)
        run(["mungekey", "-c", "-k", f"{d}/munge/munge.key"])
        # In the foreground (-F): its pid is known at once and it dies with this script.
        munged = self.spawn(["munged", "-F", f"--socket={d}/munge/munge.sock", f"--key-file={d}/munge/munge.key",
                             f"--pid-file={d}/munge/munged.pid", f"--log-file={d}/munge/munged.log",
                             f"--seed-file={d}/munge/munged.seed"], "munged")
        end = time.time() + 10
        while not os.path.exists(f"{d}/munge/munge.sock"):
            if munged.poll() is not None or time.time() > end:
                raise Skip(f"munged does not start: {self.tail('munge/munged.log')}")
            time.sleep(0.05)
        self.host = socket.gethostname().split(".")[0]
        ctld_port, slurmd_port = free_ports(2)
        conf = f"""ClusterName=ckptsimtest
SlurmctldHost={self.host}
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={d}/munge/munge.sock
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/run/slurmctld.pid
SlurmdPidFile={d}/run/slurmd.pid
SlurmctldLogFile={d}/log/slurmctld.log
SlurmdLogFile={d}/log/slurmd.log
JobCompType=jobcomp/filetxt
JobCompLoc={d}/log/jobcomp.txt
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
MailProg=/bin/true
# sbatch --wait polls every 2 s with MinJobAge 4 (every 32 s with the default 300)
MinJobAge=4
KillWait=5
SchedulerParameters=batch_sched_delay=0
# A small cluster limit, so that the emitted array must respect it (task ids 0..2)
MaxArraySize=3
NodeName={self.host} CPUs={os.cpu_count()} State=UNKNOWN
PartitionName=debug Nodes={self.host} Default=YES MaxTime=INFINITE State=UP
"""
        self.conf = f"{d}/slurm.conf"
        with open(self.conf, "w") as f:
            f.write(conf)
        os.environ["SLURM_CONF"] = self.conf  # every client, and the jobs, use this controller
        self.spawn(["slurmctld", "-D", "-i", "-f", self.conf], "slurmctld")
        self.spawn(["slurmd", "-D", "-f", self.conf, "-N", self.host], "slurmd")
        end = time.time() + 30
        state = ""
        while time.time() < end:
            state = run(["timeout", "5", "sinfo", "-h", "-n", self.host, "-o", "%T"], check=False).stdout.strip()
            if state == "idle":
                break
            time.sleep(0.2)
        if state != "idle":
            raise Skip(f"the Slurm node is not idle after 30 s ({state!r}): {self.log_tail()}")
        log(f"Slurm up: daemons {self.pids}")

    def spawn(self, cmd, name):
        """A daemon in the foreground, its output in log/NAME.stdout; its pid noted at once."""
        with open(f"{self.dir}/log/{name}.stdout", "w") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, preexec_fn=die_with_parent)
        self.daemons.append(proc)
        self.pids.append(proc.pid)
        return proc

    def tail(self, name):
        try:
            with open(f"{self.dir}/{name}") as f:
                return "".join(f.readlines()[-5:])
        except OSError:
            return "(no log)"

    def log_tail(self):
        return "".join(f"\n{name}: {self.tail('log/' + name)}" for name in ("slurmctld.log", "slurmd.log"))

    def queue(self, job):
        return run(["timeout", "10", "squeue", "-h", "-j", job, "-o", "%i %T"], check=False).stdout.strip()

    def wait_gone(self, job, seconds):
        end = time.time() + seconds
        while self.queue(job):
            expect(time.time() < end, f"job {job} still queued after {seconds} s: {self.queue(job)}")
            time.sleep(0.1)

    def job_processes(self):
        """The pids of the processes our slurmd started (slurmstepd, the tasks): they inherit its
        environment, hence SLURM_CONF naming our slurm.conf."""
        mark = f"SLURM_CONF={self.conf}".encode()
        found = []
        for pid in map(int, filter(str.isdigit, os.listdir("/proc"))):
            if pid == os.getpid() or pid in self.pids:
                continue
            try:
                with open(f"/proc/{pid}/comm") as f:
                    if f.read().strip() == "slurmscriptd":  # slurmctld's helper, ends with it
                        continue
                with open(f"/proc/{pid}/environ", "rb") as f:
                    if mark in f.read().split(b"\0"):
                        found.append(pid)
            except OSError:
                pass
        return found

    def stop(self):
        """Jobs first (a killed slurmd leaves slurmstepd and the job's processes behind), then the
        daemons by pid, SIGKILL for those still there after 10 s."""
        if len(self.daemons) > 1:
            run(["timeout", "10", "scancel", "--user=root"], check=False)
            end = time.time() + 15
            while time.time() < end and run(["timeout", "5", "squeue", "-h"], check=False).stdout.strip():
                time.sleep(0.2)
            while time.time() < end and self.job_processes():  # slurmstepd ends just after its job
                time.sleep(0.1)
        for pid in self.pids:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        end = time.time() + 10
        for proc in self.daemons:
            try:
                proc.wait(max(0.1, end - time.time()))
            except subprocess.TimeoutExpired:
                pass
        for pid in self.pids:
            while time.time() < end:
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.1)
            try:
                os.kill(pid, signal.SIGKILL)
                log(f"pid {pid} killed with SIGKILL")
            except ProcessLookupError:
                pass
        if hasattr(self, "conf"):
            for pid in self.job_processes():
                try:
                    os.kill(pid, signal.SIGKILL)
                    log(f"job process {pid} left behind: killed with SIGKILL")
                except ProcessLookupError:
                    pass
        log("Slurm stopped")


def die_with_parent():
    """In a daemon's child before exec: SIGTERM when this script dies, even by SIGKILL (a ctest
    timeout), so that no controller outlives the test (prctl PR_SET_PDEATHSIG)."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)


def sbatch_wait(script):
    p = run(["timeout", "300", "sbatch", "--wait", script], check=False)
    # The exit status of sbatch --wait is not a reliable failure signal (a task cancelled while
    # pending counts 0): the merged results are what the test checks.
    log(f"sbatch --wait {os.path.basename(script)}: {p.stdout.strip()} (exit {p.returncode})")
    expect("Submitted batch job" in p.stdout, f"sbatch refused {script}: {p.stderr}")


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def slurm_test(sweep, root):
    cluster = Slurm(root)
    try:
        # 1. The whole sweep as an array within the cluster's MaxArraySize of 3: 2 runs per task.
        a = sweep.prefix("array")
        text = sweep.emit("slurm", a, "--max-tasks", "3").stdout
        expect("\n#SBATCH --array=0-2\n" in text and "\nruns=(0-1 2-3 4-5)\n" in text, "the emitted array:\n" + text)
        sbatch_wait(write(f"{root}/a.sbatch", text))
        sweep.merge(a)
        same_results(a, sweep.reference)
        nothing = sweep.emit("slurm", a)
        expect(nothing.stdout == "" and "nothing to emit" in nothing.stderr, f"nothing pending: {nothing}")
        log("array of 3 tasks: merged results equal the local sweep's")

        # 2. A task killed (scancel: SIGTERM, as at a time limit) while its run 4 runs.
        b = sweep.prefix("killed")
        text = sweep.emit("slurm", b, "--runs-per-task", "3").stdout
        expect("\nruns=(0-2 3-5)\nfirst=(0 3)\n" in text, "the emitted array:\n" + text)
        job = run(["sbatch", "--parsable", write(f"{root}/b.sbatch", text)]).stdout.strip().split(";")[0]
        wait_for(f"{b}.parts/3.jsonl.tmp/4.err", 120, "task 1 never started run 4")
        time.sleep(0.1)
        run(["scancel", f"{job}_1"])
        log(f"scancel {job}_1 while run 4 runs")
        cluster.wait_gone(job, 120)
        sweep.check_killed_batch(b)
        # Submitting again does only the missing run; then --retry-failed the crashed one.
        text = sweep.emit("slurm", b).stdout
        expect("over the 1 pending run(s) (of 6)" in text and "\nruns=(5)\n" in text, "resubmission:\n" + text)
        sbatch_wait(write(f"{root}/b2.sbatch", text))
        text = sweep.emit("slurm", b, "--retry-failed").stdout
        expect("\nruns=(4)\n" in text, "retry:\n" + text)
        sbatch_wait(write(f"{root}/b3.sbatch", text))
        sweep.merge(b)
        same_results(b, sweep.reference)
        log("killed task: recorded, resubmitted, retried: results equal the local sweep's")
    finally:
        cluster.stop()


# --- GNU parallel -------------------------------------------------------------------------------


def parallel_test(sweep, root):
    if shutil.which("parallel") is None:
        raise Skip("no parallel (Debian package parallel)")
    a = sweep.prefix("lines")
    jobs = write(f"{root}/jobs.txt", sweep.emit("jobs", a).stdout)
    p = run(["parallel", "--will-cite", "-j", "2", "-a", jobs], check=False, cwd="/")
    expect(p.returncode == 0, f"parallel: {p.returncode} job(s) failed:\n{p.stderr}")
    sweep.merge(a)
    same_results(a, sweep.reference)
    log("6 job lines through parallel -j 2: merged results equal the local sweep's")

    # A line killed while its run 4 runs; the same jobs file run again does only run 5.
    b = sweep.prefix("killed")
    jobs = write(f"{root}/jobs-b.txt", sweep.emit("jobs", b, "--runs-per-task", "3").stdout)
    par = subprocess.Popen(["parallel", "--will-cite", "-j", "2", "-a", jobs], cwd="/",
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(f"{b}.parts/3.jsonl.tmp/4.err", 120, "the second line never started run 4")
        time.sleep(0.1)
        found = [pid for pid in map(int, filter(str.isdigit, os.listdir("/proc")))
                 if sweep_part_of(pid) == f"{b}.parts/3"]
        # The line's sweep, not its run (a forked child with the same command line).
        victims = [pid for pid in found if parent_of(pid) not in found]
        expect(len(victims) == 1, f"the sweep of part 3: pids {found}, parents {[parent_of(p) for p in found]}")
        os.kill(victims[0], signal.SIGTERM)
        log(f"SIGTERM to the line's sweep (pid {victims[0]}) while run 4 runs")
        expect(par.wait(120) == 1, f"parallel counts the killed line: {par.returncode}\n{par.stderr.read()}")
    finally:
        if par.poll() is None:
            par.kill()
    sweep.check_killed_batch(b)
    p = run(["parallel", "--will-cite", "-j", "2", "-a", jobs], check=False, cwd="/")
    # The line of runs 3-5 still exits 3: its part records the crash of run 4.
    expect(p.returncode == 1, f"parallel again: {p.returncode} failed line(s), expected 1\n{p.stderr}")
    recs = part_records(b)
    expect(sorted(recs) == list(range(6)) and recs[4]["status"] == "crashed",
           f"the same lines again did run 5 only: {[(i, r['status']) for i, r in sorted(recs.items())]}")
    lines = sweep.emit("jobs", b, "--retry-failed").stdout.splitlines()
    expect(len(lines) == 1 and " --only 4 " in lines[0], f"retry: {lines}")
    run(["bash", "-c", lines[0]], cwd="/")
    sweep.merge(b)
    same_results(b, sweep.reference)
    log("killed line: recorded, run again, retried: results equal the local sweep's")


def sweep_part_of(pid):
    """The --out of a `ckptsim sweep` process, or None."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            args = f.read().decode(errors="replace").split("\0")
    except OSError:
        return None
    if len(args) < 2 or args[1] != "sweep" or "--out" not in args:
        return None
    return args[args.index("--out") + 1]


def parent_of(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ckptsim", required=True)
    ap.add_argument("scheduler", choices=["slurm", "parallel"])
    ap.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = ap.parse_args()

    def terminated(signum, frame):
        raise SystemExit(f"stopped by signal {signum}")  # the finally clauses stop the daemons

    signal.signal(signal.SIGTERM, terminated)
    signal.signal(signal.SIGHUP, terminated)
    root = tempfile.mkdtemp(prefix=f"ckptsim-{args.scheduler}-")
    status = 1
    try:
        sweep = Sweep(os.path.abspath(args.ckptsim), root)
        (slurm_test if args.scheduler == "slurm" else parallel_test)(sweep, root)
        status = 0
        log("PASS")
    except Skip as e:
        print(f"SKIP: {e}")
        status = SKIP
    except AssertionError as e:
        print(f"FAIL: {e}")
    finally:
        if args.keep or status == 1:
            print(f"scratch folder kept: {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
