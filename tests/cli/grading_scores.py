"""The scores graders read, checked against what a person worked out.

Runs `napkin check --format json|junit|gradescope` and `napkin grade` on
examples/grading/ and tests/grading/, parses JUnit as XML (xml.etree) and
Gradescope's results.json as JSON, and compares every check's score,
status and points with the expectations below. Run from the repository
root with Debian's python: /usr/bin/python3 tests/cli/grading_scores.py NAPKIN
"""
import json
import subprocess
import sys
import xml.etree.ElementTree as ET

napkin = sys.argv[1]
failures = 0
passes = 0


def run(*args):
    p = subprocess.run([napkin, *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def same(name, got, want):
    global failures, passes
    if got == want:
        passes += 1
    else:
        failures += 1
        print(f"FAIL {name}: got {got!r}, want {want!r}")


# (name, status, score, points) per check, in the order written.
# Reference figures: 2 × 32 × 8 × 128 × 2 B = 131,072 B/token; × 8,192 token
# = 1 GiB; × 16 = 16 GiB; + 16.06 GB = 33.24 GB; / 3.35 TB/s = 9.922 ms;
# 16 token / 9.922 ms = 1,612.5 token/s (examples/grading/reference.napkin).
REFERENCE = [
    ("q1 KV bytes per token", "passed", 2, 2),
    ("q2 KV cache per sequence", "passed", 2, 2),
    ("q3 KV cache of the batch", "passed", 2, 2),
    ("q4 memory", "passed", 2, 2),
    ("q4 fits in 80 GB", "passed", 1, 1),
    ("q5 decode step", "passed", 2, 2),
    ("q6 throughput", "passed", 3, 3),
]
# submission_kv counts the key and the value twice: 262,144 B/token, and every
# answer after it doubles (2 GiB, 32 GiB, 50.42 GB, 15.05 ms, 1,063 token/s)
# except q4.fits (50.42 GB still fits in 80 GB). Each doubled answer is the
# reference's formula on the student's own earlier answer: half its points
# carried forward (the default share).
KV = [
    ("q1 KV bytes per token", "failed", 0, 2),
    ("q2 KV cache per sequence", "failed", 1, 2),
    ("q3 KV cache of the batch", "failed", 1, 2),
    ("q4 memory", "failed", 1, 2),
    ("q4 fits in 80 GB", "passed", 1, 1),
    ("q5 decode step", "failed", 1, 2),
    ("q6 throughput", "failed", 1.5, 3),
]
# submission_context reads the context as 4,096 tokens (q2-q4 halve their KV,
# right from that input: half points) and times the step from the weights
# alone (16.06 GB / 3.35 TB/s = 4.794 ms: no credit; q6 follows from it:
# half): q1 and q4.fits stand.
CONTEXT = [
    ("q1 KV bytes per token", "passed", 2, 2),
    ("q2 KV cache per sequence", "failed", 1, 2),
    ("q3 KV cache of the batch", "failed", 1, 2),
    ("q4 memory", "failed", 1, 2),
    ("q4 fits in 80 GB", "passed", 1, 1),
    ("q5 decode step", "failed", 0, 2),
    ("q6 throughput", "failed", 1.5, 3),
]
# submission_broken does not parse: every check of the reference errors.
BROKEN = [(n, "errored", 0, p) for (n, _, _, p) in REFERENCE]
# tests/grading/kv_checks.napkin against submission_kv: q7 does not exist
# (E0300), the unnamed check is worth 1 and named by the answer it checks
# (its text holds the expected value; --show-expected names it by its text).
KV_CHECKS = [
    ("q1 KV bytes per token", "failed", 0, 2),
    ("q4 fits", "passed", 1, 1),
    ("q5 in microseconds", "failed", 0, 1),
    ("q6 throughput", "failed", 0, 3),
    ("q7 cost", "errored", 0, 2),
    ("q1.kv_per_token", "passed", 1, 1),
]
BROKEN_CHECKS = [("q1 KV bytes per token", "errored", 0, 2), ("q2 KV cache per sequence", "errored", 0, 1)]

G = "examples/grading/"
CASES = [
    # label, arguments, expectations, exit status
    ("grade.reference", ["grade", G + "reference.napkin", G + "reference.napkin"], REFERENCE, 0),
    ("grade.kv", ["grade", G + "reference.napkin", G + "submission_kv.napkin"], KV, 1),
    ("grade.context", ["grade", G + "reference.napkin", G + "submission_context.napkin"], CONTEXT, 1),
    ("grade.broken", ["grade", G + "reference.napkin", G + "submission_broken.napkin"], BROKEN, 2),
    ("check.kv", ["check", "tests/grading/kv_checks.napkin"], KV_CHECKS, 2),
    ("check.broken", ["check", "tests/grading/broken_checks.napkin"], BROKEN_CHECKS, 2),
]


def total(expect):
    return sum(s for (_, _, s, _) in expect), sum(p for (_, _, _, p) in expect)


for label, args, expect, status in CASES:
    score, max_score = total(expect)
    # JSON: every check, with its status, score and points.
    rc, out, err = run(*args, "--format", "json")
    same(f"{label}.json.exit", rc, status)
    doc = json.loads(out)
    same(f"{label}.json.score", (doc["score"], doc["max_score"]), (score, max_score))
    checks = doc["files"][0]["checks"]
    same(f"{label}.json.checks", [(c["name"], c["status"], c["score"], c["points"]) for c in checks], expect)
    for c in checks:
        if c["status"] == "errored":
            same(f"{label}.json.error_object", sorted(c["error"].keys()),
                 ["code", "column", "end_column", "end_line", "file", "help", "labels", "line", "mentions", "message", "notes"])

    # Gradescope: score, max_score, and one test per check.
    rc, out, err = run(*args, "--format", "gradescope")
    same(f"{label}.gradescope.exit", rc, status)
    doc = json.loads(out)
    same(f"{label}.gradescope.score", (doc["score"], sum(t["max_score"] for t in doc["tests"])), (score, max_score))
    same(f"{label}.gradescope.tests",
         [(t["name"], "passed" if t["status"] == "passed" else t["output"].count("error[") and "errored" or "failed",
           t["score"], t["max_score"]) for t in doc["tests"]], expect)
    same(f"{label}.gradescope.visibility", {t["visibility"] for t in doc["tests"]}, {"visible"})

    # JUnit: a failure or an error element per check that did not pass, and
    # the points and score as properties.
    rc, out, err = run(*args, "--format", "junit")
    same(f"{label}.junit.exit", rc, status)
    root = ET.fromstring(out)
    suite = root.find("testsuite")
    got = []
    for case in suite.findall("testcase"):
        props = {p.get("name"): float(p.get("value")) for p in case.find("properties").findall("property")}
        state = "failed" if case.find("failure") is not None else "errored" if case.find("error") is not None else "passed"
        got.append((case.get("name"), state, props["score"], props["points"]))
    same(f"{label}.junit.checks", got, [(n, s, float(a), float(p)) for (n, s, a, p) in expect])
    same(f"{label}.junit.counts",
         (int(suite.get("tests")), int(suite.get("failures")), int(suite.get("errors"))),
         (len(expect), sum(1 for e in expect if e[1] == "failed"), sum(1 for e in expect if e[1] == "errored")))

# The submission that does not parse: its diagnostic as an object, at the
# stray `*` of submission_broken.napkin line 16, column 37.
rc, out, err = run("grade", G + "reference.napkin", G + "submission_broken.napkin", "--format", "json")
e = json.loads(out)["files"][0]["checks"][0]["error"]
same("broken.error", (e["code"], e["file"], e["line"], e["column"]), ("E0100", G + "submission_broken.napkin", 16, 37))
# A file that does not parse, checked by itself: one result worth nothing.
rc, out, err = run("check", G + "submission_broken.napkin", "--format", "json")
doc = json.loads(out)
same("broken.alone.score", (doc["score"], doc["max_score"]), (0, 0))
same("broken.alone.status", [c["status"] for c in doc["files"][0]["checks"]], ["errored"])
same("broken.alone.code", doc["files"][0]["checks"][0]["error"]["code"], "E0100")
# q7 is not defined in kv_checks.napkin line 9, column 29.
rc, out, err = run("check", "tests/grading/kv_checks.napkin", "--format", "json")
q7 = json.loads(out)["files"][0]["checks"][4]["error"]
same("check.q7.error", (q7["code"], q7["line"], q7["column"]), ("E0300", 9, 29))
# The expected value is the checker's secret unless it says to show it.
q5 = json.loads(out)["files"][0]["checks"][2]
same("check.q5.hidden", (q5["expected"], q5["check"], q5["file"], q5["line"]), (None, None, None, None))
# Values in the checker's units: 9922 µs as written, not 0.009922 s.
rc, out, err = run("check", "tests/grading/kv_checks.napkin", "--format", "json", "--show-expected", "--show-reference")
q5 = json.loads(out)["files"][0]["checks"][2]
same("check.q5.units", (q5["expected"], q5["tolerance"]), ("9,922 µs", "0.1%"))
same("check.q5.place", (q5["file"], q5["line"]), ("tests/grading/kv_checks.napkin", 7))
same("check.unnamed.shown", json.loads(out)["files"][0]["checks"][5]["name"], "check q1.kv_per_token > 0 B/token")

# Every key napkin writes in results.json is one of Gradescope's autograder
# specification, "Output format" (https://gradescope-autograders.readthedocs.io/en/latest/specs/),
# copied here by hand.
SPEC_TOP = {"score", "execution_time", "output", "output_format", "test_output_format", "test_name_format",
            "visibility", "stdout_visibility", "extra_data", "tests", "leaderboard"}
SPEC_TEST = {"score", "max_score", "status", "name", "name_format", "number", "output", "output_format", "tags",
             "visibility", "extra_data"}
SPEC_VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}
SPEC_STATUS = {"passed", "failed"}
for label, args, _, _ in CASES + [("grade.units", ["grade", G + "reference.napkin", G + "submission_units.napkin"], None, None)]:
    for extra in ([], ["--show-expected", "--show-reference", "--visibility", "after_published"]):
        rc, out, err = run(*args, "--format", "gradescope", *extra)
        doc = json.loads(out)
        same(f"{label}.spec.top{extra[:1]}", set(doc) - SPEC_TOP, set())
        same(f"{label}.spec.visibility{extra[:1]}", doc["visibility"] in SPEC_VISIBILITY, True)
        for t in doc["tests"]:
            same(f"{label}.spec.test{extra[:1]}", set(t) - SPEC_TEST, set())
            same(f"{label}.spec.test_values{extra[:1]}", (t["visibility"] in SPEC_VISIBILITY, t["status"] in SPEC_STATUS),
                 (True, True))

# What students see: by default no expected value and no line of the
# reference; with the author's options, both; visibility as the author sets.
KV_ARGS = ["grade", G + "reference.napkin", G + "submission_kv.napkin", "--format", "gradescope"]
SECRETS = ["131,072", "131_072", "1 GiB", "16 GiB", "33.24", "9.922", "9,922", "1,612", "1612", "expected",
           "reference.napkin:"]
rc, out, err = run(*KV_ARGS)
shown = [s for s in SECRETS if s in out]
same("secret.default", shown, [])
same("secret.visibility", ({json.loads(out)["visibility"]}, {t["visibility"] for t in json.loads(out)["tests"]}),
     ({"visible"}, {"visible"}))
rc, out, err = run(*KV_ARGS, "--show-expected", "--show-reference")
doc = json.loads(out)
q1 = doc["tests"][0]["output"]
same("secret.shown.expected", ("expected: == 131,072 B/token" in q1, "the reference 131,072 B/token" in q1), (True, True))
same("secret.shown.reference", "examples/grading/reference.napkin:51:" in q1, True)
rc, out, err = run(*KV_ARGS, "--visibility", "after_due_date", "--test-visibility", "hidden",
                   "--test-visibility", "q1 KV bytes per token=visible")
doc = json.loads(out)
same("visibility.set", (doc["visibility"], [t["visibility"] for t in doc["tests"]]),
     ("after_due_date", ["visible"] + ["hidden"] * 6))
rc, out, err = run(*KV_ARGS, "--visibility", "sometimes")
same("visibility.bad", rc, 2)
# JUnit and JSON keep the secret too.
for fmt in ("json", "junit"):
    rc, out, err = run("grade", G + "reference.napkin", G + "submission_kv.napkin", "--format", fmt)
    text = out.replace('"expected": null', "")  # JSON's key, with nothing in it
    same(f"secret.{fmt}", [s for s in SECRETS if s in text], [])

# A submission that does not parse: its error once, at the top of the
# Gradescope result, with the help for `**`; each test points to it.
import os
import tempfile
with tempfile.TemporaryDirectory() as d:
    src = open(G + "submission_kv.napkin").read().replace("2 * 2 * given.kv_heads", "2 ** given.kv_heads")
    path = os.path.join(d, "power.napkin")
    open(path, "w").write(src)
    rc, out, err = run("grade", G + "reference.napkin", path, "--format", "gradescope")
    doc = json.loads(out)
    same("power.top", (doc["output"].count("error[E0100]"), "^" in doc["output"], "power.napkin:16:" in doc["output"]),
         (1, True, True))
    same("power.tests", {t["output"].count("\n") for t in doc["tests"]}, {1})

print(f"{passes} passed, {failures} failed")
sys.exit(1 if failures else 0)
