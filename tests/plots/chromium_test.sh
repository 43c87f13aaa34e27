#!/usr/bin/env bash
# chromium_test.sh NAPKIN: the plots render in a real browser. Each SVG is
# drawn by headless Chromium into a PNG, which must come out with a picture
# in it, and each roofline is drawn into a canvas whose pixels must show the
# roof where the GPU's datasheet figures put it on the picture's own axes
# (roof_pixels.js). Skipped (77) where Chromium is absent, except in CI.
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

# roof NAME EXPECT: the roofline $tmp/NAME.svg, inline in a page that runs
# roof_pixels.js with EXPECT, a JavaScript object of [FLOP/B, TFLOP/s] pairs.
roof() {
  local page=$tmp/$1.html verdict
  { echo '<!doctype html><html><head><title>pending</title></head><body>'
    cat "$tmp/$1.svg"
    echo "<script>window.roofExpect = $2;</script>"
    echo "<script src=\"file://$here/roof_pixels.js\"></script></body></html>"; } >"$page"
  verdict=$(timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking --no-first-run \
    --user-data-dir="$tmp/profile-$1-pixels" --virtual-time-budget=10000 --dump-dom "file://$page" 2>/dev/null |
    sed -n 's:.*<title>\(.*\)</title>.*:\1:p')
  case $verdict in
    ok*) echo "ok $1 pixels: $verdict" ;;
    *) echo "FAIL $1 pixels: ${verdict:-no verdict}"; status=1 ;;
  esac
}
here=$(cd "$(dirname "$0")" && pwd)
# H100 SXM: 3.35 TB/s and 989.4 TFLOP/s dense bf16 (std/hardware's datasheet
# figures), so the roof is intensity × 3.35 TFLOP/s up to the ridge at
# 989.4 / 3.35 = 295.3 FLOP/B and flat at 989.4 beyond it; nothing is drawn
# at 3,350 TFLOP/s (a roof with no ceiling) or below the roof at 3 FLOP/B.
roof roofline '{on: [[1, 3.35], [10, 33.5], [100, 335], [1000, 989.4], [10000, 989.4]],
  ring: [[295.3, 989.4]], off: [[1000, 3350], [3, 3.35]]}'
# The exercise's MI300X: 5.3 TB/s and 1,307.4 TFLOP/s, ridge 246.7 FLOP/B.
roof roofline_exercise '{on: [[1, 5.3], [10, 53], [100, 530], [1000, 1307.4]],
  ring: [[246.68, 1307.4]], off: [[1000, 5300], [3, 5.3]]}'
exit $status
