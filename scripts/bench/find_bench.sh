#!/usr/bin/env bash
# kifu find --fen (an exact position) and --subfen (a piece pattern) on lichess-format games,
# beside kifu filter --reaches (its engine before `find`, when the binary given still has it),
# pgn-extract (-Tf FEN for the position, a FENPattern tag file for the pattern; when installed)
# and a python-chess loop (read_game, replay, test each position: the loop a Python user
# writes). Interleaved rounds, medians; positions a second per core (the input's main-line
# positions, starts included, over the wall time and the threads).
#
# Usage: scripts/bench/find_bench.sh KIFU [ROUNDS] [TIMES] [PYTHON]
#   KIFU    the kifu binary (target/release/kifu)
#   ROUNDS  rounds of every tool (default 3)
#   TIMES   the corpus's lichess_db_1000k.pgn repeated this many times (default 128: 128 MB)
#   PYTHON  a python with python-chess (default: $(scripts/python_env.sh --export-bench --no-build));
#           the loop reads 4 copies (4 MB) and its rate is scaled to the whole
#   $KIFU_BEFORE  another kifu binary (a build before a change): its filter --reaches runs too
set -euo pipefail
cd "$(dirname "$0")/../.."
kifu=$1 rounds=${2:-3} times=${3:-128}
py=${4:-$(scripts/python_env.sh --export-bench --no-build)}
src=${KIFU_SHARED:-../shared}/corpus/pgn/small/shakmaty-benches/lichess_db_1000k.pgn
pe=$(command -v pgn-extract || ls /usr/games/pgn-extract 2>/dev/null || true)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for _ in $(seq "$times"); do cat "$src"; done > "$tmp/big.pgn"
for _ in 1 2 3 4; do cat "$src"; done > "$tmp/small.pgn"
fen='r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3'
sub='8/8/2n5/1B6/8/8/8/8'
printf 'FENPattern "????????/????????/??n?????/?B??????/????????/????????/????????/????????"\n' > "$tmp/pattern.txt"
positions() { "$kifu" stats --json -q "$1" | "$py" -c 'import json,sys; s=json.load(sys.stdin); print(s["mainline_moves"] + s["games"])'; }
n_big=$(positions "$tmp/big.pgn")
n_small=$(positions "$tmp/small.pgn")
echo "input: lichess_db_1000k.pgn x$times, $(du -m "$tmp/big.pgn" | cut -f1) MB, $n_big main-line positions"

declare -A times_of
run() { # name, threads, command...
    local name=$1 j=$2; shift 2
    local t0 t1 out
    t0=$(date +%s.%N)
    out=$("$@" 2>/dev/null | tail -1)
    t1=$(date +%s.%N)
    times_of[$name]+="$(echo "$t1 - $t0" | bc) "
    printf '  %-34s %8.2f s  (answer %s)\n' "$name" "$(echo "$t1 - $t0" | bc)" "$out"
}
count_pe() { "$pe" -s --quiet "$@" "$tmp/big.pgn" 2>/dev/null | grep -c '^\[Event ' || true; }
for r in $(seq "$rounds"); do
    echo "round $r"
    for j in 1 2; do
        run "find --fen -j$j" $j "$kifu" find -c -q -j$j --fen "$fen" "$tmp/big.pgn"
        if "$kifu" filter --help | grep -q -- --reaches; then
            run "filter --reaches -j$j" $j "$kifu" filter -c -q -j$j --reaches "$fen" "$tmp/big.pgn"
        fi
        run "find --subfen -j$j" $j "$kifu" find -c -q -j$j --subfen "$sub" "$tmp/big.pgn"
        if [ -n "${KIFU_BEFORE:-}" ]; then
            run "filter --reaches (before) -j$j" $j "$KIFU_BEFORE" filter -c -q -j$j --reaches "$fen" "$tmp/big.pgn"
        fi
    done
    if [ -n "$pe" ]; then
        run "pgn-extract -Tf (fen)" 1 count_pe -Tf"$fen"
        run "pgn-extract FENPattern (subfen)" 1 count_pe -t"$tmp/pattern.txt"
    fi
done

cat > "$tmp/loop.py" <<'EOF'
import sys, time, chess, chess.pgn
path, kind, arg = sys.argv[1:4]
if kind == "fen":
    target = chess.Board(arg).epd()
    test = lambda b: b.epd() == target
else:
    ref = chess.BaseBoard(arg)
    masks = [(ref.pieces_mask(pt, c), pt, c) for c in (True, False) for pt in chess.PIECE_TYPES if ref.pieces_mask(pt, c)]
    test = lambda b: all(b.pieces_mask(pt, c) & m == m for m, pt, c in masks)
t0, found = time.perf_counter(), 0
with open(path) as f:
    while (game := chess.pgn.read_game(f)) is not None:
        board = game.board()
        hit = test(board)
        for mv in game.mainline_moves():
            if hit:
                break
            board.push(mv)
            hit = test(board)
        found += hit
print(found, time.perf_counter() - t0)
EOF
echo "python-chess loop on x4 ($n_small positions):"
for kind in fen subfen; do
    arg=$fen; [ $kind = subfen ] && arg=$sub
    read -r found secs < <("$py" "$tmp/loop.py" "$tmp/small.pgn" $kind "$arg")
    scaled=$(echo "$secs * $n_big / $n_small" | bc -l)
    times_of["python-chess loop ($kind), scaled"]="$scaled"
    printf '  %-34s %8.2f s on x4 (answer %s), %.1f s scaled to x%s\n' "python-chess ($kind)" "$secs" "$found" "$scaled" "$times"
done

echo
echo "medians (positions a second per core = $n_big positions / time / threads):"
for name in "${!times_of[@]}"; do
    med=$(echo "${times_of[$name]}" | tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')
    j=1; [[ $name == *-j2* ]] && j=2
    printf '  %-34s %8.2f s  %12.0f positions/s/core\n' "$name" "$med" "$(echo "$n_big / $med / $j" | bc -l)"
done | sort
