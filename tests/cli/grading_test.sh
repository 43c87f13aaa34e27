#!/usr/bin/env bash
# Grading: `napkin grade` names the first wrong step of each submission's
# mistakes; a restricted run refuses what a student file must not read,
# printing nothing of it; the time limit ends a run with a clear error.
# The scores themselves: tests/cli/grading_scores.py.
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"
g=examples/grading

# The first wrong step, as the teacher reads it (--show-expected
# --show-reference: the reference's values beside the student's).
# submission_kv counts K and V twice in q1: 2 × 2 × 8 × 128 × 2 B = 8,192 B a
# layer, × 32 = 262,144 B/token against 131,072; q2, q3, q4.memory, q4.fits,
# q5 and q6 are computed from it: 6 answers. Each of q2, q3, q4.memory, q5
# and q6 is right from the student's own earlier answer, so earns half its
# points: 0 + 1 + 1 + 1 + 1 (q4.fits passes) + 1 + 1.5 = 6.5 of 14.
expect_match grade.kv 1 '^  first wrong step: q1\.kv_per_token is 262,144 B/token, the reference 131,072 B/token \(×2\); 6 answers depend on it$' out -- "$napkin" grade $g/reference.napkin $g/submission_kv.napkin --show-expected --show-reference
expect_in grade.kv.own_steps "$tmp/out" '^  your derivation \(examples/grading/submission_kv\.napkin:16\): q1\.per_layer = 2 · 2 · given\.kv_heads'
expect_in grade.kv.carried "$tmp/out" '^  carried forward: q2\.kv_per_sequence is right by the reference.s method from your own q1\.kv_per_token, which is wrong: 1 of 2 points$'
expect_in grade.kv.once "$tmp/out" '^  first wrong step: q1\.kv_per_token, explained under "q1 KV bytes per token"$'
expect_in grade.kv.score "$tmp/out" '^score: 6\.5 of 14 points$'
# The mistake is explained once: one derivation of q1.kv_per_token, not one
# per check that depends on it.
n=$(grep -c 'your derivation (examples/grading/submission_kv\.napkin:17)' "$tmp/out")
if [ "$n" = 1 ]; then passes=$((passes + 1)); else
  echo "FAIL grade.kv.explained_once: the derivation of q1.kv_per_token is shown $n times"; failures=$((failures + 1)); fi
# No formula of the reference is shown: its q1 multiplies by given.layers
# first, which the student's file never writes.
if grep -q '2 · given\.layers · given\.kv_heads' "$tmp/out"; then
  echo "FAIL grade.kv.no_reference_formula: the reference's formula is shown"; failures=$((failures + 1))
else passes=$((passes + 1)); fi
# By default the student reads neither the reference's values nor its lines.
expect_match grade.kv.secret 1 '^  first wrong step: q1\.kv_per_token is 262,144 B/token, not the reference.s value; 6 answers depend on it$' out -- "$napkin" grade $g/reference.napkin $g/submission_kv.napkin
for secret in '131,072' '131_072' 'reference\.napkin:' '×2' '1 GiB' '16 GiB' '33\.24' '9\.922' '1,612' 'expected'; do
  if grep -q -- "$secret" "$tmp/out"; then
    echo "FAIL grade.kv.secret: the default output shows $secret"; failures=$((failures + 1))
  else passes=$((passes + 1)); fi
done
# No carried-forward credit when the author says so; all of it (q1 alone
# lost: 12 of 14) when the author gives all.
expect_match grade.kv.no_carry 1 '^score: 1 of 14 points$' out -- "$napkin" grade $g/reference.napkin $g/submission_kv.napkin --carried-forward 0
expect_in grade.kv.no_carry.says "$tmp/out" 'which is wrong; no credit is carried forward$'
expect_match grade.kv.full_carry 1 '^score: 12 of 14 points$' out -- "$napkin" grade $g/reference.napkin $g/submission_kv.napkin --carried-forward 100%
expect_match grade.carry.bad 2 'a share is a fraction from 0 to 1' err -- "$napkin" grade $g/reference.napkin $g/submission_kv.napkin --carried-forward 150%
# submission_context: the context (a given input) changed to 4,096 token,
# which q2, q3, q4.memory and q4.fits use; and q5 timed from the weights
# alone (16.06 GB / 3.35 TB/s = 4.794 ms, the reference 9.922 ms), which q6 uses.
# q2, q3, q4.memory and q6 follow from the student's own values: half
# points; q5 does not: 2 + 1 + 1 + 1 + 1 + 0 + 1.5 = 7.5 of 14.
expect_match grade.context.input 1 '^the submission changed the given input given\.context: 4,096 token, the reference 8,192 token$' out -- "$napkin" grade $g/reference.napkin $g/submission_context.napkin --show-expected
expect_in grade.context.first "$tmp/out" '^  first wrong step: given\.context is 4,096 token, the reference 8,192 token \(×0\.5\); 4 answers depend on it$'
expect_in grade.context.wrote "$tmp/out" '^  you wrote given\.context = 4096 token \(examples/grading/submission_context\.napkin:9\)$'
expect_in grade.context.second "$tmp/out" '^  first wrong step: q5\.step_time is 4\.794 ms, the reference 9\.922 ms \(×0\.4832\); 1 answer depends on it$'
expect_in grade.context.score "$tmp/out" '^score: 7\.5 of 14 points$'
expect_match grade.context.input.secret 1 '^the submission changed the given input given\.context: 4,096 token, not the value given$' out -- "$napkin" grade $g/reference.napkin $g/submission_context.napkin
expect_match grade.broken 2 '^examples/grading/submission_broken\.napkin:16:37: error\[E0100\]' out -- "$napkin" grade $g/reference.napkin $g/submission_broken.napkin
expect_in grade.broken.score "$tmp/out" '^score: 0 of 14 points$'
# submission_units: one early mistake, 2^30 B taken for 1 GB in q2 (a
# literal); q3 to q6 are right from it. Its whole feedback, worked out by
# hand: q2 shown in the GB the student wrote, q3 (no unit written) as napkin
# shows 16 GB, not in the checker's GiB, the mistake explained once,
# half points carried forward: 2 + 0 + 1 + 1 + 1 + 1 + 1.5 = 7.5 of 14.
cat >"$tmp/units_want" <<'WANT'
passed: q1 KV bytes per token
q2 KV cache per sequence: check failed: q2.kv_per_sequence is 1 GB
  first wrong step: q2.kv_per_sequence is 1 GB, not the reference's value; 5 answers depend on it
  you wrote q2.kv_per_sequence = 1 GB (examples/grading/submission_units.napkin:23)
q3 KV cache of the batch: check failed: q3.kv_total is 16 GB
  carried forward: q3.kv_total is right by the reference's method from your own q2.kv_per_sequence, which is wrong: 1 of 2 points
  first wrong step: q2.kv_per_sequence, explained under "q2 KV cache per sequence"
q4 memory: check failed: q4.memory is 32.06 GB
  within:   0.1%
  carried forward: q4.memory is right by the reference's method from your own q3.kv_total, which is wrong: 1 of 2 points
  first wrong step: q2.kv_per_sequence, explained under "q2 KV cache per sequence"
passed: q4 fits in 80 GB
q5 decode step: check failed: q5.step_time is 9.57 ms
  within:   0.1%
  carried forward: q5.step_time is right by the reference's method from your own q4.memory, which is wrong: 1 of 2 points
  first wrong step: q2.kv_per_sequence, explained under "q2 KV cache per sequence"
q6 throughput: check failed: q6.tokens_per_s is 1,672 token/s
  within:   0.5%
  carried forward: q6.tokens_per_s is right by the reference's method from your own q5.step_time, which is wrong: 1.5 of 3 points
  first wrong step: q2.kv_per_sequence, explained under "q2 KV cache per sequence"
score: 7.5 of 14 points
WANT
"$napkin" grade $g/reference.napkin $g/submission_units.napkin >"$tmp/units_got" 2>&1
if [ $? = 1 ] && diff "$tmp/units_want" "$tmp/units_got" >"$tmp/units_diff"; then passes=$((passes + 1)); else
  echo "FAIL grade.units.text:"; cat "$tmp/units_diff"; failures=$((failures + 1)); fi
# Carried forward whether the student computed the answer or typed its
# number: q2 typed as 2 GiB is the reference's q1.kv_per_token × context on
# the student's doubled q1 (262,144 B/token × 8,192 token = 2 GiB): 6.5 of 14
# as for submission_kv. Typed as 3 GiB, it follows from nothing: q2 earns
# nothing and is itself the wrong step q3 to q6 follow from (48 GiB, 67.6 GB
# still fits in 80 GB): 0 + 0 + 1 + 1 + 1 + 1 + 1.5 = 5.5 of 14.
sed 's/^  kv_per_sequence = .*/  kv_per_sequence = 2 GiB/' $g/submission_kv.napkin >"$tmp/typed.napkin"
expect_match grade.typed.carried 1 '^  carried forward: q2\.kv_per_sequence is right by the reference.s method from your own q1\.kv_per_token, which is wrong: 1 of 2 points$' out -- "$napkin" grade --unrestricted $g/reference.napkin "$tmp/typed.napkin"
expect_in grade.typed.score "$tmp/out" '^score: 6\.5 of 14 points$'
sed 's/^  kv_per_sequence = .*/  kv_per_sequence = 3 GiB/' $g/submission_kv.napkin >"$tmp/typed_wrong.napkin"
expect_match grade.typed_wrong.score 1 '^score: 5\.5 of 14 points$' out -- "$napkin" grade --unrestricted $g/reference.napkin "$tmp/typed_wrong.napkin"
expect_in grade.typed_wrong.unit "$tmp/out" '^q2 KV cache per sequence: check failed: q2\.kv_per_sequence is 3 GiB$'
expect_in grade.typed_wrong.step "$tmp/out" '^  first wrong step: q2\.kv_per_sequence is 3 GiB, not the reference.s value; 5 answers depend on it$'
if grep -q 'carried forward: q2\.' "$tmp/out"; then
  echo "FAIL grade.typed_wrong.no_carry: q2 earns carried-forward credit"; failures=$((failures + 1))
else passes=$((passes + 1)); fi
# An unnamed check is named by its text, which holds the expected value: a
# later check that points to its explanation names its answer instead.
sed 's/^check "q1 KV bytes per token" (2 points): /check /' $g/reference.napkin >"$tmp/unnamed_reference.napkin"
expect_match grade.unnamed.pointer 1 '^  first wrong step: q1\.kv_per_token, explained under "q1\.kv_per_token"$' out -- "$napkin" grade "$tmp/unnamed_reference.napkin" $g/submission_kv.napkin
if grep -q '131_072\|131,072' "$tmp/out"; then
  echo "FAIL grade.unnamed.secret: the unnamed check's expected value is shown"; failures=$((failures + 1))
else passes=$((passes + 1)); fi
# With the expected values shown, the student's GB beside the checker's GiB.
expect_match grade.units.both 1 '^  actual:   1 GB \(0\.9313 GiB\)$' out -- "$napkin" grade $g/reference.napkin $g/submission_units.napkin --show-expected
# A reference that fails its own check is the grader's mistake, not a grade.
printf 'scenario q1 {\n  kv_per_token = 1 B/token\n}\ncheck "q1" (2 points): q1.kv_per_token == 2 B/token\n' >"$tmp/bad_reference.napkin"
expect_match grade.bad_reference 2 'error\[E0500\]: the reference fails its own check' err -- "$napkin" grade "$tmp/bad_reference.napkin" $g/submission_kv.napkin

# Restricted mode. A secret in the environment and in files outside the
# submission's folder; none of it may appear in anything napkin prints.
d=$tmp/course/submission
mkdir -p "$d"
printf 'secret = "OUTSIDE_SECRET_8d1f" this is not napkin\n' >"$tmp/course/outside.napkin"
printf 'OUTSIDE_SECRET_8d1f\n' >"$tmp/course/outside.txt"
export GRADER_TOKEN=ENV_SECRET_5c2e
no_secret() {  # NAME: neither secret, nor a line of /etc/passwd, in the last output
  if grep -qE 'SECRET_|root:x?:0:0' "$tmp/out" "$tmp/err"; then
    echo "FAIL $1: a secret was printed"; show_output "$tmp/out" "$tmp/err"; failures=$((failures + 1))
  else passes=$((passes + 1)); fi
}
attempt() {  # NAME IMPORT CODE [EXTRA ARGS]: a submission importing IMPORT is refused with CODE
  local name=$1 path=$2 code=$3
  shift 3
  # Its own name: writing to "$d/$name.napkin" would write through a link
  # of the same name the case planted.
  printf 'import "%s"\nscenario q1 {\n  x = 1\n}\ncheck q1.x == 1\n' "$path" >"$d/try_$name.napkin"
  expect_match "restricted.$name" 2 "^$d/try_$name\\.napkin:1:8: error\\[$code\\]" err -- "$napkin" check --restricted "$d/try_$name.napkin" "$@"
  no_secret "restricted.$name.quiet"
}
attempt environ /proc/self/environ E0604
ln -s /proc/self/environ "$d/env.napkin"
attempt environ_link env.napkin E0604
attempt passwd ../../../../../../../../../../etc/passwd E0603
attempt dotdot ../outside.napkin E0604
ln -s ../outside.napkin "$d/link.napkin"
attempt link link.napkin E0604
ln -s ../outside.txt "$d/text_link.napkin"
attempt text_link text_link.napkin E0604
attempt absolute "$tmp/course/outside.napkin" E0604
mkfifo "$d/pipe.napkin"
attempt fifo pipe.napkin E0603
# Not restricted, the same imports are still refused when they are not napkin
# source (the environment, /etc/passwd, a link to a text file, a FIFO), and
# quote nothing; a .napkin file outside the folder is read, as before.
for case in environ passwd text_link fifo; do
  expect_match "always.$case" 2 'error\[E0603\]' err -- "$napkin" check "$d/try_$case.napkin"
  no_secret "always.$case.quiet"
done
expect_match always.env_link 2 'is a symbolic link to a file whose name does not end in \.napkin' err -- "$napkin" run "$d/try_environ_link.napkin"
no_secret always.env_link.quiet
# The outside file parses badly: its own line is shown, since it is napkin source.
expect_match unrestricted.dotdot 2 'outside\.napkin:1:' err -- "$napkin" check "$d/try_dotdot.napkin"
# A file named on the command line that is not napkin source: read, but no
# line of it is quoted.
expect_match top.passwd 2 '^/etc/passwd:1:[0-9]+: error\[E0100\]: /etc/passwd does not parse as napkin source' err -- "$napkin" run /etc/passwd
no_secret top.passwd.quiet
expect_match top.environ 2 'error\[E0603\]: /proc/self/environ is not napkin source: it holds a NUL byte' err -- "$napkin" run /proc/self/environ
no_secret top.environ.quiet
# Under grade the restriction is the default, and the results say why.
printf 'import "../outside.napkin"\n' >"$d/grade_dotdot.napkin"
expect_match grade.restricted 2 '"code": "E0604"' out -- "$napkin" grade $g/reference.napkin "$d/grade_dotdot.napkin" --format json
no_secret grade.restricted.quiet

# measure(...) runs no probe when restricted: its `else` applies.
printf 'hardware h {\n  bw = measure(cpu.triad_bandwidth) else 1 TB/s\n}\ncheck h.bw == 1 TB/s\n' >"$d/measure.napkin"
expect_match restricted.measure 0 '^  bw = 1 TB/s  \[fallback: measurements are off\]$' out -- env -u NAPKIN_NO_MEASURE "$napkin" run --restricted "$d/measure.napkin"

# The time limit: 2^40 calls cannot finish in a second. The run stops with
# E0703 and exit 2, and the document on stdout still parses, its check errored.
printf 'fn f(n) = if n <= 0 then 1 else f(n - 1) + f(n - 1)\nlet x = f(40)\ncheck "slow" (3 points): x > 0\n' >"$d/slow.napkin"
expect_match timeout.check 2 '^error\[E0703\]: the run took longer than 1 s' err -- timeout 20 "$napkin" check --restricted --time-limit 1 "$d/slow.napkin" --format gradescope
if /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert (d["score"], sum(t["max_score"] for t in d["tests"])) == (0, 3), d; assert "E0703" in d["tests"][0]["output"]' "$tmp/out"; then
  passes=$((passes + 1))
else echo "FAIL timeout.document"; show_output "$tmp/out"; failures=$((failures + 1)); fi
cp "$d/slow.napkin" "$d/slow_submission.napkin"
printf 'let x = 1\ncheck "slow" (3 points): x > 0\n' >"$tmp/slow_reference.napkin"
expect_match timeout.grade 2 'error\[E0703\]' err -- timeout 20 "$napkin" grade --time-limit 1 "$tmp/slow_reference.napkin" "$d/slow_submission.napkin"

# A failed ≈ check names both sides in the unit its expected value is written
# in: 15.05 ms as 15,051 µs (q5.step_time of submission_kv), not 0.01505 s.
expect_match units.run 2 'error\[E0500\]: check failed: q5\.step_time is 15,051 µs, expected 9,922 µs$' err -- "$napkin" run tests/grading/kv_checks.napkin
expect_match units.check 2 '^    q5\.step_time = 15,051 µs, expected 9,922 µs: off by 51\.7% \(allowed 0\.1%\)$' out -- "$napkin" check tests/grading/kv_checks.napkin

# The memory limit: 31 ranges of 1,000,000 samples (8 MB each) in 64 MiB.
{ echo 'let a = 1 to 2'; for i in $(seq 1 30); do echo "let b$i = a * $i"; done
  echo 'check "big" (2 points): median(b30) > 0'; } >"$d/memory.napkin"
# An address-space limit cannot hold a sanitizer build (its shadow memory
# alone is terabytes of it): CI's release stage runs these two.
if [ -z "${NAPKIN_SANITIZED:-}" ]; then
  expect_match memory.run 2 '^error\[E0704\]: the run needed more than 64 MiB' err -- "$napkin" run --restricted --memory-limit 64 --samples 1000000 "$d/memory.napkin"
  expect_match memory.check 2 '"code": "E0704"' out -- "$napkin" check --restricted --memory-limit 64 --samples 1000000 "$d/memory.napkin" --format json
fi

# check --format json carries a failed check's account (its comparison and
# derivation, as the text prints it) for a notebook to show from data; it
# shows the expected value, so only with --show-expected.
printf 'scenario s {\n  a = 2 GB\n  b = a * 3\n}\ncheck s.b == 7 GB\n' >"$tmp/account.napkin"
expect_match check.json.derivation 1 '^ +"    6 GB == 7 GB is false",$' out -- \
  "$napkin" check "$tmp/account.napkin" --format json --show-expected
expect_in check.json.derivation.tree "$tmp/out" '^ +"    └── s\.a = 2 GB"$'
expect_no_match check.json.derivation.hidden 1 '7 GB is false' out -- \
  "$napkin" check "$tmp/account.napkin" --format json

# The examples and checkers are in the one layout, labels included.
expect_status fmt.grading 0 -- "$napkin" fmt --check $g/reference.napkin $g/submission_kv.napkin $g/submission_context.napkin tests/grading/kv_checks.napkin tests/grading/broken_checks.napkin

finish
