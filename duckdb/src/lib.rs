//! # kifu-duckdb: `read_pgn` and `read_sgf` in DuckDB
//!
//! A DuckDB loadable extension (the C extension API, through the `duckdb` crate's
//! `loadable-extension`: nothing of DuckDB is compiled or linked) that reads chess PGN and Go
//! SGF archives in place, as the tables of `kifu export`:
//!
//! ```sql
//! LOAD 'kifu.duckdb_extension';
//! SELECT Opening, count(*), avg(WhiteElo) FROM read_pgn('lichess_2024-01.pgn.zst') GROUP BY ALL;
//! SELECT count(*) FROM read_sgf('kgs-2019.tar.bz2', table := 'moves');
//! ```
//!
//! - The tables are kifu-pipeline's ([`kifu_pipeline::table`]): the schemas, values and game
//!   numbers of `kifu export` for the same input, built by the same code.
//! - Projection pushdown: only the columns the query reads are built, with the export's
//!   shortcuts (`count(*)` or a few tags read no movetext at all).
//! - The scan reads on DuckDB's threads: inputs and the pieces of a large input as `kifu::par`
//!   cuts them are read by the threads that ask for chunks ([`scan`]). The rows are the same
//!   at every thread count.
//! - A game's problems are in its `error_count` and `errors` columns; an input that cannot
//!   be read fails the query with an error naming it, or, with `ignore_errors := true`, is a
//!   row of its own with the error in `input_error`.
//!
//! Build it with `scripts/duckdb/build.sh` (cargo, then the metadata footer DuckDB requires)
//! and load it with `allow_unsigned_extensions`; the functions, parameters and columns are in
//! the repository's `docs/duckdb.md`.
#![deny(missing_docs)]

pub mod bind;
pub mod scan;
pub mod vector;

use std::error::Error;
use std::sync::Arc;

use arrow_array::{Array, StringArray};
use duckdb::core::{DataChunkHandle, LogicalTypeHandle, LogicalTypeId};
use duckdb::vtab::{BindInfo, InitInfo, TableFunctionInfo, VTab};
use duckdb::{Connection, duckdb_entrypoint_c_api, ffi};
use kifu::Format;

use crate::bind::{Arg, Call, INPUT_ERROR, Kind};
use crate::scan::{Piece, Scanning};
use crate::vector::Vector;

/// Registers the extension's table functions, `read_pgn` and `read_sgf` (the entry point DuckDB
/// calls, `kifu_init_c_api`, is made of it by the `duckdb` crate's macro).
///
/// # Errors
///
/// DuckDB refusing a function.
#[duckdb_entrypoint_c_api(ext_name = "kifu", min_duckdb_version = "v1.2.0")]
pub fn register(conn: Connection) -> Result<(), Box<dyn Error>> {
    conn.register_table_function::<ReadPgn>("read_pgn")?;
    conn.register_table_function::<ReadSgf>("read_sgf")?;
    Ok(())
}

/// `read_pgn(source, "table" := 'games'|'moves', replay, variations, max_game_bytes, threads,
/// ignore_errors)`: chess games.
pub struct ReadPgn;

/// `read_sgf(source, "table" := 'trees'|'moves'|'positions', charset, max_game_bytes, threads,
/// ignore_errors)`: Go game trees.
pub struct ReadSgf;

/// A column of the output chunk: where its values come from.
#[derive(Clone, Debug)]
enum Column {
    /// The column of this name in the scan's batches (at this index).
    Table { name: String, index: usize },
    /// `input_error` (`ignore_errors := true`): NULL on game rows.
    InputError,
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
    if call.ignore_errors {
        bind.add_result_column(INPUT_ERROR, LogicalTypeHandle::from(LogicalTypeId::Varchar));
    }
    Ok(call)
}

fn init(init: &InitInfo) -> Result<Init, Box<dyn Error>> {
    // SAFETY: DuckDB hands the init the bind data the bind of this same call set: a `Call`
    // (both functions bind to one), alive until the query's end, after the init data.
    let call: &Call = unsafe { &*init.get_bind_data::<Call>() };
    let fields = call.schema.fields();
    let asked: Vec<Option<usize>> = init
        .get_column_indices()
        .into_iter()
        .map(|i| usize::try_from(i).ok().filter(|&i| i <= fields.len()))
        .collect();
    let with_error = call.ignore_errors;
    // the table's columns the query reads, in the table's order (the batches' order)
    let mut names: Vec<String> = fields
        .iter()
        .enumerate()
        .filter(|(i, _)| asked.contains(&Some(*i)))
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
            Some(i) if *i == fields.len() && with_error => Column::InputError,
            Some(i) if *i < fields.len() => {
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
            let columns: Vec<_> = init
                .columns
                .iter()
                .zip(&vectors)
                .map(|(c, v)| match c {
                    Column::Table { index, .. } => (*v, Some(batch.column(*index))),
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
            let columns: Vec<_> = init
                .columns
                .iter()
                .zip(&vectors)
                .map(|(c, v)| match c {
                    Column::Table { name, .. } if name == "file" => (*v, Some(&names)),
                    Column::InputError => (*v, Some(&messages)),
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
