#!/usr/bin/env bash
# Builds and installs the Python package `kifu` (python/, PyO3 + maturin) in a virtual
# environment, the one command for a fresh machine:
#
#   scripts/python_env.sh [--bench|--spark|--dask] [--debug] [--no-build] [--check]
#
# The venv lives outside the repository, under ${XDG_CACHE_HOME:-~/.cache}/kifu-venv/, named
# by a checksum of scripts/python_requirements.txt: it is made once (Python packages from
# PyPI: maturin, pytest, pyarrow, pandas, polars, duckdb, numpy) and reused until the file
# changes. Then `maturin develop --release` builds the extension (abi3, CPython 3.10+) with the
# workspace's target/ and installs it in the venv; cargo rebuilds only what changed.
#
# Prints the venv's python on stdout (use it: `$(scripts/python_env.sh) -m pytest python/tests`).
# --bench uses scripts/python_bench_requirements.txt (the same, plus python-chess, sgfmill and
# rust-pgn-reader-python-binding for scripts/python_bench.py); --spark and --dask add pyspark
# (scripts/python_spark.py) or dask (scripts/python_dask.py); --debug builds without optimisation (faster to build, 10x slower to run); --no-build only
# makes the venv; --check makes nothing and exits 3 unless the venv is there. Exit status 3 when
# Python 3.10+ or the packages cannot be had (callers skip then, and say so).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
req="$here/python_requirements.txt"
build=1 check=0 profile=--release
for arg in "$@"; do
  case "$arg" in
    --bench) req="$here/python_bench_requirements.txt" ;;
    --spark) req="$here/python_spark_requirements.txt" ;;
    --dask) req="$here/python_dask_requirements.txt" ;;
    --debug) profile= ;;
    --no-build) build=0 ;;
    --check) check=1 ;;
    *) echo "usage: $0 [--bench|--spark|--dask] [--debug] [--no-build] [--check]" >&2; exit 2 ;;
  esac
done
key=$(cat "$req" "$here/python_requirements.txt" | cksum | cut -d' ' -f1)
venv="${XDG_CACHE_HOME:-$HOME/.cache}/kifu-venv/$(basename "$req" .txt)-$key"
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
    "$venv/bin/maturin" develop $profile --locked --quiet -m python/Cargo.toml >&2)
fi
echo "$venv/bin/python"
