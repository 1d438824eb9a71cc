//! Opening names: the build of the table, and the cost of naming games beside kifu's parse alone,
//! on PGN files of `../shared/corpus` (each read into memory first).
//!
//! Run: `cargo bench -p kifu-replay --bench openings [-- ROUNDS [FILE...]]` (default: 61 rounds,
//! the corpus's `lichess_db_1000k.pgn` and `twic1599_1000k.pgn`). Each contender runs once per
//! round, interleaved; the fastest round is given: on a machine that other work shares, the
//! least disturbed one (a run takes a few milliseconds, less than the scheduler's time slice).
//!
//! - `events`: `pgn::parse` with a visitor that counts moves; `events+openings`: the same visitor
//!   with an [`openings::Classifier`] fed the tags and the main-line SAN (it replays 40 plies at
//!   most, then is not called).
//! - `dom`: the games built (`Games`); `dom+classify`: each then named by `openings::classify`.
//! - `replayer+openings`: the `Replayer` adapter (main lines, `Options::main_line()`) replaying
//!   every move, its positions handed to a `Classifier`: what naming costs when the whole game is
//!   replayed anyway.

use std::path::{Path, PathBuf};
use std::time::Instant;

use kifu::Control;
use kifu::pgn::{self, Context, Games, Tag};
use kifu_replay::chess::openings::{self, Classifier, Openings};
use kifu_replay::chess::{Options, ReplayVisitor, Replayed, Replayer};

fn corpus() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/pgn");
    p.is_dir().then_some(p)
}

/// Counts main-line moves; with `names`, names each game too.
#[derive(Default)]
struct Events {
    names: Option<Classifier>,
    moves: u64,
    named: u64,
}

impl pgn::Visitor for Events {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        if ctx.depth == 0
            && let Some(c) = &mut self.names
        {
            c.start();
        }
        Control::Continue
    }
    fn on_property(&mut self, ctx: &Context, tag: &Tag<'_>) -> Control {
        if ctx.depth == 0
            && let Some(c) = &mut self.names
        {
            c.tag(tag.name, &tag.value.decode());
        }
        Control::Continue
    }
    fn on_move(&mut self, ctx: &Context, mv: &pgn::Move<'_>) -> Control {
        if ctx.is_main_line() {
            self.moves += 1;
            if let Some(c) = &mut self.names {
                c.play(mv.san);
            }
        }
        Control::Continue
    }
    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        if ctx.depth == 0
            && let Some(c) = &self.names
        {
            self.named += u64::from(c.opening().is_some());
        }
        Control::Continue
    }
}

fn events(data: &[u8], names: bool) -> u64 {
    let mut v = Events {
        names: names.then(Classifier::new),
        ..Events::default()
    };
    pgn::parse(data, &mut v);
    v.moves + v.named
}

fn dom(data: &[u8], names: bool) -> u64 {
    let mut n = 0;
    for game in Games::new(data) {
        n += game.moves.len() as u64;
        if names {
            n += u64::from(openings::classify(&game).is_some());
        }
    }
    n
}

struct ByReplayer(Classifier, u64);
impl pgn::Visitor for ByReplayer {}
impl ReplayVisitor for ByReplayer {
    fn on_replay_start(
        &mut self,
        _: &Context,
        start: Option<&kifu_replay::chess::Position>,
    ) -> Control {
        self.0.start_from(start);
        Control::Continue
    }
    fn on_replayed(&mut self, ctx: &Context, _: &pgn::Move<'_>, r: &Replayed<'_>) -> Control {
        if ctx.is_main_line() && self.0.wants_more() {
            self.0.push_replayed(r);
        }
        Control::Continue
    }
    fn on_game_replayed(
        &mut self,
        _: &Context,
        _: &kifu_replay::chess::GameReplayed<'_>,
    ) -> Control {
        self.1 += u64::from(self.0.opening().is_some());
        Control::Continue
    }
}

fn replayer(data: &[u8]) -> u64 {
    let mut v = Replayer::with_options(ByReplayer(Classifier::new(), 0), Options::main_line());
    pgn::parse(data, &mut v);
    v.into_inner().1
}

fn fastest(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::INFINITY, f64::min)
}

type Run = fn(&[u8]) -> u64;

fn main() {
    // the first use, before anything else: decompression and build, cold
    let t = Instant::now();
    let n = openings::table().len();
    let first = t.elapsed().as_secs_f64();
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if !std::env::args().any(|a| a == "--bench") {
        println!("run with `cargo bench -p kifu-replay --bench openings`");
        return;
    }
    let rounds: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(61);
    let mut builds = Vec::new();
    for _ in 0..rounds {
        let t = Instant::now();
        std::hint::black_box(Openings::build());
        builds.push(t.elapsed().as_secs_f64());
    }
    println!(
        "table: {n} named positions; first use {:.2} ms, a build {:.2} ms (the fastest of {rounds})",
        first * 1e3,
        fastest(&builds) * 1e3
    );
    let mut files: Vec<PathBuf> = args.iter().skip(1).map(PathBuf::from).collect();
    if files.is_empty() {
        let Some(root) = corpus() else {
            eprintln!("../shared/corpus is absent: no game to name");
            return;
        };
        files.push(root.join("small/shakmaty-benches/lichess_db_1000k.pgn"));
        files.push(root.join("small/shakmaty-benches/twic1599_1000k.pgn"));
    }
    let contenders: [(&str, Run); 5] = [
        ("events", |d| events(d, false)),
        ("events+openings", |d| events(d, true)),
        ("dom", |d| dom(d, false)),
        ("dom+classify", |d| dom(d, true)),
        ("replayer+openings", replayer),
    ];
    for f in &files {
        let data = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let games = Games::new(&data).count() as f64;
        // the plies the classifier replays, against the main-line plies up to ply 40
        let (mut fed, mut first40) = (0, 0);
        for g in Games::new(&data) {
            let mut c = Classifier::new();
            for (k, v) in &g.tags {
                c.tag(k.as_bytes(), v.as_bytes());
            }
            for node in &g.moves {
                if !c.wants_more() {
                    break;
                }
                fed += 1;
                c.play(node.san);
            }
            first40 += g.moves.len().min(openings::MAX_PLY as usize);
        }
        let mut secs = vec![Vec::new(); contenders.len()];
        for _ in 0..rounds {
            for (i, (_, run)) in contenders.iter().enumerate() {
                let t = Instant::now();
                std::hint::black_box(run(std::hint::black_box(&data)));
                secs[i].push(t.elapsed().as_secs_f64());
            }
        }
        let s: Vec<f64> = secs.iter().map(|v| fastest(v)).collect();
        println!(
            "{}: {games} games, {:.2} MB, {rounds} rounds",
            f.file_name().unwrap_or_default().to_string_lossy(),
            data.len() as f64 / 1e6
        );
        println!(
            "  plies replayed to name a game: {:.1} (its main line's first 40: {:.1})",
            fed as f64 / games,
            first40 as f64 / games
        );
        for (i, (c, _)) in contenders.iter().enumerate() {
            println!(
                "  {c:>18}: {:8.3} ms, {:9.0} games/s, {:6.2} µs/game",
                s[i] * 1e3,
                games / s[i],
                s[i] * 1e6 / games
            );
        }
        println!(
            "  naming, per game: {:.2} µs beside the events ({:.2}× their speed), {:.2} µs beside the DOM ({:.2}×)",
            (s[1] - s[0]) * 1e6 / games,
            s[0] / s[1],
            (s[3] - s[2]) * 1e6 / games,
            s[2] / s[3]
        );
    }
}
