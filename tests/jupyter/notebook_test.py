"""notebook_test.py NOTEBOOK: executes NOTEBOOK on the napkin kernel with
nbclient, top to bottom; any cell error fails (CellExecutionError). Then the
figures a person wrote down for it must be among the cells' outputs."""
import os
import sys
import time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

# Figures from the exercise and its worked solution (/work/shared/seeds, exercise 1):
# 1(c) 19,509,805,056 parameters; 4(b) 1.5 GiB of KV cache at 8192 tokens;
# 5(a) 5.3 TB/s / 39.02 GB = 135.8 token/s; 6(a) the MI300X ridge 1307.4 / 5.3 = 246.7 FLOP/B.
EXPECTED = {
    "exercise1_size_a_model.ipynb": [
        "parameters.total = drill.params",
        "= 19,509,805,056 param",
        "kv_cache.per_sequence = kv_cache_bytes(drill, max_context) -> GiB",
        "= 1.5 GiB",
        "decode.tokens_per_s = batch · 1 token / weight_read_time",
        "= 135.8 token/s",
        "regime.ridge = mi300x.ridge_point",
        "= 246.7 FLOP/B",
        "└── decode.weight_read_time = model.weight_bytes / gpu.memory_bandwidth",
        "kv_cache.per_sequence = 2 · 8 · 128 · 2 B/value/token · 48 · 8,192 token = 1.5 GiB",
    ],
}

# The `check` statements of examples/exercise1_size_a_model.napkin, all in the notebook.
CHECKS = {"exercise1_size_a_model.ipynb": 54}


path = sys.argv[1]
nb = nbformat.read(path, as_version=4)
# The kernel runs in the working directory (kernel_test.sh: a temporary one), not in examples/.
client = NotebookClient(nb, timeout=120, kernel_name="napkin", resources={"metadata": {"path": os.getcwd()}})
started = time.time()
took_ms = []  # each code cell, from the request to the reply and its outputs
try:
    with client.setup_kernel():
        for i, cell in enumerate(nb.cells):
            cell_started = time.time()
            client.execute_cell(cell, i)
            if cell.cell_type == "code":
                took_ms.append((time.time() - cell_started) * 1e3)
except CellExecutionError as e:
    print("FAIL: %s does not run top to bottom:\n%s" % (path, e))
    sys.exit(1)
took = time.time() - started
text = "\n".join(o.get("data", {}).get("text/plain", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
status = 0
for figure in EXPECTED.get(os.path.basename(path), []):
    if figure not in text:
        print("FAIL: %s shows no %r" % (path, figure))
        status = 1
if "✗" in text:
    print("FAIL: %s has a failing check" % path)
    status = 1
expected_checks = CHECKS.get(os.path.basename(path))
if expected_checks is not None and text.count("✓") != expected_checks:
    print("FAIL: %s passes %d checks, not %d" % (path, text.count("✓"), expected_checks))
    status = 1
code_cells = [c for c in nb.cells if c.cell_type == "code"]
for ms, c in zip(took_ms, code_cells):
    print("  %4.0f ms  %s" % (ms, c.source.splitlines()[0][:60]))
print("%s: %d code cells, %d checks passed, %.2f s with the kernel's start"
      % (os.path.basename(path), len(code_cells), text.count("✓"), took))
sys.exit(status)
