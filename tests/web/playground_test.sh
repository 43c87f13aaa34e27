#!/usr/bin/env bash
# The playground (web/dist/index.html, built by `make playground`) in
# Debian's Chromium through playwright-core, opened from disk and from a
# static server on 127.0.0.1, and in Debian's Firefox ESR through
# puppeteer-core (web/tests/). Screenshots of each step go to
# BUILD_DIR/web-screenshots.
# Usage: playground_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1
build=$2
page=$src/web/dist/index.html
if [ ! -f "$page" ] || [ ! -d "$src/web/node_modules/playwright-core" ] || [ ! -d "$src/web/node_modules/puppeteer-core" ]; then
  echo "$page or web/node_modules is missing: build the playground first (make playground)" >&2
  exit 1
fi
# A page older than its sources tests what the sources no longer say.
newer=$( (find "$src/web/src" "$src/web/index.html" "$src/web/build.mjs" -type f -newer "$page"
          find "$src/examples" -maxdepth 1 -name '*.napkin' -newer "$page") | head -n 5)
if [ -n "$newer" ]; then
  echo "$page is older than these sources; run make playground again:" >&2
  echo "$newer" >&2
  exit 1
fi
export NAPKIN_SCREENSHOTS=$build/web-screenshots
cd "$src/web"
exec node --test --test-concurrency=1 tests/
