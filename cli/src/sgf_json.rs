//! `kifu json` for SGF: one object per game tree, written from the events.
//!
//! The nodes of a game tree are kept in a small arena (each node's properties already written
//! as JSON) until the tree ends; then the tree is written in the grammar's shape without
//! recursion: a tree's `nodes` follow single children, a node with two or more children ends the
//! sequence and each child opens a tree in `variations`. `(;a(;b))` and `(;a;b)` are the same
//! game tree (FF\[4\] §3) and are written alike, so the JSON nests only as deep as the game
//! branches (the Fox files that put every move in its own subtree stay flat).

use std::io::{self, Write};

use kifu::Control;
use kifu::encoding::{Charset, Encoding};
use kifu::sgf::{Context, Error, Property, Value, Visitor};

fn push_str(out: &mut Vec<u8>, s: &str) {
    serde_json::to_writer(&mut *out, s).expect("writing to a Vec cannot fail");
}

/// One node: its properties (FF\[4\] identifier, values decoded by type but still bytes) and
/// its children.
#[derive(Default)]
struct Node {
    props: Vec<(Vec<u8>, Vec<Vec<u8>>)>,
    children: Vec<u32>,
}

/// How text is turned from bytes into JSON strings.
#[derive(Clone, Copy, Debug)]
pub enum CharsetChoice {
    /// Per game tree: the charset `CA` names, else UTF-8, else ISO-8859-1 unless the text shows
    /// another encoding (`kifu::encoding::Charset`).
    Auto,
    /// Always this one.
    Fixed(&'static Encoding),
}

/// Writes one JSON object per SGF game tree.
pub struct SgfJson<'w, W: Write> {
    out: &'w mut W,
    file: String,
    failed: Option<io::Error>,
    /// The nodes of the game tree being read.
    nodes: Vec<Node>,
    /// Nodes without a parent (one, unless the tree opens with variations).
    roots: Vec<u32>,
    /// The current node, or `None` before the first node of the game tree.
    current: Option<u32>,
    /// The current node where each open variation started (restored at its `)`).
    saved: Vec<Option<u32>>,
    in_game: bool,
    /// A property is open: values go to the last property of the current node.
    prop_open: bool,
    choice: CharsetChoice,
    charset: Charset,
    /// The value being assembled from pieces (decoded).
    value: Vec<u8>,
    index: u64,
    offset: u64,
    errors: Vec<u8>,
    /// Errors met outside game trees before the first one.
    early: Vec<u8>,
    /// The last game tree written except its errors, which stay open for text after its `)`.
    pending: Option<(Vec<u8>, Vec<u8>)>,
    /// Problems left out (past the limit) of `errors`, `early` and `pending`'s errors.
    dropped: u64,
    early_dropped: u64,
    pending_dropped: u64,
    /// How many problems `early` holds.
    early_count: u64,
    /// Bytes held for the game tree being read (an estimate, as the DOM's), and whether it
    /// reached [`MAX_GAME_BYTES`] (the rest of it is then skipped).
    held: usize,
    too_large: bool,
    /// The limit (`--max-game-bytes`).
    max_game_bytes: usize,
}

/// The most a game tree may hold before the rest of it is skipped with `E103`: the DOM's default
/// (`sgf::TreeBuilder::DEFAULT_MAX_GAME_BYTES`), so that hostile input cannot exhaust memory.
const MAX_GAME_BYTES: usize = kifu::sgf::TreeBuilder::DEFAULT_MAX_GAME_BYTES;

impl<'w, W: Write> SgfJson<'w, W> {
    pub fn new(out: &'w mut W, file: String) -> Self {
        SgfJson {
            out,
            file,
            failed: None,
            nodes: Vec::new(),
            roots: Vec::new(),
            current: None,
            saved: Vec::new(),
            in_game: false,
            prop_open: false,
            choice: CharsetChoice::Auto,
            charset: Charset::default(),
            value: Vec::new(),
            index: 0,
            offset: 0,
            errors: Vec::new(),
            early: Vec::new(),
            pending: None,
            dropped: 0,
            early_dropped: 0,
            pending_dropped: 0,
            early_count: 0,
            held: 0,
            too_large: false,
            max_game_bytes: MAX_GAME_BYTES,
        }
    }

    /// Decodes text as `choice` says (default: [`CharsetChoice::Auto`]).
    pub fn with_charset(mut self, choice: CharsetChoice) -> Self {
        self.choice = choice;
        self
    }

    /// Sets the most a game tree may hold (default: the DOM's, 64 MiB).
    pub fn with_max_game_bytes(mut self, max: usize) -> Self {
        self.max_game_bytes = max;
        self
    }

    /// Writes the last game tree; call after the input ended. Gives back how many problems no
    /// game tree object carries (an input without any game tree: text that is not SGF).
    pub fn finish(mut self) -> io::Result<u64> {
        if self.failed.is_none() {
            let r = self.flush_pending();
            let _ = self.record(r);
        }
        match self.failed {
            Some(e) => Err(e),
            None => Ok(self.early_count + self.early_dropped),
        }
    }

    fn record(&mut self, r: io::Result<()>) -> Control {
        match r {
            Ok(()) => Control::Continue,
            Err(e) => {
                self.failed = Some(e);
                Control::Stop
            }
        }
    }

    fn flush_pending(&mut self) -> io::Result<()> {
        if let Some((mut head, errors)) = self.pending.take() {
            head.extend_from_slice(&errors);
            head.push(b']');
            let dropped = std::mem::take(&mut self.pending_dropped);
            if dropped > 0 {
                head.extend_from_slice(format!(",\"errors_dropped\":{dropped}").as_bytes());
            }
            head.extend_from_slice(b"}\n");
            self.out.write_all(&head)?;
        }
        Ok(())
    }

    fn close_prop(&mut self) {
        self.prop_open = false;
    }

    /// A node's properties as JSON, text decoded with `encoding`.
    fn node_json(node: &Node, encoding: &'static Encoding, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"props\":[");
        for (i, (name, values)) in node.props.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.push(b'[');
            push_str(out, &String::from_utf8_lossy(name));
            out.extend_from_slice(b",[");
            for (k, v) in values.iter().enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                push_str(out, &kifu::encoding::decode(v, encoding));
            }
            out.extend_from_slice(b"]]");
        }
        out.extend_from_slice(b"]}");
    }

    /// The game tree as JSON, written with an explicit stack.
    fn tree_json(&self, out: &mut Vec<u8>) {
        let encoding = match self.choice {
            CharsetChoice::Auto => self.charset.encoding(),
            CharsetChoice::Fixed(e) => e,
        };
        enum Step {
            Tree(u32),
            Comma,
            Close,
        }
        let mut stack = Vec::new();
        match self.roots.as_slice() {
            [] => {
                out.extend_from_slice(b"{\"nodes\":[],\"variations\":[]}");
                return;
            }
            [root] => stack.push(Step::Tree(*root)),
            roots => {
                // variations with no node before them: a tree of no nodes
                out.extend_from_slice(b"{\"nodes\":[],\"variations\":[");
                stack.push(Step::Close);
                for (i, &r) in roots.iter().enumerate().rev() {
                    stack.push(Step::Tree(r));
                    if i > 0 {
                        stack.push(Step::Comma);
                    }
                }
            }
        }
        while let Some(step) = stack.pop() {
            match step {
                Step::Comma => out.push(b','),
                Step::Close => out.extend_from_slice(b"]}"),
                Step::Tree(mut n) => {
                    out.extend_from_slice(b"{\"nodes\":[");
                    loop {
                        let node = &self.nodes[n as usize];
                        Self::node_json(node, encoding, out);
                        match node.children.as_slice() {
                            [only] => {
                                out.push(b',');
                                n = *only;
                            }
                            _ => break,
                        }
                    }
                    out.extend_from_slice(b"],\"variations\":[");
                    stack.push(Step::Close);
                    let children = &self.nodes[n as usize].children;
                    for (i, &c) in children.iter().enumerate().rev() {
                        stack.push(Step::Tree(c));
                        if i > 0 {
                            stack.push(Step::Comma);
                        }
                    }
                }
            }
        }
    }

    fn end_game(&mut self) {
        self.close_prop();
        let mut head =
            Vec::with_capacity(256 + self.nodes.iter().map(|n| n.props.len() + 16).sum::<usize>());
        head.extend_from_slice(b"{\"index\":");
        head.extend_from_slice(self.index.to_string().as_bytes());
        head.extend_from_slice(b",\"offset\":");
        head.extend_from_slice(self.offset.to_string().as_bytes());
        head.extend_from_slice(b",\"file\":");
        push_str(&mut head, &self.file);
        head.extend_from_slice(b",\"tree\":");
        self.tree_json(&mut head);
        head.extend_from_slice(b",\"errors\":[");
        self.pending = Some((head, std::mem::take(&mut self.errors)));
        self.pending_dropped = std::mem::take(&mut self.dropped);
        self.nodes.clear();
        self.roots.clear();
        self.saved.clear();
        self.current = None;
        self.in_game = false;
        self.charset.clear();
        self.held = 0;
        self.too_large = false;
    }

    /// Counts `bytes` more for the game tree; past the limit, reports `E103` at `ctx` once and
    /// asks the parser to skip the rest of the game tree.
    fn hold(&mut self, bytes: usize, ctx: &Context) -> Control {
        self.held += bytes;
        if self.held <= self.max_game_bytes {
            return Control::Continue;
        }
        if !self.too_large {
            self.too_large = true;
            let kind = kifu::sgf::ErrorKind::GameTooLarge;
            if !self.errors.is_empty() {
                self.errors.push(b',');
            }
            let e = &mut self.errors;
            e.extend_from_slice(b"{\"code\":");
            push_str(e, kind.code());
            e.extend_from_slice(b",\"severity\":");
            push_str(e, kind.severity().as_str());
            e.extend_from_slice(b",\"message\":");
            push_str(e, &kind.to_string());
            e.extend_from_slice(
                format!(
                    ",\"text\":\"\",\"offset\":{},\"line\":{},\"column\":{},\"node\":{},\"depth\":{}}}",
                    ctx.pos.offset, ctx.pos.line, ctx.pos.column, ctx.node, ctx.depth
                )
                .as_bytes(),
            );
        }
        Control::SkipGame
    }
}

impl<W: Write> Visitor for SgfJson<'_, W> {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        self.close_prop();
        if ctx.is_game_level() {
            let r = self.flush_pending();
            if self.record(r) == Control::Stop {
                return Control::Stop;
            }
            self.index = ctx.game;
            self.offset = ctx.pos.offset;
            self.in_game = true;
            self.errors = std::mem::take(&mut self.early);
            self.dropped = std::mem::take(&mut self.early_dropped);
            self.early_count = 0;
        } else {
            self.saved.push(self.current);
        }
        Control::Continue
    }

    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        if ctx.is_game_level() {
            self.end_game();
        } else {
            self.close_prop();
            self.current = self.saved.pop().flatten();
        }
        Control::Continue
    }

    fn on_node(&mut self, ctx: &Context) -> Control {
        if self.too_large || self.hold(32, ctx) == Control::SkipGame {
            return Control::SkipGame;
        }
        self.close_prop();
        let id = self.nodes.len() as u32;
        self.nodes.push(Node::default());
        match self.current {
            Some(p) => self.nodes[p as usize].children.push(id),
            None => self.roots.push(id),
        }
        self.current = Some(id);
        Control::Continue
    }

    fn on_node_end(&mut self, _: &Context) -> Control {
        self.close_prop();
        Control::Continue
    }

    fn on_property(&mut self, ctx: &Context, prop: &Property<'_>) -> Control {
        if self.too_large || self.hold(32 + prop.name.len(), ctx) == Control::SkipGame {
            return Control::SkipGame;
        }
        self.close_prop();
        if let Some(n) = self.current {
            self.nodes[n as usize]
                .props
                .push((prop.name.to_vec(), Vec::new()));
            self.prop_open = true;
        }
        Control::Continue
    }

    fn on_value(&mut self, ctx: &Context, value: &Value<'_>) -> Control {
        if self.too_large || self.hold(value.raw.as_bytes().len() + 8, ctx) == Control::SkipGame {
            return Control::SkipGame;
        }
        if value.first {
            self.value.clear();
        }
        self.value.extend_from_slice(&value.raw.decoded(value.name));
        if value.last && self.prop_open {
            if let Some(n) = self.current {
                if value.name == b"CA" && n == 0 {
                    self.charset.declare(&self.value);
                }
                self.charset.sample(&self.value);
                if let Some((_, values)) = self.nodes[n as usize].props.last_mut() {
                    values.push(self.value.clone());
                }
            }
        }
        Control::Continue
    }

    fn on_error(&mut self, e: &Error<'_>) -> Control {
        let max = self.max_game_bytes;
        // outside game trees (no node): the game tree before; a game tree's own problem raised
        // before its first node (`(` without `;`): that game tree
        let (target, dropped) = if self.in_game {
            (&mut self.errors, &mut self.dropped)
        } else {
            match self.pending.as_mut() {
                Some((_, errors)) if e.at.is_none() => (errors, &mut self.pending_dropped),
                _ => {
                    self.early_count += 1;
                    (&mut self.early, &mut self.early_dropped)
                }
            }
        };
        if target.len() > max {
            // a flood of problems (junk of gigabytes): `kifu check` lists them all; the object
            // says how many
            *dropped += 1;
            return Control::Continue;
        }
        if !target.is_empty() {
            target.push(b',');
        }
        // keys in the documented order (the DOM's serialization writes the same bytes)
        target.extend_from_slice(b"{\"code\":");
        push_str(target, e.kind.code());
        target.extend_from_slice(b",\"severity\":");
        push_str(target, e.severity.as_str());
        target.extend_from_slice(b",\"message\":");
        push_str(target, &e.kind.to_string());
        target.extend_from_slice(b",\"text\":");
        push_str(target, &String::from_utf8_lossy(e.text));
        let num = |v: Option<u64>| v.map_or("null".to_string(), |n| n.to_string());
        let fields = [
            ("offset", Some(e.pos.offset)),
            ("line", Some(e.pos.line)),
            ("column", Some(u64::from(e.pos.column))),
            ("node", e.at.map(|n| u64::from(n.node))),
            ("depth", e.at.map(|n| u64::from(n.depth))),
        ];
        for (key, value) in fields {
            target.extend_from_slice(format!(",\"{key}\":{}", num(value)).as_bytes());
        }
        target.push(b'}');
        Control::Continue
    }
}
