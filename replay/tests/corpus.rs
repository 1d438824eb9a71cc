//! The replay on real files: every game of the shared corpus's small collections replayed by the
//! adapters and by the DOM helpers, which must agree move for move; no panic anywhere. (The
//! comparison with python-chess and sgfmill on the whole corpus is `scripts/conformance/replay_compare_*.py`.)
//! Ignored when `../shared` is absent.

use std::path::{Path, PathBuf};

use kifu::Control;
use kifu::pgn::{self, Context};
use kifu::sgf;
use kifu_replay::chess::{self, DomOptions, GameReplayed, ReplayVisitor, Replayed, Replayer};
use kifu_replay::go::{self, GoGame, GoOptions, GoReplayVisitor, GoReplayer};

/// The shared folder (`../shared` beside the project root, or where `KIFU_SHARED` points) as
/// the crate's `build.rs` found it; the build script then sets `cfg(kifu_shared)`, and every test
/// that calls this carries `#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]`.
/// Run anyway without it (`--ignored`), it panics saying so.
fn shared() -> PathBuf {
    match option_env!("KIFU_SHARED_DIR") {
        Some(dir) if cfg!(kifu_shared) => PathBuf::from(dir),
        _ => panic!(
            "this test needs the shared corpus: ../shared beside the project root (or \
             KIFU_SHARED naming it), present when the tests were built (touch build.rs after \
             adding it)"
        ),
    }
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case(ext)) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Per game: the keys after each replayed move (all lines, in event order), the end's key, the
/// errors, the main line's key.
type GameKeys = (Vec<u64>, Option<u64>, u32, Option<u128>);

#[derive(Default)]
struct ChessLog {
    depth: u32,
    games: Vec<GameKeys>,
    keys: Vec<u64>,
}

impl pgn::Visitor for ChessLog {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        self.depth = ctx.depth;
        Control::Continue
    }
}

impl ReplayVisitor for ChessLog {
    fn on_replayed(&mut self, _: &Context, _: &pgn::Move<'_>, r: &Replayed<'_>) -> Control {
        self.keys.push(r.key());
        Control::Continue
    }
    fn on_game_replayed(&mut self, _: &Context, g: &GameReplayed<'_>) -> Control {
        let keys = std::mem::take(&mut self.keys);
        self.games
            .push((keys, g.end.map(|p| p.key()), g.errors, g.main_line_key));
        Control::Continue
    }
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn chess_adapter_and_dom_agree_on_the_small_corpus() {
    let shared = shared();
    let mut games = 0;
    let mut moves = 0;
    for f in files(&shared.join("corpus/pgn/small"), "pgn") {
        let data = std::fs::read(&f).unwrap();
        if data.len() > 400_000 {
            continue; // the debug build's time: the large files are the comparison script's
        }
        let mut v = Replayer::new(ChessLog::default());
        pgn::parse(&data, &mut v);
        let log = v.into_inner();
        let opts = DomOptions {
            fen: false,
            ..DomOptions::default()
        };
        let mut n = 0;
        for game in pgn::Games::new(&data) {
            let r = chess::replay_game(&game, &opts);
            let (keys, end, errors, key) = &log.games[n];
            let dom: Vec<u64> = r.nodes.iter().filter_map(|n| n.key).collect();
            assert_eq!(&dom, keys, "{} game {n}", f.display());
            assert_eq!(
                r.end.as_ref().map(|p| p.key()),
                *end,
                "{} game {n}",
                f.display()
            );
            assert_eq!(r.errors.len() as u32, *errors, "{} game {n}", f.display());
            assert_eq!(r.main_line_key, *key);
            moves += dom.len();
            n += 1;
        }
        assert_eq!(n, log.games.len(), "{}", f.display());
        games += n;
    }
    assert!(
        games > 10_000 && moves > 200_000,
        "{games} games, {moves} moves"
    );
}

#[derive(Default)]
struct GoLog(Vec<Option<(String, [u32; 2], u32)>>);
impl sgf::Visitor for GoLog {}
impl GoReplayVisitor for GoLog {
    fn on_go_game(&mut self, _: &sgf::Context, g: &GoGame<'_>) -> Control {
        self.0.push(g.end.map(|b| {
            (
                b.to_string(),
                [b.captures(sgf::Color::Black), b.captures(sgf::Color::White)],
                g.main_line_moves,
            )
        }));
        Control::Continue
    }
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn go_adapter_and_dom_agree_on_the_small_corpus() {
    let shared = shared();
    let mut trees = 0;
    for f in files(&shared.join("corpus/sgf/small"), "sgf") {
        let data = std::fs::read(&f).unwrap();
        // with variations and without: the main line ends at the same place
        let mut v = GoReplayer::new(GoLog::default());
        sgf::parse(&data, &mut v);
        let all = v.into_inner().0;
        let mut v = GoReplayer::with_options(GoLog::default(), GoOptions::main_line());
        sgf::parse(&data, &mut v);
        let main = v.into_inner().0;
        assert_eq!(all, main, "{}", f.display());
        for (i, tree) in sgf::game_trees(&data).enumerate() {
            let r = go::replay_tree(&tree);
            let Some(Some((board, caps, n))) = all.get(i) else {
                continue;
            };
            assert_eq!(&r.end.to_string(), board, "{} tree {i}", f.display());
            assert_eq!(
                [
                    r.end.captures(sgf::Color::Black),
                    r.end.captures(sgf::Color::White)
                ],
                *caps
            );
            assert_eq!(r.moves.len() as u32, *n, "{} tree {i}", f.display());
            let rows = go::TrainingRows::new(&tree).count();
            assert_eq!(rows as u32, *n);
            trees += 1;
        }
    }
    assert!(trees > 2_000, "{trees} trees");
}
