//! [`GamesVisitor`]: the PGN `games` table built while the parser reads.

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use kifu::Control;
use kifu::pgn::{self, Comment, Context, Move, Nag, NagForm, Outcome, Tag, Visitor};

use crate::{Builder, Table, TableOptions};

/// A [`kifu::pgn::Visitor`] that builds the PGN `games` table ([`Table::PgnGames`]) while the
/// parser reads: the events go to a [`kifu::pgn::GameBuilder`], and each game, once it is
/// over, becomes a row of a [`Builder`] and is handed back to the game builder
/// ([`GameBuilder::recycle`](kifu::pgn::GameBuilder::recycle)), the next game built in its
/// room: no allocation per game, move or comment once the buffers have grown.
///
/// The rows are those the [`Builder`] makes from the games of [`kifu::pgn::Games`] (with the
/// same [`max_game_bytes`](GamesVisitor::with_max_game_bytes)). Batches end every
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
    /// Builds each game from the events.
    dom: pgn::GameBuilder,
    /// The rows of the open batch.
    table: Builder,
    batch_rows: usize,
    batch_bytes: usize,
    batches: Vec<RecordBatch>,
    games: u64,
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
            dom: pgn::GameBuilder::new(),
            table: Builder::new(Table::PgnGames, opts),
            batch_rows: Self::DEFAULT_BATCH_ROWS,
            batch_bytes: Self::DEFAULT_BATCH_BYTES,
            batches: Vec::new(),
            games: 0,
        }
    }

    /// Bounds the memory of each game: [`kifu::pgn::GameBuilder::with_max_game_bytes`] (the
    /// same estimate, the same cut, the same `game_too_large` error): a game is read as far as
    /// the limit, the rest of it skipped.
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
        self.dom = std::mem::take(&mut self.dom).with_max_game_bytes(max);
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
        self.table.schema()
    }

    /// The games read (rows made) since the visitor was made.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The rows of the open batch.
    pub fn rows(&self) -> usize {
        self.table.rows()
    }

    /// About the bytes the rows of the open batch hold.
    pub fn estimated_bytes(&self) -> usize {
        self.table.estimated_bytes()
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
        self.table.finish()
    }

    /// The batches ended so far, and the rows of the open batch as a last one (when it holds
    /// any).
    pub fn take_batches(&mut self) -> Vec<RecordBatch> {
        self.flush();
        std::mem::take(&mut self.batches)
    }

    fn flush(&mut self) {
        if self.table.rows() > 0 {
            let batch = self.finish();
            self.batches.push(batch);
        }
    }

    /// The rows of the games the game builder finished; each game is handed back to it.
    fn rows_of_finished_games(&mut self) {
        while let Some(game) = self.dom.pop() {
            self.table
                .push_pgn(&self.file, &game)
                .expect("the games table takes PGN games");
            self.dom.recycle(game);
            self.games += 1;
            if self.table.rows() >= self.batch_rows
                || self.table.estimated_bytes() >= self.batch_bytes
            {
                self.flush();
            }
        }
    }
}

impl Visitor for GamesVisitor {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        self.dom.on_tree(ctx)
    }

    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        let control = self.dom.on_tree_end(ctx);
        if !ctx.in_variation() {
            self.rows_of_finished_games();
        }
        control
    }

    fn on_property(&mut self, ctx: &Context, tag: &Tag<'_>) -> Control {
        self.dom.on_property(ctx, tag)
    }

    fn on_tags_end(&mut self, ctx: &Context) -> Control {
        self.dom.on_tags_end(ctx)
    }

    fn on_move(&mut self, ctx: &Context, mv: &Move<'_>) -> Control {
        self.dom.on_move(ctx, mv)
    }

    fn on_nag(&mut self, ctx: &Context, nag: Nag, form: NagForm) -> Control {
        self.dom.on_nag(ctx, nag, form)
    }

    fn on_comment(&mut self, ctx: &Context, c: &Comment<'_>) -> Control {
        self.dom.on_comment(ctx, c)
    }

    fn on_result(&mut self, ctx: &Context, outcome: Outcome) -> Control {
        self.dom.on_result(ctx, outcome)
    }

    fn on_error(&mut self, e: &pgn::Error<'_>) -> Control {
        self.dom.on_error(e)
    }

    fn on_end(&mut self) {
        self.dom.on_end();
        self.rows_of_finished_games();
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
    fn problems_before_the_first_game_go_to_it() {
        let b = batch(b"oh? )\n[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n");
        let count = b
            .column_by_name("error_count")
            .unwrap()
            .as_primitive::<Int32Type>();
        assert_eq!((count.value(0), count.value(1)), (2, 0));
        let index = b
            .column_by_name("game_index")
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
