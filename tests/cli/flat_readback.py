#!/usr/bin/env python3
"""flat_readback.py NAPKIN FILE...: every flat line is napkin.

For every value `napkin run FILE` shows, `napkin explain FILE NAME --flat`
prints `NAME = FLAT = RESULT`. With digit grouping removed, `napkin eval` of
FLAT converted to RESULT's unit must give RESULT: the same unit (so the same
dimension) and the same number to RESULT's shown precision (half a unit of
its last digit), and for a range the same interval. A string or truth value must come back as it is. A line
that names anything but the standard library fails to evaluate, so a flat
line that stopped short of the inputs fails too.
"""
import json
import os
import re
import subprocess
import sys

napkin, files = sys.argv[1], sys.argv[2:]
env = dict(os.environ, NAPKIN_NO_MEASURE="1")


def run(*args):
    p = subprocess.run([napkin, *args], capture_output=True, text=True, env=env)
    return p.returncode, p.stdout, p.stderr


def ungroup(s):
    return re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", s)


def split_value(s):
    """`1,307.4 TFLOP/s` -> (1307.4, 'TFLOP/s', '1,307.4', ''), `11.22%` -> (11.22, '%', ...);
    a range's interval, `3,206 token/s (90%: 3,022–3,400)`, is the last item."""
    m = re.fullmatch(r"(-?[0-9][0-9,]*(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?)(%| ([^ ]+))?( \(90%: .*\))?", s)
    if not m:
        return None
    unit = "%" if m.group(2) == "%" else (m.group(3) or "")
    return float(ungroup(m.group(1))), unit, m.group(1), m.group(4) or ""


def half_ulp(shown):
    """Half a unit of the last digit shown: `135.8` -> 0.05, `1.756e23` -> 0.0005e23."""
    mant, _, exp = shown.replace(",", "").partition("e")
    decimals = len(mant.partition(".")[2])
    return 0.5 * 10.0 ** (-decimals) * (10.0 ** int(exp) if exp else 1.0)


checked = failed = 0
for f in files:
    rc, out, err = run("run", f, "--format", "json")
    if rc != 0:
        print(f"FAIL {f}: run exited {rc}: {err.strip()}")
        failed += 1
        continue
    for name, v in json.loads(out)["values"].items():
        if "si" not in v and not isinstance(v.get("value"), bool) and not v.get("display", "").startswith('"'):
            continue  # a record, or a value that could not be computed: no flat line
        rc, line, err = run("explain", f, name, "--flat")
        line = line.rstrip("\n")
        if rc != 0:
            print(f"FAIL {f} {name}: explain --flat exited {rc}: {err.strip()}")
            failed += 1
            continue
        parts = line.split(" = ")
        if len(parts) < 3:
            continue  # an input: nothing to read back
        flat, result = " = ".join(parts[1:-1]), parts[-1]
        checked += 1
        want = split_value(result)
        expr = ungroup(flat)
        if want and want[1]:
            expr = f"({expr}) -> {want[1]}"
        rc, got, err = run("eval", expr)
        got = got.strip()
        ok = rc == 0
        if ok and want:
            back = split_value(got)
            ok = (back is not None and back[1] == want[1] and back[3] == want[3]
                  and abs(back[0] - want[0]) <= half_ulp(want[2]) * 1.000001)
        elif ok:
            ok = got == result
        if not ok:
            failed += 1
            print(f"FAIL {f} {name}:\n  {line}\n  eval gives {got or err.strip().splitlines()[0]}")
print(f"{checked} flat lines read back, {failed} failed")
sys.exit(1 if failed or not checked else 0)
