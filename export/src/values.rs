//! Tag and property values read into typed cells: integers, dates (whole, or with unknown
//! parts: [`Date`]), times.
//!
//! Each reader is strict: it answers `None` for anything but a complete, valid value, and the
//! table then keeps the raw text elsewhere (the `tags` / `props` map), so that nothing is lost.

use core::cmp::Ordering;

/// An integer written in decimal, with an optional sign; white space around it is ignored.
///
/// ```
/// use kifu_export::values::int;
/// assert_eq!(int::<i16>("2850"), Some(2850));
/// assert_eq!(int::<i16>(" +11 "), Some(11));
/// assert_eq!(int::<i16>("-9"), Some(-9));
/// assert_eq!(int::<i16>("?"), None);
/// assert_eq!(int::<i16>("40000"), None); // does not fit
/// assert_eq!(int::<i32>("12a"), None);
/// ```
pub fn int<T: core::str::FromStr>(s: &str) -> Option<T> {
    let s = s.trim();
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// A real number: digits with an optional sign and an optional `.digits` part (SGF's Real, `KM`
/// and `TM`); white space around it is ignored.
///
/// ```
/// use kifu_export::values::real;
/// assert_eq!(real("6.5"), Some(6.5));
/// assert_eq!(real("-0.5"), Some(-0.5));
/// assert_eq!(real("7"), Some(7.0));
/// assert_eq!(real("6,5"), None);
/// assert_eq!(real("inf"), None);
/// ```
pub fn real(s: &str) -> Option<f64> {
    let s = s.trim();
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (int, frac) = body.split_once('.').unwrap_or((body, "0"));
    let digits = |d: &str| !d.is_empty() && d.len() <= 30 && d.bytes().all(|b| b.is_ascii_digit());
    if !digits(int) || !digits(frac) {
        return None;
    }
    s.parse().ok()
}

/// A date whose parts may be unknown (`2015.??.??`: the year only).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Date {
    /// The year.
    pub year: Option<u32>,
    /// The month, 1 to 12.
    pub month: Option<u32>,
    /// The day, 1 to 31.
    pub day: Option<u32>,
}

impl Date {
    /// `YYYY[.MM[.DD]]`, also with `-` or `/` (SGF `DT` may list several dates: the first
    /// counts); a part of `?`, `0` or anything but digits is unknown. `None` when no part is
    /// known.
    ///
    /// ```
    /// use kifu_export::values::Date;
    /// let d = Date::parse("2015.??.??").unwrap();
    /// assert_eq!((d.year, d.month, d.day), (Some(2015), None, None));
    /// assert_eq!(Date::parse("1996-05-02,03").unwrap().day, Some(2));
    /// assert_eq!(Date::parse("????.??.??"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Date> {
        // one pass over the bytes, no allocation: a scan reads a date a game
        let mut parts = [None; 3];
        let mut k = 0;
        let (mut n, mut digits, mut other) = (0u32, 0u32, false);
        for &b in text.as_bytes() {
            match b {
                b'0'..=b'9' => {
                    if digits < 9 {
                        n = n * 10 + u32::from(b - b'0');
                    }
                    digits += 1;
                }
                b' ' | b'\t' => {}
                b'.' | b'-' | b'/' | b',' => {
                    parts[k] = (digits > 0 && !other && n > 0).then_some(n);
                    k += 1;
                    (n, digits, other) = (0, 0, false);
                    if k == 3 || b == b',' {
                        break;
                    }
                }
                _ => other = true,
            }
        }
        if k < 3 && digits > 0 && !other && n > 0 {
            parts[k] = Some(n);
        }
        let d = Date {
            year: parts[0],
            month: parts[1].filter(|&m| m <= 12),
            day: parts[2].filter(|&d| d <= 31),
        };
        (d != Date::default()).then_some(d)
    }

    /// A date a test gives (`-w Date>=2015.06`): `YYYY[.MM[.DD]]` (also with `-` or `/`), a
    /// part of `?` not given; `None` when no part is. Stricter than [`parse`](Self::parse),
    /// which reads what games hold: a part that is no month or day, or a part given after one
    /// that is not, is an error naming it, never a date of fewer parts.
    ///
    /// ```
    /// use kifu_export::values::Date;
    /// assert_eq!(Date::given("2015.06").unwrap().unwrap().month, Some(6));
    /// assert_eq!(Date::given("2015.??.??").unwrap().unwrap().month, None);
    /// assert!(Date::given("2015.13").unwrap_err().contains("`13` is no month"));
    /// assert!(Date::given("2015.06.45").unwrap_err().contains("`45` is no day"));
    /// ```
    ///
    /// # Errors
    ///
    /// The part that is wrong, and why.
    pub fn given(text: &str) -> Result<Option<Date>, String> {
        let text = text.trim();
        let parts: Vec<&str> = text.split(['.', '-', '/']).collect();
        if parts.len() > 3 {
            return Err(format!(
                "`{text}` is no date: a date is YYYY, YYYY.MM or YYYY.MM.DD"
            ));
        }
        let names = ["year", "month", "day"];
        let ranges = [(1, 9999), (1, 12), (1, 31)];
        let mut got = [None; 3];
        let mut unknown: Option<&str> = None;
        for (k, part) in parts.iter().enumerate() {
            let name = names[k];
            if !part.is_empty() && part.bytes().all(|b| b == b'?') {
                unknown.get_or_insert(name);
                continue;
            }
            let (lo, hi) = ranges[k];
            let n = part
                .bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| part.parse::<u32>().ok())
                .flatten()
                .filter(|n| (lo..=hi).contains(n) && !part.is_empty());
            let Some(n) = n else {
                let want = match k {
                    0 => "1 to 9999 as YYYY, or `????`; a date is YYYY.MM.DD".to_string(),
                    _ => format!("01 to {hi}, or `??`"),
                };
                return Err(format!(
                    "`{part}` is no {name} ({want}) in the date `{text}`"
                ));
            };
            if let Some(before) = unknown {
                return Err(format!(
                    "the date `{text}` gives a {name} after no {before}: write `?` for it too"
                ));
            }
            got[k] = Some(n);
        }
        let d = Date {
            year: got[0],
            month: got[1],
            day: got[2],
        };
        Ok((d != Date::default()).then_some(d))
    }

    /// The year, month and day.
    pub fn parts(&self) -> [Option<u32>; 3] {
        [self.year, self.month, self.day]
    }

    /// Compared on the parts `test` gives, in order; `None` when this date lacks one of them
    /// before they differ (`2021.??.??` against `2021.05`: unknown). How `-w Date=2021`
    /// matches every date of 2021.
    ///
    /// ```
    /// use kifu_export::values::Date;
    /// use std::cmp::Ordering;
    /// let d = Date::parse("2021.05.??").unwrap();
    /// assert_eq!(d.against(&Date::given("2021").unwrap().unwrap()), Some(Ordering::Equal));
    /// assert_eq!(d.against(&Date::given("2021.05.03").unwrap().unwrap()), None);
    /// ```
    pub fn against(&self, test: &Date) -> Option<Ordering> {
        for (have, want) in self.parts().into_iter().zip(test.parts()) {
            let Some(want) = want else { break };
            match have?.cmp(&want) {
                Ordering::Equal => continue,
                o => return Some(o),
            }
        }
        Some(Ordering::Equal)
    }

    /// A total order, unknown parts first (for rows).
    pub fn order(&self, other: &Date) -> Ordering {
        self.parts().cmp(&other.parts())
    }
}

/// The tags a PGN game's date is read from, in this order, for the game keys `year` and `month`
/// and the columns of the same name: `UTCDate` (lichess's), `Date`, `EventDate`.
pub const PGN_DATE_TAGS: [&str; 3] = ["UTCDate", "Date", "EventDate"];

/// The root property an SGF game's date is read from: `DT`.
pub const SGF_DATE_PROPS: [&str; 1] = ["DT"];

impl Date {
    /// The date of a game's `year` (`month == false`) or `month` key: the first of `dates`
    /// (the values of its date tags, in the order of [`PGN_DATE_TAGS`] or [`SGF_DATE_PROPS`],
    /// `None` for a tag it lacks) that gives a year, and a month for `month`; a month's day is
    /// dropped. One reading for `kifu filter -w year=…`, `--by month`, `--partition-by` and
    /// the `year` and `month` columns.
    ///
    /// ```
    /// use kifu_export::values::Date;
    /// let tags = [None, Some("2015.??.??"), Some("2015.06.01")]; // UTCDate, Date, EventDate
    /// assert_eq!(Date::of_game(tags, false).unwrap().year, Some(2015));
    /// let m = Date::of_game(tags, true).unwrap();
    /// assert_eq!((m.year, m.month, m.day), (Some(2015), Some(6), None));
    /// assert_eq!(m.month_text().as_deref(), Some("2015-06"));
    /// ```
    pub fn of_game<S: AsRef<str>>(
        dates: impl IntoIterator<Item = Option<S>>,
        month: bool,
    ) -> Option<Date> {
        let d = dates
            .into_iter()
            .filter_map(|t| Date::parse(t?.as_ref()))
            .find(|d| d.year.is_some() && (!month || d.month.is_some()))?;
        Some(if month { Date { day: None, ..d } } else { d })
    }

    /// `YYYY-MM`, as the `month` key and column show it; `None` without a year and a month.
    pub fn month_text(&self) -> Option<String> {
        Some(format!("{:04}-{:02}", self.year?, self.month?))
    }
}

/// The result of a Go game's `RE` in the words of a chess result, as the game keys' `result`
/// and the `outcome` columns give it: `1-0` a White win, `0-1` a Black win, `1/2-1/2` a draw,
/// `*` anything else (a void game, `?`, no `RE`).
///
/// ```
/// use kifu::sgf::GoResult;
/// use kifu_export::values::go_outcome;
/// assert_eq!(go_outcome(GoResult::parse(b"B+R").as_ref()).as_str(), "0-1");
/// assert_eq!(go_outcome(GoResult::parse(b"0").as_ref()).as_str(), "1/2-1/2");
/// assert_eq!(go_outcome(None).as_str(), "*");
/// ```
pub fn go_outcome(result: Option<&kifu::sgf::GoResult>) -> kifu::pgn::Outcome {
    use kifu::pgn::Outcome;
    use kifu::sgf::{Color, GoResult};
    match result {
        Some(GoResult::Win { winner, .. }) => match winner {
            Color::White => Outcome::WhiteWins,
            Color::Black => Outcome::BlackWins,
        },
        Some(GoResult::Draw) => Outcome::Draw,
        _ => Outcome::Unknown,
    }
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Arrow's `Date32`).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        _ => 28,
    }
}

fn digits(s: &[u8]) -> Option<u32> {
    if s.is_empty() || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(s.iter().fold(0, |n, &b| n * 10 + u32::from(b - b'0')))
}

/// A complete date `YYYY.MM.DD` (PGN's form; `YYYY-MM-DD` is read too) as days since
/// 1970-01-01 (Arrow's `Date32`). A partial date (`1851.??.??`), the unknown date
/// (`????.??.??`) and an impossible one (`2023.02.30`) are `None`.
///
/// ```
/// use kifu_export::values::date;
/// assert_eq!(date("1970.01.02"), Some(1));
/// assert_eq!(date("2024-02-29"), Some(19782));
/// assert_eq!(date("1851.??.??"), None);
/// assert_eq!(date("2023.02.29"), None);
/// ```
pub fn date(s: &str) -> Option<i32> {
    let b = s.trim().as_bytes();
    let [y0, y1, y2, y3, s1, m0, m1, s2, d0, d1] = *b else {
        return None;
    };
    if s1 != s2 || !(s1 == b'.' || s1 == b'-') {
        return None;
    }
    let y = i64::from(digits(&[y0, y1, y2, y3])?);
    let m = digits(&[m0, m1])?;
    let d = digits(&[d0, d1])?;
    if !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
        return None;
    }
    i32::try_from(days_from_civil(y, m, d)).ok()
}

/// A complete time of day `HH:MM:SS` as seconds since midnight.
///
/// ```
/// use kifu_export::values::time;
/// assert_eq!(time("22:00:22"), Some(79222));
/// assert_eq!(time("24:00:00"), None);
/// assert_eq!(time("22:00"), None);
/// ```
pub fn time(s: &str) -> Option<i32> {
    let b = s.trim().as_bytes();
    let [h0, h1, b':', m0, m1, b':', s0, s1] = *b else {
        return None;
    };
    let (h, m, s) = (digits(&[h0, h1])?, digits(&[m0, m1])?, digits(&[s0, s1])?);
    if h > 23 || m > 59 || s > 59 {
        return None;
    }
    Some((h * 3600 + m * 60 + s) as i32)
}

/// The text of a `Date32` value, `YYYY-MM-DD` (what CSV cells and JSON hold).
///
/// ```
/// assert_eq!(kifu_export::values::date_text(19782), "2024-02-29");
/// assert_eq!(kifu_export::values::date_text(-1), "1969-12-31");
/// ```
pub fn date_text(days: i32) -> String {
    // civil_from_days (H. Hinnant)
    let z = i64::from(days) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The text of a `Time64(Microsecond)` value (microseconds since midnight), `HH:MM:SS` (then
/// `.ffffff` when there are fractions of a second).
///
/// ```
/// assert_eq!(kifu_export::values::time_text(79_222_000_000), "22:00:22");
/// assert_eq!(kifu_export::values::time_text(1_500_000), "00:00:01.500000");
/// ```
pub fn time_text(us: i64) -> String {
    let us = us.rem_euclid(86_400_000_000);
    let s = us / 1_000_000;
    let mut t = format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    if us % 1_000_000 != 0 {
        t.push_str(&format!(".{:06}", us % 1_000_000));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn dates_known() {
        assert_eq!(date("1970.01.01"), Some(0));
        assert_eq!(date("2000.03.01"), Some(11017));
        assert_eq!(date("1900.02.29"), None);
        assert_eq!(date("2000.02.29"), Some(11016));
        assert_eq!(date("0001.01.01"), Some(-719_162));
        assert_eq!(date("2024.1.1"), None);
        assert_eq!(date("2024.01-01"), None);
        assert_eq!(date("????.??.??"), None);
        assert_eq!(date("2024.00.10"), None);
        assert_eq!(date("2024.13.10"), None);
        assert_eq!(date("2024.12.00"), None);
        assert_eq!(date(""), None);
        assert_eq!(date("é.01.01xx"), None);
    }

    #[test]
    fn times_known() {
        assert_eq!(time("00:00:00"), Some(0));
        assert_eq!(time("23:59:59"), Some(86399));
        assert_eq!(time("12:60:00"), None);
        assert_eq!(time("1:00:00"), None);
    }

    #[test]
    fn ints_and_reals() {
        assert_eq!(int::<i64>("4100018"), Some(4_100_018));
        assert_eq!(int::<i16>(""), None);
        assert_eq!(int::<i16>("+"), None);
        assert_eq!(int::<i16>("1 2"), None);
        assert_eq!(real("."), None);
        assert_eq!(real("5."), None);
        assert_eq!(real("+0.75"), Some(0.75));
    }

    proptest! {
        #[test]
        fn date_round_trip(days in -719_162i32..2_932_896) {
            let text = date_text(days);
            prop_assert_eq!(date(&text), Some(days));
        }

        #[test]
        fn time_round_trip(secs in 0i32..86_400) {
            prop_assert_eq!(time(&time_text(i64::from(secs) * 1_000_000)), Some(secs));
        }

        #[test]
        fn never_panics(s in ".{0,12}") {
            let _ = (date(&s), time(&s), int::<i16>(&s), real(&s));
        }
    }
}
