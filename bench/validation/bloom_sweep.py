#!/usr/bin/env python3
"""napkin's step time on each layout of BigScience's measured sweep
(bench/validation/bloom_sweep.napkin) beside the measurement, with the
network its all-reduce benchmark measured and with the datasheet's, and
how often napkin orders two layouts as they ran.

    bench/validation/bloom_sweep.py [path/to/napkin]
"""
import json
import pathlib
import subprocess
import sys

napkin = sys.argv[1] if len(sys.argv) > 1 else "build/napkin"
here = pathlib.Path(__file__).parent
out = subprocess.run([napkin, "run", str(here / "bloom_sweep.napkin"), "--format", "json"],
                     capture_output=True, text=True, check=True)
values = json.loads(out.stdout)["values"]
runs = [k[: -len(".error")] for k in values if k.endswith(".error") and not k.startswith("trial.")]


def si(run, field):
    return values[run + "." + field]["si"]


print("layout              measured    napkin    error  datasheet    error    memory")
for r in runs:
    print(f"{r:<17} {si(r, 'measured_step'):9.1f}s {si(r, 'predicted_step'):8.1f}s {100 * si(r, 'error'):+7.1f}%"
          f" {si(r, 'datasheet_step'):9.1f}s {100 * si(r, 'datasheet_error'):+7.1f}% {si(r, 'memory') / 1e9:6.1f} GB")
# Layouts are set against each other only at the same batch (2,048,
# 2,016 or 1,568 sequences), and a layout read twice only once.
groups = {}
for r in runs:
    if r.endswith("_again"):
        continue
    groups.setdefault(values[r + ".sequences"]["si"], []).append(r)
pairs = [(a, b) for group in groups.values() for i, a in enumerate(group) for b in group[i + 1:]]
for label, error, step in (("measured network", "error", "predicted_step"),
                           ("datasheet network", "datasheet_error", "datasheet_step")):
    errors = [abs(si(r, error)) for r in runs]
    agree = sum((si(a, "measured_step") < si(b, "measured_step")) == (si(a, step) < si(b, step)) for a, b in pairs)
    print(f"{label}: mean |error| {100 * sum(errors) / len(errors):.1f}%, worst {100 * max(errors):.1f}%;"
          f" {agree} of {len(pairs)} pairs at one batch ordered as they ran")
