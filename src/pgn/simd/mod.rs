//! Byte searches of the hot paths, one file per job, each holding the job's scalar, SSE2 and
//! AVX2 forms side by side:
//! - [`skip`]: [`find_stop`], for the skipping scanner (`Parser::skip_fast`): the first byte
//!   of a slice that is in `SKIP_STOP`, with the line breaks before it recorded;
//! - [`tag`]: [`tag_line`], for `lexer::quick_tag`: a tag pair in the usual form,
//!   `[Name "value"]`, read from the first 64 bytes of its line at once, with where the next
//!   line starts; [`name_end`] and [`value_end`] for the other tag lines;
//! - [`comment`]: [`brace_end_32`], a `}` in a brace comment's first 32 bytes, and
//!   [`comment_stop`], the search inside a longer one;
//! - [`lanes`]: the loads, splats and byte compares they share.
//!
//! On x86_64 they classify 16 bytes at a time with SSE2 (part of the x86_64 baseline, so no
//! runtime detection is needed): no loop that exits at an unpredictable byte, which is what
//! the byte loops pay for on short tokens. Where the processor has AVX2 (detected at run time,
//! [`has_avx2`]), the skip's longer searches, the search inside a comment and the tag-line
//! reader take 32 bytes at a time instead, the tag-name bytes classified by two table lookups
//! (`vpshufb`); the parser's tag loop is compiled a second time for AVX2 so that they are
//! inlined into it: a value of an [`Isa`] type goes along the calls to say which copy they are
//! in, and the AVX2 one, [`Avx2`], can only be made where the processor has AVX2. Elsewhere,
//! and for the last bytes of a slice, scalar table loops do it. The versions are tested against
//! each other and against plain definitions (`tests.rs`), and the parser's skipping tests run
//! with and without the AVX2 code.
//!
//! The files are cut by job rather than by instruction set because a job's forms change
//! together: the SSE2 and AVX2 classifiers of one job compute the same byte set (the AVX2
//! ones are documented as "as `sse2::…`"), and share its scalar tail and the checks after the
//! masks (`tag_line_from`, `take_block`), which now sit beside them.
#![allow(unsafe_code)]

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

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod lanes;

mod comment;
mod skip;
mod tag;

pub(crate) use comment::{brace_end_32, comment_stop};
pub(crate) use skip::find_stop;
#[cfg(test)]
pub(crate) use skip::scalar;
pub(crate) use tag::{name_end, tag_line, value_end};
#[cfg(test)]
pub(crate) use tag::{name_end_scalar, value_end_scalar};

#[cfg(test)]
pub(super) mod tests;
