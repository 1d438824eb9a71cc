//! Byte searches of the hot paths:
//! - [`find_stop`], for the skipping scanner (`Parser::skip_fast`): the first byte of a slice
//!   that is in [`SKIP_STOP`], with the line breaks before it recorded;
//! - [`tag_line`], for `lexer::quick_tag`: a tag pair in the usual form, `[Name "value"]`,
//!   read from the first 64 bytes of its line at once, with where the next line starts;
//!   [`name_end`] and [`value_end`] for the other tag lines;
//! - [`brace_end_32`], for brace comments: a `}` in the first 32 bytes.
//!
//! On x86_64 they classify 16 bytes at a time with SSE2 (part of the x86_64 baseline, so no
//! runtime detection is needed): no loop that exits at an unpredictable byte, which is what
//! the byte loops pay for on short tokens. Where the processor has AVX2 (detected at run time,
//! [`has_avx2`]), the skip's longer searches and the tag-line reader take 32 bytes at a time
//! instead, the tag-name bytes classified by two table lookups (`vpshufb`); the parser's tag
//! loop is compiled a second time for AVX2 so that they are inlined into it: a value of an
//! [`Isa`] type goes along the calls to say which copy they are in, and the AVX2 one,
//! [`Avx2`], can only be made where the processor has AVX2. Elsewhere, and for the last bytes
//! of a slice,
//! scalar table loops do it. The versions are tested against each other and against plain
//! definitions, and the parser's skipping tests run with and without the AVX2 code.
#![allow(unsafe_code)]

use super::lexer::{SKIP_STOP, VALUE_STOP, is_name_byte};
use crate::position::Lines;

/// How far ahead of the scan [`prefetch`] asks for the input: one page, so that the next page
/// is loaded (and its address translated) before the scan gets there. The hardware prefetchers
/// do not cross pages, and the scans stall on every new page without this.
pub(crate) const AHEAD: usize = 4096;

/// Asks for the cache line holding `s[at]` to be loaded, when `at` is inside `s`: a hint, with
/// no effect on the results.
#[inline]
pub(crate) fn prefetch(s: &[u8], at: usize) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse"))]
    if at < s.len() {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: `at < s.len()`, so the pointer is inside `s`; a prefetch reads nothing into
        // the program and never faults.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(s.as_ptr().add(at).cast::<i8>()) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse")))]
    let _ = (s, at);
}

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

/// Whether the processor has AVX2 (known at run time: the x86_64 baseline has SSE2 only).
#[inline]
#[cfg_attr(not(all(target_arch = "x86_64", feature = "std")), allow(dead_code))]
pub(crate) fn has_avx2() -> bool {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    {
        #[cfg(test)]
        if tests::BASELINE.get() {
            return false;
        }
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(all(target_arch = "x86_64", feature = "std")))]
    {
        false
    }
}

/// The instruction set a copy of the hot code is compiled for: a value of the type is passed
/// along the calls of that copy, and its `AVX2` says whether they may use AVX2.
///
/// # Safety
/// `AVX2` may be `true` only for a type whose values exist only where the processor has AVX2
/// ([`Avx2`]).
pub(crate) unsafe trait Isa: Copy {
    /// The processor has AVX2.
    #[cfg_attr(not(all(target_arch = "x86_64", feature = "std")), allow(dead_code))]
    const AVX2: bool;
}

/// The baseline: SSE2 on x86_64 (AVX2 still used by a call where [`has_avx2`] says so), the
/// scalar code elsewhere.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Baseline;

// SAFETY: `AVX2` is false.
unsafe impl Isa for Baseline {
    const AVX2: bool = false;
}

/// Proof that the processor has AVX2: made only by [`Avx2::detect`] (its field is private to
/// this module).
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(all(target_arch = "x86_64", feature = "std")), allow(dead_code))]
pub(crate) struct Avx2(());

#[cfg_attr(not(all(target_arch = "x86_64", feature = "std")), allow(dead_code))]
impl Avx2 {
    /// `Some` when the processor has AVX2.
    #[inline]
    pub(crate) fn detect() -> Option<Avx2> {
        has_avx2().then_some(Avx2(()))
    }
}

// SAFETY: a value of `Avx2` exists only where `detect` found AVX2.
unsafe impl Isa for Avx2 {
    const AVX2: bool = true;
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
/// With [`Avx2`] it reads 32 bytes at a time, and is inlined into the parser's tag loop
/// compiled for AVX2.
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
/// a brace comment. With [`Avx2`], a loop 32 bytes at a time with no set-up: comments in
/// engine games run to a few hundred bytes, where `memchr3`'s set-up and dispatch cost as much
/// as its loop. Otherwise `memchr3` (the copies compiled for the baseline, which visit every
/// token, measured 2–10% slower on dense movetext with a check for AVX2 here).
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

/// [`value_end`], one byte at a time.
#[inline]
pub(crate) fn value_end_scalar(s: &[u8], from: usize) -> usize {
    let mut j = from;
    while j < s.len() && !VALUE_STOP[s[j] as usize] {
        j += 1;
    }
    j
}

/// The index of the first byte of `s[from..]` in [`SKIP_STOP`], or `s.len()`, passing over the
/// `-` of castling (a `-` right after an `O`, both in `s[from..]`: no result has an `O`). The
/// line breaks of `s[from..]` before it go into `lines`; `s[0]` is at stream offset `base`.
///
/// With [`Baseline`], AVX2 is still used for the longer searches when [`has_avx2`] says so,
/// by a call; with [`Avx2`], without the check.
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

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use core::arch::x86_64::{
        __m128i, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8,
        _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_slli_si128, _mm_sub_epi8,
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
}

/// [`find_stop`] 32 bytes at a time, for processors with AVX2 (detected at run time: the
/// x86_64 baseline has SSE2 only).
#[cfg(all(target_arch = "x86_64", feature = "std"))]
mod avx2 {
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
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    std::thread_local! {
        /// Makes [`has_avx2`] say no on this thread, so that the tests run the baseline code
        /// too on processors with AVX2.
        pub(in crate::pgn) static BASELINE: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
    }

    /// Whether this build has the SIMD versions (else the scalar code answers, and the quick
    /// tag-line reader and brace search always leave it to the searches).
    const SIMD: bool = cfg!(all(target_arch = "x86_64", target_feature = "sse2"));

    /// Runs `f` with the code for AVX2 (where the processor has it) and without.
    fn both(mut f: impl FnMut()) {
        f();
        #[cfg(all(target_arch = "x86_64", feature = "std"))]
        {
            BASELINE.set(true);
            f();
            BASELINE.set(false);
        }
    }

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
        let castling = |j: usize| s[j] == b'-' && j > from && s[j - 1] == b'O';
        let j = (from..s.len())
            .find(|&j| SKIP_STOP[s[j] as usize] && !castling(j))
            .unwrap_or(s.len());
        for (k, &b) in s[from..j].iter().enumerate() {
            if b == b'\n' || b == b'\r' {
                lines.brk(b, base + (from + k) as u64);
            }
        }
        j
    }

    #[test]
    fn tag_scans_classify_every_byte_alike() {
        for b in 0..=255u8 {
            for at in [0usize, 5, 15, 16, 17, 31, 40] {
                for fill in [b'a', b'Z', b'0', b' '] {
                    let mut s = [fill; 48];
                    s[at] = b;
                    for from in [0, 1, 16] {
                        let name = (from..48).find(|&j| !is_name_byte(s[j])).unwrap_or(48);
                        assert_eq!(name_end(&s, from), name, "{b:#x} at {at} in {fill}");
                        assert_eq!(name_end_scalar(&s, from), name);
                        let value = (from..48)
                            .find(|&j| VALUE_STOP[s[j] as usize])
                            .unwrap_or(48);
                        assert_eq!(value_end(&s, from), value, "{b:#x} at {at} in {fill}");
                        assert_eq!(value_end_scalar(&s, from), value);
                    }
                }
            }
        }
    }

    #[test]
    fn every_byte_value_is_classified_alike() {
        both(every_byte_value_is_classified_alike_once);
    }

    fn every_byte_value_is_classified_alike_once() {
        for b in 0..=255u8 {
            for at in [0usize, 5, 15, 16, 17, 31, 32, 40] {
                // `O` before the byte makes a `-` castling, unless the search starts at it
                for fill in [b'a', b'O'] {
                    for from in [0, 1, 16, at] {
                        let mut s = [fill; 48];
                        s[at] = b;
                        let (mut a, mut r) = (Lines::default(), Lines::default());
                        let mut c = a;
                        let want = reference(&s, from, &mut r, 3);
                        let got = find_stop(Baseline, &s, from, &mut a, 3);
                        assert_eq!(got, want, "{b:#x} at {at} in {fill} from {from}");
                        assert_eq!(scalar(&s, from, &mut c, 3), want);
                        assert_eq!((a, c), (r, r));
                    }
                }
            }
        }
    }

    #[test]
    fn random_text_agrees_with_the_reference() {
        both(random_text_agrees_with_the_reference_once);
    }

    fn random_text_agrees_with_the_reference_once() {
        let alphabets: [&[u8]; 4] = [
            b"abcNBRQKO12345678 .+x=#\n\r",
            b"aO-\n\r\r\n -*",
            b"O-O-O 1-0 -O",
            b"e4 \n\r\r\n\n\n\r\r{)\xC2\xE2",
        ];
        for seed in 0..3000u64 {
            let alphabet = alphabets[(seed % 4) as usize];
            let len = (seed as usize * 7) % 200;
            let s = bytes(seed, len, alphabet);
            for from in [0, 1, 3, 16, 17].into_iter().filter(|&f| f <= len) {
                let mut start = Lines::default();
                if seed % 5 == 0 {
                    start.scan(b"\r", 99 + from as u64); // a `\r` just before `from`
                }
                let (mut a, mut r, mut c) = (start, start, start);
                let want = reference(&s, from, &mut r, 100);
                assert_eq!(find_stop(Baseline, &s, from, &mut a, 100), want);
                assert_eq!(scalar(&s, from, &mut c, 100), want);
                assert_eq!((a, c), (r, r), "{s:?} from {from}");
            }
        }
    }

    #[test]
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    fn avx2_name_table_is_is_name_byte() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        for b in 0..=255u8 {
            let s = [b; 64];
            // SAFETY: the processor has AVX2 (checked above); `s` has 32 bytes to load.
            let got = unsafe {
                let v = core::arch::x86_64::_mm256_loadu_si256(s.as_ptr().cast());
                avx2::not_names_for_test(v)
            };
            let want = if is_name_byte(b) { 0 } else { u32::MAX };
            assert_eq!(got, want, "{b:#x}");
        }
    }

    /// A tag line, more or less well formed, and bytes after it.
    pub(in crate::pgn) fn tag_like(seed: u64) -> Vec<u8> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        let mut s = Vec::new();
        s.push(b'[');
        let name_len = [1, 3, 5, 8, 14, 15, 16, 17, 30, 31, 32, 40][next(12) as usize];
        let name_bytes: &[u8] = if next(6) == 0 {
            b"Ab1_+#=:-x y]\""
        } else {
            b"WhiteEloBlackSite"
        };
        for _ in 0..name_len {
            s.push(name_bytes[next(name_bytes.len() as u64) as usize]);
        }
        let sep = next(10).saturating_sub(5) as usize; // mostly the usual form
        s.extend_from_slice([&b" \""[..], b"  \"", b"\t\"", b"\"", b" x"][sep]);
        let value_len = [0, 1, 5, 12, 20, 30, 40, 44, 45, 46, 47, 55, 60, 70][next(14) as usize];
        let value_bytes: &[u8] = match next(6) {
            0 => b"ab\\\"]\n\r \xC3\xA9",
            1 => b"ab ]\xE2\x80\x93",
            _ => b"Kasparov, Garry 2001.05.?",
        };
        for _ in 0..value_len {
            s.push(value_bytes[next(value_bytes.len() as u64) as usize]);
        }
        let close = next(8).saturating_sub(4) as usize;
        s.extend_from_slice([&b"\"]"[..], b"\" ]", b"\"", b"]"][close.min(3)]);
        s.extend_from_slice(
            [&b"\n["[..], b"\r\n[", b"\n\n", b" \n", b"\r[", b"\r", b""][next(7) as usize],
        );
        let pad = [0, 10, 64, 64, 80][next(5) as usize];
        for _ in 0..pad {
            s.push(b"[\"] \nab"[next(7) as usize]);
        }
        s
    }

    #[test]
    fn tag_line_agrees_with_the_searches() {
        let mut taken = 0;
        for seed in 0..60_000u64 {
            let s = tag_like(seed);
            // the plain reading of the usual form
            let j = name_end_scalar(&s, 2);
            let want = (s.len() > 1 && s[1].is_ascii_alphabetic() && j + 1 < s.len())
                .then_some(j)
                .filter(|&j| s[j] == b' ' && s[j + 1] == b'"')
                .and_then(|j| {
                    let q = value_end_scalar(&s, j + 2);
                    (q + 1 < s.len() && s[q] == b'"' && s[q + 1] == b']').then_some((j, q))
                });
            for avx2 in [false, true] {
                if avx2 && !has_avx2() {
                    continue;
                }
                if s.len() < 2 || !s[1].is_ascii_alphabetic() {
                    continue;
                }
                let got = match Avx2::detect() {
                    Some(isa) if avx2 => tag_line(isa, &s),
                    _ => tag_line(Baseline, &s),
                };
                let Some(t) = got else {
                    // only lines beyond the 64 bytes, or a name beyond the first block, go to
                    // the searches (all of them where there is no SIMD code)
                    if let Some((j, q)) = want.filter(|_| SIMD) {
                        assert!(
                            s.len() < 64 || q >= 62 || j >= if avx2 { 32 } else { 16 },
                            "{s:?}"
                        );
                    }
                    continue;
                };
                taken += 1;
                assert_eq!(Some((t.space, t.quote)), want, "{s:?}");
                let value = &s[t.space + 2..t.quote];
                assert!(!t.ascii || value.is_ascii(), "{s:?}");
                let q = t.quote;
                let next = if s[q + 2] == b'\n' {
                    q + 3
                } else if q + 3 < 64 && s[q + 2] == b'\r' && s[q + 3] == b'\n' {
                    q + 4
                } else {
                    0
                };
                assert_eq!(t.next, next, "{s:?}");
            }
        }
        assert!(taken > 5_000 || !SIMD, "{taken}");
    }

    #[test]
    fn brace_end_agrees_with_a_search() {
        let alphabet = b"ab }{\n\r[";
        for seed in 0..20_000u64 {
            let s = bytes(seed, (seed as usize * 3) % 70, alphabet);
            let want = s
                .iter()
                .position(|&b| b == b'}' || b == b'\n' || b == b'\r');
            let got = brace_end_32(&s);
            match got {
                Some(p) => assert_eq!((Some(p), s[p]), (want, b'}'), "{s:?}"),
                None => assert!(
                    !SIMD || s.len() < 32 || want.is_none_or(|p| p >= 32 || s[p] != b'}'),
                    "{s:?}"
                ),
            }
        }
    }

    #[test]
    fn comment_stop_agrees_with_a_search() {
        let alphabet = b"ab }{\n\r[xyz";
        for seed in 0..20_000u64 {
            // long runs without a stop too, so that the 32-byte loop and its tail both serve
            let len = (seed as usize * 7) % 200;
            let s = if seed % 3 == 0 {
                let mut s = alloc::vec![b'x'; len];
                if len > 0 {
                    s[(seed as usize / 3) % len] = alphabet[(seed as usize / 7) % alphabet.len()];
                }
                s
            } else {
                bytes(seed, len, alphabet)
            };
            for from in 0..=s.len() {
                let want = s[from..]
                    .iter()
                    .position(|&b| b == b'}' || b == b'\n' || b == b'\r')
                    .map(|p| from + p);
                assert_eq!(comment_stop(Baseline, &s, from), want, "{s:?} {from}");
                #[cfg(all(target_arch = "x86_64", feature = "std"))]
                if let Some(isa) = Avx2::detect() {
                    assert_eq!(comment_stop(isa, &s, from), want, "{s:?} {from}");
                }
            }
        }
    }
}
