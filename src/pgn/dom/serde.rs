//! `Serialize` in the shape of `kifu json` (without its `file` key).

use serde::ser::{Serialize, SerializeSeq, SerializeStruct, Serializer};

use super::{Game, GameError, Node, Variation};
use alloc::string::String;

/// A line of moves; `before` goes before the first move's own `comments_before`.
struct Line<'a> {
    moves: &'a [Node],
    before: &'a [String],
}

struct NodeSer<'a> {
    node: &'a Node,
    before: &'a [String],
}

/// `comments_before`: two slices as one sequence.
struct Chain<'a>(&'a [String], &'a [String]);

impl Serialize for Chain<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().chain(self.1))
    }
}

struct Nags<'a>(&'a [super::Nag]);

impl Serialize for Nags<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|n| n.0))
    }
}

impl Serialize for NodeSer<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let n = self.node;
        let before = !n.comments_before.is_empty() || !self.before.is_empty();
        let mut st = s.serialize_struct("Node", 4 + usize::from(before))?;
        st.serialize_field("san", n.text.as_str())?;
        st.serialize_field("nags", &Nags(&n.nags))?;
        st.serialize_field("comments", &n.comments)?;
        st.serialize_field("variations", &n.variations)?;
        if before {
            st.serialize_field("comments_before", &Chain(self.before, &n.comments_before))?;
        }
        st.end()
    }
}

impl Serialize for Line<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.moves.len()))?;
        for (i, node) in self.moves.iter().enumerate() {
            let before = if i == 0 { self.before } else { &[] };
            seq.serialize_element(&NodeSer { node, before })?;
        }
        seq.end()
    }
}

/// The move of a variation without moves, as `kifu json` writes it.
struct CommentOnly<'a>(&'a [String]);

impl Serialize for CommentOnly<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Node", 4)?;
        st.serialize_field("san", &None::<&str>)?;
        st.serialize_field("nags", &[0u8; 0])?;
        st.serialize_field("comments", self.0)?;
        st.serialize_field("variations", &[0u8; 0])?;
        st.end()
    }
}

/// `{"san", "nags", "comments", "variations"}` plus `"comments_before"` when there are some,
/// as in `kifu json`.
impl Serialize for Node {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        NodeSer {
            node: self,
            before: &[],
        }
        .serialize(s)
    }
}

/// An array of moves; a variation without moves but with comments is one move whose `san`
/// is `null`, as in `kifu json`.
impl Serialize for Variation {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.moves.is_empty() && !self.comments.is_empty() {
            let mut seq = s.serialize_seq(Some(1))?;
            seq.serialize_element(&CommentOnly(&self.comments))?;
            return seq.end();
        }
        Line {
            moves: &self.moves,
            before: &self.comments,
        }
        .serialize(s)
    }
}

struct MoveRefSer(Option<super::MoveRef>);

impl Serialize for MoveRefSer {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(m) => s.collect_str(&m),
            None => s.serialize_none(),
        }
    }
}

struct Message(super::ErrorKind);

impl Serialize for Message {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

/// `{"kind", "severity", "message", "text", "offset", "line", "column", "move"}`: the keys in
/// the order `kifu json` writes them, the order of every frontend (an SGF error has the same
/// keys, `code` after `kind`, and `node`, `depth` in place of `move`).
impl Serialize for GameError {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Error", 8)?;
        st.serialize_field("kind", self.kind.code())?;
        st.serialize_field("severity", self.severity.as_str())?;
        st.serialize_field("message", &Message(self.kind))?;
        st.serialize_field("text", &self.text)?;
        st.serialize_field("offset", &self.pos.offset)?;
        st.serialize_field("line", &self.pos.line)?;
        st.serialize_field("column", &self.pos.column)?;
        st.serialize_field("move", &MoveRefSer(self.at))?;
        st.end()
    }
}

/// The object `kifu json` writes for the game, without its `file` key: `index`, `offset`,
/// `tags` (`[name, value]` pairs), `comments`, `moves`, `result` (`null` without a
/// termination marker), `errors`, and `errors_dropped` when it is not 0.
impl Serialize for Game {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let fields = if self.errors_dropped > 0 { 8 } else { 7 };
        let mut st = s.serialize_struct("Game", fields)?;
        st.serialize_field("index", &self.index)?;
        st.serialize_field("offset", &self.offset)?;
        st.serialize_field("tags", &self.tags)?;
        st.serialize_field("comments", &self.comments)?;
        st.serialize_field(
            "moves",
            &Line {
                moves: &self.moves,
                before: &[],
            },
        )?;
        st.serialize_field("result", &self.result.map(|r| r.as_str()))?;
        st.serialize_field("errors", &self.errors)?;
        if self.errors_dropped > 0 {
            st.serialize_field("errors_dropped", &self.errors_dropped)?;
        }
        st.end()
    }
}
