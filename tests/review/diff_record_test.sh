#!/usr/bin/env bash
# diff_record_test.sh NAPKIN: `napkin diff` of an input that names another
# record (`gpu = a100x` to `b200x`) lists, under it, the figures of the two
# records that the file reads, old and new, in text, Markdown and JSON; a
# figure nothing reads (`link`) is not listed.
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"

cat >"$tmp/old.napkin" <<'NAPKIN'
record chip {
  memory_capacity  = 0 GB
  memory_bandwidth = 0 TB/s
  peak             = 0 TFLOP/s
  link             = 0 GB/s
}
record a100x extends chip {
  memory_capacity  = 80 GB
  memory_bandwidth = 2 TB/s
  peak             = 312 TFLOP/s
  link             = 300 GB/s
}
record b200x extends chip {
  memory_capacity  = 192 GB
  memory_bandwidth = 8 TB/s
  peak             = 2250 TFLOP/s
  link             = 900 GB/s
}
record node {
  gpu = a100x
  tp  = 8
}
scenario serve {
  capacity  = node.tp * node.gpu.memory_capacity
  read_time = 80 GB / node.gpu.memory_bandwidth
  compute   = node.tp * node.gpu.peak
}
NAPKIN
sed 's/^  gpu = a100x$/  gpu = b200x/' "$tmp/old.napkin" >"$tmp/new.napkin"
"$napkin" diff "$tmp/old.napkin" "$tmp/new.napkin" >"$tmp/diff.txt"
# 80 → 192 GB is +140% (×2.4); 2 → 8 TB/s +300% (×4); 312 → 2,250 TFLOP/s +621% (×7.21).
expect_in record.input "$tmp/diff.txt" '^  node\.gpu +a100x → b200x$'
expect_in record.capacity "$tmp/diff.txt" '^    node\.gpu\.memory_capacity +80 → 192 GB +\+140% \(×2\.4\)$'
expect_in record.bandwidth "$tmp/diff.txt" '^    node\.gpu\.memory_bandwidth +2 → 8 TB/s +\+300% \(×4\)$'
expect_in record.peak "$tmp/diff.txt" '^    node\.gpu\.peak +312 → 2,250 TFLOP/s +\+621% \(×7\.21\)$'
expect_order record.under_input "$tmp/diff.txt" '^  node\.gpu ' '^    node\.gpu\.memory_capacity' '^values moved'
if grep -q 'link' "$tmp/diff.txt"; then echo "FAIL record.unread: link, which nothing reads, is listed"; failures=$((failures + 1)); else passes=$((passes + 1)); fi
expect_match record.markdown 1 '^\| `node\.gpu\.memory_bandwidth` \| 2 TB/s \| 8 TB/s \|$' out -- "$napkin" diff --format markdown "$tmp/old.napkin" "$tmp/new.napkin"
"$napkin" diff --format json "$tmp/old.napkin" "$tmp/new.napkin" >"$tmp/diff.json"
expect_match record.json 0 '^ok$' out -- python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
(gpu,) = [i for i in d["inputs"] if i["name"] == "node.gpu"]
f = {x["name"]: x for x in gpu["figures"]}
assert sorted(f) == ["node.gpu.memory_bandwidth", "node.gpu.memory_capacity", "node.gpu.peak"], sorted(f)
c = f["node.gpu.memory_capacity"]
assert c["before"]["si"] == 80e9 and c["after"]["si"] == 192e9 and c["before"]["unit"] == "B", c
assert abs(c["change"] - 1.4) < 1e-12, c
print("ok")' "$tmp/diff.json"

# The example: 4 H100s become 4 MI300Xs; the H100's 3.35 TB/s and the MI300X's 5.3 TB/s move with it.
sed 's/^  gpu     = h100_sxm/  gpu     = mi300x/' examples/uncertain_decode.napkin >"$tmp/mi300x.napkin"
cp examples/uncertain_decode.napkin "$tmp/h100.napkin"
expect_match record.example 1 '^    decode\.gpu\.memory_bandwidth +3\.35 → 5\.3 TB/s +\+58\.2%$' out -- "$napkin" diff "$tmp/h100.napkin" "$tmp/mi300x.napkin"

finish
