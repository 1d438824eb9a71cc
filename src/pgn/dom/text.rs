//! [`MoveText`]: a move as written, kept inline.

use alloc::string::String;
use core::fmt;
use core::ops::Deref;

use smallvec::SmallVec;

/// A move as written (`Nf3+`, `exd8=Q#`): UTF-8 text held inline up to 16 bytes (every SAN
/// move is shorter), so that a [`Node`](super::Node) costs no allocation for it. Reads as a
/// `&str` (it derefs to one) and compares with `str` and `String`.
///
/// ```
/// use kifu::pgn::MoveText;
///
/// let t = MoveText::from("Nf3+");
/// assert_eq!(t, "Nf3+");
/// assert_eq!(t.len(), 4);
/// assert_eq!(format!("{t}"), "Nf3+");
/// ```
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MoveText(SmallVec<[u8; 16]>);

impl MoveText {
    /// The text of `bytes`, sequences that are not UTF-8 replaced by U+FFFD.
    pub fn from_utf8_lossy(bytes: &[u8]) -> MoveText {
        MoveText::from(crate::utf8::lossy(bytes).as_ref())
    }

    /// The text.
    #[allow(unsafe_code)]
    pub fn as_str(&self) -> &str {
        // SAFETY: the bytes are always a whole `str`'s: every constructor (`From<&str>`, which
        // the others call) copies one, and nothing changes them afterwards (the field is
        // private and no method mutates it), so they are valid UTF-8. Checking them again on
        // every read cost 7% of `kifu json` on dense movetext (perf, stockfish-books).
        unsafe { core::str::from_utf8_unchecked(&self.0) }
    }
}

impl Deref for MoveText {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for MoveText {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for MoveText {
    fn from(s: &str) -> MoveText {
        MoveText(SmallVec::from_slice(s.as_bytes()))
    }
}

impl From<String> for MoveText {
    fn from(s: String) -> MoveText {
        MoveText::from(s.as_str())
    }
}

impl PartialEq<str> for MoveText {
    fn eq(&self, other: &str) -> bool {
        self.0[..] == *other.as_bytes()
    }
}

impl PartialEq<&str> for MoveText {
    fn eq(&self, other: &&str) -> bool {
        self.0[..] == *other.as_bytes()
    }
}

impl PartialEq<String> for MoveText {
    fn eq(&self, other: &String) -> bool {
        self.0[..] == *other.as_bytes()
    }
}

impl PartialEq<MoveText> for &str {
    fn eq(&self, other: &MoveText) -> bool {
        other == self
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_not_utf8_is_read_with_replacements() {
        assert_eq!(MoveText::from_utf8_lossy(b"e\xffxd5"), "e\u{fffd}xd5");
        assert_eq!(MoveText::from_utf8_lossy(b"Nf3+"), "Nf3+");
    }
}
