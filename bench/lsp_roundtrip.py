#!/usr/bin/python3
"""`napkin lsp` timed from outside, through its pipes, as an editor sees it:
the time from writing a didChange of exercise 1 to reading its diagnostics,
and from writing a hover to reading its answer. Medians of RUNS (default 50).
Usage: bench/lsp_roundtrip.py NAPKIN (from the source tree)"""
import atexit
import os
import pathlib
import shutil
import statistics
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "editors"))
from lsp_client import Server  # noqa: E402

runs = int(os.environ.get("RUNS", "50"))
std_dir = tempfile.mkdtemp(prefix="napkin-lsp-bench-")
atexit.register(shutil.rmtree, std_dir, True)
s = Server(sys.argv[1], "--std-dir", std_dir)
s.initialize()
path = pathlib.Path("examples/exercise1_size_a_model.napkin").resolve()
text = path.read_text(encoding="utf-8")
uri = "file://" + str(path)
s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "napkin", "version": 1, "text": text}})
s.diagnostics(uri)

edit, hover = [], []
i = text.index("total = drill.params")
pos = {"line": text.count("\n", 0, i), "character": i - text.rfind("\n", 0, i) - 1}
for k in range(runs):
    t0 = time.perf_counter()
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": k + 2},
                                        "contentChanges": [{"text": text + ("let edited = 1\n" if k % 2 else "")}]})
    assert s.diagnostics(uri)["diagnostics"] == []
    edit.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    r = s.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": pos})
    assert "where" in r["result"]["contents"]["value"]
    hover.append(time.perf_counter() - t0)
s.request("shutdown")
s.notify("exit", None)
print(f"diagnostics after an edit: median {statistics.median(edit) * 1e3:.2f} ms, max {max(edit) * 1e3:.2f} ms")
print(f"hover on parameters.total: median {statistics.median(hover) * 1e3:.2f} ms, max {max(hover) * 1e3:.2f} ms")
