#!/usr/bin/env bash
# install_test.sh BUILD_DIR GPU_MODULE_BUILT (1 or 0)
# Installs the build into a temporary prefix (`cmake --install`), then, from
# a directory outside the source and build trees, runs the installed napkin
# on the README's example, checks that the Jupyter kernel lands and runs a
# cell, and that napkin finds its GPU module in PREFIX/lib/napkin. A machine
# without a GPU or driver (CI) still shows whether the module was found: a
# module that loads reports "no GPU found (...)" or names the GPU; one that is
# missing reports "was not found".
set -u
build=$(cd "$1" && pwd)
module_built=$2
prefix=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$prefix" "$work"' EXIT
status=0
fail() {
  echo "FAIL: $*"
  status=1
}

if ! cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1; then
  cat "$work/install.log"
  echo "FAIL: cmake --install $build --prefix $prefix"
  exit 1
fi
napkin=$prefix/bin/napkin
[ -x "$napkin" ] || fail "no $napkin"
for f in share/doc/napkin/README.md share/doc/napkin/errors.md share/doc/napkin/language.md \
  share/doc/napkin/examples/exercise1_size_a_model.napkin; do
  [ -f "$prefix/$f" ] || fail "not installed: $f"
done
[ $status = 0 ] || exit 1

# The README's example, from outside the trees, with the installed examples.
cd "$work"
cp -r "$prefix/share/doc/napkin/examples" examples
out=$(NAPKIN_NO_MEASURE=1 "$napkin" explain examples/exercise1_size_a_model.napkin decode.tokens_per_s --depth 2 2>&1)
rc=$?
[ $rc = 0 ] || fail "the README's example exits $rc: $out"
grep -q '= 135.8 token/s' <<<"$out" || fail "the README's example does not give 135.8 token/s: $out"
NAPKIN_NO_MEASURE=1 "$napkin" run examples/exercise1_size_a_model.napkin >/dev/null 2>&1 || fail "napkin run examples/exercise1_size_a_model.napkin fails"
NAPKIN_NO_MEASURE=1 "$napkin" check examples/exercise1_size_a_model.napkin >/dev/null 2>&1 || fail "napkin check examples/exercise1_size_a_model.napkin fails"

# The Jupyter kernel: its spec, and the module the spec's argv names from its
# own folder; started from the prefix as Jupyter starts it (no NAPKIN_BINARY:
# it must run PREFIX/bin/napkin), one cell executed by nbclient.
spec=$prefix/share/jupyter/kernels/napkin/kernel.json
for f in share/jupyter/kernels/napkin/kernel.json share/napkin/jupyter/napkin_kernel.py \
  share/doc/napkin/examples/exercise1_size_a_model.ipynb; do
  [ -f "$prefix/$f" ] || fail "not installed: $f"
done
if [ -f "$spec" ]; then
  module=$(/usr/bin/python3 -c 'import json, os, sys; spec = sys.argv[1]
argv = json.load(open(spec))["argv"]
print(os.path.normpath(argv[2].replace("{resource_dir}", os.path.dirname(spec)))); assert argv[-1] == "{connection_file}"' "$spec") ||
    fail "kernel.json's argv is not PYTHON -X... MODULE -f {connection_file}"
  [ "$module" = "$prefix/share/napkin/jupyter/napkin_kernel.py" ] || fail "kernel.json's argv names $module"
  out=$(env -u NAPKIN_BINARY PYTHONDONTWRITEBYTECODE=1 JUPYTER_PATH="$prefix/share/jupyter" JUPYTER_RUNTIME_DIR="$work/runtime" \
    JUPYTER_CONFIG_DIR="$work/config" JUPYTER_DATA_DIR="$work/data" PATH=/usr/bin:/bin NAPKIN_NO_MEASURE=1 \
    PYDEVD_DISABLE_FILE_VALIDATION=1 /usr/bin/python3 -c 'import nbformat, nbclient
nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("let bytes_per_s = 2 GB / (4 s)")])
nbclient.NotebookClient(nb, kernel_name="napkin", timeout=60).execute()
print(nb.cells[0].outputs[0]["data"]["text/plain"])' 2>&1)
  # 2 GB / 4 s = 0.5 GB/s = 500 MB/s
  grep -q '= 500 MB/s' <<<"$out" || fail "the installed kernel does not run a cell with the installed napkin: $out"
fi

# The GPU module. NAPKIN_GPU_MODULE would override the search: not here.
unset NAPKIN_GPU_MODULE
gpu=$(NAPKIN_MEASURE_CACHE=$work/measurements.toml timeout 300 "$napkin" measure --probe gpu.launch_latency 2>&1 | grep '^GPU:')
if [ "$module_built" = 1 ]; then
  [ -f "$prefix/lib/napkin/libnapkin_gpu.so" ] || fail "the GPU module was built but not installed in lib/napkin"
  case $gpu in
    *"was not found"* | *"could not be loaded"* | *"another napkin version"* | "")
      fail "the installed napkin does not load its GPU module: ${gpu:-no GPU line}" ;;
    *) echo "the installed napkin loads its GPU module: $gpu" ;;
  esac
else
  echo "the GPU module was not built (no CUDA toolkit): only checking that napkin says so"
  case $gpu in
    *"was not found"*) ;;
    *) fail "without a GPU module, napkin measure should say it was not found: ${gpu:-no GPU line}" ;;
  esac
fi
[ $status = 0 ] && echo "installed into a temporary prefix; the README's example runs from $work"
exit $status
