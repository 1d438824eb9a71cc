//! The result of a Go game (`RE`) read into a winner, how the game was won, and the margin.

use core::fmt;

use super::raw::Color;

/// How a Go game was won.
///
/// ```
/// use kifu::sgf::{GoResult, WinBy};
/// let r = GoResult::parse(b"B+Time").unwrap();
/// assert!(matches!(r, GoResult::Win { by: Some(WinBy::Time), .. }));
/// assert_eq!(WinBy::Points(0.5).as_str(), "points");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WinBy {
    /// On the count, by this many points (`B+3.5`; `B+0.5` is 0.5).
    Points(f64),
    /// The other player resigned (`R`, `Resign`).
    Resign,
    /// The other player ran out of time (`T`, `Time`).
    Time,
    /// The other player forfeited (`F`, `Forfeit`).
    Forfeit,
}

impl WinBy {
    /// The word for it: `points`, `resign`, `time`, `forfeit`.
    pub fn as_str(self) -> &'static str {
        match self {
            WinBy::Points(_) => "points",
            WinBy::Resign => "resign",
            WinBy::Time => "time",
            WinBy::Forfeit => "forfeit",
        }
    }
}

/// The result of a Go game, the `RE` property (`SGF FF[4]`).
///
/// | `RE` | result |
/// |---|---|
/// | `B+3.5`, `W+0.5` | a win on the count, by that many points |
/// | `B+R`, `B+Resign` | a win by resignation |
/// | `W+T`, `W+Time` | a win on time |
/// | `B+F`, `B+Forfeit` | a win by forfeit |
/// | `B+` | a win, how not said |
/// | `0`, `Draw` | a draw (jigo) |
/// | `Void` | no result (the game was suspended) |
/// | `?` | the result is not known |
///
/// ```
/// use kifu::sgf::{Color, GoResult, WinBy};
/// let r = GoResult::parse(b"W+3.5").unwrap();
/// assert_eq!(r, GoResult::Win { winner: Color::White, by: Some(WinBy::Points(3.5)) });
/// assert_eq!((r.winner(), r.margin(), r.win_by()), (Some(Color::White), Some(3.5), Some("points")));
/// assert_eq!(GoResult::parse(b"B+Resign").unwrap().to_string(), "B+R");
/// assert_eq!(GoResult::parse(b"Draw"), Some(GoResult::Draw));
/// assert_eq!(GoResult::parse(b"Black resigns."), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GoResult {
    /// `B+…` or `W+…`: a player won (`by` is `None` when the value does not say how).
    Win {
        /// The winner.
        winner: Color,
        /// How: on the count (with the margin), by resignation, on time, by forfeit.
        by: Option<WinBy>,
    },
    /// `0` or `Draw`.
    Draw,
    /// `Void`: no result.
    Void,
    /// `?`: the result is not known.
    Unknown,
}

impl GoResult {
    /// Reads `RE`'s text (white space around it ignored; words in any case).
    ///
    /// Beyond the forms of `FF[4]`, it reads `Jigo` as a draw, `Resignation` and `Timeout` as
    /// their short forms, `B` and `W` alone (as some servers write a win) and a word it does
    /// not know after `B+` (`B+Illegal`) as a win, how not said. Anything else (a sentence,
    /// `B+5 points`, a sign before the margin) is `None`.
    ///
    /// ```
    /// use kifu::sgf::{Color, GoResult, WinBy};
    /// let win = |winner, by| Some(GoResult::Win { winner, by });
    /// assert_eq!(GoResult::parse(b"B+R"), win(Color::Black, Some(WinBy::Resign)));
    /// assert_eq!(GoResult::parse(b"W+T"), win(Color::White, Some(WinBy::Time)));
    /// assert_eq!(GoResult::parse(b"B+F"), win(Color::Black, Some(WinBy::Forfeit)));
    /// assert_eq!(GoResult::parse(b"B+"), win(Color::Black, None));
    /// assert_eq!(GoResult::parse(b"0"), Some(GoResult::Draw));
    /// assert_eq!(GoResult::parse(b"Void"), Some(GoResult::Void));
    /// assert_eq!(GoResult::parse(b"?"), Some(GoResult::Unknown));
    /// assert_eq!(GoResult::parse(b"B+5 points"), None);
    /// ```
    pub fn parse(text: &[u8]) -> Option<GoResult> {
        let s = text.trim_ascii();
        let word = |w: &[u8]| s.eq_ignore_ascii_case(w);
        if s == b"?" {
            return Some(GoResult::Unknown);
        }
        if s == b"0" || word(b"draw") || word(b"jigo") {
            return Some(GoResult::Draw);
        }
        if word(b"void") {
            return Some(GoResult::Void);
        }
        let (&first, rest) = s.split_first()?;
        let winner = match first.to_ascii_uppercase() {
            b'B' => Color::Black,
            b'W' => Color::White,
            _ => return None,
        };
        let by = match rest {
            [] => None,
            [b'+', how @ ..] => by(how.trim_ascii())?,
            _ => return None,
        };
        Some(GoResult::Win { winner, by })
    }

    /// The winner (`None` for a draw, a void game and an unknown result).
    pub fn winner(self) -> Option<Color> {
        match self {
            GoResult::Win { winner, .. } => Some(winner),
            _ => None,
        }
    }

    /// The margin of a win on the count, in points.
    pub fn margin(self) -> Option<f64> {
        match self {
            GoResult::Win {
                by: Some(WinBy::Points(m)),
                ..
            } => Some(m),
            _ => None,
        }
    }

    /// How the game ended, as a word: `points`, `resign`, `time`, `forfeit` for a win
    /// ([`WinBy::as_str`]), `draw`, `void`; `None` for a win that does not say how, and for an
    /// unknown result.
    pub fn win_by(self) -> Option<&'static str> {
        match self {
            GoResult::Win { by, .. } => by.map(WinBy::as_str),
            GoResult::Draw => Some("draw"),
            GoResult::Void => Some("void"),
            GoResult::Unknown => None,
        }
    }
}

/// What follows `B+`: `Some(None)` for nothing said (or a word not known), `None` for
/// something that is not a reason.
fn by(how: &[u8]) -> Option<Option<WinBy>> {
    if how.is_empty() {
        return Some(None);
    }
    if how[0].is_ascii_digit() {
        return real(how).map(|m| Some(WinBy::Points(m)));
    }
    if !how.iter().all(u8::is_ascii_alphabetic) {
        return None;
    }
    let is = |words: &[&[u8]]| words.iter().any(|w| how.eq_ignore_ascii_case(w));
    Some(if is(&[b"r", b"resign", b"resignation"]) {
        Some(WinBy::Resign)
    } else if is(&[b"t", b"time", b"timeout"]) {
        Some(WinBy::Time)
    } else if is(&[b"f", b"forfeit"]) {
        Some(WinBy::Forfeit)
    } else {
        None
    })
}

/// `digits[.digits]`, as SGF's Real without a sign.
fn real(s: &[u8]) -> Option<f64> {
    let (int, frac) = match memchr::memchr(b'.', s) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let digits = |d: &[u8]| !d.is_empty() && d.len() <= 30 && d.iter().all(u8::is_ascii_digit);
    if !digits(int) || frac.is_some_and(|f| !digits(f)) {
        return None;
    }
    core::str::from_utf8(s).ok()?.parse().ok()
}

impl fmt::Display for GoResult {
    /// The short form of `FF[4]`: `B+3.5`, `W+R`, `B+T`, `W+F`, `B+`, `0`, `Void`, `?`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GoResult::Win { winner, by } => {
                f.write_str(if winner == Color::Black { "B+" } else { "W+" })?;
                match by {
                    None => Ok(()),
                    Some(WinBy::Points(m)) => write!(f, "{m}"),
                    Some(WinBy::Resign) => f.write_str("R"),
                    Some(WinBy::Time) => f.write_str("T"),
                    Some(WinBy::Forfeit) => f.write_str("F"),
                }
            }
            GoResult::Draw => f.write_str("0"),
            GoResult::Void => f.write_str("Void"),
            GoResult::Unknown => f.write_str("?"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::{String, ToString};

    fn p(s: &str) -> Option<String> {
        GoResult::parse(s.as_bytes()).map(|r| r.to_string())
    }

    #[test]
    fn the_forms_of_ff4() {
        for (text, want) in [
            ("B+R", "B+R"),
            ("B+Resign", "B+R"),
            ("W+T", "W+T"),
            ("W+Time", "W+T"),
            ("B+F", "B+F"),
            ("B+Forfeit", "B+F"),
            ("W+3.5", "W+3.5"),
            ("B+0.5", "B+0.5"),
            ("B+12", "B+12"),
            ("B+", "B+"),
            ("W+", "W+"),
            ("0", "0"),
            ("Draw", "0"),
            ("Void", "Void"),
            ("?", "?"),
        ] {
            assert_eq!(p(text).as_deref(), Some(want), "{text:?}");
        }
    }

    #[test]
    fn what_the_wild_writes() {
        for (text, want) in [
            ("draw", "0"),
            ("DRAW", "0"),
            ("Jigo", "0"),
            ("void", "Void"),
            (" W+R ", "W+R"),
            ("w+r", "W+R"),
            ("B+resign", "B+R"),
            ("W+Resignation", "W+R"),
            ("W+time", "W+T"),
            ("B+Timeout", "B+T"),
            ("B+ 3.5", "B+3.5"),
            ("B+0.0", "B+0"),
            ("W+0.02", "W+0.02"),
            ("B+10.50", "B+10.5"),
            ("W", "W+"),
            ("B", "B+"),
            ("B+Illegal", "B+"),
            ("W+Repetition", "W+"),
        ] {
            assert_eq!(p(text).as_deref(), Some(want), "{text:?}");
        }
    }

    #[test]
    fn not_results() {
        for text in [
            "",
            "john wins",
            "has adjourned.",
            "White resigns.",
            "Black resigns. W 1 B 2",
            "B+5 points",
            "B+-3",
            "B+.5",
            "B+3.",
            "B+3.5.5",
            "W+Time Over",
            "B+N ? W+timeout",
            "B+, human judge",
            "? (No further moves known)",
            "B-R",
            "BR",
            "X+R",
            "+R",
            "00",
            "Draw!",
        ] {
            assert_eq!(p(text), None, "{text:?}");
        }
        assert_eq!(GoResult::parse(b"B+\xff"), None);
    }

    #[test]
    fn accessors() {
        let r = GoResult::parse(b"B+R").unwrap();
        assert_eq!(
            (r.winner(), r.margin(), r.win_by()),
            (Some(Color::Black), None, Some("resign"))
        );
        let r = GoResult::parse(b"W+").unwrap();
        assert_eq!((r.winner(), r.win_by()), (Some(Color::White), None));
        assert_eq!(GoResult::Draw.win_by(), Some("draw"));
        assert_eq!(GoResult::Void.win_by(), Some("void"));
        assert_eq!(GoResult::Unknown.win_by(), None);
        assert_eq!(GoResult::Unknown.winner(), None);
        assert_eq!(GoResult::Draw.margin(), None);
        assert_eq!(
            GoResult::parse(b"W+Forfeit").unwrap().win_by(),
            Some("forfeit")
        );
        assert_eq!(WinBy::Time.as_str(), "time");
    }
}
