//! Game tree structure: text outside game trees, nodes, the opening and closing of game trees
//! and variations, the start and end of a game.

use super::*;
use crate::flow::Closed;

impl Parser {
    /// A byte outside any game tree.
    pub(super) fn idle<V: Visitor>(
        &mut self,
        input: &[u8],
        i: usize,
        eof: bool,
        v: &mut V,
    ) -> Step {
        let n = input.len();
        let b = input[i];
        let glued = self.garbage.active && self.garbage.end == self.base + i as u64;
        if b == 0xEF && !glued {
            // a BOM (not glued to junk before it, whose word it then continues)
            const BOM: &[u8] = b"\xEF\xBB\xBF";
            let avail = &input[i..n.min(i + 3)];
            if avail == BOM {
                return Step::To(i + 3);
            }
            if avail.len() < 3 && !eof && BOM.starts_with(avail) {
                return Step::Pending;
            }
        }
        match b {
            b'(' => {
                // decided after the white space that follows it (`game_or_text`)
                self.mode = Mode::Paren {
                    pos: self.pos(i),
                    broke: false,
                };
                Step::To(i + 1)
            }
            b')' if !self.garbage.active => {
                self.emit_error(ErrorKind::StrayParen, b")", self.pos(i), false, v);
                Step::To(i + 1)
            }
            _ => {
                let mut j = lexer::word_end(input, i, n);
                if j == i {
                    j = i + 1; // `)`, `;` or `[`
                }
                self.add_garbage(i, &input[i..j]);
                Step::To(j)
            }
        }
    }

    /// After a `(` outside any game tree: passes white space (any amount: FF[4] allows it
    /// between any two tokens, and only the `(`'s position is kept), then decides from the
    /// first `;` or property identifier, looking at most `max_ident_len + 64` bytes past the
    /// white space, whether the `(` opens a game tree or is text outside the game trees.
    pub(super) fn game_or_text<V: Visitor>(
        &mut self,
        input: &[u8],
        mut i: usize,
        pos: Position,
        mut broke: bool,
        eof: bool,
        v: &mut V,
    ) -> Step {
        let n = input.len();
        while i < n {
            match CLASS[input[i] as usize] {
                SPACE => {}
                NEWLINE => {
                    self.lines.brk(input[i], self.base + i as u64);
                    broke = true;
                }
                _ => break,
            }
            i += 1;
        }
        self.mode = Mode::Paren { pos, broke };
        if i == n && !eof {
            return Step::To(n);
        }
        let lim = self.cfg.max_ident_len + 64;
        match lexer::game_start(&input[i..], lim, eof) {
            Start::More => Step::Stall(i),
            Start::No => {
                self.mode = Mode::Normal;
                self.add_garbage_at(pos.offset, pos, b"(");
                if broke {
                    // as a line break after the `(` would have
                    self.flush_garbage(v);
                }
                Step::To(i)
            }
            Start::Node | Start::Property => {
                self.mode = Mode::Normal;
                self.flush_garbage(v);
                self.begin_game(pos);
                Step::To(i)
            }
        }
    }

    /// A word of junk inside a game tree.
    pub(super) fn junk(&mut self, input: &[u8], i: usize, eof: bool) -> Step {
        let n = input.len();
        let lim = self.cfg.max_ident_len;
        let j = lexer::word_end(input, i, n.min(i + lim + 1));
        if j - i > lim {
            self.add_garbage(i, &input[i..j]);
            self.mode = Mode::Junk;
            return Step::To(j);
        }
        if j == n && !eof {
            return Step::Pending;
        }
        self.add_garbage(i, &input[i..j]);
        Step::To(j)
    }

    // ----- tree structure ------------------------------------------------------------------

    fn begin_game(&mut self, pos: Position) {
        self.in_game = true;
        self.depth = 0;
        self.level = Level::Pending {
            pos,
            children: false,
        };
        self.path_nodes = 0;
        self.tree_base = 0;
        self.variation = 0;
        self.children = 0;
        self.off_main = u32::MAX;
        self.stack.clear();
        self.flow.clear();
        self.prop = Prop::None;
        self.ff = 0;
        self.gm = 0;
        self.size = BoardSize::default();
        self.game_info_at = None;
    }

    /// Raises `on_tree` for a pending tree.
    fn open_pending<V: Visitor>(&mut self, v: &mut V) {
        if let Level::Pending { pos, .. } = self.level {
            self.level = Level::AfterNode;
            if self.skipping() {
                return; // a tree beyond the depth limit
            }
            let c = v.on_tree(&self.tree_ctx(pos));
            self.control(c);
        }
    }

    fn begin_node<V: Visitor>(&mut self, pos: Position, v: &mut V) {
        self.path_nodes += 1;
        self.level = Level::Node;
        // only the words the last node set
        let mut d = self.seen_dirty;
        while d != 0 {
            self.seen[d.trailing_zeros() as usize] = 0;
            d &= d - 1;
        }
        self.seen_dirty = 0;
        self.flags = 0;
        if !self.skipping() {
            let c = v.on_node(&self.ctx_at(pos));
            self.control(c);
        }
    }

    fn end_node<V: Visitor>(&mut self, pos: Position, v: &mut V) {
        self.end_property(v);
        if self.level != Level::Node {
            return;
        }
        self.level = Level::AfterNode;
        if self.skipping() {
            return;
        }
        if self.flags & ANNOT_MOVE != 0 && self.flags & (HAS_B | HAS_W) == 0 {
            self.emit_error(
                ErrorKind::AnnotationWithoutMove,
                b"",
                self.annot_pos,
                false,
                v,
            );
        }
        let c = v.on_node_end(&self.ctx_at(pos));
        self.control(c);
    }

    /// Makes sure a node is open for a property or value at `pos`.
    #[inline]
    pub(super) fn ensure_node<V: Visitor>(&mut self, pos: Position, v: &mut V) {
        if self.level != Level::Node {
            self.open_node(pos, v);
        }
    }

    /// [`ensure_node`](Self::ensure_node) when no node is open: the recoveries.
    #[cold]
    #[inline(never)]
    fn open_node<V: Visitor>(&mut self, pos: Position, v: &mut V) {
        match self.level {
            Level::Node => {}
            Level::Pending { .. } | Level::AfterNode => {
                self.emit_error(ErrorKind::MissingSemicolon, b"", pos, false, v);
                self.open_pending(v);
                self.begin_node(pos, v);
            }
            Level::Children => {
                self.emit_error(ErrorKind::NodeOutsideVariation, b"", pos, false, v);
                self.push_tree(pos, v);
                self.open_pending(v);
                self.begin_node(pos, v);
            }
        }
    }

    pub(super) fn semicolon<V: Visitor>(&mut self, i: usize, v: &mut V) {
        if self.skipping() {
            self.skip_node_content();
            return;
        }
        self.flush_garbage(v);
        let pos = self.pos(i);
        match self.level {
            Level::Pending { .. } => self.open_pending(v),
            Level::Node => self.end_node(pos, v),
            Level::AfterNode => {}
            Level::Children => {
                self.emit_error(ErrorKind::NodeOutsideVariation, b";", pos, false, v);
                self.push_tree(pos, v);
                self.open_pending(v);
            }
        }
        self.begin_node(pos, v);
    }

    /// While skipping: a node, property or value. Only the structure is followed (the same
    /// recoveries as when visiting, so that skipping finds the same tree ends).
    #[inline]
    pub(super) fn skip_node_content(&mut self) {
        match self.level {
            Level::Node => {}
            Level::Pending { .. } | Level::AfterNode => self.level = Level::Node,
            Level::Children => {
                // a node after a variation: the implicit `(` of `NodeOutsideVariation`
                self.flow.open();
                self.level = Level::Node;
            }
        }
    }

    /// Opens a child tree (pending) at `pos`, or skips it beyond the depth limit.
    fn push_tree<V: Visitor>(&mut self, pos: Position, v: &mut V) {
        if self.depth >= self.cfg.max_depth {
            self.emit_error(ErrorKind::TooDeep, b"(", pos, false, v);
            self.flow.start(Skip::Variation { opened: false });
            self.level = Level::Pending {
                pos,
                children: self.level == Level::Children,
            };
            return;
        }
        let children = self.level == Level::Children;
        self.stack.push(Frame {
            path_nodes: self.path_nodes,
            tree_base: self.tree_base,
            variation: self.variation,
            children: self.children,
        });
        self.depth += 1;
        self.tree_base = self.path_nodes;
        self.variation = self.children;
        self.children = 0;
        if self.variation > 0 && self.off_main == u32::MAX {
            self.off_main = self.depth;
        }
        self.level = Level::Pending { pos, children };
    }

    /// Back to the parent level.
    fn pop_tree(&mut self) {
        let f = self.stack.pop().expect("a parent level");
        self.depth -= 1;
        self.path_nodes = f.path_nodes;
        self.tree_base = f.tree_base;
        self.variation = f.variation;
        self.children = f.children;
        if self.off_main > self.depth {
            self.off_main = u32::MAX;
        }
        if self.game_info_at.is_some_and(|k| k >= self.path_nodes) {
            self.game_info_at = None;
        }
    }

    pub(super) fn open_tree<V: Visitor>(&mut self, i: usize, v: &mut V) {
        let pos = self.pos(i);
        if self.skipping() {
            self.skip_open(pos);
            return;
        }
        self.flush_garbage(v);
        match self.level {
            Level::Node => self.end_node(pos, v),
            Level::Pending { .. } => {
                // `((`: the second `(` is dropped, as SGFC does
                self.emit_error(ErrorKind::VariationWithoutNode, b"(", pos, false, v);
                return;
            }
            Level::AfterNode | Level::Children => {}
        }
        if self.skipping() {
            self.skip_open(pos);
            return;
        }
        self.push_tree(pos, v);
    }

    /// While skipping: a `(`.
    fn skip_open(&mut self, pos: Position) {
        match self.level {
            Level::Pending { .. } => {} // `((`: dropped
            l => {
                self.flow.open();
                self.level = Level::Pending {
                    pos,
                    children: l == Level::Children,
                };
            }
        }
    }

    /// Ends the current tree at `pos`: its `on_tree_end` (if it was opened), then the parent
    /// level, or the end of the game.
    pub(super) fn close_tree<V: Visitor>(&mut self, pos: Position, v: &mut V) {
        let was_skipping = self.skipping();
        self.end_node(pos, v);
        if !was_skipping && matches!(self.flow.skip, Skip::Variation { .. }) {
            // a Skip from the last node's `on_node_end`: the tree ends anyway
            self.flow.clear();
        }
        match self.level {
            Level::Pending { .. } if self.depth > 0 => {
                self.pop_tree();
                self.level = Level::Children;
                return;
            }
            Level::Pending { .. } => {}
            _ => {
                let c = v.on_tree_end(&self.tree_ctx(pos));
                self.flow.stop_on(c);
            }
        }
        if self.depth == 0 {
            self.end_game();
        } else {
            self.pop_tree();
            self.children += 1;
            self.level = Level::Children;
        }
    }

    pub(super) fn close_paren<V: Visitor>(&mut self, i: usize, v: &mut V) {
        let pos = self.pos(i);
        if let Some(closed) = self.flow.close() {
            match closed {
                Closed::Inner => self.close_skipped_tree(),
                Closed::Variation { opened } => {
                    self.prop = Prop::None;
                    if opened {
                        self.close_tree(pos, v);
                    } else {
                        // a tree beyond the depth limit: skipped like any other, so an empty
                        // `()` leaves the node open for more, as the skip scanner does
                        self.close_skipped_tree();
                    }
                }
                Closed::Game => self.close_tree(pos, v),
            }
            return;
        }
        self.flush_garbage(v);
        if let Level::Pending {
            pos: open,
            children,
        } = self.level
        {
            if self.depth > 0 {
                self.emit_error(ErrorKind::EmptyTree, b"()", open, false, v);
                self.pop_tree();
                self.level = if children {
                    Level::Children
                } else {
                    Level::AfterNode
                };
                return;
            }
        }
        self.close_tree(pos, v);
    }

    /// While skipping: the `)` of a tree the visitor never saw (opened inside the skipped part,
    /// or beyond the depth limit).
    fn close_skipped_tree(&mut self) {
        self.level = match self.level {
            Level::Pending {
                children: false, ..
            } => Level::AfterNode, // `()`
            _ => Level::Children,
        };
    }

    fn end_game(&mut self) {
        self.in_game = false;
        self.game += 1;
        self.depth = 0;
        self.stack.clear();
        self.flow.clear();
        self.prop = Prop::None;
        self.level = Level::AfterNode;
        self.path_nodes = 0;
        self.tree_base = 0;
        self.variation = 0;
        self.children = 0;
        self.off_main = u32::MAX;
    }
}
