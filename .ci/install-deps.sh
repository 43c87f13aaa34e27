#!/usr/bin/env bash
# Installs the Debian packages the build needs, if any are missing; with
# --test, also what the tests render with (LaTeX to PDF, PDF pages to PNG,
# SVG plots in a browser), so that no rendering test skips; or the packages
# named as arguments (bench/compare.sh: hyperfine and units).
set -euo pipefail
packages=(cmake make g++ tao-pegtl-dev libfmt-dev libtomlplusplus-dev catch2 libcli11-dev nlohmann-json3-dev libbenchmark-dev libopenblas0-pthread)
# What the tests render, run or read with, one line each so that additions do not collide.
test_packages=(
  texlive-latex-base texlive-latex-recommended poppler-utils  # LaTeX to PDF, PDF pages to PNG
  chromium  # SVG plots in a browser
  firefox-esr  # the playground's test in a second browser (web/tests/firefox.test.mjs)
  cmark libxml2-utils  # Markdown and SVG read back by real parsers
  git       # the diff driver's wiring
  python3   # readback of flat lines, the analysis tests
  # The Jupyter kernel's tests (tests/jupyter/): ipykernel runs it, nbclient executes notebooks on it.
  python3-ipykernel python3-nbclient python3-nbformat python3-jupyter-client jupyter-client
  neovim    # the language server's end-to-end test: Neovim's built-in LSP client, headless
  emscripten  # the WebAssembly build (make wasm), compared with the native one under Node.js
)
if [ "${1:-}" = "--test" ]; then
  packages+=("${test_packages[@]}")
  # The TextMate grammar's test runs vscode-tmgrammar-test (editors/vscode/package-lock.json) with npm:
  # Debian's, unless a Node.js that brings its own is installed.
  command -v npm >/dev/null || packages+=(npm)
elif [ $# -gt 0 ]; then
  packages=("$@")
fi
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
