//! Where batches go: one file, or a directory dataset of part files, in Parquet, CSV, JSON
//! Lines or NumPy arrays (`.npz`, or a directory of `.npy` files), written safely.
//!
//! # Safety of the output
//!
//! Every file goes through [`kifu_output`], the one safe-output helper of kifu:
//!
//! - A file is written under a hidden, unpredictable temporary name created exclusively beside
//!   its final one (`.NAME.XXXXXX.kifu-tmp`) and renamed into place only when complete
//!   (Parquet: its footer written; synced to disk first, unless [`SinkOptions::sync`] is off).
//!   DuckDB's `*.parquet` glob does not match the temporary name, and Spark and Hadoop skip
//!   files whose name starts with `.` or `_`. A sink dropped before [`Sink::finish`] (an error
//!   on the way) removes its temporary file.
//! - `-` is standard output (Parquet too: its writer needs no seek), and a character device or
//!   FIFO is written through, never replaced.
//! - An output that names an input (the same file, however reached) or lies inside an input
//!   directory is refused, with or without `force`.
//! - An existing output is refused unless [`SinkOptions::force`].
//!
//! # Datasets
//!
//! With [`SinkOptions::max_rows_per_file`] (or [`SinkOptions::dataset`]) `OUT` is a directory
//! of `part-00000.parquet`, `part-00001.parquet`, … (`.csv`, `.jsonl`), each of at most that
//! many rows, and an empty `_SUCCESS` file written last, when every part is in place (Spark's
//! convention; the `*.parquet` glob ignores it). The directory is built beside its place under
//! a hidden temporary name and swapped in when whole: with `force`, an old dataset stays whole
//! until the new one is (a directory holding files kifu did not write is not replaced). DuckDB reads the directory as one table with
//! `read_parquet('OUT/*.parquet')`, pyarrow with `pyarrow.dataset.dataset(OUT)`, Spark with
//! `spark.read.parquet(OUT)`. An export without rows still writes `part-00000` (the schema,
//! no rows), so that readers know the columns.
//!
//! # Arrays
//!
//! [`OutFormat::Npz`] writes each column as a NumPy array in a `.npz` archive (stored
//! members), [`OutFormat::Npy`] as a `.npy` file in a directory (`OUT/ply.npy`, …; with
//! [`SinkOptions::max_rows_per_file`] or [`SinkOptions::dataset`], a folder per part,
//! `OUT/part-00000/ply.npy`). The columns and their dtypes, nulls, and Go boards of several
//! sizes (a dataset gets a folder per size, `OUT/board=19x19/part-00000.npz`): see
//! `npy_out.rs` and docs/export.md.

mod cell;
mod encode;
mod in_order;
mod npy_out;
mod parquet_out;
mod partition;
mod text_out;

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use arrow_schema::{Schema, SchemaRef};

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
    /// NumPy's `.npz`: a zip archive (stored, not deflated) holding a `.npy` array per column,
    /// what `numpy.load` reads as a dict of arrays. The columns of fixed-size values only
    /// ([`array_columns`]) unless a projection keeps text, written as fixed-width bytes.
    Npz,
    /// NumPy's `.npy`: a directory holding a `.npy` file per column (`OUT/ply.npy`), which
    /// `numpy.load(path, mmap_mode='r')` maps without reading or copying it. Always a
    /// directory; a dataset's parts are folders (`OUT/part-00000/ply.npy`).
    Npy,
}

impl OutFormat {
    /// The file extension: `parquet`, `csv`, `jsonl`, `npz`, `npy`.
    pub fn extension(self) -> &'static str {
        match self {
            OutFormat::Parquet => "parquet",
            OutFormat::Csv => "csv",
            OutFormat::Jsonl => "jsonl",
            OutFormat::Npz => "npz",
            OutFormat::Npy => "npy",
        }
    }

    /// The format of a command-line name (`parquet`, `csv`, `jsonl` or `json`, `npz`, `npy`).
    ///
    /// ```
    /// use kifu_export::OutFormat;
    /// assert_eq!(OutFormat::by_name("jsonl"), Some(OutFormat::Jsonl));
    /// assert_eq!(OutFormat::by_name("npz"), Some(OutFormat::Npz));
    /// assert_eq!(OutFormat::by_name("xlsx"), None);
    /// ```
    pub fn by_name(name: &str) -> Option<OutFormat> {
        match name {
            "parquet" => Some(OutFormat::Parquet),
            "csv" => Some(OutFormat::Csv),
            "jsonl" | "json" => Some(OutFormat::Jsonl),
            "npz" => Some(OutFormat::Npz),
            "npy" => Some(OutFormat::Npy),
            _ => None,
        }
    }

    /// The format a file name's extension names, in any case: `.parquet`/`.pq`, `.csv`,
    /// `.jsonl`/`.ndjson`/`.json`, `.npz`, `.npy`; `None` for any other (or none).
    ///
    /// ```
    /// use std::path::Path;
    /// use kifu_export::OutFormat;
    /// assert_eq!(OutFormat::by_extension(Path::new("g.PQ")), Some(OutFormat::Parquet));
    /// assert_eq!(OutFormat::by_extension(Path::new("g.ndjson")), Some(OutFormat::Jsonl));
    /// assert_eq!(OutFormat::by_extension(Path::new("g.csv.gz")), None);
    /// ```
    pub fn by_extension(path: &Path) -> Option<OutFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "parquet" | "pq" => Some(OutFormat::Parquet),
            "csv" => Some(OutFormat::Csv),
            "jsonl" | "ndjson" | "json" => Some(OutFormat::Jsonl),
            "npz" => Some(OutFormat::Npz),
            "npy" => Some(OutFormat::Npy),
            _ => None,
        }
    }

    /// Whether a file named `path` may hold this format, asked for by name (`--to`, `to=`):
    /// not when its extension names another format (`--to csv -o x.parquet`); a name whose
    /// extension names no format may hold any. Gives the format the name says when it differs.
    ///
    /// ```
    /// use std::path::Path;
    /// use kifu_export::OutFormat;
    /// assert_eq!(OutFormat::Csv.named_otherwise(Path::new("x.parquet")), Some(OutFormat::Parquet));
    /// assert_eq!(OutFormat::Csv.named_otherwise(Path::new("x.CSV")), None);
    /// assert_eq!(OutFormat::Csv.named_otherwise(Path::new("x.txt")), None);
    /// ```
    pub fn named_otherwise(self, path: &Path) -> Option<OutFormat> {
        OutFormat::by_extension(path).filter(|&f| f != self)
    }

    /// The compression suffix of a file's name (`gz` of `x.csv.gz`; also `zst`, `zstd`,
    /// `bz2`, `xz`, `lz4`, `zip`), lowercase: kifu writes no compressed file, so such a name is
    /// refused rather than given plain text (the CLI and Python alike).
    ///
    /// ```
    /// use std::path::Path;
    /// use kifu_export::OutFormat;
    /// assert_eq!(OutFormat::compressed_name(Path::new("x.csv.GZ")).as_deref(), Some("gz"));
    /// assert_eq!(OutFormat::compressed_name(Path::new("x.csv")), None);
    /// ```
    pub fn compressed_name(path: &Path) -> Option<String> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        matches!(
            ext.as_str(),
            "gz" | "zst" | "zstd" | "bz2" | "xz" | "lz4" | "zip"
        )
        .then_some(ext)
    }

    /// Whether the format writes NumPy arrays (`npz`, `npy`).
    pub fn is_array(self) -> bool {
        matches!(self, OutFormat::Npz | OutFormat::Npy)
    }

    /// Whether the output is a directory whatever the options (`npy`: a file per column).
    pub fn is_directory(self) -> bool {
        self == OutFormat::Npy
    }
}

/// The columns of `schema` the array formats ([`OutFormat::Npz`], [`OutFormat::Npy`]) write
/// when no projection says otherwise: those of fixed-size values (integers, floats, booleans,
/// the PGN `positions` table's `bitboards` and `side_to_move`, the SGF one's `board`), not
/// text, which an array holds at the width of its longest value. `kifu export --to npz`
/// projects the table on them unless `--columns` names others.
///
/// ```
/// use kifu_export::{array_columns, schema, Table, TableOptions};
/// let cols = array_columns(&schema(Table::PgnPositions, &TableOptions::default()));
/// assert!(cols.iter().any(|c| c == "bitboards") && cols.iter().any(|c| c == "policy"));
/// assert!(!cols.iter().any(|c| c == "epd" || c == "file"));
/// ```
pub fn array_columns(schema: &Schema) -> Vec<String> {
    npy_out::default_columns(schema)
}

/// How a sink writes.
#[derive(Clone, Debug)]
pub struct SinkOptions {
    /// Replace an existing output (default: refuse).
    pub force: bool,
    /// Write a directory dataset even without [`max_rows_per_file`](Self::max_rows_per_file).
    pub dataset: bool,
    /// The most rows one file of the dataset holds; `Some` makes `OUT` a dataset directory.
    /// Each file holds exactly this many but the last (of each partition): the shards of a
    /// training set (`kifu export --rows-per-file`).
    pub max_rows_per_file: Option<u64>,
    /// Parquet: the most rows of a row group (default 122,880, DuckDB's own row-group size:
    /// its unit of parallel scanning).
    pub row_group_rows: usize,
    /// Parquet: a row group also ends after the batch whose rows bring it to this many bytes
    /// of Arrow data (default 64 MiB), so that memory stays bounded whatever the row size.
    /// `npz`: the bytes of arrays an archive holds in memory until it closes; past them its
    /// columns wait in unnamed temporary files beside it.
    pub row_group_bytes: usize,
    /// Hive partitions (`OUT/year=2024/month=2024-01/part-00000.parquet`): any column of the
    /// table with scalar values, so every game key of the `games` and `trees` tables (`year`,
    /// `month`, `speed`, `winner`, …; the key `result` is the column `outcome`), and a tag or
    /// root property that is no column, from the `tags` / `props` map (a name with a capital
    /// letter first); a dataset directory, each partition's files of at most
    /// [`max_rows_per_file`](Self::max_rows_per_file) rows. A missing value is
    /// `__HIVE_DEFAULT_PARTITION__`, as Hive and Spark write it.
    pub partition_by: Vec<String>,
    /// Threads that encode (default 0: on the thread that writes). Parquet: with `N`,
    /// `max(N - 1, 1)` threads encode row groups, beside the thread that builds the rows (two
    /// row groups in flight at most at `N` = 2, whose pages are the export's largest part); CSV
    /// and JSON Lines: the batches are cut into parts of at most 4 MiB of Arrow data, part `k`
    /// turned into text on thread `k mod N`, one part a thread at a time. Either way the
    /// encoded parts are appended in order: the file is the same bytes at every count.
    pub threads: usize,
    /// Parquet: the zstd level (default 1: fast; 3 compresses about 10% better at half the
    /// speed).
    pub zstd_level: i32,
    /// The inputs of the export: the output never overwrites one of them.
    pub inputs: Vec<PathBuf>,
    /// Sync each file to disk before renaming it into place (default: yes), so that a
    /// complete-looking file is complete after a power loss too. An interrupted process leaves
    /// no such file either way (the rename comes last); the sync costs one `fsync` per file
    /// (about 30 ms on the measuring machine's disk). `npy` directories, a file per column,
    /// are synced at once instead on Linux: one `syncfs` of the dataset's file system before
    /// it is put in place (elsewhere, each file's `fsync` when its part closes).
    pub sync: bool,
    /// `npz`, `npy`: the most bytes of a text value (default
    /// [`arrays::TEXT_WIDTH`](crate::arrays::TEXT_WIDTH), 256). A text column is an array of
    /// fixed-width bytes as wide as its longest value; a longer value is cut to this (text at a
    /// UTF-8 character's boundary) and counted ([`Summary::truncated`]), so that one long
    /// value does not widen every row.
    pub array_text_bytes: usize,
}

impl Default for SinkOptions {
    fn default() -> Self {
        SinkOptions {
            force: false,
            dataset: false,
            max_rows_per_file: None,
            row_group_rows: 122_880,
            row_group_bytes: 64 << 20,
            partition_by: Vec::new(),
            threads: 0,
            zstd_level: 1,
            inputs: Vec::new(),
            sync: true,
            array_text_bytes: crate::arrays::TEXT_WIDTH,
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
    /// Rows not written: in an array file (`npz`, `npy` without parts), the Go positions whose
    /// board size is not that of the file's first row (one array holds one size; a dataset
    /// gets a folder per size and leaves none out).
    pub left_out: u64,
    /// `npz`, `npy`: text values cut to [`SinkOptions::array_text_bytes`] (the rows are all
    /// written).
    pub truncated: u64,
}

/// Why a sink failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The output exists and [`SinkOptions::force`] was not given.
    #[error("{}: already exists (use --force to replace it)", .0.display())]
    Exists(PathBuf),
    /// The output would overwrite an input, or lies inside an input directory.
    #[error("{}: is an input of the export (or inside an input directory): refusing to write it", .0.display())]
    Input(PathBuf),
    /// A single-file output names a directory.
    #[error("{}: is a directory (give a file name, or ask for a dataset)", .0.display())]
    IsDirectory(PathBuf),
    /// Another refusal of the output (a block device, a dataset directory holding other
    /// files, a dataset asked on stdout).
    #[error(transparent)]
    Output(kifu_output::Error),
    /// A batch whose columns are not those of the sink's schema.
    #[error("a batch of another schema than the sink's")]
    Schema,
    /// A partition the table cannot give (a column it does not have, or whose values are
    /// lists).
    #[error("--partition-by {0}: {1}")]
    Partition(String, String),
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
        source: ::parquet::errors::ParquetError,
    },
    /// The CSV writer.
    #[error("{}: CSV: {source}", path.display())]
    Csv {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: csv::Error,
    },
    /// The array formats (`npz`, `npy`): a column that is not an array of fixed-size values,
    /// a value that does not fit its array, the zip archive.
    #[error("{}: {message}", path.display())]
    Array {
        /// The file (or the output).
        path: PathBuf,
        /// What failed.
        message: String,
    },
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl From<kifu_output::Error> for Error {
    fn from(e: kifu_output::Error) -> Error {
        match e {
            kifu_output::Error::Input(p) => Error::Input(p),
            kifu_output::Error::Exists(p) => Error::Exists(p),
            kifu_output::Error::IsDirectory(p) => Error::IsDirectory(p),
            kifu_output::Error::Io { path, source } => Error::Io { path, source },
            other => Error::Output(other),
        }
    }
}

impl Error {
    fn encode(path: &Path, e: EncodeError) -> Error {
        let path = path.to_path_buf();
        match e {
            EncodeError::Io(source) => Error::Io { path, source },
            EncodeError::Parquet(source) => Error::Parquet { path, source },
            EncodeError::Csv(source) => Error::Csv { path, source },
            EncodeError::Array(message) => Error::Array { path, message },
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

/// The name of part `n` of a dataset (`npy`: a folder, `part-00000`).
fn part_name(n: u64, format: OutFormat) -> String {
    match format {
        OutFormat::Npy => format!("part-{n:05}"),
        _ => format!("part-{n:05}.{}", format.extension()),
    }
}

/// Creates a sink writing `schema`'s batches to `out` in `format`: one file (`-`: standard
/// output), or a dataset directory when [`SinkOptions::max_rows_per_file`] or
/// [`SinkOptions::dataset`] says so (`npy`: always a directory).
///
/// The checks (an input, an existing output) come first; then the file (or the dataset's
/// temporary directory) is created under its temporary name.
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
/// [`Error::Input`], [`Error::Exists`], [`Error::IsDirectory`], [`Error::Output`] (a block
/// device, a dataset directory holding files kifu did not write), [`Error::Array`] (a column
/// the array formats cannot write), and I/O errors.
pub fn create(
    out: &Path,
    format: OutFormat,
    schema: SchemaRef,
    opts: &SinkOptions,
) -> Result<Box<dyn Sink>, Error> {
    let guard = kifu_output::Guard::new(&opts.inputs, opts.force);
    let parts = opts.dataset || opts.max_rows_per_file.is_some() || !opts.partition_by.is_empty();
    if format.is_array() {
        npy_out::check(&schema).map_err(|message| Error::Array {
            path: out.to_path_buf(),
            message,
        })?;
    }
    // Go boards of several sizes cannot share an array: a dataset of arrays gets a folder per
    // size (a single array file keeps its first size)
    let by_board = format.is_array() && parts && npy_out::has_board(&schema);
    if !opts.partition_by.is_empty() || by_board {
        let ds = guard.dataset(out, format.extension())?;
        return Ok(Box::new(partition::Partitioned::new(
            ds, format, schema, opts, by_board,
        )?));
    }
    let dataset = parts || format.is_directory();
    let place = if dataset {
        Place::Dataset(guard.dataset(out, format.extension())?)
    } else {
        let mut file = guard.create(out)?;
        file.set_sync(opts.sync);
        Place::File(Some(file))
    };
    Ok(Box::new(FileSink {
        format,
        schema,
        opts: opts.clone(),
        place,
        part: None,
        parts: 0,
        summary: Summary::default(),
    }))
}

/// Where the encoded bytes of one file go: the sink's one output, or a part file in the
/// dataset's temporary directory. Counts its bytes.
pub(crate) struct Target {
    to: TargetKind,
    bytes: u64,
}

enum TargetKind {
    Output(kifu_output::Output),
    Part(File),
}

impl io::Write for Target {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = match &mut self.to {
            TargetKind::Output(o) => o.write(buf)?,
            TargetKind::Part(f) => f.write(buf)?,
        };
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        match &mut self.to {
            TargetKind::Output(o) => o.flush(),
            TargetKind::Part(f) => f.flush(),
        }
    }
}

/// Where a sink writes.
enum Place {
    /// One file (taken while it is being written).
    File(Option<kifu_output::Output>),
    /// A dataset directory, its parts written in its temporary directory.
    Dataset(kifu_output::Dataset),
    /// A partition of a partitioned dataset: its parts written in `temp`, to be found at
    /// `path` once the dataset is in place (the dataset is committed by its owner).
    Partition {
        /// The partition's folder in the dataset's temporary directory.
        temp: PathBuf,
        /// Its folder once the dataset is in place.
        path: PathBuf,
    },
}

/// One file (or `npy` directory) being written.
struct Part {
    /// Its final path (`-` for stdout).
    path: PathBuf,
    out: PartOut,
    rows: u64,
}

/// What writes a part.
enum PartOut {
    /// One file.
    File(Encoder),
    /// `npy`: a directory of files, a file per column.
    Arrays(Box<npy_out::ArrayOut>),
}

struct FileSink {
    format: OutFormat,
    schema: SchemaRef,
    opts: SinkOptions,
    place: Place,
    part: Option<Part>,
    parts: u64,
    summary: Summary,
}

impl FileSink {
    /// `npy`: opens a part, a directory of a file per column (the dataset's own directory when
    /// it has no parts).
    fn open_arrays(&mut self) -> Result<(), Error> {
        let parts = self.opts.dataset || self.opts.max_rows_per_file.is_some();
        let name = part_name(self.parts, self.format);
        let (dir, path) = match &mut self.place {
            Place::File(_) => return Err(Error::Schema),
            Place::Dataset(ds) if !parts => {
                if self.parts > 0 {
                    // its one part was written and closed already
                    return Err(Error::Schema);
                }
                (ds.dir().to_path_buf(), ds.path().to_path_buf())
            }
            Place::Dataset(ds) => (ds.dir().join(&name), ds.final_path(&name)),
            Place::Partition { temp, path } => (temp.join(&name), path.join(&name)),
        };
        std::fs::create_dir_all(&dir).map_err(io_error(&dir))?;
        self.parts += 1;
        let out = npy_out::ArrayOut::dir(dir, &self.schema, &self.opts)
            .map_err(|e| Error::encode(&path, e))?;
        self.part = Some(Part {
            path,
            out: PartOut::Arrays(Box::new(out)),
            rows: 0,
        });
        Ok(())
    }

    fn open(&mut self) -> Result<(), Error> {
        if self.format == OutFormat::Npy {
            return self.open_arrays();
        }
        let (target, path) = match &mut self.place {
            Place::File(file) => {
                let Some(file) = file.take() else {
                    // one file: it was written and closed already
                    return Err(Error::Schema);
                };
                let path = file.path().to_path_buf();
                (TargetKind::Output(file), path)
            }
            Place::Dataset(ds) => {
                let name = part_name(self.parts, self.format);
                let tmp = ds.dir().join(&name);
                let file = File::create_new(&tmp).map_err(io_error(&tmp))?;
                (TargetKind::Part(file), ds.final_path(&name))
            }
            Place::Partition { temp, path } => {
                let name = part_name(self.parts, self.format);
                std::fs::create_dir_all(&*temp).map_err(io_error(temp))?;
                let tmp = temp.join(&name);
                let file = File::create_new(&tmp).map_err(io_error(&tmp))?;
                (TargetKind::Part(file), path.join(&name))
            }
        };
        self.parts += 1;
        // an npz archive's columns wait beside it (standard output's, and a device's, in the
        // system's temporary directory)
        let spill = match (&self.place, &target) {
            (Place::Dataset(ds), _) => ds.dir().to_path_buf(),
            (Place::Partition { temp, .. }, _) => temp.clone(),
            (_, TargetKind::Output(o)) if o.is_stdout() || !is_regular_or_new(o.path()) => {
                std::env::temp_dir()
            }
            _ => match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => PathBuf::from("."),
            },
        };
        let target = Target {
            to: target,
            bytes: 0,
        };
        let encoder = Encoder::new(self.format, target, &self.schema, &self.opts, &spill)
            .map_err(|e| Error::encode(&path, e))?;
        self.part = Some(Part {
            path,
            out: PartOut::File(encoder),
            rows: 0,
        });
        Ok(())
    }

    fn close(&mut self) -> Result<(), Error> {
        let Some(part) = self.part.take() else {
            return Ok(());
        };
        let (bytes, left_out) = match part.out {
            PartOut::File(encoder) => {
                let left_out = encoder.left_out();
                self.summary.truncated += encoder.truncated();
                let target = encoder.close().map_err(|e| Error::encode(&part.path, e))?;
                let bytes = target.bytes;
                match target.to {
                    TargetKind::Output(out) => out.commit()?,
                    TargetKind::Part(file) => {
                        if self.opts.sync {
                            file.sync_all().map_err(io_error(&part.path))?;
                        }
                    }
                }
                (bytes, left_out)
            }
            PartOut::Arrays(arrays) => {
                let left_out = arrays.left_out();
                self.summary.truncated += arrays.truncated();
                let bytes = arrays
                    .close_dir()
                    .map_err(|e| Error::encode(&part.path, e))?;
                (bytes, left_out)
            }
        };
        self.summary.bytes += bytes;
        self.summary.rows += part.rows - left_out;
        self.summary.left_out += left_out;
        self.summary.files.push(part.path);
        Ok(())
    }
}

impl Sink for FileSink {
    fn write(&mut self, batch: &RecordBatch) -> Result<(), Error> {
        if !encode::matches(&self.schema, batch) {
            return Err(Error::Schema);
        }
        let dataset = !matches!(self.place, Place::File(_));
        let max = self.opts.max_rows_per_file.filter(|_| dataset);
        let mut start = 0usize;
        while start < batch.num_rows() {
            if self.part.is_none() {
                self.open()?;
            }
            let part = self.part.as_mut().expect("a part just opened");
            let room = max.map_or(u64::MAX, |m| m.max(1).saturating_sub(part.rows));
            let n = (batch.num_rows() - start).min(usize::try_from(room).unwrap_or(usize::MAX));
            let slice = batch.slice(start, n);
            match &mut part.out {
                PartOut::File(encoder) => encoder.write(&slice),
                PartOut::Arrays(arrays) => arrays.write(&slice),
            }
            .map_err(|e| Error::encode(&part.path, e))?;
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
        let mut summary = std::mem::take(&mut self.summary);
        let this = *self;
        if let Place::Dataset(ds) = this.place {
            if this.format == OutFormat::Npy && this.opts.sync {
                sync_all_at_once(ds.dir())?;
            }
            ds.commit()?;
        }
        if summary.files.is_empty() {
            summary.files.push(PathBuf::from("-"));
        }
        Ok(summary)
    }
}

/// Whether the files of an `npy` directory are synced each when their part closes: not on
/// Linux, where [`sync_all_at_once`] syncs them all before the dataset is put in place (one
/// `syncfs` against an `fsync` per column file of every part: 6,500 files for
/// `--partition-by RE` of 1 M Go positions).
pub(crate) const SYNC_EACH_ARRAY_FILE: bool =
    !cfg!(any(target_os = "linux", target_os = "android"));

/// Syncs the file system holding `dir` (Linux: `syncfs`), so that every file written in it is
/// on disk; elsewhere nothing (the files were synced each, [`SYNC_EACH_ARRAY_FILE`]).
pub(crate) fn sync_all_at_once(dir: &Path) -> Result<(), Error> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        let d = File::open(dir).map_err(io_error(dir))?;
        rustix::fs::syncfs(&d).map_err(|e| io_error(dir)(io::Error::from(e)))?;
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    let _ = dir;
    Ok(())
}

/// Whether `path` is a regular file, or nothing yet (not a device or FIFO written through).
fn is_regular_or_new(path: &Path) -> bool {
    std::fs::metadata(path).map_or(true, |m| m.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(part_name(3, OutFormat::Parquet), "part-00003.parquet");
        assert_eq!(part_name(123_456, OutFormat::Csv), "part-123456.csv");
        assert_eq!(part_name(2, OutFormat::Npz), "part-00002.npz");
        assert_eq!(part_name(2, OutFormat::Npy), "part-00002");
    }
}
