//! Numeric Annotation Glyphs and game results.

/// A Numeric Annotation Glyph, `$0` to `$255`.
///
/// The six move suffixes of the standard map to `$1`–`$6`: `!` good, `?` mistake, `!!` brilliant,
/// `??` blunder, `!?` speculative, `?!` dubious.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Nag(pub u8);

impl Nag {
    /// `!`
    pub const GOOD_MOVE: Nag = Nag(1);
    /// `?`
    pub const MISTAKE: Nag = Nag(2);
    /// `!!`
    pub const BRILLIANT_MOVE: Nag = Nag(3);
    /// `??`
    pub const BLUNDER: Nag = Nag(4);
    /// `!?`
    pub const SPECULATIVE_MOVE: Nag = Nag(5);
    /// `?!`
    pub const DUBIOUS_MOVE: Nag = Nag(6);

    /// The NAG of a suffix annotation (`!`, `?`, `!!`, `??`, `!?`, `?!`), or of one of the
    /// evaluation symbols some programs write outside comments (`=`, `∞`, `⩲`, `⩱`, `±`, `∓`,
    /// `+-`, `-+`, `+/-`, `-/+`, `+=`, `=+`).
    pub fn from_glyph(s: &[u8]) -> Option<Nag> {
        Some(Nag(match s {
            b"!" => 1,
            b"?" => 2,
            b"!!" => 3,
            b"??" => 4,
            b"!?" => 5,
            b"?!" => 6,
            b"=" => 10,
            b"\xe2\x88\x9e" => 13,
            b"+=" | b"\xe2\xa9\xb2" => 14,
            b"=+" | b"\xe2\xa9\xb1" => 15,
            b"+/-" | b"\xc2\xb1" => 16,
            b"-/+" | b"\xe2\x88\x93" => 17,
            b"+-" => 18,
            b"-+" => 19,
            _ => return None,
        }))
    }

    /// The suffix spelling of `$1`–`$6`, if this is one of them.
    pub fn glyph(self) -> Option<&'static str> {
        Some(match self.0 {
            1 => "!",
            2 => "?",
            3 => "!!",
            4 => "??",
            5 => "!?",
            6 => "?!",
            _ => return None,
        })
    }
}

impl core::fmt::Display for Nag {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "${}", self.0)
    }
}

/// A game termination marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
    /// `*`: unknown, game in progress or abandoned.
    Unknown,
}

impl Outcome {
    /// The standard spelling: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unknown => "*",
        }
    }

    /// Reads a termination marker: the four standard ones, and the spellings real files use:
    /// `½-½`, and `–` (en dash) or `—` (em dash) in place of `-`.
    pub fn parse(s: &[u8]) -> Option<Outcome> {
        match s {
            b"1-0" => return Some(Outcome::WhiteWins),
            b"0-1" => return Some(Outcome::BlackWins),
            b"1/2-1/2" => return Some(Outcome::Draw),
            b"*" => return Some(Outcome::Unknown),
            _ => {}
        }
        if s.len() < 3 || s.len() > 11 || s.is_ascii() {
            return None;
        }
        // normalise: "½" -> "1/2", en/em dash -> "-"
        let mut buf = [0u8; 16];
        let mut n = 0;
        let mut i = 0;
        while i < s.len() {
            if s[i..].starts_with("½".as_bytes()) {
                buf[n..n + 3].copy_from_slice(b"1/2");
                n += 3;
                i += 2;
            } else if s[i..].starts_with("–".as_bytes()) || s[i..].starts_with("—".as_bytes()) {
                buf[n] = b'-';
                n += 1;
                i += 3;
            } else if s[i].is_ascii() {
                buf[n] = s[i];
                n += 1;
                i += 1;
            } else {
                return None;
            }
            if n > 8 {
                return None;
            }
        }
        match &buf[..n] {
            b"1-0" => Some(Outcome::WhiteWins),
            b"0-1" => Some(Outcome::BlackWins),
            b"1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }
}

impl core::fmt::Display for Outcome {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes() {
        assert_eq!(Outcome::parse(b"1-0"), Some(Outcome::WhiteWins));
        assert_eq!(Outcome::parse("½-½".as_bytes()), Some(Outcome::Draw));
        assert_eq!(Outcome::parse("½–½".as_bytes()), Some(Outcome::Draw));
        assert_eq!(Outcome::parse("1–0".as_bytes()), Some(Outcome::WhiteWins));
        assert_eq!(Outcome::parse("0—1".as_bytes()), Some(Outcome::BlackWins));
        assert_eq!(Outcome::parse(b"0-0"), None);
        assert_eq!(Outcome::parse(b"1/2"), None);
    }

    #[test]
    fn glyphs() {
        assert_eq!(Nag::from_glyph(b"?!"), Some(Nag::DUBIOUS_MOVE));
        assert_eq!(Nag::from_glyph("±".as_bytes()), Some(Nag(16)));
        assert_eq!(Nag::from_glyph(b"!!!"), None);
        assert_eq!(Nag(3).glyph(), Some("!!"));
    }
}
