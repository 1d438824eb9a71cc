//! [`GamesVisitor`]: the PGN `games` table built straight from the parser's events.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::mem::size_of;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use kifu::pgn::{
    self, Comment, CommentKind, Context, ErrorKind, GameError, Move, MoveRef, Nag, NagForm,
    Outcome, Tag, Visitor,
};
use kifu::{Control, Position};

use crate::cols::ErrorRow;
use crate::flat::{FError, Flat};
use crate::flat_writer::{self, Layout};
use crate::pgn_games::{GameColumns, MoveData};
use crate::{Table, TableOptions, schema};

// What the library's `Game::estimated_bytes` counts per item: the builder's limit is checked
// against the same sums, so that a game is cut where `GameBuilder` cuts it.
const TAG_BYTES: usize = size_of::<(String, String)>();
const STRING_BYTES: usize = size_of::<String>();
const NODE_BYTES: usize = size_of::<pgn::Node>();
const NAG_BYTES: usize = size_of::<Nag>();
const VARIATION_BYTES: usize = size_of::<pgn::Variation>();
const ERROR_BYTES: usize = size_of::<GameError>();

/// A [`kifu::pgn::Visitor`] that builds the PGN `games` table ([`Table::PgnGames`]) from the
/// parser's events, without a DOM: tags go to their columns, moves to the SAN list, clocks and
/// evaluations are read from the comments' `[%clk]` / `[%eval]`, and the movetext is written
/// from one game held flat in reused buffers.
///
/// The rows are those the DOM [`Builder`](crate::Builder) makes from the games of
/// [`kifu::pgn::GameBuilder`] (with the same
/// [`max_game_bytes`](GamesVisitor::with_max_game_bytes)): the same values, at a fraction of
/// the cost (no allocation per game, move or comment). Batches end every
/// [`batch_rows`](GamesVisitor::with_batch_size) rows (or sooner at `batch_bytes` of built
/// rows), and at the end of the input ([`Visitor::on_end`]).
///
/// ```
/// use kifu_export::{GamesVisitor, TableOptions};
/// use arrow_array::cast::AsArray;
///
/// let pgn = b"[White \"Tal\"]\n\n1. e4 {[%clk 0:03:00]} e5 1-0\n\n1. d4 *\n";
/// let mut v = GamesVisitor::new("tal.pgn", &TableOptions::default());
/// kifu::pgn::parse(pgn, &mut v);
/// let batches = v.take_batches();
/// assert_eq!(batches.len(), 1);
/// let movetext = batches[0].column_by_name("movetext").unwrap().as_string::<i32>();
/// assert_eq!(movetext.value(0), "1. e4 {[%clk 0:03:00]} 1... e5 1-0");
/// assert_eq!(movetext.value(1), "1. d4 *");
/// ```
#[derive(Debug)]
pub struct GamesVisitor {
    file: String,
    layout: Layout,
    schema: SchemaRef,
    columns: GameColumns,
    flat: Flat,
    /// A game is open (the library builder's `game.is_some()`).
    open: bool,
    index: u64,
    offset: u64,
    errors_dropped: u64,
    /// The comment being assembled from its pieces.
    comment: Vec<u8>,
    max_game_bytes: usize,
    /// The estimate of what the open game holds.
    bytes: usize,
    /// The open game reached the limit: the rest of it is skipped.
    full: bool,
    /// Problems met before the first game, for it.
    pending: Vec<GameError>,
    pending_bytes: usize,
    pending_full: bool,
    pending_dropped: u64,
    batch_rows: usize,
    batch_bytes: usize,
    batches: Vec<RecordBatch>,
    games: u64,
    scratch: Scratch,
}

/// Buffers reused from row to row.
#[derive(Debug, Default)]
struct Scratch {
    movetext: String,
    writer: flat_writer::Buffers,
    data: Vec<MoveData>,
    message: String,
    at: String,
}

/// `b` as text, U+FFFD for what is not UTF-8 (`String::from_utf8_lossy`, after the faster
/// check of valid text: it allocates only for text that is not UTF-8).
fn lossy(b: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(b) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(b),
    }
}

/// The answer to the parser for an item of a game.
fn go_on(kept: bool) -> Control {
    if kept {
        Control::Continue
    } else {
        Control::SkipGame
    }
}

impl GamesVisitor {
    /// The default of [`with_batch_size`](Self::with_batch_size): 8,192 rows.
    pub const DEFAULT_BATCH_ROWS: usize = 8192;
    /// The default of [`with_batch_size`](Self::with_batch_size): 16 MiB.
    pub const DEFAULT_BATCH_BYTES: usize = 16 << 20;

    /// A visitor building `games` rows of games read from `file` (the `file` column), with
    /// the layout of `opts.movetext_width` (the other options are those of other tables).
    pub fn new(file: &str, opts: &TableOptions) -> GamesVisitor {
        GamesVisitor {
            file: file.to_owned(),
            layout: Layout::new(opts.movetext_width),
            schema: schema(Table::PgnGames, opts),
            columns: GameColumns::new(),
            flat: Flat::default(),
            open: false,
            index: 0,
            offset: 0,
            errors_dropped: 0,
            comment: Vec::new(),
            max_game_bytes: pgn::GameBuilder::DEFAULT_MAX_GAME_BYTES,
            bytes: 0,
            full: false,
            pending: Vec::new(),
            pending_bytes: 0,
            pending_full: false,
            pending_dropped: 0,
            batch_rows: Self::DEFAULT_BATCH_ROWS,
            batch_bytes: Self::DEFAULT_BATCH_BYTES,
            batches: Vec::new(),
            games: 0,
            scratch: Scratch::default(),
        }
    }

    /// Bounds the memory of each game as [`kifu::pgn::GameBuilder::with_max_game_bytes`] does
    /// (the same estimate, the same cut, the same `game_too_large` error): a game is read as
    /// far as the limit, the rest of it skipped.
    ///
    /// ```
    /// use kifu_export::{GamesVisitor, TableOptions};
    /// use arrow_array::cast::AsArray;
    ///
    /// let mut pgn = b"[Event \"long\"]\n\n".to_vec();
    /// pgn.extend(b"Nf3 Nf6 Ng1 Ng8 ".repeat(1000));
    /// pgn.extend(b"*\n\n[Event \"next\"]\n\n1. e4 *\n");
    /// let mut v = GamesVisitor::new("f.pgn", &TableOptions::default())
    ///     .with_max_game_bytes(10_000);
    /// kifu::pgn::parse(&pgn, &mut v);
    /// let batch = &v.take_batches()[0];
    /// let errors = batch.column_by_name("errors").unwrap().as_list::<i32>().value(0);
    /// let kind = errors.as_struct().column_by_name("kind").unwrap().as_string::<i32>().value(0);
    /// assert_eq!(kind, "game_too_large");
    /// assert_eq!(batch.num_rows(), 2); // the next game is read as usual
    /// ```
    pub fn with_max_game_bytes(mut self, max: usize) -> GamesVisitor {
        self.max_game_bytes = max;
        self
    }

    /// A batch ends when it holds `rows` rows, or sooner when its rows hold about `bytes`
    /// bytes ([`Builder::estimated_bytes`](crate::Builder::estimated_bytes)'s estimate).
    /// Defaults: [`DEFAULT_BATCH_ROWS`](Self::DEFAULT_BATCH_ROWS),
    /// [`DEFAULT_BATCH_BYTES`](Self::DEFAULT_BATCH_BYTES).
    ///
    /// ```
    /// use kifu_export::{GamesVisitor, TableOptions};
    /// let mut v = GamesVisitor::new("f.pgn", &TableOptions::default())
    ///     .with_batch_size(2, 1 << 20);
    /// kifu::pgn::parse(b"1. e4 *\n\n1. d4 *\n\n1. c4 *\n", &mut v);
    /// let rows: Vec<usize> = v.take_batches().iter().map(|b| b.num_rows()).collect();
    /// assert_eq!(rows, [2, 1]);
    /// assert_eq!(v.games(), 3);
    /// ```
    pub fn with_batch_size(mut self, rows: usize, bytes: usize) -> GamesVisitor {
        self.batch_rows = rows.max(1);
        self.batch_bytes = bytes;
        self
    }

    /// The schema of the batches.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// The games read (rows made) since the visitor was made.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The rows of the open batch.
    pub fn rows(&self) -> usize {
        self.columns.rows()
    }

    /// About the bytes the rows of the open batch hold.
    pub fn estimated_bytes(&self) -> usize {
        self.columns.estimated_bytes()
    }

    /// The rows of the open batch as a batch (possibly empty); a new batch is opened. The
    /// batches ended before stay for [`take_batches`](Self::take_batches).
    ///
    /// ```
    /// use kifu_export::{GamesVisitor, TableOptions};
    /// let mut v = GamesVisitor::new("f.pgn", &TableOptions::default());
    /// let mut parser = kifu::pgn::Parser::new();
    /// let _ = parser.feed(b"1. e4 *\n\n1. d", &mut v);
    /// assert_eq!(v.rows(), 1); // the first game is over, the second not yet
    /// assert_eq!(v.finish().num_rows(), 1);
    /// parser.finish(&mut v);
    /// assert_eq!(v.take_batches()[0].num_rows(), 1);
    /// ```
    pub fn finish(&mut self) -> RecordBatch {
        RecordBatch::try_new(self.schema.clone(), self.columns.finish())
            .expect("the columns match the schema")
    }

    /// The batches ended so far, and the rows of the open batch as a last one (when it holds
    /// any).
    pub fn take_batches(&mut self) -> Vec<RecordBatch> {
        self.flush();
        std::mem::take(&mut self.batches)
    }

    fn flush(&mut self) {
        if self.columns.rows() > 0 {
            let batch = self.finish();
            self.batches.push(batch);
        }
    }

    /// Whether `extra` more bytes fit the open game. If not, the game is full: the error that
    /// says so is added (once). `at`: the last move before the item.
    fn fits(&mut self, pos: Position, at: Option<MoveRef>, extra: usize) -> bool {
        if self.full {
            return false;
        }
        if self.bytes.saturating_add(extra) <= self.max_game_bytes {
            self.bytes += extra;
            return true;
        }
        self.full = true;
        self.comment.clear();
        if self.open {
            self.bytes += ERROR_BYTES;
            self.flat.errors.push(FError {
                kind: ErrorKind::GameTooLarge,
                severity: ErrorKind::GameTooLarge.severity(),
                text: Default::default(),
                pos,
                at,
            });
        }
        false
    }

    /// The row of the game just ended.
    fn row(&mut self) {
        let flat = &self.flat;
        let c = &mut self.columns;
        let s = &mut self.scratch;
        c.key(&self.file, self.index, self.offset);
        c.tags(flat.tags.len(), |k| {
            let (name, value) = flat.tags[k];
            (flat.str(name), flat.str(value))
        });
        flat_writer::movetext(self.layout, flat, &mut s.movetext, &mut s.writer);
        c.movetext(&s.movetext);
        s.data.clear();
        // clocks and evals live in comments: a game without comments has neither
        let mut plies = 0;
        let mut commented = false;
        for node in flat.main_line() {
            plies += 1;
            commented |= !node.comments.is_empty();
        }
        if commented {
            s.data.extend(
                flat.main_line()
                    .map(|n| MoveData::of_comments(flat.comment_texts(n.comments))),
            );
        }
        c.moves(flat.main_line().map(|n| flat.str(n.text)), &s.data);
        c.plies_outcome(plies, flat.termination());
        for e in &flat.errors {
            s.message.clear();
            let _ = write!(s.message, "{}", e.kind);
            s.at.clear();
            if let Some(at) = e.at {
                let _ = write!(s.at, "{at}");
            }
            c.errors.push(ErrorRow {
                kind: e.kind.code(),
                severity: e.severity.as_str(),
                message: &s.message,
                text: flat.str(e.text),
                pos: e.pos,
                at_move: e.at.map(|_| s.at.as_str()),
                at_node: None,
            });
        }
        c.errors
            .end_row(flat.errors.len() as u64 + self.errors_dropped);
        self.games += 1;
        if self.columns.rows() >= self.batch_rows
            || self.columns.estimated_bytes() >= self.batch_bytes
        {
            self.flush();
        }
    }
}

impl Visitor for GamesVisitor {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        if ctx.is_main_line() {
            self.flat.clear();
            self.index = ctx.game;
            self.offset = ctx.pos.offset;
            // problems before the first game go to it
            for e in std::mem::take(&mut self.pending) {
                let text = self.flat.add(&e.text);
                self.flat.errors.push(FError {
                    kind: e.kind,
                    severity: e.severity,
                    text,
                    pos: e.pos,
                    at: e.at,
                });
            }
            self.errors_dropped = std::mem::take(&mut self.pending_dropped);
            self.pending_bytes = 0;
            self.pending_full = false;
            self.bytes = 0;
            self.full = false;
            self.open = true;
        }
        self.flat.open_line();
        if ctx.in_variation() && self.full {
            return Control::SkipGame;
        }
        Control::Continue
    }

    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        if ctx.in_variation() {
            let mut kept = true;
            if self.flat.lines.len() > 1 {
                let line = self.flat.lines.pop().expect("a variation is open");
                if self.flat.line_has_move() {
                    // a full game keeps the variations open when it was cut: they hold what
                    // was read of them
                    if self.full {
                        self.bytes += VARIATION_BYTES;
                    } else {
                        kept = self.fits(ctx.pos, ctx.last_move(), VARIATION_BYTES);
                    }
                    if kept {
                        self.flat.attach_variation(line);
                    }
                }
            }
            return go_on(kept);
        }
        if !self.open {
            // an end without a start: a game of the defaults, as the library's builder makes
            self.index = 0;
            self.offset = 0;
            self.errors_dropped = 0;
        }
        self.open = false;
        self.flat.end();
        self.comment.clear();
        self.row();
        self.flat.clear();
        Control::Continue
    }

    fn on_property(&mut self, ctx: &Context, tag: &Tag<'_>) -> Control {
        if !self.open {
            return Control::Continue;
        }
        let name = lossy(tag.name);
        let value = tag.value.decode_utf8_lossy();
        let kept = self.fits(ctx.pos, None, TAG_BYTES + name.len() + value.len());
        if kept {
            let name = self.flat.add(&name);
            let value = self.flat.add(&value);
            self.flat.tags.push((name, value));
        }
        go_on(kept)
    }

    fn on_tags_end(&mut self, _: &Context) -> Control {
        go_on(!self.full)
    }

    fn on_move(&mut self, ctx: &Context, mv: &Move<'_>) -> Control {
        let before = MoveRef::from_ply(ctx.ply.saturating_sub(1));
        let text = lossy(mv.text);
        if !self.fits(ctx.pos, before, NODE_BYTES + text.len()) {
            return Control::SkipGame;
        }
        let text = self.flat.add(&text);
        self.flat.push_move(mv.san, text, ctx.in_variation());
        Control::Continue
    }

    fn on_nag(&mut self, ctx: &Context, nag: Nag, _: NagForm) -> Control {
        if !self.flat.line_has_move() {
            return go_on(!self.full);
        }
        if !self.fits(ctx.pos, ctx.last_move(), NAG_BYTES) {
            return Control::SkipGame;
        }
        self.flat.push_nag(nag);
        Control::Continue
    }

    fn on_comment(&mut self, ctx: &Context, c: &Comment<'_>) -> Control {
        if c.kind == CommentKind::Escape {
            return Control::Continue;
        }
        if self.full {
            return Control::SkipGame;
        }
        if c.first {
            self.comment.clear();
        }
        // the pieces so far count against the limit, so that one endless comment cannot grow
        // without bound
        let piece = c.text.as_bytes();
        let so_far = STRING_BYTES + self.comment.len() + piece.len();
        if self.bytes.saturating_add(so_far) > self.max_game_bytes {
            self.fits(ctx.pos, ctx.last_move(), so_far);
            return Control::SkipGame;
        }
        if c.first && c.last {
            // a comment in one piece (the usual): straight to the game's text
            let text = lossy(piece);
            if !self.fits(ctx.pos, ctx.last_move(), STRING_BYTES + text.len()) {
                return Control::SkipGame;
            }
            let text = self.flat.add(&text);
            self.flat.push_comment(text);
            return Control::Continue;
        }
        self.comment.extend_from_slice(piece);
        if c.last {
            let comment = std::mem::take(&mut self.comment);
            let text = String::from_utf8_lossy(&comment);
            let fits = self.fits(ctx.pos, ctx.last_move(), STRING_BYTES + text.len());
            if fits {
                let text = self.flat.add(&text);
                self.flat.push_comment(text);
            }
            self.comment = comment;
            self.comment.clear();
            if !fits {
                return Control::SkipGame;
            }
        }
        Control::Continue
    }

    fn on_result(&mut self, ctx: &Context, outcome: Outcome) -> Control {
        if ctx.is_main_line() && self.open {
            self.flat.result = Some(outcome);
        }
        Control::Continue
    }

    fn on_error(&mut self, e: &pgn::Error<'_>) -> Control {
        let text = String::from_utf8_lossy(e.text);
        let size = ERROR_BYTES + text.len();
        if !self.open {
            // before the first game: for it, within a budget of their own
            if self.pending_bytes + size <= self.max_game_bytes {
                self.pending_bytes += size;
                self.pending.push(GameError::from_event(e));
            } else {
                self.pending_dropped += 1;
                if !self.pending_full {
                    self.pending_full = true;
                    self.pending_bytes += ERROR_BYTES;
                    self.pending.push(GameError {
                        kind: ErrorKind::GameTooLarge,
                        severity: ErrorKind::GameTooLarge.severity(),
                        text: String::new(),
                        truncated: false,
                        pos: e.pos,
                        at: None,
                    });
                }
            }
            return Control::Continue;
        }
        let kept = if self.full {
            e.kind == ErrorKind::UnterminatedComment
        } else {
            self.fits(e.pos, e.at, size)
        };
        if kept {
            if self.full {
                self.bytes += size;
            }
            let text = self.flat.add(&text);
            self.flat.errors.push(FError {
                kind: e.kind,
                severity: e.severity,
                text,
                pos: e.pos,
                at: e.at,
            });
        } else {
            self.errors_dropped += 1;
        }
        Control::Continue
    }

    fn on_end(&mut self) {
        self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Int32Type, Int64Type};

    fn batch(pgn: &[u8]) -> RecordBatch {
        let mut v = GamesVisitor::new("t.pgn", &TableOptions::default());
        pgn::parse(pgn, &mut v);
        let mut batches = v.take_batches();
        assert!(batches.len() <= 1);
        batches.pop().unwrap_or_else(|| v.finish())
    }

    #[test]
    fn lossy_text() {
        assert!(matches!(lossy(b"e4"), Cow::Borrowed("e4")));
        assert_eq!(lossy(b"e\xff4"), "e\u{fffd}4");
    }

    #[test]
    fn problems_before_the_first_game_go_to_it() {
        let b = batch(b"oh? )\n[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n");
        let count = b
            .column_by_name("error_count")
            .unwrap()
            .as_primitive::<Int32Type>();
        assert_eq!((count.value(0), count.value(1)), (2, 0));
        let index = b
            .column_by_name("index")
            .unwrap()
            .as_primitive::<Int64Type>();
        assert_eq!((index.value(0), index.value(1)), (0, 1));
    }

    #[test]
    fn no_game_no_row() {
        assert_eq!(batch(b"").num_rows(), 0);
        assert_eq!(batch(b"just text\n").num_rows(), 0);
    }

    #[test]
    fn main_line_data() {
        let b = batch(b"1. e4 {[%clk 0:01:00] [%eval #-3]} (1. d4 {[%clk 0:00:01]}) e5 *");
        let moves = b.column_by_name("moves").unwrap().as_list::<i32>().value(0);
        let moves: Vec<_> = moves.as_string::<i32>().iter().flatten().collect();
        assert_eq!(moves, ["e4", "e5"]);
        let clocks = b
            .column_by_name("clocks")
            .unwrap()
            .as_list::<i32>()
            .value(0);
        let clocks = clocks.as_primitive::<arrow_array::types::Float64Type>();
        assert_eq!((clocks.value(0), clocks.is_null(1)), (60.0, true));
        let plies = b
            .column_by_name("plies")
            .unwrap()
            .as_primitive::<Int32Type>();
        assert_eq!(plies.value(0), 2);
    }
}
