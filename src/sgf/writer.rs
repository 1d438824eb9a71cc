//! Writing game trees as `FF[4]` SGF: [`Writer`].
//!
//! The walk is iterative: a stack (on the heap) holds, per open branch point, the next
//! variation to write, so a tree of any depth is written without recursion.
//!
//! ```text
//!   write `(`, node = root
//!   loop: write node
//!         one child       -> node = child                      (the sequence goes on: `;a;b`)
//!         several         -> push 2nd child, write `(`, node = 1st child
//!         none            -> write `)`; pop finished branch points (writing `)` for each)
//!                            until one has a next variation: write `(`, node = it
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use super::dom::{GameTree, NONE, NodeRec};

/// How a [`Writer`] lays out a game tree. Whitespace goes only between nodes and before `(`;
/// values are never changed, so every layout reads back to the same tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Readable: each root property on its own line, the other nodes several per line up to
    /// [`Writer::width`] columns, each variation on a new line indented by its depth (at most
    /// [`Writer::max_indent`] spaces).
    ///
    /// ```text
    /// (;GM[1]
    /// SZ[19]
    /// PB[Cho Chikun]
    /// ;B[pd];W[dp];B[pp];W[dd];B[pj];W[nc];B[oe];W[qc];B[pc];W[qd];B[qf];W[rf];B[rg]
    /// ;W[re];B[qe]
    ///  (;W[qg];B[rh])
    ///  (;W[rh];B[qg]))
    /// ```
    #[default]
    Pretty,
    /// One line per node (variations indented as in `Pretty`).
    NodePerLine,
    /// No line breaks but the one after the tree.
    Compact,
}

/// Writes [`GameTree`]s as `FF[4]` SGF.
///
/// Identifiers are written in their `FF[4]` form (`AB` for `AddBlack`), properties and values
/// in the order read, values as read (their escapes kept). A value is made safe on the way
/// out: a `]` without `\` before it gets one, a `\` ending a value is doubled, so the output
/// always reads back (values read by the parser never need it). A property without value is
/// written `[]`. A node with one child continues the sequence (`;a;b`); a node with several
/// starts one variation per child. Each tree ends with a line break. The same tree always
/// gives the same bytes.
///
/// ```
/// use kifu::sgf::{self, Layout, Writer};
/// let t = sgf::game_trees(b"(;GM[1]SZ[9]\n(;B[ee](;W[cc])(;W[gg])))").next().unwrap();
/// assert_eq!(Writer::new().to_string(&t), "(;GM[1]\nSZ[9]\n;B[ee]\n (;W[cc])\n (;W[gg]))\n");
/// let one = Writer::new().layout(Layout::NodePerLine).to_string(&t);
/// assert_eq!(one, "(;GM[1]SZ[9]\n;B[ee]\n (;W[cc])\n (;W[gg]))\n");
/// assert_eq!(Writer::new().layout(Layout::Compact).to_string(&t), "(;GM[1]SZ[9];B[ee](;W[cc])(;W[gg]))\n");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Writer {
    layout: Layout,
    width: usize,
    max_indent: usize,
}

impl Default for Writer {
    fn default() -> Self {
        Writer::new()
    }
}

/// Where the output is: the start of the current line, and whether the next node must start
/// a new one.
struct Out<'b> {
    buf: &'b mut Vec<u8>,
    line_start: usize,
    force_break: bool,
}

impl Out<'_> {
    fn col(&self) -> usize {
        self.buf.len() - self.line_start
    }
    fn newline(&mut self, indent: usize) {
        self.buf.push(b'\n');
        self.line_start = self.buf.len();
        self.buf.resize(self.buf.len() + indent, b' ');
    }
    /// After bytes that may hold line breaks were written from `from`.
    fn track(&mut self, from: usize) {
        if let Some(p) = memchr::memrchr(b'\n', &self.buf[from..]) {
            self.line_start = from + p + 1;
        }
    }
}

/// Writes `raw` between brackets, escaping a bare `]` and a `\` at the end.
fn write_value(raw: &[u8], out: &mut Vec<u8>) {
    out.push(b'[');
    let mut i = 0;
    while let Some(p) = memchr::memchr2(b'\\', b']', &raw[i..]) {
        let k = i + p;
        out.extend_from_slice(&raw[i..k]);
        if raw[k] == b']' {
            out.extend_from_slice(b"\\]");
            i = k + 1;
        } else if k + 1 < raw.len() {
            out.extend_from_slice(&raw[k..k + 2]);
            i = k + 2;
        } else {
            out.extend_from_slice(b"\\\\");
            i = k + 1;
        }
    }
    out.extend_from_slice(&raw[i..]);
    out.push(b']');
}

impl Writer {
    /// The [`Layout::Pretty`] layout, 80 columns, indentation at most 8 spaces.
    pub const fn new() -> Writer {
        Writer {
            layout: Layout::Pretty,
            width: 80,
            max_indent: 8,
        }
    }

    /// Uses `layout`.
    pub const fn layout(mut self, layout: Layout) -> Writer {
        self.layout = layout;
        self
    }

    /// Lines of nodes up to `width` columns in [`Layout::Pretty`] (a longer node gets a line of
    /// its own).
    pub const fn width(mut self, width: usize) -> Writer {
        self.width = width;
        self
    }

    /// At most `max_indent` spaces before a variation, whatever its depth.
    pub const fn max_indent(mut self, max_indent: usize) -> Writer {
        self.max_indent = max_indent;
        self
    }

    /// Appends `tree` to `out`.
    pub fn write_to_vec(&self, tree: &GameTree, out: &mut Vec<u8>) {
        let _ = self.write_with(tree, out, usize::MAX, |_| Ok::<(), ()>(()));
    }

    /// `tree` as bytes.
    pub fn to_vec(&self, tree: &GameTree) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_to_vec(tree, &mut out);
        out
    }

    /// `tree` as a string; bytes that are not UTF-8 (values in another charset, see `CA`)
    /// are replaced by U+FFFD: use [`to_vec`](Self::to_vec) to keep them.
    pub fn to_string(&self, tree: &GameTree) -> String {
        match String::from_utf8(self.to_vec(tree)) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        }
    }

    /// Writes `tree` to `w`, through a buffer flushed every 64 KiB.
    ///
    /// # Errors
    ///
    /// The first error of `w`.
    #[cfg(feature = "std")]
    pub fn write<W: std::io::Write>(&self, tree: &GameTree, mut w: W) -> std::io::Result<()> {
        let mut buf = Vec::with_capacity(1 << 16);
        self.write_with(tree, &mut buf, 1 << 16, |b| w.write_all(b))
    }

    /// The walk: writes into `buf`, handing it to `flush` whenever it holds more than
    /// `flush_at` bytes (between nodes) and at the end.
    fn write_with<E>(
        &self,
        tree: &GameTree,
        buf: &mut Vec<u8>,
        flush_at: usize,
        mut flush: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        let base = buf.len();
        let mut out = Out {
            buf,
            line_start: base,
            force_break: false,
        };
        if tree.nodes.is_empty() {
            out.buf.extend_from_slice(b"(;)\n");
            return if flush_at == usize::MAX {
                Ok(())
            } else {
                flush(out.buf)
            };
        }
        let nodes = &tree.nodes;
        // per open branch point: the next variation to write (NONE when all are written)
        let mut stack: Vec<u32> = Vec::new();
        let mut scratch = Vec::new();
        out.buf.push(b'(');
        let mut cur = 0u32;
        let mut fresh = true; // just after `(`
        'walk: loop {
            let rec = &nodes[cur as usize];
            self.node(
                tree,
                rec,
                cur == 0,
                fresh,
                stack.len(),
                &mut out,
                &mut scratch,
            );
            fresh = false;
            if out.buf.len() > flush_at {
                flush(out.buf)?;
                out.buf.clear();
                out.line_start = 0;
            }
            let c = rec.first_child;
            if c != NONE {
                let next = nodes[c as usize].next_sibling;
                if next != NONE {
                    stack.push(next);
                    self.open(stack.len(), &mut out);
                    fresh = true;
                }
                cur = c;
                continue;
            }
            out.buf.push(b')');
            while let Some(next) = stack.last_mut() {
                if *next != NONE {
                    cur = *next;
                    *next = nodes[cur as usize].next_sibling;
                    self.open(stack.len(), &mut out);
                    fresh = true;
                    continue 'walk;
                }
                stack.pop();
                if self.layout != Layout::Compact && out.col() >= self.width {
                    // a long run of `)` closing deep variations: wrapped
                    out.newline(self.indent(stack.len()));
                }
                out.buf.push(b')');
            }
            break;
        }
        out.buf.push(b'\n');
        if flush_at == usize::MAX {
            Ok(())
        } else {
            flush(out.buf)
        }
    }

    fn indent(&self, depth: usize) -> usize {
        depth.min(self.max_indent)
    }

    /// Opens a variation at `depth`.
    fn open(&self, depth: usize, out: &mut Out<'_>) {
        if self.layout != Layout::Compact {
            out.newline(self.indent(depth));
        }
        out.buf.push(b'(');
    }

    #[allow(clippy::too_many_arguments)]
    fn node(
        &self,
        tree: &GameTree,
        rec: &NodeRec,
        root: bool,
        fresh: bool,
        depth: usize,
        out: &mut Out<'_>,
        scratch: &mut Vec<u8>,
    ) {
        let props = &tree.props[rec.props as usize..][..rec.nprops as usize];
        let pretty = self.layout == Layout::Pretty;
        let value_runs = |p: &super::dom::PropRec, buf: &mut Vec<u8>| {
            buf.extend_from_slice(tree.bytes_of(p.name));
            let values = &tree.values[p.values as usize..][..p.nvalues as usize];
            if values.is_empty() {
                buf.extend_from_slice(b"[]");
            }
            for &v in values {
                write_value(tree.bytes_of(v), buf);
            }
        };
        if root && pretty {
            out.buf.push(b';');
            for (i, p) in props.iter().enumerate() {
                if i > 0 {
                    out.newline(0);
                }
                let from = out.buf.len();
                value_runs(p, out.buf);
                out.track(from);
            }
            // the next node starts a line of its own
            out.force_break = !props.is_empty();
            return;
        }
        scratch.clear();
        scratch.push(b';');
        for p in props {
            value_runs(p, scratch);
        }
        let multiline = memchr::memchr(b'\n', scratch).is_some();
        let new_line = match self.layout {
            Layout::Compact => false,
            Layout::NodePerLine => !fresh,
            Layout::Pretty => {
                !fresh && (out.force_break || multiline || out.col() + scratch.len() > self.width)
            }
        };
        if new_line {
            out.newline(self.indent(depth));
        }
        let from = out.buf.len();
        out.buf.extend_from_slice(scratch);
        // what follows a node spread over lines starts a new line
        out.force_break = multiline;
        if multiline {
            out.track(from);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sgf::{NodeId, game_trees};

    fn value(raw: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        write_value(raw, &mut out);
        out
    }

    #[test]
    fn values_are_made_safe() {
        assert_eq!(value(br"a\]b"), br"[a\]b]");
        assert_eq!(value(b"a]b"), br"[a\]b]");
        assert_eq!(value(br"ab\"), br"[ab\\]");
        assert_eq!(value(br"a\\"), br"[a\\]");
        assert_eq!(value(b""), b"[]");
    }

    #[test]
    fn raw_values_read_back() {
        let mut t = GameTree::new();
        t.add_raw_property(NodeId::ROOT, "XX", [&b"x]y\\"[..], b"]", b"\\"]);
        let out = Writer::new().to_vec(&t);
        let back = game_trees(&out).next().unwrap();
        assert!(!back.has_errors(), "{:?}", back.errors()); // W35 unknown property only
        let texts: Vec<Vec<u8>> = back
            .root()
            .get(b"XX")
            .unwrap()
            .values()
            .map(|v| v.text().into_owned())
            .collect();
        assert_eq!(texts, [b"x]y\\".to_vec(), b"]".to_vec(), b"\\".to_vec()]);
    }

    #[test]
    fn lines_wrap_at_the_width_and_after_multiline_nodes() {
        let mut t = GameTree::new();
        t.add_property(NodeId::ROOT, "GM", ["1"]);
        let mut cur = NodeId::ROOT;
        for i in 0..40 {
            cur = t.add_node(cur);
            t.add_property(cur, if i % 2 == 0 { "B" } else { "W" }, ["dd"]);
            if i == 20 {
                t.add_property(cur, "C", ["two\nlines"]);
            }
        }
        let s = Writer::new().width(30).to_string(&t);
        assert!(s.lines().all(|l| l.len() <= 30), "{s}");
        assert!(s.contains("\n;"), "{s}");
        let one = Writer::new().layout(Layout::NodePerLine).to_string(&t);
        assert_eq!(one.lines().count(), 42); // 41 nodes, one comment of two lines
        for w in [
            Writer::new().width(30),
            Writer::new().layout(Layout::Compact),
        ] {
            assert_eq!(game_trees(&w.to_vec(&t)).next().unwrap(), t);
        }
    }
}
