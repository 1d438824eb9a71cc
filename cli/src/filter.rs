//! `kifu filter`: the games matching every test (tags or root properties, ply bounds, what a
//! game holds), or with `--invert` the others, written in the standard form or as JSON lines.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use kifu::par::{Event, Visited, Work};
use kifu::{pgn, sgf};

use crate::Common;
use crate::dom::{Dom, PerGame};
use crate::out::{self, Guard};
use crate::predicate::Predicate;
use crate::render::{Rendered, To};
use crate::run::{self, Outcome};
use crate::source::Input;

/// What `kifu filter` was asked.
#[derive(Clone, Debug)]
pub struct Options {
    /// The tests, all of which must hold.
    pub predicate: Predicate,
    /// Keep the games that fail instead.
    pub invert: bool,
    /// The form of the games written.
    pub to: To,
    /// Print only how many games are kept.
    pub count: bool,
    /// The DOM builders' limit on one game.
    pub max_game_bytes: usize,
}

/// A piece's kept games.
pub struct Kept {
    rendered: Rendered,
    predicate: Arc<Predicate>,
    invert: bool,
}

impl PerGame for Kept {
    fn pgn(&mut self, game: pgn::Game) {
        if self.predicate.pgn(&game) != self.invert {
            self.rendered.pgn(&game);
        }
    }
    fn sgf(&mut self, tree: sgf::GameTree) {
        if self.predicate.sgf(&tree) != self.invert {
            self.rendered.sgf(&tree);
        }
    }
}

struct FilterWork {
    predicate: Arc<Predicate>,
    invert: bool,
    to: To,
    max_game_bytes: usize,
}

impl FilterWork {
    fn kept(&self, input: &Input) -> Kept {
        Kept {
            rendered: Rendered::new(self.to, &input.name),
            predicate: Arc::clone(&self.predicate),
            invert: self.invert,
        }
    }
}

impl Work for FilterWork {
    type Input = Input;
    type Pgn = Dom<pgn::GameBuilder, Kept>;
    type Sgf = Dom<sgf::TreeBuilder, Kept>;
    fn pgn(&self, input: &Input) -> Self::Pgn {
        let b = pgn::GameBuilder::new().with_max_game_bytes(self.max_game_bytes);
        Dom::new(b, self.kept(input))
    }
    fn sgf(&self, input: &Input) -> Self::Sgf {
        let b = sgf::TreeBuilder::new().with_max_game_bytes(self.max_game_bytes);
        Dom::new(b, self.kept(input))
    }
}

/// `kifu filter`. Exit status 1 when no game was kept (as grep), 2 when an input could not be
/// read.
pub fn command(
    common: &Common,
    opts: Options,
    output: Option<&Path>,
    force: bool,
) -> io::Result<ExitCode> {
    let guard = Guard::new(&common.files, force);
    let mut out = out::open(output, &guard)?;
    let work = FilterWork {
        predicate: Arc::new(opts.predicate),
        invert: opts.invert,
        to: opts.to,
        max_game_bytes: opts.max_game_bytes,
    };
    let mut kept = 0u64;
    let scanned = run::scan(common, "filtering", &work, |event| {
        if let Event::Piece { visited, info, .. } = event {
            let rendered = match &visited {
                Visited::Pgn(dom) => &dom.each.rendered,
                Visited::Sgf(dom) => &dom.each.rendered,
            };
            kept += rendered.len() as u64;
            if !opts.count {
                rendered.write_all(&mut out, info.first_game)?;
            }
        }
        Ok(())
    })?;
    if opts.count {
        writeln!(out, "{kept}")?;
    }
    out::finish(out)?;
    Ok(Outcome::of(&scanned, kept == 0).code())
}
