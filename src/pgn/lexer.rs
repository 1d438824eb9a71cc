//! Byte classes and token classification for PGN movetext and tag pairs.
//!
//! These are pure functions over complete byte slices; the push state machine in
//! [`parser`](super::parser) decides when a token is complete and calls them.

use super::nag::{Nag, Outcome};
use super::san::San;
use super::simd;

pub(crate) use crate::classes::{NEWLINE, PUNCT, SPACE};

/// Byte classes of the PGN lexer: the shared ones, and `TOKEN` for the rest.
pub(crate) const TOKEN: u8 = 0;

/// Class of each byte. `PUNCT` bytes are self-delimiting: `{ } ( ) [ ] ; $ . "`.
/// Everything that is neither space nor punctuation belongs to a token (a symbol, a move, a
/// result, or text that is not PGN), non-ASCII bytes included.
pub(crate) static CLASS: [u8; 256] = crate::classes::table(TOKEN, b"{}()[];$.\"");

/// Bytes that may start a SAN move (tried before the generic token path).
pub(crate) static SAN_START: [bool; 256] = {
    let mut t = [false; 256];
    let s = b"abcdefghNBRQKOPZ-@";
    let mut i = 0;
    while i < s.len() {
        t[s[i] as usize] = true;
        i += 1;
    }
    t
};

/// Bytes the skipping scanner stops at: everything that can change the structure of a skipped
/// game (comments, variations, tags, escape lines) and the bytes every result contains
/// (`*`, `-`, and the lead bytes of `½` and of the Unicode dashes).
pub(crate) static SKIP_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let s = b"{};()[]%*-\xC2\xE2";
    let mut i = 0;
    while i < s.len() {
        t[s[i] as usize] = true;
        i += 1;
    }
    t
};

/// Bytes that continue a symbol token: the standard's (letters, digits, `_ + # = : -`), plus `/`
/// (of `1/2-1/2`), `@` (drops) and the bytes of non-ASCII characters (kifu reads `½-½` and
/// Unicode dashes in results).
static SYMBOL: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric()
            || c >= 0x80
            || matches!(c, b'_' | b'+' | b'#' | b'=' | b':' | b'-' | b'/' | b'@');
        b += 1;
    }
    t
};

/// Bytes that may appear in a tag name (python-chess's set, a superset of the standard's).
static NAME: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || matches!(c, b'_' | b'+' | b'#' | b'=' | b':' | b'-');
        b += 1;
    }
    t
};

/// Bytes that end the quick scan of a tag value.
pub(crate) static VALUE_STOP: [bool; 256] = {
    let mut t = [false; 256];
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[b'\n' as usize] = true;
    t[b'\r' as usize] = true;
    t
};

/// Whether `b` may appear in a tag name (python-chess's set, a superset of the standard's).
#[inline]
pub(crate) fn is_name_byte(b: u8) -> bool {
    NAME[b as usize]
}

/// The end of the token starting at `i` (first byte that is not a token byte), scanning at most
/// up to `limit`.
#[inline]
pub(crate) fn token_end(input: &[u8], i: usize, limit: usize) -> usize {
    let mut j = i;
    while j < limit && CLASS[input[j] as usize] == TOKEN {
        j += 1;
    }
    j
}

/// A classified movetext token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A move number (digits only; the periods are separate tokens).
    Number(u32),
    /// A termination marker.
    Result(Outcome),
    /// A move: its SAN, the length of SAN + check marker, and a glued suffix annotation.
    Move(San, usize, Option<Nag>),
    /// A free-standing annotation glyph.
    Glyph(Nag),
    /// Anything else.
    Garbage,
}

/// Classifies a complete movetext token.
#[inline]
pub(crate) fn classify(tok: &[u8]) -> Tok {
    let first = tok[0];
    if first.is_ascii_digit() {
        if tok.iter().all(u8::is_ascii_digit) {
            let mut n: u32 = 0;
            for &b in tok {
                n = match n
                    .checked_mul(10)
                    .and_then(|n| n.checked_add((b - b'0') as u32))
                {
                    Some(n) => n,
                    None => return Tok::Garbage,
                };
            }
            return Tok::Number(n);
        }
        if let Some(o) = Outcome::parse(tok) {
            return Tok::Result(o);
        }
    } else if first == b'*' || first >= 0x80 {
        if let Some(o) = Outcome::parse(tok) {
            return Tok::Result(o);
        }
    }
    if let Some((san, n)) = San::parse_prefix(tok) {
        if n == tok.len() {
            return Tok::Move(san, n, None);
        }
        let rest = &tok[n..];
        if rest.len() <= 2 && rest.iter().all(|&b| b == b'!' || b == b'?') {
            if let Some(nag) = Nag::from_glyph(rest) {
                return Tok::Move(san, n, Some(nag));
            }
        }
        return Tok::Garbage;
    }
    match Nag::from_glyph(tok) {
        Some(nag) => Tok::Glyph(nag),
        None => Tok::Garbage,
    }
}

/// Where a token that is no PGN token as a whole (`classify` says `Garbage`) splits, as the
/// standard's tokenizer reads it: `Some((len, glued))` when its first `len` bytes are a token of
/// their own, `None` when the whole is unexpected text.
///
/// A symbol (a move, a number, a result) ends at the first byte that cannot continue it (see
/// [`SYMBOL`]), and a suffix annotation (`!`, `?`, `!!`, `!?`, `?!`, `??`) is the last part of
/// the move before it; a run of `!` and `?` is a glyph; `*` is a token on its own. So
/// `O-O-O#!?0-1` is the move `O-O-O#` with its suffix `!?`, then the result `0-1`, and
/// `e4*` the move then `*`: valid input, read without a word (`glued` false).
///
/// A symbol that is a whole move followed by a whole result (`Qh5#1-0`) is one token by the
/// standard, and not a valid one; it is read as the move and the result (`glued` true, which
/// the parser reports as a warning). No other split is made, so text such as `Nf3/E` stays one
/// piece of unexpected text.
#[cold]
#[inline(never)]
pub(crate) fn split(tok: &[u8]) -> Option<(usize, bool)> {
    let run = |from: usize, class: &dyn Fn(u8) -> bool| {
        tok[from..].iter().take_while(|&&b| class(b)).count()
    };
    let glyph = |b: u8| b == b'!' || b == b'?';
    let first = tok[0];
    let fits = |len: usize| len > 0 && len < tok.len() && classify(&tok[..len]) != Tok::Garbage;
    if glyph(first) {
        let g = run(0, &glyph);
        return fits(g).then_some((g, false));
    }
    if first == b'*' {
        return fits(1).then_some((1, false));
    }
    let s = run(0, &|b| SYMBOL[b as usize]);
    let g = run(s, &glyph);
    if (1..=2).contains(&g) && fits(s + g) {
        return Some((s + g, false));
    }
    if fits(s) {
        return Some((s, false));
    }
    let (_, n) = San::parse_prefix(&tok[..s])?;
    (n < s && Outcome::parse(&tok[n..s]).is_some()).then_some((n, true))
}

/// Whether a tag pair starts at `s[0] == b'['`: `[`, optional blanks, a name starting with a
/// letter, optional blanks, `"`. `None` when `s` ends before this can be decided.
pub(crate) fn is_tag_start(s: &[u8]) -> Option<bool> {
    let mut j = 1;
    while j < s.len() && (s[j] == b' ' || s[j] == b'\t') {
        j += 1;
    }
    match s.get(j) {
        None => return None,
        Some(b) if b.is_ascii_alphabetic() => {}
        Some(_) => return Some(false),
    }
    while j < s.len() && is_name_byte(s[j]) {
        j += 1;
    }
    while j < s.len() && (s[j] == b' ' || s[j] == b'\t') {
        j += 1;
    }
    match s.get(j) {
        None => None,
        Some(b'"') => Some(true),
        Some(_) => Some(false),
    }
}

/// A tag pair read by [`quick_tag`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct QuickTag<'a> {
    pub(crate) name: &'a [u8],
    pub(crate) value: &'a [u8],
    /// Its length, through the `]`.
    pub(crate) end: usize,
    /// The value is known to be ASCII (`false`: not looked at).
    pub(crate) ascii: bool,
    /// The start of the next line, when the pair's `]` is followed by `\n` or `\r\n`; 0 when
    /// not known.
    pub(crate) next: usize,
}

/// A well-formed tag pair at the start of `s` (`[Name "value"]`, blanks allowed between the
/// parts, no backslash and no line break in the value). `None` for anything else, including a
/// tag that `s` cuts off: the careful path then decides.
/// `isa`: the instruction set of the calling copy (see [`simd::Isa`]).
#[inline(always)]
pub(crate) fn quick_tag<I: simd::Isa>(isa: I, s: &[u8]) -> Option<QuickTag<'_>> {
    // the form nearly every tag has, `[Name "value"]`, on a line of up to 62 bytes
    if s.len() > 1 && s[1].is_ascii_alphabetic() {
        if let Some(t) = simd::tag_line(isa, s) {
            return Some(QuickTag {
                name: &s[1..t.space],
                value: &s[t.space + 2..t.quote],
                end: t.quote + 2,
                ascii: t.ascii,
                next: t.next,
            });
        }
    }
    quick_tag_searched(s)
}

/// [`quick_tag`] for the lines that [`simd::tag_line`] does not take.
#[inline(never)]
fn quick_tag_searched(s: &[u8]) -> Option<QuickTag<'_>> {
    // `[Name "value"]`, with no blank but the one space
    if s.len() > 1 && s[1].is_ascii_alphabetic() {
        let j = simd::name_end(s, 2);
        if j + 1 < s.len() && s[j] == b' ' && s[j + 1] == b'"' {
            let q = simd::value_end(s, j + 2);
            if q + 1 < s.len() && s[q] == b'"' && s[q + 1] == b']' {
                return Some(QuickTag {
                    name: &s[1..j],
                    value: &s[j + 2..q],
                    end: q + 2,
                    ascii: false,
                    next: 0,
                });
            }
        }
    }
    let blank = |b: u8| b == b' ' || b == b'\t';
    let mut j = 1;
    while j < s.len() && blank(s[j]) {
        j += 1;
    }
    let name_start = j;
    if !s.get(j)?.is_ascii_alphabetic() {
        return None;
    }
    j = simd::name_end(s, j);
    let name = &s[name_start..j];
    while j < s.len() && blank(s[j]) {
        j += 1;
    }
    if s.get(j) != Some(&b'"') {
        return None;
    }
    let v = j + 1;
    // values are short: a search of 16 bytes at a time, no call (memchr) and no byte loop
    let q = simd::value_end(s, v);
    if s.get(q) != Some(&b'"') {
        return None;
    }
    let value = &s[v..q];
    let mut k = q + 1;
    while k < s.len() && blank(s[k]) {
        k += 1;
    }
    if s.get(k) == Some(&b']') {
        Some(QuickTag {
            name,
            value,
            end: k + 1,
            ascii: false,
            next: 0,
        })
    } else {
        None
    }
}

/// The largest `cut <= limit` that does not split a UTF-8 sequence of `s` (if `s` is UTF-8 at
/// all); never 0 when `limit > 0`.
pub(crate) fn utf8_cut(s: &[u8], limit: usize) -> usize {
    if limit >= s.len() {
        return s.len();
    }
    let mut cut = limit;
    while cut > 0 && limit - cut < 3 && (s[cut] & 0xC0) == 0x80 {
        cut -= 1;
    }
    if cut == 0 || (s[cut] & 0xC0) == 0x80 {
        limit
    } else {
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classify_tokens() {
        assert_eq!(classify(b"12"), Tok::Number(12));
        assert_eq!(classify(b"1-0"), Tok::Result(Outcome::WhiteWins));
        assert_eq!(classify(b"*"), Tok::Result(Outcome::Unknown));
        assert!(matches!(classify(b"0-0"), Tok::Move(..)));
        assert!(matches!(classify(b"Nf3!?"), Tok::Move(_, 3, Some(Nag(5)))));
        assert_eq!(classify(b"oh?"), Tok::Garbage);
        assert_eq!(classify(b"!?"), Tok::Glyph(Nag(5)));
        assert_eq!(classify(b"99999999999"), Tok::Garbage);
        assert_eq!(classify(b"Nf3!!!"), Tok::Garbage);
    }

    #[test]
    fn quick_tag_reads_as_the_searches_do() {
        fn key(t: Option<QuickTag<'_>>) -> Option<(&[u8], &[u8], usize)> {
            t.map(|t| (t.name, t.value, t.end))
        }
        for seed in 0..30_000u64 {
            let s = crate::pgn::simd::tests::tag_like(seed);
            let want = key(quick_tag_searched(&s));
            assert_eq!(key(quick_tag(simd::Baseline, &s)), want, "{s:?}");
            if let Some(isa) = simd::Avx2::detect() {
                assert_eq!(key(quick_tag(isa, &s)), want, "{s:?}");
            }
        }
    }

    #[test]
    fn tag_start() {
        assert_eq!(is_tag_start(b"[Event \"x\"]"), Some(true));
        assert_eq!(is_tag_start(b"[ Event\"x\"]"), Some(true));
        assert_eq!(is_tag_start(b"[%clk 0:01]"), Some(false));
        assert_eq!(is_tag_start(b"[Event"), None);
    }

    #[test]
    fn utf8_cuts() {
        let s = "aé".as_bytes(); // 61 c3 a9
        assert_eq!(utf8_cut(s, 2), 1);
        assert_eq!(utf8_cut(s, 1), 1);
        assert_eq!(utf8_cut(b"abc", 2), 2);
    }
}
