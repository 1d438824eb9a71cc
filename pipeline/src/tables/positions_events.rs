//! The PGN `positions` table made from the parser's events: each game's rows are replayed as
//! its moves come ([`kifu_export::PgnPositionEvents`]), without building the game, so that a
//! scan building that table spends nothing on the tags, comments and move texts it does not
//! write. The rows, the games counted, the games refused and the problems no game carries are
//! what a [`DomWork`] of the same scope gives: the game builder's limit of bytes
//! ([`pgn::GameBuilder::with_max_game_bytes`]) is kept to the byte ([`Budget`]), so that a game
//! it cuts is cut here at the same event.
//!
//! `-w` tests that read the tags alone are tested when the tags are over; a test that needs
//! the moves (`plies`, `result`, `winner`, the opening) keeps the DOM path.

use std::sync::atomic::AtomicBool;

use kifu::par::Work;
use kifu::pgn::{self, CommentKind, Context, Visitor};
use kifu::{Control, sgf};

use super::{Rows, TablePieces, TableSpec};
use crate::keys::{AnyOf, Derived, Key};
use crate::{Dom, DomWork, GameCount, Input, PerGame, PieceWork};

/// The per-piece work of a table scan: each game built as its table needs (the moves table
/// without variations: the main line only; the games table's tags alone: no movetext, which
/// the parser then skips at its skipping speed), its rows made; the PGN `positions` table
/// made from the parser's events, no game built ([`TableSpec::positions_from_events`]).
pub struct TableWork<'a> {
    dom: DomWork<TablePieces<'a>>,
    events: bool,
}

impl<'a> TableWork<'a> {
    pub(super) fn new(spec: &TableSpec, stop: Option<&'a AtomicBool>) -> TableWork<'a> {
        let pieces = TablePieces {
            spec: std::sync::Arc::new(spec.clone()),
            stop,
        };
        TableWork {
            dom: DomWork::new(spec.scope(), pieces),
            events: from_events(spec),
        }
    }
}

/// Whether `spec`'s PGN rows are made from the parser's events: the `positions` table, asked
/// for ([`TableSpec::positions_from_events`]), and `-w` tests on the tags alone.
fn from_events(spec: &TableSpec) -> bool {
    spec.positions_from_events
        && spec.pgn == Some(kifu_export::Table::PgnPositions)
        && spec.tests.iter().all(on_tags)
}

/// Whether every test of `any` reads the tags alone (their values are known when the tags are
/// over).
fn on_tags(any: &AnyOf) -> bool {
    any.0.iter().all(|t| match t.key() {
        Key::Tag(_) | Key::Player => true,
        Key::Derived(d) => matches!(
            d,
            Derived::Year
                | Derived::Month
                | Derived::Speed
                | Derived::TcBase
                | Derived::TcIncrement
        ),
    })
}

impl<'a> Work for TableWork<'a> {
    type Input = Input;
    type Pgn = PgnPiece<'a>;
    type Sgf = Dom<sgf::TreeBuilder, Rows<'a>>;
    fn pgn(&self, input: &Input) -> PgnPiece<'a> {
        if !self.events {
            return PgnPiece::Dom(self.dom.pgn(input));
        }
        let mut each = self.dom.each().each(input);
        let scope = self.dom.scope();
        let comments = each
            .builder
            .as_mut()
            .and_then(|b| b.pgn_position_events())
            .is_some_and(|e| e.wants_comments());
        PgnPiece::Events(Events {
            each,
            comments,
            budget: Budget {
                max_bytes: scope.max_game_bytes,
                max_errors: pgn::GameBuilder::DEFAULT_MAX_GAME_ERRORS,
                ..Budget::default()
            },
            before: None,
            open: false,
            passed: true,
            tested: false,
            moves: 0,
            games: 0,
            unclaimed: 0,
            comment: Vec::new(),
            tags: pgn::Game::default(),
            spare_tags: Vec::new(),
            index: 0,
            cut: Vec::new(),
        })
    }
    fn sgf(&self, input: &Input) -> Self::Sgf {
        self.dom.sgf(input)
    }
}

/// A PGN piece's visitor of a table scan: games built ([`Dom`]), or the `positions` rows made
/// from the events ([`Events`]).
// made once a piece: its size is no cost worth a box
#[allow(clippy::large_enum_variant)]
pub enum PgnPiece<'a> {
    /// Each game built, then its rows made.
    Dom(Dom<pgn::GameBuilder, Rows<'a>>),
    /// The rows made from the events.
    Events(Events<'a>),
}

impl<'a> PgnPiece<'a> {
    /// The piece's rows.
    pub(super) fn each_mut(&mut self) -> &mut Rows<'a> {
        match self {
            PgnPiece::Dom(d) => &mut d.each,
            PgnPiece::Events(e) => &mut e.each,
        }
    }
}

/// Hands each event to the piece's visitor.
macro_rules! either {
    ($($name:ident($($arg:ident: $t:ty),*);)*) => {
        $(#[inline]
        fn $name(&mut self, $($arg: $t),*) -> Control {
            match self {
                PgnPiece::Dom(d) => d.$name($($arg),*),
                PgnPiece::Events(e) => e.$name($($arg),*),
            }
        })*
    };
}

impl Visitor for PgnPiece<'_> {
    either! {
        on_tree(ctx: &Context);
        on_tree_end(ctx: &Context);
        on_property(ctx: &Context, tag: &pgn::Tag<'_>);
        on_tags_end(ctx: &Context);
        on_move(ctx: &Context, mv: &pgn::Move<'_>);
        on_nag(ctx: &Context, nag: pgn::Nag, form: pgn::NagForm);
        on_comment(ctx: &Context, comment: &pgn::Comment<'_>);
        on_result(ctx: &Context, outcome: pgn::Outcome);
        on_error(error: &pgn::Error<'_>);
    }
    fn on_end(&mut self) {
        match self {
            PgnPiece::Dom(d) => d.on_end(),
            PgnPiece::Events(e) => e.on_end(),
        }
    }
}

impl GameCount for PgnPiece<'_> {
    fn games(&self) -> u64 {
        match self {
            PgnPiece::Dom(d) => d.games(),
            PgnPiece::Events(e) => e.games,
        }
    }
    fn unclaimed(&self) -> u64 {
        match self {
            PgnPiece::Dom(d) => d.unclaimed(),
            PgnPiece::Events(e) => e.unclaimed,
        }
    }
    fn cut(&self) -> &[u64] {
        match self {
            PgnPiece::Dom(d) => d.cut(),
            PgnPiece::Events(e) => &e.cut,
        }
    }
}

/// The game builder's estimate of the open game ([`pgn::Game::estimated_bytes`]) as it builds
/// it, event by event, and what it does at its limit: a tag, move, NAG, comment or problem
/// that would take the game past [`max_bytes`](Self::max_bytes) is not kept, the game is
/// full, and the rest of it is skipped. Kept to the byte: the same game is cut at the same
/// event.
#[derive(Debug, Default)]
struct Budget {
    max_bytes: usize,
    max_errors: usize,
    bytes: usize,
    full: bool,
    /// The problems the open game holds (those met before it included).
    errors: usize,
}

// what the game builder counts for each item (`pgn::Game::estimated_bytes`)
const TAG_BYTES: usize = pgn::Game::TAG_BYTES;
const COMMENT_BYTES: usize = pgn::Game::COMMENT_BYTES;
const MOVE_BYTES: usize = pgn::Game::MOVE_BYTES;
const NAG_BYTES: usize = pgn::Game::NAG_BYTES;
const ERROR_BYTES: usize = pgn::Game::ERROR_BYTES;

/// The length of `bytes` decoded as the game builder decodes text (U+FFFD for what is not
/// UTF-8).
fn lossy_len(bytes: &[u8]) -> usize {
    if bytes.is_ascii() {
        bytes.len()
    } else {
        String::from_utf8_lossy(bytes).len()
    }
}

impl Budget {
    fn start(&mut self, errors: usize) {
        self.bytes = 0;
        self.full = false;
        self.errors = errors;
    }

    /// Whether `extra` more bytes fit (the builder's `fits`): if not, the game is full.
    fn fits(&mut self, extra: usize) -> bool {
        if self.full {
            return false;
        }
        if self.bytes.saturating_add(extra) <= self.max_bytes {
            self.bytes += extra;
            return true;
        }
        self.full = true;
        // the builder's `game_too_large` problem
        self.errors += 1;
        false
    }
}

/// `bytes` decoded as the game builder decodes text (U+FFFD for what is not UTF-8).
fn text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    pgn::RawComment(bytes).to_str_lossy()
}

/// The answer for an item kept or not.
fn go_on(kept: bool) -> Control {
    if kept {
        Control::Continue
    } else {
        Control::SkipGame
    }
}

/// A PGN piece's visitor making the `positions` rows from the parser's events.
pub struct Events<'a> {
    each: Rows<'a>,
    /// The rows read the moves' comments (their clocks and evals): else a comment kept is
    /// counted against the limit of bytes, and not read.
    comments: bool,
    budget: Budget,
    /// Problems met before the first game, given to a game builder as a [`Dom`] gives them:
    /// they go to the first game (counted in its problems), or are the piece's unclaimed ones.
    before: Option<pgn::GameBuilder>,
    /// A game is open.
    open: bool,
    /// The open game passes the `-w` tests.
    passed: bool,
    /// The open game was tested.
    tested: bool,
    /// Main-line moves kept of the open game.
    moves: usize,
    games: u64,
    unclaimed: u64,
    /// The pieces of a comment being joined.
    comment: Vec<u8>,
    /// The open game's tags, for the `-w` tests.
    tags: pgn::Game,
    /// The room of the tags of the games before.
    spare_tags: Vec<(String, String)>,
    /// The open game's index in the piece.
    index: u64,
    /// The games cut at the limit of bytes (their index in the piece).
    cut: Vec<u64>,
}

impl Events<'_> {
    /// Notes the game before as cut if it passed the limit of bytes (once it is over: a
    /// problem after its result counts against its limit too, as the builder counts it).
    fn note_cut(&mut self) {
        if self.games > 0 && self.budget.full && self.cut.last() != Some(&self.index) {
            self.cut.push(self.index);
        }
    }

    fn answer(&self, c: Control) -> Control {
        if self.each.go_on() { c } else { Control::Stop }
    }

    fn events(&mut self) -> Option<kifu_export::PgnPositionEvents<'_>> {
        self.each.builder.as_mut()?.pgn_position_events()
    }

    /// Whether the open game passes the `-w` tests (on its tags kept).
    fn test(&mut self) -> bool {
        self.tested = true;
        self.passed = self.each.spec.tests.iter().all(|t| t.holds(&self.tags));
        self.passed
    }

    /// A comment kept after a main-line move (when the rows read comments).
    fn comment_text(&mut self, bytes: &[u8]) {
        if let Some(mut e) = self.events() {
            e.comment(&text(bytes));
        }
    }

    /// The rows' maker and the input's name.
    fn events_in(&mut self) -> Option<(kifu_export::PgnPositionEvents<'_>, &str)> {
        let Rows { builder, input, .. } = &mut self.each;
        Some((builder.as_mut()?.pgn_position_events()?, &input.name))
    }
}

impl Visitor for Events<'_> {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        if !ctx.is_main_line() {
            // the builder of the main line skips variations
            let c = if self.budget.full {
                Control::SkipGame
            } else {
                Control::Skip
            };
            return self.answer(c);
        }
        // the game before is over (its problems after its result counted too)
        self.note_cut();
        // problems before the first game go to it
        let mut errors = 0;
        if let Some(mut b) = self.before.take() {
            let _ = b.on_tree(ctx);
            let _ = b.on_tree_end(ctx);
            errors = b.pop().map_or(0, |g| g.errors.len());
        }
        self.open = true;
        self.passed = true;
        self.tested = false;
        self.moves = 0;
        self.budget.start(errors);
        self.index = ctx.game;
        if !self.tags.tags.is_empty() {
            self.spare_tags.append(&mut self.tags.tags);
        }
        if let Some(mut e) = self.events() {
            e.begin(ctx.game);
        }
        self.answer(Control::Continue)
    }

    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        if !ctx.is_main_line() {
            return self.answer(Control::Continue);
        }
        self.open = false;
        self.games += 1;
        // the tags cut short by the limit of bytes: no `on_tags_end`
        let passed = if self.tested {
            self.passed
        } else {
            self.test()
        };
        if passed {
            let r = match self.events_in() {
                Some((mut e, file)) => e.end(file),
                None => Ok(()),
            };
            self.each.pushed(self.index, r);
        }
        self.answer(Control::Continue)
    }

    fn on_property(&mut self, _: &Context, tag: &pgn::Tag<'_>) -> Control {
        if !self.open {
            return self.answer(Control::Continue);
        }
        let value = tag.value.decode();
        if !self
            .budget
            .fits(TAG_BYTES + lossy_len(tag.name) + lossy_len(&value))
        {
            return self.answer(Control::SkipGame);
        }
        let tested = !self.each.spec.tests.is_empty();
        let wanted = self.events().is_some_and(|e| e.wants_tag(tag.name));
        if !tested && !wanted {
            return self.answer(Control::Continue);
        }
        let (name, value) = (text(tag.name), text(&value));
        if tested {
            let (mut n, mut v) = self.spare_tags.pop().unwrap_or_default();
            n.clear();
            n.push_str(&name);
            v.clear();
            v.push_str(&value);
            self.tags.tags.push((n, v));
        }
        if wanted && let Some(mut e) = self.events() {
            e.tag(&name, &value);
        }
        self.answer(Control::Continue)
    }

    fn on_tags_end(&mut self, _: &Context) -> Control {
        if self.budget.full {
            return self.answer(Control::SkipGame);
        }
        if !self.test() {
            // no row, nothing refused: the rest of the game is not read
            return self.answer(Control::SkipGame);
        }
        if let Some(mut e) = self.events() {
            e.tags_end();
        }
        self.answer(Control::Continue)
    }

    fn on_move(&mut self, ctx: &Context, mv: &pgn::Move<'_>) -> Control {
        if !ctx.is_main_line() {
            return self.answer(Control::Continue);
        }
        if !self.budget.fits(MOVE_BYTES + lossy_len(mv.text)) {
            return self.answer(Control::SkipGame);
        }
        self.moves += 1;
        if let Some((mut e, file)) = self.events_in() {
            e.play(file, mv.san, mv.text);
        }
        self.answer(Control::Continue)
    }

    fn on_nag(&mut self, ctx: &Context, _: pgn::Nag, _: pgn::NagForm) -> Control {
        if !ctx.is_main_line() {
            return self.answer(Control::Continue);
        }
        let kept = if self.moves == 0 {
            !self.budget.full
        } else {
            self.budget.fits(NAG_BYTES)
        };
        self.answer(go_on(kept))
    }

    fn on_comment(&mut self, ctx: &Context, c: &pgn::Comment<'_>) -> Control {
        if c.kind == CommentKind::Escape {
            return self.answer(Control::Continue);
        }
        if self.budget.full {
            return self.answer(Control::SkipGame);
        }
        let piece = c.text.as_bytes();
        if c.first && c.last {
            // a comment in one piece (the usual)
            let size = COMMENT_BYTES + piece.len();
            if self.budget.bytes.saturating_add(size) > self.budget.max_bytes {
                self.budget.fits(size);
                return self.answer(Control::SkipGame);
            }
            let kept = self.budget.fits(COMMENT_BYTES + lossy_len(piece));
            if kept && self.comments && ctx.is_main_line() && self.moves > 0 {
                self.comment_text(piece);
            }
            return self.answer(go_on(kept));
        }
        if c.first {
            self.comment.clear();
        }
        let so_far = COMMENT_BYTES + self.comment.len() + piece.len();
        if self.budget.bytes.saturating_add(so_far) > self.budget.max_bytes {
            self.budget.fits(so_far);
            return self.answer(Control::SkipGame);
        }
        // a comment in pieces: joined
        self.comment.extend_from_slice(piece);
        if !c.last {
            return self.answer(Control::Continue);
        }
        let comment = std::mem::take(&mut self.comment);
        let kept = self.budget.fits(COMMENT_BYTES + lossy_len(&comment));
        if kept && self.comments && ctx.is_main_line() && self.moves > 0 {
            self.comment_text(&comment);
        }
        self.comment = comment;
        self.comment.clear();
        self.answer(go_on(kept))
    }

    fn on_result(&mut self, ctx: &Context, outcome: pgn::Outcome) -> Control {
        if ctx.is_main_line()
            && self.open
            && let Some(mut e) = self.events()
        {
            e.result(outcome);
        }
        self.answer(Control::Continue)
    }

    fn on_error(&mut self, e: &pgn::Error<'_>) -> Control {
        if !self.open {
            // outside a game (before the first): the builder's own accounting, for the next
            // game or as the piece's unclaimed problems
            let max = self.budget.max_bytes;
            let _ = self
                .before
                .get_or_insert_with(|| {
                    pgn::GameBuilder::with_scope(pgn::Scope::MainLine).with_max_game_bytes(max)
                })
                .on_error(e);
            return self.answer(Control::Continue);
        }
        let b = &mut self.budget;
        let many = b.errors >= b.max_errors;
        let size = ERROR_BYTES + lossy_len(e.text);
        let kept = if b.full {
            e.kind == pgn::ErrorKind::UnterminatedComment && !many
        } else {
            !many && b.fits(size)
        };
        if kept {
            b.errors += 1;
        }
        self.answer(Control::Continue)
    }

    fn on_end(&mut self) {
        self.note_cut();
        if let Some(b) = &mut self.before {
            b.on_end();
            self.unclaimed = b.unclaimed_errors().len() as u64;
        }
        self.each.end();
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use arrow_array::RecordBatch;
    use kifu_export::{Distinct, PositionOptions, Sample};

    use super::*;
    use crate::{Formats, Scan, ScanOptions, Source};

    /// What a table scan gives: its batches, its notes, the games and problems it counted.
    type Scanned = (Vec<RecordBatch>, Vec<String>, u64, u64, u64);

    fn scan(source: Source, spec: &TableSpec, threads: usize, piece: usize) -> Scanned {
        let mut options = ScanOptions::with_threads(threads);
        options.piece_size = piece;
        if piece < 100 {
            // comments read in pieces
            options.read_size = 7;
        }
        let scan = Scan::new(source, Formats::ANY).with_options(options);
        let (mut batches, mut notes) = (Vec::new(), Vec::new());
        let done = super::super::scan_table(
            scan,
            spec,
            |_, b| {
                batches.push(b);
                true
            },
            |n| notes.push(format!("{n:?}")),
        );
        let s = &done.scanned;
        (batches, notes, s.games, done.rows, done.left_out)
    }

    /// The same scan by the events and by games built: every batch equal, column by column.
    fn same(source: &dyn Fn() -> Source, spec: &TableSpec, threads: usize, piece: usize) -> u64 {
        let mut dom = spec.clone();
        dom.positions_from_events = false;
        assert!(from_events(spec), "the spec takes the events path");
        let mut a = scan(source(), spec, threads, piece);
        let mut b = scan(source(), &dom, 1, 1 << 20);
        if !spec.tests.is_empty() {
            // a game that fails a -w test on its tags is skipped unread by the events, built
            // (and so cut at the limit) by the DOM: only the DOM names it cut
            let cut = |n: &String| n.starts_with("Cut ");
            b.1.retain(|n| !cut(n) || a.1.contains(n));
            a.1.retain(|n| !cut(n) || b.1.contains(n));
        }
        assert_eq!(a.1, b.1, "notes");
        assert_eq!((a.2, a.3, a.4), (b.2, b.3, b.4), "games, rows, left out");
        assert_eq!(a.0.len(), b.0.len(), "batches");
        for (x, y) in a.0.iter().zip(&b.0) {
            assert_eq!(x.schema(), y.schema());
            for (k, (p, q)) in x.columns().iter().zip(y.columns()).enumerate() {
                assert_eq!(
                    p.to_data(),
                    q.to_data(),
                    "column {}",
                    x.schema().field(k).name()
                );
            }
        }
        a.3
    }

    /// Games that try the DOM's every corner: comments in pieces and around variations, NAGs,
    /// null and illegal moves, FEN and Variant tags, results that disagree, text that is not
    /// UTF-8, problems before the first game and between games.
    fn tricky() -> Vec<u8> {
        let mut v: Vec<u8> = Vec::new();
        v.extend_from_slice(b"junk ) before {\n} 1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n\n");
        v.extend_from_slice(
            b"[Event \"a\"]\n[WhiteElo \"2100\"]\n[BlackElo \"x\"]\n[TimeControl \"180+2\"]\n\
              [Result \"1-0\"]\n\n1. d4 {[%clk 0:03:00]} d5 $1 {[%eval 0.3] [%clk 0:02:59]} \
              2. c4 ) e6 {a} {[%clk 0:09:09] [%eval -9.9] [%clk 0:08:08]} (2... c6 {[%clk 0:01:00]} 3. Nc3) {[%eval #-3]} 3. Nc3 Nf6 0-1\n\n",
        );
        v.extend_from_slice(
            b"[Event \"b\"]\n[Result \"*\"]\n{pre} 1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 {x} \
              3. Bb5 a6 1-0\n\n[FEN \"8/8/8/8/8/5k2/8/4K2R w K - 0 1\"]\n\n1. O-O Ke2 2. Rf2+ *\n\n",
        );
        v.extend_from_slice(
            b"[Event \"c\"]\n[WhiteElo \"2500\"]\n[WhiteElo \"1000\"]\n\n1. e4 e5 2. Ke3 {gone} \
              Nc6 3. Nf3 Nf6 *\n\n[Variant \"Crazyhouse\"]\n\n1. e4 *\n\n\
              [Variant \"Chess960\"]\n[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n\n\
              9. g3 d5 *\n\n[FEN \"not a fen\"]\n\n1. e4 *\n\n",
        );
        v.extend_from_slice(b"[White \"\xff\xfe\"]\n[Result \"0-1\"]\n\n1. e4 {\xe9t\xe9 [%clk 0:00:01]} -- 2. d4 -- 3. Nf3 {; not} \n% escape\ne5 1/2-1/2\n\n");
        v.extend_from_slice(b"[Result \"1/2-1/2\"]\n\n1. e4 Nf6 2. e5 Ng4 3. e6 Nxe5 4. Nf3 Nbc6 ; line comment [%clk 0:01:02]\n5. Nxe5 Nxe5 *\n\n");
        v.extend_from_slice(
            b"1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n1. e4 {open to the end",
        );
        v
    }

    fn spec(f: impl FnOnce(&mut TableSpec)) -> TableSpec {
        let mut s = TableSpec::by_name("positions").expect("a table");
        s.batch_rows = 5;
        f(&mut s);
        s
    }

    fn specs() -> Vec<TableSpec> {
        let some = |c: &str| Some(c.split(',').map(String::from).collect::<Vec<_>>());
        vec![
            spec(|_| {}),
            spec(|s| s.columns = some("game_index,ply,bitboards")),
            spec(|s| s.columns = some("ply,san,clock,eval_cp,eval_mate,score,error")),
            spec(|s| {
                s.options.positions = PositionOptions {
                    min_ply: 2,
                    max_ply: Some(4),
                    legal_only: true,
                    ..PositionOptions::default()
                }
            }),
            spec(|s| {
                s.options.positions = PositionOptions {
                    sample: Sample::new(0.5, 3),
                    distinct: Some(Distinct::default()),
                    ..PositionOptions::default()
                };
                s.columns = some("game_index,ply,score,clock");
            }),
            spec(|s| {
                s.tests = vec![
                    "WhiteElo>=2000 or Event=b".parse().unwrap(),
                    "speed!=bullet".parse().unwrap(),
                ]
            }),
        ]
    }

    #[test]
    fn the_events_make_the_rows_of_the_games_built() {
        let data = tricky();
        let source = || Source::Bytes {
            name: "t.pgn".into(),
            data: data.clone(),
        };
        let mut rows = 0;
        for s in specs() {
            for max in [usize::MAX, 1000, 400, 120, 40] {
                let mut s = s.clone();
                s.max_game_bytes = max;
                for (threads, piece) in [(1, 1 << 20), (1, 64), (2, 64), (3, 200)] {
                    rows += same(&source, &s, threads, piece);
                }
            }
        }
        assert!(rows > 500, "{rows}");
    }

    #[test]
    fn a_test_on_the_moves_builds_the_games() {
        for t in ["plies>10", "result=1-0", "winner=white", "opening_eco=C20"] {
            let s = spec(|s| s.tests = vec![t.parse().unwrap()]);
            assert!(!from_events(&s), "{t}");
        }
        assert!(from_events(&spec(
            |s| s.tests = vec!["year>=2000".parse().unwrap()]
        )));
        assert!(!from_events(&spec(|s| s.positions_from_events = false)));
        let games = TableSpec::by_name("games").unwrap();
        assert!(!from_events(&games));
    }

    /// The corpus's PGN files (under `$KIFU_SHARED/corpus/pgn/small`), when it is there.
    #[test]
    fn the_events_make_the_rows_of_the_games_built_on_the_corpus() {
        let Some(root) = std::env::var_os("KIFU_SHARED") else {
            eprintln!("KIFU_SHARED is not set: skipped");
            return;
        };
        let dir = PathBuf::from(root).join("corpus/pgn/small");
        if !dir.is_dir() {
            eprintln!("{}: not there, skipped", dir.display());
            return;
        }
        let source = || Source::Paths(vec![dir.clone()]);
        let mut big = spec(|_| {});
        big.batch_rows = 8192;
        let mut rows = same(&source, &big, 2, 256 << 10);
        for s in specs().into_iter().skip(1) {
            let mut s = s.clone();
            s.batch_rows = 1000;
            rows += same(&source, &s, 2, 64 << 10);
        }
        let mut cut = spec(|_| {});
        cut.max_game_bytes = 3000;
        rows += same(&source, &cut, 1, 1 << 20);
        assert!(rows > 1_000_000, "{rows}");
    }
}
