#!/usr/bin/python3
"""The example outputs the README and the docs show are produced, not typed: each is marked by a
comment naming the ckptsim command that prints it,

    <!-- example: compare --seed 2 -->                      the next fenced block is its stdout
    <!-- example[lines=20-24]: advise --topology ... -->    only these lines of it (1-based, ranges)
    <!-- example[skip=2,stderr]: advise ... -->             the block's first 2 lines are not output
                                                            (a command line); stderr follows stdout

run from the repository's root. --check runs every command and exits 1 naming each block that
differs from what the binary prints (the test suite's docs.ExamplesMatchTheBinary); --update
rewrites the blocks. A run that exits with a status other than 0 is an error.

    /usr/bin/python3 docs/examples.py --check --ckptsim build/ckptsim [FILE.md ...]
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARKER = re.compile(r"<!-- example(?:\[([^\]]*)\])?: (.*?) -->")
DEFAULT_FILES = ["README.md"] + sorted(os.path.join("docs", f) for f in os.listdir(os.path.join(ROOT, "docs"))
                                       if f.endswith(".md"))


def options_of(text):
    opts = {"lines": None, "skip": 0, "stderr": False}
    for item in filter(None, (t.strip() for t in (text or "").split(","))):
        key, _, value = item.partition("=")
        if key == "lines":
            opts["lines"] = []
            for r in value.split("+"):
                a, _, b = r.partition("-")
                opts["lines"].append((int(a), int(b or a)))
        elif key == "skip":
            opts["skip"] = int(value)
        elif key == "stderr":
            opts["stderr"] = True
        else:
            raise ValueError(f"unknown option {key!r} of an example marker")
    return opts


def examples(path):
    """(marker line, options, command, first line of the block's content, end line) of each example."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out = []
    for i, line in enumerate(lines):
        m = MARKER.search(line)
        if not m:
            continue
        start = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), None)
        end = next((j for j in range(start + 1, len(lines)) if lines[j].startswith("```")), None) if start else None
        if start is None or end is None:
            raise ValueError(f"{path}:{i + 1}: an example marker with no fenced block after it")
        out.append((i, options_of(m.group(1)), m.group(2), start + 1, end))
    return lines, out


def produce(binary, opts, command):
    r = subprocess.run([binary] + shlex.split(command), cwd=ROOT, capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        raise RuntimeError(f"`ckptsim {command}` exited with {r.returncode}:\n{r.stderr}")
    text = r.stdout + (r.stderr if opts["stderr"] else "")
    got = text.rstrip("\n").split("\n")
    if opts["lines"]:
        got = [got[k - 1] for a, b in opts["lines"] for k in range(a, b + 1) if k - 1 < len(got)]
    return got


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--update", action="store_true")
    ap.add_argument("--ckptsim", default="build/ckptsim")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("files", nargs="*", default=DEFAULT_FILES)
    args = ap.parse_args()
    binary = os.path.abspath(args.ckptsim)
    found = [(f, *examples(os.path.join(ROOT, f))) for f in args.files]
    jobs = [(f, ex) for f, _, exs in found for ex in exs]
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        outputs = list(pool.map(lambda j: produce(binary, j[1][1], j[1][2]), jobs))
    produced = dict(zip([(f, ex[0]) for f, ex in jobs], outputs))
    differ = 0
    for f, lines, exs in found:
        new = list(lines)
        for marker, opts, command, first, end in reversed(exs):
            shown = lines[first + opts["skip"]:end]
            got = produced[(f, marker)]
            if shown != got:
                differ += 1
                print(f"{f}:{marker + 1}: the output shown differs from `ckptsim {command}`:")
                for a, b in zip(shown + [""] * (len(got) - len(shown)), got + [""] * (len(shown) - len(got))):
                    if a != b:
                        print(f"  shown:  {a}\n  prints: {b}")
                new[first + opts["skip"]:end] = got
        if args.update and new != lines:
            with open(os.path.join(ROOT, f) + ".tmp", "w", encoding="utf-8") as out:
                out.write("\n".join(new))
            os.replace(os.path.join(ROOT, f) + ".tmp", os.path.join(ROOT, f))
            print(f"{f}: examples rewritten")
    print(f"{len(jobs)} example(s), {differ} differing")
    sys.exit(1 if differ and args.check else 0)


if __name__ == "__main__":
    main()
