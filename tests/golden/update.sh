#!/usr/bin/env bash
# Regenerates every golden file from the current binary. Read `git diff
# tests/` before committing what it changed.
set -euo pipefail
cd "$(dirname "$0")/../.."
napkin=${1:-./build/napkin}
for f in examples/*.napkin; do
  name=$(basename "$f" .napkin)
  "$napkin" run "$f" --steps >"tests/golden/examples/$name.out" 2>/dev/null || true
  "$napkin" run "$f" --format json >"tests/golden/examples/$name.json" 2>/dev/null || true
done
for f in tests/errors/*.napkin; do
  "$napkin" run "$f" >/dev/null 2>"${f%.napkin}.err" || true
done
echo "golden files regenerated; review them with: git diff --stat tests/ && git diff tests/"
