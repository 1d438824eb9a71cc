#!/usr/bin/env bash
# kifu find --fen (an exact position) and --subfen (a piece pattern) on lichess-format games:
# the games counted (-c) and written (PGN to a file), at -j1 and -j2, beside the same written
# with every game built first (--dom-search: the path before the event search, when the binary
# has it), kifu filter --reaches (when the binary has it), pgn-extract (-Tf FEN for the position,
# a FENPattern tag file for the pattern, the games written to a file; when installed), a
# python-chess loop (read_game, replay, test each position: the loop a Python user writes) and,
# when $SCOUTFISH names its binary, Scoutfish (its index built, then queried: one query against
# one `kifu find -c`, ten against ten). Interleaved rounds, medians; positions a second per core
# (the input's main-line positions, starts included, over the wall time and the threads).
#
# Usage: scripts/bench/find_bench.sh KIFU [ROUNDS] [TIMES] [PYTHON]
#   KIFU    the kifu binary (target/release/kifu)
#   ROUNDS  rounds of every tool (default 3)
#   TIMES   the corpus's lichess_db_1000k.pgn repeated this many times (default 128: 128 MB)
#   PYTHON  a python with python-chess (default: $(scripts/python_env.sh --export-bench --no-build));
#           the loop reads 4 copies (4 MB) and its rate is scaled to the whole
#   $KIFU_BEFORE  another kifu binary (a build before a change): its filter --reaches and its
#           find (-j1: counted, games written) run too, in the same rounds
#   $SCOUTFISH    the scoutfish binary (github.com/mcostalba/scoutfish, built from its source:
#           cd src && make build ARCH=x86-64-modern); without it Scoutfish is skipped, said so
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
# name, threads, command... (its standard output to a file, outside the time): the answer is
# the output's last line when it is a number (a count), else the games written
# the CPU time (user and system) of the children the shell waited for, in seconds, from the
# `times` written to $1 (the builtin, in this shell: a subshell would count its own children)
children_cpu() {
    tail -1 "$1" | tr 'ms' '  ' | awk '{print $1 * 60 + $2 + $3 * 60 + $4}'
}
declare -A cpu_of
run() {
    local name=$1 j=$2; shift 2
    local t0 t1 out c0 c1
    times > "$tmp/times0"
    t0=$(date +%s.%N)
    "$@" > "$tmp/out" 2>/dev/null || true
    t1=$(date +%s.%N)
    times > "$tmp/times1"
    c0=$(children_cpu "$tmp/times0") c1=$(children_cpu "$tmp/times1")
    out=$(tail -1 "$tmp/out")
    [[ $out =~ ^[0-9]+$ ]] || out="$(games_in "$tmp/out") games"
    times_of[$name]+="$(echo "$t1 - $t0" | bc) "
    cpu_of[$name]+="$(echo "$c1 - $c0" | bc) "
    printf '  %-40s %8.2f s  %8.2f s CPU  (answer %s)\n' "$name" "$(echo "$t1 - $t0" | bc)" "$(echo "$c1 - $c0" | bc)" "$out"
}
games_in() { grep -c '^\[Event ' "$1" || true; }
dom=; rc=0; "$kifu" find -c -q --dom-search --fen "$fen" /dev/null > /dev/null 2>&1 || rc=$?
[ $rc -le 1 ] && dom=1
reaches=; "$kifu" filter --help | grep -q -- --reaches && reaches=1
# Scoutfish's exact position: the whole board as a sub-fen, with the side to move (it does not
# compare castling rights; the counts are printed to show they agree here)
sf_query() { # kind (fen|subfen), argument
    if [ "$1" = fen ]; then
        printf '{ "sub-fen": "%s", "stm": "%s" }' "${2%% *}" "$(echo "$2" | cut -d' ' -f2 | sed 's/w/white/;s/b/black/')"
    else
        printf '{ "sub-fen": "%s" }' "$2"
    fi
}
sf_make() { "$SCOUTFISH" make "$tmp/big.pgn" | sed -n 's/.*"Games": \([0-9]*\).*/\1/p'; }
sf_scout() { "$SCOUTFISH" scout "$tmp/big.scout" "$(sf_query "$@")" | sed -n 's/.*"match count": \([0-9]*\).*/\1/p'; }
# ten queries: five exact positions (1. e4 e5 2. Nf3 Nc6, the Sicilian, the French, 1. d4 d5,
# the Caro-Kann, White to move), five patterns
ten=("fen $fen"
     "fen rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -"
     "fen rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -"
     "fen rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq -"
     "fen rnbqkbnr/pp1ppppp/2p5/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -"
     "subfen $sub" "subfen 5rk1/8/8/8/8/8/8/5RK1" "subfen 8/8/8/8/3N4/8/8/8"
     "subfen 8/8/4p3/3pP3/3P4/8/8/8" "subfen 8/8/5n2/7Q/8/8/8/8")
kifu_ten() {
    local q
    for q in "${ten[@]}"; do "$kifu" find -c -q -j1 --"${q%% *}" "${q#* }" "$tmp/big.pgn"; done | paste -sd+ | bc
}
sf_ten() {
    local q
    "$SCOUTFISH" make "$tmp/big.pgn" > /dev/null
    for q in "${ten[@]}"; do sf_scout "${q%% *}" "${q#* }"; done | paste -sd+ | bc
}
if [ -z "${SCOUTFISH:-}" ]; then
    echo "Scoutfish skipped: set SCOUTFISH to its binary (github.com/mcostalba/scoutfish, built from its source)"
fi
for r in $(seq "$rounds"); do
    echo "round $r"
    for j in 1 2; do
        for q in "fen $fen" "subfen $sub"; do
            kind=${q%% *} arg=${q#* }
            run "find -c --$kind -j$j" $j "$kifu" find -c -q -j$j --$kind "$arg" "$tmp/big.pgn"
            run "find --$kind (games) -j$j" $j "$kifu" find -q -j$j --$kind "$arg" "$tmp/big.pgn"
            if [ -n "$dom" ] && [ $j = 1 ]; then
                run "find --$kind (games) --dom-search -j$j" $j "$kifu" find -q -j$j --dom-search --$kind "$arg" "$tmp/big.pgn"
            fi
        done
        if [ -n "${KIFU_BEFORE:-}" ] && [ $j = 1 ]; then
            for q in "fen $fen" "subfen $sub"; do
                kind=${q%% *} arg=${q#* }
                run "find -c --$kind -j$j (before)" $j "$KIFU_BEFORE" find -c -q -j$j --$kind "$arg" "$tmp/big.pgn"
                run "find --$kind (games) -j$j (before)" $j "$KIFU_BEFORE" find -q -j$j --$kind "$arg" "$tmp/big.pgn"
            done
        fi
        if [ -n "$reaches" ]; then
            run "filter --reaches -j$j" $j "$kifu" filter -c -q -j$j --reaches "$fen" "$tmp/big.pgn"
        fi
        if [ -n "${KIFU_BEFORE:-}" ]; then
            run "filter --reaches (before) -j$j" $j "$KIFU_BEFORE" filter -c -q -j$j --reaches "$fen" "$tmp/big.pgn"
        fi
    done
    if [ -n "$pe" ]; then
        run "pgn-extract -Tf (fen, games)" 1 "$pe" -s --quiet -Tf"$fen" "$tmp/big.pgn"
        run "pgn-extract FENPattern (subfen, games)" 1 "$pe" -s --quiet -t"$tmp/pattern.txt" "$tmp/big.pgn"
    fi
    if [ -n "${SCOUTFISH:-}" ]; then
        rm -f "$tmp/big.scout"
        run "scoutfish make (index; answer: games)" 1 sf_make
        run "scoutfish scout --fen" 1 sf_scout fen "$fen"
        run "scoutfish scout --subfen" 1 sf_scout subfen "$sub"
        run "ten: kifu find -c x10 -j1" 1 kifu_ten
        run "ten: scoutfish make + scout x10" 1 sf_ten
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
    printf '  %-40s %8.2f s on x4 (answer %s), %.1f s scaled to x%s\n' "python-chess ($kind)" "$secs" "$found" "$scaled" "$times"
done

echo
echo "medians (positions a second per core = $n_big positions / time / threads; the CPU time's median):"
for name in "${!times_of[@]}"; do
    med=$(echo "${times_of[$name]}" | tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')
    j=1; [[ $name == *-j2* ]] && j=2
    cpu=$(echo "${cpu_of[$name]:-}" | tr ' ' '\n' | { grep . || true; } | sort -g | awk '{a[NR]=$1} END {if (NR) print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; else print "-"}')
    printf '  %-40s %8.2f s  %12.0f positions/s/core  %6s s CPU\n' "$name" "$med" "$(echo "$n_big / $med / $j" | bc -l)" "$cpu"
done | sort

# the ratios of two runs' times in the same round, their median over the rounds (less moved by
# the machine's load than a ratio of medians)
median_ratio() { # times of the slower, times of the faster
    paste <(echo "$1" | tr ' ' '\n' | grep .) <(echo "$2" | tr ' ' '\n' | grep .) |
        awk '$2 > 0 {print $1 / $2}' | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'
}
ratio() { # slower, faster
    [ -n "${times_of[$1]:-}" ] && [ -n "${times_of[$2]:-}" ] || return 0
    printf '  %-40s / %-40s %6.2fx  %6.2fx CPU\n' "$1" "$2" \
        "$(median_ratio "${times_of[$1]}" "${times_of[$2]}")" "$(median_ratio "${cpu_of[$1]}" "${cpu_of[$2]}")"
}
echo
echo "medians of the ratios of each round (wall time; CPU time, user and system, of every thread):"
for j in 1 2; do
    ratio "pgn-extract -Tf (fen, games)" "find -c --fen -j$j"
    ratio "pgn-extract -Tf (fen, games)" "find --fen (games) -j$j"
    ratio "pgn-extract FENPattern (subfen, games)" "find -c --subfen -j$j"
    ratio "pgn-extract FENPattern (subfen, games)" "find --subfen (games) -j$j"
done
ratio "pgn-extract -Tf (fen, games)" "find -c --fen -j1 (before)"
ratio "pgn-extract -Tf (fen, games)" "find --fen (games) -j1 (before)"
ratio "pgn-extract FENPattern (subfen, games)" "find -c --subfen -j1 (before)"
ratio "pgn-extract FENPattern (subfen, games)" "find --subfen (games) -j1 (before)"
for q in "-c --fen" "--fen (games)" "-c --subfen" "--subfen (games)"; do
    ratio "find $q -j1 (before)" "find $q -j1"
done
