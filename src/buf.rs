//! Input from a [`bytes::Buf`]: a network buffer or a chain of chunks, fed to either parser
//! without first copying it into one slice.

use bytes::Buf;

use crate::control::Status;
use crate::{pgn, sgf};

/// Feeds every chunk `buf` holds through `feed`, advancing `buf` past what was taken; stops at
/// the first chunk a visitor stopped in (`consumed` counts the bytes of that chunk taken).
fn feed_all<B: Buf>(buf: &mut B, mut feed: impl FnMut(&[u8]) -> Status) -> Status {
    while buf.has_remaining() {
        let chunk = buf.chunk();
        let n = chunk.len();
        match feed(chunk) {
            Status::NeedInput => buf.advance(n),
            stopped @ Status::Stopped { consumed } => {
                buf.advance(consumed);
                return stopped;
            }
        }
    }
    Status::NeedInput
}

impl pgn::Parser {
    /// [`feed`](pgn::Parser::feed) for a [`Buf`]: every chunk it holds, in order; `buf` is
    /// advanced past what the parser took (all of it unless a visitor stopped: then feed the
    /// same `buf` again to resume).
    ///
    /// ```
    /// use bytes::{Buf, Bytes};
    /// use kifu::{Status, pgn::{EventLog, Parser}};
    ///
    /// let mut buf = Bytes::from_static(b"1. e4 e5 ").chain(Bytes::from_static(b"2. Nf3 *"));
    /// let mut log = EventLog::default();
    /// let mut parser = Parser::new();
    /// assert_eq!(parser.feed_buf(&mut buf, &mut log), Status::NeedInput);
    /// parser.finish(&mut log);
    /// assert!(!buf.has_remaining());
    /// assert_eq!(log.games(), 1);
    /// ```
    #[must_use = "a stopped parser has not taken the whole buffer"]
    pub fn feed_buf<B: Buf, V: pgn::Visitor>(&mut self, buf: &mut B, v: &mut V) -> Status {
        feed_all(buf, |chunk| self.feed(chunk, v))
    }
}

impl sgf::Parser {
    /// [`feed`](sgf::Parser::feed) for a [`Buf`], as [`pgn::Parser::feed_buf`].
    ///
    /// ```
    /// use bytes::{Buf, Bytes};
    /// use kifu::{Status, sgf::{EventLog, Parser}};
    ///
    /// let mut buf = Bytes::from_static(b"(;GM[1];B").chain(Bytes::from_static(b"[aa])"));
    /// let mut log = EventLog::default();
    /// let mut parser = Parser::new();
    /// assert_eq!(parser.feed_buf(&mut buf, &mut log), Status::NeedInput);
    /// parser.finish(&mut log);
    /// assert!(!buf.has_remaining());
    /// ```
    #[must_use = "a stopped parser has not taken the whole buffer"]
    pub fn feed_buf<B: Buf, V: sgf::Visitor>(&mut self, buf: &mut B, v: &mut V) -> Status {
        feed_all(buf, |chunk| self.feed(chunk, v))
    }
}
