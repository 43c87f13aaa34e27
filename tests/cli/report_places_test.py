"""Where `napkin run --format json` says each value, check, solve and
record is written, and which values are inputs: what the playground places
its values by (docs/playground.md). Every place below is counted by hand
from the text, lines and columns from 1, the end just past the span.

Usage: report_places_test.py NAPKIN  (from the repository root)
"""
import json
import os
import subprocess
import sys
import tempfile

NAPKIN = sys.argv[1]
failures = 0

# Line numbers and columns matter: the assertions below name them.
TEXT = """\
let a = 2 s
let twice = a * 2
scenario s {
  n    = 4
  t: s = n * a
}
scenario wide = s with { n = 8 }
check s.t == 8 s
solve s for n max where t <= 10 s
"""


def expect(name, cond, got=None):
    global failures
    print(("ok   " if cond else "FAIL ") + name + ("" if cond else f": {got!r}"))
    if not cond:
        failures += 1


def place(line, column, end_line, end_column, file="places.napkin"):
    return {"file": file, "line": line, "column": column, "end_line": end_line, "end_column": end_column}


with tempfile.TemporaryDirectory() as d:
    with open(os.path.join(d, "places.napkin"), "w", encoding="utf-8") as f:
        f.write(TEXT)
    r = subprocess.run([NAPKIN, "run", "places.napkin", "--format", "json"], cwd=d, capture_output=True, text=True)
    doc = json.loads(r.stdout)
    v = doc["values"]
    # A let: its name after `let `.
    expect("a let's place is its name (1:5 to 1:6)", v["a"].get("at") == place(1, 5, 1, 6), v["a"].get("at"))
    expect("a let written as a literal is an input", v["a"].get("input") is True, v["a"].get("input"))
    expect("a let that is a formula is not", v["twice"].get("input") is False and v["twice"]["at"] == place(2, 5, 2, 10),
           v["twice"])
    # A record's fields: the name at the start of their line.
    expect("a field's place is its name (4:3 to 4:4)", v["s.n"].get("at") == place(4, 3, 4, 4), v["s.n"].get("at"))
    expect("a field written as a literal is an input", v["s.n"].get("input") is True, v["s.n"])
    expect("a typed field's formula: its name, and no input", v["s.t"].get("at") == place(5, 3, 5, 4) and
           v["s.t"].get("input") is False, v["s.t"])
    # `wide` sets n in its `with` (7:26) and takes t from s, written on line 5.
    expect("a field set by `with` is placed there", v["wide.n"].get("at") == place(7, 26, 7, 27), v["wide.n"].get("at"))
    expect("a field a record takes from another is placed where that one writes it",
           v["wide.t"].get("at") == place(5, 3, 5, 4), v["wide.t"].get("at"))
    # Each record's whole statement, for what it has that it does not write.
    expect("records: each statement, in the file's order",
           doc.get("records") == [{"name": "s", "kind": "scenario", "at": place(3, 1, 6, 2)},
                                  {"name": "wide", "kind": "scenario", "at": place(7, 1, 7, 33)}], doc.get("records"))
    expect("a check: its whole statement", [c.get("at") for c in doc["checks"]] == [place(8, 1, 8, 17)],
           [c.get("at") for c in doc["checks"]])
    expect("a solve: its whole statement", [s.get("at") for s in doc.get("solves", [])] == [place(9, 1, 9, 34)],
           [s.get("at") for s in doc.get("solves", [])])

    # An input with no value and an error still say where they are written.
    with open(os.path.join(d, "broken.napkin"), "w", encoding="utf-8") as f:
        f.write("let x = y + 1\nrecord r {\n  need: B\n  use = need * 2\n}\n")
    r = subprocess.run([NAPKIN, "run", "broken.napkin", "--format", "json"], cwd=d, capture_output=True, text=True)
    v = json.loads(r.stdout)["values"]
    expect("a let that fails: its error and its place", "error" in v["x"] and
           v["x"].get("at") == place(1, 5, 1, 6, "broken.napkin"), v["x"])
    expect("a field waiting for an input: its place", v["r.use"].get("needs") == "need" and
           v["r.use"].get("at") == place(4, 3, 4, 6, "broken.napkin"), v["r.use"])

    # A failed check carries its error whole, as `napkin run` prints it on stderr.
    with open(os.path.join(d, "failing.napkin"), "w", encoding="utf-8") as f:
        f.write("let a = 2 s\ncheck a > 5 s\n")
    r = subprocess.run([NAPKIN, "run", "failing.napkin", "--format", "json"], cwd=d, capture_output=True, text=True)
    c = json.loads(r.stdout)["checks"][0]
    diag = c.get("diagnostic", {})
    # `a > 5 s` runs from column 7 to 14 on line 2.
    expect("a failed check: E0500 over its condition, its label and help", c["passed"] is False and
           (diag.get("code"), diag.get("message"), diag.get("line"), diag.get("column"), diag.get("end_column")) ==
           ("E0500", "check failed: 2 s > 5 s is false", 2, 7, 14) and
           [l["message"] for l in diag.get("labels", [])] == ["this is false"] and "napkin explain" in diag.get("help", ""),
           c)
    expect("... the same error the terminal shows", "failing.napkin:2:7: error[E0500]: check failed: 2 s > 5 s is false"
           in r.stderr, r.stderr)

    # TOML carries the report as it was: no places.
    r = subprocess.run([NAPKIN, "run", "places.napkin", "--format", "toml"], cwd=d, capture_output=True, text=True)
    expect("TOML is unchanged: no places in it", r.returncode == 0 and "end_column" not in r.stdout and
           "[values" in r.stdout, r.stdout[:200])

sys.exit(1 if failures else 0)
