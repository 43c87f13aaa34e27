#!/usr/bin/env bash
# run.sh NAPKIN NAME: writes the error case NAME (from the program NAME.awk)
# into a scratch tree as tests/errors/NAME.napkin and runs `napkin run` on it
# there, so its messages name the file as the other cases' do. These inputs
# are too big to keep in the repository.
set -u
napkin=$(realpath "$1")
name=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tests/errors"
awk -f "$here/$name.awk" >"$tmp/tests/errors/$name.napkin" || exit 99
cd "$tmp" && "$napkin" run "tests/errors/$name.napkin"
