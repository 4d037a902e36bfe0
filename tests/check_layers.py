#!/usr/bin/python3
"""The layering rules of ckptsim (docs/ARCHITECTURE.md), checked on the includes of the sources:
  (a) the engine knows no protocol: no file under sim/ includes anything under protocols/ or names
      a protocol's folder (protocols/<name>);
  (b) plug-ins depend only on the contract: a file of protocols/<p>/ includes, of the project,
      only sim/protocol/ (the contract), protocols/common/ and protocols/<p>/; a file of
      protocols/common/ only sim/protocol/ and protocols/common/; no file sits at protocols/'s
      top level (it is either one protocol's or common);
  (c) an application kind's folder sim/app/<kind>/ includes no other kind's folder and no storage
      model's folder sim/storage/<model>/; a model's folder includes no other model's folder and no
      kind's folder; and no other file of sim/ includes a kind's or a model's folder (their
      registries find them);
  (d) the engine knows no command: no file under sim/ outside sim/cli/ includes sim/cli/;
  (e) the walk-through examples (tests/examples/) follow the rules of what they are: a protocol
      (it registers a ProtocolRegistration) as in (b), its own folder being tests/examples/; an
      application kind or a storage model (it registers one) as in (c);
  (f) no include cycle between the folders of sim/ (sim/<x>, each counted with its sub-folders):
      the folders form layers, each building on those below (reported once per cycle, at its
      first include in path order, naming every include that makes it).
Kinds are the folders sim/app/<x>/ whose kind.cpp registers an ApplicationKindRegistration, models
the folders sim/storage/<x>/, protocols the folders protocols/<x>/ but common: none is listed here.
An include is of the project when its path starts with sim/, protocols/ or tests/ (quoted or
angled); others are the standard library's or third parties'.

Usage: check_layers.py [ROOT]     check the tree at ROOT (default: this repository); exit 1 on a
                                   violation, each printed as "(rule) file:line: what: why".
       check_layers.py --self-test build small trees, one clean and one per violation of each rule,
                                   and check that the clean one passes and each violation is
                                   reported under its rule (exit 1 otherwise)."""
import os
import re
import sys
import tempfile

SOURCE_SUFFIXES = (".cpp", ".hpp", ".in")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
PROJECT = ("sim/", "protocols/", "tests/")


def subfolders(path):
    if not os.path.isdir(path):
        return []
    return sorted(d for d in os.listdir(path) if os.path.isdir(os.path.join(path, d)))


def sources(root, top):
    """Every source file under ROOT/TOP, as paths relative to ROOT with '/' separators."""
    out = []
    for folder, _, files in os.walk(os.path.join(root, top)):
        for name in files:
            if name.endswith(SOURCE_SUFFIXES):
                out.append(os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/"))
    return sorted(out)


def read_lines(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read().splitlines()


def includes(lines):
    """(line number, included path, line) of the project includes of a file."""
    for number, line in enumerate(lines, 1):
        m = INCLUDE.match(line)
        if m and m.group(1).startswith(PROJECT):
            yield number, m.group(1), line.strip()


def under(path, folder):
    return path.startswith(folder.rstrip("/") + "/")


class Plugins:
    """The plug-in folders found in a tree."""

    def __init__(self, root):
        self.protocols = [d for d in subfolders(os.path.join(root, "protocols")) if d != "common"]
        self.kinds = []
        for d in subfolders(os.path.join(root, "sim", "app")):
            kind_cpp = os.path.join(root, "sim", "app", d, "kind.cpp")
            if os.path.isfile(kind_cpp):
                with open(kind_cpp, encoding="utf-8") as f:
                    if "ApplicationKindRegistration" in f.read():
                        self.kinds.append(d)
        self.models = subfolders(os.path.join(root, "sim", "storage"))

    def kind_folders(self):
        return [f"sim/app/{k}" for k in self.kinds]

    def model_folders(self):
        return [f"sim/storage/{m}" for m in self.models]


def folder_of(path, folders):
    return next((f for f in folders if under(path, f)), None)


def check_protocol_file(path, lines, own, rule, violations):
    """Rule (b) on one file: its own folder @p own, the contract and protocols/common/ only."""
    allowed = ["sim/protocol", "protocols/common"] + ([own] if own and own != "protocols/common" else [])
    for number, target, line in includes(lines):
        if not any(under(target, a) for a in allowed):
            violations.append((rule, path, number, line,
                               f"a protocol includes only {', '.join(a + '/' for a in allowed)}"))


def check_plugin_file(path, lines, own, kinds, models, rule, violations):
    """Rule (c) on one file of a kind's or model's folder @p own (None: an example file)."""
    for number, target, line in includes(lines):
        other_kind = folder_of(target, kinds)
        other_model = folder_of(target, models)
        if other_kind and other_kind != own:
            violations.append((rule, path, number, line, f"includes the application kind folder {other_kind}/"))
        elif other_model and other_model != own:
            violations.append((rule, path, number, line, f"includes the storage model folder {other_model}/"))


def check(root):
    """The violations of the tree at @p root: (rule, file, line number, line, why)."""
    plugins = Plugins(root)
    kinds, models = plugins.kind_folders(), plugins.model_folders()
    violations = []

    # (a) and (d): the engine.
    named = re.compile(r"protocols/(" + "|".join(map(re.escape, plugins.protocols + ["common"])) + r")\b")
    for path in sources(root, "sim"):
        lines = read_lines(root, path)
        for number, line in enumerate(lines, 1):
            m = INCLUDE.match(line)
            if (m and m.group(1).startswith("protocols/")) or named.search(line):
                violations.append(("a", path, number, line.strip(), "the engine names no protocol"))
        for number, target, line in includes(lines):
            if under(target, "sim/cli") and not under(path, "sim/cli"):
                violations.append(("d", path, number, line, "the engine includes no command (sim/cli/)"))
        # (c): kinds and models, and who includes them.
        own = folder_of(path, kinds + models)
        if own:
            check_plugin_file(path, lines, own, kinds, models, "c", violations)
        else:
            for number, target, line in includes(lines):
                folder = folder_of(target, kinds + models)
                if folder:
                    violations.append(("c", path, number, line,
                                       f"only {folder}/ includes {folder}/ (its registry finds it)"))

    # (b): the protocols.
    for path in sources(root, "protocols"):
        parts = path.split("/")
        lines = read_lines(root, path)
        if len(parts) == 2:
            violations.append(("b", path, 1, parts[1], "a file of protocols/ is one protocol's or common's"))
            continue
        own = "/".join(parts[:2])
        check_protocol_file(path, lines, own, "b", violations)

    # (e): the walk-through examples.
    for path in sources(root, "tests/examples"):
        lines = read_lines(root, path)
        text = "\n".join(lines)
        if "ProtocolRegistration" in text:
            check_protocol_file(path, lines, "tests/examples", "e", violations)
        if "ApplicationKindRegistration" in text or "StorageModelRegistration" in text:
            check_plugin_file(path, lines, None, kinds, models, "e", violations)

    # (f): the folders of sim/ form layers.
    violations += folder_cycles(root)
    return plugins, violations


def folder_cycles(root):
    """One violation per include cycle between the folders of sim/ (strongly connected components
    of the graph of includes between sim/<x> folders)."""
    top = lambda path: "/".join(path.split("/")[:2])
    graph, edges = {}, {}
    for path in sources(root, "sim"):
        for number, target, line in includes(read_lines(root, path)):
            if not under(target, "sim") or len(target.split("/")) < 3 or top(path) == top(target):
                continue
            graph.setdefault(top(path), set()).add(top(target))
            edges.setdefault((top(path), top(target)), []).append((path, number, line))
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):  # Tarjan's algorithm; the graph has a few tens of folders
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    violations = []
    for component in found:
        inside = sorted(e for (a, b), es in edges.items() if a in component and b in component for e in es)
        path, number, line = inside[0]
        shown = "; ".join(f"{p}:{n}" for p, n, _ in inside[:8]) + (f" (+{len(inside) - 8} more)" if len(inside) > 8 else "")
        why = "include cycle between " + ", ".join(component) + ": " + shown
        violations.append(("f", path, number, line, why))
    return violations


def report(root):
    plugins, violations = check(root)
    for rule, path, number, line, why in violations:
        print(f"({rule}) {path}:{number}: {line}: {why}")
    print(f"{len(plugins.protocols)} protocols, {len(plugins.kinds)} application kinds, "
          f"{len(plugins.models)} storage models; {len(violations)} violation(s)")
    return 1 if violations else 0


# --self-test: a tiny tree with two protocols, two kinds (and the non-kind folder dataflow), two
# storage models, a CLI and examples, clean; then one violation per rule, each on a fresh copy.
CLEAN_TREE = {
    "sim/protocol/protocol.hpp": '#include "sim/net/envelope.hpp"\n',
    "sim/net/envelope.hpp": "#include <vector>\n",
    "sim/units/units.hpp": "",
    "sim/engine/run.cpp": '#include "sim/protocol/protocol.hpp"\n#include "sim/storage/model.hpp"\n'
                          '#include "sim/app/kind.hpp"\n',
    "sim/cli/main.cpp": '#include "sim/cli/commands.hpp"\n#include "sim/engine/run.hpp"\n',
    "sim/cli/commands.hpp": "",
    "sim/app/kind.hpp": "",
    "sim/app/dataflow/graph.hpp": "",
    "sim/app/alpha/kind.cpp": '#include "sim/app/alpha/workload.hpp"\n#include "sim/app/kind.hpp"\n'
                              "const ApplicationKindRegistration r{};\n",
    "sim/app/alpha/workload.hpp": '#include "sim/app/dataflow/graph.hpp"\n',
    "sim/app/beta/kind.cpp": '#include "sim/app/kind.hpp"\nconst ApplicationKindRegistration r{};\n',
    "sim/storage/model.hpp": "",
    "sim/storage/near/near.cpp": '#include "sim/storage/model.hpp"\n#include "sim/storage/near/near.hpp"\n',
    "sim/storage/near/near.hpp": "",
    "sim/storage/far/far.cpp": '#include "sim/storage/model.hpp"\n',
    "protocols/common/util.hpp": '#include "sim/protocol/protocol.hpp"\n#include <map>\n',
    "protocols/one/one.cpp": '#include "protocols/common/util.hpp"\n#include "protocols/one/one.hpp"\n'
                             '#include "sim/protocol/protocol.hpp"\n#include <fmt/format.h>\n'
                             "const ProtocolRegistration r{};\n",
    "protocols/one/one.hpp": "",
    "protocols/two/two.cpp": '#include "sim/protocol/protocol.hpp"\n',
    "tests/examples/example_protocol.cpp": '#include "sim/protocol/protocol.hpp"\nconst ProtocolRegistration r{};\n',
    "tests/examples/example_kind.cpp": '#include "sim/app/kind.hpp"\nconst ApplicationKindRegistration r{};\n',
}

# (rule, file, what is appended to it): each must be reported under its rule, at that file.
VIOLATIONS = [
    ("a", "sim/engine/run.cpp", '#include "protocols/one/one.hpp"\n'),
    ("a", "sim/engine/run.cpp", 'const char* where = "protocols/two";\n'),
    ("b", "protocols/one/one.cpp", '#include "sim/net/envelope.hpp"\n'),
    ("b", "protocols/one/one.cpp", "#include <sim/net/envelope.hpp>\n"),
    ("b", "protocols/one/one.cpp", '#include "protocols/two/two.hpp"\n'),
    ("b", "protocols/one/one.cpp", '#include "sim/app/alpha/workload.hpp"\n'),
    ("b", "protocols/common/util.hpp", '#include "protocols/one/one.hpp"\n'),
    ("b", "protocols/common/util.hpp", '#include "sim/storage/model.hpp"\n'),
    ("b", "protocols/loose.hpp", ""),
    ("c", "sim/app/alpha/workload.hpp", '#include "sim/app/beta/workload.hpp"\n'),
    ("c", "sim/app/alpha/workload.hpp", '#include "sim/storage/near/near.hpp"\n'),
    ("c", "sim/storage/near/near.cpp", '#include "sim/storage/far/far.hpp"\n'),
    ("c", "sim/storage/near/near.cpp", '#include "sim/app/beta/workload.hpp"\n'),
    ("c", "sim/engine/run.cpp", '#include "sim/app/alpha/workload.hpp"\n'),
    ("d", "sim/units/units.hpp", '#include "sim/cli/commands.hpp"\n'),  # from the engine, it would be a cycle too
    ("e", "tests/examples/example_protocol.cpp", '#include "sim/net/envelope.hpp"\n'),
    ("e", "tests/examples/example_kind.cpp", '#include "sim/storage/near/near.hpp"\n'),
    ("f", "sim/net/envelope.hpp", '#include "sim/protocol/protocol.hpp"\n'),
]


def build_tree(root, extra=None):
    for path, text in CLEAN_TREE.items():
        write(root, path, text)
    if extra:
        rule, path, text = extra
        write(root, path, CLEAN_TREE.get(path, "") + text)


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as f:
        f.write(text)


def self_test():
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        clean = os.path.join(scratch, "clean")
        build_tree(clean)
        plugins, found = check(clean)
        if found:
            failures.append(f"the clean tree reports {found}")
        discovered = (plugins.protocols, plugins.kinds, plugins.models)
        if discovered != (["one", "two"], ["alpha", "beta"], ["far", "near"]):
            failures.append(f"discovered protocols, kinds, models {discovered}")
        for index, case in enumerate(VIOLATIONS):
            rule, path, text = case
            tree = os.path.join(scratch, f"case{index}")
            build_tree(tree, case)
            _, found = check(tree)
            if [(v[0], v[1]) for v in found] != [(rule, path)]:
                failures.append(f"({rule}) {path} + {text.strip()!r}: reported {found}")
    for f in failures:
        print("FAIL", f)
    print(f"self-test: a clean tree and {len(VIOLATIONS)} violations, {len(failures)} failure(s)")
    return 1 if failures else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    return report(root)


if __name__ == "__main__":
    sys.exit(main())
