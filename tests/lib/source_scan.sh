# Shared by the tests of the source scans (a Python script that walks the
# tree for a forbidden pattern and exits 1 naming each place it found):
#
#   source_scan SCRIPT FIXTURE LINE...
#
# The tree must pass SCRIPT, and FIXTURE, a file holding the pattern, must
# fail it at exactly the lines named, so the scan is one that can fail.
# Sets status to 1 on any difference.
status=0
source_scan() {
  local script=$1 fixture=$2 out got expected="" line
  shift 2
  if ! out=$(/usr/bin/python3 "$script" .); then
    echo "$out"
    status=1
  fi
  for line in "$@"; do expected+="$fixture:$line"$'\n'; done
  got=$(/usr/bin/python3 "$script" . "$fixture" | cut -d: -f1,2)
  if [ "$got"$'\n' != "$expected" ]; then
    echo "$script on $fixture found:"
    echo "$got"
    echo "expected lines $* only"
    status=1
  fi
  if /usr/bin/python3 "$script" . "$fixture" >/dev/null; then
    echo "$script passed $fixture"
    status=1
  fi
}
