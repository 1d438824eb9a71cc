//! The arguments of `read_pgn` and `read_sgf`: the sources (a path, a glob or a list of them,
//! checked and expanded here) and the named parameters, turned into kifu-pipeline's
//! [`TableSpec`] and scan options.

use std::path::{Path, PathBuf};

use arrow_schema::SchemaRef;
use kifu::Format;
use kifu_export::{Charset, Table, TableOptions};
use kifu_pipeline::tables::TableSpec;

/// The name of the column that `ignore_errors := true` adds: the error of an input that could
/// not be read whole, on a row of its own.
pub const INPUT_ERROR: &str = "input_error";

/// The name of the column that `filename := true` adds, as DuckDB's `read_csv` names it: the
/// file each row was read from (for a member of an archive, the archive).
pub const FILENAME: &str = "filename";

/// The named parameter that chooses the table: `rows := 'moves'`, a row per move (`kifu
/// export --table moves`).
pub const ROWS: &str = "rows";

/// The former name of [`ROWS`], still taken: `table`, a reserved word of SQL that had to be
/// quoted (`"table" := 'moves'`). Deprecated.
pub const TABLE_DEPRECATED: &str = "table";

/// What a call of `read_pgn` or `read_sgf` reads, and how.
#[derive(Clone, Debug)]
pub struct Call {
    /// The function's format.
    pub format: Format,
    /// The files, directories and archives, globs expanded, in the order given.
    pub paths: Vec<PathBuf>,
    /// The table and its options (every column: the projection is the init's).
    pub spec: TableSpec,
    /// The table's columns, as the export writes them.
    pub schema: SchemaRef,
    /// Threads reading the inputs.
    pub threads: usize,
    /// An input that cannot be read is a row with its error, not the query's error.
    pub ignore_errors: bool,
    /// The `filename` column is added (`filename := true`).
    pub filename: bool,
}

/// The named parameters of a function, with their types (`read_sgf` has no `replay` nor
/// `variations`, `read_pgn` no `charset` nor `symmetries`). `min_ply`, `max_ply`,
/// `legal_only`, `distinct_positions` and `symmetries` choose the rows of
/// `rows := 'positions'`, as `kifu export`'s flags `--min-ply`, `--max-ply`, `--legal-only`,
/// `--distinct` and `--symmetries` (`distinct` is a reserved word of SQL).
pub fn named_parameters(format: Format) -> Vec<(&'static str, Kind)> {
    let mut p = vec![(ROWS, Kind::Text), (TABLE_DEPRECATED, Kind::Text)];
    match format {
        Format::Pgn => {
            p.push(("replay", Kind::Bool));
            p.push(("variations", Kind::Bool));
        }
        Format::Sgf => {
            p.push(("charset", Kind::Text));
            p.push(("symmetries", Kind::Bool));
        }
    }
    p.extend([
        ("min_ply", Kind::Int),
        ("max_ply", Kind::Int),
        ("legal_only", Kind::Bool),
        ("distinct_positions", Kind::Bool),
    ]);
    p.extend([
        ("max_game_bytes", Kind::Int),
        ("threads", Kind::Int),
        ("ignore_errors", Kind::Bool),
        (FILENAME, Kind::Bool),
    ]);
    p
}

/// The SQL type of a named parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `VARCHAR`.
    Text,
    /// `BOOLEAN`.
    Bool,
    /// `BIGINT`.
    Int,
}

/// A named parameter's value, as the bind read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A `VARCHAR`.
    Text(String),
    /// A `BOOLEAN`.
    Bool(bool),
    /// A `BIGINT`.
    Int(i64),
}

/// The function's name in SQL.
pub fn function_name(format: Format) -> &'static str {
    match format {
        Format::Pgn => "read_pgn",
        Format::Sgf => "read_sgf",
    }
}

impl Call {
    /// The call of `format`'s function on `sources` with the named arguments `named` (those
    /// given).
    ///
    /// # Errors
    ///
    /// A table the format has not, a value out of range, an unknown charset, a source that
    /// names no file (a missing path, a glob that matches nothing), or a column of a type
    /// DuckDB is not given.
    pub fn new(format: Format, sources: &[String], named: &[(&str, Arg)]) -> Result<Call, String> {
        let name = function_name(format);
        let get = |key: &str| named.iter().find(|(k, _)| *k == key).map(|(_, v)| v);
        let text = |key: &str| match get(key) {
            Some(Arg::Text(t)) => Some(t.to_ascii_lowercase()),
            _ => None,
        };
        let table = match (text(ROWS), text(TABLE_DEPRECATED)) {
            (Some(a), Some(b)) if a != b => {
                return Err(format!(
                    "{name}: rows := '{a}' and table := '{b}' disagree (table is the former \
                     name of rows)"
                ));
            }
            (Some(t), _) | (None, Some(t)) => t,
            (None, None) => match format {
                Format::Pgn => "games".into(),
                Format::Sgf => "trees".into(),
            },
        };
        let sgf = format == Format::Sgf;
        let table = match (table.as_str(), sgf) {
            ("games", false) | ("trees", true) | ("moves", _) | ("positions", _) => {
                Table::by_name(&table, sgf).expect("a table of the format")
            }
            _ => {
                let known = if sgf {
                    "'trees', 'moves' or 'positions'"
                } else {
                    "'games', 'moves' or 'positions'"
                };
                return Err(format!("{name}: rows must be {known}, not '{table}'"));
            }
        };
        let mut spec = TableSpec::only(table);
        let flag = |key: &str| matches!(get(key), Some(Arg::Bool(true)));
        spec.replay = flag("replay");
        spec.options = TableOptions {
            variations: flag("variations"),
            charset: match get("charset") {
                Some(Arg::Text(c)) => {
                    Charset::by_name(c).ok_or_else(|| format!("{name}: unknown charset '{c}'"))?
                }
                _ => Charset::Auto,
            },
            symmetries: flag("symmetries"),
            positions: positions_options(name, table, &get)?,
            ..TableOptions::default()
        };
        if let Some(idle) = spec.idle_options().first() {
            return Err(format!(
                "{name}: {idle} := true changes nothing in the positions rows (the main line's, \
                 replayed: epd, key, uci): replay and variations are for rows := 'games' and \
                 'moves'"
            ));
        }
        if flag("symmetries") && table != Table::SgfPositions {
            return Err(format!(
                "{name}: symmetries := true turns Go positions: rows := 'positions'"
            ));
        }
        if let Some(Arg::Int(n)) = get("max_game_bytes") {
            spec.max_game_bytes = usize::try_from(*n)
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("{name}: max_game_bytes must be positive, not {n}"))?;
        }
        let threads = match get("threads") {
            Some(Arg::Int(n)) => usize::try_from(*n)
                .ok()
                .filter(|&n| (1..=1024).contains(&n))
                .ok_or_else(|| format!("{name}: threads must be 1 to 1024, not {n}"))?,
            _ => kifu::par::cores(),
        };
        let schema = spec.schema(table);
        for field in schema.fields() {
            crate::vector::supported(field).map_err(|e| format!("{name}: {e}"))?;
        }
        Ok(Call {
            format,
            paths: expand(name, sources)?,
            spec,
            schema,
            threads,
            ignore_errors: flag("ignore_errors"),
            filename: flag(FILENAME),
        })
    }

    /// The function's name in SQL.
    pub fn name(&self) -> &'static str {
        function_name(self.format)
    }
}

/// The positions filters of the named arguments (`min_ply`, `max_ply`, `legal_only`,
/// `distinct_positions`), for a `positions` table only.
fn positions_options<'a>(
    name: &str,
    table: Table,
    get: &dyn Fn(&str) -> Option<&'a Arg>,
) -> Result<kifu_export::PositionOptions, String> {
    let ply = |key: &str| -> Result<Option<u32>, String> {
        match get(key) {
            Some(Arg::Int(n)) => u32::try_from(*n)
                .map(Some)
                .map_err(|_| format!("{name}: {key} must be 0 or more, not {n}")),
            _ => Ok(None),
        }
    };
    let flag = |key: &str| matches!(get(key), Some(Arg::Bool(true)));
    let (min_ply, max_ply) = (ply("min_ply")?, ply("max_ply")?);
    let (legal_only, distinct) = (flag("legal_only"), flag("distinct_positions"));
    let any = min_ply.is_some() || max_ply.is_some() || legal_only || distinct;
    if any && !matches!(table, Table::PgnPositions | Table::SgfPositions) {
        return Err(format!(
            "{name}: min_ply, max_ply, legal_only and distinct_positions choose positions: \
             rows := 'positions'"
        ));
    }
    kifu_pipeline::find::check_ply_bounds(min_ply, max_ply, ["min_ply", "max_ply"])
        .map_err(|e| format!("{name}: {e}"))?;
    Ok(kifu_export::PositionOptions {
        min_ply: min_ply.unwrap_or(0),
        max_ply,
        legal_only,
        sample: None,
        distinct: distinct.then(kifu_export::Distinct::default),
    })
}

/// Whether `s` is a glob pattern (`*`, `?` or `[`), as DuckDB's readers take them.
fn is_glob(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

/// The paths `sources` name: a glob's matches in order (`**` for any depth), a path as it is;
/// each must name something, as DuckDB's readers require.
fn expand(name: &str, sources: &[String]) -> Result<Vec<PathBuf>, String> {
    if sources.is_empty() {
        return Err(format!("{name}: no source given"));
    }
    let mut paths = Vec::new();
    for s in sources {
        if is_glob(s) {
            let matches = glob::glob(s).map_err(|e| format!("{name}: {s}: {e}"))?;
            let mut found: Vec<PathBuf> = matches.filter_map(Result::ok).collect();
            if found.is_empty() {
                return Err(format!("{name}: no file matches the pattern \"{s}\""));
            }
            found.sort();
            paths.extend(found);
        } else {
            let p = Path::new(s);
            if let Err(e) = std::fs::metadata(p) {
                return Err(format!("{name}: {s}: {}", kifu_input_message(&e)));
            }
            paths.push(p.to_path_buf());
        }
    }
    Ok(paths)
}

/// The file on disk that a row whose `file` column is `file` was read from, as DuckDB's
/// `read_csv(filename := true)` gives it: `file` itself for a file, the archive for one of its
/// members (`ARCHIVE:MEMBER`: the longest part before a `:` that is a file), else `file` as
/// it is (an input that could not be opened).
pub fn filename_of(file: &str) -> String {
    let is_file = |p: &str| std::fs::metadata(p).is_ok_and(|m| m.is_file());
    if is_file(file) {
        return file.to_string();
    }
    file.rmatch_indices(':')
        .map(|(i, _)| &file[..i])
        .find(|p| is_file(p))
        .unwrap_or(file)
        .to_string()
}

/// An I/O error's text without its `(os error N)`.
fn kifu_input_message(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(format: Format, sources: &[&str], named: &[(&str, Arg)]) -> Result<Call, String> {
        let sources: Vec<String> = sources.iter().map(|s| s.to_string()).collect();
        Call::new(format, &sources, named)
    }

    #[test]
    fn positions_filters() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.sgf");
        std::fs::write(&f, "(;SZ[9];B[ee])").unwrap();
        let f = f.to_str().unwrap();
        let positions = ("rows", Arg::Text("positions".into()));
        let named = [
            positions.clone(),
            ("min_ply", Arg::Int(2)),
            ("max_ply", Arg::Int(9)),
            ("legal_only", Arg::Bool(true)),
            ("distinct_positions", Arg::Bool(true)),
            ("symmetries", Arg::Bool(true)),
        ];
        let c = call(Format::Sgf, &[f], &named).unwrap();
        let p = &c.spec.options.positions;
        assert_eq!((p.min_ply, p.max_ply, p.legal_only), (2, Some(9), true));
        assert!(p.distinct.is_some() && c.spec.options.symmetries);
        let e = call(Format::Sgf, &[f], &[("min_ply", Arg::Int(2))]).unwrap_err();
        assert!(e.contains("rows := 'positions'"), "{e}");
        let e = call(
            Format::Sgf,
            &[f],
            &[positions.clone(), ("max_ply", Arg::Int(-1))],
        )
        .unwrap_err();
        assert!(e.contains("max_ply must be 0 or more"), "{e}");
        let e = call(
            Format::Sgf,
            &[f],
            &[
                positions,
                ("min_ply", Arg::Int(5)),
                ("max_ply", Arg::Int(2)),
            ],
        )
        .unwrap_err();
        assert!(e.contains("min_ply 5 is past max_ply 2"), "{e}");
        for idle in ["replay", "variations"] {
            let p = dir.path().join("a.pgn");
            std::fs::write(&p, "1. e4 *").unwrap();
            let e = call(
                Format::Pgn,
                &[p.to_str().unwrap()],
                &[
                    ("rows", Arg::Text("positions".into())),
                    (idle, Arg::Bool(true)),
                ],
            )
            .unwrap_err();
            assert!(
                e.contains(&format!("{idle} := true changes nothing")),
                "{e}"
            );
        }
        let e = call(Format::Sgf, &[f], &[("symmetries", Arg::Bool(true))]).unwrap_err();
        assert!(e.contains("symmetries"), "{e}");
        assert!(
            !named_parameters(Format::Pgn)
                .iter()
                .any(|(k, _)| *k == "symmetries")
        );
    }

    #[test]
    fn tables_by_format() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.pgn");
        std::fs::write(&f, "1. e4 *\n").unwrap();
        let f = f.to_str().unwrap();
        let c = call(Format::Pgn, &[f], &[]).unwrap();
        assert_eq!(c.spec.pgn, Some(Table::PgnGames));
        assert_eq!(c.spec.sgf, None);
        let c = call(Format::Pgn, &[f], &[("rows", Arg::Text("MOVES".into()))]).unwrap();
        assert_eq!(c.spec.pgn, Some(Table::PgnMoves));
        let c = call(Format::Sgf, &[f], &[]).unwrap();
        assert_eq!(c.spec.sgf, Some(Table::SgfTrees));
        let e = call(Format::Pgn, &[f], &[("rows", Arg::Text("trees".into()))]);
        assert!(e.unwrap_err().contains("'games', 'moves' or 'positions'"));
        let c = call(
            Format::Pgn,
            &[f],
            &[("rows", Arg::Text("positions".into()))],
        )
        .unwrap();
        assert_eq!(c.spec.pgn, Some(Table::PgnPositions));
        let e = call(Format::Sgf, &[f], &[("rows", Arg::Text("games".into()))]);
        assert!(e.unwrap_err().contains("'trees', 'moves' or 'positions'"));
        // the former name, `table`, still chooses it, and the two must agree
        let c = call(Format::Sgf, &[f], &[("table", Arg::Text("moves".into()))]).unwrap();
        assert_eq!(c.spec.sgf, Some(Table::SgfMoves));
        let both = [
            ("rows", Arg::Text("moves".into())),
            ("table", Arg::Text("Moves".into())),
        ];
        assert_eq!(
            call(Format::Sgf, &[f], &both).unwrap().spec.sgf,
            Some(Table::SgfMoves)
        );
        let both = [
            ("rows", Arg::Text("moves".into())),
            ("table", Arg::Text("trees".into())),
        ];
        assert!(
            call(Format::Sgf, &[f], &both)
                .unwrap_err()
                .contains("disagree")
        );
        let c = call(Format::Pgn, &[f], &[("filename", Arg::Bool(true))]).unwrap();
        assert!(c.filename);
        let c = call(Format::Pgn, &[f], &[("replay", Arg::Bool(true))]).unwrap();
        assert!(c.schema.field_with_name("final_fen").is_ok());
    }

    #[test]
    fn sources_are_checked_and_globs_expanded() {
        let dir = tempfile::tempdir().unwrap();
        for n in ["b.pgn", "a.pgn", "c.sgf"] {
            std::fs::write(dir.path().join(n), "1. e4 *\n").unwrap();
        }
        let d = dir.path().to_str().unwrap();
        let c = call(Format::Pgn, &[&format!("{d}/*.pgn")], &[]).unwrap();
        let names: Vec<_> = c.paths.iter().map(|p| p.file_name().unwrap()).collect();
        assert_eq!(names, ["a.pgn", "b.pgn"]);
        let e = call(Format::Pgn, &[&format!("{d}/*.zst")], &[]).unwrap_err();
        assert!(e.contains("no file matches the pattern"), "{e}");
        let missing = format!("{d}/missing.pgn");
        let e = call(Format::Pgn, &[&missing], &[]).unwrap_err();
        assert!(
            e.starts_with("read_pgn: ") && e.contains("missing.pgn"),
            "{e}"
        );
        assert!(call(Format::Pgn, &[], &[]).is_err());
        // a directory is read as kifu reads it
        assert_eq!(call(Format::Sgf, &[d], &[]).unwrap().paths.len(), 1);
    }

    #[test]
    fn filename_is_the_file_or_its_archive() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.pgn");
        let t = dir.path().join("b:c.tar");
        std::fs::write(&a, "1. e4 *\n").unwrap();
        std::fs::write(&t, "").unwrap();
        let (a, t) = (a.to_str().unwrap(), t.to_str().unwrap());
        assert_eq!(filename_of(a), a);
        assert_eq!(filename_of(&format!("{t}:x/y.pgn")), t);
        assert_eq!(filename_of(&format!("{t}:x:y.pgn")), t);
        let gone = format!("{a}.missing");
        assert_eq!(filename_of(&gone), gone);
    }

    #[test]
    fn values_are_checked() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_str().unwrap();
        let e = call(Format::Pgn, &[d], &[("threads", Arg::Int(0))]).unwrap_err();
        assert!(e.contains("threads must be"), "{e}");
        let e = call(
            Format::Sgf,
            &[d],
            &[("charset", Arg::Text("klingon".into()))],
        );
        assert!(e.unwrap_err().contains("unknown charset"));
        let e = call(Format::Pgn, &[d], &[("max_game_bytes", Arg::Int(-1))]).unwrap_err();
        assert!(e.contains("max_game_bytes"), "{e}");
        let c = call(Format::Pgn, &[d], &[("threads", Arg::Int(3))]).unwrap();
        assert_eq!(c.threads, 3);
    }

    #[test]
    fn every_table_has_duckdb_types() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_str().unwrap();
        for (format, table) in [
            (Format::Pgn, "games"),
            (Format::Pgn, "moves"),
            (Format::Pgn, "positions"),
            (Format::Sgf, "trees"),
            (Format::Sgf, "moves"),
            (Format::Sgf, "positions"),
        ] {
            // (replay adds columns to games and moves; refused for positions, which have them)
            let named = [
                ("rows", Arg::Text(table.into())),
                ("replay", Arg::Bool(table != "positions")),
            ];
            let c = call(format, &[d], &named).unwrap();
            assert!(c.schema.fields().len() > 3);
        }
    }
}
