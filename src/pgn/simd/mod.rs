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
mod sse2;

/// [`find_stop`] 32 bytes at a time, for processors with AVX2 (detected at run time: the
/// x86_64 baseline has SSE2 only).
#[cfg(all(target_arch = "x86_64", feature = "std"))]
mod avx2;

#[cfg(test)]
pub(super) mod tests;
