//! Owned events and a visitor that records them.

use alloc::vec::Vec;

use crate::control::Control;
use crate::error::Severity;
use crate::position::Position;

use super::raw::{Color, Point};
use super::visitor::{Comment, Context, Error, ErrorKind, Move, NodeRef, Property, Value, Visitor};

/// One visitor event, owned: what [`EventLog`] records.
#[allow(missing_docs)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Tree(Context),
    TreeEnd(Context),
    Node(Context),
    NodeEnd(Context),
    Property {
        ctx: Context,
        name: Vec<u8>,
        raw: Vec<u8>,
    },
    Value {
        ctx: Context,
        name: Vec<u8>,
        raw: Vec<u8>,
        index: u32,
        first: bool,
        last: bool,
    },
    Move {
        ctx: Context,
        color: Color,
        point: Option<Point>,
        raw: Vec<u8>,
    },
    Comment {
        ctx: Context,
        text: Vec<u8>,
        first: bool,
        last: bool,
    },
    Error {
        kind: ErrorKind,
        severity: Severity,
        text: Vec<u8>,
        truncated: bool,
        pos: Position,
        game: u64,
        at: Option<NodeRef>,
    },
}

/// A visitor that records every event, owned. Handy in tests, for golden files and to look at
/// what the parser sees.
///
/// ```
/// use kifu::sgf::{self, Event, EventLog};
/// let mut log = EventLog::default();
/// sgf::parse(b"(;C[best])", &mut log);
/// assert!(matches!(&log.events[4], Event::Comment { text, .. } if text == b"best"));
/// assert_eq!(log.games(), 1);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventLog {
    /// The events, in order.
    pub events: Vec<Event>,
}

impl EventLog {
    /// Number of game trees seen (`on_tree_end` at depth 0).
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
    fn on_node(&mut self, ctx: &Context) -> Control {
        self.events.push(Event::Node(*ctx));
        Control::Continue
    }
    fn on_node_end(&mut self, ctx: &Context) -> Control {
        self.events.push(Event::NodeEnd(*ctx));
        Control::Continue
    }
    fn on_property(&mut self, ctx: &Context, prop: &Property<'_>) -> Control {
        self.events.push(Event::Property {
            ctx: *ctx,
            name: prop.name.to_vec(),
            raw: prop.raw.to_vec(),
        });
        Control::Continue
    }
    fn on_value(&mut self, ctx: &Context, value: &Value<'_>) -> Control {
        self.events.push(Event::Value {
            ctx: *ctx,
            name: value.name.to_vec(),
            raw: value.raw.0.to_vec(),
            index: value.index,
            first: value.first,
            last: value.last,
        });
        Control::Continue
    }
    fn on_move(&mut self, ctx: &Context, mv: &Move<'_>) -> Control {
        self.events.push(Event::Move {
            ctx: *ctx,
            color: mv.color,
            point: mv.point,
            raw: mv.raw.to_vec(),
        });
        Control::Continue
    }
    fn on_comment(&mut self, ctx: &Context, c: &Comment<'_>) -> Control {
        self.events.push(Event::Comment {
            ctx: *ctx,
            text: c.text.0.to_vec(),
            first: c.first,
            last: c.last,
        });
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
