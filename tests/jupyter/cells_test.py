"""The notebook's places from data: an error of `napkin run --format json`
(code, message, labels with line, column and end, notes, help), written here
by hand, laid out in the cells' terms as the terminal lays it out. Nothing
here is napkin's rendered text.

Usage: cells_test.py  (from anywhere; no napkin, no Jupyter needed)
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "jupyter"))
from napkin_cells import Cell, FileText, Translator  # noqa: E402

failures = 0


def expect(name, got, want):
    global failures
    ok = got == want
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else "\n  got:  %r\n  want: %r" % (got, want)))
    failures += 0 if ok else 1


# The file: line 1 `# cell[3]`, cell[3] on lines 2-3, line 4 `# cell[5]`, cell[5] on lines 5-6.
cells = [Cell("a", 3, "let a = 2 s\nlet µ = 1"), Cell("b", 5, "let b = a + 3\nlet a = 1")]
file = FileText(cells)
NAME = ".napkin-notebook-1.napkin"
tr = Translator(file, ["/work/" + NAME, NAME])


def place(line, column, end_line, end_column, f=NAME):
    return {"file": f, "line": line, "column": column, "end_line": end_line, "end_column": end_column}


add = dict(code="E0201", message="cannot add s (time) and a plain number", **place(5, 9, 5, 10),
           labels=[dict(message="this is s (time) (2 s)", primary=True, **place(5, 9, 5, 10)),
                   dict(message="this is a plain number (3)", primary=False, **place(5, 13, 5, 14))],
           notes=[], help="both sides of `+` must have the same dimension")
expect("an error in cell[5]: its place, its line numbered in the cell, both labels, its help",
       tr.error(add),
       ["cell[5]:1:9: error[E0201]: cannot add s (time) and a plain number",
        "  |",
        "1 | let b = a + 3",
        "  |         ^ this is s (time) (2 s)",
        "  |             - this is a plain number (3)",
        "  = help: both sides of `+` must have the same dimension"])

# `a` defined twice: the primary label in cell[5], the other in cell[3] after an arrow.
twice = dict(code="E0304", message="`a` is defined twice", **place(6, 5, 6, 6),
             labels=[dict(message="defined again here", primary=True, **place(6, 5, 6, 6)),
                     dict(message="first defined here", primary=False, **place(2, 5, 2, 6))],
             notes=["a name means one thing in a file"], help="")
expect("a label in another cell: `--> cell[3]:1:5` before its line; a note",
       tr.error(twice),
       ["cell[5]:2:5: error[E0304]: `a` is defined twice",
        " --> cell[3]:1:5",
        "  |",
        "1 | let a = 2 s",
        "  |     - first defined here",
        " --> cell[5]:2:5",
        "  |",
        "2 | let a = 1",
        "  |     ^ defined again here",
        "  = note: a name means one thing in a file"])

# A column counts bytes: µ is two, the caret goes under the character after it.
wide = dict(code="E0300", message="unknown name", **place(3, 11, 3, 12),
            labels=[dict(message="", primary=True, **place(3, 11, 3, 12))], notes=[], help="")
expect("a byte column after µ: the caret under the right character",
       tr.error(wide)[2:], ["2 | let µ = 1", "  |          ^"])

# In another file (a library): named by its place, its text not the notebook's to show.
lib = dict(code="E0300", message="unknown name `q` (at /work/%s:5:9)" % NAME, **place(75, 21, 75, 41, "std/serving"),
           labels=[dict(message="not defined here", primary=True, **place(75, 21, 75, 41, "std/serving"))],
           notes=[], help="")
expect("an error in a library: its place as it is; a place of the notebook in its message in cell terms",
       tr.error(lib),
       ["std/serving:75:21: error[E0300]: unknown name `q` (at cell[5]:1:9)", "   = not defined here"])

# A document's errors: failed checks (E0500) are the cell's own to show.
doc = {"errors": [add, dict(code="E0500", message="check failed", labels=[], notes=[], help="")]}
expect("a document: its errors, E0500 left out", tr.errors(doc).count("error["), 1)
expect("no document: nothing", tr.errors(None), "")

sys.exit(1 if failures else 0)
