#!/usr/bin/python3
"""The engine knows no protocol: no file under sim/ names a protocol's folder (protocols/<name>)
or includes anything under protocols/. The build refuses such an include already (the engine is
compiled with only sim/ reachable); this check says it in the test suite and also catches a
protocol folder named in the engine's text. Usage: check_layers.py ROOT. Exit 1 on a violation."""
import os
import re
import sys


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    protocols = sorted(d for d in os.listdir(os.path.join(root, "protocols"))
                       if os.path.isdir(os.path.join(root, "protocols", d)))
    pattern = re.compile(r'#include\s+"protocols/|protocols/(' + "|".join(map(re.escape, protocols)) + r')\b')
    bad = []
    for folder, _, files in os.walk(os.path.join(root, "sim")):
        for name in files:
            if not name.endswith((".cpp", ".hpp", ".in")):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    if pattern.search(line):
                        bad.append(f"{os.path.relpath(path, root)}:{number}: {line.strip()}")
    for b in bad:
        print(b)
    print(f"{len(protocols)} protocol folders, {len(bad)} mention(s) in the engine")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
