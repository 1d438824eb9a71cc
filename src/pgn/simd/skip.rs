//! The skip's search, for the skipping scanner (`Parser::skip_fast`): the first byte of a
//! slice that is in [`SKIP_STOP`], with the line breaks before it recorded ([`find_stop`]), in
//! its scalar, SSE2 and AVX2 forms.

use super::{AHEAD, Isa, prefetch};
use crate::pgn::lexer::SKIP_STOP;
use crate::position::Lines;

/// The index of the first byte of `s[from..]` in [`SKIP_STOP`], or `s.len()`, passing over the
/// `-` of castling (a `-` right after an `O`, both in `s[from..]`: no result has an `O`). The
/// line breaks of `s[from..]` before it go into `lines`; `s[0]` is at stream offset `base`.
///
/// With [`Baseline`](super::Baseline), AVX2 is still used for the longer searches when
/// [`has_avx2`](super::has_avx2) says so, by a call; with [`Avx2`](super::Avx2), without the
/// check.
#[inline]
pub(crate) fn find_stop<I: Isa>(
    isa: I,
    s: &[u8],
    from: usize,
    lines: &mut Lines,
    base: u64,
) -> usize {
    prefetch(s, from + AHEAD);
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        // SAFETY: `sse2::find_stop` needs SSE2, which this build enables (the `cfg` above), and
        // AVX2 when `I::AVX2`, which a value of `I` then proves (see `Isa`).
        unsafe { sse2::find_stop(isa, s, from, lines, base) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        let _ = isa;
        scalar(s, from, lines, base)
    }
}

/// One block of [`find_stop`]'s SIMD search, at `j`, from its masks (`block`: stops, `\n`s,
/// `\r`s, of up to 32 bytes; `None` when it has none of them): the index of its first stop,
/// with the line breaks before it recorded, or `None` with all of its line breaks recorded.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn take_block(
    block: Option<(u32, u32, u32)>,
    j: usize,
    lines: &mut Lines,
    base: u64,
) -> Option<usize> {
    let (stop, nl, cr) = block?;
    if stop == 0 {
        lines.brk_mask(nl, cr, base + j as u64);
        return None;
    }
    let k = stop.trailing_zeros();
    let before = (1u32 << k) - 1;
    lines.brk_mask(nl & before, cr & before, base + j as u64);
    Some(j + k as usize)
}

/// [`find_stop`] with a byte table, eight bytes at a time.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline]
pub(crate) fn scalar(s: &[u8], from: usize, lines: &mut Lines, base: u64) -> usize {
    scalar_from(s, from, from, lines, base)
}

/// [`scalar`] from `from`, for a search that started at `start <= from` (a `-` at `from` right
/// after an `O` at `from - 1 >= start` is castling).
#[inline]
fn scalar_from(s: &[u8], start: usize, from: usize, lines: &mut Lines, base: u64) -> usize {
    let stop = &SKIP_STOP;
    let n = s.len();
    let mut j = from;
    loop {
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
        if j < n && s[j] == b'-' && j > start && s[j - 1] == b'O' {
            j += 1;
            continue;
        }
        break;
    }
    lines.scan(&s[from..j], base + from as u64);
    j
}

/// The search 16 bytes at a time with SSE2 (the x86_64 baseline).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use core::arch::x86_64::{
        __m128i, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_slli_si128, _mm_sub_epi8,
    };

    use super::super::lanes::sse2::{load, splat};
    use crate::position::Lines;

    /// The bytes of `v` in `SKIP_STOP` but not `-` (0xFF, others 0): `{ } ; ( ) [ ] % *` and
    /// the lead bytes `\xC2` and `\xE2`.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn stops(v: __m128i) -> __m128i {
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
            _mm_cmpeq_epi8(v, splat(b';')),
            _mm_cmpeq_epi8(v, splat(b'%')),
        );
        _mm_or_si128(_mm_or_si128(brackets, lead), _mm_or_si128(parens, single))
    }

    /// The stop bytes of the block `v`, whose bytes are each preceded by those of `prev` (a `-`
    /// after an `O` is castling, not a stop), and its `\n`s and `\r`s, as masks; or `None`
    /// when the block has none of them (most blocks: one mask extraction only).
    #[inline]
    #[target_feature(enable = "sse2")]
    fn block(v: __m128i, prev: __m128i) -> Option<(u32, u32, u32)> {
        let dash = _mm_andnot_si128(
            _mm_cmpeq_epi8(prev, splat(b'O')),
            _mm_cmpeq_epi8(v, splat(b'-')),
        );
        let stop = _mm_or_si128(stops(v), dash);
        let nl = _mm_cmpeq_epi8(v, splat(b'\n'));
        let cr = _mm_cmpeq_epi8(v, splat(b'\r'));
        if _mm_movemask_epi8(_mm_or_si128(stop, _mm_or_si128(nl, cr))) == 0 {
            return None;
        }
        Some((
            _mm_movemask_epi8(stop) as u32,
            _mm_movemask_epi8(nl) as u32,
            _mm_movemask_epi8(cr) as u32,
        ))
    }

    #[inline]
    #[target_feature(enable = "sse2")]
    pub(super) fn find_stop<I: super::Isa>(
        _: I,
        s: &[u8],
        from: usize,
        lines: &mut Lines,
        base: u64,
    ) -> usize {
        let n = s.len();
        let mut j = from;
        if j + 16 <= n {
            // the first block: the bytes before it are not the search's (`from - 1` may be
            // an `O`, but a `-` at `from` is no castling then), so shift its own in
            // SAFETY: `j + 16 <= s.len()`.
            let v = unsafe { load(s, j) };
            let prev = _mm_slli_si128::<1>(v);
            if let Some(k) = super::take_block(block(v, prev), j, lines, base) {
                return k;
            }
            j += 16;
            // a longer search: 32 bytes at a time where the processor can (the first block
            // above serves the many short searches without a call)
            #[cfg(feature = "std")]
            if I::AVX2 || super::super::has_avx2() {
                // SAFETY: `avx2::find_stop` needs AVX2, which the processor has: a value of `I`
                // exists and `I::AVX2` (see `Isa`), or checked just above.
                return unsafe { super::avx2::find_stop(s, from, j, lines, base) };
            }
            while j + 16 <= n {
                // SAFETY: `j + 16 <= s.len()` and `j - 1 >= from >= 0`.
                let (v, prev) = unsafe { (load(s, j), load(s, j - 1)) };
                if let Some(k) = super::take_block(block(v, prev), j, lines, base) {
                    return k;
                }
                j += 16;
            }
        }
        super::scalar_from(s, from, j, lines, base)
    }
}

/// The search 32 bytes at a time, for processors with AVX2 (detected at run time: the x86_64
/// baseline has SSE2 only).
#[cfg(all(target_arch = "x86_64", feature = "std"))]
mod avx2 {
    use core::arch::x86_64::{
        __m256i, _mm256_andnot_si256, _mm256_cmpeq_epi8, _mm256_min_epu8, _mm256_movemask_epi8,
        _mm256_or_si256, _mm256_sub_epi8,
    };

    use super::super::lanes::avx2::{load, splat};
    use crate::position::Lines;

    /// As `sse2::stops`, for 32 bytes.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn stops(v: __m256i) -> __m256i {
        let low = _mm256_or_si256(v, splat(0x20));
        let brackets = _mm256_or_si256(
            _mm256_cmpeq_epi8(low, splat(b'{')),
            _mm256_cmpeq_epi8(low, splat(b'}')),
        );
        let lead = _mm256_cmpeq_epi8(low, splat(0xE2));
        let d = _mm256_sub_epi8(v, splat(b'('));
        let parens = _mm256_cmpeq_epi8(_mm256_min_epu8(d, splat(2)), d);
        let single = _mm256_or_si256(
            _mm256_cmpeq_epi8(v, splat(b';')),
            _mm256_cmpeq_epi8(v, splat(b'%')),
        );
        _mm256_or_si256(
            _mm256_or_si256(brackets, lead),
            _mm256_or_si256(parens, single),
        )
    }

    /// As `sse2::block`, for 32 bytes.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn block(v: __m256i, prev: __m256i) -> Option<(u32, u32, u32)> {
        let dash = _mm256_andnot_si256(
            _mm256_cmpeq_epi8(prev, splat(b'O')),
            _mm256_cmpeq_epi8(v, splat(b'-')),
        );
        let stop = _mm256_or_si256(stops(v), dash);
        let nl = _mm256_cmpeq_epi8(v, splat(b'\n'));
        let cr = _mm256_cmpeq_epi8(v, splat(b'\r'));
        if _mm256_movemask_epi8(_mm256_or_si256(stop, _mm256_or_si256(nl, cr))) == 0 {
            return None;
        }
        Some((
            _mm256_movemask_epi8(stop) as u32,
            _mm256_movemask_epi8(nl) as u32,
            _mm256_movemask_epi8(cr) as u32,
        ))
    }

    /// [`super::find_stop`] 32 bytes at a time, going on at `j > from` (the bytes before `j`
    /// were searched).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn find_stop(
        s: &[u8],
        from: usize,
        mut j: usize,
        lines: &mut Lines,
        base: u64,
    ) -> usize {
        debug_assert!(j > from);
        let n = s.len();
        while j + 32 <= n {
            // SAFETY: `j + 32 <= s.len()` and `j - 1 >= from >= 0`.
            let (v, prev) = unsafe { (load(s, j), load(s, j - 1)) };
            if let Some(k) = super::take_block(block(v, prev), j, lines, base) {
                return k;
            }
            j += 32;
        }
        // the rest: a search that started at `from` goes on from `j`
        super::scalar_from(s, from, j.min(n), lines, base)
    }
}
