//! The searches 16 bytes at a time with SSE2 (the x86_64 baseline): tag names and values,
//! the `}` of a short brace comment, the tag-line reader and the skip's stop search.

use core::arch::x86_64::{
    __m128i, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8,
    _mm_or_si128, _mm_set1_epi8, _mm_slli_si128, _mm_sub_epi8,
};

use crate::position::Lines;

/// The 16 bytes of `s` from `j`.
///
/// # Safety
/// `j + 16 <= s.len()`.
#[inline]
#[target_feature(enable = "sse2")]
unsafe fn load(s: &[u8], j: usize) -> __m128i {
    debug_assert!(j + 16 <= s.len());
    // SAFETY: the caller promises `j + 16 <= s.len()`, so the 16 bytes read lie inside
    // `s`; `_mm_loadu_si128` has no alignment requirement.
    unsafe { _mm_loadu_si128(s.as_ptr().add(j).cast::<__m128i>()) }
}

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

/// Bits of `v`'s bytes equal to `b`.
#[inline]
#[target_feature(enable = "sse2")]
fn eq(v: __m128i, b: u8) -> u32 {
    _mm_movemask_epi8(_mm_cmpeq_epi8(v, splat(b))) as u32
}

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

#[inline]
#[target_feature(enable = "sse2")]
fn splat(b: u8) -> __m128i {
    _mm_set1_epi8(b as i8)
}

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
        if I::AVX2 || super::has_avx2() {
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
