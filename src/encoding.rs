//! Text encodings (feature `encoding`): what SGF's `CA` names, a guess where it names nothing, and
//! a reader that turns UTF-16 files into UTF-8 before parsing.
//!
//! The parsers keep bytes: values and comments arrive as written, and `CA[…]` is an ordinary
//! property. This module decodes them afterwards:
//!
//! - [`for_charset`]: the [`Encoding`] a `CA` value names (`GB2312`, `GBK`, `GB18030`,
//!   `Shift_JIS`, `EUC-KR`, `Big5`, `ISO-8859-x`, `UTF-8`, and the usual aliases such as `CP936`
//!   or `SJIS`), through [encoding_rs](https://docs.rs/encoding_rs).
//! - [`guess`]: the encoding of text that came without `CA` (the Fox Go server's files have none
//!   and are mostly UTF-8, some damaged): UTF-8 when the bytes are valid UTF-8, else the guess of
//!   [chardetng](https://docs.rs/chardetng), Firefox's detector for legacy CJK and single-byte
//!   encodings, when the text gives real evidence for it, else FF\[4\]'s default, ISO-8859-1.
//! - [`decode`]: bytes to text, borrowing when nothing changes.
//! - [`Charset`]: the choice for one game tree, from its `CA` and its text.
//! - [`Utf16Reader`] (feature `std`): a `Read` adapter that recognises UTF-16 (by its byte order
//!   mark, or by `(` followed or preceded by a zero byte) and hands the parser UTF-8; other input
//!   passes through untouched. Byte offsets in events are then offsets in the UTF-8 text.
//!
//! ```
//! use kifu::encoding::{decode, for_charset, guess, Charset};
//!
//! let gbk = for_charset(b"GB2312").unwrap();
//! assert_eq!(gbk.name(), "GBK");
//! assert_eq!(decode(b"\xb9\xc5\xc1\xa6", gbk), "古力");
//! assert_eq!(for_charset(b" sjis ").unwrap().name(), "Shift_JIS");
//! assert_eq!(guess(b"plain ASCII").name(), "UTF-8");
//!
//! // a game tree without CA whose names are GBK
//! let mut cs = Charset::default();
//! cs.sample(b"\xb3\xa3\xea\xbb\xd3\xee \xb6\xd4 \xbd\xad\xce\xac\xbd\xdc");
//! assert_eq!(cs.encoding().name(), "GBK");
//! assert_eq!(cs.decode(b"\xb9\xc5\xc1\xa6"), "古力");
//! ```

use alloc::borrow::Cow;

pub use encoding_rs::Encoding;

/// How many bytes of text [`Charset`] keeps for its guess.
const SAMPLE_MAX: usize = 16 * 1024;

/// The encoding a charset label names (`CA[…]` in SGF), white space and case ignored; `None` for
/// a label neither the WHATWG Encoding Standard nor the usual Windows code-page aliases know.
///
/// As in web browsers, `ISO-8859-1` and `US-ASCII` name windows-1252 (a superset), `GB2312`
/// names GBK, and `UTF-16` names UTF-16LE.
///
/// ```
/// use kifu::encoding::for_charset;
/// assert_eq!(for_charset(b"UTF-8").unwrap().name(), "UTF-8");
/// assert_eq!(for_charset(b"cp936").unwrap().name(), "GBK");
/// assert_eq!(for_charset(b"ks_c_5601-1987").unwrap().name(), "EUC-KR");
/// assert!(for_charset(b"klingon").is_none());
/// ```
pub fn for_charset(label: &[u8]) -> Option<&'static Encoding> {
    if let Some(e) = Encoding::for_label(label) {
        return Some(e);
    }
    let trimmed = label.trim_ascii();
    let mut lower = [0u8; 16];
    let n = trimmed.len();
    if n > lower.len() {
        return None;
    }
    for (d, s) in lower.iter_mut().zip(trimmed) {
        *d = s.to_ascii_lowercase();
    }
    Some(match &lower[..n] {
        b"cp936" | b"ms936" | b"936" | b"gb_2312" | b"euc-cn" | b"euccn" => encoding_rs::GBK,
        b"cp932" | b"ms932" | b"932" | b"shift-jis" | b"sjis-win" => encoding_rs::SHIFT_JIS,
        b"cp949" | b"ms949" | b"949" | b"uhc" | b"euckr" => encoding_rs::EUC_KR,
        b"cp950" | b"ms950" | b"950" | b"big-5" | b"big5-hkscs" => encoding_rs::BIG5,
        b"utf8" | b"utf_8" => encoding_rs::UTF_8,
        b"eucjp" => encoding_rs::EUC_JP,
        b"ascii" | b"ansi" | b"latin-1" | b"latin1" => encoding_rs::WINDOWS_1252,
        _ => return None,
    })
}

/// How many non-ASCII bytes the detector needs before its guess of a single-byte encoding
/// (windows-1250, KOI8-R, …) overrides FF\[4\]'s default, ISO-8859-1: with fewer, a few
/// accented letters say too little (`C[\xa3]` is `£` in ISO-8859-1, `Ł` in ISO-8859-2, and
/// chardetng leans to the latter).
pub const SURE_NON_ASCII: usize = 16;

/// Whether `encoding` is one of the multi-byte legacy encodings (GBK, GB18030, Big5, Shift_JIS,
/// EUC-JP, EUC-KR, ISO-2022-JP), whose byte sequences latin-1 text seldom happens to form.
fn is_multi_byte(encoding: &'static Encoding) -> bool {
    [
        encoding_rs::GBK,
        encoding_rs::GB18030,
        encoding_rs::BIG5,
        encoding_rs::SHIFT_JIS,
        encoding_rs::EUC_JP,
        encoding_rs::EUC_KR,
        encoding_rs::ISO_2022_JP,
    ]
    .contains(&encoding)
}

/// Whether `text` decodes in `encoding` without a malformed sequence; with `cut`, a sequence
/// left open at the end (text cut short, as [`Charset`]'s bounded sample may be) is not one.
fn decodes_cleanly(encoding: &'static Encoding, text: &[u8], cut: bool) -> bool {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let Some(room) = decoder.max_utf8_buffer_length_without_replacement(text.len()) else {
        return false;
    };
    let mut out = alloc::string::String::with_capacity(room);
    let (result, _) = decoder.decode_to_string_without_replacement(text, &mut out, !cut);
    matches!(result, encoding_rs::DecoderResult::InputEmpty)
}

/// The encoding of `text` that came without a charset (SGF without `CA`): UTF-8 when it is valid
/// UTF-8 (ASCII included), else chardetng's guess when the text gives it real evidence, else
/// FF\[4\]'s default, ISO-8859-1 (returned as `windows-1252`, see below).
///
/// The evidence: the guess is a multi-byte encoding (GBK, Big5, Shift_JIS, EUC-KR, …) in which
/// the text decodes without a malformed sequence, or the text holds at least
/// [`SURE_NON_ASCII`] non-ASCII bytes and chardetng finds its guess better than another
/// candidate.
///
/// ISO-8859-1 is returned as encoding_rs's `windows-1252` (the WHATWG Encoding Standard's
/// meaning of the label `ISO-8859-1`, also what [`for_charset`] gives for `CA[ISO-8859-1]`):
/// bytes 0xA0-0xFF decode alike in both; of 0x80-0x9F, which are C1 control characters in
/// ISO-8859-1 (and in sgfmill, which uses Python's latin-1 codec), 27 decode as the printable
/// windows-1252 characters (`€`, `‚`, `…`, `"`, …) and 0x81 0x8D 0x8F 0x90 0x9D as the C1
/// controls U+0081 U+008D U+008F U+0090 U+009D.
///
/// ```
/// use kifu::encoding::guess;
/// assert_eq!(guess(b"\xa3").name(), "windows-1252"); // `\xa3` is `£`
/// assert_eq!(guess(b"\xb3\xa3\xea\xbb\xd3\xee \xb6\xd4 \xbd\xad\xce\xac\xbd\xdc").name(), "GBK");
/// ```
pub fn guess(text: &[u8]) -> &'static Encoding {
    guess_sample(text, false)
}

/// [`guess`], for text that may be cut short (`cut`) at its end.
fn guess_sample(text: &[u8], cut: bool) -> &'static Encoding {
    if core::str::from_utf8(text).is_ok() {
        return encoding_rs::UTF_8;
    }
    let mut det = chardetng::EncodingDetector::new();
    det.feed(text, true);
    let (guessed, better) = det.guess_assess(None, true);
    if is_multi_byte(guessed) && decodes_cleanly(guessed, text, cut) {
        return guessed;
    }
    let non_ascii = text.iter().filter(|&&b| b >= 0x80).count();
    if better && non_ascii >= SURE_NON_ASCII {
        return guessed;
    }
    encoding_rs::WINDOWS_1252
}

/// `bytes` decoded with `encoding`, malformed sequences replaced by U+FFFD; borrows when the text
/// is valid UTF-8 already (for UTF-8, or ASCII in an ASCII-compatible encoding).
pub fn decode<'a>(bytes: &'a [u8], encoding: &'static Encoding) -> Cow<'a, str> {
    encoding.decode_without_bom_handling(bytes).0
}

/// Chooses the encoding of one game tree (or one file): the charset its `CA` names when that
/// decodes the text without error, else UTF-8 when the text is valid UTF-8, else a guess from
/// the text (at most the first 16 KiB of non-UTF-8 text is kept for it).
///
/// Feed it the `CA` value with [`declare`](Self::declare) and the text values with
/// [`sample`](Self::sample), then ask [`encoding`](Self::encoding).
#[derive(Clone, Debug, Default)]
pub struct Charset {
    declared: Option<&'static Encoding>,
    /// Non-UTF-8 text seen, for the guess (bounded).
    sample: alloc::vec::Vec<u8>,
    /// Some text was not valid UTF-8.
    not_utf8: bool,
    /// Some text does not decode in the declared charset.
    declared_fails: bool,
    /// The sample reached its bound: its last character may be cut short.
    sample_cut: bool,
    /// Well-formed non-ASCII UTF-8 characters, UTF-8 sequences cut short by `?`, and other
    /// malformed UTF-8 sequences, in all the text.
    utf8_chars: u64,
    utf8_cuts: u64,
    utf8_errors: u64,
}

/// Well-formed non-ASCII characters, sequences cut short by `?` and other malformed sequences
/// of `text` read as UTF-8.
fn utf8_counts(mut text: &[u8]) -> (u64, u64, u64) {
    let (mut chars, mut cuts, mut errors) = (0, 0, 0);
    let count = |s: &[u8]| s.iter().filter(|&&b| b >= 0xC0).count() as u64;
    loop {
        match core::str::from_utf8(text) {
            Ok(_) => return (chars + count(text), cuts, errors),
            Err(e) => {
                let p = e.valid_up_to();
                chars += count(&text[..p]);
                // A sequence cut short by `?` is UTF-8 that went through a lossy conversion (the
                // Fox files: bytes 0x81 0x8D 0x8F 0x90 0x9D, undefined in windows-1252, became
                // `?`): evidence for UTF-8, not against it.
                let cut_by_question_mark = matches!(text[p], 0xC2..=0xF4)
                    && e.error_len()
                        .is_some_and(|n| text.get(p + n) == Some(&b'?'));
                let mut skip = p + e.error_len().unwrap_or(text.len() - p);
                if cut_by_question_mark {
                    cuts += 1;
                    // the `?` stands for one byte of the sequence; the continuation bytes after
                    // it are the rest of the same character, not more errors
                    let len = match text[p] {
                        0xC2..=0xDF => 2,
                        0xE0..=0xEF => 3,
                        _ => 4,
                    };
                    let rest = len - (skip - p) - 1;
                    skip += 1;
                    for _ in 0..rest {
                        if text.get(skip).is_some_and(|b| (0x80..0xC0).contains(b)) {
                            skip += 1;
                        }
                    }
                } else {
                    errors += 1;
                }
                text = &text[skip..];
            }
        }
    }
}

impl Charset {
    /// Records the `CA` value (ignored when it names no known charset).
    pub fn declare(&mut self, label: &[u8]) {
        self.declared = for_charset(label);
        // text seen before `CA` counts too (`CA` need not come first in the root node)
        if let Some(d) = self.declared {
            if d == encoding_rs::UTF_8 {
                self.declared_fails = self.not_utf8;
            } else if !self.sample.is_empty() {
                let sample = core::mem::take(&mut self.sample);
                self.check_declared(d, &sample);
                self.sample = sample;
            }
        }
    }

    /// The charset `CA` named, if it named a known one.
    pub fn declared(&self) -> Option<&'static Encoding> {
        self.declared
    }

    /// Looks at some text of the game tree.
    pub fn sample(&mut self, text: &[u8]) {
        if core::str::from_utf8(text).is_ok() {
            self.utf8_chars += text.iter().filter(|&&b| b >= 0xC0).count() as u64;
            if let Some(d) = self.declared {
                // ASCII-compatible charsets read UTF-8's ASCII alike; only non-ASCII can fail
                if !text.is_ascii() && d != encoding_rs::UTF_8 {
                    self.check_declared(d, text);
                }
            }
            return;
        }
        self.not_utf8 = true;
        let (chars, cuts, errors) = utf8_counts(text);
        self.utf8_chars += chars;
        self.utf8_cuts += cuts;
        self.utf8_errors += errors;
        if let Some(d) = self.declared {
            self.check_declared(d, text);
        }
        let room = SAMPLE_MAX.saturating_sub(self.sample.len());
        if text.len() >= room {
            self.sample.extend_from_slice(&text[..room]);
            self.sample_cut = true;
        } else {
            self.sample.extend_from_slice(text);
            self.sample.push(b' ');
        }
    }

    fn check_declared(&mut self, d: &'static Encoding, text: &[u8]) {
        if d.decode_without_bom_handling_and_without_replacement(text)
            .is_none()
        {
            self.declared_fails = true;
        }
    }

    /// The encoding to decode the game tree's text with.
    ///
    /// Without `CA` (or with one that does not fit), FF\[4\] says the text is ISO-8859-1, and
    /// only real evidence overrides that:
    ///
    /// 1. text that is valid UTF-8 is UTF-8 (ASCII reads alike in both);
    /// 2. text that is mostly well-formed UTF-8 counts as damaged UTF-8, not as a legacy
    ///    encoding: at least one well-formed non-ASCII character, and at least three characters
    ///    (well-formed, or cut short by `?`) per other malformed sequence. The Fox server wrote
    ///    many files in UTF-8 with single bytes replaced by `?`;
    /// 3. else [`guess`]'s rule on the non-UTF-8 text: chardetng's guess when it is a multi-byte
    ///    encoding the text decodes in cleanly, or when there are at least
    ///    [`SURE_NON_ASCII`] non-ASCII bytes; else ISO-8859-1 (as `windows-1252`).
    pub fn encoding(&self) -> &'static Encoding {
        match self.declared {
            Some(d) if !self.declared_fails => d,
            _ if !self.not_utf8 => encoding_rs::UTF_8,
            _ if self.utf8_chars >= 1
                && self.utf8_chars + self.utf8_cuts >= 3 * self.utf8_errors =>
            {
                encoding_rs::UTF_8
            }
            _ => guess_sample(&self.sample, self.sample_cut),
        }
    }

    /// `bytes` decoded with [`encoding`](Self::encoding).
    pub fn decode<'a>(&self, bytes: &'a [u8]) -> Cow<'a, str> {
        decode(bytes, self.encoding())
    }

    /// Forgets everything (for the next game tree).
    pub fn clear(&mut self) {
        self.declared = None;
        self.sample.clear();
        self.not_utf8 = false;
        self.declared_fails = false;
        self.sample_cut = false;
        self.utf8_chars = 0;
        self.utf8_cuts = 0;
        self.utf8_errors = 0;
    }
}

#[cfg(feature = "std")]
pub use reader::Utf16Reader;

#[cfg(feature = "std")]
mod reader {
    use std::io::{self, Read};

    use encoding_rs::{CoderResult, Decoder, Encoding};

    /// How many bytes are read to decide whether the input is UTF-16.
    const HEAD: usize = 32;

    /// A [`Read`] adapter that hands out UTF-8 for UTF-16 input and passes anything else through.
    ///
    /// UTF-16 is recognised by a byte order mark (`FF FE` little endian, `FE FF` big endian), or,
    /// without one, by the text starting (after white space) with `(` or `[` next to a zero byte
    /// (`( \0` little endian, `\0 (` big endian), which no SGF or PGN file in another encoding
    /// does. The mark is dropped;
    /// unpaired surrogates become U+FFFD. A UTF-8 byte order mark is passed through (the parsers
    /// skip it).
    ///
    /// ```
    /// use std::io::Read;
    /// use kifu::encoding::Utf16Reader;
    ///
    /// let utf16: Vec<u8> = "\u{feff}(;C[碁])".encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
    /// let mut text = String::new();
    /// Utf16Reader::new(&utf16[..]).read_to_string(&mut text).unwrap();
    /// assert_eq!(text, "(;C[碁])");
    ///
    /// let mut plain = Vec::new();
    /// Utf16Reader::new(&b"(;C[x])"[..]).read_to_end(&mut plain).unwrap();
    /// assert_eq!(plain, b"(;C[x])");
    /// ```
    pub struct Utf16Reader<R> {
        inner: R,
        /// The first bytes, read to decide; handed on before anything else.
        head: [u8; HEAD],
        head_len: usize,
        decided: bool,
        decoder: Option<Decoder>,
        /// Raw bytes read from `inner`, not yet decoded.
        raw: Box<[u8]>,
        raw_start: usize,
        raw_end: usize,
        eof: bool,
        /// The decoder has flushed its last output.
        finished: bool,
        /// Decoded bytes that did not fit a caller's tiny buffer.
        pend: [u8; 4],
        pend_start: usize,
        pend_len: usize,
    }

    impl<R> core::fmt::Debug for Utf16Reader<R> {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.debug_struct("Utf16Reader")
                .field("utf16", &self.decoder.as_ref().map(|d| d.encoding().name()))
                .finish_non_exhaustive()
        }
    }

    impl<R: Read> Utf16Reader<R> {
        /// Wraps `inner`.
        pub fn new(inner: R) -> Self {
            Utf16Reader {
                inner,
                head: [0; HEAD],
                head_len: 0,
                decided: false,
                decoder: None,
                raw: Box::default(),
                raw_start: 0,
                raw_end: 0,
                eof: false,
                finished: false,
                pend: [0; 4],
                pend_start: 0,
                pend_len: 0,
            }
        }

        /// The UTF-16 flavour found (`UTF-16LE` or `UTF-16BE`), or `None` for input passed
        /// through (also before the first read).
        pub fn utf16(&self) -> Option<&'static Encoding> {
            self.decoder.as_ref().map(|d| d.encoding())
        }

        /// Gives back the wrapped reader.
        pub fn into_inner(self) -> R {
            self.inner
        }

        fn decide(&mut self) -> io::Result<()> {
            while self.head_len < HEAD {
                let n = self.inner.read(&mut self.head[self.head_len..])?;
                if n == 0 {
                    break;
                }
                self.head_len += n;
            }
            self.decided = true;
            let head = &self.head[..self.head_len];
            let found = match head {
                [0xFF, 0xFE, ..] => Some((encoding_rs::UTF_16LE, 2)),
                [0xFE, 0xFF, ..] => Some((encoding_rs::UTF_16BE, 2)),
                _ => {
                    // no mark: the first code unit that is not white space, `(` or `[` next to
                    // a zero byte
                    let unit = head.chunks_exact(2).find(|u| {
                        !matches!(
                            u,
                            [b' ' | b'\t' | b'\r' | b'\n', 0] | [0, b' ' | b'\t' | b'\r' | b'\n']
                        )
                    });
                    match unit {
                        Some([b'(' | b'[', 0]) => Some((encoding_rs::UTF_16LE, 0)),
                        Some([0, b'(' | b'[']) => Some((encoding_rs::UTF_16BE, 0)),
                        _ => None,
                    }
                }
            };
            if let Some((enc, mark)) = found {
                self.decoder = Some(enc.new_decoder_without_bom_handling());
                self.raw = vec![0; 64 * 1024].into_boxed_slice();
                let rest = &self.head[mark..self.head_len];
                self.raw[..rest.len()].copy_from_slice(rest);
                self.raw_end = rest.len();
                self.head_len = 0;
            }
            Ok(())
        }
    }

    impl<R: Read> Read for Utf16Reader<R> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if !self.decided {
                self.decide()?;
            }
            let Some(decoder) = self.decoder.as_mut() else {
                if self.head_len > 0 {
                    let n = self.head_len.min(buf.len());
                    buf[..n].copy_from_slice(&self.head[..n]);
                    self.head.copy_within(n..self.head_len, 0);
                    self.head_len -= n;
                    return Ok(n);
                }
                return self.inner.read(buf);
            };
            if self.pend_len > 0 {
                let n = self.pend_len.min(buf.len());
                buf[..n].copy_from_slice(&self.pend[self.pend_start..self.pend_start + n]);
                self.pend_start += n;
                self.pend_len -= n;
                return Ok(n);
            }
            if buf.len() < 4 {
                // the decoder needs room for a whole character: decode into `pend`
                let mut four = [0u8; 4];
                let n = self.read(&mut four)?;
                let k = n.min(buf.len());
                buf[..k].copy_from_slice(&four[..k]);
                self.pend[..n - k].copy_from_slice(&four[k..n]);
                self.pend_start = 0;
                self.pend_len = n - k;
                return Ok(k);
            }
            loop {
                if self.finished {
                    return Ok(0);
                }
                if self.raw_start == self.raw_end && !self.eof {
                    self.raw_start = 0;
                    self.raw_end = self.inner.read(&mut self.raw)?;
                    self.eof = self.raw_end == 0;
                }
                let (result, read, written, _) =
                    decoder.decode_to_utf8(&self.raw[self.raw_start..self.raw_end], buf, self.eof);
                self.raw_start += read;
                if self.eof && result == CoderResult::InputEmpty {
                    // everything decoded, a trailing odd byte or lone surrogate flushed as
                    // U+FFFD: the decoder must not be called again
                    self.finished = true;
                }
                if written > 0 || self.eof {
                    return Ok(written);
                }
                if result == CoderResult::OutputFull {
                    return Ok(written);
                }
            }
        }
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use std::io::Read;

    fn utf16(s: &str, be: bool, bom: bool) -> Vec<u8> {
        let mut units: Vec<u16> = s.encode_utf16().collect();
        if bom {
            units.insert(0, 0xFEFF);
        }
        units
            .iter()
            .flat_map(|u| if be { u.to_be_bytes() } else { u.to_le_bytes() })
            .collect()
    }

    #[test]
    fn utf16_in_every_flavour_and_chunk_size() {
        let text = "(;FF[4]CA[UTF-16]PB[柯洁]C[一二三 four])";
        for be in [false, true] {
            for bom in [false, true] {
                let bytes = utf16(text, be, bom);
                for size in [1, 2, 3, 4, 5, 7, 64] {
                    let mut r = Utf16Reader::new(&bytes[..]);
                    let mut out = Vec::new();
                    let mut buf = vec![0; size];
                    loop {
                        let n = r.read(&mut buf).unwrap();
                        if n == 0 {
                            break;
                        }
                        out.extend_from_slice(&buf[..n]);
                    }
                    assert_eq!(String::from_utf8(out).unwrap(), text, "be {be} bom {bom}");
                    assert!(r.utf16().is_some());
                }
            }
        }
    }

    #[test]
    fn broken_utf16_ends_cleanly() {
        let mut odd = utf16("(;C[x])", false, true);
        odd.push(b'!'); // an odd byte at the end
        let mut surrogate = utf16("(;C[x])", false, true);
        surrogate.extend_from_slice(&[0x00, 0xD8]); // a lone high surrogate at the end
        for input in [odd, surrogate] {
            for size in 1..=5 {
                let mut r = Utf16Reader::new(&input[..]);
                let mut out = Vec::new();
                let mut buf = vec![0; size];
                loop {
                    let n = r.read(&mut buf).unwrap();
                    if n == 0 {
                        break;
                    }
                    out.extend_from_slice(&buf[..n]);
                }
                // reading on after the end is fine too
                assert_eq!(r.read(&mut buf).unwrap(), 0);
                assert_eq!(String::from_utf8(out).unwrap(), "(;C[x])\u{FFFD}");
            }
        }
    }

    #[test]
    fn utf16_without_mark_after_white_space() {
        for be in [false, true] {
            let bytes = utf16("\r\n  (;C[x])", be, false);
            let mut out = String::new();
            let mut r = Utf16Reader::new(&bytes[..]);
            r.read_to_string(&mut out).unwrap();
            assert_eq!(out, "\r\n  (;C[x])");
            assert!(r.utf16().is_some());
        }
    }

    #[test]
    fn other_input_passes_through() {
        for input in [&b""[..], b"(", b"\xef\xbb\xbf(;)", b"[Event \"x\"]\n1. e4"] {
            let mut out = Vec::new();
            let mut r = Utf16Reader::new(input);
            r.read_to_end(&mut out).unwrap();
            assert_eq!(out, input);
            assert!(r.utf16().is_none());
        }
    }

    /// Without `CA`, FF\[4\]'s default: ISO-8859-1 (as windows-1252), as sgfmill reads it.
    #[test]
    fn no_ca_defaults_to_latin1() {
        assert_eq!(guess(b"\xa3"), encoding_rs::WINDOWS_1252);
        let mut cs = Charset::default();
        cs.sample(b"\xa3");
        assert_eq!(cs.encoding(), encoding_rs::WINDOWS_1252);
        assert_eq!(cs.decode(b"\xa3"), "\u{a3}");
        // a few accented letters of Latin-1 text
        let mut cs = Charset::default();
        cs.sample(b"Jos\xe9 Mar\xeda");
        cs.sample(b"gagn\xe9 par 3.5 points, tr\xe8s bien jou\xe9");
        assert_eq!(cs.encoding(), encoding_rs::WINDOWS_1252);
        assert_eq!(cs.decode(b"Jos\xe9"), "José");
        // a lone lead byte before `?` is no Fox damage
        let mut cs = Charset::default();
        cs.sample(b"Qu'est-ce que c'est \xe9?");
        assert_eq!(cs.encoding(), encoding_rs::WINDOWS_1252);
    }

    /// A guess of a single-byte encoding overrides the default only with enough non-ASCII text.
    #[test]
    fn no_ca_guess_needs_evidence() {
        // `Аз` in windows-1251, two bytes: too little to tell
        assert_eq!(guess(b"\xc0\xe7"), encoding_rs::WINDOWS_1252);
        // Russian in windows-1251, long enough
        let russian = "Партия сыграна в турнире претендентов, белые выиграли";
        let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(russian);
        assert!(bytes.iter().filter(|&&b| b >= 0x80).count() >= SURE_NON_ASCII);
        assert_eq!(guess(&bytes), encoding_rs::WINDOWS_1251);
        let mut cs = Charset::default();
        cs.sample(&bytes);
        assert_eq!(cs.encoding(), encoding_rs::WINDOWS_1251);
        assert_eq!(cs.decode(&bytes), russian);
    }

    /// GBK (and the other multi-byte encodings) that decodes cleanly is recognised however short.
    #[test]
    fn no_ca_gbk_still_detected() {
        let mut cs = Charset::default();
        cs.sample(b"\xb3\xa3\xea\xbb\xd3\xee \xb6\xd4 \xbd\xad\xce\xac\xbd\xdc"); // 常昊 对 江维杰
        cs.sample(b"\xb9\xc5\xc1\xa6"); // 古力
        assert_eq!(cs.encoding(), encoding_rs::GBK);
        assert_eq!(cs.decode(b"\xb9\xc5\xc1\xa6"), "古力");
        // long GBK text cut at the sample's bound in the middle of a character
        let mut cs = Charset::default();
        let long = "黑中盘胜，白方认输。".repeat(1000);
        let (gbk, _, _) = encoding_rs::GBK.encode(&long);
        cs.sample(b"x");
        cs.sample(&gbk);
        assert_eq!(cs.encoding(), encoding_rs::GBK);
        // Shift_JIS
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("本因坊秀策");
        let mut cs = Charset::default();
        cs.sample(&sjis);
        assert_eq!(cs.encoding(), encoding_rs::SHIFT_JIS);
    }

    /// The Fox server's UTF-8, a byte of some characters turned into `?`, is still UTF-8: the
    /// continuation bytes after the `?` belong to the damaged character.
    #[test]
    fn no_ca_fox_damaged_utf8_still_utf8() {
        // 人狗之爭 and ぽこぽこ with the 0x81 of each ぽ lost: `E3 ? BD`
        let mut cs = Charset::default();
        cs.sample("人狗之爭".as_bytes());
        cs.sample(b"\xe3?\xbd\xe3?\x93\xe3?\xbd\xe3?\x93");
        cs.sample("9段".as_bytes());
        assert_eq!(cs.encoding(), encoding_rs::UTF_8);
        assert_eq!(cs.decode("9段".as_bytes()), "9段");
    }

    #[test]
    fn charset_prefers_a_declared_charset_that_fits() {
        let mut cs = Charset::default();
        cs.declare(b"Shift_JIS");
        cs.sample(b"\x96\x7b\x88\xf6\x96\x56"); // 本因坊 in Shift_JIS
        assert_eq!(cs.encoding(), encoding_rs::SHIFT_JIS);
        assert_eq!(cs.decode(b"\x96\x7b\x88\xf6\x96\x56"), "本因坊");
        let mut cs = Charset::default();
        cs.declare(b"UTF-8");
        cs.sample(b"\xc4\xe3\xba\xc3 \xca\xc0\xbd\xe7"); // GBK, though CA says UTF-8
        assert_eq!(cs.encoding(), encoding_rs::GBK);
        // `CA` after the text it names
        let mut cs = Charset::default();
        cs.sample(b"\xc4\xe3\xba\xc3 \xca\xc0\xbd\xe7");
        cs.declare(b"UTF-8");
        assert_eq!(cs.encoding(), encoding_rs::GBK);
        let mut cs = Charset::default();
        cs.sample(b"\x96\x7b\x88\xf6\x96\x56");
        cs.declare(b"SJIS");
        assert_eq!(cs.encoding(), encoding_rs::SHIFT_JIS);
        let mut cs = Charset::default();
        cs.sample(b"ASCII only");
        assert_eq!(cs.encoding(), encoding_rs::UTF_8);
    }
}
