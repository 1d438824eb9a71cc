//! Arrow values as text: JSON for JSON Lines and for the nested cells of CSV, plain text for
//! CSV's scalar cells.
//!
//! The recursion here follows the schema's type nesting (at most three levels in these tables),
//! never the input's.

use std::io::Write as _;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type,
    Time64MicrosecondType, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef};
use arrow_schema::{DataType, TimeUnit};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use crate::values::{date_text, time_text};

/// Whether a column's cells are JSON text in CSV (lists, maps, structs).
pub(crate) fn is_nested(ty: &DataType) -> bool {
    matches!(
        ty,
        DataType::List(_) | DataType::Map(_, _) | DataType::Struct(_)
    )
}

fn json_str(out: &mut Vec<u8>, s: &str) {
    serde_json::to_writer(&mut *out, s).expect("writing to a Vec cannot fail");
}

/// Appends the bytes of a binary value (the SGF `positions` table's `board`) as base64 (the
/// standard alphabet, padded: Python's `base64.b64decode`, DuckDB's `from_base64`).
fn base64_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    let start = out.len();
    out.resize(
        start + base64::encoded_len(bytes.len(), true).expect("a cell's size"),
        0,
    );
    let n = STANDARD
        .encode_slice(bytes, &mut out[start..])
        .expect("room for the encoded bytes");
    out.truncate(start + n);
}

/// The bytes of a binary column's row `i` (`None`: not a binary column).
fn binary_at(array: &dyn Array, i: usize) -> Option<&[u8]> {
    match array.data_type() {
        DataType::Binary => Some(array.as_binary::<i32>().value(i)),
        DataType::LargeBinary => Some(array.as_binary::<i64>().value(i)),
        _ => None,
    }
}

fn json_f64(out: &mut Vec<u8>, x: f64) {
    if x.is_finite() {
        // `{}` prints the shortest text that reads back as the same number
        write!(out, "{x}").expect("writing to a Vec cannot fail");
    } else {
        out.extend_from_slice(b"null");
    }
}

/// Appends the JSON text of `array[i]` to `out`.
///
/// Dates are `"YYYY-MM-DD"`, times `"HH:MM:SS"`, bytes a base64 string, maps objects, structs
/// objects, lists arrays, null `null`.
pub(crate) fn json_value(out: &mut Vec<u8>, array: &dyn Array, i: usize) {
    if array.is_null(i) {
        out.extend_from_slice(b"null");
        return;
    }
    match array.data_type() {
        DataType::Utf8 => json_str(out, array.as_string::<i32>().value(i)),
        DataType::LargeUtf8 => json_str(out, array.as_string::<i64>().value(i)),
        DataType::Binary | DataType::LargeBinary => {
            // the base64 alphabet needs no escape in a JSON string
            out.push(b'"');
            base64_bytes(out, binary_at(array, i).expect("a binary column"));
            out.push(b'"');
        }
        DataType::Boolean => {
            let b = array.as_boolean().value(i);
            out.extend_from_slice(if b { b"true" } else { b"false" });
        }
        DataType::Int8 => write_num(out, array.as_primitive::<Int8Type>().value(i)),
        DataType::UInt8 => write_num(out, array.as_primitive::<UInt8Type>().value(i)),
        DataType::Int16 => write_num(out, array.as_primitive::<Int16Type>().value(i)),
        DataType::Int32 => write_num(out, array.as_primitive::<Int32Type>().value(i)),
        DataType::Int64 => write_num(out, array.as_primitive::<Int64Type>().value(i)),
        DataType::UInt16 => write_num(out, array.as_primitive::<UInt16Type>().value(i)),
        DataType::UInt32 => write_num(out, array.as_primitive::<UInt32Type>().value(i)),
        DataType::UInt64 => write_num(out, array.as_primitive::<UInt64Type>().value(i)),
        DataType::Float32 => json_f64(out, f64::from(array.as_primitive::<Float32Type>().value(i))),
        DataType::Float64 => json_f64(out, array.as_primitive::<Float64Type>().value(i)),
        DataType::Date32 => {
            json_str(out, &date_text(array.as_primitive::<Date32Type>().value(i)));
        }
        DataType::Time64(TimeUnit::Microsecond) => {
            let t = array.as_primitive::<Time64MicrosecondType>().value(i);
            json_str(out, &time_text(t));
        }
        DataType::List(_) => {
            let list = array.as_list::<i32>();
            json_list(out, &list.value(i));
        }
        DataType::Map(_, _) => {
            let map = array.as_map();
            let entries = map.value(i);
            let (keys, values) = (entries.column(0), entries.column(1));
            out.push(b'{');
            for k in 0..entries.len() {
                if k > 0 {
                    out.push(b',');
                }
                json_str(out, keys.as_string::<i32>().value(k));
                out.push(b':');
                json_value(out, values.as_ref(), k);
            }
            out.push(b'}');
        }
        DataType::Struct(fields) => {
            let st = array.as_struct();
            out.push(b'{');
            for (k, f) in fields.iter().enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                json_str(out, f.name());
                out.push(b':');
                json_value(out, st.column(k).as_ref(), i);
            }
            out.push(b'}');
        }
        other => {
            // not a type of these tables; written as its debug text rather than lost
            json_str(out, &format!("{other}"));
        }
    }
}

fn json_list(out: &mut Vec<u8>, items: &ArrayRef) {
    out.push(b'[');
    for k in 0..items.len() {
        if k > 0 {
            out.push(b',');
        }
        json_value(out, items.as_ref(), k);
    }
    out.push(b']');
}

fn write_num<T: std::fmt::Display>(out: &mut Vec<u8>, n: T) {
    write!(out, "{n}").expect("writing to a Vec cannot fail");
}

/// Appends the CSV text of `array[i]` to `out` (nothing for null): a scalar as plain text
/// (bytes as base64), a nested value as JSON.
pub(crate) fn csv_value(out: &mut Vec<u8>, array: &dyn Array, i: usize) {
    if array.is_null(i) {
        return;
    }
    match array.data_type() {
        DataType::Utf8 => out.extend_from_slice(array.as_string::<i32>().value(i).as_bytes()),
        DataType::LargeUtf8 => out.extend_from_slice(array.as_string::<i64>().value(i).as_bytes()),
        DataType::Binary | DataType::LargeBinary => {
            base64_bytes(out, binary_at(array, i).expect("a binary column"));
        }
        DataType::Date32 => {
            out.extend_from_slice(
                date_text(array.as_primitive::<Date32Type>().value(i)).as_bytes(),
            );
        }
        DataType::Time64(TimeUnit::Microsecond) => {
            let t = array.as_primitive::<Time64MicrosecondType>().value(i);
            out.extend_from_slice(time_text(t).as_bytes());
        }
        _ => json_value(out, array, i),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Builder, Table, TableOptions};

    fn cells(pgn: &[u8], column: &str) -> (String, String) {
        let mut b = Builder::new(Table::PgnGames, &TableOptions::default());
        for g in kifu::pgn::Games::new(pgn) {
            b.push_pgn("f", &g).unwrap();
        }
        let batch = b.finish();
        let col = batch.column_by_name(column).unwrap();
        let (mut j, mut c) = (Vec::new(), Vec::new());
        json_value(&mut j, col.as_ref(), 0);
        csv_value(&mut c, col.as_ref(), 0);
        (String::from_utf8(j).unwrap(), String::from_utf8(c).unwrap())
    }

    #[test]
    fn scalars_and_nested() {
        let pgn = b"[UTCDate \"2024.01.31\"]\n[UTCTime \"01:02:03\"]\n[WhiteElo \"?\"]\n\
            [Event \"say \\\"hi\\\"\"]\n\n1. e4 {[%clk 0:01:00.5] [%eval #-3]} e5 $1 *";
        assert_eq!(
            cells(pgn, "UTCDate"),
            ("\"2024-01-31\"".into(), "2024-01-31".into())
        );
        assert_eq!(
            cells(pgn, "UTCTime"),
            ("\"01:02:03\"".into(), "01:02:03".into())
        );
        assert_eq!(cells(pgn, "WhiteElo"), ("null".into(), String::new()));
        assert_eq!(
            cells(pgn, "Event"),
            (r#""say \"hi\"""#.into(), r#"say "hi""#.into())
        );
        assert_eq!(cells(pgn, "tags").1, r#"{"WhiteElo":"?"}"#);
        assert_eq!(cells(pgn, "moves").1, r#"["e4","e5"]"#);
        assert_eq!(cells(pgn, "clocks").1, "[60.5,null]");
        assert_eq!(cells(pgn, "evals").1, r#"[{"cp":null,"mate":-3},null]"#);
        assert_eq!(cells(pgn, "plies").1, "2");
        assert_eq!(cells(pgn, "errors").1, "[]");
    }

    #[test]
    fn bytes_as_base64() {
        let a = arrow_array::BinaryArray::from_opt_vec(vec![Some(&[0u8, 1, 2, 255][..]), None]);
        let (mut j, mut c) = (Vec::new(), Vec::new());
        json_value(&mut j, &a, 0);
        csv_value(&mut c, &a, 0);
        assert_eq!(j, b"\"AAEC/w==\"");
        assert_eq!(c, b"AAEC/w==");
        let (mut j, mut c) = (Vec::new(), Vec::new());
        json_value(&mut j, &a, 1);
        csv_value(&mut c, &a, 1);
        assert_eq!((&j[..], &c[..]), (&b"null"[..], &b""[..]));
        let large = arrow_array::LargeBinaryArray::from_vec(vec![&[][..]]);
        let mut j = Vec::new();
        json_value(&mut j, &large, 0);
        assert_eq!(j, b"\"\"");
    }
}
