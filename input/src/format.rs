//! What a stream holds: PGN or SGF.

use std::fmt;

/// The game-record format a stream holds.
///
/// ```
/// use kifu_input::Format;
/// assert_eq!(Format::sniff(b"\xEF\xBB\xBF  (;GM[1]FF[4])"), Format::Sgf);
/// assert_eq!(Format::sniff(b"[Event \"?\"]"), Format::Pgn);
/// assert_eq!(Format::Sgf.to_string(), "sgf");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Portable Game Notation (chess).
    Pgn,
    /// Smart Game Format (Go and other games).
    Sgf,
}

impl Format {
    /// The format of a stream from its first bytes: SGF if the first byte after blanks (and a
    /// byte order mark; the zero bytes of UTF-16 are skipped too) is `(`, else PGN (also for an
    /// empty head).
    ///
    /// ```
    /// use kifu_input::Format;
    /// // UTF-16LE with its byte order mark
    /// assert_eq!(Format::sniff(b"\xFF\xFE(\0;\0"), Format::Sgf);
    /// assert_eq!(Format::sniff(b"\n\n1. e4 *"), Format::Pgn);
    /// assert_eq!(Format::sniff(b""), Format::Pgn);
    /// ```
    pub fn sniff(head: &[u8]) -> Format {
        let head = [&b"\xEF\xBB\xBF"[..], b"\xFF\xFE", b"\xFE\xFF"]
            .iter()
            .find_map(|bom| head.strip_prefix(*bom))
            .unwrap_or(head);
        match head.iter().find(|b| !b.is_ascii_whitespace() && **b != 0) {
            Some(b'(') => Format::Sgf,
            _ => Format::Pgn,
        }
    }

    /// The format a file name's extension names (`.pgn`, `.sgf`, any case), if any; compression
    /// suffixes are not looked through here (see [`crate::name_info`]).
    ///
    /// ```
    /// use kifu_input::Format;
    /// assert_eq!(Format::from_extension("PGN"), Some(Format::Pgn));
    /// assert_eq!(Format::from_extension("txt"), None);
    /// ```
    pub fn from_extension(ext: &str) -> Option<Format> {
        if ext.eq_ignore_ascii_case("pgn") {
            Some(Format::Pgn)
        } else if ext.eq_ignore_ascii_case("sgf") {
            Some(Format::Sgf)
        } else {
            None
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Pgn => "pgn",
            Format::Sgf => "sgf",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniff_like_the_cli() {
        assert_eq!(Format::sniff(b"  \r\n(;"), Format::Sgf);
        assert_eq!(Format::sniff(b"\xFE\xFF\0("), Format::Sgf);
        assert_eq!(Format::sniff(b"\xEF\xBB\xBF[Event"), Format::Pgn);
        assert_eq!(Format::sniff(b"\0\0\0"), Format::Pgn);
        assert_eq!(Format::sniff(b"x("), Format::Pgn);
    }
}
