#!/usr/bin/env bash
# CI's packaging step for Python (.ci/run): the sdist `maturin sdist` makes, a wheel built from
# that sdist alone (as pip builds it for a user without the repository), installed in a fresh
# virtual environment that has nothing else, then imported: the native module loads, the type
# stubs and the `py.typed` marker are there, the licence is in the metadata.
#
#   scripts/ci/python_sdist.sh
#
# The wheel is built in the dev profile into the workspace's target directory, so that the
# dependencies `cargo test` compiled are reused (a release build from scratch takes ten minutes
# on two cores); what is checked is what goes into the sdist and the wheel, not the optimizer.
# Exit status 0 with "python sdist: SKIPPED ..." where Python 3.10+ or the package's venv (with
# maturin) is missing, as scripts/ci/python_test.sh does.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
status=0
py=$("$here/../python_env.sh" --no-build) || status=$?
if [ "$status" = 3 ]; then
  echo "python sdist: SKIPPED: no Python 3.10+ or no PyPI; the sdist is not checked"
  exit 0
elif [ "$status" != 0 ]; then
  exit "$status"
fi
bin=$(dirname "$py")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
(cd "$root/python" && "$bin/maturin" sdist -o "$tmp/sdist" >"$tmp/log" 2>&1) || { cat "$tmp/log"; exit 1; }
sdist=$(ls "$tmp"/sdist/kifu-*.tar.gz)
listing=$(tar tzf "$sdist")
for f in kifu/__init__.py kifu/__init__.pyi kifu/py.typed LICENSE-MIT LICENSE-APACHE README.md; do
  grep -qx "kifu-[^/]*/$f" <<<"$listing" || { echo "python sdist: $f is not in the sdist" >&2; exit 1; }
done
MATURIN_PEP517_ARGS="--profile dev" CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}" \
  "$bin/pip" wheel -q --no-cache-dir --no-deps -w "$tmp/wheel" "$sdist"
wheel=$(ls "$tmp"/wheel/kifu-*.whl)
base=$("$py" -c 'import sys; print(sys.base_prefix)')/bin/python3
"$base" -m venv "$tmp/fresh"
"$tmp/fresh/bin/pip" install -q --no-index "$wheel"
(cd "$tmp" && "$tmp/fresh/bin/python" - <<'PY'
import importlib.metadata as metadata
import pathlib

import kifu

here = pathlib.Path(kifu.__file__).parent
assert (here / "__init__.pyi").is_file() and (here / "py.typed").is_file(), "stubs missing"
meta = metadata.metadata("kifu")
assert meta["License-Expression"] == "MIT OR Apache-2.0", meta["License-Expression"]
assert "kifu" in (meta.get_payload() or ""), "no description"
assert kifu.stats(b'[White "a"]\n\n1. e4 e5 1-0\n')["games"] == 1
assert issubclass(kifu.InputError, kifu.Error) and issubclass(kifu.InputError, OSError)
print(f"python sdist: {pathlib.Path(kifu.__file__).parent.parent.name}: kifu {kifu.__version__} imports, stubs and licence in place")
PY
)
echo "python sdist: sdist -> wheel -> fresh venv -> import in $(($(date +%s) - start)) s"
