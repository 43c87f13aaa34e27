#!/usr/bin/env bash
# kernel_test.sh NAPKIN [NOTEBOOK...]
# Runs the napkin kernel of this source tree against the napkin binary NAPKIN:
# a kernel spec written to a temporary JUPYTER_PATH, NAPKIN_BINARY set. With
# no notebook, tests/jupyter/kernel_test.py; with notebooks, executes each
# with nbclient top to bottom (notebook_test.py), failing on any cell error.
# Debian's python (python3-ipykernel, python3-nbclient): the python3 on PATH may
# be another one.
set -eu
napkin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
src=$(cd "$(dirname "$0")/../.." && pwd)
python=${NAPKIN_JUPYTER_PYTHON:-/usr/bin/python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/jupyter/kernels/napkin"
cat >"$work/jupyter/kernels/napkin/kernel.json" <<JSON
{"argv": ["$python", "-Xfrozen_modules=off", "$src/jupyter/napkin_kernel.py", "-f", "{connection_file}"],
 "display_name": "napkin (build tree)", "language": "napkin"}
JSON
printf '#!/bin/sh\nkill -SEGV $$\n' >"$work/crashing_napkin"
printf '#!/bin/sh\nexec sleep 60\n' >"$work/slow_napkin"
# napkin as it was before `handout`: an unexpected argument.
cat >"$work/napkin_without_handout" <<SH
#!/bin/sh
case "\$1" in
  handout) echo "error[E0800]: The following argument was not expected: handout" >&2; exit 2 ;;
esac
exec "$napkin" "\$@"
SH
chmod +x "$work/crashing_napkin" "$work/slow_napkin" "$work/napkin_without_handout"
export JUPYTER_PATH=$work/jupyter JUPYTER_CONFIG_DIR=$work/config JUPYTER_DATA_DIR=$work/data \
  JUPYTER_RUNTIME_DIR=$work/runtime IPYTHONDIR=$work/ipython NAPKIN_BINARY=$napkin NAPKIN_NO_MEASURE=1 \
  PYTHONDONTWRITEBYTECODE=1 WORK=$work SRC=$src CRASHING_NAPKIN=$work/crashing_napkin SLOW_NAPKIN=$work/slow_napkin \
  NAPKIN_WITHOUT_HANDOUT=$work/napkin_without_handout PYDEVD_DISABLE_FILE_VALIDATION=1
cd "$work"
if [ $# = 0 ]; then
  exec "$python" "$src/tests/jupyter/kernel_test.py"
fi
for nb in "$@"; do
  "$python" "$src/tests/jupyter/notebook_test.py" "$src/$nb"
done
