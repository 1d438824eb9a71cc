//! The `std::io::Read` driver.

use std::io::{self, Read};

use alloc::vec::Vec;

use crate::control::Status;

use super::parser::{Config, Parser};
use super::visitor::Visitor;

/// Reads SGF from any [`Read`] (a file, stdin, a decompressor) through a fixed buffer.
///
/// The buffer is allocated once; do not wrap the source in a `BufReader`, that only adds a copy.
///
/// ```
/// use kifu::sgf::{EventLog, Reader};
/// let data: &[u8] = b"(;GM[1];B[pd])\n(;GM[1];B[dd])\n";
/// let mut log = EventLog::default();
/// let done = Reader::new(data).read_all(&mut log).unwrap();
/// assert!(done);
/// assert_eq!(log.games(), 2);
/// ```
#[derive(Debug)]
pub struct Reader<R> {
    inner: R,
    parser: Parser,
    buf: Vec<u8>,
    start: usize,
    end: usize,
}

impl<R: Read> Reader<R> {
    /// Default read size: 64 KiB.
    pub const DEFAULT_BUFFER_SIZE: usize = 64 * 1024;

    /// A reader with the default buffer size and [`Config`].
    pub fn new(inner: R) -> Reader<R> {
        Reader::with_config(inner, Self::DEFAULT_BUFFER_SIZE, Config::default())
    }

    /// A reader that reads `buffer_size` bytes at a time (at least 1) with the given limits.
    pub fn with_config(inner: R, buffer_size: usize, config: Config) -> Reader<R> {
        Reader {
            inner,
            parser: Parser::with_config(config),
            buf: vec![0; buffer_size.max(1)],
            start: 0,
            end: 0,
        }
    }

    /// Reads to the end of the input, driving `visitor`.
    ///
    /// Returns `Ok(true)` when the input is exhausted and every game tree was delivered, `Ok(false)`
    /// when a visitor returned [`Control::Stop`](crate::Control::Stop): call again to resume
    /// where it stopped.
    ///
    /// # Errors
    ///
    /// Any I/O error of the source except [`io::ErrorKind::Interrupted`], which is retried.
    /// Bad SGF is never an `Err`: it reaches [`Visitor::on_error`].
    pub fn read_all<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<bool> {
        loop {
            if self.start == self.end {
                let n = match self.inner.read(&mut self.buf) {
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                };
                if n == 0 {
                    self.parser.finish(visitor);
                    return Ok(true);
                }
                self.start = 0;
                self.end = n;
            }
            match self.parser.feed(&self.buf[self.start..self.end], visitor) {
                Status::NeedInput => self.start = self.end,
                Status::Stopped { consumed } => {
                    self.start += consumed;
                    return Ok(false);
                }
            }
        }
    }

    /// The parser (for its [`offset`](Parser::offset) and game count).
    pub fn parser(&self) -> &Parser {
        &self.parser
    }

    /// The source back.
    pub fn into_inner(self) -> R {
        self.inner
    }
}
