//! Byte classes and scanning helpers for the SGF skeleton.
//!
//! The tokenizer works on bytes and knows only what it must: the five punctuation bytes
//! `( ) ; [ ]`, letters (property identifiers), white space, and that inside a value `\`
//! escapes the next byte (so `\]` does not end a value). Escapes are resolved by the value
//! helpers in [`raw`](super::raw), never here.

pub(crate) use crate::classes::{NEWLINE, PUNCT, SPACE};

/// Byte classes of the SGF lexer: the shared ones, letters, and `OTHER` for the rest.
pub(crate) const OTHER: u8 = 0;
pub(crate) const UPPER: u8 = 4;
pub(crate) const LOWER: u8 = 5;

/// Class of each byte. `PUNCT` is `( ) ; [`; a `]` outside a value is `OTHER` (an illegal
/// character there).
pub(crate) static CLASS: [u8; 256] = {
    let mut t = crate::classes::table(OTHER, b"();[");
    let mut c = b'A';
    while c <= b'Z' {
        t[c as usize] = UPPER;
        t[(c + 32) as usize] = LOWER;
        c += 1;
    }
    t
};

/// Whether `b` is a letter.
#[inline]
pub(crate) fn is_letter(b: u8) -> bool {
    matches!(CLASS[b as usize], UPPER | LOWER)
}

/// Whether `b` ends a word (white space or punctuation).
#[inline]
pub(crate) fn is_delimiter(b: u8) -> bool {
    matches!(CLASS[b as usize], SPACE | NEWLINE | PUNCT)
}

/// The end of the run of letters starting at `i`, looking no further than `end`.
#[inline]
pub(crate) fn letters_end(input: &[u8], i: usize, end: usize) -> usize {
    let mut j = i;
    while j < end && is_letter(input[j]) {
        j += 1;
    }
    j
}

/// The end of the word starting at `i` (up to white space or punctuation, or `end`).
#[inline]
pub(crate) fn word_end(input: &[u8], i: usize, end: usize) -> usize {
    let mut j = i;
    while j < end && !is_delimiter(input[j]) {
        j += 1;
    }
    j
}

/// The index of the first `]` in `s` that is not escaped by a `\`, with no escape pending at
/// the start of `s`. `None` if there is none (a `\` as the last byte escapes a byte not in `s`).
#[inline]
pub(crate) fn value_end(s: &[u8]) -> Option<usize> {
    // two bytes (a point, the most common value): no loop
    if let [a, b, b']', ..] = *s {
        if a != b']' && a != b'\\' && b != b']' && b != b'\\' {
            return Some(2);
        }
    }
    // most values are short (`pd`, `19`, a name): a plain loop beats memchr's set-up there
    let mut k = 0;
    let short = s.len().min(16);
    while k < short {
        match s[k] {
            b']' => return Some(k),
            b'\\' => k += 2,
            _ => k += 1,
        }
    }
    while k < s.len() {
        let p = memchr::memchr2(b']', b'\\', &s[k..])?;
        if s[k + p] == b']' {
            return Some(k + p);
        }
        k += p + 2;
    }
    None
}

#[inline]
fn is_nl(b: u8) -> bool {
    b == b'\n' || b == b'\r'
}

/// Where to cut a value piece: `s` holds more than `lim` bytes of the value from the piece's
/// start (no escape pending there). The cut is at most `lim` and never splits a UTF-8
/// sequence, a run of line breaks (so `\r\n` and `\n\r` stay whole), or an escape from the
/// byte it escapes. It depends only on the bytes, never on the chunking.
pub(crate) fn piece_cut(s: &[u8], lim: usize) -> usize {
    let mut c = lim;
    let mut k = 0;
    while k < 3 && c > 1 && (s[c] & 0xC0) == 0x80 {
        c -= 1;
        k += 1;
    }
    if is_nl(s[c]) && is_nl(s[c - 1]) {
        let mut d = c - 1;
        while d > 0 && is_nl(s[d - 1]) {
            d -= 1;
        }
        if d > 0 {
            c = d;
        }
    }
    let run = s[..c].iter().rev().take_while(|&&b| b == b'\\').count();
    if run % 2 == 1 {
        if c > 1 {
            c -= 1;
        } else {
            c += 1;
        }
    }
    c
}

/// What follows a `(` met outside any game tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Start {
    /// White space then `;`: a game tree.
    Node,
    /// White space, then letters with at least one uppercase letter, white space and `[`: a game
    /// tree whose first `;` is missing.
    Property,
    /// Anything else: the `(` is text outside the game trees.
    No,
    /// The input ends before this can be decided.
    More,
}

/// Decides what the bytes after a `(` outside a game are, looking at most `lim` bytes ahead.
pub(crate) fn game_start(s: &[u8], lim: usize, eof: bool) -> Start {
    let end = s.len().min(lim);
    let more = |j: usize| {
        if j >= s.len() && !eof && s.len() < lim {
            Start::More
        } else {
            Start::No
        }
    };
    let mut j = 0;
    while j < end && matches!(CLASS[s[j] as usize], SPACE | NEWLINE) {
        j += 1;
    }
    if j >= end {
        return more(j);
    }
    if s[j] == b';' {
        return Start::Node;
    }
    if !is_letter(s[j]) {
        return Start::No;
    }
    let l = letters_end(s, j, end);
    let upper = s[j..l].iter().any(|b| b.is_ascii_uppercase());
    let mut k = l;
    while k < end && matches!(CLASS[s[k] as usize], SPACE | NEWLINE) {
        k += 1;
    }
    if k >= end {
        return more(k);
    }
    if upper && s[k] == b'[' {
        Start::Property
    } else {
        Start::No
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_end_escapes() {
        assert_eq!(value_end(b"ab]c"), Some(2));
        assert_eq!(value_end(br"a\]b]"), Some(4));
        assert_eq!(value_end(br"a\\]b]"), Some(3));
        assert_eq!(value_end(br"ab\"), None);
        assert_eq!(value_end(b"abc"), None);
        assert_eq!(value_end(b"pd]"), Some(2));
        assert_eq!(value_end(b"pd];B[dd]"), Some(2));
        assert_eq!(value_end(b"]d]"), Some(0));
        assert_eq!(value_end(b"p]]"), Some(1));
        assert_eq!(value_end(br"\]]x]"), Some(2));
        assert_eq!(value_end(br"p\]x]"), Some(4));
    }

    #[test]
    fn cuts_keep_escapes_breaks_and_utf8() {
        assert_eq!(piece_cut(b"abcdefghij", 8), 8);
        assert_eq!(piece_cut(b"abcdefg\\]j", 8), 7);
        assert_eq!(piece_cut(b"abcdef\\\\]j", 8), 8);
        assert_eq!(piece_cut(b"abcdefg\r\nj", 8), 7);
        assert_eq!(piece_cut(b"abcdef\\\r\nj", 8), 6);
        assert_eq!(piece_cut("abcdefg\u{e9}j".as_bytes(), 8), 7);
    }

    #[test]
    fn game_starts() {
        assert_eq!(game_start(b" \n;B[aa]", 64, false), Start::Node);
        assert_eq!(game_start(b" GM[1]", 64, false), Start::Property);
        assert_eq!(game_start(b"see page 3)", 64, false), Start::No);
        assert_eq!(game_start(b"  ", 64, false), Start::More);
        assert_eq!(game_start(b"  ", 64, true), Start::No);
        assert_eq!(game_start(b"GM ", 64, false), Start::More);
    }
}
