//! Tag lines, for `lexer::quick_tag`: a tag pair in the usual form, `[Name "value"]`, read
//! from the first 64 bytes of its line at once, with where the next line starts ([`tag_line`]);
//! and the searches that read the other tag lines, the end of a name ([`name_end`]) and of a
//! value ([`value_end`]). Each in its scalar, SSE2 and AVX2 forms.

use super::Isa;
use crate::pgn::lexer::{VALUE_STOP, is_name_byte};

/// The index of the first byte of `s[from..]` that may not appear in a tag name
/// ([`is_name_byte`]), or `s.len()`.
#[inline]
pub(crate) fn name_end(s: &[u8], from: usize) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        // SAFETY: `sse2::name_end` needs SSE2, which this build enables (the `cfg` above).
        unsafe { sse2::name_end(s, from) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        name_end_scalar(s, from)
    }
}

/// [`name_end`], one byte at a time.
#[inline]
pub(crate) fn name_end_scalar(s: &[u8], from: usize) -> usize {
    let mut j = from;
    while j < s.len() && is_name_byte(s[j]) {
        j += 1;
    }
    j
}

/// The index of the first byte of `s[from..]` that ends the quick scan of a tag value (`"`,
/// `\\`, `\n`, `\r`: [`VALUE_STOP`]), or `s.len()`.
#[inline]
pub(crate) fn value_end(s: &[u8], from: usize) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        // SAFETY: `sse2::value_end` needs SSE2, which this build enables (the `cfg` above).
        unsafe { sse2::value_end(s, from) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        value_end_scalar(s, from)
    }
}

/// [`value_end`], one byte at a time.
#[inline]
pub(crate) fn value_end_scalar(s: &[u8], from: usize) -> usize {
    let mut j = from;
    while j < s.len() && !VALUE_STOP[s[j] as usize] {
        j += 1;
    }
    j
}

/// A tag pair in the usual form, found by [`tag_line`]; offsets from the `[`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TagLine {
    /// The space after the name.
    pub(crate) space: usize,
    /// The closing quote.
    pub(crate) quote: usize,
    /// The value is known to be ASCII (`false`: not looked at).
    pub(crate) ascii: bool,
    /// The start of the next line when the pair's `]` ends its line (`\n` or `\r\n` right
    /// after it), else 0.
    pub(crate) next: usize,
}

/// The usual form of a tag pair, `[Name "value"]` with the name starting at `s[1]` (a letter,
/// which the caller checks), found from the first 64 bytes of `s` at once. `None` when those
/// bytes do not hold the whole pair in that form (or `s` is shorter); `lexer::quick_tag` then
/// reads it by the searches above.
///
/// All loads are from fixed offsets of `s`, and the start of the next line is found from the
/// line breaks alone: no load waits for the end of the name or of the value, so the chain of
/// dependent steps from one tag line to the next is short, and the checks of the pair are
/// predicted branches beside it.
///
/// With [`Avx2`](super::Avx2) it reads 32 bytes at a time, and is inlined into the parser's
/// tag loop compiled for AVX2.
#[inline(always)]
pub(crate) fn tag_line<I: Isa>(_: I, s: &[u8]) -> Option<TagLine> {
    debug_assert!(s.first() == Some(&b'['));
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if I::AVX2 {
        // SAFETY: `avx2::tag_line` needs AVX2, which the processor has: a value of `I` exists,
        // and `I::AVX2` (see `Isa`).
        return unsafe { avx2::tag_line(s) };
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        // SAFETY: `sse2::tag_line` needs SSE2, which this build enables (the `cfg` above).
        unsafe { sse2::tag_line(s) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        let _ = s;
        None
    }
}

/// The checks of [`tag_line`] once its SIMD versions have the masks of the 64 bytes: `nl`,
/// the `\n`s; `stop`, the bytes that end a tag value (`"`, `\\`, `\n`, `\r`); `other`, the
/// bytes after `s[1]` that may not be in a tag name, in as many bytes as the version classified
/// (a name running past them takes the searches); `ascii`, no byte of the 64 is above 0x7F.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn tag_line_from(s: &[u8], nl: u64, stop: u64, other: u64, ascii: bool) -> Option<TagLine> {
    // the name: from `s[1]` to the first other byte
    let other = other & !3;
    if other == 0 {
        return None;
    }
    let j = other.trailing_zeros() as usize;
    // `j <= 31`, so `s[j + 1]` is in the 64 bytes
    if s[j] != b' ' || s[j + 1] != b'"' {
        return None;
    }
    let q = (stop & !((2u64 << (j + 1)) - 1)).trailing_zeros() as usize;
    if q >= 62 || s[q] != b'"' || s[q + 1] != b']' {
        return None; // no quote, or one not closing the pair, in the 64 bytes
    }
    // the next line starts after the first `\n`, found from the `\n`s alone (none before the
    // closing quote: the value search stops at one); 0 when there is none in the 64 bytes
    let next = if nl == 0 {
        0
    } else {
        nl.trailing_zeros() as usize + 1
    };
    Some(TagLine {
        space: j,
        quote: q,
        // (a byte above 0x7F anywhere in the 64 bytes: the caller looks at the value)
        ascii,
        next: if next == q + 3 || next == q + 4 && s[q + 2] == b'\r' {
            next
        } else {
            0
        },
    })
}

/// The tag-line searches 16 bytes at a time with SSE2 (the x86_64 baseline).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_sub_epi8,
    };

    use super::super::lanes::sse2::{eq, load, splat};

    /// Bit `k` set when byte `k` of `v` may appear in a tag name: ASCII letters and digits and
    /// `_ + # = : -`.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn names(v: __m128i) -> u32 {
        // letters: `(b | 0x20) - b'a'` (wrapping) is at most 25
        let l = _mm_sub_epi8(_mm_or_si128(v, splat(0x20)), splat(b'a'));
        let letters = _mm_cmpeq_epi8(_mm_min_epu8(l, splat(25)), l);
        // digits and `:` (0x30..=0x3A)
        let d = _mm_sub_epi8(v, splat(b'0'));
        let digits = _mm_cmpeq_epi8(_mm_min_epu8(d, splat(10)), d);
        let others = _mm_or_si128(
            _mm_or_si128(
                _mm_cmpeq_epi8(v, splat(b'_')),
                _mm_cmpeq_epi8(v, splat(b'+')),
            ),
            _mm_or_si128(
                _mm_or_si128(
                    _mm_cmpeq_epi8(v, splat(b'#')),
                    _mm_cmpeq_epi8(v, splat(b'=')),
                ),
                _mm_cmpeq_epi8(v, splat(b'-')),
            ),
        );
        _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(letters, digits), others)) as u32
    }

    #[inline]
    #[target_feature(enable = "sse2")]
    pub(super) fn name_end(s: &[u8], from: usize) -> usize {
        let mut j = from;
        while j + 16 <= s.len() {
            // SAFETY: `j + 16 <= s.len()`.
            let other = !names(unsafe { load(s, j) }) & 0xFFFF;
            if other != 0 {
                return j + other.trailing_zeros() as usize;
            }
            j += 16;
        }
        super::name_end_scalar(s, j)
    }

    #[inline]
    #[target_feature(enable = "sse2")]
    pub(super) fn value_end(s: &[u8], from: usize) -> usize {
        let mut j = from;
        while j + 16 <= s.len() {
            // SAFETY: `j + 16 <= s.len()`.
            let m = value_stops(unsafe { load(s, j) });
            if m != 0 {
                return j + m.trailing_zeros() as usize;
            }
            j += 16;
        }
        super::value_end_scalar(s, j)
    }

    /// Bit `k` set when byte `k` of `v` is in `VALUE_STOP`.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn value_stops(v: __m128i) -> u32 {
        let stop = _mm_or_si128(
            _mm_or_si128(
                _mm_cmpeq_epi8(v, splat(b'"')),
                _mm_cmpeq_epi8(v, splat(b'\\')),
            ),
            _mm_or_si128(
                _mm_cmpeq_epi8(v, splat(b'\n')),
                _mm_cmpeq_epi8(v, splat(b'\r')),
            ),
        );
        _mm_movemask_epi8(stop) as u32
    }

    /// Bits of the 64 bytes of `v` equal to `b`.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn eq4(v: &[__m128i; 4], b: u8) -> u64 {
        u64::from(eq(v[0], b))
            | u64::from(eq(v[1], b)) << 16
            | u64::from(eq(v[2], b)) << 32
            | u64::from(eq(v[3], b)) << 48
    }

    #[inline]
    #[target_feature(enable = "sse2")]
    pub(super) fn tag_line(s: &[u8]) -> Option<super::TagLine> {
        if s.len() < 64 {
            return None;
        }
        // SAFETY: `48 + 16 <= s.len()`.
        let v = unsafe { [load(s, 0), load(s, 16), load(s, 32), load(s, 48)] };
        // one mask extraction per block and kind (they are the costly step); single bytes at
        // known places are read directly
        let stop = u64::from(value_stops(v[0]))
            | u64::from(value_stops(v[1])) << 16
            | u64::from(value_stops(v[2])) << 32
            | u64::from(value_stops(v[3])) << 48;
        let any = _mm_or_si128(_mm_or_si128(v[0], v[1]), _mm_or_si128(v[2], v[3]));
        super::tag_line_from(
            s,
            eq4(&v, b'\n'),
            stop,
            u64::from(!names(v[0]) & 0xFFFF),
            _mm_movemask_epi8(any) == 0,
        )
    }
}

/// The tag-line reader 32 bytes at a time, for processors with AVX2 (detected at run time:
/// the x86_64 baseline has SSE2 only).
#[cfg(all(target_arch = "x86_64", feature = "std"))]
pub(super) mod avx2 {
    use core::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_movemask_epi8, _mm256_or_si256,
        _mm256_setr_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16,
    };

    use super::super::lanes::avx2::{load, splat};

    /// Bit `k` set when byte `k` of `v` may not appear in a tag name (the complement of
    /// `sse2::names`): by two table lookups, one on each half of the byte. Each high half
    /// that has name bytes gets a bit (4 and 6, the letters `A`-`O` and `a`-`o`, share one),
    /// and the low table holds, for each low half, the bits of the high halves it makes a
    /// name byte with.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn not_names(v: __m256i) -> u32 {
        // high halves: 2 (`# + -`), 3 (digits, `:`, `=`), 4 and 6, 5 (`P`-`Z`, `_`), 7
        const H2: i8 = 1;
        const H3: i8 = 2;
        const H46: i8 = 4;
        const H5: i8 = 8;
        const H7: i8 = 16;
        const DIGITS: i8 = H3 | H5 | H7 | H46; // low halves 1..=9 (0 has no H46: `@`, `` ` ``)
        #[rustfmt::skip]
        let low = _mm256_setr_epi8(
            H3 | H5 | H7, DIGITS, DIGITS, DIGITS | H2, DIGITS, DIGITS, DIGITS, DIGITS,
            DIGITS, DIGITS, H3 | H5 | H7 | H46, H2 | H46, H46, H2 | H3 | H46, H46, H5 | H46,
            H3 | H5 | H7, DIGITS, DIGITS, DIGITS | H2, DIGITS, DIGITS, DIGITS, DIGITS,
            DIGITS, DIGITS, H3 | H5 | H7 | H46, H2 | H46, H46, H2 | H3 | H46, H46, H5 | H46,
        );
        #[rustfmt::skip]
        let high = _mm256_setr_epi8(
            0, 0, H2, H3, H46, H5, H46, H7, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, H2, H3, H46, H5, H46, H7, 0, 0, 0, 0, 0, 0, 0, 0,
        );
        let nibble = splat(0x0F);
        let lo = _mm256_shuffle_epi8(low, _mm256_and_si256(v, nibble));
        let hi = _mm256_shuffle_epi8(high, _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble));
        let member = _mm256_and_si256(lo, hi);
        _mm256_movemask_epi8(_mm256_cmpeq_epi8(member, _mm256_setzero_si256())) as u32
    }

    /// Bits of `v`'s bytes that end the quick scan of a tag value (`"`, `\\`, `\n`, `\r`).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn value_stops(v: __m256i) -> u32 {
        _mm256_movemask_epi8(_mm256_or_si256(
            _mm256_or_si256(
                _mm256_cmpeq_epi8(v, splat(b'"')),
                _mm256_cmpeq_epi8(v, splat(b'\\')),
            ),
            _mm256_or_si256(
                _mm256_cmpeq_epi8(v, splat(b'\n')),
                _mm256_cmpeq_epi8(v, splat(b'\r')),
            ),
        )) as u32
    }

    /// [`super::tag_line`] (the same checks as `sse2::tag_line`, on two 32-byte loads).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(in crate::pgn) fn tag_line(s: &[u8]) -> Option<super::TagLine> {
        if s.len() < 64 {
            return None;
        }
        // SAFETY: `32 + 32 <= s.len()`.
        let (a, b) = unsafe { (load(s, 0), load(s, 32)) };
        let nl = u64::from(_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, splat(b'\n'))) as u32)
            | u64::from(_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, splat(b'\n'))) as u32) << 32;
        let stop = u64::from(value_stops(a)) | u64::from(value_stops(b)) << 32;
        super::tag_line_from(
            s,
            nl,
            stop,
            u64::from(not_names(a)),
            _mm256_movemask_epi8(_mm256_or_si256(a, b)) == 0,
        )
    }

    /// [`not_names`], for the tests.
    #[cfg(test)]
    #[target_feature(enable = "avx2")]
    pub(in crate::pgn) fn not_names_for_test(v: __m256i) -> u32 {
        not_names(v)
    }
}
