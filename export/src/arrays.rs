//! The values the array formats give what a table holds as text or null: one home for
//! `kifu export --to npz|npy` and the Python package's `kifu.positions`, so that the two write
//! the same numbers (`docs/export.md` § Arrays describes them for the user).
//!
//! - A null number becomes a value no row holds ([`null_fill`]): `-1` in the signed columns
//!   whose values are never negative ([`NULL_AS_MINUS_ONE`]), the type's smallest value in
//!   another signed column, the largest in an unsigned one, NaN in floats, NaT in dates and
//!   times, `false` in booleans.
//! - The chess `side_to_move` (`white` / `black`) becomes `uint8` ([`side_to_move_code`]):
//!   0 White, 1 Black, 255 for null or anything else.
//! - Text becomes fixed-width bytes (`S{w}`), `w` the longest value of the file but at most
//!   [`TEXT_WIDTH`] bytes by default
//!   ([`SinkOptions::array_text_bytes`](crate::SinkOptions::array_text_bytes)): a longer value
//!   is cut (at a UTF-8 character's boundary) and counted
//!   ([`Summary::truncated`](crate::Summary::truncated)).

use arrow_schema::DataType;

/// The signed integer columns whose values are never negative where present: a null is `-1`
/// there (elsewhere, the type's smallest value).
pub const NULL_AS_MINUS_ONE: [&str; 9] = [
    "policy",
    "ep_square",
    "x",
    "y",
    "ko_point",
    "WhiteElo",
    "BlackElo",
    "HA",
    "handicap_stones",
];

/// The default most bytes of a text value in an array (`S{w}`, `w` at most this): the width of
/// a text column is that of its longest value, so that one long value (a 100 KB SGF comment in
/// `RE[]`) would otherwise widen every row of the file to its size.
pub const TEXT_WIDTH: usize = 256;

/// What a null becomes in an array of numbers ([`null_fill`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NullFill {
    /// A signed integer: `-1` or the type's smallest value.
    Int(i64),
    /// An unsigned integer: the type's largest value.
    UInt(u64),
    /// A float: NaN.
    NaN,
    /// A date or time (`datetime64`, `timedelta64`): NaT, the smallest `int64`.
    NaT,
    /// A boolean: `false`.
    False,
}

/// What a null of column `name`, of Arrow type `t`, becomes in an array: see the module's
/// documentation. `None` for a type that is not a number, a boolean, a date or a time of day
/// (text is empty bytes, bitboards and boards zeros).
///
/// ```
/// use arrow_schema::DataType;
/// use kifu_export::arrays::{NullFill, null_fill};
/// assert_eq!(null_fill("policy", &DataType::Int16), Some(NullFill::Int(-1)));
/// assert_eq!(null_fill("score", &DataType::Int8), Some(NullFill::Int(-128)));
/// assert_eq!(null_fill("captures", &DataType::UInt32), Some(NullFill::UInt(u64::from(u32::MAX))));
/// assert_eq!(null_fill("clock", &DataType::Float64), Some(NullFill::NaN));
/// assert_eq!(null_fill("epd", &DataType::Utf8), None);
/// ```
pub fn null_fill(name: &str, t: &DataType) -> Option<NullFill> {
    let signed = |min: i64| {
        Some(NullFill::Int(if NULL_AS_MINUS_ONE.contains(&name) {
            -1
        } else {
            min
        }))
    };
    match t {
        DataType::Int8 => signed(i64::from(i8::MIN)),
        DataType::Int16 => signed(i64::from(i16::MIN)),
        DataType::Int32 => signed(i64::from(i32::MIN)),
        DataType::Int64 => signed(i64::MIN),
        DataType::UInt8 => Some(NullFill::UInt(u64::from(u8::MAX))),
        DataType::UInt16 => Some(NullFill::UInt(u64::from(u16::MAX))),
        DataType::UInt32 => Some(NullFill::UInt(u64::from(u32::MAX))),
        DataType::UInt64 => Some(NullFill::UInt(u64::MAX)),
        DataType::Float16 | DataType::Float32 | DataType::Float64 => Some(NullFill::NaN),
        DataType::Date32 | DataType::Date64 | DataType::Time32(_) | DataType::Time64(_) => {
            Some(NullFill::NaT)
        }
        DataType::Boolean => Some(NullFill::False),
        _ => None,
    }
}

/// The chess `side_to_move` as an array holds it (`uint8`): `white` (or `w`) 0, `black` (or
/// `b`) 1, null or anything else 255.
///
/// ```
/// use kifu_export::arrays::side_to_move_code;
/// assert_eq!(side_to_move_code(Some("white")), 0);
/// assert_eq!(side_to_move_code(Some("black")), 1);
/// assert_eq!(side_to_move_code(None), 255);
/// ```
pub fn side_to_move_code(side: Option<&str>) -> u8 {
    side.map_or(u8::MAX, |s| side_code(s.as_bytes()))
}

/// [`side_to_move_code`] of a value's bytes.
pub(crate) fn side_code(side: &[u8]) -> u8 {
    match side {
        b"white" | b"w" => 0,
        b"black" | b"b" => 1,
        _ => u8::MAX,
    }
}

/// The longest start of `v` of at most `max` bytes that ends at a UTF-8 character's boundary
/// (`v` itself when it is no longer).
pub(crate) fn cut_utf8(v: &str, max: usize) -> &str {
    if v.len() <= max {
        return v;
    }
    let mut end = max;
    while !v.is_char_boundary(end) {
        end -= 1;
    }
    &v[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_at_a_character() {
        assert_eq!(cut_utf8("abc", 5), "abc");
        assert_eq!(cut_utf8("abc", 2), "ab");
        // é is two bytes: a cut inside it keeps the byte before
        assert_eq!(cut_utf8("aé", 2), "a");
        assert_eq!(cut_utf8("aé", 3), "aé");
        assert_eq!(cut_utf8("日本", 4), "日");
    }

    #[test]
    fn fills() {
        assert_eq!(null_fill("x", &DataType::Int8), Some(NullFill::Int(-1)));
        assert_eq!(
            null_fill("eval_cp", &DataType::Int32),
            Some(NullFill::Int(i64::from(i32::MIN)))
        );
        assert_eq!(null_fill("d", &DataType::Date32), Some(NullFill::NaT));
        assert_eq!(null_fill("b", &DataType::Boolean), Some(NullFill::False));
        assert_eq!(side_to_move_code(Some("w")), 0);
        assert_eq!(side_to_move_code(Some("red")), 255);
    }
}
