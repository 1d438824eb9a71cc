//! Chess replay throughput: kifu's parse + the replay adapter, beside kifu's plain streaming
//! parse and beside pgn-reader 0.29 + shakmaty 0.30 validating the same games (dependencies of
//! kifu-compare only, never published: shakmaty is GPL-3.0).
//!
//! Run: `cargo bench -p kifu-compare --bench chess_replay [-- ROUNDS [COLLECTION...]]`
//! (`CONTENDERS=replay,shakmaty` runs only those, for a profiler).
//!
//! Each round runs every contender once on each collection, in turn (A B C A B C …); the
//! figures are medians over the rounds: MB/s per contender, and per round the ratio of the
//! replay's speed to each other contender's (the median of those ratios is what to quote, as
//! the machine's load moves between rounds).
//!
//! Contenders, on the same in-memory bytes:
//! - `parse`: kifu's slice parser with a visitor that counts moves (the floor);
//! - `replay`: kifu + `Replayer`, main line and variations, every move resolved and played, its
//!   Polyglot key read, check and mate told;
//! - `replay_main`: the same, variations skipped (`Options::main_line()`);
//! - `shakmaty`: pgn-reader + shakmaty, main line and variations: each SAN resolved with
//!   `San::to_move` and played with `play_unchecked`, a stack of (before, after) positions for
//!   the variations, as the replay keeps; FEN tags read (Chess960 castling mode);
//! - `shakmaty_main`: the same, variations skipped (pgn-reader's default), no position kept
//!   before each move (as `replay_main`, `Options::main_line()`).

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

use kifu::Control;
use kifu::pgn::{self as k, Context};
use kifu_replay::chess::{GameReplayed, Options, ReplayVisitor, Replayed, Replayer};
use shakmaty::{CastlingMode, Chess, Position as _, fen::Fen};

// ---- inputs ----

fn concat(dir: &Path) -> Vec<u8> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("pgn")) {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut out = Vec::new();
    for f in files {
        out.extend(std::fs::read(f).unwrap());
        out.push(b'\n');
    }
    out
}

fn corpus() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/pgn");
    p.is_dir().then_some(p)
}

// ---- kifu ----

#[derive(Default)]
struct Count(u64);
impl k::Visitor for Count {
    fn on_move(&mut self, _: &Context, _: &k::Move<'_>) -> Control {
        self.0 += 1;
        Control::Continue
    }
}

#[derive(Default)]
struct Replay {
    moves: u64,
    keys: u64,
    checks: u64,
    errors: u64,
}
impl k::Visitor for Replay {}
impl ReplayVisitor for Replay {
    fn on_replayed(&mut self, _: &Context, _: &k::Move<'_>, r: &Replayed<'_>) -> Control {
        self.moves += 1;
        self.keys ^= r.key();
        self.checks += u64::from(r.check) + u64::from(r.mate);
        Control::Continue
    }
    fn on_game_replayed(&mut self, _: &Context, g: &GameReplayed<'_>) -> Control {
        self.errors += u64::from(g.errors);
        Control::Continue
    }
}

fn kifu_parse(data: &[u8]) -> u64 {
    let mut v = Count::default();
    k::parse(data, &mut v);
    v.0
}

fn kifu_replay(data: &[u8], opts: Options) -> u64 {
    let mut v = Replayer::with_options(Replay::default(), opts);
    k::parse(data, &mut v);
    let r = v.into_inner();
    r.moves ^ r.keys ^ r.checks ^ r.errors
}

// ---- pgn-reader + shakmaty ----

struct Line {
    prev: Chess,
    cur: Chess,
    ok: bool,
}

struct Validator {
    variations: bool,
    moves: u64,
    errors: u64,
}

impl pgn_reader::Visitor for Validator {
    type Tags = Option<Chess>;
    type Movetext = Vec<Line>;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), Option<Chess>> {
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Option<Chess>,
        name: &[u8],
        value: pgn_reader::RawTag<'_>,
    ) -> ControlFlow<()> {
        if name == b"FEN" {
            match Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Chess960).ok())
            {
                Some(pos) => *tags = Some(pos),
                None => self.errors += 1,
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<(), Vec<Line>> {
        let pos = tags.unwrap_or_default();
        ControlFlow::Continue(vec![Line {
            prev: pos.clone(),
            cur: pos,
            ok: true,
        }])
    }

    fn san(&mut self, lines: &mut Vec<Line>, san: pgn_reader::SanPlus) -> ControlFlow<()> {
        let line = lines.last_mut().expect("a line");
        if !line.ok {
            return ControlFlow::Continue(());
        }
        match san.san.to_move(&line.cur) {
            Ok(m) => {
                if self.variations {
                    line.prev.clone_from(&line.cur);
                }
                line.cur.play_unchecked(m);
                self.moves += 1;
            }
            Err(_) => {
                line.ok = false;
                self.errors += 1;
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, lines: &mut Vec<Line>) -> ControlFlow<(), pgn_reader::Skip> {
        if !self.variations {
            return ControlFlow::Continue(pgn_reader::Skip(true));
        }
        let parent = lines.last().expect("a line");
        let start = parent.prev.clone();
        lines.push(Line {
            prev: start.clone(),
            cur: start,
            ok: parent.ok,
        });
        ControlFlow::Continue(pgn_reader::Skip(false))
    }

    fn end_variation(&mut self, lines: &mut Vec<Line>) -> ControlFlow<()> {
        if lines.len() > 1 {
            lines.pop();
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: Vec<Line>) {}
}

fn shakmaty_replay(data: &[u8], variations: bool) -> u64 {
    let mut v = Validator {
        variations,
        moves: 0,
        errors: 0,
    };
    let mut r = pgn_reader::Reader::new(data);
    r.visit_all_games(&mut v).unwrap();
    v.moves ^ v.errors
}

// ---- the interleaved runs ----

type Run = fn(&[u8]) -> u64;

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if !std::env::args().any(|a| a == "--bench") {
        println!("run with `cargo bench -p kifu-compare --bench chess_replay`");
        return;
    }
    let Some(root) = corpus() else {
        eprintln!("../shared/corpus is absent: nothing to measure");
        return;
    };
    let rounds: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(7);
    let wanted: Vec<&str> = args.iter().skip(1).map(String::as_str).collect();
    let collections = [
        ("stockfish-books", root.join("large/stockfish-books")),
        (
            "notnil-chess-history",
            root.join("large/notnil-chess-history"),
        ),
        ("small", root.join("small")),
        ("tcec", root.join("large/tcec")),
    ];
    let contenders: [(&str, Run); 5] = [
        ("parse", kifu_parse),
        ("replay", |d| kifu_replay(d, Options::default())),
        ("replay_main", |d| kifu_replay(d, Options::main_line())),
        ("shakmaty", |d| shakmaty_replay(d, true)),
        ("shakmaty_main", |d| shakmaty_replay(d, false)),
    ];
    for (name, dir) in collections {
        if !wanted.is_empty() && !wanted.contains(&name) {
            continue;
        }
        let data = concat(&dir);
        let mb = data.len() as f64 / 1e6;
        let mut secs = vec![Vec::new(); contenders.len()];
        let only = std::env::var("CONTENDERS").unwrap_or_default();
        for _ in 0..rounds {
            for (i, (c, run)) in contenders.iter().enumerate() {
                if !only.is_empty() && !only.split(',').any(|o| o == *c) {
                    secs[i].push(f64::NAN);
                    continue;
                }
                let t = Instant::now();
                std::hint::black_box(run(std::hint::black_box(&data)));
                secs[i].push(t.elapsed().as_secs_f64());
            }
        }
        println!("{name}: {mb:.1} MB, {rounds} rounds");
        let speeds: Vec<f64> = secs.iter().map(|s| mb / median(&mut s.clone())).collect();
        for (i, (c, _)) in contenders.iter().enumerate() {
            println!("  {c:>14}: {:8.1} MB/s", speeds[i]);
        }
        let ratio = |a: usize, b: usize| {
            let mut r: Vec<f64> = (0..rounds).map(|k| secs[b][k] / secs[a][k]).collect();
            median(&mut r)
        };
        println!(
            "  replay / shakmaty {:.2}x, replay_main / shakmaty_main {:.2}x, replay / parse {:.2} (medians of per-round ratios)",
            ratio(1, 3),
            ratio(2, 4),
            ratio(1, 0),
        );
    }
}
