//! Arrow arrays written into DuckDB vectors, and the DuckDB types of Arrow's.
//!
//! The tables are built as Arrow record batches by kifu-pipeline (the batches `kifu export`
//! writes); each column of a batch slice is copied here into the vector of DuckDB's output
//! chunk: fixed-width values as one copy, text and blobs one value at a time (DuckDB owns its
//! strings), lists, maps and structs recursively, the children of a list written once for the
//! slice (a slice of an Arrow list keeps its parent's child array: only its range is written).
//!
//! The types are the export's (integers, floats, booleans, `Date32`, `Time64`, UTF-8, binary,
//! lists, structs and maps) and the few a column may take tomorrow (`Date64`, timestamps,
//! string and binary views, dictionaries, written as their values). Any other type is refused
//! when the function binds, naming the column: a new column fails loudly, never wrongly.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Date64Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type,
    Time64MicrosecondType, Time64NanosecondType, TimestampMicrosecondType,
    TimestampMillisecondType, TimestampNanosecondType, TimestampSecondType, UInt8Type, UInt16Type,
    UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrowPrimitiveType, OffsetSizeTrait};
use arrow_schema::{DataType, Field, TimeUnit};
use duckdb::core::{LogicalTypeHandle, LogicalTypeId};
use duckdb::ffi;

/// The largest child a list vector may reserve (DuckDB's `MAX_VECTOR_SIZE`: more is a C++
/// exception that the C API does not catch).
const MAX_VECTOR_SIZE: usize = 1 << 37;

/// Whether a field's type has a DuckDB type here ([`logical_type`]).
///
/// # Errors
///
/// A type the export never makes (unions, decimals, timestamps, …), named with its column.
pub fn supported(field: &Field) -> Result<(), String> {
    match field.data_type() {
        DataType::Boolean
        | DataType::Int8
        | DataType::Int16
        | DataType::Int32
        | DataType::Int64
        | DataType::UInt8
        | DataType::UInt16
        | DataType::UInt32
        | DataType::UInt64
        | DataType::Float32
        | DataType::Float64
        | DataType::Date32
        | DataType::Date64
        | DataType::Time64(TimeUnit::Microsecond | TimeUnit::Nanosecond)
        | DataType::Timestamp(_, _)
        | DataType::Utf8
        | DataType::LargeUtf8
        | DataType::Utf8View
        | DataType::Binary
        | DataType::LargeBinary
        | DataType::BinaryView => Ok(()),
        DataType::Dictionary(key, value) if key.is_dictionary_key_type() => {
            supported(&Field::new(field.name(), (**value).clone(), true))
        }
        DataType::List(item) | DataType::LargeList(item) => supported(item),
        DataType::Struct(fields) => fields.iter().try_for_each(|f| supported(f)),
        DataType::Map(entries, _) => match entries.data_type() {
            DataType::Struct(kv) if kv.len() == 2 => kv.iter().try_for_each(|f| supported(f)),
            _ => Err(unsupported(field)),
        },
        _ => Err(unsupported(field)),
    }
}

/// The DuckDB type id of an Arrow type (of a supported field).
fn type_id(data_type: &DataType) -> Option<LogicalTypeId> {
    use LogicalTypeId as Id;
    Some(match data_type {
        DataType::Boolean => Id::Boolean,
        DataType::Int8 => Id::Tinyint,
        DataType::Int16 => Id::Smallint,
        DataType::Int32 => Id::Integer,
        DataType::Int64 => Id::Bigint,
        DataType::UInt8 => Id::UTinyint,
        DataType::UInt16 => Id::USmallint,
        DataType::UInt32 => Id::UInteger,
        DataType::UInt64 => Id::UBigint,
        DataType::Float32 => Id::Float,
        DataType::Float64 => Id::Double,
        DataType::Date32 | DataType::Date64 => Id::Date,
        DataType::Time64(TimeUnit::Microsecond | TimeUnit::Nanosecond) => Id::Time,
        DataType::Timestamp(_, Some(_)) => Id::TimestampTZ,
        DataType::Timestamp(TimeUnit::Nanosecond, None) => Id::TimestampNs,
        DataType::Timestamp(_, None) => Id::Timestamp,
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => Id::Varchar,
        DataType::Binary | DataType::LargeBinary | DataType::BinaryView => Id::Blob,
        DataType::Dictionary(_, value) => return type_id(value),
        DataType::List(_) | DataType::LargeList(_) => Id::List,
        DataType::Struct(_) => Id::Struct,
        DataType::Map(_, _) => Id::Map,
        _ => return None,
    })
}

/// The DuckDB type of an Arrow field's type (DuckDB must be there: the extension is loaded).
///
/// # Errors
///
/// As [`supported`].
pub fn logical_type(field: &Field) -> Result<LogicalTypeHandle, String> {
    supported(field)?;
    Ok(match field.data_type() {
        DataType::List(item) | DataType::LargeList(item) => {
            LogicalTypeHandle::list(&logical_type(item)?)
        }
        DataType::Struct(fields) => {
            let children = fields
                .iter()
                .map(|f| Ok((f.name().as_str(), logical_type(f)?)))
                .collect::<Result<Vec<_>, String>>()?;
            LogicalTypeHandle::struct_type(&children)
        }
        DataType::Map(entries, _) => {
            let DataType::Struct(kv) = entries.data_type() else {
                return Err(unsupported(field));
            };
            LogicalTypeHandle::map(&logical_type(&kv[0])?, &logical_type(&kv[1])?)
        }
        DataType::Dictionary(_, value) => {
            logical_type(&Field::new(field.name(), (**value).clone(), true))?
        }
        other => LogicalTypeHandle::from(type_id(other).ok_or_else(|| unsupported(field))?),
    })
}

fn unsupported(field: &Field) -> String {
    format!(
        "column {}: the Arrow type {} has no DuckDB type in this extension",
        field.name(),
        field.data_type()
    )
}

/// A DuckDB vector of the output chunk (or a child of one), and how many rows it has room for.
///
/// [`write`](Vector::write) checks, before it writes, that the array's rows fit and that the
/// vector's DuckDB type is the one [`logical_type`] gives for the array's type: a column bound
/// with another type, or a piece longer than the chunk, is an error, never a write out of
/// place.
#[derive(Clone, Copy)]
pub struct Vector {
    raw: ffi::duckdb_vector,
    capacity: usize,
}

impl Vector {
    /// The vector `raw`, with room for `capacity` rows.
    ///
    /// # Safety
    ///
    /// `raw` is a live vector of the chunk DuckDB handed to the function (or a child of one),
    /// with room for `capacity` rows of its type (a chunk's vectors hold
    /// `duckdb_vector_size()` rows), used by this thread alone while the `Vector` is in use.
    pub unsafe fn new(raw: ffi::duckdb_vector, capacity: usize) -> Vector {
        Vector { raw, capacity }
    }

    /// The vector's DuckDB type id.
    fn type_id(self) -> ffi::duckdb_type {
        // SAFETY: the vector is live (the contract of `Vector::new`); DuckDB returns a new
        // logical type, which is destroyed below once its id is read.
        let mut ty = unsafe { ffi::duckdb_vector_get_column_type(self.raw) };
        // SAFETY: `ty` is the valid logical type just returned.
        let id = unsafe { ffi::duckdb_get_type_id(ty) };
        // SAFETY: `ty` is ours to destroy, once; it is not used after.
        unsafe { ffi::duckdb_destroy_logical_type(&mut ty) };
        id
    }

    /// Whether `rows` rows fit at `at`, and the vector is of `data_type`'s DuckDB type.
    fn check(self, data_type: &DataType, at: usize, rows: usize) -> Result<(), String> {
        if at.checked_add(rows).is_none_or(|end| end > self.capacity) {
            return Err(format!(
                "{rows} rows at row {at} do not fit a vector of {} rows",
                self.capacity
            ));
        }
        let Some(expected) = type_id(data_type) else {
            return Err(unsupported(&Field::new("(value)", data_type.clone(), true)));
        };
        let expected = expected as ffi::duckdb_type;
        let got = self.type_id();
        if got != expected {
            return Err(format!(
                "a column of Arrow type {data_type} met a DuckDB vector of type id {got}, not {expected}"
            ));
        }
        Ok(())
    }

    /// Writes `array` at rows `at..at + array.len()`.
    ///
    /// # Errors
    ///
    /// A type [`logical_type`] refuses (never for a column it accepted), a vector of another
    /// type or without room for the rows, or a list child DuckDB cannot hold.
    pub fn write(self, array: &dyn Array, at: usize) -> Result<(), String> {
        self.check(array.data_type(), at, array.len())?;
        let n = array.len();
        match array.data_type() {
            DataType::Boolean => {
                let a = array.as_boolean();
                let data = self.data::<bool>();
                for i in 0..n {
                    // SAFETY: `data` points at the vector's booleans (one byte each: the type
                    // was checked), with room for rows `at..at + n` (checked).
                    unsafe { *data.add(at + i) = a.value(i) };
                }
            }
            DataType::Int8 => self.copy::<Int8Type>(array, at),
            DataType::Int16 => self.copy::<Int16Type>(array, at),
            DataType::Int32 => self.copy::<Int32Type>(array, at),
            DataType::Int64 => self.copy::<Int64Type>(array, at),
            DataType::UInt8 => self.copy::<UInt8Type>(array, at),
            DataType::UInt16 => self.copy::<UInt16Type>(array, at),
            DataType::UInt32 => self.copy::<UInt32Type>(array, at),
            DataType::UInt64 => self.copy::<UInt64Type>(array, at),
            DataType::Float32 => self.copy::<Float32Type>(array, at),
            DataType::Float64 => self.copy::<Float64Type>(array, at),
            // DuckDB's DATE: days since 1970-01-01 as i32, as Arrow's
            DataType::Date32 => self.copy::<Date32Type>(array, at),
            // DuckDB's TIME: microseconds since midnight as i64
            DataType::Time64(TimeUnit::Microsecond) => {
                self.copy::<Time64MicrosecondType>(array, at)
            }
            DataType::Time64(TimeUnit::Nanosecond) => {
                let values = array.as_primitive::<Time64NanosecondType>().values();
                self.convert(values, at, |ns| ns.div_euclid(1000))
            }
            // DuckDB's DATE from milliseconds: whole days, rounded down
            DataType::Date64 => {
                let values = array.as_primitive::<Date64Type>().values();
                self.convert(values, at, |ms| ms.div_euclid(86_400_000) as i32)
            }
            // DuckDB's TIMESTAMP and TIMESTAMP WITH TIME ZONE in microseconds, TIMESTAMP_NS in
            // nanoseconds, all i64
            DataType::Timestamp(unit, tz) => {
                let values = match unit {
                    TimeUnit::Second => array.as_primitive::<TimestampSecondType>().values(),
                    TimeUnit::Millisecond => {
                        array.as_primitive::<TimestampMillisecondType>().values()
                    }
                    TimeUnit::Microsecond => {
                        array.as_primitive::<TimestampMicrosecondType>().values()
                    }
                    TimeUnit::Nanosecond => {
                        array.as_primitive::<TimestampNanosecondType>().values()
                    }
                };
                match (unit, tz) {
                    (TimeUnit::Second, _) => {
                        self.convert(values, at, |v| v.saturating_mul(1_000_000))
                    }
                    (TimeUnit::Millisecond, _) => {
                        self.convert(values, at, |v| v.saturating_mul(1000))
                    }
                    (TimeUnit::Nanosecond, Some(_)) => {
                        self.convert(values, at, |v| v.div_euclid(1000))
                    }
                    _ => self.convert(values, at, |v| v),
                }
            }
            // the values a dictionary's keys name, as a plain array of the value type
            DataType::Dictionary(_, value) => {
                let plain = duckdb::arrow::compute::cast(array, value)
                    .map_err(|e| format!("a dictionary column: {e}"))?;
                return self.write(plain.as_ref(), at);
            }
            DataType::Utf8View => self.strings(array.as_string_view(), at),
            DataType::BinaryView => self.strings(array.as_binary_view(), at),
            DataType::Utf8 => self.strings(array.as_string::<i32>(), at),
            DataType::LargeUtf8 => self.strings(array.as_string::<i64>(), at),
            DataType::Binary => self.strings(array.as_binary::<i32>(), at),
            DataType::LargeBinary => self.strings(array.as_binary::<i64>(), at),
            DataType::List(_) => {
                let a = array.as_list::<i32>();
                self.list(a.value_offsets(), a.values().as_ref(), at)?;
            }
            DataType::LargeList(_) => {
                let a = array.as_list::<i64>();
                self.list(a.value_offsets(), a.values().as_ref(), at)?;
            }
            // DuckDB's MAP is a LIST of STRUCT(key, value), as Arrow's
            DataType::Map(_, _) => {
                let a = array.as_map();
                let entries: &dyn Array = a.entries();
                self.list(a.value_offsets(), entries, at)?;
            }
            DataType::Struct(_) => {
                let a = array.as_struct();
                for (k, column) in a.columns().iter().enumerate() {
                    // SAFETY: the vector is a STRUCT whose children are the struct's fields
                    // in order (the type `logical_type` gave); `k` is below their count.
                    let child = unsafe { ffi::duckdb_struct_vector_get_child(self.raw, k as u64) };
                    // SAFETY: a STRUCT's children are live while it is, with room for as
                    // many rows as it has.
                    let child = unsafe { Vector::new(child, self.capacity) };
                    child.write(column.as_ref(), at)?;
                    if let Some(nulls) = a.nulls() {
                        // DuckDB wants the fields of a NULL struct NULL too
                        child.nulls(nulls.iter().map(|valid| !valid), at);
                    }
                }
            }
            _ => {
                let field = Field::new("(value)", array.data_type().clone(), true);
                return Err(unsupported(&field));
            }
        }
        if array.null_count() > 0 {
            let nulls = array.logical_nulls();
            let nulls = nulls.as_ref().expect("a null count has a null buffer");
            self.nulls(nulls.iter().map(|valid| !valid), at);
        }
        Ok(())
    }

    /// Marks NULL the rows `at + i` for which `null` yields `true` (those that fit).
    fn nulls(self, null: impl Iterator<Item = bool>, at: usize) {
        let null = null.take(self.capacity.saturating_sub(at));
        // SAFETY: the vector is live (the contract of `Vector::new`); DuckDB allocates its
        // validity mask if it has none yet, for the vector's capacity.
        unsafe { ffi::duckdb_vector_ensure_validity_writable(self.raw) };
        // SAFETY: as above; the mask exists now.
        let validity = unsafe { ffi::duckdb_vector_get_validity(self.raw) };
        for (i, null) in null.enumerate() {
            if null {
                // SAFETY: `validity` is this vector's mask, which covers its capacity, and
                // `at + i` is a row written, within it.
                unsafe { ffi::duckdb_validity_set_row_invalid(validity, (at + i) as u64) };
            }
        }
    }

    /// The vector's data, as `T`s.
    fn data<T>(self) -> *mut T {
        // SAFETY: the vector is live (the contract of `Vector::new`); for a flat vector of a
        // fixed-width type the data is its values, for a LIST its entries.
        unsafe { ffi::duckdb_vector_get_data(self.raw) }.cast::<T>()
    }

    /// Copies fixed-width values whose Arrow layout is DuckDB's.
    fn copy<T: ArrowPrimitiveType>(self, array: &dyn Array, at: usize) {
        let values = array.as_primitive::<T>().values();
        let data = self.data::<T::Native>();
        // SAFETY: `data` has room for rows `at..at + values.len()` (checked by `write`) of
        // the DuckDB type `logical_type` gives for `T` (checked), whose values have
        // `T::Native`'s size and layout (the integers and floats themselves, DATE as i32 days,
        // TIME as i64 microseconds); the Arrow buffer and the vector never overlap.
        unsafe {
            std::ptr::copy_nonoverlapping(values.as_ptr(), data.add(at), values.len());
        }
    }

    /// Writes `values` as `f` turns them into the vector's values (DuckDB's layout for its
    /// type: `U`).
    fn convert<T: Copy, U>(self, values: &[T], at: usize, f: impl Fn(T) -> U) {
        let data = self.data::<U>();
        for (i, v) in values.iter().enumerate() {
            // SAFETY: `data` has room for rows `at..at + values.len()` (checked by `write`),
            // of the DuckDB type whose values are `U`s (checked by `write`: DATE as i32 days,
            // TIME, TIMESTAMP and TIMESTAMP_NS as i64).
            unsafe { data.add(at + i).write(f(*v)) };
        }
    }

    /// Copies text or bytes, one value at a time (DuckDB keeps its own copy).
    fn strings<A>(self, array: A, at: usize)
    where
        A: arrow_array::ArrayAccessor + Array,
        A::Item: AsRef<[u8]>,
    {
        for i in 0..array.len() {
            if array.is_null(i) {
                continue;
            }
            let value = array.value(i);
            let bytes: &[u8] = value.as_ref();
            // SAFETY: a VARCHAR or BLOB vector (checked), with room for row `at + i`
            // (checked); DuckDB copies the `bytes.len()` bytes at `bytes.as_ptr()` (or
            // inlines them) before returning.
            unsafe {
                ffi::duckdb_vector_assign_string_element_len(
                    self.raw,
                    (at + i) as u64,
                    bytes.as_ptr().cast(),
                    bytes.len() as u64,
                );
            }
        }
    }

    /// Writes lists: the values `offsets` delimit (only their range of `values`) appended to
    /// the vector's child, then each row's entry.
    fn list<O: OffsetSizeTrait>(
        self,
        offsets: &[O],
        values: &dyn Array,
        at: usize,
    ) -> Result<(), String> {
        let (Some(first), Some(last)) = (offsets.first(), offsets.last()) else {
            return Ok(());
        };
        let (start, end) = (first.as_usize(), last.as_usize());
        // SAFETY: the vector is a live LIST (or MAP) vector (the contract of `Vector::new`).
        let base = unsafe { ffi::duckdb_list_vector_get_size(self.raw) } as usize;
        let size = base + (end - start);
        if size > MAX_VECTOR_SIZE {
            return Err(format!(
                "a list of {size} values is more than DuckDB's vector holds"
            ));
        }
        // SAFETY: as above; `size` is within DuckDB's limit, so the reserve cannot throw.
        let state = unsafe { ffi::duckdb_list_vector_reserve(self.raw, size as u64) };
        if state != ffi::DuckDBSuccess {
            return Err(format!("DuckDB could not reserve a list of {size} values"));
        }
        // SAFETY: as above; the child is fetched after the reserve (which may replace it).
        let child = unsafe { ffi::duckdb_list_vector_get_child(self.raw) };
        // SAFETY: the child of a LIST is live while the list is, with room for the `size`
        // values just reserved.
        let child = unsafe { Vector::new(child, size) };
        child.write(values.slice(start, end - start).as_ref(), base)?;
        // SAFETY: as above; `size` values are reserved, and written.
        let state = unsafe { ffi::duckdb_list_vector_set_size(self.raw, size as u64) };
        if state != ffi::DuckDBSuccess {
            return Err(format!("DuckDB could not hold a list of {size} values"));
        }
        let entries = self.data::<ffi::duckdb_list_entry>();
        for (i, w) in offsets.windows(2).enumerate() {
            let (from, to) = (w[0].as_usize(), w[1].as_usize());
            // SAFETY: a LIST (or MAP) vector's data is its entries (the type was checked),
            // with room for rows `at..at + n` (`n` = `offsets.len() - 1`, the array's rows:
            // checked).
            unsafe {
                *entries.add(at + i) = ffi::duckdb_list_entry {
                    offset: (base + from - start) as u64,
                    length: (to - from) as u64,
                };
            }
        }
        Ok(())
    }
}

/// The columns of a slice of rows written into a chunk's vectors, `None` for a vector that
/// gets NULLs (DuckDB's row id, the `input_error` column of game rows).
///
/// # Errors
///
/// As [`Vector::write`].
pub fn write_columns(
    columns: &[(Vector, Option<&Arc<dyn Array>>)],
    rows: usize,
) -> Result<(), String> {
    for (vector, array) in columns {
        match array {
            Some(a) => vector.write(a.as_ref(), 0)?,
            None => vector.nulls(std::iter::repeat_n(true, rows), 0),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::builder::{Int32Builder, ListBuilder};
    use arrow_array::types::Int32Type;
    use arrow_array::{
        ArrayRef, BooleanArray, Date32Array, Date64Array, DictionaryArray, Float32Array,
        Int16Array, Int64Array, RecordBatch, StringArray, StructArray, Time64MicrosecondArray,
        Time64NanosecondArray, TimestampMillisecondArray, TimestampSecondArray, UInt8Array,
    };
    use arrow_schema::Fields;
    use kifu_export::{Builder, Table, TableOptions};

    use super::*;
    use crate::fake::{Fake, Value};

    /// What DuckDB should hold for row `i` of `array`: its value as Arrow reads it, in DuckDB's
    /// units (DATE in days, TIME and TIMESTAMP in microseconds).
    fn expected(array: &dyn Array, i: usize) -> Value {
        if array.is_null(i) {
            return Value::Null;
        }
        macro_rules! int {
            ($t:ty) => {
                Value::Int(i128::from(array.as_primitive::<$t>().value(i)))
            };
        }
        match array.data_type() {
            DataType::Boolean => Value::Bool(array.as_boolean().value(i)),
            DataType::Int8 => int!(Int8Type),
            DataType::Int16 => int!(Int16Type),
            DataType::Int32 => int!(Int32Type),
            DataType::Int64 => int!(Int64Type),
            DataType::UInt8 => int!(UInt8Type),
            DataType::UInt16 => int!(UInt16Type),
            DataType::UInt32 => int!(UInt32Type),
            DataType::UInt64 => int!(UInt64Type),
            DataType::Float32 => {
                Value::Float(f64::from(array.as_primitive::<Float32Type>().value(i)))
            }
            DataType::Float64 => Value::Float(array.as_primitive::<Float64Type>().value(i)),
            DataType::Date32 => int!(Date32Type),
            DataType::Time64(TimeUnit::Microsecond) => int!(Time64MicrosecondType),
            DataType::Utf8 => Value::Bytes(array.as_string::<i32>().value(i).into()),
            DataType::Binary => Value::Bytes(array.as_binary::<i32>().value(i).into()),
            DataType::List(_) => list(array.as_list::<i32>().value(i).as_ref()),
            DataType::Map(_, _) => list(&array.as_map().value(i)),
            DataType::Struct(_) => Value::Struct(
                array
                    .as_struct()
                    .columns()
                    .iter()
                    .map(|c| expected(c.as_ref(), i))
                    .collect(),
            ),
            other => panic!("no expected value of {other}"),
        }
    }

    fn list(values: &dyn Array) -> Value {
        Value::List((0..values.len()).map(|j| expected(values, j)).collect())
    }

    /// `array` written at row `at` of a fake vector of `capacity` rows, and its rows there.
    fn written(array: &dyn Array, at: usize, capacity: usize) -> (Box<Fake>, Vec<Value>) {
        crate::fake::install();
        let mut fake = Fake::new(array.data_type(), capacity);
        // SAFETY: a live fake vector of `capacity` rows, used by this thread alone.
        let v = unsafe { Vector::new(fake.raw(), capacity) };
        v.write(array, at).unwrap();
        let rows = (at..at + array.len()).map(|i| fake.value(i)).collect();
        (fake, rows)
    }

    fn assert_written(array: &dyn Array) {
        for at in [0, 3] {
            let (_, got) = written(array, at, array.len() + 3);
            let want: Vec<Value> = (0..array.len()).map(|i| expected(array, i)).collect();
            assert_eq!(got, want, "{} at row {at}", array.data_type());
        }
    }

    /// Every table of the export, on games with tags, comments, clocks, variations and
    /// errors: each column written as DuckDB gets it, whole and as the slices a chunk takes.
    #[test]
    fn every_table_is_written_value_for_value() {
        const PGN: &[u8] = b"[Event \"x\"]\n[Date \"2024.01.31\"]\n[UTCTime \"23:59:01\"]\n\
            [WhiteElo \"1500\"]\n[TimeControl \"180+2\"]\n[Foo \"bar\"]\n\n\
            1. e4 { [%eval 0.2] [%clk 0:03:00] } e5 $1 (1... c5 2. Nf3) 2. Qh5?! { hi } 1-0\n\n\
            [Event \"?\"]\n[Date \"1851.??.??\"]\n\n1. d4 oh? d5 *\n";
        const SGF: &[u8] = b"(;GM[1]SZ[9]PB[a]BR[3d]RE[W+R]ON[x]XX[1][2];B[aa]C[c];W[]\
            ;B[zz](;W[bb])(;W[cc]))(;GM[1]SZ[5:7]KM[x];B[aa])";
        let opts = TableOptions {
            variations: true,
            ..TableOptions::default()
        };
        for table in Table::ALL {
            let mut b = Builder::new(table, &opts);
            if table.is_sgf() {
                for t in kifu::sgf::game_trees(SGF) {
                    b.push_sgf("f.sgf", &t).unwrap();
                }
            } else {
                for g in kifu::pgn::Games::new(PGN) {
                    b.push_pgn("f.pgn", &g).unwrap();
                }
            }
            let batch: RecordBatch = b.finish();
            assert!(batch.num_rows() > 0, "{table:?}");
            for (field, column) in batch.schema().fields().iter().zip(batch.columns()) {
                supported(field).unwrap();
                assert_written(column.as_ref());
                // a slice past the first row: its lists' children are written from their
                // offsets, only the slice's range
                if column.len() > 1 {
                    assert_written(column.slice(1, column.len() - 1).as_ref());
                }
            }
        }
    }

    #[test]
    fn lists_append_to_the_child_and_nulls_are_marked() {
        let mut lb = ListBuilder::new(Int32Builder::new());
        lb.append_value([Some(1), None, Some(3)]);
        lb.append_null();
        lb.append_value([]);
        lb.append_value([Some(4)]);
        let a = lb.finish();
        crate::fake::install();
        let mut fake = Fake::new(a.data_type(), 8);
        // SAFETY: a live fake vector of 8 rows, this thread's.
        let v = unsafe { Vector::new(fake.raw(), 8) };
        v.write(&a, 0).unwrap();
        // a second slice of rows after the first: appended to the same child
        v.write(&a.slice(3, 1), 4).unwrap();
        let int = |n| Value::Int(n);
        assert_eq!(
            fake.rows(5),
            [
                Value::List(vec![int(1), Value::Null, int(3)]),
                Value::Null,
                Value::List(vec![]),
                Value::List(vec![int(4)]),
                Value::List(vec![int(4)]),
            ]
        );
        assert_eq!(fake.list_child().len(), 5);
    }

    #[test]
    fn a_null_struct_has_null_fields() {
        let fields = Fields::from(vec![Field::new("cp", DataType::Int32, true)]);
        let a = StructArray::new(
            fields,
            vec![Arc::new(arrow_array::Int32Array::from(vec![7, 8])) as ArrayRef],
            Some(vec![true, false].into()),
        );
        let (fake, rows) = written(&a, 0, 2);
        assert_eq!(rows, [Value::Struct(vec![Value::Int(7)]), Value::Null]);
        // DuckDB wants the fields of a NULL struct NULL too
        assert_eq!(fake.child(0).rows(2), [Value::Int(7), Value::Null]);
    }

    #[test]
    fn units_are_duckdbs() {
        // TIME from nanoseconds, DATE from milliseconds (whole days, rounded down), TIMESTAMP
        // from seconds and milliseconds: in DuckDB's microseconds and days
        let ns = Time64NanosecondArray::from(vec![1_500_999, 86_399_000_000_000]);
        let (_, rows) = written(&ns, 0, 2);
        assert_eq!(rows, [Value::Int(1500), Value::Int(86_399_000_000)]);
        let ms = Date64Array::from(vec![86_400_000 * 3 + 5, -1]);
        let (_, rows) = written(&ms, 0, 2);
        assert_eq!(rows, [Value::Int(3), Value::Int(-1)]);
        let s = TimestampSecondArray::from(vec![2]);
        assert_eq!(written(&s, 0, 1).1, [Value::Int(2_000_000)]);
        let ms = TimestampMillisecondArray::from(vec![3]);
        assert_eq!(written(&ms, 0, 1).1, [Value::Int(3000)]);
        // fixed widths as they are
        assert_written(&BooleanArray::from(vec![Some(true), None, Some(false)]));
        assert_written(&Int16Array::from(vec![Some(-3), None, Some(i16::MAX)]));
        assert_written(&UInt8Array::from(vec![0, 255]));
        assert_written(&Int64Array::from(vec![i64::MIN, 0]));
        assert_written(&Float32Array::from(vec![Some(0.5), None]));
        assert_written(&Date32Array::from(vec![-1, 19_000]));
        assert_written(&Time64MicrosecondArray::from(vec![Some(1), None]));
        assert_written(&StringArray::from(vec![Some("é"), None, Some("")]));
        // a dictionary as its values
        let d: DictionaryArray<Int32Type> = vec!["a", "b", "a"].into_iter().collect();
        let (_, rows) = written(&d, 0, 3);
        let s = |t: &str| Value::Bytes(t.into());
        assert_eq!(rows, [s("a"), s("b"), s("a")]);
    }

    #[test]
    fn misfits_are_errors_not_writes() {
        crate::fake::install();
        let a = StringArray::from(vec!["a", "b", "c"]);
        let mut fake = Fake::new(&DataType::Utf8, 4);
        // SAFETY: a live fake vector of 4 rows, this thread's.
        let v = unsafe { Vector::new(fake.raw(), 4) };
        let e = v.write(&a, 2).unwrap_err();
        assert!(e.contains("do not fit"), "{e}");
        let e = v.write(&Int64Array::from(vec![1]), 0).unwrap_err();
        assert!(e.contains("met a DuckDB vector of type id"), "{e}");
        // nothing was written
        assert!((0..4).all(|i| !fake.is_assigned(i)));
        // a type the export never makes is refused when the function binds, by name
        let f = Field::new("price", DataType::Decimal128(10, 2), true);
        let e = supported(&f).unwrap_err();
        assert!(e.contains("column price"), "{e}");
        let f = Field::new("l", DataType::new_list(DataType::Float16, true), true);
        assert!(supported(&f).is_err());
    }

    #[test]
    fn columns_without_an_array_are_null() {
        crate::fake::install();
        let mut a = Fake::new(&DataType::Utf8, 4);
        let mut b = Fake::new(&DataType::Int64, 4);
        let names: Arc<dyn Array> = Arc::new(StringArray::from(vec!["x", "y"]));
        // SAFETY: live fake vectors of 4 rows, this thread's.
        let (va, vb) = unsafe { (Vector::new(a.raw(), 4), Vector::new(b.raw(), 4)) };
        write_columns(&[(va, Some(&names)), (vb, None)], 2).unwrap();
        assert_eq!(
            a.rows(2),
            [Value::Bytes("x".into()), Value::Bytes("y".into())]
        );
        assert_eq!(b.rows(2), [Value::Null, Value::Null]);
    }
}
