"""The napkin kernel, run for real: a notebook executed by nbclient, and the
messaging protocol spoken directly where nbclient does not (cell ids, so that
a cell is run again). Run by kernel_test.sh, which points JUPYTER_PATH at a
kernel spec for this tree and NAPKIN_BINARY at the built napkin."""
import os
import re
import sys
import time

import nbformat
from jupyter_client.manager import start_new_kernel
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def outputs(cell, kind):
    return [o for o in cell.outputs if o.output_type == kind]


def plain(cell):
    return "".join(o.data.get("text/plain", "") for o in outputs(cell, "display_data"))


def markdown(cell):
    return "".join(o.data.get("text/markdown", "") for o in outputs(cell, "display_data"))


def svgs(cell):
    return [o.data["image/svg+xml"] for o in outputs(cell, "display_data") if "image/svg+xml" in o.data]


def notebook(sources, raises=()):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    for i in raises:
        nb.cells[i].metadata["tags"] = ["raises-exception"]
    return nb


def execute(nb, **kw):
    client = NotebookClient(nb, kernel_name="napkin", timeout=120, **kw)
    started = time.time()
    client.execute()
    return time.time() - started


# ---- a course notebook: shared names, units, a sweep and its chart, a failing check, an error ----
COURSE = [
    # 0: names that later cells use
    'import "std/hardware"\nlet weights = 2 GB',
    # 1: a unit shown: 2 GB / 5.3 TB/s (std/hardware's MI300X) = 2e9 / 5.3e12 s = 377.4 µs
    "let read_time = weights / mi300x.memory_bandwidth\ncheck read_time < 1 ms",
    # 2: a sweep: t = n · 2 s at n = 1, 2, 4 is 2, 4, 8 s; shown as a table and a chart
    "scenario s {\n  n = 1\n  t = n * 2 s\n}\nsweep s over n in [1, 2, 4] show t",
    # 3: magics on the names of cells 0 and 1
    "%explain read_time\n%flat read_time\n%plot roofline --gpu mi300x",
    # 4: a failing check fails its cell
    "let x = 1\ncheck read_time > 1 s",
    # 5: an error at the cell's line 2, column 11: `1 s`, the first operand of the `+`
    "# seconds and bytes do not add\nlet bad = 1 s + weights",
    # 6: the file goes on without cell 5; cell 4's failing check does not fail this one
    "let after = read_time * 2",
]

nb = notebook(COURSE, raises=(4, 5))
execute(nb, allow_errors=False)
c = nb.cells
expect("weights = 2 GB" in plain(c[0]), "cell 0 shows weights = 2 GB: %r" % plain(c[0]))
expect("read_time = weights / mi300x.memory_bandwidth" in plain(c[1]), "cell 1 shows its formula: %r" % plain(c[1]))
expect("= 2 GB / (5.3 TB/s)" in plain(c[1]) and "= 377.4 µs" in plain(c[1]), "cell 1 shows 377.4 µs: %r" % plain(c[1]))
expect("**377.4 µs**" in markdown(c[1]), "cell 1's Markdown bolds the result: %r" % markdown(c[1]))
expect("✓ check read_time < 1 ms" in plain(c[1]), "cell 1's check passes: %r" % plain(c[1]))
expect("weights" not in plain(c[1]).split("read_time =")[0], "cell 1 does not repeat cell 0's values")
expect(not outputs(c[1], "error"), "cell 1 is not an error")
for n, t in (("1", "2 s"), ("2", "4 s"), ("4", "8 s")):
    expect("| %s | %s |" % (n, t) in markdown(c[2]), "cell 2's sweep table has n = %s, t = %s" % (n, t))
expect(len(svgs(c[2])) == 1 and svgs(c[2])[0].lstrip().startswith("<svg"), "cell 2 draws its sweep as SVG")
expect("├── weights = 2 GB" in plain(c[3]), "%%explain shows the tree: %r" % plain(c[3]))
expect("read_time = 2 GB / (5.3 TB/s) = 377.4 µs" in plain(c[3]), "%%flat shows one line: %r" % plain(c[3]))
expect(len(svgs(c[3])) == 1 and "<svg" in svgs(c[3])[0], "%plot roofline draws an SVG")
err4 = outputs(c[4], "error")
expect(len(err4) == 1 and err4[0].ename == "CheckFailed", "the failing check makes cell 4 an error")
expect(err4 and "cell[5]:2: check read_time > 1 s" in err4[0].evalue, "the failing check is cell[5]:2: %r"
       % (err4[0].evalue if err4 else None))
expect("- ✗ `check read_time > 1 s`" in markdown(c[4]) and "✗ check read_time > 1 s" in plain(c[4]),
       "cell 4 shows the failing check: %r" % markdown(c[4]))
tb4 = "\n".join(err4[0].traceback) if err4 else ""
expect("    377.4 µs > 1 s is false\n    read_time = weights / mi300x.memory_bandwidth" in tb4,
       "the failing check's error carries its derivation: %r" % tb4)
err5 = outputs(c[5], "error")
expect(len(err5) == 1 and err5[0].ename == "NapkinError", "the error makes cell 5 an error")
tb = "\n".join(err5[0].traceback) if err5 else ""
expect("cell[6]:2:11: error[E0201]: cannot add s (time) and B (bytes)" in tb, "the error points at cell[6]:2:11: %r" % tb)
expect("2 | let bad = 1 s + weights" in tb, "the error shows the cell's line 2: %r" % tb)
expect(".napkin-notebook" not in tb and "error[E0500]" not in tb, "the error names the cell, not the file: %r" % tb)
expect("after = read_time · 2" in plain(c[6]) and "754.7 µs" in plain(c[6]), "cell 6 uses cell 1's name: %r"
       % plain(c[6]))
expect(not outputs(c[6], "error"), "cell 6 is not an error: cell 5 did not enter the file")

# ---- places that an error's words name, from the error's data (its mentions) ----
# fn f(x) = x / 0 is cell[1]; `let y = f(a)` is line 2 of cell[2], the call at column 9.
nb = notebook(["fn f(x) = x / 0", "let a = 2\nlet y = f(a)"], raises=(1,))
execute(nb)
e = outputs(nb.cells[1], "error")
tb = "\n".join(e[0].traceback) if e else ""
expect(e and e[0].evalue == "cell[1]:1:15: error[E0400]: division by zero", "a call's error names its cell: %r" % tb)
expect("  = note: in the call f(a) at cell[2]:2:9" in tb and ".napkin-notebook" not in tb,
       "the note's place, from data, is the cell's: %r" % tb)
# %explain of a call that fails: explain's JSON error, laid out in cell terms. g(x) is called
# on line 2 of cell[1] at column 11; f(a) was typed after %explain (napkin's `<explain>`).
nb = notebook(["fn g(x) = x / 0\nfn f(x) = g(x) * 2\nlet a = 2", "%explain f(a)"], raises=(1,))
execute(nb)
e = outputs(nb.cells[1], "error")
tb = "\n".join(e[0].traceback) if e else ""
expect(e and e[0].ename == "NapkinError" and e[0].evalue == "cell[1]:1:15: error[E0400]: division by zero",
       "%%explain's error, from its JSON: %r" % (e and e[0].evalue))
expect("  = note: in the call g(x) at cell[1]:2:11" in tb and "  = note: in the call f(a) at <explain>:1:1" in tb
       and ".napkin-notebook" not in tb, "%%explain's notes name the cells: %r" % tb)
# %plot writes no JSON: napkin's message as it wrote it, the notebook's file named once.
nb = notebook(["let a = 2", "%plot sweep"], raises=(1,))
execute(nb)
e = outputs(nb.cells[1], "error")
tb = "\n".join(e[0].traceback) if e else ""
expect(e and e[0].evalue.startswith("error[E0800]: .napkin-notebook-") and "has no sweep" in e[0].evalue
       and tb.count("is the notebook's file") == 1 and "%file shows it" in tb,
       "%%plot's message as napkin wrote it, the file explained: %r" % tb)

# ---- the course notebook of docs/notebooks.md: each ```napkin-cell block shows the ```output block after it ----
doc = open(os.path.join(os.environ["SRC"], "docs", "notebooks.md"), encoding="utf-8").read()
pairs = re.findall(r"```napkin-cell\n(.*?)```\n\n```output\n(.*?)```\n", doc, re.S)
expect(len(pairs) == 6, "docs/notebooks.md shows six cells, each with its output: %d" % len(pairs))
nb = notebook([cell.rstrip("\n") for cell, _ in pairs], raises=range(len(pairs)))
execute(nb)
for i, (cell, want) in enumerate(pairs):
    shown = "".join(o.data["text/plain"].rstrip("\n") + "\n" for o in outputs(nb.cells[i], "display_data"))
    shown += "".join("\n".join(o.traceback) + "\n" for o in outputs(nb.cells[i], "error"))
    expect(shown == want, "docs/notebooks.md In [%d] shows what the kernel shows:\n%s\n--- the page says:\n%s"
           % (i + 1, shown, want))

# ---- %handout: the notebook's file as the students' sheet, the answer a blank with its unit ----
# The answer is read_time = 2 GB / 5.3 TB/s = 377.4 µs (as in the course notebook above): the sheet
# asks for it in s, a time's own unit (never µs, which would hint at its size), and shows neither
# the value nor the formula; the given bandwidth stays.
nb = notebook(["# How long does reading 2 GB take?\nscenario q {\n  bw = 5.3 TB/s\n"
               "  # the time to read the weights once\n  read_time = 2 GB / bw\n}", "%handout"])
execute(nb)
sheet = plain(nb.cells[1])
expect("the time to read the weights once" in sheet and "read_time = ____________ s\n" in sheet and "µs" not in sheet,
       "%%handout asks the question with its unit: %r" % sheet)
expect("bw = 5.3 TB/s" in sheet, "%%handout keeps the given input: %r" % sheet)
expect("377.4" not in sheet and "2 GB / bw" not in sheet, "%%handout shows no answer: %r" % sheet)
# An option `napkin handout` does not take: the cell shows what napkin said, not that it has no handout.
nb = notebook(["let x = 1", "%handout -o sheet.txt"], raises=(1,))
execute(nb)
e = outputs(nb.cells[1], "error")
said = (e[0].evalue + "\n" + "\n".join(e[0].traceback)) if e else ""
expect(e and e[0].ename == "NapkinError" and "error[E0800]" in e[0].evalue and "not expected" in e[0].evalue
       and "-o" in e[0].evalue and "no `handout` command" not in said, "%%handout -o: napkin's own message: %r" % said)

# ---- a relative import finds a file beside the notebook; the notebook's file does not stay there ----
lab = os.path.join(os.environ["WORK"], "lab")
os.makedirs(lab)
with open(os.path.join(lab, "lab_models.napkin"), "w", encoding="utf-8") as f:
    f.write("let context = 8192 token\n")
nb = notebook(['import "lab_models.napkin"\nlet twice = context * 2'])
NotebookClient(nb, kernel_name="napkin", timeout=120, resources={"metadata": {"path": lab}}).execute()
# 2 · 8192 = 16,384
expect("twice = context · 2" in plain(nb.cells[0]) and "= 16,384 token" in plain(nb.cells[0]),
       "a cell imports a file beside the notebook: %r" % plain(nb.cells[0]))
expect(os.listdir(lab) == ["lab_models.napkin"], "the notebook's file is not left beside it: %s" % os.listdir(lab))

# ---- a link planted at the notebook file's name in a shared folder: refused, never written through ----
course = os.path.join(os.environ["WORK"], "course")
os.makedirs(course)
victim = os.path.join(os.environ["WORK"], "victim.txt")
with open(victim, "w", encoding="utf-8") as f:
    f.write("the victim's own text\n")
km, kc = start_new_kernel(kernel_name="napkin", cwd=course)
try:
    # Another user, knowing the kernel's process id, links its notebook file's name to the victim's file.
    planted = os.path.join(course, ".napkin-notebook-%d.napkin" % km.provisioner.process.pid)
    os.symlink(victim, planted)
    # stop_on_error=False: the kernel would otherwise abort what arrives
    # just after the error, the next request included, on a slow machine.
    reply = kc.execute("let a = 1", reply=True, timeout=60, stop_on_error=False)["content"]
    expect(reply["status"] == "error" and reply.get("ename") == "NapkinFileError"
           and "%s is a symbolic link (to %s)" % (planted, victim) in reply.get("evalue", ""),
           "the kernel refuses to write through a planted link: %s" % reply)
    with open(victim, encoding="utf-8") as f:
        expect(f.read() == "the victim's own text\n", "the linked file is not written")
    os.unlink(planted)
    reply = kc.execute("let a = 1", reply=True, timeout=60)["content"]
    expect(reply["status"] == "ok", "without the link the cell runs: %s" % reply)
    expect(os.listdir(course) == [], "nothing is left in the folder: %s" % os.listdir(course))
finally:
    kc.stop_channels()
    km.shutdown_kernel(now=True)
    kc = km = None

# nbgrader-style grading: without raises-exception, the failing check stops the run.
try:
    execute(notebook(COURSE[:2] + [COURSE[4]]))
    expect(False, "nbclient raises CellExecutionError on a failing check")
except CellExecutionError as e:
    expect("CheckFailed" in str(e), "the CellExecutionError is the failing check: %s" % e)

# ---- the protocol: cells with ids, run again ----------------------------------------------------
km, kc = start_new_kernel(kernel_name="napkin")


def run(source, cell_id=None, metadata=None, **content):
    """An execute_request with a cell id, or with METADATA and CONTENT fields as given (of any type)."""
    content = dict({"code": source, "silent": False, "store_history": True, "user_expressions": {},
                    "allow_stdin": False, "stop_on_error": False}, **content)
    if metadata is None:
        metadata = {"cellId": cell_id} if cell_id else {}
    msg = kc.session.msg("execute_request", content)
    msg["metadata"] = metadata  # as given: the session would merge it into an object
    kc.shell_channel.send(msg)
    started = time.time()
    reply = kc.get_shell_msg(timeout=60)
    while reply["parent_header"].get("msg_id") != msg["header"]["msg_id"]:
        reply = kc.get_shell_msg(timeout=60)
    took = time.time() - started
    shown, errors = [], []
    while True:
        m = kc.get_iopub_msg(timeout=10)
        if m["parent_header"].get("msg_id") != msg["header"]["msg_id"]:
            continue
        if m["msg_type"] == "display_data":
            shown.append(m["content"]["data"].get("text/plain", ""))
        elif m["msg_type"] == "error":
            errors.append("\n".join(m["content"]["traceback"]))
        elif m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            break
    if not errors and reply["content"]["status"] == "error":  # a silent request's error is in its reply alone
        errors.append(reply["content"].get("evalue", ""))
    return reply["content"]["status"], "".join(shown), "".join(errors), took


try:
    status, out, _, _ = run('import "std/hardware"\nlet a = 2 GB', "A")
    expect(status == "ok" and "a = 2 GB" in out, "cell A defines a: %r" % out)
    status, out, _, _ = run("let b = a * 3", "B")
    expect(status == "ok" and "b = a · 3" in out and "= 6 GB" in out, "cell B uses a: %r" % out)
    # A again, with another value: it replaces its own definition (no `a` defined twice), in place.
    status, out, err, _ = run('import "std/hardware"\nlet a = 5 GB', "A")
    expect(status == "ok" and "a = 5 GB" in out, "re-running A replaces a: %r %r" % (out, err))
    status, out, _, _ = run("%explain b", "C")
    expect("b = a · 3" in out and "= 15 GB" in out, "B follows A's new a (5 GB · 3 = 15 GB): %r" % out)
    # A without `a` would break B: refused, pointing at B's line, and A keeps its text.
    status, out, err, _ = run('import "std/hardware"\nlet c = 1', "A")
    expect(status == "error" and "the notebook keeps the text this cell had as cell[3]" in err
           and "cell[2]:1:9: error[E0300]: unknown name `a`" in err,
           "removing a name B uses is refused with B's place: %r" % err)
    status, out, _, _ = run("%flat b", "D")
    expect("= 15 GB" in out, "after the refusal, a is still 5 GB: %r" % out)
    # A name defined in two cells: napkin's E0304, both places shown as cells.
    status, out, err, _ = run("let a = 1", "E")
    expect(status == "error" and "cell[7]:1:5: error[E0304]" in err and "--> cell[3]:2:5" in err,
           "a name defined twice names both cells: %r" % err)
    # A cell run again without napkin source takes its definitions out: refused for A, whose
    # `a` B uses; done for B, the last cell; B run again comes back at the end.
    status, out, err, _ = run("", "A")
    expect(status == "error" and "without this cell's text a later cell fails" in err
           and "cell[2]:1:9: error[E0300]: unknown name `a`" in err, "emptying A is refused: %r" % err)
    status, out, err, _ = run("", "B")
    expect(status == "ok", "emptying B, the last cell, takes b out: %r" % err)
    status, out, err, _ = run("%explain b", "C")
    expect(status == "error" and "unknown name `b`" in err, "after B is emptied, b is gone: %r" % err)
    status, out, err, _ = run("let b = a * 3", "B")
    expect(status == "ok" and "= 15 GB" in out, "B again: %r" % out)
    status, out, err, _ = run("%nope", "F")
    expect(status == "error" and "no magic %nope" in err and "%explain NAME" in err, "an unknown magic: %r" % err)
    # A request's fields of the wrong type are refused whole, naming the field; nothing changes.
    # A cell id that is a list, once kept as a cell's key, made every later request naming
    # deleted cells fail (a list in a set of ids); a string of deleted cells deleted each letter's.
    for metadata, field in (({"cellId": ["G"]}, "metadata.cellId is a list, not a string"),
                            ({"cellId": {"id": "G"}}, "metadata.cellId is an object, not a string"),
                            ({"cellId": 7}, "metadata.cellId is a number, not a string"),
                            ({"deletedCells": "AB"}, "metadata.deletedCells is a string, not a list of cell ids"),
                            ({"deletedCells": {"A": 1}}, "metadata.deletedCells is an object, not a list"),
                            ({"deletedCells": [["A"]]}, "metadata.deletedCells entry is a list, not a cell id"),
                            (["A"], "the request's metadata is a list, not an object")):
        status, out, err, _ = run("let g = 1", metadata=metadata)
        expect(status == "error" and field in err and "the kernel ran nothing" in err and out == "",
               "%r is refused: %r %r" % (metadata, err, out))
        status, out, err, _ = run("%flat b", metadata={"cellId": "H", "deletedCells": ["no-such-cell"]})
        expect(status == "ok" and "b = 5 GB · 3 = 15 GB" in out,
               "after %r is refused, the cells are as they were: %r %r" % (metadata, out, err))
    for content, field in (({"code": ["let g = 1"]}, "content.code is a list, not a string"),
                           ({"silent": "no"}, "content.silent is a string, not true or false")):
        status, out, err, _ = run("", "G", **content)
        expect(status == "error" and field in err, "%r is refused: %r" % (content, err))
    expect(run("let g = 1", "G")[0] == "ok", "a cell runs after the refusals")
    reply = kc.complete("let x = b", cursor_pos="9", reply=True, timeout=20)["content"]
    expect(reply["status"] == "error" and "content.cursor_pos is a string" in reply["evalue"],
           "a completion request with a bad cursor is refused: %s" % reply)
    reply = kc.complete("let x = b", cursor_pos=9, reply=True, timeout=20)["content"]
    expect(reply["status"] == "ok" and "b" in reply["matches"], "completion answers after it: %s" % reply)
    # How long a cell takes: a new cell (two napkin runs at most) and a cell run again.
    times = [run("let t%d = b / (5.3 TB/s)" % i, "T%d" % i)[3] for i in range(10)]
    again = [run("let t0 = b / (3.35 TB/s)", "T0")[3] for _ in range(5)]
    times.sort()
    again.sort()
    print("a new cell: median %.1f ms, max %.1f ms; a cell run again: median %.1f ms"
          % (times[5] * 1e3, times[-1] * 1e3, again[2] * 1e3))
finally:
    kc.stop_channels()
    km.shutdown_kernel(now=True)
    kc = km = None  # finalized now, while logging still works: their finalizers log

# ---- napkin missing or crashing: the cell says so and the kernel goes on ------------------------
for binary, ename, words in ((os.path.join(os.environ["WORK"], "absent", "napkin"), "NapkinNotFound", "was not found"),
                             (os.environ["CRASHING_NAPKIN"], "NapkinCrashed", "killed by SIGSEGV")):
    os.environ["NAPKIN_BINARY"] = binary
    nb = notebook(["let a = 1", "%help"], raises=(0,))
    execute(nb)
    e = outputs(nb.cells[0], "error")
    expect(e and e[0].ename == ename and words in e[0].evalue, "napkin %s: %r" % (words, e and e[0].evalue))
    expect("%explain NAME" in plain(nb.cells[1]), "the kernel still answers after napkin %s" % words)

# ---- a napkin from before `handout`: the cell shows what napkin said, as it said it -------------
os.environ["NAPKIN_BINARY"] = os.environ["NAPKIN_WITHOUT_HANDOUT"]
nb = notebook(["let x = 1", "%handout"], raises=(1,))
execute(nb)
e = outputs(nb.cells[1], "error")
expect(e and e[0].evalue == "error[E0800]: The following argument was not expected: handout" and
       e[0].traceback == [e[0].evalue], "a napkin without handout: %r" % (e and e[0]))

# ---- an interrupt stops a napkin that runs on: the cell is aborted, the kernel answers ----------
os.environ["NAPKIN_BINARY"] = os.environ["SLOW_NAPKIN"]
km, kc = start_new_kernel(kernel_name="napkin")
try:
    msg_id = kc.execute("let a = 1")
    time.sleep(1)
    km.interrupt_kernel()
    reply = kc.get_shell_msg(timeout=20)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = kc.get_shell_msg(timeout=20)
    expect(reply["content"]["status"] == "abort", "an interrupt aborts the cell: %s" % reply["content"])
    expect(kc.execute("%help", reply=True, timeout=20)["content"]["status"] == "ok", "the kernel answers after it")
finally:
    kc.stop_channels()
    km.shutdown_kernel(now=True)
    kc = km = None

if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("the napkin kernel passes")
