//! # kifu-python: the Python package `kifu`
//!
//! PGN (chess) and SGF (Go) archives read from Python at the library's speed: games as Python
//! objects, problems as data, tables as Arrow streams and Parquet files, a visitor API, and
//! every core. Built with PyO3 as an abi3 extension module (one wheel for CPython 3.10 and
//! later) by maturin: `scripts/python_env.sh` builds and installs it in a virtual environment.
//! The Python API is documented in `docs/python.md` and `python/kifu.pyi`.
//!
//! Nothing here parses: the library (`kifu`) reads, `kifu-input` opens compressed and
//! bundled inputs, `kifu-export` builds the tables and writes Parquet, `kifu-replay` replays
//! the games. This crate runs them on threads of their own, the GIL released, and hands the
//! results to Python through bounded channels, in input order.
#![deny(missing_docs)]

mod arrow;
mod check;
mod diag;
mod find;
mod pgn_py;
mod positions;
mod read;
mod scan;
mod sgf_py;
mod source;
mod strings;
mod visit;

use kifu_input::Format;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use kifu_pipeline::{Formats, ScanOptions};

use crate::read::{ReadOptions, Replay};
use crate::source::{extract, parse_format};

/// The builder's default memory limit per game (64 MiB).
pub const DEFAULT_MAX_GAME_BYTES: usize = 64 << 20;

/// A keyword argument of texts, one or a list of them: `where='WhiteElo>=2500'` is
/// `where=['WhiteElo>=2500']` (a string is not read as a list of its characters).
#[derive(FromPyObject)]
enum Texts {
    One(String),
    List(Vec<String>),
}

impl Texts {
    fn into_vec(self) -> Vec<String> {
        match self {
            Texts::One(s) => vec![s],
            Texts::List(v) => v,
        }
    }
}

/// `within=`: one bound for every step after the first, or one for each (`None`: any later
/// ply).
#[derive(FromPyObject)]
enum Within {
    Every(u32),
    Each(Vec<Option<u32>>),
}

/// `replay=`: `None`/`False`, `True`/`"uci"`, `"fen"`.
fn parse_replay(replay: Option<&Bound<'_, PyAny>>) -> PyResult<Replay> {
    let Some(r) = replay else {
        return Ok(Replay::No);
    };
    if r.is_none() {
        return Ok(Replay::No);
    }
    if let Ok(b) = r.extract::<bool>() {
        return Ok(if b { Replay::Uci } else { Replay::No });
    }
    match r.extract::<String>()?.to_ascii_lowercase().as_str() {
        "uci" => Ok(Replay::Uci),
        "fen" => Ok(Replay::Fen),
        other => Err(PyValueError::new_err(format!(
            "replay must be True, False, 'uci' or 'fen', not {other:?}"
        ))),
    }
}

fn charset(name: &str) -> PyResult<kifu_export::Charset> {
    kifu_export::Charset::by_name(name)
        .ok_or_else(|| PyValueError::new_err(format!("unknown charset {name:?}")))
}

fn threads(threads: Option<usize>) -> PyResult<Option<usize>> {
    match threads {
        Some(0) => Err(PyValueError::new_err(
            "threads must be at least 1 (None: every core)",
        )),
        t => Ok(t),
    }
}

/// A ply bound given as `name=` (`min_ply=`, `max_ply=`): any Python int, read as a ply (0 or
/// more) by [`ply`], so that `-1` says which argument is wrong rather than Python's bare
/// `OverflowError`.
pub(crate) type PlyArg = Option<i64>;

/// The ply `name=` gives (`None`: not given).
pub(crate) fn ply(name: &str, n: PlyArg) -> PyResult<Option<u32>> {
    n.map(|n| {
        u32::try_from(n)
            .map_err(|_| PyValueError::new_err(format!("{name} must be 0 or more, not {n}")))
    })
    .transpose()
}

/// A count given as `name=` that must be at least 1, as the command line refuses 0 (`0` would
/// mean nothing: no byte of a game, no row).
pub(crate) fn at_least_one(name: &str, n: usize) -> PyResult<usize> {
    if n == 0 {
        Err(PyValueError::new_err(format!(
            "{name}=0: at least 1 (0 would mean nothing)"
        )))
    } else {
        Ok(n)
    }
}

#[allow(clippy::too_many_arguments)]
fn read(
    source: &Bound<'_, PyAny>,
    wanted: Format,
    headers_only: bool,
    main_line: bool,
    replay: Option<&Bound<'_, PyAny>>,
    threads_: Option<usize>,
    max_game_bytes: usize,
    name: Option<String>,
    charset_: &str,
) -> PyResult<read::Reader> {
    let (source, slot) = extract(source, name)?;
    let opts = ReadOptions {
        headers_only,
        main_line,
        replay: parse_replay(replay)?,
        max_game_bytes: at_least_one("max_game_bytes", max_game_bytes)?,
        batch: 64,
    };
    let mut scan_opts = ScanOptions::with_threads(threads(threads_)?.unwrap_or(1));
    // a piece's games wait as DOMs (about five times their text) for the consumer, in the
    // pool's window and in the channel: small pieces keep that small
    scan_opts.piece_size = 256 << 10;
    let pump = read::start(source, slot, Formats::only(wanted), scan_opts, opts);
    Ok(read::Reader::new(pump, wanted, charset(charset_)?))
}

/// Reads PGN games: an iterator of `Game`, in input order, one game in memory at a time.
#[pyfunction]
#[pyo3(signature = (source, *, headers_only = false, main_line = false, replay = None,
                    threads = 1, max_game_bytes = DEFAULT_MAX_GAME_BYTES, name = None))]
#[allow(clippy::too_many_arguments)]
fn read_pgn(
    source: &Bound<'_, PyAny>,
    headers_only: bool,
    main_line: bool,
    replay: Option<&Bound<'_, PyAny>>,
    threads: Option<usize>,
    max_game_bytes: usize,
    name: Option<String>,
) -> PyResult<read::Reader> {
    read(
        source,
        Format::Pgn,
        headers_only,
        main_line,
        replay,
        threads,
        max_game_bytes,
        name,
        "auto",
    )
}

/// Reads SGF game trees: an iterator of `GameTree`, in input order.
#[pyfunction]
#[pyo3(signature = (source, *, root_only = false, main_line = false, replay = false,
                    threads = 1, max_game_bytes = DEFAULT_MAX_GAME_BYTES, charset = "auto",
                    name = None))]
#[allow(clippy::too_many_arguments)]
fn read_sgf(
    source: &Bound<'_, PyAny>,
    root_only: bool,
    main_line: bool,
    replay: bool,
    threads: Option<usize>,
    max_game_bytes: usize,
    charset: &str,
    name: Option<String>,
) -> PyResult<read::Reader> {
    let py = source.py();
    let replay = replay.into_pyobject(py)?.to_owned().into_any();
    read(
        source,
        Format::Sgf,
        root_only,
        main_line,
        Some(&replay),
        threads,
        max_game_bytes,
        name,
        charset,
    )
}

/// The Python module `kifu`.
#[pymodule]
#[pyo3(name = "_kifu")]
fn kifu_python(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("DEFAULT_MAX_GAME_BYTES", DEFAULT_MAX_GAME_BYTES)?;
    m.add_function(wrap_pyfunction!(read_pgn, m)?)?;
    m.add_function(wrap_pyfunction!(read_sgf, m)?)?;
    m.add_function(wrap_pyfunction!(check::check, m)?)?;
    m.add_function(wrap_pyfunction!(check::stats, m)?)?;
    m.add_function(wrap_pyfunction!(check::stats_by, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::to_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::to_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::schema, m)?)?;
    m.add_function(wrap_pyfunction!(visit::visit, m)?)?;
    m.add_function(wrap_pyfunction!(find::find, m)?)?;
    m.add_function(wrap_pyfunction!(find::explore, m)?)?;
    m.add_function(wrap_pyfunction!(positions::_positions, m)?)?;
    m.add_class::<find::Found>()?;
    m.add_class::<find::FindReader>()?;
    m.add_class::<read::Reader>()?;
    m.add_class::<pgn_py::Game>()?;
    m.add_class::<pgn_py::Move>()?;
    m.add_class::<pgn_py::Variation>()?;
    m.add_class::<sgf_py::GameTree>()?;
    m.add_class::<sgf_py::Node>()?;
    m.add_class::<diag::Diagnostic>()?;
    m.add_class::<arrow::ArrowStream>()?;
    let _ = parse_format(None)?;
    Ok(())
}
