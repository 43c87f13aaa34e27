#!/usr/bin/env python3
"""The formats written from a command's JSON document (--format html): every
command whose --format offers json offers them, exits as its json does, and
writes a whole page that says what the document says, its text escaped.
    document_formats_test.py path/to/napkin   (from the repository root)"""
import html.parser
import json
import os
import subprocess
import sys
import tempfile

napkin = sys.argv[1]
failures = []

# Each command that writes a JSON document, with arguments that make it
# write one (one of them fails on purpose: its page must say so too).
COMMANDS = {
    "run": ["run", "examples/exercise1_size_a_model.napkin"],
    "explain": ["explain", "examples/exercise1_size_a_model.napkin", "decode.tokens_per_s"],
    "check": ["check", "examples/exercise1_size_a_model.napkin"],
    "grade": ["grade", "examples/grading/reference.napkin", "examples/grading/submission_kv.napkin"],
    "sweep": ["sweep", "examples/decode_batch_sweep.napkin"],
    "quick": ["quick", "--model", "llama3_8b", "--gpu", "h100_sxm", "--batch", "32", "--context", "8192"],
    "diff": ["diff", "examples/exercise1_size_a_model.napkin", "examples/review/exercise1_48_kv_heads.napkin"],
    "solve": ["solve", "examples/uncertain_decode.napkin", "decode", "--for", "batch", "--max", "fits"],
    "sensitivity": ["sensitivity", "examples/uncertain_decode.napkin", "decode.tokens_per_s"],
    "layout": ["layout", "tests/stdlib/layout_search.napkin", "plan", "--tp", "8", "--pp", "1,4", "--micro-batch", "1",
               "--vpp", "1"],
    "handout": ["handout", "examples/exercise1_size_a_model.napkin"],
}
WITHOUT_JSON = ["eval", "plot", "fmt", "measure", "lsp"]


def fail(name, why):
    failures.append(f"{name}: {why}")


def napkin_run(args):
    env = dict(os.environ, NAPKIN_NO_MEASURE="1")
    return subprocess.run([napkin] + args, capture_output=True, text=True, env=env)


class Page(html.parser.HTMLParser):
    """The page's elements, each closed in the order opened, and its text."""
    VOID = {"meta"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open, self.problems, self.text, self.tags = [], [], [], []
        self.deepest = 0

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag not in self.VOID:
            self.open.append(tag)
            self.deepest = max(self.deepest, len(self.open))

    def handle_endtag(self, tag):
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.open[-1] if self.open else 'nothing'}")
        else:
            self.open.pop()

    def handle_data(self, data):
        self.text.append(data)


def strings_shown(v, out):
    """Every `display`, and every string or key, the document holds."""
    if isinstance(v, dict):
        for k, x in v.items():
            out.add(k)
            strings_shown(x, out)
    elif isinstance(v, list):
        for x in v:
            strings_shown(x, out)
    elif isinstance(v, str):
        out.add(v)


def page_of(name, args):
    as_json = napkin_run(args + ["--format", "json"])
    as_html = napkin_run(args + ["--format", "html"])
    if as_html.returncode != as_json.returncode:
        fail(name, f"html exits {as_html.returncode}, json {as_json.returncode}")
    if not as_html.stdout.startswith("<!DOCTYPE html>\n") or not as_html.stdout.endswith("</html>\n"):
        fail(name, "not one whole page")
        return
    page = Page()
    page.feed(as_html.stdout)
    page.close()
    if page.problems or page.open:
        fail(name, f"elements not nested: {page.problems[:3]} left open: {page.open}")
    if f"napkin {name}" not in "".join(page.text):
        fail(name, "the page does not name its command")
    # What the document says, the page says: every string and key of it
    # is in the page's text (a value by its display).
    document = json.loads(as_json.stdout)
    said = set()
    strings_shown(document, said)
    text = "".join(page.text)
    missing = sorted(s for s in said if s.strip() and s not in text)
    if missing:
        fail(name, f"{len(missing)} of the document's strings are not on the page, e.g. {missing[:3]}")
    # A whole number the JSON writes as a double (512.0 GPUs) shows as one.
    if name == "layout" and ("<dd>512</dd>" not in as_html.stdout or ">512.0<" in as_html.stdout):
        fail(name, "512 GPUs are not shown as 512")
    return as_html


for name, args in COMMANDS.items():
    page_of(name, args)
    helped = napkin_run([name, "--help"]).stdout
    if "html" not in helped:
        fail(name, "--help does not offer html")
for name in WITHOUT_JSON:
    if "html" in napkin_run([name, "--help"]).stdout:
        fail(name, "--help offers html, but the command writes no JSON document")
refused = napkin_run(["eval", "1 + 1", "--format", "html"])
if refused.returncode != 2 or "error[E0800]" not in refused.stderr:
    fail("eval", f"--format html is not refused as a usage error (exit {refused.returncode})")

# A command stopped by an error before it had its own document writes the
# error as one, {"errors": [...]}, exit 2, and the page says it too.
MISSING = "/nonexistent/plan.napkin"
STOPPED = {
    "explain": (["explain", "examples/basics.napkin", "no_such_name"], "E0300"),
    "sweep": (["sweep", MISSING], "E0602"),
    "quick": (["quick", "--model", "no_such_model", "--gpu", "h100_sxm"], "E0800"),
    "diff": (["diff", MISSING, "examples/basics.napkin"], "E0602"),
    "grade": (["grade", MISSING, "examples/basics.napkin"], "E0602"),
    "solve": (["solve", MISSING, "decode", "--for", "batch", "--max", "fits"], "E0602"),
    "sensitivity": (["sensitivity", "examples/basics.napkin", "no_such.field"], "E0300"),
    "handout": (["handout", MISSING], "E0602"),
    "layout": (["layout", "examples/uncertain_decode.napkin", "decode"], "E0800"),  # a record that is no plan
}
for name, (args, code) in STOPPED.items():
    done = napkin_run(args + ["--format", "json"])
    try:
        errors = json.loads(done.stdout)["errors"]
    except (ValueError, KeyError, TypeError):
        errors = None
    if done.returncode != 2 or not errors or errors[0]["code"] != code or f"error[{code}]" not in done.stderr:
        fail(f"stopped {name}", f"exit {done.returncode}, want 2 and {{\"errors\": [{code}]}}: {done.stdout[:60]!r}")
    page = napkin_run(args + ["--format", "html"])
    if page.returncode != 2 or not page.stdout.startswith("<!DOCTYPE html>") or code not in page.stdout:
        fail(f"stopped {name} html", f"exit {page.returncode}, no page naming {code}")

# A restricted run stopped by its time limit writes its stop document as
# the page too, never the JSON it ran for.
for name in ("run", "check"):
    stopped = napkin_run([name, "--restricted", "--time-limit", "0.001", "examples/exercise1_size_a_model.napkin",
                          "--format", "html"])
    if stopped.returncode != 2 or "E0703" not in stopped.stderr:
        fail(f"stopped {name}", f"not stopped by the time limit (exit {stopped.returncode})")
    elif not stopped.stdout.startswith("<!DOCTYPE html>\n") or "E0703" not in stopped.stdout:
        fail(f"stopped {name}", "the stop document is not a page naming E0703: " + stopped.stdout[:40])

# A derivation a thousand levels deep (explain of a chain of lets) is a
# page whose elements nest a bounded depth: past 64 levels of the document
# the rest is its JSON text.
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "chain.napkin")
    with open(path, "w", encoding="utf-8") as f:
        f.write("let a0 = 1 B\n" + "".join(f"let a{i} = a{i - 1} + 1 B\n" for i in range(1, 900)))
    done = napkin_run(["explain", path, "a899", "--depth", "100000", "--format", "html"])
    page = Page()
    page.feed(done.stdout)
    if done.returncode != 0 or page.problems or page.open or not 50 < page.deepest <= 400:
        fail("deep explain", f"exit {done.returncode}, elements nested {page.deepest} deep, {page.problems[:2]}")

# Text from a file is text on the page: markup and controls in a string
# and a failing check's message cannot write elements or reach the terminal.
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "hostile.napkin")
    with open(path, "w", encoding="utf-8") as f:
        f.write('label = "<script>alert(1)</script> & \x1b[31m"\n'
                'x = 2 GB\n'
                'check label == "<b>bold</b>"\n')
    for name, args in (("run", ["run", path]), ("check", ["check", path])):
        done = napkin_run(args + ["--format", "html"])
        page = Page()
        page.feed(done.stdout)
        if "script" in page.tags or "b" in page.tags:
            fail(f"hostile {name}", "a string of the file became an element")
        if "\x1b" in done.stdout:
            fail(f"hostile {name}", "an escape character reached the output")
        if name == "run" and "<script>" not in "".join(page.text):
            fail(f"hostile {name}", "the string is not shown as text")

for f in failures:
    print("FAIL", f)
print(f"{len(COMMANDS)} commands' pages checked, {len(failures)} failures")
sys.exit(1 if failures else 0)
