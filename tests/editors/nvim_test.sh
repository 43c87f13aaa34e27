#!/usr/bin/env bash
# Neovim (Debian's, 0.7 or later), headless, as the client of `napkin lsp`:
# nvim_lsp_test.lua. Usage: nvim_test.sh NAPKIN (from the source tree).
set -euo pipefail
napkin=$(realpath "$1")
command -v nvim >/dev/null || { echo "nvim is not installed (.ci/install-deps.sh --test installs neovim)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp examples/exercise1_size_a_model.napkin "$tmp/"
export NAPKIN=$napkin NAPKIN_FILE=$tmp/exercise1_size_a_model.napkin NAPKIN_STD_DIR=$tmp/std
export XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data XDG_STATE_HOME=$tmp/state XDG_CACHE_HOME=$tmp/cache
timeout 60 nvim --headless --clean -i NONE -n -c "luafile $(pwd)/tests/editors/nvim_lsp_test.lua" </dev/null
