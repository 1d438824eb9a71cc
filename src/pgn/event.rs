//! Owned events and a visitor that records them.

use alloc::vec::Vec;

use crate::control::Control;
use crate::error::Severity;
use crate::position::Position;

use super::nag::{Nag, Outcome};
use super::san::San;
use super::visitor::{
    Comment, CommentKind, Context, Error, ErrorKind, Move, MoveRef, NagForm, Tag, Visitor,
};

/// One visitor event, owned: what [`EventLog`] records.
#[allow(missing_docs)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Tree(Context),
    TreeEnd(Context),
    Property {
        ctx: Context,
        name: Vec<u8>,
        value: Vec<u8>,
    },
    TagsEnd(Context),
    Move {
        ctx: Context,
        san: San,
        text: Vec<u8>,
        raw: Vec<u8>,
    },
    Nag {
        ctx: Context,
        nag: Nag,
        form: NagForm,
    },
    Comment {
        ctx: Context,
        kind: CommentKind,
        text: Vec<u8>,
        first: bool,
        last: bool,
    },
    Result {
        ctx: Context,
        outcome: Outcome,
    },
    Error {
        kind: ErrorKind,
        severity: Severity,
        text: Vec<u8>,
        truncated: bool,
        pos: Position,
        game: u64,
        at: Option<MoveRef>,
    },
}

/// A visitor that records every event, owned. Handy in tests, for golden files and to look at
/// what the parser sees.
///
/// ```
/// use kifu::pgn::{self, Event, EventLog};
/// let mut log = EventLog::default();
/// pgn::parse(b"1. e4 {best} *", &mut log);
/// assert!(matches!(&log.events[3], Event::Comment { text, .. } if text == b"best"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventLog {
    /// The events, in order.
    pub events: Vec<Event>,
}

impl EventLog {
    /// Number of games seen (`on_tree_end` at depth 0).
    pub fn games(&self) -> usize {
        self.events
            .iter()
            .filter(|e| matches!(e, Event::TreeEnd(c) if c.depth == 0))
            .count()
    }

    /// The errors seen.
    pub fn errors(&self) -> impl Iterator<Item = &Event> {
        self.events
            .iter()
            .filter(|e| matches!(e, Event::Error { .. }))
    }
}

impl Visitor for EventLog {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        self.events.push(Event::Tree(*ctx));
        Control::Continue
    }
    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        self.events.push(Event::TreeEnd(*ctx));
        Control::Continue
    }
    fn on_property(&mut self, ctx: &Context, tag: &Tag<'_>) -> Control {
        self.events.push(Event::Property {
            ctx: *ctx,
            name: tag.name.to_vec(),
            value: tag.value.0.to_vec(),
        });
        Control::Continue
    }
    fn on_tags_end(&mut self, ctx: &Context) -> Control {
        self.events.push(Event::TagsEnd(*ctx));
        Control::Continue
    }
    fn on_move(&mut self, ctx: &Context, mv: &Move<'_>) -> Control {
        self.events.push(Event::Move {
            ctx: *ctx,
            san: mv.san,
            text: mv.text.to_vec(),
            raw: mv.raw.to_vec(),
        });
        Control::Continue
    }
    fn on_nag(&mut self, ctx: &Context, nag: Nag, form: NagForm) -> Control {
        self.events.push(Event::Nag {
            ctx: *ctx,
            nag,
            form,
        });
        Control::Continue
    }
    fn on_comment(&mut self, ctx: &Context, c: &Comment<'_>) -> Control {
        self.events.push(Event::Comment {
            ctx: *ctx,
            kind: c.kind,
            text: c.text.0.to_vec(),
            first: c.first,
            last: c.last,
        });
        Control::Continue
    }
    fn on_result(&mut self, ctx: &Context, outcome: Outcome) -> Control {
        self.events.push(Event::Result { ctx: *ctx, outcome });
        Control::Continue
    }
    fn on_error(&mut self, e: &Error<'_>) -> Control {
        self.events.push(Event::Error {
            kind: e.kind,
            severity: e.severity,
            text: e.text.to_vec(),
            truncated: e.truncated,
            pos: e.pos,
            game: e.game,
            at: e.at,
        });
        Control::Continue
    }
}
