#!/usr/bin/env bash
# A hostile student against the grader: the submission itself as a symbolic
# link, a submission that redefines what the reference's checks call, a
# standard-library import that climbs out of --stdlib, a handout that would
# print a pinned answer; and files whose places or line ends are odd (a loop
# of links, an unreadable folder, a name past the system's limit, a link to
# /dev/stdin, classic Mac line ends, a byte-order mark). Each case says what
# a person expects: the code, the place, the points.
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"

export GRADER_TOKEN=ENV_SECRET_5c2e
quiet() {  # NAME: no secret, and no line of the reference, in the last output
  if grep -qE 'SECRET_|REFERENCE_ONLY' "$tmp/out" "$tmp/err"; then
    echo "FAIL $1: something the student must not read was printed"; show_output "$tmp/out" "$tmp/err"
    failures=$((failures + 1))
  else passes=$((passes + 1)); fi
}

# ---- A1: the submission file itself is a symbolic link ------------------
course=$tmp/course
sub=$course/submission
mkdir -p "$sub" "$course/source"
printf '# REFERENCE_ONLY\nscenario q1 {\n  x = 5 GB\n}\ncheck "close" (5 points): abs(q1.x - 5 GB) < 1 MB\n' >"$course/source/reference.napkin"
ref=$course/source/reference.napkin
ln -s /proc/self/environ "$sub/environ.napkin"
for format in text json gradescope junit; do
  expect_match "link.environ.$format" 2 'E0604' out -- "$napkin" grade "$ref" "$sub/environ.napkin" --format "$format"
  quiet "link.environ.$format.quiet"
done
# A link to the reference itself would score full marks if it were read.
ln -s "$ref" "$sub/copy.napkin"
expect_match link.reference 2 '^error\[E0604\]: .*copy\.napkin is a symbolic link out of its folder' out -- "$napkin" grade "$ref" "$sub/copy.napkin"
expect_in link.reference.score "$tmp/out" '^score: 0 of 5 points$'
expect_match link.reference.gradescope 2 '"score": 0,' out -- "$napkin" grade "$ref" "$sub/copy.napkin" --format gradescope
# check --restricted of a checker that is a link out of its folder: refused,
# and its checks are not listed from the file it points at.
expect_match link.check 2 '"code": "E0604"' out -- "$napkin" check --restricted "$sub/copy.napkin" --format json
quiet link.check.quiet
if grep -q '"close"' "$tmp/out"; then
  echo "FAIL link.check.unlisted: the linked file's checks were listed"; failures=$((failures + 1))
else passes=$((passes + 1)); fi
# A link inside the folder to a .napkin file there is a file like any other.
printf 'scenario q1 {\n  x = 5 GB\n}\n' >"$sub/answer.napkin"
ln -s answer.napkin "$sub/inside.napkin"
expect_match link.inside 0 '^score: 5 of 5 points$' out -- "$napkin" grade "$ref" "$sub/inside.napkin"
# A FIFO named like a submission would block or read as empty.
mkfifo "$sub/pipe.napkin"
expect_match submission.fifo 2 'error\[E0603\]: .*pipe\.napkin is not napkin source: it is not a regular file' out -- timeout 10 "$napkin" grade "$ref" "$sub/pipe.napkin"
# Not text, even named .napkin: refused, quoting nothing.
printf 'scenario q1 {\n  x = 5 GB \001 SECRET_BINARY\n}\n' >"$sub/binary.napkin"
expect_match submission.binary 2 'error\[E0603\]: .*binary\.napkin is not napkin source: it holds the control byte 0x01' out -- "$napkin" grade "$ref" "$sub/binary.napkin"
quiet submission.binary.quiet

# ---- A2: the reference's checks keep the reference's meaning ------------
printf 'fn abs(x) = 0 B\nscenario q1 {\n  x = 42 GB\n}\n' >"$sub/abs.napkin"
expect_match scope.abs 1 '^score: 0 of 5 points$' out -- "$napkin" grade "$ref" "$sub/abs.napkin"
# The same redefinition with the right answer changes nothing either.
printf 'fn abs(x) = 0 B\nscenario q1 {\n  x = 5 GB\n}\n' >"$sub/abs_right.napkin"
expect_match scope.abs_right 0 '^score: 5 of 5 points$' out -- "$napkin" grade "$ref" "$sub/abs_right.napkin"
# Every builtin and standard name a check calls: max, min, round, median, a
# std function (kv_cache_bytes), a std record (h100).
cat >"$course/source/names.napkin" <<'EOF'
import "std/transformer"
import "std/memory"
import "std/models"
import "std/hardware"
scenario q1 {
  x = 5 GB
  kv = kv_cache_bytes(llama3_8b, 1024 token)
}
fn close(a, b) = abs(a - b) < 1 MB
check "max" (1 point): max(q1.x, 1 B) == 5 GB
check "min" (1 point): min(q1.x, 100 GB) == 5 GB
check "round" (1 point): round(q1.x / 1 GB) == 5
check "median" (1 point): median(q1.x) == 5 GB
check "std fn" (1 point): q1.kv == kv_cache_bytes(llama3_8b, 1024 token)
check "std record" (1 point): q1.x < h100_sxm.memory_capacity / 10
check "own fn" (1 point): close(q1.x, 5 GB)
EOF
cat >"$sub/names.napkin" <<'EOF'
import "std/transformer"
import "std/hardware"
fn max(a, b) = 5 GB
fn min(a, b) = 5 GB
fn round(x) = 5
fn median(x) = 5 GB
fn kv_cache_bytes(m, t) = 1 B
fn close(a, b) = true
hardware h100_sxm {
  memory_capacity = 1000 TB
}
scenario q1 {
  x = 42 GB
  kv = 1 B
}
EOF
expect_match scope.names 1 '^score: 0 of 7 points$' out -- "$napkin" grade "$course/source/names.napkin" "$sub/names.napkin"
# The checks-beside flow: a checker importing the student's file, restricted.
cp "$sub/abs.napkin" "$sub/homework.napkin"
printf 'import "homework.napkin"\ncheck "close" (5 points): abs(q1.x - 5 GB) < 1 MB\ncheck "max" (1 point): max(q1.x, 1 B) == 5 GB\n' >"$sub/checks.napkin"
expect_match scope.beside 1 '^0 passed, 2 failed$' out -- "$napkin" check --restricted "$sub/checks.napkin"
expect_match scope.beside.gradescope 1 '"score": 0,' out -- "$napkin" check --restricted "$sub/checks.napkin" --format gradescope

# ---- A3: a standard module's name is a plain name -----------------------
mkdir -p "$course/std"
printf 'let leaked = "SECRET_STD"\n' >"$course/source/leak.napkin"
printf 'import "std/../source/leak"\nlet x = leaked\n' >"$sub/stdesc.napkin"
expect_match std.dotdot 2 '^.*stdesc\.napkin:1:8: error\[E0600\]: there is no standard module "std/\.\./source/leak"' err -- "$napkin" run --stdlib "$course/std" "$sub/stdesc.napkin"
quiet std.dotdot.quiet
expect_match std.dotdot.restricted 2 'stdesc\.napkin:1:8: error\[E0600\]' err -- "$napkin" check --restricted --stdlib "$course/std" "$sub/stdesc.napkin"
quiet std.dotdot.restricted.quiet
printf 'import "std//etc/passwd"\n' >"$sub/stdabs.napkin"
expect_match std.absolute 2 'stdabs\.napkin:1:8: error\[E0600\]' err -- "$napkin" run --stdlib "$course/std" "$sub/stdabs.napkin"

# ---- A4: a value a check pins is an answer, whatever its formula --------
printf 'scenario q1 {\n  kv = 2 * 32 * 8 * 128 * 2 B / 1 token\n  answer = 2 * 3 * 7\n  given = 5\n}\ncheck q1.kv == 131072 B/token\ncheck q1.answer == 42\n' >"$tmp/pinned.napkin"
expect_no_match handout.pinned 0 '131|= 42' out -- "$napkin" handout "$tmp/pinned.napkin"
expect_in handout.pinned.blank "$tmp/out" '^ +answer += _+'
expect_in handout.pinned.given "$tmp/out" '^ +given += 5$'

# ---- D1: places for every failure of the file system -------------------
mkdir -p "$tmp/d"
ln -s loop.napkin "$tmp/d/loop.napkin"
printf 'import "d/loop.napkin"\n' >"$tmp/imp_loop.napkin"
expect_match import.loop 2 "^$tmp/imp_loop\\.napkin:1:8: error\\[E0602\\]: cannot read the file \"d/loop\\.napkin\": Too many levels of symbolic links" err -- "$napkin" run "$tmp/imp_loop.napkin"
expect_match import.loop.json 2 '"line": 1' out -- "$napkin" check "$tmp/imp_loop.napkin" --format json
long=$(printf 'a/%.0s' $(seq 1 3000))
printf 'import "%sa.napkin"\n' "$long" >"$tmp/imp_long.napkin"
expect_match import.long 2 "^$tmp/imp_long\\.napkin:1:8: error\\[E0602\\]: cannot read the file .*File name too long" err -- "$napkin" run "$tmp/imp_long.napkin"
mkdir -p "$tmp/noperm" && printf 'let y = 1\n' >"$tmp/noperm/y.napkin" && chmod 000 "$tmp/noperm"
printf 'import "noperm/y.napkin"\nlet z = y\n' >"$tmp/imp_noperm.napkin"
if [ "$(id -u)" = 0 ]; then
  # root passes any permission: the import is read (no error without a place).
  expect_status import.noperm 0 -- "$napkin" run "$tmp/imp_noperm.napkin"
else
  expect_match import.noperm 2 "^$tmp/imp_noperm\\.napkin:1:8: error\\[E0602\\]: cannot read the file \"noperm/y\\.napkin\": Permission denied" err -- "$napkin" run "$tmp/imp_noperm.napkin"
fi
chmod 755 "$tmp/noperm"

# ---- D2: a .napkin link to /dev/stdin is not a file --------------------
ln -s /dev/stdin "$tmp/stdin.napkin"
printf 'import "stdin.napkin"\nlet z = 1\n' >"$tmp/imp_stdin.napkin"
expect_match import.stdin 2 "^$tmp/imp_stdin\\.napkin:1:8: error\\[E0603\\]: \"stdin\\.napkin\" is not napkin source" err -- sh -c 'echo "let x = 1" | "$0" run "$1"' "$napkin" "$tmp/imp_stdin.napkin"
# A link to nothing at all is still "not found", at the import.
ln -s nothing_here.napkin "$tmp/dangling.napkin"
printf 'import "dangling.napkin"\n' >"$tmp/imp_dangling.napkin"
expect_match import.dangling 2 "^$tmp/imp_dangling\\.napkin:1:8: error\\[E0600\\]" err -- "$napkin" run "$tmp/imp_dangling.napkin"

# ---- D3: a lone CR ends a line, after a comment too ---------------------
printf '# c\rlet a = 1\rlet b = a + 1\rcheck b == 3\r' >"$tmp/mac.napkin"
expect_match cr.check 1 '^0 passed, 1 failed$' out -- "$napkin" check "$tmp/mac.napkin"
expect_match cr.place 1 "^$tmp/mac\\.napkin:4:7: error\\[E0500\\]" err -- "$napkin" run "$tmp/mac.napkin"
printf '# c\rlet a = 1 # a comment\rlet b = a + 1\rcheck b == 2\r' >"$tmp/mac_ok.napkin"
expect_match cr.pass 0 '^1 passed, 0 failed$' out -- "$napkin" check "$tmp/mac_ok.napkin"
# A correct submission saved with classic Mac line ends scores full marks.
printf 'scenario q1 {\r  # the size\r  x = 5 GB\r}\r' >"$sub/mac.napkin"
expect_match cr.grade 0 '^score: 5 of 5 points$' out -- "$napkin" grade "$ref" "$sub/mac.napkin"
# Windows line ends are line ends too, and lines are counted alike.
printf '# c\r\nlet a = 1\r\nlet b = a +\r\n' >"$tmp/crlf.napkin"
expect_match crlf.place 2 "crlf\\.napkin:4:1: error\\[E0100\\]|crlf\\.napkin:3:12: error\\[E0100\\]" err -- "$napkin" run "$tmp/crlf.napkin"

# ---- Carried-forward credit reads only the reference's names ------------
# The reference's q2 is q1.kv_per_token × given.context. A submission whose q2
# adds its own `given` (context 12,288 token) makes its made-up 3 GiB "follow"
# from its doubled q1 (262,144 B/token × 12,288 token = 3 GiB): no credit.
cp examples/grading/reference.napkin "$tmp/ecf_reference.napkin"
sed 's/^  kv_per_sequence = .*/  given = fake\n  kv_per_sequence = 3 GiB/' examples/grading/submission_kv.napkin >"$sub/ecf_fake.napkin"
printf 'scenario fake {\n  context = 12288 token\n}\n' >>"$sub/ecf_fake.napkin"
expect_match ecf.own_names 1 '^score: 5\.5 of 14 points$' out -- "$napkin" grade "$tmp/ecf_reference.napkin" "$sub/ecf_fake.napkin"
if grep -q 'carried forward: q2\.' "$tmp/out"; then
  echo "FAIL ecf.own_names.q2: a field the submission adds earns q2 carried-forward credit"; failures=$((failures + 1))
else passes=$((passes + 1)); fi

# ---- A submission that does not parse is one message, not one a check ---
# examples/grading/submission_broken.napkin: `* *` at 16:37 stops all seven checks.
expect_match broken.once 2 '^score: 0 of 14 points$' out -- "$napkin" grade examples/grading/reference.napkin examples/grading/submission_broken.napkin
expect broken.one_diagnostic 0 1 -- grep -c 'error\[E0100\]' "$tmp/out"
expect broken.each_check 0 7 -- grep -c '^errored: .*: the error above (E0100)$' "$tmp/out"
# The reference's lines, when the author shows them.
expect_match broken.each_check.place 2 '^examples/grading/reference\.napkin:53: errored: q2 KV cache per sequence: the error above \(E0100\)$' out -- "$napkin" grade examples/grading/reference.napkin examples/grading/submission_broken.napkin --show-reference
# Python's power: the help says napkin writes `^`.
printf 'scenario q1 {\n  x = 2 ** 32 * 1 B\n}\n' >"$sub/power.napkin"
expect_match broken.power 2 'help: a power is written `\^`' out -- "$napkin" grade "$ref" "$sub/power.napkin"

# ---- G4: a byte-order mark keeps the handout's title --------------------
printf '\357\273\277# Sizing a model\n# Work out the weights.\n\nscenario q1 {\n  w = 2 * 8 GB\n}\ncheck q1.w == 16 GB\n' >"$tmp/bom.napkin"
expect_match bom.title 0 '^Sizing a model' out -- "$napkin" handout "$tmp/bom.napkin"
expect_in bom.intro "$tmp/out" 'Work out the weights\.'
expect_match bom.run 0 '^  w = 16 GB$' out -- "$napkin" run "$tmp/bom.napkin"

finish
