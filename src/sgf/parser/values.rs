//! Properties and values: identifiers, values cut into pieces, and their delivery.

use super::*;

impl Parser {
    /// Letters inside a game tree: an identifier, or junk.
    pub(super) fn ident<V: Visitor>(
        &mut self,
        input: &[u8],
        i: usize,
        eof: bool,
        v: &mut V,
    ) -> Step {
        let n = input.len();
        let lim = self.cfg.max_ident_len;
        let e = if i + 1 < n && !lexer::is_letter(input[i + 1]) {
            i + 1 // one letter (`B`, `W`, `C`): no loop
        } else {
            lexer::letters_end(input, i, n.min(i + lim + 1))
        };
        if e - i > lim {
            if self.skipping() {
                self.skip_node_content();
            } else {
                self.flush_garbage(v);
                let pos = self.pos(i);
                self.end_property(v);
                self.ensure_node(pos, v);
                self.emit_error(ErrorKind::IdentTooLong, &input[i..e], pos, false, v);
                self.prop = Prop::Drop;
            }
            self.mode = Mode::SkipIdent;
            return Step::To(e);
        }
        if e == n && !eof {
            return Step::Pending;
        }
        if e < n && !lexer::is_delimiter(input[e]) {
            return self.junk(input, i, eof);
        }
        let word = &input[i..e];
        if !word.iter().any(u8::is_ascii_uppercase) {
            self.add_garbage(i, word);
            return Step::To(e);
        }
        if self.skipping() {
            self.skip_node_content();
            return Step::To(e);
        }
        self.flush_garbage(v);
        let pos = self.pos(i);
        self.end_property(v);
        self.ensure_node(pos, v);
        if self.skipping() {
            return Step::To(e);
        }
        self.short = props::bit(word);
        if let Some(b) = self.short {
            // one or two uppercase letters (most identifiers): nothing to copy
            self.info = props::TABLE[b];
        } else {
            self.name.clear();
            self.raw_name.clear();
            if word.iter().all(u8::is_ascii_uppercase) {
                self.name.extend_from_slice(word);
            } else {
                self.name
                    .extend(word.iter().copied().filter(u8::is_ascii_uppercase));
            }
            self.raw_name.extend_from_slice(word);
            self.info = props::lookup(&self.name);
        }
        self.ident_pos = pos;
        self.prop = Prop::Ident;
        self.nvalues = 0;
        self.had_empty = false;
        Step::To(e)
    }

    /// The common node `;B[pd]` (or `W`), right after its `;` began the node at `i - 1`: the
    /// move read whole, with the events, state and checks of [`ident`](Self::ident) then
    /// [`value_start`](Self::value_start), in the one case it takes (an identifier of one
    /// letter, a value of two lowercase letters that is a point of the board or `tt`'s pass,
    /// nothing to report); while skipping, any identifier of one letter with such a value is
    /// passed over. Returns where the input goes on, or `None` (nothing done) when the bytes or
    /// the state are anything else, for the general path to read.
    #[inline]
    pub(super) fn move_node<V: Visitor>(
        &mut self,
        input: &[u8],
        i: usize,
        v: &mut V,
    ) -> Option<usize> {
        let &[who, b'[', x, y, b']', ..] = input.get(i..)? else {
            return None;
        };
        if !(x.is_ascii_lowercase() && y.is_ascii_lowercase()) || self.flow.stop {
            return None;
        }
        if self.skipping() {
            // skipped, any property of one letter and such a value is only passed over
            return who.is_ascii_uppercase().then(|| self.skip_value_at(i + 1));
        }
        if !matches!(who, b'B' | b'W')
            || self.level != Level::Node
            || self.prop != Prop::None
            || self.flags != 0
            || self.garbage.active
            || !self.is_go()
            || self.at_root()
        {
            return None;
        }
        let point = RawValue(&input[i + 2..i + 4]).go_move(self.size)?;
        // the identifier (`ident`)
        let b = (who - b'A') as usize;
        self.short = Some(b);
        self.info = props::TABLE[b];
        self.ident_pos = self.pos(i);
        self.nvalues = 0;
        self.had_empty = false;
        // its first value (`value_start`, `property_start`): a move in a node that has
        // nothing else yet is neither a duplicate, nor a second move, nor mixed with setup
        self.value_pos = self.pos(i + 1);
        self.value_len = 0;
        self.value_nul = false;
        self.prop = Prop::Values;
        self.seen[0] |= 1 << b;
        self.seen_dirty |= 1;
        self.flags |= if who == b'B' { HAS_B } else { HAS_W } | MOVE;
        let name = props::name(b);
        let c = v.on_property(&self.ctx_at(self.ident_pos), &Property { name, raw: name });
        self.control(c);
        self.value_drop = self.skipping();
        if self.value_drop {
            return Some(i + 5);
        }
        self.value_index = 0;
        self.nvalues = 1;
        // its one piece (`deliver`, `piece`)
        self.value_len = 2;
        let raw = &input[i + 2..i + 4];
        let ctx = self.ctx_at(self.value_pos);
        let c = v.on_value(
            &ctx,
            &Value {
                name,
                raw: RawValue(raw),
                index: 0,
                first: true,
                last: true,
            },
        );
        self.control(c);
        if !self.skipping() {
            let color = if who == b'B' {
                Color::Black
            } else {
                Color::White
            };
            let c = v.on_move(&ctx, &Move { color, point, raw });
            self.control(c);
        }
        Some(i + 5)
    }

    /// While skipping: the value `[xy]` whose `[` is at `i`, whole in the input, passed over
    /// as [`value_start`](Self::value_start) and [`deliver`](Self::deliver) pass over a
    /// skipped one (its identifier, skipped, left no state; the node's `;` already made the
    /// level a node's, as `skip_node_content` would). Returns where the input goes on.
    #[inline]
    fn skip_value_at(&mut self, i: usize) -> usize {
        debug_assert_eq!(self.level, Level::Node);
        self.value_pos = self.pos(i);
        self.value_len = 0;
        self.value_nul = false;
        self.value_drop = true;
        i + 4
    }

    // ----- properties and values -----------------------------------------------------------

    /// Ends the property being read: an identifier without value is reported.
    #[inline]
    pub(super) fn end_property<V: Visitor>(&mut self, v: &mut V) {
        if self.prop == Prop::Ident {
            self.property_without_value(v);
        }
        self.prop = Prop::None;
    }

    /// Reports the identifier waiting for a value as [`ErrorKind::PropertyWithoutValue`].
    #[cold]
    #[inline(never)]
    fn property_without_value<V: Visitor>(&mut self, v: &mut V) {
        self.ident_error(ErrorKind::PropertyWithoutValue, v);
    }

    /// Raises an error on the identifier as written.
    #[cold]
    #[inline(never)]
    pub(super) fn ident_error<V: Visitor>(&mut self, kind: ErrorKind, v: &mut V) {
        self.name_error(kind, self.ident_pos, true, v);
    }

    /// Reports a second value of a property that takes one.
    #[cold]
    #[inline(never)]
    fn too_many_values<V: Visitor>(&mut self, pos: Position, v: &mut V) {
        self.name_error(ErrorKind::TooManyValues, pos, false, v);
    }

    /// Raises an error whose text is the property's identifier: as written (`raw`) or its
    /// `FF[4]` name.
    fn name_error<V: Visitor>(&mut self, kind: ErrorKind, pos: Position, raw: bool, v: &mut V) {
        if let Some(b) = self.short {
            return self.emit_error(kind, props::name(b), pos, false, v);
        }
        let name = core::mem::take(if raw {
            &mut self.raw_name
        } else {
            &mut self.name
        });
        self.emit_error(kind, &name, pos, false, v);
        *(if raw {
            &mut self.raw_name
        } else {
            &mut self.name
        }) = name;
    }

    /// The `FF[4]` identifier of the property being read.
    #[inline]
    pub(super) fn name(&self) -> &[u8] {
        match self.short {
            Some(b) => props::name(b),
            None => &self.name,
        }
    }

    /// The identifier of the property being read, as written.
    #[inline]
    pub(super) fn raw_name(&self) -> &[u8] {
        match self.short {
            Some(b) => props::name(b),
            None => &self.raw_name,
        }
    }

    /// Where the value piece starting at `s` ends, or `None` when more input is needed.
    #[inline]
    pub(super) fn piece_end(&self, input: &[u8], s: usize, eof: bool) -> Option<PieceEnd> {
        let lim = self.cfg.max_value_piece;
        let n = input.len();
        let w = n.min(s + lim + 1);
        if let Some(p) = lexer::value_end(&input[s..w]) {
            return Some(PieceEnd::Close(s + p));
        }
        if w - s > lim {
            return Some(PieceEnd::Cut(s + lexer::piece_cut(&input[s..w], lim)));
        }
        if eof {
            return Some(PieceEnd::Eof);
        }
        None
    }

    /// A `[` inside a game tree.
    pub(super) fn value_start<V: Visitor>(
        &mut self,
        input: &[u8],
        i: usize,
        eof: bool,
        v: &mut V,
    ) -> Step {
        let Some(end) = self.piece_end(input, i + 1, eof) else {
            return Step::Pending;
        };
        let pos = self.pos(i);
        self.value_pos = pos;
        self.value_len = 0;
        self.value_nul = false;
        if !self.skipping() {
            self.flush_garbage(v);
            match self.prop {
                Prop::Ident => self.property_start(v),
                Prop::Values | Prop::Drop => {}
                Prop::None => {
                    self.ensure_node(pos, v);
                    self.emit_error(ErrorKind::ValueWithoutIdent, b"[", pos, false, v);
                    self.prop = Prop::Drop;
                }
            }
        } else {
            self.skip_node_content();
        }
        self.value_drop = self.prop == Prop::Drop || self.skipping();
        if !self.value_drop {
            self.value_index = self.nvalues;
            self.nvalues += 1;
            if self.value_index == 1 && self.info.is_some_and(|f| !f.list) {
                self.too_many_values(pos, v);
            }
        }
        Step::To(self.deliver(input, i + 1, end, true, v))
    }

    /// Delivers the value piece starting at `s` and ending at `end`; returns where the input
    /// goes on.
    pub(super) fn deliver<V: Visitor>(
        &mut self,
        input: &[u8],
        s: usize,
        end: PieceEnd,
        first: bool,
        v: &mut V,
    ) -> usize {
        let n = input.len();
        let (text_end, next, last) = match end {
            PieceEnd::Close(p) => (p, p + 1, true),
            PieceEnd::Cut(c) => (c, c, false),
            PieceEnd::Eof => (n, n, true),
        };
        let text = &input[s..text_end];
        let pos = if first { self.value_pos } else { self.pos(s) };
        // short values (most): one pass for the bytes up to `\r` (line breaks, NUL), no
        // memchr set-up
        let short = text.len() <= 16;
        let low = !short || text.iter().fold(false, |a, &b| a | (b <= b'\r'));
        if !low {
        } else if short {
            for (k, &b) in text.iter().enumerate() {
                if b == b'\n' || b == b'\r' {
                    self.lines.brk(b, self.base + (s + k) as u64);
                }
            }
        } else {
            self.lines.scan(text, self.base + s as u64);
        }
        self.mode = if last { Mode::Normal } else { Mode::Value };
        if !self.value_drop {
            self.value_len += text.len() as u64;
            if self.value_len > self.cfg.max_value_len {
                self.emit_error(ErrorKind::ValueTooLong, b"", self.value_pos, false, v);
                self.piece(b"", pos, false, true, false, v);
                self.value_drop = true;
            } else {
                self.piece(text, pos, first, last, low, v);
            }
        }
        if matches!(end, PieceEnd::Eof) {
            self.emit_error(ErrorKind::UnterminatedValue, b"[", self.value_pos, true, v);
        }
        next
    }

    /// The events of one value piece (`low`: it may hold a NUL).
    fn piece<V: Visitor>(
        &mut self,
        text: &[u8],
        pos: Position,
        first: bool,
        last: bool,
        low: bool,
        v: &mut V,
    ) {
        let has_nul = if !low {
            false
        } else if text.len() <= 16 {
            text.contains(&0)
        } else {
            memchr::memchr(0, text).is_some()
        };
        if !self.value_nul && has_nul {
            self.value_nul = true;
            self.emit_error(ErrorKind::NulByte, text, pos, false, v);
        }
        let index = self.value_index;
        let mut mv = None;
        if first {
            mv = self.check_value(RawValue(text), last, pos, v);
        }
        let ctx = self.ctx_at(pos);
        let c = v.on_value(
            &ctx,
            &Value {
                name: self.name(),
                raw: RawValue(text),
                index,
                first,
                last,
            },
        );
        self.control(c);
        if let Some(point) = mv {
            if !self.skipping() {
                let color = if self.name() == b"B" {
                    Color::Black
                } else {
                    Color::White
                };
                let c = v.on_move(
                    &ctx,
                    &Move {
                        color,
                        point,
                        raw: text,
                    },
                );
                self.control(c);
            }
        } else if self.name() == b"C" && !self.skipping() {
            let c = v.on_comment(
                &ctx,
                &Comment {
                    text: RawValue(text),
                    first,
                    last,
                },
            );
            self.control(c);
        }
    }
}
