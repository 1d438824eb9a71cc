//! The PGN parser in the shared drivers ([`crate::push`]): the [`Reader`] over
//! [`std::io::Read`], the [`Buf`] feed and the split at game starts, each written once for
//! both formats and monomorphized here for [`Parser`].

use bytes::Buf;

use crate::control::{Control, Status};
use crate::split::Marks;

use super::parser::{Config, Parser};
use super::visitor::{Context, Visitor};

crate::push::push_parser!(Parser, Config, Visitor);

/// Reads PGN from any [`Read`](std::io::Read) (a file, stdin, a decompressor) through a fixed
/// buffer.
///
/// The buffer is allocated once; do not wrap the source in a `BufReader`, that only adds a copy.
/// [`read_all`](Reader::read_all) drives any PGN [`Visitor`]; bad PGN is never
/// an `Err`: it reaches [`Visitor::on_error`].
///
/// ```
/// use kifu::pgn::{EventLog, Reader};
/// let data: &[u8] = b"[Event \"x\"]\n\n1. e4 *\n";
/// let mut log = EventLog::default();
/// let done = Reader::new(data).read_all(&mut log).unwrap();
/// assert!(done);
/// assert_eq!(log.games(), 1);
/// ```
#[cfg(feature = "std")]
pub type Reader<R> = crate::reader::Reader<R, Parser>;

impl Parser {
    /// [`feed`](Parser::feed) for a [`Buf`]: every chunk it holds, in order; `buf` is
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
    pub fn feed_buf<B: Buf, V: Visitor>(&mut self, buf: &mut B, v: &mut V) -> Status {
        crate::push::feed_buf(self, buf, v)
    }
}

/// The split's visitor: a game starts at a tree of depth 0; the rest of it is skipped by the
/// headers-only skip.
impl Visitor for Marks {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        self.tree(ctx.depth, ctx.pos.offset)
    }

    fn on_tags_end(&mut self, _: &Context) -> Control {
        Control::Skip
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec;
    use alloc::vec::Vec;

    use bytes::Bytes;

    use crate::split::{Split, Splitter};

    fn pieces<P: Splitter>(split: Split<P>) -> Vec<(u64, Vec<u8>)> {
        split.map(|g| (g.offset, g.bytes.to_vec())).collect()
    }

    #[test]
    fn pieces_cover_the_input_at_game_starts() {
        let data =
            Bytes::from_static(b"junk\n[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n1. d4 *\n1. c4 *");
        let got = pieces(super::super::split_games(data.clone()));
        let want: Vec<(u64, Vec<u8>)> = vec![
            (0, b"junk\n[Event \"a\"]\n1. e4 *\n\n".to_vec()),
            (26, b"[Event \"b\"]\n1. d4 *\n".to_vec()),
            (46, b"1. c4 *".to_vec()),
        ];
        assert_eq!(got, want);
        let joined: Vec<u8> = got.into_iter().flat_map(|(_, b)| b).collect();
        assert_eq!(joined, data.to_vec());
    }

    #[test]
    fn no_game_is_one_piece_and_nothing_is_none() {
        assert_eq!(
            pieces(super::super::split_games(Bytes::from_static(b"not pgn"))),
            [(0, b"not pgn".to_vec())]
        );
        assert!(pieces(super::super::split_games(Bytes::new())).is_empty());
    }

    #[test]
    fn pieces_share_the_buffer() {
        let data = Bytes::from(b"[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4 *\n".to_vec());
        for g in super::super::split_games(data.clone()) {
            let inside = data.as_ptr_range();
            assert!(inside.contains(&g.bytes.as_ptr()), "a slice of the input");
        }
    }
}
