//! `FROM 'games.pgn.zst'`: a DuckDB replacement scan, as DuckDB reads `FROM 'games.csv'` with
//! `read_csv`. A table name that DuckDB does not know and that ends in `.pgn` or `.sgf`, alone
//! or with a compression's extension (`.gz`, `.bz2`, `.xz`, `.zst`, `.zstd`), is read by
//! `read_pgn` or `read_sgf` with the name as its source (a path or a glob), every parameter at
//! its default. Any other name is left to DuckDB and the other extensions.

use std::ffi::{CStr, c_char, c_void};

use duckdb::ffi;
use kifu::Format;

use crate::bind::function_name;

/// The compressions a name may end with after `.pgn` or `.sgf`.
const COMPRESSIONS: [&str; 5] = [".gz", ".bz2", ".xz", ".zst", ".zstd"];

/// The format a table name says, if it says one: `…/games.pgn`, `lichess.pgn.zst` and
/// `kgs/*.SGF.gz` do, `games.csv`, `games.tar.gz` (an archive of either) and `games` do not.
///
/// ```
/// use kifu::Format;
/// use kifu_duckdb::replace::format_of;
/// assert_eq!(format_of("lichess_2024-01.pgn.zst"), Some(Format::Pgn));
/// assert_eq!(format_of("kgs/**/*.SGF"), Some(Format::Sgf));
/// assert_eq!(format_of("games.tar.gz"), None);
/// assert_eq!(format_of("games"), None);
/// ```
pub fn format_of(name: &str) -> Option<Format> {
    let lower = name.to_ascii_lowercase();
    let stem = COMPRESSIONS
        .iter()
        .find_map(|c| lower.strip_suffix(c))
        .unwrap_or(&lower);
    if stem.ends_with(".pgn") {
        Some(Format::Pgn)
    } else if stem.ends_with(".sgf") {
        Some(Format::Sgf)
    } else {
        None
    }
}

/// Adds the replacement scan to `db`.
///
/// # Safety
///
/// `db` is the open database the extension is being loaded into, and the C API's function
/// pointers are initialized (`duckdb_rs_extension_api_init`).
pub unsafe fn add(db: ffi::duckdb_database) {
    // SAFETY: `db` is open (the caller's contract); the callback is a plain function that
    // takes no extra data (null, with no delete callback).
    unsafe { ffi::duckdb_add_replacement_scan(db, Some(replace), std::ptr::null_mut(), None) };
}

/// The replacement scan's callback: DuckDB asks it about each table name it does not know.
///
/// # Safety
///
/// Called by DuckDB with a live `info` and a NUL-terminated `table_name`.
unsafe extern "C" fn replace(
    info: ffi::duckdb_replacement_scan_info,
    table_name: *const c_char,
    _data: *mut c_void,
) {
    if table_name.is_null() {
        return;
    }
    // SAFETY: DuckDB hands a NUL-terminated name, live during the call.
    let name = unsafe { CStr::from_ptr(table_name) };
    let Some(format) = name.to_str().ok().and_then(format_of) else {
        return;
    };
    let function = match format {
        Format::Pgn => c"read_pgn",
        Format::Sgf => c"read_sgf",
    };
    debug_assert_eq!(function.to_str().ok(), Some(function_name(format)));
    // SAFETY: `info` is live during the call; DuckDB copies the function's name.
    unsafe { ffi::duckdb_replacement_scan_set_function_name(info, function.as_ptr()) };
    // SAFETY: a NUL-terminated name (above); DuckDB returns a value we own.
    let mut value = unsafe { ffi::duckdb_create_varchar(table_name) };
    // SAFETY: `info` is live; DuckDB copies the value, which is ours to destroy after.
    unsafe { ffi::duckdb_replacement_scan_add_parameter(info, value) };
    // SAFETY: the value created above, destroyed once.
    unsafe { ffi::duckdb_destroy_value(&mut value) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_say_a_format() {
        for (name, format) in [
            ("a.pgn", Some(Format::Pgn)),
            ("dir/A.PGN.GZ", Some(Format::Pgn)),
            ("x.pgn.bz2", Some(Format::Pgn)),
            ("x.pgn.xz", Some(Format::Pgn)),
            ("x.pgn.zstd", Some(Format::Pgn)),
            ("kgs/*.sgf", Some(Format::Sgf)),
            ("x.sgf.zst", Some(Format::Sgf)),
            ("x.zip", None),
            ("x.pgn.zip", None),
            ("x.tar.gz", None),
            ("pgn", None),
            ("x.csv", None),
        ] {
            assert_eq!(format_of(name), format, "{name}");
        }
    }
}
