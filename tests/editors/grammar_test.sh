#!/usr/bin/env bash
# The TextMate grammar, tested with vscode-tmgrammar-test at the version
# editors/vscode/package-lock.json pins, installed by `npm ci` into the build
# folder (its cache there too, so a second run needs no network); then its
# keyword patterns against grammar/rules.hpp.
# Usage: grammar_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1
work=$2/editors-npm
mkdir -p "$work"
cp "$src/editors/vscode/package.json" "$src/editors/vscode/package-lock.json" "$work/"
cd "$work"
if ! cmp -s package-lock.json node_modules/.napkin-installed-lock 2>/dev/null; then
  npm ci --cache "$2/npm-cache" --prefer-offline --ignore-scripts --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.napkin-installed-lock
fi
# An assertion line must start in column 0: vscode-tmgrammar-test takes an indented one for code.
if grep -nE '^[[:space:]]+#[[:space:]]*(\^|<-)' "$src"/editors/vscode/tests/*.napkin; then
  echo "these assertion lines are indented, so they would test nothing: write the line under test at the top level"
  exit 1
fi
# It reads the grammar from package.json's `contributes.grammars`, beside which it runs.
runner=$work/node_modules/.bin/vscode-tmgrammar-test
(cd "$src/editors/vscode" && "$runner" tests/*.napkin)
/usr/bin/python3 "$src/tests/editors/check_keywords.py" "$src/grammar/rules.hpp" \
  "$src/editors/vscode/syntaxes/napkin.tmLanguage.json"
