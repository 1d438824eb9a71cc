//! Column pieces shared by the tables: list offsets, the string map, the errors column, and the
//! data types they make.

use std::sync::Arc;

use arrow_array::builder::ArrayBuilder;
use arrow_array::builder::{Int32Builder, Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, ListArray, MapArray, StructArray};
use arrow_buffer::{NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, FieldRef, Fields};

use crate::buffers::{Buffers, Kept};

/// `List<item>`, the item field named `item` (Arrow's and Parquet's usual name).
pub(crate) fn list_of(item: DataType, nullable_items: bool) -> DataType {
    DataType::List(Arc::new(Field::new("item", item, nullable_items)))
}

/// The field of `List<item>`'s items.
fn item_field(list: &DataType) -> FieldRef {
    match list {
        DataType::List(f) => f.clone(),
        _ => unreachable!("a list type"),
    }
}

/// The entries of `Map<Utf8, value>`: `entries: Struct<key: Utf8 (not null), value>`.
fn map_entries(value: DataType) -> FieldRef {
    let fields = Fields::from(vec![
        Field::new("key", DataType::Utf8, false),
        Field::new("value", value, true),
    ]);
    Arc::new(Field::new("entries", DataType::Struct(fields), false))
}

/// `Map<Utf8, value>` (keys unique within a row, not sorted).
pub(crate) fn map_of(value: DataType) -> DataType {
    DataType::Map(map_entries(value), false)
}

/// Offsets and validity of a list (or map) column being built.
#[derive(Debug)]
pub(crate) struct Lists {
    offsets: Vec<i32>,
    nulls: NullBufferBuilder,
}

impl Lists {
    pub(crate) fn new() -> Lists {
        Lists {
            offsets: vec![0],
            nulls: NullBufferBuilder::new(0),
        }
    }

    /// Ends a row holding the children up to `child_len` (the children's length now).
    pub(crate) fn close(&mut self, child_len: usize) {
        self.offsets.push(offset(child_len));
        self.nulls.append_non_null();
    }

    /// A null row (no children).
    pub(crate) fn null(&mut self) {
        let last = *self.offsets.last().expect("offsets start with 0");
        self.offsets.push(last);
        self.nulls.append_null();
    }

    fn take(&mut self) -> (OffsetBuffer<i32>, Option<arrow_buffer::NullBuffer>) {
        let offsets = std::mem::replace(&mut self.offsets, vec![0]);
        let nulls = self.nulls.finish();
        (OffsetBuffer::new(ScalarBuffer::from(offsets)), nulls)
    }

    /// The list column of type `ty` over `values`.
    pub(crate) fn finish_list(&mut self, ty: &DataType, values: ArrayRef) -> ArrayRef {
        let (offsets, nulls) = self.take();
        Arc::new(ListArray::new(item_field(ty), offsets, values, nulls))
    }

    /// The map column of type `ty` over these keys and values.
    pub(crate) fn finish_map(
        &mut self,
        ty: &DataType,
        keys: ArrayRef,
        values: ArrayRef,
    ) -> ArrayRef {
        let DataType::Map(entries, _) = ty else {
            unreachable!("a map type")
        };
        let DataType::Struct(fields) = entries.data_type() else {
            unreachable!("map entries are a struct")
        };
        let (offsets, nulls) = self.take();
        let entries_array = StructArray::new(fields.clone(), vec![keys, values], None);
        Arc::new(MapArray::new(
            entries.clone(),
            offsets,
            entries_array,
            nulls,
            false,
        ))
    }
}

/// A column of numbers being built: its values in a `Vec` (a push a row, inlined, where Arrow's
/// builder is a call) and the rows that are null, made into the array Arrow's
/// [`PrimitiveBuilder`](arrow_array::builder::PrimitiveBuilder) makes of the same values: no
/// validity unless a row is null, a null's value 0.
#[derive(Debug)]
pub(crate) struct Nums<T> {
    values: Vec<T>,
    /// The null rows, as runs (the index of the first in `values`, how many), in order: a
    /// game's value missing on its `n` rows is one run.
    nulls: Vec<(usize, usize)>,
}

impl<T: Copy + Default> Nums<T> {
    pub(crate) fn new() -> Nums<T> {
        Nums {
            values: Vec::new(),
            nulls: Vec::new(),
        }
    }

    /// Room for `n` more values (none: nothing done), in a buffer of `pool` when the column
    /// has none yet.
    pub(crate) fn reserve(&mut self, n: usize, pool: &Buffers)
    where
        T: Kept,
    {
        if n > 0 {
            if self.values.capacity() == 0 {
                self.values = pool.vec(n);
            } else {
                self.values.reserve(n);
            }
        }
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, v: T) {
        self.values.push(v);
    }

    #[inline(always)]
    pub(crate) fn push_option(&mut self, v: Option<T>) {
        match v {
            Some(v) => self.values.push(v),
            None => {
                self.null_run(self.values.len(), 1);
                self.values.push(T::default());
            }
        }
    }

    /// Notes the `n` rows from `at` on as null, joined to the run before when it ends there.
    fn null_run(&mut self, at: usize, n: usize) {
        match self.nulls.last_mut() {
            Some((start, len)) if *start + *len == at => *len += n,
            _ => self.nulls.push((at, n)),
        }
    }

    /// `v` `n` times (a game's value on each of its rows).
    pub(crate) fn push_n(&mut self, v: Option<T>, n: usize) {
        let at = self.values.len();
        match v {
            Some(v) => self.values.resize(at + n, v),
            None if n > 0 => {
                self.null_run(at, n);
                self.values.resize(at + n, T::default());
            }
            None => {}
        }
    }

    /// The values pushed, as an array of `A` (whose native type is `T`) whose buffer goes back
    /// to `pool` when the array goes; the column starts again empty, with no buffer (the next
    /// [`reserve`](Self::reserve) takes one).
    pub(crate) fn finish<A>(&mut self, pool: &Buffers) -> ArrayRef
    where
        A: arrow_array::types::ArrowPrimitiveType<Native = T>,
        T: Kept,
    {
        let values = std::mem::take(&mut self.values);
        let nulls = (!self.nulls.is_empty()).then(|| {
            let mut valid = arrow_buffer::BooleanBufferBuilder::new(values.len());
            valid.append_n(values.len(), true);
            for &(start, n) in &self.nulls {
                for k in start..start + n {
                    valid.set_bit(k, false);
                }
            }
            self.nulls.clear();
            arrow_buffer::NullBuffer::new(valid.finish())
        });
        Arc::new(arrow_array::PrimitiveArray::<A>::new(
            pool.buffer(values),
            nulls,
        ))
    }
}

/// The `side_to_move` column of rows whose side to move is `white` (true: White), as a
/// [`StringBuilder`] makes it of `white` and `black`; `white` starts again empty, with room for
/// `rows` values if it held any.
pub(crate) fn sides(white: &mut Vec<bool>, rows: usize) -> ArrayRef {
    let room = if white.is_empty() { 0 } else { rows };
    let white = std::mem::replace(white, Vec::with_capacity(room));
    let mut bytes = vec![0u8; 5 * white.len()];
    for (b, &w) in bytes.chunks_exact_mut(5).zip(&white) {
        b.copy_from_slice(if w { b"white" } else { b"black" });
    }
    let offsets = OffsetBuffer::from_repeated_length(5, white.len());
    Arc::new(arrow_array::StringArray::new(offsets, bytes.into(), None))
}

/// A text column whose values are a few fixed strings and mostly null (an error's code): the
/// rows that have one kept with their row (a null row only counted), the offsets, bytes and
/// validity made at [`finish`](Self::finish) as Arrow's `StringBuilder` makes them of the same
/// values: no validity unless a row is null, a null's text empty.
#[derive(Debug, Default)]
pub(crate) struct Codes {
    rows: usize,
    /// The rows that are not null: (row, text), in order.
    values: Vec<(usize, &'static str)>,
}

impl Codes {
    #[inline(always)]
    pub(crate) fn push(&mut self, v: Option<&'static str>) {
        if let Some(t) = v {
            self.values.push((self.rows, t));
        }
        self.rows += 1;
    }

    /// The rows pushed, as a `Utf8` array; the column starts again empty.
    pub(crate) fn finish(&mut self) -> ArrayRef {
        let n = std::mem::take(&mut self.rows);
        let mut offsets = Vec::with_capacity(n + 1);
        let mut bytes = Vec::new();
        offsets.push(0i32);
        for &(row, t) in &self.values {
            // the null rows before it end where the row before ended
            let end = offset(bytes.len());
            offsets.resize(row + 1, end);
            bytes.extend_from_slice(t.as_bytes());
            offsets.push(offset(bytes.len()));
        }
        let end = offset(bytes.len());
        offsets.resize(n + 1, end);
        let valid = (self.values.len() < n).then(|| {
            let mut valid = arrow_buffer::BooleanBufferBuilder::new(n);
            valid.append_n(n, false);
            for &(row, _) in &self.values {
                valid.set_bit(row, true);
            }
            arrow_buffer::NullBuffer::new(valid.finish())
        });
        self.values.clear();
        // the offsets rise from 0 over the bytes of whole strings: valid by construction
        Arc::new(arrow_array::StringArray::new(
            OffsetBuffer::new(ScalarBuffer::from(offsets)),
            bytes.into(),
            valid,
        ))
    }
}

/// An offset of a list or string column. A batch holds at most `i32::MAX` children per
/// column: the builders' users finish batches long before (see `Builder::estimated_bytes`).
fn offset(n: usize) -> i32 {
    i32::try_from(n).expect("fewer than 2^31 list items in one batch: finish batches sooner")
}

/// A `Map<Utf8, Utf8>` column: one map per row, keys unique (the values of a key met again
/// in the same row are joined to its first, after a line break).
#[derive(Debug)]
pub(crate) struct StrMap {
    lists: Lists,
    keys: StringBuilder,
    values: StringBuilder,
}

impl StrMap {
    pub(crate) fn new() -> StrMap {
        StrMap {
            lists: Lists::new(),
            keys: StringBuilder::with_capacity(0, 0),
            values: StringBuilder::with_capacity(0, 0),
        }
    }

    pub(crate) fn data_type() -> DataType {
        map_of(DataType::Utf8)
    }

    /// Adds a row holding the `n` entries `entry(0)`, `entry(1)`, … in this order (an empty
    /// map when `n` is 0); the values of a repeated key are joined to its first.
    pub(crate) fn push_row_by<'e>(
        &mut self,
        n: usize,
        entry: impl Fn(usize) -> (&'e str, &'e str),
    ) {
        for k in 0..n {
            let (key, value) = entry(k);
            if (0..k).any(|e| entry(e).0 == key) {
                continue; // joined to its first
            }
            self.keys.append_value(key);
            let mut more = (k + 1..n).map(&entry).filter(|(e, _)| *e == key).peekable();
            if more.peek().is_none() {
                self.values.append_value(value);
            } else {
                let mut v = value.to_owned();
                for (_, m) in more {
                    v.push('\n');
                    v.push_str(m);
                }
                self.values.append_value(v);
            }
        }
        self.lists.close(self.keys.len());
    }

    pub(crate) fn finish(&mut self) -> ArrayRef {
        let keys = Arc::new(self.keys.finish());
        let values = Arc::new(self.values.finish());
        self.lists.finish_map(&Self::data_type(), keys, values)
    }
}

/// The struct fields of an error of the PGN tables: `kifu json`'s, but where its name is a
/// reserved word of SQL (`offset`, `column`): `byte_offset` (as the key column), `line`, `col`.
pub(crate) fn pgn_error_fields() -> Fields {
    Fields::from(vec![
        Field::new("kind", DataType::Utf8, false),
        Field::new("severity", DataType::Utf8, false),
        Field::new("message", DataType::Utf8, false),
        Field::new("text", DataType::Utf8, false),
        Field::new("byte_offset", DataType::Int64, false),
        Field::new("line", DataType::Int64, false),
        Field::new("col", DataType::Int32, false),
        Field::new("move", DataType::Utf8, true),
    ])
}

/// The struct fields of an error of the SGF tables, named as those of the PGN tables
/// ([`pgn_error_fields`]), SGFC's `code` after the `kind` word.
pub(crate) fn sgf_error_fields() -> Fields {
    Fields::from(vec![
        Field::new("kind", DataType::Utf8, false),
        Field::new("code", DataType::Utf8, false),
        Field::new("severity", DataType::Utf8, false),
        Field::new("message", DataType::Utf8, false),
        Field::new("text", DataType::Utf8, false),
        Field::new("byte_offset", DataType::Int64, false),
        Field::new("line", DataType::Int64, false),
        Field::new("col", DataType::Int32, false),
        Field::new("node", DataType::Int64, true),
        Field::new("depth", DataType::Int64, true),
    ])
}

/// One problem as the errors column takes it.
pub(crate) struct ErrorRow<'a> {
    /// The kind, a word (`unexpected_text`, `illegal_point`).
    pub(crate) kind: &'a str,
    /// SGF: SGFC's code (`E14`); unused for PGN.
    pub(crate) code: Option<&'a str>,
    pub(crate) severity: &'a str,
    pub(crate) message: &'a str,
    pub(crate) text: &'a str,
    pub(crate) pos: kifu::Position,
    /// PGN: the move (`14b`); unused for SGF.
    pub(crate) at_move: Option<&'a str>,
    /// SGF: node and depth; unused for PGN.
    pub(crate) at_node: Option<(u32, u32)>,
}

/// The `errors` column (a list of structs, never null) and `error_count`.
#[derive(Debug)]
pub(crate) struct Errors {
    sgf: bool,
    lists: Lists,
    kind: StringBuilder,
    code: StringBuilder,
    severity: StringBuilder,
    message: StringBuilder,
    text: StringBuilder,
    offset: Int64Builder,
    line: Int64Builder,
    column: Int32Builder,
    at_move: StringBuilder,
    node: Int64Builder,
    depth: Int64Builder,
    count: Int32Builder,
}

impl Errors {
    pub(crate) fn new(sgf: bool) -> Errors {
        Errors {
            sgf,
            lists: Lists::new(),
            kind: StringBuilder::with_capacity(0, 0),
            code: StringBuilder::with_capacity(0, 0),
            severity: StringBuilder::with_capacity(0, 0),
            message: StringBuilder::with_capacity(0, 0),
            text: StringBuilder::with_capacity(0, 0),
            offset: Int64Builder::with_capacity(0),
            line: Int64Builder::with_capacity(0),
            column: Int32Builder::with_capacity(0),
            at_move: StringBuilder::with_capacity(0, 0),
            node: Int64Builder::with_capacity(0),
            depth: Int64Builder::with_capacity(0),
            count: Int32Builder::with_capacity(0),
        }
    }

    /// `error_count` and `errors`.
    pub(crate) fn fields(sgf: bool) -> [Field; 2] {
        let st = if sgf {
            sgf_error_fields()
        } else {
            pgn_error_fields()
        };
        [
            Field::new("error_count", DataType::Int32, false),
            Field::new("errors", list_of(DataType::Struct(st), false), false),
        ]
    }

    pub(crate) fn push(&mut self, e: ErrorRow<'_>) {
        self.kind.append_value(e.kind);
        if self.sgf {
            self.code.append_value(e.code.unwrap_or_default());
        }
        self.severity.append_value(e.severity);
        self.message.append_value(e.message);
        self.text.append_value(e.text);
        self.offset.append_value(clamp_i64(e.pos.offset));
        self.line.append_value(clamp_i64(e.pos.line));
        self.column
            .append_value(i32::try_from(e.pos.column).unwrap_or(i32::MAX));
        if self.sgf {
            let (node, depth) = e.at_node.unzip();
            self.node.append_option(node.map(i64::from));
            self.depth.append_option(depth.map(i64::from));
        } else {
            self.at_move.append_option(e.at_move);
        }
    }

    /// Ends a row: `count` problems in all (those kept plus those the DOM's limit dropped).
    pub(crate) fn end_row(&mut self, count: u64) {
        self.count
            .append_value(i32::try_from(count).unwrap_or(i32::MAX));
        self.lists.close(self.kind.len());
    }

    /// `[error_count, errors]`.
    pub(crate) fn finish(&mut self) -> [ArrayRef; 2] {
        let [_, errors_field] = Self::fields(self.sgf);
        let DataType::List(item) = errors_field.data_type() else {
            unreachable!()
        };
        let DataType::Struct(fields) = item.data_type() else {
            unreachable!()
        };
        let mut arrays: Vec<ArrayRef> = vec![Arc::new(self.kind.finish())];
        if self.sgf {
            arrays.push(Arc::new(self.code.finish()));
        }
        arrays.extend([
            Arc::new(self.severity.finish()) as ArrayRef,
            Arc::new(self.message.finish()),
            Arc::new(self.text.finish()),
            Arc::new(self.offset.finish()),
            Arc::new(self.line.finish()),
            Arc::new(self.column.finish()),
        ]);
        if self.sgf {
            arrays.push(Arc::new(self.node.finish()));
            arrays.push(Arc::new(self.depth.finish()));
        } else {
            arrays.push(Arc::new(self.at_move.finish()));
        }
        let st = Arc::new(StructArray::new(fields.clone(), arrays, None));
        [
            Arc::new(self.count.finish()),
            self.lists.finish_list(errors_field.data_type(), st),
        ]
    }
}

/// A `u64` count or offset as Arrow's `Int64` (the signed type every engine reads; Spark has no
/// unsigned integers). Values beyond `i64::MAX` (never met: 8 EiB) are clamped.
pub(crate) fn clamp_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Key columns of every table: `file` (Utf8), `game_index` and `byte_offset` (Int64; not
/// `index` and `offset`, which clash with pandas' `DataFrame.index` and a reserved word of
/// DuckDB's SQL).
pub(crate) fn key_fields() -> [Field; 3] {
    [
        Field::new("file", DataType::Utf8, false),
        Field::new("game_index", DataType::Int64, false),
        Field::new("byte_offset", DataType::Int64, false),
    ]
}

#[cfg(test)]
mod tests {
    use arrow_array::Array;
    use arrow_array::builder::Int16Builder;
    use arrow_array::cast::AsArray;
    use arrow_array::types::Int16Type;

    use super::*;

    /// `Codes` and `sides` make the arrays a `StringBuilder` makes of the same texts: nulls
    /// (none, some, all) with empty texts, the offsets, batch after batch.
    #[test]
    fn codes_and_sides_make_the_builders_arrays() {
        let batches: [&[Option<&'static str>]; 6] = [
            &[None, Some("ko_violation"), None, None, Some("suicide")],
            &[Some("a"), Some("bc")],
            &[],
            &[None; 3],
            &[Some("out_of_board"), None],
            &[None; 70],
        ];
        let mut codes = Codes::default();
        let mut builder = StringBuilder::new();
        for rows in batches {
            for &v in rows {
                codes.push(v);
                builder.append_option(v);
            }
            let (a, b) = (codes.finish(), builder.finish());
            assert_eq!(a.to_data(), b.to_data(), "{rows:?}");
            assert_eq!(a.nulls(), b.nulls(), "{rows:?}");
            // the buffers themselves (`ArrayData`'s equality is logical: it would not see an
            // offset under a null row)
            let a = a.as_string::<i32>();
            assert_eq!(a.offsets(), b.offsets(), "{rows:?}");
            assert_eq!(a.values(), b.values(), "{rows:?}");
        }
        let mut white = vec![true, false, false, true];
        for w in &white {
            builder.append_value(if *w { "white" } else { "black" });
        }
        let (a, b) = (sides(&mut white, 8), builder.finish());
        assert_eq!(a.to_data(), b.to_data());
        let a = a.as_string::<i32>();
        assert_eq!((a.offsets(), a.values()), (b.offsets(), b.values()));
        assert!(white.is_empty() && white.capacity() >= 8);
        assert_eq!(sides(&mut white, 8).len(), 0);
    }

    /// `Nums` makes the array Arrow's builder makes of the same values: the same values under
    /// the nulls, a validity only when a row is null, batch after batch.
    #[test]
    fn nums_make_the_builders_array() {
        let batches: [&[Option<i16>]; 5] = [
            &[Some(1), None, Some(-3), None],
            &[Some(7), Some(8)],
            &[],
            &[None],
            &[Some(0); 70],
        ];
        let mut nums = Nums::new();
        let mut builder = Int16Builder::new();
        let pool = Buffers::default();
        for rows in batches {
            for &v in rows {
                nums.push_option(v);
                builder.append_option(v);
            }
            let (a, b) = (nums.finish::<Int16Type>(&pool), builder.finish());
            assert_eq!(a.to_data(), b.to_data());
            assert_eq!(a.nulls(), b.nulls());
            assert_eq!(a.as_primitive::<Int16Type>().values(), b.values());
        }
        // at a batch of 70 values, the bits of a null past the first 64
        let mut rows = vec![Some(5i16); 70];
        rows[66] = None;
        for &v in &rows {
            nums.push_option(v);
            builder.append_option(v);
        }
        assert_eq!(
            nums.finish::<Int16Type>(&pool).to_data(),
            builder.finish().to_data()
        );
        // a game's value on its n rows, null runs joined to single nulls next to them
        let games: [(Option<i16>, usize); 7] = [
            (None, 3),
            (None, 1),
            (Some(4), 2),
            (None, 0),
            (Some(9), 1),
            (None, 70),
            (Some(1), 1),
        ];
        for (v, n) in games {
            nums.push_n(v, n);
            match v {
                Some(v) => builder.append_value_n(v, n),
                None => builder.append_nulls(n),
            }
            nums.push_option(None);
            builder.append_null();
        }
        assert_eq!(
            nums.finish::<Int16Type>(&pool).to_data(),
            builder.finish().to_data()
        );
    }
}
