#!/usr/bin/env bash
# `napkin fmt`, run for real: printing, --check, -w, and errors.
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"

printf 'scenario s {\n  bytes=16 GB   # the weights\n  time_to_read=bytes/(2 TB/s)\n}\ncheck s.time_to_read ~= 8 ms within 1%%\n' >"$tmp/messy.napkin"
cat >"$tmp/tidy.napkin" <<'NAPKIN'
scenario s {
  bytes        = 16 GB  # the weights
  time_to_read = bytes / (2 TB/s)
}

check s.time_to_read ≈ 8 ms within 1%
NAPKIN
cp "$tmp/messy.napkin" "$tmp/messy_copy.napkin"

expect_match fmt.prints 0 '^  time_to_read = bytes / \(2 TB/s\)$' out -- "$napkin" fmt "$tmp/messy.napkin"
"$napkin" fmt "$tmp/messy.napkin" >"$tmp/printed.napkin"
expect_status fmt.prints_exactly 0 -- cmp "$tmp/printed.napkin" "$tmp/tidy.napkin"
expect_match fmt.stdin 0 '^check s\.time_to_read ≈ 8 ms within 1%$' out -- bash -c '"$1" fmt - <"$2"' _ "$napkin" "$tmp/messy.napkin"

# --check names the files that would change and exits 1; it writes nothing.
expect_match fmt.check_names 1 "^$tmp/messy.napkin\$" out -- "$napkin" fmt --check "$tmp/messy.napkin" "$tmp/tidy.napkin"
expect_match fmt.check_count 1 '1 file is not formatted' err -- "$napkin" fmt --check "$tmp/messy.napkin" "$tmp/tidy.napkin"
expect_status fmt.check_wrote_nothing 0 -- cmp "$tmp/messy.napkin" "$tmp/messy_copy.napkin"
expect_status fmt.check_clean 0 -- "$napkin" fmt --check "$tmp/tidy.napkin"

# -w rewrites in place, keeps the file's mode, and leaves no temporary file.
chmod 640 "$tmp/messy.napkin"
expect_status fmt.write 0 -- "$napkin" fmt -w "$tmp/messy.napkin"
expect_status fmt.written 0 -- cmp "$tmp/messy.napkin" "$tmp/tidy.napkin"
expect_match fmt.mode_kept 0 '^640$' out -- stat -c %a "$tmp/messy.napkin"
expect_match fmt.no_leftovers 0 '^0$' out -- bash -c 'ls -A "$1" | grep -vE "^(messy|tidy|messy_copy|printed)\.napkin$|^(out|err)$" | wc -l' _ "$tmp"
expect_status fmt.check_after_write 0 -- "$napkin" fmt --check "$tmp/messy.napkin"
expect_match fmt.check_and_write 2 'excludes' err -- "$napkin" fmt --check -w "$tmp/messy.napkin"

# A file that does not parse is reported and left alone; the others are still done.
printf 'let x = \n' >"$tmp/broken.napkin"
cp "$tmp/messy_copy.napkin" "$tmp/messy.napkin"
expect_match fmt.broken 2 'broken\.napkin:[0-9]+:[0-9]+: error\[E01[0-9]+\]' err -- "$napkin" fmt -w "$tmp/broken.napkin" "$tmp/messy.napkin"
expect_status fmt.broken_others_done 0 -- cmp "$tmp/messy.napkin" "$tmp/tidy.napkin"
expect_match fmt.missing 2 'cannot read .*nope\.napkin' err -- "$napkin" fmt "$tmp/nope.napkin"

finish
