//! The allocator's settings for the commands that build Arrow tables on several threads, and
//! for the blocks of the commands' outputs (`crate::bufs`).
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
///
/// `positions`: the positions tables also fix the mmap threshold at 8 MiB (not glibc's 128 KiB
/// once the trim threshold is set). Their batches are many rows of a few hundred bytes, whose
/// builders' buffers of a few MiB were each a fresh mapping, faulted in page by page: the
/// kernel's time was a third of the chess export at `-j2` (12.4 of 47 CPU seconds on 512 MiB
/// of PGN, 1.7 after) and half of the Go one at `-j1` (0.78 of 1.7 s). The peak grows by about
/// 40 MiB (183 → 228 MiB at `-j2`), and stays flat in the input; the `games` table, whose
/// peak it raised by 30–45 MiB for little time, keeps the default. They also keep 16 MiB at the
/// top of an arena when it shrinks or grows (`M_TOP_PAD`): a batch freed by the writer is
/// given back above the trim threshold and the next one, a few MiB of boards, faulted in again
/// page by page: the kernel's time of a Go export at `-j1` (1.0 M positions, `--columns
/// game_index,ply,board,policy`) went from about 0.1 to 0.03 CPU s of 0.4, its peak by a few
/// MiB (54 → 58–61 MiB; at `-j2`, every column, 186–190 → 193–215 MiB).
pub fn for_tables(positions: bool) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt sets a parameter of glibc's malloc under the main arena's lock; it reads
    // and writes no memory of ours, and any value is valid for M_TRIM_THRESHOLD, for M_TOP_PAD
    // and for M_MMAP_THRESHOLD up to its maximum (32 MiB on 64-bit: 8 MiB is below it).
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 20);
        if positions {
            libc::mallopt(libc::M_MMAP_THRESHOLD, 8 << 20);
            libc::mallopt(libc::M_TOP_PAD, 16 << 20);
        }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = positions;
}

/// Fixes glibc's mmap threshold at `block` bytes, the size of the output blocks
/// (`crate::bufs::BLOCK`): each block is then a mapping of its own, whatever was freed before.
/// Left to adjust itself, the threshold rose past the block size as soon as a larger mapping
/// was freed (a piece's list of games, a writer's buffer), and the blocks taken after came from
/// the threads' heaps among small allocations, whose holes stayed resident: `kifu split --by
/// Event -j2` peaked at 60 MiB on 512 MiB of PGN with the blocks (55–58 with one `Vec` a
/// piece), 53 with the threshold fixed; `fmt -j2` 37–40 → 30–33, in the same CPU time
/// (docs/figures.md § Every command in constant memory). Elsewhere than on glibc, nothing.
pub fn for_outputs(block: usize) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: as in `for_tables`: a parameter of glibc's malloc, set under its lock; any value
    // up to 32 MiB is valid for M_MMAP_THRESHOLD (a block is 256 KiB).
    unsafe {
        libc::mallopt(
            libc::M_MMAP_THRESHOLD,
            libc::c_int::try_from(block).unwrap_or(libc::c_int::MAX),
        );
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = block;
}
