#!/usr/bin/env bash
# CI's README step (.ci/run): the README's commands, run as a reader would run them, and its
# links checked.
#
#   scripts/ci/readme_tour.sh [README]
#
# 1. Links: every relative link of README.md and docs/*.md (and the member READMEs) must name a
#    file that exists, and a `#fragment` a heading of that file (GitHub's anchors).
# 2. The tour: the fenced blocks of README.md, in order, in one fresh temporary directory, with
#    the freshly built `kifu` first on PATH (target/debug/kifu, which `cargo test` builds, else
#    target/release/kifu; $KIFU_BIN names another):
#    - ```sh blocks run with `bash -eux` (each command must succeed, and is echoed; no
#      pipefail, as in a reader's shell, so `kifu json | head` is fine);
#    - ```python blocks run with the Python of the venv scripts/python_env.sh makes (kifu,
#      pyarrow, DuckDB), which `scripts/ci/python_test.sh` has built kifu into; without that
#      venv they are skipped, and the script says so;
#    - the DuckDB extension, when built (target/duckdb/kifu.duckdb_extension, which
#      `scripts/ci/duckdb_test.sh` builds, or $KIFU_DUCKDB_EXTENSION), is in the tour's folder as
#      kifu.duckdb_extension; a block that loads it is skipped, saying so, when it is not built;
#    - a block right after a line `<!-- tour: skip (REASON) -->` is skipped (installs, the
#      network, steps CI runs on their own), and the reason printed;
#    - ```rust blocks are the crate's doctests (`cargo test --doc -p kifu`), not run here;
#      other fences (toml, text, json, sql) are not run.
# Stops at the first block that fails, naming it (its line in README.md) and its status.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
readme=${1:-$root/README.md}
cd "$root"

# --- 1. links -------------------------------------------------------------------------------
if command -v python3 >/dev/null 2>&1; then
  python3 - "$root" README.md docs/*.md cli/README.md input/README.md export/README.md \
    replay/README.md output/README.md pipeline/README.md duckdb/README.md <<'EOF' ||
import os, re, sys
root, files = sys.argv[1], sys.argv[2:]

def slug(title):
    # GitHub's anchors: lower case, markup and punctuation dropped, spaces to '-'
    t = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', title.strip()).lower()
    t = re.sub(r'[^\w\- ]', '', t)
    return t.replace(' ', '-')

def anchors(path):
    seen, out, fence = {}, set(), False
    for line in open(path, encoding='utf-8'):
        if line.startswith('```'):
            fence = not fence
        if fence:
            continue
        m = re.match(r'#{1,6} (.*)', line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f'{s}-{n}')
    return out

bad = 0
for f in files:
    path = os.path.join(root, f)
    if not os.path.exists(path):
        continue
    text, fence, lines = [], False, open(path, encoding='utf-8').read().split('\n')
    for no, line in enumerate(lines, 1):
        if line.startswith('```'):
            fence = not fence
            continue
        if fence:
            continue
        for target in re.findall(r'\]\(([^)\s]+)\)', line):
            if re.match(r'[a-z]+:', target):
                continue                      # https:, mailto:
            file, _, frag = target.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
            if not os.path.exists(dest):
                print(f'{f}:{no}: link to a missing file: {target}'); bad += 1
            elif frag and dest.endswith('.md') and frag not in anchors(dest):
                print(f'{f}:{no}: link to a missing heading: {target}'); bad += 1
sys.exit(1 if bad else 0)
EOF
  { echo "readme: FAILED: the links above lead nowhere" >&2; exit 1; }
  echo "readme: links of README.md, docs/*.md and the member READMEs resolve"
else
  echo "readme: links not checked (no python3)"
fi

# --- 2. the tour ----------------------------------------------------------------------------
kifu=${KIFU_BIN:-}
if [ -z "$kifu" ]; then
  for k in target/debug/kifu target/release/kifu; do
    if [ -x "$k" ]; then kifu=$k; break; fi
  done
fi
if [ -z "$kifu" ] || [ ! -x "$kifu" ]; then
  echo "readme: no kifu binary (target/debug/kifu or target/release/kifu; build it with cargo build -p kifu-cli)" >&2
  exit 2
fi
case "$kifu" in /*) ;; *) kifu=$root/$kifu ;; esac
bin=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$bin" "$work"' EXIT
ln -s "$kifu" "$bin/kifu"
python=""
if py=$("$root/scripts/python_env.sh" --check 2>/dev/null) && "$py" -c 'import kifu, duckdb' 2>/dev/null; then
  python=$py
  # a wrapper, not a link: a venv's python finds its pyvenv.cfg from the path it is run by
  printf '#!/bin/sh\nexec "%s" "$@"\n' "$py" > "$bin/python"
  chmod +x "$bin/python"
fi

extension=${KIFU_DUCKDB_EXTENSION:-$root/target/duckdb/kifu.duckdb_extension}
if [ -f "$extension" ]; then
  ln -s "$(cd "$(dirname "$extension")" && pwd)/$(basename "$extension")" "$work/kifu.duckdb_extension"
else
  extension=""
fi

# the blocks: "LINE LANG SKIP-REASON" then the body, split by awk into files under $work/.blocks
mkdir "$work/.blocks"
awk -v dir="$work/.blocks" '
  /^<!-- tour: skip/ { skip = $0; sub(/^<!-- tour: skip */, "", skip); sub(/ *-->.*$/, "", skip); sub(/^\(/, "", skip); sub(/\)$/, "", skip)
                       if (skip == "") skip = "marked"; next }
  !infence && /^```/ { lang = substr($0, 4); infence = 1; n++
                       file = sprintf("%s/%03d", dir, n)
                       printf "%d\t%s\t%s\n", NR, lang, skip > (file ".meta"); close(file ".meta")
                       printf "" > file; skip = ""; next }
  infence && /^```/  { infence = 0; close(file); next }
  infence            { print >> file; next }
  /[^[:space:]]/     { skip = "" }
' "$readme"

ran=0 skipped=0
for meta in "$work"/.blocks/*.meta; do
  block=${meta%.meta}
  IFS=$'\t' read -r line lang reason < "$meta"
  case "$lang" in
    sh|bash|console) kind=sh ;;
    python) kind=python ;;
    *) continue ;;
  esac
  if [ -n "$reason" ]; then
    echo "readme: line $line ($lang): skipped: $reason"
    skipped=$((skipped + 1))
    continue
  fi
  if [ "$kind" = python ] && [ -z "$python" ]; then
    echo "readme: line $line (python): SKIPPED: no venv with kifu and duckdb (scripts/python_env.sh, scripts/ci/python_test.sh)"
    skipped=$((skipped + 1))
    continue
  fi
  if [ -z "$extension" ] && grep -q 'kifu\.duckdb_extension' "$block"; then
    echo "readme: line $line ($lang): SKIPPED: the DuckDB extension is not built (scripts/duckdb/build.sh, scripts/ci/duckdb_test.sh)"
    skipped=$((skipped + 1))
    continue
  fi
  echo "readme: line $line ($lang)"
  status=0
  if [ "$kind" = sh ]; then
    (cd "$work" && PATH="$bin:$PATH" bash -eux "$block") || status=$?
  else
    (cd "$work" && PATH="$bin:$PATH" "$python" "$block") || status=$?
  fi
  if [ "$status" != 0 ]; then
    echo "readme: FAILED: the $lang block at line $line of $(basename "$readme") exited with status $status" >&2
    exit 1
  fi
  ran=$((ran + 1))
done
echo "readme: tour passed: $ran blocks run, $skipped skipped (kifu: ${kifu#"$root"/})"
