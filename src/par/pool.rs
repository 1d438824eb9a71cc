//! The cutter's read buffers, used again once every piece cut from them is dropped.
//!
//! The cutter reads an input straight into the buffer its piece will be, and the piece goes to
//! another thread as a [`Bytes`] over that buffer. A fresh buffer for every piece costs the
//! kernel a page fault and a zeroed page every 4 KiB, as much as copying the bytes once more;
//! so a buffer comes back here when the last piece (or check) that holds it is dropped, on
//! whatever thread, and the next read lands in memory already mapped.

use std::sync::{Arc, Mutex};

use bytes::Bytes;

/// Buffers of one size, at most `keep` of them kept.
#[derive(Debug)]
pub(crate) struct Pool {
    size: usize,
    keep: usize,
    free: Mutex<Vec<Vec<u8>>>,
}

impl Pool {
    /// A pool of buffers of `size` bytes, keeping at most `keep`.
    pub(crate) fn new(size: usize, keep: usize) -> Arc<Pool> {
        Arc::new(Pool {
            size,
            keep,
            free: Mutex::new(Vec::new()),
        })
    }

    /// The size of the pool's buffers.
    pub(crate) fn size(&self) -> usize {
        self.size
    }

    /// How many buffers wait to be used again.
    #[cfg(test)]
    pub(crate) fn free_len(&self) -> usize {
        self.free.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// A buffer of the pool's size: one handed back, or a new one (zeroed).
    pub(crate) fn get(&self) -> Vec<u8> {
        let back = self.free.lock().unwrap_or_else(|e| e.into_inner()).pop();
        back.unwrap_or_else(|| vec![0; self.size])
    }

    /// `buf` as bytes that hand it back to the pool when the last of them is dropped (a
    /// buffer of another size is only dropped then).
    pub(crate) fn share(self: &Arc<Self>, buf: Vec<u8>) -> Bytes {
        Bytes::from_owner(Lent {
            buf,
            pool: Arc::clone(self),
        })
    }
}

/// A buffer lent out as [`Bytes`].
struct Lent {
    buf: Vec<u8>,
    pool: Arc<Pool>,
}

impl AsRef<[u8]> for Lent {
    fn as_ref(&self) -> &[u8] {
        &self.buf
    }
}

impl Drop for Lent {
    fn drop(&mut self) {
        if self.buf.len() != self.pool.size {
            return;
        }
        let mut free = self.pool.free.lock().unwrap_or_else(|e| e.into_inner());
        if free.len() < self.pool.keep {
            free.push(core::mem::take(&mut self.buf));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_buffer_comes_back_when_its_last_piece_goes() {
        let pool = Pool::new(16, 1);
        let mut buf = pool.get();
        buf[..5].copy_from_slice(b"hello");
        let at = buf.as_ptr();
        let bytes = pool.share(buf);
        let piece = bytes.slice(..5);
        drop(bytes);
        assert_eq!(&piece[..], b"hello");
        assert!(pool.free.lock().unwrap().is_empty(), "still lent");
        drop(piece);
        let again = pool.get();
        assert_eq!(again.as_ptr(), at, "the same buffer again");
        // at most `keep`, and only of the pool's size
        let (a, b) = (again, pool.get());
        drop((pool.share(a), pool.share(b), pool.share(vec![0; 3])));
        assert_eq!(pool.free.lock().unwrap().len(), 1);
    }
}
