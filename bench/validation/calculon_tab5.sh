#!/usr/bin/env bash
# calculon's own figures for Korthikanti et al. 2022 Table 5, which
# compare.sh prints beside napkin's: its validation, run from a checkout
# of calculon-ai/calculon (commit caa4b11 gave the recorded figures). It
# needs Python 3 with numpy and pandas (Debian: python3-numpy and
# python3-pandas), so ctest does not run it.
#   bench/validation/calculon_tab5.sh path/to/calculon
set -eu
dir=${1:?usage: bench/validation/calculon_tab5.sh path/to/calculon}
cd "$dir"
PYTHONPATH=. python3 bin/calculon llm-validation | sed -n '/^End-to-end/,/^Max/p'
