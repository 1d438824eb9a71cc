//! Hive-partitioned datasets: each row goes to the folder its values name
//! (`OUT/year=2024/month=2024-01/`), where a [`FileSink`] writes its part files; the dataset is put
//! in place whole when every partition's last file is complete. Arrays of Go boards are
//! partitioned by board size too, the last level (`board=19x19`: rows × columns, the arrays'
//! shape), since one array holds one size. At most [`OPEN`] partitions
//! hold an open file at once (each holds a row group in memory): the one unused the longest is
//! closed when another opens, and its next rows start a new part file.

use std::collections::{BTreeMap, HashMap};

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, RecordBatch, UInt32Array};
use arrow_schema::{DataType, SchemaRef};

use kifu_output::bounded::{Bounded, close_matches, fnv1a};

use super::cell::csv_value;
use super::{Error, FileSink, OutFormat, Place, Sink, SinkOptions, Summary};

/// The most partitions with an open file.
const OPEN: usize = 64;

/// The value Hive and Spark write for a missing partition value.
const DEFAULT: &str = "__HIVE_DEFAULT_PARTITION__";

/// The most bytes of a value in a folder name.
const MAX_VALUE: usize = 100;

/// How one level of the partitioning is computed.
enum Key {
    /// The value of a column, named `name` in the folder. The game keys that are columns of
    /// the `games` and `trees` tables are read there, as kifu-pipeline's `keys` reads them:
    /// `year`, `month`, `winner`, and `result` (the column `outcome`). Where the column is
    /// null and `raw` names the table's map of other tags or properties, the value kept there
    /// under `name` (a typed tag whose value does not read as the column's type: `WhiteElo
    /// "?"`), as the key reads the tag.
    Column {
        name: String,
        column: usize,
        raw: Option<usize>,
    },
    /// A tag (PGN) or root property (SGF) that is no column: its first value in the table's
    /// map of the others (`tags`, `props`), as the game key of that name reads it.
    Entry { name: String, map: usize },
    /// The board size of a Go table, rows × columns (`board=19x19`).
    BoardSize { rows: usize, cols: usize },
}

pub(super) struct Partitioned {
    dataset: Option<kifu_output::Dataset>,
    format: OutFormat,
    schema: SchemaRef,
    opts: SinkOptions,
    keys: Vec<Key>,
    /// The partitions met, by folder, in the order met.
    sinks: BTreeMap<String, FileSink>,
    /// When each partition with an open file was last written (the write's number).
    open: HashMap<String, u64>,
    writes: u64,
}

impl Partitioned {
    pub(super) fn new(
        dataset: kifu_output::Dataset,
        format: OutFormat,
        schema: SchemaRef,
        opts: &SinkOptions,
        by_board: bool,
    ) -> Result<Partitioned, Error> {
        let mut keys = opts
            .partition_by
            .iter()
            .map(|name| key(&schema, name))
            .collect::<Result<Vec<_>, _>>()?;
        if by_board {
            let at = |name: &str| {
                schema.index_of(name).map_err(|_| {
                    Error::Partition("board".into(), format!("the table has no `{name}`"))
                })
            };
            keys.push(Key::BoardSize {
                rows: at("board_rows")?,
                cols: at("board_cols")?,
            });
        }
        Ok(Partitioned {
            dataset: Some(dataset),
            format,
            schema,
            opts: opts.clone(),
            keys,
            sinks: BTreeMap::new(),
            open: HashMap::new(),
            writes: 0,
        })
    }

    /// The folder of row `i`: `year=2024/month=2024-01` (a key's value as the game keys show it).
    fn folder(&self, batch: &RecordBatch, i: usize, out: &mut String, cell: &mut Vec<u8>) {
        folder(&self.keys, batch, i, out, cell);
    }

    /// The sink of `folder`, opened (and another closed if too many are open).
    fn sink(&mut self, folder: &str) -> Result<&mut FileSink, Error> {
        self.writes += 1;
        if !self.open.contains_key(folder) && self.open.len() >= OPEN {
            let oldest = self
                .open
                .iter()
                .min_by_key(|(_, at)| **at)
                .map(|(f, _)| f.clone())
                .expect("partitions are open");
            self.open.remove(&oldest);
            if let Some(s) = self.sinks.get_mut(&oldest) {
                s.close()?;
            }
        }
        self.open.insert(folder.to_string(), self.writes);
        if !self.sinks.contains_key(folder) {
            let ds = self.dataset.as_ref().expect("open until finished");
            let sink = FileSink {
                format: self.format,
                schema: self.schema.clone(),
                opts: self.opts.clone(),
                place: Place::Partition {
                    temp: ds.dir().join(folder),
                    path: ds.final_path(folder),
                },
                part: None,
                parts: 0,
                summary: Summary::default(),
            };
            self.sinks.insert(folder.to_string(), sink);
        }
        Ok(self.sinks.get_mut(folder).expect("inserted"))
    }
}

impl Sink for Partitioned {
    fn write(&mut self, batch: &RecordBatch) -> Result<(), Error> {
        if !super::encode::matches(&self.schema, batch) {
            return Err(Error::Schema);
        }
        // rows by folder, in the order the folders come, each folder's rows in their order
        let mut order: Vec<String> = Vec::new();
        let mut rows: HashMap<String, Vec<u32>> = HashMap::new();
        let (mut folder, mut cell) = (String::new(), Vec::new());
        for i in 0..batch.num_rows() {
            self.folder(batch, i, &mut folder, &mut cell);
            match rows.get_mut(&folder) {
                Some(v) => v.push(i as u32),
                None => {
                    order.push(folder.clone());
                    rows.insert(folder.clone(), vec![i as u32]);
                }
            }
        }
        for f in order {
            let indices = UInt32Array::from(rows.remove(&f).expect("each folder has rows"));
            let part = if indices.len() == batch.num_rows() {
                batch.clone()
            } else {
                arrow_select::take::take_record_batch(batch, &indices).map_err(|e| {
                    Error::Partition(f.clone(), format!("the rows could not be split: {e}"))
                })?
            };
            self.sink(&f)?.write(&part)?;
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> Result<Summary, Error> {
        let mut summary = Summary::default();
        for (_, sink) in std::mem::take(&mut self.sinks) {
            let s = Box::new(sink).finish()?;
            summary.rows += s.rows;
            summary.bytes += s.bytes;
            summary.left_out += s.left_out;
            summary.truncated += s.truncated;
            summary.files.extend(s.files);
        }
        let ds = self.dataset.take().expect("finished once");
        if summary.files.is_empty() {
            // no rows: the dataset's folder, with its `_SUCCESS`
            summary.files.push(ds.path().to_path_buf());
        }
        if self.format == OutFormat::Npy && self.opts.sync {
            super::sync_all_at_once(ds.dir())?;
        }
        ds.commit()?;
        Ok(summary)
    }
}

/// The folder of row `i` under `keys`: `year=2024/month=2024-01` (a key's value as the game keys
/// show it).
fn folder(keys: &[Key], batch: &RecordBatch, i: usize, out: &mut String, cell: &mut Vec<u8>) {
    out.clear();
    for (k, key) in keys.iter().enumerate() {
        if k > 0 {
            out.push('/');
        }
        match key {
            Key::Column { name, column, raw } => {
                out.push_str(name);
                out.push('=');
                let col = batch.column(*column);
                match raw.filter(|_| col.is_null(i)) {
                    Some(map) => push_value(out, entry(batch.column(map), i, name).unwrap_or("")),
                    None => {
                        cell.clear();
                        csv_value(cell, col.as_ref(), i);
                        push_value(out, &String::from_utf8_lossy(cell));
                    }
                }
            }
            Key::Entry { name, map } => {
                out.push_str(name);
                out.push('=');
                push_value(out, entry(batch.column(*map), i, name).unwrap_or(""));
            }
            Key::BoardSize { rows, cols } => {
                out.push_str("board=");
                for (k, &c) in [rows, cols].into_iter().enumerate() {
                    if k > 0 {
                        out.push('x');
                    }
                    cell.clear();
                    csv_value(cell, batch.column(c).as_ref(), i);
                    push_value(out, &String::from_utf8_lossy(cell));
                }
            }
        }
    }
}

/// How `name` partitions rows of `schema`.
fn key(schema: &SchemaRef, name: &str) -> Result<Key, Error> {
    // the game key `result` is the column `outcome` (`Result` is the PGN tag's, as written)
    let column_name = if name == "result" { "outcome" } else { name };
    // the map of the tags (PGN `games`) or root properties (SGF `trees`) that are no column
    let map = ["tags", "props"].into_iter().find_map(|m| {
        let i = schema.index_of(m).ok()?;
        matches!(schema.field(i).data_type(), DataType::Map(..)).then_some(i)
    });
    // a tag or property is named as it is written: a capital letter first (the derived keys
    // and the other columns are in small letters)
    let tag = name.starts_with(|c: char| c.is_ascii_uppercase());
    if schema.index_of(column_name).is_err()
        && let Some(map) = map.filter(|_| tag)
    {
        return Ok(Key::Entry {
            name: name.into(),
            map,
        });
    }
    let column = schema.index_of(column_name).map_err(|_| {
        let names = schema.fields().iter().map(|f| f.name().as_str());
        let meant: Vec<String> = close_matches(name, names)
            .iter()
            .map(|m| format!("`{m}`"))
            .collect();
        let hint = match meant.len() {
            0 => String::new(),
            1 => format!("; did you mean {}?", meant[0]),
            _ => format!("; did you mean one of {}?", meant.join(", ")),
        };
        Error::Partition(
            name.into(),
            format!("no such column{hint} (a column of the table, or `result`: its `outcome`)"),
        )
    })?;
    if matches!(
        schema.field(column).data_type(),
        DataType::List(_) | DataType::LargeList(_) | DataType::Map(..) | DataType::Struct(_)
    ) {
        return Err(Error::Partition(
            name.into(),
            "a column of lists or maps cannot name a folder".into(),
        ));
    }
    Ok(Key::Column {
        name: name.into(),
        column,
        raw: map.filter(|_| tag),
    })
}

/// The first value of `name` in row `i` of a map column of other tags (`Map<Utf8, Utf8>`, a
/// repeated tag's values joined by a line break) or properties (`Map<Utf8, List<Utf8>>`).
fn entry<'a>(col: &'a ArrayRef, i: usize, name: &str) -> Option<&'a str> {
    let map = col.as_map_opt()?;
    if map.is_null(i) {
        return None;
    }
    let keys = map.keys().as_string_opt::<i32>()?;
    let offsets = map.value_offsets();
    let (start, end) = (offsets[i] as usize, offsets[i + 1] as usize);
    let k = (start..end).find(|&k| keys.value(k) == name)?;
    let values = map.values();
    if let Some(text) = values.as_string_opt::<i32>() {
        let v = text.is_valid(k).then(|| text.value(k))?;
        return Some(v.split('\n').next().unwrap_or(v));
    }
    let lists = values.as_list_opt::<i32>()?;
    if lists.is_null(k) {
        return None;
    }
    let (from, to) = (
        lists.value_offsets()[k] as usize,
        lists.value_offsets()[k + 1] as usize,
    );
    let items = lists.values().as_string_opt::<i32>()?;
    (from < to && items.is_valid(from)).then(|| items.value(from))
}

/// `value` as a folder name's value: `%XX` for `/`, `\`, `=`, `%`, `:`, control characters and
/// a leading `.`; empty as [`DEFAULT`]. A value whose folder name would pass [`MAX_VALUE`]
/// bytes is kept apart from every other by its hash, as every key's long values are
/// ([`Bounded`]): its first characters escaped, `-` and the 16 hex digits of the FNV-1a hash of
/// the whole value, [`MAX_VALUE`] bytes at most.
fn push_value(out: &mut String, value: &str) {
    if value.is_empty() {
        out.push_str(DEFAULT);
        return;
    }
    let start = out.len();
    if escape(out, value, MAX_VALUE) {
        return;
    }
    out.truncate(start);
    let hash = Bounded::of(value)
        .hash()
        .unwrap_or_else(|| fnv1a(value.as_bytes()));
    let tail = format!("-{hash:016x}");
    escape(out, value, MAX_VALUE - tail.len());
    out.push_str(&tail);
}

/// Appends `value` escaped, as many whole characters as fit in `max` bytes; whether all did.
fn escape(out: &mut String, value: &str, max: usize) -> bool {
    let start = out.len();
    let mut b = [0; 4];
    for (k, c) in value.chars().enumerate() {
        let escaped =
            matches!(c, '/' | '\\' | '=' | '%' | ':') || c.is_control() || (k == 0 && c == '.');
        let len = if escaped {
            3 * c.len_utf8()
        } else {
            c.len_utf8()
        };
        if out.len() - start + len > max {
            return false;
        }
        if escaped {
            for byte in c.encode_utf8(&mut b).bytes() {
                out.push_str(&format!("%{byte:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The folders of every row of a table built from `text`, under `names`.
    fn folders(table: crate::Table, text: &[u8], names: &[&str]) -> Vec<String> {
        let mut b = crate::Builder::new(table, &crate::TableOptions::default());
        if table == crate::Table::SgfTrees {
            for t in kifu::sgf::GameTrees::new(text) {
                b.push_sgf("t", &t).unwrap();
            }
        } else {
            for g in kifu::pgn::Games::new(text) {
                b.push_pgn("g", &g).unwrap();
            }
        }
        let batch = b.finish();
        let keys: Vec<Key> = names
            .iter()
            .map(|n| key(&batch.schema(), n).unwrap_or_else(|e| panic!("{n}: {e}")))
            .collect();
        let (mut out, mut cell) = (String::new(), Vec::new());
        (0..batch.num_rows())
            .map(|i| {
                folder(&keys, &batch, i, &mut out, &mut cell);
                out.clone()
            })
            .collect()
    }

    #[test]
    fn every_game_key_partitions_tags_and_properties_that_are_no_columns_too() {
        let pgn = b"[Date \"2015.??.??\"]\n[LichessId \"abc\"]\n[WhiteElo \"?\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n\
                    [UTCDate \"2021.03.04\"]\n[LichessId \"x\"]\n[LichessId \"y\"]\n[WhiteElo \"2500\"]\n\n1. d4 *\n\n\
                    [White \"w\"]\n\n1. c4 0-1\n";
        assert_eq!(
            folders(
                crate::Table::PgnGames,
                pgn,
                &["year", "month", "result", "winner", "LichessId", "WhiteElo"]
            ),
            [
                "year=2015/month=__HIVE_DEFAULT_PARTITION__/result=1-0/winner=white/LichessId=abc/WhiteElo=?",
                "year=2021/month=2021-03/result=*/winner=__HIVE_DEFAULT_PARTITION__/LichessId=x/WhiteElo=2500",
                "year=__HIVE_DEFAULT_PARTITION__/month=__HIVE_DEFAULT_PARTITION__/result=0-1/winner=black/LichessId=__HIVE_DEFAULT_PARTITION__/WhiteElo=__HIVE_DEFAULT_PARTITION__",
            ]
        );
        let sgf = b"(;GM[1]DT[2004-05-06]RE[W+3.5]XX[one][two]HA[x];B[dd])(;GM[1]RE[B+R]HA[2])";
        assert_eq!(
            folders(
                crate::Table::SgfTrees,
                sgf,
                &["month", "result", "XX", "HA"]
            ),
            [
                "month=2004-05/result=1-0/XX=one/HA=x",
                "month=__HIVE_DEFAULT_PARTITION__/result=0-1/XX=__HIVE_DEFAULT_PARTITION__/HA=2",
            ]
        );
        // a small letter first is a column or a derived key, never a tag
        let b = crate::Builder::new(crate::Table::PgnGames, &crate::TableOptions::default());
        let schema = b.schema();
        assert!(key(&schema, "lichessId").is_err());
    }

    #[test]
    fn values_make_safe_folder_names() {
        let mut s = String::new();
        push_value(&mut s, "a/b=c%");
        assert_eq!(s, "a%2Fb%3Dc%25");
        s.clear();
        push_value(&mut s, "..");
        assert_eq!(s, "%2E.");
        s.clear();
        push_value(&mut s, "");
        assert_eq!(s, DEFAULT);
    }

    #[test]
    fn long_values_that_begin_alike_get_folders_of_their_own() {
        let base = "W".repeat(150);
        let (mut a, mut b) = (String::new(), String::new());
        push_value(&mut a, &format!("{base}a"));
        push_value(&mut b, &format!("{base}b"));
        assert_ne!(a, b);
        assert_eq!((a.len(), b.len()), (MAX_VALUE, MAX_VALUE));
        assert!(a.starts_with("WWW"), "{a}");
        // an escaped character is never cut in two
        let mut c = String::new();
        push_value(&mut c, &"/".repeat(200));
        assert!(c.len() <= MAX_VALUE && c.contains("%2F-"), "{c}");
        let mut short = String::new();
        push_value(&mut short, &"x".repeat(MAX_VALUE));
        assert_eq!(short, "x".repeat(MAX_VALUE), "a value that fits is whole");
    }
}
