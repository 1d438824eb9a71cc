//! The search of the skipping scanner (`Parser::skip_fast`): the first byte of a slice that is
//! in [`SKIP_STOP`], with the line breaks before it recorded.
//!
//! On x86_64 it classifies 16 bytes at a time with SSE2 (part of the x86_64 baseline, so no
//! runtime detection is needed); elsewhere, and for the last bytes of a slice, the scalar table
//! loop does it. Both are tested against each other.
#![allow(unsafe_code)]

use super::lexer::SKIP_STOP;
use crate::position::Lines;

/// The index of the first byte of `s[from..]` in [`SKIP_STOP`], or `s.len()`. The line breaks
/// of `s[from..]` before it go into `lines`; `s[0]` is at stream offset `base`.
#[inline]
pub(crate) fn find_stop(s: &[u8], from: usize, lines: &mut Lines, base: u64) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        // SAFETY: `sse2::find_stop` needs SSE2, which this build enables (the `cfg` above).
        unsafe { sse2::find_stop(s, from, lines, base) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        scalar(s, from, lines, base)
    }
}

/// [`find_stop`] with a byte table, eight bytes at a time.
#[inline]
pub(crate) fn scalar(s: &[u8], from: usize, lines: &mut Lines, base: u64) -> usize {
    let stop = &SKIP_STOP;
    let n = s.len();
    let mut j = from;
    while j + 8 <= n {
        let c = &s[j..j + 8];
        let any = stop[c[0] as usize]
            | stop[c[1] as usize]
            | stop[c[2] as usize]
            | stop[c[3] as usize]
            | stop[c[4] as usize]
            | stop[c[5] as usize]
            | stop[c[6] as usize]
            | stop[c[7] as usize];
        if any {
            break;
        }
        j += 8;
    }
    while j < n && !stop[s[j] as usize] {
        j += 1;
    }
    lines.scan(&s[from..j], base + from as u64);
    j
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8, _mm_sub_epi8,
    };

    use crate::position::Lines;

    #[inline]
    #[target_feature(enable = "sse2")]
    fn splat(b: u8) -> __m128i {
        _mm_set1_epi8(b as i8)
    }

    /// Bit `k` set when byte `k` of `v` is in `SKIP_STOP`: `{ } ; ( ) [ ] % * -` and the lead
    /// bytes `\xC2` and `\xE2`.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn stops(v: __m128i) -> u32 {
        // `b | 0x20` folds `[`/`{`, `]`/`}` and `\xC2`/`\xE2` onto one value each
        let low = _mm_or_si128(v, splat(0x20));
        let brackets = _mm_or_si128(
            _mm_cmpeq_epi8(low, splat(b'{')),
            _mm_cmpeq_epi8(low, splat(b'}')),
        );
        let lead = _mm_cmpeq_epi8(low, splat(0xE2));
        // `(`, `)`, `*` are 0x28..=0x2A: `b - 0x28` (wrapping) is at most 2
        let d = _mm_sub_epi8(v, splat(b'('));
        let parens = _mm_cmpeq_epi8(_mm_min_epu8(d, splat(2)), d);
        let single = _mm_or_si128(
            _mm_or_si128(
                _mm_cmpeq_epi8(v, splat(b'-')),
                _mm_cmpeq_epi8(v, splat(b';')),
            ),
            _mm_cmpeq_epi8(v, splat(b'%')),
        );
        let all = _mm_or_si128(_mm_or_si128(brackets, lead), _mm_or_si128(parens, single));
        _mm_movemask_epi8(all) as u32
    }

    #[target_feature(enable = "sse2")]
    pub(super) fn find_stop(s: &[u8], from: usize, lines: &mut Lines, base: u64) -> usize {
        let n = s.len();
        let mut j = from;
        while j + 16 <= n {
            // SAFETY: `j + 16 <= s.len()`, so the 16 bytes read lie inside `s`;
            // `_mm_loadu_si128` has no alignment requirement, and SSE2 is enabled at compile
            // time (this module exists only with `target_feature = "sse2"`).
            let v = unsafe { _mm_loadu_si128(s.as_ptr().add(j).cast::<__m128i>()) };
            let stop = stops(v);
            let nl = _mm_movemask_epi8(_mm_cmpeq_epi8(v, splat(b'\n'))) as u32;
            let cr = _mm_movemask_epi8(_mm_cmpeq_epi8(v, splat(b'\r'))) as u32;
            if stop != 0 {
                let k = stop.trailing_zeros();
                let before = (1u32 << k) - 1;
                lines.brk_mask(nl & before, cr & before, base + j as u64);
                return j + k as usize;
            }
            lines.brk_mask(nl, cr, base + j as u64);
            j += 16;
        }
        super::scalar(s, j, lines, base)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// A small deterministic generator (xorshift).
    fn bytes(seed: u64, len: usize, alphabet: &[u8]) -> Vec<u8> {
        let mut x = seed | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                alphabet[(x % alphabet.len() as u64) as usize]
            })
            .collect()
    }

    /// The plain definition: first stop byte, line breaks counted one by one.
    fn reference(s: &[u8], from: usize, lines: &mut Lines, base: u64) -> usize {
        let j = (from..s.len())
            .find(|&j| SKIP_STOP[s[j] as usize])
            .unwrap_or(s.len());
        for (k, &b) in s[from..j].iter().enumerate() {
            if b == b'\n' || b == b'\r' {
                lines.brk(b, base + (from + k) as u64);
            }
        }
        j
    }

    #[test]
    fn every_byte_value_is_classified_alike() {
        for b in 0..=255u8 {
            for at in [0usize, 5, 15, 16, 17, 31, 40] {
                let mut s = [b'a'; 48];
                s[at] = b;
                let (mut a, mut r, mut c) = (Lines::default(), Lines::default(), Lines::default());
                let want = reference(&s, 0, &mut r, 3);
                assert_eq!(find_stop(&s, 0, &mut a, 3), want, "byte {b:#x} at {at}");
                assert_eq!(scalar(&s, 0, &mut c, 3), want, "byte {b:#x} at {at}");
                assert_eq!((a, c), (r, r));
            }
        }
    }

    #[test]
    fn random_text_agrees_with_the_reference() {
        let alphabets: [&[u8]; 3] = [
            b"abcNBRQKO12345678 .+x=#\n\r",
            b"aO-\n\r\r\n -*",
            b"e4 \n\r\r\n\n\n\r\r{)\xC2\xE2",
        ];
        for seed in 0..3000u64 {
            let alphabet = alphabets[(seed % 3) as usize];
            let len = (seed as usize * 7) % 200;
            let s = bytes(seed, len, alphabet);
            for from in [0, 1, 3, 16, 17].into_iter().filter(|&f| f <= len) {
                let mut start = Lines::default();
                if seed % 5 == 0 {
                    start.scan(b"\r", 99 + from as u64); // a `\r` just before `from`
                }
                let (mut a, mut r, mut c) = (start, start, start);
                let want = reference(&s, from, &mut r, 100);
                assert_eq!(find_stop(&s, from, &mut a, 100), want);
                assert_eq!(scalar(&s, from, &mut c, 100), want);
                assert_eq!((a, c), (r, r), "{s:?} from {from}");
            }
        }
    }
}
