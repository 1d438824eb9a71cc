//! The vector steps every job shares: loads, splats and byte compares, 16 bytes at a time with
//! SSE2 (the x86_64 baseline) and 32 bytes at a time with AVX2 (detected at run time).

/// 16 bytes at a time (SSE2).
pub(super) mod sse2 {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };

    /// The 16 bytes of `s` from `j`.
    ///
    /// # Safety
    /// `j + 16 <= s.len()`.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(in crate::pgn::simd) unsafe fn load(s: &[u8], j: usize) -> __m128i {
        debug_assert!(j + 16 <= s.len());
        // SAFETY: the caller promises `j + 16 <= s.len()`, so the 16 bytes read lie inside
        // `s`; `_mm_loadu_si128` has no alignment requirement.
        unsafe { _mm_loadu_si128(s.as_ptr().add(j).cast::<__m128i>()) }
    }

    /// Bits of `v`'s bytes equal to `b`.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(in crate::pgn::simd) fn eq(v: __m128i, b: u8) -> u32 {
        _mm_movemask_epi8(_mm_cmpeq_epi8(v, splat(b))) as u32
    }

    #[inline]
    #[target_feature(enable = "sse2")]
    pub(in crate::pgn::simd) fn splat(b: u8) -> __m128i {
        _mm_set1_epi8(b as i8)
    }
}

/// 32 bytes at a time (AVX2).
#[cfg(feature = "std")]
pub(super) mod avx2 {
    use core::arch::x86_64::{__m256i, _mm256_loadu_si256, _mm256_set1_epi8};

    /// The 32 bytes of `s` from `j`.
    ///
    /// # Safety
    /// `j + 32 <= s.len()`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(in crate::pgn::simd) unsafe fn load(s: &[u8], j: usize) -> __m256i {
        debug_assert!(j + 32 <= s.len());
        // SAFETY: the caller promises `j + 32 <= s.len()`, so the 32 bytes read lie inside
        // `s`; `_mm256_loadu_si256` has no alignment requirement.
        unsafe { _mm256_loadu_si256(s.as_ptr().add(j).cast::<__m256i>()) }
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub(in crate::pgn::simd) fn splat(b: u8) -> __m256i {
        _mm256_set1_epi8(b as i8)
    }
}
