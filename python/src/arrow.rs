//! `kifu.to_arrow` and `kifu.to_parquet`: the tables of kifu-export (the Go `positions` table
//! included) built on the scan's threads and handed over as an Arrow C stream (the PyCapsule
//! protocol, `__arrow_c_stream__`), which pyarrow, Polars and DuckDB take without a copy; or
//! written to Parquet (CSV, JSON Lines) by kifu-export's sink.

use std::sync::mpsc::SyncSender;
use std::sync::{Arc, Mutex};

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_schema::{ArrowError, SchemaRef};
use kifu::par::{Event, Visited, Work};
use kifu::{Control, pgn, sgf};
use kifu_export::{Builder, OutFormat, Shift, SinkOptions, Table, TableOptions, rebase};
use kifu_input::Format;
use pyo3::exceptions::{PyFileExistsError, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict};

use crate::DEFAULT_MAX_GAME_BYTES;
use crate::scan::{self, Input, Msg, Outcome, Pump, ScanOptions, Stopped};
use crate::source::{Formats, PyErrSlot, Source, parse_format};

/// A batch ends past this many bytes (about) when one thread reads a whole input.
const BATCH_BYTES: usize = 4 << 20;

/// Which table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One of kifu-export's.
    Export(Table),
}

impl Kind {
    fn format(self) -> Format {
        match self {
            Kind::Export(t) if !t.is_sgf() => Format::Pgn,
            _ => Format::Sgf,
        }
    }

    fn parse(name: &str, format: Option<Format>) -> PyResult<Kind> {
        let sgf = match (name, format) {
            ("trees" | "positions", _) => true,
            (_, Some(f)) => f == Format::Sgf,
            _ => false,
        };
        if name == "positions" {
            if format == Some(Format::Pgn) {
                return Err(PyValueError::new_err(
                    "the positions table is SGF's (Go training rows); for chess positions use \
                     read_pgn(..., replay='fen')",
                ));
            }
            return Ok(Kind::Export(Table::SgfPositions));
        }
        match Table::by_name(name, sgf) {
            Some(Table::PgnJson | Table::SgfJson) | None => Err(PyValueError::new_err(format!(
                "table must be 'games', 'moves', 'trees' or 'positions', not {name:?}"
            ))),
            Some(t) => Ok(Kind::Export(t)),
        }
    }
}

/// The tables' options.
#[derive(Clone, Debug)]
pub struct TableSpec {
    kind: Kind,
    opts: TableOptions,
    max_game_bytes: usize,
    /// Rows per batch when one thread reads an input (pieces make a batch each otherwise).
    batch_rows: usize,
}

impl TableSpec {
    fn schema(&self) -> SchemaRef {
        let Kind::Export(t) = self.kind;
        Builder::new(t, &self.opts).schema()
    }
}

/// A piece's visitor: the DOM builder, and the table's builder the games go to.
pub struct TableRows<B> {
    dom: B,
    rows: Builder,
    file: Arc<str>,
    spec: Arc<TableSpec>,
    batches: Vec<RecordBatch>,
    games: u64,
    unclaimed: usize,
    inline: Option<SyncSender<Msg<RecordBatch>>>,
    stopped: bool,
}

impl<B> TableRows<B> {
    fn new(
        dom: B,
        input: &Input,
        spec: &Arc<TableSpec>,
        inline: Option<SyncSender<Msg<RecordBatch>>>,
    ) -> Self {
        let Kind::Export(t) = spec.kind;
        let rows = Builder::new(t, &spec.opts);
        TableRows {
            dom,
            rows,
            file: Arc::clone(&input.name),
            spec: Arc::clone(spec),
            batches: Vec::new(),
            games: 0,
            unclaimed: 0,
            inline,
            stopped: false,
        }
    }

    fn rows(&self) -> (usize, usize) {
        (self.rows.rows(), self.rows.estimated_bytes())
    }

    /// Ends a batch (at the piece's end, or every `batch_rows` rows when one thread reads the
    /// whole input: then the batch is sent at once).
    fn cut(&mut self, end: bool) {
        let (rows, bytes) = self.rows();
        if rows == 0
            || !(end
                || (self.inline.is_some()
                    && (rows >= self.spec.batch_rows || bytes >= BATCH_BYTES)))
        {
            return;
        }
        let batch = self.rows.finish();
        match &self.inline {
            Some(tx) => {
                if tx.send(Msg::Items(vec![batch])).is_err() {
                    self.stopped = true;
                }
            }
            None => self.batches.push(batch),
        }
    }

    fn answer(&self, c: Control) -> Control {
        if self.stopped { Control::Stop } else { c }
    }
}

impl TableRows<pgn::GameBuilder> {
    fn drain(&mut self) {
        while let Some(game) = self.dom.pop() {
            self.games += 1;
            // the format filter sends PGN inputs only to PGN tables
            let _ = self.rows.push_pgn(&self.file, &game);
        }
        self.cut(false);
    }
}

impl TableRows<sgf::TreeBuilder> {
    fn drain(&mut self) {
        while let Some(tree) = self.dom.pop() {
            self.games += 1;
            let _ = self.rows.push_sgf(&self.file, &tree);
        }
        self.cut(false);
    }
}

macro_rules! forward {
    ($($name:ident($($arg:ident: $t:ty),*);)*) => {
        $(fn $name(&mut self, $($arg: $t),*) -> Control {
            let c = self.dom.$name($($arg),*);
            self.answer(c)
        })*
    };
}

impl pgn::Visitor for TableRows<pgn::GameBuilder> {
    fn on_tree(&mut self, ctx: &pgn::Context) -> Control {
        let c = self.dom.on_tree(ctx);
        if ctx.is_main_line() {
            self.drain();
        }
        self.answer(c)
    }
    forward! {
        on_tree_end(ctx: &pgn::Context);
        on_property(ctx: &pgn::Context, tag: &pgn::Tag<'_>);
        on_tags_end(ctx: &pgn::Context);
        on_move(ctx: &pgn::Context, mv: &pgn::Move<'_>);
        on_nag(ctx: &pgn::Context, nag: pgn::Nag, form: pgn::NagForm);
        on_comment(ctx: &pgn::Context, comment: &pgn::Comment<'_>);
        on_result(ctx: &pgn::Context, outcome: pgn::Outcome);
        on_error(error: &pgn::Error<'_>);
    }
    fn on_end(&mut self) {
        self.dom.on_end();
        self.drain();
        self.unclaimed += self.dom.unclaimed_errors().len();
    }
}

impl sgf::Visitor for TableRows<sgf::TreeBuilder> {
    fn on_tree(&mut self, ctx: &sgf::Context) -> Control {
        let c = self.dom.on_tree(ctx);
        if ctx.is_game_level() {
            self.drain();
        }
        self.answer(c)
    }
    forward! {
        on_tree_end(ctx: &sgf::Context);
        on_node(ctx: &sgf::Context);
        on_node_end(ctx: &sgf::Context);
        on_property(ctx: &sgf::Context, prop: &sgf::Property<'_>);
        on_value(ctx: &sgf::Context, value: &sgf::Value<'_>);
        on_move(ctx: &sgf::Context, mv: &sgf::Move<'_>);
        on_comment(ctx: &sgf::Context, comment: &sgf::Comment<'_>);
        on_error(error: &sgf::Error<'_>);
    }
    fn on_end(&mut self) {
        self.dom.on_end();
        self.drain();
        self.unclaimed += self.dom.unclaimed_errors().len();
    }
}

struct TableWork {
    spec: Arc<TableSpec>,
    inline: Option<SyncSender<Msg<RecordBatch>>>,
}

impl Work for TableWork {
    type Input = Input;
    type Pgn = TableRows<pgn::GameBuilder>;
    type Sgf = TableRows<sgf::TreeBuilder>;
    fn pgn(&self, input: &Input) -> Self::Pgn {
        // the games table writes the whole movetext; the moves table without variations needs
        // only the main line
        let dom = match self.spec.kind {
            Kind::Export(Table::PgnMoves) if !self.spec.opts.variations => {
                pgn::GameBuilder::main_line_only()
            }
            _ => pgn::GameBuilder::new(),
        };
        let dom = dom.with_max_game_bytes(self.spec.max_game_bytes);
        TableRows::new(dom, input, &self.spec, self.inline.clone())
    }
    fn sgf(&self, input: &Input) -> Self::Sgf {
        let scope = match self.spec.kind {
            Kind::Export(Table::SgfTrees) => sgf::Scope::Full,
            _ => sgf::Scope::MainLine,
        };
        let dom = sgf::TreeBuilder::with_scope(scope).with_max_game_bytes(self.spec.max_game_bytes);
        TableRows::new(dom, input, &self.spec, self.inline.clone())
    }
}

/// The scan of a table: pieces of 1 MiB (a piece's batch waits in the pool's window until the
/// pieces before it are handed on, so smaller pieces keep memory low).
fn table_scan(threads: Option<usize>) -> PyResult<ScanOptions> {
    let mut o = ScanOptions::new(crate::threads(threads)?);
    o.piece_size = 1 << 20;
    Ok(o)
}

/// Starts the scan that builds the batches of `spec` on its thread.
fn start(source: Source, spec: TableSpec, scan_opts: ScanOptions) -> Pump<RecordBatch> {
    let py_error: PyErrSlot = Arc::new(Mutex::new(None));
    let slot = Arc::clone(&py_error);
    let formats = Formats {
        forced: Some(spec.kind.format()),
        only: Some(spec.kind.format()),
    };
    let spec = Arc::new(spec);
    Pump::start(scan_opts.threads + 1, py_error, move |tx, stop| {
        let work = TableWork {
            spec,
            inline: (scan_opts.threads <= 1).then(|| tx.clone()),
        };
        let (mut games, mut unclaimed) = (0u64, 0usize);
        let outcome = scan::run(source, formats, scan_opts, &slot, &stop, &work, |event| {
            match event {
                Event::Piece { visited, info, .. } => {
                    let mut batches = match visited {
                        Visited::Pgn(mut r) => {
                            r.cut(true);
                            games += r.games;
                            unclaimed += r.unclaimed;
                            std::mem::take(&mut r.batches)
                        }
                        Visited::Sgf(mut r) => {
                            r.cut(true);
                            games += r.games;
                            unclaimed += r.unclaimed;
                            std::mem::take(&mut r.batches)
                        }
                    };
                    if info.first_game > 0 {
                        let shift = Shift {
                            index: info.first_game,
                            ..Shift::default()
                        };
                        for b in &mut batches {
                            *b = rebase(b, shift).map_err(|_| Stopped)?;
                        }
                    }
                    if !batches.is_empty() {
                        tx.send(Msg::Items(batches)).map_err(|_| Stopped)?;
                    }
                }
                Event::End { input, .. } => {
                    if games == 0 && unclaimed > 0 {
                        let w = format!(
                            "kifu: {}: no game read; {unclaimed} problem(s) (kifu.check lists them)",
                            input.name
                        );
                        tx.send(Msg::Warn(w)).map_err(|_| Stopped)?;
                    }
                    (games, unclaimed) = (0, 0);
                }
            }
            Ok(())
        });
        let _ = tx.send(Msg::End(outcome));
    })
}

/// The batches of a scan as an Arrow `RecordBatchReader` (what the C stream exports).
struct Batches {
    pump: Option<Pump<RecordBatch>>,
    queue: std::collections::VecDeque<RecordBatch>,
    schema: SchemaRef,
    wanted: Format,
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
            let msg = match Python::attach(|py| pump.recv(py)) {
                Ok(msg) => msg,
                Err(e) => {
                    // Ctrl-C: the scan stops, the consumer gets the exception
                    self.pump = None;
                    return Some(Err(ArrowError::ExternalError(Box::new(e))));
                }
            };
            match msg {
                Some(Msg::Items(batches)) => self.queue.extend(batches),
                Some(Msg::Warn(w)) => Python::attach(|py| {
                    let _ = scan::warn(py, &w);
                }),
                Some(Msg::End(outcome)) => {
                    let py_error = pump.take_py_error();
                    self.pump = None;
                    return end(&outcome, py_error, self.wanted).map(Err);
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
fn end(outcome: &Outcome, py_error: Option<PyErr>, wanted: Format) -> Option<ArrowError> {
    Python::attach(|py| {
        if let Some(w) = scan::skipped_warning(outcome, wanted) {
            let _ = scan::warn(py, &w);
        }
        scan::input_error(py, outcome, py_error)
            .map(|e| ArrowError::ExternalError(Box::new(std::io::Error::other(e.to_string()))))
    })
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

#[allow(clippy::too_many_arguments)]
fn spec(
    table: &str,
    format: Option<&str>,
    variations: bool,
    charset: &str,
    movetext_width: Option<usize>,
    max_game_bytes: usize,
    batch_rows: usize,
) -> PyResult<TableSpec> {
    let kind = Kind::parse(table, parse_format(format)?)?;
    let charset = kifu_export::Charset::by_name(charset)
        .ok_or_else(|| PyValueError::new_err(format!("unknown charset {charset:?}")))?;
    Ok(TableSpec {
        kind,
        opts: TableOptions {
            variations,
            charset,
            movetext_width,
        },
        max_game_bytes,
        batch_rows: batch_rows.max(1),
    })
}

/// A table of the games of `source` as an Arrow stream (see `docs/python.md`).
#[pyfunction]
#[pyo3(signature = (source, table = "games", *, format = None, threads = None,
                    variations = false, charset = "auto", movetext_width = None,
                    max_game_bytes = DEFAULT_MAX_GAME_BYTES, batch_rows = 65_536, name = None,
                    raw = false))]
#[allow(clippy::too_many_arguments)]
pub fn to_arrow(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    table: &str,
    format: Option<&str>,
    threads: Option<usize>,
    variations: bool,
    charset: &str,
    movetext_width: Option<usize>,
    max_game_bytes: usize,
    batch_rows: usize,
    name: Option<String>,
    raw: bool,
) -> PyResult<Py<PyAny>> {
    let spec = spec(
        table,
        format,
        variations,
        charset,
        movetext_width,
        max_game_bytes,
        batch_rows,
    )?;
    let source = Source::extract(source, name)?;
    let scan_opts = table_scan(threads)?;
    let schema = spec.schema();
    let wanted = spec.kind.format();
    let pump = start(source, spec, scan_opts);
    let batches = Batches {
        pump: Some(pump),
        queue: Default::default(),
        schema: schema.clone(),
        wanted,
    };
    let stream = ArrowStream {
        stream: Mutex::new(Some(FFI_ArrowArrayStream::new(Box::new(batches)))),
        schema,
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
    Ok(pa
        .getattr("RecordBatchReader")?
        .call_method1("from_stream", (stream,))?
        .unbind())
}

/// The Arrow schema of a table, as a `pyarrow.Schema`.
#[pyfunction]
#[pyo3(signature = (table = "games", *, format = None, variations = false))]
pub fn schema(
    py: Python<'_>,
    table: &str,
    format: Option<&str>,
    variations: bool,
) -> PyResult<Py<PyAny>> {
    let s = spec(table, format, variations, "auto", None, 0, 1)?.schema();
    let empty = Batches {
        pump: None,
        queue: Default::default(),
        schema: s.clone(),
        wanted: Format::Pgn,
    };
    let stream = ArrowStream {
        stream: Mutex::new(Some(FFI_ArrowArrayStream::new(Box::new(empty)))),
        schema: s,
    };
    let pa = py.import("pyarrow")?;
    let reader = pa
        .getattr("RecordBatchReader")?
        .call_method1("from_stream", (Py::new(py, stream)?,))?;
    Ok(reader.getattr("schema")?.unbind())
}

fn sink_error(e: kifu_export::Error) -> PyErr {
    match e {
        kifu_export::Error::Exists(p) => PyFileExistsError::new_err((
            17,
            "exists (pass force=True to replace it)",
            p.display().to_string(),
        )),
        kifu_export::Error::Input(p) => {
            PyValueError::new_err(format!("{}: the output is one of the inputs", p.display()))
        }
        other => PyOSError::new_err(other.to_string()),
    }
}

/// Writes a table of the games of `source` to `path`: Parquet (zstd), CSV or JSON Lines, one
/// file or a dataset directory; returns `{"rows", "files", "bytes"}`.
/// What the scan of `to_parquet` leaves: the sink, not yet finished (it is finished only if
/// nothing raised), the scan's outcome, and a file object's exception.
type Written = (Box<dyn kifu_export::Sink>, Option<Outcome>, Option<PyErr>);

#[pyfunction]
#[pyo3(signature = (source, path, table = "games", *, format = None, to = "parquet",
                    threads = None, variations = false, charset = "auto",
                    movetext_width = None, max_game_bytes = DEFAULT_MAX_GAME_BYTES,
                    force = false, max_rows_per_file = None, dataset = false,
                    row_group_rows = None, zstd_level = None, name = None))]
#[allow(clippy::too_many_arguments)]
pub fn to_parquet<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    path: std::path::PathBuf,
    table: &str,
    format: Option<&str>,
    to: &str,
    threads: Option<usize>,
    variations: bool,
    charset: &str,
    movetext_width: Option<usize>,
    max_game_bytes: usize,
    force: bool,
    max_rows_per_file: Option<u64>,
    dataset: bool,
    row_group_rows: Option<usize>,
    zstd_level: Option<i32>,
    name: Option<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let out_format = OutFormat::by_name(to).ok_or_else(|| {
        PyValueError::new_err(format!(
            "to must be 'parquet', 'csv' or 'jsonl', not {to:?}"
        ))
    })?;
    let spec = spec(
        table,
        format,
        variations,
        charset,
        movetext_width,
        max_game_bytes,
        65_536,
    )?;
    let source = Source::extract(source, name)?;
    let defaults = SinkOptions::default();
    let sink_opts = SinkOptions {
        force,
        dataset,
        max_rows_per_file,
        row_group_rows: row_group_rows.unwrap_or(defaults.row_group_rows),
        zstd_level: zstd_level.unwrap_or(defaults.zstd_level),
        inputs: source.paths(),
        ..defaults
    };
    let scan_opts = table_scan(threads)?;
    let schema = spec.schema();
    let wanted = spec.kind.format();
    let sink = kifu_export::create(&path, out_format, schema, &sink_opts).map_err(sink_error)?;
    let mut pump = start(source, spec, scan_opts);
    let result = py.detach(move || -> Result<Written, PyErr> {
        let mut sink = sink;
        let mut outcome = None;
        while let Some(msg) = pump.recv_free()? {
            match msg {
                Msg::Items(batches) => {
                    for b in &batches {
                        sink.write(b).map_err(sink_error)?;
                    }
                }
                Msg::Warn(w) => Python::attach(|py| scan::warn(py, &w))?,
                Msg::End(o) => outcome = Some(o),
            }
        }
        let py_error = pump.take_py_error();
        drop(pump);
        Ok((sink, outcome, py_error))
    })?;
    let (sink, outcome, py_error) = result;
    if let Some(outcome) = &outcome {
        if let Some(w) = scan::skipped_warning(outcome, wanted) {
            scan::warn(py, &w)?;
        }
        if let Some(e) = scan::input_error(py, outcome, py_error) {
            // raised: nothing is left at the path (the sink, dropped unfinished, removes
            // its temporary file)
            drop(sink);
            return Err(e);
        }
    } else if let Some(e) = py_error {
        drop(sink);
        return Err(e);
    }
    let summary = py.detach(|| sink.finish()).map_err(sink_error)?;
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
    Ok(d)
}
