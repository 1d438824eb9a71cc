//! Brace comments: a `}` in the first 32 bytes ([`brace_end_32`], SSE2), and the search inside
//! a comment for its `}` or a line break ([`comment_stop`]: AVX2, or `memchr3`).

use super::Isa;

/// The index of the first `}` of `s`, when it is within the first 32 bytes and no line break
/// comes before it; `None` otherwise (including when `s` is shorter than 32 bytes).
#[inline]
pub(crate) fn brace_end_32(s: &[u8]) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        // SAFETY: `sse2::brace_end_32` needs SSE2, which this build enables (the `cfg` above).
        unsafe { sse2::brace_end_32(s) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        let _ = s;
        None
    }
}

/// The index of the first `}`, `\n` or `\r` of `s[from..]`, if any: the search inside
/// a brace comment. With [`Avx2`](super::Avx2), a loop 32 bytes at a time with no set-up:
/// comments in engine games run to a few hundred bytes, where `memchr3`'s set-up and dispatch
/// cost as much as its loop. Otherwise `memchr3` (the copies compiled for the baseline, which
/// visit every token, measured 2–10% slower on dense movetext with a check for AVX2 here).
#[inline(always)]
pub(crate) fn comment_stop<I: Isa>(isa: I, s: &[u8], from: usize) -> Option<usize> {
    let _ = isa;
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if I::AVX2 {
        // SAFETY: `avx2::comment_stop` needs AVX2, which the processor has: a value of `I`
        // exists and `I::AVX2` (see `Isa`).
        return unsafe { avx2::comment_stop(s, from) };
    }
    Some(from + memchr::memchr3(b'}', b'\n', b'\r', &s[from..])?)
}

/// The first 32 bytes of a comment with SSE2 (the x86_64 baseline).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use super::super::lanes::sse2::{eq, load};

    #[inline]
    #[target_feature(enable = "sse2")]
    pub(super) fn brace_end_32(s: &[u8]) -> Option<usize> {
        if s.len() < 32 {
            return None;
        }
        // SAFETY: `16 + 16 <= s.len()`.
        let (a, b) = unsafe { (load(s, 0), load(s, 16)) };
        let close = eq(a, b'}') | eq(b, b'}') << 16;
        let breaks = eq(a, b'\n') | eq(a, b'\r') | (eq(b, b'\n') | eq(b, b'\r')) << 16;
        let p = close.trailing_zeros();
        // (`p == 32`: no `}`; a line break before it: the searches decide)
        if p < 32 && breaks & ((1 << p) - 1) == 0 {
            Some(p as usize)
        } else {
            None
        }
    }
}

/// The search inside a comment 32 bytes at a time, for processors with AVX2 (detected at run
/// time: the x86_64 baseline has SSE2 only).
#[cfg(all(target_arch = "x86_64", feature = "std"))]
mod avx2 {
    use core::arch::x86_64::{__m256i, _mm256_cmpeq_epi8, _mm256_movemask_epi8, _mm256_or_si256};

    use super::super::lanes::avx2::{load, splat};

    /// [`super::comment_stop`], 32 bytes at a time.
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    pub(super) fn comment_stop(s: &[u8], from: usize) -> Option<usize> {
        let n = s.len();
        let mut j = from;
        let stop = |v: __m256i| {
            let m = _mm256_or_si256(
                _mm256_or_si256(
                    _mm256_cmpeq_epi8(v, splat(b'}')),
                    _mm256_cmpeq_epi8(v, splat(b'\n')),
                ),
                _mm256_cmpeq_epi8(v, splat(b'\r')),
            );
            _mm256_movemask_epi8(m) as u32
        };
        while j + 32 <= n {
            // SAFETY: `j + 32 <= s.len()`.
            let m = stop(unsafe { load(s, j) });
            if m != 0 {
                return Some(j + m.trailing_zeros() as usize);
            }
            j += 32;
        }
        if j < n && n >= 32 {
            // the last 32 bytes of `s`, those before `j` shifted out (searched above)
            let k = n - 32;
            // SAFETY: `k + 32 == s.len()`.
            let m = stop(unsafe { load(s, k) }) >> (j - k);
            return (m != 0).then(|| j + m.trailing_zeros() as usize);
        }
        Some(j + memchr::memchr3(b'}', b'\n', b'\r', &s[j..])?)
    }
}
