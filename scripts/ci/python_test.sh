#!/usr/bin/env bash
# CI's Python step (.ci/run): the package's virtual environment (scripts/python_env.sh: a venv
# under ~/.cache with maturin, pytest, pyarrow, pandas, Polars, DuckDB, NumPy, mypy and pyright
# from PyPI), the extension built by `maturin develop` and installed there, then pytest on
# python/tests, then the type stubs checked as a user's type checker reads them: `mypy --strict`
# and pyright (strict) on python/tests/typecheck/usage.py (what iterating a reader, a `with`, the
# dicts of stats and check give; the sources that must be refused), and `mypy.stubtest`, which
# compares the stubs with the module itself. pyright runs on the machine's Node.js: without
# `node` it is skipped, and the script says so.
#
#   scripts/ci/python_test.sh [--release] [PYTEST ARGS...]
#
# By default the extension is built in the dev profile (`maturin develop` without --release):
# after `cargo test` most of the dependencies are built already, and the decoders and the
# Parquet writer are optimized in that profile (Cargo.toml), so the build takes a minute or two
# where a release build takes ten on a loaded two-core machine (kifu-python and pyo3 are
# optimized in that profile too). The constant-memory test reads
# a 60 MB stream here (beside a 20 MB one) (the test's default, 300 MB, when run by hand; $KIFU_MEMORY_TEST_BYTES).
#
# Exit status 0 with a message "python: SKIPPED ..." when Python 3.10+ is missing or PyPI is
# out of reach (scripts/python_env.sh says which); otherwise pytest's.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=--debug
if [ "${1:-}" = "--release" ]; then
  build=
  shift
fi
status=0
"$here/../python_env.sh" --no-build >/dev/null || status=$?
if [ "$status" = 3 ]; then
  echo "python: SKIPPED: no Python 3.10+ or no PyPI (see the message above); the package is not tested"
  exit 0
elif [ "$status" != 0 ]; then
  exit "$status"
fi
start=$(date +%s)
# shellcheck disable=SC2086 # $build is one flag or none
py=$("$here/../python_env.sh" $build)
echo "python: extension built and installed in $(($(date +%s) - start)) s ($py)"
cd "$root"
# the kifu binary the tests compare with (check --json, stats --json, json, export): the one
# `cargo test` built
if [ -z "${KIFU_BIN:-}" ] && [ -x target/debug/kifu ]; then
  export KIFU_BIN=target/debug/kifu
fi
export KIFU_MEMORY_TEST_BYTES=${KIFU_MEMORY_TEST_BYTES:-60000000}
"$py" -m pytest -q -p no:cacheprovider python/tests "$@"

# the type stubs (python/kifu/__init__.pyi), as mypy and pyright read them for a user
typecheck=python/tests/typecheck
echo "python: mypy --strict (the stubs and $typecheck/usage.py)"
"$py" -m mypy --strict --cache-dir=/dev/null -p kifu
"$py" -m mypy --strict --cache-dir=/dev/null "$typecheck/usage.py"
echo "python: mypy.stubtest (the stubs against the module)"
(cd python && "$py" -m mypy.stubtest kifu --allowlist "tests/typecheck/stubtest_allowlist.txt")
if command -v node >/dev/null 2>&1; then
  echo "python: pyright (strict: $typecheck/pyrightconfig.json)"
  # the pyright bundled in the wheel, without asking PyPI for a newer one
  PYRIGHT_PYTHON_IGNORE_WARNINGS=1 "$py" -m pyright -p "$typecheck/pyrightconfig.json" --pythonpath "$py"
else
  echo "python: pyright SKIPPED: no Node.js on this machine (pyright runs on it)"
fi
