//! The tables of `kifu-export` built on a scan's threads: each piece's games become Arrow
//! record batches on the worker that read them; in input order, the batches are rebased to
//! their input's game numbers and cut again to a fixed number of rows, so that every thread
//! count and every piece size gives the same batches. [`scan_table`] hands them to a consumer
//! (Python's Arrow stream), [`scan_table_on`] too with the pieces read on threads a host lends
//! (DuckDB's); [`export`] writes them safely to Parquet, CSV or JSON Lines (the `kifu export`
//! command and `kifu.to_parquet` run this one function), or to NumPy arrays (one array file or
//! directory takes the batches as the workers made them, in order: its bytes depend on the
//! rows alone, not on the batches).
//!
//! With one thread, each input is read straight through by one visitor: its batches are handed
//! on as they are made, so that memory stays bounded by a batch, not by the input.
//!
//! # Example
//!
//! ```
//! use kifu_export::{OutFormat, SinkOptions};
//! use kifu_pipeline::tables::{self, TableSpec};
//! use kifu_pipeline::{Formats, Scan, Source};
//!
//! let pgn = b"[White \"Tal\"]\n\n1. e4 e5 1-0\n\n[White \"Fischer\"]\n\n1. c4 *\n".to_vec();
//! let dir = tempfile::tempdir().unwrap();
//! let out = dir.path().join("games.parquet");
//! let scan = Scan::new(Source::Bytes { name: "two.pgn".into(), data: pgn }, Formats::ANY);
//! let spec = TableSpec::by_name("games").unwrap();
//! let done = tables::export(scan, &spec, &out, OutFormat::Parquet, &SinkOptions::default(), |_| {})
//!     .unwrap();
//! assert_eq!((done.summary.rows, done.scan.scanned.games), (2, 2));
//! ```

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{BooleanArray, RecordBatch};
use kifu::par::{Event, Visited};
use kifu::{Format, pgn, sgf};
use kifu_export::{
    Buffers, Builder, DistinctKeys, OutFormat, Shift, Sink, SinkOptions, Summary, Table,
    TableOptions,
};

use crate::{DomScope, Input, Note, PerGame, PieceWork, Scan, Scanned};

mod positions_events;
pub use positions_events::{Events, PgnPiece, TableWork};

/// The batches of a table scan waiting to make a batch of `batch_rows` are put together every
/// this many (and those `kifu.positions` holds until they come to its group of rows), so that
/// many small batches do not each hold arrays of their own.
pub const COMPACT_EVERY: usize = 64;

/// The piece size of a scan building a positions table (`kifu export --table positions`
/// unless `--piece-size` says otherwise, `kifu.to_arrow` and `kifu.to_parquet`): a position
/// is a row of about 300 bytes, so that a piece of 1 MiB of games is some 20 MiB of rows, and
/// 2N + 2 pieces are in flight (docs/figures.md § Every command in constant memory).
pub const POSITIONS_PIECE_SIZE: usize = 256 << 10;

/// What table to build, and how.
#[derive(Clone, Debug)]
pub struct TableSpec {
    /// The table PGN games go to (`None`: PGN inputs are left out, with a note).
    pub pgn: Option<Table>,
    /// The table SGF game trees go to (`None`: SGF inputs are left out, with a note).
    pub sgf: Option<Table>,
    /// The tables' options (variations in `moves`, SGF charset, movetext width).
    pub options: TableOptions,
    /// PGN games replayed on a board: `games` gains `final_fen`, `moves` gains `uci`, `fen`
    /// and `key` (the Polyglot key).
    pub replay: bool,
    /// The DOM builders' limit on one game.
    pub max_game_bytes: usize,
    /// Rows per batch handed on (the last batch may hold fewer).
    pub batch_rows: usize,
    /// Bytes per batch handed on: a batch also ends at the row that brings it to this many
    /// bytes of row data ([`row_bytes`]: text and values, counted row by row, so that the cut
    /// depends on the rows alone, the same at every thread count), and a worker's batch once
    /// its builder holds this many. Rows of any size are then held a budget at a time, not
    /// [`batch_rows`](Self::batch_rows) at a time (400 rows of 1 MiB each: 8 MiB, not
    /// 400). Default [`DEFAULT_BATCH_BYTES`](Self::DEFAULT_BATCH_BYTES).
    pub batch_bytes: usize,
    /// The columns kept, in the table's order (`None`: every column). The work of the columns
    /// left out is not done where that pays (PGN `games` without `movetext` or the move lists;
    /// with keys and tags only, the movetext is not even read: the parser skips it; `--replay`
    /// without its columns).
    pub columns: Option<Vec<String>>,
    /// Only the games that pass every test (`kifu export -w`; each [`AnyOf`](crate::keys::AnyOf)
    /// one of whose tests must hold), as `kifu filter -w` keeps them. Default: every game.
    pub tests: Vec<crate::keys::AnyOf>,
    /// The PGN `positions` table made from the parser's events, each game replayed as its
    /// moves come, no game built (default `true`; `-w` tests on the moves, `plies`,
    /// `result`, `winner` or the opening, build each game anyway): the same rows as `false`,
    /// which builds each game first.
    pub positions_from_events: bool,
}

impl TableSpec {
    /// Whether a positions table is built ([`POSITIONS_PIECE_SIZE`] is its scan's piece size).
    pub fn builds_positions(&self) -> bool {
        self.pgn == Some(Table::PgnPositions) || self.sgf == Some(Table::SgfPositions)
    }

    /// The default rows per batch: 8,192.
    pub const DEFAULT_BATCH_ROWS: usize = 8192;

    /// The default bytes per batch: 8 MiB (moves and positions fill their 8,192 rows well
    /// before that; games with long movetext, and the `json` table, may not: their batches are
    /// then shorter).
    pub const DEFAULT_BATCH_BYTES: usize = 8 << 20;

    /// The tables a name gives, with the default options: `games` (PGN `games`, SGF `trees`),
    /// `trees` (the same), `moves`, `positions` (PGN's and SGF's) or `json` (the `kifu json`
    /// objects).
    pub fn by_name(name: &str) -> Option<TableSpec> {
        let (pgn, sgf) = (Table::by_name(name, false), Table::by_name(name, true));
        (pgn.is_some() || sgf.is_some()).then(|| TableSpec::of(pgn, sgf))
    }

    /// The spec of one table only (inputs of the other format are left out).
    pub fn only(table: Table) -> TableSpec {
        if table.is_sgf() {
            TableSpec::of(None, Some(table))
        } else {
            TableSpec::of(Some(table), None)
        }
    }

    fn of(pgn: Option<Table>, sgf: Option<Table>) -> TableSpec {
        TableSpec {
            pgn,
            sgf,
            options: TableOptions::default(),
            replay: false,
            max_game_bytes: pgn::GameBuilder::DEFAULT_MAX_GAME_BYTES,
            batch_rows: TableSpec::DEFAULT_BATCH_ROWS,
            batch_bytes: TableSpec::DEFAULT_BATCH_BYTES,
            columns: None,
            tests: Vec::new(),
            positions_from_events: true,
        }
    }

    /// Whether the columns kept are made from the games table's keys and tags only (no column
    /// that needs the movetext read: `speed` and the other `TimeControl` columns need none).
    fn tags_only(&self) -> bool {
        // (a test may need the moves: `plies`, the opening named from them)
        self.tests.is_empty()
            && self
                .columns
                .as_ref()
                .is_some_and(|c| c.iter().all(|n| kifu_export::pgn_games_column_from_tags(n)))
    }

    /// The options set that change nothing in a positions table, when the spec's tables are
    /// positions tables: `replay` (its rows are replayed already: EPD, key, UCI) and
    /// `variations` (its rows are the main line's); for each frontend to refuse in its own
    /// names, rather than ignore.
    ///
    /// ```
    /// use kifu_pipeline::tables::TableSpec;
    /// let mut spec = TableSpec::by_name("positions").unwrap();
    /// spec.replay = true;
    /// spec.options.variations = true;
    /// assert_eq!(spec.idle_options(), ["replay", "variations"]);
    /// let mut moves = TableSpec::by_name("moves").unwrap();
    /// moves.options.variations = true;
    /// assert!(moves.idle_options().is_empty());
    /// ```
    pub fn idle_options(&self) -> Vec<&'static str> {
        let positions = [self.pgn, self.sgf]
            .into_iter()
            .flatten()
            .all(|t| matches!(t, Table::PgnPositions | Table::SgfPositions));
        if !positions || (self.pgn.is_none() && self.sgf.is_none()) {
            return Vec::new();
        }
        let mut idle = Vec::new();
        if self.replay {
            idle.push("replay");
        }
        if self.options.variations {
            idle.push("variations");
        }
        idle
    }

    /// Checks [`columns`](Self::columns): each must be a column of one of the spec's tables.
    ///
    /// # Errors
    ///
    /// The first name no table of the spec has.
    pub fn check_columns(&self) -> Result<(), kifu_export::UnknownColumn> {
        let Some(columns) = &self.columns else {
            return Ok(());
        };
        let tables: Vec<Table> = [self.pgn, self.sgf].into_iter().flatten().collect();
        let mut first = None;
        for name in columns {
            let known = tables.iter().any(|&t| {
                let all = self.full_builder(t).schema();
                all.field_with_name(name).is_ok()
            });
            if !known {
                let t = tables[0];
                let err = self.full_builder(t).project(&[name]).err();
                first = first.or(err);
            }
        }
        first.map_or(Ok(()), Err)
    }

    /// The spec without the table of a format that keeps none of [`columns`](Self::columns)
    /// (`--columns White` on SGF input: the trees table has no such column), so that an input
    /// of that format is one the spec has no table for, said as such, rather than rows of no
    /// column. A spec naming no table then keeps its first: the consumer's schema.
    fn narrowed(&self) -> TableSpec {
        let mut spec = self.clone();
        let Some(columns) = &self.columns else {
            return spec;
        };
        let keeps = |t: Option<Table>| {
            t.is_some_and(|t| {
                let all = self.full_builder(t).schema();
                columns.iter().any(|n| all.field_with_name(n).is_ok())
            })
        };
        let (pgn, sgf) = (keeps(self.pgn), keeps(self.sgf));
        if pgn || sgf {
            spec.pgn = self.pgn.filter(|_| pgn);
            spec.sgf = self.sgf.filter(|_| sgf);
        }
        spec
    }

    /// The table of a format.
    pub fn table(&self, format: Format) -> Option<Table> {
        match format {
            Format::Pgn => self.pgn,
            Format::Sgf => self.sgf,
        }
    }

    /// The table an output holds when no row came: the one of `preferred` if it has one,
    /// else the other.
    pub fn default_table(&self, preferred: Option<Format>) -> Table {
        let first = preferred.and_then(|f| self.table(f));
        first
            .or(self.pgn)
            .or(self.sgf)
            .expect("a spec names a table")
    }

    /// The Arrow schema of `table` as this spec builds it (`--replay` columns included).
    pub fn schema(&self, table: Table) -> arrow_schema::SchemaRef {
        self.builder(table).schema()
    }

    /// The builder of `table`, every column (the replayed ones with [`replay`](Self::replay)).
    fn full_builder(&self, table: Table) -> Builder {
        let mut options = self.options.clone();
        options.replay = self.replay;
        Builder::new(table, &options)
    }

    /// The builder of `table`, the columns kept (those of [`columns`](Self::columns) the
    /// table has).
    fn builder(&self, table: Table) -> Builder {
        self.projected(table, false)
    }

    /// The builder of `table` as the workers build it: [`builder`](Self::builder)'s, with
    /// the `key` column too where one row per distinct position is kept (the collector
    /// drops it again when it is not one of [`columns`](Self::columns)).
    fn row_builder(&self, table: Table) -> Builder {
        self.projected(table, self.distinct(table))
    }

    fn projected(&self, table: Table, with_key: bool) -> Builder {
        let b = self.full_builder(table);
        match &self.columns {
            None => b,
            Some(columns) => {
                let schema = b.schema();
                let here: Vec<&str> = columns
                    .iter()
                    .map(String::as_str)
                    .chain(with_key.then_some(DISTINCT_KEY))
                    .filter(|n| schema.field_with_name(n).is_ok())
                    .collect();
                b.project(&here).expect("the names are the table's")
            }
        }
    }

    /// Whether `table`'s rows are one per distinct position: a `positions` table with a
    /// `key` column, and [`PositionOptions::distinct`](kifu_export::PositionOptions) set.
    fn distinct(&self, table: Table) -> bool {
        self.options.positions.distinct.is_some()
            && matches!(table, Table::PgnPositions | Table::SgfPositions)
            && self
                .full_builder(table)
                .schema()
                .field_with_name(DISTINCT_KEY)
                .is_ok()
    }

    /// Whether the `key` column is in the workers' batches but not in the output.
    fn strips_key(&self) -> bool {
        self.columns
            .as_ref()
            .is_some_and(|c| !c.iter().any(|n| n == DISTINCT_KEY))
    }
}

/// The column a distinct position is told by: the position's 64-bit key.
const DISTINCT_KEY: &str = "key";

/// What keeping one row per distinct position did ([`TableScanned::distinct`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DistinctCount {
    /// The distinct positions remembered.
    pub keys: u64,
    /// Rows dropped: repeats of a position met before.
    pub dropped: u64,
    /// Rows kept unchecked once the set of keys was full (their positions may repeat).
    pub unchecked: u64,
    /// The most keys the set holds ([`DistinctKeys::capacity`]).
    pub capacity: u64,
}

/// The rows of `batch` whose `key` comes for the first time to `seen`, in order; the `key`
/// column left out with `strip`.
fn first_rows(seen: &mut DistinctKeys, batch: RecordBatch, strip: bool) -> RecordBatch {
    let Ok(at) = batch.schema().index_of(DISTINCT_KEY) else {
        return batch;
    };
    let keys = batch.column(at).as_primitive::<Int64Type>();
    let mut all = true;
    let mask: BooleanArray = keys
        .values()
        .iter()
        .map(|&k| {
            let first = seen.first(k as u64);
            all &= first;
            Some(first)
        })
        .collect();
    let batch = if all {
        batch
    } else {
        arrow_select::filter::filter_record_batch(&batch, &mask)
            .expect("a mask of the batch's length")
    };
    if strip {
        let rest: Vec<usize> = (0..batch.num_columns()).filter(|&k| k != at).collect();
        batch.project(&rest).expect("the batch's columns")
    } else {
        batch
    }
}

/// The table's name as `kifu export --table` says it (`games`, `trees`, `moves`, `positions`,
/// `json`).
pub fn short_name(table: Table) -> &'static str {
    match table {
        Table::PgnGames => "games",
        Table::SgfTrees => "trees",
        Table::PgnMoves | Table::SgfMoves => "moves",
        Table::PgnPositions | Table::SgfPositions => "positions",
        Table::PgnJson | Table::SgfJson => "json",
    }
}

/// A piece's rows, as record batches.
pub struct Rows<'a> {
    builder: Option<Builder>,
    table: Option<Table>,
    batches: Vec<RecordBatch>,
    /// Games that could not go to the table (index in the piece, why).
    refused: Vec<(u64, String)>,
    input: Input,
    batch_rows: usize,
    batch_bytes: usize,
    /// The scan's stop flag: a piece read when it was set ends at its next game, so that the
    /// pieces in flight do not hold up a Ctrl-C.
    stop: Option<&'a AtomicBool>,
    stopped: bool,
    spec: Arc<TableSpec>,
}

impl Rows<'_> {
    /// Ends a batch: at the piece's end, every `batch_rows` rows, or once the builder holds
    /// `batch_bytes`.
    fn cut(&mut self, end: bool) {
        let Some(b) = &mut self.builder else {
            return;
        };
        let rows = b.rows();
        let full = rows >= self.batch_rows || b.estimated_bytes() >= self.batch_bytes;
        if rows == 0 || !(end || full) {
            return;
        }
        // the builders start empty and grow with their rows (kifu-export), or copy a batch
        // that fills less than a quarter of its buffers into buffers of its size (the positions
        // tables' columns of numbers, made room for at a batch's first row: `Buffers`), so
        // that the batch of a small input (a file of one game) holds buffers of its own size:
        // 20,000 of them in flight hold a few megabytes, not the thousand rows a builder was
        // once made for each
        self.batches.push(b.finish());
    }

    fn pushed(&mut self, index: u64, r: Result<(), kifu_export::PushError>) {
        if let Err(e) = r {
            self.refused.push((index, e.to_string()));
        }
        self.cut(false);
    }
}

impl PerGame for Rows<'_> {
    fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game> {
        if !self.spec.tests.iter().all(|t| t.holds(&game)) {
            return Some(game);
        }
        let r = match &mut self.builder {
            Some(b) => b.push_pgn(&self.input.name, &game),
            None => Ok(()),
        };
        self.pushed(game.index, r);
        Some(game)
    }
    fn sgf(&mut self, tree: sgf::GameTree) {
        if !self.spec.tests.iter().all(|t| t.holds(&tree)) {
            return;
        }
        let r = match &mut self.builder {
            Some(b) => b.push_sgf(&self.input.name, &tree),
            None => Ok(()),
        };
        self.pushed(tree.index(), r);
    }
    fn end(&mut self) {
        self.cut(true);
    }
    fn go_on(&self) -> bool {
        !self.stopped && !self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// What a table scan makes of each piece: its rows.
pub struct TablePieces<'a> {
    spec: Arc<TableSpec>,
    stop: Option<&'a AtomicBool>,
}

impl<'a> PieceWork for TablePieces<'a> {
    type Each = Rows<'a>;
    fn each(&self, input: &Input) -> Rows<'a> {
        let table = self.spec.table(input.format);
        Rows {
            builder: table.map(|t| self.spec.row_builder(t)),
            table,
            batches: Vec::new(),
            refused: Vec::new(),
            input: input.clone(),
            batch_rows: self.spec.batch_rows.max(1),
            batch_bytes: self.spec.batch_bytes.max(1),
            stop: self.stop,
            stopped: false,
            spec: Arc::clone(&self.spec),
        }
    }
}

impl TableSpec {
    /// What the builders keep for this spec's tables.
    fn scope(&self) -> DomScope {
        let pgn = match self.pgn {
            Some(Table::PgnMoves) if !self.options.variations => pgn::Scope::MainLine,
            Some(Table::PgnPositions) => pgn::Scope::MainLine,
            Some(Table::PgnGames) if self.tags_only() => pgn::Scope::GameInfo,
            _ => pgn::Scope::Full,
        };
        let sgf = match self.sgf {
            Some(Table::SgfTrees | Table::SgfJson) => sgf::Scope::Full,
            _ => sgf::Scope::MainLine,
        };
        DomScope {
            pgn,
            sgf,
            max_game_bytes: self.max_game_bytes,
        }
    }

    /// The work of a scan building this spec's tables.
    fn work<'a>(&self, stop: Option<&'a AtomicBool>) -> TableWork<'a> {
        TableWork::new(self, stop)
    }
}

/// The ordered end of a table scan: rebased batches cut again to `batch_rows`, handed to the
/// consumer; games that could not go to the table noted. With `both`, each format's rows go
/// to its own table (a mixed archive exported whole); else all rows are of one table (the
/// first that came), and inputs that cannot join it are noted.
pub struct Collector<F, N> {
    spec_rows: usize,
    /// A batch handed on also ends at the row that brings it to this many [`row_bytes`].
    spec_bytes: usize,
    /// The name of the spec's table, for the note on an input of a format it has none for.
    other: &'static str,
    /// Each format's table gets its own batches.
    both: bool,
    /// The batches waiting, of the one table, or (`both`) of PGN's and SGF's.
    slots: [Slot; 2],
    out: F,
    note: N,
    /// The inputs already noted as not joining the table.
    noted: Option<Arc<str>>,
    /// Whether the first rows that came were SGF's (`both`: their table is the output's).
    first_sgf: Option<bool>,
    /// The format of the first piece read, rows or not (an output without rows takes its
    /// table).
    first_format: Option<Format>,
    rows: u64,
    left_out: u64,
    stopped: bool,
    /// One row per distinct position: the keys seen, and which formats' tables it applies to
    /// (PGN's, SGF's).
    distinct: Option<(DistinctKeys, [bool; 2])>,
    /// The `key` column is the workers' only (for `distinct`): dropped before the output.
    strip_key: bool,
    /// The batches are cut again to `spec_rows` and `spec_bytes` (else handed on as they come).
    recut: bool,
}

/// The batches waiting to make a batch of `batch_rows`, of one table.
#[derive(Default)]
struct Slot {
    table: Option<Table>,
    pending: Vec<RecordBatch>,
    pending_rows: usize,
    /// The [`row_bytes`] of the pending rows.
    pending_bytes: usize,
    /// `pending[..compacted]` are put together already (see [`COMPACT_EVERY`]).
    compacted: usize,
    /// Where the batches put together get their buffers: the builders' pool
    /// ([`TableOptions::buffers`](kifu_export::TableOptions::buffers)).
    pool: Buffers,
}

impl Slot {
    /// The batches that came since the last compaction, put together into one: a small batch
    /// (the rows of a file of one game) holds its builders' buffers, sized for many rows, so
    /// that 20,000 of them would hold gigabytes for a few megabytes of rows.
    fn compact(&mut self) {
        let tail = self.pending.split_off(self.compacted);
        let schema = tail[0].schema();
        let one = self
            .pool
            .concat_batches(&schema, &tail)
            .expect("batches of one table have one schema");
        self.pending.push(one);
        self.compacted = self.pending.len();
    }

    /// The first `n` pending rows (`n` ≤ the rows pending) as one batch: a slice of the first
    /// batch when it holds them, else those rows alone copied together (the rest stays, a
    /// slice), so that a row is copied once at most on its way to the consumer.
    fn take_rows(&mut self, n: usize) -> RecordBatch {
        let mut parts = Vec::new();
        let mut got = 0;
        let mut whole = 0;
        for b in &self.pending {
            let k = b.num_rows().min(n - got);
            parts.push(b.slice(0, k));
            got += k;
            if k < b.num_rows() {
                break;
            }
            whole += 1;
            if got == n {
                break;
            }
        }
        self.pending.drain(..whole);
        if let Some(front) = self.pending.first_mut()
            && got == n
            && parts.len() > whole
        {
            let used = parts.last().map_or(0, RecordBatch::num_rows);
            *front = front.slice(used, front.num_rows() - used);
        }
        self.compacted = self.compacted.saturating_sub(whole);
        self.pending_rows -= n;
        if parts.len() == 1 {
            return parts.pop().expect("one");
        }
        let schema = parts[0].schema();
        self.pool
            .concat_batches(&schema, &parts)
            .expect("batches of one table have one schema")
    }

    /// The rows of the next batch handed on, when the pending rows make one: `rows`, or fewer
    /// when the first `k` of them come to `bytes` of [`row_bytes`] (the first such `k`), so
    /// that where a batch ends depends on the rows alone, not on how they came.
    fn cut_at(&self, rows: usize, bytes: usize) -> Option<usize> {
        if self.pending_rows < rows && self.pending_bytes < bytes {
            return None;
        }
        let (mut got, mut held) = (0, 0);
        for b in &self.pending {
            let room = b.num_rows().min(rows - got);
            let all = held + row_bytes(b, 0, room);
            if all >= bytes {
                // the first k whose rows bring the batch to `bytes` (k = room does)
                let (mut lo, mut hi) = (1, room);
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    if held + row_bytes(b, 0, mid) >= bytes {
                        hi = mid;
                    } else {
                        lo = mid + 1;
                    }
                }
                return Some(got + lo);
            }
            (got, held) = (got + room, all);
            if got == rows {
                return Some(rows);
            }
        }
        None
    }

    /// The pending rows as one batch.
    fn take(&mut self) -> RecordBatch {
        self.compacted = 0;
        let pending = std::mem::take(&mut self.pending);
        if pending.len() == 1 {
            return pending.into_iter().next().expect("one");
        }
        let schema = pending[0].schema();
        self.pool
            .concat_batches(&schema, &pending)
            .expect("batches of one table have one schema")
    }
}

impl<F, N> Collector<F, N>
where
    F: FnMut(Table, RecordBatch) -> bool,
    N: FnMut(Note),
{
    /// Takes the batch of `input` (its games numbered in the input); `false` once the consumer
    /// is gone.
    fn push(&mut self, input: &Input, table: Table, batch: RecordBatch) -> bool {
        if self.stopped {
            return false;
        }
        let at = usize::from(self.both && table.is_sgf());
        self.first_sgf.get_or_insert(at == 1);
        if self.both && self.slots[at].table.is_none() {
            // each format's table claims its output when its first rows come, in the order
            // met (the first the output, the other beside it), whichever fills a batch first
            self.slots[at].table = Some(table);
            if !(self.out)(table, batch.slice(0, 0)) {
                self.stopped = true;
                return false;
            }
        }
        let slot = &mut self.slots[at];
        let held = *slot.table.get_or_insert(table);
        if held != table {
            if self.noted.as_deref() != Some(&*input.name) {
                self.noted = Some(Arc::clone(&input.name));
                self.left_out += 1;
                (self.note)(Note::NotInTable {
                    input: input.name.to_string(),
                    format: input.format,
                    table: short_name(held),
                });
            }
            return true;
        }
        self.rows += batch.num_rows() as u64;
        if !self.recut {
            if batch.num_rows() > 0 && !(self.out)(table, batch) {
                self.stopped = true;
                return false;
            }
            return true;
        }
        slot.pending_rows += batch.num_rows();
        slot.pending_bytes += row_bytes(&batch, 0, batch.num_rows());
        slot.pending.push(batch);
        if slot.pending.len() - slot.compacted >= COMPACT_EVERY {
            slot.compact();
        }
        while let Some(n) = slot.cut_at(self.spec_rows, self.spec_bytes) {
            let first = slot.take_rows(n);
            slot.pending_bytes -= row_bytes(&first, 0, n);
            if !(self.out)(table, first) {
                self.stopped = true;
                return false;
            }
        }
        true
    }

    /// A piece's rows, in input order.
    fn piece(&mut self, input: &Input, first_game: u64, rows: &mut Rows<'_>) -> bool
    where
        F: Send,
        N: Send,
    {
        // (the piece's last batch was cut at its end, by `PerGame::end`)
        if rows.table.is_none() && first_game == 0 {
            self.left_out += 1;
            (self.note)(Note::NoTable {
                input: input.name.to_string(),
                format: input.format,
                table: self.other,
            });
        }
        for (index, why) in rows.refused.drain(..) {
            self.left_out += 1;
            (self.note)(Note::Refused {
                input: input.name.to_string(),
                game: first_game + index,
                why,
            });
        }
        let Some(table) = rows.table else {
            return true;
        };
        for batch in std::mem::take(&mut rows.batches) {
            let batch = if first_game > 0 {
                let shift = Shift {
                    index: first_game,
                    ..Shift::default()
                };
                kifu_export::rebase(&batch, shift).expect("a table's batch rebases")
            } else {
                batch
            };
            let batch = match &mut self.distinct {
                Some((seen, applies)) if applies[usize::from(table.is_sgf())] => {
                    first_rows(seen, batch, self.strip_key)
                }
                _ => batch,
            };
            if !self.push(input, table, batch) {
                return false;
            }
        }
        true
    }

    /// The rows left, as the last batch of each table.
    fn finish(&mut self) -> bool {
        for slot in &mut self.slots {
            if self.stopped {
                return false;
            }
            if slot.pending_rows == 0 {
                continue;
            }
            let table = slot.table.expect("rows came");
            let rest = slot.take();
            (slot.pending_rows, slot.pending_bytes) = (0, 0);
            if !(self.out)(table, rest) {
                self.stopped = true;
            }
        }
        !self.stopped
    }
}

/// The bytes of rows `start..end` of `batch` as [`TableSpec::batch_bytes`] counts them: the
/// bytes of each text or binary value and 4 or 8 of its offset, the width of each fixed-size
/// value, lists and structs by their values, one byte a boolean. A sum over the rows, each
/// counted alone, so that the count of rows is the same however they were cut into batches
/// (unlike the bytes of a slice's buffers, whose offsets and validity bits are rounded per
/// slice).
pub fn row_bytes(batch: &RecordBatch, start: usize, end: usize) -> usize {
    batch
        .columns()
        .iter()
        .map(|c| array_bytes(c.as_ref(), start, end))
        .sum()
}

fn array_bytes(a: &dyn arrow_array::Array, start: usize, end: usize) -> usize {
    use arrow_schema::DataType as T;
    let n = end - start;
    if n == 0 {
        return 0;
    }
    match a.data_type() {
        T::Null => 0,
        T::Boolean => n,
        T::Utf8 => offsets_bytes(a.as_string::<i32>().value_offsets(), start, end),
        T::LargeUtf8 => offsets_bytes(a.as_string::<i64>().value_offsets(), start, end),
        T::Binary => offsets_bytes(a.as_binary::<i32>().value_offsets(), start, end),
        T::LargeBinary => offsets_bytes(a.as_binary::<i64>().value_offsets(), start, end),
        T::List(_) => {
            let l = a.as_list::<i32>();
            let o = l.value_offsets();
            4 * n + array_bytes(l.values().as_ref(), o[start] as usize, o[end] as usize)
        }
        T::Map(..) => {
            let m = a.as_map();
            let o = m.value_offsets();
            4 * n + array_bytes(m.entries(), o[start] as usize, o[end] as usize)
        }
        T::LargeList(_) => {
            let l = a.as_list::<i64>();
            let o = l.value_offsets();
            8 * n + array_bytes(l.values().as_ref(), o[start] as usize, o[end] as usize)
        }
        T::FixedSizeList(_, k) => {
            let k = *k as usize;
            let l = a.as_fixed_size_list();
            array_bytes(l.values().as_ref(), start * k, end * k)
        }
        T::FixedSizeBinary(k) => n * *k as usize,
        T::Struct(_) => a
            .as_struct()
            .columns()
            .iter()
            .map(|c| array_bytes(c.as_ref(), start, end))
            .sum(),
        t => n * t.primitive_width().unwrap_or(8),
    }
}

/// The bytes of values `start..end` of an offsets-and-bytes array, and of their offsets.
fn offsets_bytes<O: arrow_array::OffsetSizeTrait>(
    offsets: &[O],
    start: usize,
    end: usize,
) -> usize {
    let bytes = offsets[end].as_usize() - offsets[start].as_usize();
    bytes + (end - start) * std::mem::size_of::<O>()
}

/// What a table scan read and handed on.
#[derive(Clone, Debug, Default)]
pub struct TableScanned {
    /// The scan's report.
    pub scanned: Scanned,
    /// The table the rows went to (`None`: no row came); with both formats' tables, the
    /// first that came.
    pub table: Option<Table>,
    /// With both formats' tables: the other one, when rows came to it too.
    pub other_table: Option<Table>,
    /// Rows handed on.
    pub rows: u64,
    /// Inputs that could not join the table and games that could not go to it (each noted).
    pub left_out: u64,
    /// The consumer stopped the scan.
    pub stopped: bool,
    /// The format of the first input read, whether rows came of it or not.
    pub first_format: Option<Format>,
    /// With one row per distinct position: what it kept and dropped.
    pub distinct: Option<DistinctCount>,
}

/// Builds the table `spec` names from `scan`: `out` gets each batch of `spec.batch_rows` rows
/// (the last one fewer) in input order, all of one table, and returns `false` to stop the
/// scan; `note` hears of inputs without games, inputs that cannot join the table and games
/// that cannot go to it.
///
/// # Errors
///
/// None of its own: an input that cannot be read is in [`Scanned::errors`]; a consumer that
/// stops the scan makes [`TableScanned::stopped`] true.
pub fn scan_table<F, N>(scan: Scan<'_>, spec: &TableSpec, out: F, note: N) -> TableScanned
where
    F: FnMut(Table, RecordBatch) -> bool + Send,
    N: FnMut(Note) + Send,
{
    scan_tables(scan, spec, false, true, out, note)
}

/// As [`scan_table`], the batches handed to `out` as the workers made them (in input order,
/// the games numbered in their inputs, each batch at most `batch_rows` rows and ending where
/// a piece of input ends), not cut again to `batch_rows`: no batch is copied together from
/// two.
/// For a consumer that cuts its own batches (`kifu.positions`), or whose output depends on
/// the rows alone (`kifu export --to npy`). The rows are [`scan_table`]'s, in its order; where
/// the batches end depends on the scan's pieces.
pub fn scan_table_as_made<F, N>(scan: Scan<'_>, spec: &TableSpec, out: F, note: N) -> TableScanned
where
    F: FnMut(Table, RecordBatch) -> bool + Send,
    N: FnMut(Note) + Send,
{
    scan_tables(scan, spec, false, false, out, note)
}

/// As [`scan_table`]; with `both`, the rows of each format go to that format's table of
/// `spec` (both tables handed to `out`, each cut to `batch_rows` on its own), so that no input
/// of a mixed archive is left out. Without `recut`, the batches go to `out` as the workers
/// made them (in order, rebased), not cut again to `batch_rows`: for a consumer whose output
/// depends on the rows alone.
fn scan_tables<F, N>(
    scan: Scan<'_>,
    spec: &TableSpec,
    both: bool,
    recut: bool,
    out: F,
    note: N,
) -> TableScanned
where
    F: FnMut(Table, RecordBatch) -> bool + Send,
    N: FnMut(Note) + Send,
{
    let spec = &spec.narrowed();
    let collector = Collecting::new(spec, both, out, note);
    collector.lock().recut = recut;
    let work = spec.work(scan.stop_flag());
    let result = scan.run(
        &work,
        |event| collector.event(event),
        |n| (collector.lock().note)(n),
    );
    collector.end(result)
}

/// As [`scan_table`], with the pieces read and their rows built on `executor`'s threads
/// ([`Scan::run_on`]: a database's threads, say): the same batches, in the same order, handed
/// to `out` on the calling thread. With one thread, [`scan_table`] itself.
///
/// # Panics
///
/// When `executor` drops a job unrun (`kifu::par::Executor` runs every job).
pub fn scan_table_on<F, N>(
    scan: Scan<'_>,
    spec: &TableSpec,
    executor: &dyn kifu::par::Executor,
    out: F,
    note: N,
) -> TableScanned
where
    F: FnMut(Table, RecordBatch) -> bool + Send + 'static,
    N: FnMut(Note) + Send + 'static,
{
    if scan.options().threads <= 1 {
        return scan_table(scan, spec, out, note);
    }
    let spec = &spec.narrowed();
    let collector = Collecting::new(spec, false, out, note);
    // a host's threads: the host stops the query (a pipeline's stop flag borrowed for the
    // scan cannot outlive it)
    let work: Arc<TableWork<'static>> = Arc::new(spec.work(None));
    let result = scan.run_on(
        work,
        executor,
        |event| collector.event(event),
        |n| (collector.lock().note)(n),
    );
    collector.end(result)
}

/// A table scan's collector: the pieces' rows, in input order, on the calling thread.
struct Collecting<F, N>(Mutex<Collector<F, N>>);

impl<F, N> Collecting<F, N>
where
    F: FnMut(Table, RecordBatch) -> bool + Send,
    N: FnMut(Note) + Send,
{
    fn new(spec: &TableSpec, both: bool, out: F, note: N) -> Self {
        Collecting(Mutex::new(Collector {
            spec_rows: spec.batch_rows.max(1),
            spec_bytes: spec.batch_bytes.max(1),
            other: short_name(spec.default_table(None)),
            both,
            slots: [0, 1].map(|_| Slot {
                pool: spec.options.buffers.clone(),
                ..Slot::default()
            }),
            out,
            note,
            noted: None,
            first_sgf: None,
            first_format: None,
            rows: 0,
            left_out: 0,
            stopped: false,
            distinct: spec.options.positions.distinct.map(|d| {
                let applies = [spec.pgn, spec.sgf].map(|t| t.is_some_and(|t| spec.distinct(t)));
                (DistinctKeys::new(d), applies)
            }),
            strip_key: spec.strips_key(),
            recut: true,
        }))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Collector<F, N>> {
        self.0
            .lock()
            .expect("the collector never panics while locked")
    }

    /// A scan's event: a piece's rows to the collector, in input order.
    fn event(&self, event: Event<'_, TableWork<'_>>) -> Result<(), Stopped> {
        let Event::Piece {
            input,
            visited,
            info,
        } = event
        else {
            return Ok(());
        };
        self.lock().first_format.get_or_insert(input.format);
        let go_on = match visited {
            Visited::Pgn(mut d) => self.lock().piece(input, info.first_game, d.each_mut()),
            Visited::Sgf(mut d) => self.lock().piece(input, info.first_game, &mut d.each),
        };
        if go_on { Ok(()) } else { Err(Stopped) }
    }

    /// The scan is over: the last rows handed on, and what was read.
    fn end(self, result: Result<Scanned, Stopped>) -> TableScanned {
        let mut c = self
            .0
            .into_inner()
            .expect("the collector never panics while locked");
        let (scanned, stopped) = match result {
            Ok(s) if s.stopped => (s, true),
            Ok(s) => (s, !c.finish()),
            Err(Stopped) => (Scanned::default(), true),
        };
        let [a, b] = &c.slots;
        let (table, other_table) = match (a.table, b.table) {
            (Some(x), Some(y)) if c.both => {
                // the first that came: the one whose rows came first
                if c.first_sgf == Some(true) {
                    (Some(y), Some(x))
                } else {
                    (Some(x), Some(y))
                }
            }
            (x, y) => (x.or(y), None),
        };
        TableScanned {
            scanned,
            table,
            other_table,
            rows: c.rows,
            left_out: c.left_out,
            stopped: stopped || c.stopped,
            first_format: c.first_format,
            distinct: c.distinct.as_ref().map(|(seen, _)| DistinctCount {
                keys: seen.len() as u64,
                dropped: seen.dropped(),
                unchecked: seen.unchecked(),
                capacity: seen.capacity() as u64,
            }),
        }
    }
}

/// The consumer stopped a table scan.
#[derive(Debug)]
struct Stopped;

/// What [`export`] wrote.
#[derive(Clone, Debug)]
pub struct Exported {
    /// The files written, their rows and bytes.
    pub summary: Summary,
    /// A mixed input: the table of its other format, written beside the output
    /// ([`beside`]), and its files.
    pub other: Option<(PathBuf, Summary)>,
    /// What the scan read.
    pub scan: TableScanned,
}

/// Writes the table `spec` names, built from `scan`, to `out` as `format` (one file, or a
/// dataset directory as `sink` says; Parquet row groups, CSV and JSON Lines batches encoded on
/// as many threads as the scan reads with, unless `sink.threads` says otherwise): the output is checked before anything is read, created
/// when the first rows come (its schema is the table of the first input's format, or of
/// `scan`'s forced format when no row comes), written under a temporary name, and put in
/// place only when complete. When an input could not be read the output is still written
/// with every game read (the caller decides what that means: `kifu export` exits 2,
/// `kifu.to_parquet` raises and removes nothing that existed).
///
/// # Errors
///
/// The output refused (an input, an existing file without `force`, a link), or a write that
/// failed.
pub fn export<N>(
    scan: Scan<'_>,
    spec: &TableSpec,
    out: &Path,
    format: OutFormat,
    sink: &SinkOptions,
    note: N,
) -> io::Result<Exported>
where
    N: FnMut(Note) + Send,
{
    export_with(scan, spec, out, format, sink, true, note)
}

/// As [`export`]; with `keep_partial` false, an output whose inputs could not all be read is
/// not put in place (its temporary is removed, an existing output stays as it was) and
/// [`Exported::summary`] is empty.
///
/// # Errors
///
/// As [`export`].
pub fn export_with<N>(
    scan: Scan<'_>,
    spec: &TableSpec,
    out: &Path,
    format: OutFormat,
    sink: &SinkOptions,
    keep_partial: bool,
    note: N,
) -> io::Result<Exported>
where
    N: FnMut(Note) + Send,
{
    let mut opts = sink.clone();
    opts.inputs = scan.paths().to_vec();
    if opts.threads == 0 {
        // row groups (Parquet) and batches (CSV, JSON Lines) encoded on as many threads as read
        // the input, beside them
        opts.threads = scan.options().threads.max(1);
    }
    // the output is checked before anything is read (it is created when the first rows come)
    let guard = kifu_output::Guard::new(&opts.inputs, opts.force);
    let directory = opts.dataset
        || opts.max_rows_per_file.is_some()
        || !opts.partition_by.is_empty()
        || format.is_directory();
    if directory {
        guard.check_dataset(out, format.extension())?;
    } else {
        guard.check(out)?;
    }
    let forced = scan.forced_format();
    // a mixed archive: each format's rows to its own table, the second beside the first
    // (`OUT.sgf.parquet`, say); partitions are by a table's own columns, so one table there
    let both = opts.partition_by.is_empty();
    // one array file or directory (no parts): its bytes depend on the rows alone, not on how
    // they come in batches (`kifu_export`'s array writer), so the workers' batches go to it
    // as they are, not copied together again to `batch_rows`
    let single = opts.partition_by.is_empty() && !opts.dataset && opts.max_rows_per_file.is_none();
    let recut = !(format.is_array() && single);
    let mut writers: [Option<Written>; 2] = [None, None];
    let mut failed: Option<io::Error> = None;
    let scanned = scan_tables(
        scan,
        spec,
        both,
        recut,
        |table, batch| {
            let at = match &writers[0] {
                Some((t, _, _)) if *t != table => 1,
                _ => 0,
            };
            if writers[at].is_none() {
                let path = if at == 0 {
                    out.to_path_buf()
                } else {
                    beside(out, table)
                };
                match kifu_export::create(&path, format, batch.schema(), &opts) {
                    Ok(s) => writers[at] = Some((table, path, s)),
                    Err(e) => {
                        failed = Some(io::Error::other(e));
                        return false;
                    }
                }
            }
            let (_, _, w) = writers[at].as_mut().expect("created");
            match w.write(&batch) {
                Ok(()) => true,
                Err(e) => {
                    failed = Some(io::Error::other(e));
                    false
                }
            }
        },
        note,
    );
    if let Some(e) = failed {
        return Err(e);
    }
    if scanned.stopped || (!keep_partial && scanned.scanned.failed()) {
        // dropped unfinished: the temporaries go, nothing is put in place
        return Ok(Exported {
            summary: Summary::default(),
            other: None,
            scan: scanned,
        });
    }
    let [first, second] = writers;
    let writer = match first {
        Some((_, _, w)) => w,
        // no rows at all: the table, empty
        None => {
            // the table of the format given, else of the first input read (of the tables that
            // keep a column of `--columns`)
            let kept = spec.narrowed();
            let schema = kept.schema(kept.default_table(forced.or(scanned.first_format)));
            kifu_export::create(out, format, schema, &opts).map_err(io::Error::other)?
        }
    };
    let summary = writer.finish().map_err(io::Error::other)?;
    let other = match second {
        Some((_, path, w)) => Some((path, w.finish().map_err(io::Error::other)?)),
        None => None,
    };
    Ok(Exported {
        summary,
        other,
        scan: scanned,
    })
}

/// An output of [`export_with`]: its table, its path, its sink.
type Written = (Table, PathBuf, Box<dyn Sink>);

/// Where the table of a mixed archive's second format goes: beside `out`, the format's name
/// before its extension (`games.parquet` → `games.sgf.parquet`; a dataset `games` →
/// `games.sgf`).
pub fn beside(out: &Path, table: Table) -> PathBuf {
    let format = if table.is_sgf() { "sgf" } else { "pgn" };
    let name = match (out.file_stem(), out.extension()) {
        (Some(stem), Some(ext)) => format!(
            "{}.{format}.{}",
            stem.to_string_lossy(),
            ext.to_string_lossy()
        ),
        _ => format!(
            "{}.{format}",
            out.file_name().unwrap_or_default().to_string_lossy()
        ),
    };
    out.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_made_from_tags_skip_the_movetext() {
        let spec = |names: &[&str]| {
            let mut s = TableSpec::by_name("games").unwrap();
            s.columns = Some(names.iter().map(|n| n.to_string()).collect());
            s
        };
        assert!(spec(&["White", "game_index", "tags"]).tags_only());
        assert!(spec(&["speed", "tc_base", "tc_increment", "TimeControl"]).tags_only());
        assert!(!spec(&["speed", "plies"]).tags_only());
        assert!(!spec(&["movetext"]).tags_only());
        assert!(!TableSpec::by_name("games").unwrap().tags_only());
    }
}
