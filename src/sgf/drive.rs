//! The SGF parser in the shared drivers ([`crate::push`]): the [`Reader`] over
//! [`std::io::Read`], the [`Buf`] feed and the split at game tree starts, each written once for
//! both formats and monomorphized here for [`Parser`].

use bytes::Buf;

use crate::control::{Control, Status};
use crate::split::Marks;

use super::parser::{Config, Parser};
use super::visitor::{Context, Visitor};

crate::push::push_parser!(Parser, Config, Visitor);

/// Reads SGF from any [`Read`](std::io::Read) through a fixed buffer, as
/// [`pgn::Reader`](crate::pgn::Reader) reads PGN: [`read_all`](Reader::read_all) drives any SGF
/// [`Visitor`], and bad SGF reaches [`Visitor::on_error`], never an `Err`.
///
/// ```
/// use kifu::sgf::{EventLog, Reader};
/// let data: &[u8] = b"(;GM[1];B[pd])\n(;GM[1];B[dd])\n";
/// let mut log = EventLog::default();
/// let done = Reader::new(data).read_all(&mut log).unwrap();
/// assert!(done);
/// assert_eq!(log.games(), 2);
/// ```
#[cfg(feature = "std")]
pub type Reader<R> = crate::reader::Reader<R, Parser>;

impl Parser {
    /// [`feed`](Parser::feed) for a [`Buf`], as
    /// [`pgn::Parser::feed_buf`](crate::pgn::Parser::feed_buf).
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
    pub fn feed_buf<B: Buf, V: Visitor>(&mut self, buf: &mut B, v: &mut V) -> Status {
        crate::push::feed_buf(self, buf, v)
    }
}

/// The split's visitor: a game tree starts at a tree of depth 0; the rest of it is skipped by
/// the root-only skip.
impl Visitor for Marks {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        self.tree(ctx.depth, ctx.pos.offset)
    }

    fn on_node(&mut self, _: &Context) -> Control {
        Control::SkipGame
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use bytes::Bytes;

    #[test]
    fn pieces_cover_the_input_at_tree_starts() {
        let data = Bytes::from_static(b"(;GM[1](;B[aa])(;B[bb]))\n(;GM[1];W[cc])");
        let got: Vec<(u64, Vec<u8>)> = super::super::split_trees(data)
            .map(|g| (g.offset, g.bytes.to_vec()))
            .collect();
        assert_eq!(
            got,
            [
                (0, b"(;GM[1](;B[aa])(;B[bb]))\n".to_vec()),
                (25, b"(;GM[1];W[cc])".to_vec())
            ]
        );
    }
}
