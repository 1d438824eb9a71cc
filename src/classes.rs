//! The byte classes both lexers start from: white space, line breaks and the format's
//! self-delimiting punctuation (each lexer adds its own classes over them).

/// Blanks: space, tab, vertical tab, form feed.
pub(crate) const SPACE: u8 = 1;
/// Line breaks: LF and CR (a CRLF is counted once by `Lines`).
pub(crate) const NEWLINE: u8 = 2;
/// The format's self-delimiting punctuation.
pub(crate) const PUNCT: u8 = 3;

/// A class table: `rest` for every byte, then [`SPACE`], [`NEWLINE`] and [`PUNCT`] for the
/// bytes of `punct`.
pub(crate) const fn table(rest: u8, punct: &[u8]) -> [u8; 256] {
    let mut t = [rest; 256];
    t[b' ' as usize] = SPACE;
    t[b'\t' as usize] = SPACE;
    t[0x0b] = SPACE;
    t[0x0c] = SPACE;
    t[b'\n' as usize] = NEWLINE;
    t[b'\r' as usize] = NEWLINE;
    let mut i = 0;
    while i < punct.len() {
        t[punct[i] as usize] = PUNCT;
        i += 1;
    }
    t
}
