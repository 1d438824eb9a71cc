//! Runs of junk: bytes that are no token of the format, collected word by word into one
//! diagnostic per run (consecutive words on a line), for both parsers.

use crate::error::{Diagnostic, Excerpt, Severity};
use crate::position::Position;

/// The run of junk being collected. `K` is the format's error kind, `A` where in the game.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Junk<K, A> {
    /// A run is open.
    pub(crate) active: bool,
    kind: K,
    pos: Position,
    game: u64,
    at: A,
    /// Stream offset just after the last word collected.
    pub(crate) end: u64,
    text: Excerpt,
}

impl<K: Copy, A: Copy> Junk<K, A> {
    /// No run open.
    pub(crate) const fn new(kind: K, at: A) -> Self {
        Junk {
            active: false,
            kind,
            pos: Position {
                offset: 0,
                line: 1,
                column: 1,
            },
            game: 0,
            at,
            end: 0,
            text: Excerpt::EMPTY,
        }
    }

    /// Adds the word `text` found at stream offset `offset`: to the open run (after a space when
    /// it does not touch the word before), or as the start of a new one, whose kind, position,
    /// game and place in the game `start` gives.
    #[inline]
    pub(crate) fn add(
        &mut self,
        offset: u64,
        text: &[u8],
        start: impl FnOnce() -> (K, Position, u64, A),
    ) {
        if self.active {
            if offset > self.end {
                self.text.push(b" ");
            }
        } else {
            let (kind, pos, game, at) = start();
            *self = Junk {
                active: true,
                kind,
                pos,
                game,
                at,
                end: 0,
                text: Excerpt::EMPTY,
            };
        }
        self.text.push(text);
        self.end = offset + text.len() as u64;
    }

    /// The kind of the open run.
    pub(crate) fn kind(&self) -> K {
        self.kind
    }

    /// Changes the kind of the open run (a stray `}` makes a PGN run a `stray_brace`).
    pub(crate) fn set_kind(&mut self, kind: K) {
        self.kind = kind;
    }

    /// Marks the run's text as cut short.
    pub(crate) fn truncate(&mut self) {
        self.text.truncated = true;
    }

    /// Closes the run: the diagnostic to report, of severity `severity`.
    pub(crate) fn take(&mut self, severity: Severity) -> Diagnostic<'_, K, A> {
        self.active = false;
        Diagnostic {
            kind: self.kind,
            severity,
            text: self.text.as_bytes(),
            truncated: self.text.truncated,
            pos: self.pos,
            game: self.game,
            at: self.at,
        }
    }
}
