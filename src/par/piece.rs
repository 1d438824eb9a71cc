//! Reading one piece, and deciding whether the next one really starts with a game.
//!
//! A piece is parsed by a fresh parser placed at the piece's first byte
//! ([`start_at`](crate::pgn::Parser::start_at)), as if a game started there (a piece cut
//! where no game seemed to start is read only after the reading before it: `super::scan`).
//! After the piece, a copy of the parser reads on into the next piece with its events muted
//! (`Probe`), until the first game starts: if it starts exactly at the boundary, the cut was
//! right, and the real parser reads on to that point (`Until`), so that its visitor gets what
//! the sequential parse would give it before the next game (the last game's end, a run of junk
//! reported there), then `on_end`. If the first game starts anywhere else, the piece stays open
//! ([`Ended::Open`]) and its parser reads the next piece too.

use bytes::Bytes;

use crate::control::{Control, Status};
use crate::position::Lines;
use crate::{pgn, sgf};

/// How the reading of a piece ended.
pub(crate) enum Ended<P> {
    /// The next piece starts with a game, of index `game` (counted as the piece's parser
    /// counts: from its own first game).
    Closed { game: u64 },
    /// The input ended with the piece.
    Last,
    /// A visitor stopped.
    Stopped,
    /// No game starts at the boundary: the parser as it stands at the piece's end, to read the
    /// next piece on.
    Open(Box<P>),
}

/// A format's parser, as a scan drives it with a visitor `V`.
pub(crate) trait Drive<V>: Clone + Sized {
    /// The parser's limits.
    type Config: Copy;
    /// The limits it reads with.
    fn config(&self) -> &Self::Config;
    /// A parser whose next byte is at `offset`, with the line counter `lines`, game 0 next.
    fn fresh(config: &Self::Config, lines: Lines, offset: u64) -> Self;
    /// Feeds `bytes`; whether a visitor stopped.
    fn feed_all(&mut self, bytes: &[u8], v: &mut V) -> bool;
    /// Ends the input.
    fn end_input(&mut self, v: &mut V);
    /// Reads on in `next` with the events muted: the offset and index of the first game that
    /// starts, if one starts in it.
    fn probe(&self, next: &[u8]) -> Option<(u64, u64)>;
    /// Reads on in `next`, the events to `v`, up to the start of the game at `boundary`, of
    /// index `game` (which a probe found), then raises `on_end`.
    fn close_at(&mut self, next: &[u8], boundary: u64, game: u64, v: &mut V);
}

/// Reads `bytes` (which end at stream offset `end`) on with `parser`, then decides the
/// boundary after them with `next` (the next piece of the same input; `None`: the input ends
/// here). `ahead` hands the visitor each run of bytes before its parser reads it
/// ([`Work::pgn_ahead`](super::Work::pgn_ahead)).
pub(crate) fn read_on<P: Drive<V>, V>(
    mut parser: P,
    bytes: &Bytes,
    end: u64,
    next: Option<&Bytes>,
    v: &mut V,
    mut ahead: impl FnMut(&mut V, &P::Config, u64, &Bytes),
) -> Ended<P> {
    ahead(v, parser.config(), end - bytes.len() as u64, bytes);
    if parser.feed_all(bytes, v) {
        return Ended::Stopped;
    }
    let Some(next) = next else {
        parser.end_input(v);
        return Ended::Last;
    };
    match parser.probe(next) {
        // (a piece that saw no game start of its own, only text before an input's first game,
        // reads on: what comes before the first game belongs to it, as in one reading)
        Some((at, game)) if at == end && game > 0 => {
            ahead(v, parser.config(), end, next);
            parser.close_at(next, end, game, v);
            Ended::Closed { game }
        }
        _ => Ended::Open(Box::new(parser)),
    }
}

/// The muted reader of [`Drive::probe`]: notes the first game start and stops there.
#[derive(Default)]
struct Probe(Option<(u64, u64)>);

/// A visitor's events up to the start of the game at `boundary`: that one and what the parser
/// raises before it stops (the rest of the token) are not passed on. Nor is a problem of that
/// game raised before its start (an SGF `(` that no `;` follows is reported at the byte after
/// it, then the tree opens): the reading of the next piece raises it.
struct Until<'v, V> {
    inner: &'v mut V,
    boundary: u64,
    /// The index of the game at `boundary`.
    game: u64,
    reached: bool,
}

impl<V> Until<'_, V> {
    /// Whether a problem at `pos` of game `game` is the next piece's.
    fn past(&mut self, pos: u64, game: u64) -> bool {
        if pos >= self.boundary && game >= self.game {
            self.reached = true;
        }
        self.reached
    }
}

/// Passes an event on to the inner visitor until the boundary was reached.
macro_rules! until {
    ($self:ident, $call:expr) => {
        if $self.reached { Control::Stop } else { $call }
    };
}

impl pgn::Visitor for Probe {
    fn on_tree(&mut self, ctx: &pgn::Context) -> Control {
        if ctx.depth > 0 {
            return Control::Continue;
        }
        self.0 = Some((ctx.pos.offset, ctx.game));
        Control::Stop
    }
}

impl sgf::Visitor for Probe {
    fn on_tree(&mut self, ctx: &sgf::Context) -> Control {
        if ctx.depth > 0 {
            return Control::Continue;
        }
        self.0 = Some((ctx.pos.offset, ctx.game));
        Control::Stop
    }
}

impl<V: pgn::Visitor> Drive<V> for pgn::Parser {
    type Config = pgn::Config;

    fn config(&self) -> &pgn::Config {
        pgn::Parser::config(self)
    }

    fn fresh(config: &pgn::Config, lines: Lines, offset: u64) -> Self {
        let mut p = pgn::Parser::with_config(*config);
        p.resume(lines, offset, 0);
        p
    }

    fn feed_all(&mut self, bytes: &[u8], v: &mut V) -> bool {
        self.feed(bytes, v) != Status::NeedInput
    }

    fn end_input(&mut self, v: &mut V) {
        self.finish(v)
    }

    fn probe(&self, next: &[u8]) -> Option<(u64, u64)> {
        let mut probe = Probe::default();
        let _ = self.clone().feed(next, &mut probe);
        probe.0
    }

    fn close_at(&mut self, next: &[u8], boundary: u64, game: u64, v: &mut V) {
        let mut until = Until {
            inner: v,
            boundary,
            game,
            reached: false,
        };
        let _ = self.feed(next, &mut until);
        v.on_end();
    }
}

impl<V: sgf::Visitor> Drive<V> for sgf::Parser {
    type Config = sgf::Config;

    fn config(&self) -> &sgf::Config {
        sgf::Parser::config(self)
    }

    fn fresh(config: &sgf::Config, lines: Lines, offset: u64) -> Self {
        let mut p = sgf::Parser::with_config(*config);
        p.resume(lines, offset, 0);
        p
    }

    fn feed_all(&mut self, bytes: &[u8], v: &mut V) -> bool {
        self.feed(bytes, v) != Status::NeedInput
    }

    fn end_input(&mut self, v: &mut V) {
        self.finish(v)
    }

    fn probe(&self, next: &[u8]) -> Option<(u64, u64)> {
        let mut probe = Probe::default();
        let _ = self.clone().feed(next, &mut probe);
        probe.0
    }

    fn close_at(&mut self, next: &[u8], boundary: u64, game: u64, v: &mut V) {
        let mut until = Until {
            inner: v,
            boundary,
            game,
            reached: false,
        };
        let _ = self.feed(next, &mut until);
        v.on_end();
    }
}

impl<V: pgn::Visitor> pgn::Visitor for Until<'_, V> {
    fn on_tree(&mut self, ctx: &pgn::Context) -> Control {
        if ctx.depth == 0 && ctx.pos.offset >= self.boundary {
            self.reached = true;
        }
        until!(self, self.inner.on_tree(ctx))
    }
    fn on_tree_end(&mut self, ctx: &pgn::Context) -> Control {
        until!(self, self.inner.on_tree_end(ctx))
    }
    fn on_property(&mut self, ctx: &pgn::Context, tag: &pgn::Tag<'_>) -> Control {
        until!(self, self.inner.on_property(ctx, tag))
    }
    fn on_tags_end(&mut self, ctx: &pgn::Context) -> Control {
        until!(self, self.inner.on_tags_end(ctx))
    }
    fn on_move(&mut self, ctx: &pgn::Context, mv: &pgn::Move<'_>) -> Control {
        until!(self, self.inner.on_move(ctx, mv))
    }
    fn on_nag(&mut self, ctx: &pgn::Context, nag: pgn::Nag, form: pgn::NagForm) -> Control {
        until!(self, self.inner.on_nag(ctx, nag, form))
    }
    fn on_comment(&mut self, ctx: &pgn::Context, comment: &pgn::Comment<'_>) -> Control {
        until!(self, self.inner.on_comment(ctx, comment))
    }
    fn on_result(&mut self, ctx: &pgn::Context, outcome: pgn::Outcome) -> Control {
        until!(self, self.inner.on_result(ctx, outcome))
    }
    fn on_error(&mut self, error: &pgn::Error<'_>) -> Control {
        self.past(error.pos.offset, error.game);
        until!(self, self.inner.on_error(error))
    }
}

impl<V: sgf::Visitor> sgf::Visitor for Until<'_, V> {
    fn on_tree(&mut self, ctx: &sgf::Context) -> Control {
        if ctx.depth == 0 && ctx.pos.offset >= self.boundary {
            self.reached = true;
        }
        until!(self, self.inner.on_tree(ctx))
    }
    fn on_tree_end(&mut self, ctx: &sgf::Context) -> Control {
        until!(self, self.inner.on_tree_end(ctx))
    }
    fn on_node(&mut self, ctx: &sgf::Context) -> Control {
        until!(self, self.inner.on_node(ctx))
    }
    fn on_node_end(&mut self, ctx: &sgf::Context) -> Control {
        until!(self, self.inner.on_node_end(ctx))
    }
    fn on_property(&mut self, ctx: &sgf::Context, prop: &sgf::Property<'_>) -> Control {
        until!(self, self.inner.on_property(ctx, prop))
    }
    fn on_value(&mut self, ctx: &sgf::Context, value: &sgf::Value<'_>) -> Control {
        until!(self, self.inner.on_value(ctx, value))
    }
    fn on_move(&mut self, ctx: &sgf::Context, mv: &sgf::Move<'_>) -> Control {
        until!(self, self.inner.on_move(ctx, mv))
    }
    fn on_comment(&mut self, ctx: &sgf::Context, comment: &sgf::Comment<'_>) -> Control {
        until!(self, self.inner.on_comment(ctx, comment))
    }
    fn on_error(&mut self, error: &sgf::Error<'_>) -> Control {
        self.past(error.pos.offset, error.game);
        until!(self, self.inner.on_error(error))
    }
}
