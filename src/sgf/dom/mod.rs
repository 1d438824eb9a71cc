//! The game-tree DOM: [`GameTree`], an arena of nodes that never recurses.
//!
//! # Layout
//!
//! A [`GameTree`] keeps four flat vectors: the nodes (each with its parent, first and last
//! child, next sibling and the range of its properties), the properties (identifier spans and
//! the range of their values), the value spans, and one byte buffer holding every identifier
//! and value. Nodes are addressed by [`NodeId`]; [`Node`] and [`Prop`] are borrowed views.
//! Nothing is a recursive type, so dropping, walking, comparing and writing a tree of any depth
//! use no stack beyond a constant (walks keep an explicit stack on the heap).
//!
//! `(;a(;b))` and `(;a;b)` are the same game tree (`FF[4]` §3.1): the arena keeps only the
//! parent/child links, so both are the node `a` with one child `b`.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::Severity;
use crate::position::Position;

use super::raw::{BoardSize, Color, Point, RawValue};
use super::visitor::{Error, ErrorKind, NodeRef};
mod builder;
mod iter;
#[cfg(feature = "serde")]
mod serde;
#[cfg(test)]
mod tests;

pub use builder::{Scope, TreeBuilder};
#[cfg(feature = "std")]
pub use iter::ReadTrees;
pub use iter::{GameTrees, game_trees};

pub(crate) const NONE: u32 = u32::MAX;

/// What [`GameTree::estimated_bytes`] counts per node, property, value and error.
pub(crate) const NODE_BYTES: usize = core::mem::size_of::<NodeRec>();
pub(crate) const PROP_BYTES: usize = core::mem::size_of::<PropRec>();
pub(crate) const VALUE_BYTES: usize = core::mem::size_of::<Span>();
pub(crate) const ERROR_BYTES: usize = core::mem::size_of::<TreeError>() + Error::TEXT_MAX;

/// The address of a node in its [`GameTree`]: an index into the arena. The root is always
/// `NodeId::ROOT`; a parsed tree numbers its nodes in file order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) u32);

impl NodeId {
    /// The root node of every game tree.
    pub const ROOT: NodeId = NodeId(0);

    /// The node at arena index `index` (see [`GameTree::get`] to check it exists).
    pub const fn new(index: u32) -> NodeId {
        NodeId(index)
    }

    /// The index of the node in the arena (0 for the root).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A range of `GameTree::bytes`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Span {
    pub(crate) start: usize,
    pub(crate) end: usize,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeRec {
    pub(crate) parent: u32,
    pub(crate) first_child: u32,
    pub(crate) last_child: u32,
    pub(crate) next_sibling: u32,
    pub(crate) props: u32,
    pub(crate) nprops: u32,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct PropRec {
    pub(crate) name: Span,
    pub(crate) raw: Span,
    pub(crate) values: u32,
    pub(crate) nvalues: u32,
}

/// A problem met while reading a game tree: the owned form of an [`Error`] event.
///
/// ```
/// use kifu::sgf::{self, ErrorKind, NodeId};
/// let tree = sgf::game_trees(b"(;SZ[9];B[zz])").next().unwrap();
/// let e = &tree.errors()[0];
/// assert_eq!((e.kind, e.code(), e.pos.column), (ErrorKind::IllegalPoint, "E14", 10));
/// assert_eq!(e.node, Some(tree.main_line().nth(1).unwrap().id())); // the node holding it
/// assert_eq!(e.to_string(), "1:10: error E14: illegal point: `zz` (game 1, node 1 (depth 0))");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// How bad it is.
    pub severity: Severity,
    /// The offending text, at most [`Error::TEXT_MAX`] bytes.
    pub text: Vec<u8>,
    /// Whether `text` was cut.
    pub truncated: bool,
    /// Where the offending text starts.
    pub pos: Position,
    /// Index of the game tree in the collection the parser was in (or about to start).
    pub game: u64,
    /// Where in the game, as the parser counts (`None` outside game trees).
    pub at: Option<NodeRef>,
    /// The node of the DOM that was being read when the problem came (`None` outside game
    /// trees and before the root node).
    pub node: Option<NodeId>,
}

impl TreeError {
    /// An owned copy of an error event; `node` is the DOM node it belongs to, if any.
    pub fn new(e: &Error<'_>, node: Option<NodeId>) -> TreeError {
        TreeError {
            kind: e.kind,
            severity: e.severity,
            text: e.text.to_vec(),
            truncated: e.truncated,
            pos: e.pos,
            game: e.game,
            at: e.at,
            node,
        }
    }

    /// The stable code of the kind (`E14`), see [`ErrorKind::code`].
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    /// The message of the kind (`illegal point`).
    pub fn message(&self) -> String {
        alloc::string::ToString::to_string(&self.kind)
    }

    /// The problem as the diagnostic event it was: its `Display` is the line `kifu check`
    /// prints.
    pub fn diagnostic(&self) -> Error<'_> {
        Error {
            kind: self.kind,
            severity: self.severity,
            text: &self.text,
            truncated: self.truncated,
            pos: self.pos,
            game: self.game,
            at: self.at,
        }
    }
}

/// The line of [`TreeError::diagnostic`]: `LINE:COLUMN: SEVERITY CODE: MESSAGE: `text` (game
/// N, node K (depth D))`.
impl core::fmt::Display for TreeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.diagnostic().fmt(f)
    }
}

/// One game tree of an SGF collection, held in memory: an arena of [`Node`]s.
///
/// Read one with [`game_trees`](super::game_trees) (a slice), [`ReadTrees`](super::ReadTrees)
/// (any `std::io::Read`) or a [`TreeBuilder`](super::TreeBuilder) (any visitor-driven input);
/// build one from scratch with [`GameTree::new`], [`add_node`](GameTree::add_node) and
/// [`add_property`](GameTree::add_property); write one with [`Writer`](super::Writer) (or
/// `to_string()`).
///
/// Values are kept exactly as written (escapes unresolved): decode them with the [`RawValue`]
/// methods. Equality (`==`) compares content: the structure, the `FF[4]` identifiers and the
/// values, not the identifiers as written, the index, the offset or the errors.
///
/// ```
/// use kifu::sgf;
/// let tree = sgf::game_trees(b"(;GM[1]SZ[9]PB[Shusaku];B[ee](;W[cc])(;W[gg]))").next().unwrap();
/// let root = tree.root();
/// assert_eq!(root.value(b"PB").unwrap().simple_text().as_ref(), b"Shusaku");
/// assert_eq!(tree.board_size(), sgf::BoardSize { cols: 9, rows: 9 });
/// let b = root.children().next().unwrap();
/// assert_eq!(b.children().count(), 2);
/// let main: Vec<_> = tree.main_line().filter_map(|n| n.go_move()).collect();
/// assert_eq!(main.len(), 2); // B[ee] and W[cc]
/// assert_eq!(tree.len(), 4);
/// ```
#[derive(Clone)]
pub struct GameTree {
    pub(crate) index: u64,
    pub(crate) pos: Position,
    pub(crate) nodes: Vec<NodeRec>,
    pub(crate) props: Vec<PropRec>,
    pub(crate) values: Vec<Span>,
    pub(crate) bytes: Vec<u8>,
    pub(crate) errors: Vec<TreeError>,
    /// Problems left out of `errors` by the builder's limit.
    pub(crate) errors_dropped: u64,
}

impl Default for GameTree {
    fn default() -> Self {
        GameTree::new()
    }
}

impl core::fmt::Debug for GameTree {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GameTree")
            .field("index", &self.index)
            .field("offset", &self.pos.offset)
            .field("nodes", &self.nodes.len())
            .field("errors", &self.errors.len())
            .finish_non_exhaustive()
    }
}

impl core::fmt::Display for GameTree {
    /// The tree as SGF, in the [`Writer`](super::Writer)'s default layout (bytes that are not
    /// UTF-8 replaced by U+FFFD).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&super::Writer::new().to_string(self))
    }
}

/// How a value given as text is made a raw value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Escape {
    Raw,
    Text,
    Compose,
}

/// Escapes text for a property value: `]` and `\` get a `\` before them, and `:` too when
/// `compose` (a part of a compose value such as `LB[dd:label]` or `AP[name:version]`).
/// Borrows when nothing needs escaping.
///
/// ```
/// use kifu::sgf::{self, RawValue};
/// assert_eq!(sgf::escape(b"a]b\\c:d", false).as_ref(), br"a\]b\\c:d");
/// assert_eq!(sgf::escape(b"a:b", true).as_ref(), br"a\:b");
/// // escaping then decoding gives the text back
/// assert_eq!(RawValue(&sgf::escape(b"x]y", false)).text().as_ref(), b"x]y");
/// ```
pub fn escape(text: &[u8], compose: bool) -> Cow<'_, [u8]> {
    let special = |b: u8| b == b']' || b == b'\\' || (compose && b == b':');
    if !text.iter().any(|&b| special(b)) {
        return Cow::Borrowed(text);
    }
    let mut out = Vec::with_capacity(text.len() + 4);
    escape_into(text, compose, &mut out);
    Cow::Owned(out)
}

fn escape_into(text: &[u8], compose: bool, out: &mut Vec<u8>) {
    for &b in text {
        if b == b']' || b == b'\\' || (compose && b == b':') {
            out.push(b'\\');
        }
        out.push(b);
    }
}

impl GameTree {
    /// A game tree holding one empty root node (index 0, offset 0, no errors).
    ///
    /// ```
    /// use kifu::sgf::{GameTree, NodeId};
    /// let mut tree = GameTree::new();
    /// tree.add_property(NodeId::ROOT, "GM", ["1"]);
    /// tree.add_property(NodeId::ROOT, "SZ", ["9"]);
    /// tree.add_property(NodeId::ROOT, "PB", ["Honinbo] Shusaku"]);
    /// let b = tree.add_node(NodeId::ROOT);
    /// tree.add_property(b, "B", ["ee"]);
    /// tree.add_property(b, "C", ["a \\ backslash"]);
    /// let label = tree.add_node(b);
    /// tree.add_compose(label, "LB", [("cc", "A:1")]);
    /// assert_eq!(tree.to_string(),
    ///     "(;GM[1]\nSZ[9]\nPB[Honinbo\\] Shusaku]\n;B[ee]C[a \\\\ backslash];LB[cc:A\\:1])\n");
    /// ```
    pub fn new() -> GameTree {
        let mut t = GameTree::empty(0, Position::default());
        t.push_node(NONE);
        t
    }

    /// A tree without nodes, for the builder (which adds the root at the first `on_node`).
    pub(crate) fn empty(index: u64, pos: Position) -> GameTree {
        GameTree {
            index,
            pos,
            nodes: Vec::new(),
            props: Vec::new(),
            values: Vec::new(),
            bytes: Vec::new(),
            errors: Vec::new(),
            errors_dropped: 0,
        }
    }

    /// Index of the game tree in its collection, 0-based (0 for a tree built from scratch).
    pub fn index(&self) -> u64 {
        self.index
    }

    /// Byte offset of the tree's `(` in the stream it was read from.
    pub fn offset(&self) -> u64 {
        self.pos.offset
    }

    /// Position (offset, line, column) of the tree's `(`.
    pub fn position(&self) -> Position {
        self.pos
    }

    /// Sets the index and position (for trees built from scratch, or renumbered).
    pub fn set_origin(&mut self, index: u64, pos: Position) {
        self.index = index;
        self.pos = pos;
    }

    /// The problems met while reading the tree, in input order: those inside it, and those
    /// outside any game tree that follow it (text before the first tree goes to the first).
    pub fn errors(&self) -> &[TreeError] {
        &self.errors
    }

    /// Whether an error of [`Severity::Error`] or worse was met (warnings do not count).
    pub fn has_errors(&self) -> bool {
        self.errors.iter().any(|e| e.severity >= Severity::Error)
    }

    /// How many problems the builder left out of [`errors`](Self::errors): past its count
    /// ([`TreeBuilder::with_max_game_errors`](super::TreeBuilder::with_max_game_errors), the
    /// first 100 by default), or past its memory limit
    /// ([`TreeBuilder::with_max_game_bytes`](super::TreeBuilder::with_max_game_bytes), and
    /// `errors` then holds the `E103` that says where the cut came). `errors().len() +
    /// errors_dropped()` is the tree's count of problems. Serialized as `errors_dropped`, only
    /// when it is not 0 (as `kifu json` writes it).
    pub fn errors_dropped(&self) -> u64 {
        self.errors_dropped
    }

    /// Adds a problem to [`errors`](Self::errors).
    pub fn push_error(&mut self, error: TreeError) {
        self.errors.push(error);
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// An estimate of the bytes the tree owns: its nodes, properties and value spans at their
    /// size in the arena, the bytes of its identifiers and values, and each error at its size
    /// plus [`Error::TEXT_MAX`] (the longest text it can hold). Lengths are counted, not
    /// capacities, so the allocation can be up to about twice as much. This is what the
    /// builder's limit ([`TreeBuilder::with_max_game_bytes`](super::TreeBuilder::with_max_game_bytes))
    /// is checked against. Takes constant time.
    ///
    /// ```
    /// use kifu::sgf;
    /// let small = sgf::game_trees(b"(;GM[1];B[aa])").next().unwrap();
    /// let large = sgf::game_trees(b"(;GM[1];B[aa];W[bb];B[cc]C[a comment])").next().unwrap();
    /// assert!(0 < small.estimated_bytes() && small.estimated_bytes() < large.estimated_bytes());
    /// ```
    pub fn estimated_bytes(&self) -> usize {
        self.nodes.len() * NODE_BYTES
            + self.props.len() * PROP_BYTES
            + self.values.len() * VALUE_BYTES
            + self.bytes.len()
            + self.errors.len() * ERROR_BYTES
    }

    /// Whether the tree has no node (never for a tree read or built with [`GameTree::new`]).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The root node.
    ///
    /// # Panics
    ///
    /// Never for a tree read or made with [`GameTree::new`] (they always have a root).
    #[inline]
    pub fn root(&self) -> Node<'_> {
        self.node(NodeId::ROOT)
    }

    /// The node `id`.
    ///
    /// # Panics
    ///
    /// If `id` is not a node of this tree (see [`get`](Self::get)).
    #[inline]
    pub fn node(&self, id: NodeId) -> Node<'_> {
        self.get(id).expect("a node of this game tree")
    }

    /// The node `id`, or `None` if the tree has no such node.
    #[inline]
    pub fn get(&self, id: NodeId) -> Option<Node<'_>> {
        self.nodes.get(id.index()).map(|rec| Node {
            tree: self,
            id,
            rec,
        })
    }

    /// Every node, in arena order (file order for a tree read from SGF).
    pub fn nodes(&self) -> impl ExactSizeIterator<Item = Node<'_>> + '_ {
        self.nodes.iter().enumerate().map(|(i, rec)| Node {
            tree: self,
            id: NodeId(i as u32),
            rec,
        })
    }

    /// The main line: the root, its first child, that node's first child, …
    #[inline]
    pub fn main_line(&self) -> MainLine<'_> {
        MainLine {
            next: self.get(NodeId::ROOT),
        }
    }

    /// The game type: the root's `GM` (1–1000), 1 (Go) when absent or unusable.
    pub fn game_type(&self) -> u32 {
        self.get(NodeId::ROOT)
            .and_then(|r| r.value(b"GM"))
            .and_then(|v| v.number())
            .filter(|n| (1..=1000).contains(n))
            .map_or(1, |n| n as u32)
    }

    /// The board size: the root's `SZ` (`SZ[19]`, or `SZ[19:13]` for 19 columns by 13 rows,
    /// each 1–52), 19×19 when absent or unusable (as the parser reads it).
    ///
    /// ```
    /// use kifu::sgf::{self, BoardSize};
    /// let t = sgf::game_trees(b"(;SZ[19:13])").next().unwrap();
    /// assert_eq!(t.board_size(), BoardSize { cols: 19, rows: 13 });
    /// ```
    pub fn board_size(&self) -> BoardSize {
        let Some(v) = self.get(NodeId::ROOT).and_then(|r| r.value(b"SZ")) else {
            return BoardSize::default();
        };
        let dim = |r: RawValue<'_>| r.number().filter(|n| (1..=52).contains(n));
        let size = match v.compose() {
            None => dim(v).map(|n| (n, n)),
            Some((a, b)) => dim(a).zip(dim(b)),
        };
        size.map_or(BoardSize::default(), |(cols, rows)| BoardSize {
            cols: cols as u8,
            rows: rows as u8,
        })
    }

    // ----- building ------------------------------------------------------------------------

    /// Appends a node with parent `parent` (NONE for the root); returns its index.
    pub(crate) fn push_node(&mut self, parent: u32) -> u32 {
        let id = u32::try_from(self.nodes.len())
            .ok()
            .filter(|&i| i != NONE)
            .expect("fewer than 2^32 - 1 nodes in a game tree");
        self.nodes.push(NodeRec {
            parent,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
            props: self.props.len() as u32,
            nprops: 0,
        });
        if parent != NONE {
            let p = &mut self.nodes[parent as usize];
            let last = p.last_child;
            p.last_child = id;
            if last == NONE {
                p.first_child = id;
            } else {
                self.nodes[last as usize].next_sibling = id;
            }
        }
        id
    }

    fn span_of(&mut self, bytes: &[u8]) -> Span {
        let start = self.bytes.len();
        if bytes.len() <= 2 {
            // an identifier or a point (`B`, `pd`): a byte at a time, not a call to `memcpy`
            for &b in bytes {
                self.bytes.push(b);
            }
        } else {
            self.bytes.extend_from_slice(bytes);
        }
        Span {
            start,
            end: self.bytes.len(),
        }
    }

    /// Appends a property (no values yet) to node `node`, moving the node's properties to the
    /// end first if they are not last.
    pub(crate) fn push_prop(&mut self, node: u32, name: &[u8], raw: &[u8]) {
        let rec = self.nodes[node as usize];
        let end = rec.props as usize + rec.nprops as usize;
        if end != self.props.len() {
            let start = self.props.len();
            self.props.extend_from_within(rec.props as usize..end);
            self.nodes[node as usize].props = start as u32;
        }
        let raw_span = self.span_of(raw);
        let name_span = if same_bytes(name, raw) {
            raw_span
        } else {
            self.span_of(name)
        };
        self.props.push(PropRec {
            name: name_span,
            raw: raw_span,
            values: self.values.len() as u32,
            nvalues: 0,
        });
        self.nodes[node as usize].nprops += 1;
    }

    /// Appends a value to the last property (the last one pushed).
    pub(crate) fn push_value(&mut self, raw: &[u8]) {
        let span = self.span_of(raw);
        self.values.push(span);
        if let Some(p) = self.props.last_mut() {
            p.nvalues += 1;
        }
    }

    /// Appends a value to the last property, escaping `text` as `how` says.
    fn push_value_as(&mut self, text: &[u8], how: Escape) {
        match how {
            Escape::Raw => self.push_value(text),
            _ => {
                let start = self.bytes.len();
                escape_into(text, how == Escape::Compose, &mut self.bytes);
                self.values.push(Span {
                    start,
                    end: self.bytes.len(),
                });
                if let Some(p) = self.props.last_mut() {
                    p.nvalues += 1;
                }
            }
        }
    }

    /// Extends the last value (the next piece of a long one).
    pub(crate) fn extend_value(&mut self, raw: &[u8]) {
        self.bytes.extend_from_slice(raw);
        if let Some(v) = self.values.last_mut() {
            v.end = self.bytes.len();
        }
    }

    /// Adds a child to `parent`, after its other children; returns the new node.
    ///
    /// # Panics
    ///
    /// If `parent` is not a node of this tree.
    pub fn add_node(&mut self, parent: NodeId) -> NodeId {
        assert!(
            parent.index() < self.nodes.len(),
            "a node of this game tree"
        );
        NodeId(self.push_node(parent.0))
    }

    fn add(
        &mut self,
        node: NodeId,
        ident: &[u8],
        values: &mut dyn Iterator<Item = (&[u8], Escape)>,
    ) {
        assert!(node.index() < self.nodes.len(), "a node of this game tree");
        assert!(
            !ident.is_empty()
                && ident.iter().all(u8::is_ascii_alphabetic)
                && ident.iter().any(u8::is_ascii_uppercase),
            "a property identifier is ASCII letters, at least one uppercase"
        );
        let name: Vec<u8> = ident
            .iter()
            .copied()
            .filter(u8::is_ascii_uppercase)
            .collect();
        self.push_prop(node.0, &name, ident);
        let p = self.props.len() - 1;
        for (v, how) in values {
            self.push_value_as(v, how);
        }
        debug_assert_eq!(self.props.len() - 1, p);
    }

    /// Adds a property to `node`, after its other properties, with values given as text: each
    /// is escaped (`]` and `\` get a `\`; see [`escape`]). `ident` is written in its `FF[4]`
    /// form (its uppercase letters). A property given no value is written `[]`.
    ///
    /// For compose values whose parts may hold `:` use [`add_compose`](Self::add_compose);
    /// for values already in SGF form, [`add_raw_property`](Self::add_raw_property).
    ///
    /// # Panics
    ///
    /// If `node` is not a node of this tree, or `ident` is not ASCII letters with at least
    /// one uppercase letter.
    pub fn add_property<I>(&mut self, node: NodeId, ident: impl AsRef<[u8]>, values: I)
    where
        I: IntoIterator,
        I::Item: AsRef<[u8]>,
    {
        let values: Vec<I::Item> = values.into_iter().collect();
        let mut it = values.iter().map(|v| (v.as_ref(), Escape::Text));
        self.add(node, ident.as_ref(), &mut it);
    }

    /// Adds a property whose values are compose values `a:b` given as their two text parts:
    /// each part is escaped, `:` included, and the parts joined by `:` (`LB[dd:A]`,
    /// `AP[kifu:0.1]`).
    ///
    /// # Panics
    ///
    /// As [`add_property`](Self::add_property).
    pub fn add_compose<I, A, B>(&mut self, node: NodeId, ident: impl AsRef<[u8]>, values: I)
    where
        I: IntoIterator<Item = (A, B)>,
        A: AsRef<[u8]>,
        B: AsRef<[u8]>,
    {
        let values: Vec<Vec<u8>> = values
            .into_iter()
            .map(|(a, b)| {
                let mut v = Vec::new();
                escape_into(a.as_ref(), true, &mut v);
                v.push(b':');
                escape_into(b.as_ref(), true, &mut v);
                v
            })
            .collect();
        let mut it = values.iter().map(|v| (v.as_slice(), Escape::Raw));
        self.add(node, ident.as_ref(), &mut it);
    }

    /// Adds a property with values already in SGF form (escapes written), kept as given. The
    /// [`Writer`](super::Writer) still escapes a `]` that has no `\` before it and doubles a `\`
    /// ending a value, so its output always reads back.
    ///
    /// # Panics
    ///
    /// As [`add_property`](Self::add_property).
    pub fn add_raw_property<I>(&mut self, node: NodeId, ident: impl AsRef<[u8]>, values: I)
    where
        I: IntoIterator,
        I::Item: AsRef<[u8]>,
    {
        let values: Vec<I::Item> = values.into_iter().collect();
        let mut it = values.iter().map(|v| (v.as_ref(), Escape::Raw));
        self.add(node, ident.as_ref(), &mut it);
    }

    // ----- comparing -----------------------------------------------------------------------

    fn props_eq(&self, a: &NodeRec, other: &GameTree, b: &NodeRec) -> bool {
        if a.nprops != b.nprops {
            return false;
        }
        let pa = &self.props[a.props as usize..][..a.nprops as usize];
        let pb = &other.props[b.props as usize..][..b.nprops as usize];
        pa.iter().zip(pb).all(|(x, y)| {
            self.bytes_of(x.name) == other.bytes_of(y.name)
                && x.nvalues == y.nvalues
                && self.values[x.values as usize..][..x.nvalues as usize]
                    .iter()
                    .zip(&other.values[y.values as usize..][..y.nvalues as usize])
                    .all(|(&u, &v)| self.bytes_of(u) == other.bytes_of(v))
        })
    }

    /// Whether both trees hold the same content: the same structure, and in each node the same
    /// properties (by `FF[4]` identifier) with the same values, in the same order. The index,
    /// offset, errors and identifiers as written are not compared. Walks with an explicit
    /// stack: any depth.
    ///
    /// ```
    /// use kifu::sgf;
    /// let a = sgf::game_trees(b"(;GM[1](;B[aa](;W[bb])))").next().unwrap();
    /// let b = sgf::game_trees(b"\n(;GM[1];B[aa];W[bb])").next().unwrap();
    /// assert!(a.content_eq(&b) && a == b);
    /// ```
    pub fn content_eq(&self, other: &GameTree) -> bool {
        if self.nodes.is_empty() || other.nodes.is_empty() {
            return self.nodes.is_empty() && other.nodes.is_empty();
        }
        let mut stack = alloc::vec![(0u32, 0u32)];
        while let Some((x, y)) = stack.pop() {
            let (a, b) = (&self.nodes[x as usize], &other.nodes[y as usize]);
            if !self.props_eq(a, other, b) {
                return false;
            }
            let (mut cx, mut cy) = (a.first_child, b.first_child);
            loop {
                match (cx == NONE, cy == NONE) {
                    (true, true) => break,
                    (false, false) => {
                        stack.push((cx, cy));
                        cx = self.nodes[cx as usize].next_sibling;
                        cy = other.nodes[cy as usize].next_sibling;
                    }
                    _ => return false,
                }
            }
        }
        true
    }

    #[inline]
    pub(crate) fn bytes_of(&self, s: Span) -> &[u8] {
        &self.bytes[s.start..s.end]
    }
}

impl PartialEq for GameTree {
    /// [`content_eq`](GameTree::content_eq).
    fn eq(&self, other: &GameTree) -> bool {
        self.content_eq(other)
    }
}

impl Eq for GameTree {}

/// A node of a [`GameTree`]: a borrowed view (cheap to copy).
#[derive(Clone, Copy)]
pub struct Node<'a> {
    tree: &'a GameTree,
    id: NodeId,
    rec: &'a NodeRec,
}

impl core::fmt::Debug for Node<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Node")
            .field("id", &self.id)
            .field("props", &self.properties().collect::<Vec<_>>())
            .finish()
    }
}

/// Whether `a` and `b` hold the same bytes: at once when they are the same slice (a property's
/// name and its identifier as written, when no lowercase letter was dropped).
#[inline]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    (core::ptr::eq(a.as_ptr(), b.as_ptr()) && a.len() == b.len()) || a == b
}

#[inline]
fn link(tree: &GameTree, i: u32) -> Option<Node<'_>> {
    (i != NONE).then(|| Node {
        tree,
        id: NodeId(i),
        rec: &tree.nodes[i as usize],
    })
}

impl<'a> Node<'a> {
    /// The node's address in its tree.
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The tree the node belongs to.
    pub fn tree(&self) -> &'a GameTree {
        self.tree
    }

    /// The parent, `None` for the root.
    #[inline]
    pub fn parent(&self) -> Option<Node<'a>> {
        link(self.tree, self.rec.parent)
    }

    /// The first child: the main-line continuation.
    #[inline]
    pub fn first_child(&self) -> Option<Node<'a>> {
        link(self.tree, self.rec.first_child)
    }

    /// The next child of the parent.
    #[inline]
    pub fn next_sibling(&self) -> Option<Node<'a>> {
        link(self.tree, self.rec.next_sibling)
    }

    /// The children, in order (the first continues the line, the others are variations).
    #[inline]
    pub fn children(&self) -> Children<'a> {
        Children {
            next: self.first_child(),
        }
    }

    /// Whether the node is a leaf (ends its line).
    pub fn is_leaf(&self) -> bool {
        self.rec.first_child == NONE
    }

    /// The properties, in file order.
    #[inline]
    pub fn properties(
        &self,
    ) -> impl ExactSizeIterator<Item = Prop<'a>> + DoubleEndedIterator + use<'a> {
        let tree = self.tree;
        tree.props[self.rec.props as usize..][..self.rec.nprops as usize]
            .iter()
            .map(move |rec| Prop { tree, rec })
    }

    /// The first property with `FF[4]` identifier `ident`.
    #[inline]
    pub fn get(&self, ident: &[u8]) -> Option<Prop<'a>> {
        self.properties().find(|p| p.name() == ident)
    }

    /// The first value of the first property `ident` (`root.value(b"PB")`).
    #[inline]
    pub fn value(&self, ident: &[u8]) -> Option<RawValue<'a>> {
        self.get(ident).and_then(|p| p.values().next())
    }

    /// The Go move of the node (`B` or `W`, the first one if there are both), decoded for the
    /// tree's board size: `Some((color, None))` is a pass; `None` when there is no move or its
    /// value is not a point of the board.
    ///
    /// ```
    /// use kifu::sgf::{self, Color, Point};
    /// let t = sgf::game_trees(b"(;SZ[9];B[cd];W[tt])").next().unwrap();
    /// let moves: Vec<_> = t.main_line().filter_map(|n| n.go_move()).collect();
    /// assert_eq!(moves, [(Color::Black, Some(Point { x: 2, y: 3 })), (Color::White, None)]);
    /// ```
    pub fn go_move(&self) -> Option<(Color, Option<Point>)> {
        let p = self
            .properties()
            .find(|p| p.name() == b"B" || p.name() == b"W")?;
        let color = if p.name() == b"B" {
            Color::Black
        } else {
            Color::White
        };
        let mv = p.values().next()?.go_move(self.tree.board_size())?;
        Some((color, mv))
    }
}

/// The children of a node: see [`Node::children`].
#[derive(Clone, Debug)]
pub struct Children<'a> {
    next: Option<Node<'a>>,
}

impl<'a> Iterator for Children<'a> {
    type Item = Node<'a>;
    #[inline]
    fn next(&mut self) -> Option<Node<'a>> {
        let n = self.next?;
        self.next = n.next_sibling();
        Some(n)
    }
}

/// The main line of a game tree: see [`GameTree::main_line`].
#[derive(Clone, Debug)]
pub struct MainLine<'a> {
    next: Option<Node<'a>>,
}

impl<'a> Iterator for MainLine<'a> {
    type Item = Node<'a>;
    #[inline]
    fn next(&mut self) -> Option<Node<'a>> {
        let n = self.next?;
        self.next = n.first_child();
        Some(n)
    }
}

/// A property of a [`Node`]: a borrowed view.
#[derive(Clone, Copy)]
pub struct Prop<'a> {
    tree: &'a GameTree,
    rec: &'a PropRec,
}

impl core::fmt::Debug for Prop<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("Prop")
            .field(&String::from_utf8_lossy(self.name()))
            .field(&self.values().collect::<Vec<_>>())
            .finish()
    }
}

impl<'a> Prop<'a> {
    /// The `FF[4]` identifier (`AB`, also for `AddBlack` as written in `FF[3]`).
    #[inline]
    pub fn name(&self) -> &'a [u8] {
        self.tree.bytes_of(self.rec.name)
    }

    /// The identifier as written.
    #[inline]
    pub fn raw_name(&self) -> &'a [u8] {
        self.tree.bytes_of(self.rec.raw)
    }

    /// The values, in order, as written (escapes unresolved).
    #[inline]
    pub fn values(&self) -> impl ExactSizeIterator<Item = RawValue<'a>> + DoubleEndedIterator + 'a {
        let tree = self.tree;
        tree.values[self.rec.values as usize..][..self.rec.nvalues as usize]
            .iter()
            .map(move |&s| RawValue(tree.bytes_of(s)))
    }

    /// The first value (`None` only for a property built without values).
    #[inline]
    pub fn value(&self) -> Option<RawValue<'a>> {
        self.values().next()
    }
}

/// The deepest nesting of variations (branch points on one path) that `Serialize` (feature
/// `serde`) writes; a deeper tree gives a serde error rather than overflowing the stack. A line
/// of single children is not nesting, so a game of any length serializes.
pub const SERDE_MAX_DEPTH: u32 = 1000;
