//! The piece visitor of the commands that work on whole games (`json`, `fmt`, `filter`,
//! `split`, `dedup`, and `export` but for the PGN `games` table): it builds each game with the
//! library's DOM builder and hands it to the command's per-game work as soon as it is
//! complete, on the worker's thread, so that a piece never holds more than one game.

use kifu::{Control, pgn, sgf};

use crate::problem::Problem;
use crate::run::Games;

/// What a command does with each game of a piece, and keeps for the sink.
pub trait PerGame: Send {
    /// A PGN game of the piece (its `index` counted in the piece).
    fn pgn(&mut self, game: pgn::Game);
    /// An SGF game tree of the piece (its `index` counted in the piece).
    fn sgf(&mut self, tree: sgf::GameTree);
    /// The piece is over: its last game was handed on.
    fn end(&mut self) {}
}

/// A piece's visitor: the DOM builder `B` and the command's per-game work `T`.
pub struct Dom<B, T> {
    builder: B,
    /// The command's work, with what it kept.
    pub each: T,
    /// Problems no game carries (an input without any game).
    pub unclaimed: Vec<Problem>,
    games: u64,
}

impl<B, T> Dom<B, T> {
    /// A visitor building with `builder`, handing games to `each`.
    pub fn new(builder: B, each: T) -> Self {
        Dom {
            builder,
            each,
            unclaimed: Vec::new(),
            games: 0,
        }
    }
}

impl<B, T> Games for Dom<B, T> {
    fn games(&self) -> u64 {
        self.games
    }
    fn unclaimed(&self) -> u64 {
        self.unclaimed.len() as u64
    }
}

impl<T: PerGame> Dom<pgn::GameBuilder, T> {
    fn drain(&mut self) {
        while let Some(game) = self.builder.pop() {
            self.games += 1;
            self.each.pgn(game);
        }
    }
}

impl<T: PerGame> Dom<sgf::TreeBuilder, T> {
    fn drain(&mut self) {
        while let Some(tree) = self.builder.pop() {
            self.games += 1;
            self.each.sgf(tree);
        }
    }
}

impl<T: PerGame> pgn::Visitor for Dom<pgn::GameBuilder, T> {
    fn on_tree(&mut self, ctx: &pgn::Context) -> Control {
        let c = self.builder.on_tree(ctx);
        if ctx.is_main_line() {
            self.drain();
        }
        c
    }
    fn on_tree_end(&mut self, ctx: &pgn::Context) -> Control {
        self.builder.on_tree_end(ctx)
    }
    fn on_property(&mut self, ctx: &pgn::Context, tag: &pgn::Tag<'_>) -> Control {
        self.builder.on_property(ctx, tag)
    }
    fn on_tags_end(&mut self, ctx: &pgn::Context) -> Control {
        self.builder.on_tags_end(ctx)
    }
    fn on_move(&mut self, ctx: &pgn::Context, mv: &pgn::Move<'_>) -> Control {
        self.builder.on_move(ctx, mv)
    }
    fn on_nag(&mut self, ctx: &pgn::Context, nag: pgn::Nag, form: pgn::NagForm) -> Control {
        self.builder.on_nag(ctx, nag, form)
    }
    fn on_comment(&mut self, ctx: &pgn::Context, comment: &pgn::Comment<'_>) -> Control {
        self.builder.on_comment(ctx, comment)
    }
    fn on_result(&mut self, ctx: &pgn::Context, outcome: pgn::Outcome) -> Control {
        self.builder.on_result(ctx, outcome)
    }
    fn on_error(&mut self, error: &pgn::Error<'_>) -> Control {
        self.builder.on_error(error)
    }
    fn on_end(&mut self) {
        self.builder.on_end();
        self.drain();
        self.each.end();
        let unclaimed = self.builder.unclaimed_errors();
        self.unclaimed
            .extend(unclaimed.iter().map(|e| Problem::Pgn(e.clone(), 0)));
    }
}

impl<T: PerGame> sgf::Visitor for Dom<sgf::TreeBuilder, T> {
    fn on_tree(&mut self, ctx: &sgf::Context) -> Control {
        let c = self.builder.on_tree(ctx);
        if ctx.is_game_level() {
            self.drain();
        }
        c
    }
    fn on_tree_end(&mut self, ctx: &sgf::Context) -> Control {
        self.builder.on_tree_end(ctx)
    }
    fn on_node(&mut self, ctx: &sgf::Context) -> Control {
        self.builder.on_node(ctx)
    }
    fn on_node_end(&mut self, ctx: &sgf::Context) -> Control {
        self.builder.on_node_end(ctx)
    }
    fn on_property(&mut self, ctx: &sgf::Context, prop: &sgf::Property<'_>) -> Control {
        self.builder.on_property(ctx, prop)
    }
    fn on_value(&mut self, ctx: &sgf::Context, value: &sgf::Value<'_>) -> Control {
        self.builder.on_value(ctx, value)
    }
    fn on_move(&mut self, ctx: &sgf::Context, mv: &sgf::Move<'_>) -> Control {
        self.builder.on_move(ctx, mv)
    }
    fn on_comment(&mut self, ctx: &sgf::Context, comment: &sgf::Comment<'_>) -> Control {
        self.builder.on_comment(ctx, comment)
    }
    fn on_error(&mut self, error: &sgf::Error<'_>) -> Control {
        self.builder.on_error(error)
    }
    fn on_end(&mut self) {
        self.builder.on_end();
        self.drain();
        self.each.end();
        let unclaimed = self.builder.unclaimed_errors();
        self.unclaimed
            .extend(unclaimed.iter().map(|e| Problem::Sgf(e.clone())));
    }
}
