#!/usr/bin/env bash
# The one Python environment of the project: a virtual environment per profile, with the
# packages of scripts/requirements/PROFILE.txt from PyPI, and for the profiles that need it the
# Python package `kifu` (python/, PyO3 + maturin) built and installed there. The one command for
# a fresh machine:
#
#   scripts/python_env.sh [--bench|--spark|--dask|--export-bench|--conformance] [--debug] [--no-build] [--check]
#
#   profile          requirements              kifu built  used by
#   (none: package)  requirements/package.txt  yes         python/tests (scripts/ci/python_test.sh),
#                                                          the export tests' engines (pyarrow,
#                                                          DuckDB: export/tests/engines.rs,
#                                                          cli/tests/export.rs), users
#   --bench          requirements/bench.txt    yes         scripts/bench/python_bench.py: + python-chess,
#                                                          sgfmill, rust-pgn-reader-python-binding
#   --spark          requirements/spark.txt    yes         scripts/demo/python_spark.py: + pyspark
#   --dask           requirements/dask.txt     yes         scripts/demo/python_dask.py: + dask
#   --export-bench   requirements/export-bench.txt  no     scripts/bench/export_bench.sh: python-chess,
#                                                          pandas, pyarrow, pgn2data
#   --conformance    requirements/conformance.txt   no     scripts/ci/conformance_test.sh: python-chess
#                                                          and sgfmill, the references of
#                                                          scripts/conformance/find_chess.py and
#                                                          go_pattern.py (kifu's side is the CLI)
#
# The venv lives outside the repository, under ${XDG_CACHE_HOME:-~/.cache}/kifu-venv/, named by
# the profile and a checksum of its requirements (the files `-r` includes too): it is made once
# and reused until they change. Then `maturin develop --release` builds the extension (abi3,
# CPython 3.10+) with the workspace's target/ and installs it in the venv; cargo rebuilds only
# what changed.
#
# Prints the venv's python on stdout (use it: `$(scripts/python_env.sh) -m pytest python/tests`).
# --debug builds without optimisation (faster to build, 10x slower to run); --no-build only
# makes the venv; --check makes nothing: it prints the venv's python if the venv is complete,
# else exits 3. Exit status 3 also when Python 3.10+ or the packages cannot be had (callers skip
# then, and say so).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
profile=package build=1 check=0 release=--release
usage="usage: $0 [--bench|--spark|--dask|--export-bench|--conformance] [--debug] [--no-build] [--check]"
for arg in "$@"; do
  case "$arg" in
    --bench) profile=bench ;;
    --spark) profile=spark ;;
    --dask) profile=dask ;;
    --export-bench) profile=export-bench build=0 ;; # kifu's side is the Rust example
    --conformance) profile=conformance build=0 ;; # kifu's side is the CLI and its examples
    --debug) release= ;;
    --no-build) build=0 ;;
    --check) check=1 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
reqdir="$here/requirements"
req="$reqdir/$profile.txt"
# the requirements and the files they include (`-r package.txt`), for the checksum
includes=$(sed -n 's/^-r[[:space:]]*//p' "$req")
key=$(cd "$reqdir" && cat "$profile.txt" $includes | cksum | cut -d' ' -f1)
venv="${XDG_CACHE_HOME:-$HOME/.cache}/kifu-venv/$profile-$key"
if ! { [ -f "$venv/.complete" ] && [ -x "$venv/bin/python" ]; }; then
  if [ "$check" = 1 ]; then
    exit 3
  fi
  python=""
  for p in python3.13 python3.12 python3.11 python3.10 python3; do
    if command -v "$p" >/dev/null 2>&1 \
      && "$p" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
      python=$(command -v "$p")
      break
    fi
  done
  if [ -z "$python" ]; then
    echo "python_env: no Python 3.10 or later on this machine" >&2
    exit 3
  fi
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  echo "python_env: making $venv with $python" >&2
  if ! "$python" -m venv "$venv" >&2 \
    || ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req" >&2; then
    rm -rf "$venv"
    echo "python_env: could not install $req from PyPI" >&2
    exit 3
  fi
  touch "$venv/.complete"
elif [ "$check" = 1 ]; then
  echo "$venv/bin/python"
  exit 0
fi
if [ "$build" = 1 ]; then
  # maturin sets PYO3_BUILD_EXTENSION_MODULE itself (no libpython link in the wheel)
  (cd "$root" && VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" \
    "$venv/bin/maturin" develop $release --locked --quiet -m python/Cargo.toml >&2)
fi
echo "$venv/bin/python"
