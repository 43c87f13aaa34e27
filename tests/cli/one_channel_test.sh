#!/usr/bin/env bash
# cli.one_channel: every message a command prints about something it could
# not do has a code (docs/reliability.md), rendered by the one renderer:
# the whole of stderr is compared, as a person expects it.
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"

# expect_err NAME EXIT STDERR -- COMMAND...: exit status and exact stderr.
expect_err() {
  local name=$1 code=$2 want=$3
  shift 4
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -ne "$code" ] || [ "$(cat "$tmp/err")" != "$want" ]; then
    echo "FAIL $name: exit $rc (want $code)"
    echo "  stderr: $(cat "$tmp/err")"
    echo "  want:   $want"
    failures=$((failures + 1))
  else
    passes=$((passes + 1))
  fi
}

cat >"$tmp/plain.napkin" <<'NAPKIN'
let x = 2
NAPKIN

# The command line (CLI11's findings and napkin's own): E0800, no place.
expect_err args.no_command 2 "error[E0800]: A subcommand is required
  = help: run with --help for more information" -- "$napkin"
expect_err args.unknown_option 2 "error[E0800]: The following argument was not expected: --no-such-option
  = help: run with --help for more information" -- "$napkin" run "$tmp/plain.napkin" --no-such-option
expect_err args.checks_beside 2 "error[E0800]: --checks beside and --checks none lay out a document: use them with --format markdown or latex
  = help: run with --help for more information" -- "$napkin" run "$tmp/plain.napkin" --checks beside
expect_err diff.one_file 2 "error[E0800]: napkin diff takes two files: OLD NEW" -- "$napkin" diff "$tmp/plain.napkin"
expect_err diff.threshold 2 "error[E0800]: --threshold 5 apples is not a fraction or a percentage such as 0.1%" -- \
  "$napkin" diff "$tmp/plain.napkin" "$tmp/plain.napkin" --threshold '5 apples'
expect_err fmt.write_stdin 2 "error[E0800]: -w writes files; standard input has none to write
  = help: format standard input without -w, and write its output where it belongs" -- "$napkin" fmt -w -
expect_err fmt.missing 2 "error[E0602]: cannot read $tmp/none.napkin: No such file or directory" -- \
  "$napkin" fmt "$tmp/none.napkin"
expect_err sweep.none 2 "error[E0800]: $tmp/plain.napkin has no sweep; write one like \`sweep decode over batch in [1, 8, 32] show tokens_per_s\`" -- \
  "$napkin" sweep "$tmp/plain.napkin"
expect_err solve.no_goal 2 "error[E0800]: give exactly one of --where 'A == B', --max 'CONDITION' or --min 'CONDITION'" -- \
  "$napkin" solve "$tmp/plain.napkin" r --for x
expect_err layout.degree 2 "error[E0800]: each value of --tp must be a whole number from 1 to 1,000,000, but this is 0.5
  = help: write the values to try, each once: \`--tp 1,2,4,8\`" -- \
  "$napkin" layout "$tmp/plain.napkin" plan --tp 0.5
expect_err measure.unknown_probe 2 "error[E0800]: there is no probe \`cpu.copy_bandwith\`; did you mean \`cpu.copy_bandwidth\`?" -- \
  "$napkin" measure --probe cpu.copy_bandwith
expect_err plot.no_gpu 2 "error[E0805]: this file defines no hardware with memory_bandwidth and peak_bf16 and no field named \`gpu\`; name one with --gpu, e.g. --gpu h100_sxm" -- \
  "$napkin" plot roofline "$tmp/plain.napkin"

# quick --prompt: a number of tokens from 1, as its message says; without
# it, the prompt is the context.
expect_err quick.prompt_zero 2 "error[E0800]: --prompt 0 is out of range: it must be a number of tokens from 1 to 1e12" -- \
  "$napkin" quick --model llama3_8b --gpu h100_sxm --prompt 0
expect_status quick.prompt_one 0 -- "$napkin" quick --model llama3_8b --gpu h100_sxm --prompt 1
expect_status quick.prompt_default 0 -- "$napkin" quick --model llama3_8b --gpu h100_sxm

# Output that cannot be written: E0602, not a silent success.
expect_err output.full 2 "error[E0602]: cannot write the output: No space left on device" -- \
  sh -c '"$1" eval "1 + 1" >/dev/full' sh "$napkin"

finish
