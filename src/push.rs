//! The push parsers as generic code sees them: the [`Reader`] over `std::io::Read` (feature
//! `std`), the [`Buf`](bytes::Buf) feed, whole-input parsing and the [`split`](crate::split) are
//! written once, over [`PushParser`] and [`Feed`], which [`pgn::Parser`](crate::pgn::Parser) and
//! [`sgf::Parser`](crate::sgf::Parser) implement. [`pgn::Reader`](crate::pgn::Reader) is
//! `Reader<R, pgn::Parser>`, [`sgf::Reader`](crate::sgf::Reader) `Reader<R, sgf::Parser>`.
//!
//! [`Feed`] is generic over the visitor type, so every driver is monomorphized for the parser and
//! the visitor it drives, as if written by hand for them: no `dyn`, no allocation.

use crate::control::Status;

#[cfg(feature = "std")]
pub use crate::reader::Reader;

/// A push parser, made from its configuration.
pub trait PushParser: Sized {
    /// The parser's limits and options.
    type Config: Default;

    /// A parser with the given configuration.
    fn with_config(config: Self::Config) -> Self;
}

/// A push parser that drives a visitor of type `V`: chunks of input in, events out.
pub trait Feed<V>: PushParser {
    /// Feeds the next chunk of input ([`pgn::Parser::feed`](crate::pgn::Parser::feed),
    /// [`sgf::Parser::feed`](crate::sgf::Parser::feed)).
    fn feed(&mut self, chunk: &[u8], visitor: &mut V) -> Status;

    /// Ends the input ([`pgn::Parser::finish`](crate::pgn::Parser::finish),
    /// [`sgf::Parser::finish`](crate::sgf::Parser::finish)).
    fn finish(&mut self, visitor: &mut V);
}

/// Implements [`PushParser`] and [`Feed`] for a format's parser by its inherent
/// `with_config`, `feed` and `finish`: `push_parser!(Parser, Config, Visitor)`, the names as the
/// calling module sees them.
macro_rules! push_parser {
    ($parser:ident, $config:ident, $visitor:ident) => {
        impl $crate::push::PushParser for $parser {
            type Config = $config;

            #[inline]
            fn with_config(config: $config) -> $parser {
                $parser::with_config(config)
            }
        }

        impl<V: $visitor> $crate::push::Feed<V> for $parser {
            #[inline]
            fn feed(&mut self, chunk: &[u8], visitor: &mut V) -> $crate::control::Status {
                $parser::feed(self, chunk, visitor)
            }

            #[inline]
            fn finish(&mut self, visitor: &mut V) {
                $parser::finish(self, visitor)
            }
        }
    };
}
pub(crate) use push_parser;

/// Parses `input` as the whole rest of the stream: feeds it, then finishes unless a visitor
/// stopped.
#[inline]
pub(crate) fn parse<P: Feed<V>, V>(parser: &mut P, input: &[u8], visitor: &mut V) -> Status {
    let status = parser.feed(input, visitor);
    if status == Status::NeedInput {
        parser.finish(visitor);
    }
    status
}

/// Feeds every chunk `buf` holds to `parser`, advancing `buf` past what was taken; stops at the
/// first chunk a visitor stopped in (`consumed` counts the bytes of that chunk taken).
#[inline]
pub(crate) fn feed_buf<P: Feed<V>, V, B: bytes::Buf>(
    parser: &mut P,
    buf: &mut B,
    visitor: &mut V,
) -> Status {
    while buf.has_remaining() {
        let chunk = buf.chunk();
        let n = chunk.len();
        match parser.feed(chunk, visitor) {
            Status::NeedInput => buf.advance(n),
            stopped @ Status::Stopped { consumed } => {
                buf.advance(consumed);
                return stopped;
            }
        }
    }
    Status::NeedInput
}
