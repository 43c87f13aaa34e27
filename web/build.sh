#!/usr/bin/env bash
# Builds the playground, web/dist/index.html, from the WebAssembly build of
# napkin (`make wasm`: WASM_DIR/napkin-playground.js and .wasm) and the npm
# packages web/package-lock.json pins, installed with `npm ci` (its cache in
# WASM_DIR, so a second build needs no network).
# Usage: web/build.sh WASM_DIR [OUT_DIR]
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: web/build.sh WASM_DIR [OUT_DIR]   (WASM_DIR: where \`make wasm\` wrote napkin-playground.js and .wasm)" >&2
  exit 2
fi
wasm=$(cd "$1" && pwd)
out=${2:-}
web=$(cd "$(dirname "$0")" && pwd)
command -v npm >/dev/null || { echo "web/build.sh: npm is missing (Debian: apt-get install npm)" >&2; exit 2; }
cd "$web"
# Install only when the lock file changed since the last install.
if ! cmp -s package-lock.json node_modules/.napkin-installed-lock 2>/dev/null; then
  npm ci --cache "$wasm/npm-cache" --prefer-offline --ignore-scripts --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.napkin-installed-lock
fi
node build.mjs "$wasm" ${out:+"$out"}
