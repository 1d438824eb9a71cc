#!/usr/bin/env bash
# The Python environment of the export tests and benchmarks: a venv with the packages of
# scripts/export_requirements.txt (with --bench: scripts/export_bench_requirements.txt), from
# PyPI, kept outside the repository under ${XDG_CACHE_HOME:-~/.cache}/kifu-venv/ and keyed by
# the requirements file's checksum, so that it is made once and reused until the file changes.
#
#   scripts/export_pyenv.sh [--bench] [--check]
#
# Prints the venv's python on stdout. --check makes nothing: it prints the path if the venv is
# already complete, else exits 3. Exit status 3 also when Python or the packages cannot be had
# (callers skip then, saying so).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
req="$here/export_requirements.txt"
check=0
for arg in "$@"; do
  case "$arg" in
    --bench) req="$here/export_bench_requirements.txt" ;;
    --check) check=1 ;;
    *) echo "usage: $0 [--bench] [--check]" >&2; exit 2 ;;
  esac
done
key=$(cksum < "$req" | cut -d' ' -f1)
name=$(basename "$req" .txt)
venv="${XDG_CACHE_HOME:-$HOME/.cache}/kifu-venv/$name-$key"
if [ -f "$venv/.complete" ] && [ -x "$venv/bin/python" ]; then
  echo "$venv/bin/python"
  exit 0
fi
if [ "$check" = 1 ]; then
  exit 3
fi
python=$(command -v python3.11 || command -v python3 || true)
if [ -z "$python" ]; then
  echo "export_pyenv: no python3 on this machine" >&2
  exit 3
fi
rm -rf "$venv"
mkdir -p "$(dirname "$venv")"
if ! "$python" -m venv "$venv" >&2 \
  || ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req" >&2; then
  rm -rf "$venv"
  echo "export_pyenv: could not install $req from PyPI" >&2
  exit 3
fi
touch "$venv/.complete"
echo "$venv/bin/python"
