//! Property values as written, borrowed from the input, and their decoders.
//!
//! A value reaches the visitor raw: the bytes between `[` and `]`, escapes unresolved. Each
//! `FF[4]` value type has a decoder here; the text decoders borrow (allocate nothing) when the
//! value holds nothing to change.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

/// A board size: columns and rows (`SZ[19]` is 19×19, `SZ[19:13]` 19 columns by 13 rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardSize {
    /// Columns, 1–52.
    pub cols: u8,
    /// Rows, 1–52.
    pub rows: u8,
}

impl Default for BoardSize {
    /// 19×19, Go's default.
    fn default() -> Self {
        BoardSize { cols: 19, rows: 19 }
    }
}

impl BoardSize {
    /// Whether `tt` is a pass on this board (boards up to 19×19).
    pub fn tt_is_pass(self) -> bool {
        self.cols <= 19 && self.rows <= 19
    }
}

/// A point on a Go board: column and row, 0-based from the upper left (`aa` is (0, 0), `sa`
/// is (18, 0)). Letters `a`–`z` are 0–25, `A`–`Z` 26–51.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// Column, 0-based from the left.
    pub x: u8,
    /// Row, 0-based from the top.
    pub y: u8,
}

impl Point {
    #[inline]
    fn coord(b: u8) -> Option<u8> {
        match b {
            b'a'..=b'z' => Some(b - b'a'),
            b'A'..=b'Z' => Some(b - b'A' + 26),
            _ => None,
        }
    }

    /// Reads a two-letter point that lies on a board of size `size`.
    ///
    /// ```
    /// use kifu::sgf::{BoardSize, Point};
    /// assert_eq!(Point::parse(b"pd", BoardSize::default()), Some(Point { x: 15, y: 3 }));
    /// assert_eq!(Point::parse(b"tt", BoardSize::default()), None); // off a 19x19 board
    /// assert_eq!(Point::parse(b"A", BoardSize::default()), None);
    /// ```
    #[inline]
    pub fn parse(s: &[u8], size: BoardSize) -> Option<Point> {
        match *s {
            [a, b] => {
                let (x, y) = (Point::coord(a)?, Point::coord(b)?);
                (x < size.cols && y < size.rows).then_some(Point { x, y })
            }
            _ => None,
        }
    }

    /// The point as SGF writes it (`pd`).
    pub fn to_sgf(self) -> [u8; 2] {
        let l = |c: u8| if c < 26 { b'a' + c } else { b'A' + c - 26 };
        [l(self.x), l(self.y)]
    }
}

impl core::fmt::Display for Point {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let [a, b] = self.to_sgf();
        write!(f, "{}{}", a as char, b as char)
    }
}

/// A player's colour (the Color value type, `B` or `W`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Black.
    Black,
    /// White.
    White,
}

/// The Double value type: `1` normal, `2` emphasized (`GB[2]`: very good for Black).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Double {
    /// `1`.
    Normal,
    /// `2`.
    Emphasized,
}

/// A property value (or one piece of a long one) as written between `[` and `]`, escapes
/// unresolved.
///
/// ```
/// use kifu::sgf::RawValue;
/// let v = RawValue(br"Meijin: yeah, k4 is won\
/// derful [me\] k4?");
/// assert_eq!(v.text().as_ref(), b"Meijin: yeah, k4 is wonderful [me] k4?");
/// assert!(matches!(RawValue(b"plain").text(), std::borrow::Cow::Borrowed(_)));
/// assert_eq!(RawValue(b"5.5").real(), Some(5.5));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RawValue<'a>(pub &'a [u8]);

fn trim(s: &[u8]) -> &[u8] {
    let ws = |b: &u8| matches!(*b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c);
    let start = s.iter().position(|b| !ws(b)).unwrap_or(s.len());
    let end = s.iter().rposition(|b| !ws(b)).map_or(start, |e| e + 1);
    &s[start..end]
}

/// The number of bytes of the line break starting at `s[i]` (`\r\n` and `\n\r` count as one).
fn line_break(s: &[u8], i: usize) -> usize {
    match (s[i], s.get(i + 1)) {
        (b'\r', Some(b'\n')) | (b'\n', Some(b'\r')) => 2,
        (b'\r' | b'\n', _) => 1,
        _ => 0,
    }
}

impl<'a> RawValue<'a> {
    /// The bytes as written.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// Whether the value is empty (`[]`).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// A Number: `[+-]digits`, white space around it ignored.
    ///
    /// ```
    /// use kifu::sgf::RawValue;
    /// assert_eq!(RawValue(b"-12").number(), Some(-12));
    /// assert_eq!(RawValue(b"1 kk").number(), None);
    /// ```
    pub fn number(&self) -> Option<i64> {
        let s = trim(self.0);
        let digits = s.strip_prefix(b"+").or(s.strip_prefix(b"-")).unwrap_or(s);
        if digits.is_empty() || digits.len() > 18 || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        core::str::from_utf8(s)
            .ok()?
            .trim_start_matches('+')
            .parse()
            .ok()
    }

    /// A Real: a Number with an optional `.digits` part, white space around it ignored.
    ///
    /// ```
    /// use kifu::sgf::RawValue;
    /// assert_eq!(RawValue(b"-59.5").real(), Some(-59.5));
    /// assert_eq!(RawValue(b"5 1/2").real(), None);
    /// assert_eq!(RawValue(b"34.").real(), None);
    /// ```
    pub fn real(&self) -> Option<f64> {
        let s = trim(self.0);
        let body = s.strip_prefix(b"+").or(s.strip_prefix(b"-")).unwrap_or(s);
        let (int, frac) = match memchr::memchr(b'.', body) {
            Some(p) => (&body[..p], Some(&body[p + 1..])),
            None => (body, None),
        };
        let digits = |d: &[u8]| !d.is_empty() && d.iter().all(u8::is_ascii_digit);
        if !digits(int) || frac.is_some_and(|f| !digits(f)) || s.len() > 64 {
            return None;
        }
        core::str::from_utf8(s)
            .ok()?
            .trim_start_matches('+')
            .parse()
            .ok()
    }

    /// A Double: `1` or `2`.
    pub fn double(&self) -> Option<Double> {
        match trim(self.0) {
            b"1" => Some(Double::Normal),
            b"2" => Some(Double::Emphasized),
            _ => None,
        }
    }

    /// A Color: `B` or `W`.
    pub fn color(&self) -> Option<Color> {
        match trim(self.0) {
            b"B" => Some(Color::Black),
            b"W" => Some(Color::White),
            _ => None,
        }
    }

    fn decode_text(&self, simple: bool) -> Cow<'a, [u8]> {
        let s = self.0;
        let changes = s
            .iter()
            .any(|&b| matches!(b, b'\\' | b'\r' | b'\t' | 0x0b | 0x0c) || (simple && b == b'\n'));
        if !changes {
            return Cow::Borrowed(s);
        }
        let mut out = Vec::with_capacity(s.len());
        let mut i = 0;
        while i < s.len() {
            let b = s[i];
            if b == b'\\' && i + 1 < s.len() {
                let n = line_break(s, i + 1);
                if n > 0 {
                    i += 1 + n; // soft line break: removed
                    continue;
                }
                let e = s[i + 1];
                out.push(if matches!(e, b'\t' | 0x0b | 0x0c) {
                    b' '
                } else {
                    e
                });
                i += 2;
                continue;
            }
            let n = line_break(s, i);
            if n > 0 {
                out.push(if simple { b' ' } else { b'\n' });
                i += n;
                continue;
            }
            out.push(if matches!(b, b'\t' | 0x0b | 0x0c) {
                b' '
            } else {
                b
            });
            i += 1;
        }
        Cow::Owned(out)
    }

    /// The value as `FF[4]` Text: escapes resolved (`\]` → `]`, `\\` → `\`, `\:` → `:`), soft line
    /// breaks (`\` before a line break) removed, other line breaks (LF, CR, CRLF, LFCR) made
    /// `\n`, other white space made a space. Borrows when nothing changes.
    ///
    /// ```
    /// use kifu::sgf::RawValue;
    /// assert_eq!(RawValue(b"ab\\\r\ncd\tef\r\ngh").text().as_ref(), b"abcd ef\ngh");
    /// ```
    pub fn text(&self) -> Cow<'a, [u8]> {
        self.decode_text(false)
    }

    /// The value as `FF[4]` SimpleText: as [`text`](Self::text), but hard line breaks become
    /// spaces too.
    ///
    /// ```
    /// use kifu::sgf::RawValue;
    /// assert_eq!(RawValue(b"Cho\nChikun").simple_text().as_ref(), b"Cho Chikun");
    /// ```
    pub fn simple_text(&self) -> Cow<'a, [u8]> {
        self.decode_text(true)
    }

    /// [`text`](Self::text) as UTF-8, each invalid sequence replaced by U+FFFD (the core keeps
    /// bytes; `CA` names the charset).
    pub fn text_lossy(&self) -> Cow<'a, str> {
        match self.text() {
            Cow::Borrowed(b) => String::from_utf8_lossy(b),
            Cow::Owned(v) => Cow::Owned(String::from_utf8_lossy(&v).into_owned()),
        }
    }

    /// The value decoded for property `name` (its `FF[4]` identifier) as `kifu json` shows it:
    /// Text properties (`C`, `GC`) through [`text`](Self::text), SimpleText properties (`PB`,
    /// `GN`, `RE`, `N`, …) through [`simple_text`](Self::simple_text), everything else as written
    /// (points, numbers, compose values like `LB[dd:A]` and `AP[x\:y:1]` keep their escapes so
    /// that the `:` stays unambiguous; unknown properties are kept as written). Borrows when
    /// nothing changes.
    ///
    /// ```
    /// use kifu::sgf::RawValue;
    /// assert_eq!(RawValue(b"a\\]b\nc").decoded(b"C").as_ref(), b"a]b\nc");
    /// assert_eq!(RawValue(b"Cho\nChikun").decoded(b"PW").as_ref(), b"Cho Chikun");
    /// assert_eq!(RawValue(br"dd:A\]").decoded(b"LB").as_ref(), br"dd:A\]");
    /// ```
    pub fn decoded(&self, name: &[u8]) -> Cow<'a, [u8]> {
        match super::props::text_kind(name) {
            Some(false) => self.text(),
            Some(true) => self.simple_text(),
            None => Cow::Borrowed(self.0),
        }
    }

    /// Splits a compose value `a:b` at its first `:` not escaped by `\`; both parts keep their
    /// escapes. `None` when there is no such `:`.
    ///
    /// ```
    /// use kifu::sgf::RawValue;
    /// let (a, b) = RawValue(br"word\:more:?").compose().unwrap();
    /// assert_eq!((a.0, b.0), (&br"word\:more"[..], &b"?"[..]));
    /// let (a, b) = RawValue(br"word\\:more:?").compose().unwrap();
    /// assert_eq!((a.0, b.0), (&br"word\\"[..], &b"more:?"[..]));
    /// assert!(RawValue(b"no colon").compose().is_none());
    /// ```
    pub fn compose(&self) -> Option<(RawValue<'a>, RawValue<'a>)> {
        let s = self.0;
        let mut k = 0;
        while k < s.len() {
            let p = memchr::memchr2(b':', b'\\', &s[k..])?;
            if s[k + p] == b':' {
                return Some((RawValue(&s[..k + p]), RawValue(&s[k + p + 1..])));
            }
            k += p + 2;
        }
        None
    }

    /// A Go point on a board of size `size`.
    pub fn point(&self, size: BoardSize) -> Option<Point> {
        Point::parse(self.0, size)
    }

    /// A Go move: `Some(None)` for a pass (`[]`, or `[tt]` on boards up to 19×19),
    /// `Some(Some(point))` for a point on the board, `None` for anything else.
    ///
    /// ```
    /// use kifu::sgf::{BoardSize, Point, RawValue};
    /// let b19 = BoardSize::default();
    /// assert_eq!(RawValue(b"tt").go_move(b19), Some(None));
    /// assert_eq!(RawValue(b"").go_move(b19), Some(None));
    /// let b21 = BoardSize { cols: 21, rows: 21 };
    /// assert_eq!(RawValue(b"tt").go_move(b21), Some(Some(Point { x: 19, y: 19 })));
    /// assert_eq!(RawValue(b"90").go_move(b19), None);
    /// ```
    #[inline]
    pub fn go_move(&self, size: BoardSize) -> Option<Option<Point>> {
        if self.0.is_empty() || (self.0 == b"tt" && size.tt_is_pass()) {
            return Some(None);
        }
        Point::parse(self.0, size).map(Some)
    }

    /// The points of one value of a point list: a single point, or a compressed rectangle
    /// `ul:lr` expanded row by row. `None` when the value is neither (corners given in the other
    /// order are accepted).
    ///
    /// ```
    /// use kifu::sgf::{BoardSize, RawValue};
    /// let pts: Vec<String> = RawValue(b"aa:bc").points(BoardSize::default()).unwrap()
    ///     .map(|p| p.to_string()).collect();
    /// assert_eq!(pts, ["aa", "ba", "ab", "bb", "ac", "bc"]);
    /// assert_eq!(RawValue(b"dd").points(BoardSize::default()).unwrap().count(), 1);
    /// assert!(RawValue(b"dd:zz").points(BoardSize::default()).is_none());
    /// ```
    pub fn points(&self, size: BoardSize) -> Option<Points> {
        let (a, b) = match self.compose() {
            Some((a, b)) => (Point::parse(a.0, size)?, Point::parse(b.0, size)?),
            None => {
                let p = Point::parse(self.0, size)?;
                (p, p)
            }
        };
        let (x0, x1) = (a.x.min(b.x), a.x.max(b.x));
        let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
        Some(Points {
            x0,
            x1,
            y1,
            next: Some(Point { x: x0, y: y0 }),
        })
    }
}

impl core::fmt::Debug for RawValue<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "RawValue({:?})", String::from_utf8_lossy(self.0))
    }
}

/// The points of a point or a compressed rectangle, row by row: see [`RawValue::points`].
#[derive(Clone, Debug)]
pub struct Points {
    x0: u8,
    x1: u8,
    y1: u8,
    next: Option<Point>,
}

impl Iterator for Points {
    type Item = Point;

    fn next(&mut self) -> Option<Point> {
        let p = self.next?;
        self.next = if p.x < self.x1 {
            Some(Point { x: p.x + 1, y: p.y })
        } else if p.y < self.y1 {
            Some(Point {
                x: self.x0,
                y: p.y + 1,
            })
        } else {
            None
        };
        Some(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn t(s: &[u8]) -> Vec<u8> {
        RawValue(s).text().into_owned()
    }
    fn st(s: &[u8]) -> Vec<u8> {
        RawValue(s).simple_text().into_owned()
    }

    #[test]
    fn sgfmill_text_vectors() {
        assert_eq!(t(b"ab\tc"), b"ab c");
        assert_eq!(st(b"ab\tc"), b"ab c");
        assert_eq!(t(b"ab\nc"), b"ab\nc");
        assert_eq!(st(b"ab\nc"), b"ab c");
        assert_eq!(t(b"ab\\\nc"), b"abc");
        assert_eq!(st(b"ab\\\nc"), b"abc");
        assert_eq!(t(b"ab\\\\\nc"), b"ab\\\nc");
        assert_eq!(st(b"ab\\\\\nc"), b"ab\\ c");
        assert_eq!(t(b"ab\rc"), b"ab\nc");
        assert_eq!(t(b"ab\r\nc"), b"ab\nc");
        assert_eq!(t(b"ab\n\rc"), b"ab\nc");
        assert_eq!(t(b"ab\r\n\r\nc"), b"ab\n\nc");
        assert_eq!(t(b"ab\\\r\nc"), b"abc");
        assert_eq!(t(b"ab\\\n\nc"), b"ab\nc");
        assert_eq!(st(b"ab\\\n\nc"), b"ab c");
        assert_eq!(t(b"ab\\\tc"), b"ab c");
        assert_eq!(t(b"ab\xa0c"), b"ab\xa0c");
        assert_eq!(t(br"a\]b\\c\:d"), br"a]b\c:d");
    }

    #[test]
    fn compose_split() {
        let c = |s: &[u8]| {
            RawValue(s)
                .compose()
                .map(|(a, b)| (a.0.to_vec(), b.0.to_vec()))
        };
        assert_eq!(
            c(b"word:123:456"),
            Some((b"word".to_vec(), b"123:456".to_vec()))
        );
        assert_eq!(c(b":123"), Some((b"".to_vec(), b"123".to_vec())));
        assert_eq!(c(br"a\:b"), None);
    }

    #[test]
    fn numbers() {
        assert_eq!(RawValue(b" 19 ").number(), Some(19));
        assert_eq!(RawValue(b"+3").number(), Some(3));
        assert_eq!(RawValue(b"").number(), None);
        assert_eq!(RawValue(b"game of go").number(), None);
        assert_eq!(RawValue(b"7.50").real(), Some(7.5));
        assert_eq!(RawValue(b".5").real(), None);
    }

    #[test]
    fn big_boards() {
        let b52 = BoardSize { cols: 52, rows: 52 };
        assert_eq!(Point::parse(b"ZZ", b52), Some(Point { x: 51, y: 51 }));
        assert_eq!(Point { x: 51, y: 26 }.to_string(), "ZA");
        let rect = BoardSize { cols: 19, rows: 13 };
        assert!(Point::parse(b"sa", rect).is_some());
        assert!(Point::parse(b"an", rect).is_none());
        assert!(!rect.tt_is_pass() || Point::parse(b"tt", rect).is_none());
    }
}
