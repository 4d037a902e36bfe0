#!/usr/bin/python3
"""plots/sweep.py and plots/compare.py on tables ckptsim makes now (a tiny sweep and a tiny
`ckptsim compare --csv`) and on committed ones (tests/data/plots/: confidence-interval columns, a
failed run, a categorical axis, a point of one run, a point with no value): each image is written
and not empty, what is drawn is the table's numbers, and bad calls end with exit status 2 and a
message naming what is wrong.

    /usr/bin/python3 tests/plots/test_sweep_compare.py --ckptsim build/ckptsim

Needs Debian's python3-matplotlib (hence /usr/bin/python3). About 10 s."""
import argparse
import contextlib
import csv
import io
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PLOTS = os.path.join(ROOT, "plots")
DATA = os.path.join(ROOT, "tests", "data", "plots")
sys.path.insert(0, PLOTS)
import compare  # noqa: E402
import figure_cli  # noqa: E402
import sweep  # noqa: E402

CKPTSIM = None  # set by --ckptsim
TINY = ["--set", "topology/clusters/0/nodes=3", "--set", "topology/clusters/1/nodes=3", "--set",
        "topology/mtbf=20min", "--set", "application/total_time=1h"]


def script(name, *args):
    """Runs plots/NAME as ckptsim (or a user) would: a separate process."""
    return subprocess.run([sys.executable, os.path.join(PLOTS, name), *args], capture_output=True, text=True,
                          timeout=120)


def in_process(main, *args):
    """(exit status, stderr) of a script's main called as its command line would: faster than a
    process for the error cases, and the same code path (figure_cli.run)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            figure_cli.run(main, list(args))
            status = 0
        except SystemExit as e:
            status = e.code
    return status, err.getvalue()


def data_rows(path):
    with open(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


class Base(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = cls.tmp.name

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def out(self, name):
        return os.path.join(self.dir, name)

    def assertImage(self, path, signature):
        self.assertTrue(os.path.exists(path), path)
        with open(path, "rb") as f:
            data = f.read()
        self.assertTrue(data.startswith(signature), "%s: not a %r file" % (path, signature))
        self.assertGreater(len(data), 5000, path + ": too small to hold a figure")

    def assertSays(self, text, words):
        """WORDS are in the SVG TEXT (a failure names them, not the whole file)."""
        self.assertTrue(words in text, "not in the figure: %r" % words)

    def svg_text(self, path):
        self.assertImage(path, b"<?xml")
        with open(path) as f:
            return f.read()


class SweepFigure(Base):
    """A sweep ckptsim runs now: 3 periods x 2 protocols x 3 seeds."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.prefix = os.path.join(cls.dir, "tiny")
        proc = subprocess.run([CKPTSIM, "sweep", os.path.join(DATA, "tiny.sweep.json"), "--out", cls.prefix,
                               "--jobs", "2", "--progress", "false"], capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            raise AssertionError("ckptsim sweep: exit %d: %s" % (proc.returncode, proc.stderr))
        cls.points = cls.prefix + ".points.csv"

    def test_draws_png_svg_pdf(self):
        for ext, signature in (("png", b"\x89PNG"), ("svg", b"<?xml"), ("pdf", b"%PDF")):
            out = self.out("lost." + ext)
            proc = script("sweep.py", self.points, "--x", "period", "--y", "results.lost_work", "--by", "protocol",
                          "--logy", "-o", out)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertImage(out, signature)

    def test_lines_are_the_tables_means_and_intervals(self):
        table = sweep.Table(self.points)
        drawn, ticks, xlabel, ylabel, skipped, split = sweep.lines(table, table.rows, "period",
                                                                   "results.lost_work", "protocol")
        self.assertIsNone(ticks)  # 10min, 30min, 1h: a numeric axis, in minutes
        self.assertEqual((xlabel, ylabel, skipped, split), ("period (min)", "lost work (s)", 0, ["protocol"]))
        self.assertEqual([line.label for line in drawn], ["coordinated", "hc3i"])
        rows = data_rows(self.points)
        for line in drawn:
            self.assertEqual(line.x, [10.0, 30.0, 60.0])
            mine = [r for r in rows if r["protocol"] == line.label]
            self.assertEqual(line.y, [float(r["results.lost_work.mean"]) for r in mine])
            self.assertEqual(line.yerr, [float(r["results.lost_work.ci95"]) for r in mine])

    def test_bytes_drawn_in_MB_and_a_varying_column_splits_the_lines(self):
        table = sweep.Table(self.points)
        drawn, _, _, ylabel, _, split = sweep.lines(table, table.rows, "period",
                                                    "results.storage_held_max_bytes", None)
        self.assertEqual(ylabel, "storage held max (MB)")
        self.assertEqual(split, ["protocol"])  # not --by, but it varies: one line each all the same
        hc3i = [r for r in data_rows(self.points) if r["protocol"] == "hc3i"]
        self.assertEqual(drawn[1].y, [float(r["results.storage_held_max_bytes.mean"]) * 1e-6 for r in hc3i])

    def test_svg_says_what_it_draws(self):
        out = self.out("lost.svg")
        proc = script("sweep.py", self.points, "--x", "period", "--y", "results.lost_work", "--by", "protocol",
                      "-o", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        text = self.svg_text(out)
        for words in ("period (min)", "lost work (s)", "coordinated", "hc3i", "protocol",
                      "mean lost work against period", "over 3 runs per point"):
            self.assertSays(text, words)

    def test_unknown_columns_exit_2_with_the_columns(self):
        for option in ("--x", "--y", "--by"):
            args = {"--x": "period", "--y": "results.makespan", "--by": "protocol"}
            args[option] = "nosuch"
            out = self.out("never.png")
            status, err = in_process(sweep.main, self.points, *[a for kv in args.items() for a in kv], "-o", out)
            self.assertEqual(status, 2, option)
            self.assertIn("%s nosuch: no such column" % option, err)
            self.assertIn("results.lost_work", err)  # the statistics are listed
            self.assertIn("naming columns: period, protocol, storage", err)
            self.assertFalse(os.path.exists(out))

    def test_other_bad_calls_exit_2(self):
        cases = [
            (["--x", "period", "--y", "results.makespan", "-o", self.out("x.jpg")], "must end with .png, .svg, .pdf"),
            (["--x", "protocol", "--y", "results.makespan", "--logx", "-o", self.out("x.png")],
             "--logx: protocol is not numeric"),
            (["--x", "period", "--y", "results.makespan", "--by", "results.lost_work", "-o", self.out("x.png")],
             "not a naming column"),
            (["--x", "period", "--y", "results.makespan", "--where", "protocol=nosuch", "-o", self.out("x.png")],
             "no row; the values of protocol are: coordinated, hc3i"),
        ]
        for args, message in cases:
            status, err = in_process(sweep.main, self.points, *args)
            self.assertEqual(status, 2, args)
            self.assertIn(message, err)
        status, err = in_process(sweep.main, self.prefix + ".csv", "--x", "period", "--y", "results.makespan",
                                 "-o", self.out("x.png"))
        self.assertEqual(status, 2)
        self.assertIn("a per-run table", err)
        self.assertFalse(os.path.exists(self.out("x.png")))


class SweepEdgeCases(Base):
    """The committed edge.points.csv: a categorical axis, a point of one run, one with no value."""

    def test_categorical_axis_single_run_and_failed_point(self):
        path = os.path.join(DATA, "edge.points.csv")
        table = sweep.Table(path)
        drawn, ticks, _, _, skipped, _ = sweep.lines(table, table.rows, "mtbf", "results.makespan", None)
        self.assertEqual(ticks, ["1h", "never", "2h"])  # the table's order
        self.assertEqual(skipped, 1)  # 2h: every run failed
        self.assertEqual(len(drawn), 1)
        self.assertEqual((drawn[0].x, drawn[0].y, drawn[0].yerr), ([0.0, 1.0], [5000.0, 3600.0], [248.4, 0.0]))
        out = self.out("edge.svg")
        status, err = in_process(sweep.main, path, "--x", "mtbf", "--y", "results.makespan", "-o", out)
        self.assertEqual(status, 0, err)
        text = self.svg_text(out)
        self.assertSays(text, "1 point(s) left out")
        self.assertSays(text, "over 1 to 3 runs per point (none for a point of one run)")


class CompareFigure(Base):
    def test_a_table_ckptsim_compare_writes_now(self):
        table = self.out("compare.csv")
        proc = subprocess.run([CKPTSIM, "compare", "--seed", "3", *TINY, "--csv", table], capture_output=True,
                              text=True, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        rows = data_rows(table)
        self.assertEqual(len(rows), 4)
        out = self.out("compare.png")
        proc = script("compare.py", table, "-o", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertImage(out, b"\x89PNG")
        out = self.out("compare.svg")
        self.assertEqual(in_process(compare.main, table, "-o", out)[0], 0)
        # One SVG group per panel, in the order of the statistics: its title and each protocol's
        # number over its bar, as the table wrote it.
        panels = self.svg_text(out).split('<g id="axes_')[1:]
        expected = [("makespan", "makespan (s)"), ("lost work", "lost work (s)"), ("protocol messages", "ctrl msgs"),
                    ("protocol messages across the WAN", "ctrl WAN"),
                    ("checkpoint storage held (most at once)", "held max MB"),
                    ("processes rolled back per failure", "rolled back/f")]
        self.assertEqual(len(panels), len(expected))
        for panel, (title, column) in zip(panels, expected):
            self.assertSays(panel, ">%s<" % title)
            for r in rows:
                self.assertSays(panel, ">%s<" % r[column])

    def test_intervals_and_a_failed_run(self):
        out = self.out("ci.svg")
        status, err = in_process(compare.main, os.path.join(DATA, "compare-ci.csv"), "-o", out)
        self.assertEqual(status, 0, err)
        text = self.svg_text(out)
        for words in ("± 412.3", "± 120333", "failed (exit 3)", "means over 5 runs each",
                      "CONSISTENCY VIOLATIONS: msglog:variant=optimistic", "95 % confidence interval",
                      "failures struck/deferred: 3/0 in every run"):
            self.assertSays(text, words)
        self.assertEqual(text.count(">failed (exit 3)<"), 6)  # in each panel, in place of its bar

    def test_missing_columns_exit_2_naming_them(self):
        source = os.path.join(DATA, "compare-ci.csv")
        cut = self.out("cut.csv")
        with open(source) as f, open(cut, "w") as g:
            for line in f:
                if not line.startswith("#"):
                    g.write(",".join(line.rstrip("\n").split(",")[:9]) + "\n")  # up to "held max MB ci95"
        out = self.out("cut.png")
        status, err = in_process(compare.main, cut, "-o", out)
        self.assertEqual(status, 2)
        self.assertIn("missing columns ctrl msgs, ctrl WAN, rolled back/f", err)
        self.assertFalse(os.path.exists(out))
        status, err = in_process(compare.main, self.out("nosuch.csv"), "-o", out)
        self.assertEqual(status, 2)
        self.assertIn("nosuch.csv: cannot read", err)


def main():
    global CKPTSIM
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ckptsim", default=os.path.join(ROOT, "build", "ckptsim"), help="the ckptsim binary")
    args, rest = p.parse_known_args()
    CKPTSIM = os.path.abspath(args.ckptsim)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
