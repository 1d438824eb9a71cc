//! `kifu.check` (every problem, located) and `kifu.stats` (the counts of `kifu stats --json`),
//! both on every core with the GIL released.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use kifu::par::{Event, Visited, Work};
use kifu::{Control, Stats, pgn, sgf};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::diag::Diagnostic;
use crate::scan::{self, Input, Outcome, ScanOptions, Stopped};
use crate::source::{Formats, PyErrSlot, Source, parse_format};

/// A piece's problems.
pub struct Problems {
    file: Arc<str>,
    list: Vec<Diagnostic>,
}

impl pgn::Visitor for Problems {
    fn on_error(&mut self, e: &pgn::Error<'_>) -> Control {
        self.list.push(Diagnostic::pgn_event(&self.file, e, e.game));
        Control::Continue
    }
}

impl sgf::Visitor for Problems {
    fn on_error(&mut self, e: &sgf::Error<'_>) -> Control {
        self.list.push(Diagnostic::sgf_event(&self.file, e, e.game));
        Control::Continue
    }
}

struct CheckWork;

impl Work for CheckWork {
    type Input = Input;
    type Pgn = Problems;
    type Sgf = Problems;
    fn pgn(&self, input: &Input) -> Problems {
        Problems {
            file: Arc::clone(&input.name),
            list: Vec::new(),
        }
    }
    fn sgf(&self, input: &Input) -> Problems {
        self.pgn(input)
    }
}

/// Runs a scan to its end on the calling thread, the GIL released, then raises what the
/// inputs raised.
fn run_blocking<W, S>(
    py: Python<'_>,
    source: Source,
    formats: Formats,
    opts: ScanOptions,
    work: &W,
    sink: S,
) -> PyResult<Outcome>
where
    W: Work<Input = Input>,
    S: FnMut(Event<'_, W>) -> Result<(), Stopped> + Send,
{
    let slot: PyErrSlot = Arc::new(Mutex::new(None));
    let outcome = scan::interruptible(py, |stop| {
        scan::run(source, formats, opts, &slot, stop, work, sink)
    })?;
    let py_error = slot.lock().ok().and_then(|mut e| e.take());
    if let Some(e) = scan::input_error(py, &outcome, py_error) {
        return Err(e);
    }
    Ok(outcome)
}

/// Every problem of `source`, located: a list of `Diagnostic` in input order.
#[pyfunction]
#[pyo3(signature = (source, *, format = None, threads = None, name = None))]
pub fn check(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    threads: Option<usize>,
    name: Option<String>,
) -> PyResult<Vec<Diagnostic>> {
    let formats = Formats {
        forced: parse_format(format)?,
        only: None,
    };
    let source = Source::extract(source, name)?;
    let opts = ScanOptions::new(crate::threads(threads)?);
    let mut all = Vec::new();
    run_blocking(py, source, formats, opts, &CheckWork, |event| {
        if let Event::Piece { visited, info, .. } = event {
            let (Visited::Pgn(p) | Visited::Sgf(p)) = visited;
            all.extend(p.list.into_iter().map(|mut d| {
                d.game += info.first_game;
                d
            }));
        }
        Ok(())
    })?;
    Ok(all)
}

/// One [`Stats`] per piece, added up in the sink (the library's counter, as `kifu stats`'s).
struct StatsWork;

impl Work for StatsWork {
    type Input = Input;
    type Pgn = Stats;
    type Sgf = Stats;
    fn pgn(&self, _: &Input) -> Stats {
        Stats::default()
    }
    fn sgf(&self, _: &Input) -> Stats {
        Stats::default()
    }
}

/// The counts of `kifu stats --json` over `source`: a dict.
#[pyfunction]
#[pyo3(signature = (source, *, format = None, threads = None, name = None))]
pub fn stats<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    format: Option<&str>,
    threads: Option<usize>,
    name: Option<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let formats = Formats {
        forced: parse_format(format)?,
        only: None,
    };
    let source = Source::extract(source, name)?;
    let opts = ScanOptions::new(crate::threads(threads)?);
    let start = Instant::now();
    let mut total = Stats::default();
    let outcome = run_blocking(py, source, formats, opts, &StatsWork, |event| {
        match event {
            Event::Piece { visited, .. } => {
                let (Visited::Pgn(s) | Visited::Sgf(s)) = visited;
                total.add(&s);
            }
            Event::End { bytes, .. } => total.bytes += bytes,
        }
        Ok(())
    })?;
    let seconds = start.elapsed().as_secs_f64();
    let t = &total;
    let d = PyDict::new(py);
    d.set_item("games", t.games)?;
    d.set_item("tags", t.tags)?;
    d.set_item("moves", t.mainline_moves + t.variation_moves)?;
    d.set_item("mainline_moves", t.mainline_moves)?;
    d.set_item("variation_moves", t.variation_moves)?;
    d.set_item("comments", t.comments)?;
    d.set_item("nags", t.nags)?;
    d.set_item("variations", t.variations)?;
    d.set_item("errors", t.errors)?;
    d.set_item("warnings", t.warnings)?;
    d.set_item("nodes", t.nodes)?;
    d.set_item("properties", t.properties)?;
    d.set_item("bytes", t.bytes)?;
    d.set_item("seconds", seconds)?;
    let mb = if seconds > 0.0 {
        t.bytes as f64 / 1e6 / seconds
    } else {
        0.0
    };
    d.set_item("mb_per_s", mb)?;
    let (inputs, streams, skipped_files, skipped_members) = outcome.read;
    d.set_item("inputs", inputs)?;
    d.set_item("streams", streams)?;
    d.set_item("skipped_files", skipped_files)?;
    d.set_item("skipped_members", skipped_members)?;
    d.set_item("skipped", &outcome.skipped_names)?;
    Ok(d)
}
