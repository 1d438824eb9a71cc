//! Bytes read as UTF-8 text. A game record is mostly ASCII (SAN moves, `[%clk]` comments, tag
//! values), which a word-at-a-time check takes at once; `core::str::from_utf8`'s start-up is
//! most of its time on the few bytes of a move or a comment. Measured with the check below
//! against `core::str::from_utf8` alone, alternated run by run on the corpus's lichess sample 16
//! times over (16 MB, `kifu fmt -q -j1` and `kifu json -q -j1`, CPU from the children's
//! rusage): `fmt` took 0.83–0.85 of its CPU, `json` 0.88 (docs/figures.md § Finding
//! positions).

use alloc::borrow::Cow;
use alloc::string::String;

/// `bytes` as text when they are UTF-8.
#[allow(unsafe_code)]
#[inline]
pub(crate) fn str_of(bytes: &[u8]) -> Option<&str> {
    if bytes.is_ascii() {
        // SAFETY: every byte is below 0x80, and such a byte is a whole UTF-8 character: the
        // bytes are valid UTF-8.
        return Some(unsafe { core::str::from_utf8_unchecked(bytes) });
    }
    core::str::from_utf8(bytes).ok()
}

/// `bytes` as text, each sequence that is not UTF-8 replaced by U+FFFD (`String::from_utf8_lossy`);
/// borrowed when they are UTF-8.
#[inline]
pub(crate) fn lossy(bytes: &[u8]) -> Cow<'_, str> {
    match str_of(bytes) {
        Some(s) => Cow::Borrowed(s),
        None => String::from_utf8_lossy(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `str_of` answers as `core::str::from_utf8` does, and `lossy` as
    /// `String::from_utf8_lossy`: ASCII, other UTF-8, and bytes that are not UTF-8 (a lone
    /// continuation byte, a sequence cut short, an overlong form, a surrogate), at every length
    /// around a word's.
    #[test]
    fn as_the_standard_library_reads_them() {
        let pieces: [&[u8]; 9] = [
            b"",
            b"[%clk 0:03:00]",
            "Kasparov, \u{413}\u{430}\u{440}\u{440}\u{438}".as_bytes(),
            "\u{53e4}\u{529b} 9\u{6bb5}".as_bytes(),
            b"\x80",
            b"\xe5\x8f",
            b"\xc0\xaf",
            b"\xed\xa0\x80",
            b"\x7f",
        ];
        for a in pieces {
            for b in pieces {
                for pad in 0..17 {
                    let mut bytes = alloc::vec![b'x'; pad];
                    bytes.extend_from_slice(a);
                    bytes.extend_from_slice(b);
                    assert_eq!(
                        str_of(&bytes),
                        core::str::from_utf8(&bytes).ok(),
                        "{bytes:?}"
                    );
                    assert_eq!(lossy(&bytes), String::from_utf8_lossy(&bytes), "{bytes:?}");
                }
            }
        }
    }
}
