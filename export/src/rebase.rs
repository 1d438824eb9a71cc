//! Shifting a batch built from a piece of a larger input to the numbers of the whole input.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{Array, ArrayRef, Int64Array, ListArray, RecordBatch, StructArray};
use arrow_schema::{ArrowError, DataType};

/// What to add to a batch's numbers: the games, bytes and line breaks that came before its
/// piece in the whole input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shift {
    /// Added to the `index` column (the game key of every table).
    pub index: u64,
    /// Added to the `byte_offset` column and to each error's `byte_offset`.
    pub offset: u64,
    /// Added to each error's `line` (a piece that starts at the start of a line keeps its
    /// columns right; columns on a piece's first line are not shifted).
    pub line: u64,
}

fn add(col: &ArrayRef, delta: u64) -> Result<ArrayRef, ArrowError> {
    if delta == 0 {
        return Ok(col.clone());
    }
    let d = i64::try_from(delta).unwrap_or(i64::MAX);
    let a = col
        .as_primitive_opt::<Int64Type>()
        .ok_or_else(|| ArrowError::SchemaError("an Int64 column".into()))?;
    let shifted: Int64Array = a.unary(|v| v.saturating_add(d));
    Ok(Arc::new(shifted))
}

fn shift_errors(col: &ArrayRef, shift: Shift) -> Result<ArrayRef, ArrowError> {
    if shift.offset == 0 && shift.line == 0 {
        return Ok(col.clone());
    }
    let list = col
        .as_list_opt::<i32>()
        .ok_or_else(|| ArrowError::SchemaError("errors: a list column".into()))?;
    let st = list.values().as_struct();
    let (fields, columns, nulls) = st.clone().into_parts();
    let columns = fields
        .iter()
        .zip(columns)
        .map(|(f, c)| match f.name().as_str() {
            "byte_offset" => add(&c, shift.offset),
            "line" => add(&c, shift.line),
            _ => Ok(c),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let values = StructArray::try_new(fields, columns, nulls)?;
    let DataType::List(item) = list.data_type() else {
        unreachable!("a list")
    };
    Ok(Arc::new(ListArray::try_new(
        item.clone(),
        list.offsets().clone(),
        Arc::new(values),
        list.nulls().cloned(),
    )?))
}

/// `batch` with `shift` added to its `game_index` and `byte_offset` columns and to the
/// `byte_offset` and `line` of each of its errors: a batch built from a piece of an input (its
/// first game numbered 0, its offsets and lines counted from the piece's start) numbered as in
/// the whole input. Only the changed columns are copied.
///
/// The `json` tables' `index` and `offset` columns are shifted, not the positions inside the
/// JSON text: parse such pieces with their real positions.
///
/// ```
/// use kifu_export::{rebase, Builder, Shift, Table, TableOptions};
/// use arrow_array::{cast::AsArray, types::Int64Type};
///
/// let mut b = Builder::new(Table::PgnGames, &TableOptions::default());
/// for game in kifu::pgn::Games::new(b"1. e4 *\n\n1. d4 *") {
///     b.push_pgn("piece", &game).unwrap();
/// }
/// let shifted = rebase(&b.finish(), Shift { index: 10, offset: 1000, line: 0 }).unwrap();
/// let index = shifted.column_by_name("game_index").unwrap().as_primitive::<Int64Type>();
/// assert_eq!(index.values().to_vec(), [10, 11]);
/// let offset = shifted.column_by_name("byte_offset").unwrap().as_primitive::<Int64Type>();
/// assert_eq!(offset.values().to_vec(), [1000, 1009]);
/// ```
///
/// # Errors
///
/// If a column named `game_index`, `byte_offset` or `errors` does not have the type the tables give it.
pub fn rebase(batch: &RecordBatch, shift: Shift) -> Result<RecordBatch, ArrowError> {
    let schema = batch.schema();
    let columns = schema
        .fields()
        .iter()
        .zip(batch.columns())
        .map(|(f, c)| match f.name().as_str() {
            "game_index" => add(c, shift.index),
            "byte_offset" => add(c, shift.offset),
            "errors" => shift_errors(c, shift),
            _ => Ok(c.clone()),
        })
        .collect::<Result<Vec<_>, _>>()?;
    RecordBatch::try_new(schema, columns)
}
