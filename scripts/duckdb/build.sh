#!/usr/bin/env bash
# Builds the DuckDB extension: `cargo build -p kifu-duckdb` (release, or the profile given),
# then the metadata footer DuckDB requires (footer.py). Prints the extension's path:
#
#   scripts/duckdb/build.sh [--profile PROFILE]   ->   target/duckdb/kifu.duckdb_extension
#
# Load it in DuckDB with allow_unsigned_extensions (docs/duckdb.md):
#   duckdb -unsigned -c "LOAD 'target/duckdb/kifu.duckdb_extension'; SELECT ..."
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
profile=release
case "${1:-}" in
  --profile) profile=${2:?--profile NAME} ;;
  "") ;;
  *) echo "usage: $0 [--profile PROFILE]" >&2; exit 2 ;;
esac
cd "$root"
export CARGO_INCREMENTAL=${CARGO_INCREMENTAL:-0}
cargo build --locked --profile "$profile" -p kifu-duckdb >&2
dir=$profile
[ "$profile" = dev ] && dir=debug
target=${CARGO_TARGET_DIR:-$root/target}
case "$(uname -s)" in
  Darwin) lib="$target/$dir/libkifu_duckdb.dylib" ;;
  *) lib="$target/$dir/libkifu_duckdb.so" ;;
esac
version=v$(sed -n 's/^version = "\(.*\)"/\1/p' duckdb/Cargo.toml | head -1)
mkdir -p "$target/duckdb"
out="$target/duckdb/kifu.duckdb_extension"
python3 scripts/duckdb/footer.py "$lib" "$out" --version "$version"
echo "$out"
