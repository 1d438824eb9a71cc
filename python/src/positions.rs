//! `kifu.positions`: the rows of a `positions` table (PGN chess positions or SGF Go boards
//! before each move) for training pipelines, as Arrow record batches of exactly `batch_rows`
//! rows (the last one fewer) that the package turns into NumPy arrays without a copy.
//!
//! The scan is the table scan's (kifu-export's builders on the scan's threads, the batches in
//! input order, the games numbered in their inputs), with what a trainer asks of it beside:
//! the game keys' tests of `where` (games that fail them give no row), the columns of the
//! arrays only (a column left out is not built: no EPD, no material, no SAN when none is
//! asked), and Go boards of one size (a batch of boards is one `uint8[N, rows, cols]` array).
//! The rows, their order and the batches are the same at every thread count.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use arrow_array::{Array, BooleanArray, Int32Array, RecordBatch};
use arrow_schema::{DataType, Schema, SchemaRef};
use kifu::par::{Event, Visited};
use kifu::{Format, pgn, sgf};
use kifu_export::{Builder, Shift, Table, TableOptions};
use kifu_pipeline::keys::AnyOf;
use kifu_pipeline::{DomScope, DomWork, Formats, Input, Note, PerGame, Source};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::arrow::ArrowStream;
use crate::scan::{self, Msg, Pump};
use crate::source::{PyErrSlot, extract, parse_format};

/// The schema metadata key of a Go batch's board size: `"cols,rows"`.
pub const BOARD_KEY: &str = "kifu.board";

/// The columns of a positions table that become arrays by default: the fixed-width ones
/// (numbers), the chess `bitboards` and the Go `board`.
fn default_columns(table: Table) -> Vec<String> {
    let schema = kifu_export::schema(table, &TableOptions::default());
    schema
        .fields()
        .iter()
        .filter(|f| {
            f.data_type().is_primitive()
                || matches!(f.data_type(), DataType::Boolean)
                || matches!(f.name().as_str(), "bitboards" | "board")
        })
        .map(|f| f.name().clone())
        .collect()
}

/// What `kifu.positions` reads and how.
#[derive(Clone, Debug)]
struct Spec {
    /// The columns asked for (`None`: [`default_columns`] of the table).
    columns: Option<Vec<String>>,
    /// The game keys' tests: all must hold.
    tests: Arc<Vec<AnyOf>>,
    /// Go: the board size kept, `(cols, rows)` (`None`: the first row's).
    board_size: Option<(i32, i32)>,
    batch_rows: usize,
    max_game_bytes: usize,
    options: TableOptions,
}

impl Spec {
    /// The columns the builder of `table` makes: those asked for that the table has (the Go
    /// board's size too, to keep one size), in the table's order.
    fn built(&self, table: Table) -> Vec<String> {
        let schema = kifu_export::schema(table, &self.options);
        let mut names = match &self.columns {
            Some(c) => c.clone(),
            None => default_columns(table),
        };
        if table == Table::SgfPositions {
            for extra in ["board_cols", "board_rows"] {
                if !names.iter().any(|n| n == extra) {
                    names.push(extra.into());
                }
            }
        }
        names.retain(|n| schema.field_with_name(n).is_ok());
        names
    }

    /// The columns handed on of `table`: those asked for that it has.
    fn kept(&self, table: Table) -> Vec<String> {
        let schema = kifu_export::schema(table, &self.options);
        match &self.columns {
            Some(c) => c
                .iter()
                .filter(|n| schema.field_with_name(n).is_ok())
                .cloned()
                .collect(),
            None => default_columns(table),
        }
    }
}

/// The positions table of a format.
fn table_of(format: Format) -> Table {
    match format {
        Format::Pgn => Table::PgnPositions,
        Format::Sgf => Table::SgfPositions,
    }
}

/// A piece's rows: the games that pass the tests pushed to the builder of the piece's
/// format's table, a batch cut every `batch_rows` rows and at the piece's end.
struct Rows<'a> {
    builder: Builder,
    name: Arc<str>,
    tests: Arc<Vec<AnyOf>>,
    batches: Vec<RecordBatch>,
    batch_rows: usize,
    stop: &'a AtomicBool,
}

impl Rows<'_> {
    fn cut(&mut self, end: bool) {
        let rows = self.builder.rows();
        if rows > 0 && (end || rows >= self.batch_rows) {
            self.batches.push(self.builder.finish());
        }
    }
}

impl PerGame for Rows<'_> {
    fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game> {
        if self.tests.iter().all(|t| t.holds(&game)) {
            let _ = self.builder.push_pgn(&self.name, &game);
            self.cut(false);
        }
        Some(game)
    }
    fn sgf(&mut self, tree: sgf::GameTree) {
        if self.tests.iter().all(|t| t.holds(&tree)) {
            let _ = self.builder.push_sgf(&self.name, &tree);
            self.cut(false);
        }
    }
    fn end(&mut self) {
        self.cut(true);
    }
    fn go_on(&self) -> bool {
        !self.stop.load(Ordering::Relaxed)
    }
}

/// The rows in input order: the table of the first input (an input of the other format is
/// left out, with a warning), Go boards of one size, cut again to `batch_rows`.
struct Collector<F> {
    spec: Spec,
    table: Option<Table>,
    /// The schema handed on (the columns kept, the board size in the metadata).
    schema: Option<SchemaRef>,
    size: Option<(i32, i32)>,
    /// Go rows of another board size, left out.
    other_sizes: u64,
    pending: Vec<RecordBatch>,
    pending_rows: usize,
    noted: Option<Arc<str>>,
    out: F,
}

impl<F: FnMut(Msg<RecordBatch>) -> bool> Collector<F> {
    /// A piece's batches; `false` once the consumer is gone.
    fn piece(&mut self, input: &Input, first_game: u64, rows: &mut Rows<'_>) -> bool {
        let table = rows.builder.table();
        let held = *self.table.get_or_insert(table);
        if held != table {
            if rows.batches.is_empty() || self.noted.as_deref() == Some(&*input.name) {
                return true;
            }
            self.noted = Some(Arc::clone(&input.name));
            let message = format!(
                "kifu: {}: {} input, left out of the {} positions (pass format= to choose)",
                kifu_pipeline::shown(&input.name),
                if input.format == Format::Sgf {
                    "an SGF"
                } else {
                    "a PGN"
                },
                if held == Table::SgfPositions {
                    "Go"
                } else {
                    "chess"
                },
            );
            return (self.out)(Msg::Warn(message));
        }
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
            let Some(batch) = self.one_size(batch) else {
                continue;
            };
            if !self.push(batch) {
                return false;
            }
        }
        true
    }

    /// A Go batch's rows of the board size kept, the helper columns dropped; a chess batch as
    /// it is, with the schema handed on.
    fn one_size(&mut self, batch: RecordBatch) -> Option<RecordBatch> {
        let table = self.table.expect("a table");
        let kept = self.spec.kept(table);
        if table != Table::SgfPositions {
            return Some(batch);
        }
        let int = |name: &str| -> Int32Array {
            batch
                .column_by_name(name)
                .and_then(|c| c.as_any().downcast_ref::<Int32Array>().cloned())
                .expect("the board's size, built for this")
        };
        let (cols, rows) = (int("board_cols"), int("board_rows"));
        if batch.num_rows() == 0 {
            return None;
        }
        let size = *self.size.get_or_insert((cols.value(0), rows.value(0)));
        let mask: BooleanArray = cols
            .values()
            .iter()
            .zip(rows.values().iter())
            .map(|(&c, &r)| Some((c, r) == size))
            .collect();
        let keep = mask.true_count();
        self.other_sizes += (batch.num_rows() - keep) as u64;
        let batch = if keep == batch.num_rows() {
            batch
        } else if keep == 0 {
            return None;
        } else {
            arrow_select::filter::filter_record_batch(&batch, &mask).expect("a filter of its rows")
        };
        let schema = batch.schema();
        let indices: Vec<usize> = kept
            .iter()
            .filter_map(|n| schema.index_of(n).ok())
            .collect();
        let batch = batch.project(&indices).expect("its own columns");
        let schema = self
            .schema
            .get_or_insert_with(|| {
                let s = batch.schema();
                let mut meta = s.metadata().clone();
                meta.insert(BOARD_KEY.into(), format!("{},{}", size.0, size.1));
                Arc::new(Schema::new_with_metadata(s.fields().clone(), meta))
            })
            .clone();
        Some(batch.with_schema(schema).expect("the same fields"))
    }

    /// Rows waiting for a whole batch; each whole batch handed on.
    fn push(&mut self, batch: RecordBatch) -> bool {
        self.pending_rows += batch.num_rows();
        self.pending.push(batch);
        while self.pending_rows >= self.spec.batch_rows {
            let all = self.take();
            let n = self.spec.batch_rows;
            if !(self.out)(Msg::Items(vec![all.slice(0, n)])) {
                return false;
            }
            let rest = all.slice(n, all.num_rows() - n);
            self.pending_rows = rest.num_rows();
            if self.pending_rows > 0 {
                self.pending.push(rest);
            }
        }
        true
    }

    fn take(&mut self) -> RecordBatch {
        let pending = std::mem::take(&mut self.pending);
        if pending.len() == 1 {
            return pending.into_iter().next().expect("one");
        }
        let schema = pending[0].schema();
        arrow_select::concat::concat_batches(&schema, &pending)
            .expect("batches of one table have one schema")
    }

    /// The last rows, and the warning for the boards of other sizes.
    fn finish(&mut self) -> bool {
        if self.pending_rows > 0 {
            let rest = self.take();
            self.pending_rows = 0;
            if !(self.out)(Msg::Items(vec![rest])) {
                return false;
            }
        }
        if self.other_sizes > 0
            && let Some((c, r)) = self.size
        {
            let message = format!(
                "kifu.positions: {} positions of boards other than {c}x{r} left out \
                 (board_size= chooses the size)",
                self.other_sizes
            );
            return (self.out)(Msg::Warn(message));
        }
        true
    }
}

/// The consumer is gone: the scan stops.
#[derive(Debug)]
struct Stopped;

/// Starts the scan of `kifu.positions` on its thread.
fn start(
    source: Source,
    slot: PyErrSlot,
    formats: Formats,
    threads: Option<usize>,
    spec: Spec,
) -> PyResult<Pump<RecordBatch>> {
    let scan_opts = scan::options(threads)?;
    Ok(Pump::start(scan_opts.threads + 1, slot, move |tx, stop| {
        let scope = DomScope {
            pgn: pgn::Scope::MainLine,
            sgf: sgf::Scope::MainLine,
            max_game_bytes: spec.max_game_bytes,
        };
        let builders = Arc::new(spec.clone());
        let stop_flag: &AtomicBool = &stop;
        let work = DomWork::new(scope, move |input: &Input| {
            let table = table_of(input.format);
            let names = builders.built(table);
            let builder = Builder::new(table, &builders.options)
                .project(&names)
                .expect("columns of the table");
            Rows {
                builder,
                name: Arc::clone(&input.name),
                tests: Arc::clone(&builders.tests),
                batches: Vec::new(),
                batch_rows: builders.batch_rows,
                stop: stop_flag,
            }
        });
        let warn = tx.clone();
        let send = move |m: Msg<RecordBatch>| tx.send(m).is_ok();
        let size = spec.board_size;
        let collector = std::sync::Mutex::new(Collector {
            spec,
            table: None,
            schema: None,
            size,
            other_sizes: 0,
            pending: Vec::new(),
            pending_rows: 0,
            noted: None,
            out: send,
        });
        let scanned = scan::scan(source, formats, scan_opts, stop_flag).run(
            &work,
            |event| {
                if let Event::Piece {
                    input,
                    visited,
                    info,
                } = event
                {
                    let mut c = collector.lock().expect("never poisoned");
                    let go_on = match visited {
                        Visited::Pgn(mut d) => c.piece(input, info.first_game, &mut d.each),
                        Visited::Sgf(mut d) => c.piece(input, info.first_game, &mut d.each),
                    };
                    if !go_on {
                        return Err(Stopped);
                    }
                }
                Ok(())
            },
            |note| {
                if let Note::NoGame { problems, .. } = note
                    && problems > 0
                {
                    let _ = warn.send(Msg::Warn(scan::note_text(&note)));
                }
            },
        );
        if let Ok(scanned) = scanned {
            let mut c = collector.into_inner().expect("never poisoned");
            if !scanned.stopped && c.finish() {
                let _ = (c.out)(Msg::End(scanned));
            }
        }
    }))
}

/// The board size of `board_size=`: `19`, `(19, 19)` (columns, rows) or `None`.
fn parse_board_size(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<(i32, i32)>> {
    let Some(v) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    let (c, r) = if let Ok(n) = v.extract::<i32>() {
        (n, n)
    } else if let Ok((c, r)) = v.extract::<(i32, i32)>() {
        (c, r)
    } else {
        return Err(PyValueError::new_err(
            "board_size must be an int (19) or a (columns, rows) pair",
        ));
    };
    if !(1..=52).contains(&c) || !(1..=52).contains(&r) {
        return Err(PyValueError::new_err(format!(
            "board_size {c}x{r}: a board has 1 to 52 points a side"
        )));
    }
    Ok(Some((c, r)))
}

/// The stream of `kifu.positions` (the package's `positions` turns its batches into arrays):
/// the positions table of `format` (else the first input's), the columns `columns` (else the
/// numeric ones, the bitboards and the board), the games passing `where`, batches of
/// `batch_rows` rows.
#[pyfunction]
#[pyo3(signature = (source, *, format = None, columns = None, r#where = None, batch_rows = 1024,
                    board_size = None, threads = None,
                    max_game_bytes = crate::DEFAULT_MAX_GAME_BYTES, name = None))]
#[allow(clippy::too_many_arguments)]
pub fn _positions(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    columns: Option<Vec<String>>,
    r#where: Option<Vec<String>>,
    batch_rows: usize,
    board_size: Option<&Bound<'_, PyAny>>,
    threads: Option<usize>,
    max_game_bytes: usize,
    name: Option<String>,
) -> PyResult<ArrowStream> {
    if batch_rows == 0 {
        return Err(PyValueError::new_err("batch_size must be at least 1"));
    }
    let format = parse_format(format)?;
    let tests = r#where
        .unwrap_or_default()
        .iter()
        .map(|t| t.parse::<AnyOf>().map_err(PyValueError::new_err))
        .collect::<PyResult<Vec<_>>>()?;
    let options = TableOptions::default();
    if let Some(cols) = &columns {
        let tables: Vec<Table> = match format {
            Some(f) => vec![table_of(f)],
            None => vec![Table::PgnPositions, Table::SgfPositions],
        };
        for c in cols {
            let known = tables
                .iter()
                .any(|&t| kifu_export::schema(t, &options).field_with_name(c).is_ok());
            if !known {
                let names: Vec<String> = tables
                    .iter()
                    .flat_map(|&t| {
                        kifu_export::schema(t, &options)
                            .fields()
                            .iter()
                            .map(|f| f.name().clone())
                            .collect::<Vec<_>>()
                    })
                    .collect();
                return Err(PyValueError::new_err(format!(
                    "no column {c:?} in the positions table (its columns: {})",
                    names.join(", ")
                )));
            }
        }
    }
    let spec = Spec {
        columns,
        tests: Arc::new(tests),
        board_size: parse_board_size(board_size)?,
        batch_rows,
        max_game_bytes,
        options,
    };
    let formats = match format {
        Some(f) => Formats::only(f),
        None => Formats::ANY,
    };
    let (source, slot) = extract(source, name)?;
    let size = spec.board_size;
    let mut pump = start(source, slot, formats, threads, spec.clone())?;
    // the schema: the first batch's (the first input's table), else the table of `format`
    // (PGN's without one)
    let mut first = Vec::new();
    let schema = loop {
        match pump.recv(py)? {
            Some(Msg::Warn(w)) => first.push(Msg::Warn(w)),
            Some(Msg::Items(batches)) => {
                let s = batches.first().map(RecordBatch::schema);
                first.push(Msg::Items(batches));
                if let Some(s) = s {
                    break s;
                }
            }
            msg => {
                let table = table_of(format.unwrap_or(Format::Pgn));
                let kept = spec.kept(table);
                let all = kifu_export::schema(table, &spec.options);
                let fields: Vec<_> = kept
                    .iter()
                    .filter_map(|n| all.field_with_name(n).ok().cloned())
                    .collect();
                let mut meta = all.metadata().clone();
                if let (Table::SgfPositions, Some((c, r))) = (table, size) {
                    meta.insert(BOARD_KEY.into(), format!("{c},{r}"));
                }
                if let Some(m) = msg {
                    first.push(m);
                }
                break Arc::new(Schema::new_with_metadata(fields, meta));
            }
        }
    };
    Ok(crate::arrow::stream(pump, first, schema, format))
}
