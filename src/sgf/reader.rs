//! The `std::io::Read` driver.

use std::io::{self, Read};

use crate::control::Status;
use crate::read_buf::ReadBuf;

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
    buf: ReadBuf,
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
            buf: ReadBuf::new(buffer_size),
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
        let parser = &mut self.parser;
        self.buf.read_all(&mut self.inner, |chunk| match chunk {
            Some(chunk) => parser.feed(chunk, visitor),
            None => {
                parser.finish(visitor);
                Status::NeedInput
            }
        })
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
