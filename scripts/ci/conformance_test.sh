#!/usr/bin/env bash
# The search's answers beside its references, at small scale (issue 34: "answers equal a
# reference written with python-chess and sgfmill ... tests at small scale in CI"): `kifu find`
# and `kifu explore` beside python-chess (scripts/conformance/find_chess.py, every query form
# of docs/search.md) and the Go pattern search beside sgfmill (scripts/conformance/go_pattern.py:
# a corner, an edge and an anywhere pattern, colours swapped or not). The whole corpus's runs
# and their figures are in docs/figures.md § Finding positions and § Go pattern search.
#
#   bash scripts/ci/conformance_test.sh
#
# Reads the embedded samples (cli/src/sample.pgn, tests/data/*.sgf) always, and the corpus's
# lichess sample and small SGF folders when ../shared is beside the repository (said and skipped
# when not). kifu's side is $KIFU_BIN, else the debug build `cargo test` made (the last one:
# built here only when missing), with kifu-pipeline's example go_find beside it; the references'
# venv is scripts/python_env.sh --conformance (skipped, and said, where Python 3.10+ or PyPI is
# out of reach). Fails on any answer that differs without an explanation, printing the whole
# report of the run that failed.
set -euo pipefail
cd "$(dirname "$0")/../.."

rc=0
py=$(bash scripts/python_env.sh --conformance) || rc=$?
if [ "$rc" = 3 ]; then
    echo "conformance: skipped (no Python 3.10+ or PyPI out of reach: the references cannot be installed)"
    exit 0
elif [ "$rc" != 0 ]; then
    exit "$rc"
fi

kifu=${KIFU_BIN:-target/debug/kifu}
go_find=$(dirname "$kifu")/examples/go_find
if [ -z "${KIFU_BIN:-}" ]; then
    [ -x "$kifu" ] || cargo build --locked -q -p kifu-cli
    [ -x "$go_find" ] || cargo build --locked -q -p kifu-pipeline --example go_find
fi
for bin in "$kifu" "$go_find"; do
    [ -x "$bin" ] || { echo "conformance: no $bin (KIFU_BIN's folder holds examples/go_find)"; exit 1; }
done
shared=../shared/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# a reference's run: its last N lines when it passes, its whole report when it fails
run() { # N command...
    local n=$1
    shift
    if "$@" > "$tmp/log" 2>&1; then
        tail -n "$n" "$tmp/log"
    else
        cat "$tmp/log"
        echo "conformance: failed: $*"
        exit 1
    fi
}

echo "-- chess: kifu find / explore beside python-chess, the embedded sample"
run 3 "$py" scripts/conformance/find_chess.py "$kifu" cli/src/sample.pgn --jobs 2
lichess=$shared/pgn/small/shakmaty-benches/lichess_db_1000k.pgn
if [ -f "$lichess" ]; then
    echo "-- chess: the corpus's lichess sample (438 games), the explorer's rows too"
    run 5 "$py" scripts/conformance/find_chess.py "$kifu" "$lichess" --jobs 2 --explore "$lichess"
else
    echo "-- chess: the corpus's lichess sample skipped (no ../shared beside the repository)"
fi

# a lone black stone on the 4-4 point (corner); a black third-line stone, the two lines below
# it empty (edge); a crosscut (anywhere)
printf '.....\n.....\n.....\n...X.\n.....\n' > "$tmp/44.txt"
printf '.....\n.....\n..X..\n' > "$tmp/edge.txt"
printf 'XO\nOX\n' > "$tmp/cross.txt"
go() { # pattern anchor [--swap-colors] inputs...
    local pattern=$1 anchor=$2
    shift 2
    run 1 "$py" scripts/conformance/go_pattern.py "$go_find" "$tmp/$pattern" --anchor "$anchor" "$@" --jobs 2
}
# `kifu find --go-pattern --to jsonl` names the same games and move numbers as `go_find`, the
# example go_pattern.py drives (the scan `kifu explore --go-pattern` runs)
same_as_cli() { # pattern anchor [--swap-colors] inputs...
    local pattern=$1 anchor=$2
    shift 2
    # exit status 1: no game matched; 2: an input that is no game (the corpus has a few), said
    # on stderr as such, never a usage error
    local rc=0
    "$kifu" find -q --go-pattern "$tmp/$pattern" --anchor "$anchor" --to jsonl "$@" \
        > "$tmp/cli.jsonl" 2> "$tmp/cli.err" || rc=$?
    if [ "$rc" -gt 2 ] || grep -q '^error' "$tmp/cli.err"; then
        cat "$tmp/cli.err"
        echo "conformance: kifu find --go-pattern: exit status $rc"
        exit 1
    fi
    "$go_find" "$tmp/$pattern" --anchor "$anchor" "$@" > "$tmp/example.jsonl" 2> /dev/null
    "$py" - "$tmp/cli.jsonl" "$tmp/example.jsonl" <<'PY'
import json, sys
cli = {(g["file"], g["index"]): g["matched_plies"] for g in map(json.loads, open(sys.argv[1]))}
ex = {(g["file"], g["game"]): g["moves"] for g in map(json.loads, open(sys.argv[2]))}
bad = sorted(k for k in set(cli) | set(ex) if cli.get(k) != ex.get(k))
print("kifu find --go-pattern and go_find: %d games with the pattern, %d differing" % (len(cli), len(bad)))
for k in bad[:5]:
    print("   %s game %d: kifu find %s, go_find %s" % (k[0], k[1], cli.get(k), ex.get(k)))
sys.exit(1 if bad else 0)
PY
}

echo "-- go: the pattern search beside sgfmill, the embedded game"
seed=tests/data/seed-takemiya-cho-meijin-1996.sgf
go 44.txt corner "$seed"
go 44.txt corner --swap-colors "$seed"
go edge.txt edge "$seed"
go edge.txt edge --swap-colors "$seed"
go cross.txt anywhere --swap-colors "$seed"
same_as_cli 44.txt corner --swap-colors "$seed"
if [ -d "$shared/sgf/small" ]; then
    echo "-- go: the corpus's small SGF folders (about 2,000 files)"
    go 44.txt corner --swap-colors "$shared/sgf/small"
    go edge.txt edge "$shared/sgf/small"
    same_as_cli 44.txt corner --swap-colors "$shared/sgf/small"
    same_as_cli edge.txt edge "$shared/sgf/small"
else
    echo "-- go: the corpus's small SGF folders skipped (no ../shared beside the repository)"
fi
echo "conformance: every answer the same as the references'"
