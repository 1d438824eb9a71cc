//! The `std::io::Read` driver of both formats, written once over [`Feed`]:
//! [`pgn::Reader`](crate::pgn::Reader) and [`sgf::Reader`](crate::sgf::Reader) are this
//! [`Reader`] with the format's parser.

use std::io::{self, Read};

use alloc::vec::Vec;

use crate::control::Status;
use crate::push::{Feed, PushParser};

/// Reads a format from any [`Read`] (a file, stdin, a decompressor) through a fixed buffer,
/// driving the format's push parser `P` ([`pgn::Reader`](crate::pgn::Reader),
/// [`sgf::Reader`](crate::sgf::Reader)).
///
/// The buffer is allocated once; do not wrap the source in a `BufReader`, that only adds a copy.
#[derive(Debug)]
pub struct Reader<R, P> {
    inner: R,
    parser: P,
    buf: ReadBuf,
}

impl<R: Read, P: PushParser> Reader<R, P> {
    /// Default read size: 64 KiB.
    pub const DEFAULT_BUFFER_SIZE: usize = 64 * 1024;

    /// A reader with the default buffer size and configuration.
    pub fn new(inner: R) -> Self {
        Self::with_config(inner, Self::DEFAULT_BUFFER_SIZE, P::Config::default())
    }

    /// A reader that reads `buffer_size` bytes at a time (at least 1) with the given limits.
    pub fn with_config(inner: R, buffer_size: usize, config: P::Config) -> Self {
        Reader {
            inner,
            parser: P::with_config(config),
            buf: ReadBuf::new(buffer_size),
        }
    }

    /// Reads to the end of the input, driving `visitor`.
    ///
    /// Returns `Ok(true)` when the input is exhausted and every game was delivered, `Ok(false)`
    /// when a visitor returned [`Control::Stop`](crate::Control::Stop): call again to resume
    /// where it stopped.
    ///
    /// # Errors
    ///
    /// Any I/O error of the source except [`io::ErrorKind::Interrupted`], which is retried.
    /// Bad input is never an `Err`: it reaches the visitor's `on_error`
    /// ([`pgn::Visitor::on_error`](crate::pgn::Visitor::on_error),
    /// [`sgf::Visitor::on_error`](crate::sgf::Visitor::on_error)).
    pub fn read_all<V>(&mut self, visitor: &mut V) -> io::Result<bool>
    where
        P: Feed<V>,
    {
        let parser = &mut self.parser;
        self.buf.read_all(&mut self.inner, |chunk| match chunk {
            Some(chunk) => parser.feed(chunk, visitor),
            None => {
                parser.finish(visitor);
                Status::NeedInput
            }
        })
    }

    /// The parser (for its offset and game count).
    pub fn parser(&self) -> &P {
        &self.parser
    }

    /// The source back.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

/// A buffer allocated once, and the part of it not yet fed.
#[derive(Debug)]
struct ReadBuf {
    buf: Vec<u8>,
    start: usize,
    end: usize,
}

impl ReadBuf {
    /// A buffer reading `size` bytes at a time (at least 1).
    fn new(size: usize) -> ReadBuf {
        ReadBuf {
            buf: vec![0; size.max(1)],
            start: 0,
            end: 0,
        }
    }

    /// Reads `inner` to its end through `push`: `push(Some(chunk))` feeds a chunk,
    /// `push(None)` ends the input. Returns `Ok(true)` at the end of the input, `Ok(false)` when
    /// a feed stopped (the unfed rest is kept for the next call). `Interrupted` is retried.
    fn read_all<R: Read>(
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
