#!/usr/bin/env bash
# run.sh WASM_DIR TEST [ARGS...]: runs tests/wasm/TEST.mjs under Node.js
# against the WebAssembly build in WASM_DIR (make wasm), from the repository
# root. Without that build the test is skipped (77), except in CI, where it
# fails: `make test` builds it.
set -u
wasm_dir=$1 name=$2
shift 2
cd "$(dirname "$0")/../.."
missing=""
command -v node >/dev/null || missing="node (nodejs)"
for f in napkin.js napkin.wasm napkin-playground.js napkin-playground.wasm; do
  [ -f "$wasm_dir/$f" ] || missing="$wasm_dir/$f (make wasm)"
done
if [ -n "$missing" ]; then
  echo "wasm.$name: $missing not found"
  if [ "${CI:-}" = true ]; then exit 1; fi
  exit 77
fi
exec node "tests/wasm/${name}_test.mjs" "$@"
