//! `kifu.positions`: the rows of a `positions` table (PGN chess positions or SGF Go boards
//! before each move) for training pipelines, as Arrow record batches that the package turns
//! into NumPy arrays without a copy and cuts into its batches of `batch_size` rows.
//!
//! The rows are kifu-pipeline's table scan's (`kifu export --table positions`, `to_arrow`):
//! built on the scan's threads, in input order, the games numbered in their inputs, with the
//! rows `kifu export` keeps (`-w`, `--min-ply`, `--max-ply`, `--legal-only`, `--sample-rate`,
//! `--distinct`), and only the columns asked for built. On their way out, the batches keep
//! the Go boards of one size (a batch of boards is one `uint8[N, rows, cols]` array) and have
//! their numbers' nulls filled (so that every numeric column is a view). They go as the scan's
//! workers made them, not cut again to a number of rows (a cut across two of them copies
//! them): the small ones put together, the others as they are ([`Out::push`]); the Python side
//! cuts views of `batch_size` rows, and copies only the rows of a batch of its own that spans
//! two of them. The rows, their order and the Python batches are the same at every thread
//! count.

use std::sync::Arc;

use arrow_array::{Array, ArrayRef, BooleanArray, Int32Array, RecordBatch};
use arrow_schema::{DataType, Schema, SchemaRef};
use kifu::Format;
use kifu_export::{Table, TableOptions};
use kifu_pipeline::tables::{self, TableSpec};
use kifu_pipeline::{Formats, Source};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::arrow::ArrowStream;
use crate::scan::{self, Msg, Pump};
use crate::source::{PyErrSlot, extract, parse_format};

/// The schema metadata key of a Go batch's board size: `"cols,rows"`.
pub const BOARD_KEY: &str = "kifu.board";

/// The columns of a positions table that become arrays by default: those `kifu export --to
/// npz` writes ([`kifu_export::array_columns`]: the numbers, the chess `bitboards` and
/// `side_to_move`, the Go `board`).
fn default_columns(table: Table) -> Vec<String> {
    kifu_export::array_columns(&kifu_export::schema(table, &TableOptions::default()))
}

/// The columns of the builders of `tables` for the columns asked for (`None`: the default
/// ones of each table), the Go board's size too (to keep one size).
fn built(tables: &[Table], asked: Option<&[String]>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for &t in tables {
        let wanted = match asked {
            Some(c) => c.to_vec(),
            None => default_columns(t),
        };
        let mut wanted = wanted;
        if t == Table::SgfPositions {
            wanted.extend(["board_cols".to_string(), "board_rows".to_string()]);
        }
        for n in wanted {
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    names
}

/// What is done to the table scan's batches on their way out: the rows of one Go board size,
/// the helper columns dropped, the numbers' nulls filled, the batches of fewer than
/// `batch_rows` rows put together.
struct Out {
    /// The columns handed on, per table (those asked for, else the default ones).
    asked: Option<Vec<String>>,
    batch_rows: usize,
    /// The schema handed on (the columns kept, the board size in the metadata).
    schema: Option<SchemaRef>,
    size: Option<(i32, i32)>,
    /// Go rows of another board size, left out.
    other_sizes: u64,
    /// Batches of fewer than `batch_rows` rows, waiting to go together.
    pending: Vec<RecordBatch>,
    pending_rows: usize,
    /// Where the batches put together get their buffers (the scan's).
    pool: kifu_export::Buffers,
}

impl Out {
    /// The columns of `table` handed on.
    fn kept(&self, table: Table) -> Vec<String> {
        let schema = kifu_export::schema(table, &TableOptions::default());
        match &self.asked {
            Some(c) => c
                .iter()
                .filter(|n| schema.field_with_name(n).is_ok())
                .cloned()
                .collect(),
            None => default_columns(table),
        }
    }

    /// A batch of the table scan; `false` once the consumer is gone.
    fn batch(
        &mut self,
        table: Table,
        batch: RecordBatch,
        send: &mut impl FnMut(Msg<RecordBatch>) -> bool,
    ) -> bool {
        if batch.num_rows() == 0 {
            return true;
        }
        let Some(batch) = self.one_size(table, batch) else {
            return true;
        };
        self.push(arrays(batch), send)
    }

    /// A Go batch's rows of the board size kept, the helper columns dropped (the size in the
    /// schema's metadata); a chess batch as it is.
    fn one_size(&mut self, table: Table, batch: RecordBatch) -> Option<RecordBatch> {
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
        let kept = self.kept(table);
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

    /// A batch handed on as it is when it holds `batch_rows` rows or more; smaller ones (a
    /// piece's last rows, the rows of a small file) wait and go together, put together in
    /// the scan's buffers, once they come to `batch_rows` or a larger batch comes after them.
    /// The Python side cuts the batches into its own (`batch_size` rows): the larger ones
    /// without a copy, whatever their number of rows.
    fn push(
        &mut self,
        batch: RecordBatch,
        send: &mut impl FnMut(Msg<RecordBatch>) -> bool,
    ) -> bool {
        let n = self.batch_rows;
        if batch.num_rows() >= n {
            return self.flush(send) && send(Msg::Items(vec![batch]));
        }
        self.pending_rows += batch.num_rows();
        self.pending.push(batch);
        if self.pending_rows >= n {
            return self.flush(send);
        }
        if self.pending.len() >= tables::COMPACT_EVERY {
            // many small batches (a sample, one-row files): each one's arrays held while they
            // wait are put together
            let one = self.take();
            self.pending.push(one);
        }
        true
    }

    /// The batches waiting, as one.
    fn take(&mut self) -> RecordBatch {
        let pending = std::mem::take(&mut self.pending);
        self.pool
            .concat_batches(&pending[0].schema(), &pending)
            .expect("batches of one table have one schema")
    }

    /// The rows waiting, as one batch handed on.
    fn flush(&mut self, send: &mut impl FnMut(Msg<RecordBatch>) -> bool) -> bool {
        if self.pending.is_empty() {
            return true;
        }
        let one = self.take();
        self.pending_rows = 0;
        send(Msg::Items(vec![one]))
    }

    /// The last rows, and the warning for the boards of other sizes.
    fn finish(&mut self, send: &mut impl FnMut(Msg<RecordBatch>) -> bool) -> bool {
        if !self.flush(send) {
            return false;
        }
        if self.other_sizes > 0
            && let Some((c, r)) = self.size
        {
            let message = format!(
                "kifu.positions: {} positions of boards other than {c}x{r} left out \
                 (board_size= chooses the size)",
                self.other_sizes
            );
            return send(Msg::Warn(message));
        }
        true
    }
}

/// Starts the table scan of `kifu.positions` on its thread, its batches through [`Out`].
fn start(
    source: Source,
    slot: PyErrSlot,
    spec: TableSpec,
    formats: Formats,
    scan_opts: kifu_pipeline::ScanOptions,
    mut out: Out,
) -> Pump<RecordBatch> {
    Pump::start(scan_opts.threads + 1, slot, move |tx, stop| {
        let warn = tx.clone();
        let mut send = |m: Msg<RecordBatch>| tx.send(m).is_ok();
        let scan = scan::scan(source, formats, scan_opts, &stop);
        let done = {
            let mut each = |table: Table, batch: RecordBatch| out.batch(table, batch, &mut send);
            tables::scan_table_as_made(scan, &spec, &mut each, |note| {
                if crate::arrow::warned(&note) {
                    let _ = warn.send(Msg::Warn(scan::note_text(&note)));
                }
            })
        };
        if done.stopped || !out.finish(&mut send) {
            return;
        }
        if let Some(w) = crate::arrow::distinct_warning(&done, "kifu.positions")
            && !send(Msg::Warn(w))
        {
            return;
        }
        let _ = send(Msg::End(done.scanned));
    })
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

/// `col` (the column `name`) without nulls, as `kifu export --to npz` fills them
/// ([`kifu_export::arrays::null_fill`]: `-1` in the columns of
/// [`kifu_export::arrays::NULL_AS_MINUS_ONE`], the type's smallest value in another signed
/// integer column, the largest of an unsigned one, NaN in floats); other columns as they are.
/// `python/tests/test_positions.py` compares the arrays with that export's.
fn filled_column(name: &str, col: &ArrayRef) -> ArrayRef {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{
        Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type,
        UInt32Type, UInt64Type,
    };
    use kifu_export::arrays::{NullFill, null_fill};
    if col.null_count() == 0 {
        return Arc::clone(col);
    }
    let fill = null_fill(name, col.data_type());
    // the fill of an integer type fits its type: `as` keeps its bits
    let (int, uint) = match fill {
        Some(NullFill::Int(v)) => (v, 0),
        Some(NullFill::UInt(v)) => (0, v),
        _ => (0, 0),
    };
    macro_rules! fill {
        ($($t:ty => $v:expr),*) => {
            match col.data_type() {
                $(d if d == &<$t as arrow_array::ArrowPrimitiveType>::DATA_TYPE => {
                    let a = col.as_primitive::<$t>();
                    Arc::new(arrow_array::PrimitiveArray::<$t>::from_iter_values(
                        a.iter().map(|x| x.unwrap_or($v)),
                    )) as ArrayRef
                })*
                _ => Arc::clone(col),
            }
        };
    }
    fill!(
        Int8Type => int as i8, Int16Type => int as i16, Int32Type => int as i32,
        Int64Type => int, UInt8Type => uint as u8, UInt16Type => uint as u16,
        UInt32Type => uint as u32, UInt64Type => uint,
        Float32Type => f32::NAN, Float64Type => f64::NAN
    )
}

/// The chess `side_to_move` (`white`, `black`) as `kifu export --to npz` writes it: `uint8`
/// 0 White, 1 Black, 255 for anything else ([`kifu_export::arrays::side_to_move_code`]).
fn side_to_move(col: &ArrayRef) -> ArrayRef {
    use arrow_array::cast::AsArray;
    let text = col.as_string::<i32>();
    Arc::new(arrow_array::UInt8Array::from_iter_values(
        text.iter().map(kifu_export::arrays::side_to_move_code),
    ))
}

/// A field as [`arrays`] makes its column.
fn array_field(field: &arrow_schema::Field) -> arrow_schema::Field {
    if field.name() == "side_to_move" && field.data_type() == &DataType::Utf8 {
        arrow_schema::Field::new("side_to_move", DataType::UInt8, false)
    } else {
        field.clone()
    }
}

/// `batch` as arrays take it: its numeric columns' nulls filled ([`filled_column`]), so that
/// each becomes a NumPy array without a copy, and the side to move a number.
fn arrays(batch: RecordBatch) -> RecordBatch {
    let schema = batch.schema();
    let plain = batch.columns().iter().all(|c| c.null_count() == 0)
        && schema.field_with_name("side_to_move").is_err();
    if plain {
        return batch;
    }
    let columns = schema
        .fields()
        .iter()
        .zip(batch.columns())
        .map(|(f, c)| {
            if f.name() == "side_to_move" && f.data_type() == &DataType::Utf8 {
                side_to_move(c)
            } else {
                filled_column(f.name(), c)
            }
        })
        .collect();
    let fields: Vec<arrow_schema::Field> = schema.fields().iter().map(|f| array_field(f)).collect();
    let schema = Arc::new(Schema::new_with_metadata(fields, schema.metadata().clone()));
    RecordBatch::try_new(schema, columns).expect("the same columns, without nulls")
}

/// The positions table of a format.
fn table_of(format: Format) -> Table {
    match format {
        Format::Pgn => Table::PgnPositions,
        Format::Sgf => Table::SgfPositions,
    }
}

/// The stream of `kifu.positions` (the package's `positions` turns its batches into arrays):
/// the positions table of `format` (else the first input's), the columns `columns` (else the
/// numeric ones, the bitboards and the board), the rows the filters keep (`where`, and the
/// positions filters of `kifu export`: `min_ply`, `max_ply`, `legal_only`, `sample_rate` with
/// `seed`, `distinct`), Go boards of one size; the batches as the scan's workers made them
/// (up to 8,192 rows, or `batch_rows` if more), those of fewer than `batch_rows` rows put
/// together.
#[pyfunction]
#[pyo3(signature = (source, *, format = None, columns = None, r#where = None, batch_rows = 1024,
                    board_size = None, threads = None,
                    max_game_bytes = crate::DEFAULT_MAX_GAME_BYTES, name = None,
                    min_ply = None, max_ply = None, legal_only = false, sample_rate = None,
                    seed = None, distinct = false,
                    distinct_memory = kifu_export::Distinct::DEFAULT_MEMORY, symmetries = false))]
#[allow(clippy::too_many_arguments)]
pub fn _positions(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    columns: Option<Vec<String>>,
    r#where: Option<crate::Texts>,
    batch_rows: usize,
    board_size: Option<&Bound<'_, PyAny>>,
    threads: Option<usize>,
    max_game_bytes: usize,
    name: Option<String>,
    min_ply: crate::PlyArg,
    max_ply: crate::PlyArg,
    legal_only: bool,
    sample_rate: Option<f64>,
    seed: Option<u64>,
    distinct: bool,
    distinct_memory: usize,
    symmetries: bool,
) -> PyResult<ArrowStream> {
    if batch_rows == 0 {
        return Err(PyValueError::new_err("batch_size must be at least 1"));
    }
    let format = parse_format(format)?;
    let tables: Vec<Table> = match format {
        Some(f) => vec![table_of(f)],
        None => vec![Table::PgnPositions, Table::SgfPositions],
    };
    let mut spec = match format {
        Some(f) => TableSpec::only(table_of(f)),
        None => TableSpec::by_name("positions").expect("the positions tables"),
    };
    spec.max_game_bytes = max_game_bytes;
    // the workers' batches: up to 8,192 rows (a piece's rows, most often), handed on as they
    // are when they hold `batch_rows` or more
    spec.batch_rows = batch_rows.max(TableSpec::DEFAULT_BATCH_ROWS);
    spec.columns = Some(built(&tables, columns.as_deref()));
    spec.check_columns()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    crate::arrow::Filters {
        tests: r#where.map(crate::Texts::into_vec),
        min_ply: crate::ply("min_ply", min_ply)?,
        max_ply: crate::ply("max_ply", max_ply)?,
        legal_only,
        sample_rate,
        seed,
        distinct,
        distinct_memory,
        symmetries,
    }
    .apply(&mut spec, true)?;
    let size = parse_board_size(board_size)?;
    let out = Out {
        asked: columns,
        batch_rows,
        schema: None,
        size,
        other_sizes: 0,
        pending: Vec::new(),
        pending_rows: 0,
        pool: spec.options.buffers.clone(),
    };
    let formats = match format {
        Some(f) => Formats::only(f),
        None => Formats::ANY,
    };
    let kept = |table: Table| out.kept(table);
    let empty_fields = {
        let table = table_of(format.unwrap_or(Format::Pgn));
        let all = kifu_export::schema(table, &TableOptions::default());
        let fields: Vec<_> = kept(table)
            .iter()
            .filter_map(|n| all.field_with_name(n).ok().map(array_field))
            .collect();
        let mut meta = all.metadata().clone();
        if let (Table::SgfPositions, Some((c, r))) = (table, size) {
            meta.insert(BOARD_KEY.into(), format!("{c},{r}"));
        }
        Arc::new(Schema::new_with_metadata(fields, meta))
    };
    let (source, slot) = extract(source, name)?;
    let scan_opts = scan::options(threads)?;
    let mut pump = start(source, slot, spec, formats, scan_opts, out);
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
                first.extend(msg);
                break empty_fields;
            }
        }
    };
    Ok(crate::arrow::stream(pump, first, schema, format))
}
