//! The carry-over buffer shared by the push parsers.
//!
//! A parser's state machine runs over one slice at a time and stops in front of a token that
//! touches the end of the slice (more input may complete it). [`Carry::feed`] keeps that
//! unfinished tail and, on the next chunk, completes it with the chunk's first `look` bytes, runs
//! over that small joined slice, then goes on over the chunk itself. Every pending construct is
//! bounded by the parser's limits. Most are completed by `look` more bytes, so the buffer stays
//! within `2 * look`; a decision that needs a longer view of the input (PGN's
//! [`comment_lookahead`](crate::pgn::Config::comment_lookahead)) keeps whole chunks until it is
//! taken, so the buffer then holds at most that bound plus one chunk.

use alloc::vec::Vec;

use crate::control::Status;

/// The unfinished tail of the previous chunk.
#[derive(Clone, Debug, Default)]
pub(crate) struct Carry {
    buf: Vec<u8>,
    /// How many bytes of a new chunk are joined to the carried tail.
    look: usize,
}

impl Carry {
    /// A buffer for tokens completed by at most `look` more bytes, allocated once.
    pub(crate) fn new(look: usize) -> Carry {
        Carry {
            buf: Vec::with_capacity(2 * look),
            look,
        }
    }

    /// Bytes held.
    pub(crate) fn len(&self) -> usize {
        self.buf.len()
    }

    /// Feeds `chunk` through `run`, which runs the state machine over a slice (not the end of
    /// input) and returns how many bytes it consumed and whether a visitor stopped.
    pub(crate) fn feed(
        &mut self,
        chunk: &[u8],
        mut run: impl FnMut(&[u8]) -> (usize, bool),
    ) -> Status {
        let mut rest = chunk;
        if !self.buf.is_empty() {
            let old = self.buf.len();
            let take = rest.len().min(self.look);
            self.buf.extend_from_slice(&rest[..take]);
            let (n, stopped) = run(&self.buf);
            if n < old {
                // still inside the carried construct (the chunk was short, or the decision
                // needs more input than `look` bytes), or stopped early
                self.buf.drain(..n);
                if stopped {
                    self.buf.truncate(old - n);
                    return Status::Stopped { consumed: 0 };
                }
                self.buf.extend_from_slice(&rest[take..]);
                return Status::NeedInput;
            }
            self.buf.clear();
            rest = &rest[n - old..];
            if stopped {
                return Status::Stopped {
                    consumed: chunk.len() - rest.len(),
                };
            }
        }
        let (n, stopped) = run(rest);
        if stopped {
            return Status::Stopped {
                consumed: chunk.len() - rest.len() + n,
            };
        }
        self.buf.extend_from_slice(&rest[n..]);
        Status::NeedInput
    }

    /// Runs what is held as the end of the input: `run` gets the rest of the buffer until it is
    /// all consumed (a visitor's stop does not end this: the last game is always delivered).
    pub(crate) fn finish(&mut self, mut run: impl FnMut(&[u8]) -> usize) {
        let mut i = 0;
        while i < self.buf.len() {
            let n = run(&self.buf[i..]);
            if n == 0 {
                break;
            }
            i += n;
        }
        self.buf.clear();
    }
}
