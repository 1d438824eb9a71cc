//! Where batches go: one file, or a directory dataset of part files, in Parquet, CSV or JSON
//! Lines, written safely.
//!
//! # Safety of the output
//!
//! - Each file is written under a hidden temporary name beside its final one
//!   (`.NAME.kifu-tmp-PID`) and renamed into place only when complete (Parquet: its footer
//!   written; synced to disk first, unless [`SinkOptions::sync`] is off). An interrupted export leaves no truncated file under a
//!   name a reader takes: DuckDB's `*.parquet` glob does not match the temporary name, and
//!   Spark and Hadoop skip files whose name starts with `.` or `_`. A sink dropped before
//!   [`Sink::finish`] (an error on the way) removes its temporary file.
//! - An output that names an input (the same file, however reached) is refused, with or
//!   without `force`.
//! - An existing output is refused unless [`SinkOptions::force`]. With `force`, a file is
//!   replaced (when the new one is complete); in a dataset directory only the files kifu writes
//!   there (`part-NNNNN.EXT`, `_SUCCESS`) are removed, nothing else.
//!
//! # Datasets
//!
//! With [`SinkOptions::max_rows_per_file`] (or [`SinkOptions::dataset`]) `OUT` is a directory
//! of `part-00000.parquet`, `part-00001.parquet`, … (`.csv`, `.jsonl`), each of at most that
//! many rows, and an empty `_SUCCESS` file written last, when every part is in place (Spark's
//! convention; the `*.parquet` glob ignores it). DuckDB reads the directory as one table with
//! `read_parquet('OUT/*.parquet')`, pyarrow with `pyarrow.dataset.dataset(OUT)`, Spark with
//! `spark.read.parquet(OUT)`. An export without rows still writes `part-00000` (the schema,
//! no rows), so that readers know the columns.

mod cell;
mod encode;

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;

use encode::{EncodeError, Encoder};

/// The file formats of a sink.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutFormat {
    /// Apache Parquet, zstd-compressed, with the Arrow schema embedded.
    Parquet,
    /// CSV (RFC 4180) with a header line; lists, maps and structs as JSON text in their cell,
    /// dates `YYYY-MM-DD`, times `HH:MM:SS`, null as an empty field.
    Csv,
    /// JSON Lines: the `json` tables as the lines `kifu json` writes; other tables one object
    /// per row, keys in column order.
    Jsonl,
}

impl OutFormat {
    /// The file extension: `parquet`, `csv`, `jsonl`.
    pub fn extension(self) -> &'static str {
        match self {
            OutFormat::Parquet => "parquet",
            OutFormat::Csv => "csv",
            OutFormat::Jsonl => "jsonl",
        }
    }

    /// The format of a command-line name (`parquet`, `csv`, `jsonl` or `json`).
    ///
    /// ```
    /// use kifu_export::OutFormat;
    /// assert_eq!(OutFormat::by_name("jsonl"), Some(OutFormat::Jsonl));
    /// assert_eq!(OutFormat::by_name("xlsx"), None);
    /// ```
    pub fn by_name(name: &str) -> Option<OutFormat> {
        match name {
            "parquet" => Some(OutFormat::Parquet),
            "csv" => Some(OutFormat::Csv),
            "jsonl" | "json" => Some(OutFormat::Jsonl),
            _ => None,
        }
    }
}

/// How a sink writes.
#[derive(Clone, Debug)]
pub struct SinkOptions {
    /// Replace an existing output (default: refuse).
    pub force: bool,
    /// Write a directory dataset even without [`max_rows_per_file`](Self::max_rows_per_file).
    pub dataset: bool,
    /// The most rows one file of the dataset holds; `Some` makes `OUT` a dataset directory.
    pub max_rows_per_file: Option<u64>,
    /// Parquet: the most rows of a row group (default 122,880, DuckDB's own row-group size:
    /// its unit of parallel scanning).
    pub row_group_rows: usize,
    /// Parquet: a row group also ends when the writer holds this many bytes for it (default
    /// 64 MiB): the writer's memory stays about within this bound, whatever the row size.
    pub row_group_bytes: usize,
    /// Parquet: the zstd level (default 1: fast; 3 compresses about 10% better at half the
    /// speed).
    pub zstd_level: i32,
    /// The inputs of the export: the output never overwrites one of them.
    pub inputs: Vec<PathBuf>,
    /// Sync each file to disk before renaming it into place (default: yes), so that a
    /// complete-looking file is complete after a power loss too. An interrupted process leaves
    /// no such file either way (the rename comes last); the sync costs one `fsync` per file
    /// (about 30 ms on the measuring machine's disk).
    pub sync: bool,
}

impl Default for SinkOptions {
    fn default() -> Self {
        SinkOptions {
            force: false,
            dataset: false,
            max_rows_per_file: None,
            row_group_rows: 122_880,
            row_group_bytes: 64 << 20,
            zstd_level: 1,
            inputs: Vec::new(),
            sync: true,
        }
    }
}

/// What a sink wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Rows written.
    pub rows: u64,
    /// The files written, in order (their final names).
    pub files: Vec<PathBuf>,
    /// Their bytes.
    pub bytes: u64,
}

/// Why a sink failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The output exists and [`SinkOptions::force`] was not given.
    #[error("{}: already exists (use --force to replace it)", .0.display())]
    Exists(PathBuf),
    /// The output would overwrite an input.
    #[error("{}: is an input of the export: refusing to overwrite it", .0.display())]
    Input(PathBuf),
    /// A single-file output names a directory.
    #[error("{}: is a directory (give a file name, or ask for a dataset)", .0.display())]
    IsDirectory(PathBuf),
    /// A batch whose columns are not those of the sink's schema.
    #[error("a batch of another schema than the sink's")]
    Schema,
    /// Reading or writing a file.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
    /// The Parquet writer.
    #[error("{}: Parquet: {source}", path.display())]
    Parquet {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: parquet::errors::ParquetError,
    },
    /// The CSV writer.
    #[error("{}: CSV: {source}", path.display())]
    Csv {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: csv::Error,
    },
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl Error {
    fn encode(path: &Path, e: EncodeError) -> Error {
        let path = path.to_path_buf();
        match e {
            EncodeError::Io(source) => Error::Io { path, source },
            EncodeError::Parquet(source) => Error::Parquet { path, source },
            EncodeError::Csv(source) => Error::Csv { path, source },
        }
    }
}

/// Takes record batches, in order, and writes them out. Made by [`create`].
pub trait Sink: Send {
    /// Writes the rows of `batch` (its schema must be the sink's).
    ///
    /// # Errors
    ///
    /// [`Error::Schema`] for a batch of another schema; the I/O and encoder errors.
    fn write(&mut self, batch: &RecordBatch) -> Result<(), Error>;

    /// Completes the output: the last file ended and renamed into place (and a dataset's
    /// `_SUCCESS` written). Dropping a sink without `finish` leaves no output file (only
    /// parts already complete).
    ///
    /// # Errors
    ///
    /// The I/O and encoder errors.
    fn finish(self: Box<Self>) -> Result<Summary, Error>;
}

/// Whether two paths name the same file (the same device and inode on Unix; the same
/// canonical path elsewhere). `false` when either does not exist.
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (fs::metadata(a), fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        match (fs::canonicalize(a), fs::canonicalize(b)) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        }
    }
}

/// The name of part `n` of a dataset.
fn part_name(n: u64, format: OutFormat) -> String {
    format!("part-{n:05}.{}", format.extension())
}

/// Whether `name` is a file kifu writes in a dataset directory of `format`.
fn is_ours(name: &str, format: OutFormat) -> bool {
    if name == "_SUCCESS" {
        return true;
    }
    let Some(rest) = name.strip_prefix("part-") else {
        return false;
    };
    let Some(digits) = rest.strip_suffix(&format!(".{}", format.extension())) else {
        return false;
    };
    digits.len() >= 5 && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Creates a sink writing `schema`'s batches to `out` in `format`: one file, or a dataset
/// directory when [`SinkOptions::max_rows_per_file`] or [`SinkOptions::dataset`] says so.
///
/// Nothing is created until the first file is opened for writing; the checks (an input, an
/// existing output) come first.
///
/// ```
/// use kifu_export::{create, schema, Error, OutFormat, SinkOptions, Table, TableOptions};
/// let dir = std::env::temp_dir().join(format!("kifu-export-create-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let input = dir.join("games.pgn");
/// std::fs::write(&input, "1. e4 *").unwrap();
/// let s = schema(Table::PgnGames, &TableOptions::default());
/// let opts = SinkOptions { force: true, inputs: vec![input.clone()], ..SinkOptions::default() };
/// let refused = create(&input, OutFormat::Csv, s.clone(), &opts);
/// assert!(matches!(refused, Err(Error::Input(_))));
/// let existing = create(&input, OutFormat::Csv, s, &SinkOptions::default());
/// assert!(matches!(existing, Err(Error::Exists(_))));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
///
/// # Errors
///
/// [`Error::Input`], [`Error::Exists`], [`Error::IsDirectory`], and I/O errors (a dataset
/// directory that cannot be made or cleared).
pub fn create(
    out: &Path,
    format: OutFormat,
    schema: SchemaRef,
    opts: &SinkOptions,
) -> Result<Box<dyn Sink>, Error> {
    if opts.inputs.iter().any(|i| same_file(i, out)) {
        return Err(Error::Input(out.to_path_buf()));
    }
    let dataset = opts.dataset || opts.max_rows_per_file.is_some();
    let exists = fs::symlink_metadata(out).is_ok();
    if exists && !opts.force {
        return Err(Error::Exists(out.to_path_buf()));
    }
    if dataset {
        if out.is_dir() {
            clear_dataset(out, format, opts)?;
        } else if exists {
            // a file where the directory goes: replaced (force was given)
            fs::remove_file(out).map_err(io_error(out))?;
        }
        fs::create_dir_all(out).map_err(io_error(out))?;
    } else if out.is_dir() {
        return Err(Error::IsDirectory(out.to_path_buf()));
    }
    Ok(Box::new(FileSink {
        format,
        schema,
        opts: opts.clone(),
        out: out.to_path_buf(),
        dataset,
        part: None,
        parts: 0,
        summary: Summary::default(),
    }))
}

/// Removes what kifu wrote in a dataset directory before (force given); refuses when one of
/// those files is an input.
fn clear_dataset(dir: &Path, format: OutFormat, opts: &SinkOptions) -> Result<(), Error> {
    for entry in fs::read_dir(dir).map_err(io_error(dir))? {
        let entry = entry.map_err(io_error(dir))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if !is_ours(name, format) {
            continue;
        }
        let path = entry.path();
        if opts.inputs.iter().any(|i| same_file(i, &path)) {
            return Err(Error::Input(path));
        }
        fs::remove_file(&path).map_err(io_error(&path))?;
    }
    Ok(())
}

/// One file being written under its temporary name.
struct Part {
    path: PathBuf,
    tmp: PathBuf,
    encoder: Option<Encoder>,
    rows: u64,
}

impl Drop for Part {
    fn drop(&mut self) {
        if self.encoder.is_some() {
            // not finished: no truncated file is left behind
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

struct FileSink {
    format: OutFormat,
    schema: SchemaRef,
    opts: SinkOptions,
    out: PathBuf,
    dataset: bool,
    part: Option<Part>,
    parts: u64,
    summary: Summary,
}

fn temp_name(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.kifu-tmp-{}", std::process::id()))
}

impl FileSink {
    fn open(&mut self) -> Result<(), Error> {
        let path = if self.dataset {
            self.out.join(part_name(self.parts, self.format))
        } else {
            self.out.clone()
        };
        if self.opts.inputs.iter().any(|i| same_file(i, &path)) {
            return Err(Error::Input(path));
        }
        self.parts += 1;
        let tmp = temp_name(&path);
        let file = File::create(&tmp).map_err(io_error(&tmp))?;
        let mut part = Part {
            path,
            tmp,
            encoder: None,
            rows: 0,
        };
        let encoder = Encoder::new(self.format, file, &self.schema, &self.opts)
            .map_err(|e| Error::encode(&part.tmp, e))?;
        part.encoder = Some(encoder);
        self.part = Some(part);
        Ok(())
    }

    fn close(&mut self) -> Result<(), Error> {
        let Some(mut part) = self.part.take() else {
            return Ok(());
        };
        let encoder = part.encoder.take().expect("an open part");
        let closed = encoder
            .close()
            .map_err(|e| Error::encode(&part.tmp, e))
            .and_then(|file| {
                if self.opts.sync {
                    file.sync_all().map_err(io_error(&part.tmp))?;
                }
                Ok(file.metadata().map_err(io_error(&part.tmp))?.len())
            })
            .and_then(|bytes| {
                if self.opts.inputs.iter().any(|i| same_file(i, &part.path)) {
                    return Err(Error::Input(part.path.clone()));
                }
                fs::rename(&part.tmp, &part.path).map_err(io_error(&part.path))?;
                Ok(bytes)
            });
        match closed {
            Ok(bytes) => {
                self.summary.bytes += bytes;
                self.summary.rows += part.rows;
                self.summary.files.push(part.path.clone());
                Ok(())
            }
            Err(e) => {
                let _ = fs::remove_file(&part.tmp);
                Err(e)
            }
        }
    }
}

impl Sink for FileSink {
    fn write(&mut self, batch: &RecordBatch) -> Result<(), Error> {
        if !encode::matches(&self.schema, batch) {
            return Err(Error::Schema);
        }
        let max = self.opts.max_rows_per_file.filter(|_| self.dataset);
        let mut start = 0usize;
        while start < batch.num_rows() {
            if self.part.is_none() {
                self.open()?;
            }
            let part = self.part.as_mut().expect("a part just opened");
            let room = max.map_or(u64::MAX, |m| m.max(1).saturating_sub(part.rows));
            let n = (batch.num_rows() - start).min(usize::try_from(room).unwrap_or(usize::MAX));
            let slice = batch.slice(start, n);
            let encoder = part.encoder.as_mut().expect("an open part");
            encoder
                .write(&slice)
                .map_err(|e| Error::encode(&part.tmp, e))?;
            part.rows += n as u64;
            start += n;
            if max.is_some_and(|m| part.rows >= m.max(1)) {
                self.close()?;
            }
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> Result<Summary, Error> {
        if self.part.is_none() && self.parts == 0 {
            // no rows: still a file with the schema
            self.open()?;
        }
        self.close()?;
        if self.dataset {
            let ok = self.out.join("_SUCCESS");
            File::create(&ok).map_err(io_error(&ok))?;
        }
        Ok(std::mem::take(&mut self.summary))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(part_name(3, OutFormat::Parquet), "part-00003.parquet");
        assert_eq!(part_name(123_456, OutFormat::Csv), "part-123456.csv");
        assert!(is_ours("part-00003.parquet", OutFormat::Parquet));
        assert!(is_ours("part-123456.parquet", OutFormat::Parquet));
        assert!(is_ours("_SUCCESS", OutFormat::Csv));
        assert!(!is_ours("part-00003.csv", OutFormat::Parquet));
        assert!(!is_ours("part-3.parquet", OutFormat::Parquet));
        assert!(!is_ours("notes.txt", OutFormat::Parquet));
        let t = temp_name(Path::new("out/part-00000.parquet"));
        let name = t.file_name().unwrap().to_str().unwrap();
        assert!(name.starts_with(".part-00000.parquet.kifu-tmp-"), "{name}");
        assert!(!name.ends_with(".parquet"));
    }
}
