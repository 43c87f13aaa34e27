#!/usr/bin/env bash
# The git wiring that docs/review.md describes, run with git for real in a
# throwaway repository: `napkin diff` as the diff driver of *.napkin files,
# the textconv that `git log -p` uses, and `git difftool`.
set -u
napkin=$1
# The test set-up installs git (.ci/install-deps.sh --test): in CI a skip would hide a broken wiring.
if ! command -v git >/dev/null; then
  echo "git is not installed (Debian: apt-get install git)"
  [ -n "${CI:-}" ] && exit 1
  exit 77
fi
. "$(dirname "$0")/../lib/expect.sh"

repo=$tmp/repo
mkdir -p "$repo/plans"
cd "$repo" || exit 1
export GIT_CONFIG_NOSYSTEM=1 HOME=$tmp GIT_PAGER=cat PAGER=cat
git init -q .
git config user.email napkin@example.com
git config user.name napkin
cp "$OLDPWD/examples/exercise1_size_a_model.napkin" plans/plan.napkin
printf 'hardware h {\n  bw = 2 TB/s\n}\n' >plans/hw.napkin
printf 'import "hw.napkin"\nscenario s {\n  bytes = 16 GB\n  t = bytes / h.bw\n}\n' >plans/small.napkin
echo '*.napkin diff=napkin' >.gitattributes
git add . && git commit -qm "the exercise"
sed -i -E 's/^(  kv_heads +=) 8 /\1 48 /' plans/plan.napkin
sed -i 's/16 GB/32 GB/' plans/small.napkin

# The diff driver: git hands napkin both versions of each changed file.
git config diff.napkin.command "'$napkin' diff --git"
expect_match git.header 0 '^napkin diff a/plans/plan\.napkin b/plans/plan\.napkin$' out -- git diff
expect_match git.input 0 '^  drill\.kv_heads +8 → 48$' out -- git diff
expect_match git.kv_cache 0 '^  kv_cache\.per_sequence +1\.5 → 9 GiB +\+500% \(×6\)$' out -- git diff
# The old version is a temporary file: its imports resolve next to the real path.
expect_match git.relative_import 0 '^  s\.t +8 → 16 ms +\+100% \(×2\)$' out -- git diff
expect_match git.from_subdirectory 0 '^  s\.bytes +16 GB → 32 GB$' out -- bash -c 'cd plans && git diff'
git commit -qam "48 KV heads"
expect_match git.between_commits 0 '^  drill\.kv_heads +8 → 48$' out -- git diff HEAD~1 HEAD
expect_match git.log 0 '^  drill\.kv_heads +8 → 48$' out -- git log -p --ext-diff -1
git mv plans/small.napkin plans/tiny.napkin && git commit -qm rename
expect_match git.rename 0 '^napkin diff a/plans/small\.napkin b/plans/tiny\.napkin$' out -- git diff -M HEAD~1 HEAD
expect_match git.added 0 'appeared' out -- git diff --no-renames HEAD~1 HEAD
git config --unset diff.napkin.command

# GIT_EXTERNAL_DIFF for a one-off, limited to napkin files.
expect_match git.external_diff 0 '^  drill\.kv_heads +8 → 48$' out -- env GIT_EXTERNAL_DIFF="'$napkin' diff --git" git diff HEAD~2 HEAD~1 -- '*.napkin'

# textconv: one version at a time, as text git diffs line by line.
git config diff.napkin.textconv "sh -c '\"$napkin\" run --steps \"\$0\" 2>/dev/null; true'"
expect_match textconv.input 0 '^-  kv_heads = 8$' out -- git diff HEAD~2 HEAD~1
expect_match textconv.input_new 0 '^\+  kv_heads = 48$' out -- git diff HEAD~2 HEAD~1
expect_match textconv.value 0 '^\+ += 9 GiB$' out -- git diff HEAD~2 HEAD~1
expect_match textconv.log 0 '^-  kv_heads = 8$' out -- git log -p -1 HEAD~1
git config --unset diff.napkin.textconv

# git difftool hands napkin diff two files.
expect_match difftool 0 '^  drill\.kv_heads +8 → 48$' out -- git difftool -y -x "'$napkin' diff" HEAD~2 HEAD~1 -- plans/plan.napkin

finish
