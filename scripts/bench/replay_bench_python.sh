#!/usr/bin/env bash
# The replay beside the Python references, interleaved (A B A B ...), CPU seconds of each process
# (the figure that holds on a loaded machine; wall seconds are printed too).
#
# Usage: scripts/bench/replay_bench_python.sh chess|go [ROUNDS] [FILE|DIR...]
# Defaults: chess on ../shared/corpus/pgn/large/notnil-chess-history, go on
# ../shared/corpus/sgf/large/kgs-6d-u-go-archives/KGS2001; 3 rounds. kifu's side is the best of 3
# runs in one process (files read first), the reference's one run.
# Needs the oracle venv (~/.cache/kifu-oracle, see ../shared/oracle/README.md) or PYTHON=...
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-chess}
rounds=${2:-3}
shift $(( $# > 2 ? 2 : $# ))
py=${PYTHON:-$HOME/.cache/kifu-oracle/bin/python}
if [ $# -eq 0 ]; then
  if [ "$mode" = chess ]; then set -- ../shared/corpus/pgn/large/notnil-chess-history; else set -- ../shared/corpus/sgf/large/kgs-6d-u-go-archives/KGS2001; fi
fi
ext=pgn; [ "$mode" = go ] && ext=sgf
mapfile -t files < <(find "$@" -type f -iname "*.$ext" | sort)
cargo build --release -q -p kifu-replay --example replay_time
bin=target/release/examples/replay_time
ratios=()
for r in $(seq "$rounds"); do
  # the main line (and variations, for chess: python-chess replays them too; sgfmill's
  # get_setup_and_moves gives the main line only)
  kmode=$mode; [ "$mode" = go ] && kmode=go-main
  k=$("$bin" "$kmode" 3 "${files[@]}")
  p=$("$py" scripts/bench/replay_time_python.py "$mode" "${files[@]}")
  echo "round $r: kifu $k"
  echo "round $r: ref  $p"
  ratio=$(python3 -c "import json,sys; k=json.loads(sys.argv[1]); p=json.loads(sys.argv[2]); print('%.1f %.1f' % (p['cpu_seconds']/k['cpu_seconds'], p['seconds']/k['seconds']))" "$k" "$p")
  echo "round $r: ratio (CPU, wall): $ratio"
  ratios+=("${ratio%% *}")
done
python3 -c "import statistics,sys; v=[float(x) for x in sys.argv[1:]]; print('median CPU ratio over %d rounds: %.1fx' % (len(v), statistics.median(v)))" "${ratios[@]}"
