//! Where an event or a problem is: byte offset, line and column.

/// A place in the input stream.
///
/// - `offset` counts bytes from the first byte ever fed to the parser (0-based, `u64`, so a
///   stream of any size fits).
/// - `line` is 1-based. A line ends at `\n`, at `\r\n` (counted once) or at a lone `\r`, so files
///   from old Macs number their lines too.
/// - `column` is 1-based and counts **bytes** from the start of the line, not characters: a line
///   holding `é` (two bytes in UTF-8) before a token puts that token one column further right
///   than a character count would. Byte columns are exact whatever the encoding of the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// Byte offset from the start of the stream, 0-based.
    pub offset: u64,
    /// Line number, 1-based.
    pub line: u64,
    /// Column in bytes, 1-based.
    pub column: u32,
}

impl core::fmt::Display for Position {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Incremental line counter shared by the tokenizers.
///
/// It is fed every line break the tokenizer consumes, with its stream offset, and answers the
/// position of any later offset on the current line. `\r\n` counts as one break, a lone `\r` as
/// one: the pair is recognised by offsets, so it works when `\r` and `\n` arrive in different
/// chunks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lines {
    line: u64,
    line_start: u64,
    /// Offset just after the last `\r`, or `u64::MAX`.
    after_cr: u64,
}

impl Default for Lines {
    fn default() -> Self {
        Lines {
            line: 1,
            line_start: 0,
            after_cr: u64::MAX,
        }
    }
}

impl Lines {
    /// Records the line-break byte `b` (`\n` or `\r`) found at stream offset `at`.
    #[inline]
    pub(crate) fn brk(&mut self, b: u8, at: u64) {
        if b == b'\n' && at == self.after_cr {
            // second half of "\r\n": the line was already counted at the "\r".
            self.line_start = at + 1;
            return;
        }
        self.line += 1;
        self.line_start = at + 1;
        if b == b'\r' {
            self.after_cr = at + 1;
        }
    }

    /// Records every line break in `bytes`, which start at stream offset `base`.
    #[inline]
    pub(crate) fn scan(&mut self, bytes: &[u8], base: u64) {
        for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            self.brk(bytes[i], base + i as u64);
        }
    }

    /// The position of stream offset `at`, which must lie on the current line.
    #[inline]
    pub(crate) fn at(&self, at: u64) -> Position {
        Position {
            offset: at,
            line: self.line,
            column: (at.saturating_sub(self.line_start) + 1).min(u32::MAX as u64) as u32,
        }
    }

    /// Whether stream offset `at` is the first byte of its line.
    #[inline]
    pub(crate) fn at_line_start(&self, at: u64) -> bool {
        at == self.line_start
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(input: &[u8]) -> Lines {
        let mut l = Lines::default();
        l.scan(input, 0);
        l
    }

    #[test]
    fn counts_lf_crlf_and_lone_cr() {
        assert_eq!(lines_of(b"a\nb\nc").line, 3);
        assert_eq!(lines_of(b"a\r\nb\r\nc").line, 3);
        assert_eq!(lines_of(b"a\rb\rc").line, 3);
        assert_eq!(lines_of(b"a\r\n\r\nc").line, 3);
        assert_eq!(lines_of(b"a\n\rc").line, 3);
    }

    #[test]
    fn crlf_split_across_calls() {
        let mut l = Lines::default();
        l.scan(b"ab\r", 0);
        l.scan(b"\ncd", 3);
        assert_eq!(
            l.at(5),
            Position {
                offset: 5,
                line: 2,
                column: 2
            }
        );
    }
}
