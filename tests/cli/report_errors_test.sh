#!/usr/bin/env bash
# `run --format json|toml` carries every error as data: an object with its
# code, message, file, line and column, read back here by real parsers; and
# a file that does not parse is still a document on stdout (exit 2).
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"
python=/usr/bin/python3  # Debian's, with tomllib (3.11)

cat >"$tmp/broken.napkin" <<'NAPKIN'
import "std/hardware"
let a = 1 GB
let t = 39 GB / h100.memory_bandwidth
let z = 1 / 0
NAPKIN
printf 'scenario s {\n  a = 1 GB +\n}\n' >"$tmp/unparsed.napkin"

# read FORMAT FILE PYTHON-EXPR: the document `napkin run` prints, parsed as
# `doc`; PYTHON-EXPR must hold. The exit status must be 2 (an error).
read_doc() {
  local name=$1 format=$2 file=$3 cond=$4
  "$napkin" run "$file" --format "$format" >"$tmp/doc" 2>/dev/null
  local rc=$?
  if [ "$rc" -ne 2 ]; then
    echo "FAIL $name: exit $rc (want 2)"
    failures=$((failures + 1))
    return
  fi
  if "$python" - "$format" "$tmp/doc" "$cond" <<'PY'; then passes=$((passes + 1)); else echo "FAIL $name: $cond"; show_output "$tmp/doc"; failures=$((failures + 1)); fi
import json, sys, tomllib
fmt, path, cond = sys.argv[1:]
with open(path, "rb") as f:
    doc = json.load(f) if fmt == "json" else tomllib.load(f)
err = lambda code, line, col: {"code": code, "line": line, "column": col}
place = lambda e: {"code": e["code"], "line": e["line"], "column": e["column"]}
sys.exit(0 if eval(cond) else 1)
PY
}

for format in json toml; do
  # `1 / 0` at line 4: the error points at the zero divisor, column 13 ("let z = 1 / 0").
  read_doc "$format.field_error" "$format" "$tmp/broken.napkin" \
    'place(doc["values"]["z"]["error"]) == err("E0400", 4, 13) and doc["values"]["z"]["error"]["message"] == "division by zero"'
  # h100 is no catalog name (h100_sxm, h100_pcie are): E0300 at the name, line 3 column 17.
  read_doc "$format.errors" "$format" "$tmp/broken.napkin" \
    '[place(e) for e in doc["errors"]] == [err("E0300", 3, 17), err("E0400", 4, 13)] and all(e["file"].endswith("broken.napkin") for e in doc["errors"])'
  read_doc "$format.values_kept" "$format" "$tmp/broken.napkin" 'doc["values"]["a"]["display"] == "1 GB"'
  # The operand the `+` lacks is missing where the `}` stands: line 3, column 1.
  read_doc "$format.unparsed" "$format" "$tmp/unparsed.napkin" \
    '[place(e) for e in doc["errors"]] == [err("E0100", 3, 1)] and doc["values"] == {} and doc["checks"] == []'
done

finish
