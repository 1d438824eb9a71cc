#!/usr/bin/env bash
# CI's DuckDB step (.ci/run): the extension built once (scripts/duckdb/build.sh: cargo, then the
# metadata footer), then its pytest suite (duckdb/tests) with the Python of the package's venv
# (scripts/python_env.sh: the DuckDB Python package, pyarrow, pytest), against the kifu binary
# `cargo test` built.
#
#   scripts/ci/duckdb_test.sh [--profile PROFILE] [PYTEST ARGS...]
#
# The profile defaults to dev: after `cargo test` and the Python step its dependencies are built,
# and the decoders and the Parquet writer are optimized in it (Cargo.toml); the tests read a few
# MB. `--profile release` for a build to measure with (scripts/bench/duckdb_bench.sh).
#
# Exit status 0 with a message "duckdb: SKIPPED ..." when Python 3.10+ is missing or PyPI is out of
# reach (scripts/python_env.sh says which); otherwise pytest's. The extension's Rust tests
# (`cargo test -p kifu-duckdb`: the arguments, the replacement scan's names, and the vectors
# written, into fake DuckDB vectors) need neither: `cargo test --workspace` runs them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
profile=dev
if [ "${1:-}" = "--profile" ]; then
  profile=${2:?--profile NAME}
  shift 2
fi
status=0
py=$("$here/../python_env.sh" --no-build) || status=$?
if [ "$status" = 3 ]; then
  echo "duckdb: SKIPPED: no Python 3.10+ or no PyPI (see the message above); the extension is not tested in DuckDB (its Rust tests, cargo test -p kifu-duckdb, need neither)"
  exit 0
elif [ "$status" != 0 ]; then
  exit "$status"
fi
if ! "$py" -c 'import duckdb' 2>/dev/null; then
  echo "duckdb: SKIPPED: the venv has no duckdb package; the extension is not tested in DuckDB (its Rust tests, cargo test -p kifu-duckdb, need neither)"
  exit 0
fi
start=$(date +%s)
ext=$("$root/scripts/duckdb/build.sh" --profile "$profile")
echo "duckdb: extension built ($profile) in $(($(date +%s) - start)) s: ${ext#"$root"/}"
cd "$root"
if [ -z "${KIFU_BIN:-}" ] && [ -x target/debug/kifu ]; then
  export KIFU_BIN=target/debug/kifu
fi
export KIFU_DUCKDB_EXTENSION=$ext
"$py" -m pytest -q -p no:cacheprovider duckdb/tests "$@"
