//! The allocator's settings for the commands that build Arrow tables on several threads.
//!
//! glibc's malloc raises its mmap threshold each time a large block it mapped is freed (up to
//! 32 MiB), so that the next batches of that size come from the threads' arenas instead, and an
//! arena gives memory back to the system from its top only. `kifu export` frees batches of a
//! few MiB on one thread that another allocated: with several threads its peak grew with the
//! input (64 → 512 MiB of PGN at `-j2`: 205 → 362 MB). A fixed trim threshold turns that
//! adjustment off and returns freed tops above 1 MiB: 177 → 240 MB (docs/figures.md, "Every
//! command in constant memory").

/// Sets glibc's trim threshold (and so a fixed mmap threshold) to 1 MiB. Call it before the
/// scan starts its threads. Elsewhere than on glibc, nothing.
pub fn for_tables() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt sets a parameter of glibc's malloc under the main arena's lock; it reads
    // and writes no memory of ours, and any value is valid for M_TRIM_THRESHOLD.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 20);
    }
}
