//! `kifu dedup`: drops (or lists) the games whose moves repeat an earlier game's, tags aside,
//! keeping one 128-bit hash per distinct game: memory grows with the number of distinct games,
//! 16 bytes each plus the set's overhead, never with their size.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::{self, Write};
use std::process::ExitCode;

use kifu::par::{Event, Visited};
use kifu::pgn::{Check, San};
use kifu::{pgn, sgf};

use crate::args::{Common, GameLimit, MaxCount, OutputArgs};
use crate::out::{self, Guard};
use crate::render::{Rendered, To};
use crate::run::{self, Budget, Outcome};
use kifu_pipeline::{DomScope, DomWork, Input, PerGame};

/// Drop the games whose moves repeat an earlier game's (tags may differ): PGN by the start
/// (FEN) and main line, SGF by board, setup and main line. The count goes to stderr.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub output: OutputArgs,
    /// List the duplicates (FILE:GAME: duplicate of FILE:GAME) instead of writing games.
    #[arg(long)]
    pub list: bool,
    /// What makes two games the same: their moves as written (parsed), or their main lines
    /// replayed on a board (the same moves reaching the same final position, whatever
    /// notation wrote them: SAN, UCI, long algebraic).
    #[arg(long, value_enum, default_value_t = DedupBy::Moves)]
    pub by: DedupBy,
    /// The form of the games written.
    #[arg(long, value_enum, default_value_t)]
    pub to: To,
    #[command(flatten)]
    pub max: MaxCount,
    #[command(flatten)]
    pub limit: GameLimit,
}

/// What `kifu dedup` compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DedupBy {
    /// The moves as parsed.
    Moves,
    /// The main line replayed: same moves, same final position.
    Positions,
}

/// `kifu dedup`.
pub fn run(args: Args) -> io::Result<ExitCode> {
    command(&args)
}

/// The key of a PGN game: its start (the `FEN` tag when there is one) and its main line, each
/// move as parsed (so `O-O` and `0-0`, `e8=Q` and `e8Q`, with or without `+` are one move).
pub fn pgn_key(game: &pgn::Game) -> u128 {
    key(|h| {
        game.fen().hash(h);
        for node in &game.moves {
            let s = node.san;
            let plain = San::new(
                s.kind(),
                s.piece(),
                s.from_file(),
                s.from_rank(),
                s.capture(),
                s.to(),
                s.promotion(),
                Check::None,
            );
            plain.hash(h);
            if s.to().is_none() {
                // no square: a move the SAN parser could not read; its text tells it apart
                node.text.as_str().hash(h);
            }
        }
    })
}

/// The key of an SGF game tree: its game type and board size, the setup of its root and its
/// main line's moves.
pub fn sgf_key(tree: &sgf::GameTree) -> u128 {
    key(|h| {
        if tree.is_empty() {
            return;
        }
        tree.game_type().hash(h);
        let size = tree.board_size();
        (size.cols, size.rows).hash(h);
        for name in [&b"AB"[..], b"AW", b"AE"] {
            if let Some(p) = tree.root().get(name) {
                name.hash(h);
                for v in p.values() {
                    v.as_bytes().hash(h);
                }
            }
        }
        for node in tree.main_line() {
            if let Some((color, point)) = node.go_move() {
                (color as u8, point.map(|p| (p.x, p.y))).hash(h);
            }
        }
    })
}

/// The key of a PGN game by positions (`--by positions`): kifu-replay's main-line key (the
/// start, every move as from/to/promotion, the final position), equal for games that reach the
/// same final position by the same moves whatever notation wrote them; the moves key when the
/// main line could not be replayed whole.
pub fn pgn_position_key(game: &pgn::Game) -> u128 {
    use kifu_replay::chess::{DomOptions, replay_game};
    let options = DomOptions {
        fen: false,
        variations: false,
    };
    replay_game(game, &options)
        .main_line_key
        .unwrap_or_else(|| pgn_key(game) ^ 1)
}

/// 128 bits from two SipHash passes with different starts.
fn key(feed: impl Fn(&mut DefaultHasher)) -> u128 {
    let mut a = DefaultHasher::new();
    let mut b = DefaultHasher::new();
    0u8.hash(&mut a);
    1u8.hash(&mut b);
    feed(&mut a);
    feed(&mut b);
    u128::from(a.finish()) << 64 | u128::from(b.finish())
}

/// A piece's games, written, and their keys.
pub struct Keyed {
    rendered: Rendered,
    keys: Vec<u128>,
    list: bool,
    positions: bool,
}

impl PerGame for Keyed {
    fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game> {
        self.keys.push(if self.positions {
            pgn_position_key(&game)
        } else {
            pgn_key(&game)
        });
        if self.list {
            self.rendered_index(game.index);
        } else {
            self.rendered.pgn(&game);
        }
        Some(game)
    }
    fn sgf(&mut self, tree: sgf::GameTree) {
        self.keys.push(sgf_key(&tree));
        if self.list {
            self.rendered_index(tree.index());
        } else {
            self.rendered.sgf(&tree);
        }
    }
}

impl Keyed {
    /// With `--list` nothing is written: only the game's index in the piece is kept.
    fn rendered_index(&mut self, index: u64) {
        if let Rendered::Std(f) = &mut self.rendered {
            f.starts.push((f.out.len(), index));
        }
    }

    fn index(&self, k: usize) -> u64 {
        self.rendered.index(k)
    }
}

/// What each piece's games become.
struct DedupWork {
    to: To,
    list: bool,
    positions: bool,
}

impl DedupWork {
    fn keyed(&self, input: &Input) -> Keyed {
        Keyed {
            rendered: Rendered::new(if self.list { To::Std } else { self.to }, &input.name),
            keys: Vec::new(),
            list: self.list,
            positions: self.positions,
        }
    }
}

/// `kifu dedup`: the first game of each set of duplicates written (or, with `--list`, one line
/// per duplicate: `FILE:GAME: duplicate of FILE:GAME`, games 1-based), and the count on
/// stderr. Exit status 0; 1 when a game could not be written (named on stderr), 2 when an input
/// could not be read.
pub fn command(args: &Args) -> io::Result<ExitCode> {
    let (common, to, list) = (&args.common, args.to, args.list);
    let positions = args.by == DedupBy::Positions;
    let max_game_bytes = args.limit.max_game_bytes;
    let guard = Guard::new(&common.files, args.output.force);
    let mut out = out::open(args.output.output.as_deref(), &guard)?;
    let max_count = args.max.max_count;
    // --max-count: the distinct games written (with --list, the duplicates listed)
    let mut budget = Budget::new(max_count);
    let made = DedupWork {
        to,
        list,
        positions,
    };
    // with --list only the main line is keyed: the parser skips the variations
    let scope = if list {
        DomScope::MAIN_LINE
    } else {
        DomScope::FULL
    };
    let work = DomWork::new(
        scope.with_max_game_bytes(max_game_bytes),
        |input: &Input| made.keyed(input),
    );
    // the games seen: about 13 bytes each (crate::seen)
    let mut seen = crate::seen::Seen::new();
    // with --list: where each distinct game was first met (input number, game index)
    let mut first: HashMap<u128, (u32, u64)> = HashMap::new();
    let mut names: Vec<String> = Vec::new();
    let (mut games, mut duplicates) = (0u64, 0u64);
    let mut unwritten = false;
    let scanned = run::scan_in_pieces(
        common,
        "deduplicating",
        run::piece_size_to(to),
        &work,
        |event| {
            let Event::Piece {
                input,
                visited,
                info,
            } = event
            else {
                return Ok(());
            };
            if list && names.last().map(String::as_str) != Some(&*input.name) {
                names.push(input.name.to_string());
            }
            let keyed = match &visited {
                Visited::Pgn(dom) => &dom.each,
                Visited::Sgf(dom) => &dom.each,
            };
            for (k, &key) in keyed.keys.iter().enumerate() {
                if budget.done() {
                    break;
                }
                games += 1;
                let index = info.first_game + keyed.index(k);
                if list {
                    let here = (names.len() as u32 - 1, index);
                    match first.get(&key) {
                        None => {
                            first.insert(key, here);
                        }
                        Some(&(file, game)) => {
                            duplicates += 1;
                            budget.take();
                            writeln!(
                                out,
                                "{}:{}: duplicate of {}:{}",
                                kifu_pipeline::shown(&input.name),
                                index + 1,
                                kifu_pipeline::shown(&names[file as usize]),
                                game + 1
                            )?;
                        }
                    }
                } else if seen.insert(key) {
                    if let Some(why) = keyed.rendered.why_unwritten(k) {
                        unwritten = true;
                        crate::render::name_unwritten(
                            "dedup",
                            &input.name,
                            index + 1,
                            why,
                            &mut out,
                        )?;
                    } else {
                        budget.take();
                        keyed.rendered.write_game(k, &mut out, info.first_game)?;
                    }
                } else {
                    duplicates += 1;
                }
            }
            Ok(())
        },
    )?;
    out::finish(out)?;
    if !common.quiet {
        eprintln!("kifu dedup: {games} games, {duplicates} duplicates");
    }
    Ok(Outcome::of(&scanned, unwritten).code())
}
