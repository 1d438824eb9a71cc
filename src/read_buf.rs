//! The fixed read buffer behind both formats' `std::io::Read` drivers.

use std::io::{self, Read};

use alloc::vec::Vec;

use crate::control::Status;

/// A buffer allocated once, and the part of it not yet fed.
#[derive(Debug)]
pub(crate) struct ReadBuf {
    buf: Vec<u8>,
    start: usize,
    end: usize,
}

impl ReadBuf {
    /// A buffer reading `size` bytes at a time (at least 1).
    pub(crate) fn new(size: usize) -> ReadBuf {
        ReadBuf {
            buf: vec![0; size.max(1)],
            start: 0,
            end: 0,
        }
    }

    /// Reads `inner` to its end through `push`: `push(Some(chunk))` feeds a chunk,
    /// `push(None)` ends the input. Returns `Ok(true)` at the end of the input, `Ok(false)` when
    /// a feed stopped (the unfed rest is kept for the next call). `Interrupted` is retried.
    pub(crate) fn read_all<R: Read>(
        &mut self,
        inner: &mut R,
        mut push: impl FnMut(Option<&[u8]>) -> Status,
    ) -> io::Result<bool> {
        loop {
            if self.start == self.end {
                let n = match inner.read(&mut self.buf) {
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                };
                if n == 0 {
                    let _ = push(None);
                    return Ok(true);
                }
                self.start = 0;
                self.end = n;
            }
            match push(Some(&self.buf[self.start..self.end])) {
                Status::NeedInput => self.start = self.end,
                Status::Stopped { consumed } => {
                    self.start += consumed;
                    return Ok(false);
                }
            }
        }
    }
}
