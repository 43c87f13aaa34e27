"""The notebook's places from data: an error of `napkin run --format json`
(code, message, labels with line, column and end, notes, help, mentions), written here
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
           notes=[], help="",
           mentions=[dict(text="/work/%s:5:9" % NAME, index=0, file="/work/" + NAME, line=5, column=9,
                          **{"in": "message"})])
expect("an error in a library: its place as it is; a place of the notebook in its message in cell terms",
       tr.error(lib),
       ["std/serving:75:21: error[E0300]: unknown name `q` (at cell[5]:1:9)", "   = not defined here"])


def mention(text, part, index, line, column, f=NAME):
    return {"text": text, "in": part, "index": index, "file": f, "line": line, "column": column}


# A call's error in cell[3] (line 2 of the file), its notes naming where it was called (line 5,
# column 9: cell[5]:1:9) and the field being computed (line 6 alone: cell[5]:2). The words
# `NAME:5` of a note are the start of `NAME:5:9` in another: each is replaced where it is.
call = dict(code="E0400", message="division by zero", **place(2, 9, 2, 10),
            labels=[dict(message="this is 0", primary=True, **place(2, 9, 2, 10))],
            notes=["in the call f(b) at %s:5:9" % NAME, "while computing s.b (%s:6)" % NAME,
                   "the file %s:5 is not a mention here" % NAME],
            help="see %s:5, std/x:3:1" % NAME,
            mentions=[mention(NAME + ":5:9", "note", 0, 5, 9), mention(NAME + ":6", "note", 1, 6, 0),
                      mention(NAME + ":5", "help", 0, 5, 0), mention("std/x:3:1", "help", 0, 3, 1, "std/x")])
expect("the places an error's notes and help name, from its mentions, in cell terms",
       tr.error(call)[-4:],
       ["  = note: in the call f(b) at cell[5]:1:9",
        "  = note: while computing s.b (cell[5]:2)",
        "  = note: the file %s:5 is not a mention here" % NAME,
        "  = help: see cell[5]:1, std/x:3:1"])
# Words that look like a place but that no mention names stay as napkin wrote them.
plain = dict(call, mentions=[])
expect("without mentions nothing is rewritten", tr.error(plain)[-4:-2],
       ["  = note: in the call f(b) at %s:5:9" % NAME, "  = note: while computing s.b (%s:6)" % NAME])

# What napkin wrote where a command writes no JSON: unchanged, the notebook's file explained once.
said = tr.unchanged("error[E0800]: --sweep 2: %s has 1 sweep\n" % NAME)
expect("napkin's own words, unchanged, the file named once",
       said, "error[E0800]: --sweep 2: %s has 1 sweep\n(%s is the notebook's file: the cells run so far, in order, "
       "each after a `# cell[N]` line; %%file shows it)" % (NAME, NAME))
expect("words that do not name the file: as they are", tr.unchanged("error[E0800]: no such option\n"),
       "error[E0800]: no such option")

# A document's errors: failed checks (E0500) are the cell's own to show.
doc = {"errors": [add, dict(code="E0500", message="check failed", labels=[], notes=[], help="")]}
expect("a document: its errors, E0500 left out", tr.errors(doc).count("error["), 1)
expect("no document: nothing", tr.errors(None), "")

sys.exit(1 if failures else 0)
