//! The output of a piece, in blocks of one size used again: a piece's games are written into
//! an [`Out`] (`kifu json`'s lines, `kifu fmt`'s text, and the games `filter`, `split`,
//! `dedup` and `find` keep), whose blocks go back to a pool once the piece is written out.
//!
//! The memory of the outputs is then the bytes in flight (the pieces read and not yet written
//! out), rounded up to a block a piece, and a bounded pool of free blocks: not the capacity
//! each buffer once reached. With one `Vec` a piece, used again, each buffer kept the capacity
//! of the heaviest piece it had held, doubled as it grew past it (up to twice that piece), and
//! a longer input gave every buffer its turn at the heaviest pieces: `kifu json -j2` peaked at
//! 64 and 88 MiB on 64 and 512 MiB of PGN, its six buffers holding 44 and 67 MiB of capacity
//! between pieces (the corpus's pieces of one-line games are 10 MiB of JSON each). Made and
//! dropped piece after piece instead, buffers of several MiB left glibc's heaps fragmented
//! (63 → 100 MB on 64 → 1,024 MiB). Blocks of one size neither grow nor copy, and a freed one
//! fits the next taken exactly (docs/figures.md § Every command in constant memory).

use std::io::{self, Write};
use std::sync::Mutex;

/// Bytes in a block.
pub const BLOCK: usize = 256 << 10;

/// Free blocks kept for later pieces, at most (32 MiB): the churn of the pieces in flight at
/// any thread count, while a burst (one piece of a huge game) goes back to the allocator.
const KEEP: usize = 128;

static FREE: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());

/// An empty block of capacity [`BLOCK`], one used before when there is one. The first sets
/// the allocator up so that each block is a mapping of its own (`crate::alloc::for_outputs`).
fn take_block() -> Vec<u8> {
    static SET_UP: std::sync::Once = std::sync::Once::new();
    SET_UP.call_once(|| crate::alloc::for_outputs(BLOCK));
    FREE.lock()
        .ok()
        .and_then(|mut f| f.pop())
        .unwrap_or_else(|| Vec::with_capacity(BLOCK))
}

/// Gives a block back for a later piece, or to the allocator when enough are kept.
fn give_block(mut block: Vec<u8>) {
    block.clear();
    if let Ok(mut f) = FREE.lock()
        && f.len() < KEEP
    {
        f.push(block);
    }
}

/// A piece's output: bytes in blocks of [`BLOCK`], each full but the last, taken from the pool
/// as they are written and given back when dropped (or cut off by [`Out::truncate`]).
#[derive(Default)]
pub struct Out {
    blocks: Vec<Vec<u8>>,
    len: usize,
}

impl Out {
    /// Nothing yet (no block taken).
    pub fn new() -> Out {
        Out::default()
    }

    /// Bytes written.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Appends `bytes`.
    pub fn extend_from_slice(&mut self, mut bytes: &[u8]) {
        self.len += bytes.len();
        while !bytes.is_empty() {
            let room = self.blocks.last().map_or(0, |b| BLOCK - b.len());
            if room == 0 {
                self.blocks.push(take_block());
                continue;
            }
            let n = room.min(bytes.len());
            let last = self.blocks.last_mut().expect("a block with room");
            last.extend_from_slice(&bytes[..n]);
            bytes = &bytes[n..];
        }
    }

    /// Appends one byte.
    pub fn push(&mut self, byte: u8) {
        self.extend_from_slice(&[byte]);
    }

    /// Keeps the first `len` bytes (all of them when there are no more); the blocks past them
    /// go back to the pool.
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        self.len = len;
        let keep = len.div_ceil(BLOCK);
        for b in self.blocks.drain(keep..) {
            give_block(b);
        }
        if let Some(last) = self.blocks.last_mut() {
            last.truncate(len - (keep - 1) * BLOCK);
        }
    }

    /// The bytes of `start..end`, in one slice a block.
    pub fn slices(&self, start: usize, end: usize) -> impl Iterator<Item = &[u8]> {
        assert!(
            start <= end && end <= self.len,
            "range {start}..{end} of {}",
            self.len
        );
        let first = start / BLOCK;
        let blocks = if start == end {
            &self.blocks[..0]
        } else {
            &self.blocks[first..(end - 1) / BLOCK + 1]
        };
        blocks.iter().enumerate().map(move |(i, b)| {
            let at = (first + i) * BLOCK;
            &b[start.max(at) - at..end.min(at + BLOCK) - at]
        })
    }

    /// Writes the bytes of `start..end` to `w`.
    pub fn write_range(&self, start: usize, end: usize, w: &mut impl Write) -> io::Result<()> {
        self.slices(start, end).try_for_each(|s| w.write_all(s))
    }

    /// Whether the bytes end with `suffix`.
    pub fn ends_with(&self, suffix: &[u8]) -> bool {
        let Some(start) = self.len.checked_sub(suffix.len()) else {
            return false;
        };
        let mut rest = suffix;
        self.slices(start, self.len).all(|s| {
            let (head, tail) = rest.split_at(s.len());
            rest = tail;
            head == s
        })
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.extend_from_slice(buf);
        Ok(())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for Out {
    /// The blocks go back for a later piece.
    fn drop(&mut self) {
        for b in self.blocks.drain(..) {
            give_block(b);
        }
    }
}

impl std::fmt::Debug for Out {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Out")
            .field("len", &self.len)
            .field("blocks", &self.blocks.len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `out`'s bytes, all of them.
    fn bytes(out: &Out) -> Vec<u8> {
        let mut v = Vec::new();
        out.write_range(0, out.len(), &mut v).unwrap();
        v
    }

    #[test]
    fn bytes_across_blocks_read_back_as_written() {
        let mut out = Out::new();
        let mut want = Vec::new();
        assert!(out.len() == 0 && out.ends_with(b"") && !out.ends_with(b"x"));
        for i in 0..5000u32 {
            let line = format!(
                "{{\"game\":{i},\"pad\":\"{}\"}}\n",
                "x".repeat(i as usize % 700)
            );
            out.extend_from_slice(line.as_bytes());
            want.extend_from_slice(line.as_bytes());
        }
        out.push(b'!');
        want.push(b'!');
        assert!(out.len() > 3 * BLOCK);
        assert_eq!(out.len(), want.len());
        assert_eq!(bytes(&out), want);
        // every range, across block boundaries too
        for (s, e) in [
            (0, 0),
            (BLOCK, BLOCK),
            (BLOCK - 3, BLOCK + 3),
            (1, 2 * BLOCK + 1),
            (BLOCK, 2 * BLOCK),
            (want.len() - 1, want.len()),
        ] {
            let mut v = Vec::new();
            out.write_range(s, e, &mut v).unwrap();
            assert_eq!(v, &want[s..e], "{s}..{e}");
        }
        assert!(out.ends_with(b"}\n!"));
        // cut at and around a block's end
        for len in [2 * BLOCK + 5, 2 * BLOCK, 2 * BLOCK - 1, 7, 0] {
            out.truncate(len);
            want.truncate(len);
            assert_eq!(out.len(), len);
            assert_eq!(bytes(&out), want);
            assert_eq!(out.blocks.len(), len.div_ceil(BLOCK));
        }
        write!(out, "{}", "y".repeat(BLOCK + 10)).unwrap();
        want.extend_from_slice("y".repeat(BLOCK + 10).as_bytes());
        assert_eq!(bytes(&out), want);
        assert!(
            out.blocks
                .iter()
                .all(|b| b.capacity() >= BLOCK && b.len() <= BLOCK)
        );
    }

    #[test]
    fn the_pool_is_bounded() {
        let outs: Vec<Out> = (0..2 * KEEP)
            .map(|_| {
                let mut o = Out::new();
                o.push(1);
                o
            })
            .collect();
        drop(outs);
        let free = FREE.lock().unwrap();
        assert!(free.len() <= KEEP);
        assert!(free.iter().all(|b| b.is_empty()));
    }
}
