//! The output buffers of the pieces, used again: a piece's games are written into a buffer
//! (`kifu json`'s lines, `kifu fmt`'s text, and the games `filter`, `split` and `dedup` keep),
//! which goes back here once the piece is written out, with its capacity, for a later piece.
//!
//! Made and dropped piece after piece on every thread, buffers of several MiB would leave
//! glibc's heaps fragmented (it raises its mmap threshold each time a large block is freed,
//! so later ones come from the heaps): `kifu json -j2` peaked at 63, 76, 88 and 100 MB on 64,
//! 256, 512 and 1024 MiB of PGN. Used again, they neither fragment the heap nor fault in
//! fresh pages (docs/figures.md § Every command in constant memory).

use std::sync::Mutex;

/// Buffers kept for later pieces: about the pieces in flight on two threads, and a few more.
const KEEP: usize = 16;

/// A kept buffer larger than this is freed instead (a piece of one huge game).
const MAX_KEPT: usize = 64 << 20;

static KEPT: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());

/// An empty buffer, with the capacity of one used before when there is one.
pub fn take() -> Vec<u8> {
    KEPT.lock()
        .ok()
        .and_then(|mut k| k.pop())
        .unwrap_or_default()
}

/// Gives `buf` back, emptied, for a later piece.
pub fn give(mut buf: Vec<u8>) {
    if buf.capacity() == 0 || buf.capacity() > MAX_KEPT {
        return;
    }
    buf.clear();
    if let Ok(mut k) = KEPT.lock()
        && k.len() < KEEP
    {
        k.push(buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_buffer_given_back_is_taken_again_empty_with_its_capacity() {
        let mut b = take();
        b.extend_from_slice(&[1; 1000]);
        let cap = b.capacity();
        give(b);
        // (other tests of this binary may take and give too: look for ours among a few)
        let mut found = false;
        let mut taken = Vec::new();
        for _ in 0..KEEP {
            let b = take();
            assert!(b.is_empty());
            found |= b.capacity() == cap;
            taken.push(b);
        }
        assert!(found);
        for b in taken {
            give(b);
        }
        give(Vec::with_capacity(MAX_KEPT + 1)); // freed, not kept
        assert!(
            KEPT.lock()
                .unwrap()
                .iter()
                .all(|b| b.capacity() <= MAX_KEPT)
        );
    }
}
