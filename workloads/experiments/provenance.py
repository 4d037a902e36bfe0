"""What made a results file: the git commit, and whether the working tree differs from it.

Shared by the experiment scripts of workloads/*/ and by plots/: every table they write names the
commit, and says so when the simulator's sources (or the experiment's own inputs) were not that
commit's, since the commit alone then does not say what ran. Standard library only.
"""
import subprocess

# The files that go into the binary.
SIMULATOR_PATHS = ("protocols", "sim", "schemas", "cmake", "CMakeLists.txt")


def _git(root, *args):
    try:
        return subprocess.run(["git", "-C", root] + list(args), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              universal_newlines=True).stdout.strip()
    except OSError:  # no git: the line says "unknown"
        return ""


def git_line(root, *inputs):
    """HEAD's commit, with the number of changed files among the simulator's sources and INPUTS
    (paths relative to ROOT, e.g. the experiment's workload folder)."""
    head = _git(root, "rev-parse", "HEAD") or "unknown"
    dirty = _git(root, "status", "--porcelain", "--untracked-files=all", "--", *(SIMULATOR_PATHS + inputs))
    n = len([l for l in dirty.splitlines() if l.strip()])
    if n:
        return "%s (the working tree differs from it in %d simulator source or input files: uncommitted work)" % (
            head, n)
    return head
