//! The formats kifu reads: PGN and SGF. One type for the whole workspace: the parallel scan
//! cuts by it, the input layer sniffs it, the command line and the Python package name it.

use core::fmt;
use core::str::FromStr;

/// A game-record format.
///
/// ```
/// use kifu::Format;
/// assert_eq!(Format::sniff(b"\xEF\xBB\xBF (;GM[1]"), Format::Sgf);
/// assert_eq!(Format::sniff(b"[Event \"?\"]"), Format::Pgn);
/// assert_eq!(Format::from_extension("SGF"), Some(Format::Sgf));
/// assert_eq!("pgn".parse::<Format>(), Ok(Format::Pgn));
/// assert_eq!(Format::Sgf.to_string(), "sgf");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Portable Game Notation (chess). In a parallel scan, a place to cut is a `[` that opens
    /// a line and a tag name, after a blank line or a line that opens no tag pair (the first
    /// tag of a game's section).
    Pgn,
    /// Smart Game Format (Go and other games). In a parallel scan, a place to cut is a `(`
    /// that opens a line or follows a `)`, followed by `;` and a root or game-info property
    /// (`FF`, `GM`, `SZ`, `CA`, `AP`, …: a variation starts with a move).
    Sgf,
}

impl Format {
    /// Both formats, PGN first.
    pub const ALL: [Format; 2] = [Format::Pgn, Format::Sgf];

    /// The format the first bytes show: SGF when the first byte that is not white space (after
    /// a byte order mark; the zero bytes of UTF-16 are skipped too) is `(`, else PGN (also for
    /// an empty stream).
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

    /// The format a file extension names (`pgn`, `sgf`, any case).
    pub fn from_extension(ext: &str) -> Option<Format> {
        if ext.eq_ignore_ascii_case("pgn") {
            Some(Format::Pgn)
        } else if ext.eq_ignore_ascii_case("sgf") {
            Some(Format::Sgf)
        } else {
            None
        }
    }

    /// The name: `pgn`, `sgf`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Pgn => "pgn",
            Format::Sgf => "sgf",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownFormat;

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no such format (pgn, sgf)")
    }
}

impl FromStr for Format {
    type Err = UnknownFormat;

    /// `pgn` or `sgf`, any case.
    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        Format::from_extension(s).ok_or(UnknownFormat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffing() {
        assert_eq!(Format::sniff(b"  \r\n(;"), Format::Sgf);
        assert_eq!(Format::sniff(b"\xFE\xFF\0("), Format::Sgf);
        assert_eq!(Format::sniff(b""), Format::Pgn);
        assert_eq!(Format::sniff(b"1. e4"), Format::Pgn);
        assert!("xyz".parse::<Format>().is_err());
    }
}
