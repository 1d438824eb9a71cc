use core::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_cmpeq_epi8, _mm256_loadu_si256,
    _mm256_min_epu8, _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8, _mm256_setr_epi8,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_sub_epi8,
};

use crate::position::Lines;

/// The 32 bytes of `s` from `j`.
///
/// # Safety
/// `j + 32 <= s.len()`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load(s: &[u8], j: usize) -> __m256i {
    debug_assert!(j + 32 <= s.len());
    // SAFETY: the caller promises `j + 32 <= s.len()`, so the 32 bytes read lie inside
    // `s`; `_mm256_loadu_si256` has no alignment requirement.
    unsafe { _mm256_loadu_si256(s.as_ptr().add(j).cast::<__m256i>()) }
}

#[inline]
#[target_feature(enable = "avx2")]
fn splat(b: u8) -> __m256i {
    _mm256_set1_epi8(b as i8)
}

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
pub(in super::super) fn tag_line(s: &[u8]) -> Option<super::TagLine> {
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
pub(in super::super) fn not_names_for_test(v: __m256i) -> u32 {
    not_names(v)
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

/// [`super::comment_stop`], 32 bytes at a time.
#[inline(never)]
#[target_feature(enable = "avx2")]
pub(in super::super) fn comment_stop(s: &[u8], from: usize) -> Option<usize> {
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

/// [`super::find_stop`] 32 bytes at a time, going on at `j > from` (the bytes before `j`
/// were searched).
#[inline]
#[target_feature(enable = "avx2")]
pub(in super::super) fn find_stop(
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
