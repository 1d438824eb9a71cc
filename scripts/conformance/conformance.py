#!/usr/bin/env python3
"""kifu json against python-chess, game by game, with the games aligned.

Usage: conformance.py KIFU_BIN FILE|DIR... [--show N]

../shared/oracle/compare.py pairs games by their index in the file, so one game that python-chess
splits in two (it ends a game at any blank line outside a comment) shifts every later game of the
file and counts them all as different. This script reports that index-by-index figure too, then
aligns the two lists of games (difflib, on tags + main line) and reports what is really different:
- games python-chess reads that kifu does not have (with the reason, when it is one of the known
  splits: an empty game made of a comment or a lone result),
- games both read whose tags or main line differ.
Games python-chess itself cannot read cleanly (errors, unknown variants) are left out, as in
compare.py. Run it with the oracle's Python (see ../shared/oracle/README.md).
"""
import contextlib, difflib, io, json, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', '..', 'shared', 'oracle'))
import logging  # noqa: E402
logging.disable(logging.CRITICAL)
import pgn_oracle  # noqa: E402

SUFFIX = re.compile(r'[+#!?]+$')
CUT = 'python-chess cut a game at a blank line after its tags or opening comment'
last_kind = {}


def norm_san(s):
    s = SUFFIX.sub('', s or '')
    return s.replace('0-0-0', 'O-O-O').replace('0-0', 'O-O')


def key_kifu(g):
    return (json.dumps([list(t) for t in g.get('tags', [])]), tuple(norm_san(m.get('san')) for m in g.get('moves', [])))


def key_oracle(g):
    tags = [[a, re.sub(r'\\(["\\])', r'\1', b)] for a, b in g.get('tags', [])]
    return (json.dumps(tags), tuple(norm_san(m) for m in g.get('moves_raw', [])))


def oracle(path):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        pgn_oracle.dump(path)
    return [json.loads(l) for l in buf.getvalue().splitlines() if l.strip()]


def main(argv):
    show = 20
    if '--show' in argv:
        i = argv.index('--show')
        show = int(argv[i + 1])
        del argv[i:i + 2]
    kifu, paths = argv[0], []
    for a in argv[1:]:
        if os.path.isdir(a):
            for root, _, names in os.walk(a):
                paths += [os.path.join(root, n) for n in names if n.lower().endswith('.pgn')]
        else:
            paths.append(a)
    total = by_index = aligned = 0
    kinds = {}
    shown = 0
    for p in sorted(paths):
        r = subprocess.run([kifu, 'json', p], capture_output=True)
        mine = [json.loads(l) for l in r.stdout.decode('utf-8', 'replace').splitlines() if l.strip()]
        ref = oracle(p)
        clean = [(i, g) for i, g in enumerate(ref) if not ('error' in g or g.get('errors'))]
        total += len(clean)
        # the index-by-index figure (compare.py's)
        for i, g in clean:
            if i < len(mine) and key_kifu(mine[i]) == key_oracle(g):
                by_index += 1
        # aligned
        a = [key_oracle(g) for g in ref]
        b = [key_kifu(g) for g in mine]
        sm = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
        matched = set()
        for blk in sm.get_matching_blocks():
            matched.update(range(blk.a, blk.a + blk.size))
        for i, g in clean:
            if i in matched:
                aligned += 1
                continue
            tags, moves = key_oracle(g)
            prev_cut = i > 0 and last_kind.get(p) == (i - 1, CUT)
            if tags == '[]' and not moves:
                kind = 'python-chess made an empty game of a comment or a lone result cut off by a blank line'
            elif tags != '[]' and not moves and g.get('termination') is None and i + 1 < len(ref) and json.loads(key_oracle(ref[i + 1])[0]) == []:
                kind = CUT
            elif tags == '[]' and prev_cut:
                kind = 'the moves of that game, which python-chess reads as a game without tags'
            elif len(mine) > len(ref) and not moves and g.get('termination') is None:
                kind = 'python-chess merged tag-only games separated by single blank lines into one'
            else:
                kind = 'tags or main line differ'
            last_kind[p] = (i, kind)
            kinds[kind] = kinds.get(kind, 0) + 1
            if shown < show:
                shown += 1
                print(f'{p} game {i}: {kind}: python-chess {tags[:120]} {list(moves)[:6]}')
    print(f'by index (as compare.py): {by_index}/{total} games agree ({100.0 * by_index / max(total, 1):.2f}%)')
    print(f'aligned: {aligned}/{total} games agree ({100.0 * aligned / max(total, 1):.2f}%)')
    for k, n in sorted(kinds.items(), key=lambda kv: -kv[1]):
        print(f'  {n:6}  {k}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
