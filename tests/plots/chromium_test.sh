#!/usr/bin/env bash
# chromium_test.sh NAPKIN: the plots render in a real browser. Each SVG is
# drawn by headless Chromium into a PNG, which must come out with a picture
# in it. Skipped (77) where Chromium is absent.
set -u
napkin=$1
browser=""
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then
    browser=$b
    break
  fi
done
if [ -z "$browser" ]; then
  echo "no chromium found (Debian: apt-get install chromium)"
  [ -n "${CI:-}" ] && exit 1  # in CI a skip would hide a broken picture: make test installs it
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
render() {  # render NAME: $tmp/NAME.svg to $tmp/NAME.png at the picture's own size
  local svg=$tmp/$1.svg png=$tmp/$1.png w h
  w=$(grep -o 'width="[0-9]*"' "$svg" | head -1 | tr -dc 0-9)
  h=$(grep -o 'height="[0-9]*"' "$svg" | head -1 | tr -dc 0-9)
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking --no-first-run \
    --user-data-dir="$tmp/profile-$1" --screenshot="$png" --window-size="$w,$h" "file://$svg" >"$tmp/$1.log" 2>&1
  # A blank page compresses to a few hundred bytes; a plot with text to tens of kilobytes.
  local size
  size=$(stat -c %s "$png" 2>/dev/null || echo 0)
  if [ "$size" -lt 10000 ]; then
    echo "FAIL $1: $browser drew ${size} bytes"
    tail -5 "$tmp/$1.log"
    status=1
  else
    echo "ok $1 (${w}x${h}, $size bytes)"
  fi
}
"$napkin" plot roofline examples/decode_batch_sweep.napkin -o "$tmp/roofline.svg" || status=1
"$napkin" plot sweep examples/decode_batch_sweep.napkin -o "$tmp/sweep.svg" || status=1
"$napkin" plot roofline examples/exercise1_size_a_model.napkin -o "$tmp/roofline_exercise.svg" || status=1
for name in roofline sweep roofline_exercise; do render "$name"; done
exit $status
