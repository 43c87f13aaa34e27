"""The report as data: `napkin run --format json|toml` read by real parsers
(json, tomllib), and `napkin diff --format json`, each field asserted
against a figure worked out by hand in the comments beside it.

Usage: report_data_test.py NAPKIN  (from the repository root)
"""
import json
import math
import os
import subprocess
import sys
import tempfile
import tomllib

NAPKIN = sys.argv[1]
failures = 0
passes = 0

# Line numbers matter: the assertions below name them.
DATA = """\
# The report as data: every figure below is worked out by hand.
scenario s {
  bytes = 16 GB
  bw    = 2 TB/s
  t     = bytes / bw
  batch = 4
  per   = batch * 2 GB
  fits  = per <= 10 GB
}
check s.t ≈ 8 ms within 1%
check s.t == 9 ms
check s.bytes
solve s for batch max where fits
solve s for batch in [6, 9] max where fits
"""


def expect(name, cond):
    global failures, passes
    if cond:
        passes += 1
    else:
        failures += 1
        print(f"FAIL {name}")


def close(x, y):
    return isinstance(x, (int, float)) and math.isclose(x, y, rel_tol=1e-12)


def run(*args):
    return subprocess.run([NAPKIN, *args], capture_output=True, text=True, env={**os.environ, "NAPKIN_NO_MEASURE": "1"})


def document(fmt, path):
    done = run("run", path, "--format", fmt)
    # A check failed and a check and a solve could not be evaluated: errors win, exit 2.
    expect(f"{fmt}.exit", done.returncode == 2)
    return json.loads(done.stdout) if fmt == "json" else tomllib.loads(done.stdout)


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "data.napkin")
    with open(path, "w", encoding="utf-8") as f:
        f.write(DATA)
    for fmt in ("json", "toml"):
        doc = document(fmt, path)
        t = doc["values"]["s.t"]
        # t = 16 GB / (2 TB/s) = 16e9 B / 2e12 B/s = 0.008 s, shown as 8 ms.
        expect(f"{fmt}.value", close(t["si"], 0.008) and t["unit"] == "s" and t["display"] == "8 ms")
        d = t["derivation"]
        expect(f"{fmt}.derivation.text", d["formula"] == "bytes / bw" and d["substituted"] == "16 GB / (2 TB/s)"
               and d["result"] == "8 ms" and d["origin"].endswith("data.napkin:5"))
        # Its formula read two fields: 16 GB = 16e9 B and 2 TB/s = 2e12 B/s.
        expect(f"{fmt}.derivation.inputs", [(i["name"], i["si"], i["unit"]) for i in d["inputs"]]
               == [("s.bytes", 16e9, "B"), ("s.bw", 2e12, "B/s")])
        # A literal has nothing to derive and reads nothing.
        b = doc["values"]["s.bytes"]["derivation"]
        expect(f"{fmt}.derivation.literal", b["literal"] is True and b["inputs"] == [])

        checks = doc["checks"]
        expect(f"{fmt}.checks.order", [c["line"] for c in checks] == [10, 11, 12])
        # Line 10: 8 ms ≈ 8 ms within 1% (0.01) passes.
        c = checks[0]
        expect(f"{fmt}.check.passed", c["status"] == "passed" and c["passed"] is True and c["relation"] == "≈")
        expect(f"{fmt}.check.actual", close(c["actual"]["si"], 0.008) and c["actual"]["unit"] == "s")
        expect(f"{fmt}.check.expected", close(c["expected"]["si"], 0.008) and c["expected"]["display"] == "8 ms")
        expect(f"{fmt}.check.tolerance", close(c["tolerance"]["si"], 0.01) and c["tolerance"]["display"] == "1%")
        # Line 11: 8 ms == 9 ms fails; no tolerance for ==.
        c = checks[1]
        expect(f"{fmt}.check.failed", c["status"] == "failed" and c["passed"] is False and c["relation"] == "==")
        expect(f"{fmt}.check.failed_sides", close(c["actual"]["si"], 0.008) and close(c["expected"]["si"], 0.009)
               and "tolerance" not in c)
        # Line 12: `check s.bytes` is a number, not a condition: E0501 at the
        # expression, column 7 (after "check ").
        c = checks[2]
        e = c.get("error", {})
        expect(f"{fmt}.check.errored", c["status"] == "errored" and (e.get("code"), e.get("line"), e.get("column"))
               == ("E0501", 12, 7))

        solves = doc["solves"]
        expect(f"{fmt}.solves.count", len(solves) == 2)
        # per = batch · 2 GB <= 10 GB holds up to batch 5 (10 GB), not at 6 (12 GB).
        s = solves[0]
        expect(f"{fmt}.solve.found", s["statement"] == "solve s for batch max where fits" and s["solution"]["si"] == 5
               and s["whole_numbers"] is True and s["beyond"]["input"]["si"] == 6 and s["beyond"]["holds"] is False)
        # In [6, 9] it never holds: E0503 at the statement, line 14 column 1.
        s = solves[1]
        e = s.get("error", {})
        expect(f"{fmt}.solve.error", "solution" not in s and (e.get("code"), e.get("line"), e.get("column"))
               == ("E0503", 14, 1) and e.get("file", "").endswith("data.napkin"))
        # The document's errors: every one the run met, the check's, then the solve's.
        expect(f"{fmt}.errors", [(e["code"], e["line"]) for e in doc["errors"]] == [("E0501", 12), ("E0503", 14)])

    # A check that fails in both versions, with other values: 2 GB then 3 GB against 1 GB.
    old, new = os.path.join(tmp, "old.napkin"), os.path.join(tmp, "new.napkin")
    with open(old, "w") as f:
        f.write("scenario s {\n  x = 2 GB\n}\ncheck s.x == 1 GB\n")
    with open(new, "w") as f:
        f.write("scenario s {\n  x = 3 GB\n}\ncheck s.x == 1 GB\n")
    done = run("diff", "--format", "json", old, new)
    c = json.loads(done.stdout)["checks"]
    expect("diff.check_moved", len(c) == 1 and c[0]["moved"] is True and c[0]["before"] == "failed"
           and c[0]["after"] == "failed" and c[0]["actual"]["before"]["si"] == 2e9 and c[0]["actual"]["after"]["si"] == 3e9
           and c[0]["expected"]["after"]["si"] == 1e9)
    done = run("diff", old, new)
    expect("diff.check_moved.text", "  ✗ check s.x == 1 GB  (failed before; actual 2 GB → 3 GB)\n" in done.stdout)

# uncertain_decode on 4 GPUs instead of 8 (examples/review/): the largest
# batch that fits falls 203 → 75 (floor((343.6 - 141.1) GB / 2.684 GB), see
# tests/review/diff_test.sh), and no batch reaches 5,000 token/s at its 5th
# percentile any more: the answer 88 becomes E0503 at the statement, line 57.
done = run("diff", "--format", "json", "examples/uncertain_decode.napkin", "examples/review/uncertain_decode_4_gpus.napkin")
moved = {m["name"]: m for m in json.loads(done.stdout)["moved"]}
fits = moved.get("solve decode for batch max where fits", {})
expect("diff.solve_203_75", fits.get("before", {}).get("si") == 203 and fits.get("after", {}).get("si") == 75)
rate = moved.get("solve decode for batch min where p5(tokens_per_s) >= 5000 token/s", {})
err = rate.get("after", {}).get("error", {})
expect("diff.solve_error", rate.get("before", {}).get("si") == 88 and (err.get("code"), err.get("line"), err.get("column"))
       == ("E0503", 57, 1))

# --brief: each value keeps its figures and its two lines of text, and has no
# derivation tree; the checks and errors are the full report's.
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "data.napkin")
    with open(path, "w", encoding="utf-8") as f:
        f.write(DATA)
    for fmt in ("json", "toml"):
        done = run("run", path, "--format", fmt, "--brief")
        expect(f"brief.{fmt}.exit", done.returncode == 2)
        doc = json.loads(done.stdout) if fmt == "json" else tomllib.loads(done.stdout)
        t = doc["values"]["s.t"]
        expect(f"brief.{fmt}.value", close(t["si"], 0.008) and t["unit"] == "s" and t["display"] == "8 ms"
               and t["formula"] == "bytes / bw" and t["substituted"] == "16 GB / (2 TB/s)")
        expect(f"brief.{fmt}.no_tree", all("derivation" not in v for v in doc["values"].values()))
        full = document(fmt, path)
        expect(f"brief.{fmt}.checks", doc["checks"] == full["checks"] and doc.get("errors") == full.get("errors"))
        # --brief=values: the figures and display alone; no formula was kept.
        done = run("run", path, "--format", fmt, "--brief=values")
        expect(f"brief_values.{fmt}.exit", done.returncode == 2)
        doc = json.loads(done.stdout) if fmt == "json" else tomllib.loads(done.stdout)
        t = doc["values"]["s.t"]
        # JSON also says where each value is written and whether it is an input (report_places_test.py).
        places = ["at", "input"] if fmt == "json" else []
        expect(f"brief_values.{fmt}.value", sorted(t) == sorted(["display", "si", "unit"] + places) and close(t["si"], 0.008)
               and t["unit"] == "s" and t["display"] == "8 ms")
        expect(f"brief_values.{fmt}.checks", doc["checks"] == full["checks"] and doc.get("errors") == full.get("errors"))
        expect(f"brief_values.{fmt}.same_values", sorted(doc["values"]) == sorted(full["values"]))
    done = run("run", path, "--format", "json", "--brief=trees")
    expect("brief.unknown_level", done.returncode == 2 and done.stdout == "" and done.stderr.startswith(
        "error[E0800]: --brief: trees not in {lines,values}\n"))
    done = run("run", path, "--brief")
    expect("brief.text_refused", done.returncode == 2 and done.stdout == "" and done.stderr.startswith(
        "error[E0800]: --brief shortens the JSON or TOML report: use it with --format json or toml\n"))

# A diagnostic whole, as data. `b = a + 3 s` (line 2) has two labels: the
# bytes at column 9 (`a`, one character: it ends at column 10, where an
# editor's range ends) and the seconds at columns 13-15 (`3 s`, ending at
# 16); and a help. The terminal shows the same four pieces.
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "mixed.napkin")
    with open(path, "w", encoding="utf-8") as f:
        f.write("let a = 1 B\nlet b = a + 3 s\n")
    done = run("run", path, "--format", "json")
    err = json.loads(done.stdout)["errors"][0]
    expect("diagnostic.code", done.returncode == 2 and err["code"] == "E0201")
    expect("diagnostic.place", tuple(err.get(k) for k in ("file", "line", "column", "end_line", "end_column"))
           == (path, 2, 9, 2, 10))
    expect("diagnostic.labels", [tuple(l.get(k) for k in ("primary", "line", "column", "end_line", "end_column", "message"))
                                 for l in err.get("labels", [])]
           == [(True, 2, 9, 2, 10, "this is B (bytes) (1 B)"), (False, 2, 13, 2, 16, "this is s (time) (3 s)")])
    expect("diagnostic.help", err.get("help") == "both sides of `+` must have the same dimension" and err.get("notes") == [])
    # The value that failed carries the same object.
    expect("diagnostic.value", json.loads(done.stdout)["values"]["b"]["error"] == err)
    expect("diagnostic.no_mentions", err.get("mentions") == [])

# The places an error's words name, as data: the note of a call (line 4,
# `f(a)` at column 7) names line and column, the note of the field being
# computed (s.b, line 4) names only the line, the words "rates.napkin:4"
# being a prefix of "rates.napkin:4:7". A message that names the formula it
# is about (`b`, line 5 of a block that `more` extends) does too.
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "rates.napkin")
    with open(path, "w", encoding="utf-8") as f:
        f.write("fn f(x) = x / 0\nscenario s {\n  a = 2\n  b = f(a)\n  c = a + missing\n}\n"
                "scenario more extends s {\n  missing = 1\n}\n")
    done = run("run", path, "--format", "json")
    errors = json.loads(done.stdout)["errors"]
    call = next(e for e in errors if e["code"] == "E0400")
    expect("mentions.call_note", call["notes"] == [f"in the call f(a) at {path}:4:7", f"while computing s.b ({path}:4)"])
    expect("mentions.call", call.get("mentions") == [
        {"text": f"{path}:4:7", "in": "note", "index": 0, "file": path, "line": 4, "column": 7},
        {"text": f"{path}:4", "in": "note", "index": 1, "file": path, "line": 4, "column": 0}])
    hidden = next(e for e in errors if e["message"].startswith("unknown name `missing`: "))
    expect("mentions.message", hidden["message"] == f"unknown name `missing`: the formula of `c` ({path}:5) was written "
           "in a block that has no field `missing`")
    expect("mentions.message_place", [m for m in hidden["mentions"] if m["in"] == "message"] == [
        {"text": f"{path}:5", "in": "message", "index": 0, "file": path, "line": 5, "column": 0}])
    # Each mention's words are where it says they are.
    for e in errors:
        for m in e["mentions"]:
            words = e["notes"][m["index"]] if m["in"] == "note" else e[m["in"]]
            expect("mentions.words_in_place", m["text"] in words)
    # explain has no tree to write for s.b: its JSON is the error, as data, mentions and all.
    done = run("explain", path, "s.b", "--format", "json")
    failed = json.loads(done.stdout) if done.stdout.strip() else {}
    expect("explain_failed.document", done.returncode == 2 and list(failed) == ["errors"]
           and [e["code"] for e in failed["errors"]] == ["E0400"])
    expect("explain_failed.mentions", failed.get("errors") and failed["errors"][0]["mentions"] == call["mentions"])
    expect("explain_failed.stderr", done.stderr.startswith(f"{path}:1:15: error[E0400]: division by zero\n"))

print(f"{passes} passed, {failures} failed")
sys.exit(1 if failures else 0)
