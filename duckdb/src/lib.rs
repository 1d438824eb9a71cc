//! # kifu-duckdb: `read_pgn` and `read_sgf` in DuckDB
//!
//! A DuckDB loadable extension (the C extension API, through the `duckdb` crate's
//! `loadable-extension`: nothing of DuckDB is compiled or linked) that reads chess PGN and Go
//! SGF archives in place, as the tables of `kifu export`:
//!
//! ```sql
//! LOAD 'kifu.duckdb_extension';
//! SELECT Opening, count(*), avg(WhiteElo) FROM read_pgn('lichess_2024-01.pgn.zst') GROUP BY ALL;
//! SELECT count(*) FROM read_sgf('kgs-2019.tar.bz2', rows := 'moves');
//! SELECT count(*) FROM 'twic1500.pgn.gz';  -- a name ending in .pgn or .sgf: read_pgn, read_sgf
//! ```
//!
//! - The tables are kifu-pipeline's ([`kifu_pipeline::tables`]): the schemas, values and game
//!   numbers of `kifu export` for the same input, built by the same code.
//! - Projection pushdown: only the columns the query reads are built, with the export's
//!   shortcuts (`count(*)` or a few tags read no movetext at all).
//! - The scan reads on DuckDB's threads: inputs and the pieces of a large input as `kifu::par`
//!   cuts them are read by the threads that ask for chunks ([`scan`]). The rows are the same
//!   at every thread count.
//! - A game's problems are in its `error_count` and `errors` columns; an input that cannot
//!   be read fails the query with an error naming it, or, with `ignore_errors := true`, is a
//!   row of its own with the error in `input_error`.
//! - `filename := true` adds the file each row was read from, as DuckDB's `read_csv` does;
//!   a name that ends in `.pgn` or `.sgf` (compressed or not) is read by `FROM 'name'` alone
//!   ([`replace`]).
//!
//! Build it with `scripts/duckdb/build.sh` (cargo, then the metadata footer DuckDB requires)
//! and load it with `allow_unsigned_extensions`; the functions, parameters and columns are in
//! the repository's `docs/duckdb.md`.
#![deny(missing_docs)]

pub mod bind;
#[cfg(test)]
mod fake;
pub mod replace;
pub mod scan;
pub mod vector;

use std::error::Error;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{Array, StringArray};
use duckdb::core::{DataChunkHandle, LogicalTypeHandle, LogicalTypeId};
use duckdb::vtab::{BindInfo, InitInfo, TableFunctionInfo, VTab};
use duckdb::{Connection, ffi};
use kifu::Format;

use crate::bind::{Arg, Call, FILENAME, INPUT_ERROR, Kind};
use crate::scan::{Piece, Scanning};
use crate::vector::Vector;

/// Registers the extension's table functions, `read_pgn` and `read_sgf`, on `conn`.
///
/// # Errors
///
/// DuckDB refusing a function.
pub fn register(conn: &Connection) -> Result<(), Box<dyn Error>> {
    conn.register_table_function::<ReadPgn>("read_pgn")?;
    conn.register_table_function::<ReadSgf>("read_sgf")?;
    Ok(())
}

/// The entry point DuckDB calls when it loads the extension (`LOAD 'kifu.duckdb_extension'`):
/// the C API's function pointers are taken ([`ffi::duckdb_rs_extension_api_init`], at least
/// the stable C API v1.2.0), then the table functions ([`register`]) and the replacement scan
/// ([`replace::add`]: `FROM 'games.pgn.zst'`) are added to the database. The `duckdb` crate's
/// `duckdb_entrypoint_c_api` macro does the same but hands on a connection only, and a
/// replacement scan is added to the database itself.
///
/// # Safety
///
/// Called by DuckDB, with the `info` and `access` of the extension being loaded.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kifu_init_c_api(
    info: ffi::duckdb_extension_info,
    access: *const ffi::duckdb_extension_access,
) -> bool {
    // SAFETY: `info` and `access` are DuckDB's, as the caller's contract says.
    match unsafe { init_extension(info, access) } {
        Ok(loaded) => loaded,
        Err(e) => {
            // SAFETY: as above; `access` is DuckDB's table of callbacks.
            if let Some(set_error) = unsafe { (*access).set_error } {
                let text =
                    std::ffi::CString::new(e.to_string().replace('\0', " ")).unwrap_or_default();
                // SAFETY: a callback of DuckDB's, given its `info` and a C string that lives
                // through the call (DuckDB copies it).
                unsafe { set_error(info, text.as_ptr()) };
            }
            false
        }
    }
}

/// [`kifu_init_c_api`]'s work: `Ok(false)` where DuckDB serves no C API this extension can
/// use (DuckDB has said why).
///
/// # Safety
///
/// As [`kifu_init_c_api`].
unsafe fn init_extension(
    info: ffi::duckdb_extension_info,
    access: *const ffi::duckdb_extension_access,
) -> Result<bool, Box<dyn Error>> {
    // SAFETY: DuckDB's `info` and `access` (the caller's contract); the function pointers are
    // stored once, before any other call of the C API.
    if !unsafe { ffi::duckdb_rs_extension_api_init(info, access, MIN_C_API) }? {
        return Ok(false);
    }
    // SAFETY: `access` is DuckDB's table of callbacks (the caller's contract).
    let get_database =
        unsafe { (*access).get_database }.ok_or("DuckDB gave no get_database to the extension")?;
    // SAFETY: a callback of DuckDB's, given its `info`.
    let db = unsafe { get_database(info) };
    if db.is_null() {
        // DuckDB has said why
        return Ok(false);
    }
    // SAFETY: a non-null pointer DuckDB returned to the database being loaded into, which
    // outlives the extension's loading.
    let db: ffi::duckdb_database = unsafe { *db };
    // SAFETY: `db` is DuckDB's open database (above); the connection is closed when dropped.
    let conn = unsafe { Connection::open_from_raw(db.cast()) }?;
    register(&conn)?;
    // SAFETY: as above: the database the extension is loaded into, and the C API initialized.
    unsafe { replace::add(db) };
    Ok(true)
}

/// The C API version the extension asks DuckDB for (the functions it calls are all in it).
const MIN_C_API: &str = "v1.2.0";

/// `read_pgn(source, rows := 'games'|'moves'|'positions', replay, variations, max_game_bytes,
/// threads, ignore_errors, filename)`: chess games.
pub struct ReadPgn;

/// `read_sgf(source, rows := 'trees'|'moves'|'positions', charset, max_game_bytes, threads,
/// ignore_errors, filename)`: Go game trees.
pub struct ReadSgf;

/// A column of the output chunk: where its values come from.
#[derive(Clone, Debug)]
enum Column {
    /// The column of this name in the scan's batches (at this index).
    Table { name: String, index: usize },
    /// `input_error` (`ignore_errors := true`): NULL on game rows.
    InputError,
    /// `filename` (`filename := true`): the file of each row, from the `file` column (at this
    /// index in the batches).
    Filename { file: usize },
    /// DuckDB's row id (asked for by `count(*)`): NULL.
    RowId,
}

/// A query's state: its scan and its columns.
pub struct Init {
    scanning: Scanning,
    columns: Vec<Column>,
    /// Rows of a chunk (DuckDB's vector size).
    chunk_rows: usize,
}

fn bind(format: Format, bind: &BindInfo) -> Result<Call, Box<dyn Error>> {
    let name = bind::function_name(format);
    let source = bind.get_parameter(0);
    let sources: Vec<String> = match source.logical_type_id() {
        _ if source.is_null() => return Err(format!("{name}: the source is NULL").into()),
        LogicalTypeId::Varchar => vec![source.to_string()],
        LogicalTypeId::List => {
            let items = source.to_list().unwrap_or_default();
            if items.iter().any(|v| v.is_null()) {
                return Err(format!("{name}: a source in the list is NULL").into());
            }
            items.iter().map(|v| v.to_string()).collect()
        }
        other => {
            return Err(format!(
                "{name}: the source is a path, a glob or a list of them (VARCHAR or VARCHAR[]), \
                 not {other:?}"
            )
            .into());
        }
    };
    let mut named = Vec::new();
    for (key, kind) in bind::named_parameters(format) {
        let Some(v) = bind.get_named_parameter(key) else {
            continue;
        };
        if v.is_null() {
            continue;
        }
        named.push((
            key,
            match kind {
                Kind::Text => Arg::Text(v.to_string()),
                Kind::Bool => Arg::Bool(v.to_bool()),
                Kind::Int => Arg::Int(v.to_int64()),
            },
        ));
    }
    let call = Call::new(format, &sources, &named)?;
    for field in call.schema.fields() {
        bind.add_result_column(field.name(), vector::logical_type(field)?);
    }
    for name in extra_columns(&call) {
        bind.add_result_column(name, LogicalTypeHandle::from(LogicalTypeId::Varchar));
    }
    Ok(call)
}

/// The columns after the table's: `input_error`, then `filename`, as the call asks.
fn extra_columns(call: &Call) -> Vec<&'static str> {
    let mut extra = Vec::new();
    if call.ignore_errors {
        extra.push(INPUT_ERROR);
    }
    if call.filename {
        extra.push(FILENAME);
    }
    extra
}

fn init(init: &InitInfo) -> Result<Init, Box<dyn Error>> {
    // SAFETY: DuckDB hands the init the bind data the bind of this same call set: a `Call`
    // (both functions bind to one), alive until the query's end, after the init data.
    let call: &Call = unsafe { &*init.get_bind_data::<Call>() };
    let fields = call.schema.fields();
    let extra = extra_columns(call);
    let asked: Vec<Option<usize>> = init
        .get_column_indices()
        .into_iter()
        .map(|i| {
            usize::try_from(i)
                .ok()
                .filter(|&i| i < fields.len() + extra.len())
        })
        .collect();
    let asks = |name: &str| {
        let at = extra.iter().position(|e| *e == name);
        at.is_some_and(|at| asked.contains(&Some(fields.len() + at)))
    };
    // the table's columns the query reads, in the table's order (the batches' order); `file`
    // too for `filename`, which is made of it
    let mut names: Vec<String> = fields
        .iter()
        .enumerate()
        .filter(|(i, f)| asked.contains(&Some(*i)) || (f.name() == "file" && asks(FILENAME)))
        .map(|(_, f)| f.name().clone())
        .collect();
    if names.is_empty() {
        // count(*): rows without a column; the game numbers alone are the cheapest (a PGN
        // game's tags are read, its movetext skipped)
        names.push("game_index".into());
    }
    let columns = asked
        .iter()
        .map(|a| match a {
            Some(i) if *i >= fields.len() => match extra[*i - fields.len()] {
                INPUT_ERROR => Column::InputError,
                _ => Column::Filename {
                    file: names.iter().position(|n| n == "file").expect("asked"),
                },
            },
            Some(i) => {
                let name = fields[*i].name().clone();
                let index = names.iter().position(|n| *n == name).expect("asked");
                Column::Table { name, index }
            }
            _ => Column::RowId,
        })
        .collect();
    let mut spec = call.spec.clone();
    spec.columns = Some(names);
    // SAFETY: DuckDB is loaded (the extension's entry point ran); a plain getter.
    let chunk_rows = unsafe { ffi::duckdb_vector_size() } as usize;
    // batches of a chunk's rows: what waits in the queue is a few chunks, whatever the games
    // hold (8,192 TCEC games with their engine comments are 360 MB)
    spec.batch_rows = chunk_rows.max(1);
    let scanning = Scanning::start(call, spec, chunk_rows)?;
    // DuckDB's threads read the pieces: as many as pieces in flight
    init.set_max_threads(call.threads as u64);
    Ok(Init {
        scanning,
        columns,
        chunk_rows,
    })
}

fn func(call: &Call, init: &Init, output: &mut DataChunkHandle) -> Result<(), Box<dyn Error>> {
    let Some(piece) = init.scanning.next(call)? else {
        output.set_len(0);
        return Ok(());
    };
    let chunk = output.get_ptr();
    let vectors: Vec<Vector> = (0..init.columns.len())
        .map(|i| {
            // SAFETY: `chunk` is the output chunk DuckDB handed to this call, with one vector
            // per column asked (`init.columns`, in that order); `i` is below their count.
            let raw = unsafe { ffi::duckdb_data_chunk_get_vector(chunk, i as u64) };
            // SAFETY: the vector is the chunk's, live during this call, with room for a
            // chunk's rows (`duckdb_vector_size()`); this call alone writes this chunk.
            unsafe { Vector::new(raw, init.chunk_rows) }
        })
        .collect();
    let rows = match &piece {
        Piece::Rows(batch) => {
            let filenames = init.columns.iter().find_map(|c| match c {
                Column::Filename { file } => Some(filenames(batch.column(*file).as_ref())),
                _ => None,
            });
            let columns: Vec<_> = init
                .columns
                .iter()
                .zip(&vectors)
                .map(|(c, v)| match c {
                    Column::Table { index, .. } => (*v, Some(batch.column(*index))),
                    Column::Filename { .. } => (*v, filenames.as_ref()),
                    _ => (*v, None),
                })
                .collect();
            vector::write_columns(&columns, batch.num_rows())?;
            batch.num_rows()
        }
        Piece::Failed(errors) => {
            let names: Arc<dyn Array> = Arc::new(StringArray::from_iter_values(
                errors.iter().map(|e| &e.name),
            ));
            let messages: Arc<dyn Array> = Arc::new(StringArray::from_iter_values(
                errors.iter().map(|e| &e.message),
            ));
            let files = filenames(names.as_ref());
            let columns: Vec<_> = init
                .columns
                .iter()
                .zip(&vectors)
                .map(|(c, v)| match c {
                    Column::Table { name, .. } if name == "file" => (*v, Some(&names)),
                    Column::InputError => (*v, Some(&messages)),
                    Column::Filename { .. } => (*v, Some(&files)),
                    _ => (*v, None),
                })
                .collect();
            vector::write_columns(&columns, errors.len())?;
            errors.len()
        }
    };
    output.set_len(rows);
    Ok(())
}

/// The `filename` column of rows whose `file` column is `files`: the file on disk each was read
/// from ([`bind::filename_of`]), one look at the disk per run of rows of one file or archive.
fn filenames(files: &dyn Array) -> Arc<dyn Array> {
    let files = files.as_string::<i32>();
    let mut last: Option<(&str, String)> = None;
    let values = files.iter().map(|file| {
        let file = file?;
        if let Some((seen, disk)) = &last {
            let same_archive = file
                .strip_prefix(disk.as_str())
                .is_some_and(|rest| rest.starts_with(':'));
            if file == *seen || same_archive {
                return Some(disk.clone());
            }
        }
        let disk = bind::filename_of(file);
        last = Some((file, disk.clone()));
        Some(disk)
    });
    Arc::new(values.collect::<StringArray>())
}

/// The named parameters of `format`'s function, as DuckDB types.
fn named(format: Format) -> Option<Vec<(String, LogicalTypeHandle)>> {
    let params = bind::named_parameters(format)
        .into_iter()
        .map(|(name, kind)| {
            let id = match kind {
                Kind::Text => LogicalTypeId::Varchar,
                Kind::Bool => LogicalTypeId::Boolean,
                Kind::Int => LogicalTypeId::Bigint,
            };
            (name.to_string(), LogicalTypeHandle::from(id))
        })
        .collect();
    Some(params)
}

/// The source: a path, a glob, or a list of them.
fn source() -> Option<Vec<LogicalTypeHandle>> {
    Some(vec![LogicalTypeHandle::from(LogicalTypeId::Any)])
}

/// `read_pgn` and `read_sgf`: one table function each, the same callbacks for the format.
macro_rules! read_function {
    ($vtab:ty, $format:expr) => {
        impl VTab for $vtab {
            type InitData = Init;
            type BindData = Call;

            fn bind(info: &BindInfo) -> Result<Call, Box<dyn Error>> {
                bind($format, info)
            }
            fn init(info: &InitInfo) -> Result<Init, Box<dyn Error>> {
                init(info)
            }
            fn func(
                info: &TableFunctionInfo<Self>,
                output: &mut DataChunkHandle,
            ) -> Result<(), Box<dyn Error>> {
                func(info.get_bind_data(), info.get_init_data(), output)
            }
            fn supports_pushdown() -> bool {
                true
            }
            fn parameters() -> Option<Vec<LogicalTypeHandle>> {
                source()
            }
            fn named_parameters() -> Option<Vec<(String, LogicalTypeHandle)>> {
                named($format)
            }
        }
    };
}

read_function!(ReadPgn, Format::Pgn);
read_function!(ReadSgf, Format::Sgf);
