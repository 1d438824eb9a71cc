//! [`Stats`]: what `kifu stats` counts, as a visitor of both formats, so that every frontend
//! (the command, the Python package, an embedder) counts the same way.

use crate::{Control, Severity, pgn, sgf};

/// Counts over every event of PGN or SGF input: a visitor of both formats. Counts of pieces
/// read in parallel add up ([`Stats::add`]).
///
/// ```
/// let mut s = kifu::Stats::default();
/// kifu::pgn::parse(b"[Event \"x\"]\n\n1. e4 {good} e5 (1... c5) $1 2. Nf3 zz *", &mut s);
/// assert_eq!((s.games, s.tags, s.mainline_moves, s.variation_moves), (1, 1, 3, 1));
/// assert_eq!((s.comments, s.nags, s.variations, s.errors), (1, 1, 1, 1));
///
/// let mut g = kifu::Stats::default();
/// kifu::sgf::parse(b"(;GM[1]C[hi];B[aa](;W[bb])(;W[cc]))", &mut g);
/// assert_eq!((g.games, g.nodes, g.properties, g.mainline_moves, g.variation_moves), (1, 4, 5, 2, 1));
/// ```
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Stats {
    /// Games (PGN) or game trees (SGF).
    pub games: u64,
    /// PGN tag pairs.
    pub tags: u64,
    /// Moves of the main lines.
    pub mainline_moves: u64,
    /// Moves in variations.
    pub variation_moves: u64,
    /// Comments (PGN `{…}` and `;`, not `%` escapes; SGF `C`), each counted once however many
    /// pieces it came in.
    pub comments: u64,
    /// NAGs (PGN).
    pub nags: u64,
    /// Variations (PGN `(…)`; SGF alternatives: the subtrees after the first).
    pub variations: u64,
    /// Problems of every severity.
    pub errors: u64,
    /// The problems among them that are warnings.
    pub warnings: u64,
    /// SGF nodes.
    pub nodes: u64,
    /// SGF properties.
    pub properties: u64,
    /// Bytes read (the caller adds them: a visitor sees events, not bytes).
    pub bytes: u64,
}

impl Stats {
    /// Adds the counts of `o` (a piece's) to these.
    pub fn add(&mut self, o: &Stats) {
        self.games += o.games;
        self.tags += o.tags;
        self.mainline_moves += o.mainline_moves;
        self.variation_moves += o.variation_moves;
        self.comments += o.comments;
        self.nags += o.nags;
        self.variations += o.variations;
        self.errors += o.errors;
        self.warnings += o.warnings;
        self.bytes += o.bytes;
        self.nodes += o.nodes;
        self.properties += o.properties;
    }

    /// Moves in all: main lines and variations.
    pub fn moves(&self) -> u64 {
        self.mainline_moves + self.variation_moves
    }

    fn problem(&mut self, severity: Severity) {
        if severity == Severity::Warning {
            self.warnings += 1;
        }
        self.errors += 1;
    }
}

impl pgn::Visitor for Stats {
    fn on_tree(&mut self, ctx: &pgn::Context) -> Control {
        if ctx.in_variation() {
            self.variations += 1;
        }
        Control::Continue
    }
    fn on_tree_end(&mut self, ctx: &pgn::Context) -> Control {
        if ctx.is_main_line() {
            self.games += 1;
        }
        Control::Continue
    }
    fn on_property(&mut self, _: &pgn::Context, _: &pgn::Tag<'_>) -> Control {
        self.tags += 1;
        Control::Continue
    }
    fn on_move(&mut self, ctx: &pgn::Context, _: &pgn::Move<'_>) -> Control {
        if ctx.is_main_line() {
            self.mainline_moves += 1;
        } else {
            self.variation_moves += 1;
        }
        Control::Continue
    }
    fn on_nag(&mut self, _: &pgn::Context, _: pgn::Nag, _: pgn::NagForm) -> Control {
        self.nags += 1;
        Control::Continue
    }
    fn on_comment(&mut self, _: &pgn::Context, c: &pgn::Comment<'_>) -> Control {
        if c.first && c.kind != pgn::CommentKind::Escape {
            self.comments += 1;
        }
        Control::Continue
    }
    fn on_error(&mut self, e: &pgn::Error<'_>) -> Control {
        self.problem(e.severity);
        Control::Continue
    }
}

impl sgf::Visitor for Stats {
    fn on_tree(&mut self, ctx: &sgf::Context) -> Control {
        // an alternative (the first subtree of a branching continues the line it branches from)
        if ctx.variation > 0 {
            self.variations += 1;
        }
        Control::Continue
    }
    fn on_tree_end(&mut self, ctx: &sgf::Context) -> Control {
        if ctx.is_game_level() {
            self.games += 1;
        }
        Control::Continue
    }
    fn on_node(&mut self, _: &sgf::Context) -> Control {
        self.nodes += 1;
        Control::Continue
    }
    fn on_property(&mut self, _: &sgf::Context, _: &sgf::Property<'_>) -> Control {
        self.properties += 1;
        Control::Continue
    }
    fn on_move(&mut self, ctx: &sgf::Context, _: &sgf::Move<'_>) -> Control {
        if ctx.main_line {
            self.mainline_moves += 1;
        } else {
            self.variation_moves += 1;
        }
        Control::Continue
    }
    fn on_comment(&mut self, _: &sgf::Context, c: &sgf::Comment<'_>) -> Control {
        if c.first {
            self.comments += 1;
        }
        Control::Continue
    }
    fn on_error(&mut self, e: &sgf::Error<'_>) -> Control {
        self.problem(e.severity);
        Control::Continue
    }
}
