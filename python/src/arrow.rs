//! `kifu.to_arrow` and `kifu.to_parquet`: the tables of kifu-export (the Go `positions` table
//! included) built by kifu-pipeline's table scan, the one `kifu export` runs, and handed over
//! as an Arrow C stream (the PyCapsule protocol, `__arrow_c_stream__`), which pyarrow, Polars
//! and DuckDB take without a copy; or written to Parquet (CSV, JSON Lines) by the pipeline's
//! export, byte for byte the files `kifu export` writes.

use std::sync::Mutex;

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_schema::{ArrowError, SchemaRef};
use kifu::Format;
use kifu_export::{OutFormat, SinkOptions, Table, TableOptions};
use kifu_pipeline::tables::{self, TableSpec};
use kifu_pipeline::{Formats, Note, ScanOptions, Scanned, Source};
use pyo3::exceptions::{PyFileExistsError, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict};

use crate::DEFAULT_MAX_GAME_BYTES;
use crate::scan::{self, Msg, Pump};
use crate::source::{PyErrSlot, extract, parse_format};

/// The table `table` names for `format`, as the functions of the module take them.
fn parse_table(name: &str, format: Option<Format>) -> PyResult<Table> {
    let sgf = match (name, format) {
        ("trees" | "positions", _) => true,
        (_, Some(f)) => f == Format::Sgf,
        _ => false,
    };
    if name == "positions" {
        // without a format, Go's (`spec_by_input` takes the first input's)
        return Ok(match format {
            Some(Format::Pgn) => Table::PgnPositions,
            _ => Table::SgfPositions,
        });
    }
    match Table::by_name(name, sgf) {
        Some(Table::PgnJson | Table::SgfJson) | None => Err(PyValueError::new_err(format!(
            "table must be 'games', 'moves', 'trees' or 'positions', not {name:?}"
        ))),
        Some(t) => Ok(t),
    }
}

/// The format of a table's games.
fn format_of(table: Table) -> Format {
    if table.is_sgf() {
        Format::Sgf
    } else {
        Format::Pgn
    }
}

/// The table's one schema.
fn table_of(spec: &TableSpec) -> Table {
    spec.default_table(None)
}

/// `opts` with the positions tables' pieces ([`tables::POSITIONS_PIECE_SIZE`], as `kifu
/// export --table positions` reads): a piece of 1 MiB of games is some 20 MiB of rows, and
/// 2N + 2 pieces are in flight (docs/python.md § Memory). The batches are the same at every
/// piece size.
fn positions_pieces(spec: &TableSpec, opts: ScanOptions) -> ScanOptions {
    if spec.builds_positions() {
        ScanOptions {
            piece_size: tables::POSITIONS_PIECE_SIZE,
            ..opts
        }
    } else {
        opts
    }
}

/// Whether a note of a table scan becomes a Python warning (inputs that held only problems,
/// games left out of the table).
pub(crate) fn warned(note: &Note) -> bool {
    match note {
        Note::NoGame { problems, .. } => *problems > 0,
        Note::NoInput { .. } => false,
        _ => true,
    }
}

/// The rows a table keeps, as `kifu export`'s "Which rows" flags choose them: the games'
/// key tests (`where`, as `-w`) on every table, and the positions tables' filters, named as
/// the command's flags (`min_ply` for `--min-ply`, …).
#[derive(Clone, Debug, Default)]
pub(crate) struct Filters {
    /// `where=`: each test must hold (one of its `|` alternatives).
    pub tests: Option<Vec<String>>,
    /// `min_ply=`.
    pub min_ply: Option<u32>,
    /// `max_ply=`.
    pub max_ply: Option<u32>,
    /// `legal_only=`.
    pub legal_only: bool,
    /// `sample_rate=`.
    pub sample_rate: Option<f64>,
    /// `seed=` (the sample's; `kifu.positions`' shuffle's too).
    pub seed: Option<u64>,
    /// `distinct=`.
    pub distinct: bool,
    /// `distinct_memory=`.
    pub distinct_memory: usize,
    /// `symmetries=` (Go positions: each position once per symmetry of the board).
    pub symmetries: bool,
}

impl Filters {
    /// Sets `spec`'s tests and positions options.
    ///
    /// # Errors
    ///
    /// A test that cannot be read; a positions filter on another table; a sample rate out of
    /// (0, 1]; `seed` without `sample_rate` unless `seed_alone` (the shuffle's seed).
    pub(crate) fn apply(&self, spec: &mut TableSpec, seed_alone: bool) -> PyResult<()> {
        spec.tests = self
            .tests
            .iter()
            .flatten()
            .map(|t| {
                t.parse::<kifu_pipeline::keys::AnyOf>()
                    .map_err(PyValueError::new_err)
            })
            .collect::<PyResult<Vec<_>>>()?;
        crate::scan::warn_near_misses(spec.tests.iter().flat_map(|t| t.keys()))?;
        let any = self.min_ply.is_some()
            || self.max_ply.is_some()
            || self.legal_only
            || self.sample_rate.is_some()
            || self.distinct
            || self.symmetries;
        let positions = [spec.pgn, spec.sgf]
            .into_iter()
            .flatten()
            .all(|t| matches!(t, Table::PgnPositions | Table::SgfPositions));
        if any && !positions {
            return Err(PyValueError::new_err(
                "min_ply, max_ply, legal_only, sample_rate, distinct and symmetries choose \
                 positions: table='positions'",
            ));
        }
        kifu_pipeline::find::check_ply_bounds(self.min_ply, self.max_ply, ["min_ply", "max_ply"])
            .map_err(PyValueError::new_err)?;
        if self.seed.is_some() && self.sample_rate.is_none() && !seed_alone {
            return Err(PyValueError::new_err("seed= is the seed of sample_rate="));
        }
        let sample = match self.sample_rate {
            None => None,
            Some(rate) => Some(
                kifu_export::Sample::new(rate, self.seed.unwrap_or(0)).ok_or_else(|| {
                    PyValueError::new_err(format!("sample_rate {rate}: a rate above 0, at most 1"))
                })?,
            ),
        };
        if self.distinct_memory == 0 {
            return Err(PyValueError::new_err(
                "distinct_memory 0: the memory of distinct's set of keys is at least 1 byte",
            ));
        }
        spec.options.symmetries = self.symmetries;
        spec.options.positions = kifu_export::PositionOptions {
            min_ply: self.min_ply.unwrap_or(0),
            max_ply: self.max_ply,
            legal_only: self.legal_only,
            sample,
            distinct: self.distinct.then_some(kifu_export::Distinct {
                memory: self.distinct_memory,
            }),
        };
        Ok(())
    }
}

/// The warning of a scan that kept one row per distinct position when its set of keys was
/// full (rows past it kept unchecked).
pub(crate) fn distinct_warning(done: &tables::TableScanned, who: &str) -> Option<String> {
    let d = done.distinct?;
    (d.unchecked > 0).then(|| {
        format!(
            "{who}: distinct: the set of keys was full ({} keys: distinct_memory); {} rows \
             kept unchecked, their positions may repeat",
            d.capacity, d.unchecked
        )
    })
}

/// Starts the scan that builds the batches of `spec` on its thread (kifu-pipeline's table
/// scan: the batches `kifu export` writes).
fn start(
    source: Source,
    py_error: PyErrSlot,
    spec: TableSpec,
    formats: Formats,
    scan_opts: ScanOptions,
) -> Pump<RecordBatch> {
    Pump::start(scan_opts.threads + 1, py_error, move |tx, stop| {
        let warn = tx.clone();
        let scan = scan::scan(source, formats, scan_opts, &stop);
        let done = tables::scan_table(
            scan,
            &spec,
            |_, batch| tx.send(Msg::Items(vec![batch])).is_ok(),
            |note| {
                if warned(&note) {
                    let _ = warn.send(Msg::Warn(scan::note_text(&note)));
                }
            },
        );
        if !done.stopped {
            if let Some(w) = distinct_warning(&done, "kifu.to_arrow") {
                let _ = tx.send(Msg::Warn(w));
            }
            let _ = tx.send(Msg::End(done.scanned));
        }
    })
}

/// The batches of a scan as an Arrow `RecordBatchReader` (what the C stream exports).
struct Batches {
    pump: Option<Pump<RecordBatch>>,
    /// Messages received before the stream was handed out (the first, which told the table
    /// of a source read by its first input's format).
    first: std::collections::VecDeque<Msg<RecordBatch>>,
    queue: std::collections::VecDeque<RecordBatch>,
    schema: SchemaRef,
    /// The one format read, for the warning about inputs skipped (`None`: both are read).
    wanted: Option<Format>,
    /// The Python exception that ended the stream, kept for the package to raise as it is
    /// (through the C stream it only passes as text).
    raised: ErrorSlot,
}

/// The exception that ended a stream.
type ErrorSlot = std::sync::Arc<Mutex<Option<PyErr>>>;

impl Batches {
    /// `e` as the stream's error, kept for [`ArrowStream::_error`].
    fn fail(&self, e: PyErr) -> ArrowError {
        let text = e.to_string();
        if let Ok(mut slot) = self.raised.lock() {
            *slot = Some(e);
        }
        ArrowError::ExternalError(Box::new(std::io::Error::other(text)))
    }
}

impl Iterator for Batches {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(b) = self.queue.pop_front() {
                return Some(Ok(b));
            }
            let pump = self.pump.as_mut()?;
            // called by the consumer (pyarrow, Polars, DuckDB) with or without the GIL: wait
            // without it, since a file object read on the scan's thread needs it
            let msg = match self.first.pop_front() {
                Some(first) => Some(first),
                None => match Python::attach(|py| pump.recv(py)) {
                    Ok(msg) => msg,
                    Err(e) => {
                        // Ctrl-C: the scan stops, the consumer gets the exception
                        self.pump = None;
                        return Some(Err(self.fail(e)));
                    }
                },
            };
            match msg {
                Some(Msg::Items(batches)) => self.queue.extend(batches),
                Some(Msg::Warn(w)) => Python::attach(|py| {
                    let _ = scan::warn(py, &w);
                }),
                Some(Msg::End(scanned)) => {
                    let py_error = pump.take_py_error();
                    self.pump = None;
                    return end(&scanned, py_error, self.wanted).map(|e| Err(self.fail(e)));
                }
                None => {
                    self.pump = None;
                    return None;
                }
            }
        }
    }
}

/// The stream's end: warnings for skipped inputs, an error for inputs that failed.
fn end(scanned: &Scanned, py_error: Option<PyErr>, wanted: Option<Format>) -> Option<PyErr> {
    Python::attach(|py| scan::finish(py, scanned, py_error, wanted).err())
}

impl RecordBatchReader for Batches {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

/// An Arrow C stream of a kifu table: pass it to `pyarrow.RecordBatchReader.from_stream`,
/// `polars.from_arrow`, DuckDB, or anything that takes `__arrow_c_stream__`. It can be consumed
/// once.
#[pyclass(module = "kifu", name = "ArrowStream")]
pub struct ArrowStream {
    stream: Mutex<Option<FFI_ArrowArrayStream>>,
    schema: SchemaRef,
    raised: ErrorSlot,
}

#[pymethods]
impl ArrowStream {
    /// The Arrow PyCapsule protocol: a capsule named `arrow_array_stream` holding the stream.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema; // the schema is the table's; consumers cast if they wish
        let stream = self
            .stream
            .lock()
            .map_err(|_| PyRuntimeError::new_err("stream poisoned"))?
            .take()
            .ok_or_else(|| PyRuntimeError::new_err("the stream was already consumed"))?;
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }

    /// The exception that ended the stream (an `InputError`, a `KeyboardInterrupt`), taken;
    /// `None` if it ended cleanly or has not ended. The package raises it in place of the Arrow
    /// error that carried its text through the C stream.
    fn _error(&self) -> Option<PyErr> {
        self.raised.lock().ok().and_then(|mut e| e.take())
    }

    /// The table's columns, as `name: type` lines.
    fn __repr__(&self) -> String {
        let cols: Vec<String> = self
            .schema
            .fields()
            .iter()
            .map(|f| format!("{}: {}", f.name(), f.data_type()))
            .collect();
        format!("<ArrowStream {}>", cols.join(", "))
    }
}

/// The spec of the table a source's games go to, and the formats its scan reads: `games`
/// and `moves` without `format=` (and without `replay=True`, which is chess's) are the
/// table of the first input's format, PGN `games` or SGF `trees` (`moves` of either), as
/// `kifu export --table` takes them; else the one table `table` and `format` name
/// ([`spec`]).
#[allow(clippy::too_many_arguments)]
fn spec_by_input(
    table: &str,
    format: Option<&str>,
    variations: bool,
    replay: bool,
    columns: Option<Vec<String>>,
    charset: &str,
    movetext_width: Option<usize>,
    max_game_bytes: usize,
) -> PyResult<(TableSpec, Formats)> {
    let forced = parse_format(format)?;
    let mut spec = spec(
        table,
        format,
        variations,
        replay,
        None,
        charset,
        movetext_width,
        max_game_bytes,
    )?;
    let formats = match (table, forced) {
        ("games" | "moves" | "positions", None) if !replay => {
            let options = spec.options.clone();
            spec = TableSpec::by_name(table).expect("games, moves and positions name tables");
            spec.options = options;
            spec.max_game_bytes = max_game_bytes;
            Formats::ANY
        }
        _ => Formats::only(format_of(table_of(&spec))),
    };
    spec.columns = columns;
    spec.check_columns()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    // `columns` that only one format's table has (`["White", "Black"]`) name that table: the
    // other's would have no column
    if by_input(&spec) && spec.columns.is_some() {
        for format in [Format::Pgn, Format::Sgf] {
            let table = spec.table(format).expect("both tables");
            if spec.schema(table).fields().is_empty() {
                let other = match format {
                    Format::Pgn => Format::Sgf,
                    Format::Sgf => Format::Pgn,
                };
                let mut only = TableSpec::only(spec.table(other).expect("both tables"));
                only.options = spec.options.clone();
                only.max_game_bytes = spec.max_game_bytes;
                only.columns = spec.columns.take();
                return Ok((only, Formats::only(other)));
            }
        }
    }
    Ok((spec, formats))
}

/// Whether a spec holds a table of each format (its table is told by the first input's).
fn by_input(spec: &TableSpec) -> bool {
    spec.pgn.is_some() && spec.sgf.is_some()
}

/// The spec of the one table `table` and `format` name (`games` is PGN's unless
/// `format="sgf"`), as [`schema`] describes it.
#[allow(clippy::too_many_arguments)]
fn spec(
    table: &str,
    format: Option<&str>,
    variations: bool,
    replay: bool,
    columns: Option<Vec<String>>,
    charset: &str,
    movetext_width: Option<usize>,
    max_game_bytes: usize,
) -> PyResult<TableSpec> {
    let table = parse_table(table, parse_format(format)?)?;
    if replay && !matches!(table, Table::PgnGames | Table::PgnMoves) {
        return Err(PyValueError::new_err(
            "replay=True adds chess columns: to the PGN games and moves tables only",
        ));
    }
    let charset = kifu_export::Charset::by_name(charset)
        .ok_or_else(|| PyValueError::new_err(format!("unknown charset {charset:?}")))?;
    let mut spec = TableSpec::only(table);
    spec.options = TableOptions {
        variations,
        charset,
        movetext_width,
        ..TableOptions::default()
    };
    spec.max_game_bytes = max_game_bytes;
    spec.replay = replay;
    if let Some(idle) = spec.idle_options().first() {
        return Err(PyValueError::new_err(format!(
            "{idle}=True changes nothing in the positions table (its rows are the main line's, \
             replayed: epd, key, uci): replay= and variations= are for the games and moves tables"
        )));
    }
    spec.columns = columns;
    spec.check_columns()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(spec)
}

/// A table of the games of `source` as an Arrow stream (see `docs/python.md`).
#[pyfunction]
#[pyo3(signature = (source, table = "games", *, format = None, threads = None,
                    variations = false, replay = false, columns = None, charset = "auto", movetext_width = None,
                    max_game_bytes = DEFAULT_MAX_GAME_BYTES, batch_rows = TableSpec::DEFAULT_BATCH_ROWS,
                    name = None,
                    raw = false, r#where = None, min_ply = None, max_ply = None, legal_only = false,
                    sample_rate = None, seed = None, distinct = false,
                    distinct_memory = kifu_export::Distinct::DEFAULT_MEMORY, symmetries = false))]
#[allow(clippy::too_many_arguments)]
pub fn to_arrow(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    table: &str,
    format: Option<&str>,
    threads: Option<usize>,
    variations: bool,
    replay: bool,
    columns: Option<Vec<String>>,
    charset: &str,
    movetext_width: Option<usize>,
    max_game_bytes: usize,
    batch_rows: usize,
    name: Option<String>,
    raw: bool,
    r#where: Option<crate::Texts>,
    min_ply: crate::PlyArg,
    max_ply: crate::PlyArg,
    legal_only: bool,
    sample_rate: Option<f64>,
    seed: Option<u64>,
    distinct: bool,
    distinct_memory: usize,
    symmetries: bool,
) -> PyResult<Py<PyAny>> {
    let (mut spec, formats) = spec_by_input(
        table,
        format,
        variations,
        replay,
        columns,
        charset,
        movetext_width,
        max_game_bytes,
    )?;
    Filters {
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
    .apply(&mut spec, false)?;
    spec.batch_rows = batch_rows.max(1);
    let (source, slot) = extract(source, name)?;
    let scan_opts = positions_pieces(&spec, scan::options(threads)?);
    let mut schema = spec.schema(table_of(&spec));
    let wanted = formats.only;
    let forced = formats.forced;
    let mut pump = start(source, slot, spec.clone(), formats, scan_opts);
    let mut first = std::collections::VecDeque::new();
    if by_input(&spec) {
        // the table is the first input's: the stream's schema is its first batch's (as `kifu
        // export` creates its output when the first rows come), or, when none comes, the
        // table of the format forced (else PGN's)
        loop {
            match pump.recv(py)? {
                Some(Msg::Warn(w)) => scan::warn(py, &w)?,
                Some(Msg::Items(batches)) => {
                    if let Some(b) = batches.first() {
                        schema = b.schema();
                    }
                    first.push_back(Msg::Items(batches));
                    break;
                }
                msg => {
                    schema = spec.schema(spec.default_table(forced));
                    first.extend(msg);
                    break;
                }
            }
        }
    }
    let raised = ErrorSlot::default();
    let batches = Batches {
        pump: Some(pump),
        first,
        queue: Default::default(),
        schema: schema.clone(),
        wanted,
        raised: raised.clone(),
    };
    let stream = ArrowStream {
        stream: Mutex::new(Some(FFI_ArrowArrayStream::new(Box::new(batches)))),
        schema,
        raised,
    };
    let stream = Py::new(py, stream)?;
    if raw {
        return Ok(stream.into_any());
    }
    let pa = py.import("pyarrow").map_err(|e| {
        pyo3::exceptions::PyImportError::new_err(format!(
            "kifu.to_arrow returns a pyarrow.RecordBatchReader: install pyarrow, or pass \
             raw=True for the bare Arrow C stream ({e})"
        ))
    })?;
    // the package's reader raises kifu's own exceptions (`InputError`), which the C stream
    // passes only as text; the native module alone gives pyarrow's reader
    match py.import("kifu").and_then(|m| m.getattr("_reader")) {
        Ok(reader) => Ok(reader.call1((stream,))?.unbind()),
        Err(_) => Ok(pa
            .getattr("RecordBatchReader")?
            .call_method1("from_stream", (stream,))?
            .unbind()),
    }
}

/// An Arrow C stream of the batches of `pump`, `first` the messages received before (the
/// batch that told the schema), `wanted` the one format read (for the warning about inputs
/// skipped).
pub(crate) fn stream(
    pump: Pump<RecordBatch>,
    first: Vec<Msg<RecordBatch>>,
    schema: SchemaRef,
    wanted: Option<Format>,
) -> ArrowStream {
    let raised = ErrorSlot::default();
    let batches = Batches {
        pump: Some(pump),
        first: first.into(),
        queue: Default::default(),
        schema: schema.clone(),
        wanted,
        raised: raised.clone(),
    };
    ArrowStream {
        stream: Mutex::new(Some(FFI_ArrowArrayStream::new(Box::new(batches)))),
        schema,
        raised,
    }
}

/// The Arrow schema of a table, as a `pyarrow.Schema`.
#[pyfunction]
#[pyo3(signature = (table = "games", *, format = None, variations = false, replay = false,
                    columns = None))]
pub fn schema(
    py: Python<'_>,
    table: &str,
    format: Option<&str>,
    variations: bool,
    replay: bool,
    columns: Option<Vec<String>>,
) -> PyResult<Py<PyAny>> {
    let spec = spec(table, format, variations, replay, columns, "auto", None, 0)?;
    let s = spec.schema(table_of(&spec));
    let empty = Batches {
        pump: None,
        first: Default::default(),
        queue: Default::default(),
        schema: s.clone(),
        wanted: None,
        raised: ErrorSlot::default(),
    };
    let stream = ArrowStream {
        stream: Mutex::new(Some(FFI_ArrowArrayStream::new(Box::new(empty)))),
        schema: s,
        raised: ErrorSlot::default(),
    };
    let pa = py.import("pyarrow")?;
    let reader = pa
        .getattr("RecordBatchReader")?
        .call_method1("from_stream", (Py::new(py, stream)?,))?;
    Ok(reader.getattr("schema")?.unbind())
}

/// An error of the output as Python raises it: `FileExistsError` for an existing output
/// (without `force`), `ValueError` for an output refused (an input, a link), else `OSError`.
fn output_error(e: std::io::Error) -> PyErr {
    match e.kind() {
        std::io::ErrorKind::AlreadyExists => {
            PyFileExistsError::new_err((17, format!("{e} (pass force=True to replace it)")))
        }
        std::io::ErrorKind::InvalidInput => PyValueError::new_err(e.to_string()),
        _ => PyOSError::new_err(e.to_string()),
    }
}

/// The file format of `to_parquet`'s output: `to` if given, else the one `path`'s extension
/// names as `kifu export` reads it (`.parquet`/`.pq`, `.csv`, `.jsonl`/`.ndjson`/`.json`),
/// else Parquet for a name without an extension or a dataset directory; an extension that
/// names no format of these is refused (a `.csv` name never holds Parquet).
fn out_format(path: &std::path::Path, to: Option<&str>, dataset_dir: bool) -> PyResult<OutFormat> {
    // a compressed file's name (`x.csv.gz`): kifu writes none, so never plain text under it
    if let (Some(ext), false) = (OutFormat::compressed_name(path), dataset_dir) {
        return Err(PyValueError::new_err(format!(
            "{}: kifu writes no .{ext} file: name it without .{ext} and compress it after",
            path.display()
        )));
    }
    if let Some(to) = to {
        let format = OutFormat::by_name(to).ok_or_else(|| {
            PyValueError::new_err(format!(
                "to must be 'parquet', 'csv' or 'jsonl', not {to:?}"
            ))
        })?;
        // never CSV under a `.parquet` name (a dataset directory's name tells no format)
        if let (Some(named), false) = (format.named_otherwise(path), dataset_dir) {
            return Err(PyValueError::new_err(format!(
                "{}: to={to:?} writes {}, but the name's extension says {}: name it .{} or \
                 leave out to=",
                path.display(),
                format.extension(),
                named.extension(),
                format.extension()
            )));
        }
        return Ok(format);
    }
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match OutFormat::by_extension(path) {
        Some(f @ (OutFormat::Parquet | OutFormat::Csv | OutFormat::Jsonl)) => Ok(f),
        _ if ext.is_none() || dataset_dir => Ok(OutFormat::Parquet),
        _ => Err(PyValueError::new_err(format!(
            "{}: the extension .{} names no format kifu writes (.parquet, .csv, .jsonl): \
             pass to='parquet', 'csv' or 'jsonl'",
            path.display(),
            ext.unwrap_or_default()
        ))),
    }
}

/// Writes a table of the games of `source` to `path`: Parquet (zstd), CSV or JSON Lines (as
/// `to` says, else `path`'s extension: [`out_format`]), one
/// file or a dataset directory (kifu-pipeline's export: the bytes `kifu export` writes);
/// returns `{"rows", "files", "bytes"}`. When an input could not be read, raises, and nothing
/// is put at `path`.
#[pyfunction]
#[pyo3(signature = (source, path, table = "games", *, format = None, to = None,
                    threads = None, variations = false, replay = false, columns = None, charset = "auto",
                    movetext_width = None, max_game_bytes = DEFAULT_MAX_GAME_BYTES,
                    force = false, max_rows_per_file = None, dataset = false, partition_by = None,
                    row_group_rows = None, zstd_level = None, name = None, r#where = None,
                    min_ply = None, max_ply = None, legal_only = false, sample_rate = None,
                    seed = None, distinct = false,
                    distinct_memory = kifu_export::Distinct::DEFAULT_MEMORY, symmetries = false))]
#[allow(clippy::too_many_arguments)]
pub fn to_parquet<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    path: std::path::PathBuf,
    table: &str,
    format: Option<&str>,
    to: Option<&str>,
    threads: Option<usize>,
    variations: bool,
    replay: bool,
    columns: Option<Vec<String>>,
    charset: &str,
    movetext_width: Option<usize>,
    max_game_bytes: usize,
    force: bool,
    max_rows_per_file: Option<u64>,
    dataset: bool,
    partition_by: Option<Vec<String>>,
    row_group_rows: Option<usize>,
    zstd_level: Option<i32>,
    name: Option<String>,
    r#where: Option<crate::Texts>,
    min_ply: crate::PlyArg,
    max_ply: crate::PlyArg,
    legal_only: bool,
    sample_rate: Option<f64>,
    seed: Option<u64>,
    distinct: bool,
    distinct_memory: usize,
    symmetries: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let dataset_dir = dataset || max_rows_per_file.is_some() || partition_by.is_some();
    let out_format = out_format(&path, to, dataset_dir);
    let (mut spec, formats) = spec_by_input(
        table,
        format,
        variations,
        replay,
        columns,
        charset,
        movetext_width,
        max_game_bytes,
    )?;
    Filters {
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
    .apply(&mut spec, false)?;
    // a file object's file is an input: never the output, while the export runs
    let _reading = crate::source::reading(source)?;
    let (source, slot) = extract(source, name)?;
    let out_format = out_format.map_err(|e| {
        // an output that is an input is refused as such first (a `.pgn` named as the output)
        match kifu_output::Guard::new(source.paths(), force).check(&path) {
            Err(refused @ kifu_output::Error::Input(_)) => output_error(refused.into()),
            _ => e,
        }
    })?;
    let defaults = SinkOptions::default();
    let sink_opts = SinkOptions {
        force,
        dataset,
        max_rows_per_file,
        partition_by: partition_by.unwrap_or_default(),
        row_group_rows: row_group_rows.unwrap_or(defaults.row_group_rows),
        zstd_level: zstd_level.unwrap_or(defaults.zstd_level),
        ..defaults
    };
    let scan_opts = positions_pieces(&spec, scan::options(threads)?);
    let wanted = formats.only;
    let mut notes = Vec::new();
    let done = scan::interruptible(py, |stop| {
        let scan = scan::scan(source, formats, scan_opts, stop);
        let note = |n: Note| {
            if warned(&n) {
                notes.push(scan::note_text(&n));
            }
        };
        tables::export_with(scan, &spec, &path, out_format, &sink_opts, false, note)
    })?;
    for w in &notes {
        scan::warn(py, w)?;
    }
    let done = done.map_err(output_error)?;
    if let Some(w) = distinct_warning(&done.scan, "kifu.to_parquet") {
        scan::warn(py, &w)?;
    }
    let py_error = slot.lock().ok().and_then(|mut e| e.take());
    // raised: nothing was put at the path (the sink, dropped unfinished, removed its temporary)
    scan::finish(py, &done.scan.scanned, py_error, wanted)?;
    let summary = done.summary;
    let d = PyDict::new(py);
    d.set_item("rows", summary.rows)?;
    d.set_item(
        "files",
        summary
            .files
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>(),
    )?;
    d.set_item("bytes", summary.bytes)?;
    // a mixed source: the table of its other format, written beside `path`
    if let Some((other_path, other)) = done.other {
        let o = PyDict::new(py);
        o.set_item("path", other_path.display().to_string())?;
        o.set_item("rows", other.rows)?;
        o.set_item(
            "files",
            other
                .files
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>(),
        )?;
        o.set_item("bytes", other.bytes)?;
        d.set_item("other", o)?;
    }
    Ok(d)
}
