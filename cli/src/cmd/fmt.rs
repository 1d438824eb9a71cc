//! `kifu fmt`: games rewritten in the standard form, through the DOM (one game in memory at a
//! time): PGN in the export format of the standard (§8.1), SGF as FF\[4\].

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use kifu::par::{Event, Visited, Work};
use kifu::{pgn, sgf};

use crate::args::{Common, GameLimit, OutputArgs};
use crate::cmd::json::InputTally;
use crate::out::{self, Guard};
use crate::run::{self, Outcome};
use kifu_pipeline::Input;
use kifu_pipeline::Problem;
use kifu_pipeline::{Dom, PerGame};

/// Rewrite the games in the standard form: PGN in the export format (Seven Tag Roster first,
/// lines of at most 79 characters), SGF as FF[4]. Problems met while reading go to stderr
/// as `kifu check` prints them; the games are written as read (repaired where the reader
/// repairs). Exit 1 if an input held no game but problems.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Leave out any of: comments, variations, nags (comma-separated). For SGF, comments
    /// are C and GC, nags the annotation properties (BM DO IT TE DM GB GW UC HO).
    #[arg(long, value_delimiter = ',', value_enum)]
    pub strip: Vec<StripWhat>,
    /// PGN: each game's movetext on one line; SGF: each game tree on one line.
    #[arg(long)]
    pub compact: bool,
    /// SGF: one node per line.
    #[arg(long, conflicts_with = "compact")]
    pub node_per_line: bool,
    #[command(flatten)]
    pub limit: GameLimit,
}

/// What `kifu fmt --strip` can leave out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StripWhat {
    /// Comments (SGF: C and GC).
    Comments,
    /// Variations.
    Variations,
    /// NAGs (SGF: the annotation properties).
    Nags,
}

/// `kifu fmt`.
pub fn run(args: Args) -> io::Result<ExitCode> {
    let opts = Options {
        strip: Strip {
            comments: args.strip.contains(&StripWhat::Comments),
            variations: args.strip.contains(&StripWhat::Variations),
            nags: args.strip.contains(&StripWhat::Nags),
        },
        compact: args.compact,
        node_per_line: args.node_per_line,
        max_game_bytes: args.limit.max_game_bytes,
    };
    command(
        &args.common,
        args.output.output.as_deref(),
        args.output.force,
        &opts,
    )
}

/// What `--strip` leaves out.
#[derive(Clone, Copy, Debug, Default)]
pub struct Strip {
    pub comments: bool,
    pub variations: bool,
    pub nags: bool,
}

/// How to write.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub strip: Strip,
    /// PGN: the movetext of a game on one line; SGF: a game tree on one line.
    pub compact: bool,
    /// SGF: one node per line.
    pub node_per_line: bool,
    /// The builders' limit on one game (`--max-game-bytes`).
    pub max_game_bytes: usize,
}

impl Options {
    /// The standard form: nothing stripped, the default layouts.
    pub fn standard() -> Options {
        Options {
            strip: Strip::default(),
            compact: false,
            node_per_line: false,
            max_game_bytes: pgn::GameBuilder::DEFAULT_MAX_GAME_BYTES,
        }
    }
}

pub fn pgn_writer(o: &Options) -> pgn::Writer {
    pgn::Writer::new()
        .compact(o.compact)
        .comments(!o.strip.comments)
        .variations(!o.strip.variations)
        .nags(!o.strip.nags)
}

pub fn pgn_keep(o: &Options) -> pgn::Scope {
    if o.strip.variations {
        pgn::Scope::MainLine
    } else {
        pgn::Scope::Full
    }
}

pub fn sgf_writer(o: &Options) -> sgf::Writer {
    let layout = if o.compact {
        sgf::Layout::Compact
    } else if o.node_per_line {
        sgf::Layout::NodePerLine
    } else {
        sgf::Layout::Pretty
    };
    sgf::Writer::new().layout(layout)
}

pub fn sgf_scope(o: &Options) -> sgf::Scope {
    if o.strip.variations {
        sgf::Scope::MainLine
    } else {
        sgf::Scope::Full
    }
}

/// Comments (`C`, `GC`) and the SGF counterparts of NAGs: move annotations (`BM`, `DO`, `IT`,
/// `TE`), position annotations (`DM`, `GB`, `GW`, `UC`) and hotspots (`HO`).
fn stripped(name: &[u8], strip: &Strip) -> bool {
    (strip.comments && matches!(name, b"C" | b"GC"))
        || (strip.nags
            && matches!(
                name,
                b"BM" | b"DO" | b"IT" | b"TE" | b"DM" | b"GB" | b"GW" | b"UC" | b"HO"
            ))
}

/// `tree` without the properties `strip` names (a copy, built without recursion).
pub fn strip_tree(tree: &sgf::GameTree, strip: &Strip) -> sgf::GameTree {
    let mut out = sgf::GameTree::new();
    out.set_origin(tree.index(), tree.position());
    for e in tree.errors() {
        out.push_error(e.clone());
    }
    if tree.is_empty() {
        return out;
    }
    // (node in `tree`, its copy's parent in `out`); the root maps to the root
    let mut stack = vec![(tree.root(), None::<sgf::NodeId>)];
    while let Some((node, parent)) = stack.pop() {
        let id = match parent {
            None => sgf::NodeId::ROOT,
            Some(p) => out.add_node(p),
        };
        for prop in node.properties() {
            if !stripped(prop.name(), strip) {
                out.add_raw_property(id, prop.name(), prop.values().map(|v| v.as_bytes()));
            }
        }
        let children: Vec<_> = node.children().collect();
        for child in children.into_iter().rev() {
            stack.push((child, Some(id)));
        }
    }
    out
}

/// A piece's games in the standard form, and the problems met reading them.
pub struct Formatted {
    /// The games, written.
    pub out: Vec<u8>,
    /// Where each game starts in `out`, and its index in the piece.
    pub starts: Vec<(usize, u64)>,
    /// Their problems, in order.
    pub problems: Vec<Problem>,
    pgn: pgn::Writer,
    sgf: sgf::Writer,
    strip: Strip,
    file: std::sync::Arc<str>,
}

impl Drop for Formatted {
    /// The buffer goes back for a later piece (`crate::bufs`).
    fn drop(&mut self) {
        crate::bufs::give(std::mem::take(&mut self.out));
    }
}

impl Formatted {
    /// Games of input `file` written as `o` says.
    pub fn new(o: &Options, file: &str) -> Formatted {
        Formatted {
            out: crate::bufs::take(),
            starts: Vec::new(),
            problems: Vec::new(),
            pgn: pgn_writer(o),
            sgf: sgf_writer(o),
            strip: o.strip,
            file: std::sync::Arc::from(file),
        }
    }

    /// Writes a PGN game (its problems kept).
    pub fn write_pgn(&mut self, game: &pgn::Game) {
        let index = game.index;
        self.starts.push((self.out.len(), index));
        self.problems.extend(
            game.errors
                .iter()
                .map(|e| Problem::pgn_owned(&self.file, e, index)),
        );
        self.pgn
            .write(game, &mut self.out)
            .expect("writing to a Vec cannot fail");
    }

    /// Writes an SGF game tree (its problems kept), without what `--strip` leaves out.
    pub fn write_sgf(&mut self, tree: &sgf::GameTree) {
        self.starts.push((self.out.len(), tree.index()));
        self.problems.extend(
            tree.errors()
                .iter()
                .map(|e| Problem::sgf_owned(&self.file, e, e.game)),
        );
        let result = if self.strip.comments || self.strip.nags {
            self.sgf
                .write(&strip_tree(tree, &self.strip), &mut self.out)
        } else {
            self.sgf.write(tree, &mut self.out)
        };
        result.expect("writing to a Vec cannot fail");
    }
}

impl PerGame for Formatted {
    fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game> {
        self.write_pgn(&game);
        Some(game)
    }
    fn sgf(&mut self, tree: sgf::GameTree) {
        self.write_sgf(&tree);
    }
}

struct FmtWork(Options);

impl Work for FmtWork {
    type Input = Input;
    type Pgn = Dom<pgn::GameBuilder, Formatted>;
    type Sgf = Dom<sgf::TreeBuilder, Formatted>;
    fn pgn(&self, input: &Input) -> Self::Pgn {
        let b = pgn::GameBuilder::with_scope(pgn_keep(&self.0))
            .with_max_game_bytes(self.0.max_game_bytes);
        Dom::new(&input.name, b, Formatted::new(&self.0, &input.name))
    }
    fn sgf(&self, input: &Input) -> Self::Sgf {
        let b = sgf::TreeBuilder::with_scope(sgf_scope(&self.0))
            .with_max_game_bytes(self.0.max_game_bytes);
        Dom::new(&input.name, b, Formatted::new(&self.0, &input.name))
    }
}

/// `kifu fmt`: the games rewritten, to stdout or `-o FILE`; the problems met to stderr as
/// `kifu check` prints them. Exit status 1 when an input held no game but problems.
pub fn command(
    common: &Common,
    output: Option<&Path>,
    force: bool,
    opts: &Options,
) -> io::Result<ExitCode> {
    let guard = Guard::new(&common.files, force);
    let mut out = out::open(output, &guard)?;
    let stderr = io::stderr();
    let mut err = stderr.lock();
    let mut problems = 0u64;
    let mut empty = false;
    let mut tally = InputTally::default();
    let scanned = run::scan(common, "formatting", &FmtWork(*opts), |event| {
        match event {
            Event::Piece { visited, info, .. } => {
                let (done, unclaimed) = match &visited {
                    Visited::Pgn(dom) => {
                        tally.add(dom);
                        (&dom.each, &dom.unclaimed)
                    }
                    Visited::Sgf(dom) => {
                        tally.add(dom);
                        (&dom.each, &dom.unclaimed)
                    }
                };
                for p in done.problems.iter().chain(unclaimed) {
                    problems += 1;
                    let mut p = p.clone();
                    p.rebase(info.first_game);
                    writeln!(err, "{p}")?;
                }
                out.write_all(&done.out)?;
            }
            Event::End { .. } => {
                // an input without a game but with problems: nothing written for it (the scan
                // names it on stderr)
                if tally.end().is_some() {
                    empty = true;
                }
            }
        }
        Ok(())
    })?;
    out::finish(out)?;
    if problems > 0 {
        let _ = writeln!(
            err,
            "kifu fmt: {problems} problem(s) met while reading; the games were written as repaired"
        );
    }
    Ok(Outcome::of(&scanned, empty).code())
}
