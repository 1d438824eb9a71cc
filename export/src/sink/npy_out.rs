//! The array formats: each column of the table as one NumPy array of fixed-size values, a
//! `.npy` file per column, in a zip archive (`npz`, what `numpy.savez` writes: the members
//! stored, not deflated) or in a directory (`npy`, each file mapped by
//! `numpy.load(mmap_mode='r')` without a copy).
//!
//! # Columns
//!
//! The columns are mapped by their Arrow type, whatever the table ([`plan`]), so that a column
//! a table gains flows through: integers at their own width (`int8` … `uint64`), floats as
//! `float32`, booleans as `bool`, dates as `datetime64[D]` and times of day as
//! `timedelta64[us]`, text and binary as fixed-width bytes (`S{w}`, `w` the longest value of
//! the file but at most [`SinkOptions::array_text_bytes`](super::SinkOptions::array_text_bytes),
//! 256 by default: a longer value is cut at a UTF-8 character's boundary and counted,
//! [`ArrayOut::truncated`]; null and empty alike). Three columns are read for what they hold: the PGN
//! `positions` table's `bitboards` (a list of twelve `int64`) as one `uint64` array `[N, 12]`
//! of the same bits, the `side_to_move` text (`white` / `black`) as `uint8` 0 / 1, and the SGF
//! `positions` table's `board` (bytes, with `board_rows` and `board_cols`) as `uint8`
//! `[N, rows, cols]`.
//!
//! A null becomes a value no row holds: NaN for floats, NaT for dates and times, `false` for
//! booleans, the largest value of an unsigned type, `-1` in the columns whose values are never
//! negative ([`NULL_AS_MINUS_ONE`](crate::arrays::NULL_AS_MINUS_ONE): `policy`, `ep_square`, `x`, `y`, `ko_point`, ratings,
//! handicap), the smallest value of the type in any other signed column (`score`, whose values
//! are −1, 0 and 1, gets −128; `eval_cp` −2,147,483,648), so that a column a table gains is
//! never given a null that reads as a value. These values are [`crate::arrays`]'s, which the
//! Python package's `kifu.positions` uses too.
//!
//! # Go boards of several sizes
//!
//! One array holds boards of one size: an array file keeps the size of its first row, and
//! leaves out (and counts, [`ArrayOut::left_out`]) the rows of any other. A dataset of array
//! files is split by board size instead (`board=19x19/part-00000.npz`, the sink's
//! partitioning), so that no row is left out there.
//!
//! # Memory and the order of the bytes
//!
//! An `.npy` file is its header, which gives the array's shape, then the values: the number of
//! rows must be known before the first value, and an `npz` holds its arrays one after the
//! other. So the rows of an `npz` file wait, column by column, in memory up to
//! [`SinkOptions::row_group_bytes`](super::SinkOptions::row_group_bytes) (64 MiB), then in an
//! unnamed temporary file per column beside the output (`O_TMPFILE` on Linux: it has no name,
//! and goes with the process however it ends), and are copied into the archive when it
//! closes. An `npy` directory needs no copy: each column's file is written as its rows come,
//! its header written first with room for any row count (as NumPy pads it, 21 digits for the
//! first axis) and written again, the same length, with the count at the end. Text waits as
//! the `npz` columns do (its width is known at the end). The bytes depend on the rows alone:
//! the same at every thread count and however the rows came in batches.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowPrimitiveType, Date32Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type,
    Int64Type, Time64MicrosecondType, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, BooleanArray, GenericBinaryArray, OffsetSizeTrait, RecordBatch};
use arrow_buffer::ToByteSlice;
use arrow_schema::{DataType, Schema};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

use super::SinkOptions;
use super::Target;
use super::encode::EncodeError;
use crate::arrays::{NullFill, cut_utf8, null_fill, side_code, side_to_move_code};

/// The number of bitboards of a chess position (the `bitboards` column's lists).
const BITBOARDS: usize = 12;

/// The digits NumPy keeps room for in the header's first dimension
/// (`numpy.lib.format.GROWTH_AXIS_MAX_DIGITS`), so that a file's header can be written again
/// with another row count.
const GROWTH_AXIS_MAX_DIGITS: usize = 21;

/// `.npy` headers, and so the values after them, start at multiples of this
/// (`numpy.lib.format.ARRAY_ALIGN`).
const ARRAY_ALIGN: usize = 64;

/// The header of an `.npy` file holding an array of `descr` values (`<u8`, `|u1`, `|S12`) and
/// `shape` (C order), byte for byte as NumPy's `numpy.save` writes it: the magic string, the
/// version (1.0, or 2.0 for a header past 65,535 bytes), the length, then the dictionary padded
/// with spaces (room for 21 digits in the first dimension) and a newline to a multiple of 64
/// bytes.
pub(crate) fn npy_header(descr: &str, shape: &[u64]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(u64::to_string).collect();
    let shape_repr = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let mut dict =
        format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape_repr}, }}");
    if let Some(first) = dims.first() {
        let room = GROWTH_AXIS_MAX_DIGITS.saturating_sub(first.len());
        dict.extend(std::iter::repeat_n(' ', room));
    }
    // the dictionary, its padding and the newline
    let hlen = dict.len() + 1;
    for (version, size) in [(1u8, 2usize), (2, 4)] {
        // as NumPy's `_wrap_header`: a header already aligned still gets 64 spaces
        let padlen = ARRAY_ALIGN - (6 + 2 + size + hlen) % ARRAY_ALIGN;
        let total = hlen + padlen;
        if size == 2 && total > usize::from(u16::MAX) {
            continue;
        }
        let mut out = Vec::with_capacity(6 + 2 + size + total);
        out.extend_from_slice(b"\x93NUMPY");
        out.extend_from_slice(&[version, 0]);
        match size {
            2 => out.extend_from_slice(&(total as u16).to_le_bytes()),
            _ => out.extend_from_slice(&(total as u32).to_le_bytes()),
        }
        out.extend_from_slice(dict.as_bytes());
        out.extend(std::iter::repeat_n(b' ', padlen));
        out.push(b'\n');
        return out;
    }
    unreachable!("version 2.0 holds any header")
}

/// An integer type of a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Int {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
}

impl Int {
    fn of(t: &DataType) -> Option<Int> {
        Some(match t {
            DataType::Int8 => Int::I8,
            DataType::Int16 => Int::I16,
            DataType::Int32 => Int::I32,
            DataType::Int64 => Int::I64,
            DataType::UInt8 => Int::U8,
            DataType::UInt16 => Int::U16,
            DataType::UInt32 => Int::U32,
            DataType::UInt64 => Int::U64,
            _ => return None,
        })
    }

    fn descr(self) -> &'static str {
        match self {
            Int::I8 => "|i1",
            Int::I16 => "<i2",
            Int::I32 => "<i4",
            Int::I64 => "<i8",
            Int::U8 => "|u1",
            Int::U16 => "<u2",
            Int::U32 => "<u4",
            Int::U64 => "<u8",
        }
    }

    fn data_type(self) -> DataType {
        match self {
            Int::I8 => DataType::Int8,
            Int::I16 => DataType::Int16,
            Int::I32 => DataType::Int32,
            Int::I64 => DataType::Int64,
            Int::U8 => DataType::UInt8,
            Int::U16 => DataType::UInt16,
            Int::U32 => DataType::UInt32,
            Int::U64 => DataType::UInt64,
        }
    }

    /// The bytes a null of column `name` becomes ([`null_fill`]), little-endian: the type's
    /// width of them are read.
    fn null(self, name: &str) -> [u8; 8] {
        match null_fill(name, &self.data_type()) {
            Some(NullFill::Int(v)) => v.to_le_bytes(),
            Some(NullFill::UInt(v)) => v.to_le_bytes(),
            _ => unreachable!("an integer type"),
        }
    }
}

/// How a column becomes an array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// An integer at its own width.
    Int(Int),
    /// `float32` (from either float type), NaN for null.
    Float,
    /// `bool`, `false` for null.
    Bool,
    /// A date: `datetime64[D]` (days since 1970-01-01), NaT for null.
    Date,
    /// A time of day: `timedelta64[us]` since midnight, NaT for null.
    Time,
    /// The PGN `positions` table's twelve bitboards: `uint64` `[N, 12]`.
    Bitboards,
    /// The SGF `positions` table's board: `uint8` `[N, rows, cols]`.
    Board,
    /// The PGN `positions` table's side to move: `uint8`, 0 White, 1 Black (255 for null).
    SideToMove,
    /// Text or bytes: `S{w}`, `w` the longest value's bytes, at most the cap.
    Text,
}

impl Kind {
    /// The kind of a column of `schema`, or why it cannot be an array.
    fn of(schema: &Schema, k: usize) -> Result<Kind, String> {
        let field = schema.field(k);
        let name = field.name().as_str();
        let t = field.data_type();
        if let Some(int) = Int::of(t) {
            return Ok(Kind::Int(int));
        }
        Ok(match (name, t) {
            (_, DataType::Float32 | DataType::Float64) => Kind::Float,
            (_, DataType::Boolean) => Kind::Bool,
            (_, DataType::Date32) => Kind::Date,
            (_, DataType::Time64(arrow_schema::TimeUnit::Microsecond)) => Kind::Time,
            ("bitboards", DataType::List(f) | DataType::LargeList(f))
                if f.data_type() == &DataType::Int64 =>
            {
                Kind::Bitboards
            }
            ("board", DataType::Binary | DataType::LargeBinary) => {
                for dim in ["board_rows", "board_cols"] {
                    let known = schema
                        .field_with_name(dim)
                        .is_ok_and(|f| Int::of(f.data_type()).is_some());
                    if !known {
                        return Err("column `board`: its shape is read from `board_rows` and \
                             `board_cols`; keep them too (--columns board,board_rows,board_cols)"
                            .into());
                    }
                }
                Kind::Board
            }
            ("side_to_move", DataType::Utf8 | DataType::LargeUtf8) => Kind::SideToMove,
            (
                _,
                DataType::Utf8 | DataType::LargeUtf8 | DataType::Binary | DataType::LargeBinary,
            ) => Kind::Text,
            (_, other) => {
                return Err(format!(
                    "column `{name}` ({other}) is not an array of fixed-size values (numbers, \
                     booleans, text; the positions tables' `bitboards` and `board`): leave it \
                     out of --columns"
                ));
            }
        })
    }

    fn descr(self, width: usize) -> String {
        match self {
            Kind::Int(i) => i.descr().into(),
            Kind::Float => "<f4".into(),
            Kind::Bool => "|b1".into(),
            Kind::Date => "<M8[D]".into(),
            Kind::Time => "<m8[us]".into(),
            Kind::Bitboards => "<u8".into(),
            Kind::Board | Kind::SideToMove => "|u1".into(),
            Kind::Text => format!("|S{}", width.max(1)),
        }
    }
}

/// Whether `name` can name a file: `.npy` members and files are named after their column.
fn file_name_ok(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// Each column of `schema` with its kind, or why the table cannot be written as arrays (a
/// column of another type, a `board` without its shape, no column at all).
fn plan(schema: &Schema) -> Result<Vec<Kind>, String> {
    if schema.fields().is_empty() {
        return Err("no column to write as an array".into());
    }
    (0..schema.fields().len())
        .map(|k| {
            let name = schema.field(k).name();
            if !file_name_ok(name) {
                return Err(format!("column `{name}`: not a name for a `.npy` file"));
            }
            Kind::of(schema, k)
        })
        .collect()
}

/// Checks that every column of `schema` can be an array (see the module's documentation).
pub(crate) fn check(schema: &Schema) -> Result<(), String> {
    plan(schema).map(|_| ())
}

/// The columns of `schema` the array formats write unless told otherwise: those of
/// fixed-size values (numbers, booleans, `bitboards`, `board` with its shape, `side_to_move`),
/// not text.
pub(crate) fn default_columns(schema: &Schema) -> Vec<String> {
    (0..schema.fields().len())
        .filter(|&k| !matches!(Kind::of(schema, k), Err(_) | Ok(Kind::Text)))
        .map(|k| schema.field(k).name().clone())
        .collect()
}

/// Whether the table holds a Go board (its array files hold one board size each).
pub(crate) fn has_board(schema: &Schema) -> bool {
    let k = schema.index_of("board");
    k.is_ok_and(|k| Kind::of(schema, k) == Ok(Kind::Board))
}

/// A column's bytes waiting for the file to close: in memory, then in an unnamed temporary
/// file.
#[derive(Default)]
struct Spill {
    mem: Vec<u8>,
    file: Option<File>,
    /// The bytes in `file`.
    on_disk: u64,
}

impl Spill {
    fn len(&self) -> u64 {
        self.on_disk + self.mem.len() as u64
    }

    /// Moves the bytes in memory to the temporary file (made in `dir` the first time).
    fn spill(&mut self, dir: &Path) -> io::Result<()> {
        if self.mem.is_empty() {
            return Ok(());
        }
        let file = match &mut self.file {
            Some(f) => f,
            None => self.file.insert(tempfile::tempfile_in(dir)?),
        };
        file.write_all(&self.mem)?;
        self.on_disk += self.mem.len() as u64;
        self.mem.clear();
        Ok(())
    }

    /// The bytes, from the first.
    fn reader(&mut self) -> io::Result<impl Read + '_> {
        let on_disk = match &mut self.file {
            Some(f) => {
                f.seek(SeekFrom::Start(0))?;
                Some(BufReader::with_capacity(1 << 16, &*f).take(self.on_disk))
            }
            None => None,
        };
        let disk: Box<dyn Read> = match on_disk {
            Some(r) => Box::new(r),
            None => Box::new(io::empty()),
        };
        Ok(disk.chain(&self.mem[..]))
    }
}

/// Where a column's bytes go.
enum Data {
    /// They wait (the `npz` columns; text, whose width is known at the end).
    Spill(Spill),
    /// Straight into the column's `.npy` file (`npy`): opened with the first rows.
    File(Option<BufWriter<File>>),
}

struct Column {
    name: String,
    kind: Kind,
    /// What a null integer becomes (its first bytes).
    null: [u8; 8],
    /// Text: the longest value's bytes (after the cut).
    width: usize,
    data: Data,
}

impl Column {
    /// The shape after the first axis.
    fn tail(&self, board: Option<(u64, u64)>) -> Vec<u64> {
        match self.kind {
            Kind::Bitboards => vec![BITBOARDS as u64],
            Kind::Board => {
                let (r, c) = board.unwrap_or((0, 0));
                vec![r, c]
            }
            _ => Vec::new(),
        }
    }

    fn header(&self, rows: u64, board: Option<(u64, u64)>) -> Vec<u8> {
        let mut shape = vec![rows];
        shape.extend(self.tail(board));
        npy_header(&self.kind.descr(self.width), &shape)
    }
}

/// The board columns of a Go table and the size of the file's boards.
struct BoardShape {
    rows: usize,
    cols: usize,
    /// The size of the first row's board, which every row of the file has.
    size: Option<(u64, u64)>,
}

/// Where the arrays go.
enum Dest {
    /// An `.npz` archive, written when the file closes.
    Zip(Box<BufWriter<Target>>),
    /// A directory holding a `.npy` file per column.
    Dir(PathBuf),
}

/// One array file (an `.npz` archive) or directory (of `.npy` files) being written.
pub(crate) struct ArrayOut {
    dest: Dest,
    columns: Vec<Column>,
    board: Option<BoardShape>,
    rows: u64,
    left_out: u64,
    /// The most bytes of a text value, and the values cut to it.
    text_cap: usize,
    truncated: u64,
    /// The bytes the columns may hold in memory before they go to their temporary files.
    budget: usize,
    /// Where the temporary files go.
    spill_dir: PathBuf,
    sync: bool,
    /// `npy`: the columns' files are open (with the first rows, when the board size is known).
    started: bool,
}

/// An integer type written little-endian.
trait Le: Copy {
    fn put(self, out: &mut Vec<u8>);
}

macro_rules! le {
    ($($t:ty),*) => {
        $(impl Le for $t {
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        })*
    };
}
le!(i8, i16, i32, i64, u8, u16, u32, u64, f32);

/// The values of an integer column, a null as `null`.
fn put_ints<T: ArrowPrimitiveType>(a: &dyn Array, null: &[u8], out: &mut Vec<u8>)
where
    T::Native: Le,
{
    let a = a.as_primitive::<T>();
    let values: &[T::Native] = a.values();
    out.reserve(std::mem::size_of_val(values));
    if a.null_count() == 0 {
        if cfg!(target_endian = "little") {
            out.extend_from_slice(values.to_byte_slice());
        } else {
            values.iter().for_each(|v| v.put(out));
        }
        return;
    }
    let width = std::mem::size_of::<T::Native>();
    let null = &null[..width];
    if cfg!(target_endian = "little")
        && let Some(nulls) = a.nulls()
    {
        // the values as they are, then each null's over its value: a step per null, not a
        // test per value
        let start = out.len();
        out.extend_from_slice(values.to_byte_slice());
        let n = values.len();
        for (c, chunk) in nulls.inner().bit_chunks().iter_padded().enumerate() {
            let mut unset = !chunk;
            while unset != 0 {
                let i = c * 64 + unset.trailing_zeros() as usize;
                if i >= n {
                    break;
                }
                let at = start + i * width;
                out[at..at + width].copy_from_slice(null);
                unset &= unset - 1;
            }
        }
        return;
    }
    for (i, v) in values.iter().enumerate() {
        if a.is_null(i) {
            out.extend_from_slice(null);
        } else {
            v.put(out);
        }
    }
}

fn put_floats<T: ArrowPrimitiveType>(
    a: &dyn Array,
    out: &mut Vec<u8>,
    f: impl Fn(T::Native) -> f32,
) {
    let a = a.as_primitive::<T>();
    out.reserve(4 * a.len());
    for (i, &v) in a.values().iter().enumerate() {
        let v = if a.is_null(i) { f32::NAN } else { f(v) };
        v.put(out);
    }
}

/// The values of a date or time column as `int64`, a null as NaT (the smallest `int64`).
fn put_i64s<T: ArrowPrimitiveType>(a: &dyn Array, out: &mut Vec<u8>, f: impl Fn(T::Native) -> i64) {
    let a = a.as_primitive::<T>();
    out.reserve(8 * a.len());
    for (i, &v) in a.values().iter().enumerate() {
        let v = if a.is_null(i) { i64::MIN } else { f(v) };
        v.put(out);
    }
}

/// The `bitboards` lists: twelve values each (a null list: twelve zeros).
fn put_bitboards<O: OffsetSizeTrait>(a: &dyn Array, out: &mut Vec<u8>) -> Result<(), String> {
    let lists = a.as_list::<O>();
    let values = lists.values().as_primitive::<Int64Type>();
    let offsets = lists.value_offsets();
    let vals: &[i64] = values.values();
    out.reserve(8 * BITBOARDS * lists.len());
    if lists.null_count() == 0
        && cfg!(target_endian = "little")
        && let Some(bytes) = whole_bitboards::<O>(a)
    {
        out.extend_from_slice(bytes);
        return Ok(());
    }
    for i in 0..lists.len() {
        if lists.is_null(i) {
            out.extend(std::iter::repeat_n(0u8, 8 * BITBOARDS));
            continue;
        }
        let (start, end) = (offsets[i].as_usize(), offsets[i + 1].as_usize());
        if end - start != BITBOARDS {
            return Err(format!(
                "column `bitboards`: a list of {} values, not {BITBOARDS}",
                end - start
            ));
        }
        for (v, &bits) in vals.iter().enumerate().take(end).skip(start) {
            // the same 64 bits, read as unsigned; a null bitboard is empty
            let bits = if values.is_null(v) { 0 } else { bits };
            (bits as u64).put(out);
        }
    }
    Ok(())
}

/// The boards, each `size` bytes (a null board: empty points).
fn put_boards<O: OffsetSizeTrait>(
    a: &dyn Array,
    size: usize,
    out: &mut Vec<u8>,
) -> Result<(), String> {
    let boards: &GenericBinaryArray<O> = a.as_binary::<O>();
    let offsets = boards.value_offsets();
    out.reserve(size * boards.len());
    let whole =
        boards.null_count() == 0 && offsets.windows(2).all(|w| (w[1] - w[0]).as_usize() == size);
    if whole {
        let (start, end) = (offsets[0].as_usize(), offsets[boards.len()].as_usize());
        out.extend_from_slice(&boards.value_data()[start..end]);
        return Ok(());
    }
    for i in 0..boards.len() {
        if boards.is_null(i) {
            out.extend(std::iter::repeat_n(0u8, size));
            continue;
        }
        let b = boards.value(i);
        if b.len() != size {
            return Err(format!(
                "column `board`: a board of {} points where its rows and columns make {size}",
                b.len()
            ));
        }
        out.extend_from_slice(b);
    }
    Ok(())
}

/// The text (or bytes) of each row, each cut to at most `cap` bytes (text at a UTF-8
/// character's boundary), as a 4-byte length and the bytes; the longest length and the values
/// cut.
fn put_text(a: &dyn Array, cap: usize, out: &mut Vec<u8>) -> (usize, u64) {
    let mut longest = 0;
    let mut cut = 0u64;
    let mut put = |v: &[u8], whole: usize| {
        cut += u64::from(v.len() < whole);
        longest = longest.max(v.len());
        out.extend_from_slice(&(v.len() as u32).to_le_bytes());
        out.extend_from_slice(v);
    };
    let mut text = |v: Option<&str>| {
        let v = v.unwrap_or_default();
        put(cut_utf8(v, cap).as_bytes(), v.len());
    };
    match a.data_type() {
        DataType::Utf8 => a.as_string::<i32>().iter().for_each(&mut text),
        DataType::LargeUtf8 => a.as_string::<i64>().iter().for_each(&mut text),
        _ => {
            let mut bytes = |v: Option<&[u8]>| {
                let v = v.unwrap_or_default();
                put(&v[..v.len().min(cap)], v.len());
            };
            match a.data_type() {
                DataType::Binary => a.as_binary::<i32>().iter().for_each(&mut bytes),
                _ => a.as_binary::<i64>().iter().for_each(&mut bytes),
            }
        }
    }
    (longest, cut)
}

/// The side to move as [`side_to_move_code`] gives it: `white` 0, `black` 1, else 255.
fn put_side<O: OffsetSizeTrait>(a: &dyn Array, out: &mut Vec<u8>) {
    let sides = a.as_string::<O>();
    if sides.null_count() > 0 {
        out.extend(sides.iter().map(side_to_move_code));
        return;
    }
    // each value's bytes straight from the offsets (no null to test)
    let data = sides.value_data();
    out.extend(
        sides
            .value_offsets()
            .windows(2)
            .map(|w| side_code(&data[w[0].as_usize()..w[1].as_usize()])),
    );
}

/// The bytes a column's values are written as, when they are the array's own (little-endian
/// integers without a null, `bitboards` lists of twelve without a null): what
/// [`put_ints`] and [`put_bitboards`] would copy, as they are.
fn as_written(kind: Kind, a: &dyn Array) -> Option<&[u8]> {
    if cfg!(target_endian = "big") || a.null_count() > 0 {
        return None;
    }
    fn ints<T: ArrowPrimitiveType>(a: &dyn Array) -> &[u8] {
        a.as_primitive::<T>().values().to_byte_slice()
    }
    Some(match kind {
        Kind::Int(i) => match i {
            Int::I8 => ints::<Int8Type>(a),
            Int::I16 => ints::<Int16Type>(a),
            Int::I32 => ints::<Int32Type>(a),
            Int::I64 => ints::<Int64Type>(a),
            Int::U8 => ints::<UInt8Type>(a),
            Int::U16 => ints::<UInt16Type>(a),
            Int::U32 => ints::<UInt32Type>(a),
            Int::U64 => ints::<UInt64Type>(a),
        },
        Kind::Bitboards => match a.data_type() {
            DataType::List(_) => whole_bitboards::<i32>(a)?,
            _ => whole_bitboards::<i64>(a)?,
        },
        _ => return None,
    })
}

/// The values of `bitboards` lists, when each is twelve long and none is null.
fn whole_bitboards<O: OffsetSizeTrait>(a: &dyn Array) -> Option<&[u8]> {
    let lists = a.as_list::<O>();
    let values = lists.values().as_primitive::<Int64Type>();
    let offsets = lists.value_offsets();
    let whole = values.null_count() == 0
        && offsets
            .windows(2)
            .all(|w| (w[1] - w[0]).as_usize() == BITBOARDS);
    let (start, end) = (offsets[0].as_usize(), offsets[lists.len()].as_usize());
    whole.then(|| values.values()[start..end].to_byte_slice())
}

/// The integer at row `i` of an integer column (`None` for null or another type).
fn int_at(a: &dyn Array, i: usize) -> Option<i64> {
    if a.is_null(i) {
        return None;
    }
    Some(match a.data_type() {
        DataType::Int8 => i64::from(a.as_primitive::<Int8Type>().value(i)),
        DataType::Int16 => i64::from(a.as_primitive::<Int16Type>().value(i)),
        DataType::Int32 => i64::from(a.as_primitive::<Int32Type>().value(i)),
        DataType::Int64 => a.as_primitive::<Int64Type>().value(i),
        DataType::UInt8 => i64::from(a.as_primitive::<UInt8Type>().value(i)),
        DataType::UInt16 => i64::from(a.as_primitive::<UInt16Type>().value(i)),
        DataType::UInt32 => i64::from(a.as_primitive::<UInt32Type>().value(i)),
        DataType::UInt64 => a.as_primitive::<UInt64Type>().value(i) as i64,
        _ => return None,
    })
}

fn array_error(m: String) -> EncodeError {
    EncodeError::Array(m)
}

impl From<zip::result::ZipError> for EncodeError {
    fn from(e: zip::result::ZipError) -> Self {
        match e {
            zip::result::ZipError::Io(e) => EncodeError::Io(e),
            other => EncodeError::Array(format!("zip: {other}")),
        }
    }
}

impl ArrayOut {
    fn new(
        dest: Dest,
        schema: &Schema,
        opts: &SinkOptions,
        spill_dir: PathBuf,
    ) -> Result<ArrayOut, EncodeError> {
        let kinds = plan(schema).map_err(array_error)?;
        let direct = matches!(dest, Dest::Dir(_));
        let columns = schema
            .fields()
            .iter()
            .zip(kinds)
            .map(|(f, kind)| Column {
                name: f.name().clone(),
                kind,
                null: match kind {
                    Kind::Int(i) => i.null(f.name()),
                    _ => [0; 8],
                },
                width: 0,
                data: if direct && kind != Kind::Text {
                    Data::File(None)
                } else {
                    Data::Spill(Spill::default())
                },
            })
            .collect();
        let board = has_board(schema).then(|| BoardShape {
            rows: schema.index_of("board_rows").expect("checked by plan"),
            cols: schema.index_of("board_cols").expect("checked by plan"),
            size: None,
        });
        Ok(ArrayOut {
            dest,
            columns,
            board,
            rows: 0,
            left_out: 0,
            text_cap: opts.array_text_bytes.max(1),
            truncated: 0,
            budget: opts.row_group_bytes.max(1),
            spill_dir,
            sync: opts.sync && super::SYNC_EACH_ARRAY_FILE,
            started: false,
        })
    }

    /// An `.npz` archive written to `out` when it closes; its columns wait in memory, then in
    /// temporary files in `spill_dir`.
    pub(crate) fn zip(
        out: BufWriter<Target>,
        schema: &Schema,
        opts: &SinkOptions,
        spill_dir: PathBuf,
    ) -> Result<ArrayOut, EncodeError> {
        ArrayOut::new(Dest::Zip(Box::new(out)), schema, opts, spill_dir)
    }

    /// A `.npy` file per column in `dir` (which exists).
    pub(crate) fn dir(
        dir: PathBuf,
        schema: &Schema,
        opts: &SinkOptions,
    ) -> Result<ArrayOut, EncodeError> {
        let spill = dir.clone();
        ArrayOut::new(Dest::Dir(dir), schema, opts, spill)
    }

    /// Rows not written: Go positions of another board size than the file's first.
    pub(crate) fn left_out(&self) -> u64 {
        self.left_out
    }

    /// Text values cut to [`SinkOptions::array_text_bytes`](super::SinkOptions::array_text_bytes).
    pub(crate) fn truncated(&self) -> u64 {
        self.truncated
    }

    /// The board size of the file, once known.
    fn board_size(&self) -> Option<(u64, u64)> {
        self.board.as_ref().and_then(|b| b.size)
    }

    /// `npy`: opens the columns' files, each with its header (room for any row count).
    fn start(&mut self) -> Result<(), EncodeError> {
        self.started = true;
        let Dest::Dir(dir) = &self.dest else {
            return Ok(());
        };
        let size = self.board_size();
        for col in &mut self.columns {
            let header = col.header(0, size);
            if let Data::File(file) = &mut col.data {
                let path = dir.join(format!("{}.npy", col.name));
                let mut w = BufWriter::with_capacity(1 << 18, File::create_new(&path)?);
                w.write_all(&header)?;
                *file = Some(w);
            }
        }
        Ok(())
    }

    /// Takes a batch's rows (those of the file's board size).
    pub(crate) fn write(&mut self, batch: &RecordBatch) -> Result<(), EncodeError> {
        let mut batch = std::borrow::Cow::Borrowed(batch);
        if let Some(b) = &mut self.board {
            let (rows, cols) = (batch.column(b.rows), batch.column(b.cols));
            let size_at = |i: usize| {
                let r = int_at(rows.as_ref(), i).unwrap_or(0).max(0) as u64;
                let c = int_at(cols.as_ref(), i).unwrap_or(0).max(0) as u64;
                (r, c)
            };
            if b.size.is_none() && batch.num_rows() > 0 {
                b.size = Some(size_at(0));
            }
            if let Some(size) = b.size {
                let keep: BooleanArray = (0..batch.num_rows())
                    .map(|i| Some(size_at(i) == size))
                    .collect();
                let kept = keep.true_count();
                if kept < batch.num_rows() {
                    self.left_out += (batch.num_rows() - kept) as u64;
                    let filtered = arrow_select::filter::filter_record_batch(&batch, &keep)
                        .map_err(|e| array_error(format!("the rows could not be filtered: {e}")))?;
                    batch = std::borrow::Cow::Owned(filtered);
                }
            }
        }
        if batch.num_rows() == 0 {
            return Ok(());
        }
        if !self.started {
            self.start()?;
        }
        let board_bytes = self
            .board_size()
            .map_or(0, |(r, c)| usize::try_from(r * c).unwrap_or(usize::MAX));
        let mut scratch = Vec::new();
        let mut in_memory = 0usize;
        for (k, col) in self.columns.iter_mut().enumerate() {
            let a = batch.column(k).as_ref();
            if let Data::File(f) = &mut col.data
                && let Some(bytes) = as_written(col.kind, a)
            {
                // the values' own bytes, written without a copy first
                f.as_mut().expect("started").write_all(bytes)?;
                continue;
            }
            let out = match &mut col.data {
                Data::Spill(s) => &mut s.mem,
                Data::File(_) => {
                    scratch.clear();
                    &mut scratch
                }
            };
            match col.kind {
                Kind::Int(i) => {
                    let null = &col.null;
                    match i {
                        Int::I8 => put_ints::<Int8Type>(a, null, out),
                        Int::I16 => put_ints::<Int16Type>(a, null, out),
                        Int::I32 => put_ints::<Int32Type>(a, null, out),
                        Int::I64 => put_ints::<Int64Type>(a, null, out),
                        Int::U8 => put_ints::<UInt8Type>(a, null, out),
                        Int::U16 => put_ints::<UInt16Type>(a, null, out),
                        Int::U32 => put_ints::<UInt32Type>(a, null, out),
                        Int::U64 => put_ints::<UInt64Type>(a, null, out),
                    }
                }
                Kind::Float => match a.data_type() {
                    DataType::Float32 => put_floats::<Float32Type>(a, out, |v| v),
                    _ => put_floats::<Float64Type>(a, out, |v| v as f32),
                },
                Kind::Bool => {
                    let b = a.as_boolean();
                    out.extend((0..b.len()).map(|i| u8::from(b.is_valid(i) && b.value(i))));
                }
                // NaT, NumPy's null of dates and times, is the smallest int64
                Kind::Date => put_i64s::<Date32Type>(a, out, i64::from),
                Kind::Time => put_i64s::<Time64MicrosecondType>(a, out, |t| t),
                Kind::Bitboards => match a.data_type() {
                    DataType::List(_) => put_bitboards::<i32>(a, out),
                    _ => put_bitboards::<i64>(a, out),
                }
                .map_err(array_error)?,
                Kind::Board => match a.data_type() {
                    DataType::Binary => put_boards::<i32>(a, board_bytes, out),
                    _ => put_boards::<i64>(a, board_bytes, out),
                }
                .map_err(array_error)?,
                Kind::SideToMove => match a.data_type() {
                    DataType::Utf8 => put_side::<i32>(a, out),
                    _ => put_side::<i64>(a, out),
                },
                Kind::Text => {
                    let (longest, cut) = put_text(a, self.text_cap, out);
                    col.width = col.width.max(longest);
                    self.truncated += cut;
                }
            }
            match &mut col.data {
                Data::Spill(s) => in_memory += s.mem.len(),
                Data::File(f) => f.as_mut().expect("started").write_all(&scratch)?,
            }
        }
        self.rows += batch.num_rows() as u64;
        if in_memory > self.budget {
            for col in &mut self.columns {
                if let Data::Spill(s) = &mut col.data {
                    s.spill(&self.spill_dir)?;
                }
            }
        }
        Ok(())
    }

    /// Writes a column's values after its header: the bytes waiting, or, for text, each value
    /// padded with NULs to the column's width.
    fn copy_values(col: &mut Column, rows: u64, to: &mut impl Write) -> io::Result<()> {
        let Data::Spill(spill) = &mut col.data else {
            return Ok(());
        };
        let mut from = spill.reader()?;
        if col.kind != Kind::Text {
            io::copy(&mut from, to)?;
            return Ok(());
        }
        let width = col.width.max(1);
        let mut value = vec![0u8; width];
        for _ in 0..rows {
            let mut len = [0u8; 4];
            from.read_exact(&mut len)?;
            let len = u32::from_le_bytes(len) as usize;
            value.fill(0);
            from.read_exact(&mut value[..len])?;
            to.write_all(&value)?;
        }
        Ok(())
    }

    /// `npz`: writes the archive (a stored member per column, its values at a multiple of 64
    /// bytes) and gives the file back.
    pub(crate) fn close_zip(mut self) -> Result<BufWriter<Target>, EncodeError> {
        let Dest::Zip(out) = std::mem::replace(&mut self.dest, Dest::Dir(PathBuf::new())) else {
            return Err(array_error("not an npz archive".into()));
        };
        let size = self.board_size();
        let rows = self.rows;
        let mut zip = ZipWriter::new_stream(*out);
        for col in &mut self.columns {
            let header = col.header(rows, size);
            let values = match (&col.data, col.kind) {
                (_, Kind::Text) => rows * col.width.max(1) as u64,
                (Data::Spill(s), _) => s.len(),
                (Data::File(_), _) => 0,
            };
            let options = SimpleFileOptions::default()
                .compression_method(CompressionMethod::Stored)
                // a fixed date (1980-01-01, the zip format's first): the same bytes every run
                .last_modified_time(DateTime::default())
                .unix_permissions(0o644)
                .with_alignment(ARRAY_ALIGN as u16)
                .large_file(header.len() as u64 + values >= u64::from(u32::MAX));
            zip.start_file(format!("{}.npy", col.name), options)?;
            zip.write_all(&header)?;
            ArrayOut::copy_values(col, rows, &mut zip)?;
        }
        Ok(zip.finish()?.into_inner())
    }

    /// `npy`: completes each column's file (its header given the row count), syncs it (not on
    /// Linux: the sink syncs the whole dataset at once, [`super::sync_all_at_once`]), and
    /// gives the bytes written.
    pub(crate) fn close_dir(mut self) -> Result<u64, EncodeError> {
        if !self.started {
            self.start()?;
        }
        let Dest::Dir(dir) = &self.dest else {
            return Err(array_error("not an npy directory".into()));
        };
        let size = self.board_size();
        let rows = self.rows;
        let mut bytes = 0;
        for col in &mut self.columns {
            let header = col.header(rows, size);
            let at_start = col.header(0, size).len();
            let file = match &mut col.data {
                Data::File(w) => {
                    let mut file = w
                        .take()
                        .expect("started")
                        .into_inner()
                        .map_err(|e| e.into_error())?;
                    // the header again, the same length, with the row count
                    if at_start != header.len() {
                        return Err(array_error(format!(
                            "{}.npy: the header grew from {at_start} to {} bytes",
                            col.name,
                            header.len()
                        )));
                    }
                    file.seek(SeekFrom::Start(0))?;
                    file.write_all(&header)?;
                    file
                }
                Data::Spill(_) => {
                    let path = dir.join(format!("{}.npy", col.name));
                    let mut w = BufWriter::with_capacity(1 << 18, File::create_new(&path)?);
                    w.write_all(&header)?;
                    ArrayOut::copy_values(col, rows, &mut w)?;
                    w.into_inner().map_err(|e| e.into_error())?
                }
            };
            if self.sync {
                file.sync_all()?;
            }
            bytes += file.metadata()?.len();
        }
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use arrow_array::builder::{BinaryBuilder, Int64Builder, ListBuilder};
    use arrow_array::{ArrayRef, Float64Array, Int8Array, Int16Array, Int32Array, StringArray};
    use arrow_schema::Field;

    /// The header's dictionary, as text.
    fn dict(h: &[u8]) -> &str {
        let start = if h[6] == 1 { 10 } else { 12 };
        std::str::from_utf8(&h[start..]).unwrap()
    }

    #[test]
    fn headers_are_numpys_own() {
        // numpy 2.x: np.lib.format.write_array_header_1_0 of np.zeros((5, 12), '<u8')
        let h = npy_header("<u8", &[5, 12]);
        assert_eq!(&h[..8], b"\x93NUMPY\x01\x00");
        assert_eq!(h.len() % 64, 0, "values start at a multiple of 64");
        assert_eq!(usize::from(u16::from_le_bytes([h[8], h[9]])), h.len() - 10);
        let d = dict(&h);
        assert!(d.starts_with("{'descr': '<u8', 'fortran_order': False, 'shape': (5, 12), }"));
        assert!(d.ends_with('\n'));
        assert_eq!(h.len(), 128, "{d:?}");
        // one dimension: Python's tuple of one
        let one = npy_header("|u1", &[3]);
        assert!(
            dict(&one).starts_with("{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }")
        );
        // no dimension
        let none = npy_header("<f4", &[]);
        assert!(dict(&none).starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (), }"));
        assert_eq!(none.len() % 64, 0);
        let board = npy_header("|u1", &[7, 19, 19]);
        assert!(dict(&board).contains("'shape': (7, 19, 19), }"));
    }

    #[test]
    fn a_header_keeps_its_length_for_any_row_count() {
        for descr in ["<u8", "|u1", "<i2", "|S300"] {
            for tail in [&[][..], &[12], &[19, 19], &[52, 52]] {
                let len = |n: u64| {
                    let mut shape = vec![n];
                    shape.extend_from_slice(tail);
                    npy_header(descr, &shape).len()
                };
                let first = len(0);
                for n in [1, 9, 10, 12_345, u64::from(u32::MAX), u64::MAX] {
                    assert_eq!(len(n), first, "{descr} {tail:?} {n}");
                }
                assert_eq!(first % 64, 0);
            }
        }
    }

    #[test]
    fn a_header_aligned_already_gets_64_more_bytes_as_numpys() {
        // a dictionary whose 10 + len + 1 bytes fall on 64 exactly: NumPy pads 64 spaces
        // anyway (`ARRAY_ALIGN - 0`); find such a descr by its length
        let found = (1..200).map(|w| format!("|S{}", "9".repeat(w))).find(|d| {
            let h = npy_header(d, &[]);
            let dict_len = dict(&h).trim_end_matches(['\n', ' ']).len();
            (10 + dict_len + 1).is_multiple_of(64)
        });
        let d = found.expect("some length falls on 64");
        let h = npy_header(&d, &[]);
        assert_eq!(h[h.len() - 65..h.len() - 1], [b' '; 64]);
    }

    #[test]
    fn a_header_past_65535_bytes_is_version_2() {
        let d = format!("|S{}", "1".repeat(70_000));
        let h = npy_header(&d, &[2]);
        assert_eq!(&h[..8], b"\x93NUMPY\x02\x00");
        let len = u32::from_le_bytes([h[8], h[9], h[10], h[11]]) as usize;
        assert_eq!(len, h.len() - 12);
        assert_eq!(h.len() % 64, 0);
    }

    #[test]
    fn descrs_and_nulls() {
        assert_eq!(Int::I16.descr(), "<i2");
        assert_eq!(Int::U8.descr(), "|u1");
        assert_eq!(Int::I8.null("score")[0], 0x80, "score: -128");
        assert_eq!(Int::I8.null("ep_square")[0], 0xff, "ep_square: -1");
        assert_eq!(&Int::I16.null("policy")[..2], &(-1i16).to_le_bytes());
        assert_eq!(&Int::I32.null("eval_cp")[..4], &i32::MIN.to_le_bytes());
        assert_eq!(&Int::U32.null("captures")[..4], &u32::MAX.to_le_bytes());
        assert_eq!(Int::I64.null("key"), i64::MIN.to_le_bytes());
        assert_eq!(Kind::Text.descr(7), "|S7");
        assert_eq!(Kind::Date.descr(0), "<M8[D]");
        assert_eq!(Kind::Time.descr(0), "<m8[us]");
        assert_eq!(Kind::Text.descr(0), "|S1", "numpy has no S0 worth reading");
    }

    fn schema_of(fields: Vec<Field>) -> Schema {
        Schema::new(fields)
    }

    #[test]
    fn columns_by_type_and_the_special_three() {
        let list = DataType::List(Arc::new(Field::new("item", DataType::Int64, false)));
        let s = schema_of(vec![
            Field::new("file", DataType::Utf8, false),
            Field::new("ply", DataType::Int32, false),
            Field::new("bitboards", list.clone(), false),
            Field::new("side_to_move", DataType::Utf8, false),
            Field::new("clock", DataType::Float64, true),
            Field::new("moves", list, false),
        ]);
        assert!(check(&s).unwrap_err().contains("`moves`"));
        assert_eq!(
            default_columns(&s),
            ["ply", "bitboards", "side_to_move", "clock"]
        );
        let board = schema_of(vec![
            Field::new("board", DataType::Binary, false),
            Field::new("board_rows", DataType::Int32, false),
        ]);
        assert!(check(&board).unwrap_err().contains("board_cols"));
        assert!(!has_board(&board));
        assert!(check(&schema_of(vec![])).is_err());
        let odd = schema_of(vec![Field::new("../x", DataType::Int32, false)]);
        assert!(check(&odd).is_err());
    }

    fn bitboards(rows: &[[i64; 12]]) -> ArrayRef {
        let mut b = ListBuilder::new(Int64Builder::new());
        for r in rows {
            b.values().append_slice(r);
            b.append(true);
        }
        Arc::new(b.finish())
    }

    /// A zip archive's members, by name, read back with the zip crate.
    fn members(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
        let mut z = zip::ZipArchive::new(io::Cursor::new(bytes)).unwrap();
        (0..z.len())
            .map(|i| {
                let mut f = z.by_index(i).unwrap();
                assert_eq!(f.compression(), CompressionMethod::Stored);
                let mut v = Vec::new();
                f.read_to_end(&mut v).unwrap();
                (f.name().to_string(), v)
            })
            .collect()
    }

    /// The bytes of an npz written from `batches` with `opts`.
    fn npz(batches: &[RecordBatch], opts: &SinkOptions) -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.npz");
        let target = Target {
            to: super::super::TargetKind::Part(File::create(&path).unwrap()),
            bytes: 0,
        };
        let mut out = ArrayOut::zip(
            BufWriter::new(target),
            &batches[0].schema(),
            opts,
            dir.path().into(),
        )
        .unwrap();
        for b in batches {
            out.write(b).unwrap();
        }
        let mut w = out.close_zip().unwrap();
        w.flush().unwrap();
        drop(w);
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file has a name"
        );
        bytes
    }

    fn chess_batch(rows: usize, from: usize) -> RecordBatch {
        // row k of the batch is row `from + k` of the table
        let ks = || from..from + rows;
        let boards: Vec<[i64; 12]> = ks()
            .map(|k| {
                std::array::from_fn(|j| {
                    if j == 5 {
                        -(k as i64)
                    } else {
                        k as i64 * 3 + j as i64
                    }
                })
            })
            .collect();
        let cols: Vec<ArrayRef> = vec![
            Arc::new(Int32Array::from_iter_values(ks().map(|k| k as i32))),
            bitboards(&boards),
            Arc::new(StringArray::from_iter_values(
                ks().map(|k| if k % 2 == 0 { "white" } else { "black" }),
            )),
            Arc::new(Int16Array::from_iter(
                ks().map(|k| (k % 3 != 0).then_some(k as i16)),
            )),
            Arc::new(Int8Array::from_iter(
                ks().map(|k| (k % 4 != 0).then_some(1)),
            )),
            Arc::new(Float64Array::from_iter(
                ks().map(|k| (k % 2 == 0).then_some(k as f64 + 0.5)),
            )),
            Arc::new(StringArray::from_iter(
                ks().map(|k| (k % 5 != 0).then(|| "x".repeat(k % 7))),
            )),
        ];
        let list = DataType::List(Arc::new(Field::new("item", DataType::Int64, true)));
        let schema = Arc::new(schema_of(vec![
            Field::new("ply", DataType::Int32, false),
            Field::new("bitboards", list, false),
            Field::new("side_to_move", DataType::Utf8, false),
            Field::new("policy", DataType::Int16, true),
            Field::new("score", DataType::Int8, true),
            Field::new("clock", DataType::Float64, true),
            Field::new("san", DataType::Utf8, true),
        ]));
        RecordBatch::try_new(schema, cols).unwrap()
    }

    #[test]
    fn an_npz_holds_each_column_at_64_bytes_and_the_same_bytes_however_batched() {
        let opts = SinkOptions::default();
        let whole = npz(&[chess_batch(100, 0)], &opts);
        // in three batches, and spilled to temporary files after every batch
        let tiny = SinkOptions {
            row_group_bytes: 1,
            ..SinkOptions::default()
        };
        let parts = [chess_batch(40, 0), chess_batch(1, 40), chess_batch(59, 41)];
        assert!(npz(&parts, &tiny) == whole, "the same bytes");
        let m = members(&whole);
        let names: Vec<&str> = m.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "ply.npy",
                "bitboards.npy",
                "side_to_move.npy",
                "policy.npy",
                "score.npy",
                "clock.npy",
                "san.npy"
            ]
        );
        let get = |name: &str| &m.iter().find(|(n, _)| n == name).unwrap().1;
        let body = |name: &str| {
            let v = get(name);
            let h = npy_header_len(v);
            (dict(&v[..h]).to_string(), v[h..].to_vec())
        };
        let (d, v) = body("bitboards.npy");
        assert!(
            d.contains("'descr': '<u8'") && d.contains("'shape': (100, 12)"),
            "{d}"
        );
        assert_eq!(v.len(), 100 * 12 * 8);
        let word = |k: usize| u64::from_le_bytes(v[8 * k..8 * k + 8].try_into().unwrap());
        assert_eq!(word(12 * 7 + 2), 7 * 3 + 2);
        assert_eq!(word(12 * 7 + 5), (-7i64) as u64, "the same bits, unsigned");
        let (d, v) = body("side_to_move.npy");
        assert!(d.contains("'|u1'") && d.contains("(100,)"));
        assert_eq!(&v[..3], &[0, 1, 0]);
        let (_, v) = body("policy.npy");
        assert_eq!(&v[..4], &[0xff, 0xff, 1, 0], "null -1, then 1");
        let (_, v) = body("score.npy");
        assert_eq!(&v[..2], &[0x80, 1], "null -128");
        let (d, v) = body("clock.npy");
        assert!(d.contains("'<f4'"));
        assert_eq!(f32::from_le_bytes(v[..4].try_into().unwrap()), 0.5);
        assert!(f32::from_le_bytes(v[4..8].try_into().unwrap()).is_nan());
        let (d, v) = body("san.npy");
        assert!(d.contains("'|S6'"), "{d}");
        assert_eq!(&v[6..12], b"x\0\0\0\0\0");
        assert_eq!(&v[..6], &[0; 6], "null: empty");

        // each member's values start at a multiple of 64 bytes of the archive
        let mut z = zip::ZipArchive::new(io::Cursor::new(&whole[..])).unwrap();
        for i in 0..z.len() {
            let f = z.by_index(i).unwrap();
            let start = f.data_start().unwrap() as usize;
            assert_eq!(start % 64, 0, "{}", f.name());
            assert_eq!(&whole[start..start + 6], b"\x93NUMPY");
        }
    }

    /// The length of an `.npy` file's header.
    fn npy_header_len(v: &[u8]) -> usize {
        10 + usize::from(u16::from_le_bytes([v[8], v[9]]))
    }

    fn go_batch(sizes: &[(i32, i32)]) -> RecordBatch {
        let mut boards = BinaryBuilder::new();
        for (k, &(r, c)) in sizes.iter().enumerate() {
            boards.append_value(vec![(k % 3) as u8; (r * c) as usize]);
        }
        let schema = Arc::new(schema_of(vec![
            Field::new("board_cols", DataType::Int32, false),
            Field::new("board_rows", DataType::Int32, false),
            Field::new("board", DataType::Binary, false),
            Field::new("side_to_move", DataType::Utf8, false),
        ]));
        let cols: Vec<ArrayRef> = vec![
            Arc::new(Int32Array::from_iter_values(sizes.iter().map(|s| s.1))),
            Arc::new(Int32Array::from_iter_values(sizes.iter().map(|s| s.0))),
            Arc::new(boards.finish()),
            Arc::new(StringArray::from_iter_values(
                (0..sizes.len()).map(|k| if k % 2 == 0 { "black" } else { "white" }),
            )),
        ];
        RecordBatch::try_new(schema, cols).unwrap()
    }

    #[test]
    fn a_go_file_holds_its_first_board_size() {
        let dir = tempfile::tempdir().unwrap();
        let npy = dir.path().join("npy");
        std::fs::create_dir(&npy).unwrap();
        let b = go_batch(&[(9, 13), (19, 19), (9, 13), (9, 13)]);
        let mut out = ArrayOut::dir(npy.clone(), &b.schema(), &SinkOptions::default()).unwrap();
        out.write(&b).unwrap();
        assert_eq!(out.left_out(), 1);
        out.close_dir().unwrap();
        let board = std::fs::read(npy.join("board.npy")).unwrap();
        let h = npy_header_len(&board);
        assert!(dict(&board[..h]).contains("'shape': (3, 9, 13)"));
        assert_eq!(board.len() - h, 3 * 9 * 13);
        assert_eq!(
            board[h + 9 * 13],
            2,
            "the third board (index 2 of the batch)"
        );
        // the Go table's side to move as the chess one's: uint8 0 white, 1 black
        let side = std::fs::read(npy.join("side_to_move.npy")).unwrap();
        let h = npy_header_len(&side);
        assert!(dict(&side[..h]).contains("'descr': '|u1'"));
        assert_eq!(&side[h..], [1, 1, 0], "rows 0, 2, 3 (row 1 left out)");
    }

    #[test]
    fn an_npy_directory_holds_the_members_of_the_npz() {
        let parts = [chess_batch(30, 0), chess_batch(70, 30)];
        let zipped = members(&npz(&parts, &SinkOptions::default()));
        let dir = tempfile::tempdir().unwrap();
        let mut out = ArrayOut::dir(
            dir.path().into(),
            &parts[0].schema(),
            &SinkOptions::default(),
        )
        .unwrap();
        for p in &parts {
            out.write(p).unwrap();
        }
        let bytes = out.close_dir().unwrap();
        let mut total = 0;
        for (name, v) in &zipped {
            assert_eq!(&std::fs::read(dir.path().join(name)).unwrap(), v, "{name}");
            total += v.len() as u64;
        }
        assert_eq!(bytes, total);
    }

    #[test]
    fn no_rows_make_empty_arrays() {
        let b = go_batch(&[]);
        let m = members(&npz(&[b], &SinkOptions::default()));
        let board = &m.iter().find(|(n, _)| n == "board.npy").unwrap().1;
        assert!(dict(board).contains("'shape': (0, 0, 0)"));
        assert_eq!(board.len(), npy_header_len(board));
    }

    #[test]
    fn long_text_is_cut_to_the_width_and_counted() {
        let schema = Arc::new(schema_of(vec![Field::new("result", DataType::Utf8, true)]));
        let long = format!("{}é{}", "x".repeat(6), "y".repeat(100));
        let batch = |vals: Vec<Option<&str>>| {
            RecordBatch::try_new(schema.clone(), vec![Arc::new(StringArray::from(vals))]).unwrap()
        };
        let opts = SinkOptions {
            array_text_bytes: 7,
            ..SinkOptions::default()
        };
        let batches = [
            batch(vec![Some(long.as_str()), Some("B+R"), None]),
            batch(vec![Some("1234567"), Some("12345678")]),
        ];
        let dir = tempfile::tempdir().unwrap();
        let mut out = ArrayOut::dir(dir.path().into(), &schema, &opts).unwrap();
        for b in &batches {
            out.write(b).unwrap();
        }
        assert_eq!(out.truncated(), 2, "the long value and the 8 bytes");
        out.close_dir().unwrap();
        let v = std::fs::read(dir.path().join("result.npy")).unwrap();
        let h = npy_header_len(&v);
        let d = dict(&v[..h]);
        assert!(d.contains("'|S7'") && d.contains("(5,)"), "{d}");
        // `é` would end at byte 8: cut before it; the null empty
        let want: Vec<u8> = [
            &b"xxxxxx\0"[..],
            b"B+R\0\0\0\0",
            &[0; 7],
            b"1234567",
            b"1234567",
        ]
        .concat();
        assert_eq!(&v[h..], &want[..]);
        // the width is the longest value's when none is cut
        let m = members(&npz(&[batch(vec![Some("ab"), None])], &opts));
        let (_, v) = &m[0];
        assert!(dict(&v[..npy_header_len(v)]).contains("'|S2'"));
    }

    #[test]
    fn bitboards_must_be_twelve() {
        let list = DataType::List(Arc::new(Field::new("item", DataType::Int64, true)));
        let schema = Arc::new(schema_of(vec![Field::new("bitboards", list, false)]));
        let mut b = ListBuilder::new(Int64Builder::new());
        b.values().append_slice(&[1, 2, 3]);
        b.append(true);
        let batch = RecordBatch::try_new(schema.clone(), vec![Arc::new(b.finish())]).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let mut out = ArrayOut::dir(dir.path().into(), &schema, &SinkOptions::default()).unwrap();
        let e = out.write(&batch).expect_err("three is not twelve");
        assert!(matches!(e, EncodeError::Array(ref m) if m.contains("3 values")));
    }
}
