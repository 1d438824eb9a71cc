//! Tag and property values read into typed cells: integers, dates, times.
//!
//! Each reader is strict: it answers `None` for anything but a complete, valid value, and the
//! table then keeps the raw text elsewhere (the `tags` / `props` map), so that nothing is lost.

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
