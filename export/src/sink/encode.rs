//! The encoders of one open file: Parquet, CSV, JSON Lines, and NumPy's `.npz` archive.

use std::io::{BufWriter, Write};

use arrow_array::{Array, RecordBatch};
use arrow_schema::SchemaRef;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnPath;

use super::cell::{csv_value, is_nested, json_value};
use super::npy_out::ArrayOut;
use super::parquet_out::ParquetOut;
use super::text_out::{Text, TextOut};
use super::{OutFormat, SinkOptions, Target};
use crate::TABLE_KEY;

/// Columns whose values rarely repeat: no dictionary (it would be built and dropped; the Go
/// `board`'s 361 bytes repeat only in a game's first moves).
const UNIQUE: [&str; 10] = [
    "game_index",
    "byte_offset",
    "movetext",
    "json",
    "Site",
    "comment",
    "key",
    "epd",
    "bitboards",
    "board",
];

/// The Parquet writer properties of `opts` for `schema`.
pub(crate) fn parquet_properties(schema: &SchemaRef, opts: &SinkOptions) -> WriterProperties {
    let level = ZstdLevel::try_new(opts.zstd_level).unwrap_or_default();
    let mut b = WriterProperties::builder()
        .set_compression(Compression::ZSTD(level))
        .set_max_row_group_row_count(Some(opts.row_group_rows.max(1)))
        .set_max_row_group_bytes(Some(opts.row_group_bytes.max(1)))
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .set_created_by(format!("kifu-export {}", env!("CARGO_PKG_VERSION")));
    for f in schema.fields() {
        let name = f.name().as_str();
        if UNIQUE.contains(&name) {
            b = b.set_column_dictionary_enabled(ColumnPath::from(name), false);
        }
        if matches!(name, "movetext" | "json" | "board") {
            // min/max of long texts (and of the Go boards' bytes) help no scan
            b = b.set_column_statistics_enabled(ColumnPath::from(name), EnabledStatistics::None);
        }
    }
    // a list's or map's values are leaf columns of their own (`bitboards.list.item`), named
    // so: no min/max (they help no scan), and no dictionary for those of UNIQUE (the
    // bitboards repeat little: interning them was 8% of an export)
    let leaves = parquet::arrow::ArrowSchemaConverter::new().convert(schema);
    for column in leaves.iter().flat_map(|d| d.columns()) {
        let top = column.path().parts()[0].as_str();
        if schema
            .field_with_name(top)
            .is_ok_and(|f| is_nested(f.data_type()))
        {
            let path = column.path().clone();
            if UNIQUE.contains(&top) {
                b = b.set_column_dictionary_enabled(path.clone(), false);
            }
            b = b.set_column_statistics_enabled(path, EnabledStatistics::None);
        }
    }
    b.build()
}

pub(crate) enum Encoder {
    Parquet(Box<ParquetOut>),
    /// CSV or JSON Lines.
    Text(Box<TextOut>),
    /// NumPy's `.npz`: a `.npy` array per column, written when the file closes.
    Npz(Box<ArrayOut>),
}

/// Errors of the encoders, before the path is added.
#[derive(Debug)]
pub(crate) enum EncodeError {
    Io(std::io::Error),
    Parquet(parquet::errors::ParquetError),
    Csv(csv::Error),
    /// The array formats: a value that does not fit its array (twelve bitboards, a board of
    /// its size), the zip archive.
    Array(String),
}

impl From<std::io::Error> for EncodeError {
    fn from(e: std::io::Error) -> Self {
        EncodeError::Io(e)
    }
}
impl From<parquet::errors::ParquetError> for EncodeError {
    fn from(e: parquet::errors::ParquetError) -> Self {
        EncodeError::Parquet(e)
    }
}
impl From<csv::Error> for EncodeError {
    fn from(e: csv::Error) -> Self {
        EncodeError::Csv(e)
    }
}

const BUF: usize = 1 << 20;

impl Encoder {
    /// An encoder writing `format` to `file`; `spill`: where an `.npz` file's columns wait
    /// (unnamed temporary files) until it closes.
    pub(crate) fn new(
        format: OutFormat,
        file: Target,
        schema: &SchemaRef,
        opts: &SinkOptions,
        spill: &std::path::Path,
    ) -> Result<Encoder, EncodeError> {
        let out = BufWriter::with_capacity(BUF, file);
        Ok(match format {
            OutFormat::Parquet => Encoder::Parquet(Box::new(ParquetOut::new(out, schema, opts)?)),
            OutFormat::Csv => {
                let mut header = csv::WriterBuilder::new().from_writer(out);
                header.write_record(schema.fields().iter().map(|f| f.name().as_str()))?;
                let out = header
                    .into_inner()
                    .map_err(|e| EncodeError::Io(e.into_error()))?;
                Encoder::Text(Box::new(TextOut::new(out, Text::Csv, opts.threads)))
            }
            OutFormat::Jsonl => {
                let table = schema.metadata().get(TABLE_KEY).map(String::as_str);
                let kifu_json = matches!(table, Some("pgn_json" | "sgf_json"));
                Encoder::Text(Box::new(TextOut::new(
                    out,
                    Text::Jsonl { kifu_json },
                    opts.threads,
                )))
            }
            OutFormat::Npz => Encoder::Npz(Box::new(ArrayOut::zip(
                out,
                schema,
                opts,
                spill.to_path_buf(),
            )?)),
            OutFormat::Npy => {
                return Err(EncodeError::Array(
                    "npy is a directory of files, not one file".into(),
                ));
            }
        })
    }

    pub(crate) fn write(&mut self, batch: &RecordBatch) -> Result<(), EncodeError> {
        match self {
            Encoder::Parquet(p) => p.write(batch)?,
            Encoder::Text(t) => t.write(batch)?,
            Encoder::Npz(a) => a.write(batch)?,
        }
        Ok(())
    }

    /// Rows taken but not written (an `.npz` file's Go positions of another board size).
    pub(crate) fn left_out(&self) -> u64 {
        match self {
            Encoder::Npz(a) => a.left_out(),
            _ => 0,
        }
    }

    /// Text values cut to the array formats' width (an `.npz` file's).
    pub(crate) fn truncated(&self) -> u64 {
        match self {
            Encoder::Npz(a) => a.truncated(),
            _ => 0,
        }
    }

    /// Ends the file (Parquet: writes the footer) and gives it back, flushed.
    pub(crate) fn close(self) -> Result<Target, EncodeError> {
        let out = match self {
            Encoder::Parquet(p) => p.close()?,
            Encoder::Text(t) => t.close()?,
            Encoder::Npz(a) => a.close_zip()?,
        };
        out.into_inner()
            .map_err(|e| EncodeError::Io(e.into_error()))
    }
}

/// A batch's rows as `text`, appended to `out`.
pub(crate) fn encode_rows(
    text: Text,
    batch: &RecordBatch,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    match text {
        Text::Csv => {
            let mut writer = csv::WriterBuilder::new().from_writer(out);
            let mut cell = Vec::new();
            let columns = batch.columns();
            for i in 0..batch.num_rows() {
                for col in columns {
                    cell.clear();
                    csv_value(&mut cell, col.as_ref(), i);
                    writer.write_field(&cell[..])?;
                }
                writer.write_record(None::<&[u8]>)?;
            }
            writer.flush()?;
        }
        Text::Jsonl { kifu_json: true } => write_kifu_json(out, batch)?,
        Text::Jsonl { kifu_json: false } => write_rows(out, batch)?,
    }
    Ok(())
}

/// The rows of a `json` table as `kifu json` lines.
fn write_kifu_json(line: &mut Vec<u8>, batch: &RecordBatch) -> std::io::Result<()> {
    use arrow_array::cast::AsArray;
    use arrow_array::types::Int64Type;
    let col = |name: &str| batch.column_by_name(name).expect("a json table column");
    let index = col("game_index").as_primitive::<Int64Type>();
    let offset = col("byte_offset").as_primitive::<Int64Type>();
    let file = col("file").as_string::<i32>();
    let json = col("json").as_string::<i32>();
    for i in 0..batch.num_rows() {
        write!(
            line,
            "{{\"index\":{},\"offset\":{},\"file\":",
            index.value(i),
            offset.value(i)
        )?;
        serde_json::to_writer(&mut *line, file.value(i)).map_err(std::io::Error::other)?;
        let rest = json.value(i);
        // `{}` for an empty rest; else `,` and the rest after its `{`
        if rest.len() > 2 {
            line.push(b',');
        }
        line.extend_from_slice(&rest.as_bytes()[1.min(rest.len())..]);
        line.push(b'\n');
    }
    Ok(())
}

/// The rows of any table as JSON objects, one per line, keys in column order.
fn write_rows(line: &mut Vec<u8>, batch: &RecordBatch) -> std::io::Result<()> {
    let schema = batch.schema();
    for i in 0..batch.num_rows() {
        line.push(b'{');
        for (k, (f, col)) in schema.fields().iter().zip(batch.columns()).enumerate() {
            if k > 0 {
                line.push(b',');
            }
            serde_json::to_writer(&mut *line, f.name()).map_err(std::io::Error::other)?;
            line.push(b':');
            json_value(line, col.as_ref(), i);
        }
        line.extend_from_slice(b"}\n");
    }
    Ok(())
}

/// Whether the batch's columns have the types of `schema` (names and types, in order).
pub(crate) fn matches(schema: &SchemaRef, batch: &RecordBatch) -> bool {
    let b = batch.schema();
    b.fields().len() == schema.fields().len()
        && b.fields()
            .iter()
            .zip(schema.fields())
            .all(|(x, y)| x.name() == y.name() && x.data_type() == y.data_type())
        && batch.columns().iter().all(|c| c.len() == batch.num_rows())
}
